/*
 * Interval tree over lifetimes, members counted once placed. The members are sorted by lower step and read as an
 * implicit balanced binary tree (the middle of a range is its root), each node remembering the placed member with
 * the largest upper step below it. A query then skips every subtree with nothing placed or that ends before the
 * query starts, and every right part that starts after it ends, so it costs O(log m + hits) for the usual shapes
 * instead of a scan of all members. Placing a member only raises maxima on its root path: O(log m).
 */
#include "internal.h"

#define NONE UINT32_MAX
#define STACK 64 /* > the depth (33) of a tree of 2^32 members; a walk keeps one pending range per level */

static uint64_t upper_of(const aplan__itree *t, uint32_t member) { return aplan__upper(t->problem, member); }

/* Strictly before in the tree's order (lower, index). */
static bool before(const aplan__itree *t, uint32_t a, uint32_t b) {
    const uint64_t la = aplan__lower(t->problem, a), lb = aplan__lower(t->problem, b);
    return la != lb ? la < lb : a < b;
}

void aplan__itree_place(aplan__itree *t, uint32_t member) {
    const uint64_t up = upper_of(t, member);
    size_t lo = 0, hi = t->count;
    while (lo < hi) { /* descend to the member's node, raising the maximum of every node on the way */
        const size_t mid = lo + (hi - lo) / 2u;
        const uint32_t best = t->maxup[mid];
        if (best == NONE || upper_of(t, best) < up) t->maxup[mid] = member;
        const uint32_t here = t->order[mid];
        if (here == member) return;
        if (before(t, member, here)) hi = mid; else lo = mid + 1u;
    }
    APLAN_ASSERT(false); /* not a member */
}

void aplan__itree_build(aplan__itree *t, const aplan_problem *p, const uint64_t *offsets, uint32_t *order,
                        uint32_t *maxup, uint32_t *tmp, size_t count) {
    t->problem = p;
    t->offsets = offsets;
    t->order = order;
    t->maxup = maxup;
    t->count = count;
    aplan__sort_by(order, tmp, count, APLAN__BY_LOWER, p, NULL); /* stable over rising indices: (lower, index) */
    for (size_t k = 0; k < count; k++) maxup[k] = NONE;
    for (size_t k = 0; k < count; k++) {
        if (offsets[order[k]] != APLAN_NO_OFFSET) aplan__itree_place(t, order[k]);
    }
}

size_t aplan__itree_query(const aplan__itree *t, uint64_t lower, uint64_t upper, uint32_t *out) {
    if (lower >= upper || t->count == 0) return 0;
    size_t n = 0;
    size_t stack_lo[STACK], stack_hi[STACK];
    stack_lo[0] = 0;
    stack_hi[0] = t->count;
    for (size_t top = 1; top > 0;) {
        top--;
        size_t lo = stack_lo[top], hi = stack_hi[top];
        while (lo < hi) { /* the left part waits on the stack, the right part continues here */
            const size_t mid = lo + (hi - lo) / 2u;
            const uint32_t best = t->maxup[mid];
            if (best == NONE || aplan__upper(t->problem, best) <= lower) break; /* nothing placed here is live at lower */
            const uint32_t m = t->order[mid];
            if (aplan__lower(t->problem, m) >= upper) { /* m and everything right of it start too late */
                hi = mid;
                continue;
            }
            if (lo < mid) {
                APLAN_ASSERT(top < STACK);
                stack_lo[top] = lo;
                stack_hi[top] = mid;
                top++;
            }
            if (aplan__upper(t->problem, m) > lower && t->offsets[m] != APLAN_NO_OFFSET) out[n++] = m;
            lo = mid + 1u;
        }
    }
    return n;
}
