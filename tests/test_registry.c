/* The strategy interface: look-up, the built-in table, a third-party strategy plugged in without touching the
 * core, and what aplan_plan does with a strategy that breaks its contract. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "aplan/strategies.h"
#include "helpers.h"

/* meson passes the configured list (option `strategies`, greedy_by_size expanded with its _tflm variant), as it
 * read it from APLAN_BUILTIN_STRATEGIES, as APLAN_BUILT_STRATEGIES: the library must hold exactly those, in the
 * declaration's order, and no other. */
#define NAME_OF(name, option, engine, in_auto) #name,
static const char *const declared[] = {APLAN_BUILTIN_STRATEGIES(NAME_OF)};

static bool built(const char *name) {
    char list[] = "," APLAN_BUILT_STRATEGIES ",";
    char key[64];
    snprintf(key, sizeof key, ",%s,", name);
    return strstr(list, key) != NULL;
}

static void test_registry_lists_builtins_in_fixed_order(void **state) {
    (void)state;
    size_t k = 0;
    for (size_t i = 0; i < sizeof declared / sizeof declared[0]; i++) {
        const aplan_strategy *found = NULL;
        if (!built(declared[i])) {
            assert_int_equal(aplan_strategy_find(declared[i], &found), APLAN_E_UNKNOWN_STRATEGY);
            assert_null(found);
            continue;
        }
        const aplan_strategy *s = aplan_strategy_at(k++);
        assert_non_null(s);
        assert_string_equal(s->name, declared[i]);
        assert_int_equal(s->abi_version, APLAN_STRATEGY_ABI_VERSION);
        assert_true(strlen(s->description) > 10);
        assert_int_equal(aplan_strategy_find(declared[i], &found), APLAN_OK);
        assert_ptr_equal(found, s);
    }
    assert_int_equal(aplan_strategy_count(), k);
    assert_null(aplan_strategy_at(k));
    /* Every built name meson passed is one the library has: nothing built that the declaration lacks. */
    char list[] = APLAN_BUILT_STRATEGIES;
    size_t names = 0;
    for (char *name = strtok(list, ","); name != NULL; name = strtok(NULL, ",")) {
        const aplan_strategy *found = NULL;
        assert_int_equal(aplan_strategy_find(name, &found), APLAN_OK);
        names++;
    }
    assert_int_equal(names, aplan_strategy_count());
}

/* The auto set: the strategies declared `first`, then `yes`, each in registry order, of those built; the others
 * (linear, exact, offline) never. TFLM's own plan breaks ties, so it comes first whenever it is built. */
#define AUTO_OF(name, option, engine, in_auto) #in_auto,
static const char *const declared_auto[] = {APLAN_BUILTIN_STRATEGIES(AUTO_OF)};

static void test_registry_auto_set(void **state) {
    (void)state;
    size_t k = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < sizeof declared / sizeof declared[0]; i++) {
            if (!built(declared[i]) || strcmp(declared_auto[i], pass == 0 ? "first" : "yes") != 0) continue;
            const aplan_strategy *s = aplan_strategy_auto_at(k++);
            assert_non_null(s);
            assert_string_equal(s->name, declared[i]);
        }
    }
    assert_int_equal(aplan_strategy_auto_count(), k);
    assert_null(aplan_strategy_auto_at(k));
    if (built("greedy_by_size")) {
        assert_string_equal(aplan_strategy_auto_at(0)->name, "greedy_by_size_tflm");
        assert_string_equal(aplan_strategy_auto_at(1)->name, "greedy_by_size");
    }
    for (size_t i = 0; i < aplan_strategy_auto_count(); i++) {
        const aplan_strategy *s = aplan_strategy_auto_at(i);
        assert_true(strcmp(s->name, "linear") != 0 && strcmp(s->name, "exact") != 0 &&
                    strcmp(s->name, "offline") != 0);
        assert_false(aplan_strategy_searches(s)); /* auto's plans are the heuristics' (a budget may cut them short) */
    }
}

static void test_registry_rejects_unknown_name(void **state) {
    (void)state;
    const aplan_strategy *s = aplan_strategy_at(0);
    assert_int_equal(aplan_strategy_find("greedy", &s), APLAN_E_UNKNOWN_STRATEGY);
    assert_null(s);
    assert_int_equal(aplan_strategy_find("linear_", &s), APLAN_E_UNKNOWN_STRATEGY);
    assert_int_equal(aplan_strategy_find("", &s), APLAN_E_UNKNOWN_STRATEGY);
    assert_int_equal(aplan_strategy_find(NULL, &s), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_strategy_find("linear", NULL), APLAN_E_INVALID_ARG);
}

/* A third-party strategy: everything at offset 0 and, when the user pointer says so, in reverse. It reuses nothing
 * from the core but the public header. */
static aplan_status stack_scratch(const aplan_strategy *self, const aplan_problem *p, size_t *bytes) {
    (void)self;
    (void)p;
    *bytes = 16;
    return APLAN_OK;
}

static aplan_status stack_plan(const aplan_strategy *self, const aplan_problem *p, void *scratch, size_t size,
                               uint64_t *offsets, aplan_report *report) {
    assert_int_equal(size, 16);
    assert_int_equal((uintptr_t)scratch % APLAN_SCRATCH_ALIGN, 0);
#ifndef NDEBUG
    for (size_t i = 0; i < size; i++) assert_int_equal(((unsigned char *)scratch)[i], 0xAA);
#endif
    const int mode = *(const int *)self->user;
    uint64_t end = 0;
    for (size_t i = 0; i < p->count; i++) {
        assert_true(offsets[i] == APLAN_NO_OFFSET); /* the contract: offsets arrive unplaced */
        const uint64_t a = aplan_buffer_alignment(p, i);
        end = (end + a - 1) / a * a;
        offsets[i] = end;
        if (mode == 1 && i == 1) offsets[i] = 0;                /* mode 1: overlap buffer 1 with buffer 0 */
        if (mode == 2 && i == 0) offsets[i] = APLAN_NO_OFFSET;  /* mode 2: forget buffer 0 */
        end += aplan_buffer_size(p, i);
    }
    switch (mode) {
    case 3: return APLAN_E_STRATEGY_FAILED;
    case 4: /* a verifier's status, with nothing placed and a report naming no buffer */
        for (size_t i = 0; i < p->count; i++) offsets[i] = APLAN_NO_OFFSET;
        report->rule = APLAN_E_OVERLAP;
        report->buffer_a = report->buffer_b = APLAN_NO_BUFFER;
        return APLAN_E_OVERLAP;
    case 5: /* a capacity result with nothing placed */
        for (size_t i = 0; i < p->count; i++) offsets[i] = APLAN_NO_OFFSET;
        return APLAN_E_CAPACITY_EXCEEDED;
    case 6: offsets[p->count] = 12345; return APLAN_OK; /* one past the end */
    case 7: /* a status it may return, naming a buffer that does not exist */
        report->rule = APLAN_E_OFFSET_MISSING;
        report->buffer_a = p->count + 7u;
        return APLAN_E_OFFSET_MISSING;
    default: return APLAN_OK;
    }
}

static int mode;
static const aplan_strategy stack = {
    .abi_version = 1,
    .name = "stack",
    .description = "test strategy",
    .scratch_size = stack_scratch,
    .plan = stack_plan,
    .user = &mode,
};

static void test_plan_runs_third_party_strategy(void **state) {
    (void)state;
    aplan_buffer b[3] = {buf(8, 0, 2), buf(8, 1, 3), buf(8, 2, 4)};
    aplan_problem p;
    aplan_problem_init(&p, b, 3);
    uint64_t off[3];
    aplan_result r;
    mode = 0;
    assert_int_equal(plan_with(&stack, &p, off, &r), APLAN_OK);
    assert_int_equal(off[2], 16);
    assert_int_equal(r.arena_size, 24);
    assert_int_equal(r.lower_bound, 16);
}

static void test_plan_rejects_overlapping_plan(void **state) {
    (void)state;
    aplan_buffer b[3] = {buf(8, 0, 2), buf(8, 1, 3), buf(8, 2, 4)};
    aplan_problem p;
    aplan_problem_init(&p, b, 3);
    uint64_t off[3];
    aplan_result r;
    mode = 1;
    assert_int_equal(plan_with(&stack, &p, off, &r), APLAN_E_PLAN_REJECTED);
    assert_int_equal(r.report.rule, APLAN_E_OVERLAP);
    assert_int_equal(r.report.buffer_a, 0);
    assert_int_equal(r.report.buffer_b, 1);
    mode = 2;
    assert_int_equal(plan_with(&stack, &p, off, &r), APLAN_E_PLAN_REJECTED);
    assert_int_equal(r.report.rule, APLAN_E_UNPLACED);
    assert_int_equal(r.report.buffer_a, 0);
    mode = 3;
    assert_int_equal(plan_with(&stack, &p, off, &r), APLAN_E_STRATEGY_FAILED);
    assert_int_equal(r.report.rule, APLAN_E_STRATEGY_FAILED);
}

/* The core believes no strategy: statuses that belong to the verifier or the core, and writes past the offsets,
 * become APLAN_E_STRATEGY_FAILED with the strategy's code in report.value. */
static void test_plan_trusts_no_strategy(void **state) {
    (void)state;
    aplan_buffer b[3] = {buf(8, 0, 2), buf(8, 1, 3), buf(8, 2, 4)};
    aplan_problem p;
    aplan_problem_init(&p, b, 3);
    uint64_t off[4];
    aplan_result r;
    mode = 4;
    assert_int_equal(plan_with(&stack, &p, off, &r), APLAN_E_STRATEGY_FAILED);
    assert_int_equal(r.report.rule, APLAN_E_STRATEGY_FAILED);
    assert_int_equal(r.report.value, APLAN_E_OVERLAP);
    assert_int_equal(r.report.buffer_a, APLAN_NO_BUFFER);
    mode = 5;
    assert_int_equal(plan_with(&stack, &p, off, &r), APLAN_E_STRATEGY_FAILED);
    assert_int_equal(r.report.value, APLAN_E_CAPACITY_EXCEEDED);
    mode = 7;
    assert_int_equal(plan_with(&stack, &p, off, &r), APLAN_E_OFFSET_MISSING);
    assert_int_equal(r.report.rule, APLAN_E_OFFSET_MISSING);
    assert_int_equal(r.report.buffer_a, APLAN_NO_BUFFER);
    if (compact_build()) return; /* no scratch for a guarded copy there: the strategy writes the caller's array */
    mode = 6;
    size_t need;
    assert_int_equal(aplan_plan_scratch_size(&stack, &p, &need), APLAN_OK);
    assert_true(need >= 16 + 4 * 8); /* the strategy's 16, then 3 offsets and the guard */
    uint64_t *scratch = aligned_alloc(APLAN_SCRATCH_ALIGN, (need + 7u) & ~(size_t)7u);
    off[3] = 777;
    assert_int_equal(aplan_plan(&stack, &p, scratch, need, off, &r), APLAN_E_STRATEGY_FAILED);
    free(scratch);
    assert_int_equal(r.report.rule, APLAN_E_STRATEGY_FAILED);
    assert_int_equal(r.report.value, APLAN_OK); /* what it returned */
    assert_int_equal(off[3], 777);              /* the caller's memory past the offsets is untouched */
    assert_int_equal(off[2], 16);               /* what it planned is still handed back */
}

static void test_plan_rejects_bad_strategy_and_arguments(void **state) {
    (void)state;
    aplan_buffer b[1] = {buf(8, 0, 2)};
    aplan_problem p;
    aplan_problem_init(&p, b, 1);
    uint64_t off[1], scratch[8];
    aplan_result r;
    aplan_strategy bad = stack;
    mode = 0;
    bad.abi_version = APLAN_STRATEGY_ABI_VERSION + 1u;
    assert_int_equal(aplan_plan(&bad, &p, scratch, sizeof scratch, off, &r), APLAN_E_UNSUPPORTED_VERSION);
    assert_int_equal(r.report.rule, APLAN_E_UNSUPPORTED_VERSION);
    bad.abi_version = 0;
    size_t need;
    assert_int_equal(aplan_plan_scratch_size(&bad, &p, &need), APLAN_E_UNSUPPORTED_VERSION);
    bad = stack;
    bad.plan = NULL;
    assert_int_equal(aplan_plan(&bad, &p, scratch, sizeof scratch, off, &r), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_plan(NULL, &p, scratch, sizeof scratch, off, &r), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_plan(&stack, &p, scratch, sizeof scratch, NULL, &r), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_plan(&stack, &p, scratch, sizeof scratch, off, NULL), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_plan(&stack, NULL, scratch, sizeof scratch, off, &r), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_plan_scratch_size(&stack, &p, NULL), APLAN_E_INVALID_ARG);
    b[0].lower = 3;
    assert_int_equal(aplan_plan(&stack, &p, scratch, sizeof scratch, off, &r), APLAN_E_BAD_LIFETIME);
    assert_int_equal(r.report.buffer_a, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_lists_builtins_in_fixed_order),
        cmocka_unit_test(test_registry_auto_set),
        cmocka_unit_test(test_registry_rejects_unknown_name),
        cmocka_unit_test(test_plan_runs_third_party_strategy),
        cmocka_unit_test(test_plan_rejects_overlapping_plan),
        cmocka_unit_test(test_plan_trusts_no_strategy),
        cmocka_unit_test(test_plan_rejects_bad_strategy_and_arguments),
    };
    return cmocka_run_group_tests_name("registry", tests, NULL, NULL);
}
