/*
 * The greedy engine (greedy.c), shared by greedy_by_size, greedy_by_size_tflm, best_fit, greedy_by_breadth and
 * greedy_by_conflicts. Internal.
 *
 * All of them place one buffer at a time: fixed buffers first, where they are; buffers that occupy nothing (size 0
 * or never live) at 0; then every other buffer, in an order of the strategy's, into a gap among the placed buffers
 * whose lifetimes intersect its own. A strategy is a rule (aplan__greedy_rule): how it orders, and which gap it takes.
 * The engine finds the conflicting placed buffers and the gap; the strategy file only computes its order.
 */
#ifndef APLAN_STRATEGIES_GREEDY_H
#define APLAN_STRATEGIES_GREEDY_H

#include "core/internal.h"

/*
 * Which gap a buffer goes to. Gaps are the free ranges among the conflicting placed buffers in offset order (from 0
 * up to the lowest, between each and the next, each start aligned up to the buffer's alignment); the space above
 * the highest end of them is not a gap but the fallback.
 *   APLAN__GAP_LOWEST    the lowest gap that fits, else on top (greedy_by_size's rule);
 *   APLAN__GAP_SMALLEST  the gap that fits with the least room, the lowest of equal ones (an exact fit ends the
 *                        search); none fits: on top (best fit: TFLite's ArenaPlanner, XLA's heap simulator).
 * Compact builds name the walk that finds the smallest, so that a device links only the rule it uses.
 */
/* The list walk's gap, other than the lowest gap's (NULL, inside the walk): from the list of placed buffers (head,
 * next: sorted by (offset, index)), x's offset into *out; false when it would pass 2^64 - 1. O(placed buffers). */
typedef bool (*aplan__walk_gap)(const aplan_problem *p, const uint64_t *offsets, const uint32_t *next, uint32_t head,
                                uint32_t x, uint64_t *out);
#if APLAN_COMPACT
typedef aplan__walk_gap aplan__gap;
bool aplan__greedy_smallest(const aplan_problem *p, const uint64_t *offsets, const uint32_t *next, uint32_t head,
                            uint32_t x, uint64_t *out);
#  define APLAN__GAP_LOWEST NULL
#  define APLAN__GAP_SMALLEST aplan__greedy_smallest
#else
typedef enum aplan__gap { APLAN__GAP_LOWEST, APLAN__GAP_SMALLEST } aplan__gap;
#endif

/*
 * Compact builds order with a comparator (a total order over buffer indices), by insertion: O(n^2), least code.
 * Either less orders by what the problem says (ctx = the problem), or keys computes what the order needs and sorts:
 * for each of the count buffers listed in order, key[x] (its entry, free until then) and, when the rule is wide,
 * wide[] (one uint64_t per buffer, any use), in O(n^2) at most; then aplan__greedy_sort with a comparator over an
 * aplan__greedy_keys.
 */
typedef struct aplan__greedy_keys {
    const aplan_problem *p;
    const uint32_t *key;
    const uint64_t *wide;
} aplan__greedy_keys;
typedef void (*aplan__greedy_keys_fn)(const aplan_problem *p, uint32_t *order, size_t count, uint32_t *key,
                                      uint64_t *wide);
#if APLAN_COMPACT
/* Stable insertion sort of n indices by less (ctx passed through). O(n^2) calls. */
void aplan__greedy_sort(uint32_t *order, size_t n, aplan__less_fn less, const void *ctx);
#else
/* Equal sizes in the size order: by rising index, by falling index (TFLM's planner: the one added last first), or
 * by rising lower step, then rising index (best fit). */
typedef enum aplan__tie { APLAN__TIE_INDEX, APLAN__TIE_LAST_ADDED, APLAN__TIE_LOWER } aplan__tie;

/* Set on a member's rank until it is placed (aplan__greedy_view.rank). */
#define APLAN__UNPLACED 0x80000000u

/*
 * What a strategy's order function sees. The members are the buffers that occupy memory (fixed ones included),
 * named by their position in (lower, index) order. rank[pos] & ~APLAN__UNPLACED is how many members start before
 * the member at pos ends, so the members at positions pos .. rank - 1 are exactly those that start while it is live
 * and no earlier; member j has ended by the time member x starts iff rank(j) <= the first position starting with x.
 */
typedef struct aplan__greedy_view {
    const aplan_problem *p;
    uint32_t *order;          /* the online buffers (to be placed) as positions, largest first, equal sizes in the
                                 rule's tie order: the function must reorder them, stably, into the placing order */
    size_t online;            /* entries of order */
    const uint32_t *by_lower; /* position -> buffer */
    const uint32_t *rank;     /* per position, see above */
    uint32_t *by_upper;       /* the members (buffer indices) by (upper, lower, index); free once read */
    size_t members;
    uint32_t *spare;          /* n entries, free */
    uint32_t *tree;           /* aplan__greedy_levels(n) entries, free: room for a 16-ary tree over the members */
    uint64_t *extra;          /* a wide rule's n entries, else NULL */
} aplan__greedy_view;
typedef void (*aplan__greedy_order_fn)(const aplan__greedy_view *v);

/* Fan-out of the engine's trees: 16 entries of 4 bytes fill a cache line. */
#define APLAN__FAN 16u
/* Levels of a 16-ary tree above m leaves, for up to 2^31 of them. */
#define APLAN__LEVELS 9
/* Entries of the levels of a 16-ary tree above m leaves (each level a 16th of the one below, rounded up, until one
 * has at most 16): about m / 15. level_start (if not NULL, APLAN__LEVELS entries) gets where each level starts
 * (level 1 first), *levels how many there are. O(log m). */
size_t aplan__greedy_levels(size_t m, size_t *level_start, unsigned *levels);
#endif

typedef struct aplan__greedy_rule {
    aplan__gap gap;
    bool wide;      /* the order needs an array of n uint64_t besides the engine's scratch (its extra) */
#if APLAN_COMPACT
    aplan__less_fn less;        /* the order over the problem, or NULL when keys orders */
    aplan__greedy_keys_fn keys; /* NULL when less orders */
#else
    aplan__tie tie;
    aplan__greedy_order_fn order; /* NULL: the size order as it is (greedy_by_size, best_fit) */
    aplan__less_fn lean;          /* the same order as a comparator over the problem, for the list walk under
                                     APLAN_LOW_MEMORY (lowest-gap rules only); NULL: no low-memory path */
#endif
} aplan__greedy_rule;

/*
 * aplan__greedy_scratch_size: the scratch the engine needs for a rule: about 20.3 bytes per buffer, 8 more with
 * rule->wide (compact builds, and under APLAN_LOW_MEMORY a rule with a lean comparator: the list walk's 8, or 16 with
 * wide). APLAN_E_SIZE_OVERFLOW when that passes SIZE_MAX, or (default builds) for 2^31 buffers or more.
 * aplan__greedy_plan: places every buffer under the rule (the strategy contract of aplan.h). Fails with
 * APLAN_E_SIZE_OVERFLOW naming the buffer whose offset or end would pass 2^64 - 1, or APLAN_E_SCRATCH_TOO_SMALL.
 */
/*
 * The list walk: the compact engine of device builds (APLAN_COMPACT), and default builds' low-memory path
 * (APLAN_LOW_MEMORY) for the rules that have a comparator: the same placements, found the way TFLM's planner finds
 * them. Placed buffers sit in one list sorted by (offset, index); each buffer walks it from the start, skipping those
 * whose lifetime misses its own, and takes the first aligned gap (as the default engine's walk over the conflicting
 * buffers in offset order does) or, with gap, the one gap names, so the offsets are the same. O(n^2) time (the order
 * is an insertion sort, the walks are whole-list), O(1) stack, 8 bytes of scratch per buffer (order 4, list links 4)
 * plus 8 for a wide rule (aplan__greedy_walk_size). It is inline, like aplan__split: each strategy's const rule folds
 * into its copy, so a device links only the parts of the walk its strategy uses.
 * Either less orders over the problem, or keys computes the keys (then sorted with aplan__greedy_sort, compact builds).
 */
#define APLAN__END UINT32_MAX

/* Links buffer x (offsets[x] set) into the list at *head, keeping it sorted by (offset, index). */
void aplan__greedy_link(uint32_t *head, uint32_t *next, const uint64_t *offsets, uint32_t x);

static inline aplan_status aplan__greedy_walk_size(bool wide, const aplan_problem *p, size_t *bytes) {
    const unsigned shift = 3u + wide; /* 8 or 16 bytes per buffer */
    if (p->count > SIZE_MAX >> shift) return APLAN_E_SIZE_OVERFLOW;
    *bytes = p->count << shift;
    return APLAN_OK;
}

static inline aplan_status aplan__greedy_walk(aplan__walk_gap gap, bool wide, aplan__less_fn less,
                                              aplan__greedy_keys_fn keys, const aplan_problem *p, void *scratch,
                                              size_t scratch_size, uint64_t *offsets, aplan_report *report) {
    if (p->count == 0) return APLAN_OK;
    if ((scratch_size >> (3u + wide)) < p->count) return APLAN_E_SCRATCH_TOO_SMALL;
    uint32_t *order = scratch;
    uint32_t *next = order + p->count;
    size_t online, fixed;
    aplan__split(p, true, offsets, order, &online, next, &fixed, less); /* sorted as it is listed */
    /* The fixed buffers are listed in next[] by rising index; linking the last first writes only next[x] and links
     * of buffers already linked, all at positions >= k, so the entries still to read, below k, stay intact. */
    uint32_t head = APLAN__END;
    for (size_t k = fixed; k-- > 0;) aplan__greedy_link(&head, next, offsets, next[k]);
    /* next[x] of a buffer still to place is free until it is linked: the keys' room; wide starts 8 * count bytes in */
    if (keys != NULL) keys(p, order, online, next, (uint64_t *)(void *)(next + p->count));
    for (size_t k = 0; k < online; k++) {
        const uint32_t x = order[k];
        const uint64_t lower = aplan__lower(p, x), upper = aplan__upper(p, x);
        const uint64_t size = aplan__size(p, x);
        const uint64_t align = aplan__alignment(p, x);
        uint64_t at = 0, at_end = size;
        bool ok = true;
        if (gap != NULL) {
            ok = gap(p, offsets, next, head, x, &at);
        } else { /* the lowest gap */
            for (uint32_t j = head; j != APLAN__END && ok; j = next[j]) {
                if (aplan__upper(p, j) <= lower || upper <= aplan__lower(p, j)) continue; /* never live together */
                if (offsets[j] >= at_end) break;                                          /* [at, at_end) fits below j */
                const uint64_t j_end = offsets[j] + aplan__size(p, j); /* placed or fixed: fits 64 bits */
                if (j_end > at) ok = aplan__align_up(j_end, align, &at) && aplan__add(at, size, &at_end);
            }
        }
        if (!ok) {
            aplan__report_value(report, APLAN_E_SIZE_OVERFLOW, x, 0, size);
            return APLAN_E_SIZE_OVERFLOW;
        }
        offsets[x] = at;
        aplan__greedy_link(&head, next, offsets, x);
    }
    return APLAN_OK;
}

#if APLAN_COMPACT
/* The compact engine is the list walk under the rule. */
static inline aplan_status aplan__greedy_scratch_size(const aplan__greedy_rule *rule, const aplan_problem *p,
                                                      size_t *bytes) {
    return aplan__greedy_walk_size(rule->wide, p, bytes);
}

static inline aplan_status aplan__greedy_plan(const aplan__greedy_rule *rule, const aplan_problem *p, void *scratch,
                                              size_t scratch_size, uint64_t *offsets, aplan_report *report) {
    return aplan__greedy_walk(rule->gap, rule->wide, rule->less, rule->keys, p, scratch, scratch_size, offsets,
                              report);
}

/* Compact builds: the walks are not stopped (a device plans without a clock); the plan is aplan__greedy_plan's. */
static inline aplan_status aplan__greedy_search(const aplan__greedy_rule *rule, const aplan_problem *p,
                                                aplan_search_context *ctx, void *scratch, size_t scratch_size,
                                                uint64_t *offsets, aplan_report *report) {
    if (ctx != NULL) ctx->outcome = APLAN_OUTCOME_PLAN;
    return aplan__greedy_plan(rule, p, scratch, scratch_size, offsets, report);
}
#else
aplan_status aplan__greedy_scratch_size(const aplan__greedy_rule *rule, const aplan_problem *p, size_t *bytes);
aplan_status aplan__greedy_plan(const aplan__greedy_rule *rule, const aplan_problem *p, void *scratch,
                                size_t scratch_size, uint64_t *offsets, aplan_report *report);
/*
 * aplan__greedy_search: aplan__greedy_plan under a search's options (ctx NULL: exactly aplan__greedy_plan). Before
 * each placement the options may stop the rule: max_nodes buffers placed, or the stop callback, asked every
 * check_every placements (first after check_every), returning true. The buffers not yet placed then go one above the
 * other above the highest end so far (a valid plan, usually far larger than the rule's), ctx->nodes is the number the
 * rule placed and ctx->outcome BEST_FOUND; not stopped, the offsets are aplan__greedy_plan's and the outcome PLAN
 * (ctx->nodes untouched). The goal and the start are not read. The same failures as aplan__greedy_plan.
 */
aplan_status aplan__greedy_search(const aplan__greedy_rule *rule, const aplan_problem *p, aplan_search_context *ctx,
                                  void *scratch, size_t scratch_size, uint64_t *offsets, aplan_report *report);
#endif

/*
 * Banked placement, for the region strategies (<aplan/regions.h>): the rule's order and gap, each buffer into the
 * first region it may use (preference order) where the rule's gap among the placed buffers of that region ends
 * within the region's capacity, else into the last region it may use, at its gap there (spilled: past the
 * capacity). Offsets are aligned to the larger of the buffer's alignment and its region's. Fixed buffers are in
 * their one region at their offset; buffers that take no space at 0 in the first region they may use. So with one
 * region of unlimited capacity and alignment 1 it is exactly aplan__greedy_plan.
 *   regions    valid for the problem (the problem's capacity is unlimited, aplan_regions_validate);
 *   region_of  out: each buffer's region;
 *   key        NULL, or per buffer a key: the buffers are then placed by rising key, equal keys in the rule's order
 *              (select's order: the buffers it chose for region 0 first).
 * aplan__bank_scratch_size: the engine's scratch plus 4 bytes per buffer and 16 per region (compact builds: plus 0).
 *   ctx        NULL, or a region strategy's context (default builds): the stop callback, asked every check_every
 *              placements with 0 nodes (placements are no search nodes; as a search making its start, so a caller
 *              can let the heuristics finish; max_nodes does not apply), may stop the rule; each buffer left goes to
 *              the aligned top of the first region it may use where that ends within the capacity, else of the last
 *              one (a valid plan) and ctx->outcome is BEST_FOUND, else PLAN; ctx->nodes is not touched.
 *              Compact builds are never stopped (outcome PLAN).
 * The same failures as aplan__greedy_plan; a region whose gap would end past 2^64 - 1 is passed over, and only the
 * last region's failing fails the plan. Complexity: the engine's, plus O(k) per region tried for a buffer with k
 * conflicting placed buffers, but O(regions) for each buffer when every buffer is live at one step (and no two fixed
 * ones may share bytes) and no gap of the region can hold it: its free bytes below its top, each size rounded up to
 * the region's alignment, say so without the tree (so a region alignment costs no walk).
 */
typedef struct aplan__bank {
    const aplan_regions *regions;
    uint32_t *region_of;
    const uint32_t *key;
} aplan__bank;
aplan_status aplan__bank_scratch_size(const aplan__greedy_rule *rule, const aplan_problem *p, size_t regions,
                                      size_t *bytes);
aplan_status aplan__bank_plan(const aplan__greedy_rule *rule, const aplan_problem *p, const aplan__bank *bank,
                              aplan_search_context *ctx, void *scratch, size_t scratch_size, uint64_t *offsets,
                              aplan_report *report);

/* greedy_by_size's rule: largest first, equal sizes by index (exact starts from its plan too). */
static inline bool aplan__larger_first(const void *ctx, uint32_t a, uint32_t b) {
    const aplan_problem *p = ctx;
    const uint64_t sa = aplan__size(p, a), sb = aplan__size(p, b);
    return sa != sb ? sa > sb : a < b;
}
#if APLAN_COMPACT
#  define APLAN__BY_SIZE_RULE {APLAN__GAP_LOWEST, false, aplan__larger_first, NULL}
#else
#  define APLAN__BY_SIZE_RULE {APLAN__GAP_LOWEST, false, APLAN__TIE_INDEX, NULL, aplan__larger_first}
#endif

/*
 * Defines a strategy of the engine: its scratch query and plan over the const rule the_rule (so that a compact
 * build folds the rule into its inline copy of the engine), the const aplan_strategy and its getter
 * aplan_strategy_<id>, the one public symbol of the file.
 */
#define APLAN__GREEDY_STRATEGY(id, the_rule, text)                                                                  \
    static aplan_status id##_scratch_size(const aplan_strategy *self, const aplan_problem *p, size_t *bytes) {   \
        (void)self;                                                                                             \
        return aplan__greedy_scratch_size(&(the_rule), p, bytes);                                              \
    }                                                                                                           \
    static aplan_status id##_plan(const aplan_strategy *self, const aplan_problem *p, void *scratch,             \
                                  size_t scratch_size, uint64_t *offsets, aplan_report *report) {               \
        (void)self;                                                                                             \
        return aplan__greedy_plan(&(the_rule), p, scratch, scratch_size, offsets, report);                     \
    }                                                                                                           \
    APLAN__GREEDY_SEARCH_MEMBER(id, the_rule)                                                                  \
    static const aplan_strategy id##_strategy = {                                                               \
        .abi_version = APLAN_STRATEGY_ABI_VERSION,                                                              \
        .name = #id,                                                                                            \
        .description = APLAN_TEXT(text),                                                                        \
        .scratch_size = id##_scratch_size,                                                                      \
        .plan = id##_plan,                                                                                      \
        .search = APLAN__GREEDY_SEARCH(id),                                                                     \
    };                                                                                                          \
    const aplan_strategy *aplan_strategy_##id(void) { return &id##_strategy; }

/* The search member (default builds): the rule under the caller's stop, max_nodes and check_every, so that a time
 * limit bounds the walk over conflicting pairs too (aplan__greedy_search). Compact builds have none: a device plans
 * without a clock, and a second entry would be a second inline copy of the engine. */
#if APLAN_COMPACT
#  define APLAN__GREEDY_SEARCH_MEMBER(id, the_rule)
#  define APLAN__GREEDY_SEARCH(id) NULL
#else
#  define APLAN__GREEDY_SEARCH_MEMBER(id, the_rule)                                                             \
    static aplan_status id##_search(const aplan_strategy *self, const aplan_problem *p, aplan_search_context *ctx,  \
                                    void *scratch, size_t scratch_size, uint64_t *offsets, aplan_report *report) { \
        (void)self;                                                                                             \
        return aplan__greedy_search(&(the_rule), p, ctx, scratch, scratch_size, offsets, report);              \
    }
#  define APLAN__GREEDY_SEARCH(id) id##_search
#endif

#endif
