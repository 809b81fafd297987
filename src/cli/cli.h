/*
 * What the files of the aplan command-line tool share (host-only: it allocates, prints, reads and writes files):
 * the exit codes, the input, options, session and command types, and each file's entry points, grouped by file.
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

/* Exit codes: part of the tool's interface (docs/cli.md); never renumber. */
enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_INTERNAL = 1,   /* out of memory or a bug */
    CLI_EXIT_USAGE = 2,      /* bad command line */
    CLI_EXIT_BAD_INPUT = 3,  /* the input cannot be read as a problem, or no strategy can plan it */
    CLI_EXIT_NO_FIT = 4,     /* no plan fits --capacity / the target's RAM */
    CLI_EXIT_VERIFY = 5,     /* `aplan verify`: the plan breaks a rule */
    CLI_EXIT_IO = 6,         /* a file cannot be read or written */
    CLI_EXIT_TOO_LARGE = 7,  /* an input is larger than --max-input-size (CLI_DEFAULT_MAX_INPUT by default) */
    CLI_EXIT_REFUSED = 8     /* `aplan arena`: TFLM refuses the model (a kernel's Prepare fails), so no arena works */
};

/* The largest input read by default, in bytes (1 GiB); --max-input-size changes it. Checked while reading, so an
 * endless stream stops there. */
#define CLI_DEFAULT_MAX_INPUT ((uint64_t)1 << 30)

typedef enum cli_kind { CLI_INPUT_CSV, CLI_INPUT_TFLITE, CLI_INPUT_EXAMPLE } cli_kind;

/* Names from files are capped: a FlatBuffer can point every tensor, or every operator, at one string, so a model of
 * K references to an L-byte name would otherwise cost K * L time, memory and output for a file of 4 K + L bytes.
 * A name whose display text is longer than CLI_TEXT_MAX bytes is shown shortened: its first characters (a \xHH
 * counts as one) within CLI_TEXT_MAX / 2 bytes, the marker "...(N bytes)...", N its length in the file, and its
 * last characters within CLI_TEXT_MAX / 2 bytes: at most CLI_NAME_TEXT_MAX bytes in all, whatever the name. Every
 * output shows this text (the table and the graph shorten it further, keeping its end). */
#define CLI_TEXT_MAX 256u
/* The most bytes of a name's text, its NUL aside: CLI_TEXT_MAX and the longest marker, "...(" 20 digits
 * " bytes)...". */
#define CLI_NAME_TEXT_MAX (CLI_TEXT_MAX + 34u)
/* A name's text as every output shows it (see CLI_TEXT_MAX). */
typedef struct cli_name {
    const char *text;     /* display text, NUL-terminated, at most CLI_NAME_TEXT_MAX bytes */
    uint64_t size;        /* the name's length in the file, in bytes */
    bool shortened;       /* text is the name's beginning, the marker and its end: its display text is longer */
} cli_name;

/* The names of one file, each made once: a table from a name's position (data, the address of its first byte in
 * the file's bytes, which outlive the table) to its cli_name, so a string that K tensors or operators share is
 * read, escaped and stored once, not K times. All-zero is an empty table. */
typedef struct cli_name_slot {
    const char *data;     /* the key; NULL: an empty slot */
    size_t size;
    cli_name name;
} cli_name_slot;
typedef struct cli_names {
    cli_name_slot *slots; /* cap entries (a power of two), at most half of them used */
    size_t cap, count;
} cli_names;

/* What a model says about one buffer's tensor besides its size and lifetime. Text here is display text (see
 * cli_name_text): safe to print, escaped further only for the output's own syntax, at most CLI_NAME_TEXT_MAX bytes. */
typedef struct cli_tensor {
    const char *name;     /* the tensor's name as cli_name_text shows it (cli_input.names' text); NULL when it has
                             none other than its id (the example, whose ids are its names) or the model's name string
                             is malformed */
    uint64_t name_size;   /* the name's length in the file, in bytes (0 when name is NULL) */
    bool name_shortened;  /* name is the beginning of a longer name and its marker (cli_name) */
    const char *name_data; /* the name's bytes in the model (name_size of them; in->model's, valid while it is),
                              NULL when name is */
    const char *type;     /* the TensorType's name ("INT8"), static; NULL when not known */
    uint32_t rank;        /* entries of shape, when has_shape */
    int32_t shape[APLAN_TFLITE_MAX_RANK];
    bool has_shape;       /* false when not known, or the rank is above APLAN_TFLITE_MAX_RANK (only its first
                             entries are known) */
} cli_tensor;

/* What happens at one step of the lifetimes (aplan_tflite_step, with its operator's name as display text). */
typedef struct cli_step {
    uint32_t kind;        /* APLAN_TFLITE_STEP_START, _ENTRY or _OPERATOR */
    uint32_t subgraph;    /* the running (ENTRY: the calling) operator's subgraph; APLAN_TFLITE_NONE at steps 0, 1 */
    uint32_t op;          /* that operator's index in it; APLAN_TFLITE_NONE at steps 0 and 1 */
    uint32_t entered;     /* ENTRY: the subgraph entered; else APLAN_TFLITE_NONE */
    uint32_t depth;       /* calls deep: 0 in subgraph 0 */
    int32_t builtin_code; /* the operator's code; -1 at steps 0 and 1 */
    const char *op_name;  /* the operator's name ("CONV_2D", a custom code as cli_name_text shows it): static or
                             cli_input.names' text; NULL at steps 0 and 1 and for a code the reader does not know
                             (cli_op_name says "operator code 210") */
    uint64_t op_name_size; /* the name's length in the file (a custom code) or in the reader's table, in bytes */
    bool op_name_shortened; /* op_name is the beginning of a longer name and its marker (cli_name) */
    const char *op_name_data; /* the name's bytes (op_name_size of them: a custom code's in the model, a builtin's
                                 in the reader's table); NULL when op_name is */
} cli_step;

/* A problem loaded from a file or the built-in example. Nothing is kept per buffer but the arrays below, so a CSV
 * problem costs the parsed table itself (52 bytes a buffer and its ids' text), not a copy of it. */
typedef struct cli_input {
    cli_kind kind;
    const char *name;      /* path as given, or "built-in example" */
    aplan_buffer *buffers; /* count buffers (owned; CSV: csv.buffers) */
    const char **ids;      /* count ids (owned array; CSV: csv.ids): the stable key of a buffer (CSV id column, plan
                              matching). The text is csv's for CSV, id_text's for a model, static for the example */
    char *id_text;         /* .tflite: one block holding every id's text (owned); NULL otherwise */
    aplan_csv_table csv;   /* CSV: the parsed table, which owns buffers, ids and lines; zero otherwise */
    cli_tensor *tensors;   /* count entries (owned) for a .tflite model or the example; NULL for CSV */
    cli_step *steps;       /* step_count entries (owned): steps[s] explains step s of every lifetime; NULL for CSV,
                              and for a model whose operators cannot be named (a malformed custom code) */
    size_t step_count;
    uint32_t *lines;       /* CSV: the line of each row (csv.lines); NULL otherwise */
    size_t count;
    uint32_t csv_columns;  /* APLAN_CSV_* flags for writing the plan back in the input's shape */
    bool has_fixed;        /* some buffer has a fixed offset (an offline plan) */
    size_t subgraphs;      /* .tflite: number of subgraphs; 0 otherwise */
    aplan_tflite_id *tflite_ids; /* .tflite: tensor_count ids as aplan_tflite_read gave them (owned); NULL
                                    otherwise */
    size_t tensor_count;   /* the buffers that are tensors, first: all but the kernels' scratch requests that
                              cli_add_tflm_scratch appends to a model's (count for any other input) */
    const char *model;     /* .tflite: the model's bytes (model_size of them), which the TFLM arena is computed
                              from: owned_model (cli_load) or the caller's (cli_load_bytes) */
    size_t model_size;
    char *owned_model;
    aplan_tflm_scratch *scratch; /* count - tensor_count requests (owned): buffer tensor_count + k is scratch[k] */
    char *scratch_id_text; /* their ids' text, one block (owned) */
    aplan_tflm_config tflm; /* the TFLM build the requests were computed for (ABI, kernels), when has_tflm */
    bool has_tflm;
    size_t tflm_scratch_size; /* aplan_tflm_query's scratch_size for tflm, which no planner setting changes */
    void *tflm_recording;  /* aplan_tflm_record's scratch for tflm (owned), made by the first arena figure and kept
                              for the others: NULL until then, or when it failed (tflm_record_error says why) */
    aplan_format_error tflm_record_error;
    cli_names names;       /* .tflite: the text of the tensors' names and custom codes, one per distinct string of
                              the model (owned): what tensors[i].name and steps[k].op_name point to */
} cli_input;

/* Where the default alignment came from (cli_settings.alignment_from). */
typedef enum cli_alignment_from {
    CLI_ALIGN_DEFAULT, /* CSV without -a or --target: 1 */
    CLI_ALIGN_OPTION,  /* -a */
    CLI_ALIGN_TFLM,    /* .tflite or the example: TFLM's MicroArenaBufferAlignment, 16, whatever the target */
    CLI_ALIGN_TARGET   /* CSV with --target: the preset's */
} cli_alignment_from;

/* Problem settings resolved from the options and the input kind. */
typedef struct cli_settings {
    uint64_t alignment;
    bool round_sizes;
    uint64_t capacity;    /* APLAN_UNLIMITED when not set */
    const char *target;   /* preset name or NULL */
    cli_alignment_from alignment_from;
    uint64_t target_alignment;  /* the preset's alignment (0 without --target), applied only to CSV input */
    bool capacity_from_target;  /* the capacity is the target's RAM (no --capacity) */
    uint64_t time_limit_ns;     /* --time-limit: the budget of each search, in nanoseconds (CLI_DEFAULT_TIME_LIMIT) */
    uint64_t whole_capacity;    /* .tflite with a capacity: the capacity as given, for TFLM's whole arena; capacity
                                   is then what it leaves the planned section (cli_tflm_section_capacity). Else
                                   APLAN_UNLIMITED */
} cli_settings;

/* The budget of a search when --time-limit is not given (1 s), and the largest --time-limit taken (10^6 s: a
 * larger figure is a typo, not a budget). In nanoseconds. */
#define CLI_DEFAULT_TIME_LIMIT UINT64_C(1000000000)
#define CLI_MAX_TIME_LIMIT_S 1000000u

/* One strategy's outcome. */
typedef struct cli_run {
    const aplan_strategy *strategy;
    aplan_status status;   /* aplan_plan_search's status */
    aplan_result result;   /* result.outcome and result.nodes say what the plan proves and what was searched */
    bool searched;         /* the strategy searches (aplan_strategy_searches): it ran under a goal and the time limit */
    uint32_t goal;         /* aplan_goal of a search: FIT when a capacity is set, else MINIMISE */
    const uint64_t *start; /* set before cli_run_one: a valid plan the search starts from (auto), else NULL */
    const char *start_name; /* the strategy whose plan start is (auto's search), else NULL */
    double deadline_ms;    /* set before cli_run_one: when the run must stop (cli_clock_ms; the session's deadline,
                              or HUGE_VAL for a run that must finish), or 0 for the time limit from its own start */
    uint64_t *offsets;     /* count entries; valid when planned */
    bool planned;          /* offsets hold a verified plan (status OK or CAPACITY_EXCEEDED with a plan) */
    bool verified;         /* an independent aplan_verify call accepted the offsets */
    double millis;         /* wall time of aplan_plan */
    bool out_of_time;      /* the time limit's stop callback told it to stop (the limit, not the strategy, ended it) */
    char error[200];       /* the failure in words when status != OK */
} cli_run;

/* Regions (regions.c, <aplan/regions.h>): --region NAME:SIZE[:ALIGN], repeated, fastest first, or a target's
 * memory map. */
#define CLI_MAX_REGIONS 16u
#define CLI_REGION_NAME 32u /* bytes of a region's name and its NUL: [A-Za-z0-9_.-], 1 to 31 of them */
typedef struct cli_region_spec {
    char name[CLI_REGION_NAME];
    uint64_t size;  /* the capacity */
    uint64_t align; /* offsets in it are multiples of it; 0 when not given */
} cli_region_spec;

/* One region strategy's outcome. */
typedef struct cli_region_run {
    const aplan_region_strategy *strategy;
    aplan_status status;           /* aplan_region_plan's */
    aplan_region_result result;    /* traffic, its bound, outcome, regions over, report */
    uint32_t *region_of;           /* count entries (owned); valid when planned */
    uint64_t *offsets;             /* count entries (owned): each buffer's offset in its region; valid when planned */
    uint64_t arenas[CLI_MAX_REGIONS]; /* each region's arena; valid when planned */
    bool planned;                  /* a verified plan (status OK or CAPACITY_EXCEEDED with a plan) */
    bool verified;                 /* an independent aplan_region_verify accepted it */
    double millis;                 /* wall time of aplan_region_plan */
    char error[200];               /* the failure in words when status != OK */
} cli_region_run;

/* A session's regions: region_count 0 is the single arena of the problem's capacity (every figure as it always
 * was); 1 or more plans with the region strategies. */
typedef struct cli_region_session {
    size_t count;
    cli_region_spec spec[CLI_MAX_REGIONS];
    aplan_region regions[CLI_MAX_REGIONS]; /* names point into spec */
    aplan_regions set;             /* over regions, with allowed and uses */
    uint64_t *allowed;             /* count entries (owned), or NULL: any region (CSV's region column pins) */
    uint64_t *uses;                /* count entries (owned), or NULL: 1 each (.tflite: from the graph; CSV: uses) */
    uint64_t bounds[CLI_MAX_REGIONS];
    uint64_t traffic_bound;
    cli_region_run *runs;
    size_t run_count;
    size_t best;                   /* the best run (fits first, then the least traffic), SIZE_MAX when none */
    /* A model: TFLM's persistent data (its two-arena persistent arena, cli_tflm_reserve_persistent) is counted in
     * the slowest region that holds it, whose capacity for the plan (regions[r].capacity) is that much smaller. */
    size_t persistent_region;      /* SIZE_MAX: none reserved (not a model, or its figures unknown) */
    uint64_t persistent_bytes;
} cli_region_session;

/* TFLM's whole arena when a plan reaches it one way (tflm.c). */
typedef struct cli_tflm_figures {
    bool known;                 /* computed */
    uint32_t planner;           /* aplan_tflm_planner of that way */
    uint64_t tensors;           /* "planned tensors": the section that way's planner gives the tensors alone,
                                   without the kernels' scratch (tflm.c, tensors_alone); info.planned - tensors is
                                   what the scratch adds (negative, rarely, when the planner packs the tensors
                                   tighter with the scratch among them) */
    bool tensors_known;         /* tensors could be planned (else only the section is told) */
    aplan_tflm_arena_info info;
    aplan_status status;        /* why not known: APLAN_OK when known or never asked for */
    char why[640];              /* the same in words ("" when status is APLAN_OK); for a model TFLM refuses
                                   (APLAN_E_FORMAT_UNSUPPORTED), the operator, its name shown whole up to
                                   CLI_TEXT_MAX, and why */
} cli_tflm_figures;

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
    bool default_list;     /* the strategies were not named (-s all, auto or none): offline joins only when every
                              buffer is fixed, and then alone */
    uint64_t tflm_arena;   /* .tflite, `plan`: the arena TFLM's own GreedyMemoryPlanner gives (greedy_by_size_tflm,
                              capacity aside); 0 when unknown */
    /* .tflite: TFLM's whole arena (cli_compute_tflm_figures) with its own planner, with the best plan embedded as
     * the offline plan (TFLM's greedy places the scratch around its tensors: a section of tflm_embed_section
     * bytes) and with the best plan through the adapter; .known false when not computed. */
    cli_tflm_figures tflm_own, tflm_embed, tflm_adapter;
    /* .tflite: the best plan compiled into the firmware (-f c, aplan_tflm::AplanCompiledPlanner): the adapter's
     * planner outside the arena, with no planning scratch. */
    cli_tflm_figures tflm_compiled;
    uint64_t tflm_embed_section;
    cli_region_session regions; /* count 0: one arena */
} cli_session;

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
    const char *strategies;
    uint64_t align;
    bool round;
    uint64_t capacity;
    const char *target;    /* a known preset when set */
    size_t format;         /* -f: an index into cli_formats (0, the first row, is the default) */
    const char *output;
    bool alias;
    bool graph;
    bool force;            /* embed: OUT may be the input */
    const char *name;      /* -f c: prefix of every identifier (a C identifier); NULL for "aplan" */
    bool replan;           /* embed: ignore the input's offline plan */
    uint64_t max_input;    /* --max-input-size: the largest input read, in bytes (valid when given) */
    uint64_t time_limit_ns; /* --time-limit in nanoseconds (valid when given) */
    unsigned abi;          /* --abi: APLAN_TFLM_ABI_32 or _64 (valid when given) */
    unsigned kernels;      /* --kernels: APLAN_TFLM_KERNELS_REFERENCE or _CMSIS_NN (valid when given) */
    cli_region_spec regions[CLI_MAX_REGIONS]; /* --region, in the order given (fastest first) */
    size_t region_count;
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
/* True iff a and b are the same ASCII text but for case. */
bool cli_same_name(const char *a, const char *b);
/* Did-you-mean for an unknown name: init with what was given, consider every known name, then cli_suggest_text
 * writes "did you mean 'NAME'? " (with the trailing space, to precede the message's own hint) when exactly one
 * known name is within a few edits (case aside), else "". */
typedef struct cli_suggestion {
    const char *given;
    const char *best;      /* the nearest known name so far */
    size_t distance;       /* its edit distance */
    size_t ties;           /* other names as near */
} cli_suggestion;
void cli_suggest_init(cli_suggestion *s, const char *given);
void cli_suggest_consider(cli_suggestion *s, const char *known);
void cli_suggest_text(const cli_suggestion *s, char *out, size_t out_size);
/* Parse argv[0..argc) for cmd into o (zeroed by the caller). CLI_EXIT_OK, or CLI_EXIT_USAGE with the error printed.
 * Every option value is checked here, strategy names included, before any input is read. With -h/--help anywhere,
 * o->help is set and the argument count is not checked. */
int cli_parse_options(const cli_command *cmd, int argc, char **argv, cli_options *o);
/* The largest input o lets a command read: --max-input-size, else CLI_DEFAULT_MAX_INPUT. */
uint64_t cli_max_input(const cli_options *o);
/* Flush standard output at the end of a command: CLI_EXIT_OK, or CLI_EXIT_IO with "cannot write standard output:
 * REASON" printed when anything written to it failed (a full disk, a closed pipe, /dev/full). */
int cli_flush_stdout(void);

/* session.c: one planning session over a loaded input. */
/* Zero s, attach in and resolve the settings and problem from o and the input kind; best = SIZE_MAX (no run). */
void cli_session_init(cli_session *s, const cli_options *o, cli_input *in);
/* Check a -s list for command (its name prefixes the message) without an input: CLI_EXIT_OK when list is "all",
 * "auto" or comma-separated names of built-in strategies; CLI_EXIT_USAGE with the error printed for an empty list,
 * an empty or unknown name. */
int cli_check_strategy_list(const char *command, const char *list);
/* The names of a -s list that is not "all" or "auto", in order, each passed to found (which returns CLI_EXIT_OK or
 * an exit code with its error printed). CLI_EXIT_USAGE with the error printed, prefixed with command, for an empty
 * list, an empty or overlong name, or a trailing comma; else found's first failure. */
typedef int (*cli_name_found)(void *state, const char *command, const char *name);
int cli_each_list_name(const char *command, const char *list, cli_name_found found, void *state);
/* CLI_EXIT_OK, or CLI_EXIT_BAD_INPUT with the broken rule printed: the input is checked once, not per strategy. */
int cli_check_problem(const cli_session *s);
/* CLI_EXIT_OK, or CLI_EXIT_BAD_INPUT when fixed buffers share bytes without --allow-alias (message printed, naming
 * the pair found first: the earliest step where two clash); CLI_EXIT_INTERNAL when out of memory. */
int cli_check_fixed(const cli_session *s);
/* Called for a pair of fixed buffers i < j that share bytes [lo, hi) while both are live; false stops the search. */
typedef bool (*cli_pair_found)(void *state, size_t i, size_t j, uint64_t lo, uint64_t hi);
/* Every such pair of the (valid) problem, each once, in step order (the step where the later one starts), until
 * found returns false: the library's aplan_overlaps over the fixed buffers alone, which stops there, so
 * O(n + f log f + pairs met x log f) for f fixed buffers, and nothing when none is fixed. 8 bytes per buffer and
 * aplan_overlaps' scratch (at most 32 per buffer), freed on return. false only when out of memory (no pair was
 * reported). */
bool cli_fixed_pairs(const cli_session *s, cli_pair_found found, void *state);
/* How many such pairs the (valid) problem has, counted without listing them: aplan_verify over the fixed buffers
 * alone, planned at their offsets with aliasing allowed, so O(n + f log f) however many pairs there are (O(f^2) if
 * the verifier's scratch cannot be had: its pairwise path). Saturates at SIZE_MAX (32-bit builds), as the verifier's
 * count does. 48 bytes per buffer and the verifier's scratch (at most 32 per buffer), freed on return. false only
 * when out of memory (*count is then 0). */
bool cli_fixed_alias_count(const cli_session *s, size_t *count);
/* Fill s->bound and s->bound_step (capacity aside). CLI_EXIT_INTERNAL on out of memory, BAD_INPUT otherwise. */
int cli_compute_bound(cli_session *s);
/* Fill s->runs from a -s list (NULL, "all", "auto" or names). NULL and all take every built-in strategy that
 * applies to the input: offline only when every buffer has a fixed offset, and then offline alone (any other
 * strategy must keep those offsets). auto takes the same less the searching ones (cli_auto_search adds its search
 * after). CLI_EXIT_USAGE for a bad name (message printed). */
int cli_select_strategies(const char *list, cli_session *s);
/* Plan with run->strategy through aplan_plan_search and verify the plan independently; failures end up in
 * run->status and run->error. A strategy that does not search plans with the capacity aside and the capacity is
 * applied after, so a plan above it (even one above a bound that already exceeds it) is still shown with its size:
 * status APLAN_E_CAPACITY_EXCEEDED, planned; a heuristic with a search member (the greedy family) is stopped at
 * run->deadline_ms all the same (outcome BEST_FOUND: its rule cut short, the rest stacked above), except with a
 * time limit of 0, which leaves heuristics to finish. A searching one gets goal FIT with the capacity when there is
 * one (APLAN_E_CAPACITY_EXCEEDED then comes with outcome INFEASIBLE, proven, or BEST_FOUND, the time ran out), else
 * goal MINIMISE; it starts from run->start when set and stops at run->deadline_ms, or after the time limit. */
void cli_run_one(cli_session *s, cli_run *run);
/* -s auto, after its cheap runs (started at t0_ms, cli_clock_ms): when the best of them is above the lower bound, or
 * none planned, the time limit is not 0, some time of it is left and the build has `exact`, run exact from that plan
 * (or from none) for the time left (goal MINIMISE, or FIT when there is a capacity that no cheap plan fits but the
 * bound does), appended to s->runs. Nothing otherwise. */
void cli_auto_search(cli_session *s, double t0_ms);
/* The session's best plan is proven optimal: its arena equals the bound, or a search of the same problem proved
 * that no plan is smaller (a run with outcome OPTIMAL and the same arena). false when there is no best plan. */
bool cli_best_proven(const cli_session *s);
/* What a run's plan is known to be, as the table and the HTML page say it: "optimal", "fits", "best found",
 * "infeasible", "plan" (a plan, nothing proven beyond the bound beside it), or "-" (no plan and nothing proven). */
const char *cli_outcome_word(const cli_run *run);
/* The same as JSON says it: "optimal", "fits", "best_found", "infeasible", "plan", or NULL (null). */
const char *cli_outcome_key(const cli_run *run);
/* A time limit (nanoseconds) as a decimal number of seconds, as --time-limit takes it: "1", "0.5", "0" (at most 9
 * decimals, no trailing zeros). */
void cli_seconds_text(uint64_t ns, char *out, size_t out_size);
/* The run with the smallest plan, within the capacity or not (the first on ties: a search that proves a heuristic's
 * arena optimal proves it for every plan of that size, cli_best_proven); NULL when none planned. */
/* Why a search's plan is BEST_FOUND, in words (no trailing period): its time limit ran out, a group was too large to
 * search (aplan_result.unsearched), or both. Writes text (size bytes, truncated) and returns it. */
const char *cli_unproven_reason(const cli_session *s, const cli_run *run, char *text, size_t size);
const cli_run *cli_smallest_plan(const cli_session *s);
/* What the searches given the capacity found out about it: the first run that proved no plan fits (*proof), and the
 * first that ran out of time before finding one (*ran_out); NULL when there is none. */
void cli_capacity_verdicts(const cli_session *s, const cli_run **proof, const cli_run **ran_out);
/* The buffers live at step with a non-zero planned size: returns how many, sets *bytes to their planned sizes' sum
 * and fills largest[0..min(k, count)) with the indices of the largest, largest first (ties: lower index first). */
size_t cli_live_at(const cli_session *s, uint64_t step, size_t *largest, size_t k, uint64_t *bytes);
/* aplan_verify with scratch from the heap; without memory it takes the pairwise path, which needs none. */
aplan_status cli_verify(const aplan_problem *p, const uint64_t *offsets, uint64_t arena, aplan_report *r);
/* A failed report in words, naming its buffers by id: "detail: buffer 3 is 'x' (line 5)". */
void cli_describe_report(const cli_input *in, aplan_status status, const aplan_report *r, char *out,
                         size_t out_size);
/* Free what the session allocated (not the input). */
void cli_session_free(cli_session *s);

/* formats.c: the output formats, one row each (the one declaration of a format). */
/* A writer of a format: the session s (the loaded input, the settings, every run) to out. run is the plan a format of
 * one plan writes (never NULL for those), and for a format of the whole session the best plan or NULL; o gives the
 * options a format takes (cli_format.options). Returns CLI_EXIT_OK, CLI_EXIT_IO when a write failed (emit names the
 * file), or another CLI_EXIT_* code with its error printed. */
typedef int cli_format_writer(FILE *out, const cli_session *s, const cli_run *run, const cli_options *o);
/* A writer of a format in region mode (s->regions.count > 0): every region run of s, the best one
 * (s->regions.best) when the format shows one plan. Returns as cli_format_writer. */
typedef int cli_region_writer(FILE *out, const cli_session *s, const cli_options *o);
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
    cli_format_writer *write;
    cli_region_writer *write_regions; /* the same with regions; NULL: the format does not apply to them */
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

/* input.c */
/* Load path (its bytes, recognised by content, at most max_size of them: see cli_read_file) into in. CLI_EXIT_OK, or
 * an exit code with message filled. */
int cli_load(const char *path, uint64_t max_size, cli_input *in, char *message, size_t message_size);
/* The same from bytes already read; name is what messages and in->name call them. data stays the caller's. */
int cli_load_bytes(const char *name, const char *data, size_t size, cli_input *in, char *message,
                   size_t message_size);
/* True iff data holds a .tflite flatbuffer (identifier "TFL3" at bytes 4..7). */
bool cli_is_tflite(const char *data, size_t size);
/* NULL when data may be a CSV table (its first non-blank line, after a UTF-8 byte order mark, is ASCII text with a
 * comma, or there is no such line: the parser then says the input is empty); else why it cannot be one. */
const char *cli_not_csv(const char *data, size_t size);
/* Read path ("-": standard input) whole into *data (size bytes, the caller frees). Returns CLI_EXIT_OK; CLI_EXIT_IO
 * when it cannot be opened or read (message: "cannot open|read PATH: REASON"); CLI_EXIT_TOO_LARGE when it holds more
 * than max_size bytes, found from the size of a regular file before reading, and for a pipe or a device once
 * max_size + 1 bytes have come (memory and time bounded by max_size); CLI_EXIT_BAD_INPUT when a pipe or a device
 * gives more than 64 KiB and its first 64 KiB hold a NUL byte but no "TFL3" at bytes 4..7, which no reader accepts
 * (so /dev/zero stops there);
 * CLI_EXIT_INTERNAL when out of memory. Nothing to free on failure. */
int cli_read_file(const char *path, uint64_t max_size, char **data, size_t *size, char *message,
                  size_t message_size);
void cli_input_free(cli_input *in);
/* A CSV problem in the lower,upper form whose lifetimes look inclusive or empty gets a warning on stderr (the plan is
 * made from them as they are): rows whose lower equals upper (never live; the count and the first three by id and
 * line), and, with two or more live buffers, that no two of them share a step; then that upper is exclusive and how
 * to give inclusive ends (the start,end columns). Nothing for other inputs. O(n), or O(n log n) with 16 bytes a live
 * buffer when the rows are not in order of lower; out of memory skips the second check. */
void cli_warn_lifetimes(const cli_input *in);
/* Describe buffer i for messages: "buffer 3 'id' (line N)", "buffer 3 's0t7'", or "buffer 3" when out of range. */
void cli_describe_buffer(const cli_input *in, size_t i, char *out, size_t out_size);
/* Buffer i's name as display text: the tensor's name when the input gives one, else its id (a CSV id, the example's
 * name). Valid while in is. */
const char *cli_buffer_name(const cli_input *in, size_t i);

/* example.c: the built-in network, lifetimes by TFLM's rules. */
int cli_example(cli_input *in);
/* The operators of in (the example, as cli_example loaded it), one line per step, for `aplan example --graph`: the
 * listing cli_write_graph writes for a model. */
void cli_example_describe(FILE *out, const cli_input *in);

/* graph.c: the operators of a model step by step (`aplan graph`, `aplan example --graph`). */
/* A tensor an operator reads or writes, as a line of the listing shows it. */
typedef struct cli_graph_tensor {
    const char *name;     /* display text */
    const char *id;       /* the buffer's id when the tensor is planned and its id differs from name; else NULL */
    uint64_t bytes;
    bool constant;        /* constant data (weights): counted, not named */
} cli_graph_tensor;
/* The listing's opening lines: what it lists and how to read it. */
void cli_graph_heading(FILE *out, const char *name, size_t operators, size_t subgraphs, size_t steps);
/* One line: the step, what runs at it (indented by depth), its inputs and its outputs. */
void cli_graph_line(FILE *out, size_t step, uint32_t depth, const char *what, const cli_graph_tensor *inputs,
                    size_t input_count, const cli_graph_tensor *outputs, size_t output_count);
/* The listing of a loaded .tflite input whose bytes are model (size bytes): one line per step of in->steps, with
 * each operator's input and output tensors (aplan_tflite_operator, aplan_tflite_tensor). CLI_EXIT_OK, or an exit
 * code with the error printed. */
int cli_write_graph(FILE *out, const cli_input *in, const char *model, size_t size);

/* tflm.c: TFLM's whole arena for a .tflite input. */
/* The TFLM build o describes: the ABI (--abi, else the target's, else 32) and the kernels (--kernels, default the
 * reference ones; CMSIS-NN for the target's instruction set, portable C without a target). CLI_EXIT_OK, or
 * CLI_EXIT_USAGE with message filled (CMSIS-NN on a target the model does not cover it for). */
int cli_tflm_config(const cli_options *o, aplan_tflm_config *c, char *message, size_t message_size);
/* "reference kernels", "CMSIS-NN kernels (portable C)" or "CMSIS-NN kernels (DSP)". */
const char *cli_tflm_kernels_text(const aplan_tflm_config *c);
/* Append the kernels' scratch requests of a .tflite input (aplan_tflm_scratch_requests for c) to its buffers, after
 * the tensors (in->tensor_count stays), with ids s<subgraph>o<operator>r<request>; requests for another build are
 * replaced. Nothing for other inputs. CLI_EXIT_OK, or an exit code with message filled. */
int cli_add_tflm_scratch(cli_input *in, const aplan_tflm_config *c, char *message, size_t message_size);
/* TFLM's own planner on the input as it is: run greedy_by_size_tflm (TFLM's GreedyMemoryPlanner, which keeps fixed
 * offsets as TFLM does) and set s->tflm_arena to its section (0 when that strategy is not built or cannot plan it)
 * and, for a model, s->tflm_own to TFLM's whole arena with it (or its status and why, when it cannot be had). */
void cli_compute_tflm_arena(cli_session *s);
/* The section TFLM's greedy planner makes of a model carrying offsets' tensor offsets as its offline plan (it places
 * the kernels' scratch around them); 0 when it cannot be computed. */
uint64_t cli_tflm_embedded_section(const cli_session *s, const uint64_t *offsets);
/* The same, with every buffer's offset into placed (in->count entries): the tensors' from offsets, the kernels' scratch
 * buffers' where TFLM's greedy planner puts them; placed unspecified when it returns 0. */
uint64_t cli_tflm_embedded_plan(const cli_session *s, const uint64_t *offsets, uint64_t *placed);
/* TFLM's whole arena (its own planner in the arena) for a planned section of `section` bytes whose tensors' own plan is
 * not known: what `verify` judges a model's plan by. false, with f->why, when it cannot be computed or TFLM refuses
 * the model. */
bool cli_tflm_section_figures(const cli_session *s, uint64_t section, cli_tflm_figures *f);
/* "smallest arena N; arena_used_bytes() U = ..." of f, to out. */
void cli_write_tflm_sum(FILE *out, const cli_tflm_figures *f);
/* aplan_tflite_embed of a model's input (in->model) with offsets for its tensors, its scratch from the heap (freed
 * before it returns): out NULL and capacity 0 is the size query, which makes every check the write makes, so
 * `plan` asks it before advising `aplan embed`. APLAN_E_OUT_OF_MEMORY (e->message says so) when malloc fails. */
aplan_status cli_embed(const cli_input *in, const uint64_t *offsets, void *out, size_t capacity, size_t *size,
                       aplan_tflite_embed_info *info, aplan_format_error *e);
/* From plan (NULL: none): s->tflm_embed_section, s->tflm_embed, s->tflm_compiled and s->tflm_adapter. */
void cli_compute_tflm_figures(cli_session *s, const cli_run *plan);
/* The known figures of s with the smallest arena (own, embedded, adapter: the first on ties); NULL when none. */
const cli_tflm_figures *cli_tflm_smallest(const cli_session *s);
/* The setup the verdict, the exit code and the advice all judge, so that the arena a user is told to set is the one
 * that setup needs: TFLM's own planner (TFLM as it comes) when it fits the whole capacity or none was given; else the
 * way that fits with the smallest arena (embedded before the adapter on a tie; the adapter only for a plan it makes,
 * not a search's); when nothing fits, TFLM's own planner again. NULL when no figures are known. */
const cli_tflm_figures *cli_tflm_setup(const cli_session *s);
/* "TFLM's own planner", "this plan embedded" or "the adapter": which of s's figures f is. */
const char *cli_tflm_way(const cli_session *s, const cli_tflm_figures *f);
/* JSON's key for f, one of s's three: "own_planner", "embedded", "adapter". */
const char *cli_tflm_setup_key(const cli_session *s, const cli_tflm_figures *f);
/* What the kernels' scratch adds to f's planned tensors, as a magnitude into *bytes: true when it adds, false when the
 * section is that much smaller than the tensors' own plan (the planner packed them tighter among the scratch). */
bool cli_tflm_scratch_adds(const cli_tflm_figures *f, uint64_t *bytes);
/* "planned tensors P + kernels' scratch S + persistent T" of f (or "planned section N (tensors and kernels'
 * scratch)" when the tensors' own plan is not known), to out: the parts of arena_used_bytes(). */
void cli_write_tflm_parts(FILE *out, const cli_tflm_figures *f);
/* The report's "TFLM arena" lines: each known way's whole arena, its parts and the smallest arena; for a model whose
 * arena with TFLM's own planner cannot be computed, one line saying why. */
void cli_write_tflm_lines(FILE *out, const cli_session *s);
/* The line naming the first operator the model does not know (nothing when info has none). */
void cli_write_tflm_unknown(FILE *out, const cli_session *s, const aplan_tflm_arena_info *info);
/* What a whole arena of capacity bytes leaves the planned section of a .tflite input: capacity less TFLM's
 * persistent data (0 when that alone does not fit); capacity itself for other inputs, or when unknown. */
uint64_t cli_tflm_section_capacity(const cli_session *s, uint64_t capacity);
/* Print why f cannot be computed (naming the input); CLI_EXIT_INTERNAL when out of memory, else CLI_EXIT_BAD_INPUT
 * (the arena passes 2^64 - 1, TFLM's planner cannot plan the model, or it is not built). */
int cli_tflm_failure(const cli_session *s, const cli_tflm_figures *f);
/* `aplan arena`: the breakdown of the whole arena by part and by operator. */
int cli_write_tflm_breakdown(FILE *out, const cli_session *s);

/* targets.c */
typedef struct cli_target {
    const char *name;
    const char *core;
    uint64_t alignment;
    uint64_t ram;
    unsigned abi;          /* its pointer width for TFLM's structs: APLAN_TFLM_ABI_32 or _64 */
    int cmsis_isa;         /* what CMSIS-NN is built for on it (APLAN_TFLM_ISA_*), or -1 when the model does not
                              cover CMSIS-NN there (not an Arm core, or Helium); why_cmsis says which */
    const char *why_cmsis;
    const char *why_alignment;
    const char *why_ram;
    const cli_region_spec *regions; /* its memory map, fastest first, for `plan --target` (region mode); NULL for a
                                       preset of one RAM. ram is then the largest region: one arena in one memory */
    size_t region_count;
    const char *why_regions;        /* where the map's usable sizes come from */
} cli_target;
size_t cli_target_count(void);
const cli_target *cli_target_at(size_t i);
/* The preset named name, case aside ("Cortex-M4" is cortex-m4); NULL when there is none. */
const cli_target *cli_target_find(const char *name);

/* text.c: text as every output shows it. */
/* Arena over bound in percent; 0 when the bound is 0. */
double cli_overhead_percent(uint64_t arena, uint64_t bound);
/* The plural ending of the noun after a count n: "" when n is 1, else "s" ("1 buffer", "0 buffers", "2 bytes"). Every
 * count the tool prints goes through it. */
const char *cli_s(uint64_t n);
/* Text from files (tensor names, custom operator codes: any bytes, NULs included) is shown the same way in every
 * output: a valid UTF-8 sequence (RFC 3629) of a character XML allows stands for itself; every other byte (invalid
 * UTF-8, a control character, DEL, U+FFFE/U+FFFF) becomes the four characters \xHH. */
/* The bytes at s (avail > 0 of them) that stand for themselves: 1 to 4, or 0 when s[0] is shown as \xHH. */
size_t cli_shown_length(const unsigned char *s, size_t avail);
/* The display text of size bytes at data, NUL-terminated, owned by the caller (free); NULL when out of memory. For
 * text the user gave (a path); a name from a file goes through cli_name_text. O(size). */
char *cli_display_text(const char *data, size_t size);
/* The text of the name of size bytes at data, as a cli_name whose text the caller owns (free((char *)text)); text
 * NULL when out of memory. Reads at most CLI_TEXT_MAX + 4 bytes of data: O(1) time and memory, whatever size. */
cli_name cli_name_text(const char *data, size_t size);
/* The name of size bytes at data (not NULL), made by cli_name_text on its first look-up and the same cli_name after
 * (the text is the table's: valid until cli_names_free). false when out of memory (*name untouched). Amortised O(1)
 * time a look-up; memory at most CLI_NAME_TEXT_MAX + 1 + 2 * sizeof(cli_name_slot) bytes per distinct position. */
bool cli_names_get(cli_names *names, const char *data, size_t size, cli_name *name);
/* Free every text and the table; names is all-zero after. */
void cli_names_free(cli_names *names);
/* Raw text s (an id or a path as the file or command line gave it: any bytes) as display text, whole: what
 * cli_display_text would make of it, written without a copy. Returns its characters (out NULL: measures only). */
size_t cli_write_shown(FILE *out, const char *s);
/* Characters (code points) in display text: its width on a terminal, wide characters aside. */
size_t cli_text_width(const char *s);
/* Names longer than this many characters are shortened in the table, `bound` and the graph listing (never in CSV,
 * JSON or the pictures): "..." then their end, from a '/' when one is near, since a TensorFlow scope path's end
 * tells tensors apart. */
#define CLI_NAME_SHOWN 48u
/* Write display text s, shortened to at most max characters; returns the characters written (out NULL: would
 * write, writing nothing). */
size_t cli_write_short(FILE *out, const char *s, size_t max);
/* Where cli_write_short's shortened text resumes after its "...": a suffix of s; NULL when s fits in max characters. */
const char *cli_short_tail(const char *s, size_t max);
/* Buffer i as the table shows it: "name (id)", with the name shortened, or the id alone when the input has no other
 * name for it; padded with spaces to width characters. Returns the characters before padding (out NULL: measures). */
size_t cli_write_buffer_label(FILE *out, const cli_input *in, size_t i, size_t width);
/* One line per buffer of which[0..count): label, planned size, steps, and type and shape when known, in columns
 * (`bound`'s listing and the verdict's largest buffers at the peak). */
void cli_write_buffer_rows(FILE *out, const cli_session *s, const size_t *which, size_t count);
/* "INT8 [1x48x48x16]" ("[]": a scalar), the type or the shape alone when only one is known, "" when neither. */
void cli_tensor_text(const cli_input *in, size_t i, char *out, size_t out_size);
/* The name of step s's operator: s->op_name, or for a code the reader does not know "operator code N" written
 * into buf (size bytes); "" for steps 0 and 1. */
const char *cli_op_name(const cli_step *s, char *buf, size_t size);
/* What runs at step: "CONV_2D (op 28 of subgraph 0)", "the inputs of subgraph 0", "start, before any operator",
 * "entering subgraph 2 from WHILE (op 3 of subgraph 0)". false (out "") when the input has no such step (CSV). */
bool cli_describe_step(const cli_input *in, uint64_t step, char *out, size_t out_size);
/* What the arena figures cover, for the heading and JSON's "covers": the section the figures are of (with the
 * buffer count in it), and what a runtime adds on top that the input cannot show (NULL: nothing). For a model, the
 * figure is only TFLM's planned section: sizing firmware from it alone fails in AllocateTensors. */
typedef struct cli_coverage_text {
    const char *section;      /* JSON's "section": "tflm_planned" or "input_buffers" */
    char what[240];
    const char *not_included; /* static text, or NULL */
} cli_coverage_text;
void cli_coverage(const cli_session *s, cli_coverage_text *c);
/* "smallest arena M; arena_used_bytes() N = planned tensors P + kernels' scratch S + persistent T" of f (the report's
 * "TFLM arena" line, " (at least)" after M with operators the model does not know) as ASCII text into out (size
 * bytes, NUL-terminated; cut short when it does not fit). false when it cannot be made (out of memory). */
bool cli_tflm_sum_text(char *out, size_t size, const cli_tflm_figures *f);
/* Up to this many of the peak step's largest buffers are named when a plan does not fit (the table's verdict,
 * JSON's "peak"). */
#define CLI_PEAK_SHOWN 3u

/* json.c: s as a JSON string of display text (every byte not shown as itself is the text \xHH): valid UTF-8 whatever
 * bytes an id or a path holds. */
void cli_json_string(FILE *out, const char *s);
/* The writers of the formats' table. table.c: the comparison table; json.c; export.c: one plan for other tools as
 * CSV, and as a C header whose identifiers start with --name (macros upper-cased; default aplan); svg.c: the
 * pictures. */
cli_format_writer cli_write_table, cli_write_json, cli_write_csv, cli_write_c, cli_write_svg, cli_write_html;
/* regions.c: region mode (--region, or a --target with a memory map). */
/* The regions o asks for (its --region, else its target's memory map) into *specs (may be NULL): how many; 0 for
 * one arena. */
size_t cli_option_regions(const cli_options *o, const cli_region_spec **specs);
/* As cli_check_strategy_list for the region strategies (<aplan/regions.h>): all, auto (select) or their names. */
int cli_check_region_strategy_list(const char *command, const char *list);
/* -f c with regions (o's --region, or its target's map): CLI_EXIT_OK, or CLI_EXIT_USAGE with the error printed,
 * prefixed with command, naming both, when two regions' names would make the same macro of the header (a name
 * beside another's _SIZE or _ALIGNMENT, names that differ only in '.', '-' and '_') or one would make a fixed one
 * (PREFIX_REGION_COUNT, the guard PREFIX_REGION_PLAN_H), whatever --name: the header would define it twice with
 * different values. Nothing for other formats. O(regions^2). */
int cli_check_region_c_names(const char *command, const cli_options *o);
/* `plan` and `example` with regions: uses (the graph's, or CSV's uses column), pins (CSV's region column), the
 * bounds, every region strategy of -s with the time limit, each plan verified independently, the best written in
 * the chosen format. CLI_EXIT_OK when the best plan fits every region; CLI_EXIT_NO_FIT (the table or JSON still
 * written) when none does; another exit code with the error printed. */
int cli_plan_regions(const cli_options *o, cli_input *in);
/* Region mode for s (cli_session_init'd over a loaded input): o's regions into s->regions, TFLM's persistent data of
 * a model reserved (cli_tflm_reserve_persistent), each buffer's uses and pins (a CSV's region column) loaded, the
 * problem and its regions checked (aplan_regions_validate, the rule in words). CLI_EXIT_OK, or CLI_EXIT_BAD_INPUT,
 * CLI_EXIT_NO_FIT (a buffer or TFLM's persistent data larger than every region it may use) or CLI_EXIT_INTERNAL with
 * the error printed. `plan` and `verify` both start region mode with it. */
int cli_region_setup(const cli_options *o, cli_session *s);
/* Free what a region session holds (cli_session_free calls it). */
void cli_region_session_free(cli_region_session *g);
cli_region_writer cli_write_region_table, cli_write_region_json, cli_write_region_c, cli_write_region_csv,
    cli_write_region_svg, cli_write_region_html;
/* example.c: each of the example's buffers' uses (the operators that read or write it) into uses (count). */
void cli_example_uses(uint64_t *uses, size_t count);
/* tflm.c: for a model planned with regions, TFLM's two-arena figures: the persistent arena and the non-persistent
 * one, and how a region plan reaches TFLM (docs/tflm.md, "Several memories"). */
void cli_write_tflm_regions(FILE *out, const cli_session *s);
/* For a model planned with regions: reserve TFLM's persistent data (the persistent arena its two-arena Create needs,
 * TFLM's own planner there) in the slowest region that holds it, before planning, so that the verdict and the exit
 * code count it. CLI_EXIT_OK (also when the figures cannot be had: nothing reserved, the TFLM lines say why);
 * CLI_EXIT_NO_FIT with the error printed when no region holds it. */
int cli_tflm_reserve_persistent(cli_session *s);

/* table.c: the report's heading: the input, its settings (and why the alignment is TFLM's despite a target), the
 * lower bound and what the figures cover. `plan`'s table and `bound` open with it. */
void cli_write_heading(FILE *out, const cli_session *s);
/* table.c: with a capacity, the verdict line (no newline), as the table and the pictures say it: "fits: N of C bytes
 * (P% of the capacity); F bytes free", or "does not fit: ..." with by how much the smallest plan, or the bound,
 * misses and what a search proved. false (out "") without a capacity, or when no run planned and the bound fits.
 * out_size CLI_VERDICT_SIZE holds any verdict. */
bool cli_verdict(const cli_session *s, char *out, size_t out_size);
#define CLI_VERDICT_SIZE 512u

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
double cli_clock_ms(void);
/* The output phase: "writing WHAT" when out is not a terminal; else the line is cleared (the output follows). */
void cli_progress_writing(FILE *out, const char *what);

/* report_page.c, which the build generates from report_page.css and report_page.js (report_page.py): the HTML
 * report's style sheet and script, one string per line, NULL-terminated; svg.c writes them into the page. */
extern const char *const cli_report_style[];
extern const char *const cli_report_script[];

#endif
