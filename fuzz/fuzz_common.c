/* See fuzz_common.h. */
#include "fuzz_common.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

size_t fz_strategy_count(void) {
    size_t extra = 0;
    (void)aplan_fuzz_extra_strategies(&extra);
    return aplan_strategy_count() + extra;
}

const aplan_strategy *fz_strategy(size_t i) {
    const size_t builtin = aplan_strategy_count();
    if (i < builtin) return aplan_strategy_at(i);
    size_t extra = 0;
    const aplan_strategy *const *list = aplan_fuzz_extra_strategies(&extra);
    return i - builtin < extra ? list[i - builtin] : NULL;
}

const aplan_strategy *fz_reference_strategy(void) {
    static const char *const names[] = {"greedy_by_size", "first_fit", "linear"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const aplan_strategy *s;
        if (aplan_strategy_find(names[i], &s) == APLAN_OK) return s;
    }
    return NULL;
}

aplan_status fz_plan(const aplan_strategy *s, const aplan_problem *p, uint64_t *offsets, aplan_result *result) {
    return fz_plan_goal(s, p, APLAN_GOAL_MINIMISE, offsets, result);
}

aplan_status fz_plan_goal(const aplan_strategy *s, const aplan_problem *p, aplan_goal goal, uint64_t *offsets,
                          aplan_result *result) {
    return fz_plan_budget(s, p, goal, FZ_SEARCH_NODES, offsets, result);
}

aplan_status fz_plan_budget(const aplan_strategy *s, const aplan_problem *p, aplan_goal goal, uint64_t max_nodes,
                            uint64_t *offsets, aplan_result *result) {
    size_t need = 0;
    aplan_status st = aplan_plan_scratch_size(s, p, &need);
    if (st != APLAN_OK) {
        /* the same failure must come out of aplan_plan itself */
        aplan_status again = aplan_plan(s, p, NULL, 0, offsets, result);
        if (again != st) fz_fail(p, "%s: scratch query says %d, plan says %d", s->name, (int)st, (int)again);
        return st;
    }
    void *scratch = need != 0 ? malloc(need) : NULL;
    if (need != 0 && scratch == NULL) abort();
    aplan_search_options budget; /* a searching strategy stops there with its best plan; deterministic */
    aplan_search_options_init(&budget);
    budget.max_nodes = max_nodes;
    budget.goal = goal;
    st = aplan_plan_search(s, p, &budget, scratch, need, offsets, result);
    free(scratch);
    return st;
}

void fz_fail(const aplan_problem *p, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("aplan fuzz: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    if (p != NULL) {
        fprintf(stderr, "problem: %zu buffers, alignment %" PRIu64 ", capacity %" PRIu64 ", flags %" PRIu32 "\n",
                p->count, p->alignment, p->capacity, p->flags);
        for (size_t i = 0; i < p->count && i < 64; i++) {
            const aplan_buffer *b = &p->buffers[i];
            fprintf(stderr, "  %zu: size %" PRIu64 " [%" PRIu64 ", %" PRIu64 ") align %" PRIu64 " offset %" PRIu64 "\n",
                    i, b->size, b->lower, b->upper, b->alignment, b->offset);
        }
    }
    abort();
}
