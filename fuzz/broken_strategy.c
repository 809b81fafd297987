/*
 * A deliberately broken strategy for the hook in fuzz_common.h: the reference strategy (greedy_by_size in a full
 * build), except that on problems with more than 50 buffers it moves the second online buffer that conflicts with the first on top of it. fuzz_strategies must
 * catch it within seconds (tests/meson.build runs that as an expected failure; docs/fuzzing.md gives the command).
 */
#include <string.h>

#include "fuzz_common.h"

static aplan_status scratch_size(const aplan_strategy *self, const aplan_problem *p, size_t *bytes) {
    (void)self;
    const aplan_strategy *g = fz_reference_strategy();
    return g->scratch_size(g, p, bytes);
}

static aplan_status plan(const aplan_strategy *self, const aplan_problem *p, void *scratch, size_t scratch_size,
                         uint64_t *offsets, aplan_report *report) {
    (void)self;
    const aplan_strategy *g = fz_reference_strategy();
    aplan_status st = g->plan(g, p, scratch, scratch_size, offsets, report);
    if (st != APLAN_OK || p->count <= 50) return st;
    for (size_t i = 0; i < p->count; i++) {
        if (p->buffers[i].offset != APLAN_NO_OFFSET) continue;
        for (size_t j = i + 1; j < p->count; j++) {
            if (p->buffers[j].offset == APLAN_NO_OFFSET && aplan_buffers_conflict(p, i, j) &&
                aplan_buffer_alignment(p, j) <= aplan_buffer_alignment(p, i)) {
                offsets[j] = offsets[i]; /* the bug */
                return APLAN_OK;
            }
        }
    }
    return APLAN_OK;
}

static const aplan_strategy broken = {
    .abi_version = APLAN_STRATEGY_ABI_VERSION,
    .name = "broken_overlap",
    .description = "test only: overlaps two buffers when there are more than 50",
    .scratch_size = scratch_size,
    .plan = plan,
};

const aplan_strategy *const *aplan_fuzz_extra_strategies(size_t *count) {
    static const aplan_strategy *const list[] = {&broken};
    *count = 1;
    return list;
}
