/* The CSV reader and writer: every accepted form, every rejection with its exact status, line and column, the
 * shared MiniMalloc and TFLM files (skipped, naming them, when the shared folder is not there), and round trips
 * through the writer, on a table written here and on a shared one. */
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
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) need_shared(files[i].path);
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
    aplan_csv_plan plan = {t.buffers, t.ids, offsets, t.count, t.columns, NULL, NULL};
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
    aplan_csv_plan plan = {t.buffers, t.ids, offsets, t.count, t.columns, NULL, NULL};
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
    aplan_csv_plan plan = {b, NULL, offsets, 2, APLAN_CSV_HAS_ALIGNMENT, NULL, NULL};
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

/* Every number of up to four digits and the powers of ten and their neighbours, as printf writes them. */
static void test_write_numbers(void **state) {
    (void)state;
    enum { ROWS = 10000 + 3 * 20 };
    aplan_buffer *b = malloc(ROWS * sizeof *b);
    uint64_t *off = malloc(ROWS * sizeof *off);
    char *want = malloc(ROWS * 64u + 64u), *out = malloc(ROWS * 64u + 64u);
    assert_true(b != NULL && off != NULL && want != NULL && out != NULL);
    size_t n = 0;
    for (uint64_t v = 0; v < 10000u; v++) b[n] = (aplan_buffer){v, 0, 1, 0, APLAN_NO_OFFSET}, off[n++] = v;
    for (uint64_t p = 10; p != 0 && n + 3 <= ROWS; p = p <= UINT64_MAX / 10u ? p * 10u : 0) {
        for (uint64_t d = 0; d < 3; d++) b[n] = (aplan_buffer){p - 1u + d, 0, 1, 0, APLAN_NO_OFFSET}, off[n++] = p;
    }
    char *at = want + sprintf(want, "id,lower,upper,size,offset\n");
    for (size_t i = 0; i < n; i++)
        at += sprintf(at, "%zu,0,1,%llu,%llu\n", i, (unsigned long long)b[i].size, (unsigned long long)off[i]);
    aplan_csv_plan plan = {b, NULL, off, n, 0, NULL, NULL};
    size_t needed;
    assert_int_equal(aplan_csv_write_buffer(&plan, out, ROWS * 64u + 64u, &needed), APLAN_OK);
    assert_string_equal(out, want);
    free(b);
    free(off);
    free(want);
    free(out);
}

static void test_write_rejects(void **state) {
    (void)state;
    aplan_buffer b = {1, 0, 1, 0, APLAN_NO_OFFSET};
    uint64_t off = 0;
    const char *bad_ids[] = {"a,b"};
    const char *empty_ids[] = {""};
    aplan_csv_plan plan = {&b, bad_ids, &off, 1, 0, NULL, NULL};
    char out[64];
    size_t needed;
    assert_int_equal(aplan_csv_write_buffer(&plan, out, sizeof out, &needed), APLAN_E_FORMAT_BAD_VALUE);
    assert_string_equal(out, "");
    plan.ids = empty_ids;
    assert_int_equal(aplan_csv_write_buffer(&plan, out, sizeof out, &needed), APLAN_E_FORMAT_BAD_VALUE);
    aplan_buffer never = {1, 0, 0, 0, APLAN_NO_OFFSET};
    aplan_csv_plan start_end = {&never, NULL, &off, 1, APLAN_CSV_START_END, NULL, NULL};
    assert_int_equal(aplan_csv_write_buffer(&start_end, out, sizeof out, &needed), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_csv_write(NULL, NULL, NULL), APLAN_E_INVALID_ARG);
}

/*
 * What the writer writes, the reader reads back unchanged; what it refuses, the reader would refuse or change. Every
 * byte value 1 to 255 in an id, alone, between letters, and at either end: written and read back byte for byte, or
 * refused with APLAN_E_FORMAT_BAD_VALUE at its row, and then a row with that id written by hand fails to parse or
 * comes back different.
 */
static void test_write_ids_read_back(void **state) {
    (void)state;
    const aplan_buffer b[2] = {{1, 0, 1, 0, APLAN_NO_OFFSET}, {1, 0, 1, 0, APLAN_NO_OFFSET}};
    const uint64_t offsets[] = {0, 1};
    size_t written = 0, refused = 0;
    for (unsigned v = 1; v < 256u; v++) {
        for (int shape = 0; shape < 4; shape++) {
            char id[4];
            const char c = (char)v;
            if (shape == 0) snprintf(id, sizeof id, "%c", c);
            else if (shape == 1) snprintf(id, sizeof id, "a%cz", c);
            else if (shape == 2) snprintf(id, sizeof id, "%cz", c);
            else snprintf(id, sizeof id, "a%c", c);
            const char *ids[] = {"first", id};
            aplan_csv_plan plan = {b, ids, offsets, 2, 0, NULL, NULL};
            char out[128];
            size_t needed = 0, row = 0;
            const aplan_status st = aplan_csv_write_buffer(&plan, out, sizeof out, &needed);
            aplan_csv_table t;
            aplan_format_error e;
            if (st == APLAN_OK) {
                written++;
                assert_int_equal(aplan_csv_check_plan(&plan, &row), APLAN_OK);
                assert_int_equal(aplan_csv_parse(out, needed, &t, &e), APLAN_OK);
                assert_int_equal(t.count, 2);
                if (strcmp(t.ids[1], id) != 0) fail_msg("id 0x%02x (shape %d) came back changed", v, shape);
                aplan_csv_free(&t);
                continue;
            }
            refused++;
            if (st != APLAN_E_FORMAT_BAD_VALUE) fail_msg("id 0x%02x (shape %d): status %d", v, shape, (int)st);
            assert_int_equal(aplan_csv_check_plan(&plan, &row), APLAN_E_FORMAT_BAD_VALUE);
            assert_int_equal(row, 1);
            char text[64];
            const int n = snprintf(text, sizeof text, "id,lower,upper,size\nfirst,0,1,1\n%s,0,1,1\n", id);
            if (aplan_csv_parse(text, (size_t)n, &t, &e) == APLAN_OK) {
                if (t.count == 2 && strcmp(t.ids[1], id) == 0)
                    fail_msg("id 0x%02x (shape %d) was refused, but reads back as it is", v, shape);
                aplan_csv_free(&t);
            }
        }
    }
    assert_true(written > 0 && refused > 0);
}

/* A sink that records its calls and refuses the second: the writer hands it chunks of at most 512 bytes. */
static bool refuse_second(void *state, const char *bytes, size_t length) {
    (void)bytes;
    size_t *calls = state;
    (*calls)++;
    assert_true(length > 0 && length <= 512u);
    return *calls < 2;
}

static void test_sink_failure(void **state) {
    (void)state;
    enum { ROWS = 200 }; /* about 2 KB of text: several chunks */
    aplan_buffer b[ROWS];
    uint64_t off[ROWS];
    for (size_t i = 0; i < ROWS; i++) b[i] = (aplan_buffer){1000u + i, i, i + 1u, 0, APLAN_NO_OFFSET}, off[i] = i;
    aplan_csv_plan plan = {b, NULL, off, ROWS, 0, NULL, NULL};
    size_t calls = 0;
    assert_int_equal(aplan_csv_write(&plan, refuse_second, &calls), APLAN_E_OUTPUT_TOO_SMALL);
    assert_int_equal(calls, 2); /* the writer stops at the first refusal */
    /* Chunks join to the same text as one buffer: an id longer than a chunk is split across calls. */
    char long_id[1500];
    memset(long_id, 'x', sizeof long_id - 1u);
    long_id[sizeof long_id - 1u] = '\0';
    const char *ids[1] = {long_id};
    aplan_csv_plan one = {b, ids, off, 1, 0, NULL, NULL};
    size_t needed;
    assert_int_equal(aplan_csv_write_buffer(&one, NULL, 0, &needed), APLAN_E_OUTPUT_TOO_SMALL);
    assert_int_equal(needed, strlen("id,lower,upper,size,offset\n") + 1499u + strlen(",0,1,1000,0\n"));
}

/* ------------------------------------------------------------------------------------------------------------ */
/* The fast path of a row against the exact one                                                                  */

/* A small deterministic generator (splitmix64), so a failure names a seed that reproduces it. */
static uint64_t next_random(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* A number as the fast path meets it: small, large, or at the edges of 64 bits. */
static uint64_t random_value(uint64_t *s) {
    switch (next_random(s) % 6u) {
    case 0: return 0;
    case 1: return next_random(s) % 10u;
    case 2: return next_random(s) % 100000u;
    case 3: return UINT64_MAX - next_random(s) % 3u;
    case 4: return 10000000000000000000u + next_random(s) % 1000u; /* 20 digits */
    default: return next_random(s);
    }
}

static void append(char **at, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void append(char **at, const char *format, ...) {
    va_list args;
    va_start(args, format);
    *at += vsprintf(*at, format, args);
    va_end(args);
}

/* Spaces and tabs around a field, sometimes. */
static const char *random_blanks(uint64_t *s) {
    static const char *const blanks[] = {"", "", "", " ", "\t", "  \t "};
    return blanks[next_random(s) % 6u];
}

/*
 * Random valid tables, written twice: as they are (most rows take the fast path), and with a tab after every id
 * (which the fast path leaves to the exact one: every row takes the exact path). Both must parse to the same rows:
 * the fast path accepts nothing the exact path would read differently. Columns in random order and case, both
 * lifetime forms, optional columns empty, -1, -01 or set, blanks, CRLF, blank lines, 20-digit values.
 */
static void test_fast_path_matches_exact_path(void **state) {
    (void)state;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        uint64_t s = seed;
        bool start_end = next_random(&s) % 2u;
        bool has_alignment = next_random(&s) % 2u, has_offset = next_random(&s) % 2u;
        const char *names[6] = {"id", start_end ? "start" : "lower", start_end ? "END" : "Upper", "size",
                                "alignment", "offset"};
        int order[6] = {0, 1, 2, 3, 4, 5};
        size_t columns = 4u + has_alignment + has_offset;
        if (has_offset && !has_alignment) order[4] = 5;
        for (size_t k = columns; k > 1; k--) { /* shuffle */
            size_t j = (size_t)(next_random(&s) % k);
            int x = order[k - 1u];
            order[k - 1u] = order[j];
            order[j] = x;
        }
        size_t rows = 1u + (size_t)(next_random(&s) % 40u);
        char *plain = malloc(rows * 400u + 100u), *tabbed = malloc(rows * 400u + 100u);
        assert_non_null(plain);
        assert_non_null(tabbed);
        char *texts[2] = {plain, tabbed};
        uint64_t values[40][6];
        int optional_kind[40][6]; /* 0 set, 1 empty, 2 "-1", 3 "-01" */
        const char *line_ends[40];
        for (size_t r = 0; r < rows; r++) {
            uint64_t a = random_value(&s), b = random_value(&s);
            if (start_end && a == UINT64_MAX) a--;
            if (start_end && b == UINT64_MAX) b--;
            values[r][1] = a < b ? a : b;
            values[r][2] = a < b ? b : a;
            values[r][3] = random_value(&s);
            values[r][4] = (uint64_t)1 << (next_random(&s) % 64u);
            values[r][5] = random_value(&s);
            if (values[r][5] == UINT64_MAX) values[r][5]--;
            for (int c = 4; c < 6; c++) optional_kind[r][c] = (int)(next_random(&s) % 4u);
            line_ends[r] = next_random(&s) % 3u == 0 ? "\r\n" : next_random(&s) % 5u == 0 ? "\n\n" : "\n";
        }
        for (int t = 0; t < 2; t++) {
            uint64_t blanks_seed = seed * 7919u; /* the same blanks in both texts */
            char *at = texts[t];
            for (size_t k = 0; k < columns; k++) append(&at, "%s%s", k > 0 ? "," : "", names[order[k]]);
            append(&at, "\n");
            for (size_t r = 0; r < rows; r++) {
                for (size_t k = 0; k < columns; k++) {
                    int c = order[k];
                    const char *before = random_blanks(&blanks_seed), *after = random_blanks(&blanks_seed);
                    append(&at, "%s%s", k > 0 ? "," : "", before);
                    if (c == 0) {
                        append(&at, "id %zu%s", r, t == 1 ? "\t" : "");
                    } else if (c >= 4 && optional_kind[r][c] != 0) {
                        static const char *const none[] = {"", "", "-1", "-01"};
                        append(&at, "%s", none[optional_kind[r][c]]);
                    } else {
                        append(&at, "%llu", (unsigned long long)values[r][c]);
                    }
                    append(&at, "%s", after);
                }
                append(&at, "%s", line_ends[r]);
            }
        }
        aplan_csv_table a = parse_ok(plain), b = parse_ok(tabbed);
        assert_int_equal(a.count, rows);
        assert_int_equal(b.count, rows);
        assert_int_equal(a.columns, b.columns);
        for (size_t r = 0; r < rows; r++) {
            if (memcmp(&a.buffers[r], &b.buffers[r], sizeof a.buffers[r]) != 0 || strcmp(a.ids[r], b.ids[r]) != 0 ||
                a.lines[r] != b.lines[r])
                fail_msg("seed %llu, row %zu: the two paths differ", (unsigned long long)seed, r);
            char id[32];
            snprintf(id, sizeof id, "id %zu", r);
            assert_string_equal(a.ids[r], id);
            assert_int_equal(a.buffers[r].lower, values[r][1]);
            assert_int_equal(a.buffers[r].upper, start_end ? values[r][2] + 1u : values[r][2]);
            assert_int_equal(a.buffers[r].size, values[r][3]);
            assert_int_equal(a.buffers[r].alignment, has_alignment && optional_kind[r][4] == 0 ? values[r][4] : 0u);
            assert_true(a.buffers[r].offset ==
                        (has_offset && optional_kind[r][5] == 0 ? values[r][5] : APLAN_NO_OFFSET));
        }
        aplan_csv_free(&a);
        aplan_csv_free(&b);
        free(plain);
        free(tabbed);
    }
}

/* The edges of what the fast path takes, each with the value the exact path gives or its exact error. */
static void test_fast_path_edges(void **state) {
    (void)state;
    aplan_csv_table t = parse_ok("id,lower,upper,size,alignment,offset\n"
                                 "a b,0,1,18446744073709551615,-1,\n"        /* space inside an id; max size */
                                 "  c  ,007,8,0,  ,-01\n"                    /* leading zeros; empty; -01 */
                                 "d\t,1,1,5,1,18446744073709551614\n"        /* a tab after the id */
                                 "e,1,2,3,9223372036854775808,0\r");          /* a CR at the very end */
    assert_int_equal(t.count, 4);
    assert_string_equal(t.ids[0], "a b");
    assert_true(t.buffers[0].size == UINT64_MAX);
    assert_string_equal(t.ids[1], "c");
    assert_int_equal(t.buffers[1].lower, 7);
    assert_int_equal(t.buffers[1].alignment, 0);
    assert_true(t.buffers[1].offset == APLAN_NO_OFFSET);
    assert_string_equal(t.ids[2], "d");
    assert_true(t.buffers[2].offset == UINT64_MAX - 1u);
    assert_true(t.buffers[3].alignment == (uint64_t)1 << 63);
    aplan_csv_free(&t);
    EXPECT("id,lower,upper,size\na,0,1,18446744073709551616\n", APLAN_E_FORMAT_BAD_VALUE, 2, 4, "does not fit");
    EXPECT("id,lower,upper,size\na,0,1,184467440737095516150\n", APLAN_E_FORMAT_BAD_VALUE, 2, 4, "does not fit");
    EXPECT("id,lower,upper,size,offset\na,0,1,1,-12\n", APLAN_E_FORMAT_BAD_VALUE, 2, 5, "negative");
    EXPECT("id,lower,upper,size,offset\na,0,1,1,-1x\n", APLAN_E_FORMAT_SYNTAX, 2, 5, "junk");
    EXPECT("id,lower,upper,size\na,0,1,-1\n", APLAN_E_FORMAT_BAD_VALUE, 2, 4, "negative");
    EXPECT("id,lower,upper,size\na\x7f,0,1,1\n", APLAN_E_FORMAT_BAD_VALUE, 2, 1, "control character 0x7f");
    EXPECT("id,lower,upper,size\na b\tc,0,1,1\n", APLAN_E_FORMAT_BAD_VALUE, 2, 1, "control character 0x09");
    EXPECT("id,lower,upper,size\na,0,1,1 \r \n", APLAN_E_FORMAT_SYNTAX, 2, 4, "carriage return");
    EXPECT("id,lower,upper,size\na,0,1,1,\n", APLAN_E_FORMAT_SYNTAX, 2, 5, "row has 5 fields");
    EXPECT("id,lower,upper,size\na,0,1,,\n", APLAN_E_FORMAT_SYNTAX, 2, 5, "row has 5 fields");
    EXPECT("id,lower,upper,size\na,0,1\n", APLAN_E_FORMAT_SYNTAX, 2, 4, "'size' is missing");
    EXPECT("id,lower,upper,size,alignment\na,0,1,1,0\n", APLAN_E_FORMAT_BAD_VALUE, 2, 5, "not a power of two");
    EXPECT("id,lower,upper,size\na,3,2,1\n", APLAN_E_FORMAT_BAD_VALUE, 2, 3, "below 'lower'");
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Duplicate ids: every way of finding them reports the earliest repeated row and its first occurrence            */

/* A table of n rows whose ids are name(i), with row `dup` (when below n) repeating row `first`'s id. Checks the
 * parse: OK without a repeat, else the error at dup's line, naming first's line. */
static void check_duplicates(size_t n, void (*name)(size_t i, char *out), size_t dup, size_t first) {
    char *text = malloc(n * 64u + 32u);
    assert_non_null(text);
    char *at = text;
    append(&at, "id,lower,upper,size\n");
    for (size_t i = 0; i < n; i++) {
        char id[48];
        name(i == dup ? first : i, id);
        append(&at, "%s,0,1,1\n", id);
    }
    aplan_csv_table t;
    aplan_format_error e;
    aplan_status st = aplan_csv_parse(text, (size_t)(at - text), &t, &e);
    if (dup >= n) {
        if (st != APLAN_OK) fail_msg("%zu rows: %s", n, e.message);
        aplan_csv_free(&t);
    } else {
        assert_int_equal(st, APLAN_E_FORMAT_BAD_VALUE);
        assert_int_equal(e.line, dup + 2u);
        assert_int_equal(e.column, 1);
        char want[64];
        snprintf(want, sizeof want, "(first on line %zu)", first + 2u);
        if (strstr(e.message, want) == NULL) fail_msg("\"%s\" lacks \"%s\"", e.message, want);
        assert_int_equal(text[e.byte_offset - 1u], '\n'); /* the id field starts its line */
    }
    free(text);
}

static void integer_name(size_t i, char *out) { sprintf(out, "%zu", i); }
static void sparse_integer_name(size_t i, char *out) { sprintf(out, "%llu", (unsigned long long)i * 1000000007u); }
static void text_name(size_t i, char *out) { sprintf(out, "tensor_%zu/out", i); }

/* The reader's hash of an id (FNV-1a, then mixed), copied here to make ids that all land in one slot of its table,
 * so that the sort takes over from the hash. If the reader's hash changes, these ids stop colliding and the test
 * still checks the answer, only through the hash. */
static uint64_t reader_hash(const char *id) {
    uint64_t h = 14695981039346656037u;
    for (; *id != '\0'; id++) h = (h ^ (unsigned char)*id) * 1099511628211u;
    return (h ^ (h >> 29)) * 0x9E3779B97F4A7C15u;
}

/* 601 ids that land in one slot of the reader's 2048 (600 rows round its table up to 2^11); the 601st collides too
 * but is in no table: the absent name check_index asks for. */
static char colliding[601][16];
static void colliding_name(size_t i, char *out) { strcpy(out, colliding[i]); }
static void make_colliding(void) {
    size_t found = 0;
    for (uint64_t c = 0; found < 601; c++) {
        char id[16];
        snprintf(id, sizeof id, "c%llu", (unsigned long long)c);
        if (reader_hash(id) >> 53 == 0) strcpy(colliding[found++], id);
    }
}

static void test_duplicate_ids(void **state) {
    (void)state;
    /* Plain integers (a direct table), sparse integers and text (the hash table). */
    void (*names[])(size_t, char *) = {integer_name, sparse_integer_name, text_name};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        check_duplicates(5000, names[k], SIZE_MAX, 0);
        check_duplicates(5000, names[k], 4999, 0);
        check_duplicates(5000, names[k], 1, 0);
        check_duplicates(5000, names[k], 3000, 2999);
        check_duplicates(2, names[k], 1, 0);
    }
    /* Ids that differ as text are different, even when they read as the same number. */
    aplan_csv_table t = parse_ok("id,lower,upper,size\n1,0,1,1\n01,0,1,1\n0,0,1,1\n00,0,1,1\n1 0,0,1,1\n");
    assert_int_equal(t.count, 5);
    aplan_csv_free(&t);
    /* The earliest repeat is reported, not the first id that repeats. */
    EXPECT("id,lower,upper,size\n5,0,1,1\n7,0,1,1\n7,0,1,1\n5,0,1,1\n", APLAN_E_FORMAT_BAD_VALUE, 4, 1,
           "duplicate id \"7\" (first on line 3)");
    /* 600 ids in one slot of the reader's 2048: the probes pass their budget and the sort answers. */
    make_colliding();
    check_duplicates(600, colliding_name, SIZE_MAX, 0);
    check_duplicates(600, colliding_name, 599, 3);
    check_duplicates(600, colliding_name, 300, 299);
}

/* The id index itself: every id found at its row, ids it lacks not found, a repeated id at its first row, with each
 * of its forms (a direct table for small integers, the hash table, the sorted fallback for ids that collide or that
 * fill one run of slots). name(n) must be a valid name that no row has. */
static void check_index(size_t n, void (*name)(size_t i, char *out), size_t dup, size_t first) {
    char (*text)[48] = malloc(n * sizeof *text);
    const char **ids = malloc(n * sizeof *ids);
    assert_non_null(text);
    assert_non_null(ids);
    for (size_t i = 0; i < n; i++) {
        name(i == dup ? first : i, text[i]);
        ids[i] = text[i];
    }
    aplan_csv_id_index *index;
    size_t got_dup, got_first;
    assert_int_equal(aplan_csv_id_index_build(ids, n, &index, &got_dup, &got_first),
                     dup < n ? APLAN_E_FORMAT_BAD_VALUE : APLAN_OK);
    assert_non_null(index);
    assert_int_equal(got_dup, dup < n ? dup : SIZE_MAX);
    assert_int_equal(got_first, dup < n ? first : SIZE_MAX);
    for (size_t i = 0; i < n; i++) assert_int_equal(aplan_csv_id_index_find(index, ids[i]), i == dup ? first : i);
    const char *absent[] = {"", "007", "-1", "x", "tensor_/out", "c", "99999999999999999999999"};
    for (size_t k = 0; k < sizeof absent / sizeof absent[0]; k++)
        assert_int_equal(aplan_csv_id_index_find(index, absent[k]), SIZE_MAX);
    char past[48];
    name(n, past); /* the next name, which no row has */
    assert_int_equal(aplan_csv_id_index_find(index, past), SIZE_MAX);
    assert_int_equal(aplan_csv_id_index_find(index, NULL), SIZE_MAX);
    aplan_csv_id_index_free(index);
    free(ids);
    free(text);
}

/* 300 ids, each alone in its slot of the reader's 1024 (n = 300 rounds the table up to 2^10), in slots 0..299:
 * no collision at all, but one run far longer than a lookup may walk, so the sorted form takes over. */
static char in_a_run[301][16];
static void in_a_run_name(size_t i, char *out) { strcpy(out, in_a_run[i]); }

static void test_id_index(void **state) {
    (void)state;
    void (*names[])(size_t, char *) = {integer_name, sparse_integer_name, text_name};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        check_index(1, names[k], SIZE_MAX, 0);
        check_index(3000, names[k], SIZE_MAX, 0);
        check_index(3000, names[k], 2999, 5);
        check_index(3000, names[k], 1, 0);
    }
    make_colliding();
    check_index(600, colliding_name, SIZE_MAX, 0);
    check_index(600, colliding_name, 400, 17);
    bool taken[300] = {false};
    size_t found = 0;
    for (uint64_t c = 0; found < 300; c++) {
        char id[16];
        snprintf(id, sizeof id, "r%llu", (unsigned long long)c);
        const uint64_t slot = reader_hash(id) >> 54;
        if (slot < 300 && !taken[slot]) {
            taken[slot] = true;
            strcpy(in_a_run[found++], id);
        }
    }
    strcpy(in_a_run[300], "r-none");
    check_index(300, in_a_run_name, SIZE_MAX, 0);
    check_index(300, in_a_run_name, 299, 0);
    /* Arguments. */
    aplan_csv_id_index *index = (aplan_csv_id_index *)1;
    size_t dup, first;
    const char *one[] = {"a", NULL};
    assert_int_equal(aplan_csv_id_index_build(NULL, 1, &index, &dup, &first), APLAN_E_INVALID_ARG);
    assert_null(index);
    assert_int_equal(aplan_csv_id_index_build(one, 2, &index, &dup, &first), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_csv_id_index_build(one, 1, NULL, &dup, &first), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_csv_id_index_build(one, 1, &index, NULL, &first), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_csv_id_index_build(NULL, 0, &index, &dup, &first), APLAN_OK);
    assert_int_equal(aplan_csv_id_index_find(index, "a"), SIZE_MAX);
    aplan_csv_id_index_free(index);
    aplan_csv_id_index_free(NULL);
    assert_int_equal(aplan_csv_id_index_find(NULL, "a"), SIZE_MAX);
}

/* A table through the writer and back: every row's id, steps and size come back, with the offsets written. */
static void check_round_trip(const char *data, size_t size) {
    aplan_csv_table t;
    aplan_format_error e;
    assert_int_equal(aplan_csv_parse(data, size, &t, &e), APLAN_OK);
    uint64_t *offsets = malloc(t.count * sizeof *offsets);
    assert_non_null(offsets);
    for (size_t i = 0; i < t.count; i++) offsets[i] = i * 1000u;
    aplan_csv_plan plan = {t.buffers, t.ids, offsets, t.count, t.columns, NULL, NULL};
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
}

/* A table in MiniMalloc's form written here, as large as its B instance (170 rows; ids, steps and sizes of 1 to 6
 * digits), so that the round trip runs in any clone. */
static void test_round_trip_written(void **state) {
    (void)state;
    char text[16384];
    size_t n = (size_t)snprintf(text, sizeof text, "id,lower,upper,size\n");
    test_rng rng = {170};
    for (unsigned i = 0; i < 170; i++) {
        const uint64_t lower = rng_below(&rng, 600000);
        n += (size_t)snprintf(text + n, sizeof text - n, "%u,%llu,%llu,%llu\n", i * 37u, (unsigned long long)lower,
                              (unsigned long long)(lower + 1u + rng_below(&rng, 300000)),
                              (unsigned long long)(1u + rng_below(&rng, 500000)));
    }
    assert_true(n < sizeof text);
    check_round_trip(text, n);
}

static void test_round_trip_shared(void **state) {
    (void)state;
    size_t size;
    char *data = read_all(need_shared("benchmarks/minimalloc/B.1048576.csv"), &size);
    check_round_trip(data, size);
    free(data);
}

/* The row arrays grow with the rows parsed (issue 11): rows across several doublings keep their values, ids and
 * lines, whichever path (fast or exact) read them; blank lines in any number cost no rows; the ids' text fits the
 * input's length however short the rows. */
static void test_rows_grow_with_content(void **state) {
    (void)state;
    enum { ROWS = 5000 };
    size_t cap = 64u + (size_t)ROWS * 48u;
    char *text = malloc(cap);
    assert_non_null(text);
    size_t n = (size_t)snprintf(text, cap, "id,lower,upper,size\n");
    for (int i = 0; i < ROWS; i++) {
        /* every 7th row takes the exact path (blanks around a tab-free id are fine there: "-1"-free rows) */
        n += (size_t)snprintf(text + n, cap - n, i % 7 == 0 ? "r%d ,%d, %d ,%d\r\n\n" : "r%d,%d,%d,%d\n", i, i, i + 2,
                              16 + i);
    }
    aplan_csv_table t;
    aplan_format_error e;
    assert_int_equal(aplan_csv_parse(text, n, &t, &e), APLAN_OK);
    assert_int_equal(t.count, ROWS);
    uint32_t line = 2;
    for (int i = 0; i < ROWS; i++) {
        char id[16];
        snprintf(id, sizeof id, "r%d", i);
        assert_string_equal(t.ids[i], id);
        assert_int_equal(t.buffers[i].lower, (uint64_t)i);
        assert_int_equal(t.buffers[i].upper, (uint64_t)i + 2u);
        assert_int_equal(t.buffers[i].size, 16u + (uint64_t)i);
        assert_int_equal(t.lines[i], line);
        line += i % 7 == 0 ? 2u : 1u;
    }
    aplan_csv_free(&t);
    free(text);

    /* A million blank lines (spaces, tabs, CRLF) around one row: one row, at its line. */
    enum { BLANK = 1000000 };
    text = malloc(3u * BLANK + 64u);
    assert_non_null(text);
    n = (size_t)snprintf(text, 64, "id,lower,upper,size\n");
    for (int i = 0; i < BLANK / 2; i++) text[n++] = '\n';
    n += (size_t)snprintf(text + n, 64, "x,0,1,4\n");
    for (int i = 0; i < BLANK / 2; i++) {
        text[n++] = i % 3 == 0 ? ' ' : '\t';
        text[n++] = '\n';
    }
    assert_int_equal(aplan_csv_parse(text, n, &t, &e), APLAN_OK);
    assert_int_equal(t.count, 1);
    assert_string_equal(t.ids[0], "x");
    assert_int_equal(t.lines[0], 2u + BLANK / 2);
    aplan_csv_free(&t);
    free(text);

    /* The shortest rows (7 bytes and a line end, the last without one): ids and NULs fit length + 1 bytes. */
    aplan_csv_table u = parse_ok("id,lower,upper,size\na,0,1,1\nb,0,1,1\nc,0,1,1");
    assert_int_equal(u.count, 3);
    assert_string_equal(u.ids[2], "c");
    aplan_csv_free(&u);
}

/* ------------------------------------------------------------------------------------------------------------ */
/* The region and uses columns (since 0.4)                                                                        */

static void test_region_and_uses_columns(void **state) {
    (void)state;
    /* Any column order, any case; the region kept as given (trimmed), empty as NULL; uses 0 and the largest. */
    aplan_csv_table t = parse_ok("Uses,ID,REGION,lower,Upper,size\n"
                                 "0,a,,0,1,8\n"
                                 "18446744073709551615,b,sram,0,2,8\n"
                                 "7, c ,a|b,1,2,8\n"
                                 "3,d,\t sram|ocram|Fast-2.x_y \t,2,3,8\n"
                                 "1,e\t,abcdefghijklmnopqrstuvwxyz01234,0,1,8\r\n" /* a tab after the id: exact path */
                                 "1,f,  ,0,1,8\n");
    assert_int_equal(t.count, 6);
    assert_int_equal(t.columns, APLAN_CSV_HAS_REGION | APLAN_CSV_HAS_USES);
    assert_non_null(t.regions);
    assert_non_null(t.uses);
    assert_null(t.regions[0]);
    assert_string_equal(t.regions[1], "sram");
    assert_string_equal(t.regions[2], "a|b");
    assert_string_equal(t.regions[3], "sram|ocram|Fast-2.x_y");
    assert_string_equal(t.regions[4], "abcdefghijklmnopqrstuvwxyz01234"); /* 31 characters: the longest name */
    assert_null(t.regions[5]);
    assert_int_equal(t.uses[0], 0);
    assert_true(t.uses[1] == UINT64_MAX);
    assert_int_equal(t.uses[2], 7);
    assert_int_equal(t.uses[3], 3);
    assert_int_equal(t.uses[4], 1);
    assert_string_equal(t.ids[2], "c");
    assert_string_equal(t.ids[4], "e");
    assert_int_equal(t.buffers[3].lower, 2);
    assert_int_equal(t.buffers[3].upper, 3);
    assert_int_equal(t.lines[5], 7);
    aplan_csv_free(&t);
    assert_null(t.regions);
    assert_null(t.uses);

    /* One without the other, beside every other optional column and the start,end form. */
    t = parse_ok("id,start,end,size,alignment,offset,region\nx,0,0,4,16,32,sram\n");
    assert_int_equal(t.columns, APLAN_CSV_START_END | APLAN_CSV_HAS_ALIGNMENT | APLAN_CSV_HAS_OFFSET |
                                    APLAN_CSV_HAS_REGION);
    assert_string_equal(t.regions[0], "sram");
    assert_null(t.uses);
    assert_int_equal(t.buffers[0].offset, 32);
    aplan_csv_free(&t);
    t = parse_ok("id,lower,upper,size,uses\nx,0,1,4,12\n");
    assert_int_equal(t.columns, APLAN_CSV_HAS_USES);
    assert_null(t.regions);
    assert_int_equal(t.uses[0], 12);
    aplan_csv_free(&t);
    /* Without the columns, no arrays; with them but no rows, the flags and no arrays. */
    t = parse_ok("id,lower,upper,size\nx,0,1,4\n");
    assert_null(t.regions);
    assert_null(t.uses);
    aplan_csv_free(&t);
    t = parse_ok("region,id,lower,upper,size,uses\n");
    assert_int_equal(t.count, 0);
    assert_int_equal(t.columns, APLAN_CSV_HAS_REGION | APLAN_CSV_HAS_USES);
    assert_null(t.regions);
    assert_null(t.uses);
    aplan_csv_free(&t);
    /* Every column at once is the most a header can have. */
    t = parse_ok("id,lower,upper,size,alignment,offset,uses,region\nx,0,1,4,,,5,s\n");
    assert_int_equal(t.uses[0], 5);
    aplan_csv_free(&t);
}

/* Many rows, across several doublings of the arrays, half of them through the exact path (a tab after the id);
 * then the shortest rows the columns allow, so that ids and regions fill the text block (length + 1 bytes) the
 * most (under valgrind or ASan an overrun would show). */
static void test_region_and_uses_rows_grow(void **state) {
    (void)state;
    enum { ROWS = 3000 };
    char *text = malloc(64u + (size_t)ROWS * 64u);
    assert_non_null(text);
    char *at = text;
    append(&at, "id,lower,upper,size,region,uses\n");
    for (int i = 0; i < ROWS; i++) {
        if (i % 2 == 0) append(&at, "%d,0,1,1,r%d|s,%d\n", i, i, 3 * i);
        else append(&at, "%d\t,0,1,1,,%d\n", i, 3 * i); /* no region */
    }
    append(&at, "a,0,1,1,b,0"); /* and the last without a line end */
    aplan_csv_table t;
    aplan_format_error e;
    assert_int_equal(aplan_csv_parse(text, (size_t)(at - text), &t, &e), APLAN_OK);
    assert_int_equal(t.count, ROWS + 1);
    for (int i = 0; i < ROWS; i++) {
        char want[32];
        snprintf(want, sizeof want, "r%d|s", i);
        if (i % 2 == 0) assert_string_equal(t.regions[i], want);
        else assert_null(t.regions[i]);
        assert_int_equal(t.uses[i], 3u * (uint64_t)i);
    }
    assert_string_equal(t.regions[ROWS], "b");
    assert_string_equal(t.ids[ROWS], "a");
    aplan_csv_free(&t);
    free(text);
    /* The shortest rows: one-character ids and regions, one digit per number, no line end at the end. */
    t = parse_ok("id,lower,upper,size,region\na,0,1,1,b\nc,0,1,1,d\ne\t,0,1,1,f");
    assert_string_equal(t.regions[0], "b");
    assert_string_equal(t.regions[1], "d");
    assert_string_equal(t.regions[2], "f");
    aplan_csv_free(&t);
}

static void test_region_errors(void **state) {
    (void)state;
    const char *h = "id,lower,upper,size,region\n";
    char text[256];
    static const struct {
        const char *field;
        const char *needle;
    } bad[] = {
        {"sr am", "'region' holds ' '"},
        {"sram;ocram", "'region' holds ';'"},
        {"a/b", "'region' holds '/'"},
        {"a\x01", "'region' holds byte 0x01"},
        {"caf\xc3\xa9", "'region' holds byte 0xc3"},
        {"a||b", "'region' has an empty name: \"a||b\""},
        {"a|", "'region' has an empty name: \"a|\""},
        {"|a", "'region' has an empty name: \"|a\""},
        {"|", "'region' has an empty name: \"|\""},
        {" a| ", "'region' has an empty name: \"a|\""}, /* trimmed first, then checked */
        {"abcdefghijklmnopqrstuvwxyz012345", "'region' name \"abcdefghijklmnopqrstuvwx...\" is longer than 31"},
        {"s|abcdefghijklmnopqrstuvwxyz012345|t", "'region' name \"abcdefghijklmnopqrstuvwx...\" is longer than 31"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        snprintf(text, sizeof text, "%sa,0,1,1,%s\n", h, bad[k].field);
        expect_error(text, strlen(text), APLAN_E_FORMAT_BAD_VALUE, 2, 5, bad[k].needle);
    }
    /* A comma ends the field: one field too many. */
    EXPECT("id,lower,upper,size,region\na,0,1,1,a,b\n", APLAN_E_FORMAT_SYNTAX, 2, 6, "row has 6 fields");
    /* The first problem from the left is the one named. */
    EXPECT("id,lower,upper,size,region\na,0,1,1,a||b c\n", APLAN_E_FORMAT_BAD_VALUE, 2, 5, "empty name");
    EXPECT("id,lower,upper,size,region\na,0,1,1,a b||c\n", APLAN_E_FORMAT_BAD_VALUE, 2, 5, "holds ' '");
    /* Quotes and stray CRs are the whole line's errors, as in any field. */
    EXPECT("id,lower,upper,size,region\na,0,1,1,\"sram\"\n", APLAN_E_FORMAT_SYNTAX, 2, 5, "quoted fields");
    EXPECT("id,lower,upper,size,region\na,0,1,1,s\rx\n", APLAN_E_FORMAT_SYNTAX, 2, 5, "carriage return");
    /* The column is the region's own, wherever it is; the byte offset is its field's. */
    EXPECT("region,id,lower,upper,size\nok,a,0,1,1\nx|,b,0,1,1\n", APLAN_E_FORMAT_BAD_VALUE, 3, 1, "empty name");
    aplan_csv_table t;
    aplan_format_error e;
    const char *late = "id,lower,upper,size,region\nab,0,1,1, a b\n";
    assert_int_equal(aplan_csv_parse(late, strlen(late), &t, &e), APLAN_E_FORMAT_BAD_VALUE);
    assert_int_equal(e.byte_offset, 36); /* 27 (header + LF) + "ab,0,1,1," */
    /* The header: the new names are known, listed, and not to be repeated. */
    EXPECT("id,lower,upper,size,regions\n", APLAN_E_FORMAT_SYNTAX, 1, 5, "alignment, offset, uses, region)");
    EXPECT("id,region,lower,upper,size,REGION\n", APLAN_E_FORMAT_SYNTAX, 1, 6, "duplicate column 'region' (also "
                                                                               "column 2)");
    EXPECT("uses,id,lower,upper,size,Uses\n", APLAN_E_FORMAT_SYNTAX, 1, 6, "duplicate column 'uses' (also column 1)");
    EXPECT("id,lower,upper,size,alignment,offset,uses,region,start\n", APLAN_E_FORMAT_SYNTAX, 1, 9,
           "header has 9 columns; at most 8 can go together");
}

static void test_uses_errors(void **state) {
    (void)state;
    EXPECT("id,lower,upper,size,uses\na,0,1,1,\n", APLAN_E_FORMAT_SYNTAX, 2, 5, "empty 'uses'");
    EXPECT("id,lower,upper,size,uses\na,0,1,1, \t\n", APLAN_E_FORMAT_SYNTAX, 2, 5, "empty 'uses'");
    EXPECT("id,lower,upper,size,uses\na,0,1,1,-1\n", APLAN_E_FORMAT_BAD_VALUE, 2, 5, "'uses' is negative: \"-1\"");
    EXPECT("id,lower,upper,size,uses\na,0,1,1,-7\n", APLAN_E_FORMAT_BAD_VALUE, 2, 5, "'uses' is negative");
    EXPECT("id,lower,upper,size,uses\na,0,1,1,many\n", APLAN_E_FORMAT_SYNTAX, 2, 5,
           "'uses' is not a number: \"many\"");
    EXPECT("id,lower,upper,size,uses\na,0,1,1,+3\n", APLAN_E_FORMAT_SYNTAX, 2, 5, "'uses' is not a number");
    EXPECT("id,lower,upper,size,uses\na,0,1,1,3x\n", APLAN_E_FORMAT_SYNTAX, 2, 5, "'uses' has junk after the number");
    EXPECT("id,lower,upper,size,uses\na,0,1,1,2.5\n", APLAN_E_FORMAT_SYNTAX, 2, 5, "junk");
    EXPECT("id,lower,upper,size,uses\na,0,1,1,18446744073709551616\n", APLAN_E_FORMAT_BAD_VALUE, 2, 5,
           "'uses' does not fit 64 bits");
    EXPECT("uses,id,lower,upper,size\n99999999999999999999999,a,0,1,1\n", APLAN_E_FORMAT_BAD_VALUE, 2, 1,
           "does not fit 64 bits");
    /* Leading zeros and blanks are read as in the other number columns. */
    aplan_csv_table t = parse_ok("id,lower,upper,size,uses\na,0,1,1, 007 \n");
    assert_int_equal(t.uses[0], 7);
    aplan_csv_free(&t);
}

/* The writer's columns and their order, exactly: `uses` after the other numbers, `region` after `offset`, a NULL
 * region as an empty field. */
static void test_write_region_and_uses(void **state) {
    (void)state;
    const aplan_buffer b[3] = {{8, 0, 2, 0, APLAN_NO_OFFSET}, {4, 1, 3, 16, APLAN_NO_OFFSET},
                               {2, 2, 4, 0, APLAN_NO_OFFSET}};
    const char *ids[] = {"t0", "t1", "t2"};
    const char *regions[] = {"sram", NULL, "sram|ocram"};
    const uint64_t uses[] = {0, 3, UINT64_MAX};
    const uint64_t offsets[] = {0, 16, APLAN_NO_OFFSET};
    aplan_csv_plan plan = {b, ids, offsets, 3, APLAN_CSV_HAS_REGION | APLAN_CSV_HAS_USES, regions, uses};
    char out[512];
    size_t needed;
    assert_int_equal(aplan_csv_write_buffer(&plan, out, sizeof out, &needed), APLAN_OK);
    assert_string_equal(out, "id,lower,upper,size,uses,offset,region\n"
                             "t0,0,2,8,0,0,sram\n"
                             "t1,1,3,4,3,16,\n"
                             "t2,2,4,2,18446744073709551615,-1,sram|ocram\n");
    assert_int_equal(needed, strlen(out));
    plan.columns = APLAN_CSV_START_END | APLAN_CSV_HAS_ALIGNMENT | APLAN_CSV_HAS_USES | APLAN_CSV_HAS_REGION;
    assert_int_equal(aplan_csv_write_buffer(&plan, out, sizeof out, &needed), APLAN_OK);
    assert_string_equal(out, "id,start,end,size,alignment,uses,offset,region\n"
                             "t0,0,1,8,-1,0,0,sram\n"
                             "t1,1,2,4,16,3,16,\n"
                             "t2,2,3,2,-1,18446744073709551615,-1,sram|ocram\n");
    /* Each alone, and rows named by index. */
    plan.columns = APLAN_CSV_HAS_REGION;
    plan.ids = NULL;
    assert_int_equal(aplan_csv_write_buffer(&plan, out, sizeof out, &needed), APLAN_OK);
    assert_string_equal(out, "id,lower,upper,size,offset,region\n0,0,2,8,0,sram\n1,1,3,4,16,\n2,2,4,2,-1,sram|ocram\n");
    plan.columns = APLAN_CSV_HAS_USES;
    assert_int_equal(aplan_csv_write_buffer(&plan, out, sizeof out, &needed), APLAN_OK);
    assert_string_equal(out, "id,lower,upper,size,uses,offset\n0,0,2,8,0,0\n1,1,3,4,3,16\n"
                             "2,2,4,2,18446744073709551615,-1\n");
    /* Without the flags the arrays are not read; without rows they need not be there. */
    plan.columns = 0;
    assert_int_equal(aplan_csv_write_buffer(&plan, out, sizeof out, &needed), APLAN_OK);
    assert_string_equal(out, "id,lower,upper,size,offset\n0,0,2,8,0\n1,1,3,4,16\n2,2,4,2,-1\n");
    aplan_csv_plan empty = {NULL, NULL, NULL, 0, APLAN_CSV_HAS_REGION | APLAN_CSV_HAS_USES, NULL, NULL};
    assert_int_equal(aplan_csv_write_buffer(&empty, out, sizeof out, &needed), APLAN_OK);
    assert_string_equal(out, "id,lower,upper,size,uses,offset,region\n");
}

/* A sink that must never be called: the writer checks everything before it writes a byte. */
static bool never_called(void *state, const char *bytes, size_t length) {
    (void)state;
    (void)bytes;
    (void)length;
    fail_msg("the writer wrote before refusing its arguments");
    return false;
}

static void test_write_rejects_region_and_uses(void **state) {
    (void)state;
    const aplan_buffer b[2] = {{1, 0, 1, 0, APLAN_NO_OFFSET}, {1, 0, 1, 0, APLAN_NO_OFFSET}};
    const uint64_t offsets[] = {0, 1}, uses[] = {1, 1};
    static const char *const bad[] = {"", " sram", "sram ", "sr am", "a||b", "a|", "|a", "|", "a,b", "a\"b", "a\nb",
                                      "a\rb", "caf\xc3\xa9", "abcdefghijklmnopqrstuvwxyz012345",
                                      "s|abcdefghijklmnopqrstuvwxyz012345"};
    char out[128];
    size_t needed;
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        const char *regions[] = {"sram", bad[k]};
        aplan_csv_plan plan = {b, NULL, offsets, 2, APLAN_CSV_HAS_REGION, regions, NULL};
        if (aplan_csv_write(&plan, never_called, NULL) != APLAN_E_FORMAT_BAD_VALUE)
            fail_msg("region \"%s\" was written", bad[k]);
        size_t row = 0;
        assert_int_equal(aplan_csv_check_plan(&plan, &row), APLAN_E_FORMAT_BAD_VALUE);
        assert_int_equal(row, 1);
        assert_int_equal(aplan_csv_write_buffer(&plan, out, sizeof out, &needed), APLAN_E_FORMAT_BAD_VALUE);
        assert_string_equal(out, "");
        assert_int_equal(needed, 0);
        /* Not read without the flag. */
        plan.columns = 0;
        assert_int_equal(aplan_csv_write_buffer(&plan, out, sizeof out, &needed), APLAN_OK);
    }
    /* The longest name is written. */
    const char *longest[] = {"abcdefghijklmnopqrstuvwxyz01234", "a|b"};
    aplan_csv_plan plan = {b, NULL, offsets, 2, APLAN_CSV_HAS_REGION, longest, NULL};
    assert_int_equal(aplan_csv_write_buffer(&plan, out, sizeof out, &needed), APLAN_OK);
    /* A flag without its array, with rows. */
    aplan_csv_plan no_regions = {b, NULL, offsets, 2, APLAN_CSV_HAS_REGION, NULL, uses};
    assert_int_equal(aplan_csv_write(&no_regions, never_called, NULL), APLAN_E_INVALID_ARG);
    aplan_csv_plan no_uses = {b, NULL, offsets, 2, APLAN_CSV_HAS_USES, longest, NULL};
    assert_int_equal(aplan_csv_write(&no_uses, never_called, NULL), APLAN_E_INVALID_ARG);
}

/* A table with both columns through the writer and back: every value the same, both paths of the reader. */
static void test_round_trip_region_and_uses(void **state) {
    (void)state;
    aplan_csv_table t = parse_ok("REGION,size,Id,uses,upper,lower,alignment\n"
                                 "sram,8,a,0,2,0,\n"
                                 ",4,b,18446744073709551615,3,1,64\n"
                                 " x.y-z_0|Q ,2,c\t,5,4,2,-1\n"
                                 "abcdefghijklmnopqrstuvwxyz01234|s,1,d,1,5,3,1\n");
    const uint64_t offsets[] = {0, 64, APLAN_NO_OFFSET, 128};
    aplan_csv_plan plan = {t.buffers, t.ids, offsets, t.count, t.columns, t.regions, t.uses};
    size_t needed;
    assert_int_equal(aplan_csv_write_buffer(&plan, NULL, 0, &needed), APLAN_E_OUTPUT_TOO_SMALL);
    char *out = malloc(needed + 1u);
    assert_non_null(out);
    assert_int_equal(aplan_csv_write_buffer(&plan, out, needed + 1u, &needed), APLAN_OK);
    assert_string_equal(out, "id,lower,upper,size,alignment,uses,offset,region\n"
                             "a,0,2,8,-1,0,0,sram\n"
                             "b,1,3,4,64,18446744073709551615,64,\n"
                             "c,2,4,2,-1,5,-1,x.y-z_0|Q\n"
                             "d,3,5,1,1,1,128,abcdefghijklmnopqrstuvwxyz01234|s\n");
    aplan_csv_table back = parse_ok(out);
    assert_int_equal(back.count, t.count);
    assert_int_equal(back.columns, t.columns | APLAN_CSV_HAS_OFFSET);
    for (size_t i = 0; i < t.count; i++) {
        assert_string_equal(back.ids[i], t.ids[i]);
        assert_memory_equal(&back.buffers[i], &t.buffers[i], offsetof(aplan_buffer, offset));
        assert_true(back.buffers[i].offset == offsets[i]);
        assert_true(back.uses[i] == t.uses[i]);
        if (t.regions[i] == NULL) assert_null(back.regions[i]);
        else assert_string_equal(back.regions[i], t.regions[i]);
    }
    aplan_csv_free(&back);
    aplan_csv_free(&t);
    free(out);

    /* Random plans: regions of 1 to 3 random names (or NULL), any uses, written, read back the same. */
    static const char name_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-";
    enum { ROWS = 500 };
    aplan_buffer *b = malloc(ROWS * sizeof *b);
    uint64_t *use = malloc(ROWS * sizeof *use), *off = malloc(ROWS * sizeof *off);
    char (*text)[3 * 32] = malloc(ROWS * sizeof *text);
    const char **regions = malloc(ROWS * sizeof *regions);
    assert_true(b != NULL && use != NULL && off != NULL && text != NULL && regions != NULL);
    uint64_t s = 2024;
    for (size_t i = 0; i < ROWS; i++) {
        const uint64_t lower = random_value(&s) / 2u;
        b[i] = (aplan_buffer){random_value(&s), lower, lower + next_random(&s) % 100u + 1u, 0, APLAN_NO_OFFSET};
        use[i] = random_value(&s);
        off[i] = random_value(&s);
        const size_t names = (size_t)(next_random(&s) % 4u);
        char *at = text[i];
        for (size_t k = 0; k < names; k++) {
            if (k > 0) *at++ = '|';
            const size_t length = 1u + (size_t)(next_random(&s) % 31u);
            for (size_t c = 0; c < length; c++) *at++ = name_chars[next_random(&s) % (sizeof name_chars - 1u)];
        }
        *at = '\0';
        regions[i] = names == 0 ? NULL : text[i];
    }
    aplan_csv_plan random_plan = {b, NULL, off, ROWS, APLAN_CSV_HAS_REGION | APLAN_CSV_HAS_USES, regions, use};
    assert_int_equal(aplan_csv_write_buffer(&random_plan, NULL, 0, &needed), APLAN_E_OUTPUT_TOO_SMALL);
    out = malloc(needed + 1u);
    assert_non_null(out);
    assert_int_equal(aplan_csv_write_buffer(&random_plan, out, needed + 1u, &needed), APLAN_OK);
    back = parse_ok(out);
    assert_int_equal(back.count, ROWS);
    for (size_t i = 0; i < ROWS; i++) {
        assert_memory_equal(&back.buffers[i], &b[i], offsetof(aplan_buffer, offset));
        assert_true(back.buffers[i].offset == off[i]);
        assert_true(back.uses[i] == use[i]);
        if (regions[i] == NULL) assert_null(back.regions[i]);
        else assert_string_equal(back.regions[i], regions[i]);
    }
    aplan_csv_free(&back);
    free(out);
    free(b);
    free(use);
    free(off);
    free(text);
    free((void *)regions);
}

/*
 * The fast path against the exact one with region and uses columns: random valid tables written twice, as they are
 * and with a tab after every id (every row through the exact path), parse to the same rows. Regions empty or of
 * 1 to 3 names of 1 to 31 characters, blanks around; uses 0 to 2^64 - 1, with leading zeros sometimes.
 */
static void test_fast_path_matches_exact_path_regions(void **state) {
    (void)state;
    static const char name_chars[] = "abcXYZ0189_.-";
    for (uint64_t seed = 1; seed <= 200; seed++) {
        uint64_t s = seed;
        const char *names[6] = {"id", "lower", "upper", "size", "REGION", "Uses"};
        int order[6] = {0, 1, 2, 3, 4, 5};
        const size_t columns = next_random(&s) % 3u == 0 ? 5u : 6u; /* sometimes region without uses */
        for (size_t k = columns; k > 1; k--) {
            size_t j = (size_t)(next_random(&s) % k);
            int x = order[k - 1u];
            order[k - 1u] = order[j];
            order[j] = x;
        }
        const size_t rows = 1u + (size_t)(next_random(&s) % 40u);
        char *texts[2] = {malloc(rows * 400u + 100u), malloc(rows * 400u + 100u)};
        assert_true(texts[0] != NULL && texts[1] != NULL);
        char region[40][3 * 32];
        uint64_t uses[40];
        for (size_t r = 0; r < rows; r++) {
            const size_t n = (size_t)(next_random(&s) % 4u);
            char *at = region[r];
            for (size_t k = 0; k < n; k++) {
                if (k > 0) *at++ = '|';
                const size_t length = next_random(&s) % 5u == 0 ? 31u : 1u + (size_t)(next_random(&s) % 8u);
                for (size_t c = 0; c < length; c++) *at++ = name_chars[next_random(&s) % (sizeof name_chars - 1u)];
            }
            *at = '\0';
            uses[r] = random_value(&s);
        }
        for (int t = 0; t < 2; t++) {
            uint64_t blanks_seed = seed * 104729u;
            char *at = texts[t];
            for (size_t k = 0; k < columns; k++) append(&at, "%s%s", k > 0 ? "," : "", names[order[k]]);
            append(&at, "\n");
            for (size_t r = 0; r < rows; r++) {
                for (size_t k = 0; k < columns; k++) {
                    const char *before = random_blanks(&blanks_seed), *after = random_blanks(&blanks_seed);
                    append(&at, "%s%s", k > 0 ? "," : "", before);
                    switch (order[k]) {
                    case 0: append(&at, "id%zu%s", r, t == 1 ? "\t" : ""); break;
                    case 1: append(&at, "%zu", r); break;
                    case 2: append(&at, "%zu", r + 1u); break;
                    case 3: append(&at, "%zu", 8u * r); break;
                    case 4: append(&at, "%s", region[r]); break;
                    default: append(&at, "%s%llu", r % 5u == 0 ? "00" : "", (unsigned long long)uses[r]); break;
                    }
                    append(&at, "%s", after);
                }
                append(&at, "%s", r % 4u == 0 ? "\r\n" : "\n");
            }
        }
        aplan_csv_table a = parse_ok(texts[0]), b = parse_ok(texts[1]);
        assert_int_equal(a.count, rows);
        assert_int_equal(b.count, rows);
        assert_int_equal(a.columns, APLAN_CSV_HAS_REGION | (columns == 6u ? APLAN_CSV_HAS_USES : 0u));
        assert_int_equal(a.columns, b.columns);
        for (size_t r = 0; r < rows; r++) {
            const bool same_region = a.regions[r] == NULL
                                         ? b.regions[r] == NULL
                                         : b.regions[r] != NULL && strcmp(a.regions[r], b.regions[r]) == 0;
            if (memcmp(&a.buffers[r], &b.buffers[r], sizeof a.buffers[r]) != 0 || strcmp(a.ids[r], b.ids[r]) != 0 ||
                a.lines[r] != b.lines[r] || !same_region || (columns == 6u && a.uses[r] != b.uses[r]))
                fail_msg("seed %llu, row %zu: the two paths differ", (unsigned long long)seed, r);
            if (region[r][0] == '\0') assert_null(a.regions[r]);
            else assert_string_equal(a.regions[r], region[r]);
            if (columns == 6u) assert_true(a.uses[r] == uses[r]);
        }
        aplan_csv_free(&a);
        aplan_csv_free(&b);
        free(texts[0]);
        free(texts[1]);
    }
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
        cmocka_unit_test(test_write_numbers),
        cmocka_unit_test(test_write_rejects),
        cmocka_unit_test(test_sink_failure),
        cmocka_unit_test(test_fast_path_matches_exact_path),
        cmocka_unit_test(test_fast_path_edges),
        cmocka_unit_test(test_duplicate_ids),
        cmocka_unit_test(test_id_index),
        cmocka_unit_test(test_round_trip_written),
        cmocka_unit_test(test_round_trip_shared),
        cmocka_unit_test(test_rows_grow_with_content),
        cmocka_unit_test(test_region_and_uses_columns),
        cmocka_unit_test(test_region_and_uses_rows_grow),
        cmocka_unit_test(test_region_errors),
        cmocka_unit_test(test_uses_errors),
        cmocka_unit_test(test_write_region_and_uses),
        cmocka_unit_test(test_write_ids_read_back),
        cmocka_unit_test(test_write_rejects_region_and_uses),
        cmocka_unit_test(test_round_trip_region_and_uses),
        cmocka_unit_test(test_fast_path_matches_exact_path_regions),
    };
    return cmocka_run_group_tests_name("csv", tests, NULL, NULL);
}
