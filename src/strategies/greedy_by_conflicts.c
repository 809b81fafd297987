/*
 * greedy_by_conflicts: the most constrained buffer first, at the lowest offset. The order of TVM's unified static
 * memory planner (USMP) algorithm greedy_by_conflicts.
 *
 * Algorithm:
 *   1. Fixed buffers keep their offsets and count as placed. Buffers that occupy no memory (size 0 or never live)
 *      go to offset 0.
 *   2. Each other buffer's conflicts: how many other buffers that occupy memory (fixed ones included) are live at a
 *      step where it is. Sort by that count, most first; equal counts by size, largest first, then by index.
 *   3. For each in that order, take the lowest aligned offset that misses every placed buffer it conflicts with (the
 *      rule of greedy_by_size).
 * A buffer that overlaps many others has the fewest places to go once they are placed, so it goes while the arena is
 * still empty around it.
 *
 * The counts: with the members sorted by start step, member x conflicts with the members that start before it ends
 * (its end rank, which the greedy engine keeps anyway) less those that end by the time it starts (a merge against
 * the members sorted by end step) less itself. O(n) after the engine's sorts, then one radix sort of the order.
 * Complexity: O(n + P log n) for P conflicting pairs (the placement: the greedy engine, greedy.c). Worst shape: that
 * of greedy_by_size, many buffers live together but not all at one step.
 * Scratch: about 20.3 bytes per buffer, 116.9 from 8,192 buffers, 68.3 above 65,536 (the engine's; the counts use its spare arrays).
 * Compact builds: 8 bytes per buffer and O(n^2) time (every pair counted).
 * Guarantee: a valid plan; deterministic. No approximation ratio.
 */
#include "aplan/strategies.h"
#include "strategies/greedy.h"

#if APLAN_COMPACT
/* Most conflicts first; then largest first; then input order. */
static bool less_conflicts(const void *ctx, uint32_t a, uint32_t b) {
    const aplan__greedy_keys *k = ctx;
    if (k->key[a] != k->key[b]) return k->key[a] > k->key[b];
    const uint64_t sa = aplan__size(k->p, a), sb = aplan__size(k->p, b);
    return sa != sb ? sa > sb : a < b;
}

/* key[x] = the conflicts of x, each pair looked at; then the order. O(n^2). */
static void order_by_conflicts(const aplan_problem *p, uint32_t *order, size_t count, uint32_t *key, uint64_t *wide) {
    const aplan__greedy_keys ctx = {p, key, wide};
    for (size_t k = 0; k < count; k++) {
        const uint32_t x = order[k];
        uint32_t c = 0;
        for (uint32_t j = 0; j < p->count; j++) c += j != x && aplan_buffers_conflict(p, x, j);
        key[x] = c;
    }
    aplan__greedy_sort(order, count, less_conflicts, &ctx);
}
static const aplan__greedy_rule rule = {APLAN__GAP_LOWEST, false, NULL, order_by_conflicts};
#else
/* Reorders the size order (largest first, index) stably by conflicts, most first: O(n) plus one radix sort. */
static void order_by_conflicts(const aplan__greedy_view *v) {
    uint32_t *key = v->spare; /* per position: ~conflicts, so that rising keys are falling counts */
    size_t ended = 0;         /* members, by end step, that end at or before the start of the one at pos */
    for (size_t pos = 0; pos < v->members; pos++) {
        const uint64_t lower = aplan__lower(v->p, v->by_lower[pos]);
        while (ended < v->members && aplan__upper(v->p, v->by_upper[ended]) <= lower) ended++;
        key[pos] = ~((v->rank[pos] & ~APLAN__UNPLACED) - (uint32_t)ended - 1u);
    }
    aplan__sort_by_key(v->order, v->by_upper, v->online, key);
}
static const aplan__greedy_rule rule = {APLAN__GAP_LOWEST, false, APLAN__TIE_INDEX, order_by_conflicts, NULL};
#endif

APLAN__GREEDY_STRATEGY(greedy_by_conflicts, rule,
                       "most overlapping lifetimes first, then largest, at the lowest free offset (TVM USMP)")
