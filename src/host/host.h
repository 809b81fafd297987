/*
 * The host layer of aplan: everything between the library and a front-end that is not argument parsing or terminal
 * output. It loads inputs (files, bytes, the built-in example), runs a planning session (the strategies under one
 * time budget, `auto`, the lower bound, independent verification, reports in words), computes TFLM's whole arena and
 * the region plans, and writes the outputs (the table, JSON, SVG, the HTML report, CSV and the C header) to a FILE.
 * The command-line tool (src/cli) and the Python extension (python/aplan/_aplan.c) both call it; it never calls
 * them. It allocates, as any host code may; it prints nothing on its own: errors come back as values
 * (aplan_host_error, whose text is exactly the line the CLI prints after "aplan: "), settings come in as a plain
 * struct (aplan_host_options), and progress goes out through a callback (aplan_host_session.progress).
 *
 * Layers: this header includes only aplan's public headers and libc; no file of src/host includes src/cli
 * (tests/tree_test.py checks both). Everything here is aplan_host_-prefixed; what one file alone uses stays static.
 */
#ifndef APLAN_HOST_H
#define APLAN_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "aplan/aplan.h"
#include "aplan/regions.h"
#include "aplan/csv.h"
#include "aplan/tflite.h"
#include "aplan/tflm.h"

/* What went wrong, as the kind of an aplan_host_error and the return value of most functions here. The numbers are
 * the CLI's exit codes (docs/cli.md), which are part of its interface: never renumber. */
enum {
    APLAN_HOST_OK = 0,
    APLAN_HOST_INTERNAL = 1,   /* out of memory or a bug */
    APLAN_HOST_USAGE = 2,      /* a bad setting (a strategy name, a region list, a --name clash) */
    APLAN_HOST_BAD_INPUT = 3,  /* the input cannot be read as a problem, or no strategy can plan it */
    APLAN_HOST_NO_FIT = 4,     /* no plan fits the capacity / the target's RAM */
    APLAN_HOST_VERIFY = 5,     /* a plan checked against a problem breaks a rule */
    APLAN_HOST_IO = 6,         /* a file cannot be read or written (a writer: a write to its FILE failed) */
    APLAN_HOST_TOO_LARGE = 7,  /* an input is larger than the most the caller lets be read */
    APLAN_HOST_REFUSED = 8     /* TFLM refuses the model (a kernel's Prepare fails), so no arena works */
};

/* An error as a value: its kind (APLAN_HOST_*) and its message, the text the CLI prints after "aplan: " (no
 * newline). All-zero is "no error". The message is owned (aplan_host_error_clear frees it). */
typedef struct aplan_host_error {
    int kind;
    char *message;   /* NULL when there is nothing to say, or when it could not be allocated (oom) */
    bool oom;        /* the message could not be allocated: aplan_host_error_text says "out of memory" */
} aplan_host_error;
/* Set e (cleared first) to kind with the message printf makes of format; returns kind. A message that cannot be
 * allocated leaves e->oom set. O(length of the message). */
int aplan_host_error_set(aplan_host_error *e, int kind, const char *format, ...) __attribute__((format(printf, 3, 4)));
/* Append printf text to e's message (nothing when it has none and is not being built; oom on failure). */
void aplan_host_error_append(aplan_host_error *e, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* The message to show for e: its text, "out of memory" when it could not be allocated, or NULL when there is none
 * (a kind that says it all: APLAN_HOST_OK, or an IO failure of a writer whose caller names the file). */
const char *aplan_host_error_text(const aplan_host_error *e);
/* Free the message; e is all-zero after. */
void aplan_host_error_clear(aplan_host_error *e);

/* Regions (regions.c, <aplan/regions.h>): NAME:SIZE[:ALIGN], fastest first, or a target's memory map. */
#define APLAN_HOST_MAX_REGIONS 16u
#define APLAN_HOST_REGION_NAME 32u /* bytes of a region's name and its NUL: [A-Za-z0-9_.-], 1 to 31 of them */
typedef struct aplan_host_region_spec {
    char name[APLAN_HOST_REGION_NAME];
    uint64_t size;  /* the capacity */
    uint64_t align; /* offsets in it are multiples of it; 0 when not given */
} aplan_host_region_spec;

/* Which of aplan_host_options' values were given (aplan_host_options.given); the others take their defaults. */
enum {
    APLAN_HOST_SET_ALIGN = 1u << 0,
    APLAN_HOST_SET_ROUND = 1u << 1,
    APLAN_HOST_SET_CAPACITY = 1u << 2,
    APLAN_HOST_SET_TIME_LIMIT = 1u << 3,
    APLAN_HOST_SET_ABI = 1u << 4,
    APLAN_HOST_SET_KERNELS = 1u << 5
};
/* The settings of a session and its outputs, as plain data: the CLI's parser fills it from argv, Python from keyword
 * arguments. All-zero is every default (all strategies, the input kind's alignment, no capacity, 1 s of search,
 * TFLM's 32-bit ABI and reference kernels, one arena, identifiers prefixed "aplan"). Values are checked by the
 * caller (a strategy list with aplan_host_check_strategy_list, a target with aplan_host_target_find). */
typedef struct aplan_host_options {
    unsigned given;        /* APLAN_HOST_SET_* bits */
    const char *strategies; /* -s: "all", "auto" or comma-separated names; NULL is all */
    uint64_t align;        /* the default alignment (SET_ALIGN) */
    bool round;            /* round sizes up to the alignment (SET_ROUND; default: for a model) */
    uint64_t capacity;     /* (SET_CAPACITY; default: the target's RAM, else none) */
    const char *target;    /* a known preset (aplan_host_target_find), or NULL */
    bool alias;            /* fixed buffers may share bytes */
    uint64_t time_limit_ns; /* each search's budget in nanoseconds (SET_TIME_LIMIT; APLAN_HOST_DEFAULT_TIME_LIMIT) */
    unsigned abi;          /* TFLM's ABI, APLAN_TFLM_ABI_32 or _64 (SET_ABI; default: the target's, else 32) */
    unsigned kernels;      /* APLAN_TFLM_KERNELS_REFERENCE or _CMSIS_NN (SET_KERNELS; default reference) */
    aplan_host_region_spec regions[APLAN_HOST_MAX_REGIONS]; /* in the order given (fastest first) */
    size_t region_count;   /* 0: the target's memory map, if any, else one arena */
    const char *name;      /* the C header's prefix of every identifier (a C identifier); NULL for "aplan" */
} aplan_host_options;

/* A session's progress (aplan_host_session.progress): called with phase true when a new phase begins ("planning
 * greedy_by_size (1 of 5)"), false for a note within one (a search's nodes, at most every 250 ms); text is at most
 * 159 bytes. A front-end shows it or not; the host only reports it. */
typedef void aplan_host_progress(void *state, bool phase, const char *text);
/* Milliseconds on the monotonic clock (CLOCK_MONOTONIC): the searches' deadlines. */
double aplan_host_clock_ms(void);


/* The largest input read by default, in bytes (1 GiB); --max-input-size changes it. Checked while reading, so an
 * endless stream stops there. */
#define APLAN_HOST_DEFAULT_MAX_INPUT ((uint64_t)1 << 30)

typedef enum aplan_host_input_kind {
    APLAN_HOST_INPUT_CSV,
    APLAN_HOST_INPUT_TFLITE,
    APLAN_HOST_INPUT_EXAMPLE
} aplan_host_input_kind;

/* Names from files are capped: a FlatBuffer can point every tensor, or every operator, at one string, so a model of
 * K references to an L-byte name would otherwise cost K * L time, memory and output for a file of 4 K + L bytes.
 * A name whose display text is longer than APLAN_HOST_TEXT_MAX bytes is shown shortened: its first characters (a \xHH
 * counts as one) within APLAN_HOST_TEXT_MAX / 2 bytes, the marker "...(N bytes)...", N its length in the file, and its
 * last characters within APLAN_HOST_TEXT_MAX / 2 bytes: at most APLAN_HOST_NAME_TEXT_MAX bytes in all, whatever the
 * name. Every output shows this text (the table and the graph shorten it further, keeping its end). */
#define APLAN_HOST_TEXT_MAX 256u
/* The most bytes of a name's text, its NUL aside: APLAN_HOST_TEXT_MAX and the longest marker, "...(" 20 digits
 * " bytes)...". */
#define APLAN_HOST_NAME_TEXT_MAX (APLAN_HOST_TEXT_MAX + 34u)
/* A name's text as every output shows it (see APLAN_HOST_TEXT_MAX). */
typedef struct aplan_host_name {
    const char *text;     /* display text, NUL-terminated, at most APLAN_HOST_NAME_TEXT_MAX bytes */
    uint64_t size;        /* the name's length in the file, in bytes */
    bool shortened;       /* text is the name's beginning, the marker and its end: its display text is longer */
} aplan_host_name;

/* The names of one file, each made once: a table from a name's position (data, the address of its first byte in
 * the file's bytes, which outlive the table) to its aplan_host_name, so a string that K tensors or operators share is
 * read, escaped and stored once, not K times. All-zero is an empty table. */
typedef struct aplan_host_name_slot {
    const char *data;     /* the key; NULL: an empty slot */
    size_t size;
    aplan_host_name name;
} aplan_host_name_slot;
typedef struct aplan_host_names {
    aplan_host_name_slot *slots; /* cap entries (a power of two), at most half of them used */
    size_t cap, count;
} aplan_host_names;

/* What a model says about one buffer's tensor besides its size and lifetime. Text here is display text (see
 * aplan_host_name_text): safe to print, escaped further only for the output's own syntax, at most
 * APLAN_HOST_NAME_TEXT_MAX bytes. */
typedef struct aplan_host_tensor {
    /* the tensor's name as aplan_host_name_text shows it (aplan_host_input.names' text); NULL when it has none other
     * than its id (the example, whose ids are its names) or the model's name string is malformed */
    const char *name;
    uint64_t name_size;   /* the name's length in the file, in bytes (0 when name is NULL) */
    bool name_shortened;  /* name is the beginning of a longer name and its marker (aplan_host_name) */
    const char *name_data; /* the name's bytes in the model (name_size of them; in->model's, valid while it is),
                              NULL when name is */
    const char *type;     /* the TensorType's name ("INT8"), static; NULL when not known */
    uint32_t rank;        /* entries of shape, when has_shape */
    int32_t shape[APLAN_TFLITE_MAX_RANK];
    bool has_shape;       /* false when not known, or the rank is above APLAN_TFLITE_MAX_RANK (only its first
                             entries are known) */
} aplan_host_tensor;

/* What happens at one step of the lifetimes (aplan_tflite_step, with its operator's name as display text). */
typedef struct aplan_host_step {
    uint32_t kind;        /* APLAN_TFLITE_STEP_START, _ENTRY or _OPERATOR */
    uint32_t subgraph;    /* the running (ENTRY: the calling) operator's subgraph; APLAN_TFLITE_NONE at steps 0, 1 */
    uint32_t op;          /* that operator's index in it; APLAN_TFLITE_NONE at steps 0 and 1 */
    uint32_t entered;     /* ENTRY: the subgraph entered; else APLAN_TFLITE_NONE */
    uint32_t depth;       /* calls deep: 0 in subgraph 0 */
    int32_t builtin_code; /* the operator's code; -1 at steps 0 and 1 */
    const char *op_name;  /* the operator's name ("CONV_2D", a custom code as aplan_host_name_text shows it): static or
                             aplan_host_input.names' text; NULL at steps 0 and 1 and for a code the reader does not know
                             (aplan_host_op_name says "operator code 210") */
    uint64_t op_name_size; /* the name's length in the file (a custom code) or in the reader's table, in bytes */
    bool op_name_shortened; /* op_name is the beginning of a longer name and its marker (aplan_host_name) */
    const char *op_name_data; /* the name's bytes (op_name_size of them: a custom code's in the model, a builtin's
                                 in the reader's table); NULL when op_name is */
} aplan_host_step;

/* A problem loaded from a file or the built-in example. Nothing is kept per buffer but the arrays below, so a CSV
 * problem costs the parsed table itself (52 bytes a buffer and its ids' text), not a copy of it. */
typedef struct aplan_host_input {
    aplan_host_input_kind kind;
    const char *name;      /* path as given, or "built-in example" */
    aplan_buffer *buffers; /* count buffers (owned; CSV: csv.buffers) */
    const char **ids;      /* count ids (owned array; CSV: csv.ids): the stable key of a buffer (CSV id column, plan
                              matching). The text is csv's for CSV, id_text's for a model, static for the example */
    char *id_text;         /* .tflite: one block holding every id's text (owned); NULL otherwise */
    aplan_csv_table csv;   /* CSV: the parsed table, which owns buffers, ids and lines; zero otherwise */
    aplan_host_tensor *tensors;   /* count entries (owned) for a .tflite model or the example; NULL for CSV */
    aplan_host_step *steps; /* step_count entries (owned): steps[s] explains step s of every lifetime; NULL for CSV,
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
                              aplan_host_add_tflm_scratch appends to a model's (count for any other input) */
    const char *model;     /* .tflite: the model's bytes (model_size of them), which the TFLM arena is computed
                              from: owned_model (aplan_host_load) or the caller's (aplan_host_load_bytes) */
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
    aplan_host_names names;   /* .tflite: the text of the tensors' names and custom codes, one per distinct string of
                              the model (owned): what tensors[i].name and steps[k].op_name point to */
} aplan_host_input;

/* Where the default alignment came from (aplan_host_settings.alignment_from). */
typedef enum aplan_host_alignment_from {
    APLAN_HOST_ALIGN_DEFAULT, /* CSV without -a or --target: 1 */
    APLAN_HOST_ALIGN_OPTION,  /* -a */
    APLAN_HOST_ALIGN_TFLM,    /* .tflite or the example: TFLM's MicroArenaBufferAlignment, 16, whatever the target */
    APLAN_HOST_ALIGN_TARGET   /* CSV with --target: the preset's */
} aplan_host_alignment_from;

/* Problem settings resolved from the options and the input kind. */
typedef struct aplan_host_settings {
    uint64_t alignment;
    bool round_sizes;
    uint64_t capacity;    /* APLAN_UNLIMITED when not set */
    const char *target;   /* preset name or NULL */
    aplan_host_alignment_from alignment_from;
    uint64_t target_alignment;  /* the preset's alignment (0 without --target), applied only to CSV input */
    bool capacity_from_target;  /* the capacity is the target's RAM (no --capacity) */
    /* --time-limit: the budget of each search, in nanoseconds (APLAN_HOST_DEFAULT_TIME_LIMIT) */
    uint64_t time_limit_ns;
    uint64_t whole_capacity;    /* .tflite with a capacity: the capacity as given, for TFLM's whole arena; capacity
                                   is then what it leaves the planned section (aplan_host_tflm_section_capacity). Else
                                   APLAN_UNLIMITED */
} aplan_host_settings;

/* The budget of a search when --time-limit is not given (1 s), and the largest --time-limit taken (10^6 s: a
 * larger figure is a typo, not a budget). In nanoseconds. */
#define APLAN_HOST_DEFAULT_TIME_LIMIT UINT64_C(1000000000)
#define APLAN_HOST_MAX_TIME_LIMIT_S 1000000u

/* One strategy's outcome. */
typedef struct aplan_host_run {
    const aplan_strategy *strategy;
    aplan_status status;   /* aplan_plan_search's status */
    aplan_result result;   /* result.outcome and result.nodes say what the plan proves and what was searched */
    bool searched;         /* the strategy searches (aplan_strategy_searches): it ran under a goal and the time limit */
    uint32_t goal;         /* aplan_goal of a search: FIT when a capacity is set, else MINIMISE */
    const uint64_t *start; /* set before aplan_host_run_one: a valid plan the search starts from (auto), else NULL */
    const char *start_name; /* the strategy whose plan start is (auto's search), else NULL */
    /* set before aplan_host_run_one: when the run must stop (aplan_host_clock_ms; the session's deadline, or HUGE_VAL
     * for a run that must finish), or 0 for the time limit from its own start */
    double deadline_ms;
    uint64_t *offsets;     /* count entries; valid when planned */
    bool planned;          /* offsets hold a verified plan (status OK or CAPACITY_EXCEEDED with a plan) */
    bool verified;         /* an independent aplan_verify call accepted the offsets */
    double millis;         /* wall time of aplan_plan */
    bool out_of_time;      /* the time limit's stop callback told it to stop (the limit, not the strategy, ended it) */
    char error[200];       /* the failure in words when status != OK */
} aplan_host_run;


/* One region strategy's outcome. */
typedef struct aplan_host_region_run {
    const aplan_region_strategy *strategy;
    aplan_status status;           /* aplan_region_plan's */
    aplan_region_result result;    /* traffic, its bound, outcome, regions over, report */
    uint32_t *region_of;           /* count entries (owned); valid when planned */
    uint64_t *offsets;             /* count entries (owned): each buffer's offset in its region; valid when planned */
    uint64_t arenas[APLAN_HOST_MAX_REGIONS]; /* each region's arena; valid when planned */
    bool planned;                  /* a verified plan (status OK or CAPACITY_EXCEEDED with a plan) */
    bool verified;                 /* an independent aplan_region_verify accepted it */
    double millis;                 /* wall time of aplan_region_plan */
    char error[200];               /* the failure in words when status != OK */
} aplan_host_region_run;

/* A session's regions: region_count 0 is the single arena of the problem's capacity (every figure as it always
 * was); 1 or more plans with the region strategies. */
typedef struct aplan_host_region_session {
    size_t count;
    aplan_host_region_spec spec[APLAN_HOST_MAX_REGIONS];
    aplan_region regions[APLAN_HOST_MAX_REGIONS]; /* names point into spec */
    aplan_regions set;             /* over regions, with allowed and uses */
    uint64_t *allowed;             /* count entries (owned), or NULL: any region (CSV's region column pins) */
    uint64_t *uses;                /* count entries (owned), or NULL: 1 each (.tflite: from the graph; CSV: uses) */
    uint64_t bounds[APLAN_HOST_MAX_REGIONS];
    uint64_t traffic_bound;
    aplan_host_region_run *runs;
    size_t run_count;
    size_t best;                   /* the best run (fits first, then the least traffic), SIZE_MAX when none */
    /* A model: TFLM's persistent data (its two-arena persistent arena, aplan_host_tflm_reserve_persistent) is counted
     * in the slowest region that holds it, whose capacity for the plan (regions[r].capacity) is that much smaller. */
    size_t persistent_region;      /* SIZE_MAX: none reserved (not a model, or its figures unknown) */
    uint64_t persistent_bytes;
} aplan_host_region_session;

/* TFLM's whole arena when a plan reaches it one way (tflm.c). */
typedef struct aplan_host_tflm_figures {
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
                                   APLAN_HOST_TEXT_MAX, and why */
} aplan_host_tflm_figures;

typedef struct aplan_host_session {
    aplan_host_input *input;
    aplan_host_settings settings;
    aplan_problem problem;
    uint64_t bound;        /* lower bound without capacity */
    uint64_t bound_step;
    aplan_host_run *runs;
    size_t run_count;
    size_t best;           /* index into runs of the smallest planned arena, SIZE_MAX when none */
    bool auto_mode;        /* -s auto: only the best run is shown */
    bool default_list;     /* the strategies were not named (-s all, auto or none): offline joins only when every
                              buffer is fixed, and then alone */
    uint64_t tflm_arena;   /* .tflite, `plan`: the arena TFLM's own GreedyMemoryPlanner gives (greedy_by_size_tflm,
                              capacity aside); 0 when unknown */
    /* .tflite: TFLM's whole arena (aplan_host_compute_tflm_figures) with its own planner, with the best plan embedded
     * as the offline plan (TFLM's greedy places the scratch around its tensors: a section of tflm_embed_section bytes)
     * and with the best plan through the adapter; .known false when not computed. */
    aplan_host_tflm_figures tflm_own, tflm_embed, tflm_adapter;
    /* .tflite: the best plan compiled into the firmware (-f c, aplan_tflm::AplanCompiledPlanner): the adapter's
     * planner outside the arena, with no planning scratch. */
    aplan_host_tflm_figures tflm_compiled;
    uint64_t tflm_embed_section;
    aplan_host_region_session regions; /* count 0: one arena */
    aplan_host_progress *progress; /* told of each phase and a search's progress (NULL: no one); the caller's */
    void *progress_state;          /* progress's first argument */
    /* Asked at every look at a run's clock and before each run (NULL: never): true stops the run there and every
     * run after it (interrupted is then set; the session's runs are unfinished and must not be shown). Python's
     * Ctrl-C. */
    bool (*interrupt)(void *state);
    void *interrupt_state;         /* interrupt's argument */
    bool interrupted;              /* interrupt said stop */
} aplan_host_session;

/* True iff a and b are the same ASCII text but for case. */
bool aplan_host_same_name(const char *a, const char *b);
/* Did-you-mean for an unknown name: init with what was given, consider every known name, then aplan_host_suggest_text
 * writes "did you mean 'NAME'? " (with the trailing space, to precede the message's own hint) when exactly one
 * known name is within a few edits (case aside), else "". */
typedef struct aplan_host_suggestion {
    const char *given;
    const char *best;      /* the nearest known name so far */
    size_t distance;       /* its edit distance */
    size_t ties;           /* other names as near */
} aplan_host_suggestion;
/* Names longer than this are never typos of a known name (the longest, "cortex-m55-ethos-u55", has 20). */
#define APLAN_HOST_SUGGEST_MAX 48
/* Optimal string alignment distance, ignoring case: insertions, deletions, substitutions and transpositions of
 * two neighbours each cost 1. Both strings are at most APLAN_HOST_SUGGEST_MAX long. O(n m) time, no allocation. */
size_t aplan_host_edit_distance(const char *a, const char *b);
void aplan_host_suggest_init(aplan_host_suggestion *s, const char *given);
void aplan_host_suggest_consider(aplan_host_suggestion *s, const char *known);
void aplan_host_suggest_text(const aplan_host_suggestion *s, char *out, size_t out_size);

/* session.c: one planning session over a loaded input. */
/* Tell s->progress (when set) of a phase (phase true) or a note within one: text printf makes of format, cut to 159
 * bytes. */
void aplan_host_progress_say(const aplan_host_session *s, bool phase, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
/* Zero s, attach in and resolve the settings and problem from o and the input kind; best = SIZE_MAX (no run). */
void aplan_host_session_init(aplan_host_session *s, const aplan_host_options *o, aplan_host_input *in);
/* Check a -s list for command (its name prefixes the message) without an input: APLAN_HOST_OK when list is "all",
 * "auto" or comma-separated names of built-in strategies; APLAN_HOST_USAGE with err set for an empty list,
 * an empty or unknown name. */
int aplan_host_check_strategy_list(const char *command, const char *list, aplan_host_error *err);
/* The names of a -s list that is not "all" or "auto", in order, each passed to found (which returns APLAN_HOST_OK or
 * an exit code with err set). APLAN_HOST_USAGE with err set, prefixed with command, for an empty
 * list, an empty or overlong name, or a trailing comma; else found's first failure. */
typedef int (*aplan_host_name_found)(void *state, const char *command, const char *name, aplan_host_error *err);
int aplan_host_each_list_name(const char *command, const char *list, aplan_host_name_found found, void *state,
                              aplan_host_error *err);
/* APLAN_HOST_OK, or APLAN_HOST_BAD_INPUT with the broken rule in err: the input is checked once, not per strategy. */
int aplan_host_check_problem(const aplan_host_session *s, aplan_host_error *err);
/* APLAN_HOST_OK, or APLAN_HOST_BAD_INPUT when fixed buffers share bytes without --allow-alias (err set, naming
 * the pair found first: the earliest step where two clash); APLAN_HOST_INTERNAL when out of memory. */
int aplan_host_check_fixed(const aplan_host_session *s, aplan_host_error *err);
/* Called for a pair of fixed buffers i < j that share bytes [lo, hi) while both are live; false stops the search. */
typedef bool (*aplan_host_pair_found)(void *state, size_t i, size_t j, uint64_t lo, uint64_t hi);
/* Every such pair of the (valid) problem, each once, in step order (the step where the later one starts), until
 * found returns false: the library's aplan_overlaps over the fixed buffers alone, which stops there, so
 * O(n + f log f + pairs met x log f) for f fixed buffers, and nothing when none is fixed. 8 bytes per buffer and
 * aplan_overlaps' scratch (at most 32 per buffer), freed on return. false only when out of memory (no pair was
 * reported). */
bool aplan_host_fixed_pairs(const aplan_host_session *s, aplan_host_pair_found found, void *state);
/* How many such pairs the (valid) problem has, counted without listing them: aplan_verify over the fixed buffers
 * alone, planned at their offsets with aliasing allowed, so O(n + f log f) however many pairs there are (O(f^2) if
 * the verifier's scratch cannot be had: its pairwise path). Saturates at SIZE_MAX (32-bit builds), as the verifier's
 * count does. 48 bytes per buffer and the verifier's scratch (at most 32 per buffer), freed on return. false only
 * when out of memory (*count is then 0). */
bool aplan_host_fixed_alias_count(const aplan_host_session *s, size_t *count);
/* Fill s->bound and s->bound_step (capacity aside). APLAN_HOST_INTERNAL on out of memory, BAD_INPUT otherwise. */
int aplan_host_compute_bound(aplan_host_session *s, aplan_host_error *err);
/* Fill s->runs from a -s list (NULL, "all", "auto" or names). NULL and all take every built-in strategy that
 * applies to the input: offline only when every buffer has a fixed offset, and then offline alone (any other
 * strategy must keep those offsets). auto takes the same less the searching ones (aplan_host_auto_search adds its
 * search after). APLAN_HOST_USAGE for a bad name (err set). */
int aplan_host_select_strategies(const char *list, aplan_host_session *s, aplan_host_error *err);
/* Plan with run->strategy through aplan_plan_search and verify the plan independently (run->offsets allocated here,
 * count + 1 entries, freed by aplan_host_session_free); failures end up in run->status and run->error. A strategy that
 * does not search plans with the capacity aside and the capacity is applied after, so a plan above it (even one above a
 * bound that already exceeds it) is still shown with its size: status APLAN_E_CAPACITY_EXCEEDED, planned; a heuristic
 * with a search member (the greedy family) is stopped at run->deadline_ms all the same (outcome BEST_FOUND: its rule
 * cut short, the rest stacked above), except with a time limit of 0, which leaves heuristics to finish. A searching one
 * gets goal FIT with the capacity when there is one (APLAN_E_CAPACITY_EXCEEDED then comes with outcome INFEASIBLE,
 * proven, or BEST_FOUND, the time ran out), else goal MINIMISE; it starts from run->start when set and stops at
 * run->deadline_ms, or after the time limit. */
void aplan_host_run_one(aplan_host_session *s, aplan_host_run *run);
/* `plan`'s runs, after aplan_host_select_strategies, under one deadline counted from t0_ms (aplan_host_clock_ms,
 * taken before the checks): the runs that cannot be stopped first, then the heuristics a deadline can cut short,
 * then the searches with what is left (a stoppable run whose turn comes after the deadline is not run once some plan
 * is there: its error says so); auto's search after (aplan_host_auto_search); for a model with tflm, TFLM's own
 * planner (aplan_host_compute_tflm_arena) and the figures of the smallest plan (aplan_host_compute_tflm_figures).
 * Returns the run to show: the smallest plan, or auto's search when it fits and is no larger; NULL when none
 * planned. s->best is set to it when its status is APLAN_OK (it fits). Stops early when s->interrupt says so. */
const aplan_host_run *aplan_host_run_strategies(aplan_host_session *s, double t0_ms, bool tflm);
/* -s auto with a best plan: keep only s->best's run (the table and JSON show it alone); nothing otherwise. */
void aplan_host_keep_best(aplan_host_session *s);
/* A .tflite input with a capacity: the capacity is TFLM's whole arena's (settings.whole_capacity), the strategies
 * get what it leaves the planned section after TFLM's persistent data. Nothing for other inputs. */
void aplan_host_whole_arena_capacity(aplan_host_session *s);
/* -s auto, after its cheap runs (started at t0_ms, aplan_host_clock_ms): when the best of them is above the lower
 * bound, or none planned, the time limit is not 0, some time of it is left and the build has `exact`, run exact from
 * that plan (or from none) for the time left (goal MINIMISE, or FIT when there is a capacity that no cheap plan fits
 * but the bound does), appended to s->runs. Nothing otherwise. */
void aplan_host_auto_search(aplan_host_session *s, double t0_ms);
/* The session's best plan is proven optimal: its arena equals the bound, or a search of the same problem proved
 * that no plan is smaller (a run with outcome OPTIMAL and the same arena). false when there is no best plan. */
bool aplan_host_best_proven(const aplan_host_session *s);
/* What a run's plan is known to be, as the table and the HTML page say it: "optimal", "fits", "best found",
 * "infeasible", "plan" (a plan, nothing proven beyond the bound beside it), or "-" (no plan and nothing proven). */
const char *aplan_host_outcome_word(const aplan_host_run *run);
/* The same as JSON says it: "optimal", "fits", "best_found", "infeasible", "plan", or NULL (null). */
const char *aplan_host_outcome_key(const aplan_host_run *run);
/* A time limit (nanoseconds) as a decimal number of seconds, as --time-limit takes it: "1", "0.5", "0" (at most 9
 * decimals, no trailing zeros). */
void aplan_host_seconds_text(uint64_t ns, char *out, size_t out_size);
/* The run with the smallest plan, within the capacity or not (the first on ties: a search that proves a heuristic's
 * arena optimal proves it for every plan of that size, aplan_host_best_proven); NULL when none planned. */
/* Why a search's plan is BEST_FOUND, in words (no trailing period): its time limit ran out, a group was too large to
 * search (aplan_result.unsearched), or both. Writes text (size bytes, truncated) and returns it. */
const char *aplan_host_unproven_reason(const aplan_host_session *s, const aplan_host_run *run, char *text, size_t size);
const aplan_host_run *aplan_host_smallest_plan(const aplan_host_session *s);
/* What the searches given the capacity found out about it: the first run that proved no plan fits (*proof), and the
 * first that ran out of time before finding one (*ran_out); NULL when there is none. */
void aplan_host_capacity_verdicts(const aplan_host_session *s, const aplan_host_run **proof,
                                  const aplan_host_run **ran_out);
/* The buffers live at step with a non-zero planned size: returns how many, sets *bytes to their planned sizes' sum
 * and fills largest[0..min(k, count)) with the indices of the largest, largest first (ties: lower index first). */
size_t aplan_host_live_at(const aplan_host_session *s, uint64_t step, size_t *largest, size_t k, uint64_t *bytes);
/* aplan_verify with scratch from the heap; without memory it takes the pairwise path, which needs none. */
aplan_status aplan_host_verify(const aplan_problem *p, const uint64_t *offsets, uint64_t arena, aplan_report *r);
/* A failed report in words, naming its buffers by id: "detail: buffer 3 is 'x' (line 5)". */
void aplan_host_describe_report(const aplan_host_input *in, aplan_status status, const aplan_report *r, char *out,
                         size_t out_size);
/* Free what the session allocated (not the input). */
void aplan_host_session_free(aplan_host_session *s);


/* A writer of a format: the session s (the loaded input, the settings, every run) to out. run is the plan a format of
 * one plan writes (never NULL for those), and for a format of the whole session the best plan or NULL; o gives the
 * settings a format takes (the C header's name). Returns APLAN_HOST_OK; APLAN_HOST_IO when a write failed (err
 * untouched: the caller names the file, ferror(out) tells); or another kind with err set. */
typedef int aplan_host_writer(FILE *out, const aplan_host_session *s, const aplan_host_run *run,
                              const aplan_host_options *o, aplan_host_error *err);
/* A writer of a format in region mode (s->regions.count > 0): every region run of s, the best one
 * (s->regions.best) when the format shows one plan. Returns as aplan_host_writer. */
typedef int aplan_host_region_writer(FILE *out, const aplan_host_session *s, const aplan_host_options *o,
                                     aplan_host_error *err);

/* input.c */
/* Load path (its bytes, recognised by content, at most max_size of them: see aplan_host_read_file) into in.
 * APLAN_HOST_OK, or an exit code with message filled. */
int aplan_host_load(const char *path, uint64_t max_size, aplan_host_input *in, char *message, size_t message_size);
/* The same from bytes already read; name is what messages and in->name call them. data stays the caller's. */
int aplan_host_load_bytes(const char *name, const char *data, size_t size, aplan_host_input *in, char *message,
                          size_t message_size);
/* The same for bytes that must be a .tflite model, whatever they hold (no detection by content): the model's
 * tensors, ids, names and steps, data staying the caller's. APLAN_HOST_OK; APLAN_HOST_BAD_INPUT with message filled
 * (a file cut short first, else the byte: "NAME: byte B: why") and *status (when not NULL) the reader's status;
 * APLAN_HOST_INTERNAL ("out of memory", APLAN_E_OUT_OF_MEMORY). The Python package reads its models with it.
 * O(size). */
int aplan_host_load_tflite(const char *name, const char *data, size_t size, aplan_host_input *in, char *message,
                           size_t message_size, aplan_status *status);
/* True iff data holds a .tflite flatbuffer (identifier "TFL3" at bytes 4..7). */
bool aplan_host_is_tflite(const char *data, size_t size);
/* NULL when data may be a CSV table (its first non-blank line, after a UTF-8 byte order mark, is ASCII text with a
 * comma, or there is no such line: the parser then says the input is empty); else why it cannot be one. */
const char *aplan_host_not_csv(const char *data, size_t size);
/* Read path ("-": standard input) whole into *data (size bytes, the caller frees). Returns APLAN_HOST_OK; APLAN_HOST_IO
 * when it cannot be opened or read (message: "cannot open|read PATH: REASON"); APLAN_HOST_TOO_LARGE when it holds more
 * than max_size bytes, found from the size of a regular file before reading, and for a pipe or a device once
 * max_size + 1 bytes have come (memory and time bounded by max_size); APLAN_HOST_BAD_INPUT when a pipe or a device
 * gives more than 64 KiB and its first 64 KiB hold a NUL byte but no "TFL3" at bytes 4..7, which no reader accepts
 * (so /dev/zero stops there);
 * APLAN_HOST_INTERNAL when out of memory. Nothing to free on failure. */
int aplan_host_read_file(const char *path, uint64_t max_size, char **data, size_t *size, char *message,
                  size_t message_size);
void aplan_host_input_free(aplan_host_input *in);
/* A CSV problem in the lower,upper form whose lifetimes look inclusive or empty gets a warning, "aplan: warning: ..."
 * lines written to out (the plan is made from them as they are): rows whose lower equals upper (never live; the count
 * and the first three by id and line), and, with two or more live buffers, that no two of them share a step; then that
 * upper is exclusive and how to give inclusive ends (the start,end columns). Nothing for other inputs. O(n), or O(n log
 * n) with 16 bytes a live buffer when the rows are not in order of lower; out of memory skips the second check. Returns
 * whether there is a warning; out NULL writes nothing (the question alone). */
bool aplan_host_warn_lifetimes(FILE *out, const aplan_host_input *in);
/* Describe buffer i for messages: "buffer 3 'id' (line N)", "buffer 3 's0t7'", or "buffer 3" when out of range. */
void aplan_host_describe_buffer(const aplan_host_input *in, size_t i, char *out, size_t out_size);
/* Buffer i's name as display text: the tensor's name when the input gives one, else its id (a CSV id, the example's
 * name). Valid while in is. */
const char *aplan_host_buffer_name(const aplan_host_input *in, size_t i);

/* example.c: the built-in network, lifetimes by TFLM's rules. */
int aplan_host_example(aplan_host_input *in);
/* The operators of in (the example, as aplan_host_example loaded it), one line per step, for `aplan example --graph`:
 * the listing aplan_host_write_graph writes for a model. */
void aplan_host_example_describe(FILE *out, const aplan_host_input *in);

/* graph.c: the operators of a model step by step (`aplan graph`, `aplan example --graph`). */
/* A tensor an operator reads or writes, as a line of the listing shows it. */
typedef struct aplan_host_graph_tensor {
    const char *name;     /* display text */
    const char *id;       /* the buffer's id when the tensor is planned and its id differs from name; else NULL */
    uint64_t bytes;
    bool constant;        /* constant data (weights): counted, not named */
} aplan_host_graph_tensor;
/* The listing's opening lines: what it lists and how to read it. */
void aplan_host_graph_heading(FILE *out, const char *name, size_t operators, size_t subgraphs, size_t steps);
/* One line: the step, what runs at it (indented by depth), its inputs and its outputs. */
void aplan_host_graph_line(FILE *out, size_t step, uint32_t depth, const char *what,
                           const aplan_host_graph_tensor *inputs, size_t input_count,
                           const aplan_host_graph_tensor *outputs, size_t output_count);
/* The listing of a loaded .tflite input whose bytes are model (size bytes): one line per step of in->steps, with
 * each operator's input and output tensors (aplan_tflite_operator, aplan_tflite_tensor). APLAN_HOST_OK, or an exit
 * code with err set. */
int aplan_host_write_graph(FILE *out, const aplan_host_input *in, const char *model, size_t size,
                           aplan_host_error *err);

/* tflm.c: TFLM's whole arena for a .tflite input. */
/* The TFLM build o describes: the ABI (--abi, else the target's, else 32) and the kernels (--kernels, default the
 * reference ones; CMSIS-NN for the target's instruction set, portable C without a target). APLAN_HOST_OK, or
 * APLAN_HOST_USAGE with message filled (CMSIS-NN on a target the model does not cover it for). */
int aplan_host_tflm_config(const aplan_host_options *o, aplan_tflm_config *c, char *message, size_t message_size);
/* "reference kernels", "CMSIS-NN kernels (portable C)" or "CMSIS-NN kernels (DSP)". */
const char *aplan_host_tflm_kernels_text(const aplan_tflm_config *c);
/* Append the kernels' scratch requests of a .tflite input (aplan_tflm_scratch_requests for c) to its buffers, after
 * the tensors (in->tensor_count stays), with ids s<subgraph>o<operator>r<request>; requests for another build are
 * replaced. Nothing for other inputs. APLAN_HOST_OK, or an exit code with message filled ("NAME: byte B: why") and
 * *status (when not NULL) the library's status that failed. The CLI and the Python package add them through it. */
int aplan_host_add_tflm_scratch(aplan_host_input *in, const aplan_tflm_config *c, char *message, size_t message_size,
                                aplan_status *status);
/* TFLM's own planner on the input as it is: run greedy_by_size_tflm (TFLM's GreedyMemoryPlanner, which keeps fixed
 * offsets as TFLM does) and set s->tflm_arena to its section (0 when that strategy is not built or cannot plan it)
 * and, for a model, s->tflm_own to TFLM's whole arena with it (or its status and why, when it cannot be had). */
void aplan_host_compute_tflm_arena(aplan_host_session *s);
/* The section TFLM's greedy planner makes of a model carrying offsets' tensor offsets as its offline plan (it places
 * the kernels' scratch around them); 0 when it cannot be computed. */
uint64_t aplan_host_tflm_embedded_section(const aplan_host_session *s, const uint64_t *offsets);
/* The same, with every buffer's offset into placed (in->count entries): the tensors' from offsets, the kernels' scratch
 * buffers' where TFLM's greedy planner puts them; placed unspecified when it returns 0. */
uint64_t aplan_host_tflm_embedded_plan(const aplan_host_session *s, const uint64_t *offsets, uint64_t *placed);
/* TFLM's whole arena (its own planner in the arena) for a planned section of `section` bytes whose tensors' own plan is
 * not known: what `verify` judges a model's plan by. false, with f->why, when it cannot be computed or TFLM refuses
 * the model. */
bool aplan_host_tflm_section_figures(const aplan_host_session *s, uint64_t section, aplan_host_tflm_figures *f);
/* "smallest arena N; arena_used_bytes() U = ..." of f, to out. */
void aplan_host_write_tflm_sum(FILE *out, const aplan_host_tflm_figures *f);
/* aplan_tflite_embed of a model's input (in->model) with offsets for its tensors, its scratch from the heap (freed
 * before it returns): out NULL and capacity 0 is the size query, which makes every check the write makes, so
 * `plan` asks it before advising `aplan embed`. APLAN_E_OUT_OF_MEMORY (e->message says so) when malloc fails. */
aplan_status aplan_host_embed(const aplan_host_input *in, const uint64_t *offsets, void *out, size_t capacity,
                              size_t *size, aplan_tflite_embed_info *info, aplan_format_error *e);
/* A planning session's first steps for the strategies of list (-s syntax): the problem's and the fixed buffers'
 * checks, the lower bound, the strategies chosen. APLAN_HOST_OK or the failure's kind, err filled. */
int aplan_host_prepare(aplan_host_session *s, const char *list, aplan_host_error *err);
/* Why a session whose runs (aplan_host_run_strategies, which returned smallest) give no plan within the capacity has
 * none, as the CLI says it: NO_FIT (the bound, a search's proof or time, the smallest plan's excess), else BAD_INPUT,
 * or INTERNAL when a strategy ran out of memory, with one line "  STRATEGY: ERROR" per run after the first. Returns
 * err->kind. */
int aplan_host_no_plan(const aplan_host_session *s, const aplan_host_run *smallest, aplan_host_error *err);

/* `verify` (verify.c). The offsets of a plan file (plan, loaded from path) for problem: its rows matched by id
 * (O(n), or O(n log n) when the rows are in another order; a .tflite plan gives its offline offsets) into offsets
 * (problem->count entries; APLAN_NO_OFFSET for a buffer the plan omits) and row_of (NULL: not wanted; the plan's row
 * of each buffer, SIZE_MAX when omitted). BAD_INPUT for a CSV without offsets, a row not in the problem or one whose
 * size or steps differ; INTERNAL out of memory; err filled as `aplan verify` says it. */
int aplan_host_plan_offsets(const char *path, const aplan_host_input *plan, const aplan_host_input *problem,
                            uint64_t *offsets, size_t *row_of, aplan_host_error *err);
/* A model's offline plan (plan, read from path) over s's problem, offsets from aplan_host_plan_offsets: none at all is
 * BAD_INPUT; the kernels' scratch buffers, which no offline plan holds, get where TFLM's planner puts them around the
 * tensors (every buffer's offset out); INTERNAL when they cannot be placed. */
int aplan_host_offline_plan(const char *path, const aplan_host_input *plan, const aplan_host_session *s,
                            uint64_t *offsets, aplan_host_error *err);

/* With regions: each of the problem's n buffers' region (region_of) from the plan's `region` column, by name (row_of
 * from aplan_host_plan_offsets); a buffer the plan omits is in the first region it may use (the verifier then
 * says it is unplaced). BAD_INPUT, naming the line, for a row with no region or one not among g's. */
int aplan_host_plan_regions(const char *path, const aplan_host_input *plan, const aplan_host_region_session *g,
                            size_t n, const size_t *row_of, uint32_t *region_of, aplan_host_error *err);

/* `embed` (embed.c): a model with a plan as its offline plan. */
enum {
    APLAN_HOST_EMBED_REPLAN = 1u << 0, /* --replan: the model's own offline plan is ignored, every tensor planned */
    APLAN_HOST_EMBED_FORCE = 1u << 1   /* --force: written even when TFLM's arena grows with it (grows says so) */
};
typedef struct aplan_host_embedding {
    aplan_host_progress *progress; /* set by the caller before the call (NULL: none): the session's progress */
    void *progress_state;
    bool (*interrupt)(void *state); /* set by the caller (NULL: none): the session's interrupt; once it said stop the
                                       call fails (INTERNAL, "NAME: interrupted") */
    void *interrupt_state;
    aplan_host_input in;           /* the model with its kernels' scratch */
    aplan_host_session s;          /* bound, runs, s.tflm_arena and s.tflm_own before, s.tflm_embed_section and
                                      s.tflm_embed after */
    const aplan_host_run *run;     /* the plan embedded: one of s.runs, or given */
    aplan_host_run given;          /* the caller's plan as a run (offsets owned) */
    void *model;                   /* the model with the plan: size bytes (malloc; freed with the embedding) */
    size_t size;
    aplan_tflite_embed_info info;  /* replaced: the model had an offline plan; planned_count of tensor_count */
    bool grows;                    /* with FORCE: TFLM's arena grows (s.tflm_own.info.used -> s.tflm_embed.info.used) */
    bool loaded, started;
} aplan_host_embedding;
/* `aplan embed` on a model's bytes (data, size, named name; data must outlive e), with the settings o and flags
 * (APLAN_HOST_EMBED_*): the model loaded with its kernels' scratch, TFLM's own arena before, then the strategies of
 * o->strategies (NULL: auto) and of their plans the one with the smallest section once TFLM places the scratch, or
 * with offsets (offset_count of them, which must be in->count (else USAGE): the tensors' then the scratch requests',
 * as a plan of the model gives them) that plan, of strategy (NULL: offline); refused (NO_FIT) when TFLM's arena would
 * be larger unless FORCE. APLAN_HOST_OK with e filled (free with aplan_host_embedding_free), or the kind and err,
 * exactly `aplan embed`'s exit code and message (e then holds nothing). */
int aplan_host_embed_model(const char *name, const char *data, size_t size, const aplan_host_options *o,
                           unsigned flags, const uint64_t *offsets, size_t offset_count, const char *strategy,
                           aplan_host_embedding *e, aplan_host_error *err);
/* `aplan embed`'s report of e, the new model named written: the planned section and TFLM's arena before and after. */
void aplan_host_write_embed_result(FILE *out, const aplan_host_embedding *e, const char *written);
/* Frees what e holds (the caller's progress and interrupt kept). */
void aplan_host_embedding_free(aplan_host_embedding *e);
/* From plan (NULL: none): s->tflm_embed_section, s->tflm_embed, s->tflm_compiled and s->tflm_adapter. */
void aplan_host_compute_tflm_figures(aplan_host_session *s, const aplan_host_run *plan);
/* The known figures of s with the smallest arena (own, embedded, adapter: the first on ties); NULL when none. */
const aplan_host_tflm_figures *aplan_host_tflm_smallest(const aplan_host_session *s);
/* The setup the verdict, the exit code and the advice all judge, so that the arena a user is told to set is the one
 * that setup needs: TFLM's own planner (TFLM as it comes) when it fits the whole capacity or none was given; else the
 * way that fits with the smallest arena (embedded before the adapter on a tie; the adapter only for a plan it makes,
 * not a search's); when nothing fits, TFLM's own planner again. NULL when no figures are known. */
const aplan_host_tflm_figures *aplan_host_tflm_setup(const aplan_host_session *s);
/* "TFLM's own planner", "this plan embedded" or "the adapter": which of s's figures f is. */
const char *aplan_host_tflm_way(const aplan_host_session *s, const aplan_host_tflm_figures *f);
/* JSON's key for f, one of s's three: "own_planner", "embedded", "adapter". */
const char *aplan_host_tflm_setup_key(const aplan_host_session *s, const aplan_host_tflm_figures *f);
/* What the kernels' scratch adds to f's planned tensors, as a magnitude into *bytes: true when it adds, false when the
 * section is that much smaller than the tensors' own plan (the planner packed them tighter among the scratch). */
bool aplan_host_tflm_scratch_adds(const aplan_host_tflm_figures *f, uint64_t *bytes);
/* "planned tensors P + kernels' scratch S + persistent T" of f (or "planned section N (tensors and kernels'
 * scratch)" when the tensors' own plan is not known), to out: the parts of arena_used_bytes(). */
void aplan_host_write_tflm_parts(FILE *out, const aplan_host_tflm_figures *f);
/* The report's "TFLM arena" lines: each known way's whole arena, its parts and the smallest arena; for a model whose
 * arena with TFLM's own planner cannot be computed, one line saying why. */
void aplan_host_write_tflm_lines(FILE *out, const aplan_host_session *s);
/* The line naming the first operator the model does not know (nothing when info has none). */
void aplan_host_write_tflm_unknown(FILE *out, const aplan_host_session *s, const aplan_tflm_arena_info *info);
/* What a whole arena of capacity bytes leaves the planned section of a .tflite input: capacity less TFLM's
 * persistent data (0 when that alone does not fit); capacity itself for other inputs, or when unknown. */
uint64_t aplan_host_tflm_section_capacity(const aplan_host_session *s, uint64_t capacity);
/* Print why f cannot be computed (naming the input); APLAN_HOST_INTERNAL when out of memory, else APLAN_HOST_BAD_INPUT
 * (the arena passes 2^64 - 1, TFLM's planner cannot plan the model, or it is not built). */
int aplan_host_tflm_failure(const aplan_host_session *s, const aplan_host_tflm_figures *f, aplan_host_error *err);
/* `aplan arena`: the breakdown of the whole arena by part and by operator. */
int aplan_host_write_tflm_breakdown(FILE *out, const aplan_host_session *s, aplan_host_error *err);


/* targets.c */
typedef struct aplan_host_target {
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
    /* its memory map, fastest first, for `plan --target` (region mode); NULL for a preset of one RAM. ram is then the
     * largest region: one arena in one memory */
    const aplan_host_region_spec *regions;
    size_t region_count;
    const char *why_regions;        /* where the map's usable sizes come from */
} aplan_host_target;
size_t aplan_host_target_count(void);
const aplan_host_target *aplan_host_target_at(size_t i);
/* The preset named name, case aside ("Cortex-M4" is cortex-m4); NULL when there is none. */
const aplan_host_target *aplan_host_target_find(const char *name);

/* text.c: text as every output shows it. */
/* Arena over bound in percent; 0 when the bound is 0. */
double aplan_host_overhead_percent(uint64_t arena, uint64_t bound);
/* The plural ending of the noun after a count n: "" when n is 1, else "s" ("1 buffer", "0 buffers", "2 bytes"). Every
 * count the tool prints goes through it. */
const char *aplan_host_s(uint64_t n);
/* Text from files (tensor names, custom operator codes: any bytes, NULs included) is shown the same way in every
 * output: a valid UTF-8 sequence (RFC 3629) of a character XML allows stands for itself; every other byte (invalid
 * UTF-8, a control character, DEL, U+FFFE/U+FFFF) becomes the four characters \xHH. */
/* The bytes at s (avail > 0 of them) that stand for themselves: 1 to 4, or 0 when s[0] is shown as \xHH. */
size_t aplan_host_shown_length(const unsigned char *s, size_t avail);
/* The display text of size bytes at data, NUL-terminated, owned by the caller (free); NULL when out of memory. For
 * text the user gave (a path); a name from a file goes through aplan_host_name_text. O(size). */
char *aplan_host_display_text(const char *data, size_t size);
/* The text of the name of size bytes at data, as a aplan_host_name whose text the caller owns (free((char *)text));
 * text NULL when out of memory. Reads at most APLAN_HOST_TEXT_MAX + 4 bytes of data: O(1) time and memory, whatever
 * size. */
aplan_host_name aplan_host_name_text(const char *data, size_t size);
/* The name of size bytes at data (not NULL), made by aplan_host_name_text on its first look-up and the same
 * aplan_host_name after (the text is the table's: valid until aplan_host_names_free). false when out of memory (*name
 * untouched). Amortised O(1) time a look-up; memory at most APLAN_HOST_NAME_TEXT_MAX + 1 + 2 *
 * sizeof(aplan_host_name_slot) bytes per distinct position. */
bool aplan_host_names_get(aplan_host_names *names, const char *data, size_t size, aplan_host_name *name);
/* Free every text and the table; names is all-zero after. */
void aplan_host_names_free(aplan_host_names *names);
/* Raw text s (an id or a path as the file or command line gave it: any bytes) as display text, whole: what
 * aplan_host_display_text would make of it, written without a copy. Returns its characters (out NULL: measures only).
 * */
size_t aplan_host_write_shown(FILE *out, const char *s);
/* Characters (code points) in display text: its width on a terminal, wide characters aside. */
size_t aplan_host_text_width(const char *s);
/* Names longer than this many characters are shortened in the table, `bound` and the graph listing (never in CSV,
 * JSON or the pictures): "..." then their end, from a '/' when one is near, since a TensorFlow scope path's end
 * tells tensors apart. */
#define APLAN_HOST_NAME_SHOWN 48u
/* Write display text s, shortened to at most max characters; returns the characters written (out NULL: would
 * write, writing nothing). */
size_t aplan_host_write_short(FILE *out, const char *s, size_t max);
/* Where aplan_host_write_short's shortened text resumes after its "...": a suffix of s; NULL when s fits in max
 * characters. */
const char *aplan_host_short_tail(const char *s, size_t max);
/* Buffer i as the table shows it: "name (id)", with the name shortened, or the id alone when the input has no other
 * name for it; padded with spaces to width characters. Returns the characters before padding (out NULL: measures). */
size_t aplan_host_write_buffer_label(FILE *out, const aplan_host_input *in, size_t i, size_t width);
/* One line per buffer of which[0..count): label, planned size, steps, and type and shape when known, in columns
 * (`bound`'s listing and the verdict's largest buffers at the peak). */
void aplan_host_write_buffer_rows(FILE *out, const aplan_host_session *s, const size_t *which, size_t count);
/* "INT8 [1x48x48x16]" ("[]": a scalar), the type or the shape alone when only one is known, "" when neither. */
void aplan_host_tensor_text(const aplan_host_input *in, size_t i, char *out, size_t out_size);
/* The name of step s's operator: s->op_name, or for a code the reader does not know "operator code N" written
 * into buf (size bytes); "" for steps 0 and 1. */
const char *aplan_host_op_name(const aplan_host_step *s, char *buf, size_t size);
/* What runs at step: "CONV_2D (op 28 of subgraph 0)", "the inputs of subgraph 0", "start, before any operator",
 * "entering subgraph 2 from WHILE (op 3 of subgraph 0)". false (out "") when the input has no such step (CSV). */
bool aplan_host_describe_step(const aplan_host_input *in, uint64_t step, char *out, size_t out_size);
/* What the arena figures cover, for the heading and JSON's "covers": the section the figures are of (with the
 * buffer count in it), and what a runtime adds on top that the input cannot show (NULL: nothing). For a model, the
 * figure is only TFLM's planned section: sizing firmware from it alone fails in AllocateTensors. */
typedef struct aplan_host_coverage_text {
    const char *section;      /* JSON's "section": "tflm_planned" or "input_buffers" */
    char what[240];
    const char *not_included; /* static text, or NULL */
} aplan_host_coverage_text;
void aplan_host_coverage(const aplan_host_session *s, aplan_host_coverage_text *c);
/* "smallest arena M; arena_used_bytes() N = planned tensors P + kernels' scratch S + persistent T" of f (the report's
 * "TFLM arena" line, " (at least)" after M with operators the model does not know) as ASCII text into out (size
 * bytes, NUL-terminated; cut short when it does not fit). false when it cannot be made (out of memory). */
bool aplan_host_tflm_sum_text(char *out, size_t size, const aplan_host_tflm_figures *f);
/* Up to this many of the peak step's largest buffers are named when a plan does not fit (the table's verdict,
 * JSON's "peak"). */
#define APLAN_HOST_PEAK_SHOWN 3u

/* json.c: s as a JSON string of display text (every byte not shown as itself is the text \xHH): valid UTF-8 whatever
 * bytes an id or a path holds. */
void aplan_host_json_string(FILE *out, const char *s);
/* The writers of the formats' table. table.c: the comparison table; json.c; export.c: one plan for other tools as
 * CSV, and as a C header whose identifiers start with --name (macros upper-cased; default aplan); svg.c: the
 * pictures. */
aplan_host_writer aplan_host_write_table, aplan_host_write_json, aplan_host_write_csv, aplan_host_write_c,
    aplan_host_write_svg, aplan_host_write_html;
/* regions.c: region mode (--region, or a --target with a memory map). */
/* The regions o asks for (its --region, else its target's memory map) into *specs (may be NULL): how many; 0 for
 * one arena. */
size_t aplan_host_option_regions(const aplan_host_options *o, const aplan_host_region_spec **specs);
/* As aplan_host_check_strategy_list for the region strategies (<aplan/regions.h>): all, auto (select) or their names.
 * */
int aplan_host_check_region_strategy_list(const char *command, const char *list, aplan_host_error *err);
/* The C header with regions (o's --region, or its target's map): APLAN_HOST_OK, or APLAN_HOST_USAGE with err set,
 * prefixed with command, naming both, when two regions' names would make the same macro of the header (a name
 * beside another's _SIZE or _ALIGNMENT, names that differ only in '.', '-' and '_') or one would make a fixed one
 * (PREFIX_REGION_COUNT, the guard PREFIX_REGION_PLAN_H), whatever --name: the header would define it twice with
 * different values. O(regions^2). */
int aplan_host_check_region_c_names(const char *command, const aplan_host_options *o, aplan_host_error *err);
/* Region mode for s (aplan_host_session_init'd over a loaded input): o's regions into s->regions, TFLM's persistent
 * data of a model reserved (aplan_host_tflm_reserve_persistent), each buffer's uses and pins (a CSV's region column)
 * loaded, the problem and its regions checked (aplan_regions_validate, the rule in words). APLAN_HOST_OK, or
 * APLAN_HOST_BAD_INPUT, APLAN_HOST_NO_FIT (a buffer or TFLM's persistent data larger than every region it may use) or
 * APLAN_HOST_INTERNAL with err set. `plan` and `verify` both start region mode with it. */
int aplan_host_region_setup(const aplan_host_options *o, aplan_host_session *s, aplan_host_error *err);
/* After aplan_host_region_setup: the bounds, then every region strategy of o's -s list (checked before with
 * aplan_host_check_region_strategy_list) with the time limit, each stopped at deadline (aplan_host_clock_ms) and
 * its plan verified independently; g->best the best (fits first, then the least traffic). APLAN_HOST_OK (whether or
 * not a plan fits: the runs say), or APLAN_HOST_BAD_INPUT / APLAN_HOST_INTERNAL with err set when the bounds cannot
 * be had. */
int aplan_host_region_plan(const aplan_host_options *o, aplan_host_session *s, double deadline, aplan_host_error *err);
/* Free what a region session holds (aplan_host_session_free calls it). */
void aplan_host_region_session_free(aplan_host_region_session *g);
aplan_host_region_writer aplan_host_write_region_table, aplan_host_write_region_json, aplan_host_write_region_c,
    aplan_host_write_region_csv, aplan_host_write_region_svg, aplan_host_write_region_html;
/* example.c: each of the example's buffers' uses (the operators that read or write it) into uses (count). */
void aplan_host_example_uses(uint64_t *uses, size_t count);
/* tflm.c: for a model planned with regions, TFLM's two-arena figures: the persistent arena and the non-persistent
 * one, and how a region plan reaches TFLM (docs/tflm.md, "Several memories"). */
void aplan_host_write_tflm_regions(FILE *out, const aplan_host_session *s);
/* For a model planned with regions: reserve TFLM's persistent data (the persistent arena its two-arena Create needs,
 * TFLM's own planner there) in the slowest region that holds it, before planning, so that the verdict and the exit
 * code count it. APLAN_HOST_OK (also when the figures cannot be had: nothing reserved, the TFLM lines say why);
 * APLAN_HOST_NO_FIT with err set when no region holds it. */
int aplan_host_tflm_reserve_persistent(aplan_host_session *s, aplan_host_error *err);

/* table.c: the report's heading: the input, its settings (and why the alignment is TFLM's despite a target), the
 * lower bound and what the figures cover. `plan`'s table and `bound` open with it. */
void aplan_host_write_heading(FILE *out, const aplan_host_session *s);
/* table.c: with a capacity, the verdict line (no newline), as the table and the pictures say it: "fits: N of C bytes
 * (P% of the capacity); F bytes free", or "does not fit: ..." with by how much the smallest plan, or the bound,
 * misses and what a search proved. false (out "") without a capacity, or when no run planned and the bound fits.
 * out_size APLAN_HOST_VERDICT_SIZE holds any verdict. */
bool aplan_host_verdict(const aplan_host_session *s, char *out, size_t out_size);
#define APLAN_HOST_VERDICT_SIZE 512u


/* report_page.c, which the build generates from report_page.css and report_page.js (report_page.py): the HTML
 * report's style sheet and script, one string per line, NULL-terminated; svg.c writes them into the page. */
extern const char *const aplan_host_report_style[];
extern const char *const aplan_host_report_script[];


#endif
