/* Test helpers: problem builders, a CSV loader for the shared lifetimes files, an independent brute-force overlap
 * checker and a seeded random problem generator. Host-only (allocates, reads files). */
#ifndef APLAN_TESTS_HELPERS_H
#define APLAN_TESTS_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aplan/aplan.h"

/* A buffer with default alignment and no fixed offset. */
aplan_buffer buf(uint64_t size, uint64_t lower, uint64_t upper);
/* The same, fixed at offset. */
aplan_buffer fixed_buf(uint64_t size, uint64_t lower, uint64_t upper, uint64_t offset);

/* A lifetimes file: `id,lower,upper,size[,offset]` (the format of ../shared/models/lifetimes/ and minimalloc's CSV,
 * columns in that order). ids[i] is the id text (at most 31 characters). Returns 0 on success, -1 on any error
 * (message on stderr). free_lifetimes releases both arrays. */
typedef struct test_lifetimes {
    aplan_buffer *buffers;
    char (*ids)[32];
    size_t count;
} test_lifetimes;
int load_lifetimes(const char *path, test_lifetimes *out);
void free_lifetimes(test_lifetimes *l);

/* Path of a file under the shared folder ($APLAN_SHARED_DIR, set by meson; ../shared when unset), in a static buffer
 * that the next call overwrites. */
const char *shared_path(const char *relative);
/* True when that path exists now (the folder is looked for at test time, not when meson configures). */
bool shared_exists(const char *relative);
/* For a case on the shared folder's real models and traces: when the path is not there, prints
 * "skipped: needs PATH (not found)" and skips the calling test (cmocka's skip()), so a clone without the folder
 * passes and says what it left out. Returns shared_path(relative) otherwise. */
const char *need_shared(const char *relative);

/* 1 when fuzz/oracle.c, the independent O(n^2) model of the rules, finds the plan valid. */
int brute_force_valid(const aplan_problem *p, const uint64_t *offsets, uint64_t arena_size);
/* fuzz/oracle.c's count of the allowed aliases (pairs of fixed buffers live together that share bytes, under
 * APLAN_ALLOW_FIXED_ALIAS) when it finds the plan valid; SIZE_MAX when it does not. */
size_t brute_force_aliased(const aplan_problem *p, const uint64_t *offsets, uint64_t arena_size);
/* fuzz/oracle.c's lower bound. */
uint64_t brute_force_bound(const aplan_problem *p);
/* fuzz/oracle.c's optimum over every placement order (at most 9 buffers that occupy memory); UINT64_MAX when no
 * plan exists or the problem is larger. */
uint64_t brute_force_optimum(const aplan_problem *p);

/* The built-in strategy of that name; when this build left it out (meson option `strategies`), the calling test is
 * skipped (cmocka's skip()), so every suite runs in every configuration. */
const aplan_strategy *need_strategy(const char *name);

/* True in a compact build (meson -Dcompact=true, APLAN_COMPACT): the verifier and the bound then need no scratch
 * and always take their pairwise paths. Asked through the public API, so it holds for the library under test. */
bool compact_build(void);

/* Plan with malloc'd scratch, run the brute-force checker, return the status; offsets must hold p->count entries.
 * A searching strategy gets a budget of PLAN_WITH_NODES nodes (aplan_plan_search), so every call ends. */
#define PLAN_WITH_NODES 2000u
aplan_status plan_with(const aplan_strategy *s, const aplan_problem *p, uint64_t *offsets, aplan_result *result);

/* Seeded random problems (xorshift64*): count buffers, steps below max_step, sizes below max_size, alignments among
 * 1..max_align (powers of two), about one in fixed_every buffers fixed (0: none) at offsets that keep the fixed
 * buffers consistent (each fixed buffer gets a private region above the others). */
typedef struct test_rng {
    uint64_t state;
} test_rng;
uint64_t rng_next(test_rng *r);
uint64_t rng_below(test_rng *r, uint64_t bound);
void random_problem(test_rng *r, aplan_buffer *out, size_t count, uint64_t max_step, uint64_t max_size,
                    uint64_t max_align, unsigned fixed_every);
/* The seed: argv[1] when given, else the time; always printed. */
uint64_t test_seed(int argc, char **argv);

#endif
