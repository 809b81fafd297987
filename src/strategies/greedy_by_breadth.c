/*
 * greedy_by_breadth: the buffers of the busiest step first, at the lowest offset. Greedy by breadth of Pisarchyk and
 * Lee, "Efficient memory management for deep neural net inference" (2020).
 *
 * Algorithm:
 *   1. Fixed buffers keep their offsets and count as placed. Buffers that occupy no memory (size 0 or never live)
 *      go to offset 0.
 *   2. The breadth of a step is the total effective size of the buffers live at it (fixed ones included). Take the
 *      steps by breadth, broadest first (equal breadths: the earlier step first); at each, its buffers that are not
 *      ordered yet, largest first (equal sizes: by index).
 *   3. For each buffer in that order, take the lowest aligned offset that misses every placed buffer it conflicts with
 *      (the rule of greedy_by_size).
 * The busiest step needs the most memory; its buffers go first, packed from 0, and the rest fit around them.
 *
 * The order without looking at every step: breadth changes only where a lifetime starts or ends, and the best step
 * a buffer is live at is always one where some buffer starts (breadth only rises there), so only those steps count.
 * With the members sorted by start step (the greedy engine's order), the steps where members start are runs of
 * positions, and a buffer at position pos is live at the starts of exactly the positions pos .. rank(pos) - 1 (its
 * end rank). So: one merge over the starts and the ends gives each start step's breadth (a 128-bit running sum,
 * saturated to 64 bits); a radix sort ranks those steps; each buffer's key is the best rank over its positions, a
 * range minimum over a 16-ary tree of ranks; one radix sort by key reorders the size order. O(n log n) in all (the
 * queries, 16 log16 n entries each), never proportional to how many buffers are live at each step.
 * Complexity: O(n log n + P log n) for P conflicting pairs (the placement: the greedy engine, greedy.c). Worst shape:
 * that of greedy_by_size, many buffers live together but not all at one step.
 * Scratch: about 28.3 bytes per buffer, 124.9 from 8,192 buffers, 76.3 above 65,536: the engine's 20.3 (116.9;
 * 68.3 above 65,536) plus 8 for the breadths.
 * Compact builds: 16 bytes per buffer (order, list links, a breadth per buffer) and O(n^2) time.
 * Guarantee: a valid plan; deterministic. No approximation ratio.
 */
#include "aplan/strategies.h"
#include "strategies/greedy.h"

#if APLAN_COMPACT
/* The best step's breadth, largest first; its step, earliest first; size, largest first; input order. */
static bool less_breadth(const void *ctx, uint32_t a, uint32_t b) {
    const aplan__greedy_keys *k = ctx;
    const uint32_t sa = k->key[a], sb = k->key[b];
    if (k->wide[sa] != k->wide[sb]) return k->wide[sa] > k->wide[sb];
    const uint64_t la = aplan__lower(k->p, sa), lb = aplan__lower(k->p, sb);
    if (la != lb) return la < lb;
    const uint64_t za = aplan__size(k->p, a), zb = aplan__size(k->p, b);
    return za != zb ? za > zb : a < b;
}

/* wide[j] = the live bytes at member j's start (saturated); key[x] = the member whose start is the best step within
 * x's lifetime (broadest, then earliest); then the order. Every pair looked at: O(n^2). */
static void order_by_breadth(const aplan_problem *p, uint32_t *order, size_t count, uint32_t *key, uint64_t *wide) {
    const aplan__greedy_keys ctx = {p, key, wide};
    for (uint32_t j = 0; j < p->count; j++) {
        uint64_t sum = 0;
        for (uint32_t i = 0; i < p->count && aplan__occupies(p, j); i++) {
            if (aplan__occupies(p, i) && aplan__lower(p, i) <= aplan__lower(p, j) && aplan__lower(p, j) < aplan__upper(p, i) &&
                !aplan__add(sum, aplan__size(p, i), &sum)) {
                sum = UINT64_MAX; /* stays there: every later addition overflows too */
            }
        }
        wide[j] = sum;
    }
    for (size_t k = 0; k < count; k++) {
        const uint32_t x = order[k];
        uint32_t best = x;
        for (uint32_t j = 0; j < p->count; j++) {
            if (aplan__occupies(p, j) && aplan__lower(p, x) <= aplan__lower(p, j) && aplan__lower(p, j) < aplan__upper(p, x) &&
                (wide[j] > wide[best] || (wide[j] == wide[best] && aplan__lower(p, j) < aplan__lower(p, best)))) {
                best = j;
            }
        }
        key[x] = best;
    }
    aplan__greedy_sort(order, count, less_breadth, &ctx);
}
static const aplan__greedy_rule rule = {APLAN__GAP_LOWEST, true, NULL, order_by_breadth};
#else
/* The least entry of leaf[a .. b - 1], with tree the levels of minima above leaf (start: where each begins). Reads at
 * most 2 * 16 entries per level. */
static uint32_t least_in(const uint32_t *leaf, const uint32_t *tree, const size_t *start, unsigned levels, size_t a,
                         size_t b) {
    uint32_t least = UINT32_MAX;
    const uint32_t *row = leaf;
    for (unsigned l = 0;; l++) {
        if (l == levels || b - a <= 2u * APLAN__FAN) {
            for (; a < b; a++) least = row[a] < least ? row[a] : least;
            return least;
        }
        for (; a % APLAN__FAN != 0; a++) least = row[a] < least ? row[a] : least;
        for (; b % APLAN__FAN != 0; b--) least = row[b - 1u] < least ? row[b - 1u] : least;
        a /= APLAN__FAN;
        b /= APLAN__FAN;
        row = tree + start[l];
    }
}

/* Reorders the size order (largest first, index) stably by the rank of each buffer's best step. */
static void order_by_breadth(const aplan__greedy_view *v) {
    const aplan_problem *p = v->p;
    const size_t m = v->members;
    /* Per start step (group g of positions with one lower), ~breadth, so that rising keys are falling breadths. The
     * ends are taken off before the starts are added, so the running sum never passes a breadth; hi counts its
     * overflows past 64 bits (only aliasing fixed buffers can make a live sum that large in a valid problem). */
    uint64_t *breadth = v->extra;
    uint64_t lo = 0, hi = 0;
    size_t groups = 0;
    for (size_t pos = 0, ended = 0; pos < m;) {
        const uint64_t t = aplan__lower(p, v->by_lower[pos]);
        for (; ended < m && aplan__upper(p, v->by_upper[ended]) <= t; ended++) {
            const uint64_t s = aplan__size(p, v->by_upper[ended]);
            hi -= lo < s;
            lo -= s;
        }
        for (; pos < m && aplan__lower(p, v->by_lower[pos]) == t; pos++) {
            const uint64_t s = aplan__size(p, v->by_lower[pos]);
            lo += s;
            hi += lo < s;
        }
        breadth[groups++] = ~(hi != 0 ? UINT64_MAX : lo);
    }
    /* Rank the steps: broadest first, equal breadths by the earlier step (a stable sort over rising groups). */
    uint32_t *by_breadth = v->spare, *group_rank = v->by_upper; /* by_upper has been read */
    for (uint32_t g = 0; g < groups; g++) by_breadth[g] = g;
    aplan__sort_by(by_breadth, group_rank, groups, APLAN__BY_OFFSET, p, breadth);
    for (uint32_t k = 0; k < groups; k++) group_rank[by_breadth[k]] = k;
    /* Leaves: each position's step rank; above them, the minima of every 16. */
    uint32_t *leaf = v->spare;
    for (size_t pos = 0, g = 0; pos < m; pos++) {
        g += pos > 0 && aplan__lower(p, v->by_lower[pos]) != aplan__lower(p, v->by_lower[pos - 1u]);
        leaf[pos] = group_rank[g];
    }
    size_t start[APLAN__LEVELS];
    unsigned levels;
    (void)aplan__greedy_levels(m, start, &levels);
    const uint32_t *below = leaf;
    size_t count = m; /* entries of the level below */
    for (unsigned l = 0; l < levels; l++) {
        uint32_t *row = v->tree + start[l];
        for (size_t e = 0; e * APLAN__FAN < count; e++) {
            uint32_t least = UINT32_MAX;
            for (size_t c = e * APLAN__FAN; c < count && c < (e + 1u) * APLAN__FAN; c++) {
                least = below[c] < least ? below[c] : least;
            }
            row[e] = least;
        }
        below = row;
        count = (count + APLAN__FAN - 1u) / APLAN__FAN;
    }
    /* A buffer at pos is live at the starts of positions pos .. rank - 1 and no other (those before pos in its own
     * run start at its step too, with the same rank). */
    uint32_t *key = v->by_upper; /* the step ranks have been read */
    for (size_t k = 0; k < v->online; k++) {
        const uint32_t pos = v->order[k];
        key[pos] = least_in(leaf, v->tree, start, levels, pos, v->rank[pos] & ~APLAN__UNPLACED);
    }
    aplan__sort_by_key(v->order, v->spare, v->online, key);
}
static const aplan__greedy_rule rule = {APLAN__GAP_LOWEST, true, APLAN__TIE_INDEX, order_by_breadth, NULL};
#endif

APLAN__GREEDY_STRATEGY(greedy_by_breadth, rule,
                       "the buffers of the step with the most live bytes first, then the next step's, each at "
                       "the lowest free offset")
