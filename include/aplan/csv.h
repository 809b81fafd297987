/*
 * CSV problems and plans in MiniMalloc's format (google/minimalloc), host-side.
 *
 * Reading: a header line naming the columns, in any order, then one row per buffer:
 *   id       text, unique, non-empty, no quotes, commas or control characters             (required)
 *   lower    first live step                                                               (required, or start)
 *   upper    first step no longer live: lifetimes are half-open [lower, upper)             (required, or end)
 *   start    MiniMalloc's older form: first live step
 *   end      MiniMalloc's older form: last live step, inclusive (upper = end + 1)
 *   size     bytes                                                                         (required)
 *   alignment  a power of two; empty or -1 = the problem's default                         (optional)
 *   offset     a fixed offset; empty or -1 = let the strategy choose                       (optional)
 *   uses       how many operators read or write the buffer; 0 allowed, never empty or -1  (optional, since 0.4)
 *   region     the regions the buffer may go to (<aplan/regions.h>): empty = any region,    (optional, since 0.4)
 *              else one or more names separated by `|` (`sram`, `sram|ocram`), each 1 to 31 characters of
 *              A-Z a-z 0-9 _ . - (so no space inside, and no empty name: `a||b`, `|a` and `a|` are errors). The
 *              reader does not know the regions: it keeps the text as given, and the caller (the CLI: --region)
 *              maps the names to regions.
 * Numbers are unsigned decimal and must fit 64 bits. Column names are matched without regard to case. Spaces and
 * tabs around a field are ignored; LF and CRLF line ends are both accepted (a CR anywhere else is an error); blank
 * lines are skipped; a UTF-8 byte order mark before the header is skipped. Quoted fields are not supported.
 * Everything else is an error that names the line and the column (field number, 1-based) where it was found:
 * nothing is clamped, defaulted or dropped silently.
 *
 * Writing: the plan in MiniMalloc's solution format, one row per buffer in input order, with the columns
 * `id,lower,upper,size[,alignment][,uses],offset[,region]` (`start,end` for the other lifetime form): the input's
 * columns with `offset` after the numbers. Output goes through a caller callback or into a caller buffer.
 *
 * This part of the library allocates (malloc) but never prints and never touches a file: the caller reads the file
 * and writes the output. Functions are reentrant.
 */
#ifndef APLAN_CSV_H
#define APLAN_CSV_H

#include "aplan.h"
#include "formats.h"

#ifdef __cplusplus
extern "C" {
#endif

/** aplan_csv_table.columns: which optional columns the input had, and which lifetime form it used. */
#define APLAN_CSV_HAS_ALIGNMENT 0x1u /**< An `alignment` column was present. */
#define APLAN_CSV_HAS_OFFSET 0x2u    /**< An `offset` column was present. */
#define APLAN_CSV_START_END 0x4u     /**< Lifetimes came as `start,end` (inclusive end) rather than `lower,upper`. */
#define APLAN_CSV_HAS_REGION 0x8u    /**< Since 0.4: a `region` column was present (aplan_csv_table.regions). */
#define APLAN_CSV_HAS_USES 0x10u     /**< Since 0.4: a `uses` column was present (aplan_csv_table.uses). */

/** A parsed table. Everything is owned by the table; release it with aplan_csv_free. */
typedef struct aplan_csv_table {
    aplan_buffer *buffers; /**< count buffers in row order; alignment 0 / offset APLAN_NO_OFFSET where not given. */
    const char **ids;      /**< count NUL-terminated ids, parallel to buffers. */
    uint32_t *lines;       /**< count 1-based line numbers, so later checks (e.g. the verifier) can point at rows. */
    size_t count;          /**< Number of rows (0 for a header with no rows). */
    uint32_t columns;      /**< APLAN_CSV_HAS_ALIGNMENT | APLAN_CSV_HAS_OFFSET | APLAN_CSV_START_END |
                                APLAN_CSV_HAS_REGION | APLAN_CSV_HAS_USES. */
    char *storage_;        /**< Private: the block holding the ids and the regions' text. */
    /** Since 0.4, with a `region` column: count entries parallel to buffers, each NULL for an empty field (any
     *  region) or the field's text as given, trimmed of spaces and tabs, NUL-terminated (valid names separated by
     *  `|`, see above). NULL without the column, and when count is 0: test columns & APLAN_CSV_HAS_REGION. */
    const char **regions;
    /** Since 0.4, with a `uses` column: count values parallel to buffers (how many operators read or write each
     *  buffer, as aplan_regions.uses takes them). NULL without the column, and when count is 0: test columns &
     *  APLAN_CSV_HAS_USES. */
    uint64_t *uses;
    uint32_t reserved[4];  /**< Zeroed by the library. Room for later fields without an ABI break. */
} aplan_csv_table;

/**
 * Parse a CSV problem from memory.
 * @param[in]  text   length bytes (need not be NUL-terminated; a NUL byte inside is an error).
 * @param[out] table  the rows; zeroed on failure, so aplan_csv_free is always safe to call.
 * @param[out] error  required: status, byte offset, line, column and an English message on failure; status
 *                    APLAN_OK and zeros on success.
 * @return APLAN_OK, or
 *   - APLAN_E_FORMAT_SYNTAX: empty input, a bad header (unknown, duplicate or missing column, mixed lifetime forms,
 *     more columns than can go together), a row with too few or too many fields, an empty field where a number is
 *     required (`uses` included), a field that is not a number (including trailing junk such as "12kb" or "1.5"), a
 *     quote, a stray CR or a NUL byte;
 *   - APLAN_E_FORMAT_BAD_VALUE: a number that does not fit 64 bits, a negative number (other than -1 in
 *     `alignment`/`offset`), upper below lower, end + 1 overflowing, an alignment that is not a power of two, an
 *     empty or duplicate id, a `region` with a character outside A-Z a-z 0-9 _ . - |, an empty name (`a||b`, a
 *     leading or trailing `|`) or a name longer than 31 characters;
 *   - APLAN_E_INVALID_ARG: text NULL with length > 0, table or error NULL;
 *   - APLAN_E_TOO_MANY_BUFFERS: more rows than APLAN_MAX_BUFFERS or lines than fit 32 bits;
 *   - APLAN_E_OUT_OF_MEMORY: the allocator failed (the table would not fit in memory).
 * Line and column are 1-based; column is the field number (0 when the whole line is at fault).
 * Complexity O(length) expected: rows are read in one pass each, and duplicate ids are found with an id index
 * (aplan_csv_id_index_build: a direct table for ids that are all plain integers, else a hash table);
 * O(length + n log n) id comparisons at worst (ids that collide in the hash fall back to a sort). Memory follows
 * the rows, not the lines: the row arrays (52 bytes a row on a 64-bit host, 8 more for each of a `region` and a
 * `uses` column) grow geometrically as rows are parsed, to at most twice the rows read (a text of blank lines
 * allocates no row), plus one block of length + 1 bytes for the text of the ids and regions and, while ids are
 * checked, at most 16 bytes a row. A failure frees everything.
 * APLAN_E_TOO_MANY_BUFFERS comes at the row or line that passes the limit.
 */
APLAN_API aplan_status aplan_csv_parse(const char *text, size_t length, aplan_csv_table *table,
                                       aplan_format_error *error);

/** Release a table filled by aplan_csv_parse (NULL or a zeroed table is fine) and zero it. */
APLAN_API void aplan_csv_free(aplan_csv_table *table);

/**
 * An index from id to row over an array of NUL-terminated ids (a table's, or any other), for matching rows by id: a
 * plan to its problem. aplan_csv_parse checks its ids for duplicates with one. Opaque; it points into ids, which
 * must outlive it unchanged. Since 0.3.1.
 */
typedef struct aplan_csv_id_index aplan_csv_id_index;

/**
 * Build an index over ids[0, count).
 * @param[out] index     the index (NULL on failure other than a duplicate); release it with aplan_csv_id_index_free.
 * @param[out] duplicate the earliest row whose id an earlier row has, or SIZE_MAX when the ids are distinct;
 * @param[out] first     that earlier row (the first with the id), or SIZE_MAX.
 * @return APLAN_OK; APLAN_E_FORMAT_BAD_VALUE when two ids are equal (the index is built: a lookup of the repeated id
 *         gives its first row); APLAN_E_INVALID_ARG (a NULL out-parameter, ids NULL with count > 0, a NULL id);
 *         APLAN_E_TOO_MANY_BUFFERS (count > APLAN_MAX_BUFFERS); APLAN_E_OUT_OF_MEMORY.
 * Complexity O(n) expected, no hashing when every id is a plain integer below 4 n + 1024 (0, 1, 2, ...), and
 * O(n log n) comparisons at worst (ids crafted to collide in the hash fall back to a sorted array). Memory at most
 * 16 bytes a row (plus 4 KiB for integer ids).
 */
APLAN_API aplan_status aplan_csv_id_index_build(const char *const *ids, size_t count, aplan_csv_id_index **index,
                                                size_t *duplicate, size_t *first);

/** The row whose id is id (the first, if several), or SIZE_MAX when none is or index or id is NULL. O(1) expected,
 *  O(log n) at worst. */
APLAN_API size_t aplan_csv_id_index_find(const aplan_csv_id_index *index, const char *id);

/** Release an index (NULL is fine). */
APLAN_API void aplan_csv_id_index_free(aplan_csv_id_index *index);

/**
 * Output callback: consume length bytes. Return true on success; false stops the writer, which then returns
 * APLAN_E_OUTPUT_TOO_SMALL. Called with chunks of at most 512 bytes (several rows each).
 */
typedef bool (*aplan_csv_sink)(void *state, const char *bytes, size_t length);

/** What to write: rows in order, with the columns the input had plus `offset`. Members after `columns` were
 *  appended in 0.4: an initializer that stops at `columns` leaves them NULL. */
typedef struct aplan_csv_plan {
    const aplan_buffer *buffers; /**< count buffers (lifetimes, sizes as given, alignment 0 = default). */
    const char *const *ids;      /**< count ids (no comma, quote, CR or LF), or NULL to write each row's index. */
    const uint64_t *offsets;     /**< count planned offsets; APLAN_NO_OFFSET is written as -1. */
    size_t count;                /**< Number of rows. */
    uint32_t columns;            /**< APLAN_CSV_HAS_ALIGNMENT writes `alignment` (0 as -1), APLAN_CSV_START_END
                                      writes `start,end` with end = upper - 1 instead of `lower,upper`,
                                      APLAN_CSV_HAS_USES writes `uses` (from uses), APLAN_CSV_HAS_REGION writes
                                      `region` (from regions). APLAN_CSV_HAS_OFFSET is ignored: `offset` is always
                                      written, after the other numbers and before `region`. */
    /** Since 0.4, read with APLAN_CSV_HAS_REGION: count region texts as aplan_csv_parse gives them, each NULL
     *  (any region: an empty field) or names of 1 to 31 characters of A-Z a-z 0-9 _ . - separated by single `|`. */
    const char *const *regions;
    const uint64_t *uses; /**< Since 0.4, read with APLAN_CSV_HAS_USES: count values of the `uses` column. */
} aplan_csv_plan;

/**
 * Write a plan: header `id,lower,upper,size[,alignment][,uses],offset[,region]` (or `id,start,end,...`), LF line
 * ends. Numbers are formatted by hand into the chunks (no printf), so a million rows take a few tens of
 * milliseconds. aplan_csv_parse reads what this writes back to the same values.
 * @return APLAN_OK;
 *   - APLAN_E_INVALID_ARG: NULL plan or sink, NULL arrays with count > 0 (uses with APLAN_CSV_HAS_USES, regions
 *     with APLAN_CSV_HAS_REGION included), or START_END with a row whose upper is 0 (end would be -1);
 *   - APLAN_E_FORMAT_BAD_VALUE: a text aplan_csv_parse would refuse or read back changed: an id that is empty, holds
 *     a control byte (below 0x20, or 0x7f), a comma or a quote (no quoting is written), or starts or ends with a
 *     space (the reader trims fields); a region text that is empty (write NULL for any region), holds a character
 *     outside A-Z a-z 0-9 _ . - |, an empty name or a name longer than 31 characters. aplan_csv_check_plan names
 *     the row;
 *   - APLAN_E_OUTPUT_TOO_SMALL: the sink refused bytes.
 * Nothing is written before the arguments are checked. O(n + the length of the ids and regions).
 */
APLAN_API aplan_status aplan_csv_write(const aplan_csv_plan *plan, aplan_csv_sink sink, void *state);

/**
 * What aplan_csv_write would say of plan's arguments, without writing: APLAN_OK, or its status with *row (when row
 * is not NULL) the first row at fault (SIZE_MAX when the fault is not a row's: NULL plan or arrays). Since 0.4.2.
 * O(n + the length of the ids and regions).
 */
APLAN_API aplan_status aplan_csv_check_plan(const aplan_csv_plan *plan, size_t *row);

/**
 * Write a plan into out (NUL-terminated when out_size > 0). *needed receives the length of the full text without
 * the NUL, also when it does not fit (then APLAN_E_OUTPUT_TOO_SMALL and out holds a truncated prefix), so a caller
 * can size the buffer with a first call of out_size 0.
 * @return as aplan_csv_write.
 */
APLAN_API aplan_status aplan_csv_write_buffer(const aplan_csv_plan *plan, char *out, size_t out_size,
                                              size_t *needed);

#ifdef __cplusplus
}
#endif

#endif /* APLAN_CSV_H */
