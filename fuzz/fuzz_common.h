/*
 * What the harnesses share: the strategies to drive (built-ins plus any linked in through the third-party hook), a
 * planning call with its own scratch, and a failure that every engine reports as a crash.
 */
#ifndef APLAN_FUZZ_COMMON_H
#define APLAN_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "aplan/aplan.h"

/* The harness entry point every target defines (libFuzzer's signature). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The third-party hook (zstd's fuzz_third_party_seq_prod.h idea). A strategy author links a file defining this
 * function into the fuzzers (meson option fuzz_extra_strategies=path/to/file.c) and every harness drives those
 * strategies exactly like the built-ins. The default (fuzz/no_extra_strategies.c) returns none.
 * @param[out] count the number of strategies in the returned array.
 */
const aplan_strategy *const *aplan_fuzz_extra_strategies(size_t *count);

/* Every strategy the harnesses drive: built-ins first, then extras. Returns the count; i < count for fz_strategy. */
size_t fz_strategy_count(void);
const aplan_strategy *fz_strategy(size_t i);

/* A placing strategy to make valid plans with (greedy_by_size, else first_fit, else linear, whichever this build
 * has), or NULL when the build has none of them: harnesses then skip the paths that need a plan. */
const aplan_strategy *fz_reference_strategy(void);

/* aplan_plan_search with scratch of exactly the size asked for (malloc'd, so ASan sees any overrun) and a budget of
 * FZ_SEARCH_NODES nodes, so a searching strategy (exact) ends on every input with its best plan. */
#define FZ_SEARCH_NODES 20000u
aplan_status fz_plan(const aplan_strategy *s, const aplan_problem *p, uint64_t *offsets, aplan_result *result);
/* The same with a goal (APLAN_GOAL_FIT: within p->capacity). */
aplan_status fz_plan_goal(const aplan_strategy *s, const aplan_problem *p, aplan_goal goal, uint64_t *offsets,
                          aplan_result *result);
/* The same with a budget of max_nodes nodes (a heuristic's search member: placements by its rule). */
aplan_status fz_plan_budget(const aplan_strategy *s, const aplan_problem *p, aplan_goal goal, uint64_t max_nodes,
                            uint64_t *offsets, aplan_result *result);

/* Prints "aplan fuzz: <what>" and the problem to stderr, then aborts: a crash to every engine. */
#if defined(__GNUC__)
__attribute__((noreturn, format(printf, 2, 3)))
#endif
void fz_fail(const aplan_problem *p, const char *fmt, ...);

#define FZ_CHECK(p, cond, ...) \
    do {                       \
        if (!(cond)) fz_fail((p), __VA_ARGS__); \
    } while (0)

#endif
