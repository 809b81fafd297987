/*
 * TFLM's whole arena for a model input (<aplan/tflm.h>): the kernels' scratch requests added to the problem as the
 * buffers TFLM plans beside the tensors, the three ways a plan reaches TFLM (its own planner, the plan embedded as
 * the offline plan, the adapter) with the whole arena and the smallest arena of each, the report lines that say
 * them, and `aplan arena`, the breakdown per part and per operator. Host-only: it allocates and prints.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aplan/strategies.h"
#include "host.h"

/* The adapter's records (integrations/tflm/aplan_micro_planner.h, kRecordBytes): an aplan_buffer32 and an offset per
 * buffer, held in the scratch TFLM's Init gives it from AddBuffer on. */
#define ADAPTER_RECORD_BYTES (sizeof(aplan_buffer32) + sizeof(uint64_t))

/* The least Init scratch the adapter (its default, auto's candidates) plans with: its records and the smallest
 * aplan_plan_scratch_size of a candidate, each in the less of its fast and its APLAN_LOW_MEMORY form (the adapter
 * takes the low-memory form when the fast one does not fit; the plan is the same), which it then plans with alone
 * (on the shared models every candidate reaches the same section; where one does not, the figure assumes the best
 * plan still fits). 0 when unknown. */
static uint64_t adapter_scratch(const aplan_host_session *s) {
    aplan_problem lean = s->problem;
    lean.flags |= APLAN_LOW_MEMORY;
    uint64_t least = UINT64_MAX;
    for (size_t k = 0; k < aplan_strategy_auto_count(); k++) {
        size_t need = 0;
        if (aplan_plan_scratch_size(aplan_strategy_auto_at(k), &s->problem, &need) == APLAN_OK && need < least)
            least = need;
        if (aplan_plan_scratch_size(aplan_strategy_auto_at(k), &lean, &need) == APLAN_OK && need < least)
            least = need;
    }
    return least == UINT64_MAX ? 0 : ADAPTER_RECORD_BYTES * (uint64_t)s->input->count + least;
}

int aplan_host_tflm_config(const aplan_host_options *o, aplan_tflm_config *c, char *message, size_t message_size) {
    aplan_tflm_config_init(c);
    const aplan_host_target *t = o->target != NULL ? aplan_host_target_find(o->target) : NULL;
    c->abi = (o->given & APLAN_HOST_SET_ABI) ? o->abi : t != NULL ? t->abi : APLAN_TFLM_ABI_32;
    c->kernels = (o->given & APLAN_HOST_SET_KERNELS) ? o->kernels : APLAN_TFLM_KERNELS_REFERENCE;
    if (c->kernels != APLAN_TFLM_KERNELS_CMSIS_NN || t == NULL) return APLAN_HOST_OK;
    if (t->cmsis_isa < 0) {
        snprintf(message, message_size, "--kernels cmsis-nn: not modelled for target %s (%s)", t->name, t->why_cmsis);
        return APLAN_HOST_USAGE;
    }
    c->isa = (uint32_t)t->cmsis_isa;
    return APLAN_HOST_OK;
}

const char *aplan_host_tflm_kernels_text(const aplan_tflm_config *c) {
    if (c->kernels != APLAN_TFLM_KERNELS_CMSIS_NN) return "reference kernels";
    return c->isa == APLAN_TFLM_ISA_DSP ? "CMSIS-NN kernels (DSP)" : "CMSIS-NN kernels (portable C)";
}

static int tflm_error(const aplan_host_input *in, const aplan_format_error *e, aplan_status s, char *message,
                      size_t message_size) {
    snprintf(message, message_size, "%s: byte %llu: %s", in->name, (unsigned long long)e->byte_offset,
             e->message[0] != '\0' ? e->message : aplan_status_str(s));
    return s == APLAN_E_OUT_OF_MEMORY ? APLAN_HOST_INTERNAL : APLAN_HOST_BAD_INPUT;
}

/* The model's steps (aplan_tflite_steps) into *steps (the caller frees), *count of them. */
static aplan_status model_steps(const aplan_host_input *in, aplan_tflite_step **steps, size_t *count,
                                aplan_format_error *e) {
    *steps = NULL;
    aplan_tflite_info info;
    aplan_status s = aplan_tflite_query(in->model, in->model_size, &info, e);
    if (s != APLAN_OK) return s;
    void *scratch = info.scratch_size > 0 ? malloc(info.scratch_size) : NULL;
    if (info.scratch_size > 0 && scratch == NULL) return APLAN_E_OUT_OF_MEMORY;
    s = aplan_tflite_steps(in->model, in->model_size, scratch, info.scratch_size, NULL, 0, count, e);
    if (s == APLAN_OK) {
        *steps = malloc((*count + 1u) * sizeof **steps);
        s = *steps == NULL ? APLAN_E_OUT_OF_MEMORY
                           : aplan_tflite_steps(in->model, in->model_size, scratch, info.scratch_size, *steps,
                                                *count, count, e);
    }
    free(scratch);
    if (s != APLAN_OK) {
        free(*steps);
        *steps = NULL;
    }
    return s;
}

int aplan_host_add_tflm_scratch(aplan_host_input *in, const aplan_tflm_config *config, char *message,
                                size_t message_size, aplan_status *status) {
    if (status != NULL) *status = APLAN_OK;
    if (in->kind != APLAN_HOST_INPUT_TFLITE || in->model == NULL) return APLAN_HOST_OK;
    if (in->has_tflm && memcmp(&in->tflm, config, sizeof *config) == 0) return APLAN_HOST_OK;
    in->count = in->tensor_count; /* requests of another build go first */
    free(in->scratch);
    free(in->scratch_id_text);
    in->scratch = NULL;
    in->scratch_id_text = NULL;
    in->has_tflm = false;
    aplan_tflm_config c = *config;
    aplan_format_error e;
    memset(&e, 0, sizeof e);
    size_t scratch_size = 0, requests = 0, count = 0;
    aplan_tflite_step *steps = NULL;
    void *scratch = NULL;
    aplan_status s = aplan_tflm_query(in->model, in->model_size, &c, &scratch_size, &requests, &e);
    if (s == APLAN_OK) s = model_steps(in, &steps, &count, &e);
    if (s == APLAN_OK) {
        scratch = malloc(scratch_size + 1u);
        in->scratch = malloc((requests + 1u) * sizeof *in->scratch);
        if (scratch == NULL || in->scratch == NULL) s = APLAN_E_OUT_OF_MEMORY;
    }
    if (s == APLAN_OK)
        s = aplan_tflm_scratch_requests(in->model, in->model_size, &c, steps, count, scratch, scratch_size,
                                        in->scratch, requests, &requests, &e);
    free(steps);
    free(scratch);
    if (status != NULL) *status = s;
    if (s != APLAN_OK) return tflm_error(in, &e, s, message, message_size);
    /* Grow the per-buffer arrays: the requests come after the tensors, in TFLM's order (its AddBuffer order). */
    size_t total = in->tensor_count + requests;
    aplan_buffer *buffers = realloc(in->buffers, (total + 1u) * sizeof *buffers);
    if (buffers != NULL) in->buffers = buffers;
    const char **ids = buffers != NULL ? realloc(in->ids, (total + 1u) * sizeof *ids) : NULL;
    if (ids != NULL) in->ids = ids;
    aplan_host_tensor *tensors =
        ids != NULL && in->tensors != NULL ? realloc(in->tensors, (total + 1u) * sizeof *tensors) : NULL;
    if (tensors != NULL) in->tensors = tensors;
    enum { ID_BYTES = 36 }; /* "s4294967295o4294967295r4294967295" and its NUL */
    in->scratch_id_text = malloc(ID_BYTES * requests + 1u);
    if (buffers == NULL || ids == NULL || (in->tensors != NULL && tensors == NULL) || in->scratch_id_text == NULL) {
        if (status != NULL) *status = APLAN_E_OUT_OF_MEMORY;
        snprintf(message, message_size, "out of memory");
        return APLAN_HOST_INTERNAL;
    }
    char *at = in->scratch_id_text;
    for (size_t k = 0; k < requests; k++) {
        const aplan_tflm_scratch *r = &in->scratch[k];
        size_t i = in->tensor_count + k;
        in->buffers[i] = r->buffer;
        in->ids[i] = at;
        at += (size_t)snprintf(at, ID_BYTES, "s%luo%lur%lu", (unsigned long)r->subgraph, (unsigned long)r->op,
                               (unsigned long)r->index) + 1u;
        if (in->tensors != NULL) memset(&in->tensors[i], 0, sizeof in->tensors[i]);
    }
    in->count = total;
    in->tflm = c;
    in->tflm_scratch_size = scratch_size;
    in->has_tflm = true;
    return APLAN_HOST_OK;
}

/* aplan_tflm_query's scratch size for c, a planner setting of in->tflm: known once the requests are (the size does
 * not depend on the planner), so that a command asking for several figures walks the model once for each. */
static aplan_status tflm_scratch_size(const aplan_host_input *in, const aplan_tflm_config *c, size_t *bytes,
                                      aplan_format_error *e) {
    size_t requests = 0;
    if (in->has_tflm && c->abi == in->tflm.abi && c->kernels == in->tflm.kernels && c->isa == in->tflm.isa) {
        *bytes = in->tflm_scratch_size;
        return APLAN_OK;
    }
    return aplan_tflm_query(in->model, in->model_size, c, bytes, &requests, e);
}

uint64_t aplan_host_tflm_embedded_section(const aplan_host_session *s, const uint64_t *offsets) {
    return aplan_host_tflm_embedded_plan(s, offsets, NULL);
}

uint64_t aplan_host_tflm_embedded_plan(const aplan_host_session *s, const uint64_t *offsets, uint64_t *placed) {
    const aplan_host_input *in = s->input;
    const aplan_strategy *greedy = NULL;
    if (aplan_strategy_find("greedy_by_size_tflm", &greedy) != APLAN_OK) return 0;
    aplan_buffer *b = malloc((in->count + 1u) * sizeof *b);
    uint64_t *out = placed != NULL ? placed : malloc((in->count + 1u) * sizeof *out);
    uint64_t section = 0;
    if (b != NULL && out != NULL) {
        memcpy(b, in->buffers, in->count * sizeof *b);
        for (size_t i = 0; i < in->tensor_count; i++) b[i].offset = offsets[i];
        aplan_problem p = s->problem;
        p.buffers = b;
        p.capacity = APLAN_UNLIMITED;
        p.flags |= APLAN_ALLOW_FIXED_ALIAS; /* an offline plan may alias; TFLM takes it as it is */
        size_t bytes = 0;
        void *scratch = NULL;
        aplan_result r;
        if (aplan_plan_scratch_size(greedy, &p, &bytes) == APLAN_OK && (scratch = malloc(bytes + 1u)) != NULL &&
            aplan_plan(greedy, &p, scratch, bytes, out, &r) == APLAN_OK)
            section = r.arena_size;
        free(scratch);
    }
    free(b);
    if (out != placed) free(out);
    return section;
}

/* "TFLM refuses this model: OP (op K of subgraph S) rejects ... in its Prepare (why), so AllocateTensors() fails
 * whatever the arena" for info's first refused operator, and how many more, into out. */
static void refusal_text(const aplan_host_input *in, const aplan_tflm_arena_info *info, char *out, size_t size) {
    aplan_tflite_operator_info op;
    aplan_host_name name = {NULL, 0, false};
    if (aplan_tflite_operator(in->model, in->model_size, info->first_refused_subgraph, info->first_refused_op, &op,
                              NULL) == APLAN_OK && op.name.data != NULL)
        name = aplan_host_name_text(op.name.data, op.name.size);
    const uint32_t why = APLAN_TFLM_REFUSAL_REASON(info->refusal);
    const char *a = aplan_tflite_type_name(APLAN_TFLM_REFUSAL_TYPE_A(info->refusal));
    const char *b = aplan_tflite_type_name(APLAN_TFLM_REFUSAL_TYPE_B(info->refusal));
    char what[160];
    if (why == APLAN_TFLM_REFUSED_WEIGHTS)
        snprintf(what, sizeof what, "input %s with weights %s (a hybrid model: TFLM pairs float32 with float32, int8 "
                                    "with int8 or int4, int16 with int8)", a != NULL ? a : "?", b != NULL ? b : "?");
    else
        snprintf(what, sizeof what, "tensor type %s (a type its kernel does not support)", a != NULL ? a : "?");
    char more[64] = "";
    if (info->refused_ops > 1)
        snprintf(more, sizeof more, "; %lu more operator%s refused", (unsigned long)(info->refused_ops - 1u),
                 aplan_host_s(info->refused_ops - 1u));
    snprintf(out, size, "TFLM refuses this model: %s (op %lu of subgraph %lu) rejects %s in its Prepare, so "
                        "AllocateTensors() fails whatever the arena%s",
             name.text != NULL ? name.text : "?", (unsigned long)info->first_refused_op,
             (unsigned long)info->first_refused_subgraph, what, more);
    free((char *)name.text);
}

/* What the tensors alone take when `strategy` plans them, without the kernels' scratch and without a capacity: the
 * "planned tensors" of a breakdown, to which the scratch adds the rest of the section (docs/tflm.md). NULL stands for
 * a search's plan, whose budget cannot be replayed: the smallest of the auto set's plans, what the adapter's default
 * makes of them. A failure (out of memory, a strategy that refuses the tensors) leaves that candidate out; 0 with
 * *known false when none planned. O(the strategies' cost on the tensors). */
static uint64_t tensors_alone(const aplan_host_session *s, const aplan_strategy *strategy, bool *known) {
    const aplan_host_input *in = s->input;
    aplan_problem p = s->problem;
    p.count = in->tensor_count;
    p.capacity = APLAN_UNLIMITED;
    uint64_t *offsets = malloc((p.count + 1u) * sizeof *offsets), best = UINT64_MAX;
    const size_t n = strategy != NULL ? 1u : aplan_strategy_auto_count();
    for (size_t k = 0; k < n && offsets != NULL; k++) {
        const aplan_strategy *st = strategy != NULL ? strategy : aplan_strategy_auto_at(k);
        size_t bytes = 0;
        void *scratch = NULL;
        aplan_result r;
        if (aplan_plan_scratch_size(st, &p, &bytes) == APLAN_OK && (scratch = malloc(bytes + 1u)) != NULL &&
            aplan_plan(st, &p, scratch, bytes, offsets, &r) == APLAN_OK && r.arena_size < best)
            best = r.arena_size;
        free(scratch);
    }
    free(offsets);
    *known = best != UINT64_MAX;
    return *known ? best : 0;
}

/* The model's recording for in->tflm (aplan_tflm_record), made on the first call and kept in in: every arena figure
 * a command gives replays it, so that the model is walked once however many it gives. APLAN_OK, or the recording's
 * failure (the same on every call) with e set. */
static aplan_status recording(aplan_host_input *in, aplan_format_error *e) {
    memset(e, 0, sizeof *e);
    if (in->tflm_recording == NULL && in->tflm_record_error.status == APLAN_OK) {
        aplan_format_error *r = &in->tflm_record_error;
        size_t bytes = 0;
        aplan_status st = tflm_scratch_size(in, &in->tflm, &bytes, r);
        void *scratch = st == APLAN_OK ? malloc(bytes + 1u) : NULL;
        if (st == APLAN_OK && scratch == NULL) {
            r->status = st = APLAN_E_OUT_OF_MEMORY;
            snprintf(r->message, sizeof r->message, "out of memory");
        }
        if (st == APLAN_OK) st = aplan_tflm_record(in->model, in->model_size, &in->tflm, scratch, bytes, r);
        if (st == APLAN_OK) in->tflm_recording = scratch;
        else free(scratch);
        r->status = st;
    }
    *e = in->tflm_record_error;
    return e->status;
}

/* figures()'s planner for a plan compiled into the firmware: a planner outside the arena that needs no scratch. */
#define PLANNER_COMPILED 3u

/* The whole arena of a section of `section` bytes with the planner where planner says (an aplan_tflm_planner, or
 * PLANNER_COMPILED); tensors is what the tensors
 * alone take with that way's planner (tensors_alone; tensors_known false: not known), costs (capacity entries, may
 * be NULL) gets the operators'. false when it cannot be computed. */
static bool figures(const aplan_host_session *s, uint64_t section, uint64_t tensors, bool tensors_known,
                    uint32_t planner, aplan_host_tflm_figures *f, aplan_tflm_op_cost *costs, size_t capacity) {
    aplan_host_input *in = s->input;
    memset(f, 0, sizeof *f);
    aplan_format_error e;
    aplan_status st = recording(in, &e);
    if (st == APLAN_OK)
        st = aplan_tflm_recorded_arena(in->tflm_recording,
                                       planner == PLANNER_COMPILED ? APLAN_TFLM_OTHER_OUTSIDE : planner,
                                       planner == APLAN_TFLM_OTHER_OUTSIDE ? adapter_scratch(s) : 0, in->tflite_ids,
                                       in->tensor_count, section, &f->info, costs, capacity, &e);
    f->planner = planner;
    f->tensors = tensors;
    f->tensors_known = tensors_known;
    if (st == APLAN_OK && f->info.refused_ops > 0) {
        /* A model TFLM refuses gets no figure: the refusal is what the report says instead. */
        refusal_text(in, &f->info, f->why, sizeof f->why);
        st = APLAN_E_FORMAT_UNSUPPORTED;
    } else if (st != APLAN_OK) {
        snprintf(f->why, sizeof f->why, "%s", e.message[0] != '\0' ? e.message : aplan_status_str(st));
    }
    f->known = st == APLAN_OK;
    f->status = st;
    return f->known;
}

void aplan_host_compute_tflm_arena(aplan_host_session *s) {
    const aplan_strategy *tflm = NULL;
    s->tflm_arena = 0;
    memset(&s->tflm_own, 0, sizeof s->tflm_own);
    if (aplan_strategy_find("greedy_by_size_tflm", &tflm) != APLAN_OK) {
        s->tflm_own.status = APLAN_E_UNKNOWN_STRATEGY;
        snprintf(s->tflm_own.why, sizeof s->tflm_own.why,
                 "TFLM's own planner is greedy_by_size_tflm, which this build leaves out");
        return;
    }
    aplan_host_run run;
    memset(&run, 0, sizeof run);
    run.strategy = tflm;
    run.deadline_ms = HUGE_VAL; /* TFLM's own plan, whole: a figure, not a candidate the time limit may cut */
    aplan_host_run_one(s, &run);
    if (run.planned) {
        s->tflm_arena = run.result.arena_size;
        if (s->input->kind == APLAN_HOST_INPUT_TFLITE && s->input->model != NULL) {
            bool known = false;
            const uint64_t tensors = tensors_alone(s, tflm, &known);
            (void)figures(s, run.result.arena_size, tensors, known, APLAN_TFLM_GREEDY_IN_ARENA, &s->tflm_own, NULL,
                          0);
        }
    } else {
        s->tflm_own.status = run.status;
        snprintf(s->tflm_own.why, sizeof s->tflm_own.why, "TFLM's own planner (greedy_by_size_tflm): %s", run.error);
    }
    free(run.offsets);
}

void aplan_host_compute_tflm_figures(aplan_host_session *s, const aplan_host_run *plan) {
    const aplan_host_input *in = s->input;
    memset(&s->tflm_embed, 0, sizeof s->tflm_embed);
    memset(&s->tflm_adapter, 0, sizeof s->tflm_adapter);
    memset(&s->tflm_compiled, 0, sizeof s->tflm_compiled);
    s->tflm_embed_section = 0;
    if (in->kind != APLAN_HOST_INPUT_TFLITE || in->model == NULL || plan == NULL || !plan->planned) return;
    /* A plan aplan embed would refuse (one TFLM cannot use, a model it cannot write) has no embedded figures: the
     * reason is kept for the report instead. */
    aplan_format_error e;
    size_t need = 0;
    if (aplan_host_embed(in, plan->offsets, NULL, 0, &need, NULL, &e) != APLAN_OK) {
        s->tflm_embed.status = APLAN_E_PLAN_REJECTED;
        snprintf(s->tflm_embed.why, sizeof s->tflm_embed.why, "aplan embed would refuse it: %s", e.message);
    } else {
        s->tflm_embed_section = aplan_host_tflm_embedded_section(s, plan->offsets);
    }
    /* The plan's strategy on the tensors alone, both ways: embedded, its tensors are where that strategy put them;
     * through the adapter, that strategy plans them on the device. */
    bool known = false;
    const uint64_t tensors = tensors_alone(s, plan->searched ? NULL : plan->strategy, &known);
    if (s->tflm_embed_section != 0)
        (void)figures(s, s->tflm_embed_section, tensors, known, APLAN_TFLM_GREEDY_IN_ARENA, &s->tflm_embed, NULL, 0);
    (void)figures(s, plan->result.arena_size, tensors, known, APLAN_TFLM_OTHER_OUTSIDE, &s->tflm_adapter, NULL, 0);
    (void)figures(s, plan->result.arena_size, tensors, known, PLANNER_COMPILED, &s->tflm_compiled, NULL, 0);
}

const aplan_host_tflm_figures *aplan_host_tflm_smallest(const aplan_host_session *s) {
    const aplan_host_tflm_figures *all[4] = {&s->tflm_own, &s->tflm_embed, &s->tflm_compiled, &s->tflm_adapter},
                                  *best = NULL;
    for (size_t k = 0; k < 4u; k++) {
        if (all[k]->known && (best == NULL || all[k]->info.smallest < best->info.smallest)) best = all[k];
    }
    return best;
}

const aplan_host_tflm_figures *aplan_host_tflm_setup(const aplan_host_session *s) {
    const uint64_t whole = s->settings.whole_capacity;
    const aplan_host_tflm_figures *own = &s->tflm_own;
    if (own->known && (whole == APLAN_UNLIMITED || own->info.smallest <= whole)) return own;
    /* The adapter plans on the device: a search's plan is not one it makes (compiled in, it is any plan). */
    const bool searched = s->best != SIZE_MAX && s->runs[s->best].searched;
    const aplan_host_tflm_figures *other[3] = {&s->tflm_embed, &s->tflm_compiled, searched ? NULL : &s->tflm_adapter};
    const aplan_host_tflm_figures *best = NULL;
    for (size_t k = 0; k < 3u; k++) {
        const aplan_host_tflm_figures *f = other[k];
        if (f != NULL && f->known && (best == NULL || f->info.smallest < best->info.smallest)) best = f;
    }
    if (best != NULL && (whole == APLAN_UNLIMITED || best->info.smallest <= whole || !own->known)) return best;
    return own->known ? own : NULL;
}

const char *aplan_host_tflm_setup_key(const aplan_host_session *s, const aplan_host_tflm_figures *f) {
    return f == &s->tflm_own ? "own_planner" : f == &s->tflm_embed ? "embedded" : f == &s->tflm_compiled ? "compiled"
                                                                                                      : "adapter";
}

const char *aplan_host_tflm_way(const aplan_host_session *s, const aplan_host_tflm_figures *f) {
    return f == &s->tflm_own        ? "TFLM's own planner"
           : f == &s->tflm_embed    ? "this plan embedded"
           : f == &s->tflm_compiled ? "this plan compiled in"
                                    : "the adapter";
}

bool aplan_host_tflm_scratch_adds(const aplan_host_tflm_figures *f, uint64_t *bytes) {
    const uint64_t planned = f->info.planned;
    *bytes = planned >= f->tensors ? planned - f->tensors : f->tensors - planned;
    return planned >= f->tensors;
}

void aplan_host_write_tflm_parts(FILE *out, const aplan_host_tflm_figures *f) {
    const aplan_tflm_arena_info *i = &f->info;
    uint64_t scratch = 0;
    if (!f->tensors_known)
        fprintf(out, "planned section %llu (tensors and kernels' scratch)", (unsigned long long)i->planned);
    else if (aplan_host_tflm_scratch_adds(f, &scratch))
        fprintf(out, "planned tensors %llu + kernels' scratch %llu", (unsigned long long)f->tensors,
                (unsigned long long)scratch);
    else /* the planner packed the tensors tighter with the scratch among them */
        fprintf(out, "planned tensors %llu - %llu (packed tighter among the kernels' scratch)",
                (unsigned long long)f->tensors, (unsigned long long)scratch);
    fprintf(out, " + persistent %llu", (unsigned long long)i->persistent);
    if (i->used != i->planned + i->persistent) /* never, as TFLM allocates (its temporaries are gone by then) */
        fprintf(out, " + temporary %llu", (unsigned long long)(i->used - i->planned - i->persistent));
}

bool aplan_host_tflm_section_figures(const aplan_host_session *s, uint64_t section, aplan_host_tflm_figures *f) {
    return figures(s, section, 0, false, APLAN_TFLM_GREEDY_IN_ARENA, f, NULL, 0);
}

/* "smallest arena N; arena_used_bytes() U = planned tensors P + kernels' scratch S + persistent T", to out: the
 * figure to set first, then what TFLM reports once it runs. */
void aplan_host_write_tflm_sum(FILE *out, const aplan_host_tflm_figures *f) {
    const aplan_tflm_arena_info *i = &f->info;
    fprintf(out, "smallest arena %llu%s; arena_used_bytes() %llu = ", (unsigned long long)i->smallest,
            i->unknown_ops > 0 ? " (at least)" : "", (unsigned long long)i->used);
    aplan_host_write_tflm_parts(out, f);
}

void aplan_host_write_tflm_lines(FILE *out, const aplan_host_session *s) {
    const aplan_host_input *in = s->input;
    if (in->kind != APLAN_HOST_INPUT_TFLITE || (!s->tflm_own.known && s->tflm_own.status == APLAN_OK)) return;
    fprintf(out, "TFLM arena (tflite-micro %s, %s, %u-bit ABI):", APLAN_TFLM_COMMIT,
            aplan_host_tflm_kernels_text(&in->tflm), in->tflm.abi);
    if (!s->tflm_own.known) {
        const bool refused = s->tflm_own.status == APLAN_E_FORMAT_UNSUPPORTED;
        fputs(refused ? " " : " cannot be computed: ", out);
        (void)aplan_host_write_shown(out, s->tflm_own.why);
        fputc('\n', out);
        if (refused)
            aplan_host_write_tflm_unknown(out, s, &s->tflm_own.info); /* replayed all the same: its operators */
        return;
    }
    fputc('\n', out);
    fputs("  TFLM's own planner:   ", out);
    aplan_host_write_tflm_sum(out, &s->tflm_own);
    fputc('\n', out);
    if (s->tflm_embed.known) {
        fputs("  this plan, embedded:  ", out);
        aplan_host_write_tflm_sum(out, &s->tflm_embed);
        fputc('\n', out);
    } else if (s->tflm_embed.status != APLAN_OK) {
        fputs("  this plan, embedded:  not possible: ", out);
        (void)aplan_host_write_shown(out, s->tflm_embed.why);
        fputc('\n', out);
    }
    if (s->tflm_compiled.known) {
        fputs("  this plan, compiled:  ", out);
        aplan_host_write_tflm_sum(out, &s->tflm_compiled);
        fputc('\n', out);
    }
    if (s->tflm_adapter.known) {
        fputs("  this plan, adapter:   ", out);
        aplan_host_write_tflm_sum(out, &s->tflm_adapter);
        fputc('\n', out);
    }
    aplan_host_write_tflm_unknown(out, s, &s->tflm_own.info);
}

/* An operator the kernel table does not know: its name's display text (owned by a aplan_host_names) and where it is. */
typedef struct unknown_op {
    const char *name;
    uint32_t subgraph, op;
    size_t order; /* over all subgraphs: ties keep the model's order, so each name's first is its first */
} unknown_op;

static int unknown_by_name(const void *a, const void *b) {
    const unknown_op *x = a, *y = b;
    const int c = strcmp(x->name, y->name);
    return c != 0 ? c : x->order < y->order ? -1 : x->order > y->order;
}

/* The operators info counts as unknown, into *ops (the caller frees it and names), sorted by name then order; false
 * when out of memory or the model cannot be walked again. O(operators + k log k) for k unknown ones. */
static bool unknown_ops(const aplan_host_session *s, const aplan_tflm_arena_info *info, aplan_host_names *names,
                        unknown_op **ops, size_t *count) {
    const aplan_host_input *in = s->input;
    *ops = NULL;
    *count = 0;
    aplan_tflite_info model;
    if (aplan_tflite_query(in->model, in->model_size, &model, NULL) != APLAN_OK) return false;
    aplan_tflm_op_cost *costs = malloc((model.operator_count + 1u) * sizeof *costs);
    *ops = malloc(((size_t)info->unknown_ops + 1u) * sizeof **ops);
    aplan_host_tflm_figures f;
    bool ok = costs != NULL && *ops != NULL;
    if (ok) {
        (void)figures(s, info->planned, 0, false, APLAN_TFLM_GREEDY_IN_ARENA, &f, costs, model.operator_count);
        ok = f.known || f.status == APLAN_E_FORMAT_UNSUPPORTED; /* a refused model still counts its operators */
    }
    for (size_t k = 0; ok && k < model.operator_count; k++) {
        const aplan_tflm_op_cost *c = &costs[k];
        aplan_tflite_operator_info op;
        aplan_host_name name = {NULL, 0, false};
        if (c->known || *count >= info->unknown_ops) continue;
        ok = aplan_tflite_operator(in->model, in->model_size, c->subgraph, c->op, &op, NULL) == APLAN_OK &&
             op.name.data != NULL && aplan_host_names_get(names, op.name.data, op.name.size, &name);
        if (ok) (*ops)[(*count)++] = (unknown_op){name.text, c->subgraph, c->op, k};
    }
    free(costs);
    if (ok) qsort(*ops, *count, sizeof **ops, unknown_by_name);
    return ok;
}

void aplan_host_write_tflm_unknown(FILE *out, const aplan_host_session *s, const aplan_tflm_arena_info *info) {
    if (info->unknown_ops == 0) return;
    aplan_host_names names = {NULL, 0, 0};
    unknown_op *ops = NULL;
    size_t count = 0;
    fprintf(out, "  not modelled: %lu operator%s", (unsigned long)info->unknown_ops, aplan_host_s(info->unknown_ops));
    if (unknown_ops(s, info, &names, &ops, &count) && count > 0) {
        /* Every one named: each distinct name once, with how many share it and where the first is. */
        size_t kinds = 0;
        for (size_t k = 0; k < count; k++) kinds += k == 0 || strcmp(ops[k].name, ops[k - 1u].name) != 0;
        fprintf(out, " of %zu kind%s, whose kernels' scratch and persistent data are not counted, so every TFLM "
                     "figure is a lower bound:",
                kinds, aplan_host_s(kinds));
        for (size_t k = 0, run; k < count; k += run) {
            for (run = 1; k + run < count && strcmp(ops[k + run].name, ops[k].name) == 0; run++) {
            }
            fputs(k == 0 ? " " : ", ", out);
            (void)aplan_host_write_short(out, ops[k].name,
                                         2u * APLAN_HOST_NAME_SHOWN); /* a custom code can be any length */
            fprintf(out, " (%zu: %sop %lu of subgraph %lu)", run, run > 1 ? "the first " : "", (unsigned long)ops[k].op,
                    (unsigned long)ops[k].subgraph);
        }
        fputc('\n', out);
    } else { /* out of memory: the first one, as the figures name it */
        aplan_tflite_text name = aplan_tflm_unknown_name(s->input->model, s->input->model_size, info);
        aplan_host_name text = {NULL, 0, false};
        if (name.data != NULL) text = aplan_host_name_text(name.data, name.size);
        fputs(", the first ", out);
        (void)aplan_host_write_short(out, text.text != NULL ? text.text : "?", 2u * APLAN_HOST_NAME_SHOWN);
        free((char *)text.text);
        fprintf(out, " (op %lu of subgraph %lu): their kernels' scratch and persistent data are not counted, so every "
                     "TFLM figure is a lower bound\n",
                (unsigned long)info->first_unknown_op, (unsigned long)info->first_unknown_subgraph);
    }
    free(ops);
    aplan_host_names_free(&names);
}

uint64_t aplan_host_tflm_section_capacity(const aplan_host_session *s, uint64_t capacity) {
    const aplan_host_input *in = s->input;
    if (in->kind != APLAN_HOST_INPUT_TFLITE || in->model == NULL || capacity == APLAN_UNLIMITED) return capacity;
    aplan_host_tflm_figures f;
    if (!figures(s, 0, 0, false, APLAN_TFLM_GREEDY_IN_ARENA, &f, NULL, 0)) return capacity;
    return f.info.persistent >= capacity ? 0 : capacity - f.info.persistent;
}

int aplan_host_tflm_failure(const aplan_host_session *s, const aplan_host_tflm_figures *f, aplan_host_error *err) {
    if (f->status == APLAN_E_FORMAT_UNSUPPORTED) { /* the model is fine; TFLM will not run it */
        return aplan_host_error_set(err, APLAN_HOST_REFUSED, "%s: %s", s->input->name, f->why);
    }
    return aplan_host_error_set(err, f->status == APLAN_E_OUT_OF_MEMORY ? APLAN_HOST_INTERNAL : APLAN_HOST_BAD_INPUT,
                                "%s: cannot compute TFLM's arena: %s", s->input->name, f->why);
}

/* One part of the tail: its bytes and what it is. */
static void write_part(FILE *out, const char *what, uint64_t bytes) {
    fprintf(out, "    %-59s %12llu\n", what, (unsigned long long)bytes);
}

int aplan_host_write_tflm_breakdown(FILE *out, const aplan_host_session *s, aplan_host_error *err) {
    const aplan_host_input *in = s->input;
    aplan_tflite_info model;
    if (aplan_tflite_query(in->model, in->model_size, &model, NULL) != APLAN_OK) return APLAN_HOST_INTERNAL;
    aplan_tflm_op_cost *costs = malloc((model.operator_count + 1u) * sizeof *costs);
    aplan_host_tflm_figures f;
    if (costs == NULL) {
        return aplan_host_error_set(err, APLAN_HOST_INTERNAL, "out of memory");
    }
    if (!figures(s, s->tflm_own.info.planned, s->tflm_own.tensors, s->tflm_own.tensors_known,
                 APLAN_TFLM_GREEDY_IN_ARENA, &f, costs, model.operator_count)) {
        free(costs);
        return aplan_host_tflm_failure(s, &f, err);
    }
    const aplan_tflm_arena_info *i = &f.info;
    (void)aplan_host_write_shown(out, in->name);
    fprintf(out, ": TFLM's arena (tflite-micro %s, %s, %u-bit ABI, TFLM's own planner)\n", APLAN_TFLM_COMMIT,
            aplan_host_tflm_kernels_text(&in->tflm), in->tflm.abi);
    fprintf(out, "  arena_used_bytes()%43s %12llu\n", "", (unsigned long long)i->used);
    fprintf(out, "  smallest arena AllocateTensors() accepts%21s %12llu%s\n", "", (unsigned long long)i->smallest,
            i->unknown_ops > 0 ? " (at least)" : "");
    fprintf(out, "  planned section (GreedyMemoryPlanner)%24s %12llu\n", "", (unsigned long long)i->planned);
    char what[128];
    uint64_t adds = 0;
    const bool adds_up = aplan_host_tflm_scratch_adds(&f, &adds);
    if (f.tensors_known) {
        snprintf(what, sizeof what, "tensors (%zu), planned alone", in->tensor_count);
        write_part(out, what, f.tensors);
        snprintf(what, sizeof what, "what the kernels' scratch %s (%lu request%s, %llu byte%s)",
                 adds_up ? "adds" : "saves", (unsigned long)i->scratch_requests, aplan_host_s(i->scratch_requests),
                 (unsigned long long)i->scratch_bytes, aplan_host_s(i->scratch_bytes));
        write_part(out, what, adds);
    } else {
        snprintf(what, sizeof what, "tensors (%zu) and kernels' scratch (%lu request%s), not told apart",
                 in->tensor_count, (unsigned long)i->scratch_requests, aplan_host_s(i->scratch_requests));
        write_part(out, what, i->planned);
    }
    fprintf(out, "  persistent%51s %12llu\n", "", (unsigned long long)i->persistent);
    write_part(out, "TFLM's objects (allocators, planner, subgraph records)", i->tflm_objects);
    write_part(out, "TfLiteEvalTensor per tensor", i->eval_tensors);
    write_part(out, "NodeAndRegistration per operator", i->nodes);
    write_part(out, "builtin options structs", i->params);
    write_part(out, "kernels' op data (Init, Prepare)", i->op_data);
    write_part(out, "variable tensors", i->variables);
    write_part(out, "scratch buffer handles", i->scratch_handles);
    write_part(out, "input and output TfLiteTensors, quantization", i->io_tensors);
    fprintf(out, "\n  %-9s %-6s %-32s %10s %10s %10s %8s\n", "subgraph", "op", "operator", "options", "op data",
            "scratch", "requests");
    /* Operators that share a custom code share its text: each distinct string is made once. */
    aplan_host_names names = {NULL, 0, 0};
    for (size_t k = 0; k < model.operator_count; k++) {
        const aplan_tflm_op_cost *c = &costs[k];
        aplan_tflite_operator_info op;
        aplan_host_name name = {NULL, 0, false};
        if (aplan_tflite_operator(in->model, in->model_size, c->subgraph, c->op, &op, NULL) == APLAN_OK &&
            op.name.data != NULL && !aplan_host_names_get(&names, op.name.data, op.name.size, &name))
            name.text = NULL; /* out of memory: shown as unknown */
        fprintf(out, "  %-9lu %-6lu ", (unsigned long)c->subgraph, (unsigned long)c->op);
        size_t w = aplan_host_write_short(out, name.text != NULL ? name.text : "?", 32u);
        fprintf(out, "%*s", w < 32u ? (int)(33u - w) : 1, "");
        if (!c->known) {
            fputs("(not modelled: not counted)\n", out);
            continue;
        }
        fprintf(out, "%10llu %10llu %10llu %8lu\n", (unsigned long long)c->params, (unsigned long long)c->op_data,
                (unsigned long long)c->scratch, (unsigned long)c->scratch_requests);
    }
    aplan_host_names_free(&names);
    free(costs);
    aplan_host_write_tflm_unknown(out, s, i);
    return APLAN_HOST_OK;
}

/* TFLM's own plan of the section (greedy_by_size_tflm over the tensors and the kernels' scratch, no capacity):
 * its arena into *section; false with *why set when it cannot be made. */
static bool own_section(const aplan_host_session *s, uint64_t *section, char *why, size_t why_size) {
    const aplan_strategy *greedy = NULL;
    if (aplan_strategy_find("greedy_by_size_tflm", &greedy) != APLAN_OK) {
        snprintf(why, why_size, "TFLM's own planner is greedy_by_size_tflm, which this build leaves out");
        return false;
    }
    aplan_problem p = s->problem;
    p.capacity = APLAN_UNLIMITED;
    size_t bytes = 0;
    void *scratch = NULL;
    uint64_t *offsets = malloc((s->input->count + 1u) * sizeof *offsets);
    aplan_result r;
    aplan_status st = offsets == NULL ? APLAN_E_OUT_OF_MEMORY : aplan_plan_scratch_size(greedy, &p, &bytes);
    if (st == APLAN_OK && (scratch = malloc(bytes + 1u)) == NULL) st = APLAN_E_OUT_OF_MEMORY;
    if (st == APLAN_OK) st = aplan_plan(greedy, &p, scratch, bytes, offsets, &r);
    free(scratch);
    free(offsets);
    if (st != APLAN_OK) {
        snprintf(why, why_size, "TFLM's own planner (greedy_by_size_tflm): %s", aplan_status_str(st));
        return false;
    }
    *section = r.arena_size;
    return true;
}

/* The two arenas with TFLM's own planner in the persistent one (what its two-arena Create makes), and the smallest
 * single arena beside them; false with *why set when they cannot be computed. */
static bool two_arena_figures(const aplan_host_session *s, uint64_t section, aplan_tflm_two_arena_info *two,
                              aplan_tflm_arena_info *one, char *why, size_t why_size) {
    aplan_host_input *in = s->input;
    aplan_format_error e;
    aplan_status st = recording(in, &e);
    if (st == APLAN_OK)
        st = aplan_tflm_recorded_two_arenas(in->tflm_recording, APLAN_TFLM_GREEDY_IN_ARENA, 0, in->tflite_ids,
                                            in->tensor_count, section, two, &e);
    if (st == APLAN_OK)
        st = aplan_tflm_recorded_arena(in->tflm_recording, APLAN_TFLM_GREEDY_IN_ARENA, 0, in->tflite_ids,
                                       in->tensor_count, section, one, NULL, 0, &e);
    if (st != APLAN_OK)
        snprintf(why, why_size, "%s", e.message[0] != '\0' ? e.message : aplan_status_str(st));
    return st == APLAN_OK;
}

/* The region an arena of `bytes` goes to: the fastest that holds it (from_fast: the planned section, which every
 * operator reads and writes), else the slowest; `beside` (SIZE_MAX for none) already holds beside_bytes. SIZE_MAX
 * when no region holds it. */
static size_t place_arena(const aplan_host_region_session *g, uint64_t bytes, bool from_fast, size_t beside,
                          uint64_t beside_bytes) {
    for (size_t k = 0; k < g->count; k++) {
        const size_t r = from_fast ? k : g->count - 1u - k;
        const uint64_t cap = g->spec[r].size;
        const uint64_t other = r == beside ? beside_bytes : 0;
        if (bytes <= cap && other <= cap - bytes) return r;
    }
    return SIZE_MAX;
}

/* " in NAME", " in NAME too" when it shares the region, " in no region". */
static void write_place(FILE *out, const aplan_host_region_session *g, size_t r, size_t beside) {
    if (r == SIZE_MAX) fputs(" in no region", out);
    else fprintf(out, " in %s%s", g->spec[r].name, r == beside ? " too" : "");
}

/* The line saying that an arena fits no region, when it does not. */
static void write_no_region(FILE *out, const aplan_host_region_session *g, size_t r, const char *which,
                            uint64_t bytes) {
    if (r != SIZE_MAX) return;
    size_t largest = 0;
    for (size_t k = 1; k < g->count; k++) largest = g->spec[k].size > g->spec[largest].size ? k : largest;
    fprintf(out, "  does not fit: the %s arena needs %llu bytes, the largest region (%s) has %llu\n", which,
            (unsigned long long)bytes, g->spec[largest].name, (unsigned long long)g->spec[largest].size);
}

int aplan_host_tflm_reserve_persistent(aplan_host_session *s, aplan_host_error *err) {
    const aplan_host_input *in = s->input;
    aplan_host_region_session *g = &s->regions;
    if (in->kind != APLAN_HOST_INPUT_TFLITE || in->model == NULL || !in->has_tflm || g->count == 0)
        return APLAN_HOST_OK;
    char why[256];
    aplan_tflm_two_arena_info two;
    aplan_tflm_arena_info one;
    /* The persistent arena does not depend on the section: any section gives the same figure. */
    if (!two_arena_figures(s, 0, &two, &one, why, sizeof why) || one.refused_ops > 0) return APLAN_HOST_OK;
    const uint64_t bytes = two.persistent_smallest;
    size_t largest = 0;
    for (size_t k = 0; k < g->count; k++) {
        const size_t r = g->count - 1u - k; /* the slowest first: every operator reads the section, not this */
        if (bytes <= g->spec[r].size) {
            g->persistent_region = r;
            g->persistent_bytes = bytes;
            g->regions[r].capacity = g->spec[r].size - bytes;
            return APLAN_HOST_OK;
        }
        if (g->spec[r].size > g->spec[largest].size) largest = r;
    }
    return aplan_host_error_set(
        err, APLAN_HOST_NO_FIT,
        "%s: does not fit: TFLM's persistent data (its persistent arena, %llu bytes) fits no region; the "
        "largest, %s, has %llu bytes",
        in->name, (unsigned long long)bytes, g->spec[largest].name, (unsigned long long)g->spec[largest].size);
}

void aplan_host_write_tflm_regions(FILE *out, const aplan_host_session *s) {
    const aplan_host_input *in = s->input;
    const aplan_host_region_session *g = &s->regions;
    if (in->kind != APLAN_HOST_INPUT_TFLITE || in->model == NULL || !in->has_tflm || g->count == 0) return;
    fprintf(out, "TFLM, two arenas (tflite-micro %s, %s, %u-bit ABI, TFLM's own planner):", APLAN_TFLM_COMMIT,
            aplan_host_tflm_kernels_text(&in->tflm), in->tflm.abi);
    char why[256];
    uint64_t section = 0;
    aplan_tflm_two_arena_info two;
    aplan_tflm_arena_info one;
    if (!own_section(s, &section, why, sizeof why) || !two_arena_figures(s, section, &two, &one, why, sizeof why)) {
        fputs(" cannot be computed: ", out);
        (void)aplan_host_write_shown(out, why);
        fputc('\n', out);
        return;
    }
    /* The persistent data (records, op data, variables) where it was reserved before planning, the slowest region
     * that holds it; the non-persistent arena in the fastest region that holds it beside that. */
    const size_t p = g->persistent_region;
    const size_t np = place_arena(g, two.non_persistent_smallest, true, p, g->persistent_bytes);
    fprintf(out, "\n  non-persistent arena: %8llu bytes", (unsigned long long)two.non_persistent_smallest);
    write_place(out, g, np, SIZE_MAX);
    if (two.non_persistent_smallest > two.planned)
        fprintf(out, " (planned section %llu; AllocateTensors needs %llu)\n", (unsigned long long)two.planned,
                (unsigned long long)two.non_persistent_smallest);
    else
        fputs(" (the planned section, TFLM's own plan)\n", out);
    fprintf(out, "  persistent arena:     %8llu bytes", (unsigned long long)two.persistent_smallest);
    write_place(out, g, p, np);
    fprintf(out, " (%llu used", (unsigned long long)two.persistent);
    if (p == np && p != SIZE_MAX)
        fprintf(out, "; both arenas: %llu of its %llu bytes", (unsigned long long)(two.persistent_smallest +
                                                                                   two.non_persistent_smallest),
                (unsigned long long)g->spec[p].size);
    fputs(")\n", out);
    fprintf(out,
            "  MicroAllocator::Create(persistent, %llu, non_persistent, %llu): arena_used_bytes() %llu; one arena: "
            "%llu\n",
            (unsigned long long)two.persistent_smallest, (unsigned long long)two.non_persistent_smallest,
            (unsigned long long)two.used, (unsigned long long)one.smallest);
    fputs("  placed: the persistent data in the slowest region that holds it (counted there while planning), the "
          "planned section in the fastest beside it\n",
          out);
    write_no_region(out, g, np, "non-persistent", two.non_persistent_smallest);
    write_no_region(out, g, p, "persistent", two.persistent_smallest);
    /* A plan over several regions is not what two arenas give: TFLM follows it only as one address range, with a
     * planner that keeps out of the gaps between the memories (its own planner crashes there). */
    if (g->best != SIZE_MAX && g->runs[g->best].planned) {
        size_t used = 0;
        for (size_t r = 0; r < g->count; r++) used += g->runs[g->best].arenas[r] > 0;
        if (used > 1)
            fputs("  the plan above spans regions: TFLM follows it only as one address range, with a planner that "
                  "keeps out\n    of the gaps between them (TFLM's own crashes there; docs/tflm.md, \"Several "
                  "memories\")\n",
                  out);
    }
    aplan_host_write_tflm_unknown(out, s, &one);
}
