/*
 * `embed` as the host layer runs it for either front-end: the model loaded with its kernels' scratch, TFLM's own
 * arena before, a planning session (or the caller's plan), the plan to embed, the refusal when the embedded arena
 * would be larger, and the model written with its offline plan into memory. Nothing is printed: failures come back as
 * aplan_host_error (the CLI's exit code and message), warnings and figures as the embedding's values.
 */
#include <stdlib.h>
#include <string.h>

#include "host.h"

int aplan_host_prepare(aplan_host_session *s, const char *list, aplan_host_error *err) {
    aplan_host_progress_say(s, true, "checking the problem");
    int rc = aplan_host_check_problem(s, err);
    if (rc == APLAN_HOST_OK) rc = aplan_host_check_fixed(s, err);
    aplan_host_progress_say(s, true, "computing the lower bound");
    if (rc == APLAN_HOST_OK) rc = aplan_host_compute_bound(s, err);
    if (rc == APLAN_HOST_OK) rc = aplan_host_select_strategies(list, s, err);
    return rc;
}

int aplan_host_no_plan(const aplan_host_session *s, const aplan_host_run *smallest, aplan_host_error *err) {
    const aplan_host_input *in = s->input;
    const aplan_host_run *proof, *ran_out;
    aplan_host_capacity_verdicts(s, &proof, &ran_out);
    char than[200]; /* the capacity, with its unit; a model's: what the whole arena's leaves the planned section */
    if (s->settings.whole_capacity != APLAN_UNLIMITED)
        snprintf(than, sizeof than, "the %llu bytes that a capacity of %llu bytes leaves the planned section after "
                                    "TFLM's persistent data",
                 (unsigned long long)s->settings.capacity, (unsigned long long)s->settings.whole_capacity);
    else
        snprintf(than, sizeof than, "the capacity of %llu byte%s", (unsigned long long)s->settings.capacity,
                 aplan_host_s(s->settings.capacity));
    if (s->bound > s->settings.capacity)
        return aplan_host_error_set(err, APLAN_HOST_NO_FIT,
                                    "%s: no plan can fit: the lower bound is %llu byte%s, %llu more than %s", in->name,
                                    (unsigned long long)s->bound, aplan_host_s(s->bound),
                                    (unsigned long long)(s->bound - s->settings.capacity), than);
    if (smallest != NULL) {
        const aplan_host_run *r = smallest;
        unsigned long long capacity = (unsigned long long)s->settings.capacity;
        char why[160];
        if (proof != NULL) {
            snprintf(why, sizeof why, "proven: no plan fits %llu byte%s (%s searched %llu node%s)", capacity,
                     aplan_host_s(capacity), proof->strategy->name, (unsigned long long)proof->result.nodes,
                     aplan_host_s(proof->result.nodes));
        } else if (ran_out != NULL) {
            const char *how = ran_out->out_of_time ? "in the time limit" : "by sliding a group too large to search";
            snprintf(why, sizeof why, "no plan within %llu byte%s found %s (%s, best: %llu byte%s)", capacity,
                     aplan_host_s(capacity), how, ran_out->strategy->name,
                     (unsigned long long)ran_out->result.arena_size, aplan_host_s(ran_out->result.arena_size));
        } else {
            snprintf(why, sizeof why, "nothing fits the capacity of %llu byte%s", capacity, aplan_host_s(capacity));
        }
        return aplan_host_error_set(err, APLAN_HOST_NO_FIT,
                                    "%s: %s: the smallest plan (%s) needs %llu byte%s, %llu more", in->name, why,
                                    r->strategy->name, (unsigned long long)r->result.arena_size,
                                    aplan_host_s(r->result.arena_size),
                                    (unsigned long long)(r->result.arena_size - s->settings.capacity));
    }
    /* A strategy that ran out of memory says nothing of the input: the run is an internal failure, not bad input. */
    bool out_of_memory = false;
    for (size_t i = 0; i < s->run_count; i++)
        out_of_memory = out_of_memory || s->runs[i].status == APLAN_E_OUT_OF_MEMORY;
    (void)aplan_host_error_set(err, out_of_memory ? APLAN_HOST_INTERNAL : APLAN_HOST_BAD_INPUT,
                               "%s: no strategy could plan the input%s", in->name,
                               out_of_memory ? ": out of memory" : "");
    for (size_t i = 0; i < s->run_count; i++)
        aplan_host_error_append(err, "\n  %s: %s", s->runs[i].strategy->name, s->runs[i].error);
    return err->kind;
}

/* Of the runs that planned, the one whose tensor offsets give the smallest section once TFLM has placed the kernels'
 * scratch around them (ties: the smaller plan, then the first); s->tflm_embed and _adapter are then its (the whole
 * arena is worked out for that one run only). NULL when none planned. */
static const aplan_host_run *best_to_embed(aplan_host_session *s) {
    const aplan_host_run *best = NULL;
    uint64_t best_section = 0;
    for (size_t i = 0; i < s->run_count; i++) {
        const aplan_host_run *r = &s->runs[i];
        if (!r->planned || r->status != APLAN_OK) continue;
        const uint64_t section = aplan_host_tflm_embedded_section(s, r->offsets);
        if (section == 0) continue;
        if (best == NULL || section < best_section ||
            (section == best_section && r->result.arena_size < best->result.arena_size)) {
            best = r;
            best_section = section;
        }
    }
    /* Without greedy_by_size_tflm in the build TFLM's section cannot be worked out: the best plan, unjudged. */
    if (best == NULL && s->best != SIZE_MAX) best = &s->runs[s->best];
    if (best != NULL) aplan_host_compute_tflm_figures(s, best);
    return best;
}

/* The caller's plan (offsets, in->count entries) as e->given, a run of strategy `name` (NULL or unknown: offline,
 * which searches nothing). APLAN_HOST_OK, or INTERNAL out of memory. */
static int given_run(aplan_host_embedding *e, const uint64_t *offsets, const char *name, aplan_host_error *err) {
    const size_t n = e->in.count;
    aplan_host_run *r = &e->given;
    memset(r, 0, sizeof *r);
    if (name == NULL || aplan_strategy_find(name, &r->strategy) != APLAN_OK)
        (void)aplan_strategy_find("offline", &r->strategy);
    if (r->strategy == NULL) return aplan_host_error_set(err, APLAN_HOST_USAGE, "no strategy '%s'", name);
    r->searched = aplan_strategy_searches(r->strategy);
    r->offsets = malloc((n > 0 ? n : 1u) * sizeof *r->offsets);
    if (r->offsets == NULL) return aplan_host_error_set(err, APLAN_HOST_INTERNAL, "out of memory");
    uint64_t arena = 0;
    for (size_t i = 0; i < n; i++) {
        r->offsets[i] = offsets[i];
        const uint64_t end = offsets[i] + e->in.buffers[i].size;
        if (e->in.buffers[i].size > 0 && end > arena) arena = end;
    }
    r->status = APLAN_OK;
    r->planned = r->verified = true;
    r->result.arena_size = arena;
    r->result.outcome = APLAN_OUTCOME_PLAN;
    return APLAN_HOST_OK;
}

/* Write run's plan into a copy of the model (e->model, e->size, e->info): one call where the front block fits the
 * guess (it holds 4 bytes per tensor, buffer and metadata entry and a few hundred more, so 64 KiB beyond the plan's
 * words covers models with up to 16,000 buffers); else a second one at the size the first said. Each call reads,
 * verifies and reads back the whole model. */
static int write_model(aplan_host_embedding *e, size_t size, aplan_host_error *err) {
    const aplan_host_input *in = &e->in;
    const aplan_host_run *run = e->run;
    aplan_format_error fe;
    const size_t guess = size <= SIZE_MAX - 65536u - 4u * in->tensor_count ? size + 65536u + 4u * in->tensor_count : 0;
    void *out = guess != 0 ? malloc(guess) : NULL;
    size_t need = 0; /* set by a call that ran out of room */
    aplan_status st =
        out != NULL ? aplan_host_embed(in, run->offsets, out, guess, &need, &e->info, &fe) : APLAN_E_OUTPUT_TOO_SMALL;
    if (st == APLAN_E_OUTPUT_TOO_SMALL) {
        free(out);
        out = NULL;
        st = need != 0 ? APLAN_OK : aplan_host_embed(in, run->offsets, NULL, 0, &need, &e->info, &fe); /* ask */
        if (st == APLAN_OK && (out = malloc(need)) == NULL)
            return aplan_host_error_set(err, APLAN_HOST_INTERNAL, "out of memory");
        if (st == APLAN_OK) st = aplan_host_embed(in, run->offsets, out, need, &need, &e->info, &fe);
    }
    if (st != APLAN_OK) {
        free(out);
        const char *why = fe.message[0] != '\0' ? fe.message : aplan_status_str(st);
        if (st >= APLAN_E_FORMAT_TRUNCATED)
            return aplan_host_error_set(err, APLAN_HOST_BAD_INPUT, "%s: cannot embed a plan: byte %llu: %s", in->name,
                                        (unsigned long long)fe.byte_offset, why);
        /* a plan TFLM cannot use (the verifier's rules at TFLM's alignment): --align below 16, --no-round */
        const int kind = st == APLAN_E_CAPACITY_EXCEEDED ? APLAN_HOST_NO_FIT
                         : st == APLAN_E_MISALIGNED_OFFSET || st == APLAN_E_OVERLAP || st == APLAN_E_SIZE_OVERFLOW
                             ? APLAN_HOST_VERIFY
                             : APLAN_HOST_INTERNAL;
        return aplan_host_error_set(err, kind, "%s: cannot embed the plan of %s: %s", in->name, run->strategy->name,
                                    why);
    }
    e->model = out;
    e->size = need;
    return APLAN_HOST_OK;
}

/* The caller's fields of e (progress, interrupt) from hooks. */
static void keep_hooks(aplan_host_embedding *e, const aplan_host_embedding *hooks) {
    e->progress = hooks->progress;
    e->progress_state = hooks->progress_state;
    e->interrupt = hooks->interrupt;
    e->interrupt_state = hooks->interrupt_state;
}

/* The session's hooks from e's. */
static void session_hooks(aplan_host_session *s, const aplan_host_embedding *e) {
    s->progress = e->progress;
    s->progress_state = e->progress_state;
    s->interrupt = e->interrupt;
    s->interrupt_state = e->interrupt_state;
}

int aplan_host_embed_model(const char *name, const char *data, size_t size, const aplan_host_options *o,
                           unsigned flags, const uint64_t *offsets, size_t offset_count, const char *strategy,
                           aplan_host_embedding *e, aplan_host_error *err) {
    const aplan_host_embedding hooks = *e;
    memset(e, 0, sizeof *e);
    keep_hooks(e, &hooks);
    char message[512];
    if (size == 0)
        return aplan_host_error_set(err, APLAN_HOST_BAD_INPUT, "%s: empty file (0 bytes): not a .tflite model", name);
    if (!aplan_host_is_tflite(data, size))
        return aplan_host_error_set(err, APLAN_HOST_BAD_INPUT,
                                    "%s: not a .tflite model (no \"TFL3\" at bytes 4..7): embed writes a TFLM offline "
                                    "plan into one",
                                    name);
    int rc = aplan_host_load_bytes(name, data, size, &e->in, message, sizeof message);
    if (rc != APLAN_HOST_OK) return aplan_host_error_set(err, rc, "%s", message);
    e->loaded = true;
    aplan_tflm_config c;
    rc = aplan_host_tflm_config(o, &c, message, sizeof message);
    if (rc == APLAN_HOST_OK) rc = aplan_host_add_tflm_scratch(&e->in, &c, message, sizeof message, NULL);
    if (rc != APLAN_HOST_OK) {
        (void)aplan_host_error_set(err, rc, "%s", message);
        aplan_host_embedding_free(e);
        return rc;
    }
    aplan_host_session *s = &e->s;
    aplan_host_session_init(s, o, &e->in);
    session_hooks(s, e);
    e->started = true;
    aplan_host_whole_arena_capacity(s);
    aplan_host_compute_tflm_arena(s); /* TFLM's own planner on the model as it is */
    const uint64_t before = s->tflm_arena;
    const aplan_host_tflm_figures own = s->tflm_own;
    if ((flags & APLAN_HOST_EMBED_REPLAN) != 0) {
        for (size_t i = 0; i < e->in.count; i++) e->in.buffers[i].offset = APLAN_NO_OFFSET;
        e->in.has_fixed = false;
        aplan_host_session_free(s);
        aplan_host_session_init(s, o, &e->in); /* settings again: no fixed offsets, so no aliasing either */
        session_hooks(s, e);
        aplan_host_whole_arena_capacity(s);
        s->tflm_own = own;
    }
    const double t0 = aplan_host_clock_ms(); /* the time limit's start: the input is read */
    if (offsets != NULL) { /* the caller's plan: checked as a session's input, then by the embedding's verifier */
        rc = aplan_host_check_problem(s, err);
        if (rc == APLAN_HOST_OK) rc = aplan_host_check_fixed(s, err);
        if (rc == APLAN_HOST_OK) rc = aplan_host_compute_bound(s, err);
        if (rc == APLAN_HOST_OK && offset_count != e->in.count)
            rc = aplan_host_error_set(err, APLAN_HOST_USAGE,
                                      "%s: the plan has %zu offset%s, the model %zu buffer%s (its tensors, then its "
                                      "kernels' scratch): not a plan of this model",
                                      e->in.name, offset_count, aplan_host_s(offset_count), e->in.count,
                                      aplan_host_s(e->in.count));
        if (rc == APLAN_HOST_OK) rc = given_run(e, offsets, strategy, err);
        if (rc == APLAN_HOST_OK) {
            s->tflm_arena = before;
            e->run = &e->given;
            aplan_host_compute_tflm_figures(s, e->run);
        }
    } else {
        rc = aplan_host_prepare(s, o->strategies != NULL ? o->strategies : "auto", err);
        const aplan_host_run *smallest = rc == APLAN_HOST_OK ? aplan_host_run_strategies(s, t0, false) : NULL;
        if (rc == APLAN_HOST_OK && s->interrupted)
            rc = aplan_host_error_set(err, APLAN_HOST_INTERNAL, "%s: interrupted", e->in.name);
        if (rc == APLAN_HOST_OK && (smallest == NULL || smallest->status != APLAN_OK))
            rc = aplan_host_no_plan(s, smallest, err);
        if (rc == APLAN_HOST_OK) {
            s->tflm_arena = before; /* "before" is the model as given to TFLM */
            e->run = best_to_embed(s);
            if (e->run == NULL) rc = aplan_host_error_set(err, APLAN_HOST_INTERNAL, "%s: no plan to embed", e->in.name);
        }
    }
    if (rc == APLAN_HOST_OK && s->tflm_own.known && s->tflm_embed.known &&
        (s->tflm_embed.info.used > s->tflm_own.info.used || s->tflm_embed.info.smallest > s->tflm_own.info.smallest)) {
        const aplan_tflm_arena_info *a = &s->tflm_own.info, *z = &s->tflm_embed.info;
        if ((flags & APLAN_HOST_EMBED_FORCE) == 0)
            rc = aplan_host_error_set(err, APLAN_HOST_NO_FIT,
                                      "%s: not written: with this plan embedded TFLM's arena would be %llu bytes "
                                      "(smallest %llu), more than the %llu (smallest %llu) it needs with the model as "
                                      "it is; try other strategies (-s), plan at run time with the adapter, or use "
                                      "--force to write it anyway",
                                      e->in.name, (unsigned long long)z->used, (unsigned long long)z->smallest,
                                      (unsigned long long)a->used, (unsigned long long)a->smallest);
        else
            e->grows = true;
    }
    if (rc == APLAN_HOST_OK) rc = write_model(e, size, err);
    if (rc != APLAN_HOST_OK) aplan_host_embedding_free(e);
    return rc;
}

void aplan_host_write_embed_result(FILE *out, const aplan_host_embedding *e, const char *written) {
    const aplan_host_session *s = &e->s;
    const aplan_host_run *run = e->run;
    const uint64_t joint = run->result.arena_size;
    fprintf(out, "%s: planned section ", written);
    if (s->tflm_arena != 0) fprintf(out, "%llu -> ", (unsigned long long)s->tflm_arena);
    fprintf(out, "%llu byte%s (%s%s; TFLM places the kernels' scratch around its tensors",
            (unsigned long long)s->tflm_embed_section, aplan_host_s(s->tflm_embed_section),
            s->tflm_arena != 0 ? "TFLM's greedy planner -> " : "", run->strategy->name);
    if (joint != s->tflm_embed_section)
        fprintf(out, "; its plan of tensors and scratch together: %llu", (unsigned long long)joint);
    fprintf(out, "), lower bound %llu byte%s%s; %zu of %zu tensor%s planned offline\n", (unsigned long long)s->bound,
            aplan_host_s(s->bound), aplan_host_best_proven(s) && joint == s->tflm_embed_section ? ", optimal" : "",
            e->info.planned_count, e->info.tensor_count, aplan_host_s(e->info.tensor_count));
    if (s->tflm_own.known && s->tflm_embed.known) {
        const aplan_tflm_arena_info *a = &s->tflm_own.info, *z = &s->tflm_embed.info;
        fprintf(out,
                "TFLM arena (tflite-micro %s, %s, %u-bit ABI): %llu -> %llu byte%s used, smallest arena "
                "%llu -> %llu%s\n",
                APLAN_TFLM_COMMIT, aplan_host_tflm_kernels_text(&e->in.tflm), e->in.tflm.abi,
                (unsigned long long)a->used, (unsigned long long)z->used, aplan_host_s(z->used),
                (unsigned long long)a->smallest, (unsigned long long)z->smallest,
                z->unknown_ops > 0 ? " (lower bounds)" : "");
        aplan_host_write_tflm_unknown(out, s, z);
    }
}

void aplan_host_embedding_free(aplan_host_embedding *e) {
    if (e->started) aplan_host_session_free(&e->s);
    if (e->loaded) aplan_host_input_free(&e->in);
    free(e->given.offsets);
    free(e->model);
    const aplan_host_embedding hooks = *e;
    memset(e, 0, sizeof *e);
    keep_hooks(e, &hooks);
}
