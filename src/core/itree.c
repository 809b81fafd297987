/*
 * Static interval tree over lifetimes. The members are sorted by lower step and read as an implicit balanced binary
 * tree (the middle of a range is its root), each node remembering the member with the largest upper step below it.
 * A query then skips every subtree that ends before the query starts and every right part that starts after it
 * ends, so it costs O(log m + hits) instead of a scan of all members. Recursion depth is log2(m) + 1 <= 33.
 */
#include "internal.h"

static uint64_t upper_of(const aplan__itree *t, uint32_t member) { return t->problem->buffers[member].upper; }

static uint32_t build(aplan__itree *t, size_t lo, size_t hi) {
    size_t mid = lo + (hi - lo) / 2u;
    uint32_t best = t->order[mid];
    if (lo < mid) {
        uint32_t l = build(t, lo, mid);
        if (upper_of(t, l) > upper_of(t, best)) best = l;
    }
    if (mid + 1u < hi) {
        uint32_t r = build(t, mid + 1u, hi);
        if (upper_of(t, r) > upper_of(t, best)) best = r;
    }
    t->maxup[mid] = best;
    return best;
}

void aplan__itree_build(aplan__itree *t, const aplan_problem *p, uint32_t *order, uint32_t *maxup, size_t count) {
    t->problem = p;
    t->order = order;
    t->maxup = maxup;
    t->count = count;
    aplan__sort(order, count, aplan__less_by_lower, p);
    if (count > 0) (void)build(t, 0, count);
}

typedef struct {
    const aplan__itree *t;
    uint64_t lower, upper;
    bool (*keep)(const void *ctx, uint32_t member);
    const void *ctx;
    uint32_t *out;
    size_t n;
} query_state;

static void query(query_state *q, size_t lo, size_t hi) {
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2u;
        const aplan__itree *t = q->t;
        if (upper_of(t, t->maxup[mid]) <= q->lower) return;
        query(q, lo, mid);
        uint32_t m = t->order[mid];
        const aplan_buffer *b = &t->problem->buffers[m];
        if (b->lower >= q->upper) return;
        if (b->upper > q->lower && (q->keep == NULL || q->keep(q->ctx, m))) q->out[q->n++] = m;
        lo = mid + 1u; /* the right part as a loop: only the left part recurses */
    }
}

size_t aplan__itree_query(const aplan__itree *t, uint64_t lower, uint64_t upper,
                          bool (*keep)(const void *ctx, uint32_t member), const void *ctx, uint32_t *out) {
    query_state q = {t, lower, upper, keep, ctx, out, 0};
    if (lower < upper) query(&q, 0, t->count);
    return q.n;
}
