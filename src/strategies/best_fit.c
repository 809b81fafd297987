/*
 * best_fit: largest first, into the smallest gap that fits. The rule of TFLite's ArenaPlanner (its simple memory
 * arena) and of XLA's heap simulator (best fit over the chunks free during a buffer's lifetime).
 *
 * Algorithm:
 *   1. Fixed buffers keep their offsets and count as placed. Buffers that occupy no memory (size 0 or never live)
 *      go to offset 0.
 *   2. Sort the other buffers by size, largest first; equal sizes by their first step (lower), earliest first, then
 *      by index.
 *   3. For each in that order, look at the placed buffers whose lifetimes intersect its own, in offset order: the
 *      gaps are the free ranges among them, from 0 up to the lowest and between each and the next (each start aligned
 *      up to the buffer's alignment). It takes the gap with the least room that still holds it (a gap that fits
 *      exactly ends the search; of equal gaps, the lowest); when none does, the aligned highest end among them.
 * Against greedy_by_size's lowest gap, the smallest one keeps large gaps whole for the large buffers still to come
 * when a small buffer could go low in a big hole or higher in a snug one.
 *
 * It is the greedy engine's rule APLAN__GAP_SMALLEST (greedy.c): the conflicting placed buffers come from the same
 * tree as greedy_by_size's, but every gap must be looked at, so all of them are sorted (bucketed by the top byte of
 * their offsets, buckets radix-sorted or, up to 32, sorted on the stack) unless one fits exactly.
 * Complexity: O(n + P log n) for P conflicting pairs; O(n) when all buffers are live at one step and the placed ones
 * leave no gap that could hold the next. Worst shape: many buffers live together but not all at one step, where each
 * buffer sorts all of its k conflicting neighbours (greedy_by_size sorts only those below its gap).
 * Scratch: about 20.3 bytes per buffer, 68.3 from 8,192 buffers, 68.3 above 65,536 (8 in compact builds, O(n^2) time there).
 * Guarantee: a valid plan; deterministic. No approximation ratio.
 */
#include "aplan/strategies.h"
#include "strategies/greedy.h"

#if APLAN_COMPACT
/* Largest first; equal sizes by earliest lower step, then index. */
static bool less_size_then_lower(const void *ctx, uint32_t a, uint32_t b) {
    const aplan_problem *p = ctx;
    const uint64_t sa = aplan__size(p, a), sb = aplan__size(p, b);
    if (sa != sb) return sa > sb;
    const uint64_t la = aplan__lower(p, a), lb = aplan__lower(p, b);
    return la != lb ? la < lb : a < b;
}
static const aplan__greedy_rule rule = {APLAN__GAP_SMALLEST, false, less_size_then_lower, NULL};
#else
static const aplan__greedy_rule rule = {APLAN__GAP_SMALLEST, false, APLAN__TIE_LOWER, NULL, NULL};
#endif

APLAN__GREEDY_STRATEGY(best_fit, rule,
                       "largest first into the smallest gap that fits (TFLite's ArenaPlanner, XLA)")
