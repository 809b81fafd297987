/*
 * The verifier. Rules 1-5 and 7 are per buffer or per plan, O(n). Rule 6 (no overlap) has two paths:
 *
 * Sweep, O(n log n) with scratch: walk the steps in order; at each step first retire buffers whose lifetime ended
 * (half-open: one that ends at t and one that starts at t may share bytes), then admit the ones that start. The live
 * buffers sit in a segment tree over all buffers sorted by offset, each node holding the live member with the
 * highest end below it. A new buffer [o, e) overlaps a live one iff some live member among those with offset < e
 * ends above o: one descent of the tree restricted to that prefix finds it, or, when fixed buffers may alias, lists
 * every such member in O((hits + 1) log n).
 *
 * Without aliasing the live buffers never share bytes until the first failure, so a new buffer overlaps a live one
 * iff it overlaps its nearest live neighbour below or above in that offset order (one below it that overlapped would
 * be the nearest, as any nearer one would overlap that one). The sweep then keeps only a bit per position, in a
 * 64-ary bit tree whose next/previous set bit takes one word per level: O(n) words touched, a few levels deep, where
 * the segment tree takes a cache miss per level on large problems. It reports the same pair the descent would (the
 * overlapping live buffer with the lowest offset).
 *
 * Pairwise, O(n^2) without memory, for devices that cannot spare scratch; compact builds (APLAN_COMPACT) keep only
 * this path for the verifier.
 *
 * The segment tree's sweep is also aplan_overlaps, which lists every overlapping pair of the placed buffers for a
 * caller (the CLI's aliased pairs, a plan's clashes): it is the one copy of that algorithm, in every build.
 *
 * Scratch: 16 bytes per buffer plus the segment tree (2 x the next power of two >= n entries of 4 bytes), so at most
 * 32 bytes per buffer.
 */
#include <limits.h>

#include "internal.h"

#define NONE UINT32_MAX

typedef struct {
    const aplan_problem *p;
    const uint64_t *off;
    uint32_t *by_off; /* occupying buffers sorted by (offset, index) */
    uint32_t *pos;    /* buffer -> position in by_off */
    uint32_t *seg;    /* segment tree, 1-based, leaves at [leaves, 2 * leaves) */
    size_t leaves;
    size_t m;         /* occupying buffers */
    aplan_report *report;
} sweep_state;

static size_t leaves_for(size_t n) {
    size_t leaves = 1;
    while (leaves < n) {
        if (leaves > SIZE_MAX / 2u) return 0;
        leaves *= 2u;
    }
    return leaves;
}

static void layout(aplan__scratch *s, size_t n, uint32_t **by_lower, uint32_t **by_upper, uint32_t **by_off,
                   uint32_t **pos, uint32_t **seg, size_t *leaves) {
    *leaves = leaves_for(n);
    *by_lower = aplan__scratch_take(s, n, sizeof(uint32_t), sizeof(uint32_t));
    *by_upper = aplan__scratch_take(s, n, sizeof(uint32_t), sizeof(uint32_t));
    *by_off = aplan__scratch_take(s, n, sizeof(uint32_t), sizeof(uint32_t));
    *pos = aplan__scratch_take(s, n, sizeof(uint32_t), sizeof(uint32_t));
    if (n == 0) return; /* nothing to sweep: no tree */
    if (*leaves == 0) {
        s->failed = true;
        return;
    }
    *seg = aplan__scratch_take(s, *leaves, 2u * sizeof(uint32_t), sizeof(uint64_t)); /* also the bit tree's words */
}

static aplan_status sweep_scratch_size(size_t n, size_t *bytes) {
    aplan__scratch s;
    uint32_t *a, *b, *c, *d, *e;
    size_t leaves;
    aplan__scratch_init(&s, NULL, SIZE_MAX);
    layout(&s, n, &a, &b, &c, &d, &e, &leaves);
    if (s.failed) return APLAN_E_SIZE_OVERFLOW;
    *bytes = s.used;
    return APLAN_OK;
}

aplan_status aplan_verify_scratch_size(const aplan_problem *problem, size_t *bytes) {
    if (problem == NULL || bytes == NULL) return APLAN_E_INVALID_ARG;
#if APLAN_COMPACT
    *bytes = 0; /* compact builds keep only the pairwise path */
    return APLAN_OK;
#else
    return sweep_scratch_size(problem->count, bytes);
#endif
}

static uint64_t end_of(const aplan_problem *p, const uint64_t *off, size_t i) {
    return off[i] + aplan__size(p, i); /* checked by rule 4 before any overlap test */
}

/* Reports an overlap between i and j, or counts it as an allowed alias. Returns true when it is a failure. */
static bool conflict(const aplan_problem *p, const uint64_t *off, size_t i, size_t j, aplan_report *r) {
    const aplan_buffer *a = &p->buffers[i];
    const aplan_buffer *b = &p->buffers[j];
    const bool both_fixed = a->offset != APLAN_NO_OFFSET && b->offset != APLAN_NO_OFFSET;
    if (both_fixed && (p->flags & APLAN_ALLOW_FIXED_ALIAS) != 0) {
        r->aliased_pairs++;
        return false;
    }
    const size_t lo = i < j ? i : j;
    const size_t hi = i < j ? j : i;
    aplan__report_buffer(r, both_fixed ? APLAN_E_FIXED_OVERLAP : APLAN_E_OVERLAP, lo);
    r->buffer_b = hi;
    r->step_lo = a->lower > b->lower ? a->lower : b->lower;
    r->step_hi = a->upper < b->upper ? a->upper : b->upper;
    r->byte_lo = off[i] > off[j] ? off[i] : off[j];
    const uint64_t ei = end_of(p, off, i);
    const uint64_t ej = end_of(p, off, j);
    r->byte_hi = ei < ej ? ei : ej;
    return true;
}

static bool memory_intersects(const aplan_problem *p, const uint64_t *off, size_t i, size_t j) {
    return off[i] < end_of(p, off, j) && off[j] < end_of(p, off, i);
}

static aplan_status pairwise(const aplan_problem *p, const uint64_t *off, aplan_report *r) {
    for (size_t i = 0; i < p->count; i++) {
        for (size_t j = i + 1u; j < p->count; j++) {
            if (aplan_buffers_conflict(p, i, j) && memory_intersects(p, off, i, j) && conflict(p, off, i, j, r)) {
                return r->rule;
            }
        }
    }
    return APLAN_OK;
}

static void seg_set(sweep_state *s, uint32_t buffer, bool live) {
    size_t node = s->leaves + s->pos[buffer];
    s->seg[node] = live ? buffer : NONE;
    for (node /= 2u; node >= 1u; node /= 2u) {
        const uint32_t l = s->seg[2u * node];
        const uint32_t r = s->seg[2u * node + 1u];
        uint32_t best = l;
        if (l == NONE || (r != NONE && end_of(s->p, s->off, r) > end_of(s->p, s->off, l))) best = r;
        s->seg[node] = best;
    }
}

/* What the segment tree's sweep calls for each live buffer that shares bytes with x, the one being admitted; it
 * returns false to stop the sweep. */
typedef bool (*overlap_found)(void *context, uint32_t live, uint32_t x);

/* Admits buffer x after calling found for every live buffer it shares bytes with, lowest offset first. Returns false
 * when found stopped the sweep (x is then not admitted). */
static bool admit(sweep_state *s, uint32_t x, overlap_found found, void *context) {
    const uint64_t x_off = s->off[x];
    const uint64_t x_end = end_of(s->p, s->off, x);
    /* prefix = number of occupying buffers whose offset is below x_end */
    size_t lo = 0, hi = s->m;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2u;
        if (s->off[s->by_off[mid]] < x_end) lo = mid + 1u; else hi = mid;
    }
    const size_t prefix = lo;
    /* Depth-first, left child first, so the lowest offset overlapping x is met first. Each level leaves at most
     * one sibling pending and the tree has at most one level per bit of size_t, so that many entries, twice,
     * suffice (128 on a 64-bit host, 64 on a 32-bit device). */
    enum { DEPTH = 2 * (int)sizeof(size_t) * CHAR_BIT };
    size_t stack[DEPTH];
    size_t node_lo[DEPTH];
    size_t width[DEPTH];
    size_t top = 0;
    stack[top] = 1;
    node_lo[top] = 0;
    width[top] = s->leaves;
    top++;
    bool go_on = true;
    while (top > 0 && go_on) {
        top--;
        const size_t node = stack[top];
        const size_t nlo = node_lo[top];
        const size_t w = width[top];
        const uint32_t best = s->seg[node];
        if (nlo >= prefix || best == NONE || end_of(s->p, s->off, best) <= x_off) continue;
        if (w == 1u) {
            go_on = found(context, best, x);
            continue;
        }
        stack[top] = 2u * node + 1u;
        node_lo[top] = nlo + w / 2u;
        width[top] = w / 2u;
        top++;
        stack[top] = 2u * node;
        node_lo[top] = nlo;
        width[top] = w / 2u;
        top++;
    }
    if (go_on) seg_set(s, x, true);
    return go_on;
}

/*
 * The sweep's setup: carves the scratch and lists, sorted, the members, the buffers that occupy memory and are
 * placed (offsets[i] != APLAN_NO_OFFSET), whose ends the caller has checked to fit 64 bits. O(m log m) (radix
 * sorts; insertion sorts in compact builds).
 */
static void sweep_init(sweep_state *s, const aplan_problem *p, const uint64_t *off, void *scratch, size_t scratch_size,
                       uint32_t **by_lower, uint32_t **by_upper) {
    aplan__scratch sc;
    *s = (sweep_state){.p = p, .off = off};
    aplan__scratch_init(&sc, scratch, scratch_size);
    layout(&sc, p->count, by_lower, by_upper, &s->by_off, &s->pos, &s->seg, &s->leaves);
    APLAN_ASSERT(!sc.failed);
    size_t m = 0;
    for (size_t i = 0; i < p->count; i++) {
        if (aplan__occupies(p, i) && off[i] != APLAN_NO_OFFSET) {
            (*by_lower)[m] = (*by_upper)[m] = s->by_off[m] = (uint32_t)i;
            m++;
        }
    }
    s->m = m;
    if (m == 0) return;
    /* pos is free until the orders are known: it is the sorts' second array. */
    aplan__sort_by(s->by_off, s->pos, m, APLAN__BY_OFFSET, p, off);
    aplan__sort_by(*by_lower, s->pos, m, APLAN__BY_LOWER, p, NULL);
    aplan__sort_by(*by_upper, s->pos, m, APLAN__BY_UPPER, p, NULL);
    for (size_t k = 0; k < m; k++) s->pos[s->by_off[k]] = (uint32_t)k;
}

/* Every pair of members live at a common step that share bytes, each once, when the later-starting one is admitted:
 * at each step, ends first ([lower, upper) is half-open), then starts by (lower, index). Returns false when found
 * stopped it. O((m + pairs) log m). */
static bool each_overlap(sweep_state *s, const uint32_t *by_lower, const uint32_t *by_upper, overlap_found found,
                         void *context) {
    const aplan_problem *p = s->p;
    for (size_t k = 0; k < 2u * s->leaves; k++) s->seg[k] = NONE;
    size_t j = 0;
    for (size_t i = 0; i < s->m;) {
        const uint64_t t = p->buffers[by_lower[i]].lower;
        for (; j < s->m && p->buffers[by_upper[j]].upper <= t; j++) seg_set(s, by_upper[j], false);
        for (; i < s->m && p->buffers[by_lower[i]].lower == t; i++) {
            if (!admit(s, by_lower[i], found, context)) return false;
        }
    }
    return true;
}

#if !APLAN_COMPACT
/* The set of live positions: bit p of level 0 is position p; bit q of level l + 1 says whether word q of level l is
 * non-zero. The top level is one word. */
typedef struct {
    uint64_t *w;
    size_t base[7]; /* first word of each level: 64^6 > 2^32 positions */
    unsigned levels;
} bit_tree;

static size_t bit_tree_words(size_t m, size_t *base, unsigned *levels) {
    size_t words = 0, count = m;
    unsigned l = 0;
    do {
        count = (count + 63u) / 64u;
        if (base != NULL) base[l] = words;
        words += count;
        l++;
    } while (count > 1u);
    if (levels != NULL) *levels = l;
    return words;
}

/* Lowest set bit of a non-zero word, and highest; without the builtins on 32-bit targets, where they may call
 * libgcc (the device side links no runtime library). */
static unsigned low_bit(uint64_t x) {
#if UINTPTR_MAX > 0xFFFFFFFFu
    return (unsigned)__builtin_ctzll(x);
#else
    unsigned n = 0;
    for (unsigned half = 32; half > 0; half /= 2u) {
        if ((x & ((((uint64_t)1) << half) - 1u)) == 0) {
            n += half;
            x >>= half;
        }
    }
    return n;
#endif
}

static unsigned high_bit(uint64_t x) {
#if UINTPTR_MAX > 0xFFFFFFFFu
    return 63u - (unsigned)__builtin_clzll(x);
#else
    unsigned n = 0;
    for (unsigned half = 32; half > 0; half /= 2u) {
        if ((x >> half) != 0) {
            n += half;
            x >>= half;
        }
    }
    return n;
#endif
}

static void bit_set(bit_tree *t, size_t p, bool on) {
    for (unsigned l = 0; l < t->levels; l++, p /= 64u) {
        uint64_t *word = &t->w[t->base[l] + p / 64u];
        const uint64_t bit = (uint64_t)1 << (p % 64u);
        if (on) {
            if (*word & bit) return; /* the levels above already say so */
            *word |= bit;
        } else {
            *word &= ~bit;
            if (*word != 0) return;
        }
    }
}

/* Nearest set position above p (up) or below p (!up), or SIZE_MAX. O(levels). */
static size_t bit_near(const bit_tree *t, size_t p, bool up) {
    unsigned l = 0;
    size_t q = p;
    for (;; l++, q /= 64u) {
        if (l == t->levels) return SIZE_MAX;
        const unsigned b = (unsigned)(q % 64u);
        uint64_t word = t->w[t->base[l] + q / 64u];
        word &= up ? (b == 63u ? 0 : ~(uint64_t)0 << (b + 1u)) : ((uint64_t)1 << b) - 1u;
        if (word != 0) {
            q = (q / 64u) * 64u + (up ? low_bit(word) : high_bit(word));
            break;
        }
    }
    while (l-- > 0) { /* down the levels, to the lowest (up) or highest (!up) set bit below */
        const uint64_t word = t->w[t->base[l] + q];
        q = q * 64u + (up ? low_bit(word) : high_bit(word));
    }
    return q;
}

/* The sweep without aliasing: admits x after checking its nearest live neighbours in offset order. */
static aplan_status sweep_disjoint(sweep_state *s, const uint32_t *by_lower, const uint32_t *by_upper) {
    bit_tree t;
    t.w = (uint64_t *)(void *)s->seg; /* the segment tree's room: 8 bytes per leaf, far more than the bits need */
    const size_t words = bit_tree_words(s->m, t.base, &t.levels);
    APLAN_ASSERT(words <= s->leaves);
    APLAN_MEMSET(t.w, 0, words * sizeof *t.w);
    const aplan_problem *p = s->p;
    size_t j = 0;
    for (size_t i = 0; i < s->m;) {
        const uint64_t step = p->buffers[by_lower[i]].lower;
        for (; j < s->m && p->buffers[by_upper[j]].upper <= step; j++) bit_set(&t, s->pos[by_upper[j]], false);
        for (; i < s->m && p->buffers[by_lower[i]].lower == step; i++) {
            const uint32_t x = by_lower[i];
            const size_t at = s->pos[x];
            const size_t below = bit_near(&t, at, false), above = bit_near(&t, at, true);
            if (below != SIZE_MAX && memory_intersects(p, s->off, s->by_off[below], x) &&
                conflict(p, s->off, s->by_off[below], x, s->report)) {
                return s->report->rule;
            }
            if (above != SIZE_MAX && memory_intersects(p, s->off, s->by_off[above], x) &&
                conflict(p, s->off, s->by_off[above], x, s->report)) {
                return s->report->rule;
            }
            bit_set(&t, at, true);
        }
    }
    return APLAN_OK;
}

/* The verifier's rule 6 under APLAN_ALLOW_FIXED_ALIAS: each pair is a failure, or an alias that is counted. */
static bool check_pair(void *context, uint32_t live, uint32_t x) {
    const sweep_state *s = context;
    return !conflict(s->p, s->off, live, x, s->report);
}

static aplan_status sweep(const aplan_problem *p, const uint64_t *off, void *scratch, size_t scratch_size,
                          aplan_report *r) {
    sweep_state s;
    uint32_t *by_lower, *by_upper;
    sweep_init(&s, p, off, scratch, scratch_size, &by_lower, &by_upper);
    s.report = r;
    if (s.m == 0) return APLAN_OK;
    if ((p->flags & APLAN_ALLOW_FIXED_ALIAS) == 0) return sweep_disjoint(&s, by_lower, by_upper);
    return each_overlap(&s, by_lower, by_upper, check_pair, &s) ? APLAN_OK : r->rule;
}
#endif

aplan_status aplan_verify(const aplan_problem *problem, const uint64_t *offsets, uint64_t arena_size,
                          void *scratch, size_t scratch_size, aplan_report *report) {
    aplan_report local;
    aplan_report *r = report != NULL ? report : &local;
    aplan_status st = aplan_problem_validate(problem, r);
    if (st != APLAN_OK) return st;
    if (offsets == NULL && problem->count != 0) {
        r->rule = APLAN_E_INVALID_ARG;
        return APLAN_E_INVALID_ARG;
    }
    if (scratch != NULL) {
        size_t need;
        if ((st = aplan_verify_scratch_size(problem, &need)) != APLAN_OK ||
            (st = aplan__scratch_check(scratch, scratch_size, need)) != APLAN_OK) {
            r->rule = st;
            return st;
        }
    }
    return aplan__verify(problem, offsets, arena_size, scratch, scratch_size, r);
}

aplan_status aplan__verify(const aplan_problem *p, const uint64_t *offsets, uint64_t arena_size, void *scratch,
                           size_t scratch_size, aplan_report *r) {
    aplan_status st;
    aplan_report_clear(r);
    uint64_t highest = 0;
    for (size_t i = 0; i < p->count; i++) {
        const uint64_t o = offsets[i];
        const uint64_t align = aplan__alignment(p, i);
        const uint64_t size = aplan__size(p, i);
        const uint64_t fixed = p->buffers[i].offset;
        uint64_t end;
        if (o == APLAN_NO_OFFSET) {
            aplan__report_buffer(r, APLAN_E_UNPLACED, i);
        } else if ((o & (align - 1u)) != 0) {
            aplan__report_value(r, APLAN_E_MISALIGNED_OFFSET, i, o, align);
        } else if (fixed != APLAN_NO_OFFSET && o != fixed) {
            aplan__report_value(r, APLAN_E_FIXED_MOVED, i, o, fixed);
        } else if (!aplan__add(o, size, &end)) {
            aplan__report_value(r, APLAN_E_SIZE_OVERFLOW, i, o, size);
        } else if (end > arena_size) {
            aplan__report_value(r, APLAN_E_OUT_OF_ARENA, i, end, arena_size);
        } else {
            if (end > highest) highest = end;
            continue;
        }
        return r->rule;
    }
    if (highest != arena_size) {
        aplan__report_value(r, APLAN_E_ARENA_MISMATCH, APLAN_NO_BUFFER, arena_size, highest);
        return APLAN_E_ARENA_MISMATCH;
    }
#if APLAN_COMPACT
    (void)scratch;
    (void)scratch_size;
    st = pairwise(p, offsets, r);
#else
    st = scratch != NULL ? sweep(p, offsets, scratch, scratch_size, r) : pairwise(p, offsets, r);
#endif
    if (st != APLAN_OK) {
        r->aliased_pairs = 0; /* how many were met before the failure depends on the path: say nothing */
        return st;
    }
    if (arena_size > p->capacity) {
        aplan__report_value(r, APLAN_E_CAPACITY_EXCEEDED, APLAN_NO_BUFFER, arena_size, p->capacity);
        return APLAN_E_CAPACITY_EXCEEDED;
    }
    return APLAN_OK;
}

/* aplan_overlaps: what its callback is given for a pair, built by conflict() into a report of its own. */
typedef struct {
    const aplan_problem *p;
    const uint64_t *off;
    aplan_overlap_fn found;
    void *context;
} overlaps_call;

static bool report_pair(void *context, uint32_t live, uint32_t x) {
    const overlaps_call *c = context;
    aplan_problem strict = *c->p;
    strict.flags &= ~APLAN_ALLOW_FIXED_ALIAS; /* so that conflict() describes the pair rather than counting it */
    aplan_report pair;
    aplan_report_clear(&pair);
    (void)conflict(&strict, c->off, live, x, &pair);
    return c->found(c->context, &pair);
}

aplan_status aplan_overlaps_scratch_size(const aplan_problem *problem, size_t *bytes) {
    if (problem == NULL || bytes == NULL) return APLAN_E_INVALID_ARG;
    return sweep_scratch_size(problem->count, bytes);
}

aplan_status aplan_overlaps(const aplan_problem *problem, const uint64_t *offsets, void *scratch, size_t scratch_size,
                            aplan_overlap_fn found, void *context, aplan_report *report) {
    aplan_report local;
    aplan_report *r = report != NULL ? report : &local;
    aplan_status st = aplan_problem_validate(problem, r);
    if (st != APLAN_OK) return st;
    if ((offsets == NULL && problem->count != 0) || found == NULL) {
        r->rule = APLAN_E_INVALID_ARG;
        return APLAN_E_INVALID_ARG;
    }
    size_t need;
    if ((st = aplan_overlaps_scratch_size(problem, &need)) != APLAN_OK ||
        (st = aplan__scratch_check(scratch, scratch_size, need)) != APLAN_OK) {
        r->rule = st;
        return st;
    }
    for (size_t i = 0; i < problem->count; i++) { /* every member's end must fit before the sweep compares ends */
        uint64_t end;
        if (offsets[i] != APLAN_NO_OFFSET && !aplan__add(offsets[i], aplan__size(problem, i), &end)) {
            aplan__report_value(r, APLAN_E_SIZE_OVERFLOW, i, offsets[i], aplan__size(problem, i));
            return APLAN_E_SIZE_OVERFLOW;
        }
    }
    if (problem->count == 0) return APLAN_OK;
    sweep_state s;
    uint32_t *by_lower, *by_upper;
    sweep_init(&s, problem, offsets, scratch, scratch_size, &by_lower, &by_upper);
    overlaps_call call = {problem, offsets, found, context};
    if (s.m != 0) (void)each_overlap(&s, by_lower, by_upper, report_pair, &call);
    return APLAN_OK;
}
