/*
 * bench_regions: several memories (<aplan/regions.h>) on the real models and traces: the slow-memory traffic of the
 * baseline (banked, what the runtimes do), of select and of the exact search, and what planning with regions costs
 * against the single-region strategies it builds on, in the same run.
 *
 *   bench_regions [--shared DIR] [--markdown] [--time-limit S] [--runs N] [--budget S] [FILE ...]
 *
 * Inputs: every .tflite in DIR/models (planned as the CLI plans a model: its tensors and its kernels' scratch
 * requests, TFLM's 16-byte alignment, sizes rounded up; uses from the graph, aplan_tflite_uses, a scratch buffer 1),
 * the large traces in DIR/benchmarks/large (uses 1 each), and every FILE named (.tflite or CSV).
 * For each input and fast region of 25%, 50% and 75% of its single-region lower bound (the slow region unlimited):
 *   - the traffic of banked, select and exact (exact with --time-limit seconds, default 10, on inputs of at most 1024
 *     buffers; its outcome says whether it proved the least traffic), each plan checked by aplan_region_plan's
 *     verifier (every row printed is a valid plan: a failure stops the bench);
 *   - the median time of banked and of greedy_by_size (the single-region strategy it builds on: its order and rule),
 *     and of select and of "auto" (the sum of the auto strategies, aplan_strategy_auto_at, which select packs each
 *     region with), each through its planning call (aplan_region_plan, aplan_plan), and their ratios.
 * Then the sums of the traffic over the shared models at each size. Repeats: up to --runs (default 5) within
 * --budget seconds (default 2) per measurement, the median kept. Tables to stdout (--markdown: markdown), progress
 * to stderr. docs/benchmarks.md ("Regions") keeps the latest tables and the command.
 */
#define _DEFAULT_SOURCE
#include <glob.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aplan/aplan.h"
#include "aplan/csv.h"
#include "aplan/regions.h"
#include "aplan/strategies.h"
#include "aplan/tflite.h"
#include "aplan/tflm.h"

#ifndef APLAN_BENCH_SHARED_DIR
#    define APLAN_BENCH_SHARED_DIR "../shared"
#endif

#define EXACT_MAX 1024u
#define MAX_INPUTS 64

static int runs_wanted = 5;
static double budget_s = 2.0, time_limit_s = 10.0;
static bool markdown;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void *xmalloc(size_t bytes) {
    void *p = malloc(bytes ? bytes : 1u);
    if (p == NULL) {
        fprintf(stderr, "bench_regions: out of memory\n");
        exit(1);
    }
    return p;
}

static void die(const char *what, const char *name, aplan_status st) {
    fprintf(stderr, "bench_regions: %s: %s: %s\n", name, what, aplan_status_str(st));
    exit(1);
}

/* One input: its buffers, how it is planned, and each buffer's uses. */
typedef struct input {
    char name[64];
    aplan_buffer *buffers;
    uint64_t *uses;
    size_t count;
    uint64_t alignment;
    uint32_t flags;
} input;

static char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = xmalloc((size_t)n + 1u);
    *size = fread(data, 1, (size_t)n, f);
    fclose(f);
    return data;
}

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash != NULL ? slash + 1 : path;
}

/* A model as the CLI plans it: tensors, then its kernels' scratch requests (reference kernels, 32-bit ABI). */
static bool load_model(const char *path, const char *data, size_t size, input *in) {
    aplan_tflite_info info;
    aplan_format_error e;
    if (aplan_tflite_query(data, size, &info, &e) != APLAN_OK) return false;
    void *scratch = xmalloc(info.scratch_size + 8u);
    aplan_buffer *tensors = xmalloc((info.buffer_count + 1u) * sizeof *tensors);
    aplan_tflite_id *ids = xmalloc((info.buffer_count + 1u) * sizeof *ids);
    size_t n = 0, steps_n = 0, tflm_need = 0, requests = 0, got = 0;
    bool ok = aplan_tflite_read(data, size, scratch, info.scratch_size, tensors, ids, info.buffer_count, &n, &e) ==
              APLAN_OK;
    aplan_tflm_config c;
    aplan_tflm_config_init(&c);
    ok = ok && aplan_tflite_steps(data, size, scratch, info.scratch_size, NULL, 0, &steps_n, NULL) == APLAN_OK;
    aplan_tflite_step *steps = xmalloc((steps_n + 1u) * sizeof *steps);
    ok = ok && aplan_tflite_steps(data, size, scratch, info.scratch_size, steps, steps_n, &steps_n, NULL) == APLAN_OK;
    ok = ok && aplan_tflm_query(data, size, &c, &tflm_need, &requests, NULL) == APLAN_OK;
    void *tflm = xmalloc(tflm_need + 8u);
    aplan_tflm_scratch *req = xmalloc((requests + 1u) * sizeof *req);
    ok = ok && aplan_tflm_scratch_requests(data, size, &c, steps, steps_n, tflm, tflm_need, req, requests, &got,
                                           NULL) == APLAN_OK;
    size_t uses_need = 0;
    ok = ok && aplan_tflite_uses_scratch_size(data, size, &uses_need, NULL) == APLAN_OK;
    void *uses_scratch = xmalloc(uses_need + 8u);
    in->count = n + got;
    in->buffers = xmalloc((in->count + 1u) * sizeof *in->buffers);
    in->uses = xmalloc((in->count + 1u) * sizeof *in->uses);
    ok = ok && aplan_tflite_uses(data, size, uses_scratch, uses_need, ids, n, in->uses, NULL) == APLAN_OK;
    if (ok) {
        memcpy(in->buffers, tensors, n * sizeof *tensors);
        for (size_t k = 0; k < got; k++) {
            in->buffers[n + k] = req[k].buffer;
            in->uses[n + k] = 1u;
        }
    }
    in->alignment = APLAN_TFLITE_ALIGNMENT;
    in->flags = APLAN_ROUND_SIZES | APLAN_ALLOW_FIXED_ALIAS;
    snprintf(in->name, sizeof in->name, "%s", base_name(path));
    free(uses_scratch);
    free(req);
    free(tflm);
    free(steps);
    free(ids);
    free(tensors);
    free(scratch);
    if (!ok) {
        free(in->buffers);
        free(in->uses);
    }
    return ok;
}

static bool load(const char *path, input *in) {
    size_t size = 0;
    char *data = read_file(path, &size);
    if (data == NULL) return false;
    memset(in, 0, sizeof *in);
    bool ok;
    if (size >= 8 && memcmp(data + 4, "TFL3", 4) == 0) {
        ok = load_model(path, data, size, in);
    } else {
        aplan_csv_table t;
        aplan_format_error e;
        ok = aplan_csv_parse(data, size, &t, &e) == APLAN_OK;
        if (ok) {
            in->count = t.count;
            in->buffers = xmalloc((t.count + 1u) * sizeof *in->buffers);
            memcpy(in->buffers, t.buffers, t.count * sizeof *in->buffers);
            in->uses = NULL; /* 1 each */
            in->alignment = 1;
            in->flags = 0;
            snprintf(in->name, sizeof in->name, "%s", base_name(path));
        }
        aplan_csv_free(&t);
    }
    free(data);
    /* An offline plan (person_detect_vela) fixes every buffer in one arena: not a problem for regions. */
    for (size_t i = 0; ok && i < in->count; i++) ok = in->buffers[i].offset == APLAN_NO_OFFSET;
    return ok;
}

static int cmp_double(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of up to runs_wanted runs of f within the budget (at least one). */
typedef double (*timed)(void *state);
static double median_time(timed f, void *state) {
    double t[64];
    int n = 0;
    double spent = 0.0;
    while (n < runs_wanted && n < 64 && (n == 0 || spent < budget_s)) {
        t[n] = f(state);
        spent += t[n++];
    }
    qsort(t, (size_t)n, sizeof t[0], cmp_double);
    return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2.0;
}

typedef struct region_job {
    const aplan_region_strategy *s;
    const aplan_problem *p;
    const aplan_regions *rg;
    const char *name;
    aplan_search_options *options;
    aplan_region_result result;
    aplan_status status;
} region_job;

static bool past(void *context, uint64_t nodes) {
    (void)nodes;
    return now() >= *(const double *)context;
}

static double run_region(void *state) {
    region_job *j = state;
    size_t need = 0;
    aplan_status st = aplan_region_plan_scratch_size(j->s, j->p, j->rg, &need);
    if (st != APLAN_OK) die("scratch size", j->name, st);
    void *scratch = xmalloc(need + 8u);
    uint32_t *region_of = xmalloc((j->p->count + 1u) * sizeof *region_of);
    uint64_t *offsets = xmalloc((j->p->count + 1u) * sizeof *offsets);
    uint64_t arenas[APLAN_MAX_REGIONS];
    double deadline = now() + time_limit_s;
    if (j->options != NULL) j->options->context = &deadline;
    const double t0 = now();
    j->status = aplan_region_plan(j->s, j->p, j->rg, j->options, scratch, need, region_of, offsets, arenas, NULL,
                                  &j->result);
    const double t = now() - t0;
    if (j->status != APLAN_OK && j->status != APLAN_E_CAPACITY_EXCEEDED) die(j->s->name, j->name, j->status);
    free(offsets);
    free(region_of);
    free(scratch);
    return t;
}

typedef struct single_job {
    const aplan_problem *p;
    const char *name;
    bool all_auto; /* every auto strategy, one after the other; else greedy_by_size */
} single_job;

static double run_single(void *state) {
    const single_job *j = state;
    uint64_t *offsets = xmalloc((j->p->count + 1u) * sizeof *offsets);
    double total = 0.0;
    const size_t count = j->all_auto ? aplan_strategy_auto_count() : 1u;
    for (size_t k = 0; k < count; k++) {
        const aplan_strategy *s = NULL;
        if (j->all_auto) s = aplan_strategy_auto_at(k);
        else (void)aplan_strategy_find("greedy_by_size", &s);
        size_t need = 0;
        aplan_status st = aplan_plan_scratch_size(s, j->p, &need);
        if (st != APLAN_OK) die("scratch size", j->name, st);
        void *scratch = xmalloc(need + 8u);
        aplan_result r;
        const double t0 = now();
        st = aplan_plan(s, j->p, scratch, need, offsets, &r);
        total += now() - t0;
        if (st != APLAN_OK) die(s->name, j->name, st);
        free(scratch);
    }
    free(offsets);
    return total;
}

static void print_header(void) {
    if (markdown) {
        printf("| input | buffers | fast | fast bytes | traffic bound | banked | select | select vs banked | exact "
               "| banked / greedy_by_size | select / auto |\n|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|\n");
    } else {
        printf("%-36s %7s %4s %11s %13s %13s %13s %8s %-24s %17s %17s\n", "input", "buffers", "fast", "fast bytes",
               "traffic bound", "banked", "select", "vs", "exact", "banked/greedy", "select/auto");
    }
}

static double sums[3][3]; /* [size][banked, select, exact] over the shared models */
static bool sums_exact_complete[3] = {true, true, true};

static void run_input(const input *in, bool model) {
    aplan_problem p;
    aplan_problem_init(&p, in->buffers, in->count);
    p.alignment = in->alignment;
    p.flags = in->flags;
    size_t need = 0;
    aplan_status st = aplan_lower_bound_scratch_size(&p, &need);
    void *scratch = xmalloc(need + 8u);
    uint64_t bound = 0;
    if (st == APLAN_OK) st = aplan_lower_bound(&p, scratch, need, &bound, NULL);
    free(scratch);
    if (st != APLAN_OK) die("bound", in->name, st);
    single_job greedy = {&p, in->name, false}, all = {&p, in->name, true};
    const double t_greedy = median_time(run_single, &greedy), t_auto = median_time(run_single, &all);
    static const unsigned pcts[3] = {25, 50, 75};
    for (int k = 0; k < 3; k++) {
        fprintf(stderr, "bench_regions: %s at %u%%\n", in->name, pcts[k]);
        const aplan_region g[2] = {{"fast", bound / 100u * pcts[k] + bound % 100u * pcts[k] / 100u, 0, {0, 0}},
                                   {"slow", APLAN_UNLIMITED, 0, {0, 0}}};
        const aplan_regions rg = {g, 2, NULL, in->uses, {0}};
        const aplan_region_strategy *banked = NULL, *select = NULL, *exact = NULL;
        (void)aplan_region_strategy_find("banked", &banked);
        (void)aplan_region_strategy_find("select", &select);
        (void)aplan_region_strategy_find("exact", &exact);
        region_job jb = {banked, &p, &rg, in->name, NULL, {0}, APLAN_OK};
        region_job js = {select, &p, &rg, in->name, NULL, {0}, APLAN_OK};
        const double tb = median_time(run_region, &jb), ts = median_time(run_region, &js);
        char exact_text[48] = "-";
        uint64_t exact_traffic = js.result.traffic;
        bool exact_proved = false;
        if (exact != NULL && in->count <= EXACT_MAX) {
            aplan_search_options o;
            aplan_search_options_init(&o);
            o.stop = past;
            region_job je = {exact, &p, &rg, in->name, &o, {0}, APLAN_OK};
            const double te = run_region(&je);
            exact_traffic = je.result.traffic;
            exact_proved = je.result.outcome == APLAN_OUTCOME_OPTIMAL;
            snprintf(exact_text, sizeof exact_text, "%llu %s (%.2f s)", (unsigned long long)je.result.traffic,
                     exact_proved ? "optimal" : "best found", te);
        }
        if (model) {
            sums[k][0] += (double)jb.result.traffic;
            sums[k][1] += (double)js.result.traffic;
            sums[k][2] += (double)exact_traffic;
            sums_exact_complete[k] = sums_exact_complete[k] && exact_proved;
        }
        const double vs = jb.result.traffic ? 100.0 * ((double)js.result.traffic - (double)jb.result.traffic) /
                                                  (double)jb.result.traffic
                                            : 0.0;
        char fast[16];
        snprintf(fast, sizeof fast, "%u%%", pcts[k]);
        if (markdown) {
            printf("| %s | %zu | %s | %llu | %llu | %llu | %llu | %+.1f%% | %s | %.2f ms / %.2f ms = %.2f | %.2f ms / "
                   "%.2f ms = %.2f |\n",
                   in->name, in->count, fast, (unsigned long long)g[0].capacity,
                   (unsigned long long)js.result.traffic_bound, (unsigned long long)jb.result.traffic,
                   (unsigned long long)js.result.traffic, vs, exact_text, tb * 1e3, t_greedy * 1e3, tb / t_greedy,
                   ts * 1e3, t_auto * 1e3, ts / t_auto);
        } else {
            printf("%-36.36s %7zu %4s %11llu %13llu %13llu %13llu %+7.1f%% %-24s %8.2f/%-8.2f %8.2f/%-8.2f\n",
                   in->name, in->count, fast, (unsigned long long)g[0].capacity,
                   (unsigned long long)js.result.traffic_bound, (unsigned long long)jb.result.traffic,
                   (unsigned long long)js.result.traffic, vs, exact_text, tb * 1e3, t_greedy * 1e3, ts * 1e3,
                   t_auto * 1e3);
        }
        fflush(stdout);
    }
}

int main(int argc, char **argv) {
    const char *shared = APLAN_BENCH_SHARED_DIR;
    const char *files[MAX_INPUTS];
    size_t file_count = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--shared") == 0 && i + 1 < argc) shared = argv[++i];
        else if (strcmp(argv[i], "--markdown") == 0) markdown = true;
        else if (strcmp(argv[i], "--time-limit") == 0 && i + 1 < argc) time_limit_s = atof(argv[++i]);
        else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs_wanted = atoi(argv[++i]);
        else if (strcmp(argv[i], "--budget") == 0 && i + 1 < argc) budget_s = atof(argv[++i]);
        else if (argv[i][0] != '-' && file_count < MAX_INPUTS) files[file_count++] = argv[i];
        else {
            fprintf(stderr, "usage: bench_regions [--shared DIR] [--markdown] [--time-limit S] [--runs N] "
                            "[--budget S] [FILE ...]\n");
            return 2;
        }
    }
    if (runs_wanted < 1) runs_wanted = 1;
    printf("bench_regions: aplan %s; fast region at 25/50/75%% of each input's lower bound, slow region unlimited; "
           "median of up to %d runs (budget %.1f s); exact with %.0f s on inputs of at most %u buffers\n\n",
           aplan_version(), runs_wanted, budget_s, time_limit_s, EXACT_MAX);
    print_header();
    char pattern[4096];
    snprintf(pattern, sizeof pattern, "%s/models/*.tflite", shared);
    glob_t g;
    size_t models = 0;
    if (glob(pattern, 0, NULL, &g) == 0) {
        for (size_t k = 0; k < g.gl_pathc; k++) {
            input in;
            if (!load(g.gl_pathv[k], &in)) {
                fprintf(stderr, "bench_regions: %s: not planned (unreadable, or an offline plan)\n", g.gl_pathv[k]);
                continue;
            }
            run_input(&in, true);
            models++;
            free(in.buffers);
            free(in.uses);
        }
        globfree(&g);
    }
    snprintf(pattern, sizeof pattern, "%s/benchmarks/large/*.csv", shared);
    if (glob(pattern, 0, NULL, &g) == 0) {
        for (size_t k = 0; k < g.gl_pathc; k++) {
            input in;
            if (load(g.gl_pathv[k], &in)) {
                run_input(&in, false);
                free(in.buffers);
                free(in.uses);
            }
        }
        globfree(&g);
    }
    for (size_t k = 0; k < file_count; k++) {
        input in;
        if (!load(files[k], &in)) {
            fprintf(stderr, "bench_regions: %s: cannot read it\n", files[k]);
            return 1;
        }
        run_input(&in, false);
        free(in.buffers);
        free(in.uses);
    }
    if (models > 0) {
        printf("\nsums over the %zu shared models:\n", models);
        static const unsigned pcts[3] = {25, 50, 75};
        for (int k = 0; k < 3; k++) {
            printf("  fast %u%%: banked %.0f, select %.0f (%.1f%% less), exact %.0f (%.1f%% less%s)\n", pcts[k],
                   sums[k][0], sums[k][1], 100.0 * (sums[k][0] - sums[k][1]) / sums[k][0], sums[k][2],
                   100.0 * (sums[k][0] - sums[k][2]) / sums[k][0],
                   sums_exact_complete[k] ? ", proven least on every model" : "; not proven on every model");
        }
    }
    return 0;
}
