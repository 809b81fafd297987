/* Loading a problem: read the whole file, recognise it by content (a .tflite model, a CSV table, or neither),
 * convert it to buffers with ids. Every failure names the file and says why (the OS's reason for I/O errors). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "aplan/csv.h"
#include "aplan/tflite.h"
#include "cli.h"

int cli_read_file(const char *path, char **data, size_t *size, char *message, size_t message_size) {
    *data = NULL;
    *size = 0;
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (f == NULL) {
        snprintf(message, message_size, "cannot open %s: %s", path, strerror(errno));
        return CLI_EXIT_IO;
    }
    size_t cap = 1u << 16;
    size_t len = 0;
    int read_errno = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (buf == NULL) {
            if (f != stdin) fclose(f);
            snprintf(message, message_size, "out of memory reading %s", path);
            return CLI_EXIT_INTERNAL;
        }
        errno = 0;
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap) {
            read_errno = errno; /* a directory fails here, with EISDIR, not at fopen */
            break;
        }
        if (cap > SIZE_MAX / 2u) {
            free(buf);
            buf = NULL;
            continue;
        }
        cap *= 2u;
        char *grown = realloc(buf, cap);
        if (grown == NULL) free(buf);
        buf = grown;
    }
    bool failed = ferror(f) != 0;
    if (f != stdin) fclose(f);
    if (failed) {
        free(buf);
        snprintf(message, message_size, "cannot read %s: %s", path,
                 read_errno != 0 ? strerror(read_errno) : "read error");
        return CLI_EXIT_IO;
    }
    *data = buf;
    *size = len;
    return CLI_EXIT_OK;
}

void cli_input_free(cli_input *in) {
    if (in == NULL) return;
    if (in->ids != NULL) {
        for (size_t i = 0; i < in->count; i++) free(in->ids[i]);
    }
    free(in->ids);
    free(in->buffers);
    free(in->lines);
    free(in->tflite_ids);
    memset(in, 0, sizeof *in);
}

void cli_describe_buffer(const cli_input *in, size_t i, char *out, size_t out_size) {
    if (i >= in->count) {
        snprintf(out, out_size, "buffer %zu", i);
    } else if (in->lines != NULL) {
        snprintf(out, out_size, "buffer %zu '%s' (line %u)", i, in->ids[i], (unsigned)in->lines[i]);
    } else {
        snprintf(out, out_size, "buffer %zu '%s'", i, in->ids[i]);
    }
}

static char *duplicate(const char *s) {
    size_t n = strlen(s) + 1u;
    char *d = malloc(n);
    if (d != NULL) memcpy(d, s, n);
    return d;
}

static int load_csv(const char *path, const char *data, size_t size, cli_input *in, char *message,
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
        return s == APLAN_E_OUT_OF_MEMORY ? CLI_EXIT_INTERNAL : CLI_EXIT_BAD_INPUT;
    }
    in->kind = CLI_INPUT_CSV;
    in->count = t.count;
    in->csv_columns = t.columns;
    in->buffers = malloc((t.count + 1u) * sizeof *in->buffers);
    in->ids = calloc(t.count + 1u, sizeof *in->ids);
    in->lines = malloc((t.count + 1u) * sizeof *in->lines);
    bool ok = in->buffers != NULL && in->ids != NULL && in->lines != NULL;
    for (size_t i = 0; ok && i < t.count; i++) {
        in->buffers[i] = t.buffers[i];
        in->lines[i] = t.lines[i];
        in->ids[i] = duplicate(t.ids[i]);
        ok = in->ids[i] != NULL;
        if (t.buffers[i].offset != APLAN_NO_OFFSET) in->has_fixed = true;
    }
    aplan_csv_free(&t);
    if (!ok) {
        cli_input_free(in);
        snprintf(message, message_size, "out of memory");
        return CLI_EXIT_INTERNAL;
    }
    return CLI_EXIT_OK;
}

bool cli_is_tflite(const char *data, size_t size) { return size >= 8 && memcmp(data + 4, "TFL3", 4) == 0; }

const char *cli_not_csv(const char *data, size_t size) {
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

static int load_tflite(const char *path, const char *data, size_t size, cli_input *in, char *message,
                       size_t message_size) {
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
            cli_input_free(in);
            snprintf(message, message_size, "out of memory");
            return CLI_EXIT_INTERNAL;
        }
        s = aplan_tflite_read(data, size, scratch, info.scratch_size, in->buffers, ids, info.buffer_count, &count,
                              &e);
        free(scratch);
    }
    if (s != APLAN_OK) {
        free(ids);
        cli_input_free(in);
        snprintf(message, message_size, "%s: byte %llu: %s", path, (unsigned long long)e.byte_offset,
                 e.message[0] != '\0' ? e.message : aplan_status_str(s));
        return CLI_EXIT_BAD_INPUT;
    }
    in->kind = CLI_INPUT_TFLITE;
    in->count = count;
    in->subgraphs = info.subgraph_count;
    in->ids = calloc(count + 1u, sizeof *in->ids);
    bool ok = in->ids != NULL;
    for (size_t i = 0; ok && i < count; i++) {
        char text[24];
        (void)aplan_tflite_id_format(ids[i], text, sizeof text);
        in->ids[i] = duplicate(text);
        ok = in->ids[i] != NULL;
        if (in->buffers[i].offset != APLAN_NO_OFFSET) in->has_fixed = true;
    }
    in->tflite_ids = ids; /* embed writes the plan back through them */
    if (!ok) {
        cli_input_free(in);
        snprintf(message, message_size, "out of memory");
        return CLI_EXIT_INTERNAL;
    }
    return CLI_EXIT_OK;
}

int cli_load_bytes(const char *name, const char *data, size_t size, cli_input *in, char *message,
                   size_t message_size) {
    memset(in, 0, sizeof *in);
    int rc;
    const char *why = NULL;
    if (cli_is_tflite(data, size)) {
        rc = load_tflite(name, data, size, in, message, message_size);
    } else if ((why = cli_not_csv(data, size)) == NULL) {
        rc = load_csv(name, data, size, in, message, message_size);
    } else {
        snprintf(message, message_size,
                 "%s: neither a .tflite model (no \"TFL3\" at bytes 4..7) nor a CSV table (%s)", name, why);
        rc = CLI_EXIT_BAD_INPUT;
    }
    in->name = name;
    return rc;
}

int cli_load(const char *path, cli_input *in, char *message, size_t message_size) {
    memset(in, 0, sizeof *in);
    in->name = path;
    char *data;
    size_t size;
    int rc = cli_read_file(path, &data, &size, message, message_size);
    if (rc != CLI_EXIT_OK) return rc;
    rc = cli_load_bytes(path, data, size, in, message, message_size);
    free(data);
    return rc;
}
