/* aplan_tflite_embed: a plan written into models built by tests/tflite_writer.c (one and several subgraphs, an
 * existing offline plan kept in place or replaced beside a shared buffer, extra metadata and Model fields, data
 * beside the flatbuffer), into the fuzz corpus's models and into every shared model (skipped, saying so, without
 * the shared folder), then read back through the reader and through a flatbuffer walk of this file's own; the size
 * query; and every failure status with its message. */
#define _POSIX_C_SOURCE 200809L /* opendir for the shared models */

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "aplan/strategies.h"
#include "aplan/tflite.h"
#include "helpers.h"
#include "tflite_writer.h"

#define COUNT(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

enum { T_FLOAT32 = 0, T_INT32 = 2, T_BOOL = 6, T_INT8 = 9 };
enum { OP_IF = 118, OPT_IF = 92 };

/* ------------------------------------------------------------------------------------------------------------ */
/* Reading back                                                                                                  */

/* Say what failed before the assertion does. */
static void report(const char *what, aplan_status st, const aplan_format_error *e) {
    if (st != APLAN_OK)
        print_error("%s: %s at %llu: %s\n", what, aplan_status_str(st), (unsigned long long)e->byte_offset,
                    e->message);
}

/* A model read with malloc'd arrays; asserts success. */
typedef struct model_read {
    aplan_tflite_info info;
    aplan_buffer *buffers;
    aplan_tflite_id *ids;
    size_t count;
} model_read;

static model_read read_ok(const uint8_t *data, size_t size) {
    model_read r;
    memset(&r, 0, sizeof r);
    aplan_format_error e;
    aplan_status st = aplan_tflite_query(data, size, &r.info, &e);
    report("query", st, &e);
    assert_int_equal(st, APLAN_OK);
    size_t n = r.info.buffer_count + 1u;
    r.buffers = calloc(n, sizeof *r.buffers);
    r.ids = calloc(n, sizeof *r.ids);
    void *scratch = aligned_alloc(APLAN_SCRATCH_ALIGN, (r.info.scratch_size + 8u) & ~(size_t)7u);
    assert_non_null(scratch);
    st = aplan_tflite_read(data, size, scratch, r.info.scratch_size, r.buffers, r.ids, r.info.buffer_count, &r.count,
                           &e);
    free(scratch);
    report("read", st, &e);
    assert_int_equal(st, APLAN_OK);
    return r;
}

static void free_read(model_read *r) {
    free(r->buffers);
    free(r->ids);
    memset(r, 0, sizeof *r);
}

/* aplan_tflite_embed with the scratch aplan_tflite_embed_scratch_size asks for (whose failure is returned as it is). */
static aplan_status embed_with_scratch(const void *model, size_t size, const aplan_tflite_id *ids,
                                       const uint64_t *offsets, size_t count, void *out, size_t capacity,
                                       size_t *out_size, aplan_tflite_embed_info *info, aplan_format_error *error) {
    aplan_format_error local;
    if (error == NULL) error = &local;
    size_t bytes = 0;
    aplan_status st = aplan_tflite_embed_scratch_size(model, size, &bytes, error);
    if (st != APLAN_OK) { /* embed itself fails the same way, and clears its outputs */
        aplan_status again = aplan_tflite_embed(model, size, ids, offsets, count, NULL, 0, out, capacity, out_size,
                                                info, error);
        assert_int_equal(again, st);
        return st;
    }
    void *scratch = aligned_alloc(APLAN_SCRATCH_ALIGN, (bytes + 8u) & ~(size_t)7u);
    assert_non_null(scratch);
    st = aplan_tflite_embed(model, size, ids, offsets, count, scratch, bytes, out, capacity, out_size, info, error);
    free(scratch);
    return st;
}

/* An embedded copy: the size query, then a write into exactly that many bytes; asserts success. */
typedef struct embedded {
    uint8_t *data;
    size_t size;
    aplan_tflite_embed_info info;
} embedded;

static embedded embed_ok(const uint8_t *model, size_t size, const model_read *r, const uint64_t *offsets) {
    embedded out;
    memset(&out, 0, sizeof out);
    aplan_tflite_embed_info query;
    aplan_format_error e;
    size_t need = 0;
    aplan_status st = embed_with_scratch(model, size, r->ids, offsets, r->count, NULL, 0, &need, &query, &e);
    report("embed query", st, &e);
    assert_int_equal(st, APLAN_OK);
    assert_int_equal(query.output_size, need);
    out.data = malloc(need);
    assert_non_null(out.data);
    st = embed_with_scratch(model, size, r->ids, offsets, r->count, out.data, need, &out.size, &out.info, &e);
    assert_int_equal(st, APLAN_OK);
    assert_int_equal(e.status, APLAN_OK);
    assert_int_equal(out.size, need); /* the size query is exact */
    assert_memory_equal(&out.info, &query, sizeof query);
    assert_int_equal(out.info.output_size, out.info.front_replaced ? size : out.info.shift + size);
    assert_int_equal(out.info.shift % APLAN_TFLITE_EMBED_ALIGN, 0);
    assert_int_equal(out.info.planned_count, r->count);
    return out;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* A flatbuffer walk of this test's own (trusting: the reader has accepted the file), for what the reader does not
 * expose: fields it ignores, the plan's words and where they are, the bytes the writer copied.                 */

static uint16_t rd16(const uint8_t *d, size_t p) { return (uint16_t)(d[p] | (d[p + 1] << 8)); }
static uint32_t rd32(const uint8_t *d, size_t p) {
    return (uint32_t)d[p] | ((uint32_t)d[p + 1] << 8) | ((uint32_t)d[p + 2] << 16) | ((uint32_t)d[p + 3] << 24);
}
static uint64_t rd64(const uint8_t *d, size_t p) { return rd32(d, p) | ((uint64_t)rd32(d, p + 4) << 32); }
static size_t follow(const uint8_t *d, size_t p) { return p + rd32(d, p); }

/* Position of field id of the table at t, 0 when absent. */
static size_t field_at(const uint8_t *d, size_t t, unsigned id) {
    size_t vt = (size_t)((int64_t)t - (int32_t)rd32(d, t));
    if (4u + 2u * id + 2u > rd16(d, vt)) return 0;
    uint16_t off = rd16(d, vt + 4u + 2u * id);
    return off != 0 ? t + off : 0;
}

/* Vector field id of table t: position of element 0 (0 when absent) and *len. */
static size_t vector_at(const uint8_t *d, size_t t, unsigned id, uint32_t *len) {
    size_t f = field_at(d, t, id);
    *len = 0;
    if (f == 0) return 0;
    size_t v = follow(d, f);
    *len = rd32(d, v);
    return v + 4u;
}

static size_t root_of(const uint8_t *d) { return follow(d, 0); }
static size_t table_in(const uint8_t *d, size_t vec, uint32_t i) { return follow(d, vec + 4u * i); }

static bool name_is(const uint8_t *d, size_t t, const char *name) {
    uint32_t len;
    size_t s = vector_at(d, t, 0, &len);
    return s != 0 && len == strlen(name) && memcmp(d + s, name, len) == 0;
}

/* Field kinds of the tables the walk compares. */
typedef enum { K_U8, K_U32, K_U64, K_FILE_OFFSET, K_INTS, K_BYTES, K_STRING, K_TABLE, K_TABLES } kind;
typedef struct tdesc tdesc;
typedef struct fdesc {
    unsigned id;
    kind k;
    const tdesc *sub;
} fdesc;
struct tdesc {
    const char *name;
    unsigned n;
    fdesc f[8];
};

static const tdesc options_t = {"options", 2, {{0, K_U32, NULL}, {1, K_U32, NULL}}};
static const tdesc operator_t = {"operator", 7,
                                 {{0, K_U32, NULL}, {1, K_INTS, NULL}, {2, K_INTS, NULL}, {3, K_U8, NULL},
                                  {4, K_TABLE, &options_t}, {9, K_FILE_OFFSET, NULL}, {10, K_U64, NULL}}};
static const tdesc tensor_t = {"tensor", 4, {{0, K_INTS, NULL}, {1, K_U8, NULL}, {2, K_U32, NULL}, {5, K_U8, NULL}}};
static const tdesc subgraph_t = {
    "subgraph", 4, {{0, K_TABLES, &tensor_t}, {1, K_INTS, NULL}, {2, K_INTS, NULL}, {3, K_TABLES, &operator_t}}};
static const tdesc opcode_t = {"opcode", 2, {{0, K_U8, NULL}, {3, K_U32, NULL}}};
static const tdesc buffer_t = {"buffer", 3, {{0, K_BYTES, NULL}, {1, K_FILE_OFFSET, NULL}, {2, K_U64, NULL}}};
static const tdesc metadata_t = {"metadata", 2, {{0, K_STRING, NULL}, {1, K_U32, NULL}}};
static const tdesc int_table_t = {"table", 1, {{0, K_U32, NULL}}};
/* Model less buffers (4) and metadata (6), which compare_models checks entry by entry. */
static const tdesc model_t = {"model", 8,
                              {{0, K_U32, NULL}, {1, K_TABLES, &opcode_t}, {2, K_TABLES, &subgraph_t},
                               {3, K_STRING, NULL}, {5, K_INTS, NULL}, {7, K_TABLES, &int_table_t},
                               {8, K_TABLES, &int_table_t}, {9, K_TABLES, &int_table_t}}};

/* Table a (in file da) and table b (in db) agree on every field desc names; absolute file offsets of b are those
 * of a moved by shift. Recursive: test code. */
static void compare_table(const uint8_t *da, size_t a, const uint8_t *db, size_t b, const tdesc *desc, size_t shift) {
    for (unsigned i = 0; i < desc->n; i++) {
        const fdesc *f = &desc->f[i];
        size_t fa = field_at(da, a, f->id), fb = field_at(db, b, f->id);
        if ((fa == 0) != (fb == 0)) fail_msg("%s field %u: present in one file only", desc->name, f->id);
        if (fa == 0) continue;
        switch (f->k) {
        case K_U8: assert_int_equal(da[fa], db[fb]); break;
        case K_U32: assert_int_equal(rd32(da, fa), rd32(db, fb)); break;
        case K_U64: assert_int_equal(rd64(da, fa), rd64(db, fb)); break;
        case K_FILE_OFFSET: {
            uint64_t va = rd64(da, fa);
            assert_int_equal(rd64(db, fb), va > 1 ? va + shift : va);
            break;
        }
        case K_INTS:
        case K_BYTES:
        case K_STRING: {
            uint32_t la, lb;
            size_t va = vector_at(da, a, f->id, &la), vb = vector_at(db, b, f->id, &lb);
            assert_int_equal(la, lb);
            size_t bytes = f->k == K_INTS ? 4u * la : f->k == K_STRING ? la + 1u : la;
            assert_memory_equal(da + va, db + vb, bytes);
            break;
        }
        case K_TABLE: compare_table(da, follow(da, fa), db, follow(db, fb), f->sub, shift); break;
        case K_TABLES: {
            uint32_t la, lb;
            size_t va = vector_at(da, a, f->id, &la), vb = vector_at(db, b, f->id, &lb);
            assert_int_equal(la, lb);
            for (uint32_t k = 0; k < la; k++)
                compare_table(da, table_in(da, va, k), db, table_in(db, vb, k), f->sub, shift);
            break;
        }
        }
    }
}

/* The output's OfflineMemoryAllocation words (the last entry, as TFLM and the reader take it) and their position. */
static size_t plan_words(const uint8_t *d, uint32_t *n_words) {
    uint32_t n_meta, n_buf;
    size_t root = root_of(d);
    size_t meta = vector_at(d, root, 6, &n_meta);
    size_t bufs = vector_at(d, root, 4, &n_buf);
    size_t words = 0;
    for (uint32_t i = 0; i < n_meta; i++) {
        size_t mt = table_in(d, meta, i);
        if (!name_is(d, mt, APLAN_TFLITE_OFFLINE_METADATA)) continue;
        uint32_t b = rd32(d, field_at(d, mt, 1));
        assert_true(b < n_buf);
        uint32_t len;
        words = vector_at(d, table_in(d, bufs, b), 0, &len);
        *n_words = len / 4u;
    }
    assert_int_not_equal(words, 0);
    return words;
}

/* Everything the writer promises about `out`, an embedding of `in` with the plan `offsets` for the buffers r read
 * from `in`:
 *   - "TFL3"; the reader reads the same buffers back, now fixed at offsets;
 *   - the plan's words: version 0, subgraphs, n, then per tensor its offset or -1, 16-aligned in the file;
 *   - every Model field, operator code, subgraph, tensor, operator, buffer and other metadata entry as it was, and
 *     every copied byte as it was (absolute file offsets moved by the shift). */
static void check_embedded(const uint8_t *in, size_t in_size, const model_read *r, const uint64_t *offsets,
                           const embedded *out) {
    const size_t shift = out->info.shift;
    assert_memory_equal(out->data + 4, "TFL3", 4);
    model_read back = read_ok(out->data, out->size);
    assert_int_equal(back.count, r->count);
    assert_true(back.info.has_offline_plan);
    assert_int_equal(back.info.subgraph_count, r->info.subgraph_count);
    assert_int_equal(back.info.tensor_count, r->info.tensor_count);
    assert_int_equal(back.info.operator_count, r->info.operator_count);
    assert_int_equal(back.info.version, r->info.version);
    for (size_t i = 0; i < r->count; i++) {
        assert_int_equal(back.ids[i].subgraph, r->ids[i].subgraph);
        assert_int_equal(back.ids[i].tensor, r->ids[i].tensor);
        assert_int_equal(back.buffers[i].size, r->buffers[i].size);
        assert_int_equal(back.buffers[i].lower, r->buffers[i].lower);
        assert_int_equal(back.buffers[i].upper, r->buffers[i].upper);
        assert_int_equal(back.buffers[i].offset, offsets[i]);
    }
    free_read(&back);

    /* The words, checked against the ids: global index = tensors of the subgraphs before + tensor. */
    uint32_t n_words = 0;
    size_t words = plan_words(out->data, &n_words);
    assert_int_equal(words % 16u, 0);
    assert_true(words < shift); /* in the front block */
    assert_int_equal(n_words, 3u + r->info.tensor_count);
    assert_int_equal(rd32(out->data, words), 0);
    assert_int_equal(rd32(out->data, words + 4), r->info.subgraph_count);
    assert_int_equal(rd32(out->data, words + 8), r->info.tensor_count);
    uint32_t n_sg;
    size_t sgs = vector_at(in, root_of(in), 2, &n_sg);
    size_t k = 0, global = 0;
    for (uint32_t s = 0; s < n_sg; s++) {
        uint32_t n_t;
        (void)vector_at(in, table_in(in, sgs, s), 0, &n_t);
        for (uint32_t t = 0; t < n_t; t++, global++) {
            int32_t want = -1;
            if (k < r->count && r->ids[k].subgraph == s && r->ids[k].tensor == t) want = (int32_t)offsets[k++];
            assert_int_equal((int32_t)rd32(out->data, words + 12 + 4 * global), want);
        }
    }
    assert_int_equal(k, r->count);

    /* Field by field. */
    size_t ra = root_of(in), rb = root_of(out->data);
    compare_table(in, ra, out->data, rb, &model_t, shift);
    uint32_t nba, nbb, nma, nmb;
    size_t ba = vector_at(in, ra, 4, &nba), bb = vector_at(out->data, rb, 4, &nbb);
    size_t ma = vector_at(in, ra, 6, &nma), mb = vector_at(out->data, rb, 6, &nmb);
    assert_int_equal(nbb, nba + (out->info.buffer_added ? 1u : 0u));
    assert_int_equal(out->info.plan_buffer, out->info.buffer_added ? nba : out->info.plan_buffer);
    for (uint32_t i = 0; i < nba; i++) {
        if (i == out->info.plan_buffer) continue;
        assert_int_equal(table_in(out->data, bb, i), shift + table_in(in, ba, i)); /* the same table, moved */
        compare_table(in, table_in(in, ba, i), out->data, table_in(out->data, bb, i), &buffer_t, shift);
    }
    /* Metadata: entry i is the input's, moved, except that with a new buffer every offline plan entry is the new
     * Metadata table naming it; with no such entry before, the new one comes last. */
    assert_int_equal(nmb, nma + (out->info.replaced ? 0u : 1u));
    for (uint32_t i = 0; i < nmb; i++) {
        size_t t = table_in(out->data, mb, i);
        bool fresh = i >= nma ||
                     (out->info.buffer_added && name_is(in, table_in(in, ma, i), APLAN_TFLITE_OFFLINE_METADATA));
        if (fresh) {
            assert_true(t < shift);
            assert_true(name_is(out->data, t, APLAN_TFLITE_OFFLINE_METADATA));
            assert_int_equal(rd32(out->data, field_at(out->data, t, 1)), out->info.plan_buffer);
        } else {
            assert_int_equal(t, shift + table_in(in, ma, i)); /* the same table, moved */
            compare_table(in, table_in(in, ma, i), out->data, t, &metadata_t, shift);
        }
    }
    /* The copied bytes: the input with its absolute file offsets moved. */
    uint8_t *want = malloc(in_size + 1u);
    memcpy(want, in, in_size);
    for (uint32_t i = 0; i < nba; i++) {
        size_t f = field_at(in, table_in(in, ba, i), 1);
        uint64_t v = f ? rd64(in, f) : 0;
        for (unsigned b = 0; v > 1 && b < 8; b++) want[f + b] = (uint8_t)((v + shift) >> (8 * b));
    }
    for (uint32_t s = 0; s < n_sg; s++) {
        uint32_t n_op;
        size_t ops = vector_at(in, table_in(in, sgs, s), 3, &n_op);
        for (uint32_t i = 0; i < n_op; i++) {
            size_t f = field_at(in, table_in(in, ops, i), 9);
            uint64_t v = f ? rd64(in, f) : 0;
            for (unsigned b = 0; v > 1 && b < 8; b++) want[f + b] = (uint8_t)((v + shift) >> (8 * b));
        }
    }
    assert_memory_equal(out->data + shift, want, in_size);
    free(want);
}

/* A plan for r's buffers with TFLM's settings, by the first of greedy_by_size, first_fit, linear in this build. */
static void plan_tflm(const model_read *r, uint64_t *offsets, aplan_result *result) {
    static const char *const names[] = {"greedy_by_size", "first_fit", "linear"};
    const aplan_strategy *s = NULL;
    for (size_t i = 0; s == NULL && i < 3; i++) (void)aplan_strategy_find(names[i], &s);
    if (s == NULL) skip();
    aplan_problem p;
    aplan_problem_init(&p, r->buffers, r->count);
    p.alignment = APLAN_TFLITE_ALIGNMENT;
    p.flags = APLAN_ROUND_SIZES | (r->info.has_offline_plan ? APLAN_ALLOW_FIXED_ALIAS : 0u);
    assert_int_equal(plan_with(s, &p, offsets, result), APLAN_OK);
}

/* The offline strategy on a read-back model gives exactly the embedded offsets, verified. */
static void check_offline_replays(const embedded *out, const uint64_t *offsets, uint64_t arena) {
    const aplan_strategy *offline = NULL;
    if (aplan_strategy_find("offline", &offline) != APLAN_OK) return; /* not in this build */
    model_read back = read_ok(out->data, out->size);
    aplan_problem p;
    aplan_problem_init(&p, back.buffers, back.count);
    p.alignment = APLAN_TFLITE_ALIGNMENT;
    p.flags = APLAN_ROUND_SIZES | APLAN_ALLOW_FIXED_ALIAS;
    uint64_t *got = calloc(back.count + 1u, sizeof *got);
    aplan_result res;
    assert_int_equal(plan_with(offline, &p, got, &res), APLAN_OK);
    if (back.count > 0) assert_memory_equal(got, offsets, back.count * sizeof *got);
    assert_int_equal(res.arena_size, arena);
    free(got);
    free_read(&back);
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Models                                                                                                        */

static const int32_t shape_4[] = {4};
static const int32_t shape_8[] = {8};
static const int32_t shape_2[] = {2};
static const int32_t shape_1[] = {1};
static const int32_t idx_0[] = {0};
static const int32_t idx_1[] = {1};
static const int32_t idx_2[] = {2};
static const int32_t idx_10[] = {1, 0};
static const uint8_t sixteen[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const tw_opcode opcodes_plain[] = {{0, 0}};
static const tw_buffer buffers_empty[] = {{NULL, 0, 0, 0}};

/* t0 (input, 16 bytes) -op0-> t1 (8) -op1-> t2 (output, 8). */
static const tw_tensor chain_tensors[] = {
    {shape_4, 1, T_FLOAT32, 0, false}, {shape_8, 1, T_INT8, 0, false}, {shape_2, 1, T_FLOAT32, 0, false}};
static const tw_op chain_ops[] = {{0, idx_0, 1, idx_1, 1, 0, {0, 0}, 0}, {0, idx_1, 1, idx_2, 1, 0, {0, 0}, 0}};
static const tw_subgraph chain_sg[] = {{chain_tensors, 3, idx_0, 1, idx_2, 1, chain_ops, 2}};
static const tw_model chain_model = {3, opcodes_plain, 1, chain_sg, 1, buffers_empty, 1, NULL, 0};

/* Four subgraphs: 0 runs IF(t1, t0) -> t2 over subgraphs 2 and 3 and reads a constant t3 and a variable t4;
 * subgraph 1 has no tensors (the cursor over subgraphs steps over it); 2 and 3 copy their input to their output. */
static const tw_opcode multi_codes[] = {{0, 0}, {0, OP_IF}};
static const int32_t multi_in[] = {1, 0, 3, 4};
static const tw_tensor multi_main[] = {{shape_4, 1, T_FLOAT32, 0, false},
                                       {shape_1, 1, T_BOOL, 0, false},
                                       {shape_4, 1, T_FLOAT32, 0, false},
                                       {shape_4, 1, T_FLOAT32, 1, false},
                                       {shape_2, 1, T_INT32, 0, true}};
static const tw_op multi_main_ops[] = {{1, multi_in, 4, idx_2, 1, OPT_IF, {2, 3}, 2}};
static const tw_tensor multi_branch[] = {{shape_4, 1, T_FLOAT32, 0, false}, {shape_4, 1, T_FLOAT32, 0, false}};
static const tw_op multi_branch_ops[] = {{0, idx_0, 1, idx_1, 1, 0, {0, 0}, 0}};
static const tw_subgraph multi_sgs[] = {{multi_main, 5, idx_10, 2, idx_2, 1, multi_main_ops, 1},
                                        {NULL, 0, NULL, 0, NULL, 0, NULL, 0},
                                        {multi_branch, 2, idx_0, 1, idx_1, 1, multi_branch_ops, 1},
                                        {multi_branch, 2, idx_0, 1, idx_1, 1, multi_branch_ops, 1}};
static const tw_buffer multi_buffers[] = {{NULL, 0, 0, 0}, {sixteen, 16, 0, 0}, {sixteen, 4, 0, 0}};
static const tw_metadata multi_md[] = {{"min_runtime_version", 2}, {"CONVERSION_METADATA", 2}};
static const int32_t multi_metadata_buffer[] = {2};

static tw_file multi_model(void) {
    tw_model m = {3, multi_codes, 2, multi_sgs, 4, multi_buffers, 3, multi_md, 2};
    tw_extra x;
    memset(&x, 0, sizeof x);
    x.description = "aplan test model";
    x.metadata_buffer = multi_metadata_buffer;
    x.n_metadata_buffer = 1;
    x.n_tables[0] = 2; /* signature_defs */
    x.n_tables[1] = 1; /* external_buffer_groups */
    x.n_tables[2] = 3; /* external_buffers */
    return tw_build_ex(&m, &x);
}

/* Little-endian words of an offline plan, in a static array (one plan per model built at a time). */
static const uint8_t *plan_bytes(const int32_t *w, uint32_t n, uint8_t *out) {
    for (uint32_t i = 0; i < n; i++) {
        for (unsigned k = 0; k < 4; k++) out[4 * i + k] = (uint8_t)((uint32_t)w[i] >> (8 * k));
    }
    return out;
}

/* The chain with a fourth tensor t3 and an offline plan {t0: 0, t2: 32}: metadata [other, plan] on buffer 2 (3 when
 * two_plans, then also a second plan entry on buffer 3); t3 is constant on buffer `t3_buffer` (0: no data). */
static tw_file chain_with_plan(uint32_t t3_buffer, bool two_plans) {
    static uint8_t words[2][4 * 7];
    static tw_tensor tensors[4];
    static tw_subgraph sg[1];
    static tw_buffer bufs[4];
    static tw_metadata md[3];
    const int32_t w[] = {0, 1, 4, 0, -1, 32, -1};
    memcpy(tensors, chain_tensors, sizeof chain_tensors);
    tensors[3] = (tw_tensor){shape_4, 1, T_INT32, t3_buffer, false};
    sg[0] = chain_sg[0];
    sg[0].tensors = tensors;
    sg[0].n_tensors = 4;
    bufs[0] = buffers_empty[0];
    bufs[1] = (tw_buffer){sixteen, 2, 0, 0};
    bufs[2] = (tw_buffer){plan_bytes(w, 7, words[0]), 28, 0, 0};
    bufs[3] = (tw_buffer){plan_bytes(w, 7, words[1]), 28, 0, 0};
    md[0] = (tw_metadata){"min_runtime_version", 1};
    md[1] = (tw_metadata){APLAN_TFLITE_OFFLINE_METADATA, 2};
    md[2] = (tw_metadata){APLAN_TFLITE_OFFLINE_METADATA, 3};
    tw_model m = {3, opcodes_plain, 1, sg, 1, bufs, 4, md, two_plans ? 3u : 2u};
    return tw_build(&m);
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Tests                                                                                                         */

static void test_embed_adds_a_plan_to_a_chain(void **state) {
    (void)state;
    tw_file f = tw_build(&chain_model);
    model_read r = read_ok(f.data, f.size);
    assert_false(r.info.has_offline_plan);
    const uint64_t offsets[] = {0, 16, 0};
    embedded out = embed_ok(f.data, f.size, &r, offsets);
    assert_false(out.info.replaced);
    assert_true(out.info.buffer_added);
    assert_int_equal(out.info.plan_buffer, 1);
    assert_int_equal(out.info.tensor_count, 3);
    assert_int_equal(out.info.planned_count, 3);
    check_embedded(f.data, f.size, &r, offsets, &out);
    /* The front block, byte by byte: header 0-7; Model vtable 8-25 (7 slots: metadata is added); Model table
     * 28-51 (5 fields); buffers 52-63 (1 + 1); metadata 64-71 (0 + 1); its vtable 72-79, table 80-91, name
     * 92-119; the Buffer's vtable 120-125, table 128-135; data length at 140, so the words start 16-aligned at
     * 144 and end at 168; the input follows at 176. */
    assert_int_equal(out.info.shift, 176);
    uint32_t n;
    size_t words = plan_words(out.data, &n);
    assert_int_equal(words, 144);
    const int32_t want[] = {0, 1, 3, 0, 16, 0};
    for (uint32_t i = 0; i < COUNT(want); i++) assert_int_equal((int32_t)rd32(out.data, words + 4 * i), want[i]);
    free(out.data);
    free_read(&r);
    tw_free(&f);
}

static void test_embed_several_subgraphs_and_model_fields(void **state) {
    (void)state;
    tw_file f = multi_model();
    model_read r = read_ok(f.data, f.size);
    assert_int_equal(r.info.subgraph_count, 4);
    assert_int_equal(r.info.tensor_count, 9);
    /* planned: s0t0, s0t1, s0t2 (t3 constant, t4 a variable without an offline offset), s2t0, s2t1, s3t0, s3t1 */
    assert_int_equal(r.count, 7);
    uint64_t offsets[7];
    aplan_result res;
    plan_tflm(&r, offsets, &res);
    embedded out = embed_ok(f.data, f.size, &r, offsets);
    assert_false(out.info.replaced);
    assert_true(out.info.buffer_added);
    assert_int_equal(out.info.plan_buffer, 3);
    assert_int_equal(out.info.tensor_count, 9);
    check_embedded(f.data, f.size, &r, offsets, &out);
    check_offline_replays(&out, offsets, res.arena_size);
    /* The constant, the variable and the empty subgraph's neighbours: -1 at global indices 3 and 4. */
    uint32_t n;
    size_t words = plan_words(out.data, &n);
    assert_int_equal((int32_t)rd32(out.data, words + 12 + 4 * 3), -1);
    assert_int_equal((int32_t)rd32(out.data, words + 12 + 4 * 4), -1);
    assert_int_equal(rd32(out.data, words + 12 + 4 * 5), offsets[3]); /* s2t0 is tensor 5 over all subgraphs */
    free(out.data);
    free_read(&r);
    tw_free(&f);
}

static void test_embed_replaces_a_plan_in_place(void **state) {
    (void)state;
    tw_file f = chain_with_plan(0, false);
    model_read r = read_ok(f.data, f.size);
    assert_true(r.info.has_offline_plan);
    assert_int_equal(r.count, 4); /* t3 has no data: planned */
    assert_int_equal(r.buffers[0].offset, 0);
    assert_int_equal(r.buffers[2].offset, 32);
    const uint64_t offsets[] = {48, 16, 0, 64};
    embedded out = embed_ok(f.data, f.size, &r, offsets);
    assert_true(out.info.replaced);
    assert_false(out.info.buffer_added); /* buffer 2 held only the old plan: re-pointed */
    assert_int_equal(out.info.plan_buffer, 2);
    check_embedded(f.data, f.size, &r, offsets, &out);
    uint32_t n_meta;
    (void)vector_at(out.data, root_of(out.data), 6, &n_meta);
    assert_int_equal(n_meta, 2);
    /* Metadata unchanged: the Model points at the input's vector, moved. */
    assert_int_equal(follow(out.data, field_at(out.data, root_of(out.data), 6)),
                     out.info.shift + follow(f.data, field_at(f.data, root_of(f.data), 6)));

    /* Embedding the output again replaces its front block (since 0.5; before, a second one went before it). */
    model_read r2 = read_ok(out.data, out.size);
    const uint64_t again[] = {0, 32, 16, 48};
    embedded out2 = embed_ok(out.data, out.size, &r2, again);
    assert_true(out2.info.replaced);
    assert_true(out2.info.front_replaced);
    assert_false(out2.info.buffer_added);
    assert_int_equal(out2.info.plan_buffer, 2);
    assert_int_equal(out2.size, out.size);
    model_read r3 = read_ok(out2.data, out2.size);
    for (size_t i = 0; i < r3.count; i++) assert_int_equal(r3.buffers[i].offset, again[i]);
    free_read(&r3);
    free(out2.data);
    free_read(&r2);
    free(out.data);
    free_read(&r);
    tw_free(&f);
}

static void test_embed_replaces_a_shared_or_split_plan_beside_it(void **state) {
    (void)state;
    /* t3 reads the plan's buffer as its constant data: re-pointing it would change t3, so a buffer is appended. */
    tw_file f = chain_with_plan(2, false);
    model_read r = read_ok(f.data, f.size);
    assert_int_equal(r.count, 3);
    const uint64_t offsets[] = {0, 16, 32};
    embedded out = embed_ok(f.data, f.size, &r, offsets);
    assert_true(out.info.replaced);
    assert_true(out.info.buffer_added);
    assert_int_equal(out.info.plan_buffer, 4);
    check_embedded(f.data, f.size, &r, offsets, &out);
    uint32_t n_meta;
    size_t meta = vector_at(out.data, root_of(out.data), 6, &n_meta);
    assert_int_equal(n_meta, 2);
    assert_true(name_is(out.data, table_in(out.data, meta, 0), "min_runtime_version"));
    assert_true(name_is(out.data, table_in(out.data, meta, 1), APLAN_TFLITE_OFFLINE_METADATA));
    assert_int_equal(rd32(out.data, field_at(out.data, table_in(out.data, meta, 1), 1)), 4);
    free(out.data);
    free_read(&r);
    tw_free(&f);

    /* Two plan entries naming different buffers: both are replaced by one new entry on a new buffer. */
    f = chain_with_plan(0, true);
    r = read_ok(f.data, f.size);
    const uint64_t four[] = {0, 16, 32, 48};
    out = embed_ok(f.data, f.size, &r, four);
    assert_true(out.info.replaced);
    assert_true(out.info.buffer_added);
    assert_int_equal(out.info.plan_buffer, 4);
    check_embedded(f.data, f.size, &r, four, &out);
    meta = vector_at(out.data, root_of(out.data), 6, &n_meta);
    assert_int_equal(n_meta, 3);
    assert_int_equal(table_in(out.data, meta, 1), table_in(out.data, meta, 2)); /* one new Metadata table */
    free(out.data);
    free_read(&r);
    tw_free(&f);
}

/* The chain with t1 constant on buffer 1, stored beside the flatbuffer (Buffer.offset/size), buffer 2 a placeholder
 * (offset 1), and every operator's custom options beside it too; `at` (0: just past the flatbuffer) says where. */
static tw_file chain_with_external_data(uint64_t at, tw_extra *x) {
    static tw_tensor tensors[3];
    static tw_subgraph sg[1];
    static tw_buffer bufs[3];
    memcpy(tensors, chain_tensors, sizeof chain_tensors);
    tensors[1].buffer = 1;
    sg[0] = chain_sg[0];
    sg[0].tensors = tensors;
    bufs[0] = buffers_empty[0];
    bufs[1] = (tw_buffer){NULL, 0, at != 0 ? at : 1000, 16};
    bufs[2] = (tw_buffer){NULL, 0, 1, 0};
    tw_model m = {3, opcodes_plain, 1, sg, 1, bufs, 3, NULL, 0};
    memset(x, 0, sizeof *x);
    x->large_custom_options_offset = at != 0 ? at : 1000;
    tw_file f = tw_build_ex(&m, x);
    if (at != 0) return f;
    /* Now that the size is known: the data 16 bytes past a 16-aligned end, as TFLite's writer aligns it. */
    const size_t end = (f.size + 15u) & ~(size_t)15u;
    tw_free(&f);
    f = chain_with_external_data(end, x);
    f.data = realloc(f.data, end + 16u);
    memset(f.data + f.size, 0, end - f.size);
    memcpy(f.data + end, sixteen, 16);
    f.size = end + 16u;
    return f;
}

static void test_embed_moves_absolute_file_offsets(void **state) {
    (void)state;
    tw_extra x;
    tw_file f = chain_with_external_data(0, &x);
    model_read r = read_ok(f.data, f.size);
    assert_int_equal(r.count, 2); /* t1 is constant: its data lies beside the flatbuffer */
    const uint64_t offsets[] = {0, 16};
    embedded out = embed_ok(f.data, f.size, &r, offsets);
    check_embedded(f.data, f.size, &r, offsets, &out);
    uint64_t at = rd64(f.data, tw_pos(&f, "b1.offset"));
    size_t shift = out.info.shift;
    assert_int_equal(rd64(out.data, shift + tw_pos(&f, "b1.offset")), at + shift);
    assert_memory_equal(out.data + at + shift, sixteen, 16); /* the data is where the moved offset says */
    assert_int_equal(rd64(out.data, shift + tw_pos(&f, "b2.offset")), 1); /* a placeholder stays */
    assert_int_equal(rd64(out.data, shift + tw_pos(&f, "s0o1.large_offset")), at + shift);
    free(out.data);
    free_read(&r);
    tw_free(&f);

    /* An offset that cannot move: the byte and the field named. */
    f = chain_with_external_data(UINT64_MAX - 4u, &x);
    r = read_ok(f.data, f.size);
    aplan_format_error e;
    size_t size = 7;
    aplan_status st = embed_with_scratch(f.data, f.size, r.ids, offsets, r.count, NULL, 0, &size, NULL, &e);
    assert_int_equal(st, APLAN_E_FORMAT_BAD_VALUE);
    assert_int_equal(size, 0);
    assert_int_equal(e.byte_offset, tw_pos(&f, "b1.offset"));
    char msg[120];
    snprintf(msg, sizeof msg, "buffer 1: offset %llu plus the %u-byte front block passes 2^64 - 1",
             (unsigned long long)(UINT64_MAX - 4u), 192u); /* the chain's 176 (see the first test) + 2 buffers */
    assert_string_equal(e.message, msg);
    free_read(&r);
    tw_free(&f);
}

/* Over its own output (since 0.5): the front block is replaced, not stacked, so the file keeps its size, the same
 * plan gives the same bytes and another plan changes only the plan's words. Also over a model with data beside the
 * flatbuffer, whose absolute offsets the first embed moved and the second must leave as they are. */
static void check_embed_again(const uint8_t *model, size_t size, const model_read *r, const uint64_t *p1,
                              const uint64_t *p2) {
    embedded one = embed_ok(model, size, r, p1);
    assert_false(one.info.front_replaced);
    model_read r1 = read_ok(one.data, one.size);
    embedded same = embed_ok(one.data, one.size, &r1, p1);
    assert_true(same.info.front_replaced);
    assert_true(same.info.replaced);
    assert_false(same.info.buffer_added);
    assert_int_equal(same.size, one.size);
    assert_memory_equal(same.data, one.data, one.size);
    embedded two = embed_ok(one.data, one.size, &r1, p2);
    assert_true(two.info.front_replaced);
    assert_int_equal(two.size, one.size);
    size_t differ = 0;
    for (size_t i = 0; i < one.size; i++) differ += one.data[i] != two.data[i];
    assert_true(differ > 0 && differ <= 4u * r->count);
    model_read r2 = read_ok(two.data, two.size);
    for (size_t i = 0; i < r->count; i++) assert_int_equal(r2.buffers[i].offset, p2[i]);
    embedded back = embed_ok(two.data, two.size, &r2, p1); /* and back again: the first output, byte for byte */
    assert_memory_equal(back.data, one.data, one.size);
    free(back.data);
    free_read(&r2);
    free(two.data);
    free(same.data);
    free_read(&r1);
    free(one.data);
}

static void test_embed_over_its_own_output(void **state) {
    (void)state;
    tw_file f = tw_build(&chain_model);
    model_read r = read_ok(f.data, f.size);
    const uint64_t p1[] = {0, 16, 0}, p2[] = {32, 0, 16};
    check_embed_again(f.data, f.size, &r, p1, p2);
    free_read(&r);
    tw_free(&f);
    tw_extra x;
    f = chain_with_external_data(0, &x);
    r = read_ok(f.data, f.size);
    const uint64_t q1[] = {0, 16}, q2[] = {16, 0};
    check_embed_again(f.data, f.size, &r, q1, q2);
    free_read(&r);
    tw_free(&f);
}

static void test_embed_size_query_and_too_small_output(void **state) {
    (void)state;
    tw_file f = tw_build(&chain_model);
    model_read r = read_ok(f.data, f.size);
    const uint64_t offsets[] = {0, 16, 0};
    size_t need = 0;
    aplan_tflite_embed_info info;
    aplan_format_error e;
    assert_int_equal(embed_with_scratch(f.data, f.size, r.ids, offsets, 3, NULL, 0, &need, &info, &e), APLAN_OK);
    assert_int_equal(need, info.output_size);
    assert_int_equal(need, info.shift + f.size);
    uint8_t *out = malloc(need);
    memset(out, 0xA5, need);
    size_t got = 0;
    aplan_status st = embed_with_scratch(f.data, f.size, r.ids, offsets, 3, out, need - 1, &got, &info, &e);
    assert_int_equal(st, APLAN_E_OUTPUT_TOO_SMALL);
    assert_int_equal(e.status, APLAN_E_OUTPUT_TOO_SMALL);
    assert_int_equal(got, need); /* so the caller can size its buffer */
    char msg[120];
    snprintf(msg, sizeof msg, "the output needs %zu bytes, out_capacity is %zu", need, need - 1);
    assert_string_equal(e.message, msg);
    for (size_t i = 0; i < need; i++) assert_int_equal(out[i], 0xA5); /* nothing written */
    const aplan_tflite_embed_info zero = {0};
    assert_memory_equal(&info, &zero, sizeof info);
    /* error and info are optional */
    assert_int_equal(embed_with_scratch(f.data, f.size, r.ids, offsets, 3, out, need, &got, NULL, NULL), APLAN_OK);
    assert_int_equal(got, need);
    free(out);
    free_read(&r);
    tw_free(&f);
}

/* Call embed on the chain with these arguments; expect status and message, *out_size 0 and info zeroed. */
static void expect_embed_error(const tw_file *f, const aplan_tflite_id *ids, const uint64_t *offsets, size_t count,
                               aplan_status status, const char *message) {
    size_t size = 99;
    aplan_tflite_embed_info info;
    memset(&info, 0x5A, sizeof info);
    aplan_format_error e;
    aplan_status st = embed_with_scratch(f->data, f->size, ids, offsets, count, NULL, 0, &size, &info, &e);
    if (st != status || strcmp(e.message, message) != 0)
        print_error("got %s: \"%s\"\n", aplan_status_str(st), e.message);
    assert_int_equal(st, status);
    assert_int_equal(e.status, status);
    assert_string_equal(e.message, message);
    assert_int_equal(size, 0);
    const aplan_tflite_embed_info zero = {0};
    assert_memory_equal(&info, &zero, sizeof info);
}

static void test_embed_argument_errors(void **state) {
    (void)state;
    tw_file f = tw_build(&chain_model);
    model_read r = read_ok(f.data, f.size);
    const uint64_t offsets[] = {0, 16, 0};
    size_t size = 0;
    aplan_format_error e;
    uint8_t out[8];
    assert_int_equal(embed_with_scratch(NULL, 0, r.ids, offsets, 3, NULL, 0, &size, NULL, &e), APLAN_E_INVALID_ARG);
    assert_string_equal(e.message, "model is NULL");
    assert_int_equal(embed_with_scratch(f.data, f.size, r.ids, offsets, 3, NULL, 0, NULL, NULL, &e),
                     APLAN_E_INVALID_ARG);
    assert_string_equal(e.message, "out_size is NULL");
    expect_embed_error(&f, NULL, offsets, 3, APLAN_E_INVALID_ARG, "ids is NULL");
    expect_embed_error(&f, r.ids, NULL, 3, APLAN_E_INVALID_ARG, "offsets is NULL");
    assert_int_equal(embed_with_scratch(f.data, f.size, r.ids, offsets, 3, NULL, 8, &size, NULL, &e),
                     APLAN_E_INVALID_ARG);
    assert_string_equal(e.message, "out is NULL");
    assert_int_equal(embed_with_scratch(f.data, f.size, r.ids, offsets, 3, f.data + 8, 64, &size, NULL, &e),
                     APLAN_E_INVALID_ARG);
    assert_string_equal(e.message, "out overlaps the model");
    assert_int_equal(embed_with_scratch(f.data, f.size, r.ids, offsets, 3, out, sizeof out, &size, NULL, &e),
                     APLAN_E_OUTPUT_TOO_SMALL);

    expect_embed_error(&f, r.ids, offsets, 2, APLAN_E_INVALID_ARG, "count is 2, the model has 3 buffers");
    /* Scratch: the size asked for, aligned. */
    size_t bytes = 0;
    assert_int_equal(aplan_tflite_embed_scratch_size(f.data, f.size, &bytes, &e), APLAN_OK);
    assert_true(bytes > 0);
    assert_int_equal(aplan_tflite_embed_scratch_size(f.data, f.size, NULL, &e), APLAN_E_INVALID_ARG);
    assert_string_equal(e.message, "bytes is NULL");
    uint64_t *room = calloc(bytes / 8u + 2u, 8u);
    assert_int_equal(aplan_tflite_embed(f.data, f.size, r.ids, offsets, 3, room, bytes - 1u, NULL, 0, &size, NULL, &e),
                     APLAN_E_SCRATCH_TOO_SMALL);
    char msg[160];
    snprintf(msg, sizeof msg, "scratch is %zu bytes, aplan_tflite_embed_scratch_size asks for %zu", bytes - 1u, bytes);
    assert_string_equal(e.message, msg);
    assert_int_equal(aplan_tflite_embed(f.data, f.size, r.ids, offsets, 3, (char *)room + 1, bytes, NULL, 0, &size,
                                        NULL, &e),
                     APLAN_E_SCRATCH_MISALIGNED);
    assert_string_equal(e.message, "scratch is not 8-byte aligned");
    assert_int_equal(aplan_tflite_embed(f.data, f.size, r.ids, offsets, 3, room, bytes, NULL, 0, &size, NULL, &e),
                     APLAN_OK);
    free(room);
    aplan_tflite_id ids[3] = {{0, 1}, {0, 0}, {0, 2}};
    expect_embed_error(&f, ids, offsets, 3, APLAN_E_INVALID_ARG,
                       "ids[1] is s0t0, not after ids[0] s0t1 (the reader's order)");
    ids[0] = (aplan_tflite_id){0, 0};
    expect_embed_error(&f, ids, offsets, 3, APLAN_E_INVALID_ARG,
                       "ids[1] is s0t0, not after ids[0] s0t0 (the reader's order)");
    ids[1] = (aplan_tflite_id){0, 1};
    ids[2] = (aplan_tflite_id){1, 0};
    expect_embed_error(&f, ids, offsets, 3, APLAN_E_INVALID_ARG, "ids[2] is s1t0: the model has 1 subgraphs");
    ids[2] = (aplan_tflite_id){0, 3};
    expect_embed_error(&f, ids, offsets, 3, APLAN_E_INVALID_ARG, "ids[2] is s0t3: subgraph 0 has 3 tensors");
    const uint64_t unplaced[] = {0, APLAN_NO_OFFSET, 0};
    expect_embed_error(&f, r.ids, unplaced, 3, APLAN_E_INVALID_ARG, "offsets[1] (s0t1) is APLAN_NO_OFFSET: unplaced");
    const uint64_t too_far[] = {0, 16, (uint64_t)INT32_MAX + 1u};
    expect_embed_error(&f, r.ids, too_far, 3, APLAN_E_CAPACITY_EXCEEDED,
                       "offsets[2] (s0t2) is 2147483648, above TFLM's int32 limit 2147483647");
    /* 2^31 - 16 is TFLM's largest aligned offset; t2's 8 bytes, rounded to 16, then end at 2^31: written. */
    const uint64_t largest[] = {0, 16, ((uint64_t)1 << 31) - 16u};
    embedded big = embed_ok(f.data, f.size, &r, largest);
    model_read back = read_ok(big.data, big.size);
    assert_int_equal(back.buffers[2].offset, largest[2]);
    free_read(&back);
    free(big.data);
    /* The plan is verified as TFLM uses it (since 0.5): 16-aligned offsets, sizes rounded up to 16, no overlap. */
    const uint64_t misaligned[] = {0, 8, 0};
    expect_embed_error(&f, r.ids, misaligned, 3, APLAN_E_MISALIGNED_OFFSET,
                       "the plan is not one TFLM can use: buffer 1: offset 8 is not a multiple of its alignment 16 "
                       "(buffer 1 is s0t1)");
    const uint64_t clash[] = {0, 0, 32}; /* t0 and t1 are both live at op0 */
    expect_embed_error(&f, r.ids, clash, 3, APLAN_E_OVERLAP,
                       "the plan is not one TFLM can use: buffers 0 and 1 overlap at steps 2-2, bytes 0-15 (buffer 0 "
                       "is s0t0, the other s0t1)");
    free_read(&r);
    tw_free(&f);

    /* An end past 2^31 (t2 of 32 bytes at 2^31 - 16), though every offset fits int32. */
    tw_tensor tensors[3];
    memcpy(tensors, chain_tensors, sizeof chain_tensors);
    tensors[2].shape = shape_8;
    tw_subgraph sg[1] = {chain_sg[0]};
    sg[0].tensors = tensors;
    tw_model m = chain_model;
    m.subgraphs = sg;
    f = tw_build(&m);
    r = read_ok(f.data, f.size);
    expect_embed_error(&f, r.ids, largest, 3, APLAN_E_CAPACITY_EXCEEDED,
                       "the plan is not one TFLM can use: buffer 2 (s0t2) ends at byte 2147483664, past 2^31 (TFLM's "
                       "offsets are int32)");

    /* The reader's findings pass through: here a bad identifier. */
    f.data[5] = 'X';
    expect_embed_error(&f, r.ids, offsets, 3, APLAN_E_FORMAT_BAD_VALUE, "header: file identifier is not \"TFL3\"");
    free_read(&r);
    tw_free(&f);
}

static void test_embed_refuses_models_it_cannot_write(void **state) {
    (void)state;
    /* A Model field newer than the writer: it cannot tell an offset from a scalar. */
    tw_extra x;
    memset(&x, 0, sizeof x);
    x.unknown_field = 10;
    tw_file f = tw_build_ex(&chain_model, &x);
    model_read r = read_ok(f.data, f.size); /* the reader does not mind */
    const uint64_t offsets[] = {0, 16, 0};
    expect_embed_error(&f, r.ids, offsets, 3, APLAN_E_FORMAT_UNSUPPORTED,
                       "Model field 10 is newer than this writer: it cannot tell an offset from a scalar");
    aplan_format_error e;
    size_t size;
    (void)embed_with_scratch(f.data, f.size, r.ids, offsets, 3, NULL, 0, &size, NULL, &e);
    size_t root = tw_pos(&f, "root");
    assert_int_equal(e.byte_offset, root - (size_t)(int32_t)rd32(f.data, root) + 4u + 2u * 10u);
    free_read(&r);
    tw_free(&f);

    /* No buffers vector, or an empty one: the plan cannot be the buffer after buffer 0. */
    tw_model m = chain_model;
    m.n_buffers = 0;
    memset(&x, 0, sizeof x);
    x.no_buffers = true;
    f = tw_build_ex(&m, &x);
    r = read_ok(f.data, f.size);
    expect_embed_error(&f, r.ids, offsets, 3, APLAN_E_FORMAT_UNSUPPORTED,
                       "Model.buffers: the model has none; the plan's buffer cannot follow buffer 0");
    (void)embed_with_scratch(f.data, f.size, r.ids, offsets, 3, NULL, 0, &size, NULL, &e);
    assert_int_equal(e.byte_offset, tw_pos(&f, "root"));
    free_read(&r);
    tw_free(&f);
    f = tw_build(&m);
    r = read_ok(f.data, f.size);
    expect_embed_error(&f, r.ids, offsets, 3, APLAN_E_FORMAT_UNSUPPORTED,
                       "Model.buffers: the vector is empty; the plan's buffer cannot follow buffer 0");
    free_read(&r);
    tw_free(&f);

    /* A metadata entry or Model.metadata_buffer naming buffer 1 of a one-buffer model (neither the reader nor TFLM
     * checks them): the appended plan buffer would be buffer 1, so they would start naming the plan, and the
     * output embedded again would find its plan buffer shared (no front block replaced). Index 2 stays dangling
     * as it was: that model is written. */
    static const tw_metadata dangling_md[] = {{"min_runtime_version", 0}, {"CONVERSION_METADATA", 1}};
    m = chain_model;
    m.metadata = dangling_md;
    m.n_metadata = 2;
    f = tw_build(&m);
    r = read_ok(f.data, f.size);
    expect_embed_error(&f, r.ids, offsets, 3, APLAN_E_FORMAT_BAD_VALUE,
                       "metadata 1: buffer is 1, a buffer the model does not have: the plan's new buffer would take "
                       "that index");
    (void)embed_with_scratch(f.data, f.size, r.ids, offsets, 3, NULL, 0, &size, NULL, &e);
    assert_int_equal(e.byte_offset, tw_pos(&f, "m1") + 8u);
    free_read(&r);
    tw_free(&f);
    static const int32_t dangling_mb[] = {0, 1};
    memset(&x, 0, sizeof x);
    x.metadata_buffer = dangling_mb;
    x.n_metadata_buffer = 2;
    f = tw_build_ex(&chain_model, &x);
    r = read_ok(f.data, f.size);
    expect_embed_error(&f, r.ids, offsets, 3, APLAN_E_FORMAT_BAD_VALUE,
                       "Model.metadata_buffer[1] is 1, a buffer the model does not have: the plan's new buffer "
                       "would take that index");
    (void)embed_with_scratch(f.data, f.size, r.ids, offsets, 3, NULL, 0, &size, NULL, &e);
    const size_t mb = tw_pos(&f, "model.f5");
    assert_int_equal(e.byte_offset, mb + rd32(f.data, mb) + 4u + 4u);
    free_read(&r);
    tw_free(&f);
    static const int32_t far_mb[] = {2};
    x.metadata_buffer = far_mb;
    x.n_metadata_buffer = 1;
    f = tw_build_ex(&chain_model, &x);
    r = read_ok(f.data, f.size);
    embedded out = embed_ok(f.data, f.size, &r, offsets);
    check_embedded(f.data, f.size, &r, offsets, &out);
    assert_int_equal(out.info.plan_buffer, 1);
    free(out.data);
    free_read(&r);
    tw_free(&f);

    /* A Model field the reader ignores but the output points at must be sound: a description past the end. */
    memset(&x, 0, sizeof x);
    x.description = "d";
    f = tw_build_ex(&chain_model, &x);
    r = read_ok(f.data, f.size);
    size_t slot = tw_pos(&f, "model.f3");
    uint32_t far = (uint32_t)(f.size - slot + 64u);
    for (unsigned b = 0; b < 4; b++) f.data[slot + b] = (uint8_t)(far >> (8 * b));
    expect_embed_error(&f, r.ids, offsets, 3, APLAN_E_FORMAT_BAD_OFFSET,
                       "Model.description: offset points past the end");
    free_read(&r);
    tw_free(&f);
}

/* A model file: embed a plan made with TFLM's settings, read it back, replay it offline. Prints a line about it. */
static void round_trip_file(const char *path, const char *name) {
    FILE *fp = fopen(path, "rb");
    if (fp == NULL) fail_msg("cannot open %s", path);
    fseek(fp, 0, SEEK_END);
    size_t size = (size_t)ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *data = malloc(size);
    assert_int_equal(fread(data, 1, size, fp), size);
    fclose(fp);
    model_read r = read_ok(data, size);
    uint64_t *offsets = calloc(r.count + 1u, sizeof *offsets);
    aplan_result res;
    plan_tflm(&r, offsets, &res);
    embedded out = embed_ok(data, size, &r, offsets);
    check_embedded(data, size, &r, offsets, &out);
    check_offline_replays(&out, offsets, res.arena_size);
    printf("%-40s %4zu buffers, arena %8llu, +%4zu bytes, plan in buffer %u%s\n", name, r.count,
           (unsigned long long)res.arena_size, out.info.shift, out.info.plan_buffer,
           out.info.replaced ? out.info.buffer_added ? " (replaced, buffer added)" : " (replaced in place)" : "");
    free(out.data);
    free(offsets);
    free_read(&r);
    free(data);
}

/* The fuzz corpus's models that read (the writer built them; the hostile ones exceed the work budget on purpose):
 * files as the shared models are, so a clone without the shared folder round-trips them too. One has an offline
 * plan and an IF, one a WHILE, one names, one control flow two calls deep. */
static void test_embed_round_trips_corpus_models(void **state) {
    (void)state;
    static const char *const seeds[] = {"seed-names.tflite", "seed-offline-plan-and-if.tflite", "seed-steps.tflite",
                                        "seed-while.tflite"};
    for (size_t k = 0; k < sizeof seeds / sizeof seeds[0]; k++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", getenv("APLAN_TFLITE_CORPUS"), seeds[k]);
        round_trip_file(path, seeds[k]);
    }
}

/* A model whose tables overlap (tests/cli/make_models' ties_overlap.tflite, committed as a fuzz seed): a Buffer table
 * lies on tensor 0's, so moving its file offset would rewrite the tensor. Refused before anything is written,
 * naming both; the size query says the same. */
static void test_embed_refuses_tables_that_overlap(void **state) {
    (void)state;
    char path[4096];
    snprintf(path, sizeof path, "%s/seed-hostile-embed-overlap.tflite", getenv("APLAN_TFLITE_CORPUS"));
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    uint8_t data[4096];
    size_t size = fread(data, 1, sizeof data, fp);
    fclose(fp);
    model_read r = read_ok(data, size); /* the reader takes it: every tensor is constant, 0 buffers */
    assert_int_equal(r.count, 0);
    uint8_t out[8192];
    size_t got = 7;
    aplan_format_error e;
    for (int write = 0; write < 2; write++) {
        aplan_status st = embed_with_scratch(data, size, r.ids, NULL, 0, write ? out : NULL, write ? sizeof out : 0,
                                             &got, NULL, &e);
        assert_int_equal(st, APLAN_E_FORMAT_BAD_OFFSET);
        assert_int_equal(got, 0);
        assert_int_equal(e.byte_offset, 344);
        assert_string_equal(e.message, "the file offset at byte 344 (of the Buffer table at byte 336) lies in a "
                                       "tensor at bytes 336-356: tables overlap");
    }
    free_read(&r);
}

/* Every model in the shared folder. */
static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void test_embed_round_trips_every_shared_model(void **state) {
    (void)state;
    DIR *dir = opendir(need_shared("models"));
    assert_non_null(dir);
    char *names[256];
    size_t n = 0;
    for (struct dirent *d; (d = readdir(dir)) != NULL && n < 256;) {
        size_t len = strlen(d->d_name);
        if (len > 7 && strcmp(d->d_name + len - 7, ".tflite") == 0) names[n++] = strdup(d->d_name);
    }
    closedir(dir);
    qsort(names, n, sizeof names[0], by_name);
    assert_true(n > 0);
    for (size_t k = 0; k < n; k++) {
        char rel[512];
        snprintf(rel, sizeof rel, "models/%s", names[k]);
        round_trip_file(shared_path(rel), names[k]);
        free(names[k]);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_embed_adds_a_plan_to_a_chain),
        cmocka_unit_test(test_embed_several_subgraphs_and_model_fields),
        cmocka_unit_test(test_embed_replaces_a_plan_in_place),
        cmocka_unit_test(test_embed_replaces_a_shared_or_split_plan_beside_it),
        cmocka_unit_test(test_embed_moves_absolute_file_offsets),
        cmocka_unit_test(test_embed_over_its_own_output),
        cmocka_unit_test(test_embed_size_query_and_too_small_output),
        cmocka_unit_test(test_embed_argument_errors),
        cmocka_unit_test(test_embed_refuses_models_it_cannot_write),
        cmocka_unit_test(test_embed_round_trips_corpus_models),
        cmocka_unit_test(test_embed_refuses_tables_that_overlap),
        cmocka_unit_test(test_embed_round_trips_every_shared_model),
    };
    return cmocka_run_group_tests_name("tflite_write", tests, NULL, NULL);
}
