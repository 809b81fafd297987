/* Test-side .tflite writer; see tflite_writer.h. */
#include "tflite_writer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct writer {
    tw_file f;
    size_t cap;
    size_t mark_cap;
    tw_extra x; /* all-zero for tw_build */
} writer;

static void *xrealloc(void *p, size_t n) {
    void *q = realloc(p, n);
    if (q == NULL) {
        fprintf(stderr, "tflite_writer: out of memory\n");
        abort();
    }
    return q;
}

static size_t reserve(writer *w, size_t n) {
    size_t at = w->f.size;
    if (at + n > w->cap) {
        while (at + n > w->cap) w->cap = w->cap ? 2u * w->cap : 256u;
        w->f.data = xrealloc(w->f.data, w->cap);
    }
    memset(w->f.data + at, 0, n);
    w->f.size += n;
    return at;
}

static void align(writer *w, size_t a) {
    while (w->f.size % a != 0) reserve(w, 1);
}

static void put32(writer *w, size_t pos, uint32_t v) {
    for (unsigned i = 0; i < 4; i++) w->f.data[pos + i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get32(const writer *w, size_t pos) {
    uint32_t v = 0;
    for (unsigned i = 0; i < 4; i++) v |= (uint32_t)w->f.data[pos + i] << (8 * i);
    return v;
}
static void put16(writer *w, size_t pos, uint16_t v) {
    w->f.data[pos] = (uint8_t)v;
    w->f.data[pos + 1] = (uint8_t)(v >> 8);
}
static void put64(writer *w, size_t pos, uint64_t v) {
    put32(w, pos, (uint32_t)v);
    put32(w, pos + 4, (uint32_t)(v >> 32));
}

__attribute__((format(printf, 3, 4))) static void mark(writer *w, size_t pos, const char *fmt, ...);
static void mark(writer *w, size_t pos, const char *fmt, ...) {
    if (w->f.n_marks == w->mark_cap) {
        w->mark_cap = w->mark_cap ? 2u * w->mark_cap : 64u;
        w->f.marks = xrealloc(w->f.marks, w->mark_cap * sizeof *w->f.marks);
    }
    struct tw_mark *m = &w->f.marks[w->f.n_marks++];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->key, sizeof m->key, fmt, ap);
    va_end(ap);
    m->pos = pos;
}

/* Point the uoffset at `slot` to `target` (forward). */
static void link(writer *w, size_t slot, size_t target) { put32(w, slot, (uint32_t)(target - slot)); }

/* A table with nfields fields; width[i] is 0 (absent), 4 or 8. slot[i] receives each present field's position.
 * The vtable comes first, then the table (4-aligned). */
static size_t table(writer *w, unsigned nfields, const unsigned *width, size_t *slot) {
    align(w, 2);
    size_t vt = reserve(w, 4u + 2u * nfields);
    align(w, 4);
    size_t size = 4;
    for (unsigned i = 0; i < nfields; i++) size += width[i];
    size_t t = reserve(w, size);
    put16(w, vt, (uint16_t)(4u + 2u * nfields));
    put16(w, vt + 2, (uint16_t)size);
    put32(w, t, (uint32_t)(t - vt));
    size_t off = 4;
    for (unsigned i = 0; i < nfields; i++) {
        if (width[i] == 0) {
            slot[i] = 0;
            continue;
        }
        put16(w, vt + 4 + 2 * i, (uint16_t)off);
        slot[i] = t + off;
        off += width[i];
    }
    return t;
}

/* A vector of n 4-byte values; returns the position of its length word, *first the first element. */
static size_t vec32(writer *w, const int32_t *v, uint32_t n, size_t *first) {
    align(w, 4);
    size_t at = reserve(w, 4u + 4u * n);
    put32(w, at, n);
    for (uint32_t i = 0; i < n; i++) put32(w, at + 4 + 4 * i, (uint32_t)v[i]);
    if (first) *first = at + 4;
    return at;
}

static size_t bytes_vec(writer *w, const uint8_t *v, uint32_t n, size_t extra) {
    align(w, 4);
    size_t at = reserve(w, 4u + n + extra);
    put32(w, at, n);
    if (n) memcpy(w->f.data + at + 4, v, n);
    return at;
}

/* A vector of n uoffsets to be linked later: returns the position of element 0. */
static size_t offsets_vec(writer *w, uint32_t n, size_t *len_pos) {
    align(w, 4);
    size_t at = reserve(w, 4u + 4u * n);
    put32(w, at, n);
    if (len_pos) *len_pos = at;
    return at + 4;
}

/* The string tw_extra gives for (subgraph, index) in list, or NULL. */
static const tw_string *find_string(const tw_string *list, uint32_t n, uint32_t subgraph, uint32_t index) {
    for (uint32_t k = 0; k < n; k++) {
        if (list[k].subgraph == subgraph && list[k].index == index) return &list[k];
    }
    return NULL;
}

/* Write string s and point the uoffset at slot to it; mark its first byte under key. */
static void string_field(writer *w, size_t slot, const tw_string *s, const char *key) {
    uint32_t n = s->len ? s->len : (uint32_t)strlen(s->text);
    size_t at = bytes_vec(w, (const uint8_t *)s->text, n, 1);
    link(w, slot, at);
    mark(w, at + 4, "%s", key);
}

static void tensor(writer *w, const tw_tensor *t, unsigned s, unsigned i, size_t slot_to_me) {
    /* Tensor fields: shape 0, type 1, buffer 2, name 3, quantization 4, is_variable 5 */
    const tw_string *name = find_string(w->x.tensor_names, w->x.n_tensor_names, s, i);
    unsigned width[6] = {t->shape ? 4u : 0u, 4, 4, name ? 4u : 0u, 0, t->is_variable ? 4u : 0u};
    size_t slot[6];
    size_t at = table(w, 6, width, slot);
    link(w, slot_to_me, at);
    mark(w, at, "s%ut%u", s, i);
    if (name) {
        char key[40];
        snprintf(key, sizeof key, "s%ut%u.name", s, i);
        string_field(w, slot[3], name, key);
    }
    w->f.data[slot[1]] = (uint8_t)t->type;
    mark(w, slot[1], "s%ut%u.type", s, i);
    put32(w, slot[2], t->buffer);
    mark(w, slot[2], "s%ut%u.buffer", s, i);
    if (t->is_variable) {
        w->f.data[slot[5]] = 1;
        mark(w, slot[5], "s%ut%u.is_variable", s, i);
    }
    if (t->shape) {
        size_t first;
        link(w, slot[0], vec32(w, t->shape, t->rank, &first));
        mark(w, first, "s%ut%u.shape", s, i);
    }
}

static void op(writer *w, const tw_op *o, unsigned s, unsigned i, size_t slot_to_me) {
    /* Operator fields: opcode_index 0, inputs 1, outputs 2, builtin_options_type 3, builtin_options 4,
     * large_custom_options_offset 9, large_custom_options_size 10 */
    unsigned has_opt = o->options_type != 0;
    unsigned large = w->x.large_custom_options_offset != 0 ? 8u : 0u;
    const tw_string *custom = find_string(w->x.custom_options, w->x.n_custom_options, s, i);
    unsigned width[11] = {4, 4, 4, has_opt ? 4u : 0u, has_opt ? 4u : 0u, custom ? 4u : 0u, 0, 0, 0, large, large};
    size_t slot[11];
    size_t at = table(w, large ? 11u : custom ? 6u : 5u, width, slot);
    if (large) {
        put64(w, slot[9], w->x.large_custom_options_offset);
        put64(w, slot[10], 16);
        mark(w, slot[9], "s%uo%u.large_offset", s, i);
    }
    link(w, slot_to_me, at);
    mark(w, at, "s%uo%u", s, i);
    put32(w, slot[0], o->opcode_index);
    mark(w, slot[0], "s%uo%u.opcode_index", s, i);
    size_t first;
    link(w, slot[1], vec32(w, o->inputs, o->n_inputs, &first));
    mark(w, first, "s%uo%u.inputs", s, i);
    link(w, slot[2], vec32(w, o->outputs, o->n_outputs, &first));
    mark(w, first, "s%uo%u.outputs", s, i);
    if (custom) {
        size_t v = bytes_vec(w, (const uint8_t *)custom->text, custom->len, 0);
        link(w, slot[5], v);
        mark(w, v + 4, "s%uo%u.custom", s, i);
    }
    if (has_opt) {
        w->f.data[slot[3]] = o->options_type;
        unsigned ow[2] = {o->n_options > 0 ? 4u : 0u, o->n_options > 1 ? 4u : 0u};
        size_t os[2];
        size_t ot = table(w, 2, ow, os);
        link(w, slot[4], ot);
        mark(w, ot, "s%uo%u.options", s, i);
        for (unsigned k = 0; k < o->n_options && k < 2; k++) {
            put32(w, os[k], (uint32_t)o->options[k]);
            mark(w, os[k], "s%uo%u.opt%u", s, i, k);
        }
    }
}

static void subgraph(writer *w, const tw_subgraph *g, unsigned s, size_t slot_to_me) {
    /* SubGraph fields: tensors 0, inputs 1, outputs 2, operators 3, name 4 */
    const tw_string *name = find_string(w->x.subgraph_names, w->x.n_subgraph_names, s, 0);
    unsigned width[5] = {4, 4, 4, 4, 4};
    size_t slot[5];
    size_t at = table(w, name ? 5u : 4u, width, slot);
    link(w, slot_to_me, at);
    mark(w, at, "s%u", s);
    if (name) {
        char key[40];
        snprintf(key, sizeof key, "s%u.name", s);
        string_field(w, slot[4], name, key);
    }
    size_t first;
    link(w, slot[1], vec32(w, g->inputs, g->n_inputs, &first));
    mark(w, first, "s%u.inputs", s);
    link(w, slot[2], vec32(w, g->outputs, g->n_outputs, &first));
    mark(w, first, "s%u.outputs", s);
    size_t len_pos;
    size_t tv = offsets_vec(w, g->n_tensors, &len_pos);
    link(w, slot[0], len_pos);
    for (uint32_t i = 0; i < g->n_tensors; i++) {
        if (w->x.share_tensors && i > 0) {
            put32(w, tv + 4 * i, get32(w, tv) - 4u * i); /* to tensor 0 */
        } else {
            tensor(w, &g->tensors[i], s, i, tv + 4 * i);
        }
    }
    size_t ov = offsets_vec(w, g->n_ops, &len_pos);
    link(w, slot[3], len_pos);
    mark(w, ov, "s%u.operators", s);
    for (uint32_t i = 0; i < g->n_ops; i++) {
        if (w->x.share_ops && i > 0) {
            put32(w, ov + 4 * i, get32(w, ov) - 4u * i); /* to operator 0 */
        } else {
            op(w, &g->ops[i], s, i, ov + 4 * i);
        }
    }
}

/* The Model fields tw_extra adds, written after the metadata. */
static void model_extras(writer *w, const size_t *slot) {
    const tw_extra *x = &w->x;
    if (x->description) {
        uint32_t n = (uint32_t)strlen(x->description);
        link(w, slot[3], bytes_vec(w, (const uint8_t *)x->description, n, 1));
    }
    if (x->metadata_buffer) link(w, slot[5], vec32(w, x->metadata_buffer, x->n_metadata_buffer, NULL));
    for (unsigned k = 0; k < 3; k++) {
        if (x->n_tables[k] == 0) continue;
        size_t len_pos;
        size_t v = offsets_vec(w, x->n_tables[k], &len_pos);
        link(w, slot[7 + k], len_pos);
        for (uint32_t i = 0; i < x->n_tables[k]; i++) {
            unsigned iw[1] = {4};
            size_t ts[1];
            size_t t = table(w, 1, iw, ts);
            link(w, v + 4 * i, t);
            put32(w, ts[0], 100u * (7u + k) + i);
        }
    }
    if (x->unknown_field) put32(w, slot[x->unknown_field], 0x5a5a5a5au);
}

tw_file tw_build(const tw_model *m) { return tw_build_ex(m, NULL); }

tw_file tw_build_ex(const tw_model *m, const tw_extra *x) {
    writer w;
    memset(&w, 0, sizeof w);
    if (x) w.x = *x;
    size_t hdr = reserve(&w, 8);
    memcpy(w.f.data + hdr + 4, "TFL3", 4);
    /* Model fields: version 0, operator_codes 1, subgraphs 2, description 3, buffers 4, metadata_buffer 5,
     * metadata 6, signature_defs 7, external_buffer_groups 8, external_buffers 9; then tw_extra's unknown one */
    unsigned width[32] = {4, 4, 4, w.x.description ? 4u : 0u, w.x.no_buffers ? 0u : 4u,
                          w.x.metadata_buffer ? 4u : 0u, m->n_metadata ? 4u : 0u};
    unsigned nfields = 7;
    for (unsigned k = 0; k < 3; k++) {
        width[7 + k] = w.x.n_tables[k] ? 4u : 0u;
        if (w.x.n_tables[k]) nfields = 8 + k;
    }
    if (w.x.unknown_field) {
        if (w.x.unknown_field < 10 || w.x.unknown_field >= 32) abort(); /* test bug */
        width[w.x.unknown_field] = 4;
        nfields = w.x.unknown_field + 1;
    }
    size_t slot[32];
    size_t root = table(&w, nfields, width, slot);
    for (unsigned id = 3; id < nfields; id++) {
        if (width[id] && id != 4 && id != 6) mark(&w, slot[id], "model.f%u", id);
    }
    link(&w, 0, root);
    mark(&w, root, "root");
    put32(&w, slot[0], m->version);

    size_t len_pos;
    size_t v = offsets_vec(&w, m->n_opcodes, &len_pos);
    link(&w, slot[1], len_pos);
    for (uint32_t i = 0; i < m->n_opcodes; i++) {
        /* OperatorCode fields: deprecated_builtin_code 0, custom_code 1, version 2, builtin_code 3 */
        const tw_string *custom = NULL;
        for (uint32_t k = 0; k < w.x.n_custom_codes && custom == NULL; k++) {
            if (w.x.custom_codes[k].index == i) custom = &w.x.custom_codes[k];
        }
        unsigned ow[4] = {4, custom ? 4u : 0u, 0, 4};
        size_t os[4];
        size_t t = table(&w, 4, ow, os);
        link(&w, v + 4 * i, t);
        mark(&w, t, "opcode%u", i);
        if (custom) {
            char key[40];
            snprintf(key, sizeof key, "opcode%u.custom_code", i);
            string_field(&w, os[1], custom, key);
        }
        w.f.data[os[0]] = (uint8_t)m->opcodes[i].deprecated_code;
        put32(&w, os[3], (uint32_t)m->opcodes[i].code);
    }

    v = w.x.no_buffers ? 0 : offsets_vec(&w, m->n_buffers, &len_pos);
    if (!w.x.no_buffers) link(&w, slot[4], len_pos);
    for (uint32_t i = 0; !w.x.no_buffers && i < m->n_buffers; i++) {
        const tw_buffer *b = &m->buffers[i];
        /* Buffer fields: data 0, offset 1, size 2 */
        unsigned bw[3] = {b->data ? 4u : 0u, b->ext_offset ? 8u : 0u, b->ext_offset ? 8u : 0u};
        size_t bs[3];
        size_t t = table(&w, 3, bw, bs);
        link(&w, v + 4 * i, t);
        mark(&w, t, "b%u", i);
        if (b->ext_offset) {
            put64(&w, bs[1], b->ext_offset);
            put64(&w, bs[2], b->ext_size);
            mark(&w, bs[1], "b%u.offset", i);
        }
        if (b->data) {
            size_t at = bytes_vec(&w, b->data, b->len, 0);
            link(&w, bs[0], at);
            mark(&w, at + 4, "b%u.data", i);
        }
    }

    if (m->n_metadata) {
        v = offsets_vec(&w, m->n_metadata, &len_pos);
        link(&w, slot[6], len_pos);
        for (uint32_t i = 0; i < m->n_metadata; i++) {
            if (w.x.share_metadata && i > 0) {
                put32(&w, v + 4 * i, get32(&w, v) - 4u * i); /* to metadata 0 */
                continue;
            }
            /* Metadata fields: name 0, buffer 1 */
            unsigned mw[2] = {4, 4};
            size_t ms[2];
            size_t t = table(&w, 2, mw, ms);
            link(&w, v + 4 * i, t);
            mark(&w, t, "m%u", i);
            put32(&w, ms[1], m->metadata[i].buffer);
            uint32_t n = (uint32_t)strlen(m->metadata[i].name);
            size_t at = bytes_vec(&w, (const uint8_t *)m->metadata[i].name, n, 1);
            link(&w, ms[0], at);
            mark(&w, at + 4, "m%u.name", i);
        }
    }

    model_extras(&w, slot);
    v = offsets_vec(&w, m->n_subgraphs, &len_pos);
    link(&w, slot[2], len_pos);
    for (uint32_t s = 0; s < m->n_subgraphs; s++) {
        if (w.x.share_subgraphs && s > 0) {
            put32(&w, v + 4 * s, get32(&w, v) - 4u * s); /* to subgraph 0 */
        } else {
            subgraph(&w, &m->subgraphs[s], s, v + 4 * s);
        }
    }
    return w.f;
}

tw_file tw_build_shared(tw_shared kind, uint32_t k, uint32_t l, char fill) {
    enum { INT8 = 9, ADD = 0, CONCATENATION = 2, CUSTOM = 32 };
    static const int32_t s16[] = {16}, s1[] = {1}, in_0[] = {0}, out_1[] = {1};
    static const tw_buffer empty[] = {{NULL, 0, 0, 0}};
    const int32_t c = kind == TW_SHARED_CUSTOM ? CUSTOM : kind == TW_SHARED_CONCAT ? CONCATENATION : ADD;
    const tw_opcode code[] = {{(int8_t)c, c}};
    const uint32_t n = k > l ? k : l;
    char *text = xrealloc(NULL, (size_t)l + 1u);
    int32_t *zeros = xrealloc(NULL, 4u * (size_t)n + 4u), *ones = xrealloc(NULL, 4u * (size_t)n + 4u);
    for (uint32_t i = 0; i < l; i++) text[i] = fill != 0 ? fill : (char)('a' + i % 26u);
    for (uint32_t i = 0; i < n; i++) zeros[i] = 0, ones[i] = 1;
    tw_tensor t[2] = {{s16, 1, INT8, 0, false}, {s16, 1, INT8, 0, false}};
    tw_op op = {0, in_0, 1, out_1, 1, 0, {0, 0}, 0};
    tw_subgraph g = {t, 2, in_0, 1, out_1, 1, &op, 1};
    const tw_string names[2] = {{0, 0, text, l}, {0, 1, "out", 0}};
    tw_extra x;
    memset(&x, 0, sizeof x);
    x.tensor_names = names;
    x.n_tensor_names = 2;
    switch (kind) {
    case TW_SHARED_NAME:
        g.n_tensors = k;
        x.n_tensor_names = 1;
        x.share_tensors = true;
        break;
    case TW_SHARED_FANIN:
        op.inputs = zeros, op.n_inputs = k;
        break;
    case TW_SHARED_RANK:
    case TW_SHARED_CONCAT:
        t[0] = (tw_tensor){ones, l, INT8, 0, false};
        t[1].shape = s1;
        op.inputs = zeros, op.n_inputs = k;
        x.tensor_names = names + 1;
        x.n_tensor_names = 1;
        break;
    case TW_SHARED_CUSTOM:
        g.n_ops = k;
        x.tensor_names = NULL;
        x.n_tensor_names = 0;
        x.custom_codes = names;
        x.n_custom_codes = 1;
        x.share_ops = true;
        break;
    }
    const tw_model m = {3, code, 1, &g, 1, empty, 1, NULL, 0};
    tw_file f = tw_build_ex(&m, &x);
    free(text);
    free(zeros);
    free(ones);
    return f;
}

/* Keys and values, sorted together by key (tw_flex_map). */
typedef struct flex_entry {
    const char *key;
    int32_t value;
} flex_entry;

static int flex_compare(const void *a, const void *b) {
    return strcmp(((const flex_entry *)a)->key, ((const flex_entry *)b)->key);
}

size_t tw_flex_map(const char *const *keys, const int32_t *values, uint32_t n, uint8_t **out) {
    /* FlexBuffers (flatbuffers/flexbuffers.h), every width 4: the keys' NUL-terminated texts; the keys vector (its
     * length, then per key the distance back to its text); the map's prefix (the distance back to the keys
     * vector's first element, its width, the count); the values; one type byte per value (INT, width 4); the
     * root: the distance back to the values, the map's packed type (MAP, width 4), the root's width. */
    flex_entry *e = xrealloc(NULL, ((size_t)n + 1u) * sizeof *e);
    size_t text = 0;
    for (uint32_t i = 0; i < n; i++) e[i] = (flex_entry){keys[i], values[i]}, text += strlen(keys[i]) + 1u;
    qsort(e, n, sizeof *e, flex_compare);
    const size_t keys_at = (text + 3u) & ~(size_t)3u, values_at = keys_at + 4u + 4u * (size_t)n + 12u;
    const size_t root_at = (values_at + 5u * (size_t)n + 3u) & ~(size_t)3u, size = root_at + 6u;
    uint8_t *b = xrealloc(NULL, size);
    memset(b, 0, size);
    writer w; /* put32 on b */
    memset(&w, 0, sizeof w);
    w.f.data = b;
    w.f.size = w.cap = size;
    size_t at = 0;
    for (uint32_t i = 0; i < n; i++) {
        const size_t len = strlen(e[i].key) + 1u;
        memcpy(b + at, e[i].key, len);
        put32(&w, keys_at + 4u + 4u * i, (uint32_t)(keys_at + 4u + 4u * i - at));
        at += len;
        put32(&w, values_at + 4u * i, (uint32_t)e[i].value);
        b[values_at + 4u * (size_t)n + i] = 1u << 2 | 2u; /* INT, 4 bytes */
    }
    put32(&w, keys_at, n);
    put32(&w, values_at - 12u, (uint32_t)(values_at - 12u - (keys_at + 4u)));
    put32(&w, values_at - 8u, 4u);
    put32(&w, values_at - 4u, n);
    put32(&w, root_at, (uint32_t)(root_at - values_at));
    b[root_at + 4u] = 9u << 2 | 2u; /* MAP, 4 bytes */
    b[root_at + 5u] = 4u;
    free(e);
    *out = b;
    return size;
}

/* The extras of a model with one custom operator: its code and its options. */
static tw_extra one_custom(const tw_string *code, const tw_string *options) {
    tw_extra x;
    memset(&x, 0, sizeof x);
    x.custom_codes = code;
    x.n_custom_codes = 1;
    x.custom_options = options;
    x.n_custom_options = 1;
    return x;
}

tw_file tw_build_signal(const char *kernel, const int32_t *shape, uint32_t rank, bool constant) {
    enum { INT16 = 7, CUSTOM = 32 };
    static const int32_t s4[] = {1, 4}, in_0[] = {0}, out_1[] = {1};
    static const uint8_t byte[] = {0};
    static const tw_buffer buffers[] = {{NULL, 0, 0, 0}, {byte, 1, 0, 0}};
    static const tw_opcode code[] = {{CUSTOM, CUSTOM}};
    /* The options each kernel reads: delay_length (element 0); frame_size, frame_step (0, 1); T by key (INT16). */
    static const char *const delay_keys[] = {"delay_length"}, *const framer_keys[] = {"frame_size", "frame_step",
                                                                                      "prefill"};
    static const char *const overlap_keys[] = {"T", "frame_step"};
    static const int32_t delay_values[] = {2}, framer_values[] = {4, 2, 0}, overlap_values[] = {INT16, 2};
    const bool delay = strcmp(kernel, "SignalDelay") == 0, framer = strcmp(kernel, "SignalFramer") == 0;
    uint8_t *options;
    const size_t n = delay ? tw_flex_map(delay_keys, delay_values, 1, &options)
                     : framer ? tw_flex_map(framer_keys, framer_values, 3, &options)
                              : tw_flex_map(overlap_keys, overlap_values, 2, &options);
    const tw_tensor t[2] = {{shape, rank, INT16, constant ? 1u : 0u, false}, {s4, 2, INT16, 0, false}};
    const tw_op op = {0, in_0, 1, out_1, 1, 0, {0, 0}, 0};
    const tw_subgraph g = {t, 2, constant ? NULL : in_0, constant ? 0u : 1u, out_1, 1, &op, 1};
    const tw_string codes[] = {{0, 0, kernel, 0}}, custom[] = {{0, 0, (const char *)options, (uint32_t)n}};
    tw_extra x = one_custom(codes, custom);
    const tw_model m = {3, code, 1, &g, 1, buffers, 2, NULL, 0};
    tw_file f = tw_build_ex(&m, &x);
    free(options);
    return f;
}

tw_file tw_build_detection(uint32_t entries, uint32_t keys) {
    enum { FLOAT32 = 0, CUSTOM = 32 };
    static const int32_t boxes[] = {1, 4, 4}, scores[] = {1, 4, 2}, anchors[] = {4, 4}, out_boxes[] = {1, 2, 4},
                         out_2[] = {1, 2}, one[] = {1}, ins[] = {0, 1, 2}, outs[] = {3, 4, 5, 6};
    static const tw_buffer buffers[] = {{NULL, 0, 0, 0}};
    static const tw_opcode code[] = {{CUSTOM, CUSTOM}};
    /* detection_postprocess.cc's keys, with values of a small SSD head: 2 detections, 1 class */
    static const char *const names[] = {"detections_per_class", "h_scale", "max_classes_per_detection",
                                        "max_detections", "nms_iou_threshold", "nms_score_threshold", "num_classes",
                                        "use_regular_nms", "w_scale", "x_scale", "y_scale"};
    static const int32_t known[] = {1, 5, 1, 2, 0, 0, 1, 0, 5, 10, 10};
    const uint32_t n = 11u + keys;
    const char **k = xrealloc(NULL, (size_t)n * sizeof *k);
    int32_t *v = xrealloc(NULL, (size_t)n * sizeof *v);
    char *text = xrealloc(NULL, 9u * (size_t)keys + 1u);
    for (uint32_t i = 0; i < n; i++) {
        if (i < 11u) {
            k[i] = names[i], v[i] = known[i];
            continue;
        }
        snprintf(text + 9u * (size_t)(i - 11u), 9, "k%07u", (unsigned)(i - 11u) % 10000000u);
        k[i] = text + 9u * (size_t)(i - 11u), v[i] = (int32_t)i;
    }
    uint8_t *options;
    const size_t size = tw_flex_map(k, v, n, &options);
    const tw_tensor t[7] = {{boxes, 3, FLOAT32, 0, false},     {scores, 3, FLOAT32, 0, false},
                            {anchors, 2, FLOAT32, 0, false},   {out_boxes, 3, FLOAT32, 0, false},
                            {out_2, 2, FLOAT32, 0, false},     {out_2, 2, FLOAT32, 0, false},
                            {one, 1, FLOAT32, 0, false}};
    const tw_op op = {0, ins, 3, outs, 4, 0, {0, 0}, 0};
    const tw_subgraph g = {t, 7, ins, 3, outs, 4, &op, entries};
    const tw_string codes[] = {{0, 0, "TFLite_Detection_PostProcess", 0}},
                    custom[] = {{0, 0, (const char *)options, (uint32_t)size}};
    tw_extra x = one_custom(codes, custom);
    x.share_ops = true;
    const tw_model m = {3, code, 1, &g, 1, buffers, 1, NULL, 0};
    tw_file f = tw_build_ex(&m, &x);
    free(options);
    free(text);
    free(v);
    free((void *)k);
    return f;
}

void tw_free(tw_file *f) {
    free(f->data);
    free(f->marks);
    memset(f, 0, sizeof *f);
}

size_t tw_pos(const tw_file *f, const char *key) {
    for (size_t i = 0; i < f->n_marks; i++) {
        if (strcmp(f->marks[i].key, key) == 0) return f->marks[i].pos;
    }
    fprintf(stderr, "tflite_writer: no mark '%s'\n", key);
    abort();
}
