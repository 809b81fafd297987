/* The built-in strategies, filtered at build time by the meson option `strategies`. There is no mutable global: a
 * third-party strategy is passed to aplan_plan directly and never registered. */
#include "aplan/strategies.h"
#include "internal.h"

/* Getters rather than the structs: each strategy's only public symbol is its getter (internal helpers a strategy
 * shares, such as the greedy engine, are aplan__ names that never leave the library). */
static const aplan_strategy *(*const getters[])(void) = {
#if APLAN_WITH_LINEAR
    aplan_strategy_linear,
#endif
#if APLAN_WITH_GREEDY_BY_SIZE
    aplan_strategy_greedy_by_size,
    aplan_strategy_greedy_by_size_tflm,
#endif
#if APLAN_WITH_FIRST_FIT
    aplan_strategy_first_fit,
#endif
#if APLAN_WITH_BEST_FIT
    aplan_strategy_best_fit,
#endif
#if APLAN_WITH_GREEDY_BY_BREADTH
    aplan_strategy_greedy_by_breadth,
#endif
#if APLAN_WITH_GREEDY_BY_CONFLICTS
    aplan_strategy_greedy_by_conflicts,
#endif
#if APLAN_WITH_EXACT
    aplan_strategy_exact,
#endif
#if APLAN_WITH_OFFLINE
    aplan_strategy_offline,
#endif
    NULL, /* keeps the array non-empty when every strategy is disabled */
};

size_t aplan_strategy_count(void) { return sizeof getters / sizeof getters[0] - 1u; }

const aplan_strategy *aplan_strategy_at(size_t i) {
    return i < aplan_strategy_count() ? getters[i]() : NULL;
}

static bool same(const char *a, const char *b) {
    while (*a != '\0' && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

aplan_status aplan_strategy_find(const char *name, const aplan_strategy **strategy) {
    if (strategy == NULL) return APLAN_E_INVALID_ARG;
    *strategy = NULL;
    if (name == NULL) return APLAN_E_INVALID_ARG;
    for (size_t i = 0; i < aplan_strategy_count(); i++) {
        const aplan_strategy *s = getters[i]();
        if (same(s->name, name)) {
            *strategy = s;
            return APLAN_OK;
        }
    }
    return APLAN_E_UNKNOWN_STRATEGY;
}
