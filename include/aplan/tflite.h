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

/* ------------------------------------------------------------------------------------------------------------ */
/* Writing a plan into a model                                                                                   */

/** The metadata name TFLM looks up for an offline plan (micro_allocation_info.cc, kOfflineMemAllocMetadata). */
#define APLAN_TFLITE_OFFLINE_METADATA "OfflineMemoryAllocation"

/** Bytes aplan_tflite_embed puts before the input in its output are a multiple of this: the largest alignment the
 *  schema asks for (Buffer.data's force_align), so every alignment the input had relative to its start holds in
 *  the output too. */
#define APLAN_TFLITE_EMBED_ALIGN 16u

/** What aplan_tflite_embed wrote (or, for the size query, would write). */
typedef struct aplan_tflite_embed_info {
    size_t output_size;   /**< Bytes of the output: the front block, then the input. */
    size_t shift;         /**< Bytes of the front block: the input starts at this offset of the output (a multiple
                               of APLAN_TFLITE_EMBED_ALIGN). */
    size_t tensor_count;  /**< Offsets in the plan: every tensor of every subgraph. */
    size_t planned_count; /**< Offsets other than -1: the buffers given. */
    uint32_t plan_buffer; /**< Index into Model.buffers of the buffer that now holds the plan. */
    bool replaced;        /**< The input had an OfflineMemoryAllocation entry: it now names the new plan. */
    bool buffer_added;    /**< Model.buffers grew by one entry (plan_buffer is the last); else the old plan's
                               buffer entry was re-pointed and the buffer count is unchanged. */
    uint32_t reserved[4]; /**< Zero. Room for later fields without an ABI break. */
} aplan_tflite_embed_info;

/**
 * Write a copy of a model whose OfflineMemoryAllocation metadata holds a plan, in TFLM's format: int32 words
 * version (0), subgraph count, n = the tensors of every subgraph, then one offset per tensor over all subgraphs in
 * order, -1 for tensors not in the plan. Reading the output back (aplan_tflite_read) gives the same buffers with
 * their offsets fixed to the plan.
 *
 * The output is a new front block followed by the whole input, unchanged except for absolute file offsets (below):
 *   - bytes 0..3 the root offset, 4..7 "TFL3";
 *   - a new Model table: the input Model's fields, scalars copied, every offset field pointing into the moved input;
 *   - a new Model.buffers vector: the input's Buffer tables, plus a new Buffer whose data (16-byte aligned in the
 *     output) holds the plan; a new Model.metadata vector: the input's entries, plus a new Metadata entry
 *     {APLAN_TFLITE_OFFLINE_METADATA, that buffer}.
 *   When the input already has an OfflineMemoryAllocation entry (or several naming the same buffer) and no tensor or
 *   other metadata uses that buffer, its Model.buffers entry is re-pointed to the new Buffer instead: metadata and
 *   buffer count stay as they were. Otherwise (entries naming different buffers, or a shared buffer) a new buffer is
 *   appended and every such entry is replaced by one new Metadata entry naming it; info->replaced says which.
 *   FlatBuffers offsets only point forward, so a new vector cannot follow the data it extends: hence the front
 *   block. Its size (info->shift) is a multiple of APLAN_TFLITE_EMBED_ALIGN, which keeps every alignment of the
 *   input, Buffer.data's 16 included (a FlatBuffers builder aligns from the end and pads the finished buffer to a
 *   multiple of its largest alignment, so those alignments also hold from the start).
 *   Buffer.offset and Operator.large_custom_options_offset above 1 are offsets from the start of the file (models of
 *   more than 2 GB keep data beside the flatbuffer): they are raised by info->shift, so that data is found again.
 *
 * @param[in]  model        the flatbuffer; any alignment; must not overlap out.
 * @param[in]  model_size   its length in bytes.
 * @param[in]  ids          count ids, exactly as aplan_tflite_read gave them for this model (its order: subgraph,
 *                          then tensor, ascending).
 * @param[in]  offsets      count offsets in bytes, offsets[i] for the buffer ids[i] names (e.g. aplan_plan's).
 * @param[in]  count        the number of buffers: aplan_tflite_query's buffer_count for this model.
 * @param[out] out          out_capacity bytes for the output, any alignment (a model handed to TFLM must start at
 *                          a 16-byte boundary); NULL with out_capacity 0 is the size query: nothing is written but
 *                          *out_size and info, after every check the write makes.
 * @param[in]  out_capacity bytes at out.
 * @param[out] out_size     required: the output's length in bytes, set on APLAN_OK and APLAN_E_OUTPUT_TOO_SMALL
 *                          (0 otherwise). Equal to info->output_size.
 * @param[out] info         optional (NULL allowed): what was (or would be) written; zeroed on failure.
 * @param[out] error        optional, as for aplan_tflite_query; for a bad argument it names it (byte_offset 0).
 * @return APLAN_OK, or:
 *   - APLAN_E_INVALID_ARG iff model or out_size is NULL, ids or offsets is NULL while count > 0, out is NULL while
 *     out_capacity > 0, out overlaps the model, count is not the model's buffer count, an id is out of range or not
 *     after the one before it (the reader's order), or an offset is APLAN_NO_OFFSET;
 *   - every status aplan_tflite_query returns, under the same conditions;
 *   - APLAN_E_CAPACITY_EXCEEDED iff an offset is above INT32_MAX (TFLM's offsets are int32); the message names the
 *     buffer;
 *   - APLAN_E_FORMAT_UNSUPPORTED iff the root Model has a field this writer does not know (an id above
 *     external_buffers, 9: a newer schema, where an offset cannot be told from a scalar), the model has no buffers
 *     (no Model.buffers, or an empty one: the plan's buffer cannot follow buffer 0, the empty buffer tensors without
 *     data use), or an offset of the output would reach 2^31 bytes (FlatBuffers' limit; the plan alone takes 4 bytes
 *     per tensor);
 *   - APLAN_E_FORMAT_BAD_OFFSET / _TRUNCATED / _BAD_VALUE iff a part the reader does not check but the writer
 *     copies (a Model vector field, a Buffer or Metadata table, an operator's large_custom_options_offset) is
 *     malformed, or an absolute file offset plus info->shift passes 2^64 - 1;
 *   - APLAN_E_OUTPUT_TOO_SMALL iff out_capacity (> 0) is below the output's size (nothing written).
 * Complexity O(model_size + count) time, O(1) stack, no recursion; no allocation.
 */
APLAN_API aplan_status aplan_tflite_embed(const void *model, size_t model_size, const aplan_tflite_id *ids,
                                          const uint64_t *offsets, size_t count, void *out, size_t out_capacity,
                                          size_t *out_size, aplan_tflite_embed_info *info,
                                          aplan_format_error *error);

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
