/*
 * The built-in strategies. Each getter returns a pointer to a static const aplan_strategy that lives as long as the
 * program; pass it to aplan_plan. aplan_strategy_count() and aplan_strategy_at() list the ones enabled in this build
 * (meson option `strategies`) and aplan_strategy_find() looks one up by name; the getter of a disabled strategy is
 * not in the library, so code meant for any build should look strategies up by name.
 *
 * What each strategy does, its complexity, its scratch per buffer and what it guarantees: docs/design.md, "The
 * strategies", and the opening comment of src/strategies/NAME.c. `aplan list` prints each one's description.
 *
 * Sizes near 2^64: a strategy that does not search fails with APLAN_E_SIZE_OVERFLOW, naming the buffer, only where
 * the place its own rule chooses for that buffer would end past 2^64 - 1 (another order may still fit: exact then
 * finds it); wherever its rule fits 64 bits it plans. docs/design.md, "Sizes near 2^64", says what each guarantees.
 */
#ifndef APLAN_STRATEGIES_H
#define APLAN_STRATEGIES_H

#include "aplan.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * APLAN_BUILTIN_STRATEGIES(X): the one declaration of the built-in strategies, one X(...) per strategy in the
 * registry's fixed order (aplan_strategy_at). Everything that lists the built-ins reads it: the getters below, the
 * registry (src/core/registry.c), meson.build (sources, the `strategies` option's check, APLAN_WITH_<OPTION>),
 * bench/footprint.py, the tests, and tests/tree_test.py, which holds the docs' lists to it. A new built-in
 * strategy is its file src/strategies/NAME.c, defining aplan_strategy_NAME(), and one line here.
 *
 *   NAME    the strategy's name, its getter aplan_strategy_NAME and its file src/strategies/NAME.c;
 *   OPTION  the name, in capitals, that `-Dstrategies=` builds it under (APLAN_WITH_<OPTION>): its own name, or
 *           the strategy it is a variant of;
 *   ENGINE  a shared file it needs, src/strategies/ENGINE.c (none: nothing beyond its own file);
 *   AUTO    its part in "auto" (aplan_strategy_auto_at, the CLI's -s auto and the TFLM adapter's default):
 *           first  in auto, and first when arenas tie (TFLM's own plan: a tie changes nothing on the device),
 *           yes    in auto, ties in this order after the first,
 *           no     not in auto (no reuse, a pass-through, or a search: auto's search comes after its plans).
 * Lines are `X(NAME, OPTION, ENGINE, AUTO)` with nothing else on them but a trailing comment, as the scripts read them.
 */
#define APLAN_BUILTIN_STRATEGIES(X)                                                                             \
    X(linear, LINEAR, none, no)                              /* no reuse: the baseline */                       \
    X(greedy_by_size, GREEDY_BY_SIZE, greedy, yes)           /* largest first at the lowest free offset */      \
    X(greedy_by_size_tflm, GREEDY_BY_SIZE, greedy, first)    /* the same with TFLite Micro's tie order */       \
    X(first_fit, FIRST_FIT, none, yes)                       /* a runtime arena simulated step by step */       \
    X(best_fit, BEST_FIT, greedy, yes)                       /* largest first into the smallest gap */          \
    X(greedy_by_breadth, GREEDY_BY_BREADTH, greedy, yes)     /* the busiest step's buffers first */             \
    X(greedy_by_conflicts, GREEDY_BY_CONFLICTS, greedy, yes) /* the most overlapping buffers first */           \
    X(exact, EXACT, greedy, no)                              /* branch and bound, with proofs */                \
    X(offline, OFFLINE, none, no)                            /* an offline plan, verified */

/* The getters: const aplan_strategy *aplan_strategy_NAME(void), one per line above. */
#define APLAN_DECLARE_BUILTIN_(name, option, engine, in_auto)                                                   \
    APLAN_API const aplan_strategy *aplan_strategy_##name(void);
APLAN_BUILTIN_STRATEGIES(APLAN_DECLARE_BUILTIN_)
#undef APLAN_DECLARE_BUILTIN_

#ifdef __cplusplus
}
#endif

#endif /* APLAN_STRATEGIES_H */
