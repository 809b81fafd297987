/*
 * bench_plan: how planning time grows with the problem, against TFLite Micro's O(n^2) planner in the same run.
 *
 *   bench_plan [options] [FILE.csv ...]          (docs/benchmarks.md: the command, every column, the latest tables)
 *
 * Inputs: the two large shared traces (benchmarks/large/ in meson's shared_dir, or --shared DIR), every CSV file named
 * on the command line (read with <aplan/csv.h>, set up as the CLI sets up CSV: alignment 1 unless a column says
 * otherwise, sizes as given), and generated problems (alignment 16, sizes rounded up to 16, fixed-seed xorshift):
 *   inference  1k, 10k, 100k, 1M: buffer i starts at i/2 + r%3 and lives 1-4 steps, or 20-219 steps one time in 8
 *              (a skip connection); sizes 16 B to 64 KiB. About 50 buffers live at once at most.
 *   hard       1k, 10k, 100k, 1M: buffer i starts at i/2 and lives 1 to 4000 steps (uniform), same sizes: about 4000
 *              live at once once past the first few thousand buffers, each conflicting with thousands of others.
 *   all live   20k and 100k buffers live at the same single step: the worst cases of the issue (greedy, first_fit).
 *
 * For each input: buffers, conflicting pairs (pairs of buffers both live at some step, both of non-zero size: the
 * yardstick, counted in O(n log n) by sorting lowers and uppers and binary search), the most buffers live at once,
 * then the median time of
 *   - each built strategy that does not search (the registry, aplan_strategy_at; a search without a budget need not
 *     end, so searching ones are only in the instance and fit tables) called directly: strategy->plan with the
 *     scratch its scratch_size asked for, offsets pre-filled with APLAN_NO_OFFSET: planning alone, no validation,
 *     bound, verification or I/O;
 *   - the same through aplan_plan: validation + lower bound + strategy + arena + verification;
 *   - aplan_lower_bound alone and aplan_verify alone (on greedy_by_size's plan);
 *   - a transcription of TFLM's GreedyMemoryPlanner with 64-bit sizes, offsets and steps (bubble sort, then a walk over
 *     every placed buffer in offset order for each new one), whose offsets must equal greedy_by_size_tflm's.
 * Then, when the aplan tool is at hand (built beside this program, or --cli PATH), the tool as a whole process on the
 * 1M inference problem written to a temporary CSV and on the traces: wall time and peak RSS (wait4) per buffer.
 *
 * Then (issue 12) every built-in strategy, and "auto", through aplan_plan_search on every shared instance: the models'
 * buffer lists (models/lifetimes/, planned as TFLM plans them), MiniMalloc's instances (benchmarks/minimalloc/) and the
 * large traces, with arena, ratio to the lower bound, time, and for searching strategies (ABI 2, a search member)
 * nodes and outcome; searches get --time-limit seconds (default 10) through a stop callback on CLOCK_MONOTONIC. And
 * the fit table: each searching strategy with goal FIT on A.1048576.csv and B.1048576.csv at capacity 1048576 (and
 * every --fit FILE[:CAPACITY]), median wall and CPU time of 3 runs, nodes, and whether it fit. --only picks parts.
 *
 * Repeats: each measurement runs up to -r times (default 5) and stops repeating once its runs add up to --budget
 * seconds (default 3), so big inputs get fewer runs; the CLI runs at most 3 times under the same budget. Each
 * measurement runs in a child process (fork) killed when a run passes --limit seconds (default 20; for the baseline
 * and the CLI --baseline-limit, default 60): "> 20 s". A measurement whose previous size of the same shape was killed
 * or not run, or whose time there scaled by the size ratio (squared for the O(n^2) baseline) passes the limit, is
 * not run ("–"). Tables go to stdout (--markdown: as markdown),
 * progress to stderr.
 */
#define _DEFAULT_SOURCE /* fork, wait4, mmap, mkstemp, alarm */
#include <glob.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "aplan/aplan.h"
#include "aplan/csv.h"
#include "aplan/strategies.h"

#ifndef APLAN_BENCH_SHARED_DIR /* meson passes its shared_dir option */
#    define APLAN_BENCH_SHARED_DIR "../shared"
#endif
#ifndef APLAN_BENCH_CLI /* meson passes the path of the aplan tool it builds, when it builds one */
#    define APLAN_BENCH_CLI ""
#endif

#define MAX_RUNS 64
#define MAX_ROWS 96
#define MAX_TABLE_ROWS 1024 /* rows of one printed table: the instances table has one per (instance, strategy) */
#define MAX_FILES 64
#define MAX_COLS 20
#define MAX_STRATEGIES 16

#if defined(__GNUC__)
#    define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#    define PRINTF_LIKE(f, a)
#endif

static struct {
    int repeats;      /* -r: runs per measurement at most */
    double budget;    /* --budget: seconds of runs after which a measurement stops repeating */
    unsigned limit;   /* --limit: seconds after which a library run is killed */
    unsigned slow_limit; /* --baseline-limit: the same for the TFLM-style baseline and the CLI */
    size_t max_size;  /* --max-size: largest generated problem */
    const char *shared;
    const char *cli;  /* "" = no CLI table */
    bool markdown;
    double time_limit; /* --time-limit: seconds a searching strategy may search per run */
    bool speed, instances, fit, whole_run; /* --only: which parts run (whole_run: "limit") */
    bool minimise;       /* --only minimise: not part of the default set (it takes minutes) */
    double minimise_limit; /* --minimise-limit: seconds exact may minimise each instance */
} opt = {5, 3.0, 20, 60, 1000000, APLAN_BENCH_SHARED_DIR, APLAN_BENCH_CLI, false, 10.0, true, true, true, true, false,
         120.0};

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void *xmalloc(size_t bytes) {
    void *p = malloc(bytes ? bytes : 1);
    if (p == NULL) {
        fprintf(stderr, "bench_plan: out of memory (%zu bytes)\n", bytes);
        exit(1);
    }
    return p;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Generated problems                                                                                            */

enum shape { SHAPE_FILE, SHAPE_INFERENCE, SHAPE_HARD, SHAPE_ALL_LIVE };

static uint64_t rng;
static uint64_t next(void) { /* xorshift64 */
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Every problem starts from the same seed, so it does not depend on which others ran (a size is a prefix of the next). */
static void generate(aplan_buffer *b, size_t n, enum shape shape) {
    rng = 88172645463325252ull;
    for (size_t i = 0; i < n; i++) {
        uint64_t lower = 0, life = 1;
        if (shape == SHAPE_INFERENCE) {
            lower = i / 2 + next() % 3;
            life = next() % 8 == 0 ? 20 + next() % 200 : 1 + next() % 4;
        } else if (shape == SHAPE_HARD) {
            lower = i / 2;
            life = 1 + next() % 4000;
        }
        b[i] = (aplan_buffer){16 + next() % 65536, lower, lower + life, 0, APLAN_NO_OFFSET};
    }
}

/* ------------------------------------------------------------------------------------------------------------ */
/* The baseline: TFLite Micro's GreedyMemoryPlanner (tensorflow/lite/micro/memory_planner/greedy_memory_planner.cc,
 * AddBuffer and CalculateOffsetsIfNeeded with ReverseSortInPlace, NextSimultaneouslyActiveBuffer and
 * DoesEntryOverlapInTime), transcribed to C with int64_t sizes, offsets and steps (TFLM's int overflows on the traces)
 * and the algorithm unchanged. Lifetimes are TFLM's inclusive [first_time_used, last_time_used] = [lower, upper - 1].
 * As in TFLM, buffers never live are not given to the planner (they get offset 0, as aplan gives them), sizes arrive
 * already rounded by the caller (aplan_buffer_size), and fixed offsets are TFLM's offline offsets.                */

typedef struct {
    int64_t size, offline_offset, first_time_used, last_time_used;
} tflm_requirements;
typedef struct {
    int64_t offset;
    int requirements_index, next_entry_index;
} tflm_list_entry;
typedef struct {
    tflm_requirements *requirements;
    int64_t *buffer_sizes_sorted;
    int *buffer_ids_sorted;
    tflm_list_entry *buffers_sorted_by_offset;
    int64_t *buffer_offsets;
    size_t *aplan_index; /* requirement -> aplan buffer (not TFLM's: the adapter's) */
    int buffer_count, first_entry_index, next_free_entry;
} tflm_planner;
#define TFLM_ONLINE (-1)

static void tflm_init(tflm_planner *t, size_t n) {
    t->requirements = xmalloc(n * sizeof *t->requirements);
    t->buffer_sizes_sorted = xmalloc(n * sizeof *t->buffer_sizes_sorted);
    t->buffer_ids_sorted = xmalloc(n * sizeof *t->buffer_ids_sorted);
    t->buffers_sorted_by_offset = xmalloc(n * sizeof *t->buffers_sorted_by_offset);
    t->buffer_offsets = xmalloc(n * sizeof *t->buffer_offsets);
    t->aplan_index = xmalloc(n * sizeof *t->aplan_index);
    t->buffer_count = 0;
}

static void tflm_add_buffer(tflm_planner *t, int64_t size, int64_t first, int64_t last, int64_t offline) {
    tflm_requirements *r = &t->requirements[t->buffer_count++];
    r->size = size;
    r->first_time_used = first;
    r->last_time_used = last;
    r->offline_offset = offline;
}

static void tflm_reverse_sort_in_place(int64_t *values, int *ids, int size) { /* TFLM's: a bubble sort */
    bool any_swapped;
    do {
        any_swapped = false;
        for (int i = 1; i < size; ++i) {
            if (values[i - 1] < values[i]) {
                const int64_t value_temp = values[i - 1];
                values[i - 1] = values[i];
                values[i] = value_temp;
                const int id_temp = ids[i - 1];
                ids[i - 1] = ids[i];
                ids[i] = id_temp;
                any_swapped = true;
            }
        }
    } while (any_swapped);
}

static bool tflm_overlaps_in_time(const tflm_planner *t, const tflm_list_entry *entry, int64_t first, int64_t last) {
    const tflm_requirements *r = &t->requirements[entry->requirements_index];
    if (r->first_time_used > last) return false;
    if (first > r->last_time_used) return false;
    return true;
}

static tflm_list_entry *tflm_next_active(tflm_planner *t, const tflm_list_entry *start, int64_t first, int64_t last) {
    tflm_list_entry *result = NULL, *candidate;
    if (start == NULL) {
        candidate = &t->buffers_sorted_by_offset[t->first_entry_index];
    } else {
        if (start->next_entry_index == -1) return NULL;
        candidate = &t->buffers_sorted_by_offset[start->next_entry_index];
    }
    do {
        if (tflm_overlaps_in_time(t, candidate, first, last)) {
            result = candidate;
            break;
        }
        if (candidate->next_entry_index == -1) break;
        candidate = &t->buffers_sorted_by_offset[candidate->next_entry_index];
    } while (true);
    return result;
}

static void tflm_calculate_offsets(tflm_planner *t) {
    const int count = t->buffer_count;
    if (count == 0) return;
    int idx_from_tail = count, idx_from_head = 0;
    for (int i = 0; i < count; ++i) {
        if (t->requirements[i].offline_offset == TFLM_ONLINE) {
            idx_from_tail--;
            t->buffer_sizes_sorted[idx_from_tail] = t->requirements[i].size;
            t->buffer_ids_sorted[idx_from_tail] = i;
            t->buffer_offsets[i] = -1;
        } else {
            t->buffer_sizes_sorted[idx_from_head] = t->requirements[i].size;
            t->buffer_ids_sorted[idx_from_head] = i;
            t->buffer_offsets[i] = t->requirements[i].offline_offset;
            idx_from_head++;
        }
    }
    tflm_reverse_sort_in_place(&t->buffer_sizes_sorted[idx_from_head], &t->buffer_ids_sorted[idx_from_head],
                               count - idx_from_head);
    t->first_entry_index = 0;
    t->next_free_entry = 1;
    tflm_list_entry *first_entry = &t->buffers_sorted_by_offset[t->first_entry_index];
    first_entry->next_entry_index = -1;
    int buffer_id = t->buffer_ids_sorted[0];
    first_entry->requirements_index = buffer_id;
    if (t->requirements[buffer_id].offline_offset == TFLM_ONLINE) t->buffer_offsets[buffer_id] = 0;
    first_entry->offset = t->buffer_offsets[buffer_id];

    for (int i = 1; i < count; ++i) {
        buffer_id = t->buffer_ids_sorted[i];
        const tflm_requirements *wanted = &t->requirements[buffer_id];
        const int64_t wanted_size = wanted->size;
        const int64_t wanted_first = wanted->first_time_used, wanted_last = wanted->last_time_used;
        int64_t candidate_offset = 0;
        if (wanted->offline_offset == TFLM_ONLINE) {
            tflm_list_entry *prior_entry = NULL;
            while (true) {
                tflm_list_entry *next_entry = tflm_next_active(t, prior_entry, wanted_first, wanted_last);
                if (prior_entry) {
                    const tflm_requirements *candidate_requirements = &t->requirements[prior_entry->requirements_index];
                    const int64_t prior_entry_offset = prior_entry->offset + candidate_requirements->size;
                    if (prior_entry_offset > candidate_offset) candidate_offset = prior_entry_offset;
                }
                if (next_entry == NULL) break;
                const int64_t gap = next_entry->offset - candidate_offset;
                if (gap >= wanted_size) break;
                prior_entry = next_entry;
            }
        } else {
            candidate_offset = wanted->offline_offset;
        }
        t->buffer_offsets[buffer_id] = candidate_offset;
        tflm_list_entry *new_entry = &t->buffers_sorted_by_offset[t->next_free_entry];
        new_entry->offset = candidate_offset;
        new_entry->requirements_index = buffer_id;
        const int new_entry_index = t->next_free_entry;
        ++t->next_free_entry;
        if (first_entry->offset > candidate_offset) {
            first_entry = new_entry;
            first_entry->next_entry_index = t->first_entry_index;
            t->first_entry_index = new_entry_index;
        } else {
            tflm_list_entry *current_entry = first_entry;
            while (true) {
                const int next_entry_index = current_entry->next_entry_index;
                if (next_entry_index == -1) {
                    current_entry->next_entry_index = new_entry_index;
                    new_entry->next_entry_index = -1;
                    break;
                }
                tflm_list_entry *next_entry = &t->buffers_sorted_by_offset[next_entry_index];
                if (next_entry->offset > candidate_offset) {
                    new_entry->next_entry_index = current_entry->next_entry_index;
                    current_entry->next_entry_index = new_entry_index;
                    break;
                }
                current_entry = next_entry;
            }
        }
    }
}

/* One baseline run, timed whole: the AddBuffer calls (as TFLM's allocator makes them) and the planning. */
static void tflm_plan(tflm_planner *t, const aplan_problem *p, const uint64_t *size, uint64_t *offsets) {
    t->buffer_count = 0;
    for (size_t i = 0; i < p->count; i++) {
        const aplan_buffer *b = &p->buffers[i];
        offsets[i] = 0;
        if (b->lower >= b->upper) continue; /* never live: TFLM plans only the tensors it uses */
        t->aplan_index[t->buffer_count] = i;
        tflm_add_buffer(t, (int64_t)size[i], (int64_t)b->lower, (int64_t)b->upper - 1,
                        b->offset == APLAN_NO_OFFSET ? TFLM_ONLINE : (int64_t)b->offset);
    }
    tflm_calculate_offsets(t);
    for (int k = 0; k < t->buffer_count; k++) offsets[t->aplan_index[k]] = (uint64_t)t->buffer_offsets[k];
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Measurements, each in a child process                                                                         */

enum job_kind { JOB_ALONE, JOB_FULL, JOB_BOUND, JOB_VERIFY, JOB_BASELINE };
typedef struct {
    enum job_kind kind;
    const aplan_strategy *strategy; /* ALONE, FULL */
    const aplan_problem *problem;
    uint64_t *out;                  /* ALONE, BASELINE: offsets, in memory shared with the parent */
    const uint64_t *plan;           /* VERIFY: the plan and its arena */
    uint64_t arena;
    const uint64_t *size;           /* BASELINE: effective sizes */
} job;

typedef struct {
    int runs;
    aplan_status status;
    double ms[MAX_RUNS];
} shared_result;
static shared_result *shared; /* MAP_SHARED: written by the child, read by the parent */

enum cell_state { CELL_NONE, CELL_OK, CELL_SKIPPED, CELL_TIMEOUT, CELL_FAILED, CELL_CRASHED };
typedef struct {
    enum cell_state state;
    double ms; /* median */
    int runs;
    aplan_status status; /* CELL_FAILED */
} cell;

static void *shared_alloc(size_t bytes) {
    void *p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("bench_plan: mmap");
        exit(1);
    }
    return p;
}

static void shared_free(void *p, size_t bytes) { munmap(p, bytes ? bytes : 1); }

static _Noreturn void child(const job *j) {
    const aplan_problem *p = j->problem;
    size_t need = 0;
    aplan_status st = APLAN_OK;
    switch (j->kind) {
    case JOB_ALONE: st = j->strategy->scratch_size(j->strategy, p, &need); break;
    case JOB_FULL: st = aplan_plan_scratch_size(j->strategy, p, &need); break;
    case JOB_BOUND: st = aplan_lower_bound_scratch_size(p, &need); break;
    case JOB_VERIFY: st = aplan_verify_scratch_size(p, &need); break;
    case JOB_BASELINE: break;
    }
    if (st != APLAN_OK) {
        shared->status = st;
        _exit(0);
    }
    void *scratch = xmalloc(need);
    memset(scratch, 0, need); /* touched before timing: page faults are not planning */
    uint64_t *offsets = j->out != NULL ? j->out : xmalloc(p->count * sizeof *offsets);
    memset(offsets, 0, p->count * sizeof *offsets);
    tflm_planner tflm;
    memset(&tflm, 0, sizeof tflm);
    if (j->kind == JOB_BASELINE) tflm_init(&tflm, p->count);
    double total = 0;
    for (int k = 0; k < opt.repeats; k++) {
        aplan_report report;
        aplan_result result;
        uint64_t bound;
        if (j->kind == JOB_ALONE)
            for (size_t i = 0; i < p->count; i++) offsets[i] = APLAN_NO_OFFSET;
        alarm(j->kind == JOB_BASELINE ? opt.slow_limit : opt.limit);
        const double t0 = now();
        switch (j->kind) {
        case JOB_ALONE: st = j->strategy->plan(j->strategy, p, scratch, need, offsets, &report); break;
        case JOB_FULL: st = aplan_plan(j->strategy, p, scratch, need, offsets, &result); break;
        case JOB_BOUND: st = aplan_lower_bound(p, scratch, need, &bound, NULL); break;
        case JOB_VERIFY: st = aplan_verify(p, j->plan, j->arena, scratch, need, NULL); break;
        case JOB_BASELINE: tflm_plan(&tflm, p, j->size, offsets); break;
        }
        const double t1 = now();
        alarm(0);
        shared->ms[k] = (t1 - t0) * 1e3;
        shared->runs = k + 1;
        shared->status = st;
        total += t1 - t0;
        if (st != APLAN_OK || total >= opt.budget || k + 1 == MAX_RUNS) break;
    }
    _exit(0);
}

static int cmp_double(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static cell measure(const job *j) {
    cell c = {CELL_CRASHED, 0, 0, APLAN_OK};
    shared->runs = 0;
    shared->status = APLAN_OK;
    fflush(NULL);
    const pid_t pid = fork();
    if (pid < 0) {
        perror("bench_plan: fork");
        exit(1);
    }
    if (pid == 0) child(j);
    int ws;
    if (waitpid(pid, &ws, 0) != pid) return c;
    if (WIFSIGNALED(ws) && WTERMSIG(ws) == SIGALRM) {
        c.state = CELL_TIMEOUT;
    } else if (WIFEXITED(ws) && WEXITSTATUS(ws) == 0) {
        if (shared->status != APLAN_OK) {
            c.state = CELL_FAILED;
            c.status = shared->status;
        } else if (shared->runs > 0) {
            c.state = CELL_OK;
            c.runs = shared->runs;
            c.ms = median(shared->ms, shared->runs);
        }
    }
    return c;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Inputs                                                                                                        */

typedef struct {
    char name[96];
    char *path; /* files: where it was read (the CLI table reads it again) */
    enum shape shape;
    size_t n;
    bool generated;
    uint64_t pairs, max_live;
    cell alone[MAX_STRATEGIES], full[MAX_STRATEGIES], bound, verify, baseline;
    int same;              /* baseline offsets == greedy_by_size_tflm's: 1, 0, or -1 not compared */
    const char *verified;  /* the strategy whose plan aplan_verify checked */
} row;
static row rows[MAX_ROWS];
static int row_count;
static size_t strategy_count;
static const aplan_strategy *strategies[MAX_STRATEGIES];

static size_t strategy_index(const char *name) {
    for (size_t s = 0; s < strategy_count; s++)
        if (strcmp(strategies[s]->name, name) == 0) return s;
    return SIZE_MAX;
}

static int cmp_u64(const void *a, const void *b) {
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static size_t count_below(const uint64_t *v, size_t m, uint64_t x, bool or_equal) { /* entries < x (or <= x) */
    size_t lo = 0, hi = m;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < x || (or_equal && v[mid] == x)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Conflicting pairs and the most buffers live at once, in O(n log n): buffers j conflicting with i are those with
 * lower_j < upper_i, less those with upper_j <= lower_i (these all have lower_j < upper_i), less i itself. */
static void count_conflicts(const aplan_problem *p, uint64_t *pairs, uint64_t *max_live) {
    uint64_t *lo = xmalloc(p->count * sizeof *lo), *up = xmalloc(p->count * sizeof *up);
    size_t m = 0;
    for (size_t i = 0; i < p->count; i++) {
        if (p->buffers[i].lower >= p->buffers[i].upper || aplan_buffer_size(p, i) == 0) continue;
        lo[m] = p->buffers[i].lower;
        up[m++] = p->buffers[i].upper;
    }
    qsort(lo, m, sizeof *lo, cmp_u64);
    qsort(up, m, sizeof *up, cmp_u64);
    uint64_t sum = 0, most = 0;
    for (size_t i = 0; i < p->count; i++) {
        const aplan_buffer *b = &p->buffers[i];
        if (b->lower >= b->upper || aplan_buffer_size(p, i) == 0) continue;
        sum += count_below(lo, m, b->upper, false) - count_below(up, m, b->lower, true) - 1;
        const uint64_t live = count_below(lo, m, b->lower, true) - count_below(up, m, b->lower, true);
        if (live > most) most = live;
    }
    *pairs = sum / 2;
    *max_live = most;
    free(up);
    free(lo);
}

/* Not run when the same measurement on the previous size of this shape was killed or not run, or when its time there
 * scaled by the size ratio (squared for the quadratic baseline) would pass the limit. */
static bool hopeless(const row *prev, const cell *prev_cell, size_t n, bool quadratic) {
    if (prev == NULL) return false;
    if (prev_cell->state == CELL_TIMEOUT || prev_cell->state == CELL_SKIPPED) return true;
    if (prev_cell->state != CELL_OK) return false;
    const double f = (double)n / (double)prev->n;
    return prev_cell->ms * f * (quadratic ? f : 1.0) > (quadratic ? opt.slow_limit : opt.limit) * 1e3;
}

static const cell skipped = {CELL_SKIPPED, 0, 0, APLAN_OK};

static void progress(const char *what) {
    fprintf(stderr, " %s", what);
    fflush(stderr);
}

static void run_input(row *r, const aplan_problem *p) {
    const double started = now();
    fprintf(stderr, "%s (%zu buffers):", r->name, p->count);
    r->n = p->count;
    r->same = -1;
    count_conflicts(p, &r->pairs, &r->max_live);
    const row *prev = NULL;
    for (int k = 0; k < row_count; k++)
        if (r->shape != SHAPE_FILE && rows[k].shape == r->shape && &rows[k] != r && rows[k].n < r->n) prev = &rows[k];

    const size_t bytes = p->count * sizeof(uint64_t);
    uint64_t *slot[MAX_STRATEGIES + 1];
    for (size_t s = 0; s <= strategy_count; s++) slot[s] = shared_alloc(bytes);
    for (size_t s = 0; s < strategy_count; s++) {
        progress(strategies[s]->name);
        job j = {JOB_ALONE, strategies[s], p, slot[s], NULL, 0, NULL};
        r->alone[s] = hopeless(prev, prev ? &prev->alone[s] : NULL, r->n, false) ? skipped : measure(&j);
        j.kind = JOB_FULL;
        j.out = NULL;
        const bool alone_slow = r->alone[s].state == CELL_TIMEOUT || r->alone[s].state == CELL_SKIPPED;
        r->full[s] = alone_slow || hopeless(prev, prev ? &prev->full[s] : NULL, r->n, false) ? skipped : measure(&j);
    }
    progress("bound");
    const job jb = {JOB_BOUND, NULL, p, NULL, NULL, 0, NULL};
    r->bound = measure(&jb);

    progress("verify");
    static const char *const preferred[] = {"greedy_by_size", "greedy_by_size_tflm", "first_fit", "linear"};
    r->verify.state = CELL_NONE;
    for (size_t k = 0; k < sizeof preferred / sizeof preferred[0]; k++) {
        const size_t s = strategy_index(preferred[k]);
        if (s == SIZE_MAX || r->alone[s].state != CELL_OK) continue;
        uint64_t arena = 0;
        for (size_t i = 0; i < p->count; i++) {
            const uint64_t end = slot[s][i] + aplan_buffer_size(p, i);
            if (end > arena) arena = end;
        }
        const job jv = {JOB_VERIFY, NULL, p, NULL, slot[s], arena, NULL};
        r->verify = measure(&jv);
        r->verified = preferred[k];
        break;
    }

    progress("TFLM-style");
    uint64_t *size = xmalloc(bytes);
    for (size_t i = 0; i < p->count; i++) size[i] = aplan_buffer_size(p, i);
    const job jt = {JOB_BASELINE, NULL, p, slot[strategy_count], NULL, 0, size};
    r->baseline = hopeless(prev, prev ? &prev->baseline : NULL, r->n, true) ? skipped : measure(&jt);
    const size_t tflm = strategy_index("greedy_by_size_tflm");
    if (r->baseline.state == CELL_OK && tflm != SIZE_MAX && r->alone[tflm].state == CELL_OK)
        r->same = memcmp(slot[strategy_count], slot[tflm], bytes) == 0;
    free(size);
    for (size_t s = 0; s <= strategy_count; s++) shared_free(slot[s], bytes);
    fprintf(stderr, ": %.1f s\n", now() - started);
}

static char *read_file(const char *path, size_t *length) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    size_t cap = 1 << 16, len = 0;
    char *text = xmalloc(cap);
    size_t got;
    while ((got = fread(text + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            cap *= 2;
            char *bigger = realloc(text, cap);
            if (bigger == NULL) {
                free(text);
                fclose(f);
                return NULL;
            }
            text = bigger;
        }
    }
    const bool failed = ferror(f) != 0;
    fclose(f);
    if (failed) {
        free(text);
        return NULL;
    }
    *length = len;
    return text;
}

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Read and parse a CSV file; on failure says why on stderr and returns false (the table is then zeroed). */
static bool load_csv(const char *path, aplan_csv_table *table) {
    memset(table, 0, sizeof *table);
    size_t length;
    char *text = read_file(path, &length);
    if (text == NULL) {
        fprintf(stderr, "bench_plan: cannot read %s\n", path);
        return false;
    }
    aplan_format_error error;
    const aplan_status st = aplan_csv_parse(text, length, table, &error);
    free(text);
    if (st != APLAN_OK) {
        fprintf(stderr, "bench_plan: %s:%" PRIu32 ":%" PRIu32 ": %s\n", path, error.line, error.column, error.message);
        return false;
    }
    return true;
}

/* A CSV file as the CLI reads one by default: alignment 1 unless the file has an alignment column, sizes as given. */
static bool run_file(const char *path) {
    aplan_csv_table table;
    if (!load_csv(path, &table)) return false;
    aplan_problem p;
    aplan_problem_init(&p, table.buffers, table.count);
    aplan_report report;
    if (aplan_problem_validate(&p, &report) != APLAN_OK) {
        char why[256];
        aplan_report_format(&report, why, sizeof why);
        fprintf(stderr, "bench_plan: %s: %s\n", path, why);
        aplan_csv_free(&table);
        return false;
    }
    row *r = &rows[row_count];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", base_name(path));
    r->path = strdup(path);
    r->shape = SHAPE_FILE;
    run_input(r, &p);
    row_count++;
    aplan_csv_free(&table);
    return true;
}

static const char *short_count(size_t n, char *out, size_t size) {
    if (n >= 1000000 && n % 1000000 == 0) snprintf(out, size, "%zuM", n / 1000000);
    else if (n >= 1000 && n % 1000 == 0) snprintf(out, size, "%zuk", n / 1000);
    else snprintf(out, size, "%zu", n);
    return out;
}

static const char *shape_name(enum shape s) {
    return s == SHAPE_INFERENCE ? "inference" : s == SHAPE_HARD ? "hard" : "all live";
}

static void run_generated(enum shape shape, size_t n) {
    if (n > opt.max_size) return;
    aplan_buffer *b = xmalloc(n * sizeof *b);
    generate(b, n, shape);
    aplan_problem p;
    aplan_problem_init(&p, b, n);
    p.alignment = 16;
    p.flags = APLAN_ROUND_SIZES;
    row *r = &rows[row_count];
    memset(r, 0, sizeof *r);
    char count[32];
    snprintf(r->name, sizeof r->name, "%s %s", shape_name(shape), short_count(n, count, sizeof count));
    r->shape = shape;
    r->generated = true;
    run_input(r, &p);
    row_count++;
    free(b);
}

/* ------------------------------------------------------------------------------------------------------------ */
/* The CLI as a whole process                                                                                    */

typedef struct {
    char input[96];
    size_t n;
    char command[96];
    enum cell_state state;
    int exit_code;
    double seconds; /* median wall time */
    double peak;    /* largest ru_maxrss over the runs, bytes */
    int runs;
    double goal_seconds; /* 0: none */
    bool goal_memory;    /* <= 200 bytes per buffer */
} cli_row;
static cli_row cli_rows[MAX_ROWS];
static int cli_count;

/* One run of the tool: stdout and stderr to /dev/null, killed after --limit seconds (alarm() survives exec); with
 * address_space > 0, under that RLIMIT_AS (bytes), so a run whose requests pass it fails (exit status) even where it
 * would touch less. */
static enum cell_state cli_run(char *const argv[], size_t address_space, double *seconds, long *maxrss_kib,
                               int *exit_code) {
    fflush(NULL);
    const double t0 = now();
    const pid_t pid = fork();
    if (pid < 0) return CELL_CRASHED;
    if (pid == 0) {
        FILE *null = freopen("/dev/null", "w", stdout);
        if (null == NULL || dup2(fileno(stdout), 2) < 0) _exit(126);
        alarm(opt.slow_limit);
        const struct rlimit as = {address_space, address_space};
        if (address_space > 0 && setrlimit(RLIMIT_AS, &as) != 0) _exit(125);
        execv(argv[0], argv);
        _exit(127);
    }
    int ws;
    struct rusage ru;
    if (wait4(pid, &ws, 0, &ru) != pid) return CELL_CRASHED;
    *seconds = now() - t0;
    *maxrss_kib = ru.ru_maxrss;
    if (WIFSIGNALED(ws)) return WTERMSIG(ws) == SIGALRM ? CELL_TIMEOUT : CELL_CRASHED;
    *exit_code = WEXITSTATUS(ws);
    return *exit_code == 0 ? CELL_OK : CELL_FAILED;
}

/* The tool on path with command's words (split at spaces) before it; the row's median wall time, or -1 when it did not
 * run to exit 0. */
static double cli_measure(const char *input, size_t n, const char *path, const char *command, double goal_seconds,
                          bool goal_memory) {
    cli_row *c = &cli_rows[cli_count++];
    memset(c, 0, sizeof *c);
    snprintf(c->input, sizeof c->input, "%s", input);
    c->n = n;
    snprintf(c->command, sizeof c->command, "%s", command);
    c->goal_seconds = goal_seconds;
    c->goal_memory = goal_memory;
    fprintf(stderr, "aplan %s %s:", command, input);
    char words[96], *argv[16];
    snprintf(words, sizeof words, "%s", command);
    int argc = 0;
    argv[argc++] = (char *)opt.cli;
    for (char *w = strtok(words, " "); w != NULL && argc < 14; w = strtok(NULL, " ")) argv[argc++] = w;
    argv[argc++] = (char *)path;
    argv[argc] = NULL;
    double times[3], total = 0;
    for (int k = 0; k < 3 && k < opt.repeats; k++) {
        long kib = 0;
        c->state = cli_run(argv, goal_memory ? 200u * n : 0, &times[k], &kib, &c->exit_code);
        if (c->state != CELL_OK) break;
        if ((double)kib * 1024 > c->peak) c->peak = (double)kib * 1024;
        c->runs = k + 1;
        total += times[k];
        if (total >= opt.budget) break;
    }
    if (c->state == CELL_OK) c->seconds = median(times, c->runs);
    fprintf(stderr, " %.2f s\n", c->state == CELL_OK ? c->seconds : 0.0);
    return c->state == CELL_OK ? c->seconds : -1.0;
}

/* The whole run within --time-limit (issue 20): -s auto and -s all with T = opt.time_limit, against the same input
 * read, planned by linear and written (reading and writing, which the limit leaves out): goal (T + that) + 10%. At 1M
 * buffers also -s exact (all's one search, run alone, so its memory is seen when it is not cut short) and the memory
 * goal: at most 200 bytes per buffer of peak RSS, the run made under an address-space limit of 200 bytes per buffer. */
static void cli_time_limit(const char *input, size_t n, const char *path) {
    const double io = cli_measure(input, n, path, "plan -s linear --time-limit 0 -f csv", 0, false);
    if (io < 0) return;
    static const char *const sets[] = {"auto", "all", "exact"};
    const bool memory = n >= 1000000;
    for (int k = 0; k < (memory ? 3 : 2); k++) {
        char command[96];
        snprintf(command, sizeof command, "plan -s %s --time-limit %g -f csv", sets[k], opt.time_limit);
        cli_measure(input, n, path, command, 1.1 * (opt.time_limit + io), memory);
    }
}

static bool write_csv(const char *path, enum shape shape, size_t n) {
    FILE *f = fopen(path, "w");
    if (f == NULL) return false;
    aplan_buffer *b = xmalloc(n * sizeof *b);
    generate(b, n, shape);
    fputs("id,lower,upper,size\n", f);
    for (size_t i = 0; i < n; i++) /* sizes pre-rounded to 16: the CLI's CSV defaults then plan what the bench does */
        fprintf(f, "%zu,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", i, b[i].lower, b[i].upper, (uint64_t)((b[i].size + 15) & ~(uint64_t)15));
    free(b);
    return fclose(f) == 0;
}

static void run_cli(void) {
    if (opt.cli[0] == '\0' || access(opt.cli, X_OK) != 0) return;
    size_t n = 0;
    static const size_t sizes[] = {1000000, 100000, 10000, 1000};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0] && n == 0; k++)
        if (sizes[k] <= opt.max_size) n = sizes[k];
    if (n > 0) {
        const char *dir = getenv("TMPDIR");
        char path[4096];
        snprintf(path, sizeof path, "%s/aplan_bench_XXXXXX", dir && dir[0] ? dir : "/tmp");
        const int fd = mkstemp(path);
        if (fd >= 0) {
            close(fd);
            char name[64], count[32];
            snprintf(name, sizeof name, "inference %s", short_count(n, count, sizeof count));
            const bool goals = n == 1000000;
            if (write_csv(path, SHAPE_INFERENCE, n)) {
                cli_measure(name, n, path, "plan -s greedy_by_size --time-limit 0 -f csv", goals ? 2.0 : 0, goals);
                cli_measure(name, n, path, "plan -s linear -f csv", goals ? 1.0 : 0, goals);
                cli_measure(name, n, path, "bound", goals ? 0.5 : 0, goals);
            }
            unlink(path);
        }
    }
    for (int k = 0; k < row_count; k++) {
        if (rows[k].generated) continue;
        const double goal = strcmp(rows[k].name, "iopddl_S_1.csv") == 0         ? 0.3
                            : strcmp(rows[k].name, "somas_pangu_2.6B.csv") == 0 ? 0.15
                                                                                : 0;
        cli_measure(rows[k].name, rows[k].n, rows[k].path, "plan -s greedy_by_size --time-limit 0 -f csv", goal, false);
    }
}

/* Buffers in a CSV file: its lines less the header (the traces have no blank lines). 0 when unreadable. */
static size_t csv_rows(const char *path) {
    FILE *f = fopen(path, "r");
    if (f == NULL) return 0;
    size_t lines = 0;
    for (int ch; (ch = getc(f)) != EOF;) lines += ch == '\n';
    fclose(f);
    return lines > 0 ? lines - 1u : 0;
}

/* --only limit: the whole run within --time-limit on the large traces, the files named, and two generated inputs:
 * hard 100k (about 4e8 conflicting pairs, where the greedy family takes seconds) and inference 1M (the memory goal,
 * 200 bytes per buffer, for -s auto and -s all). */
static void run_time_limit(bool with_shared, char **files, int file_count) {
    if (opt.cli[0] == '\0' || access(opt.cli, X_OK) != 0) {
        fprintf(stderr, "bench_plan: no aplan tool at '%s': the time-limit table is left out (--cli PATH)\n", opt.cli);
        return;
    }
    char path[4096];
    if (with_shared) {
        static const char *const traces[] = {"iopddl_S_1.csv", "somas_pangu_2.6B.csv"};
        for (size_t k = 0; k < 2; k++) {
            snprintf(path, sizeof path, "%s/benchmarks/large/%s", opt.shared, traces[k]);
            if (access(path, R_OK) == 0) cli_time_limit(traces[k], csv_rows(path), path);
        }
    }
    for (int k = 0; k < file_count; k++) cli_time_limit(files[k], csv_rows(files[k]), files[k]);
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/aplan_bench_XXXXXX", dir && dir[0] ? dir : "/tmp");
    const int fd = mkstemp(path);
    if (fd < 0) return;
    close(fd);
    static const struct {
        enum shape shape;
        size_t n;
        const char *name;
    } made[] = {{SHAPE_HARD, 100000, "hard 100k"}, {SHAPE_INFERENCE, 1000000, "inference 1M"}};
    for (size_t k = 0; k < sizeof made / sizeof made[0]; k++) {
        if (made[k].n <= opt.max_size && write_csv(path, made[k].shape, made[k].n))
            cli_time_limit(made[k].name, made[k].n, path);
    }
    unlink(path);
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Tables                                                                                                        */

typedef struct {
    const char *title;
    char *cell[MAX_TABLE_ROWS + 1][MAX_COLS];
    int rows, cols;
    bool truncated;
    uint32_t left; /* bit c: column c is text, aligned left (column 0 always is) */
    const char *notes[12];
    int note_count;
} table;

static void t_header(table *t, const char *title) {
    memset(t, 0, sizeof *t);
    t->title = title;
    t->rows = 1;
}

/* Rows past MAX_TABLE_ROWS are left out, with a line on stderr; t_cell drops their cells. */
static void t_row(table *t) {
    if (t->rows <= MAX_TABLE_ROWS) {
        t->rows++;
    } else if (t->rows == MAX_TABLE_ROWS + 1 && !t->truncated) {
        fprintf(stderr, "bench_plan: table '%s' has more than %d rows: the rest are left out\n", t->title,
                MAX_TABLE_ROWS);
        t->truncated = true;
    }
}

PRINTF_LIKE(2, 3) static void t_cell(table *t, const char *format, ...) {
    char text[256];
    va_list ap;
    va_start(ap, format);
    vsnprintf(text, sizeof text, format, ap);
    va_end(ap);
    if (t->truncated) return;
    int c = 0;
    while (c < MAX_COLS && t->cell[t->rows - 1][c] != NULL) c++;
    if (c == MAX_COLS) return;
    t->cell[t->rows - 1][c] = strdup(text);
    if (c + 1 > t->cols) t->cols = c + 1;
}

static size_t width(const char *s) { /* display width: UTF-8 code points */
    size_t w = 0;
    for (; *s; s++) w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void t_print(table *t) {
    size_t w[MAX_COLS] = {0};
    for (int r = 0; r < t->rows; r++)
        for (int c = 0; c < t->cols; c++)
            if (t->cell[r][c] && width(t->cell[r][c]) > w[c]) w[c] = width(t->cell[r][c]);
    if (opt.markdown) printf("\n**%s**\n\n", t->title);
    else printf("\n%s\n\n", t->title);
    for (int r = 0; r < t->rows; r++) {
        for (int c = 0; c < t->cols; c++) {
            const char *s = t->cell[r][c] ? t->cell[r][c] : "";
            const size_t pad = w[c] - width(s);
            if (opt.markdown) printf("| ");
            else if (c > 0) printf("  ");
            if (c == 0 || (t->left >> c & 1u)) printf("%s%*s", s, (int)pad, "");
            else printf("%*s%s", (int)pad, "", s);
            if (opt.markdown) printf(" ");
        }
        printf(opt.markdown ? "|\n" : "\n");
        if (r == 0) {
            for (int c = 0; c < t->cols; c++) {
                if (opt.markdown) printf("|%s", c == 0 || (t->left >> c & 1u) ? "---" : "---:");
                else printf("%s%.*s", c > 0 ? "  " : "", (int)w[c], "----------------------------------------"
                                                                     "----------------------------------------");
            }
            printf(opt.markdown ? "|\n" : "\n");
        }
    }
    if (t->note_count) printf("\n");
    for (int k = 0; k < t->note_count; k++) printf("%s%s\n", opt.markdown ? "- " : "", t->notes[k]);
    for (int r = 0; r < t->rows; r++)
        for (int c = 0; c < t->cols; c++) free(t->cell[r][c]);
}

static void fmt_int(uint64_t v, char *out, size_t size) { /* 1,234,567 */
    char digits[32];
    const int len = snprintf(digits, sizeof digits, "%" PRIu64, v);
    size_t o = 0;
    for (int k = 0; k < len && o + 2 < size; k++) {
        if (k > 0 && (len - k) % 3 == 0) out[o++] = ',';
        out[o++] = digits[k];
    }
    out[o] = '\0';
}

static void t_int(table *t, uint64_t v) {
    char text[40];
    fmt_int(v, text, sizeof text);
    t_cell(t, "%s", text);
}

static void fmt_ms(double ms, char *out, size_t size) {
    if (ms < 1) snprintf(out, size, "%.3f", ms);
    else if (ms < 10) snprintf(out, size, "%.2f", ms);
    else if (ms < 100) snprintf(out, size, "%.1f", ms);
    else snprintf(out, size, "%.0f", ms);
}

static void t_time(table *t, const cell *c, unsigned limit) {
    char text[64];
    switch (c->state) {
    case CELL_OK: fmt_ms(c->ms, text, sizeof text); break;
    case CELL_SKIPPED: snprintf(text, sizeof text, "–"); break;
    case CELL_TIMEOUT: snprintf(text, sizeof text, "> %u s", limit); break;
    case CELL_FAILED: snprintf(text, sizeof text, "fails"); break;
    case CELL_CRASHED: snprintf(text, sizeof text, "crash"); break;
    case CELL_NONE: snprintf(text, sizeof text, "n/a"); break;
    }
    t_cell(t, "%s", text);
}

/* The tool as a whole process: every cli_measure row so far. */
static void print_cli_table(void) {
    if (cli_count == 0) return;
    static table t; /* large: MAX_TABLE_ROWS x MAX_COLS cells */
    t_header(&t, "The aplan tool as a whole process (stdout and stderr to /dev/null), median wall time, peak RSS");
    t_cell(&t, "input");
    t_cell(&t, "buffers");
    t_cell(&t, "command");
    t_cell(&t, "wall s");
    t_cell(&t, "peak RSS MiB");
    t_cell(&t, "bytes / buffer");
    t_cell(&t, "goal");
    t_cell(&t, "met");
    for (int k = 0; k < cli_count; k++) {
        const cli_row *c = &cli_rows[k];
        t_row(&t);
        t_cell(&t, "%s", c->input);
        t_int(&t, c->n);
        t_cell(&t, "aplan %s", c->command);
        if (c->state == CELL_OK) {
            t_cell(&t, "%.3f", c->seconds);
            t_cell(&t, "%.1f", c->peak / 1048576.0);
            t_cell(&t, "%.0f", c->peak / (double)c->n);
        } else {
            if (c->state == CELL_TIMEOUT) t_cell(&t, "> %u", opt.slow_limit);
            else if (c->state == CELL_FAILED) t_cell(&t, "exit %d", c->exit_code);
            else t_cell(&t, "crash");
            t_cell(&t, "–");
            t_cell(&t, "–");
        }
        char goal[64] = "";
        if (c->goal_seconds > 0) /* the time-limit rows' goals are sums: two decimals */
            snprintf(goal, sizeof goal, "≤ %.*f s%s", c->goal_seconds == (double)(long)c->goal_seconds ? 0 : 2,
                     c->goal_seconds, c->goal_memory ? ", ≤ 200 B/buffer" : "");
        t_cell(&t, "%s", goal);
        if (c->goal_seconds <= 0) t_cell(&t, "%s", "");
        else if (c->state != CELL_OK) t_cell(&t, "no");
        else {
            const bool time_ok = c->seconds <= c->goal_seconds;
            const bool mem_ok = !c->goal_memory || c->peak / (double)c->n <= 200;
            t_cell(&t, "%s", time_ok && mem_ok ? "yes" : !time_ok && !mem_ok ? "no (both)" : !time_ok ? "no (time)"
                                                                                              : "no (memory)");
        }
    }
    t_print(&t);
}

static void print_tables(void) {
    static table t; /* large: MAX_TABLE_ROWS x MAX_COLS cells */
    t_header(&t, "Inputs");
    t_cell(&t, "input");
    t_cell(&t, "buffers");
    t_cell(&t, "conflicting pairs");
    t_cell(&t, "max live");
    t_cell(&t, "alignment");
    for (int k = 0; k < row_count; k++) {
        const row *r = &rows[k];
        t_row(&t);
        t_cell(&t, "%s", r->name);
        t_int(&t, r->n);
        t_int(&t, r->pairs);
        t_int(&t, r->max_live);
        t_cell(&t, "%s", r->generated ? "16, sizes rounded" : "file's (CSV default 1)");
    }
    t_print(&t);

    const size_t tflm = strategy_index("greedy_by_size_tflm");
    t_header(&t, "Planning alone, ms (median): strategy->plan called directly with its own scratch; no validation, "
                 "bound, verification or I/O");
    t_cell(&t, "input");
    t_cell(&t, "buffers");
    for (size_t s = 0; s < strategy_count; s++) t_cell(&t, "%s", strategies[s]->name);
    t_cell(&t, "bound");
    t_cell(&t, "verify");
    t_cell(&t, "TFLM-style");
    t_cell(&t, "speed-up");
    t_cell(&t, "same offsets");
    bool any_failed = false;
    for (int k = 0; k < row_count; k++) {
        const row *r = &rows[k];
        t_row(&t);
        t_cell(&t, "%s", r->name);
        t_int(&t, r->n);
        for (size_t s = 0; s < strategy_count; s++) {
            t_time(&t, &r->alone[s], opt.limit);
            any_failed |= r->alone[s].state == CELL_FAILED;
        }
        t_time(&t, &r->bound, opt.limit);
        t_time(&t, &r->verify, opt.limit);
        t_time(&t, &r->baseline, opt.slow_limit);
        if (r->baseline.state == CELL_OK && tflm != SIZE_MAX && r->alone[tflm].state == CELL_OK) {
            const double ratio = r->baseline.ms / r->alone[tflm].ms;
            t_cell(&t, ratio < 10 ? "%.2f×" : "%.0f×", ratio);
        } else {
            t_cell(&t, "–");
        }
        t_cell(&t, "%s", r->same < 0 ? "–" : r->same ? "yes" : "NO");
    }
    t.notes[t.note_count++] = "bound: aplan_lower_bound; verify: aplan_verify of greedy_by_size's plan (or, when it did "
                              "not run, the first of greedy_by_size_tflm, first_fit, linear that did).";
    t.notes[t.note_count++] = "TFLM-style: TFLM's GreedyMemoryPlanner transcribed with 64-bit ints (O(n^2): bubble sort, "
                              "then a walk over the placed buffers); speed-up: its time / greedy_by_size_tflm's; same "
                              "offsets: its offsets equal greedy_by_size_tflm's.";
    if (any_failed) t.notes[t.note_count++] = "fails: the strategy returned an error (offline: APLAN_E_OFFSET_MISSING, "
                                              "as the input has buffers without a fixed offset).";
    static char limit_note[300];
    snprintf(limit_note, sizeof limit_note,
             "> N s: killed at the limit (%u s, TFLM-style %u s); –: not run (the same measurement on the previous size "
             "of this shape was killed or not run, or its time there scaled by the size ratio, squared for "
             "TFLM-style, passes the limit).",
             opt.limit, opt.slow_limit);
    t.notes[t.note_count++] = limit_note;
    t_print(&t);

    t_header(&t, "Through aplan_plan, ms (median): validation + lower bound + strategy + verification");
    t_cell(&t, "input");
    t_cell(&t, "buffers");
    for (size_t s = 0; s < strategy_count; s++) t_cell(&t, "%s", strategies[s]->name);
    for (int k = 0; k < row_count; k++) {
        const row *r = &rows[k];
        t_row(&t);
        t_cell(&t, "%s", r->name);
        t_int(&t, r->n);
        for (size_t s = 0; s < strategy_count; s++) t_time(&t, &rows[k].full[s], opt.limit);
    }
    t_print(&t);

    print_cli_table();

    /* The library goals, against the figures above. */
    typedef struct {
        const char *what;
        const cell *c;
        double target;
    } goal_check;
    t_header(&t, "Library goals of issue 10 (in-process; the CLI's are in the table above)");
    t_cell(&t, "goal");
    t_cell(&t, "target");
    t_cell(&t, "measured");
    t_cell(&t, "met");
    const size_t gbs = strategy_index("greedy_by_size"), ff = strategy_index("first_fit");
    for (int k = 0; k < row_count; k++) {
        const row *r = &rows[k];
        goal_check checks[3];
        int nc = 0;
        if (strcmp(r->name, "inference 10k") == 0) {
            if (gbs != SIZE_MAX) checks[nc++] = (goal_check){"greedy_by_size alone", &r->alone[gbs], 10};
            checks[nc++] = (goal_check){"aplan_verify alone", &r->verify, 2};
        }
        if (strcmp(r->name, "all live 20k") == 0 && gbs != SIZE_MAX)
            checks[nc++] = (goal_check){"greedy_by_size through aplan_plan", &r->full[gbs], 200};
        if (strcmp(r->name, "all live 100k") == 0 && ff != SIZE_MAX)
            checks[nc++] = (goal_check){"first_fit through aplan_plan", &r->full[ff], 500};
        for (int q = 0; q < nc; q++) {
            t_row(&t);
            t_cell(&t, "%s, %s", checks[q].what, r->name);
            t_cell(&t, "≤ %g ms", checks[q].target);
            if (checks[q].c->state == CELL_SKIPPED) t_cell(&t, "not run");
            else t_time(&t, checks[q].c, opt.limit);
            t_cell(&t, "%s", checks[q].c->state == CELL_OK && checks[q].c->ms <= checks[q].target ? "yes" : "no");
        }
        if (r->n > 10000 && r->baseline.state == CELL_OK && tflm != SIZE_MAX && r->alone[tflm].state == CELL_OK) {
            const double ratio = r->baseline.ms / r->alone[tflm].ms;
            t_row(&t);
            t_cell(&t, "TFLM-style / greedy_by_size_tflm alone, %s", r->name);
            t_cell(&t, "≥ 30×");
            t_cell(&t, ratio < 10 ? "%.2f×" : "%.0f×", ratio);
            t_cell(&t, "%s", ratio >= 30 ? "yes" : "no");
        }
    }
    t.notes[t.note_count++] = "Not measured here: the issue's hidden 62k-buffer trace and `-s all`/`-s auto` on it (give "
                              "the trace as FILE.csv and its rows appear above).";
    t_print(&t);
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Every strategy on every shared instance, and fitting MiniMalloc's challenging instances (issue 12)            */
/*
 * Every run goes through aplan_plan_search. A searching strategy (ABI 2, with a search member) gets a budget: a stop
 * callback that compares CLOCK_MONOTONIC with a deadline --time-limit seconds after the run began; it stops earlier
 * when it proves what it found (an optimal arena; goal FIT: a plan within the capacity, or that none exists). The
 * other strategies ("cheap": they plan once) ignore the options. Each measurement runs in a child process, as in the
 * speed tables, killed after --limit seconds plus the time limit of every search it makes.
 */

#define MAX_INSTANCES 128
#define MAX_FITS 64
/* Nodes between two looks at the clock (the library's default is 1024): a clock read costs less than a node, and runs
 * on A.1048576.csv end within 2 ms of their deadline. */
#define SEARCH_CHECK_EVERY 64


static size_t registry_count; /* every built-in strategy, searching or not (strategies[] holds the cheap ones) */
static const aplan_strategy *registry[MAX_STRATEGIES];

typedef struct {
    int runs;
    aplan_status status[MAX_RUNS];
    double ms[MAX_RUNS], cpu_ms[MAX_RUNS];
    uint64_t arena[MAX_RUNS], nodes[MAX_RUNS];
    uint32_t outcome[MAX_RUNS];
    size_t seed;         /* auto: registry index of the best cheap strategy, SIZE_MAX when none planned */
    uint64_t seed_arena; /* auto: its arena */
    bool searched;       /* auto: a search ran (the best cheap plan was above the bound) */
} search_shared;
static search_shared *found; /* MAP_SHARED: written by the child, read by the parent */

typedef struct {
    const aplan_problem *problem;   /* with the capacity set for goal FIT */
    const aplan_strategy *strategy; /* NULL: the auto row */
    uint32_t goal;                  /* aplan_goal */
    int runs;                       /* 0: up to --repeats within --budget, as elsewhere; else exactly this many */
} search_job;

/* What one (instance, strategy) measurement gives: times are medians over the runs; status, arena, nodes and outcome
 * are those of the run with the median wall time (the faster of the middle two for an even count). */
typedef struct {
    enum cell_state state; /* OK: it ran (status says how); TIMEOUT: killed; CRASHED; SKIPPED */
    aplan_status status;
    double ms, cpu_ms;
    int runs;
    uint64_t arena, nodes;
    uint32_t outcome;
    size_t seed;
    uint64_t seed_arena;
    bool searched;
} search_cell;

static bool past_deadline(void *context, uint64_t nodes) {
    (void)nodes;
    return now() >= *(const double *)context;
}

static double cpu_now(void) { /* this process's CPU time (user + system), seconds */
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Seconds after which a run is killed: --limit, plus --time-limit for each search the run makes. */
static unsigned search_kill_limit(const search_job *j) {
    size_t searches = 0;
    for (size_t s = 0; s < registry_count; s++)
        if (aplan_strategy_searches(registry[s]) && (j->strategy == NULL || j->strategy == registry[s])) searches++;
    return opt.limit + (unsigned)((double)searches * opt.time_limit + 1.0);
}

/* One search run of s: a fresh deadline --time-limit from now, start as given (NULL: none). */
static aplan_status run_search(const aplan_strategy *s, const aplan_problem *p, uint32_t goal, const uint64_t *start,
                               void *scratch, size_t need, uint64_t *offsets, aplan_result *result) {
    aplan_search_options o;
    aplan_search_options_init(&o);
    o.goal = goal;
    o.start = start;
    double deadline = now() + opt.time_limit;
    if (aplan_strategy_searches(s)) {
        o.stop = past_deadline;
        o.context = &deadline;
        o.check_every = SEARCH_CHECK_EVERY;
    }
    return aplan_plan_search(s, p, &o, scratch, need, offsets, result);
}

/* The auto row, what `aplan plan -s auto` does: every cheap strategy, keeping the smallest plan (the first in registry
 * order among equals); then, unless that plan already equals the bound (proven optimal), each searching strategy in
 * registry order, seeded (options.start) with the best plan so far, each with its own --time-limit. out gets the
 * final arena and outcome and the nodes of all searches. APLAN_E_STRATEGY_FAILED when no strategy planned. */
static aplan_status plan_auto(const aplan_problem *p, void *scratch, size_t need, uint64_t *offsets, uint64_t *best,
                              aplan_result *out, search_shared *sh) {
    const size_t bytes = p->count * sizeof *best;
    bool have = false;
    uint64_t nodes = 0;
    sh->seed = SIZE_MAX;
    sh->searched = false;
    memset(out, 0, sizeof *out);
    for (size_t s = 0; s < registry_count; s++) {
        aplan_result r;
        if (aplan_strategy_searches(registry[s]) ||
            run_search(registry[s], p, APLAN_GOAL_MINIMISE, NULL, scratch, need, offsets, &r) != APLAN_OK)
            continue;
        if (!have || r.arena_size < out->arena_size) {
            memcpy(best, offsets, bytes);
            *out = r;
            sh->seed = s;
            sh->seed_arena = r.arena_size;
            have = true;
        }
    }
    for (size_t s = 0; s < registry_count; s++) {
        if (!aplan_strategy_searches(registry[s]) || (have && out->outcome == APLAN_OUTCOME_OPTIMAL)) continue;
        aplan_result r;
        const aplan_status st =
            run_search(registry[s], p, APLAN_GOAL_MINIMISE, have ? best : NULL, scratch, need, offsets, &r);
        sh->searched = true;
        nodes += r.nodes;
        if (st != APLAN_OK) continue;
        if (!have || r.arena_size <= out->arena_size) { /* a search that proves its seed optimal returns it again */
            memcpy(best, offsets, bytes);
            *out = r;
            have = true;
        }
    }
    out->nodes = nodes;
    memcpy(offsets, best, bytes);
    return have ? APLAN_OK : APLAN_E_STRATEGY_FAILED;
}

static _Noreturn void search_child(const search_job *j) {
    const aplan_problem *p = j->problem;
    size_t need = 0;
    for (size_t s = 0; s < registry_count; s++) {
        if (j->strategy != NULL && j->strategy != registry[s]) continue;
        size_t n;
        const aplan_status st = aplan_plan_scratch_size(registry[s], p, &n);
        if (st != APLAN_OK) {
            if (j->strategy == NULL) continue; /* auto: that strategy will fail on its own */
            found->status[0] = st;
            found->runs = 1;
            _exit(0);
        }
        if (n > need) need = n;
    }
    void *scratch = xmalloc(need);
    memset(scratch, 0, need); /* touched before timing: page faults are not planning */
    uint64_t *offsets = xmalloc(p->count * sizeof *offsets), *best = xmalloc(p->count * sizeof *best);
    memset(offsets, 0, p->count * sizeof *offsets);
    memset(best, 0, p->count * sizeof *best);
    const int most = j->runs > 0 ? (j->runs < MAX_RUNS ? j->runs : MAX_RUNS) : opt.repeats;
    double total = 0;
    for (int k = 0; k < most; k++) {
        aplan_result result;
        alarm(search_kill_limit(j));
        const double t0 = now(), c0 = cpu_now();
        const aplan_status st = j->strategy != NULL
                                    ? run_search(j->strategy, p, j->goal, NULL, scratch, need, offsets, &result)
                                    : plan_auto(p, scratch, need, offsets, best, &result, found);
        const double t1 = now(), c1 = cpu_now();
        alarm(0);
        found->ms[k] = (t1 - t0) * 1e3;
        found->cpu_ms[k] = (c1 - c0) * 1e3;
        found->status[k] = st;
        found->arena[k] = result.arena_size;
        found->nodes[k] = result.nodes;
        found->outcome[k] = result.outcome;
        found->runs = k + 1;
        total += t1 - t0;
        /* A fit that failed is a result to time again; any other failure is the strategy's answer. */
        const bool answered = st == APLAN_OK || (j->goal == APLAN_GOAL_FIT && st == APLAN_E_CAPACITY_EXCEEDED);
        if (!answered || (j->runs == 0 && total >= opt.budget)) break;
    }
    _exit(0);
}

static search_cell measure_search(const search_job *j) {
    search_cell c;
    memset(&c, 0, sizeof c);
    c.state = CELL_CRASHED;
    memset(found, 0, sizeof *found);
    fflush(NULL);
    const pid_t pid = fork();
    if (pid < 0) {
        perror("bench_plan: fork");
        exit(1);
    }
    if (pid == 0) search_child(j);
    int ws;
    if (waitpid(pid, &ws, 0) != pid) return c;
    if (WIFSIGNALED(ws) && WTERMSIG(ws) == SIGALRM) {
        c.state = CELL_TIMEOUT;
        return c;
    }
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0 || found->runs == 0) return c;
    const int n = found->runs;
    int order[MAX_RUNS];
    for (int k = 0; k < n; k++) order[k] = k;
    for (int a = 1; a < n; a++) /* insertion sort of the runs by wall time */
        for (int b = a; b > 0 && found->ms[order[b]] < found->ms[order[b - 1]]; b--) {
            const int t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    const int m = order[(n - 1) / 2];
    c.state = CELL_OK;
    c.runs = n;
    c.status = found->status[m];
    c.arena = found->arena[m];
    c.nodes = found->nodes[m];
    c.outcome = found->outcome[m];
    c.seed = found->seed;
    c.seed_arena = found->seed_arena;
    c.searched = found->searched;
    c.ms = median(found->ms, n);
    c.cpu_ms = median(found->cpu_ms, n);
    return c;
}

static const char *outcome_name(uint32_t o) {
    switch (o) {
    case APLAN_OUTCOME_NONE: return "none";
    case APLAN_OUTCOME_PLAN: return "plan";
    case APLAN_OUTCOME_OPTIMAL: return "optimal";
    case APLAN_OUTCOME_FITS: return "fits";
    case APLAN_OUTCOME_BEST_FOUND: return "best found";
    case APLAN_OUTCOME_INFEASIBLE: return "infeasible";
    default: return "?";
    }
}

/* ---- every strategy on every instance ---- */

typedef struct {
    char name[96];
    bool tflm;  /* a model's buffer list, planned as TFLM plans it; else a CSV as the CLI reads it */
    size_t n;
    uint64_t bound;
    bool bound_ok;
    search_cell cell[MAX_STRATEGIES + 1]; /* registry order, then auto */
} instance_row;
static instance_row instances[MAX_INSTANCES];
static int instance_count;

static void run_instance(const char *path, bool tflm) {
    if (instance_count == MAX_INSTANCES) {
        fprintf(stderr, "bench_plan: more than %d instances: %s left out\n", MAX_INSTANCES, path);
        return;
    }
    aplan_csv_table csv;
    if (!load_csv(path, &csv)) return;
    aplan_problem p;
    aplan_problem_init(&p, csv.buffers, csv.count);
    if (tflm) { /* TFLM: every tensor aligned to 16, sizes rounded up to 16, offline offsets kept and may alias */
        p.alignment = 16;
        p.flags = APLAN_ROUND_SIZES | APLAN_ALLOW_FIXED_ALIAS;
    }
    aplan_report report;
    if (aplan_problem_validate(&p, &report) != APLAN_OK) {
        char why[256];
        aplan_report_format(&report, why, sizeof why);
        fprintf(stderr, "bench_plan: %s: %s\n", path, why);
        aplan_csv_free(&csv);
        return;
    }
    instance_row *r = &instances[instance_count++];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", base_name(path));
    char *dot = strrchr(r->name, '.');
    if (tflm && dot != NULL) *dot = '\0'; /* the model's name */
    r->tflm = tflm;
    r->n = p.count;
    size_t need = 0;
    if (aplan_lower_bound_scratch_size(&p, &need) == APLAN_OK) {
        void *scratch = xmalloc(need);
        r->bound_ok = aplan_lower_bound(&p, scratch, need, &r->bound, NULL) == APLAN_OK;
        free(scratch);
    }
    const double started = now();
    fprintf(stderr, "instance %s (%zu buffers):", r->name, p.count);
    for (size_t s = 0; s <= registry_count; s++) {
        progress(s < registry_count ? registry[s]->name : "auto");
        const search_job j = {&p, s < registry_count ? registry[s] : NULL, APLAN_GOAL_MINIMISE, 0};
        r->cell[s] = measure_search(&j);
    }
    fprintf(stderr, ": %.1f s\n", now() - started);
    aplan_csv_free(&csv);
}

/* Every file matching pattern, in glob's (sorted) order; a line on stderr when there is none. */
static void run_instances_matching(const char *pattern, bool tflm) {
    glob_t g;
    if (glob(pattern, 0, NULL, &g) != 0) {
        fprintf(stderr, "bench_plan: nothing matches %s: left out (--shared DIR)\n", pattern);
        return;
    }
    for (size_t k = 0; k < g.gl_pathc; k++) run_instance(g.gl_pathv[k], tflm);
    globfree(&g);
}

static void fmt_ratio(uint64_t arena, uint64_t bound, char *out, size_t size) {
    if (bound == 0) snprintf(out, size, "%s", arena == 0 ? "1.000" : "–");
    else snprintf(out, size, "%.3f", (double)arena / (double)bound);
}

static void print_instances(void) {
    static table t;
    t_header(&t, "Every strategy on every shared instance (through aplan_plan_search; searching strategies within "
                 "the time limit)");
    t_cell(&t, "instance");
    t_cell(&t, "buffers");
    t_cell(&t, "lower bound");
    t_cell(&t, "strategy");
    t_cell(&t, "arena");
    t_cell(&t, "× bound");
    t_cell(&t, "ms");
    t_cell(&t, "nodes");
    t_cell(&t, "outcome");
    t_cell(&t, "note");
    t.left = 1u << 3 | 1u << 8 | 1u << 9; /* strategy, outcome, note */
    for (int k = 0; k < instance_count; k++) {
        const instance_row *r = &instances[k];
        for (size_t s = 0; s <= registry_count; s++) {
            const search_cell *c = &r->cell[s];
            const bool is_auto = s == registry_count, searches = !is_auto && aplan_strategy_searches(registry[s]);
            char text[64];
            t_row(&t);
            t_cell(&t, "%s", r->name);
            t_int(&t, r->n);
            if (r->bound_ok) t_int(&t, r->bound);
            else t_cell(&t, "–");
            t_cell(&t, "%s", is_auto ? "auto" : registry[s]->name);
            if (c->state != CELL_OK || c->status != APLAN_OK) {
                t_cell(&t, "%s", c->state == CELL_TIMEOUT ? "killed" : c->state == CELL_OK ? "fails" : "crash");
                t_cell(&t, "–");
                const search_job j = {NULL, is_auto ? NULL : registry[s], APLAN_GOAL_MINIMISE, 0};
                if (c->state == CELL_TIMEOUT) t_cell(&t, "> %u s", search_kill_limit(&j));
                else t_cell(&t, "–");
                t_cell(&t, "–");
                t_cell(&t, "–");
                t_cell(&t, "%s", c->state == CELL_OK ? aplan_status_str(c->status) : "");
                continue;
            }
            t_int(&t, c->arena);
            fmt_ratio(c->arena, r->bound, text, sizeof text);
            t_cell(&t, "%s", text);
            fmt_ms(c->ms, text, sizeof text);
            t_cell(&t, "%s", text);
            if (searches || (is_auto && c->searched)) t_int(&t, c->nodes);
            else t_cell(&t, "–");
            t_cell(&t, "%s", outcome_name(c->outcome));
            if (is_auto && c->seed < registry_count) {
                char arena[40];
                fmt_int(c->seed_arena, arena, sizeof arena);
                t_cell(&t, "best cheap: %s %s%s", registry[c->seed]->name, arena,
                       c->searched ? ", then the search from it" : "");
            } else {
                t_cell(&t, "%s", "");
            }
        }
    }
    static char note[600];
    snprintf(note, sizeof note,
             "models (lifetimes/*.csv, named without .csv): as TFLM plans them (alignment 16, sizes rounded up to 16, "
             "offline offsets kept and allowed to alias); the other instances as the CLI reads a CSV (alignment 1, "
             "sizes as given). ms: median wall time of up to %d runs, fewer once they add up to %g s (so a "
             "search that uses its whole time limit, %g s, runs once); a search stops earlier when it proves its plan "
             "optimal.",
             opt.repeats, opt.budget, opt.time_limit);
    t.notes[t.note_count++] = note;
    t.notes[t.note_count++] = "outcome: what the plan is proven to be (aplan_result.outcome): optimal (the arena "
                              "equals the bound, or the search was complete), best found (the time limit ran out "
                              "first), plan (a heuristic above the bound: nothing proven). nodes: search nodes visited.";
    t.notes[t.note_count++] = "auto: every cheap strategy, the smallest plan kept; then, unless it equals the bound, "
                              "each searching strategy seeded with it (options.start) within the time limit, as "
                              "`aplan plan -s auto` does. Its ms covers all of it.";
    t.notes[t.note_count++] = "fails: the strategy returned the status in the note (offline: the input has buffers "
                              "without a fixed offset); killed: a run passed --limit plus the time limit.";
    t_print(&t);
}

/* ---- fitting MiniMalloc's challenging instances ---- */

typedef struct {
    char path[4096];
    uint64_t capacity;
} fit_input;
static fit_input fit_inputs[MAX_FITS];
static int fit_input_count;

typedef struct {
    char name[96];
    size_t n;
    uint64_t capacity, bound;
    size_t strategy; /* registry index */
    search_cell cell;
} fit_row;
static fit_row fit_rows[MAX_FITS * MAX_STRATEGIES];
static int fit_count;

/* FILE[:CAPACITY]; without CAPACITY, the number between the last two dots of the name (MiniMalloc's A.1048576.csv).
 * Capacity: decimal bytes. Returns false when neither gives one. */
static bool add_fit(const char *arg) {
    if (fit_input_count == MAX_FITS) return false;
    fit_input *f = &fit_inputs[fit_input_count];
    snprintf(f->path, sizeof f->path, "%s", arg);
    char *colon = strrchr(f->path, ':');
    const char *digits = NULL;
    if (colon != NULL && colon[1] != '\0' && colon[1 + strspn(colon + 1, "0123456789")] == '\0') {
        *colon = '\0';
        digits = colon + 1;
    } else {
        const char *name = base_name(f->path), *last = strrchr(name, '.');
        const char *prev = last;
        while (prev != NULL && prev > name && prev[-1] != '.') prev--;
        if (last != NULL && prev != NULL && prev > name && prev < last) {
            static char number[32];
            const size_t len = (size_t)(last - prev);
            if (len < sizeof number) {
                memcpy(number, prev, len);
                number[len] = '\0';
                if (number[strspn(number, "0123456789")] == '\0') digits = number;
            }
        }
    }
    if (digits == NULL || digits[0] == '\0' || strlen(digits) > 19) return false;
    f->capacity = strtoull(digits, NULL, 10);
    fit_input_count++;
    return true;
}

static void run_fit(const fit_input *in) {
    aplan_csv_table csv;
    if (!load_csv(in->path, &csv)) return;
    aplan_problem p;
    aplan_problem_init(&p, csv.buffers, csv.count);
    p.capacity = in->capacity;
    aplan_problem unlimited = p;
    unlimited.capacity = APLAN_UNLIMITED;
    uint64_t bound = 0;
    size_t need = 0;
    if (aplan_lower_bound_scratch_size(&unlimited, &need) == APLAN_OK) {
        void *scratch = xmalloc(need);
        if (aplan_lower_bound(&unlimited, scratch, need, &bound, NULL) != APLAN_OK) bound = 0;
        free(scratch);
    }
    for (size_t s = 0; s < registry_count && fit_count < MAX_FITS * MAX_STRATEGIES; s++) {
        if (!aplan_strategy_searches(registry[s])) continue;
        fit_row *r = &fit_rows[fit_count++];
        memset(r, 0, sizeof *r);
        snprintf(r->name, sizeof r->name, "%.*s", (int)sizeof r->name - 1, base_name(in->path));
        r->n = p.count;
        r->capacity = in->capacity;
        r->bound = bound;
        r->strategy = s;
        const double started = now();
        fprintf(stderr, "fit %s in %" PRIu64 " with %s:", r->name, r->capacity, registry[s]->name);
        const search_job j = {&p, registry[s], APLAN_GOAL_FIT, opt.repeats < 3 ? opt.repeats : 3};
        r->cell = measure_search(&j);
        fprintf(stderr, " %.1f s\n", now() - started);
    }
    aplan_csv_free(&csv);
}

/* ---- minimising MiniMalloc's challenging instances ---- */

/* The smallest arena MiniMalloc found in 120 s where the 1 MiB capacity was not already optimal (the racing notes in
 * ../shared/benchmarks/minimalloc/README.md): the goal is to go below it. */
static const struct {
    const char *name;
    uint64_t arena;
} minimalloc_best[] = {{"D.1048576.csv", 1038336}, {"J.1048576.csv", 1041408}};

typedef struct {
    char name[96];
    size_t n;
    uint64_t bound, arena, nodes, best_node;
    uint32_t outcome;
    aplan_status status;
    double seconds, to_best; /* the whole run; when the plan it returned was found */
} minimise_row;
static minimise_row minimise_rows[MAX_FITS];
static int minimise_count;

/* The stop callback's record of (nodes, seconds) at most every millisecond, to time aplan_result.best_node. */
#define MAX_SAMPLES (1u << 18)
typedef struct {
    double t0, deadline, last;
    size_t count;
    uint64_t nodes[MAX_SAMPLES];
    double at[MAX_SAMPLES];
} sampler;

static bool sample_until_deadline(void *context, uint64_t nodes) {
    sampler *s = context;
    const double t = now();
    if (s->count < MAX_SAMPLES && t - s->last >= 1e-3) {
        s->nodes[s->count] = nodes;
        s->at[s->count++] = t - s->t0;
        s->last = t;
    }
    return t >= s->deadline;
}

/* exact with goal MINIMISE for --minimise-limit seconds, in process (exact keeps its deadline). The time to the best
 * plan is that of the first sample at or past the node count exact found it at (within 1 ms and 64 nodes). */
static void run_minimise(const char *path) {
    const aplan_strategy *exact = NULL;
    aplan_csv_table csv;
    if (aplan_strategy_find("exact", &exact) != APLAN_OK || minimise_count == MAX_FITS || !load_csv(path, &csv)) return;
    aplan_problem p;
    aplan_problem_init(&p, csv.buffers, csv.count);
    size_t need = 0;
    minimise_row *r = &minimise_rows[minimise_count++];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%.*s", (int)sizeof r->name - 1, base_name(path));
    r->n = p.count;
    r->status = aplan_plan_scratch_size(exact, &p, &need);
    if (r->status == APLAN_OK) {
        void *scratch = xmalloc(need);
        uint64_t *offsets = xmalloc((p.count + 1u) * sizeof *offsets);
        static sampler clock;
        clock.t0 = clock.last = now();
        clock.deadline = clock.t0 + opt.minimise_limit;
        clock.count = 0;
        aplan_search_options o;
        aplan_search_options_init(&o);
        o.stop = sample_until_deadline;
        o.context = &clock;
        o.check_every = SEARCH_CHECK_EVERY;
        fprintf(stderr, "minimise %s with exact:", r->name);
        aplan_result res;
        r->status = aplan_plan_search(exact, &p, &o, scratch, need, offsets, &res);
        r->seconds = now() - clock.t0;
        r->bound = res.lower_bound;
        r->arena = res.arena_size;
        r->nodes = res.nodes;
        r->best_node = res.best_node;
        r->outcome = res.outcome;
        r->to_best = r->seconds;
        for (size_t k = 0; k < clock.count; k++) {
            if (clock.nodes[k] >= res.best_node) {
                r->to_best = clock.at[k];
                break;
            }
        }
        fprintf(stderr, " %.1f s\n", r->seconds);
        free(scratch);
        free(offsets);
    }
    aplan_csv_free(&csv);
}

static void print_minimise(void) {
    static table t;
    char title[160];
    snprintf(title, sizeof title, "Minimising (goal MINIMISE): exact for up to %g s an instance, one run", opt.minimise_limit);
    t_header(&t, title);
    t_cell(&t, "instance");
    t_cell(&t, "buffers");
    t_cell(&t, "lower bound");
    t_cell(&t, "arena");
    t_cell(&t, "× bound");
    t_cell(&t, "outcome");
    t_cell(&t, "to best s");
    t_cell(&t, "run s");
    t_cell(&t, "nodes");
    t_cell(&t, "MiniMalloc, 120 s");
    t_cell(&t, "goal");
    t_cell(&t, "met");
    t.left = 1u << 5 | 1u << 9 | 1u << 10;
    for (int k = 0; k < minimise_count; k++) {
        const minimise_row *r = &minimise_rows[k];
        t_row(&t);
        t_cell(&t, "%s", r->name);
        t_int(&t, r->n);
        if (r->status != APLAN_OK) {
            t_cell(&t, "–");
            t_cell(&t, "%s", aplan_status_str(r->status));
            for (int q = 0; q < 8; q++) t_cell(&t, "–");
            continue;
        }
        t_int(&t, r->bound);
        t_int(&t, r->arena);
        t_cell(&t, "%.4f", (double)r->arena / (double)r->bound);
        t_cell(&t, "%s", r->outcome == APLAN_OUTCOME_OPTIMAL ? "optimal (proven)" : outcome_name(r->outcome));
        t_cell(&t, "%.2f", r->to_best);
        t_cell(&t, "%.1f", r->seconds);
        t_int(&t, r->nodes);
        uint64_t reference = 0;
        for (size_t q = 0; q < sizeof minimalloc_best / sizeof minimalloc_best[0]; q++)
            if (strcmp(r->name, minimalloc_best[q].name) == 0) reference = minimalloc_best[q].arena;
        if (reference == 0) {
            t_cell(&t, "%s", r->bound == 1048576 ? "1,048,576 (the bound)" : "");
            t_cell(&t, "%s", r->bound == 1048576 ? "optimal" : "");
            t_cell(&t, "%s", r->bound == 1048576 ? (r->outcome == APLAN_OUTCOME_OPTIMAL ? "yes" : "no") : "");
        } else {
            char text[40], goal[56];
            fmt_int(reference, text, sizeof text);
            snprintf(goal, sizeof goal, "< %s or proven", text);
            t_cell(&t, "%s", text);
            t_cell(&t, "%s", goal);
            t_cell(&t, "%s", r->arena < reference || r->outcome == APLAN_OUTCOME_OPTIMAL ? "yes" : "no");
        }
    }
    t.notes[t.note_count++] = "to best s: when exact found the plan it returned (aplan_result.best_node, timed by the "
                              "stop callback's samples); optimal (proven): the search completed or met the bound.";
    t_print(&t);
}

/* The goal and MiniMalloc's published times for the two shared instances at capacity 1048576 (README of
 * benchmarks/minimalloc). */
static const struct {
    const char *name;
    const char *minimalloc;
} fit_references[] = {
    {"A.1048576.csv", "about 9 s here; paper 4.9 s"},
    {"B.1048576.csv", "about 6.5 s here; paper 3.7 s"},
};

static void print_fits(void) {
    static table t;
    t_header(&t, "Fitting a capacity (goal FIT): searching strategies, median of 3 runs");
    t_cell(&t, "instance");
    t_cell(&t, "buffers");
    t_cell(&t, "capacity");
    t_cell(&t, "lower bound");
    t_cell(&t, "strategy");
    t_cell(&t, "fits");
    t_cell(&t, "arena");
    t_cell(&t, "wall s");
    t_cell(&t, "CPU s");
    t_cell(&t, "nodes");
    t_cell(&t, "runs");
    t_cell(&t, "goal");
    t_cell(&t, "met");
    t_cell(&t, "MiniMalloc");
    t.left = 1u << 4 | 1u << 5 | 1u << 13; /* strategy, fits, MiniMalloc */
    for (int k = 0; k < fit_count; k++) {
        const fit_row *r = &fit_rows[k];
        const search_cell *c = &r->cell;
        t_row(&t);
        t_cell(&t, "%s", r->name);
        t_int(&t, r->n);
        t_int(&t, r->capacity);
        t_int(&t, r->bound);
        t_cell(&t, "%s", registry[r->strategy]->name);
        const char *reference = "";
        for (size_t q = 0; q < sizeof fit_references / sizeof fit_references[0]; q++)
            if (strcmp(r->name, fit_references[q].name) == 0 && r->capacity == 1048576)
                reference = fit_references[q].minimalloc;
        const bool ran = c->state == CELL_OK && (c->status == APLAN_OK || c->status == APLAN_E_CAPACITY_EXCEEDED);
        if (!ran) {
            t_cell(&t, "%s", c->state == CELL_TIMEOUT ? "killed" : c->state == CELL_OK ? aplan_status_str(c->status)
                                                                                       : "crash");
            for (int q = 0; q < 5; q++) t_cell(&t, "–");
        } else {
            const bool fits = c->status == APLAN_OK;
            t_cell(&t, "%s", fits ? "yes" : c->outcome == APLAN_OUTCOME_INFEASIBLE ? "no (proven)" : "not found");
            if (c->arena > 0) t_int(&t, c->arena);
            else t_cell(&t, "–");
            t_cell(&t, "%.2f", c->ms / 1e3);
            t_cell(&t, "%.2f", c->cpu_ms / 1e3);
            t_int(&t, c->nodes);
            t_cell(&t, "%d", c->runs);
        }
        if (reference[0] != '\0') {
            t_cell(&t, "fits, < 5 s");
            t_cell(&t, "%s", ran && c->status == APLAN_OK && c->cpu_ms < 5000 ? "yes" : "no");
        } else {
            t_cell(&t, "%s", "");
            t_cell(&t, "%s", "");
        }
        t_cell(&t, "%s", reference);
    }
    static char note[500];
    snprintf(note, sizeof note,
             "Each file as the CLI reads a CSV (alignment 1, sizes as given), problem.capacity = capacity, "
             "goal APLAN_GOAL_FIT, budget %g s (--time-limit) through a stop callback on CLOCK_MONOTONIC. wall s, "
             "CPU s: medians (CPU: user + system of the process, which plans on one thread); arena, nodes: of the "
             "run with the median wall time.",
             opt.time_limit);
    t.notes[t.note_count++] = note;
    t.notes[t.note_count++] = "fits: yes (a plan within the capacity), no (proven) (outcome INFEASIBLE), not found "
                              "(the time limit ran out first; arena: the best plan found above the capacity). met: "
                              "fits with a median CPU time under 5 s (issue 12's goal for A and B).";
    t.notes[t.note_count++] = "MiniMalloc: its time on this kind of 2-core machine and in its paper (ASPLOS 2023), "
                              "from benchmarks/minimalloc/README.md; race it in the same run with "
                              "bench/race_minimalloc.sh.";
    t_print(&t);
}

/* ------------------------------------------------------------------------------------------------------------ */

static void usage(FILE *to) {
    fprintf(to,
            "usage: bench_plan [options] [FILE.csv ...]\n"
            "  -r, --repeats N     runs per measurement at most (default 5; median printed)\n"
            "  --budget SECONDS    stop repeating a measurement once its runs add up to this (default 3)\n"
            "  --limit SECONDS     kill a library run after this long and print \"> N s\" (default 20)\n"
            "  --baseline-limit SECONDS  the same for the TFLM-style baseline and the CLI (default 60)\n"
            "  --max-size N        largest generated problem (default 1000000)\n"
            "  --shared DIR        folder holding benchmarks/large/ (default %s)\n"
            "  --no-shared         leave the shared traces out\n"
            "  --cli PATH          the aplan tool for the whole-process table (default %s)\n"
            "  --no-cli            leave the whole-process table out\n"
            "  --markdown          print the tables as markdown\n"
            "  --time-limit SECONDS  budget of a searching strategy per run (default 10)\n"
            "  --fit FILE[:CAPACITY]  one more instance for the fit table (repeatable); without CAPACITY, the\n"
            "                      number before .csv in the name (A.1048576.csv)\n"
            "  --only PARTS        comma-separated: speed (the speed and CLI tables), instances (every strategy on\n"
            "                      every shared instance), fit (fitting a capacity), limit (the tool's whole run\n"
            "                      within --time-limit); default all four; and minimise (exact minimising the\n"
            "                      shared A and B and each --fit file for --minimise-limit seconds: minutes)\n"
            "  --minimise-limit SECONDS  time exact may minimise each instance in the minimise table (default 120)\n"
            "FILE.csv: more problems in MiniMalloc's CSV format, benchmarked like the shared traces.\n",
            APLAN_BENCH_SHARED_DIR, APLAN_BENCH_CLI[0] ? APLAN_BENCH_CLI : "none built");
}

static void run_speed(bool with_shared, char **files, int file_count);

static double number(const char *option, const char *value) {
    char *end;
    const double v = value ? strtod(value, &end) : 0;
    if (value == NULL || *value == '\0' || *end != '\0' || !(v > 0)) {
        fprintf(stderr, "bench_plan: %s needs a positive number\n", option);
        usage(stderr);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv) {
    char *files[MAX_FILES];
    int file_count = 0;
    bool with_shared = true;
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k];
        const char *v = k + 1 < argc ? argv[k + 1] : NULL;
        if (strcmp(a, "-r") == 0 || strcmp(a, "--repeats") == 0) {
            const double r = number(a, v);
            opt.repeats = r > MAX_RUNS ? MAX_RUNS : (int)r;
            k++;
        } else if (strcmp(a, "--budget") == 0) {
            opt.budget = number(a, v);
            k++;
        } else if (strcmp(a, "--limit") == 0) {
            opt.limit = (unsigned)number(a, v);
            if (opt.limit == 0) opt.limit = 1;
            k++;
        } else if (strcmp(a, "--baseline-limit") == 0) {
            opt.slow_limit = (unsigned)number(a, v);
            if (opt.slow_limit == 0) opt.slow_limit = 1;
            k++;
        } else if (strcmp(a, "--max-size") == 0) {
            opt.max_size = (size_t)number(a, v);
            k++;
        } else if (strcmp(a, "--shared") == 0 && v) {
            opt.shared = v;
            k++;
        } else if (strcmp(a, "--no-shared") == 0) {
            with_shared = false;
        } else if (strcmp(a, "--cli") == 0 && v) {
            opt.cli = v;
            k++;
        } else if (strcmp(a, "--no-cli") == 0) {
            opt.cli = "";
        } else if (strcmp(a, "--markdown") == 0) {
            opt.markdown = true;
        } else if (strcmp(a, "--time-limit") == 0) {
            opt.time_limit = number(a, v);
            k++;
        } else if (strcmp(a, "--minimise-limit") == 0) {
            opt.minimise_limit = number(a, v);
            k++;
        } else if (strcmp(a, "--fit") == 0 && v) {
            if (!add_fit(v)) {
                fprintf(stderr, "bench_plan: --fit %s: FILE:CAPACITY (bytes), or a name like A.1048576.csv (at most "
                                "%d)\n", v, MAX_FITS);
                return 2;
            }
            k++;
        } else if (strcmp(a, "--only") == 0 && v) {
            opt.speed = opt.instances = opt.fit = opt.whole_run = opt.minimise = false;
            char parts[256];
            snprintf(parts, sizeof parts, "%s", v);
            for (char *part = strtok(parts, ","); part != NULL; part = strtok(NULL, ",")) {
                if (strcmp(part, "speed") == 0) opt.speed = true;
                else if (strcmp(part, "instances") == 0) opt.instances = true;
                else if (strcmp(part, "fit") == 0) opt.fit = true;
                else if (strcmp(part, "limit") == 0) opt.whole_run = true;
                else if (strcmp(part, "minimise") == 0) opt.minimise = true;
                else {
                    fprintf(stderr, "bench_plan: --only: unknown part '%s' (speed, instances, fit, limit, minimise)\n",
                            part);
                    return 2;
                }
            }
            k++;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "bench_plan: unknown option %s\n", a);
            usage(stderr);
            return 2;
        } else if (a[strspn(a, "0123456789")] == '\0' && access(a, F_OK) != 0) {
            opt.repeats = atoi(a) > MAX_RUNS ? MAX_RUNS : atoi(a) < 1 ? 1 : atoi(a); /* the old `bench_plan 5` */
        } else if (file_count < MAX_FILES) {
            files[file_count++] = argv[k];
        }
    }
    shared = shared_alloc(sizeof *shared);
    found = shared_alloc(sizeof *found);
    /* The speed tables time the cheap strategies: a search without a budget need not end. */
    registry_count = aplan_strategy_count() < MAX_STRATEGIES ? aplan_strategy_count() : MAX_STRATEGIES;
    for (size_t s = 0; s < registry_count; s++) {
        registry[s] = aplan_strategy_at(s);
        if (!aplan_strategy_searches(registry[s])) strategies[strategy_count++] = registry[s];
    }
    const double started = now();

    if (opt.speed) run_speed(with_shared, files, file_count);
    if (opt.whole_run) run_time_limit(with_shared, files, file_count);
    if (opt.instances) {
        char pattern[4200];
        if (with_shared) {
            snprintf(pattern, sizeof pattern, "%s/models/lifetimes/*.csv", opt.shared);
            run_instances_matching(pattern, true);
            snprintf(pattern, sizeof pattern, "%s/benchmarks/minimalloc/*.csv", opt.shared);
            run_instances_matching(pattern, false);
            snprintf(pattern, sizeof pattern, "%s/benchmarks/large/*.csv", opt.shared);
            run_instances_matching(pattern, false);
        }
        for (int k = 0; k < file_count; k++) run_instance(files[k], false);
    }
    if (opt.fit) {
        if (with_shared) {
            static const char *const published[] = {"A.1048576.csv", "B.1048576.csv"};
            for (size_t k = 0; k < sizeof published / sizeof published[0]; k++) {
                fit_input in;
                snprintf(in.path, sizeof in.path, "%s/benchmarks/minimalloc/%s", opt.shared, published[k]);
                if (access(in.path, R_OK) != 0) {
                    fprintf(stderr, "bench_plan: %s not readable: left out (--shared DIR)\n", in.path);
                    continue;
                }
                in.capacity = 1048576;
                run_fit(&in);
            }
        }
        for (int k = 0; k < fit_input_count; k++) run_fit(&fit_inputs[k]);
    }

    if (opt.minimise) {
        if (with_shared) {
            static const char *const published[] = {"A.1048576.csv", "B.1048576.csv"};
            for (size_t k = 0; k < sizeof published / sizeof published[0]; k++) {
                char path[4200];
                snprintf(path, sizeof path, "%s/benchmarks/minimalloc/%s", opt.shared, published[k]);
                if (access(path, R_OK) == 0) run_minimise(path);
            }
        }
        for (int k = 0; k < fit_input_count; k++) run_minimise(fit_inputs[k].path);
    }

    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    printf("bench_plan: aplan %s, %ld CPUs online; up to %d runs per measurement (budget %g s); a run is killed "
           "after %u s (TFLM-style and CLI: %u s; a search: plus its time limit, %g s)\n",
           aplan_version(), cpus, opt.repeats, opt.budget, opt.limit, opt.slow_limit, opt.time_limit);
    if (opt.speed) print_tables();
    else if (opt.whole_run) print_cli_table();
    if (opt.instances) print_instances();
    if (opt.fit) {
        bool any = false;
        for (size_t s = 0; s < registry_count; s++) any |= aplan_strategy_searches(registry[s]);
        if (any) print_fits();
        else printf("\nFitting a capacity: no searching strategy in this build (aplan list): table left out\n");
    }
    if (opt.minimise) print_minimise();
    printf("\ntotal %.0f s\n", now() - started);
    return 0;
}

/* The speed tables' inputs: the two large traces, the files named, the generated problems, then the CLI. */
static void run_speed(bool with_shared, char **files, int file_count) {
    if (with_shared) {
        static const char *const traces[] = {"iopddl_S_1.csv", "somas_pangu_2.6B.csv"};
        for (size_t k = 0; k < 2; k++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/benchmarks/large/%s", opt.shared, traces[k]);
            if (access(path, R_OK) != 0)
                fprintf(stderr, "bench_plan: %s not readable: left out (--shared DIR)\n", path);
            else
                run_file(path);
        }
    }
    for (int k = 0; k < file_count; k++) run_file(files[k]);
    static const size_t sizes[] = {1000, 10000, 100000, 1000000};
    for (int shape = SHAPE_INFERENCE; shape <= SHAPE_HARD; shape++)
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) run_generated((enum shape)shape, sizes[k]);
    run_generated(SHAPE_ALL_LIVE, 20000);
    run_generated(SHAPE_ALL_LIVE, 100000);
    if (opt.cli[0] != '\0' && access(opt.cli, X_OK) != 0)
        fprintf(stderr, "bench_plan: no aplan tool at '%s': the whole-process table is left out (--cli PATH)\n",
                opt.cli);
    run_cli();
}
