/* The problem model: initialisation, validation with its exact statuses and reports, effective sizes, status names
 * and report text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"

static aplan_report validate(const aplan_problem *p, aplan_status expected) {
    aplan_report r;
    assert_int_equal(aplan_problem_validate(p, &r), expected);
    assert_int_equal(r.rule, expected);
    return r;
}

static void test_problem_init_sets_defaults(void **state) {
    (void)state;
    aplan_buffer b[1] = {buf(1, 0, 1)};
    aplan_problem p;
    memset(&p, 0x5A, sizeof p);
    aplan_problem_init(&p, b, 1);
    assert_ptr_equal(p.buffers, b);
    assert_int_equal(p.count, 1);
    assert_int_equal(p.alignment, 1);
    assert_true(p.capacity == APLAN_UNLIMITED);
    assert_int_equal(p.flags, 0);
    for (size_t i = 0; i < 7; i++) assert_int_equal(p.reserved[i], 0);
    validate(&p, APLAN_OK);
}

/* Every init and clear function of aplan.h ignores NULL, as aplan_tflm_config_init and the free functions do (a
 * crash here fails the test). */
static void test_init_functions_ignore_null(void **state) {
    (void)state;
    aplan_problem_init(NULL, NULL, 3);
    aplan_report_clear(NULL);
    aplan_search_options_init(NULL);
    aplan_report r;
    memset(&r, 0x5A, sizeof r);
    aplan_report_clear(&r);
    assert_int_equal(r.rule, APLAN_OK);
    assert_true(r.buffer_a == APLAN_NO_BUFFER && r.buffer_b == APLAN_NO_BUFFER);
}

static void test_problem_rejects_null_and_reserved(void **state) {
    (void)state;
    assert_int_equal(aplan_problem_validate(NULL, NULL), APLAN_E_INVALID_ARG);
    aplan_problem p;
    aplan_problem_init(&p, NULL, 3);
    validate(&p, APLAN_E_INVALID_ARG);
    aplan_problem_init(&p, NULL, 0);
    validate(&p, APLAN_OK); /* no buffers is a valid, empty problem */
    p.reserved[3] = 1;
    validate(&p, APLAN_E_INVALID_ARG);
    p.reserved[3] = 0;
    p.flags = 0x10; /* the first flag no version defines */
    validate(&p, APLAN_E_INVALID_ARG);
}

/* Compact records (aplan_buffer32): the same rules and reports as aplan_buffer, the problem's alignment for each. */
static void test_problem_compact_records(void **state) {
    (void)state;
    aplan_buffer32 c[3] = {{20, 0, 2, APLAN_NO_OFFSET32}, {5, 1, 3, 32}, {0, 4, 4, APLAN_NO_OFFSET32}};
    aplan_problem p;
    memset(&p, 0x5A, sizeof p);
    aplan_problem_init32(&p, c, 3);
    assert_ptr_equal(p.buffers32, c);
    assert_int_equal(p.count, 3);
    assert_int_equal(p.flags, APLAN_BUFFERS32);
    assert_int_equal(p.alignment, 1);
    p.alignment = 16;
    p.flags |= APLAN_ROUND_SIZES;
    validate(&p, APLAN_OK);
    assert_int_equal(aplan_buffer_size(&p, 0), 32);
    assert_int_equal(aplan_buffer_size(&p, 1), 16);
    assert_int_equal(aplan_buffer_alignment(&p, 1), 16);
    assert_true(aplan_buffers_conflict(&p, 0, 1));
    assert_false(aplan_buffers_conflict(&p, 1, 2)); /* never live */
    c[1].offset = 24;
    aplan_report r = validate(&p, APLAN_E_MISALIGNED_OFFSET);
    assert_int_equal(r.buffer_a, 1);
    assert_int_equal(r.value, 24);
    assert_int_equal(r.limit, 16);
    c[1].offset = 32;
    c[2].lower = 5;
    r = validate(&p, APLAN_E_BAD_LIFETIME);
    assert_int_equal(r.buffer_a, 2);
    assert_int_equal(r.step_lo, 5);
    assert_int_equal(r.step_hi, 4);
    c[2].lower = 4;
    p.capacity = 40;
    r = validate(&p, APLAN_E_CAPACITY_EXCEEDED); /* the fixed buffer ends at 32 + 16 */
    assert_int_equal(r.buffer_a, 1);
    assert_int_equal(r.value, 48);
    aplan_problem_init32(&p, NULL, 2);
    validate(&p, APLAN_E_INVALID_ARG);
    aplan_problem_init32(NULL, c, 3); /* ignored */
}

static void test_problem_rejects_too_many_buffers(void **state) {
    (void)state;
    aplan_buffer b[1] = {buf(1, 0, 1)};
    aplan_problem p;
    aplan_problem_init(&p, b, APLAN_MAX_BUFFERS + 1u);
    aplan_report r = validate(&p, APLAN_E_TOO_MANY_BUFFERS);
    assert_true(r.value == (uint64_t)APLAN_MAX_BUFFERS + 1u);
}

static void test_problem_rejects_bad_default_alignment(void **state) {
    (void)state;
    aplan_buffer b[1] = {buf(1, 0, 1)};
    aplan_problem p;
    aplan_problem_init(&p, b, 1);
    p.alignment = 0;
    aplan_report r = validate(&p, APLAN_E_BAD_ALIGNMENT);
    assert_true(r.buffer_a == APLAN_NO_BUFFER);
    p.alignment = 24;
    r = validate(&p, APLAN_E_BAD_ALIGNMENT);
    assert_int_equal(r.value, 24);
}

static void test_problem_rejects_non_power_of_two_buffer_alignment(void **state) {
    (void)state;
    aplan_buffer b[3] = {buf(1, 0, 1), buf(1, 0, 1), buf(1, 0, 1)};
    b[2].alignment = 12;
    aplan_problem p;
    aplan_problem_init(&p, b, 3);
    aplan_report r = validate(&p, APLAN_E_BAD_ALIGNMENT);
    assert_int_equal(r.buffer_a, 2);
    assert_int_equal(r.value, 12);
    char text[128];
    aplan_report_format(&r, text, sizeof text);
    assert_string_equal(text, "buffer 2: alignment 12 is not a power of two");
}

static void test_problem_rejects_inverted_lifetime(void **state) {
    (void)state;
    aplan_buffer b[2] = {buf(1, 0, 1), buf(1, 5, 4)};
    aplan_problem p;
    aplan_problem_init(&p, b, 2);
    aplan_report r = validate(&p, APLAN_E_BAD_LIFETIME);
    assert_int_equal(r.buffer_a, 1);
    assert_int_equal(r.step_lo, 5); /* a lifetime is reported in the step fields, not as a value */
    assert_int_equal(r.step_hi, 4);
    assert_int_equal(r.value, 0);
    char text[128];
    aplan_report_format(&r, text, sizeof text);
    assert_string_equal(text, "buffer 1: lower step 5 is greater than upper step 4");
    b[1].upper = 5; /* empty lifetime: valid, never live */
    validate(&p, APLAN_OK);
}

static void test_problem_rejects_misaligned_fixed_offset(void **state) {
    (void)state;
    aplan_buffer b[2] = {buf(16, 0, 1), fixed_buf(16, 0, 1, 24)};
    aplan_problem p;
    aplan_problem_init(&p, b, 2);
    p.alignment = 16;
    aplan_report r = validate(&p, APLAN_E_MISALIGNED_OFFSET);
    assert_int_equal(r.buffer_a, 1);
    assert_int_equal(r.value, 24);
    assert_int_equal(r.limit, 16);
    b[1].alignment = 8; /* its own alignment wins over the default */
    validate(&p, APLAN_OK);
}

static void test_problem_rejects_offset_plus_size_overflow(void **state) {
    (void)state;
    aplan_buffer b[1] = {fixed_buf(2, 0, 1, UINT64_MAX - 1u)};
    aplan_problem p;
    aplan_problem_init(&p, b, 1);
    aplan_report r = validate(&p, APLAN_E_SIZE_OVERFLOW);
    assert_int_equal(r.buffer_a, 0);
    b[0].size = 1; /* ends exactly at 2^64 - 1 */
    validate(&p, APLAN_OK);
}

static void test_problem_rejects_rounding_overflow(void **state) {
    (void)state;
    aplan_buffer b[1] = {buf(UINT64_MAX - 3u, 0, 1)};
    aplan_problem p;
    aplan_problem_init(&p, b, 1);
    p.alignment = 16;
    validate(&p, APLAN_OK);
    p.flags = APLAN_ROUND_SIZES;
    aplan_report r = validate(&p, APLAN_E_SIZE_OVERFLOW);
    assert_int_equal(r.buffer_a, 0);
}

static void test_problem_rejects_buffer_above_capacity(void **state) {
    (void)state;
    aplan_buffer b[2] = {buf(100, 0, 1), fixed_buf(16, 0, 1, 96)};
    aplan_problem p;
    aplan_problem_init(&p, b, 2);
    p.capacity = 100;
    aplan_report r = validate(&p, APLAN_E_CAPACITY_EXCEEDED);
    assert_int_equal(r.buffer_a, 1); /* 96 + 16 > 100 */
    assert_int_equal(r.value, 112);
    assert_int_equal(r.limit, 100);
    p.capacity = 99;
    r = validate(&p, APLAN_E_CAPACITY_EXCEEDED);
    assert_int_equal(r.buffer_a, 0);
    char text[128];
    aplan_report_format(&r, text, sizeof text);
    assert_string_equal(text, "buffer 0 needs 100 bytes, capacity is 99");
}

static void test_problem_effective_size_and_alignment(void **state) {
    (void)state;
    aplan_buffer b[3] = {buf(1, 0, 1), buf(17, 0, 1), buf(0, 0, 1)};
    b[1].alignment = 64;
    aplan_problem p;
    aplan_problem_init(&p, b, 3);
    p.alignment = 16;
    assert_int_equal(aplan_buffer_alignment(&p, 0), 16);
    assert_int_equal(aplan_buffer_alignment(&p, 1), 64);
    assert_int_equal(aplan_buffer_size(&p, 0), 1);
    p.flags = APLAN_ROUND_SIZES;
    assert_int_equal(aplan_buffer_size(&p, 0), 16);
    assert_int_equal(aplan_buffer_size(&p, 1), 64);
    assert_int_equal(aplan_buffer_size(&p, 2), 0);
}

static void test_problem_conflict_is_half_open(void **state) {
    (void)state;
    aplan_buffer b[4] = {buf(8, 0, 3), buf(8, 3, 5), buf(8, 2, 4), buf(0, 0, 9)};
    aplan_problem p;
    aplan_problem_init(&p, b, 4);
    assert_false(aplan_buffers_conflict(&p, 0, 1)); /* ends at 3, starts at 3 */
    assert_true(aplan_buffers_conflict(&p, 0, 2));
    assert_true(aplan_buffers_conflict(&p, 1, 2));
    assert_false(aplan_buffers_conflict(&p, 0, 3)); /* size 0 */
    b[2].upper = 2;                                  /* never live */
    assert_false(aplan_buffers_conflict(&p, 0, 2));
}

static void test_status_str_names_every_code(void **state) {
    (void)state;
    const aplan_status all[] = {
        APLAN_OK, APLAN_E_INVALID_ARG, APLAN_E_TOO_MANY_BUFFERS, APLAN_E_BAD_ALIGNMENT, APLAN_E_BAD_LIFETIME,
        APLAN_E_MISALIGNED_OFFSET, APLAN_E_SIZE_OVERFLOW, APLAN_E_CAPACITY_EXCEEDED, APLAN_E_SCRATCH_TOO_SMALL,
        APLAN_E_SCRATCH_MISALIGNED, APLAN_E_UNKNOWN_STRATEGY, APLAN_E_UNSUPPORTED_VERSION, APLAN_E_OFFSET_MISSING,
        APLAN_E_UNPLACED, APLAN_E_FIXED_MOVED, APLAN_E_OUT_OF_ARENA, APLAN_E_ARENA_MISMATCH, APLAN_E_OVERLAP,
        APLAN_E_FIXED_OVERLAP, APLAN_E_PLAN_REJECTED, APLAN_E_STRATEGY_FAILED, APLAN_E_FORMAT_TRUNCATED,
        APLAN_E_FORMAT_BAD_OFFSET, APLAN_E_FORMAT_BAD_VALUE, APLAN_E_FORMAT_UNSUPPORTED,
        APLAN_E_FORMAT_BAD_METADATA, APLAN_E_FORMAT_SYNTAX, APLAN_E_FORMAT_UNKNOWN, APLAN_E_OUTPUT_TOO_SMALL,
        APLAN_E_OUT_OF_MEMORY,
    };
    const size_t n = sizeof all / sizeof all[0];
    for (size_t i = 0; i < n; i++) {
        const char *s = aplan_status_str(all[i]);
        assert_non_null(s);
        assert_string_not_equal(s, "unknown status");
        for (size_t j = 0; j < i; j++) assert_string_not_equal(s, aplan_status_str(all[j]));
    }
    /* Pinned values: they are ABI and must never change. */
    assert_int_equal(APLAN_E_SCRATCH_TOO_SMALL, 8);
    assert_int_equal(APLAN_E_OVERLAP, 17);
    assert_int_equal(APLAN_E_STRATEGY_FAILED, 20);
    assert_int_equal(APLAN_E_OUT_OF_MEMORY, 21);
    assert_int_equal(APLAN_E_FORMAT_TRUNCATED, 64);
    assert_int_equal(APLAN_E_OUTPUT_TOO_SMALL, 71);
    assert_string_equal(aplan_status_str((aplan_status)999), "unknown status");
}

/* One version, three views: the header's macros, the string and the run-time calls agree. */
static void test_version_matches_header(void **state) {
    (void)state;
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", APLAN_VERSION_MAJOR, APLAN_VERSION_MINOR, APLAN_VERSION_PATCH);
    assert_string_equal(APLAN_VERSION_STRING, want);
    assert_string_equal(aplan_version(), want);
    assert_int_equal(aplan_version_number(), APLAN_VERSION_NUMBER);
    assert_int_equal(APLAN_VERSION_NUMBER, APLAN_VERSION_MAJOR * 10000 + APLAN_VERSION_MINOR * 100 +
                                               APLAN_VERSION_PATCH);
}

static void test_report_format_truncates_and_counts(void **state) {
    (void)state;
    aplan_report r;
    aplan_report_clear(&r);
    r.rule = APLAN_E_OVERLAP;
    r.buffer_a = 12;
    r.buffer_b = 40;
    r.step_lo = 7;
    r.step_hi = 10;
    r.byte_lo = 4096;
    r.byte_hi = 6144;
    const char *want = "buffers 12 and 40 overlap at steps 7-9, bytes 4096-6143";
    char text[128];
    assert_int_equal(aplan_report_format(&r, text, sizeof text), strlen(want));
    assert_string_equal(text, want);
    char small[8];
    assert_int_equal(aplan_report_format(&r, small, sizeof small), strlen(want));
    assert_string_equal(small, "buffers");
    assert_int_equal(aplan_report_format(&r, NULL, 0), strlen(want));
    aplan_report_clear(&r);
    r.rule = APLAN_E_SCRATCH_TOO_SMALL;
    aplan_report_format(&r, text, sizeof text);
    assert_string_equal(text, "scratch buffer too small");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_problem_init_sets_defaults),
        cmocka_unit_test(test_init_functions_ignore_null),
        cmocka_unit_test(test_problem_rejects_null_and_reserved),
        cmocka_unit_test(test_problem_compact_records),
        cmocka_unit_test(test_problem_rejects_too_many_buffers),
        cmocka_unit_test(test_problem_rejects_bad_default_alignment),
        cmocka_unit_test(test_problem_rejects_non_power_of_two_buffer_alignment),
        cmocka_unit_test(test_problem_rejects_inverted_lifetime),
        cmocka_unit_test(test_problem_rejects_misaligned_fixed_offset),
        cmocka_unit_test(test_problem_rejects_offset_plus_size_overflow),
        cmocka_unit_test(test_problem_rejects_rounding_overflow),
        cmocka_unit_test(test_problem_rejects_buffer_above_capacity),
        cmocka_unit_test(test_problem_effective_size_and_alignment),
        cmocka_unit_test(test_problem_conflict_is_half_open),
        cmocka_unit_test(test_status_str_names_every_code),
        cmocka_unit_test(test_version_matches_header),
        cmocka_unit_test(test_report_format_truncates_and_counts),
    };
    return cmocka_run_group_tests_name("problem", tests, NULL, NULL);
}
