/*
 * What the files of the aplan command-line tool share: the exit codes, the options and command types, the formats'
 * table, and each file's entry points, grouped by file. The tool is a front-end of the host layer (src/host/host.h),
 * which loads, plans and writes; what is here parses arguments, prints to the terminal and writes files atomically.
 * Everything here is cli_-prefixed; what one file alone uses stays static in it.
 */
#ifndef APLAN_CLI_H
#define APLAN_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "aplan/aplan.h"
#include "aplan/regions.h"
#include "aplan/csv.h"
#include "aplan/tflite.h"
#include "aplan/tflm.h"
#include "host/host.h"

/* Exit codes: part of the tool's interface (docs/cli.md); never renumber. The host layer's error kinds. */
enum {
    CLI_EXIT_OK = APLAN_HOST_OK,
    CLI_EXIT_INTERNAL = APLAN_HOST_INTERNAL,   /* out of memory or a bug */
    CLI_EXIT_USAGE = APLAN_HOST_USAGE,         /* bad command line */
    CLI_EXIT_BAD_INPUT = APLAN_HOST_BAD_INPUT, /* the input cannot be read as a problem, or no strategy can plan it */
    CLI_EXIT_NO_FIT = APLAN_HOST_NO_FIT,       /* no plan fits --capacity / the target's RAM */
    CLI_EXIT_VERIFY = APLAN_HOST_VERIFY,       /* `aplan verify`: the plan breaks a rule */
    CLI_EXIT_IO = APLAN_HOST_IO,               /* a file cannot be read or written */
    /* an input is larger than --max-input-size (APLAN_HOST_DEFAULT_MAX_INPUT by default) */
    CLI_EXIT_TOO_LARGE = APLAN_HOST_TOO_LARGE,
    /* `aplan arena`: TFLM refuses the model (a kernel's Prepare fails), so no arena works */
    CLI_EXIT_REFUSED = APLAN_HOST_REFUSED
};

/* options.c: the command line: options, their parser, suggestions and the error line. */
#define CLI_PROGRAM "aplan"

/* Which options a command accepts; an option given to a command that ignores it is a usage error, not a no-op. */
enum {
    CLI_OPT_STRATEGY = 1u << 0,
    CLI_OPT_ALIGN = 1u << 1,
    CLI_OPT_ROUND = 1u << 2,
    CLI_OPT_CAPACITY = 1u << 3,
    CLI_OPT_TARGET = 1u << 4,
    CLI_OPT_FORMAT = 1u << 5,
    CLI_OPT_OUTPUT = 1u << 6,
    CLI_OPT_ALIAS = 1u << 7,
    CLI_OPT_GRAPH = 1u << 8,
    CLI_OPT_FORCE = 1u << 9,
    CLI_OPT_NAME = 1u << 10,
    CLI_OPT_REPLAN = 1u << 11,
    CLI_OPT_MAX_INPUT = 1u << 12,
    CLI_OPT_TIME_LIMIT = 1u << 13,
    CLI_OPT_ABI = 1u << 14,
    CLI_OPT_KERNELS = 1u << 15,
    CLI_OPT_REGION = 1u << 16
};

/* A parsed command line. All-zero is "no options, no arguments" (what `aplan` alone plans the example with). */
typedef struct cli_options {
    unsigned given;        /* CLI_OPT_* bits of the options given */
    aplan_host_options host; /* what the host layer takes: -s, -a, --round-sizes, --capacity, --target,
                                --allow-alias, --time-limit, --abi, --kernels, --region and --name (host.given set
                                from given by cli_parse_options) */
    size_t format;         /* -f: an index into cli_formats (0, the first row, is the default) */
    const char *output;
    bool graph;
    bool force;            /* embed: OUT may be the input */
    bool replan;           /* embed: ignore the input's offline plan */
    uint64_t max_input;    /* --max-input-size: the largest input read, in bytes (valid when given) */
    bool help;
    const char *args[3];
    size_t arg_count;
} cli_options;

/* A row of the command table (main.c), the one declaration of a command. */
typedef struct cli_command {
    const char *name;
    unsigned accepts;      /* CLI_OPT_* bits */
    size_t min_args, max_args;
    const char *usage;     /* "aplan embed [options] MODEL -o OUT" (starts with "aplan "): the help's first line,
                              and the usage errors' */
    const char *summary;   /* what the main help says of it, after the usage less "aplan " and " [options]" */
    const char *help;      /* the body of `aplan NAME --help` after the usage: what it does, then its options */
    int (*run)(const cli_options *o); /* returns a CLI_EXIT_* code; errors already printed */
} cli_command;

/* "aplan: <message>\n" on stderr: the one shape of every error line. */
void cli_error(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* A host call's result: when kind is not CLI_EXIT_OK and e has a message (aplan_host_error_text), it is printed as
 * cli_error prints; e is cleared. Returns kind. */
int cli_report(int kind, aplan_host_error *e);
/* Parse argv[0..argc) for cmd into o (zeroed by the caller). CLI_EXIT_OK, or CLI_EXIT_USAGE with the error printed.
 * Every option value is checked here, strategy names included, before any input is read. With -h/--help anywhere,
 * o->help is set and the argument count is not checked. */
int cli_parse_options(const cli_command *cmd, int argc, char **argv, cli_options *o);
/* The largest input o lets a command read: --max-input-size, else APLAN_HOST_DEFAULT_MAX_INPUT. */
uint64_t cli_max_input(const cli_options *o);
/* Flush standard output at the end of a command: CLI_EXIT_OK, or CLI_EXIT_IO with "cannot write standard output:
 * REASON" printed when anything written to it failed (a full disk, a closed pipe, /dev/full). */
int cli_flush_stdout(void);

/* formats.c: the output formats, one row each (the one declaration of a format). */
typedef enum cli_format_needs {
    CLI_NEEDS_SESSION, /* every run of the session: the table, JSON */
    CLI_NEEDS_PLAN     /* the plan of one strategy: the best when several ran */
} cli_format_needs;
typedef struct cli_format {
    const char *name;          /* -f NAME, matched case aside */
    cli_format_needs needs;
    bool when_no_fit;          /* also written when no plan fits the capacity (exit 4): a session format with every
                                  run and the verdict, a format of one plan with the smallest plan */
    unsigned options;          /* CLI_OPT_* bits of the options that only this format takes (--name: c) */
    const char *what;          /* the progress line's "writing WHAT" */
    const char *help;          /* its line in the help of -f */
    aplan_host_writer *write;
    aplan_host_region_writer *write_regions; /* the same with regions; NULL: the format does not apply to them */
    const char *extension;     /* the file name ending (".svg", any case) that chooses it for -o FILE when -f is not
                                  given; NULL: none */
} cli_format;
extern const cli_format cli_formats[];
extern const size_t cli_format_count;
/* The names of the formats that take one of the CLI_OPT_* bits of options (every format when 0), in table order,
 * joined with ", " and a last " or ": "table, csv, json, svg, html or c"; mark_default adds " (default)" after the
 * first row's. Cut to out_size. */
void cli_format_names(char *out, size_t out_size, unsigned options, bool mark_default);
/* The format whose extension ends path's file name (case aside), or SIZE_MAX when none does. */
size_t cli_format_of_path(const char *path);
/* The help of -f: the option and the names, then one line per format. */
void cli_print_format_help(FILE *out);

/* main.c: the help texts, from the command table. */
/* The main help: every command in a line, and the exit codes. */
void cli_print_help(FILE *out);
/* A command's help: "usage: <usage>", a blank line, then its help body. */
void cli_print_command_help(FILE *out, const cli_command *cmd);

/* regions.c: `plan` and `example` with regions (--region, or a --target with a memory map). */
/* -f c with regions: as aplan_host_check_region_c_names, with the error printed; CLI_EXIT_OK for other formats. */
int cli_check_region_c_names(const char *command, const cli_options *o);
/* Uses, pins, the bounds and every region strategy of -s with the time limit (aplan_host_region_setup and
 * aplan_host_region_plan), the best written in the chosen format. CLI_EXIT_OK when the best plan fits every region;
 * CLI_EXIT_NO_FIT (the table or JSON still written) when none does; another exit code with the error printed. */
int cli_plan_regions(const cli_options *o, aplan_host_input *in);

/* commands.c: the handlers of the commands' table; each returns a CLI_EXIT_* code with its errors printed. */
int cli_cmd_plan(const cli_options *o);
int cli_cmd_example(const cli_options *o);
int cli_cmd_verify(const cli_options *o);
int cli_cmd_bound(const cli_options *o);
int cli_cmd_graph(const cli_options *o);
int cli_cmd_list(const cli_options *o);
int cli_cmd_targets(const cli_options *o);
int cli_cmd_embed(const cli_options *o);
int cli_cmd_arena(const cli_options *o);


/* file.c: where a result goes. A writer fills out and returns CLI_EXIT_OK; CLI_EXIT_IO when a write failed (the
 * caller names the file); or another CLI_EXIT_* code with its error printed. */
typedef int (*cli_writer)(FILE *out, void *state);
/* Write the result with write(): to standard output when path is NULL (flushed and checked); to path directly when it
 * names an existing file that is not a regular file (a device such as /dev/null, a FIFO: nothing to replace);
 * through a symbolic link to its target; else with cli_write_file_atomic, so path is replaced only when the whole
 * result is written and a failure leaves it as it was. Returns CLI_EXIT_OK, CLI_EXIT_IO with "cannot write PATH:
 * REASON" printed, or write()'s own failure code. */
int cli_write_output(const char *path, cli_writer write, void *state);
/* Write path so that it is never seen half-written: write() fills a new temporary file in path's directory (so the
 * rename cannot cross file systems), which is flushed, synced and renamed over path. On any failure the temporary
 * file is removed, path is left as it was and the error is printed. The new file keeps the mode of the one it
 * replaces (else 0666 less the umask). The temporary file is unnamed where the system allows (O_TMPFILE, linked
 * under a hidden name just before the rename, with the signals below blocked); else the hidden file
 * "<dir>/.<name>.XXXXXX". While it has a name, a signal that ends a process by default and can be caught (SIGHUP,
 * SIGINT, SIGQUIT, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2, SIGXCPU, SIGVTALRM, SIGPROF; not one ignored when
 * aplan started) removes it, then ends the process by that signal; the handlers are the ones before on return.
 * Returns CLI_EXIT_OK, CLI_EXIT_IO, or write()'s failure code. */
int cli_write_file_atomic(const char *path, cli_writer write, void *state);
/* Ignore SIGXFSZ (where the system has it), at the start of main: a write past a file size limit (ulimit -f) then
 * fails with EFBIG, which the writers report (exit 6) and clean up after, instead of ending the process. */
void cli_ignore_file_size_signal(void);
/* True iff a and b name the same file: the same text, or the same device and inode (both exist). */
bool cli_same_file(const char *a, const char *b);

/* progress.c: the progress line of long runs on a terminal (and, in -DCLI_PHASE_TIMES builds, each phase's time). */
/* Start the clock; the line may show from now on, when stderr is a terminal and the run passes the threshold. */
void cli_progress_begin(void);
/* A new phase begins: "aplan: TEXT..." replaces the line when it may show. Nothing before cli_progress_begin. */
void cli_progress(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* Clear the line if it is shown: before anything else is written to the terminal, and at the end. */
void cli_progress_end(void);
/* Within a phase: rewrite the line with TEXT when it may show, without starting a new phase (a search's count of
 * nodes, from its stop callback). Costs a clock read when the line may not show. */
void cli_progress_note(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* Milliseconds on the monotonic clock (CLOCK_MONOTONIC): the progress line's and the searches' deadlines. */
double aplan_host_clock_ms(void);
/* The output phase: "writing WHAT" when out is not a terminal; else the line is cleared (the output follows). */
void cli_progress_writing(FILE *out, const char *what);
/* aplan_host_session_init with o's settings (cli_options.host), the session's progress (aplan_host_session.progress)
 * sent to the progress line: phases as cli_progress, notes as cli_progress_note. */
void cli_session_init(aplan_host_session *s, const cli_options *o, aplan_host_input *in);

/* report_page.c, which the build generates from report_page.css and report_page.js (report_page.py): the HTML
 * report's style sheet and script, one string per line, NULL-terminated; svg.c writes them into the page. */
extern const char *const aplan_host_report_style[];
extern const char *const aplan_host_report_script[];

#endif
