/* See oracle.h. Plain loops and divisions on purpose: nothing here shares code or tricks with src/core. */
#include "oracle.h"

static uint64_t align_of(const aplan_problem *p, size_t i) {
    return p->buffers[i].alignment ? p->buffers[i].alignment : p->alignment;
}

static uint64_t size_of(const aplan_problem *p, size_t i) {
    uint64_t s = p->buffers[i].size, a = align_of(p, i);
    if ((p->flags & APLAN_ROUND_SIZES) && s % a != 0) s = s - s % a + a; /* the problem is valid: no overflow */
    return s;
}

static bool fixed(const aplan_problem *p, size_t i) { return p->buffers[i].offset != APLAN_NO_OFFSET; }

static bool live_together(const aplan_problem *p, size_t i, size_t j) {
    const aplan_buffer *a = &p->buffers[i], *b = &p->buffers[j];
    const uint64_t lo = a->lower > b->lower ? a->lower : b->lower;
    const uint64_t hi = a->upper < b->upper ? a->upper : b->upper;
    return lo < hi;
}

static bool share_bytes(const aplan_problem *p, const uint64_t *off, size_t i, size_t j) {
    if (size_of(p, i) == 0 || size_of(p, j) == 0) return false;
    return off[i] < off[j] + size_of(p, j) && off[j] < off[i] + size_of(p, i);
}

bool oracle_pair_forbidden(const aplan_problem *p, const uint64_t *off, size_t i, size_t j) {
    if (i == j || !live_together(p, i, j) || !share_bytes(p, off, i, j)) return false;
    return !(fixed(p, i) && fixed(p, j) && (p->flags & APLAN_ALLOW_FIXED_ALIAS));
}

aplan_status oracle_verify(const aplan_problem *p, const uint64_t *off, uint64_t arena, size_t *buffer,
                           size_t *aliased) {
    uint64_t highest = 0;
    *buffer = APLAN_NO_BUFFER;
    *aliased = 0;
    for (size_t i = 0; i < p->count; i++) {
        aplan_status rule = APLAN_OK;
        if (off[i] == APLAN_NO_OFFSET) rule = APLAN_E_UNPLACED;
        else if (off[i] % align_of(p, i) != 0) rule = APLAN_E_MISALIGNED_OFFSET;
        else if (fixed(p, i) && off[i] != p->buffers[i].offset) rule = APLAN_E_FIXED_MOVED;
        else if (size_of(p, i) > UINT64_MAX - off[i]) rule = APLAN_E_SIZE_OVERFLOW;
        else if (off[i] + size_of(p, i) > arena) rule = APLAN_E_OUT_OF_ARENA;
        if (rule != APLAN_OK) {
            *buffer = i;
            return rule;
        }
        if (off[i] + size_of(p, i) > highest) highest = off[i] + size_of(p, i);
    }
    if (highest != arena) return APLAN_E_ARENA_MISMATCH;
    size_t allowed = 0;
    for (size_t i = 0; i < p->count; i++) {
        for (size_t j = i + 1; j < p->count; j++) {
            if (oracle_pair_forbidden(p, off, i, j)) return APLAN_E_OVERLAP;
            if (live_together(p, i, j) && share_bytes(p, off, i, j)) allowed++;
        }
    }
    if (arena > p->capacity) return APLAN_E_CAPACITY_EXCEEDED;
    *aliased = allowed;
    return APLAN_OK;
}

uint64_t oracle_bound(const aplan_problem *p, bool *overflow) {
    uint64_t best = 0;
    *overflow = false;
    for (size_t i = 0; i < p->count; i++) {
        uint64_t end = size_of(p, i) + (fixed(p, i) ? p->buffers[i].offset : 0);
        if (end > best) best = end;
        const uint64_t t = p->buffers[i].lower;
        if (t >= p->buffers[i].upper) continue;
        uint64_t sum = 0;
        for (size_t j = 0; j < p->count; j++) {
            const aplan_buffer *b = &p->buffers[j];
            if ((p->flags & APLAN_ALLOW_FIXED_ALIAS) && fixed(p, j)) continue;
            if (b->lower <= t && t < b->upper) {
                if (size_of(p, j) > UINT64_MAX - sum) *overflow = true;
                sum += size_of(p, j);
            }
        }
        if (sum > best) best = sum;
    }
    return best;
}

/*
 * The optimum by brute force: every order of the buffers that occupy memory, each placed at the lowest aligned offset
 * above every placed buffer it conflicts with (a fixed one at its offset, and the order is dropped when that lies
 * below). An optimal plan, read in order of offsets, is one of these orders and comes out no higher, so the least
 * height over all orders is the optimum. Heap's algorithm over at most ORACLE_MAX_EXACT buffers.
 */
/* The height of the plan that order gives, or false when the order keeps no fixed offset or passes 2^64 - 1. */
static bool height_of_order(const aplan_problem *p, const size_t *order, size_t n, uint64_t *off, uint64_t *out) {
    uint64_t height = 0;
    for (size_t k = 0; k < n; k++) {
        const size_t i = order[k];
        uint64_t at = 0;
        for (size_t j = 0; j < k; j++) {
            const size_t o = order[j];
            if (!live_together(p, i, o)) continue;
            if (fixed(p, i) && fixed(p, o) && (p->flags & APLAN_ALLOW_FIXED_ALIAS)) continue; /* may share bytes */
            const uint64_t end = off[o] + size_of(p, o);
            if (end > at) at = end;
        }
        const uint64_t a = align_of(p, i);
        if (at > UINT64_MAX - (a - 1u)) return false;
        at = (at + a - 1u) & ~(a - 1u);
        if (fixed(p, i)) {
            if (at > p->buffers[i].offset) return false;
            at = p->buffers[i].offset;
        }
        if (at > UINT64_MAX - size_of(p, i)) return false;
        off[i] = at;
        if (at + size_of(p, i) > height) height = at + size_of(p, i);
    }
    *out = height;
    return true;
}

bool oracle_optimum(const aplan_problem *p, uint64_t *optimum) {
    size_t order[ORACLE_MAX_EXACT] = {0}, c[ORACLE_MAX_EXACT] = {0}, n = 0;
    uint64_t off[ORACLE_MAX_EXACT], floor = 0, best = 0, h;
    for (size_t i = 0; i < p->count; i++) {
        const uint64_t s = size_of(p, i);
        if (s > floor) floor = s; /* every buffer lies inside the arena */
        if (fixed(p, i) && p->buffers[i].offset + s > floor) floor = p->buffers[i].offset + s;
        if (p->buffers[i].lower < p->buffers[i].upper && s != 0) {
            if (n == ORACLE_MAX_EXACT) return false;
            order[n++] = i;
        }
    }
    bool any = height_of_order(p, order, n, off, &best);
    for (size_t k = 1; k < n;) { /* Heap's algorithm, iterative */
        if (c[k] < k) {
            const size_t a = k % 2u == 0 ? 0 : c[k], t = order[a];
            order[a] = order[k];
            order[k] = t;
            if (height_of_order(p, order, n, off, &h) && (!any || h < best)) {
                best = h;
                any = true;
            }
            c[k]++;
            k = 1;
        } else {
            c[k++] = 0;
        }
    }
    if (any) *optimum = best > floor ? best : floor;
    return any;
}
