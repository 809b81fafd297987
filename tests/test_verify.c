/* The verifier: one test per rule, each with a plan that breaks exactly that rule, asserting the exact report from
 * both the O(n log n) sweep and the O(n^2) path without scratch. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"

/* Runs both paths, asserts they agree on the status and the whole report, returns the report. */
static aplan_report verify_both(const aplan_problem *p, const uint64_t *off, uint64_t arena, aplan_status want) {
    size_t need;
    assert_int_equal(aplan_verify_scratch_size(p, &need), APLAN_OK);
    void *scratch = aligned_alloc(APLAN_SCRATCH_ALIGN, need + 8u);
    aplan_report fast, slow;
    assert_int_equal(aplan_verify(p, off, arena, scratch, need, &fast), want);
    assert_int_equal(aplan_verify(p, off, arena, NULL, 0, &slow), want);
    free(scratch);
    assert_int_equal(fast.rule, want);
    assert_memory_equal(&fast, &slow, sizeof fast);
    assert_int_equal(brute_force_valid(p, off, arena), want == APLAN_OK);
    return fast;
}

static void assert_text(const aplan_report *r, const char *want) {
    char text[160];
    aplan_report_format(r, text, sizeof text);
    assert_string_equal(text, want);
}

/* Three buffers: a [0,4) 100 bytes, b [2,6) 50 bytes, c [4,8) 100 bytes. a and c may share, b may not. */
static aplan_buffer abc[3];
static aplan_problem problem_abc(void) {
    abc[0] = buf(100, 0, 4);
    abc[1] = buf(50, 2, 6);
    abc[2] = buf(100, 4, 8);
    aplan_problem p;
    aplan_problem_init(&p, abc, 3);
    return p;
}

static void test_verify_accepts_valid_plan(void **state) {
    (void)state;
    aplan_problem p = problem_abc();
    uint64_t off[3] = {0, 100, 0};
    aplan_report r = verify_both(&p, off, 150, APLAN_OK);
    assert_true(r.buffer_a == APLAN_NO_BUFFER);
    assert_int_equal(r.aliased_pairs, 0);
}

static void test_verify_rejects_unplaced(void **state) {
    (void)state;
    aplan_problem p = problem_abc();
    uint64_t off[3] = {0, APLAN_NO_OFFSET, 0};
    aplan_report r = verify_both(&p, off, 100, APLAN_E_UNPLACED);
    assert_int_equal(r.buffer_a, 1);
    assert_text(&r, "buffer 1 is not placed");
}

static void test_verify_rejects_misaligned_offset(void **state) {
    (void)state;
    aplan_problem p = problem_abc();
    p.alignment = 4;
    uint64_t off[3] = {0, 102, 0};
    aplan_report r = verify_both(&p, off, 152, APLAN_E_MISALIGNED_OFFSET);
    assert_int_equal(r.buffer_a, 1);
    assert_int_equal(r.value, 102);
    assert_int_equal(r.limit, 4);
    assert_text(&r, "buffer 1: offset 102 is not a multiple of its alignment 4");
}

static void test_verify_rejects_moved_fixed_buffer(void **state) {
    (void)state;
    aplan_problem p = problem_abc();
    abc[2].offset = 200;
    uint64_t off[3] = {0, 100, 0};
    aplan_report r = verify_both(&p, off, 150, APLAN_E_FIXED_MOVED);
    assert_int_equal(r.buffer_a, 2);
    assert_text(&r, "buffer 2: placed at 0 but fixed at 200");
}

static void test_verify_rejects_end_overflow(void **state) {
    (void)state;
    aplan_problem p = problem_abc();
    uint64_t off[3] = {0, UINT64_MAX - 10u, 0};
    aplan_report r = verify_both(&p, off, UINT64_MAX, APLAN_E_SIZE_OVERFLOW);
    assert_int_equal(r.buffer_a, 1);
}

static void test_verify_rejects_buffer_beyond_arena(void **state) {
    (void)state;
    aplan_problem p = problem_abc();
    uint64_t off[3] = {0, 100, 0};
    aplan_report r = verify_both(&p, off, 149, APLAN_E_OUT_OF_ARENA);
    assert_int_equal(r.buffer_a, 1);
    assert_int_equal(r.value, 150);
    assert_int_equal(r.limit, 149);
    assert_text(&r, "buffer 1 ends at byte 150, beyond the arena size 149");
}

static void test_verify_rejects_arena_larger_than_highest_end(void **state) {
    (void)state;
    aplan_problem p = problem_abc();
    uint64_t off[3] = {0, 100, 0};
    aplan_report r = verify_both(&p, off, 160, APLAN_E_ARENA_MISMATCH);
    assert_true(r.buffer_a == APLAN_NO_BUFFER);
    assert_text(&r, "arena size 160 is not the highest buffer end 150");
}

static void test_verify_rejects_overlap_with_exact_report(void **state) {
    (void)state;
    aplan_problem p = problem_abc();
    uint64_t off[3] = {0, 60, 0}; /* b [60,110) meets a [0,100) at steps 2..3 and c [0,100) at 4..5 */
    abc[2].lower = 6;              /* move c out of b's way so exactly one pair breaks */
    abc[2].upper = 8;
    aplan_report r = verify_both(&p, off, 110, APLAN_E_OVERLAP);
    assert_int_equal(r.buffer_a, 0);
    assert_int_equal(r.buffer_b, 1);
    assert_int_equal(r.step_lo, 2);
    assert_int_equal(r.step_hi, 4);
    assert_int_equal(r.byte_lo, 60);
    assert_int_equal(r.byte_hi, 100);
    assert_text(&r, "buffers 0 and 1 overlap at steps 2-3, bytes 60-99");
}

static void test_verify_allows_touching_lifetimes_and_bytes(void **state) {
    (void)state;
    aplan_problem p = problem_abc();
    uint64_t off[3] = {0, 150, 50}; /* a and c share bytes but a ends at step 4 where c starts */
    verify_both(&p, off, 200, APLAN_OK);
}

static void test_verify_ignores_empty_and_never_live_buffers(void **state) {
    (void)state;
    aplan_buffer b[3] = {buf(100, 0, 4), buf(0, 0, 4), buf(100, 3, 3)};
    aplan_problem p;
    aplan_problem_init(&p, b, 3);
    uint64_t off[3] = {0, 50, 0};
    verify_both(&p, off, 100, APLAN_OK);
}

static void test_verify_rejects_fixed_overlap_unless_aliasing_allowed(void **state) {
    (void)state;
    aplan_buffer b[4] = {fixed_buf(64, 0, 3, 0), fixed_buf(64, 0, 3, 0), fixed_buf(32, 1, 2, 32), buf(16, 0, 3)};
    aplan_problem p;
    aplan_problem_init(&p, b, 4);
    uint64_t off[4] = {0, 0, 32, 64};
    aplan_report r = verify_both(&p, off, 80, APLAN_E_FIXED_OVERLAP);
    assert_int_equal(r.buffer_a, 0);
    assert_int_equal(r.buffer_b, 1);
    assert_text(&r, "fixed buffers 0 and 1 overlap at steps 0-2, bytes 0-63");
    p.flags = APLAN_ALLOW_FIXED_ALIAS;
    r = verify_both(&p, off, 80, APLAN_OK);
    assert_int_equal(r.aliased_pairs, 3); /* 0-1, 0-2, 1-2 */
    /* An online buffer on top of an aliased pair is still an overlap. */
    off[3] = 48;
    r = verify_both(&p, off, 64, APLAN_E_OVERLAP);
    assert_int_equal(r.buffer_b, 3);
}

static void test_verify_rejects_arena_above_capacity(void **state) {
    (void)state;
    aplan_problem p = problem_abc();
    p.capacity = 149;
    uint64_t off[3] = {0, 100, 0};
    aplan_report r = verify_both(&p, off, 150, APLAN_E_CAPACITY_EXCEEDED);
    assert_int_equal(r.value, 150);
    assert_int_equal(r.limit, 149);
    assert_text(&r, "problem needs 150 bytes, capacity is 149");
}

/* The rule order is a contract (aplan.h): an overlap (rule 6) is reported before the capacity (rule 7), so
 * APLAN_E_CAPACITY_EXCEEDED always means "valid but too big"; an arena mismatch (rule 5) before either. */
static void test_verify_checks_capacity_last(void **state) {
    (void)state;
    aplan_problem p = problem_abc();
    p.capacity = 120;
    uint64_t off[3] = {0, 90, 0}; /* a and b share bytes 90-99 at steps 2-3; the arena 140 exceeds 120 */
    aplan_report r = verify_both(&p, off, 140, APLAN_E_OVERLAP);
    assert_int_equal(r.buffer_a, 0);
    assert_int_equal(r.buffer_b, 1);
    r = verify_both(&p, off, 141, APLAN_E_ARENA_MISMATCH);
    assert_int_equal(r.value, 141);
    assert_int_equal(r.limit, 140);
    off[1] = 100;
    r = verify_both(&p, off, 150, APLAN_E_CAPACITY_EXCEEDED);
    assert_int_equal(r.value, 150);
    assert_int_equal(r.limit, 120);
}

static void test_verify_reports_validation_failure(void **state) {
    (void)state;
    aplan_problem p = problem_abc();
    abc[1].alignment = 3;
    uint64_t off[3] = {0, 100, 0};
    aplan_report r = verify_both(&p, off, 150, APLAN_E_BAD_ALIGNMENT);
    assert_int_equal(r.buffer_a, 1);
    assert_int_equal(aplan_verify(&p, NULL, 0, NULL, 0, NULL), APLAN_E_BAD_ALIGNMENT);
    abc[1].alignment = 0;
    assert_int_equal(aplan_verify(&p, NULL, 0, NULL, 0, NULL), APLAN_E_INVALID_ARG);
}

static void test_verify_rejects_short_or_misaligned_scratch(void **state) {
    (void)state;
    aplan_problem p = problem_abc();
    uint64_t off[3] = {0, 100, 0};
    size_t need;
    assert_int_equal(aplan_verify_scratch_size(&p, &need), APLAN_OK);
    unsigned char *mem = aligned_alloc(APLAN_SCRATCH_ALIGN, need + 16u);
    aplan_report r;
    if (compact_build()) { /* no sweep, no scratch: any pointer and size is enough */
        assert_int_equal(need, 0);
        assert_int_equal(aplan_verify(&p, off, 150, mem + 4, 0, &r), APLAN_OK);
        free(mem);
        return;
    }
    assert_int_equal(aplan_verify(&p, off, 150, mem, need - 1u, &r), APLAN_E_SCRATCH_TOO_SMALL);
    assert_int_equal(r.rule, APLAN_E_SCRATCH_TOO_SMALL);
    assert_int_equal(aplan_verify(&p, off, 150, mem + 4, need, &r), APLAN_E_SCRATCH_MISALIGNED);
    assert_int_equal(aplan_verify(&p, off, 150, mem, need, &r), APLAN_OK);
    free(mem);
}

static void test_verify_accepts_empty_problem_with_or_without_scratch(void **state) {
    (void)state;
    aplan_problem p;
    aplan_problem_init(&p, NULL, 0);
    uint64_t scratch[4];
    assert_int_equal(aplan_verify(&p, NULL, 0, scratch, sizeof scratch, NULL), APLAN_OK);
    assert_int_equal(aplan_verify(&p, NULL, 0, NULL, 0, NULL), APLAN_OK);
    aplan_report r;
    assert_int_equal(aplan_verify(&p, NULL, 1, scratch, sizeof scratch, &r), APLAN_E_ARENA_MISMATCH);
}

static void test_verify_counts_many_aliases_in_both_paths(void **state) {
    (void)state;
    /* 40 fixed buffers at offset 0 all live together: 780 aliased pairs, and the sweep must list them all. */
    aplan_buffer b[40];
    for (size_t i = 0; i < 40; i++) b[i] = fixed_buf(16 + i, i % 3, 10 + i % 5, 0);
    aplan_problem p;
    aplan_problem_init(&p, b, 40);
    p.flags = APLAN_ALLOW_FIXED_ALIAS;
    uint64_t off[40];
    for (size_t i = 0; i < 40; i++) off[i] = 0;
    aplan_report r = verify_both(&p, off, 55, APLAN_OK);
    assert_int_equal(r.aliased_pairs, 780);
}

/* ---- aplan_overlaps: the verifier's sweep for any set of placed buffers ---------------------------------------- */

/* Every pair aplan_overlaps reports, in order, up to 16; stop after `stop_after` pairs (0: never). */
typedef struct pairs_seen {
    aplan_report pair[16];
    size_t count;
    size_t stop_after;
} pairs_seen;

static bool keep_pair(void *context, const aplan_report *pair) {
    pairs_seen *seen = context;
    if (seen->count < 16) seen->pair[seen->count] = *pair;
    seen->count++;
    return seen->stop_after == 0 || seen->count < seen->stop_after;
}

static aplan_status overlaps(const aplan_problem *p, const uint64_t *off, pairs_seen *seen, aplan_report *r) {
    size_t need;
    assert_int_equal(aplan_overlaps_scratch_size(p, &need), APLAN_OK);
    void *scratch = aligned_alloc(APLAN_SCRATCH_ALIGN, need + 8u);
    aplan_status st = aplan_overlaps(p, off, scratch, need, keep_pair, seen, r);
    free(scratch);
    return st;
}

static void assert_pair(const aplan_report *r, aplan_status rule, size_t a, size_t b, uint64_t step_lo,
                        uint64_t step_hi, uint64_t byte_lo, uint64_t byte_hi) {
    assert_int_equal(r->rule, rule);
    assert_int_equal(r->buffer_a, a);
    assert_int_equal(r->buffer_b, b);
    assert_int_equal(r->step_lo, step_lo);
    assert_int_equal(r->step_hi, step_hi);
    assert_int_equal(r->byte_lo, byte_lo);
    assert_int_equal(r->byte_hi, byte_hi);
}

static void test_overlaps_lists_every_pair_in_sweep_order(void **state) {
    (void)state;
    aplan_buffer b[6] = {
        buf(8, 0, 2),             /* 0: bytes [0, 8) */
        buf(8, 1, 3),             /* 1: bytes [4, 12): shares [4, 8) with 0 at step 1 */
        buf(4, 2, 4),             /* 2: bytes [0, 4): 0 has ended at 2, 1 is above it */
        buf(100, 0, 9),           /* 3: unplaced, left out */
        fixed_buf(8, 0, 4, 8),    /* 4: bytes [8, 16): with 1 at steps [1, 3) */
        fixed_buf(16, 3, 5, 0),   /* 5: bytes [0, 16): with 2 at step 3, and with 4 (both fixed) at step 3 */
    };
    aplan_problem p;
    aplan_problem_init(&p, b, 6);
    p.flags = APLAN_ALLOW_FIXED_ALIAS; /* changes nothing: every sharing pair is listed */
    uint64_t off[6] = {0, 4, 0, APLAN_NO_OFFSET, 8, 0};
    pairs_seen seen = {.stop_after = 0};
    aplan_report r;
    assert_int_equal(overlaps(&p, off, &seen, &r), APLAN_OK);
    assert_int_equal(seen.count, 4);
    /* By the step the later one starts: 1 at step 1 (with 0, then 4, lowest offset first), then 5 at step 3. */
    assert_pair(&seen.pair[0], APLAN_E_OVERLAP, 0, 1, 1, 2, 4, 8);
    assert_pair(&seen.pair[1], APLAN_E_OVERLAP, 1, 4, 1, 3, 8, 12);
    assert_pair(&seen.pair[2], APLAN_E_OVERLAP, 2, 5, 3, 4, 0, 4);
    assert_pair(&seen.pair[3], APLAN_E_FIXED_OVERLAP, 4, 5, 3, 4, 8, 16);
    /* The fixed buffers alone: only the pair of fixed ones. */
    uint64_t fixed[6];
    for (size_t i = 0; i < 6; i++) fixed[i] = b[i].offset;
    seen.count = 0;
    assert_int_equal(overlaps(&p, fixed, &seen, &r), APLAN_OK);
    assert_int_equal(seen.count, 1);
    assert_pair(&seen.pair[0], APLAN_E_FIXED_OVERLAP, 4, 5, 3, 4, 8, 16);
    /* The callback stops the sweep: one call, still APLAN_OK. */
    seen = (pairs_seen){.stop_after = 1};
    assert_int_equal(overlaps(&p, off, &seen, &r), APLAN_OK);
    assert_int_equal(seen.count, 1);
    assert_pair(&seen.pair[0], APLAN_E_OVERLAP, 0, 1, 1, 2, 4, 8);
    /* A valid plan has none. */
    uint64_t valid[6] = {0, 16, 24, APLAN_NO_OFFSET, 32, 40};
    seen.count = 0;
    assert_int_equal(overlaps(&p, valid, &seen, &r), APLAN_OK);
    assert_int_equal(seen.count, 0);
}

static void test_overlaps_failures(void **state) {
    (void)state;
    aplan_buffer b[2] = {buf(16, 0, 2), buf(16, 0, 2)};
    aplan_problem p;
    aplan_problem_init(&p, b, 2);
    uint64_t off[2] = {0, UINT64_MAX - 8u};
    pairs_seen seen = {.stop_after = 0};
    aplan_report r;
    assert_int_equal(overlaps(&p, off, &seen, &r), APLAN_E_SIZE_OVERFLOW);
    assert_int_equal(r.rule, APLAN_E_SIZE_OVERFLOW);
    assert_int_equal(r.buffer_a, 1);
    assert_int_equal(r.value, UINT64_MAX - 8u);
    assert_int_equal(r.limit, 16);
    assert_int_equal(seen.count, 0);
    off[1] = 8;
    size_t need;
    assert_int_equal(aplan_overlaps_scratch_size(&p, &need), APLAN_OK);
    assert_true(need > 0 && need <= 32u * 2u);
    uint64_t scratch[16];
    assert_int_equal(aplan_overlaps(&p, off, scratch, need - 1u, keep_pair, &seen, &r), APLAN_E_SCRATCH_TOO_SMALL);
    assert_int_equal(aplan_overlaps(&p, off, (char *)scratch + 1, need, keep_pair, &seen, &r),
                     APLAN_E_SCRATCH_MISALIGNED);
    assert_int_equal(aplan_overlaps(&p, off, NULL, 0, keep_pair, &seen, &r), APLAN_E_SCRATCH_TOO_SMALL);
    assert_int_equal(aplan_overlaps(&p, off, scratch, need, NULL, NULL, &r), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_overlaps(&p, NULL, scratch, need, keep_pair, &seen, &r), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_overlaps_scratch_size(NULL, &need), APLAN_E_INVALID_ARG);
    b[1].lower = 3; /* lower above upper: the problem's own status */
    assert_int_equal(aplan_overlaps(&p, off, scratch, need, keep_pair, &seen, NULL), APLAN_E_BAD_LIFETIME);
    aplan_problem_init(&p, NULL, 0);
    assert_int_equal(aplan_overlaps(&p, NULL, NULL, 0, keep_pair, &seen, NULL), APLAN_OK);
    assert_int_equal(seen.count, 0);
}

/* Random plans (overlaps on purpose: offsets drawn small): the pairs listed are exactly those a brute force finds. */
static bool count_and_check(void *context, const aplan_report *pair) {
    size_t *count = context;
    assert_true(pair->buffer_a < pair->buffer_b);
    assert_true(pair->byte_lo < pair->byte_hi && pair->step_lo < pair->step_hi);
    (*count)++;
    return true;
}

static void test_overlaps_match_brute_force(void **state) {
    (void)state;
    test_rng rng = {0x0FF5E7u};
    for (int round = 0; round < 300; round++) {
        aplan_buffer b[60];
        uint64_t off[60];
        const size_t n = 1 + (size_t)rng_below(&rng, 60);
        random_problem(&rng, b, n, 1 + rng_below(&rng, 20), 1 + rng_below(&rng, 64), 1, 0);
        for (size_t i = 0; i < n; i++) off[i] = rng_below(&rng, 4) == 0 ? APLAN_NO_OFFSET : rng_below(&rng, 200);
        aplan_problem p;
        aplan_problem_init(&p, b, n);
        size_t want = 0;
        for (size_t i = 0; i < n; i++) {
            for (size_t j = i + 1; j < n; j++) {
                if (off[i] == APLAN_NO_OFFSET || off[j] == APLAN_NO_OFFSET || !aplan_buffers_conflict(&p, i, j))
                    continue;
                want += off[i] < off[j] + b[j].size && off[j] < off[i] + b[i].size;
            }
        }
        size_t need, got = 0;
        assert_int_equal(aplan_overlaps_scratch_size(&p, &need), APLAN_OK);
        void *scratch = aligned_alloc(APLAN_SCRATCH_ALIGN, need + 8u);
        assert_int_equal(aplan_overlaps(&p, off, scratch, need, count_and_check, &got, NULL), APLAN_OK);
        free(scratch);
        assert_int_equal(got, want);
    }
}

static void test_sort_indices_is_stable_on_both_paths(void **state) {
    (void)state;
    enum { N = 300 };
    uint64_t keys[N] = {0};
    uint32_t items[N], tmp[N];
    test_rng rng = {77u};
    for (size_t n = 0; n <= N; n += n < 60 ? 1 : 60) { /* insertion below 49 items, radix above */
        for (size_t i = 0; i < n; i++) {
            keys[i] = rng_below(&rng, 2) ? rng_below(&rng, 8) : UINT64_MAX - rng_below(&rng, 3) * (UINT64_C(1) << 40);
            items[i] = (uint32_t)(n - 1u - i); /* descending indices: ties must stay in that order */
        }
        assert_int_equal(aplan_sort_indices(items, tmp, n, keys), APLAN_OK);
        for (size_t k = 1; k < n; k++) {
            assert_true(keys[items[k - 1]] <= keys[items[k]]);
            if (keys[items[k - 1]] == keys[items[k]]) assert_true(items[k - 1] > items[k]);
        }
    }
    assert_int_equal(aplan_sort_indices(NULL, tmp, 0, NULL), APLAN_OK);
    assert_int_equal(aplan_sort_indices(NULL, tmp, 2, keys), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_sort_indices(items, tmp, 2, NULL), APLAN_E_INVALID_ARG);
    if (!compact_build()) assert_int_equal(aplan_sort_indices(items, NULL, 2, keys), APLAN_E_INVALID_ARG);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verify_accepts_valid_plan),
        cmocka_unit_test(test_verify_rejects_unplaced),
        cmocka_unit_test(test_verify_rejects_misaligned_offset),
        cmocka_unit_test(test_verify_rejects_moved_fixed_buffer),
        cmocka_unit_test(test_verify_rejects_end_overflow),
        cmocka_unit_test(test_verify_rejects_buffer_beyond_arena),
        cmocka_unit_test(test_verify_rejects_arena_larger_than_highest_end),
        cmocka_unit_test(test_verify_rejects_overlap_with_exact_report),
        cmocka_unit_test(test_verify_allows_touching_lifetimes_and_bytes),
        cmocka_unit_test(test_verify_ignores_empty_and_never_live_buffers),
        cmocka_unit_test(test_verify_rejects_fixed_overlap_unless_aliasing_allowed),
        cmocka_unit_test(test_verify_rejects_arena_above_capacity),
        cmocka_unit_test(test_verify_checks_capacity_last),
        cmocka_unit_test(test_verify_reports_validation_failure),
        cmocka_unit_test(test_verify_rejects_short_or_misaligned_scratch),
        cmocka_unit_test(test_verify_accepts_empty_problem_with_or_without_scratch),
        cmocka_unit_test(test_verify_counts_many_aliases_in_both_paths),
        cmocka_unit_test(test_overlaps_lists_every_pair_in_sweep_order),
        cmocka_unit_test(test_overlaps_failures),
        cmocka_unit_test(test_overlaps_match_brute_force),
        cmocka_unit_test(test_sort_indices_is_stable_on_both_paths),
    };
    return cmocka_run_group_tests_name("verify", tests, NULL, NULL);
}
