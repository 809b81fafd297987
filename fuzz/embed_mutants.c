/*
 * embed_mutants: single-byte mutants of .tflite models through aplan_tflite_embed and back.
 *
 *   embed_mutants [--mutants N] [--seed S] [--show 1] MODEL...
 *
 * For each model, N mutants (default 1000), each the model with one byte changed: 9 in 10 at a byte outside every
 * Buffer.data vector (the flatbuffer's tables, vectors and strings, where a change means something to the reader
 * and the writer), 1 in 10 anywhere. A mutant the reader accepts is planned as the CLI plans a model for TFLM
 * (greedy_by_size, else first_fit or linear; alignment 16, sizes rounded, the model's own offline offsets kept and
 * allowed to alias) and embedded. Whatever embed answers must hold:
 *   - a refusal carries a documented status and a message;
 *   - an output it returns OK for reads back through the reader with the input's buffers (sizes, lifetimes, ids)
 *     and exactly the plan's offsets, and embedding that output again with the same plan gives the same bytes.
 * An output that breaks the second rule is a bad output: the program prints it and exits 1 after the table.
 *
 * Prints one row per model: mutants, how many the reader accepted, how many were planned, embedded, refused (and
 * of those, how many because tables overlap a file offset that moves, and how many by the read-back), bad outputs;
 * --show 1 also prints each mutant those two refused ("MODEL: byte AT: OLD -> NEW: message"), to make a test of. Deterministic for a seed (xorshift64*).
 * Host tool: reads files, allocates; O(N x model size) time.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aplan/strategies.h"
#include "aplan/tflite.h"

typedef struct counts {
    size_t mutants, read, planned, embedded, refused, overlap_refused, read_back_refused, bad;
} counts;

static uint64_t rng_state;
static size_t refusals[128]; /* by status, over every model */
static bool show;

static uint64_t next_random(void) { /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

static uint8_t *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    uint8_t *data = NULL;
    size_t cap = 0, len = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? 2 * cap : 65536;
            uint8_t *more = realloc(data, cap);
            if (more == NULL) break;
            data = more;
        }
        size_t got = fread(data + len, 1, cap - len, f);
        if (got == 0) break;
        len += got;
    }
    fclose(f);
    *size = len;
    return data;
}

static uint32_t rd32(const uint8_t *d, size_t size, size_t p, bool *ok) {
    if (p > size || size - p < 4) {
        *ok = false;
        return 0;
    }
    return (uint32_t)d[p] | ((uint32_t)d[p + 1] << 8) | ((uint32_t)d[p + 2] << 16) | ((uint32_t)d[p + 3] << 24);
}

/* Mark the bytes of every Buffer.data vector in data_mask (a model the reader accepted, walked trustingly but
 * within bounds). */
static void mark_data(const uint8_t *d, size_t size, uint8_t *data_mask) {
    bool ok = true;
    size_t root = rd32(d, size, 0, &ok);
    size_t vt = root - (size_t)(int32_t)rd32(d, size, root, &ok);
    if (!ok || vt + 4u + 2u * 5u > size) return;
    size_t vt_size = (size_t)(d[vt] | (d[vt + 1] << 8));
    if (vt_size < 4u + 2u * 5u) return;
    size_t field = (size_t)(d[vt + 4 + 8] | (d[vt + 4 + 9] << 8)); /* Model.buffers, id 4 */
    if (field == 0) return;
    size_t vec = root + field + rd32(d, size, root + field, &ok);
    uint32_t n = rd32(d, size, vec, &ok);
    for (uint32_t i = 0; ok && i < n; i++) {
        size_t slot = vec + 4u + 4u * (size_t)i;
        size_t t = slot + rd32(d, size, slot, &ok);
        size_t bvt = t - (size_t)(int32_t)rd32(d, size, t, &ok);
        if (!ok || bvt + 6u > size || (size_t)(d[bvt] | (d[bvt + 1] << 8)) < 6u) continue;
        size_t f0 = (size_t)(d[bvt + 4] | (d[bvt + 5] << 8));
        if (f0 == 0) continue;
        size_t data = t + f0 + rd32(d, size, t + f0, &ok);
        uint32_t len = rd32(d, size, data, &ok);
        if (!ok || data + 4u + len > size) return;
        memset(data_mask + data + 4u, 1, len);
    }
}

static void *alloc_or_die(size_t n) {
    void *p = malloc(n + 8u);
    if (p == NULL) {
        fprintf(stderr, "embed_mutants: out of memory\n");
        exit(2);
    }
    return p;
}

/* embed with its scratch; NULL out is the size query. */
static aplan_status embed(const uint8_t *m, size_t size, const aplan_tflite_id *ids, const uint64_t *off, size_t n,
                          uint8_t *out, size_t cap, size_t *got, aplan_tflite_embed_info *info,
                          aplan_format_error *e) {
    size_t bytes = 0;
    aplan_status st = aplan_tflite_embed_scratch_size(m, size, &bytes, e);
    if (st != APLAN_OK) return st;
    void *scratch = alloc_or_die(bytes);
    st = aplan_tflite_embed(m, size, ids, off, n, scratch, bytes, out, cap, got, info, e);
    free(scratch);
    return st;
}

/* One mutant through read, plan, embed and back; returns false for a bad output. */
static bool check_mutant(const uint8_t *model, const uint8_t *m, size_t size, const aplan_strategy *strategy,
                         counts *c, const char *name, size_t at) {
    aplan_format_error e;
    aplan_tflite_info info;
    if (aplan_tflite_query(m, size, &info, &e) != APLAN_OK) return true;
    size_t n = info.buffer_count;
    aplan_buffer *buffers = alloc_or_die(n * sizeof *buffers);
    aplan_tflite_id *ids = alloc_or_die(n * sizeof *ids);
    uint64_t *off = alloc_or_die(n * sizeof *off);
    void *rs = alloc_or_die(info.scratch_size);
    uint8_t *out = NULL, *again = NULL;
    aplan_buffer *back = NULL;
    bool good = true;
    size_t got = 0;
    if (aplan_tflite_read(m, size, rs, info.scratch_size, buffers, ids, n, &got, &e) != APLAN_OK) goto done;
    c->read++;
    aplan_problem p;
    aplan_problem_init(&p, buffers, n);
    p.alignment = APLAN_TFLITE_ALIGNMENT;
    p.flags = APLAN_ROUND_SIZES | APLAN_ALLOW_FIXED_ALIAS;
    size_t ps = 0;
    if (aplan_plan_scratch_size(strategy, &p, &ps) != APLAN_OK) goto done;
    void *plan_scratch = alloc_or_die(ps);
    aplan_result r;
    aplan_status st = aplan_plan(strategy, &p, plan_scratch, ps, off, &r);
    free(plan_scratch);
    if (st != APLAN_OK) goto done;
    c->planned++;
    aplan_tflite_embed_info ei;
    size_t need = 0;
    st = embed(m, size, ids, off, n, NULL, 0, &need, &ei, &e);
    if (st == APLAN_OK) {
        out = alloc_or_die(need);
        st = embed(m, size, ids, off, n, out, need, &got, &ei, &e);
    }
    if (st != APLAN_OK) {
        c->refused++;
        refusals[(unsigned)st < 128u ? (unsigned)st : 127u]++;
        if (strstr(e.message, "tables overlap") != NULL && strstr(e.message, "reads differently") == NULL) {
            c->overlap_refused++;
            if (show) printf("%s: byte %zu: %u -> %u: %s\n", name, at, (unsigned)model[at], (unsigned)m[at], e.message);
        }
        if (strstr(e.message, "reads differently") != NULL) {
            c->read_back_refused++;
            if (show) printf("%s: byte %zu: %u -> %u: %s\n", name, at, (unsigned)model[at], (unsigned)m[at], e.message);
        }
        if (e.status != st || e.message[0] == '\0' || aplan_status_str(st)[0] == '\0') {
            fprintf(stderr, "%s: mutant at byte %zu: refusal %d without its report\n", name, at, (int)st);
            good = false;
        }
        goto done;
    }
    c->embedded++;
    aplan_tflite_info bi;
    size_t n2 = 0;
    st = aplan_tflite_query(out, need, &bi, &e);
    if (st == APLAN_OK && bi.buffer_count == n) {
        void *rs2 = alloc_or_die(bi.scratch_size);
        back = alloc_or_die(n * sizeof *back);
        aplan_tflite_id *ids2 = alloc_or_die(n * sizeof *ids2);
        st = aplan_tflite_read(out, need, rs2, bi.scratch_size, back, ids2, n, &n2, &e);
        for (size_t i = 0; st == APLAN_OK && good && i < n; i++) {
            good = ids2[i].subgraph == ids[i].subgraph && ids2[i].tensor == ids[i].tensor &&
                   back[i].size == buffers[i].size && back[i].lower == buffers[i].lower &&
                   back[i].upper == buffers[i].upper && back[i].offset == off[i];
        }
        free(ids2);
        free(rs2);
    }
    if (st != APLAN_OK || bi.buffer_count != n || !good) {
        fprintf(stderr, "%s: mutant at byte %zu: embed returned OK but its output reads back differently (%s)\n",
                name, at, st != APLAN_OK ? e.message : "buffers differ");
        good = false;
        goto done;
    }
    again = alloc_or_die(need);
    size_t got2 = 0;
    st = embed(out, need, ids, off, n, again, need, &got2, &ei, &e);
    if (st != APLAN_OK || got2 != need || memcmp(again, out, need) != 0) {
        fprintf(stderr, "%s: mutant at byte %zu: embedding the output again gave other bytes (%s)\n", name, at,
                st != APLAN_OK ? e.message : "same plan, different bytes");
        good = false;
    }
done:
    if (!good) c->bad++;
    free(again);
    free(back);
    free(out);
    free(rs);
    free(off);
    free(ids);
    free(buffers);
    return good;
}

int main(int argc, char **argv) {
    size_t mutants = 1000;
    rng_state = 0x9E3779B97F4A7C15ULL;
    int first = 1;
    for (; first < argc && strncmp(argv[first], "--", 2) == 0; first += 2) {
        if (first + 1 >= argc) break;
        if (strcmp(argv[first], "--mutants") == 0) mutants = (size_t)strtoull(argv[first + 1], NULL, 10);
        else if (strcmp(argv[first], "--seed") == 0) rng_state = strtoull(argv[first + 1], NULL, 10) | 1u;
        else if (strcmp(argv[first], "--show") == 0) show = strcmp(argv[first + 1], "0") != 0;
        else break;
    }
    if (first >= argc) {
        fprintf(stderr, "usage: embed_mutants [--mutants N] [--seed S] [--show 1] MODEL...\n");
        return 2;
    }
    const aplan_strategy *strategy = NULL;
    static const char *const names[] = {"greedy_by_size", "first_fit", "linear"};
    for (size_t i = 0; strategy == NULL && i < 3; i++) (void)aplan_strategy_find(names[i], &strategy);
    if (strategy == NULL) {
        printf("embed_mutants: skipped: no reference strategy in this build\n");
        return 77;
    }
    counts all = {0};
    printf("%-40s %8s %8s %8s %8s %8s %8s %10s %4s\n", "model", "mutants", "read", "planned", "embedded", "refused",
           "overlap", "read-back", "bad");
    for (int a = first; a < argc; a++) {
        size_t size = 0;
        uint8_t *model = read_file(argv[a], &size);
        if (model == NULL || size == 0) {
            fprintf(stderr, "embed_mutants: cannot read %s\n", argv[a]);
            return 2;
        }
        uint8_t *mask = calloc(size, 1);
        uint8_t *m = alloc_or_die(size);
        if (mask == NULL) return 2;
        mark_data(model, size, mask);
        size_t structure = 0;
        size_t *where = alloc_or_die(size * sizeof *where); /* the bytes outside the data, in order */
        for (size_t i = 0; i < size; i++) {
            if (mask[i] == 0) where[structure++] = i;
        }
        counts c = {0};
        for (size_t k = 0; k < mutants; k++) {
            size_t at = (size_t)(next_random() % size);
            if (structure > 0 && next_random() % 10u != 0) at = where[next_random() % structure];
            memcpy(m, model, size);
            m[at] = (uint8_t)(m[at] ^ (uint8_t)(1u + next_random() % 255u));
            c.mutants++;
            (void)check_mutant(model, m, size, strategy, &c, argv[a], at);
        }
        const char *slash = strrchr(argv[a], '/');
        printf("%-40s %8zu %8zu %8zu %8zu %8zu %8zu %10zu %4zu\n", slash ? slash + 1 : argv[a], c.mutants, c.read,
               c.planned, c.embedded, c.refused, c.overlap_refused, c.read_back_refused, c.bad);
        all.mutants += c.mutants, all.read += c.read, all.planned += c.planned, all.embedded += c.embedded;
        all.refused += c.refused, all.overlap_refused += c.overlap_refused;
        all.read_back_refused += c.read_back_refused, all.bad += c.bad;
        free(where);
        free(m);
        free(mask);
        free(model);
    }
    printf("%-40s %8zu %8zu %8zu %8zu %8zu %8zu %10zu %4zu\n", "all", all.mutants, all.read, all.planned,
           all.embedded, all.refused, all.overlap_refused, all.read_back_refused, all.bad);
    for (unsigned s = 0; s < 128u; s++) {
        if (refusals[s] > 0) printf("refused with %s: %zu\n", aplan_status_str((aplan_status)s), refusals[s]);
    }
    return all.bad == 0 ? 0 : 1;
}
