/* Property test: every strategy on many seeded random problems. Every plan passes aplan_verify (inside aplan_plan)
 * and the independent brute-force check, the arena is at least the lower bound (which equals the brute-force
 * bound), linear equals the back-to-back fold, planning twice gives the same offsets, and the verifier's two paths
 * agree on corrupted plans; near 2^64 each heuristic plans or fails exactly as its reference does. The seed is
 * printed; pass it as the first argument to replay a failure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "aplan/regions.h"
#include "aplan/strategies.h"
#include "helpers.h"

static uint64_t seed;

/* What linear must give without fixed buffers: each non-empty buffer aligned above the previous end. */
static uint64_t linear_fold(const aplan_problem *p) {
    uint64_t end = 0;
    for (size_t i = 0; i < p->count; i++) {
        const uint64_t size = aplan_buffer_size(p, i), a = aplan_buffer_alignment(p, i);
        if (size == 0) continue;
        end = (end + a - 1) / a * a + size;
    }
    return end;
}

static void check_verifier_paths_agree(const aplan_problem *p, const uint64_t *off, uint64_t arena,
                                       test_rng *rng) {
    uint64_t bad[256];
    memcpy(bad, off, p->count * sizeof *off);
    const size_t victim = (size_t)rng_below(rng, p->count);
    switch (rng_below(rng, 3)) {
    case 0: bad[victim] = rng_below(rng, arena + 1); break;          /* moved anywhere */
    case 1: bad[victim] += 1; break;                                  /* usually misaligned or overlapping */
    default: bad[victim] = off[(victim + 1) % p->count]; break;       /* on top of another */
    }
    uint64_t bad_arena = 0;
    for (size_t i = 0; i < p->count; i++) {
        uint64_t end = bad[i] + aplan_buffer_size(p, i);
        if (end > bad_arena) bad_arena = end;
    }
    size_t need;
    assert_int_equal(aplan_verify_scratch_size(p, &need), APLAN_OK);
    void *scratch = aligned_alloc(APLAN_SCRATCH_ALIGN, need + 8u);
    aplan_report fast, slow;
    aplan_status a = aplan_verify(p, bad, bad_arena, scratch, need, &fast);
    aplan_status b = aplan_verify(p, bad, bad_arena, NULL, 0, &slow);
    free(scratch);
    /* Both paths agree on valid or not, and with the independent checker; on an overlap they may name different
     * pairs, but each named pair must really overlap. With aliasing allowed every overlap is APLAN_E_OVERLAP, so the
     * statuses agree exactly; on a valid plan both count the aliased pairs as the checker does (the sweep without
     * listing them, the pairwise path one by one). */
    assert_int_equal(a == APLAN_OK, b == APLAN_OK);
    assert_int_equal(a == APLAN_OK, brute_force_valid(p, bad, bad_arena));
    if (a != APLAN_OK && a != APLAN_E_OVERLAP && a != APLAN_E_FIXED_OVERLAP) assert_int_equal(a, b);
    if (p->flags & APLAN_ALLOW_FIXED_ALIAS) assert_int_equal(a, b);
    if (a == APLAN_OK) {
        assert_int_equal(fast.aliased_pairs, brute_force_aliased(p, bad, bad_arena));
        assert_int_equal(slow.aliased_pairs, fast.aliased_pairs);
    }
    if (a == APLAN_E_OVERLAP || a == APLAN_E_FIXED_OVERLAP) {
        const size_t i = fast.buffer_a, j = fast.buffer_b;
        assert_true(i < j && j < p->count);
        assert_true(aplan_buffers_conflict(p, i, j));
        assert_true(bad[i] < bad[j] + aplan_buffer_size(p, j) && bad[j] < bad[i] + aplan_buffer_size(p, i));
    }
}

/* random_problem keeps fixed buffers apart; with aliasing allowed, about half of them are moved onto an earlier
 * fixed buffer (offset and alignment, so the offset stays aligned), so that plans hold aliased pairs to count. */
static void alias_some_fixed(test_rng *rng, aplan_buffer *b, size_t n) {
    for (size_t j = 1; j < n; j++) {
        if (b[j].offset == APLAN_NO_OFFSET || rng_below(rng, 2) == 0) continue;
        const size_t i = (size_t)rng_below(rng, j);
        if (b[i].offset == APLAN_NO_OFFSET) continue;
        b[j].offset = b[i].offset;
        b[j].alignment = b[i].alignment;
    }
}

/* Plans, over every round so far, whose report counted aliased pairs. */
static size_t plans_with_aliases;

static void run_rounds(size_t rounds, size_t max_count, unsigned fixed_every, uint32_t flags) {
    test_rng rng = {seed ^ (max_count * 0x9E3779B97F4A7C15ull) ^ fixed_every ^ ((uint64_t)flags << 32)};
    aplan_buffer b[256];
    uint64_t off[256], again[256];
    for (size_t round = 0; round < rounds; round++) {
        const size_t n = 1 + (size_t)rng_below(&rng, max_count);
        random_problem(&rng, b, n, 1 + rng_below(&rng, 40), 1 + rng_below(&rng, 5000), 1u << rng_below(&rng, 8),
                       fixed_every);
        if (flags & APLAN_ALLOW_FIXED_ALIAS) alias_some_fixed(&rng, b, n);
        aplan_problem p;
        aplan_problem_init(&p, b, n);
        p.alignment = 1ull << rng_below(&rng, 7);
        p.flags = flags;
        for (size_t k = 0; k < aplan_strategy_count(); k++) {
            const aplan_strategy *s = aplan_strategy_at(k);
            aplan_result r;
            aplan_status st = plan_with(s, &p, off, &r);
            if (strcmp(s->name, "offline") == 0) {
                bool all_fixed = true;
                for (size_t i = 0; i < n; i++) all_fixed &= b[i].offset != APLAN_NO_OFFSET;
                assert_int_equal(st, all_fixed ? APLAN_OK : APLAN_E_OFFSET_MISSING);
                continue;
            }
            if (st != APLAN_OK) {
                fail_msg("seed %llu round %zu: %s failed: %s", (unsigned long long)seed, round, s->name,
                         aplan_status_str(st));
            }
            assert_true(r.arena_size >= r.lower_bound);
            assert_int_equal(r.lower_bound, brute_force_bound(&p));
            assert_int_equal(r.report.aliased_pairs, brute_force_aliased(&p, off, r.arena_size));
            plans_with_aliases += r.report.aliased_pairs > 0;
            if (strcmp(s->name, "linear") == 0 && fixed_every == 0) assert_int_equal(r.arena_size, linear_fold(&p));
            aplan_result r2;
            assert_int_equal(plan_with(s, &p, again, &r2), APLAN_OK);
            assert_memory_equal(off, again, n * sizeof off[0]);
            if (k == 1) check_verifier_paths_agree(&p, off, r.arena_size, &rng);
        }
    }
}

static void test_property_small_problems(void **state) {
    (void)state;
    run_rounds(3000, 8, 0, 0);
}

static void test_property_medium_problems_rounded(void **state) {
    (void)state;
    run_rounds(600, 120, 0, APLAN_ROUND_SIZES);
}

static void test_property_with_fixed_buffers(void **state) {
    (void)state;
    run_rounds(600, 60, 5, 0);
}

static void test_property_with_aliasing_allowed(void **state) {
    (void)state;
    const size_t before = plans_with_aliases;
    run_rounds(300, 200, 3, APLAN_ALLOW_FIXED_ALIAS | APLAN_ROUND_SIZES);
    /* Most rounds alias (about 70%), and every plan's count is checked: more than half the rounds' worth of plans
     * with aliases even when the build has one strategy that plans them (-Dstrategies=greedy_by_size,offline). */
    assert_true(plans_with_aliases - before > 150);
}

/* aplan_plan_search as plan_with calls it, without the brute-force check (which reads aplan_buffer records); *need
 * gets the scratch asked for. */
static aplan_status plan_raw(const aplan_strategy *s, const aplan_problem *p, uint64_t *offsets, aplan_result *r,
                             size_t *need) {
    aplan_status st = aplan_plan_scratch_size(s, p, need);
    if (st != APLAN_OK) return st;
    void *scratch = *need ? aligned_alloc(APLAN_SCRATCH_ALIGN, (*need + 7u) / 8u * 8u) : NULL;
    aplan_search_options budget;
    aplan_search_options_init(&budget);
    if (aplan_strategy_searches(s)) budget.max_nodes = PLAN_WITH_NODES;
    st = aplan_plan_search(s, p, &budget, scratch, *need, offsets, r);
    free(scratch);
    return st;
}

static void assert_same_result(const aplan_result *a, const aplan_result *b) {
    assert_int_equal(a->arena_size, b->arena_size);
    assert_int_equal(a->lower_bound, b->lower_bound);
    assert_int_equal(a->bound_step, b->bound_step);
    assert_int_equal(a->outcome, b->outcome);
    assert_int_equal(a->report.aliased_pairs, b->report.aliased_pairs);
}

/*
 * Compact records (aplan_buffer32) and APLAN_LOW_MEMORY change how much memory a plan takes, never the plan: every
 * strategy gives the same status, offsets, arena, bound and aliased pairs for a problem as aplan_buffer records, as
 * compact records, and with the flag on each; with the flag it asks no more scratch, and greedy_by_size and
 * greedy_by_size_tflm ask exactly 8 bytes a buffer (the list walk), which is what a planner inside TFLM's arena counts.
 */
static void test_property_compact_records_and_low_memory(void **state) {
    (void)state;
    test_rng rng = {seed ^ 0x3243F6A8885A308Dull};
    aplan_buffer b[200];
    aplan_buffer32 c[200];
    uint64_t off[4][200];
    for (size_t round = 0; round < 400; round++) {
        const size_t n = 1 + (size_t)rng_below(&rng, round < 300 ? 12 : 200);
        const uint64_t align = 1ull << rng_below(&rng, 7);
        random_problem(&rng, b, n, 1 + rng_below(&rng, 40), 1 + rng_below(&rng, 5000), 1, rng_below(&rng, 2) ? 4 : 0);
        for (size_t i = 0; i < n; i++) { /* the problem's alignment (compact records have no other); fixed offsets
                                          * moved from above 2^40 to above 2^20 and scaled by it, which keeps them
                                          * aligned, apart and within 32 bits */
            b[i].alignment = 0;
            if (b[i].offset != APLAN_NO_OFFSET) b[i].offset = (b[i].offset - (1ull << 40) + (1ull << 20)) * align;
            c[i].size = (uint32_t)b[i].size;
            c[i].lower = (uint32_t)b[i].lower;
            c[i].upper = (uint32_t)b[i].upper;
            c[i].offset = b[i].offset == APLAN_NO_OFFSET ? APLAN_NO_OFFSET32 : (uint32_t)b[i].offset;
        }
        const uint32_t flags = (uint32_t)rng_below(&rng, 4); /* APLAN_ROUND_SIZES, APLAN_ALLOW_FIXED_ALIAS */
        aplan_problem p[4];
        aplan_problem_init(&p[0], b, n);
        aplan_problem_init32(&p[1], c, n);
        assert_true(p[1].buffers32 == c && p[1].flags == APLAN_BUFFERS32);
        for (int v = 0; v < 4; v++) {
            if (v >= 2) p[v] = p[v - 2];
            p[v].alignment = align;
            p[v].flags |= flags | (v >= 2 ? APLAN_LOW_MEMORY : 0u);
            assert_int_equal(aplan_problem_validate(&p[v], NULL), APLAN_OK);
        }
        for (size_t k = 0; k < aplan_strategy_count(); k++) {
            const aplan_strategy *s = aplan_strategy_at(k);
            aplan_result r[4];
            size_t need[4];
            const aplan_status st = plan_with(s, &p[0], off[0], &r[0]); /* brute-force checked */
            (void)aplan_plan_scratch_size(s, &p[0], &need[0]);
            for (int v = 1; v < 4; v++) {
                if (plan_raw(s, &p[v], off[v], &r[v], &need[v]) != st) {
                    fail_msg("seed %llu round %zu: %s gives another status with %s records%s",
                             (unsigned long long)seed, round, s->name, v & 1 ? "compact" : "full",
                             v >= 2 ? " and APLAN_LOW_MEMORY" : "");
                }
                if (st == APLAN_OK) {
                    if (memcmp(off[0], off[v], n * sizeof off[0][0]) != 0) {
                        fail_msg("seed %llu round %zu: %s plans otherwise with %s records%s",
                                 (unsigned long long)seed, round, s->name, v & 1 ? "compact" : "full",
                                 v >= 2 ? " and APLAN_LOW_MEMORY" : "");
                    }
                    assert_same_result(&r[0], &r[v]);
                }
                assert_int_equal(need[v], need[v & 2]); /* the records' form asks nothing more */
                if (v >= 2) assert_true(need[v] <= need[0]);
            }
            if (strcmp(s->name, "greedy_by_size") == 0 || strcmp(s->name, "greedy_by_size_tflm") == 0) {
                assert_int_equal(need[2], 8u * n);
            }
        }
    }
}

/*
 * The offsets every strategy gives on a fixed set of problems, folded into one FNV-1a digest per strategy and
 * pinned here. Every configuration (default, compact, release, sanitizers) and every faster implementation of a
 * strategy must give the same plans, so the digests never change unless a strategy's documented result does.
 * Fixed seed, so the test does not depend on the run's seed.
 */
static uint64_t fnv(uint64_t h, uint64_t v) {
    for (int i = 0; i < 8; i++) h = (h ^ ((v >> (8 * i)) & 0xFFu)) * 0x100000001B3ull;
    return h;
}

static void test_property_offsets_are_pinned(void **state) {
    (void)state;
    static const struct {
        const char *name;
        uint64_t digest;
    } pinned[] = {
        {"linear", 0x143b5145ddcb95f3ull},
        {"greedy_by_size", 0xd9f91898aab13871ull},
        {"greedy_by_size_tflm", 0xf9e8132c86bc75abull},
        {"first_fit", 0x35a255d4932817e3ull},
        {"best_fit", 0x22434fef56c7d5c5ull},
        {"greedy_by_breadth", 0xa81440ad6bf27cd0ull},
        {"greedy_by_conflicts", 0xe82fce83e8a9838full},
        {"offline", 0xdaa4268221a1dedeull},
    };
    bool all_equal = true;
    for (size_t k = 0; k < sizeof pinned / sizeof pinned[0]; k++) {
        const aplan_strategy *s = NULL;
        if (aplan_strategy_find(pinned[k].name, &s) != APLAN_OK) continue; /* left out of this build */
        test_rng rng = {0x5EEDF00Du};
        uint64_t h = 0xCBF29CE484222325ull;
        aplan_buffer b[256];
        uint64_t off[256];
        for (size_t round = 0; round < 400; round++) {
            /* One draw per statement: the order in which a call's arguments are evaluated is unspecified (gcc and
             * clang differ), and the problems must be the same with every compiler. */
            const size_t n = 1 + (size_t)rng_below(&rng, round % 4 == 0 ? 200 : 40);
            const uint64_t max_step = 1 + rng_below(&rng, 60);
            const uint64_t max_size = 1 + rng_below(&rng, 5000);
            const uint64_t max_align = 1u << rng_below(&rng, 6);
            random_problem(&rng, b, n, max_step, max_size, max_align, round % 3 == 0 ? 4u : round % 3 == 1 ? 0u : 50u);
            aplan_problem p;
            aplan_problem_init(&p, b, n);
            p.alignment = 1ull << rng_below(&rng, 5);
            p.flags = (round % 2 ? APLAN_ROUND_SIZES : 0u) | (round % 5 == 0 ? APLAN_ALLOW_FIXED_ALIAS : 0u);
            aplan_result r;
            const aplan_status st = plan_with(s, &p, off, &r);
            h = fnv(h, (uint64_t)st);
            if (st != APLAN_OK) continue;
            for (size_t i = 0; i < n; i++) h = fnv(h, off[i]);
        }
        print_message("%s: digest 0x%016llx%s\n", pinned[k].name, (unsigned long long)h,
                      h == pinned[k].digest ? "" : " (differs from the pinned one)");
        all_equal &= h == pinned[k].digest;
    }
    /* Every built-in that does not search has a pin: a new strategy pins its digest here (a search's plans depend
     * on its budget, which the property tests set). */
    for (size_t i = 0; i < aplan_strategy_count(); i++) {
        const aplan_strategy *s = aplan_strategy_at(i);
        bool found = aplan_strategy_searches(s);
        for (size_t k = 0; k < sizeof pinned / sizeof pinned[0]; k++)
            found = found || strcmp(pinned[k].name, s->name) == 0;
        if (!found) print_message("%s: no pinned digest: add one to test_property_offsets_are_pinned\n", s->name);
        all_equal &= found;
    }
    assert_true(all_equal);
}

/*
 * The reference implementations: greedy_by_size, greedy_by_size_tflm and first_fit as first written (gather every
 * conflicting placed buffer, sort by offset, walk to the first aligned gap), in plain O(n^2) code with none of the
 * library's structures. The library's versions must give exactly these offsets on every shape: few buffers, many,
 * thousands live at once, all live at once, alignments, rounding, fixed buffers.
 */
typedef struct {
    const aplan_problem *p;
    const uint64_t *off;
    int mode; /* 0: size desc, index asc; 1: size desc, index desc; 2: lower asc, size desc, index asc; 3: offset */
} ref_ctx;
static ref_ctx ref; /* qsort has no context argument */

static int ref_cmp(const void *va, const void *vb) {
    const uint32_t a = *(const uint32_t *)va, b = *(const uint32_t *)vb;
    const uint64_t sa = aplan_buffer_size(ref.p, a), sb = aplan_buffer_size(ref.p, b);
    const uint64_t la = ref.p->buffers[a].lower, lb = ref.p->buffers[b].lower;
    if (ref.mode == 2 && la != lb) return la < lb ? -1 : 1;
    if (ref.mode == 3) {
        if (ref.off[a] != ref.off[b]) return ref.off[a] < ref.off[b] ? -1 : 1;
    } else if (sa != sb) {
        return sa > sb ? -1 : 1;
    }
    return ref.mode == 1 ? (a > b ? -1 : 1) : (a < b ? -1 : 1);
}

static bool ref_occupies(const aplan_problem *p, size_t i) {
    return p->buffers[i].lower < p->buffers[i].upper && aplan_buffer_size(p, i) != 0;
}

/* Lowest aligned offset at which x misses every buffer in nb (sorted here); false on 64-bit overflow. */
static bool ref_gap(const aplan_problem *p, const uint64_t *off, uint32_t *nb, size_t k, uint32_t x, uint64_t *out) {
    ref.p = p;
    ref.off = off;
    ref.mode = 3;
    qsort(nb, k, sizeof *nb, ref_cmp);
    const uint64_t size = aplan_buffer_size(p, x), align = aplan_buffer_alignment(p, x);
    uint64_t c = 0;
    for (size_t j = 0; j < k; j++) {
        const uint64_t end = off[nb[j]] + aplan_buffer_size(p, nb[j]);
        if (size > UINT64_MAX - c) return false;
        if (off[nb[j]] >= c + size) break;
        if (end > c) {
            if (end > UINT64_MAX - (align - 1u)) return false;
            c = (end + align - 1u) & ~(align - 1u);
        }
    }
    if (size > UINT64_MAX - c) return false;
    *out = c;
    return true;
}

/* mode 0/1: greedy_by_size / _tflm; 2: first_fit. Returns APLAN_OK or APLAN_E_SIZE_OVERFLOW. */
static aplan_status ref_plan(const aplan_problem *p, int mode, uint64_t *off) {
    const size_t n = p->count;
    uint32_t *order = malloc((n + 1) * sizeof *order), *nb = malloc((n + 1) * sizeof *nb);
    size_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        off[i] = APLAN_NO_OFFSET;
        if (p->buffers[i].offset != APLAN_NO_OFFSET) off[i] = p->buffers[i].offset;
        else if (!ref_occupies(p, i)) off[i] = 0;
        else order[m++] = i;
    }
    ref.p = p;
    ref.mode = mode;
    qsort(order, m, sizeof *order, ref_cmp);
    aplan_status st = APLAN_OK;
    for (size_t k = 0; k < m && st == APLAN_OK; k++) {
        const uint32_t x = order[k];
        const aplan_buffer *bx = &p->buffers[x];
        size_t c = 0;
        for (uint32_t j = 0; j < n; j++) {
            if (j == x || off[j] == APLAN_NO_OFFSET || !ref_occupies(p, j)) continue;
            const aplan_buffer *bj = &p->buffers[j];
            const bool fixed = bj->offset != APLAN_NO_OFFSET;
            /* first_fit: placed buffers that are still live at x's start, and fixed ones whose lifetime meets x's */
            const bool conflict = mode == 2 && !fixed ? bj->upper > bx->lower
                                                      : bj->lower < bx->upper && bx->lower < bj->upper;
            if (conflict) nb[c++] = j;
        }
        if (!ref_gap(p, off, nb, c, x, &off[x])) st = APLAN_E_SIZE_OVERFLOW;
    }
    free(order);
    free(nb);
    return st;
}

/*
 * The references of best_fit, greedy_by_breadth and greedy_by_conflicts, each written from its rule (docs/design.md)
 * with nothing of the library's: an order from qsort over plain keys (breadth: every step's live bytes, step by
 * step), then each buffer placed against every conflicting placed one.
 */
static const uint64_t *ref_k1, *ref_k2; /* qsort keys per item, the smaller first; then the item, the smaller first */
static int ref_cmp_keys(const void *va, const void *vb) {
    const uint32_t a = *(const uint32_t *)va, b = *(const uint32_t *)vb;
    if (ref_k1[a] != ref_k1[b]) return ref_k1[a] < ref_k1[b] ? -1 : 1;
    if (ref_k2[a] != ref_k2[b]) return ref_k2[a] < ref_k2[b] ? -1 : 1;
    return a < b ? -1 : a > b;
}

static uint64_t ref_sat_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

/* best_fit's gap: every free range among the neighbours (from 0 up, between them in offset order, each start aligned
 * up) that holds x; the one with the least room, the lowest of equal ones; none: aligned above them all. No early
 * stop: an exact fit is the least room there can be, and the lowest of those is the first met anyway. */
static bool ref_best_gap(const aplan_problem *p, const uint64_t *off, uint32_t *nb, size_t k, uint32_t x,
                         uint64_t *out) {
    ref.p = p;
    ref.off = off;
    ref.mode = 3;
    qsort(nb, k, sizeof *nb, ref_cmp);
    const uint64_t size = aplan_buffer_size(p, x), align = aplan_buffer_alignment(p, x);
    uint64_t reach = 0, best = 0, best_room = UINT64_MAX;
    for (size_t j = 0; j < k; j++) {
        const uint64_t lo = off[nb[j]], hi = lo + aplan_buffer_size(p, nb[j]);
        if (lo > reach && reach <= UINT64_MAX - (align - 1u)) { /* the gap [reach, lo) */
            const uint64_t start = (reach + align - 1u) & ~(align - 1u);
            if (start <= lo && lo - start >= size && lo - start < best_room) {
                best = start;
                best_room = lo - start;
            }
        }
        if (hi > reach) reach = hi;
    }
    if (best_room != UINT64_MAX) {
        *out = best;
        return true;
    }
    if (reach > UINT64_MAX - (align - 1u)) return false;
    const uint64_t start = (reach + align - 1u) & ~(align - 1u);
    if (size > UINT64_MAX - start) return false;
    *out = start;
    return true;
}

/* rule 0: best_fit; 1: greedy_by_breadth; 2: greedy_by_conflicts. */
static aplan_status ref_plan_heuristic(const aplan_problem *p, int rule, uint64_t *off) {
    const size_t n = p->count;
    uint32_t *order = malloc((n + 1) * sizeof *order), *nb = malloc((n + 1) * sizeof *nb);
    uint64_t *k1 = calloc(n + 1, sizeof *k1), *k2 = calloc(n + 1, sizeof *k2);
    size_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        off[i] = APLAN_NO_OFFSET;
        if (p->buffers[i].offset != APLAN_NO_OFFSET) off[i] = p->buffers[i].offset;
        else if (!ref_occupies(p, i)) off[i] = 0;
        else order[m++] = i;
    }
    for (uint32_t i = 0; i < n; i++) {
        k1[i] = ~aplan_buffer_size(p, i); /* largest first */
        if (rule == 0) k2[i] = p->buffers[i].lower;
        if (rule == 2) { /* most conflicts first, then largest */
            uint64_t c = 0;
            for (uint32_t j = 0; j < n; j++) c += j != i && aplan_buffers_conflict(p, i, j);
            k2[i] = k1[i];
            k1[i] = ~c;
        }
    }
    ref_k1 = k1;
    ref_k2 = k2;
    if (rule != 1) {
        qsort(order, m, sizeof *order, ref_cmp_keys);
    } else { /* the steps by breadth, broadest first, then earlier; at each, its buffers not yet ordered */
        uint64_t steps = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (ref_occupies(p, i) && p->buffers[i].upper > steps) steps = p->buffers[i].upper;
        }
        const size_t nsteps = (size_t)steps; /* the reference's problems are small: steps fits any size_t */
        uint64_t *breadth = calloc(nsteps + 1, sizeof *breadth), *earlier = calloc(nsteps + 1, sizeof *earlier);
        uint32_t *by_breadth = malloc((nsteps + 1) * sizeof *by_breadth);
        bool *ordered = calloc(n + 1, sizeof *ordered);
        for (uint32_t t = 0; t < steps; t++) {
            for (uint32_t i = 0; i < n; i++) {
                if (ref_occupies(p, i) && p->buffers[i].lower <= t && t < p->buffers[i].upper) {
                    breadth[t] = ref_sat_add(breadth[t], aplan_buffer_size(p, i));
                }
            }
            breadth[t] = ~breadth[t];
            earlier[t] = t;
            by_breadth[t] = t;
        }
        ref_k1 = breadth;
        ref_k2 = earlier;
        qsort(by_breadth, nsteps, sizeof *by_breadth, ref_cmp_keys);
        ref_k1 = k1;
        ref_k2 = k2; /* 0: ties by index */
        size_t done = 0;
        for (uint64_t s = 0; s < steps; s++) {
            const uint64_t t = by_breadth[s];
            const size_t from = done;
            for (size_t k = 0; k < m; k++) {
                const uint32_t i = order[k];
                if (!ordered[i] && p->buffers[i].lower <= t && t < p->buffers[i].upper) {
                    ordered[i] = true;
                    nb[done++] = i;
                }
            }
            qsort(nb + from, done - from, sizeof *nb, ref_cmp_keys);
        }
        assert_int_equal(done, m);
        memcpy(order, nb, m * sizeof *order);
        free(breadth);
        free(earlier);
        free(by_breadth);
        free(ordered);
    }
    aplan_status st = APLAN_OK;
    for (size_t k = 0; k < m && st == APLAN_OK; k++) {
        const uint32_t x = order[k];
        size_t c = 0;
        for (uint32_t j = 0; j < n; j++) {
            if (j != x && off[j] != APLAN_NO_OFFSET && aplan_buffers_conflict(p, x, j)) nb[c++] = j;
        }
        const bool ok = rule == 0 ? ref_best_gap(p, off, nb, c, x, &off[x]) : ref_gap(p, off, nb, c, x, &off[x]);
        if (!ok) st = APLAN_E_SIZE_OVERFLOW;
    }
    free(order);
    free(nb);
    free(k1);
    free(k2);
    return st;
}

/* What the references said, over every compare_with_reference: plans, and placements past 2^64 - 1. */
static size_t ref_planned, ref_overflowed;

/* Problems of 8192 buffers or more take the greedy engine's other path (spans of the placed buffers in scratch,
 * greedy.c's SPAN_MIN; smaller ones read the plan). The same problem padded to SPAN_PATH buffers with buffers that
 * occupy nothing (size 0, after the others, so every order keeps them last) must plan exactly as it does alone: the
 * status, and the same offsets for its own buffers. */
enum { SPAN_PATH = 8192 };
static void compare_padded(const aplan_strategy *s, const aplan_problem *p, aplan_status want_st, const uint64_t *want,
                           const char *name, const char *shape) {
    const size_t n = p->count < SPAN_PATH ? SPAN_PATH : p->count;
    aplan_buffer *b = malloc(n * sizeof *b);
    uint64_t *got = malloc((n + 1) * sizeof *got);
    memcpy(b, p->buffers, p->count * sizeof *b);
    for (size_t i = p->count; i < n; i++) b[i] = buf(0, 0, 1);
    aplan_problem q = *p;
    q.buffers = b;
    q.count = n;
    size_t need;
    assert_int_equal(s->scratch_size(s, &q, &need), APLAN_OK);
    void *scratch = aligned_alloc(APLAN_SCRATCH_ALIGN, (need + APLAN_SCRATCH_ALIGN - 1) & ~(size_t)(APLAN_SCRATCH_ALIGN - 1));
    for (size_t i = 0; i < n; i++) got[i] = APLAN_NO_OFFSET;
    aplan_report report;
    aplan_report_clear(&report);
    const aplan_status got_st = s->plan(s, &q, scratch, need, got, &report);
    free(scratch);
    if (got_st != want_st) print_message("%s on %s padded: status %d, alone %d\n", name, shape, got_st, want_st);
    assert_int_equal(got_st, want_st);
    for (size_t i = 0; i < p->count && want_st == APLAN_OK; i++) {
        if (got[i] != want[i]) {
            print_message("%s on %s padded to %zu: buffer %zu at %llu, alone %llu\n", name, shape, n, i,
                          (unsigned long long)got[i], (unsigned long long)want[i]);
        }
        assert_int_equal(got[i], want[i]);
    }
    for (size_t i = p->count; i < n && want_st == APLAN_OK; i++) assert_int_equal(got[i], 0);
    free(got);
    free(b);
}

static void compare_with_reference(const aplan_problem *p, const char *shape) {
    static const char *const names[] = {"greedy_by_size", "greedy_by_size_tflm", "first_fit", "best_fit",
                                        "greedy_by_breadth", "greedy_by_conflicts"};
    uint64_t *want = malloc((p->count + 1) * sizeof *want), *got = malloc((p->count + 1) * sizeof *got);
    for (int mode = 0; mode < 6; mode++) {
        const aplan_strategy *s = NULL;
        if (aplan_strategy_find(names[mode], &s) != APLAN_OK) continue; /* left out of this build */
        const aplan_status want_st = mode < 3 ? ref_plan(p, mode, want) : ref_plan_heuristic(p, mode - 3, want);
        size_t need;
        assert_int_equal(s->scratch_size(s, p, &need), APLAN_OK);
        void *scratch = need ? aligned_alloc(APLAN_SCRATCH_ALIGN, (need + APLAN_SCRATCH_ALIGN - 1) &
                                                                       ~(size_t)(APLAN_SCRATCH_ALIGN - 1))
                             : NULL;
        for (size_t i = 0; i < p->count; i++) got[i] = APLAN_NO_OFFSET;
        aplan_report report;
        aplan_report_clear(&report);
        const aplan_status got_st = s->plan(s, p, scratch, need, got, &report);
        free(scratch);
        if (got_st != want_st) print_message("%s on %s: status %d, reference %d\n", names[mode], shape, got_st, want_st);
        assert_int_equal(got_st, want_st);
        ref_planned += want_st == APLAN_OK;
        ref_overflowed += want_st == APLAN_E_SIZE_OVERFLOW;
        for (size_t i = 0; i < p->count && want_st == APLAN_OK; i++) {
            if (got[i] != want[i]) {
                print_message("%s on %s (n %zu): buffer %zu at %llu, reference %llu\n", names[mode], shape, p->count,
                              i, (unsigned long long)got[i], (unsigned long long)want[i]);
            }
            assert_int_equal(got[i], want[i]);
        }
        compare_padded(s, p, want_st, want, names[mode], shape);
    }
    free(want);
    free(got);
}

static void test_property_strategies_match_reference(void **state) {
    (void)state;
    test_rng rng = {seed};
    enum { MAX = 3000 };
    aplan_buffer *b = malloc(MAX * sizeof *b);
    for (int round = 0; round < 14; round++) {
        const int shape = round % 7;
        size_t n;
        aplan_problem p;
        if (shape == 0) { /* small and mixed, with fixed buffers */
            n = 1 + (size_t)rng_below(&rng, 300);
            random_problem(&rng, b, n, 1 + rng_below(&rng, 80), 1 + rng_below(&rng, 4000), 64, 8);
        } else if (shape == 1) { /* inference-like: short lifetimes, some long skips */
            n = 800 + (size_t)rng_below(&rng, 800);
            for (size_t i = 0; i < n; i++) {
                const uint64_t lower = i / 2 + rng_below(&rng, 3);
                const uint64_t life = rng_below(&rng, 8) == 0 ? 20 + rng_below(&rng, 200) : 1 + rng_below(&rng, 4);
                b[i] = buf(16 + rng_below(&rng, 65536), lower, lower + life);
            }
        } else if (shape == 2 || shape == 3) { /* thousands live at once, long overlapping lifetimes */
            n = 1000 + (size_t)rng_below(&rng, 600);
            for (size_t i = 0; i < n; i++) {
                const uint64_t lower = rng_below(&rng, 400);
                b[i] = buf(1 + rng_below(&rng, shape == 2 ? 1000000 : 64), lower, lower + 1 + rng_below(&rng, 2000));
                b[i].alignment = rng_below(&rng, 4) == 0 ? 1u << rng_below(&rng, 7) : 0;
            }
        } else if (shape == 4) { /* all live at once */
            n = 1000 + (size_t)rng_below(&rng, 500);
            for (size_t i = 0; i < n; i++) b[i] = buf(1 + rng_below(&rng, rng_below(&rng, 2) ? 100 : 100000), 0, 1);
        } else if (shape == 6) { /* fixed buffers stacked at three offsets (aliasing), dozens live at each */
            n = 300 + (size_t)rng_below(&rng, 500);
            for (size_t i = 0; i < n; i++) {
                const uint64_t lower = rng_below(&rng, 100);
                b[i] = buf(1 + rng_below(&rng, 5000), lower, lower + 1 + rng_below(&rng, 100));
                if (rng_below(&rng, 3) == 0) b[i].offset = (uint64_t)8192 * rng_below(&rng, 3);
            }
        } else { /* many fixed buffers among dense ones, low in the arena where the others go too */
            n = 500 + (size_t)rng_below(&rng, 1000);
            random_problem(&rng, b, n, 200, 100000, 256, 3);
            uint64_t at = 0;
            for (size_t i = 0; i < n; i++) {
                if (b[i].offset == APLAN_NO_OFFSET) continue;
                at += rng_below(&rng, 50000);
                at = (at + 255u) & ~(uint64_t)255u; /* meets any alignment up to 256 */
                b[i].offset = at;
                at += b[i].size + 256u;
            }
        }
        aplan_problem_init(&p, b, n);
        p.alignment = 1u << rng_below(&rng, 5);
        p.flags = rng_below(&rng, 2) ? APLAN_ROUND_SIZES : 0u;
        if (shape == 5 || shape == 6) p.flags |= APLAN_ALLOW_FIXED_ALIAS;
        char name[32];
        snprintf(name, sizeof name, "shape %d round %d", shape, round);
        compare_with_reference(&p, name);
    }
    free(b);
}

/* linear's fold (linear_fold) with every step checked: false when an end passes 2^64 - 1, the one case where linear,
 * which never reuses memory, has no plan. */
static bool linear_fold_checked(const aplan_problem *p, uint64_t *arena) {
    uint64_t end = 0;
    for (size_t i = 0; i < p->count; i++) {
        const uint64_t size = aplan_buffer_size(p, i), a = aplan_buffer_alignment(p, i);
        if (size == 0) continue;
        if (end > UINT64_MAX - (a - 1u)) return false;
        end = (end + a - 1u) & ~(a - 1u);
        if (size > UINT64_MAX - end) return false;
        end += size;
    }
    *arena = end;
    return true;
}

/* A size or alignment near the top of 64 bits, or a small one. */
static uint64_t near_top_size(test_rng *r) {
    switch (rng_below(r, 6)) {
    case 0: return (uint64_t)1 << 62;
    case 1: return (uint64_t)1 << 63;
    case 2: return UINT64_MAX - rng_below(r, 3);
    case 3: return 1 + rng_below(r, 64);
    default: return ((uint64_t)1 << 60) + rng_below(r, (uint64_t)7 << 60);
    }
}

/*
 * Sizes near 2^64 (issue 17): a few buffers of 2^60 to 2^64 - 1 bytes, alignments up to 2^63, now and then one
 * fixed high in the range. Each heuristic gives exactly its reference's offsets, or fails with APLAN_E_SIZE_OVERFLOW
 * exactly where its reference's placement passes 2^64 - 1 (the references check each step, with none of the
 * library's code); linear, without fixed buffers, plans exactly when its checked fold fits. Both outcomes must occur
 * often.
 */
static void test_property_near_2_64_match_reference(void **state) {
    (void)state;
    test_rng rng = {seed ^ 0x2640000ull};
    aplan_buffer b[12];
    size_t planned = 0, overflowed = 0;
    ref_planned = ref_overflowed = 0;
    const aplan_strategy *linear = NULL;
    (void)aplan_strategy_find("linear", &linear);
    for (int round = 0; round < 3000; round++) {
        const size_t n = 2u + (size_t)rng_below(&rng, 10);
        bool any_fixed = false;
        for (size_t i = 0; i < n; i++) {
            const uint64_t lower = rng_below(&rng, 6);
            b[i] = buf(near_top_size(&rng), lower, lower + rng_below(&rng, 7 - lower));
            if (rng_below(&rng, 3) == 0) b[i].alignment = (uint64_t)1 << (rng_below(&rng, 2) ? 62 + rng_below(&rng, 2)
                                                                                               : rng_below(&rng, 62));
            if (!any_fixed && rng_below(&rng, 8) == 0 && b[i].size < UINT64_MAX / 2u) { /* aligned, ends in 64 bits */
                const uint64_t a = b[i].alignment != 0 ? b[i].alignment : 1u;
                b[i].offset = rng_below(&rng, UINT64_MAX - b[i].size) & ~(a - 1u);
                any_fixed = true;
            }
        }
        aplan_problem p;
        aplan_problem_init(&p, b, n);
        p.flags = rng_below(&rng, 4) == 0 ? APLAN_ROUND_SIZES : 0u;
        if (aplan_problem_validate(&p, NULL) != APLAN_OK) continue;
        char name[48];
        snprintf(name, sizeof name, "near 2^64, round %d", round);
        compare_with_reference(&p, name);
        uint64_t want = 0, off[12];
        const bool fits = linear_fold_checked(&p, &want);
        if (linear == NULL || any_fixed) continue;
        size_t need;
        assert_int_equal(linear->scratch_size(linear, &p, &need), APLAN_OK);
        assert_int_equal(need, 0); /* no fixed buffers */
        aplan_report report;
        aplan_report_clear(&report);
        for (size_t i = 0; i < n; i++) off[i] = APLAN_NO_OFFSET;
        assert_int_equal(linear->plan(linear, &p, NULL, 0, off, &report), fits ? APLAN_OK : APLAN_E_SIZE_OVERFLOW);
        planned += fits;
        overflowed += !fits;
        if (fits) {
            uint64_t arena = 0;
            for (size_t i = 0; i < n; i++) {
                const uint64_t end = off[i] + aplan_buffer_size(&p, i);
                arena = end > arena ? end : arena;
            }
            assert_int_equal(arena, want);
        }
    }
    print_message("near 2^64: the heuristics planned %zu times, passed 64 bits %zu times; linear planned %zu "
                  "problems, passed 64 bits on %zu\n",
                  ref_planned, ref_overflowed, planned, overflowed);
    if (linear != NULL) assert_true(planned >= 100 && overflowed >= 100);
    /* Each is about a third or two thirds of the comparisons, whichever heuristics the build has. */
    const size_t compared = ref_planned + ref_overflowed;
    assert_true(ref_planned >= compared / 5u && ref_overflowed >= compared / 5u);
    if (compared > 0) assert_true(compared >= 1000);
}

/* Regions: seeded random problems of up to 200 buffers in two to four regions, with random pins, uses, capacities
 * and alignments: every region strategy's plan is valid region by region by the brute-force checker (each region's
 * buffers as a problem of their own), keeps every pin, and is the same when planned again; select's traffic is never
 * above banked's when both fit, and it fits wherever banked does. With one region of unlimited capacity, banked's
 * offsets are greedy_by_size's. */
static void test_property_regions(void **state) {
    (void)state;
    test_rng rng = {seed ^ 0x5e610u};
    const aplan_region_strategy *banked = NULL, *select = NULL;
    assert_int_equal(aplan_region_strategy_find("banked", &banked), APLAN_OK);
    assert_int_equal(aplan_region_strategy_find("select", &select), APLAN_OK);
    for (int round = 0; round < 150; round++) {
        static aplan_buffer b[200];
        static uint64_t allowed[200], uses[200];
        const size_t n = 1u + (size_t)rng_below(&rng, 200);
        random_problem(&rng, b, n, 60, 4096, 64, round % 4 == 0 ? 9u : 0u);
        aplan_problem p;
        aplan_problem_init(&p, b, n);
        p.alignment = 16;
        p.flags = round % 2 ? APLAN_ROUND_SIZES : 0u;
        uint64_t live = 0;
        for (size_t i = 0; i < n; i++) live += b[i].size;
        const size_t regions = round % 7 == 0 ? 1u : 2u + (size_t)rng_below(&rng, 3);
        aplan_region g[4];
        for (size_t r = 0; r < regions; r++)
            g[r] = (aplan_region){"r", r + 1u == regions ? APLAN_UNLIMITED : 1u + rng_below(&rng, live / 3u + 1u),
                                  rng_below(&rng, 3) == 0 ? (uint64_t)16u << rng_below(&rng, 3) : 0u, {0, 0}};
        for (size_t i = 0; i < n; i++) {
            allowed[i] = b[i].offset != APLAN_NO_OFFSET ? (uint64_t)1u << (regions - 1u)
                         : rng_below(&rng, 6) == 0  ? (uint64_t)1u << rng_below(&rng, regions)
                                                    : 0u;
            uses[i] = rng_below(&rng, 8);
        }
        const aplan_regions rg = {g, regions, allowed, uses, {0}};
        if (aplan_regions_validate(&p, &rg, NULL) != APLAN_OK) continue;
        aplan_region_result res[2];
        aplan_status st[2];
        static uint32_t region_of[2][200];
        static uint64_t off[2][200];
        for (int k = 0; k < 2; k++) {
            const aplan_region_strategy *s = k == 0 ? banked : select;
            size_t need;
            assert_int_equal(aplan_region_plan_scratch_size(s, &p, &rg, &need), APLAN_OK);
            void *scratch = malloc(need + 8u);
            uint64_t arenas[4];
            st[k] = aplan_region_plan(s, &p, &rg, NULL, scratch, need, region_of[k], off[k], arenas, NULL, &res[k]);
            assert_true(st[k] == APLAN_OK || st[k] == APLAN_E_CAPACITY_EXCEEDED);
            for (size_t r = 0; r < regions && (st[k] == APLAN_OK || res[k].regions_over > 0); r++) {
                static aplan_buffer sub[200];
                static uint64_t so[200];
                size_t m = 0;
                for (size_t i = 0; i < n; i++) {
                    if (region_of[k][i] != r) continue;
                    assert_true(aplan_region_allowed(&rg, i, r));
                    sub[m] = b[i];
                    sub[m].size = aplan_buffer_size(&p, i);
                    const uint64_t a = aplan_buffer_alignment(&p, i);
                    sub[m].alignment = a > g[r].alignment ? a : g[r].alignment;
                    so[m++] = off[k][i];
                }
                aplan_problem q;
                aplan_problem_init(&q, sub, m);
                assert_true(brute_force_valid(&q, so, arenas[r]));
            }
            uint32_t again_region[200];
            uint64_t again_off[200];
            aplan_region_result again;
            assert_int_equal(aplan_region_plan(s, &p, &rg, NULL, scratch, need, again_region, again_off, arenas, NULL,
                                               &again),
                             st[k]);
            if (st[k] == APLAN_OK || res[k].regions_over > 0) { /* else no plan: the bound proved none fits */
                assert_memory_equal(again_region, region_of[k], n * sizeof again_region[0]);
                assert_memory_equal(again_off, off[k], n * sizeof again_off[0]);
            } else {
                assert_int_equal(res[k].outcome, APLAN_OUTCOME_INFEASIBLE);
            }
            free(scratch);
        }
        if (st[0] == APLAN_OK) assert_int_equal(st[1], APLAN_OK);
        if (st[0] == APLAN_OK && st[1] == APLAN_OK) assert_true(res[1].traffic <= res[0].traffic);
        if (regions == 1 && g[0].capacity == APLAN_UNLIMITED && g[0].alignment == 0) {
            const aplan_strategy *greedy = need_strategy("greedy_by_size");
            uint64_t want[200];
            aplan_result r;
            assert_int_equal(plan_with(greedy, &p, want, &r), APLAN_OK);
            assert_memory_equal(off[0], want, n * sizeof want[0]);
        }
    }
}

int main(int argc, char **argv) {
    seed = test_seed(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_property_small_problems),
        cmocka_unit_test(test_property_medium_problems_rounded),
        cmocka_unit_test(test_property_with_fixed_buffers),
        cmocka_unit_test(test_property_with_aliasing_allowed),
        cmocka_unit_test(test_property_compact_records_and_low_memory),
        cmocka_unit_test(test_property_offsets_are_pinned),
        cmocka_unit_test(test_property_strategies_match_reference),
        cmocka_unit_test(test_property_near_2_64_match_reference),
        cmocka_unit_test(test_property_regions),
    };
    return cmocka_run_group_tests_name("property", tests, NULL, NULL);
}
