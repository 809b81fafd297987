/* The API in one page: plan a small network with every built-in strategy and print the arena beside the bound.
 * Five activations of a conv net with a skip connection; sizes in bytes, lifetimes [lower, upper) in op steps. */
#include <stdio.h>
#include <stdlib.h>

#include <aplan/aplan.h>

int main(void) {
    const aplan_buffer buffers[] = {
        /* size   lower upper alignment offset */
        {12288, 0, 2, 0, APLAN_NO_OFFSET}, /* input            */
        {32768, 1, 3, 0, APLAN_NO_OFFSET}, /* conv1 out        */
        {16384, 1, 5, 0, APLAN_NO_OFFSET}, /* skip branch      */
        {32768, 2, 4, 0, APLAN_NO_OFFSET}, /* conv2 out        */
        {16384, 4, 6, 0, APLAN_NO_OFFSET}, /* add(skip, conv2) */
    };
    const size_t n = sizeof buffers / sizeof buffers[0];
    aplan_problem problem;
    aplan_problem_init(&problem, buffers, n);
    problem.alignment = 16;

    printf("%-20s %10s %10s\n", "strategy", "arena", "bound");
    for (size_t k = 0; k < aplan_strategy_count(); k++) {
        const aplan_strategy *s = aplan_strategy_at(k);
        size_t need;
        if (aplan_plan_scratch_size(s, &problem, &need) != APLAN_OK) return 1;
        void *scratch = malloc(need + APLAN_SCRATCH_ALIGN); /* malloc's alignment covers APLAN_SCRATCH_ALIGN */
        uint64_t offsets[sizeof buffers / sizeof buffers[0]];
        aplan_result r;
        aplan_status st = aplan_plan(s, &problem, scratch, need, offsets, &r);
        free(scratch);
        if (st != APLAN_OK) {
            char why[128];
            aplan_report_format(&r.report, why, sizeof why);
            printf("%-20s %s (%s)\n", s->name, aplan_status_str(st), why);
            continue;
        }
        printf("%-20s %10llu %10llu%s\n", s->name, (unsigned long long)r.arena_size,
               (unsigned long long)r.lower_bound, r.arena_size == r.lower_bound ? "  optimal" : "");
    }
    return 0;
}
