/*
 * exact (regions): a branch and bound over which region each buffer goes to, each region's packing checked by the
 * single-region exact search. It proves, on small problems, the least traffic of any plan that fits every region,
 * or that no plan fits; under the search budget it returns the best plan found.
 *
 * Algorithm:
 *   1. The incumbent is select's plan; its traffic, when it fits every region, is the one to beat. When the
 *      caller's stop cut select short (outcome BEST_FOUND: select keeps the caller's deadline from its start), that
 *      plan is the answer: the time is up.
 *   2. Buffers whose region is decided are placed first: fixed ones (their region), those allowed one region, and
 *      those that take no room at a step (size 0 or never live: the first region they may use whose capacity holds
 *      them). The others, the movable ones, are searched by falling value (size x uses; equal ones larger first,
 *      then by index), each tried in its regions in preference order (region 0 first: the least traffic first).
 *   3. A child is cut when its region's live bytes at a start step of its lifetime would pass the capacity (every
 *      plan of the region needs at least its live bytes), or when its traffic reaches the best fitting plan's.
 *   4. At a leaf each region is packed: greedy_by_size's packing when it fits the capacity, else the exact search
 *      for a fit (goal FIT) under what is left of the budget. A leaf whose regions all fit is the new best.
 * The search is complete when the budget did not stop it and every leaf's packing was decided: then the best plan's
 * traffic is proven least (OPTIMAL), or, when no leaf fitted and the incumbent does not fit, no plan fits
 * (INFEASIBLE). Goal FIT stops at the first plan that fits.
 * Limits: problems of at most 1024 buffers are searched (larger ones get select's plan, proving nothing beyond the
 * bounds); nodes are the branch's plus the exact packings'. Time O(regions^movable) at worst: the budget is for that.
 * Scratch: select's, then 100 bytes per buffer plus 8 per buffer and region (the live bytes), with the single-region
 * exact search's need for its packings. Deterministic under a node budget. Built with the exact strategy.
 */
#include "aplan/regions.h"
#include "aplan/strategies.h"
#include "strategies/greedy.h"

#define SEARCH_MAX 1024u /* problems searched: at most this many buffers */

static const aplan__greedy_rule rule = APLAN__BY_SIZE_RULE;

typedef struct {
    uint32_t *order, *choice, *cur, *lo, *hi, *map;
    uint64_t *point, *live, *off, *sub_off;
    aplan_buffer *sub;
} space;

static void carve(aplan__scratch *s, size_t n, size_t regions, space *sp) {
    sp->order = aplan__scratch_take(s, n, sizeof(uint32_t), 4u);
    sp->choice = aplan__scratch_take(s, n, sizeof(uint32_t), 4u);
    sp->cur = aplan__scratch_take(s, n, sizeof(uint32_t), 4u);
    sp->lo = aplan__scratch_take(s, n, sizeof(uint32_t), 4u);
    sp->hi = aplan__scratch_take(s, n, sizeof(uint32_t), 4u);
    sp->map = aplan__scratch_take(s, n, sizeof(uint32_t), 4u);
    sp->point = aplan__scratch_take(s, n, sizeof(uint64_t), 8u);
    sp->off = aplan__scratch_take(s, n, sizeof(uint64_t), 8u);
    sp->sub_off = aplan__scratch_take(s, n, sizeof(uint64_t), 8u);
    sp->sub = aplan__scratch_take(s, n, sizeof(aplan_buffer), 8u);
    size_t cells = 0;
    if (__builtin_mul_overflow(n, regions, &cells)) s->failed = true;
    sp->live = aplan__scratch_take(s, cells, sizeof(uint64_t), 8u);
}

/* The scratch of the packings: the greedy engine's and the single-region exact search's, on the whole problem. */
static aplan_status packing_size(const aplan_problem *p, size_t *bytes) {
    const aplan_strategy *e = NULL;
    size_t greedy, exact = 0;
    aplan_status st = aplan__greedy_scratch_size(&rule, p, &greedy);
    if (st == APLAN_OK && aplan_strategy_find("exact", &e) == APLAN_OK) st = e->scratch_size(e, p, &exact);
    *bytes = greedy > exact ? greedy : exact;
    return st;
}

static aplan_status exact_scratch_size(const aplan_region_strategy *self, const aplan_problem *p,
                                       const aplan_regions *rg, size_t *bytes) {
    (void)self;
    const aplan_region_strategy *sel = aplan_region_strategy_select();
    size_t own, packing;
    aplan_status st = sel->scratch_size(sel, p, rg, &own);
    if (st != APLAN_OK || p->count > SEARCH_MAX) {
        *bytes = own;
        return st;
    }
    if ((st = packing_size(p, &packing)) != APLAN_OK) return st;
    aplan__scratch s;
    space sp;
    aplan__scratch_init(&s, NULL, SIZE_MAX);
    (void)aplan__scratch_take(&s, own, 1u, 8u);
    carve(&s, p->count, rg->count, &sp);
    (void)aplan__scratch_take(&s, packing, 1u, 8u);
    if (s.failed) return APLAN_E_SIZE_OVERFLOW;
    *bytes = s.used;
    return APLAN_OK;
}

typedef struct {
    const aplan_problem *p;
    const aplan_regions *rg;
    aplan_search_context *ctx;
    space sp;
    size_t points;
    unsigned char *pack;   /* the packings' scratch */
    size_t pack_size;
    bool stopped;          /* the budget ran out */
    bool undecided;        /* a packing was neither found nor proven impossible */
    uint64_t next_check;
} search;

static bool count_node(search *s) {
    const aplan_search_options *o = s->ctx->options;
    s->ctx->nodes++;
    if (o->max_nodes != 0 && s->ctx->nodes >= o->max_nodes) s->stopped = true;
    if (o->stop != NULL && s->ctx->nodes >= s->next_check) {
        s->next_check = s->ctx->nodes + (o->check_every != 0 ? o->check_every : 1u);
        if (o->stop(o->context, s->ctx->nodes)) s->stopped = true;
    }
    return !s->stopped;
}

static uint64_t *live_of(const search *s, size_t r) { return s->sp.live + r * s->points; }

/* Whether buffer i fits region r's live bytes at every start step of its lifetime. */
static bool room(const search *s, uint32_t i, size_t r) {
    const uint64_t size = aplan__size(s->p, i), cap = s->rg->regions[r].capacity;
    const uint64_t *live = live_of(s, r);
    for (uint32_t x = s->sp.lo[i]; x < s->sp.hi[i]; x++) {
        if (live[x] > cap || cap - live[x] < size) return false;
    }
    return true;
}

static void add(search *s, uint32_t i, size_t r, bool remove) {
    const uint64_t size = aplan__size(s->p, i);
    uint64_t *live = live_of(s, r);
    for (uint32_t x = s->sp.lo[i]; x < s->sp.hi[i]; x++) live[x] = remove ? live[x] - size : live[x] + size;
}

/* Packs every region of the assignment sp.cur into sp.off: 1 when all fit, 0 when one is proven not to, -1 when
 * undecided (the budget). */
static int pack(search *s) {
    const aplan_problem *p = s->p;
    const aplan_strategy *e = NULL;
    (void)aplan_strategy_find("exact", &e);
    aplan_report unused;
    for (size_t r = 0; r < s->rg->count; r++) {
        aplan_problem sub;
        const size_t m = aplan__region_sub(p, s->rg, r, s->sp.cur, s->sp.sub, s->sp.map, &sub);
        if (m == 0) continue;
        for (size_t k = 0; k < m; k++) s->sp.sub_off[k] = APLAN_NO_OFFSET;
        if (aplan__greedy_plan(&rule, &sub, s->pack, s->pack_size, s->sp.sub_off, &unused) != APLAN_OK) return -1;
        uint64_t top = 0;
        for (size_t k = 0; k < m; k++) {
            const uint64_t end = s->sp.sub_off[k] + sub.buffers[k].size;
            if (end > top) top = end;
        }
        if (top > sub.capacity) {
            size_t need;
            if (e == NULL || e->scratch_size(e, &sub, &need) != APLAN_OK || need > s->pack_size) return -1;
            aplan_search_options o = *s->ctx->options;
            o.goal = APLAN_GOAL_FIT;
            o.start = NULL;
            aplan_search_context c;
            APLAN_MEMSET(&c, 0, sizeof c);
            c.options = &o;
            c.nodes = s->ctx->nodes;
            for (size_t k = 0; k < m; k++) s->sp.sub_off[k] = APLAN_NO_OFFSET;
            const aplan_status st = e->search(e, &sub, &c, need ? s->pack : NULL, need, s->sp.sub_off, &unused);
            s->ctx->nodes = c.nodes;
            if (st != APLAN_OK || c.outcome == APLAN_OUTCOME_BEST_FOUND) return -1;
            if (c.outcome == APLAN_OUTCOME_INFEASIBLE) return 0;
            top = 0;
            for (size_t k = 0; k < m; k++) {
                const uint64_t end = s->sp.sub_off[k] + sub.buffers[k].size;
                if (end > top) top = end;
            }
            if (top > sub.capacity) return -1;
        }
        for (size_t k = 0; k < m; k++) s->sp.off[s->sp.map[k]] = s->sp.sub_off[k];
    }
    return 1;
}

static aplan_status exact_plan(const aplan_region_strategy *self, const aplan_problem *p, const aplan_regions *rg,
                               aplan_search_context *ctx, void *scratch, size_t scratch_size, uint32_t *region_of,
                               uint64_t *offsets, aplan_report *report) {
    (void)self;
    const aplan_region_strategy *sel = aplan_region_strategy_select();
    size_t own;
    aplan_status st = sel->scratch_size(sel, p, rg, &own);
    if (st == APLAN_OK) st = sel->plan(sel, p, rg, ctx, scratch, own, region_of, offsets, report);
    if (st != APLAN_OK) return st;
    if (ctx->outcome == APLAN_OUTCOME_BEST_FOUND) return APLAN_OK; /* the caller's stop cut select short: no time left */
    ctx->outcome = APLAN_OUTCOME_PLAN;
    const size_t n = p->count;
    /* the incumbent's worth */
    uint64_t arena[APLAN_MAX_REGIONS] = {0};
    for (size_t i = 0; i < n; i++) {
        const uint64_t end = offsets[i] + aplan__size(p, i);
        if (end > arena[region_of[i]]) arena[region_of[i]] = end;
    }
    bool fits = true;
    for (size_t r = 0; r < rg->count; r++) fits = fits && arena[r] <= rg->regions[r].capacity;
    uint64_t best = fits ? aplan_region_traffic(p, rg, region_of) : UINT64_MAX;
    const bool want_fit = ctx->options->goal == APLAN_GOAL_FIT;
    if (n > SEARCH_MAX || (fits && (want_fit || best == ctx->lower_bound))) {
        if (fits && n <= SEARCH_MAX) ctx->outcome = want_fit ? APLAN_OUTCOME_FITS : APLAN_OUTCOME_OPTIMAL;
        return APLAN_OK;
    }

    search s;
    APLAN_MEMSET(&s, 0, sizeof s);
    s.p = p;
    s.rg = rg;
    s.ctx = ctx;
    s.next_check = ctx->nodes + (ctx->options->check_every != 0 ? ctx->options->check_every : 1u);
    aplan__scratch sc;
    aplan__scratch_init(&sc, scratch, scratch_size);
    (void)aplan__scratch_take(&sc, own, 1u, 8u);
    carve(&sc, n, rg->count, &s.sp);
    (void)aplan__scratch_take(&sc, 1u, 1u, 8u);
    if (sc.failed) return APLAN_E_STRATEGY_FAILED;
    s.pack = (unsigned char *)scratch + sc.used - 1u;
    s.pack_size = scratch_size - (sc.used - 1u);

    /* The start steps of every buffer that takes room, and each one's range of them. */
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (aplan__occupies(p, i)) s.sp.order[m++] = (uint32_t)i;
    }
    aplan__sort_by(s.sp.order, s.sp.choice, m, APLAN__BY_LOWER, p, NULL);
    for (size_t k = 0; k < m; k++) {
        const uint64_t t = aplan__lower(p, s.sp.order[k]);
        if (s.points == 0 || s.sp.point[s.points - 1u] != t) s.sp.point[s.points++] = t;
    }
    for (size_t k = 0; k < m; k++) {
        const uint32_t i = s.sp.order[k];
        size_t lo = 0, hi = s.points;
        while (lo < hi) { /* the first point at or past its upper step */
            const size_t mid = lo + (hi - lo) / 2u;
            if (s.sp.point[mid] < aplan__upper(p, i)) lo = mid + 1u;
            else hi = mid;
        }
        s.sp.hi[i] = (uint32_t)lo;
        lo = 0;
        hi = s.points;
        while (lo < hi) {
            const size_t mid = lo + (hi - lo) / 2u;
            if (s.sp.point[mid] < aplan__lower(p, i)) lo = mid + 1u;
            else hi = mid;
        }
        s.sp.lo[i] = (uint32_t)lo;
    }
    for (size_t c = 0; c < rg->count * s.points; c++) s.sp.live[c] = 0;
    /* The decided buffers, then the movable ones by falling value. */
    uint64_t traffic = 0;
    size_t movable = 0;
    for (size_t i = 0; i < n; i++) {
        const uint64_t mask = aplan__region_mask(rg, i);
        const bool occupies = aplan__occupies(p, i);
        if (occupies && aplan__fixed(p, i) == APLAN_NO_OFFSET && (mask & (mask - 1u)) != 0) {
            s.sp.order[movable++] = (uint32_t)i;
            continue;
        }
        size_t r = aplan__region_first(rg, i);
        if (!occupies) {
            while (((mask >> r) & 1u) == 0 || rg->regions[r].capacity < aplan__size(p, i)) r++; /* validated */
        }
        s.sp.cur[i] = (uint32_t)r;
        if (r != 0) traffic += aplan__size(p, i) * aplan__region_uses(rg, i);
        /* Fixed buffers that may alias count nothing: their bytes may be shared, so the cut stays sound (weaker). */
        if (!occupies || ((p->flags & APLAN_ALLOW_FIXED_ALIAS) && aplan__fixed(p, i) != APLAN_NO_OFFSET)) continue;
        if (!room(&s, (uint32_t)i, r)) { /* the decided buffers alone pass a capacity: no plan fits */
            ctx->outcome = fits ? APLAN_OUTCOME_PLAN : APLAN_OUTCOME_INFEASIBLE;
            return APLAN_OK;
        }
        add(&s, (uint32_t)i, r, false);
    }
    /* By (value desc, size desc, index), an insertion sort with off[] holding the values by position (free until the
     * packings): the movable buffers are few, the search being exponential in them. */
    for (size_t k = 0; k < movable; k++)
        s.sp.off[k] = aplan__size(p, s.sp.order[k]) * aplan__region_uses(rg, s.sp.order[k]);
    for (size_t a = 1; a < movable; a++) {
        const uint32_t x = s.sp.order[a];
        const uint64_t vx = s.sp.off[a], sx = aplan__size(p, x);
        size_t b = a;
        for (; b > 0; b--) {
            const uint32_t y = s.sp.order[b - 1u];
            const uint64_t vy = s.sp.off[b - 1u], sy = aplan__size(p, y);
            if (!(vx > vy || (vx == vy && (sx > sy || (sx == sy && x < y))))) break;
            s.sp.order[b] = y;
            s.sp.off[b] = vy;
        }
        s.sp.order[b] = x;
        s.sp.off[b] = vx;
    }
    /* The branch: choice[d] is the region tried at depth d (rg->count: none yet). */
    size_t d = 0;
    if (movable > 0) s.sp.choice[0] = UINT32_MAX;
    bool found = false;
    for (;;) {
        if (d == movable) { /* a leaf: pack it */
            const int packed = pack(&s);
            if (packed < 0) s.undecided = true;
            if (packed > 0 && traffic < best) {
                best = traffic;
                found = true;
                APLAN_MEMCPY(region_of, s.sp.cur, n * sizeof *region_of);
                APLAN_MEMCPY(offsets, s.sp.off, n * sizeof *offsets);
                if (want_fit || best == ctx->lower_bound) break;
            }
            if (d == 0) break;
            d--;
        }
        const uint32_t i = s.sp.order[d];
        const uint64_t mask = aplan__region_mask(rg, i), cost = aplan__size(p, i) * aplan__region_uses(rg, i);
        if (s.sp.choice[d] != UINT32_MAX) { /* undo the last try */
            add(&s, i, s.sp.choice[d], true);
            if (s.sp.choice[d] != 0) traffic -= cost;
        }
        size_t r = s.sp.choice[d] == UINT32_MAX ? 0 : s.sp.choice[d] + 1u;
        if (!count_node(&s)) break;
        for (; r < rg->count; r++) {
            if (((mask >> r) & 1u) == 0 || !room(&s, i, r)) continue;
            if ((r != 0 ? traffic + cost : traffic) >= best) continue; /* cannot beat the best fitting plan */
            break;
        }
        if (r == rg->count) { /* no region left at this depth: back up */
            s.sp.choice[d] = UINT32_MAX;
            if (d == 0) break;
            d--;
            continue;
        }
        s.sp.choice[d] = (uint32_t)r;
        s.sp.cur[i] = (uint32_t)r;
        add(&s, i, r, false);
        if (r != 0) traffic += cost;
        d++;
        if (d < movable) s.sp.choice[d] = UINT32_MAX;
    }
    const bool complete = !s.stopped && !s.undecided;
    if (found && want_fit) ctx->outcome = APLAN_OUTCOME_FITS;
    else if (found || fits)
        ctx->outcome = complete || best == ctx->lower_bound ? APLAN_OUTCOME_OPTIMAL : APLAN_OUTCOME_BEST_FOUND;
    else ctx->outcome = complete ? APLAN_OUTCOME_INFEASIBLE : APLAN_OUTCOME_BEST_FOUND;
    return APLAN_OK;
}

static const aplan_region_strategy exact = {
    .abi_version = APLAN_REGION_STRATEGY_ABI_VERSION,
    .name = "exact",
    .description = APLAN_TEXT("branch and bound over the regions with exact packings: proves the least traffic or "
                              "that nothing fits"),
    .scratch_size = exact_scratch_size,
    .plan = exact_plan,
};

const aplan_region_strategy *aplan_region_strategy_exact(void) { return &exact; }
