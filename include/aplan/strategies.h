/*
 * The built-in strategies. Each getter returns a pointer to a static const aplan_strategy that lives as long as the
 * program; pass it to aplan_plan. aplan_strategy_count() and aplan_strategy_at() list the ones enabled in this build
 * (meson option `strategies`) and aplan_strategy_find() looks one up by name; the getter of a disabled strategy is
 * not in the library, so code meant for any build should look strategies up by name.
 *
 * Sizes near 2^64: a strategy that does not search fails with APLAN_E_SIZE_OVERFLOW, naming the buffer, only where
 * the place its own rule chooses for that buffer would end past 2^64 - 1 (another order may still fit: exact then
 * finds it); wherever its rule fits 64 bits it plans. docs/design.md, "Sizes near 2^64", says what each guarantees.
 */
#ifndef APLAN_STRATEGIES_H
#define APLAN_STRATEGIES_H

#include "aplan.h"

#ifdef __cplusplus
extern "C" {
#endif

/** "linear": no reuse. Buffers back to back in input order, each aligned, skipping fixed buffers' bytes; so it fails
 *  with APLAN_E_SIZE_OVERFLOW once that sum passes 2^64 - 1, even where a plan with reuse fits.
 *  O(n + f log f) for f fixed buffers; scratch 8 bytes per fixed buffer. */
APLAN_API const aplan_strategy *aplan_strategy_linear(void);

/** "greedy_by_size": largest first, each at the lowest aligned offset clear of every placed buffer it conflicts
 *  with; equal sizes in input order. O(n + P log n) for P conflicting pairs (O(n) when every buffer is live
 *  at one step); about 20 bytes per buffer. */
APLAN_API const aplan_strategy *aplan_strategy_greedy_by_size(void);

/** "greedy_by_size_tflm": greedy_by_size with TFLite Micro's GreedyMemoryPlanner tie order (equal sizes: the
 *  buffer added last goes first), so its offsets equal TFLM's. Same cost as greedy_by_size. */
APLAN_API const aplan_strategy *aplan_strategy_greedy_by_size_tflm(void);

/** "first_fit": simulates a runtime arena in step order (release, coalesce, allocate largest first at the lowest
 *  free block that fits, grow at the top). O(n log n) expected (live buffers in a search tree by offset), plus
 *  O(f log f) per buffer for its f conflicting fixed buffers; 32 bytes per buffer, 16 more per fixed buffer. */
APLAN_API const aplan_strategy *aplan_strategy_first_fit(void);

/** "best_fit": largest first (equal sizes: earliest lower step, then index), each into the smallest gap that holds
 *  it among the placed buffers it conflicts with (gaps in offset order, from 0 up, starts aligned; an exact fit
 *  first, equal gaps: the lowest), else on top of them: the rule of TFLite's ArenaPlanner and XLA's heap simulator.
 *  O(n + P log n) for P conflicting pairs, each buffer sorting all of its placed neighbours unless a gap fits
 *  exactly; about 20 bytes of scratch per buffer (8 in compact builds). */
APLAN_API const aplan_strategy *aplan_strategy_best_fit(void);

/** "greedy_by_breadth": steps by breadth (the bytes live at them), broadest first (equal: earlier first); at each,
 *  its buffers not yet ordered, largest first (equal: by index); each at greedy_by_size's lowest aligned offset
 *  (Pisarchyk and Lee, 2020). O(n log n) for the order plus O(n + P log n) to place; about 28 bytes of scratch per
 *  buffer (16 in compact builds). */
APLAN_API const aplan_strategy *aplan_strategy_greedy_by_breadth(void);

/** "greedy_by_conflicts": most conflicts first (the other buffers live with it, fixed ones included), then largest,
 *  then by index; each at greedy_by_size's lowest aligned offset (TVM USMP's order). O(n) for the order after the
 *  engine's sorts plus O(n + P log n) to place; about 20 bytes of scratch per buffer (8 in compact builds). */
APLAN_API const aplan_strategy *aplan_strategy_greedy_by_conflicts(void);

/** "exact": a depth-first branch and bound (MiniMalloc's search space: buffers placed in rising offset order, each
 *  at the lowest offset above its placed conflicts; section inference, dominance, independent groups, three
 *  preorders in turn). Under aplan_plan_search it fits the capacity (APLAN_GOAL_FIT) or minimises the arena from a
 *  starting plan (options.start, else greedy_by_size's), within the caller's budget, and says what it proved
 *  (aplan_result.outcome). Through aplan_plan it minimises with no budget: exponential time in the worst case, so
 *  give large problems a budget. Where greedy_by_size's start passes 2^64 - 1 it searches from the lower bound and
 *  the capacity instead; it fails with APLAN_E_SIZE_OVERFLOW only when a complete search found no plan whose ends
 *  fit 64 bits, and with APLAN_E_STRATEGY_FAILED when the budget ran out before it found one (both naming a buffer
 *  left without a place). About 330 bytes of scratch per buffer plus up to 48 n^2 bytes (at most 64 MiB) for
 *  the conflict lists and undo logs of one group; a larger group is not searched (its start stays, unproven). */
APLAN_API const aplan_strategy *aplan_strategy_exact(void);

/** "offline": pass-through of fixed offsets; every buffer must carry one (APLAN_E_OFFSET_MISSING names the first
 *  that does not). O(n); no scratch. */
APLAN_API const aplan_strategy *aplan_strategy_offline(void);

#ifdef __cplusplus
}
#endif

#endif /* APLAN_STRATEGIES_H */
