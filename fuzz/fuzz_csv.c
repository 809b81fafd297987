/*
 * fuzz_csv: the CSV reader on arbitrary bytes. It must never crash or read outside the input; a rejection carries a
 * documented status, a byte offset inside the input, a line, and a terminated message; an accepted table writes back
 * (minimalloc's solution format) and parses again to the same rows (regions and uses included), and plans like any
 * problem.
 */
#include <stdlib.h>
#include <string.h>

#include "aplan/csv.h"
#include "fuzz_common.h"

/* A region text as the reader documents it: names of 1 to 31 of A-Z a-z 0-9 _ . -, separated by single '|'. Written
 * apart from the reader's own check, so that the two would have to be wrong the same way to pass. */
static bool region_text_ok(const char *s) {
    size_t name = 0;
    for (; *s != '\0'; s++) {
        const char c = *s;
        if (c == '|') {
            if (name == 0) return false;
            name = 0;
        } else if (((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
                   c == '-') {
            if (++name > 31) return false;
        } else {
            return false;
        }
    }
    return name > 0;
}

/* Two optional text entries: both NULL, or both the same text. */
static bool same_region(const char *a, const char *b) { return a == NULL ? b == NULL : b != NULL && strcmp(a, b) == 0; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* A copy of exactly size bytes, so ASan flags any read past the end. */
    char *text = malloc(size ? size : 1);
    if (text == NULL) abort();
    if (size != 0) memcpy(text, data, size);
    aplan_csv_table t;
    aplan_format_error e;
    const aplan_status st = aplan_csv_parse(text, size, &t, &e);
    FZ_CHECK(NULL, e.status == st, "error status %d, returned %d", (int)e.status, (int)st);
    if (st != APLAN_OK) {
        FZ_CHECK(NULL, st == APLAN_E_FORMAT_SYNTAX || st == APLAN_E_FORMAT_BAD_VALUE || st == APLAN_E_TOO_MANY_BUFFERS,
                 "undocumented status %d", (int)st);
        FZ_CHECK(NULL, e.byte_offset <= size && e.line >= 1, "error at byte %llu line %u of %zu bytes",
                 (unsigned long long)e.byte_offset, e.line, size);
        FZ_CHECK(NULL, memchr(e.message, '\0', sizeof e.message) != NULL && e.message[0] != '\0', "bad message");
        FZ_CHECK(NULL, t.count == 0 && t.buffers == NULL, "table not zeroed on failure");
        free(text);
        return 0;
    }
    aplan_problem p;
    aplan_problem_init(&p, t.buffers, t.count);
    for (size_t i = 0; i < t.count; i++) {
        FZ_CHECK(&p, t.buffers[i].lower <= t.buffers[i].upper, "row %zu: lower above upper accepted", i);
        FZ_CHECK(&p, t.ids[i] != NULL && t.ids[i][0] != '\0' && t.lines[i] >= 2, "row %zu: id or line", i);
        FZ_CHECK(&p, t.regions == NULL || t.regions[i] == NULL || region_text_ok(t.regions[i]),
                 "row %zu: region \"%s\" accepted", i, t.regions != NULL && t.regions[i] != NULL ? t.regions[i] : "");
    }
    /* The arrays exist exactly with their columns (and rows). */
    FZ_CHECK(&p, (t.regions != NULL) == ((t.columns & APLAN_CSV_HAS_REGION) != 0 && t.count > 0), "regions array");
    FZ_CHECK(&p, (t.uses != NULL) == ((t.columns & APLAN_CSV_HAS_USES) != 0 && t.count > 0), "uses array");
    /* Round trip: write the rows (offset column = the given fixed offsets) and parse them again. */
    uint64_t *offsets = malloc((t.count + 1) * sizeof *offsets);
    if (offsets == NULL) abort();
    for (size_t i = 0; i < t.count; i++) offsets[i] = t.buffers[i].offset;
    aplan_csv_plan plan = {t.buffers, t.ids, offsets, t.count, t.columns, t.regions, t.uses};
    size_t needed = 0;
    aplan_status w = aplan_csv_write_buffer(&plan, NULL, 0, &needed);
    if (w == APLAN_E_INVALID_ARG) {
        /* only START_END rows ending at step 0 cannot be written back (end would be -1) */
        FZ_CHECK(&p, t.columns & APLAN_CSV_START_END, "accepted table cannot be written");
    } else {
        FZ_CHECK(&p, w == APLAN_E_OUTPUT_TOO_SMALL || (w == APLAN_OK && needed == 0), "size query %d", (int)w);
        char *out = malloc(needed + 1);
        if (out == NULL) abort();
        FZ_CHECK(&p, aplan_csv_write_buffer(&plan, out, needed + 1, &needed) == APLAN_OK, "write failed");
        aplan_csv_table back;
        FZ_CHECK(&p, aplan_csv_parse(out, needed, &back, &e) == APLAN_OK, "written table does not parse: %s",
                 e.message);
        FZ_CHECK(&p, back.count == t.count, "round trip: %zu rows, then %zu", t.count, back.count);
        for (size_t i = 0; i < t.count; i++) {
            const aplan_buffer *a = &t.buffers[i], *b = &back.buffers[i];
            FZ_CHECK(&p, a->size == b->size && a->lower == b->lower && a->upper == b->upper &&
                             a->offset == b->offset && strcmp(t.ids[i], back.ids[i]) == 0 &&
                             ((t.columns & APLAN_CSV_HAS_ALIGNMENT) == 0 || a->alignment == b->alignment) &&
                             (t.uses == NULL || t.uses[i] == back.uses[i]) &&
                             (t.regions == NULL || same_region(t.regions[i], back.regions[i])),
                     "round trip changed row %zu", i);
        }
        const uint32_t kept = APLAN_CSV_HAS_ALIGNMENT | APLAN_CSV_START_END | APLAN_CSV_HAS_REGION | APLAN_CSV_HAS_USES;
        FZ_CHECK(&p, (back.columns & kept) == (t.columns & kept), "round trip columns %x, then %x", t.columns,
                 back.columns);
        aplan_csv_free(&back);
        free(out);
    }
    /* Plan it when it is small: whatever the input, planning fails only with a documented status. */
    const aplan_strategy *ref = fz_reference_strategy();
    if (ref != NULL && t.count <= 512 && aplan_problem_validate(&p, NULL) == APLAN_OK) {
        uint64_t *off = malloc((t.count + 1) * sizeof *off);
        if (off == NULL) abort();
        aplan_result r;
        const aplan_status ps = fz_plan(ref, &p, off, &r);
        FZ_CHECK(&p, ps == APLAN_OK || ps == APLAN_E_FIXED_OVERLAP || ps == APLAN_E_SIZE_OVERFLOW,
                 "%s on a parsed table: %s", ref->name, aplan_status_str(ps));
        free(off);
    }
    free(offsets);
    aplan_csv_free(&t);
    free(text);
    return 0;
}
