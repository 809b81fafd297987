/*
 * fuzz_differential: all strategies on one problem, compared with each other and with the bound. No strategy may
 * report an arena below the lower bound; every strategy that succeeds reports the same bound; linear equals the
 * back-to-back fold of aligned sizes when nothing is fixed; and on a problem without fixed buffers and without a
 * capacity every strategy but offline must succeed (none may give up where another found a plan).
 */
#include <string.h>

#include "fuzz_common.h"
#include "graph_gen.h"

static uint64_t linear_fold(const aplan_problem *p, bool *overflow) {
    uint64_t end = 0;
    *overflow = false;
    for (size_t i = 0; i < p->count; i++) {
        const uint64_t size = aplan_buffer_size(p, i), a = aplan_buffer_alignment(p, i);
        if (size == 0) continue;
        if (end % a != 0) {
            if (a - end % a > UINT64_MAX - end) *overflow = true;
            end += a - end % a;
        }
        if (size > UINT64_MAX - end) *overflow = true;
        end += size;
    }
    return end;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static gg_problem g;
    static uint64_t off[GG_MAX_BUFFERS];
    gg_any(data, size, &g);
    const aplan_problem *p = &g.problem;
    if (aplan_problem_validate(p, NULL) != APLAN_OK) return 0; /* fuzz_strategies covers invalid problems */
    bool any_fixed = false;
    for (size_t i = 0; i < p->count; i++) any_fixed |= p->buffers[i].offset != APLAN_NO_OFFSET;
    bool have_bound = false, fold_overflow;
    uint64_t bound = 0, best = UINT64_MAX;
    const uint64_t fold = linear_fold(p, &fold_overflow);
    size_t succeeded = 0;
    for (size_t k = 0; k < fz_strategy_count(); k++) {
        const aplan_strategy *s = fz_strategy(k);
        aplan_result r;
        const aplan_status st = fz_plan(s, p, off, &r);
        const bool offline = strcmp(s->name, "offline") == 0;
        if (st != APLAN_OK) {
            FZ_CHECK(p, any_fixed || p->capacity != APLAN_UNLIMITED || offline || st == APLAN_E_SIZE_OVERFLOW,
                     "%s: failed (%s) on a problem every strategy can plan", s->name, aplan_status_str(st));
            continue;
        }
        succeeded++;
        FZ_CHECK(p, r.arena_size >= r.lower_bound, "%s: arena %llu below the bound %llu", s->name,
                 (unsigned long long)r.arena_size, (unsigned long long)r.lower_bound);
        FZ_CHECK(p, !have_bound || r.lower_bound == bound, "%s: bound differs between strategies", s->name);
        have_bound = true;
        bound = r.lower_bound;
        if (r.arena_size < best) best = r.arena_size;
        if (strcmp(s->name, "linear") == 0 && !any_fixed) {
            FZ_CHECK(p, !fold_overflow && r.arena_size == fold, "linear: arena %llu, fold %llu",
                     (unsigned long long)r.arena_size, (unsigned long long)fold);
        }
    }
    FZ_CHECK(p, succeeded == 0 || best >= bound, "best arena below the bound");
    return 0;
}
