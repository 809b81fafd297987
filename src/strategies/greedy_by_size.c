/*
 * greedy_by_size: largest first, lowest offset. The algorithm of TFLM's GreedyMemoryPlanner and of TFLite's
 * "greedy by size" arena planner, without their quadratic parts.
 *
 * Algorithm:
 *   1. Fixed buffers keep their offsets and count as placed. Buffers that occupy no memory (size 0 or never live)
 *      go to offset 0.
 *   2. Sort the other buffers by size, largest first; among equal sizes by the tie order (input order here;
 *      greedy_by_size_tflm uses TFLM's).
 *   3. For each in that order, take the lowest offset that is a multiple of its alignment and misses every placed
 *      buffer whose lifetime intersects its own (a gap between them, or above the highest).
 * The result is defined by that rule alone (the lowest such offset is unique), so any way of finding it gives the
 * same offsets; tests/test_property.c keeps the first, plain implementation as the reference.
 *
 * It is the greedy engine's rule APLAN__GAP_LOWEST over the size order (greedy.c says how the conflicting buffers and
 * the gap are found). Complexity: O(n + P log n) for P conflicting pairs, O(n) when all buffers are live at once,
 * where TFLM's planner takes O(n^2) whatever the lifetimes. Worst shape: many buffers live together but not all at
 * one step (dense training traces: iopddl_S_1 has 4.3e7 conflicting pairs for 28,526 buffers).
 * Scratch: about 20.3 bytes per buffer, 116.9 from 8,192 buffers, 68.3 above 65,536 (the engine's spans and dense list:
 * greedy.c); 8 in compact builds,
 * which walk one list in O(n^2) as TFLM does.
 * Guarantee: a valid plan; deterministic. No approximation ratio: it can miss the bound by a third on hard packings.
 */
#include "aplan/strategies.h"
#include "strategies/greedy.h"

static const aplan__greedy_rule rule = APLAN__BY_SIZE_RULE;

APLAN__GREEDY_STRATEGY(greedy_by_size, rule,
                       "largest first at the lowest free offset; equal sizes in input order")
