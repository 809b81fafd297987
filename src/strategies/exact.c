/*
 * exact: a depth-first branch and bound that fits a capacity or minimises the arena, and says what it proved.
 *
 * The search space is MiniMalloc's (Moffitt, ASPLOS 2023). Every plan can be pushed down until each movable buffer
 * sits at the lowest aligned offset above the buffers it conflicts with that lie below it; such a plan is built by
 * placing the buffers in order of rising offset, each at its "minimum offset" (the lowest aligned offset above
 * every placed buffer it conflicts with; a fixed buffer at its fixed offset, which must not lie below that). So a
 * node is a set of placed buffers and a child places one more. Only canonical sequences are searched: the key
 * (offset, rank) never decreases along a path, the rank being the buffer's place in a preorder. Pruning:
 *   - section inference: time is cut into sections at every start and end; in each section the floor (the highest
 *     end placed there), the lowest minimum offset of an unplaced buffer there and the current offset, whichever is
 *     highest, plus the unplaced bytes live there must fit the capacity;
 *   - a node is dead when an unplaced buffer's minimum offset plus its size passes the capacity (offsets only rise),
 *     or a fixed buffer's fixed offset lies below its minimum offset or below the current key;
 *   - dominance: a child at or above the lowest top (minimum offset + size) of an unplaced movable buffer is skipped:
 *     that buffer fits below it, so the plan would not be pushed down;
 *   - a placed buffer that conflicts with no unplaced one leaves the rest unchanged, and no sibling after it could
 *     place it later (its key is below theirs for good): when its subtree fails, the node fails;
 *   - independent groups: buffers whose lifetimes chain into one interval form a group; groups share no step, so
 *     each is searched alone and the arena is the highest of theirs;
 *   - decomposition: where no unplaced buffer spans a section boundary, the unplaced buffers fall into pieces that
 *     share nothing; each is ranked afresh and solved from key (0, -1), one after another, and a piece that fails
 *     fails the node that split it off, whatever the other pieces do.
 * Children are tried by (minimum offset, rank). Three preorders (lifetime width, area = size x width, and the
 * largest section total over the lifetime, in MiniMalloc's three orders of those keys) take turns under a node limit
 * that doubles every round, so whichever suits the instance finishes early; a pass that completes proves its answer.
 *
 * Goals: FIT runs passes at problem.capacity, and stops at the first plan or proves that none exists. MINIMISE starts
 * from a plan (options.start, else greedy_by_size's) and runs passes that fit the best known bound, capacities 1/2,
 * 3/4 and 7/8 of the way up, and one byte below the best plan (search_group), until the two meet (the best is then
 * proven optimal) or the budget runs out: options.max_nodes, and options.stop asked every options.check_every nodes.
 * Then the best plan found is returned, flagged BEST_FOUND. A pass never changes its capacity, which keeps the
 * decomposition's rule sound.
 *
 * Sizes near 2^64: greedy_by_size's start can pass 2^64 - 1 where another order fits (largest first, then a buffer
 * aligned above it). A group it left without a plan is searched from its bound and the capacity alone: the top
 * probe is then the capacity itself, and with APLAN_UNLIMITED that asks for any plan whose ends fit 64 bits. When
 * none fits the capacity, a fit within 64 bits is searched for, so that a plan is still returned (INFEASIBLE). Only
 * a complete search that finds no plan at all within 64 bits fails with APLAN_E_SIZE_OVERFLOW; a budget that runs out
 * before any plan of such a group is found, or such a group too large for the region, gives APLAN_E_STRATEGY_FAILED.
 * Both name the group's largest unplaced buffer (greedy_by_size's failing one when it is there).
 *
 * Memory, all from scratch; no recursion (the path is an array of levels, pending pieces an append-only pool, undo
 * logs for floors, minimum offsets and ranks): 12 bytes per buffer, about 320 per member of the largest group that
 * could be searched (at most EXACT_MEMBERS), and a region for one group's conflict lists and logs, 40 bytes per
 * conflicting pair, 12 per (member, section it spans) and 8 per rank logged, of at most 48 n^2 bytes and
 * EXACT_REGION; so at most 12 n bytes + 65.2 MiB, and greedy_by_size's need for the start when that is more. A group
 * that needs more is not searched: its starting plan is slid down and up instead (slide_group, within the same
 * budget), which keeps it valid and never raises it, and nothing is proven about it unless it reaches the bound.
 * Time per node O(m + s + d) for the group's m members and s sections and the placed buffer's d conflicts; the
 * number of nodes is exponential in the worst case, which is what the budget is for.
 */
#include "aplan/strategies.h"
#include "core/internal.h"
#include "strategies/greedy.h"

#define NONE UINT32_MAX
#define EXACT_REGION ((size_t)64u << 20)
/* The largest group the region can hold: its rank log alone takes 4 n (n + 1) bytes (see build_group), so a group of
 * more members is never searched, and the per-member arrays need no more room than this. */
#define EXACT_MEMBERS 4095u
_Static_assert(4u * (uint64_t)EXACT_MEMBERS * (EXACT_MEMBERS + 1u) <= EXACT_REGION &&
                   4u * (uint64_t)(EXACT_MEMBERS + 1u) * (EXACT_MEMBERS + 2u) > EXACT_REGION,
               "EXACT_MEMBERS is the largest group whose rank log fits the region");
#define PREORDERS 3
#define PROBES 5

typedef struct {
    uint64_t size, align;
    uint64_t weight;  /* what it adds to its sections' totals: its size, 0 for a fixed one that may alias */
    uint64_t fixed;   /* fixed offset, or APLAN_NO_OFFSET */
    uint64_t min_off; /* lowest aligned offset clear of the placed members it conflicts with */
    uint64_t at;      /* offset while placed, APLAN_NO_OFFSET otherwise */
    uint64_t width, area; /* preorder keys: lifetime width, size x width */
    uint32_t buffer;  /* index in the problem */
    uint32_t s_lo, s_hi;   /* sections [s_lo, s_hi) it spans */
    uint32_t adj, adj_end; /* its conflicting members: adj_list[adj .. adj_end) */
} member;

typedef struct {
    uint64_t last_off;   /* key of the last child tried (first the parent's): the next child's key is above it */
    uint64_t min_height; /* lowest top of an unplaced movable member: children at or above it are dominated */
    int64_t last_rank;   /* -1 at the root: any rank */
    uint32_t child;      /* member placed at this level, NONE while none is */
    uint32_t floor_mark, off_mark; /* undo log tops before the child was placed */
    uint32_t lo, hi;     /* scope: children are the unplaced members whose sections lie in [lo, hi) */
    uint32_t pending;    /* head of the list of section ranges still to solve after the scope, NONE: none */
    uint32_t pool_top;   /* entries of the pending pool in use at this node */
    uint32_t creator;    /* when the scope came off the pending list: the depth that split it off, else NONE */
    uint32_t rank_mark;  /* rank log top before this node re-ranked its scope */
    bool hatless;        /* the child conflicted with no unplaced member */
} level;

/* A range of sections left for later when a scope split in two (see enter). */
typedef struct {
    uint32_t lo, hi, creator, next;
} pending;

typedef struct {
    uint64_t old;
    uint32_t member;
} off_change;

typedef struct {
    uint32_t member, old;
} rank_change;

typedef enum { PASS_FOUND, PASS_EXHAUSTED, PASS_LIMIT, PASS_STOPPED } pass_result;

typedef struct {
    const aplan_problem *p;
    aplan_search_context *ctx;
    uint64_t *offsets; /* the best plan so far, of the whole problem */
    /* per buffer of the problem */
    uint32_t *by_lower; /* buffers that occupy memory, by (lower, index) */
    uint32_t *tmp;
    uint32_t *local;    /* buffer -> its member index in the group; later a sort's spare array */
    uint64_t *width, *area, *peak; /* preorder keys by position in the group's part of by_lower while it is built;
                                       peak is reused by member while a scope is re-ranked */
    /* the group being searched */
    member *m;
    level *path;
    uint64_t *live_key; /* per member: its key offset while unplaced, UINT64_MAX once placed (scans skip it free) */
    uint64_t *lowest; /* per section: the lowest key offset of an unplaced member spanning it (UINT64_MAX: none) */
    uint32_t *stamp, *dirty; /* per section: marks of the current round (to test; to recompute) */
    uint32_t *cut;           /* per boundary k (between sections k and k + 1): unplaced members spanning it */
    pending *pool;           /* pending ranges; append-only along a path, so a level's list stays intact */
    uint32_t *sec_start, *sec_list; /* per section k: the members spanning it, sec_list[sec_start[k] .. k + 1] */
    uint32_t round;
    uint64_t *points, *floor, *total; /* section starts (points[k] .. points[k + 1]), floors, unplaced bytes */
    size_t count, sections;
    uint64_t group_peak; /* the group's own lower bound: its largest section total */
    unsigned char *region; /* conflict lists and undo logs */
    size_t region_size;
    uint32_t *adj_list;
    uint32_t *rank;      /* per member: its place in the preorder of the current scope */
    rank_change *rank_log;
    size_t rank_top;
    unsigned heuristic;  /* the preorder of this pass */
    uint64_t *floor_log;
    off_change *off_log;
    size_t floor_top, off_top, pool_top;
    /* budget */
    uint64_t limit;      /* nodes the current pass may still visit */
    uint64_t next_check; /* node count at which options->stop is asked next */
    bool stopped;        /* the caller's budget ran out */
    bool alias;          /* APLAN_ALLOW_FIXED_ALIAS: fixed members do not push each other up */
} search;

/* ---- layout ---------------------------------------------------------------------------------------------------- */

static size_t region_size(size_t n) {
    const size_t r = 48u * n * n; /* n <= EXACT_MEMBERS: no overflow */
    return r < EXACT_REGION ? r : EXACT_REGION;
}

/* Per buffer of the problem: three index arrays; everything else is per member of one group, sized for the largest
 * group that could be searched (EXACT_MEMBERS), so the request grows by 12 bytes per buffer past that. */
static void layout(aplan__scratch *sc, search *s, size_t count) {
    uint32_t *w[3];
    (void)aplan__take_u32_arrays(sc, count, w, 3);
    s->by_lower = w[0];
    s->tmp = w[1];
    s->local = w[2];
    const size_t n = count < EXACT_MEMBERS ? count : EXACT_MEMBERS;
    s->width = aplan__scratch_take(sc, n, sizeof(uint64_t), 8);
    s->area = aplan__scratch_take(sc, n, sizeof(uint64_t), 8);
    s->peak = aplan__scratch_take(sc, n, sizeof(uint64_t), 8);
    s->m = aplan__scratch_take(sc, n, sizeof(member), 8);
    s->path = aplan__scratch_take(sc, n + 1u, sizeof(level), 8);
    const size_t pts = n <= SIZE_MAX / 2u ? 2u * n : SIZE_MAX;
    s->points = aplan__scratch_take(sc, pts, sizeof(uint64_t), 8);
    s->floor = aplan__scratch_take(sc, pts, sizeof(uint64_t), 8);
    s->total = aplan__scratch_take(sc, pts, sizeof(uint64_t), 8);
    s->lowest = aplan__scratch_take(sc, pts, sizeof(uint64_t), 8);
    s->live_key = aplan__scratch_take(sc, n, sizeof(uint64_t), 8);
    s->rank = aplan__scratch_take(sc, n, sizeof(uint32_t), 4);
    s->stamp = aplan__scratch_take(sc, pts, sizeof(uint32_t), 4);
    s->dirty = aplan__scratch_take(sc, pts, sizeof(uint32_t), 4);
    s->cut = aplan__scratch_take(sc, pts, sizeof(uint32_t), 4);
    s->pool = aplan__scratch_take(sc, pts, sizeof(pending), 4);
    s->sec_start = aplan__scratch_take(sc, pts <= SIZE_MAX - 1u ? pts + 1u : SIZE_MAX, sizeof(uint32_t), 4);
    s->region_size = region_size(n);
    s->region = aplan__scratch_take(sc, s->region_size, 1, 8);
}

static aplan_status search_scratch_size(const aplan_problem *p, size_t *bytes) {
    if (p->count > UINT32_MAX - 1u) return APLAN_E_SIZE_OVERFLOW;
    if (p->count == 0) { /* nothing to search */
        *bytes = 0;
        return APLAN_OK;
    }
    aplan__scratch sc;
    search s;
    aplan__scratch_init(&sc, NULL, SIZE_MAX);
    layout(&sc, &s, p->count);
    if (sc.failed) return APLAN_E_SIZE_OVERFLOW;
    *bytes = sc.used;
    return APLAN_OK;
}

/* ---- groups and preorders --------------------------------------------------------------------------------------- */

static uint64_t mul_saturating(uint64_t a, uint64_t b) {
    uint64_t r;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* Preorder keys: 'W' width, 'A' area, 'T' peak section total, each largest first; ties by buffer index. */
static const char *const preorders[PREORDERS] = {"WAT", "TAW", "TWA"};

/* a before b in the pass's preorder? a and b are positions in the group's part of by_lower (while it is built). */
static bool before(const search *s, uint32_t a, uint32_t b) {
    for (const char *h = preorders[s->heuristic]; *h != '\0'; h++) {
        const uint64_t *k = *h == 'W' ? s->width : *h == 'A' ? s->area : s->peak;
        if (k[a] != k[b]) return k[a] > k[b];
    }
    return s->by_lower[a] < s->by_lower[b];
}

/* Stable bottom-up merge sort of n items by less; tmp has n entries. O(n log n) calls of less. */
static void merge_sort(const search *s, bool (*less)(const search *, uint32_t, uint32_t), uint32_t *items,
                       uint32_t *tmp, size_t n) {
    for (size_t width = 1; width < n; width *= 2u) {
        for (size_t lo = 0; lo < n; lo += 2u * width) {
            const size_t mid = lo + width < n ? lo + width : n, hi = lo + 2u * width < n ? lo + 2u * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) tmp[k++] = less(s, items[j], items[i]) ? items[j++] : items[i++];
            while (i < mid) tmp[k++] = items[i++];
            while (j < hi) tmp[k++] = items[j++];
        }
        for (size_t k = 0; k < n; k++) items[k] = tmp[k];
    }
}

/* Index of v in points[0 .. n) (present). O(log n). */
static uint32_t point_index(const uint64_t *points, size_t n, uint64_t v) {
    size_t lo = 0, hi = n;
    while (hi - lo > 1u) {
        const size_t mid = lo + (hi - lo) / 2u;
        if (points[mid] <= v) lo = mid; else hi = mid;
    }
    return (uint32_t)lo;
}

/*
 * Sets up the group by_lower[first .. first + n) for a pass under preorder h: members in preorder, their sections,
 * conflict lists, fresh floors and totals. False when its conflict lists and logs do not fit the region (the group
 * is then not searched). O(n log n + pairs + spans).
 */
static bool build_group(search *s, size_t first, size_t n, unsigned h) {
    if (n > EXACT_MEMBERS) return false; /* its rank log alone would not fit the region */
    const aplan_problem *p = s->p;
    const uint32_t *g = s->by_lower + first;
    /* Sections: the distinct starts and ends, merged from the starts (sorted) and the ends (sorted here). */
    uint32_t *ends = s->tmp;
    for (size_t k = 0; k < n; k++) ends[k] = g[k];
    aplan__sort_by(ends, s->local, n, APLAN__BY_UPPER, p, NULL);
    size_t np = 0;
    for (size_t i = 0, j = 0; i < n || j < n;) {
        const bool take_start = i < n && (j == n || aplan__lower(p, g[i]) <= aplan__upper(p, ends[j]));
        const uint64_t v = take_start ? aplan__lower(p, g[i++]) : aplan__upper(p, ends[j++]);
        if (np == 0 || s->points[np - 1u] != v) s->points[np++] = v;
    }
    s->sections = np - 1u;
    /* Totals per section (a difference array), then every member's span and preorder keys. */
    for (size_t k = 0; k <= s->sections; k++) s->total[k] = 0;
    for (size_t k = 0; k < n; k++) {
        const aplan_buffer b_at = aplan__buffer(p, g[k]), *b = &b_at;
        const uint32_t lo = point_index(s->points, np, b->lower), hi = point_index(s->points, np, b->upper);
        const uint64_t size = s->alias && b->offset != APLAN_NO_OFFSET ? 0 : aplan__size(p, g[k]);
        s->total[lo] += size; /* live sums fit 64 bits: the lower bound is one */
        s->total[hi] -= size;
        s->width[k] = b->upper - b->lower;
        s->area[k] = mul_saturating(size, s->width[k]);
    }
    for (size_t k = 1; k <= s->sections; k++) s->total[k] += s->total[k - 1u];
    s->group_peak = 0;
    for (size_t k = 0; k < s->sections; k++) s->group_peak = s->total[k] > s->group_peak ? s->total[k] : s->group_peak;
    size_t spans = 0;
    for (size_t k = 0; k < n; k++) {
        const aplan_buffer b_at = aplan__buffer(p, g[k]), *b = &b_at;
        const uint32_t lo = point_index(s->points, np, b->lower), hi = point_index(s->points, np, b->upper);
        uint64_t peak = 0;
        for (uint32_t x = lo; x < hi; x++) peak = s->total[x] > peak ? s->total[x] : peak;
        s->peak[k] = peak;
        spans += hi - lo;
    }
    /* Ranks: positions sorted by the preorder. */
    uint32_t *order = s->tmp;
    for (uint32_t k = 0; k < n; k++) order[k] = k;
    s->heuristic = h;
    merge_sort(s, before, order, s->local, n);
    for (uint32_t r = 0; r < n; r++) s->local[g[order[r]]] = r;
    /* Conflict lists: in lower order, member k conflicts with every later one that starts before it ends. Counted
     * first, so the region's need is known before anything is written. */
    size_t pairs = 0;
    const size_t cap_pairs = s->region_size / 40u;
    for (size_t k = 0; k < n && pairs <= cap_pairs; k++) {
        const uint64_t upper = aplan__upper(p, g[k]);
        for (size_t j = k + 1u; j < n && aplan__lower(p, g[j]) < upper; j++) pairs++;
    }
    /* Rank log: a node re-ranks at most the unplaced members of its scope, and scopes only shrink along a path, so
     * at most n (n + 1) / 2 entries are logged at once. */
    const size_t ranks = n * (n + 1u) / 2u;
    if (pairs > cap_pairs || ranks > (s->region_size - 40u * pairs) / 8u ||
        spans > (s->region_size - 40u * pairs - 8u * ranks) / 12u) {
        return false;
    }
    s->adj_list = (uint32_t *)(void *)s->region;
    s->off_log = (off_change *)(void *)(s->region + 8u * pairs);
    s->floor_log = (uint64_t *)(void *)(s->region + 40u * pairs);
    s->sec_list = (uint32_t *)(void *)(s->region + 40u * pairs + 8u * spans);
    s->rank_log = (rank_change *)(void *)(s->region + 40u * pairs + 12u * spans);
    s->rank_top = 0;
    for (size_t r = 0; r < n; r++) s->m[r].adj_end = 0;
    for (size_t k = 0; k < n; k++) {
        const uint64_t upper = aplan__upper(p, g[k]);
        for (size_t j = k + 1u; j < n && aplan__lower(p, g[j]) < upper; j++) {
            s->m[s->local[g[k]]].adj_end++;
            s->m[s->local[g[j]]].adj_end++;
        }
    }
    uint32_t at = 0;
    for (size_t r = 0; r < n; r++) {
        s->m[r].adj = at;
        at += s->m[r].adj_end;
        s->m[r].adj_end = s->m[r].adj;
    }
    for (size_t k = 0; k < n; k++) {
        const uint64_t upper = aplan__upper(p, g[k]);
        member *a = &s->m[s->local[g[k]]];
        for (size_t j = k + 1u; j < n && aplan__lower(p, g[j]) < upper; j++) {
            member *b = &s->m[s->local[g[j]]];
            s->adj_list[a->adj_end++] = s->local[g[j]];
            s->adj_list[b->adj_end++] = s->local[g[k]];
        }
    }
    for (size_t k = 0; k < n; k++) {
        const uint32_t i = g[k];
        member *b = &s->m[s->local[i]];
        b->size = aplan__size(p, i);
        b->weight = s->alias && aplan__fixed(p, i) != APLAN_NO_OFFSET ? 0 : b->size;
        b->align = aplan__alignment(p, i);
        b->fixed = aplan__fixed(p, i);
        b->min_off = 0;
        b->at = APLAN_NO_OFFSET;
        b->buffer = i;
        b->width = s->width[k];
        b->area = s->area[k];
        s->rank[s->local[i]] = s->local[i];
        s->live_key[s->local[i]] = b->fixed != APLAN_NO_OFFSET ? b->fixed : 0;
        b->s_lo = point_index(s->points, np, aplan__lower(p, i));
        b->s_hi = point_index(s->points, np, aplan__upper(p, i));
    }
    /* Members per section, by a counting pass over the spans. */
    for (size_t k = 0; k <= s->sections; k++) s->sec_start[k] = 0;
    for (uint32_t r = 0; r < n; r++) {
        for (uint32_t k = s->m[r].s_lo; k < s->m[r].s_hi; k++) s->sec_start[k + 1u]++;
    }
    for (size_t k = 0; k < s->sections; k++) s->sec_start[k + 1u] += s->sec_start[k];
    for (size_t k = 0; k < s->sections; k++) s->stamp[k] = s->sec_start[k]; /* a cursor while filling */
    for (uint32_t r = 0; r < n; r++) {
        for (uint32_t k = s->m[r].s_lo; k < s->m[r].s_hi; k++) s->sec_list[s->stamp[k]++] = r;
    }
    for (size_t k = 0; k < s->sections; k++) {
        s->floor[k] = 0;
        s->stamp[k] = s->dirty[k] = s->cut[k] = 0;
    }
    for (uint32_t r = 0; r < n; r++) {
        for (uint32_t k = s->m[r].s_lo; k + 1u < s->m[r].s_hi; k++) s->cut[k]++;
    }
    s->round = 0;
    s->count = n;
    s->floor_top = s->off_top = 0;
    return true;
}

/* ---- the search ------------------------------------------------------------------------------------------------ */

/* Counts a node (a search node, or a member slid); false once the caller's budget says stop (s->stopped). */
static bool budget_tick(search *s) {
    aplan_search_context *ctx = s->ctx;
    const aplan_search_options *o = ctx->options;
    ctx->nodes++;
    if (o->max_nodes != 0 && ctx->nodes >= o->max_nodes) s->stopped = true;
    if (o->stop != NULL && ctx->nodes >= s->next_check) {
        s->next_check = ctx->nodes + (o->check_every != 0 ? o->check_every : 1u);
        if (o->stop(o->context, ctx->nodes)) s->stopped = true;
    }
    return !s->stopped;
}

/* Counts a search node; false when the search must stop (the caller's budget, or the pass's node limit). */
static bool count_node(search *s) {
    const bool go_on = budget_tick(s);
    s->limit--;
    return go_on && s->limit > 0;
}

static uint64_t key_offset(const member *b) { return b->fixed != APLAN_NO_OFFSET ? b->fixed : b->min_off; }

/* Starts a refresh round (every section may be recomputed once in it). */
static void new_round(search *s) {
    if (++s->round == 0) { /* wrapped: clear the marks so none looks set */
        for (size_t k = 0; k < s->sections; k++) s->stamp[k] = s->dirty[k] = 0;
        s->round = 1;
    }
}

/*
 * Places member y at its key offset, logging what changes; false when that moves a fixed member's minimum offset
 * past its fixed one, or fails the section test (the caller then undoes it). Lowest keys only rise here: a section
 * is rescanned only where the member holding its lowest key was placed or moved up. The test runs where a floor,
 * total or lowest key changed; elsewhere it passed at the parent, where only the current offset was lower, so there
 * it is offset + total <= cap.
 */
static bool place(search *s, level *lv, uint32_t y, uint64_t cap) {
    member *b = &s->m[y];
    const uint64_t o = key_offset(b), end = o + b->size; /* end <= cap: checked when the node was entered */
    bool ok = true;
    lv->floor_mark = (uint32_t)s->floor_top;
    lv->off_mark = (uint32_t)s->off_top;
    lv->hatless = true;
    new_round(s);
    for (uint32_t k = b->s_lo; k + 1u < b->s_hi; k++) s->cut[k]--;
    for (uint32_t k = b->s_lo; k < b->s_hi; k++) {
        s->floor_log[s->floor_top++] = s->floor[k];
        s->floor[k] = end;
        s->total[k] -= b->weight;
        s->stamp[k] = s->round; /* to test */
        if (s->lowest[k] == o) s->dirty[k] = s->round; /* y may have held the lowest key: rescan */
    }
    b->at = o;
    s->live_key[y] = UINT64_MAX;
    for (uint32_t a = b->adj; a < b->adj_end; a++) {
        member *x = &s->m[s->adj_list[a]];
        if (x->at != APLAN_NO_OFFSET) continue;
        lv->hatless = false;
        if (s->alias && b->fixed != APLAN_NO_OFFSET && x->fixed != APLAN_NO_OFFSET) continue; /* may share bytes */
        uint64_t nv, top;
        if (!aplan__align_up(end, x->align, &nv) || !aplan__add(nv, x->size, &top)) {
            ok = false; /* x can never be placed now: the node is dead (and nothing is logged) */
            continue;
        }
        if (nv <= x->min_off) continue;
        s->off_log[s->off_top].member = s->adj_list[a];
        s->off_log[s->off_top].old = x->min_off;
        s->off_top++;
        if (x->fixed != APLAN_NO_OFFSET) { /* its key is its fixed offset: no lowest key moves */
            x->min_off = nv;
            if (nv > x->fixed) ok = false;
            continue;
        }
        for (uint32_t k = x->s_lo; k < x->s_hi; k++) {
            if (s->lowest[k] == x->min_off) s->dirty[k] = s->round;
        }
        x->min_off = nv;
        s->live_key[s->adj_list[a]] = nv;
    }
    /* Rescan and test the marked sections: span(y), and those whose lowest key may have risen. */
    for (size_t j = lv->off_mark; j <= s->off_top && ok; j++) {
        const member *c = j < s->off_top ? &s->m[s->off_log[j].member] : b;
        for (uint32_t k = c->s_lo; k < c->s_hi; k++) {
            if (s->dirty[k] == s->round) {
                s->dirty[k] = 0;
                s->stamp[k] = s->round;
                uint64_t low = UINT64_MAX;
                for (uint32_t i = s->sec_start[k]; i < s->sec_start[k + 1u]; i++) {
                    const uint64_t key = s->live_key[s->sec_list[i]];
                    low = key < low ? key : low;
                }
                s->lowest[k] = low;
            }
            if (s->stamp[k] != s->round) continue;
            s->stamp[k] = 0; /* tested once */
            uint64_t f = s->floor[k], need;
            if (s->lowest[k] != UINT64_MAX && s->lowest[k] > f) f = s->lowest[k];
            if (!aplan__add(f, s->total[k], &need) || need > cap) ok = false;
        }
    }
    for (size_t k = lv->lo; ok && k < lv->hi; k++) { /* the scope only: other ranges restart from offset 0 */
        uint64_t need;
        if (!aplan__add(o, s->total[k], &need) || need > cap) ok = false;
    }
    return ok;
}

/* Undoes place(s, lv, y). Lowest keys only fall back here, to the restored keys: no section is rescanned. */
static void unplace(search *s, const level *lv, uint32_t y) {
    member *b = &s->m[y];
    s->floor_top = lv->floor_mark;
    size_t f = s->floor_top;
    const uint64_t o = key_offset(b);
    for (uint32_t k = b->s_lo; k + 1u < b->s_hi; k++) s->cut[k]++;
    for (uint32_t k = b->s_lo; k < b->s_hi; k++) {
        s->floor[k] = s->floor_log[f++];
        s->total[k] += b->weight;
        if (o < s->lowest[k]) s->lowest[k] = o;
    }
    while (s->off_top > lv->off_mark) {
        s->off_top--;
        member *x = &s->m[s->off_log[s->off_top].member];
        x->min_off = s->off_log[s->off_top].old;
        const uint64_t key = key_offset(x);
        s->live_key[s->off_log[s->off_top].member] = key;
        for (uint32_t k = x->s_lo; k < x->s_hi; k++) {
            if (key < s->lowest[k]) s->lowest[k] = key;
        }
    }
    b->at = APLAN_NO_OFFSET;
    s->live_key[y] = o;
}

/* x before y in the preorder of this pass, with the section totals as they are now ('T'). */
static bool ranks_before(const search *s, uint32_t x, uint32_t y) {
    for (const char *h = preorders[s->heuristic]; *h != '\0'; h++) {
        const member *a = &s->m[x], *b = &s->m[y];
        const uint64_t ka = *h == 'W' ? a->width : *h == 'A' ? a->area : s->peak[x];
        const uint64_t kb = *h == 'W' ? b->width : *h == 'A' ? b->area : s->peak[y];
        if (ka != kb) return ka > kb;
    }
    return s->m[x].buffer < s->m[y].buffer;
}

/*
 * A scope that split off is a problem of its own: its unplaced members are ranked afresh by the pass's preorder,
 * with each one's 'T' key the largest unplaced total over its sections now (MiniMalloc does the same for its
 * sub-partitions; it orders the search of each piece by what is left in it). Old ranks go to the rank log, which
 * restore_ranks unwinds. O(k log k + spans) for the k members.
 */
static void rerank(search *s, uint32_t lo, uint32_t hi) {
    uint32_t *const list = s->tmp, *const spare = s->local;
    size_t k = 0;
    for (uint32_t x = 0; x < s->count; x++) {
        const member *b = &s->m[x];
        if (s->live_key[x] == UINT64_MAX || b->s_lo < lo || b->s_hi > hi) continue;
        uint64_t peak = 0;
        for (uint32_t j = b->s_lo; j < b->s_hi; j++) peak = s->total[j] > peak ? s->total[j] : peak;
        s->peak[x] = peak;
        list[k++] = x;
    }
    merge_sort(s, ranks_before, list, spare, k);
    for (uint32_t r = 0; r < k; r++) {
        s->rank_log[s->rank_top].member = list[r];
        s->rank_log[s->rank_top].old = s->rank[list[r]];
        s->rank_top++;
        s->rank[list[r]] = r;
    }
}

static void restore_ranks(search *s, uint32_t mark) {
    while (s->rank_top > mark) {
        s->rank_top--;
        s->rank[s->rank_log[s->rank_top].member] = s->rank_log[s->rank_top].old;
    }
}

/* True when some unplaced member spans a section of [lo, hi). */
static bool has_unplaced(const search *s, uint32_t lo, uint32_t hi) {
    for (uint32_t k = lo; k < hi; k++) {
        if (s->lowest[k] != UINT64_MAX) return true;
    }
    return false;
}

/*
 * Enters node depth, whose parent's scope and pending list are [lo, hi) and pending, with key (off, rank). The
 * scope is cut where no unplaced member spans a boundary: the pieces share no unplaced member and no step, so they
 * are solved one after another, each from key (0, -1), and when one fails the node that cut it fails (the others
 * cannot help it). The first piece holding unplaced members becomes the scope, the rest is pushed as pending; an
 * empty scope takes the next pending range. Then false when the node is dead (see the header); sets min_height.
 * O(m + sections).
 */
static bool enter(search *s, size_t depth, uint32_t lo, uint32_t hi, uint32_t head, uint64_t off, int64_t rank,
                  uint64_t cap) {
    level *lv = &s->path[depth];
    lv->child = NONE;
    lv->creator = NONE;
    lv->rank_mark = (uint32_t)s->rank_top;
    bool fresh = false; /* the scope is a piece of its own: rank it afresh */
    for (;;) {
        uint32_t a = lo;
        while (a < hi && s->lowest[a] == UINT64_MAX) a++;
        if (a == hi) {
            if (head == NONE) break; /* everything is placed: the caller saw that first */
            lo = s->pool[head].lo;
            hi = s->pool[head].hi;
            lv->creator = s->pool[head].creator;
            head = s->pool[head].next;
            off = 0;
            rank = -1;
            fresh = true;
            continue;
        }
        uint32_t c = a + 1u;
        while (c < hi && s->cut[c - 1u] != 0) c++;
        if (has_unplaced(s, c, hi)) {
            pending *e = &s->pool[s->pool_top];
            e->lo = c;
            e->hi = hi;
            e->creator = (uint32_t)depth;
            e->next = head;
            head = (uint32_t)s->pool_top++;
            off = 0; /* the piece is a problem of its own now: its canonical order starts afresh */
            rank = -1;
            fresh = true;
        }
        lo = a;
        hi = c;
        break;
    }
    lv->lo = lo;
    lv->hi = hi;
    lv->pending = head;
    lv->pool_top = (uint32_t)s->pool_top;
    lv->last_off = off;
    lv->last_rank = rank;
    if (fresh) rerank(s, lo, hi);
    uint64_t lowest_top = UINT64_MAX;
    for (uint32_t x = 0; x < s->count; x++) {
        const uint64_t key = s->live_key[x];
        if (key == UINT64_MAX) continue; /* placed */
        const member *b = &s->m[x];
        uint64_t top;
        bool dead = !aplan__add(key, b->size, &top) || top > cap;
        if (!dead && b->s_lo >= lo && b->s_hi <= hi) { /* another range's member is judged when that is the scope */
            if (b->fixed == APLAN_NO_OFFSET) {
                if (top < lowest_top) lowest_top = top;
            } else {
                dead = b->fixed < off || (b->fixed == off && (int64_t)s->rank[x] < rank) || b->min_off > b->fixed;
            }
        }
        if (dead) {
            restore_ranks(s, lv->rank_mark);
            return false;
        }
    }
    lv->min_height = lowest_top;
    return true;
}

/* The next child of lv: the unplaced member of its scope with the smallest key above lv's last, below its
 * min_height. O(m). */
static uint32_t next_child(const search *s, const level *lv) {
    uint32_t best = NONE, best_rank = 0;
    uint64_t best_off = 0;
    for (uint32_t x = 0; x < s->count; x++) {
        const uint64_t o = s->live_key[x]; /* UINT64_MAX once placed: never below min_height */
        if (o >= lv->min_height || o < lv->last_off) continue;
        const uint32_t r = s->rank[x];
        if (o == lv->last_off && (int64_t)r <= lv->last_rank) continue;
        if (s->m[x].s_lo < lv->lo || s->m[x].s_hi > lv->hi) continue; /* outside the scope */
        if (best == NONE || o < best_off || (o == best_off && r < best_rank)) {
            best = x;
            best_off = o;
            best_rank = r;
        }
    }
    return best;
}

/*
 * One pass over the built group at capacity cap. PASS_FOUND: a plan within it, written to offsets. PASS_EXHAUSTED:
 * none exists (proven). PASS_LIMIT / PASS_STOPPED: the pass's node limit or the caller's budget ran out (the group
 * is left as it is: the next pass builds it afresh). The capacity never changes during a pass: a range that fails
 * fails the node that split it off only because nothing else it could do changes that range's own test.
 */
static pass_result run_pass(search *s, uint64_t cap) {
    size_t depth = 0, placed = 0;
    for (uint32_t k = 0; k < s->sections; k++) {
        uint64_t low = UINT64_MAX, need;
        for (uint32_t i = s->sec_start[k]; i < s->sec_start[k + 1u]; i++) {
            const uint64_t key = s->live_key[s->sec_list[i]];
            low = key < low ? key : low;
        }
        s->lowest[k] = low;
        if (!aplan__add(s->lowest[k] != UINT64_MAX ? s->lowest[k] : 0, s->total[k], &need) || need > cap) {
            return PASS_EXHAUSTED;
        }
    }
    s->pool_top = 0;
    if (!enter(s, 0, 0, (uint32_t)s->sections, NONE, 0, -1, cap)) return PASS_EXHAUSTED;
    for (;;) {
        level *lv = &s->path[depth];
        s->pool_top = lv->pool_top;
        if (lv->child != NONE) { /* back from the child's subtree: it failed, or a plan was recorded there */
            unplace(s, lv, lv->child);
            placed--;
            lv->child = NONE;
            if (lv->hatless) goto pop;
        }
        const uint32_t y = next_child(s, lv);
        if (y == NONE) goto pop;
        lv->last_off = key_offset(&s->m[y]);
        lv->last_rank = (int64_t)s->rank[y];
        if (!count_node(s)) return s->stopped ? PASS_STOPPED : PASS_LIMIT;
        lv->child = y;
        placed++;
        if (!place(s, lv, y, cap)) continue; /* undone at the top of the loop */
        if (placed == s->count) { /* every end passed the section test: the plan is within cap */
            for (size_t x = 0; x < s->count; x++) s->offsets[s->m[x].buffer] = s->m[x].at;
            return PASS_FOUND;
        }
        if (enter(s, depth + 1u, lv->lo, lv->hi, lv->pending, lv->last_off, lv->last_rank, cap)) depth++;
        continue;
    pop:
        if (lv->creator != NONE) { /* a range split off at node creator failed: that node fails */
            const size_t to = lv->creator;
            if (to == 0) return PASS_EXHAUSTED;
            restore_ranks(s, lv->rank_mark);
            while (depth > to) { /* undo the levels between; the loop undoes to - 1's child */
                depth--;
                level *up = &s->path[depth];
                if (depth >= to && up->child != NONE) {
                    unplace(s, up, up->child);
                    placed--;
                    up->child = NONE;
                }
                restore_ranks(s, up->rank_mark);
            }
            depth = to - 1u;
            continue;
        }
        if (depth == 0) return PASS_EXHAUSTED;
        restore_ranks(s, lv->rank_mark);
        depth--;
    }
}

/* ---- groups and goals ------------------------------------------------------------------------------------------ */

typedef enum { GROUP_DONE, GROUP_INFEASIBLE, GROUP_UNPROVEN, GROUP_TOO_LARGE } group_result;

/* Height of the plan in offsets over the group by_lower[first .. first + n) into *h; false (and *h 0) when a member
 * has no offset: the group has no plan yet (greedy_by_size's start passed 2^64 - 1 before placing it). */
static bool group_height(const search *s, size_t first, size_t n, uint64_t *h) {
    *h = 0;
    for (size_t k = first; k < first + n; k++) {
        const uint32_t i = s->by_lower[k];
        if (s->offsets[i] == APLAN_NO_OFFSET) {
            *h = 0;
            return false;
        }
        const uint64_t end = s->offsets[i] + aplan__size(s->p, i); /* a verified or searched plan: fits 64 bits */
        if (end > *h) *h = end;
    }
    return true;
}

/* One pass under preorder k with a node limit; false when the group is too large to build. */
static bool pass(search *s, size_t first, size_t n, unsigned k, uint64_t limit, uint64_t cap, pass_result *r) {
    if (!build_group(s, first, n, k)) return false;
    s->limit = limit;
    *r = run_pass(s, cap);
    return true;
}

/*
 * Searches the group by_lower[first .. first + n) in rounds: each preorder in turn under a node limit that doubles
 * every round. found says whether offsets hold a plan of the group, of height h; without one (its start passed
 * 2^64 - 1) the search starts from the bound and cap alone. FIT: one pass within cap. MINIMISE keeps lo (no plan of
 * the group lies below it: its own bound, then every capacity proven impossible, plus one) and the best plan's
 * height hi, and per preorder tries five fits: at lo (real instances are often packed perfectly, which a descent
 * from above is slow to find) with twice the node limit, then at 1/2, 3/4 and 7/8 of the way up, and at the top:
 * hi - 1, or cap while no plan is known (with cap APLAN_UNLIMITED that is any plan whose ends fit 64 bits). Several
 * capacities below the top, not one: how long a fit takes jumps about with its capacity (MiniMalloc's J fits
 * 1,040,000 in 8,283 nodes, 1,036,000 in 70,918, and not 1,041,392 in 2.4 million), so one that stalls does not
 * hold up the others for a whole round. A plan found lowers hi to its height; a pass that completes proves its
 * capacity impossible and raises lo past it. A plan at or below target is good enough (the arena cannot be lower
 * than the lower bound anyway). GROUP_DONE: fits (FIT) or proven optimal (MINIMISE); GROUP_INFEASIBLE: proven that
 * nothing fits cap (offsets keep the plan of height h, if any); GROUP_UNPROVEN: the budget ran out; GROUP_TOO_LARGE:
 * the group does not fit the region (build_group) and nothing was searched. Every bound here is inclusive below
 * 2^64, so no step computes cap + 1.
 */
static group_result search_group(search *s, size_t first, size_t n, bool found, uint64_t h, uint64_t cap,
                                 bool minimise, uint64_t target) {
    uint64_t limit = n > 64u ? n : 64u, lo = 0, hi = h;
    for (;;) {
        for (unsigned k = 0; k < PREORDERS; k++) {
            pass_result r;
            if (!minimise) {
                if (!pass(s, first, n, k, limit, cap, &r)) return GROUP_TOO_LARGE;
                if (r == PASS_FOUND) return GROUP_DONE;
                if (r == PASS_EXHAUSTED) return GROUP_INFEASIBLE;
                if (r == PASS_STOPPED) return GROUP_UNPROVEN;
                continue;
            }
            if (!build_group(s, first, n, k)) return GROUP_TOO_LARGE;
            if (s->group_peak > lo) lo = s->group_peak;
            if (target > lo) lo = target; /* lo now also stands for "good enough" */
            for (unsigned probe = 0; probe < PROBES; probe++) {
                if (found && hi <= lo) return hi <= cap ? GROUP_DONE : GROUP_INFEASIBLE;
                if (!found && lo > cap) return GROUP_INFEASIBLE;
                const uint64_t top = found ? hi - 1u : cap, d = top - lo; /* the highest capacity worth a pass */
                uint64_t c = probe == 0 ? lo : probe == PROBES - 1u ? top : top - (d >> probe);
                if (c > cap) c = cap;
                if (probe > 0 && probe < PROBES - 1u && (c == lo || c >= top)) continue; /* no such point */
                /* the fit at lo gets a third of the round's nodes: perfectly packed instances are proven there */
                const uint64_t nodes = probe == 0 && limit <= UINT64_MAX / 2u ? 2u * limit : limit;
                if (!pass(s, first, n, k, nodes, c, &r)) return GROUP_TOO_LARGE;
                if (r == PASS_FOUND) { /* within c, below hi */
                    found = group_height(s, first, n, &hi);
                    s->ctx->best_node = s->ctx->nodes;
                }
                if (r == PASS_STOPPED) return GROUP_UNPROVEN;
                if (r == PASS_EXHAUSTED) { /* no plan within c */
                    if (c >= cap) return GROUP_INFEASIBLE; /* then hi, if any, is above cap */
                    if (c + 1u > lo) lo = c + 1u;
                }
            }
        }
        limit = limit <= UINT64_MAX / 2u ? limit * 2u : UINT64_MAX;
    }
}

/* ---- a group too large to search: sliding its plan down and up ------------------------------------------------- */

typedef struct {
    aplan__itree tree;      /* the group's lifetimes; a member counts while its offset is set */
    uint32_t *hits, *spare; /* a query's answer and its sort's spare array: one entry per member each */
} slide;

/*
 * Moves movable member i to the lowest (down) or highest (up) aligned place, ending at or below top, that is clear of
 * every other member it conflicts with. Its own place is one such, so it never moves up when sliding down, and never
 * ends above top. O(log n + k log k) for its k conflicting members.
 */
static void slide_one(search *s, slide *l, uint32_t i, uint64_t top, bool down) {
    const aplan_problem *p = s->p;
    const uint64_t size = aplan__size(p, i), mask = aplan__alignment(p, i) - 1u, own = s->offsets[i];
    s->offsets[i] = APLAN_NO_OFFSET; /* out of the tree's answers */
    const size_t k = aplan__itree_query(&l->tree, aplan__lower(p, i), aplan__upper(p, i), l->hits);
    aplan__sort_by(l->hits, l->spare, k, APLAN__BY_OFFSET, p, s->offsets);
    uint64_t reach = 0, chosen = own;
    for (size_t j = 0; j <= k; j++) { /* the gaps [reach, next) between them, lowest first */
        const uint32_t x = j < k ? l->hits[j] : NONE;
        const uint64_t next = x != NONE && s->offsets[x] < top ? s->offsets[x] : top;
        /* every end and top fit 64 bits, and size <= own's end: no step wraps */
        if (next >= size && reach <= next - size) {
            const uint64_t low = (reach + mask) & ~mask, high = (next - size) & ~mask;
            if (low <= high && low >= reach) {
                chosen = down ? low : high;
                if (down) break;
            }
        }
        if (x == NONE || next == top) break;
        const uint64_t end = s->offsets[x] + aplan__size(p, x);
        if (end > reach) reach = end;
    }
    s->offsets[i] = chosen;
}

/* One pass: every movable member of the group, lowest first, slid down (down) or, highest first, up, ending at or
 * below top. False when the budget stopped it part way (the plan is valid either way). */
static bool slide_pass(search *s, slide *l, uint32_t *order, size_t first, size_t n, uint64_t top, bool down) {
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        const uint32_t i = s->by_lower[first + k];
        if (aplan__fixed(s->p, i) == APLAN_NO_OFFSET) order[m++] = i;
    }
    aplan__sort_by(order, l->hits, m, APLAN__BY_OFFSET, s->p, s->offsets);
    for (size_t k = 0; k < m; k++) {
        if (!budget_tick(s)) return false;
        slide_one(s, l, down ? order[k] : order[m - 1u - k], top, down);
    }
    return true;
}

/* The group's height after a slide into *h, noting the node when it fell below the height before. */
static void note_height(search *s, size_t first, size_t n, uint64_t *h) {
    const uint64_t was = *h;
    (void)group_height(s, first, n, h);
    if (*h < was) s->ctx->best_node = s->ctx->nodes;
}

/*
 * Improves the plan of a group too large to search (by_lower[first .. first + n), every member placed, height h):
 * every movable member slides down to the lowest place it fits, lowest first; then, at least once and again while a
 * cycle lowers the height, up to the highest place below the height, highest first, and down again; until the
 * height reaches floor or the budget says stop (each member moved counts as a node). Sliding up makes room low down
 * where buffers that end early left it, and the next slide down drops the tallest stacks into it, so a plan whose
 * members all sit as low as they can (a first-fit plan) may still lower (on iopddl_S_1, best_fit's 1.016 x the bound
 * becomes 1.006 in two cycles). Each move leaves a valid plan no higher than before, so stopping anywhere returns a
 * valid plan. Memory: the per-buffer arrays tmp and local (the interval tree), and 12 bytes per member of the region
 * (the pass order, a query's answer and its sort's spare array; a group of more members than fit is left as it is).
 * Time per pass O(n log n + P log n) for the group's P conflicting pairs.
 */
static void slide_group(search *s, size_t first, size_t n, uint64_t h, uint64_t floor) {
    if (h <= floor || n > s->region_size / 12u || n > UINT32_MAX) return;
    slide l;
    uint32_t *order = (uint32_t *)(void *)s->region;
    l.hits = order + n;
    l.spare = l.hits + n;
    for (size_t k = 0; k < n; k++) s->tmp[k] = s->by_lower[first + k];
    aplan__itree_build(&l.tree, s->p, s->offsets, s->tmp, s->local, l.hits, n);
    bool go_on = slide_pass(s, &l, order, first, n, h, true);
    note_height(s, first, n, &h);
    for (uint64_t before = UINT64_MAX; go_on && h > floor && h < before;) {
        before = h;
        go_on = slide_pass(s, &l, order, first, n, h, false) && slide_pass(s, &l, order, first, n, h, true);
        note_height(s, first, n, &h);
    }
}

static const aplan__greedy_rule start_rule = APLAN__BY_SIZE_RULE;

static aplan_status exact_scratch_size(const aplan_strategy *self, const aplan_problem *p, size_t *bytes) {
    (void)self;
    size_t need, greedy;
    aplan_status st = search_scratch_size(p, &need);
    if (st == APLAN_OK) st = aplan__greedy_scratch_size(&start_rule, p, &greedy);
    if (st != APLAN_OK) return st;
    *bytes = need > greedy ? need : greedy;
    return APLAN_OK;
}

/*
 * A group left without a plan (its start passed 2^64 - 1, and the search found none): the status exact returns for
 * the whole problem, naming the group's largest member without an offset, equal sizes by the lowest index (the
 * buffer greedy_by_size's start failed on, when that one is in the group). proven: a complete search showed that no
 * plan of the group has every end within 64 bits, which is APLAN_E_SIZE_OVERFLOW; otherwise the budget ran out, or
 * the group was too large to search, before a plan was found: APLAN_E_STRATEGY_FAILED.
 */
static aplan_status no_plan(const search *s, size_t first, size_t n, bool proven, aplan_report *report) {
    uint32_t x = NONE;
    for (size_t k = first; k < first + n; k++) {
        const uint32_t i = s->by_lower[k];
        if (s->offsets[i] != APLAN_NO_OFFSET) continue;
        const uint64_t size = aplan__size(s->p, i);
        if (x == NONE || size > aplan__size(s->p, x) || (size == aplan__size(s->p, x) && i < x)) x = i;
    }
    const aplan_status st = proven ? APLAN_E_SIZE_OVERFLOW : APLAN_E_STRATEGY_FAILED;
    aplan__report_value(report, st, x, 0, aplan__size(s->p, x));
    return st;
}

/* The start plan's stop: the caller's callback with 0 nodes (no search node is visited yet); max_nodes counts only the
 * search's nodes, so it does not cut the start short. */
static bool stop_the_start(void *context, uint64_t placed) {
    const aplan_search_options *o = context;
    (void)placed;
    return o->stop(o->context, 0);
}

static aplan_status exact_search(const aplan_strategy *self, const aplan_problem *p, aplan_search_context *ctx,
                                 void *scratch, size_t scratch_size, uint64_t *offsets, aplan_report *report) {
    (void)self;
    const bool minimise = ctx->options->goal == APLAN_GOAL_MINIMISE;
    if (p->count == 0) {
        ctx->outcome = APLAN_OUTCOME_OPTIMAL;
        return APLAN_OK;
    }
    /* The starting plan: the caller's (verified by aplan_plan_search), else greedy_by_size's. Greedy's rule can pass
     * 2^64 - 1 where another order fits: then every group it did not place wholly is searched from no plan. */
    bool whole = true, out_of_time = false; /* the start places every buffer; the budget ended while it was made */
    if (ctx->options->start != NULL) {
        for (size_t i = 0; i < p->count; i++) offsets[i] = ctx->options->start[i];
    } else {
        /* Under the caller's stop callback: a time limit that runs out here leaves a plan to return at once. */
        aplan_search_options caller = *ctx->options, start_options;
        aplan_search_options_init(&start_options);
        start_options.check_every = caller.check_every;
        start_options.stop = caller.stop != NULL ? stop_the_start : NULL;
        start_options.context = &caller;
        aplan_search_context start = {.options = &start_options};
        const aplan_status st = aplan__greedy_search(&start_rule, p, &start, scratch, scratch_size, offsets, report);
        if (st != APLAN_OK && st != APLAN_E_SIZE_OVERFLOW) return st;
        if (st != APLAN_OK) { /* the fixed and empty buffers at their offsets, whatever greedy did before failing */
            size_t unplaced;
            aplan__split(p, true, offsets, NULL, &unplaced, NULL, NULL, NULL);
            if (report != NULL) aplan_report_clear(report);
            whole = false;
        }
        out_of_time = start.outcome == APLAN_OUTCOME_BEST_FOUND;
    }
    /* Out of time before the search begins, with a whole plan: that plan, without the O(n log n) set-up of a search
     * that would stop at its first look at the clock (on a million buffers, a second past the deadline). */
    if (whole && (out_of_time || (ctx->options->stop != NULL && ctx->options->stop(ctx->options->context, 0)))) {
        uint64_t arena = 0;
        for (size_t i = 0; i < p->count; i++) {
            const uint64_t end = offsets[i] + aplan__size(p, i); /* a valid plan: within 64 bits */
            if (end > arena) arena = end;
        }
        ctx->outcome = !minimise && arena <= p->capacity ? APLAN_OUTCOME_FITS : APLAN_OUTCOME_BEST_FOUND;
        return APLAN_OK;
    }
    search s;
    aplan__scratch sc;
    APLAN_MEMSET(&s, 0, sizeof s);
    aplan__scratch_init(&sc, scratch, scratch_size);
    layout(&sc, &s, p->count);
    if (sc.failed) return APLAN_E_STRATEGY_FAILED; /* aplan_plan gave what scratch_size asked: cannot happen */
    s.p = p;
    s.ctx = ctx;
    s.offsets = offsets;
    s.alias = (p->flags & APLAN_ALLOW_FIXED_ALIAS) != 0;
    s.next_check = ctx->options->check_every != 0 ? ctx->options->check_every : 1u;
    size_t m = 0;
    for (uint32_t i = 0; i < p->count; i++) {
        if (aplan__occupies(p, i)) s.by_lower[m++] = i;
    }
    aplan__sort_by(s.by_lower, s.tmp, m, APLAN__BY_LOWER, p, NULL);
    /* Groups: runs of by_lower whose lifetimes chain; each is searched alone. Once one is proven not to fit the
     * capacity the others keep their plans; one without a plan still needs any. */
    const uint64_t cap = p->capacity;
    bool proven = true, infeasible = false;
    for (size_t first = 0; first < m;) {
        size_t n = 1;
        uint64_t reach = aplan__upper(p, s.by_lower[first]);
        while (first + n < m && aplan__lower(p, s.by_lower[first + n]) < reach) {
            const uint64_t up = aplan__upper(p, s.by_lower[first + n]);
            if (up > reach) reach = up;
            n++;
        }
        uint64_t h;
        bool found = group_height(&s, first, n, &h);
        const bool settled = found && (infeasible || (minimise ? h <= ctx->lower_bound : h <= cap));
        if (!settled && !s.stopped) {
            group_result g = infeasible ? GROUP_INFEASIBLE
                           : search_group(&s, first, n, found, h, cap, minimise, ctx->lower_bound);
            found = group_height(&s, first, n, &h);
            if (g == GROUP_TOO_LARGE && n > ctx->unsearched) ctx->unsearched = n;
            if (g == GROUP_TOO_LARGE && found && !s.stopped) { /* nothing searched: improve the start instead */
                slide_group(&s, first, n, h, minimise ? ctx->lower_bound : cap);
                found = group_height(&s, first, n, &h);
                if (h <= (minimise ? ctx->lower_bound : cap)) g = GROUP_DONE; /* at the bound, or fits */
            }
            if (g == GROUP_INFEASIBLE) infeasible = true;
            if (g == GROUP_UNPROVEN || g == GROUP_TOO_LARGE) proven = false;
            if (!found && g == GROUP_INFEASIBLE && cap != APLAN_UNLIMITED) {
                /* none within the capacity, and none known above it: any plan within 64 bits, to return */
                g = s.stopped ? GROUP_UNPROVEN : search_group(&s, first, n, false, 0, APLAN_UNLIMITED, false, 0);
                found = group_height(&s, first, n, &h);
            }
            /* g is now about 64 bits: GROUP_INFEASIBLE proves that no plan of the group fits them */
            if (!found) return no_plan(&s, first, n, g == GROUP_INFEASIBLE, report);
        } else if (!settled) {
            if (!found) return no_plan(&s, first, n, false, report); /* the budget ran out before this group */
            proven = false;
        }
        first += n;
    }
    ctx->outcome = infeasible ? APLAN_OUTCOME_INFEASIBLE
                   : !proven  ? APLAN_OUTCOME_BEST_FOUND
                   : minimise ? APLAN_OUTCOME_OPTIMAL
                              : APLAN_OUTCOME_FITS;
    return APLAN_OK;
}

/* The plain entry (a caller of the ABI 1 plan()): minimise with no budget. */
static aplan_status exact_plan(const aplan_strategy *self, const aplan_problem *p, void *scratch, size_t scratch_size,
                               uint64_t *offsets, aplan_report *report) {
    aplan_search_options o;
    aplan_search_context ctx;
    aplan_search_options_init(&o);
    APLAN_MEMSET(&ctx, 0, sizeof ctx);
    ctx.options = &o;
    ctx.lower_bound = 0; /* each group is still held to its own bound */
    return exact_search(self, p, &ctx, scratch, scratch_size, offsets, report);
}

static const aplan_strategy exact = {
    .abi_version = APLAN_STRATEGY_ABI_VERSION,
    .name = "exact",
    .description = APLAN_TEXT("branch and bound: fits a capacity or minimises the arena, proving what it can"),
    .scratch_size = exact_scratch_size,
    .plan = exact_plan,
    .search = exact_search,
};

const aplan_strategy *aplan_strategy_exact(void) { return &exact; }
