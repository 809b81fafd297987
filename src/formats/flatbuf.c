/*
 * Bounds-checked FlatBuffers reading. See flatbuf.h for the rules; the status each check gives:
 *   - an offset whose target lies outside the input, or is misaligned: APLAN_E_FORMAT_BAD_OFFSET;
 *   - a structure that starts inside the input but runs past its end: APLAN_E_FORMAT_TRUNCATED;
 *   - a vtable that declares impossible sizes, or a field that lies outside its table: APLAN_E_FORMAT_BAD_OFFSET.
 * All position arithmetic is done in uint64_t, so it cannot wrap for inputs below 2^32 bytes on any host, and is
 * compared against the size before any narrowing to size_t.
 */
#include "formats/flatbuf.h"

void aplan__fb_init(aplan__fb *fb, const void *data, size_t size, aplan_format_error *error) {
    fb->data = (const uint8_t *)data;
    fb->size = size;
    fb->error = error;
    fb->ctx_depth = 0;
    fb->work = 0;
    fb->budget = UINT64_MAX;
    fb->per_byte = 0;
    fb->base = 0;
    APLAN_MEMSET(error, 0, sizeof *error);
}

void aplan__fb_set_budget(aplan__fb *fb, uint64_t per_byte, uint64_t base) {
    uint64_t b;
    if (__builtin_mul_overflow(per_byte, (uint64_t)fb->size, &b) || __builtin_add_overflow(b, base, &b) ||
        b == UINT64_MAX) {
        b = UINT64_MAX - 1u;
    }
    fb->budget = b;
    fb->per_byte = per_byte;
    fb->base = base;
}

aplan_status aplan__fb_charge(aplan__fb *fb, uint64_t units, size_t pos) {
    if (fb->error->status != APLAN_OK) return fb->error->status;
    if (units <= fb->budget - fb->work) { /* work <= budget always holds, so no wrap */
        fb->work += units;
        return APLAN_OK;
    }
    fb->work = fb->budget;
    return aplan__fb_fail(fb, APLAN_E_FORMAT_UNSUPPORTED, pos,
                          "work budget of %u units (%u per byte + %u) exceeded: shared tables or repeated "
                          "calls",
                          fb->budget, fb->per_byte, fb->base);
}

void aplan__fb_context(aplan__fb *fb, unsigned level, const char *name, uint64_t index) {
    APLAN_ASSERT(level < APLAN__FB_CONTEXT_DEPTH);
    fb->ctx_name[level] = name;
    fb->ctx_index[level] = index;
    fb->ctx_depth = level + 1u;
}

void aplan__fb_context_pop(aplan__fb *fb, unsigned levels) {
    if (levels < fb->ctx_depth) fb->ctx_depth = levels;
}

aplan_status aplan__fb_fail(aplan__fb *fb, aplan_status status, uint64_t offset, const char *format, ...) {
    if (fb->error->status != APLAN_OK) return fb->error->status;
    fb->error->status = status;
    fb->error->byte_offset = offset;
    aplan__text w = {fb->error->message, sizeof fb->error->message, 0};
    for (unsigned i = 0; i < fb->ctx_depth; i++) {
        aplan__putf(&w, i > 0 ? " %s %u" : "%s %u", fb->ctx_name[i], fb->ctx_index[i]);
    }
    if (fb->ctx_depth > 0) aplan__put(&w, ": ");
    va_list args;
    va_start(args, format);
    aplan__vputf(&w, format, args);
    va_end(args);
    return status;
}

uint8_t aplan__fb_u8(const aplan__fb *fb, size_t pos) {
    APLAN_ASSERT(pos < fb->size);
    return fb->data[pos];
}

uint16_t aplan__fb_u16(const aplan__fb *fb, size_t pos) {
    APLAN_ASSERT(pos <= fb->size && fb->size - pos >= 2u);
    const uint8_t *p = fb->data + pos;
    return (uint16_t)(p[0] | (p[1] << 8));
}

uint32_t aplan__fb_u32(const aplan__fb *fb, size_t pos) {
    APLAN_ASSERT(pos <= fb->size && fb->size - pos >= 4u);
    const uint8_t *p = fb->data + pos;
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

uint64_t aplan__fb_u64(const aplan__fb *fb, size_t pos) {
    APLAN_ASSERT(pos <= fb->size && fb->size - pos >= 8u);
    return (uint64_t)aplan__fb_u32(fb, pos) | ((uint64_t)aplan__fb_u32(fb, pos + 4u) << 32);
}

/* Does [pos, pos + len) lie inside the input? */
static bool inside(const aplan__fb *fb, uint64_t pos, uint64_t len) {
    return pos <= (uint64_t)fb->size && len <= (uint64_t)fb->size - pos;
}

aplan_status aplan__fb_root(aplan__fb *fb, const char identifier[4], aplan__fb_table *root) {
    if (fb->size < 8u) {
        return aplan__fb_fail(fb, APLAN_E_FORMAT_TRUNCATED, fb->size,
                              "header: the input has %u bytes, a flatbuffer needs at least 8", (uint64_t)fb->size);
    }
    for (size_t i = 0; i < 4u; i++) {
        if (fb->data[4u + i] != (uint8_t)identifier[i]) {
            char id[5] = {identifier[0], identifier[1], identifier[2], identifier[3], '\0'};
            return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_VALUE, 4u + i, "header: file identifier is not \"%s\"", id);
        }
    }
    uint64_t target = aplan__fb_u32(fb, 0);
    if (target >= fb->size || (target & 3u) != 0) {
        return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_OFFSET, 0, "header: root table offset %u is %s", target,
                              target >= fb->size ? "past the end" : "misaligned");
    }
    return aplan__fb_table_at(fb, (size_t)target, "root table", root);
}

aplan_status aplan__fb_table_at(aplan__fb *fb, size_t pos, const char *what, aplan__fb_table *out) {
    aplan_status charged = aplan__fb_charge(fb, 1u, pos);
    if (charged != APLAN_OK) return charged;
    if (!inside(fb, pos, 4u)) {
        return aplan__fb_fail(fb, pos < fb->size ? APLAN_E_FORMAT_TRUNCATED : APLAN_E_FORMAT_BAD_OFFSET, pos,
                              "%s: table runs past the end", what);
    }
    if ((pos & 3u) != 0) return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_OFFSET, pos, "%s: table is misaligned", what);
    int64_t vt = (int64_t)pos - (int64_t)aplan__fb_i32(fb, pos);
    if (vt < 0 || (uint64_t)vt >= fb->size || (vt & 1) != 0) {
        return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_OFFSET, pos, "%s: vtable %s", what,
                              (vt & 1) != 0 && vt >= 0 && (uint64_t)vt < fb->size ? "is misaligned"
                                                                                  : "lies outside the input");
    }
    if (!inside(fb, (uint64_t)vt, 4u)) {
        return aplan__fb_fail(fb, APLAN_E_FORMAT_TRUNCATED, (uint64_t)vt, "%s: vtable runs past the end", what);
    }
    uint16_t vt_size = aplan__fb_u16(fb, (size_t)vt);
    uint16_t tbl_size = aplan__fb_u16(fb, (size_t)vt + 2u);
    if (vt_size < 4u || (vt_size & 1u) != 0) {
        return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_OFFSET, (uint64_t)vt,
                              "%s: vtable size %u is not an even number >= 4", what, (uint64_t)vt_size);
    }
    if (!inside(fb, (uint64_t)vt, vt_size)) {
        return aplan__fb_fail(fb, APLAN_E_FORMAT_TRUNCATED, (uint64_t)vt, "%s: vtable runs past the end", what);
    }
    if (tbl_size < 4u) {
        return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_OFFSET, (uint64_t)vt + 2u, "%s: table size %u is below 4", what,
                              (uint64_t)tbl_size);
    }
    if (!inside(fb, pos, tbl_size)) {
        return aplan__fb_fail(fb, APLAN_E_FORMAT_TRUNCATED, pos, "%s: table runs past the end", what);
    }
    out->pos = pos;
    out->vtable = (size_t)vt;
    out->vtable_size = vt_size;
    out->table_size = tbl_size;
    return APLAN_OK;
}

aplan_status aplan__fb_field(aplan__fb *fb, const aplan__fb_table *t, unsigned id, size_t width, const char *name,
                             size_t *pos) {
    *pos = 0;
    aplan_status charged = aplan__fb_charge(fb, 1u, t->pos);
    if (charged != APLAN_OK) return charged;
    size_t slot = 4u + 2u * (size_t)id;
    if (slot + 2u > t->vtable_size) return APLAN_OK; /* older writer: field absent */
    uint16_t voff = aplan__fb_u16(fb, t->vtable + slot);
    if (voff == 0) return APLAN_OK;
    if (voff < 4u || (size_t)voff + width > t->table_size) {
        return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_OFFSET, t->vtable + slot,
                              "%s: field offset %u lies outside its %u-byte table", name, (uint64_t)voff,
                              (uint64_t)t->table_size);
    }
    *pos = t->pos + voff; /* inside: the table was verified to lie inside the input */
    return APLAN_OK;
}

aplan_status aplan__fb_get_u8(aplan__fb *fb, const aplan__fb_table *t, unsigned id, const char *name, uint8_t def,
                              uint8_t *out) {
    size_t pos;
    aplan_status st = aplan__fb_field(fb, t, id, 1u, name, &pos);
    if (st != APLAN_OK) return st;
    *out = pos != 0 ? aplan__fb_u8(fb, pos) : def;
    return APLAN_OK;
}

aplan_status aplan__fb_get_u32(aplan__fb *fb, const aplan__fb_table *t, unsigned id, const char *name,
                               uint32_t def, uint32_t *out) {
    size_t pos;
    aplan_status st = aplan__fb_field(fb, t, id, 4u, name, &pos);
    if (st != APLAN_OK) return st;
    *out = pos != 0 ? aplan__fb_u32(fb, pos) : def;
    return APLAN_OK;
}

aplan_status aplan__fb_get_i32(aplan__fb *fb, const aplan__fb_table *t, unsigned id, const char *name, int32_t def,
                               int32_t *out) {
    uint32_t v;
    aplan_status st = aplan__fb_get_u32(fb, t, id, name, (uint32_t)def, &v);
    if (st == APLAN_OK) *out = (int32_t)v;
    return st;
}

aplan_status aplan__fb_get_u64(aplan__fb *fb, const aplan__fb_table *t, unsigned id, const char *name,
                               uint64_t def, uint64_t *out) {
    size_t pos;
    aplan_status st = aplan__fb_field(fb, t, id, 8u, name, &pos);
    if (st != APLAN_OK) return st;
    *out = pos != 0 ? aplan__fb_u64(fb, pos) : def;
    return APLAN_OK;
}

/* Follow the uoffset stored at pos (4 bytes, inside); the target must be 4-aligned with 4 bytes inside. */
static aplan_status follow(aplan__fb *fb, size_t pos, const char *name, size_t *target) {
    uint64_t to = (uint64_t)pos + aplan__fb_u32(fb, pos);
    if (to >= fb->size || (to & 3u) != 0) {
        return aplan__fb_fail(fb, APLAN_E_FORMAT_BAD_OFFSET, pos, "%s: offset %s", name,
                              to >= fb->size ? "points past the end" : "is misaligned");
    }
    if (!inside(fb, to, 4u)) return aplan__fb_fail(fb, APLAN_E_FORMAT_TRUNCATED, to, "%s: runs past the end", name);
    *target = (size_t)to;
    return APLAN_OK;
}

aplan_status aplan__fb_get_table(aplan__fb *fb, const aplan__fb_table *t, unsigned id, const char *name,
                                 bool *present, aplan__fb_table *out) {
    size_t pos;
    size_t target = 0; /* set by follow() on success; initialised for -O3 -Wmaybe-uninitialized */
    *present = false;
    aplan_status st = aplan__fb_field(fb, t, id, 4u, name, &pos);
    if (st != APLAN_OK || pos == 0) return st;
    st = follow(fb, pos, name, &target);
    if (st == APLAN_OK) st = aplan__fb_table_at(fb, target, name, out);
    if (st == APLAN_OK) *present = true;
    return st;
}

/* The vector whose length word is at pos: elements of elem_size bytes plus `extra` bytes (a string's NUL). */
static aplan_status vector_at(aplan__fb *fb, size_t pos, size_t elem_size, size_t extra, const char *name,
                              aplan__fb_vec *out) {
    uint32_t len = aplan__fb_u32(fb, pos);
    uint64_t bytes = (uint64_t)len * elem_size + extra; /* < 2^36: no overflow */
    if (!inside(fb, (uint64_t)pos + 4u, bytes)) {
        return aplan__fb_fail(fb, APLAN_E_FORMAT_TRUNCATED, pos, "%s: vector of %u elements runs past the end", name,
                              (uint64_t)len);
    }
    out->pos = pos + 4u;
    out->len = len;
    out->present = true;
    return APLAN_OK;
}

static aplan_status get_vector(aplan__fb *fb, const aplan__fb_table *t, unsigned id, size_t elem_size,
                               size_t extra, const char *name, aplan__fb_vec *out) {
    size_t pos;
    size_t target = 0; /* set by follow() on success; initialised for -O3 -Wmaybe-uninitialized */
    out->pos = 0;
    out->len = 0;
    out->present = false;
    aplan_status st = aplan__fb_field(fb, t, id, 4u, name, &pos);
    if (st != APLAN_OK || pos == 0) return st;
    st = follow(fb, pos, name, &target);
    if (st == APLAN_OK) st = vector_at(fb, target, elem_size, extra, name, out);
    return st;
}

aplan_status aplan__fb_get_vector(aplan__fb *fb, const aplan__fb_table *t, unsigned id, size_t elem_size,
                                  const char *name, aplan__fb_vec *out) {
    return get_vector(fb, t, id, elem_size, 0, name, out);
}

aplan_status aplan__fb_get_string(aplan__fb *fb, const aplan__fb_table *t, unsigned id, const char *name,
                                  aplan__fb_vec *out) {
    return get_vector(fb, t, id, 1u, 1u, name, out);
}

aplan_status aplan__fb_vec_table(aplan__fb *fb, const aplan__fb_vec *v, uint32_t i, const char *what,
                                 aplan__fb_table *out) {
    APLAN_ASSERT(i < v->len);
    size_t target = 0; /* set by follow() on success; initialised for -O3 -Wmaybe-uninitialized */
    aplan_status st = follow(fb, v->pos + 4u * (size_t)i, what, &target);
    if (st == APLAN_OK) st = aplan__fb_table_at(fb, target, what, out);
    return st;
}
