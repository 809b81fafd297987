/*
 * fuzz_tflite: the .tflite reader on arbitrary bytes (seeded with models the project builds and, in fuzz/run.sh,
 * the shared real models). It must never crash, loop or read outside the input; a rejection carries a documented
 * status, a byte offset inside the input and a terminated message; an accepted model's buffers have sane lifetimes
 * and ids, the query and the read agree, and the buffers plan as TFLM would (alignment 16, sizes rounded) with only
 * documented failures.
 */
#include <stdlib.h>
#include <string.h>

#include "aplan/tflite.h"
#include "fuzz_common.h"

static bool format_status(aplan_status s) {
    return s == APLAN_E_FORMAT_TRUNCATED || s == APLAN_E_FORMAT_BAD_OFFSET || s == APLAN_E_FORMAT_BAD_VALUE ||
           s == APLAN_E_FORMAT_UNSUPPORTED || s == APLAN_E_FORMAT_BAD_METADATA;
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
    }
    free(off);
    free(ids);
    free(buffers);
    free(scratch);
    free(model);
    return 0;
}
