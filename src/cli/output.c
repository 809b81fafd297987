/* Text outputs: the comparison table, JSON, the plan as CSV and as a C header; text from files as every output shows
 * it (display text, shortened names, steps in words); and writing a file atomically. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fsync, fchmod, fileno, umask: the atomic file write */

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

double cli_overhead_percent(uint64_t arena, uint64_t bound) {
    if (bound == 0) return 0.0;
    return ((double)arena - (double)bound) * 100.0 / (double)bound;
}

/* Every byte not shown as itself (cli_shown_length: invalid UTF-8, control characters) is written as the text \xHH,
 * as everywhere else: the JSON stays valid UTF-8 whatever bytes a file's ids or paths hold. */
void cli_json_string(FILE *out, const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    size_t left = strlen(s);
    fputc('"', out);
    while (left > 0) {
        size_t n = cli_shown_length(p, left);
        if (n == 0) fprintf(out, "\\\\x%02X", (unsigned)*p), n = 1;
        else if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else fwrite(p, 1, n, out);
        p += n, left -= n;
    }
    fputc('"', out);
}

void cli_xml_text(FILE *out, const char *s) {
    for (; *s != '\0'; s++) {
        switch (*s) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default: fputc(*s, out); break;
        }
    }
}

size_t cli_shown_length(const unsigned char *s, size_t avail) {
    unsigned c = s[0];
    if (c < 0x20u || c == 0x7Fu) return 0; /* XML allows no control character but tab and newlines: none shown */
    if (c < 0x80u) return 1;
    size_t n;
    uint32_t cp, min;
    if (c >= 0xC2u && c <= 0xDFu) n = 2, cp = c & 0x1Fu, min = 0x80u;
    else if ((c & 0xF0u) == 0xE0u) n = 3, cp = c & 0x0Fu, min = 0x800u;
    else if (c >= 0xF0u && c <= 0xF4u) n = 4, cp = c & 0x07u, min = 0x10000u;
    else return 0; /* a stray continuation byte, or a lead byte RFC 3629 forbids */
    if (n > avail) return 0;
    for (size_t k = 1; k < n; k++) {
        if ((s[k] & 0xC0u) != 0x80u) return 0;
        cp = cp << 6 | (s[k] & 0x3Fu);
    }
    /* overlong forms, code points above U+10FFFF, surrogates, and the noncharacters U+FFFE and U+FFFF (not XML) */
    if (cp < min || cp > 0x10FFFFu || (cp >= 0xD800u && cp <= 0xDFFFu) || cp == 0xFFFEu || cp == 0xFFFFu) return 0;
    return n;
}

char *cli_display_text(const char *data, size_t size) {
    if (size > (SIZE_MAX - 1u) / 4u) return NULL;
    char *text = malloc(4u * size + 1u); /* every byte at most \xHH */
    if (text == NULL) return NULL;
    const unsigned char *p = (const unsigned char *)data;
    size_t at = 0;
    for (size_t i = 0; i < size;) {
        size_t n = cli_shown_length(p + i, size - i);
        if (n == 0) {
            snprintf(text + at, 5, "\\x%02X", (unsigned)p[i]);
            at += 4u;
            i++;
        } else {
            memcpy(text + at, p + i, n);
            at += n;
            i += n;
        }
    }
    text[at] = '\0';
    return text;
}

size_t cli_text_width(const char *s) {
    size_t n = 0;
    for (; *s != '\0'; s++) n += ((unsigned char)*s & 0xC0u) != 0x80u;
    return n;
}

size_t cli_write_short(FILE *out, const char *s, size_t max) {
    size_t width = cli_text_width(s);
    if (width <= max) {
        if (out != NULL) fputs(s, out);
        return width;
    }
    /* Keep the last max - 3 characters, from the first '/' among their first half when there is one. */
    size_t keep = max > 3u ? max - 3u : 0u;
    const char *tail = s + strlen(s);
    for (size_t k = 0; k < keep && tail > s;) {
        tail--;
        k += ((unsigned char)*tail & 0xC0u) != 0x80u;
    }
    const char *slash = strchr(tail, '/');
    if (slash != NULL && slash != tail && cli_text_width(slash) >= keep / 2u) tail = slash;
    if (out != NULL) fprintf(out, "...%s", tail);
    return 3u + cli_text_width(tail);
}

/* Raw text s (an id or a path as the file or command line gave it: any bytes) as display text, whole: what
 * cli_display_text would make of it, written without a copy. Returns its characters (out NULL: measures only). */
static size_t write_shown(FILE *out, const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    size_t left = strlen(s), width = 0;
    while (left > 0) {
        size_t n = cli_shown_length(p, left);
        if (n == 0) {
            if (out != NULL) fprintf(out, "\\x%02X", (unsigned)*p);
            n = 1, width += 4u;
        } else {
            if (out != NULL) fwrite(p, 1, n, out);
            width++;
        }
        p += n, left -= n;
    }
    return width;
}

size_t cli_write_buffer_label(FILE *out, const cli_input *in, size_t i, size_t width) {
    const char *name = in->tensors != NULL ? in->tensors[i].name : NULL;
    size_t written;
    if (name == NULL) {
        written = write_shown(out, in->ids[i]); /* an id is never shortened: it is what a plan is matched by */
    } else {
        if (out != NULL) (void)cli_write_short(out, name, CLI_NAME_SHOWN);
        written = cli_write_short(NULL, name, CLI_NAME_SHOWN) + 3u;
        if (out != NULL) fputs(" (", out);
        written += write_shown(out, in->ids[i]);
        if (out != NULL) fputc(')', out);
    }
    for (size_t k = written; out != NULL && k < width; k++) fputc(' ', out);
    return written;
}

void cli_write_buffer_rows(FILE *out, const cli_session *s, const size_t *which, size_t count) {
    const cli_input *in = s->input;
    size_t width = 24; /* the ids of CSV inputs line up as they always have */
    for (size_t k = 0; k < count; k++) {
        size_t w = cli_write_buffer_label(NULL, in, which[k], 0);
        if (w > width) width = w;
    }
    for (size_t k = 0; k < count; k++) {
        size_t i = which[k];
        const aplan_buffer *b = &in->buffers[i];
        char tensor[160];
        cli_tensor_text(in, i, tensor, sizeof tensor);
        fputs("  ", out);
        (void)cli_write_buffer_label(out, in, i, width);
        fprintf(out, " %12llu bytes  steps [%llu, %llu)%s%s\n", (unsigned long long)aplan_buffer_size(&s->problem, i),
                (unsigned long long)b->lower, (unsigned long long)b->upper, tensor[0] != '\0' ? "  " : "", tensor);
    }
}

void cli_tensor_text(const cli_input *in, size_t i, char *out, size_t out_size) {
    out[0] = '\0';
    if (in->tensors == NULL) return;
    const cli_tensor *t = &in->tensors[i];
    size_t at = 0;
    if (t->type != NULL) at = (size_t)snprintf(out, out_size, "%s", t->type);
    if (!t->has_shape || at >= out_size) return;
    at += (size_t)snprintf(out + at, out_size - at, "%s[", at > 0 ? " " : "");
    for (uint32_t d = 0; d < t->rank && at < out_size; d++)
        at += (size_t)snprintf(out + at, out_size - at, "%s%ld", d > 0 ? "x" : "", (long)t->shape[d]);
    if (at < out_size) snprintf(out + at, out_size - at, "]");
}

/* snprintf, then, when out_size cut the text, drop a UTF-8 sequence cut in two: display text stays valid UTF-8. */
static void format_text(char *out, size_t out_size, const char *format, ...) __attribute__((format(printf, 3, 4)));
static void format_text(char *out, size_t out_size, const char *format, ...) {
    va_list args;
    va_start(args, format);
    int n = vsnprintf(out, out_size, format, args);
    va_end(args);
    if (n < 0 || (size_t)n < out_size || out_size == 0) return;
    size_t end = out_size - 1u, lead = end;
    while (lead > 0 && ((unsigned char)out[lead - 1u] & 0xC0u) == 0x80u) lead--;
    if (lead > 0 && (unsigned char)out[lead - 1u] >= 0xC0u) {
        unsigned c = (unsigned char)out[lead - 1u];
        size_t need = c >= 0xF0u ? 4u : c >= 0xE0u ? 3u : 2u;
        if (end - (lead - 1u) < need) out[lead - 1u] = '\0';
    }
}

bool cli_describe_step(const cli_input *in, uint64_t step, char *out, size_t out_size) {
    out[0] = '\0';
    if (in->steps == NULL || step >= in->step_count) return false;
    const cli_step *s = &in->steps[step];
    if (s->kind == APLAN_TFLITE_STEP_START) {
        format_text(out, out_size, "start, before any operator");
    } else if (s->kind == APLAN_TFLITE_STEP_ENTRY && s->op == APLAN_TFLITE_NONE) {
        format_text(out, out_size, "the inputs of subgraph %lu", (unsigned long)s->entered);
    } else if (s->kind == APLAN_TFLITE_STEP_ENTRY) {
        format_text(out, out_size, "entering subgraph %lu from %s (op %lu of subgraph %lu)", (unsigned long)s->entered,
                    s->op_name, (unsigned long)s->op, (unsigned long)s->subgraph);
    } else {
        format_text(out, out_size, "%s (op %lu of subgraph %lu)", s->op_name, (unsigned long)s->op,
                    (unsigned long)s->subgraph);
    }
    return true;
}

static const char *kind_name(cli_kind k) {
    return k == CLI_INPUT_CSV ? "csv" : k == CLI_INPUT_TFLITE ? "tflite" : "example";
}

/* Pairs of fixed buffers that share bytes while both are live: allowed under APLAN_ALLOW_FIXED_ALIAS (an offline
 * plan that aliases on purpose), and worth showing because a mistake looks the same. All are counted; the first
 * ALIASED_SHOWN in (i, j) order are kept to be listed. */
#define ALIASED_SHOWN 20u

typedef struct aliased {
    size_t count;
    size_t kept;
    struct {
        size_t i, j;
        uint64_t lo, hi;
    } pairs[ALIASED_SHOWN]; /* in (i, j) order */
} aliased;

static bool keep_aliased(void *state, size_t i, size_t j, uint64_t lo, uint64_t hi) {
    aliased *a = state;
    a->count++;
    size_t at = a->kept;
    while (at > 0 && (a->pairs[at - 1u].i > i || (a->pairs[at - 1u].i == i && a->pairs[at - 1u].j > j))) at--;
    if (at == ALIASED_SHOWN) return true;
    size_t last = a->kept < ALIASED_SHOWN ? a->kept : ALIASED_SHOWN - 1u;
    memmove(&a->pairs[at + 1u], &a->pairs[at], (last - at) * sizeof a->pairs[0]);
    a->pairs[at].i = i, a->pairs[at].j = j, a->pairs[at].lo = lo, a->pairs[at].hi = hi;
    if (a->kept < ALIASED_SHOWN) a->kept++;
    return true;
}

/* What the arena figures cover, for the heading and JSON's "covers": the section the figures are of (with the
 * buffer count in it), and what a runtime adds on top that the input cannot show (NULL: nothing). For a model, the
 * figure is only TFLM's planned section: sizing firmware from it alone fails in AllocateTensors. */
typedef struct coverage {
    const char *section;    /* JSON's "section" */
    char what[160];
    const char *not_included;
} coverage;

static void get_coverage(const cli_session *s, coverage *c) {
    const cli_input *in = s->input;
    c->not_included = NULL;
    switch (in->kind) {
    case CLI_INPUT_TFLITE:
        c->section = "tflm_planned";
        snprintf(c->what, sizeof c->what, "TFLM's planned (non-persistent) section, the model's %zu planned tensors",
                 in->count);
        c->not_included = "the kernels' scratch buffers (planned beside the tensors) and TFLM's persistent data "
                          "(tensor, node and quantization structs, kernels' op data): see \"Sizing your arena from "
                          "aplan plan\" in docs/tflm.md";
        break;
    case CLI_INPUT_EXAMPLE:
        c->section = "tflm_planned";
        snprintf(c->what, sizeof c->what,
                 "the planned (non-persistent) section of the example's %zu tensors, by TFLM's rules", in->count);
        c->not_included = "the kernels' scratch buffers and TFLM's persistent data, as for a model (docs/tflm.md)";
        break;
    case CLI_INPUT_CSV:
        c->section = "input_buffers";
        snprintf(c->what, sizeof c->what, "the input's %zu buffers, nothing else", in->count);
        break;
    }
}

/* prefix, a space and text, broken between words so that no line passes 116 columns; further lines start with two
 * spaces. A word longer than a line is written whole. */
static void write_wrapped(FILE *out, const char *prefix, const char *text) {
    enum { WIDTH = 116 };
    size_t column = strlen(prefix);
    fputs(prefix, out);
    while (*text != '\0') {
        size_t word = strcspn(text, " ");
        if (column > 2u && column + 1u + word > WIDTH) {
            fputs("\n  ", out);
            column = 2;
        } else {
            fputc(' ', out);
            column++;
        }
        fwrite(text, 1, word, out);
        column += word;
        text += word;
        while (*text == ' ') text++;
    }
    fputc('\n', out);
}

void cli_write_heading(FILE *out, const cli_session *s) {
    const cli_input *in = s->input;
    const cli_settings *st = &s->settings;
    (void)write_shown(out, in->name);
    fprintf(out, ": %zu buffers, alignment %llu, sizes %s", in->count, (unsigned long long)st->alignment,
            st->round_sizes ? "rounded up" : "as given");
    if (st->capacity != APLAN_UNLIMITED) fprintf(out, ", capacity %llu", (unsigned long long)st->capacity);
    if (st->target != NULL) fprintf(out, " (target %s)", st->target);
    fputc('\n', out);
    if (st->alignment_from == CLI_ALIGN_TFLM && st->target_alignment != 0 && st->target_alignment != st->alignment) {
        fprintf(out, "alignment %llu is TFLM's (MicroArenaBufferAlignment) on every target; %s's %llu is for CSV input "
                     "(other runtimes)\n",
                (unsigned long long)st->alignment, st->target, (unsigned long long)st->target_alignment);
    }
    char what[160];
    fprintf(out, "lower bound: %llu bytes, reached at step %llu", (unsigned long long)s->bound,
            (unsigned long long)s->bound_step);
    if (cli_describe_step(in, s->bound_step, what, sizeof what)) {
        fputs(": ", out);
        (void)cli_write_short(out, what, 2u * CLI_NAME_SHOWN); /* a custom code can be any length */
    }
    fputc('\n', out);
    coverage c;
    get_coverage(s, &c);
    char text[600];
    snprintf(text, sizeof text, "%s%s%s", c.what, c.not_included != NULL ? ". TFLM's arena also holds " : "",
             c.not_included != NULL ? c.not_included : "");
    write_wrapped(out, "covers:", text);
}

/* The default strategy list left offline out, or ran it alone: say why, so a missing or lonely row is no mystery. */
static void write_selection_note(FILE *out, const cli_session *s) {
    const cli_input *in = s->input;
    if (!s->default_list || !in->has_fixed) return;
    size_t fixed = 0;
    for (size_t i = 0; i < in->count; i++) fixed += in->buffers[i].offset != APLAN_NO_OFFSET;
    if (fixed == in->count) {
        fprintf(out, "every buffer has a fixed offset (an offline plan): only offline runs, since any strategy must "
                     "keep them\n");
    } else {
        fprintf(out, "%zu of %zu buffers have fixed offsets (an offline plan): the strategies place the others around "
                     "them; offline, which needs all, does not run\n",
                fixed, in->count);
    }
}

/* Up to this many of the peak step's largest buffers are named when a plan does not fit. */
#define PEAK_SHOWN 3u

/* With a capacity: whether the best plan fits, with the bytes left and the share of RAM; or by how much the
 * smallest plan (or the bound) misses, and the buffers that dominate the peak step. Nothing without a capacity. */
static void write_verdict(FILE *out, const cli_session *s) {
    const cli_settings *st = &s->settings;
    if (st->capacity == APLAN_UNLIMITED) return;
    char of[64];
    if (st->capacity_from_target) snprintf(of, sizeof of, "%s's RAM", st->target);
    else snprintf(of, sizeof of, "the capacity");
    if (s->best != SIZE_MAX) {
        uint64_t arena = s->runs[s->best].result.arena_size;
        fprintf(out, "fits: %llu of %llu bytes (%.1f%% of %s); %llu bytes free%s\n", (unsigned long long)arena,
                (unsigned long long)st->capacity, st->capacity > 0 ? (double)arena * 100.0 / (double)st->capacity : 0.0,
                of, (unsigned long long)(st->capacity - arena),
                s->input->kind == CLI_INPUT_CSV ? "" : " for TFLM's persistent data and the rest");
        return;
    }
    const cli_run *smallest = cli_smallest_plan(s);
    if (s->bound > st->capacity) {
        fprintf(out, "does not fit: the lower bound, %llu bytes, is %llu more than %s (%llu): no plan can fit\n",
                (unsigned long long)s->bound, (unsigned long long)(s->bound - st->capacity), of,
                (unsigned long long)st->capacity);
    } else if (smallest != NULL) {
        /* A search given the capacity (goal FIT) may have proved that the bound is out of reach, or run out of time. */
        const cli_run *proof, *ran_out;
        cli_capacity_verdicts(s, &proof, &ran_out);
        fprintf(out, "does not fit: the smallest plan (%s) needs %llu bytes, %llu more than %s (%llu); ",
                smallest->strategy->name, (unsigned long long)smallest->result.arena_size,
                (unsigned long long)(smallest->result.arena_size - st->capacity), of, (unsigned long long)st->capacity);
        if (proof != NULL) {
            fprintf(out, "%s proved that no plan fits it (%llu nodes searched), though the lower bound, %llu, does\n",
                    proof->strategy->name, (unsigned long long)proof->result.nodes, (unsigned long long)s->bound);
        } else if (ran_out != NULL) {
            char limit[40];
            cli_seconds_text(st->time_limit_ns, limit, sizeof limit);
            fprintf(out, "the lower bound, %llu, would fit, but %s found no plan within it in the time limit (%s s)\n",
                    (unsigned long long)s->bound, ran_out->strategy->name, limit);
        } else {
            fprintf(out, "the lower bound, %llu, would fit\n", (unsigned long long)s->bound);
        }
    } else {
        return; /* no plan at all: not a question of fit (the error says why) */
    }
    size_t largest[PEAK_SHOWN];
    uint64_t live_bytes;
    size_t live = cli_live_at(s, s->bound_step, largest, PEAK_SHOWN, &live_bytes);
    fprintf(out, "peak: step %llu holds %llu bytes in %zu buffer%s%s\n", (unsigned long long)s->bound_step,
            (unsigned long long)live_bytes, live, live == 1 ? "" : "s", live > 0 ? "; the largest:" : "");
    cli_write_buffer_rows(out, s, largest, live < PEAK_SHOWN ? live : PEAK_SHOWN);
}

/* A word for a shell command line: as it is when it needs no quoting, else in single quotes. */
static void write_shell_word(FILE *out, const char *w) {
    if (w[0] != '\0' && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+,:@%=") ==
                            strlen(w)) {
        fputs(w, out);
        return;
    }
    fputc('\'', out);
    for (; *w != '\0'; w++) {
        if (*w == '\'') fputs("'\\''", out);
        else fputc(*w, out);
    }
    fputc('\'', out);
}

/* A .tflite report ends with how to use the chosen plan in TFLM: TFLM's own planner reproduces only its own
 * (greedy_by_size_tflm) plans, so any other plan goes in as the model's offline plan (`aplan embed`) or is made at run
 * time by the adapter. The embed command line names the strategy, so it writes this very plan. */
static void write_tflm_use(FILE *out, const cli_session *s) {
    const cli_input *in = s->input;
    if (in->kind != CLI_INPUT_TFLITE || s->best == SIZE_MAX) return;
    const cli_run *b = &s->runs[s->best];
    const char *name = b->strategy->name;
    uint64_t arena = b->result.arena_size;
    if (strcmp(name, "offline") == 0) {
        fputs("in TFLM: this is the model's own offline plan (OfflineMemoryAllocation), which TFLM follows as it "
              "loads the model\n",
              out);
        return;
    }
    if (strcmp(name, "greedy_by_size_tflm") == 0) {
        fputs("in TFLM: this is the plan of TFLM's own planner (GreedyMemoryPlanner): nothing to change\n", out);
        return;
    }
    if (s->tflm_arena == arena) {
        fprintf(out, "in TFLM: its own planner (GreedyMemoryPlanner, as greedy_by_size_tflm) also needs %llu bytes. To "
                     "use this exact plan,\n",
                (unsigned long long)arena);
    } else if (s->tflm_arena != 0) {
        fprintf(out, "in TFLM: its own planner (GreedyMemoryPlanner, as greedy_by_size_tflm) needs %llu bytes. To use "
                     "this plan's %llu,\n",
                (unsigned long long)s->tflm_arena, (unsigned long long)arena);
    } else {
        fputs("in TFLM: to use this plan,\n", out);
    }
    /* OUT: the input's base name with _planned, in the current directory. */
    const char *slash = strrchr(in->name, '/');
    const char *base = slash != NULL ? slash + 1 : in->name;
    size_t stem = strlen(base);
    if (stem > 7u && strcmp(base + stem - 7u, ".tflite") == 0) stem -= 7u;
    char planned[256];
    if (strcmp(in->name, "-") == 0 || stem == 0) snprintf(planned, sizeof planned, "planned.tflite");
    else snprintf(planned, sizeof planned, "%.*s_planned.tflite", (int)(stem < 200u ? stem : 200u), base);
    if (!b->searched) {
        fprintf(out, "  write it into the model as its offline plan:\n    aplan embed -s %s ", name);
    } else {
        /* A search's plan depends on its budget: the command gives this plan again when the search ends the same
         * way (complete, or at its first fit), which a budget that ran out does not promise. At run time a search
         * has no place: the adapter line is left out. */
        fprintf(out, "  write it into the model as its offline plan (%s):\n    aplan embed -s %s",
                b->result.outcome == APLAN_OUTCOME_BEST_FOUND
                    ? "the search ran out of time: this command may find another plan"
                    : "the search finished, so this command repeats it",
                s->auto_mode ? "auto" : name);
        if (s->settings.time_limit_ns != CLI_DEFAULT_TIME_LIMIT) {
            char limit[40];
            cli_seconds_text(s->settings.time_limit_ns, limit, sizeof limit);
            fprintf(out, " --time-limit %s", limit);
        }
        /* A fit was looked for within the capacity: without it the search would minimise instead. */
        if (b->goal == APLAN_GOAL_FIT) fprintf(out, " --capacity %llu", (unsigned long long)s->settings.capacity);
        fputc(' ', out);
    }
    write_shell_word(out, in->name);
    fputs(" -o ", out);
    write_shell_word(out, planned);
    fputc('\n', out);
    if (b->searched) return;
    fprintf(out, "  or plan at run time, kernels' scratch buffers included, with the adapter (integrations/tflm/, "
                 "docs/tflm.md):\n    aplan_tflm::AplanMemoryPlanner planner(aplan_strategy_%s());\n",
            name);
}

int cli_write_table(FILE *out, const cli_session *s) {
    cli_write_heading(out, s);
    write_selection_note(out, s);
    fprintf(out, "\n  %-22s %12s %12s %9s  %-10s %12s %11s  %s\n", "strategy", "arena bytes", "lower bound",
            "overhead", "outcome", "nodes", "time", "verified");
    for (size_t i = 0; i < s->run_count; i++) {
        const cli_run *r = &s->runs[i];
        /* arena: 20 digits at most. over: arena / bound can reach 2^64 (bound 1), so "%+.1f%%" can take 27
         * characters ("+1844674407370955161500.0%"); time: milliseconds as a double, "%.3f ms" up to 32 (a run of
         * 10^25 ms aside). None is ever cut: the column widens instead. */
        char arena[24] = "-", over[48] = "-", time[48], nodes[24] = "-";
        if (r->planned) {
            snprintf(arena, sizeof arena, "%llu", (unsigned long long)r->result.arena_size);
            snprintf(over, sizeof over, "%+.1f%%", cli_overhead_percent(r->result.arena_size, s->bound));
        }
        if (r->searched) snprintf(nodes, sizeof nodes, "%llu", (unsigned long long)r->result.nodes);
        snprintf(time, sizeof time, "%.3f ms", r->millis);
        fprintf(out, "%c %-22s %12s %12llu %9s  %-10s %12s %11s  %s", i == s->best ? '*' : ' ', r->strategy->name,
                arena, (unsigned long long)s->bound, over, cli_outcome_word(r), nodes, time,
                r->verified ? "yes" : "no");
        if (r->status != APLAN_OK) fprintf(out, "  (%s)", r->error);
        fputc('\n', out);
    }
    aliased a = {0, 0, {{0, 0, 0, 0}}};
    if ((s->problem.flags & APLAN_ALLOW_FIXED_ALIAS) != 0 && !cli_fixed_pairs(s, keep_aliased, &a)) {
        cli_error("out of memory");
        return CLI_EXIT_INTERNAL;
    }
    if (a.count > 0) {
        const cli_input *in = s->input;
        fprintf(out, "\naliased fixed pairs (allowed: the offline plan shares them on purpose): %zu\n", a.count);
        for (size_t k = 0; k < a.kept; k++) {
            fputs("  ", out);
            (void)write_shown(out, in->ids[a.pairs[k].i]);
            fputs(" & ", out);
            (void)write_shown(out, in->ids[a.pairs[k].j]);
            fprintf(out, " share bytes [%llu, %llu)\n", (unsigned long long)a.pairs[k].lo,
                    (unsigned long long)a.pairs[k].hi);
        }
        if (a.count > ALIASED_SHOWN) fprintf(out, "  ... and %zu more\n", a.count - ALIASED_SHOWN);
    }
    fputc('\n', out);
    if (s->best != SIZE_MAX) {
        const cli_run *b = &s->runs[s->best];
        uint64_t arena = b->result.arena_size;
        fprintf(out, "best: %s, %llu bytes", b->strategy->name, (unsigned long long)arena);
        if (arena == s->bound) {
            fprintf(out, ": proven optimal (equals the lower bound)\n");
        } else if (cli_best_proven(s)) {
            fprintf(out, ": proven optimal by a complete search, %llu bytes above the lower bound (%+.1f%%)\n",
                    (unsigned long long)(arena - s->bound), cli_overhead_percent(arena, s->bound));
        } else {
            fprintf(out, ": %llu bytes above the lower bound (%+.1f%%), not proven optimal",
                    (unsigned long long)(arena - s->bound), cli_overhead_percent(arena, s->bound));
            char limit[40];
            cli_seconds_text(s->settings.time_limit_ns, limit, sizeof limit);
            if (b->searched && b->result.outcome == APLAN_OUTCOME_FITS)
                fprintf(out, " (the search stopped at its first plan within the capacity)");
            else if (b->searched && b->result.outcome == APLAN_OUTCOME_BEST_FOUND)
                fprintf(out, " (the search's time limit, %s s, ran out)", limit);
            fputc('\n', out);
        }
    }
    write_verdict(out, s);
    write_tflm_use(out, s);
    return CLI_EXIT_OK;
}

static void json_u64_or_null(FILE *out, bool present, uint64_t v) {
    if (present) fprintf(out, "%llu", (unsigned long long)v);
    else fputs("null", out);
}

static const char *alignment_from_name(cli_alignment_from from) {
    switch (from) {
    case CLI_ALIGN_OPTION: return "option";
    case CLI_ALIGN_TFLM: return "tflm";
    case CLI_ALIGN_TARGET: return "target";
    case CLI_ALIGN_DEFAULT: break;
    }
    return "default";
}

/* "fit": the table's verdict as data; null without a capacity. */
static void json_fit(FILE *out, const cli_session *s) {
    const cli_settings *st = &s->settings;
    fputs("  \"fit\": ", out);
    if (st->capacity == APLAN_UNLIMITED) {
        fputs("null,\n", out);
        return;
    }
    const cli_run *r = s->best != SIZE_MAX ? &s->runs[s->best] : cli_smallest_plan(s);
    bool fits = s->best != SIZE_MAX;
    fprintf(out, "{\"fits\": %s, \"capacity\": %llu, \"capacity_from_target\": %s, \"arena_bytes\": ",
            fits ? "true" : "false", (unsigned long long)st->capacity, st->capacity_from_target ? "true" : "false");
    json_u64_or_null(out, r != NULL, r != NULL ? r->result.arena_size : 0);
    fputs(", \"percent_of_capacity\": ", out);
    if (r != NULL && st->capacity > 0) fprintf(out, "%.3f", (double)r->result.arena_size * 100.0 / (double)st->capacity);
    else fputs("null", out);
    fputs(", \"free_bytes\": ", out);
    json_u64_or_null(out, fits, fits ? st->capacity - r->result.arena_size : 0);
    fputs(", \"over_bytes\": ", out);
    json_u64_or_null(out, !fits && r != NULL, !fits && r != NULL ? r->result.arena_size - st->capacity : 0);
    /* Proven that no plan fits: the bound alone, or a search given the capacity that covered every plan. */
    bool proven = !fits && s->bound > st->capacity;
    for (size_t i = 0; i < s->run_count && !fits; i++) {
        const cli_run *x = &s->runs[i];
        proven = proven || (x->searched && x->status == APLAN_E_CAPACITY_EXCEEDED &&
                            x->result.outcome == APLAN_OUTCOME_INFEASIBLE);
    }
    fprintf(out, ", \"bound_fits\": %s, \"proven_no_fit\": %s},\n", s->bound <= st->capacity ? "true" : "false",
            proven ? "true" : "false");
}

/* "peak": the step where the bound is reached, what is live there and its largest buffers. */
static void json_peak(FILE *out, const cli_session *s) {
    size_t largest[PEAK_SHOWN];
    uint64_t live_bytes;
    size_t live = cli_live_at(s, s->bound_step, largest, PEAK_SHOWN, &live_bytes);
    fprintf(out, "  \"peak\": {\"step\": %llu, \"live_bytes\": %llu, \"live_buffers\": %zu, \"largest\": [",
            (unsigned long long)s->bound_step, (unsigned long long)live_bytes, live);
    for (size_t k = 0; k < live && k < PEAK_SHOWN; k++) fprintf(out, "%s%zu", k > 0 ? ", " : "", largest[k]);
    fputs("]},\n", out);
}

/* "tflm": for a .tflite input, what TFLM's own planner gives and whether the best plan is the model's offline plan;
 * null for other inputs. */
static void json_tflm(FILE *out, const cli_session *s) {
    fputs("  \"tflm\": ", out);
    if (s->input->kind != CLI_INPUT_TFLITE) {
        fputs("null,\n", out);
        return;
    }
    fputs("{\"greedy_planner_bytes\": ", out);
    json_u64_or_null(out, s->tflm_arena != 0, s->tflm_arena);
    fprintf(out, ", \"best_is_offline_plan\": %s},\n",
            s->best != SIZE_MAX && strcmp(s->runs[s->best].strategy->name, "offline") == 0 ? "true" : "false");
}

/* The operator of step as a JSON object {"subgraph", "index", "name", "builtin_code"} (an ENTRY step's is the calling
 * operator), or null: steps 0 and 1, and inputs without operators. */
static void json_operator(FILE *out, const cli_input *in, uint64_t step) {
    const cli_step *st = in->steps != NULL && step < in->step_count ? &in->steps[step] : NULL;
    if (st == NULL || st->op == APLAN_TFLITE_NONE) {
        fputs("null", out);
        return;
    }
    fprintf(out, "{\"subgraph\": %lu, \"index\": %lu, \"name\": ", (unsigned long)st->subgraph,
            (unsigned long)st->op);
    cli_json_string(out, st->op_name);
    fprintf(out, ", \"builtin_code\": %ld}", (long)st->builtin_code);
}

/* "steps": what runs at each step, or null for an input without operators (CSV). */
static void json_steps(FILE *out, const cli_input *in) {
    static const char *const kinds[] = {"start", "entry", "operator"};
    fputs("  \"steps\": ", out);
    if (in->steps == NULL) {
        fputs("null,\n", out);
        return;
    }
    fputc('[', out);
    for (size_t k = 0; k < in->step_count; k++) {
        const cli_step *st = &in->steps[k];
        fprintf(out, "%s\n    {\"step\": %zu, \"kind\": \"%s\", \"operator\": ", k > 0 ? "," : "", k,
                kinds[st->kind <= APLAN_TFLITE_STEP_OPERATOR ? st->kind : APLAN_TFLITE_STEP_OPERATOR]);
        json_operator(out, in, k);
        fputs(", \"entered\": ", out);
        json_u64_or_null(out, st->entered != APLAN_TFLITE_NONE, st->entered);
        fprintf(out, ", \"depth\": %lu}", (unsigned long)st->depth);
    }
    fputs("\n  ],\n", out);
}

/* The JSON's per-buffer parts (the buffers and every strategy's offsets, a few hundred bytes per buffer) go through
 * a block: text is gathered in 64 KiB and written with one fwrite, numbers are formatted by hand, and strings that
 * need no escaping are copied whole, where fprintf per number and fputc per character cost several times the
 * planning on a million buffers. A failed fwrite shows in ferror(out), which emit checks. */
typedef struct out_block {
    FILE *out;
    size_t length;
    char data[1u << 16];
} out_block;

static void block_flush(out_block *b) {
    if (b->length > 0) (void)fwrite(b->data, 1, b->length, b->out);
    b->length = 0;
}

/* Where n more bytes go (n at most a quarter of the block); the caller then adds n to length. */
static char *block_room(out_block *b, size_t n) {
    if (sizeof b->data - b->length < n) block_flush(b);
    return b->data + b->length;
}

static void block_put(out_block *b, const char *s, size_t n) {
    if (n > sizeof b->data / 4u) { /* a long name: straight through */
        block_flush(b);
        (void)fwrite(s, 1, n, b->out);
        return;
    }
    memcpy(block_room(b, n), s, n);
    b->length += n;
}

static void block_str(out_block *b, const char *s) { block_put(b, s, strlen(s)); }

/* Decimal digits of v at p (at most 20); returns the end. */
static char *put_u64(char *p, uint64_t v) {
    char digits[20];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0);
    while (n > 0) *p++ = digits[--n];
    return p;
}

static void block_u64(out_block *b, uint64_t v) {
    char *p = block_room(b, 20);
    b->length += (size_t)(put_u64(p, v) - p);
}

static void block_u64_or_null(out_block *b, bool present, uint64_t v) {
    if (present) block_u64(b, v);
    else block_put(b, "null", 4);
}

/* cli_json_string into the block: the same text, with runs of plain ASCII copied at once. */
static void block_json_string(out_block *b, const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    size_t left = strlen(s);
    block_put(b, "\"", 1);
    while (left > 0) {
        const unsigned char *run = p;
        while (left > 0 && *p >= 0x20u && *p < 0x7fu && *p != '"' && *p != '\\') p++, left--;
        block_put(b, (const char *)run, (size_t)(p - run));
        if (left == 0) break;
        size_t n = cli_shown_length(p, left);
        char esc[8];
        if (n == 0) {
            snprintf(esc, sizeof esc, "\\\\x%02X", (unsigned)*p);
            block_put(b, esc, 5); /* \\xHH: the JSON text of the four characters \xHH */
            n = 1;
        } else if (*p == '"' || *p == '\\') {
            esc[0] = '\\';
            esc[1] = (char)*p;
            block_put(b, esc, 2);
        } else {
            block_put(b, (const char *)p, n);
        }
        p += n;
        left -= n;
    }
    block_put(b, "\"", 1);
}

/* A buffer's "name", "type" and "shape" (null when not known). */
static void json_tensor(out_block *b, const cli_input *in, size_t i) {
    const cli_tensor *t = in->tensors != NULL ? &in->tensors[i] : NULL;
    block_str(b, ", \"name\": ");
    block_json_string(b, cli_buffer_name(in, i));
    block_str(b, ", \"type\": ");
    if (t != NULL && t->type != NULL) block_json_string(b, t->type);
    else block_str(b, "null");
    block_str(b, ", \"shape\": ");
    if (t == NULL || !t->has_shape) {
        block_str(b, "null");
        return;
    }
    block_str(b, "[");
    for (uint32_t d = 0; d < t->rank; d++) {
        char dim[24];
        int n = snprintf(dim, sizeof dim, "%s%ld", d > 0 ? ", " : "", (long)t->shape[d]);
        block_put(b, dim, (size_t)n);
    }
    block_str(b, "]");
}

/* One strategy's offsets: [o0, o1, ...]. */
static void json_offsets(FILE *out, const uint64_t *offsets, size_t count) {
    out_block *b = malloc(sizeof *b);
    if (b == NULL) { /* out of memory: the slow way, same text */
        fputc('[', out);
        for (size_t k = 0; k < count; k++) fprintf(out, "%s%llu", k > 0 ? ", " : "", (unsigned long long)offsets[k]);
        fputc(']', out);
        return;
    }
    b->out = out;
    b->length = 0;
    block_put(b, "[", 1);
    for (size_t k = 0; k < count; k++) {
        if (k > 0) block_put(b, ", ", 2);
        block_u64(b, offsets[k]);
    }
    block_put(b, "]", 1);
    block_flush(b);
    free(b);
}

/* "buffers": one object per buffer. false when out of memory (nothing written). */
static bool json_buffers(FILE *out, const cli_session *s, const cli_run *best) {
    const cli_input *in = s->input;
    out_block *b = malloc(sizeof *b);
    if (b == NULL) return false;
    b->out = out;
    b->length = 0;
    block_str(b, "  \"buffers\": [");
    for (size_t i = 0; i < in->count; i++) {
        const aplan_buffer *x = &in->buffers[i];
        block_str(b, i > 0 ? ",\n    {\"index\": " : "\n    {\"index\": ");
        block_u64(b, i);
        block_str(b, ", \"id\": ");
        block_json_string(b, in->ids[i]);
        block_str(b, ", \"line\": ");
        block_u64_or_null(b, in->lines != NULL, in->lines != NULL ? in->lines[i] : 0);
        block_str(b, ", \"size\": ");
        block_u64(b, x->size);
        block_str(b, ", \"planned_size\": ");
        block_u64(b, aplan_buffer_size(&s->problem, i));
        block_str(b, ", \"lower\": ");
        block_u64(b, x->lower);
        block_str(b, ", \"upper\": ");
        block_u64(b, x->upper);
        block_str(b, ", \"alignment\": ");
        block_u64(b, aplan_buffer_alignment(&s->problem, i));
        block_str(b, ", \"fixed_offset\": ");
        block_u64_or_null(b, x->offset != APLAN_NO_OFFSET, x->offset);
        block_str(b, ", \"offset\": ");
        block_u64_or_null(b, best != NULL, best != NULL ? best->offsets[i] : 0);
        json_tensor(b, in, i);
        block_str(b, "}");
    }
    block_str(b, "\n  ]\n}\n");
    block_flush(b);
    free(b);
    return true;
}

int cli_write_json(FILE *out, const cli_session *s) {
    const cli_input *in = s->input;
    const cli_run *best = s->best != SIZE_MAX ? &s->runs[s->best] : NULL;
    fprintf(out, "{\n  \"aplan_version\": \"%s\",\n", aplan_version());
    fputs("  \"input\": {\"name\": ", out);
    cli_json_string(out, in->name);
    fprintf(out, ", \"kind\": \"%s\", \"buffers\": %zu, \"alignment\": %llu, \"round_sizes\": %s, \"capacity\": ",
            kind_name(in->kind), in->count, (unsigned long long)s->settings.alignment,
            s->settings.round_sizes ? "true" : "false");
    json_u64_or_null(out, s->settings.capacity != APLAN_UNLIMITED, s->settings.capacity);
    fputs(", \"target\": ", out);
    if (s->settings.target != NULL) cli_json_string(out, s->settings.target);
    else fputs("null", out);
    fprintf(out, ", \"allow_fixed_alias\": %s", (s->problem.flags & APLAN_ALLOW_FIXED_ALIAS) ? "true" : "false");
    fprintf(out, ", \"alignment_from\": \"%s\", \"target_alignment\": ", alignment_from_name(s->settings.alignment_from));
    json_u64_or_null(out, s->settings.target_alignment != 0, s->settings.target_alignment);
    fputs("},\n", out);
    fprintf(out, "  \"lower_bound\": {\"bytes\": %llu, \"step\": %llu, \"operator\": ", (unsigned long long)s->bound,
            (unsigned long long)s->bound_step);
    json_operator(out, in, s->bound_step);
    fputs("},\n", out);
    coverage c;
    get_coverage(s, &c);
    fprintf(out, "  \"covers\": {\"section\": \"%s\", \"text\": ", c.section);
    cli_json_string(out, c.what);
    fputs(", \"not_included\": ", out);
    if (c.not_included != NULL) cli_json_string(out, c.not_included);
    else fputs("null", out);
    fputs("},\n", out);
    json_fit(out, s);
    json_peak(out, s);
    json_tflm(out, s);
    fputs("  \"best\": ", out);
    if (best != NULL) cli_json_string(out, best->strategy->name);
    else fputs("null", out);
    fprintf(out, ",\n  \"optimal\": %s,\n", cli_best_proven(s) ? "true" : "false");
    char limit[40];
    cli_seconds_text(s->settings.time_limit_ns, limit, sizeof limit);
    fprintf(out, "  \"time_limit_seconds\": %s,\n", limit);
    fputs("  \"strategies\": [", out);
    for (size_t i = 0; i < s->run_count; i++) {
        const cli_run *r = &s->runs[i];
        fprintf(out, "%s\n    {\"name\": ", i > 0 ? "," : "");
        cli_json_string(out, r->strategy->name);
        fprintf(out, ", \"status\": ");
        cli_json_string(out, r->status == APLAN_OK ? "ok" : aplan_status_str(r->status));
        fputs(", \"error\": ", out);
        if (r->status != APLAN_OK) cli_json_string(out, r->error);
        else fputs("null", out);
        fputs(", \"arena_bytes\": ", out);
        json_u64_or_null(out, r->planned, r->result.arena_size);
        fprintf(out, ", \"lower_bound\": %llu, \"overhead_percent\": ", (unsigned long long)s->bound);
        if (r->planned) fprintf(out, "%.3f", cli_overhead_percent(r->result.arena_size, s->bound));
        else fputs("null", out);
        fputs(", \"outcome\": ", out);
        if (cli_outcome_key(r) != NULL) cli_json_string(out, cli_outcome_key(r));
        else fputs("null", out);
        fprintf(out, ", \"nodes\": %llu, \"goal\": %s, \"start\": ", (unsigned long long)r->result.nodes,
                !r->searched ? "null" : r->goal == APLAN_GOAL_FIT ? "\"fit\"" : "\"minimise\"");
        if (r->start_name != NULL) cli_json_string(out, r->start_name);
        else fputs("null", out);
        fprintf(out, ", \"time_ms\": %.6f, \"verified\": %s, \"best\": %s, \"aliased_pairs\": %zu, \"offsets\": ",
                r->millis, r->verified ? "true" : "false", i == s->best ? "true" : "false",
                r->result.report.aliased_pairs);
        if (r->planned) {
            json_offsets(out, r->offsets, in->count);
        } else {
            fputs("null", out);
        }
        fputc('}', out);
    }
    fputs("\n  ],\n", out);
    json_steps(out, in);
    if (!json_buffers(out, s, best)) {
        cli_error("out of memory");
        return CLI_EXIT_INTERNAL;
    }
    return CLI_EXIT_OK;
}

/* aplan_csv_write's sink onto a file, dropping the first `skip` bytes: the header, which only the first of the
 * chunks cli_write_csv writes may give. */
typedef struct file_sink_state {
    FILE *out;
    size_t skip;
} file_sink_state;

static bool file_sink(void *state, const char *bytes, size_t length) {
    file_sink_state *f = state;
    size_t drop = f->skip < length ? f->skip : length;
    f->skip -= drop;
    return fwrite(bytes + drop, 1, length - drop, f->out) == length - drop;
}

static int need_plan(const cli_run *run, const char *what) {
    if (run == NULL) {
        cli_progress_end();
        fprintf(stderr, "aplan: no plan to write as %s\n", what);
        return CLI_EXIT_BAD_INPUT;
    }
    return CLI_EXIT_OK;
}

/* Rows of the alignment column's copy written at a time: 160 KiB, however large the input. */
#define CSV_CHUNK_ROWS 4096u

int cli_write_csv(FILE *out, const cli_session *s, const cli_run *run) {
    int rc = need_plan(run, "CSV");
    if (rc != CLI_EXIT_OK) return rc;
    const cli_input *in = s->input;
    /* Another tool checking the plan needs each buffer's alignment: write the column whenever it is not 1. */
    bool alignment = (in->csv_columns & APLAN_CSV_HAS_ALIGNMENT) != 0 || s->settings.alignment > 1u;
    uint32_t columns = (in->csv_columns & APLAN_CSV_START_END) | (alignment ? APLAN_CSV_HAS_ALIGNMENT : 0u);
    aplan_csv_plan plan = {in->buffers, (const char *const *)in->ids, run->offsets, in->count, columns};
    file_sink_state sink = {out, 0};
    aplan_status st;
    if (!alignment) {
        st = aplan_csv_write(&plan, file_sink, &sink);
    } else {
        /* The column holds each buffer's alignment as planned (the default where the input gave none), which the
         * input's rows do not: chunks of rows are copied with it filled in and written one after the other, the
         * header only once. The rows' ids and lifetimes are the reader's, which aplan_csv_write always accepts, so
         * no chunk after the first can fail on its arguments. */
        aplan_buffer *rows = malloc(CSV_CHUNK_ROWS * sizeof *rows);
        if (rows == NULL) return CLI_EXIT_INTERNAL;
        aplan_csv_plan header = {NULL, NULL, NULL, 0, columns};
        size_t header_length = 0;
        st = aplan_csv_write_buffer(&header, NULL, 0, &header_length);
        if (st == APLAN_E_OUTPUT_TOO_SMALL) st = APLAN_OK; /* it measured the header */
        size_t start = 0;
        while (st == APLAN_OK) { /* at least once: an input without rows still gets its header */
            size_t n = in->count - start < CSV_CHUNK_ROWS ? in->count - start : CSV_CHUNK_ROWS;
            for (size_t k = 0; k < n; k++) {
                rows[k] = in->buffers[start + k];
                rows[k].alignment = aplan_buffer_alignment(&s->problem, start + k);
            }
            aplan_csv_plan chunk = {rows, (const char *const *)in->ids + start, run->offsets + start, n, columns};
            sink.skip = start == 0 ? 0 : header_length;
            st = aplan_csv_write(&chunk, file_sink, &sink);
            start += n;
            if (start == in->count) break;
        }
        free(rows);
    }
    if (st == APLAN_E_OUTPUT_TOO_SMALL) return CLI_EXIT_IO;
    if (st != APLAN_OK) {
        cli_progress_end();
        fprintf(stderr, "aplan: cannot write the plan as CSV: %s\n", aplan_status_str(st));
        return CLI_EXIT_BAD_INPUT;
    }
    return CLI_EXIT_OK;
}

/* Ids go into C comments: keep only characters that cannot end or confuse one. */
static void c_comment_text(FILE *out, const char *s) {
    for (; *s != '\0'; s++) {
        char c = *s;
        bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                    c == '-' || c == '.' || c == ':' || c == ' ' || c == '/';
        fputc(safe ? c : '?', out);
    }
}

/* TFLM's BufferPlan (tensorflow/lite/micro/memory_planner/memory_plan_struct.h) is an int32 buffer_count followed by
 * one BufferDescriptor {int32 offset} per buffer, in AddBuffer order; written as a struct of the same layout. It
 * needs every offset and the count to fit int32; otherwise a comment says why it is missing. */
static void write_buffer_plan(FILE *out, const cli_session *s, const cli_run *run, const char *prefix) {
    const cli_input *in = s->input;
    bool fits = in->count <= (size_t)INT32_MAX;
    for (size_t i = 0; fits && i < in->count; i++) fits = run->offsets[i] <= (uint64_t)INT32_MAX;
    if (!fits) {
        fputs("\n/* No TFLM BufferPlan: TFLM's offsets and buffer count are int32, and this plan exceeds them. */\n",
              out);
        return;
    }
    fprintf(out,
            "\n/* TFLM's BufferPlan (tensorflow/lite/micro/memory_planner/memory_plan_struct.h), laid out as\n"
            " * TFLM's struct: buffer_count, then one int32 offset per buffer in the order TFLM's allocator adds\n"
            " * them (a .tflite model's order above), for NonPersistentMemoryPlannerShim:\n"
            " *   tflite::NonPersistentMemoryPlannerShim planner(\n"
            " *       reinterpret_cast<const tflite::BufferPlan *>(&%s_buffer_plan));\n"
            " * Scratch buffers that kernels request at run time come after these and are not in the plan. */\n",
            prefix);
    fprintf(out, "static const struct %s_buffer_plan_layout {\n    int32_t buffer_count;\n"
                 "    int32_t buffer_plan_entries[%zu];\n} %s_buffer_plan = {%zu, {\n",
            prefix, in->count > 0 ? in->count : (size_t)1, prefix, in->count);
    for (size_t i = 0; i < in->count; i++)
        fprintf(out, "    %llu, /* %zu */\n", (unsigned long long)run->offsets[i], i);
    if (in->count == 0) fputs("    0\n", out);
    fputs("}};\n", out);
}

int cli_write_c(FILE *out, const cli_session *s, const cli_run *run, const char *prefix) {
    int rc = need_plan(run, "a C header");
    if (rc != CLI_EXIT_OK) return rc;
    if (prefix == NULL) prefix = "aplan";
    char *up = malloc(strlen(prefix) + 1u); /* the prefix of macros */
    if (up == NULL) return CLI_EXIT_INTERNAL;
    for (size_t i = 0; i <= strlen(prefix); i++)
        up[i] = prefix[i] >= 'a' && prefix[i] <= 'z' ? (char)(prefix[i] - 'a' + 'A') : prefix[i];
    const cli_input *in = s->input;
    uint64_t arena = run->result.arena_size;
    bool wide = arena > UINT32_MAX;
    const char *suffix = wide ? "ull" : "u";
    fputs("/* Generated by aplan ", out);
    fprintf(out, "%s from ", aplan_version());
    c_comment_text(out, in->name);
    fprintf(out, " with strategy %s.\n * %zu buffers, alignment %llu, sizes %s; lower bound %llu bytes%s.\n"
                 " * Offsets are bytes from an arena base aligned to at least %s_ARENA_ALIGNMENT. */\n",
            run->strategy->name, in->count, (unsigned long long)s->settings.alignment,
            s->settings.round_sizes ? "rounded up" : "as given", (unsigned long long)s->bound,
            arena == s->bound                                  ? " (this plan is optimal)"
            : cli_best_proven(s) && run == &s->runs[s->best]   ? " (this plan is proven optimal by a complete search)"
            : run->searched && run->result.outcome == APLAN_OUTCOME_BEST_FOUND
                ? " (the best plan a search found in its time limit; not proven optimal)"
                : "",
            up);
    fprintf(out, "#ifndef %s_ARENA_PLAN_H\n#define %s_ARENA_PLAN_H\n\n#include <stdint.h>\n\n", up, up);
    fprintf(out, "#define %s_ARENA_SIZE %llu%s\n", up, (unsigned long long)arena, suffix);
    fprintf(out, "#define %s_ARENA_ALIGNMENT %llu%s\n", up, (unsigned long long)s->settings.alignment, suffix);
    fprintf(out, "#define %s_BUFFER_COUNT %zuu\n", up, in->count);
    if (in->count > 0) {
        const char *type = wide ? "uint64_t" : "uint32_t";
        fprintf(out, "\n/* Offset of each buffer in the arena, in input order. */\n");
        fprintf(out, "static const %s %s_buffer_offsets[%s_BUFFER_COUNT] = {\n", type, prefix, up);
        for (size_t i = 0; i < in->count; i++) {
            fprintf(out, "    %llu%s, /* %zu ", (unsigned long long)run->offsets[i], suffix, i);
            c_comment_text(out, in->ids[i]);
            fprintf(out, ": steps [%llu, %llu) */\n", (unsigned long long)in->buffers[i].lower,
                    (unsigned long long)in->buffers[i].upper);
        }
        fputs("};\n", out);
        fprintf(out, "\n/* Bytes each buffer occupies (rounded as planned). */\n");
        fprintf(out, "static const %s %s_buffer_sizes[%s_BUFFER_COUNT] = {\n", type, prefix, up);
        for (size_t i = 0; i < in->count; i++)
            fprintf(out, "    %llu%s,\n", (unsigned long long)aplan_buffer_size(&s->problem, i), suffix);
        fputs("};\n", out);
    }
    write_buffer_plan(out, s, run, prefix);
    fprintf(out, "\n#endif /* %s_ARENA_PLAN_H */\n", up);
    free(up);
    return CLI_EXIT_OK;
}

bool cli_same_file(const char *a, const char *b) {
    if (strcmp(a, b) == 0) return true;
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int cli_write_file_atomic(const char *path, cli_writer write, void *state) {
    /* "<dir>/.<name>.XXXXXX": hidden, and in the same directory so that rename() replaces path in one step. */
    const char *slash = strrchr(path, '/');
    size_t dir = slash != NULL ? (size_t)(slash - path) + 1u : 0u;
    size_t n = strlen(path) + 16u;
    char *tmp = malloc(n);
    if (tmp == NULL) {
        cli_error("out of memory");
        return CLI_EXIT_INTERNAL;
    }
    snprintf(tmp, n, "%.*s.%s.XXXXXX", (int)dir, path, path + dir);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        cli_error("cannot create a temporary file beside %s: %s", path, strerror(errno));
        free(tmp);
        return CLI_EXIT_IO;
    }
    /* mkstemp makes the file 0600; give it what the replaced file had, or what a new file would get. */
    struct stat old;
    mode_t mode;
    if (stat(path, &old) == 0) {
        mode = old.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    (void)fchmod(fd, mode); /* best effort: some file systems have no modes */
    int rc = CLI_EXIT_OK;
    int err = 0;
    const char *failed = "cannot write";
    FILE *out = fdopen(fd, "wb");
    if (out == NULL) {
        err = errno;
        close(fd);
        rc = CLI_EXIT_IO;
    } else {
        rc = write(out, state);
        if (rc == CLI_EXIT_IO) err = errno;
        if (rc == CLI_EXIT_OK && (fflush(out) != 0 || ferror(out) != 0)) err = errno, rc = CLI_EXIT_IO;
        /* On disk before it replaces anything; EINVAL: a file that cannot be synced (nothing to wait for). */
        if (rc == CLI_EXIT_OK && fsync(fileno(out)) != 0 && errno != EINVAL) err = errno, rc = CLI_EXIT_IO;
        if (fclose(out) != 0 && rc == CLI_EXIT_OK) err = errno, rc = CLI_EXIT_IO;
        if (rc == CLI_EXIT_OK && rename(tmp, path) != 0) err = errno, rc = CLI_EXIT_IO, failed = "cannot replace";
    }
    if (rc != CLI_EXIT_OK) {
        if (rc == CLI_EXIT_IO) cli_error("%s %s: %s", failed, path, err != 0 ? strerror(err) : "write error");
        (void)unlink(tmp);
    }
    free(tmp);
    return rc;
}
