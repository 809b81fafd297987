/*
 * aplan: the command-line tool's entry point and its table of commands; adding a command is one row here and a
 * handler in commands.c. Commands, options and exit codes are documented in docs/cli.md; results go to stdout (or
 * -o FILE), every error to stderr, and the exit code says which kind of failure happened.
 */
#include <string.h>

#include "cli.h"

#define PLAN_ACCEPTS (CLI_OPT_STRATEGY | CLI_OPT_ALIGN | CLI_OPT_ROUND | CLI_OPT_CAPACITY | CLI_OPT_TARGET | \
                      CLI_OPT_FORMAT | CLI_OPT_OUTPUT | CLI_OPT_NAME | CLI_OPT_TIME_LIMIT)

/* The order is irrelevant to dispatch (but `plan` comes first: `aplan FILE` runs it); the main help (options.c) lists
 * the commands in its own order. */
static const cli_command commands[] = {
    {"plan", PLAN_ACCEPTS | CLI_OPT_ALIAS | CLI_OPT_MAX_INPUT, 1, 1, "aplan plan [options] INPUT", cli_help_plan, cli_cmd_plan},
    {"example", PLAN_ACCEPTS | CLI_OPT_GRAPH, 0, 0, "aplan example [options]", cli_help_example, cli_cmd_example},
    {"verify", CLI_OPT_ALIGN | CLI_OPT_ROUND | CLI_OPT_CAPACITY | CLI_OPT_TARGET | CLI_OPT_ALIAS | CLI_OPT_MAX_INPUT, 2, 2,
     "aplan verify [options] PROBLEM PLAN", cli_help_verify, cli_cmd_verify},
    {"bound", CLI_OPT_ALIGN | CLI_OPT_ROUND | CLI_OPT_TARGET | CLI_OPT_ALIAS | CLI_OPT_MAX_INPUT, 1, 1, "aplan bound [options] INPUT",
     cli_help_bound, cli_cmd_bound},
    {"graph", CLI_OPT_MAX_INPUT, 1, 1, "aplan graph MODEL", cli_help_graph, cli_cmd_graph},
    {"list", 0, 0, 0, "aplan list", cli_help_list, cli_cmd_list},
    {"targets", 0, 0, 0, "aplan targets", cli_help_targets, cli_cmd_targets},
    {"embed", CLI_OPT_STRATEGY | CLI_OPT_ALIGN | CLI_OPT_CAPACITY | CLI_OPT_TARGET | CLI_OPT_OUTPUT | CLI_OPT_FORCE |
                  CLI_OPT_REPLAN | CLI_OPT_MAX_INPUT | CLI_OPT_TIME_LIMIT,
     1, 1, "aplan embed [options] MODEL -o OUT", cli_help_embed, cli_cmd_embed},
};

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
    cli_suggestion near;
    cli_suggest_init(&near, name);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(name, commands[i].name) == 0) cmd = &commands[i];
        cli_suggest_consider(&near, commands[i].name);
    }
    if (cmd == NULL && looks_like_file(name)) {
        /* `aplan FILE [options]`: the same as `aplan plan [options] FILE`. */
        cmd = &commands[0];
        first = 1;
    }
    if (cmd == NULL) {
        char hint[80];
        cli_suggest_text(&near, hint, sizeof hint);
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
