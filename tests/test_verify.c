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

/* Runs both paths (the sweep into *fast, pairwise into *slow), each giving want, which the brute force agrees
 * with. */
static void verify_paths(const aplan_problem *p, const uint64_t *off, uint64_t arena, aplan_status want,
                         aplan_report *fast, aplan_report *slow) {
    size_t need;
    assert_int_equal(aplan_verify_scratch_size(p, &need), APLAN_OK);
    void *scratch = aligned_alloc(APLAN_SCRATCH_ALIGN, need + 8u);
    assert_int_equal(aplan_verify(p, off, arena, scratch, need, fast), want);
    assert_int_equal(aplan_verify(p, off, arena, NULL, 0, slow), want);
    free(scratch);
    assert_int_equal(brute_force_valid(p, off, arena), want == APLAN_OK);
}

/* Runs both paths, asserts they agree on the status and the whole report, returns the report. */
static aplan_report verify_both(const aplan_problem *p, const uint64_t *off, uint64_t arena, aplan_status want) {
    aplan_report fast, slow;
    verify_paths(p, off, arena, want, &fast, &slow);
    assert_int_equal(fast.rule, want);
    assert_memory_equal(&fast, &slow, sizeof fast);
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
    /* 40 fixed buffers at offset 0 all live together: 780 aliased pairs, counted by the sweep without a list. */
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

/* ---- Aliasing allowed: the pairs counted without a list, and the failures still found ------------------------- */

/* The sweep alone, where the pairwise path names another pair (it meets pairs in index order). In a compact build
 * both calls take the pairwise path, so only the status is checked there. */
static aplan_report verify_sweep(const aplan_problem *p, const uint64_t *off, uint64_t arena, aplan_status want) {
    aplan_report fast, slow;
    verify_paths(p, off, arena, want, &fast, &slow);
    return fast;
}

static void test_verify_counts_aliases_of_k_buffers_at_one_offset(void **state) {
    (void)state;
    static const size_t ks[] = {0, 1, 2, 3, 7, 64, 65, 300};
    aplan_buffer b[301];
    uint64_t off[301];
    for (size_t t = 0; t < sizeof ks / sizeof ks[0]; t++) {
        const size_t k = ks[t];
        /* k fixed buffers at offset 0, of sizes 8 to 12, starting at steps 0 to 2 and all live at steps 2 to 9;
         * for odd k an unfixed buffer above them, live throughout, so that the checks for it run too. */
        for (size_t i = 0; i < k; i++) {
            b[i] = fixed_buf(8 + i % 5, i % 3, 10, 0);
            off[i] = 0;
        }
        size_t n = k;
        if (k % 2 == 1) {
            b[n] = buf(4, 0, 10);
            off[n++] = 12;
        }
        aplan_problem p;
        aplan_problem_init(&p, b, n);
        p.flags = APLAN_ALLOW_FIXED_ALIAS;
        const uint64_t arena = k == 0 ? 0 : k % 2 == 1 ? 16 : k >= 5 ? 12 : 8 + k - 1;
        aplan_report r = verify_both(&p, off, arena, APLAN_OK);
        assert_int_equal(r.aliased_pairs, k * (k - 1u) / 2u);
    }
}

/* Pairs that share steps but not bytes, or bytes but not steps, touching at either end, of size 0 or never live, are
 * not aliases: 5 pairs out of 28, each named below. An unfixed buffer on one of them is still an overlap. */
static void test_verify_counts_partial_aliases_exactly(void **state) {
    (void)state;
    aplan_buffer b[9] = {
        fixed_buf(16, 0, 4, 0),  /* 0: bytes [0, 16) */
        fixed_buf(16, 2, 6, 8),  /* 1: [8, 24): with 0 at steps 2-3, with 2 at 4-5, with 3 at 2, with 5 at 5 */
        fixed_buf(16, 4, 8, 0),  /* 2: [0, 16): starts as 0 ends; with 5 at steps 5-7 */
        fixed_buf(16, 1, 3, 16), /* 3: [16, 32): touches 0's bytes */
        fixed_buf(16, 0, 10, 32),/* 4: [32, 48): touches 3's bytes */
        fixed_buf(8, 5, 9, 4),   /* 5: [4, 12) */
        fixed_buf(0, 0, 10, 0),  /* 6: size 0 */
        fixed_buf(16, 3, 3, 0),  /* 7: never live */
        buf(16, 0, 10),          /* 8: unfixed, live throughout */
    };
    aplan_problem p;
    aplan_problem_init(&p, b, 9);
    p.flags = APLAN_ALLOW_FIXED_ALIAS;
    uint64_t off[9] = {0, 8, 0, 16, 32, 4, 0, 0, 48};
    aplan_report r = verify_both(&p, off, 64, APLAN_OK);
    assert_int_equal(r.aliased_pairs, 5); /* 0-1, 1-2, 1-3, 1-5, 2-5 */
    assert_int_equal(brute_force_aliased(&p, off, 64), 5);
    off[8] = 40; /* on 4's last 8 bytes */
    r = verify_both(&p, off, 56, APLAN_E_OVERLAP);
    assert_int_equal(r.aliased_pairs, 0);
    assert_text(&r, "buffers 4 and 8 overlap at steps 0-9, bytes 40-47");
}

/* The pair named under aliasing: the first admission in step order (by lower step, then index) that overlaps a live
 * buffer it may not share with, and of those buffers the one with the lowest offset; the pairwise path meets pairs
 * in index order and may name another. */
static void test_verify_aliasing_names_the_first_clash_in_step_order(void **state) {
    (void)state;
    aplan_buffer b[5] = {
        fixed_buf(16, 0, 10, 0),   /* 0 and 1 alias, allowed */
        fixed_buf(16, 0, 10, 0),
        buf(16, 5, 10),            /* 2 at 8: on 0 and 1 from step 5 */
        buf(16, 1, 3),             /* 3 at 100 */
        fixed_buf(8, 2, 4, 104),   /* 4: a fixed buffer admitted on the unfixed 3, at step 2 */
    };
    aplan_problem p;
    aplan_problem_init(&p, b, 5);
    p.flags = APLAN_ALLOW_FIXED_ALIAS;
    uint64_t off[5] = {0, 0, 8, 100, 104};
    aplan_report r = verify_sweep(&p, off, 116, APLAN_E_OVERLAP);
    if (!compact_build()) assert_text(&r, "buffers 3 and 4 overlap at steps 2-2, bytes 104-111");
    /* 3 and 4 after step 5: 2's clash with 0 comes first, the pair both paths name. */
    b[3].lower = 6, b[3].upper = 8, b[4].lower = 7, b[4].upper = 9;
    r = verify_both(&p, off, 116, APLAN_E_OVERLAP);
    assert_text(&r, "buffers 0 and 2 overlap at steps 5-9, bytes 8-15");

    /* An unfixed buffer on a fixed one above and an unfixed one below: the one below is named. */
    aplan_buffer c[3] = {fixed_buf(16, 0, 4, 24), buf(16, 0, 4), buf(24, 1, 4)};
    aplan_problem_init(&p, c, 3);
    p.flags = APLAN_ALLOW_FIXED_ALIAS;
    uint64_t off_c[3] = {24, 0, 8};
    r = verify_sweep(&p, off_c, 40, APLAN_E_OVERLAP);
    if (!compact_build()) assert_text(&r, "buffers 1 and 2 overlap at steps 1-3, bytes 8-15");
    /* The same with the fixed one below: it is named. */
    off_c[1] = 24, c[0].offset = 0, off_c[0] = 0;
    r = verify_both(&p, off_c, 40, APLAN_E_OVERLAP);
    assert_text(&r, "buffers 0 and 2 overlap at steps 1-3, bytes 8-15");

    /* A fixed buffer admitted on two unfixed ones: the lower is named; when the lower only touches it, the upper. */
    aplan_buffer d[3] = {buf(16, 0, 4), buf(16, 0, 4), fixed_buf(24, 1, 4, 8)};
    aplan_problem_init(&p, d, 3);
    p.flags = APLAN_ALLOW_FIXED_ALIAS;
    uint64_t off_d[3] = {24, 0, 8};
    r = verify_sweep(&p, off_d, 40, APLAN_E_OVERLAP);
    if (!compact_build()) assert_text(&r, "buffers 1 and 2 overlap at steps 1-3, bytes 8-15");
    d[1].size = 8;
    r = verify_both(&p, off_d, 40, APLAN_E_OVERLAP);
    assert_text(&r, "buffers 0 and 2 overlap at steps 1-3, bytes 24-31");
}

/* More pairs than a 32-bit size_t holds: 92,683 fixed buffers at one offset, all live together, alias in
 * 4,295,022,903 pairs; the count is exact with a 64-bit size_t and saturates at SIZE_MAX with a 32-bit one. Sweep
 * only: the pairwise path (and a compact build, which has only that path) would meet 4.3e9 pairs. */
static void test_verify_counts_aliases_past_32_bits(void **state) {
    (void)state;
    if (compact_build()) skip();
    enum { K = 92683 };
    aplan_buffer *b = malloc(K * sizeof *b);
    uint64_t *off = calloc(K, sizeof *off);
    assert_non_null(b);
    assert_non_null(off);
    for (size_t i = 0; i < K; i++) b[i] = fixed_buf(16, i % 7, 7 + i % 5, 0);
    aplan_problem p;
    aplan_problem_init(&p, b, K);
    p.flags = APLAN_ALLOW_FIXED_ALIAS;
    size_t need;
    assert_int_equal(aplan_verify_scratch_size(&p, &need), APLAN_OK);
    void *scratch = aligned_alloc(APLAN_SCRATCH_ALIGN, need + 8u);
    aplan_report r;
    assert_int_equal(aplan_verify(&p, off, 16, scratch, need, &r), APLAN_OK);
    const uint64_t pairs = (uint64_t)K * (K - 1u) / 2u;
    assert_true(pairs == UINT64_C(4295022903));
    assert_true((uint64_t)r.aliased_pairs == (pairs > SIZE_MAX ? (uint64_t)SIZE_MAX : pairs));
    free(scratch);
    free(off);
    free(b);
}

/* The pair the sweep names (see above), found the slow way: every admission in step order against every buffer
 * admitted before it and still live. False when no pair is forbidden. */
static bool first_clash(const aplan_problem *p, const uint64_t *off, size_t *a, size_t *b) {
    size_t x_best = SIZE_MAX, y_best = SIZE_MAX;
    for (size_t x = 0; x < p->count; x++) {
        const aplan_buffer *bx = &p->buffers[x];
        if (x_best != SIZE_MAX && (bx->lower > p->buffers[x_best].lower ||
                                   (bx->lower == p->buffers[x_best].lower && x > x_best)))
            continue; /* admitted after the clash already found */
        size_t y_low = SIZE_MAX;
        for (size_t y = 0; y < p->count; y++) {
            const aplan_buffer *by = &p->buffers[y];
            const bool before = by->lower < bx->lower || (by->lower == bx->lower && y < x);
            const bool both_fixed = bx->offset != APLAN_NO_OFFSET && by->offset != APLAN_NO_OFFSET;
            if (!before || both_fixed || !aplan_buffers_conflict(p, x, y)) continue;
            if (off[y] >= off[x] + aplan_buffer_size(p, x) || off[x] >= off[y] + aplan_buffer_size(p, y)) continue;
            if (y_low == SIZE_MAX || off[y] < off[y_low] || (off[y] == off[y_low] && y < y_low)) y_low = y;
        }
        if (y_low != SIZE_MAX) x_best = x, y_best = y_low;
    }
    if (x_best == SIZE_MAX) return false;
    *a = x_best < y_best ? x_best : y_best;
    *b = x_best < y_best ? y_best : x_best;
    return true;
}

/* Random plans with aliasing allowed, fixed and unfixed buffers mixed, offsets drawn small so that many overlap:
 * both paths give the same status, the same count as the brute force when valid, and the sweep names the pair
 * first_clash finds. In half the rounds the unfixed buffers sit apart above the fixed ones, so most plans are
 * valid and the count is what is checked. */
static void test_verify_aliasing_matches_brute_force(void **state) {
    (void)state;
    test_rng rng = {0xA11A5u};
    size_t valid = 0, counted = 0;
    for (int round = 0; round < 3000; round++) {
        aplan_buffer b[80];
        uint64_t off[80];
        const size_t n = 1 + (size_t)rng_below(&rng, round % 10 == 0 ? 80 : 24);
        const uint64_t steps = 1 + rng_below(&rng, 12), reach = 1 + rng_below(&rng, 120);
        const uint64_t fixed_in_8 = rng_below(&rng, 9);
        const bool apart = round % 2 == 0;
        uint64_t arena = 0;
        for (size_t i = 0; i < n; i++) {
            const uint64_t lower = rng_below(&rng, steps);
            const uint64_t upper = lower + rng_below(&rng, steps);
            const uint64_t size = rng_below(&rng, 10) == 0 ? 0 : 1 + rng_below(&rng, 40);
            const bool fixed = rng_below(&rng, 8) < fixed_in_8;
            off[i] = fixed || !apart ? rng_below(&rng, reach) : 200 + 64 * i;
            b[i] = fixed ? fixed_buf(size, lower, upper, off[i]) : buf(size, lower, upper);
            if (off[i] + size > arena) arena = off[i] + size;
        }
        aplan_problem p;
        aplan_problem_init(&p, b, n);
        p.flags = APLAN_ALLOW_FIXED_ALIAS;
        size_t need;
        assert_int_equal(aplan_verify_scratch_size(&p, &need), APLAN_OK);
        void *scratch = aligned_alloc(APLAN_SCRATCH_ALIGN, need + 8u);
        aplan_report fast, slow;
        const aplan_status sf = aplan_verify(&p, off, arena, scratch, need, &fast);
        const aplan_status ss = aplan_verify(&p, off, arena, NULL, 0, &slow);
        free(scratch);
        assert_int_equal(sf, ss);
        const size_t want = brute_force_aliased(&p, off, arena);
        size_t x, y;
        const bool clash = first_clash(&p, off, &x, &y);
        if (sf == APLAN_OK) {
            assert_false(clash);
            assert_int_equal(fast.aliased_pairs, want);
            assert_int_equal(slow.aliased_pairs, want);
            valid++;
            counted += want > 0;
            continue;
        }
        assert_int_equal(sf, APLAN_E_OVERLAP);
        assert_int_equal(fast.aliased_pairs, 0);
        assert_true(clash);
        if (!compact_build()) {
            assert_int_equal(fast.buffer_a, x);
            assert_int_equal(fast.buffer_b, y);
        }
    }
    /* The draws reach both outcomes, and counts above 0, often enough to test them. */
    assert_true(valid > 1000 && counted > 500 && valid < 2900);
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
        cmocka_unit_test(test_verify_counts_aliases_of_k_buffers_at_one_offset),
        cmocka_unit_test(test_verify_counts_partial_aliases_exactly),
        cmocka_unit_test(test_verify_aliasing_names_the_first_clash_in_step_order),
        cmocka_unit_test(test_verify_counts_aliases_past_32_bits),
        cmocka_unit_test(test_verify_aliasing_matches_brute_force),
        cmocka_unit_test(test_overlaps_lists_every_pair_in_sweep_order),
        cmocka_unit_test(test_overlaps_failures),
        cmocka_unit_test(test_overlaps_match_brute_force),
        cmocka_unit_test(test_sort_indices_is_stable_on_both_paths),
    };
    return cmocka_run_group_tests_name("verify", tests, NULL, NULL);
}
