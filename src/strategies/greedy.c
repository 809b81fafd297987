/*
 * The greedy engine: one buffer at a time, in the strategy's order, into the lowest or the smallest gap among the
 * placed buffers whose lifetimes intersect its own (greedy.h). Used by greedy_by_size, greedy_by_size_tflm,
 * best_fit, greedy_by_breadth and greedy_by_conflicts; compiled whenever one of them is.
 *
 * Steps:
 *   1. Fixed buffers keep their offsets and count as placed. Buffers that occupy no memory (size 0 or never live)
 *      go to offset 0.
 *   2. The others are sorted by size, largest first, equal sizes in the rule's tie order; the strategy's order
 *      function, if any, then reorders them stably by its own key (greedy.h: aplan__greedy_view).
 *   3. Each in that order takes, among the gaps left by the placed buffers it conflicts with, the lowest that fits
 *      (APLAN__GAP_LOWEST) or the one with the least room (APLAN__GAP_SMALLEST), else the aligned top of them.
 * The offsets are defined by the rule alone (for a given order, the lowest fitting gap and the smallest one are
 * unique), so any way of finding them gives the same plan: tests/test_property.c keeps plain O(n^2) references, and
 * the compact engine (APLAN_COMPACT, inline in greedy.h: one list walked per buffer) gives the same offsets.
 *
 * How the gap is found: a tree over all lifetimes reports the k placed buffers that conflict (see `conflicts`
 * below). On problems of 8192 buffers or more (SPAN_MIN) the tree keeps each placed buffer's bytes [offset, end) by
 * position, so the query hands over the neighbours' spans, read from memory near the ranks it reads anyway; the spans
 * are bucketed by the top byte of their offsets and the buckets walked from the lowest (walk_many). The lowest rule is
 * done at the first bucket that starts above its candidate gap, and decides most buckets below it from three figures
 * (lowest offset, highest offset, highest end) without ordering them; a bucket it cannot decide is bucketed again by
 * the next byte, then sorted. The smallest rule orders every bucket it walks, unless a gap fits exactly. Smaller
 * problems read the neighbours' offsets from the plan, bucket them by the same top byte and sort only the buckets
 * walked (walk_indices), which needs no spans in scratch.
 * When every buffer of the problem is live at one step (and no two fixed ones may share bytes), the placed buffers
 * never share bytes, so their total size, each rounded up to the smallest alignment (which divides every offset;
 * for banked placement each region's alignment), says whether any gap below the top can hold the next one: when none
 * can, it goes on top without asking the tree. So an alignment above the sizes' costs no walk.
 * Dense problems (8192 to 65,536 buffers whose conflicting pairs are at least a twelfth of all pairs, under the
 * lowest rule) do not ask the tree at all: the placed buffers are kept in offset order in blocks (the dense list,
 * below) and each new one walks them from the lowest, as TFLM's planner does but over contiguous memory and without
 * a branch per buffer met, up to the first at or above its candidate's end. A walk meets every placed buffer below
 * the gap, conflicting or not, where the tree's answer holds only the conflicting ones but costs about twelve times
 * as much per buffer (measured: 14 ns per conflicting pair against 1.2 ns per buffer walked on the generated
 * `hard 10k`), hence the twelfth.
 *
 * Complexity: O(n) for the orders (radix sorts and a merge) plus the strategy's order function, then per buffer
 * O(16 log16(n) (k + 1)) entries read to find its k conflicting placed buffers (in runs of 16, one cache line each,
 * branch-free within a run) and O(k) to bucket them, plus the sorts of the buckets that need one. So O(n + P log n)
 * for P conflicting pairs, O(n) when all buffers are live at once, where TFLM's planner takes O(n^2) whatever the
 * lifetimes (it walks every placed buffer for each new one). The dense path is O(m) per buffer walked and
 * O(128 + m / 64) per insertion, so O(m^2) in all for m members, which is O(P) where it is taken (P >= m^2 / 24).
 * Worst shape: many buffers live together but not all at one step (dense training traces: iopddl_S_1 has 4.3e7
 * conflicting pairs for 28,526 buffers), where every buffer gathers and buckets its k conflicting ones. The loop
 * asks for the entries of the buffers a few placements ahead (APLAN_PREFETCH): the size order visits the problem in
 * no order, and on a million buffers the misses were half the time.
 * Scratch: 20 bytes per buffer (size order 4, tree order 4, ranks 4, conflict list 4, sort space 4) plus the maxima,
 * a fifteenth of 4, plus 8 for a wide rule; from SPAN_MIN buffers 48 more (a span per position and two arrays of
 * neighbour spans), and up to DENSE_MAX buffers under the lowest rule outside banked placement about 48.6 more (the
 * dense list, set aside whether or not the problem turns out dense: the scratch query cannot count the pairs).
 * Problems of 2^31 buffers or more are refused (APLAN_E_SIZE_OVERFLOW from the size query). No recursion; about
 * 3.4 KiB of stack at the deepest (docs/footprint.md): two levels of bucket counts of 1 KiB each and the offsets and
 * ends of up to 32 neighbours.
 */
#include "strategies/greedy.h"

/*
 * The smallest-gap rule over neighbours met in offset order, shared by both engines. reach is the highest end met so
 * far (the gaps are below each neighbour, above reach, start aligned up); room the room of the best gap so far, which
 * starts at best; UINT64_MAX: none yet (no gap has that much: its end would be a placed offset of 2^64 - 1).
 */
typedef struct {
    uint64_t size, align;
    uint64_t reach, best, room;
} fit;

/* Takes the gap below a neighbour [lo, hi) and raises the reach; true when the gap fits exactly (nothing can beat it:
 * any later exact fit lies higher). A gap whose aligned start passes 2^64 - 1 holds nothing. */
static inline bool fit_below(fit *f, uint64_t lo, uint64_t hi) {
    uint64_t start;
    if (lo > f->reach && aplan__align_up(f->reach, f->align, &start) && start <= lo && lo - start >= f->size &&
        lo - start < f->room) {
        f->best = start;
        f->room = lo - start;
        if (f->room == f->size) return true;
    }
    if (hi > f->reach) f->reach = hi;
    return false;
}

/* The best gap, or the aligned top of the neighbours when none fits; false when that passes 2^64 - 1. */
static inline bool fit_end(const fit *f, uint64_t *out) {
    uint64_t end;
    if (f->room != UINT64_MAX) {
        *out = f->best;
        return true;
    }
    return aplan__align_up(f->reach, f->align, out) && aplan__add(*out, f->size, &end);
}

/* The list walk is inline in greedy.h (the compact engine, and default builds' low-memory path); here are the parts
 * its strategies share. */
void aplan__greedy_link(uint32_t *head, uint32_t *next, const uint64_t *offsets, uint32_t x) {
    uint32_t *at = head;
    while (*at != APLAN__END && (offsets[*at] < offsets[x] || (offsets[*at] == offsets[x] && *at < x))) {
        at = &next[*at];
    }
    next[x] = *at;
    *at = x;
}

#if APLAN_COMPACT

bool aplan__greedy_smallest(const aplan_problem *p, const uint64_t *offsets, const uint32_t *next, uint32_t head,
                            uint32_t x, uint64_t *out) {
    const aplan_buffer b_at = aplan__buffer(p, x), *b = &b_at;
    fit f = {aplan__size(p, x), aplan__alignment(p, x), 0, 0, UINT64_MAX};
    for (uint32_t j = head; j != APLAN__END; j = next[j]) {
        const aplan_buffer o_at = aplan__buffer(p, j), *o = &o_at;
        if (o->upper <= b->lower || b->upper <= o->lower) continue;               /* never live together */
        if (fit_below(&f, offsets[j], offsets[j] + aplan__size(p, j))) break;  /* placed or fixed: fits 64 bits */
    }
    return fit_end(&f, out);
}

void aplan__greedy_sort(uint32_t *order, size_t n, aplan__less_fn less, const void *ctx) {
    for (size_t i = 1; i < n; i++) {
        const uint32_t x = order[i];
        size_t j = i;
        for (; j > 0 && less(ctx, x, order[j - 1u]); j--) order[j] = order[j - 1u];
        order[j] = x;
    }
}

aplan_status aplan__bank_scratch_size(const aplan__greedy_rule *rule, const aplan_problem *p, size_t regions,
                                      size_t *bytes) {
    (void)regions; /* the list walk needs nothing per region */
    return aplan__greedy_scratch_size(rule, p, bytes);
}

/* x's gap in region r among the placed buffers of the list (head, next) that are in r, at alignment a, under the
 * lowest or the smallest rule; false when it would pass 2^64 - 1. */
static bool bank_gap(const aplan_problem *p, const uint32_t *region_of, const uint64_t *offsets, const uint32_t *next,
                     uint32_t head, uint32_t x, size_t r, uint64_t a, bool smallest, uint64_t *out) {
    const aplan_buffer b_at = aplan__buffer(p, x), *b = &b_at;
    const uint64_t size = aplan__size(p, x);
    fit f = {size, a, 0, 0, UINT64_MAX};
    uint64_t at = 0, at_end = size;
    for (uint32_t j = head; j != APLAN__END; j = next[j]) {
        const aplan_buffer o_at = aplan__buffer(p, j), *o = &o_at;
        if (region_of[j] != r || o->upper <= b->lower || b->upper <= o->lower) continue;
        const uint64_t j_end = offsets[j] + aplan__size(p, j); /* placed or fixed: fits 64 bits */
        if (smallest) {
            if (fit_below(&f, offsets[j], j_end)) break;
            continue;
        }
        if (offsets[j] >= at_end) break;
        if (j_end > at && (!aplan__align_up(j_end, a, &at) || !aplan__add(at, size, &at_end))) return false;
    }
    if (smallest) return fit_end(&f, out);
    *out = at;
    return true;
}

aplan_status aplan__bank_plan(const aplan__greedy_rule *rule, const aplan_problem *p, const aplan__bank *bank,
                              aplan_search_context *ctx, void *scratch, size_t scratch_size, uint64_t *offsets,
                              aplan_report *report) {
    const aplan_regions *rg = bank->regions;
    if (ctx != NULL) ctx->outcome = APLAN_OUTCOME_PLAN; /* a device plans without a clock: never stopped */
    for (size_t i = 0; i < p->count; i++) bank->region_of[i] = (uint32_t)aplan__region_first(rg, i);
    if (p->count == 0) return APLAN_OK;
    if ((scratch_size >> (3u + rule->wide)) < p->count) return APLAN_E_SCRATCH_TOO_SMALL;
    APLAN_ASSERT(rule->keys == NULL); /* the size order, reordered by bank->key only */
    uint32_t *order = scratch;
    uint32_t *next = order + p->count;
    size_t online, fixed;
    aplan__split(p, true, offsets, order, &online, next, &fixed, rule->less);
    uint32_t head = APLAN__END;
    for (size_t k = fixed; k-- > 0;) aplan__greedy_link(&head, next, offsets, next[k]);
    if (bank->key != NULL) { /* stable: equal keys keep the rule's order */
        for (size_t i = 1; i < online; i++) {
            const uint32_t x = order[i];
            size_t j = i;
            for (; j > 0 && bank->key[x] < bank->key[order[j - 1u]]; j--) order[j] = order[j - 1u];
            order[j] = x;
        }
    }
    for (size_t k = 0; k < online; k++) {
        const uint32_t x = order[k];
        const uint64_t size = aplan__size(p, x), align = aplan__alignment(p, x), mask = aplan__region_mask(rg, x);
        size_t region = SIZE_MAX;
        uint64_t at = 0;
        for (size_t r = 0; r < rg->count; r++) {
            const uint64_t ra = aplan__region_align(rg, r);
            uint64_t o, end;
            if (((mask >> r) & 1u) == 0 ||
                !bank_gap(p, bank->region_of, offsets, next, head, x, r, align > ra ? align : ra, rule->gap != NULL,
                          &o) ||
                !aplan__add(o, size, &end))
                continue;
            region = r;
            at = o;
            if (end <= rg->regions[r].capacity) break;
        }
        if (region == SIZE_MAX) {
            aplan__report_value(report, APLAN_E_SIZE_OVERFLOW, x, 0, size);
            return APLAN_E_SIZE_OVERFLOW;
        }
        offsets[x] = at;
        bank->region_of[x] = (uint32_t)region;
        aplan__greedy_link(&head, next, offsets, x);
    }
    return APLAN_OK;
}
#else
enum { ORDER, TREE_ORDER, RANK, HITS, TMP, ARRAYS }; /* scratch: five index arrays, the maxima, the rule's extra */

#define FAN APLAN__FAN
#define LEVELS APLAN__LEVELS
#define UNPLACED APLAN__UNPLACED

size_t aplan__greedy_levels(size_t m, size_t *level_start, unsigned *levels) {
    size_t total = 0, count = m;
    unsigned l = 0;
    while (count > FAN) {
        count = (count + FAN - 1u) / FAN;
        if (level_start != NULL) level_start[l] = total;
        l++;
        total += count;
    }
    *levels = l;
    return total;
}

/* A placed member's bytes, [lo, hi): what the gap search reads of each neighbour. */
typedef struct {
    uint64_t lo, hi;
} span;
enum { PLACED, NEAR, SPARE, SPANS }; /* scratch: per position its span; a buffer's neighbours' spans, twice */
/* Problems of fewer buffers plan without the span arrays (48 bytes a buffer): the adapter's scratch comes out of a
 * microcontroller's arena, and below this the neighbours' offsets are read from the plan at little cost. */
#define SPAN_MIN 8192u

/*
 * The dense list: the placed members in offset order, in blocks of DENSE_B whose fields are arrays (offset, end,
 * position, rank), for problems from SPAN_MIN to DENSE_MAX buffers in which the tree's answers are long (see
 * dense_gap). Each block but a lone first one holds at least DENSE_B / 2 members (a full block splits in halves), so
 * 2 n / DENSE_B + 1 blocks always suffice: 48 bytes a buffer at most, plus 16 a block for the block order.
 */
#define DENSE_B 128u
#define DENSE_MAX 65536u

typedef struct {
    uint64_t off[DENSE_B], end[DENSE_B]; /* bytes [off, end) */
    uint32_t pos[DENSE_B], rank[DENSE_B]; /* the member's position and end rank (the tree's, placed) */
} dense_block;

typedef struct {
    dense_block *block; /* by physical index, allocated in the order they are split off */
    uint32_t *count;    /* per physical block: its members */
    uint32_t *order;    /* per logical block (offset order): its physical index */
    uint64_t *first;    /* per logical block: its lowest offset (block 0: 0, whatever it holds) */
    size_t blocks;      /* logical blocks in use */
} dense;

static size_t dense_blocks(size_t n) { return 2u * (n / DENSE_B) + 1u; }

static void dense_layout(aplan__scratch *s, size_t n, bool lowest, dense *d) {
    const bool on = lowest && n >= SPAN_MIN && n <= DENSE_MAX;
    const size_t k = on ? dense_blocks(n) : 0;
    d->block = on ? aplan__scratch_take(s, k, sizeof(dense_block), sizeof(uint64_t)) : NULL;
    d->first = on ? aplan__scratch_take(s, k, sizeof(uint64_t), sizeof(uint64_t)) : NULL;
    d->count = on ? aplan__scratch_take(s, k, sizeof(uint32_t), sizeof(uint32_t)) : NULL;
    d->order = on ? aplan__scratch_take(s, k, sizeof(uint32_t), sizeof(uint32_t)) : NULL;
    d->blocks = 0;
}

/* lowest: the lowest rule outside banked placement, the only user of the dense list. */
static void layout(aplan__scratch *s, size_t n, bool wide, bool lowest, uint32_t **w, uint32_t **maxima,
                   size_t *level_start, unsigned *levels, uint64_t **extra, span **spans, dense *d) {
    (void)aplan__take_u32_arrays(s, n, w, ARRAYS);
    *maxima = aplan__scratch_take(s, aplan__greedy_levels(n, level_start, levels), sizeof(uint32_t),
                                  sizeof(uint32_t));
    *extra = wide ? aplan__scratch_take(s, n, sizeof(uint64_t), sizeof(uint64_t)) : NULL;
    for (unsigned k = 0; k < SPANS; k++)
        spans[k] = n >= SPAN_MIN ? aplan__scratch_take(s, n, sizeof(span), sizeof(uint64_t)) : NULL;
    dense_layout(s, n, lowest, d);
}

/* Banked placement's part: the conflicts of one region (n entries), and per region its highest end and the bytes
 * placed in it, each size rounded up to the region's alignment (all_live's test per region, see bank_place). */
typedef struct {
    uint32_t *hits;
    uint64_t *top, *sum;
} bank_space;

static void bank_layout(aplan__scratch *s, size_t n, size_t regions, bank_space *b) {
    b->hits = aplan__scratch_take(s, n, sizeof(uint32_t), sizeof(uint32_t));
    b->top = aplan__scratch_take(s, regions, sizeof(uint64_t), sizeof(uint64_t));
    b->sum = aplan__scratch_take(s, regions, sizeof(uint64_t), sizeof(uint64_t));
}

static aplan_status scratch_size(const aplan__greedy_rule *rule, const aplan_problem *p, size_t regions,
                                 size_t *bytes) {
    if (p->count > 0x7FFFFFFFu) return APLAN_E_SIZE_OVERFLOW; /* ranks keep their top bit for "unplaced" */
    aplan__scratch s;
    uint32_t *w[ARRAYS], *maxima;
    size_t level_start[LEVELS];
    unsigned levels;
    uint64_t *extra;
    span *spans[SPANS];
    dense d;
    aplan__scratch_init(&s, NULL, SIZE_MAX);
    layout(&s, p->count, rule->wide, rule->gap == APLAN__GAP_LOWEST && regions == 0, w, &maxima, level_start, &levels,
           &extra, spans, &d);
    bank_space b;
    if (regions > 0) bank_layout(&s, p->count, regions, &b);
    if (s.failed) return APLAN_E_SIZE_OVERFLOW;
    *bytes = s.used;
    return APLAN_OK;
}

/* Under APLAN_LOW_MEMORY a rule with a comparator takes the list walk (greedy.h): 8 bytes a buffer, O(n^2). */
static bool lean(const aplan__greedy_rule *rule, const aplan_problem *p) {
    return rule->lean != NULL && (p->flags & APLAN_LOW_MEMORY) != 0;
}

aplan_status aplan__greedy_scratch_size(const aplan__greedy_rule *rule, const aplan_problem *p, size_t *bytes) {
    if (lean(rule, p)) return aplan__greedy_walk_size(false, p, bytes);
    return scratch_size(rule, p, 0, bytes);
}

aplan_status aplan__bank_scratch_size(const aplan__greedy_rule *rule, const aplan_problem *p, size_t regions,
                                      size_t *bytes) {
    return scratch_size(rule, p, regions, bytes);
}

/*
 * The conflict finder: every buffer that occupies memory, sorted by (lower, index), named by its position in that
 * order while planning. A member's lifetime end is kept as a rank, the number of members that start before it ends,
 * so that "j is live at x's start" is rank(j) > the number of members that start before x does (x is a member, so
 * some member starts at x's start). rank[] holds every member's rank from the start, with the top bit set until it
 * is placed, so an unplaced member never passes the test. Above the ranks, a tree of maxima with 16 children per
 * node: each entry is the largest rank placed among the 16 below it (0: none). A query walks down only into entries
 * whose maximum passes the test and that start before x ends, reading 16 entries (one cache line) per node; a
 * placement raises one entry per level. The walk reads only these 4-byte arrays, never the buffers: on large problems
 * that is the difference between a few cache misses per buffer and hundreds. 8 bytes per member (order, rank) plus a
 * fifteenth of 4 for the maxima.
 */
typedef struct {
    const aplan_problem *p;
    const uint32_t *order;  /* members by (lower, index) */
    uint32_t *rank;         /* per position: its member's end rank, UNPLACED set until it is placed */
    span *placed;           /* per position: the placed member's bytes (unset until it is placed) */
    uint32_t *maxima;       /* the levels above the ranks, level 1 first */
    size_t start[LEVELS];   /* where level l + 1 starts in maxima */
    size_t count[LEVELS + 1]; /* entries per level; count[0] = m */
    unsigned levels;        /* levels above the ranks */
} conflicts;

/* The first position whose member starts when the member at position at does: a gallop back from at, so
 * O(log of the members starting with it), near at in memory. */
static size_t first_of_start(const conflicts *t, size_t at) {
    const uint64_t lower = aplan__lower(t->p, t->order[at]);
    size_t lo = at, step = 1; /* invariant: lo starts with it */
    while (lo > 0) {
        const size_t probe = lo > step ? lo - step : 0;
        if (aplan__lower(t->p, t->order[probe]) != lower) { /* the first is in (probe, lo]: bisect */
            size_t hi = lo;
            lo = probe + 1u;
            while (lo < hi) {
                const size_t mid = lo + (hi - lo) / 2u;
                if (aplan__lower(t->p, t->order[mid]) != lower) lo = mid + 1u; else hi = mid;
            }
            return lo;
        }
        lo = probe;
        step *= 2u;
    }
    return 0;
}

/* Marks the member at position at placed at [lo, hi) and raises the maxima above it. O(levels). */
static void place(conflicts *t, size_t at, uint64_t lo, uint64_t hi) {
    if (t->placed != NULL) t->placed[at] = (span){lo, hi};
    const uint32_t r = t->rank[at] &= ~UNPLACED;
    for (unsigned l = 0; l < t->levels; l++) {
        at /= FAN;
        uint32_t *e = &t->maxima[t->start[l] + at];
        if (*e < r) *e = r;
    }
}

/* The placed members among the positions [from, to) that are live at a start whose first position is live_from
 * (rank > live_from), appended at n to near (spans) or, when near is NULL, to hits (positions); returns the new n.
 * Branch-free: every entry is written and counted only when it passes, so the slot at n must exist (it does: the
 * member asking is among the positions below it and never passes, so fewer than m pass). */
static inline size_t scan_leaf(const conflicts *t, size_t from, size_t to, uint32_t live_from, span *near,
                               uint32_t *hits, size_t n) {
    if (near != NULL) {
        for (size_t e = from; e < to; e++) {
            near[n] = t->placed[e];
            n += (int32_t)t->rank[e] > (int32_t)live_from; /* UNPLACED makes an unplaced member's rank negative */
        }
    } else {
        for (size_t e = from; e < to; e++) {
            hits[n] = (uint32_t)e;
            n += (int32_t)t->rank[e] > (int32_t)live_from;
        }
    }
    return n;
}

/* Every placed member whose lifetime intersects that of the member at position at, in rising position: into near
 * (their spans), or when near is NULL into hits (their positions); returns how many. Per query O(16 * levels *
 * (hits + 1)) entries read at most, in runs of 16. */
static size_t find_conflicts(const conflicts *t, size_t at, span *near, uint32_t *hits) {
    const uint32_t live_at_start = (uint32_t)first_of_start(t, at); /* rank > this: live at x's start */
    const size_t starts_in_time = t->rank[at] & ~UNPLACED;           /* positions below: start before x ends */
    if (t->levels == 0) return scan_leaf(t, 0, starts_in_time, live_at_start, near, hits, 0);
    size_t next[LEVELS + 1], end[LEVELS + 1]; /* per level: the entry to look at next, and the node's end */
    unsigned l = t->levels;
    next[l] = 0;
    end[l] = t->count[l];
    size_t n = 0;
    for (;;) {
        if (next[l] == end[l]) { /* this node is done: back up */
            if (l == t->levels) break;
            l++;
            continue;
        }
        const size_t e = next[l]++;
        size_t first = e; /* the first position below entry e */
        for (unsigned k = 0; k < l; k++) first *= FAN;
        if (first >= starts_in_time) { /* e and the rest of this node start too late */
            next[l] = end[l];
            continue;
        }
        if (t->maxima[t->start[l - 1u] + e] <= live_at_start) continue; /* nothing placed below lives that long */
        if (l == 1) { /* the 16 positions below e, those that start in time */
            const size_t to = first + FAN < starts_in_time ? first + FAN : starts_in_time;
            n = scan_leaf(t, first, to, live_at_start, near, hits, n);
            continue;
        }
        l--;
        next[l] = e * FAN;
        end[l] = next[l] + FAN < t->count[l] ? next[l] + FAN : t->count[l];
    }
    return n;
}

/*
 * Buckets for the gap search: a counting pass spreads the n spans of from[] into to[] by 8 bits of their offsets
 * ((lo - base) >> shift, which must be below 256), keeping their order within a bucket; first[d] .. first[d + 1] is
 * then bucket d in to[]. first has 257 entries.
 */
static void spread(const span *from, span *to, size_t n, uint64_t base, unsigned shift, uint32_t *first) {
    APLAN_MEMSET(first, 0, 257u * sizeof first[0]);
    for (size_t j = 0; j < n; j++) first[(from[j].lo - base) >> shift]++;
    uint32_t end = 0;
    for (unsigned d = 0; d < 256u; d++) first[d] = end += first[d]; /* the end of each bucket */
    first[256] = end;
    for (size_t j = n; j-- > 0;) to[--first[(from[j].lo - base) >> shift]] = from[j]; /* ends become starts */
}

/* A walk over the neighbours in offset order, a batch at a time (each batch at or above the earlier ones). */
typedef struct {
    bool smallest;     /* the rule: APLAN__GAP_SMALLEST */
    uint64_t c, c_end; /* lowest rule: the lowest candidate so far, and its end */
    bool done;         /* lowest: a neighbour starts at or above c_end, so c is the answer; smallest: an exact fit */
    fit f;             /* the size and alignment; the smallest rule's state */
} walk;

/* The lowest rule past one neighbour [lo, hi) met in offset order: done when the candidate fits below it, else the
 * candidate moves above it when they overlap. APLAN_E_SIZE_OVERFLOW when that passes 2^64 - 1. */
static inline aplan_status lowest_past(walk *w, uint64_t lo, uint64_t hi) {
    if (lo >= w->c_end) {
        w->done = true;
    } else if (hi > w->c && (!aplan__align_up(hi, w->f.align, &w->c) || !aplan__add(w->c, w->f.size, &w->c_end))) {
        return APLAN_E_SIZE_OVERFLOW;
    }
    return APLAN_OK;
}

/* The walk past one neighbour [lo, hi) met in offset order, under either rule. */
static inline aplan_status walk_one(walk *w, uint64_t lo, uint64_t hi) {
    if (!w->smallest) return lowest_past(w, lo, hi);
    w->done = fit_below(&w->f, lo, hi);
    return APLAN_OK;
}

/*
 * The walk over a few neighbours in any order (n <= FEW): their offsets and ends are copied to the stack and sorted
 * there, so the sort and the walk touch no other memory. Same result as sorting by offset and walking.
 */
#define FEW 32
static aplan_status walk_few(walk *w, const span *nb, size_t n) {
    uint64_t lo[FEW], hi[FEW];
    APLAN_ASSERT(n <= FEW);
    for (size_t j = 0; j < n; j++) {
        const uint64_t o = nb[j].lo, e = nb[j].hi;
        size_t at = j;
        for (; at > 0 && lo[at - 1u] > o; at--) {
            lo[at] = lo[at - 1u];
            hi[at] = hi[at - 1u];
        }
        lo[at] = o;
        hi[at] = e;
    }
    aplan_status st = APLAN_OK;
    for (size_t j = 0; j < n && !w->done && st == APLAN_OK; j++) st = walk_one(w, lo[j], hi[j]);
    return st;
}

/*
 * The lowest rule over one bucket whose members all start in [start, start + width), every member below the bucket
 * walked: what the walk would do over the bucket's members in offset order, decided where it can be from three
 * figures of the bucket instead of ordering it. Let lo be the members' lowest offset, last their highest and hi their
 * highest end.
 *   - lo >= c_end: the candidate [c, c_end) fits below every member: done.
 *   - else, when last < c_end or width <= size, no gap inside the bucket can be the answer, so the walk leaves it
 *     with c raised to the aligned hi (when hi > c). Proof: the first member in offset order starts at lo < c_end;
 *     past it the candidate is above lo (the member's aligned end when they overlap, else c, which is at least that
 *     end). A later member ends the walk only by starting at least size above the candidate, so more than size above
 *     lo; but every member starts at most at last < c_end <= candidate + size, or below start + width <= lo + size.
 * Returns true when decided (w updated, or *st set to APLAN_E_SIZE_OVERFLOW); false: the bucket needs ordering.
 */
static bool lowest_summary(walk *w, const span *nb, size_t n, uint64_t width, aplan_status *st) {
    uint64_t lo = UINT64_MAX, last = 0, hi = 0;
    for (size_t j = 0; j < n; j++) {
        if (nb[j].lo < lo) lo = nb[j].lo;
        if (nb[j].lo > last) last = nb[j].lo;
        if (nb[j].hi > hi) hi = nb[j].hi;
    }
    if (lo < w->c_end && last >= w->c_end && width > w->f.size) return false;
    *st = lowest_past(w, lo, hi); /* lo >= c_end: done; else c rises above hi */
    return true;
}

/* Walks n neighbours in any order after sorting them by offset in place (a heap sort: no recursion, no memory). */
static aplan_status walk_sorted(walk *w, span *nb, size_t n) {
    for (size_t end = n, i = n / 2u;;) { /* build the heap (i > 0), then move its top past the end (end > 1) */
        if (i > 0) {
            i--;
        } else if (end > 1u) {
            const span t = nb[0];
            nb[0] = nb[--end];
            nb[end] = t;
        } else {
            break;
        }
        const span x = nb[i];
        size_t at = i, child;
        while ((child = 2u * at + 1u) < end) { /* sift x down */
            if (child + 1u < end && nb[child + 1u].lo > nb[child].lo) child++;
            if (nb[child].lo <= x.lo) break;
            nb[at] = nb[child];
            at = child;
        }
        nb[at] = x;
    }
    aplan_status st = APLAN_OK;
    for (size_t j = 0; j < n && !w->done && st == APLAN_OK; j++) st = walk_one(w, nb[j].lo, nb[j].hi);
    return st;
}

/*
 * The gap among many neighbours (offsets below 2^(shift + 8)) without sorting them: they are bucketed by 8 bits of
 * their offsets and the buckets walked from the lowest. The lowest rule is done at the first bucket that starts at or
 * above the end of its candidate gap, so the buckets above the answer are never looked at, and decides most of the
 * others from their lowest offset, highest offset and highest end (lowest_summary). A bucket of more than FEW
 * neighbours that is not decided is bucketed again by the next 8 bits (LEVELS_OF_BUCKETS levels in all, an explicit
 * stack rather than recursion, so the stack stays bounded: about 1 KiB a level), then sorted (walk_sorted). near and
 * spare (k entries each) are overwritten. O(k) per level plus the sorts.
 */
#define LEVELS_OF_BUCKETS 2
static aplan_status walk_many(walk *w, span *near, span *spare, size_t k, unsigned shift) {
    struct {
        uint32_t first[257]; /* the buckets in out, as spread gives them */
        span *in, *out;      /* the level's neighbours, and their spread copy */
        uint64_t base;       /* where its offsets start */
        unsigned shift, d;   /* its bucket width 2^shift, and the next bucket to walk */
    } lv[LEVELS_OF_BUCKETS];
    unsigned l = 0;
    lv[0].in = near;
    lv[0].out = spare;
    lv[0].base = 0;
    lv[0].shift = shift;
    lv[0].d = 0;
    spread(near, spare, k, 0, shift, lv[0].first);
    aplan_status st = APLAN_OK;
    while (st == APLAN_OK && !w->done) {
        if (lv[l].d == 256u) { /* this level is walked: back to the one above */
            if (l == 0) break;
            l--;
            continue;
        }
        const unsigned d = lv[l].d++;
        const size_t from = lv[l].first[d], n = lv[l].first[d + 1u] - from;
        if (n == 0) continue;
        const uint64_t start = lv[l].base + ((uint64_t)d << lv[l].shift); /* where the bucket's offsets start */
        span *const bucket = lv[l].out + from;
        if (!w->smallest) {
            if (start >= w->c_end) { /* every neighbour left starts there: [c, c_end) is the answer */
                w->done = true;
                break;
            }
            if (lowest_summary(w, bucket, n, (uint64_t)1 << lv[l].shift, &st)) continue;
        }
        if (n <= FEW) {
            st = walk_few(w, bucket, n);
        } else if (l + 1u < LEVELS_OF_BUCKETS && lv[l].shift > 0) { /* bucket it again, into in's room */
            const unsigned next = lv[l].shift > 8u ? lv[l].shift - 8u : 0;
            l++;
            lv[l].in = bucket;
            lv[l].out = lv[l - 1u].in + from;
            lv[l].base = start;
            lv[l].shift = next;
            lv[l].d = 0;
            spread(lv[l].in, lv[l].out, n, start, next, lv[l].first);
        } else {
            st = walk_sorted(w, bucket, n);
        }
    }
    return st;
}

/* The shift that puts every offset below top into 256 buckets of 2^shift bytes. */
static unsigned top_shift(uint64_t top) {
    unsigned shift = 0;
    while (shift < 56u && (top - 1u) >> shift > 0xFFu) shift++;
    return shift;
}

/* The gap among the k neighbours in near[] (any order, offsets below top) under the walk's rule, from w's state;
 * near and spare are overwritten. */
static aplan_status walk_near(walk *w, span *near, span *spare, size_t k, uint64_t top) {
    return k <= FEW ? walk_few(w, near, k) : walk_many(w, near, spare, k, top_shift(top));
}

/* The spans of the buffers in hits, read from the plan, into nb (n <= FEW), then walk_few. */
static aplan_status walk_few_indices(walk *w, const aplan_problem *p, const uint64_t *offsets, const uint32_t *hits,
                                     size_t n) {
    span nb[FEW];
    for (size_t j = 0; j < n; j++) nb[j] = (span){offsets[hits[j]], offsets[hits[j]] + aplan__size(p, hits[j])};
    return walk_few(w, nb, n); /* placed: every end fits 64 bits */
}

/*
 * walk_near for problems below SPAN_MIN: the k neighbours are buffer indices in hits (tmp: k entries of room), their
 * offsets read from the plan. They are bucketed by the top byte of their offsets (below top) and the buckets walked
 * from the lowest: up to FEW copied to the stack (walk_few), more sorted by offset (radix) and walked. The lowest
 * rule is done at the first bucket that starts at or above the end of its candidate, so the buckets above the answer
 * are never sorted. hits and tmp are overwritten; 1 KiB of stack for the bucket counts.
 */
static aplan_status walk_indices(walk *w, const aplan_problem *p, const uint64_t *offsets, uint32_t *hits,
                                 uint32_t *tmp, size_t k, uint64_t top) {
    if (k <= FEW) return walk_few_indices(w, p, offsets, hits, k);
    const unsigned shift = top_shift(top);
    uint32_t first[257];
    APLAN_MEMSET(first, 0, sizeof first);
    for (size_t j = 0; j < k; j++) first[offsets[hits[j]] >> shift]++;
    uint32_t end = 0;
    for (unsigned d = 0; d < 256u; d++) first[d] = end += first[d]; /* the end of each bucket */
    first[256] = end;
    for (size_t j = k; j-- > 0;) tmp[--first[offsets[hits[j]] >> shift]] = hits[j]; /* ends become starts */
    aplan_status st = APLAN_OK;
    for (unsigned d = 0; d < 256u && st == APLAN_OK && !w->done; d++) {
        const size_t from = first[d], n = first[d + 1u] - from;
        if (n == 0) continue;
        if (!w->smallest && ((uint64_t)d << shift) >= w->c_end) break; /* this bucket and all above start there */
        if (n <= FEW) {
            st = walk_few_indices(w, p, offsets, tmp + from, n);
            continue;
        }
        aplan__sort_by(tmp + from, hits + from, n, APLAN__BY_OFFSET, p, offsets);
        for (size_t j = from; j < from + n && !w->done && st == APLAN_OK; j++)
            st = walk_one(w, offsets[tmp[j]], offsets[tmp[j]] + aplan__size(p, tmp[j])); /* placed: fits */
    }
    return st;
}

/* Where the walk puts the buffer: the lowest rule's candidate, or the smallest rule's best gap or the aligned top of
 * the neighbours. false when that passes 2^64 - 1 (the smallest rule). */
static bool walk_result(const walk *w, uint64_t *out) {
    if (w->smallest) return fit_end(&w->f, out);
    *out = w->c;
    return true;
}

/*
 * The dense path. Where a buffer conflicts with a large share of the others (iopddl-like training traces, generated
 * dense shapes), the tree hands over thousands of neighbours per buffer and most of them lie below the gap anyway: it
 * is then cheaper to walk every placed member in offset order, as TFLM's planner does, but over the dense list, whose
 * blocks lie in memory in that order, testing each member's conflict from its position and rank (as find_conflicts
 * does) without a branch. The walk stops at the first member, conflicting or not, at or above the candidate's end:
 * every later conflicting one then lies above it too. Chosen per problem (plan): from SPAN_MIN to DENSE_MAX buffers,
 * with conflicting pairs at least 1 / DENSE_SHARE of all m^2 / 2 pairs among its m members, by the lowest rule,
 * outside banked placement, and with every end the walk can meet below 2^63 (so the sums below need no checks).
 */
#define DENSE_SHARE 12u /* dense when 2 P >= m^2 / DENSE_SHARE for P conflicting pairs among m members */

/* Inserts [off, end) of the member at position pos (end rank rank) into the dense list after the members at the same
 * offset. It goes into the last block whose first offset is at or below off, never before that block's first member,
 * so a block's first offset, once set at its split, stays its first member's. O(log(blocks) + DENSE_B + blocks): a
 * bisection over the blocks' first offsets and one within the block, then moves within the block, and on a split
 * within the block order. */
static void dense_insert(dense *d, uint64_t off, uint64_t end, uint32_t pos, uint32_t rank) {
    if (d->blocks == 0) {
        d->order[0] = 0;
        d->count[0] = 0;
        d->first[0] = 0;
        d->blocks = 1;
    }
    size_t lo = 0, hi = d->blocks; /* the last logical block whose first offset is at or below off (block 0's is 0) */
    while (hi - lo > 1u) {
        const size_t mid = lo + (hi - lo) / 2u;
        if (d->first[mid] <= off) lo = mid; else hi = mid;
    }
    dense_block *b = &d->block[d->order[lo]];
    uint32_t *count = &d->count[d->order[lo]];
    size_t at = 0, top = *count; /* the first slot whose offset is above off */
    while (at < top) {
        const size_t mid = at + (top - at) / 2u;
        if (b->off[mid] <= off) at = mid + 1u; else top = mid;
    }
    if (*count == DENSE_B) { /* full: the upper half moves to a new block after it */
        const size_t fresh = d->blocks, half = DENSE_B / 2u;
        dense_block *c = &d->block[fresh];
        APLAN_MEMCPY(c->off, b->off + half, half * sizeof b->off[0]);
        APLAN_MEMCPY(c->end, b->end + half, half * sizeof b->end[0]);
        APLAN_MEMCPY(c->pos, b->pos + half, half * sizeof b->pos[0]);
        APLAN_MEMCPY(c->rank, b->rank + half, half * sizeof b->rank[0]);
        d->count[fresh] = (uint32_t)half;
        *count = (uint32_t)half;
        APLAN_MEMMOVE(d->order + lo + 2u, d->order + lo + 1u, (d->blocks - lo - 1u) * sizeof d->order[0]);
        APLAN_MEMMOVE(d->first + lo + 2u, d->first + lo + 1u, (d->blocks - lo - 1u) * sizeof d->first[0]);
        d->order[lo + 1u] = (uint32_t)fresh;
        d->first[lo + 1u] = c->off[0];
        d->blocks++;
        if (at > half) {
            lo++;
            b = c;
            count = &d->count[fresh];
            at -= half;
        }
    }
    const size_t moved = *count - at;
    APLAN_MEMMOVE(b->off + at + 1u, b->off + at, moved * sizeof b->off[0]);
    APLAN_MEMMOVE(b->end + at + 1u, b->end + at, moved * sizeof b->end[0]);
    APLAN_MEMMOVE(b->pos + at + 1u, b->pos + at, moved * sizeof b->pos[0]);
    APLAN_MEMMOVE(b->rank + at + 1u, b->rank + at, moved * sizeof b->rank[0]);
    b->off[at] = off;
    b->end[at] = end;
    b->pos[at] = pos;
    b->rank[at] = rank;
    (*count)++;
}

/* The lowest gap for a member that conflicts with the placed members at positions below before whose rank passes
 * live_from (find_conflicts' test), of size bytes, with am = alignment - 1, or 0 where every end is aligned already
 * (plan: ends_aligned). O(members below the gap), four at a time: the highest conflicting end over each four is a
 * short chain, and whether any of the four starts at or above the candidate's end is tested from their prefix maxima
 * without waiting for the chain. */
static inline uint64_t dense_gap(const dense *d, uint32_t before, uint32_t live_from, uint64_t size, uint64_t am) {
#define DENSE_END(q) (b->end[q] & (0u - (uint64_t)((b->pos[q] < before) & (b->rank[q] > live_from))))
#define DENSE_LIMIT(r) ((((r) + am) & ~am) + size)
    uint64_t reach = 0; /* the highest end of a conflicting member so far */
    for (size_t l = 0; l < d->blocks; l++) {
        const dense_block *b = &d->block[d->order[l]];
        const size_t count = d->count[d->order[l]];
        size_t j = 0;
        for (; j + 4u <= count; j += 4u) {
            const uint64_t e0 = DENSE_END(j), e1 = DENSE_END(j + 1u), e2 = DENSE_END(j + 2u), e3 = DENSE_END(j + 3u);
            const uint64_t p1 = e0 > e1 ? e0 : e1, p2 = p1 > e2 ? p1 : e2, p3 = p2 > e3 ? p2 : e3;
            const uint64_t r1 = reach > e0 ? reach : e0, r2 = reach > p1 ? reach : p1, r3 = reach > p2 ? reach : p2;
            if ((b->off[j] >= DENSE_LIMIT(reach)) | (b->off[j + 1u] >= DENSE_LIMIT(r1)) |
                (b->off[j + 2u] >= DENSE_LIMIT(r2)) | (b->off[j + 3u] >= DENSE_LIMIT(r3))) {
                break; /* the tail loop finds which */
            }
            reach = reach > p3 ? reach : p3;
        }
        for (; j < count; j++) {
            if (b->off[j] >= DENSE_LIMIT(reach)) return (reach + am) & ~am;
            const uint64_t e = DENSE_END(j);
            if (e > reach) reach = e;
        }
    }
    return (reach + am) & ~am;
#undef DENSE_END
#undef DENSE_LIMIT
}

/*
 * Where banked placement puts buffer x (the member at position at, of size and alignment align): the first region
 * it may use whose gap ends within the capacity, else the last whose gap fits 64 bits. hits: x's conflicting placed
 * members' positions once asked (*asked), in w[HITS]. Returns APLAN_E_SIZE_OVERFLOW when no region can hold it within
 * 64 bits.
 */
/* sum + size rounded up to align, saturating at 2^64 - 1 (then all_live's test below never passes: the tree decides). */
static inline uint64_t add_rounded(uint64_t sum, uint64_t size, uint64_t align) {
    uint64_t r;
    return aplan__align_up(size, align, &r) && aplan__add(sum, r, &r) ? r : UINT64_MAX;
}

/*
 * x's region and offset under banked placement. all_live: every member is live at one step and no two fixed buffers
 * may share bytes, so the buffers of a region never share bytes and, each offset there being a multiple of the
 * region's alignment, its free bytes below its aligned top are that top less its rounded sizes (b->sum): when those
 * are fewer than x's size no gap below the top holds x, and x's place there is the aligned top, found without the
 * tree. So the region alignment costs no walk (it made every gap of padding look free, and every buffer walk every
 * buffer of its region). on_top (the rule was stopped): every region gives its aligned top, never a gap.
 */
static aplan_status bank_place(const aplan__bank *bank, const bank_space *b, const conflicts *tree, uint32_t *const *w,
                               span *const *spans, bool all_live, bool on_top, bool smallest, size_t at, uint32_t x,
                               uint64_t size, uint64_t align, const uint64_t *offsets, size_t *region,
                               uint64_t *offset) {
    const aplan_regions *rg = bank->regions;
    const uint64_t mask = aplan__region_mask(rg, x);
    size_t hits = 0;
    bool asked = false;
    aplan_status found = APLAN_E_SIZE_OVERFLOW;
    for (size_t r = 0; r < rg->count; r++) {
        if (((mask >> r) & 1u) == 0) continue;
        const uint64_t ra = aplan__region_align(rg, r), a = align > ra ? align : ra;
        uint64_t o = 0, end;
        aplan_status st = APLAN_OK;
        uint64_t aligned_top;
        if (on_top || (all_live && aplan__align_up(b->top[r], ra, &aligned_top) && aligned_top - b->sum[r] < size)) {
            if (!aplan__align_up(b->top[r], a, &o)) st = APLAN_E_SIZE_OVERFLOW;
        } else {
            if (!asked) {
                hits = find_conflicts(tree, at, NULL, w[HITS]);
                asked = true;
            }
            size_t k = 0;
            for (size_t h = 0; h < hits; h++) {
                const uint32_t pos = w[HITS][h], j = tree->order[pos];
                if (bank->region_of[j] != r) continue;
                if (tree->placed != NULL) spans[NEAR][k++] = tree->placed[pos];
                else b->hits[k++] = j;
            }
            if (k > 0) {
                walk g = {smallest, 0, size, false, {size, a, 0, 0, UINT64_MAX}};
                st = tree->placed != NULL ? walk_near(&g, spans[NEAR], spans[SPARE], k, b->top[r])
                                          : walk_indices(&g, tree->p, offsets, b->hits, w[TMP], k, b->top[r]);
                if (st == APLAN_OK && !walk_result(&g, &o)) st = APLAN_E_SIZE_OVERFLOW;
            }
        }
        if (st != APLAN_OK || !aplan__add(o, size, &end)) continue; /* not within 64 bits here */
        *region = r;
        *offset = o;
        found = APLAN_OK;
        if (end <= rg->regions[r].capacity) break;
    }
    return found;
}

/* Inline in both entries: the bank==NULL copy folds to the single-region engine, so a device that plans one arena links
 * none of the banked placement. The coverage build (APLAN_COVERAGE, meson's b_coverage) keeps one out-of-line copy:
 * gcov counts each inline copy's branches apart, and half of them are dead by construction (bank is a constant in
 * each copy), so the gate would measure the inlining rather than the tests. */
#ifdef APLAN_COVERAGE
#define ENGINE static
#else
#define ENGINE static inline __attribute__((always_inline))
#endif

/* Whether a search's options stop the rule before its next placement, with placed buffers placed so far: max_nodes
 * reached, or the callback, asked when placed reaches *next_check (check_every, then every check_every), says so. */
static size_t check_every(const aplan_search_options *o) { return o->check_every != 0 ? o->check_every : 1u; }
/* banked: banked placement, a part of a region strategy whose search nodes are its own (aplan__bank_plan): it asks the
 * callback with 0 nodes, as a search making its start does, and max_nodes, a count of search nodes, does not apply. */
static bool told_to_stop(const aplan_search_options *o, size_t placed, size_t *next_check, bool banked) {
    if (!banked && o->max_nodes != 0 && placed >= o->max_nodes) return true;
    if (o->stop == NULL || placed < *next_check) return false;
    *next_check = placed + check_every(o);
    return o->stop(o->context, banked ? 0 : placed);
}

#define AHEAD 8u /* placements ahead that the loop asks for (APLAN_PREFETCH) */

/* ctx: NULL (plan every buffer by the rule), or a search's (aplan__greedy_search, aplan__bank_plan). */
ENGINE aplan_status plan(const aplan__greedy_rule *rule, const aplan_problem *p, const aplan__bank *bank,
                         aplan_search_context *ctx, void *scratch, size_t scratch_size, uint64_t *offsets,
                         aplan_report *report) {
    aplan__scratch s;
    uint32_t *w[ARRAYS];
    uint64_t *extra;
    span *spans[SPANS];
    dense dn;
    conflicts tree = {.p = p};
    bank_space b = {NULL, NULL, NULL};
    aplan__scratch_init(&s, scratch, scratch_size);
    layout(&s, p->count, rule->wide, rule->gap == APLAN__GAP_LOWEST && bank == NULL, w, &tree.maxima, tree.start,
           &tree.levels, &extra, spans, &dn);
    if (bank != NULL) bank_layout(&s, p->count, bank->regions->count, &b);
    if (s.failed) return APLAN_E_SCRATCH_TOO_SMALL;
    size_t online, m = 0;
    aplan__split(p, true, offsets, w[ORDER], &online, NULL, NULL, NULL);
    if (bank != NULL) {
        for (size_t i = 0; i < p->count; i++) bank->region_of[i] = (uint32_t)aplan__region_first(bank->regions, i);
        for (size_t r = 0; r < bank->regions->count; r++) b.top[r] = b.sum[r] = 0;
        for (size_t i = 0; i < p->count; i++) { /* the fixed buffers' rounded sizes (in their one region) */
            const size_t r = bank->region_of[i];
            if (offsets[i] == APLAN_NO_OFFSET || !aplan__occupies(p, i)) continue;
            b.sum[r] = add_rounded(b.sum[r], aplan__size(p, i), aplan__region_align(bank->regions, r));
        }
    }
    /* The size order; stable sorts over a list in index order, so equal keys keep the tie order below. */
    if (rule->tie == APLAN__TIE_LAST_ADDED) { /* list by falling index */
        for (size_t i = 0, j = online; i + 1u < j; i++, j--) {
            const uint32_t t = w[ORDER][i];
            w[ORDER][i] = w[ORDER][j - 1u];
            w[ORDER][j - 1u] = t;
        }
    } else if (rule->tie == APLAN__TIE_LOWER) {
        aplan__sort_by(w[ORDER], w[TMP], online, APLAN__BY_LOWER, p, NULL);
    }
    aplan__sort_by(w[ORDER], w[TMP], online, APLAN__BY_SIZE_DESC, p, NULL);
    if (bank != NULL && bank->key != NULL) {
        APLAN_ASSERT(rule->order == NULL); /* the key reorders the size order; a rule's own order would undo it */
        aplan__sort_by_key(w[ORDER], w[TMP], online, bank->key);
    }
    /* The tree holds every buffer that occupies memory, listed by rising index so that the sort ties by index. */
    for (uint32_t i = 0; i < p->count; i++) {
        if (aplan__occupies(p, i)) w[TREE_ORDER][m++] = i;
    }
    aplan__sort_by(w[TREE_ORDER], w[TMP], m, APLAN__BY_LOWER, p, NULL);
    tree.order = w[TREE_ORDER];
    tree.rank = w[RANK];
    tree.placed = spans[PLACED];
    if (tree.placed != NULL) { /* scan_leaf copies unplaced members' entries too (and drops them) */
        for (size_t k = 0; k < m; k++) tree.placed[k] = (span){0, 0};
    }
    /* The maxima over the m members (fewer than the buffers: the levels are laid out for n, and used for m). */
    (void)aplan__greedy_levels(m, NULL, &tree.levels);
    tree.count[0] = m;
    for (unsigned l = 1; l <= tree.levels; l++) tree.count[l] = (tree.count[l - 1u] + FAN - 1u) / FAN;
    /* Ranks by a merge: the members by end step (left in TMP for the order function) against the starts, with HITS
     * as the map from buffer to position and RANK as the sort's second array (until the ranks are written). */
    uint32_t *position = w[HITS];
    for (size_t k = 0; k < m; k++) position[w[TREE_ORDER][k]] = (uint32_t)k;
    for (size_t k = 0; k < m; k++) w[TMP][k] = w[TREE_ORDER][k];
    aplan__sort_by(w[TMP], w[RANK], m, APLAN__BY_UPPER, p, NULL);
    for (size_t k = 0, starts = 0; k < m; k++) {
        const uint64_t upper = aplan__upper(p, w[TMP][k]);
        while (starts < m && aplan__lower(p, w[TREE_ORDER][starts]) < upper) starts++;
        w[RANK][position[w[TMP][k]]] = (uint32_t)starts | UNPLACED;
    }
    for (size_t k = 0; k < online; k++) w[ORDER][k] = position[w[ORDER][k]]; /* placing order, as positions */
    if (rule->order != NULL) {
        const aplan__greedy_view view = {p, w[ORDER], online, w[TREE_ORDER], w[RANK], w[TMP], m, w[HITS],
                                         tree.maxima, extra};
        rule->order(&view);
    }
    for (unsigned l = 0; l < tree.levels; l++) {
        for (size_t e = 0; e < tree.count[l + 1u]; e++) tree.maxima[tree.start[l] + e] = 0;
    }
    uint64_t top = 0; /* the highest end of a placed buffer: every offset among the hits is below it */
    uint64_t latest_start = 0, earliest_end = UINT64_MAX, common = m > 0 ? UINT64_MAX : 1u, placed_sum = 0;
    bool fixed = false;
    for (size_t k = 0; k < m; k++) { /* the smallest alignment, a divisor of every offset; the fixed members */
        const uint32_t i = w[TREE_ORDER][k];
        if (aplan__lower(p, i) > latest_start) latest_start = aplan__lower(p, i);
        if (aplan__upper(p, i) < earliest_end) earliest_end = aplan__upper(p, i);
        if (aplan__alignment(p, i) < common) common = aplan__alignment(p, i);
    }
    for (size_t k = 0; k < m; k++) { /* the fixed members are placed already */
        const uint32_t i = w[TREE_ORDER][k];
        if (offsets[i] == APLAN_NO_OFFSET) continue;
        placed_sum = add_rounded(placed_sum, aplan__size(p, i), common);
        place(&tree, k, offsets[i], offsets[i] + aplan__size(p, i)); /* validated: fits 64 bits */
        if (offsets[i] + aplan__size(p, i) > top) top = offsets[i] + aplan__size(p, i);
        if (bank != NULL && offsets[i] + aplan__size(p, i) > b.top[bank->region_of[i]])
            b.top[bank->region_of[i]] = offsets[i] + aplan__size(p, i);
        fixed = true;
    }
    /* Every buffer live at one step (and no two fixed ones may share bytes): each conflicts with every placed one, and
     * those never share bytes. Every offset is a multiple of the smallest alignment (common), so a buffer's bytes up
     * to the next multiple are no use to any other: the free bytes below the aligned highest end are that end less the
     * placed sizes rounded up to it (placed_sum, which saturates). When those are fewer than a buffer's size no gap
     * can hold it and it goes on top (under either rule), found without asking the tree. Without the rounding an
     * alignment above the sizes' made every gap of padding look free, and every buffer walk every placed one. */
    const bool all_live = latest_start < earliest_end && (!fixed || (p->flags & APLAN_ALLOW_FIXED_ALIAS) == 0);
    const bool smallest = rule->gap == APLAN__GAP_SMALLEST;
    /* The dense path (dense_gap): 2 P = 2 (sum of ranks) - m^2 - m, as each member overlaps rank(x) members that start
     * before it ends less those that end before it starts, and the latter sum to m^2 - (sum of ranks). reach bounds
     * every end the rule can give, so below 2^63 nothing in dense_gap overflows; ends_aligned: every size and fixed
     * offset is a multiple of the largest alignment, so every end is aligned for every buffer. */
    bool use_dense = bank == NULL && dn.block != NULL; /* bank == NULL: folds away in the banked copy */
    bool ends_aligned = true;
    if (use_dense) {
        uint64_t ranks = 0, reach = top, widest = 1;
        for (size_t k = 0; k < m; k++) ranks += w[RANK][k] & ~UNPLACED;
        use_dense = 2u * ranks * DENSE_SHARE >= ((uint64_t)m * m + m) * DENSE_SHARE + (uint64_t)m * m;
        for (size_t k = 0; k < m && use_dense; k++) {
            const uint32_t i = w[TREE_ORDER][k];
            const uint64_t a = aplan__alignment(p, i);
            if (a > widest) widest = a;
            if (offsets[i] == APLAN_NO_OFFSET)
                use_dense = aplan__add(reach, aplan__size(p, i), &reach) && aplan__add(reach, a - 1u, &reach);
        }
        use_dense = use_dense && reach < (UINT64_C(1) << 63);
        for (size_t k = 0; k < m && use_dense; k++) {
            const uint32_t i = w[TREE_ORDER][k];
            ends_aligned = ends_aligned && (aplan__size(p, i) & (widest - 1u)) == 0 && /* a power of two */
                           (offsets[i] == APLAN_NO_OFFSET || (offsets[i] & (widest - 1u)) == 0);
            if (offsets[i] != APLAN_NO_OFFSET)
                dense_insert(&dn, offsets[i], offsets[i] + aplan__size(p, i), (uint32_t)k, w[RANK][k] & ~UNPLACED);
        }
    }
    size_t next_check = ctx != NULL ? check_every(ctx->options) : 0;
    bool stopped = false;
    for (size_t k = 0; k < online; k++) {
        /* The placing order jumps about the problem: ask for the next buffers' entries a few placements ahead, in
         * two stages (a position's entries, then its buffer's), so that large problems do not wait on each miss. */
        if (k + AHEAD < online && !use_dense) {
            const size_t ahead = w[ORDER][k + AHEAD];
            APLAN_PREFETCH(&w[TREE_ORDER][ahead]);
            APLAN_PREFETCH(&w[RANK][ahead]);
            for (unsigned l = 0, e = (unsigned)ahead; l < tree.levels; l++) { /* its query's path down the tree */
                e /= FAN;
                APLAN_PREFETCH(&tree.maxima[tree.start[l] + e]);
            }
        }
        if (k + AHEAD / 2u < online && !use_dense) {
            const size_t ahead = w[ORDER][k + AHEAD / 2u];
            const uint32_t y = w[TREE_ORDER][ahead];
            if (aplan__is32(p)) {
                APLAN_PREFETCH(&p->buffers32[y]);
            } else {
                APLAN_PREFETCH(&p->buffers[y]);
            }
            APLAN_PREFETCH(&offsets[y]);
            if (ahead > 0) { /* first_of_start's */
                const uint32_t before = w[TREE_ORDER][ahead - 1u];
                if (aplan__is32(p)) {
                    APLAN_PREFETCH(&p->buffers32[before].lower);
                } else {
                    APLAN_PREFETCH(&p->buffers[before].lower);
                }
            }
            if (tree.placed != NULL) { /* the spans its query reads first: its own leaf's */
                APLAN_PREFETCH(&tree.placed[ahead & ~(size_t)(FAN - 1u)]);
                APLAN_PREFETCH(&tree.placed[(ahead & ~(size_t)(FAN - 1u)) + FAN / 2u]);
            }
        }
        const size_t at = w[ORDER][k];
        const uint32_t x = w[TREE_ORDER][at];
        const uint64_t size = aplan__size(p, x);
        const uint64_t align = aplan__alignment(p, x);
        aplan_status st = APLAN_OK;
        size_t hits;
        uint64_t end;
        if (ctx != NULL && !stopped && told_to_stop(ctx->options, k, &next_check, bank != NULL)) {
            stopped = true;
            if (bank == NULL) ctx->nodes = k; /* banked: the nodes are the region strategy's search's */
        }
        if (bank != NULL) {
            size_t r = 0;
            st = bank_place(bank, &b, &tree, w, spans, all_live, stopped, smallest, at, x, size, align, offsets, &r,
                            &offsets[x]);
            if (st == APLAN_OK) {
                bank->region_of[x] = (uint32_t)r;
                if (offsets[x] + size > b.top[r]) b.top[r] = offsets[x] + size;
                b.sum[r] = add_rounded(b.sum[r], size, aplan__region_align(bank->regions, r)); /* see bank_place */
            }
        } else if (stopped || (all_live && aplan__align_up(top, common, &end) && end - placed_sum < size)) {
            /* on top: no gap below it can hold the buffer (all_live, see above), or the rule was stopped (each buffer
             * left goes above the highest end so far: valid whatever it conflicts with) */
            if (!aplan__align_up(top, align, &offsets[x]) || !aplan__add(offsets[x], size, &end)) {
                st = APLAN_E_SIZE_OVERFLOW;
            }
        } else if (use_dense) {
            offsets[x] = dense_gap(&dn, tree.rank[at] & ~UNPLACED, (uint32_t)first_of_start(&tree, at), size,
                                   ends_aligned ? 0 : align - 1u);
        } else if ((hits = find_conflicts(&tree, at, spans[NEAR], w[HITS])) == 0) {
            offsets[x] = 0;
        } else {
            walk g = {smallest, 0, size, false, {size, align, 0, 0, UINT64_MAX}};
            if (tree.placed != NULL) {
                st = walk_near(&g, spans[NEAR], spans[SPARE], hits, top);
            } else {
                for (size_t j = 0; j < hits; j++) w[HITS][j] = tree.order[w[HITS][j]]; /* positions to buffers */
                st = walk_indices(&g, p, offsets, w[HITS], w[TMP], hits, top);
            }
            if (st == APLAN_OK && !walk_result(&g, &offsets[x])) st = APLAN_E_SIZE_OVERFLOW;
        }
        if (st != APLAN_OK) {
            offsets[x] = APLAN_NO_OFFSET;
            aplan__report_value(report, st, x, 0, size);
            return st;
        }
        if (use_dense) dense_insert(&dn, offsets[x], offsets[x] + size, (uint32_t)at, tree.rank[at] & ~UNPLACED);
        else place(&tree, at, offsets[x], offsets[x] + size);
        if (offsets[x] + size > top) top = offsets[x] + size;
        placed_sum = add_rounded(placed_sum, size, common); /* all_live: disjoint, so at most the aligned top */
    }
    if (ctx != NULL) ctx->outcome = stopped ? APLAN_OUTCOME_BEST_FOUND : APLAN_OUTCOME_PLAN;
    return APLAN_OK;
}

aplan_status aplan__greedy_search(const aplan__greedy_rule *rule, const aplan_problem *p, aplan_search_context *ctx,
                                  void *scratch, size_t scratch_size, uint64_t *offsets, aplan_report *report) {
    if (lean(rule, p)) { /* the walk is not stopped, as in compact builds */
        if (ctx != NULL) ctx->outcome = APLAN_OUTCOME_PLAN;
        return aplan__greedy_walk(NULL, false, rule->lean, NULL, p, scratch, scratch_size, offsets, report);
    }
    return plan(rule, p, NULL, ctx, scratch, scratch_size, offsets, report);
}

aplan_status aplan__greedy_plan(const aplan__greedy_rule *rule, const aplan_problem *p, void *scratch,
                                size_t scratch_size, uint64_t *offsets, aplan_report *report) {
    return aplan__greedy_search(rule, p, NULL, scratch, scratch_size, offsets, report);
}

aplan_status aplan__bank_plan(const aplan__greedy_rule *rule, const aplan_problem *p, const aplan__bank *bank,
                              aplan_search_context *ctx, void *scratch, size_t scratch_size, uint64_t *offsets,
                              aplan_report *report) {
    if (bank == NULL) return APLAN_E_INVALID_ARG; /* never (region_banked passes its own); lets the copy drop the
                                                   * single-region paths */
    return plan(rule, p, bank, ctx, scratch, scratch_size, offsets, report);
}
#endif
