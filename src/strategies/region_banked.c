/*
 * banked: the region baseline, what the runtimes that plan several memories do today (ExecuTorch's banked_greedy,
 * ESP-DL's greedy planner with an internal-RAM limit): greedy_by_size's order (largest first, equal sizes by index),
 * each buffer into the fastest region it may use whose lowest free gap (among the buffers of that region it is live
 * with) holds it within the region's capacity, else into the slowest region it may use, past its capacity.
 *
 * It is the greedy engine's banked placement (greedy.h, aplan__bank_plan) over greedy_by_size's rule, so with one
 * region it gives greedy_by_size's offsets. It looks at one buffer at a time: a large buffer placed early takes the
 * fast region whether or not it is used much, which is what select improves on.
 * Complexity: greedy_by_size's, O(n + P log n) for P conflicting pairs, plus O(k) per region tried for a buffer with
 * k conflicting placed buffers. Scratch: best_fit's 20.3 bytes per buffer (68.3 from 8,192) plus 4, and 16 per
 * region (compact builds: 8 per buffer, O(n^2) time). Deterministic.
 */
#include "aplan/regions.h"
#include "strategies/greedy.h"

static const aplan__greedy_rule rule = APLAN__BY_SIZE_RULE;

static aplan_status banked_scratch_size(const aplan_region_strategy *self, const aplan_problem *p,
                                        const aplan_regions *rg, size_t *bytes) {
    (void)self;
    return aplan__bank_scratch_size(&rule, p, rg->count, bytes);
}

static aplan_status banked_plan(const aplan_region_strategy *self, const aplan_problem *p, const aplan_regions *rg,
                                aplan_search_context *ctx, void *scratch, size_t scratch_size, uint32_t *region_of,
                                uint64_t *offsets, aplan_report *report) {
    (void)self;
    const aplan__bank bank = {rg, region_of, NULL};
    return aplan__bank_plan(&rule, p, &bank, ctx, scratch, scratch_size, offsets, report); /* sets the outcome */
}

static const aplan_region_strategy banked = {
    .abi_version = APLAN_REGION_STRATEGY_ABI_VERSION,
    .name = "banked",
    .description = APLAN_TEXT("largest first, each into the fastest region where it fits (the runtimes' baseline)"),
    .scratch_size = banked_scratch_size,
    .plan = banked_plan,
};

const aplan_region_strategy *aplan_region_strategy_banked(void) { return &banked; }
