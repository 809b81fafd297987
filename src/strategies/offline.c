/*
 * offline: pass-through of an offline plan (TFLM's OfflineMemoryAllocation metadata, Vela's output, a plan made
 * elsewhere). Unlike TFLM's NonPersistentMemoryPlannerShim it trusts nothing: the offsets go through the same
 * verifier as any strategy's, and the arena size is computed, not reported as 0.
 *
 * Algorithm: 1. every buffer must have a fixed offset: the first that has none fails the plan with
 * APLAN_E_OFFSET_MISSING naming it; 2. the plan is exactly those offsets.
 * Complexity: O(n). Scratch: none.
 * Guarantee: the plan is the input's; whether it is valid is the verifier's verdict (set APLAN_ALLOW_FIXED_ALIAS
 * when the offline planner aliases buffers on purpose).
 */
#include "aplan/strategies.h"
#include "core/internal.h"

static aplan_status scratch_size(const aplan_strategy *self, const aplan_problem *p, size_t *bytes) {
    (void)self;
    (void)p;
    *bytes = 0;
    return APLAN_OK;
}

static aplan_status plan(const aplan_strategy *self, const aplan_problem *p, void *scratch, size_t scratch_size,
                         uint64_t *offsets, aplan_report *report) {
    (void)self;
    (void)scratch;
    (void)scratch_size;
    for (size_t i = 0; i < p->count; i++) {
        if (aplan__fixed(p, i) == APLAN_NO_OFFSET) {
            aplan__report_buffer(report, APLAN_E_OFFSET_MISSING, i);
            return APLAN_E_OFFSET_MISSING;
        }
        offsets[i] = aplan__fixed(p, i);
    }
    return APLAN_OK;
}

static const aplan_strategy offline = {
    .abi_version = APLAN_STRATEGY_ABI_VERSION,
    .name = "offline",
    .description = APLAN_TEXT("pass-through of fixed (offline-planned) offsets, verified"),
    .scratch_size = scratch_size,
    .plan = plan,
};

const aplan_strategy *aplan_strategy_offline(void) { return &offline; }
