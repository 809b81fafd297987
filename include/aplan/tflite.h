/*
 * aplan/tflite.h: read a TensorFlow Lite flatbuffer (.tflite) held in memory and produce the buffer list that
 * TensorFlow Lite Micro's allocator hands its memory planner (tensorflow/lite/micro/micro_allocation_info.cc).
 *
 * The reader never allocates, never prints and never touches a file: it works on (pointer, length), so a device can
 * plan straight from a model in flash. Every offset, vtable, vector length and index is bounds-checked before use;
 * a truncated, mutated or hostile model gives an APLAN_E_FORMAT_* status with the byte offset and a message naming
 * the field, never a read outside [model, model + model_size).
 *
 * Two calls:
 *   1. aplan_tflite_query: checks the model's structure and returns how many buffers it holds and how many scratch
 *      bytes the read needs;
 *   2. aplan_tflite_read: fills caller arrays of buffers (aplan_buffer) and ids (aplan_tflite_id).
 *
 * What the buffers are (TFLM's rules):
 *   - one per tensor that has no constant data (buffer index 0, or a buffer with an empty data vector and no
 *     external data: Buffer.offset > 1 with Buffer.size > 0 counts as data), is not a variable and has a non-zero
 *     size; a variable is included only when the offline plan gives it an offset;
 *   - in TFLM's AddBuffer order: subgraph 0's tensors in index order, then subgraph 1's, and so on;
 *   - size: product of the shape times the element size, in bytes, not rounded (TFLM rounds up to
 *     APLAN_TFLITE_ALIGNMENT before planning: set aplan_problem.alignment and APLAN_ROUND_SIZES for that);
 *   - lifetime: half-open steps [lower, upper), step = TFLM allocation scope + 1: step 1 holds subgraph 0's inputs,
 *     op k of subgraph 0 is step k + 2 when no control flow intervenes, IF / WHILE / CALL_ONCE walk the subgraphs
 *     they call (each after one more step, recursively) in the same numbering; a tensor read but never written
 *     starts at step 0; a tensor nothing touches gets the empty lifetime [0, 0);
 *   - offset: the offline offset from the model's "OfflineMemoryAllocation" metadata, or APLAN_NO_OFFSET;
 *   - alignment: 0 (the problem's default).
 *
 * Thread-safety: reentrant; concurrent calls must not share scratch or output arrays.
 */
#ifndef APLAN_TFLITE_H
#define APLAN_TFLITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aplan.h"
#include "formats.h"

#ifdef __cplusplus
extern "C" {
#endif

/** TFLM's arena buffer alignment (MicroArenaBufferAlignment): the alignment, in bytes, TFLM plans with. */
#define APLAN_TFLITE_ALIGNMENT 16u

/** Deepest chain of IF / WHILE / CALL_ONCE calls the reader follows; deeper models give
 *  APLAN_E_FORMAT_UNSUPPORTED. Bounds the reader's recursion (a call cycle gives APLAN_E_FORMAT_BAD_VALUE). */
#define APLAN_TFLITE_MAX_NESTING 32u

/** Most operator visits (summed over every subgraph invocation the walk makes) before the reader gives up with
 *  APLAN_E_FORMAT_UNSUPPORTED. Bounds the time a hostile model of shared, nested subgraphs can cost. */
#define APLAN_TFLITE_MAX_VISITS (1u << 24)

/** Which tensor a buffer is: the CSV id `s<subgraph>t<tensor>`. */
typedef struct aplan_tflite_id {
    uint32_t subgraph; /**< Index into Model.subgraphs. */
    uint32_t tensor;   /**< Index into that subgraph's tensors. */
} aplan_tflite_id;

/** What aplan_tflite_query found. */
typedef struct aplan_tflite_info {
    size_t buffer_count;    /**< Buffers aplan_tflite_read produces: the entries its output arrays need. */
    size_t scratch_size;    /**< Bytes of scratch aplan_tflite_read needs (APLAN_SCRATCH_ALIGN aligned). */
    size_t subgraph_count;  /**< Model.subgraphs length. */
    size_t tensor_count;    /**< Tensors over all subgraphs. */
    size_t operator_count;  /**< Operators over all subgraphs (each counted once). */
    uint32_t version;       /**< Model.version (the schema version, 3 for current files). */
    bool has_offline_plan;  /**< The model carries a valid OfflineMemoryAllocation metadata entry. */
    uint32_t reserved[4];   /**< Zero. Room for later fields without an ABI break. */
} aplan_tflite_info;

/**
 * Check a model's structure and size the read.
 * Checks: the root offset and the file identifier "TFL3" at bytes 4..7; every table, vtable, vector and string the
 * reader uses (Model, SubGraph, Tensor, Operator, OperatorCode, Buffer, Metadata and the IF / WHILE / CALL_ONCE
 * options); tensor types and shapes (size within 64 bits); buffer, opcode, tensor and subgraph indices; the offline
 * plan. The call graph (cycles, nesting, visit budget) is checked by aplan_tflite_read, which needs scratch for it.
 * @param[in]  model      the flatbuffer; only [model, model + model_size) is ever read; any alignment.
 * @param[in]  model_size its length in bytes.
 * @param[out] info       counts and the scratch size (required); zeroed on failure.
 * @param[out] error      optional (NULL allowed): on return its status equals the returned status; for a format
 *                        status it also holds the byte offset and a message naming the field, e.g.
 *                        "subgraph 0 tensor 7: shape[2] is -3".
 * @return APLAN_OK, or:
 *   - APLAN_E_INVALID_ARG iff model or info is NULL;
 *   - APLAN_E_FORMAT_TRUNCATED iff a structure starts inside the input but ends past its end (also: input shorter
 *     than the 8-byte header);
 *   - APLAN_E_FORMAT_BAD_OFFSET iff an offset points outside the input or is misaligned (tables, vectors and
 *     offsets 4-byte aligned, vtables 2-byte aligned, relative to the start of the input);
 *   - APLAN_E_FORMAT_BAD_VALUE iff a field is outside its domain: the identifier is not "TFL3", no subgraphs, a
 *     negative shape entry, an element count or size beyond 64 bits, a buffer / opcode / tensor / subgraph index
 *     out of range (operator inputs may be -1, control-flow subgraph indices may be -1 meaning none, as in TFLM),
 *     a negative tensor type, an IF / WHILE / CALL_ONCE without its IfOptions / WhileOptions / CallOnceOptions;
 *   - APLAN_E_FORMAT_UNSUPPORTED iff a well-formed model uses what TFLM cannot plan: a non-constant tensor of type
 *     STRING or VARIANT, a type above BFLOAT16 (18, newer than this reader), or more than UINT32_MAX - 1 tensors;
 *   - APLAN_E_FORMAT_BAD_METADATA iff the OfflineMemoryAllocation buffer is malformed: missing or empty buffer,
 *     length not 12 + 4 n bytes, its tensor count n not the model's, its subgraph count not the model's, or an
 *     offset below -1.
 * Complexity O(model_size) time (every vector is walked at most a constant number of times), O(1) stack.
 */
APLAN_API aplan_status aplan_tflite_query(const void *model, size_t model_size, aplan_tflite_info *info,
                                          aplan_format_error *error);

/**
 * Read a model's buffers into caller arrays.
 * @param[in]  model        the flatbuffer (as for aplan_tflite_query).
 * @param[in]  model_size   its length in bytes.
 * @param[in]  scratch      working memory of at least aplan_tflite_info.scratch_size bytes, APLAN_SCRATCH_ALIGN
 *                          aligned; owned by the caller, free again when the call returns (its content on return
 *                          is unspecified). The query's scratch_size is 8 bytes per tensor plus 5 per subgraph
 *                          (plus alignment padding).
 * @param[in]  scratch_size its length in bytes.
 * @param[out] buffers      capacity entries; the first *count are written (order, sizes, lifetimes, offsets as the
 *                          file header describes).
 * @param[out] ids          optional (NULL allowed): capacity entries; ids[i] names buffers[i].
 * @param[in]  capacity     entries in buffers (and ids).
 * @param[out] count        required: the number of buffers the model holds (set also on
 *                          APLAN_E_OUTPUT_TOO_SMALL, so a caller can size its arrays from it).
 * @param[out] error        optional, as for aplan_tflite_query.
 * @return APLAN_OK, or:
 *   - APLAN_E_INVALID_ARG iff model or count is NULL, or buffers is NULL while capacity > 0;
 *   - every status aplan_tflite_query returns, under the same conditions;
 *   - APLAN_E_SCRATCH_MISALIGNED iff scratch is not APLAN_SCRATCH_ALIGN aligned;
 *     APLAN_E_SCRATCH_TOO_SMALL iff scratch_size is below the query's scratch_size;
 *   - APLAN_E_OUTPUT_TOO_SMALL iff capacity is below the buffer count (nothing written to buffers or ids);
 *   - APLAN_E_FORMAT_BAD_VALUE iff IF / WHILE / CALL_ONCE calls form a cycle (a subgraph reached again while it
 *     is being walked, subgraph 0 included), at the calling operator's entry in its subgraph's operator vector;
 *   - APLAN_E_FORMAT_UNSUPPORTED iff calls nest deeper than APLAN_TFLITE_MAX_NESTING or the walk visits more than
 *     APLAN_TFLITE_MAX_VISITS operators.
 * Complexity O(model_size + visits * operator degree) time, recursion depth at most APLAN_TFLITE_MAX_NESTING.
 */
APLAN_API aplan_status aplan_tflite_read(const void *model, size_t model_size, void *scratch,
                                         size_t scratch_size, aplan_buffer *buffers, aplan_tflite_id *ids,
                                         size_t capacity, size_t *count, aplan_format_error *error);

/**
 * Write an id as the lifetimes CSV names it, "s<subgraph>t<tensor>", into out (always NUL-terminated when
 * out_size > 0; truncated when short). 24 bytes always suffice.
 * @return the length the full text needs, excluding the NUL (like snprintf). O(1).
 */
APLAN_API size_t aplan_tflite_id_format(aplan_tflite_id id, char *out, size_t out_size);

#ifdef __cplusplus
}
#endif

#endif /* APLAN_TFLITE_H */
