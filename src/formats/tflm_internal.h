/*
 * Internals of the TFLM arena model (src/formats/tflm.c) shared with its kernel table (src/formats/tflm_kernels.c):
 * what a kernel entry may read of its operator, and the allocations it reports, in the order TFLM's kernel makes
 * them. Not installed; names start with aplan__. Device side: no allocation, no stdio.
 */
#ifndef APLAN_FORMATS_TFLM_INTERNAL_H
#define APLAN_FORMATS_TFLM_INTERNAL_H

#include "aplan/tflm.h"

/* Every call below adds the reader's work (units of APLAN_TFLITE_WORK_PER_BYTE: the opening of the model and the
 * subgraph, then each look-up's own) to *work, so that the arena model holds the sum over its whole pass to its own
 * budget (APLAN_TFLM_WORK_PER_BYTE) while each look-up keeps the failures a look-up of its own would have. */

/* What the model's reader (src/formats/tflite.c) does for the arena model's scan of every tensor: each tensor of
 * subgraph s in order, as aplan_tflite_tensor gives it (the same facts, the same failure at the same tensor, each
 * within the work budget a look-up of its own has), with the model opened once instead of once a tensor. each
 * returns false to stop. Returns APLAN_OK or the first look-up's failure, reported in error (required). */
typedef bool (*aplan__tensor_fn)(void *context, uint32_t tensor, const aplan_tflite_tensor_info *info);
aplan_status aplan__tflite_each_tensor(const void *model, size_t model_size, uint32_t s, aplan__tensor_fn each,
                                       void *context, uint64_t *work, aplan_format_error *error);
/* The same over the tensors subgraph s lists as its inputs (outputs false) or outputs, in the list's order: each gets
 * the entry's index in the list (a tensor listed twice is looked up twice, each charged to *work). */
aplan_status aplan__tflite_each_io(const void *model, size_t model_size, uint32_t s, bool outputs,
                                   aplan__tensor_fn each, void *context, uint64_t *work, aplan_format_error *error);

/* A walk over the operators of subgraph s, which is opened once (aplan_tflite_operator opens the model and the
 * subgraph on every call): each gets every operator in order, as aplan_tflite_operator gives it, until it returns
 * false. Inside each, the cursor looks up that subgraph's tensors and operators' options as aplan_tflite_tensor,
 * aplan_tflite_options and aplan_tflite_option do, with the same checks, work budget per look-up and messages; after
 * a failure every look-up returns the first failure's status at once and the walk ends with it (error keeps the
 * first failure's message). O(1) per call beyond the look-up's own work. */
typedef struct aplan__tflite_cursor aplan__tflite_cursor;
typedef bool (*aplan__operator_fn)(void *context, aplan__tflite_cursor *cursor, uint32_t op,
                                   const aplan_tflite_operator_info *info);
aplan_status aplan__tflite_each_operator(const void *model, size_t model_size, uint32_t s, aplan__operator_fn each,
                                         void *context, uint64_t *work, aplan_format_error *error);
/* The byte of operator op's entry in its subgraph's operators vector (for messages); 0 past the end. O(1). */
size_t aplan__tflite_cursor_position(const aplan__tflite_cursor *cursor, uint32_t op);
aplan_status aplan__tflite_cursor_tensor(aplan__tflite_cursor *cursor, uint32_t tensor, aplan_tflite_tensor_info *info);
aplan_status aplan__tflite_cursor_options(aplan__tflite_cursor *cursor, uint32_t op, aplan_tflite_options_info *info);
aplan_status aplan__tflite_cursor_option(aplan__tflite_cursor *cursor, uint32_t op, unsigned field, unsigned width,
                                         bool is_signed, int64_t def, int64_t *value);

/* What a kernel may read of one of its operator's tensors. present is false for an index past the operator's list
 * or -1 (an omitted optional tensor): every other field is then 0. */
typedef struct aplan__tflm_tensor {
    bool present;
    bool constant;      /* holds data in the model */
    bool variable;      /* Tensor.is_variable */
    uint8_t type;       /* TensorType code */
    uint32_t rank;
    int32_t dims[APLAN_TFLITE_MAX_RANK]; /* the first rank entries (dims past APLAN_TFLITE_MAX_RANK are 0) */
    uint64_t elements;  /* product of the shape (1 for a scalar) */
    uint64_t bytes;     /* elements times the type's size (0 for a type without one) */
    uint32_t scales;    /* quantization scale entries */
    uint32_t zero_points;
} aplan__tflm_tensor;

/* One operator being replayed: opaque to kernel entries, read through the functions below. */
typedef struct aplan__tflm_node aplan__tflm_node;

/* The target: 4 or 8 (pointers and size_t). */
unsigned aplan__tflm_ptr(const aplan__tflm_node *n);
/* The CMSIS-NN build's instruction set (aplan_tflm_config.isa): APLAN_TFLM_ISA_PORTABLE or _DSP. */
unsigned aplan__tflm_isa(const aplan__tflm_node *n);
/* The operator has a builtin options table (without one, TFLM's parser leaves every params field 0). */
bool aplan__tflm_has_options(aplan__tflm_node *n);
/* The operator's input, output and intermediate lists: their length, and tensor k of each (not present past the
 * end or at -1). */
uint32_t aplan__tflm_inputs(const aplan__tflm_node *n);
uint32_t aplan__tflm_outputs(const aplan__tflm_node *n);
uint32_t aplan__tflm_intermediates(const aplan__tflm_node *n);
aplan__tflm_tensor aplan__tflm_input(aplan__tflm_node *n, uint32_t k);
aplan__tflm_tensor aplan__tflm_output(aplan__tflm_node *n, uint32_t k);
aplan__tflm_tensor aplan__tflm_intermediate(aplan__tflm_node *n, uint32_t k);
/* A scalar field of the builtin options table (field id, width in bytes, signedness, default), as
 * aplan_tflite_option reads it; the default when the model gives none. */
int64_t aplan__tflm_option(aplan__tflm_node *n, unsigned field, unsigned width, bool is_signed, int64_t def);
/* Element `index` of the custom options' flexbuffer map (keys sorted), as TFLM's FlexbufferWrapper::ElementAsInt32
 * reads it (the slot's bits as a signed integer, truncated to 32 bits; also what ElementAsBool tests against 0); 0
 * when the options are not a map or the map is shorter. O(1). */
int32_t aplan__tflm_custom_int(aplan__tflm_node *n, uint32_t index);
/* The value of key `key` (a static string of at most 32 bytes) in that map as flexbuffers' Map::operator[] and
 * AsInt32 give it (ints, bools, floats converted); 0 when absent. Map::operator[] is a bsearch over the keys, and
 * so is this: O(log keys * strlen(key)), charged to the pass's work budget, and once per distinct options vector
 * (by its position in the file) and key however many operators share it. */
int32_t aplan__tflm_custom_key(aplan__tflm_node *n, const char *key);

/* The allocations, in the kernel's order. Sizes that do not fit 64 bits saturate (the replay then fails, as TFLM
 * would). */
void aplan__tflm_persistent(aplan__tflm_node *n, uint64_t bytes);   /* AllocatePersistentBuffer (16-aligned) */
/* `rows` AllocatePersistentBuffer calls of `bytes` each in a row (a kernel's loop over its input's outer dimensions),
 * as one event: the first takes bytes and its padding, each further one bytes rounded up to 16 (the tail is then
 * 16-aligned), so the figures are those of the loop's, in O(1) whatever rows is. A product past 2^64 - 1 makes the
 * arena not computable: aplan_tflm_arena and aplan_tflm_two_arenas fail with APLAN_E_SIZE_OVERFLOW naming the
 * operator, its kernel, rows and bytes. */
void aplan__tflm_persistent_rows(aplan__tflm_node *n, uint64_t rows, uint64_t bytes);
void aplan__tflm_scratch(aplan__tflm_node *n, uint64_t bytes);      /* RequestScratchBufferInArena */
void aplan__tflm_temp_input(aplan__tflm_node *n, uint32_t k);       /* AllocateTempInputTensor(node, k) */
void aplan__tflm_temp_output(aplan__tflm_node *n, uint32_t k);      /* AllocateTempOutputTensor(node, k) */
void aplan__tflm_temp_intermediate(aplan__tflm_node *n, uint32_t k); /* AllocateTempIntermediateTensor(node, k) */
void aplan__tflm_temp_buffer(aplan__tflm_node *n, uint64_t bytes, uint64_t align); /* AllocateTempBuffer */
/* The kernel's Prepare returns an error here (reason: aplan_tflm_refusal; a and b: the TensorType codes it rejected):
 * the operator is counted as refused and the replay goes on, so every figure is still computed, and marked. */
void aplan__tflm_refuse(aplan__tflm_node *n, aplan_tflm_refusal reason, uint8_t a, uint8_t b);

/* A kernel of the table: the operator it serves (a builtin code, or CUSTOM with a custom code), the TFLM source it was
 * read from, its builtin options struct (size and alignment on 32- and 64-bit targets; size 0: the parser allocates
 * none), the OpData its Init allocates first (bytes on each target, 0 for none), then the rest of its Init and its
 * Prepare (NULL: nothing more). */
typedef struct aplan__tflm_kernel {
    int32_t code;
    const char *custom;     /* the custom code for code 32 (CUSTOM); NULL otherwise */
    const char *source;     /* e.g. "tensorflow/lite/micro/kernels/conv.cc" */
    uint16_t params[2];     /* sizeof of the params struct: [0] 32-bit, [1] 64-bit */
    uint8_t params_align[2];
    uint16_t op_data[2];    /* Init's first AllocatePersistentBuffer: [0] 32-bit, [1] 64-bit */
    void (*init)(aplan__tflm_node *n);
    void (*prepare)(aplan__tflm_node *n);
} aplan__tflm_kernel;

/* The tables, sorted by code then custom code (tflm_kernels.c), and their lengths: the reference kernels, and
 * CMSIS-NN's where they differ. */
extern const aplan__tflm_kernel aplan__tflm_kernels[];
extern const size_t aplan__tflm_kernel_count;
extern const aplan__tflm_kernel aplan__tflm_cmsis_kernels[];
extern const size_t aplan__tflm_cmsis_kernel_count;

#endif /* APLAN_FORMATS_TFLM_INTERNAL_H */
