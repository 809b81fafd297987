/*
 * A planning session over one loaded input: the settings (options first, then the target, then the input kind's
 * defaults), the checks that report an input mistake once rather than once per strategy, the lower bound, running
 * and independently verifying each strategy, and reports in words. The library never allocates; this file gives
 * it heap scratch. Errors come back as values (aplan_host_error) and progress goes to the session's callback.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aplan/strategies.h"
#include "host.h"

#define MAX_RUNS 32

/* Heap scratch for one library call. query is the status of that call's scratch-size query, which wrote *bytes.
 * Returns query when it failed; APLAN_E_OUT_OF_MEMORY when malloc did; else APLAN_OK. *scratch is NULL unless
 * APLAN_OK with *bytes > 0; the caller frees it after the call. */
static aplan_status scratch_alloc(aplan_status query, const size_t *bytes, void **scratch) {
    *scratch = NULL;
    if (query != APLAN_OK || *bytes == 0) return query;
    *scratch = malloc(*bytes);
    return *scratch != NULL ? APLAN_OK : APLAN_E_OUT_OF_MEMORY;
}

/* Settings: explicit options first, then the target, then the input kind's defaults (TFLM's for models). The
 * alignment of a model (and of the example, planned by TFLM's rules) is TFLM's 16 on every target: TFLM aligns every
 * planned tensor to MicroArenaBufferAlignment whatever the core, so a preset's alignment would make every figure,
 * the greedy_by_size_tflm row first, disagree with TFLM. */
static void resolve_settings(const aplan_host_options *o, const aplan_host_input *in, aplan_host_settings *s,
                             aplan_problem *p) {
    const aplan_host_target *t = o->target != NULL ? aplan_host_target_find(o->target) : NULL;
    bool model = in->kind != APLAN_HOST_INPUT_CSV;
    s->alignment_from = (o->given & APLAN_HOST_SET_ALIGN) ? APLAN_HOST_ALIGN_OPTION
                        : model                    ? APLAN_HOST_ALIGN_TFLM
                        : t != NULL                ? APLAN_HOST_ALIGN_TARGET
                                                   : APLAN_HOST_ALIGN_DEFAULT;
    s->alignment = s->alignment_from == APLAN_HOST_ALIGN_OPTION ? o->align
                   : s->alignment_from == APLAN_HOST_ALIGN_TFLM ? 16u
                   : s->alignment_from == APLAN_HOST_ALIGN_TARGET ? t->alignment
                                                           : 1u;
    s->target_alignment = t != NULL ? t->alignment : 0u;
    s->round_sizes = (o->given & APLAN_HOST_SET_ROUND) ? o->round : model;
    s->capacity_from_target = !(o->given & APLAN_HOST_SET_CAPACITY) && t != NULL;
    s->capacity = (o->given & APLAN_HOST_SET_CAPACITY) ? o->capacity : t != NULL ? t->ram : APLAN_UNLIMITED;
    s->target = o->target;
    s->time_limit_ns = (o->given & APLAN_HOST_SET_TIME_LIMIT) ? o->time_limit_ns : APLAN_HOST_DEFAULT_TIME_LIMIT;
    s->whole_capacity = APLAN_UNLIMITED; /* set after, for a model (TFLM's whole arena) */
    aplan_problem_init(p, in->buffers, in->count);
    p->alignment = s->alignment;
    p->capacity = s->capacity;
    p->flags = (s->round_sizes ? APLAN_ROUND_SIZES : 0u) |
               ((o->alias || (in->kind == APLAN_HOST_INPUT_TFLITE && in->has_fixed)) ? APLAN_ALLOW_FIXED_ALIAS : 0u);
}

void aplan_host_session_init(aplan_host_session *s, const aplan_host_options *o, aplan_host_input *in) {
    memset(s, 0, sizeof *s);
    s->input = in;
    s->best = SIZE_MAX;
    resolve_settings(o, in, &s->settings, &s->problem);
}

/* Name a buffer for people: "'id'" or "'id' (line N)". */
static void name_buffer(const aplan_host_input *in, size_t i, char *out, size_t out_size) {
    if (in->lines != NULL) snprintf(out, out_size, "'%s' (line %u)", in->ids[i], (unsigned)in->lines[i]);
    else snprintf(out, out_size, "'%s'", in->ids[i]);
}

void aplan_host_describe_report(const aplan_host_input *in, aplan_status status, const aplan_report *r, char *out,
                         size_t out_size) {
    char detail[160];
    char a[96] = "";
    char b[96] = "";
    if (r->rule == APLAN_E_OVERLAP || r->rule == APLAN_E_FIXED_OVERLAP) {
        /* The only rules whose text holds ranges. aplan_report_format writes them inclusive ("steps 0-2"); the tool
         * writes every range half-open, as CSV, JSON and the header do (docs/cli.md, "Ranges"). */
        snprintf(detail, sizeof detail, "%sbuffers %zu and %zu overlap at steps [%llu, %llu), bytes [%llu, %llu)",
                 r->rule == APLAN_E_FIXED_OVERLAP ? "fixed " : "", r->buffer_a, r->buffer_b,
                 (unsigned long long)r->step_lo, (unsigned long long)r->step_hi, (unsigned long long)r->byte_lo,
                 (unsigned long long)r->byte_hi);
    } else {
        (void)aplan_report_format(r, detail, sizeof detail);
    }
    if (r->buffer_a != APLAN_NO_BUFFER && r->buffer_a < in->count) name_buffer(in, r->buffer_a, a, sizeof a);
    if (r->buffer_b != APLAN_NO_BUFFER && r->buffer_b < in->count) name_buffer(in, r->buffer_b, b, sizeof b);
    if (r->rule == APLAN_OK) {
        snprintf(out, out_size, "%s", aplan_status_str(status));
    } else if (b[0] != '\0') {
        snprintf(out, out_size, "%s: buffer %zu is %s, buffer %zu is %s", detail, r->buffer_a, a, r->buffer_b, b);
    } else if (a[0] != '\0') {
        snprintf(out, out_size, "%s: buffer %zu is %s", detail, r->buffer_a, a);
    } else {
        snprintf(out, out_size, "%s", detail);
    }
}

int aplan_host_check_problem(const aplan_host_session *s, aplan_host_error *err) {
    aplan_problem p = s->problem;
    p.capacity = APLAN_UNLIMITED;
    aplan_report r;
    aplan_report_clear(&r);
    aplan_status st = aplan_problem_validate(&p, &r);
    if (st != APLAN_OK) {
        char text[400];
        aplan_host_describe_report(s->input, st, &r, text, sizeof text);
        return aplan_host_error_set(err, APLAN_HOST_BAD_INPUT, "%s: invalid problem: %s", s->input->name, text);
    }
    return APLAN_HOST_OK;
}

aplan_status aplan_host_embed(const aplan_host_input *in, const uint64_t *offsets, void *out, size_t capacity,
                              size_t *size, aplan_tflite_embed_info *info, aplan_format_error *e) {
    size_t bytes = 0;
    void *scratch = NULL;
    aplan_status st =
        scratch_alloc(aplan_tflite_embed_scratch_size(in->model, in->model_size, &bytes, e), &bytes, &scratch);
    if (st == APLAN_E_OUT_OF_MEMORY) snprintf(e->message, sizeof e->message, "out of memory for its scratch");
    if (st == APLAN_OK) {
        st = aplan_tflite_embed(in->model, in->model_size, in->tflite_ids, offsets, in->tensor_count, scratch, bytes,
                                out, capacity, size, info, e);
    }
    free(scratch);
    return st;
}

/* aplan_host_fixed_pairs' adapter from the library's callback to the CLI's. */
typedef struct pair_relay {
    aplan_host_pair_found found;
    void *state;
} pair_relay;

static bool relay_pair(void *context, const aplan_report *pair) {
    const pair_relay *relay = context;
    return relay->found(relay->state, pair->buffer_a, pair->buffer_b, pair->byte_lo, pair->byte_hi);
}

bool aplan_host_fixed_pairs(const aplan_host_session *s, aplan_host_pair_found found, void *state) {
    const aplan_host_input *in = s->input;
    if (!in->has_fixed) return true;
    /* The fixed buffers alone: every other one is left out of the library's sweep (aplan_overlaps). */
    aplan_problem p = s->problem;
    p.capacity = APLAN_UNLIMITED; /* the capacity is the verdict's business */
    uint64_t *fixed = malloc((in->count + 1u) * sizeof *fixed);
    size_t bytes = 0;
    void *scratch = NULL;
    aplan_status st = fixed != NULL ? scratch_alloc(aplan_overlaps_scratch_size(&p, &bytes), &bytes, &scratch)
                                    : APLAN_E_OUT_OF_MEMORY;
    if (st == APLAN_OK) {
        for (size_t i = 0; i < in->count; i++) fixed[i] = in->buffers[i].offset;
        pair_relay relay = {found, state};
        /* The problem is valid (aplan_host_check_problem) and fixed ends fit 64 bits (validation): no failure is left.
         * */
        st = aplan_overlaps(&p, fixed, scratch, bytes, relay_pair, &relay, NULL);
    }
    free(scratch);
    free(fixed);
    return st == APLAN_OK;
}

bool aplan_host_fixed_alias_count(const aplan_host_session *s, size_t *count) {
    const aplan_host_input *in = s->input;
    *count = 0;
    if (!in->has_fixed) return true;
    /* The fixed buffers as a problem of their own, planned at their fixed offsets with aliasing allowed: the
     * verifier accepts that plan and counts the pairs without listing them. */
    aplan_buffer *fixed = malloc((in->count + 1u) * sizeof *fixed);
    uint64_t *offsets = malloc((in->count + 1u) * sizeof *offsets);
    bool counted = false;
    if (fixed != NULL && offsets != NULL) {
        size_t f = 0;
        for (size_t i = 0; i < in->count; i++) {
            if (in->buffers[i].offset == APLAN_NO_OFFSET) continue;
            fixed[f] = in->buffers[i];
            offsets[f++] = in->buffers[i].offset;
        }
        aplan_problem p = s->problem;
        p.buffers = fixed;
        p.count = f;
        p.capacity = APLAN_UNLIMITED;
        p.flags |= APLAN_ALLOW_FIXED_ALIAS;
        uint64_t arena = 0; /* validation checked that every fixed end fits 64 bits */
        for (size_t k = 0; k < f; k++) {
            const uint64_t end = offsets[k] + aplan_buffer_size(&p, k);
            if (end > arena) arena = end;
        }
        aplan_report r;
        counted = aplan_host_verify(&p, offsets, arena, &r) == APLAN_OK;
        if (counted) *count = r.aliased_pairs;
    }
    free(offsets);
    free(fixed);
    return counted;
}

/* aplan_host_check_fixed's callback: keep the first pair and stop. */
typedef struct first_pair {
    bool found;
    size_t i, j;
} first_pair;

static bool keep_first(void *state, size_t i, size_t j, uint64_t lo, uint64_t hi) {
    (void)lo, (void)hi;
    first_pair *p = state;
    *p = (first_pair){true, i, j};
    return false;
}

/* Fixed buffers that clash are an input mistake unless aliasing is allowed: say so once, with the way out, rather
 * than let every strategy fail on it. The pair named is the first the sweep meets (the earliest step at which two
 * fixed buffers clash). */
int aplan_host_check_fixed(const aplan_host_session *s, aplan_host_error *err) {
    const aplan_host_input *in = s->input;
    if (!in->has_fixed || (s->problem.flags & APLAN_ALLOW_FIXED_ALIAS) != 0) return APLAN_HOST_OK;
    first_pair p = {false, 0, 0};
    if (!aplan_host_fixed_pairs(s, keep_first, &p)) {
        return aplan_host_error_set(err, APLAN_HOST_INTERNAL, "out of memory");
    }
    if (!p.found) return APLAN_HOST_OK;
    char a[96], b[96];
    name_buffer(in, p.i, a, sizeof a);
    name_buffer(in, p.j, b, sizeof b);
    return aplan_host_error_set(
        err, APLAN_HOST_BAD_INPUT,
        "%s: fixed buffers %s and %s share bytes while both are live (use --allow-alias if the offline plan "
        "shares them on purpose)",
        in->name, a, b);
}

int aplan_host_compute_bound(aplan_host_session *s, aplan_host_error *err) {
    aplan_problem p = s->problem;
    p.capacity = APLAN_UNLIMITED;
    size_t bytes = 0;
    void *scratch;
    aplan_status st = scratch_alloc(aplan_lower_bound_scratch_size(&p, &bytes), &bytes, &scratch);
    if (st == APLAN_E_OUT_OF_MEMORY) {
        return aplan_host_error_set(err, APLAN_HOST_INTERNAL, "out of memory");
    }
    if (st == APLAN_OK) st = aplan_lower_bound(&p, scratch, bytes, &s->bound, &s->bound_step);
    free(scratch);
    if (st != APLAN_OK) {
        return aplan_host_error_set(err, APLAN_HOST_BAD_INPUT, "%s: cannot compute the lower bound: %s", s->input->name,
                                    aplan_status_str(st));
    }
    return APLAN_HOST_OK;
}

aplan_status aplan_host_verify(const aplan_problem *p, const uint64_t *offsets, uint64_t arena, aplan_report *r) {
    size_t bytes = 0;
    void *scratch;
    aplan_status st = scratch_alloc(aplan_verify_scratch_size(p, &bytes), &bytes, &scratch);
    if (st == APLAN_E_OUT_OF_MEMORY) {
        /* Not an error here: the pairwise path needs no scratch and gives the same answer. */
        st = APLAN_OK;
        bytes = 0;
    }
    if (st == APLAN_OK) st = aplan_verify(p, offsets, arena, scratch, bytes, r);
    free(scratch);
    return st;
}

static double now_ms(void) {
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

double aplan_host_clock_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

void aplan_host_progress_say(const aplan_host_session *s, bool phase, const char *format, ...) {
    if (s->progress == NULL) return;
    char text[160];
    va_list args;
    va_start(args, format);
    (void)vsnprintf(text, sizeof text, format, args);
    va_end(args);
    s->progress(s->progress_state, phase, text);
}

void aplan_host_seconds_text(uint64_t ns, char *out, size_t out_size) {
    uint64_t rest = ns % 1000000000u;
    int digits = 9; /* of the fraction, without its trailing zeros */
    while (rest != 0 && rest % 10u == 0) {
        rest /= 10u;
        digits--;
    }
    if (rest == 0) {
        snprintf(out, out_size, "%llu", (unsigned long long)(ns / 1000000000u));
    } else {
        snprintf(out, out_size, "%llu.%0*llu", (unsigned long long)(ns / 1000000000u), digits,
                 (unsigned long long)rest);
    }
}

const char *aplan_host_outcome_word(const aplan_host_run *run) {
    /* INFEASIBLE is the one outcome that holds without a plan: the bound alone proves it. */
    if (!run->planned && run->result.outcome != APLAN_OUTCOME_INFEASIBLE) return "-";
    switch (run->result.outcome) {
    case APLAN_OUTCOME_OPTIMAL: return "optimal";
    case APLAN_OUTCOME_FITS: return "fits";
    case APLAN_OUTCOME_BEST_FOUND: return "best found";
    case APLAN_OUTCOME_INFEASIBLE: return "infeasible";
    case APLAN_OUTCOME_PLAN: return "plan";
    default: return "-";
    }
}

const char *aplan_host_outcome_key(const aplan_host_run *run) {
    const char *word = aplan_host_outcome_word(run);
    if (strcmp(word, "-") == 0) return NULL;
    return strcmp(word, "best found") == 0 ? "best_found" : word;
}

/* A search's clock: the deadline its stop callback compares with, and what the progress line says meanwhile. */
typedef struct search_clock {
    const aplan_host_session *session; /* whose progress callback hears of it */
    double deadline_ms;
    double next_note_ms;   /* the line is rewritten at most every NOTE_EVERY_MS */
    const char *name;
    const char *of;
    uint64_t bound;
    bool searches;         /* nodes are search nodes; else buffers a heuristic's rule has placed */
    bool whole_start;      /* --time-limit 0: a search keeps its start whole (it asks with 0 nodes until it searches) */
    bool stopped;          /* it has answered "stop" */
} search_clock;

#define NOTE_EVERY_MS 250.0

/* aplan_search_options.stop: true once the deadline has passed. Also the only place a search's progress can be
 * seen from: the nodes so far go on the progress line (the callback is not told the best arena so far). */
static bool stop_at_deadline(void *context, uint64_t nodes) {
    search_clock *c = context;
    if (c->whole_start && nodes == 0) return false;
    double now = aplan_host_clock_ms();
    if (now >= c->next_note_ms && c->searches) {
        aplan_host_progress_say(c->session, false, "searching %s%s: %llu node%s, lower bound %llu", c->name, c->of,
                                (unsigned long long)nodes, aplan_host_s(nodes), (unsigned long long)c->bound);
        c->next_note_ms = now + NOTE_EVERY_MS;
    } else if (now >= c->next_note_ms) {
        aplan_host_progress_say(c->session, false, "planning %s%s: %llu buffer%s placed", c->name, c->of,
                                (unsigned long long)nodes, aplan_host_s(nodes));
        c->next_note_ms = now + NOTE_EVERY_MS;
    }
    if (now >= c->deadline_ms) c->stopped = true;
    aplan_host_session *session = (aplan_host_session *)c->session; /* its interrupted flag alone is written */
    if (session->interrupt != NULL && session->interrupt(session->interrupt_state)) session->interrupted = true;
    return c->stopped || session->interrupted;
}

/* run->error for a verified plan above the capacity, or for a search that proved none fits without one. */
static void capacity_error(const aplan_host_session *s, aplan_host_run *run) {
    unsigned long long capacity = (unsigned long long)s->settings.capacity;
    unsigned long long arena = (unsigned long long)run->result.arena_size;
    if (run->searched && run->result.outcome == APLAN_OUTCOME_INFEASIBLE && !run->planned) {
        /* The bound is the session's: the library's is 0 when validation found a buffer too big. */
        snprintf(run->error, sizeof run->error, "proven: no plan fits %llu byte%s: the lower bound is %llu", capacity,
                 aplan_host_s(capacity), (unsigned long long)s->bound);
    } else if (run->searched && run->result.outcome == APLAN_OUTCOME_INFEASIBLE) {
        snprintf(run->error, sizeof run->error, "proven: no plan fits %llu byte%s (this plan needs %llu, %llu more)",
                 capacity, aplan_host_s(capacity), arena, arena - capacity);
    } else if (run->searched && run->result.outcome == APLAN_OUTCOME_BEST_FOUND && run->planned) {
        snprintf(run->error, sizeof run->error, "no plan within %llu byte%s found %s (best: %llu byte%s)", capacity,
                 aplan_host_s(capacity),
                 run->out_of_time ? "in the time limit" : "by sliding a group too large to search", arena,
                 aplan_host_s(arena));
    } else {
        snprintf(run->error, sizeof run->error, "needs %llu byte%s, %llu more than the capacity of %llu byte%s",
                 arena, aplan_host_s(arena), arena - capacity, capacity, aplan_host_s(capacity));
    }
}

void aplan_host_run_one(aplan_host_session *s, aplan_host_run *run) {
    const aplan_host_input *in = s->input;
    aplan_problem p = s->problem;
    run->searched = aplan_strategy_searches(run->strategy);
    /* Only a search is given the capacity: it then looks for a plan within it (FIT) and can prove there is none. A
     * heuristic plans as it would anyway, and its plan is shown with its size even when too big. */
    bool fit = run->searched && s->settings.capacity != APLAN_UNLIMITED;
    if (!fit) p.capacity = APLAN_UNLIMITED;
    run->goal = fit ? APLAN_GOAL_FIT : APLAN_GOAL_MINIMISE;
    run->offsets = malloc((in->count + 1u) * sizeof *run->offsets);
    size_t bytes = 0;
    void *scratch = NULL;
    aplan_status st = APLAN_E_OUT_OF_MEMORY;
    if (run->offsets != NULL) {
        /* The query validates the problem: with a capacity below a single buffer it fails, where the search would
         * say INFEASIBLE. The capacity changes no need (the library's or a strategy's), so ask without it then. */
        aplan_problem any = p;
        aplan_status query = aplan_plan_scratch_size(run->strategy, &p, &bytes);
        any.capacity = APLAN_UNLIMITED;
        if (query == APLAN_E_CAPACITY_EXCEEDED) query = aplan_plan_scratch_size(run->strategy, &any, &bytes);
        st = scratch_alloc(query, &bytes, &scratch);
    }
    /* "(2 of 5)" for the runs the table lists; aplan_host_compute_tflm_arena's own run has no place in it. */
    char of[48] = "";
    for (size_t k = 0; k < s->run_count; k++) {
        if (&s->runs[k] == run) snprintf(of, sizeof of, " (%zu of %zu)", k + 1u, s->run_count);
    }
    aplan_host_progress_say(s, true, "planning %s%s", run->strategy->name, of);
    search_clock clock = {s, run->deadline_ms, 0.0, run->strategy->name, of, s->bound, run->searched,
                          run->searched && s->settings.time_limit_ns == 0, false};
    /* Asked only for the interrupt: no deadline stops it. */
    if (isinf(run->deadline_ms) || (!run->searched && s->settings.time_limit_ns == 0)) clock.deadline_ms = HUGE_VAL;
    aplan_search_options options;
    aplan_search_options_init(&options);
    options.goal = run->goal;
    options.start = run->start;
    /* A time limit of 0 means no search: heuristics then run to the end, and a search makes its start plan whole and
     * stops at its first look at the clock once searching (exact asks with 0 nodes while it makes its start). */
    const bool unbounded = isinf(run->deadline_ms) || (!run->searched && s->settings.time_limit_ns == 0);
    options.stop = unbounded && s->interrupt == NULL ? NULL : stop_at_deadline;
    options.context = &clock;
    /* The stop callback reads a clock: every 1024 nodes on small problems, more often on large ones, whose nodes
     * cost more, so that the deadline is kept to within a few milliseconds either way. */
    options.check_every = in->count < 64u ? 1024u : in->count > 65536u ? 1u : (uint32_t)(65536u / in->count);
    if (run->offsets != NULL) {
        for (size_t i = 0; i <= in->count; i++) run->offsets[i] = APLAN_NO_OFFSET;
    }
    if (st == APLAN_OK) {
        double t0 = now_ms();
        if (clock.deadline_ms == 0.0)
            clock.deadline_ms = aplan_host_clock_ms() + (double)s->settings.time_limit_ns / 1e6;
        st = aplan_plan_search(run->strategy, &p, &options, scratch, bytes, run->offsets, &run->result);
        run->millis = now_ms() - t0;
        run->out_of_time = clock.stopped;
    }
    free(scratch);
    /* A plan: APLAN_OK, or APLAN_E_CAPACITY_EXCEEDED with a verified plan above the capacity (a search's best plan;
     * when the bound alone exceeds the capacity there is none, and the arena is left 0). */
    bool above = st == APLAN_E_CAPACITY_EXCEEDED && run->result.arena_size > p.capacity;
    if (st == APLAN_OK || above) {
        /* Independent check with the public verifier: a plan is shown only when a second call accepts it. The
         * capacity is the verdict's business, not the plan's validity. */
        aplan_host_progress_say(s, true, "verifying %s%s", run->strategy->name, of);
        aplan_report r;
        aplan_problem any = p;
        any.capacity = APLAN_UNLIMITED;
        run->verified = aplan_host_verify(&any, run->offsets, run->result.arena_size, &r) == APLAN_OK;
        run->planned = true;
        if (run->result.arena_size > s->settings.capacity) {
            st = APLAN_E_CAPACITY_EXCEEDED;
            capacity_error(s, run);
        }
    } else if (st == APLAN_E_CAPACITY_EXCEEDED && run->result.outcome == APLAN_OUTCOME_INFEASIBLE) {
        capacity_error(s, run);
    } else if (st == APLAN_E_OFFSET_MISSING && !in->has_fixed) {
        /* offline named on an input without an offline plan: that, not its first buffer, is the reason. */
        snprintf(run->error, sizeof run->error, "the input has no fixed offsets (no offline plan)");
    } else {
        char text[180];
        aplan_host_describe_report(in, st, &run->result.report, text, sizeof text);
        snprintf(run->error, sizeof run->error, "%s", text);
    }
    run->status = st;
}

const char *aplan_host_unproven_reason(const aplan_host_session *s, const aplan_host_run *run, char *text,
                                       size_t size) {
    char limit[40];
    aplan_host_seconds_text(s->settings.time_limit_ns, limit, sizeof limit);
    const unsigned long long n = (unsigned long long)run->result.unsearched;
    if (run->out_of_time && n > 0)
        snprintf(text, size, "the search's time limit, %s s, ran out; a group of %llu buffers was too large to search, "
                 "and its plan was only slid down and up", limit, n);
    else if (run->out_of_time)
        snprintf(text, size, "the search's time limit, %s s, ran out", limit);
    else if (n > 0)
        snprintf(text, size, "a group of %llu buffers is too large to search, more than the search's memory holds: its "
                 "plan was slid down and up until that lowered it no more; a longer time limit changes nothing", n);
    else
        snprintf(text, size, "the search's budget ran out");
    return text;
}

const aplan_host_run *aplan_host_run_strategies(aplan_host_session *s, double t0_ms, bool tflm) {
    /* One deadline for the whole run, counted from before the checks. The runs go cheapest first, whatever the
     * table's order: those that cannot be stopped (no search member: linear, first_fit, offline; near-linear, so one
     * plan is always there), then the heuristics a deadline can cut short, then the searches with what is left. A
     * stoppable run whose turn comes after the deadline is not started once some plan is there: its sorting, stacking
     * and verifying would be time past the limit for a plan of no use (the first plan always comes, cut short if need
     * be; with a time limit of 0, which means no search, the heuristics run whole and a search starts). */
    const double deadline = t0_ms + (double)s->settings.time_limit_ns / 1e6;
    for (int pass = 0; pass < 3; pass++) {
        for (size_t i = 0; i < s->run_count; i++) {
            aplan_host_run *r = &s->runs[i];
            const bool stoppable = r->strategy->abi_version >= 2u && r->strategy->search != NULL;
            if (pass != (!stoppable ? 0 : aplan_strategy_searches(r->strategy) ? 2 : 1)) continue;
            if (s->interrupt != NULL && !s->interrupted && s->interrupt(s->interrupt_state)) s->interrupted = true;
            if (s->interrupted) return NULL;
            r->deadline_ms = deadline;
            if (pass > 0 && s->settings.time_limit_ns > 0 && aplan_host_clock_ms() >= deadline &&
                aplan_host_smallest_plan(s) != NULL) {
                char limit[40];
                aplan_host_seconds_text(s->settings.time_limit_ns, limit, sizeof limit);
                r->searched = aplan_strategy_searches(r->strategy);
                r->status = APLAN_E_STRATEGY_FAILED;
                snprintf(r->error, sizeof r->error, "not run: the time limit, %s s, had run out before its turn",
                         limit);
                continue;
            }
            aplan_host_run_one(s, r);
        }
    }
    if (s->auto_mode && !s->interrupted) aplan_host_auto_search(s, t0_ms);
    if (s->interrupted) return NULL;
    /* What TFLM's own planner gives, for the report's "in TFLM" lines and JSON, whatever -s chose. */
    if (tflm) aplan_host_compute_tflm_arena(s);
    const aplan_host_run *smallest = aplan_host_smallest_plan(s);
    /* auto's search started from the smallest cheap plan: when its plan fits and is no larger, its run (that plan, or
     * one as large, with what the search proved and the nodes it took) is the one to show. */
    const aplan_host_run *search = s->auto_mode && s->run_count > 0 && s->runs[s->run_count - 1u].start != NULL
                                ? &s->runs[s->run_count - 1u]
                                : NULL;
    if (search != NULL && search->status == APLAN_OK && smallest != NULL &&
        search->result.arena_size <= smallest->result.arena_size)
        smallest = search;
    if (tflm) aplan_host_compute_tflm_figures(s, smallest);
    if (smallest != NULL && smallest->status == APLAN_OK) s->best = (size_t)(smallest - s->runs);
    return smallest;
}

void aplan_host_keep_best(aplan_host_session *s) {
    if (!s->auto_mode || s->best == SIZE_MAX) return;
    aplan_host_run keep = s->runs[s->best];
    for (size_t i = 0; i < s->run_count; i++) {
        if (i != s->best) free(s->runs[i].offsets);
    }
    s->runs[0] = keep;
    s->run_count = 1;
    s->best = 0;
}

void aplan_host_whole_arena_capacity(aplan_host_session *s) {
    if (s->input->kind != APLAN_HOST_INPUT_TFLITE || s->settings.capacity == APLAN_UNLIMITED) return;
    s->settings.whole_capacity = s->settings.capacity;
    s->settings.capacity = s->problem.capacity = aplan_host_tflm_section_capacity(s, s->settings.capacity);
}

void aplan_host_auto_search(aplan_host_session *s, double t0_ms) {
    const aplan_strategy *exact = NULL;
    if (s->settings.time_limit_ns == 0 || aplan_strategy_find("exact", &exact) != APLAN_OK ||
        !aplan_strategy_searches(exact) ||
        s->run_count >= MAX_RUNS)
        return;
    /* With no cheap plan (each one's rule passed 2^64 - 1, where another order may fit) exact searches from none. */
    const aplan_host_run *best = aplan_host_smallest_plan(s);
    if (best != NULL && best->result.arena_size == s->bound) return; /* optimal already */
    uint64_t capacity = s->settings.capacity;
    /* A capacity: search only when no cheap plan fits it and the bound does (else nothing can, and the bound says
     * so). */
    if (capacity != APLAN_UNLIMITED && ((best != NULL && best->result.arena_size <= capacity) || s->bound > capacity))
        return;
    double deadline = t0_ms + (double)s->settings.time_limit_ns / 1e6;
    if (aplan_host_clock_ms() >= deadline) return; /* the cheap strategies used the whole limit */
    aplan_host_run *run = &s->runs[s->run_count++];
    memset(run, 0, sizeof *run);
    run->strategy = exact;
    if (best != NULL) {
        run->start = best->offsets; /* the best run stays in s->runs, so its offsets outlive the search */
        run->start_name = best->strategy->name;
    }
    run->deadline_ms = deadline;
    aplan_host_run_one(s, run);
}

void aplan_host_capacity_verdicts(const aplan_host_session *s, const aplan_host_run **proof,
                                  const aplan_host_run **ran_out) {
    *proof = *ran_out = NULL;
    for (size_t i = 0; i < s->run_count; i++) {
        const aplan_host_run *r = &s->runs[i];
        if (!r->searched || r->status != APLAN_E_CAPACITY_EXCEEDED) continue;
        if (r->result.outcome == APLAN_OUTCOME_INFEASIBLE && *proof == NULL) *proof = r;
        if (r->result.outcome == APLAN_OUTCOME_BEST_FOUND && *ran_out == NULL) *ran_out = r;
    }
}

bool aplan_host_best_proven(const aplan_host_session *s) {
    if (s->best == SIZE_MAX) return false;
    uint64_t arena = s->runs[s->best].result.arena_size;
    if (arena == s->bound) return true;
    /* A minimising search's OPTIMAL is about the problem, not about its own plan: no plan is smaller than that
     * arena, whoever found one of that size. */
    for (size_t i = 0; i < s->run_count; i++) {
        const aplan_host_run *r = &s->runs[i];
        if (r->planned && r->result.outcome == APLAN_OUTCOME_OPTIMAL && r->result.arena_size == arena) return true;
    }
    return false;
}

size_t aplan_host_live_at(const aplan_host_session *s, uint64_t step, size_t *largest, size_t k, uint64_t *bytes) {
    const aplan_host_input *in = s->input;
    size_t live = 0;
    *bytes = 0;
    for (size_t i = 0; i < in->count; i++) {
        const aplan_buffer *b = &in->buffers[i];
        uint64_t size = aplan_buffer_size(&s->problem, i);
        if (!(b->lower <= step && step < b->upper && size > 0)) continue;
        *bytes += size; /* the problem is valid: live sizes add up within 64 bits (the bound is their sum) */
        /* Insertion into the k largest so far; an equal size stays behind the earlier index. O(n k). */
        size_t at = live < k ? live : k;
        while (at > 0 && aplan_buffer_size(&s->problem, largest[at - 1u]) < size) {
            if (at < k) largest[at] = largest[at - 1u];
            at--;
        }
        if (at < k) largest[at] = i;
        live++;
    }
    return live;
}

const aplan_host_run *aplan_host_smallest_plan(const aplan_host_session *s) {
    const aplan_host_run *smallest = NULL;
    for (size_t i = 0; i < s->run_count; i++) {
        const aplan_host_run *r = &s->runs[i];
        if (r->planned && (smallest == NULL || r->result.arena_size < smallest->result.arena_size)) smallest = r;
    }
    return smallest;
}

/* True iff the input has buffers and every one has a fixed offset: the input is a whole offline plan. */
static bool all_fixed(const aplan_host_input *in) {
    if (!in->has_fixed) return false;
    for (size_t i = 0; i < in->count; i++) {
        if (in->buffers[i].offset == APLAN_NO_OFFSET) return false;
    }
    return true;
}

int aplan_host_each_list_name(const char *command, const char *list, aplan_host_name_found found, void *state,
                              aplan_host_error *err) {
    if (*list == '\0') {
        return aplan_host_error_set(err, APLAN_HOST_USAGE,
                                    "%s: empty strategy list (-s NAME[,NAME...], all or auto; see `aplan list`)",
                                    command);
    }
    const char *p = list;
    while (*p != '\0') {
        const char *comma = strchr(p, ',');
        size_t n = comma != NULL ? (size_t)(comma - p) : strlen(p);
        char name[64];
        if (n == 0 || n >= sizeof name) {
            return aplan_host_error_set(err, APLAN_HOST_USAGE, "%s: empty or overlong strategy name in '%s'", command,
                                        list);
        }
        memcpy(name, p, n);
        name[n] = '\0';
        const int rc = found(state, command, name, err);
        if (rc != APLAN_HOST_OK) return rc;
        p += n;
        if (*p == ',') {
            p++;
            if (*p == '\0') {
                return aplan_host_error_set(err, APLAN_HOST_USAGE, "%s: empty strategy name in '%s'", command, list);
            }
        }
    }
    return APLAN_HOST_OK;
}

/* aplan_host_each_list_name's callback for the built-in strategies: each added to the session's runs once (state NULL:
 * only checked); an unknown name is a usage error with a suggestion and the known names. */
static int add_strategy(void *state, const char *command, const char *name, aplan_host_error *err) {
    aplan_host_session *s = state;
    const aplan_strategy *st = NULL;
    if (aplan_strategy_find(name, &st) != APLAN_OK || st == NULL) {
        aplan_host_suggestion near;
        aplan_host_suggest_init(&near, name);
        for (size_t i = 0; i < aplan_strategy_count(); i++)
            aplan_host_suggest_consider(&near, aplan_strategy_at(i)->name);
        aplan_host_suggest_consider(&near, "all");
        aplan_host_suggest_consider(&near, "auto");
        char hint[96];
        aplan_host_suggest_text(&near, hint, sizeof hint);
        aplan_host_error_set(err, APLAN_HOST_USAGE, "%s: unknown strategy '%s'; %sknown:", command, name, hint);
        for (size_t i = 0; i < aplan_strategy_count(); i++)
            aplan_host_error_append(err, " %s,", aplan_strategy_at(i)->name);
        aplan_host_error_append(err, " all, auto");
        return APLAN_HOST_USAGE;
    }
    if (s != NULL) {
        bool duplicate = false;
        for (size_t i = 0; i < s->run_count; i++) duplicate = duplicate || s->runs[i].strategy == st;
        if (!duplicate && s->run_count < MAX_RUNS) s->runs[s->run_count++].strategy = st;
    }
    return APLAN_HOST_OK;
}

int aplan_host_check_strategy_list(const char *command, const char *list, aplan_host_error *err) {
    if (strcmp(list, "all") == 0 || strcmp(list, "auto") == 0) return APLAN_HOST_OK;
    return aplan_host_each_list_name(command, list, add_strategy, NULL, err);
}

int aplan_host_select_strategies(const char *list, aplan_host_session *s, aplan_host_error *err) {
    s->runs = calloc(MAX_RUNS, sizeof *s->runs);
    if (s->runs == NULL) {
        return aplan_host_error_set(err, APLAN_HOST_INTERNAL, "out of memory");
    }
    if (list == NULL || strcmp(list, "all") == 0 || strcmp(list, "auto") == 0) {
        /* offline can plan only an input whose every buffer is fixed, and there it is the answer: every other
         * strategy must keep the same offsets. Elsewhere it would only fail, so it is left out. */
        const aplan_strategy *offline = NULL;
        (void)aplan_strategy_find("offline", &offline);
        bool whole_plan = offline != NULL && all_fixed(s->input);
        s->auto_mode = list != NULL && strcmp(list, "auto") == 0;
        s->default_list = true;
        if (s->auto_mode && !whole_plan) {
            /* The library's auto set, in its tie order (TFLM's own plan first); the search, if any, comes after
             * them (aplan_host_auto_search). */
            for (size_t i = 0; i < aplan_strategy_auto_count() && s->run_count < MAX_RUNS; i++)
                s->runs[s->run_count++].strategy = aplan_strategy_auto_at(i);
            return APLAN_HOST_OK;
        }
        for (size_t i = 0; i < aplan_strategy_count() && s->run_count < MAX_RUNS; i++) {
            const aplan_strategy *st = aplan_strategy_at(i);
            if ((st == offline) == whole_plan) s->runs[s->run_count++].strategy = st;
        }
        return APLAN_HOST_OK;
    }
    /* The options' parser checked the list (aplan_host_check_strategy_list): no error is expected here. */
    return aplan_host_each_list_name("plan", list, add_strategy, s, err);
}

void aplan_host_session_free(aplan_host_session *s) {
    aplan_host_region_session_free(&s->regions);
    if (s->runs != NULL) {
        for (size_t i = 0; i < s->run_count; i++) free(s->runs[i].offsets);
    }
    free(s->runs);
}
