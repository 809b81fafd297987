/* The default third-party hook: no extra strategies. See fuzz_common.h. */
#include "fuzz_common.h"

const aplan_strategy *const *aplan_fuzz_extra_strategies(size_t *count) {
    *count = 0;
    return NULL;
}
