/*
 * linear: no reuse at all. The baseline every other strategy is measured against, and what TFLM's
 * LinearMemoryPlanner does (plus alignment and fixed offsets, which that planner ignores).
 *
 * Algorithm:
 *   1. Fixed buffers keep their offsets. Buffers of size 0 go to offset 0 (they occupy nothing).
 *   2. The other buffers go back to back in input order: each at the lowest offset at or above the end of the
 *      previous one that is a multiple of its alignment and clear of every fixed buffer's bytes, whatever their
 *      lifetimes (no reuse means no reuse).
 * With no fixed buffers the arena is the fold end = align_up(end, alignment) + size over the buffers; with uniform
 * alignment and rounded sizes, the sum of the sizes.
 *
 * Complexity: O(n + f log f) time for f fixed buffers (the cursor only rises, so the fixed buffers sorted by offset
 * are walked once). Scratch: 8 bytes per fixed buffer that occupies memory (the list and the sort's second array);
 * none without fixed buffers.
 * Guarantee: a valid plan whenever the problem's fixed buffers are consistent; never reuses memory.
 */
#include "aplan/strategies.h"
#include "core/internal.h"

static size_t fixed_count(const aplan_problem *p) {
    size_t f = 0;
    for (size_t i = 0; i < p->count; i++) f += aplan__fixed(p, i) != APLAN_NO_OFFSET && aplan__size(p, i) != 0;
    return f;
}

static aplan_status scratch_size(const aplan_strategy *self, const aplan_problem *p, size_t *bytes) {
    (void)self;
    aplan__scratch s;
    aplan__scratch_init(&s, NULL, SIZE_MAX);
    (void)aplan__scratch_take(&s, fixed_count(p), 2u * sizeof(uint32_t), sizeof(uint32_t));
    if (s.failed) return APLAN_E_SIZE_OVERFLOW;
    *bytes = s.used;
    return APLAN_OK;
}

static aplan_status plan(const aplan_strategy *self, const aplan_problem *p, void *scratch, size_t scratch_size,
                         uint64_t *offsets, aplan_report *report) {
    (void)self;
    aplan__scratch s;
    aplan__scratch_init(&s, scratch, scratch_size);
    const size_t f = fixed_count(p);
    uint32_t *fixed = aplan__scratch_take(&s, f, 2u * sizeof(uint32_t), sizeof(uint32_t));
    if (s.failed) return APLAN_E_SCRATCH_TOO_SMALL;
    size_t to_place, listed;
    /* No place list: the rest is placed in index order below, so linear needs scratch only for the fixed ones. */
    aplan__split(p, false, offsets, NULL, &to_place, fixed, &listed, NULL);
    APLAN_ASSERT(listed == f);
    if (f != 0) aplan__sort_by(fixed, fixed + f, f, APLAN__BY_OFFSET, p, offsets); /* second half: sort space */
    uint64_t cursor = 0;
    size_t pos = 0;
    for (size_t i = 0; i < p->count; i++) {
        if (offsets[i] != APLAN_NO_OFFSET) continue;
        const uint64_t size = aplan__size(p, i);
        aplan_status st = aplan__first_gap(p, offsets, fixed, f, &pos, cursor, size, aplan__alignment(p, i),
                                           &offsets[i]);
        if (st != APLAN_OK) {
            aplan__report_value(report, st, i, cursor, size);
            return st;
        }
        cursor = offsets[i] + size; /* first_gap checked that the end fits */
    }
    return APLAN_OK;
}

static const aplan_strategy linear = {
    .abi_version = APLAN_STRATEGY_ABI_VERSION,
    .name = "linear",
    .description = APLAN_TEXT("no reuse: buffers back to back in input order (baseline)"),
    .scratch_size = scratch_size,
    .plan = plan,
};

const aplan_strategy *aplan_strategy_linear(void) { return &linear; }
