/*
 * Internals shared by the core and the built-in strategies. Not installed; names start with aplan__.
 * Nothing here allocates, prints or reads files.
 */
#ifndef APLAN_CORE_INTERNAL_H
#define APLAN_CORE_INTERNAL_H

#include "aplan/aplan.h"

/*
 * APLAN_COMPACT=1 (meson option `compact`) selects the device configuration: the least code and scratch rather than
 * the best time. Strategies keep their results (the same offsets); greedy_by_size walks a list in O(n^2) as TFLM's
 * planner does, sorts are insertion sorts, and aplan_plan checks plans with the verifier's and the bound's
 * pairwise paths, which need no scratch, so the sweeps are left out.
 */
#ifndef APLAN_COMPACT
#  define APLAN_COMPACT 0
#endif

/* Text that only people read (strategy descriptions): compiled out with the status names under
 * APLAN_NO_STATUS_STRINGS, to save ROM. */
#ifdef APLAN_NO_STATUS_STRINGS
#  define APLAN_TEXT(s) ""
#else
#  define APLAN_TEXT(s) s
#endif

/*
 * APLAN_ASSERT(x) checks an internal invariant (never a caller mistake: those return a status). Override it with
 * -DAPLAN_ASSERT(x)=... The default traps without calling libc, so the freestanding core needs no assert().
 * NDEBUG builds compile it out.
 */
#ifndef APLAN_ASSERT
#  ifdef NDEBUG
#    define APLAN_ASSERT(x) ((void)0)
#  else
#    define APLAN_ASSERT(x) ((x) ? (void)0 : __builtin_trap())
#  endif
#endif

/* memset, memcpy and memmove go through these so a freestanding port can supply its own (lz4's LZ4_FREESTANDING idea); they
 * are the only libc functions the device side calls by name (memcpy: the .tflite writer's copy of the model), though
 * compilers may still emit memcpy/memset/memmove for struct copies. */
#ifndef APLAN_MEMSET
#  define APLAN_MEMSET(d, c, n) __builtin_memset((d), (c), (n))
#endif
#ifndef APLAN_MEMCPY
#  define APLAN_MEMCPY(d, s, n) __builtin_memcpy((d), (s), (n))
#endif
#ifndef APLAN_MEMMOVE
#  define APLAN_MEMMOVE(d, s, n) __builtin_memmove((d), (s), (n))
#endif
/* A hint that *p will be read soon (no effect on results); define it empty where the compiler has no such builtin. */
#ifndef APLAN_PREFETCH
#  define APLAN_PREFETCH(p) __builtin_prefetch(p)
#endif

/* Scratch: a bump allocator over caller memory. With base NULL it only measures, so one layout function serves
 * both the size query and the carving, and the two can never disagree. */
typedef struct aplan__scratch {
    unsigned char *base; /* NULL while measuring */
    size_t size;         /* bytes available */
    size_t used;         /* bytes taken so far, including alignment padding */
    bool failed;         /* a take() overflowed or ran out */
} aplan__scratch;

void aplan__scratch_init(aplan__scratch *s, void *base, size_t size);
/* count elements of elem_size bytes aligned to align (a power of two <= APLAN_SCRATCH_ALIGN). Returns NULL when
 * measuring, when count is 0, or on overflow / exhaustion (then s->failed is set and stays set). */
void *aplan__scratch_take(aplan__scratch *s, size_t count, size_t elem_size, size_t align);
/* The usual strategy scratch: k arrays of n buffer indices. take carves them (false, with s->failed, when they do
 * not fit); size gives the bytes they take from a fresh scratch (APLAN_E_SIZE_OVERFLOW when that passes SIZE_MAX). */
bool aplan__take_u32_arrays(aplan__scratch *s, size_t n, uint32_t **arrays, size_t k);
aplan_status aplan__u32_arrays_size(size_t n, size_t k, size_t *bytes);
/* Checks a caller's scratch pointer and size against a need: APLAN_E_SCRATCH_MISALIGNED / _TOO_SMALL / OK. */
aplan_status aplan__scratch_check(const void *scratch, size_t scratch_size, size_t need);

/* A strict weak order over buffer indices, total (ties broken by index) so that results are deterministic. Only
 * compact builds' aplan__split uses one; everything else sorts with aplan__sort_by. */
typedef bool (*aplan__less_fn)(const void *ctx, uint32_t a, uint32_t b);

/* The keys aplan__sort_by orders buffers by. */
typedef enum aplan__key {
    APLAN__BY_LOWER,     /* buffers[i].lower, ascending */
    APLAN__BY_UPPER,     /* buffers[i].upper, ascending */
    APLAN__BY_OFFSET,    /* offsets[i], ascending */
    APLAN__BY_SIZE_DESC, /* effective size, largest first */
    APLAN__BY_KEY32,     /* keys[i] of a uint32_t array, ascending: aplan__sort_by_key only */
} aplan__key;

/*
 * Stable sort of n buffer indices by key: equal keys keep their order in items (list them by rising index to get
 * ties by index). tmp needs room for n entries, is overwritten, and must not overlap items; offsets (uint64_t) is
 * read only for APLAN__BY_OFFSET, and holds the uint32_t keys for APLAN__BY_KEY32. O(n * b) for the b bytes in which the keys differ (at most 8): a radix sort, so at most 8 passes
 * over the items whatever their order. Short arrays, and every array in compact builds (tmp unused there, may be
 * NULL), use insertion sort: O(n^2), which is faster below a few dozen items.
 */
void aplan__sort_by(uint32_t *items, uint32_t *tmp, size_t n, aplan__key key, const aplan_problem *p,
                    const void *offsets);
/* The same (stable, radix or insertion sort, tmp as there) by keys[item], ascending: a key the strategy computed,
 * such as a count or a rank. O(n * b) for the b bytes in which the keys differ (at most 4). */
static inline void aplan__sort_by_key(uint32_t *items, uint32_t *tmp, size_t n, const uint32_t *keys) {
    aplan__sort_by(items, tmp, n, APLAN__BY_KEY32, NULL, keys);
}

/* Checked 64-bit arithmetic: false on overflow (then *out holds the wrapped sum). */
static inline bool aplan__add(uint64_t a, uint64_t b, uint64_t *out) { return !__builtin_add_overflow(a, b, out); }
/* Round v up to a power-of-two alignment; false on overflow, and then *out is left untouched. */
static inline bool aplan__align_up(uint64_t v, uint64_t align, uint64_t *out) {
    uint64_t t;
    if (!aplan__add(v, align - 1u, &t)) return false;
    *out = t & ~(align - 1u);
    return true;
}

/*
 * A buffer's fields, whichever records the problem holds (aplan_buffer, or aplan_buffer32 under APLAN_BUFFERS32):
 * every read of a buffer in the core and the strategies goes through these, widened to 64 bits. Problem valid (or,
 * in validation, its pointer checked), i < count. O(1); a predictable branch where a problem may hold either.
 */
static inline bool aplan__is32(const aplan_problem *p) { return (p->flags & APLAN_BUFFERS32) != 0; }
static inline uint64_t aplan__lower(const aplan_problem *p, size_t i) {
    return aplan__is32(p) ? p->buffers32[i].lower : p->buffers[i].lower;
}
static inline uint64_t aplan__upper(const aplan_problem *p, size_t i) {
    return aplan__is32(p) ? p->buffers32[i].upper : p->buffers[i].upper;
}
/* The size as given (aplan__size below: as planned). */
static inline uint64_t aplan__given_size(const aplan_problem *p, size_t i) {
    return aplan__is32(p) ? p->buffers32[i].size : p->buffers[i].size;
}
/* The fixed offset, or APLAN_NO_OFFSET. */
static inline uint64_t aplan__fixed(const aplan_problem *p, size_t i) {
    if (!aplan__is32(p)) return p->buffers[i].offset;
    const uint32_t at = p->buffers32[i].offset;
    return at == APLAN_NO_OFFSET32 ? APLAN_NO_OFFSET : at;
}
/* The buffer as an aplan_buffer (alignment 0 for a compact record: the problem's). */
static inline aplan_buffer aplan__buffer(const aplan_problem *p, size_t i) {
    if (!aplan__is32(p)) return p->buffers[i];
    aplan_buffer b = {p->buffers32[i].size, p->buffers32[i].lower, p->buffers32[i].upper, 0, aplan__fixed(p, i)};
    return b;
}

/* aplan_buffer_alignment and aplan_buffer_size, inline for the hot loops (the public functions call these): a call
 * through the shared library's symbol table costs more than the work. Problem valid, i < count. */
static inline uint64_t aplan__alignment_inline(const aplan_problem *p, size_t i) {
    const uint64_t a = aplan__is32(p) ? 0 : p->buffers[i].alignment;
    return a != 0 ? a : p->alignment;
}
static inline uint64_t aplan__size_inline(const aplan_problem *p, size_t i) {
    const uint64_t size = aplan__given_size(p, i);
    if ((p->flags & APLAN_ROUND_SIZES) == 0) return size;
    const uint64_t a = aplan__alignment_inline(p, i);
    /* Validation guarantees this does not overflow; APLAN_ASSERT catches a caller that skipped it, and with NDEBUG
     * the size saturates rather than wrapping to a small number. */
    APLAN_ASSERT(size <= UINT64_MAX - (a - 1u));
    return size <= UINT64_MAX - (a - 1u) ? (size + (a - 1u)) & ~(a - 1u) : UINT64_MAX;
}
/* Compact builds call the one out-of-line copy instead: code matters more than time there. */
#if APLAN_COMPACT
#  define aplan__alignment aplan_buffer_alignment
#  define aplan__size aplan_buffer_size
#else
#  define aplan__alignment aplan__alignment_inline
#  define aplan__size aplan__size_inline
#endif

/* True iff the buffer is live at some step and occupies memory: only such buffers can conflict. */
static inline bool aplan__occupies(const aplan_problem *p, size_t i) {
    return aplan__lower(p, i) < aplan__upper(p, i) && aplan__size(p, i) != 0;
}

/*
 * Interval tree over buffer lifetimes whose members switch on as they are placed. Built once over a set of buffers
 * (those that occupy memory): they are sorted by (lower, index) and read as an implicit balanced tree (the middle of
 * a range is its root), each node keeping the placed member with the largest upper step in its subtree. A member
 * counts, in queries, from the moment it is placed (offsets[member] != APLAN_NO_OFFSET) and aplan__itree_place has
 * been called for it. Memory: 8 bytes per member (order + max), carved by the caller. No recursion: the walks use a
 * fixed stack of 64 ranges, enough for any tree of up to 2^32 members (depth <= 33).
 */
typedef struct aplan__itree {
    const aplan_problem *problem;
    const uint64_t *offsets;
    uint32_t *order; /* members sorted by (lower, index) */
    uint32_t *maxup; /* per implicit node: placed member with the largest upper in its subtree, or UINT32_MAX */
    size_t count;
} aplan__itree;

/* order must hold the members (any order; sorted here, with tmp: count entries, see aplan__sort_by); those already
 * placed count at once. O(m log m). */
void aplan__itree_build(aplan__itree *t, const aplan_problem *p, const uint64_t *offsets, uint32_t *order,
                        uint32_t *maxup, uint32_t *tmp, size_t count);
/* Makes member (a buffer index in the tree, offsets[member] set) count in queries. O(log m). */
void aplan__itree_place(aplan__itree *t, uint32_t member);
/* Writes to out[] every placed member whose lifetime intersects [lower, upper), in no particular order, and returns
 * how many. out must have room for count entries. O(log m + hits * log m) at worst, O(log m + hits) typically. */
size_t aplan__itree_query(const aplan__itree *t, uint64_t lower, uint64_t upper, uint32_t *out);

/*
 * Lowest offset >= floor, aligned to align, at which size bytes miss every neighbour. nb[] lists buffers already
 * placed (offsets[] set) sorted by (offset, index). *pos (in/out) is the first neighbour still to look at: entries
 * before it are known to end at or below floor, which lets a caller with a rising floor walk nb[] once in all.
 * Fails with APLAN_E_SIZE_OVERFLOW when the offset or its end would pass 2^64 - 1. O(neighbours looked at).
 */
aplan_status aplan__first_gap(const aplan_problem *p, const uint64_t *offsets, const uint32_t *nb, size_t count,
                              size_t *pos, uint64_t floor, uint64_t size, uint64_t align, uint64_t *out);
/*
 * The first step of every placing strategy: fixed buffers get their fixed offsets, buffers that take no space get
 * offset 0 (they conflict with nothing), and the others are listed, in index order, in place[] (to be placed; they
 * keep APLAN_NO_OFFSET) or, for fixed ones, in fixed[]; either array may be NULL (not listed, count still set). A
 * buffer takes space when its effective size is non-zero and, if by_lifetime, it is live at some step (strategies
 * that reuse memory); linear, which never reuses, passes false. With `less` (compact builds, where code matters
 * more than time) place[] comes out in that order instead, by insertion: O(n * m) for m listed. Arrays need room for
 * count entries. O(n). Inline so that each strategy's call compiles to just the cases it uses.
 */
static inline void aplan__split(const aplan_problem *p, bool by_lifetime, uint64_t *offsets, uint32_t *place,
                                size_t *n_place, uint32_t *fixed, size_t *n_fixed, aplan__less_fn less) {
    size_t np = 0, nf = 0;
    for (uint32_t i = 0; i < p->count; i++) {
        const bool takes_space = by_lifetime ? aplan__occupies(p, i) : aplan__size(p, i) != 0;
        const uint64_t fixed_at = aplan__fixed(p, i);
        if (fixed_at != APLAN_NO_OFFSET) {
            offsets[i] = fixed_at;
            if (takes_space && fixed != NULL) fixed[nf] = i;
            nf += takes_space;
        } else if (!takes_space) {
            offsets[i] = 0;
        } else if (place != NULL) {
            size_t at = np++;
            for (; less != NULL && at > 0 && less(p, i, place[at - 1u]); at--) place[at] = place[at - 1u];
            place[at] = i;
        } else {
            np++;
        }
    }
    *n_place = np;
    if (n_fixed != NULL) *n_fixed = nf;
}

#include <stdarg.h> /* va_list for aplan__vputf: a freestanding header, no libc behind it */

/* Text without printf: appends while room is left (always NUL-terminated when size > 0) but counts every
 * character, so len is the length the whole text needs, as snprintf returns. out may be NULL when size is 0. */
typedef struct aplan__text {
    char *out;
    size_t size;
    size_t len;
} aplan__text;
void aplan__put(aplan__text *w, const char *s);
void aplan__put_u64(aplan__text *w, uint64_t v);
/*
 * Append format with its conversions replaced, under the same rules as aplan__put. The conversions, and the type
 * each one reads (exactly that type: any other is undefined behaviour, which on 32-bit targets garbles this and
 * every later argument, so cast, e.g. (uint64_t)x for a uint32_t or size_t x):
 *   %s  const char *, not NULL: the string
 *   %u  uint64_t: decimal
 *   %d  int64_t: decimal, '-' before a negative value
 *   %%  no argument: one '%'
 * No flags, widths or precisions. A '%' followed by anything else (or ending the format) is written as it stands
 * and reads no argument. Not a printf: there is no format attribute, so the compiler does not check the types.
 * aplan__vputf is the same over a va_list, which the caller started and ends.
 */
void aplan__putf(aplan__text *w, const char *format, ...);
void aplan__vputf(aplan__text *w, const char *format, va_list args);

/*
 * Entry points that trust their problem: the caller has validated it (aplan_problem_validate returned APLAN_OK) and
 * checked scratch against the size query. aplan_plan calls these so that one plan validates once; the public
 * aplan_lower_bound and aplan_verify validate, check their arguments and then call them. Same results, same
 * complexity as the public functions; scratch NULL selects the O(n^2) paths that need none.
 */
aplan_status aplan__lower_bound(const aplan_problem *p, void *scratch, size_t scratch_size, uint64_t *bound,
                                uint64_t *step);
aplan_status aplan__verify(const aplan_problem *p, const uint64_t *offsets, uint64_t arena_size, void *scratch,
                           size_t scratch_size, aplan_report *report);

/*
 * Regions (<aplan/regions.h>, src/core/regions.c). The problem and regions are valid.
 *   aplan__region_mask     buffer i's allowed regions (every region for a mask of 0);
 *   aplan__region_first    the first region it may use (a fixed buffer's only one);
 *   aplan__region_align    region r's offset alignment (1 for 0);
 *   aplan__region_uses     buffer i's uses (1 without a uses array);
 *   aplan__region_sub      the buffers of region r (region_of[i] == r; with region_of NULL, those that may go only
 *                          to r) into buffers[] and sub: sizes as the problem's (aplan_buffer_size, the rounding
 *                          flag cleared), alignment the larger of the buffer's and the region's, fixed offsets kept,
 *                          capacity the region's, APLAN_ALLOW_FIXED_ALIAS kept; map[k] is the problem's index of
 *                          the sub-problem's buffer k. Returns how many. O(n);
 *   aplan__region_sub_size the scratch of a phase over one sub-problem at a time: its buffers, map and offsets (n
 *                          each: 52 bytes per buffer) and extra bytes after them;
 *   aplan__region_bounds, aplan__region_verify: the public calls without their checks (validated, scratch
 *                          checked).
 */
#include "aplan/regions.h"
uint64_t aplan__region_mask(const aplan_regions *rg, size_t i);
size_t aplan__region_first(const aplan_regions *rg, size_t i);
uint64_t aplan__region_align(const aplan_regions *rg, size_t r);
uint64_t aplan__region_uses(const aplan_regions *rg, size_t i);
size_t aplan__region_sub(const aplan_problem *p, const aplan_regions *rg, size_t r, const uint32_t *region_of,
                         aplan_buffer *buffers, uint32_t *map, aplan_problem *sub);
aplan_status aplan__region_sub_size(size_t n, size_t extra, size_t *bytes);
aplan_status aplan__region_bounds(const aplan_problem *p, const aplan_regions *rg, void *scratch,
                                  size_t scratch_size, uint64_t *bounds, uint64_t *traffic_bound);
aplan_status aplan__region_verify(const aplan_problem *p, const aplan_regions *rg, const uint32_t *region_of,
                                  const uint64_t *offsets, const uint64_t *arenas, void *scratch,
                                  size_t scratch_size, aplan_report *r);

/* Search options aplan_plan_search and aplan_region_plan accept: a known goal, reserved fields zero. Inline: the
 * device's aplan_plan pays nothing for sharing it. */
static inline bool aplan__search_options_valid(const aplan_search_options *o) {
    if (o->goal != APLAN_GOAL_MINIMISE && o->goal != APLAN_GOAL_FIT) return false;
    for (size_t i = 0; i < sizeof o->reserved / sizeof o->reserved[0]; i++) {
        if (o->reserved[i] != 0) return false;
    }
    return true;
}

/* Report helpers: set rule and buffer (keeping aliased_pairs), and for _value the quantity and its limit. */
void aplan__report_buffer(aplan_report *r, aplan_status rule, size_t a);
void aplan__report_value(aplan_report *r, aplan_status rule, size_t a, uint64_t value, uint64_t limit);

#endif /* APLAN_CORE_INTERNAL_H */
