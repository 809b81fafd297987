/*
 * `verify`'s reading of a plan for a problem (either front-end): a plan file's rows matched to the problem's buffers
 * by id, and a model's offline plan completed with the kernels' scratch where TFLM's planner puts it. Nothing is
 * printed: failures come back as aplan_host_error, with the message and kind `aplan verify` gives.
 */
#include <stdlib.h>
#include <string.h>

#include "host.h"

/* The problem buffer whose id is id: the one at hint when it matches (a plan written by aplan lists the rows in the
 * problem's order), else a look-up in *index, the library's id index (aplan_csv_id_index_build), built on the first
 * miss (O(n) expected, at most 16 bytes a buffer). SIZE_MAX when there is none; *oom set when the index cannot be
 * built. */
static size_t find_id(const aplan_host_input *problem, const char *id, size_t hint, aplan_csv_id_index **index,
                      bool *oom) {
    if (hint < problem->count && strcmp(problem->ids[hint], id) == 0) return hint;
    if (*index == NULL) {
        size_t dup, first; /* a problem's ids are distinct: its reader checked them */
        if (aplan_csv_id_index_build(problem->ids, problem->count, index, &dup, &first) == APLAN_E_OUT_OF_MEMORY) {
            *oom = true;
            return SIZE_MAX;
        }
    }
    return aplan_csv_id_index_find(*index, id);
}

/* Offsets of a plan file for the problem: rows matched by id (O(n), or O(n log n) when the rows are in another
 * order); a .tflite plan gives its offline offsets. row_of (NULL: not wanted), problem->count entries: the plan's
 * row of each buffer, SIZE_MAX for one the plan omits. */
int aplan_host_plan_offsets(const char *path, const aplan_host_input *plan, const aplan_host_input *problem,
                            uint64_t *offsets, size_t *row_of, aplan_host_error *err) {
    int rc;
    for (size_t i = 0; i < problem->count; i++) offsets[i] = APLAN_NO_OFFSET;
    for (size_t i = 0; row_of != NULL && i < problem->count; i++) row_of[i] = SIZE_MAX;
    if (plan->kind == APLAN_HOST_INPUT_CSV && (plan->csv_columns & APLAN_CSV_HAS_OFFSET) == 0) {
        return aplan_host_error_set(err, APLAN_HOST_BAD_INPUT, "%s: the plan has no 'offset' column", path);
    }
    aplan_csv_id_index *index = NULL;
    bool oom = false;
    rc = APLAN_HOST_OK;
    for (size_t j = 0; j < plan->count && rc == APLAN_HOST_OK; j++) {
        size_t i = find_id(problem, plan->ids[j], j, &index, &oom);
        char where[128] = "";
        const aplan_buffer *a = i != SIZE_MAX ? &problem->buffers[i] : NULL;
        const aplan_buffer *b = &plan->buffers[j];
        bool same = a != NULL && a->size == b->size && a->lower == b->lower && a->upper == b->upper;
        if (!same)
            aplan_host_describe_buffer(plan, j, where, sizeof where); /* only for the message: snprintf is slow */
        if (oom) {
            rc = aplan_host_error_set(err, APLAN_HOST_INTERNAL, "out of memory");
        } else if (i == SIZE_MAX) {
            rc = aplan_host_error_set(err, APLAN_HOST_BAD_INPUT, "%s: %s is not in the problem %s", path, where,
                                      problem->name);
        } else if (!same) {
            rc = aplan_host_error_set(
                err, APLAN_HOST_BAD_INPUT,
                "%s: %s has size %llu, steps [%llu, %llu); the problem says size %llu, steps [%llu, %llu)", path,
                where, (unsigned long long)b->size, (unsigned long long)b->lower, (unsigned long long)b->upper,
                (unsigned long long)a->size, (unsigned long long)a->lower, (unsigned long long)a->upper);
        } else {
            offsets[i] = b->offset;
            if (row_of != NULL) row_of[i] = j;
        }
    }
    aplan_csv_id_index_free(index);
    return rc;
}

/* A model's offline plan (plan, read from a .tflite) over s's problem: none at all is said plainly (bad input); the
 * kernels' scratch buffers, which no offline plan holds, go where TFLM's planner puts them around the tensors
 * (offsets: the tensors' from plan_offsets in, every buffer's out). */
int aplan_host_offline_plan(const char *path, const aplan_host_input *plan, const aplan_host_session *s,
                            uint64_t *offsets, aplan_host_error *err) {
    size_t fixed = 0;
    for (size_t i = 0; i < plan->count; i++) fixed += plan->buffers[i].offset != APLAN_NO_OFFSET;
    if (fixed == 0) {
        return aplan_host_error_set(err, APLAN_HOST_BAD_INPUT,
                                    "%s: no offline plan in the model (no OfflineMemoryAllocation metadata): nothing "
                                    "to verify; aplan embed writes one",
                                    path);
    }
    if (s->input->count == s->input->tensor_count)
        return APLAN_HOST_OK; /* no scratch, or a build without TFLM's planner */
    uint64_t *placed = malloc((s->input->count + 1u) * sizeof *placed);
    if (placed == NULL || aplan_host_tflm_embedded_plan(s, offsets, placed) == 0) {
        free(placed);
        return aplan_host_error_set(err, APLAN_HOST_INTERNAL,
                                    "%s: cannot place the kernels' scratch buffers as TFLM's planner does (out of "
                                    "memory, or its plan fails)",
                                    path);
    }
    memcpy(offsets, placed, s->input->count * sizeof *offsets);
    free(placed);
    return APLAN_HOST_OK;
}

int aplan_host_plan_regions(const char *path, const aplan_host_input *plan, const aplan_host_region_session *g,
                            size_t n, const size_t *row_of, uint32_t *region_of, aplan_host_error *err) {
    for (size_t i = 0; i < n; i++) {
        size_t r = 0;
        if (row_of[i] == SIZE_MAX) { /* omitted: unplaced, which the verifier says, in a region it may use */
            while (r + 1u < g->count && !aplan_region_allowed(&g->set, i, r)) r++;
            region_of[i] = (uint32_t)r;
            continue;
        }
        const char *name = plan->csv.regions[row_of[i]] != NULL ? plan->csv.regions[row_of[i]] : ""; /* NULL: empty */
        while (r < g->count && strcmp(g->spec[r].name, name) != 0) r++;
        if (r == g->count) {
            char names[APLAN_HOST_MAX_REGIONS * APLAN_HOST_REGION_NAME] = "";
            for (size_t k = 0; k < g->count; k++) {
                size_t at = strlen(names);
                snprintf(names + at, sizeof names - at, "%s%s", k > 0 ? ", " : "", g->spec[k].name);
            }
            char *shown = aplan_host_display_text(name, strlen(name));
            if (name[0] == '\0')
                (void)aplan_host_error_set(err, APLAN_HOST_BAD_INPUT,
                                           "%s: line %u: no region: a plan puts each buffer in one of the regions (%s)",
                                           path, (unsigned)plan->lines[row_of[i]], names);
            else
                (void)aplan_host_error_set(err, APLAN_HOST_BAD_INPUT,
                                           "%s: line %u: region '%s' is not one of the regions (%s)", path,
                                           (unsigned)plan->lines[row_of[i]], shown != NULL ? shown : "?", names);
            free(shown);
            return APLAN_HOST_BAD_INPUT;
        }
        region_of[i] = (uint32_t)r;
    }
    return APLAN_HOST_OK;
}
