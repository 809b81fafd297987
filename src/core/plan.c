/*
 * The one entry point: validate, bound, plan, verify. Scratch is shared in time: the bound, the strategy and the
 * verifier run one after another over the same caller memory, so the need is the largest of the three.
 *
 * The core trusts no strategy. A strategy plans into a copy of the offsets in scratch, followed by a guard slot it
 * must not touch; the guard is checked after the call and the copy handed to the caller, so a strategy that writes
 * past offsets[count] fails with APLAN_E_STRATEGY_FAILED instead of corrupting the caller's memory. That costs 8
 * bytes of scratch per buffer (plus 8) beside the strategy's own, and one copy. Compact builds, whose strategies run
 * in 8 bytes per buffer, cannot spare them and hand the strategy the caller's array: there a strategy that writes
 * past it is not detected (ASan builds still catch it). And a strategy's failure status is only believed when it is
 * one a strategy may return (its own failure, a plan past 64 bits, a missing fixed offset): any other, such as a
 * verifier rule or a capacity result with nothing verified behind it, becomes APLAN_E_STRATEGY_FAILED with the
 * strategy's own code in report.value.
 */
#include "internal.h"

/* ASan: the bytes past the strategy's declared need are poisoned while it runs, so an overrun fails loudly. */
#if defined(__SANITIZE_ADDRESS__)
#  define APLAN_ASAN 1
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer)
#    define APLAN_ASAN 1
#  endif
#endif
#ifdef APLAN_ASAN
#  include <sanitizer/asan_interface.h>
#  define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#  define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#  define POISON(p, n) ((void)(p), (void)(n))
#  define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

static aplan_status check_strategy(const aplan_strategy *s) {
    if (s == NULL || s->plan == NULL || s->scratch_size == NULL || s->name == NULL) return APLAN_E_INVALID_ARG;
    if (s->abi_version == 0 || s->abi_version > APLAN_STRATEGY_ABI_VERSION) return APLAN_E_UNSUPPORTED_VERSION;
    return APLAN_OK;
}

static size_t max_size(size_t a, size_t b) { return a > b ? a : b; }

#define GUARD UINT64_C(0x6775617264A5A5A5) /* what the slot after the strategy's offsets must still hold */

/* APLAN_LOW_MEMORY: the bound and the verifier take their pairwise paths and the strategy writes the caller's
 * offsets, so the strategy's need is all (compact builds: their only way). */
static bool least_scratch(const aplan_problem *p) { return APLAN_COMPACT || (p->flags & APLAN_LOW_MEMORY) != 0; }

/* Needs of the three phases; the problem must be valid. *copy: where the strategy's copy of the offsets starts in
 * scratch (after its own need, aligned), or SIZE_MAX when it writes the caller's array (compact builds, no buffers). */
static aplan_status needs(const aplan_strategy *s, const aplan_problem *p, size_t *strategy, size_t *copy,
                          size_t *total) {
    size_t verify, bound, planning;
    aplan_status st;
    if ((st = s->scratch_size(s, p, strategy)) != APLAN_OK) return st;
    if ((st = aplan_verify_scratch_size(p, &verify)) != APLAN_OK) return st;
    if ((st = aplan_lower_bound_scratch_size(p, &bound)) != APLAN_OK) return st;
    planning = *strategy;
    *copy = SIZE_MAX;
    if (least_scratch(p)) {
        *total = planning;
        return APLAN_OK;
    }
    if (!APLAN_COMPACT && p->count != 0) {
        aplan__scratch m;
        aplan__scratch_init(&m, NULL, SIZE_MAX);
        (void)aplan__scratch_take(&m, *strategy, 1, 1);
        *copy = (m.used + sizeof(uint64_t) - 1u) & ~(sizeof(uint64_t) - 1u);
        (void)aplan__scratch_take(&m, p->count + 1u, sizeof(uint64_t), sizeof(uint64_t));
        if (m.failed || p->count == SIZE_MAX) return APLAN_E_SIZE_OVERFLOW;
        planning = m.used;
    }
    *total = max_size(planning, max_size(verify, bound));
    return APLAN_OK;
}

/* The statuses a strategy may return for itself (aplan.h, the strategy contract, rule 5). */
static bool strategy_may_return(aplan_status st) {
    return st == APLAN_E_STRATEGY_FAILED || st == APLAN_E_SIZE_OVERFLOW || st == APLAN_E_OFFSET_MISSING;
}

aplan_status aplan_plan_scratch_size(const aplan_strategy *strategy, const aplan_problem *problem, size_t *bytes) {
    if (bytes == NULL) return APLAN_E_INVALID_ARG;
    aplan_status st = check_strategy(strategy);
    if (st != APLAN_OK) return st;
    if ((st = aplan_problem_validate(problem, NULL)) != APLAN_OK) return st;
    size_t strategy_need, copy;
    return needs(strategy, problem, &strategy_need, &copy, bytes);
}

/* Highest end over placed buffers; UINT64_MAX when an end overflows (the verifier then names the buffer). */
static uint64_t highest_end(const aplan_problem *p, const uint64_t *offsets) {
    uint64_t highest = 0;
    for (size_t i = 0; i < p->count; i++) {
        uint64_t end;
        if (offsets[i] == APLAN_NO_OFFSET) continue;
        if (!aplan__add(offsets[i], aplan__size(p, i), &end)) return UINT64_MAX;
        if (end > highest) highest = end;
    }
    return highest;
}

static aplan_status fail(aplan_result *result, aplan_status st) {
    if (result->report.rule == APLAN_OK) result->report.rule = st;
    return st;
}

void aplan_search_options_init(aplan_search_options *options) {
    if (options == NULL) return;
    APLAN_MEMSET(options, 0, sizeof *options);
    options->goal = APLAN_GOAL_MINIMISE;
    options->check_every = 1024u;
}

/* Whether the strategy has the ABI 2 search entry; the member is read only when its version says it exists. */
static bool searches(const aplan_strategy *s) { return s->abi_version >= 2u && s->search != NULL; }

/*
 * What a verified plan proves, from what the search claimed (ABI 2) and what the core can check: an arena at the
 * bound is optimal whoever found it; FITS needs the arena within the capacity and INFEASIBLE above it; anything
 * else claimed is demoted to what is known.
 */
static uint32_t checked_outcome(bool searched, uint32_t claimed, uint64_t arena, const aplan_problem *p,
                                uint64_t bound) {
    if (arena == bound) return APLAN_OUTCOME_OPTIMAL;
    const bool fits = arena <= p->capacity;
    if (!searched) return APLAN_OUTCOME_PLAN;
    switch (claimed) {
    case APLAN_OUTCOME_OPTIMAL:
        return fits ? APLAN_OUTCOME_OPTIMAL : APLAN_OUTCOME_INFEASIBLE; /* the least there is lies above it */
    case APLAN_OUTCOME_FITS:
        return fits ? APLAN_OUTCOME_FITS : APLAN_OUTCOME_BEST_FOUND;
    case APLAN_OUTCOME_INFEASIBLE:
        return fits ? APLAN_OUTCOME_FITS : APLAN_OUTCOME_INFEASIBLE;
    case APLAN_OUTCOME_BEST_FOUND:
        return APLAN_OUTCOME_BEST_FOUND;
    default:
        return APLAN_OUTCOME_PLAN;
    }
}

aplan_status aplan_plan(const aplan_strategy *strategy, const aplan_problem *problem, void *scratch,
                        size_t scratch_size, uint64_t *offsets, aplan_result *result) {
    return aplan_plan_search(strategy, problem, NULL, scratch, scratch_size, offsets, result);
}

aplan_status aplan_plan_search(const aplan_strategy *strategy, const aplan_problem *problem,
                               const aplan_search_options *options, void *scratch, size_t scratch_size,
                               uint64_t *offsets, aplan_result *result) {
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
    if (!aplan__search_options_valid(options)) return fail(result, APLAN_E_INVALID_ARG);
    if ((st = aplan_problem_validate(problem, &result->report)) != APLAN_OK) {
        if (st == APLAN_E_CAPACITY_EXCEEDED) result->outcome = APLAN_OUTCOME_INFEASIBLE; /* a buffer alone is too big */
        return st;
    }
    const aplan_problem *p = problem;
    if (offsets == NULL && p->count != 0) return fail(result, APLAN_E_INVALID_ARG);
    size_t strategy_need, copy, need;
    if ((st = needs(strategy, p, &strategy_need, &copy, &need)) != APLAN_OK ||
        (st = aplan__scratch_check(scratch, scratch_size, need)) != APLAN_OK) {
        return fail(result, st);
    }
    /* Nothing to lend: n is 0, or a compact build whose bound and verifier need none (their O(n^2) paths). */
    if (need == 0) scratch = NULL;

    /* The problem is valid and the scratch checked: the phases below trust both (one validation per plan). */
    size_t bound_need = 0;
    if (!least_scratch(p)) (void)aplan_lower_bound_scratch_size(p, &bound_need);
    if ((st = aplan__lower_bound(p, bound_need ? scratch : NULL, scratch_size, &result->lower_bound,
                                 &result->bound_step)) != APLAN_OK) {
        return fail(result, st);
    }
    if (result->lower_bound > p->capacity) {
        aplan__report_value(&result->report, APLAN_E_CAPACITY_EXCEEDED, APLAN_NO_BUFFER, result->lower_bound,
                            p->capacity);
        result->outcome = APLAN_OUTCOME_INFEASIBLE;
        return APLAN_E_CAPACITY_EXCEEDED;
    }
    const bool searched = searches(strategy);
    aplan_search_context ctx;
    APLAN_MEMSET(&ctx, 0, sizeof ctx);
    ctx.options = options;
    ctx.lower_bound = result->lower_bound;
    if (options->start != NULL) { /* a starting plan must be one, whoever is given it: checked before any strategy */
        size_t verify_need = 0;
        if (!least_scratch(p)) (void)aplan_verify_scratch_size(p, &verify_need);
        ctx.start_arena = highest_end(p, options->start);
        st = aplan__verify(p, options->start, ctx.start_arena, verify_need ? scratch : NULL, scratch_size,
                           &result->report);
        if (st != APLAN_OK && st != APLAN_E_CAPACITY_EXCEEDED) return APLAN_E_INVALID_ARG;
        aplan_report_clear(&result->report);
    }

    uint64_t *planned = copy == SIZE_MAX ? offsets : (uint64_t *)(void *)((unsigned char *)scratch + copy);
    for (size_t i = 0; i < p->count; i++) planned[i] = APLAN_NO_OFFSET;
    if (planned != offsets) planned[p->count] = GUARD;
    if (strategy_need > 0) {
#ifndef NDEBUG
        APLAN_MEMSET(scratch, 0xAA, strategy_need); /* a strategy that reads before writing sees garbage, always */
#endif
        POISON((unsigned char *)scratch + strategy_need, scratch_size - strategy_need);
        if (planned != offsets) UNPOISON(planned, (p->count + 1u) * sizeof *planned); /* the guard is checked below */
    }
    if (searched) {
        st = strategy->search(strategy, p, &ctx, strategy_need ? scratch : NULL, strategy_need, planned,
                              &result->report);
        result->nodes = ctx.nodes;
        result->unsearched = ctx.unsearched;
        result->best_node = ctx.best_node;
    } else {
        st = strategy->plan(strategy, p, strategy_need ? scratch : NULL, strategy_need, planned, &result->report);
    }
    if (strategy_need > 0) UNPOISON((unsigned char *)scratch + strategy_need, scratch_size - strategy_need);
    if (planned != offsets) {
        const bool overran = planned[p->count] != GUARD;
        APLAN_MEMCPY(offsets, planned, p->count * sizeof *offsets);
        if (overran) {
            aplan_report_clear(&result->report);
            aplan__report_value(&result->report, APLAN_E_STRATEGY_FAILED, APLAN_NO_BUFFER, (uint64_t)st,
                                p->count);
            return APLAN_E_STRATEGY_FAILED;
        }
    }
    if (st != APLAN_OK) {
        aplan_report *r = &result->report;
        if (!strategy_may_return(st)) { /* a status of the core's or the verifier's: nothing verified backs it */
            aplan_report_clear(r);
            aplan__report_value(r, APLAN_E_STRATEGY_FAILED, APLAN_NO_BUFFER, (uint64_t)st, 0);
            return APLAN_E_STRATEGY_FAILED;
        }
        r->rule = st;
        if (r->buffer_a >= p->count) r->buffer_a = APLAN_NO_BUFFER; /* a name that is no buffer names none */
        if (r->buffer_b >= p->count) r->buffer_b = APLAN_NO_BUFFER;
        return st;
    }

    result->arena_size = highest_end(p, offsets);
    size_t verify_need = 0;
    if (!least_scratch(p)) (void)aplan_verify_scratch_size(p, &verify_need);
    st = aplan__verify(p, offsets, result->arena_size, verify_need ? scratch : NULL, scratch_size, &result->report);
    switch (st) {
    case APLAN_OK:
    case APLAN_E_CAPACITY_EXCEEDED: /* a verified plan that is simply too big */
        result->outcome = checked_outcome(searched, ctx.outcome, result->arena_size, p, result->lower_bound);
        return st;
    case APLAN_E_FIXED_OVERLAP:   /* the input's own fixed buffers clash: not the strategy's fault */
        return st;
    default:
        return APLAN_E_PLAN_REJECTED; /* report.rule keeps the broken rule */
    }
}
