/* Each strategy on hand-made cases with exact offsets and arena sizes (TFLM's own small cases among them), the
 * scratch contract (exact need, one byte short, guard zones) and the failure paths of aplan_plan. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "aplan/strategies.h"
#include "helpers.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Plans and checks the exact offsets, arena and bound. */
static void expect_plan(const aplan_strategy *s, const aplan_problem *p, const uint64_t *want, uint64_t arena,
                        uint64_t bound) {
    uint64_t off[64];
    aplan_result r;
    assert_true(p->count <= N(off));
    assert_int_equal(plan_with(s, p, off, &r), APLAN_OK);
    for (size_t i = 0; i < p->count; i++) {
        if (off[i] != want[i]) fail_msg("%s: buffer %zu at %llu, want %llu", s->name, i, (unsigned long long)off[i],
                                        (unsigned long long)want[i]);
    }
    assert_int_equal(r.arena_size, arena);
    assert_int_equal(r.lower_bound, bound);
}

/* TFLM's planner test: 0,0,2,10 / 1,1,3,20 / 2,2,4,30 / 3,3,5,40 / 4,0,2,50 (half-open, not rounded). */
static aplan_buffer five[5];
static aplan_problem tflm_five(void) {
    five[0] = buf(10, 0, 2);
    five[1] = buf(20, 1, 3);
    five[2] = buf(30, 2, 4);
    five[3] = buf(40, 3, 5);
    five[4] = buf(50, 0, 2);
    aplan_problem p;
    aplan_problem_init(&p, five, 5);
    return p;
}

static void test_greedy_tflm_matches_tflm_five_buffer_case(void **state) {
    (void)state;
    aplan_problem p = tflm_five();
    const uint64_t want[5] = {50, 70, 40, 0, 0};
    expect_plan(need_strategy("greedy_by_size_tflm"), &p, want, 90, 80);
}

static void test_greedy_matches_tflm_on_distinct_sizes(void **state) {
    (void)state;
    aplan_problem p = tflm_five();
    const uint64_t want[5] = {50, 70, 40, 0, 0}; /* no equal sizes: both tie orders agree */
    expect_plan(need_strategy("greedy_by_size"), &p, want, 90, 80);
}

static void test_greedy_tflm_matches_tflm_three_buffer_case(void **state) {
    (void)state;
    aplan_buffer b[3] = {buf(100, 0, 2), buf(50, 2, 4), buf(20, 1, 3)};
    aplan_problem p;
    aplan_problem_init(&p, b, 3);
    const uint64_t want[3] = {0, 0, 100};
    expect_plan(need_strategy("greedy_by_size_tflm"), &p, want, 120, 120);
}

static void test_greedy_tflm_places_equal_sizes_last_added_first(void **state) {
    (void)state;
    aplan_buffer b[3] = {buf(16, 0, 1), buf(16, 0, 1), buf(16, 0, 1)};
    aplan_problem p;
    aplan_problem_init(&p, b, 3);
    const uint64_t tflm[3] = {32, 16, 0};
    expect_plan(need_strategy("greedy_by_size_tflm"), &p, tflm, 48, 48);
    const uint64_t forward[3] = {0, 16, 32};
    expect_plan(need_strategy("greedy_by_size"), &p, forward, 48, 48);
}

/* TFLM's five-buffer case as compact records in the least scratch (APLAN_LOW_MEMORY): TFLM's offsets in exactly 8
 * bytes a buffer, and APLAN_E_SCRATCH_TOO_SMALL one byte below. */
static void test_greedy_tflm_low_memory_compact_records(void **state) {
    (void)state;
    const aplan_buffer32 c[5] = {{10, 0, 2, APLAN_NO_OFFSET32}, {20, 1, 3, APLAN_NO_OFFSET32},
                                 {30, 2, 4, APLAN_NO_OFFSET32}, {40, 3, 5, APLAN_NO_OFFSET32},
                                 {50, 0, 2, APLAN_NO_OFFSET32}};
    aplan_problem p;
    aplan_problem_init32(&p, c, 5);
    p.flags |= APLAN_LOW_MEMORY;
    const aplan_strategy *s = need_strategy("greedy_by_size_tflm");
    size_t need = 0;
    assert_int_equal(aplan_plan_scratch_size(s, &p, &need), APLAN_OK);
    assert_int_equal(need, 40);
    uint64_t scratch[5], off[5];
    aplan_result r;
    assert_int_equal(aplan_plan(s, &p, scratch, sizeof scratch, off, &r), APLAN_OK);
    const uint64_t want[5] = {50, 70, 40, 0, 0};
    assert_memory_equal(off, want, sizeof want);
    assert_int_equal(r.arena_size, 90);
    assert_int_equal(r.lower_bound, 80);
    assert_int_equal(aplan_plan(s, &p, scratch, sizeof scratch - 1, off, &r), APLAN_E_SCRATCH_TOO_SMALL);
}

static void test_greedy_tflm_matches_tflm_offline_case(void **state) {
    (void)state;
    aplan_buffer b[5] = {fixed_buf(48, 0, 2, 0), fixed_buf(48, 0, 2, 48), buf(48, 1, 3), fixed_buf(48, 2, 3, 0),
                         buf(48, 2, 3)};
    aplan_problem p;
    aplan_problem_init(&p, b, 5);
    p.alignment = 16;
    const uint64_t want[5] = {0, 48, 96, 0, 48};
    expect_plan(need_strategy("greedy_by_size_tflm"), &p, want, 144, 144);
}

static void test_greedy_honours_per_buffer_alignment(void **state) {
    (void)state;
    aplan_buffer b[3] = {buf(10, 0, 2), buf(7, 0, 2), buf(3, 0, 2)};
    b[1].alignment = 16;
    b[2].alignment = 4;
    aplan_problem p;
    aplan_problem_init(&p, b, 3);
    /* 10 at 0; 7 needs 16-alignment: 16; 3 needs 4: 12 fits in [10,16)? 12+3=15 <= 16, yes. */
    const uint64_t want[3] = {0, 16, 12};
    expect_plan(need_strategy("greedy_by_size"), &p, want, 23, 20);
}

static void test_greedy_rounds_sizes_when_asked(void **state) {
    (void)state;
    aplan_buffer b[2] = {buf(1, 0, 2), buf(1, 0, 2)};
    aplan_problem p;
    aplan_problem_init(&p, b, 2);
    p.alignment = 16;
    p.flags = APLAN_ROUND_SIZES;
    const uint64_t want[2] = {0, 16};
    expect_plan(need_strategy("greedy_by_size"), &p, want, 32, 32);
}

static void test_greedy_places_around_fixed_buffers(void **state) {
    (void)state;
    /* A fixed buffer in the middle of the arena; the big online one must go above it, the small one below. */
    aplan_buffer b[3] = {fixed_buf(32, 0, 4, 16), buf(64, 0, 4), buf(16, 1, 2)};
    aplan_problem p;
    aplan_problem_init(&p, b, 3);
    const uint64_t want[3] = {16, 48, 0};
    expect_plan(need_strategy("greedy_by_size"), &p, want, 112, 112);
}

static void test_greedy_reuses_across_disjoint_lifetimes(void **state) {
    (void)state;
    aplan_buffer b[4] = {buf(100, 0, 2), buf(100, 2, 4), buf(100, 4, 6), buf(0, 0, 6)};
    aplan_problem p;
    aplan_problem_init(&p, b, 4);
    const uint64_t want[4] = {0, 0, 0, 0};
    expect_plan(need_strategy("greedy_by_size"), &p, want, 100, 100);
}

/* Three groups of 100 buffers: A [0, 2) of 300 bytes, B [1, 3) of 200, C [2, 4) of 100 (or of 100 at alignment 64:
 * 128 bytes, so that ends are not all aligned for C). A stacks from 0, B above A, and C, which lives with B only,
 * stacks from 0 again below B. Padded to 8192 buffers that occupy nothing, so the engine takes its dense path (300
 * members, two-thirds of their pairs conflicting: greedy.c's dense list, which splits its blocks of 128 twice here);
 * the offsets are the rule's whichever path finds them. */
static void test_greedy_dense_walk_stacks_groups_exactly(void **state) {
    (void)state;
    enum { GROUP = 100, PADDED = 8192 };
    aplan_buffer *b = malloc(PADDED * sizeof *b);
    uint64_t *off = malloc(PADDED * sizeof *off);
    for (int aligned_c = 0; aligned_c < 2; aligned_c++) {
        for (size_t i = 0; i < GROUP; i++) {
            b[i] = buf(300, 0, 2);
            b[GROUP + i] = buf(200, 1, 3);
            b[2 * GROUP + i] = buf(100, 2, 4);
            b[2 * GROUP + i].alignment = aligned_c ? 64 : 0;
        }
        for (size_t i = 3 * GROUP; i < PADDED; i++) b[i] = buf(0, 0, 4);
        aplan_problem p;
        aplan_problem_init(&p, b, PADDED);
        aplan_result r;
        assert_int_equal(plan_with(need_strategy("greedy_by_size"), &p, off, &r), APLAN_OK);
        const uint64_t c_step = aligned_c ? 128 : 100;
        for (size_t i = 0; i < GROUP; i++) {
            assert_int_equal(off[i], 300 * i);
            assert_int_equal(off[GROUP + i], 300 * GROUP + 200 * i);
            assert_int_equal(off[2 * GROUP + i], c_step * i);
        }
        for (size_t i = 3 * GROUP; i < PADDED; i++) assert_int_equal(off[i], 0);
        assert_int_equal(r.arena_size, 500 * GROUP);
        assert_int_equal(r.lower_bound, 500 * GROUP);
    }
    free(off);
    free(b);
}

static void test_linear_is_back_to_back_in_input_order(void **state) {
    (void)state;
    aplan_problem p = tflm_five();
    const uint64_t want[5] = {0, 10, 30, 60, 100};
    expect_plan(need_strategy("linear"), &p, want, 150, 80);
}

static void test_linear_aligns_each_buffer(void **state) {
    (void)state;
    aplan_buffer b[4] = {buf(1, 0, 1), buf(3, 0, 1), buf(0, 0, 1), buf(5, 9, 9)};
    b[1].alignment = 4;
    b[3].alignment = 8;
    aplan_problem p;
    aplan_problem_init(&p, b, 4);
    /* 1 at 0; 3 at 4; size 0 at 0; never-live 5 still gets its own bytes: 8 */
    const uint64_t want[4] = {0, 4, 0, 8};
    expect_plan(need_strategy("linear"), &p, want, 13, 5);
}

static void test_linear_skips_fixed_bytes_whatever_their_lifetime(void **state) {
    (void)state;
    aplan_buffer b[4] = {buf(10, 0, 1), fixed_buf(10, 5, 6, 12), buf(8, 0, 1), buf(30, 0, 1)};
    aplan_problem p;
    aplan_problem_init(&p, b, 4);
    const uint64_t want[4] = {0, 12, 22, 30};
    expect_plan(need_strategy("linear"), &p, want, 60, 48);
}

static void test_first_fit_reuses_freed_block_lowest_first(void **state) {
    (void)state;
    /* a [0,2) 64, b [0,4) 32, c [2,4) 48 (a's block is free again at step 2), d [2,4) 16. */
    aplan_buffer b[4] = {buf(64, 0, 2), buf(32, 0, 4), buf(48, 2, 4), buf(16, 2, 4)};
    aplan_problem p;
    aplan_problem_init(&p, b, 4);
    /* step 0: a (64) at 0, b (32) at 64. step 2: a freed; c (48) at 0, d (16) at 48 (coalesced gap [48,64)). */
    const uint64_t want[4] = {0, 64, 0, 48};
    expect_plan(need_strategy("first_fit"), &p, want, 96, 96);
}

static void test_first_fit_grows_at_top_when_no_gap_fits(void **state) {
    (void)state;
    aplan_buffer b[3] = {buf(16, 0, 2), buf(16, 0, 4), buf(32, 2, 4)};
    aplan_problem p;
    aplan_problem_init(&p, b, 3);
    /* step 2: free [0,16) is too small for 32: it goes on top at 32. */
    const uint64_t want[3] = {0, 16, 32};
    expect_plan(need_strategy("first_fit"), &p, want, 64, 48);
}

static void test_first_fit_reserves_fixed_buffers_before_they_start(void **state) {
    (void)state;
    /* The fixed buffer starts at step 3, but the online one live over [0,5) must already avoid it. */
    aplan_buffer b[2] = {fixed_buf(16, 3, 4, 0), buf(16, 0, 5)};
    aplan_problem p;
    aplan_problem_init(&p, b, 2);
    const uint64_t want[2] = {0, 16};
    expect_plan(need_strategy("first_fit"), &p, want, 32, 32);
}

static void test_first_fit_aligns_in_gap(void **state) {
    (void)state;
    aplan_buffer b[3] = {buf(5, 0, 4), buf(40, 0, 2), buf(8, 2, 4)};
    b[2].alignment = 8;
    aplan_problem p;
    aplan_problem_init(&p, b, 3);
    /* step 0: 40 at 0, 5 at 40. step 2: 40 freed: 8-aligned 8 at 0. */
    const uint64_t want[3] = {40, 0, 0};
    expect_plan(need_strategy("first_fit"), &p, want, 45, 45);
}

/* Holes [0, 10) and [16, 22) between fixed buffers, all live at steps 0-3. X (6) takes the snug hole under best_fit
 * and leaves [0, 10) whole for Y and Z (5 each, steps 2-3), which then fit side by side: the bound, 30. Lowest-gap
 * puts X at 0, so Y goes to 16 and Z finds no room below the top: 35. */
static void test_best_fit_takes_snug_gap_where_greedy_takes_lowest(void **state) {
    (void)state;
    aplan_buffer b[5] = {fixed_buf(6, 0, 4, 10), fixed_buf(8, 0, 4, 22), buf(6, 0, 4), buf(5, 2, 4), buf(5, 2, 4)};
    aplan_problem p;
    aplan_problem_init(&p, b, 5);
    const uint64_t best[5] = {10, 22, 16, 0, 5};
    expect_plan(need_strategy("best_fit"), &p, best, 30, 30);
    const uint64_t lowest[5] = {10, 22, 0, 16, 30};
    expect_plan(need_strategy("greedy_by_size"), &p, lowest, 35, 30);
}

/* Gap starts are aligned before the room is measured: with alignment 4, [3, 12) offers 8 bytes from 4 and [21, 28)
 * 4 bytes from 24. The 9-byte buffer fits neither and goes to the aligned top, 36; the 4-byte one fits [21, 28)
 * exactly (greedy_by_size takes 4). */
static void test_best_fit_aligns_gap_starts_and_falls_back_on_top(void **state) {
    (void)state;
    aplan_buffer b[5] = {fixed_buf(3, 0, 2, 0), fixed_buf(9, 0, 2, 12), fixed_buf(7, 0, 2, 28), buf(9, 0, 2),
                         buf(4, 0, 2)};
    b[3].alignment = b[4].alignment = 4;
    aplan_problem p;
    aplan_problem_init(&p, b, 5);
    const uint64_t best[5] = {0, 12, 28, 36, 24};
    expect_plan(need_strategy("best_fit"), &p, best, 45, 35);
    const uint64_t lowest[5] = {0, 12, 28, 36, 4};
    expect_plan(need_strategy("greedy_by_size"), &p, lowest, 45, 35);
}

/* Equal sizes: best_fit places the one that starts first first (buffer 1), greedy_by_size the lower index. */
static void test_best_fit_orders_equal_sizes_by_first_step(void **state) {
    (void)state;
    aplan_buffer b[2] = {buf(8, 3, 5), buf(8, 0, 4)};
    aplan_problem p;
    aplan_problem_init(&p, b, 2);
    const uint64_t best[2] = {8, 0};
    expect_plan(need_strategy("best_fit"), &p, best, 16, 16);
    const uint64_t lowest[2] = {0, 8};
    expect_plan(need_strategy("greedy_by_size"), &p, lowest, 16, 16);
}

/* Breadths of steps 0-5: 10, 18, 14, 20, 6, 6. Step 3 goes first with its buffers largest first (0, then 1 and 3 by
 * index), then step 1 adds buffer 2, the largest, last: the bound, 20. By size, buffer 2 goes first and buffer 3
 * ends up on top: 24. */
static void test_breadth_places_busiest_step_first(void **state) {
    (void)state;
    aplan_buffer b[4] = {buf(8, 1, 4), buf(6, 2, 4), buf(10, 0, 2), buf(6, 3, 6)};
    aplan_problem p;
    aplan_problem_init(&p, b, 4);
    const uint64_t breadth[4] = {0, 8, 8, 14};
    expect_plan(need_strategy("greedy_by_breadth"), &p, breadth, 20, 20);
    const uint64_t size[4] = {10, 0, 0, 18};
    expect_plan(need_strategy("greedy_by_size"), &p, size, 24, 20);
}

/* The breadth counts fixed buffers: with the fixed one, step 2 (20 bytes) is the busiest, so buffer 1 goes first and
 * takes the 4 bytes below the fixed buffer; the bound, 20. Without it, step 1 (18) would lead, as the size order
 * does, and buffer 1 would end on top: 24. */
static void test_breadth_counts_fixed_buffers(void **state) {
    (void)state;
    aplan_buffer b[4] = {fixed_buf(16, 2, 4, 4), buf(4, 1, 3), buf(6, 0, 2), buf(8, 1, 2)};
    aplan_problem p;
    aplan_problem_init(&p, b, 4);
    const uint64_t breadth[4] = {4, 0, 12, 4};
    expect_plan(need_strategy("greedy_by_breadth"), &p, breadth, 20, 20);
    const uint64_t size[4] = {4, 20, 8, 0};
    expect_plan(need_strategy("greedy_by_size"), &p, size, 24, 20);
}

/* Conflicts: buffer 3 overlaps three others, 1 and 2 two each, 0 one. That order (1 before 2 by size) packs to the
 * bound, 32; by size, buffer 0 first leaves buffer 2 no room below the top: 36. */
static void test_conflicts_places_most_overlapping_first(void **state) {
    (void)state;
    aplan_buffer b[4] = {buf(16, 2, 3), buf(12, 3, 5), buf(8, 3, 4), buf(12, 2, 5)};
    aplan_problem p;
    aplan_problem_init(&p, b, 4);
    const uint64_t conflicts[4] = {12, 12, 24, 0};
    expect_plan(need_strategy("greedy_by_conflicts"), &p, conflicts, 32, 32);
    const uint64_t size[4] = {0, 0, 28, 16};
    expect_plan(need_strategy("greedy_by_size"), &p, size, 36, 32);
}

/* What counts as a conflict: the fixed buffer does, lifetimes that only touch do not (fixed [1, 3) and buffer 1's
 * [3, 5)). So buffer 2 (2 conflicts) goes before buffer 1 (1) and fits below the fixed one: the bound, 16. Were the
 * fixed one left out, or touching counted, the two would tie and go by index, as by size: 22. */
static void test_conflicts_counts_fixed_not_touching(void **state) {
    (void)state;
    aplan_buffer b[3] = {fixed_buf(6, 1, 3, 8), buf(8, 3, 5), buf(8, 2, 5)};
    aplan_problem p;
    aplan_problem_init(&p, b, 3);
    const uint64_t conflicts[3] = {8, 8, 0};
    expect_plan(need_strategy("greedy_by_conflicts"), &p, conflicts, 16, 16);
    const uint64_t size[3] = {8, 0, 14};
    expect_plan(need_strategy("greedy_by_size"), &p, size, 22, 16);
}

static void test_offline_passes_fixed_offsets_through(void **state) {
    (void)state;
    aplan_buffer b[3] = {fixed_buf(16, 0, 2, 32), fixed_buf(16, 0, 2, 0), fixed_buf(8, 2, 3, 0)};
    aplan_problem p;
    aplan_problem_init(&p, b, 3);
    const uint64_t want[3] = {32, 0, 0};
    expect_plan(need_strategy("offline"), &p, want, 48, 48);
}

static void test_offline_rejects_buffer_without_offset(void **state) {
    (void)state;
    aplan_buffer b[3] = {fixed_buf(16, 0, 2, 0), buf(16, 0, 2), buf(16, 0, 2)};
    aplan_problem p;
    aplan_problem_init(&p, b, 3);
    uint64_t off[3];
    aplan_result r;
    assert_int_equal(plan_with(need_strategy("offline"), &p, off, &r), APLAN_E_OFFSET_MISSING);
    assert_int_equal(r.report.rule, APLAN_E_OFFSET_MISSING);
    assert_int_equal(r.report.buffer_a, 1);
    char text[80];
    aplan_report_format(&r.report, text, sizeof text);
    assert_string_equal(text, "buffer 1 has no fixed offset");
}

static void test_offline_keeps_vela_aliasing_when_allowed(void **state) {
    (void)state;
    /* person_detect_vela's offline plan: four tensors at offset 0, two of them live together. */
    aplan_buffer b[4] = {fixed_buf(2, 2, 3, 0), fixed_buf(74464, 0, 3, 0), fixed_buf(74464, 0, 3, 0),
                         fixed_buf(9216, 1, 3, 0)};
    aplan_problem p;
    aplan_problem_init(&p, b, 4);
    p.alignment = 16;
    p.flags = APLAN_ROUND_SIZES;
    uint64_t off[4];
    aplan_result r;
    assert_int_equal(plan_with(need_strategy("offline"), &p, off, &r), APLAN_E_FIXED_OVERLAP);
    /* The sweep meets the pair live from step 0 first; the pairwise path of a compact build the lowest indices. */
    assert_int_equal(r.report.buffer_a, compact_build() ? 0 : 1);
    assert_int_equal(r.report.buffer_b, compact_build() ? 1 : 2);
    p.flags |= APLAN_ALLOW_FIXED_ALIAS;
    const uint64_t want[4] = {0, 0, 0, 0};
    expect_plan(need_strategy("offline"), &p, want, 74464, 74464);
    assert_int_equal(plan_with(need_strategy("offline"), &p, off, &r), APLAN_OK);
    assert_int_equal(r.report.aliased_pairs, 6);
}

static void test_every_strategy_handles_empty_problem(void **state) {
    (void)state;
    aplan_problem p;
    aplan_problem_init(&p, NULL, 0);
    for (size_t k = 0; k < aplan_strategy_count(); k++) {
        aplan_result r;
        assert_int_equal(aplan_plan(aplan_strategy_at(k), &p, NULL, 0, NULL, &r), APLAN_OK);
        assert_int_equal(r.arena_size, 0);
        assert_int_equal(r.lower_bound, 0);
    }
}

/* Every strategy: the exact need works; one byte less fails with the scratch status, writes nothing outside the
 * buffer (guard zones on both sides) and nothing into the offsets it was not asked to. */
static void test_every_strategy_rejects_scratch_one_byte_short(void **state) {
    (void)state;
    aplan_buffer b[6] = {buf(10, 0, 2), buf(20, 1, 3), fixed_buf(30, 2, 4, 64), buf(40, 3, 5), buf(50, 0, 2),
                         buf(0, 1, 2)};
    aplan_problem p;
    aplan_problem_init(&p, b, 6);
    for (size_t k = 0; k < aplan_strategy_count(); k++) {
        const aplan_strategy *s = aplan_strategy_at(k);
        if (strcmp(s->name, "offline") == 0) continue; /* needs every buffer fixed: covered below */
        size_t need;
        assert_int_equal(aplan_plan_scratch_size(s, &p, &need), APLAN_OK);
        assert_true(need > 0);
        const size_t guard = 64;
        unsigned char *mem = aligned_alloc(APLAN_SCRATCH_ALIGN, need + 2 * guard);
        for (size_t short_by = 1; short_by <= need; short_by++) {
            memset(mem, 0xC3, need + 2 * guard);
            uint64_t off[6] = {7, 7, 7, 7, 7, 7};
            aplan_result r;
            assert_int_equal(aplan_plan(s, &p, mem + guard, need - short_by, off, &r), APLAN_E_SCRATCH_TOO_SMALL);
            assert_int_equal(r.report.rule, APLAN_E_SCRATCH_TOO_SMALL);
            for (size_t i = 0; i < need + 2 * guard; i++) assert_int_equal(mem[i], 0xC3);
            for (size_t i = 0; i < 6; i++) assert_int_equal(off[i], 7);
        }
        memset(mem, 0xC3, need + 2 * guard);
        uint64_t off[6];
        aplan_result r;
        assert_int_equal(aplan_plan(s, &p, mem + guard, need, off, &r), APLAN_OK);
        for (size_t i = 0; i < guard; i++) {
            assert_int_equal(mem[i], 0xC3);
            assert_int_equal(mem[guard + need + i], 0xC3);
        }
        assert_int_equal(aplan_plan(s, &p, mem + guard + 4, need, off, &r), APLAN_E_SCRATCH_MISALIGNED);
        free(mem);
    }
}

static void test_plan_reports_capacity_exceeded_by_bound(void **state) {
    (void)state;
    aplan_problem p = tflm_five();
    p.capacity = 79;
    uint64_t off[5];
    aplan_result r;
    assert_int_equal(plan_with(need_strategy("greedy_by_size"), &p, off, &r), APLAN_E_CAPACITY_EXCEEDED);
    assert_int_equal(r.lower_bound, 80);
    assert_int_equal(r.report.value, 80);
    assert_int_equal(r.report.limit, 79);
}

static void test_plan_reports_capacity_exceeded_by_plan(void **state) {
    (void)state;
    aplan_problem p = tflm_five();
    p.capacity = 89; /* above the bound (80), below greedy's 90 */
    uint64_t off[5];
    aplan_result r;
    assert_int_equal(plan_with(need_strategy("greedy_by_size_tflm"), &p, off, &r), APLAN_E_CAPACITY_EXCEEDED);
    assert_int_equal(r.arena_size, 90);
    assert_int_equal(r.report.value, 90);
    assert_int_equal(r.report.limit, 89);
    assert_int_equal(r.report.byte_lo, 0); /* the quantity is in value/limit, as aplan.h says, not in the bytes */
    assert_int_equal(r.report.byte_hi, 0);
    p.capacity = 90;
    assert_int_equal(plan_with(need_strategy("greedy_by_size_tflm"), &p, off, &r), APLAN_OK);
}

/* A start given to a strategy that does not search is checked as for a search: an invalid one is refused with the
 * verifier's report, a valid one (above the capacity too) is accepted and ignored. */
static void test_plan_search_checks_start_for_every_strategy(void **state) {
    (void)state;
    aplan_problem p = tflm_five();
    uint64_t off[5];
    aplan_result r;
    const aplan_strategy *s = need_strategy("greedy_by_size");
    assert_int_equal(plan_with(s, &p, off, &r), APLAN_OK);
    uint64_t start[5];
    memcpy(start, off, sizeof start);
    size_t need;
    assert_int_equal(aplan_plan_scratch_size(s, &p, &need), APLAN_OK);
    void *scratch = aligned_alloc(APLAN_SCRATCH_ALIGN, need + 8u);
    aplan_search_options o;
    aplan_search_options_init(&o);
    o.start = start;
    for (size_t k = 0; k < aplan_strategy_count(); k++) {
        const aplan_strategy *t = aplan_strategy_at(k);
        size_t t_need;
        assert_int_equal(aplan_plan_scratch_size(t, &p, &t_need), APLAN_OK);
        void *t_scratch = aligned_alloc(APLAN_SCRATCH_ALIGN, t_need + 8u);
        uint64_t overlapping[5];
        memcpy(overlapping, start, sizeof overlapping);
        overlapping[1] = overlapping[0]; /* buffers 0 and 1 are live together (tflm_five): they now share bytes */
        o.start = overlapping;
        assert_int_equal(aplan_plan_search(t, &p, &o, t_scratch, t_need, off, &r), APLAN_E_INVALID_ARG);
        assert_int_equal(r.report.rule, APLAN_E_OVERLAP);
        assert_int_equal(r.report.buffer_a, 0);
        assert_int_equal(r.report.buffer_b, 1);
        free(t_scratch);
    }
    p.capacity = 80; /* the bound: greedy's 90 is above it, still a valid start */
    o.start = start;
    aplan_status st = aplan_plan_search(s, &p, &o, scratch, need, off, &r);
    assert_int_equal(st, APLAN_E_CAPACITY_EXCEEDED); /* greedy plans as it would anyway */
    assert_int_equal(r.arena_size, 90);
    free(scratch);
}

static void test_plan_reports_offset_overflow(void **state) {
    (void)state;
    aplan_buffer b[2] = {fixed_buf(16, 0, 2, UINT64_MAX - 31u), buf(32, 0, 2)};
    aplan_problem p;
    aplan_problem_init(&p, b, 2);
    for (size_t k = 0; k < aplan_strategy_count(); k++) {
        const aplan_strategy *s = aplan_strategy_at(k);
        uint64_t off[2];
        aplan_result r;
        aplan_status st = plan_with(s, &p, off, &r);
        if (strcmp(s->name, "offline") == 0) {
            assert_int_equal(st, APLAN_E_OFFSET_MISSING);
        } else {
            /* 32 bytes fit below the fixed buffer: every strategy finds 0 */
            assert_int_equal(st, APLAN_OK);
            assert_int_equal(off[1], 0);
        }
    }
    b[1].size = UINT64_MAX - 20u; /* does not fit below the fixed buffer and cannot go above it */
    for (size_t k = 0; k < aplan_strategy_count(); k++) {
        const aplan_strategy *s = aplan_strategy_at(k);
        if (strcmp(s->name, "offline") == 0) continue;
        uint64_t off[2];
        aplan_result r;
        assert_int_equal(plan_with(s, &p, off, &r), APLAN_E_SIZE_OVERFLOW);
        assert_int_equal(r.report.buffer_a, 1);
    }
}

/*
 * Sizes near 2^64 (issue 17): every strategy of the build on hand-made problems with buffers of 2^62, 2^63 and
 * 2^64 - 1 bytes and alignments of 2^62 and 2^63, offsets and arenas exact, every plan verified (plan_with: the
 * verifier and the brute-force check). A strategy fails with APLAN_E_SIZE_OVERFLOW only where its own rule places a
 * buffer that would end past 2^64 - 1, and the report names that buffer.
 */
#define G62 ((uint64_t)1 << 62)
#define G63 ((uint64_t)1 << 63)

typedef struct {
    const char *strategy;
    aplan_status status; /* APLAN_OK: offsets[] is the plan; else the status and the buffer its report names */
    size_t buffer;
    uint64_t offsets[3];
} near_top;

/* Each strategy of the build must have a row; arena and bound are the plans' (bound 0: the bound itself fails). */
static void expect_every_strategy(const aplan_problem *p, const near_top *want, size_t rows, uint64_t arena,
                                  uint64_t bound) {
    for (size_t k = 0; k < aplan_strategy_count(); k++) {
        const aplan_strategy *s = aplan_strategy_at(k);
        const near_top *w = NULL;
        for (size_t j = 0; j < rows; j++) {
            if (strcmp(want[j].strategy, s->name) == 0) w = &want[j];
        }
        if (w == NULL) fail_msg("%s: no expected result for this strategy", s->name);
        if (w->status == APLAN_OK) {
            expect_plan(s, p, w->offsets, arena, bound);
            continue;
        }
        uint64_t off[3];
        aplan_result r;
        const aplan_status st = plan_with(s, p, off, &r);
        if (st != w->status || r.report.buffer_a != w->buffer) {
            fail_msg("%s: status %d naming buffer %zu, want %d naming %zu", s->name, st, r.report.buffer_a, w->status,
                     w->buffer);
        }
        assert_int_equal(r.report.rule, w->status);
        assert_int_equal(r.lower_bound, bound);
    }
}

/* 2^63 + 2^62 + (2^62 - 1) bytes live at once: every strategy packs them up to the last byte, 2^64 - 1. One byte
 * more and the live sum passes 64 bits: the bound fails for every strategy, before any plans. */
static void test_every_strategy_fills_64_bits_to_the_last_byte(void **state) {
    (void)state;
    aplan_buffer b[3] = {buf(G63, 0, 1), buf(G62, 0, 1), buf(G62 - 1u, 0, 1)};
    aplan_problem p;
    aplan_problem_init(&p, b, 3);
    const near_top want[] = {
        {"linear", APLAN_OK, 0, {0, G63, G63 + G62}},
        {"greedy_by_size", APLAN_OK, 0, {0, G63, G63 + G62}},
        {"greedy_by_size_tflm", APLAN_OK, 0, {0, G63, G63 + G62}},
        {"first_fit", APLAN_OK, 0, {0, G63, G63 + G62}},
        {"best_fit", APLAN_OK, 0, {0, G63, G63 + G62}},
        {"greedy_by_breadth", APLAN_OK, 0, {0, G63, G63 + G62}},
        {"greedy_by_conflicts", APLAN_OK, 0, {0, G63, G63 + G62}},
        {"exact", APLAN_OK, 0, {0, G63, G63 + G62}},
        {"offline", APLAN_E_OFFSET_MISSING, 0, {0}},
    };
    expect_every_strategy(&p, want, N(want), UINT64_MAX, UINT64_MAX);
    b[2].size = G62;
    near_top none[N(want)];
    for (size_t k = 0; k < N(want); k++) {
        none[k] = (near_top){want[k].strategy, APLAN_E_SIZE_OVERFLOW, APLAN_NO_BUFFER, {0}};
    }
    expect_every_strategy(&p, none, N(none), 0, 0);
}

/*
 * q (2^62, aligned to 2^62) is live from step 0, big (2^63 + 1) from step 1, late (2^62) after both. Whichever
 * strategy places big first puts it at 0 and q aligned above it, at 2^63 + 2^62, where it would end at 2^64: those
 * fail naming q. first_fit takes them in step order, q at 0 and big above it, ending at the bound; linear, no reuse,
 * fails at late. exact's start (greedy_by_size's) fails too, so it searches: the same plan, proven optimal.
 */
static void test_each_strategy_fails_only_where_its_rule_passes_64_bits(void **state) {
    (void)state;
    aplan_buffer b[3] = {buf(G62, 0, 2), buf(G63 + 1u, 1, 2), buf(G62, 2, 3)};
    b[0].alignment = G62;
    aplan_problem p;
    aplan_problem_init(&p, b, 3);
    const near_top want[] = {
        {"linear", APLAN_E_SIZE_OVERFLOW, 2, {0}},
        {"greedy_by_size", APLAN_E_SIZE_OVERFLOW, 0, {0}},
        {"greedy_by_size_tflm", APLAN_E_SIZE_OVERFLOW, 0, {0}},
        {"first_fit", APLAN_OK, 0, {0, G62, 0}},
        {"best_fit", APLAN_E_SIZE_OVERFLOW, 0, {0}},
        {"greedy_by_breadth", APLAN_E_SIZE_OVERFLOW, 0, {0}},
        {"greedy_by_conflicts", APLAN_E_SIZE_OVERFLOW, 0, {0}},
        {"exact", APLAN_OK, 0, {0, G62, 0}},
        {"offline", APLAN_E_OFFSET_MISSING, 0, {0}},
    };
    expect_every_strategy(&p, want, N(want), G63 + G62 + 1u, G63 + G62 + 1u);
}

/* A fixed buffer of 2^62 bytes ending at 2^64 - 1, live throughout; 2^63 and 2^62 - 1 bytes fill the rest to its
 * offset exactly, the last of them ending where it starts. */
static void test_every_strategy_fits_below_a_fixed_buffer_at_the_top(void **state) {
    (void)state;
    aplan_buffer b[3] = {fixed_buf(G62, 0, 3, 3u * G62 - 1u), buf(G63, 0, 2), buf(G62 - 1u, 1, 3)};
    aplan_problem p;
    aplan_problem_init(&p, b, 3);
    const near_top want[] = {
        {"linear", APLAN_OK, 0, {3u * G62 - 1u, 0, G63}},
        {"greedy_by_size", APLAN_OK, 0, {3u * G62 - 1u, 0, G63}},
        {"greedy_by_size_tflm", APLAN_OK, 0, {3u * G62 - 1u, 0, G63}},
        {"first_fit", APLAN_OK, 0, {3u * G62 - 1u, 0, G63}},
        {"best_fit", APLAN_OK, 0, {3u * G62 - 1u, 0, G63}},
        {"greedy_by_breadth", APLAN_OK, 0, {3u * G62 - 1u, 0, G63}},
        {"greedy_by_conflicts", APLAN_OK, 0, {3u * G62 - 1u, 0, G63}},
        {"exact", APLAN_OK, 0, {3u * G62 - 1u, 0, G63}},
        {"offline", APLAN_E_OFFSET_MISSING, 1, {0}},
    };
    expect_every_strategy(&p, want, N(want), UINT64_MAX, UINT64_MAX);
}

/* Two buffers of 2^64 - 1 bytes one step apart share every byte; linear, which never reuses, cannot hold both. */
static void test_every_strategy_reuses_buffers_of_2_64_minus_1(void **state) {
    (void)state;
    aplan_buffer b[2] = {buf(UINT64_MAX, 0, 1), buf(UINT64_MAX, 1, 2)};
    aplan_problem p;
    aplan_problem_init(&p, b, 2);
    const near_top want[] = {
        {"linear", APLAN_E_SIZE_OVERFLOW, 1, {0}},
        {"greedy_by_size", APLAN_OK, 0, {0, 0}},
        {"greedy_by_size_tflm", APLAN_OK, 0, {0, 0}},
        {"first_fit", APLAN_OK, 0, {0, 0}},
        {"best_fit", APLAN_OK, 0, {0, 0}},
        {"greedy_by_breadth", APLAN_OK, 0, {0, 0}},
        {"greedy_by_conflicts", APLAN_OK, 0, {0, 0}},
        {"exact", APLAN_OK, 0, {0, 0}},
        {"offline", APLAN_E_OFFSET_MISSING, 0, {0}},
    };
    expect_every_strategy(&p, want, N(want), UINT64_MAX, UINT64_MAX);
}

/*
 * Alignments of 2^63. One byte aligned to 2^63 beside 2^63 bytes: largest first puts the byte at 2^63, linear and
 * first_fit (input and step order) put it at 0 and the rest at 1; both end at the bound. Then with 2^63 + 1 bytes
 * aligned to 2^63 beside 2^62 aligned to 2^62, no order fits 64 bits (at 0 it leaves the other to end at 2^64, above
 * it it ends past 2^64): every strategy fails naming the second, exact after a complete search.
 */
static void test_every_strategy_honours_alignments_of_2_63(void **state) {
    (void)state;
    aplan_buffer b[2] = {buf(1, 0, 2), buf(G63, 1, 3)};
    b[0].alignment = G63;
    aplan_problem p;
    aplan_problem_init(&p, b, 2);
    const near_top want[] = {
        {"linear", APLAN_OK, 0, {0, 1}},
        {"greedy_by_size", APLAN_OK, 0, {G63, 0}},
        {"greedy_by_size_tflm", APLAN_OK, 0, {G63, 0}},
        {"first_fit", APLAN_OK, 0, {0, 1}},
        {"best_fit", APLAN_OK, 0, {G63, 0}},
        {"greedy_by_breadth", APLAN_OK, 0, {G63, 0}},
        {"greedy_by_conflicts", APLAN_OK, 0, {G63, 0}},
        {"exact", APLAN_OK, 0, {G63, 0}},
        {"offline", APLAN_E_OFFSET_MISSING, 0, {0}},
    };
    expect_every_strategy(&p, want, N(want), G63 + 1u, G63 + 1u);
    b[0] = buf(G63 + 1u, 0, 2);
    b[0].alignment = G63;
    b[1] = buf(G62, 1, 3);
    b[1].alignment = G62;
    const near_top none[] = {
        {"linear", APLAN_E_SIZE_OVERFLOW, 1, {0}},
        {"greedy_by_size", APLAN_E_SIZE_OVERFLOW, 1, {0}},
        {"greedy_by_size_tflm", APLAN_E_SIZE_OVERFLOW, 1, {0}},
        {"first_fit", APLAN_E_SIZE_OVERFLOW, 1, {0}},
        {"best_fit", APLAN_E_SIZE_OVERFLOW, 1, {0}},
        {"greedy_by_breadth", APLAN_E_SIZE_OVERFLOW, 1, {0}},
        {"greedy_by_conflicts", APLAN_E_SIZE_OVERFLOW, 1, {0}},
        {"exact", APLAN_E_SIZE_OVERFLOW, 1, {0}},
        {"offline", APLAN_E_OFFSET_MISSING, 0, {0}},
    };
    expect_every_strategy(&p, none, N(none), 0, G63 + G62 + 1u);
}

static void test_plan_reports_input_fixed_conflict(void **state) {
    (void)state;
    aplan_buffer b[3] = {fixed_buf(32, 0, 2, 0), fixed_buf(32, 1, 3, 16), buf(8, 0, 3)};
    aplan_problem p;
    aplan_problem_init(&p, b, 3);
    uint64_t off[3];
    aplan_result r;
    assert_int_equal(plan_with(need_strategy("greedy_by_size"), &p, off, &r), APLAN_E_FIXED_OVERLAP);
    assert_int_equal(r.report.buffer_a, 0);
    assert_int_equal(r.report.buffer_b, 1);
    assert_int_equal(r.report.step_lo, 1);
    assert_int_equal(r.report.step_hi, 2);
    assert_int_equal(r.report.byte_lo, 16);
    assert_int_equal(r.report.byte_hi, 32);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_greedy_tflm_matches_tflm_five_buffer_case),
        cmocka_unit_test(test_greedy_matches_tflm_on_distinct_sizes),
        cmocka_unit_test(test_greedy_tflm_matches_tflm_three_buffer_case),
        cmocka_unit_test(test_greedy_tflm_places_equal_sizes_last_added_first),
        cmocka_unit_test(test_greedy_tflm_low_memory_compact_records),
        cmocka_unit_test(test_greedy_tflm_matches_tflm_offline_case),
        cmocka_unit_test(test_greedy_honours_per_buffer_alignment),
        cmocka_unit_test(test_greedy_rounds_sizes_when_asked),
        cmocka_unit_test(test_greedy_places_around_fixed_buffers),
        cmocka_unit_test(test_greedy_reuses_across_disjoint_lifetimes),
        cmocka_unit_test(test_greedy_dense_walk_stacks_groups_exactly),
        cmocka_unit_test(test_linear_is_back_to_back_in_input_order),
        cmocka_unit_test(test_linear_aligns_each_buffer),
        cmocka_unit_test(test_linear_skips_fixed_bytes_whatever_their_lifetime),
        cmocka_unit_test(test_first_fit_reuses_freed_block_lowest_first),
        cmocka_unit_test(test_first_fit_grows_at_top_when_no_gap_fits),
        cmocka_unit_test(test_first_fit_reserves_fixed_buffers_before_they_start),
        cmocka_unit_test(test_first_fit_aligns_in_gap),
        cmocka_unit_test(test_best_fit_takes_snug_gap_where_greedy_takes_lowest),
        cmocka_unit_test(test_best_fit_aligns_gap_starts_and_falls_back_on_top),
        cmocka_unit_test(test_best_fit_orders_equal_sizes_by_first_step),
        cmocka_unit_test(test_breadth_places_busiest_step_first),
        cmocka_unit_test(test_breadth_counts_fixed_buffers),
        cmocka_unit_test(test_conflicts_places_most_overlapping_first),
        cmocka_unit_test(test_conflicts_counts_fixed_not_touching),
        cmocka_unit_test(test_offline_passes_fixed_offsets_through),
        cmocka_unit_test(test_offline_rejects_buffer_without_offset),
        cmocka_unit_test(test_offline_keeps_vela_aliasing_when_allowed),
        cmocka_unit_test(test_every_strategy_handles_empty_problem),
        cmocka_unit_test(test_every_strategy_rejects_scratch_one_byte_short),
        cmocka_unit_test(test_plan_reports_capacity_exceeded_by_bound),
        cmocka_unit_test(test_plan_reports_capacity_exceeded_by_plan),
        cmocka_unit_test(test_plan_search_checks_start_for_every_strategy),
        cmocka_unit_test(test_plan_reports_offset_overflow),
        cmocka_unit_test(test_plan_reports_input_fixed_conflict),
        cmocka_unit_test(test_every_strategy_fills_64_bits_to_the_last_byte),
        cmocka_unit_test(test_each_strategy_fails_only_where_its_rule_passes_64_bits),
        cmocka_unit_test(test_every_strategy_fits_below_a_fixed_buffer_at_the_top),
        cmocka_unit_test(test_every_strategy_reuses_buffers_of_2_64_minus_1),
        cmocka_unit_test(test_every_strategy_honours_alignments_of_2_63),
    };
    return cmocka_run_group_tests_name("strategies", tests, NULL, NULL);
}
