/* The .tflite reader: small models built by tests/tflite_writer.c (chains, unused, variable and constant tensors,
 * offline plans valid and malformed, IF / WHILE / CALL_ONCE, cycles and nesting), hostile inputs (every truncation,
 * every single-byte mutation), the two-call contract, and the 14 shared models against their lifetimes CSVs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "aplan/tflite.h"
#include "helpers.h"
#include "tflite_writer.h"

#define COUNT(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

enum { T_FLOAT32 = 0, T_INT32 = 2, T_STRING = 5, T_BOOL = 6, T_INT16 = 7, T_INT8 = 9, T_COMPLEX128 = 11 };
enum { OPT_IF = 92, OPT_WHILE = 93, OPT_CALL_ONCE = 103 };

/* A read with malloc'd scratch and outputs; the result owns them. */
typedef struct readout {
    aplan_status status;
    aplan_format_error error;
    aplan_tflite_info info;
    aplan_buffer *buffers;
    aplan_tflite_id *ids;
    size_t count;
} readout;

static void free_readout(readout *r) {
    free(r->buffers);
    free(r->ids);
    r->buffers = NULL;
    r->ids = NULL;
}

static readout read_model(const uint8_t *data, size_t size) {
    readout r;
    memset(&r, 0, sizeof r);
    r.status = aplan_tflite_query(data, size, &r.info, &r.error);
    if (r.status != APLAN_OK) return r;
    size_t n = r.info.buffer_count;
    r.buffers = calloc(n ? n : 1, sizeof *r.buffers);
    r.ids = calloc(n ? n : 1, sizeof *r.ids);
    void *scratch = NULL;
    if (r.info.scratch_size) {
        /* exactly the bytes asked for (rounded to the alignment, as aligned_alloc requires) */
        scratch = aligned_alloc(APLAN_SCRATCH_ALIGN, (r.info.scratch_size + 7u) & ~(size_t)7u);
        assert_non_null(scratch);
    }
    r.status = aplan_tflite_read(data, size, scratch, r.info.scratch_size, r.buffers, r.ids, n, &r.count, &r.error);
    free(scratch);
    if (r.status != APLAN_OK) free_readout(&r); /* failures own nothing */
    return r;
}

static readout read_file(const tw_file *f) { return read_model(f->data, f->size); }

/* Assert buffer i is s<sg>t<t> with [lower, upper), size and offset. */
static void expect_buffer(const readout *r, size_t i, uint32_t sg, uint32_t t, uint64_t lower, uint64_t upper,
                          uint64_t size, uint64_t offset) {
    assert_true(i < r->count);
    assert_int_equal(r->ids[i].subgraph, sg);
    assert_int_equal(r->ids[i].tensor, t);
    assert_int_equal(r->buffers[i].lower, lower);
    assert_int_equal(r->buffers[i].upper, upper);
    assert_int_equal(r->buffers[i].size, size);
    assert_int_equal(r->buffers[i].offset, offset);
    assert_int_equal(r->buffers[i].alignment, 0);
}

static void expect_error(const readout *r, aplan_status status, uint64_t offset, const char *message) {
    if (r->status != status || r->error.byte_offset != offset ||
        (message != NULL && strcmp(r->error.message, message) != 0)) {
        print_error("got %s at %llu: \"%s\"\n", aplan_status_str(r->status),
                    (unsigned long long)r->error.byte_offset, r->error.message);
    }
    assert_int_equal(r->status, status);
    assert_int_equal(r->error.status, status);
    assert_int_equal(r->error.byte_offset, offset);
    if (message != NULL) assert_string_equal(r->error.message, message);
}

#define NONE APLAN_NO_OFFSET

/* ------------------------------------------------------------------------------------------------------------ */
/* A plain chain: t0 (input) -op0-> t1 -op1-> t2 (output).                                                      */

static const int32_t shape_1x4[] = {1, 4};
static const int32_t shape_8[] = {8};
static const int32_t shape_2[] = {2};
static const int32_t shape_3[] = {3};
static const int32_t shape_5[] = {5};
static const int32_t shape_4[] = {4};
static const int32_t shape_1[] = {1};
static const int32_t idx_0[] = {0};
static const int32_t idx_1[] = {1};
static const int32_t idx_2[] = {2};
static const tw_opcode opcodes_plain[] = {{0, 0}}; /* ADD */
static const tw_buffer buffers_empty[] = {{NULL, 0, 0, 0}};

static const tw_tensor chain_tensors[] = {
    {shape_1x4, 2, T_FLOAT32, 0, false}, /* 16 bytes */
    {shape_8, 1, T_INT8, 0, false},      /* 8 */
    {shape_2, 1, T_INT16, 0, false},     /* 4 */
};
static const tw_op chain_ops[] = {
    {0, idx_0, 1, idx_1, 1, 0, {0, 0}, 0},
    {0, idx_1, 1, idx_2, 1, 0, {0, 0}, 0},
};
static const tw_subgraph chain_sg[] = {{chain_tensors, 3, idx_0, 1, idx_2, 1, chain_ops, 2}};
static const tw_model chain_model = {3, opcodes_plain, 1, chain_sg, 1, buffers_empty, 1, NULL, 0};

static void test_tflite_chain_lifetimes(void **state) {
    (void)state;
    tw_file f = tw_build(&chain_model);
    readout r = read_file(&f);
    assert_int_equal(r.status, APLAN_OK);
    assert_int_equal(r.error.status, APLAN_OK);
    assert_int_equal(r.count, 3);
    assert_int_equal(r.info.buffer_count, 3);
    assert_int_equal(r.info.subgraph_count, 1);
    assert_int_equal(r.info.tensor_count, 3);
    assert_int_equal(r.info.operator_count, 2);
    assert_int_equal(r.info.version, 3);
    assert_false(r.info.has_offline_plan);
    assert_int_equal(r.info.scratch_size, 3 * 8 + 4 + 1);
    expect_buffer(&r, 0, 0, 0, 1, 3, 16, NONE);
    expect_buffer(&r, 1, 0, 1, 2, 4, 8, NONE);
    expect_buffer(&r, 2, 0, 2, 3, 4, 4, NONE);
    free_readout(&r);
    tw_free(&f);
}

/* ------------------------------------------------------------------------------------------------------------ */
/* The chain plus: t3 read by op1 but never written, t4 untouched, t5 a variable read by op0, t6 constant (data),
 * t7 on a buffer whose data vector is empty, t8 on a buffer stored outside the flatbuffer (offset/size), t9 a
 * scalar (no shape), t10 of shape [0]. */

static const uint8_t sixteen[16] = {1, 2, 3};
static const int32_t shape_0[] = {0};
static const int32_t op0_in_rich[] = {0, 5, 6, -1};
static const int32_t op1_in_rich[] = {1, 3, 7, 8, 9, 10};
static const tw_tensor rich_tensors[] = {
    {shape_1x4, 2, T_FLOAT32, 0, false}, /* t0 16 */
    {shape_8, 1, T_INT8, 0, false},      /* t1 8 */
    {shape_2, 1, T_INT16, 0, false},     /* t2 4 */
    {shape_3, 1, T_FLOAT32, 0, false},   /* t3 12, read never written */
    {shape_5, 1, T_INT8, 0, false},      /* t4 5, untouched */
    {shape_2, 1, T_FLOAT32, 0, true},    /* t5 variable */
    {shape_4, 1, T_FLOAT32, 1, false},   /* t6 constant */
    {shape_4, 1, T_INT32, 2, false},     /* t7 16, empty data: planned */
    {shape_4, 1, T_FLOAT32, 3, false},   /* t8 external data: constant */
    {NULL, 0, T_COMPLEX128, 0, false},   /* t9 scalar: 16 */
    {shape_0, 1, T_FLOAT32, 0, false},   /* t10 size 0: not planned */
};
static const tw_op rich_ops[] = {
    {0, op0_in_rich, 4, idx_1, 1, 0, {0, 0}, 0},
    {0, op1_in_rich, 6, idx_2, 1, 0, {0, 0}, 0},
};
static const tw_buffer rich_buffers[] = {
    {NULL, 0, 0, 0}, {sixteen, 16, 0, 0}, {sixteen, 0, 0, 0}, {NULL, 0, 4096, 16}};
static const tw_subgraph rich_sg[] = {{rich_tensors, COUNT(rich_tensors), idx_0, 1, idx_2, 1, rich_ops, 2}};

static tw_model rich_model(const tw_metadata *md, uint32_t n_md, const tw_buffer *bufs, uint32_t n_bufs) {
    tw_model m = {3, opcodes_plain, 1, rich_sg, 1, bufs, n_bufs, md, n_md};
    return m;
}

static void test_tflite_unused_variable_constant_tensors(void **state) {
    (void)state;
    tw_model m = rich_model(NULL, 0, rich_buffers, COUNT(rich_buffers));
    tw_file f = tw_build(&m);
    readout r = read_file(&f);
    assert_int_equal(r.status, APLAN_OK);
    assert_int_equal(r.count, 7);
    expect_buffer(&r, 0, 0, 0, 1, 3, 16, NONE);
    expect_buffer(&r, 1, 0, 1, 2, 4, 8, NONE);
    expect_buffer(&r, 2, 0, 2, 3, 4, 4, NONE);
    expect_buffer(&r, 3, 0, 3, 0, 4, 12, NONE); /* read, never written: from step 0 */
    expect_buffer(&r, 4, 0, 4, 0, 0, 5, NONE);  /* untouched: empty lifetime */
    expect_buffer(&r, 5, 0, 7, 0, 4, 16, NONE); /* empty data vector: not constant */
    expect_buffer(&r, 6, 0, 9, 0, 4, 16, NONE); /* scalar COMPLEX128 */
    free_readout(&r);
    tw_free(&f);
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Offline plans.                                                                                               */

static uint8_t plan_words[4 * 32];

/* Little-endian int32 words into plan_words; returns the byte count. */
static uint32_t plan_bytes(const int32_t *w, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        for (unsigned k = 0; k < 4; k++) plan_words[4 * i + k] = (uint8_t)((uint32_t)w[i] >> (8 * k));
    }
    return 4 * n;
}

static const tw_metadata plan_md[] = {{"min_runtime_version", 4}, {"OfflineMemoryAllocation", 4}};

static tw_file rich_with_plan(const int32_t *words, uint32_t n_words, uint32_t trim) {
    static tw_buffer bufs[5];
    memcpy(bufs, rich_buffers, sizeof rich_buffers);
    bufs[4].data = plan_words;
    bufs[4].len = plan_bytes(words, n_words) - trim;
    tw_model m = rich_model(plan_md, 2, bufs, 5);
    return tw_build(&m);
}

static void test_tflite_offline_plan_valid(void **state) {
    (void)state;
    /* version 0, 1 subgraph, 11 offsets: t0 at 0, t2 at 32, t5 (variable) at 64, t4 at 128, the rest online. */
    const int32_t w[] = {0, 1, 11, 0, -1, 32, -1, 128, 64, 7, -1, -1, -1, -1};
    tw_file f = rich_with_plan(w, COUNT(w), 0);
    readout r = read_file(&f);
    assert_int_equal(r.status, APLAN_OK);
    assert_true(r.info.has_offline_plan);
    assert_int_equal(r.count, 8);
    expect_buffer(&r, 0, 0, 0, 1, 3, 16, 0);
    expect_buffer(&r, 1, 0, 1, 2, 4, 8, NONE);
    expect_buffer(&r, 2, 0, 2, 3, 4, 4, 32);
    expect_buffer(&r, 3, 0, 3, 0, 4, 12, NONE);
    expect_buffer(&r, 4, 0, 4, 0, 0, 5, 128);
    expect_buffer(&r, 5, 0, 5, 0, 3, 8, 64); /* the variable, planned because the plan places it */
    expect_buffer(&r, 6, 0, 7, 0, 4, 16, NONE);
    expect_buffer(&r, 7, 0, 9, 0, 4, 16, NONE);
    free_readout(&r);
    tw_free(&f);
}

static void test_tflite_offline_plan_malformed(void **state) {
    (void)state;
    const int32_t good[] = {0, 1, 11, 0, -1, 32, -1, 128, 64, 7, -1, -1, -1, -1};
    int32_t w[COUNT(good)];
    char msg[120];

    /* tensor count differs from the model's */
    memcpy(w, good, sizeof w);
    w[2] = 10;
    tw_file f = rich_with_plan(w, COUNT(w) - 1, 0);
    readout r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_METADATA, tw_pos(&f, "b4.data") + 8,
                 "OfflineMemoryAllocation: offsets for 10 tensors, the model has 11");
    tw_free(&f);

    /* subgraph count differs */
    memcpy(w, good, sizeof w);
    w[1] = 2;
    f = rich_with_plan(w, COUNT(w), 0);
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_METADATA, tw_pos(&f, "b4.data") + 4,
                 "OfflineMemoryAllocation: subgraph count 2, the model has 1");
    tw_free(&f);

    /* length not a multiple of 4 */
    f = rich_with_plan(good, COUNT(good), 1);
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_METADATA, tw_pos(&f, "b4.data"),
                 "OfflineMemoryAllocation: 55 bytes, not 12 + 4 n");
    tw_free(&f);

    /* shorter than the header */
    f = rich_with_plan(good, 2, 0);
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_METADATA, tw_pos(&f, "b4.data"),
                 "OfflineMemoryAllocation: 8 bytes, not 12 + 4 n");
    tw_free(&f);

    /* one offset missing (n says 11, 10 present) */
    f = rich_with_plan(good, COUNT(good) - 1, 0);
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_METADATA, tw_pos(&f, "b4.data"),
                 "OfflineMemoryAllocation: 52 bytes for 11 offsets, expected 56");
    tw_free(&f);

    /* an offset below -1 */
    memcpy(w, good, sizeof w);
    w[3 + 6] = -7;
    f = rich_with_plan(w, COUNT(w), 0);
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_METADATA, tw_pos(&f, "b4.data") + 12 + 4 * 6,
                 "OfflineMemoryAllocation: offset[6] is -7");
    tw_free(&f);

    /* the buffer has no data */
    static tw_buffer bufs[5];
    memcpy(bufs, rich_buffers, sizeof rich_buffers);
    bufs[4] = (tw_buffer){NULL, 0, 0, 0};
    tw_model m = rich_model(plan_md, 2, bufs, 5);
    f = tw_build(&m);
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_METADATA, tw_pos(&f, "b4"), "OfflineMemoryAllocation: 0 bytes, not 12 + 4 n");
    tw_free(&f);

    /* the buffer does not exist */
    static const tw_metadata bad_md[] = {{"OfflineMemoryAllocation", 9}};
    m = rich_model(bad_md, 1, rich_buffers, COUNT(rich_buffers));
    f = tw_build(&m);
    r = read_file(&f);
    snprintf(msg, sizeof msg, "OfflineMemoryAllocation: buffer 9 does not exist (the model has 4)");
    expect_error(&r, APLAN_E_FORMAT_BAD_METADATA, tw_pos(&f, "m0"), msg);
    tw_free(&f);
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Control flow. Subgraph 0: t0 (bool cond), t1 (x) inputs; op0 calls subgraphs 1 and 2 (IF or WHILE); t2 output.
 * Subgraphs 1 and 2: u0 input -op-> u1 output.                                                                  */

static const int32_t idx_01[] = {0, 1};
static const tw_tensor cf_main_tensors[] = {
    {shape_1, 1, T_BOOL, 0, false},    /* 1 byte */
    {shape_4, 1, T_FLOAT32, 0, false}, /* 16 */
    {shape_4, 1, T_FLOAT32, 0, false}, /* 16 */
};
static const tw_tensor cf_sub_tensors[] = {
    {shape_4, 1, T_FLOAT32, 0, false},
    {shape_4, 1, T_FLOAT32, 0, false},
};
static const tw_op cf_sub_ops[] = {{0, idx_0, 1, idx_1, 1, 0, {0, 0}, 0}};

static tw_file control_flow_model(tw_opcode code, uint8_t options_type, int32_t first, int32_t second,
                                  uint32_t n_options) {
    static tw_opcode codes[2];
    static tw_op main_ops[1];
    static tw_subgraph sgs[3];
    codes[0] = (tw_opcode){0, 0};
    codes[1] = code;
    main_ops[0] = (tw_op){1, idx_01, 2, idx_2, 1, options_type, {first, second}, n_options};
    sgs[0] = (tw_subgraph){cf_main_tensors, 3, idx_01, 2, idx_2, 1, main_ops, 1};
    sgs[1] = (tw_subgraph){cf_sub_tensors, 2, idx_0, 1, idx_1, 1, cf_sub_ops, 1};
    sgs[2] = sgs[1];
    tw_model m = {3, codes, 2, sgs, 3, buffers_empty, 1, NULL, 0};
    return tw_build(&m);
}

static void expect_two_callees(const readout *r) {
    assert_int_equal(r->status, APLAN_OK);
    assert_int_equal(r->count, 7);
    expect_buffer(r, 0, 0, 0, 1, 7, 1, NONE);
    expect_buffer(r, 1, 0, 1, 1, 7, 16, NONE);
    expect_buffer(r, 2, 0, 2, 2, 7, 16, NONE);
    expect_buffer(r, 3, 1, 0, 3, 5, 16, NONE);
    expect_buffer(r, 4, 1, 1, 4, 5, 16, NONE);
    expect_buffer(r, 5, 2, 0, 5, 7, 16, NONE);
    expect_buffer(r, 6, 2, 1, 6, 7, 16, NONE);
}

static void test_tflite_if_walks_both_branches(void **state) {
    (void)state;
    tw_file f = control_flow_model((tw_opcode){0, 118}, OPT_IF, 1, 2, 2);
    readout r = read_file(&f);
    expect_two_callees(&r);
    assert_int_equal(r.info.subgraph_count, 3);
    assert_int_equal(r.info.tensor_count, 7);
    free_readout(&r);
    tw_free(&f);
}

static void test_tflite_if_in_deprecated_code(void **state) {
    (void)state;
    /* Older files keep the code in deprecated_builtin_code; builtin_code then reads 0. */
    tw_file f = control_flow_model((tw_opcode){118, 0}, OPT_IF, 1, 2, 2);
    readout r = read_file(&f);
    expect_two_callees(&r);
    free_readout(&r);
    tw_free(&f);
}

static void test_tflite_while_walks_cond_and_body(void **state) {
    (void)state;
    tw_file f = control_flow_model((tw_opcode){119, 119}, OPT_WHILE, 1, 2, 2);
    readout r = read_file(&f);
    expect_two_callees(&r);
    free_readout(&r);
    tw_free(&f);
}

static void test_tflite_call_once(void **state) {
    (void)state;
    /* Subgraph 0: op0 CALL_ONCE(init 1) touches nothing; op1: t0 -> t1. Subgraph 1: op: () -> w0 (output). */
    static const tw_opcode codes[] = {{0, 0}, {127, 129}};
    static const tw_tensor main_t[] = {{shape_4, 1, T_FLOAT32, 0, false}, {shape_2, 1, T_FLOAT32, 0, false}};
    static const tw_tensor init_t[] = {{shape_2, 1, T_FLOAT32, 0, false}};
    static const tw_op main_ops[] = {{1, NULL, 0, NULL, 0, OPT_CALL_ONCE, {1, 0}, 1},
                                     {0, idx_0, 1, idx_1, 1, 0, {0, 0}, 0}};
    static const tw_op init_ops[] = {{0, NULL, 0, idx_0, 1, 0, {0, 0}, 0}};
    static const tw_subgraph sgs[] = {{main_t, 2, idx_0, 1, idx_1, 1, main_ops, 2},
                                      {init_t, 1, NULL, 0, idx_0, 1, init_ops, 1}};
    tw_model m = {3, codes, 2, sgs, 2, buffers_empty, 1, NULL, 0};
    tw_file f = tw_build(&m);
    readout r = read_file(&f);
    assert_int_equal(r.status, APLAN_OK);
    assert_int_equal(r.count, 3);
    expect_buffer(&r, 0, 0, 0, 1, 6, 16, NONE);
    expect_buffer(&r, 1, 0, 1, 5, 6, 8, NONE);
    expect_buffer(&r, 2, 1, 0, 4, 5, 8, NONE);
    free_readout(&r);
    tw_free(&f);
}

static void test_tflite_control_flow_errors(void **state) {
    (void)state;
    /* IF calling subgraph 0, which is running: a cycle, reported at the operator's offset entry. */
    tw_file f = control_flow_model((tw_opcode){0, 118}, OPT_IF, 1, 0, 2);
    readout r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_VALUE, tw_pos(&f, "s0.operators"),
                 "subgraph 0 operator 0: calls subgraph 0 while it runs (a call cycle)");
    tw_free(&f);

    /* else index out of range */
    f = control_flow_model((tw_opcode){0, 118}, OPT_IF, 1, 3, 2);
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_VALUE, tw_pos(&f, "s0o0.opt1"),
                 "subgraph 0 operator 0: else_subgraph_index is 3, the model has 3 subgraphs");
    tw_free(&f);

    /* IF without IfOptions (WhileOptions given) */
    f = control_flow_model((tw_opcode){0, 118}, OPT_WHILE, 1, 2, 2);
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_VALUE, tw_pos(&f, "s0o0"),
                 "subgraph 0 operator 0: IF needs IfOptions (builtin_options_type is 93)");
    tw_free(&f);

    /* WHILE without any options */
    f = control_flow_model((tw_opcode){0, 119}, 0, 0, 0, 0);
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_VALUE, tw_pos(&f, "s0o0"),
                 "subgraph 0 operator 0: WHILE needs WhileOptions (builtin_options_type is 0, no options table)");
    tw_free(&f);

    /* -1 means "no subgraph", as TFLM treats it: only the then branch is walked */
    f = control_flow_model((tw_opcode){0, 118}, OPT_IF, 1, -1, 2);
    r = read_file(&f);
    assert_int_equal(r.status, APLAN_OK);
    assert_int_equal(r.count, 7);
    expect_buffer(&r, 0, 0, 0, 1, 5, 1, NONE);
    expect_buffer(&r, 3, 1, 0, 3, 5, 16, NONE);
    expect_buffer(&r, 5, 2, 0, 0, 0, 16, NONE); /* never walked: untouched */
    free_readout(&r);
    tw_free(&f);
}

/* A chain of n subgraphs, each CALL_ONCE-calling the next; with loop_back the last calls `loop_back - 1`. */
static tw_file nested_model(uint32_t n, uint32_t loop_back) {
    static const tw_opcode codes[] = {{0, 129}};
    static tw_op ops[64];
    static tw_subgraph sgs[64];
    static const tw_tensor t[] = {{shape_4, 1, T_FLOAT32, 0, false}};
    assert_true(n <= 64);
    for (uint32_t s = 0; s < n; s++) {
        int32_t callee = s + 1 < n ? (int32_t)(s + 1) : loop_back ? (int32_t)loop_back - 1 : -1;
        ops[s] = (tw_op){0, idx_0, 1, NULL, 0, OPT_CALL_ONCE, {callee, 0}, 1};
        sgs[s] = (tw_subgraph){t, 1, idx_0, 1, NULL, 0, &ops[s], 1};
    }
    tw_model m = {3, codes, 1, sgs, n, buffers_empty, 1, NULL, 0};
    return tw_build(&m);
}

static void test_tflite_nesting_bounded_and_cycles_found(void **state) {
    (void)state;
    /* 33 subgraphs: the deepest is 32 calls down, the limit: fine. Subgraph s's t0 lives [2s + 1, 2s + 3)... */
    tw_file f = nested_model(APLAN_TFLITE_MAX_NESTING + 1, 0);
    readout r = read_file(&f);
    assert_int_equal(r.status, APLAN_OK);
    assert_int_equal(r.count, APLAN_TFLITE_MAX_NESTING + 1);
    expect_buffer(&r, 0, 0, 0, 1, 2 * (APLAN_TFLITE_MAX_NESTING + 1) + 1, 16, NONE);
    expect_buffer(&r, 1, 1, 0, 3, 2 * (APLAN_TFLITE_MAX_NESTING + 1) + 1, 16, NONE);
    free_readout(&r);
    tw_free(&f);

    /* One more level is too deep, reported at the calling operator's entry in subgraph 32's operator vector. */
    f = nested_model(APLAN_TFLITE_MAX_NESTING + 2, 0);
    r = read_file(&f);
    char key[24];
    snprintf(key, sizeof key, "s%u.operators", APLAN_TFLITE_MAX_NESTING);
    expect_error(&r, APLAN_E_FORMAT_UNSUPPORTED, tw_pos(&f, key),
                 "subgraph 32 operator 0: control flow nests deeper than 32 calls");
    tw_free(&f);

    /* 5 subgraphs, the last calling subgraph 2 again: a cycle. */
    f = nested_model(5, 3);
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_VALUE, tw_pos(&f, "s4.operators"),
                 "subgraph 4 operator 0: calls subgraph 2 while it runs (a call cycle)");
    tw_free(&f);
}

static void test_tflite_visit_budget_bounds_the_walk(void **state) {
    (void)state;
    /* 7 subgraphs of 16 CALL_ONCE operators, each calling the next subgraph: 16 + 16^2 + ... + 16^6 operator
     * visits, more than APLAN_TFLITE_MAX_VISITS (2^24) only in the deepest level. The walk stops at the budget. */
    static const tw_opcode codes[] = {{0, 129}, {0, 0}};
    static const tw_tensor t[] = {{shape_4, 1, T_FLOAT32, 0, false}};
    static tw_op ops[7][16];
    static tw_subgraph sgs[7];
    for (uint32_t s = 0; s < 7; s++) {
        for (uint32_t i = 0; i < 16; i++) {
            ops[s][i] = s + 1 < 7 ? (tw_op){0, idx_0, 1, NULL, 0, OPT_CALL_ONCE, {(int32_t)s + 1, 0}, 1}
                                  : (tw_op){1, idx_0, 1, NULL, 0, 0, {0, 0}, 0};
        }
        sgs[s] = (tw_subgraph){t, 1, idx_0, 1, NULL, 0, ops[s], 16};
    }
    tw_model m = {3, codes, 2, sgs, 7, buffers_empty, 1, NULL, 0};
    tw_file f = tw_build(&m);
    readout r = read_file(&f);
    /* In walk order (depth first), visit 2^24 + 1 is subgraph 1's last operator. */
    expect_error(&r, APLAN_E_FORMAT_UNSUPPORTED, tw_pos(&f, "s1.operators") + 4 * 15,
                 "subgraph 1 operator 15: control flow makes the walk visit more than 16777216 operators");
    tw_free(&f);
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Format errors with exact status, offset and message.                                                         */

static tw_file chain_with(const tw_tensor *tensors, const tw_op *ops) {
    static tw_subgraph sg[1];
    sg[0] = (tw_subgraph){tensors, 3, idx_0, 1, idx_2, 1, ops, 2};
    tw_model m = chain_model;
    m.subgraphs = sg;
    return tw_build(&m);
}

static void test_tflite_header_errors(void **state) {
    (void)state;
    tw_file f = tw_build(&chain_model);
    readout r = read_model(f.data, 7);
    expect_error(&r, APLAN_E_FORMAT_TRUNCATED, 7, "header: the input has 7 bytes, a flatbuffer needs at least 8");
    f.data[6] = 'X';
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_VALUE, 6, "header: file identifier is not \"TFL3\"");
    f.data[6] = 'L';
    uint8_t saved = f.data[0];
    f.data[0] = 0xFD;
    f.data[1] = 0xFF;
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_OFFSET, 0, "header: root table offset 65533 is past the end");
    f.data[0] = (uint8_t)(saved + 2);
    f.data[1] = 0;
    r = read_file(&f);
    char msg[80];
    snprintf(msg, sizeof msg, "header: root table offset %u is misaligned", saved + 2u);
    expect_error(&r, APLAN_E_FORMAT_BAD_OFFSET, 0, msg);
    tw_free(&f);
}

static void test_tflite_tensor_errors(void **state) {
    (void)state;
    static const int32_t bad_shape[] = {2, 4, -3};
    tw_tensor t[3];
    memcpy(t, chain_tensors, sizeof t);
    t[1] = (tw_tensor){bad_shape, 3, T_INT8, 0, false};
    tw_file f = chain_with(t, chain_ops);
    readout r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_VALUE, tw_pos(&f, "s0t1.shape") + 8, "subgraph 0 tensor 1: shape[2] is -3");
    tw_free(&f);

    static const int32_t huge[] = {65536, 65536, 65536, 65536, 2};
    memcpy(t, chain_tensors, sizeof t);
    t[2] = (tw_tensor){huge, 5, T_INT8, 0, false};
    f = chain_with(t, chain_ops);
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_VALUE, tw_pos(&f, "s0t2.shape") + 12,
                 "subgraph 0 tensor 2: shape: the element count overflows 64 bits at shape[3]");
    tw_free(&f);

    static const int32_t big[] = {65536, 65536, 65536, 32768};
    t[2] = (tw_tensor){big, 4, T_FLOAT32, 0, false}; /* 2^63 elements: fits; x4 bytes does not */
    f = chain_with(t, chain_ops);
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_VALUE, tw_pos(&f, "s0t2.shape"),
                 "subgraph 0 tensor 2: shape: the size overflows 64 bits");
    tw_free(&f);

    memcpy(t, chain_tensors, sizeof t);
    t[0].type = T_STRING;
    f = chain_with(t, chain_ops);
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_UNSUPPORTED, tw_pos(&f, "s0t0.type"),
                 "subgraph 0 tensor 0: type STRING has no fixed element size");
    tw_free(&f);

    t[0].type = 19;
    f = chain_with(t, chain_ops);
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_UNSUPPORTED, tw_pos(&f, "s0t0.type"),
                 "subgraph 0 tensor 0: type 19 is newer than this reader");
    tw_free(&f);

    t[0].type = -2;
    f = chain_with(t, chain_ops);
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_VALUE, tw_pos(&f, "s0t0.type"), "subgraph 0 tensor 0: type is -2");
    tw_free(&f);

    memcpy(t, chain_tensors, sizeof t);
    t[2].buffer = 1;
    f = chain_with(t, chain_ops);
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_VALUE, tw_pos(&f, "s0t2.buffer"),
                 "subgraph 0 tensor 2: buffer is 1, the model has 1 buffers");
    tw_free(&f);
}

static void test_tflite_operator_errors(void **state) {
    (void)state;
    static const int32_t bad_in[] = {1, 3};
    static const int32_t neg_out[] = {-1};
    tw_op ops[2];
    memcpy(ops, chain_ops, sizeof ops);
    ops[1].inputs = bad_in;
    ops[1].n_inputs = 2;
    tw_file f = chain_with(chain_tensors, ops);
    readout r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_VALUE, tw_pos(&f, "s0o1.inputs") + 4,
                 "subgraph 0 operator 1: inputs[1] is 3, not a tensor index (or -1) below 3");
    tw_free(&f);

    memcpy(ops, chain_ops, sizeof ops);
    ops[0].outputs = neg_out;
    f = chain_with(chain_tensors, ops);
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_VALUE, tw_pos(&f, "s0o0.outputs"),
                 "subgraph 0 operator 0: outputs[0] is -1, not a tensor index below 3");
    tw_free(&f);

    memcpy(ops, chain_ops, sizeof ops);
    ops[1].opcode_index = 1;
    f = chain_with(chain_tensors, ops);
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_VALUE, tw_pos(&f, "s0o1.opcode_index"),
                 "subgraph 0 operator 1: opcode_index is 1, the model has 1 operator codes");
    tw_free(&f);

    /* A subgraph output out of range. */
    static tw_subgraph sg[1];
    static const int32_t out7[] = {7};
    sg[0] = (tw_subgraph){chain_tensors, 3, idx_0, 1, out7, 1, chain_ops, 2};
    tw_model m = chain_model;
    m.subgraphs = sg;
    f = tw_build(&m);
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_VALUE, tw_pos(&f, "s0.outputs"),
                 "subgraph 0: outputs[0] is 7, not a tensor index below 3");
    tw_free(&f);
}

static void test_tflite_flatbuffer_structure_errors(void **state) {
    (void)state;
    tw_file f = tw_build(&chain_model);
    size_t t1 = tw_pos(&f, "s0t1");
    /* The tensor's soffset pointing before the input: its vtable lies outside. */
    uint8_t saved[4];
    memcpy(saved, f.data + t1, 4);
    f.data[t1] = 0xFF;
    f.data[t1 + 1] = 0xFF;
    f.data[t1 + 2] = 0xFF;
    f.data[t1 + 3] = 0x7F;
    readout r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_OFFSET, t1, "subgraph 0 tensor 1: tensor table: vtable lies outside the input");
    memcpy(f.data + t1, saved, 4);

    /* A voffset beyond the table: the shape field of tensor 1 (vtable slot 0 at vtable + 4). */
    int32_t so = (int32_t)((uint32_t)saved[0] | (uint32_t)saved[1] << 8 | (uint32_t)saved[2] << 16 |
                           (uint32_t)saved[3] << 24);
    size_t vt = (size_t)((int64_t)t1 - so);
    uint8_t v0 = f.data[vt + 4];
    f.data[vt + 4] = 200;
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_OFFSET, vt + 4,
                 "subgraph 0 tensor 1: shape: field offset 200 lies outside its 16-byte table");
    f.data[vt + 4] = v0;

    /* The shape vector's length made huge: it runs past the end. */
    size_t len_pos = tw_pos(&f, "s0t1.shape") - 4;
    f.data[len_pos + 3] = 0x10;
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_TRUNCATED, len_pos,
                 "subgraph 0 tensor 1: shape: vector of 268435457 elements runs past the end");
    f.data[len_pos + 3] = 0;

    /* The vtable size odd. */
    f.data[vt] = 5;
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_OFFSET, vt,
                 "subgraph 0 tensor 1: tensor table: vtable size 5 is not an even number >= 4");
    tw_free(&f);
}

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void set_le32(uint8_t *p, uint32_t v) {
    for (int k = 0; k < 4; k++) p[k] = (uint8_t)(v >> (8 * k));
}

/* Messages whose detail is chosen inside one format (uoffset, vtable and table checks), and a model without
 * subgraphs, each with its exact status, offset and text. */
static void test_tflite_offset_and_table_messages(void **state) {
    (void)state;
    tw_file f = tw_build(&chain_model);
    size_t t1 = tw_pos(&f, "s0t1");
    uint32_t so = le32(f.data + t1);
    size_t vt = (size_t)((int64_t)t1 - (int32_t)so);
    size_t field = t1 + (size_t)(f.data[vt + 4] | f.data[vt + 5] << 8); /* the shape uoffset (vtable slot 0) */
    uint32_t to = le32(f.data + field);

    set_le32(f.data + field, (uint32_t)(f.size - field));
    readout r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_OFFSET, field, "subgraph 0 tensor 1: shape: offset points past the end");
    set_le32(f.data + field, to + 2u);
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_OFFSET, field, "subgraph 0 tensor 1: shape: offset is misaligned");
    set_le32(f.data + field, to);

    set_le32(f.data + t1, so - 1u);
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_OFFSET, t1, "subgraph 0 tensor 1: tensor table: vtable is misaligned");
    set_le32(f.data + t1, (uint32_t)((int64_t)t1 - (int64_t)(f.size - 2u)));
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_TRUNCATED, f.size - 2u,
                 "subgraph 0 tensor 1: tensor table: vtable runs past the end");
    set_le32(f.data + t1, so);

    uint8_t saved = f.data[vt + 3];
    f.data[vt + 3] = 0xFF; /* the table size: 0xFFxx bytes */
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_TRUNCATED, t1, "subgraph 0 tensor 1: tensor table: table runs past the end");
    f.data[vt + 3] = saved;
    r = read_file(&f);
    assert_int_equal(r.status, APLAN_OK);
    free_readout(&r);
    tw_free(&f);

    tw_model m = chain_model;
    m.n_subgraphs = 0;
    f = tw_build(&m);
    r = read_file(&f);
    expect_error(&r, APLAN_E_FORMAT_BAD_VALUE, tw_pos(&f, "root"), "Model.subgraphs: the model has none");
    tw_free(&f);
}

/* The chain model with other tensors or operators fails with status at the position keyed `key`, saying message. */
static void expect_chain_error(const tw_tensor *tensors, const tw_op *ops, aplan_status status, const char *key,
                               const char *message) {
    tw_file f = chain_with(tensors, ops);
    readout r = read_file(&f);
    expect_error(&r, status, tw_pos(&f, key), message);
    tw_free(&f);
}

/* Numbers at the ends of their ranges in messages: the largest uint32 and the most negative int32. */
static void test_tflite_message_extreme_numbers(void **state) {
    (void)state;
    static const int32_t min_shape[] = {INT32_MIN};
    tw_tensor t[3];
    memcpy(t, chain_tensors, sizeof t);
    t[1] = (tw_tensor){min_shape, 1, T_INT8, 0, false};
    expect_chain_error(t, chain_ops, APLAN_E_FORMAT_BAD_VALUE, "s0t1.shape",
                       "subgraph 0 tensor 1: shape[0] is -2147483648");
    memcpy(t, chain_tensors, sizeof t);
    t[2].buffer = UINT32_MAX;
    expect_chain_error(t, chain_ops, APLAN_E_FORMAT_BAD_VALUE, "s0t2.buffer",
                       "subgraph 0 tensor 2: buffer is 4294967295, the model has 1 buffers");
    tw_op ops[2];
    memcpy(ops, chain_ops, sizeof ops);
    ops[1].opcode_index = UINT32_MAX;
    expect_chain_error(chain_tensors, ops, APLAN_E_FORMAT_BAD_VALUE, "s0o1.opcode_index",
                       "subgraph 0 operator 1: opcode_index is 4294967295, the model has 1 operator codes");
}

/* ------------------------------------------------------------------------------------------------------------ */
/* The two-call contract.                                                                                       */

static void test_tflite_scratch_and_output_checked(void **state) {
    (void)state;
    tw_file f = tw_build(&chain_model);
    aplan_tflite_info info;
    aplan_format_error e;
    assert_int_equal(aplan_tflite_query(f.data, f.size, &info, NULL), APLAN_OK);
    _Alignas(8) uint8_t scratch[64];
    aplan_buffer b[3];
    aplan_tflite_id ids[3];
    size_t count = 99;
    assert_int_equal(aplan_tflite_read(f.data, f.size, scratch + 4, info.scratch_size, b, ids, 3, &count, &e),
                     APLAN_E_SCRATCH_MISALIGNED);
    assert_int_equal(e.status, APLAN_E_SCRATCH_MISALIGNED);
    assert_int_equal(aplan_tflite_read(f.data, f.size, scratch, info.scratch_size - 1, b, ids, 3, &count, &e),
                     APLAN_E_SCRATCH_TOO_SMALL);
    assert_int_equal(aplan_tflite_read(f.data, f.size, NULL, 0, b, ids, 3, &count, &e), APLAN_E_SCRATCH_TOO_SMALL);
    memset(b, 0xAB, sizeof b);
    assert_int_equal(aplan_tflite_read(f.data, f.size, scratch, sizeof scratch, b, ids, 2, &count, &e),
                     APLAN_E_OUTPUT_TOO_SMALL);
    assert_int_equal(count, 3);
    assert_int_equal(e.status, APLAN_E_OUTPUT_TOO_SMALL);
    assert_string_equal(e.message, "the model has 3 buffers, the output holds 2");
    assert_int_equal(b[0].size, 0xABABABABABABABABull); /* nothing written */
    assert_int_equal(aplan_tflite_read(f.data, f.size, scratch, sizeof scratch, b, NULL, 3, &count, NULL), APLAN_OK);
    assert_int_equal(count, 3);
    assert_int_equal(b[2].upper, 4);
    /* NULL arguments */
    assert_int_equal(aplan_tflite_query(NULL, 8, &info, &e), APLAN_E_INVALID_ARG);
    assert_int_equal(e.status, APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_tflite_query(f.data, f.size, NULL, NULL), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_tflite_read(f.data, f.size, scratch, 64, NULL, NULL, 3, &count, &e), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_tflite_read(f.data, f.size, scratch, 64, b, NULL, 3, NULL, &e), APLAN_E_INVALID_ARG);
    tw_free(&f);
}

static void test_tflite_id_format(void **state) {
    (void)state;
    char out[24];
    assert_int_equal(aplan_tflite_id_format((aplan_tflite_id){3, 107}, out, sizeof out), 6);
    assert_string_equal(out, "s3t107");
    assert_int_equal(aplan_tflite_id_format((aplan_tflite_id){UINT32_MAX, UINT32_MAX}, out, sizeof out), 22);
    assert_string_equal(out, "s4294967295t4294967295");
    assert_int_equal(aplan_tflite_id_format((aplan_tflite_id){0, 12}, out, 3), 5);
    assert_string_equal(out, "s0");
    /* Truncated inside a number, to the NUL alone, and nothing written at all: the full length still counts. */
    assert_int_equal(aplan_tflite_id_format((aplan_tflite_id){3, 107}, out, 5), 6);
    assert_string_equal(out, "s3t1");
    memset(out, 'x', sizeof out);
    assert_int_equal(aplan_tflite_id_format((aplan_tflite_id){3, 107}, out, 1), 6);
    assert_string_equal(out, "");
    memset(out, 'x', sizeof out);
    assert_int_equal(aplan_tflite_id_format((aplan_tflite_id){3, 107}, out, 0), 6);
    assert_int_equal(out[0], 'x');
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Hostile inputs.                                                                                              */

static bool is_format_status(aplan_status s) {
    return s == APLAN_E_FORMAT_TRUNCATED || s == APLAN_E_FORMAT_BAD_OFFSET || s == APLAN_E_FORMAT_BAD_VALUE ||
           s == APLAN_E_FORMAT_UNSUPPORTED || s == APLAN_E_FORMAT_BAD_METADATA;
}

/* Read a copy in a malloc'd block of exactly `size` bytes, so ASan sees any read past the end. */
static readout read_exact(const uint8_t *data, size_t size) {
    uint8_t *copy = malloc(size ? size : 1);
    memcpy(copy, data, size);
    readout r = read_model(copy, size);
    free(copy);
    return r;
}

static tw_file hostile_seed(void) {
    /* The rich model with an offline plan and the IF model's control flow in one: every reader path. */
    static const int32_t w[] = {0, 3, 15, 0, -1, 32, -1, 128, 64, 7, -1, -1, -1, -1, -1, -1, -1, -1};
    static tw_buffer bufs[5];
    static tw_opcode codes[2] = {{0, 0}, {118, 118}};
    static tw_op main_ops[3];
    static tw_subgraph sgs[3];
    memcpy(bufs, rich_buffers, sizeof rich_buffers);
    bufs[4].data = plan_words;
    bufs[4].len = plan_bytes(w, COUNT(w));
    main_ops[0] = rich_ops[0];
    main_ops[1] = rich_ops[1];
    main_ops[2] = (tw_op){1, idx_01, 2, idx_2, 1, OPT_IF, {1, 2}, 2};
    sgs[0] = rich_sg[0];
    sgs[0].ops = main_ops;
    sgs[0].n_ops = 3;
    sgs[1] = (tw_subgraph){cf_sub_tensors, 2, idx_0, 1, idx_1, 1, cf_sub_ops, 1};
    sgs[2] = sgs[1];
    tw_model m = {3, codes, 2, sgs, 3, bufs, 5, plan_md + 1, 1};
    return tw_build(&m);
}

static void test_tflite_hostile_seed_reads(void **state) {
    (void)state;
    tw_file f = hostile_seed();
    readout r = read_exact(f.data, f.size);
    assert_int_equal(r.status, APLAN_OK);
    assert_int_equal(r.count, 12);
    free_readout(&r);
    tw_free(&f);
}

static void test_tflite_every_truncation_fails(void **state) {
    (void)state;
    tw_file f = hostile_seed();
    for (size_t len = 0; len < f.size; len++) {
        readout r = read_exact(f.data, len);
        if (!is_format_status(r.status)) {
            print_error("length %zu of %zu: %s\n", len, f.size, aplan_status_str(r.status));
        }
        assert_true(is_format_status(r.status));
        assert_int_equal(r.error.status, r.status);
        assert_true(r.error.byte_offset <= len);
        free_readout(&r);
    }
    tw_free(&f);
}

static void test_tflite_every_byte_mutation_is_safe(void **state) {
    (void)state;
    tw_file f = hostile_seed();
    uint8_t *copy = malloc(f.size);
    size_t ok = 0;
    size_t failed = 0;
    for (size_t pos = 0; pos < f.size; pos++) {
        for (unsigned v = 0; v < 256; v++) {
            if (v == f.data[pos]) continue;
            memcpy(copy, f.data, f.size);
            copy[pos] = (uint8_t)v;
            readout r = read_model(copy, f.size);
            if (r.status == APLAN_OK) {
                ok++;
                for (size_t i = 0; i < r.count; i++) assert_true(r.buffers[i].lower <= r.buffers[i].upper);
            } else {
                failed++;
                if (!is_format_status(r.status)) {
                    print_error("byte %zu = %u: %s\n", pos, v, aplan_status_str(r.status));
                }
                assert_true(is_format_status(r.status));
                assert_true(r.error.byte_offset < f.size);
                assert_true(r.error.message[0] != '\0');
            }
            free_readout(&r);
        }
    }
    printf("%zu bytes x 255 mutations: %zu read, %zu rejected\n", f.size, ok, failed);
    free(copy);
    tw_free(&f);
}

/* ------------------------------------------------------------------------------------------------------------ */
/* The 14 shared models.                                                                                        */

static const char *const shared_models[] = {
    "hello_world_float",  "hello_world_int8",       "simple_add_model",    "audio_preprocessor_int8",
    "micro_speech_quantized", "micro_speech_lstm",  "trained_lstm",        "trained_lstm_int8",
    "dtln_noise_suppression", "keyword_scrambled",  "keyword_scrambled_8bit", "person_detect",
    "person_detect_vela", "test_conv_model",
};

static uint8_t *slurp(const char *path, size_t *size) {
    FILE *fp = fopen(path, "rb");
    if (fp == NULL) return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *d = malloc(n > 0 ? (size_t)n : 1);
    *size = fread(d, 1, (size_t)n, fp);
    fclose(fp);
    if (*size != (size_t)n) {
        free(d);
        return NULL;
    }
    return d;
}

/* The fuzz corpus seeds for fuzz_tflite are models this writer builds (never the shared ones): the committed files
 * must equal what it builds now. APLAN_UPDATE_SEEDS=1 rewrites them after a deliberate change to the writer. */
static void check_seed(const tw_file *f, const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", getenv("APLAN_TFLITE_CORPUS"), name);
    if (getenv("APLAN_UPDATE_SEEDS") != NULL) {
        FILE *out = fopen(path, "wb");
        assert_non_null(out);
        assert_int_equal(fwrite(f->data, 1, f->size, out), f->size);
        assert_int_equal(fclose(out), 0);
    }
    FILE *in = fopen(path, "rb");
    if (in == NULL) fail_msg("%s missing: run with APLAN_UPDATE_SEEDS=1", path);
    uint8_t *data = malloc(f->size + 1);
    const size_t got = fread(data, 1, f->size + 1, in);
    fclose(in);
    if (got != f->size || memcmp(data, f->data, f->size) != 0) fail_msg("%s is stale: APLAN_UPDATE_SEEDS=1", path);
    free(data);
}

static void test_tflite_fuzz_seeds_are_current(void **state) {
    (void)state;
    tw_file f = hostile_seed();
    check_seed(&f, "seed-offline-plan-and-if.tflite");
    tw_free(&f);
    f = control_flow_model((tw_opcode){119, 119}, OPT_WHILE, 1, 2, 2);
    check_seed(&f, "seed-while.tflite");
    tw_free(&f);
}

static void test_tflite_shared_models_match_lifetimes(void **state) {
    (void)state;
    if (getenv("APLAN_SHARED_DIR") == NULL) skip();
    for (size_t k = 0; k < sizeof shared_models / sizeof shared_models[0]; k++) {
        char rel[128];
        snprintf(rel, sizeof rel, "models/%s.tflite", shared_models[k]);
        size_t size = 0;
        uint8_t *data = slurp(shared_path(rel), &size);
        if (data == NULL) print_error("cannot read %s\n", shared_path(rel));
        assert_non_null(data);
        readout r = read_exact(data, size);
        if (r.status != APLAN_OK) print_error("%s: %s at %llu: %s\n", shared_models[k], aplan_status_str(r.status),
                                              (unsigned long long)r.error.byte_offset, r.error.message);
        assert_int_equal(r.status, APLAN_OK);
        snprintf(rel, sizeof rel, "models/lifetimes/%s.csv", shared_models[k]);
        test_lifetimes l;
        assert_int_equal(load_lifetimes(shared_path(rel), &l), 0);
        if (r.count != l.count) print_error("%s: %zu buffers, CSV has %zu\n", shared_models[k], r.count, l.count);
        assert_int_equal(r.count, l.count);
        for (size_t i = 0; i < l.count; i++) {
            char id[24];
            aplan_tflite_id_format(r.ids[i], id, sizeof id);
            const aplan_buffer *a = &r.buffers[i];
            const aplan_buffer *b = &l.buffers[i];
            if (strcmp(id, l.ids[i]) != 0 || a->lower != b->lower || a->upper != b->upper || a->size != b->size ||
                a->offset != b->offset) {
                print_error("%s buffer %zu: got %s [%llu,%llu) %llu @%lld, CSV %s [%llu,%llu) %llu @%lld\n",
                            shared_models[k], i, id, (unsigned long long)a->lower, (unsigned long long)a->upper,
                            (unsigned long long)a->size, (long long)a->offset, l.ids[i],
                            (unsigned long long)b->lower, (unsigned long long)b->upper,
                            (unsigned long long)b->size, (long long)b->offset);
                fail();
            }
        }
        printf("%-24s %3zu buffers equal\n", shared_models[k], r.count);
        free_lifetimes(&l);
        free_readout(&r);
        free(data);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tflite_chain_lifetimes),
        cmocka_unit_test(test_tflite_unused_variable_constant_tensors),
        cmocka_unit_test(test_tflite_offline_plan_valid),
        cmocka_unit_test(test_tflite_offline_plan_malformed),
        cmocka_unit_test(test_tflite_if_walks_both_branches),
        cmocka_unit_test(test_tflite_if_in_deprecated_code),
        cmocka_unit_test(test_tflite_while_walks_cond_and_body),
        cmocka_unit_test(test_tflite_call_once),
        cmocka_unit_test(test_tflite_control_flow_errors),
        cmocka_unit_test(test_tflite_nesting_bounded_and_cycles_found),
        cmocka_unit_test(test_tflite_visit_budget_bounds_the_walk),
        cmocka_unit_test(test_tflite_header_errors),
        cmocka_unit_test(test_tflite_tensor_errors),
        cmocka_unit_test(test_tflite_operator_errors),
        cmocka_unit_test(test_tflite_flatbuffer_structure_errors),
        cmocka_unit_test(test_tflite_offset_and_table_messages),
        cmocka_unit_test(test_tflite_message_extreme_numbers),
        cmocka_unit_test(test_tflite_scratch_and_output_checked),
        cmocka_unit_test(test_tflite_id_format),
        cmocka_unit_test(test_tflite_hostile_seed_reads),
        cmocka_unit_test(test_tflite_every_truncation_fails),
        cmocka_unit_test(test_tflite_every_byte_mutation_is_safe),
        cmocka_unit_test(test_tflite_fuzz_seeds_are_current),
        cmocka_unit_test(test_tflite_shared_models_match_lifetimes),
    };
    return cmocka_run_group_tests_name("tflite", tests, NULL, NULL);
}
