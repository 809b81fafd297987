/* The placement step shared by first_fit and linear: the lowest aligned gap among neighbours (the greedy engine has
 * its own walk over the neighbours' spans, greedy.c, with the same result). */
#include "internal.h"

aplan_status aplan__first_gap(const aplan_problem *p, const uint64_t *offsets, const uint32_t *nb, size_t count,
                              size_t *pos, uint64_t floor, uint64_t size, uint64_t align, uint64_t *out) {
    uint64_t c;
    uint64_t c_end;
    if (!aplan__align_up(floor, align, &c) || !aplan__add(c, size, &c_end)) return APLAN_E_SIZE_OVERFLOW;
    size_t k = *pos;
    for (; k < count; k++) {
        const uint32_t j = nb[k];
        const uint64_t j_off = offsets[j];
        const uint64_t j_size = aplan__size(p, j);
        if (j_size == 0) continue;
        if (j_off >= c_end) break; /* [c, c_end) fits below j, and every later neighbour starts at or above j */
        /* j was placed by a verified rule or is a validated fixed buffer: its end fits 64 bits. */
        const uint64_t j_end = j_off + j_size;
        if (j_end > c) {
            if (!aplan__align_up(j_end, align, &c) || !aplan__add(c, size, &c_end)) return APLAN_E_SIZE_OVERFLOW;
        }
    }
    *pos = k;
    *out = c;
    return APLAN_OK;
}
