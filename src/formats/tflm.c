/*
 * TFLM's arena for a .tflite model: a replay of what MicroInterpreter::AllocateTensors() allocates, in TFLM's
 * order, with TFLM's alignments (tensorflow/lite/micro at APLAN_TFLM_COMMIT: micro_allocator.cc,
 * micro_interpreter.cc, micro_interpreter_graph.cc, micro_allocation_info.cc,
 * arena_allocator/single_arena_buffer_allocator.cc).
 *
 * The arena is one SingleArenaBufferAllocator over [0, S) (its start 16-aligned): persistent allocations move the
 * tail down (tail = align_down(tail - size, align), failing below the head); the head holds a resizable buffer
 * (the scratch buffer requests while kernels prepare, the planned section afterwards) and temporaries above it
 * (temp = align_up(temp, align) + size, failing past the tail), which are released at the end of each node's
 * Prepare and of planning. The sequence, recorded once as events and replayed for any S:
 *   1. the allocator object; TFLM's GreedyMemoryPlanner when it lives in the arena; the MicroAllocator;
 *   2. StartModelAllocation: the builtin data allocator; the head's scratch request array (12 entries); the
 *      SubgraphAllocations array; per subgraph the TfLiteEvalTensor array, then per subgraph the
 *      NodeAndRegistration array;
 *   3. per operator, every subgraph in order, the builtin options struct its parser allocates;
 *   4. Init of every operator (kernel table: persistent buffers, 16-aligned);
 *   5. Prepare of every operator (kernel table: temporary tensors, persistent buffers, scratch requests), then the
 *      node's end: temporaries released, the request array regrown to requests + 12 entries;
 *   6. FinishModelAllocation: the ScratchBufferHandle array; planning: temporaries for the subgraph offsets and the
 *      AllocationInfo array, the variable tensors' buffers (persistent), then all that is left between the
 *      temporaries and the tail goes to the planner's Init (TFLM's greedy planner: 40 bytes per buffer); then the
 *      head becomes the planned section;
 *   7. the input and output TfLiteTensor pointer arrays and, per input and output, its TfLiteTensor and, when
 *      quantized, its TfLiteAffineQuantization and zero point array.
 * arena_used_bytes() is then the head plus the tail. Both depend on S modulo 16 through the tail's padding: `used`
 * is given for S a multiple of 16, `smallest` is the least S for which every step succeeds: the least multiple of 16
 * from one pass (least16), then a binary search over the 15 sizes below it (feasibility is monotone in S). One
 * recording (aplan_tflm_record) answers every planner, one arena or two (EV_WHEN), and any planned section.
 */
#include "formats/tflm_internal.h"

#include "core/internal.h"

enum { OP_CUSTOM = 32 };

/* ---- The targets ------------------------------------------------------------------------------------------------ */

typedef struct sized {
    uint16_t size, align;
} sized;

/* sizeof / alignof of TFLM's types on each target, measured by compiling TFLM's headers at APLAN_TFLM_COMMIT with
 * arm-linux-gnueabihf-g++ and x86-64 g++ (TF_LITE_STATIC_MEMORY). */
typedef struct target {
    unsigned ptr;
    sized arena_allocator;        /* SingleArenaBufferAllocator */
    sized greedy_planner;         /* GreedyMemoryPlanner */
    sized micro_allocator;        /* MicroAllocator */
    sized builtin_data_allocator; /* MicroBuiltinDataAllocator (micro_allocator.cc: a vtable and one pointer) */
    sized subgraph_allocations;   /* SubgraphAllocations */
    sized eval_tensor;            /* TfLiteEvalTensor */
    sized node_and_registration;  /* NodeAndRegistration */
    sized scratch_request;        /* internal::ScratchBufferRequest */
    sized scratch_handle;         /* ScratchBufferHandle */
    sized tensor;                 /* TfLiteTensor */
    sized affine_quantization;    /* TfLiteAffineQuantization */
    sized allocation_info;        /* AllocationInfo */
    sized size_type;              /* size_t */
    sized persistent_allocator;   /* PersistentArenaBufferAllocator (two arenas) */
    sized non_persistent_allocator; /* NonPersistentArenaBufferAllocator (two arenas) */
} target;

static const target targets[2] = {
    {4u, {36, 4}, {44, 4}, {36, 4}, {8, 4}, {8, 4}, {12, 4}, {32, 4}, {12, 4}, {4, 4}, {40, 4}, {12, 4}, {24, 4},
     {4, 4}, {16, 4}, {32, 4}},
    {8u, {72, 8}, {72, 8}, {72, 8}, {16, 8}, {16, 8}, {24, 8}, {64, 8}, {16, 8}, {8, 8}, {64, 8}, {24, 8}, {32, 8},
     {8, 8}, {32, 8}, {56, 8}},
};

#define ARENA_ALIGN 16u          /* MicroArenaBufferAlignment() */
#define MAX_REQUESTS_PER_OP 12u  /* kMaxScratchBuffersPerOp */
#define GREEDY_PER_BUFFER 40u    /* GreedyMemoryPlanner::per_buffer_size(): 4 ints of BufferRequirements, 2 ints,
                                    a ListEntry of 3 ints and an int offset (the same on both targets) */
#define INT_ARRAY(n) (4u + 4u * (uint64_t)(n)) /* TfLiteIntArrayGetSizeInBytes(n), alignof 4 */

/* ---- Events ----------------------------------------------------------------------------------------------------- */

enum {
    EV_PERSISTENT, /* size, align, part */
    EV_TEMP,       /* size, align */
    EV_REQUEST,    /* a scratch request of size bytes */
    EV_HEAD,       /* the head's resizable buffer set to size bytes (align): the scratch request array */
    EV_NODE_END,   /* temporaries released; the request array regrown to size bytes (the requests so far + 12) */
    EV_VARIABLE,   /* a variable tensor's buffer, persistent unless the plan holds it; op is its global index */
    EV_PLAN,       /* the planner's Init takes what is left; then the head becomes the planned section */
    EV_WHEN,       /* a persistent allocation (size, align, part) made only where condition `op` (WHEN_) holds */
};

/* EV_WHEN's conditions: one recording serves one arena and two, every planner. */
enum { WHEN_ONE_ARENA, WHEN_TWO_ARENAS, WHEN_PLANNER_IN_ARENA };

enum { PART_TFLM, PART_EVAL, PART_NODES, PART_PARAMS, PART_OP_DATA, PART_VARIABLES, PART_HANDLES, PART_IO };

typedef struct event {
    uint8_t kind;
    uint8_t part;
    uint16_t align;
    uint32_t op; /* global operator index, for the per-operator costs; UINT32_MAX for none */
    uint64_t size;
} event;

/* What a recording pass finds besides its events, kept in the recording (aplan_tflm_record) for every question. */
typedef struct findings {
    uint32_t unknown;      /* operators the kernel table lacks, counted in the parser's pass, and the first */
    uint32_t first_unknown_subgraph, first_unknown_op;
    uint32_t refused;      /* operators whose Prepare fails (aplan__tflm_refuse), counted in Prepare's pass */
    uint32_t first_refused_subgraph, first_refused_op, refusal;
    /* The first allocation whose size passes 2^64 - 1 (aplan__tflm_persistent_rows): which operator, its kernel,
     * the product's factors. Such an event saturates, so the arena then passes 2^64 - 1 (not computable). */
    bool overflow;
    uint32_t overflow_subgraph, overflow_op;
    const char *overflow_kernel;
    uint64_t overflow_rows, overflow_bytes;
} findings;

typedef struct recorder {
    const void *model;
    size_t model_size;
    const target *t;
    event *events;         /* NULL while counting; else event_capacity entries, past which events are counted only */
    size_t event_capacity;
    size_t count;
    const uint32_t *op_lower; /* per global operator: the first step it runs at and one past the last (NULL:
                                 requests not wanted) */
    const uint32_t *op_upper;
    aplan_tflm_scratch *requests; /* NULL: not wanted */
    uint8_t *known;               /* NULL: not wanted; else a bit per global operator, set when its kernel is known */
    size_t request_capacity;
    size_t request_count;
    findings f;
    aplan_status status;   /* the first failure of a lookup, kept */
    aplan_format_error *error;
    aplan_format_error spare; /* what lookups after the first failure write to (err) */
    bool cmsis;               /* CMSIS-NN's kernels first */
    unsigned isa;             /* aplan_tflm_isa */
    /* The pass's work (APLAN_TFLM_WORK_PER_BYTE): the reader's units of every look-up, one per event, and the
     * custom options' key searches; over budget, the pass fails (over_budget). */
    uint64_t work, budget;
    bool over;             /* the budget ran out: at over_op of over_subgraph (UINT32_MAX: outside the operators),
                              whose entry is at byte over_at, its kernel over_name (or NULL) */
    uint32_t over_subgraph, over_op;
    size_t over_at;
    const char *over_name;
    /* Custom options' values by key, once per distinct options vector (its position) and key: a direct-mapped
     * cache, so that operators sharing one vector (a FlatBuffer may point thousands at it) search its map once. */
    struct {
        const char *data; /* the vector's first byte in the model; NULL: empty slot */
        size_t size;
        const char *key;  /* the kernel's static key */
        int32_t value;
    } options_cache[16];
} recorder;

/* Work units per event: each costs the replays that follow about what four of the reader's units cost (an arena
 * question passes over the events six times, and the aplan tool asks a model up to seven: its own planner's arena,
 * a plan embedded, compiled in, by the adapter, the breakdown, the capacity's and the two arenas'), so a model
 * cannot make the replays slow within the budget. */
#define EVENT_UNITS 4u
/* Units per scratch request, beyond its event: each becomes a buffer its caller plans (the aplan tool: every
 * strategy, the bound, the verifier, the report), at a cost per buffer some 60 units of the reader's pay for. */
#define REQUEST_UNITS 512u

static void put(recorder *r, uint8_t kind, uint8_t part, uint64_t size, uint64_t align, uint32_t op) {
    r->work += EVENT_UNITS;
    if (r->events != NULL && r->count < r->event_capacity) {
        event *e = &r->events[r->count];
        e->kind = kind;
        e->part = part;
        e->align = (uint16_t)align;
        e->op = op;
        e->size = size;
    }
    r->count++;
}

/* ---- The node view ---------------------------------------------------------------------------------------------- */

struct aplan__tflm_node {
    recorder *r;
    aplan__tflite_cursor *cursor; /* the operator's subgraph, open for its look-ups */
    const aplan__tflm_kernel *kernel; /* its table entry, NULL when unknown */
    uint32_t subgraph, op, global;
    aplan_tflite_operator_info info;
    aplan_tflite_options_info options;
    bool have_options;
    uint32_t requests; /* of this operator so far */
};

unsigned aplan__tflm_ptr(const aplan__tflm_node *n) { return n->r->t->ptr; }
unsigned aplan__tflm_isa(const aplan__tflm_node *n) { return n->r->isa; }
uint32_t aplan__tflm_inputs(const aplan__tflm_node *n) { return n->info.inputs.count; }
uint32_t aplan__tflm_outputs(const aplan__tflm_node *n) { return n->info.outputs.count; }

/* Where a lookup writes its error: the caller's until the first failure, then a spare, so that the error kept is
 * the first failure's (the status keep() keeps), not a later lookup's success clearing it. */
static aplan_format_error *err(recorder *r) { return r->status == APLAN_OK ? r->error : &r->spare; }

static void keep(recorder *r, aplan_status st) {
    if (st != APLAN_OK && r->status == APLAN_OK) r->status = st;
}

/* A name to give an operator in a message: its kernel's custom code or, for a builtin, the reader's static name
 * (NUL-terminated); NULL when the table lacks it (a custom code of the model's own is not printed: any length). */
static const char *kernel_name(const aplan__tflm_kernel *k, const aplan_tflite_operator_info *info) {
    if (k == NULL) return NULL;
    return k->custom != NULL ? k->custom : info->custom ? NULL : info->name.data;
}

/* The pass's work checked against its budget, after a look-up or a kernel's step at operator op of subgraph s
 * (position: its entry's byte; name: NULL or its kernel's): once over, the pass fails with
 * APLAN_E_FORMAT_UNSUPPORTED naming the operator. Each look-up is bounded by the reader's own budget, so a pass
 * does at most its budget plus one look-up's. O(1). */
static bool over_budget(recorder *r, size_t position, uint32_t s, uint32_t op, const char *name) {
    if (r->work <= r->budget || r->status != APLAN_OK) return r->status != APLAN_OK;
    r->status = APLAN_E_FORMAT_UNSUPPORTED;
    r->over = true;
    r->over_subgraph = s;
    r->over_op = op;
    r->over_at = position;
    r->over_name = name;
    return true;
}

/* The error of a pass whose budget ran out (written once the walk is over: the reader's calls clear the error they
 * are given when their own look-ups succeed). */
static void report_over(recorder *r) {
    aplan_format_error *e = r->error;
    APLAN_MEMSET(e, 0, sizeof *e);
    e->status = APLAN_E_FORMAT_UNSUPPORTED;
    e->byte_offset = r->over_at;
    aplan__text w = {e->message, sizeof e->message, 0};
    if (r->over_op != UINT32_MAX)
        aplan__putf(&w, "op %u of subgraph %u%s%s%s: ", (uint64_t)r->over_op, (uint64_t)r->over_subgraph,
                    r->over_name != NULL ? " (" : "", r->over_name != NULL ? r->over_name : "",
                    r->over_name != NULL ? ")" : "");
    aplan__putf(&w, "arena model's work budget (%u per byte + %u) exceeded", (uint64_t)APLAN_TFLM_WORK_PER_BYTE,
                (uint64_t)APLAN_TFLM_WORK_BASE);
}

/* over_budget at node n's operator. */
static bool node_over(aplan__tflm_node *n) {
    return over_budget(n->r, aplan__tflite_cursor_position(n->cursor, n->op), n->subgraph, n->op,
                       kernel_name(n->kernel, &n->info));
}

static const aplan_tflite_options_info *options(aplan__tflm_node *n) {
    if (!n->have_options && n->r->status == APLAN_OK) { /* once failed, a pass looks nothing up */
        keep(n->r, aplan__tflite_cursor_options(n->cursor, n->op, &n->options));
        n->have_options = true;
        (void)node_over(n);
    }
    return &n->options;
}

bool aplan__tflm_has_options(aplan__tflm_node *n) { return options(n)->has_table; }

uint32_t aplan__tflm_intermediates(const aplan__tflm_node *n) {
    return options((aplan__tflm_node *)n)->intermediates.count;
}

static aplan__tflm_tensor tensor_at(aplan__tflm_node *n, aplan_tflite_indices list, uint32_t k) {
    aplan__tflm_tensor t;
    APLAN_MEMSET(&t, 0, sizeof t);
    if (k >= list.count || n->r->status != APLAN_OK) return t;
    const int32_t index = aplan_tflite_index_at(list, k);
    if (index < 0) return t;
    aplan_tflite_tensor_info info;
    const aplan_status st = aplan__tflite_cursor_tensor(n->cursor, (uint32_t)index, &info);
    keep(n->r, st);
    if (st != APLAN_OK || node_over(n)) return t;
    t.present = true;
    t.constant = info.constant;
    t.variable = info.is_variable;
    t.type = info.type;
    t.rank = info.rank;
    for (uint32_t i = 0; i < info.rank && i < APLAN_TFLITE_MAX_RANK; i++) t.dims[i] = info.shape[i];
    t.elements = info.elements;
    t.bytes = info.has_size ? info.size : 0;
    t.scales = info.quant_scales;
    t.zero_points = info.quant_zero_points;
    return t;
}

aplan__tflm_tensor aplan__tflm_input(aplan__tflm_node *n, uint32_t k) { return tensor_at(n, n->info.inputs, k); }
aplan__tflm_tensor aplan__tflm_output(aplan__tflm_node *n, uint32_t k) { return tensor_at(n, n->info.outputs, k); }
aplan__tflm_tensor aplan__tflm_intermediate(aplan__tflm_node *n, uint32_t k) {
    return tensor_at(n, options(n)->intermediates, k);
}

int64_t aplan__tflm_option(aplan__tflm_node *n, unsigned field, unsigned width, bool is_signed, int64_t def) {
    int64_t v = def;
    if (n->r->status != APLAN_OK) return v;
    keep(n->r, aplan__tflite_cursor_option(n->cursor, n->op, field, width, is_signed, def, &v));
    (void)node_over(n);
    return v;
}

/* The flexbuffer reader: just enough of the format to read element i of a root map as TFLM's FlexbufferWrapper
 * does (flexbuffers.h: the root's value, packed type and byte width end the buffer; a map's values vector starts
 * where its offset points, its length in the slot before it; ElementAsInt32(i) reads slot i as a signed integer of
 * the vector's width, whatever the element's type, and truncates it to 32 bits). Every read is bounds-checked; a
 * root that is not a map, or a slot past its end, gives 0 (TFLM would read past the options there). */
enum { FBT_MAP = 9 };

static bool fb_uint(const unsigned char *p, size_t size, size_t at, unsigned width, uint64_t *out) {
    if (width != 1u && width != 2u && width != 4u && width != 8u) return false;
    if (at > size || size - at < width) return false;
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++) v |= (uint64_t)p[at + i] << (8u * i);
    *out = v;
    return true;
}

/* The root map of the custom options: where its values start, their width and count. false when the options are
 * not a map. */
typedef struct fb_map {
    const unsigned char *p;
    size_t size, values;
    unsigned width;
    uint64_t count;
} fb_map;

static bool fb_root_map(aplan__tflm_node *n, fb_map *m) {
    const aplan_tflite_text c = options(n)->custom;
    m->p = (const unsigned char *)c.data;
    m->size = c.size;
    if (m->p == NULL || m->size < 3u) return false;
    const unsigned root_width = m->p[m->size - 1u];
    const unsigned root_packed = m->p[m->size - 2u];
    uint64_t back;
    if (root_width == 0 || m->size - 2u < root_width || (root_packed >> 2) != FBT_MAP) return false;
    const size_t root_at = m->size - 2u - root_width;
    if (!fb_uint(m->p, m->size, root_at, root_width, &back) || back > root_at) return false;
    m->values = root_at - (size_t)back;
    m->width = 1u << (root_packed & 3u);
    return m->values >= m->width && fb_uint(m->p, m->size, m->values - m->width, m->width, &m->count);
}

/* Two's complement of the low `bits` of v, truncated to 32 bits as TFLM's int64-to-int32 casts do on its targets. */
static int32_t fb_int32(uint64_t v, unsigned bits) {
    uint32_t low = (uint32_t)v;
    if (bits < 32u && (low >> (bits - 1u)) != 0) low |= ~(uint32_t)0 << bits;
    return low > (uint32_t)INT32_MAX ? -(int32_t)(~low) - 1 : (int32_t)low;
}

int32_t aplan__tflm_custom_int(aplan__tflm_node *n, uint32_t index) {
    fb_map m;
    uint64_t raw;
    if (!fb_root_map(n, &m) || index >= m.count ||
        !fb_uint(m.p, m.size, m.values + (size_t)index * m.width, m.width, &raw))
        return 0;
    return fb_int32(raw, 8u * m.width);
}

/* A float or double's value as int32, as C++'s conversion gives it where defined; 0 elsewhere (NaN, out of range). */
static int32_t fb_float32(uint64_t raw, unsigned width) {
    double d = 0;
    if (width == 4u) {
        const uint32_t u = (uint32_t)raw;
        float f;
        APLAN_MEMCPY(&f, &u, sizeof f);
        d = (double)f;
    } else if (width == 8u) {
        APLAN_MEMCPY(&d, &raw, sizeof d);
    }
    return d > -2147483649.0 && d < 2147483648.0 ? (int32_t)d : 0;
}

/* strcmp(key, the NUL-terminated key text at byte `text` of the map) as flexbuffers' KeyCompare makes it; false when
 * the text runs past the options (TFLM would read on). At most strlen(key) + 1 bytes compared. */
static bool fb_key_compare(const fb_map *m, size_t text, const char *key, int *order) {
    for (size_t k = 0;; k++) {
        if (text > m->size || m->size - text <= k) return false;
        const unsigned a = (unsigned char)key[k], b = m->p[text + k];
        if (a != b || a == 0u) {
            *order = a < b ? -1 : a > b ? 1 : 0;
            return true;
        }
    }
}

/* The value of element i of the map as Reference::AsInt32 converts it. */
static int32_t fb_value(const fb_map *m, uint64_t i) {
    enum { INT = 1, UINT = 2, FLOAT = 3, INDIRECT_INT = 6, INDIRECT_UINT = 7, INDIRECT_FLOAT = 8, BOOL = 26 };
    uint64_t raw;
    const size_t slot = m->values + (size_t)i * m->width;
    const size_t types = m->values + (size_t)m->count * m->width;
    if (types > m->size || m->size - types <= i || !fb_uint(m->p, m->size, slot, m->width, &raw)) return 0;
    const unsigned packed = m->p[types + (size_t)i];
    const unsigned type = packed >> 2, child = 1u << (packed & 3u);
    switch (type) {
    case INT: return fb_int32(raw, 8u * m->width);
    case UINT:
    case BOOL: return fb_int32(raw, 64u);
    case FLOAT: return fb_float32(raw, m->width);
    case INDIRECT_INT:
    case INDIRECT_UINT:
    case INDIRECT_FLOAT: {
        uint64_t v;
        if (raw > slot || !fb_uint(m->p, m->size, slot - (size_t)raw, child, &v)) return 0;
        if (type == INDIRECT_FLOAT) return fb_float32(v, child);
        return fb_int32(v, type == INDIRECT_INT ? 8u * child : 64u);
    }
    default: return 0;
    }
}

/* The search itself: Map::operator[]'s std::bsearch over the keys vector (glibc's halving, so that a map whose keys
 * are out of order, which no FlexBuffers builder writes, gives what TFLM's would), then Vector::operator[] on the
 * values (0 past their count). *probes counts the keys compared. */
static int32_t fb_find(const fb_map *m, const char *key, uint64_t *probes) {
    uint64_t keys_back, key_width, keys_len;
    if (m->values < 3u * m->width || !fb_uint(m->p, m->size, m->values - 3u * m->width, m->width, &keys_back) ||
        !fb_uint(m->p, m->size, m->values - 2u * m->width, m->width, &key_width) ||
        keys_back > m->values - 3u * m->width)
        return 0;
    const size_t keys = m->values - 3u * m->width - (size_t)keys_back;
    if (keys < key_width || !fb_uint(m->p, m->size, keys - (size_t)key_width, (unsigned)key_width, &keys_len) ||
        keys_len > m->size)
        return 0;
    uint64_t lo = 0, hi = keys_len;
    while (lo < hi) { /* O(log keys_len) probes, each O(strlen(key)) */
        const uint64_t mid = (lo + hi) / 2u;
        const size_t at = keys + (size_t)mid * (size_t)key_width;
        uint64_t back;
        int order;
        ++*probes;
        if (!fb_uint(m->p, m->size, at, (unsigned)key_width, &back) || back > at ||
            !fb_key_compare(m, at - (size_t)back, key, &order))
            return 0;
        if (order < 0) hi = mid;
        else if (order > 0) lo = mid + 1u;
        else return mid < m->count ? fb_value(m, mid) : 0;
    }
    return 0;
}

int32_t aplan__tflm_custom_key(aplan__tflm_node *n, const char *key) {
    recorder *r = n->r;
    const aplan_tflite_text c = options(n)->custom;
    if (r->status != APLAN_OK) return 0;
    const size_t slot = (size_t)((((uintptr_t)c.data >> 2) ^ ((uintptr_t)key >> 3)) & 15u);
    r->work++;
    if (c.data != NULL && r->options_cache[slot].data == c.data && r->options_cache[slot].size == c.size &&
        r->options_cache[slot].key == key)
        return r->options_cache[slot].value;
    fb_map m;
    uint64_t probes = 0;
    const int32_t value = fb_root_map(n, &m) ? fb_find(&m, key, &probes) : 0;
    size_t length = 0;
    while (key[length] != '\0') length++;
    r->work += probes * (length + 2u); /* each probe: its key's offset, then up to length + 1 bytes */
    (void)node_over(n);
    if (c.data != NULL) {
        r->options_cache[slot].data = c.data;
        r->options_cache[slot].size = c.size;
        r->options_cache[slot].key = key;
        r->options_cache[slot].value = value;
    }
    return value;
}

void aplan__tflm_persistent(aplan__tflm_node *n, uint64_t bytes) {
    put(n->r, EV_PERSISTENT, PART_OP_DATA, bytes, ARENA_ALIGN, n->global);
}

/* Why one event is the loop's: the tail after the first buffer is 16-aligned, so each further align_down(tail -
 * bytes, 16) moves it by bytes rounded up to 16, and the last lands where one allocation of the sum would (two
 * arenas alike: used = align_up(used + bytes, 16) grows by the same). Every check the loop's allocations make holds
 * for all of them iff it holds for the last. */
void aplan__tflm_persistent_rows(aplan__tflm_node *n, uint64_t rows, uint64_t bytes) {
    recorder *r = n->r;
    if (rows == 0) return;
    uint64_t rounded, rest, total;
    if (!aplan__align_up(bytes, ARENA_ALIGN, &rounded) || __builtin_mul_overflow(rows - 1u, rounded, &rest) ||
        !aplan__add(bytes, rest, &total)) {
        total = UINT64_MAX; /* the replay fails, and the message names this allocation */
        if (!r->f.overflow) {
            r->f.overflow = true;
            r->f.overflow_subgraph = n->subgraph;
            r->f.overflow_op = n->op;
            r->f.overflow_kernel = kernel_name(n->kernel, &n->info);
            r->f.overflow_rows = rows;
            r->f.overflow_bytes = bytes;
        }
    }
    put(r, EV_PERSISTENT, PART_OP_DATA, total, ARENA_ALIGN, n->global);
}

void aplan__tflm_refuse(aplan__tflm_node *n, aplan_tflm_refusal reason, uint8_t a, uint8_t b) {
    recorder *r = n->r;
    if (r->f.refused++ == 0) {
        r->f.first_refused_subgraph = n->subgraph;
        r->f.first_refused_op = n->op;
        r->f.refusal = (uint32_t)reason | (uint32_t)a << 8 | (uint32_t)b << 16;
    }
}

void aplan__tflm_scratch(aplan__tflm_node *n, uint64_t bytes) {
    recorder *r = n->r;
    if (r->op_lower != NULL && r->requests != NULL && r->request_count < r->request_capacity) {
        aplan_tflm_scratch *q = &r->requests[r->request_count];
        APLAN_MEMSET(q, 0, sizeof *q);
        q->subgraph = n->subgraph;
        q->op = n->op;
        q->index = n->requests;
        q->buffer.size = bytes;
        q->buffer.lower = r->op_lower[n->global];
        q->buffer.upper = r->op_upper[n->global];
        q->buffer.offset = APLAN_NO_OFFSET;
    }
    r->request_count++;
    r->work += REQUEST_UNITS;
    n->requests++;
    put(r, EV_REQUEST, 0, bytes, 0, n->global);
}

/* TfLiteTensor, and for a quantized one its TfLiteAffineQuantization and zero point array: temporary or persistent
 * (micro_allocator.cc, InitializeTfLiteTensorFromFlatbuffer). */
static void tensor_struct(recorder *r, const aplan__tflm_tensor *t, uint8_t kind, uint8_t part, uint32_t op) {
    put(r, kind, part, r->t->tensor.size, r->t->tensor.align, op);
    if (t->scales > 0 && t->zero_points > 0) {
        put(r, kind, part, r->t->affine_quantization.size, r->t->affine_quantization.align, op);
        put(r, kind, part, INT_ARRAY(t->scales), 4u, op);
    }
}

static void temp_tensor(aplan__tflm_node *n, aplan__tflm_tensor t) {
    if (t.present) tensor_struct(n->r, &t, EV_TEMP, 0, n->global);
}

void aplan__tflm_temp_input(aplan__tflm_node *n, uint32_t k) { temp_tensor(n, aplan__tflm_input(n, k)); }
void aplan__tflm_temp_output(aplan__tflm_node *n, uint32_t k) { temp_tensor(n, aplan__tflm_output(n, k)); }
void aplan__tflm_temp_intermediate(aplan__tflm_node *n, uint32_t k) {
    temp_tensor(n, aplan__tflm_intermediate(n, k));
}
void aplan__tflm_temp_buffer(aplan__tflm_node *n, uint64_t bytes, uint64_t align) {
    put(n->r, EV_TEMP, 0, bytes, align, n->global);
}

/* ---- The walk --------------------------------------------------------------------------------------------------- */

/* Compare a table entry's custom code with the model's, as TFLM's op resolver does (strcmp: the model's string ends
 * at its first NUL). */
static int compare_custom(const char *a, aplan_tflite_text b) {
    size_t i = 0;
    for (;; i++) {
        const unsigned ca = (unsigned char)a[i];
        const unsigned cb = i < b.size ? (unsigned char)b.data[i] : 0u;
        if (ca != cb || ca == 0u) return ca < cb ? -1 : ca > cb ? 1 : 0;
    }
}

/* A table's entry for an operator, or NULL: a binary search by code, then by custom code. O(log table). */
static const aplan__tflm_kernel *search(const aplan__tflm_kernel *table, size_t count,
                                        const aplan_tflite_operator_info *op) {
    size_t lo = 0, hi = count;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2u;
        const aplan__tflm_kernel *k = &table[mid];
        int c = k->code < op->builtin_code ? -1 : k->code > op->builtin_code ? 1 : 0;
        if (c == 0 && k->custom != NULL) c = compare_custom(k->custom, op->name);
        if (c == 0) return k;
        if (c < 0) lo = mid + 1u;
        else hi = mid;
    }
    return NULL;
}

/* The kernel that runs an operator: CMSIS-NN's when the build has one for it, else the reference one; NULL when
 * neither table knows it. */
static const aplan__tflm_kernel *find_kernel(const recorder *r, const aplan_tflite_operator_info *op) {
    const aplan__tflm_kernel *k =
        r->cmsis ? search(aplan__tflm_cmsis_kernels, aplan__tflm_cmsis_kernel_count, op) : NULL;
    return k != NULL ? k : search(aplan__tflm_kernels, aplan__tflm_kernel_count, op);
}

/* Per subgraph, what the walk needs from aplan_tflite_subgraph. */
typedef struct walk {
    recorder *r;
    uint32_t subgraphs;
    uint64_t tensors;   /* over all subgraphs */
    uint64_t operators;
} walk;

/* One pass over every operator of every subgraph (subgraph 0 first, operators in order), as TFLM's interpreter
 * makes each of its passes. phase 0: the builtin data parser; 1: Init; 2: Prepare and the node's end. */
typedef struct op_pass {
    recorder *r;
    unsigned phase;
    uint32_t s;
    uint32_t global; /* over all subgraphs, of the next operator */
} op_pass;

static bool visit(void *context, aplan__tflite_cursor *cursor, uint32_t op, const aplan_tflite_operator_info *info) {
    op_pass *p = context;
    recorder *r = p->r;
    const unsigned phase = p->phase;
    const uint32_t s = p->s, global = p->global++;
    aplan__tflm_node n;
    APLAN_MEMSET(&n, 0, sizeof n);
    n.r = r;
    n.cursor = cursor;
    n.subgraph = s;
    n.op = op;
    n.global = global;
    n.info = *info;
    const aplan__tflm_kernel *k = find_kernel(r, &n.info);
    n.kernel = k;
    if (node_over(&n)) return false; /* the operator's own look-up, and the events and look-ups before it */
    if (phase == 0u && k != NULL && r->known != NULL) r->known[global / 8u] |= (uint8_t)(1u << (global % 8u));
    if (phase == 0u && k == NULL) {
        if (r->f.unknown++ == 0) {
            r->f.first_unknown_subgraph = s;
            r->f.first_unknown_op = op;
        }
    }
    const unsigned abi = r->t->ptr == 8u;
    if (phase == 0u && k != NULL && k->params[abi] != 0)
        put(r, EV_PERSISTENT, PART_PARAMS, k->params[abi], k->params_align[abi], global);
    if (phase == 1u && k != NULL && k->op_data[abi] != 0) aplan__tflm_persistent(&n, k->op_data[abi]);
    if (phase == 1u && k != NULL && k->init != NULL) k->init(&n);
    if (phase == 2u) {
        if (k != NULL && k->prepare != NULL) k->prepare(&n);
        put(r, EV_NODE_END, 0, ((uint64_t)r->request_count + MAX_REQUESTS_PER_OP) * r->t->scratch_request.size,
            r->t->scratch_request.align, global);
    }
    return !node_over(&n);
}

static void each_operator(walk *w, unsigned phase) {
    recorder *r = w->r;
    op_pass p = {r, phase, 0, 0};
    for (p.s = 0; p.s < w->subgraphs && r->status == APLAN_OK; p.s++)
        keep(r, aplan__tflite_each_operator(r->model, r->model_size, p.s, visit, &p, &r->work, err(r)));
}

/* The input or output TfLiteTensors of subgraph 0 the interpreter keeps: the pointer array, then each tensor (a
 * tensor listed twice is kept twice). */
static bool io_tensor(void *context, uint32_t k, const aplan_tflite_tensor_info *info) {
    recorder *r = context;
    (void)k;
    aplan__tflm_tensor t;
    APLAN_MEMSET(&t, 0, sizeof t);
    t.scales = info->quant_scales;
    t.zero_points = info->quant_zero_points;
    tensor_struct(r, &t, EV_PERSISTENT, PART_IO, UINT32_MAX);
    return !over_budget(r, 0, 0, UINT32_MAX, NULL);
}

static void io_tensors(walk *w, bool outputs) {
    recorder *r = w->r;
    aplan_tflite_subgraph_info sg;
    keep(r, aplan_tflite_subgraph(r->model, r->model_size, 0, &sg, err(r)));
    if (r->status != APLAN_OK) return;
    const aplan_tflite_indices list = outputs ? sg.outputs : sg.inputs;
    put(r, EV_PERSISTENT, PART_TFLM, (uint64_t)r->t->ptr * list.count, ARENA_ALIGN, UINT32_MAX);
    keep(r, aplan__tflite_each_io(r->model, r->model_size, 0, outputs, io_tensor, r, &r->work, err(r)));
}

/* record's scan of every tensor for the variables: global is the index over all subgraphs of the subgraph's first. */
typedef struct variables {
    recorder *r;
    uint32_t global;
} variables;

static bool variable(void *context, uint32_t tensor, const aplan_tflite_tensor_info *info) {
    variables *v = context;
    if (info->is_variable)
        put(v->r, EV_VARIABLE, PART_VARIABLES, info->has_size ? info->size : UINT64_MAX, ARENA_ALIGN, v->global + tensor);
    return !over_budget(v->r, 0, 0, UINT32_MAX, NULL);
}

/* The whole of AllocateTensors() as events (see the file's opening comment). With r->events NULL it only counts. */
static void record(walk *w) {
    recorder *r = w->r;
    const target *t = r->t;
    const uint32_t none = UINT32_MAX;
    r->work = 0;
    r->over = false;
    r->f.overflow = false;
    /* One arena's allocator object, or two arenas': the persistent one, then the non-persistent one, both in the
     * tail; then TFLM's planner when it lives in the arena. */
    put(r, EV_WHEN, PART_TFLM, t->arena_allocator.size, t->arena_allocator.align, WHEN_ONE_ARENA);
    put(r, EV_WHEN, PART_TFLM, t->persistent_allocator.size, t->persistent_allocator.align, WHEN_TWO_ARENAS);
    put(r, EV_WHEN, PART_TFLM, t->non_persistent_allocator.size, t->non_persistent_allocator.align, WHEN_TWO_ARENAS);
    put(r, EV_WHEN, PART_TFLM, t->greedy_planner.size, t->greedy_planner.align, WHEN_PLANNER_IN_ARENA);
    put(r, EV_PERSISTENT, PART_TFLM, t->micro_allocator.size, t->micro_allocator.align, none);
    put(r, EV_PERSISTENT, PART_TFLM, t->builtin_data_allocator.size, t->builtin_data_allocator.align, none);
    put(r, EV_HEAD, 0, (uint64_t)MAX_REQUESTS_PER_OP * t->scratch_request.size, t->scratch_request.align, none);
    put(r, EV_PERSISTENT, PART_TFLM, (uint64_t)t->subgraph_allocations.size * w->subgraphs,
        t->subgraph_allocations.align, none);
    for (unsigned pass = 0; pass < 2u; pass++) { /* every subgraph's eval tensors, then every subgraph's nodes */
        for (uint32_t s = 0; s < w->subgraphs && r->status == APLAN_OK; s++) {
            aplan_tflite_subgraph_info sg;
            keep(r, aplan_tflite_subgraph(r->model, r->model_size, s, &sg, err(r)));
            if (pass == 0u)
                put(r, EV_PERSISTENT, PART_EVAL, (uint64_t)t->eval_tensor.size * sg.tensor_count, t->eval_tensor.align,
                    none);
            else
                put(r, EV_PERSISTENT, PART_NODES, (uint64_t)t->node_and_registration.size * sg.operator_count,
                    t->node_and_registration.align, none);
        }
    }
    for (unsigned phase = 0; phase < 3u; phase++) each_operator(w, phase);
    if (r->status != APLAN_OK) {
        if (r->over) report_over(r);
        return;
    }
    if (r->request_count > 0)
        put(r, EV_PERSISTENT, PART_HANDLES, (uint64_t)t->scratch_handle.size * r->request_count,
            t->scratch_handle.align, none);
    put(r, EV_TEMP, 0, (uint64_t)t->size_type.size * w->subgraphs, t->size_type.align, none);
    put(r, EV_TEMP, 0, (uint64_t)t->allocation_info.size * (w->tensors + r->request_count), t->allocation_info.align,
        none);
    variables v = {r, 0};
    for (uint32_t s = 0; s < w->subgraphs && r->status == APLAN_OK; s++) {
        aplan_tflite_subgraph_info sg;
        keep(r, aplan_tflite_subgraph(r->model, r->model_size, s, &sg, err(r)));
        if (r->status == APLAN_OK)
            keep(r, aplan__tflite_each_tensor(r->model, r->model_size, s, variable, &v, &r->work, err(r)));
        v.global += sg.tensor_count;
    }
    put(r, EV_PLAN, 0, 0, ARENA_ALIGN, none);
    io_tensors(w, false);
    io_tensors(w, true);
    if (r->over) report_over(r);
}

/* ---- The replay ------------------------------------------------------------------------------------------------- */

/* What the replay is asked: the planned section and what the planner needs, and where the results go. */
typedef struct replay_in {
    const event *events;
    size_t count;
    const uint8_t *planned_bits; /* per global tensor: in the plan (a variable there is not persistent) */
    uint64_t planned;            /* the section's bytes */
    uint64_t buffers;            /* buffers the planner is given: tensors and scratch requests */
    uint32_t planner;
    uint64_t planner_scratch;
    bool two_arenas;             /* MicroAllocator::Create(persistent, P, non_persistent, NP): two allocator objects */
} replay_in;

typedef struct replay_out {
    uint64_t used;
    uint64_t parts[8];           /* tail bytes (with padding) per PART_ */
    aplan_tflm_op_cost *costs;   /* NULL or capacity entries */
    size_t capacity;
} replay_out;

static bool bit(const uint8_t *bits, uint32_t i) { return (bits[i / 8u] >> (i % 8u) & 1u) != 0; }

/* Whether a persistent event allocates for the question asked: a variable the plan holds does not, an EV_WHEN only
 * where its condition holds. */
static bool made(const replay_in *in, const event *e) {
    if (e->kind == EV_VARIABLE) return !bit(in->planned_bits, e->op);
    if (e->kind != EV_WHEN) return true;
    return e->op == WHEN_ONE_ARENA    ? !in->two_arenas
           : e->op == WHEN_TWO_ARENAS ? in->two_arenas
                                      : in->planner == APLAN_TFLM_GREEDY_IN_ARENA;
}

/* What the planner needs of the space left for it: TFLM's greedy planner GREEDY_PER_BUFFER bytes a buffer (a
 * product, not remaining / GREEDY_PER_BUFFER: no 64-bit division on a 32-bit core), another its own figure. false
 * past 2^64 - 1. */
static bool planner_need(const replay_in *in, uint64_t *need) {
    if (in->planner == APLAN_TFLM_OTHER_OUTSIDE) {
        *need = in->planner_scratch;
        return true;
    }
    return !__builtin_mul_overflow(in->buffers, (uint64_t)GREEDY_PER_BUFFER, need);
}

/* AllocateTensors() on an arena [0, S) (a 16-aligned start): true iff every allocation succeeds, with out filled.
 * O(events). */
static bool replay(const replay_in *in, uint64_t S, replay_out *out) {
    uint64_t head = 0, temp = 0, tail = S;
    if (out != NULL) {
        APLAN_MEMSET(out->parts, 0, sizeof out->parts);
        for (size_t i = 0; i < out->capacity; i++) {
            out->costs[i].params = out->costs[i].op_data = out->costs[i].scratch = 0;
            out->costs[i].scratch_requests = 0;
        }
    }
    for (size_t i = 0; i < in->count; i++) {
        const event *e = &in->events[i];
        switch (e->kind) {
        case EV_VARIABLE: /* a persistent buffer unless the plan holds the tensor */
        case EV_WHEN:
        case EV_PERSISTENT: {
            if (!made(in, e)) break;
            if (e->size > tail) return false;
            /* TFLM checks only the head; a buffer over live temporaries overwrites them (an LSTM's per-channel
             * arrays over its temporary tensors end in "All temp buffers must be freed" and a crash), so the
             * model counts that arena as too small. */
            const uint64_t at = (tail - e->size) & ~(uint64_t)(e->align - 1u);
            if (at < head || at < temp) return false;
            if (out != NULL) {
                out->parts[e->part] += tail - at;
                if (e->kind == EV_PERSISTENT && e->op < out->capacity) {
                    if (e->part == PART_PARAMS) out->costs[e->op].params += tail - at;
                    if (e->part == PART_OP_DATA) out->costs[e->op].op_data += tail - at;
                }
            }
            tail = at;
            break;
        }
        case EV_TEMP: {
            uint64_t at;
            if (!aplan__align_up(temp, e->align, &at) || at > tail || tail - at < e->size) return false;
            temp = at + e->size;
            break;
        }
        case EV_REQUEST:
            if (out != NULL && e->op < out->capacity) {
                out->costs[e->op].scratch += e->size; /* saturation is not needed: the requests fit the arena */
                out->costs[e->op].scratch_requests++;
            }
            break;
        case EV_NODE_END:
        case EV_HEAD: /* the resizable buffer at the head's (16-aligned) start, temporaries released first */
            if (e->size > tail) return false;
            head = temp = e->size;
            break;
        case EV_PLAN: {
            const uint64_t from = (temp + (ARENA_ALIGN - 1u)) & ~(uint64_t)(ARENA_ALIGN - 1u);
            const uint64_t to = tail & ~(uint64_t)(ARENA_ALIGN - 1u);
            if (temp > UINT64_MAX - ARENA_ALIGN || to < from) return false;
            uint64_t need; /* the planner takes the whole free space as its scratch */
            if (!planner_need(in, &need) || to - from < need) return false;
            if (in->planned > tail) return false; /* the head's buffer released, then the plan reserved */
            head = temp = in->planned;
            break;
        }
        default: break;
        }
    }
    if (out != NULL) out->used = (head > temp ? head : temp) + (S - tail);
    return true;
}

/* The least multiple of 16 replay accepts, in one pass. For S a multiple of 16 every alignment (a divisor of 16)
 * pads the tail alike, so after each event the tail's distance T from S, the head and the temporaries are the same
 * for every such S, and each check replay makes reads S >= a figure known at that event: the answer is the largest
 * of them rounded up to 16. false when it passes 2^64 - 1 (or a temporary's end does: no S works). O(events). */
static bool least16(const replay_in *in, uint64_t *out) {
    uint64_t T = 0, head = 0, temp = 0, least = 0, x;
    bool ok = true;
    for (size_t i = 0; i < in->count && ok; i++) {
        const event *e = &in->events[i];
        x = 0;
        switch (e->kind) {
        case EV_VARIABLE:
        case EV_WHEN:
        case EV_PERSISTENT: /* at = S - align_up(T + size, align), at least the head and the temporaries */
            if (!made(in, e)) break;
            ok = aplan__add(T, e->size, &T) && aplan__align_up(T, e->align, &T) &&
                 aplan__add(T, head > temp ? head : temp, &x);
            break;
        case EV_TEMP: { /* its end within the tail */
            uint64_t at;
            ok = aplan__align_up(temp, e->align, &at) && aplan__add(at, e->size, &temp) && aplan__add(T, temp, &x);
            break;
        }
        case EV_NODE_END:
        case EV_HEAD:
            head = temp = e->size;
            ok = aplan__add(T, e->size, &x);
            break;
        case EV_PLAN: { /* from the temporaries' end aligned up to the tail aligned down, the planner's need */
            uint64_t from, need, to, within;
            ok = aplan__align_up(temp, ARENA_ALIGN, &from) && planner_need(in, &need) &&
                 aplan__align_up(T, ARENA_ALIGN, &to) && aplan__add(to, from, &x) && aplan__add(x, need, &x) &&
                 aplan__add(T, in->planned, &within);
            if (ok && within > x) x = within; /* the planned section within the tail */
            head = temp = in->planned;
            break;
        }
        default: break;
        }
        if (x > least) least = x;
    }
    return ok && aplan__align_up(least, ARENA_ALIGN, out);
}

/* What the two arenas need (replay_two). */
typedef struct two_out {
    uint64_t persistent;      /* GetPersistentUsedBytes() at the end: the tail's bytes with their padding */
    uint64_t parts[8];        /* of which, per PART_ */
    uint64_t working;         /* the largest extent of the head's buffer and the temporaries (Prepare's temporary
                                 tensors and buffers, planning's AllocationInfo arrays) in the non-persistent arena */
    uint64_t planner_end;     /* where the planner's scratch must end for planning to succeed */
} two_out;

/* AllocateTensors() with two arenas, both starting 16-aligned: persistent allocations go down from the persistent
 * arena's end aligned down to 16 (PersistentArenaBufferAllocator, which checks only its own start), the head's
 * buffer, temporaries, the planner's scratch and the planned section go up from the non-persistent arena's start
 * (NonPersistentArenaBufferAllocator, which checks only its own end). Neither arena's figures depend on the other's
 * size, so one pass gives both: the persistent bytes (independent of the persistent size, its tail being aligned
 * down to 16), and every extent the non-persistent side must reach. false when a figure passes 2^64 - 1. O(events). */
static bool replay_two(const replay_in *in, two_out *out) {
    uint64_t used = 0, head = 0, temp = 0;
    APLAN_MEMSET(out, 0, sizeof *out);
    for (size_t i = 0; i < in->count; i++) {
        const event *e = &in->events[i];
        switch (e->kind) {
        case EV_VARIABLE:
        case EV_WHEN:
        case EV_PERSISTENT: {
            if (!made(in, e)) break;
            uint64_t end; /* the tail is 16-aligned and every alignment divides 16: align_down(tail - used - size) */
            if (!aplan__add(used, e->size, &end) || !aplan__align_up(end, e->align, &end)) return false;
            out->parts[e->part] += end - used;
            used = end;
            break;
        }
        case EV_TEMP: {
            uint64_t at;
            if (!aplan__align_up(temp, e->align, &at) || !aplan__add(at, e->size, &temp)) return false;
            if (temp > out->working) out->working = temp;
            break;
        }
        case EV_NODE_END:
        case EV_HEAD:
            head = temp = e->size;
            if (head > out->working) out->working = head;
            break;
        case EV_PLAN: {
            /* GetAvailableMemory: from the temporaries' end aligned up to 16 to the arena's end aligned down to 16;
             * TFLM's greedy planner needs GREEDY_PER_BUFFER bytes a buffer of it, another planner its own figure. */
            uint64_t from, need, end;
            if (!planner_need(in, &need) || !aplan__align_up(temp, ARENA_ALIGN, &from) ||
                !aplan__add(from, need, &end) || !aplan__align_up(end, ARENA_ALIGN, &end))
                return false;
            out->planner_end = end;
            head = temp = in->planned;
            break;
        }
        default: break;
        }
    }
    (void)head;
    out->persistent = used;
    return true;
}

/* ---- The calls -------------------------------------------------------------------------------------------------- */

void aplan_tflm_config_init(aplan_tflm_config *config) {
    if (config == NULL) return;
    APLAN_MEMSET(config, 0, sizeof *config);
    config->abi = APLAN_TFLM_ABI_32;
    config->planner = APLAN_TFLM_GREEDY_IN_ARENA;
}

static aplan_status arg_error(aplan_format_error *error, const char *message) {
    if (error != NULL) {
        APLAN_MEMSET(error, 0, sizeof *error);
        error->status = APLAN_E_INVALID_ARG;
        aplan__text w = {error->message, sizeof error->message, 0};
        aplan__put(&w, message);
    }
    return APLAN_E_INVALID_ARG;
}

/* What aplan_tflm_record leaves at the start of the scratch for aplan_tflm_recorded_arena: what the recording pass
 * found (the rest of the scratch is laid out as begin() says, the layout kept here). */
typedef struct recording {
    uint64_t magic; /* RECORDING_MAGIC once recorded; 0 while recording and after a failure */
    size_t tensor_base, op_base, bits, known, events;
    size_t count, request_count;
    uint32_t subgraphs;
    uint64_t tensors, operators;
    findings f;
} recording;

#define RECORDING_MAGIC UINT64_C(0x61706c616e74666c) /* "aplantfl" */

/* Where the scratch goes: the recording's header (aplan_tflm_record), per subgraph the first global tensor and
 * operator index, per global tensor a bit (in the plan), per global operator a bit (its kernel known), its first
 * step and one past its last, then the events, as many as fit (their count is known only once recorded: the
 * recording pass checks it at its end, so that no call walks the model twice). */
typedef struct layout {
    size_t head, tensor_base, op_base, bits, known, op_lower, op_upper, events;
} layout;

static bool place(size_t *at, size_t bytes, size_t *out) {
    *out = *at;
    size_t next;
    if (__builtin_add_overflow(*at, bytes, &next) || __builtin_add_overflow(next, (size_t)7u, &next)) return false;
    *at = next & ~(size_t)7u;
    return true;
}

/* A call's common start: the arguments checked, the model queried, the fixed part of the scratch laid out. */
typedef struct session {
    recorder r;
    walk w;
    aplan_format_error local;
    layout lay;
} session;

static aplan_status begin(session *x, const void *model, size_t model_size, const aplan_tflm_config *config,
                          aplan_format_error *error) {
    APLAN_MEMSET(x, 0, sizeof *x);
    if (error == NULL) error = &x->local;
    APLAN_MEMSET(error, 0, sizeof *error);
    if (model == NULL) return arg_error(error, "model is NULL");
    if (config == NULL) return arg_error(error, "config is NULL");
    if (config->abi != APLAN_TFLM_ABI_32 && config->abi != APLAN_TFLM_ABI_64)
        return arg_error(error, "config.abi is not 32 or 64");
    if (config->planner > APLAN_TFLM_OTHER_OUTSIDE) return arg_error(error, "config.planner is not a planner");
    if (config->kernels > APLAN_TFLM_KERNELS_CMSIS_NN) return arg_error(error, "config.kernels is not a kernel set");
    if (config->isa > APLAN_TFLM_ISA_DSP) return arg_error(error, "config.isa is not an instruction set modelled");
    for (size_t i = 0; i < sizeof config->reserved / sizeof config->reserved[0]; i++)
        if (config->reserved[i] != 0) return arg_error(error, "config.reserved is not zero");
    aplan_tflite_info info;
    const aplan_status st = aplan_tflite_query(model, model_size, &info, error);
    if (st != APLAN_OK) return st;
    recorder *r = &x->r;
    r->model = model;
    r->model_size = model_size;
    r->t = &targets[config->abi == APLAN_TFLM_ABI_64];
    r->cmsis = config->kernels == APLAN_TFLM_KERNELS_CMSIS_NN;
    r->isa = config->isa;
    r->error = error;
    r->f.first_unknown_subgraph = r->f.first_unknown_op = APLAN_TFLITE_NONE;
    r->f.first_refused_subgraph = r->f.first_refused_op = APLAN_TFLITE_NONE;
    if (__builtin_mul_overflow((uint64_t)APLAN_TFLM_WORK_PER_BYTE, (uint64_t)model_size, &r->budget) ||
        !aplan__add(r->budget, APLAN_TFLM_WORK_BASE, &r->budget))
        r->budget = UINT64_MAX;
    x->w.r = r;
    x->w.subgraphs = (uint32_t)info.subgraph_count;
    x->w.tensors = info.tensor_count;
    x->w.operators = info.operator_count;
    size_t at = 0;
    layout *l = &x->lay;
    const size_t subgraphs = (size_t)x->w.subgraphs + 1u;
    if (!place(&at, sizeof(recording), &l->head) || !place(&at, subgraphs * 4u, &l->tensor_base) ||
        !place(&at, subgraphs * 4u, &l->op_base) || !place(&at, (size_t)(x->w.tensors / 8u) + 1u, &l->bits) ||
        !place(&at, (size_t)(x->w.operators / 8u) + 1u, &l->known) || x->w.operators > SIZE_MAX / 8u ||
        !place(&at, (size_t)x->w.operators * 4u, &l->op_lower) ||
        !place(&at, (size_t)x->w.operators * 4u, &l->op_upper))
        return arg_error(error, "the model needs more scratch than size_t can count");
    l->events = at;
    return APLAN_OK;
}

/* The scratch the model needs once a pass has recorded (or counted) its events: what aplan_tflm_query gives, the
 * same for every layout and planner (EV_WHEN). false past SIZE_MAX. */
static bool needed(const session *x, size_t *total) {
    const recorder *r = &x->r;
    size_t at = x->lay.events, unused;
    if (r->count > SIZE_MAX / sizeof(event) || !place(&at, r->count * sizeof(event), &unused))
        return false;
    *total = at;
    return true;
}

/* The counting pass, for aplan_tflm_query and for the message of a scratch too small for even the fixed part. */
static aplan_status count(session *x, size_t *total) {
    x->r.events = NULL;
    record(&x->w);
    if (x->r.status != APLAN_OK) return x->r.status;
    if (!needed(x, total)) return arg_error(x->r.error, "the model needs more scratch than size_t can count");
    return APLAN_OK;
}

static aplan_status too_small(const session *x, size_t scratch_size, size_t total) {
    aplan_format_error *error = x->r.error;
    error->status = APLAN_E_SCRATCH_TOO_SMALL;
    aplan__text w = {error->message, sizeof error->message, 0};
    aplan__putf(&w, "scratch is %u bytes, the model needs %u", (uint64_t)scratch_size, (uint64_t)total);
    return APLAN_E_SCRATCH_TOO_SMALL;
}

/* After the recording pass: APLAN_E_SCRATCH_TOO_SMALL when its events did not all fit. */
static aplan_status recorded(const session *x, size_t scratch_size) {
    size_t total;
    if (x->r.status != APLAN_OK) return x->r.status;
    if (!needed(x, &total)) return arg_error(x->r.error, "the model needs more scratch than size_t can count");
    return total > scratch_size ? too_small(x, scratch_size, total) : APLAN_OK;
}

/* Per subgraph, the global index of its first tensor and first operator (one entry past the last: the totals). */
static aplan_status bases(session *x, unsigned char *scratch) {
    uint32_t *tb = (uint32_t *)(void *)(scratch + x->lay.tensor_base);
    uint32_t *ob = (uint32_t *)(void *)(scratch + x->lay.op_base);
    uint32_t t = 0, o = 0;
    for (uint32_t s = 0; s < x->w.subgraphs; s++) {
        aplan_tflite_subgraph_info sg;
        const aplan_status st = aplan_tflite_subgraph(x->r.model, x->r.model_size, s, &sg, x->r.error);
        if (st != APLAN_OK) return st;
        tb[s] = t;
        ob[s] = o;
        t += sg.tensor_count;
        o += sg.operator_count;
    }
    tb[x->w.subgraphs] = t;
    ob[x->w.subgraphs] = o;
    return APLAN_OK;
}

aplan_status aplan_tflm_query(const void *model, size_t model_size, const aplan_tflm_config *config,
                              size_t *scratch_size, size_t *scratch_requests, aplan_format_error *error) {
    session x;
    if (scratch_size != NULL) *scratch_size = 0;
    if (scratch_requests != NULL) *scratch_requests = 0;
    if (scratch_size == NULL || scratch_requests == NULL)
        return arg_error(error, scratch_size == NULL ? "scratch_size is NULL" : "scratch_requests is NULL");
    size_t total = 0;
    aplan_status st = begin(&x, model, model_size, config, error);
    if (st == APLAN_OK) st = count(&x, &total);
    if (st != APLAN_OK) return st;
    *scratch_size = total;
    *scratch_requests = x.r.request_count;
    return APLAN_OK;
}

/* begin, then the caller's scratch checked (its fixed part; the events' part by recorded() after the recording
 * pass), the per-subgraph bases written into it and the events placed after them, as many as fit. */
static aplan_status start(session *x, const void *model, size_t model_size, const aplan_tflm_config *config,
                          void *scratch, size_t scratch_size, aplan_format_error *error) {
    aplan_status st = begin(x, model, model_size, config, error);
    if (st != APLAN_OK) return st;
    if (scratch == NULL) return arg_error(x->r.error, "scratch is NULL");
    if (((uintptr_t)scratch & (APLAN_SCRATCH_ALIGN - 1u)) != 0) {
        aplan_format_error *e = x->r.error;
        e->status = APLAN_E_SCRATCH_MISALIGNED;
        aplan__text w = {e->message, sizeof e->message, 0};
        aplan__putf(&w, "scratch is not aligned to %u bytes", (uint64_t)APLAN_SCRATCH_ALIGN);
        return APLAN_E_SCRATCH_MISALIGNED;
    }
    if (scratch_size < x->lay.events) {
        size_t total;
        st = count(x, &total);
        return st != APLAN_OK ? st : too_small(x, scratch_size, total);
    }
    st = bases(x, scratch);
    x->r.events = (event *)(void *)((unsigned char *)scratch + x->lay.events);
    x->r.event_capacity = (scratch_size - x->lay.events) / sizeof(event);
    return st;
}

aplan_status aplan_tflm_scratch_requests(const void *model, size_t model_size, const aplan_tflm_config *config,
                                         const aplan_tflite_step *steps, size_t step_count, void *scratch,
                                         size_t scratch_size, aplan_tflm_scratch *requests, size_t capacity,
                                         size_t *count, aplan_format_error *error) {
    session x;
    if (count != NULL) *count = 0;
    if (count == NULL) return arg_error(error, "count is NULL");
    if (steps == NULL && step_count > 0) return arg_error(error, "steps is NULL");
    if (requests == NULL && capacity > 0) return arg_error(error, "requests is NULL");
    const aplan_status st = start(&x, model, model_size, config, scratch, scratch_size, error);
    if (st != APLAN_OK) return st;
    unsigned char *base = scratch;
    const uint32_t *ob = (const uint32_t *)(void *)(base + x.lay.op_base);
    uint32_t *lower = (uint32_t *)(void *)(base + x.lay.op_lower);
    uint32_t *upper = (uint32_t *)(void *)(base + x.lay.op_upper);
    for (uint64_t i = 0; i < x.w.operators; i++) lower[i] = upper[i] = 0;
    for (size_t i = 0; i < step_count; i++) {
        const aplan_tflite_step *p = &steps[i];
        if (p->kind != APLAN_TFLITE_STEP_OPERATOR) continue;
        if (p->subgraph >= x.w.subgraphs || p->op >= ob[p->subgraph + 1u] - ob[p->subgraph] || i >= UINT32_MAX)
            return arg_error(x.r.error, "steps do not belong to this model (an operator out of range)");
        const uint32_t g = ob[p->subgraph] + p->op;
        if (upper[g] == 0) lower[g] = (uint32_t)i;
        upper[g] = (uint32_t)i + 1u;
    }
    x.r.op_lower = lower;
    x.r.op_upper = upper;
    x.r.requests = requests;
    x.r.request_capacity = capacity;
    x.r.events = NULL; /* only counted: the requests are all this call gives */
    record(&x.w);
    const aplan_status done = recorded(&x, scratch_size);
    if (done != APLAN_OK) return done;
    /* A walk visits every operator of each subgraph it enters, subgraph 0 always: steps that leave one out are not
     * this model's, and would give its scratch requests no lifetime ([0, 0)), free to overlap live tensors. A
     * subgraph no step enters (called by no operator) keeps [0, 0): it never runs. O(operators). */
    for (uint32_t s = 0; s < x.w.subgraphs; s++) {
        bool walked = s == 0, whole = true;
        uint32_t missing = 0;
        for (uint32_t g = ob[s]; g < ob[s + 1u]; g++) {
            if (upper[g] != 0) walked = true;
            else if (whole) whole = false, missing = g - ob[s];
        }
        if (walked && !whole) {
            aplan_format_error *e = x.r.error;
            (void)arg_error(e, "");
            aplan__text w = {e->message, sizeof e->message, 0};
            aplan__putf(&w, "steps do not belong to this model: no step runs op %u of subgraph %u", (uint64_t)missing,
                        (uint64_t)s);
            return APLAN_E_INVALID_ARG;
        }
    }
    *count = x.r.request_count;
    if (capacity < x.r.request_count) {
        x.r.error->status = APLAN_E_OUTPUT_TOO_SMALL;
        aplan__text w = {x.r.error->message, sizeof x.r.error->message, 0};
        aplan__putf(&w, "requests holds %u entries, the model's kernels make %u requests", (uint64_t)capacity,
                    (uint64_t)x.r.request_count);
        return APLAN_E_OUTPUT_TOO_SMALL;
    }
    return APLAN_OK;
}

aplan_status aplan_tflm_record(const void *model, size_t model_size, const aplan_tflm_config *config, void *scratch,
                               size_t scratch_size, aplan_format_error *error) {
    session x;
    recording *h = scratch;
    if (scratch != NULL && ((uintptr_t)scratch & (APLAN_SCRATCH_ALIGN - 1u)) == 0 && scratch_size >= sizeof *h)
        h->magic = 0; /* a failure leaves no recording behind */
    aplan_status st = start(&x, model, model_size, config, scratch, scratch_size, error);
    if (st != APLAN_OK) return st;
    unsigned char *base = scratch;
    x.r.known = base + x.lay.known;
    APLAN_MEMSET(x.r.known, 0, (size_t)(x.w.operators / 8u) + 1u);
    record(&x.w);
    st = recorded(&x, scratch_size);
    if (st != APLAN_OK) return st;
    const recorder *r = &x.r;
    APLAN_MEMSET(h, 0, sizeof *h);
    h->tensor_base = x.lay.tensor_base;
    h->op_base = x.lay.op_base;
    h->bits = x.lay.bits;
    h->known = x.lay.known;
    h->events = x.lay.events;
    h->count = r->count;
    h->request_count = r->request_count;
    h->subgraphs = x.w.subgraphs;
    h->tensors = x.w.tensors;
    h->operators = x.w.operators;
    h->f = r->f;
    h->magic = RECORDING_MAGIC;
    return APLAN_OK;
}

/* A question to a recording, checked: the planned tensors' bits written into the scratch and the replay's input
 * filled. error is never NULL here. */
static aplan_status question(void *scratch, uint32_t planner, uint64_t planner_scratch, const aplan_tflite_id *ids,
                             size_t id_count, uint64_t planned, bool two_arenas, replay_in *in,
                             aplan_format_error *error) {
    const recording *h = scratch;
    if (scratch == NULL || ((uintptr_t)scratch & (APLAN_SCRATCH_ALIGN - 1u)) != 0 || h->magic != RECORDING_MAGIC)
        return arg_error(error, "scratch holds no recording (aplan_tflm_record did not succeed on it)");
    if (planner > APLAN_TFLM_OTHER_OUTSIDE) return arg_error(error, "planner is not a planner");
    if (ids == NULL && id_count > 0) return arg_error(error, "ids is NULL");
    unsigned char *base = scratch;
    const uint32_t *tb = (const uint32_t *)(void *)(base + h->tensor_base);
    uint8_t *bits = base + h->bits;
    APLAN_MEMSET(bits, 0, (size_t)(h->tensors / 8u) + 1u);
    for (size_t i = 0; i < id_count; i++) {
        const aplan_tflite_id id = ids[i];
        if (id.subgraph >= h->subgraphs || id.tensor >= tb[id.subgraph + 1u] - tb[id.subgraph])
            return arg_error(error, "an id names no tensor of the model");
        const uint32_t g = tb[id.subgraph] + id.tensor;
        bits[g / 8u] |= (uint8_t)(1u << (g % 8u));
    }
    in->events = (const event *)(const void *)(base + h->events);
    in->count = h->count;
    in->planned_bits = bits;
    in->planned = planned;
    in->planner = planner;
    in->planner_scratch = planner_scratch;
    in->two_arenas = two_arenas;
    if (!aplan__add(id_count, h->request_count, &in->buffers)) return arg_error(error, "too many buffers");
    return APLAN_OK;
}

/* What both infos say alike: the persistent parts, the kernels' scratch requests (their sum, saturated) and the
 * operators the table lacks. */
#define FILL_COMMON(info, parts, h, in)                                                                                \
    do {                                                                                                               \
        (info)->tflm_objects = (parts)[PART_TFLM];                                                                     \
        (info)->eval_tensors = (parts)[PART_EVAL];                                                                     \
        (info)->nodes = (parts)[PART_NODES];                                                                           \
        (info)->params = (parts)[PART_PARAMS];                                                                         \
        (info)->op_data = (parts)[PART_OP_DATA];                                                                       \
        (info)->variables = (parts)[PART_VARIABLES];                                                                   \
        (info)->scratch_handles = (parts)[PART_HANDLES];                                                               \
        (info)->io_tensors = (parts)[PART_IO];                                                                         \
        uint64_t bytes_ = 0;                                                                                           \
        for (size_t i_ = 0; i_ < (in)->count; i_++) {                                                                  \
            if ((in)->events[i_].kind == EV_REQUEST && !aplan__add(bytes_, (in)->events[i_].size, &bytes_))            \
                bytes_ = UINT64_MAX;                                                                                   \
        }                                                                                                              \
        (info)->scratch_bytes = bytes_;                                                                                \
        (info)->scratch_requests = (uint32_t)(h)->request_count;                                                       \
        (info)->unknown_ops = (h)->f.unknown;                                                                          \
        (info)->first_unknown_subgraph = (h)->f.first_unknown_subgraph;                                                \
        (info)->first_unknown_op = (h)->f.first_unknown_op;                                                            \
        (info)->refused_ops = (h)->f.refused;                                                                          \
        (info)->first_refused_subgraph = (h)->f.first_refused_subgraph;                                                \
        (info)->first_refused_op = (h)->f.first_refused_op;                                                            \
        (info)->refusal = (h)->f.refusal;                                                                              \
    } while (0)

/* APLAN_E_SIZE_OVERFLOW with message, or, when an allocation of the kernels' passed 2^64 - 1 by itself
 * (aplan__tflm_persistent_rows), with the operator, its kernel and the product named instead. */
static aplan_status size_overflow(const recording *h, aplan_format_error *e, const char *message) {
    e->status = APLAN_E_SIZE_OVERFLOW;
    aplan__text w = {e->message, sizeof e->message, 0};
    if (!h->f.overflow) {
        aplan__put(&w, message);
    } else {
        aplan__putf(&w, "TFLM's arena passes 2^64 - 1 bytes: op %u of subgraph %u (%s) keeps %u rows x %u bytes",
                    (uint64_t)h->f.overflow_op, (uint64_t)h->f.overflow_subgraph,
                    h->f.overflow_kernel != NULL ? h->f.overflow_kernel : "?", h->f.overflow_rows, h->f.overflow_bytes);
    }
    return APLAN_E_SIZE_OVERFLOW;
}

aplan_status aplan_tflm_recorded_arena(void *scratch, aplan_tflm_planner planner, uint64_t planner_scratch,
                                       const aplan_tflite_id *ids, size_t id_count, uint64_t planned,
                                       aplan_tflm_arena_info *info, aplan_tflm_op_cost *costs, size_t capacity,
                                       aplan_format_error *error) {
    aplan_format_error local;
    if (error == NULL) error = &local;
    APLAN_MEMSET(error, 0, sizeof *error);
    if (info != NULL) APLAN_MEMSET(info, 0, sizeof *info);
    if (info == NULL) return arg_error(error, "info is NULL");
    if (costs == NULL && capacity > 0) return arg_error(error, "costs is NULL");
    replay_in in;
    aplan_status st = question(scratch, (uint32_t)planner, planner_scratch, ids, id_count, planned, false, &in, error);
    if (st != APLAN_OK) return st;
    const recording *h = scratch;
    /* The least feasible multiple of 16, then, feasibility being monotone in S (a larger arena only moves every
     * allocation of the tail up or leaves it), the least feasible size above the multiple below it: a binary search
     * over the 15 sizes where the tail's first allocations pad less. */
    uint64_t s16;
    replay_out out;
    out.costs = costs;
    out.capacity = capacity < h->operators ? capacity : (size_t)h->operators;
    /* The operators' names (replay gives their figures): per subgraph its operators in order, each kernel known or
     * not. */
    const unsigned char *base = scratch;
    const uint32_t *ob = (const uint32_t *)(const void *)(base + h->op_base);
    const uint8_t *known = base + h->known;
    uint32_t sg = 0;
    for (size_t g = 0; g < out.capacity; g++) {
        while (g >= ob[sg + 1u]) sg++;
        APLAN_MEMSET(&costs[g], 0, sizeof costs[g]);
        costs[g].subgraph = sg;
        costs[g].op = (uint32_t)(g - ob[sg]);
        costs[g].known = bit(known, (uint32_t)g);
    }
    if (!least16(&in, &s16) || !replay(&in, s16, &out))
        return size_overflow(h, error, "TFLM's arena for this model and plan passes 2^64 - 1 bytes");
    uint64_t lo = s16 >= ARENA_ALIGN ? s16 - ARENA_ALIGN + 1u : 0, smallest = s16;
    while (lo < smallest) {
        const uint64_t mid = lo + (smallest - lo) / 2u;
        if (replay(&in, mid, NULL)) smallest = mid;
        else lo = mid + 1u;
    }
    info->used = out.used;
    info->smallest = smallest;
    info->planned = planned;
    info->persistent = out.used - planned;
    FILL_COMMON(info, out.parts, h, &in);
    return APLAN_OK;
}

aplan_status aplan_tflm_arena(const void *model, size_t model_size, const aplan_tflm_config *config,
                              const aplan_tflite_id *ids, size_t id_count, uint64_t planned, void *scratch,
                              size_t scratch_size, aplan_tflm_arena_info *info, aplan_tflm_op_cost *costs,
                              size_t capacity, aplan_format_error *error) {
    aplan_format_error local;
    if (error == NULL) error = &local;
    if (info != NULL) APLAN_MEMSET(info, 0, sizeof *info);
    if (info == NULL) return arg_error(error, "info is NULL");
    if (ids == NULL && id_count > 0) return arg_error(error, "ids is NULL");
    if (costs == NULL && capacity > 0) return arg_error(error, "costs is NULL");
    const aplan_status st = aplan_tflm_record(model, model_size, config, scratch, scratch_size, error);
    if (st != APLAN_OK) return st;
    return aplan_tflm_recorded_arena(scratch, (aplan_tflm_planner)config->planner, config->planner_scratch, ids,
                                     id_count, planned, info, costs, capacity, error);
}

aplan_status aplan_tflm_two_arenas(const void *model, size_t model_size, const aplan_tflm_config *config,
                                   const aplan_tflite_id *ids, size_t id_count, uint64_t planned, void *scratch,
                                   size_t scratch_size, aplan_tflm_two_arena_info *info, aplan_format_error *error) {
    aplan_format_error local;
    if (error == NULL) error = &local;
    if (info != NULL) APLAN_MEMSET(info, 0, sizeof *info);
    if (info == NULL) return arg_error(error, "info is NULL");
    if (ids == NULL && id_count > 0) return arg_error(error, "ids is NULL");
    const aplan_status st = aplan_tflm_record(model, model_size, config, scratch, scratch_size, error);
    if (st != APLAN_OK) return st;
    return aplan_tflm_recorded_two_arenas(scratch, (aplan_tflm_planner)config->planner, config->planner_scratch, ids,
                                          id_count, planned, info, error);
}

aplan_status aplan_tflm_recorded_two_arenas(void *scratch, aplan_tflm_planner planner, uint64_t planner_scratch,
                                            const aplan_tflite_id *ids, size_t id_count, uint64_t planned,
                                            aplan_tflm_two_arena_info *info, aplan_format_error *error) {
    aplan_format_error local;
    if (error == NULL) error = &local;
    APLAN_MEMSET(error, 0, sizeof *error);
    if (info != NULL) APLAN_MEMSET(info, 0, sizeof *info);
    if (info == NULL) return arg_error(error, "info is NULL");
    replay_in in;
    const aplan_status st = question(scratch, (uint32_t)planner, planner_scratch, ids, id_count, planned, true, &in,
                                     error);
    if (st != APLAN_OK) return st;
    const recording *h = scratch;
    two_out out;
    uint64_t used, persistent_smallest, smallest = planned;
    if (!replay_two(&in, &out) || !aplan__add(out.persistent, planned, &used) ||
        !aplan__align_up(out.persistent, ARENA_ALIGN, &persistent_smallest))
        return size_overflow(h, error, "TFLM's arenas for this model and plan pass 2^64 - 1 bytes");
    if (out.working > smallest) smallest = out.working;
    if (out.planner_end > smallest) smallest = out.planner_end;
    info->used = used;
    info->planned = planned;
    info->persistent = out.persistent;
    info->persistent_smallest = persistent_smallest;
    info->non_persistent = planned;
    info->non_persistent_smallest = smallest;
    info->working = out.working;
    info->planner_end = out.planner_end;
    FILL_COMMON(info, out.parts, h, &in);
    return APLAN_OK;
}

aplan_tflite_text aplan_tflm_unknown_name(const void *model, size_t model_size, const aplan_tflm_arena_info *info) {
    aplan_tflite_text none = {NULL, 0};
    if (model == NULL || info == NULL || info->unknown_ops == 0) return none;
    aplan_tflite_operator_info op;
    if (aplan_tflite_operator(model, model_size, info->first_unknown_subgraph, info->first_unknown_op, &op, NULL) !=
        APLAN_OK)
        return none;
    return op.name;
}
