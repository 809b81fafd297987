/*
 * aplan: the command-line tool. Commands, options and exit codes are documented in docs/cli.md; results go to
 * stdout (or -o FILE), every error to stderr, and the exit code says which kind of failure happened.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aplan/strategies.h"
#include "cli.h"

#define MAX_RUNS 32

typedef enum cli_format { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON, FORMAT_SVG, FORMAT_HTML, FORMAT_C } cli_format;

/* Which options a command accepts; an option given to a command that ignores it is a usage error, not a no-op. */
enum {
    OPT_STRATEGY = 1u << 0,
    OPT_ALIGN = 1u << 1,
    OPT_ROUND = 1u << 2,
    OPT_CAPACITY = 1u << 3,
    OPT_TARGET = 1u << 4,
    OPT_FORMAT = 1u << 5,
    OPT_OUTPUT = 1u << 6,
    OPT_ALIAS = 1u << 7,
    OPT_GRAPH = 1u << 8
};

typedef struct options {
    unsigned given;
    const char *strategies;
    uint64_t align;
    bool round;
    uint64_t capacity;
    const char *target;
    cli_format format;
    const char *output;
    bool alias;
    bool graph;
    bool help;
    const char *args[3];
    size_t arg_count;
} options;

typedef struct command {
    const char *name;
    unsigned accepts;
    size_t min_args, max_args;
    const char *usage;
    const char *help;
} command;

static const char *const program = "aplan";

static void error_message(const char *format, ...) __attribute__((format(printf, 1, 2)));
static void error_message(const char *format, ...) {
    va_list args;
    va_start(args, format);
    fprintf(stderr, "%s: ", program);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
}

#define PLAN_OPTIONS                                                                                                \
    "  -s, --strategy NAME[,NAME...]|all|auto\n"                                                                  \
    "                        strategies to run (default all; auto runs all and keeps the best)\n"                 \
    "  -a, --align N         default alignment in bytes, a power of two (default: 16 for .tflite\n"               \
    "                        and the example, as TFLM; 1 for CSV, whose own alignment column wins)\n"             \
    "      --round-sizes     round every size up to its alignment (default for .tflite, as TFLM)\n"               \
    "      --no-round-sizes  plan sizes as given (default for CSV)\n"                                             \
    "      --capacity BYTES  largest arena allowed (suffix K/KiB or M/MiB allowed); exit 4 when nothing fits\n"   \
    "      --target NAME     alignment and RAM size of a target (see `aplan targets`)\n"                          \
    "      --allow-alias     fixed offsets may share bytes (default on for a .tflite offline plan)\n"             \
    "  -f, --format FMT      table (default), csv, json, svg, html or c\n"                                        \
    "  -o FILE               write the result to FILE instead of stdout\n"                                        \
    "  -h, --help            this help\n"

static const command commands[] = {
    {"plan", OPT_STRATEGY | OPT_ALIGN | OPT_ROUND | OPT_CAPACITY | OPT_TARGET | OPT_FORMAT | OPT_OUTPUT | OPT_ALIAS,
     1, 1, "aplan plan [options] INPUT",
     "Plan INPUT (a .tflite model or a CSV problem, recognised by content) with one strategy, a list, or all,\n"
     "and print one row per strategy: arena bytes, lower bound, overhead over the bound, time, verified.\n"
     "With -f csv|svg|html|c the output is the plan of one strategy (the best when several ran).\n\n" PLAN_OPTIONS},
    {"example", OPT_STRATEGY | OPT_ALIGN | OPT_ROUND | OPT_CAPACITY | OPT_TARGET | OPT_FORMAT | OPT_OUTPUT | OPT_GRAPH,
     0, 0, "aplan example [options]",
     "Plan the built-in example network (what `aplan` with no arguments does); takes the options of `plan`.\n\n"
     "      --graph           print the example's ops and tensors instead of planning\n" PLAN_OPTIONS},
    {"verify", OPT_ALIGN | OPT_ROUND | OPT_CAPACITY | OPT_TARGET | OPT_ALIAS, 2, 2, "aplan verify [options] PROBLEM PLAN",
     "Check PLAN against PROBLEM and print the first violation in words. PLAN is a CSV with an `offset` column\n"
     "(rows matched to PROBLEM by id) or a .tflite model whose offline plan gives every offset.\n"
     "Exit 0 when the plan is valid, 5 when it breaks a rule.\n\n"
     "  -a, --align N, --round-sizes, --no-round-sizes, --capacity BYTES, --target NAME, --allow-alias\n"
     "                        as for `aplan plan`\n"
     "  -h, --help            this help\n"},
    {"bound", OPT_ALIGN | OPT_ROUND | OPT_TARGET | OPT_ALIAS, 1, 1, "aplan bound [options] INPUT",
     "Print the lower bound on the arena of INPUT (the largest sum of sizes live at one step, or a larger\n"
     "single buffer or fixed end) and the step where it is reached, with the buffers live there.\n\n"
     "  -a, --align N, --round-sizes, --no-round-sizes, --target NAME, --allow-alias\n"
     "                        as for `aplan plan`\n"
     "  -h, --help            this help\n"},
    {"list", 0, 0, 0, "aplan list", "List the built-in strategies with their descriptions.\n\n"
                                    "  -h, --help            this help\n"},
    {"targets", 0, 0, 0, "aplan targets",
     "List the --target presets: alignment, RAM size and where each figure comes from.\n\n"
     "  -h, --help            this help\n"},
};

static void print_main_help(FILE *out) {
    fprintf(out,
            "usage: aplan [COMMAND] [options] [args]\n\n"
            "Plans tensor arenas for ML inference runtimes and compares the strategies against a lower bound.\n"
            "With no command, plans a built-in example network and prints the comparison table.\n\n"
            "commands:\n"
            "  plan INPUT            plan a .tflite model or CSV problem with one, several or all strategies\n"
            "  verify PROBLEM PLAN   check a plan (CSV with offsets, or a .tflite offline plan)\n"
            "  bound INPUT           the lower bound and the step where it is reached\n"
            "  list                  the strategies\n"
            "  targets               the --target presets\n"
            "  example               plan the built-in example (options as for plan)\n\n"
            "`aplan COMMAND --help` describes each command's options.\n"
            "exit codes: 0 ok, 1 internal error, 2 usage error, 3 bad input, 4 plan does not fit,\n"
            "            5 verification failed, 6 I/O error\n");
}

/* Decimal with an optional binary suffix (K, KiB, M, MiB); false on anything else or overflow. */
static bool parse_bytes(const char *s, uint64_t *out) {
    if (*s < '0' || *s > '9') return false;
    uint64_t v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        uint64_t d = (uint64_t)(*s - '0');
        if (v > (UINT64_MAX - d) / 10u) return false;
        v = v * 10u + d;
    }
    uint64_t scale = 1;
    if (strcmp(s, "K") == 0 || strcmp(s, "k") == 0 || strcmp(s, "KiB") == 0) scale = 1024u;
    else if (strcmp(s, "M") == 0 || strcmp(s, "MiB") == 0) scale = 1024u * 1024u;
    else if (*s != '\0') return false;
    if (v > UINT64_MAX / scale) return false;
    *out = v * scale;
    return true;
}

static const char *const format_names[] = {"table", "csv", "json", "svg", "html", "c"};

/* Returns CLI_EXIT_OK or CLI_EXIT_USAGE (message printed). */
static int parse_options(const command *cmd, int argc, char **argv, options *o) {
    bool only_args = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (only_args || a[0] != '-' || strcmp(a, "-") == 0) {
            if (o->arg_count >= sizeof o->args / sizeof o->args[0]) {
                error_message("%s: too many arguments (usage: %s)", cmd->name, cmd->usage);
                return CLI_EXIT_USAGE;
            }
            o->args[o->arg_count++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_args = true;
            continue;
        }
        /* Split --name=value; short options take their value from the next word or the rest of the word. */
        char name[32];
        const char *value = NULL;
        const char *eq = strchr(a, '=');
        if (a[1] == '-' && eq != NULL) {
            size_t n = (size_t)(eq - a);
            if (n >= sizeof name) n = sizeof name - 1u;
            memcpy(name, a, n);
            name[n] = '\0';
            value = eq + 1;
        } else if (a[1] != '-' && a[2] != '\0') {
            name[0] = '-';
            name[1] = a[1];
            name[2] = '\0';
            value = a + 2;
        } else {
            snprintf(name, sizeof name, "%s", a);
        }
        unsigned bit;
        bool takes_value = true;
        if (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0) {
            o->help = true;
            continue;
        } else if (strcmp(name, "-s") == 0 || strcmp(name, "--strategy") == 0) {
            bit = OPT_STRATEGY;
        } else if (strcmp(name, "-a") == 0 || strcmp(name, "--align") == 0) {
            bit = OPT_ALIGN;
        } else if (strcmp(name, "--round-sizes") == 0 || strcmp(name, "--no-round-sizes") == 0) {
            bit = OPT_ROUND;
            takes_value = false;
            o->round = strcmp(name, "--round-sizes") == 0;
        } else if (strcmp(name, "--capacity") == 0) {
            bit = OPT_CAPACITY;
        } else if (strcmp(name, "--target") == 0) {
            bit = OPT_TARGET;
        } else if (strcmp(name, "-f") == 0 || strcmp(name, "--format") == 0) {
            bit = OPT_FORMAT;
        } else if (strcmp(name, "-o") == 0 || strcmp(name, "--output") == 0) {
            bit = OPT_OUTPUT;
        } else if (strcmp(name, "--allow-alias") == 0) {
            bit = OPT_ALIAS;
            takes_value = false;
            o->alias = true;
        } else if (strcmp(name, "--graph") == 0) {
            bit = OPT_GRAPH;
            takes_value = false;
            o->graph = true;
        } else {
            error_message("%s: unknown option '%s' (see `aplan %s --help`)", cmd->name, a, cmd->name);
            return CLI_EXIT_USAGE;
        }
        if ((cmd->accepts & bit) == 0) {
            error_message("%s: option '%s' does not apply to this command", cmd->name, name);
            return CLI_EXIT_USAGE;
        }
        if (!takes_value) {
            if (value != NULL) {
                error_message("%s: option '%s' takes no value", cmd->name, name);
                return CLI_EXIT_USAGE;
            }
            o->given |= bit;
            continue;
        }
        if (value == NULL) {
            if (i + 1 >= argc) {
                error_message("%s: option '%s' needs a value", cmd->name, name);
                return CLI_EXIT_USAGE;
            }
            value = argv[++i];
        }
        o->given |= bit;
        switch (bit) {
        case OPT_STRATEGY:
            o->strategies = value;
            break;
        case OPT_ALIGN:
            if (!parse_bytes(value, &o->align) || o->align == 0 || (o->align & (o->align - 1u)) != 0) {
                error_message("%s: --align '%s' is not a power of two", cmd->name, value);
                return CLI_EXIT_USAGE;
            }
            break;
        case OPT_CAPACITY:
            if (!parse_bytes(value, &o->capacity)) {
                error_message("%s: --capacity '%s' is not a byte count (digits, optional K/KiB/M/MiB)", cmd->name,
                              value);
                return CLI_EXIT_USAGE;
            }
            break;
        case OPT_TARGET:
            if (cli_target_find(value) == NULL) {
                error_message("%s: unknown target '%s' (see `aplan targets`)", cmd->name, value);
                return CLI_EXIT_USAGE;
            }
            o->target = value;
            break;
        case OPT_FORMAT: {
            bool found = false;
            for (size_t f = 0; f < sizeof format_names / sizeof format_names[0]; f++) {
                if (strcmp(value, format_names[f]) == 0) {
                    o->format = (cli_format)f;
                    found = true;
                }
            }
            if (!found) {
                error_message("%s: unknown format '%s' (table, csv, json, svg, html, c)", cmd->name, value);
                return CLI_EXIT_USAGE;
            }
            break;
        }
        case OPT_OUTPUT:
            o->output = value;
            break;
        default:
            break;
        }
    }
    if (o->help) return CLI_EXIT_OK;
    if (o->arg_count < cmd->min_args || o->arg_count > cmd->max_args) {
        error_message("%s: expected %zu argument%s, got %zu (usage: %s)", cmd->name, cmd->max_args,
                      cmd->max_args == 1 ? "" : "s", o->arg_count, cmd->usage);
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

/* Settings: explicit options first, then the target, then the input kind's defaults (TFLM's for models). */
static void resolve_settings(const options *o, const cli_input *in, cli_settings *s, aplan_problem *p) {
    const cli_target *t = o->target != NULL ? cli_target_find(o->target) : NULL;
    bool model = in->kind != CLI_INPUT_CSV;
    s->alignment = (o->given & OPT_ALIGN) ? o->align : t != NULL ? t->alignment : model ? 16u : 1u;
    s->round_sizes = (o->given & OPT_ROUND) ? o->round : model;
    s->capacity = (o->given & OPT_CAPACITY) ? o->capacity : t != NULL ? t->ram : APLAN_UNLIMITED;
    s->target = o->target;
    aplan_problem_init(p, in->buffers, in->count);
    p->alignment = s->alignment;
    p->capacity = s->capacity;
    p->flags = (s->round_sizes ? APLAN_ROUND_SIZES : 0u) |
               ((o->alias || (in->kind == CLI_INPUT_TFLITE && in->has_fixed)) ? APLAN_ALLOW_FIXED_ALIAS : 0u);
}

/* Name a buffer for people: "'id'" or "'id', line N". */
static void name_buffer(const cli_input *in, size_t i, char *out, size_t out_size) {
    if (in->lines != NULL) snprintf(out, out_size, "'%s' (line %u)", in->ids[i], (unsigned)in->lines[i]);
    else snprintf(out, out_size, "'%s'", in->ids[i]);
}

/* A failed report in words, with the ids of the buffers it names: "detail (buffer 3 is 'x', line 5)". */
static void describe_report(const cli_input *in, aplan_status status, const aplan_report *r, char *out,
                            size_t out_size) {
    char detail[160];
    char a[96] = "";
    char b[96] = "";
    (void)aplan_report_format(r, detail, sizeof detail);
    if (r->buffer_a != APLAN_NO_BUFFER && r->buffer_a < in->count) name_buffer(in, r->buffer_a, a, sizeof a);
    if (r->buffer_b != APLAN_NO_BUFFER && r->buffer_b < in->count) name_buffer(in, r->buffer_b, b, sizeof b);
    if (r->rule == APLAN_OK) {
        snprintf(out, out_size, "%s", aplan_status_str(status));
    } else if (b[0] != '\0') {
        snprintf(out, out_size, "%s: buffer %zu is %s, buffer %zu is %s", detail, r->buffer_a, a, r->buffer_b, b);
    } else if (a[0] != '\0') {
        snprintf(out, out_size, "%s: buffer %zu is %s", detail, r->buffer_a, a);
    } else {
        snprintf(out, out_size, "%s", detail);
    }
}

/* Check the problem before any strategy: input mistakes are reported once, as bad input. */
static int check_problem(const cli_session *s) {
    aplan_problem p = s->problem;
    p.capacity = APLAN_UNLIMITED;
    aplan_report r;
    aplan_report_clear(&r);
    aplan_status st = aplan_problem_validate(&p, &r);
    if (st != APLAN_OK) {
        char text[400];
        describe_report(s->input, st, &r, text, sizeof text);
        error_message("%s: invalid problem: %s", s->input->name, text);
        return CLI_EXIT_BAD_INPUT;
    }
    return CLI_EXIT_OK;
}

/* Fixed buffers that clash are an input mistake unless aliasing is allowed: say so once, with the way out, rather
 * than let every strategy fail on it. */
static int check_fixed(const cli_session *s) {
    const cli_input *in = s->input;
    if (!in->has_fixed || (s->problem.flags & APLAN_ALLOW_FIXED_ALIAS) != 0) return CLI_EXIT_OK;
    for (size_t i = 0; i < in->count; i++) {
        for (size_t j = i + 1u; j < in->count; j++) {
            uint64_t lo, hi;
            if (!cli_fixed_pair_shares(s, i, j, &lo, &hi)) continue;
            char a[96], b[96];
            name_buffer(in, i, a, sizeof a);
            name_buffer(in, j, b, sizeof b);
            error_message("%s: fixed buffers %s and %s share bytes while both are live (use --allow-alias if the "
                          "offline plan shares them on purpose)",
                          in->name, a, b);
            return CLI_EXIT_BAD_INPUT;
        }
    }
    return CLI_EXIT_OK;
}

static int compute_bound(cli_session *s) {
    aplan_problem p = s->problem;
    p.capacity = APLAN_UNLIMITED;
    size_t bytes = 0;
    aplan_status st = aplan_lower_bound_scratch_size(&p, &bytes);
    void *scratch = st == APLAN_OK && bytes > 0 ? malloc(bytes) : NULL;
    if (st == APLAN_OK && bytes > 0 && scratch == NULL) {
        error_message("out of memory");
        return CLI_EXIT_INTERNAL;
    }
    if (st == APLAN_OK) st = aplan_lower_bound(&p, scratch, bytes, &s->bound, &s->bound_step);
    free(scratch);
    if (st != APLAN_OK) {
        error_message("%s: cannot compute the lower bound: %s", s->input->name, aplan_status_str(st));
        return CLI_EXIT_BAD_INPUT;
    }
    return CLI_EXIT_OK;
}

static double now_ms(void) {
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void run_one(cli_session *s, cli_run *run) {
    const cli_input *in = s->input;
    run->offsets = malloc((in->count + 1u) * sizeof *run->offsets);
    size_t bytes = 0;
    aplan_status st = run->offsets == NULL ? APLAN_E_OUT_OF_MEMORY
                                           : aplan_plan_scratch_size(run->strategy, &s->problem, &bytes);
    void *scratch = NULL;
    if (st == APLAN_OK && bytes > 0) {
        scratch = malloc(bytes);
        if (scratch == NULL) st = APLAN_E_OUT_OF_MEMORY;
    }
    if (st == APLAN_OK) {
        double t0 = now_ms();
        st = aplan_plan(run->strategy, &s->problem, scratch, bytes, run->offsets, &run->result);
        run->millis = now_ms() - t0;
    }
    free(scratch);
    run->status = st;
    /* Independent check with the public verifier, capacity aside: a plan that only breaks the capacity is still a
     * plan, shown with its size so the user sees by how much it misses. */
    if (st == APLAN_OK || (st == APLAN_E_CAPACITY_EXCEEDED && run->result.arena_size > 0)) {
        aplan_problem p = s->problem;
        p.capacity = APLAN_UNLIMITED;
        size_t vbytes = 0;
        aplan_status vs = aplan_verify_scratch_size(&p, &vbytes);
        void *vscratch = vs == APLAN_OK && vbytes > 0 ? malloc(vbytes) : NULL;
        aplan_report r;
        if (vs == APLAN_OK)
            vs = aplan_verify(&p, run->offsets, run->result.arena_size, vscratch, vscratch != NULL ? vbytes : 0, &r);
        free(vscratch);
        run->verified = vs == APLAN_OK;
        run->planned = st == APLAN_OK || run->verified;
    }
    if (st == APLAN_E_CAPACITY_EXCEEDED && run->planned) {
        snprintf(run->error, sizeof run->error, "needs %llu bytes, %llu more than the capacity %llu",
                 (unsigned long long)run->result.arena_size,
                 (unsigned long long)(run->result.arena_size - s->settings.capacity),
                 (unsigned long long)s->settings.capacity);
    } else if (st != APLAN_OK) {
        char text[180];
        describe_report(in, st, &run->result.report, text, sizeof text);
        snprintf(run->error, sizeof run->error, "%s", text);
    }
}

/* Fill s->runs from the -s list. Returns CLI_EXIT_USAGE for an unknown name. */
static int select_strategies(const char *list, cli_session *s) {
    s->runs = calloc(MAX_RUNS, sizeof *s->runs);
    if (s->runs == NULL) return CLI_EXIT_INTERNAL;
    if (list == NULL || strcmp(list, "all") == 0 || strcmp(list, "auto") == 0) {
        s->auto_mode = list != NULL && strcmp(list, "auto") == 0;
        for (size_t i = 0; i < aplan_strategy_count() && i < MAX_RUNS; i++) s->runs[s->run_count++].strategy = aplan_strategy_at(i);
        return CLI_EXIT_OK;
    }
    const char *p = list;
    while (*p != '\0') {
        const char *comma = strchr(p, ',');
        size_t n = comma != NULL ? (size_t)(comma - p) : strlen(p);
        char name[64];
        if (n == 0 || n >= sizeof name) {
            error_message("plan: empty or overlong strategy name in '%s'", list);
            return CLI_EXIT_USAGE;
        }
        memcpy(name, p, n);
        name[n] = '\0';
        const aplan_strategy *st = NULL;
        if (aplan_strategy_find(name, &st) != APLAN_OK || st == NULL) {
            fprintf(stderr, "%s: plan: unknown strategy '%s'; known:", program, name);
            for (size_t i = 0; i < aplan_strategy_count(); i++) fprintf(stderr, " %s", aplan_strategy_at(i)->name);
            fprintf(stderr, ", all, auto\n");
            return CLI_EXIT_USAGE;
        }
        bool duplicate = false;
        for (size_t i = 0; i < s->run_count; i++) duplicate = duplicate || s->runs[i].strategy == st;
        if (!duplicate && s->run_count < MAX_RUNS) s->runs[s->run_count++].strategy = st;
        p += n;
        if (*p == ',') {
            p++;
            if (*p == '\0') {
                error_message("plan: empty strategy name in '%s'", list);
                return CLI_EXIT_USAGE;
            }
        }
    }
    return CLI_EXIT_OK;
}

static void free_session(cli_session *s) {
    if (s->runs != NULL) {
        for (size_t i = 0; i < s->run_count; i++) free(s->runs[i].offsets);
    }
    free(s->runs);
}

/* Open -o FILE (or stdout), write, close; any write failure is an I/O error. */
static int emit(const options *o, cli_session *s) {
    FILE *out = stdout;
    if (o->output != NULL) {
        out = fopen(o->output, "w");
        if (out == NULL) {
            error_message("cannot open %s for writing: %s", o->output, strerror(errno));
            return CLI_EXIT_IO;
        }
    }
    const cli_run *best = s->best != SIZE_MAX ? &s->runs[s->best] : NULL;
    int rc = CLI_EXIT_OK;
    switch (o->format) {
    case FORMAT_TABLE:
        rc = cli_write_table(out, s);
        break;
    case FORMAT_JSON:
        rc = cli_write_json(out, s);
        break;
    case FORMAT_CSV:
        rc = cli_write_csv(out, s, best);
        break;
    case FORMAT_SVG:
        rc = cli_write_svg(out, s, best);
        break;
    case FORMAT_HTML:
        rc = cli_write_html(out, s, best);
        break;
    case FORMAT_C:
        rc = cli_write_c(out, s, best);
        break;
    }
    bool failed = ferror(out) != 0;
    if (out != stdout) failed = fclose(out) != 0 || failed;
    else failed = fflush(out) != 0 || failed;
    if (rc == CLI_EXIT_OK && failed) {
        error_message("cannot write %s", o->output != NULL ? o->output : "standard output");
        rc = CLI_EXIT_IO;
    }
    return rc;
}

static int plan_input(const options *o, cli_input *in) {
    cli_session s;
    memset(&s, 0, sizeof s);
    s.input = in;
    s.best = SIZE_MAX;
    resolve_settings(o, in, &s.settings, &s.problem);
    int rc = check_problem(&s);
    if (rc == CLI_EXIT_OK) rc = check_fixed(&s);
    if (rc == CLI_EXIT_OK) rc = compute_bound(&s);
    if (rc != CLI_EXIT_OK) return rc;
    if (s.bound > s.settings.capacity) {
        error_message("%s: no plan can fit: the lower bound is %llu bytes, %llu more than the capacity %llu",
                      in->name, (unsigned long long)s.bound, (unsigned long long)(s.bound - s.settings.capacity),
                      (unsigned long long)s.settings.capacity);
        return CLI_EXIT_NO_FIT;
    }
    rc = select_strategies(o->strategies, &s);
    if (rc != CLI_EXIT_OK) {
        free_session(&s);
        return rc;
    }
    bool any_planned = false;
    for (size_t i = 0; i < s.run_count; i++) {
        run_one(&s, &s.runs[i]);
        cli_run *r = &s.runs[i];
        any_planned = any_planned || r->planned;
        if (r->status == APLAN_OK && (s.best == SIZE_MAX || r->result.arena_size < s.runs[s.best].result.arena_size))
            s.best = i;
    }
    if (s.best == SIZE_MAX) {
        if (any_planned) {
            /* Every plan exceeded the capacity: say by how much the smallest one misses. */
            size_t smallest = SIZE_MAX;
            for (size_t i = 0; i < s.run_count; i++) {
                if (s.runs[i].planned &&
                    (smallest == SIZE_MAX || s.runs[i].result.arena_size < s.runs[smallest].result.arena_size))
                    smallest = i;
            }
            const cli_run *r = &s.runs[smallest];
            if (o->format == FORMAT_TABLE) (void)emit(o, &s);
            error_message("%s: nothing fits the capacity of %llu bytes: the smallest plan (%s) needs %llu bytes, "
                          "%llu more",
                          in->name, (unsigned long long)s.settings.capacity, r->strategy->name,
                          (unsigned long long)r->result.arena_size,
                          (unsigned long long)(r->result.arena_size - s.settings.capacity));
            free_session(&s);
            return CLI_EXIT_NO_FIT;
        }
        if (o->format == FORMAT_TABLE || o->format == FORMAT_JSON) (void)emit(o, &s);
        error_message("%s: no strategy could plan the input", in->name);
        for (size_t i = 0; i < s.run_count; i++)
            fprintf(stderr, "  %s: %s\n", s.runs[i].strategy->name, s.runs[i].error);
        free_session(&s);
        return CLI_EXIT_BAD_INPUT;
    }
    if (s.auto_mode) {
        /* Keep only the best run. */
        cli_run keep = s.runs[s.best];
        for (size_t i = 0; i < s.run_count; i++) {
            if (i != s.best) free(s.runs[i].offsets);
        }
        s.runs[0] = keep;
        s.run_count = 1;
        s.best = 0;
    }
    rc = emit(o, &s);
    free_session(&s);
    return rc;
}

/* Loads the command's input file, printing the error on failure. */
static int load_arg(const options *o, cli_input *in) {
    char message[512];
    int rc = cli_load(o->args[0], in, message, sizeof message);
    if (rc != CLI_EXIT_OK) error_message("%s", message);
    return rc;
}

static int cmd_plan(const options *o) {
    cli_input in;
    int rc = load_arg(o, &in);
    if (rc != CLI_EXIT_OK) return rc;
    rc = plan_input(o, &in);
    cli_input_free(&in);
    return rc;
}

static int cmd_example(const options *o) {
    if (o->graph) {
        cli_example_describe(stdout);
        return CLI_EXIT_OK;
    }
    cli_input in;
    if (cli_example(&in) != CLI_EXIT_OK) {
        error_message("out of memory");
        return CLI_EXIT_INTERNAL;
    }
    int rc = plan_input(o, &in);
    cli_input_free(&in);
    return rc;
}

static int cmd_bound(const options *o) {
    cli_input in;
    int rc = load_arg(o, &in);
    if (rc != CLI_EXIT_OK) return rc;
    cli_session s;
    memset(&s, 0, sizeof s);
    s.input = &in;
    resolve_settings(o, &in, &s.settings, &s.problem);
    rc = check_problem(&s);
    if (rc == CLI_EXIT_OK) rc = compute_bound(&s);
    if (rc == CLI_EXIT_OK) {
        size_t live = 0;
        uint64_t live_sum = 0;
        for (size_t i = 0; i < in.count; i++) {
            const aplan_buffer *b = &in.buffers[i];
            if (b->lower <= s.bound_step && s.bound_step < b->upper && aplan_buffer_size(&s.problem, i) > 0) {
                live++;
                live_sum += aplan_buffer_size(&s.problem, i);
            }
        }
        printf("%s: %zu buffers, alignment %llu, sizes %s\n", in.name, in.count,
               (unsigned long long)s.settings.alignment, s.settings.round_sizes ? "rounded up" : "as given");
        printf("lower bound: %llu bytes\n", (unsigned long long)s.bound);
        printf("reached at step %llu: %zu buffers live, %llu bytes\n", (unsigned long long)s.bound_step, live,
               (unsigned long long)live_sum);
        if (live_sum < s.bound)
            printf("(the bound comes from a single buffer or a fixed offset, above the live sum)\n");
        size_t shown = 0;
        for (size_t i = 0; i < in.count; i++) {
            const aplan_buffer *b = &in.buffers[i];
            if (b->lower <= s.bound_step && s.bound_step < b->upper && aplan_buffer_size(&s.problem, i) > 0) {
                if (shown == 20) {
                    printf("  ... and %zu more\n", live - shown);
                    break;
                }
                printf("  %-24s %12llu bytes  steps %llu-%llu\n", in.ids[i],
                       (unsigned long long)aplan_buffer_size(&s.problem, i), (unsigned long long)b->lower,
                       (unsigned long long)(b->upper - 1u));
                shown++;
            }
        }
        if (fflush(stdout) != 0) rc = CLI_EXIT_IO;
    }
    cli_input_free(&in);
    return rc;
}

/* Offsets of a plan file for the problem: rows matched by id; a .tflite plan gives its offline offsets. */
static int load_plan_offsets(const char *path, const cli_input *problem, uint64_t *offsets) {
    cli_input plan;
    char message[512];
    int rc = cli_load(path, &plan, message, sizeof message);
    if (rc != CLI_EXIT_OK) {
        error_message("%s", message);
        return rc;
    }
    for (size_t i = 0; i < problem->count; i++) offsets[i] = APLAN_NO_OFFSET;
    if (plan.kind == CLI_INPUT_CSV && (plan.csv_columns & APLAN_CSV_HAS_OFFSET) == 0) {
        error_message("%s: the plan has no 'offset' column", path);
        cli_input_free(&plan);
        return CLI_EXIT_BAD_INPUT;
    }
    /* Match by id: a sorted index would be O(n log n); plans are small enough that a hint (same position) plus a
     * linear fallback keeps this simple and exact. */
    for (size_t j = 0; j < plan.count; j++) {
        size_t i = j < problem->count && strcmp(problem->ids[j], plan.ids[j]) == 0 ? j : SIZE_MAX;
        for (size_t k = 0; i == SIZE_MAX && k < problem->count; k++) {
            if (strcmp(problem->ids[k], plan.ids[j]) == 0) i = k;
        }
        char where[128];
        cli_describe_buffer(&plan, j, where, sizeof where);
        if (i == SIZE_MAX) {
            error_message("%s: %s is not in the problem %s", path, where, problem->name);
            cli_input_free(&plan);
            return CLI_EXIT_BAD_INPUT;
        }
        const aplan_buffer *a = &problem->buffers[i];
        const aplan_buffer *b = &plan.buffers[j];
        if (a->size != b->size || a->lower != b->lower || a->upper != b->upper) {
            error_message("%s: %s has size %llu, steps [%llu, %llu); the problem says size %llu, steps [%llu, %llu)",
                          path, where, (unsigned long long)b->size, (unsigned long long)b->lower,
                          (unsigned long long)b->upper, (unsigned long long)a->size, (unsigned long long)a->lower,
                          (unsigned long long)a->upper);
            cli_input_free(&plan);
            return CLI_EXIT_BAD_INPUT;
        }
        offsets[i] = b->offset;
    }
    cli_input_free(&plan);
    return CLI_EXIT_OK;
}

static int cmd_verify(const options *o) {
    cli_input in;
    int rc = load_arg(o, &in);
    if (rc != CLI_EXIT_OK) return rc;
    cli_session s;
    memset(&s, 0, sizeof s);
    s.input = &in;
    resolve_settings(o, &in, &s.settings, &s.problem);
    uint64_t *offsets = malloc((in.count + 1u) * sizeof *offsets);
    if (offsets == NULL) {
        cli_input_free(&in);
        error_message("out of memory");
        return CLI_EXIT_INTERNAL;
    }
    rc = check_problem(&s);
    if (rc == CLI_EXIT_OK) rc = compute_bound(&s);
    if (rc == CLI_EXIT_OK) rc = load_plan_offsets(o->args[1], &in, offsets);
    if (rc == CLI_EXIT_OK) {
        /* The arena a plan claims is its highest end; overflow is left for the verifier to name. */
        uint64_t arena = 0;
        for (size_t i = 0; i < in.count; i++) {
            uint64_t end;
            if (offsets[i] == APLAN_NO_OFFSET) continue;
            if (__builtin_add_overflow(offsets[i], aplan_buffer_size(&s.problem, i), &end)) end = UINT64_MAX;
            if (end > arena) arena = end;
        }
        size_t bytes = 0;
        aplan_status st = aplan_verify_scratch_size(&s.problem, &bytes);
        void *scratch = st == APLAN_OK && bytes > 0 ? malloc(bytes) : NULL;
        aplan_report r;
        aplan_report_clear(&r);
        if (st == APLAN_OK) st = aplan_verify(&s.problem, offsets, arena, scratch, scratch != NULL ? bytes : 0, &r);
        free(scratch);
        if (st == APLAN_OK) {
            printf("%s: valid: %zu buffers, arena %llu bytes, lower bound %llu bytes (+%.1f%%)%s\n", o->args[1],
                   in.count, (unsigned long long)arena, (unsigned long long)s.bound,
                   cli_overhead_percent(arena, s.bound), arena == s.bound ? ", optimal" : "");
            if (r.aliased_pairs > 0) printf("aliased fixed pairs (allowed): %zu\n", r.aliased_pairs);
            if (fflush(stdout) != 0) rc = CLI_EXIT_IO;
        } else {
            char text[400];
            describe_report(&in, st, &r, text, sizeof text);
            error_message("%s: verification failed: %s", o->args[1], text);
            rc = CLI_EXIT_VERIFY;
        }
    }
    free(offsets);
    cli_input_free(&in);
    return rc;
}

static int cmd_list(void) {
    for (size_t i = 0; i < aplan_strategy_count(); i++) {
        const aplan_strategy *st = aplan_strategy_at(i);
        printf("%-20s %s\n", st->name, st->description);
    }
    printf("%-20s %s\n", "all", "run every strategy above (the default)");
    printf("%-20s %s\n", "auto", "run every strategy, keep the best plan");
    return fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_IO;
}

static int cmd_targets(void) {
    printf("%-22s %-9s %-12s %s\n", "target", "alignment", "RAM bytes", "part");
    for (size_t i = 0; i < cli_target_count(); i++) {
        const cli_target *t = cli_target_at(i);
        printf("%-22s %-9llu %-12llu %s\n", t->name, (unsigned long long)t->alignment, (unsigned long long)t->ram,
               t->core);
        printf("%-22s alignment: %s\n", "", t->why_alignment);
        printf("%-22s RAM: %s\n", "", t->why_ram);
    }
    return fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_IO;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        options o;
        memset(&o, 0, sizeof o);
        return cmd_example(&o);
    }
    const char *name = argv[1];
    if (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "help") == 0) {
        print_main_help(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
        printf("aplan %s\n", aplan_version());
        return fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_IO;
    }
    const command *cmd = NULL;
    int first = 2;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(name, commands[i].name) == 0) cmd = &commands[i];
    }
    if (cmd == NULL && name[0] == '-') {
        /* `aplan -f svg` etc.: options without a command apply to the built-in example. */
        cmd = &commands[1];
        first = 1;
    }
    if (cmd == NULL) {
        error_message("unknown command '%s' (see `aplan --help`)", name);
        return CLI_EXIT_USAGE;
    }
    options o;
    memset(&o, 0, sizeof o);
    int rc = parse_options(cmd, argc - first, argv + first, &o);
    if (rc != CLI_EXIT_OK) return rc;
    if (o.help) {
        printf("usage: %s\n\n%s", cmd->usage, cmd->help);
        return CLI_EXIT_OK;
    }
    if (strcmp(cmd->name, "plan") == 0) return cmd_plan(&o);
    if (strcmp(cmd->name, "example") == 0) return cmd_example(&o);
    if (strcmp(cmd->name, "verify") == 0) return cmd_verify(&o);
    if (strcmp(cmd->name, "bound") == 0) return cmd_bound(&o);
    if (strcmp(cmd->name, "list") == 0) return cmd_list();
    return cmd_targets();
}
