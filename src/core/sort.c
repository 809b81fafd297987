/*
 * Heapsort: O(n log n) worst case and no memory beyond the array, which suits caller-provided scratch. It is not
 * stable, so every order used with it is total (ties fall back to the buffer index) and results stay deterministic.
 * Short arrays (the conflict lists greedy_by_size sorts for every buffer are mostly short) use insertion sort, which
 * is several times faster there; with a total order both give the same result.
 */
#include "internal.h"

#if !APLAN_COMPACT
static void sift_down(uint32_t *a, size_t root, size_t n, aplan__less_fn less, const void *ctx) {
    for (;;) {
        size_t child = 2u * root + 1u;
        if (child >= n) return;
        if (child + 1u < n && less(ctx, a[child], a[child + 1u])) child++;
        if (!less(ctx, a[root], a[child])) return;
        uint32_t t = a[root];
        a[root] = a[child];
        a[child] = t;
        root = child;
    }
}

#endif

void aplan__sort(uint32_t *items, size_t n, aplan__less_fn less, const void *ctx) {
    if (APLAN_COMPACT || n <= 16u) { /* compact builds trade the heapsort's O(n log n) for its code */
        for (size_t i = 1; i < n; i++) {
            const uint32_t x = items[i];
            size_t j = i;
            for (; j > 0 && less(ctx, x, items[j - 1u]); j--) items[j] = items[j - 1u];
            items[j] = x;
        }
        return;
    }
#if !APLAN_COMPACT
    for (size_t i = n / 2u; i-- > 0;) sift_down(items, i, n, less, ctx);
    for (size_t end = n - 1u; end > 0; end--) {
        uint32_t t = items[0];
        items[0] = items[end];
        items[end] = t;
        sift_down(items, 0, end, less, ctx);
    }
#endif
}

bool aplan__less_by_lower(const void *ctx, uint32_t a, uint32_t b) {
    const aplan_buffer *bu = ((const aplan_problem *)ctx)->buffers;
    if (bu[a].lower != bu[b].lower) return bu[a].lower < bu[b].lower;
    return a < b;
}

bool aplan__less_by_upper(const void *ctx, uint32_t a, uint32_t b) {
    const aplan_buffer *bu = ((const aplan_problem *)ctx)->buffers;
    if (bu[a].upper != bu[b].upper) return bu[a].upper < bu[b].upper;
    return a < b;
}

bool aplan__less_by_offset(const void *ctx, uint32_t a, uint32_t b) {
    const uint64_t *off = ((const struct aplan__by_offset *)ctx)->offsets;
    if (off[a] != off[b]) return off[a] < off[b];
    return a < b;
}
