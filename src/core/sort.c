/*
 * Sorting buffer indices by one key of the buffer (its lower or upper step, its offset, its size), or by a 32-bit key
 * a strategy computed for each (aplan__sort_by_key).
 *
 * Long arrays: a least-significant-digit radix sort on the key's bytes, 8 bits per pass. It is stable (equal keys
 * keep their order in the input, so an input listed by rising index comes out tied by index, the total order every
 * strategy needs for deterministic results), it moves each item once per pass, and it skips every byte in which all
 * keys agree, so a key that spans 20 bits (steps of a million-buffer model) costs 3 passes, not 8. O(n * passes)
 * time, which is O(n) for a fixed key width; no comparator calls through a pointer. Needs a second array of n
 * entries and 1 KiB of stack for the counts.
 *
 * Short arrays (and every array in compact builds, where code matters more than time): insertion sort, which is
 * stable too and faster below a few dozen items.
 */
#include "internal.h"

/* data: the offsets for APLAN__BY_OFFSET, the uint32_t keys for APLAN__BY_KEY32, unused otherwise. */
static inline uint64_t key_of(aplan__key key, const aplan_problem *p, const void *data, uint32_t i) {
    switch (key) {
    case APLAN__BY_LOWER:
        return p->buffers[i].lower;
    case APLAN__BY_UPPER:
        return p->buffers[i].upper;
    case APLAN__BY_OFFSET:
        return ((const uint64_t *)data)[i];
    case APLAN__BY_SIZE_DESC:
        return ~aplan__size(p, i);
    case APLAN__BY_KEY32:
        return ((const uint32_t *)data)[i];
    }
    return 0;
}

static void insertion(uint32_t *items, size_t n, aplan__key key, const aplan_problem *p, const void *data) {
    for (size_t i = 1; i < n; i++) {
        const uint32_t x = items[i];
        const uint64_t kx = key_of(key, p, data, x);
        size_t j = i;
        for (; j > 0 && kx < key_of(key, p, data, items[j - 1u]); j--) items[j] = items[j - 1u];
        items[j] = x;
    }
}

#if !APLAN_COMPACT
/* One function per key, so that key_of's switch is resolved at compile time inside the passes. */
static inline void radix(uint32_t *items, uint32_t *tmp, size_t n, aplan__key key, const aplan_problem *p,
                         const void *data) {
    uint64_t any = 0, all = ~(uint64_t)0;
    for (size_t i = 0; i < n; i++) {
        const uint64_t k = key_of(key, p, data, items[i]);
        any |= k;
        all &= k;
    }
    const uint64_t varying = any ^ all; /* bits that differ between some two keys */
    uint32_t *from = items, *to = tmp;
    for (unsigned shift = 0; shift < 64u; shift += 8u) {
        if (((varying >> shift) & 0xFFu) == 0) continue;
        uint32_t count[256] = {0}; /* n < 2^32: items are uint32 indices into one problem */
        for (size_t i = 0; i < n; i++) count[(key_of(key, p, data, from[i]) >> shift) & 0xFFu]++;
        uint32_t at = 0;
        for (unsigned d = 0; d < 256u; d++) {
            const uint32_t c = count[d];
            count[d] = at;
            at += c;
        }
        for (size_t i = 0; i < n; i++) {
            const uint32_t x = from[i];
            to[count[(key_of(key, p, data, x) >> shift) & 0xFFu]++] = x;
        }
        uint32_t *t = from;
        from = to;
        to = t;
    }
    if (from != items) APLAN_MEMCPY(items, from, n * sizeof *items);
}
#endif

void aplan__sort_by(uint32_t *items, uint32_t *tmp, size_t n, aplan__key key, const aplan_problem *p,
                    const uint64_t *offsets) {
#if !APLAN_COMPACT
    if (n > 48u && tmp != NULL) {
        switch (key) {
        case APLAN__BY_LOWER:
            radix(items, tmp, n, APLAN__BY_LOWER, p, offsets);
            return;
        case APLAN__BY_UPPER:
            radix(items, tmp, n, APLAN__BY_UPPER, p, offsets);
            return;
        case APLAN__BY_OFFSET:
            radix(items, tmp, n, APLAN__BY_OFFSET, p, offsets);
            return;
        case APLAN__BY_SIZE_DESC:
            radix(items, tmp, n, APLAN__BY_SIZE_DESC, p, offsets);
            return;
        case APLAN__BY_KEY32:
            break; /* aplan__sort_by_key's */
        }
    }
#else
    (void)tmp;
#endif
    insertion(items, n, key, p, offsets);
}

void aplan__sort_by_key(uint32_t *items, uint32_t *tmp, size_t n, const uint32_t *keys) {
#if !APLAN_COMPACT
    if (n > 48u && tmp != NULL) {
        radix(items, tmp, n, APLAN__BY_KEY32, NULL, keys);
        return;
    }
#else
    (void)tmp;
#endif
    insertion(items, n, APLAN__BY_KEY32, NULL, keys);
}

aplan_status aplan_sort_indices(uint32_t *items, uint32_t *tmp, size_t n, const uint64_t *keys) {
    if (n == 0) return APLAN_OK;
    if (items == NULL || keys == NULL || (tmp == NULL && !APLAN_COMPACT) || n > APLAN_MAX_BUFFERS)
        return APLAN_E_INVALID_ARG;
    aplan__sort_by(items, tmp, n, APLAN__BY_OFFSET, NULL, keys);
    return APLAN_OK;
}
