/*
 * Several memory regions in one plan (since 0.4): a small fast memory (SRAM, TCM) first, larger slower ones after
 * (OCRAM, PSRAM), each buffer in one region at an offset of that region's arena.
 *
 * A region plan is a region and an offset per buffer. Buffers in different regions never share memory, so within a
 * region every rule of a single-region plan holds as aplan_verify states it (no two live buffers overlap, alignment,
 * fixed offsets kept, the arena within the region's capacity), and across regions nothing is checked but the pins.
 * What a plan is worth: first that every region's arena fits its capacity; then the slow-memory traffic, the sum over
 * the buffers outside region 0 (the fastest) of size x uses, where uses is how many operators read or write the
 * buffer (docs/design.md, "Regions").
 *
 * Like the core, everything here is freestanding: no allocator, no stdio, no files; the caller lends the scratch.
 * One region is exactly a single-region problem with that region's capacity and alignment: the region strategies
 * then give the same offsets as the single-region strategies they build on (tests/test_regions.c holds them to it).
 *
 * Typical use:
 *   1. the problem as for aplan_plan (its capacity APLAN_UNLIMITED: the regions carry the capacities);
 *   2. an aplan_region per memory, fastest first, and an aplan_regions over them (pins and uses optional);
 *   3. a region strategy (aplan_region_strategy_find, or a getter below), aplan_region_plan_scratch_size, then
 *      aplan_region_plan: validation, the bounds, the strategy, the verifier per region, the traffic.
 */
#ifndef APLAN_REGIONS_H
#define APLAN_REGIONS_H

#include "aplan.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most regions one plan may have: a buffer's allowed regions are a 64-bit mask. */
#define APLAN_MAX_REGIONS 64u

/** A memory. Plain data: fill it directly. */
typedef struct aplan_region {
    const char *name;     /**< For people (reports, the CLI); the library never reads it. NULL allowed. */
    uint64_t capacity;    /**< Most bytes the region's arena may have, or APLAN_UNLIMITED. */
    uint64_t alignment;   /**< Every offset in the region is a multiple of it: a power of two, or 0 (none beyond
                               the buffers' own). Sizes are not rounded to it: a buffer takes the bytes the problem
                               gives it (aplan_buffer_size) in whatever region. */
    uint64_t reserved[2]; /**< Zero. */
} aplan_region;

/** The regions of a problem and what the buffers may and do cost in them. */
typedef struct aplan_regions {
    const aplan_region *regions; /**< count regions in preference order: region 0 the fastest. Owned by the
                                      caller, unchanged while a call runs. */
    size_t count;                /**< 1 .. APLAN_MAX_REGIONS. */
    /** NULL (every buffer may go anywhere), or one mask per buffer: bit r set means the buffer may go to region r;
     *  0 means any region. A buffer with a fixed offset must have exactly one region (its offset is in it), unless
     *  count is 1. */
    const uint64_t *allowed;
    /** NULL (1 each), or per buffer how many operators read or write it: a buffer outside region 0 costs
     *  aplan_buffer_size x uses of slow-memory traffic. 0 is allowed (a buffer nothing touches costs nothing). */
    const uint64_t *uses;
    uint64_t reserved[4];        /**< Zero. */
} aplan_regions;

/**
 * Check a problem with regions: aplan_problem_validate, then the regions (count in 1 .. APLAN_MAX_REGIONS, each
 * alignment a power of two or 0, reserved fields zero), the problem's capacity APLAN_UNLIMITED (the regions carry
 * the capacities), every mask within count, every fixed buffer pinned to one region (count > 1), its offset aligned
 * to that region's alignment and its end within that region's capacity, every buffer's size within the capacity of
 * some region it may go to, and the whole traffic (every buffer outside region 0) within 64 bits.
 * @param[out] report optional: which buffer (and region: report.in_region, report.region) broke which rule.
 * @return APLAN_OK, a validation status of aplan_problem_validate, APLAN_E_INVALID_ARG (a NULL regions, regions
 *         NULL with count > 0, a reserved field not zero, a problem capacity other than APLAN_UNLIMITED),
 *         APLAN_E_BAD_REGION (a count out of range, a mask naming no region of the problem, a fixed buffer not
 *         pinned to one region), APLAN_E_BAD_ALIGNMENT (a region's alignment; report.region names it),
 *         APLAN_E_MISALIGNED_OFFSET, APLAN_E_CAPACITY_EXCEEDED (a buffer larger than every region it may use, or a
 *         fixed end past its region's capacity), APLAN_E_SIZE_OVERFLOW (the traffic passes 2^64 - 1: report.buffer_a
 *         is the buffer whose size x uses makes it pass, report.value its size, report.limit its uses).
 *         O(n + regions).
 */
APLAN_API aplan_status aplan_regions_validate(const aplan_problem *problem, const aplan_regions *regions,
                                              aplan_report *report);

/** Whether buffer i may go to region r (regions valid for the problem). O(1). */
APLAN_API bool aplan_region_allowed(const aplan_regions *regions, size_t i, size_t r);

/**
 * The slow-memory traffic of an assignment: the sum of aplan_buffer_size x uses over the buffers whose region_of
 * is not 0. The problem and regions must be valid (the sum then fits 64 bits). O(n).
 */
APLAN_API uint64_t aplan_region_traffic(const aplan_problem *problem, const aplan_regions *regions,
                                        const uint32_t *region_of);

/** Scratch bytes aplan_region_bounds needs: at most 96 per buffer (0 with no buffers). APLAN_OK,
 *  APLAN_E_INVALID_ARG (a NULL argument) or APLAN_E_SIZE_OVERFLOW. O(1). */
APLAN_API aplan_status aplan_region_bounds_scratch_size(const aplan_problem *problem, const aplan_regions *regions,
                                                        size_t *bytes);

/**
 * Lower bounds that every plan fitting every region obeys:
 *   - bounds[r]: region r's arena is at least aplan_lower_bound of the buffers that can go nowhere else (pinned to
 *     r, or allowed only r), at r's alignment;
 *   - *traffic_bound: the traffic is at least that of the buffers region 0 cannot take (not allowed there), plus,
 *     when region 0 has a capacity, the least traffic that frees enough of region 0 at its busiest steps: at a step
 *     where the buffers that may be in region 0 and are live need L bytes, L - capacity of them must be elsewhere,
 *     and the cheapest bytes to move are those of the fewest uses per byte (a fractional knapsack; the busiest 16
 *     steps are tried, the largest such cost is the bound).
 * @param[out] bounds        regions->count entries.
 * @param[out] traffic_bound the traffic bound.
 * @return APLAN_OK; a validation status of aplan_regions_validate; APLAN_E_INVALID_ARG;
 *         APLAN_E_SCRATCH_TOO_SMALL / _MISALIGNED; APLAN_E_SIZE_OVERFLOW (a live sum passes 2^64 - 1).
 *         O(regions x n log n).
 */
APLAN_API aplan_status aplan_region_bounds(const aplan_problem *problem, const aplan_regions *regions, void *scratch,
                                           size_t scratch_size, uint64_t *bounds, uint64_t *traffic_bound);

/** Scratch bytes aplan_region_verify needs: at most 96 per buffer. APLAN_OK, APLAN_E_INVALID_ARG or
 *  APLAN_E_SIZE_OVERFLOW. O(log n). */
APLAN_API aplan_status aplan_region_verify_scratch_size(const aplan_problem *problem, const aplan_regions *regions,
                                                        size_t *bytes);

/**
 * Check a region plan: every buffer's region_of names a region it may go to (APLAN_E_WRONG_REGION, report names
 * the buffer, report.value its region_of), then, region by region from region 0, every rule aplan_verify checks,
 * over the buffers in that region, against arenas[r] and the region's capacity and alignment (an offset must be a
 * multiple of both the buffer's alignment and the region's). The report names the region (report.in_region,
 * report.region) and the buffers by their index in the problem. The capacity comes last, over all regions: a plan
 * that fails only there keeps every other rule in every region. On success report->aliased_pairs is the sum of the
 * regions' counts (saturating at SIZE_MAX).
 * @param[in] region_of, offsets  one entry per buffer.
 * @param[in] arenas              regions->count entries: the arena size the plan claims for each region.
 * @return APLAN_OK or the first failing rule (also in report->rule); a validation status first.
 *         O(regions + n log n).
 */
APLAN_API aplan_status aplan_region_verify(const aplan_problem *problem, const aplan_regions *regions,
                                           const uint32_t *region_of, const uint64_t *offsets,
                                           const uint64_t *arenas, void *scratch, size_t scratch_size,
                                           aplan_report *report);

/* ------------------------------------------------------------------------------------------------------------ */
/* Region strategies                                                                                             */

/** The ABI of aplan_region_strategy this header describes. */
#define APLAN_REGION_STRATEGY_ABI_VERSION 1u

/**
 * A strategy for regions. A third party adds one by defining a const instance, as for aplan_strategy. Contract for
 * plan():
 *   1. problem and regions are valid; region_of[] arrives filled with UINT32_MAX, offsets[] with APLAN_NO_OFFSET.
 *   2. On APLAN_OK every buffer has a region it may go to and an offset there that is a multiple of its alignment
 *      and its region's; fixed buffers are in their region at their offset; buffers in one region that conflict do
 *      not share bytes. A region's arena may pass its capacity (a plan that does not fit is still a plan: the core
 *      reports APLAN_E_CAPACITY_EXCEEDED with it).
 *   3. scratch as for aplan_strategy (APLAN_SCRATCH_ALIGN aligned, what scratch_size returned, content unspecified);
 *      no pointer kept past the call, no allocator, deterministic.
 *   4. ctx: the options (budget, goal) and the bounds; the strategy sets ctx->nodes, and ctx->outcome to what its
 *      plan proves about the traffic (OPTIMAL: no plan that fits has less; INFEASIBLE: no plan fits every region;
 *      BEST_FOUND: the budget ran out; PLAN otherwise). The built-ins keep options->stop from their start: their
 *      heuristic steps (banked's placement, select's steps and the single-region strategies it runs) ask it every
 *      check_every placements or steps with 0 nodes (a caller that answers false to 0 nodes lets them finish, as a
 *      search making its start) and, told to stop, keep their best plan so far with outcome BEST_FOUND (banked's
 *      placement, with what is left on the regions' aligned tops, at the least); max_nodes counts search nodes only.
 *   5. On failure: APLAN_E_STRATEGY_FAILED or APLAN_E_SIZE_OVERFLOW (an offset would end past 2^64 - 1).
 *   6. It writes region_of[0 .. count - 1] and offsets[0 .. count - 1] and nothing past them. Unlike aplan_plan's,
 *      these arrays are the caller's, with no guard slot after them: a strategy that writes past them is caught only
 *      by a sanitizer.
 * The core verifies every plan (aplan_region_verify) and believes nothing else.
 */
typedef struct aplan_region_strategy {
    uint32_t abi_version;    /**< APLAN_REGION_STRATEGY_ABI_VERSION at the time the strategy was written. */
    const char *name;        /**< Unique short name, [a-z0-9_]. */
    const char *description; /**< One line ("" for the built-ins under APLAN_NO_STATUS_STRINGS). */
    /** Scratch bytes plan() needs for this (valid) problem; APLAN_E_SIZE_OVERFLOW if it does not fit size_t. */
    aplan_status (*scratch_size)(const struct aplan_region_strategy *self, const aplan_problem *problem,
                                 const aplan_regions *regions, size_t *bytes);
    /** Give every buffer a region and an offset; see the contract above. */
    aplan_status (*plan)(const struct aplan_region_strategy *self, const aplan_problem *problem,
                         const aplan_regions *regions, aplan_search_context *ctx, void *scratch, size_t scratch_size,
                         uint32_t *region_of, uint64_t *offsets, aplan_report *report);
    void *user;              /**< Free for the strategy's author; the core never touches it. */
} aplan_region_strategy;

/*
 * APLAN_BUILTIN_REGION_STRATEGIES(X): the built-in region strategies, one X(NAME, NEEDS) each, in the registry's
 * order; NEEDS is ALWAYS, or the OPTION of the single-region strategy it is built with (APLAN_WITH_<OPTION>, see
 * <aplan/strategies.h>). Each is src/strategies/region_NAME.c and its getter aplan_region_strategy_NAME; meson.build,
 * the registry, tools/declarations.py and the tree and symbol checks read this one line.
 *   banked  the baseline, as ExecuTorch's banked_greedy and ESP-DL's greedy planner do it: greedy_by_size's order,
 *           each buffer into the fastest region whose lowest free gap holds it within the capacity, else into the
 *           slowest region it may use;
 *   select  chooses region 0's buffers as a whole (those live across its busiest steps cost the most room), packs
 *           each region with the best of the single-region strategies, fills region 0's gaps with what is left,
 *           and keeps banked's plan when that is better;
 *   exact   a branch and bound over the assignments, each region packed by the single-region exact search: proves
 *           the least traffic, or that nothing fits, on small problems; under the search budget otherwise.
 */
#define APLAN_BUILTIN_REGION_STRATEGIES(X) X(banked, ALWAYS) X(select, ALWAYS) X(exact, EXACT)

#define APLAN_DECLARE_REGION_BUILTIN_(name, needs)                                                              \
    APLAN_API const aplan_region_strategy *aplan_region_strategy_##name(void);
APLAN_BUILTIN_REGION_STRATEGIES(APLAN_DECLARE_REGION_BUILTIN_)
#undef APLAN_DECLARE_REGION_BUILTIN_

/** Number of built-in region strategies. O(1). */
APLAN_API size_t aplan_region_strategy_count(void);
/** The i-th, or NULL when i >= aplan_region_strategy_count(). O(1). */
APLAN_API const aplan_region_strategy *aplan_region_strategy_at(size_t i);
/** Look one up by name: APLAN_OK, APLAN_E_INVALID_ARG (NULL argument), APLAN_E_UNKNOWN_STRATEGY. */
APLAN_API aplan_status aplan_region_strategy_find(const char *name, const aplan_region_strategy **strategy);

/* ------------------------------------------------------------------------------------------------------------ */
/* Planning                                                                                                      */

/** What aplan_region_plan found besides the regions and offsets. Zeroed and filled by it. */
typedef struct aplan_region_result {
    uint64_t traffic;       /**< aplan_region_traffic of the plan (0 when there is none). */
    uint64_t traffic_bound; /**< aplan_region_bounds' traffic bound. */
    uint64_t nodes;         /**< Search nodes the strategy visited. */
    uint32_t outcome;       /**< aplan_outcome about the traffic: OPTIMAL (equals the bound, or proven by a search),
                                 INFEASIBLE (proven that no plan fits every region), BEST_FOUND, PLAN. */
    uint32_t regions_over;  /**< Regions whose arena passes their capacity (0: the plan fits). */
    aplan_report report;    /**< On failure, where (the region in report.region). */
    uint64_t reserved[6];   /**< Zeroed by the library. */
} aplan_region_result;

/**
 * Scratch bytes aplan_region_plan needs: the largest of the bounds', the verifier's and the strategy's needs.
 * @return APLAN_OK; APLAN_E_INVALID_ARG; a validation status; APLAN_E_UNSUPPORTED_VERSION; APLAN_E_SIZE_OVERFLOW.
 */
APLAN_API aplan_status aplan_region_plan_scratch_size(const aplan_region_strategy *strategy,
                                                      const aplan_problem *problem, const aplan_regions *regions,
                                                      size_t *bytes);

/**
 * Plan with regions: validate, compute the bounds, run the strategy, verify its plan region by region, compute the
 * traffic.
 * @param[in]  options    the search budget and goal for strategies that search (NULL: defaults); its start must be
 *                        NULL here.
 * @param[out] region_of  count entries: each buffer's region.
 * @param[out] offsets    count entries: each buffer's offset in its region.
 * @param[out] arenas     regions->count entries: each region's arena (the highest end of a buffer in it).
 * @param[out] bounds     optional (NULL): regions->count entries, aplan_region_bounds' bounds.
 * @param[out] result     traffic, its bound, the outcome, the regions over capacity, and the report (required).
 * @return APLAN_OK (every region fits); APLAN_E_CAPACITY_EXCEEDED with a verified plan in the outputs that passes
 *         at least one region's capacity (report names the first such region, result->regions_over counts them), or
 *         with regions_over 0 and outcome INFEASIBLE before any strategy runs: the buffers that can go only to a
 *         region pass its capacity by its bound alone (report names the region, value the bound), and the
 *         outputs hold no plan;
 *         a validation status; APLAN_E_INVALID_ARG; APLAN_E_UNSUPPORTED_VERSION; APLAN_E_SCRATCH_TOO_SMALL /
 *         _MISALIGNED; what the strategy may return (APLAN_E_STRATEGY_FAILED, APLAN_E_SIZE_OVERFLOW; any other of its
 *         statuses becomes APLAN_E_STRATEGY_FAILED with report.value = it); APLAN_E_FIXED_OVERLAP (two fixed
 *         buffers in one region clash, aliasing not allowed); APLAN_E_PLAN_REJECTED (the plan breaks a rule:
 *         report.rule says which, report.region where).
 * Complexity: the strategy's plus O(regions x n log n).
 */
APLAN_API aplan_status aplan_region_plan(const aplan_region_strategy *strategy, const aplan_problem *problem,
                                         const aplan_regions *regions, const aplan_search_options *options,
                                         void *scratch, size_t scratch_size, uint32_t *region_of, uint64_t *offsets,
                                         uint64_t *arenas, uint64_t *bounds, aplan_region_result *result);

#ifdef __cplusplus
}
#endif

#endif /* APLAN_REGIONS_H */
