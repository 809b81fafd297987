/*
 * aplan: tensor arena planning with pluggable strategies, a verifier and a lower bound.
 *
 * The whole public contract of the core lives in this header. It needs only <stddef.h>, <stdint.h> and <stdbool.h>,
 * never allocates, never prints and never touches a file: every byte of working memory comes from the caller.
 *
 * Typical use:
 *   1. describe the buffers (aplan_buffer) and the problem (aplan_problem_init, then adjust);
 *   2. pick a strategy (aplan_strategy_find or a built-in getter from <aplan/strategies.h>);
 *   3. ask aplan_plan_scratch_size how many scratch bytes the plan needs and provide them (APLAN_SCRATCH_ALIGN
 *      aligned);
 *   4. call aplan_plan: it validates the problem, runs the strategy, verifies the result and reports the arena size
 *      beside the lower bound.
 *
 * Thread-safety: every function is reentrant; concurrent calls must not share scratch or output arrays.
 */
#ifndef APLAN_APLAN_H
#define APLAN_APLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * APLAN_API marks every function the library exports. The library is compiled with hidden visibility by default,
 * so nothing else (in particular no aplan__ internal) leaves a shared build. Define APLAN_API yourself (e.g. empty)
 * before including any aplan header to override it; a device build that links the core statically needs nothing.
 */
#ifndef APLAN_API
#  if defined(__GNUC__) || defined(__clang__)
#    define APLAN_API __attribute__((visibility("default")))
#  else
#    define APLAN_API
#  endif
#endif

/*
 * Build-time configuration (meson options set these for the library; a device build sets them itself):
 *   APLAN_COMPACT=1          the device configuration: least code and scratch, same plans (docs/footprint.md);
 *   APLAN_NO_STATUS_STRINGS  status names and strategy descriptions compiled out to save ROM;
 *   APLAN_WITH_<OPTION>=0|1  builds a built-in strategy or leaves it out, one for each OPTION of
 *                            APLAN_BUILTIN_STRATEGIES in <aplan/strategies.h>; every one must be defined.
 */

/*
 * The version, written here only: meson.build reads these three lines for the project, the shared library and the
 * pkg-config file. While MAJOR is 0 a MINOR change may break the ABI (the shared library's soname carries both).
 */
#define APLAN_VERSION_MAJOR 0
#define APLAN_VERSION_MINOR 5
#define APLAN_VERSION_PATCH 0
/*
 * The oldest version whose programs compile and behave unchanged against these headers: every version from it to
 * this one is compatible at the source level (types and functions were only appended), and the CMake package
 * accepts a find_package() request for any of them. The binary interface is the soname's business:
 * libaplan.so.0.MINOR, so a program linked against an older MINOR's library is relinked, not rewritten.
 */
#define APLAN_COMPATIBLE_MAJOR 0
#define APLAN_COMPATIBLE_MINOR 5
/** MAJOR * 10000 + MINOR * 100 + PATCH, for compile-time comparisons. */
#define APLAN_VERSION_NUMBER (APLAN_VERSION_MAJOR * 10000 + APLAN_VERSION_MINOR * 100 + APLAN_VERSION_PATCH)
#define APLAN_STRINGIFY_(x) #x
#define APLAN_STRINGIFY(x) APLAN_STRINGIFY_(x)
/** "MAJOR.MINOR.PATCH" of this header. */
#define APLAN_VERSION_STRING                                                                                    \
    APLAN_STRINGIFY(APLAN_VERSION_MAJOR) "." APLAN_STRINGIFY(APLAN_VERSION_MINOR) "."                           \
    APLAN_STRINGIFY(APLAN_VERSION_PATCH)

/** The version of the library linked at run time, "MAJOR.MINOR.PATCH" (may differ from APLAN_VERSION_STRING when
 *  a shared library was updated under a program). Static string; O(1). */
APLAN_API const char *aplan_version(void);
/** The same as APLAN_VERSION_NUMBER of the library linked at run time. O(1). */
APLAN_API uint32_t aplan_version_number(void);

/** Alignment, in bytes, that every scratch buffer handed to aplan must have. */
#define APLAN_SCRATCH_ALIGN 8u

/** Marks a buffer that has no fixed offset (aplan_buffer.offset) and an unplaced entry of an offsets array. */
#define APLAN_NO_OFFSET UINT64_MAX

/** aplan_problem.capacity value meaning "no limit on the arena size". */
#define APLAN_UNLIMITED UINT64_MAX

/** aplan_report buffer index meaning "no buffer involved". */
#define APLAN_NO_BUFFER SIZE_MAX

/** Most buffers one problem may hold; indices then fit 32 bits in strategy scratch. */
#define APLAN_MAX_BUFFERS ((size_t)UINT32_MAX - 1u)

/**
 * Status codes. Values are part of the ABI and never change once released; new codes are only appended.
 * 0 is success; 1..63 are the core's; 64..127 belong to the input formats (see <aplan/formats.h>).
 */
typedef enum aplan_status {
    APLAN_OK = 0,                      /**< Success. */
    APLAN_E_INVALID_ARG = 1,           /**< A required pointer is NULL or an argument is out of its domain. */
    APLAN_E_TOO_MANY_BUFFERS = 2,      /**< More than APLAN_MAX_BUFFERS buffers. */
    APLAN_E_BAD_ALIGNMENT = 3,         /**< An alignment is not a power of two (buffer: 0 allowed, meaning default). */
    APLAN_E_BAD_LIFETIME = 4,          /**< A buffer's lower step is greater than its upper step. */
    APLAN_E_MISALIGNED_OFFSET = 5,     /**< An offset (fixed, or planned) is not a multiple of its alignment. */
    APLAN_E_SIZE_OVERFLOW = 6,         /**< A size, offset + size, rounding or sum does not fit 64 bits. */
    APLAN_E_CAPACITY_EXCEEDED = 7,     /**< The arena (or a buffer, or the lower bound) exceeds the capacity. */
    APLAN_E_SCRATCH_TOO_SMALL = 8,     /**< The scratch buffer is smaller than the size query returned. */
    APLAN_E_SCRATCH_MISALIGNED = 9,    /**< The scratch pointer is not APLAN_SCRATCH_ALIGN aligned. */
    APLAN_E_UNKNOWN_STRATEGY = 10,     /**< No built-in strategy has the requested name. */
    APLAN_E_UNSUPPORTED_VERSION = 11,  /**< A strategy's abi_version is not one this library understands. */
    APLAN_E_OFFSET_MISSING = 12,       /**< The strategy needs a fixed offset on a buffer that has none. */
    APLAN_E_UNPLACED = 13,             /**< Verifier: a buffer has no offset (APLAN_NO_OFFSET). */
    APLAN_E_FIXED_MOVED = 14,          /**< Verifier: a fixed buffer is not at its fixed offset. */
    APLAN_E_OUT_OF_ARENA = 15,         /**< Verifier: offset + size lies beyond the reported arena size. */
    APLAN_E_ARENA_MISMATCH = 16,       /**< Verifier: the reported arena size is not the highest buffer end. */
    APLAN_E_OVERLAP = 17,              /**< Verifier: two buffers live at the same step share bytes. */
    APLAN_E_FIXED_OVERLAP = 18,        /**< Two fixed buffers live at the same step share bytes (input conflict). */
    APLAN_E_PLAN_REJECTED = 19,        /**< aplan_plan: the strategy's plan failed verification (see report.rule). */
    APLAN_E_STRATEGY_FAILED = 20,      /**< The strategy gave up for a reason of its own (e.g. search budget). */
    APLAN_E_OUT_OF_MEMORY = 21,        /**< Host-side readers (CSV): the allocator failed. The core never allocates. */
    APLAN_E_BAD_REGION = 22,           /**< Since 0.4 (<aplan/regions.h>): a region count out of range, a buffer's
                                            regions naming none of the problem's, a fixed buffer not in one region. */
    APLAN_E_WRONG_REGION = 23,         /**< Since 0.4, verifier: a buffer placed in a region it may not go to. */

    /* Input formats (<aplan/formats.h>): the error's byte offset, line and column say where. */
    APLAN_E_FORMAT_TRUNCATED = 64,     /**< The input ends inside a structure it declares. */
    APLAN_E_FORMAT_BAD_OFFSET = 65,    /**< An offset or index in the input points outside it or is misaligned. */
    APLAN_E_FORMAT_BAD_VALUE = 66,     /**< A field holds a value outside its domain (type, shape, index, id). */
    APLAN_E_FORMAT_UNSUPPORTED = 67,   /**< Well-formed input using something aplan does not handle. */
    APLAN_E_FORMAT_BAD_METADATA = 68,  /**< A malformed offline plan (OfflineMemoryAllocation) in a model. */
    APLAN_E_FORMAT_SYNTAX = 69,        /**< Text input: a missing column, a non-number, a bad header. */
    APLAN_E_FORMAT_UNKNOWN = 70,       /**< The input is neither a .tflite flatbuffer nor a CSV table. */
    APLAN_E_OUTPUT_TOO_SMALL = 71      /**< A caller-provided output array has fewer entries than needed. */
} aplan_status;

/**
 * Static, human-readable name of a status ("scratch buffer too small"). Never NULL; unknown values give
 * "unknown status". Built with APLAN_NO_STATUS_STRINGS every call returns "" to save ROM.
 */
APLAN_API const char *aplan_status_str(aplan_status status);

/** One buffer (tensor) to place. Plain data: fill it directly. */
typedef struct aplan_buffer {
    uint64_t size;      /**< Bytes. 0 is allowed: such a buffer occupies no memory and conflicts with nothing. */
    uint64_t lower;     /**< First step at which the buffer is live (steps). */
    uint64_t upper;     /**< First step at which it is no longer live; [lower, upper) is half-open, lower == upper
                             means never live (conflicts with nothing). */
    uint64_t alignment; /**< Offset alignment in bytes: a power of two, or 0 for the problem's default. */
    uint64_t offset;    /**< Fixed (offline-planned) offset in bytes, or APLAN_NO_OFFSET to let the strategy choose. */
} aplan_buffer;

/**
 * One buffer in 16 bytes (since 0.5), for a planner that keeps its records in the memory it plans, such as a planner
 * inside TFLM's arena, where aplan_buffer's 40 bytes would cost more than the plan saves. The same meaning as
 * aplan_buffer's fields, in 32 bits; the alignment is the problem's. A problem holds these with
 * aplan_problem_init32 (flag APLAN_BUFFERS32), and every function of the library takes it as it takes aplan_buffer.
 */
typedef struct aplan_buffer32 {
    uint32_t size;   /**< Bytes. */
    uint32_t lower;  /**< First step at which the buffer is live. */
    uint32_t upper;  /**< First step at which it is no longer live. */
    uint32_t offset; /**< Fixed offset in bytes, or APLAN_NO_OFFSET32. */
} aplan_buffer32;

/** aplan_buffer32.offset of a buffer the strategy places (APLAN_NO_OFFSET's counterpart). */
#define APLAN_NO_OFFSET32 UINT32_MAX

/** aplan_problem.flags: round every size up to its buffer's alignment before planning (TFLM rounds to 16). */
#define APLAN_ROUND_SIZES 0x1u
/** aplan_problem.flags: two fixed buffers may share bytes while both are live; such pairs are counted in the
 *  report (aliased_pairs) instead of failing. Needed for offline plans that alias on purpose (Arm Vela). */
#define APLAN_ALLOW_FIXED_ALIAS 0x2u
/** aplan_problem.flags (since 0.5): the buffers are aplan_buffer32 records (buffers32); set by aplan_problem_init32. */
#define APLAN_BUFFERS32 0x4u
/**
 * aplan_problem.flags (since 0.5): plan in the least scratch, for time. aplan_plan_scratch_size then counts only the
 * strategy's need: aplan_plan checks the plan with the bound's and the verifier's pairwise paths (O(n^2), no
 * scratch) and hands the strategy the caller's offsets rather than a guarded copy (as compact builds always do, so a
 * strategy that writes past offsets[count] is not caught); strategies with a low-memory path take it:
 * greedy_by_size and greedy_by_size_tflm walk a list as TFLM's planner does (8 bytes a buffer, O(n^2)). The plans
 * are the same as without the flag; only scratch and time differ. A search (aplan_plan_search) on that path is not
 * stopped by its options. Compact builds plan this way always.
 */
#define APLAN_LOW_MEMORY 0x8u

/** A planning problem. Initialise with aplan_problem_init, then set the fields you need. */
typedef struct aplan_problem {
    union {
        const aplan_buffer *buffers;     /**< count buffers, owned by the caller, unchanged while any call runs. */
        const aplan_buffer32 *buffers32; /**< With APLAN_BUFFERS32: count compact buffers, the same contract. */
    };
    size_t count;                /**< Number of buffers (at most APLAN_MAX_BUFFERS). */
    uint64_t alignment;          /**< Default alignment in bytes for buffers whose alignment is 0 (power of two). */
    uint64_t capacity;           /**< Most bytes the arena may have, or APLAN_UNLIMITED. */
    uint32_t flags;              /**< APLAN_ROUND_SIZES | APLAN_ALLOW_FIXED_ALIAS | APLAN_BUFFERS32 |
                                      APLAN_LOW_MEMORY. */
    uint32_t reserved[7];        /**< Zero. Room for later fields without an ABI break. */
} aplan_problem;

/**
 * Initialise a problem: the given buffers, default alignment 1, no capacity limit, no flags. NULL is ignored (as
 * by every init, clear and free function of the library). Complexity O(1). Does not validate;
 * aplan_problem_validate and aplan_plan do.
 */
APLAN_API void aplan_problem_init(aplan_problem *problem, const aplan_buffer *buffers, size_t count);

/** The same over compact records (since 0.5): buffers32 and the flag APLAN_BUFFERS32 set, nothing else. O(1). */
APLAN_API void aplan_problem_init32(aplan_problem *problem, const aplan_buffer32 *buffers, size_t count);

/**
 * Where a check failed. Filled by validation, the verifier, the lower bound and strategies. Fields that do not apply
 * to a rule hold APLAN_NO_BUFFER (indices) or 0. buffer_a is the buffer at fault, or APLAN_NO_BUFFER when the rule
 * concerns the whole problem. What each rule sets besides:
 *   APLAN_E_OVERLAP, APLAN_E_FIXED_OVERLAP  buffer_b (buffer_a < buffer_b), the common steps [step_lo, step_hi) and
 *                                           the shared bytes [byte_lo, byte_hi);
 *   APLAN_E_BAD_LIFETIME                    step_lo = the buffer's lower step, step_hi = its upper step;
 *   APLAN_E_MISALIGNED_OFFSET               value = the offset, limit = the alignment;
 *   APLAN_E_FIXED_MOVED                     value = the planned offset, limit = the fixed offset;
 *   APLAN_E_OUT_OF_ARENA                    value = the buffer's end, limit = the arena size;
 *   APLAN_E_ARENA_MISMATCH                  value = the arena size claimed, limit = the highest buffer end;
 *   APLAN_E_CAPACITY_EXCEEDED               value = the bytes needed (a size, a fixed end, the lower bound or the
 *                                           arena), limit = the capacity;
 *   APLAN_E_SIZE_OVERFLOW                   value and limit = the two operands whose sum passes 2^64 - 1 (an offset
 *                                           or size, and a size or alignment);
 *   APLAN_E_BAD_ALIGNMENT                   value = the alignment;
 *   APLAN_E_TOO_MANY_BUFFERS                value = the count, limit = APLAN_MAX_BUFFERS;
 *   APLAN_E_UNPLACED, APLAN_E_OFFSET_MISSING nothing else.
 */
typedef struct aplan_report {
    aplan_status rule;     /**< APLAN_OK, or the rule that broke. */
    size_t buffer_a;       /**< Index of the buffer at fault (the lower index of an overlapping pair). */
    size_t buffer_b;       /**< For an overlap, the other buffer. */
    uint64_t step_lo;      /**< Overlap: first step at which both are live; bad lifetime: the buffer's lower. */
    uint64_t step_hi;      /**< Overlap: first step at which they no longer both are; bad lifetime: its upper. */
    uint64_t byte_lo;      /**< Overlap: first shared byte. */
    uint64_t byte_hi;      /**< Overlap: first byte past the shared range. */
    uint64_t value;        /**< Rules about one quantity: the value that broke the rule. */
    uint64_t limit;        /**< Rules about one quantity: the limit (or expected value) it broke. */
    size_t aliased_pairs;  /**< Pairs of fixed buffers that share bytes while live, allowed by
                                APLAN_ALLOW_FIXED_ALIAS (verifier only; 0 when it fails). Saturates at SIZE_MAX,
                                which a 32-bit size_t reaches (92,683 fixed buffers aliasing together). */
    uint32_t region;       /**< Since 0.4: the region the rule broke in, when in_region (<aplan/regions.h>). */
    uint32_t in_region;    /**< Since 0.4: 1 when the rule concerns region `region`, 0 otherwise (and always 0 from
                                the single-region calls). */
    uint64_t reserved[3];  /**< Zeroed by the library. Room for later fields without an ABI break. */
} aplan_report;

/** Reset a report to "no failure": rule APLAN_OK, no buffers, zero ranges and count. NULL is ignored. */
APLAN_API void aplan_report_clear(aplan_report *report);

/**
 * Write a one-line English description of a report into out (always NUL-terminated when out_size > 0), e.g.
 * "buffers 12 and 40 overlap at steps 7-9, bytes 4096-6143". Ranges are printed inclusive.
 * @return the length the full text needs, excluding the NUL (like snprintf); complexity O(length).
 */
APLAN_API size_t aplan_report_format(const aplan_report *report, char *out, size_t out_size);

/**
 * Check a problem: pointers, buffer count, every alignment a power of two, lower <= upper, rounded sizes and
 * fixed offset + size within 64 bits, fixed offsets aligned, no fixed buffer or single buffer above the capacity.
 * @param[in]  problem the problem.
 * @param[out] report  optional (NULL allowed): which buffer broke which rule.
 * @return APLAN_OK, or the first failure in buffer order: APLAN_E_INVALID_ARG (NULL problem, NULL buffers with
 *         count > 0, a flag other than the four APLAN_ROUND_SIZES, APLAN_ALLOW_FIXED_ALIAS, APLAN_BUFFERS32 and
 *         APLAN_LOW_MEMORY, non-zero reserved),
 *         APLAN_E_TOO_MANY_BUFFERS, APLAN_E_BAD_ALIGNMENT, APLAN_E_BAD_LIFETIME, APLAN_E_SIZE_OVERFLOW,
 *         APLAN_E_MISALIGNED_OFFSET, APLAN_E_CAPACITY_EXCEEDED.
 * Complexity O(n).
 */
APLAN_API aplan_status aplan_problem_validate(const aplan_problem *problem, aplan_report *report);

/** Effective alignment of buffer i (its own, or the problem default). Problem must be valid, i < count. O(1). */
APLAN_API uint64_t aplan_buffer_alignment(const aplan_problem *problem, size_t i);
/** Effective size of buffer i (rounded up to its alignment under APLAN_ROUND_SIZES). Problem valid, i < count. */
APLAN_API uint64_t aplan_buffer_size(const aplan_problem *problem, size_t i);
/** Buffer i as an aplan_buffer, whichever records the problem holds (since 0.5): a compact record's alignment reads
 *  0 (the problem's) and APLAN_NO_OFFSET32 reads APLAN_NO_OFFSET. How a strategy reads a buffer. Problem valid,
 *  i < count. O(1). */
APLAN_API aplan_buffer aplan_buffer_at(const aplan_problem *problem, size_t i);
/** True iff buffers i and j are both live at some step and both have a non-zero effective size. O(1). */
APLAN_API bool aplan_buffers_conflict(const aplan_problem *problem, size_t i, size_t j);

/* ------------------------------------------------------------------------------------------------------------ */
/* Lower bound                                                                                                   */

/** Scratch bytes aplan_lower_bound needs for its O(n log n) path: 12 per buffer (0 in a compact build, which has
 *  only the O(n^2) path). Returns APLAN_OK, APLAN_E_INVALID_ARG (a NULL argument) or APLAN_E_SIZE_OVERFLOW (the need
 *  passes SIZE_MAX; *bytes untouched). O(1). */
APLAN_API aplan_status aplan_lower_bound_scratch_size(const aplan_problem *problem, size_t *bytes);

/**
 * A lower bound on the arena of every valid plan: the largest of
 *   - the sum of effective sizes live at one step (over fixed buffers too; under APLAN_ALLOW_FIXED_ALIAS, live fixed
 *     buffers count only with the largest of them, as aliased ones may share bytes),
 *   - the largest effective size of any buffer (every buffer lies inside the arena, even one never live),
 *   - the highest end (offset + size) of a fixed buffer.
 * A plan whose arena equals the bound is optimal.
 * @param[in]  problem      a problem (validated here).
 * @param[in]  scratch      APLAN_SCRATCH_ALIGN-aligned memory of aplan_lower_bound_scratch_size bytes for the
 *                          O(n log n) sweep, or NULL for the O(n^2) path that needs none.
 * @param[out] bound        the bound in bytes.
 * @param[out] step         optional: a step at which the live sum is largest (0 when nothing is ever live).
 * @return APLAN_OK; a validation status; APLAN_E_SCRATCH_TOO_SMALL / APLAN_E_SCRATCH_MISALIGNED;
 *         APLAN_E_SIZE_OVERFLOW when a live sum exceeds 64 bits.
 */
APLAN_API aplan_status aplan_lower_bound(const aplan_problem *problem, void *scratch, size_t scratch_size,
                                         uint64_t *bound, uint64_t *step);

/* ------------------------------------------------------------------------------------------------------------ */
/* Verifier                                                                                                      */

/** Scratch bytes aplan_verify needs for its O(n log n) path: 16 per buffer plus 8 per leaf of a segment tree over the
 *  next power of two >= n, so at most 32 per buffer, with or without APLAN_ALLOW_FIXED_ALIAS (0 in a compact build,
 *  which has only the pairwise path).
 *  Returns APLAN_OK, APLAN_E_INVALID_ARG (a NULL argument) or APLAN_E_SIZE_OVERFLOW (the need passes SIZE_MAX;
 *  *bytes untouched). O(log n). */
APLAN_API aplan_status aplan_verify_scratch_size(const aplan_problem *problem, size_t *bytes);

/**
 * Check a plan against every rule, in this order, stopping at the first failure:
 *   1. every buffer is placed (APLAN_E_UNPLACED);
 *   2. every offset is a multiple of the buffer's alignment (APLAN_E_MISALIGNED_OFFSET);
 *   3. fixed buffers are at their fixed offsets (APLAN_E_FIXED_MOVED);
 *   4. offset + size fits 64 bits (APLAN_E_SIZE_OVERFLOW) and the arena size (APLAN_E_OUT_OF_ARENA);
 *   5. the arena size equals the highest end (APLAN_E_ARENA_MISMATCH);
 *   6. no two buffers live at a common step share a byte (APLAN_E_OVERLAP; APLAN_E_FIXED_OVERLAP when both are
 *      fixed and APLAN_ALLOW_FIXED_ALIAS is off; counted in report->aliased_pairs when it is on);
 *   7. the arena size is within the capacity (APLAN_E_CAPACITY_EXCEEDED).
 * Rules 1-4 report the first buffer in index order. Buffers of size 0 or never live overlap nothing. The capacity
 * comes last on purpose: APLAN_E_CAPACITY_EXCEEDED means the plan keeps every other rule and is only too big, so a
 * caller (and aplan_plan) may still show it. Both paths (sweep and pairwise) give the same status and, on success,
 * the same aliased_pairs; an overlap report may name another pair when several overlap: the sweep names the first
 * overlap in step order (by the later buffer's lower step, then index) and, of the buffers it overlaps then, the one
 * with the lowest offset; the pairwise path the first pair in index order.
 * Complexity: the sweep is O(n log n) with or without APLAN_ALLOW_FIXED_ALIAS, however many pairs alias (it counts
 * them without listing them; aplan_overlaps lists them); the pairwise path O(n^2).
 * @param[in]  problem    a problem (validated here; a validation failure is returned as is).
 * @param[in]  offsets    count offsets, one per buffer.
 * @param[in]  arena_size the arena size the plan claims.
 * @param[in]  scratch    aplan_verify_scratch_size bytes (APLAN_SCRATCH_ALIGN aligned) for the O(n log n) sweep,
 *                        or NULL for the O(n^2) pairwise path that needs no memory (tiny devices; a compact build
 *                        always takes it).
 * @param[out] report     optional: the rule that broke and the buffers, steps and bytes involved.
 * @return APLAN_OK or the failing rule (also in report->rule).
 */
APLAN_API aplan_status aplan_verify(const aplan_problem *problem, const uint64_t *offsets, uint64_t arena_size,
                                    void *scratch, size_t scratch_size, aplan_report *report);

/* ------------------------------------------------------------------------------------------------------------ */
/* Overlapping pairs and sorting: the verifier's sweep and the strategies' sort, for callers (since 0.3.1)        */

/**
 * Called by aplan_overlaps once per pair: pair->buffer_a < pair->buffer_b, pair->rule APLAN_E_FIXED_OVERLAP when
 * both have a fixed offset and APLAN_E_OVERLAP otherwise, the common steps [step_lo, step_hi) and the shared bytes
 * [byte_lo, byte_hi), as the verifier reports an overlap. The report lives only during the call. Return true to go
 * on, false to stop.
 */
typedef bool (*aplan_overlap_fn)(void *context, const aplan_report *pair);

/** Scratch bytes aplan_overlaps needs: the verifier's sweep's, at most 32 per buffer, in every build (compact ones
 *  included). APLAN_OK, APLAN_E_INVALID_ARG (a NULL argument) or APLAN_E_SIZE_OVERFLOW. O(log n). */
APLAN_API aplan_status aplan_overlaps_scratch_size(const aplan_problem *problem, size_t *bytes);

/**
 * Every pair of buffers that are both placed (offsets[i] != APLAN_NO_OFFSET), occupy memory, are live at a common
 * step and share bytes, each once: rule 6 of the verifier, for any set of buffers. Unplaced buffers are left out,
 * so it serves a partial plan, or the fixed buffers alone (offsets[i] = buffers[i].offset, APLAN_NO_OFFSET for the
 * others). Pairs come in sweep order: by the step at which the later of the two starts (ends before starts, as the
 * lifetimes are half-open), then by that buffer's (lower, index), then by the other's offset, so the first pair is
 * one that clashes earliest. Aliasing (APLAN_ALLOW_FIXED_ALIAS) changes nothing here: every sharing pair is listed
 * (to count aliased pairs, however many, in O(n log n), aplan_verify does it without a list).
 * @param[in]  problem  a problem (validated here).
 * @param[in]  offsets  count offsets, APLAN_NO_OFFSET for the buffers to leave out.
 * @param[in]  scratch  aplan_overlaps_scratch_size bytes, APLAN_SCRATCH_ALIGN aligned (required when count > 0).
 * @param[in]  found    called for each pair; context is passed to it.
 * @param[out] report   optional: what failed.
 * @return APLAN_OK (every pair listed, or found stopped the sweep); a validation status; APLAN_E_INVALID_ARG (NULL
 *         offsets with count > 0, NULL found); APLAN_E_SCRATCH_MISALIGNED / APLAN_E_SCRATCH_TOO_SMALL;
 *         APLAN_E_SIZE_OVERFLOW when a placed buffer's offset + size passes 2^64 - 1 (report names it, value and
 *         limit the offset and the size), before any pair is listed.
 * Complexity O((n + k) log n) for k pairs listed, the sweep ending at once when found returns false: the first k of
 * any number of pairs cost no more than k pairs would (the sorts are O(n^2) in compact builds).
 */
APLAN_API aplan_status aplan_overlaps(const aplan_problem *problem, const uint64_t *offsets, void *scratch,
                                      size_t scratch_size, aplan_overlap_fn found, void *context,
                                      aplan_report *report);

/**
 * Stable sort of n indices by keys[index], ascending: equal keys keep their order in items, so a list built by rising
 * index comes out tied by index, the total order every strategy sorts by. items holds indices into keys; tmp has
 * room for n entries, is overwritten and must not overlap items (unused, and may be NULL, in compact builds).
 * @return APLAN_OK; APLAN_E_INVALID_ARG when n > 0 and items or keys is NULL (or tmp, in default builds), or
 *         n > APLAN_MAX_BUFFERS.
 * Complexity O(n * b) for the b bytes in which the keys differ (an LSD radix sort, at most 8 passes); insertion sort,
 * O(n^2), below 49 items and in compact builds.
 */
APLAN_API aplan_status aplan_sort_indices(uint32_t *items, uint32_t *tmp, size_t n, const uint64_t *keys);

/* ------------------------------------------------------------------------------------------------------------ */
/* Strategies                                                                                                    */

/** The strategy ABI this header describes; aplan_plan accepts strategies whose abi_version is 1..this.
 *  Version 2 (library 0.3) appended aplan_strategy.search; a version 1 strategy keeps working unchanged. */
#define APLAN_STRATEGY_ABI_VERSION 2u

/* ------------------------------------------------------------------------------------------------------------ */
/* Searches: goals, budgets and what a plan proves (library 0.3, strategy ABI 2)                                 */

/** aplan_search_options.goal. */
typedef enum aplan_goal {
    APLAN_GOAL_MINIMISE = 0, /**< The smallest arena the search can find (within the capacity, if one is set). */
    APLAN_GOAL_FIT = 1       /**< Any plan within aplan_problem.capacity: stop at the first one. */
} aplan_goal;

/** What a plan is known to be (aplan_result.outcome). Values are part of the ABI; new ones are only appended. */
typedef enum aplan_outcome {
    APLAN_OUTCOME_NONE = 0,       /**< No plan (a failure other than those below). */
    APLAN_OUTCOME_PLAN = 1,       /**< A plan; nothing is proven beyond the lower bound beside it (heuristics). */
    APLAN_OUTCOME_OPTIMAL = 2,    /**< Proven optimal: the arena equals the lower bound, or a search was complete. */
    APLAN_OUTCOME_FITS = 3,       /**< Goal FIT: the plan fits the capacity; the search stopped there. */
    APLAN_OUTCOME_BEST_FOUND = 4, /**< The budget ran out: the best plan found, not proven optimal. With
                                       APLAN_E_CAPACITY_EXCEEDED, nothing within the capacity was found, nor was
                                       one proven impossible. */
    APLAN_OUTCOME_INFEASIBLE = 5  /**< Proven: no plan fits the capacity (with APLAN_E_CAPACITY_EXCEEDED; the
                                       offsets, if any, are the best plan found above it). */
} aplan_outcome;

/**
 * The budget of a search: a caller-supplied callback, so the library needs no clock. Optional: strategies that do
 * not search ignore it. Initialise with aplan_search_options_init, then set the fields you need.
 */
typedef struct aplan_search_options {
    uint32_t goal;         /**< aplan_goal; APLAN_GOAL_MINIMISE by default. */
    uint32_t check_every;  /**< Nodes between two calls of stop (default 1024; 0 means 1). */
    uint64_t max_nodes;    /**< Most nodes the search may visit; 0 (default) for no limit. */
    /** Asked every check_every nodes with the nodes visited so far; return true to stop the search, which then
     *  returns its best plan flagged APLAN_OUTCOME_BEST_FOUND. NULL (default): never asked. It may read a clock;
     *  it must not call back into aplan with the same scratch. */
    bool (*stop)(void *context, uint64_t nodes);
    void *context;         /**< Passed to stop; the library never touches it. */
    /** Optional: count offsets of a valid plan to start from (e.g. the best heuristic's), or NULL. aplan_plan_search
     *  verifies it first (APLAN_E_INVALID_ARG with the verifier's report when it is not valid); a minimising search
     *  then only looks for smaller plans, a fitting one returns it at once if it fits. */
    const uint64_t *start;
    uint64_t reserved[4];  /**< Zero. Room for later fields without an ABI break. */
} aplan_search_options;

/** Defaults: minimise, no node limit, no callback, no starting plan, stop asked every 1024 nodes. NULL is ignored.
 *  O(1). */
APLAN_API void aplan_search_options_init(aplan_search_options *options);

/**
 * What aplan_plan_search hands a searching strategy (aplan_strategy.search): its options, and the lower bound it has
 * already computed; the strategy writes back how many nodes it visited and what its plan proves.
 */
typedef struct aplan_search_context {
    const aplan_search_options *options; /**< Never NULL (the defaults when the caller gave none). */
    uint64_t lower_bound;                /**< The problem's lower bound (aplan_lower_bound), in bytes. */
    uint64_t start_arena;                /**< The arena of options->start, or 0 when there is none. */
    uint64_t nodes;                      /**< Out: nodes visited. */
    uint32_t outcome;                    /**< Out: aplan_outcome of the offsets returned (OPTIMAL, FITS,
                                              BEST_FOUND, INFEASIBLE or PLAN). */
    uint32_t reserved32;
    uint64_t unsearched; /**< Out, since 0.4.2: buffers in the largest group of conflicting buffers the strategy
                              reached but could not search (too large for its memory), whose plan it only
                              improved by local moves; 0 when there was none. Such a plan is BEST_FOUND even when
                              the budget did not run out (OPTIMAL only when it reaches the lower bound). */
    uint64_t best_node;  /**< Out, since 0.4.2: the node count when the strategy last lowered its plan (0: the
                              plan it returns is its start, or its first), which, beside the time per node, says
                              how long the search took to find what it returns. */
    uint64_t reserved[2];
} aplan_search_context;

/**
 * A planning strategy. A third party adds one by defining a const instance; no core file changes.
 *
 * The contract for plan():
 *   1. The problem has been validated; effective sizes and alignments (aplan_buffer_size/_alignment) are exact and
 *      fixed offset + size fits 64 bits. Its records may be compact (APLAN_BUFFERS32, since 0.5): read a buffer
 *      with aplan_buffer_at, not problem->buffers[i], unless the flag is clear. (A strategy that misreads them
 *      gives a plan the verifier rejects, never a wrong one.) Under APLAN_LOW_MEMORY it should plan in the least
 *      scratch it can; a strategy without such a path asks for its usual need.
 *   2. offsets[] arrives filled with APLAN_NO_OFFSET. On APLAN_OK every entry holds an offset that is a multiple of
 *      its alignment, fixed buffers hold their fixed offset, and buffers that conflict do not share bytes.
 *   3. scratch is APLAN_SCRATCH_ALIGN aligned, exactly scratch_size bytes (what scratch_size() returned), and its
 *      content is unspecified (debug builds fill it with 0xAA). It is valid only during the call.
 *   4. The strategy keeps no pointer past the call, calls no allocator, and is deterministic: the same problem gives
 *      the same offsets.
 *   5. On failure it returns APLAN_E_STRATEGY_FAILED (a reason of its own: a search budget, no plan within the
 *      capacity), APLAN_E_SIZE_OVERFLOW (the place its rule chooses for a buffer would end past 2^64 - 1; a search:
 *      no plan at all has every end within 64 bits) or APLAN_E_OFFSET_MISSING (it needs a fixed offset a buffer
 *      lacks), and may name the buffer at fault in report.
 *   6. It writes offsets[0 .. count - 1] and nothing past them.
 * The core computes the arena size from the offsets and verifies every plan; a plan that breaks a rule is rejected.
 * It believes none of the above: any other status becomes APLAN_E_STRATEGY_FAILED (see aplan_plan), and a write
 * past offsets[count] is caught by a guard in default builds.
 */
typedef struct aplan_strategy {
    uint32_t abi_version;    /**< APLAN_STRATEGY_ABI_VERSION at the time the strategy was written. */
    const char *name;        /**< Unique short name, [a-z0-9_]. */
    const char *description; /**< One line for listings ("" for the built-ins under APLAN_NO_STATUS_STRINGS). */
    /** Scratch bytes plan() needs for this (valid) problem; APLAN_E_SIZE_OVERFLOW if it does not fit size_t. */
    aplan_status (*scratch_size)(const struct aplan_strategy *self, const aplan_problem *problem, size_t *bytes);
    /** Place every buffer; see the contract above. */
    aplan_status (*plan)(const struct aplan_strategy *self, const aplan_problem *problem, void *scratch,
                         size_t scratch_size, uint64_t *offsets, aplan_report *report);
    void *user;              /**< Free for the strategy's author; the core never touches it. */
    /* Members added by later ABI versions go here, each marked with its version. */
    /**
     * ABI 2, optional (NULL, or absent in a version 1 strategy): plan under a goal and a budget. Called instead of
     * plan() by aplan_plan_search (and aplan_plan, with default options), under the same contract, plus:
     *   7. it returns a valid plan whenever it has one, even when the budget ran out; APLAN_E_STRATEGY_FAILED when
     *      it has none; and it sets ctx->outcome to what the offsets prove, and ctx->nodes;
     *   8. goal FIT with no plan within the capacity: it returns APLAN_OK with its best plan above the capacity
     *      (aplan_plan_search then reports APLAN_E_CAPACITY_EXCEEDED), outcome INFEASIBLE when it proved that
     *      none exists, BEST_FOUND when the budget ran out first;
     *   9. it calls options->stop as options->check_every says, and stops at options->max_nodes.
     * A heuristic may have one only to honour the budget (the built-in greedy family, since 0.4.1): not stopped, it
     * gives exactly its plan()'s offsets with outcome PLAN and nodes 0; stopped, it places what is left some cheap
     * valid way and returns outcome BEST_FOUND, nodes the buffers its rule had placed. aplan_strategy_searches tells
     * the two kinds apart.
     * The core checks what it can: the plan is verified, OPTIMAL needs the arena to be at least the lower bound,
     * FITS needs it within the capacity, INFEASIBLE needs it above (else the outcome becomes BEST_FOUND).
     */
    aplan_status (*search)(const struct aplan_strategy *self, const aplan_problem *problem,
                           aplan_search_context *ctx, void *scratch, size_t scratch_size, uint64_t *offsets,
                           aplan_report *report);
} aplan_strategy;

/** Number of built-in strategies enabled in this build (meson option `strategies`). O(1). */
APLAN_API size_t aplan_strategy_count(void);

/** The i-th built-in strategy in the fixed order of APLAN_BUILTIN_STRATEGIES (<aplan/strategies.h>), less those
 *  this build leaves out, or NULL when i >= aplan_strategy_count(). O(1). */
APLAN_API const aplan_strategy *aplan_strategy_at(size_t i);

/**
 * The strategies "auto" chooses among, built in this build, in the order that breaks ties between equal arenas
 * (those APLAN_BUILTIN_STRATEGIES in <aplan/strategies.h> marks `first`, then those it marks `yes`, in registry
 * order): run each, keep the smallest verified arena, the earliest on a tie.
 * The CLI's `-s auto` runs these and then searches from the best of them (with a strategy that searches,
 * exact); aplan_tflm::AplanMemoryPlanner's default runs these. O(1). Since 0.3.1.
 */
APLAN_API size_t aplan_strategy_auto_count(void);
/** The i-th of them, or NULL when i >= aplan_strategy_auto_count(). O(1). */
APLAN_API const aplan_strategy *aplan_strategy_auto_at(size_t i);

/**
 * Whether a strategy searches: it has a search member that looks beyond one rule (among the built-ins, exact), so its
 * plans can be proven optimal, or a capacity infeasible, and it runs until its budget or its proof ends it. False for
 * a strategy without a search member (ABI 1, or NULL) and for the heuristics of the auto set, whose search member
 * only lets a budget cut their rule short (aplan_strategy.search); false for NULL. Since 0.4.1.
 * O(aplan_strategy_auto_count()).
 */
APLAN_API bool aplan_strategy_searches(const aplan_strategy *strategy);

/**
 * Look up a built-in strategy by name.
 * @param[in]  name     the strategy's name, e.g. "greedy_by_size".
 * @param[out] strategy the strategy; NULL on failure.
 * @return APLAN_OK; APLAN_E_INVALID_ARG when name or strategy is NULL; APLAN_E_UNKNOWN_STRATEGY when no strategy
 *         enabled in this build has that name. O(number of strategies).
 */
APLAN_API aplan_status aplan_strategy_find(const char *name, const aplan_strategy **strategy);

/* ------------------------------------------------------------------------------------------------------------ */
/* Planning                                                                                                      */

/** What aplan_plan found besides the offsets. Allocated by the caller, filled (and first zeroed) by aplan_plan. */
typedef struct aplan_result {
    uint64_t arena_size;  /**< Highest end over all buffers, in bytes (0 for no buffers). */
    uint64_t lower_bound; /**< aplan_lower_bound of the problem, in bytes. */
    uint64_t bound_step;  /**< Step at which the live sum is largest. */
    aplan_report report;  /**< On failure, where; on success, aliased_pairs. */
    uint64_t nodes;       /**< Since 0.3: search nodes the strategy visited (0 for one that does not search). */
    uint32_t outcome;     /**< Since 0.3: aplan_outcome, what the offsets are known to be. */
    uint32_t reserved32;  /**< Zeroed by the library. */
    uint64_t unsearched;  /**< Since 0.4.2: the search's aplan_search_context.unsearched (0 for a strategy that does
                               not search). */
    uint64_t best_node;   /**< Since 0.4.2: the search's aplan_search_context.best_node (0 for a strategy that does
                               not search). */
    uint64_t reserved[4]; /**< Zeroed by the library. Room for later fields without an ABI break. */
} aplan_result;

/**
 * Scratch bytes aplan_plan needs: the largest of the verifier's, the lower bound's and the planning phase's needs;
 * planning takes the strategy's need plus, in default builds with count > 0, 8 * (count + 1) bytes (aligned to 8)
 * for the guarded copy of the offsets the strategy writes.
 * @return APLAN_OK; APLAN_E_INVALID_ARG; a validation status; APLAN_E_UNSUPPORTED_VERSION; APLAN_E_SIZE_OVERFLOW.
 */
APLAN_API aplan_status aplan_plan_scratch_size(const aplan_strategy *strategy, const aplan_problem *problem,
                                               size_t *bytes);

/**
 * Plan: validate the problem, compute the lower bound, run the strategy, verify its offsets. The same as
 * aplan_plan_search with default options (minimise, no budget): result->outcome says whether the plan is proven
 * optimal.
 * @param[in]  strategy     the strategy (its abi_version must be 1..APLAN_STRATEGY_ABI_VERSION).
 * @param[in]  problem      the problem.
 * @param[in]  scratch      APLAN_SCRATCH_ALIGN-aligned memory of at least aplan_plan_scratch_size bytes; owned by
 *                          the caller and free again when the call returns.
 * @param[out] offsets      count entries, the offset of each buffer in bytes. Valid on APLAN_OK, and on
 *                          APLAN_E_CAPACITY_EXCEEDED when the strategy produced a verified plan that is too big.
 *                          The strategy plans into a copy in scratch followed by a guard slot (default builds), so
 *                          nothing past offsets[count] is ever written.
 * @param[out] result       arena size, lower bound and report (required).
 * @return APLAN_OK, or:
 *   - a validation status (see aplan_problem_validate), APLAN_E_INVALID_ARG, APLAN_E_UNSUPPORTED_VERSION;
 *   - APLAN_E_SCRATCH_MISALIGNED, APLAN_E_SCRATCH_TOO_SMALL (nothing written outside out-parameters);
 *   - APLAN_E_CAPACITY_EXCEEDED when the lower bound or the plan exceeds the capacity: the report's value is the
 *     bytes needed (the bound, or the plan's arena, also in result->arena_size), its limit the capacity;
 *   - APLAN_E_SIZE_OVERFLOW, before any strategy runs, when the lower bound passes 2^64 - 1 (a live sum): no plan
 *     exists (the report names no buffer);
 *   - what the strategy returned when it is one a strategy may return (APLAN_E_STRATEGY_FAILED,
 *     APLAN_E_SIZE_OVERFLOW, APLAN_E_OFFSET_MISSING), its report kept (a buffer index past count becomes
 *     APLAN_NO_BUFFER); any other failure status of the strategy's, and a strategy that wrote past offsets[count]
 *     (default builds), give APLAN_E_STRATEGY_FAILED with report.value = the strategy's status;
 *   - APLAN_E_FIXED_OVERLAP when two fixed buffers conflict and aliasing is not allowed;
 *   - APLAN_E_PLAN_REJECTED when the strategy's plan breaks a verifier rule (report.rule says which).
 * Complexity: the strategy's, plus O(n log n).
 */
APLAN_API aplan_status aplan_plan(const aplan_strategy *strategy, const aplan_problem *problem, void *scratch,
                                  size_t scratch_size, uint64_t *offsets, aplan_result *result);

/**
 * aplan_plan under a goal and a budget (library 0.3). A strategy with a search member (ABI 2) runs it with options
 * (the defaults when options is NULL); any other strategy runs its plan() and ignores the options, but a start given
 * to it is checked all the same (it cannot be handed an invalid plan unnoticed).
 * Everything aplan_plan says holds, plus:
 *   - result->outcome says what the plan proves: OPTIMAL whenever the arena equals the lower bound (any strategy);
 *     INFEASIBLE when the lower bound alone exceeds the capacity; otherwise the search's own outcome (checked, see
 *     aplan_strategy.search), or PLAN for a strategy that does not search; result->nodes the nodes it visited;
 *   - goal FIT: APLAN_OK with outcome FITS (or OPTIMAL) when a plan fits the capacity; otherwise
 *     APLAN_E_CAPACITY_EXCEEDED with outcome INFEASIBLE (proven) or BEST_FOUND (the budget ran out), and the best
 *     plan found in offsets when there is one;
 *   - options->start that is not a valid plan (any strategy): APLAN_E_INVALID_ARG, the verifier's report in
 *     result->report (a plan that is valid but above the capacity is a valid start);
 *   - a reserved field of options not zero, or a goal other than the two: APLAN_E_INVALID_ARG.
 * Scratch: aplan_plan_scratch_size. Complexity: the strategy's (a search is bounded only by its budget), plus
 * O(n log n).
 */
APLAN_API aplan_status aplan_plan_search(const aplan_strategy *strategy, const aplan_problem *problem,
                                         const aplan_search_options *options, void *scratch, size_t scratch_size,
                                         uint64_t *offsets, aplan_result *result);

#ifdef __cplusplus
}
#endif

#endif /* APLAN_APLAN_H */
