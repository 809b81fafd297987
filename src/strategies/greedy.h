/* The greedy-by-size engine, shared by greedy_by_size.c and its TFLM-order variant. Internal. */
#ifndef APLAN_STRATEGIES_GREEDY_H
#define APLAN_STRATEGIES_GREEDY_H

#include "core/internal.h"

/* Scratch need of aplan__greedy_plan: 24 bytes per buffer (8 in compact builds). */
aplan_status aplan__greedy_scratch_size(const aplan_strategy *self, const aplan_problem *p, size_t *bytes);
/* Places the online buffers largest first; equal sizes by rising index, or with last_added_first by falling index. */
aplan_status aplan__greedy_plan(const aplan_problem *p, bool last_added_first, void *scratch, size_t scratch_size,
                                uint64_t *offsets, aplan_report *report);

#endif
