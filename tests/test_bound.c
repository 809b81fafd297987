/* The lower bound: both paths, every term of its definition, overflow. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "helpers.h"

/* Both paths must agree on the bound and the step. */
static uint64_t bound_both(const aplan_problem *p, uint64_t *step) {
    size_t need;
    assert_int_equal(aplan_lower_bound_scratch_size(p, &need), APLAN_OK);
    /* aligned_alloc wants a multiple of the alignment */
    void *scratch = aligned_alloc(APLAN_SCRATCH_ALIGN, (need + 8u + APLAN_SCRATCH_ALIGN - 1u) & ~(size_t)(APLAN_SCRATCH_ALIGN - 1u));
    uint64_t fast, slow, fast_step, slow_step;
    assert_int_equal(aplan_lower_bound(p, scratch, need, &fast, &fast_step), APLAN_OK);
    assert_int_equal(aplan_lower_bound(p, NULL, 0, &slow, &slow_step), APLAN_OK);
    free(scratch);
    assert_int_equal(fast, slow);
    assert_int_equal(fast_step, slow_step);
    assert_int_equal(fast, brute_force_bound(p));
    if (step) *step = fast_step;
    return fast;
}

static void test_bound_is_largest_live_sum(void **state) {
    (void)state;
    aplan_buffer b[5] = {buf(10, 0, 2), buf(20, 1, 3), buf(30, 2, 4), buf(40, 3, 5), buf(50, 0, 2)};
    aplan_problem p;
    aplan_problem_init(&p, b, 5);
    uint64_t step;
    assert_int_equal(bound_both(&p, &step), 80); /* step 1: 10 + 20 + 50; step 3: 30 + 40 = 70 */
    assert_int_equal(step, 1);
}

static void test_bound_reports_earliest_peak_step(void **state) {
    (void)state;
    aplan_buffer b[3] = {buf(10, 5, 6), buf(10, 2, 3), buf(10, 8, 9)};
    aplan_problem p;
    aplan_problem_init(&p, b, 3);
    uint64_t step;
    assert_int_equal(bound_both(&p, &step), 10);
    assert_int_equal(step, 2);
}

static void test_bound_uses_rounded_sizes(void **state) {
    (void)state;
    aplan_buffer b[2] = {buf(1, 0, 2), buf(17, 1, 2)};
    aplan_problem p;
    aplan_problem_init(&p, b, 2);
    p.alignment = 16;
    assert_int_equal(bound_both(&p, NULL), 18);
    p.flags = APLAN_ROUND_SIZES;
    assert_int_equal(bound_both(&p, NULL), 48);
}

static void test_bound_covers_never_live_and_fixed_ends(void **state) {
    (void)state;
    aplan_buffer b[3] = {buf(10, 0, 2), buf(500, 3, 3), buf(10, 0, 2)};
    aplan_problem p;
    aplan_problem_init(&p, b, 3);
    assert_int_equal(bound_both(&p, NULL), 500); /* every buffer lies in the arena, live or not */
    b[1] = fixed_buf(10, 0, 1, 990);
    assert_int_equal(bound_both(&p, NULL), 1000);
}

static void test_bound_counts_fixed_buffers_once_when_aliasing(void **state) {
    (void)state;
    aplan_buffer b[3] = {fixed_buf(100, 0, 2, 0), fixed_buf(100, 0, 2, 0), buf(30, 0, 2)};
    aplan_problem p;
    aplan_problem_init(&p, b, 3);
    assert_int_equal(bound_both(&p, NULL), 230);
    p.flags = APLAN_ALLOW_FIXED_ALIAS;
    assert_int_equal(bound_both(&p, NULL), 100); /* the fixed end; the live online sum is 30 */
}

static void test_bound_of_empty_problem_is_zero(void **state) {
    (void)state;
    aplan_problem p;
    aplan_problem_init(&p, NULL, 0);
    uint64_t bound = 1, step = 1;
    assert_int_equal(aplan_lower_bound(&p, NULL, 0, &bound, &step), APLAN_OK);
    assert_int_equal(bound, 0);
    assert_int_equal(step, 0);
}

static void test_bound_rejects_live_sum_overflow(void **state) {
    (void)state;
    aplan_buffer b[2] = {buf(UINT64_MAX / 2u + 1u, 0, 2), buf(UINT64_MAX / 2u + 1u, 1, 3)};
    aplan_problem p;
    aplan_problem_init(&p, b, 2);
    uint64_t scratch[4], bound;
    assert_int_equal(aplan_lower_bound(&p, scratch, sizeof scratch, &bound, NULL), APLAN_E_SIZE_OVERFLOW);
    assert_int_equal(aplan_lower_bound(&p, NULL, 0, &bound, NULL), APLAN_E_SIZE_OVERFLOW);
    b[1].lower = 2; /* no longer live together */
    assert_int_equal(aplan_lower_bound(&p, scratch, sizeof scratch, &bound, NULL), APLAN_OK);
    assert_true(bound == UINT64_MAX / 2u + 1u);
}

static void test_bound_rejects_bad_arguments(void **state) {
    (void)state;
    aplan_buffer b[1] = {buf(1, 2, 1)};
    aplan_problem p;
    aplan_problem_init(&p, b, 1);
    uint64_t bound, scratch[2];
    assert_int_equal(aplan_lower_bound(&p, NULL, 0, NULL, NULL), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_lower_bound(&p, NULL, 0, &bound, NULL), APLAN_E_BAD_LIFETIME);
    b[0].upper = 3;
    size_t bytes;
    assert_int_equal(aplan_lower_bound_scratch_size(NULL, &bytes), APLAN_E_INVALID_ARG);
    if (compact_build()) { /* no sweep: no scratch to check, and no need to overflow */
        assert_int_equal(aplan_lower_bound(&p, (char *)scratch + 1, 0, &bound, NULL), APLAN_OK);
        p.count = SIZE_MAX / 2u;
        assert_int_equal(aplan_lower_bound_scratch_size(&p, &bytes), APLAN_OK);
        assert_int_equal(bytes, 0);
        return;
    }
    assert_int_equal(aplan_lower_bound(&p, scratch, 11, &bound, NULL), APLAN_E_SCRATCH_TOO_SMALL);
    assert_int_equal(aplan_lower_bound(&p, (char *)scratch + 1, 12, &bound, NULL), APLAN_E_SCRATCH_MISALIGNED);
    p.count = SIZE_MAX / 2u;
    assert_int_equal(aplan_lower_bound_scratch_size(&p, &bytes), APLAN_E_SIZE_OVERFLOW);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bound_is_largest_live_sum),
        cmocka_unit_test(test_bound_reports_earliest_peak_step),
        cmocka_unit_test(test_bound_uses_rounded_sizes),
        cmocka_unit_test(test_bound_covers_never_live_and_fixed_ends),
        cmocka_unit_test(test_bound_counts_fixed_buffers_once_when_aliasing),
        cmocka_unit_test(test_bound_of_empty_problem_is_zero),
        cmocka_unit_test(test_bound_rejects_live_sum_overflow),
        cmocka_unit_test(test_bound_rejects_bad_arguments),
    };
    return cmocka_run_group_tests_name("bound", tests, NULL, NULL);
}
