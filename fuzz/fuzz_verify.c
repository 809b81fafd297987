/*
 * fuzz_verify: the verifier against the independent O(n^2) oracle (oracle.c), on plans that are valid (a strategy's),
 * slightly corrupted (one offset moved, one alignment broken, one size grown) or random, with the true arena size or
 * a wrong one. Both of the verifier's paths must agree with the oracle on the verdict; per-buffer rules must name the
 * same buffer; an overlap must name a pair the oracle confirms, classed as fixed or not correctly; and it never
 * crashes or reads outside its inputs.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "graph_gen.h"
#include "oracle.h"

static void check_overlap(const aplan_problem *p, const uint64_t *off, const aplan_report *r, const char *path) {
    const size_t a = r->buffer_a, b = r->buffer_b;
    FZ_CHECK(p, a < b && b < p->count, "%s: overlap names %zu and %zu", path, a, b);
    FZ_CHECK(p, oracle_pair_forbidden(p, off, a, b), "%s: named pair %zu/%zu does not overlap", path, a, b);
    const bool both_fixed = p->buffers[a].offset != APLAN_NO_OFFSET && p->buffers[b].offset != APLAN_NO_OFFSET;
    FZ_CHECK(p, (r->rule == APLAN_E_FIXED_OVERLAP) == both_fixed, "%s: overlap class wrong", path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static gg_problem g;
    static uint64_t off[GG_MAX_BUFFERS];
    gg_producer prod;
    gg_producer_init(&prod, data, size);
    const unsigned mode = (unsigned)gg_param(&prod, 7);
    if (gg_param(&prod, 1)) gg_graph(&prod, &g); else gg_direct(&prod, &g);
    aplan_problem *p = &g.problem;
    const aplan_status valid = aplan_problem_validate(p, NULL);

    /* Offsets: a strategy's plan (then maybe corrupted), or random ones. */
    aplan_result r;
    const aplan_strategy *ref = fz_reference_strategy();
    bool planned = ref != NULL && valid == APLAN_OK && mode < 6 && fz_plan(ref, p, off, &r) == APLAN_OK;
    if (!planned) {
        for (size_t i = 0; i < p->count; i++) {
            switch (gg_take(&prod, 3)) {
            case 0: off[i] = APLAN_NO_OFFSET; break;
            case 1: off[i] = gg_take(&prod, UINT64_MAX); break;
            default: off[i] = gg_take(&prod, 4095) * (p->buffers[i].alignment ? p->buffers[i].alignment : 1);
            }
            if (p->buffers[i].offset != APLAN_NO_OFFSET && gg_take(&prod, 3) != 0) off[i] = p->buffers[i].offset;
        }
    } else if (p->count > 0 && mode >= 3) {
        const size_t victim = (size_t)gg_take(&prod, p->count - 1);
        switch (mode) {
        case 3: off[victim] = gg_take(&prod, r.arena_size); break;       /* one offset moved */
        case 4: off[victim] += 1u << gg_take(&prod, 6); break;           /* alignment broken (usually) */
        default: g.buffers[victim].size += 1 + gg_take(&prod, 4095); break; /* one size grown */
        }
    }
    uint64_t arena = 0;
    bool wrap = false;
    for (size_t i = 0; i < p->count; i++) {
        if (off[i] == APLAN_NO_OFFSET) continue;
        const uint64_t s = g.buffers[i].size; /* raw: rounding is applied by both sides */
        if (s > UINT64_MAX - off[i]) wrap = true; else if (off[i] + s > arena) arena = off[i] + s;
    }
    if (wrap || gg_param(&prod, 7) == 0) arena = gg_take(&prod, UINT64_MAX);
    if (p->flags & APLAN_ROUND_SIZES) arena = gg_param(&prod, 1) ? arena : arena + 1;

    const aplan_status v2 = aplan_problem_validate(p, NULL); /* a grown size may have made it invalid */
    size_t need = 0;
    void *scratch = NULL;
    if (aplan_verify_scratch_size(p, &need) == APLAN_OK && need != 0) scratch = malloc(need);
    aplan_report fast, slow;
    const aplan_status sf = aplan_verify(p, off, arena, scratch, need, &fast);
    const aplan_status ss = aplan_verify(p, off, arena, NULL, 0, &slow);
    free(scratch);
    if (v2 != APLAN_OK) {
        FZ_CHECK(p, sf == v2 && ss == v2, "invalid problem: %d, verifier %d / %d", (int)v2, (int)sf, (int)ss);
        return 0;
    }
    size_t buffer, aliased;
    const aplan_status want = oracle_verify(p, off, arena, &buffer, &aliased);
    FZ_CHECK(p, (sf == APLAN_OK) == (want == APLAN_OK) && (ss == APLAN_OK) == (want == APLAN_OK),
             "verdicts differ: oracle %d, sweep %d, pairwise %d", (int)want, (int)sf, (int)ss);
    if (want == APLAN_E_OVERLAP) {
        check_overlap(p, off, &fast, "sweep");
        check_overlap(p, off, &slow, "pairwise");
        return 0;
    }
    FZ_CHECK(p, sf == want && ss == want, "rule differs: oracle %d, sweep %d, pairwise %d", (int)want, (int)sf,
             (int)ss);
    FZ_CHECK(p, fast.buffer_a == buffer, "rule %d: oracle names buffer %zu, verifier %zu", (int)want, buffer,
             fast.buffer_a);
    FZ_CHECK(p, want != APLAN_OK || fast.aliased_pairs == aliased, "%zu aliased pairs, oracle %zu",
             fast.aliased_pairs, aliased);
    FZ_CHECK(p, memcmp(&fast, &slow, sizeof fast) == 0, "the two paths report differently");
    return 0;
}
