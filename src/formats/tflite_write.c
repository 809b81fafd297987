/*
 * Writing a plan into a .tflite model: aplan_tflite_embed. <aplan/tflite.h> gives the contract and the layout of
 * the output (a new front block, then the input unchanged but for absolute file offsets).
 *
 * Schema facts (tensorflow/lite/schema/schema.fbs, version 3d) used here: Model's fields are version (id 0, uint)
 * and nine vectors: operator_codes 1, subgraphs 2, description 3 (a string), buffers 4, metadata_buffer 5 ([int],
 * indices into buffers), metadata 6, signature_defs 7, external_buffer_groups 8, external_buffers 9. Buffer is data
 * (0, [ubyte], force_align 16), offset (1, ulong), size (2, ulong); Metadata is name (0) and buffer (1, uint);
 * Tensor.buffer is field 2; SubGraph.tensors 0 and operators 3; Operator.large_custom_options_offset is field 9
 * (ulong). Buffer.offset and large_custom_options_offset are "relative to the beginning of the file and only valid
 * if > 1".
 *
 * TFLM (micro_allocation_info.cc) reads the plan from the metadata named "OfflineMemoryAllocation": word 2 is the
 * tensor count it compares with the model's, word 3 on are the offsets, indexed by tensor over all subgraphs in
 * order; a tensor whose offset is not -1 is placed there (a variable included). It reads the words through a
 * uint32_t pointer, so they must be aligned in memory: the data vector is 16-aligned in the output.
 *
 * How: the model is checked by aplan_tflite_query (so embed accepts what the reader accepts), then parsed again
 * here for what the reader does not look at (Model fields it ignores, unused Buffer tables, absolute offsets). One
 * layout function places the front block for both the size query and the write. No scratch: ids are sorted, so
 * global tensor indices come from a cursor over the subgraphs, and "is the old plan's buffer used elsewhere?" is one
 * scan of the tensors. Every walk is a loop; nothing recurses.
 */
#include <stdarg.h>

#include "aplan/tflite.h"

#include "formats/flatbuf.h"

enum {
    MODEL_VERSION = 0,
    MODEL_OPERATOR_CODES = 1,
    MODEL_SUBGRAPHS = 2,
    MODEL_DESCRIPTION = 3,
    MODEL_BUFFERS = 4,
    MODEL_METADATA_BUFFER = 5,
    MODEL_METADATA = 6,
    MODEL_FIELDS = 10, /* ids 0..9: external_buffers (9) is the last this writer knows */
    SUBGRAPH_TENSORS = 0,
    SUBGRAPH_OPERATORS = 3,
    TENSOR_BUFFER = 2,
    OPERATOR_LARGE_CUSTOM_OPTIONS_OFFSET = 9,
    BUFFER_DATA = 0,
    BUFFER_OFFSET = 1,
    METADATA_NAME = 0,
    METADATA_BUFFER = 1
};

static const char *const model_field[MODEL_FIELDS] = {
    "Model.version",  "Model.operator_codes",  "Model.subgraphs",     "Model.description",
    "Model.buffers",  "Model.metadata_buffer", "Model.metadata",      "Model.signature_defs",
    "Model.external_buffer_groups", "Model.external_buffers"};

static const char offline_name[] = APLAN_TFLITE_OFFLINE_METADATA;
#define OFFLINE_NAME_LEN (sizeof offline_name - 1u)

/* FlatBuffers' verifier takes offsets as signed 32-bit values: every offset the writer makes stays below 2^31. */
#define OFFSET_LIMIT ((uint64_t)INT32_MAX)

/* Where the front block's parts go, in bytes from the start of the output. 0: not written. */
typedef struct layout {
    uint64_t model_vtable, model_table; /* the new Model */
    uint64_t buffers, metadata;         /* the new vectors (length words) */
    uint64_t meta_vtable, meta_table;   /* the new Metadata table, unless the old one is kept */
    uint64_t name;                      /* its name string (length word) */
    uint64_t buf_vtable, buf_table;     /* the new Buffer table */
    uint64_t data;                      /* its data vector (length word; the words follow 16-aligned) */
    uint64_t shift;                     /* the front block's size: where the input starts */
} layout;

typedef struct embed {
    aplan__fb fb;
    aplan__fb_table root;
    uint32_t version;
    bool present[MODEL_FIELDS]; /* the input Model has the field */
    size_t target[MODEL_FIELDS]; /* vector fields: the input position of the vector's length word */
    aplan__fb_vec subgraphs, buffers, metadata, metadata_buffer;
    uint64_t tensor_count;
    uint64_t max_target;         /* highest input position an offset of the front block points at */
    uint32_t offline_entries;    /* metadata entries named OfflineMemoryAllocation */
    uint32_t plan_buffer;        /* the buffer that will hold the plan */
    bool in_place;               /* re-point buffers[plan_buffer] (the old plan's); else append a buffer */
    bool again;                  /* the input is an output of aplan_tflite_embed: its front block is replaced */
    layout at;
    uint32_t *moved_at;          /* the dry run's file offsets that move: their positions (NULL: not collected), */
    uint32_t *moved_owner;       /* the table each lies in (OWNER), */
    size_t moved, moved_cap;     /* their count and room (a slot reached twice is listed twice) */
} embed;

/* ------------------------------------------------------------------------------------------------------------ */

/* A caller mistake in words; byte_offset 0. Returns status. */
static aplan_status arg_error(aplan_format_error *error, aplan_status status, const char *format, ...) {
    APLAN_MEMSET(error, 0, sizeof *error);
    error->status = status;
    aplan__text w = {error->message, sizeof error->message, 0};
    va_list args;
    va_start(args, format);
    aplan__vputf(&w, format, args);
    va_end(args);
    return status;
}

static void put16(uint8_t *out, uint64_t pos, uint16_t v) {
    out[pos] = (uint8_t)v;
    out[pos + 1u] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *out, uint64_t pos, uint32_t v) {
    for (unsigned i = 0; i < 4u; i++) out[pos + i] = (uint8_t)(v >> (8u * i));
}

static void put64(uint8_t *out, uint64_t pos, uint64_t v) {
    put32(out, pos, (uint32_t)v);
    put32(out, pos + 4u, (uint32_t)(v >> 32));
}

/* The uoffset at slot, pointing forward to target; layout_front checked that the distance is below 2^31. */
static void put_uoffset(uint8_t *out, uint64_t slot, uint64_t target) {
    APLAN_ASSERT(target > slot && target - slot <= OFFSET_LIMIT);
    put32(out, slot, (uint32_t)(target - slot));
}

static uint64_t align_to(uint64_t v, uint64_t a) { return (v + a - 1u) & ~(a - 1u); }

/* memcmp without libc (the device side calls only memset and memcpy). */
static bool same_bytes(const uint8_t *a, const uint8_t *b, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (a[i] != b[i]) return false;
    }
    return true;
}

/* The input position of entry i's target in a vector of uoffsets (the fb reader checked it before). */
static uint64_t entry_target(const embed *e, const aplan__fb_vec *v, uint32_t i) {
    size_t slot = v->pos + 4u * (size_t)i;
    return (uint64_t)slot + aplan__fb_u32(&e->fb, slot);
}

static void note_target(embed *e, uint64_t pos) {
    if (pos > e->max_target) e->max_target = pos;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Parsing                                                                                                       */

/* The root Model: no field this writer does not know, and every vector field well-formed (the reader ignores
 * some of them, but the output points at them). */
static aplan_status read_model(embed *e) {
    aplan__fb *fb = &e->fb;
    aplan_status st = aplan__fb_root(fb, "TFL3", &e->root);
    if (st != APLAN_OK) return st;
    unsigned declared = (e->root.vtable_size - 4u) / 2u;
    for (unsigned id = MODEL_FIELDS; id < declared; id++) {
        size_t slot = e->root.vtable + 4u + 2u * (size_t)id;
        if (aplan__fb_u16(fb, slot) != 0) {
            return aplan__fb_fail(fb, APLAN_E_FORMAT_UNSUPPORTED, slot,
                                  "Model field %u is newer than this writer: it cannot tell an offset from a scalar",
                                  (uint64_t)id);
        }
    }
    for (unsigned id = 0; id < MODEL_FIELDS; id++) {
        size_t pos;
        st = aplan__fb_field(fb, &e->root, id, 4u, model_field[id], &pos);
        if (st != APLAN_OK) return st;
        e->present[id] = pos != 0;
        if (pos == 0) continue;
        if (id == MODEL_VERSION) {
            e->version = aplan__fb_u32(fb, pos);
            continue;
        }
        aplan__fb_vec v;
        st = id == MODEL_DESCRIPTION ? aplan__fb_get_string(fb, &e->root, id, model_field[id], &v)
                                     : aplan__fb_get_vector(fb, &e->root, id, 4u, model_field[id], &v);
        if (st != APLAN_OK) return st;
        e->target[id] = v.pos - 4u;
        note_target(e, e->target[id]);
        if (id == MODEL_SUBGRAPHS) e->subgraphs = v;
        if (id == MODEL_BUFFERS) e->buffers = v;
        if (id == MODEL_METADATA) e->metadata = v;
        if (id == MODEL_METADATA_BUFFER) e->metadata_buffer = v;
    }
    if (e->buffers.len == 0) {
        return aplan__fb_fail(fb, APLAN_E_FORMAT_UNSUPPORTED, e->root.pos,
                              "Model.buffers: %s; the plan's buffer cannot follow buffer 0",
                              e->present[MODEL_BUFFERS] ? "the vector is empty" : "the model has none");
    }
    for (uint32_t i = 0; i < e->buffers.len; i++) {
        aplan__fb_table bt;
        aplan__fb_context(fb, 0, "buffer", i);
        st = aplan__fb_vec_table(fb, &e->buffers, i, "buffer table", &bt);
        if (st != APLAN_OK) return st;
        note_target(e, bt.pos);
    }
    aplan__fb_context_pop(fb, 0);
    return APLAN_OK;
}

/* SubGraph s's tensor and operator vectors (the query checked them). */
static aplan_status get_subgraph(embed *e, uint32_t s, aplan__fb_vec *tensors, aplan__fb_vec *operators) {
    aplan__fb_table t;
    aplan__fb_context(&e->fb, 0, "subgraph", s);
    aplan_status st = aplan__fb_vec_table(&e->fb, &e->subgraphs, s, "subgraph table", &t);
    if (st == APLAN_OK) st = aplan__fb_get_vector(&e->fb, &t, SUBGRAPH_TENSORS, 4u, "tensors", tensors);
    if (st == APLAN_OK) st = aplan__fb_get_vector(&e->fb, &t, SUBGRAPH_OPERATORS, 4u, "operators", operators);
    return st;
}

/* Metadata entry i: its table, whether it is an offline plan, and the buffer it names. */
static aplan_status get_metadata(embed *e, uint32_t i, aplan__fb_table *mt, bool *offline, uint32_t *buffer) {
    aplan__fb *fb = &e->fb;
    aplan__fb_vec name;
    aplan__fb_context(fb, 0, "metadata", i);
    aplan_status st = aplan__fb_vec_table(fb, &e->metadata, i, "metadata table", mt);
    if (st == APLAN_OK) st = aplan__fb_get_string(fb, mt, METADATA_NAME, "name", &name);
    if (st == APLAN_OK) st = aplan__fb_get_u32(fb, mt, METADATA_BUFFER, "buffer", 0, buffer);
    if (st != APLAN_OK) return st;
    bool match = name.len == OFFLINE_NAME_LEN;
    for (size_t k = 0; match && k < OFFLINE_NAME_LEN; k++) {
        match = aplan__fb_u8(fb, name.pos + k) == (uint8_t)offline_name[k];
    }
    *offline = match;
    return APLAN_OK;
}

/* Whether Model.metadata_buffer or a metadata entry other than an offline plan's names buffer b: *named, and then
 * *at, the byte of the first such reference, *entry its index and *listed whether it is in metadata_buffer (else the
 * fb context names the metadata entry). O(metadata). */
static aplan_status metadata_names(embed *e, uint32_t b, bool *named, size_t *at, uint32_t *entry, bool *listed) {
    aplan__fb *fb = &e->fb;
    *named = false;
    for (uint32_t i = 0; i < e->metadata_buffer.len; i++) {
        if (aplan__fb_vec_u32(fb, &e->metadata_buffer, i) == b) {
            *named = *listed = true;
            *at = e->metadata_buffer.pos + 4u * (size_t)i;
            *entry = i;
            return APLAN_OK;
        }
    }
    for (uint32_t i = 0; i < e->metadata.len; i++) {
        aplan__fb_table mt;
        bool offline = false;
        uint32_t buffer = 0;
        aplan_status st = get_metadata(e, i, &mt, &offline, &buffer);
        if (st != APLAN_OK) return st;
        if (!offline && buffer == b) {
            *named = true;
            *listed = false;
            *at = 0; /* the field is absent when b is 0, its default */
            (void)aplan__fb_field(fb, &mt, METADATA_BUFFER, 4u, "buffer", at);
            *entry = i;
            return APLAN_OK;
        }
    }
    aplan__fb_context_pop(fb, 0);
    return APLAN_OK;
}

/* Is buffer b used by anything but the offline plan entries: a tensor, another metadata entry, metadata_buffer? */
static aplan_status buffer_shared(embed *e, uint32_t b, bool *shared) {
    aplan__fb *fb = &e->fb;
    size_t at;
    uint32_t entry;
    bool listed;
    aplan_status st = metadata_names(e, b, shared, &at, &entry, &listed);
    if (st != APLAN_OK) return st;
    for (uint32_t s = 0; !*shared && s < e->subgraphs.len; s++) {
        aplan__fb_vec tensors, operators;
        st = get_subgraph(e, s, &tensors, &operators);
        for (uint32_t t = 0; st == APLAN_OK && !*shared && t < tensors.len; t++) {
            aplan__fb_table tt;
            uint32_t buffer = 0;
            aplan__fb_context(fb, 1, "tensor", t);
            st = aplan__fb_vec_table(fb, &tensors, t, "tensor table", &tt);
            if (st == APLAN_OK) st = aplan__fb_get_u32(fb, &tt, TENSOR_BUFFER, "buffer", 0, &buffer);
            *shared = buffer == b;
        }
        if (st != APLAN_OK) return st;
    }
    aplan__fb_context_pop(fb, 0);
    return APLAN_OK;
}

/* An appended plan buffer takes index buffers.len: a metadata entry or Model.metadata_buffer naming that index
 * (a buffer the input does not have; neither TFLM nor the reader checks them) would start naming the plan, and an
 * output read again would take the plan's buffer as shared. Refused, naming the entry. O(metadata). */
static aplan_status check_new_index(embed *e) {
    const uint32_t b = e->buffers.len;
    bool named = false, listed = false;
    size_t at = 0;
    uint32_t entry = 0;
    aplan_status st = metadata_names(e, b, &named, &at, &entry, &listed);
    if (st != APLAN_OK || !named) return st;
    if (listed) {
        return aplan__fb_fail(&e->fb, APLAN_E_FORMAT_BAD_VALUE, at,
                              "Model.metadata_buffer[%u] is %u, a buffer the model does not have: the plan's new "
                              "buffer would take that index",
                              (uint64_t)entry, (uint64_t)b);
    }
    return aplan__fb_fail(&e->fb, APLAN_E_FORMAT_BAD_VALUE, at,
                          "buffer is %u, a buffer the model does not have: the plan's new buffer would take that "
                          "index",
                          (uint64_t)b);
}

/* Count the tensors; find the offline plan entries and decide where the new plan goes. */
static aplan_status find_plan(embed *e) {
    aplan__fb *fb = &e->fb;
    e->tensor_count = 0;
    for (uint32_t s = 0; s < e->subgraphs.len; s++) {
        aplan__fb_vec tensors, operators;
        aplan_status st = get_subgraph(e, s, &tensors, &operators);
        if (st != APLAN_OK) return st;
        e->tensor_count += tensors.len;
    }
    bool same = true;
    uint32_t first = 0;
    e->offline_entries = 0;
    for (uint32_t i = 0; i < e->metadata.len; i++) {
        aplan__fb_table mt;
        bool offline = false;
        uint32_t buffer = 0;
        aplan_status st = get_metadata(e, i, &mt, &offline, &buffer);
        if (st != APLAN_OK) return st;
        note_target(e, mt.pos);
        if (!offline) continue;
        if (e->offline_entries == 0) first = buffer;
        same = same && buffer == first;
        e->offline_entries++;
    }
    aplan__fb_context_pop(fb, 0);
    /* Re-point the old plan's buffer only when nothing else reads it: a tensor reading it would get the plan as
     * its constant data. The reader checked that every entry's buffer exists. */
    bool shared = true;
    if (e->offline_entries > 0 && same) {
        aplan_status st = buffer_shared(e, first, &shared);
        if (st != APLAN_OK) return st;
    }
    e->in_place = !shared;
    e->plan_buffer = e->in_place ? first : e->buffers.len;
    return e->in_place ? APLAN_OK : check_new_index(e);
}

/* ------------------------------------------------------------------------------------------------------------ */
/* The plan words and the absolute offsets                                                                       */

/* Check ids and offsets against the model; with words (the first offset word in the output) write each offset.
 * ids ascend, so one cursor over the subgraphs turns (subgraph, tensor) into the index over all subgraphs. */
static aplan_status place_offsets(embed *e, const aplan_tflite_id *ids, const uint64_t *offsets, size_t count,
                                  uint8_t *words) {
    aplan_format_error *error = e->fb.error;
    uint32_t sg = 0;
    uint64_t base = 0;
    aplan__fb_vec tensors, operators;
    aplan_status st = get_subgraph(e, 0, &tensors, &operators);
    aplan__fb_context_pop(&e->fb, 0);
    for (size_t i = 0; st == APLAN_OK && i < count; i++) {
        const aplan_tflite_id id = ids[i];
        if (i > 0 && (id.subgraph < ids[i - 1u].subgraph ||
                      (id.subgraph == ids[i - 1u].subgraph && id.tensor <= ids[i - 1u].tensor))) {
            return arg_error(error, APLAN_E_INVALID_ARG,
                             "ids[%u] is s%ut%u, not after ids[%u] s%ut%u (the reader's order)", (uint64_t)i,
                             (uint64_t)id.subgraph, (uint64_t)id.tensor, (uint64_t)(i - 1u),
                             (uint64_t)ids[i - 1u].subgraph, (uint64_t)ids[i - 1u].tensor);
        }
        if (id.subgraph >= e->subgraphs.len) {
            return arg_error(error, APLAN_E_INVALID_ARG, "ids[%u] is s%ut%u: the model has %u subgraphs", (uint64_t)i,
                             (uint64_t)id.subgraph, (uint64_t)id.tensor, (uint64_t)e->subgraphs.len);
        }
        while (st == APLAN_OK && sg < id.subgraph) {
            base += tensors.len;
            st = get_subgraph(e, ++sg, &tensors, &operators);
            aplan__fb_context_pop(&e->fb, 0);
        }
        if (st != APLAN_OK) break;
        if (id.tensor >= tensors.len) {
            return arg_error(error, APLAN_E_INVALID_ARG, "ids[%u] is s%ut%u: subgraph %u has %u tensors", (uint64_t)i,
                             (uint64_t)id.subgraph, (uint64_t)id.tensor, (uint64_t)id.subgraph,
                             (uint64_t)tensors.len);
        }
        if (offsets[i] == APLAN_NO_OFFSET) {
            return arg_error(error, APLAN_E_INVALID_ARG, "offsets[%u] (s%ut%u) is APLAN_NO_OFFSET: unplaced",
                             (uint64_t)i, (uint64_t)id.subgraph, (uint64_t)id.tensor);
        }
        if (offsets[i] > (uint64_t)INT32_MAX) {
            return arg_error(error, APLAN_E_CAPACITY_EXCEEDED,
                             "offsets[%u] (s%ut%u) is %u, above TFLM's int32 limit %u", (uint64_t)i,
                             (uint64_t)id.subgraph, (uint64_t)id.tensor, offsets[i], (uint64_t)INT32_MAX);
        }
        if (words != NULL) put32(words, 4u * (base + id.tensor), (uint32_t)offsets[i]);
    }
    return st;
}

/* Who holds a file offset that moves: its table's position and kind, in one word (positions are below 2^31). */
enum { OWNER_BUFFER = 0, OWNER_OPERATOR = 1 };
#define OWNER(pos, kind) ((size_t)(pos) * 2u + (kind))

/* One absolute file offset (a u64 field at input position pos of the table owner names, `what` naming it): check that
 * it still fits once the input moves by shift, and with out write the moved value; without out, note it for the
 * overlap check when e->moved_at is set. Read from the input, so a table reached twice is written the same way
 * twice. */
static aplan_status move_file_offset(embed *e, size_t pos, size_t owner, const char *what, uint8_t *out) {
    if (pos == 0) return APLAN_OK;
    uint64_t v = aplan__fb_u64(&e->fb, pos);
    if (v <= 1u) return APLAN_OK; /* 0: none; 1: a placeholder (the schema: "only valid if > 1") */
    uint64_t moved;
    if (!aplan__add(v, e->at.shift, &moved)) {
        return aplan__fb_fail(&e->fb, APLAN_E_FORMAT_BAD_VALUE, pos,
                              "%s %u plus the %u-byte front block passes 2^64 - 1", what, v, e->at.shift);
    }
    if (out != NULL) put64(out, e->at.shift + pos, moved);
    if (out == NULL && e->moved_at != NULL) {
        APLAN_ASSERT(e->moved < e->moved_cap);
        e->moved_at[e->moved] = (uint32_t)pos;
        e->moved_owner[e->moved++] = (uint32_t)owner;
    }
    return APLAN_OK;
}

/* Every Buffer.offset of a reached Buffer table (mark_reached) and every Operator.large_custom_options_offset, as
 * move_file_offset. */
static aplan_status move_file_offsets(embed *e, const uint8_t *reached, uint8_t *out) {
    aplan__fb *fb = &e->fb;
    aplan_status st = APLAN_OK;
    for (uint32_t i = 0; st == APLAN_OK && i < e->buffers.len; i++) {
        aplan__fb_table bt;
        size_t pos = 0;
        if ((reached[i / 8u] & (1u << (i % 8u))) == 0) continue;
        aplan__fb_context(fb, 0, "buffer", i);
        st = aplan__fb_vec_table(fb, &e->buffers, i, "buffer table", &bt);
        if (st == APLAN_OK) st = aplan__fb_field(fb, &bt, BUFFER_OFFSET, 8u, "offset", &pos);
        if (st == APLAN_OK) st = move_file_offset(e, pos, OWNER(bt.pos, OWNER_BUFFER), "offset", out);
    }
    for (uint32_t s = 0; st == APLAN_OK && s < e->subgraphs.len; s++) {
        aplan__fb_vec tensors, operators;
        st = get_subgraph(e, s, &tensors, &operators);
        for (uint32_t k = 0; st == APLAN_OK && k < operators.len; k++) {
            aplan__fb_table ot;
            size_t pos = 0;
            aplan__fb_context(fb, 1, "operator", k);
            st = aplan__fb_vec_table(fb, &operators, k, "operator table", &ot);
            if (st == APLAN_OK) {
                st = aplan__fb_field(fb, &ot, OPERATOR_LARGE_CUSTOM_OPTIONS_OFFSET, 8u, "large_custom_options_offset",
                                     &pos);
            }
            if (st == APLAN_OK) {
                st = move_file_offset(e, pos, OWNER(ot.pos, OWNER_OPERATOR), "large_custom_options_offset", out);
            }
        }
    }
    aplan__fb_context_pop(fb, 0);
    return st;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Tables that overlap a file offset that moves                                                                  */
/*
 * A standard builder never lets two tables share bytes; a hostile file can make a Buffer (or an Operator) table
 * overlap another table or vector, and then moving its file offset in the copy rewrites that other part too (an
 * operator's inputs, a tensor's type, a convolution's stride). Before writing, every part the reader knows (the
 * Model table and its vectors, operator codes, buffers and their data, metadata, subgraphs, tensors with their
 * shapes, names and quantization, operators with their index vectors and options) is checked against the offsets
 * that move, sorted: one binary search per part reached, within the query's work budget. Nothing moves in the
 * models of 2 GB or less that keep no data beside the flatbuffer, so for them this costs nothing.
 */

enum {
    OPCODE_CUSTOM_CODE = 1,
    SUBGRAPH_INPUTS = 1, SUBGRAPH_OUTPUTS = 2, SUBGRAPH_NAME = 4,
    TENSOR_SHAPE = 0, TENSOR_NAME = 3, TENSOR_QUANTIZATION = 4,
    QUANT_MIN = 0, QUANT_MAX = 1, QUANT_SCALE = 2, QUANT_ZERO_POINT = 3,
    OPERATOR_INPUTS = 1, OPERATOR_OUTPUTS = 2, OPERATOR_BUILTIN_OPTIONS = 4, OPERATOR_CUSTOM_OPTIONS = 5,
    OPERATOR_INTERMEDIATES = 8
};

/* Heap sort of the moved offsets by position, their owners alongside: O(M log M), no room. */
static void sift_down(uint32_t *at, uint32_t *owner, size_t root, size_t n) {
    for (size_t child; (child = 2u * root + 1u) < n; root = child) {
        if (child + 1u < n && at[child + 1u] > at[child]) child++;
        if (at[root] >= at[child]) return;
        uint32_t t = at[root];
        at[root] = at[child], at[child] = t;
        t = owner[root];
        owner[root] = owner[child], owner[child] = t;
    }
}

/* Sort and drop repeats (a table reached twice); two tables claiming one offset field overlap. */
static aplan_status sort_moved(embed *e) {
    uint32_t *at = e->moved_at, *owner = e->moved_owner;
    size_t n = e->moved;
    for (size_t i = n / 2u; i-- > 0;) sift_down(at, owner, i, n);
    for (size_t end = n; end-- > 1u;) {
        uint32_t t = at[0];
        at[0] = at[end], at[end] = t;
        t = owner[0];
        owner[0] = owner[end], owner[end] = t;
        sift_down(at, owner, 0, end);
    }
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (kept > 0 && at[i] == at[kept - 1u]) {
            if (owner[i] != owner[kept - 1u]) {
                return aplan__fb_fail(&e->fb, APLAN_E_FORMAT_BAD_OFFSET, at[i],
                                      "the tables at bytes %u and %u share the file offset at byte %u: tables "
                                      "overlap",
                                      (uint64_t)(owner[kept - 1u] / 2u), (uint64_t)(owner[i] / 2u), (uint64_t)at[i]);
            }
            continue;
        }
        at[kept] = at[i], owner[kept] = owner[i];
        kept++;
    }
    e->moved = kept;
    return APLAN_OK;
}

/* Fail when a moved offset other than those of self (an OWNER; SIZE_MAX: none) shares a byte with [start, end), the
 * part `kind` names. O(log M): past the first slot at or after start, only self's own (one) is skipped. */
static aplan_status guard(embed *e, size_t start, size_t end, size_t self, const char *kind) {
    const uint32_t *at = e->moved_at;
    size_t lo = 0, hi = e->moved;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2u;
        if ((size_t)at[mid] + 8u <= start) lo = mid + 1u;
        else hi = mid;
    }
    for (size_t k = lo; k < e->moved && at[k] < end; k++) {
        if (e->moved_owner[k] == self) continue;
        return aplan__fb_fail(&e->fb, APLAN_E_FORMAT_BAD_OFFSET, at[k],
                              "the file offset at byte %u (of the %s table at byte %u) lies in %s at bytes %u-%u: "
                              "tables overlap",
                              (uint64_t)at[k], e->moved_owner[k] % 2u == OWNER_BUFFER ? "Buffer" : "operator",
                              (uint64_t)(e->moved_owner[k] / 2u), kind, (uint64_t)start, (uint64_t)end);
    }
    return APLAN_OK;
}

/* A table's own bytes (self: an OWNER for a Buffer or operator table, whose own moved offset lies there; SIZE_MAX
 * for other tables) and its vtable's (which no moved offset may touch). */
static aplan_status guard_table(embed *e, const aplan__fb_table *t, size_t self, const char *kind) {
    aplan_status st = guard(e, t->pos, t->pos + t->table_size, self, kind);
    return st == APLAN_OK ? guard(e, t->vtable, t->vtable + t->vtable_size, SIZE_MAX, kind) : st;
}

/* Vector field id of t, elem-byte elements (a string: elem 0, its bytes and NUL), when present. */
static aplan_status guard_vector(embed *e, const aplan__fb_table *t, unsigned id, size_t elem, const char *kind) {
    aplan__fb_vec v;
    aplan_status st = elem == 0 ? aplan__fb_get_string(&e->fb, t, id, kind, &v)
                                : aplan__fb_get_vector(&e->fb, t, id, elem, kind, &v);
    if (st != APLAN_OK || !v.present) return st;
    return guard(e, v.pos - 4u, v.pos + (elem == 0 ? (size_t)v.len + 1u : elem * (size_t)v.len), SIZE_MAX, kind);
}

/* Each table of vector v (each checked as guard_table; owner OWNER_BUFFER or _OPERATOR for those kinds, else
 * SIZE_MAX) and, per table, its parts (parts, may be NULL). */
typedef aplan_status (*guard_parts)(embed *e, const aplan__fb_table *t);

static aplan_status guard_tables(embed *e, const aplan__fb_vec *v, size_t owner, const char *kind,
                                 guard_parts parts) {
    aplan_status st = APLAN_OK;
    for (uint32_t i = 0; st == APLAN_OK && i < v->len; i++) {
        aplan__fb_table t;
        st = aplan__fb_vec_table(&e->fb, v, i, kind, &t);
        if (st == APLAN_OK) st = guard_table(e, &t, owner == SIZE_MAX ? SIZE_MAX : OWNER(t.pos, owner), kind);
        if (st == APLAN_OK && parts != NULL) st = parts(e, &t);
    }
    return st;
}

static aplan_status opcode_parts(embed *e, const aplan__fb_table *t) {
    return guard_vector(e, t, OPCODE_CUSTOM_CODE, 0, "an operator code's custom_code");
}

static aplan_status buffer_parts(embed *e, const aplan__fb_table *t) {
    return guard_vector(e, t, BUFFER_DATA, 1, "a buffer's data");
}

static aplan_status metadata_parts(embed *e, const aplan__fb_table *t) {
    return guard_vector(e, t, METADATA_NAME, 0, "a metadata name");
}

static aplan_status tensor_parts(embed *e, const aplan__fb_table *t) {
    aplan_status st = guard_vector(e, t, TENSOR_SHAPE, 4, "a tensor's shape");
    if (st == APLAN_OK) st = guard_vector(e, t, TENSOR_NAME, 0, "a tensor's name");
    bool present = false;
    aplan__fb_table q;
    if (st == APLAN_OK) st = aplan__fb_get_table(&e->fb, t, TENSOR_QUANTIZATION, "quantization", &present, &q);
    if (st != APLAN_OK || !present) return st;
    st = guard_table(e, &q, SIZE_MAX, "a tensor's quantization");
    if (st == APLAN_OK) st = guard_vector(e, &q, QUANT_MIN, 4, "a quantization's min");
    if (st == APLAN_OK) st = guard_vector(e, &q, QUANT_MAX, 4, "a quantization's max");
    if (st == APLAN_OK) st = guard_vector(e, &q, QUANT_SCALE, 4, "a quantization's scale");
    if (st == APLAN_OK) st = guard_vector(e, &q, QUANT_ZERO_POINT, 8, "a quantization's zero_point");
    return st;
}

static aplan_status operator_parts(embed *e, const aplan__fb_table *t) {
    aplan_status st = guard_vector(e, t, OPERATOR_INPUTS, 4, "an operator's inputs");
    if (st == APLAN_OK) st = guard_vector(e, t, OPERATOR_OUTPUTS, 4, "an operator's outputs");
    if (st == APLAN_OK) st = guard_vector(e, t, OPERATOR_CUSTOM_OPTIONS, 1, "an operator's custom_options");
    if (st == APLAN_OK) st = guard_vector(e, t, OPERATOR_INTERMEDIATES, 4, "an operator's intermediates");
    bool present = false;
    aplan__fb_table o;
    if (st == APLAN_OK) st = aplan__fb_get_table(&e->fb, t, OPERATOR_BUILTIN_OPTIONS, "builtin_options", &present, &o);
    if (st == APLAN_OK && present) st = guard_table(e, &o, SIZE_MAX, "an operator's builtin_options");
    return st;
}

static aplan_status subgraph_parts(embed *e, const aplan__fb_table *t) {
    aplan__fb_vec tensors, operators;
    aplan_status st = aplan__fb_get_vector(&e->fb, t, SUBGRAPH_TENSORS, 4u, "tensors", &tensors);
    if (st == APLAN_OK) st = aplan__fb_get_vector(&e->fb, t, SUBGRAPH_OPERATORS, 4u, "operators", &operators);
    if (st == APLAN_OK) st = guard_vector(e, t, SUBGRAPH_TENSORS, 4, "a subgraph's tensors");
    if (st == APLAN_OK) st = guard_vector(e, t, SUBGRAPH_INPUTS, 4, "a subgraph's inputs");
    if (st == APLAN_OK) st = guard_vector(e, t, SUBGRAPH_OUTPUTS, 4, "a subgraph's outputs");
    if (st == APLAN_OK) st = guard_vector(e, t, SUBGRAPH_OPERATORS, 4, "a subgraph's operators");
    if (st == APLAN_OK) st = guard_vector(e, t, SUBGRAPH_NAME, 0, "a subgraph's name");
    if (st == APLAN_OK) st = guard_tables(e, &tensors, SIZE_MAX, "a tensor", tensor_parts);
    if (st == APLAN_OK) st = guard_tables(e, &operators, OWNER_OPERATOR, "an operator", operator_parts);
    return st;
}

/* Every part the reader knows against the offsets the dry run listed (e->moved_at). */
static aplan_status guard_model(embed *e) {
    if (e->moved == 0) return APLAN_OK;
    aplan_status st = sort_moved(e);
    if (st == APLAN_OK) st = guard_table(e, &e->root, SIZE_MAX, "the Model table");
    for (unsigned id = 1; st == APLAN_OK && id < MODEL_FIELDS; id++) {
        if (!e->present[id]) continue;
        const size_t len = aplan__fb_u32(&e->fb, e->target[id]);
        const size_t bytes = id == MODEL_DESCRIPTION ? len + 1u : 4u * len;
        st = guard(e, e->target[id], e->target[id] + 4u + bytes, SIZE_MAX, model_field[id]);
    }
    aplan__fb_vec codes;
    if (st == APLAN_OK) {
        st = aplan__fb_get_vector(&e->fb, &e->root, MODEL_OPERATOR_CODES, 4u, model_field[MODEL_OPERATOR_CODES],
                                  &codes);
    }
    if (st == APLAN_OK) st = guard_tables(e, &codes, SIZE_MAX, "an operator code", opcode_parts);
    if (st == APLAN_OK) st = guard_tables(e, &e->buffers, OWNER_BUFFER, "a Buffer table", buffer_parts);
    if (st == APLAN_OK) st = guard_tables(e, &e->metadata, SIZE_MAX, "a metadata table", metadata_parts);
    if (st == APLAN_OK) st = guard_tables(e, &e->subgraphs, SIZE_MAX, "a subgraph", subgraph_parts);
    return st;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* The front block                                                                                               */

/* The new Model has field id: every field of the input's, plus metadata when a new Metadata table is written. */
static bool new_field(const embed *e, unsigned id) {
    return e->present[id] || id == MODEL_BUFFERS || (id == MODEL_METADATA && !e->in_place);
}

static unsigned new_slots(const embed *e) {
    unsigned slots = 0;
    for (unsigned id = 0; id < MODEL_FIELDS; id++) {
        if (new_field(e, id)) slots = id + 1u;
    }
    return slots;
}

static uint64_t metadata_len(const embed *e) { return e->metadata.len + (e->offline_entries == 0 ? 1u : 0u); }

/* Place the front block; check that every offset it holds stays below 2^31 and that the output fits size_t. */
static aplan_status layout_front(embed *e, size_t model_size) {
    layout *at = &e->at;
    APLAN_MEMSET(at, 0, sizeof *at);
    unsigned slots = new_slots(e);
    unsigned fields = 0;
    for (unsigned id = 0; id < slots; id++) fields += new_field(e, id) ? 1u : 0u;
    at->model_vtable = 8u;
    at->model_table = align_to(at->model_vtable + 4u + 2u * slots, 4u);
    at->buffers = at->model_table + 4u + 4u * fields;
    uint64_t pos = at->buffers + 4u + 4u * ((uint64_t)e->buffers.len + (e->in_place ? 0u : 1u));
    if (!e->in_place) {
        at->metadata = pos;
        at->meta_vtable = at->metadata + 4u + 4u * metadata_len(e);
        at->meta_table = at->meta_vtable + 8u;        /* vtable: 2 fields, 8 bytes */
        at->name = at->meta_table + 12u;              /* table: soffset, name, buffer */
        pos = at->name + 4u + align_to(OFFLINE_NAME_LEN + 1u, 4u);
    }
    at->buf_vtable = pos;
    at->buf_table = at->buf_vtable + 8u;              /* vtable: 1 field, 6 bytes, padded */
    at->data = align_to(at->buf_table + 8u + 4u, APLAN_TFLITE_EMBED_ALIGN) - 4u;
    at->shift = align_to(at->data + 4u + 12u + 4u * e->tensor_count, APLAN_TFLITE_EMBED_ALIGN);
    /* The longest offset runs from the front block to the farthest input part it points at. */
    if (at->shift + e->max_target > OFFSET_LIMIT || (uint64_t)model_size > (uint64_t)SIZE_MAX - at->shift) {
        return aplan__fb_fail(&e->fb, APLAN_E_FORMAT_UNSUPPORTED, e->max_target,
                              "the output would need offsets of 2^31 bytes or more (%u-byte plan block)", at->shift);
    }
    return APLAN_OK;
}

/* Write the front block into out (its first shift bytes); the input is already copied behind it. The plan's words
 * come from raw (4 bytes per tensor, as they lie in a model) when it is not NULL, else from ids and offsets. */
static aplan_status write_front(embed *e, uint8_t *out, const uint8_t *raw, const aplan_tflite_id *ids,
                                const uint64_t *offsets, size_t count) {
    const layout *at = &e->at;
    aplan__fb *fb = &e->fb;
    APLAN_MEMSET(out, 0, (size_t)at->shift);
    put_uoffset(out, 0, at->model_table);
    APLAN_MEMCPY(out + 4, "TFL3", 4u);

    /* Model: vtable before the table (a positive soffset), fields in id order, one 4-byte slot each. */
    unsigned slots = new_slots(e);
    uint64_t field = at->model_table + 4u;
    for (unsigned id = 0; id < slots; id++) {
        if (!new_field(e, id)) continue;
        put16(out, at->model_vtable + 4u + 2u * id, (uint16_t)(field - at->model_table));
        if (id == MODEL_VERSION) put32(out, field, e->version);
        else if (id == MODEL_BUFFERS) put_uoffset(out, field, at->buffers);
        else if (id == MODEL_METADATA && !e->in_place) put_uoffset(out, field, at->metadata);
        else put_uoffset(out, field, at->shift + e->target[id]);
        field += 4u;
    }
    put16(out, at->model_vtable, (uint16_t)(4u + 2u * slots));
    put16(out, at->model_vtable + 2u, (uint16_t)(field - at->model_table));
    put32(out, at->model_table, (uint32_t)(at->model_table - at->model_vtable));

    /* buffers: the input's tables, the plan's in place of the old plan's or after the last. */
    uint32_t n_buffers = e->buffers.len + (e->in_place ? 0u : 1u);
    put32(out, at->buffers, n_buffers);
    for (uint32_t i = 0; i < n_buffers; i++) {
        uint64_t slot = at->buffers + 4u + 4u * (uint64_t)i;
        bool plan = i == e->plan_buffer;
        put_uoffset(out, slot, plan ? at->buf_table : at->shift + entry_target(e, &e->buffers, i));
    }

    if (!e->in_place) {
        /* metadata: the input's entries, each offline plan entry replaced by the new one, which is appended when
         * there was none. */
        uint64_t n_meta = metadata_len(e);
        put32(out, at->metadata, (uint32_t)n_meta);
        for (uint32_t i = 0; i < n_meta; i++) {
            uint64_t slot = at->metadata + 4u + 4u * (uint64_t)i;
            bool offline = true;
            if (i < e->metadata.len) {
                aplan__fb_table mt;
                uint32_t buffer = 0;
                aplan_status st = get_metadata(e, i, &mt, &offline, &buffer);
                if (st != APLAN_OK) return st;
            }
            put_uoffset(out, slot, offline ? at->meta_table : at->shift + entry_target(e, &e->metadata, i));
        }
        aplan__fb_context_pop(fb, 0);
        put16(out, at->meta_vtable, 8u);
        put16(out, at->meta_vtable + 2u, 12u);
        put16(out, at->meta_vtable + 4u, 4u);
        put16(out, at->meta_vtable + 6u, 8u);
        put32(out, at->meta_table, (uint32_t)(at->meta_table - at->meta_vtable));
        put_uoffset(out, at->meta_table + 4u, at->name);
        put32(out, at->meta_table + 8u, e->plan_buffer);
        put32(out, at->name, (uint32_t)OFFLINE_NAME_LEN);
        APLAN_MEMCPY(out + at->name + 4u, offline_name, OFFLINE_NAME_LEN + 1u);
    }

    /* The plan's Buffer: data only. */
    put16(out, at->buf_vtable, 6u);
    put16(out, at->buf_vtable + 2u, 8u);
    put16(out, at->buf_vtable + 4u, 4u);
    put32(out, at->buf_table, (uint32_t)(at->buf_table - at->buf_vtable));
    put_uoffset(out, at->buf_table + 4u, at->data);
    put32(out, at->data, (uint32_t)(12u + 4u * e->tensor_count));
    uint8_t *words = out + at->data + 4u;
    put32(words, 0, 0);                                    /* version */
    put32(words, 4u, e->subgraphs.len);                    /* subgraphs */
    put32(words, 8u, (uint32_t)e->tensor_count);           /* n */
    if (raw != NULL) {
        APLAN_MEMCPY(words + 12, raw, (size_t)(4u * e->tensor_count));
        return APLAN_OK;
    }
    APLAN_MEMSET(words + 12, 0xFF, (size_t)(4u * e->tensor_count)); /* -1: not planned offline */
    return place_offsets(e, ids, offsets, count, words + 12);
}

/* ------------------------------------------------------------------------------------------------------------ */

/* ------------------------------------------------------------------------------------------------------------ */
/* Scratch: the model read back, the plan verified, an earlier front block recognised                            */

/* The scratch's parts, carved in this order (each APLAN_SCRATCH_ALIGN aligned):
 *   given   count buffers: the input as the reader gives it, then the problem the plan is verified against;
 *   back    count buffers: the output as the reader gives it;
 *   ids     count ids: the reader's, which the caller's must equal;
 *   reached one bit per Model.buffers entry: the Buffer tables a tensor or the metadata names;
 *   moved   two words per file offset that may move (a Model.buffers entry or an operator listed in a subgraph):
 *           its position and its table's, for the overlap check;
 *   front   the earlier front block rebuilt, when the input may be an output of this function (else 0 bytes);
 *   work    the larger of the reader's and the verifier's scratch. */
typedef struct parts {
    aplan_buffer *given, *back;
    aplan_tflite_id *ids;
    uint8_t *reached;
    uint32_t *moved_at, *moved_owner;
    size_t moved_cap;
    uint8_t *front;
    void *work;
    size_t work_size;
} parts;

static bool carve(aplan__scratch *sc, size_t count, size_t n_buffers, size_t slots, size_t front, size_t work,
                  parts *p) {
    p->given = aplan__scratch_take(sc, count, sizeof(aplan_buffer), APLAN_SCRATCH_ALIGN);
    p->back = aplan__scratch_take(sc, count, sizeof(aplan_buffer), APLAN_SCRATCH_ALIGN);
    p->ids = aplan__scratch_take(sc, count, sizeof(aplan_tflite_id), APLAN_SCRATCH_ALIGN);
    p->reached = aplan__scratch_take(sc, n_buffers / 8u + 1u, 1u, APLAN_SCRATCH_ALIGN);
    p->moved_at = aplan__scratch_take(sc, slots, sizeof(uint32_t), APLAN_SCRATCH_ALIGN);
    p->moved_owner = aplan__scratch_take(sc, slots, sizeof(uint32_t), APLAN_SCRATCH_ALIGN);
    p->moved_cap = slots;
    p->front = aplan__scratch_take(sc, front, 1u, APLAN_SCRATCH_ALIGN);
    p->work = aplan__scratch_take(sc, work, 1u, APLAN_SCRATCH_ALIGN);
    p->work_size = work;
    return !sc->failed;
}

/* Where the input may hold an earlier front block of this function: the end of the offline plan's data vector,
 * rounded up to APLAN_TFLITE_EMBED_ALIGN, when a model ("TFL3") starts there. 0: it cannot. */
static uint64_t earlier_front(embed *e, size_t model_size) {
    if (e->offline_entries == 0 || !e->in_place) return 0;
    aplan__fb_table bt;
    aplan__fb_vec data;
    aplan_format_error quiet;
    aplan_format_error *keep = e->fb.error;
    APLAN_MEMSET(&quiet, 0, sizeof quiet); /* the fb reader's errors are sticky */
    e->fb.error = &quiet; /* a plan buffer without data is simply not one this function wrote */
    bool ok = aplan__fb_vec_table(&e->fb, &e->buffers, e->plan_buffer, "buffer table", &bt) == APLAN_OK &&
              aplan__fb_get_vector(&e->fb, &bt, BUFFER_DATA, 1u, "data", &data) == APLAN_OK;
    e->fb.error = keep;
    aplan__fb_context_pop(&e->fb, 0);
    if (!ok || data.len != 12u + 4u * e->tensor_count) return 0;
    uint64_t shift = align_to((uint64_t)data.pos + data.len, APLAN_TFLITE_EMBED_ALIGN);
    if (shift + 8u > model_size || !same_bytes(e->fb.data + shift + 4u, (const uint8_t *)"TFL3", 4u)) return 0;
    return shift;
}

/* The scratch embed needs for this model, and its parts' sizes. */
static aplan_status need_scratch(embed *e, const void *model, size_t model_size, aplan_format_error *error,
                                 aplan_tflite_info *info, size_t *slots, size_t *front, size_t *work,
                                 size_t *bytes) {
    aplan_status st = aplan_tflite_query(model, model_size, info, error);
    if (st != APLAN_OK) return st;
    APLAN_MEMSET(e, 0, sizeof *e);
    aplan__fb_init(&e->fb, model, model_size, error);
    st = read_model(e);
    if (st == APLAN_OK) st = find_plan(e);
    *slots = e->buffers.len;
    for (uint32_t s = 0; st == APLAN_OK && s < e->subgraphs.len; s++) {
        aplan__fb_vec tensors, operators;
        st = get_subgraph(e, s, &tensors, &operators);
        *slots += operators.len; /* at most 2^32 subgraphs of 2^32: 2^64 words is past any size_t anyway */
    }
    aplan__fb_context_pop(&e->fb, 0);
    if (st != APLAN_OK) return st;
    *front = (size_t)earlier_front(e, model_size);
    aplan_problem p;
    aplan_problem_init(&p, NULL, info->buffer_count);
    size_t verify = 0;
    if (aplan_verify_scratch_size(&p, &verify) != APLAN_OK) verify = SIZE_MAX;
    *work = info->scratch_size > verify ? info->scratch_size : verify;
    aplan__scratch sc;
    parts unused;
    aplan__scratch_init(&sc, NULL, SIZE_MAX);
    if (*work == SIZE_MAX || !carve(&sc, info->buffer_count, e->buffers.len, *slots, *front, *work, &unused)) {
        return arg_error(error, APLAN_E_SIZE_OVERFLOW, "the scratch for %u buffers passes SIZE_MAX",
                         (uint64_t)info->buffer_count);
    }
    *bytes = sc.used;
    return APLAN_OK;
}

aplan_status aplan_tflite_embed_scratch_size(const void *model, size_t model_size, size_t *bytes,
                                             aplan_format_error *error) {
    aplan_format_error local;
    if (error == NULL) error = &local;
    if (model == NULL || bytes == NULL) {
        return arg_error(error, APLAN_E_INVALID_ARG, model == NULL ? "model is NULL" : "bytes is NULL");
    }
    *bytes = 0;
    embed e;
    aplan_tflite_info info;
    size_t slots, front, work;
    aplan_status st = need_scratch(&e, model, model_size, error, &info, &slots, &front, &work, bytes);
    if (st == APLAN_OK) APLAN_MEMSET(error, 0, sizeof *error);
    return st;
}

/* The plan checked as TFLM will use it, with the verifier: every offset 16-aligned, sizes rounded up to 16 (TFLM's
 * arena alignment), no two buffers sharing bytes while live, every end at most 2^31. A tensor the old offline
 * plan placed keeps its fixed offset when the new plan gives the same one, and such tensors may alias (TFLM took
 * them so); any other old offset is being replaced and is cleared. O(count log count) with the verifier's scratch. */
static aplan_status verify_plan(embed *e, const parts *p, const aplan_tflite_id *ids, const uint64_t *offsets,
                                size_t count) {
    aplan_problem problem;
    aplan_problem_init(&problem, p->given, count);
    problem.alignment = APLAN_TFLITE_ALIGNMENT;
    problem.capacity = (uint64_t)INT32_MAX + 1u; /* ends are exclusive: an int32 offset can start the last bytes */
    problem.flags = APLAN_ROUND_SIZES;
    uint64_t highest = 0;
    size_t top = 0;
    for (size_t i = 0; i < count; i++) {
        aplan_buffer *b = &p->given[i];
        if (b->offset != APLAN_NO_OFFSET && b->offset != offsets[i]) b->offset = APLAN_NO_OFFSET;
        if (b->offset != APLAN_NO_OFFSET) problem.flags |= APLAN_ALLOW_FIXED_ALIAS;
        uint64_t end;
        if (aplan__align_up(b->size, APLAN_TFLITE_ALIGNMENT, &end) && aplan__add(end, offsets[i], &end) &&
            end > highest) {
            highest = end; /* the verifier's arena: every buffer's end; one that overflows is its to report */
            top = i;
        }
    }
    aplan_report r;
    aplan_status st = aplan_verify(&problem, offsets, highest, p->work, p->work_size, &r);
    if (st == APLAN_OK) return APLAN_OK;
    char what[160], a[24], b[24] = "";
    if (st == APLAN_E_CAPACITY_EXCEEDED) {
        (void)aplan_tflite_id_format(ids[top], a, sizeof a);
        return arg_error(e->fb.error, st,
                         "the plan is not one TFLM can use: buffer %u (%s) ends at byte %u, past 2^31 (TFLM's "
                         "offsets are int32)",
                         (uint64_t)top, a, highest);
    }
    (void)aplan_report_format(&r, what, sizeof what);
    (void)aplan_tflite_id_format(ids[r.buffer_a < count ? r.buffer_a : 0], a, sizeof a);
    if (st == APLAN_E_OVERLAP || st == APLAN_E_FIXED_OVERLAP) (void)aplan_tflite_id_format(ids[r.buffer_b], b, sizeof b);
    return arg_error(e->fb.error, st,
                     "the plan is not one TFLM can use: %s (buffer %u is %s%s%s)", what, (uint64_t)r.buffer_a, a,
                     b[0] != '\0' ? ", the other " : "", b);
}

/* Mark the Buffer tables a tensor, a metadata entry or Model.metadata_buffer names: only those have their
 * Buffer.offset moved, so an entry of Model.buffers that nothing uses is never written, whatever it points at. */
static aplan_status mark_reached(embed *e, uint8_t *reached) {
    aplan__fb *fb = &e->fb;
    APLAN_MEMSET(reached, 0, e->buffers.len / 8u + 1u);
#define MARK(b) ((b) < e->buffers.len ? (void)(reached[(b) / 8u] |= (uint8_t)(1u << ((b) % 8u))) : (void)0)
    for (uint32_t i = 0; i < e->metadata_buffer.len; i++) MARK(aplan__fb_vec_u32(fb, &e->metadata_buffer, i));
    for (uint32_t i = 0; i < e->metadata.len; i++) {
        aplan__fb_table mt;
        bool offline = false;
        uint32_t buffer = 0;
        aplan_status st = get_metadata(e, i, &mt, &offline, &buffer);
        if (st != APLAN_OK) return st;
        if (!offline) MARK(buffer);
    }
    for (uint32_t s = 0; s < e->subgraphs.len; s++) {
        aplan__fb_vec tensors, operators;
        aplan_status st = get_subgraph(e, s, &tensors, &operators);
        for (uint32_t t = 0; st == APLAN_OK && t < tensors.len; t++) {
            aplan__fb_table tt;
            uint32_t buffer = 0;
            aplan__fb_context(fb, 1, "tensor", t);
            st = aplan__fb_vec_table(fb, &tensors, t, "tensor table", &tt);
            if (st == APLAN_OK) st = aplan__fb_get_u32(fb, &tt, TENSOR_BUFFER, "buffer", 0, &buffer);
            MARK(buffer);
        }
        if (st != APLAN_OK) return st;
    }
#undef MARK
    aplan__fb_context_pop(fb, 0);
    return APLAN_OK;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Reading the output back                                                                                       */

/* A pointer the reader returned into the output is where the same one into the input moved: delta bytes later.
 * Pointers outside the input (static names) must be equal. The end of the input counts as inside: an empty
 * vector's data may point there. */
typedef struct places {
    const uint8_t *in, *out;
    size_t in_size;
    uint64_t delta;
} places;

static bool same_place(const places *w, const void *a, const void *b) {
    const uint8_t *x = a, *y = b;
    if (x == NULL || y == NULL || x < w->in || x > w->in + w->in_size) return x == y;
    return y >= w->out && (uint64_t)(y - w->out) == (uint64_t)(x - w->in) + w->delta;
}

static bool same_text(const places *w, aplan_tflite_text a, aplan_tflite_text b) {
    return a.size == b.size && same_place(w, a.data, b.data);
}

static bool same_indices(const places *w, aplan_tflite_indices a, aplan_tflite_indices b) {
    return a.count == b.count && same_place(w, a.data, b.data);
}

/* Fail naming what differs (what NULL: the model's counts or buffers): the output would not read as the input with
 * the plan. */
static aplan_status differs(embed *e, const char *what, uint64_t a, uint64_t b) {
    if (what == NULL) {
        return arg_error(e->fb.error, APLAN_E_FORMAT_BAD_OFFSET,
                         "the model reads differently once written: tables overlap, so moving a file offset "
                         "changes another");
    }
    return arg_error(e->fb.error, APLAN_E_FORMAT_BAD_OFFSET,
                     "%s %u.%u reads differently once written: tables overlap, so moving a file offset changes "
                     "another",
                     what, a, b);
}

/* The output's Model, read with a reader of its own: its version, and every field the input's Model has pointing
 * where the input's moved to (e->at.shift later; e is the model behind the front block); its buffers and metadata
 * vectors holding the input's entries, moved, but for the plan's. O(fields + buffers + metadata). */
static bool same_front(const embed *e, const uint8_t *out, size_t out_size) {
    aplan_format_error quiet;
    aplan__fb o;
    aplan__fb_table root;
    const uint64_t shift = e->at.shift;
    aplan__fb_init(&o, out, out_size, &quiet);
    if (aplan__fb_root(&o, "TFL3", &root) != APLAN_OK) return false;
    for (unsigned id = 0; id < MODEL_FIELDS; id++) {
        size_t pos = 0;
        if (aplan__fb_field(&o, &root, id, 4u, model_field[id], &pos) != APLAN_OK || (pos != 0) != new_field(e, id)) {
            return false;
        }
        if (pos == 0) continue;
        if (id == MODEL_VERSION) {
            if (aplan__fb_u32(&o, pos) != e->version) return false;
            continue;
        }
        const uint64_t target = (uint64_t)pos + aplan__fb_u32(&o, pos);
        if (id == MODEL_BUFFERS || (id == MODEL_METADATA && !e->in_place)) continue; /* new: entries below */
        if (target != shift + e->target[id]) return false;
    }
    aplan__fb_vec buffers, metadata;
    if (aplan__fb_get_vector(&o, &root, MODEL_BUFFERS, 4u, "buffers", &buffers) != APLAN_OK ||
        aplan__fb_get_vector(&o, &root, MODEL_METADATA, 4u, "metadata", &metadata) != APLAN_OK ||
        buffers.len != e->buffers.len + (e->in_place ? 0u : 1u) || metadata.len != metadata_len(e)) {
        return false;
    }
    for (uint32_t i = 0; i < e->buffers.len; i++) {
        const uint64_t at = (uint64_t)buffers.pos + 4u * i + aplan__fb_vec_u32(&o, &buffers, i);
        if (i != e->plan_buffer && at != shift + entry_target(e, &e->buffers, i)) {
            return false;
        }
    }
    return true;
}

/* Every fact the reader gives about the output must be the input's: the query's counts, the Model (same_front), and
 * the buffers, with their offsets now the plan's. When a file offset moved (e->moved > 0), bytes of the copy
 * changed, so also every subgraph, tensor and operator (text and vectors where they moved to), a lookup that fails on
 * the input (a part the query does not read, such as a quantization table, malformed) failing the same way on the
 * output; otherwise the copy is the input's bytes, reached through the Model's fields that same_front checked, and
 * every lookup reads the same bytes. Within the query's work budget, as every lookup is (O(output_size)). */
static aplan_status read_back(embed *e, const parts *p, const places *w, size_t out_size, const uint64_t *offsets,
                              size_t count, const aplan_tflite_info *in_info) {
    aplan_format_error quiet;
    aplan_tflite_info out_info;
    const void *out = w->out, *in = w->in;
    const size_t in_size = w->in_size;
    size_t got = 0;
    if (aplan_tflite_query(out, out_size, &out_info, &quiet) != APLAN_OK ||
        out_info.buffer_count != in_info->buffer_count || out_info.tensor_count != in_info->tensor_count ||
        out_info.subgraph_count != in_info->subgraph_count ||
        out_info.operator_count != in_info->operator_count || out_info.version != in_info->version ||
        out_info.scratch_size > p->work_size ||
        aplan_tflite_read(out, out_size, p->work, p->work_size, p->back, NULL, count, &got, &quiet) != APLAN_OK ||
        got != count) {
        return differs(e, NULL, 0, 0);
    }
    for (size_t i = 0; i < count; i++) {
        const aplan_buffer *b = &p->back[i];
        if (b->offset != offsets[i] || b->size != p->given[i].size || b->lower != p->given[i].lower ||
            b->upper != p->given[i].upper) {
            return differs(e, "tensor", p->ids[i].subgraph, p->ids[i].tensor);
        }
    }
    if (!same_front(e, w->out, out_size)) return differs(e, NULL, 0, 0);
    for (uint32_t s = 0; e->moved > 0 && s < in_info->subgraph_count; s++) {
        aplan_tflite_subgraph_info a, b;
        if (aplan_tflite_subgraph(in, in_size, s, &a, &quiet) != APLAN_OK ||
            aplan_tflite_subgraph(out, out_size, s, &b, &quiet) != APLAN_OK || !same_text(w, a.name, b.name) ||
            a.name_error != b.name_error || a.tensor_count != b.tensor_count ||
            a.operator_count != b.operator_count || !same_indices(w, a.inputs, b.inputs) ||
            !same_indices(w, a.outputs, b.outputs)) {
            return differs(e, "subgraph", s, 0);
        }
        for (uint32_t t = 0; t < a.tensor_count; t++) {
            aplan_tflite_tensor_info x, y;
            const aplan_tflite_id id = {s, t};
            const aplan_status sx = aplan_tflite_tensor(in, in_size, id, &x, &quiet);
            if (sx != aplan_tflite_tensor(out, out_size, id, &y, &quiet)) return differs(e, "tensor", s, t);
            if (sx != APLAN_OK) continue; /* a part the query does not read, malformed in both the same way */
            if (!same_text(w, x.name, y.name)) return differs(e, "tensor", s, t);
            bool same = x.type_name == y.type_name && x.elements == y.elements && x.size == y.size &&
                        x.rank == y.rank && x.buffer == y.buffer && x.type == y.type &&
                        x.shape_truncated == y.shape_truncated && x.has_size == y.has_size &&
                        x.constant == y.constant && x.is_variable == y.is_variable &&
                        x.quant_scales == y.quant_scales && x.quant_zero_points == y.quant_zero_points &&
                        x.name_error == y.name_error;
            for (unsigned d = 0; same && d < APLAN_TFLITE_MAX_RANK; d++) same = x.shape[d] == y.shape[d];
            if (!same) return differs(e, "tensor", s, t);
        }
        for (uint32_t k = 0; k < a.operator_count; k++) {
            aplan_tflite_operator_info x, y;
            aplan_tflite_options_info u, v;
            const aplan_status su = aplan_tflite_options(in, in_size, s, k, &u, &quiet);
            const aplan_status sv = aplan_tflite_options(out, out_size, s, k, &v, &quiet);
            const aplan_status sx = aplan_tflite_operator(in, in_size, s, k, &x, &quiet);
            if (sx != aplan_tflite_operator(out, out_size, s, k, &y, &quiet)) return differs(e, "operator", s, k);
            if (sx != APLAN_OK) { /* as for tensors */
                if (su != sv) return differs(e, "operator", s, k);
                continue;
            }
            if (!same_text(w, x.name, y.name) ||
                !same_indices(w, x.inputs, y.inputs) || !same_indices(w, x.outputs, y.outputs) ||
                x.builtin_code != y.builtin_code || x.opcode_index != y.opcode_index || x.calls[0] != y.calls[0] ||
                x.calls[1] != y.calls[1] || x.custom != y.custom || su != sv ||
                (su == APLAN_OK && (u.type != v.type || u.has_table != v.has_table || !same_text(w, u.custom, v.custom) ||
                                    !same_indices(w, u.intermediates, v.intermediates)))) {
                return differs(e, "operator", s, k);
            }
        }
    }
    return APLAN_OK;
}

/* ------------------------------------------------------------------------------------------------------------ */

static aplan_status embed_model(embed *e, const void *model, size_t model_size, const aplan_tflite_id *ids,
                                const uint64_t *offsets, size_t count, void *scratch, size_t scratch_size,
                                uint8_t *out, size_t out_capacity, size_t *out_size, aplan_format_error *error) {
    aplan_tflite_info info;
    size_t slots = 0, front = 0, work = 0, bytes = 0;
    aplan_status st = need_scratch(e, model, model_size, error, &info, &slots, &front, &work, &bytes);
    if (st != APLAN_OK) return st;
    if (count != info.buffer_count) {
        return arg_error(error, APLAN_E_INVALID_ARG, "count is %u, the model has %u buffers", (uint64_t)count,
                         (uint64_t)info.buffer_count);
    }
    if ((st = aplan__scratch_check(scratch, scratch_size, bytes)) != APLAN_OK) {
        if (st == APLAN_E_SCRATCH_MISALIGNED) return arg_error(error, st, "scratch is not 8-byte aligned");
        return arg_error(error, st, "scratch is %u bytes, aplan_tflite_embed_scratch_size asks for %u",
                         (uint64_t)scratch_size, (uint64_t)bytes);
    }
    aplan__scratch sc;
    parts p;
    aplan__scratch_init(&sc, scratch, scratch_size);
    const bool carved = carve(&sc, count, e->buffers.len, slots, front, work, &p);
    APLAN_ASSERT(carved); /* the size was checked above */
    (void)carved;
    size_t got = 0;
    st = aplan_tflite_read(model, model_size, p.work, p.work_size, p.given, p.ids, count, &got, error);
    if (st != APLAN_OK) return st;
    st = place_offsets(e, ids, offsets, count, NULL);
    for (size_t i = 0; st == APLAN_OK && i < count; i++) {
        if (ids[i].subgraph != p.ids[i].subgraph || ids[i].tensor != p.ids[i].tensor) {
            st = arg_error(error, APLAN_E_INVALID_ARG, "ids[%u] is s%ut%u where the reader gives s%ut%u",
                           (uint64_t)i, (uint64_t)ids[i].subgraph, (uint64_t)ids[i].tensor,
                           (uint64_t)p.ids[i].subgraph, (uint64_t)p.ids[i].tensor);
        }
    }
    if (st == APLAN_OK) st = verify_plan(e, &p, ids, offsets, count);
    if (st != APLAN_OK) return st;

    /* An input this function wrote (its front block, then a model) gets a new front block in place of the old one
     * rather than a second one before it: the inner model's front block with the input's own plan must be the
     * input's first bytes exactly. The inner model's absolute offsets already include the shift, which stays. */
    const uint8_t *base = model;
    size_t base_size = model_size;
    bool again = false;
    if (front != 0) {
        embed inner;
        aplan_format_error quiet;
        aplan_tflite_info inner_info;
        APLAN_MEMSET(&inner, 0, sizeof inner);
        APLAN_MEMSET(&quiet, 0, sizeof quiet);
        aplan__fb_init(&inner.fb, base + front, model_size - front, &quiet);
        again = aplan_tflite_query(base + front, model_size - front, &inner_info, &quiet) == APLAN_OK &&
                read_model(&inner) == APLAN_OK && find_plan(&inner) == APLAN_OK &&
                layout_front(&inner, model_size - front) == APLAN_OK && inner.at.shift == front &&
                inner.tensor_count == e->tensor_count;
            if (again) { /* the input's plan words, where inner's would go (inside the first front bytes) */
            const uint8_t *raw = e->fb.data + inner.at.data + 16u;
            again = write_front(&inner, p.front, raw, NULL, NULL, 0) == APLAN_OK && same_bytes(p.front, base, front);
        }
        if (again) {
            inner.fb.error = error;
            inner.again = true;
            *e = inner;
            base += front;
            base_size -= front;
        }
    }
    if (!again) {
        st = layout_front(e, model_size);
        if (st == APLAN_OK) st = mark_reached(e, p.reached);
        e->moved_at = p.moved_at, e->moved_owner = p.moved_owner, e->moved_cap = p.moved_cap, e->moved = 0;
        if (st == APLAN_OK) st = move_file_offsets(e, p.reached, NULL);
        if (st == APLAN_OK) st = guard_model(e);
        if (st != APLAN_OK) return st;
    }
    size_t need = (size_t)e->at.shift + base_size;
    if (out == NULL) {
        *out_size = need;
        return APLAN_OK;
    }
    if (out_capacity < need) {
        *out_size = need;
        return aplan__fb_fail(&e->fb, APLAN_E_OUTPUT_TOO_SMALL, 0, "the output needs %u bytes, out_capacity is %u",
                              (uint64_t)need, (uint64_t)out_capacity);
    }
    if (base_size > 0) APLAN_MEMCPY(out + e->at.shift, base, base_size);
    st = write_front(e, out, NULL, ids, offsets, count);
    if (st == APLAN_OK && !again) st = move_file_offsets(e, p.reached, out);
    if (st != APLAN_OK) return st;
    places w = {model, out, model_size, again ? 0u : e->at.shift};
    st = read_back(e, &p, &w, need, offsets, count, &info);
    if (st == APLAN_OK) *out_size = need;
    return st;
}

aplan_status aplan_tflite_embed(const void *model, size_t model_size, const aplan_tflite_id *ids,
                                const uint64_t *offsets, size_t count, void *scratch, size_t scratch_size, void *out,
                                size_t out_capacity, size_t *out_size, aplan_tflite_embed_info *info,
                                aplan_format_error *error) {
    aplan_format_error local;
    if (error == NULL) error = &local;
    if (info != NULL) APLAN_MEMSET(info, 0, sizeof *info);
    if (out_size != NULL) *out_size = 0;
    const uintptr_t m = (uintptr_t)model, o = (uintptr_t)out;
    if (model == NULL || out_size == NULL) {
        return arg_error(error, APLAN_E_INVALID_ARG, model == NULL ? "model is NULL" : "out_size is NULL");
    }
    if (count > 0 && (ids == NULL || offsets == NULL)) {
        return arg_error(error, APLAN_E_INVALID_ARG, ids == NULL ? "ids is NULL" : "offsets is NULL");
    }
    if (out == NULL && out_capacity > 0) return arg_error(error, APLAN_E_INVALID_ARG, "out is NULL");
    if (out != NULL && o < m + model_size && m < o + out_capacity) {
        return arg_error(error, APLAN_E_INVALID_ARG, "out overlaps the model");
    }
    embed e;
    aplan_status st = embed_model(&e, model, model_size, ids, offsets, count, scratch, scratch_size, (uint8_t *)out,
                                  out_capacity, out_size, error);
    if (st != APLAN_OK) {
        if (st != APLAN_E_OUTPUT_TOO_SMALL) *out_size = 0;
        return st;
    }
    if (info != NULL) {
        info->output_size = *out_size;
        info->shift = (size_t)e.at.shift;
        info->tensor_count = (size_t)e.tensor_count;
        info->planned_count = count;
        info->plan_buffer = e.plan_buffer;
        info->replaced = e.offline_entries > 0 || e.again;
        info->buffer_added = !e.in_place && !e.again;
        info->front_replaced = e.again;
    }
    APLAN_MEMSET(error, 0, sizeof *error);
    return APLAN_OK;
}
