/*
 * .tflite reader: the buffer list TensorFlow Lite Micro's allocator hands its planner, read from memory.
 *
 * Schema facts (tensorflow/lite/schema/schema.fbs) used here: field ids of Model, SubGraph, Tensor, Operator,
 * OperatorCode, Buffer and Metadata; TensorType values and names; the BuiltinOperator names and the codes of CUSTOM
 * (32, named by OperatorCode.custom_code), IF (118), WHILE (119) and CALL_ONCE (129), an OperatorCode's code being
 * the larger of deprecated_builtin_code (a byte, kept for old files) and builtin_code; the BuiltinOptions union
 * type ids of IfOptions (92), WhileOptions (93), CallOnceOptions (103).
 *
 * TFLM rules (tensorflow/lite/micro/micro_allocation_info.cc): every tensor of every subgraph gets an allocation
 * record; it is planned iff it has no constant data, is not a variable and has a non-zero size (plus: a variable the
 * offline plan places). Lifetimes come from an allocation scope counter that starts at 0 for subgraph 0:
 *   - a subgraph's inputs and outputs are "created" at the scope on entry;
 *   - each operator enters a new scope; its outputs are created there; a control-flow operator then walks the
 *     subgraphs it calls, each after one more scope; then its inputs (index -1 skipped) and outputs are last used
 *     at the current scope;
 *   - after its operators, a subgraph's outputs are last used at the final scope.
 * "Created" sets both first and last use to the scope (TFLM overwrites, it does not keep the first). The CSV step
 * is scope + 1, half-open: [first + 1, last + 2); a tensor never created but used starts at step 0, a tensor never
 * touched gets [0, 0).
 *
 * The lookups (aplan_tflite_tensor, _operator, _subgraph) open only the root and walk to the part asked for; the
 * steps are the walk's scopes, recorded by mark() when aplan_tflite_steps asks (the same walk as the read's, so the
 * numbering cannot drift from the lifetimes). Strings (names, custom codes) are never read by the query or the
 * read: a malformed one fails only the calls that return it.
 *
 * Two deliberate differences from TFLM, both where TFLM has no well-defined behaviour:
 *   - the opcode is max(deprecated_builtin_code, builtin_code) (TFLM reads builtin_code only, so an old file that
 *     stores IF in the deprecated byte would not be walked by TFLM);
 *   - the offline plan is indexed by the tensor's index over all subgraphs (TFLM indexes it by the index inside the
 *     subgraph, which only agrees for subgraph 0) and its length is checked (TFLM reads past short buffers).
 */
#include "aplan/tflite.h"

#include "formats/flatbuf.h"
#include "formats/tflite_ops.h"
#include "formats/tflm_internal.h"

/* Table field ids (declaration order in schema.fbs; a union takes two ids: its type, then its value). */
enum {
    MODEL_VERSION = 0,
    MODEL_OPERATOR_CODES = 1,
    MODEL_SUBGRAPHS = 2,
    MODEL_BUFFERS = 4,
    MODEL_METADATA = 6,
    SUBGRAPH_TENSORS = 0,
    SUBGRAPH_INPUTS = 1,
    SUBGRAPH_OUTPUTS = 2,
    SUBGRAPH_OPERATORS = 3,
    SUBGRAPH_NAME = 4,
    TENSOR_SHAPE = 0,
    TENSOR_TYPE = 1,
    TENSOR_BUFFER = 2,
    TENSOR_NAME = 3,
    TENSOR_QUANTIZATION = 4,
    TENSOR_IS_VARIABLE = 5,
    QUANTIZATION_SCALE = 2,
    QUANTIZATION_ZERO_POINT = 3,
    OPERATOR_OPCODE_INDEX = 0,
    OPERATOR_INPUTS = 1,
    OPERATOR_OUTPUTS = 2,
    OPERATOR_BUILTIN_OPTIONS_TYPE = 3,
    OPERATOR_BUILTIN_OPTIONS = 4,
    OPERATOR_CUSTOM_OPTIONS = 5,
    OPERATOR_INTERMEDIATES = 8,
    OPCODE_DEPRECATED_BUILTIN_CODE = 0,
    OPCODE_CUSTOM_CODE = 1,
    OPCODE_BUILTIN_CODE = 3,
    BUFFER_DATA = 0,
    BUFFER_OFFSET = 1,
    BUFFER_SIZE = 2,
    METADATA_NAME = 0,
    METADATA_BUFFER = 1,
    OPTIONS_FIRST_SUBGRAPH = 0, /* IfOptions.then_subgraph_index, WhileOptions.cond_subgraph_index,
                                   CallOnceOptions.init_subgraph_index */
    OPTIONS_SECOND_SUBGRAPH = 1 /* IfOptions.else_subgraph_index, WhileOptions.body_subgraph_index */
};

enum { OP_CUSTOM = 32, OP_IF = 118, OP_WHILE = 119, OP_CALL_ONCE = 129 };
enum { OPTIONS_IF = 92, OPTIONS_WHILE = 93, OPTIONS_CALL_ONCE = 103 };

/* TensorType values 0..18 (FLOAT32 .. BFLOAT16) and their element sizes in bytes, as TFLM's TfLiteTypeSizeOf
 * gives them; 0 marks STRING (5) and VARIANT (14), whose size TFLM cannot compute. UINT16 (16) and BFLOAT16 (18)
 * are 2 bytes; INT4 (17) takes one byte per element as in TFLM. Codes 19..22 (INT2 .. FLOAT8_E5M2, newer schemas)
 * have names only: a tensor of such a type is planned by no reader of this version. */
static const uint8_t type_size[] = {4, 2, 4, 1, 8, 0, 1, 2, 8, 1, 8, 16, 8, 4, 0, 4, 2, 1, 2};
static const char *const type_name[] = {"FLOAT32", "FLOAT16", "INT32",   "UINT8",  "INT64",   "STRING", "BOOL",
                                        "INT16",   "COMPLEX64", "INT8", "FLOAT64", "COMPLEX128", "UINT64",
                                        "RESOURCE", "VARIANT", "UINT32", "UINT16", "INT4",  "BFLOAT16",
                                        "INT2", "UINT4", "FLOAT8_E4M3FN", "FLOAT8_E5M2"};
#define TYPE_NAMES (sizeof type_name / sizeof type_name[0])

const char *aplan_tflite_type_name(uint32_t type) { return type < TYPE_NAMES ? type_name[type] : NULL; }

/* BuiltinOperator names (formats/tflite_ops.h), stored as one block of NUL-terminated strings with 16-bit offsets
 * rather than a table of pointers: half the table on 32-bit targets and no relocations. The struct of exactly sized
 * char arrays lets the compiler compute every offset (offsetof), so no offset is written by hand; char members need
 * no padding, which the static assertion below confirms. */
typedef struct builtin_text {
#define X(name) char name[sizeof #name];
    APLAN__BUILTIN_OPERATORS(X)
#undef X
} builtin_text;

static const builtin_text builtin_names = {
#define X(name) #name,
    APLAN__BUILTIN_OPERATORS(X)
#undef X
};

static const uint16_t builtin_at[] = {
#define X(name) (uint16_t)offsetof(builtin_text, name),
    APLAN__BUILTIN_OPERATORS(X)
#undef X
};
#define BUILTIN_COUNT (sizeof builtin_at / sizeof builtin_at[0])

enum {
    BUILTIN_TEXT_BYTES = 0
#define X(name) + sizeof #name
    APLAN__BUILTIN_OPERATORS(X)
#undef X
};
_Static_assert(sizeof(builtin_text) == BUILTIN_TEXT_BYTES, "builtin names are packed without padding");
_Static_assert(BUILTIN_TEXT_BYTES <= UINT16_MAX, "builtin name offsets fit 16 bits");
_Static_assert(sizeof builtin_at / sizeof builtin_at[0] == 210 && APLAN__OP_COUNT == 210,
               "BuiltinOperator codes 0..209");

static const char offline_name[] = "OfflineMemoryAllocation";
#define OFFLINE_NAME_LEN (sizeof offline_name - 1u)

#define NO_STEP UINT32_MAX /* lifetime not set (TFLM's kUninitializedLifetime) */

typedef struct model {
    aplan__fb fb;
    aplan__fb_table root;
    uint32_t version;
    aplan__fb_vec opcodes;   /* [OperatorCode] */
    aplan__fb_vec subgraphs; /* [SubGraph] */
    aplan__fb_vec buffers;   /* [Buffer] */
    uint64_t tensor_count;   /* over all subgraphs */
    uint64_t operator_count;
    bool has_plan;
    size_t plan_pos;         /* byte of the first offline offset (word 3 of the metadata buffer) */
} model;

typedef struct subgraph {
    aplan__fb_vec tensors, inputs, outputs, operators;
} subgraph;

typedef struct tensor_fact {
    uint64_t size;     /* bytes; 0 when not planned */
    uint64_t offset;   /* offline offset or APLAN_NO_OFFSET */
    uint64_t elements; /* product of the shape */
    bool planned;
    bool constant;     /* holds data */
} tensor_fact;

typedef struct op_fact {
    aplan__fb_vec inputs, outputs;
    int32_t callee[2];     /* subgraphs it walks, -1 for none */
    int32_t code;          /* max(deprecated_builtin_code, builtin_code) */
    uint32_t opcode_index; /* checked: below m->opcodes.len */
} op_fact;

/* Working memory of the walk, carved from the caller's scratch. */
typedef struct walk {
    model *m;
    uint32_t *first;   /* per tensor (global index): first created scope, NO_STEP */
    uint32_t *last;    /* per tensor: last used scope, NO_STEP */
    uint32_t *base;    /* per subgraph: global index of its tensor 0 */
    uint8_t *active;   /* per subgraph: being walked (cycle check) */
    uint32_t scope;
    uint64_t visits;
    bool naming;              /* aplan_tflite_steps: say what runs at every step */
    aplan_tflite_step *steps; /* its output (NULL for the size query) */
    size_t capacity;          /* entries in steps */
} walk;

/* ------------------------------------------------------------------------------------------------------------ */

/* Every entry of v is a tensor index below n (or -1 when allow_none); `field` names v in messages. */
static aplan_status check_tensor_indices(aplan__fb *fb, const aplan__fb_vec *v, const char *field, uint32_t n,
                                         bool allow_none) {
    aplan_status st = aplan__fb_charge(fb, v->len, v->pos);
    if (st != APLAN_OK) return st;
    for (uint32_t i = 0; i < v->len; i++) {
        int32_t t = aplan__fb_vec_i32(fb, v, i);
        if ((t < 0 && !(allow_none && t == -1)) || (t >= 0 && (uint32_t)t >= n)) {
            return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_VALUE, v->pos + 4u * (size_t)i,
                                  "%s[%u] is %d, not a tensor index%s below %u", field, (uint64_t)i, (int64_t)t,
                                  allow_none ? " (or -1)" : "", (uint64_t)n);
        }
    }
    return APLAN_OK;
}

static aplan_status get_subgraph(model *m, uint32_t s, subgraph *out) {
    aplan__fb *fb = &m->fb;
    aplan__fb_table t;
    aplan__fb_context(fb, 0, "subgraph", s);
    aplan_status st = aplan__fb_vec_table(fb, &m->subgraphs, s, "subgraph table", &t);
    if (st == APLAN_OK) st = aplan__fb_get_vector(fb, &t, SUBGRAPH_TENSORS, 4u, "tensors", &out->tensors);
    if (st == APLAN_OK) st = aplan__fb_get_vector(fb, &t, SUBGRAPH_INPUTS, 4u, "inputs", &out->inputs);
    if (st == APLAN_OK) st = aplan__fb_get_vector(fb, &t, SUBGRAPH_OUTPUTS, 4u, "outputs", &out->outputs);
    if (st == APLAN_OK) st = aplan__fb_get_vector(fb, &t, SUBGRAPH_OPERATORS, 4u, "operators", &out->operators);
    return st;
}

/* The offline offset of tensor `global` (its index over all subgraphs), -1 for none; m->has_plan must hold. */
static int32_t plan_offset(const model *m, uint64_t global) {
    return aplan__fb_i32(&m->fb, m->plan_pos + 4u * (size_t)global);
}

/* The string field `id` of table t as text: {NULL, 0} when absent. */
static aplan_status get_text(aplan__fb *fb, const aplan__fb_table *t, unsigned id, const char *name,
                             aplan_tflite_text *out) {
    aplan__fb_vec v;
    aplan_status st = aplan__fb_get_string(fb, t, id, name, &v);
    out->data = v.present ? (const char *)fb->data + v.pos : NULL;
    out->size = v.len;
    return st;
}

/* A tensor's or subgraph's name, which only the tools show: one that cannot be read (its string runs past the end,
 * ...) is given as absent, with that status in *name_error, and the lookup goes on. Called with no failure recorded
 * (fb's errors are sticky: the first one stays), so clearing the one the name left restores the state before. */
static void get_name(aplan__fb *fb, const aplan__fb_table *t, unsigned id, aplan_tflite_text *out,
                     uint32_t *name_error) {
    const aplan_status st = get_text(fb, t, id, "name", out);
    *name_error = (uint32_t)st;
    if (st != APLAN_OK) {
        out->data = NULL;
        out->size = 0;
        APLAN_MEMSET(fb->error, 0, sizeof *fb->error);
    }
}

/* Read tensor t of subgraph sg, `global` over all subgraphs: size, offline offset, whether TFLM plans it. Context
 * level 0 must be set. */
static aplan_status get_tensor(model *m, const subgraph *sg, uint32_t t, uint64_t global, tensor_fact *out) {
    aplan__fb *fb = &m->fb;
    aplan__fb_table tt;
    aplan__fb_vec shape;
    uint8_t type = 0;
    uint8_t is_variable = 0;
    uint32_t buffer = 0;
    aplan__fb_context(fb, 1, "tensor", t);
    aplan_status st = aplan__fb_vec_table(fb, &sg->tensors, t, "tensor table", &tt);
    if (st == APLAN_OK) st = aplan__fb_get_vector(fb, &tt, TENSOR_SHAPE, 4u, "shape", &shape);
    if (st == APLAN_OK) st = aplan__fb_get_u8(fb, &tt, TENSOR_TYPE, "type", 0, &type);
    if (st == APLAN_OK) st = aplan__fb_get_u32(fb, &tt, TENSOR_BUFFER, "buffer", 0, &buffer);
    if (st == APLAN_OK) st = aplan__fb_get_u8(fb, &tt, TENSOR_IS_VARIABLE, "is_variable", 0, &is_variable);
    if (st != APLAN_OK) return st;

    /* Constant data: the buffer holds bytes, in the flatbuffer (data) or beside it (offset > 1, size > 0). */
    bool constant = false;
    if (buffer >= m->buffers.len) {
        if (buffer != 0 || m->buffers.len != 0) {
            size_t pos;
            (void)aplan__fb_field(fb, &tt, TENSOR_BUFFER, 4u, "buffer", &pos);
            return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_VALUE, pos, "buffer is %u, the model has %u buffers",
                                  (uint64_t)buffer, (uint64_t)m->buffers.len);
        }
    } else {
        aplan__fb_table bt;
        aplan__fb_vec data;
        uint64_t ext_offset = 0;
        uint64_t ext_size = 0;
        st = aplan__fb_vec_table(fb, &m->buffers, buffer, "buffer table", &bt);
        if (st == APLAN_OK) st = aplan__fb_get_vector(fb, &bt, BUFFER_DATA, 1u, "buffer data", &data);
        if (st == APLAN_OK) st = aplan__fb_get_u64(fb, &bt, BUFFER_OFFSET, "buffer offset", 0, &ext_offset);
        if (st == APLAN_OK) st = aplan__fb_get_u64(fb, &bt, BUFFER_SIZE, "buffer size", 0, &ext_size);
        if (st != APLAN_OK) return st;
        constant = data.len != 0 || (ext_offset > 1u && ext_size != 0);
    }

    if ((int8_t)type < 0) {
        size_t pos;
        (void)aplan__fb_field(fb, &tt, TENSOR_TYPE, 1u, "type", &pos);
        return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_VALUE, pos, "type is %d", (int64_t)(int8_t)type);
    }
    uint64_t elements = 1; /* no shape: a scalar */
    st = aplan__fb_charge(fb, shape.len, shape.pos);
    if (st != APLAN_OK) return st;
    for (uint32_t i = 0; i < shape.len; i++) {
        int32_t d = aplan__fb_vec_i32(fb, &shape, i);
        if (d < 0) {
            return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_VALUE, shape.pos + 4u * (size_t)i, "shape[%u] is %d",
                                  (uint64_t)i, (int64_t)d);
        }
        if (__builtin_mul_overflow(elements, (uint64_t)d, &elements)) {
            return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_VALUE, shape.pos + 4u * (size_t)i,
                                  "shape: the element count overflows 64 bits at shape[%u]", (uint64_t)i);
        }
    }
    out->size = 0;
    out->offset = APLAN_NO_OFFSET;
    out->elements = elements;
    out->planned = false;
    out->constant = constant;
    if (constant) return APLAN_OK; /* never planned; its type does not matter */

    size_t tpos;
    (void)aplan__fb_field(fb, &tt, TENSOR_TYPE, 1u, "type", &tpos);
    if (type >= sizeof type_size || type_size[type] == 0) {
        if (type < sizeof type_size) {
            return aplan__fb_fail(fb, APLAN_E_FORMAT_UNSUPPORTED, tpos, "type %s has no fixed element size",
                                  type_name[type]);
        }
        return aplan__fb_fail(fb, APLAN_E_FORMAT_UNSUPPORTED, tpos, "type %u is newer than this reader",
                              (uint64_t)type);
    }
    if (__builtin_mul_overflow(elements, (uint64_t)type_size[type], &out->size)) {
        return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_VALUE, shape.pos, "shape: the size overflows 64 bits");
    }
    int32_t offline = m->has_plan ? plan_offset(m, global) : -1;
    if (offline >= 0) out->offset = (uint64_t)offline;
    out->planned = out->size != 0 && (is_variable == 0 || offline >= 0);
    return APLAN_OK;
}

/* Read operator i of subgraph sg: checked indices and the subgraphs it walks. Context level 0 must be set. */
static aplan_status get_operator(model *m, const subgraph *sg, uint32_t i, op_fact *out) {
    aplan__fb *fb = &m->fb;
    aplan__fb_table ot;
    uint32_t opcode_index = 0;
    aplan__fb_context(fb, 1, "operator", i);
    aplan_status st = aplan__fb_vec_table(fb, &sg->operators, i, "operator table", &ot);
    if (st == APLAN_OK) st = aplan__fb_get_u32(fb, &ot, OPERATOR_OPCODE_INDEX, "opcode_index", 0, &opcode_index);
    if (st == APLAN_OK) st = aplan__fb_get_vector(fb, &ot, OPERATOR_INPUTS, 4u, "inputs", &out->inputs);
    if (st == APLAN_OK) st = aplan__fb_get_vector(fb, &ot, OPERATOR_OUTPUTS, 4u, "outputs", &out->outputs);
    if (st == APLAN_OK) st = check_tensor_indices(fb, &out->inputs, "inputs", sg->tensors.len, true);
    if (st == APLAN_OK) st = check_tensor_indices(fb, &out->outputs, "outputs", sg->tensors.len, false);
    if (st != APLAN_OK) return st;
    out->callee[0] = -1;
    out->callee[1] = -1;
    if (opcode_index >= m->opcodes.len) {
        size_t pos;
        (void)aplan__fb_field(fb, &ot, OPERATOR_OPCODE_INDEX, 4u, "opcode_index", &pos);
        return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_VALUE, pos, "opcode_index is %u, the model has %u operator codes",
                              (uint64_t)opcode_index, (uint64_t)m->opcodes.len);
    }
    aplan__fb_table ct;
    uint8_t deprecated = 0;
    int32_t code = 0;
    st = aplan__fb_vec_table(fb, &m->opcodes, opcode_index, "operator code table", &ct);
    if (st == APLAN_OK) {
        st = aplan__fb_get_u8(fb, &ct, OPCODE_DEPRECATED_BUILTIN_CODE, "deprecated_builtin_code", 0, &deprecated);
    }
    if (st == APLAN_OK) st = aplan__fb_get_i32(fb, &ct, OPCODE_BUILTIN_CODE, "builtin_code", 0, &code);
    if (st != APLAN_OK) return st;
    if ((int8_t)deprecated > code) code = (int8_t)deprecated;
    out->code = code;
    out->opcode_index = opcode_index;

    uint8_t want;
    unsigned callees;
    const char *name;
    switch (code) {
    case OP_IF: want = OPTIONS_IF, callees = 2, name = "IF needs IfOptions"; break;
    case OP_WHILE: want = OPTIONS_WHILE, callees = 2, name = "WHILE needs WhileOptions"; break;
    case OP_CALL_ONCE: want = OPTIONS_CALL_ONCE, callees = 1, name = "CALL_ONCE needs CallOnceOptions"; break;
    default: return APLAN_OK;
    }
    uint8_t type = 0;
    bool present = false;
    aplan__fb_table opt;
    st = aplan__fb_get_u8(fb, &ot, OPERATOR_BUILTIN_OPTIONS_TYPE, "builtin_options_type", 0, &type);
    if (st == APLAN_OK) st = aplan__fb_get_table(fb, &ot, OPERATOR_BUILTIN_OPTIONS, "builtin_options", &present, &opt);
    if (st != APLAN_OK) return st;
    if (type != want || !present) {
        return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_VALUE, ot.pos, "%s (builtin_options_type is %u%s)", name,
                              (uint64_t)type, present ? "" : ", no options table");
    }
    for (unsigned k = 0; k < callees; k++) {
        const char *field = k == 0 ? (code == OP_IF ? "then_subgraph_index"
                                                    : code == OP_WHILE ? "cond_subgraph_index" : "init_subgraph_index")
                                   : (code == OP_IF ? "else_subgraph_index" : "body_subgraph_index");
        int32_t s = 0;
        st = aplan__fb_get_i32(fb, &opt, k == 0 ? OPTIONS_FIRST_SUBGRAPH : OPTIONS_SECOND_SUBGRAPH, field, 0, &s);
        if (st != APLAN_OK) return st;
        if (s < -1 || (s >= 0 && (uint32_t)s >= m->subgraphs.len)) {
            size_t pos;
            (void)aplan__fb_field(fb, &opt, k, 4u, field, &pos);
            return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_VALUE, pos, "%s is %d, the model has %u subgraphs", field,
                                  (int64_t)s, (uint64_t)m->subgraphs.len);
        }
        out->callee[k] = s; /* -1: TFLM skips it */
    }
    return APLAN_OK;
}

/* The OfflineMemoryAllocation metadata entry whose buffer is `index`; entry_pos locates the entry for messages. */
static aplan_status read_plan(model *m, uint32_t index, size_t entry_pos) {
    aplan__fb *fb = &m->fb;
    aplan__fb_table bt;
    aplan__fb_vec data;
    if (index >= m->buffers.len) {
        return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_METADATA, entry_pos,
                              "OfflineMemoryAllocation: buffer %u does not exist (the model has %u)", (uint64_t)index,
                              (uint64_t)m->buffers.len);
    }
    aplan_status st = aplan__fb_vec_table(fb, &m->buffers, index, "OfflineMemoryAllocation buffer", &bt);
    if (st == APLAN_OK) st = aplan__fb_get_vector(fb, &bt, BUFFER_DATA, 1u, "OfflineMemoryAllocation data", &data);
    if (st != APLAN_OK) return st;
    size_t at = data.present ? data.pos : bt.pos;
    if (data.len < 12u || (data.len & 3u) != 0) {
        return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_METADATA, at, "OfflineMemoryAllocation: %u bytes, not 12 + 4 n",
                              (uint64_t)data.len);
    }
    uint32_t subgraphs = aplan__fb_u32(fb, data.pos + 4u);
    uint32_t n = aplan__fb_u32(fb, data.pos + 8u);
    if (subgraphs != m->subgraphs.len) {
        return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_METADATA, data.pos + 4u,
                              "OfflineMemoryAllocation: subgraph count %u, the model has %u", (uint64_t)subgraphs,
                              (uint64_t)m->subgraphs.len);
    }
    if (n != m->tensor_count) {
        return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_METADATA, data.pos + 8u,
                              "OfflineMemoryAllocation: offsets for %u tensors, the model has %u", (uint64_t)n,
                              m->tensor_count);
    }
    if ((uint64_t)data.len != 12u + 4u * (uint64_t)n) {
        return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_METADATA, at,
                              "OfflineMemoryAllocation: %u bytes for %u offsets, expected %u", (uint64_t)data.len,
                              (uint64_t)n, 12u + 4u * (uint64_t)n);
    }
    st = aplan__fb_charge(fb, n, data.pos);
    if (st != APLAN_OK) return st;
    for (uint32_t i = 0; i < n; i++) {
        int32_t off = aplan__fb_i32(fb, data.pos + 12u + 4u * (size_t)i);
        if (off < -1) {
            return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_METADATA, data.pos + 12u + 4u * (size_t)i,
                                  "OfflineMemoryAllocation: offset[%u] is %d", (uint64_t)i, (int64_t)off);
        }
    }
    m->has_plan = true;
    m->plan_pos = data.pos + 12u;
    return APLAN_OK;
}

/* Header and Model fields: O(1). Enough for the lookups (aplan_tflite_tensor and its kin), which find one part
 * of the model from here; the tensor counts and the offline plan are left unread (has_plan false). */
static aplan_status open_root(model *m, const void *data, size_t size, aplan_format_error *error) {
    aplan__fb *fb = &m->fb;
    aplan__fb_init(fb, data, size, error);
    aplan__fb_set_budget(fb, APLAN_TFLITE_WORK_PER_BYTE, APLAN_TFLITE_WORK_BASE);
    m->has_plan = false;
    m->plan_pos = 0;
    m->tensor_count = 0;
    m->operator_count = 0;
    aplan_status st = aplan__fb_root(fb, "TFL3", &m->root);
    if (st == APLAN_OK) st = aplan__fb_get_u32(fb, &m->root, MODEL_VERSION, "Model.version", 0, &m->version);
    if (st == APLAN_OK) {
        st = aplan__fb_get_vector(fb, &m->root, MODEL_OPERATOR_CODES, 4u, "Model.operator_codes", &m->opcodes);
    }
    if (st == APLAN_OK) st = aplan__fb_get_vector(fb, &m->root, MODEL_SUBGRAPHS, 4u, "Model.subgraphs", &m->subgraphs);
    if (st == APLAN_OK) st = aplan__fb_get_vector(fb, &m->root, MODEL_BUFFERS, 4u, "Model.buffers", &m->buffers);
    if (st != APLAN_OK) return st;
    if (m->subgraphs.len == 0) {
        return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_VALUE, m->root.pos, "Model.subgraphs: the model has none");
    }
    return APLAN_OK;
}

/* Header, Model fields, subgraph tables and tensor counts, the offline plan. */
static aplan_status open_model(model *m, const void *data, size_t size, aplan_format_error *error) {
    aplan__fb *fb = &m->fb;
    aplan_status st = open_root(m, data, size, error);
    if (st != APLAN_OK) return st;
    for (uint32_t s = 0; s < m->subgraphs.len; s++) {
        subgraph sg;
        st = get_subgraph(m, s, &sg);
        if (st != APLAN_OK) return st;
        m->tensor_count += sg.tensors.len;
        m->operator_count += sg.operators.len;
    }
    aplan__fb_context_pop(fb, 0);
    if (m->tensor_count > (uint64_t)UINT32_MAX - 1u || m->tensor_count > SIZE_MAX / 8u) {
        return aplan__fb_fail(fb, APLAN_E_FORMAT_UNSUPPORTED, m->subgraphs.pos,
                              "Model.subgraphs: more than 2^32 - 2 tensors");
    }

    aplan__fb_vec meta;
    st = aplan__fb_get_vector(fb, &m->root, MODEL_METADATA, 4u, "Model.metadata", &meta);
    for (uint32_t i = 0; st == APLAN_OK && i < meta.len; i++) {
        aplan__fb_table mt;
        aplan__fb_vec name;
        uint32_t buffer = 0;
        aplan__fb_context(fb, 0, "metadata", i);
        st = aplan__fb_vec_table(fb, &meta, i, "metadata table", &mt);
        if (st == APLAN_OK) st = aplan__fb_get_string(fb, &mt, METADATA_NAME, "name", &name);
        if (st == APLAN_OK) st = aplan__fb_get_u32(fb, &mt, METADATA_BUFFER, "buffer", 0, &buffer);
        if (st != APLAN_OK) break;
        bool match = name.len == OFFLINE_NAME_LEN;
        for (size_t k = 0; match && k < OFFLINE_NAME_LEN; k++) {
            match = aplan__fb_u8(fb, name.pos + k) == (uint8_t)offline_name[k];
        }
        aplan__fb_context_pop(fb, 0);
        if (match) st = read_plan(m, buffer, mt.pos); /* the last such entry wins, as in TFLM */
    }
    aplan__fb_context_pop(fb, 0);
    return st;
}

/* Check every subgraph's index vectors, tensors and operators; count the planned tensors. */
static aplan_status check_model(model *m, size_t *planned) {
    aplan__fb *fb = &m->fb;
    uint64_t global = 0;
    *planned = 0;
    for (uint32_t s = 0; s < m->subgraphs.len; s++) {
        subgraph sg;
        aplan_status st = get_subgraph(m, s, &sg);
        if (st == APLAN_OK) st = check_tensor_indices(fb, &sg.inputs, "inputs", sg.tensors.len, false);
        if (st == APLAN_OK) st = check_tensor_indices(fb, &sg.outputs, "outputs", sg.tensors.len, false);
        for (uint32_t t = 0; st == APLAN_OK && t < sg.tensors.len; t++, global++) {
            tensor_fact f;
            st = get_tensor(m, &sg, t, global, &f);
            if (st == APLAN_OK && f.planned) (*planned)++;
        }
        for (uint32_t i = 0; st == APLAN_OK && i < sg.operators.len; i++) {
            op_fact op;
            st = get_operator(m, &sg, i, &op);
        }
        if (st != APLAN_OK) return st;
    }
    aplan__fb_context_pop(fb, 0);
    return APLAN_OK;
}

/* Scratch layout of w for m; with s->base NULL it only measures. */
static void carve(aplan__scratch *s, walk *w, const model *m) {
    size_t tensors = (size_t)m->tensor_count;
    size_t subgraphs = m->subgraphs.len;
    w->first = aplan__scratch_take(s, tensors, sizeof(uint32_t), sizeof(uint32_t));
    w->last = aplan__scratch_take(s, tensors, sizeof(uint32_t), sizeof(uint32_t));
    w->base = aplan__scratch_take(s, subgraphs, sizeof(uint32_t), sizeof(uint32_t));
    w->active = aplan__scratch_take(s, subgraphs, 1u, 1u);
}

static void created(walk *w, uint32_t global) {
    w->first[global] = w->scope;
    w->last[global] = w->scope;
}

static void used(walk *w, uint32_t global) { w->last[global] = w->scope; }

/* Before walking subgraph `callee`, which would run `depth` calls deep, from the operator at entry_pos (context
 * set to it): no cycle, not too deep. */
static aplan_status check_call(walk *w, uint32_t callee, unsigned depth, size_t entry_pos) {
    aplan__fb *fb = &w->m->fb;
    if (w->active[callee] != 0) {
        return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_VALUE, entry_pos, "calls subgraph %u while it runs (a call cycle)",
                              (uint64_t)callee);
    }
    if (depth > APLAN_TFLITE_MAX_NESTING) {
        return aplan__fb_fail(fb, APLAN_E_FORMAT_UNSUPPORTED, entry_pos, "control flow nests deeper than %u calls",
                              (uint64_t)APLAN_TFLITE_MAX_NESTING);
    }
    return APLAN_OK;
}

/* The name of a builtin code: static text, {NULL, 0} for a code outside the table. */
static aplan_tflite_text builtin_name(int32_t code) {
    aplan_tflite_text t = {NULL, 0};
    if (code >= 0 && (uint32_t)code < BUILTIN_COUNT) {
        const char *at = (const char *)&builtin_names + builtin_at[code];
        t.data = at;
        while (at[t.size] != '\0') t.size++;
    }
    return t;
}

/* A CUSTOM operator's custom_code (read and checked here: the query does not look at it), {NULL, 0} when absent,
 * empty or not CUSTOM. Context must name the operator. */
static aplan_status custom_name(model *m, const op_fact *op, aplan_tflite_text *out) {
    aplan_tflite_text t = {NULL, 0};
    if (op->code == OP_CUSTOM) {
        aplan__fb_table ct;
        aplan_status st = aplan__fb_vec_table(&m->fb, &m->opcodes, op->opcode_index, "operator code table", &ct);
        if (st == APLAN_OK) st = get_text(&m->fb, &ct, OPCODE_CUSTOM_CODE, "custom_code", &t);
        if (st != APLAN_OK) return st;
        if (t.size == 0) t.data = NULL; /* empty: the builtin name, "CUSTOM" */
    }
    *out = t;
    return APLAN_OK;
}

/* Store step `at` when the output holds it (steps past the capacity are only counted). */
static void put_step(walk *w, size_t at, uint32_t kind, uint32_t s, uint32_t i, uint32_t entered, unsigned depth,
                     int32_t code, aplan_tflite_text name) {
    if (at >= w->capacity) return;
    aplan_tflite_step *p = &w->steps[at];
    p->kind = kind;
    p->subgraph = s;
    p->op = i;
    p->entered = entered;
    p->depth = depth;
    p->builtin_code = code;
    p->name = name;
}

/* Step scope + 1, where operator i of subgraph s runs (entered APLAN_TFLITE_NONE) or enters subgraph `entered`.
 * A custom code is read whether or not the step is stored, so the size query fails where the fill would; builtin
 * names are filled in after the walk (by aplan_tflite_steps), so that aplan_tflite_read, which walks with the same
 * mark(), links no names table. Kept out of mark(), whose frame the recursion multiplies. Context must name the
 * operator. */
static __attribute__((noinline)) aplan_status record(walk *w, uint32_t s, uint32_t i, uint32_t entered,
                                                     unsigned depth, const op_fact *op) {
    aplan_tflite_text name;
    aplan_status st = custom_name(w->m, op, &name);
    if (st != APLAN_OK) return st;
    put_step(w, (size_t)w->scope + 1u, entered == APLAN_TFLITE_NONE ? APLAN_TFLITE_STEP_OPERATOR
                                                                    : APLAN_TFLITE_STEP_ENTRY,
             s, i, entered, depth, op->code, name);
    return APLAN_OK;
}

/* TFLM's MarkAllocationLifetimes for subgraph s, nested `depth` calls deep (subgraph 0 is depth 0). The
 * recursion is at most APLAN_TFLITE_MAX_NESTING deep: check_call refuses deeper calls first. */
static aplan_status mark(walk *w, uint32_t s, unsigned depth) {
    model *m = w->m;
    aplan__fb *fb = &m->fb;
    subgraph sg;
    aplan_status st = get_subgraph(m, s, &sg);
    if (st != APLAN_OK) return st;
    /* The loops below over the subgraph's inputs and outputs (entry and exit) */
    st = aplan__fb_charge(fb, (uint64_t)sg.inputs.len + 2u * (uint64_t)sg.outputs.len, sg.inputs.pos);
    if (st != APLAN_OK) return st;
    w->active[s] = 1;
    uint32_t base = w->base[s];
    for (uint32_t i = 0; i < sg.inputs.len; i++) created(w, base + aplan__fb_vec_u32(fb, &sg.inputs, i));
    for (uint32_t i = 0; i < sg.outputs.len; i++) created(w, base + aplan__fb_vec_u32(fb, &sg.outputs, i));
    for (uint32_t i = 0; i < sg.operators.len; i++) {
        op_fact op;
        aplan__fb_context(fb, 0, "subgraph", s);
        st = get_operator(m, &sg, i, &op);
        /* get_operator charged the operator's tables, vectors and index checks; the loops below are charged here */
        if (st == APLAN_OK) {
            st = aplan__fb_charge(fb, (uint64_t)op.inputs.len + 2u * (uint64_t)op.outputs.len,
                                  sg.operators.pos + 4u * (size_t)i);
        }
        if (st != APLAN_OK) return st;
        if (++w->visits > APLAN_TFLITE_MAX_VISITS) {
            return aplan__fb_fail(fb, APLAN_E_FORMAT_UNSUPPORTED, sg.operators.pos + 4u * (size_t)i,
                                  "control flow makes the walk visit more than %u operators",
                                  (uint64_t)APLAN_TFLITE_MAX_VISITS);
        }
        w->scope++;
        if (w->naming) {
            st = record(w, s, i, APLAN_TFLITE_NONE, depth, &op);
            if (st != APLAN_OK) return st;
        }
        for (uint32_t k = 0; k < op.outputs.len; k++) created(w, base + aplan__fb_vec_u32(fb, &op.outputs, k));
        for (unsigned k = 0; k < 2u; k++) {
            if (op.callee[k] < 0) continue;
            aplan__fb_context(fb, 0, "subgraph", s);
            aplan__fb_context(fb, 1, "operator", i);
            st = check_call(w, (uint32_t)op.callee[k], depth + 1u, sg.operators.pos + 4u * (size_t)i);
            if (st != APLAN_OK) return st;
            w->scope++;
            if (w->naming) st = record(w, s, i, (uint32_t)op.callee[k], depth + 1u, &op);
            if (st == APLAN_OK) st = mark(w, (uint32_t)op.callee[k], depth + 1u);
            if (st != APLAN_OK) return st;
        }
        for (uint32_t k = 0; k < op.inputs.len; k++) {
            int32_t t = aplan__fb_vec_i32(fb, &op.inputs, k);
            if (t >= 0) used(w, base + (uint32_t)t);
        }
        for (uint32_t k = 0; k < op.outputs.len; k++) used(w, base + aplan__fb_vec_u32(fb, &op.outputs, k));
    }
    for (uint32_t i = 0; i < sg.outputs.len; i++) used(w, base + aplan__fb_vec_u32(fb, &sg.outputs, i));
    w->active[s] = 0;
    return APLAN_OK;
}

/* ------------------------------------------------------------------------------------------------------------ */

static void set_status(aplan_format_error *error, aplan_status status, const char *message) {
    APLAN_MEMSET(error, 0, sizeof *error);
    error->status = status;
    aplan__text w = {error->message, sizeof error->message, 0};
    aplan__put(&w, message);
}

static aplan_status query(model *m, const void *data, size_t size, aplan_tflite_info *info,
                          aplan_format_error *error) {
    size_t planned = 0;
    aplan_status st = open_model(m, data, size, error);
    if (st == APLAN_OK) st = check_model(m, &planned);
    if (st != APLAN_OK) return st;
    aplan__scratch s;
    walk w;
    aplan__scratch_init(&s, NULL, SIZE_MAX);
    carve(&s, &w, m);
    if (s.failed) { /* cannot happen below 2^32 tensors on a 64-bit host; kept for 32-bit ones */
        return aplan__fb_fail(&m->fb, APLAN_E_FORMAT_UNSUPPORTED, 0, "scratch size overflows size_t");
    }
    APLAN_MEMSET(info, 0, sizeof *info);
    info->buffer_count = planned;
    info->scratch_size = s.used;
    info->subgraph_count = m->subgraphs.len;
    info->tensor_count = (size_t)m->tensor_count;
    info->operator_count = (size_t)m->operator_count;
    info->version = m->version;
    info->has_offline_plan = m->has_plan;
    info->work = m->fb.work < UINT32_MAX ? (uint32_t)m->fb.work : UINT32_MAX;
    return APLAN_OK;
}

aplan_status aplan_tflite_query(const void *model_data, size_t model_size, aplan_tflite_info *info,
                                aplan_format_error *error) {
    aplan_format_error local;
    if (error == NULL) error = &local;
    if (model_data == NULL || info == NULL) {
        set_status(error, APLAN_E_INVALID_ARG, model_data == NULL ? "model is NULL" : "info is NULL");
        return APLAN_E_INVALID_ARG;
    }
    model m;
    aplan_status st = query(&m, model_data, model_size, info, error);
    if (st != APLAN_OK) APLAN_MEMSET(info, 0, sizeof *info);
    return st;
}

/* What aplan_tflite_read and aplan_tflite_steps do before walking: the argument check (error redirected to local
 * when NULL; `out` is the output array, named out_name in the message), *count = 0, the query, the scratch check. */
static aplan_status open_walk(model *m, const void *data, size_t size, void *scratch, size_t scratch_size,
                              const void *out, size_t capacity, const char *out_name, size_t *count,
                              aplan_tflite_info *info, aplan_format_error **error, aplan_format_error *local) {
    if (*error == NULL) *error = local;
    if (data == NULL || count == NULL || (out == NULL && capacity > 0)) {
        set_status(*error, APLAN_E_INVALID_ARG,
                   data == NULL ? "model is NULL" : count == NULL ? "count is NULL" : out_name);
        return APLAN_E_INVALID_ARG;
    }
    *count = 0;
    aplan_status st = query(m, data, size, info, *error);
    if (st != APLAN_OK) return st;
    st = aplan__scratch_check(scratch, scratch_size, info->scratch_size);
    if (st != APLAN_OK) {
        set_status(*error, st, st == APLAN_E_SCRATCH_MISALIGNED ? "scratch is not APLAN_SCRATCH_ALIGN aligned"
                                                                : "scratch is smaller than the query's scratch_size");
    }
    return st;
}

/* The walk over a model query accepted, in scratch that passed the check: lifetimes in w->first / w->last, and with
 * w->naming the steps (naming, steps and capacity set by the caller). Inlined: a frame of its own would sit below
 * the recursion on every device stack. */
static inline __attribute__((always_inline)) aplan_status walk_model(model *m, walk *w, void *scratch,
                                                                     size_t scratch_size) {
    aplan__scratch s;
    aplan__scratch_init(&s, scratch, scratch_size);
    carve(&s, w, m);
    APLAN_ASSERT(!s.failed);
    w->m = m;
    w->scope = 0;
    w->visits = 0;
    uint32_t next = 0;
    for (uint32_t sg = 0; sg < m->subgraphs.len; sg++) {
        subgraph g;
        aplan_status st = get_subgraph(m, sg, &g);
        if (st != APLAN_OK) return st;
        w->base[sg] = next;
        w->active[sg] = 0;
        next += g.tensors.len;
    }
    aplan_status st = aplan__fb_charge(&m->fb, next, m->subgraphs.pos);
    if (st != APLAN_OK) return st;
    for (uint32_t t = 0; t < next; t++) {
        w->first[t] = NO_STEP;
        w->last[t] = NO_STEP;
    }
    st = mark(w, 0, 0);
    aplan__fb_context_pop(&m->fb, 0);
    return st;
}

aplan_status aplan_tflite_read(const void *model_data, size_t model_size, void *scratch, size_t scratch_size,
                               aplan_buffer *buffers, aplan_tflite_id *ids, size_t capacity, size_t *count,
                               aplan_format_error *error) {
    aplan_format_error local;
    model m;
    aplan_tflite_info info;
    aplan_status st = open_walk(&m, model_data, model_size, scratch, scratch_size, buffers, capacity,
                                "buffers is NULL", count, &info, &error, &local);
    if (st != APLAN_OK) return st;
    *count = info.buffer_count;
    if (capacity < info.buffer_count) {
        return aplan__fb_fail(&m.fb, APLAN_E_OUTPUT_TOO_SMALL, 0, "the model has %u buffers, the output holds %u",
                              (uint64_t)info.buffer_count, (uint64_t)capacity);
    }
    walk w;
    w.naming = false;
    w.steps = NULL;
    w.capacity = 0;
    st = walk_model(&m, &w, scratch, scratch_size);
    if (st != APLAN_OK) return st;

    size_t out = 0;
    for (uint32_t sg = 0; sg < m.subgraphs.len; sg++) {
        subgraph g;
        st = get_subgraph(&m, sg, &g);
        for (uint32_t t = 0; st == APLAN_OK && t < g.tensors.len; t++) {
            tensor_fact f;
            uint32_t global = w.base[sg] + t;
            st = get_tensor(&m, &g, t, global, &f);
            if (st != APLAN_OK || !f.planned) continue;
            APLAN_ASSERT(out < info.buffer_count);
            aplan_buffer *b = &buffers[out];
            b->size = f.size;
            b->lower = w.first[global] == NO_STEP ? 0 : (uint64_t)w.first[global] + 1u;
            b->upper = w.last[global] == NO_STEP ? 0 : (uint64_t)w.last[global] + 2u;
            b->alignment = 0;
            b->offset = f.offset;
            if (ids != NULL) {
                ids[out].subgraph = sg;
                ids[out].tensor = t;
            }
            out++;
        }
        if (st != APLAN_OK) return st;
    }
    APLAN_ASSERT(out == info.buffer_count);
    APLAN_MEMSET(error, 0, sizeof *error);
    return APLAN_OK;
}

size_t aplan_tflite_id_format(aplan_tflite_id id, char *out, size_t out_size) {
    aplan__text w = {out, out_size, 0};
    aplan__putf(&w, "s%ut%u", (uint64_t)id.subgraph, (uint64_t)id.tensor);
    return w.len;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Names, operators, steps                                                                                      */

/* A caller's argument out of range, said in words after the model's root was read: byte_offset 0, no context.
 * format takes up to three numbers (%u); unused ones are ignored. */
static aplan_status range_error(model *m, const char *format, uint64_t a, uint64_t b, uint64_t c) {
    aplan__fb_context_pop(&m->fb, 0);
    return aplan__fb_fail(&m->fb, APLAN_E_INVALID_ARG, 0, format, a, b, c);
}

/* A checked vector of tensor indices as the API gives it. */
static aplan_tflite_indices indices(const model *m, const aplan__fb_vec *v) {
    aplan_tflite_indices x = {v->present ? m->fb.data + v->pos : NULL, v->len};
    return x;
}

/* open_root, then subgraph s (range-checked; the message names id, when given, else s) and its vectors. */
static aplan_status open_subgraph(model *m, const void *data, size_t size, aplan_format_error *error, uint32_t s,
                                  const aplan_tflite_id *id, subgraph *sg) {
    aplan_status st = open_root(m, data, size, error);
    if (st != APLAN_OK) return st;
    if (s >= m->subgraphs.len) {
        if (id != NULL) {
            return range_error(m, "id s%ut%u: the model has %u subgraphs", (uint64_t)id->subgraph,
                               (uint64_t)id->tensor, (uint64_t)m->subgraphs.len);
        }
        return range_error(m, "subgraph %u: the model has %u subgraphs", (uint64_t)s, (uint64_t)m->subgraphs.len, 0);
    }
    return get_subgraph(m, s, sg);
}

/* What aplan_tflite_tensor reports about tensor t of sg, which get_tensor checked and described as f (the name, which
 * the query never reads, may be unreadable: get_name). Kept apart from get_tensor, so that the query and the read do not
 * carry it. */
static aplan_status describe_tensor(model *m, const subgraph *sg, uint32_t t, const tensor_fact *f,
                                    aplan_tflite_tensor_info *info) {
    aplan__fb *fb = &m->fb;
    aplan__fb_table tt;
    aplan__fb_vec shape;
    uint8_t type = 0;
    uint8_t is_variable = 0;
    aplan_status st = aplan__fb_vec_table(fb, &sg->tensors, t, "tensor table", &tt);
    if (st == APLAN_OK) st = aplan__fb_get_vector(fb, &tt, TENSOR_SHAPE, 4u, "shape", &shape);
    if (st == APLAN_OK) st = aplan__fb_get_u8(fb, &tt, TENSOR_TYPE, "type", 0, &type);
    if (st == APLAN_OK) st = aplan__fb_get_u32(fb, &tt, TENSOR_BUFFER, "buffer", 0, &info->buffer);
    if (st == APLAN_OK) st = aplan__fb_get_u8(fb, &tt, TENSOR_IS_VARIABLE, "is_variable", 0, &is_variable);
    if (st == APLAN_OK) get_name(fb, &tt, TENSOR_NAME, &info->name, &info->name_error);
    bool quantized = false;
    aplan__fb_table qt;
    if (st == APLAN_OK) st = aplan__fb_get_table(fb, &tt, TENSOR_QUANTIZATION, "quantization", &quantized, &qt);
    if (st == APLAN_OK && quantized) {
        aplan__fb_vec scale, zero_point;
        st = aplan__fb_get_vector(fb, &qt, QUANTIZATION_SCALE, 4u, "quantization.scale", &scale);
        if (st == APLAN_OK) st = aplan__fb_get_vector(fb, &qt, QUANTIZATION_ZERO_POINT, 8u, "quantization.zero_point",
                                                      &zero_point);
        info->quant_scales = scale.len;
        info->quant_zero_points = zero_point.len;
    }
    if (st != APLAN_OK) return st;
    info->type_name = type < TYPE_NAMES ? type_name[type] : NULL;
    info->elements = f->elements;
    info->has_size = type < sizeof type_size && type_size[type] != 0 &&
                     !__builtin_mul_overflow(f->elements, (uint64_t)type_size[type], &info->size);
    if (!info->has_size) info->size = 0;
    info->rank = shape.len;
    for (uint32_t i = 0; i < shape.len && i < APLAN_TFLITE_MAX_RANK; i++) {
        info->shape[i] = aplan__fb_vec_i32(fb, &shape, i);
    }
    info->type = type;
    info->shape_truncated = shape.len > APLAN_TFLITE_MAX_RANK;
    info->constant = f->constant;
    info->is_variable = is_variable != 0;
    return APLAN_OK;
}

/* What the three lookups share first: the argument check (error redirected to local when NULL), info zeroed, the
 * root and subgraph s opened (range-checked; id, when given, names it in the message). End with lookup_done. */
static aplan_status lookup_open(const void *data, size_t size, void *info, size_t info_size, aplan_format_error **error,
                                aplan_format_error *local, model *m, uint32_t s, const aplan_tflite_id *id,
                                subgraph *sg) {
    if (*error == NULL) *error = local;
    if (data == NULL || info == NULL) {
        set_status(*error, APLAN_E_INVALID_ARG, data == NULL ? "model is NULL" : "info is NULL");
        return APLAN_E_INVALID_ARG;
    }
    APLAN_MEMSET(info, 0, info_size);
    return open_subgraph(m, data, size, *error, s, id, sg);
}

/* The lookups' end: info zeroed again on failure (it may be half filled), the error cleared on success. */
static aplan_status lookup_done(aplan_status st, void *info, size_t info_size, aplan_format_error *error) {
    if (st == APLAN_OK) {
        APLAN_MEMSET(error, 0, sizeof *error);
    } else if (info != NULL) {
        APLAN_MEMSET(info, 0, info_size);
    }
    return st;
}

/* The part of aplan_tflite_tensor after subgraph id.subgraph is open as sg. */
static aplan_status tensor_in(model *m, const subgraph *sg, aplan_tflite_id id, aplan_tflite_tensor_info *info) {
    tensor_fact f;
    if (id.tensor >= sg->tensors.len) {
        return range_error(m, "id s%ut%u: the subgraph has %u tensors", (uint64_t)id.subgraph, (uint64_t)id.tensor,
                           (uint64_t)sg->tensors.len);
    }
    aplan_status st = get_tensor(m, sg, id.tensor, 0, &f);
    if (st == APLAN_OK) st = describe_tensor(m, sg, id.tensor, &f, info);
    return st;
}

aplan_status aplan_tflite_tensor(const void *model_data, size_t model_size, aplan_tflite_id id,
                                 aplan_tflite_tensor_info *info, aplan_format_error *error) {
    aplan_format_error local;
    model m;
    subgraph sg;
    aplan_status st = lookup_open(model_data, model_size, info, sizeof *info, &error, &local, &m, id.subgraph, &id,
                                  &sg);
    if (st == APLAN_OK) st = tensor_in(&m, &sg, id, info);
    return lookup_done(st, info, sizeof *info, error);
}

aplan_status aplan__tflite_each_tensor(const void *model_data, size_t model_size, uint32_t s, aplan__tensor_fn each,
                                       void *context, uint64_t *work, aplan_format_error *error) {
    model m;
    subgraph sg;
    aplan_tflite_tensor_info info;
    aplan_status st = lookup_open(model_data, model_size, &info, sizeof info, &error, NULL, &m, s, NULL, &sg);
    const uint64_t opened = m.fb.work;
    *work += opened;
    for (uint32_t t = 0; st == APLAN_OK && t < sg.tensors.len; t++) {
        tensor_fact f;
        m.fb.work = opened; /* the work a look-up of this tensor alone would have done by now */
        APLAN_MEMSET(&info, 0, sizeof info);
        st = get_tensor(&m, &sg, t, 0, &f);
        if (st == APLAN_OK) st = describe_tensor(&m, &sg, t, &f, &info);
        *work += m.fb.work - opened;
        if (st == APLAN_OK && !each(context, t, &info)) break;
    }
    return lookup_done(st, NULL, 0, error);
}

aplan_status aplan__tflite_each_io(const void *model_data, size_t model_size, uint32_t s, bool outputs,
                                   aplan__tensor_fn each, void *context, uint64_t *work, aplan_format_error *error) {
    model m;
    subgraph sg;
    aplan_tflite_tensor_info info;
    aplan_status st = lookup_open(model_data, model_size, &info, sizeof info, &error, NULL, &m, s, NULL, &sg);
    const aplan__fb_vec *list = outputs ? &sg.outputs : &sg.inputs;
    if (st == APLAN_OK) st = check_tensor_indices(&m.fb, list, outputs ? "outputs" : "inputs", sg.tensors.len, false);
    const uint64_t opened = st == APLAN_OK ? m.fb.work : 0;
    *work += opened;
    for (uint32_t k = 0; st == APLAN_OK && k < list->len; k++) {
        m.fb.work = opened; /* as a look-up of this tensor alone */
        APLAN_MEMSET(&info, 0, sizeof info);
        const aplan_tflite_id id = {s, aplan__fb_vec_u32(&m.fb, list, k)};
        st = tensor_in(&m, &sg, id, &info);
        *work += m.fb.work - opened;
        if (st == APLAN_OK && !each(context, k, &info)) break;
    }
    return lookup_done(st, NULL, 0, error);
}

/* The part of aplan_tflite_operator after subgraph s is open as sg. */
static aplan_status operator_in(model *m, const subgraph *sg, uint32_t s, uint32_t op,
                                aplan_tflite_operator_info *info) {
    op_fact f;
    if (op >= sg->operators.len) {
        return range_error(m, "operator %u of subgraph %u: the subgraph has %u operators", (uint64_t)op, (uint64_t)s,
                           (uint64_t)sg->operators.len);
    }
    aplan_status st = get_operator(m, sg, op, &f);
    if (st == APLAN_OK) st = custom_name(m, &f, &info->name);
    if (st == APLAN_OK) {
        if (info->name.data == NULL) info->name = builtin_name(f.code);
        info->builtin_code = f.code;
        info->opcode_index = f.opcode_index;
        info->inputs = indices(m, &f.inputs);
        info->outputs = indices(m, &f.outputs);
        info->calls[0] = f.callee[0];
        info->calls[1] = f.callee[1];
        info->custom = f.code == OP_CUSTOM;
    }
    return st;
}

aplan_status aplan_tflite_operator(const void *model_data, size_t model_size, uint32_t subgraph_index, uint32_t op,
                                   aplan_tflite_operator_info *info, aplan_format_error *error) {
    aplan_format_error local;
    model m;
    subgraph sg;
    aplan_status st = lookup_open(model_data, model_size, info, sizeof *info, &error, &local, &m, subgraph_index,
                                  NULL, &sg);
    if (st == APLAN_OK) st = operator_in(&m, &sg, subgraph_index, op, info);
    return lookup_done(st, info, sizeof *info, error);
}

/* The operator table of op in subgraph s (open as sg), after the checks aplan_tflite_operator makes. */
static aplan_status operator_table(model *m, const subgraph *sg, uint32_t s, uint32_t op, aplan__fb_table *table) {
    op_fact f;
    if (op >= sg->operators.len) {
        return range_error(m, "operator %u of subgraph %u: the subgraph has %u operators", (uint64_t)op, (uint64_t)s,
                           (uint64_t)sg->operators.len);
    }
    aplan_status st = get_operator(m, sg, op, &f);
    if (st == APLAN_OK) st = aplan__fb_vec_table(&m->fb, &sg->operators, op, "operator table", table);
    return st;
}

/* The part of aplan_tflite_options after subgraph s is open as sg. */
static aplan_status options_in(model *m, const subgraph *sg, uint32_t s, uint32_t op,
                               aplan_tflite_options_info *info) {
    aplan__fb_table ot, opt;
    aplan__fb_vec custom, inter;
    uint8_t type = 0;
    aplan_status st = operator_table(m, sg, s, op, &ot);
    if (st == APLAN_OK) st = aplan__fb_get_u8(&m->fb, &ot, OPERATOR_BUILTIN_OPTIONS_TYPE, "builtin_options_type", 0,
                                              &type);
    if (st == APLAN_OK) st = aplan__fb_get_table(&m->fb, &ot, OPERATOR_BUILTIN_OPTIONS, "builtin_options",
                                                 &info->has_table, &opt);
    if (st == APLAN_OK) st = aplan__fb_get_vector(&m->fb, &ot, OPERATOR_CUSTOM_OPTIONS, 1u, "custom_options", &custom);
    if (st == APLAN_OK) st = aplan__fb_get_vector(&m->fb, &ot, OPERATOR_INTERMEDIATES, 4u, "intermediates", &inter);
    if (st == APLAN_OK) st = check_tensor_indices(&m->fb, &inter, "intermediates", sg->tensors.len, true);
    if (st == APLAN_OK) {
        info->type = type;
        info->custom.data = custom.present ? (const char *)m->fb.data + custom.pos : NULL;
        info->custom.size = custom.len;
        info->intermediates = indices(m, &inter);
    }
    return st;
}

aplan_status aplan_tflite_options(const void *model_data, size_t model_size, uint32_t subgraph_index, uint32_t op,
                                  aplan_tflite_options_info *info, aplan_format_error *error) {
    aplan_format_error local;
    model m;
    subgraph sg;
    aplan_status st = lookup_open(model_data, model_size, info, sizeof *info, &error, &local, &m, subgraph_index,
                                  NULL, &sg);
    if (st == APLAN_OK) st = options_in(&m, &sg, subgraph_index, op, info);
    return lookup_done(st, info, sizeof *info, error);
}

/* The part of aplan_tflite_option after subgraph s is open as sg and the arguments are checked: *value is left as
 * it is unless the field is present. */
static aplan_status option_in(model *m, const subgraph *sg, uint32_t s, uint32_t op, unsigned field, unsigned width,
                              bool is_signed, int64_t *value) {
    aplan__fb_table ot, opt;
    bool present = false;
    size_t pos = 0;
    aplan_status st = operator_table(m, sg, s, op, &ot);
    if (st == APLAN_OK) st = aplan__fb_get_table(&m->fb, &ot, OPERATOR_BUILTIN_OPTIONS, "builtin_options", &present,
                                                 &opt);
    if (st == APLAN_OK && present) st = aplan__fb_field(&m->fb, &opt, field, width, "builtin_options field", &pos);
    if (st == APLAN_OK && pos != 0) {
        uint64_t u = width == 1u ? aplan__fb_u8(&m->fb, pos)
                     : width == 2u ? aplan__fb_u16(&m->fb, pos)
                     : width == 4u ? aplan__fb_u32(&m->fb, pos)
                                   : aplan__fb_u64(&m->fb, pos);
        const unsigned bits = 8u * width;
        if (is_signed && bits < 64u && (u >> (bits - 1u)) != 0) u |= ~(uint64_t)0 << bits; /* sign-extend */
        *value = !is_signed || u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1; /* no UB either way */
    }
    return st;
}

aplan_status aplan_tflite_option(const void *model_data, size_t model_size, uint32_t subgraph_index, uint32_t op,
                                 unsigned field, unsigned width, bool is_signed, int64_t def, int64_t *value,
                                 aplan_format_error *error) {
    aplan_format_error local;
    model m;
    subgraph sg;
    if (value == NULL || (width != 1u && width != 2u && width != 4u && width != 8u)) {
        if (error != NULL)
            set_status(error, APLAN_E_INVALID_ARG, value == NULL ? "value is NULL" : "width is not 1, 2, 4 or 8");
        return APLAN_E_INVALID_ARG;
    }
    *value = def;
    aplan_tflite_options_info unused;
    aplan_status st = lookup_open(model_data, model_size, &unused, sizeof unused, &error, &local, &m, subgraph_index,
                                  NULL, &sg);
    if (st == APLAN_OK) st = option_in(&m, &sg, subgraph_index, op, field, width, is_signed, value);
    if (st != APLAN_OK) *value = def;
    return lookup_done(st, NULL, 0, error);
}

/* ---- The cursor: one subgraph opened once for tflm.c's passes over its operators -------------------------------- */

struct aplan__tflite_cursor {
    model m;
    subgraph sg;
    uint32_t s;
    uint64_t opened;     /* fb's work once the subgraph is open: every look-up's budget starts from here, as that of
                            a look-up of its own would */
    aplan_status failed; /* the first failure: later look-ups return it at once, so the error kept is the first */
    uint64_t *spent;     /* the caller's count: every look-up's work is added to it, as is the opening's */
};

/* A cursor look-up's start: info zeroed, the budget reset; false after a failure. */
static bool cursor_begin(aplan__tflite_cursor *c, void *info, size_t info_size) {
    if (info != NULL) APLAN_MEMSET(info, 0, info_size);
    c->m.fb.work = c->opened;
    return c->failed == APLAN_OK;
}

/* A cursor look-up's end: a failure kept, info zeroed again (it may be half filled). */
static aplan_status cursor_end(aplan__tflite_cursor *c, aplan_status st, void *info, size_t info_size) {
    *c->spent += c->m.fb.work - c->opened;
    if (st != APLAN_OK) {
        c->failed = st;
        if (info != NULL) APLAN_MEMSET(info, 0, info_size);
    }
    return st;
}

aplan_status aplan__tflite_cursor_tensor(aplan__tflite_cursor *c, uint32_t t, aplan_tflite_tensor_info *info) {
    if (!cursor_begin(c, info, sizeof *info)) return c->failed;
    const aplan_tflite_id id = {c->s, t};
    return cursor_end(c, tensor_in(&c->m, &c->sg, id, info), info, sizeof *info);
}

aplan_status aplan__tflite_cursor_options(aplan__tflite_cursor *c, uint32_t op, aplan_tflite_options_info *info) {
    if (!cursor_begin(c, info, sizeof *info)) return c->failed;
    return cursor_end(c, options_in(&c->m, &c->sg, c->s, op, info), info, sizeof *info);
}

aplan_status aplan__tflite_cursor_option(aplan__tflite_cursor *c, uint32_t op, unsigned field, unsigned width,
                                         bool is_signed, int64_t def, int64_t *value) {
    *value = def;
    if (!cursor_begin(c, NULL, 0)) return c->failed;
    const aplan_status st = option_in(&c->m, &c->sg, c->s, op, field, width, is_signed, value);
    if (st != APLAN_OK) *value = def;
    return cursor_end(c, st, NULL, 0);
}

size_t aplan__tflite_cursor_position(const aplan__tflite_cursor *c, uint32_t op) {
    return op < c->sg.operators.len ? c->sg.operators.pos + 4u * (size_t)op : 0u;
}

aplan_status aplan__tflite_each_operator(const void *model_data, size_t model_size, uint32_t s,
                                         aplan__operator_fn each, void *context, uint64_t *work,
                                         aplan_format_error *error) {
    aplan_format_error local;
    aplan__tflite_cursor c;
    aplan_tflite_operator_info info;
    aplan_status st = lookup_open(model_data, model_size, &info, sizeof info, &error, &local, &c.m, s, NULL, &c.sg);
    c.s = s;
    c.opened = st == APLAN_OK ? c.m.fb.work : 0;
    c.failed = st;
    c.spent = work;
    *work += c.opened;
    for (uint32_t op = 0; st == APLAN_OK && op < c.sg.operators.len; op++) {
        if (cursor_begin(&c, &info, sizeof info))
            st = cursor_end(&c, operator_in(&c.m, &c.sg, s, op, &info), &info, sizeof info);
        if (st != APLAN_OK) break;
        const bool more = each(context, &c, op, &info);
        st = c.failed; /* a failure of the look-ups each made */
        if (!more) break;
    }
    return lookup_done(st, NULL, 0, error);
}

aplan_status aplan_tflite_subgraph(const void *model_data, size_t model_size, uint32_t subgraph_index,
                                   aplan_tflite_subgraph_info *info, aplan_format_error *error) {
    aplan_format_error local;
    model m;
    subgraph sg;
    aplan__fb_table t;
    aplan_status st = lookup_open(model_data, model_size, info, sizeof *info, &error, &local, &m, subgraph_index,
                                  NULL, &sg);
    if (st == APLAN_OK) st = check_tensor_indices(&m.fb, &sg.inputs, "inputs", sg.tensors.len, false);
    if (st == APLAN_OK) st = check_tensor_indices(&m.fb, &sg.outputs, "outputs", sg.tensors.len, false);
    if (st == APLAN_OK) st = aplan__fb_vec_table(&m.fb, &m.subgraphs, subgraph_index, "subgraph table", &t);
    if (st == APLAN_OK) get_name(&m.fb, &t, SUBGRAPH_NAME, &info->name, &info->name_error);
    if (st == APLAN_OK) {
        info->tensor_count = sg.tensors.len;
        info->operator_count = sg.operators.len;
        info->inputs = indices(&m, &sg.inputs);
        info->outputs = indices(&m, &sg.outputs);
    }
    return lookup_done(st, info, sizeof *info, error);
}

aplan_status aplan_tflite_steps(const void *model_data, size_t model_size, void *scratch, size_t scratch_size,
                                aplan_tflite_step *steps, size_t capacity, size_t *count, aplan_format_error *error) {
    aplan_format_error local;
    model m;
    aplan_tflite_info info;
    aplan_status st = open_walk(&m, model_data, model_size, scratch, scratch_size, steps, capacity, "steps is NULL",
                                count, &info, &error, &local);
    if (st != APLAN_OK) return st;
    walk w;
    w.naming = true;
    w.steps = steps;
    w.capacity = steps != NULL ? capacity : 0;
    const aplan_tflite_text none = {NULL, 0};
    put_step(&w, 0, APLAN_TFLITE_STEP_START, APLAN_TFLITE_NONE, APLAN_TFLITE_NONE, APLAN_TFLITE_NONE, 0, -1, none);
    put_step(&w, 1, APLAN_TFLITE_STEP_ENTRY, APLAN_TFLITE_NONE, APLAN_TFLITE_NONE, 0, 0, -1, none);
    st = walk_model(&m, &w, scratch, scratch_size);
    if (st != APLAN_OK) return st;
    *count = (size_t)w.scope + 2u; /* steps 0 .. scope + 1: the last scope's step is scope + 1 */
    for (size_t k = 2; k < w.capacity && k < *count; k++) { /* the builtin names record() left out */
        if (steps[k].name.data == NULL) steps[k].name = builtin_name(steps[k].builtin_code);
    }
    if (steps != NULL && capacity < *count) {
        return aplan__fb_fail(&m.fb, APLAN_E_OUTPUT_TOO_SMALL, 0, "the walk has %u steps, the output holds %u",
                              (uint64_t)*count, (uint64_t)capacity);
    }
    APLAN_MEMSET(error, 0, sizeof *error);
    return APLAN_OK;
}

/* Scratch of aplan_tflite_uses: per subgraph its first global tensor, per global tensor the buffer it is (its index
 * + 1, 0 for none) and the last operator that counted it. */
static aplan_status uses_layout(const void *model_data, size_t model_size, aplan_tflite_info *info, size_t *bytes,
                                aplan_format_error *error) {
    aplan_status st = aplan_tflite_query(model_data, model_size, info, error);
    if (st != APLAN_OK) return st;
    const size_t subgraphs = info->subgraph_count + 1u, tensors = info->tensor_count;
    if (tensors > (SIZE_MAX - 4u * subgraphs) / 8u) return APLAN_E_SIZE_OVERFLOW;
    *bytes = 4u * subgraphs + 8u * tensors;
    return APLAN_OK;
}

aplan_status aplan_tflite_uses_scratch_size(const void *model_data, size_t model_size, size_t *bytes,
                                            aplan_format_error *error) {
    aplan_tflite_info info;
    if (bytes == NULL) return APLAN_E_INVALID_ARG;
    return uses_layout(model_data, model_size, &info, bytes, error);
}

aplan_status aplan_tflite_uses(const void *model_data, size_t model_size, void *scratch, size_t scratch_size,
                               const aplan_tflite_id *ids, size_t count, uint64_t *uses, aplan_format_error *error) {
    aplan_format_error local;
    if (error == NULL) error = &local;
    APLAN_MEMSET(error, 0, sizeof *error);
    if (model_data == NULL || (count > 0 && (ids == NULL || uses == NULL))) return APLAN_E_INVALID_ARG;
    aplan_tflite_info info;
    size_t need;
    aplan_status st = uses_layout(model_data, model_size, &info, &need, error);
    if (st != APLAN_OK) return st;
    if ((st = aplan__scratch_check(scratch, scratch_size, need)) != APLAN_OK) return st;
    uint32_t *base = scratch, *slot = base + info.subgraph_count + 1u, *seen = slot + info.tensor_count;
    uint32_t at = 0;
    for (uint32_t s = 0; s < info.subgraph_count; s++) {
        aplan_tflite_subgraph_info sg;
        if ((st = aplan_tflite_subgraph(model_data, model_size, s, &sg, error)) != APLAN_OK) return st;
        base[s] = at;
        at += sg.tensor_count; /* the query counted them: within info.tensor_count */
    }
    base[info.subgraph_count] = at;
    for (size_t g = 0; g < info.tensor_count; g++) slot[g] = seen[g] = 0;
    for (size_t k = 0; k < count; k++) {
        const aplan_tflite_id id = ids[k];
        if (id.subgraph >= info.subgraph_count || id.tensor >= base[id.subgraph + 1u] - base[id.subgraph] ||
            k >= UINT32_MAX)
            return APLAN_E_INVALID_ARG;
        slot[base[id.subgraph] + id.tensor] = (uint32_t)k + 1u;
        uses[k] = 0;
    }
    /* Tensor references can be shared vectors: the work is held to the reader's budget, as its walk is. */
    const uint64_t budget = (uint64_t)APLAN_TFLITE_WORK_PER_BYTE * model_size + APLAN_TFLITE_WORK_BASE;
    uint64_t work = 0;
    uint32_t stamp = 0;
    for (uint32_t s = 0; s < info.subgraph_count; s++) {
        const uint32_t tensors = base[s + 1u] - base[s];
        for (uint32_t o = 0, n = 0;; o++) {
            aplan_tflite_operator_info op;
            if (o == 0) {
                aplan_tflite_subgraph_info sg;
                if ((st = aplan_tflite_subgraph(model_data, model_size, s, &sg, error)) != APLAN_OK) return st;
                n = sg.operator_count;
            }
            if (o >= n) break;
            if ((st = aplan_tflite_operator(model_data, model_size, s, o, &op, error)) != APLAN_OK) return st;
            stamp++;
            work += 1u + op.inputs.count + op.outputs.count;
            if (work > budget) {
                error->status = APLAN_E_FORMAT_UNSUPPORTED;
                aplan__text w = {error->message, sizeof error->message, 0};
                aplan__putf(&w, "operators name more tensors than %u, the work budget of a %u-byte model", budget,
                            (uint64_t)model_size);
                return APLAN_E_FORMAT_UNSUPPORTED;
            }
            for (unsigned side = 0; side < 2u; side++) {
                const aplan_tflite_indices v = side == 0 ? op.inputs : op.outputs;
                for (uint32_t j = 0; j < v.count; j++) {
                    const int32_t t = aplan_tflite_index_at(v, j);
                    if (t < 0 || (uint32_t)t >= tensors) continue; /* absent (-1); the reader checked the rest */
                    const uint32_t g = base[s] + (uint32_t)t;
                    if (slot[g] == 0 || seen[g] == stamp) continue;
                    seen[g] = stamp;
                    uses[slot[g] - 1u]++;
                }
            }
        }
    }
    return APLAN_OK;
}
