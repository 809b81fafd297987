/* The .tflite reader: small models built by tests/tflite_writer.c (chains, unused, variable and constant tensors,
 * offline plans valid and malformed, IF / WHILE / CALL_ONCE, cycles and nesting), hostile inputs (every truncation,
 * every single-byte mutation), the two-call contract, the lookups (tensor names, types and shapes, operators,
 * subgraphs, the operator at every step) with every failure, and every shared model against its lifetimes CSV
 * and, for names and operators, against the bytes they hold. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h> /* timespec_get */

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
     * visits, more than APLAN_TFLITE_MAX_VISITS (2^24) only in the deepest level. The walk stops at the visit cap,
     * which keeps step numbers within 32 bits, when the work budget (8 units per byte) does not stop it first:
     * here a 40 MB constant buffer raises the budget above the walk's 2^24 visits (about 17 units each). Without
     * it, the work budget stops the walk some 2^12 visits in. */
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
    char msg[120];
    snprintf(msg, sizeof msg, "subgraph 6 operator 0: work budget of %llu units (%u per byte + %u) exceeded: shared "
             "tables or repeated calls", (unsigned long long)APLAN_TFLITE_WORK_PER_BYTE * f.size +
             APLAN_TFLITE_WORK_BASE, APLAN_TFLITE_WORK_PER_BYTE, APLAN_TFLITE_WORK_BASE);
    expect_error(&r, APLAN_E_FORMAT_UNSUPPORTED, tw_pos(&f, "s6o0"), msg);
    tw_free(&f);

    const uint32_t pad = 40u << 20;
    uint8_t *padding = calloc(pad, 1);
    assert_non_null(padding);
    const tw_buffer bufs[] = {{NULL, 0, 0, 0}, {padding, pad, 0, 0}};
    m.buffers = bufs;
    m.n_buffers = 2;
    f = tw_build(&m);
    free(padding);
    r = read_file(&f);
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
/* Names, types, shapes, operators and steps.                                                                   */

/* Assert a text from the API is exactly the len bytes of want (want NULL: absent, {NULL, 0}). */
static void expect_text(aplan_tflite_text t, const char *want, size_t len) {
    if (want == NULL) {
        assert_null(t.data);
        assert_int_equal(t.size, 0);
        return;
    }
    assert_non_null(t.data);
    if (t.size != len || memcmp(t.data, want, len) != 0) {
        print_error("text \"%.*s\" (%zu bytes), want \"%.*s\" (%zu)\n", (int)t.size, t.data, t.size, (int)len, want,
                    len);
    }
    assert_int_equal(t.size, len);
    assert_memory_equal(t.data, want, len);
}

/* Assert the text is the model's string marked under key (a pointer into the model, not a copy). */
static void expect_model_text(aplan_tflite_text t, const tw_file *f, const char *key, const char *want, size_t len) {
    expect_text(t, want, len);
    assert_ptr_equal(t.data, (const char *)f->data + tw_pos(f, key));
}

static const int32_t shape_rank9[] = {1, 2, 1, 1, 1, 1, 1, 1, 3};
static const int32_t shape_22[] = {2, 2};
static const int32_t shape_huge[] = {65536, 65536, 65536, 32768};
static const char bad_utf8[] = "caf\xc3\0\xff~"; /* a cut sequence, a NUL, a byte no UTF-8 has: 7 bytes */
static const int32_t names_op0_in[] = {0, -1, 5};
static const int32_t names_op1_in[] = {1, 2, 4};
static const int32_t idx_9[] = {9};
static const tw_tensor names_tensors[] = {
    {shape_1x4, 2, T_INT8, 0, false},     /* t0 "input": 4 bytes */
    {shape_rank9, 9, T_FLOAT32, 0, false}, /* t1 rank 9: 6 elements, 24 bytes */
    {NULL, 0, T_INT16, 0, false},         /* t2 no name, a scalar: 2 bytes */
    {shape_0, 1, T_FLOAT32, 0, false},    /* t3 empty name, no elements: untouched, not planned */
    {shape_2, 1, T_STRING, 1, false},     /* t4 invalid UTF-8 name, constant STRING */
    {shape_22, 2, T_INT32, 0, true},      /* t5 "state": a variable */
    {shape_3, 1, 20, 1, false},           /* t6 constant UINT4: a name, no size this reader knows */
    {shape_3, 1, 23, 1, false},           /* t7 constant of a type newer than every name */
    {shape_huge, 4, 10, 1, false},        /* t8 constant FLOAT64 of 2^63 elements: the size overflows */
    {shape_2, 1, T_INT8, 0, false},       /* t9 "out": 2 bytes */
};
static const tw_op names_ops[] = {
    {0, names_op0_in, 3, idx_1, 1, 0, {0, 0}, 0},
    {1, names_op1_in, 3, idx_9, 1, 0, {0, 0}, 0},
};
static const tw_opcode names_opcodes[] = {{0, 0}, {32, 32}}; /* ADD, CUSTOM */
static const tw_buffer names_buffers[] = {{NULL, 0, 0, 0}, {sixteen, 16, 0, 0}};
static const tw_subgraph names_sg[] = {{names_tensors, COUNT(names_tensors), idx_0, 1, idx_9, 1, names_ops, 2}};
static const tw_string names_tensor_names[] = {
    {0, 0, "input", 0},
    {0, 1, "MobilenetV1/MobilenetV1/Conv2d_9_pointwise/Relu6", 0},
    {0, 3, "", 0},
    {0, 4, bad_utf8, sizeof bad_utf8 - 1},
    {0, 5, "state", 0},
    {0, 6, "uint4", 0},
    {0, 9, "out", 0},
};
static const tw_string names_custom[] = {{0, 1, "MyCustomOp", 0}};
static const tw_string names_subgraph[] = {{0, 0, "main", 0}};

static tw_file names_model(void) {
    tw_model m = {3, names_opcodes, 2, names_sg, 1, names_buffers, 2, NULL, 0};
    tw_extra x;
    memset(&x, 0, sizeof x);
    x.tensor_names = names_tensor_names;
    x.n_tensor_names = COUNT(names_tensor_names);
    x.custom_codes = names_custom;
    x.n_custom_codes = COUNT(names_custom);
    x.subgraph_names = names_subgraph;
    x.n_subgraph_names = 1;
    return tw_build_ex(&m, &x);
}

/* aplan_tflite_tensor on a model that must describe tensor t of subgraph s. */
static aplan_tflite_tensor_info tensor_ok(const uint8_t *data, size_t size, uint32_t s, uint32_t t) {
    aplan_tflite_tensor_info info;
    aplan_format_error e;
    memset(&info, 0xAB, sizeof info);
    aplan_status st = aplan_tflite_tensor(data, size, (aplan_tflite_id){s, t}, &info, &e);
    if (st != APLAN_OK) print_error("s%ut%u: %s: %s\n", s, t, aplan_status_str(st), e.message);
    assert_int_equal(st, APLAN_OK);
    assert_int_equal(e.status, APLAN_OK);
    for (size_t k = 0; k < sizeof info.reserved / sizeof info.reserved[0]; k++) assert_int_equal(info.reserved[k], 0);
    return info;
}

static void expect_shape(const aplan_tflite_tensor_info *info, const int32_t *shape, uint32_t rank) {
    assert_int_equal(info->rank, rank);
    assert_int_equal(info->shape_truncated, rank > APLAN_TFLITE_MAX_RANK);
    for (uint32_t i = 0; i < APLAN_TFLITE_MAX_RANK; i++) assert_int_equal(info->shape[i], i < rank ? shape[i] : 0);
}

static void test_tflite_tensor_names_types_shapes(void **state) {
    (void)state;
    tw_file f = names_model();
    readout r = read_file(&f);
    assert_int_equal(r.status, APLAN_OK); /* names, custom codes and sizeless constants do not disturb planning */
    assert_int_equal(r.count, 4);
    expect_buffer(&r, 0, 0, 0, 1, 3, 4, NONE);
    expect_buffer(&r, 1, 0, 1, 2, 4, 24, NONE);
    expect_buffer(&r, 2, 0, 2, 0, 4, 2, NONE);
    expect_buffer(&r, 3, 0, 9, 3, 4, 2, NONE);

    aplan_tflite_tensor_info t = tensor_ok(f.data, f.size, 0, 0);
    expect_model_text(t.name, &f, "s0t0.name", "input", 5);
    assert_int_equal(t.type, T_INT8);
    assert_string_equal(t.type_name, "INT8");
    expect_shape(&t, shape_1x4, 2);
    assert_int_equal(t.elements, 4);
    assert_true(t.has_size);
    assert_int_equal(t.size, 4);
    assert_int_equal(t.buffer, 0);
    assert_false(t.constant);
    assert_false(t.is_variable);

    t = tensor_ok(f.data, f.size, 0, 1); /* the rank above APLAN_TFLITE_MAX_RANK: the first 8 entries, flagged */
    expect_model_text(t.name, &f, "s0t1.name", "MobilenetV1/MobilenetV1/Conv2d_9_pointwise/Relu6", 48);
    assert_string_equal(t.type_name, "FLOAT32");
    expect_shape(&t, shape_rank9, 9);
    assert_true(t.shape_truncated);
    assert_int_equal(t.elements, 6);
    assert_int_equal(t.size, 24);

    t = tensor_ok(f.data, f.size, 0, 2); /* no name field, no shape field */
    expect_text(t.name, NULL, 0);
    assert_string_equal(t.type_name, "INT16");
    expect_shape(&t, NULL, 0);
    assert_int_equal(t.elements, 1);
    assert_int_equal(t.size, 2);

    t = tensor_ok(f.data, f.size, 0, 3); /* an empty name is present: a pointer, 0 bytes */
    expect_model_text(t.name, &f, "s0t3.name", "", 0);
    expect_shape(&t, shape_0, 1);
    assert_int_equal(t.elements, 0);
    assert_true(t.has_size);
    assert_int_equal(t.size, 0);

    t = tensor_ok(f.data, f.size, 0, 4); /* invalid UTF-8 and a NUL: the bytes as they are */
    expect_model_text(t.name, &f, "s0t4.name", bad_utf8, 7);
    assert_int_equal(t.type, T_STRING);
    assert_string_equal(t.type_name, "STRING");
    assert_false(t.has_size);
    assert_int_equal(t.size, 0);
    assert_int_equal(t.elements, 2);
    assert_int_equal(t.buffer, 1);
    assert_true(t.constant);

    t = tensor_ok(f.data, f.size, 0, 5);
    expect_model_text(t.name, &f, "s0t5.name", "state", 5);
    assert_string_equal(t.type_name, "INT32");
    expect_shape(&t, shape_22, 2);
    assert_int_equal(t.size, 16);
    assert_true(t.is_variable);
    assert_false(t.constant);

    t = tensor_ok(f.data, f.size, 0, 6);
    assert_int_equal(t.type, 20);
    assert_string_equal(t.type_name, "UINT4");
    assert_false(t.has_size);
    assert_int_equal(t.elements, 3);

    t = tensor_ok(f.data, f.size, 0, 7);
    expect_text(t.name, NULL, 0);
    assert_int_equal(t.type, 23);
    assert_null(t.type_name);
    assert_false(t.has_size);

    t = tensor_ok(f.data, f.size, 0, 8);
    assert_string_equal(t.type_name, "FLOAT64");
    assert_int_equal(t.elements, UINT64_C(1) << 63);
    assert_false(t.has_size); /* x 8 bytes passes 2^64 */
    assert_int_equal(t.size, 0);

    t = tensor_ok(f.data, f.size, 0, 9);
    expect_model_text(t.name, &f, "s0t9.name", "out", 3);

    /* Every planned tensor's size is its buffer's. */
    for (size_t i = 0; i < r.count; i++) {
        t = tensor_ok(f.data, f.size, r.ids[i].subgraph, r.ids[i].tensor);
        assert_true(t.has_size);
        assert_int_equal(t.size, r.buffers[i].size);
    }
    free_readout(&r);
    tw_free(&f);
}

static void test_tflite_subgraph_and_operator_facts(void **state) {
    (void)state;
    tw_file f = names_model();
    aplan_tflite_subgraph_info g;
    aplan_format_error e;
    memset(&g, 0xAB, sizeof g);
    assert_int_equal(aplan_tflite_subgraph(f.data, f.size, 0, &g, &e), APLAN_OK);
    expect_model_text(g.name, &f, "s0.name", "main", 4);
    assert_int_equal(g.tensor_count, COUNT(names_tensors));
    assert_int_equal(g.operator_count, 2);
    assert_ptr_equal(g.inputs.data, f.data + tw_pos(&f, "s0.inputs"));
    assert_int_equal(g.inputs.count, 1);
    assert_int_equal(aplan_tflite_index_at(g.inputs, 0), 0);
    assert_ptr_equal(g.outputs.data, f.data + tw_pos(&f, "s0.outputs"));
    assert_int_equal(g.outputs.count, 1);
    assert_int_equal(aplan_tflite_index_at(g.outputs, 0), 9);
    assert_int_equal(g.name_error, APLAN_OK);
    assert_int_equal(g.reserved[0] | g.reserved[1] | g.reserved[2], 0);

    aplan_tflite_operator_info o;
    memset(&o, 0xAB, sizeof o);
    assert_int_equal(aplan_tflite_operator(f.data, f.size, 0, 0, &o, &e), APLAN_OK);
    expect_text(o.name, "ADD", 3);
    assert_int_equal(o.name.data[3], '\0'); /* static names are NUL-terminated too */
    assert_int_equal(o.builtin_code, 0);
    assert_int_equal(o.opcode_index, 0);
    assert_false(o.custom);
    assert_ptr_equal(o.inputs.data, f.data + tw_pos(&f, "s0o0.inputs"));
    assert_int_equal(o.inputs.count, 3);
    assert_int_equal(aplan_tflite_index_at(o.inputs, 0), 0);
    assert_int_equal(aplan_tflite_index_at(o.inputs, 1), -1); /* an absent optional input */
    assert_int_equal(aplan_tflite_index_at(o.inputs, 2), 5);
    assert_int_equal(o.outputs.count, 1);
    assert_int_equal(aplan_tflite_index_at(o.outputs, 0), 1);
    assert_int_equal(o.calls[0], -1);
    assert_int_equal(o.calls[1], -1);
    assert_int_equal(o.reserved[0] | o.reserved[1] | o.reserved[2] | o.reserved[3], 0);

    assert_int_equal(aplan_tflite_operator(f.data, f.size, 0, 1, &o, &e), APLAN_OK);
    expect_model_text(o.name, &f, "opcode1.custom_code", "MyCustomOp", 10);
    assert_int_equal(o.builtin_code, 32);
    assert_int_equal(o.opcode_index, 1);
    assert_true(o.custom);
    assert_int_equal(o.inputs.count, 3);
    assert_int_equal(aplan_tflite_index_at(o.inputs, 2), 4);
    assert_int_equal(aplan_tflite_index_at(o.outputs, 0), 9);
    tw_free(&f);

    /* Control flow: the subgraphs an operator walks, in walk order. */
    f = control_flow_model((tw_opcode){119, 119}, OPT_WHILE, 2, 1, 2);
    assert_int_equal(aplan_tflite_operator(f.data, f.size, 0, 0, &o, &e), APLAN_OK);
    expect_text(o.name, "WHILE", 5);
    assert_int_equal(o.calls[0], 2);
    assert_int_equal(o.calls[1], 1);
    assert_int_equal(aplan_tflite_subgraph(f.data, f.size, 2, &g, &e), APLAN_OK);
    expect_text(g.name, NULL, 0); /* no name field */
    assert_int_equal(g.operator_count, 1);
    tw_free(&f);

    /* CUSTOM without a custom_code, and with an empty one: "CUSTOM". An unknown code has no name. A negative one
     * (both fields below 0: the larger counts) neither. */
    static const tw_opcode codes[] = {{32, 32}, {32, 32}, {127, 210}, {-3, -5}};
    static const tw_op ops[] = {{0, NULL, 0, NULL, 0, 0, {0, 0}, 0}, {1, NULL, 0, NULL, 0, 0, {0, 0}, 0},
                                {2, NULL, 0, NULL, 0, 0, {0, 0}, 0}, {3, NULL, 0, NULL, 0, 0, {0, 0}, 0}};
    static const tw_tensor one[] = {{shape_4, 1, T_FLOAT32, 0, false}};
    static const tw_subgraph sg[] = {{one, 1, NULL, 0, NULL, 0, ops, 4}};
    static const tw_string empty_code[] = {{0, 1, "", 0}};
    tw_model m = {3, codes, 4, sg, 1, buffers_empty, 1, NULL, 0};
    tw_extra x;
    memset(&x, 0, sizeof x);
    x.custom_codes = empty_code;
    x.n_custom_codes = 1;
    f = tw_build_ex(&m, &x);
    for (uint32_t i = 0; i < 2; i++) {
        assert_int_equal(aplan_tflite_operator(f.data, f.size, 0, i, &o, &e), APLAN_OK);
        expect_text(o.name, "CUSTOM", 6);
        assert_true(o.custom);
    }
    assert_int_equal(aplan_tflite_operator(f.data, f.size, 0, 2, &o, &e), APLAN_OK);
    expect_text(o.name, NULL, 0);
    assert_int_equal(o.builtin_code, 210);
    assert_int_equal(aplan_tflite_operator(f.data, f.size, 0, 3, &o, &e), APLAN_OK);
    expect_text(o.name, NULL, 0);
    assert_int_equal(o.builtin_code, -3);
    assert_false(o.custom);
    tw_free(&f);
}

/* Steps with malloc'd scratch: the size query, then the fill; the result owns the array. */
typedef struct step_list {
    aplan_status status;
    aplan_format_error error;
    aplan_tflite_step *steps;
    size_t count;
} step_list;

static step_list read_steps(const uint8_t *data, size_t size) {
    step_list l;
    memset(&l, 0, sizeof l);
    aplan_tflite_info info;
    l.status = aplan_tflite_query(data, size, &info, &l.error);
    if (l.status != APLAN_OK) return l;
    void *scratch = info.scratch_size ? aligned_alloc(APLAN_SCRATCH_ALIGN, (info.scratch_size + 7u) & ~(size_t)7u)
                                      : NULL;
    l.status = aplan_tflite_steps(data, size, scratch, info.scratch_size, NULL, 0, &l.count, &l.error);
    if (l.status == APLAN_OK) {
        size_t n = l.count;
        l.steps = calloc(n, sizeof *l.steps);
        assert_non_null(l.steps);
        l.status = aplan_tflite_steps(data, size, scratch, info.scratch_size, l.steps, n, &l.count, &l.error);
        assert_int_equal(l.count, n); /* the fill counts what the size query counted */
    }
    free(scratch);
    if (l.status != APLAN_OK) {
        free(l.steps);
        l.steps = NULL;
    }
    return l;
}

#define NO APLAN_TFLITE_NONE

/* Assert step k: kind, the operator (subgraph, op), the subgraph entered, depth, code and name (NULL: none). */
static void expect_step(const step_list *l, size_t k, uint32_t kind, uint32_t sg, uint32_t op, uint32_t entered,
                        uint32_t depth, int32_t code, const char *name) {
    assert_true(k < l->count);
    const aplan_tflite_step *s = &l->steps[k];
    if (s->kind != kind || s->subgraph != sg || s->op != op || s->entered != entered || s->depth != depth ||
        s->builtin_code != code) {
        print_error("step %zu: kind %u s%u op %u entered %u depth %u code %d\n", k, s->kind, s->subgraph, s->op,
                    s->entered, s->depth, s->builtin_code);
    }
    assert_int_equal(s->kind, kind);
    assert_int_equal(s->subgraph, sg);
    assert_int_equal(s->op, op);
    assert_int_equal(s->entered, entered);
    assert_int_equal(s->depth, depth);
    assert_int_equal(s->builtin_code, code);
    expect_text(s->name, name, name ? strlen(name) : 0);
}

/* Subgraph 0: op0 ADD t0 -> t1; op1 IF(then 1, else 2) t1 -> t2; op2 WHILE(cond 3, body 4) t2 -> t3; op3
 * CALL_ONCE(init 5); op4 the custom "MyOp" t3 -> t4. Subgraphs 1-3: u0 -ADD-> u1. Subgraph 4 (the body): u0 -MUL->
 * u1, then CALL_ONCE(5): two levels down. Subgraph 5: () -ADD-> w0. */
static tw_file steps_model(void) {
    static const tw_opcode codes[] = {{0, 0}, {118, 118}, {119, 119}, {127, 129}, {32, 32}, {18, 18}};
    static const int32_t idx_3[] = {3};
    static const int32_t idx_4[] = {4};
    static const tw_tensor main_t[] = {{shape_4, 1, T_FLOAT32, 0, false}, {shape_4, 1, T_FLOAT32, 0, false},
                                       {shape_4, 1, T_FLOAT32, 0, false}, {shape_4, 1, T_FLOAT32, 0, false},
                                       {shape_4, 1, T_FLOAT32, 0, false}};
    static const tw_op main_ops[] = {
        {0, idx_0, 1, idx_1, 1, 0, {0, 0}, 0},           {1, idx_1, 1, idx_2, 1, OPT_IF, {1, 2}, 2},
        {2, idx_2, 1, idx_3, 1, OPT_WHILE, {3, 4}, 2},   {3, NULL, 0, NULL, 0, OPT_CALL_ONCE, {5, 0}, 1},
        {4, idx_3, 1, idx_4, 1, 0, {0, 0}, 0}};
    static const tw_op body_ops[] = {{5, idx_0, 1, idx_1, 1, 0, {0, 0}, 0},
                                     {3, NULL, 0, NULL, 0, OPT_CALL_ONCE, {5, 0}, 1}};
    static const tw_tensor init_t[] = {{shape_2, 1, T_FLOAT32, 0, false}};
    static const tw_op init_ops[] = {{0, NULL, 0, idx_0, 1, 0, {0, 0}, 0}};
    static const tw_subgraph sgs[] = {
        {main_t, 5, idx_0, 1, idx_4, 1, main_ops, 5},           {cf_sub_tensors, 2, idx_0, 1, idx_1, 1, cf_sub_ops, 1},
        {cf_sub_tensors, 2, idx_0, 1, idx_1, 1, cf_sub_ops, 1}, {cf_sub_tensors, 2, idx_0, 1, idx_1, 1, cf_sub_ops, 1},
        {cf_sub_tensors, 2, idx_0, 1, idx_1, 1, body_ops, 2},   {init_t, 1, NULL, 0, idx_0, 1, init_ops, 1}};
    static const tw_string custom[] = {{0, 4, "MyOp", 0}};
    tw_model m = {3, codes, COUNT(codes), sgs, COUNT(sgs), buffers_empty, 1, NULL, 0};
    tw_extra x;
    memset(&x, 0, sizeof x);
    x.custom_codes = custom;
    x.n_custom_codes = 1;
    return tw_build_ex(&m, &x);
}

static void test_tflite_steps_name_the_operators(void **state) {
    (void)state;
    tw_file f = steps_model();
    step_list l = read_steps(f.data, f.size);
    assert_int_equal(l.status, APLAN_OK);
    assert_int_equal(l.count, 20);
    expect_step(&l, 0, APLAN_TFLITE_STEP_START, NO, NO, NO, 0, -1, NULL);
    expect_step(&l, 1, APLAN_TFLITE_STEP_ENTRY, NO, NO, 0, 0, -1, NULL);
    expect_step(&l, 2, APLAN_TFLITE_STEP_OPERATOR, 0, 0, NO, 0, 0, "ADD");
    expect_step(&l, 3, APLAN_TFLITE_STEP_OPERATOR, 0, 1, NO, 0, 118, "IF");
    expect_step(&l, 4, APLAN_TFLITE_STEP_ENTRY, 0, 1, 1, 1, 118, "IF");
    expect_step(&l, 5, APLAN_TFLITE_STEP_OPERATOR, 1, 0, NO, 1, 0, "ADD");
    expect_step(&l, 6, APLAN_TFLITE_STEP_ENTRY, 0, 1, 2, 1, 118, "IF");
    expect_step(&l, 7, APLAN_TFLITE_STEP_OPERATOR, 2, 0, NO, 1, 0, "ADD");
    expect_step(&l, 8, APLAN_TFLITE_STEP_OPERATOR, 0, 2, NO, 0, 119, "WHILE");
    expect_step(&l, 9, APLAN_TFLITE_STEP_ENTRY, 0, 2, 3, 1, 119, "WHILE");
    expect_step(&l, 10, APLAN_TFLITE_STEP_OPERATOR, 3, 0, NO, 1, 0, "ADD");
    expect_step(&l, 11, APLAN_TFLITE_STEP_ENTRY, 0, 2, 4, 1, 119, "WHILE");
    expect_step(&l, 12, APLAN_TFLITE_STEP_OPERATOR, 4, 0, NO, 1, 18, "MUL");
    expect_step(&l, 13, APLAN_TFLITE_STEP_OPERATOR, 4, 1, NO, 1, 129, "CALL_ONCE");
    expect_step(&l, 14, APLAN_TFLITE_STEP_ENTRY, 4, 1, 5, 2, 129, "CALL_ONCE");
    expect_step(&l, 15, APLAN_TFLITE_STEP_OPERATOR, 5, 0, NO, 2, 0, "ADD");
    expect_step(&l, 16, APLAN_TFLITE_STEP_OPERATOR, 0, 3, NO, 0, 129, "CALL_ONCE");
    expect_step(&l, 17, APLAN_TFLITE_STEP_ENTRY, 0, 3, 5, 1, 129, "CALL_ONCE");
    expect_step(&l, 18, APLAN_TFLITE_STEP_OPERATOR, 5, 0, NO, 1, 0, "ADD");
    expect_step(&l, 19, APLAN_TFLITE_STEP_OPERATOR, 0, 4, NO, 0, 32, "MyOp");
    assert_ptr_equal(l.steps[19].name.data, (const char *)f.data + tw_pos(&f, "opcode4.custom_code"));

    /* The buffers' steps are these: every lifetime lies within the walk, subgraph 0's output lives to its end, and
     * the tensors each step creates start there. */
    readout r = read_file(&f);
    assert_int_equal(r.status, APLAN_OK);
    uint64_t highest = 0;
    for (size_t i = 0; i < r.count; i++) highest = r.buffers[i].upper > highest ? r.buffers[i].upper : highest;
    assert_int_equal(highest, l.count);
    expect_buffer(&r, 4, 0, 4, 19, 20, 16, NONE); /* s0t4: written by the custom op at step 19 */
    expect_buffer(&r, 5, 1, 0, 4, 6, 16, NONE);   /* s1t0: subgraph 1's input, created at its ENTRY, step 4 */
    expect_buffer(&r, 13, 5, 0, 18, 19, 8, NONE); /* s5t0: written at step 18, the second CALL_ONCE's walk
                                                      overwriting the first's (step 15), as TFLM does */
    free_readout(&r);

    /* A short array: the first entries, the count, and OUTPUT_TOO_SMALL. */
    aplan_tflite_info info;
    assert_int_equal(aplan_tflite_query(f.data, f.size, &info, NULL), APLAN_OK);
    void *scratch = aligned_alloc(APLAN_SCRATCH_ALIGN, (info.scratch_size + 7u) & ~(size_t)7u);
    aplan_tflite_step few[6];
    memset(few, 0xAB, sizeof few);
    size_t count = 0;
    aplan_format_error e;
    assert_int_equal(aplan_tflite_steps(f.data, f.size, scratch, info.scratch_size, few, 5, &count, &e),
                     APLAN_E_OUTPUT_TOO_SMALL);
    assert_int_equal(count, 20);
    assert_int_equal(e.status, APLAN_E_OUTPUT_TOO_SMALL);
    assert_int_equal(e.byte_offset, 0);
    assert_string_equal(e.message, "the walk has 20 steps, the output holds 5");
    assert_memory_equal(few, l.steps, 5 * sizeof few[0]);
    assert_int_equal(few[5].kind, 0xABABABABu); /* nothing past the capacity */
    free(scratch);
    free(l.steps);
    tw_free(&f);
}

/* Every builtin code 0..209 by name, one operator each: the table has no gap and each name is the schema's. */
static void test_tflite_builtin_names_table(void **state) {
    (void)state;
    enum { N = 212 };
    static tw_opcode codes[N];
    static tw_op ops[N];
    static const tw_tensor one[] = {{shape_4, 1, T_FLOAT32, 0, false}};
    for (int32_t c = 0; c < N; c++) {
        codes[c] = c < N - 1 ? (tw_opcode){(int8_t)(c < 127 ? c : 127), c} : (tw_opcode){-3, -5};
        uint8_t opt = c == 118 ? OPT_IF : c == 119 ? OPT_WHILE : c == 129 ? OPT_CALL_ONCE : 0;
        ops[c] = (tw_op){(uint32_t)c, NULL, 0, NULL, 0, opt, {-1, -1}, opt ? 2u : 0u};
    }
    static tw_subgraph sg[1];
    sg[0] = (tw_subgraph){one, 1, NULL, 0, NULL, 0, ops, N};
    tw_model m = {3, codes, N, sg, 1, buffers_empty, 1, NULL, 0};
    tw_file f = tw_build(&m);
    step_list l = read_steps(f.data, f.size);
    assert_int_equal(l.status, APLAN_OK);
    assert_int_equal(l.count, N + 2);
    static const struct {
        int32_t code;
        const char *name;
    } known[] = {{0, "ADD"},  {3, "CONV_2D"}, {4, "DEPTHWISE_CONV_2D"}, {20, "RELU_N1_TO_1"}, {32, "CUSTOM"},
                 {51, "DELEGATE"}, {118, "IF"}, {119, "WHILE"}, {127, "PLACEHOLDER_FOR_GREATER_OP_CODES"},
                 {129, "CALL_ONCE"}, {133, "IMAG"}, {161, "RIGHT_SHIFT"}, {162, "STABLEHLO_LOGISTIC"},
                 {205, "REDUCE_WINDOW"}, {206, "STABLEHLO_COMPOSITE"}, {209, "STABLEHLO_CASE"}};
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++) {
        const aplan_tflite_step *s = &l.steps[(size_t)known[k].code + 2u];
        assert_int_equal(s->builtin_code, known[k].code);
        expect_text(s->name, known[k].name, strlen(known[k].name));
    }
    /* One block of NUL-terminated names in code order: each starts right after the one before, so no entry is
     * missing, empty or misplaced between the pinned ones. */
    for (int32_t c = 0; c < 210; c++) {
        const aplan_tflite_text t = l.steps[c + 2].name;
        assert_int_equal(l.steps[c + 2].builtin_code, c);
        assert_non_null(t.data);
        assert_true(t.size > 0);
        assert_int_equal(t.data[t.size], '\0');
        for (size_t i = 0; i < t.size; i++) {
            const char ch = t.data[i];
            assert_true((ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_');
        }
        if (c > 0) {
            const aplan_tflite_text p = l.steps[c + 1].name;
            assert_ptr_equal(t.data, p.data + p.size + 1);
        }
    }
    expect_step(&l, 212, APLAN_TFLITE_STEP_OPERATOR, 0, 210, NO, 0, 210, NULL); /* newer than the table */
    expect_step(&l, 213, APLAN_TFLITE_STEP_OPERATOR, 0, 211, NO, 0, -3, NULL);  /* negative */
    free(l.steps);
    tw_free(&f);
}

/* The call on f fails with status at byte offset, saying message. */
static void expect_call_error(aplan_status got, const aplan_format_error *e, aplan_status status, uint64_t offset,
                              const char *message) {
    if (got != status || e->byte_offset != offset || strcmp(e->message, message) != 0) {
        print_error("got %s at %llu: \"%s\"\n", aplan_status_str(got), (unsigned long long)e->byte_offset,
                    e->message);
    }
    assert_int_equal(got, status);
    assert_int_equal(e->status, status);
    assert_int_equal(e->byte_offset, offset);
    assert_string_equal(e->message, message);
}

/* Set the length word of the string marked key (the 4 bytes before it). */
static void set_string_length(tw_file *f, const char *key, uint32_t len) {
    set_le32(f->data + tw_pos(f, key) - 4, len);
}

static void test_tflite_name_and_lookup_errors(void **state) {
    (void)state;
    tw_file f = names_model();
    aplan_tflite_tensor_info t;
    aplan_tflite_operator_info o;
    aplan_tflite_subgraph_info g;
    aplan_format_error e;
    const aplan_tflite_id id = {0, 1};

    /* Arguments. */
    expect_call_error(aplan_tflite_tensor(NULL, f.size, id, &t, &e), &e, APLAN_E_INVALID_ARG, 0, "model is NULL");
    expect_call_error(aplan_tflite_tensor(f.data, f.size, id, NULL, &e), &e, APLAN_E_INVALID_ARG, 0, "info is NULL");
    expect_call_error(aplan_tflite_operator(NULL, f.size, 0, 0, &o, &e), &e, APLAN_E_INVALID_ARG, 0, "model is NULL");
    expect_call_error(aplan_tflite_operator(f.data, f.size, 0, 0, NULL, &e), &e, APLAN_E_INVALID_ARG, 0,
                      "info is NULL");
    expect_call_error(aplan_tflite_subgraph(NULL, f.size, 0, &g, &e), &e, APLAN_E_INVALID_ARG, 0, "model is NULL");
    expect_call_error(aplan_tflite_subgraph(f.data, f.size, 0, NULL, &e), &e, APLAN_E_INVALID_ARG, 0, "info is NULL");
    memset(&t, 0xAB, sizeof t);
    expect_call_error(aplan_tflite_tensor(f.data, f.size, (aplan_tflite_id){1, 0}, &t, &e), &e, APLAN_E_INVALID_ARG,
                      0, "id s1t0: the model has 1 subgraphs");
    assert_null(t.name.data); /* zeroed on failure */
    assert_int_equal(t.size, 0);
    expect_call_error(aplan_tflite_tensor(f.data, f.size, (aplan_tflite_id){0, 10}, &t, &e), &e,
                      APLAN_E_INVALID_ARG, 0, "id s0t10: the subgraph has 10 tensors");
    expect_call_error(aplan_tflite_operator(f.data, f.size, 1, 0, &o, &e), &e, APLAN_E_INVALID_ARG, 0,
                      "subgraph 1: the model has 1 subgraphs");
    expect_call_error(aplan_tflite_operator(f.data, f.size, 0, 2, &o, &e), &e, APLAN_E_INVALID_ARG, 0,
                      "operator 2 of subgraph 0: the subgraph has 2 operators");
    expect_call_error(aplan_tflite_subgraph(f.data, f.size, UINT32_MAX, &g, &e), &e, APLAN_E_INVALID_ARG, 0,
                      "subgraph 4294967295: the model has 1 subgraphs");
    /* The error argument is optional. */
    assert_int_equal(aplan_tflite_tensor(f.data, f.size, (aplan_tflite_id){0, 10}, &t, NULL), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_tflite_tensor(f.data, f.size, id, &t, NULL), APLAN_OK);
    assert_int_equal(aplan_tflite_operator(f.data, f.size, 0, 9, &o, NULL), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_tflite_operator(f.data, f.size, 0, 1, &o, NULL), APLAN_OK);
    assert_int_equal(aplan_tflite_subgraph(f.data, f.size, 9, &g, NULL), APLAN_E_INVALID_ARG);
    assert_int_equal(aplan_tflite_subgraph(f.data, f.size, 0, &g, NULL), APLAN_OK);

    /* The header and the Model, as the query says them. */
    expect_call_error(aplan_tflite_tensor(f.data, 7, id, &t, &e), &e, APLAN_E_FORMAT_TRUNCATED, 7,
                      "header: the input has 7 bytes, a flatbuffer needs at least 8");
    expect_call_error(aplan_tflite_operator(f.data, 7, 0, 0, &o, &e), &e, APLAN_E_FORMAT_TRUNCATED, 7,
                      "header: the input has 7 bytes, a flatbuffer needs at least 8");
    expect_call_error(aplan_tflite_subgraph(f.data, 7, 0, &g, &e), &e, APLAN_E_FORMAT_TRUNCATED, 7,
                      "header: the input has 7 bytes, a flatbuffer needs at least 8");

    /* Malformed strings: the query and the read never look at them. A tensor's or subgraph's name reads as absent,
     * with the status in name_error, and every other fact as usual (TFLM never reads names, so such a model runs);
     * an operator's custom code, which decides what runs, fails its lookup, naming the field. */
    set_string_length(&f, "s0t1.name", 0x10000000u);
    set_string_length(&f, "opcode1.custom_code", 0x10000001u);
    set_string_length(&f, "s0.name", 0x10000002u);
    readout r = read_file(&f);
    assert_int_equal(r.status, APLAN_OK);
    free_readout(&r);
    aplan_tflite_tensor_info whole;
    assert_int_equal(aplan_tflite_tensor(f.data, f.size, (aplan_tflite_id){0, 0}, &whole, &e), APLAN_OK);
    assert_int_equal(aplan_tflite_tensor(f.data, f.size, id, &t, &e), APLAN_OK);
    assert_int_equal(t.name_error, APLAN_E_FORMAT_TRUNCATED);
    assert_null(t.name.data);
    assert_int_equal(t.name.size, 0);
    assert_string_equal(e.message, "");
    assert_true(t.has_size && t.size > 0 && t.type_name != NULL); /* the rest is read */
    assert_int_equal(aplan_tflite_tensor(f.data, f.size, (aplan_tflite_id){0, 0}, &t, &e), APLAN_OK); /* others fine */
    assert_int_equal(t.name_error, APLAN_OK);
    assert_int_equal(t.name.size, whole.name.size);
    expect_call_error(aplan_tflite_operator(f.data, f.size, 0, 1, &o, &e), &e, APLAN_E_FORMAT_TRUNCATED,
                      tw_pos(&f, "opcode1.custom_code") - 4,
                      "subgraph 0 operator 1: custom_code: vector of 268435457 elements runs past the end");
    assert_int_equal(aplan_tflite_operator(f.data, f.size, 0, 0, &o, &e), APLAN_OK);
    assert_int_equal(aplan_tflite_subgraph(f.data, f.size, 0, &g, &e), APLAN_OK);
    assert_int_equal(g.name_error, APLAN_E_FORMAT_TRUNCATED);
    assert_null(g.name.data);
    assert_true(g.tensor_count > 0 && g.operator_count > 0 && g.inputs.count > 0);
    step_list l = read_steps(f.data, f.size); /* the walk visits the custom operator: the size query fails too */
    expect_call_error(l.status, &l.error, APLAN_E_FORMAT_TRUNCATED, tw_pos(&f, "opcode1.custom_code") - 4,
                      "subgraph 0 operator 1: custom_code: vector of 268435457 elements runs past the end");
    assert_int_equal(l.count, 0);
    tw_free(&f);

    /* A name's offset pointing past the end. */
    f = names_model();
    size_t t1 = tw_pos(&f, "s0t1");
    uint32_t so = le32(f.data + t1);
    size_t vt = (size_t)((int64_t)t1 - (int32_t)so);
    size_t field = t1 + (size_t)(f.data[vt + 4 + 2 * 3] | f.data[vt + 5 + 2 * 3] << 8); /* the name uoffset */
    set_le32(f.data + field, (uint32_t)(f.size - field));
    assert_int_equal(aplan_tflite_tensor(f.data, f.size, id, &t, &e), APLAN_OK);
    assert_int_equal(t.name_error, APLAN_E_FORMAT_BAD_OFFSET);
    assert_int_equal(t.name.size, 0);
    tw_free(&f);

    /* On a model the query would reject, each lookup reports what the query reports for the part it reads. */
    static const int32_t bad_shape[] = {2, 4, -3};
    tw_tensor bad_t[3];
    memcpy(bad_t, chain_tensors, sizeof bad_t);
    bad_t[1] = (tw_tensor){bad_shape, 3, T_INT8, 0, false};
    f = chain_with(bad_t, chain_ops);
    expect_call_error(aplan_tflite_tensor(f.data, f.size, id, &t, &e), &e, APLAN_E_FORMAT_BAD_VALUE,
                      tw_pos(&f, "s0t1.shape") + 8, "subgraph 0 tensor 1: shape[2] is -3");
    assert_int_equal(aplan_tflite_tensor(f.data, f.size, (aplan_tflite_id){0, 0}, &t, &e), APLAN_OK);
    tw_free(&f);
    static const int32_t bad_in[] = {1, 3};
    tw_op bad_ops[2];
    memcpy(bad_ops, chain_ops, sizeof bad_ops);
    bad_ops[1].inputs = bad_in;
    bad_ops[1].n_inputs = 2;
    f = chain_with(chain_tensors, bad_ops);
    expect_call_error(aplan_tflite_operator(f.data, f.size, 0, 1, &o, &e), &e, APLAN_E_FORMAT_BAD_VALUE,
                      tw_pos(&f, "s0o1.inputs") + 4,
                      "subgraph 0 operator 1: inputs[1] is 3, not a tensor index (or -1) below 3");
    tw_free(&f);
    static const int32_t out7[] = {7};
    static tw_subgraph sg[1];
    sg[0] = (tw_subgraph){chain_tensors, 3, idx_0, 1, out7, 1, chain_ops, 2};
    tw_model m = chain_model;
    m.subgraphs = sg;
    f = tw_build(&m);
    expect_call_error(aplan_tflite_subgraph(f.data, f.size, 0, &g, &e), &e, APLAN_E_FORMAT_BAD_VALUE,
                      tw_pos(&f, "s0.outputs"), "subgraph 0: outputs[0] is 7, not a tensor index below 3");
    tw_free(&f);
}

static void test_tflite_steps_errors(void **state) {
    (void)state;
    tw_file f = steps_model();
    aplan_tflite_info info;
    assert_int_equal(aplan_tflite_query(f.data, f.size, &info, NULL), APLAN_OK);
    _Alignas(8) uint8_t scratch[256];
    assert_true(info.scratch_size <= sizeof scratch);
    aplan_tflite_step steps[24];
    size_t count = 99;
    aplan_format_error e;
    expect_call_error(aplan_tflite_steps(NULL, f.size, scratch, sizeof scratch, steps, 20, &count, &e), &e,
                      APLAN_E_INVALID_ARG, 0, "model is NULL");
    expect_call_error(aplan_tflite_steps(f.data, f.size, scratch, sizeof scratch, steps, 20, NULL, &e), &e,
                      APLAN_E_INVALID_ARG, 0, "count is NULL");
    expect_call_error(aplan_tflite_steps(f.data, f.size, scratch, sizeof scratch, NULL, 20, &count, &e), &e,
                      APLAN_E_INVALID_ARG, 0, "steps is NULL");
    expect_call_error(aplan_tflite_steps(f.data, f.size, scratch + 4, info.scratch_size, steps, 20, &count, &e), &e,
                      APLAN_E_SCRATCH_MISALIGNED, 0, "scratch is not APLAN_SCRATCH_ALIGN aligned");
    assert_int_equal(count, 0);
    expect_call_error(aplan_tflite_steps(f.data, f.size, scratch, info.scratch_size - 1, steps, 20, &count, &e), &e,
                      APLAN_E_SCRATCH_TOO_SMALL, 0, "scratch is smaller than the query's scratch_size");
    expect_call_error(aplan_tflite_steps(f.data, 7, scratch, sizeof scratch, steps, 20, &count, &e), &e,
                      APLAN_E_FORMAT_TRUNCATED, 7, "header: the input has 7 bytes, a flatbuffer needs at least 8");
    /* Exactly the scratch the query asks for, and no error argument. */
    assert_int_equal(aplan_tflite_steps(f.data, f.size, scratch, info.scratch_size, steps, 20, &count, NULL),
                     APLAN_OK);
    assert_int_equal(count, 20);
    /* Room to spare: the steps, and nothing written past them. */
    memset(steps, 0xAB, sizeof steps);
    assert_int_equal(aplan_tflite_steps(f.data, f.size, scratch, info.scratch_size, steps, 24, &count, &e), APLAN_OK);
    assert_int_equal(count, 20);
    assert_int_equal(e.status, APLAN_OK);
    assert_int_equal(steps[19].kind, APLAN_TFLITE_STEP_OPERATOR);
    assert_int_equal(steps[20].kind, 0xABABABABu);
    tw_free(&f);

    /* The walk's own failures, as aplan_tflite_read gives them. */
    f = control_flow_model((tw_opcode){0, 118}, OPT_IF, 1, 0, 2);
    step_list l = read_steps(f.data, f.size);
    expect_call_error(l.status, &l.error, APLAN_E_FORMAT_BAD_VALUE, tw_pos(&f, "s0.operators"),
                      "subgraph 0 operator 0: calls subgraph 0 while it runs (a call cycle)");
    tw_free(&f);
    f = nested_model(APLAN_TFLITE_MAX_NESTING + 2, 0);
    l = read_steps(f.data, f.size);
    char key[24];
    snprintf(key, sizeof key, "s%u.operators", APLAN_TFLITE_MAX_NESTING);
    expect_call_error(l.status, &l.error, APLAN_E_FORMAT_UNSUPPORTED, tw_pos(&f, key),
                      "subgraph 32 operator 0: control flow nests deeper than 32 calls");
    tw_free(&f);
    /* The deepest nesting allowed: steps at depth 32. */
    f = nested_model(APLAN_TFLITE_MAX_NESTING + 1, 0);
    l = read_steps(f.data, f.size);
    assert_int_equal(l.status, APLAN_OK);
    assert_int_equal(l.count, 2 * (APLAN_TFLITE_MAX_NESTING + 1) + 1);
    expect_step(&l, l.count - 1, APLAN_TFLITE_STEP_OPERATOR, APLAN_TFLITE_MAX_NESTING, 0, NO,
                APLAN_TFLITE_MAX_NESTING, 129, "CALL_ONCE");
    expect_step(&l, l.count - 2, APLAN_TFLITE_STEP_ENTRY, APLAN_TFLITE_MAX_NESTING - 1, 0, APLAN_TFLITE_MAX_NESTING,
                APLAN_TFLITE_MAX_NESTING, 129, "CALL_ONCE");
    free(l.steps);
    tw_free(&f);
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
/* Shared tables and control-flow fan-out: the work budget.                                                     */

/* A vector of n copies of v (malloc'd; the caller frees it). */
static int32_t *repeated(int32_t v, uint32_t n) {
    int32_t *a = malloc((n ? n : 1) * sizeof *a);
    assert_non_null(a);
    for (uint32_t i = 0; i < n; i++) a[i] = v;
    return a;
}

enum { HOSTILE_OP, HOSTILE_TENSOR, HOSTILE_SUBGRAPH, HOSTILE_METADATA, HOSTILE_FANOUT, HOSTILE_NESTING };

/* The hostile models, each a file of about 4 (k + l) bytes that costs a reader following every offset k * l work
 * (or, for the control flow ones, k^depth visits):
 *   HOSTILE_OP        one operator with l inputs and l outputs, listed k times in subgraph 0's operators;
 *   HOSTILE_TENSOR    one tensor of rank l (all 1), listed k times in subgraph 0's tensors;
 *   HOSTILE_SUBGRAPH  one subgraph listing one tensor l times, listed k times in Model.subgraphs (k * l tensors);
 *   HOSTILE_METADATA  l tensors (one shared table) and an offline plan for them, named by one metadata entry
 *                     listed k times (the plan checked k times);
 *   HOSTILE_FANOUT    l + 1 subgraphs: subgraph s < l lists k times one CALL_ONCE of subgraph s + 1 with 16
 *                     inputs, the last k times one ADD (k^l walk visits);
 *   HOSTILE_NESTING   l + 1 subgraphs: subgraph s < l holds k IF operators calling s + 1 as both branches, the last
 *                     one ADD ((2k)^l visits, distinct tables: sharing by calls alone). */
static tw_file hostile_model(int which, uint32_t k, uint32_t l) {
    static const tw_opcode codes[] = {{0, 0}, {0, 129}, {118, 118}};
    static const int32_t sixteen_zeros[16] = {0};
    int32_t *zeros = repeated(0, l);
    int32_t *ones = repeated(1, l);
    tw_tensor t0 = {shape_4, 1, T_FLOAT32, 0, false};
    tw_op add = {0, idx_0, 1, idx_0, 1, 0, {0, 0}, 0};
    tw_subgraph sg = {&t0, 1, idx_0, 1, idx_0, 1, &add, 1};
    tw_extra x;
    memset(&x, 0, sizeof x);
    tw_model m = {3, codes, 3, &sg, 1, buffers_empty, 1, NULL, 0};
    tw_buffer bufs[2] = {{NULL, 0, 0, 0}, {NULL, 0, 0, 0}};
    tw_metadata md = {"OfflineMemoryAllocation", 1};
    uint8_t *plan = NULL;
    tw_subgraph *sgs = NULL;
    tw_op *ops = NULL;
    switch (which) {
    case HOSTILE_OP:
        add = (tw_op){0, zeros, l, zeros, l, 0, {0, 0}, 0};
        sg.n_ops = k;
        x.share_ops = true;
        break;
    case HOSTILE_TENSOR:
        t0 = (tw_tensor){ones, l, T_FLOAT32, 0, false};
        sg.n_tensors = k;
        x.share_tensors = true;
        break;
    case HOSTILE_SUBGRAPH:
        sg.n_tensors = l;
        m.n_subgraphs = k;
        x.share_tensors = true;
        x.share_subgraphs = true;
        break;
    case HOSTILE_METADATA:
        sg.n_tensors = l;
        x.share_tensors = true;
        plan = malloc(12u + 4u * (size_t)l);
        assert_non_null(plan);
        memset(plan, 0xFF, 12u + 4u * (size_t)l); /* every offset -1 */
        memcpy(plan, (const uint8_t[]){0, 0, 0, 0, 1, 0, 0, 0, (uint8_t)l, (uint8_t)(l >> 8), (uint8_t)(l >> 16),
                                       (uint8_t)(l >> 24)}, 12);
        bufs[1] = (tw_buffer){plan, 12u + 4u * l, 0, 0};
        m.buffers = bufs;
        m.n_buffers = 2;
        m.metadata = &md;
        m.n_metadata = k;
        x.share_metadata = true;
        break;
    case HOSTILE_FANOUT:
    case HOSTILE_NESTING:
        sgs = calloc(l + 1u, sizeof *sgs);
        ops = calloc((size_t)(l + 1u) * k, sizeof *ops);
        assert_true(sgs != NULL && ops != NULL);
        for (uint32_t s = 0; s <= l; s++) {
            for (uint32_t i = 0; i < k; i++) {
                tw_op *o = &ops[(size_t)s * k + i];
                if (s == l) {
                    *o = add;
                } else if (which == HOSTILE_FANOUT) {
                    *o = (tw_op){1, sixteen_zeros, 16, NULL, 0, OPT_CALL_ONCE, {(int32_t)s + 1, 0}, 1};
                } else {
                    *o = (tw_op){2, idx_0, 1, NULL, 0, OPT_IF, {(int32_t)s + 1, (int32_t)s + 1}, 2};
                }
            }
            sgs[s] = (tw_subgraph){&t0, 1, idx_0, 1, NULL, 0, &ops[(size_t)s * k], which == HOSTILE_NESTING && s == l
                                                                                     ? 1u : k};
        }
        m.subgraphs = sgs;
        m.n_subgraphs = l + 1u;
        x.share_ops = which == HOSTILE_FANOUT;
        break;
    default:
        fail();
    }
    tw_file f = tw_build_ex(&m, &x);
    free(zeros);
    free(ones);
    free(plan);
    free(sgs);
    free(ops);
    return f;
}

static const char *const hostile_names[] = {"shared operator", "shared tensor", "shared subgraph",
                                            "shared metadata", "CALL_ONCE fan-out", "nested IF"};

/* k and l of the hostile fuzz seeds, small enough for libFuzzer's -max_len (fuzz/run.sh: 65536). */
static const uint32_t hostile_seed_kl[][2] = {{2000, 1500}, {3000, 3000}, {3000, 3000}, {2500, 2500}, {16, 6},
                                              {4, 32}};
static const char *const hostile_seed_files[] = {
    "seed-hostile-shared-operator.tflite", "seed-hostile-shared-tensor.tflite", "seed-hostile-shared-subgraph.tflite",
    "seed-hostile-shared-metadata.tflite", "seed-hostile-fanout.tflite",        "seed-hostile-nested-if.tflite"};

static double seconds_since(const struct timespec *t0) {
    struct timespec t1;
    timespec_get(&t1, TIME_UTC);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Query, read and steps on a hostile model: each either succeeds or fails with the budget's status and message, at
 * a byte inside the input; returns the read's status. The query's work is within the budget. Times are printed. */
static aplan_status expect_bounded(const tw_file *f, const char *what) {
    if (getenv("APLAN_DUMP_HOSTILE") != NULL) { /* a folder: keep the model, to time other builds on it */
        char path[4096];
        snprintf(path, sizeof path, "%s/%s-%zu.tflite", getenv("APLAN_DUMP_HOSTILE"), what, f->size);
        for (char *c = strrchr(path, '/'); *c != '\0'; c++) *c = *c == ' ' ? '-' : *c;
        FILE *out = fopen(path, "wb");
        assert_non_null(out);
        assert_int_equal(fwrite(f->data, 1, f->size, out), f->size);
        assert_int_equal(fclose(out), 0);
    }
    const uint64_t budget = (uint64_t)APLAN_TFLITE_WORK_PER_BYTE * f->size + APLAN_TFLITE_WORK_BASE;
    char tail[120];
    snprintf(tail, sizeof tail, "work budget of %llu units (%u per byte + %u) exceeded: shared tables or repeated calls",
             (unsigned long long)budget, APLAN_TFLITE_WORK_PER_BYTE, APLAN_TFLITE_WORK_BASE);
    struct timespec t0;
    timespec_get(&t0, TIME_UTC);
    readout r = read_model(f->data, f->size);
    const double read_s = seconds_since(&t0);
    timespec_get(&t0, TIME_UTC);
    step_list l = read_steps(f->data, f->size);
    const double steps_s = seconds_since(&t0);
    printf("%-18s %7zu bytes: read %-26s %.3f s, steps %-26s %.3f s, query work %u of %llu\n", what, f->size,
           aplan_status_str(r.status), read_s, aplan_status_str(l.status), steps_s, r.info.work,
           (unsigned long long)budget);
    if (r.status != APLAN_OK) {
        const size_t n = strlen(r.error.message);
        const size_t t = strlen(tail);
        if (r.status != APLAN_E_FORMAT_UNSUPPORTED || n < t || strcmp(r.error.message + n - t, tail) != 0) {
            print_error("%s: %s \"%s\"\n", what, aplan_status_str(r.status), r.error.message);
        }
        assert_int_equal(r.status, APLAN_E_FORMAT_UNSUPPORTED);
        assert_true(n >= t && strcmp(r.error.message + n - t, tail) == 0);
        assert_true(r.error.byte_offset < f->size);
    }
    /* the steps walk as the read does: the same outcome */
    assert_int_equal(l.status, r.status);
    if (l.status != APLAN_OK) assert_string_equal(l.error.message, r.error.message);
    assert_true(r.info.work <= budget);
    /* The times are printed, not asserted: a timed test fails on a loaded machine or under valgrind. The bound that
     * is asserted is the work one: a failing case stops at the budget (the message above), a passing one stays in it. */
    const aplan_status st = r.status;
    free_readout(&r);
    free(l.steps);
    return st;
}

static void test_tflite_shared_tables_cost_bounded_work(void **state) {
    (void)state;
    /* Files of 160 KB or less that a reader following every offset takes seconds to minutes over: 2 * 10^8 to
     * 4 * 10^8 entries (the subgraph case 4 * 10^8 tensors, and as many 8-byte scratch entries), 16^6 and 8^32
     * operator visits. */
    static const uint32_t kl[][2] = {{20000, 10000}, {20000, 20000}, {20000, 20000}, {13000, 13000}, {16, 6},
                                     {4, 32}};
    for (int which = HOSTILE_OP; which <= HOSTILE_NESTING; which++) {
        tw_file f = hostile_model(which, kl[which][0], kl[which][1]);
        assert_true(f.size < 200000);
        assert_int_equal(expect_bounded(&f, hostile_names[which]), APLAN_E_FORMAT_UNSUPPORTED);
        tw_free(&f);
    }
    /* The fuzz seeds (fuzz/corpus/tflite/seed-hostile-*): under 32 KB, still far over the budget. */
    for (int which = HOSTILE_OP; which <= HOSTILE_NESTING; which++) {
        tw_file f = hostile_model(which, hostile_seed_kl[which][0], hostile_seed_kl[which][1]);
        assert_true(f.size < 32768);
        assert_int_equal(expect_bounded(&f, hostile_names[which]), APLAN_E_FORMAT_UNSUPPORTED);
        tw_free(&f);
    }
    /* The same shapes, shared a little, are fine models: the budget is about repetition, not sharing. */
    for (int which = HOSTILE_OP; which <= HOSTILE_NESTING; which++) {
        tw_file f = hostile_model(which, 3, 4);
        assert_int_equal(expect_bounded(&f, hostile_names[which]), APLAN_OK);
        tw_free(&f);
    }
}

/* The tool's hostile models (tw_build_shared; tests/cli/hostile_test.sh runs every command on large ones), at fuzz
 * seed size: fine models for the reader, which shares what the file shares. */
static const struct shared_seed {
    tw_shared kind;
    uint32_t k, l;
    char fill;
    const char *file;
} shared_seeds[] = {{TW_SHARED_NAME, 2000, 16000, 0, "seed-hostile-shared-name.tflite"},
                    {TW_SHARED_NAME, 2000, 8000, 1, "seed-hostile-shared-control.tflite"},
                    {TW_SHARED_FANIN, 3000, 16000, 0, "seed-hostile-fanin.tflite"},
                    {TW_SHARED_RANK, 3000, 3000, 0, "seed-hostile-rank.tflite"},
                    {TW_SHARED_CUSTOM, 2000, 16000, 0, "seed-hostile-shared-custom.tflite"},
                    {TW_SHARED_CONCAT, 4000, 4000, 0, "seed-hostile-concat-rank.tflite"}};

/* What the lookups give for a shared string or shape is the file's one copy: every reference returns the same
 * position (aplan_tflite_text.data), which tells a caller that works once per distinct string (the tool) they are
 * one string; a shape of rank l is reported with its first entries and shape_truncated. */
static void test_tflite_shared_names_one_position(void **state) {
    (void)state;
    for (size_t j = 0; j < sizeof shared_seeds / sizeof shared_seeds[0]; j++) {
        const struct shared_seed *c = &shared_seeds[j];
        tw_file f = tw_build_shared(c->kind, c->k, c->l, c->fill);
        assert_true(f.size < 32768);
        assert_int_equal(expect_bounded(&f, c->file), APLAN_OK);
        aplan_tflite_tensor_info first, last;
        aplan_tflite_operator_info op0, op1;
        switch (c->kind) {
        case TW_SHARED_NAME:
            assert_int_equal(aplan_tflite_tensor(f.data, f.size, (aplan_tflite_id){0, 0}, &first, NULL), APLAN_OK);
            assert_int_equal(aplan_tflite_tensor(f.data, f.size, (aplan_tflite_id){0, c->k - 1u}, &last, NULL),
                             APLAN_OK);
            assert_ptr_equal(first.name.data, last.name.data);
            assert_int_equal(first.name.size, c->l);
            assert_ptr_equal(first.name.data, f.data + tw_pos(&f, "s0t0.name"));
            assert_int_equal((unsigned char)first.name.data[c->l - 1u], c->fill != 0 ? (unsigned char)c->fill
                                                                                      : 'a' + (c->l - 1u) % 26u);
            break;
        case TW_SHARED_FANIN:
        case TW_SHARED_RANK:
        case TW_SHARED_CONCAT: {
            const bool rank = c->kind != TW_SHARED_FANIN;
            assert_int_equal(aplan_tflite_operator(f.data, f.size, 0, 0, &op0, NULL), APLAN_OK);
            assert_int_equal(op0.inputs.count, c->k);
            assert_int_equal(aplan_tflite_index_at(op0.inputs, c->k - 1u), 0);
            assert_int_equal(aplan_tflite_tensor(f.data, f.size, (aplan_tflite_id){0, 0}, &first, NULL), APLAN_OK);
            assert_int_equal(first.rank, rank ? c->l : 1u);
            assert_int_equal(first.shape_truncated, rank);
            assert_int_equal(first.name.size, rank ? 0u : c->l);
            break;
        }
        case TW_SHARED_CUSTOM:
            assert_int_equal(aplan_tflite_operator(f.data, f.size, 0, 0, &op0, NULL), APLAN_OK);
            assert_int_equal(aplan_tflite_operator(f.data, f.size, 0, c->k - 1u, &op1, NULL), APLAN_OK);
            assert_true(op0.custom);
            assert_ptr_equal(op0.name.data, op1.name.data);
            assert_ptr_equal(op0.name.data, f.data + tw_pos(&f, "opcode0.custom_code"));
            assert_int_equal(op0.name.size, c->l);
            break;
        }
        tw_free(&f);
    }
}

static void test_tflite_shared_operator_lifetimes(void **state) {
    (void)state;
    /* One ADD (t0 -> t1) listed three times: three steps, each reading t0 and writing t1, as TFLM would walk it. */
    static const tw_tensor t[] = {{shape_4, 1, T_FLOAT32, 0, false}, {shape_8, 1, T_INT8, 0, false}};
    static const tw_op op[] = {{0, idx_0, 1, idx_1, 1, 0, {0, 0}, 0}};
    static const tw_subgraph sg[] = {{t, 2, idx_0, 1, idx_1, 1, op, 3}};
    tw_model m = {3, opcodes_plain, 1, sg, 1, buffers_empty, 1, NULL, 0};
    tw_extra x;
    memset(&x, 0, sizeof x);
    x.share_ops = true;
    tw_file f = tw_build_ex(&m, &x);
    readout r = read_file(&f);
    assert_int_equal(r.status, APLAN_OK);
    assert_int_equal(r.count, 2);
    assert_int_equal(r.info.operator_count, 3);
    expect_buffer(&r, 0, 0, 0, 1, 5, 16, NONE); /* created at entry (step 1), read by the last op (step 4) */
    expect_buffer(&r, 1, 0, 1, 4, 5, 8, NONE);  /* created again by each op: the last creation (step 4) wins */
    free_readout(&r);
    tw_free(&f);
}

/* The query's work on a shared-operator model grows with its size, linearly: k references of one operator with l
 * inputs and outputs cost the query at most 2 (k (l + 1) + l) + small units (each reference: the operator and its
 * code opened, its two index vectors opened and checked) and the budget stops it at 16 per byte. */
static void test_tflite_query_work_is_counted(void **state) {
    (void)state;
    uint32_t last = 0;
    for (uint32_t k = 1; k <= 64; k *= 2) {
        tw_file f = hostile_model(HOSTILE_OP, k, 8);
        aplan_tflite_info info;
        assert_int_equal(aplan_tflite_query(f.data, f.size, &info, NULL), APLAN_OK);
        assert_true(info.work > last);
        assert_true(info.work <= 6u * k * (8u + 1u) + 64u);
        assert_true((uint64_t)info.work <= (uint64_t)APLAN_TFLITE_WORK_PER_BYTE * f.size + APLAN_TFLITE_WORK_BASE);
        last = info.work;
        tw_free(&f);
    }
}

/* ------------------------------------------------------------------------------------------------------------ */
/* The shared models.                                                                                           */

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

/* The lookups on every single-byte change of the names and steps models, whether or not the query accepts the
 * result: never a read outside the input (each copy is a block of exactly its size), only documented statuses with
 * in-bounds offsets, and every text inside the input or static. */
static void expect_lookup_status(aplan_status st, const aplan_format_error *e, size_t size) {
    if (st == APLAN_OK || st == APLAN_E_INVALID_ARG) return; /* an id past a mutated count */
    if (!is_format_status(st)) print_error("%s: %s\n", aplan_status_str(st), e->message);
    assert_true(is_format_status(st));
    assert_int_equal(e->status, st);
    assert_true(e->byte_offset <= size);
    assert_true(e->message[0] != '\0');
}

static void expect_text_inside(aplan_tflite_text t, const uint8_t *data, size_t size) {
    if (t.data == NULL) return;
    const uintptr_t a = (uintptr_t)t.data;
    const uintptr_t m = (uintptr_t)data;
    assert_true((a >= m && t.size <= size && a - m <= size - t.size) || t.data[t.size] == '\0');
}

static void lookups_on(const uint8_t *data, size_t size) {
    aplan_format_error e;
    for (uint32_t s = 0; s < 3; s++) {
        aplan_tflite_subgraph_info g;
        aplan_status st = aplan_tflite_subgraph(data, size, s, &g, &e);
        expect_lookup_status(st, &e, size);
        if (st == APLAN_OK) expect_text_inside(g.name, data, size);
        for (uint32_t i = 0; i < 11; i++) {
            aplan_tflite_tensor_info t;
            st = aplan_tflite_tensor(data, size, (aplan_tflite_id){s, i}, &t, &e);
            expect_lookup_status(st, &e, size);
            if (st == APLAN_OK) expect_text_inside(t.name, data, size);
            aplan_tflite_operator_info o;
            st = aplan_tflite_operator(data, size, s, i, &o, &e);
            expect_lookup_status(st, &e, size);
            if (st == APLAN_OK) expect_text_inside(o.name, data, size);
        }
    }
    step_list l = read_steps(data, size);
    expect_lookup_status(l.status, &l.error, size);
    for (size_t k = 0; l.status == APLAN_OK && k < l.count; k++) expect_text_inside(l.steps[k].name, data, size);
    free(l.steps);
}

static void test_tflite_lookups_survive_mutations(void **state) {
    (void)state;
    for (int which = 0; which < 2; which++) {
        tw_file f = which == 0 ? names_model() : steps_model();
        size_t runs = 0;
        for (size_t pos = 0; pos < f.size; pos++) {
            const uint8_t was = f.data[pos];
            const uint8_t values[] = {0, 1, 0x7F, 0x80, 0xFF, (uint8_t)(was ^ 1u), (uint8_t)(was + 4u),
                                      (uint8_t)(was - 4u)};
            for (size_t v = 0; v < sizeof values; v++) {
                if (values[v] == was) continue;
                uint8_t *copy = malloc(f.size);
                memcpy(copy, f.data, f.size);
                copy[pos] = values[v];
                lookups_on(copy, f.size);
                free(copy);
                runs++;
            }
        }
        for (size_t len = 0; len < f.size; len += 3) { /* and truncations */
            uint8_t *copy = malloc(len ? len : 1);
            memcpy(copy, f.data, len);
            lookups_on(copy, len);
            free(copy);
        }
        printf("%s model: %zu mutations looked up\n", which == 0 ? "names" : "steps", runs);
        tw_free(&f);
    }
}

static void test_tflite_fuzz_seeds_are_current(void **state) {
    (void)state;
    tw_file f = hostile_seed();
    check_seed(&f, "seed-offline-plan-and-if.tflite");
    tw_free(&f);
    f = control_flow_model((tw_opcode){119, 119}, OPT_WHILE, 1, 2, 2);
    check_seed(&f, "seed-while.tflite");
    tw_free(&f);
    f = names_model(); /* names, a custom code, sizeless constants: the lookups' paths */
    check_seed(&f, "seed-names.tflite");
    tw_free(&f);
    f = steps_model(); /* IF, WHILE, CALL_ONCE two deep, a custom operator: the steps' paths */
    check_seed(&f, "seed-steps.tflite");
    tw_free(&f);
    for (int which = HOSTILE_OP; which <= HOSTILE_NESTING; which++) { /* the work budget's */
        f = hostile_model(which, hostile_seed_kl[which][0], hostile_seed_kl[which][1]);
        check_seed(&f, hostile_seed_files[which]);
        tw_free(&f);
    }
    for (size_t j = 0; j < sizeof shared_seeds / sizeof shared_seeds[0]; j++) { /* what sharing costs a caller */
        f = tw_build_shared(shared_seeds[j].kind, shared_seeds[j].k, shared_seeds[j].l, shared_seeds[j].fill);
        check_seed(&f, shared_seeds[j].file);
        tw_free(&f);
    }
    /* TFLM's arena model (issue 32): Signal kernels' rows (2^24 and 2^32 of them; about 2^63 of a constant input,
     * past 2^64 - 1 bytes), and a detection post-processing operator listed 6,000 times whose options hold 2,011
     * keys (the concatenation of a tensor of rank 3,000 is in shared_seeds). */
    static const int32_t rows[] = {4096, 4096, 4}, overlap[] = {65536, 65536, 4, 4},
                         huge[] = {2147483647, 2147483647, 2, 1};
    f = tw_build_signal("SignalDelay", rows, 3, false);
    check_seed(&f, "seed-hostile-signal-rows.tflite");
    tw_free(&f);
    f = tw_build_signal("SignalOverlapAdd", overlap, 4, false);
    check_seed(&f, "seed-hostile-overlap-rows.tflite");
    tw_free(&f);
    f = tw_build_signal("SignalFramer", huge, 4, true);
    check_seed(&f, "seed-hostile-signal-huge.tflite");
    tw_free(&f);
    f = tw_build_detection(6000, 2000);
    check_seed(&f, "seed-hostile-detection.tflite");
    tw_free(&f);
}

/* Shared model k's bytes (malloc'd) and size; fails the test when it cannot be read. */
static uint8_t *load_shared(size_t k, size_t *size) {
    char rel[128];
    snprintf(rel, sizeof rel, "models/%s.tflite", shared_models[k]);
    uint8_t *data = slurp(shared_path(rel), size);
    if (data == NULL) print_error("cannot read %s\n", shared_path(rel));
    assert_non_null(data);
    return data;
}

/* Skips the calling test, naming the first missing file, unless every shared model and its lifetimes CSV is there. */
static void need_shared_models(void) {
    for (size_t k = 0; k < sizeof shared_models / sizeof shared_models[0]; k++) {
        char rel[128];
        snprintf(rel, sizeof rel, "models/%s.tflite", shared_models[k]);
        need_shared(rel);
        snprintf(rel, sizeof rel, "models/lifetimes/%s.csv", shared_models[k]);
        need_shared(rel);
    }
}

static void test_tflite_shared_models_match_lifetimes(void **state) {
    (void)state;
    need_shared_models();
    for (size_t k = 0; k < sizeof shared_models / sizeof shared_models[0]; k++) {
        char rel[128];
        size_t size = 0;
        uint8_t *data = load_shared(k, &size);
        readout r = read_exact(data, size);
        if (r.status != APLAN_OK) print_error("%s: %s at %llu: %s\n", shared_models[k], aplan_status_str(r.status),
                                              (unsigned long long)r.error.byte_offset, r.error.message);
        assert_int_equal(r.status, APLAN_OK);
        /* the work budget never comes near: the query uses under 5% of it (at most 0.34% measured) */
        assert_true((uint64_t)r.info.work * 20u <= (uint64_t)APLAN_TFLITE_WORK_PER_BYTE * size + APLAN_TFLITE_WORK_BASE);
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

/* An independent look at a flatbuffer, for the shared models: the string field `id` of the table at pos, found by
 * following the format by hand (no bounds checks: the models are known good). */
static const uint8_t *raw_field(const uint8_t *table, unsigned id) {
    const uint8_t *vt = table - (int32_t)le32(table);
    unsigned vt_size = (unsigned)(vt[0] | vt[1] << 8);
    if (4u + 2u * id + 2u > vt_size) return NULL;
    unsigned off = (unsigned)(vt[4 + 2 * id] | vt[5 + 2 * id] << 8);
    return off ? table + off : NULL;
}
static const uint8_t *raw_deref(const uint8_t *p) { return p + le32(p); }
/* Element i of the vector of tables in field id of table. */
static const uint8_t *raw_vec_table(const uint8_t *table, unsigned id, uint32_t i) {
    const uint8_t *v = raw_deref(raw_field(table, id));
    return raw_deref(v + 4 + 4 * i);
}
static bool raw_string(const uint8_t *table, unsigned id, const uint8_t **bytes, uint32_t *len) {
    const uint8_t *f = raw_field(table, id);
    if (f == NULL) return false;
    const uint8_t *s = raw_deref(f);
    *len = le32(s);
    *bytes = s + 4;
    return true;
}

/* Names, steps and operators of a model with one subgraph and no control flow: every tensor's name is the bytes the
 * model holds there (read independently above), every step past the first two is an operator with a name, in
 * order, and the operators' names are their codes' (custom ones: their custom_code). Returns how many steps run a
 * custom operator named by its custom_code. */
static size_t check_names_and_steps(const uint8_t *data, size_t size) {
    readout r = read_exact(data, size);
    assert_int_equal(r.status, APLAN_OK);
    step_list l = read_steps(data, size);
    assert_int_equal(l.status, APLAN_OK);
    assert_int_equal(l.count, r.info.operator_count + 2); /* one subgraph, no control flow */
    for (size_t i = 0; i < r.count; i++) assert_true(r.buffers[i].upper <= l.count);
    expect_step(&l, 0, APLAN_TFLITE_STEP_START, NO, NO, NO, 0, -1, NULL);
    expect_step(&l, 1, APLAN_TFLITE_STEP_ENTRY, NO, NO, 0, 0, -1, NULL);

    const uint8_t *root = data + le32(data);
    const uint8_t *sg = raw_vec_table(root, 2, 0);
    size_t customs = 0;
    for (size_t s = 2; s < l.count; s++) {
        const aplan_tflite_step *st = &l.steps[s];
        assert_int_equal(st->kind, APLAN_TFLITE_STEP_OPERATOR);
        assert_int_equal(st->subgraph, 0);
        assert_int_equal(st->op, s - 2);
        assert_int_equal(st->depth, 0);
        assert_non_null(st->name.data);
        assert_true(st->name.size > 0);
        aplan_tflite_operator_info o;
        assert_int_equal(aplan_tflite_operator(data, size, 0, st->op, &o, NULL), APLAN_OK);
        assert_int_equal(o.builtin_code, st->builtin_code);
        assert_ptr_equal(o.name.data, st->name.data);
        /* the code and custom_code as the file holds them */
        const uint8_t *op = raw_vec_table(sg, 3, st->op);
        const uint8_t *f = raw_field(op, 0);
        uint32_t opcode_index = f ? le32(f) : 0;
        assert_int_equal(o.opcode_index, opcode_index);
        const uint8_t *oc = raw_vec_table(root, 1, opcode_index);
        f = raw_field(oc, 0);
        int32_t code = f ? (int8_t)f[0] : 0;
        f = raw_field(oc, 3);
        if (f && (int32_t)le32(f) > code) code = (int32_t)le32(f);
        assert_int_equal(st->builtin_code, code);
        const uint8_t *custom;
        uint32_t custom_len;
        if (code == 32 && raw_string(oc, 1, &custom, &custom_len) && custom_len > 0) {
            expect_text(st->name, (const char *)custom, custom_len);
            assert_ptr_equal(st->name.data, (const char *)custom);
            customs++;
        }
    }
    uint32_t n_tensors = le32(raw_deref(raw_field(sg, 0)));
    assert_int_equal(n_tensors, r.info.tensor_count);
    for (uint32_t t = 0; t < n_tensors; t++) {
        aplan_tflite_tensor_info info = tensor_ok(data, size, 0, t);
        const uint8_t *bytes;
        uint32_t len;
        if (raw_string(raw_vec_table(sg, 0, t), 3, &bytes, &len)) {
            assert_ptr_equal(info.name.data, (const char *)bytes);
            assert_int_equal(info.name.size, len);
        } else {
            assert_null(info.name.data);
        }
    }
    for (size_t i = 0; i < r.count; i++) {
        aplan_tflite_tensor_info info = tensor_ok(data, size, 0, r.ids[i].tensor);
        assert_int_equal(info.size, r.buffers[i].size);
        assert_false(info.constant);
    }
    free(l.steps);
    free_readout(&r);
    return customs;
}

/* The same on models the writer builds, so that a clone without the shared folder checks it too: the names model
 * (names of every kind, an empty one, a custom operator named by its custom_code), the chain and the rich chain
 * (no names at all; constants, a variable, external data). */
static void test_tflite_built_models_names_and_steps(void **state) {
    (void)state;
    tw_file f = names_model();
    assert_int_equal(check_names_and_steps(f.data, f.size), 1);
    tw_free(&f);
    f = tw_build(&chain_model);
    assert_int_equal(check_names_and_steps(f.data, f.size), 0);
    tw_free(&f);
    tw_model m = rich_model(NULL, 0, rich_buffers, COUNT(rich_buffers));
    f = tw_build(&m);
    assert_int_equal(check_names_and_steps(f.data, f.size), 0);
    tw_free(&f);
}

/* The shared models, with what the issue and the CLI's docs name on two of them. */
static void test_tflite_shared_models_names_and_steps(void **state) {
    (void)state;
    need_shared_models();
    for (size_t k = 0; k < sizeof shared_models / sizeof shared_models[0]; k++) {
        size_t size = 0;
        uint8_t *data = load_shared(k, &size);
        const size_t customs = check_names_and_steps(data, size);
        step_list l = read_steps(data, size);
        assert_int_equal(l.status, APLAN_OK);
        if (strcmp(shared_models[k], "person_detect") == 0) {
            /* The tensor the issue names, and the first operators (schema codes 4 and 3 in the file). */
            aplan_tflite_tensor_info info = tensor_ok(data, size, 0, 86);
            expect_text(info.name, "MobilenetV1/MobilenetV1/Conv2d_9_pointwise/Relu6", 48);
            assert_string_equal(info.type_name, "INT8");
            expect_text(l.steps[2].name, "DEPTHWISE_CONV_2D", 17);
            expect_text(l.steps[4].name, "CONV_2D", 7);
        }
        if (strcmp(shared_models[k], "audio_preprocessor_int8") == 0) {
            expect_text(l.steps[2].name, "SignalWindow", 12);
            expect_text(l.steps[3].name, "RESHAPE", 7);
            assert_true(customs > 0);
        }
        aplan_tflite_info info;
        aplan_format_error e;
        assert_int_equal(aplan_tflite_query(data, size, &info, &e), APLAN_OK);
        printf("%-24s %3zu steps named, %zu custom, %3zu tensor names equal\n", shared_models[k], l.count - 2,
               customs, (size_t)info.tensor_count);
        free(l.steps);
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
        cmocka_unit_test(test_tflite_tensor_names_types_shapes),
        cmocka_unit_test(test_tflite_subgraph_and_operator_facts),
        cmocka_unit_test(test_tflite_steps_name_the_operators),
        cmocka_unit_test(test_tflite_builtin_names_table),
        cmocka_unit_test(test_tflite_name_and_lookup_errors),
        cmocka_unit_test(test_tflite_steps_errors),
        cmocka_unit_test(test_tflite_hostile_seed_reads),
        cmocka_unit_test(test_tflite_every_truncation_fails),
        cmocka_unit_test(test_tflite_every_byte_mutation_is_safe),
        cmocka_unit_test(test_tflite_lookups_survive_mutations),
        cmocka_unit_test(test_tflite_shared_tables_cost_bounded_work),
        cmocka_unit_test(test_tflite_shared_names_one_position),
        cmocka_unit_test(test_tflite_shared_operator_lifetimes),
        cmocka_unit_test(test_tflite_query_work_is_counted),
        cmocka_unit_test(test_tflite_fuzz_seeds_are_current),
        cmocka_unit_test(test_tflite_shared_models_match_lifetimes),
        cmocka_unit_test(test_tflite_built_models_names_and_steps),
        cmocka_unit_test(test_tflite_shared_models_names_and_steps),
    };
    return cmocka_run_group_tests_name("tflite", tests, NULL, NULL);
}
