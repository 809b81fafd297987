/*
 * aplan: the command-line tool's entry point and its table of commands, the one declaration of a command (its name,
 * options, arguments, usage, summary, help and handler): the main help, each command's help, the usage in error
 * messages and the dispatch all read it, so adding a command is its row and help text here and its handler
 * (commands.c, declared in cli.h). Commands, options and exit codes are documented in docs/cli.md and docs/aplan.1,
 * which tests/cli/docs_test.py checks against the help; results go to stdout (or -o FILE), every error to stderr,
 * and the exit code says which kind of failure happened.
 */
#include <string.h>

#include "cli.h"

#define PLAN_ACCEPTS (CLI_OPT_STRATEGY | CLI_OPT_ALIGN | CLI_OPT_ROUND | CLI_OPT_CAPACITY | CLI_OPT_TARGET | \
                      CLI_OPT_FORMAT | CLI_OPT_OUTPUT | CLI_OPT_FORCE | CLI_OPT_NAME | CLI_OPT_TIME_LIMIT |        \
                      CLI_OPT_REGION)

/* The help bodies, printed after "usage: USAGE" and a blank line; first the options they share. */

/* The options of `plan` and `example`, which reads no file (so takes neither --allow-alias nor --max-input-size):
 * PLAN_OPTIONS(X) with X the lines of the options only `plan` takes between --target and -f. */
#define PLAN_OPTIONS(X)                                                                                             \
    "  -s, --strategy NAME[,NAME...]|all|auto\n"                                                                  \
    "                        strategies to run (default all; auto runs the fast ones, then, when the best\n"      \
    "                        is above the lower bound, searches from it with exact; it keeps the best)\n"          \
    TIME_LIMIT_OPTION                                                                                               \
    "  -a, --align N         default alignment in bytes, a power of two (default: 16 for .tflite\n"               \
    "                        and the example, as TFLM; 1 for CSV, whose own alignment column wins)\n"             \
    "      --round-sizes     round every size up to its alignment (default for .tflite, as TFLM)\n"               \
    "      --no-round-sizes  plan sizes as given (default for CSV)\n"                                             \
    "      --capacity BYTES  largest arena allowed; K, KB, KiB = 1024, M, MB, MiB = 1048576, G, GB, GiB =\n"    \
    "                        1073741824 (any case); a verdict line says whether the plan fits; exit 4 when\n"    \
    "                        nothing fits\n"                                                                     \
    "      --target NAME     RAM size (the capacity) and alignment of a target, any case (see `aplan targets`);\n"\
    "                        .tflite and the example keep TFLM's 16-byte alignment on every target; a target\n"  \
    "                        with a memory map (esp32-s3-psram, stm32h743, imxrt1060) plans its regions\n"      \
    "      --region NAME:SIZE[:ALIGN]\n"                                                                           \
    "                        a memory region, repeated, fastest first (sram:128K --region psram:8M:32): each\n" \
    "                        buffer goes to one region; -s names region strategies (banked, select, exact;\n"  \
    "                        default all); the table gives each region's arena and the slow-memory traffic\n"  \
    X FORMAT_OPTION                                                                                                 \
    "      --name PREFIX     -f c: start every identifier with PREFIX (macros upper-cased; default aplan)\n"      \
    "  -o FILE               write the result to FILE instead of stdout; FILE is replaced only when the whole\n" \
    "                        result is written (a failure leaves it as it was), never when it is INPUT\n"        \
    "                        (unless --force), a folder, a link loop or a file you cannot write; without -f,\n"  \
    "                        FILE's extension chooses the format (.svg .html .json .csv .h), else table\n"       \
    "      --force           allow FILE to be INPUT (it is read whole first, then replaced)\n"                    \
    "  -h, --help            this help\n"

/* Where -f and the formats' lines go: cli_print_command_help writes them from the formats' table (formats.c). */
#define FORMAT_OPTION "\001"

/* --time-limit, for the commands that plan. */
#define TIME_LIMIT_OPTION                                                                                           \
    "      --time-limit SECONDS\n"                                                                                 \
    "                        budget of the whole run after reading the input: every strategy and search\n"        \
    "                        share it; a decimal number of seconds such as 0.5; default 1; 0: no search,\n"      \
    "                        and the fast strategies run to the end\n"

/* --abi, for the commands that read a model. */
#define ABI_OPTION                                                                                                  \
    "      --abi 32|64       .tflite: the pointer width TFLM's structs are laid out for, which sizes its\n"         \
    "                        persistent data and some kernels' scratch (default: the target's, else 32, as\n"     \
    "                        Cortex-M and RISC-V 32; 64 for a 64-bit host)\n"                                     \
    "      --kernels reference|cmsis-nn\n"                                                                          \
    "                        .tflite: the kernels TFLM is built with (default reference); cmsis-nn with the\n"    \
    "                        target's instruction set (DSP on cortex-m4 and cortex-m7), portable C without one\n"

/* --max-input-size, for the commands that read files. */
#define MAX_INPUT_OPTION                                                                                            \
    "      --max-input-size BYTES\n"                                                                               \
    "                        refuse an input larger than BYTES (suffixes K, M, G as for --capacity); default\n"  \
    "                        1G; exit 7 when an input is larger\n"

static const char help_plan[] =
    "Plan INPUT (a .tflite model or a CSV problem, recognised by content) with one strategy, a list, or all,\n"
    "and print one row per strategy: arena bytes, lower bound, overhead over the bound, outcome (optimal, fits,\n"
    "best found, cut: the time limit stopped its rule, infeasible, or plan: nothing proven), search nodes,\n"
    "time, verified; then\n"
    "what the figures cover, whether the best plan fits the capacity, and for a model how to use it in TFLM.\n"
    "For a model the buffers are its tensors and its kernels' scratch buffers, as TFLM plans them, and the\n"
    "report gives TFLM's whole arena (persistent data included) and the smallest arena TFLM accepts, with its\n"
    "own planner and with the best plan; the capacity is then that of the whole arena.\n"
    "`aplan INPUT [options]` is the same.\n\n" PLAN_OPTIONS(
        "      --allow-alias     fixed offsets may share bytes (default on for a .tflite offline plan)\n" ABI_OPTION)
    MAX_INPUT_OPTION;

static const char help_example[] =
    "Plan the built-in example network (what `aplan` with no arguments does); takes the options of `plan` but\n"
    "those about reading a file.\n\n"
    "      --graph           list the example's operators and tensors step by step (as `aplan graph` lists a\n"
    "                        model's) instead of planning\n" PLAN_OPTIONS("");

static const char help_verify[] =
    "Check PLAN against PROBLEM and print the first violation in words. PLAN is a CSV with an `offset` column\n"
    "(rows matched to PROBLEM by id) or a .tflite model whose offline plan gives every offset.\n"
    "Exit 0 when the plan is valid, 5 when it breaks a rule.\n"
    "With --region (or a --target with a memory map), PLAN is a region plan: a CSV with `offset` and `region`\n"
    "columns, as `plan -f csv --region ...` writes it, checked region by region; without them a `region`\n"
    "column (in PROBLEM or PLAN) is an error.\n\n"
    "  -a, --align N, --round-sizes, --no-round-sizes, --capacity BYTES, --target NAME, --region NAME:SIZE[:ALIGN],\n"
    "  --allow-alias, --abi 32|64, --kernels reference|cmsis-nn, --max-input-size BYTES\n"
    "                        as for `aplan plan`\n"
    "  -h, --help            this help\n";

static const char help_bound[] =
    "Print the lower bound on the arena of INPUT (the largest sum of sizes live at one step, or a larger\n"
    "single buffer or fixed end) and the step where it is reached, with the buffers live there.\n\n"
    "  -a, --align N, --round-sizes, --no-round-sizes, --target NAME, --allow-alias, --abi 32|64,\n"
    "  --kernels reference|cmsis-nn, --max-input-size BYTES\n"
    "                        as for `aplan plan`\n"
    "  -h, --help            this help\n";

static const char help_graph[] =
    "List MODEL's operators (a .tflite file) step by step, in the steps of the lifetimes that `plan` and `bound`\n"
    "print: one line per step with what runs (the operator, its index and subgraph), the tensors it reads and\n"
    "the tensors it writes, each as its name, its id when it is planned (s<subgraph>t<tensor>) and its bytes.\n"
    "Constant tensors (weights) are counted, not named. A CSV problem has no operators: exit 3.\n\n"
    MAX_INPUT_OPTION
    "  -h, --help            this help\n";

static const char help_embed[] =
    "Plan MODEL (a .tflite file) with TFLM's rules and write a copy, OUT, whose OfflineMemoryAllocation metadata\n"
    "holds the plan: TFLM then places every planned tensor at its offset. An offline plan already in MODEL is\n"
    "kept as fixed offsets (unless --replan) and its metadata is replaced, with a warning. Everything else in the\n"
    "model stays as it was. OUT is written to a temporary file beside it, then renamed: a failure leaves OUT as it\n"
    "was. TFLM still places the kernels' scratch buffers itself, with its greedy planner around the fixed\n"
    "tensors: of the strategies' plans, the one whose section is smallest that way is written. Prints the\n"
    "planned section and TFLM's whole arena before (TFLM's own planner) and after, and refuses (exit 4) when\n"
    "the whole arena would grow.\n\n"
    "  -o, --output OUT      the model to write (required; never MODEL itself unless --force)\n"
    "  -s, --strategy NAME[,NAME...]|all|auto\n"
    "                        strategies to try, keeping the best plan (default auto)\n"
    TIME_LIMIT_OPTION
    "  -a, --align N         alignment in bytes, a power of two (default 16, TFLM's)\n"
    "      --capacity BYTES  largest arena allowed (K, KB, KiB = 1024; M, MB, MiB = 1048576; G, GB, GiB =\n"
    "                        1073741824); exit 4 when nothing fits\n"
    "      --target NAME     RAM size of a target as the capacity (see `aplan targets`); the alignment stays 16\n"
    "      --replan          plan every buffer afresh, ignoring MODEL's offline plan\n"
    "      --force           allow OUT to be MODEL (the original is then replaced), and write OUT even when\n"
    "                        TFLM's arena with the plan would be larger than with its own planner\n"
    ABI_OPTION MAX_INPUT_OPTION
    "  -h, --help            this help\n";

static const char help_arena[] =
    "Print TFLM's whole arena for MODEL (a .tflite file) with TFLM's own planner, part by part (the planned\n"
    "section: tensors and kernels' scratch; the persistent tail: TFLM's objects, evaluation tensors, node\n"
    "records, builtin options, kernels' op data, variables, scratch handles, input and output tensors), the\n"
    "smallest arena AllocateTensors() accepts, and one line per operator with what it adds. The model is of\n"
    "tflite-micro " APLAN_TFLM_COMMIT " with its reference kernels, or CMSIS-NN's (--kernels); an operator it\n"
    "does not know is named, and the figures are then lower bounds.\n\n"
    "      --capacity BYTES  the whole arena allowed (K, KB, KiB = 1024; M, MB, MiB = 1048576; G, GB, GiB =\n"
    "                        1073741824); exit 4 when the smallest arena is larger\n"
    "      --target NAME     its RAM size as the capacity and its ABI (see `aplan targets`)\n"
    ABI_OPTION MAX_INPUT_OPTION
    "  -h, --help            this help\n";

static const char help_list[] = "List the built-in strategies with their descriptions.\n\n"
                             "  -h, --help            this help\n";

static const char help_targets[] =
    "List the --target presets: alignment, RAM size and where each figure comes from.\n\n"
    "  -h, --help            this help\n";

/* The table, in the order the main help lists the commands; `plan` comes first: `aplan FILE` runs it. */
static const cli_command commands[] = {
    {"plan", PLAN_ACCEPTS | CLI_OPT_ALIAS | CLI_OPT_ABI | CLI_OPT_KERNELS | CLI_OPT_MAX_INPUT, 1, 1,
     "aplan plan [options] INPUT",
     "plan a .tflite model or CSV problem with one, several or all strategies", help_plan, cli_cmd_plan},
    {"verify", CLI_OPT_ALIGN | CLI_OPT_ROUND | CLI_OPT_CAPACITY | CLI_OPT_TARGET | CLI_OPT_ALIAS | CLI_OPT_ABI |
                   CLI_OPT_KERNELS | CLI_OPT_MAX_INPUT | CLI_OPT_REGION,
     2, 2,
     "aplan verify [options] PROBLEM PLAN", "check a plan (CSV with offsets, or a .tflite offline plan)", help_verify,
     cli_cmd_verify},
    {"bound", CLI_OPT_ALIGN | CLI_OPT_ROUND | CLI_OPT_TARGET | CLI_OPT_ALIAS | CLI_OPT_ABI | CLI_OPT_KERNELS |
                  CLI_OPT_MAX_INPUT,
     1, 1,
     "aplan bound [options] INPUT", "the lower bound and the step where it is reached", help_bound, cli_cmd_bound},
    {"arena", CLI_OPT_CAPACITY | CLI_OPT_TARGET | CLI_OPT_ABI | CLI_OPT_KERNELS | CLI_OPT_MAX_INPUT, 1, 1,
     "aplan arena [options] MODEL",
     "TFLM's whole arena for a model, part by part and operator by operator", help_arena, cli_cmd_arena},
    {"graph", CLI_OPT_MAX_INPUT, 1, 1, "aplan graph MODEL", "a model's operators and their tensors, step by step",
     help_graph, cli_cmd_graph},
    {"list", 0, 0, 0, "aplan list", "the strategies", help_list, cli_cmd_list},
    {"targets", 0, 0, 0, "aplan targets", "the --target presets", help_targets, cli_cmd_targets},
    {"example", PLAN_ACCEPTS | CLI_OPT_GRAPH, 0, 0, "aplan example [options]",
     "plan the built-in example (options as for plan)", help_example, cli_cmd_example},
    {"embed", CLI_OPT_STRATEGY | CLI_OPT_ALIGN | CLI_OPT_CAPACITY | CLI_OPT_TARGET | CLI_OPT_OUTPUT | CLI_OPT_FORCE |
                  CLI_OPT_REPLAN | CLI_OPT_ABI | CLI_OPT_KERNELS | CLI_OPT_MAX_INPUT | CLI_OPT_TIME_LIMIT,
     1, 1, "aplan embed [options] MODEL -o OUT", "write a copy of a .tflite model with the plan as its offline plan",
     help_embed, cli_cmd_embed},
};
#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

/* A command's usage as the main help lists it, without "aplan " and " [options]" ("embed MODEL -o OUT"), padded to
 * width columns (at least one space follows). */
static void write_synopsis(FILE *out, const char *usage, int width) {
    const char *u = usage + strlen(CLI_PROGRAM " ");
    const char *opts = strstr(u, " [options]");
    size_t head = opts != NULL ? (size_t)(opts - u) : strlen(u);
    const char *tail = opts != NULL ? opts + strlen(" [options]") : "";
    int n = fprintf(out, "%.*s%s", (int)head, u, tail);
    fprintf(out, "%*s", n < width ? width - n : 1, "");
}

void cli_print_help(FILE *out) {
    fprintf(out,
            "usage: aplan [COMMAND] [options] [args]\n"
            "       aplan INPUT [options]   (the same as %s)\n\n"
            "Plans tensor arenas for ML inference runtimes and compares the strategies against a lower bound.\n"
            "With no command, plans a built-in example network and prints the comparison table.\n\n"
            "commands:\n",
            commands[0].usage);
    for (size_t i = 0; i < COMMAND_COUNT; i++) {
        fputs("  ", out);
        write_synopsis(out, commands[i].usage, 22);
        fprintf(out, "%s\n", commands[i].summary);
    }
    fputs("\n`aplan COMMAND --help` describes each command's options; `aplan --version` (-V) prints the version.\n"
          "Inputs larger than 1 GiB are refused (exit 7) unless --max-input-size allows them.\n"
          "exit codes: 0 ok, 1 internal error, 2 usage error, 3 bad input, 4 plan does not fit,\n"
          "            5 verification failed, 6 I/O error, 7 input larger than --max-input-size,\n"
          "            8 TFLM refuses the model (arena)\n",
          out);
}

void cli_print_command_help(FILE *out, const cli_command *cmd) {
    fprintf(out, "usage: %s\n\n", cmd->usage);
    const char *formats = strstr(cmd->help, FORMAT_OPTION);
    if (formats == NULL) {
        fputs(cmd->help, out);
        return;
    }
    fprintf(out, "%.*s", (int)(formats - cmd->help), cmd->help);
    cli_print_format_help(out);
    fputs(formats + strlen(FORMAT_OPTION), out);
}

/* A first word that is no command is taken as an input file when it names one that can be opened, or has a '/' or
 * a '.' (which no command has: `aplan model.tflite` of a missing file then says the file is missing); anything else
 * is a mistyped command. */
static bool looks_like_file(const char *word) {
    if (strchr(word, '/') != NULL || strchr(word, '.') != NULL) return true;
    FILE *f = fopen(word, "rb");
    if (f != NULL) fclose(f);
    return f != NULL;
}

int main(int argc, char **argv) {
    cli_ignore_file_size_signal(); /* a file size limit is a write error (exit 6), not the end of the process */
    const char *name = argc < 2 ? "" : argv[1];
    if (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "help") == 0) {
        cli_print_help(stdout);
        return cli_flush_stdout();
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
        printf("%s %s\n", CLI_PROGRAM, aplan_version());
        return cli_flush_stdout();
    }
    int first = 2;
    if (argc < 2 || name[0] == '-') {
        /* No command, or options without one (`aplan -f svg`): the built-in example, with those options. */
        name = "example";
        first = 1;
    }
    const cli_command *cmd = NULL;
    aplan_host_suggestion near;
    aplan_host_suggest_init(&near, name);
    for (size_t i = 0; i < COMMAND_COUNT; i++) {
        if (strcmp(name, commands[i].name) == 0) cmd = &commands[i];
        aplan_host_suggest_consider(&near, commands[i].name);
    }
    if (cmd == NULL && looks_like_file(name)) {
        /* `aplan FILE [options]`: the same as `aplan plan [options] FILE`. */
        cmd = &commands[0];
        first = 1;
    }
    if (cmd == NULL) {
        char hint[80];
        aplan_host_suggest_text(&near, hint, sizeof hint);
        cli_error("unknown command '%s' (%ssee `aplan --help`)", name, hint);
        return CLI_EXIT_USAGE;
    }
    cli_options o;
    memset(&o, 0, sizeof o);
    int rc = cli_parse_options(cmd, argc - first, argv + first, &o);
    if (rc != CLI_EXIT_OK) return rc;
    if (o.help) {
        cli_print_command_help(stdout, cmd);
        return cli_flush_stdout();
    }
    rc = cmd->run(&o);
    cli_progress_end();
    return rc;
}
