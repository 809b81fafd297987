/*
 * Text as every output shows it: display text (bytes from files, made safe to print: aplan_host_shown_length), widths
 * and shortened names, buffers as the table and `bound` list them, steps in words, and what the figures cover.
 */
#define _POSIX_C_SOURCE 200809L /* fmemopen: aplan_host_tflm_sum_text */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"

const char *aplan_host_s(uint64_t n) { return n == 1 ? "" : "s"; }

double aplan_host_overhead_percent(uint64_t arena, uint64_t bound) {
    if (bound == 0) return 0.0;
    return ((double)arena - (double)bound) * 100.0 / (double)bound;
}


size_t aplan_host_shown_length(const unsigned char *s, size_t avail) {
    unsigned c = s[0];
    if (c < 0x20u || c == 0x7Fu) return 0; /* XML allows no control character but tab and newlines: none shown */
    if (c < 0x80u) return 1;
    size_t n;
    uint32_t cp, min;
    if (c >= 0xC2u && c <= 0xDFu) n = 2, cp = c & 0x1Fu, min = 0x80u;
    else if ((c & 0xF0u) == 0xE0u) n = 3, cp = c & 0x0Fu, min = 0x800u;
    else if (c >= 0xF0u && c <= 0xF4u) n = 4, cp = c & 0x07u, min = 0x10000u;
    else return 0; /* a stray continuation byte, or a lead byte RFC 3629 forbids */
    if (n > avail) return 0;
    for (size_t k = 1; k < n; k++) {
        if ((s[k] & 0xC0u) != 0x80u) return 0;
        cp = cp << 6 | (s[k] & 0x3Fu);
    }
    /* overlong forms, code points above U+10FFFF, surrogates, and the noncharacters U+FFFE and U+FFFF (not XML) */
    if (cp < min || cp > 0x10FFFFu || (cp >= 0xD800u && cp <= 0xDFFFu) || cp == 0xFFFEu || cp == 0xFFFFu) return 0;
    return n;
}

char *aplan_host_display_text(const char *data, size_t size) {
    if (size > (SIZE_MAX - 1u) / 4u) return NULL;
    char *text = malloc(4u * size + 1u); /* every byte at most \xHH */
    if (text == NULL) return NULL;
    const unsigned char *p = (const unsigned char *)data;
    size_t at = 0;
    for (size_t i = 0; i < size;) {
        size_t n = aplan_host_shown_length(p + i, size - i);
        if (n == 0) {
            snprintf(text + at, 5, "\\x%02X", (unsigned)p[i]);
            at += 4u;
            i++;
        } else {
            memcpy(text + at, p + i, n);
            at += n;
            i += n;
        }
    }
    text[at] = '\0';
    return text;
}

/* Display text of data[from, to) into out: whole characters (a \xHH is one) while they fit in room bytes; returns the
 * bytes written (no NUL) and sets *end to where it stopped. */
static size_t shown_prefix(const unsigned char *p, size_t from, size_t to, char *out, size_t room, size_t *end) {
    size_t at = 0, i = from;
    while (i < to) {
        size_t n = aplan_host_shown_length(p + i, to - i);
        if (at + (n == 0 ? 4u : n) > room) break;
        if (n == 0) {
            snprintf(out + at, 5, "\\x%02X", (unsigned)p[i]);
            at += 4u;
            i++;
        } else {
            memcpy(out + at, p + i, n);
            at += n;
            i += n;
        }
    }
    *end = i;
    return at;
}

aplan_host_name aplan_host_name_text(const char *data, size_t size) {
    enum { HALF = APLAN_HOST_TEXT_MAX / 2u };
    char text[APLAN_HOST_NAME_TEXT_MAX + 1u];
    const unsigned char *p = (const unsigned char *)data;
    size_t end;
    size_t at = shown_prefix(p, 0, size, text, APLAN_HOST_TEXT_MAX, &end);
    aplan_host_name name = {NULL, (uint64_t)size, end < size};
    if (name.shortened) {
        /* The beginning, the marker, then the end: a scope path's end is what tells tensors apart. A character
         * shows as at least one byte, so the last HALF bytes of the name hold the longest end that fits. */
        at = shown_prefix(p, 0, size, text, HALF, &end);
        at += (size_t)snprintf(text + at, sizeof text - at, "...(%llu bytes)...", (unsigned long long)size);
        size_t from = size - end > HALF ? size - HALF : end;
        for (unsigned k = 0; k < 3u && from < size && (p[from] & 0xC0u) == 0x80u; k++) from++; /* a cut character */
        size_t shown = 0; /* drop whole characters from the front until the rest shows in HALF bytes */
        for (size_t i = from; i < size;) {
            size_t n = aplan_host_shown_length(p + i, size - i);
            shown += n == 0 ? 4u : n;
            i += n == 0 ? 1u : n;
        }
        while (shown > HALF) {
            size_t n = aplan_host_shown_length(p + from, size - from);
            shown -= n == 0 ? 4u : n;
            from += n == 0 ? 1u : n;
        }
        at += shown_prefix(p, from, size, text + at, HALF, &end);
    }
    text[at] = '\0';
    char *copy = malloc(at + 1u);
    if (copy != NULL) memcpy(copy, text, at + 1u);
    name.text = copy;
    return name;
}

/* Fibonacci hashing of the position: the low bits of a pointer into a file are its alignment, the high ones its
 * region, so the multiplier's top bits mix them; shift keeps log2(cap) of them. */
static size_t name_slot(const char *data, size_t size, unsigned shift) {
    uint64_t h = ((uint64_t)(uintptr_t)data ^ ((uint64_t)size << 17)) * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h >> shift);
}

static unsigned name_shift(size_t cap) {
    unsigned bits = 0;
    while (((size_t)1 << bits) < cap) bits++;
    return 64u - bits;
}

bool aplan_host_names_get(aplan_host_names *names, const char *data, size_t size, aplan_host_name *name) {
    if (names->cap > 0) {
        size_t mask = names->cap - 1u;
        for (size_t k = name_slot(data, size, name_shift(names->cap));; k = (k + 1u) & mask) {
            const aplan_host_name_slot *slot = &names->slots[k];
            if (slot->data == NULL) break;
            if (slot->data == data && slot->size == size) {
                *name = slot->name;
                return true;
            }
        }
    }
    if (2u * (names->count + 1u) > names->cap) { /* grow: at most half full, so a probe ends soon */
        size_t cap = names->cap > 0 ? 2u * names->cap : 64u;
        if (cap > SIZE_MAX / sizeof *names->slots) return false;
        aplan_host_name_slot *slots = calloc(cap, sizeof *slots);
        if (slots == NULL) return false;
        unsigned shift = name_shift(cap);
        for (size_t j = 0; j < names->cap; j++) {
            const aplan_host_name_slot *old = &names->slots[j];
            if (old->data == NULL) continue;
            size_t k = name_slot(old->data, old->size, shift);
            while (slots[k].data != NULL) k = (k + 1u) & (cap - 1u);
            slots[k] = *old;
        }
        free(names->slots);
        names->slots = slots;
        names->cap = cap;
    }
    aplan_host_name made = aplan_host_name_text(data, size);
    if (made.text == NULL) return false;
    size_t k = name_slot(data, size, name_shift(names->cap));
    while (names->slots[k].data != NULL) k = (k + 1u) & (names->cap - 1u);
    names->slots[k] = (aplan_host_name_slot){data, size, made};
    names->count++;
    *name = made;
    return true;
}

void aplan_host_names_free(aplan_host_names *names) {
    for (size_t k = 0; k < names->cap; k++) free((char *)names->slots[k].name.text);
    free(names->slots);
    memset(names, 0, sizeof *names);
}

size_t aplan_host_text_width(const char *s) {
    size_t n = 0;
    for (; *s != '\0'; s++) n += ((unsigned char)*s & 0xC0u) != 0x80u;
    return n;
}

const char *aplan_host_short_tail(const char *s, size_t max) {
    if (aplan_host_text_width(s) <= max) return NULL;
    /* Keep the last max - 3 characters, from the first '/' among their first half when there is one. */
    size_t keep = max > 3u ? max - 3u : 0u;
    const char *tail = s + strlen(s);
    for (size_t k = 0; k < keep && tail > s;) {
        tail--;
        k += ((unsigned char)*tail & 0xC0u) != 0x80u;
    }
    const char *slash = strchr(tail, '/');
    if (slash != NULL && slash != tail && aplan_host_text_width(slash) >= keep / 2u) tail = slash;
    return tail;
}

size_t aplan_host_write_short(FILE *out, const char *s, size_t max) {
    const char *tail = aplan_host_short_tail(s, max);
    if (tail == NULL) {
        if (out != NULL) fputs(s, out);
        return aplan_host_text_width(s);
    }
    if (out != NULL) fprintf(out, "...%s", tail);
    return 3u + aplan_host_text_width(tail);
}

size_t aplan_host_write_shown(FILE *out, const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    size_t left = strlen(s), width = 0;
    while (left > 0) {
        size_t n = aplan_host_shown_length(p, left);
        if (n == 0) {
            if (out != NULL) fprintf(out, "\\x%02X", (unsigned)*p);
            n = 1, width += 4u;
        } else {
            if (out != NULL) fwrite(p, 1, n, out);
            width++;
        }
        p += n, left -= n;
    }
    return width;
}

size_t aplan_host_write_buffer_label(FILE *out, const aplan_host_input *in, size_t i, size_t width) {
    const char *name = in->tensors != NULL ? in->tensors[i].name : NULL;
    size_t written;
    if (name == NULL) {
        written =
            aplan_host_write_shown(out, in->ids[i]); /* an id is never shortened: it is what a plan is matched by */
    } else {
        if (out != NULL) (void)aplan_host_write_short(out, name, APLAN_HOST_NAME_SHOWN);
        written = aplan_host_write_short(NULL, name, APLAN_HOST_NAME_SHOWN) + 3u;
        if (out != NULL) fputs(" (", out);
        written += aplan_host_write_shown(out, in->ids[i]);
        if (out != NULL) fputc(')', out);
    }
    for (size_t k = written; out != NULL && k < width; k++) fputc(' ', out);
    return written;
}

void aplan_host_write_buffer_rows(FILE *out, const aplan_host_session *s, const size_t *which, size_t count) {
    const aplan_host_input *in = s->input;
    size_t width = 24; /* the ids of CSV inputs line up as they always have */
    for (size_t k = 0; k < count; k++) {
        size_t w = aplan_host_write_buffer_label(NULL, in, which[k], 0);
        if (w > width) width = w;
    }
    for (size_t k = 0; k < count; k++) {
        size_t i = which[k];
        const aplan_buffer *b = &in->buffers[i];
        char tensor[160];
        aplan_host_tensor_text(in, i, tensor, sizeof tensor);
        fputs("  ", out);
        (void)aplan_host_write_buffer_label(out, in, i, width);
        uint64_t size = aplan_buffer_size(&s->problem, i);
        fprintf(out, " %12llu %s steps [%llu, %llu)%s%s\n", (unsigned long long)size, size == 1 ? "byte  " : "bytes ",
                (unsigned long long)b->lower, (unsigned long long)b->upper, tensor[0] != '\0' ? "  " : "", tensor);
    }
}

void aplan_host_tensor_text(const aplan_host_input *in, size_t i, char *out, size_t out_size) {
    out[0] = '\0';
    if (in->tensors == NULL) return;
    const aplan_host_tensor *t = &in->tensors[i];
    size_t at = 0;
    if (t->type != NULL) at = (size_t)snprintf(out, out_size, "%s", t->type);
    if (!t->has_shape || at >= out_size) return;
    at += (size_t)snprintf(out + at, out_size - at, "%s[", at > 0 ? " " : "");
    for (uint32_t d = 0; d < t->rank && at < out_size; d++)
        at += (size_t)snprintf(out + at, out_size - at, "%s%ld", d > 0 ? "x" : "", (long)t->shape[d]);
    if (at < out_size) snprintf(out + at, out_size - at, "]");
}

/* snprintf, then, when out_size cut the text, drop a UTF-8 sequence cut in two: display text stays valid UTF-8. */
static void format_text(char *out, size_t out_size, const char *format, ...) __attribute__((format(printf, 3, 4)));
static void format_text(char *out, size_t out_size, const char *format, ...) {
    va_list args;
    va_start(args, format);
    int n = vsnprintf(out, out_size, format, args);
    va_end(args);
    if (n < 0 || (size_t)n < out_size || out_size == 0) return;
    size_t end = out_size - 1u, lead = end;
    while (lead > 0 && ((unsigned char)out[lead - 1u] & 0xC0u) == 0x80u) lead--;
    if (lead > 0 && (unsigned char)out[lead - 1u] >= 0xC0u) {
        unsigned c = (unsigned char)out[lead - 1u];
        size_t need = c >= 0xF0u ? 4u : c >= 0xE0u ? 3u : 2u;
        if (end - (lead - 1u) < need) out[lead - 1u] = '\0';
    }
}

const char *aplan_host_op_name(const aplan_host_step *s, char *buf, size_t size) {
    if (s->op_name != NULL) return s->op_name;
    if (s->op == APLAN_TFLITE_NONE) return "";
    snprintf(buf, size, "operator code %ld", (long)s->builtin_code);
    return buf;
}

/* name, or when it is longer than room bytes "..." and its end within room - 3 (whole characters), into buf (at
 * least room + 1 bytes); returns what to print. */
static const char *name_within(const char *name, size_t room, char *buf) {
    size_t n = strlen(name);
    if (n <= room) return name;
    const char *tail = name + n - (room > 3u ? room - 3u : 0u);
    while (*tail != '\0' && ((unsigned char)*tail & 0xC0u) == 0x80u) tail++; /* not inside a character */
    snprintf(buf, room + 1u, "...%s", tail);
    return buf;
}

bool aplan_host_describe_step(const aplan_host_input *in, uint64_t step, char *out, size_t out_size) {
    out[0] = '\0';
    if (in->steps == NULL || step >= in->step_count) return false;
    const aplan_host_step *s = &in->steps[step];
    char code[32], shown[APLAN_HOST_NAME_TEXT_MAX + 1u];
    /* The words and numbers around the name take at most 80 bytes: a long name (a custom code) keeps its end and
     * leaves room for them, so the text still says which operator it is. */
    const char *name =
        name_within(aplan_host_op_name(s, code, sizeof code), out_size > 96u ? out_size - 81u : 15u, shown);
    if (s->kind == APLAN_TFLITE_STEP_START) {
        format_text(out, out_size, "start, before any operator");
    } else if (s->kind == APLAN_TFLITE_STEP_ENTRY && s->op == APLAN_TFLITE_NONE) {
        format_text(out, out_size, "the inputs of subgraph %lu", (unsigned long)s->entered);
    } else if (s->kind == APLAN_TFLITE_STEP_ENTRY) {
        format_text(out, out_size, "entering subgraph %lu from %s (op %lu of subgraph %lu)", (unsigned long)s->entered,
                    name, (unsigned long)s->op, (unsigned long)s->subgraph);
    } else {
        format_text(out, out_size, "%s (op %lu of subgraph %lu)", name, (unsigned long)s->op,
                    (unsigned long)s->subgraph);
    }
    return true;
}


void aplan_host_coverage(const aplan_host_session *s, aplan_host_coverage_text *c) {
    const aplan_host_input *in = s->input;
    c->not_included = NULL;
    switch (in->kind) {
    case APLAN_HOST_INPUT_TFLITE:
        c->section = "tflm_planned";
        snprintf(c->what, sizeof c->what,
                 "TFLM's planned (non-persistent) section: the model's %zu planned tensor%s and %zu kernel scratch "
                 "buffer%s (%u-bit ABI)",
                 in->tensor_count, aplan_host_s(in->tensor_count), in->count - in->tensor_count,
                 aplan_host_s(in->count - in->tensor_count), in->has_tflm ? in->tflm.abi : APLAN_TFLM_ABI_32);
        c->not_included = "TFLM's persistent data (tensor, node and quantization structs, kernels' op data), "
                          "counted in the \"TFLM arena\" lines: see docs/tflm.md";
        break;
    case APLAN_HOST_INPUT_EXAMPLE:
        c->section = "tflm_planned";
        snprintf(c->what, sizeof c->what,
                 "the planned (non-persistent) section of the example's %zu tensor%s, by TFLM's rules", in->count,
                 aplan_host_s(in->count));
        c->not_included = "the kernels' scratch buffers and TFLM's persistent data, as for a model (docs/tflm.md)";
        break;
    case APLAN_HOST_INPUT_CSV:
        c->section = "input_buffers";
        snprintf(c->what, sizeof c->what, "the input's %zu buffer%s, nothing else", in->count, aplan_host_s(in->count));
        break;
    }
}


bool aplan_host_tflm_sum_text(char *out, size_t size, const aplan_host_tflm_figures *f) {
    FILE *mem = fmemopen(out, size, "w");
    if (mem == NULL) return false;
    fprintf(mem, "smallest arena %llu%s; arena_used_bytes() %llu = ", (unsigned long long)f->info.smallest,
            f->info.unknown_ops > 0 ? " (at least)" : "", (unsigned long long)f->info.used);
    aplan_host_write_tflm_parts(mem, f);
    const bool ok = ferror(mem) == 0;
    return fclose(mem) == 0 && ok;
}

/* Lower-case ASCII; names and suffixes here are ASCII, so no locale is involved. */
static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

bool aplan_host_same_name(const char *a, const char *b) {
    for (; *a != '\0' && lower(*a) == lower(*b); a++, b++) {
    }
    return lower(*a) == lower(*b);
}


size_t aplan_host_edit_distance(const char *a, const char *b) {
    size_t n = strlen(a), m = strlen(b);
    size_t d[APLAN_HOST_SUGGEST_MAX + 1][APLAN_HOST_SUGGEST_MAX + 1];
    for (size_t i = 0; i <= n; i++) d[i][0] = i;
    for (size_t j = 0; j <= m; j++) d[0][j] = j;
    for (size_t i = 1; i <= n; i++) {
        for (size_t j = 1; j <= m; j++) {
            size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0u : 1u;
            size_t best = d[i - 1][j - 1] + cost;
            if (d[i - 1][j] + 1u < best) best = d[i - 1][j] + 1u;
            if (d[i][j - 1] + 1u < best) best = d[i][j - 1] + 1u;
            if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]) &&
                d[i - 2][j - 2] + 1u < best)
                best = d[i - 2][j - 2] + 1u;
            d[i][j] = best;
        }
    }
    return d[n][m];
}

void aplan_host_suggest_init(aplan_host_suggestion *s, const char *given) {
    s->given = given;
    s->best = NULL;
    s->distance = SIZE_MAX;
    s->ties = 0;
}

void aplan_host_suggest_consider(aplan_host_suggestion *s, const char *known) {
    if (strlen(s->given) > APLAN_HOST_SUGGEST_MAX || strlen(known) > APLAN_HOST_SUGGEST_MAX) return;
    size_t d = aplan_host_edit_distance(s->given, known);
    if (d < s->distance) {
        s->best = known;
        s->distance = d;
        s->ties = 0;
    } else if (d == s->distance && !aplan_host_same_name(known, s->best)) {
        s->ties++;
    }
}

void aplan_host_suggest_text(const aplan_host_suggestion *s, char *out, size_t out_size) {
    /* Close: one edit in up to 3 characters, two in up to 6, three beyond; and only one name that close, since
     * two equally near guesses help no one. */
    size_t n = strlen(s->given);
    size_t limit = n <= 3u ? 1u : n <= 6u ? 2u : 3u;
    if (s->best != NULL && s->distance <= limit && s->ties == 0)
        snprintf(out, out_size, "did you mean '%s'? ", s->best);
    else if (out_size > 0) out[0] = '\0';
}
