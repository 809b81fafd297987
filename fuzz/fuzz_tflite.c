/*
 * fuzz_tflite: the .tflite reader on arbitrary bytes (seeded with models the project builds and, in fuzz/run.sh,
 * the shared real models). It must never crash, loop or read outside the input; a rejection carries a documented
 * status, a byte offset inside the input and a terminated message; an accepted model's buffers have sane lifetimes
 * and ids, the query and the read agree, and the buffers plan as TFLM would (alignment 16, sizes rounded) with only
 * documented failures. Such a plan is then embedded (aplan_tflite_embed): the size query equals the written size,
 * one byte less is refused, and the output reads back to the same buffers with the plan as their fixed offsets.
 * The lookups run on every model that reads: aplan_tflite_steps numbers as many steps as the lifetimes use, each
 * naming an operator that aplan_tflite_operator describes alike; every tensor, operator and subgraph lookup
 * succeeds (or fails on a malformed custom code or quantization table only; a malformed tensor or subgraph name reads
 * as absent, with name_error), every text and index vector lies inside the
 * input, every index is in range, and a planned tensor's size is its buffer's. TFLM's whole arena is computed for
 * both ABIs, reference and CMSIS-NN kernels (check_tflm).
 */
#include <stdlib.h>
#include <string.h>

#include "aplan/tflite.h"
#include "aplan/tflm.h"
#include "fuzz_common.h"

static bool format_status(aplan_status s) {
    return s == APLAN_E_FORMAT_TRUNCATED || s == APLAN_E_FORMAT_BAD_OFFSET || s == APLAN_E_FORMAT_BAD_VALUE ||
           s == APLAN_E_FORMAT_UNSUPPORTED || s == APLAN_E_FORMAT_BAD_METADATA;
}

static void check_error(aplan_status st, const aplan_format_error *e, size_t size);

/* [p, p + n) lies inside the input (compared as integers: p may point elsewhere, e.g. at a static name). */
static bool inside(const uint8_t *model, size_t size, const void *p, size_t n) {
    const uintptr_t a = (uintptr_t)p;
    const uintptr_t m = (uintptr_t)model;
    return a >= m && n <= size && a - m <= size - n;
}

/* A text the lookups return: inside the input, or (names of builtins and types) a static NUL-terminated string. */
static void check_text(const uint8_t *model, size_t size, aplan_tflite_text t, bool may_be_static, const char *what) {
    FZ_CHECK(NULL, (t.data == NULL) <= (t.size == 0), "%s: NULL text of %zu bytes", what, t.size);
    if (t.data == NULL || inside(model, size, t.data, t.size)) return;
    FZ_CHECK(NULL, may_be_static && t.data[t.size] == '\0', "%s: text outside the input", what);
}

/* Every entry of an index vector inside the input and in [lowest, n). */
static void check_indices(const uint8_t *model, size_t size, aplan_tflite_indices v, int32_t lowest, uint32_t n,
                          const char *what) {
    FZ_CHECK(NULL, v.count == 0 || inside(model, size, v.data, 4u * (size_t)v.count), "%s: vector outside", what);
    for (uint32_t i = 0; i < v.count; i++) {
        const int32_t x = aplan_tflite_index_at(v, i);
        FZ_CHECK(NULL, x >= lowest && (x < 0 || (uint32_t)x < n), "%s[%u] is %d of %u", what, i, x, n);
    }
}

/* A lookup that failed on a model the read accepted: only a name or custom code the query does not read. */
static void check_name_error(aplan_status st, const aplan_format_error *e, size_t size, const char *what) {
    check_error(st, e, size);
    FZ_CHECK(NULL, st == APLAN_E_FORMAT_TRUNCATED || st == APLAN_E_FORMAT_BAD_OFFSET, "%s: %s", what, e->message);
}

/* The lookups on a model that read: buffers/ids as the read gave them, scratch of the query's size. */
static void check_lookups(const uint8_t *model, size_t size, const aplan_tflite_info *info, void *scratch,
                          const aplan_buffer *buffers, const aplan_tflite_id *ids, size_t count) {
    aplan_format_error e;
    size_t tensors = 0;
    size_t operators = 0;
    for (uint32_t s = 0; s < info->subgraph_count; s++) {
        aplan_tflite_subgraph_info g;
        aplan_status st = aplan_tflite_subgraph(model, size, s, &g, &e);
        if (st != APLAN_OK) {
            check_name_error(st, &e, size, "subgraph");
            return; /* its counts are unknown: the totals below cannot be checked */
        }
        check_text(model, size, g.name, false, "subgraph name");
        FZ_CHECK(NULL, g.name_error == APLAN_OK || (g.name.data == NULL && g.name.size == 0), "subgraph %u: a name "
                 "with name_error %u", s, g.name_error);
        check_indices(model, size, g.inputs, 0, g.tensor_count, "subgraph inputs");
        check_indices(model, size, g.outputs, 0, g.tensor_count, "subgraph outputs");
        tensors += g.tensor_count;
        operators += g.operator_count;
        for (uint32_t t = 0; t < g.tensor_count; t++) {
            aplan_tflite_tensor_info ti;
            st = aplan_tflite_tensor(model, size, (aplan_tflite_id){s, t}, &ti, &e);
            if (st != APLAN_OK) {
                check_name_error(st, &e, size, "tensor");
                continue;
            }
            check_text(model, size, ti.name, false, "tensor name");
            FZ_CHECK(NULL, ti.name_error == APLAN_OK || (ti.name.data == NULL && ti.name.size == 0),
                     "s%ut%u: a name with name_error %u", s, t, ti.name_error);
            FZ_CHECK(NULL, ti.shape_truncated == (ti.rank > APLAN_TFLITE_MAX_RANK), "s%ut%u: truncation flag", s, t);
            for (uint32_t k = 0; k < APLAN_TFLITE_MAX_RANK; k++) {
                FZ_CHECK(NULL, ti.shape[k] >= 0 && (k < ti.rank || ti.shape[k] == 0), "s%ut%u: shape[%u]", s, t, k);
            }
            FZ_CHECK(NULL, ti.has_size || ti.size == 0, "s%ut%u: a size without has_size", s, t);
            FZ_CHECK(NULL, (ti.type_name != NULL) == (ti.type <= 22), "s%ut%u: type %u name", s, t, ti.type);
        }
        for (uint32_t i = 0; i < g.operator_count; i++) {
            aplan_tflite_operator_info o;
            st = aplan_tflite_operator(model, size, s, i, &o, &e);
            if (st != APLAN_OK) {
                check_name_error(st, &e, size, "operator");
                continue;
            }
            check_text(model, size, o.name, true, "operator name");
            const bool known = o.builtin_code >= 0 && o.builtin_code <= 209; /* the names table's codes */
            FZ_CHECK(NULL, o.custom == (o.builtin_code == 32) && (o.name.data != NULL) == known,
                     "s%u operator %u: code %d, custom %d, name %s", s, i, o.builtin_code, (int)o.custom,
                     o.name.data != NULL ? "given" : "none");
            check_indices(model, size, o.inputs, -1, g.tensor_count, "operator inputs");
            check_indices(model, size, o.outputs, 0, g.tensor_count, "operator outputs");
            for (unsigned k = 0; k < 2; k++) {
                FZ_CHECK(NULL, o.calls[k] >= -1 && (o.calls[k] < 0 || (size_t)o.calls[k] < info->subgraph_count),
                         "s%u operator %u calls %d", s, i, o.calls[k]);
            }
        }
    }
    FZ_CHECK(NULL, tensors == info->tensor_count && operators == info->operator_count,
             "subgraphs hold %zu tensors and %zu operators, the query said %zu and %zu", tensors, operators,
             info->tensor_count, info->operator_count);
    for (size_t i = 0; i < count; i++) {
        aplan_tflite_tensor_info ti;
        aplan_status st = aplan_tflite_tensor(model, size, ids[i], &ti, &e);
        if (st != APLAN_OK) continue; /* a malformed name, checked above */
        FZ_CHECK(NULL, ti.has_size && ti.size == buffers[i].size && !ti.constant, "buffer %zu: tensor size %llu", i,
                 (unsigned long long)ti.size);
    }

    size_t n = 0;
    aplan_status st = aplan_tflite_steps(model, size, scratch, info->scratch_size, NULL, 0, &n, &e);
    if (st != APLAN_OK) {
        check_name_error(st, &e, size, "steps"); /* a custom code the walk visits */
        return;
    }
    /* A walk near APLAN_TFLITE_MAX_VISITS has tens of millions of steps: past 2^16 only a prefix is filled, which
     * the call must report as OUTPUT_TOO_SMALL with the full count. */
    const size_t cap = n < ((size_t)1 << 16) ? n : (size_t)1 << 16;
    aplan_tflite_step *steps = malloc(cap * sizeof *steps); /* n >= 2 */
    if (steps == NULL) abort();
    size_t n2 = 0;
    st = aplan_tflite_steps(model, size, scratch, info->scratch_size, steps, cap, &n2, &e);
    FZ_CHECK(NULL, st == (cap == n ? APLAN_OK : APLAN_E_OUTPUT_TOO_SMALL) && n2 == n,
             "steps: the fill gave %d and %zu steps, the size query %zu", (int)st, n2, n);
    FZ_CHECK(NULL, n >= 2 && steps[0].kind == APLAN_TFLITE_STEP_START && steps[1].kind == APLAN_TFLITE_STEP_ENTRY &&
                       steps[1].entered == 0 && steps[1].op == APLAN_TFLITE_NONE,
             "steps 0 and 1");
    for (size_t i = 0; i < count; i++) {
        FZ_CHECK(NULL, buffers[i].upper <= n, "buffer %zu lives to step %llu of %zu", i,
                 (unsigned long long)buffers[i].upper, n);
    }
    uint32_t next_top = 0; /* subgraph 0's operators run once each, in order, at depth 0 */
    for (size_t k = 2; k < cap; k++) {
        const aplan_tflite_step *p = &steps[k];
        FZ_CHECK(NULL, p->kind == APLAN_TFLITE_STEP_OPERATOR || p->kind == APLAN_TFLITE_STEP_ENTRY, "step %zu kind", k);
        FZ_CHECK(NULL, p->depth <= APLAN_TFLITE_MAX_NESTING && (p->depth == 0) == (p->subgraph == 0 && p->kind ==
                                                                   APLAN_TFLITE_STEP_OPERATOR),
                 "step %zu: depth %u in subgraph %u", k, p->depth, p->subgraph);
        if (p->kind == APLAN_TFLITE_STEP_ENTRY) {
            FZ_CHECK(NULL, p->entered < info->subgraph_count, "step %zu enters %u", k, p->entered);
        } else {
            FZ_CHECK(NULL, p->entered == APLAN_TFLITE_NONE, "step %zu: an operator entering %u", k, p->entered);
        }
        if (p->depth == 0) FZ_CHECK(NULL, p->op == next_top++, "step %zu: operator %u of subgraph 0", k, p->op);
        aplan_tflite_operator_info o;
        st = aplan_tflite_operator(model, size, p->subgraph, p->op, &o, &e);
        FZ_CHECK(NULL, st == APLAN_OK, "step %zu: operator %u of subgraph %u: %s", k, p->op, p->subgraph, e.message);
        FZ_CHECK(NULL, o.builtin_code == p->builtin_code && o.name.data == p->name.data && o.name.size == p->name.size,
                 "step %zu: the operator differs from its lookup", k);
        FZ_CHECK(NULL, p->kind == APLAN_TFLITE_STEP_OPERATOR || o.calls[0] == (int32_t)p->entered ||
                           o.calls[1] == (int32_t)p->entered,
                 "step %zu enters %u, which its operator does not call", k, p->entered);
    }
    aplan_tflite_subgraph_info g0;
    if (cap == n && aplan_tflite_subgraph(model, size, 0, &g0, NULL) == APLAN_OK) {
        FZ_CHECK(NULL, next_top == g0.operator_count, "subgraph 0: %u of %u operators stepped", next_top,
                 g0.operator_count);
    }
    free(steps);
}

/* Embed the plan off[] of the count buffers read from model, read the output back and compare: whatever the file,
 * an output embed returns OK for reads back as the input's buffers with exactly the plan's offsets, and embedding
 * that output again with the same plan gives the same bytes. */
static void check_embed(const uint8_t *model, size_t size, const aplan_buffer *buffers, const aplan_tflite_id *ids,
                        const uint64_t *off, size_t count) {
    aplan_format_error e;
    aplan_tflite_embed_info info;
    size_t need = 0, bytes = 0;
    aplan_status st = aplan_tflite_embed_scratch_size(model, size, &bytes, &e);
    if (st != APLAN_OK) {
        check_error(st, &e, size); /* the parts the reader does not check */
        return;
    }
    void *scratch = malloc(bytes + 1u);
    if (scratch == NULL) abort();
    st = aplan_tflite_embed(model, size, ids, off, count, scratch, bytes, NULL, 0, &need, &info, &e);
    bool too_far = false; /* an end TFLM's int32 cannot hold: the one refusal a valid plan may meet */
    for (size_t i = 0; i < count; i++) {
        const uint64_t rounded = (buffers[i].size + 15u) & ~(uint64_t)15u;
        too_far = too_far || off[i] > (uint64_t)INT32_MAX || off[i] + rounded > (uint64_t)INT32_MAX + 1u;
    }
    FZ_CHECK(NULL, st != APLAN_E_CAPACITY_EXCEEDED || too_far, "embed: capacity exceeded within int32: %s",
             e.message);
    FZ_CHECK(NULL, st != APLAN_OK || !too_far, "embed accepted an end above INT32_MAX");
    FZ_CHECK(NULL, st != APLAN_E_OVERLAP && st != APLAN_E_MISALIGNED_OFFSET, "embed refused a verified plan: %s",
             e.message);
    if (st != APLAN_OK) {
        if (st != APLAN_E_CAPACITY_EXCEEDED) check_error(st, &e, size);
        free(scratch);
        return;
    }
    FZ_CHECK(NULL, need == info.output_size && need == info.shift + size - (info.front_replaced ? info.shift : 0u),
             "embed: size %zu, info %zu, shift %zu", need, info.output_size, info.shift);
    uint8_t *out = malloc(need); /* exactly: ASan flags any write past it */
    uint8_t *again = malloc(need);
    if (out == NULL || again == NULL) abort();
    size_t got = 0;
    st = aplan_tflite_embed(model, size, ids, off, count, scratch, bytes, out, need - 1u, &got, NULL, &e);
    FZ_CHECK(NULL, st == APLAN_E_OUTPUT_TOO_SMALL && got == need, "embed into one byte less: %d", (int)st);
    st = aplan_tflite_embed(model, size, ids, off, count, scratch, bytes, out, need, &got, NULL, &e);
    if (st == APLAN_E_FORMAT_BAD_OFFSET) { /* tables that overlap: moving an absolute offset would change another */
        check_error(st, &e, size);
        free(again);
        free(out);
        free(scratch);
        return;
    }
    FZ_CHECK(NULL, st == APLAN_OK && got == need, "embed after its size query: %d, %zu of %zu bytes", (int)st, got,
             need);
    aplan_tflite_info back;
    st = aplan_tflite_query(out, need, &back, &e);
    FZ_CHECK(NULL, st == APLAN_OK, "embedded model does not read back: %s", e.message);
    aplan_buffer *b2 = malloc((back.buffer_count + 1) * sizeof *b2);
    aplan_tflite_id *ids2 = malloc((back.buffer_count + 1) * sizeof *ids2);
    void *rs = malloc(back.scratch_size + 1u);
    if (b2 == NULL || ids2 == NULL || rs == NULL) abort();
    size_t n2 = 0;
    st = aplan_tflite_read(out, need, rs, back.scratch_size, b2, ids2, back.buffer_count, &n2, &e);
    FZ_CHECK(NULL, st == APLAN_OK && back.has_offline_plan && n2 == count, "read back %zu buffers of %zu: %s", n2,
             count, e.message);
    for (size_t i = 0; i < count; i++) {
        FZ_CHECK(NULL, ids2[i].subgraph == ids[i].subgraph && ids2[i].tensor == ids[i].tensor &&
                           b2[i].size == buffers[i].size && b2[i].lower == buffers[i].lower &&
                           b2[i].upper == buffers[i].upper && b2[i].offset == off[i],
                 "buffer %zu read back differently (offset %llu, planned %llu)", i, (unsigned long long)b2[i].offset,
                 (unsigned long long)off[i]);
    }
    /* Again over its own output with the same plan: the same bytes. */
    size_t bytes2 = 0, got2 = 0;
    st = aplan_tflite_embed_scratch_size(out, need, &bytes2, &e);
    void *scratch2 = st == APLAN_OK ? malloc(bytes2 + 1u) : NULL;
    FZ_CHECK(NULL, scratch2 != NULL, "embed's output: no scratch size: %s", e.message);
    aplan_tflite_embed_info info2;
    st = aplan_tflite_embed(out, need, ids, off, count, scratch2, bytes2, again, need, &got2, &info2, &e);
    FZ_CHECK(NULL, st == APLAN_OK && got2 == need && info2.front_replaced && memcmp(again, out, need) == 0,
             "embedding the output again with its plan: %s, %zu of %zu bytes, front replaced %d", e.message, got2,
             need, (int)info2.front_replaced);
    free(scratch2);
    free(rs);
    free(ids2);
    free(b2);
    free(again);
    free(out);
    free(scratch);
}

/* A failure's report: its status in the error, a byte inside the input, a message. */
static void check_report(aplan_status st, const aplan_format_error *e, size_t size) {
    FZ_CHECK(NULL, e->status == st, "error status %d, returned %d", (int)e->status, (int)st);
    FZ_CHECK(NULL, e->byte_offset <= size, "error at byte %llu of %zu", (unsigned long long)e->byte_offset, size);
    FZ_CHECK(NULL, memchr(e->message, '\0', sizeof e->message) != NULL && e->message[0] != '\0', "bad message");
}

/* A reader's failure: a format status, reported. */
static void check_error(aplan_status st, const aplan_format_error *e, size_t size) {
    FZ_CHECK(NULL, format_status(st), "undocumented status %d", (int)st);
    check_report(st, e, size);
}

/* TFLM's whole arena (aplan/tflm.h) on a model that reads, for each ABI and kernel set: the query sizes the
 * scratch; the scratch requests are buffers live inside the steps; the arena's parts sum to its tail, its tail and
 * section to used, and the smallest arena is found; any failure carries a documented status. Models whose record
 * would pass 64 MiB are left out (a fuzzer's memory, not a limit of the model). */
static void check_tflm(const uint8_t *model, size_t size, const aplan_tflite_info *info, void *reader_scratch,
                       const aplan_tflite_id *ids, size_t count, uint64_t section) {
    size_t step_count = 0;
    if (aplan_tflite_steps(model, size, reader_scratch, info->scratch_size, NULL, 0, &step_count, NULL) != APLAN_OK)
        return;
    aplan_tflite_step *steps = malloc((step_count + 1u) * sizeof *steps);
    if (steps == NULL) abort();
    if (aplan_tflite_steps(model, size, reader_scratch, info->scratch_size, steps, step_count, &step_count, NULL) !=
        APLAN_OK)
        abort(); /* the count call succeeded on the same bytes */
    for (unsigned run = 0; run < 4u; run++) { /* each ABI, with the reference kernels and with CMSIS-NN (DSP) */
        aplan_tflm_config c;
        aplan_tflm_config_init(&c);
        c.abi = run & 1u ? APLAN_TFLM_ABI_64 : APLAN_TFLM_ABI_32;
        if (run >= 2u) {
            c.kernels = APLAN_TFLM_KERNELS_CMSIS_NN;
            c.isa = APLAN_TFLM_ISA_DSP;
        }
        size_t need = 0, requests = 0;
        aplan_format_error e;
        aplan_status st = aplan_tflm_query(model, size, &c, &need, &requests, &e);
        if (st != APLAN_OK) {
            check_error(st, &e, size);
            continue;
        }
        /* The work counter, cheap to check: a pass records at most a quarter of its work budget in events (16 bytes
         * of scratch each), beside 8 bytes per operator and subgraph and a bit per tensor, each at least 4 bytes of
         * the input. A model that makes a kernel loop over rows the file only names (issue 32) fails it. */
        const uint64_t budget = (uint64_t)APLAN_TFLM_WORK_PER_BYTE * size + APLAN_TFLM_WORK_BASE;
        FZ_CHECK(NULL, (uint64_t)need <= 4u * budget + 16u * (uint64_t)size + 256u,
                 "TFLM's arena model wants %zu bytes of scratch for a %zu-byte model, past its work budget", need, size);
        if (need > ((size_t)64 << 20)) continue;
        void *scratch = malloc(need + 8u);
        aplan_tflm_scratch *req = malloc((requests + 1u) * sizeof *req);
        if (scratch == NULL || req == NULL) abort();
        size_t got = 0;
        st = aplan_tflm_scratch_requests(model, size, &c, steps, step_count, scratch, need, req, requests, &got, &e);
        if (st != APLAN_OK) {
            check_error(st, &e, size);
        } else {
            FZ_CHECK(NULL, got == requests, "query said %zu scratch requests, the call gave %zu", requests, got);
            for (size_t k = 0; k < got; k++) {
                const aplan_buffer *b = &req[k].buffer;
                FZ_CHECK(NULL, b->lower <= b->upper && b->upper <= step_count, "request %zu: steps [%llu, %llu) of %zu",
                         k, (unsigned long long)b->lower, (unsigned long long)b->upper, step_count);
                FZ_CHECK(NULL, b->offset == APLAN_NO_OFFSET, "request %zu has an offset", k);
            }
        }
        aplan_tflm_arena_info a;
        st = aplan_tflm_arena(model, size, &c, ids, count, section, scratch, need, &a, NULL, 0, &e);
        if (st != APLAN_OK) {
            /* besides the reader's failures, the one the arena documents: sizes come from the file, so the tail
             * added to a section near 2^64 can pass it */
            FZ_CHECK(NULL, format_status(st) || st == APLAN_E_SIZE_OVERFLOW, "arena: status %d: %s", (int)st,
                     e.message);
            check_report(st, &e, size);
        } else {
            FZ_CHECK(NULL, a.used == a.planned + a.persistent && a.planned == section, "used %llu != %llu + %llu",
                     (unsigned long long)a.used, (unsigned long long)a.planned, (unsigned long long)a.persistent);
            FZ_CHECK(NULL, a.persistent == a.tflm_objects + a.eval_tensors + a.nodes + a.params + a.op_data +
                                               a.variables + a.scratch_handles + a.io_tensors,
                     "persistent %llu is not the sum of its parts", (unsigned long long)a.persistent);
            FZ_CHECK(NULL, a.smallest >= a.persistent && a.smallest >= section, "smallest %llu below its parts",
                     (unsigned long long)a.smallest);
            FZ_CHECK(NULL, a.unknown_ops <= info->operator_count, "%u unknown of %zu operators", a.unknown_ops,
                     info->operator_count);
            /* The recording aplan_tflm_arena left answers again: the same figures, and 16 bytes more of section
             * raise arena_used_bytes() by 16 and the smallest arena by at most 16 (each check the replay makes
             * moves by at most that), which holds the one-pass search for the smallest to a second answer. */
            aplan_tflm_arena_info b;
            st = aplan_tflm_recorded_arena(scratch, (aplan_tflm_planner)c.planner, c.planner_scratch, ids, count,
                                           section, &b, NULL, 0, &e);
            FZ_CHECK(NULL, st == APLAN_OK && memcmp(&a, &b, sizeof a) == 0, "recorded arena: status %d, smallest %llu",
                     (int)st, (unsigned long long)b.smallest);
            if (section <= UINT64_MAX - 16u &&
                aplan_tflm_recorded_arena(scratch, (aplan_tflm_planner)c.planner, c.planner_scratch, ids, count,
                                          section + 16u, &b, NULL, 0, &e) == APLAN_OK)
                FZ_CHECK(NULL, b.used == a.used + 16u && b.smallest >= a.smallest && b.smallest - a.smallest <= 16u,
                         "16 bytes more of section: used %llu -> %llu, smallest %llu -> %llu",
                         (unsigned long long)a.used, (unsigned long long)b.used, (unsigned long long)a.smallest,
                         (unsigned long long)b.smallest);
        }
        /* The two arenas (since 0.4): persistent rounded up to 16 is its smallest, the non-persistent one is the
         * largest of the section and what planning and Prepare need, and the two add up to arena_used_bytes(). */
        aplan_tflm_two_arena_info two;
        st = aplan_tflm_two_arenas(model, size, &c, ids, count, section, scratch, need, &two, &e);
        if (st != APLAN_OK) {
            FZ_CHECK(NULL, format_status(st) || st == APLAN_E_SIZE_OVERFLOW, "two arenas: status %d: %s", (int)st,
                     e.message);
            check_report(st, &e, size);
        } else {
            const uint64_t most = two.planned > two.working ? two.planned : two.working;
            FZ_CHECK(NULL, two.planned == section && two.non_persistent == section &&
                               two.used == two.persistent + two.non_persistent,
                     "two arenas: used %llu != %llu + %llu", (unsigned long long)two.used,
                     (unsigned long long)two.persistent, (unsigned long long)two.non_persistent);
            FZ_CHECK(NULL, two.persistent_smallest >= two.persistent && two.persistent_smallest - two.persistent < 16u &&
                               two.persistent_smallest % 16u == 0,
                     "two arenas: persistent smallest %llu for %llu used", (unsigned long long)two.persistent_smallest,
                     (unsigned long long)two.persistent);
            FZ_CHECK(NULL, two.non_persistent_smallest == (most > two.planner_end ? most : two.planner_end),
                     "two arenas: non-persistent smallest %llu", (unsigned long long)two.non_persistent_smallest);
        }
        free(req);
        free(scratch);
    }
    free(steps);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint8_t *model = malloc(size ? size : 1); /* exactly size bytes: ASan flags any read past the end */
    if (model == NULL) abort();
    if (size != 0) memcpy(model, data, size);
    aplan_tflite_info info;
    aplan_format_error e;
    aplan_status st = aplan_tflite_query(model, size, &info, &e);
    if (st != APLAN_OK) {
        check_error(st, &e, size);
        free(model);
        return 0;
    }
    void *scratch = info.scratch_size ? malloc(info.scratch_size) : NULL;
    aplan_buffer *buffers = malloc((info.buffer_count + 1) * sizeof *buffers);
    aplan_tflite_id *ids = malloc((info.buffer_count + 1) * sizeof *ids);
    uint64_t *off = malloc((info.buffer_count + 1) * sizeof *off);
    if ((info.scratch_size && scratch == NULL) || buffers == NULL || ids == NULL || off == NULL) abort();
    size_t count = 0;
    st = aplan_tflite_read(model, size, scratch, info.scratch_size, buffers, ids, info.buffer_count, &count, &e);
    if (st != APLAN_OK) {
        check_error(st, &e, size); /* the walk can still find a call cycle or exhaust its budget */
    } else {
        FZ_CHECK(NULL, count == info.buffer_count, "query said %zu buffers, read gave %zu", info.buffer_count, count);
        check_lookups(model, size, &info, scratch, buffers, ids, count);
        aplan_problem p;
        aplan_problem_init(&p, buffers, count);
        p.alignment = APLAN_TFLITE_ALIGNMENT;
        p.flags = APLAN_ROUND_SIZES | APLAN_ALLOW_FIXED_ALIAS;
        for (size_t i = 0; i < count; i++) {
            FZ_CHECK(&p, buffers[i].lower <= buffers[i].upper, "buffer %zu: lower above upper", i);
            FZ_CHECK(&p, ids[i].subgraph < info.subgraph_count, "buffer %zu: subgraph %u", i, ids[i].subgraph);
        }
        const aplan_strategy *ref = fz_reference_strategy();
        aplan_result r;
        const aplan_status ps = ref != NULL ? fz_plan(ref, &p, off, &r) : APLAN_OK;
        /* sizes and offsets come from the file: huge ones may not fit 64 bits once rounded or summed */
        FZ_CHECK(&p, ps == APLAN_OK || ps == APLAN_E_SIZE_OVERFLOW || ps == APLAN_E_MISALIGNED_OFFSET,
                 "%s on a read model: %s", ref != NULL ? ref->name : "-", aplan_status_str(ps));
        if (ref != NULL && ps == APLAN_OK) check_embed(model, size, buffers, ids, off, count);
        check_tflm(model, size, &info, scratch, ids, count, ref != NULL && ps == APLAN_OK ? r.arena_size : 0);
    }
    free(off);
    free(ids);
    free(buffers);
    free(scratch);
    free(model);
    return 0;
}
