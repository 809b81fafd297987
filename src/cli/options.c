/*
 * The command line as the user sees it: the option parser (one parser for every command, which rejects an option
 * the command does not take rather than ignore it), byte counts, the help texts and the "aplan: ..." error line.
 * Option names, help and messages are part of the tool's interface (docs/cli.md); keep them in step.
 */
#include <stdarg.h>
#include <string.h>

#include "cli.h"

void cli_error(const char *format, ...) {
    va_list args;
    va_start(args, format);
    fprintf(stderr, "%s: ", CLI_PROGRAM);
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
    "      --name PREFIX     -f c: start every identifier with PREFIX (macros upper-cased; default aplan)\n"      \
    "  -o FILE               write the result to FILE instead of stdout\n"                                        \
    "  -h, --help            this help\n"

const char cli_help_plan[] =
    "Plan INPUT (a .tflite model or a CSV problem, recognised by content) with one strategy, a list, or all,\n"
    "and print one row per strategy: arena bytes, lower bound, overhead over the bound, time, verified.\n"
    "With -f csv|svg|html|c the output is the plan of one strategy (the best when several ran).\n\n" PLAN_OPTIONS;

const char cli_help_example[] =
    "Plan the built-in example network (what `aplan` with no arguments does); takes the options of `plan`.\n\n"
    "      --graph           print the example's ops and tensors instead of planning\n" PLAN_OPTIONS;

const char cli_help_verify[] =
    "Check PLAN against PROBLEM and print the first violation in words. PLAN is a CSV with an `offset` column\n"
    "(rows matched to PROBLEM by id) or a .tflite model whose offline plan gives every offset.\n"
    "Exit 0 when the plan is valid, 5 when it breaks a rule.\n\n"
    "  -a, --align N, --round-sizes, --no-round-sizes, --capacity BYTES, --target NAME, --allow-alias\n"
    "                        as for `aplan plan`\n"
    "  -h, --help            this help\n";

const char cli_help_bound[] =
    "Print the lower bound on the arena of INPUT (the largest sum of sizes live at one step, or a larger\n"
    "single buffer or fixed end) and the step where it is reached, with the buffers live there.\n\n"
    "  -a, --align N, --round-sizes, --no-round-sizes, --target NAME, --allow-alias\n"
    "                        as for `aplan plan`\n"
    "  -h, --help            this help\n";

const char cli_help_embed[] =
    "Plan MODEL (a .tflite file) with TFLM's rules and write a copy, OUT, whose OfflineMemoryAllocation metadata\n"
    "holds the plan: TFLM then places every planned tensor at its offset. An offline plan already in MODEL is\n"
    "kept as fixed offsets (unless --replan) and its metadata is replaced, with a warning. Everything else in the\n"
    "model stays as it was. OUT is written to a temporary file beside it, then renamed: a failure leaves OUT as it\n"
    "was. Prints the arena before (TFLM's greedy planner on MODEL) and after.\n\n"
    "  -o, --output OUT      the model to write (required; never MODEL itself unless --force)\n"
    "  -s, --strategy NAME[,NAME...]|all|auto\n"
    "                        strategies to try, keeping the best plan (default auto: all of them)\n"
    "  -a, --align N         alignment in bytes, a power of two (default 16, TFLM's)\n"
    "      --capacity BYTES  largest arena allowed; exit 4 when nothing fits\n"
    "      --target NAME     alignment and RAM size of a target (see `aplan targets`)\n"
    "      --replan          plan every buffer afresh, ignoring MODEL's offline plan\n"
    "      --force           allow OUT to be MODEL (the original is then replaced)\n"
    "  -h, --help            this help\n";

const char cli_help_list[] = "List the built-in strategies with their descriptions.\n\n"
                             "  -h, --help            this help\n";

const char cli_help_targets[] = "List the --target presets: alignment, RAM size and where each figure comes from.\n\n"
                                "  -h, --help            this help\n";

void cli_print_help(FILE *out) {
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
            "  example               plan the built-in example (options as for plan)\n"
            "  embed MODEL -o OUT    write a copy of a .tflite model with the plan as its offline plan\n\n"
            "`aplan COMMAND --help` describes each command's options.\n"
            "exit codes: 0 ok, 1 internal error, 2 usage error, 3 bad input, 4 plan does not fit,\n"
            "            5 verification failed, 6 I/O error\n");
}

void cli_print_command_help(FILE *out, const cli_command *cmd) {
    fprintf(out, "usage: %s\n\n%s", cmd->usage, cmd->help);
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

/* A C identifier that cannot be reserved: a letter, then letters, digits and underscores. */
static bool c_identifier(const char *s) {
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'))) return false;
    for (s++; *s != '\0'; s++) {
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    }
    return true;
}

/* Indexed by cli_format. */
static const char *const format_names[] = {"table", "csv", "json", "svg", "html", "c"};

int cli_parse_options(const cli_command *cmd, int argc, char **argv, cli_options *o) {
    bool only_args = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (only_args || a[0] != '-' || strcmp(a, "-") == 0) {
            if (o->arg_count >= sizeof o->args / sizeof o->args[0]) {
                cli_error("%s: too many arguments (usage: %s)", cmd->name, cmd->usage);
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
            bit = CLI_OPT_STRATEGY;
        } else if (strcmp(name, "-a") == 0 || strcmp(name, "--align") == 0) {
            bit = CLI_OPT_ALIGN;
        } else if (strcmp(name, "--round-sizes") == 0 || strcmp(name, "--no-round-sizes") == 0) {
            bit = CLI_OPT_ROUND;
            takes_value = false;
            o->round = strcmp(name, "--round-sizes") == 0;
        } else if (strcmp(name, "--capacity") == 0) {
            bit = CLI_OPT_CAPACITY;
        } else if (strcmp(name, "--target") == 0) {
            bit = CLI_OPT_TARGET;
        } else if (strcmp(name, "-f") == 0 || strcmp(name, "--format") == 0) {
            bit = CLI_OPT_FORMAT;
        } else if (strcmp(name, "-o") == 0 || strcmp(name, "--output") == 0) {
            bit = CLI_OPT_OUTPUT;
        } else if (strcmp(name, "--allow-alias") == 0) {
            bit = CLI_OPT_ALIAS;
            takes_value = false;
            o->alias = true;
        } else if (strcmp(name, "--graph") == 0) {
            bit = CLI_OPT_GRAPH;
            takes_value = false;
            o->graph = true;
        } else if (strcmp(name, "--force") == 0) {
            bit = CLI_OPT_FORCE;
            takes_value = false;
            o->force = true;
        } else if (strcmp(name, "--replan") == 0) {
            bit = CLI_OPT_REPLAN;
            takes_value = false;
            o->replan = true;
        } else if (strcmp(name, "--name") == 0) {
            bit = CLI_OPT_NAME;
        } else {
            cli_error("%s: unknown option '%s' (see `aplan %s --help`)", cmd->name, a, cmd->name);
            return CLI_EXIT_USAGE;
        }
        if ((cmd->accepts & bit) == 0) {
            cli_error("%s: option '%s' does not apply to this command", cmd->name, name);
            return CLI_EXIT_USAGE;
        }
        if (!takes_value) {
            if (value != NULL) {
                cli_error("%s: option '%s' takes no value", cmd->name, name);
                return CLI_EXIT_USAGE;
            }
            o->given |= bit;
            continue;
        }
        if (value == NULL) {
            if (i + 1 >= argc) {
                cli_error("%s: option '%s' needs a value", cmd->name, name);
                return CLI_EXIT_USAGE;
            }
            value = argv[++i];
        }
        o->given |= bit;
        switch (bit) {
        case CLI_OPT_STRATEGY:
            o->strategies = value;
            break;
        case CLI_OPT_ALIGN:
            if (!parse_bytes(value, &o->align) || o->align == 0 || (o->align & (o->align - 1u)) != 0) {
                cli_error("%s: --align '%s' is not a power of two", cmd->name, value);
                return CLI_EXIT_USAGE;
            }
            break;
        case CLI_OPT_CAPACITY:
            if (!parse_bytes(value, &o->capacity)) {
                cli_error("%s: --capacity '%s' is not a byte count (digits, optional K/KiB/M/MiB)", cmd->name,
                          value);
                return CLI_EXIT_USAGE;
            }
            break;
        case CLI_OPT_TARGET:
            if (cli_target_find(value) == NULL) {
                cli_error("%s: unknown target '%s' (see `aplan targets`)", cmd->name, value);
                return CLI_EXIT_USAGE;
            }
            o->target = value;
            break;
        case CLI_OPT_FORMAT: {
            bool found = false;
            for (size_t f = 0; f < sizeof format_names / sizeof format_names[0]; f++) {
                if (strcmp(value, format_names[f]) == 0) {
                    o->format = (cli_format)f;
                    found = true;
                }
            }
            if (!found) {
                cli_error("%s: unknown format '%s' (table, csv, json, svg, html, c)", cmd->name, value);
                return CLI_EXIT_USAGE;
            }
            break;
        }
        case CLI_OPT_OUTPUT:
            o->output = value;
            break;
        case CLI_OPT_NAME:
            if (!c_identifier(value)) {
                cli_error("%s: --name '%s' is not a C identifier (a letter, then letters, digits, '_')", cmd->name,
                          value);
                return CLI_EXIT_USAGE;
            }
            o->name = value;
            break;
        default:
            break;
        }
    }
    if (o->help) return CLI_EXIT_OK;
    if ((o->given & CLI_OPT_NAME) && o->format != CLI_FORMAT_C) {
        cli_error("%s: --name applies to -f c only", cmd->name);
        return CLI_EXIT_USAGE;
    }
    if (o->arg_count < cmd->min_args || o->arg_count > cmd->max_args) {
        cli_error("%s: expected %zu argument%s, got %zu (usage: %s)", cmd->name, cmd->max_args,
                  cmd->max_args == 1 ? "" : "s", o->arg_count, cmd->usage);
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}
