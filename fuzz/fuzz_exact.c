/*
 * fuzz_exact: the searches against a brute force on tiny problems. The problem is cut to its first
 * FZ_EXACT_BUFFERS buffers, so fuzz/oracle.c can try every placement order (oracle_optimum). Then:
 *   - no strategy, searching or not, reports an arena below the optimum;
 *   - a search that claims its plan optimal has the optimum;
 *   - a search asked to fit the optimum fits it (FITS or OPTIMAL), unless its budget ran out (BEST_FOUND);
 *   - a search asked to fit one byte less never returns a plan within it, and when it claims a proof (INFEASIBLE)
 *     the brute force agrees.
 * Searching strategies are those with an ABI 2 search entry: exact, and any third-party one joined through
 * fuzz_extra_strategies.
 */
#include <string.h>

#include "fuzz_common.h"
#include "graph_gen.h"
#include "oracle.h"

#define FZ_EXACT_BUFFERS 7 /* 5,040 orders per problem */


static aplan_status fit(const aplan_strategy *s, const aplan_problem *p, uint64_t capacity, uint64_t *off,
                        aplan_result *r) {
    aplan_problem q = *p;
    q.capacity = capacity;
    return fz_plan_goal(s, &q, APLAN_GOAL_FIT, off, r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static gg_problem g;
    static uint64_t off[GG_MAX_BUFFERS];
    gg_any(data, size, &g);
    aplan_problem p = g.problem;
    if (p.count > FZ_EXACT_BUFFERS) p.count = FZ_EXACT_BUFFERS;
    p.capacity = APLAN_UNLIMITED;
    if (aplan_problem_validate(&p, NULL) != APLAN_OK) return 0; /* fuzz_strategies covers invalid problems */
    uint64_t optimum;
    const bool solvable = oracle_optimum(&p, &optimum);
    for (size_t k = 0; k < fz_strategy_count(); k++) {
        const aplan_strategy *s = fz_strategy(k);
        aplan_result r;
        const aplan_status st = fz_plan(s, &p, off, &r);
        if (st != APLAN_OK) continue; /* fuzz_differential judges failures */
        FZ_CHECK(&p, solvable, "%s: planned what the brute force finds impossible", s->name);
        FZ_CHECK(&p, r.arena_size >= optimum, "%s: arena %llu below the optimum %llu", s->name,
                 (unsigned long long)r.arena_size, (unsigned long long)optimum);
        if (!aplan_strategy_searches(s)) continue;
        FZ_CHECK(&p, r.outcome != APLAN_OUTCOME_OPTIMAL || r.arena_size == optimum,
                 "%s: claims %llu optimal, the optimum is %llu", s->name, (unsigned long long)r.arena_size,
                 (unsigned long long)optimum);
        aplan_status fs = fit(s, &p, optimum, off, &r);
        FZ_CHECK(&p, (fs == APLAN_OK && r.arena_size <= optimum) || r.outcome == APLAN_OUTCOME_BEST_FOUND,
                 "%s: does not fit the optimum %llu (status %d, outcome %u)", s->name,
                 (unsigned long long)optimum, (int)fs, r.outcome);
        if (optimum == 0) continue;
        fs = fit(s, &p, optimum - 1u, off, &r);
        FZ_CHECK(&p, fs != APLAN_OK, "%s: fits %llu, below the optimum", s->name,
                 (unsigned long long)(optimum - 1u));
        FZ_CHECK(&p, r.outcome == APLAN_OUTCOME_INFEASIBLE || r.outcome == APLAN_OUTCOME_BEST_FOUND,
                 "%s: one byte below the optimum: outcome %u", s->name, r.outcome);
    }
    return 0;
}
