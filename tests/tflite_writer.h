/*
 * A test-side .tflite writer: builds small TFLite flatbuffers from plain descriptions, so the reader is tested
 * without the shared models. Host-only (allocates).
 *
 * Layout: the root offset and "TFL3", then each table preceded by its vtable, children after their parent
 * (uoffsets point forward). Model children are written in the order operator codes, buffers, metadata, subgraphs,
 * so the last bytes of the file always belong to something the reader reads (every truncation must be noticed).
 * Every scalar field sits in a 4-byte slot (8 for Buffer.offset/size). Only the fields the reader needs exist.
 *
 * The writer records where it put things, under keys (see tw_pos), so tests can assert exact byte offsets:
 *   "root"                      the Model table
 *   "opcode<i>"                 OperatorCode table i
 *   "b<i>", "b<i>.data"         Buffer table i, its data vector's first element
 *   "m<i>", "m<i>.name"         Metadata table i, the first byte of its name
 *   "s<s>"                      SubGraph table s; "s<s>.inputs" / "s<s>.outputs" / "s<s>.operators": element 0
 *                               of those vectors
 *   "s<s>t<t>"                  Tensor table; ".shape" element 0, ".type" / ".buffer" / ".is_variable" fields
 *   "s<s>o<i>"                  Operator table; ".opcode_index" field, ".inputs" / ".outputs" element 0,
 *                               ".options" the options table, ".opt0" / ".opt1" its two subgraph index fields,
 *                               ".large_offset" its large_custom_options_offset field (tw_extra)
 *   "b<i>.offset"               Buffer.offset field, when written
 *   "s<s>t<t>.name", "s<s>.name", "opcode<i>.custom_code"
 *                               the first byte of a tensor's / subgraph's name or an operator code's custom_code
 *                               (tw_extra); the string's length word is the 4 bytes before it
 *   "model.f<id>"               a Model field slot that tw_extra adds (description, metadata_buffer, ...)
 */
#ifndef APLAN_TESTS_TFLITE_WRITER_H
#define APLAN_TESTS_TFLITE_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tw_tensor {
    const int32_t *shape; /* rank entries; NULL with rank 0 writes no shape field (a scalar) */
    uint32_t rank;
    int8_t type;          /* TensorType */
    uint32_t buffer;      /* index into the model's buffers */
    bool is_variable;
} tw_tensor;

typedef struct tw_op {
    uint32_t opcode_index;
    const int32_t *inputs;
    uint32_t n_inputs;
    const int32_t *outputs;
    uint32_t n_outputs;
    uint8_t options_type;   /* BuiltinOptions union type; 0 writes no options */
    int32_t options[2];     /* the options table's first two int fields (subgraph indices) */
    uint32_t n_options;     /* how many of them to write (0..2) */
} tw_op;

typedef struct tw_subgraph {
    const tw_tensor *tensors;
    uint32_t n_tensors;
    const int32_t *inputs;
    uint32_t n_inputs;
    const int32_t *outputs;
    uint32_t n_outputs;
    const tw_op *ops;
    uint32_t n_ops;
} tw_subgraph;

typedef struct tw_opcode {
    int8_t deprecated_code; /* OperatorCode.deprecated_builtin_code */
    int32_t code;           /* OperatorCode.builtin_code */
} tw_opcode;

typedef struct tw_buffer {
    const uint8_t *data; /* NULL: no data field */
    uint32_t len;
    uint64_t ext_offset; /* Buffer.offset / Buffer.size, written when ext_offset != 0 */
    uint64_t ext_size;
} tw_buffer;

typedef struct tw_metadata {
    const char *name;
    uint32_t buffer;
} tw_metadata;

typedef struct tw_model {
    uint32_t version;
    const tw_opcode *opcodes;
    uint32_t n_opcodes;
    const tw_subgraph *subgraphs;
    uint32_t n_subgraphs;
    const tw_buffer *buffers;
    uint32_t n_buffers;
    const tw_metadata *metadata;
    uint32_t n_metadata;
} tw_model;

/* A built file and where its parts are. */
typedef struct tw_file {
    uint8_t *data;
    size_t size;
    struct tw_mark {
        char key[40];
        size_t pos;
    } *marks;
    size_t n_marks;
} tw_file;

/* A string field tw_extra adds: where, and its bytes (any bytes, NULs included; the NUL the format wants after
 * them is added). */
typedef struct tw_string {
    uint32_t subgraph; /* tensor names: the subgraph; subgraph names: which one; custom codes: unused */
    uint32_t index;    /* tensor names: the tensor; custom codes: the operator code; subgraph names: unused */
    const char *text;
    uint32_t len;      /* bytes of text; 0: strlen(text) (so "" is an empty string, present) */
} tw_string;

/* Model and operator fields beyond tw_model, for the embed tests (tw_build_ex). All-zero adds nothing, and then
 * the file is byte for byte what tw_build writes. Children are written after the metadata, before the subgraphs;
 * the strings right after the table that holds them. */
typedef struct tw_extra {
    const char *description;         /* Model.description (field 3); NULL: absent */
    const int32_t *metadata_buffer;  /* Model.metadata_buffer (5), n_metadata_buffer entries; NULL: absent */
    uint32_t n_metadata_buffer;
    uint32_t n_tables[3];            /* Model fields 7, 8, 9 (signature_defs, external_buffer_groups,
                                        external_buffers): that many tables whose one int field is 100 * id + index;
                                        0: absent */
    bool no_buffers;                 /* leave Model.buffers (4) out */
    uint32_t unknown_field;          /* >= 10: a Model field of this id holding the scalar 0x5a5a5a5a; 0: none */
    uint64_t large_custom_options_offset; /* Operator fields 9 and 10 (offset, size 16) on every operator; 0: none */
    const tw_string *tensor_names;   /* Tensor.name (field 3) of the tensors listed; the others have none */
    uint32_t n_tensor_names;
    const tw_string *custom_codes;   /* OperatorCode.custom_code (field 1) of the operator codes listed */
    uint32_t n_custom_codes;
    const tw_string *subgraph_names; /* SubGraph.name (field 4) of the subgraphs listed */
    uint32_t n_subgraph_names;
    /* Shared tables, as a FlatBuffers builder may write them (hostile inputs: a reader that follows every offset
     * does the shared table's work once per reference). Each writes only entry 0's table (and its marks) and points
     * every entry of the vector at it, so the file holds 4 bytes per further entry. */
    bool share_tensors;              /* every SubGraph.tensors entry: the subgraph's tensor 0 */
    bool share_ops;                  /* every SubGraph.operators entry: the subgraph's operator 0 */
    bool share_subgraphs;            /* every Model.subgraphs entry: subgraph 0 */
    bool share_metadata;             /* every Model.metadata entry: metadata 0 */
    /* Operator.custom_options (field 5) of the operators listed (subgraph, index: the operator; text, len: the
     * bytes, len required), as a [ubyte] vector; marked "s<s>o<i>.custom" (its first byte). */
    const tw_string *custom_options;
    uint32_t n_custom_options;
} tw_extra;

/* The models of the tool's hostile tests (issue 21, tests/cli/make_models.c) and their fuzz seeds: k references,
 * 4 bytes of the file each, to one l-byte string or one rank-l shape. A name's bytes are the alphabet over and over
 * ("abc...zabc...") when fill is 0, else l copies of fill. Every tensor is INT8 without data; the operator code is
 * ADD (CUSTOM for TW_SHARED_CUSTOM). */
typedef enum tw_shared {
    TW_SHARED_NAME,   /* k entries of subgraph 0's tensors, all one [16] tensor named by the l bytes; one operator
                         t0 -> t1 (the same table): k buffers of 16 bytes */
    TW_SHARED_FANIN,  /* t0 [16] named by the l bytes, t1 [16] named "out"; one operator whose k inputs all name t0,
                         writing t1 */
    TW_SHARED_RANK,   /* t0 of rank l (every entry 1: 1 byte), t1 [1] named "out"; one operator whose k inputs all
                         name t0, writing t1 */
    TW_SHARED_CUSTOM, /* one CUSTOM operator code whose custom_code is the l bytes; k entries of subgraph 0's
                         operators, all one operator of it, t0 -> t1 ([16] each, unnamed) */
    TW_SHARED_CONCAT  /* TW_SHARED_RANK with CONCATENATION (code 2) for ADD: a kernel of TFLM's arena model that looks
                         up every input (issue 32) */
} tw_shared;
tw_file tw_build_shared(tw_shared kind, uint32_t k, uint32_t l, char fill);

/* A FlexBuffers map (custom options, as TFLM's kernels read them) of n int32 values under n keys, sorted by key as
 * FlexBuffers' builder sorts them, every slot 4 bytes wide; the bytes are malloc'd into *out (the caller frees),
 * their count returned. Aborts on allocation failure. */
size_t tw_flex_map(const char *const *keys, const int32_t *values, uint32_t n, uint8_t **out);

/* The hostile models of issue 32 for TFLM's arena model, and their fuzz seeds:
 *   tw_build_signal: one CUSTOM operator `kernel` (SignalDelay, SignalFramer or SignalOverlapAdd, with the options
 *     each reads) from t0, INT16 of the given shape (constant: with one byte of data, so never planned and its size
 *     unbounded), to t1 INT16 [1, 4]. The kernel keeps a persistent buffer per row of t0's outer dimensions (all but
 *     the last; the last two for SignalOverlapAdd): rows, not bytes, that the file's 400-odd bytes name.
 *   tw_build_detection: TFLite_Detection_PostProcess from boxes t0 FLOAT32 [1, 4, 4], scores t1 [1, 4, 2] and
 *     anchors t2 [4, 4] to t3..t6, listed `entries` times in subgraph 0's operators, every entry one operator table
 *     (4 bytes each), whose custom options map holds its eleven keys and `keys` more ("k0000000", ...): a kernel that
 *     reads its options by key once per entry does entries x keys work on a file of about 4 entries + 18 keys
 *     bytes. */
tw_file tw_build_signal(const char *kernel, const int32_t *shape, uint32_t rank, bool constant);
tw_file tw_build_detection(uint32_t entries, uint32_t keys);

/* Build; aborts on allocation failure. Free with tw_free. */
tw_file tw_build(const tw_model *m);
tw_file tw_build_ex(const tw_model *m, const tw_extra *x);
void tw_free(tw_file *f);
/* Position recorded under key; aborts (test bug) when the key is unknown. */
size_t tw_pos(const tw_file *f, const char *key);

#endif
