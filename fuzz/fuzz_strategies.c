/*
 * fuzz_strategies: every strategy (built-ins and third-party ones linked through the hook) on a generated problem.
 * A strategy may fail only with a documented status that the problem explains; every plan it returns must be valid
 * by the independent oracle, carry the oracle's lower bound, reach at least that bound, respect the capacity, and come
 * out identical when planned again (one strategy per input, chosen by the input's length).
 */
#include <string.h>

#include "fuzz_common.h"
#include "graph_gen.h"
#include "oracle.h"

static bool any_unfixed(const aplan_problem *p) {
    for (size_t i = 0; i < p->count; i++) {
        if (p->buffers[i].offset == APLAN_NO_OFFSET) return true;
    }
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static gg_problem g;
    static uint64_t off[GG_MAX_BUFFERS], again[GG_MAX_BUFFERS], fixed_off[GG_MAX_BUFFERS];
    gg_any(data, size, &g);
    const aplan_problem *p = &g.problem;
    const aplan_status valid = aplan_problem_validate(p, NULL);
    bool overflow = false;
    const uint64_t bound = valid == APLAN_OK ? oracle_bound(p, &overflow) : 0;
    for (size_t i = 0; i < p->count; i++) fixed_off[i] = p->buffers[i].offset;

    for (size_t k = 0; k < fz_strategy_count(); k++) {
        const aplan_strategy *s = fz_strategy(k);
        aplan_result r;
        const aplan_status st = fz_plan(s, p, off, &r);
        if (valid != APLAN_OK) {
            FZ_CHECK(p, st == valid, "%s: invalid problem (%d) gave %d", s->name, (int)valid, (int)st);
            continue;
        }
        if (overflow) {
            FZ_CHECK(p, st == APLAN_E_SIZE_OVERFLOW, "%s: live sum overflows 64 bits, got %d", s->name, (int)st);
            continue;
        }
        switch (st) {
        case APLAN_OK: {
            size_t buffer, aliased;
            const aplan_status verdict = oracle_verify(p, off, r.arena_size, &buffer, &aliased);
            FZ_CHECK(p, verdict == APLAN_OK, "%s: plan passed aplan_verify but the oracle says %d (buffer %zu)",
                     s->name, (int)verdict, buffer);
            FZ_CHECK(p, r.report.aliased_pairs == aliased, "%s: %zu aliased pairs, oracle %zu", s->name,
                     r.report.aliased_pairs, aliased);
            FZ_CHECK(p, r.lower_bound == bound, "%s: bound %llu, oracle %llu", s->name,
                     (unsigned long long)r.lower_bound, (unsigned long long)bound);
            FZ_CHECK(p, r.arena_size >= bound, "%s: arena below the lower bound", s->name);
            /* Determinism costs a second plan: check one strategy per input, a different one as inputs vary. */
            if (k == size % fz_strategy_count()) {
                aplan_result r2;
                FZ_CHECK(p, fz_plan(s, p, again, &r2) == APLAN_OK && r2.arena_size == r.arena_size &&
                                memcmp(off, again, p->count * sizeof off[0]) == 0,
                         "%s: not deterministic", s->name);
                /* A heuristic cut short by a budget: still a valid plan, flagged, with the placements it made (its
                 * stacked rest may pass 2^64 - 1 where its rule did not). */
                if (s->abi_version >= 2u && s->search != NULL && !aplan_strategy_searches(s) && p->count > 0) {
                    const uint64_t budget = 1u + size % p->count;
                    const aplan_status bs = fz_plan_budget(s, p, APLAN_GOAL_MINIMISE, budget, again, &r2);
                    /* the stacked rest may pass the capacity where the rule did not: a plan all the same */
                    const bool over = bs == APLAN_E_CAPACITY_EXCEEDED && r2.arena_size > p->capacity;
                    FZ_CHECK(p, bs == APLAN_OK || over || bs == APLAN_E_SIZE_OVERFLOW, "%s: cut short, status %d",
                             s->name, (int)bs);
                    if (bs == APLAN_OK || over) {
                        aplan_problem any = *p;
                        any.capacity = APLAN_UNLIMITED;
                        FZ_CHECK(p, oracle_verify(&any, again, r2.arena_size, &buffer, &aliased) == APLAN_OK,
                                 "%s: cut short after %llu, invalid at buffer %zu", s->name,
                                 (unsigned long long)budget, buffer);
                        FZ_CHECK(p, r2.outcome != APLAN_OUTCOME_BEST_FOUND || r2.nodes == budget,
                                 "%s: cut short after %llu, says %llu", s->name, (unsigned long long)budget,
                                 (unsigned long long)r2.nodes);
                        FZ_CHECK(p, r2.outcome == APLAN_OUTCOME_BEST_FOUND || r2.outcome == APLAN_OUTCOME_OPTIMAL ||
                                        memcmp(off, again, p->count * sizeof off[0]) == 0,
                                 "%s: not cut short, yet not its plan", s->name);
                    }
                }
            }
            break;
        }
        case APLAN_E_CAPACITY_EXCEEDED:
            FZ_CHECK(p, r.lower_bound > p->capacity || r.arena_size > p->capacity,
                     "%s: capacity exceeded, but bound %llu and arena %llu fit %llu", s->name,
                     (unsigned long long)r.lower_bound, (unsigned long long)r.arena_size,
                     (unsigned long long)p->capacity);
            break;
        case APLAN_E_SIZE_OVERFLOW:
            FZ_CHECK(p, r.report.buffer_a < p->count, "%s: overflow without naming a buffer", s->name);
            break;
        case APLAN_E_OFFSET_MISSING:
            FZ_CHECK(p, strcmp(s->name, "offline") == 0 && any_unfixed(p) && r.report.buffer_a < p->count &&
                            p->buffers[r.report.buffer_a].offset == APLAN_NO_OFFSET,
                     "%s: offset missing where it is not", s->name);
            break;
        case APLAN_E_FIXED_OVERLAP:
            FZ_CHECK(p, r.report.buffer_a < r.report.buffer_b && r.report.buffer_b < p->count &&
                            fixed_off[r.report.buffer_a] != APLAN_NO_OFFSET &&
                            fixed_off[r.report.buffer_b] != APLAN_NO_OFFSET &&
                            oracle_pair_forbidden(p, fixed_off, r.report.buffer_a, r.report.buffer_b),
                     "%s: fixed overlap %zu/%zu that the oracle does not confirm", s->name, r.report.buffer_a,
                     r.report.buffer_b);
            break;
        default:
            fz_fail(p, "%s: undocumented failure %d (%s), report rule %d", s->name, (int)st, aplan_status_str(st),
                    (int)r.report.rule);
        }
    }
    return 0;
}
