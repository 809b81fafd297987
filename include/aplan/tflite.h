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
 * Then, for tools that show the plan: aplan_tflite_tensor (a tensor's name, type and shape), aplan_tflite_operator
 * and aplan_tflite_subgraph (what runs, on which tensors) and aplan_tflite_steps (which operator runs at each step
 * of the lifetimes); see "What the model calls things" below.
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
 *  APLAN_E_FORMAT_UNSUPPORTED: keeps step numbers within 32 bits. The work budget (APLAN_TFLITE_WORK_PER_BYTE)
 *  bounds the time; it stops the walk first on any model under 8 MB (a visit costs at least 4 units). */
#define APLAN_TFLITE_MAX_VISITS (1u << 24)

/** The work budget. FlatBuffers lets many offsets point at one table or vector: one operator with L inputs listed
 *  K times in a subgraph's operators, one tensor with a rank-L shape listed K times, one subgraph listed K times,
 *  or a subgraph called from K operators (IF / WHILE / CALL_ONCE, nested: K^depth) make a reader that follows every
 *  offset do K * L work on a file of about 4 (K + L) bytes. So every call of this header (query, read, steps and
 *  the lookups) counts its work in units, each O(1) time: one per table or vector opened, one per vector element a
 *  loop reads, and one per tensor the walk initialises. A call on a model of model_size bytes does at most
 *      APLAN_TFLITE_WORK_PER_BYTE * model_size + APLAN_TFLITE_WORK_BASE
 *  units, whatever the sharing, and so runs in O(model_size) time; a model that needs more fails with
 *  APLAN_E_FORMAT_UNSUPPORTED and the message "... work budget of N units (8 per byte + 65536) exceeded: shared
 *  tables or repeated calls", at the byte being read when the budget ran out. A unit is one table opened, one
 *  field looked up, one vector opened, one vector element a loop reads, or one tensor the walk initialises.
 *  Measured: the read of the 16 real models in ../shared/models uses at most 0.18 units per byte (1.2% of its
 *  budget, audio_preprocessor_int8); a model without shared tables, however small its tables, needs about 3 per
 *  byte at most. The lookups read one part of a model; the query's budget also bounds looking up every tensor,
 *  operator and subgraph of a model it accepted once each: O(model_size) in all (not what a caller does per
 *  reference with the text and shapes they return: see "What the model calls things" below). */
#define APLAN_TFLITE_WORK_PER_BYTE 8u
/** The budget's constant term (see APLAN_TFLITE_WORK_PER_BYTE): room for small models that call a subgraph from
 *  several places. */
#define APLAN_TFLITE_WORK_BASE (1u << 16)

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
    uint32_t work;          /**< Units of work the query did (see APLAN_TFLITE_WORK_PER_BYTE), UINT32_MAX when
                                 more: at most the budget, APLAN_TFLITE_WORK_PER_BYTE * model_size +
                                 APLAN_TFLITE_WORK_BASE. */
    uint32_t reserved[3];   /**< Zero. Room for later fields without an ABI break. */
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
 *   - APLAN_E_FORMAT_UNSUPPORTED also iff reading the model takes more than the work budget,
 *     APLAN_TFLITE_WORK_PER_BYTE * model_size + APLAN_TFLITE_WORK_BASE units (tables shared many times over).
 * Complexity O(model_size) time whatever the sharing (the work budget), O(1) stack.
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
 *   - APLAN_E_FORMAT_UNSUPPORTED iff calls nest deeper than APLAN_TFLITE_MAX_NESTING, the walk visits more than
 *     APLAN_TFLITE_MAX_VISITS operators, or the query and the walk together take more than the work budget
 *     (APLAN_TFLITE_WORK_PER_BYTE; the walk of a subgraph called from many operators, nested, is where a small
 *     model can cost the most).
 * Complexity O(model_size) time whatever the sharing or control flow (the work budget), recursion depth at most
 * APLAN_TFLITE_MAX_NESTING.
 */
APLAN_API aplan_status aplan_tflite_read(const void *model, size_t model_size, void *scratch,
                                         size_t scratch_size, aplan_buffer *buffers, aplan_tflite_id *ids,
                                         size_t capacity, size_t *count, aplan_format_error *error);

/* ------------------------------------------------------------------------------------------------------------ */
/* What the model calls things: tensors, operators, subgraphs and the steps of the walk                          */
/*
 * For tools that show a plan (tables, CSV/JSON, pictures, the operator graph): names, types and shapes of tensors,
 * which operator runs at each step, and the operators' input and output tensors. Same rules as the reader: no
 * allocation, every access bounds-checked, failures as APLAN_E_FORMAT_* with the byte offset and a message naming
 * the field.
 *
 * Text the model holds (tensor and subgraph names, custom operator codes) is returned as aplan_tflite_text: a
 * pointer into the model and a length, not copied and not NUL-terminated, valid as long as the model's bytes are.
 * The bytes are exactly the model's: FlatBuffers strings ought to be UTF-8, but the reader neither checks nor
 * changes them, so a name may hold invalid UTF-8, control bytes or NULs. A caller that prints a name escapes it
 * for its output (JSON, CSV, SVG/HTML, a terminal) and decides how to show invalid sequences (e.g. as \xNN).
 *
 * aplan_tflite_tensor, aplan_tflite_operator and aplan_tflite_subgraph read only the part of the model they are asked
 * about (O(1) beyond that part's own vectors), so looking up every tensor, operator and subgraph once costs
 * O(model_size) in all, even when tables are shared: the query walks the same vectors within its work budget
 * (APLAN_TFLITE_WORK_PER_BYTE). They assume a model aplan_tflite_query accepted and do not re-check the rest of it;
 * what they read they check as the query does, so on any input they stay inside it and fail with the status the query
 * gives for that part. Text they return is checked to lie inside the model. The query does not look at tensor or
 * subgraph names, so a model whose names are malformed plans; aplan_tflite_tensor and aplan_tflite_subgraph then give
 * such a name as absent, with the status that reading it gave in name_error (since 0.4.2; before, the whole lookup
 * failed), and every other fact as usual.
 *
 * That O(model_size) covers the look-ups, not what a caller does per reference with what they return: FlatBuffers lets
 * K entries point at one string, shape or table, 4 bytes each, so a file of about 4 K + L bytes can make K tensors
 * share an L-byte name, or one operator list K times a tensor of rank L (or with an L-byte name). A caller that copies,
 * escapes or prints each tensor's whole name, or looks a tensor up once per operator input that names it, then does
 * K * L work and writes K * L bytes. Work once per distinct string (its position, text.data, tells strings apart) and
 * per distinct tensor, and cap what is shown of each. The aplan tool does: it makes each distinct name's text once,
 * caps it at 290 bytes (a name whose text passes 256 bytes keeps its first and last 128 around "...(N bytes)..."), and
 * looks a tensor up once however many operators name it, so its output, in bytes, is at most: JSON 1536 per buffer +
 * 1024 per step + 24 per buffer and strategy + 64 KiB; HTML 2048 per buffer + 1024 per step + 24 per buffer and
 * strategy + 256 KiB; CSV and C 256 per buffer + 8 KiB; SVG 6 KiB for each of at most 4000 buffers drawn one by one +
 * 40 per pixel of its plot + 64 KiB; the table 16 KiB + 256 per strategy; the graph listing 512 per step + 448 per
 * tensor it lists + 4 KiB (docs/cli.md, "Shared names and bounded output"). A model has at most model_size / 4 buffers;
 * its steps and the tensors its operators list over the walk are within the work budget.
 */

/** Index not applicable: a step that runs no operator, or no subgraph entered (aplan_tflite_step). */
#define APLAN_TFLITE_NONE UINT32_MAX

/** Shape entries aplan_tflite_tensor_info holds. TFLite Micro's RuntimeShape holds at most 6 dimensions
 *  (kMaxSmallSize); a higher rank is still reported, with its first entries and shape_truncated. */
#define APLAN_TFLITE_MAX_RANK 8u

/** Bytes in the model: data points into it (NULL iff the field is absent), size bytes, no terminating NUL. */
typedef struct aplan_tflite_text {
    const char *data; /**< First byte, inside the model; NULL when the model has no such field (size then 0). */
    size_t size;      /**< Length in bytes; 0 for an absent or empty string. */
} aplan_tflite_text;

/** A vector of tensor indices in the model: count little-endian int32 words at data (any alignment in memory);
 *  read entry i with aplan_tflite_index_at. Checked when returned: every entry is a tensor index of the
 *  subgraph, or -1 (an absent optional input) where the schema allows it. */
typedef struct aplan_tflite_indices {
    const void *data; /**< Inside the model; NULL when count is 0 and the vector is absent. */
    uint32_t count;   /**< Entries. */
} aplan_tflite_indices;

/** Entry i (< v.count) of an index vector. O(1). */
static inline int32_t aplan_tflite_index_at(aplan_tflite_indices v, uint32_t i) {
    const unsigned char *p = (const unsigned char *)v.data + 4u * (size_t)i;
    const uint32_t u = (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
    return u > (uint32_t)INT32_MAX ? -(int32_t)(~u) - 1 : (int32_t)u; /* two's complement without UB */
}

/** What aplan_tflite_tensor found about one tensor. */
typedef struct aplan_tflite_tensor_info {
    aplan_tflite_text name;  /**< Tensor.name, as the model holds it (see "Text the model holds" above). */
    const char *type_name;   /**< The TensorType's name in schema.fbs ("FLOAT32", "INT8", ...), static and
                                  NUL-terminated; NULL for a code this reader does not know (above 22). */
    uint64_t elements;       /**< Product of the shape; 1 for a scalar (no shape, or rank 0). */
    uint64_t size;           /**< Bytes, elements x element size, as aplan_tflite_read sizes buffers: a planned
                                  tensor's buffer has exactly this size. 0 when has_size is false. */
    uint32_t rank;           /**< Entries in Tensor.shape. */
    int32_t shape[APLAN_TFLITE_MAX_RANK]; /**< The first min(rank, APLAN_TFLITE_MAX_RANK) entries (each >= 0); the
                                               rest 0. */
    uint32_t buffer;         /**< Tensor.buffer: index into Model.buffers (0: the empty buffer). */
    uint8_t type;            /**< Tensor.type, the TensorType code (0 FLOAT32 ... 9 INT8 ... 18 BFLOAT16). */
    bool shape_truncated;    /**< rank > APLAN_TFLITE_MAX_RANK: shape holds only the first entries. */
    bool has_size;           /**< The type has an element size this reader knows (not STRING, VARIANT or a code
                                  above 18) and the size fits 64 bits (always true for a tensor the read plans). */
    bool constant;           /**< It holds constant data (in Buffer.data, or beside the flatbuffer): never planned. */
    bool is_variable;        /**< Tensor.is_variable. */
    uint32_t quant_scales;   /**< Since 0.3.1: entries in Tensor.quantization.scale (0 without quantization). */
    uint32_t quant_zero_points; /**< Since 0.3.1: entries in Tensor.quantization.zero_point. */
    uint32_t name_error;     /**< Since 0.4.2: APLAN_OK, or the status reading Tensor.name gave (its string runs past
                                  the end, ...): name is then absent. */
    uint32_t reserved[1];    /**< Zero. Room for later fields without an ABI break. */
} aplan_tflite_tensor_info;

/**
 * Facts about one tensor: name, type, shape and size.
 * @param[in]  model      a model aplan_tflite_query accepted (see the section's opening comment); any alignment.
 * @param[in]  model_size its length in bytes.
 * @param[in]  id         which tensor: as aplan_tflite_read's ids give them, or any subgraph / tensor index.
 * @param[out] info       required; zeroed on failure. Its text points into model.
 * @param[out] error      optional, as for aplan_tflite_query; an argument error has byte_offset 0.
 * @return APLAN_OK, or:
 *   - APLAN_E_INVALID_ARG iff model or info is NULL, or id names no tensor (message e.g. "id s0t9: the subgraph has
 *     3 tensors", "id s4t0: the model has 3 subgraphs");
 *   - the status aplan_tflite_query gives for the header, Model.subgraphs, Model.buffers, the subgraph table, its
 *     tensors vector, the tensor or its buffer (so never one for a model the query accepted);
 *   - APLAN_E_FORMAT_TRUNCATED / _BAD_OFFSET iff the name string is malformed (runs past the end, offset outside),
 *     or (since 0.3.1) the quantization table or its scale / zero_point vectors are (which the query does not read).
 * Complexity O(rank) time (O(1) beyond the shape), O(1) stack; no allocation.
 */
APLAN_API aplan_status aplan_tflite_tensor(const void *model, size_t model_size, aplan_tflite_id id,
                                           aplan_tflite_tensor_info *info, aplan_format_error *error);

/** What aplan_tflite_operator found about one operator. */
typedef struct aplan_tflite_operator_info {
    aplan_tflite_text name;        /**< What runs: the builtin's name from schema.fbs's BuiltinOperator ("CONV_2D";
                                        static, and NUL-terminated after size bytes), or for CUSTOM (32) the
                                        OperatorCode.custom_code (in the model; "CUSTOM" when absent or empty).
                                        data NULL, size 0 for a code this reader does not know (below 0 or above
                                        209: print builtin_code). */
    int32_t builtin_code;          /**< The larger of OperatorCode.deprecated_builtin_code and builtin_code, the
                                        code the reader walks by (118 IF, 119 WHILE, 129 CALL_ONCE). */
    uint32_t opcode_index;         /**< Operator.opcode_index: index into Model.operator_codes. */
    aplan_tflite_indices inputs;   /**< Operator.inputs: tensor indices in its subgraph, -1 for an absent input. */
    aplan_tflite_indices outputs;  /**< Operator.outputs: tensor indices in its subgraph (never -1). */
    int32_t calls[2];              /**< Subgraphs it walks, in walk order (IF: then, else; WHILE: cond, body;
                                        CALL_ONCE: init, -1), -1 for none; {-1, -1} for other operators. */
    bool custom;                   /**< builtin_code is CUSTOM: name is the custom code. */
    uint32_t reserved[4];          /**< Zero. Room for later fields without an ABI break. */
} aplan_tflite_operator_info;

/**
 * Facts about one operator: what it is, its input and output tensors, the subgraphs it calls.
 * @param[in]  model      a model aplan_tflite_query accepted; any alignment.
 * @param[in]  model_size its length in bytes.
 * @param[in]  subgraph   index into Model.subgraphs.
 * @param[in]  op         index into that subgraph's operators.
 * @param[out] info       required; zeroed on failure. Its text and vectors point into model.
 * @param[out] error      optional, as for aplan_tflite_query; an argument error has byte_offset 0.
 * @return APLAN_OK, or:
 *   - APLAN_E_INVALID_ARG iff model or info is NULL, or subgraph / op is out of range (message e.g. "operator 7 of
 *     subgraph 0: the subgraph has 3 operators");
 *   - the status aplan_tflite_query gives for the header, the Model vectors, the subgraph table, the operator, its
 *     index vectors, its operator code and control-flow options;
 *   - APLAN_E_FORMAT_TRUNCATED / _BAD_OFFSET iff a custom operator's custom_code string is malformed.
 * Complexity O(inputs + outputs) time, O(1) stack; no allocation.
 */
APLAN_API aplan_status aplan_tflite_operator(const void *model, size_t model_size, uint32_t subgraph, uint32_t op,
                                             aplan_tflite_operator_info *info, aplan_format_error *error);

/** The name schema.fbs gives TensorType code `type` ("FLOAT32", "INT8", ...; static, as
 *  aplan_tflite_tensor_info.type_name), or NULL for a code it does not name. Since 0.5.1. O(1). */
APLAN_API const char *aplan_tflite_type_name(uint32_t type);

/** What aplan_tflite_options found about one operator's options (since 0.3.1). */
typedef struct aplan_tflite_options_info {
    uint32_t type;                     /**< Operator.builtin_options_type: the BuiltinOptions union member (0 NONE). */
    bool has_table;                    /**< Operator.builtin_options is there (absent: every field has its default). */
    aplan_tflite_text custom;          /**< Operator.custom_options, as the model holds them; {NULL, 0} when absent. */
    aplan_tflite_indices intermediates; /**< Operator.intermediates: tensor indices in its subgraph. */
    uint32_t reserved[4];              /**< Zero. Room for later fields without an ABI break. */
} aplan_tflite_options_info;

/**
 * The options of operator op of subgraph `subgraph`: the builtin options' type, the custom options' bytes and the
 * intermediates (since 0.3.1). What a runtime's kernels read at Init and Prepare.
 * @return APLAN_OK, or what aplan_tflite_operator returns for the same operator (it is read the same way), or
 *         APLAN_E_FORMAT_TRUNCATED / _BAD_OFFSET / _BAD_VALUE iff the options table, the custom options vector or
 *         an intermediate index is malformed (an index outside the subgraph). info is zeroed on failure.
 * Complexity O(inputs + outputs + intermediates) time, O(1) stack; no allocation.
 */
APLAN_API aplan_status aplan_tflite_options(const void *model, size_t model_size, uint32_t subgraph, uint32_t op,
                                            aplan_tflite_options_info *info, aplan_format_error *error);

/**
 * One scalar field of operator op's builtin options table (since 0.3.1): field id `field` of the table (its
 * declaration index in schema.fbs), of width 1, 2, 4 or 8 bytes, sign-extended to 64 bits when is_signed (bool
 * and unsigned fields: not). *value is def when the table or the field is absent, as a flatbuffer reader gives it.
 * @return APLAN_OK; APLAN_E_INVALID_ARG iff model or value is NULL or width is not 1, 2, 4 or 8; what
 *         aplan_tflite_options returns. O(inputs + outputs).
 */
APLAN_API aplan_status aplan_tflite_option(const void *model, size_t model_size, uint32_t subgraph, uint32_t op,
                                           unsigned field, unsigned width, bool is_signed, int64_t def,
                                           int64_t *value, aplan_format_error *error);

/** What aplan_tflite_subgraph found about one subgraph. */
typedef struct aplan_tflite_subgraph_info {
    aplan_tflite_text name;       /**< SubGraph.name, as the model holds it. */
    uint32_t tensor_count;        /**< Entries in SubGraph.tensors. */
    uint32_t operator_count;      /**< Entries in SubGraph.operators (operator indices run below it). */
    aplan_tflite_indices inputs;  /**< SubGraph.inputs: tensor indices in the subgraph. */
    aplan_tflite_indices outputs; /**< SubGraph.outputs: tensor indices in the subgraph. */
    uint32_t name_error;          /**< Since 0.4.2: APLAN_OK, or the status reading SubGraph.name gave: name is then
                                       absent. */
    uint32_t reserved[3];         /**< Zero. Room for later fields without an ABI break. */
} aplan_tflite_subgraph_info;

/**
 * Facts about one subgraph: its name, sizes, inputs and outputs.
 * @param[in]  model      a model aplan_tflite_query accepted; any alignment.
 * @param[in]  model_size its length in bytes.
 * @param[in]  subgraph   index into Model.subgraphs (below aplan_tflite_info.subgraph_count).
 * @param[out] info       required; zeroed on failure.
 * @param[out] error      optional, as for aplan_tflite_query; an argument error has byte_offset 0.
 * @return APLAN_OK, or:
 *   - APLAN_E_INVALID_ARG iff model or info is NULL, or subgraph is out of range ("subgraph 3: the model has 3
 *     subgraphs");
 *   - the status aplan_tflite_query gives for the header, the Model vectors, the subgraph table and its inputs and
 *     outputs;
 *   - APLAN_E_FORMAT_TRUNCATED / _BAD_OFFSET iff the name string is malformed.
 * Complexity O(inputs + outputs) time, O(1) stack; no allocation.
 */
APLAN_API aplan_status aplan_tflite_subgraph(const void *model, size_t model_size, uint32_t subgraph,
                                             aplan_tflite_subgraph_info *info, aplan_format_error *error);

/** What happens at a step (aplan_tflite_step.kind). */
enum {
    APLAN_TFLITE_STEP_START = 0,    /**< Step 0: before anything runs; tensors read but never written (Vela's
                                         scratch, say) start here. No operator, no subgraph entered. */
    APLAN_TFLITE_STEP_ENTRY = 1,    /**< A subgraph is entered: its inputs and outputs are created here. Step 1
                                         enters subgraph 0 (no operator); IF / WHILE / CALL_ONCE give one such step
                                         before each subgraph they walk (the operator is the caller). */
    APLAN_TFLITE_STEP_OPERATOR = 2  /**< An operator runs: its outputs are created here, and every input and output
                                         of it is live through it. */
};

/** One step of the walk aplan_tflite_read numbers lifetimes by (aplan_buffer lower/upper are these steps). An array
 *  element like aplan_buffer, so without reserved room: more facts about a step would come with a new call. */
typedef struct aplan_tflite_step {
    uint32_t kind;          /**< APLAN_TFLITE_STEP_START, _ENTRY or _OPERATOR. */
    uint32_t subgraph;      /**< The operator's subgraph (the running one, or for ENTRY the caller);
                                 APLAN_TFLITE_NONE for steps 0 and 1. */
    uint32_t op;            /**< The operator's index in that subgraph; APLAN_TFLITE_NONE for steps 0 and 1. */
    uint32_t entered;       /**< ENTRY: the subgraph entered (0 at step 1); else APLAN_TFLITE_NONE. */
    uint32_t depth;         /**< Calls deep: 0 in subgraph 0; an ENTRY step and the operators of the subgraph it
                                 enters are one deeper than the calling operator (at most
                                 APLAN_TFLITE_MAX_NESTING). */
    int32_t builtin_code;   /**< The operator's code as in aplan_tflite_operator_info; -1 for steps 0 and 1. */
    aplan_tflite_text name; /**< The operator's name as in aplan_tflite_operator_info; {NULL, 0} for steps 0 and 1. */
} aplan_tflite_step;

/**
 * Which operator runs at each step: the walk of aplan_tflite_read (TFLM's allocation scopes, control flow
 * included), one entry per step, so steps[s] explains step s of every buffer's lifetime [lower, upper).
 * steps[0] is START, steps[1] the ENTRY of subgraph 0; then each operator of subgraph 0 in order (step k + 2 for
 * operator k when no control flow intervenes), each IF / WHILE / CALL_ONCE followed by, for each subgraph it walks,
 * an ENTRY step and that subgraph's steps (recursively). Every buffer aplan_tflite_read gives has upper <= *count.
 * @param[in]  model        the flatbuffer (as for aplan_tflite_query).
 * @param[in]  model_size   its length in bytes.
 * @param[in]  scratch      as for aplan_tflite_read: at least aplan_tflite_info.scratch_size bytes,
 *                          APLAN_SCRATCH_ALIGN aligned, free again on return.
 * @param[in]  scratch_size its length in bytes.
 * @param[out] steps        capacity entries; steps[0 .. min(capacity, *count)) are written. NULL with capacity 0
 *                          is the size query.
 * @param[in]  capacity     entries in steps.
 * @param[out] count        required: the number of steps, set on APLAN_OK and APLAN_E_OUTPUT_TOO_SMALL (0
 *                          otherwise).
 * @param[out] error        optional, as for aplan_tflite_query.
 * @return APLAN_OK (also for the size query), or:
 *   - APLAN_E_INVALID_ARG iff model or count is NULL, or steps is NULL while capacity > 0;
 *   - every status aplan_tflite_read returns but its APLAN_E_OUTPUT_TOO_SMALL, under the same conditions (the same
 *     checks, scratch rules and walk: a call cycle, nesting or the visit budget);
 *   - APLAN_E_FORMAT_TRUNCATED / _BAD_OFFSET iff the custom_code string of a custom operator the walk visits is
 *     malformed;
 *   - APLAN_E_OUTPUT_TOO_SMALL iff steps is not NULL and capacity is below the step count: the first capacity
 *     steps are written.
 * Complexity as aplan_tflite_read: O(model_size) time (the work budget); the count is at most
 * 3 * APLAN_TFLITE_MAX_VISITS + 2, and below 3 * (APLAN_TFLITE_WORK_PER_BYTE * model_size + APLAN_TFLITE_WORK_BASE)
 * / 4 + 2 (a visit costs at least 4 units).
 */
APLAN_API aplan_status aplan_tflite_steps(const void *model, size_t model_size, void *scratch, size_t scratch_size,
                                          aplan_tflite_step *steps, size_t capacity, size_t *count,
                                          aplan_format_error *error);

/** Scratch bytes aplan_tflite_uses needs: 8 per tensor of the model and 4 per subgraph. APLAN_OK, APLAN_E_INVALID_ARG
 *  (bytes NULL), APLAN_E_SIZE_OVERFLOW, or what aplan_tflite_query returns. O(model_size). Since 0.4. */
APLAN_API aplan_status aplan_tflite_uses_scratch_size(const void *model, size_t model_size, size_t *bytes,
                                                      aplan_format_error *error);

/**
 * How many operators read or write each planned tensor: the traffic weight of <aplan/regions.h> (a tensor outside the
 * fastest region costs its size once per operator that touches it). uses[k] is, for ids[k] (aplan_tflite_read's),
 * the number of operators of its subgraph whose inputs or outputs name it; an operator that names it twice counts
 * once, and operators are counted as the model lists them, not per visit of the walk (a WHILE body's run count is
 * not in the model). Since 0.4.
 * @param[in]  ids, count  the tensors (aplan_tflite_read's ids).
 * @param[out] uses        count entries.
 * @return APLAN_OK; APLAN_E_INVALID_ARG (a NULL argument, an id naming no tensor); APLAN_E_SCRATCH_TOO_SMALL /
 *         _MISALIGNED; what aplan_tflite_subgraph and aplan_tflite_operator return; APLAN_E_FORMAT_UNSUPPORTED when
 *         the operators name more tensors than APLAN_TFLITE_WORK_PER_BYTE * model_size + APLAN_TFLITE_WORK_BASE
 *         (index vectors shared many times over). O(model_size) within that budget.
 */
APLAN_API aplan_status aplan_tflite_uses(const void *model, size_t model_size, void *scratch, size_t scratch_size,
                                         const aplan_tflite_id *ids, size_t count, uint64_t *uses,
                                         aplan_format_error *error);

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
    bool front_replaced;  /**< Since 0.5: the input was an output of this function, whose front block was replaced
                               rather than a second one put before it (the output has the input's size). */
    uint32_t reserved[4]; /**< Zero. Room for later fields without an ABI break. */
} aplan_tflite_embed_info;

/**
 * Scratch bytes aplan_tflite_embed needs for this model: per buffer two aplan_buffer and an id (88 bytes on a 64-bit
 * host), a bit and 8 bytes per Model.buffers entry, 8 bytes per operator listed in a subgraph (the file offsets
 * that may move), the larger of aplan_tflite_read's and aplan_verify's scratch, and, when
 * the input may be an earlier output of aplan_tflite_embed, room to rebuild its front block (at most model_size).
 * @return APLAN_OK; APLAN_E_INVALID_ARG iff model or bytes is NULL; APLAN_E_SIZE_OVERFLOW iff the sum passes
 *         SIZE_MAX; what aplan_tflite_embed returns for a model it cannot read. O(model_size), within the query's
 *         work budget; no allocation.
 */
APLAN_API aplan_status aplan_tflite_embed_scratch_size(const void *model, size_t model_size, size_t *bytes,
                                                       aplan_format_error *error);

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
 *   Only Buffer tables that a tensor, a metadata entry or Model.metadata_buffer names are touched: an entry of
 *   Model.buffers that nothing uses is never written, whatever it points at. A file offset that moves must lie in
 *   no other part the reader knows (the Model table and its vectors, operator codes, buffers and their data,
 *   metadata, subgraphs, tensors with their shapes, names and quantization, operators with their index vectors and
 *   options): standard builders never let tables overlap, and a file that does is refused, naming both.
 * Again over its own output (since 0.5): when the input is an output of this function (its first bytes are
 *   exactly the front block this function writes for the model that follows them, with the input's plan), that
 *   front block is replaced instead of a second one being put before it: the output has the input's size and
 *   differs from it only in the plan's words, so the same plan gives the same bytes (info->front_replaced).
 * Checked before it returns OK (since 0.5), so that it never hands back a model that TFLM or the reader would take
 *   differently from the plan:
 *   - the plan, by aplan_verify, as TFLM uses it: sizes rounded up to APLAN_TFLITE_ALIGNMENT, every offset a
 *     multiple of it, no two tensors live at a common step sharing a byte, every end at most 2^31. A tensor the
 *     input's own offline plan places keeps that offset as fixed when the new plan gives it the same one, and such
 *     tensors may alias (TFLM accepted them so); the input's other offsets are the ones being replaced;
 *   - the output, read back: the query's counts; the output's Model, every field pointing where the input's moved to
 *     and Model.buffers holding the input's tables; aplan_tflite_read giving the input's buffers with exactly the
 *     plan's offsets; and, when a file offset moved (so bytes of the copy changed), every subgraph, tensor and
 *     operator (names, shapes, types, index vectors and options where they moved to) as the input's, a lookup that
 *     fails on the input failing the same way. When nothing moved the copy is the input's bytes, reached through
 *     the Model's fields just checked, so every lookup reads what it read in the input.
 *
 * @param[in]  model        the flatbuffer; any alignment; must not overlap out.
 * @param[in]  model_size   its length in bytes.
 * @param[in]  ids          count ids, exactly as aplan_tflite_read gave them for this model (its order: subgraph,
 *                          then tensor, ascending).
 * @param[in]  offsets      count offsets in bytes, offsets[i] for the buffer ids[i] names (e.g. aplan_plan's).
 * @param[in]  count        the number of buffers: aplan_tflite_query's buffer_count for this model.
 * @param[in]  scratch      aplan_tflite_embed_scratch_size bytes, APLAN_SCRATCH_ALIGN aligned; owned by the caller,
 *                          used only during the call (the size query needs it too: it makes every check).
 * @param[in]  scratch_size its length.
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
 *   - APLAN_E_SCRATCH_MISALIGNED / _SCRATCH_TOO_SMALL iff scratch is not aligned or shorter than the scratch size;
 *   - APLAN_E_INVALID_ARG also iff ids are not exactly the reader's for this model;
 *   - APLAN_E_CAPACITY_EXCEEDED iff an offset is above INT32_MAX, or since 0.5 a tensor's end (its offset plus its
 *     size rounded up to 16) above 2^31 (TFLM's offsets are int32); the message names the buffer;
 *   - since 0.5, the verifier's status iff the plan breaks a rule TFLM relies on: APLAN_E_MISALIGNED_OFFSET (not a
 *     multiple of 16), APLAN_E_OVERLAP (two live tensors share bytes), APLAN_E_SIZE_OVERFLOW; the message names
 *     the buffers by index and id ("s0t3");
 *   - APLAN_E_FORMAT_BAD_OFFSET also iff a file offset that moves lies in another part the reader knows (the
 *     message names the byte, the table it belongs to and the part it lies in), or the output does not read back
 *     as the input with the plan (the message names the subgraph, tensor or operator that reads differently);
 *   - APLAN_E_FORMAT_UNSUPPORTED iff the root Model has a field this writer does not know (an id above
 *     external_buffers, 9: a newer schema, where an offset cannot be told from a scalar), the model has no buffers
 *     (no Model.buffers, or an empty one: the plan's buffer cannot follow buffer 0, the empty buffer tensors without
 *     data use), or an offset of the output would reach 2^31 bytes (FlatBuffers' limit; the plan alone takes 4 bytes
 *     per tensor);
 *   - APLAN_E_FORMAT_BAD_OFFSET / _TRUNCATED / _BAD_VALUE iff a part the reader does not check but the writer
 *     copies (a Model vector field, a Buffer or Metadata table, an operator's large_custom_options_offset) is
 *     malformed, or an absolute file offset plus info->shift passes 2^64 - 1;
 *   - APLAN_E_FORMAT_BAD_VALUE also (since 0.5) iff a buffer is to be appended and a metadata entry other than an
 *     offline plan's, or an entry of Model.metadata_buffer, names the index it would take (a buffer the input does
 *     not have): that entry would start naming the plan; the message names the entry;
 *   - APLAN_E_OUTPUT_TOO_SMALL iff out_capacity (> 0) is below the output's size (nothing written).
 * Complexity O(model_size + count log count + M log M) time, M the file offsets that move (0 for a model with no
 * data beside the flatbuffer): the reads within the query's work budget, the verifier's sweep, the overlap check;
 * O(1) stack, no recursion; no allocation.
 */
APLAN_API aplan_status aplan_tflite_embed(const void *model, size_t model_size, const aplan_tflite_id *ids,
                                          const uint64_t *offsets, size_t count, void *scratch, size_t scratch_size,
                                          void *out, size_t out_capacity, size_t *out_size,
                                          aplan_tflite_embed_info *info, aplan_format_error *error);

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
