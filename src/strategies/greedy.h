/* The greedy-by-size engine, shared by greedy_by_size.c and its TFLM-order variant. Internal. */
#ifndef APLAN_STRATEGIES_GREEDY_H
#define APLAN_STRATEGIES_GREEDY_H

#include "core/internal.h"

/* Scratch need of aplan__greedy_plan: 16 bytes per buffer. */
aplan_status aplan__greedy_scratch_size(const aplan_strategy *self, const aplan_problem *p, size_t *bytes);
/* Places the online buffers in the order `less` gives (a total order over buffer indices, ctx = the problem). */
aplan_status aplan__greedy_plan(const aplan_problem *p, aplan__less_fn less, void *scratch, size_t scratch_size,
                                uint64_t *offsets, aplan_report *report);

#endif
