/*
 * greedy_by_size: largest first, lowest offset. The algorithm of TFLM's GreedyMemoryPlanner and of TFLite's
 * "greedy by size" arena planner, without their quadratic parts.
 *
 * Algorithm:
 *   1. Fixed buffers keep their offsets and count as placed. Buffers that occupy no memory (size 0 or never live)
 *      go to offset 0.
 *   2. Sort the other buffers by size, largest first; among equal sizes by the tie order (input order here;
 *      greedy_by_size_tflm uses TFLM's).
 *   3. For each in that order: ask a static interval tree over all lifetimes for the placed buffers whose lifetime
 *      intersects its own, sort them by offset, and take the lowest offset that is a multiple of the buffer's
 *      alignment and lies in a gap between them (or above the last).
 *
 * Complexity: O(n log n) for the sorts and the tree, plus O(k log k) per buffer for its k conflicting buffers:
 * only buffers whose lifetimes intersect are ever scanned (TFLM scans every placed buffer and bubble-sorts).
 * Scratch: 16 bytes per buffer (size order 4, tree order 4, tree maxima 4, conflict list 4).
 * Guarantee: a valid plan; deterministic. No approximation ratio: it can miss the bound by a third on hard packings.
 */
#include "aplan/strategies.h"
#include "core/internal.h"
#include "strategies/greedy.h"

enum { ORDER, TREE_ORDER, TREE_MAX, HITS, ARRAYS }; /* scratch: four index arrays */

aplan_status aplan__greedy_scratch_size(const aplan_strategy *self, const aplan_problem *p, size_t *bytes) {
    (void)self;
    return aplan__u32_arrays_size(p->count, ARRAYS, bytes);
}

static bool placed(const void *ctx, uint32_t member) { return ((const uint64_t *)ctx)[member] != APLAN_NO_OFFSET; }

aplan_status aplan__greedy_plan(const aplan_problem *p, aplan__less_fn less, void *scratch, size_t scratch_size,
                                uint64_t *offsets, aplan_report *report) {
    aplan__scratch s;
    uint32_t *w[ARRAYS];
    aplan__scratch_init(&s, scratch, scratch_size);
    if (!aplan__take_u32_arrays(&s, p->count, w, ARRAYS)) return APLAN_E_SCRATCH_TOO_SMALL;
    size_t online, m;
    aplan__split(p, true, offsets, w[ORDER], &online, w[TREE_ORDER], &m);
    /* The tree holds every buffer that occupies memory: the fixed ones, then those to place (it sorts them). */
    for (size_t k = 0; k < online; k++) w[TREE_ORDER][m++] = w[ORDER][k];
    aplan__itree tree;
    aplan__itree_build(&tree, p, w[TREE_ORDER], w[TREE_MAX], m);
    aplan__sort(w[ORDER], online, less, p);
    struct aplan__by_offset by_offset = {offsets};
    for (size_t k = 0; k < online; k++) {
        const uint32_t x = w[ORDER][k];
        const aplan_buffer *b = &p->buffers[x];
        const size_t hits = aplan__itree_query(&tree, b->lower, b->upper, placed, offsets, w[HITS]);
        aplan__sort(w[HITS], hits, aplan__less_by_offset, &by_offset);
        size_t pos = 0;
        const uint64_t size = aplan_buffer_size(p, x);
        aplan_status st = aplan__first_gap(p, offsets, w[HITS], hits, &pos, 0, size, aplan_buffer_alignment(p, x),
                                           &offsets[x]);
        if (st != APLAN_OK) {
            aplan__report_value(report, st, x, 0, size);
            return st;
        }
    }
    return APLAN_OK;
}

/* Largest first; equal sizes in input order. */
static bool less_size_then_index(const void *ctx, uint32_t a, uint32_t b) {
    const aplan_problem *p = ctx;
    const uint64_t sa = aplan_buffer_size(p, a), sb = aplan_buffer_size(p, b);
    if (sa != sb) return sa > sb;
    return a < b;
}

static aplan_status plan(const aplan_strategy *self, const aplan_problem *p, void *scratch, size_t scratch_size,
                         uint64_t *offsets, aplan_report *report) {
    (void)self;
    return aplan__greedy_plan(p, less_size_then_index, scratch, scratch_size, offsets, report);
}

static const aplan_strategy greedy_by_size = {
    .abi_version = APLAN_STRATEGY_ABI_VERSION,
    .name = "greedy_by_size",
    .description = "largest first at the lowest free offset; equal sizes in input order",
    .scratch_size = aplan__greedy_scratch_size,
    .plan = plan,
};

const aplan_strategy *aplan_strategy_greedy_by_size(void) { return &greedy_by_size; }
