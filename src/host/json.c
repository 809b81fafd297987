/*
 * The JSON report (-f json): the input and its settings, the lower bound, the verdict, every strategy's result with
 * its offsets, the steps and every buffer. Keys are only ever added (docs/cli.md, "JSON keys"). Strings are display
 * text (aplan_host_shown_length), so the JSON is valid UTF-8 whatever bytes the input holds.
 */
#include <stdlib.h>
#include <string.h>

#include "host.h"

/* Every byte not shown as itself (aplan_host_shown_length: invalid UTF-8, control characters) is written as the text
 * \xHH, as everywhere else: the JSON stays valid UTF-8 whatever bytes a file's ids or paths hold. */
static void json_bytes(FILE *out, const char *s, size_t left) {
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', out);
    while (left > 0) {
        size_t n = aplan_host_shown_length(p, left);
        if (n == 0) fprintf(out, "\\\\x%02X", (unsigned)*p), n = 1;
        else if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else fwrite(p, 1, n, out);
        p += n, left -= n;
    }
    fputc('"', out);
}

void aplan_host_json_string(FILE *out, const char *s) { json_bytes(out, s, strlen(s)); }

/* The whole text of the names shown shortened (aplan_host_name), for JSON's "long_names": each distinct string (its
 * position and length in the model, as aplan_host_names tells strings apart) once, in the order the JSON first refers
 * to it, and referred to by its index ("long_name") from every buffer and operator that shows it shortened. Each name
 * written costs its length against the model's size: names that share no byte of the file (as every FlatBuffer writer
 * lays them out) always fit, so all of them are written and the output stays linear in the model; a crafted model whose
 * strings overlap (each its own position, all on the same bytes) would otherwise make the list quadratic, so a name
 * past the budget gets "long_name": null, counted in "long_names_omitted". */
typedef struct long_entry {
    const char *data;     /* the name's bytes in the model */
    uint64_t size;
    size_t ref;           /* its index in "long_names", or SIZE_MAX: omitted (past the budget) */
} long_entry;
typedef struct long_names {
    long_entry *entries;  /* count distinct names, in the order first met */
    size_t count, cap;
    size_t *slots;        /* slot_cap entries (a power of two, at most half used): entry index + 1, 0 when empty */
    size_t slot_cap;
    size_t written;       /* entries with a ref: the length of "long_names" */
    uint64_t bytes;       /* the bytes of the names written */
    uint64_t budget;      /* the most bytes of names written: the model's size */
    size_t omitted;       /* entries past the budget */
    bool failed;          /* out of memory: the writer fails with APLAN_HOST_INTERNAL */
} long_names;

static size_t long_slot(const char *data, uint64_t size, size_t cap) {
    uint64_t h = ((uint64_t)(uintptr_t)data ^ (size << 17)) * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h >> 32) & (cap - 1u);
}

/* The index in "long_names" of the name of size bytes at data, added at its first look-up; SIZE_MAX when it is past
 * the budget, or out of memory (ln->failed). Amortised O(1). */
static size_t long_name_ref(long_names *ln, const char *data, uint64_t size) {
    if (ln->slot_cap > 0) {
        for (size_t k = long_slot(data, size, ln->slot_cap);; k = (k + 1u) & (ln->slot_cap - 1u)) {
            if (ln->slots[k] == 0) break;
            const long_entry *e = &ln->entries[ln->slots[k] - 1u];
            if (e->data == data && e->size == size) return e->ref;
        }
    }
    if (ln->count == ln->cap) {
        size_t cap = ln->cap > 0 ? 2u * ln->cap : 16u;
        long_entry *entries = cap <= SIZE_MAX / sizeof *entries ? realloc(ln->entries, cap * sizeof *entries) : NULL;
        if (entries == NULL) return ln->failed = true, SIZE_MAX;
        ln->entries = entries;
        ln->cap = cap;
    }
    if (2u * (ln->count + 1u) > ln->slot_cap) { /* grow and rehash: at most half full */
        size_t cap = ln->slot_cap > 0 ? 2u * ln->slot_cap : 64u;
        size_t *slots = cap <= SIZE_MAX / sizeof *slots ? calloc(cap, sizeof *slots) : NULL;
        if (slots == NULL) return ln->failed = true, SIZE_MAX;
        for (size_t j = 0; j < ln->count; j++) {
            size_t k = long_slot(ln->entries[j].data, ln->entries[j].size, cap);
            while (slots[k] != 0) k = (k + 1u) & (cap - 1u);
            slots[k] = j + 1u;
        }
        free(ln->slots);
        ln->slots = slots;
        ln->slot_cap = cap;
    }
    long_entry *e = &ln->entries[ln->count];
    *e = (long_entry){data, size, SIZE_MAX};
    if (size <= ln->budget - ln->bytes) {
        e->ref = ln->written++;
        ln->bytes += size;
    } else {
        ln->omitted++;
    }
    size_t k = long_slot(data, size, ln->slot_cap);
    while (ln->slots[k] != 0) k = (k + 1u) & (ln->slot_cap - 1u);
    ln->slots[k] = ++ln->count;
    return e->ref;
}

static void long_names_free(long_names *ln) {
    free(ln->entries);
    free(ln->slots);
}

/* ", \"long_name\": N" for a shortened name (null when it is past the budget), ", \"long_name\": null" for one
 * shown whole, into text (at least 40 bytes); returns its length. */
static size_t long_name_key(long_names *ln, bool shortened, const char *data, uint64_t size, char *text) {
    size_t ref = shortened && data != NULL ? long_name_ref(ln, data, size) : SIZE_MAX;
    if (ref == SIZE_MAX) return (size_t)sprintf(text, ", \"long_name\": null");
    return (size_t)sprintf(text, ", \"long_name\": %zu", ref);
}

static const char *kind_name(aplan_host_input_kind k) {
    return k == APLAN_HOST_INPUT_CSV ? "csv" : k == APLAN_HOST_INPUT_TFLITE ? "tflite" : "example";
}

static void json_u64_or_null(FILE *out, bool present, uint64_t v) {
    if (present) fprintf(out, "%llu", (unsigned long long)v);
    else fputs("null", out);
}

static const char *alignment_from_name(aplan_host_alignment_from from) {
    switch (from) {
    case APLAN_HOST_ALIGN_OPTION: return "option";
    case APLAN_HOST_ALIGN_TFLM: return "tflm";
    case APLAN_HOST_ALIGN_TARGET: return "target";
    case APLAN_HOST_ALIGN_DEFAULT: break;
    }
    return "default";
}

/* "fit": the table's verdict as data; null without a capacity. */
static void json_fit(FILE *out, const aplan_host_session *s) {
    const aplan_host_settings *st = &s->settings;
    fputs("  \"fit\": ", out);
    if (st->capacity == APLAN_UNLIMITED) {
        fputs("null,\n", out);
        return;
    }
    const aplan_host_run *r = s->best != SIZE_MAX ? &s->runs[s->best] : aplan_host_smallest_plan(s);
    bool fits = s->best != SIZE_MAX;
    fprintf(out, "{\"fits\": %s, \"capacity\": %llu, \"capacity_from_target\": %s, \"arena_bytes\": ",
            fits ? "true" : "false", (unsigned long long)st->capacity, st->capacity_from_target ? "true" : "false");
    json_u64_or_null(out, r != NULL, r != NULL ? r->result.arena_size : 0);
    fputs(", \"percent_of_capacity\": ", out);
    if (r != NULL && st->capacity > 0)
        fprintf(out, "%.3f", (double)r->result.arena_size * 100.0 / (double)st->capacity);
    else fputs("null", out);
    fputs(", \"free_bytes\": ", out);
    json_u64_or_null(out, fits, fits ? st->capacity - r->result.arena_size : 0);
    fputs(", \"over_bytes\": ", out);
    json_u64_or_null(out, !fits && r != NULL, !fits && r != NULL ? r->result.arena_size - st->capacity : 0);
    /* Proven that no plan fits: the bound alone, or a search given the capacity that covered every plan. */
    bool proven = !fits && s->bound > st->capacity;
    for (size_t i = 0; i < s->run_count && !fits; i++) {
        const aplan_host_run *x = &s->runs[i];
        proven = proven || (x->searched && x->status == APLAN_E_CAPACITY_EXCEEDED &&
                            x->result.outcome == APLAN_OUTCOME_INFEASIBLE);
    }
    fprintf(out, ", \"bound_fits\": %s, \"proven_no_fit\": %s", s->bound <= st->capacity ? "true" : "false",
            proven ? "true" : "false");
    /* A model: the figures above are the planned section's, within what the capacity leaves it; TFLM's whole
     * arena (the smallest arena of the setup the verdict judges, aplan_host_tflm_setup) against the capacity itself. */
    const aplan_host_tflm_figures *f = aplan_host_tflm_setup(s);
    fputs(", \"whole_capacity\": ", out);
    json_u64_or_null(out, st->whole_capacity != APLAN_UNLIMITED, st->whole_capacity);
    fputs(", \"tflm_arena_bytes\": ", out);
    json_u64_or_null(out, st->whole_capacity != APLAN_UNLIMITED && f != NULL, f != NULL ? f->info.smallest : 0);
    fputs(", \"tflm_arena_fits\": ", out);
    if (st->whole_capacity == APLAN_UNLIMITED || f == NULL) fputs("null", out);
    else fputs(fits && f->info.smallest <= st->whole_capacity ? "true" : "false", out);
    fputs(", \"tflm_setup\": ", out);
    if (st->whole_capacity == APLAN_UNLIMITED || f == NULL) fputs("null", out);
    else fprintf(out, "\"%s\"", aplan_host_tflm_setup_key(s, f));
    fputs("},\n", out);
}

/* "peak": the step where the bound is reached, what is live there and its largest buffers. */
static void json_peak(FILE *out, const aplan_host_session *s) {
    size_t largest[APLAN_HOST_PEAK_SHOWN];
    uint64_t live_bytes;
    size_t live = aplan_host_live_at(s, s->bound_step, largest, APLAN_HOST_PEAK_SHOWN, &live_bytes);
    fprintf(out, "  \"peak\": {\"step\": %llu, \"live_bytes\": %llu, \"live_buffers\": %zu, \"largest\": [",
            (unsigned long long)s->bound_step, (unsigned long long)live_bytes, live);
    for (size_t k = 0; k < live && k < APLAN_HOST_PEAK_SHOWN; k++) fprintf(out, "%s%zu", k > 0 ? ", " : "", largest[k]);
    fputs("]},\n", out);
}

/* "tflm": for a .tflite input, what TFLM's own planner gives and whether the best plan is the model's offline plan;
 * null for other inputs. */
static void json_tflm(FILE *out, const aplan_host_session *s, long_names *ln) {
    fputs("  \"tflm\": ", out);
    if (s->input->kind != APLAN_HOST_INPUT_TFLITE) {
        fputs("null,\n", out);
        return;
    }
    const aplan_host_input *in = s->input;
    fputs("{\"greedy_planner_bytes\": ", out);
    json_u64_or_null(out, s->tflm_arena != 0, s->tflm_arena);
    fprintf(out, ", \"best_is_offline_plan\": %s",
            s->best != SIZE_MAX && strcmp(s->runs[s->best].strategy->name, "offline") == 0 ? "true" : "false");
    const aplan_tflm_config *c = &in->tflm;
    fprintf(out, ",\n    \"version\": \"%s\", \"kernels\": \"%s\", \"isa\": %s, \"abi\": %u, \"tensors\": %zu, "
                 "\"scratch_buffers\": %zu, \"whole_capacity\": ",
            APLAN_TFLM_COMMIT, c->kernels == APLAN_TFLM_KERNELS_CMSIS_NN ? "cmsis-nn" : "reference",
            c->kernels != APLAN_TFLM_KERNELS_CMSIS_NN ? "null"
            : c->isa == APLAN_TFLM_ISA_DSP            ? "\"dsp\""
                                                      : "\"portable\"",
            in->has_tflm ? c->abi : APLAN_TFLM_ABI_32, in->tensor_count, in->count - in->tensor_count);
    json_u64_or_null(out, s->settings.whole_capacity != APLAN_UNLIMITED, s->settings.whole_capacity);
    fputs(", \"arena_error\": ", out);
    if (s->tflm_own.known || s->tflm_own.status == APLAN_OK) fputs("null", out);
    else aplan_host_json_string(out, s->tflm_own.why);
    /* The setup the report tells a user to run (aplan_host_tflm_setup): its key among the three below. */
    const aplan_host_tflm_figures *setup = aplan_host_tflm_setup(s);
    fputs(", \"setup\": ", out);
    if (setup == NULL) fputs("null", out);
    else fprintf(out, "\"%s\"", aplan_host_tflm_setup_key(s, setup));
    const aplan_host_tflm_figures *all[4] = {&s->tflm_own, &s->tflm_embed, &s->tflm_compiled, &s->tflm_adapter};
    for (size_t k = 0; k < 4u; k++) {
        const aplan_host_tflm_figures *f = all[k];
        const aplan_tflm_arena_info *i = &f->info;
        fprintf(out, ",\n    \"%s\": ", aplan_host_tflm_setup_key(s, f));
        if (!f->known) {
            fputs("null", out);
            continue;
        }
        /* planned_tensors: that way's plan of the tensors alone; kernels_scratch: what the scratch adds to it
         * (negative when the planner packed the tensors tighter among it); both null when not known. */
        fprintf(out, "{\"used\": %llu, \"smallest\": %llu, \"planned\": %llu, \"planned_tensors\": ",
                (unsigned long long)i->used, (unsigned long long)i->smallest, (unsigned long long)i->planned);
        uint64_t adds = 0;
        const bool adds_up = aplan_host_tflm_scratch_adds(f, &adds);
        json_u64_or_null(out, f->tensors_known, f->tensors);
        fputs(", \"kernels_scratch\": ", out);
        if (!f->tensors_known) fputs("null", out);
        else fprintf(out, "%s%llu", adds_up || adds == 0 ? "" : "-", (unsigned long long)adds);
        fprintf(out,
                ", \"persistent\": %llu, \"lower_bound_only\": %s,\n      \"parts\": "
                "{\"tflm_objects\": %llu, \"eval_tensors\": %llu, \"nodes\": %llu, \"params\": %llu, \"op_data\": "
                "%llu, \"variables\": %llu, \"scratch_handles\": %llu, \"io_tensors\": %llu}, \"scratch_requests\": "
                "%lu, \"scratch_request_bytes\": %llu, \"unknown_operators\": %lu",
                (unsigned long long)i->persistent, i->unknown_ops > 0 ? "true" : "false",
                (unsigned long long)i->tflm_objects, (unsigned long long)i->eval_tensors, (unsigned long long)i->nodes,
                (unsigned long long)i->params, (unsigned long long)i->op_data, (unsigned long long)i->variables,
                (unsigned long long)i->scratch_handles, (unsigned long long)i->io_tensors,
                (unsigned long)i->scratch_requests, (unsigned long long)i->scratch_bytes,
                (unsigned long)i->unknown_ops);
        fputs(", \"first_unknown\": ", out);
        if (i->unknown_ops > 0) {
            aplan_tflite_text name = aplan_tflm_unknown_name(in->model, in->model_size, i);
            fprintf(out, "{\"subgraph\": %lu, \"index\": %lu, \"name\": ", (unsigned long)i->first_unknown_subgraph,
                    (unsigned long)i->first_unknown_op);
            aplan_host_name text =
                aplan_host_name_text(name.data != NULL ? name.data : "", name.data != NULL ? name.size : 0u);
            aplan_host_json_string(out, text.text != NULL ? text.text : "?");
            fputs(", \"name_bytes\": ", out);
            json_u64_or_null(out, text.shortened, text.size);
            char key[40];
            (void)long_name_key(ln, text.shortened, name.data, text.size, key);
            fputs(key, out);
            free((char *)text.text);
            fputc('}', out);
        } else {
            fputs("null", out);
        }
        fputc('}', out);
    }
    fputs("},\n", out);
}

/* The operator of step as a JSON object {"subgraph", "index", "name", "builtin_code", "name_bytes"} (an ENTRY step's
 * is the calling operator), or null: steps 0 and 1, and inputs without operators. name_bytes is the name's length in
 * the model when name is shortened (aplan_host_name), else null. */
static void json_operator(FILE *out, const aplan_host_input *in, uint64_t step, long_names *ln) {
    const aplan_host_step *st = in->steps != NULL && step < in->step_count ? &in->steps[step] : NULL;
    if (st == NULL || st->op == APLAN_TFLITE_NONE) {
        fputs("null", out);
        return;
    }
    fprintf(out, "{\"subgraph\": %lu, \"index\": %lu, \"name\": ", (unsigned long)st->subgraph,
            (unsigned long)st->op);
    char code[32];
    aplan_host_json_string(out, aplan_host_op_name(st, code, sizeof code));
    fprintf(out, ", \"builtin_code\": %ld, \"name_bytes\": ", (long)st->builtin_code);
    json_u64_or_null(out, st->op_name_shortened, st->op_name_size);
    char key[40];
    (void)long_name_key(ln, st->op_name_shortened, st->op_name_data, st->op_name_size, key);
    fputs(key, out);
    fputc('}', out);
}

/* "steps": what runs at each step, or null for an input without operators (CSV). */
static void json_steps(FILE *out, const aplan_host_input *in, long_names *ln) {
    static const char *const kinds[] = {"start", "entry", "operator"};
    fputs("  \"steps\": ", out);
    if (in->steps == NULL) {
        fputs("null,\n", out);
        return;
    }
    fputc('[', out);
    for (size_t k = 0; k < in->step_count; k++) {
        const aplan_host_step *st = &in->steps[k];
        fprintf(out, "%s\n    {\"step\": %zu, \"kind\": \"%s\", \"operator\": ", k > 0 ? "," : "", k,
                kinds[st->kind <= APLAN_TFLITE_STEP_OPERATOR ? st->kind : APLAN_TFLITE_STEP_OPERATOR]);
        json_operator(out, in, k, ln);
        fputs(", \"entered\": ", out);
        json_u64_or_null(out, st->entered != APLAN_TFLITE_NONE, st->entered);
        fprintf(out, ", \"depth\": %lu}", (unsigned long)st->depth);
    }
    fputs("\n  ],\n", out);
}

/* The JSON's per-buffer parts (the buffers and every strategy's offsets, a few hundred bytes per buffer) go through
 * a block: text is gathered in 64 KiB and written with one fwrite, numbers are formatted by hand, and strings that
 * need no escaping are copied whole, where fprintf per number and fputc per character cost several times the
 * planning on a million buffers. A failed fwrite shows in ferror(out), which emit checks. */
typedef struct out_block {
    FILE *out;
    size_t length;
    char data[1u << 16];
} out_block;

static void block_flush(out_block *b) {
    if (b->length > 0) (void)fwrite(b->data, 1, b->length, b->out);
    b->length = 0;
}

/* Where n more bytes go (n at most a quarter of the block); the caller then adds n to length. */
static char *block_room(out_block *b, size_t n) {
    if (sizeof b->data - b->length < n) block_flush(b);
    return b->data + b->length;
}

static void block_put(out_block *b, const char *s, size_t n) {
    if (n > sizeof b->data / 4u) { /* a long name: straight through */
        block_flush(b);
        (void)fwrite(s, 1, n, b->out);
        return;
    }
    memcpy(block_room(b, n), s, n);
    b->length += n;
}

static void block_str(out_block *b, const char *s) { block_put(b, s, strlen(s)); }

/* Decimal digits of v at p (at most 20); returns the end. */
static char *put_u64(char *p, uint64_t v) {
    char digits[20];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0);
    while (n > 0) *p++ = digits[--n];
    return p;
}

static void block_u64(out_block *b, uint64_t v) {
    char *p = block_room(b, 20);
    b->length += (size_t)(put_u64(p, v) - p);
}

static void block_u64_or_null(out_block *b, bool present, uint64_t v) {
    if (present) block_u64(b, v);
    else block_put(b, "null", 4);
}

/* json_string into the block: the same text, with runs of plain ASCII copied at once. */
static void block_json_string(out_block *b, const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    size_t left = strlen(s);
    block_put(b, "\"", 1);
    while (left > 0) {
        const unsigned char *run = p;
        while (left > 0 && *p >= 0x20u && *p < 0x7fu && *p != '"' && *p != '\\') p++, left--;
        block_put(b, (const char *)run, (size_t)(p - run));
        if (left == 0) break;
        size_t n = aplan_host_shown_length(p, left);
        char esc[8];
        if (n == 0) {
            snprintf(esc, sizeof esc, "\\\\x%02X", (unsigned)*p);
            block_put(b, esc, 5); /* \\xHH: the JSON text of the four characters \xHH */
            n = 1;
        } else if (*p == '"' || *p == '\\') {
            esc[0] = '\\';
            esc[1] = (char)*p;
            block_put(b, esc, 2);
        } else {
            block_put(b, (const char *)p, n);
        }
        p += n;
        left -= n;
    }
    block_put(b, "\"", 1);
}

/* A buffer's "name", "name_bytes" (the name's length in the input when "name" is shortened, aplan_host_name; else
 * null), "type" and "shape" (null when not known). */
static void json_tensor(out_block *b, const aplan_host_input *in, size_t i, long_names *ln) {
    const aplan_host_tensor *t = in->tensors != NULL ? &in->tensors[i] : NULL;
    block_str(b, ", \"name\": ");
    block_json_string(b, aplan_host_buffer_name(in, i));
    block_str(b, ", \"name_bytes\": ");
    block_u64_or_null(b, t != NULL && t->name_shortened, t != NULL ? t->name_size : 0);
    char key[40];
    block_put(b, key, long_name_key(ln, t != NULL && t->name_shortened, t != NULL ? t->name_data : NULL,
                                    t != NULL ? t->name_size : 0, key));
    block_str(b, ", \"type\": ");
    if (t != NULL && t->type != NULL) block_json_string(b, t->type);
    else block_str(b, "null");
    block_str(b, ", \"shape\": ");
    if (t == NULL || !t->has_shape) {
        block_str(b, "null");
        return;
    }
    block_str(b, "[");
    for (uint32_t d = 0; d < t->rank; d++) {
        char dim[24];
        int n = snprintf(dim, sizeof dim, "%s%ld", d > 0 ? ", " : "", (long)t->shape[d]);
        block_put(b, dim, (size_t)n);
    }
    block_str(b, "]");
}

/* One strategy's offsets: [o0, o1, ...]. */
static void json_offsets(FILE *out, const uint64_t *offsets, size_t count) {
    out_block *b = malloc(sizeof *b);
    if (b == NULL) { /* out of memory: the slow way, same text */
        fputc('[', out);
        for (size_t k = 0; k < count; k++) fprintf(out, "%s%llu", k > 0 ? ", " : "", (unsigned long long)offsets[k]);
        fputc(']', out);
        return;
    }
    b->out = out;
    b->length = 0;
    block_put(b, "[", 1);
    for (size_t k = 0; k < count; k++) {
        if (k > 0) block_put(b, ", ", 2);
        block_u64(b, offsets[k]);
    }
    block_put(b, "]", 1);
    block_flush(b);
    free(b);
}

/* A whole name into the block as a JSON string, losslessly: each byte that display text shows as itself stands for
 * itself, except the backslash, which like every other byte (invalid UTF-8, a control character) is the text \xHH
 * (\\xHH in the JSON text). So every \xHH of the string is one byte of the name and the name's bytes come back by
 * replacing each; the JSON stays valid UTF-8. At most 5 bytes of output per byte of the name, and its 2 quotes. */
static void block_whole_name(out_block *b, const char *data, uint64_t size) {
    const unsigned char *p = (const unsigned char *)data;
    uint64_t left = size;
    block_put(b, "\"", 1);
    while (left > 0) {
        const unsigned char *run = p;
        while (left > 0 && *p >= 0x20u && *p < 0x7fu && *p != '"' && *p != '\\') p++, left--;
        block_put(b, (const char *)run, (size_t)(p - run));
        if (left == 0) break;
        size_t n = aplan_host_shown_length(p, left < 4u ? (size_t)left : 4u);
        char esc[8];
        if (n == 0 || *p == '\\') {
            snprintf(esc, sizeof esc, "\\\\x%02X", (unsigned)*p);
            block_put(b, esc, 5);
            n = 1;
        } else if (*p == '"') {
            block_put(b, "\\\"", 2);
        } else {
            block_put(b, (const char *)p, n);
        }
        p += n;
        left -= n;
    }
    block_put(b, "\"", 1);
}

/* "buffers": one object per buffer, then "long_names" (ln's names whole, each once) and "long_names_omitted". false
 * when out of memory (then what was written is incomplete). */
static bool json_buffers(FILE *out, const aplan_host_session *s, const aplan_host_run *best, long_names *ln) {
    const aplan_host_input *in = s->input;
    out_block *b = malloc(sizeof *b);
    if (b == NULL) return false;
    b->out = out;
    b->length = 0;
    block_str(b, "  \"buffers\": [");
    for (size_t i = 0; i < in->count; i++) {
        const aplan_buffer *x = &in->buffers[i];
        block_str(b, i > 0 ? ",\n    {\"index\": " : "\n    {\"index\": ");
        block_u64(b, i);
        block_str(b, ", \"id\": ");
        block_json_string(b, in->ids[i]);
        block_str(b, ", \"line\": ");
        block_u64_or_null(b, in->lines != NULL, in->lines != NULL ? in->lines[i] : 0);
        block_str(b, ", \"size\": ");
        block_u64(b, x->size);
        block_str(b, ", \"planned_size\": ");
        block_u64(b, aplan_buffer_size(&s->problem, i));
        block_str(b, ", \"lower\": ");
        block_u64(b, x->lower);
        block_str(b, ", \"upper\": ");
        block_u64(b, x->upper);
        block_str(b, ", \"alignment\": ");
        block_u64(b, aplan_buffer_alignment(&s->problem, i));
        block_str(b, ", \"fixed_offset\": ");
        block_u64_or_null(b, x->offset != APLAN_NO_OFFSET, x->offset);
        block_str(b, ", \"offset\": ");
        block_u64_or_null(b, best != NULL, best != NULL ? best->offsets[i] : 0);
        json_tensor(b, in, i, ln);
        block_str(b, "}");
    }
    block_str(b, "\n  ],\n  \"long_names\": [");
    for (size_t k = 0, n = 0; k < ln->count; k++) {
        const long_entry *e = &ln->entries[k];
        if (e->ref == SIZE_MAX) continue;
        block_str(b, n++ > 0 ? ",\n    " : "\n    ");
        block_whole_name(b, e->data, e->size);
    }
    block_str(b, ln->written > 0 ? "\n  ],\n  \"long_names_omitted\": " : "],\n  \"long_names_omitted\": ");
    block_u64(b, ln->omitted);
    block_str(b, "\n}\n");
    block_flush(b);
    free(b);
    return true;
}

int aplan_host_write_json(FILE *out, const aplan_host_session *s, const aplan_host_run *run,
                          const aplan_host_options *o, aplan_host_error *err) {
    (void)run, (void)o; /* the best run is s's, and JSON takes no option of its own */
    const aplan_host_input *in = s->input;
    const aplan_host_run *best = s->best != SIZE_MAX ? &s->runs[s->best] : NULL;
    long_names ln = {0};
    ln.budget = in->kind == APLAN_HOST_INPUT_TFLITE ? (uint64_t)in->model_size : 0u;
    fprintf(out, "{\n  \"aplan_version\": \"%s\",\n", aplan_version());
    fputs("  \"input\": {\"name\": ", out);
    aplan_host_json_string(out, in->name);
    fprintf(out, ", \"kind\": \"%s\", \"buffers\": %zu, \"alignment\": %llu, \"round_sizes\": %s, \"capacity\": ",
            kind_name(in->kind), in->count, (unsigned long long)s->settings.alignment,
            s->settings.round_sizes ? "true" : "false");
    json_u64_or_null(out, s->settings.capacity != APLAN_UNLIMITED, s->settings.capacity);
    fputs(", \"target\": ", out);
    if (s->settings.target != NULL) aplan_host_json_string(out, s->settings.target);
    else fputs("null", out);
    fprintf(out, ", \"allow_fixed_alias\": %s", (s->problem.flags & APLAN_ALLOW_FIXED_ALIAS) ? "true" : "false");
    fprintf(out,
            ", \"alignment_from\": \"%s\", \"target_alignment\": ", alignment_from_name(s->settings.alignment_from));
    json_u64_or_null(out, s->settings.target_alignment != 0, s->settings.target_alignment);
    fputs("},\n", out);
    fprintf(out, "  \"lower_bound\": {\"bytes\": %llu, \"step\": %llu, \"operator\": ", (unsigned long long)s->bound,
            (unsigned long long)s->bound_step);
    json_operator(out, in, s->bound_step, &ln);
    fputs("},\n", out);
    aplan_host_coverage_text c;
    aplan_host_coverage(s, &c);
    fprintf(out, "  \"covers\": {\"section\": \"%s\", \"text\": ", c.section);
    aplan_host_json_string(out, c.what);
    fputs(", \"not_included\": ", out);
    if (c.not_included != NULL) aplan_host_json_string(out, c.not_included);
    else fputs("null", out);
    fputs("},\n", out);
    json_fit(out, s);
    json_peak(out, s);
    json_tflm(out, s, &ln);
    fputs("  \"best\": ", out);
    if (best != NULL) aplan_host_json_string(out, best->strategy->name);
    else fputs("null", out);
    fprintf(out, ",\n  \"optimal\": %s,\n", aplan_host_best_proven(s) ? "true" : "false");
    char limit[40];
    aplan_host_seconds_text(s->settings.time_limit_ns, limit, sizeof limit);
    fprintf(out, "  \"time_limit_seconds\": %s,\n", limit);
    fputs("  \"strategies\": [", out);
    for (size_t i = 0; i < s->run_count; i++) {
        const aplan_host_run *r = &s->runs[i];
        fprintf(out, "%s\n    {\"name\": ", i > 0 ? "," : "");
        aplan_host_json_string(out, r->strategy->name);
        fprintf(out, ", \"status\": ");
        aplan_host_json_string(out, r->status == APLAN_OK ? "ok" : aplan_status_str(r->status));
        fputs(", \"error\": ", out);
        if (r->status != APLAN_OK) aplan_host_json_string(out, r->error);
        else fputs("null", out);
        fputs(", \"arena_bytes\": ", out);
        json_u64_or_null(out, r->planned, r->result.arena_size);
        fprintf(out, ", \"lower_bound\": %llu, \"overhead_percent\": ", (unsigned long long)s->bound);
        if (r->planned) fprintf(out, "%.3f", aplan_host_overhead_percent(r->result.arena_size, s->bound));
        else fputs("null", out);
        fputs(", \"outcome\": ", out);
        if (aplan_host_outcome_key(r) != NULL) aplan_host_json_string(out, aplan_host_outcome_key(r));
        else fputs("null", out);
        fprintf(out, ", \"nodes\": %llu, \"unsearched\": %llu, \"out_of_time\": %s, \"goal\": %s, \"start\": ",
                (unsigned long long)r->result.nodes, (unsigned long long)r->result.unsearched,
                r->out_of_time ? "true" : "false",
                !r->searched ? "null" : r->goal == APLAN_GOAL_FIT ? "\"fit\"" : "\"minimise\"");
        if (r->start_name != NULL) aplan_host_json_string(out, r->start_name);
        else fputs("null", out);
        fprintf(out, ", \"time_ms\": %.6f, \"verified\": %s, \"best\": %s, \"aliased_pairs\": %zu, \"offsets\": ",
                r->millis, r->verified ? "true" : "false", i == s->best ? "true" : "false",
                r->result.report.aliased_pairs);
        if (r->planned) {
            json_offsets(out, r->offsets, in->count);
        } else {
            fputs("null", out);
        }
        fputc('}', out);
    }
    fputs("\n  ],\n", out);
    json_steps(out, in, &ln);
    bool ok = json_buffers(out, s, best, &ln) && !ln.failed;
    long_names_free(&ln);
    if (!ok) {
        return aplan_host_error_set(err, APLAN_HOST_INTERNAL, "out of memory");
    }
    return APLAN_HOST_OK;
}
