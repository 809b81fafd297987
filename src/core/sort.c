/*
 * Sorting buffer indices by one key of the buffer (its lower or upper step, its offset, its size), or by a 32-bit key
 * a strategy computed for each (aplan__sort_by_key).
 *
 * Long arrays: a least-significant-digit radix sort on the key's bytes, 8 bits per pass, unless a bounded insertion
 * sort finds them nearly in order first. It is stable (equal keys keep their order in the input, so an input listed
 * by rising index comes out tied by index, the total order every strategy needs for deterministic results), it
 * moves each item once per pass, and it skips every byte in which all keys agree, so a key that spans 20 bits (steps
 * of a million-buffer model) costs 3 passes, not 8. O(n * passes) time, which is O(n) for a fixed key width; no
 * comparator calls through a pointer. Needs a second array of n entries and 1.25 KiB of stack (the counts, and the
 * next byte's digits of a pass's first 256 items).
 *
 * Short arrays (and every array in compact builds, where code matters more than time): insertion sort, which is
 * stable too and faster below a few dozen items.
 */
#include "internal.h"

/* data: the offsets for APLAN__BY_OFFSET, the uint32_t keys for APLAN__BY_KEY32, unused otherwise. */
static inline uint64_t key_of(aplan__key key, const aplan_problem *p, const void *data, uint32_t i) {
    switch (key) {
    case APLAN__BY_LOWER:
        return aplan__lower(p, i);
    case APLAN__BY_UPPER:
        return aplan__upper(p, i);
    case APLAN__BY_OFFSET:
        return ((const uint64_t *)data)[i];
    case APLAN__BY_SIZE_DESC:
        return ~aplan__size(p, i);
    case APLAN__BY_KEY32:
        return ((const uint32_t *)data)[i];
    }
    return 0;
}

/* Insertion sort, reading the keys in the items' order, while it moves at most `moves` items in all. true when that
 * sorted them; else false, with the items still a permutation of the input in which equal keys keep their input
 * order (an item only ever moves past greater keys), so a stable sort that follows gives exactly the order it gives
 * on the input. O(n + moves). Short arrays pass a budget they cannot use up (n^2 / 2 moves at most); long ones 2 n,
 * to finish what is nearly in order already: buffers listed by step, as models and traces list them, sorted by
 * their lower step (sorted by upper they are not: 27 moves per buffer on a generated million-buffer trace, against
 * 0.39 by lower). */
static bool insertion(uint32_t *items, size_t n, aplan__key key, const aplan_problem *p, const void *data,
                      uint64_t moves) {
    for (size_t i = 1; i < n; i++) {
        const uint32_t x = items[i];
        const uint64_t kx = key_of(key, p, data, x);
        size_t j = i;
        for (; j > 0 && kx < key_of(key, p, data, items[j - 1u]); j--) {
            if (moves-- == 0) {
                items[j] = x;
                return false;
            }
            items[j] = items[j - 1u];
        }
        items[j] = x;
    }
    return true;
}

#if !APLAN_COMPACT
/* The digit of key k at shift. */
#define DIGIT(k, shift) ((uint32_t)((k) >> (shift)) & 0xFFu)

/* One function per key, so that key_of's switch is resolved at compile time inside the passes. Each key is read
 * once per pass and once more: the first read (which finds the bytes that vary) also counts the lowest byte's
 * digits, and each scatter counts the next varying byte's as it goes, so no pass reads the keys only to count
 * them. The keys sit behind the items (a buffer's field, an offset), so after the first pass every read is a
 * cache miss: halving the reads is most of the sort's time on large problems. */
static inline void radix(uint32_t *items, uint32_t *tmp, size_t n, aplan__key key, const aplan_problem *p,
                         const void *data) {
    uint32_t count[256] = {0};
    uint64_t any = 0, all = ~(uint64_t)0;
    for (size_t i = 0; i < n; i++) {
        const uint64_t k = key_of(key, p, data, items[i]);
        any |= k;
        all &= k;
        count[DIGIT(k, 0u)]++;
    }
    const uint64_t varying = any ^ all; /* bits that differ between some two keys */
    unsigned shift = 0;
    while (shift < 64u && DIGIT(varying, shift) == 0) shift += 8u;
    if (shift >= 64u) return; /* every key is the same: already in order */
    if (shift > 0) { /* byte 0 agrees everywhere: count the first byte that varies instead */
        APLAN_MEMSET(count, 0, sizeof count);
        for (size_t i = 0; i < n; i++) count[DIGIT(key_of(key, p, data, items[i]), shift)]++;
    }
    uint32_t *from = items, *to = tmp;
    while (shift < 64u) {
        unsigned after = shift + 8u;
        while (after < 64u && DIGIT(varying, after) == 0) after += 8u;
        uint32_t at = 0; /* n < 2^32: items are uint32 indices into one problem */
        for (unsigned d = 0; d < 256u; d++) {
            const uint32_t c = count[d];
            count[d] = at;
            at += c;
        }
        if (after < 64u && n > 256u) {
            /* The next byte's counts go where this pass's first 256 items were, once they are read; their digits
             * wait in head meanwhile, so the counts need no second 1 KiB array on the stack. */
            uint8_t head[256];
            for (size_t i = 0; i < 256u; i++) {
                const uint32_t x = from[i];
                const uint64_t k = key_of(key, p, data, x);
                to[count[DIGIT(k, shift)]++] = x;
                head[i] = (uint8_t)DIGIT(k, after);
            }
            uint32_t *next = from;
            APLAN_MEMSET(next, 0, 256u * sizeof *next);
            for (size_t i = 0; i < 256u; i++) next[head[i]]++;
            for (size_t i = 256u; i < n; i++) {
                const uint32_t x = from[i];
                const uint64_t k = key_of(key, p, data, x);
                to[count[DIGIT(k, shift)]++] = x;
                next[DIGIT(k, after)]++;
            }
            APLAN_MEMCPY(count, next, sizeof count);
        } else {
            for (size_t i = 0; i < n; i++) {
                const uint32_t x = from[i];
                to[count[DIGIT(key_of(key, p, data, x), shift)]++] = x;
            }
            if (after < 64u) { /* a short list: count the next byte by reading the keys again */
                APLAN_MEMSET(count, 0, sizeof count);
                for (size_t i = 0; i < n; i++) count[DIGIT(key_of(key, p, data, to[i]), after)]++;
            }
        }
        uint32_t *t = from;
        from = to;
        to = t;
        shift = after;
    }
    if (from != items) APLAN_MEMCPY(items, from, n * sizeof *items);
}
#undef DIGIT
#endif

/* Long arrays get a budget of 2 n moves before the radix sort takes over (called here, not from radix, so that its
 * frame is not stacked on the radix's 1.25 KiB); short ones, and every array in compact builds, one they cannot use
 * up. */
static inline uint64_t moves_for(size_t n, const uint32_t *tmp) {
    return !APLAN_COMPACT && n > 48u && tmp != NULL ? 2u * (uint64_t)n : UINT64_MAX;
}

void aplan__sort_by(uint32_t *items, uint32_t *tmp, size_t n, aplan__key key, const aplan_problem *p,
                    const void *data) {
    if (insertion(items, n, key, p, data, moves_for(n, tmp))) return;
#if !APLAN_COMPACT
    switch (key) {
    case APLAN__BY_LOWER:
        radix(items, tmp, n, APLAN__BY_LOWER, p, data);
        return;
    case APLAN__BY_UPPER:
        radix(items, tmp, n, APLAN__BY_UPPER, p, data);
        return;
    case APLAN__BY_OFFSET:
        radix(items, tmp, n, APLAN__BY_OFFSET, p, data);
        return;
    case APLAN__BY_SIZE_DESC:
        radix(items, tmp, n, APLAN__BY_SIZE_DESC, p, data);
        return;
    case APLAN__BY_KEY32:
        radix(items, tmp, n, APLAN__BY_KEY32, p, data);
        return;
    }
#endif
}

aplan_status aplan_sort_indices(uint32_t *items, uint32_t *tmp, size_t n, const uint64_t *keys) {
    if (n == 0) return APLAN_OK;
    if (items == NULL || keys == NULL || (tmp == NULL && !APLAN_COMPACT) || n > APLAN_MAX_BUFFERS)
        return APLAN_E_INVALID_ARG;
    aplan__sort_by(items, tmp, n, APLAN__BY_OFFSET, NULL, keys);
    return APLAN_OK;
}
