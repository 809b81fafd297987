/* Shared declarations of the aplan command-line tool (host-only: allocates, prints, reads and writes files). */
#ifndef APLAN_CLI_H
#define APLAN_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "aplan/aplan.h"
#include "aplan/csv.h"

/* Exit codes: part of the tool's interface (docs/cli.md); never renumber. */
enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_INTERNAL = 1,   /* out of memory or a bug */
    CLI_EXIT_USAGE = 2,      /* bad command line */
    CLI_EXIT_BAD_INPUT = 3,  /* the input cannot be read as a problem, or no strategy can plan it */
    CLI_EXIT_NO_FIT = 4,     /* no plan fits --capacity / the target's RAM */
    CLI_EXIT_VERIFY = 5,     /* `aplan verify`: the plan breaks a rule */
    CLI_EXIT_IO = 6          /* a file cannot be read or written */
};

typedef enum cli_kind { CLI_INPUT_CSV, CLI_INPUT_TFLITE, CLI_INPUT_EXAMPLE } cli_kind;

/* A problem loaded from a file or the built-in example. */
typedef struct cli_input {
    cli_kind kind;
    const char *name;      /* path as given, or "built-in example" */
    aplan_buffer *buffers; /* count buffers */
    char **ids;            /* count ids (owned) */
    uint32_t *lines;       /* CSV: the line of each row; NULL otherwise */
    size_t count;
    uint32_t csv_columns;  /* APLAN_CSV_* flags for writing the plan back in the input's shape */
    bool has_fixed;        /* some buffer has a fixed offset (an offline plan) */
    size_t subgraphs;      /* .tflite: number of subgraphs; 0 otherwise */
} cli_input;

/* Problem settings resolved from the options and the input kind. */
typedef struct cli_settings {
    uint64_t alignment;
    bool round_sizes;
    uint64_t capacity;    /* APLAN_UNLIMITED when not set */
    const char *target;   /* preset name or NULL */
} cli_settings;

/* One strategy's outcome. */
typedef struct cli_run {
    const aplan_strategy *strategy;
    aplan_status status;   /* aplan_plan's status */
    aplan_result result;
    uint64_t *offsets;     /* count entries; valid when planned */
    bool planned;          /* offsets hold a verified plan (status OK or CAPACITY_EXCEEDED with a plan) */
    bool verified;         /* an independent aplan_verify call accepted the offsets */
    double millis;         /* wall time of aplan_plan */
    char error[200];       /* the failure in words when status != OK */
} cli_run;

typedef struct cli_session {
    cli_input *input;
    cli_settings settings;
    aplan_problem problem;
    uint64_t bound;        /* lower bound without capacity */
    uint64_t bound_step;
    cli_run *runs;
    size_t run_count;
    size_t best;           /* index into runs of the smallest planned arena, SIZE_MAX when none */
    bool auto_mode;        /* -s auto: only the best run is shown */
} cli_session;

/* input.c */
int cli_load(const char *path, cli_input *in, char *message, size_t message_size);
int cli_read_file(const char *path, char **data, size_t *size, char *message, size_t message_size);
void cli_input_free(cli_input *in);
/* Describe buffer i for messages: "'id' (line N)" or "'s0t7'". */
void cli_describe_buffer(const cli_input *in, size_t i, char *out, size_t out_size);

/* example.c: the built-in network, lifetimes by TFLM's rules. */
int cli_example(cli_input *in);
/* A description of the example graph for `aplan example --graph` and the docs. */
void cli_example_describe(FILE *out);

/* targets.c */
typedef struct cli_target {
    const char *name;
    const char *core;
    uint64_t alignment;
    uint64_t ram;
    const char *why_alignment;
    const char *why_ram;
} cli_target;
size_t cli_target_count(void);
const cli_target *cli_target_at(size_t i);
const cli_target *cli_target_find(const char *name);

/* output.c */
/* True iff buffers i and j are both fixed, live together and share bytes [*lo, *hi). The problem must be valid. */
bool cli_fixed_pair_shares(const cli_session *s, size_t i, size_t j, uint64_t *lo, uint64_t *hi);
int cli_write_table(FILE *out, const cli_session *s);
int cli_write_json(FILE *out, const cli_session *s);
int cli_write_csv(FILE *out, const cli_session *s, const cli_run *run);
int cli_write_c(FILE *out, const cli_session *s, const cli_run *run);
/* svg.c */
int cli_write_svg(FILE *out, const cli_session *s, const cli_run *run);
int cli_write_html(FILE *out, const cli_session *s, const cli_run *run);

/* Helpers shared by the writers. */
void cli_json_string(FILE *out, const char *s);
void cli_xml_text(FILE *out, const char *s);
double cli_overhead_percent(uint64_t arena, uint64_t bound);

#endif
