/*
 * Planning time against problem size: aplan's greedy_by_size (interval-tree conflict queries, heapsort) beside a
 * baseline written here the way TFLite Micro's GreedyMemoryPlanner works (bubble sort by size, then for each buffer
 * a walk over every placed buffer in offset order), on the same generated problems, plus the verifier and the lower
 * bound. Both planners must give the same arena (the baseline uses TFLM's tie order, so it is compared with
 * greedy_by_size_tflm). Prints a table: median of REPEATS runs, and the ratio baseline / aplan.
 *
 *   bench_plan [REPEATS]      (default 5)
 *
 * Problems: inference-like lifetimes (each buffer starts near the previous one and lives a few steps, one in eight
 * much longer, like a skip connection), sizes 16 B to 64 KiB, alignment 16.
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aplan/aplan.h"
#include "aplan/strategies.h"

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void make(aplan_buffer *b, size_t n) {
    for (size_t i = 0; i < n; i++) {
        const uint64_t lower = i / 2 + next() % 3;
        const uint64_t life = next() % 8 == 0 ? 20 + next() % 200 : 1 + next() % 4;
        b[i] = (aplan_buffer){16 + next() % 65536, lower, lower + life, 0, APLAN_NO_OFFSET};
    }
}

/* The baseline: TFLM's algorithm as its source describes it (sizes pre-rounded to 16, so no alignment step). */
typedef struct {
    uint64_t offset;
    size_t id;
    int next;
} entry;

static uint64_t baseline(const aplan_buffer *b, size_t n, uint64_t *offsets, size_t *order, entry *list) {
    for (size_t i = 0; i < n; i++) order[i] = n - 1 - i; /* online buffers loaded in reverse */
    for (size_t pass = 0; pass < n; pass++) { /* bubble sort by size, largest first, stable */
        int swapped = 0;
        for (size_t i = 1; i < n - pass; i++) {
            const uint64_t a = (b[order[i - 1]].size + 15) & ~15ull, c = (b[order[i]].size + 15) & ~15ull;
            if (a < c) {
                size_t t = order[i - 1];
                order[i - 1] = order[i];
                order[i] = t;
                swapped = 1;
            }
        }
        if (!swapped) break;
    }
    int head = -1;
    uint64_t arena = 0;
    for (size_t k = 0; k < n; k++) {
        const size_t id = order[k];
        const uint64_t size = (b[id].size + 15) & ~15ull;
        uint64_t candidate = 0;
        int prior = -1;
        for (int e = head; e != -1; e = list[e].next) { /* every placed buffer, in offset order */
            const aplan_buffer *o = &b[list[e].id];
            if (o->lower >= b[id].upper || b[id].lower >= o->upper) continue;
            if (list[e].offset >= candidate + size) break;
            const uint64_t end = list[e].offset + ((o->size + 15) & ~15ull);
            if (end > candidate) candidate = end;
        }
        offsets[id] = candidate;
        list[k] = (entry){candidate, id, -1};
        if (head == -1 || list[head].offset > candidate) {
            list[k].next = head;
            head = (int)k;
        } else {
            for (prior = head; list[prior].next != -1 && list[list[prior].next].offset <= candidate;)
                prior = list[prior].next;
            list[k].next = list[prior].next;
            list[prior].next = (int)k;
        }
        if (candidate + size > arena) arena = candidate + size;
    }
    return arena;
}

static int cmp_double(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

int main(int argc, char **argv) {
    const int repeats = argc > 1 ? atoi(argv[1]) : 5;
    static const size_t sizes[] = {100, 1000, 5000, 20000};
    printf("%8s %14s %14s %14s %14s %10s %12s\n", "buffers", "baseline ms", "aplan ms", "verify ms", "bound ms",
           "speed-up", "arena equal");
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const size_t n = sizes[s];
        aplan_buffer *b = malloc(n * sizeof *b);
        uint64_t *off = malloc(n * sizeof *off), *off2 = malloc(n * sizeof *off2);
        size_t *order = malloc(n * sizeof *order);
        entry *list = malloc(n * sizeof *list);
        make(b, n);
        aplan_problem p;
        aplan_problem_init(&p, b, n);
        p.alignment = 16;
        p.flags = APLAN_ROUND_SIZES;
        const aplan_strategy *g = aplan_strategy_greedy_by_size_tflm();
        size_t need;
        if (aplan_plan_scratch_size(g, &p, &need) != APLAN_OK) return 1;
        void *scratch = malloc(need);
        double tb[64], ta[64], tv[64], tl[64];
        uint64_t arena_b = 0;
        aplan_result r;
        for (int k = 0; k < repeats && k < 64; k++) {
            double t0 = now();
            arena_b = baseline(b, n, off2, order, list);
            double t1 = now();
            if (aplan_plan(g, &p, scratch, need, off, &r) != APLAN_OK) return 1;
            double t2 = now();
            if (aplan_verify(&p, off, r.arena_size, scratch, need, NULL) != APLAN_OK) return 1;
            double t3 = now();
            uint64_t bound;
            if (aplan_lower_bound(&p, scratch, need, &bound, NULL) != APLAN_OK) return 1;
            double t4 = now();
            tb[k] = (t1 - t0) * 1e3;
            ta[k] = (t2 - t1) * 1e3;
            tv[k] = (t3 - t2) * 1e3;
            tl[k] = (t4 - t3) * 1e3;
        }
        const double mb = median(tb, repeats), ma = median(ta, repeats);
        printf("%8zu %14.3f %14.3f %14.3f %14.3f %9.1fx %12s\n", n, mb, ma, median(tv, repeats), median(tl, repeats),
               mb / ma, arena_b == r.arena_size && memcmp(off, off2, n * sizeof *off) == 0 ? "yes" : "NO");
        free(scratch);
        free(list);
        free(order);
        free(off2);
        free(off);
        free(b);
    }
    printf("(aplan ms includes validation, the lower bound and verification inside aplan_plan)\n");
    return 0;
}
