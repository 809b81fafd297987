/* The greedy-by-size engine, shared by greedy_by_size.c and its TFLM-order variant. Internal. */
#ifndef APLAN_STRATEGIES_GREEDY_H
#define APLAN_STRATEGIES_GREEDY_H

#include "core/internal.h"

/* Scratch need of aplan__greedy_plan: 20.3 bytes per buffer (8 in compact builds). */
aplan_status aplan__greedy_scratch_size(const aplan_strategy *self, const aplan_problem *p, size_t *bytes);
/* Places the online buffers largest first; equal sizes by rising index, or with last_added_first by falling index.
 * Compact builds order them with less instead (that same order as a total order over indices, ctx = the problem),
 * so each strategy links only its own comparator; other builds pass NULL. */
aplan_status aplan__greedy_plan(const aplan_problem *p, bool last_added_first, aplan__less_fn less, void *scratch,
                                size_t scratch_size, uint64_t *offsets, aplan_report *report);

#endif
