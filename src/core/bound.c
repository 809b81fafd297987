/*
 * The lower bound. The sweep path sorts start and end steps (12 bytes of scratch per buffer: the two orders and the
 * radix sort's second array) and walks them once, O(n) for steps that fit a few bytes and O(n log n) at worst; the path without scratch sums the live sizes at every start step, O(n^2), and is the only one in
 * compact builds (APLAN_COMPACT). Both report the earliest step with the largest live sum, so they agree exactly.
 */
#include "internal.h"

/* Buffers that count in the live sum: they occupy memory, and under APLAN_ALLOW_FIXED_ALIAS they are not fixed
 * (aliased fixed buffers may share bytes, so summing them would overstate the bound; the highest fixed end still
 * bounds them). */
static bool counts(const aplan_problem *p, size_t i) {
    if (!aplan__occupies(p, i)) return false;
    return (p->flags & APLAN_ALLOW_FIXED_ALIAS) == 0 || aplan__fixed(p, i) == APLAN_NO_OFFSET;
}

enum { BY_LOWER, BY_UPPER, TMP, ARRAYS }; /* scratch: three index arrays */

aplan_status aplan_lower_bound_scratch_size(const aplan_problem *problem, size_t *bytes) {
    if (problem == NULL || bytes == NULL) return APLAN_E_INVALID_ARG;
#if APLAN_COMPACT
    *bytes = 0; /* compact builds keep only the path without scratch */
    return APLAN_OK;
#else
    return aplan__u32_arrays_size(problem->count, ARRAYS, bytes);
#endif
}

/* The largest size and the highest fixed end: every buffer lies inside the arena. */
static uint64_t static_part(const aplan_problem *p) {
    uint64_t best = 0;
    for (size_t i = 0; i < p->count; i++) {
        uint64_t end = aplan__size(p, i);
        if (aplan__fixed(p, i) != APLAN_NO_OFFSET) end += aplan__fixed(p, i); /* validated: no overflow */
        if (end > best) best = end;
    }
    return best;
}

#if !APLAN_COMPACT
static aplan_status sweep(const aplan_problem *p, void *scratch, size_t scratch_size, uint64_t *peak,
                          uint64_t *peak_step) {
    aplan__scratch s;
    uint32_t *w[ARRAYS];
    aplan__scratch_init(&s, scratch, scratch_size);
    bool carved = aplan__take_u32_arrays(&s, p->count, w, ARRAYS);
    APLAN_ASSERT(carved); /* the caller checked the size */
    (void)carved;
    uint32_t *by_lower = w[BY_LOWER], *by_upper = w[BY_UPPER];
    size_t m = 0;
    for (size_t i = 0; i < p->count; i++) {
        if (counts(p, i)) {
            by_lower[m] = (uint32_t)i;
            by_upper[m] = (uint32_t)i;
            m++;
        }
    }
    aplan__sort_by(by_lower, w[TMP], m, APLAN__BY_LOWER, p, NULL);
    aplan__sort_by(by_upper, w[TMP], m, APLAN__BY_UPPER, p, NULL);
    uint64_t live = 0;
    size_t j = 0;
    for (size_t i = 0; i < m;) {
        const uint64_t t = aplan__lower(p, by_lower[i]);
        for (; j < m && aplan__upper(p, by_upper[j]) <= t; j++) live -= aplan__size(p, by_upper[j]);
        for (; i < m && aplan__lower(p, by_lower[i]) == t; i++) {
            if (!aplan__add(live, aplan__size(p, by_lower[i]), &live)) return APLAN_E_SIZE_OVERFLOW;
        }
        if (live > *peak) {
            *peak = live;
            *peak_step = t;
        }
    }
    return APLAN_OK;
}
#endif

static aplan_status pairwise(const aplan_problem *p, uint64_t *peak, uint64_t *peak_step) {
    for (size_t i = 0; i < p->count; i++) {
        if (!counts(p, i)) continue;
        const uint64_t t = aplan__lower(p, i);
        uint64_t live = 0;
        for (size_t j = 0; j < p->count; j++) {
            if (counts(p, j) && aplan__lower(p, j) <= t && t < aplan__upper(p, j) &&
                !aplan__add(live, aplan__size(p, j), &live)) {
                return APLAN_E_SIZE_OVERFLOW;
            }
        }
        if (live > *peak || (live == *peak && live != 0 && t < *peak_step)) {
            *peak = live;
            *peak_step = t;
        }
    }
    return APLAN_OK;
}

aplan_status aplan__lower_bound(const aplan_problem *p, void *scratch, size_t scratch_size, uint64_t *bound,
                                uint64_t *step) {
    uint64_t peak = 0;
    uint64_t peak_step = 0;
#if APLAN_COMPACT
    (void)scratch;
    (void)scratch_size;
    aplan_status st = pairwise(p, &peak, &peak_step);
#else
    aplan_status st = scratch != NULL ? sweep(p, scratch, scratch_size, &peak, &peak_step)
                                      : pairwise(p, &peak, &peak_step);
#endif
    if (st != APLAN_OK) return st;
    const uint64_t fixed = static_part(p);
    *bound = peak > fixed ? peak : fixed;
    if (step != NULL) *step = peak_step;
    return APLAN_OK;
}

aplan_status aplan_lower_bound(const aplan_problem *problem, void *scratch, size_t scratch_size, uint64_t *bound,
                               uint64_t *step) {
    if (bound == NULL) return APLAN_E_INVALID_ARG;
    aplan_status st = aplan_problem_validate(problem, NULL);
    if (st != APLAN_OK) return st;
    if (scratch != NULL) {
        size_t need;
        if ((st = aplan_lower_bound_scratch_size(problem, &need)) != APLAN_OK) return st;
        if ((st = aplan__scratch_check(scratch, scratch_size, need)) != APLAN_OK) return st;
    }
    return aplan__lower_bound(problem, scratch, scratch_size, bound, step);
}
