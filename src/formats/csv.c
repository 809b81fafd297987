/*
 * MiniMalloc-style CSV reader and writer (see <aplan/csv.h> for the accepted grammar).
 *
 * Host-side: it allocates the table with malloc, but does no I/O. Every rejection names the line and the field
 * number, because the files are usually written by hand or by other tools and the user must be able to find the
 * offending cell. The parser reads the text once; the row arrays grow geometrically as rows are parsed, so memory
 * follows the rows the text holds, not its line count (a file of blank lines costs nothing per line).
 *
 * Speed (a million rows is a normal trace): each data row first goes through fast_row, one pass over its bytes that
 * accepts only the common shape (plain digits, printable ids) and stores nothing unless the whole row is good. Any
 * other row, good or bad, goes through the exact path (check_line_bytes, split, parse_number, parse_row), which
 * accepts the same rows with the same values and words every rejection; so the fast path only has to be right about
 * what it accepts, and every message comes from one place. Ids are checked for duplicates by a bitmap when they are
 * all plain integers, else by a hash table, falling back to a sort when the hash probes run long (colliding ids),
 * so the check is O(n) in practice and O(n log n) comparisons at worst. Memory: the table (52 bytes per row, 8 more
 * for each of a region and a uses column, plus the text of ids and regions) and, while checking ids, at most 16
 * bytes per row.
 */
#include "aplan/csv.h"

#include "core/internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum column {
    COL_ID,
    COL_LOWER,
    COL_UPPER,
    COL_START,
    COL_END,
    COL_SIZE,
    COL_ALIGNMENT,
    COL_OFFSET,
    COL_USES,   /* the last number column: COL_LOWER .. COL_USES are numbers */
    COL_REGION, /* text, like the id */
    COL_COUNT
};

static const char *const column_names[COL_COUNT] = {"id",   "lower",     "upper",  "start", "end",
                                                   "size", "alignment", "offset", "uses",  "region"};

/* The two lifetime forms exclude each other, so a good header names at most this many columns. */
#define HEADER_MAX (COL_COUNT - 2)

/* A region name: 1 to REGION_NAME_MAX of A-Z a-z 0-9 _ . - (names in a field are separated by single '|'). */
#define REGION_NAME_MAX 31u

/* A field of the current line: [begin, begin + length) of the text after trimming spaces and tabs. */
typedef struct field {
    const char *begin;
    size_t length;
    size_t offset; /* byte offset of the field's first character in the whole input (before trimming) */
} field;

typedef struct parser {
    const char *text;
    size_t length;
    aplan_format_error *error;
} parser;

/* Fill the error; always returns status so callers can `return fail(...)`. */
static aplan_status fail(parser *p, aplan_status status, size_t offset, uint32_t line, uint32_t column,
                         const char *format, ...) __attribute__((format(printf, 6, 7)));

static aplan_status fail(parser *p, aplan_status status, size_t offset, uint32_t line, uint32_t column,
                         const char *format, ...) {
    aplan_format_error *e = p->error;
    e->status = status;
    e->byte_offset = offset;
    e->line = line;
    e->column = column;
    va_list args;
    va_start(args, format);
    (void)vsnprintf(e->message, sizeof e->message, format, args);
    va_end(args);
    return status;
}

/* Quote at most 24 characters of a field in messages, so the message keeps room for its point. */
static int shown_length(const field *f) { return f->length > 24u ? 24 : (int)f->length; }

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

static bool equal_nocase(const char *a, size_t alen, const char *b) {
    size_t blen = strlen(b);
    if (alen != blen) return false;
    for (size_t i = 0; i < alen; i++) {
        char c = a[i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != b[i]) return false;
    }
    return true;
}

/*
 * Split [begin, end) (a line without its line end) into at most max fields; *count receives the number of fields
 * found, which may exceed max (the extra ones are counted, not stored). Fields are trimmed of spaces and tabs.
 */
static void split(const parser *p, const char *begin, const char *end, field *fields, size_t max, size_t *count) {
    size_t n = 0;
    const char *s = begin;
    for (;;) {
        const char *e = s;
        while (e < end && *e != ',') e++;
        if (n < max) {
            const char *b = s;
            const char *t = e;
            while (b < t && is_blank(*b)) b++;
            while (t > b && is_blank(t[-1])) t--;
            fields[n].begin = b;
            fields[n].length = (size_t)(t - b);
            fields[n].offset = (size_t)(s - p->text);
        }
        n++;
        if (e == end) break;
        s = e + 1;
    }
    *count = n;
}

/* Characters no line may hold: they would make the file mean different things to different tools. */
static aplan_status check_line_bytes(parser *p, const char *begin, const char *end, uint32_t line) {
    size_t column = 1;
    for (const char *s = begin; s < end; s++) {
        if (*s == ',') column++;
        uint32_t col = column > UINT32_MAX ? UINT32_MAX : (uint32_t)column;
        size_t at = (size_t)(s - p->text);
        if (*s == '\0') return fail(p, APLAN_E_FORMAT_SYNTAX, at, line, col, "NUL byte in the text");
        if (*s == '\r')
            return fail(p, APLAN_E_FORMAT_SYNTAX, at, line, col, "carriage return that does not end the line");
        if (*s == '"')
            return fail(p, APLAN_E_FORMAT_SYNTAX, at, line, col, "quoted fields are not supported");
    }
    return APLAN_OK;
}

typedef enum number_kind { NUMBER_VALUE, NUMBER_DEFAULT } number_kind;

/*
 * Parse an unsigned decimal. Optional columns (alignment, offset) accept an empty field or -1 as "not given".
 * Anything else that is not all digits is a syntax error; "-<digits>" is a negative value (BAD_VALUE) so the user
 * is told what is wrong rather than that it is not a number.
 */
static aplan_status parse_number(parser *p, const field *f, enum column col, bool optional, uint32_t line,
                                 uint32_t column, uint64_t *value, number_kind *kind) {
    const char *name = column_names[col];
    *kind = NUMBER_VALUE;
    *value = 0;
    if (f->length == 0) {
        if (optional) {
            *kind = NUMBER_DEFAULT;
            return APLAN_OK;
        }
        return fail(p, APLAN_E_FORMAT_SYNTAX, f->offset, line, column, "empty '%s'", name);
    }
    const char *s = f->begin;
    const char *end = f->begin + f->length;
    bool negative = false;
    if (*s == '-') {
        negative = true;
        s++;
    }
    if (s == end || *s < '0' || *s > '9') {
        return fail(p, APLAN_E_FORMAT_SYNTAX, f->offset, line, column, "'%s' is not a number: \"%.*s\"", name,
                    shown_length(f), f->begin);
    }
    uint64_t v = 0;
    bool overflow = false;
    for (; s < end && *s >= '0' && *s <= '9'; s++) {
        uint64_t digit = (uint64_t)(*s - '0');
        if (v > (UINT64_MAX - digit) / 10u) overflow = true;
        v = v * 10u + digit;
    }
    if (s != end) {
        return fail(p, APLAN_E_FORMAT_SYNTAX, f->offset, line, column,
                    "'%s' has junk after the number: \"%.*s\"", name, shown_length(f), f->begin);
    }
    if (negative) {
        if (optional && !overflow && v == 1u) {
            *kind = NUMBER_DEFAULT;
            return APLAN_OK;
        }
        return fail(p, APLAN_E_FORMAT_BAD_VALUE, f->offset, line, column, "'%s' is negative: \"%.*s\"", name,
                    shown_length(f), f->begin);
    }
    if (overflow) {
        return fail(p, APLAN_E_FORMAT_BAD_VALUE, f->offset, line, column,
                    "'%s' does not fit 64 bits: \"%.*s\"", name, shown_length(f), f->begin);
    }
    *value = v;
    return APLAN_OK;
}

typedef enum region_problem { REGION_OK, REGION_BAD_CHARACTER, REGION_EMPTY_NAME, REGION_LONG_NAME } region_problem;

static bool region_character(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '-';
}

/*
 * Whether the region text [s, s + n) keeps the rule of <aplan/csv.h>: names of 1 to REGION_NAME_MAX characters of
 * A-Z a-z 0-9 _ . -, separated by single '|'. The empty text is REGION_OK (the reader reads it as any region; the
 * writer never gets there with one). Otherwise the first problem from the left, with *at the index of the character
 * at fault: the bad character; the '|' that ends an empty name, or n after a trailing '|'; the first character past
 * REGION_NAME_MAX. Both paths of the reader and the writer ask this one function, so none of them accepts a text
 * another refuses. O(n).
 */
static region_problem check_region(const char *s, size_t n, size_t *at) {
    size_t name = 0; /* characters of the current name so far */
    for (size_t i = 0; i < n; i++) {
        *at = i;
        if (s[i] == '|') {
            if (name == 0) return REGION_EMPTY_NAME;
            name = 0;
        } else if (!region_character(s[i])) {
            return REGION_BAD_CHARACTER;
        } else if (++name > REGION_NAME_MAX) {
            return REGION_LONG_NAME;
        }
    }
    *at = n;
    return n > 0 && name == 0 ? REGION_EMPTY_NAME : REGION_OK;
}

/* The region field f of a row: *region NULL when the field is empty (any region), else its text copied to *store
 * and NUL-terminated (the caller has made room: see aplan_csv_parse); or the error that names its first problem. */
static aplan_status parse_region(parser *p, const field *f, uint32_t line, uint32_t column, const char **region,
                                 char **store) {
    size_t at = 0;
    switch (check_region(f->begin, f->length, &at)) {
    case REGION_OK:
        break;
    case REGION_BAD_CHARACTER: {
        const unsigned char c = (unsigned char)f->begin[at];
        if (c >= 0x20u && c < 0x7fu)
            return fail(p, APLAN_E_FORMAT_BAD_VALUE, f->offset, line, column,
                        "'region' holds '%c': a name is A-Z a-z 0-9 _ . -, names are separated by |", (char)c);
        return fail(p, APLAN_E_FORMAT_BAD_VALUE, f->offset, line, column,
                    "'region' holds byte 0x%02x: a name is A-Z a-z 0-9 _ . -, names are separated by |", (unsigned)c);
    }
    case REGION_EMPTY_NAME:
        return fail(p, APLAN_E_FORMAT_BAD_VALUE, f->offset, line, column,
                    "'region' has an empty name: \"%.*s\" (names are separated by a single |)", shown_length(f),
                    f->begin);
    case REGION_LONG_NAME:
        return fail(p, APLAN_E_FORMAT_BAD_VALUE, f->offset, line, column,
                    "'region' name \"%.24s...\" is longer than %u characters", f->begin + (at - REGION_NAME_MAX),
                    REGION_NAME_MAX);
    }
    if (f->length == 0) {
        *region = NULL;
        return APLAN_OK;
    }
    memcpy(*store, f->begin, f->length);
    (*store)[f->length] = '\0';
    *region = *store;
    *store += f->length + 1u;
    return APLAN_OK;
}

void aplan_csv_free(aplan_csv_table *table) {
    if (table == NULL) return;
    free(table->buffers);
    free((void *)table->ids);
    free(table->lines);
    free(table->storage_);
    free((void *)table->regions);
    free(table->uses);
    memset(table, 0, sizeof *table);
}

/* The position of each known column in a row (field index), or -1 when absent. */
typedef struct layout {
    int at[COL_COUNT];
    size_t fields;                           /* number of header fields */
    unsigned char column_of[COL_COUNT];      /* the column of each header field (fields entries) */
} layout;

static aplan_status parse_header(parser *p, const char *begin, const char *end, uint32_t line, layout *l) {
    field fields[COL_COUNT + 1];
    size_t n;
    split(p, begin, end, fields, COL_COUNT + 1u, &n);
    for (int c = 0; c < COL_COUNT; c++) l->at[c] = -1;
    if (n > HEADER_MAX) {
        /* Every header field must be a distinct known name of one lifetime form, so there can be no more than
         * HEADER_MAX; the first field past them is at fault. */
        const field *f = &fields[HEADER_MAX];
        return fail(p, APLAN_E_FORMAT_SYNTAX, f->offset, line, HEADER_MAX + 1u,
                    "header has %lu columns; at most %d can go together", (unsigned long)n, HEADER_MAX);
    }
    for (size_t i = 0; i < n; i++) {
        const field *f = &fields[i];
        uint32_t column = (uint32_t)i + 1u;
        int found = -1;
        for (int c = 0; c < COL_COUNT; c++) {
            if (equal_nocase(f->begin, f->length, column_names[c])) found = c;
        }
        if (found < 0) {
            if (f->length == 0)
                return fail(p, APLAN_E_FORMAT_SYNTAX, f->offset, line, column, "empty column name in the header");
            return fail(p, APLAN_E_FORMAT_SYNTAX, f->offset, line, column,
                        "unknown column \"%.*s\" (known: id, lower, upper, start, end, size, alignment, offset, "
                        "uses, region)",
                        shown_length(f), f->begin);
        }
        if (l->at[found] >= 0) {
            return fail(p, APLAN_E_FORMAT_SYNTAX, f->offset, line, column,
                        "duplicate column '%s' (also column %d)", column_names[found], l->at[found] + 1);
        }
        bool new_form = found == COL_LOWER || found == COL_UPPER;
        bool old_form = found == COL_START || found == COL_END;
        if ((new_form && (l->at[COL_START] >= 0 || l->at[COL_END] >= 0)) ||
            (old_form && (l->at[COL_LOWER] >= 0 || l->at[COL_UPPER] >= 0))) {
            return fail(p, APLAN_E_FORMAT_SYNTAX, f->offset, line, column,
                        "column '%s' mixes the lower,upper and start,end lifetime forms", column_names[found]);
        }
        l->at[found] = (int)i;
        l->column_of[i] = (unsigned char)found;
    }
    l->fields = n;
    bool old_form = l->at[COL_START] >= 0 || l->at[COL_END] >= 0;
    static const enum column required_new[] = {COL_ID, COL_LOWER, COL_UPPER, COL_SIZE};
    static const enum column required_old[] = {COL_ID, COL_START, COL_END, COL_SIZE};
    const enum column *required = old_form ? required_old : required_new;
    for (size_t i = 0; i < 4u; i++) {
        if (l->at[required[i]] < 0) {
            return fail(p, APLAN_E_FORMAT_SYNTAX, (size_t)(begin - p->text), line, 0,
                        "missing column '%s' (the header needs id, %s, size)", column_names[required[i]],
                        old_form ? "start, end" : "lower, upper");
        }
    }
    return APLAN_OK;
}

/* Parse one data row into row index r of the table. */
static aplan_status parse_row(parser *p, const layout *l, const char *begin, const char *end, uint32_t line,
                              aplan_csv_table *t, size_t r, char **store) {
    field fields[COL_COUNT + 1];
    size_t n;
    split(p, begin, end, fields, COL_COUNT + 1u, &n);
    if (n < l->fields) {
        int missing = 0;
        for (int c = 0; c < COL_COUNT; c++) {
            if (l->at[c] == (int)n) missing = c;
        }
        return fail(p, APLAN_E_FORMAT_SYNTAX, (size_t)(end - p->text), line, (uint32_t)n + 1u,
                    "row has %lu fields, the header has %lu: '%s' is missing", (unsigned long)n,
                    (unsigned long)l->fields, column_names[missing]);
    }
    if (n > l->fields) {
        const field *f = &fields[l->fields];
        return fail(p, APLAN_E_FORMAT_SYNTAX, f->offset, line, (uint32_t)l->fields + 1u,
                    "row has %lu fields, the header has %lu", (unsigned long)n, (unsigned long)l->fields);
    }

    /* The id: non-empty, no control characters (quotes, CR and NUL were rejected for the whole line). */
    const field *idf = &fields[l->at[COL_ID]];
    uint32_t id_column = (uint32_t)l->at[COL_ID] + 1u;
    if (idf->length == 0) return fail(p, APLAN_E_FORMAT_BAD_VALUE, idf->offset, line, id_column, "empty 'id'");
    for (size_t i = 0; i < idf->length; i++) {
        unsigned char c = (unsigned char)idf->begin[i];
        if (c < 0x20u || c == 0x7fu)
            return fail(p, APLAN_E_FORMAT_BAD_VALUE, idf->offset, line, id_column,
                        "'id' holds control character 0x%02x", (unsigned)c);
    }
    memcpy(*store, idf->begin, idf->length);
    (*store)[idf->length] = '\0';
    t->ids[r] = *store;
    *store += idf->length + 1u;
    if (l->at[COL_REGION] >= 0) {
        aplan_status s = parse_region(p, &fields[l->at[COL_REGION]], line, (uint32_t)l->at[COL_REGION] + 1u,
                                      &t->regions[r], store);
        if (s != APLAN_OK) return s;
    }

    aplan_buffer *b = &t->buffers[r];
    b->alignment = 0;
    b->offset = APLAN_NO_OFFSET;
    uint64_t v[COL_COUNT] = {0};
    number_kind kinds[COL_COUNT];
    for (int c = COL_LOWER; c <= COL_USES; c++) {
        kinds[c] = NUMBER_DEFAULT;
        if (l->at[c] < 0) continue;
        bool optional = c == COL_ALIGNMENT || c == COL_OFFSET;
        uint32_t column = (uint32_t)l->at[c] + 1u;
        aplan_status s = parse_number(p, &fields[l->at[c]], (enum column)c, optional, line, column, &v[c], &kinds[c]);
        if (s != APLAN_OK) return s;
    }

    if (l->at[COL_LOWER] >= 0) {
        b->lower = v[COL_LOWER];
        b->upper = v[COL_UPPER];
        if (b->upper < b->lower) {
            const field *f = &fields[l->at[COL_UPPER]];
            return fail(p, APLAN_E_FORMAT_BAD_VALUE, f->offset, line, (uint32_t)l->at[COL_UPPER] + 1u,
                        "'upper' %llu is below 'lower' %llu", (unsigned long long)b->upper,
                        (unsigned long long)b->lower);
        }
    } else {
        const field *f = &fields[l->at[COL_END]];
        uint32_t column = (uint32_t)l->at[COL_END] + 1u;
        if (v[COL_END] == UINT64_MAX)
            return fail(p, APLAN_E_FORMAT_BAD_VALUE, f->offset, line, column,
                        "'end' %llu + 1 does not fit 64 bits", (unsigned long long)v[COL_END]);
        b->lower = v[COL_START];
        b->upper = v[COL_END] + 1u;
        if (b->upper < b->lower)
            return fail(p, APLAN_E_FORMAT_BAD_VALUE, f->offset, line, column,
                        "'end' %llu is before 'start' %llu by more than one step", (unsigned long long)v[COL_END],
                        (unsigned long long)v[COL_START]);
    }
    b->size = v[COL_SIZE];
    if (kinds[COL_ALIGNMENT] == NUMBER_VALUE) {
        uint64_t a = v[COL_ALIGNMENT];
        if (a == 0 || (a & (a - 1u)) != 0) {
            const field *f = &fields[l->at[COL_ALIGNMENT]];
            return fail(p, APLAN_E_FORMAT_BAD_VALUE, f->offset, line, (uint32_t)l->at[COL_ALIGNMENT] + 1u,
                        "'alignment' %llu is not a power of two", (unsigned long long)a);
        }
        b->alignment = a;
    }
    if (kinds[COL_OFFSET] == NUMBER_VALUE) {
        if (v[COL_OFFSET] == APLAN_NO_OFFSET) {
            /* UINT64_MAX is aplan's "not fixed" marker; accepting it as a value would silently unfix the row. */
            const field *f = &fields[l->at[COL_OFFSET]];
            return fail(p, APLAN_E_FORMAT_BAD_VALUE, f->offset, line, (uint32_t)l->at[COL_OFFSET] + 1u,
                        "'offset' %llu is reserved (use -1 or leave it empty for no fixed offset)",
                        (unsigned long long)v[COL_OFFSET]);
        }
        b->offset = v[COL_OFFSET];
    }
    if (l->at[COL_USES] >= 0) t->uses[r] = v[COL_USES];
    return APLAN_OK;
}

/* Find the end of the line starting at s: the position of its '\n' or the end of the text. */
static const char *line_end(const parser *p, const char *s) {
    const char *nl = memchr(s, '\n', (size_t)(p->text + p->length - s));
    return nl != NULL ? nl : p->text + p->length;
}

static bool blank_line(const char *begin, const char *end) {
    for (const char *s = begin; s < end; s++) {
        if (!is_blank(*s)) return false;
    }
    return true;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* The fast path of a data row                                                                                   */

/* UINT64_MAX / 10: a value above it, or equal to it before a digit above 5, does not take another digit. */
#define U64_TENTH 1844674407370955161u

static const char *skip_blanks(const char *s, const char *end) {
    while (s < end && is_blank(*s)) s++;
    return s;
}

/*
 * Row r from [s, end) (the line without its line end), when it has the common shape: exactly the header's fields,
 * each of spaces or tabs around a value; numbers plain decimal digits that fit 64 bits (an optional column's also
 * empty or "-1"); the id non-empty with no byte below 0x20, DEL, quote or comma; the region empty or as
 * check_region accepts it (the same function as parse_region's, on the same trimmed text); the values consistent
 * (upper not below lower, end + 1 fitting, alignment a power of two, offset not APLAN_NO_OFFSET). Returns true with
 * row r, its id, region, uses and line stored; false, storing nothing, for any other row: parse_row then accepts it
 * with the same values or names what is wrong. O(row length), no allocation.
 */
static bool fast_row(const layout *l, const char *s, const char *end, uint32_t line, aplan_csv_table *t, size_t r,
                     char **store) {
    uint64_t v[COL_COUNT] = {0};
    bool given[COL_COUNT] = {false};
    const char *id = NULL, *region = NULL;
    size_t id_length = 0, region_length = 0;
    for (size_t k = 0; k < l->fields; k++) {
        const unsigned c = l->column_of[k];
        s = skip_blanks(s, end);
        if (c == COL_ID) {
            const char *b = s;
            /* A tab inside or after an id is left to parse_row, which tells the two apart. */
            while (s < end && *s != ',') {
                const unsigned char ch = (unsigned char)*s;
                if (ch < 0x20u || ch == 0x7fu || ch == '"') return false;
                s++;
            }
            const char *e = s;
            while (e > b && e[-1] == ' ') e--;
            if (e == b) return false;
            id = b;
            id_length = (size_t)(e - b);
        } else if (c == COL_REGION) {
            /* Trimmed as split trims it; a region character is never a blank, so the text is split's field. */
            const char *b = s;
            while (s < end && *s != ',') s++;
            const char *e = s;
            while (e > b && is_blank(e[-1])) e--;
            size_t at;
            if (check_region(b, (size_t)(e - b), &at) != REGION_OK) return false;
            region = b;
            region_length = (size_t)(e - b);
        } else {
            const bool optional = c == COL_ALIGNMENT || c == COL_OFFSET;
            if (s < end && (unsigned)(*s - '0') < 10u) {
                uint64_t x = 0;
                do {
                    const unsigned d = (unsigned)(*s - '0');
                    if (x >= U64_TENTH && (x > U64_TENTH || d > 5u)) return false;
                    x = x * 10u + d;
                    s++;
                } while (s < end && (unsigned)(*s - '0') < 10u);
                v[c] = x;
                given[c] = true;
            } else if (optional && s < end && *s == '-') {
                if (end - s < 2 || s[1] != '1') return false; /* "-1" only; "-01" and the like to parse_row */
                s += 2;
            } else if (!optional || (s < end && *s != ',')) {
                return false;
            }
            s = skip_blanks(s, end);
        }
        if (k + 1u < l->fields) {
            if (s == end || *s != ',') return false;
            s++;
        } else if (s != end) {
            return false;
        }
    }
    uint64_t lower, upper;
    if (l->at[COL_LOWER] >= 0) {
        lower = v[COL_LOWER];
        upper = v[COL_UPPER];
    } else {
        if (v[COL_END] == UINT64_MAX) return false;
        lower = v[COL_START];
        upper = v[COL_END] + 1u;
    }
    if (upper < lower) return false;
    const uint64_t a = given[COL_ALIGNMENT] ? v[COL_ALIGNMENT] : 0u;
    if (given[COL_ALIGNMENT] && (a == 0 || (a & (a - 1u)) != 0)) return false;
    if (given[COL_OFFSET] && v[COL_OFFSET] == APLAN_NO_OFFSET) return false;
    aplan_buffer *b = &t->buffers[r];
    b->size = v[COL_SIZE];
    b->lower = lower;
    b->upper = upper;
    b->alignment = a;
    b->offset = given[COL_OFFSET] ? v[COL_OFFSET] : APLAN_NO_OFFSET;
    memcpy(*store, id, id_length);
    (*store)[id_length] = '\0';
    t->ids[r] = *store;
    *store += id_length + 1u;
    if (l->at[COL_REGION] >= 0) {
        t->regions[r] = NULL;
        if (region_length > 0) {
            memcpy(*store, region, region_length);
            (*store)[region_length] = '\0';
            t->regions[r] = *store;
            *store += region_length + 1u;
        }
    }
    if (l->at[COL_USES] >= 0) t->uses[r] = v[COL_USES];
    t->lines[r] = line;
    return true;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* The id index: duplicates while parsing, and rows by id for callers (a plan matched to its problem)             */

/* The value of a plain integer id: 1 to 20 digits without a leading zero ("0" itself allowed) that fit 64 bits.
 * Two such ids are equal iff their values are. false for any other id. */
static bool plain_integer(const char *id, uint64_t *value) {
    if (id[0] == '0') {
        *value = 0;
        return id[1] == '\0';
    }
    uint64_t x = 0;
    const char *s = id;
    for (; (unsigned)(*s - '0') < 10u; s++) {
        const unsigned d = (unsigned)(*s - '0');
        if (x >= U64_TENTH && (x > U64_TENTH || d > 5u)) return false;
        x = x * 10u + d;
    }
    *value = x;
    return s != id && *s == '\0';
}

/* FNV-1a over the id, then a multiplicative mix so that the table index can take the top bits. */
static uint64_t hash_id(const char *id) {
    uint64_t h = 14695981039346656037u;
    for (; *id != '\0'; id++) h = (h ^ (unsigned char)*id) * 1099511628211u;
    return (h ^ (h >> 29)) * 0x9E3779B97F4A7C15u;
}

typedef struct id_entry {
    const char *id;
    uint32_t row;
} id_entry;

static int compare_ids(const void *a, const void *b) {
    const id_entry *x = a;
    const id_entry *y = b;
    int c = strcmp(x->id, y->id);
    if (c != 0) return c;
    return x->row < y->row ? -1 : x->row > y->row;
}

/*
 * Three forms, the first that applies:
 *   DENSE   every id a plain integer below 4 n + 1024 (0..n-1 is the usual naming): slot[value] = row + 1, one
 *           uint32_t per value, at most 16 bytes a row plus 4 KiB; O(1) per id, no hashing;
 *   HASH    open addressing (linear probing, at most half full, 8 to 16 bytes a row); given up when the probes of
 *           the build pass 4 per row or a run of occupied slots passes 16 + 8 log2(slots) (ids crafted to collide,
 *           which would make a lookup walk the run), so a lookup probes O(log n) slots at worst;
 *   SORTED  (id, row) pairs sorted, 16 bytes a row; O(log n) comparisons per lookup.
 * Rows go in by rising index, so the first row found already present is the earliest repeat.
 */
typedef enum { INDEX_DENSE, INDEX_HASH, INDEX_SORTED } index_kind;

struct aplan_csv_id_index {
    const char *const *ids;
    size_t count;
    index_kind kind;
    uint32_t *slot;     /* DENSE, HASH: row + 1, 0 = empty */
    size_t slots;       /* DENSE: values; HASH: a power of two */
    unsigned bits;      /* HASH: log2(slots) */
    id_entry *sorted;   /* SORTED */
};

typedef enum { BUILT, NOT_APPLICABLE, NO_MEMORY } built;

static built build_dense(aplan_csv_id_index *x, size_t *dup, size_t *first) {
    const uint64_t limit = 4u * (uint64_t)x->count + 1024u;
    uint64_t max = 0;
    for (size_t i = 0; i < x->count; i++) {
        uint64_t v;
        if (!plain_integer(x->ids[i], &v) || v >= limit) return NOT_APPLICABLE;
        if (v > max) max = v;
    }
    if (max >= SIZE_MAX / sizeof *x->slot) return NOT_APPLICABLE; /* 32-bit hosts */
    x->slots = (size_t)max + 1u;
    x->slot = calloc(x->slots, sizeof *x->slot);
    if (x->slot == NULL) return NO_MEMORY;
    for (size_t i = 0; i < x->count; i++) {
        uint64_t v = 0;
        (void)plain_integer(x->ids[i], &v);
        if (x->slot[v] != 0) {
            if (*dup == SIZE_MAX) *dup = i, *first = x->slot[v] - 1u;
            continue;
        }
        x->slot[v] = (uint32_t)(i + 1u);
    }
    x->kind = INDEX_DENSE;
    return BUILT;
}

static built build_hash(aplan_csv_id_index *x, size_t *dup, size_t *first) {
    unsigned bits = 2;
    while (((size_t)1 << bits) < 2u * x->count) bits++;
    const size_t mask = ((size_t)1 << bits) - 1u;
    x->slot = calloc(mask + 1u, sizeof *x->slot); /* rows < APLAN_MAX_BUFFERS: row + 1 fits */
    if (x->slot == NULL) return NO_MEMORY;
    size_t budget = 4u * x->count + 64u, found_dup = SIZE_MAX, found_first = SIZE_MAX;
    for (size_t i = 0; i < x->count; i++) {
        size_t at = (size_t)(hash_id(x->ids[i]) >> (64u - bits));
        for (;;) {
            const uint32_t q = x->slot[at];
            if (q == 0) {
                x->slot[at] = (uint32_t)(i + 1u);
                break;
            }
            if (strcmp(x->ids[q - 1u], x->ids[i]) == 0) {
                if (found_dup == SIZE_MAX) found_dup = i, found_first = q - 1u;
                break;
            }
            if (budget-- == 0) goto give_up;
            at = (at + 1u) & mask;
        }
    }
    /* The longest run of occupied slots (wrapping) bounds every lookup's probes. */
    const size_t longest = 16u + 8u * bits;
    size_t run = 0;
    for (size_t k = 0; k < 2u * (mask + 1u); k++) {
        run = x->slot[k & mask] != 0 ? run + 1u : 0;
        if (run > longest) goto give_up;
    }
    x->slots = mask + 1u;
    x->bits = bits;
    x->kind = INDEX_HASH;
    if (*dup == SIZE_MAX) *dup = found_dup, *first = found_first;
    return BUILT;
give_up:
    free(x->slot);
    x->slot = NULL;
    return NOT_APPLICABLE;
}

static built build_sorted(aplan_csv_id_index *x, size_t *dup, size_t *first) {
    x->sorted = malloc((x->count > 0 ? x->count : 1u) * sizeof *x->sorted);
    if (x->sorted == NULL) return NO_MEMORY;
    for (size_t i = 0; i < x->count; i++) x->sorted[i] = (id_entry){x->ids[i], (uint32_t)i};
    qsort(x->sorted, x->count, sizeof *x->sorted, compare_ids);
    for (size_t i = 1; i < x->count; i++) {
        if (strcmp(x->sorted[i].id, x->sorted[i - 1u].id) == 0 && (*dup == SIZE_MAX || x->sorted[i].row < *dup)) {
            *dup = x->sorted[i].row;
            /* Sorted by row within equal ids, so the group's first entry is the original. */
            size_t g = i - 1u;
            while (g > 0 && strcmp(x->sorted[g - 1u].id, x->sorted[i].id) == 0) g--;
            *first = x->sorted[g].row;
        }
    }
    x->kind = INDEX_SORTED;
    return BUILT;
}

aplan_status aplan_csv_id_index_build(const char *const *ids, size_t count, aplan_csv_id_index **index,
                                      size_t *duplicate, size_t *first) {
    if (index == NULL || duplicate == NULL || first == NULL) return APLAN_E_INVALID_ARG;
    *index = NULL;
    *duplicate = SIZE_MAX;
    *first = SIZE_MAX;
    if (ids == NULL && count > 0) return APLAN_E_INVALID_ARG;
    if (count > APLAN_MAX_BUFFERS) return APLAN_E_TOO_MANY_BUFFERS;
    for (size_t i = 0; i < count; i++) {
        if (ids[i] == NULL) return APLAN_E_INVALID_ARG;
    }
    aplan_csv_id_index *x = calloc(1, sizeof *x);
    if (x == NULL) return APLAN_E_OUT_OF_MEMORY;
    x->ids = ids;
    x->count = count;
    built b = build_dense(x, duplicate, first);
    if (b == NOT_APPLICABLE) b = build_hash(x, duplicate, first);
    if (b == NOT_APPLICABLE) b = build_sorted(x, duplicate, first);
    if (b == NO_MEMORY) {
        aplan_csv_id_index_free(x);
        *duplicate = *first = SIZE_MAX;
        return APLAN_E_OUT_OF_MEMORY;
    }
    *index = x;
    return *duplicate == SIZE_MAX ? APLAN_OK : APLAN_E_FORMAT_BAD_VALUE;
}

size_t aplan_csv_id_index_find(const aplan_csv_id_index *x, const char *id) {
    if (x == NULL || id == NULL) return SIZE_MAX;
    switch (x->kind) {
    case INDEX_DENSE: {
        uint64_t v;
        if (!plain_integer(id, &v) || v >= x->slots || x->slot[v] == 0) return SIZE_MAX;
        return x->slot[v] - 1u; /* plain integers are equal iff their texts are */
    }
    case INDEX_HASH: {
        const size_t mask = x->slots - 1u;
        for (size_t at = (size_t)(hash_id(id) >> (64u - x->bits));; at = (at + 1u) & mask) {
            const uint32_t q = x->slot[at];
            if (q == 0) return SIZE_MAX;
            if (strcmp(x->ids[q - 1u], id) == 0) return q - 1u;
        }
    }
    case INDEX_SORTED: {
        size_t lo = 0, hi = x->count;
        while (lo < hi) { /* the first entry not below id: the lowest row among equal ids */
            const size_t mid = lo + (hi - lo) / 2u;
            if (strcmp(x->sorted[mid].id, id) < 0) lo = mid + 1u;
            else hi = mid;
        }
        return lo < x->count && strcmp(x->sorted[lo].id, id) == 0 ? x->sorted[lo].row : SIZE_MAX;
    }
    }
    return SIZE_MAX;
}

void aplan_csv_id_index_free(aplan_csv_id_index *x) {
    if (x == NULL) return;
    free(x->slot);
    free(x->sorted);
    free(x);
}

/* The byte offset of the id field on line `line` (a data row, which parsed): found again from the text, O(length),
 * only for the error message, so that parsing keeps no offsets. */
static size_t id_field_offset(const parser *p, const layout *l, uint32_t line) {
    const char *s = p->text;
    for (uint32_t k = 1; k < line; k++) s = line_end(p, s) + 1;
    const char *e = line_end(p, s);
    field fields[COL_COUNT + 1];
    size_t n;
    split(p, s, e, fields, COL_COUNT + 1u, &n);
    return fields[l->at[COL_ID]].offset;
}

/* Ids must be unique so a plan file can be matched to its problem by id. Reports the earliest repeated row. */
static aplan_status check_unique_ids(parser *p, const aplan_csv_table *t, const layout *l) {
    if (t->count < 2) return APLAN_OK;
    aplan_csv_id_index *index;
    size_t dup, first;
    const aplan_status st = aplan_csv_id_index_build(t->ids, t->count, &index, &dup, &first);
    aplan_csv_id_index_free(index);
    if (st == APLAN_E_OUT_OF_MEMORY) return fail(p, APLAN_E_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
    if (dup == SIZE_MAX) return APLAN_OK;
    return fail(p, APLAN_E_FORMAT_BAD_VALUE, id_field_offset(p, l, t->lines[dup]), t->lines[dup],
                (uint32_t)l->at[COL_ID] + 1u, "duplicate id \"%.24s\" (first on line %lu)", t->ids[dup],
                (unsigned long)t->lines[first]);
}

/* Grow the row arrays of t (regions and uses only when the layout has their column) from *capacity rows (0: none
 * yet) to twice as many, at least 256 and at most APLAN_MAX_BUFFERS; APLAN_E_OUT_OF_MEMORY when the allocator fails
 * (t keeps what it had, for aplan_csv_free). */
static aplan_status grow_rows(aplan_csv_table *t, const layout *l, size_t *capacity) {
    size_t want = *capacity < 128u ? 256u : 2u * *capacity;
    if (want > APLAN_MAX_BUFFERS) want = APLAN_MAX_BUFFERS;
    aplan_buffer *buffers = realloc(t->buffers, want * sizeof *buffers);
    if (buffers == NULL) return APLAN_E_OUT_OF_MEMORY;
    t->buffers = buffers;
    const char **ids = realloc((void *)t->ids, want * sizeof *ids);
    if (ids == NULL) return APLAN_E_OUT_OF_MEMORY;
    t->ids = ids;
    uint32_t *lines = realloc(t->lines, want * sizeof *lines);
    if (lines == NULL) return APLAN_E_OUT_OF_MEMORY;
    t->lines = lines;
    if (l->at[COL_REGION] >= 0) {
        const char **regions = realloc((void *)t->regions, want * sizeof *regions);
        if (regions == NULL) return APLAN_E_OUT_OF_MEMORY;
        t->regions = regions;
    }
    if (l->at[COL_USES] >= 0) {
        uint64_t *uses = realloc(t->uses, want * sizeof *uses);
        if (uses == NULL) return APLAN_E_OUT_OF_MEMORY;
        t->uses = uses;
    }
    *capacity = want;
    return APLAN_OK;
}

aplan_status aplan_csv_parse(const char *text, size_t length, aplan_csv_table *table, aplan_format_error *error) {
    if (table == NULL || error == NULL) return APLAN_E_INVALID_ARG;
    memset(table, 0, sizeof *table);
    memset(error, 0, sizeof *error);
    error->status = APLAN_OK;
    parser p = {text, length, error};
    if (text == NULL && length > 0) return fail(&p, APLAN_E_INVALID_ARG, 0, 0, 0, "no text");
    if (text == NULL) text = p.text = "";

    const char *s = text;
    if (length >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) s += 3;
    const char *end_of_text = text + length;
    uint32_t line = 0;
    layout l = {{0}, 0, {0}};
    bool have_header = false;
    char *store = NULL;
    aplan_status status = APLAN_OK;
    size_t capacity = 0; /* rows the arrays hold */

    /* Ids and regions are copies of parts of the text, each with a NUL. A row is stored only when it has exactly the
     * header's fields, at least four (the header needs id, lower or start, upper or end, and size): so its line
     * holds at least three commas besides its id, one of which pays for the id's NUL, and with a region column one
     * comma more besides the region, for the region's NUL (an empty region stores nothing). The digits are not even
     * needed, so this holds too for a row that fails after storing its id. Each row stores fewer bytes than its
     * line has, and length + 1 bytes (the 1 for an empty text) always suffice, however many rows there are. */
    table->storage_ = malloc(length + 1u);
    if (table->storage_ == NULL) {
        status = fail(&p, APLAN_E_OUT_OF_MEMORY, 0, 0, 0, "out of memory");
        goto done;
    }
    store = table->storage_;

    while (s < end_of_text || (s == end_of_text && line == 0)) {
        if (line == UINT32_MAX) {
            status = fail(&p, APLAN_E_TOO_MANY_BUFFERS, (size_t)(s - text), line, 0, "more than 2^32-1 lines");
            goto done;
        }
        line++;
        const char *e = line_end(&p, s);
        const char *content_end = e;
        /* CRLF: the CR belongs to the line end. */
        if (content_end > s && content_end[-1] == '\r') content_end--;
        if (have_header && table->count == capacity && !blank_line(s, content_end)) {
            /* Room for one more row: the arrays double (from 256 rows), so n rows cost O(n) entries copied in all
             * and at most 2n entries held. Every row fills its entries, so nothing needs zeroing. */
            if (capacity >= APLAN_MAX_BUFFERS) {
                status = fail(&p, APLAN_E_TOO_MANY_BUFFERS, (size_t)(s - text), line, 0,
                              "more rows than aplan can plan");
                goto done;
            }
            status = grow_rows(table, &l, &capacity);
            if (status != APLAN_OK) {
                status = fail(&p, status, 0, 0, 0, "out of memory");
                goto done;
            }
        }
        if (have_header && fast_row(&l, s, content_end, line, table, table->count, &store)) {
            table->count++;
        } else {
            status = check_line_bytes(&p, s, content_end, line);
            if (status != APLAN_OK) goto done;
            if (!blank_line(s, content_end)) {
                if (!have_header) {
                    status = parse_header(&p, s, content_end, line, &l);
                    if (status != APLAN_OK) goto done;
                    have_header = true;
                } else {
                    table->lines[table->count] = line;
                    status = parse_row(&p, &l, s, content_end, line, table, table->count, &store);
                    if (status != APLAN_OK) goto done;
                    table->count++;
                }
            }
        }
        if (e == end_of_text) break;
        s = e + 1;
    }
    if (!have_header) {
        status = fail(&p, APLAN_E_FORMAT_SYNTAX, 0, 1, 0, "empty input: no header line");
        goto done;
    }
    table->columns = (l.at[COL_ALIGNMENT] >= 0 ? APLAN_CSV_HAS_ALIGNMENT : 0u) |
                     (l.at[COL_OFFSET] >= 0 ? APLAN_CSV_HAS_OFFSET : 0u) |
                     (l.at[COL_START] >= 0 ? APLAN_CSV_START_END : 0u) |
                     (l.at[COL_REGION] >= 0 ? APLAN_CSV_HAS_REGION : 0u) |
                     (l.at[COL_USES] >= 0 ? APLAN_CSV_HAS_USES : 0u);
    status = check_unique_ids(&p, table, &l);

done:
    if (status != APLAN_OK) {
        aplan_csv_free(table);
        error->status = status;
    }
    return status;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Writer                                                                                                        */

/* Bytes are gathered into chunks of at most WRITE_CHUNK for the sink: one sink call per few rows, not per field. */
#define WRITE_CHUNK 512u

typedef struct writer {
    aplan_csv_sink sink;
    void *state;
    bool failed;
    size_t length;            /* bytes in chunk */
    char chunk[WRITE_CHUNK];
} writer;

static void flush(writer *w) {
    if (!w->failed && w->length > 0 && !w->sink(w->state, w->chunk, w->length)) w->failed = true;
    w->length = 0;
}

static void put(writer *w, const char *s, size_t n) {
    while (n > 0 && !w->failed) {
        if (w->length == WRITE_CHUNK) flush(w);
        size_t room = WRITE_CHUNK - w->length;
        size_t k = n < room ? n : room;
        memcpy(w->chunk + w->length, s, k);
        w->length += k;
        s += k;
        n -= k;
    }
}

static void put_str(writer *w, const char *s) { put(w, s, strlen(s)); }

/* Decimal digits of v at p (at most 20); returns the end. Two digits per division, from a table. */
static char *put_u64(char *p, uint64_t v) {
    static const char pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                   "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                   "8081828384858687888990919293949596979899";
    char digits[20];
    size_t n = sizeof digits;
    while (v >= 100u) {
        const size_t k = (size_t)(v % 100u) * 2u;
        v /= 100u;
        digits[--n] = pairs[k + 1u];
        digits[--n] = pairs[k];
    }
    if (v >= 10u) {
        digits[--n] = pairs[2u * v + 1u];
        digits[--n] = pairs[2u * v];
    } else {
        digits[--n] = (char)('0' + v);
    }
    memcpy(p, digits + n, sizeof digits - n);
    return p + (sizeof digits - n);
}

/* ",<v>". */
static char *put_value(char *p, uint64_t v) {
    *p++ = ',';
    return put_u64(p, v);
}

/* ",<v>", or ",-1" when v is the column's `none` value. */
static char *put_column(char *p, uint64_t v, uint64_t none) {
    if (v != none) return put_value(p, v);
    *p++ = ',';
    *p++ = '-';
    *p++ = '1';
    return p;
}

/* An id the reader reads back as the same text: not empty, no control byte (the reader refuses them), comma or
 * quote (no quoting is written), and no space at either end (the reader trims fields). */
static bool writable_id(const char *id) {
    if (id == NULL || *id == '\0' || *id == ' ') return false;
    const char *s = id;
    for (; *s != '\0'; s++) {
        const unsigned char c = (unsigned char)*s;
        if (c < 0x20u || c == 0x7fu || c == ',' || c == '"') return false;
    }
    return s[-1] != ' ';
}

/* A region the reader reads back as the same text: NULL (an empty field), or names as check_region accepts them.
 * The empty string is refused: it would come back as NULL. */
static bool writable_region(const char *region) {
    size_t at;
    return region == NULL || (*region != '\0' && check_region(region, strlen(region), &at) == REGION_OK);
}

aplan_status aplan_csv_check_plan(const aplan_csv_plan *plan, size_t *row) {
    if (row != NULL) *row = SIZE_MAX;
    if (plan == NULL || (plan->count > 0 && (plan->buffers == NULL || plan->offsets == NULL)))
        return APLAN_E_INVALID_ARG;
    const bool start_end = (plan->columns & APLAN_CSV_START_END) != 0;
    const bool uses = (plan->columns & APLAN_CSV_HAS_USES) != 0, region = (plan->columns & APLAN_CSV_HAS_REGION) != 0;
    if (plan->count > 0 && ((uses && plan->uses == NULL) || (region && plan->regions == NULL)))
        return APLAN_E_INVALID_ARG;
    for (size_t i = 0; i < plan->count; i++) {
        aplan_status st = APLAN_OK;
        if (plan->ids != NULL && !writable_id(plan->ids[i])) st = APLAN_E_FORMAT_BAD_VALUE;
        else if (start_end && plan->buffers[i].upper == 0) st = APLAN_E_INVALID_ARG;
        else if (region && !writable_region(plan->regions[i])) st = APLAN_E_FORMAT_BAD_VALUE;
        if (st != APLAN_OK) {
            if (row != NULL) *row = i;
            return st;
        }
    }
    return APLAN_OK;
}

aplan_status aplan_csv_write(const aplan_csv_plan *plan, aplan_csv_sink sink, void *state) {
    if (sink == NULL) return APLAN_E_INVALID_ARG;
    const aplan_status checked = aplan_csv_check_plan(plan, NULL);
    if (checked != APLAN_OK) return checked;
    bool start_end = (plan->columns & APLAN_CSV_START_END) != 0;
    bool alignment = (plan->columns & APLAN_CSV_HAS_ALIGNMENT) != 0;
    bool uses = (plan->columns & APLAN_CSV_HAS_USES) != 0;
    bool region = (plan->columns & APLAN_CSV_HAS_REGION) != 0;
    writer w;
    w.sink = sink;
    w.state = state;
    w.failed = false;
    w.length = 0;
    put_str(&w, start_end ? "id,start,end,size" : "id,lower,upper,size");
    if (alignment) put_str(&w, ",alignment");
    if (uses) put_str(&w, ",uses");
    put_str(&w, region ? ",offset,region\n" : ",offset\n");
    for (size_t i = 0; i < plan->count && !w.failed; i++) {
        const aplan_buffer *b = &plan->buffers[i];
        /* Seven numbers of at most 20 digits and a comma before each but the first, then the comma before the region
         * or the LF (after the region, the LF alone). */
        char line[7u * 21u + 1u];
        char *p = line;
        if (plan->ids != NULL) put_str(&w, plan->ids[i]);
        else p = put_u64(p, (uint64_t)i);
        p = put_value(p, b->lower);
        p = put_value(p, start_end ? b->upper - 1u : b->upper);
        p = put_value(p, b->size);
        if (alignment) p = put_column(p, b->alignment, 0);
        if (uses) p = put_value(p, plan->uses[i]);
        p = put_column(p, plan->offsets[i], APLAN_NO_OFFSET);
        if (region) {
            /* The region's text follows the numbers: out with them first. */
            *p++ = ',';
            APLAN_ASSERT((size_t)(p - line) <= sizeof line);
            put(&w, line, (size_t)(p - line));
            p = line;
            if (plan->regions[i] != NULL) put_str(&w, plan->regions[i]);
        }
        *p++ = '\n';
        APLAN_ASSERT((size_t)(p - line) <= sizeof line);
        put(&w, line, (size_t)(p - line));
    }
    flush(&w);
    return w.failed ? APLAN_E_OUTPUT_TOO_SMALL : APLAN_OK;
}

typedef struct buffer_sink {
    char *out;
    size_t size;
    size_t length; /* bytes the full text needs so far */
} buffer_sink;

static bool to_buffer(void *state, const char *bytes, size_t n) {
    buffer_sink *b = state;
    if (b->length < b->size) {
        size_t room = b->size - b->length;
        memcpy(b->out + b->length, bytes, n < room ? n : room);
    }
    b->length += n;
    return true;
}

aplan_status aplan_csv_write_buffer(const aplan_csv_plan *plan, char *out, size_t out_size, size_t *needed) {
    if (needed == NULL || (out == NULL && out_size > 0)) return APLAN_E_INVALID_ARG;
    *needed = 0;
    buffer_sink b = {out, out_size, 0};
    aplan_status s = aplan_csv_write(plan, to_buffer, &b);
    if (s != APLAN_OK) {
        if (out_size > 0) out[0] = '\0';
        return s;
    }
    *needed = b.length;
    if (out_size == 0) return b.length == 0 ? APLAN_OK : APLAN_E_OUTPUT_TOO_SMALL;
    if (b.length >= out_size) {
        out[out_size - 1u] = '\0';
        return APLAN_E_OUTPUT_TOO_SMALL;
    }
    out[b.length] = '\0';
    return APLAN_OK;
}
