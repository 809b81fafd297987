/*
 * select: regions chosen as a whole. Which buffers go to the fast region decides the traffic (a buffer outside
 * region 0 costs size x uses), and region 0 holds at each step at most its capacity of the buffers live there: a
 * knapsack with one constraint per step. A buffer live across many of region 0's busiest steps takes its room at
 * all of them for the traffic of one buffer, so it is the first to leave; banked, which takes buffers largest first,
 * never asks.
 *
 * Algorithm (regions 2 and more; one region: banked's plan packed anew as in step 4, the best of the auto strategies
 * and the exact search from it, as the single-region tool's -s auto does):
 *   1. Choose region 0's set for a target T of live bytes: every buffer that may go there, then, while some step's
 *      live bytes pass T, leave out buffers by rising uses per busy step (uses over the number of region 0's start
 *      steps above T in its lifetime; equal ones largest first, then by index), each only while a step of its
 *      lifetime is still above T. Buffers pinned to region 0 never leave. A later one leaving can make an earlier
 *      one's needless (a chain of large buffers, each live with the next), so those that left come back wherever
 *      their lifetime still has room under T: in the reverse of the order they left, or the most valuable first.
 *   2. Place with the greedy engine's banked placement (banked's rule): the chosen set first, largest first, into
 *      region 0 (what its packing cannot hold within the capacity spills to the next region), then the rest into
 *      the first region with room, region 0's gaps included.
 *   3. Steps 1-2 with both orders of coming back, for T = region 0's capacity and, when a chosen set did not fit
 *      whole, 7/8 of it (a packing needs more than its live bytes); banked's own plan is a candidate too. The best
 *      candidate is kept: every region within its capacity first, then the least traffic, then the fewest bytes
 *      over all regions.
 *   4. The best is improved: region 0 packed anew with the best of the auto strategies and the exact search from
 *      that packing (16 nodes per buffer within the caller's budget, on problems of at most 1024 buffers), then
 *      region 0's buffers fixed where they are and the rest placed again by banked placement, which moves into
 *      region 0's gaps what fits there, then the slower regions packed anew with the auto strategies. Kept when
 *      better.
 * So the result is never worse than banked's plan, and fits wherever banked's does.
 * Complexity: O(n log n + P) for the selections (P: pairs of buffers live together) plus at most six runs of the
 * greedy engine and one of each auto strategy per region, and the exact search's 16 nodes per buffer
 * (docs/benchmarks.md, "Regions": 0.3x to 2x the auto strategies' time on the shared models and traces).
 * Scratch: about 200 bytes per buffer plus the largest need of the strategies it runs (on the whole problem), and
 * the exact search's where it runs. Deterministic (the exact search too, under a node budget; a clock budget is the
 * caller's). Compact builds: the same steps over the compact engine (O(n^2)).
 */
#include "aplan/regions.h"
#include "aplan/strategies.h"
#include "strategies/greedy.h"

#define TARGETS 2u         /* targets tried: region 0's capacity times 16/16 and 14/16 */
#define EXACT_MAX 1024u    /* the exact search packs region 0 on problems of at most this many buffers */
#define EXACT_SCRATCH ((size_t)16u << 20) /* ... and of at most this much scratch */
#define EXACT_NODES 16u    /* ... within this many nodes per buffer besides the caller's budget: select is not a
                              search, and its time stays that of the strategies it builds on */

static const aplan__greedy_rule rule = APLAN__BY_SIZE_RULE;

/* The scratch: what lives through the whole plan, then the space of one phase at a time (a selection's arrays, or
 * the engine's or an inner strategy's scratch). */
typedef struct {
    uint32_t *best_region, *cur_region, *key, *map;
    uint64_t *best_off, *sub_off, *sub_best, *mask;
    aplan_buffer *sub;
    unsigned char *phase;
    size_t phase_size;
    aplan_search_context *ctx; /* the caller's: its options' stop ends the steps (time_up) */
    bool stopped;              /* it did: the best plan so far is the answer */
} space;

/*
 * Whether the caller's stop callback (asked with 0 nodes: these steps visit no search nodes, as a search making its
 * start, so that a caller can let them finish) says to stop, or said so before. Asked before each step after the
 * first (banked's plan), and every check_every placements inside the heuristics it runs (relay_stop), so that the
 * steps keep the caller's deadline: the best plan so far is then the answer (outcome BEST_FOUND), banked's at least.
 */
static bool time_up(space *sp) {
    const aplan_search_options *o = sp->ctx->options;
    if (!sp->stopped && o->stop != NULL && o->stop(o->context, 0)) sp->stopped = true;
    return sp->stopped;
}

/* The stop of a single-region heuristic select runs: the caller's, asked with 0 nodes (context: its options). */
static bool relay_stop(void *context, uint64_t nodes) {
    (void)nodes;
    const aplan_search_options *o = context;
    return o->stop(o->context, 0);
}

/*
 * The live bytes of region 0's candidates at each start step (the points), under range additions and range maxima:
 * a binary tree over leaves = the power of two at or above the points (node 1 the root, node v's children 2v and
 * 2v + 1, point k at leaf leaves + k). mx[v] is the largest value below v counting the additions made to v and its
 * descendants but not those made to its ancestors, ad[v] (inner nodes) what was added to v as a whole. Each buffer's
 * leaving takes its size from the same nodes its coming back adds it to again (its points' range decomposes one
 * way), so every mx[] is the live bytes of some buffers at a point, never below 0 in unsigned arithmetic. O(log
 * points) an addition or a maximum, no stack: where a step of a lifetime above the target was a walk over its points
 * (O(n x points): quadratic on dense inputs, whose lifetimes span most points).
 */
typedef struct {
    uint64_t *mx, *ad;
    size_t leaves;
} peaks;

static size_t leaves_for(size_t n) {
    size_t l = 1;
    while (l < n && l <= SIZE_MAX / 4u) l <<= 1;
    return l < n ? SIZE_MAX / 2u : l; /* past SIZE_MAX / 4: no scratch holds it, so the take fails */
}

static void peaks_bump(const peaks *t, size_t v, uint64_t delta) {
    t->mx[v] += delta;
    if (v < t->leaves) t->ad[v] += delta;
}

/* The leaves hold the values (0 past the points): the inner nodes from them, nothing added. */
static void peaks_build(const peaks *t) {
    for (size_t v = t->leaves; v-- > 1;) {
        t->ad[v] = 0;
        t->mx[v] = t->mx[2u * v] > t->mx[2u * v + 1u] ? t->mx[2u * v] : t->mx[2u * v + 1u];
    }
    t->ad[0] = 0; /* read, never written, by peaks_max when its range is the whole of a one-leaf tree */
}

static void peaks_pull(const peaks *t, size_t v) {
    for (v >>= 1; v >= 1; v >>= 1)
        t->mx[v] = (t->mx[2u * v] > t->mx[2u * v + 1u] ? t->mx[2u * v] : t->mx[2u * v + 1u]) + t->ad[v];
}

/* Adds delta (mod 2^64: a subtraction is the addition of its negation) at points [lo, hi), lo < hi. */
static void peaks_add(const peaks *t, size_t lo, size_t hi, uint64_t delta) {
    size_t l = lo + t->leaves, r = hi + t->leaves;
    const size_t first = l, last = r - 1u;
    for (; l < r; l >>= 1, r >>= 1) {
        if (l & 1u) peaks_bump(t, l++, delta);
        if (r & 1u) peaks_bump(t, --r, delta);
    }
    peaks_pull(t, first);
    peaks_pull(t, last);
}

/* The largest value at points [lo, hi), lo < hi. What is gathered on the left lies below node l - 1 of each level
 * (on the right, below node r), which is the previous level's such node's parent: its addition counts once a level. */
static uint64_t peaks_max(const peaks *t, size_t lo, size_t hi) {
    size_t l = lo + t->leaves, r = hi + t->leaves;
    uint64_t ml = 0, mr = 0;
    bool left = false, right = false;
    while (l < r) {
        if (l & 1u) {
            ml = left && ml > t->mx[l] ? ml : t->mx[l];
            left = true;
            l++;
        }
        if (r & 1u) {
            r--;
            mr = right && mr > t->mx[r] ? mr : t->mx[r];
            right = true;
        }
        l >>= 1;
        r >>= 1;
        if (left) ml += t->ad[l - 1u];
        if (right) mr += t->ad[r];
    }
    for (size_t v = (l - 1u) >> 1; left && v >= 1; v >>= 1) ml += t->ad[v];
    for (size_t v = r >> 1; right && v >= 1; v >>= 1) mr += t->ad[v];
    return !right || (left && ml > mr) ? ml : mr;
}

/* The selection's arrays, carved from the phase space. */
typedef struct {
    uint32_t *order, *tmp, *by_upper, *lo, *hi, *busy;
    uint64_t *point, *okey;
    peaks live;
} picks;

static void carve(aplan__scratch *s, size_t n, space *sp) {
    sp->best_region = aplan__scratch_take(s, n, sizeof(uint32_t), 4u);
    sp->cur_region = aplan__scratch_take(s, n, sizeof(uint32_t), 4u);
    sp->key = aplan__scratch_take(s, n, sizeof(uint32_t), 4u);
    sp->map = aplan__scratch_take(s, n, sizeof(uint32_t), 4u);
    sp->best_off = aplan__scratch_take(s, n, sizeof(uint64_t), 8u);
    sp->sub_off = aplan__scratch_take(s, n, sizeof(uint64_t), 8u);
    sp->sub_best = aplan__scratch_take(s, n, sizeof(uint64_t), 8u);
    sp->mask = aplan__scratch_take(s, n, sizeof(uint64_t), 8u);
    sp->sub = aplan__scratch_take(s, n, sizeof(aplan_buffer), 8u);
}

static void carve_picks(aplan__scratch *s, size_t n, picks *k) {
    k->order = aplan__scratch_take(s, n, sizeof(uint32_t), 4u);
    k->tmp = aplan__scratch_take(s, n, sizeof(uint32_t), 4u);
    k->by_upper = aplan__scratch_take(s, n, sizeof(uint32_t), 4u);
    k->lo = aplan__scratch_take(s, n, sizeof(uint32_t), 4u);
    k->hi = aplan__scratch_take(s, n, sizeof(uint32_t), 4u);
    k->busy = aplan__scratch_take(s, n + 1u, sizeof(uint32_t), 4u);
    k->point = aplan__scratch_take(s, n, sizeof(uint64_t), 8u);
    k->okey = aplan__scratch_take(s, n, sizeof(uint64_t), 8u);
    k->live.leaves = leaves_for(n);
    k->live.mx = aplan__scratch_take(s, 2u * k->live.leaves, sizeof(uint64_t), 8u);
    k->live.ad = aplan__scratch_take(s, k->live.leaves, sizeof(uint64_t), 8u);
}

static const aplan_strategy *exact_strategy(const aplan_problem *p, size_t *need) {
    const aplan_strategy *e = NULL;
    *need = 0;
    if (p->count > EXACT_MAX || aplan_strategy_find("exact", &e) != APLAN_OK || e->abi_version < 2u ||
        e->search == NULL || e->scratch_size(e, p, need) != APLAN_OK || *need > EXACT_SCRATCH)
        return NULL;
    return e;
}

/* The phase space: the selection's, the engine's, and each inner strategy's need on the whole problem (a region's
 * buffers are a subset, which needs no more). */
static aplan_status phase_size(const aplan_problem *p, const aplan_regions *rg, size_t *bytes) {
    aplan__scratch s;
    picks k;
    aplan__scratch_init(&s, NULL, SIZE_MAX);
    carve_picks(&s, p->count, &k);
    if (s.failed) return APLAN_E_SIZE_OVERFLOW;
    size_t most = s.used, need;
    aplan_status st = aplan__bank_scratch_size(&rule, p, rg->count, &need);
    if (st != APLAN_OK) return st;
    if (need > most) most = need;
    for (size_t a = 0; a < aplan_strategy_auto_count(); a++) {
        const aplan_strategy *x = aplan_strategy_auto_at(a);
        if (x->scratch_size(x, p, &need) == APLAN_OK && need > most) most = need;
    }
    size_t bound;
    if (aplan_lower_bound_scratch_size(p, &bound) == APLAN_OK && bound > most) most = bound;
    if (exact_strategy(p, &need) != NULL && need > most) most = need;
    *bytes = most;
    return APLAN_OK;
}

static aplan_status select_scratch_size(const aplan_region_strategy *self, const aplan_problem *p,
                                        const aplan_regions *rg, size_t *bytes) {
    (void)self;
    size_t phase;
    aplan_status st = phase_size(p, rg, &phase);
    if (st != APLAN_OK) return st;
    aplan__scratch s;
    space sp;
    aplan__scratch_init(&s, NULL, SIZE_MAX);
    carve(&s, p->count, &sp);
    if (s.failed || s.used > SIZE_MAX - phase - 8u) return APLAN_E_SIZE_OVERFLOW;
    *bytes = s.used + 8u + phase;
    return APLAN_OK;
}

/* The first position in point[0 .. n) at or above step. */
static uint32_t first_at(const uint64_t *point, size_t n, uint64_t step) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2u;
        if (point[mid] < step) lo = mid + 1u;
        else hi = mid;
    }
    return (uint32_t)lo;
}

/*
 * floor(num * 2^32 / den) for num < 2^32 and 0 < den < 2^32, without a 64-bit division: on ILP32 targets that is a
 * libgcc call (__udivdi3, __aeabi_uldivmod) the device side does not link. 32 steps of long division.
 */
static uint64_t ratio_2_32(uint32_t num, uint32_t den) {
    uint64_t rem = num % den, low = 0;
    for (unsigned bit = 0; bit < 32u; bit++) {
        rem <<= 1;
        low <<= 1;
        if (rem >= den) {
            rem -= den;
            low |= 1u;
        }
    }
    return (uint64_t)(num / den) << 32 | low;
}

/*
 * Step 1: key[i] = 0 for the buffers chosen for region 0 at target T (live bytes per start step), 1 for the others.
 * Returns false when the live bytes pass 2^64 - 1 (then every buffer is chosen: the engine decides alone).
 */
static bool choose(const aplan_problem *p, const aplan_regions *rg, const space *sp, uint64_t target, bool by_value) {
    const size_t n = p->count;
    aplan__scratch s;
    picks k;
    aplan__scratch_init(&s, sp->phase, sp->phase_size);
    carve_picks(&s, n, &k);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        const bool candidate = (aplan__region_mask(rg, i) & 1u) != 0 && aplan__occupies(p, i);
        sp->key[i] = candidate ? 0u : 1u;
        if (candidate) k.order[m++] = (uint32_t)i;
    }
    if (target == APLAN_UNLIMITED || m == 0) return true;
    for (size_t j = 0; j < m; j++) k.by_upper[j] = k.order[j];
    aplan__sort_by(k.order, k.tmp, m, APLAN__BY_LOWER, p, NULL);
    aplan__sort_by(k.by_upper, k.tmp, m, APLAN__BY_UPPER, p, NULL);
    size_t points = 0;
    uint64_t live = 0;
    for (size_t i = 0, j = 0; i < m;) { /* the live bytes at each start step */
        const uint64_t t = aplan__lower(p, k.order[i]);
        for (; j < m && aplan__upper(p, k.by_upper[j]) <= t; j++) live -= aplan__size(p, k.by_upper[j]);
        for (; i < m && aplan__lower(p, k.order[i]) == t; i++) {
            if (!aplan__add(live, aplan__size(p, k.order[i]), &live)) return false;
        }
        k.point[points] = t;
        k.live.mx[k.live.leaves + points++] = live;
    }
    for (size_t j = points; j < k.live.leaves; j++) k.live.mx[k.live.leaves + j] = 0;
    peaks_build(&k.live);
    k.busy[0] = 0;
    for (size_t j = 0; j < points; j++) k.busy[j + 1u] = k.busy[j] + (k.live.mx[k.live.leaves + j] > target);
    if (k.busy[points] == 0) return true;
    /* The buffers that may leave and are live across a busy step, by rising uses per busy step. */
    size_t movable = 0;
    for (size_t j = 0; j < m; j++) {
        const uint32_t i = k.order[j];
        const aplan_buffer b_at = aplan__buffer(p, i), *b = &b_at;
        const uint32_t lo = first_at(k.point, points, b->lower), hi = first_at(k.point, points, b->upper);
        const uint32_t busy = k.busy[hi] - k.busy[lo];
        if (busy == 0 || aplan__region_mask(rg, i) == 1u) continue;
        k.lo[i] = lo;
        k.hi[i] = hi;
        const uint64_t uses = aplan__region_uses(rg, i);
        /* an order, not a figure: beyond 2^32 uses the order saturates */
        k.okey[i] = ratio_2_32(uses > UINT32_MAX ? UINT32_MAX : (uint32_t)uses, busy);
        k.tmp[movable++] = i;
    }
    uint32_t *leave = k.by_upper; /* free again */
    for (size_t j = 0; j < movable; j++) leave[j] = k.tmp[j];
    aplan__sort_by(leave, k.tmp, movable, APLAN__BY_SIZE_DESC, p, NULL);
    aplan__sort_by(leave, k.tmp, movable, APLAN__BY_OFFSET, p, k.okey);
    size_t left = 0;
    for (size_t j = 0; j < movable; j++) {
        const uint32_t i = leave[j];
        if (peaks_max(&k.live, k.lo[i], k.hi[i]) <= target) continue; /* no step of its lifetime is above */
        peaks_add(&k.live, k.lo[i], k.hi[i], (uint64_t)0 - aplan__size(p, i));
        sp->key[i] = 1u;
        leave[left++] = i;
    }
    /* A later one leaving can make an earlier one's leaving needless (a chain of large buffers each live with the
     * next: leaving every second one is enough). So those that left come back wherever their whole lifetime still
     * has room under the target: in the reverse of the order they left (by_value false), or the most valuable
     * first (size x uses; equal ones in the order they left). Neither order is best on every input: both are
     * tried (select_plan). */
    if (by_value) {
        for (size_t j = 0; j < left; j++) {
            const uint32_t i = leave[j];
            k.okey[i] = UINT64_MAX - aplan__size(p, i) * aplan__region_uses(rg, i); /* falling value; validated */
        }
        aplan__sort_by(leave, k.tmp, left, APLAN__BY_OFFSET, p, k.okey);
    } else {
        for (size_t a = 0, b = left; a + 1u < b; a++, b--) {
            const uint32_t t = leave[a];
            leave[a] = leave[b - 1u];
            leave[b - 1u] = t;
        }
    }
    for (size_t j = 0; j < left; j++) {
        const uint32_t i = leave[j];
        const uint64_t size = aplan__size(p, i), most = peaks_max(&k.live, k.lo[i], k.hi[i]);
        if (most > target || target - most < size) continue; /* no room at some step of its lifetime */
        peaks_add(&k.live, k.lo[i], k.hi[i], size);
        sp->key[i] = 0u;
    }
    return true;
}

/* What a candidate plan is worth: regions over capacity, traffic, bytes over all regions (less is better). */
typedef struct {
    uint64_t over, traffic, bytes;
} worth;

static worth judge(const aplan_problem *p, const aplan_regions *rg, const uint32_t *region_of,
                   const uint64_t *offsets) {
    uint64_t arena[APLAN_MAX_REGIONS] = {0};
    for (size_t i = 0; i < p->count; i++) {
        const uint64_t end = offsets[i] + aplan__size(p, i); /* placed by the engine: fits 64 bits */
        if (end > arena[region_of[i]]) arena[region_of[i]] = end;
    }
    worth w = {0, aplan_region_traffic(p, rg, region_of), 0};
    for (size_t r = 0; r < rg->count; r++) {
        w.over += arena[r] > rg->regions[r].capacity;
        w.bytes = w.bytes > UINT64_MAX - arena[r] ? UINT64_MAX : w.bytes + arena[r];
    }
    return w;
}

static bool better(worth a, worth b) {
    if (a.over != b.over) return a.over < b.over;
    if (a.traffic != b.traffic) return a.traffic < b.traffic;
    return a.bytes < b.bytes;
}

/* Keeps the plan in (cur_region, offsets) as the best when it beats it. */
static void keep(const aplan_problem *p, const aplan_regions *rg, space *sp, const uint64_t *offsets, worth *best,
                 bool *have) {
    const worth w = judge(p, rg, sp->cur_region, offsets);
    if (*have && !better(w, *best)) return;
    *best = w;
    *have = true;
    APLAN_MEMCPY(sp->best_region, sp->cur_region, p->count * sizeof *sp->best_region);
    APLAN_MEMCPY(sp->best_off, offsets, p->count * sizeof *sp->best_off);
}

/* The banked placement of p under regions rg and keys (NULL: banked's order) into cur_region and offsets, under the
 * caller's stop (then what is left is stacked: still a plan, and sp->stopped is set). */
static aplan_status place(const aplan_problem *p, const aplan_regions *rg, space *sp, const uint32_t *key,
                          uint64_t *offsets, aplan_report *report) {
    for (size_t i = 0; i < p->count; i++) offsets[i] = APLAN_NO_OFFSET;
    const aplan__bank bank = {rg, sp->cur_region, key};
    aplan_search_context c;
    APLAN_MEMSET(&c, 0, sizeof c);
    c.options = sp->ctx->options;
    const aplan_status st = aplan__bank_plan(&rule, p, &bank, &c, sp->phase, sp->phase_size, offsets, report);
    if (c.outcome == APLAN_OUTCOME_BEST_FOUND) sp->stopped = true;
    return st;
}

/* The highest end of a sub-problem's plan. */
static uint64_t sub_arena(const aplan_problem *sub, const uint64_t *offsets) {
    uint64_t top = 0;
    for (size_t k = 0; k < sub->count; k++) {
        const uint64_t end = offsets[k] + aplan__size(sub, k); /* a built-in strategy's plan: fits 64 bits */
        if (end > top) top = end;
    }
    return top;
}

/*
 * Step 4's packing of region r (the buffers with cur_region r, at their offsets in off): the best of the auto
 * strategies and, for region 0 when allowed, the exact search from it; off is changed only where that beats it.
 * Each runs only while time_up says no, a heuristic with a search member under the caller's stop (relay_stop).
 */
static void repack(const aplan_problem *p, const aplan_regions *rg, size_t r, space *sp, uint64_t *off) {
    aplan_search_context *ctx = sp->ctx;
    aplan_search_options heuristic;
    aplan_search_options_init(&heuristic);
    heuristic.stop = ctx->options->stop != NULL ? relay_stop : NULL;
    heuristic.context = (void *)(uintptr_t)ctx->options; /* read only, by relay_stop */
    heuristic.check_every = ctx->options->check_every;
    aplan_problem sub;
    const size_t m = aplan__region_sub(p, rg, r, sp->cur_region, sp->sub, sp->map, &sub);
    if (m == 0) return;
    sub.capacity = APLAN_UNLIMITED;
    for (size_t k = 0; k < m; k++) sp->sub_best[k] = off[sp->map[k]];
    uint64_t best = sub_arena(&sub, sp->sub_best);
    aplan_report unused;
    for (size_t a = 0; a < aplan_strategy_auto_count() && !time_up(sp); a++) {
        const aplan_strategy *x = aplan_strategy_auto_at(a);
        size_t need;
        if (x->scratch_size(x, &sub, &need) != APLAN_OK || need > sp->phase_size) continue;
        for (size_t k = 0; k < m; k++) sp->sub_off[k] = APLAN_NO_OFFSET;
        aplan_status st;
        if (x->abi_version >= 2u && x->search != NULL) {
            aplan_search_context c;
            APLAN_MEMSET(&c, 0, sizeof c);
            c.options = &heuristic;
            st = x->search(x, &sub, &c, need ? sp->phase : NULL, need, sp->sub_off, &unused);
            if (c.outcome == APLAN_OUTCOME_BEST_FOUND) sp->stopped = true; /* a plan still, its rest stacked */
        } else {
            st = x->plan(x, &sub, need ? sp->phase : NULL, need, sp->sub_off, &unused);
        }
        if (st != APLAN_OK) continue;
        const uint64_t arena = sub_arena(&sub, sp->sub_off);
        if (arena < best) {
            best = arena;
            APLAN_MEMCPY(sp->sub_best, sp->sub_off, m * sizeof *sp->sub_off);
        }
    }
    size_t need;
    const aplan_strategy *e = r == 0 ? exact_strategy(p, &need) : NULL;
    uint64_t bound = 0;
    size_t bound_need = 0;
    (void)aplan_lower_bound_scratch_size(&sub, &bound_need);
    if (e != NULL && !time_up(sp) && e->scratch_size(e, &sub, &need) == APLAN_OK && need <= sp->phase_size &&
        bound_need <= sp->phase_size &&
        aplan__lower_bound(&sub, bound_need ? sp->phase : NULL, sp->phase_size, &bound, NULL) == APLAN_OK &&
        bound < best) {
        aplan_search_options o = *ctx->options;
        o.goal = APLAN_GOAL_MINIMISE;
        o.start = sp->sub_best;
        const uint64_t most = ctx->nodes + EXACT_NODES * (uint64_t)p->count;
        if (o.max_nodes == 0 || o.max_nodes > most) o.max_nodes = most;
        aplan_search_context c;
        APLAN_MEMSET(&c, 0, sizeof c);
        c.options = &o;
        c.lower_bound = bound;
        c.start_arena = best;
        c.nodes = ctx->nodes; /* one budget: the node limit counts every search of the plan */
        for (size_t k = 0; k < m; k++) sp->sub_off[k] = APLAN_NO_OFFSET;
        const aplan_status st = e->search(e, &sub, &c, need ? sp->phase : NULL, need, sp->sub_off, &unused);
        ctx->nodes = c.nodes;
        if (st == APLAN_OK && sub_arena(&sub, sp->sub_off) < best)
            APLAN_MEMCPY(sp->sub_best, sp->sub_off, m * sizeof *sp->sub_off);
    }
    for (size_t k = 0; k < m; k++) off[sp->map[k]] = sp->sub_best[k];
}

/* Step 4's refill: region 0's buffers fixed where they are, the others placed again by banked placement. */
static aplan_status refill(const aplan_problem *p, const aplan_regions *rg, space *sp, uint64_t *off,
                           aplan_report *report) {
    aplan_problem fixed = *p;
    aplan_regions pinned = *rg;
    for (size_t i = 0; i < p->count; i++) {
        aplan_buffer *b = &sp->sub[i];
        *b = aplan__buffer(p, i);
        b->size = aplan__size(p, i);
        b->alignment = aplan__alignment(p, i);
        const bool stays = sp->cur_region[i] == 0;
        if (stays) b->offset = off[i];
        sp->mask[i] = stays ? 1u : aplan__region_mask(rg, i);
    }
    fixed.buffers = sp->sub;
    fixed.flags &= ~(uint32_t)APLAN_ROUND_SIZES; /* the sizes are rounded already */
    pinned.allowed = sp->mask;
    return place(&fixed, &pinned, sp, NULL, off, report);
}

static aplan_status select_plan(const aplan_region_strategy *self, const aplan_problem *p, const aplan_regions *rg,
                                aplan_search_context *ctx, void *scratch, size_t scratch_size, uint32_t *region_of,
                                uint64_t *offsets, aplan_report *report) {
    (void)self;
    const size_t n = p->count;
    ctx->outcome = APLAN_OUTCOME_PLAN;
    if (n == 0) return APLAN_OK;
    aplan__scratch s;
    space sp;
    aplan__scratch_init(&s, scratch, scratch_size);
    carve(&s, n, &sp);
    const size_t at = (s.used + 7u) & ~(size_t)7u; /* the phase space, 8-aligned: select_scratch_size's 8 */
    if (s.failed || at > scratch_size) return APLAN_E_STRATEGY_FAILED;
    sp.phase = (unsigned char *)scratch + at;
    sp.phase_size = scratch_size - at;
    sp.ctx = ctx;
    sp.stopped = false;

    worth best = {0, 0, 0};
    bool have = false;
    aplan_status st;
    if (rg->count == 1u) { /* the single-region choice: the best auto strategy, from banked's (greedy_by_size's) */
        if ((st = place(p, rg, &sp, NULL, offsets, report)) != APLAN_OK) return st;
        if (!time_up(&sp)) repack(p, rg, 0, &sp, offsets);
        APLAN_MEMCPY(region_of, sp.cur_region, n * sizeof *region_of);
        if (sp.stopped) ctx->outcome = APLAN_OUTCOME_BEST_FOUND;
        return APLAN_OK;
    }
    /* banked's plan, then the selections (steps 1-3) */
    if ((st = place(p, rg, &sp, NULL, offsets, report)) != APLAN_OK) return st;
    keep(p, rg, &sp, offsets, &best, &have);
    const uint64_t cap = rg->regions[0].capacity;
    for (unsigned t = 0; t < TARGETS && !time_up(&sp); t++) {
        static const uint64_t sixteenths[TARGETS] = {16u, 14u};
        const uint64_t target =
            cap == APLAN_UNLIMITED ? cap : cap / 16u * sixteenths[t] + cap % 16u * sixteenths[t] / 16u;
        bool all_in = true; /* a chosen set fit region 0 whole: a lower target would only leave more out */
        for (unsigned order = 0; order < 2u && !time_up(&sp); order++) {
            const bool chosen = choose(p, rg, &sp, target, order == 1u);
            if ((st = place(p, rg, &sp, chosen ? sp.key : NULL, offsets, report)) != APLAN_OK) return st;
            keep(p, rg, &sp, offsets, &best, &have);
            bool in = true;
            for (size_t i = 0; i < n && in; i++) in = !(chosen && sp.key[i] == 0 && sp.cur_region[i] != 0);
            all_in = all_in && in;
        }
        if (all_in || cap == APLAN_UNLIMITED) break;
    }
    /* step 4 */
    if (!time_up(&sp)) {
        APLAN_MEMCPY(sp.cur_region, sp.best_region, n * sizeof *sp.cur_region);
        APLAN_MEMCPY(offsets, sp.best_off, n * sizeof *offsets);
        repack(p, rg, 0, &sp, offsets);
        keep(p, rg, &sp, offsets, &best, &have);
        if (!time_up(&sp) && (st = refill(p, rg, &sp, offsets, report)) == APLAN_OK) {
            for (size_t r = 1; r < rg->count && !time_up(&sp); r++) repack(p, rg, r, &sp, offsets);
            keep(p, rg, &sp, offsets, &best, &have);
        }
    }
    APLAN_MEMCPY(region_of, sp.best_region, n * sizeof *region_of);
    APLAN_MEMCPY(offsets, sp.best_off, n * sizeof *offsets);
    if (sp.stopped) ctx->outcome = APLAN_OUTCOME_BEST_FOUND;
    return APLAN_OK;
}

static const aplan_region_strategy select_strategy = {
    .abi_version = APLAN_REGION_STRATEGY_ABI_VERSION,
    .name = "select",
    .description = APLAN_TEXT("region 0's buffers chosen as a whole by uses per busy step, each region packed by the "
                              "best strategy, never worse than banked"),
    .scratch_size = select_scratch_size,
    .plan = select_plan,
};

const aplan_region_strategy *aplan_region_strategy_select(void) { return &select_strategy; }
