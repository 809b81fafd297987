/* Reports and their one-line English form. No printf: the formatter writes decimal digits itself so the core stays
 * free of stdio on a microcontroller. */
#include "internal.h"

void aplan_report_clear(aplan_report *report) {
    if (report == NULL) return;
    APLAN_MEMSET(report, 0, sizeof *report);
    report->rule = APLAN_OK;
    report->buffer_a = APLAN_NO_BUFFER;
    report->buffer_b = APLAN_NO_BUFFER;
}

void aplan__report_buffer(aplan_report *r, aplan_status rule, size_t a) {
    if (r == NULL) return;
    size_t aliased = r->aliased_pairs;
    aplan_report_clear(r);
    r->aliased_pairs = aliased;
    r->rule = rule;
    r->buffer_a = a;
}

void aplan__report_value(aplan_report *r, aplan_status rule, size_t a, uint64_t value, uint64_t limit) {
    if (r == NULL) return;
    aplan__report_buffer(r, rule, a);
    r->value = value;
    r->limit = limit;
}

static void put_char(aplan__text *w, char c) {
    if (w->len + 1u < w->size) w->out[w->len] = c;
    w->len++;
}

static void put_chars(aplan__text *w, const char *s) {
    for (; *s != '\0'; s++) put_char(w, *s);
}

static void put_u64(aplan__text *w, uint64_t v) {
    char text[21];
    size_t n = sizeof text - 1u;
    text[n] = '\0';
    do {
        text[--n] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0);
    put_chars(w, text + n);
}

static void put_i64(aplan__text *w, int64_t v) {
    if (v < 0) put_char(w, '-');
    put_u64(w, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v);
}

static void terminate(aplan__text *w) {
    if (w->size > 0) w->out[w->len < w->size ? w->len : w->size - 1u] = '\0';
}

void aplan__put(aplan__text *w, const char *s) {
    put_chars(w, s);
    terminate(w);
}

void aplan__put_u64(aplan__text *w, uint64_t v) {
    put_u64(w, v);
    terminate(w);
}

void aplan__vputf(aplan__text *w, const char *format, va_list args) {
    for (const char *f = format; *f != '\0'; f++) {
        if (*f != '%') {
            put_char(w, *f);
            continue;
        }
        switch (f[1]) {
        case 's': put_chars(w, va_arg(args, const char *)); break;
        case 'u': put_u64(w, va_arg(args, uint64_t)); break;
        case 'd': put_i64(w, va_arg(args, int64_t)); break;
        case '%': put_char(w, '%'); break;
        default: put_char(w, '%'); continue; /* not a conversion: the '%' stands for itself, reads no argument */
        }
        f++;
    }
    terminate(w);
}

void aplan__putf(aplan__text *w, const char *format, ...) {
    va_list args;
    va_start(args, format);
    aplan__vputf(w, format, args);
    va_end(args);
}

/* Ranges are half-open inside aplan; people read inclusive ones. hi > lo always holds for a reported range. */
static void put_range(aplan__text *w, uint64_t lo, uint64_t hi) {
    aplan__put_u64(w, lo);
    aplan__put(w, "-");
    aplan__put_u64(w, hi - 1u);
}

static void put_subject(aplan__text *w, const aplan_report *r) {
    if (r->buffer_a == APLAN_NO_BUFFER) {
        aplan__put(w, "problem");
    } else {
        aplan__put(w, "buffer ");
        aplan__put_u64(w, r->buffer_a);
    }
}

size_t aplan_report_format(const aplan_report *report, char *out, size_t out_size) {
    aplan__text w = {out, out_size, 0};
    if (report == NULL) {
        aplan__put(&w, "no report");
    } else {
        const aplan_report *r = report;
        switch (r->rule) {
        case APLAN_E_OVERLAP:
        case APLAN_E_FIXED_OVERLAP:
            aplan__put(&w, r->rule == APLAN_E_FIXED_OVERLAP ? "fixed buffers " : "buffers ");
            aplan__put_u64(&w, r->buffer_a);
            aplan__put(&w, " and ");
            aplan__put_u64(&w, r->buffer_b);
            aplan__put(&w, " overlap at steps ");
            put_range(&w, r->step_lo, r->step_hi);
            aplan__put(&w, ", bytes ");
            put_range(&w, r->byte_lo, r->byte_hi);
            break;
        case APLAN_E_UNPLACED:
            put_subject(&w, r);
            aplan__put(&w, " is not placed");
            break;
        case APLAN_E_OFFSET_MISSING:
            put_subject(&w, r);
            aplan__put(&w, " has no fixed offset");
            break;
        case APLAN_E_MISALIGNED_OFFSET:
            put_subject(&w, r);
            aplan__put(&w, ": offset ");
            aplan__put_u64(&w, r->value);
            aplan__put(&w, " is not a multiple of its alignment ");
            aplan__put_u64(&w, r->limit);
            break;
        case APLAN_E_FIXED_MOVED:
            put_subject(&w, r);
            aplan__put(&w, ": placed at ");
            aplan__put_u64(&w, r->value);
            aplan__put(&w, " but fixed at ");
            aplan__put_u64(&w, r->limit);
            break;
        case APLAN_E_OUT_OF_ARENA:
            put_subject(&w, r);
            aplan__put(&w, " ends at byte ");
            aplan__put_u64(&w, r->value);
            aplan__put(&w, ", beyond the arena size ");
            aplan__put_u64(&w, r->limit);
            break;
        case APLAN_E_ARENA_MISMATCH:
            aplan__put(&w, "arena size ");
            aplan__put_u64(&w, r->value);
            aplan__put(&w, " is not the highest buffer end ");
            aplan__put_u64(&w, r->limit);
            break;
        case APLAN_E_CAPACITY_EXCEEDED:
            put_subject(&w, r);
            aplan__put(&w, " needs ");
            aplan__put_u64(&w, r->value);
            aplan__put(&w, " bytes, capacity is ");
            aplan__put_u64(&w, r->limit);
            break;
        case APLAN_E_BAD_ALIGNMENT:
            put_subject(&w, r);
            aplan__put(&w, ": alignment ");
            aplan__put_u64(&w, r->value);
            aplan__put(&w, " is not a power of two");
            break;
        case APLAN_E_BAD_LIFETIME:
            put_subject(&w, r);
            aplan__put(&w, ": lower step ");
            aplan__put_u64(&w, r->step_lo);
            aplan__put(&w, " is greater than upper step ");
            aplan__put_u64(&w, r->step_hi);
            break;
        case APLAN_E_TOO_MANY_BUFFERS:
            aplan__put_u64(&w, r->value);
            aplan__put(&w, " buffers, at most ");
            aplan__put_u64(&w, r->limit);
            break;
        case APLAN_E_WRONG_REGION:
            put_subject(&w, r);
            aplan__put(&w, " is in region ");
            aplan__put_u64(&w, r->value);
            aplan__put(&w, ", which it may not use");
            break;
        default:
            if (r->buffer_a != APLAN_NO_BUFFER) {
                put_subject(&w, r);
                aplan__put(&w, ": ");
            }
            aplan__put(&w, aplan_status_str(r->rule));
            break;
        }
        if (r->in_region) {
            aplan__put(&w, " (region ");
            aplan__put_u64(&w, r->region);
            aplan__put(&w, ")");
        }
    }
    if (out_size > 0 && w.len == 0) out[0] = '\0';
    return w.len;
}
