/* The built-in strategies, filtered at build time by the meson option `strategies`. There is no mutable global: a
 * third-party strategy is passed to aplan_plan directly and never registered. Both tables below are expanded from
 * the one declaration, APLAN_BUILTIN_STRATEGIES in <aplan/strategies.h>. */
#include "aplan/strategies.h"
#include "internal.h"

/* APLAN__IF(APLAN_WITH_<OPTION>)(x) is x in a build that has the option and nothing otherwise. APLAN_WITH_<OPTION>
 * is always defined to 0 or 1 (meson.build); an undefined one leaves APLAN__IF_APLAN_WITH_..., a compile error. */
#define APLAN__IF(with) APLAN__IF_(with)
#define APLAN__IF_(with) APLAN__IF_##with
#define APLAN__IF_0(...)
#define APLAN__IF_1(...) __VA_ARGS__

/* Getters rather than the structs: each strategy's only public symbol is its getter (internal helpers a strategy
 * shares, such as the greedy engine, are aplan__ names that never leave the library). */
typedef const aplan_strategy *(*getter)(void);

#define APLAN__GETTER(name, option, engine, in_auto) APLAN__IF(APLAN_WITH_##option)(aplan_strategy_##name, )
static const getter getters[] = {APLAN_BUILTIN_STRATEGIES(APLAN__GETTER) NULL}; /* NULL: never empty */

/* The auto set: the strategies marked first, then those marked yes, each group in registry order. */
#define APLAN__AUTO_first_first(name) aplan_strategy_##name,
#define APLAN__AUTO_first_yes(name)
#define APLAN__AUTO_first_no(name)
#define APLAN__AUTO_yes_first(name)
#define APLAN__AUTO_yes_yes(name) aplan_strategy_##name,
#define APLAN__AUTO_yes_no(name)
#define APLAN__AUTO(pass, name, option, in_auto) APLAN__IF(APLAN_WITH_##option)(APLAN__AUTO_##pass##_##in_auto(name))
#define APLAN__AUTO_FIRST(name, option, engine, in_auto) APLAN__AUTO(first, name, option, in_auto)
#define APLAN__AUTO_YES(name, option, engine, in_auto) APLAN__AUTO(yes, name, option, in_auto)
static const getter auto_getters[] = {
    APLAN_BUILTIN_STRATEGIES(APLAN__AUTO_FIRST) APLAN_BUILTIN_STRATEGIES(APLAN__AUTO_YES) NULL};

size_t aplan_strategy_count(void) { return sizeof getters / sizeof getters[0] - 1u; }

const aplan_strategy *aplan_strategy_at(size_t i) {
    return i < aplan_strategy_count() ? getters[i]() : NULL;
}

size_t aplan_strategy_auto_count(void) { return sizeof auto_getters / sizeof auto_getters[0] - 1u; }

const aplan_strategy *aplan_strategy_auto_at(size_t i) {
    return i < aplan_strategy_auto_count() ? auto_getters[i]() : NULL;
}

/* The auto set's heuristics are told apart by their search member, so that a copy of one is told apart too. */
bool aplan_strategy_searches(const aplan_strategy *strategy) {
    if (strategy == NULL || strategy->abi_version < 2u || strategy->search == NULL) return false;
    for (size_t i = 0; i < aplan_strategy_auto_count(); i++) {
        const aplan_strategy *a = auto_getters[i]();
        if (a->abi_version >= 2u && a->search == strategy->search) return false;
    }
    return true;
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
