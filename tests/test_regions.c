/* Regions (<aplan/regions.h>): validation with exact statuses, the verifier per region, the bounds, hand-made plans
 * with their exact regions and offsets, pins, infeasible pins, one region against the single-region strategies, and
 * random problems checked region by region against the brute-force oracle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "aplan/regions.h"
#include "aplan/strategies.h"
#include "helpers.h"

#define NO APLAN_NO_OFFSET
#define UNL APLAN_UNLIMITED

/* A plan with malloc'd scratch; every plan returned is also checked against the oracle, region by region. */
typedef struct {
    aplan_status status;
    uint32_t region[64];
    uint64_t offset[64];
    uint64_t arena[APLAN_MAX_REGIONS];
    uint64_t bound[APLAN_MAX_REGIONS];
    aplan_region_result result;
} outcome;

static void oracle_per_region(const aplan_problem *p, const aplan_regions *rg, const outcome *o) {
    for (size_t r = 0; r < rg->count; r++) {
        aplan_buffer sub[64];
        uint64_t off[64];
        size_t m = 0;
        for (size_t i = 0; i < p->count; i++) {
            if (o->region[i] != r) continue;
            assert_true(aplan_region_allowed(rg, i, r));
            sub[m] = p->buffers[i];
            sub[m].size = aplan_buffer_size(p, i);
            const uint64_t a = aplan_buffer_alignment(p, i), ra = rg->regions[r].alignment;
            sub[m].alignment = a > ra ? a : ra;
            off[m++] = o->offset[i];
        }
        aplan_problem q;
        aplan_problem_init(&q, sub, m);
        q.flags = p->flags & APLAN_ALLOW_FIXED_ALIAS;
        assert_true(brute_force_valid(&q, off, o->arena[r]));
    }
}

static outcome run(const aplan_region_strategy *s, const aplan_problem *p, const aplan_regions *rg,
                   const aplan_search_options *options) {
    outcome o;
    memset(&o, 0, sizeof o);
    assert_true(p->count <= 64);
    size_t need = 0;
    aplan_status st = aplan_region_plan_scratch_size(s, p, rg, &need);
    if (st != APLAN_OK) {
        o.status = st;
        return o;
    }
    void *scratch = malloc(need + 8u);
    assert_non_null(scratch);
    o.status = aplan_region_plan(s, p, rg, options, scratch, need, o.region, o.offset, o.arena, o.bound, &o.result);
    free(scratch);
    if (o.status == APLAN_OK || o.status == APLAN_E_CAPACITY_EXCEEDED) {
        if (o.result.outcome != APLAN_OUTCOME_INFEASIBLE || o.status == APLAN_OK) oracle_per_region(p, rg, &o);
    }
    return o;
}

static const aplan_region_strategy *region_strategy(const char *name) {
    const aplan_region_strategy *s = NULL;
    if (aplan_region_strategy_find(name, &s) != APLAN_OK) skip();
    return s;
}

/* The case of docs/design.md ("Regions"): SRAM 100 bytes, PSRAM unlimited. a (64 B, steps 0-1, 1 use) and b
 * (64 B, steps 1-2, 3 uses) are live together at step 1, so one of them leaves SRAM; c (32 B, steps 2-3, 5 uses)
 * fits beside b. banked takes a first (equal sizes: index order) and sends b, the busier, to PSRAM: 192 bytes of
 * traffic. select leaves out a (1 use per busy step against b's 3): 64, which exact proves least. */
static const aplan_buffer abc[3] = {{64, 0, 2, 0, NO}, {64, 1, 3, 0, NO}, {32, 2, 4, 0, NO}};
static const uint64_t abc_uses[3] = {1, 3, 5};
static const aplan_region sram_psram[2] = {{"sram", 100, 0, {0, 0}}, {"psram", UNL, 0, {0, 0}}};

static void test_banked_takes_largest_first_and_spills(void **state) {
    (void)state;
    aplan_problem p;
    aplan_problem_init(&p, abc, 3);
    const aplan_regions rg = {sram_psram, 2, NULL, abc_uses, {0}};
    outcome o = run(region_strategy("banked"), &p, &rg, NULL);
    assert_int_equal(o.status, APLAN_OK);
    const uint32_t want_region[3] = {0, 1, 0};
    const uint64_t want_offset[3] = {0, 0, 0};
    assert_memory_equal(o.region, want_region, sizeof want_region);
    assert_memory_equal(o.offset, want_offset, sizeof want_offset);
    assert_int_equal(o.arena[0], 64);
    assert_int_equal(o.arena[1], 64);
    assert_int_equal(o.result.traffic, 192);
    /* the bound: at step 1 the SRAM candidates need 128 bytes, 28 more than it has; the cheapest are a's, 1 use */
    assert_int_equal(o.result.traffic_bound, 28);
    assert_int_equal(o.result.outcome, APLAN_OUTCOME_PLAN);
    assert_int_equal(o.result.regions_over, 0);
}

static void test_select_leaves_out_the_cheapest_per_busy_step(void **state) {
    (void)state;
    aplan_problem p;
    aplan_problem_init(&p, abc, 3);
    const aplan_regions rg = {sram_psram, 2, NULL, abc_uses, {0}};
    outcome o = run(region_strategy("select"), &p, &rg, NULL);
    assert_int_equal(o.status, APLAN_OK);
    const uint32_t want_region[3] = {1, 0, 0};
    const uint64_t want_offset[3] = {0, 0, 64};
    assert_memory_equal(o.region, want_region, sizeof want_region);
    assert_memory_equal(o.offset, want_offset, sizeof want_offset);
    assert_int_equal(o.arena[0], 96);
    assert_int_equal(o.arena[1], 64);
    assert_int_equal(o.result.traffic, 64);
    assert_int_equal(o.result.outcome, APLAN_OUTCOME_PLAN);
    /* uses past 2^32 order as 2^32 - 1 (an order, not a figure): b and c still stay, a leaves */
    const uint64_t many[3] = {1, UINT64_C(1) << 40, UINT64_C(1) << 41};
    const aplan_regions busy = {sram_psram, 2, NULL, many, {0}};
    o = run(region_strategy("select"), &p, &busy, NULL);
    assert_int_equal(o.status, APLAN_OK);
    assert_memory_equal(o.region, want_region, sizeof want_region);
    assert_int_equal(o.result.traffic, 64);
}

static void test_exact_proves_the_least_traffic(void **state) {
    (void)state;
    aplan_problem p;
    aplan_problem_init(&p, abc, 3);
    const aplan_regions rg = {sram_psram, 2, NULL, abc_uses, {0}};
    outcome o = run(region_strategy("exact"), &p, &rg, NULL);
    assert_int_equal(o.status, APLAN_OK);
    assert_int_equal(o.result.traffic, 64);
    assert_int_equal(o.result.outcome, APLAN_OUTCOME_OPTIMAL);
}

/* Without uses every buffer costs its size: the same three, traffic 64 whichever of a and b leaves. */
static void test_uses_default_to_one(void **state) {
    (void)state;
    aplan_problem p;
    aplan_problem_init(&p, abc, 3);
    const aplan_regions rg = {sram_psram, 2, NULL, NULL, {0}};
    for (size_t k = 0; k < aplan_region_strategy_count(); k++) {
        outcome o = run(aplan_region_strategy_at(k), &p, &rg, NULL);
        assert_int_equal(o.status, APLAN_OK);
        assert_int_equal(o.result.traffic, 64);
        assert_int_equal(o.result.traffic_bound, 28);
    }
}

/* Pins: b pinned to SRAM keeps it there and a leaves, whatever its uses (banked, which places a first, then has no
 * room for b in the only region b may use: over the capacity, the baseline's failing); a pinned to PSRAM goes there. */
static void test_pins_are_kept(void **state) {
    (void)state;
    aplan_problem p;
    aplan_problem_init(&p, abc, 3);
    const uint64_t b_in_sram[3] = {0, 1, 0}, a_in_psram[3] = {2, 0, 0};
    const uint64_t uses[3] = {9, 1, 1};
    const aplan_regions pinned = {sram_psram, 2, b_in_sram, uses, {0}};
    outcome o = run(region_strategy("banked"), &p, &pinned, NULL);
    assert_int_equal(o.status, APLAN_E_CAPACITY_EXCEEDED);
    assert_int_equal(o.region[0], 0);
    assert_int_equal(o.region[1], 0);
    assert_int_equal(o.offset[1], 64);
    assert_int_equal(o.result.report.region, 0);
    assert_int_equal(o.result.report.value, 128);
    for (size_t k = 1; k < aplan_region_strategy_count(); k++) {
        const aplan_regions rg = {sram_psram, 2, b_in_sram, uses, {0}};
        o = run(aplan_region_strategy_at(k), &p, &rg, NULL);
        assert_int_equal(o.status, APLAN_OK);
        assert_int_equal(o.region[1], 0);
        assert_int_equal(o.region[0], 1);
        assert_int_equal(o.result.traffic, 64 * 9);
    }
    for (size_t k = 0; k < aplan_region_strategy_count(); k++) {
        const aplan_regions rg = {sram_psram, 2, a_in_psram, NULL, {0}};
        o = run(aplan_region_strategy_at(k), &p, &rg, NULL);
        assert_int_equal(o.status, APLAN_OK);
        assert_int_equal(o.region[0], 1);
        assert_int_equal(o.offset[0], 0);
        assert_int_equal(o.result.traffic, 64);
        assert_int_equal(o.result.outcome, APLAN_OUTCOME_OPTIMAL); /* the bound: a's 64 bytes are forced out */
    }
}

/* Pins no plan can keep: a and b pinned to SRAM, 128 bytes live at step 1 in 100: the bound proves it. */
static void test_infeasible_pins(void **state) {
    (void)state;
    aplan_problem p;
    aplan_problem_init(&p, abc, 3);
    const uint64_t both[3] = {1, 1, 0};
    const aplan_regions rg = {sram_psram, 2, both, NULL, {0}};
    for (size_t k = 0; k < aplan_region_strategy_count(); k++) {
        outcome o = run(aplan_region_strategy_at(k), &p, &rg, NULL);
        assert_int_equal(o.status, APLAN_E_CAPACITY_EXCEEDED);
        assert_int_equal(o.result.outcome, APLAN_OUTCOME_INFEASIBLE);
        assert_int_equal(o.result.report.rule, APLAN_E_CAPACITY_EXCEEDED);
        assert_int_equal(o.result.report.in_region, 1);
        assert_int_equal(o.result.report.region, 0);
        assert_int_equal(o.result.report.value, 128);
        assert_int_equal(o.result.report.limit, 100);
        assert_int_equal(o.bound[0], 128);
    }
}

/* Nothing fits, though the bounds do not say so: the regions are too small for the packing. exact proves it; banked
 * and select return their plan over the capacity. Three buffers of 48 live pairwise at different steps (a chain
 * a-b, b-c, c-a is impossible in time, so: a [0,2) b [1,3) and c [1,2) all at step 1: 144 in 100 + 40). */
static void test_nothing_fits(void **state) {
    (void)state;
    const aplan_buffer b[3] = {{48, 0, 2, 0, NO}, {48, 1, 3, 0, NO}, {48, 1, 2, 0, NO}};
    const aplan_region small[2] = {{"a", 100, 0, {0, 0}}, {"b", 40, 0, {0, 0}}};
    aplan_problem p;
    aplan_problem_init(&p, b, 3);
    const aplan_regions rg = {small, 2, NULL, NULL, {0}};
    outcome o = run(region_strategy("banked"), &p, &rg, NULL);
    assert_int_equal(o.status, APLAN_E_CAPACITY_EXCEEDED);
    assert_int_equal(o.result.regions_over, 1);
    assert_int_equal(o.result.report.region, 1);
    o = run(region_strategy("exact"), &p, &rg, NULL);
    assert_int_equal(o.status, APLAN_E_CAPACITY_EXCEEDED);
    assert_int_equal(o.result.outcome, APLAN_OUTCOME_INFEASIBLE);
}

/* A region's alignment aligns the offsets in it, and not the sizes. */
static void test_region_alignment(void **state) {
    (void)state;
    const aplan_buffer b[2] = {{24, 0, 2, 0, NO}, {24, 0, 2, 0, NO}};
    const aplan_region one[1] = {{"psram", UNL, 32, {0, 0}}};
    aplan_problem p;
    aplan_problem_init(&p, b, 2);
    const aplan_regions rg = {one, 1, NULL, NULL, {0}};
    outcome o = run(region_strategy("banked"), &p, &rg, NULL);
    assert_int_equal(o.status, APLAN_OK);
    assert_int_equal(o.offset[0], 0);
    assert_int_equal(o.offset[1], 32);
    assert_int_equal(o.arena[0], 56);
}

/* One region is exactly a single-region problem: banked gives greedy_by_size's offsets and select the best of the
 * auto strategies (or better, from the exact search), on random problems with fixed buffers and a capacity. */
static void test_one_region_is_the_single_region_plan(void **state) {
    (void)state;
    const aplan_strategy *greedy = need_strategy("greedy_by_size");
    test_rng rng = {0x5eed0001u};
    for (int round = 0; round < 300; round++) {
        aplan_buffer b[40];
        const size_t n = 1u + (size_t)rng_below(&rng, 40);
        random_problem(&rng, b, n, 20, 300, 16, round % 3 == 0 ? 5u : 0u);
        aplan_problem p;
        aplan_problem_init(&p, b, n);
        p.alignment = 8;
        p.flags = round % 2 ? APLAN_ROUND_SIZES : 0u;
        uint64_t want[40];
        aplan_result r;
        assert_int_equal(plan_with(greedy, &p, want, &r), APLAN_OK);
        const aplan_region one[1] = {{"ram", round % 4 == 0 ? r.arena_size : UNL, 0, {0, 0}}};
        const aplan_regions rg = {one, 1, NULL, NULL, {0}};
        outcome o = run(region_strategy("banked"), &p, &rg, NULL);
        assert_int_equal(o.status, APLAN_OK);
        assert_memory_equal(o.offset, want, n * sizeof want[0]);
        assert_int_equal(o.arena[0], r.arena_size);
        assert_int_equal(o.result.traffic, 0);
        uint64_t best = UINT64_MAX;
        for (size_t k = 0; k < aplan_strategy_auto_count(); k++) {
            uint64_t off[40];
            if (plan_with(aplan_strategy_auto_at(k), &p, off, &r) == APLAN_OK && r.arena_size < best)
                best = r.arena_size;
        }
        o = run(region_strategy("select"), &p, &rg, NULL);
        assert_int_equal(o.status, APLAN_OK);
        assert_true(o.arena[0] <= best);
    }
}

/* banked plans problems of 8192 buffers or more through the greedy engine's span path (greedy.c, SPAN_MIN): the
 * same problem padded to that size with buffers that occupy nothing gets the same regions, offsets and arenas as
 * alone, with buffers spilling from a small SRAM into PSRAM (a region alignment each). */
static void test_banked_span_path_matches(void **state) {
    (void)state;
    enum { N = 2500, PADDED = 8192 };
    const aplan_region_strategy *banked = region_strategy("banked");
    test_rng rng = {0x5eed0003u};
    aplan_buffer *b = malloc(PADDED * sizeof *b);
    uint32_t *region[2] = {malloc(PADDED * sizeof(uint32_t)), malloc(PADDED * sizeof(uint32_t))};
    uint64_t *offset[2] = {malloc(PADDED * sizeof(uint64_t)), malloc(PADDED * sizeof(uint64_t))};
    for (int round = 0; round < 4; round++) {
        for (size_t i = 0; i < N; i++) {
            const uint64_t lower = rng_below(&rng, 300);
            b[i] = buf(1 + rng_below(&rng, round % 2 ? 2000 : 20000), lower, lower + 1 + rng_below(&rng, 400));
        }
        for (size_t i = N; i < PADDED; i++) b[i] = buf(0, 0, 1);
        const aplan_region g[2] = {{"sram", 100000u * (uint64_t)(round + 1), 16, {0, 0}}, {"psram", UNL, 32, {0, 0}}};
        const aplan_regions rg = {g, 2, NULL, NULL, {0}};
        uint64_t arena[2][APLAN_MAX_REGIONS];
        for (int k = 0; k < 2; k++) {
            aplan_problem p;
            aplan_problem_init(&p, b, k == 0 ? N : PADDED);
            p.alignment = 8;
            size_t need = 0;
            assert_int_equal(aplan_region_plan_scratch_size(banked, &p, &rg, &need), APLAN_OK);
            void *scratch = malloc(need + 8u);
            uint64_t bounds[APLAN_MAX_REGIONS];
            aplan_region_result result;
            assert_int_equal(aplan_region_plan(banked, &p, &rg, NULL, scratch, need, region[k], offset[k], arena[k],
                                               bounds, &result),
                             APLAN_OK);
            free(scratch);
        }
        size_t spilled = 0;
        for (size_t i = 0; i < N; i++) {
            assert_int_equal(region[1][i], region[0][i]);
            assert_int_equal(offset[1][i], offset[0][i]);
            spilled += region[0][i] == 1;
        }
        assert_true(spilled > 0 && spilled < N); /* both regions in use */
        assert_int_equal(arena[1][0], arena[0][0]);
        assert_int_equal(arena[1][1], arena[0][1]);
    }
    for (int k = 0; k < 2; k++) {
        free(region[k]);
        free(offset[k]);
    }
    free(b);
}

/* Random problems of two and three regions with random pins, capacities and uses: every plan valid region by region
 * (the oracle), select never worse than banked in traffic when both fit, and exact, when it proves the optimum,
 * never above select. */
static void test_random_regions(void **state) {
    (void)state;
    test_rng rng = {0x5eed0002u};
    aplan_search_options budget;
    aplan_search_options_init(&budget);
    budget.max_nodes = 20000;
    for (int round = 0; round < 400; round++) {
        aplan_buffer b[12];
        const size_t n = 1u + (size_t)rng_below(&rng, 12);
        random_problem(&rng, b, n, 10, 100, 8, 0);
        const size_t regions = 2u + (size_t)rng_below(&rng, 2);
        uint64_t allowed[12], uses[12];
        for (size_t i = 0; i < n; i++) {
            allowed[i] = rng_below(&rng, 4) == 0 ? (uint64_t)1u << rng_below(&rng, regions) : 0u;
            uses[i] = rng_below(&rng, 6);
        }
        aplan_region g[3];
        for (size_t r = 0; r < regions; r++) {
            g[r] = (aplan_region){"r", r + 1u == regions && round % 2 ? UNL : 60u + rng_below(&rng, 200),
                                  (uint64_t)1u << rng_below(&rng, 4), {0, 0}};
        }
        aplan_problem p;
        aplan_problem_init(&p, b, n);
        const aplan_regions rg = {g, regions, allowed, uses, {0}};
        if (aplan_regions_validate(&p, &rg, NULL) != APLAN_OK) continue;
        outcome banked = run(region_strategy("banked"), &p, &rg, NULL);
        outcome sel = run(region_strategy("select"), &p, &rg, NULL);
        if (banked.status == APLAN_OK && sel.status == APLAN_OK)
            assert_true(sel.result.traffic <= banked.result.traffic);
        if (banked.status == APLAN_OK) assert_int_equal(sel.status, APLAN_OK);
        const aplan_region_strategy *ex = NULL;
        if (aplan_region_strategy_find("exact", &ex) != APLAN_OK) continue;
        outcome e = run(ex, &p, &rg, &budget);
        if (e.result.outcome == APLAN_OUTCOME_OPTIMAL) {
            assert_int_equal(e.status, APLAN_OK);
            if (sel.status == APLAN_OK) assert_true(e.result.traffic <= sel.result.traffic);
            assert_true(e.result.traffic >= e.result.traffic_bound);
        }
        if (e.result.outcome == APLAN_OUTCOME_INFEASIBLE) {
            assert_int_equal(e.status, APLAN_E_CAPACITY_EXCEEDED);
            assert_int_not_equal(sel.status, APLAN_OK);
            assert_int_not_equal(banked.status, APLAN_OK);
        }
        if (sel.status == APLAN_OK) assert_true(sel.result.traffic >= sel.result.traffic_bound);
    }
}

/* The least traffic of any plan that fits every region, by brute force: every assignment of the buffers to regions
 * they may use, each region's packing by the oracle's brute-force optimum (every placement order). UINT64_MAX when
 * none fits. */
static uint64_t brute_force_traffic(const aplan_problem *p, const aplan_regions *rg) {
    const size_t n = p->count, k = rg->count;
    size_t total = 1;
    for (size_t i = 0; i < n; i++) total *= k;
    uint64_t best = UINT64_MAX;
    for (size_t code = 0; code < total; code++) {
        uint32_t region[8];
        size_t c = code;
        bool allowed = true;
        for (size_t i = 0; i < n; i++) {
            region[i] = (uint32_t)(c % k);
            c /= k;
            allowed = allowed && aplan_region_allowed(rg, i, region[i]);
        }
        if (!allowed) continue;
        bool fits = true;
        for (size_t r = 0; r < k && fits; r++) {
            aplan_buffer sub[8];
            size_t m = 0;
            for (size_t i = 0; i < n; i++) {
                if (region[i] != r) continue;
                sub[m] = p->buffers[i];
                sub[m].size = aplan_buffer_size(p, i);
                const uint64_t a = aplan_buffer_alignment(p, i), ra = rg->regions[r].alignment;
                sub[m++].alignment = a > ra ? a : ra;
            }
            aplan_problem q;
            aplan_problem_init(&q, sub, m);
            fits = m == 0 || brute_force_optimum(&q) <= rg->regions[r].capacity;
        }
        const uint64_t t = aplan_region_traffic(p, rg, region);
        if (fits && t < best) best = t;
    }
    return best;
}

/* exact against the brute force on small problems (up to 6 buffers, 2 or 3 regions, no budget): OPTIMAL with the
 * least traffic, or INFEASIBLE exactly when no assignment fits; select and banked never below it. */
static void test_exact_against_brute_force(void **state) {
    (void)state;
    const aplan_region_strategy *ex = region_strategy("exact");
    test_rng rng = {0x5eed0003u};
    int infeasible = 0, optimal = 0;
    for (int round = 0; round < 500; round++) {
        aplan_buffer b[6];
        const size_t n = 1u + (size_t)rng_below(&rng, 6);
        random_problem(&rng, b, n, 8, 64, 4, 0);
        const size_t regions = 2u + (size_t)rng_below(&rng, 2);
        uint64_t allowed[6], uses[6];
        for (size_t i = 0; i < n; i++) {
            allowed[i] = rng_below(&rng, 5) == 0 ? (uint64_t)1u << rng_below(&rng, regions) : 0u;
            uses[i] = rng_below(&rng, 5);
        }
        aplan_region g[3];
        for (size_t r = 0; r < regions; r++) g[r] = (aplan_region){"r", 32u + rng_below(&rng, 64), 0, {0, 0}};
        aplan_problem p;
        aplan_problem_init(&p, b, n);
        const aplan_regions rg = {g, regions, allowed, uses, {0}};
        if (aplan_regions_validate(&p, &rg, NULL) != APLAN_OK) continue;
        const uint64_t want = brute_force_traffic(&p, &rg);
        outcome e = run(ex, &p, &rg, NULL);
        if (want == UINT64_MAX) {
            assert_int_equal(e.status, APLAN_E_CAPACITY_EXCEEDED);
            assert_int_equal(e.result.outcome, APLAN_OUTCOME_INFEASIBLE);
            infeasible++;
        } else {
            assert_int_equal(e.status, APLAN_OK);
            assert_int_equal(e.result.outcome, APLAN_OUTCOME_OPTIMAL);
            assert_int_equal(e.result.traffic, want);
            assert_true(e.result.traffic_bound <= want);
            optimal++;
        }
        for (size_t k = 0; k < 2; k++) {
            outcome o = run(aplan_region_strategy_at(k), &p, &rg, NULL);
            if (o.status == APLAN_OK) assert_true(o.result.traffic >= want);
        }
    }
    assert_true(infeasible > 20 && optimal > 200); /* both claims were exercised */
}

/* Validation: each rule with its exact status, buffer and region. */
static void test_validation(void **state) {
    (void)state;
    aplan_buffer b[2] = {{16, 0, 2, 0, NO}, {16, 0, 2, 0, 32}};
    aplan_problem p;
    aplan_problem_init(&p, b, 2);
    aplan_region g[2] = {{"sram", 64, 0, {0, 0}}, {"psram", UNL, 0, {0, 0}}};
    uint64_t allowed[2] = {0, 1};
    aplan_regions rg = {g, 2, allowed, NULL, {0}};
    aplan_report r;
    assert_int_equal(aplan_regions_validate(&p, &rg, &r), APLAN_OK);
    assert_int_equal(aplan_regions_validate(&p, NULL, &r), APLAN_E_INVALID_ARG);
    rg.count = 0;
    assert_int_equal(aplan_regions_validate(&p, &rg, &r), APLAN_E_BAD_REGION);
    rg.count = APLAN_MAX_REGIONS + 1u;
    assert_int_equal(aplan_regions_validate(&p, &rg, &r), APLAN_E_BAD_REGION);
    rg.count = 2;
    allowed[0] = 4; /* region 2 of 2 */
    assert_int_equal(aplan_regions_validate(&p, &rg, &r), APLAN_E_BAD_REGION);
    assert_int_equal(r.buffer_a, 0);
    allowed[0] = 0;
    allowed[1] = 0; /* a fixed buffer that may go anywhere: its offset is in no region in particular */
    assert_int_equal(aplan_regions_validate(&p, &rg, &r), APLAN_E_BAD_REGION);
    assert_int_equal(r.buffer_a, 1);
    allowed[1] = 1;
    g[0].alignment = 3;
    assert_int_equal(aplan_regions_validate(&p, &rg, &r), APLAN_E_BAD_ALIGNMENT);
    assert_int_equal(r.in_region, 1);
    assert_int_equal(r.region, 0);
    g[0].alignment = 64; /* the fixed offset 32 is not a multiple of its region's alignment */
    assert_int_equal(aplan_regions_validate(&p, &rg, &r), APLAN_E_MISALIGNED_OFFSET);
    assert_int_equal(r.buffer_a, 1);
    assert_int_equal(r.value, 32);
    assert_int_equal(r.limit, 64);
    g[0].alignment = 0;
    g[0].capacity = 40; /* the fixed end 48 passes it */
    assert_int_equal(aplan_regions_validate(&p, &rg, &r), APLAN_E_CAPACITY_EXCEEDED);
    assert_int_equal(r.buffer_a, 1);
    assert_int_equal(r.value, 48);
    assert_int_equal(r.limit, 40);
    g[0].capacity = 64;
    p.capacity = 100; /* the regions carry the capacities */
    assert_int_equal(aplan_regions_validate(&p, &rg, &r), APLAN_E_INVALID_ARG);
    p.capacity = UNL;
    g[1].reserved[0] = 1;
    assert_int_equal(aplan_regions_validate(&p, &rg, &r), APLAN_E_INVALID_ARG);
    g[1].reserved[0] = 0;
    b[0].size = 100; /* larger than the only region it may use */
    allowed[0] = 1;
    assert_int_equal(aplan_regions_validate(&p, &rg, &r), APLAN_E_CAPACITY_EXCEEDED);
    assert_int_equal(r.buffer_a, 0);
    assert_int_equal(r.region, 0);
    b[0].size = 16;
    allowed[0] = 0;
    uint64_t uses[2] = {UINT64_MAX / 8u, 1}; /* 16 x that passes 2^64 */
    rg.uses = uses;
    assert_int_equal(aplan_regions_validate(&p, &rg, &r), APLAN_E_SIZE_OVERFLOW);
    assert_int_equal(r.buffer_a, 0);
}

/* The verifier: the wrong region, an overlap named with its region, the capacity last. */
static void test_verifier_names_the_region(void **state) {
    (void)state;
    aplan_problem p;
    aplan_problem_init(&p, abc, 3);
    const uint64_t pins[3] = {0, 0, 2};
    const aplan_regions rg = {sram_psram, 2, pins, NULL, {0}};
    size_t need;
    assert_int_equal(aplan_region_verify_scratch_size(&p, &rg, &need), APLAN_OK);
    void *scratch = malloc(need + 8u);
    aplan_report r;
    uint32_t region[3] = {0, 1, 0};
    uint64_t off[3] = {0, 0, 0}, arena[2] = {64, 64};
    assert_int_equal(aplan_region_verify(&p, &rg, region, off, arena, scratch, need, &r), APLAN_E_WRONG_REGION);
    assert_int_equal(r.buffer_a, 2);
    assert_int_equal(r.value, 0);
    char text[120];
    aplan_report_format(&r, text, sizeof text);
    assert_string_equal(text, "buffer 2 is in region 0, which it may not use");
    region[2] = 1; /* b and c share PSRAM bytes 0-31 at step 2 */
    arena[0] = 64;
    arena[1] = 64;
    assert_int_equal(aplan_region_verify(&p, &rg, region, off, arena, scratch, need, &r), APLAN_E_OVERLAP);
    assert_int_equal(r.buffer_a, 1);
    assert_int_equal(r.buffer_b, 2);
    assert_int_equal(r.region, 1);
    aplan_report_format(&r, text, sizeof text);
    assert_string_equal(text, "buffers 1 and 2 overlap at steps 2-2, bytes 0-31 (region 1)");
    off[2] = 64;
    arena[1] = 96;
    assert_int_equal(aplan_region_verify(&p, &rg, region, off, arena, scratch, need, &r), APLAN_OK);
    arena[0] = 70;
    assert_int_equal(aplan_region_verify(&p, &rg, region, off, arena, scratch, need, &r), APLAN_E_ARENA_MISMATCH);
    assert_int_equal(r.region, 0);
    /* a in SRAM at 64: 128 > 100, only the capacity broken */
    off[0] = 64;
    arena[0] = 128;
    assert_int_equal(aplan_region_verify(&p, &rg, region, off, arena, scratch, need, &r),
                     APLAN_E_CAPACITY_EXCEEDED);
    assert_int_equal(r.region, 0);
    assert_int_equal(r.value, 128);
    assert_int_equal(r.limit, 100);
    free(scratch);
}

/* Failures of the entry point: scratch, arguments, options. */
static void test_plan_arguments(void **state) {
    (void)state;
    aplan_problem p;
    aplan_problem_init(&p, abc, 3);
    const aplan_regions rg = {sram_psram, 2, NULL, NULL, {0}};
    const aplan_region_strategy *s = region_strategy("select");
    size_t need;
    assert_int_equal(aplan_region_plan_scratch_size(s, &p, &rg, &need), APLAN_OK);
    unsigned char *scratch = malloc(need + 16u);
    uint32_t region[3];
    uint64_t off[3], arena[2];
    aplan_region_result res;
    assert_int_equal(aplan_region_plan(s, &p, &rg, NULL, scratch, need - 1u, region, off, arena, NULL, &res),
                     APLAN_E_SCRATCH_TOO_SMALL);
    assert_int_equal(aplan_region_plan(s, &p, &rg, NULL, scratch + 1, need, region, off, arena, NULL, &res),
                     APLAN_E_SCRATCH_MISALIGNED);
    assert_int_equal(aplan_region_plan(s, &p, &rg, NULL, scratch, need, NULL, off, arena, NULL, &res),
                     APLAN_E_INVALID_ARG);
    aplan_search_options o;
    aplan_search_options_init(&o);
    o.start = off;
    assert_int_equal(aplan_region_plan(s, &p, &rg, &o, scratch, need, region, off, arena, NULL, &res),
                     APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_region_plan(NULL, &p, &rg, NULL, scratch, need, region, off, arena, NULL, &res),
                     APLAN_E_INVALID_ARG);
    aplan_region_strategy future = *s;
    future.abi_version = APLAN_REGION_STRATEGY_ABI_VERSION + 1u;
    assert_int_equal(aplan_region_plan(&future, &p, &rg, NULL, scratch, need, region, off, arena, NULL, &res),
                     APLAN_E_UNSUPPORTED_VERSION);
    assert_int_equal(aplan_region_plan(s, &p, &rg, NULL, scratch, need, region, off, arena, NULL, &res), APLAN_OK);
    free(scratch);
    const aplan_region_strategy *found = NULL;
    assert_int_equal(aplan_region_strategy_find("nope", &found), APLAN_E_UNKNOWN_STRATEGY);
    assert_null(found);
    assert_string_equal(aplan_status_str(APLAN_E_BAD_REGION), "bad region or region set");
    assert_string_equal(aplan_status_str(APLAN_E_WRONG_REGION), "buffer in a region it may not use");
}

/* A strategy that breaks the rules is caught: a buffer in a region it may not use is rejected. */
static aplan_status lazy_size(const aplan_region_strategy *self, const aplan_problem *p, const aplan_regions *rg,
                              size_t *bytes) {
    (void)self;
    (void)p;
    (void)rg;
    *bytes = 0;
    return APLAN_OK;
}
static aplan_status lazy_plan(const aplan_region_strategy *self, const aplan_problem *p, const aplan_regions *rg,
                              aplan_search_context *ctx, void *scratch, size_t scratch_size, uint32_t *region_of,
                              uint64_t *offsets, aplan_report *report) {
    (void)self;
    (void)rg;
    (void)ctx;
    (void)scratch;
    (void)scratch_size;
    (void)report;
    for (size_t i = 0; i < p->count; i++) {
        region_of[i] = 0;
        offsets[i] = 0;
    }
    return APLAN_OK;
}

static void test_broken_strategy_is_rejected(void **state) {
    (void)state;
    const aplan_region_strategy lazy = {APLAN_REGION_STRATEGY_ABI_VERSION, "lazy", "", lazy_size, lazy_plan, NULL};
    aplan_problem p;
    aplan_problem_init(&p, abc, 3);
    const aplan_regions rg = {sram_psram, 2, NULL, NULL, {0}};
    outcome o = run(&lazy, &p, &rg, NULL);
    assert_int_equal(o.status, APLAN_E_PLAN_REJECTED);
    assert_int_equal(o.result.report.rule, APLAN_E_OVERLAP);
    assert_int_equal(o.result.report.region, 0);
}

/* Every entry point refuses what it cannot work with, with its exact status. */
static void test_entry_arguments(void **state) {
    (void)state;
    aplan_problem p;
    aplan_problem_init(&p, abc, 3);
    const aplan_regions rg = {sram_psram, 2, NULL, NULL, {0}};
    const aplan_regions none = {sram_psram, 0, NULL, NULL, {0}};
    size_t need;
    assert_int_equal(aplan_region_bounds_scratch_size(NULL, &rg, &need), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_region_bounds_scratch_size(&p, NULL, &need), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_region_bounds_scratch_size(&p, &rg, NULL), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_region_verify_scratch_size(NULL, &rg, &need), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_region_verify_scratch_size(&p, NULL, &need), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_region_verify_scratch_size(&p, &rg, NULL), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_region_bounds_scratch_size(&p, &rg, &need), APLAN_OK);
    size_t verify_need;
    assert_int_equal(aplan_region_verify_scratch_size(&p, &rg, &verify_need), APLAN_OK);
    if (verify_need > need) need = verify_need;
    unsigned char *scratch = malloc(need);
    uint64_t bounds[2], traffic_bound;
    assert_int_equal(aplan_region_bounds(&p, &rg, scratch, need, NULL, &traffic_bound), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_region_bounds(&p, &rg, scratch, need, bounds, NULL), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_region_bounds(&p, &none, scratch, need, bounds, &traffic_bound), APLAN_E_BAD_REGION);
    assert_int_equal(aplan_region_bounds(&p, &rg, scratch, 8, bounds, &traffic_bound), APLAN_E_SCRATCH_TOO_SMALL);
    assert_int_equal(aplan_region_bounds(&p, &rg, scratch, need, bounds, &traffic_bound), APLAN_OK);
    assert_int_equal(bounds[0], 0);
    assert_int_equal(traffic_bound, 28); /* 28 of a's and b's bytes leave SRAM at step 1; a's, 1 use, are cheapest */
    const uint32_t region[3] = {1, 0, 0}, beyond[3] = {2, 0, 0};
    const uint64_t off[3] = {0, 0, 64}, arenas[2] = {96, 64};
    aplan_report r;
    assert_int_equal(aplan_region_verify(&p, &rg, NULL, off, arenas, scratch, need, &r), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_region_verify(&p, &rg, region, NULL, arenas, scratch, need, &r), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_region_verify(&p, &rg, region, off, NULL, scratch, need, &r), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_region_verify(&p, &none, region, off, arenas, scratch, need, &r), APLAN_E_BAD_REGION);
    assert_int_equal(aplan_region_verify(&p, &rg, region, off, arenas, scratch, 8, &r), APLAN_E_SCRATCH_TOO_SMALL);
    assert_int_equal(aplan_region_verify(&p, &rg, beyond, off, arenas, scratch, need, &r), APLAN_E_WRONG_REGION);
    assert_int_equal(r.buffer_a, 0);
    assert_int_equal(r.value, 2);
    assert_int_equal(aplan_region_verify(&p, &rg, region, off, arenas, scratch, need, NULL), APLAN_OK);
    free(scratch);

    assert_null(aplan_region_strategy_at(aplan_region_strategy_count()));
    const aplan_region_strategy *found = NULL;
    assert_int_equal(aplan_region_strategy_find(NULL, &found), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_region_strategy_find("banked", NULL), APLAN_E_INVALID_ARG);
    const aplan_region_strategy *s = region_strategy("banked");
    assert_int_equal(aplan_region_plan_scratch_size(s, &p, &rg, NULL), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_region_plan_scratch_size(s, &p, &none, &need), APLAN_E_BAD_REGION);
    aplan_region_strategy broken = *s;
    broken.plan = NULL;
    assert_int_equal(aplan_region_plan_scratch_size(&broken, &p, &rg, &need), APLAN_E_INVALID_ARG);
    broken = *s;
    broken.name = NULL;
    assert_int_equal(aplan_region_plan_scratch_size(&broken, &p, &rg, &need), APLAN_E_INVALID_ARG);
    broken = *s;
    broken.scratch_size = NULL;
    assert_int_equal(aplan_region_plan_scratch_size(&broken, &p, &rg, &need), APLAN_E_INVALID_ARG);
    broken = *s;
    broken.abi_version = 0;
    assert_int_equal(aplan_region_plan_scratch_size(&broken, &p, &rg, &need), APLAN_E_UNSUPPORTED_VERSION);

    assert_int_equal(aplan_region_plan_scratch_size(s, &p, &rg, &need), APLAN_OK);
    scratch = malloc(need);
    uint32_t out_region[3];
    uint64_t out_off[3], out_arena[2];
    aplan_region_result res;
    assert_int_equal(aplan_region_plan(s, &p, &rg, NULL, scratch, need, out_region, out_off, out_arena, NULL, NULL),
                     APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_region_plan(s, &p, &rg, NULL, scratch, need, out_region, out_off, NULL, NULL, &res),
                     APLAN_E_INVALID_ARG);
    aplan_search_options o;
    aplan_search_options_init(&o);
    o.reserved[0] = 1;
    assert_int_equal(aplan_region_plan(s, &p, &rg, &o, scratch, need, out_region, out_off, out_arena, NULL, &res),
                     APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_region_plan(s, &p, &none, NULL, scratch, need, out_region, out_off, out_arena, NULL, &res),
                     APLAN_E_BAD_REGION);
    assert_int_equal(res.outcome, APLAN_OUTCOME_NONE); /* no plan, and nothing proven about one */
    /* a buffer larger than every region it may use: refused by validation, and known to fit nowhere */
    const uint64_t sram_only[3] = {1, 0, 0};
    const aplan_region tiny[2] = {{"sram", 32, 0, {0, 0}}, {"psram", UNL, 0, {0, 0}}};
    const aplan_regions pinned = {tiny, 2, sram_only, NULL, {0}};
    assert_int_equal(aplan_region_plan(s, &p, &pinned, NULL, scratch, need, out_region, out_off, out_arena, NULL,
                                       &res),
                     APLAN_E_CAPACITY_EXCEEDED);
    assert_int_equal(res.outcome, APLAN_OUTCOME_INFEASIBLE);
    assert_int_equal(res.report.buffer_a, 0);
    free(scratch);
}

/* Strategies that fail, each way the contract allows and one it does not: the caller sees the contract's statuses. */
static aplan_status failing_plan_status;
static size_t failing_report_buffer;
static aplan_status overflow_size(const aplan_region_strategy *self, const aplan_problem *p, const aplan_regions *rg,
                                  size_t *bytes) {
    (void)self;
    (void)p;
    (void)rg;
    (void)bytes;
    return APLAN_E_SIZE_OVERFLOW;
}
static aplan_status failing_plan(const aplan_region_strategy *self, const aplan_problem *p, const aplan_regions *rg,
                                 aplan_search_context *ctx, void *scratch, size_t scratch_size, uint32_t *region_of,
                                 uint64_t *offsets, aplan_report *report) {
    (void)self;
    (void)p;
    (void)rg;
    (void)ctx;
    (void)scratch;
    (void)scratch_size;
    (void)region_of;
    (void)offsets;
    report->buffer_a = failing_report_buffer;
    report->buffer_b = failing_report_buffer;
    return failing_plan_status;
}

static void test_failing_strategies(void **state) {
    (void)state;
    aplan_problem p;
    aplan_problem_init(&p, abc, 3);
    const aplan_regions rg = {sram_psram, 2, NULL, NULL, {0}};
    aplan_region_strategy s = {APLAN_REGION_STRATEGY_ABI_VERSION, "failing", "", overflow_size, failing_plan, NULL};
    assert_int_equal(run(&s, &p, &rg, NULL).status, APLAN_E_SIZE_OVERFLOW);
    s.scratch_size = lazy_size;
    failing_plan_status = APLAN_E_STRATEGY_FAILED;
    failing_report_buffer = 1;
    outcome o = run(&s, &p, &rg, NULL);
    assert_int_equal(o.status, APLAN_E_STRATEGY_FAILED);
    assert_int_equal(o.result.report.buffer_a, 1);
    failing_plan_status = APLAN_E_BAD_ALIGNMENT; /* not a strategy's status: becomes a failure that names it */
    failing_report_buffer = 7;                   /* no such buffer: not passed on */
    o = run(&s, &p, &rg, NULL);
    assert_int_equal(o.status, APLAN_E_STRATEGY_FAILED);
    assert_int_equal(o.result.report.value, APLAN_E_BAD_ALIGNMENT);
    assert_int_equal(o.result.report.buffer_a, APLAN_NO_BUFFER);
    assert_int_equal(o.result.report.buffer_b, APLAN_NO_BUFFER);
    failing_plan_status = APLAN_E_SIZE_OVERFLOW; /* passed on as it is */
    assert_int_equal(run(&s, &p, &rg, NULL).status, APLAN_E_SIZE_OVERFLOW);
}

/* What a strategy claims is believed only as far as its plan bears it out: a plan that fits is no proof that nothing
 * fits, and a least traffic is no claim when the plan does not fit. */
static uint32_t claimed_outcome;
static uint64_t claimed_region;
static aplan_status claiming_plan(const aplan_region_strategy *self, const aplan_problem *p, const aplan_regions *rg,
                                  aplan_search_context *ctx, void *scratch, size_t scratch_size, uint32_t *region_of,
                                  uint64_t *offsets, aplan_report *report) {
    (void)self;
    (void)rg;
    (void)scratch;
    (void)scratch_size;
    (void)report;
    uint64_t end = 0; /* one after the other: valid in any one region */
    for (size_t i = 0; i < p->count; i++) {
        region_of[i] = (uint32_t)claimed_region;
        offsets[i] = end;
        end += p->buffers[i].size;
    }
    ctx->outcome = claimed_outcome;
    return APLAN_OK;
}

static void test_claims_are_checked(void **state) {
    (void)state;
    aplan_problem p;
    aplan_problem_init(&p, abc, 3);
    const aplan_regions rg = {sram_psram, 2, NULL, abc_uses, {0}};
    const aplan_region_strategy s = {APLAN_REGION_STRATEGY_ABI_VERSION, "claiming", "", lazy_size, claiming_plan,
                                     NULL};
    claimed_region = 1; /* all in PSRAM: fits, 544 bytes of traffic */
    claimed_outcome = APLAN_OUTCOME_INFEASIBLE;
    outcome o = run(&s, &p, &rg, NULL);
    assert_int_equal(o.status, APLAN_OK);
    assert_int_equal(o.result.traffic, 64 * 1 + 64 * 3 + 32 * 5);
    assert_int_equal(o.result.outcome, APLAN_OUTCOME_PLAN);
    claimed_region = 0; /* all in SRAM: 160 bytes in 100 */
    claimed_outcome = APLAN_OUTCOME_OPTIMAL;
    o = run(&s, &p, &rg, NULL);
    assert_int_equal(o.status, APLAN_E_CAPACITY_EXCEEDED);
    assert_int_equal(o.result.regions_over, 1);
    assert_int_equal(o.result.outcome, APLAN_OUTCOME_INFEASIBLE);
}

/* Two fixed buffers clashing in their region: the problem's own fault, named as such, not the strategy's. */
static void test_fixed_buffers_clash(void **state) {
    (void)state;
    const aplan_buffer b[2] = {{32, 0, 2, 0, 0}, {32, 1, 3, 0, 16}};
    const uint64_t sram_only[2] = {1, 1};
    aplan_problem p;
    aplan_problem_init(&p, b, 2);
    const aplan_regions rg = {sram_psram, 2, sram_only, NULL, {0}};
    for (size_t k = 0; k < aplan_region_strategy_count(); k++) {
        outcome o = run(aplan_region_strategy_at(k), &p, &rg, NULL);
        assert_int_equal(o.status, APLAN_E_FIXED_OVERLAP);
        assert_int_equal(o.result.report.region, 0);
    }
    /* Aliasing allowed: the clash is the caller's intent; a third buffer, free, goes above both, still in SRAM. */
    const aplan_buffer c[3] = {{32, 0, 2, 0, 0}, {32, 1, 3, 0, 16}, {32, 1, 2, 0, NO}};
    const uint64_t pins[3] = {1, 1, 0};
    aplan_problem_init(&p, c, 3);
    p.flags = APLAN_ALLOW_FIXED_ALIAS;
    const aplan_regions aliasing = {sram_psram, 2, pins, NULL, {0}};
    for (size_t k = 0; k < aplan_region_strategy_count(); k++) {
        outcome o = run(aplan_region_strategy_at(k), &p, &aliasing, NULL);
        assert_int_equal(o.status, APLAN_OK);
        assert_int_equal(o.region[2], 0);
        assert_int_equal(o.offset[2], 48); /* live with both at step 1: above their 0 .. 48 */
        assert_int_equal(o.arena[0], 80);
        assert_int_equal(o.result.traffic, 0);
    }
}

/* exact under a budget: its best plan so far, flagged BEST_FOUND, whether the node limit or the callback stops it;
 * without one, the least traffic, proven. Ten buffers (found by a seeded search) where select's start is not least. */
/* Calls with nodes > 0 (the search's) and with 0 (select's steps and heuristics, which keep the deadline too). */
static uint64_t stop_calls, start_calls;
static bool stop_at_three(void *context, uint64_t nodes) {
    (void)context;
    if (nodes > 0) stop_calls++;
    else start_calls++;
    return nodes >= 3;
}

static bool stop_always(void *context, uint64_t nodes) {
    (void)context;
    (void)nodes;
    return true;
}

static bool stop_searches(void *context, uint64_t nodes) {
    (void)context;
    return nodes > 0;
}

/* select and exact keep the caller's stop from their start (issue 32): told to stop at once, select gives banked's
 * placement with every buffer stacked on the aligned tops (the cheapest plan there is), outcome BEST_FOUND, and exact
 * gives that plan with no search; a stop that lets the steps finish (it says stop only to a search, nodes > 0) leaves
 * select's plan as it is with no options at all. */
static void test_select_and_exact_keep_the_stop(void **state) {
    (void)state;
    const aplan_buffer b[4] = {{96, 0, 4, 0, NO}, {48, 1, 3, 0, NO}, {64, 2, 5, 0, NO}, {32, 0, 2, 0, NO}};
    const uint64_t uses[4] = {1, 5, 3, 2};
    const aplan_region g[2] = {{"sram", 128, 32, {0, 0}}, {"psram", UNL, 64, {0, 0}}};
    aplan_problem p;
    aplan_problem_init(&p, b, 4);
    const aplan_regions rg = {g, 2, NULL, uses, {0}};
    aplan_search_options opt;
    aplan_search_options_init(&opt);
    opt.stop = stop_always;
    opt.check_every = 1;
    const char *const names[2] = {"select", "exact"};
    for (size_t k = 0; k < 2; k++) {
        const outcome o = run(region_strategy(names[k]), &p, &rg, &opt);
        assert_int_equal(o.status, APLAN_OK);
        assert_int_equal(o.result.outcome, APLAN_OUTCOME_BEST_FOUND);
        assert_int_equal(o.result.nodes, 0);
        /* by size: 96 at sram 0 (placed before the first ask), then each on a top: 64 at sram 96 would end past 128,
         * so psram 0; 48 at sram 96 would too, so psram 64 (aligned); 32 at sram 96 ends at 128 */
        const uint32_t region[4] = {0, 1, 1, 0};
        const uint64_t offset[4] = {0, 64, 0, 96};
        assert_memory_equal(o.region, region, sizeof region);
        assert_memory_equal(o.offset, offset, sizeof offset);
        assert_int_equal(o.result.traffic, 48 * 5 + 64 * 3);
    }
    const outcome plain = run(region_strategy("select"), &p, &rg, NULL);
    opt.stop = stop_searches;
    const outcome heur = run(region_strategy("select"), &p, &rg, &opt);
    assert_int_equal(plain.result.outcome, APLAN_OUTCOME_PLAN);
    assert_int_equal(heur.result.outcome, APLAN_OUTCOME_PLAN);
    assert_memory_equal(heur.region, plain.region, sizeof plain.region);
    assert_memory_equal(heur.offset, plain.offset, sizeof plain.offset);
}

static void test_exact_under_a_budget(void **state) {
    (void)state;
    const aplan_buffer b[10] = {{96, 4, 7, 0, NO}, {96, 6, 9, 0, NO}, {96, 1, 4, 0, NO}, {48, 0, 2, 0, NO},
                                {96, 4, 8, 0, NO}, {80, 5, 7, 0, NO}, {80, 6, 9, 0, NO}, {16, 1, 2, 0, NO},
                                {16, 0, 1, 0, NO}, {96, 4, 5, 0, NO}};
    const uint64_t uses[10] = {4, 5, 3, 3, 4, 5, 2, 2, 2, 4};
    const aplan_region g[2] = {{"sram", 96, 0, {0, 0}}, {"psram", UNL, 0, {0, 0}}};
    aplan_problem p;
    aplan_problem_init(&p, b, 10);
    const aplan_regions rg = {g, 2, NULL, uses, {0}};
    const aplan_region_strategy *s = region_strategy("exact");
    outcome o = run(s, &p, &rg, NULL);
    assert_int_equal(o.status, APLAN_OK);
    assert_int_equal(o.result.outcome, APLAN_OUTCOME_OPTIMAL);
    assert_int_equal(o.result.traffic, 1504);
    assert_int_equal(o.result.traffic_bound, 1328);
    aplan_search_options opt;
    aplan_search_options_init(&opt);
    opt.max_nodes = 3;
    o = run(s, &p, &rg, &opt);
    assert_int_equal(o.status, APLAN_OK);
    assert_int_equal(o.result.outcome, APLAN_OUTCOME_BEST_FOUND);
    assert_int_equal(o.result.nodes, 3);
    assert_int_equal(o.result.traffic, 1616);
    for (uint32_t every = 0; every < 2u; every++) { /* 0 means 1 */
        aplan_search_options_init(&opt);
        opt.stop = stop_at_three;
        opt.check_every = every;
        stop_calls = start_calls = 0;
        o = run(s, &p, &rg, &opt);
        assert_int_equal(o.status, APLAN_OK);
        assert_int_equal(o.result.outcome, APLAN_OUTCOME_BEST_FOUND);
        assert_int_equal(o.result.traffic, 1616);
        assert_int_equal(stop_calls, 3);
        /* check_every 1: every placement of select's heuristics, and each step; compact builds' heuristics have no
         * search member (a device plans without a clock), so only select's steps ask there */
        assert_int_equal(start_calls, compact_build() ? 19 : 90);
    }
    aplan_search_options_init(&opt);
    opt.goal = APLAN_GOAL_FIT; /* select's start fits: nothing to search, and APLAN_OK says it fits */
    o = run(s, &p, &rg, &opt);
    assert_int_equal(o.status, APLAN_OK);
    assert_int_equal(o.result.outcome, APLAN_OUTCOME_PLAN);
    assert_int_equal(o.result.nodes, 0);
    assert_int_equal(o.result.traffic, 1616);
}

/* Past 1,024 buffers exact searches nothing: it returns select's plan and claims nothing about it. A region 0 without
 * a capacity takes every buffer, with no traffic, which both prove. */
static void test_exact_beyond_its_size(void **state) {
    (void)state;
    enum { N = 1100 };
    aplan_buffer *b = calloc(N, sizeof *b);
    uint32_t *region = calloc(N, sizeof *region), *select_region = calloc(N, sizeof *region);
    uint64_t *off = calloc(N, sizeof *off), *select_off = calloc(N, sizeof *off);
    assert_non_null(b);
    assert_non_null(region);
    assert_non_null(select_region);
    assert_non_null(off);
    assert_non_null(select_off);
    for (size_t i = 0; i < N; i++) b[i] = (aplan_buffer){16u * (1u + i % 5u), i / 2u, i / 2u + 3u, 0, NO};
    aplan_problem p;
    aplan_problem_init(&p, b, N);
    const aplan_region g[2] = {{"sram", 64, 0, {0, 0}}, {"psram", UNL, 0, {0, 0}}};
    const aplan_region open[2] = {{"sram", UNL, 0, {0, 0}}, {"psram", UNL, 0, {0, 0}}};
    const aplan_regions capped = {g, 2, NULL, NULL, {0}}, uncapped = {open, 2, NULL, NULL, {0}};
    const aplan_region_strategy *exact = region_strategy("exact"), *select = region_strategy("select");
    for (int k = 0; k < 2; k++) {
        const aplan_regions *rg = k == 0 ? &capped : &uncapped;
        size_t need, select_need;
        assert_int_equal(aplan_region_plan_scratch_size(exact, &p, rg, &need), APLAN_OK);
        assert_int_equal(aplan_region_plan_scratch_size(select, &p, rg, &select_need), APLAN_OK);
        if (select_need > need) need = select_need;
        void *scratch = malloc(need);
        uint64_t arena[2], select_arena[2];
        aplan_region_result res, select_res;
        assert_int_equal(aplan_region_plan(exact, &p, rg, NULL, scratch, need, region, off, arena, NULL, &res),
                         APLAN_OK);
        assert_int_equal(aplan_region_plan(select, &p, rg, NULL, scratch, need, select_region, select_off,
                                           select_arena, NULL, &select_res),
                         APLAN_OK);
        free(scratch);
        assert_memory_equal(region, select_region, N * sizeof *region);
        assert_memory_equal(off, select_off, N * sizeof *off);
        assert_int_equal(res.traffic, select_res.traffic);
        assert_int_equal(res.nodes, 0);
        if (k == 0) {
            assert_true(res.traffic > res.traffic_bound);
            assert_int_equal(res.outcome, APLAN_OUTCOME_PLAN);
        } else {
            assert_int_equal(res.traffic, 0);
            assert_int_equal(arena[1], 0);
            assert_int_equal(res.outcome, APLAN_OUTCOME_OPTIMAL);
            assert_int_equal(select_res.outcome, APLAN_OUTCOME_OPTIMAL);
        }
    }
    free(b);
    free(region);
    free(select_region);
    free(off);
    free(select_off);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_banked_takes_largest_first_and_spills),
        cmocka_unit_test(test_select_leaves_out_the_cheapest_per_busy_step),
        cmocka_unit_test(test_exact_proves_the_least_traffic),
        cmocka_unit_test(test_uses_default_to_one),
        cmocka_unit_test(test_pins_are_kept),
        cmocka_unit_test(test_infeasible_pins),
        cmocka_unit_test(test_nothing_fits),
        cmocka_unit_test(test_region_alignment),
        cmocka_unit_test(test_one_region_is_the_single_region_plan),
        cmocka_unit_test(test_random_regions),
        cmocka_unit_test(test_banked_span_path_matches),
        cmocka_unit_test(test_exact_against_brute_force),
        cmocka_unit_test(test_validation),
        cmocka_unit_test(test_verifier_names_the_region),
        cmocka_unit_test(test_plan_arguments),
        cmocka_unit_test(test_broken_strategy_is_rejected),
        cmocka_unit_test(test_entry_arguments),
        cmocka_unit_test(test_failing_strategies),
        cmocka_unit_test(test_fixed_buffers_clash),
        cmocka_unit_test(test_exact_under_a_budget),
        cmocka_unit_test(test_select_and_exact_keep_the_stop),
        cmocka_unit_test(test_claims_are_checked),
        cmocka_unit_test(test_exact_beyond_its_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
