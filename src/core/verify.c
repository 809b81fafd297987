/*
 * The verifier. Rules 1-5 and 7 are per buffer or per plan, O(n). Rule 6 (no overlap) has two paths:
 *
 * Sweep, O(n log n) with scratch: walk the steps in order; at each step first retire buffers whose lifetime ended
 * (half-open: one that ends at t and one that starts at t may share bytes), then admit the ones that start. The
 * members (buffers that occupy memory) are sorted by (offset, index), their positions; a new buffer [o, e) overlaps a
 * live one iff some live member among the positions with offset < e ends above o.
 *
 * Without aliasing the live buffers never share bytes until the first failure, so a new buffer overlaps a live one
 * iff it overlaps its nearest live neighbour below or above in that offset order (one below it that overlapped would
 * be the nearest, as any nearer one would overlap that one). The sweep keeps only a bit per position, in a 64-ary
 * bit tree whose next/previous set bit takes one word per level: O(n) words touched, a few levels deep. It reports
 * the overlapping live buffer with the lowest offset.
 *
 * With aliasing (APLAN_ALLOW_FIXED_ALIAS) two fixed members may share bytes, so the live set is no longer disjoint
 * and a new fixed member may overlap any number of live ones: listing them would cost O(pairs), up to n^2 / 2. The
 * sweep instead takes three passes over the steps, each O(n log n) whatever the number of pairs:
 *   1. an unfixed member overlaps no live fixed one: the live fixed members sit in a segment tree over the
 *      positions, each node holding the one with the highest end below it, and a descent restricted to the prefix
 *      with offset < e stops at its first hit, the lowest offset (O(log n): every subtree it enters inside the
 *      prefix holds a hit);
 *   2. no member overlaps a live unfixed one: the unfixed members alone stay disjoint until the first that does, so
 *      the bit tree of the live unfixed members and its nearest neighbours answer, as without aliasing. It runs up
 *      to pass 1's failure, included: the earlier failure is reported, and at the same admission the live member
 *      with the lower offset, so the pair named is the one a sweep listing every overlap would name first;
 *   3. the allowed pairs are counted, not listed: admitting fixed member x = [o, e), the live fixed members it shares
 *      bytes with number A(x) - B(x), A(x) those with offset < e and B(x) those with end <= o (which all have offset
 *      < e). A is one query of a Fenwick tree of live fixed members over the positions. B summed over x counts each
 *      pair (y, x) where y was admitted first, is still live and lies wholly below x; that sum is also, over y, the
 *      fixed members admitted while y is live with offset >= y's end: a second Fenwick tree, of every fixed member
 *      admitted so far, read at y's admission and at its retirement, gives it without a tree over ends.
 * The count is exact up to SIZE_MAX and saturates there (a 32-bit size_t holds 2^32 - 1 pairs, which 92,683 fixed
 * buffers live together and sharing bytes pass).
 *
 * Pairwise, O(n^2) without memory, for devices that cannot spare scratch; compact builds (APLAN_COMPACT) keep only
 * this path for the verifier. It meets every pair, so it counts the allowed ones one by one (saturating too).
 *
 * The segment tree's sweep listing every overlapping pair is also aplan_overlaps, for a caller (the CLI's aliased
 * pairs, a plan's clashes): it is the one copy of that algorithm, in every build, and it ends as soon as the
 * caller's callback says stop.
 *
 * Scratch: 16 bytes per buffer plus the segment tree (2 x the next power of two >= n entries of 4 bytes), so at most
 * 32 bytes per buffer. The bit tree and pass 3's two Fenwick trees (4 bytes per member each) reuse the segment
 * tree's room.
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
    const aplan_buffer a_at = aplan__buffer(p, i), *a = &a_at;
    const aplan_buffer b_at = aplan__buffer(p, j), *b = &b_at;
    const bool both_fixed = a->offset != APLAN_NO_OFFSET && b->offset != APLAN_NO_OFFSET;
    if (both_fixed && (p->flags & APLAN_ALLOW_FIXED_ALIAS) != 0) {
        if (r->aliased_pairs != SIZE_MAX) r->aliased_pairs++; /* saturates, as the sweep's count does */
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

/* The number of members whose offset is below e: the positions [0, result) of by_off. O(log m). */
static size_t below(const sweep_state *s, uint64_t e) {
    size_t lo = 0, hi = s->m;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2u;
        if (s->off[s->by_off[mid]] < e) lo = mid + 1u; else hi = mid;
    }
    return lo;
}

/* Calls found for every live buffer x shares bytes with, lowest offset first, until found returns false (then returns
 * false). O((1 + calls) log m): a subtree it enters inside the prefix holds a call, and the ones it enters across the
 * prefix's end form one path. */
static bool live_overlaps(const sweep_state *s, uint32_t x, overlap_found found, void *context) {
    const uint64_t x_off = s->off[x];
    const size_t prefix = below(s, end_of(s->p, s->off, x));
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

static bool is_fixed(const aplan_problem *p, uint32_t i) { return aplan__fixed(p, i) != APLAN_NO_OFFSET; }

/* Every pair of members live at a common step that share bytes, each once, when the later-starting one is admitted:
 * at each step, ends first ([lower, upper) is half-open), then starts by (lower, index). With fixed_live, only fixed
 * members join the live set and only unfixed ones look for what they overlap: the pairs of an unfixed member and a
 * fixed one that started first (or at the same step with a lower index). Returns the index in by_lower of the
 * admission at which found stopped the sweep, or m when it never did. O((m + pairs met) log m). */
static size_t each_overlap(sweep_state *s, const uint32_t *by_lower, const uint32_t *by_upper, bool fixed_live,
                           overlap_found found, void *context) {
    const aplan_problem *p = s->p;
    for (size_t k = 0; k < 2u * s->leaves; k++) s->seg[k] = NONE;
    size_t j = 0;
    for (size_t i = 0; i < s->m;) {
        const uint64_t t = aplan__lower(p, by_lower[i]);
        for (; j < s->m && aplan__upper(p, by_upper[j]) <= t; j++) {
            if (!fixed_live || is_fixed(p, by_upper[j])) seg_set(s, by_upper[j], false);
        }
        for (; i < s->m && aplan__lower(p, by_lower[i]) == t; i++) {
            const uint32_t x = by_lower[i];
            const bool joins = !fixed_live || is_fixed(p, x);
            if ((!fixed_live || !joins) && !live_overlaps(s, x, found, context)) return i;
            if (joins) seg_set(s, x, true);
        }
    }
    return s->m;
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

/*
 * The nearest-neighbour sweep over the admissions [0, limit) of by_lower: the index of the first admitted member that
 * overlaps a live one, and in *partner that live one with the lowest offset; limit when there is none. Without split
 * (no aliasing) every member joins the live set; with split (aliasing allowed, pass 2) only unfixed ones do. Every
 * admitted member is checked, before it joins, so the live set is disjoint until the first overlap, and an admitted x
 * overlaps a live member iff it overlaps its nearest one below or above (the one below first: the lower offset).
 * O(limit + m) bit-tree steps.
 */
static size_t sweep_nearest(sweep_state *s, const uint32_t *by_lower, const uint32_t *by_upper, bool split,
                            size_t limit, uint32_t *partner) {
    bit_tree t;
    t.w = (uint64_t *)(void *)s->seg; /* the segment tree's room: 8 bytes per leaf, far more than the bits need */
    const size_t words = bit_tree_words(s->m, t.base, &t.levels);
    APLAN_ASSERT(words <= s->leaves);
    APLAN_MEMSET(t.w, 0, words * sizeof *t.w);
    const aplan_problem *p = s->p;
    size_t j = 0;
    for (size_t i = 0; i < limit;) {
        const uint64_t step = aplan__lower(p, by_lower[i]);
        for (; j < s->m && aplan__upper(p, by_upper[j]) <= step; j++) {
            if (!split || !is_fixed(p, by_upper[j])) bit_set(&t, s->pos[by_upper[j]], false);
        }
        for (; i < limit && aplan__lower(p, by_lower[i]) == step; i++) {
            const uint32_t x = by_lower[i];
            const size_t at = s->pos[x];
            const size_t below = bit_near(&t, at, false), above = bit_near(&t, at, true);
            if (below != SIZE_MAX && memory_intersects(p, s->off, s->by_off[below], x)) {
                *partner = s->by_off[below];
                return i;
            }
            if (above != SIZE_MAX && memory_intersects(p, s->off, s->by_off[above], x)) {
                *partner = s->by_off[above];
                return i;
            }
            if (!split || !is_fixed(p, x)) bit_set(&t, at, true);
        }
    }
    return limit;
}

/* Pass 1 under APLAN_ALLOW_FIXED_ALIAS: the first (lowest offset) live fixed member an unfixed one overlaps. */
static bool first_partner(void *context, uint32_t live, uint32_t x) {
    (void)x;
    *(uint32_t *)context = live;
    return false;
}

/* Pass 3's two Fenwick trees over the positions 0..m-1, interleaved so that the admission's two sums and two adds
 * walk one array: f[2(k - 1)] counts the live fixed members at the positions [k - lowbit(k), k), f[2(k - 1) + 1]
 * those admitted so far. Counts are uint32_t (m < 2^32); adding UINT32_MAX subtracts one, modulo 2^32, and no true
 * count is ever negative, so every sum comes out exact. O(log m) each. */
static void fenwick_add(uint32_t *f, size_t m, size_t at, uint32_t live, uint32_t admitted) {
    for (size_t k = at + 1u; k <= m; k += k & (~k + 1u)) {
        f[2u * (k - 1u)] += live;
        f[2u * (k - 1u) + 1u] += admitted;
    }
}

/* The live and admitted fixed members at the positions [0, k). */
static void fenwick_sums(const uint32_t *f, size_t k, uint32_t *live, uint32_t *admitted) {
    uint32_t l = 0, a = 0;
    for (; k > 0; k &= k - 1u) {
        l += f[2u * (k - 1u)];
        a += f[2u * (k - 1u) + 1u];
    }
    *live = l;
    *admitted = a;
}

/*
 * Pass 3 under APLAN_ALLOW_FIXED_ALIAS, once nothing failed: the pairs of fixed members live at a common step that
 * share bytes, counted as the file's opening comment derives (A - B per admission, B gathered per retirement), with
 * the two Fenwick trees in the segment tree's room (2 x leaves >= 2m entries). Retirements before admissions at the
 * same step, as in every sweep here. Exact: every sum is at most m^2 < 2^64. O(m log m).
 */
static uint64_t count_aliases(sweep_state *s, const uint32_t *by_lower, const uint32_t *by_upper) {
    const aplan_problem *p = s->p;
    const size_t m = s->m;
    uint32_t *f = s->seg;
    APLAN_MEMSET(f, 0, 2u * m * sizeof *f);
    uint64_t starting_below = 0; /* sum of A(x): live fixed members with offset < x's end, as x is admitted */
    uint64_t above_at_admit = 0; /* over y: fixed members admitted before y with offset >= y's end */
    uint64_t above_at_retire = 0; /* over y: the same, up to y's retirement */
    size_t count = 0;             /* fixed members admitted so far */
    size_t i = 0, j = 0;
    while (j < m) {
        const bool admit_next = i < m && aplan__lower(p, by_lower[i]) < aplan__upper(p, by_upper[j]);
        const uint32_t x = admit_next ? by_lower[i++] : by_upper[j++];
        if (!is_fixed(p, x)) continue;
        uint32_t live, admitted;
        fenwick_sums(f, below(s, end_of(p, s->off, x)), &live, &admitted);
        if (admit_next) {
            starting_below += live;
            above_at_admit += count - admitted;
            fenwick_add(f, m, s->pos[x], 1u, 1u);
            count++;
        } else {
            above_at_retire += count - admitted;
            fenwick_add(f, m, s->pos[x], UINT32_MAX, 0);
        }
    }
    return starting_below - (above_at_retire - above_at_admit);
}

static aplan_status sweep(const aplan_problem *p, const uint64_t *off, void *scratch, size_t scratch_size,
                          aplan_report *r) {
    sweep_state s;
    uint32_t *by_lower, *by_upper;
    sweep_init(&s, p, off, scratch, scratch_size, &by_lower, &by_upper);
    s.report = r;
    if (s.m == 0) return APLAN_OK;
    size_t fixed = 0;
    if ((p->flags & APLAN_ALLOW_FIXED_ALIAS) != 0) {
        for (size_t k = 0; k < s.m; k++) fixed += is_fixed(p, s.by_off[k]);
    }
    uint32_t partner = NONE, first = NONE;
    size_t failed_at = s.m;
    if (fixed == 0) { /* nothing may alias */
        failed_at = sweep_nearest(&s, by_lower, by_upper, false, s.m, &partner);
    } else if (fixed < s.m) {
        /* Pass 1 (an unfixed member on a live fixed one), then pass 2 (anything on a live unfixed one) up to and
         * including pass 1's failure: the earlier failure wins, and at the same admission the lower offset. */
        failed_at = each_overlap(&s, by_lower, by_upper, true, first_partner, &first);
        const size_t limit = failed_at < s.m ? failed_at + 1u : s.m;
        const size_t nearest_at = sweep_nearest(&s, by_lower, by_upper, true, limit, &partner);
        if (nearest_at == limit || (nearest_at == failed_at && s.pos[first] < s.pos[partner])) {
            partner = first;
        } else {
            failed_at = nearest_at;
        }
    }
    if (failed_at < s.m) {
        (void)conflict(p, off, partner, by_lower[failed_at], r); /* not two fixed members: reported, not counted */
        return r->rule;
    }
    if (fixed > 1u) {
        const uint64_t pairs = count_aliases(&s, by_lower, by_upper);
#if SIZE_MAX < UINT64_MAX
        r->aliased_pairs = pairs > SIZE_MAX ? SIZE_MAX : (size_t)pairs;
#else
        r->aliased_pairs = pairs;
#endif
    }
    return APLAN_OK;
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
        const uint64_t fixed = aplan__fixed(p, i);
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
    if (s.m != 0) (void)each_overlap(&s, by_lower, by_upper, false, report_pair, &call);
    return APLAN_OK;
}
