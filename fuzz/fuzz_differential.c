/*
 * fuzz_differential: all strategies on one problem, compared with each other and with the bound. No strategy may
 * report an arena below the lower bound; every strategy that succeeds reports the same bound; linear equals the
 * back-to-back fold of aligned sizes when nothing is fixed; and on a problem without fixed buffers and without a
 * capacity every strategy but offline must succeed (none may give up where another found a plan). And on one input
 * in 16, one built-in heuristic but offline (by the input's length) plans the problem again padded to PADDED buffers
 * that occupy nothing: the same status and the same offsets, though from 8,192 buffers the greedy engine finds its
 * gaps by other paths (the spans kept by position; on dense problems the walk over the placed buffers in offset
 * order). One in 16: a padded plan costs as much as a few dozen small ones.
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

enum { PADDED = 8192 };

/* The padded plan of one heuristic against its plan of p alone (status want_st, offsets want). */
static void check_padded(const aplan_strategy *s, const aplan_problem *p, aplan_status want_st, const uint64_t *want) {
    static aplan_buffer padded[PADDED];
    static uint64_t got[PADDED];
    memcpy(padded, p->buffers, p->count * sizeof padded[0]);
    for (size_t i = p->count; i < PADDED; i++) padded[i] = (aplan_buffer){0, 0, 1, 0, APLAN_NO_OFFSET};
    aplan_problem q = *p;
    q.buffers = padded;
    q.count = PADDED;
    aplan_result r;
    const aplan_status st = fz_plan(s, &q, got, &r);
    FZ_CHECK(p, st == want_st, "%s: padded to %d buffers gave %d, alone %d", s->name, PADDED, (int)st, (int)want_st);
    for (size_t i = 0; i < p->count && st == APLAN_OK; i++) {
        FZ_CHECK(p, got[i] == want[i], "%s: padded, buffer %zu at %llu, alone %llu", s->name, i,
                 (unsigned long long)got[i], (unsigned long long)want[i]);
    }
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
        if (size % 16u == 0 && k == size % fz_strategy_count() && k < aplan_strategy_count() &&
            !aplan_strategy_searches(s) && !offline) {
            check_padded(s, p, st, off); /* offline: the padding has no offsets */
        }
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
