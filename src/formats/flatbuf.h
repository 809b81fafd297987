/*
 * A bounds-checked FlatBuffers reader over (pointer, length): no allocation, no libc, any input alignment.
 *
 * Every access is checked before the first byte is read: a table's soffset and vtable, a field's voffset against
 * the vtable and table sizes, a uoffset's target, a vector's length times its element size. Scalars are assembled
 * byte by byte (little-endian), so the input needs no alignment in memory; offsets are still required to be
 * aligned relative to the start of the input (tables, vectors and uoffsets to 4, vtables to 2), as the FlatBuffers
 * builder writes them.
 *
 * uoffsets only point forward, so following them cannot loop; the reader never follows an offset it was not told
 * to follow, so it costs O(1) stack.
 *
 * Errors: the first failure is recorded in the reader (status, byte offset, message) and every later call returns
 * it unchanged. Messages start with the context the caller set (e.g. "subgraph 0 tensor 7: ").
 *
 * Work: FlatBuffers lets many offsets point at one table or vector, so a reader that follows every offset can do
 * far more work than the input has bytes (one table of L entries referenced K times costs K * L). The reader counts
 * work in units: every table opened (aplan__fb_table_at), every field looked up (aplan__fb_field and the getters
 * built on it) and every vector opened (a field's vector or string) is one unit, and a caller that walks a
 * vector's elements charges them with aplan__fb_charge before the loop. Each
 * unit is O(1) time, so a reader whose every loop is charged runs in O(budget) time. Once the units pass the
 * budget (aplan__fb_set_budget; unlimited after aplan__fb_init), the reader fails with APLAN_E_FORMAT_UNSUPPORTED
 * ("work budget of N units (P per byte + B) exceeded: ...") at the byte being read.
 *
 * Internal to aplan; names start with aplan__fb.
 */
#ifndef APLAN_FORMATS_FLATBUF_H
#define APLAN_FORMATS_FLATBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aplan/formats.h"
#include "core/internal.h"

#define APLAN__FB_CONTEXT_DEPTH 3u

typedef struct aplan__fb {
    const uint8_t *data;                           /* the input */
    size_t size;                                   /* its length in bytes */
    aplan_format_error *error;                     /* where failures go (never NULL) */
    const char *ctx_name[APLAN__FB_CONTEXT_DEPTH]; /* message prefix: "subgraph 0 tensor 7: " */
    uint64_t ctx_index[APLAN__FB_CONTEXT_DEPTH];
    unsigned ctx_depth;                            /* levels of ctx_name in use */
    uint64_t work;                                 /* units of work charged so far */
    uint64_t budget;                               /* most units allowed; UINT64_MAX: no limit */
    uint64_t per_byte;                             /* the budget's terms, for the message: per_byte * size + */
    uint64_t base;                                 /*   base (both 0 when unlimited) */
} aplan__fb;

/* A verified table: its position, its vtable's position and the two sizes the vtable declares. */
typedef struct aplan__fb_table {
    size_t pos;
    size_t vtable;
    uint16_t vtable_size;
    uint16_t table_size;
} aplan__fb_table;

/* A verified vector: position of element 0, element count, and whether the field was present at all. */
typedef struct aplan__fb_vec {
    size_t pos;
    uint32_t len;
    bool present;
} aplan__fb_vec;

/* Start reading; error must not be NULL and is cleared. */
void aplan__fb_init(aplan__fb *fb, const void *data, size_t size, aplan_format_error *error);

/* Limit the work to per_byte * size + base units (saturating at UINT64_MAX - 1). The count so far is kept. */
void aplan__fb_set_budget(aplan__fb *fb, uint64_t per_byte, uint64_t base);

/* Charge `units` of work, about to be done at byte pos (a vector's first element, say). APLAN_OK while the total
 * stays within the budget; else the failure described above (recorded, and returned by every later call). O(1). */
aplan_status aplan__fb_charge(aplan__fb *fb, uint64_t units, size_t pos);

/* Set context level `level` (0-based) to "<name> <index>" and drop deeper levels. */
void aplan__fb_context(aplan__fb *fb, unsigned level, const char *name, uint64_t index);
/* Keep only the first `levels` context levels. */
void aplan__fb_context_pop(aplan__fb *fb, unsigned levels);

/* Record a failure: status, byte `offset` and the message "<context>: <detail>" ("<detail>" with no context set),
 * the detail being format with its arguments as aplan__putf takes them (%s, %u for uint64_t, %d for int64_t, %%).
 * Only the first failure is kept: once one is recorded, later calls change nothing. Returns the recorded status. */
aplan_status aplan__fb_fail(aplan__fb *fb, aplan_status status, uint64_t offset, const char *format, ...);

/* Raw little-endian loads; pos + width must already be checked against the size. */
uint8_t aplan__fb_u8(const aplan__fb *fb, size_t pos);
uint16_t aplan__fb_u16(const aplan__fb *fb, size_t pos);
uint32_t aplan__fb_u32(const aplan__fb *fb, size_t pos);
uint64_t aplan__fb_u64(const aplan__fb *fb, size_t pos);
static inline int32_t aplan__fb_i32(const aplan__fb *fb, size_t pos) { return (int32_t)aplan__fb_u32(fb, pos); }

/* The root table (uoffset at byte 0) after checking the header: at least 8 bytes and the identifier at 4..7. */
aplan_status aplan__fb_root(aplan__fb *fb, const char identifier[4], aplan__fb_table *root);

/* Verify the table at pos: aligned, soffset in range, vtable aligned and inside, sizes sane and inside. */
aplan_status aplan__fb_table_at(aplan__fb *fb, size_t pos, const char *what, aplan__fb_table *out);

/* Position of field `id` of `width` bytes, or 0 when absent (the vtable is too short or the voffset is 0). */
aplan_status aplan__fb_field(aplan__fb *fb, const aplan__fb_table *t, unsigned id, size_t width, const char *name,
                             size_t *pos);

/* Scalar fields with their schema defaults. */
aplan_status aplan__fb_get_u8(aplan__fb *fb, const aplan__fb_table *t, unsigned id, const char *name, uint8_t def,
                              uint8_t *out);
aplan_status aplan__fb_get_u32(aplan__fb *fb, const aplan__fb_table *t, unsigned id, const char *name,
                               uint32_t def, uint32_t *out);
aplan_status aplan__fb_get_i32(aplan__fb *fb, const aplan__fb_table *t, unsigned id, const char *name, int32_t def,
                               int32_t *out);
aplan_status aplan__fb_get_u64(aplan__fb *fb, const aplan__fb_table *t, unsigned id, const char *name,
                               uint64_t def, uint64_t *out);

/* A sub-table field; *present false (and out untouched) when absent. */
aplan_status aplan__fb_get_table(aplan__fb *fb, const aplan__fb_table *t, unsigned id, const char *name,
                                 bool *present, aplan__fb_table *out);
/* A vector field of elem_size-byte elements; absent gives len 0, present false. */
aplan_status aplan__fb_get_vector(aplan__fb *fb, const aplan__fb_table *t, unsigned id, size_t elem_size,
                                  const char *name, aplan__fb_vec *out);
/* A string field: a byte vector followed by a NUL that must lie inside the input. */
aplan_status aplan__fb_get_string(aplan__fb *fb, const aplan__fb_table *t, unsigned id, const char *name,
                                  aplan__fb_vec *out);

/* Element i (< len) of a vector of 4-byte scalars. */
static inline uint32_t aplan__fb_vec_u32(const aplan__fb *fb, const aplan__fb_vec *v, uint32_t i) {
    return aplan__fb_u32(fb, v->pos + 4u * (size_t)i);
}
static inline int32_t aplan__fb_vec_i32(const aplan__fb *fb, const aplan__fb_vec *v, uint32_t i) {
    return (int32_t)aplan__fb_vec_u32(fb, v, i);
}
/* Table i (< len) of a vector of tables; `what` names it in messages. */
aplan_status aplan__fb_vec_table(aplan__fb *fb, const aplan__fb_vec *v, uint32_t i, const char *what,
                                 aplan__fb_table *out);

#endif /* APLAN_FORMATS_FLATBUF_H */
