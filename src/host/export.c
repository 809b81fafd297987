/*
 * The plan of one strategy for other tools: as CSV in MiniMalloc's solution format (-f csv, which `aplan verify`
 * reads back) and as a C header for the firmware, with TFLM's BufferPlan (-f c).
 */
#include <stdlib.h>
#include <string.h>

#include "host.h"

/* aplan_csv_write's sink onto a file, dropping the first `skip` bytes: the header, which only the first of the
 * chunks aplan_host_write_csv writes may give. */
typedef struct file_sink_state {
    FILE *out;
    size_t skip;
} file_sink_state;

static bool file_sink(void *state, const char *bytes, size_t length) {
    file_sink_state *f = state;
    size_t drop = f->skip < length ? f->skip : length;
    f->skip -= drop;
    return fwrite(bytes + drop, 1, length - drop, f->out) == length - drop;
}

/* Rows of the alignment column's copy written at a time: 160 KiB, however large the input. */
#define CSV_CHUNK_ROWS 4096u

/* The plan (offsets, and with regions each buffer's region's name and its uses; NULL: not written) as CSV. */
static int write_csv(FILE *out, const aplan_host_session *s, const uint64_t *offsets, const char *const *regions,
                     const uint64_t *uses, aplan_host_error *err) {
    const aplan_host_input *in = s->input;
    /* Another tool checking the plan needs each buffer's alignment: write the column whenever it is not 1. */
    bool alignment = (in->csv_columns & APLAN_CSV_HAS_ALIGNMENT) != 0 || s->settings.alignment > 1u;
    uint32_t columns = (in->csv_columns & APLAN_CSV_START_END) | (alignment ? APLAN_CSV_HAS_ALIGNMENT : 0u) |
                       (regions != NULL ? APLAN_CSV_HAS_REGION : 0u) | (uses != NULL ? APLAN_CSV_HAS_USES : 0u);
    aplan_csv_plan plan = {in->buffers, (const char *const *)in->ids, offsets, in->count, columns, regions, uses};
    file_sink_state sink = {out, 0};
    aplan_status st;
    if (!alignment) {
        st = aplan_csv_write(&plan, file_sink, &sink);
    } else {
        /* The column holds each buffer's alignment as planned (the default where the input gave none), which the
         * input's rows do not: chunks of rows are copied with it filled in and written one after the other, the
         * header only once. The rows' ids and lifetimes are the reader's, which aplan_csv_write always accepts, so
         * no chunk after the first can fail on its arguments. */
        aplan_buffer *rows = malloc(CSV_CHUNK_ROWS * sizeof *rows);
        if (rows == NULL) return APLAN_HOST_INTERNAL;
        aplan_csv_plan header = {NULL, NULL, NULL, 0, columns, NULL, NULL};
        size_t header_length = 0;
        st = aplan_csv_write_buffer(&header, NULL, 0, &header_length);
        if (st == APLAN_E_OUTPUT_TOO_SMALL) st = APLAN_OK; /* it measured the header */
        size_t start = 0;
        while (st == APLAN_OK) { /* at least once: an input without rows still gets its header */
            size_t n = in->count - start < CSV_CHUNK_ROWS ? in->count - start : CSV_CHUNK_ROWS;
            for (size_t k = 0; k < n; k++) {
                rows[k] = in->buffers[start + k];
                rows[k].alignment = aplan_buffer_alignment(&s->problem, start + k);
            }
            aplan_csv_plan chunk = {rows,    (const char *const *)in->ids + start,     offsets + start, n, columns,
                                    regions != NULL ? regions + start : NULL, uses != NULL ? uses + start : NULL};
            sink.skip = start == 0 ? 0 : header_length;
            st = aplan_csv_write(&chunk, file_sink, &sink);
            start += n;
            if (start == in->count) break;
        }
        free(rows);
    }
    if (st == APLAN_E_OUTPUT_TOO_SMALL) return APLAN_HOST_IO;
    if (st != APLAN_OK) {
        return aplan_host_error_set(err, APLAN_HOST_BAD_INPUT, "cannot write the plan as CSV: %s",
                                    aplan_status_str(st));
    }
    return APLAN_HOST_OK;
}

int aplan_host_write_csv(FILE *out, const aplan_host_session *s, const aplan_host_run *run, const aplan_host_options *o,
                         aplan_host_error *err) {
    (void)o;
    return write_csv(out, s, run->offsets, NULL, NULL, err);
}

int aplan_host_write_region_csv(FILE *out, const aplan_host_session *s, const aplan_host_options *o,
                                aplan_host_error *err) {
    (void)o;
    const aplan_host_region_session *g = &s->regions;
    const aplan_host_region_run *run = &g->runs[g->best];
    const char **names = malloc((s->input->count + 1u) * sizeof *names);
    if (names == NULL) return APLAN_HOST_INTERNAL;
    for (size_t i = 0; i < s->input->count; i++) names[i] = g->spec[run->region_of[i]].name;
    int rc = write_csv(out, s, run->offsets, names, g->uses, err);
    free(names);
    return rc;
}

/* Ids go into C comments: keep only characters that cannot end or confuse one. */
static void c_comment_text(FILE *out, const char *s) {
    for (; *s != '\0'; s++) {
        char c = *s;
        bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                    c == '-' || c == '.' || c == ':' || c == ' ' || c == '/';
        fputc(safe ? c : '?', out);
    }
}

/* TFLM's BufferPlan (tensorflow/lite/micro/memory_planner/memory_plan_struct.h) is an int32 buffer_count followed by
 * one BufferDescriptor {int32 offset} per buffer, in AddBuffer order; written as a struct of the same layout. It
 * needs every offset and the count to fit int32; otherwise a comment says why it is missing. */
static void write_buffer_plan(FILE *out, const aplan_host_session *s, const aplan_host_run *run, const char *prefix) {
    const aplan_host_input *in = s->input;
    bool fits = in->count <= (size_t)INT32_MAX;
    for (size_t i = 0; fits && i < in->count; i++) fits = run->offsets[i] <= (uint64_t)INT32_MAX;
    if (!fits) {
        fputs("\n/* No TFLM BufferPlan: TFLM's offsets and buffer count are int32, and this plan exceeds them. */\n",
              out);
        return;
    }
    fprintf(out,
            "\n/* TFLM's BufferPlan (tensorflow/lite/micro/memory_planner/memory_plan_struct.h), laid out as\n"
            " * TFLM's struct: buffer_count, then one int32 offset per buffer in the order TFLM's allocator adds\n"
            " * them (a .tflite model's order above), for NonPersistentMemoryPlannerShim:\n"
            " *   tflite::NonPersistentMemoryPlannerShim planner(\n"
            " *       reinterpret_cast<const tflite::BufferPlan *>(&%s_buffer_plan));\n"
            " * A model's kernel scratch buffers are its last entries, as TFLM adds them. The shim answers\n"
            " * GetMaximumMemorySize() with 0, so TFLM neither reserves nor checks the planned section: see\n"
            " * aplan_tflm::AplanCompiledPlanner for one that does. */\n",
            prefix);
    fprintf(out, "static const struct %s_buffer_plan_layout {\n    int32_t buffer_count;\n"
                 "    int32_t buffer_plan_entries[%zu];\n} %s_buffer_plan = {%zu, {\n",
            prefix, in->count > 0 ? in->count : (size_t)1, prefix, in->count);
    for (size_t i = 0; i < in->count; i++)
        fprintf(out, "    %llu, /* %zu */\n", (unsigned long long)run->offsets[i], i);
    if (in->count == 0) fputs("    0\n", out);
    fputs("}};\n", out);
}

/* For a model: every buffer TFLM's allocator adds (tensors, then the kernels' scratch requests), as
 * aplan_tflm::AplanCompiledPlanner (integrations/tflm/aplan_compiled_planner.h) checks and hands them out with no
 * planning scratch: {bytes rounded up to 16, TFLM's first step, its last step, offset, 1 when the model's offline plan
 * fixes the offset}. Only for a plan TFLM can use as it is (alignment 16, sizes rounded, every figure an int32);
 * otherwise a comment says why it is missing. */
static void write_tflm_plan(FILE *out, const aplan_host_session *s, const aplan_host_run *run, const char *prefix,
                            const char *up) {
    const aplan_host_input *in = s->input;
    if (in->kind != APLAN_HOST_INPUT_TFLITE || !in->has_tflm) return;
    bool fits = s->settings.alignment == 16u && s->settings.round_sizes && in->count <= (size_t)INT32_MAX;
    for (size_t i = 0; fits && i < in->count; i++) {
        const uint64_t size = aplan_buffer_size(&s->problem, i), at = run->offsets[i];
        fits = size <= (uint64_t)INT32_MAX && at <= (uint64_t)INT32_MAX - size &&
               in->buffers[i].upper <= (uint64_t)INT32_MAX;
    }
    if (!fits) {
        fputs("\n/* No plan for aplan_tflm::AplanCompiledPlanner: it needs TFLM's alignment (16) with sizes rounded "
              "up,\n * and every size, step and offset an int32. */\n",
              out);
        return;
    }
    fprintf(out,
            "\n/* Every buffer TFLM's allocator adds, in its order (the tensors, then the kernels' scratch buffers),\n"
            " * for aplan_tflm::AplanCompiledPlanner (integrations/tflm/aplan_compiled_planner.h), which hands these\n"
            " * offsets to TFLM with no planning scratch, after checking that TFLM adds exactly these buffers:\n"
            " *   static aplan_tflm::AplanCompiledPlanner planner(%s_tflm_plan, %s_TFLM_PLAN_BUFFERS);\n"
            " *   tflite::MicroAllocator *allocator = tflite::MicroAllocator::Create(arena, size, &planner);\n"
            " * Columns: bytes (rounded up to 16), TFLM's first and last step (inclusive; -1: before the first\n"
            " * operator), offset in the planned section, 1 when the model's offline plan fixes it. */\n",
            prefix, up);
    fprintf(out, "#define %s_TFLM_PLAN_BUFFERS %zuu\n", up, in->count);
    fprintf(out, "static const int32_t %s_tflm_plan[%zu][5] = {\n", prefix, in->count > 0 ? in->count : (size_t)1);
    for (size_t i = 0; i < in->count; i++) {
        const aplan_buffer *b = &in->buffers[i];
        /* TFLM's inclusive steps back from aplan's half-open ones: lower = first + 1, upper = last + 2. */
        fprintf(out, "    {%llu, %lld, %lld, %llu, %d},\n", (unsigned long long)aplan_buffer_size(&s->problem, i),
                (long long)b->lower - 1, (long long)b->upper - 2, (unsigned long long)run->offsets[i],
                b->offset != APLAN_NO_OFFSET);
    }
    if (in->count == 0) fputs("    {0, 0, 0, 0, 0}\n", out);
    fputs("};\n", out);
}

/* Text the tool made (a refusal or error message, which may quote a model's names as display text) as a C comment's
 * words: printable ASCII but '*', '\\' and '?' (so no comment end, line splice or trigraph), every other byte '_'. */
static void c_comment_words(char *s) {
    for (; *s != '\0'; s++) {
        char c = *s;
        if (!(c >= ' ' && c <= '~' && c != '*' && c != '\\' && c != '?')) *s = '_';
    }
}

/* Lines of a generated comment are at most this many columns. */
#define COMMENT_COLUMNS 100u

/* text (one paragraph, ASCII without "*" or a line end) as lines of a C comment, " * " before each, broken at spaces
 * so that a line stays within COMMENT_COLUMNS (a word longer than that stands alone). */
static void write_comment_paragraph(FILE *out, const char *text) {
    const size_t room = COMMENT_COLUMNS - 3u;
    while (*text != '\0') {
        size_t n = strlen(text), cut = n;
        if (n > room) {
            cut = 0;
            for (size_t k = 1; k <= room; k++)
                if (text[k] == ' ') cut = k;
            if (cut == 0) cut = strcspn(text, " ");
        }
        fprintf(out, " * %.*s\n", (int)cut, text);
        text += cut;
        while (*text == ' ') text++;
    }
}

/* One of TFLM's setups in the header's comment: "<what> smallest arena M; arena_used_bytes() N", marked when it is the
 * one the macros give. */
static void write_tflm_setup_line(FILE *out, const char *what, const aplan_host_tflm_figures *f, bool chosen) {
    fprintf(out, " *   %-21s smallest arena %llu; arena_used_bytes() %llu%s\n", what,
            (unsigned long long)f->info.smallest, (unsigned long long)f->info.used, chosen ? " (the macros)" : "");
}

/* After the planned section's macros, a comment on what PREFIX_ARENA_SIZE covers and, for a model whose whole arena
 * in TFLM is known, PREFIX_TFLM_ARENA_SIZE (the smallest arena AllocateTensors() accepts, to give MicroInterpreter)
 * and PREFIX_TFLM_ARENA_USED_BYTES (what arena_used_bytes() then reports) for the setup the report recommends
 * (aplan_host_tflm_setup), the comment naming that setup, the TFLM build and every setup's figures. Where TFLM's arena
 * is not known (CSV, the example, a model TFLM refuses or whose arena cannot be computed) the comment says so and no
 * TFLM macro is defined; with operators the model does not know, the comment says the figures are lower bounds. false
 * when out of memory. */
static bool write_tflm_macros(FILE *out, const aplan_host_session *s, const char *up) {
    const aplan_host_input *in = s->input;
    aplan_host_coverage_text c;
    aplan_host_coverage(s, &c);
    char text[2048];
    const char *end = in->kind == APLAN_HOST_INPUT_CSV ? ": no runtime's own data is known for a CSV problem"
                      : in->kind == APLAN_HOST_INPUT_EXAMPLE
                          ? ". TFLM's arena also holds the kernels' scratch buffers and "
                            "TFLM's persistent data, which the example does not give: no "
                            "TFLM arena macro"
                          : ", not TFLM's persistent data: it is not the arena to give TFLM";
    snprintf(text, sizeof text, "%s_ARENA_SIZE covers %s%s.", up, c.what, end);
    fputs("\n/*\n", out);
    write_comment_paragraph(out, text);
    if (in->kind != APLAN_HOST_INPUT_TFLITE) {
        fputs(" */\n", out);
        return true;
    }
    const aplan_host_tflm_figures *f = aplan_host_tflm_setup(s);
    if (f == NULL) {
        const aplan_host_tflm_figures *own = &s->tflm_own;
        snprintf(text, sizeof text, "No TFLM arena macro: %s%s.",
                 own->status == APLAN_E_FORMAT_UNSUPPORTED ? "" : "TFLM's arena cannot be computed: ",
                 own->why[0] != '\0' ? own->why : "it was not computed");
        c_comment_words(text);
        write_comment_paragraph(out, text);
        fputs(" */\n", out);
        return true;
    }
    char sum[320];
    if (!aplan_host_tflm_sum_text(sum, sizeof sum, f)) return false;
    const char *parts = strstr(sum, " = ") + 3; /* what arena_used_bytes() sums */
    snprintf(text, sizeof text,
             "TFLM's whole arena (tflite-micro %s, %s, %u-bit ABI) with %s%s, the setup the report recommends: "
             "%s_TFLM_ARENA_SIZE is the smallest arena AllocateTensors() accepts, the size to give MicroInterpreter "
             "(or MicroAllocator::Create); %s_TFLM_ARENA_USED_BYTES is what arena_used_bytes() then reports: %s.",
             APLAN_TFLM_COMMIT, aplan_host_tflm_kernels_text(&in->tflm), in->tflm.abi, aplan_host_tflm_way(s, f),
             f == &s->tflm_own        ? " (GreedyMemoryPlanner, TFLM as it comes)"
             : f == &s->tflm_embed    ? " (the model aplan embed writes, this plan as its offline plan)"
             : f == &s->tflm_compiled ? " (aplan_tflm::AplanCompiledPlanner reading this header's tflm_plan, "
                                        "integrations/tflm/)"
                                      : " (aplan_tflm::AplanMemoryPlanner, integrations/tflm/)",
             up, up, parts);
    write_comment_paragraph(out, text);
    if (f->info.unknown_ops > 0) {
        snprintf(text, sizeof text, "Lower bounds: %lu operator%s the model does not know, whose kernels' scratch "
                                    "and persistent data are not counted: TFLM may need more.",
                 (unsigned long)f->info.unknown_ops, aplan_host_s(f->info.unknown_ops));
        write_comment_paragraph(out, text);
    }
    fputs(" * Every setup:\n", out);
    write_tflm_setup_line(out, "TFLM's own planner:", &s->tflm_own, f == &s->tflm_own);
    if (s->tflm_embed.known) write_tflm_setup_line(out, "this plan, embedded:", &s->tflm_embed, f == &s->tflm_embed);
    if (s->tflm_compiled.known)
        write_tflm_setup_line(out, "this plan, compiled:", &s->tflm_compiled, f == &s->tflm_compiled);
    if (s->tflm_adapter.known)
        write_tflm_setup_line(out, "this plan, adapter:", &s->tflm_adapter, f == &s->tflm_adapter);
    fputs(" */\n", out);
    fprintf(out, "#define %s_TFLM_ARENA_SIZE %llu%s\n", up, (unsigned long long)f->info.smallest,
            f->info.smallest > UINT32_MAX ? "ull" : "u");
    fprintf(out, "#define %s_TFLM_ARENA_USED_BYTES %llu%s\n", up, (unsigned long long)f->info.used,
            f->info.used > UINT32_MAX ? "ull" : "u");
    return true;
}

int aplan_host_write_c(FILE *out, const aplan_host_session *s, const aplan_host_run *run, const aplan_host_options *o,
                       aplan_host_error *err) {
    (void)err; /* nothing here fails but a write, which ferror(out) tells */
    const char *prefix = o->name != NULL ? o->name : "aplan";
    char *up = malloc(strlen(prefix) + 1u); /* the prefix of macros */
    if (up == NULL) return APLAN_HOST_INTERNAL;
    for (size_t i = 0; i <= strlen(prefix); i++)
        up[i] = prefix[i] >= 'a' && prefix[i] <= 'z' ? (char)(prefix[i] - 'a' + 'A') : prefix[i];
    const aplan_host_input *in = s->input;
    uint64_t arena = run->result.arena_size;
    bool wide = arena > UINT32_MAX;
    const char *suffix = wide ? "ull" : "u";
    fputs("/* Generated by aplan ", out);
    fprintf(out, "%s from ", aplan_version());
    c_comment_text(out, in->name);
    fprintf(out,
            " with strategy %s.\n * %zu buffer%s, alignment %llu, sizes %s; lower bound %llu byte%s%s.\n"
            " * Offsets are bytes from an arena base aligned to at least %s_ARENA_ALIGNMENT. */\n",
            run->strategy->name, in->count, aplan_host_s(in->count), (unsigned long long)s->settings.alignment,
            s->settings.round_sizes ? "rounded up" : "as given", (unsigned long long)s->bound, aplan_host_s(s->bound),
            arena == s->bound ? " (this plan is optimal)"
            : aplan_host_best_proven(s) && run == &s->runs[s->best]
                ? " (this plan is proven optimal by a complete search)"
            : run->searched && run->result.outcome == APLAN_OUTCOME_BEST_FOUND
                ? " (the best plan a search found; not proven optimal)"
                : "",
            up);
    fprintf(out, "#ifndef %s_ARENA_PLAN_H\n#define %s_ARENA_PLAN_H\n\n#include <stdint.h>\n\n", up, up);
    fprintf(out, "#define %s_ARENA_SIZE %llu%s\n", up, (unsigned long long)arena, suffix);
    fprintf(out, "#define %s_ARENA_ALIGNMENT %llu%s\n", up, (unsigned long long)s->settings.alignment, suffix);
    fprintf(out, "#define %s_BUFFER_COUNT %zuu\n", up, in->count);
    if (!write_tflm_macros(out, s, up)) {
        free(up);
        return APLAN_HOST_INTERNAL;
    }
    if (in->count > 0) {
        const char *type = wide ? "uint64_t" : "uint32_t";
        fprintf(out, "\n/* Offset of each buffer in the arena, in input order. */\n");
        fprintf(out, "static const %s %s_buffer_offsets[%s_BUFFER_COUNT] = {\n", type, prefix, up);
        for (size_t i = 0; i < in->count; i++) {
            fprintf(out, "    %llu%s, /* %zu ", (unsigned long long)run->offsets[i], suffix, i);
            c_comment_text(out, in->ids[i]);
            fprintf(out, ": steps [%llu, %llu) */\n", (unsigned long long)in->buffers[i].lower,
                    (unsigned long long)in->buffers[i].upper);
        }
        fputs("};\n", out);
        fprintf(out, "\n/* Bytes each buffer occupies (rounded as planned). */\n");
        fprintf(out, "static const %s %s_buffer_sizes[%s_BUFFER_COUNT] = {\n", type, prefix, up);
        for (size_t i = 0; i < in->count; i++)
            fprintf(out, "    %llu%s,\n", (unsigned long long)aplan_buffer_size(&s->problem, i), suffix);
        fputs("};\n", out);
    }
    write_buffer_plan(out, s, run, prefix);
    write_tflm_plan(out, s, run, prefix, up);
    fprintf(out, "\n#endif /* %s_ARENA_PLAN_H */\n", up);
    free(up);
    return APLAN_HOST_OK;
}
