/* Internals the strategies stand on: the scratch carver's overflow checks, the deterministic sort, the interval tree
 * against a brute-force scan and the gap search. Linked against aplan_internal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/internal.h"
#include "helpers.h"

static void test_scratch_measures_and_carves_identically(void **state) {
    (void)state;
    aplan__scratch m;
    aplan__scratch_init(&m, NULL, SIZE_MAX);
    assert_null(aplan__scratch_take(&m, 3, 1, 1));
    assert_null(aplan__scratch_take(&m, 2, 8, 8));
    assert_false(m.failed);
    assert_int_equal(m.used, 24); /* 3 bytes, padding to 8, 16 bytes */
    uint64_t mem[3];
    aplan__scratch c;
    aplan__scratch_init(&c, mem, sizeof mem);
    unsigned char *a = aplan__scratch_take(&c, 3, 1, 1);
    uint64_t *b = aplan__scratch_take(&c, 2, 8, 8);
    assert_ptr_equal(a, (unsigned char *)mem);
    assert_ptr_equal(b, &mem[1]);
    assert_null(aplan__scratch_take(&c, 1, 1, 1)); /* exhausted */
    assert_true(c.failed);
    assert_null(aplan__scratch_take(&c, 0, 1, 1)); /* stays failed */
}

static void test_scratch_rejects_overflowing_sizes(void **state) {
    (void)state;
    aplan__scratch m;
    aplan__scratch_init(&m, NULL, SIZE_MAX);
    assert_null(aplan__scratch_take(&m, SIZE_MAX / 4u + 1u, 4, 4));
    assert_true(m.failed);
    aplan__scratch_init(&m, NULL, SIZE_MAX);
    assert_null(aplan__scratch_take(&m, SIZE_MAX - 2u, 1, 1));
    assert_false(m.failed);
    assert_null(aplan__scratch_take(&m, 1, 8, 8)); /* padding past SIZE_MAX */
    assert_true(m.failed);
}

static bool less_u32(const void *ctx, uint32_t a, uint32_t b) {
    const uint32_t *key = ctx;
    return key[a] != key[b] ? key[a] < key[b] : a < b;
}

static void test_sort_is_total_and_deterministic(void **state) {
    (void)state;
    test_rng rng = {42};
    uint32_t key[500], items[500];
    for (uint32_t i = 0; i < 500; i++) {
        key[i] = (uint32_t)rng_below(&rng, 20);
        items[499 - i] = i;
    }
    aplan__sort(items, 500, less_u32, key);
    for (size_t i = 1; i < 500; i++) assert_true(less_u32(key, items[i - 1], items[i]));
    aplan__sort(items, 0, less_u32, key);
    aplan__sort(items, 1, less_u32, key);
}

static void test_itree_finds_exactly_the_intersecting_members(void **state) {
    (void)state;
    test_rng rng = {7};
    aplan_buffer b[300];
    for (int round = 0; round < 50; round++) {
        const size_t n = 1 + (size_t)rng_below(&rng, 300);
        random_problem(&rng, b, n, 60, 100, 1, 0);
        aplan_problem p;
        aplan_problem_init(&p, b, n);
        uint32_t order[300], maxup[300], out[300];
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            if (b[i].lower < b[i].upper) order[m++] = (uint32_t)i;
        }
        aplan__itree t;
        aplan__itree_build(&t, &p, order, maxup, m);
        for (uint64_t lo = 0; lo < 60; lo += 3) {
            const uint64_t hi = lo + 1 + rng_below(&rng, 10);
            const size_t k = aplan__itree_query(&t, lo, hi, NULL, NULL, out);
            size_t want = 0;
            for (size_t i = 0; i < n; i++) want += b[i].lower < b[i].upper && b[i].lower < hi && lo < b[i].upper;
            assert_int_equal(k, want);
            for (size_t j = 0; j < k; j++) {
                const aplan_buffer *x = &b[out[j]];
                assert_true(x->lower < hi && lo < x->upper);
            }
        }
        assert_int_equal(aplan__itree_query(&t, 5, 5, NULL, NULL, out), 0); /* empty query */
    }
}

static void test_first_gap_walks_sorted_neighbours(void **state) {
    (void)state;
    aplan_buffer b[3] = {buf(10, 0, 1), buf(10, 0, 1), buf(4, 0, 1)};
    aplan_problem p;
    aplan_problem_init(&p, b, 3);
    uint64_t off[3] = {0, 16, 40};
    const uint32_t nb[3] = {0, 1, 2};
    size_t pos = 0;
    uint64_t at;
    assert_int_equal(aplan__first_gap(&p, off, nb, 3, &pos, 0, 6, 1, &at), APLAN_OK);
    assert_int_equal(at, 10); /* [10,16) */
    pos = 0;
    assert_int_equal(aplan__first_gap(&p, off, nb, 3, &pos, 0, 7, 4, &at), APLAN_OK);
    assert_int_equal(at, 28); /* 26 aligned to 4: [28,35) below 40 */
    assert_int_equal(pos, 2);
    pos = 0;
    assert_int_equal(aplan__first_gap(&p, off, nb, 3, &pos, 0, 20, 1, &at), APLAN_OK);
    assert_int_equal(at, 44);
    assert_int_equal(pos, 3);
    pos = 0;
    assert_int_equal(aplan__first_gap(&p, off, nb, 3, &pos, UINT64_MAX - 2u, 1, 8, &at), APLAN_E_SIZE_OVERFLOW);
}

/* aplan__putf: each conversion with the exact argument type it takes, literal '%' handling, and snprintf-like
 * truncation (the full length is counted, the output always NUL-terminated). */
static void test_putf_conversions_and_truncation(void **state) {
    (void)state;
    char out[64];
    aplan__text w = {out, sizeof out, 0};
    aplan__putf(&w, "%s=%u, %d %d %d|%u", "name", (uint64_t)42, (int64_t)0, (int64_t)-7, INT64_MIN, UINT64_MAX);
    assert_string_equal(out, "name=42, 0 -7 -9223372036854775808|18446744073709551615");
    assert_int_equal(w.len, strlen(out));
    w = (aplan__text){out, sizeof out, 0};
    aplan__put(&w, "a");
    aplan__putf(&w, "%%%x%s%", "b");
    assert_string_equal(out, "a%%xb%");
    assert_int_equal(w.len, 6);
    w = (aplan__text){out, sizeof out, 0};
    aplan__putf(&w, "");
    assert_string_equal(out, "");
    assert_int_equal(w.len, 0);
    memset(out, 'x', sizeof out);
    w = (aplan__text){out, 8, 0};
    aplan__putf(&w, "%s %u", "buffer", (uint64_t)12345);
    assert_string_equal(out, "buffer ");
    assert_int_equal(w.len, 12);
    assert_int_equal(out[8], 'x');
    w = (aplan__text){out, 1, 0};
    aplan__putf(&w, "%d", (int64_t)-1);
    assert_string_equal(out, "");
    assert_int_equal(w.len, 2);
    w = (aplan__text){NULL, 0, 0};
    aplan__putf(&w, "%u%s", (uint64_t)100, "abc");
    assert_int_equal(w.len, 6);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_putf_conversions_and_truncation),
        cmocka_unit_test(test_scratch_measures_and_carves_identically),
        cmocka_unit_test(test_scratch_rejects_overflowing_sizes),
        cmocka_unit_test(test_sort_is_total_and_deterministic),
        cmocka_unit_test(test_itree_finds_exactly_the_intersecting_members),
        cmocka_unit_test(test_first_gap_walks_sorted_neighbours),
    };
    return cmocka_run_group_tests_name("internals", tests, NULL, NULL);
}
