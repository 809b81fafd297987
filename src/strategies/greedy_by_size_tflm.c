/*
 * greedy_by_size_tflm: greedy_by_size (see greedy_by_size.c and greedy.c for the algorithm, complexity and
 * scratch: about 20.3 bytes per buffer, 116.9 from 8,192 buffers, 68.3 above 65,536; under APLAN_LOW_MEMORY the list
 * walk's 8, O(n^2)) with the tie order of TFLite Micro's GreedyMemoryPlanner, so that its offsets equal TFLM's:
 *   1. fixed (offline) buffers are placed first, as they are;
 *   2. TFLM loads the online buffers in reverse input order and then stable-sorts them by size, largest first, so
 *      among equal sizes the buffer added last is placed first. Sorting by (size descending, index descending) is
 *      that order.
 * Its sizes are TFLM's only when the problem rounds sizes to 16 (APLAN_ROUND_SIZES, alignment 16), as TFLM's
 * allocator does before planning.
 */
#include "aplan/strategies.h"
#include "strategies/greedy.h"

/* Largest first; equal sizes: the one added last first (the list walk's order: compact builds, APLAN_LOW_MEMORY). */
static bool less_size_then_last_added(const void *ctx, uint32_t a, uint32_t b) {
    const aplan_problem *p = ctx;
    const uint64_t sa = aplan__size(p, a), sb = aplan__size(p, b);
    return sa != sb ? sa > sb : a > b;
}
#if APLAN_COMPACT
static const aplan__greedy_rule rule = {APLAN__GAP_LOWEST, false, less_size_then_last_added, NULL};
#else
static const aplan__greedy_rule rule = {APLAN__GAP_LOWEST, false, APLAN__TIE_LAST_ADDED, NULL,
                                        less_size_then_last_added};
#endif

APLAN__GREEDY_STRATEGY(greedy_by_size_tflm, rule,
                       "greedy_by_size with TFLite Micro's tie order: reproduces GreedyMemoryPlanner")
