/*
 * The figures the documentation states about the code, measured: one `key value` line each, read by
 * tests/docs_test.py, which checks every place a doc states one. Scratch is measured as bench/footprint.py
 * measures it (n = 4096 buffers, buffer i of 64 + i bytes live over steps [i, i + 3)), per buffer with one decimal;
 * a figure per fixed buffer is the growth of the need when a quarter of them get fixed offsets.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aplan/csv.h"
#include "aplan/strategies.h"

/* PAST_DENSE: the first size at which the greedy engine's lowest rule no longer sets its dense list aside
 * (greedy.c, DENSE_MAX). */
enum { N = 4096, FIXED = N / 4, PAST_DENSE = 65537 };

static aplan_buffer shape[PAST_DENSE];

static aplan_problem problem_of_count(size_t count, size_t fixed) {
    for (size_t i = 0; i < count; i++) {
        shape[i] = (aplan_buffer){64 + i, i, i + 3, 0, i < fixed ? (uint64_t)i * 1000000u : APLAN_NO_OFFSET};
    }
    aplan_problem p;
    aplan_problem_init(&p, shape, count);
    return p;
}

static aplan_problem problem_of(size_t fixed) { return problem_of_count(N, fixed); }

static size_t own_need_of(const aplan_strategy *s, size_t count) {
    aplan_problem p = problem_of_count(count, 0);
    size_t bytes = 0;
    if (s->scratch_size(s, &p, &bytes) != APLAN_OK) exit(1);
    return bytes;
}

static size_t own_need(const aplan_strategy *s, size_t fixed) {
    aplan_problem p = problem_of(fixed);
    size_t bytes = 0;
    if (s->scratch_size(s, &p, &bytes) != APLAN_OK) exit(1);
    return bytes;
}

static size_t plan_need_of(const aplan_strategy *s, size_t count) {
    aplan_problem p = problem_of_count(count, 0);
    size_t bytes = 0;
    if (aplan_plan_scratch_size(s, &p, &bytes) != APLAN_OK) exit(1);
    return bytes;
}

static size_t plan_need(const aplan_strategy *s, size_t fixed) {
    aplan_problem p = problem_of(fixed);
    size_t bytes = 0;
    if (aplan_plan_scratch_size(s, &p, &bytes) != APLAN_OK) exit(1);
    return bytes;
}

int main(void) {
    printf("version %s\n", aplan_version());
    for (size_t k = 0; k < aplan_strategy_count(); k++) {
        const aplan_strategy *s = aplan_strategy_at(k);
        size_t own = own_need(s, 0);
        printf("plan_scratch.%s %.1f\n", s->name, (double)plan_need(s, 0) / N);
        printf("plan_scratch_large.%s %.1f\n", s->name, (double)plan_need_of(s, 2 * N) / (2 * N));
        printf("plan_scratch_past_dense.%s %.1f\n", s->name, (double)plan_need_of(s, PAST_DENSE) / PAST_DENSE);
        printf("scratch_per_fixed.%s %zu\n", s->name, (own_need(s, FIXED) - own) / FIXED);
        /* exact: a need per buffer, one per member of the largest group it could search (every buffer, below that
         * group's size), and one group's region, min(48 n^2, 64 MiB). Measured where the region is 48 n^2 and every
         * buffer could be a member (n = 1000), and by the growth from N to 2 N, past that group's size. */
        if (strcmp(s->name, "exact") == 0) {
            const size_t small = 1000, per_buffer = (own_need_of(s, 2 * N) - own) / N;
            const size_t beside = own_need_of(s, small) - 48u * small * small;
            printf("scratch_per_buffer.%s %zu\n", s->name, per_buffer);
            printf("scratch_per_member.%s %.0f\n", s->name, (double)beside / (double)small - (double)per_buffer);
            printf("scratch_past_members_mib.%s %.1f\n", s->name, (double)(own - per_buffer * N) / (double)(1u << 20));
        } else {
            /* the greedy engine takes 48 bytes a buffer more from 2 N = 8192 buffers (its span arrays), and under the
             * lowest rule about 48 more up to 65,536 (its dense list) */
            printf("scratch.%s %.1f\n", s->name, (double)own / N);
            printf("scratch_large.%s %.1f\n", s->name, (double)own_need_of(s, 2 * N) / (2 * N));
            printf("scratch_past_dense.%s %.1f\n", s->name, (double)own_need_of(s, PAST_DENSE) / PAST_DENSE);
        }
    }
    aplan_problem p = problem_of(0);
    size_t bound = 0, verify = 0;
    (void)aplan_lower_bound_scratch_size(&p, &bound);
    printf("bound_per_buffer %zu\n", bound / N);
    /* The verifier's need is 16 per buffer plus 8 per leaf of a tree over the next power of two: the most per buffer
     * is just past a power of two. */
    double worst = 0;
    for (size_t n = 1; n <= N; n++) {
        p.count = n;
        (void)aplan_verify_scratch_size(&p, &verify);
        if ((double)verify / (double)n > worst) worst = (double)verify / (double)n;
    }
    p.count = N;
    (void)aplan_verify_scratch_size(&p, &verify);
    printf("verify_per_buffer_at_power_of_two %zu\n", verify / N - 8u);
    printf("verify_max_per_buffer %.0f\n", worst + 0.5);
    /* A parsed CSV row: its buffer, its id pointer and its line number (aplan_csv_table). */
    printf("csv_row_bytes %zu\n", sizeof(aplan_buffer) + sizeof(const char *) + sizeof(uint32_t));
    return 0;
}
