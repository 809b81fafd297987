/* Test helpers; see helpers.h. Written independently of the library's verifier and bound so they can catch it. */
#define _POSIX_C_SOURCE 200809L /* stat, for the shared folder */
#include "helpers.h"

#include "oracle.h"

#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <cmocka.h>

/* APLAN_TEST=PATTERN runs only the CMocka cases of each executable whose name matches PATTERN (CMocka's glob: * and
 * ?), e.g. `APLAN_TEST='test_exact_*' meson test -C build exact -v`: set before main() runs, so every suite that
 * links these helpers takes it without a line of its own. */
__attribute__((constructor)) static void filter_from_environment(void) {
    const char *pattern = getenv("APLAN_TEST");
    if (pattern != NULL && *pattern != '\0') cmocka_set_test_filter(pattern);
}

aplan_buffer buf(uint64_t size, uint64_t lower, uint64_t upper) {
    aplan_buffer b = {size, lower, upper, 0, APLAN_NO_OFFSET};
    return b;
}

aplan_buffer fixed_buf(uint64_t size, uint64_t lower, uint64_t upper, uint64_t offset) {
    aplan_buffer b = {size, lower, upper, 0, offset};
    return b;
}

const char *shared_path(const char *relative) {
    static char path[4096];
    const char *dir = getenv("APLAN_SHARED_DIR");
    snprintf(path, sizeof path, "%s/%s", dir != NULL ? dir : "../shared", relative);
    return path;
}

bool shared_exists(const char *relative) {
    struct stat st;
    return stat(shared_path(relative), &st) == 0;
}

const char *need_shared(const char *relative) {
    if (!shared_exists(relative)) {
        print_message("skipped: needs %s (not found)\n", shared_path(relative));
        skip();
    }
    return shared_path(relative);
}

static int parse_u64(const char *s, uint64_t *out) {
    if (*s == '\0' || *s == '-') return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0') return -1;
    *out = (uint64_t)v;
    return 0;
}

int load_lifetimes(const char *path, test_lifetimes *out) {
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "%s: cannot open\n", path);
        return -1;
    }
    char line[512];
    size_t cap = 0;
    unsigned lineno = 0;
    int rc = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (lineno == 1 || line[0] == '\0') continue; /* header */
        char *fields[5] = {0};
        int n = 0;
        for (char *tok = line; tok != NULL && n < 5; n++) {
            fields[n] = tok;
            tok = strchr(tok, ',');
            if (tok != NULL) *tok++ = '\0';
        }
        aplan_buffer b = buf(0, 0, 0);
        if (n < 4 || parse_u64(fields[1], &b.lower) || parse_u64(fields[2], &b.upper) ||
            parse_u64(fields[3], &b.size) || (n == 5 && fields[4][0] != '\0' && parse_u64(fields[4], &b.offset))) {
            fprintf(stderr, "%s:%u: bad row\n", path, lineno);
            rc = -1;
            break;
        }
        if (out->count == cap) {
            cap = cap ? 2 * cap : 16;
            out->buffers = realloc(out->buffers, cap * sizeof *out->buffers);
            out->ids = realloc(out->ids, cap * sizeof *out->ids);
            if (out->buffers == NULL || out->ids == NULL) abort();
        }
        snprintf(out->ids[out->count], sizeof out->ids[0], "%.31s", fields[0]);
        out->buffers[out->count++] = b;
    }
    fclose(f);
    if (rc != 0) free_lifetimes(out);
    return rc;
}

void free_lifetimes(test_lifetimes *l) {
    free(l->buffers);
    free(l->ids);
    memset(l, 0, sizeof *l);
}

int brute_force_valid(const aplan_problem *p, const uint64_t *offsets, uint64_t arena_size) {
    size_t buffer, aliased;
    return oracle_verify(p, offsets, arena_size, &buffer, &aliased) == APLAN_OK;
}

size_t brute_force_aliased(const aplan_problem *p, const uint64_t *offsets, uint64_t arena_size) {
    size_t buffer, aliased;
    return oracle_verify(p, offsets, arena_size, &buffer, &aliased) == APLAN_OK ? aliased : SIZE_MAX;
}

uint64_t brute_force_bound(const aplan_problem *p) {
    bool overflow;
    return oracle_bound(p, &overflow);
}

uint64_t brute_force_optimum(const aplan_problem *p) {
    uint64_t optimum;
    return oracle_optimum(p, &optimum) ? optimum : UINT64_MAX;
}

bool compact_build(void) {
    const aplan_buffer b = buf(1, 0, 1);
    aplan_problem p;
    aplan_problem_init(&p, &b, 1);
    size_t bytes = 0;
    assert_int_equal(aplan_lower_bound_scratch_size(&p, &bytes), APLAN_OK);
    return bytes == 0;
}

const aplan_strategy *need_strategy(const char *name) {
    const aplan_strategy *s = NULL;
    const aplan_status st = aplan_strategy_find(name, &s);
    if (st == APLAN_E_UNKNOWN_STRATEGY) {
        print_message("strategy %s is not in this build: skipped\n", name);
        skip();
    }
    assert_int_equal(st, APLAN_OK);
    return s;
}

aplan_status plan_with(const aplan_strategy *s, const aplan_problem *p, uint64_t *offsets, aplan_result *result) {
    size_t need = 0;
    aplan_status st = aplan_plan_scratch_size(s, p, &need);
    if (st != APLAN_OK) return st;
    void *scratch = need ? aligned_alloc(APLAN_SCRATCH_ALIGN, (need + 7u) / 8u * 8u) : NULL;
    aplan_search_options budget; /* searching strategies (exact) stop there with their best plan: deterministic */
    aplan_search_options_init(&budget);
    if (aplan_strategy_searches(s)) budget.max_nodes = PLAN_WITH_NODES; /* a heuristic's plan is its whole rule's */
    st = aplan_plan_search(s, p, &budget, scratch, need, offsets, result);
    free(scratch);
    if (st == APLAN_OK && !brute_force_valid(p, offsets, result->arena_size)) {
        fprintf(stderr, "%s: plan passed aplan_verify but not the brute-force check\n", s->name);
        return APLAN_E_PLAN_REJECTED;
    }
    return st;
}

uint64_t rng_next(test_rng *r) {
    uint64_t x = r->state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

uint64_t rng_below(test_rng *r, uint64_t bound) { return bound ? rng_next(r) % bound : 0; }

void random_problem(test_rng *r, aplan_buffer *out, size_t count, uint64_t max_step, uint64_t max_size,
                    uint64_t max_align, unsigned fixed_every) {
    /* Fixed buffers get private regions above 2^40 so they never clash with each other. */
    uint64_t fixed_floor = (uint64_t)1 << 40;
    for (size_t i = 0; i < count; i++) {
        uint64_t lower = rng_below(r, max_step);
        uint64_t upper = lower + rng_below(r, max_step - lower + 1);
        uint64_t size = rng_below(r, 8) == 0 ? 0 : 1 + rng_below(r, max_size);
        uint64_t align = 0;
        if (rng_below(r, 2)) {
            unsigned shift = 0;
            while ((2ull << shift) <= max_align && rng_below(r, 2)) shift++;
            align = 1ull << shift;
        }
        out[i] = buf(size, lower, upper);
        out[i].alignment = align;
        if (fixed_every && rng_below(r, fixed_every) == 0) {
            uint64_t a = align ? align : 4096;
            fixed_floor = (fixed_floor + a - 1) / a * a;
            out[i].offset = fixed_floor;
            fixed_floor += size + 4096 * (1 + rng_below(r, 3));
        }
    }
}

uint64_t test_seed(int argc, char **argv) {
    uint64_t seed = (uint64_t)time(NULL);
    if (argc > 1) seed = strtoull(argv[1], NULL, 0);
    if (seed == 0) seed = 1;
    printf("seed: %" PRIu64 " (rerun with this seed as the first argument)\n", seed);
    return seed;
}
