/* See graph_gen.h. */
#include "graph_gen.h"

#include <string.h>

void gg_producer_init(gg_producer *p, const uint8_t *data, size_t size) {
    p->data = data;
    p->size = size;
}

/* Reads just enough bytes to cover max, so small ranges use one byte. */
static uint64_t read_bytes(gg_producer *p, uint64_t max, int from_back) {
    uint64_t v = 0;
    for (uint64_t range = max; range != 0 && p->size != 0; range >>= 8) {
        uint8_t byte;
        if (from_back) {
            byte = p->data[p->size - 1];
        } else {
            byte = p->data[0];
            p->data++;
        }
        p->size--;
        v = (v << 8) | byte;
    }
    return max == UINT64_MAX ? v : v % (max + 1);
}

uint64_t gg_param(gg_producer *p, uint64_t max) { return read_bytes(p, max, 1); }
uint64_t gg_take(gg_producer *p, uint64_t max) { return read_bytes(p, max, 0); }

static void start(gg_problem *out) {
    memset(out, 0, sizeof *out);
    aplan_problem_init(&out->problem, out->buffers, 0);
}

/* Size of a tensor: element size times a shape, in one of three classes. */
static uint64_t tensor_size(gg_producer *p, unsigned size_class) {
    static const uint64_t element[] = {1, 2, 4, 8};
    uint64_t size = element[gg_take(p, 3)];
    switch (size_class) {
    case 0: /* tiny: scalars and short vectors */
        return size * (1 + gg_take(p, 15));
    case 1: /* feature maps: h x w x c */
        return size * (1 + gg_take(p, 63)) * (1 + gg_take(p, 63)) * (1 + gg_take(p, 31));
    default: /* huge: up to 2^40 bytes, tests 64-bit sizes without making every sum overflow */
        return size * (1 + gg_take(p, (1u << 20) - 1)) * (1 + gg_take(p, (1u << 17) - 1));
    }
}

typedef struct {
    uint64_t first, last; /* inclusive steps, TFLM style; first > last means untouched */
} span;

static void touch(span *s, uint64_t step) {
    if (s->first > s->last) {
        s->first = s->last = step;
        return;
    }
    if (step < s->first) s->first = step;
    if (step > s->last) s->last = step;
}

void gg_graph(gg_producer *p, gg_problem *out) {
    start(out);
    span life[GG_MAX_BUFFERS];
    uint64_t size[GG_MAX_BUFFERS];
    size_t n = 0;
    const unsigned size_class = (unsigned)gg_param(p, 2);
    const size_t inputs = 1 + (size_t)gg_param(p, 3);
    const size_t ops = (size_t)gg_param(p, 90);
    const unsigned fixed_every = (unsigned)gg_param(p, 15); /* 0: no fixed offsets */
    /* Steps in the lifetimes CSVs' numbering: 0 for tensors read but never written, 1 for the graph inputs, op k
     * at step k + 2, so the last op is at step ops + 1. */
    for (size_t i = 0; i < inputs; i++) {
        size[n] = tensor_size(p, size_class);
        life[n].first = life[n].last = 1;
        n++;
    }
    for (size_t k = 0; k < ops && n + 4 <= GG_MAX_BUFFERS; k++) {
        const uint64_t step = k + 2;
        const unsigned kind = (unsigned)gg_param(p, 7);
        size_t reads[4], nreads = 0;
        reads[nreads++] = n - 1; /* chain: the latest tensor */
        if (kind == 1 || kind == 2) reads[nreads++] = (size_t)gg_take(p, n - 1); /* skip connection */
        if (kind == 2) { /* concatenation: more inputs */
            reads[nreads++] = (size_t)gg_take(p, n - 1);
            reads[nreads++] = n - 1 - (size_t)gg_take(p, (n - 1) < 3 ? (n - 1) : 3);
        }
        if (kind == 3) reads[0] = (size_t)gg_take(p, n - 1); /* fan-out: re-read an older tensor */
        if (kind == 4) { /* a tensor read but never written (an NPU's scratch): live from step 0 */
            size[n] = tensor_size(p, 0);
            life[n].first = 0;
            life[n].last = 0;
            reads[nreads++] = n++;
        }
        for (size_t r = 0; r < nreads; r++) touch(&life[reads[r]], step);
        const size_t outputs = kind == 5 ? 2 : 1;
        for (size_t o = 0; o < outputs; o++) {
            size[n] = tensor_size(p, gg_take(p, 7) == 0 ? 0 : size_class);
            life[n].first = 1;
            life[n].last = 0; /* untouched until the op writes it */
            touch(&life[n], step);
            n++;
        }
        if (kind == 6 && n < GG_MAX_BUFFERS) { /* a tensor no op touches: reaches the planner, never live */
            size[n] = tensor_size(p, size_class);
            life[n].first = 1;
            life[n].last = 0;
            n++;
        }
    }
    /* Graph outputs live to the final step: the latest tensor and maybe a few more. */
    const uint64_t final = ops + 1 > 1 ? ops + 1 : 1;
    touch(&life[n - 1], final);
    for (uint64_t extra = gg_param(p, 2); extra > 0; extra--) touch(&life[gg_take(p, n - 1)], final);

    uint64_t fixed_floor = 0;
    for (size_t i = 0; i < n; i++) fixed_floor += size[i] + 64; /* above any online plan: fixed never clash */
    for (size_t i = 0; i < n; i++) {
        aplan_buffer *b = &out->buffers[i];
        b->size = size[i];
        if (life[i].first > life[i].last) {
            b->lower = b->upper = life[i].first; /* never live */
        } else {
            b->lower = life[i].first;
            b->upper = life[i].last + 1;
        }
        b->offset = APLAN_NO_OFFSET;
        if (fixed_every != 0 && gg_take(p, fixed_every) == 0) {
            /* Mostly a private region; now and then offset 0, which may clash with another fixed buffer. */
            b->offset = gg_take(p, 7) == 0 ? 0 : (fixed_floor + 4095u) & ~(uint64_t)4095u;
            fixed_floor = b->offset + size[i] + 4096u;
        }
    }
    out->problem.count = n;
    out->problem.alignment = (uint64_t)1 << gg_param(p, 6);
    out->problem.flags = (uint32_t)gg_param(p, APLAN_ROUND_SIZES | APLAN_ALLOW_FIXED_ALIAS);
    if (gg_param(p, 3) == 0) out->problem.capacity = gg_take(p, UINT32_MAX);
}

void gg_direct(gg_producer *p, gg_problem *out) {
    start(out);
    const size_t n = (size_t)gg_param(p, GG_MAX_BUFFERS);
    const unsigned corners = (unsigned)gg_param(p, 3); /* 0: tame values; higher: more extremes */
    for (size_t i = 0; i < n; i++) {
        aplan_buffer *b = &out->buffers[i];
        b->lower = gg_take(p, 63);
        b->upper = b->lower + gg_take(p, 31);
        switch (corners ? gg_take(p, 15) : 15) {
        case 0: b->size = 0; break;
        case 1: b->size = UINT64_MAX - gg_take(p, 4095); break;
        case 2: b->size = (uint64_t)1 << (32 + gg_take(p, 31)); break;
        case 3: b->lower = UINT64_MAX - gg_take(p, 3); b->upper = UINT64_MAX; b->size = 1 + gg_take(p, 255); break;
        case 4: b->upper = b->lower > 0 ? b->lower - 1 : 0; b->size = 8; break; /* invalid when lower > 0 */
        default: b->size = 1 + gg_take(p, 4095); break;
        }
        const unsigned align = (unsigned)gg_take(p, 15);
        b->alignment = align <= 12 ? (uint64_t)1 << align : align < 15 ? 0 : 3u * corners; /* 3, 6, 9: invalid */
        b->offset = APLAN_NO_OFFSET;
        if (gg_take(p, 7) == 0) {
            const uint64_t a = b->alignment ? b->alignment : 1;
            b->offset = corners && gg_take(p, 3) == 0 ? UINT64_MAX - gg_take(p, 65535) : gg_take(p, 65535) * a;
        }
    }
    out->problem.count = n;
    out->problem.alignment = (uint64_t)1 << gg_param(p, 12);
    out->problem.flags = (uint32_t)gg_param(p, APLAN_ROUND_SIZES | APLAN_ALLOW_FIXED_ALIAS);
    if (gg_param(p, 3) == 0) out->problem.capacity = gg_param(p, UINT64_MAX);
}

void gg_any(const uint8_t *data, size_t size, gg_problem *out) {
    gg_producer p;
    gg_producer_init(&p, data, size);
    if (gg_param(&p, 3) == 0) {
        gg_direct(&p, out);
    } else {
        gg_graph(&p, out);
    }
}
