/*
 * The one entry point: validate, bound, plan, verify. Scratch is shared in time: the bound, the strategy and the
 * verifier run one after another over the same caller memory, so the need is the largest of the three.
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

/* Needs of the three phases; the problem must be valid. */
static aplan_status needs(const aplan_strategy *s, const aplan_problem *p, size_t *strategy, size_t *total) {
    size_t verify, bound;
    aplan_status st;
    if ((st = s->scratch_size(s, p, strategy)) != APLAN_OK) return st;
    if ((st = aplan_verify_scratch_size(p, &verify)) != APLAN_OK) return st;
    if ((st = aplan_lower_bound_scratch_size(p, &bound)) != APLAN_OK) return st;
    *total = max_size(*strategy, max_size(verify, bound));
    return APLAN_OK;
}

aplan_status aplan_plan_scratch_size(const aplan_strategy *strategy, const aplan_problem *problem, size_t *bytes) {
    if (bytes == NULL) return APLAN_E_INVALID_ARG;
    aplan_status st = check_strategy(strategy);
    if (st != APLAN_OK) return st;
    if ((st = aplan_problem_validate(problem, NULL)) != APLAN_OK) return st;
    size_t strategy_need;
    return needs(strategy, problem, &strategy_need, bytes);
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

aplan_status aplan_plan(const aplan_strategy *strategy, const aplan_problem *problem, void *scratch,
                        size_t scratch_size, uint64_t *offsets, aplan_result *result) {
    if (result == NULL) return APLAN_E_INVALID_ARG;
    APLAN_MEMSET(result, 0, sizeof *result);
    aplan_report_clear(&result->report);
    aplan_status st = check_strategy(strategy);
    if (st != APLAN_OK) return fail(result, st);
    if ((st = aplan_problem_validate(problem, &result->report)) != APLAN_OK) return st;
    const aplan_problem *p = problem;
    if (offsets == NULL && p->count != 0) return fail(result, APLAN_E_INVALID_ARG);
    size_t strategy_need, need;
    if ((st = needs(strategy, p, &strategy_need, &need)) != APLAN_OK ||
        (st = aplan__scratch_check(scratch, scratch_size, need)) != APLAN_OK) {
        return fail(result, st);
    }
    /* Nothing to lend: n is 0, or a compact build whose bound and verifier need none (their O(n^2) paths). */
    if (need == 0) scratch = NULL;

    /* The problem is valid and the scratch checked: the phases below trust both (one validation per plan). */
    size_t bound_need;
    (void)aplan_lower_bound_scratch_size(p, &bound_need);
    if ((st = aplan__lower_bound(p, bound_need ? scratch : NULL, scratch_size, &result->lower_bound,
                                 &result->bound_step)) != APLAN_OK) {
        return fail(result, st);
    }
    if (result->lower_bound > p->capacity) {
        aplan__report_value(&result->report, APLAN_E_CAPACITY_EXCEEDED, APLAN_NO_BUFFER, result->lower_bound,
                            p->capacity);
        return APLAN_E_CAPACITY_EXCEEDED;
    }

    for (size_t i = 0; i < p->count; i++) offsets[i] = APLAN_NO_OFFSET;
    if (strategy_need > 0) {
#ifndef NDEBUG
        APLAN_MEMSET(scratch, 0xAA, strategy_need); /* a strategy that reads before writing sees garbage, always */
#endif
        POISON((unsigned char *)scratch + strategy_need, scratch_size - strategy_need);
    }
    st = strategy->plan(strategy, p, strategy_need ? scratch : NULL, strategy_need, offsets, &result->report);
    if (strategy_need > 0) UNPOISON((unsigned char *)scratch + strategy_need, scratch_size - strategy_need);
    if (st != APLAN_OK) return fail(result, st);

    result->arena_size = highest_end(p, offsets);
    size_t verify_need;
    (void)aplan_verify_scratch_size(p, &verify_need);
    st = aplan__verify(p, offsets, result->arena_size, verify_need ? scratch : NULL, scratch_size, &result->report);
    switch (st) {
    case APLAN_OK:
        return APLAN_OK;
    case APLAN_E_FIXED_OVERLAP:   /* the input's own fixed buffers clash: not the strategy's fault */
    case APLAN_E_CAPACITY_EXCEEDED: /* a verified plan that is simply too big */
        return st;
    default:
        return APLAN_E_PLAN_REJECTED; /* report.rule keeps the broken rule */
    }
}
