/*
 * greedy_by_size: largest first, lowest offset. The algorithm of TFLM's GreedyMemoryPlanner and of TFLite's
 * "greedy by size" arena planner, without their quadratic parts.
 *
 * Algorithm:
 *   1. Fixed buffers keep their offsets and count as placed. Buffers that occupy no memory (size 0 or never live)
 *      go to offset 0.
 *   2. Sort the other buffers by size, largest first; among equal sizes by the tie order (input order here;
 *      greedy_by_size_tflm uses TFLM's).
 *   3. For each in that order, take the lowest offset that is a multiple of its alignment and misses every placed
 *      buffer whose lifetime intersects its own (a gap between them, or above the highest).
 * The result is defined by that rule alone (the lowest such offset is unique), so any way of finding it gives the
 * same offsets; tests/test_property.c keeps the first, plain implementation as the reference.
 *
 * It is the greedy engine's rule APLAN__GAP_LOWEST over the size order (greedy.c says how the conflicting buffers and
 * the gap are found). Complexity: O(n + P log n) for P conflicting pairs, O(n) when all buffers are live at once,
 * where TFLM's planner takes O(n^2) whatever the lifetimes. Worst shape: many buffers live together but not all at
 * one step (dense training traces: iopddl_S_1 has 4.3e7 conflicting pairs for 28,526 buffers).
 * Scratch: about 20.3 bytes per buffer (8 in compact builds, which walk one list in O(n^2) as TFLM does).
 * Guarantee: a valid plan; deterministic. No approximation ratio: it can miss the bound by a third on hard packings.
 */
#include "aplan/strategies.h"
#include "strategies/greedy.h"

#if APLAN_COMPACT
/* Largest first; equal sizes in input order. */
static bool less_size_then_index(const void *ctx, uint32_t a, uint32_t b) {
    const aplan_problem *p = ctx;
    const uint64_t sa = aplan__size(p, a), sb = aplan__size(p, b);
    return sa != sb ? sa > sb : a < b;
}
static const aplan__greedy_rule rule = {APLAN__GAP_LOWEST, false, less_size_then_index, NULL};
#else
static const aplan__greedy_rule rule = {APLAN__GAP_LOWEST, false, APLAN__TIE_INDEX, NULL};
#endif

static aplan_status scratch_size(const aplan_strategy *self, const aplan_problem *p, size_t *bytes) {
    (void)self;
    return aplan__greedy_scratch_size(&rule, p, bytes);
}

static aplan_status plan(const aplan_strategy *self, const aplan_problem *p, void *scratch, size_t scratch_size,
                         uint64_t *offsets, aplan_report *report) {
    (void)self;
    return aplan__greedy_plan(&rule, p, scratch, scratch_size, offsets, report);
}

static const aplan_strategy greedy_by_size = {
    .abi_version = APLAN_STRATEGY_ABI_VERSION,
    .name = "greedy_by_size",
    .description = APLAN_TEXT("largest first at the lowest free offset; equal sizes in input order"),
    .scratch_size = scratch_size,
    .plan = plan,
};

const aplan_strategy *aplan_strategy_greedy_by_size(void) { return &greedy_by_size; }
