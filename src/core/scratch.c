/*
 * Scratch carving. Every size computation is checked: a layout for a huge problem must fail the size query with
 * APLAN_E_SIZE_OVERFLOW rather than wrap around and hand a strategy a buffer smaller than it believes.
 */
#include "internal.h"

void aplan__scratch_init(aplan__scratch *s, void *base, size_t size) {
    s->base = base;
    s->size = size;
    s->used = 0;
    s->failed = false;
}

void *aplan__scratch_take(aplan__scratch *s, size_t count, size_t elem_size, size_t align) {
    APLAN_ASSERT(align != 0 && (align & (align - 1u)) == 0 && align <= APLAN_SCRATCH_ALIGN);
    if (s->failed || count == 0) return NULL;
    size_t bytes;
    size_t start;
    /* used + align - 1 cannot overflow while used <= size, but size may be SIZE_MAX when measuring. */
    if (__builtin_mul_overflow(count, elem_size, &bytes) || __builtin_add_overflow(s->used, align - 1u, &start)) {
        s->failed = true;
        return NULL;
    }
    start &= ~(align - 1u);
    size_t end;
    if (__builtin_add_overflow(start, bytes, &end) || end > s->size) {
        s->failed = true;
        return NULL;
    }
    s->used = end;
    return s->base == NULL ? NULL : s->base + start;
}

bool aplan__take_u32_arrays(aplan__scratch *s, size_t n, uint32_t **arrays, size_t k) {
    for (size_t i = 0; i < k; i++) arrays[i] = aplan__scratch_take(s, n, sizeof(uint32_t), sizeof(uint32_t));
    return !s->failed;
}

aplan_status aplan__u32_arrays_size(size_t n, size_t k, size_t *bytes) {
    aplan__scratch s;
    uint32_t *unused[8];
    APLAN_ASSERT(k <= sizeof unused / sizeof unused[0]);
    aplan__scratch_init(&s, NULL, SIZE_MAX);
    if (!aplan__take_u32_arrays(&s, n, unused, k)) return APLAN_E_SIZE_OVERFLOW;
    *bytes = s.used;
    return APLAN_OK;
}

aplan_status aplan__scratch_check(const void *scratch, size_t scratch_size, size_t need) {
    if (need == 0) return APLAN_OK;
    if (scratch == NULL || scratch_size < need) return APLAN_E_SCRATCH_TOO_SMALL;
    if (((uintptr_t)scratch & (APLAN_SCRATCH_ALIGN - 1u)) != 0) return APLAN_E_SCRATCH_MISALIGNED;
    return APLAN_OK;
}
