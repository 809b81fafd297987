/* Loading a problem: read the whole file, recognise it by content (a .tflite model, a CSV table, or neither),
 * convert it to buffers with ids and, for a model, the facts the outputs show beside them: each tensor's name, type
 * and shape, and the operator at each step (names made into capped display text once per distinct string,
 * aplan_host_names; only the pointers to a long name's bytes, for JSON's whole names, point into the model's bytes,
 * which in->model keeps). Every failure names the file and says why (the OS's reason for I/O errors). */
#define _POSIX_C_SOURCE 200809L /* fileno, fstat: sizing the read of a regular file */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "aplan/csv.h"
#include "aplan/tflite.h"
#include "host.h"

/* The first bytes of a stream that are checked for content no reader accepts before the rest is read. */
#define SNIFF_BYTES ((size_t)1 << 16)

int aplan_host_read_file(const char *path, uint64_t max_size, char **data, size_t *size, char *message,
                  size_t message_size) {
    *data = NULL;
    *size = 0;
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (f == NULL) {
        snprintf(message, message_size, "cannot open %s: %s", path, strerror(errno));
        return APLAN_HOST_IO;
    }
    /* The most this read may hold: max_size + 1 bytes (the byte that proves the input too large), within size_t. */
    size_t limit = max_size < (uint64_t)(SIZE_MAX / 2u) ? (size_t)max_size + 1u : SIZE_MAX / 2u;
    /* A regular file is read into a block of its size and one byte more (the short read that ends the loop), so a
     * large input is neither copied by growing nor held twice; a pipe or a device grows by doubling, up to limit. */
    size_t cap = SNIFF_BYTES;
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        if ((uintmax_t)st.st_size > (uintmax_t)max_size) {
            if (f != stdin) fclose(f);
            snprintf(message, message_size,
                     "%s: %ju byte%s, more than the maximum input size of %llu byte%s (see --max-input-size)", path,
                     (uintmax_t)st.st_size, aplan_host_s((uint64_t)st.st_size), (unsigned long long)max_size,
                     aplan_host_s(max_size));
            return APLAN_HOST_TOO_LARGE;
        }
        cap = (size_t)st.st_size + 1u;
    }
    if (cap > limit) cap = limit;
    size_t len = 0;
    int read_errno = 0;
    bool sniffed = false;
    char *buf = malloc(cap);
    int rc = APLAN_HOST_OK;
    for (;;) {
        if (buf == NULL) {
            rc = APLAN_HOST_INTERNAL;
            snprintf(message, message_size, "out of memory reading %s", path);
            break;
        }
        errno = 0;
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap) {
            read_errno = errno; /* a directory fails here, with EISDIR, not at fopen */
            break;
        }
        if (len > max_size) { /* max_size + 1 bytes came: the input is larger, whatever follows */
            rc = APLAN_HOST_TOO_LARGE;
            snprintf(message, message_size,
                     "%s: more than the maximum input size of %llu byte%s (see --max-input-size)", path,
                     (unsigned long long)max_size, aplan_host_s(max_size));
            break;
        }
        if (!sniffed && len >= SNIFF_BYTES) {
            /* More is coming (a stream, or a large file). A NUL byte is an error anywhere in a CSV table, so content
             * that holds one and is no .tflite model can be refused now rather than after the whole of it (/dev/zero
             * would otherwise fill max_size bytes of memory first). */
            sniffed = true;
            if (!aplan_host_is_tflite(buf, len) && memchr(buf, '\0', SNIFF_BYTES) != NULL) {
                rc = APLAN_HOST_BAD_INPUT;
                snprintf(message, message_size,
                         "%s: neither a .tflite model (no \"TFL3\" at bytes 4..7) nor a CSV table (a NUL byte in "
                         "its first %zu bytes)",
                         path, SNIFF_BYTES);
                break;
            }
        }
        if (cap >= limit) { /* only with a max_size beyond what memory can hold (limit is then SIZE_MAX / 2) */
            rc = APLAN_HOST_INTERNAL;
            snprintf(message, message_size, "out of memory reading %s", path);
            break;
        }
        size_t grown_cap = cap > limit / 2u ? limit : 2u * cap;
        char *grown = realloc(buf, grown_cap);
        if (grown == NULL) free(buf);
        buf = grown;
        cap = grown_cap;
    }
    bool failed = rc == APLAN_HOST_OK && ferror(f) != 0;
    if (f != stdin) fclose(f);
    if (failed) {
        rc = APLAN_HOST_IO;
        snprintf(message, message_size, "cannot read %s: %s", path,
                 read_errno != 0 ? strerror(read_errno) : "read error");
    }
    if (rc != APLAN_HOST_OK) {
        free(buf);
        return rc;
    }
    *data = buf;
    *size = len;
    return APLAN_HOST_OK;
}

void aplan_host_input_free(aplan_host_input *in) {
    if (in == NULL) return;
    /* A CSV input's arrays are its table's (and a half-loaded input may be of any kind): free each array once. */
    if (in->buffers != in->csv.buffers) free(in->buffers);
    if (in->ids != in->csv.ids) free(in->ids);
    if (in->lines != in->csv.lines) free(in->lines);
    aplan_csv_free(&in->csv);
    free(in->id_text);
    free(in->tensors);
    free(in->steps);
    aplan_host_names_free(&in->names);
    free(in->tflite_ids);
    free(in->scratch_id_text);
    free(in->scratch);
    free(in->tflm_recording);
    free(in->owned_model);
    memset(in, 0, sizeof *in);
}

const char *aplan_host_buffer_name(const aplan_host_input *in, size_t i) {
    return in->tensors != NULL && in->tensors[i].name != NULL ? in->tensors[i].name : in->ids[i];
}

void aplan_host_describe_buffer(const aplan_host_input *in, size_t i, char *out, size_t out_size) {
    if (i >= in->count) {
        snprintf(out, out_size, "buffer %zu", i);
    } else if (in->lines != NULL) {
        snprintf(out, out_size, "buffer %zu '%s' (line %u)", i, in->ids[i], (unsigned)in->lines[i]);
    } else {
        snprintf(out, out_size, "buffer %zu '%s'", i, in->ids[i]);
    }
}

/* The parsed table becomes the input as it is: its arrays are the input's, nothing is copied. */
static int load_csv(const char *path, const char *data, size_t size, aplan_host_input *in, char *message,
                    size_t message_size) {
    aplan_csv_table t;
    aplan_format_error e;
    aplan_status s = aplan_csv_parse(data, size, &t, &e);
    if (s != APLAN_OK) {
        if (e.line != 0 && e.column != 0)
            snprintf(message, message_size, "%s:%u:%u: %s", path, (unsigned)e.line, (unsigned)e.column, e.message);
        else if (e.line != 0)
            snprintf(message, message_size, "%s:%u: %s", path, (unsigned)e.line, e.message);
        else
            snprintf(message, message_size, "%s: %s", path, e.message[0] != '\0' ? e.message : aplan_status_str(s));
        return s == APLAN_E_OUT_OF_MEMORY ? APLAN_HOST_INTERNAL : APLAN_HOST_BAD_INPUT;
    }
    in->kind = APLAN_HOST_INPUT_CSV;
    in->csv = t;
    in->count = in->tensor_count = t.count;
    in->csv_columns = t.columns;
    in->buffers = t.buffers;
    in->ids = t.ids;
    in->lines = t.lines;
    for (size_t i = 0; i < t.count && !in->has_fixed; i++) in->has_fixed = t.buffers[i].offset != APLAN_NO_OFFSET;
    return APLAN_HOST_OK;
}

/* One buffer of a sweep in order of lower: whether it starts before the latest end of those before it (*reach), which
 * it moves on. */
static bool starts_before(uint64_t *reach, uint64_t lower, uint64_t upper) {
    bool before = lower < *reach;
    if (upper > *reach) *reach = upper;
    return before;
}

/* Whether two of the live buffers (lower < upper; live of them) share a step: swept in order of lower, some buffer
 * starts before the latest end of those before it. Unless two neighbouring rows already share one, the rows are
 * swept as they are when they come in order of lower (a CSV often does), else the live ones are sorted by lower with
 * the library's sort (aplan_sort_indices; 8 bytes a row and 8 a live buffer, freed on return). true when out of
 * memory, which proves nothing (no warning then). */
static bool some_share_a_step(const aplan_host_input *in, size_t live) {
    /* Two live rows in a row that share a step answer at once (real traces list buffers near their steps). */
    const aplan_buffer *prev = NULL;
    bool in_order = true;
    for (size_t i = 0; i < in->count; i++) {
        const aplan_buffer *b = &in->buffers[i];
        if (b->lower >= b->upper) continue;
        if (prev != NULL && b->lower < prev->upper && prev->lower < b->upper) return true;
        in_order = in_order && (prev == NULL || b->lower >= prev->lower);
        prev = b;
    }
    bool share = false;
    uint64_t reach = 0;
    if (in_order) {
        for (size_t i = 0; i < in->count && !share; i++) {
            const aplan_buffer *b = &in->buffers[i];
            if (b->lower < b->upper) share = starts_before(&reach, b->lower, b->upper);
        }
        return share;
    }
    uint64_t *lower = malloc(in->count * sizeof *lower); /* by buffer: aplan_sort_indices reads keys[index] */
    uint32_t *order = malloc(live * sizeof *order), *tmp = malloc(live * sizeof *tmp);
    size_t n = 0;
    share = lower == NULL || order == NULL || tmp == NULL;
    for (size_t i = 0; !share && i < in->count; i++) {
        lower[i] = in->buffers[i].lower;
        if (in->buffers[i].lower < in->buffers[i].upper) order[n++] = (uint32_t)i;
    }
    share = share || aplan_sort_indices(order, tmp, n, lower) != APLAN_OK;
    for (size_t k = 0; k < n && !share; k++)
        share = starts_before(&reach, in->buffers[order[k]].lower, in->buffers[order[k]].upper);
    free(tmp);
    free(order);
    free(lower);
    return share;
}

/* Index of the first k in sorted[0, n) (indices into in->buffers, ascending in key) whose key is value, or n. */
static size_t find_key(const aplan_host_input *in, const uint32_t *sorted, size_t n, bool upper, uint64_t value) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2u;
        const aplan_buffer *b = &in->buffers[sorted[mid]];
        if ((upper ? b->upper : b->lower) < value) lo = mid + 1u;
        else hi = mid;
    }
    return lo < n && (upper ? in->buffers[sorted[lo]].upper : in->buffers[sorted[lo]].lower) == value ? lo : n;
}

/* The live rows (live of them) that look inclusive one by one: each shares a step with no other live buffer, yet
 * touches one end to start (its upper is another's lower, or its lower another's upper), as a producer and its
 * consumer written with inclusive ends do; with exclusive ends a buffer an operator reads is live at its step, so it
 * shares it with what that operator writes. Their count, and in *first the first such row (SIZE_MAX: none). Sorts the
 * live rows by lower and by upper (8 bytes a row, 12 a live buffer, freed on return): O(n log n). 0 when out of
 * memory, which proves nothing. */
static size_t lonely_touching(const aplan_host_input *in, size_t live, size_t *first) {
    *first = SIZE_MAX;
    uint64_t *key = malloc((in->count + 1u) * sizeof *key);
    uint32_t *by_lower = malloc((live + 1u) * sizeof *by_lower), *by_upper = malloc((live + 1u) * sizeof *by_upper);
    uint32_t *tmp = malloc((live + 1u) * sizeof *tmp);
    size_t n = 0, count = 0;
    bool ok = key != NULL && by_lower != NULL && by_upper != NULL && tmp != NULL;
    for (size_t i = 0; ok && i < in->count; i++) {
        if (in->buffers[i].lower < in->buffers[i].upper) by_lower[n] = by_upper[n] = (uint32_t)i, n++;
    }
    for (size_t i = 0; ok && i < in->count; i++) key[i] = in->buffers[i].lower;
    ok = ok && aplan_sort_indices(by_lower, tmp, n, key) == APLAN_OK;
    for (size_t i = 0; ok && i < in->count; i++) key[i] = in->buffers[i].upper;
    ok = ok && aplan_sort_indices(by_upper, tmp, n, key) == APLAN_OK;
    uint64_t reach = 0; /* the latest end of the rows before k in order of lower */
    for (size_t k = 0; ok && k < n; k++) {
        const aplan_buffer *b = &in->buffers[by_lower[k]];
        /* In order of lower, b shares a step with an earlier row iff it starts before their latest end, and with a
         * later one iff the next starts before b ends. */
        bool shares = (k > 0 && b->lower < reach) || (k + 1u < n && in->buffers[by_lower[k + 1u]].lower < b->upper);
        if (b->upper > reach) reach = b->upper;
        if (shares) continue;
        if (find_key(in, by_lower, n, false, b->upper) == n && find_key(in, by_upper, n, true, b->lower) == n) continue;
        count++;
        if (by_lower[k] < *first) *first = by_lower[k];
    }
    free(tmp);
    free(by_upper);
    free(by_lower);
    free(key);
    return ok ? count : 0;
}

bool aplan_host_warn_lifetimes(FILE *out, const aplan_host_input *in) {
    if (in->kind != APLAN_HOST_INPUT_CSV || (in->csv_columns & APLAN_CSV_START_END) != 0) return false;
    enum { NAMED = 3 };
    size_t empty = 0, live = 0, named[NAMED];
    for (size_t i = 0; i < in->count; i++) {
        const aplan_buffer *b = &in->buffers[i];
        if (b->lower < b->upper) {
            live++;
        } else if (b->lower == b->upper) {
            if (empty < NAMED) named[empty] = i;
            empty++;
        }
    }
    bool apart = live >= 2 && !some_share_a_step(in, live);
    /* Not all apart, yet some rows apart from all and touching one end to start: some rows look inclusive. */
    size_t first = SIZE_MAX, lonely = live >= 2 && !apart ? lonely_touching(in, live, &first) : 0;
    if (empty == 0 && !apart && lonely == 0) return false;
    if (out == NULL) return true;
    fprintf(out, "aplan: warning: %s: the lifetimes look inclusive or empty (the plan is made as they are):\n",
            in->name);
    if (empty > 0) {
        fprintf(out, "  %zu row%s %s lower equal to upper, never live (an empty lifetime holds no bytes):", empty,
                aplan_host_s(empty), empty == 1 ? "has" : "have");
        for (size_t k = 0; k < empty && k < NAMED; k++)
            fprintf(out, "%s '%s' (line %u)", k > 0 ? "," : "", in->ids[named[k]], (unsigned)in->lines[named[k]]);
        if (empty > NAMED) fprintf(out, " and %zu more", empty - NAMED);
        fputc('\n', out);
    }
    if (apart)
        fprintf(out, "  no two of the %zu live buffers share a step: every plan may put them all at offset 0\n", live);
    if (lonely > 0)
        fprintf(out, "  %zu of the %zu live rows share%s a step with no other, yet touch%s one end to start, as "
                        "inclusive ends would: the first is '%s' (line %u)\n",
                lonely, live, lonely == 1 ? "s" : "", lonely == 1 ? "es" : "", in->ids[first],
                (unsigned)in->lines[first]);
    fprintf(out, "  upper is exclusive: a buffer is live at steps [lower, upper), lower to upper - 1;\n"
                    "  for inclusive ends, name the columns start,end (id,start,end,size: live from start to end)\n");
    return true;
}

bool aplan_host_is_tflite(const char *data, size_t size) { return size >= 8 && memcmp(data + 4, "TFL3", 4) == 0; }

const char *aplan_host_not_csv(const char *data, size_t size) {
    size_t i = size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3u : 0u;
    /* The header is the first line that is not blank (the parser skips blank lines). */
    for (;;) {
        size_t start = i;
        while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r')) i++;
        if (i == size) return NULL; /* nothing but blank lines: the parser's "empty input" says it better */
        if (data[i] != '\n') {
            i = start;
            break;
        }
        i++;
    }
    /* A header names ASCII columns (id, lower, upper, size, ...) separated by commas. */
    bool comma = false;
    for (; i < size && data[i] != '\n'; i++) {
        unsigned char c = (unsigned char)data[i];
        if ((c < 0x20u && c != '\t' && c != '\r') || c >= 0x7fu) return "its first line is not text";
        comma = comma || c == ',';
    }
    return comma ? NULL : "its first line has no comma";
}

/* The tensor of each buffer: name, type and shape (aplan_tflite_tensor). A name that cannot be read comes back absent
 * (name_error), so the id stands for it; a tensor whose facts cannot be read at all keeps its id alone: the model
 * still plans. Each distinct name string is made into text once (in->names), so tensors that share one table or
 * one name cost O(1) each beyond the reader's look-up. false only when out of memory. */
static bool load_tensors(const char *data, size_t size, aplan_host_input *in) {
    in->tensors = calloc(in->count + 1u, sizeof *in->tensors);
    if (in->tensors == NULL) return false;
    for (size_t i = 0; i < in->count; i++) {
        aplan_tflite_tensor_info t;
        if (aplan_tflite_tensor(data, size, in->tflite_ids[i], &t, NULL) != APLAN_OK) continue;
        aplan_host_tensor *c = &in->tensors[i];
        c->type = t.type_name;
        c->has_shape = !t.shape_truncated;
        c->rank = t.shape_truncated ? 0u : t.rank;
        memcpy(c->shape, t.shape, sizeof c->shape);
        if (t.name.size == 0) continue; /* no name: the id says it */
        aplan_host_name name;
        if (!aplan_host_names_get(&in->names, t.name.data, t.name.size, &name)) return false;
        c->name = name.text;
        c->name_size = name.size;
        c->name_shortened = name.shortened;
        c->name_data = t.name.data;
    }
    return true;
}

/* What runs at each step (aplan_tflite_steps), with each operator's name as display text, made once per distinct
 * string (in->names: operators that share a custom code, or one operator the walk visits many times, share its text).
 * A model whose steps cannot be listed (a malformed custom code) gets none: it still plans, without operators. false
 * only when out of memory. */
static bool load_steps(const char *data, size_t size, void *scratch, size_t scratch_size, aplan_host_input *in) {
    size_t count = 0;
    if (aplan_tflite_steps(data, size, scratch, scratch_size, NULL, 0, &count, NULL) != APLAN_OK) return true;
    aplan_tflite_step *steps = malloc((count + 1u) * sizeof *steps);
    in->steps = calloc(count + 1u, sizeof *in->steps);
    if (steps == NULL || in->steps == NULL) {
        free(steps);
        return false;
    }
    if (aplan_tflite_steps(data, size, scratch, scratch_size, steps, count, &count, NULL) != APLAN_OK) {
        free(steps);
        free(in->steps);
        in->steps = NULL;
        return true;
    }
    bool ok = true;
    for (size_t k = 0; k < count && ok; k++) {
        const aplan_tflite_step *t = &steps[k];
        aplan_host_step *c = &in->steps[k];
        *c =
            (aplan_host_step){t->kind, t->subgraph, t->op, t->entered, t->depth, t->builtin_code, NULL, 0, false, NULL};
        if (t->op == APLAN_TFLITE_NONE || t->name.data == NULL) continue; /* NULL: a code newer than the reader */
        aplan_host_name name;
        ok = aplan_host_names_get(&in->names, t->name.data, t->name.size, &name);
        if (!ok) break;
        c->op_name = name.text;
        c->op_name_size = name.size;
        c->op_name_shortened = name.shortened;
        c->op_name_data = t->name.data;
    }
    in->step_count = count;
    free(steps);
    return ok;
}

int aplan_host_load_tflite(const char *path, const char *data, size_t size, aplan_host_input *in, char *message,
                           size_t message_size, aplan_status *status) {
    memset(in, 0, sizeof *in);
    in->name = path;
    aplan_tflite_info info;
    aplan_format_error e;
    aplan_status s = aplan_tflite_query(data, size, &info, &e);
    void *scratch = NULL;
    aplan_tflite_id *ids = NULL;
    size_t count = 0;
    if (s == APLAN_OK) {
        in->buffers = malloc((info.buffer_count + 1u) * sizeof *in->buffers);
        ids = malloc((info.buffer_count + 1u) * sizeof *ids);
        /* malloc's alignment covers APLAN_SCRATCH_ALIGN (8) on every host this tool targets. */
        scratch = info.scratch_size > 0 ? malloc(info.scratch_size) : NULL;
        if (in->buffers == NULL || ids == NULL || (info.scratch_size > 0 && scratch == NULL)) {
            free(scratch);
            free(ids);
            aplan_host_input_free(in);
            snprintf(message, message_size, "out of memory");
            if (status != NULL) *status = APLAN_E_OUT_OF_MEMORY;
            return APLAN_HOST_INTERNAL;
        }
        s = aplan_tflite_read(data, size, scratch, info.scratch_size, in->buffers, ids, info.buffer_count, &count,
                              &e);
    }
    if (status != NULL) *status = s;
    if (s != APLAN_OK) {
        free(scratch);
        free(ids);
        aplan_host_input_free(in);
        /* Something the model declares lies past its last byte: a file cut short (a partial download or copy) is
         * by far the likeliest cause, so that comes first, with the reader's detail after it. */
        bool cut =
            s == APLAN_E_FORMAT_TRUNCATED || (s == APLAN_E_FORMAT_BAD_OFFSET && strstr(e.message, "past the end"));
        if (cut)
            snprintf(message, message_size, "%s: truncated: the file has %zu byte%s and the model points past them "
                     "(byte %llu: %s)", path, size, aplan_host_s(size), (unsigned long long)e.byte_offset, e.message);
        else
            snprintf(message, message_size, "%s: byte %llu: %s", path, (unsigned long long)e.byte_offset,
                     e.message[0] != '\0' ? e.message : aplan_status_str(s));
        return APLAN_HOST_BAD_INPUT;
    }
    in->kind = APLAN_HOST_INPUT_TFLITE;
    in->count = in->tensor_count = count;
    in->model = data;
    in->model_size = size;
    in->subgraphs = info.subgraph_count;
    /* The ids' text in one block of 24 bytes an id (what aplan_tflite_id_format needs at most), filled from its
     * start: the pages past the ids' real length are never touched, so they cost no memory. */
    in->ids = malloc((count + 1u) * sizeof *in->ids);
    in->id_text = malloc(24u * count + 1u);
    bool ok = in->ids != NULL && in->id_text != NULL;
    char *at = in->id_text;
    for (size_t i = 0; ok && i < count; i++) {
        in->ids[i] = at;
        at += aplan_tflite_id_format(ids[i], at, 24u) + 1u;
        if (in->buffers[i].offset != APLAN_NO_OFFSET) in->has_fixed = true;
    }
    in->tflite_ids = ids; /* embed writes the plan back through them */
    ok = ok && load_tensors(data, size, in) && load_steps(data, size, scratch, info.scratch_size, in);
    free(scratch);
    if (!ok) {
        aplan_host_input_free(in);
        snprintf(message, message_size, "out of memory");
        if (status != NULL) *status = APLAN_E_OUT_OF_MEMORY;
        return APLAN_HOST_INTERNAL;
    }
    return APLAN_HOST_OK;
}

int aplan_host_load_bytes(const char *name, const char *data, size_t size, aplan_host_input *in, char *message,
                          size_t message_size) {
    memset(in, 0, sizeof *in);
    int rc;
    const char *why = NULL;
    if (size == 0) { /* no bytes at all: neither a model nor a table, and nothing the readers could say more of */
        snprintf(message, message_size, "%s: empty file (0 bytes): neither a .tflite model nor a CSV table", name);
        rc = APLAN_HOST_BAD_INPUT;
    } else if (aplan_host_is_tflite(data, size)) {
        rc = aplan_host_load_tflite(name, data, size, in, message, message_size, NULL);
    } else if ((why = aplan_host_not_csv(data, size)) == NULL) {
        rc = load_csv(name, data, size, in, message, message_size);
    } else {
        snprintf(message, message_size,
                 "%s: neither a .tflite model (no \"TFL3\" at bytes 4..7) nor a CSV table (%s)", name, why);
        rc = APLAN_HOST_BAD_INPUT;
    }
    in->name = name;
    return rc;
}

int aplan_host_load(const char *path, uint64_t max_size, aplan_host_input *in, char *message, size_t message_size) {
    memset(in, 0, sizeof *in);
    in->name = path;
    char *data;
    size_t size;
    int rc = aplan_host_read_file(path, max_size, &data, &size, message, message_size);
    if (rc != APLAN_HOST_OK) return rc;
    rc = aplan_host_load_bytes(path, data, size, in, message, message_size);
    if (rc == APLAN_HOST_OK && in->kind == APLAN_HOST_INPUT_TFLITE)
        in->owned_model = data; /* the TFLM arena reads it */
    else free(data);
    return rc;
}
