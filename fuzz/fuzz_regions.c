/*
 * fuzz_regions: the region strategies (<aplan/regions.h>) on a generated problem with random regions (one to four,
 * random capacities, alignments), random pins and uses. Every plan must be valid region by region by the independent
 * oracle (each region's buffers as a problem of their own), keep every pin, carry the traffic the oracle sums, reach
 * at least the traffic bound when it fits, and come out the same when planned again; select's traffic is never above
 * banked's when both fit. On problems of at most six buffers and three regions, exact's claims (the least traffic,
 * or that nothing fits) are held to a brute force over every assignment, each region packed by the oracle's
 * brute-force optimum. A failure is documented: the status aplan_regions_validate gives, or a strategy's own.
 */
#include <stdlib.h>
#include <string.h>

#include "aplan/regions.h"
#include "fuzz_common.h"
#include "graph_gen.h"
#include "oracle.h"

#define MAX_N GG_MAX_BUFFERS
#define TINY 6u

typedef struct {
    uint64_t state;
} rng;

static uint64_t next(rng *r) {
    r->state ^= r->state << 13;
    r->state ^= r->state >> 7;
    r->state ^= r->state << 17;
    return r->state;
}

/* Region r's buffers as a problem of their own, as the library builds it (sizes as planned, alignment the larger of
 * the buffer's and the region's, no rounding). */
static size_t sub_problem(const aplan_problem *p, const aplan_regions *rg, const uint32_t *region_of, size_t r,
                          aplan_buffer *b, uint64_t *off, const uint64_t *offsets, aplan_problem *q) {
    size_t m = 0;
    for (size_t i = 0; i < p->count; i++) {
        if (region_of[i] != r) continue;
        b[m] = p->buffers[i];
        b[m].size = aplan_buffer_size(p, i);
        const uint64_t a = aplan_buffer_alignment(p, i), ra = rg->regions[r].alignment;
        b[m].alignment = a > ra ? a : ra;
        if (off != NULL) off[m] = offsets[i];
        m++;
    }
    aplan_problem_init(q, b, m);
    q->flags = p->flags & APLAN_ALLOW_FIXED_ALIAS;
    return m;
}

typedef struct {
    aplan_status status;
    uint32_t region_of[MAX_N];
    uint64_t offsets[MAX_N];
    uint64_t arenas[APLAN_MAX_REGIONS];
    aplan_region_result result;
} plan_out;

static void plan(const aplan_region_strategy *s, const aplan_problem *p, const aplan_regions *rg, plan_out *o) {
    size_t need = 0;
    o->status = aplan_region_plan_scratch_size(s, p, rg, &need);
    if (o->status != APLAN_OK) return;
    void *scratch = malloc(need ? need : 1u); /* exactly the size asked for: ASan sees an overrun */
    if (scratch == NULL) abort();
    aplan_search_options opt;
    aplan_search_options_init(&opt);
    opt.max_nodes = FZ_SEARCH_NODES;
    o->status = aplan_region_plan(s, p, rg, &opt, scratch, need, o->region_of, o->offsets, o->arenas, NULL,
                                  &o->result);
    free(scratch);
}

/* Every plan the library returns, checked without it. */
static void check_plan(const aplan_region_strategy *s, const aplan_problem *p, const aplan_regions *rg,
                       const plan_out *o) {
    uint64_t traffic = 0;
    size_t over = 0;
    for (size_t i = 0; i < p->count; i++) {
        FZ_CHECK(p, o->region_of[i] < rg->count && aplan_region_allowed(rg, i, o->region_of[i]),
                 "%s: buffer %zu in region %u, which it may not use", s->name, i, o->region_of[i]);
        if (o->region_of[i] != 0) traffic += aplan_buffer_size(p, i) * (rg->uses != NULL ? rg->uses[i] : 1u);
    }
    FZ_CHECK(p, traffic == o->result.traffic, "%s: traffic %llu, the oracle sums %llu", s->name,
             (unsigned long long)o->result.traffic, (unsigned long long)traffic);
    for (size_t r = 0; r < rg->count; r++) {
        static aplan_buffer b[MAX_N];
        static uint64_t off[MAX_N];
        aplan_problem q;
        sub_problem(p, rg, o->region_of, r, b, off, o->offsets, &q);
        size_t buffer, aliased;
        const aplan_status v = oracle_verify(&q, off, o->arenas[r], &buffer, &aliased);
        FZ_CHECK(p, v == APLAN_OK, "%s: region %zu: the oracle says %d (its buffer %zu)", s->name, r, (int)v, buffer);
        over += o->arenas[r] > rg->regions[r].capacity;
    }
    FZ_CHECK(p, over == o->result.regions_over, "%s: %u regions over, the oracle counts %zu", s->name,
             o->result.regions_over, over);
    FZ_CHECK(p, (over == 0) == (o->status == APLAN_OK), "%s: status %d with %zu regions over", s->name,
             (int)o->status, over);
    if (over == 0)
        FZ_CHECK(p, o->result.traffic >= o->result.traffic_bound, "%s: traffic %llu below its bound %llu", s->name,
                 (unsigned long long)o->result.traffic, (unsigned long long)o->result.traffic_bound);
}

/* The least traffic of a plan that fits every region, by brute force (UINT64_MAX: none fits); tiny problems only. */
static uint64_t brute_force(const aplan_problem *p, const aplan_regions *rg) {
    size_t total = 1;
    for (size_t i = 0; i < p->count; i++) total *= rg->count;
    uint64_t best = UINT64_MAX;
    for (size_t code = 0; code < total; code++) {
        uint32_t region_of[TINY];
        size_t c = code;
        bool allowed = true;
        for (size_t i = 0; i < p->count; i++) {
            region_of[i] = (uint32_t)(c % rg->count);
            c /= rg->count;
            allowed = allowed && aplan_region_allowed(rg, i, region_of[i]);
        }
        if (!allowed) continue;
        bool fits = true;
        for (size_t r = 0; r < rg->count && fits; r++) {
            aplan_buffer b[TINY];
            aplan_problem q;
            uint64_t least = 0;
            if (sub_problem(p, rg, region_of, r, b, NULL, NULL, &q) > 0)
                fits = oracle_optimum(&q, &least) && least <= rg->regions[r].capacity;
        }
        uint64_t t = 0;
        for (size_t i = 0; i < p->count; i++)
            if (region_of[i] != 0) t += aplan_buffer_size(p, i) * (rg->uses != NULL ? rg->uses[i] : 1u);
        if (fits && t < best) best = t;
    }
    return best;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static gg_problem g;
    gg_any(data, size, &g);
    aplan_problem *p = &g.problem;
    p->capacity = APLAN_UNLIMITED; /* the regions carry the capacities */
    rng r = {0x9E3779B97F4A7C15u};
    for (size_t i = 0; i < size; i++) r.state = (r.state ^ data[i]) * 0x100000001B3u;
    if (r.state == 0) r.state = 1;
    /* The regions: capacities around the problem's live bytes, so that some fit and some do not. */
    uint64_t live = 0;
    for (size_t i = 0; i < p->count; i++) {
        const uint64_t s = p->buffers[i].size;
        live = live > UINT64_MAX - s ? UINT64_MAX : live + s;
    }
    aplan_region regions[4];
    const size_t count = 1u + next(&r) % 4u;
    for (size_t k = 0; k < count; k++) {
        const uint64_t pick = next(&r) % 8u;
        const uint64_t capacity = pick == 0 ? APLAN_UNLIMITED : pick == 1 ? next(&r) : live / (1u + next(&r) % 8u);
        regions[k] = (aplan_region){"r", capacity, next(&r) % 3u == 0 ? (uint64_t)1u << (next(&r) % 7u) : 0u, {0, 0}};
        if (next(&r) % 64u == 0) regions[k].alignment = 3; /* an invalid one now and then */
    }
    static uint64_t allowed[MAX_N], uses[MAX_N];
    for (size_t i = 0; i < p->count; i++) {
        const uint64_t pick = next(&r) % 8u;
        allowed[i] = pick == 0 ? (uint64_t)1u << (next(&r) % count) : pick == 1 ? next(&r) % ((uint64_t)1u << count)
                                                                               : 0u;
        if (p->buffers[i].offset != APLAN_NO_OFFSET && next(&r) % 4u != 0)
            allowed[i] = (uint64_t)1u << (next(&r) % count);
        uses[i] = next(&r) % 16u == 0 ? next(&r) : next(&r) % 6u;
    }
    const aplan_regions rg = {regions, count, allowed, next(&r) % 4u == 0 ? NULL : uses, {0}};
    const aplan_status valid = aplan_regions_validate(p, &rg, NULL);
    static plan_out banked, select, exact;
    plan_out *outs[3] = {&banked, &select, &exact};
    for (size_t k = 0; k < aplan_region_strategy_count() && k < 3u; k++) {
        const aplan_region_strategy *s = aplan_region_strategy_at(k);
        if (strcmp(s->name, "exact") == 0 && p->count > 24u) continue; /* a search: small problems only */
        plan_out *o = outs[k];
        plan(s, p, &rg, o);
        if (valid != APLAN_OK) {
            FZ_CHECK(p, o->status == valid, "%s: invalid problem (%d) gave %d", s->name, (int)valid, (int)o->status);
            continue;
        }
        if (o->status == APLAN_OK || (o->status == APLAN_E_CAPACITY_EXCEEDED && o->result.regions_over > 0)) {
            check_plan(s, p, &rg, o);
            if (k == size % 2u) { /* determinism, one strategy per input */
                static plan_out again;
                plan(s, p, &rg, &again);
                FZ_CHECK(p, again.status == o->status && memcmp(again.region_of, o->region_of, p->count * 4u) == 0 &&
                                memcmp(again.offsets, o->offsets, p->count * 8u) == 0,
                         "%s: not deterministic", s->name);
            }
            continue;
        }
        FZ_CHECK(p, o->status == APLAN_E_SIZE_OVERFLOW || o->status == APLAN_E_FIXED_OVERLAP ||
                        o->status == APLAN_E_CAPACITY_EXCEEDED || o->status == APLAN_E_STRATEGY_FAILED,
                 "%s: undocumented status %d", s->name, (int)o->status);
        if (o->status == APLAN_E_CAPACITY_EXCEEDED)
            FZ_CHECK(p, o->result.outcome == APLAN_OUTCOME_INFEASIBLE && o->result.report.in_region,
                     "%s: capacity exceeded without a plan or a proof", s->name);
    }
    if (valid != APLAN_OK) return 0;
    if (banked.status == APLAN_OK && select.status == APLAN_OK)
        FZ_CHECK(p, select.result.traffic <= banked.result.traffic, "select %llu above banked %llu",
                 (unsigned long long)select.result.traffic, (unsigned long long)banked.result.traffic);
    if (banked.status == APLAN_OK)
        FZ_CHECK(p, select.status == APLAN_OK, "banked fits and select does not (%d)", (int)select.status);
    size_t occupying = 0;
    for (size_t i = 0; i < p->count; i++) occupying += p->buffers[i].lower < p->buffers[i].upper;
    if (aplan_region_strategy_count() < 3u || p->count > TINY || count > 3u || occupying > 6u) return 0;
    const uint64_t least = brute_force(p, &rg);
    if (exact.result.outcome == APLAN_OUTCOME_OPTIMAL) {
        FZ_CHECK(p, exact.status == APLAN_OK && exact.result.traffic == least, "exact: optimal %llu, brute force %llu",
                 (unsigned long long)exact.result.traffic, (unsigned long long)least);
    } else if (exact.result.outcome == APLAN_OUTCOME_INFEASIBLE) {
        FZ_CHECK(p, least == UINT64_MAX, "exact: infeasible, but a plan fits with traffic %llu",
                 (unsigned long long)least);
    }
    if (least != UINT64_MAX && exact.status == APLAN_OK)
        FZ_CHECK(p, exact.result.traffic >= least, "exact %llu below the brute force %llu",
                 (unsigned long long)exact.result.traffic, (unsigned long long)least);
    return 0;
}
