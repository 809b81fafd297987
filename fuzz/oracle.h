/*
 * An independent, deliberately simple O(n^2) model of aplan's rules, written without any of the library's verifier
 * or bound code, so the two can be checked against each other (fuzz_verify, the property tests). Host-only.
 */
#ifndef APLAN_FUZZ_ORACLE_H
#define APLAN_FUZZ_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aplan/aplan.h"

/* The verdict aplan_verify must give on a problem that passes aplan_problem_validate: APLAN_OK, the per-buffer rule
 * of the first buffer that breaks one (*buffer names it), APLAN_E_ARENA_MISMATCH, APLAN_E_OVERLAP for any
 * forbidden overlap (the verifier may report it as APLAN_E_FIXED_OVERLAP; see oracle_pair_forbidden), or
 * APLAN_E_CAPACITY_EXCEEDED. *aliased receives the number of allowed fixed aliases when the verdict is APLAN_OK. */
aplan_status oracle_verify(const aplan_problem *p, const uint64_t *off, uint64_t arena, size_t *buffer,
                           size_t *aliased);
/* True iff buffers i and j conflict, share a byte at these offsets, and are not an allowed fixed alias. */
bool oracle_pair_forbidden(const aplan_problem *p, const uint64_t *off, size_t i, size_t j);
/* The lower bound as defined in aplan.h; *overflow set when a live sum passes 2^64 - 1. */
uint64_t oracle_bound(const aplan_problem *p, bool *overflow);

/* Most buffers that occupy memory oracle_optimum takes (it tries all their orders: 9! = 362,880 at most). */
#define ORACLE_MAX_EXACT 9
/* The least arena of any valid plan, by brute force over every placement order, into *optimum; false when none
 * exists (fixed buffers that no order can keep, an offset past 2^64 - 1) or more than ORACLE_MAX_EXACT buffers occupy
 * memory. The capacity is ignored. O(n! n^2). */
bool oracle_optimum(const aplan_problem *p, uint64_t *optimum);

#endif
