/* The CSV reader and writer: every accepted form, every rejection with its exact status, line and column, the
 * shared MiniMalloc and TFLM files, and round trips through the writer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "aplan/csv.h"
#include "helpers.h"

static aplan_csv_table parse_ok(const char *text) {
    aplan_csv_table t;
    aplan_format_error e;
    aplan_status s = aplan_csv_parse(text, strlen(text), &t, &e);
    if (s != APLAN_OK) fail_msg("unexpected failure %d at %u:%u: %s", (int)s, e.line, e.column, e.message);
    assert_int_equal(e.status, APLAN_OK);
    return t;
}

/* Parse text that must fail with status at line:column and a message holding needle. */
static void expect_error(const char *text, size_t length, aplan_status status, uint32_t line, uint32_t column,
                         const char *needle) {
    aplan_csv_table t;
    aplan_format_error e;
    aplan_status s = aplan_csv_parse(text, length, &t, &e);
    if (s != status || e.line != line || e.column != column)
        fail_msg("got status %d at %u:%u (%s), want %d at %u:%u", (int)s, e.line, e.column, e.message, (int)status,
                 line, column);
    assert_int_equal(e.status, status);
    assert_null(t.buffers);
    assert_int_equal(t.count, 0);
    if (strstr(e.message, needle) == NULL) fail_msg("message \"%s\" lacks \"%s\"", e.message, needle);
}

#define EXPECT(text, status, line, column, needle) expect_error(text, strlen(text), status, line, column, needle)

static void test_basic(void **state) {
    (void)state;
    aplan_csv_table t = parse_ok("id,lower,upper,size\nb1,0,3,4\nb2,3,9,12\n");
    assert_int_equal(t.count, 2);
    assert_string_equal(t.ids[0], "b1");
    assert_string_equal(t.ids[1], "b2");
    assert_int_equal(t.buffers[1].lower, 3);
    assert_int_equal(t.buffers[1].upper, 9);
    assert_int_equal(t.buffers[1].size, 12);
    assert_int_equal(t.buffers[1].alignment, 0);
    assert_true(t.buffers[1].offset == APLAN_NO_OFFSET);
    assert_int_equal(t.lines[0], 2);
    assert_int_equal(t.lines[1], 3);
    assert_int_equal(t.columns, 0);
    aplan_csv_free(&t);
    assert_null(t.buffers);
    aplan_csv_free(&t); /* twice is fine */
}

static void test_any_column_order_and_case(void **state) {
    (void)state;
    aplan_csv_table t = parse_ok("Size,UPPER,id,lower\n4,3,x,1");
    assert_int_equal(t.count, 1);
    assert_string_equal(t.ids[0], "x");
    assert_int_equal(t.buffers[0].lower, 1);
    assert_int_equal(t.buffers[0].upper, 3);
    assert_int_equal(t.buffers[0].size, 4);
    aplan_csv_free(&t);
}

static void test_optional_columns(void **state) {
    (void)state;
    aplan_csv_table t = parse_ok("id,lower,upper,size,alignment,offset\n"
                                 "a,0,1,8,,\n"
                                 "b,0,1,8,-1,-1\n"
                                 "c,0,1,8,64,128\n"
                                 "d,0,1,8,1,0\n");
    assert_int_equal(t.count, 4);
    assert_int_equal(t.columns, APLAN_CSV_HAS_ALIGNMENT | APLAN_CSV_HAS_OFFSET);
    assert_int_equal(t.buffers[0].alignment, 0);
    assert_true(t.buffers[0].offset == APLAN_NO_OFFSET);
    assert_int_equal(t.buffers[1].alignment, 0);
    assert_true(t.buffers[1].offset == APLAN_NO_OFFSET);
    assert_int_equal(t.buffers[2].alignment, 64);
    assert_int_equal(t.buffers[2].offset, 128);
    assert_int_equal(t.buffers[3].alignment, 1);
    assert_int_equal(t.buffers[3].offset, 0);
    aplan_csv_free(&t);
}

static void test_start_end_form(void **state) {
    (void)state;
    aplan_csv_table t = parse_ok("id,start,end,size\na,0,2,8\nb,5,5,1\n");
    assert_int_equal(t.columns, APLAN_CSV_START_END);
    assert_int_equal(t.buffers[0].lower, 0);
    assert_int_equal(t.buffers[0].upper, 3); /* inclusive end 2 -> half-open 3 */
    assert_int_equal(t.buffers[1].lower, 5);
    assert_int_equal(t.buffers[1].upper, 6);
    aplan_csv_free(&t);
    EXPECT("id,start,end,size\na,0,18446744073709551615,1\n", APLAN_E_FORMAT_BAD_VALUE, 2, 3, "does not fit");
    EXPECT("id,start,end,size\na,5,2,1\n", APLAN_E_FORMAT_BAD_VALUE, 2, 3, "before 'start'");
}

static void test_line_ends_bom_blank_lines_spaces(void **state) {
    (void)state;
    aplan_csv_table t = parse_ok("\xEF\xBB\xBFid,lower,upper,size\r\n\r\n a , 0 ,\t1 , 2 \r\n\nb,1,2,3");
    assert_int_equal(t.count, 2);
    assert_string_equal(t.ids[0], "a");
    assert_int_equal(t.buffers[0].size, 2);
    assert_int_equal(t.lines[0], 3);
    assert_int_equal(t.lines[1], 5);
    aplan_csv_free(&t);
    /* A CR that does not end a line is rejected where it is. */
    EXPECT("id,lower,upper,size\na,0\r,1,2\n", APLAN_E_FORMAT_SYNTAX, 2, 2, "carriage return");
    /* Line numbers count blank lines, so errors point at the right line. */
    EXPECT("id,lower,upper,size\n\n\na,0,1,x\n", APLAN_E_FORMAT_SYNTAX, 4, 4, "not a number");
}

static void test_empty_inputs(void **state) {
    (void)state;
    EXPECT("", APLAN_E_FORMAT_SYNTAX, 1, 0, "empty input");
    EXPECT(" \n\t\r\n\n", APLAN_E_FORMAT_SYNTAX, 1, 0, "empty input");
    aplan_csv_table t;
    aplan_format_error e;
    assert_int_equal(aplan_csv_parse(NULL, 0, &t, &e), APLAN_E_FORMAT_SYNTAX);
    assert_int_equal(aplan_csv_parse(NULL, 3, &t, &e), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_csv_parse("x", 1, NULL, &e), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_csv_parse("x", 1, &t, NULL), APLAN_E_INVALID_ARG);
    /* A header without rows is an empty problem, not an error. */
    t = parse_ok("id,lower,upper,size\n");
    assert_int_equal(t.count, 0);
    aplan_csv_free(&t);
}

static void test_header_errors(void **state) {
    (void)state;
    EXPECT("id,lower,size\na,0,1\n", APLAN_E_FORMAT_SYNTAX, 1, 0, "missing column 'upper'");
    EXPECT("lower,upper,size\n", APLAN_E_FORMAT_SYNTAX, 1, 0, "missing column 'id'");
    EXPECT("id,start,size\n", APLAN_E_FORMAT_SYNTAX, 1, 0, "missing column 'end'");
    EXPECT("id,lower,upper,size,lower\n", APLAN_E_FORMAT_SYNTAX, 1, 5, "duplicate column 'lower' (also column 2)");
    EXPECT("id,lower,upper,size,gaps\n", APLAN_E_FORMAT_SYNTAX, 1, 5, "unknown column \"gaps\"");
    EXPECT("id,lower,end,size\n", APLAN_E_FORMAT_SYNTAX, 1, 3, "mixes");
    EXPECT("id,,upper,size\n", APLAN_E_FORMAT_SYNTAX, 1, 2, "empty column name");
    EXPECT("id,lower,upper,size,alignment,offset,id,size,lower\n", APLAN_E_FORMAT_SYNTAX, 1, 9, "at most 8");
}

static void test_number_errors(void **state) {
    (void)state;
    EXPECT("id,lower,upper,size\na,0,1,-4\n", APLAN_E_FORMAT_BAD_VALUE, 2, 4, "'size' is negative");
    EXPECT("id,lower,upper,size\na,-1,1,4\n", APLAN_E_FORMAT_BAD_VALUE, 2, 2, "'lower' is negative");
    EXPECT("id,lower,upper,size\na,0,1,18446744073709551616\n", APLAN_E_FORMAT_BAD_VALUE, 2, 4, "does not fit 64");
    EXPECT("id,lower,upper,size\na,0,1,99999999999999999999999\n", APLAN_E_FORMAT_BAD_VALUE, 2, 4, "does not fit");
    EXPECT("id,lower,upper,size\na,0,1,12kb\n", APLAN_E_FORMAT_SYNTAX, 2, 4, "junk after the number: \"12kb\"");
    EXPECT("id,lower,upper,size\na,0,1,1.5\n", APLAN_E_FORMAT_SYNTAX, 2, 4, "junk");
    EXPECT("id,lower,upper,size\na,0,1,1 2\n", APLAN_E_FORMAT_SYNTAX, 2, 4, "junk");
    EXPECT("id,lower,upper,size\na,0,1,+3\n", APLAN_E_FORMAT_SYNTAX, 2, 4, "not a number");
    EXPECT("id,lower,upper,size\na,0,1,abc\n", APLAN_E_FORMAT_SYNTAX, 2, 4, "'size' is not a number: \"abc\"");
    EXPECT("id,lower,upper,size\na,0,1,\n", APLAN_E_FORMAT_SYNTAX, 2, 4, "empty 'size'");
    EXPECT("id,lower,upper,size\na,0,1,-\n", APLAN_E_FORMAT_SYNTAX, 2, 4, "not a number");
    EXPECT("id,lower,upper,size,offset\na,0,1,4,-2\n", APLAN_E_FORMAT_BAD_VALUE, 2, 5, "'offset' is negative");
    EXPECT("id,lower,upper,size,offset\na,0,1,4,18446744073709551615\n", APLAN_E_FORMAT_BAD_VALUE, 2, 5, "reserved");
    /* The largest size is accepted exactly, not clamped. */
    aplan_csv_table t = parse_ok("id,lower,upper,size\na,0,1,18446744073709551615\n");
    assert_true(t.buffers[0].size == UINT64_MAX);
    aplan_csv_free(&t);
}

static void test_value_errors(void **state) {
    (void)state;
    EXPECT("id,lower,upper,size\na,5,3,1\n", APLAN_E_FORMAT_BAD_VALUE, 2, 3, "'upper' 3 is below 'lower' 5");
    EXPECT("id,lower,upper,size,alignment\na,0,1,1,3\n", APLAN_E_FORMAT_BAD_VALUE, 2, 5, "not a power of two");
    EXPECT("id,lower,upper,size,alignment\na,0,1,1,0\n", APLAN_E_FORMAT_BAD_VALUE, 2, 5, "not a power of two");
    EXPECT("id,lower,upper,size,alignment\na,0,1,1,-8\n", APLAN_E_FORMAT_BAD_VALUE, 2, 5, "negative");
    EXPECT("id,lower,upper,size\n,0,1,1\n", APLAN_E_FORMAT_BAD_VALUE, 2, 1, "empty 'id'");
    EXPECT("id,lower,upper,size\na\x01,0,1,1\n", APLAN_E_FORMAT_BAD_VALUE, 2, 1, "control character 0x01");
    EXPECT("id,lower,upper,size\na,0,1,1\nb,0,1,1\na,1,2,3\nb,0,1,1\n", APLAN_E_FORMAT_BAD_VALUE, 4, 1,
           "duplicate id \"a\" (first on line 2)");
    /* The id column need not be first: the column reported is its own. */
    EXPECT("size,lower,upper,id\n1,0,1,q\n1,0,1,q\n", APLAN_E_FORMAT_BAD_VALUE, 3, 4, "first on line 2");
}

static void test_row_shape_errors(void **state) {
    (void)state;
    EXPECT("id,lower,upper,size\na,0,1\n", APLAN_E_FORMAT_SYNTAX, 2, 4, "'size' is missing");
    EXPECT("id,lower,upper,size\na\n", APLAN_E_FORMAT_SYNTAX, 2, 2, "'lower' is missing");
    EXPECT("id,lower,upper,size\na,0,1,2,3\n", APLAN_E_FORMAT_SYNTAX, 2, 5, "row has 5 fields, the header has 4");
    EXPECT("id,lower,upper,size\na,0,1,2,\n", APLAN_E_FORMAT_SYNTAX, 2, 5, "row has 5 fields");
    EXPECT("id,lower,upper,size\n\"a\",0,1,2\n", APLAN_E_FORMAT_SYNTAX, 2, 1, "quoted fields");
    static const char nul[] = "id,lower,upper,size\na,0,1,2\nb,0\0,1,2\n";
    expect_error(nul, sizeof nul - 1u, APLAN_E_FORMAT_SYNTAX, 3, 2, "NUL byte");
}

static void test_byte_offset(void **state) {
    (void)state;
    aplan_csv_table t;
    aplan_format_error e;
    const char *text = "id,lower,upper,size\nab,0,1,x\n";
    assert_int_equal(aplan_csv_parse(text, strlen(text), &t, &e), APLAN_E_FORMAT_SYNTAX);
    assert_int_equal(e.byte_offset, 27); /* 20 (header + LF) + "ab,0,1," */
}

static char *read_all(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) fail_msg("cannot open %s", path);
    size_t cap = 1 << 20;
    char *data = malloc(cap);
    assert_non_null(data);
    *size = fread(data, 1, cap, f);
    assert_true(*size < cap);
    fclose(f);
    return data;
}

static void test_shared_files_parse(void **state) {
    (void)state;
    static const struct {
        const char *path;
        size_t count;
        uint64_t last_size;
    } files[] = {
        {"benchmarks/minimalloc/input.12.csv", 5, 4},
        {"benchmarks/minimalloc/A.1048576.csv", 154, 0},
        {"benchmarks/minimalloc/B.1048576.csv", 170, 0},
        {"models/lifetimes/person_detect.csv", 32, 0},
        {"models/lifetimes/person_detect_vela.csv", 4, 0},
        {"models/lifetimes/audio_preprocessor_int8.csv", 25, 0},
        {"models/lifetimes/hello_world_float.csv", 4, 0},
        {"models/lifetimes/hello_world_int8.csv", 4, 1},
        {"models/lifetimes/simple_add_model.csv", 3, 0},
        {"models/lifetimes/micro_speech_quantized.csv", 5, 0},
        {"models/lifetimes/micro_speech_lstm.csv", 5, 0},
        {"models/lifetimes/trained_lstm.csv", 5, 0},
        {"models/lifetimes/trained_lstm_int8.csv", 5, 0},
        {"models/lifetimes/dtln_noise_suppression.csv", 5, 0},
        {"models/lifetimes/keyword_scrambled.csv", 16, 0},
        {"models/lifetimes/keyword_scrambled_8bit.csv", 16, 0},
        {"models/lifetimes/test_conv_model.csv", 8, 0},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        size_t size;
        char *data = read_all(shared_path(files[i].path), &size);
        aplan_csv_table t;
        aplan_format_error e;
        aplan_status s = aplan_csv_parse(data, size, &t, &e);
        if (s != APLAN_OK) fail_msg("%s:%u:%u: %s", files[i].path, e.line, e.column, e.message);
        if (t.count != files[i].count) fail_msg("%s: %zu rows, want %zu", files[i].path, t.count, files[i].count);
        if (files[i].last_size != 0) assert_int_equal(t.buffers[t.count - 1u].size, files[i].last_size);
        aplan_csv_free(&t);
        free(data);
    }
    /* The Vela plan's offsets are fixed offsets: four buffers at offset 0. */
    size_t size;
    char *data = read_all(shared_path("models/lifetimes/person_detect_vela.csv"), &size);
    aplan_csv_table t;
    aplan_format_error e;
    assert_int_equal(aplan_csv_parse(data, size, &t, &e), APLAN_OK);
    assert_int_equal(t.columns, APLAN_CSV_HAS_OFFSET);
    for (size_t i = 0; i < t.count; i++) assert_int_equal(t.buffers[i].offset, 0);
    aplan_csv_free(&t);
    free(data);
}

static void test_write_exact(void **state) {
    (void)state;
    aplan_csv_table t = parse_ok("id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\n");
    const uint64_t offsets[] = {0, 4};
    aplan_csv_plan plan = {t.buffers, t.ids, offsets, t.count, t.columns};
    char out[256];
    size_t needed = 0;
    assert_int_equal(aplan_csv_write_buffer(&plan, out, sizeof out, &needed), APLAN_OK);
    assert_string_equal(out, "id,lower,upper,size,offset\nb1,0,3,4,0\nb2,3,9,4,4\n");
    assert_int_equal(needed, strlen(out));
    /* Too small: the needed length is still reported, and the text is a terminated prefix. */
    char small[10];
    assert_int_equal(aplan_csv_write_buffer(&plan, small, sizeof small, &needed), APLAN_E_OUTPUT_TOO_SMALL);
    assert_int_equal(needed, strlen(out));
    assert_string_equal(small, "id,lower,");
    assert_int_equal(aplan_csv_write_buffer(&plan, NULL, 0, &needed), APLAN_E_OUTPUT_TOO_SMALL);
    assert_int_equal(needed, strlen(out));
    aplan_csv_free(&t);
}

static void test_write_forms(void **state) {
    (void)state;
    aplan_csv_table t = parse_ok("id,start,end,size,alignment\na,0,2,8,\nb,3,3,1,16\n");
    const uint64_t offsets[] = {16, APLAN_NO_OFFSET};
    aplan_csv_plan plan = {t.buffers, t.ids, offsets, t.count, t.columns};
    char out[256];
    size_t needed;
    assert_int_equal(aplan_csv_write_buffer(&plan, out, sizeof out, &needed), APLAN_OK);
    assert_string_equal(out, "id,start,end,size,alignment,offset\na,0,2,8,-1,16\nb,3,3,1,16,-1\n");
    /* No ids: rows are named by index. */
    plan.ids = NULL;
    plan.columns = 0;
    assert_int_equal(aplan_csv_write_buffer(&plan, out, sizeof out, &needed), APLAN_OK);
    assert_string_equal(out, "id,lower,upper,size,offset\n0,0,3,8,16\n1,3,4,1,-1\n");
    aplan_csv_free(&t);
}

/* The longest rows: every column at 20 digits, written in full (both lifetime forms, with and without ids). */
static void test_write_extremes(void **state) {
    (void)state;
    aplan_buffer b[2] = {{UINT64_MAX, UINT64_MAX - 1u, UINT64_MAX, (uint64_t)1 << 63, APLAN_NO_OFFSET},
                         {0, 0, 1, 0, APLAN_NO_OFFSET}};
    const uint64_t offsets[] = {UINT64_MAX - 1u, APLAN_NO_OFFSET};
    aplan_csv_plan plan = {b, NULL, offsets, 2, APLAN_CSV_HAS_ALIGNMENT};
    char out[256];
    size_t needed;
    assert_int_equal(aplan_csv_write_buffer(&plan, out, sizeof out, &needed), APLAN_OK);
    assert_string_equal(out, "id,lower,upper,size,alignment,offset\n"
                             "0,18446744073709551614,18446744073709551615,18446744073709551615,"
                             "9223372036854775808,18446744073709551614\n"
                             "1,0,1,0,-1,-1\n");
    assert_int_equal(needed, strlen(out));
    const char *ids[] = {"x", "y"};
    plan.ids = ids;
    plan.columns = APLAN_CSV_START_END;
    assert_int_equal(aplan_csv_write_buffer(&plan, out, sizeof out, &needed), APLAN_OK);
    assert_string_equal(out, "id,start,end,size,offset\n"
                             "x,18446744073709551614,18446744073709551614,18446744073709551615,18446744073709551614\n"
                             "y,0,0,0,-1\n");
}

static void test_write_rejects(void **state) {
    (void)state;
    aplan_buffer b = {1, 0, 1, 0, APLAN_NO_OFFSET};
    uint64_t off = 0;
    const char *bad_ids[] = {"a,b"};
    const char *empty_ids[] = {""};
    aplan_csv_plan plan = {&b, bad_ids, &off, 1, 0};
    char out[64];
    size_t needed;
    assert_int_equal(aplan_csv_write_buffer(&plan, out, sizeof out, &needed), APLAN_E_INVALID_ARG);
    assert_string_equal(out, "");
    plan.ids = empty_ids;
    assert_int_equal(aplan_csv_write_buffer(&plan, out, sizeof out, &needed), APLAN_E_INVALID_ARG);
    aplan_buffer never = {1, 0, 0, 0, APLAN_NO_OFFSET};
    aplan_csv_plan start_end = {&never, NULL, &off, 1, APLAN_CSV_START_END};
    assert_int_equal(aplan_csv_write_buffer(&start_end, out, sizeof out, &needed), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_csv_write(NULL, NULL, NULL), APLAN_E_INVALID_ARG);
}

static bool refuse_after_header(void *state, const char *bytes, size_t length) {
    (void)bytes;
    size_t *calls = state;
    (*calls)++;
    return length > 0 && *calls < 3;
}

static void test_sink_failure(void **state) {
    (void)state;
    aplan_buffer b[2] = {{1, 0, 1, 0, APLAN_NO_OFFSET}, {1, 0, 1, 0, APLAN_NO_OFFSET}};
    uint64_t off[2] = {0, 1};
    aplan_csv_plan plan = {b, NULL, off, 2, 0};
    size_t calls = 0;
    assert_int_equal(aplan_csv_write(&plan, refuse_after_header, &calls), APLAN_E_OUTPUT_TOO_SMALL);
    assert_int_equal(calls, 3); /* the writer stops at the first refusal */
}

static void test_round_trip_shared(void **state) {
    (void)state;
    size_t size;
    char *data = read_all(shared_path("benchmarks/minimalloc/B.1048576.csv"), &size);
    aplan_csv_table t;
    aplan_format_error e;
    assert_int_equal(aplan_csv_parse(data, size, &t, &e), APLAN_OK);
    uint64_t *offsets = malloc(t.count * sizeof *offsets);
    assert_non_null(offsets);
    for (size_t i = 0; i < t.count; i++) offsets[i] = i * 1000u;
    aplan_csv_plan plan = {t.buffers, t.ids, offsets, t.count, t.columns};
    size_t needed;
    assert_int_equal(aplan_csv_write_buffer(&plan, NULL, 0, &needed), APLAN_E_OUTPUT_TOO_SMALL);
    char *out = malloc(needed + 1u);
    assert_non_null(out);
    assert_int_equal(aplan_csv_write_buffer(&plan, out, needed + 1u, &needed), APLAN_OK);
    aplan_csv_table back;
    assert_int_equal(aplan_csv_parse(out, needed, &back, &e), APLAN_OK);
    assert_int_equal(back.count, t.count);
    assert_int_equal(back.columns, APLAN_CSV_HAS_OFFSET);
    for (size_t i = 0; i < t.count; i++) {
        assert_string_equal(back.ids[i], t.ids[i]);
        assert_int_equal(back.buffers[i].lower, t.buffers[i].lower);
        assert_int_equal(back.buffers[i].upper, t.buffers[i].upper);
        assert_int_equal(back.buffers[i].size, t.buffers[i].size);
        assert_int_equal(back.buffers[i].offset, offsets[i]);
    }
    aplan_csv_free(&back);
    aplan_csv_free(&t);
    free(out);
    free(offsets);
    free(data);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic),
        cmocka_unit_test(test_any_column_order_and_case),
        cmocka_unit_test(test_optional_columns),
        cmocka_unit_test(test_start_end_form),
        cmocka_unit_test(test_line_ends_bom_blank_lines_spaces),
        cmocka_unit_test(test_empty_inputs),
        cmocka_unit_test(test_header_errors),
        cmocka_unit_test(test_number_errors),
        cmocka_unit_test(test_value_errors),
        cmocka_unit_test(test_row_shape_errors),
        cmocka_unit_test(test_byte_offset),
        cmocka_unit_test(test_shared_files_parse),
        cmocka_unit_test(test_write_exact),
        cmocka_unit_test(test_write_forms),
        cmocka_unit_test(test_write_extremes),
        cmocka_unit_test(test_write_rejects),
        cmocka_unit_test(test_sink_failure),
        cmocka_unit_test(test_round_trip_shared),
    };
    return cmocka_run_group_tests_name("csv", tests, NULL, NULL);
}
