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

#if APLAN_COMPACT
/*
 * The compact engine (device builds, APLAN_COMPACT): the same placement, found the way TFLM's planner finds it.
 * Placed buffers sit in one list sorted by (offset, index); each buffer walks it from the start, skipping those
 * whose lifetime misses its own, and takes the first aligned gap, exactly as aplan__first_gap does over the sorted
 * conflict list below, so the offsets are the same. O(n^2) time (the order is an insertion sort, the walks are
 * whole-list), O(1) stack, 8 bytes of scratch per buffer (order 4, list links 4), and a fraction of the code.
 */
#define END UINT32_MAX

/* Links buffer x (offsets[x] set) into the list at *head, keeping it sorted by (offset, index). */
static void link_in(uint32_t *head, uint32_t *next, const uint64_t *offsets, uint32_t x) {
    uint32_t *at = head;
    while (*at != END && (offsets[*at] < offsets[x] || (offsets[*at] == offsets[x] && *at < x))) at = &next[*at];
    next[x] = *at;
    *at = x;
}

aplan_status aplan__greedy_scratch_size(const aplan_strategy *self, const aplan_problem *p, size_t *bytes) {
    (void)self;
    if (p->count > SIZE_MAX / 8u) return APLAN_E_SIZE_OVERFLOW;
    *bytes = p->count * 8u;
    return APLAN_OK;
}

aplan_status aplan__greedy_plan(const aplan_problem *p, aplan__less_fn less, void *scratch, size_t scratch_size,
                                uint64_t *offsets, aplan_report *report) {
    if (p->count == 0) return APLAN_OK;
    if (scratch_size / 8u < p->count) return APLAN_E_SCRATCH_TOO_SMALL;
    uint32_t *order = scratch;
    uint32_t *next = order + p->count;
    size_t online, fixed;
    aplan__split(p, true, offsets, order, &online, next, &fixed, less); /* sorted as it is listed */
    /* The fixed buffers are listed in next[] by rising index; linking the last first writes only next[x] and links
     * of buffers already linked, all at positions >= k, so the entries still to read, below k, stay intact. */
    uint32_t head = END;
    for (size_t k = fixed; k-- > 0;) link_in(&head, next, offsets, next[k]);
    for (size_t k = 0; k < online; k++) {
        const uint32_t x = order[k];
        const aplan_buffer *b = &p->buffers[x];
        const uint64_t size = aplan_buffer_size(p, x);
        const uint64_t align = aplan_buffer_alignment(p, x);
        uint64_t at = 0, at_end = size;
        for (uint32_t j = head; j != END; j = next[j]) {
            const aplan_buffer *o = &p->buffers[j];
            if (o->upper <= b->lower || b->upper <= o->lower) continue; /* never live together */
            if (offsets[j] >= at_end) break;                              /* [at, at_end) fits below j */
            const uint64_t j_end = offsets[j] + aplan_buffer_size(p, j);  /* placed or fixed: fits 64 bits */
            if (j_end > at && (!aplan__align_up(j_end, align, &at) || !aplan__add(at, size, &at_end))) {
                aplan__report_value(report, APLAN_E_SIZE_OVERFLOW, x, 0, size);
                return APLAN_E_SIZE_OVERFLOW;
            }
        }
        offsets[x] = at;
        link_in(&head, next, offsets, x);
    }
    return APLAN_OK;
}
#else
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
    aplan__split(p, true, offsets, w[ORDER], &online, w[TREE_ORDER], &m, NULL);
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
#endif

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
    .description = APLAN_TEXT("largest first at the lowest free offset; equal sizes in input order"),
    .scratch_size = aplan__greedy_scratch_size,
    .plan = plan,
};

const aplan_strategy *aplan_strategy_greedy_by_size(void) { return &greedy_by_size; }
