/* Internals the strategies stand on: the scratch carver's overflow checks, the stable sorts, the interval tree
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

/* Every key, on both paths (insertion below 49 items, radix above), against the definition: ordered by the key and,
 * among equal keys, in input order (stable). Keys spread over one byte, several, and all eight. */
static void test_sort_by_is_ordered_and_stable(void **state) {
    (void)state;
    test_rng rng = {42};
    enum { N = 700 };
    static aplan_buffer b[N];
    static uint64_t off[N];
    static uint32_t items[N], tmp[N], pos[N];
    const uint64_t spreads[] = {1, 3, 200, 70000, (uint64_t)1 << 40, UINT64_MAX};
    const size_t lengths[] = {0, 1, 2, 20, 48, 49, 300, N};
    for (size_t s = 0; s < sizeof spreads / sizeof spreads[0]; s++) {
        for (size_t i = 0; i < N; i++) {
            uint64_t r = spreads[s] == UINT64_MAX ? rng_next(&rng) : rng_below(&rng, spreads[s]);
            b[i] = buf(r == 0 ? 1 : r, r / 2, r / 2 + 1 + rng_below(&rng, 5));
            off[i] = rng_below(&rng, 2) ? r : rng_next(&rng);
        }
        aplan_problem p;
        aplan_problem_init(&p, b, N);
        for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
            const size_t n = lengths[l];
            for (aplan__key key = APLAN__BY_LOWER; key <= APLAN__BY_SIZE_DESC; key++) {
                for (size_t i = 0; i < n; i++) items[i] = (uint32_t)((i * 7919u) % N); /* a scrambled input */
                for (size_t i = 0; i < n; i++) pos[items[i]] = (uint32_t)i;
                aplan__sort_by(items, tmp, n, key, &p, off);
                for (size_t i = 1; i < n; i++) {
                    const uint32_t x = items[i - 1], y = items[i];
                    uint64_t kx, ky;
                    switch (key) {
                    case APLAN__BY_LOWER: kx = b[x].lower, ky = b[y].lower; break;
                    case APLAN__BY_UPPER: kx = b[x].upper, ky = b[y].upper; break;
                    case APLAN__BY_OFFSET: kx = off[x], ky = off[y]; break;
                    default: kx = ~b[x].size, ky = ~b[y].size; break;
                    }
                    assert_true(kx < ky || (kx == ky && pos[x] < pos[y]));
                }
            }
        }
    }
}

/* aplan__sort_by_key the same way: by a 32-bit key the caller computed, both paths, keys over one to four bytes. */
static void test_sort_by_key_is_ordered_and_stable(void **state) {
    (void)state;
    test_rng rng = {7};
    enum { N = 700 };
    static uint32_t keys[N], items[N], tmp[N], pos[N];
    const uint64_t spreads[] = {1, 3, 200, 70000, (uint64_t)1 << 32};
    const size_t lengths[] = {0, 1, 2, 20, 48, 49, 300, N};
    for (size_t s = 0; s < sizeof spreads / sizeof spreads[0]; s++) {
        for (size_t i = 0; i < N; i++) keys[i] = (uint32_t)rng_below(&rng, spreads[s]);
        for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
            const size_t n = lengths[l];
            for (size_t i = 0; i < n; i++) items[i] = (uint32_t)((i * 7919u) % N); /* a scrambled input */
            for (size_t i = 0; i < n; i++) pos[items[i]] = (uint32_t)i;
            aplan__sort_by_key(items, tmp, n, keys);
            for (size_t i = 1; i < n; i++) {
                const uint32_t x = items[i - 1], y = items[i];
                assert_true(keys[x] < keys[y] || (keys[x] == keys[y] && pos[x] < pos[y]));
            }
        }
    }
}

/* Input nearly in order, where the bounded insertion sort finishes alone (lower steps i/4 plus 0-2, ties in many
 * places), and input in order but for a tail of small keys that belong at the front, where it runs out of moves
 * in the middle of the tail (each needs about 680, it has 1,400) and the radix sort finishes: the same definition,
 * by a buffer's key and by a 32-bit key. */
static void test_sort_nearly_sorted_input(void **state) {
    (void)state;
    test_rng rng = {11};
    enum { N = 700, TAIL = 20 };
    static aplan_buffer b[N];
    static uint32_t keys[N], items[N], tmp[N];
    for (int mode = 0; mode < 2; mode++) {
        for (size_t i = 0; i < N; i++) {
            const uint64_t lower = mode == 0 ? i / 4u + rng_below(&rng, 3) : i < N - TAIL ? i / 2u : rng_below(&rng, 3);
            b[i] = buf(16, lower, lower + 1u);
            keys[i] = (uint32_t)lower;
        }
        aplan_problem p;
        aplan_problem_init(&p, b, N);
        for (int by_key = 0; by_key < 2; by_key++) {
            for (size_t i = 0; i < N; i++) items[i] = (uint32_t)i; /* pos[x] is x */
            if (by_key) aplan__sort_by_key(items, tmp, N, keys);
            else aplan__sort_by(items, tmp, N, APLAN__BY_LOWER, &p, NULL);
            for (size_t i = 1; i < N; i++) {
                const uint32_t x = items[i - 1], y = items[i];
                assert_true(keys[x] < keys[y] || (keys[x] == keys[y] && x < y));
            }
        }
    }
}

/* The tree against a brute-force scan: only placed members count, from the moment they are placed. */
static void test_itree_finds_exactly_the_intersecting_members(void **state) {
    (void)state;
    test_rng rng = {7};
    aplan_buffer b[300];
    uint64_t off[300];
    for (int round = 0; round < 50; round++) {
        const size_t n = 1 + (size_t)rng_below(&rng, 300);
        random_problem(&rng, b, n, 60, 100, 1, 0);
        aplan_problem p;
        aplan_problem_init(&p, b, n);
        uint32_t order[300], maxup[300], tmp[300], out[300];
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            off[i] = rng_below(&rng, 3) == 0 ? i : APLAN_NO_OFFSET; /* a third placed before the build */
            if (b[i].lower < b[i].upper) order[m++] = (uint32_t)i;
        }
        aplan__itree t;
        aplan__itree_build(&t, &p, off, order, maxup, tmp, m);
        for (int phase = 0; phase < 2; phase++) {
            for (uint64_t lo = 0; lo < 60; lo += 3) {
                const uint64_t hi = lo + 1 + rng_below(&rng, 10);
                const size_t k = aplan__itree_query(&t, lo, hi, out);
                size_t want = 0;
                for (size_t i = 0; i < n; i++) {
                    want += b[i].lower < b[i].upper && b[i].lower < hi && lo < b[i].upper && off[i] != APLAN_NO_OFFSET;
                }
                assert_int_equal(k, want);
                for (size_t j = 0; j < k; j++) {
                    const aplan_buffer *x = &b[out[j]];
                    assert_true(x->lower < hi && lo < x->upper && off[out[j]] != APLAN_NO_OFFSET);
                }
            }
            assert_int_equal(aplan__itree_query(&t, 5, 5, out), 0); /* empty query */
            for (size_t k = 0; k < m; k++) { /* place the rest, then query again */
                if (off[order[k]] == APLAN_NO_OFFSET) {
                    off[order[k]] = 1;
                    aplan__itree_place(&t, order[k]);
                }
            }
        }
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
        cmocka_unit_test(test_sort_by_is_ordered_and_stable),
        cmocka_unit_test(test_sort_by_key_is_ordered_and_stable),
        cmocka_unit_test(test_sort_nearly_sorted_input),
        cmocka_unit_test(test_itree_finds_exactly_the_intersecting_members),
        cmocka_unit_test(test_first_gap_walks_sorted_neighbours),
    };
    return cmocka_run_group_tests_name("internals", tests, NULL, NULL);
}
