/*
 * Regions (<aplan/regions.h>): validation, the traffic, the bounds, the verifier per region, the region strategies'
 * registry and aplan_region_plan.
 *
 * Everything per region goes through one idea: the buffers of a region, taken out as a problem of their own
 * (aplan__region_sub), are a single-region problem, so the single-region verifier and lower bound check and bound
 * them unchanged. Such a sub-problem copies its buffers (40 bytes each) with their effective size (the flag that
 * rounds it cleared, so the region's alignment never changes a size) and an alignment of the larger of theirs and
 * the region's, plus a map back to the problem's indices (4 bytes each).
 */
#include "aplan/regions.h"
#include "internal.h"

/* ------------------------------------------------------------------------------------------------------------ */
/* Validation and the plain queries                                                                              */

static bool pow2_or_zero(uint64_t v) { return (v & (v - 1u)) == 0; }

static uint64_t mask_of(const aplan_regions *rg, size_t i) {
    const uint64_t all = rg->count >= 64u ? UINT64_MAX : (UINT64_C(1) << rg->count) - 1u;
    const uint64_t m = rg->allowed != NULL ? rg->allowed[i] : 0;
    return m == 0 ? all : m;
}

uint64_t aplan__region_mask(const aplan_regions *rg, size_t i) { return mask_of(rg, i); }

uint64_t aplan__region_align(const aplan_regions *rg, size_t r) {
    const uint64_t a = rg->regions[r].alignment;
    return a != 0 ? a : 1u;
}

uint64_t aplan__region_uses(const aplan_regions *rg, size_t i) { return rg->uses != NULL ? rg->uses[i] : 1u; }

bool aplan_region_allowed(const aplan_regions *regions, size_t i, size_t r) {
    return r < regions->count && ((mask_of(regions, i) >> r) & 1u) != 0;
}

/* The one region a fixed buffer is in (the lowest allowed: validation made it the only one). */
static size_t lowest_bit(uint64_t m) {
    size_t r = 0;
    while (((m >> r) & 1u) == 0) r++;
    return r;
}

size_t aplan__region_first(const aplan_regions *rg, size_t i) { return lowest_bit(mask_of(rg, i)); }

static aplan_status region_fail(aplan_report *r, aplan_status rule, size_t buffer, size_t region, uint64_t value,
                                uint64_t limit) {
    aplan__report_value(r, rule, buffer, value, limit);
    r->region = (uint32_t)region;
    r->in_region = 1u;
    return rule;
}

aplan_status aplan_regions_validate(const aplan_problem *problem, const aplan_regions *regions,
                                    aplan_report *report) {
    aplan_report local;
    aplan_report *r = report != NULL ? report : &local;
    aplan_status st = aplan_problem_validate(problem, r);
    if (st != APLAN_OK) return st;
    const aplan_regions *rg = regions;
    if (rg == NULL || (rg->regions == NULL && rg->count > 0) || problem->capacity != APLAN_UNLIMITED) {
        r->rule = APLAN_E_INVALID_ARG;
        return APLAN_E_INVALID_ARG;
    }
    for (size_t k = 0; k < sizeof rg->reserved / sizeof rg->reserved[0]; k++) {
        if (rg->reserved[k] != 0) {
            r->rule = APLAN_E_INVALID_ARG;
            return APLAN_E_INVALID_ARG;
        }
    }
    if (rg->count == 0 || rg->count > APLAN_MAX_REGIONS) {
        aplan__report_value(r, APLAN_E_BAD_REGION, APLAN_NO_BUFFER, rg->count, APLAN_MAX_REGIONS);
        return APLAN_E_BAD_REGION;
    }
    for (size_t k = 0; k < rg->count; k++) {
        const aplan_region *g = &rg->regions[k];
        if (g->reserved[0] != 0 || g->reserved[1] != 0) {
            r->rule = APLAN_E_INVALID_ARG;
            r->region = (uint32_t)k;
            r->in_region = 1u;
            return APLAN_E_INVALID_ARG;
        }
        if (!pow2_or_zero(g->alignment))
            return region_fail(r, APLAN_E_BAD_ALIGNMENT, APLAN_NO_BUFFER, k, g->alignment, 0);
    }
    const uint64_t all = rg->count >= 64u ? UINT64_MAX : (UINT64_C(1) << rg->count) - 1u;
    uint64_t traffic = 0;
    for (size_t i = 0; i < problem->count; i++) {
        const uint64_t given = rg->allowed != NULL ? rg->allowed[i] : 0;
        if ((given & ~all) != 0) {
            aplan__report_value(r, APLAN_E_BAD_REGION, i, given, all);
            return APLAN_E_BAD_REGION;
        }
        const uint64_t m = mask_of(rg, i);
        const uint64_t size = aplan__size(problem, i);
        const aplan_buffer b_at = aplan__buffer(problem, i), *b = &b_at;
        if (b->offset != APLAN_NO_OFFSET) {
            if ((m & (m - 1u)) != 0) { /* more than one region: the offset would be in none in particular */
                aplan__report_value(r, APLAN_E_BAD_REGION, i, m, 0);
                return APLAN_E_BAD_REGION;
            }
            const size_t k = lowest_bit(m);
            const uint64_t ra = aplan__region_align(rg, k);
            if ((b->offset & (ra - 1u)) != 0) return region_fail(r, APLAN_E_MISALIGNED_OFFSET, i, k, b->offset, ra);
            const uint64_t end = b->offset + size; /* problem validation: fits 64 bits */
            if (end > rg->regions[k].capacity)
                return region_fail(r, APLAN_E_CAPACITY_EXCEEDED, i, k, end, rg->regions[k].capacity);
        }
        uint64_t room = 0; /* the largest capacity among the regions it may use */
        size_t roomiest = 0;
        for (size_t k = 0; k < rg->count; k++) {
            if (((m >> k) & 1u) != 0 && rg->regions[k].capacity >= room) {
                room = rg->regions[k].capacity;
                roomiest = k;
            }
        }
        if (size > room) return region_fail(r, APLAN_E_CAPACITY_EXCEEDED, i, roomiest, size, room);
        uint64_t cost;
        if (__builtin_mul_overflow(size, aplan__region_uses(rg, i), &cost) || !aplan__add(traffic, cost, &traffic)) {
            aplan__report_value(r, APLAN_E_SIZE_OVERFLOW, i, size, aplan__region_uses(rg, i));
            return APLAN_E_SIZE_OVERFLOW;
        }
    }
    return APLAN_OK;
}

uint64_t aplan_region_traffic(const aplan_problem *problem, const aplan_regions *regions, const uint32_t *region_of) {
    uint64_t traffic = 0;
    for (size_t i = 0; i < problem->count; i++) {
        if (region_of[i] != 0) traffic += aplan__size(problem, i) * aplan__region_uses(regions, i); /* validated */
    }
    return traffic;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Sub-problems                                                                                                   */

size_t aplan__region_sub(const aplan_problem *p, const aplan_regions *rg, size_t r, const uint32_t *region_of,
                         aplan_buffer *buffers, uint32_t *map, aplan_problem *sub) {
    const uint64_t ra = aplan__region_align(rg, r);
    size_t m = 0;
    for (size_t i = 0; i < p->count; i++) {
        const bool in = region_of != NULL ? region_of[i] == r : mask_of(rg, i) == (UINT64_C(1) << r);
        if (!in) continue;
        aplan_buffer *b = &buffers[m];
        *b = aplan__buffer(p, i);
        b->size = aplan__size(p, i);
        const uint64_t a = aplan__alignment(p, i);
        b->alignment = a > ra ? a : ra;
        map[m++] = (uint32_t)i;
    }
    aplan_problem_init(sub, buffers, m);
    sub->alignment = ra;
    sub->capacity = rg->regions[r].capacity;
    sub->flags = p->flags & APLAN_ALLOW_FIXED_ALIAS;
    return m;
}

aplan_status aplan__region_sub_size(size_t n, size_t extra, size_t *bytes) {
    aplan__scratch s;
    aplan__scratch_init(&s, NULL, SIZE_MAX);
    (void)aplan__scratch_take(&s, n, sizeof(aplan_buffer), 8u);
    (void)aplan__scratch_take(&s, n, sizeof(uint32_t), 4u);
    (void)aplan__scratch_take(&s, n, sizeof(uint64_t), 8u);
    if (s.failed || s.used > SIZE_MAX - extra) return APLAN_E_SIZE_OVERFLOW;
    *bytes = s.used + extra;
    return APLAN_OK;
}

/* Carves what aplan__region_sub_size measured: buffers, map, offsets (n each), then the rest for the phase. */
static void carve_sub(aplan__scratch *s, size_t n, aplan_buffer **buffers, uint32_t **map, uint64_t **offsets) {
    *buffers = aplan__scratch_take(s, n, sizeof(aplan_buffer), 8u);
    *map = aplan__scratch_take(s, n, sizeof(uint32_t), 4u);
    *offsets = aplan__scratch_take(s, n, sizeof(uint64_t), 8u);
}

/* The report of a sub-problem's check, in the problem's terms: buffer indices mapped back, the region named. */
static void map_report(aplan_report *r, const uint32_t *map, size_t m, size_t region) {
    if (r->buffer_a != APLAN_NO_BUFFER && r->buffer_a < m) r->buffer_a = map[r->buffer_a];
    if (r->buffer_b != APLAN_NO_BUFFER && r->buffer_b < m) r->buffer_b = map[r->buffer_b];
    r->region = (uint32_t)region;
    r->in_region = 1u;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Bounds                                                                                                         */

#define BUSIEST 16u /* the steps the traffic bound tries */

aplan_status aplan_region_bounds_scratch_size(const aplan_problem *problem, const aplan_regions *regions,
                                              size_t *bytes) {
    if (problem == NULL || regions == NULL || bytes == NULL) return APLAN_E_INVALID_ARG;
    size_t bound, arrays;
    aplan_status st = aplan_lower_bound_scratch_size(problem, &bound);
    if (st == APLAN_OK) st = aplan__u32_arrays_size(problem->count, 3u, &arrays);
    if (st != APLAN_OK) return st;
    return aplan__region_sub_size(problem->count, bound > arrays ? bound : arrays, bytes);
}

/* The least traffic that frees need bytes of region 0 among the movable buffers items[0 .. n) sorted by uses: the
 * cheapest bytes first, a part of a buffer counted as a part (the relaxation that makes it a bound). */
static uint64_t cheapest(const aplan_problem *p, const aplan_regions *rg, const uint32_t *items, size_t n,
                         uint64_t need) {
    uint64_t cost = 0;
    for (size_t k = 0; k < n && need > 0; k++) {
        const uint64_t size = aplan__size(p, items[k]);
        const uint64_t take = size < need ? size : need;
        cost += take * aplan__region_uses(rg, items[k]); /* at most the buffer's traffic: validated */
        need -= take;
    }
    return cost;
}

/* Region 0's part of the traffic bound (aplan_region_bounds): its busiest BUSIEST start steps by the live bytes of the
 * buffers it may hold, and at each the fractional knapsack. w: three arrays of n entries. */
static aplan_status traffic_at_peaks(const aplan_problem *p, const aplan_regions *rg, uint32_t *const w[3],
                                     uint64_t *bound) {
    const uint64_t cap = rg->regions[0].capacity;
    uint32_t *by_lower = w[0], *by_upper = w[1], *tmp = w[2];
    size_t m = 0;
    const bool alias = (p->flags & APLAN_ALLOW_FIXED_ALIAS) != 0;
    for (size_t i = 0; i < p->count; i++) { /* as the lower bound counts: aliased fixed buffers may share bytes */
        if ((mask_of(rg, i) & 1u) != 0 && aplan__occupies(p, i) && !(alias && aplan__fixed(p, i) != APLAN_NO_OFFSET))
            by_lower[m++] = (uint32_t)i;
    }
    for (size_t k = 0; k < m; k++) by_upper[k] = by_lower[k];
    aplan__sort_by(by_lower, tmp, m, APLAN__BY_LOWER, p, NULL);
    aplan__sort_by(by_upper, tmp, m, APLAN__BY_UPPER, p, NULL);
    uint64_t step[BUSIEST], live_at[BUSIEST];
    size_t kept = 0;
    uint64_t live = 0;
    for (size_t i = 0, j = 0; i < m;) {
        const uint64_t t = aplan__lower(p, by_lower[i]);
        for (; j < m && aplan__upper(p, by_upper[j]) <= t; j++) live -= aplan__size(p, by_upper[j]);
        for (; i < m && aplan__lower(p, by_lower[i]) == t; i++) {
            if (!aplan__add(live, aplan__size(p, by_lower[i]), &live)) return APLAN_E_SIZE_OVERFLOW;
        }
        if (live <= cap || (kept == BUSIEST && live <= live_at[BUSIEST - 1u])) continue;
        size_t at = kept < BUSIEST ? kept++ : BUSIEST - 1u; /* by falling live bytes, the earliest first on ties */
        for (; at > 0 && live_at[at - 1u] < live; at--) {
            step[at] = step[at - 1u];
            live_at[at] = live_at[at - 1u];
        }
        step[at] = t;
        live_at[at] = live;
    }
    *bound = 0;
    for (size_t k = 0; k < kept; k++) {
        size_t n = 0;
        for (size_t x = 0; x < m; x++) { /* the movable buffers live there (by_lower is free again) */
            const uint32_t i = by_lower[x];
            const aplan_buffer b_at = aplan__buffer(p, i), *b = &b_at;
            if (b->lower <= step[k] && step[k] < b->upper && mask_of(rg, i) != 1u) by_upper[n++] = i;
        }
        if (rg->uses != NULL) aplan__sort_by(by_upper, tmp, n, APLAN__BY_OFFSET, p, rg->uses);
        const uint64_t c = cheapest(p, rg, by_upper, n, live_at[k] - cap);
        if (c > *bound) *bound = c;
    }
    return APLAN_OK;
}

aplan_status aplan__region_bounds(const aplan_problem *p, const aplan_regions *rg, void *scratch,
                                  size_t scratch_size, uint64_t *bounds, uint64_t *traffic_bound) {
    aplan__scratch s;
    aplan_buffer *sb;
    uint32_t *map;
    uint64_t *unused;
    aplan__scratch_init(&s, scratch, scratch_size);
    carve_sub(&s, p->count, &sb, &map, &unused);
    const size_t rest = s.used;
    aplan_status st;
    for (size_t r = 0; r < rg->count; r++) {
        aplan_problem sub;
        const size_t m = aplan__region_sub(p, rg, r, NULL, sb, map, &sub);
        sub.capacity = APLAN_UNLIMITED;
        size_t need;
        (void)aplan_lower_bound_scratch_size(&sub, &need);
        st = aplan__lower_bound(&sub, need && m > 0 ? (unsigned char *)scratch + rest : NULL, scratch_size - rest,
                                &bounds[r], NULL);
        if (st != APLAN_OK) return st;
    }
    uint64_t forced = 0;
    for (size_t i = 0; i < p->count; i++) {
        if ((mask_of(rg, i) & 1u) == 0) forced += aplan__size(p, i) * aplan__region_uses(rg, i); /* validated */
    }
    uint64_t peaks = 0;
    if (rg->count > 1u && rg->regions[0].capacity != APLAN_UNLIMITED && p->count > 0) {
        uint32_t *w[3];
        (void)aplan__take_u32_arrays(&s, p->count, w, 3u);
        if ((st = traffic_at_peaks(p, rg, w, &peaks)) != APLAN_OK) return st;
    }
    *traffic_bound = forced + peaks; /* disjoint buffers: within the validated total */
    return APLAN_OK;
}

aplan_status aplan_region_bounds(const aplan_problem *problem, const aplan_regions *regions, void *scratch,
                                 size_t scratch_size, uint64_t *bounds, uint64_t *traffic_bound) {
    aplan_status st = aplan_regions_validate(problem, regions, NULL);
    if (st != APLAN_OK) return st;
    if (bounds == NULL || traffic_bound == NULL) return APLAN_E_INVALID_ARG;
    size_t need;
    if ((st = aplan_region_bounds_scratch_size(problem, regions, &need)) != APLAN_OK ||
        (st = aplan__scratch_check(scratch, scratch_size, need)) != APLAN_OK)
        return st;
    return aplan__region_bounds(problem, regions, scratch, scratch_size, bounds, traffic_bound);
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Verifier                                                                                                       */

aplan_status aplan_region_verify_scratch_size(const aplan_problem *problem, const aplan_regions *regions,
                                              size_t *bytes) {
    if (problem == NULL || regions == NULL || bytes == NULL) return APLAN_E_INVALID_ARG;
    size_t verify;
    aplan_status st = aplan_verify_scratch_size(problem, &verify);
    if (st != APLAN_OK) return st;
    return aplan__region_sub_size(problem->count, verify, bytes);
}

aplan_status aplan__region_verify(const aplan_problem *p, const aplan_regions *rg, const uint32_t *region_of,
                                  const uint64_t *offsets, const uint64_t *arenas, void *scratch,
                                  size_t scratch_size, aplan_report *r) {
    aplan_report_clear(r);
    for (size_t i = 0; i < p->count; i++) {
        if (region_of[i] >= rg->count || ((mask_of(rg, i) >> region_of[i]) & 1u) == 0) {
            aplan__report_value(r, APLAN_E_WRONG_REGION, i, region_of[i], rg->count);
            return APLAN_E_WRONG_REGION;
        }
    }
    aplan__scratch s;
    aplan_buffer *sb;
    uint32_t *map;
    uint64_t *so;
    aplan__scratch_init(&s, scratch, scratch_size);
    carve_sub(&s, p->count, &sb, &map, &so);
    const size_t rest = s.used;
    size_t aliased = 0;
    for (size_t k = 0; k < rg->count; k++) {
        aplan_problem sub;
        const size_t m = aplan__region_sub(p, rg, k, region_of, sb, map, &sub);
        sub.capacity = APLAN_UNLIMITED; /* the capacities are checked last, over every region */
        for (size_t j = 0; j < m; j++) so[j] = offsets[map[j]];
        size_t need;
        (void)aplan_verify_scratch_size(&sub, &need);
        void *rest_scratch = need && scratch != NULL ? (unsigned char *)scratch + rest : NULL;
        const aplan_status st = aplan__verify(&sub, so, arenas[k], rest_scratch, scratch_size - rest, r);
        if (st != APLAN_OK) {
            map_report(r, map, m, k);
            return st;
        }
        aliased = r->aliased_pairs > SIZE_MAX - aliased ? SIZE_MAX : aliased + r->aliased_pairs; /* saturates too */
    }
    aplan_report_clear(r);
    r->aliased_pairs = aliased;
    for (size_t k = 0; k < rg->count; k++) {
        if (arenas[k] > rg->regions[k].capacity)
            return region_fail(r, APLAN_E_CAPACITY_EXCEEDED, APLAN_NO_BUFFER, k, arenas[k], rg->regions[k].capacity);
    }
    return APLAN_OK;
}

aplan_status aplan_region_verify(const aplan_problem *problem, const aplan_regions *regions,
                                 const uint32_t *region_of, const uint64_t *offsets, const uint64_t *arenas,
                                 void *scratch, size_t scratch_size, aplan_report *report) {
    aplan_report local;
    aplan_report *r = report != NULL ? report : &local;
    aplan_status st = aplan_regions_validate(problem, regions, r);
    if (st != APLAN_OK) return st;
    size_t need;
    if ((problem->count != 0 && (region_of == NULL || offsets == NULL)) || arenas == NULL ||
        (st = aplan_region_verify_scratch_size(problem, regions, &need)) != APLAN_OK ||
        (st = aplan__scratch_check(scratch, scratch_size, need)) != APLAN_OK) {
        if (st == APLAN_OK) st = APLAN_E_INVALID_ARG;
        aplan_report_clear(r);
        r->rule = st;
        return st;
    }
    return aplan__region_verify(problem, regions, region_of, offsets, arenas, scratch, scratch_size, r);
}

/* ------------------------------------------------------------------------------------------------------------ */
/* The registry                                                                                                   */

/* As registry.c: APLAN__RIF(APLAN_WITH_<NEEDS>)(x) is x in a build that has what the strategy needs. */
#define APLAN_WITH_ALWAYS 1
#define APLAN__RIF(with) APLAN__RIF_(with)
#define APLAN__RIF_(with) APLAN__RIF_##with
#define APLAN__RIF_0(...)
#define APLAN__RIF_1(...) __VA_ARGS__
typedef const aplan_region_strategy *(*getter)(void);
#define APLAN__REGION_GETTER(name, needs) APLAN__RIF(APLAN_WITH_##needs)(aplan_region_strategy_##name, )
static const getter getters[] = {APLAN_BUILTIN_REGION_STRATEGIES(APLAN__REGION_GETTER) NULL};

size_t aplan_region_strategy_count(void) { return sizeof getters / sizeof getters[0] - 1u; }

const aplan_region_strategy *aplan_region_strategy_at(size_t i) {
    return i < aplan_region_strategy_count() ? getters[i]() : NULL;
}

aplan_status aplan_region_strategy_find(const char *name, const aplan_region_strategy **strategy) {
    if (strategy == NULL) return APLAN_E_INVALID_ARG;
    *strategy = NULL;
    if (name == NULL) return APLAN_E_INVALID_ARG;
    for (size_t i = 0; i < aplan_region_strategy_count(); i++) {
        const aplan_region_strategy *s = getters[i]();
        const char *a = s->name, *b = name;
        while (*a != '\0' && *a == *b) {
            a++;
            b++;
        }
        if (*a == *b) {
            *strategy = s;
            return APLAN_OK;
        }
    }
    return APLAN_E_UNKNOWN_STRATEGY;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Planning                                                                                                       */

static aplan_status check_strategy(const aplan_region_strategy *s) {
    if (s == NULL || s->plan == NULL || s->scratch_size == NULL || s->name == NULL) return APLAN_E_INVALID_ARG;
    if (s->abi_version == 0 || s->abi_version > APLAN_REGION_STRATEGY_ABI_VERSION) return APLAN_E_UNSUPPORTED_VERSION;
    return APLAN_OK;
}

static aplan_status needs(const aplan_region_strategy *s, const aplan_problem *p, const aplan_regions *rg,
                          size_t *strategy, size_t *total) {
    size_t verify, bounds;
    aplan_status st;
    if ((st = s->scratch_size(s, p, rg, strategy)) != APLAN_OK ||
        (st = aplan_region_verify_scratch_size(p, rg, &verify)) != APLAN_OK ||
        (st = aplan_region_bounds_scratch_size(p, rg, &bounds)) != APLAN_OK)
        return st;
    *total = *strategy > verify ? *strategy : verify;
    if (bounds > *total) *total = bounds;
    return APLAN_OK;
}

aplan_status aplan_region_plan_scratch_size(const aplan_region_strategy *strategy, const aplan_problem *problem,
                                            const aplan_regions *regions, size_t *bytes) {
    if (bytes == NULL) return APLAN_E_INVALID_ARG;
    aplan_status st = check_strategy(strategy);
    if (st == APLAN_OK) st = aplan_regions_validate(problem, regions, NULL);
    if (st != APLAN_OK) return st;
    size_t own;
    return needs(strategy, problem, regions, &own, bytes);
}

static aplan_status fail(aplan_region_result *result, aplan_status st) {
    if (result->report.rule == APLAN_OK) result->report.rule = st;
    return st;
}

/* The highest end in each region of a plan whose regions are valid; false when one passes 2^64 - 1 (the verifier
 * then names it). */
static void region_arenas(const aplan_problem *p, const aplan_regions *rg, const uint32_t *region_of,
                          const uint64_t *offsets, uint64_t *arenas) {
    for (size_t k = 0; k < rg->count; k++) arenas[k] = 0;
    for (size_t i = 0; i < p->count; i++) {
        uint64_t end;
        if (region_of[i] >= rg->count || offsets[i] == APLAN_NO_OFFSET) continue;
        if (!aplan__add(offsets[i], aplan__size(p, i), &end)) end = UINT64_MAX;
        if (end > arenas[region_of[i]]) arenas[region_of[i]] = end;
    }
}

aplan_status aplan_region_plan(const aplan_region_strategy *strategy, const aplan_problem *problem,
                               const aplan_regions *regions, const aplan_search_options *options, void *scratch,
                               size_t scratch_size, uint32_t *region_of, uint64_t *offsets, uint64_t *arenas,
                               uint64_t *bounds, aplan_region_result *result) {
    if (result == NULL) return APLAN_E_INVALID_ARG;
    APLAN_MEMSET(result, 0, sizeof *result);
    aplan_report_clear(&result->report);
    aplan_status st = check_strategy(strategy);
    if (st != APLAN_OK) return fail(result, st);
    aplan_search_options defaults;
    if (options == NULL) {
        aplan_search_options_init(&defaults);
        options = &defaults;
    }
    if (!aplan__search_options_valid(options) || options->start != NULL) return fail(result, APLAN_E_INVALID_ARG);
    if ((st = aplan_regions_validate(problem, regions, &result->report)) != APLAN_OK) {
        if (st == APLAN_E_CAPACITY_EXCEEDED) result->outcome = APLAN_OUTCOME_INFEASIBLE; /* a buffer fits nowhere */
        return st;
    }
    const aplan_problem *p = problem;
    const aplan_regions *rg = regions;
    if ((p->count != 0 && (region_of == NULL || offsets == NULL)) || arenas == NULL)
        return fail(result, APLAN_E_INVALID_ARG);
    size_t own, need;
    if ((st = needs(strategy, p, rg, &own, &need)) != APLAN_OK ||
        (st = aplan__scratch_check(scratch, scratch_size, need)) != APLAN_OK)
        return fail(result, st);
    if (need == 0) scratch = NULL;

    uint64_t local[APLAN_MAX_REGIONS];
    uint64_t *b = bounds != NULL ? bounds : local;
    if ((st = aplan__region_bounds(p, rg, scratch, scratch_size, b, &result->traffic_bound)) != APLAN_OK)
        return fail(result, st);
    for (size_t k = 0; k < rg->count; k++) {
        if (b[k] > rg->regions[k].capacity) { /* its pinned buffers alone do not fit it */
            region_fail(&result->report, APLAN_E_CAPACITY_EXCEEDED, APLAN_NO_BUFFER, k, b[k], rg->regions[k].capacity);
            result->outcome = APLAN_OUTCOME_INFEASIBLE;
            return APLAN_E_CAPACITY_EXCEEDED;
        }
    }
    aplan_search_context ctx;
    APLAN_MEMSET(&ctx, 0, sizeof ctx);
    ctx.options = options;
    ctx.lower_bound = result->traffic_bound;
    for (size_t i = 0; i < p->count; i++) {
        region_of[i] = UINT32_MAX;
        offsets[i] = APLAN_NO_OFFSET;
    }
#ifndef NDEBUG
    if (own > 0) APLAN_MEMSET(scratch, 0xAA, own);
#endif
    st = strategy->plan(strategy, p, rg, &ctx, own ? scratch : NULL, own, region_of, offsets, &result->report);
    result->nodes = ctx.nodes;
    if (st != APLAN_OK) {
        aplan_report *r = &result->report;
        if (st != APLAN_E_STRATEGY_FAILED && st != APLAN_E_SIZE_OVERFLOW) {
            aplan_report_clear(r);
            aplan__report_value(r, APLAN_E_STRATEGY_FAILED, APLAN_NO_BUFFER, (uint64_t)st, 0);
            return APLAN_E_STRATEGY_FAILED;
        }
        r->rule = st;
        if (r->buffer_a >= p->count) r->buffer_a = APLAN_NO_BUFFER;
        if (r->buffer_b >= p->count) r->buffer_b = APLAN_NO_BUFFER;
        return st;
    }
    region_arenas(p, rg, region_of, offsets, arenas);
    st = aplan__region_verify(p, rg, region_of, offsets, arenas, scratch, scratch_size, &result->report);
    if (st != APLAN_OK && st != APLAN_E_CAPACITY_EXCEEDED)
        return st == APLAN_E_FIXED_OVERLAP ? st : APLAN_E_PLAN_REJECTED;
    result->traffic = aplan_region_traffic(p, rg, region_of);
    for (size_t k = 0; k < rg->count; k++) result->regions_over += arenas[k] > rg->regions[k].capacity;
    const bool fits = result->regions_over == 0;
    switch (ctx.outcome) {
    case APLAN_OUTCOME_OPTIMAL: result->outcome = fits ? APLAN_OUTCOME_OPTIMAL : APLAN_OUTCOME_INFEASIBLE; break;
    case APLAN_OUTCOME_INFEASIBLE: result->outcome = fits ? APLAN_OUTCOME_PLAN : APLAN_OUTCOME_INFEASIBLE; break;
    case APLAN_OUTCOME_BEST_FOUND: result->outcome = APLAN_OUTCOME_BEST_FOUND; break;
    default: result->outcome = APLAN_OUTCOME_PLAN; break;
    }
    if (fits && result->traffic == result->traffic_bound) result->outcome = APLAN_OUTCOME_OPTIMAL;
    return st;
}
