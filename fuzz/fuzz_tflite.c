/*
 * fuzz_tflite: the .tflite reader on arbitrary bytes (seeded with models the project builds and, in fuzz/run.sh,
 * the shared real models). It must never crash, loop or read outside the input; a rejection carries a documented
 * status, a byte offset inside the input and a terminated message; an accepted model's buffers have sane lifetimes
 * and ids, the query and the read agree, and the buffers plan as TFLM would (alignment 16, sizes rounded) with only
 * documented failures. Such a plan is then embedded (aplan_tflite_embed): the size query equals the written size,
 * one byte less is refused, and the output reads back to the same buffers with the plan as their fixed offsets.
 */
#include <stdlib.h>
#include <string.h>

#include "aplan/tflite.h"
#include "fuzz_common.h"

static bool format_status(aplan_status s) {
    return s == APLAN_E_FORMAT_TRUNCATED || s == APLAN_E_FORMAT_BAD_OFFSET || s == APLAN_E_FORMAT_BAD_VALUE ||
           s == APLAN_E_FORMAT_UNSUPPORTED || s == APLAN_E_FORMAT_BAD_METADATA;
}

static void check_error(aplan_status st, const aplan_format_error *e, size_t size);

/* Embed the plan off[] of the count buffers read from model, read the output back and compare. */
static void check_embed(const uint8_t *model, size_t size, const aplan_buffer *buffers, const aplan_tflite_id *ids,
                        const uint64_t *off, size_t count) {
    aplan_format_error e;
    aplan_tflite_embed_info info;
    size_t need = 0;
    aplan_status st = aplan_tflite_embed(model, size, ids, off, count, NULL, 0, &need, &info, &e);
    bool too_far = false; /* an offset TFLM's int32 cannot hold: the one refusal a valid plan may meet */
    for (size_t i = 0; i < count; i++) too_far = too_far || off[i] > (uint64_t)INT32_MAX;
    FZ_CHECK(NULL, st != APLAN_E_CAPACITY_EXCEEDED || too_far, "embed: capacity exceeded within int32: %s",
             e.message);
    FZ_CHECK(NULL, st != APLAN_OK || !too_far, "embed accepted an offset above INT32_MAX");
    if (st == APLAN_E_CAPACITY_EXCEEDED) return;
    if (st != APLAN_OK) {
        /* the parts the reader does not check: unknown or malformed Model fields, no buffers, huge outputs */
        check_error(st, &e, size);
        return;
    }
    FZ_CHECK(NULL, need == info.output_size && need == info.shift + size, "embed: size %zu, info %zu, shift %zu",
             need, info.output_size, info.shift);
    uint8_t *out = malloc(need); /* exactly: ASan flags any write past it */
    if (out == NULL) abort();
    size_t got = 0;
    st = aplan_tflite_embed(model, size, ids, off, count, out, need - 1u, &got, NULL, &e);
    FZ_CHECK(NULL, st == APLAN_E_OUTPUT_TOO_SMALL && got == need, "embed into one byte less: %d", (int)st);
    st = aplan_tflite_embed(model, size, ids, off, count, out, need, &got, NULL, &e);
    FZ_CHECK(NULL, st == APLAN_OK && got == need, "embed after its size query: %d, %zu of %zu bytes", (int)st, got,
             need);
    FZ_CHECK(NULL, memcmp(out + 4, "TFL3", 4) == 0, "embed: no identifier");
    /* When no absolute file offset moved, the input's bytes are all there unchanged, so the output must read back
     * exactly. A moved offset changes bytes that a hostile file may also use as something else (a shape, a vtable):
     * then the output need only be read safely. */
    bool moved = memcmp(out + info.shift, model, size) != 0;
    aplan_tflite_info back;
    st = aplan_tflite_query(out, need, &back, &e);
    aplan_buffer *b2 = NULL;
    aplan_tflite_id *ids2 = NULL;
    void *scratch = NULL;
    size_t n2 = 0;
    if (st == APLAN_OK) {
        b2 = malloc((back.buffer_count + 1) * sizeof *b2);
        ids2 = malloc((back.buffer_count + 1) * sizeof *ids2);
        scratch = back.scratch_size ? malloc(back.scratch_size) : NULL;
        if (b2 == NULL || ids2 == NULL || (back.scratch_size && scratch == NULL)) abort();
        st = aplan_tflite_read(out, need, scratch, back.scratch_size, b2, ids2, back.buffer_count, &n2, &e);
    }
    if (moved) {
        if (st != APLAN_OK) check_error(st, &e, need);
    } else {
        FZ_CHECK(NULL, st == APLAN_OK, "embedded model does not read back: %s", e.message);
        FZ_CHECK(NULL, back.has_offline_plan && n2 == count, "read back %zu buffers of %zu", n2, count);
        for (size_t i = 0; i < count; i++) {
            FZ_CHECK(NULL, ids2[i].subgraph == ids[i].subgraph && ids2[i].tensor == ids[i].tensor &&
                               b2[i].size == buffers[i].size && b2[i].lower == buffers[i].lower &&
                               b2[i].upper == buffers[i].upper && b2[i].offset == off[i],
                     "buffer %zu read back differently (offset %llu, planned %llu)", i,
                     (unsigned long long)b2[i].offset, (unsigned long long)off[i]);
        }
    }
    free(scratch);
    free(ids2);
    free(b2);
    free(out);
}

static void check_error(aplan_status st, const aplan_format_error *e, size_t size) {
    FZ_CHECK(NULL, format_status(st), "undocumented status %d", (int)st);
    FZ_CHECK(NULL, e->status == st, "error status %d, returned %d", (int)e->status, (int)st);
    FZ_CHECK(NULL, e->byte_offset <= size, "error at byte %llu of %zu", (unsigned long long)e->byte_offset, size);
    FZ_CHECK(NULL, memchr(e->message, '\0', sizeof e->message) != NULL && e->message[0] != '\0', "bad message");
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
    }
    free(off);
    free(ids);
    free(buffers);
    free(scratch);
    free(model);
    return 0;
}
