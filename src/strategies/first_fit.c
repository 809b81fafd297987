/*
 * first_fit: what a runtime arena allocator does when it serves the model step by step, like TFLite's
 * SimpleMemoryArena but taking the lowest fitting block rather than the tightest.
 *
 * Algorithm:
 *   1. Fixed buffers keep their offsets. Buffers that occupy no memory (size 0 or never live) go to offset 0.
 *   2. Order the other buffers by start step, then size (largest first), then index.
 *   3. Walk that order. When the step advances, release every live buffer whose lifetime has ended; the free space
 *      is then the gaps between the live buffers, so adjacent free blocks are coalesced by construction.
 *   4. Allocate each buffer at the lowest offset that is a multiple of its alignment and fits a gap between the live
 *      buffers and the fixed buffers whose lifetime intersects its own (a fixed buffer is reserved for its whole
 *      lifetime, even before it starts); when no gap fits, the arena grows at the top.
 * A buffer allocated later that conflicts with an earlier one is live while the earlier one still is, so checking
 * the live set is enough.
 *
 * Complexity: O(n log n) for the order and the fixed buffers' interval tree, plus O(L) per allocation for L live
 * buffers (the live set is kept sorted by offset), or O(L log L) when fixed buffers conflict with it.
 * Scratch: 20 bytes per buffer (order 4, live set 4, neighbours 4, fixed tree 8).
 * Guarantee: a valid plan; deterministic. It models an online allocator, so it is usually worse than greedy_by_size.
 */
#include "aplan/strategies.h"
#include "core/internal.h"

enum { ORDER, LIVE, NB, FIXED_ORDER, FIXED_MAX, ARRAYS }; /* scratch: five index arrays */

static aplan_status scratch_size(const aplan_strategy *self, const aplan_problem *p, size_t *bytes) {
    (void)self;
    return aplan__u32_arrays_size(p->count, ARRAYS, bytes);
}

static bool less_start_size_index(const void *ctx, uint32_t a, uint32_t b) {
    const aplan_problem *p = ctx;
    const uint64_t la = p->buffers[a].lower, lb = p->buffers[b].lower;
    if (la != lb) return la < lb;
    const uint64_t sa = aplan_buffer_size(p, a), sb = aplan_buffer_size(p, b);
    if (sa != sb) return sa > sb;
    return a < b;
}

static aplan_status plan(const aplan_strategy *self, const aplan_problem *p, void *scratch, size_t scratch_size,
                         uint64_t *offsets, aplan_report *report) {
    (void)self;
    aplan__scratch s;
    uint32_t *w[ARRAYS];
    aplan__scratch_init(&s, scratch, scratch_size);
    if (!aplan__take_u32_arrays(&s, p->count, w, ARRAYS)) return APLAN_E_SCRATCH_TOO_SMALL;
    size_t online, fixed;
    aplan__split(p, true, offsets, w[ORDER], &online, w[FIXED_ORDER], &fixed, NULL);
    aplan__itree tree;
    aplan__itree_build(&tree, p, w[FIXED_ORDER], w[FIXED_MAX], fixed);
    aplan__sort(w[ORDER], online, less_start_size_index, p);
    struct aplan__by_offset by_offset = {offsets};
    size_t live = 0;
    uint64_t step = 0;
    for (size_t k = 0; k < online; k++) {
        const uint32_t x = w[ORDER][k];
        const aplan_buffer *b = &p->buffers[x];
        if (k == 0 || b->lower != step) {
            step = b->lower;
            size_t kept = 0;
            for (size_t j = 0; j < live; j++) {
                if (p->buffers[w[LIVE][j]].upper > step) w[LIVE][kept++] = w[LIVE][j];
            }
            live = kept;
        }
        /* The live set stays sorted by offset, so only the (usually few) conflicting fixed buffers need sorting. */
        const uint32_t *nb = w[LIVE];
        size_t n_nb = live;
        const size_t n_fixed = aplan__itree_query(&tree, b->lower, b->upper, NULL, NULL, w[NB] + live);
        if (n_fixed != 0) {
            for (size_t j = 0; j < live; j++) w[NB][j] = w[LIVE][j];
            n_nb += n_fixed;
            aplan__sort(w[NB], n_nb, aplan__less_by_offset, &by_offset);
            nb = w[NB];
        }
        size_t pos = 0;
        const uint64_t size = aplan_buffer_size(p, x);
        aplan_status st = aplan__first_gap(p, offsets, nb, n_nb, &pos, 0, size, aplan_buffer_alignment(p, x),
                                           &offsets[x]);
        if (st != APLAN_OK) {
            aplan__report_value(report, st, x, 0, size);
            return st;
        }
        size_t at = live++;
        for (; at > 0 && aplan__less_by_offset(&by_offset, x, w[LIVE][at - 1u]); at--) w[LIVE][at] = w[LIVE][at - 1u];
        w[LIVE][at] = x;
    }
    return APLAN_OK;
}

static const aplan_strategy first_fit = {
    .abi_version = APLAN_STRATEGY_ABI_VERSION,
    .name = "first_fit",
    .description = APLAN_TEXT("runtime arena simulation: step order, free and coalesce, lowest block that fits"),
    .scratch_size = scratch_size,
    .plan = plan,
};

const aplan_strategy *aplan_strategy_first_fit(void) { return &first_fit; }
