/*
 * The built-in strategies. Each getter returns a pointer to a static const aplan_strategy that lives as long as the
 * program; pass it to aplan_plan. aplan_strategy_count() and aplan_strategy_at() list the ones enabled in this build
 * (meson option `strategies`) and aplan_strategy_find() looks one up by name; the getter of a disabled strategy is
 * not in the library, so code meant for any build should look strategies up by name.
 */
#ifndef APLAN_STRATEGIES_H
#define APLAN_STRATEGIES_H

#include "aplan.h"

#ifdef __cplusplus
extern "C" {
#endif

/** "linear": no reuse. Buffers back to back in input order, each aligned, skipping fixed buffers' bytes.
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

/** "offline": pass-through of fixed offsets; every buffer must carry one (APLAN_E_OFFSET_MISSING names the first
 *  that does not). O(n); no scratch. */
APLAN_API const aplan_strategy *aplan_strategy_offline(void);

#ifdef __cplusplus
}
#endif

#endif /* APLAN_STRATEGIES_H */
