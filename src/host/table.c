/*
 * The comparison table (-f table, the default) and its heading, which `bound` opens with too: the input and its
 * settings, the lower bound and what the figures cover; one row per strategy; the aliased fixed pairs; the best plan,
 * the verdict on the capacity and, for a model, how to use the plan in TFLM.
 */
#include <string.h>

#include "host.h"

/* Pairs of fixed buffers that share bytes while both are live: allowed under APLAN_ALLOW_FIXED_ALIAS (an offline
 * plan that aliases on purpose), and worth showing because a mistake looks the same. They are counted by the
 * verifier (aplan_host_fixed_alias_count), and the first ALIASED_SHOWN the library's sweep meets (by the step at which
 * the later of the two starts) are listed, in that order: the sweep stops there, so a plan of 20,000 buffers aliasing
 * at one offset (2e8 pairs) costs no more than one of 20. */
#define ALIASED_SHOWN 20u

typedef struct aliased {
    size_t kept;
    struct {
        size_t i, j;
        uint64_t lo, hi;
    } pairs[ALIASED_SHOWN]; /* in the order met */
} aliased;

static bool keep_aliased(void *state, size_t i, size_t j, uint64_t lo, uint64_t hi) {
    aliased *a = state;
    a->pairs[a->kept].i = i, a->pairs[a->kept].j = j, a->pairs[a->kept].lo = lo, a->pairs[a->kept].hi = hi;
    a->kept++;
    return a->kept < ALIASED_SHOWN;
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

void aplan_host_write_heading(FILE *out, const aplan_host_session *s) {
    const aplan_host_input *in = s->input;
    const aplan_host_settings *st = &s->settings;
    (void)aplan_host_write_shown(out, in->name);
    fprintf(out, ": %zu buffer%s, alignment %llu, sizes %s", in->count, aplan_host_s(in->count),
            (unsigned long long)st->alignment, st->round_sizes ? "rounded up" : "as given");
    if (st->whole_capacity != APLAN_UNLIMITED)
        fprintf(out, ", capacity %llu (%llu for the planned section, after TFLM's persistent data)",
                (unsigned long long)st->whole_capacity, (unsigned long long)st->capacity);
    else if (st->capacity != APLAN_UNLIMITED)
        fprintf(out, ", capacity %llu", (unsigned long long)st->capacity);
    if (st->target != NULL) fprintf(out, " (target %s)", st->target);
    fputc('\n', out);
    if (st->alignment_from == APLAN_HOST_ALIGN_TFLM && st->target_alignment != 0 &&
        st->target_alignment != st->alignment) {
        fprintf(out, "alignment %llu is TFLM's (MicroArenaBufferAlignment) on every target; %s's %llu is for CSV input "
                     "(other runtimes)\n",
                (unsigned long long)st->alignment, st->target, (unsigned long long)st->target_alignment);
    }
    char what[160];
    fprintf(out, "lower bound: %llu byte%s, reached at step %llu", (unsigned long long)s->bound, aplan_host_s(s->bound),
            (unsigned long long)s->bound_step);
    if (aplan_host_describe_step(in, s->bound_step, what, sizeof what)) {
        fputs(": ", out);
        (void)aplan_host_write_short(out, what, 2u * APLAN_HOST_NAME_SHOWN); /* a custom code can be any length */
    }
    fputc('\n', out);
    aplan_host_coverage_text c;
    aplan_host_coverage(s, &c);
    char text[600];
    snprintf(text, sizeof text, "%s%s%s", c.what, c.not_included != NULL ? ". TFLM's arena also holds " : "",
             c.not_included != NULL ? c.not_included : "");
    write_wrapped(out, "covers:", text);
}

/* The default strategy list left offline out, or ran it alone: say why, so a missing or lonely row is no mystery. */
static void write_selection_note(FILE *out, const aplan_host_session *s) {
    const aplan_host_input *in = s->input;
    if (!s->default_list || !in->has_fixed) return;
    size_t fixed = 0;
    for (size_t i = 0; i < in->count; i++) fixed += in->buffers[i].offset != APLAN_NO_OFFSET;
    if (fixed == in->count) {
        fprintf(out, "every buffer has a fixed offset (an offline plan): only offline runs, since any strategy must "
                     "keep them\n");
    } else {
        fprintf(out, "%zu of %zu buffers %s (an offline plan): the strategies place the others around %s; offline, "
                     "which needs all, does not run\n",
                fixed, in->count, fixed == 1 ? "has a fixed offset" : "have fixed offsets", fixed == 1 ? "it" : "them");
    }
}

bool aplan_host_verdict(const aplan_host_session *s, char *out, size_t out_size) {
    const aplan_host_settings *st = &s->settings;
    if (out_size > 0) out[0] = '\0';
    if (st->capacity == APLAN_UNLIMITED) return false;
    char of[160];
    if (st->capacity_from_target) snprintf(of, sizeof of, "%s's RAM", st->target);
    else snprintf(of, sizeof of, "the capacity");
    if (st->whole_capacity != APLAN_UNLIMITED) {
        /* A model: the whole arena is judged, for the setup the advice names (aplan_host_tflm_setup); the section had
         * what the capacity leaves after the persistent data. */
        const aplan_host_tflm_figures *f = aplan_host_tflm_setup(s), *own = &s->tflm_own,
                                      *least = aplan_host_tflm_smallest(s);
        uint64_t whole = st->whole_capacity;
        if (own->status == APLAN_E_FORMAT_UNSUPPORTED) { /* no figure to judge: TFLM will not run it */
            snprintf(out, out_size, "does not fit: TFLM refuses this model (above), so no arena of %s runs it", of);
            return true;
        }
        if (s->best != SIZE_MAX && f != NULL) {
            uint64_t need = f->info.smallest;
            const char *at_least = f->info.unknown_ops > 0 ? " (at least: see \"not modelled\")" : "";
            if (need > whole) {
                int n = snprintf(out, out_size, "does not fit: TFLM's smallest arena is %llu byte%s with %s, %llu more "
                                                "than %s (%llu bytes)",
                                 (unsigned long long)need, aplan_host_s(need), aplan_host_tflm_way(s, f),
                                 (unsigned long long)(need - whole), of, (unsigned long long)whole);
                if (least != NULL && least != f && least->info.smallest < need && n > 0 && (size_t)n < out_size)
                    snprintf(out + n, out_size - (size_t)n, "; %llu with %s, still %llu more",
                             (unsigned long long)least->info.smallest, aplan_host_tflm_way(s, least),
                             (unsigned long long)(least->info.smallest - whole));
            } else if (f == own || !own->known) {
                snprintf(out, out_size,
                         "fits: TFLM's arena needs %llu of %llu byte%s (%.1f%% of %s) with %s%s; %llu "
                         "byte%s free",
                         (unsigned long long)need, (unsigned long long)whole, aplan_host_s(whole),
                         whole > 0 ? (double)need * 100.0 / (double)whole : 0.0, of, aplan_host_tflm_way(s, f),
                         at_least, (unsigned long long)(whole - need), aplan_host_s(whole - need));
            } else { /* only another way fits: the verdict says which, and what TFLM's own planner would need */
                snprintf(out, out_size,
                         "fits only with %s: TFLM's arena needs %llu of %llu byte%s (%.1f%% of %s)%s; "
                         "%llu byte%s free; with its own planner it needs %llu, %llu more",
                         aplan_host_tflm_way(s, f), (unsigned long long)need, (unsigned long long)whole,
                         aplan_host_s(whole), whole > 0 ? (double)need * 100.0 / (double)whole : 0.0, of, at_least,
                         (unsigned long long)(whole - need), aplan_host_s(whole - need),
                         (unsigned long long)own->info.smallest, (unsigned long long)(own->info.smallest - whole));
            }
            return true;
        }
        if (st->capacity == 0) {
            snprintf(out, out_size, "does not fit: TFLM's persistent data alone takes %s (%llu)", of,
                     (unsigned long long)whole);
            return true;
        }
    }
    /* What a plan is measured against, with its unit: "the capacity (10 bytes)"; for a model, what the capacity leaves
     * the planned section, said as such. */
    char than[320];
    if (st->whole_capacity != APLAN_UNLIMITED)
        snprintf(than, sizeof than,
                 "the %llu byte%s that %s (%llu bytes) leaves after TFLM's persistent data (%llu "
                 "bytes)",
                 (unsigned long long)st->capacity, aplan_host_s(st->capacity), of,
                 (unsigned long long)st->whole_capacity, (unsigned long long)(st->whole_capacity - st->capacity));
    else
        snprintf(than, sizeof than, "%s (%llu byte%s)", of, (unsigned long long)st->capacity,
                 aplan_host_s(st->capacity));
    if (s->best != SIZE_MAX) {
        uint64_t arena = s->runs[s->best].result.arena_size;
        snprintf(out, out_size, "fits: %llu of %llu byte%s (%.1f%% of %s); %llu byte%s free%s",
                 (unsigned long long)arena, (unsigned long long)st->capacity, aplan_host_s(st->capacity),
                 st->capacity > 0 ? (double)arena * 100.0 / (double)st->capacity : 0.0,
                 st->whole_capacity != APLAN_UNLIMITED ? "what the capacity leaves after TFLM's persistent data" : of,
                 (unsigned long long)(st->capacity - arena), aplan_host_s(st->capacity - arena),
                 s->input->kind == APLAN_HOST_INPUT_CSV ? "" : " for TFLM's persistent data and the rest");
        return true;
    }
    const aplan_host_run *smallest = aplan_host_smallest_plan(s);
    if (s->bound > st->capacity) {
        snprintf(out, out_size, "does not fit: the lower bound, %llu byte%s, is %llu more than %s: no plan can fit",
                 (unsigned long long)s->bound, aplan_host_s(s->bound), (unsigned long long)(s->bound - st->capacity),
                 than);
        return true;
    }
    if (smallest == NULL) return false; /* no plan at all: not a question of fit (the error says why) */
    /* A search given the capacity (goal FIT) may have proved that the bound is out of reach, or run out of time. */
    const aplan_host_run *proof, *ran_out;
    aplan_host_capacity_verdicts(s, &proof, &ran_out);
    char why[200];
    if (proof != NULL) {
        snprintf(why, sizeof why,
                 "%s proved that no plan fits it (%llu node%s searched), though the lower bound, %llu, does",
                 proof->strategy->name, (unsigned long long)proof->result.nodes, aplan_host_s(proof->result.nodes),
                 (unsigned long long)s->bound);
    } else if (ran_out != NULL && ran_out->out_of_time) {
        char limit[40];
        aplan_host_seconds_text(st->time_limit_ns, limit, sizeof limit);
        snprintf(why, sizeof why,
                 "the lower bound, %llu, would fit, but %s found no plan within it in the time limit (%s s)",
                 (unsigned long long)s->bound, ran_out->strategy->name, limit);
    } else if (ran_out != NULL) {
        snprintf(why, sizeof why, "the lower bound, %llu, would fit, but %s found no plan within it: a group of %llu "
                 "buffers was too large to search", (unsigned long long)s->bound, ran_out->strategy->name,
                 (unsigned long long)ran_out->result.unsearched);
    } else {
        snprintf(why, sizeof why, "the lower bound, %llu, would fit", (unsigned long long)s->bound);
    }
    snprintf(out, out_size, "does not fit: the smallest plan (%s) needs %llu byte%s, %llu more than %s; %s",
             smallest->strategy->name, (unsigned long long)smallest->result.arena_size,
             aplan_host_s(smallest->result.arena_size),
             (unsigned long long)(smallest->result.arena_size - st->capacity), than,
             why);
    return true;
}

/* The verdict line (aplan_host_verdict) and, when nothing fits, the buffers that dominate the peak step. */
static void write_verdict(FILE *out, const aplan_host_session *s) {
    char verdict[APLAN_HOST_VERDICT_SIZE];
    if (!aplan_host_verdict(s, verdict, sizeof verdict)) return;
    fprintf(out, "%s\n", verdict);
    if (s->best != SIZE_MAX) return;
    size_t largest[APLAN_HOST_PEAK_SHOWN];
    uint64_t live_bytes;
    size_t live = aplan_host_live_at(s, s->bound_step, largest, APLAN_HOST_PEAK_SHOWN, &live_bytes);
    fprintf(out, "peak: step %llu holds %llu byte%s in %zu buffer%s%s\n", (unsigned long long)s->bound_step,
            (unsigned long long)live_bytes, aplan_host_s(live_bytes), live, aplan_host_s(live),
            live > 0 ? "; the largest:" : "");
    aplan_host_write_buffer_rows(out, s, largest, live < APLAN_HOST_PEAK_SHOWN ? live : APLAN_HOST_PEAK_SHOWN);
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

/* The file a command writes beside the input: its base name without ".tflite", then tail ("_planned.tflite",
 * "_plan.h"), in the current directory; "planned" + tail's rest for standard input. */
static void beside_input(const aplan_host_input *in, const char *tail, char *out, size_t size) {
    const char *slash = strrchr(in->name, '/');
    const char *base = slash != NULL ? slash + 1 : in->name;
    size_t stem = strlen(base);
    if (stem > 7u && strcmp(base + stem - 7u, ".tflite") == 0) stem -= 7u;
    if (strcmp(in->name, "-") == 0 || stem == 0) snprintf(out, size, "model%s", tail);
    else snprintf(out, size, "%.*s%s", (int)(stem < 200u ? stem : 200u), base, tail);
}

/* Why a command that makes a search's plan again may not (NULL for a heuristic's plan, which it always makes): the
 * command gives this plan again when the search ends the same way, complete or at its first fit, which a budget that
 * ran out does not promise. */
static const char *again_why(const aplan_host_run *b) {
    if (!b->searched) return NULL;
    return b->out_of_time ? "the search ran out of time: this command may find another plan"
                          : "the search finished, so this command repeats it";
}

/* " -s NAME" that makes run's plan again: a search's with its time limit and, for a fit, its capacity. */
static void write_again(FILE *out, const aplan_host_session *s, const aplan_host_run *b) {
    if (!b->searched) {
        fprintf(out, " -s %s", b->strategy->name);
        return;
    }
    fprintf(out, " -s %s", s->auto_mode ? "auto" : b->strategy->name);
    if (s->settings.time_limit_ns != APLAN_HOST_DEFAULT_TIME_LIMIT) {
        char limit[40];
        aplan_host_seconds_text(s->settings.time_limit_ns, limit, sizeof limit);
        fprintf(out, " --time-limit %s", limit);
    }
    /* A fit was looked for within the capacity: without it the search would minimise instead. */
    if (b->goal == APLAN_GOAL_FIT)
        fprintf(out, " --capacity %llu",
                (unsigned long long)(s->settings.whole_capacity != APLAN_UNLIMITED ? s->settings.whole_capacity
                                                                                  : s->settings.capacity));
}

/* "  HEAD[ (why)]:\n    aplan COMMAND -s ... INPUT TAIL FILE\n": a command that makes run's plan again. */
static void write_command(FILE *out, const aplan_host_session *s, const aplan_host_run *b, const char *head,
                          const char *command, const char *tail, const char *file) {
    const char *why = again_why(b);
    fprintf(out, "  %s%s%s%s:\n    aplan %s", head, why != NULL ? " (" : "", why != NULL ? why : "",
            why != NULL ? ")" : "", command);
    write_again(out, s, b);
    fputc(' ', out);
    write_shell_word(out, s->input->name);
    fprintf(out, " %s ", tail);
    write_shell_word(out, file);
    fputc('\n', out);
}

/* The command that writes run's plan into the model as its offline plan; or why embed would refuse it (the size
 * query makes every check the write makes). */
static void write_embed_command(FILE *out, const aplan_host_session *s, const aplan_host_run *b) {
    const aplan_host_input *in = s->input;
    aplan_format_error e;
    size_t need = 0;
    if (aplan_host_embed(in, b->offsets, NULL, 0, &need, NULL, &e) != APLAN_OK) {
        fprintf(out, "  it cannot go into the model as its offline plan (aplan embed would refuse it: %s)\n",
                e.message);
        return;
    }
    char planned[256];
    beside_input(in, "_planned.tflite", planned, sizeof planned);
    write_command(out, s, b, "write it into the model as its offline plan", "embed", "-o", planned);
}

/* The commands that compile run's plan into the firmware: the header, and the planner that reads it. */
static void write_compiled_command(FILE *out, const aplan_host_session *s, const aplan_host_run *b) {
    char header[256];
    beside_input(s->input, "_plan.h", header, sizeof header);
    write_command(out, s, b,
                  "write it as a C header for aplan_tflm::AplanCompiledPlanner (integrations/tflm/), which needs no "
                  "planning scratch",
                  "plan", "-f c -o", header);
    fputs("    static aplan_tflm::AplanCompiledPlanner planner(aplan_tflm_plan, APLAN_TFLM_PLAN_BUFFERS);\n", out);
}

/* The adapter line: run's strategy planning at run time (a search's plan has no such line: see aplan_host_tflm_setup).
 * */
static void write_adapter_command(FILE *out, const aplan_host_run *b) {
    fprintf(out, "  plan at run time, kernels' scratch buffers included, with the adapter (integrations/tflm/, "
                 "docs/tflm.md):\n    aplan_tflm::AplanMemoryPlanner planner(aplan_strategy_%s());\n",
            b->strategy->name);
}

/* Without TFLM's whole arena (a build without greedy_by_size_tflm, or a model whose arena cannot be computed): the
 * advice compares planned sections only, and says so. */
static void write_tflm_use_sections(FILE *out, const aplan_host_session *s, const aplan_host_run *b) {
    const uint64_t arena = b->result.arena_size;
    if (s->tflm_arena != 0 && s->tflm_arena <= arena) {
        fprintf(out, "in TFLM: its own planner (GreedyMemoryPlanner, as greedy_by_size_tflm) plans a section of %llu "
                     "byte%s, %s this plan's: nothing to change\n",
                (unsigned long long)s->tflm_arena, aplan_host_s(s->tflm_arena),
                s->tflm_arena == arena ? "the same as" : "less than");
        return;
    }
    if (s->tflm_arena != 0)
        fprintf(out, "in TFLM: its own planner (GreedyMemoryPlanner, as greedy_by_size_tflm) plans a section of %llu "
                     "byte%s. To use this plan's %llu,\n",
                (unsigned long long)s->tflm_arena, aplan_host_s(s->tflm_arena), (unsigned long long)arena);
    else
        fputs("in TFLM: to use this plan,\n", out);
    write_embed_command(out, s, b);
    if (!b->searched) {
        fputs("  or\n", out);
        write_adapter_command(out, b);
    }
}

/*
 * A .tflite report ends with how to run the model in TFLM, for the setup the verdict judged (aplan_host_tflm_setup),
 * with the arena to set for it: its smallest arena, arena_used_bytes() beside it. TFLM's own planner (TFLM as it comes)
 * unless only another way fits the capacity; then that way's command (`aplan embed`, which writes this plan into the
 * model, or the adapter, which makes it at run time). With TFLM's own planner, another way is offered only where it
 * needs a smaller arena, and "nothing to change" only where none does. The embed command line names the strategy, so it
 * writes this very plan.
 */
static void write_tflm_use(FILE *out, const aplan_host_session *s) {
    const aplan_host_input *in = s->input;
    if (in->kind != APLAN_HOST_INPUT_TFLITE || s->best == SIZE_MAX) return;
    const aplan_host_run *b = &s->runs[s->best];
    const char *name = b->strategy->name;
    if (strcmp(name, "offline") == 0) {
        fputs("in TFLM: this is the model's own offline plan (OfflineMemoryAllocation), which TFLM follows as it "
              "loads the model\n",
              out);
        return;
    }
    const aplan_host_tflm_figures *setup = aplan_host_tflm_setup(s), *own = &s->tflm_own;
    if (own->status == APLAN_E_FORMAT_UNSUPPORTED) { /* the TFLM line above says which operator, and why */
        fputs("in TFLM: no arena runs this model (TFLM refuses it, above): no plan changes that\n", out);
        return;
    }
    if (setup == NULL || !own->known) {
        write_tflm_use_sections(out, s, b);
        return;
    }
    const char *at_least = setup->info.unknown_ops > 0 ? "at least " : "";
    if (setup != own) { /* only this plan fits the capacity: how to run it, and the arena it needs */
        fprintf(
            out,
            "in TFLM: its own planner needs %llu bytes, more than the capacity; with %s set the arena to %s%llu bytes "
            "(arena_used_bytes() then reports %llu):\n",
            (unsigned long long)own->info.smallest, aplan_host_tflm_way(s, setup), at_least,
            (unsigned long long)setup->info.smallest, (unsigned long long)setup->info.used);
        if (setup == &s->tflm_embed) write_embed_command(out, s, b);
        else if (setup == &s->tflm_compiled) write_compiled_command(out, s, b);
        else write_adapter_command(out, b);
        return;
    }
    /* Nothing fits the capacity (the verdict said so): the figure is what the arena must be, not one to set. */
    const bool over = s->settings.whole_capacity != APLAN_UNLIMITED && own->info.smallest > s->settings.whole_capacity;
    fprintf(out, "in TFLM: with its own planner (GreedyMemoryPlanner) %s %s%llu bytes (arena_used_bytes() then reports "
                 "%llu)%s",
            over ? "the arena must be" : "set the arena to", at_least, (unsigned long long)own->info.smallest,
            (unsigned long long)own->info.used, over ? ", more than the capacity" : "");
    const char *nothing = over ? "" : ": nothing to change";
    /* Another way is worth a command only where it needs a smaller arena than TFLM as it comes: embedded (not for
     * TFLM's own plan, which embedded is what TFLM makes anyway), compiled in, the adapter (not for a search's plan,
     * which it does not make on the device). */
    const bool own_plan = strcmp(name, "greedy_by_size_tflm") == 0;
    const aplan_host_tflm_figures *ways[3] = {own_plan ? NULL : &s->tflm_embed, &s->tflm_compiled,
                                       b->searched ? NULL : &s->tflm_adapter};
    static const char *const labels[3] = {"embedded", "compiled in", "with the adapter"};
    bool any = false;
    for (size_t k = 0; k < 3u; k++) {
        const aplan_host_tflm_figures *f = ways[k];
        if (f == NULL || !f->known || f->info.smallest >= own->info.smallest) continue;
        if (!any) fprintf(out, ". %s needs less:\n", own_plan ? "Its plan" : "This plan");
        fprintf(out, "  %s%s, %llu bytes (%llu less; arena_used_bytes() %llu)\n", any ? "or " : "", labels[k],
                (unsigned long long)f->info.smallest, (unsigned long long)(own->info.smallest - f->info.smallest),
                (unsigned long long)f->info.used);
        if (k == 0) write_embed_command(out, s, b);
        else if (k == 1) write_compiled_command(out, s, b);
        else write_adapter_command(out, b);
        any = true;
    }
    if (!any) fprintf(out, "; %s needs no less%s\n", own_plan ? "this is its own plan, which" : "this plan", nothing);
}

/* The buffers a strategy's rule places: neither fixed nor empty (live at no step, or of no bytes), as the library's
 * split counts them; a rule the time limit stopped placed result.nodes of them. O(count). */
static uint64_t rule_buffers(const aplan_host_session *s) {
    uint64_t n = 0;
    for (size_t i = 0; i < s->input->count; i++) {
        const aplan_buffer *b = &s->problem.buffers[i];
        n += b->offset == APLAN_NO_OFFSET && b->lower < b->upper && aplan_buffer_size(&s->problem, i) != 0;
    }
    return n;
}

int aplan_host_write_table(FILE *out, const aplan_host_session *s, const aplan_host_run *run,
                           const aplan_host_options *o, aplan_host_error *err) {
    (void)run, (void)o; /* the best run is s's, and the table takes no option of its own */
    aplan_host_write_heading(out, s);
    write_selection_note(out, s);
    fprintf(out, "\n  %-22s %12s %12s %9s  %-10s %12s %11s  %s\n", "strategy", "arena bytes", "lower bound",
            "overhead", "outcome", "nodes", "time", "verified");
    for (size_t i = 0; i < s->run_count; i++) {
        const aplan_host_run *r = &s->runs[i];
        /* arena: 20 digits at most. over: arena / bound can reach 2^64 (bound 1), so "%+.1f%%" can take 27
         * characters ("+1844674407370955161500.0%"); time: milliseconds as a double, "%.3f ms" up to 32 (a run of
         * 10^25 ms aside). None is ever cut: the column widens instead. */
        char arena[24] = "-", over[48] = "-", time[48], nodes[24] = "-";
        if (r->planned) {
            snprintf(arena, sizeof arena, "%llu", (unsigned long long)r->result.arena_size);
            snprintf(over, sizeof over, "%+.1f%%", aplan_host_overhead_percent(r->result.arena_size, s->bound));
        }
        if (r->searched) snprintf(nodes, sizeof nodes, "%llu", (unsigned long long)r->result.nodes);
        snprintf(time, sizeof time, "%.3f ms", r->millis);
        /* A heuristic whose rule the time limit stopped: its plan is the rule's start with the rest stacked above,
         * not the rule's result, so the row says so rather than "best found" beside an arena that looks like one. */
        bool cut = r->planned && !r->searched && r->result.outcome == APLAN_OUTCOME_BEST_FOUND;
        fprintf(out, "%c %-22s %12s %12llu %9s  %-10s %12s %11s  %s", i == s->best ? '*' : ' ', r->strategy->name,
                arena, (unsigned long long)s->bound, over, cut ? "cut" : aplan_host_outcome_word(r), nodes, time,
                r->verified ? "yes" : "no");
        if (cut) {
            uint64_t all = rule_buffers(s);
            fprintf(out, "  (time limit: stopped after %llu of %llu buffer%s; the rest stacked above)",
                    (unsigned long long)r->result.nodes, (unsigned long long)all, aplan_host_s(all));
        }
        if (r->status != APLAN_OK) fprintf(out, "  (%s)", r->error);
        fputc('\n', out);
    }
    aliased a = {0, {{0, 0, 0, 0}}};
    size_t count = 0;
    if ((s->problem.flags & APLAN_ALLOW_FIXED_ALIAS) != 0 &&
        (!aplan_host_fixed_alias_count(s, &count) || (count > 0 && !aplan_host_fixed_pairs(s, keep_aliased, &a)))) {
        return aplan_host_error_set(err, APLAN_HOST_INTERNAL, "out of memory");
    }
    if (count > 0) {
        const aplan_host_input *in = s->input;
        fprintf(out, "\naliased fixed pairs (allowed: the offline plan shares them on purpose): %zu\n", count);
        for (size_t k = 0; k < a.kept; k++) {
            fputs("  ", out);
            (void)aplan_host_write_shown(out, in->ids[a.pairs[k].i]);
            fputs(" & ", out);
            (void)aplan_host_write_shown(out, in->ids[a.pairs[k].j]);
            fprintf(out, " share bytes [%llu, %llu)\n", (unsigned long long)a.pairs[k].lo,
                    (unsigned long long)a.pairs[k].hi);
        }
        if (count > a.kept) fprintf(out, "  ... and %zu more\n", count - a.kept);
    }
    fputc('\n', out);
    if (s->best != SIZE_MAX) {
        const aplan_host_run *b = &s->runs[s->best];
        uint64_t arena = b->result.arena_size;
        fprintf(out, "best: %s, %llu byte%s", b->strategy->name, (unsigned long long)arena, aplan_host_s(arena));
        if (arena == s->bound) {
            fprintf(out, ": proven optimal (equals the lower bound)\n");
        } else if (aplan_host_best_proven(s)) {
            fprintf(out, ": proven optimal by a complete search, %llu byte%s above the lower bound (%+.1f%%)\n",
                    (unsigned long long)(arena - s->bound), aplan_host_s(arena - s->bound),
                    aplan_host_overhead_percent(arena, s->bound));
        } else {
            fprintf(out, ": %llu byte%s above the lower bound (%+.1f%%), not proven optimal",
                    (unsigned long long)(arena - s->bound), aplan_host_s(arena - s->bound),
                    aplan_host_overhead_percent(arena, s->bound));
            char limit[40];
            aplan_host_seconds_text(s->settings.time_limit_ns, limit, sizeof limit);
            char why[240];
            if (b->searched && b->result.outcome == APLAN_OUTCOME_FITS)
                fprintf(out, " (the search stopped at its first plan within the capacity)");
            else if (b->searched && b->result.outcome == APLAN_OUTCOME_BEST_FOUND)
                fprintf(out, " (%s)", aplan_host_unproven_reason(s, b, why, sizeof why));
            else if (b->result.outcome == APLAN_OUTCOME_BEST_FOUND) /* a heuristic's rule, cut short */
                fprintf(out,
                        " (the time limit, %s s, stopped its rule after %llu buffer%s; the rest are stacked above)",
                        limit, (unsigned long long)b->result.nodes, aplan_host_s(b->result.nodes));
            fputc('\n', out);
        }
    }
    aplan_host_write_tflm_lines(out, s);
    write_verdict(out, s);
    write_tflm_use(out, s);
    return APLAN_HOST_OK;
}
