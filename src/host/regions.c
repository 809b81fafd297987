/*
 * Several memories in one plan (`plan` and `example` with --region NAME:SIZE[:ALIGN], repeated, fastest first, or a
 * --target with a memory map): the region session (the regions, each buffer's allowed regions and uses, the bounds),
 * running the region strategies (<aplan/regions.h>) with the time limit and verifying each plan independently, and
 * the writers of the formats for it (the CLI's cli_format.write_regions): the table, JSON, the C header and CSV. The
 * pictures are svg.c's. Host-only: it allocates; errors come back as values (aplan_host_error).
 */
#include <stdlib.h>
#include <string.h>

#include "host.h"

size_t aplan_host_option_regions(const aplan_host_options *o, const aplan_host_region_spec **specs) {
    const aplan_host_target *t = o->target != NULL ? aplan_host_target_find(o->target) : NULL;
    const aplan_host_region_spec *found = o->region_count > 0 ? o->regions : t != NULL ? t->regions : NULL;
    size_t count = o->region_count > 0 ? o->region_count : t != NULL ? t->region_count : 0;
    if (specs != NULL) *specs = found;
    return count;
}

/* aplan_host_each_list_name's callback for the region strategies: each added to the region session's runs once (state
 * NULL: only checked); a name that is not a region strategy is a usage error (saying so when it plans one arena). */
static int add_region_strategy(void *state, const char *command, const char *name, aplan_host_error *err) {
    aplan_host_region_session *g = state;
    const aplan_region_strategy *r = NULL;
    if (aplan_region_strategy_find(name, &r) != APLAN_OK) {
        const aplan_strategy *single = NULL;
        aplan_host_suggestion near;
        aplan_host_suggest_init(&near, name);
        for (size_t i = 0; i < aplan_region_strategy_count(); i++)
            aplan_host_suggest_consider(&near, aplan_region_strategy_at(i)->name);
        char hint[96], known[160] = "";
        aplan_host_suggest_text(&near, hint, sizeof hint);
        for (size_t i = 0; i < aplan_region_strategy_count(); i++) {
            size_t at = strlen(known);
            snprintf(known + at, sizeof known - at, "%s, ", aplan_region_strategy_at(i)->name);
        }
        return aplan_host_error_set(
            err, APLAN_HOST_USAGE, "%s: '%s' is not a region strategy%s; %swith --region: %sall, auto", command, name,
            aplan_strategy_find(name, &single) == APLAN_OK ? " (it plans one arena)" : "", hint, known);
    }
    for (size_t i = 0; g != NULL && i < g->run_count; i++) {
        if (g->runs[i].strategy == r) return APLAN_HOST_OK;
    }
    if (g != NULL) g->runs[g->run_count++].strategy = r;
    return APLAN_HOST_OK;
}

/* A -s list with regions: all, auto (select) or names of region strategies, into g's runs (g NULL: only checked). */
static int each_region_strategy(const char *command, const char *list, aplan_host_region_session *g,
                                aplan_host_error *err) {
    if (strcmp(list, "all") != 0 && strcmp(list, "auto") != 0)
        return aplan_host_each_list_name(command, list, add_region_strategy, g, err);
    for (size_t i = 0; i < aplan_region_strategy_count(); i++) {
        const aplan_region_strategy *r = aplan_region_strategy_at(i);
        if (strcmp(list, "all") == 0 || strcmp(r->name, "select") == 0)
            (void)add_region_strategy(g, command, r->name, err);
    }
    return APLAN_HOST_OK;
}

int aplan_host_check_region_strategy_list(const char *command, const char *list, aplan_host_error *err) {
    return each_region_strategy(command, list, NULL, err);
}

/* A region name as the part of a macro after PREFIX_REGION_ (c_part below): letters and digits upper-cased, any other
 * character '_'; then suffix. */
static void macro_part(char *out, size_t size, const char *name, const char *suffix) {
    size_t n = 0;
    for (; *name != '\0' && n + 1u < size; name++) {
        char c = *name;
        bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        out[n++] = !keep ? '_' : c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
    }
    out[n] = '\0';
    snprintf(out + n, size - n, "%s", suffix);
}

int aplan_host_check_region_c_names(const char *command, const aplan_host_options *o, aplan_host_error *err) {
    const aplan_host_region_spec *specs = NULL;
    const size_t count = aplan_host_option_regions(o, &specs);
    if (count == 0) return APLAN_HOST_OK;
    /* Every macro after PREFIX_REGION_ the header defines, and whose it is: the fixed ones, then each region's index,
     * size and alignment (aplan_host_write_region_c). Whatever the prefix, two of them are the same macro exactly when
     * these parts are equal. At most 2 + 3 x APLAN_HOST_MAX_REGIONS of them: the pairwise check is instant. */
    enum { MOST = 2u + 3u * APLAN_HOST_MAX_REGIONS };
    static const char *const kinds[3] = {"index", "size", "alignment"};
    static const char *const suffixes[3] = {"", "_SIZE", "_ALIGNMENT"};
    char parts[MOST][APLAN_HOST_REGION_NAME + 16u];
    const char *owner[MOST]; /* the region's name, or NULL for a fixed macro */
    const char *what[MOST];
    size_t n = 0;
    snprintf(parts[n], sizeof parts[n], "COUNT");
    owner[n] = NULL, what[n++] = "the number of regions";
    snprintf(parts[n], sizeof parts[n], "PLAN_H");
    owner[n] = NULL, what[n++] = "the include guard";
    for (size_t r = 0; r < count; r++) {
        for (size_t k = 0; k < 3u; k++, n++) {
            macro_part(parts[n], sizeof parts[n], specs[r].name, suffixes[k]);
            owner[n] = specs[r].name, what[n] = kinds[k];
            for (size_t j = 0; j < n; j++) {
                if (strcmp(parts[j], parts[n]) != 0) continue;
                const char *prefix = o->name != NULL ? o->name : "aplan";
                char up[64];
                size_t m = 0;
                for (; prefix[m] != '\0' && m + 1u < sizeof up; m++)
                    up[m] = prefix[m] >= 'a' && prefix[m] <= 'z' ? (char)(prefix[m] - 'a' + 'A') : prefix[m];
                up[m] = '\0';
                const char *more = prefix[m] != '\0' ? "..." : "";
                if (owner[j] == NULL)
                    return aplan_host_error_set(
                        err, APLAN_HOST_USAGE,
                        "%s: -f c: region %s would define %s%s_REGION_%s, which the header defines as %s; rename "
                        "the region (in a macro, letters and digits are kept, case aside, and any other character "
                        "is '_')",
                        command, specs[r].name, up, more, parts[n], what[j]);
                return aplan_host_error_set(
                    err, APLAN_HOST_USAGE,
                    "%s: -f c: regions %s and %s would both define %s%s_REGION_%s (the %s of %s, the %s of "
                    "%s); rename one (in a macro, letters and digits are kept, case aside, and any other "
                    "character is '_')",
                    command, owner[j], specs[r].name, up, more, parts[n], what[j], owner[j], what[n], specs[r].name);
            }
        }
    }
    return APLAN_HOST_OK;
}

/* ------------------------------------------------------------------------------------------------------------ */
/* The session                                                                                                   */

/* Each buffer's uses: a model's from its graph (its kernels' scratch buffers: 1, the operator that asked), the
 * example's from its operators, a CSV's uses column; NULL (1 each) without. APLAN_HOST_OK, or the error printed. */
static int load_uses(aplan_host_session *s, aplan_host_error *err) {
    const aplan_host_input *in = s->input;
    aplan_host_region_session *g = &s->regions;
    if (in->kind == APLAN_HOST_INPUT_CSV) {
        if (in->csv.uses == NULL) return APLAN_HOST_OK;
        g->uses = malloc((in->count + 1u) * sizeof *g->uses);
        if (g->uses == NULL) goto oom;
        memcpy(g->uses, in->csv.uses, in->count * sizeof *g->uses);
        return APLAN_HOST_OK;
    }
    g->uses = malloc((in->count + 1u) * sizeof *g->uses);
    if (g->uses == NULL) goto oom;
    for (size_t i = 0; i < in->count; i++) g->uses[i] = 1u;
    if (in->kind == APLAN_HOST_INPUT_EXAMPLE) {
        aplan_host_example_uses(g->uses, in->count);
        return APLAN_HOST_OK;
    }
    aplan_format_error e;
    size_t bytes = 0;
    aplan_status st = aplan_tflite_uses_scratch_size(in->model, in->model_size, &bytes, &e);
    void *scratch = st == APLAN_OK ? malloc(bytes + 8u) : NULL;
    if (st == APLAN_OK && scratch == NULL) goto oom;
    if (st == APLAN_OK)
        st = aplan_tflite_uses(in->model, in->model_size, scratch, bytes, in->tflite_ids, in->tensor_count, g->uses,
                               &e);
    free(scratch);
    if (st != APLAN_OK) {
        return aplan_host_error_set(
            err, APLAN_HOST_BAD_INPUT, "%s: byte %llu: cannot count the operators of each tensor: %s", in->name,
            (unsigned long long)e.byte_offset, e.message[0] != '\0' ? e.message : aplan_status_str(st));
    }
    return APLAN_HOST_OK;
oom:
    return aplan_host_error_set(err, APLAN_HOST_INTERNAL, "out of memory");
}

/* Each buffer's allowed regions, from a CSV's region column: names of --region's separated by '|'; empty: any. */
static int load_pins(aplan_host_session *s, aplan_host_error *err) {
    const aplan_host_input *in = s->input;
    aplan_host_region_session *g = &s->regions;
    if (in->kind != APLAN_HOST_INPUT_CSV || in->csv.regions == NULL) return APLAN_HOST_OK;
    g->allowed = calloc(in->count + 1u, sizeof *g->allowed);
    if (g->allowed == NULL) {
        return aplan_host_error_set(err, APLAN_HOST_INTERNAL, "out of memory");
    }
    for (size_t i = 0; i < in->count; i++) {
        const char *text = in->csv.regions[i];
        for (const char *p = text; p != NULL && *p != '\0';) {
            const char *bar = strchr(p, '|');
            size_t n = bar != NULL ? (size_t)(bar - p) : strlen(p);
            size_t r = 0;
            for (; r < g->count; r++) {
                if (strlen(g->spec[r].name) == n && strncmp(g->spec[r].name, p, n) == 0) break;
            }
            if (r == g->count) {
                char names[APLAN_HOST_MAX_REGIONS * APLAN_HOST_REGION_NAME] = "";
                for (size_t k = 0; k < g->count; k++) {
                    size_t at = strlen(names);
                    snprintf(names + at, sizeof names - at, "%s%s", k > 0 ? ", " : "", g->spec[k].name);
                }
                return aplan_host_error_set(err, APLAN_HOST_BAD_INPUT,
                                            "%s: line %u: region '%.*s' is not one of the regions (%s)", in->name,
                                            (unsigned)in->lines[i], (int)n, p, names);
            }
            g->allowed[i] |= UINT64_C(1) << r;
            p = bar != NULL ? bar + 1 : p + n;
        }
    }
    return APLAN_HOST_OK;
}

/* The regions of o into s (region mode): the problem then has no capacity of its own. */
static void init_regions(aplan_host_session *s, const aplan_host_options *o) {
    const aplan_host_region_spec *specs = NULL;
    aplan_host_region_session *g = &s->regions;
    g->count = aplan_host_option_regions(o, &specs);
    for (size_t r = 0; r < g->count; r++) {
        g->spec[r] = specs[r];
        g->regions[r] = (aplan_region){g->spec[r].name, specs[r].size, specs[r].align, {0, 0}};
    }
    g->best = SIZE_MAX;
    g->persistent_region = SIZE_MAX;
    g->persistent_bytes = 0;
    s->settings.capacity = APLAN_UNLIMITED;
    s->settings.capacity_from_target = false;
    s->problem.capacity = APLAN_UNLIMITED;
}

/* Check the problem with its regions once: the broken rule in words, naming the buffer and the region. */
static int check_regions(const aplan_host_session *s, aplan_host_error *err) {
    const aplan_host_region_session *g = &s->regions;
    aplan_report r;
    aplan_status st = aplan_regions_validate(&s->problem, &g->set, &r);
    if (st == APLAN_OK) return APLAN_HOST_OK;
    const aplan_host_input *in = s->input;
    if (st == APLAN_E_BAD_REGION && r.buffer_a < in->count && in->buffers[r.buffer_a].offset != APLAN_NO_OFFSET) {
        /* A fixed offset is an offset in one region: the input must say which. */
        char who[160];
        aplan_host_describe_buffer(in, r.buffer_a, who, sizeof who);
        return aplan_host_error_set(
            err, APLAN_HOST_BAD_INPUT,
            "%s: %s has a fixed offset (%s) but may go to more than one region: a fixed offset is in one "
            "region%s",
            in->name, who, in->kind == APLAN_HOST_INPUT_TFLITE ? "the model's offline plan" : "its offset column",
            in->kind == APLAN_HOST_INPUT_CSV ? "; pin it with a region column" : "; plan it with one arena");
    }
    if (st == APLAN_E_SIZE_OVERFLOW && r.buffer_a < in->count) {
        /* The problem itself passed aplan_host_check_problem: what overflows is the traffic, the sum of size x uses
         * over the buffers that may leave region 0 (report: the buffer where it passes, value its size, limit its
         * uses). */
        char who[160];
        aplan_host_describe_buffer(in, r.buffer_a, who, sizeof who);
        return aplan_host_error_set(
            err, APLAN_HOST_BAD_INPUT,
            "%s: invalid problem with these regions: the slow-memory traffic (each buffer's size times its uses, "
            "summed) passes 2^64 - 1 bytes at %s: size %llu, %llu use%s",
            in->name, who, (unsigned long long)r.value, (unsigned long long)r.limit, aplan_host_s(r.limit));
    }
    char text[400];
    aplan_host_describe_report(s->input, st, &r, text, sizeof text);
    /* A buffer larger than every region it may go to: a question of fit (exit 4), as a capacity is for one arena. */
    const bool fit = st == APLAN_E_CAPACITY_EXCEEDED;
    return aplan_host_error_set(err, fit ? APLAN_HOST_NO_FIT : APLAN_HOST_BAD_INPUT,
                                "%s: %s with these regions: %s%s%s", s->input->name,
                                fit ? "does not fit" : "invalid problem", text, r.in_region ? " in " : "",
                                r.in_region && r.region < g->count ? g->spec[r.region].name : "");
}

/* A search's stop: the session's clock against the run's deadline. The region strategies' heuristic steps (banked's
 * placement, select's steps and the single-region strategies it runs) ask with 0 nodes and stop there too, each
 * keeping its best plan so far; with --time-limit 0 they run to the end (as plan's fast strategies do) and only a
 * search, asking with nodes > 0, stops at its first look at the clock. */
typedef struct region_clock {
    double deadline_ms;
    bool whole_start; /* --time-limit 0 */
} region_clock;

static bool past_deadline(void *context, uint64_t nodes) {
    const region_clock *c = context;
    if (c->whole_start && nodes == 0) return false;
    return aplan_host_clock_ms() >= c->deadline_ms;
}

/* Plan with run->strategy, stopped at deadline_ms (aplan_host_clock_ms), then verify independently; failures in
 * run->status and run->error. */
static void run_one(aplan_host_session *s, aplan_host_region_run *run, size_t k, double deadline_ms) {
    const aplan_host_input *in = s->input;
    aplan_host_region_session *g = &s->regions;
    aplan_host_progress_say(s, true, "planning %s (%zu of %zu)", run->strategy->name, k + 1u, g->run_count);
    run->region_of = malloc((in->count + 1u) * sizeof *run->region_of);
    run->offsets = malloc((in->count + 1u) * sizeof *run->offsets);
    size_t bytes = 0;
    void *scratch = NULL;
    aplan_status st = APLAN_E_OUT_OF_MEMORY;
    if (run->region_of != NULL && run->offsets != NULL) {
        st = aplan_region_plan_scratch_size(run->strategy, &s->problem, &g->set, &bytes);
        if (st == APLAN_OK && bytes > 0 && (scratch = malloc(bytes)) == NULL) st = APLAN_E_OUT_OF_MEMORY;
    }
    if (st == APLAN_OK) {
        region_clock clock = {deadline_ms, s->settings.time_limit_ns == 0};
        aplan_search_options options;
        aplan_search_options_init(&options);
        options.stop = past_deadline;
        options.context = &clock;
        options.check_every = in->count < 64u ? 1024u : in->count > 65536u ? 1u : (uint32_t)(65536u / in->count);
        double t0 = aplan_host_clock_ms();
        st = aplan_region_plan(run->strategy, &s->problem, &g->set, &options, scratch, bytes, run->region_of,
                               run->offsets, run->arenas, NULL, &run->result);
        run->millis = aplan_host_clock_ms() - t0;
    }
    free(scratch);
    run->status = st;
    bool over = st == APLAN_E_CAPACITY_EXCEEDED && run->result.regions_over > 0;
    if (st == APLAN_OK || over) {
        aplan_host_progress_say(s, true, "verifying %s", run->strategy->name);
        size_t need = 0;
        void *vs = NULL;
        aplan_report r;
        if (aplan_region_verify_scratch_size(&s->problem, &g->set, &need) == APLAN_OK &&
            (vs = malloc(need + 8u)) != NULL) {
            aplan_status v = aplan_region_verify(&s->problem, &g->set, run->region_of, run->offsets, run->arenas, vs,
                                                 need, &r);
            run->verified = v == APLAN_OK || v == APLAN_E_CAPACITY_EXCEEDED;
        }
        free(vs);
        run->planned = true;
    }
    if (st == APLAN_OK) return;
    const aplan_report *r = &run->result.report;
    if (over || (st == APLAN_E_CAPACITY_EXCEEDED && r->in_region && r->region < g->count)) {
        const size_t k2 = r->region < g->count ? r->region : 0;
        snprintf(run->error, sizeof run->error, "%s needs %llu byte%s, %llu more than its %llu%s",
                 g->spec[k2].name, (unsigned long long)r->value, aplan_host_s(r->value),
                 (unsigned long long)(r->value - r->limit), (unsigned long long)r->limit,
                 run->result.outcome == APLAN_OUTCOME_INFEASIBLE ? " (proven: no plan fits every region)" : "");
    } else {
        char text[180];
        aplan_host_describe_report(in, st, r, text, sizeof text);
        snprintf(run->error, sizeof run->error, "%s%s%s", text, r->in_region ? " in " : "",
                 r->in_region && r->region < g->count ? g->spec[r->region].name : "");
    }
}

/* a is a better plan than b: every region within its capacity first, then less traffic, then fewer bytes. */
static bool region_better(const aplan_host_region_session *g, const aplan_host_region_run *a,
                          const aplan_host_region_run *b) {
    if (a->result.regions_over != b->result.regions_over) return a->result.regions_over < b->result.regions_over;
    if (a->result.traffic != b->result.traffic) return a->result.traffic < b->result.traffic;
    uint64_t sa = 0, sb = 0;
    for (size_t r = 0; r < g->count; r++) {
        sa += a->arenas[r];
        sb += b->arenas[r];
    }
    return sa < sb;
}

int aplan_host_region_setup(const aplan_host_options *o, aplan_host_session *s, aplan_host_error *err) {
    init_regions(s, o);
    aplan_host_region_session *g = &s->regions;
    int rc = aplan_host_tflm_reserve_persistent(s, err);
    if (rc == APLAN_HOST_OK) rc = load_uses(s, err);
    if (rc == APLAN_HOST_OK) rc = load_pins(s, err);
    if (rc != APLAN_HOST_OK) return rc;
    g->set = (aplan_regions){g->regions, g->count, g->allowed, g->uses, {0}};
    if ((rc = aplan_host_check_problem(s, err)) != APLAN_HOST_OK || (rc = check_regions(s, err)) != APLAN_HOST_OK)
        return rc;
    return APLAN_HOST_OK;
}

int aplan_host_region_plan(const aplan_host_options *o, aplan_host_session *s, double deadline, aplan_host_error *err) {
    aplan_host_region_session *g = &s->regions;
    aplan_host_progress_say(s, true, "computing the bounds");
    size_t bytes = 0;
    void *scratch = NULL;
    aplan_status st = aplan_region_bounds_scratch_size(&s->problem, &g->set, &bytes);
    if (st == APLAN_OK && bytes > 0 && (scratch = malloc(bytes)) == NULL) st = APLAN_E_OUT_OF_MEMORY;
    if (st == APLAN_OK) st = aplan_region_bounds(&s->problem, &g->set, scratch, bytes, g->bounds, &g->traffic_bound);
    free(scratch);
    if (st != APLAN_OK) {
        return aplan_host_error_set(err, st == APLAN_E_OUT_OF_MEMORY ? APLAN_HOST_INTERNAL : APLAN_HOST_BAD_INPUT,
                                    "%s: cannot bound the regions: %s", s->input->name, aplan_status_str(st));
    }
    g->runs = calloc(aplan_region_strategy_count() + 1u, sizeof *g->runs);
    if (g->runs == NULL) {
        return aplan_host_error_set(err, APLAN_HOST_INTERNAL, "out of memory");
    }
    (void)each_region_strategy("plan", o->strategies != NULL ? o->strategies : "all", g, err);
    aplan_host_error_clear(err); /* the list was checked before (aplan_host_check_region_strategy_list) */
    for (size_t k = 0; k < g->run_count; k++) {
        aplan_host_region_run *run = &g->runs[k];
        run_one(s, run, k, deadline);
        if (run->planned && (g->best == SIZE_MAX || region_better(g, run, &g->runs[g->best]))) g->best = k;
    }
    return APLAN_HOST_OK;
}

void aplan_host_region_session_free(aplan_host_region_session *g) {
    for (size_t k = 0; g->runs != NULL && k < g->run_count; k++) {
        free(g->runs[k].region_of);
        free(g->runs[k].offsets);
    }
    free(g->runs);
    free(g->allowed);
    free(g->uses);
    memset(g, 0, sizeof *g);
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Writers                                                                                                       */

/* The region a run put buffer i in, by name. */
static const char *region_name(const aplan_host_session *s, const aplan_host_region_run *run, size_t i) {
    return s->regions.spec[run->region_of[i]].name;
}

/* "sram 131072 bytes, psram 8388608 bytes (offsets aligned to 32)": a region's alignment when it is more than the
 * problem's. */
static void write_region_list(FILE *out, const aplan_host_session *s) {
    const aplan_host_region_session *g = &s->regions;
    for (size_t r = 0; r < g->count; r++) {
        fprintf(out, "%s%s %llu byte%s", r > 0 ? ", " : "", g->spec[r].name, (unsigned long long)g->spec[r].size,
                aplan_host_s(g->spec[r].size));
        if (g->spec[r].align > s->settings.alignment)
            fprintf(out, " (offsets aligned to %llu)", (unsigned long long)g->spec[r].align);
    }
}

static const char *uses_source(const aplan_host_session *s) {
    switch (s->input->kind) {
    case APLAN_HOST_INPUT_TFLITE: return "the operators that read or write each tensor, from the graph";
    case APLAN_HOST_INPUT_EXAMPLE: return "the operators that read or write each tensor, from the example's graph";
    default: return s->regions.uses != NULL ? "the uses column" : "1 for every buffer (the input has no uses column)";
    }
}

/* Bytes in region r over all buffers a run placed there, and their traffic weight: for the best line. */
static void region_counts(const aplan_host_session *s, const aplan_host_region_run *run, size_t r, size_t *buffers) {
    *buffers = 0;
    for (size_t i = 0; i < s->input->count; i++) *buffers += run->region_of[i] == r;
}

int aplan_host_write_region_table(FILE *out, const aplan_host_session *s, const aplan_host_options *o,
                                  aplan_host_error *err) {
    (void)err; /* nothing here fails but a write, which ferror(out) tells */
    (void)o;
    const aplan_host_input *in = s->input;
    const aplan_host_region_session *g = &s->regions;
    (void)aplan_host_write_shown(out, in->name);
    fprintf(out, ": %zu buffer%s, alignment %llu, sizes %s; %zu region%s, fastest first: ", in->count,
            aplan_host_s(in->count), (unsigned long long)s->settings.alignment,
            s->settings.round_sizes ? "rounded up" : "as given", g->count, aplan_host_s(g->count));
    write_region_list(out, s);
    fputc('\n', out);
    fprintf(out, "lower bounds: ");
    for (size_t r = 0; r < g->count; r++)
        fprintf(out, "%s%s %llu", r > 0 ? ", " : "", g->spec[r].name, (unsigned long long)g->bounds[r]);
    fprintf(out, " bytes (what is pinned to each); traffic at least %llu byte%s\n",
            (unsigned long long)g->traffic_bound, aplan_host_s(g->traffic_bound));
    fprintf(out, "traffic: the bytes of the buffers outside %s times the operators that read or write them (uses: "
                 "%s)\n",
            g->spec[0].name, uses_source(s));
    aplan_host_coverage_text c;
    aplan_host_coverage(s, &c);
    fprintf(out, "covers: %s\n\n", c.what);
    fprintf(out, "  %-10s", "strategy");
    for (size_t r = 0; r < g->count; r++) fprintf(out, " %14.14s", g->spec[r].name);
    fprintf(out, " %16s %10s %-11s %10s  %s\n", "traffic", "over bound", "outcome", "time", "verified");
    for (size_t k = 0; k < g->run_count; k++) {
        const aplan_host_region_run *run = &g->runs[k];
        fprintf(out, "%c %-10s", k == g->best ? '*' : ' ', run->strategy->name);
        for (size_t r = 0; r < g->count; r++) {
            if (!run->planned) {
                fprintf(out, " %14s", "-");
                continue;
            }
            char cell[32];
            snprintf(cell, sizeof cell, "%llu%s", (unsigned long long)run->arenas[r],
                     run->arenas[r] > g->regions[r].capacity ? " over" : "");
            fprintf(out, " %14s", cell);
        }
        if (!run->planned) {
            fprintf(out, " %16s %10s %-11s %8.3f ms  %s\n", "-", "-", "-", run->millis, "-");
            continue;
        }
        const char *outcome = run->result.outcome == APLAN_OUTCOME_OPTIMAL      ? "optimal"
                              : run->result.outcome == APLAN_OUTCOME_INFEASIBLE ? "infeasible"
                              : run->result.outcome == APLAN_OUTCOME_BEST_FOUND ? "best found"
                              : run->result.outcome == APLAN_OUTCOME_FITS       ? "fits"
                                                                                : "plan";
        char over[32];
        if (run->result.regions_over > 0) snprintf(over, sizeof over, "-"); /* one that does not fit: nothing */
        else if (g->traffic_bound == 0) snprintf(over, sizeof over, "%s", run->result.traffic == 0 ? "+0.0%" : "-");
        else snprintf(over, sizeof over, "%+.1f%%", aplan_host_overhead_percent(run->result.traffic, g->traffic_bound));
        fprintf(out, " %16llu %10s %-11s %8.3f ms  %s\n", (unsigned long long)run->result.traffic, over, outcome,
                run->millis, run->verified ? "yes" : "NO");
    }
    for (size_t k = 0; k < g->run_count; k++) {
        const aplan_host_region_run *run = &g->runs[k];
        if (run->status != APLAN_OK) fprintf(out, "  %s: %s\n", run->strategy->name, run->error);
    }
    if (g->best == SIZE_MAX) return APLAN_HOST_OK;
    const aplan_host_region_run *best = &g->runs[g->best];
    fprintf(out, "\nbest: %s, traffic %llu byte%s", best->strategy->name, (unsigned long long)best->result.traffic,
            aplan_host_s(best->result.traffic));
    for (size_t k = 0; k < g->run_count; k++) { /* a search that proved this traffic least proves it for every plan */
        const aplan_host_region_run *run = &g->runs[k];
        if (best->status == APLAN_OK && run->status == APLAN_OK && run->result.outcome == APLAN_OUTCOME_OPTIMAL &&
            run->result.traffic == best->result.traffic) {
            fprintf(out, ": proven least (%s)", run->strategy->name);
            break;
        }
    }
    fputc('\n', out);
    for (size_t r = 0; r < g->count; r++) {
        size_t n;
        region_counts(s, best, r, &n);
        /* The region holding TFLM's persistent data counts it: the plan had what it leaves. */
        const bool held = r == g->persistent_region;
        const uint64_t cap = g->spec[r].size, used = best->arenas[r] + (held ? g->persistent_bytes : 0u);
        fprintf(out, "  %-14s %zu buffer%s", g->spec[r].name, n, aplan_host_s(n));
        if (held) fprintf(out, " and TFLM's persistent data (%llu bytes)", (unsigned long long)g->persistent_bytes);
        fprintf(out, ", %llu of %llu bytes", (unsigned long long)used, (unsigned long long)cap);
        if (used <= cap) fprintf(out, " (%.1f%%), %llu free\n", cap ? 100.0 * (double)used / (double)cap : 0.0,
                                 (unsigned long long)(cap - used));
        else fprintf(out, ": %llu over\n", (unsigned long long)(used - cap));
    }
    if (best->status == APLAN_OK) fprintf(out, "fits: every region within its capacity\n");
    else fprintf(out, "does not fit: %s\n", best->error);
    if (in->kind == APLAN_HOST_INPUT_TFLITE) aplan_host_write_tflm_regions(out, s);
    return APLAN_HOST_OK;
}

int aplan_host_write_region_json(FILE *out, const aplan_host_session *s, const aplan_host_options *o,
                                 aplan_host_error *err) {
    (void)err; /* nothing here fails but a write, which ferror(out) tells */
    (void)o;
    const aplan_host_input *in = s->input;
    const aplan_host_region_session *g = &s->regions;
    fprintf(out, "{\n  \"aplan_version\": \"%s\",\n  \"input\": {\"name\": ", aplan_version());
    aplan_host_json_string(out, in->name);
    fprintf(out, ", \"kind\": \"%s\", \"buffers\": %zu, \"alignment\": %llu, \"round_sizes\": %s},\n",
            in->kind == APLAN_HOST_INPUT_TFLITE ? "tflite"
            : in->kind == APLAN_HOST_INPUT_CSV  ? "csv"
                                                : "example",
            in->count, (unsigned long long)s->settings.alignment, s->settings.round_sizes ? "true" : "false");
    fputs("  \"regions\": [", out);
    for (size_t r = 0; r < g->count; r++) {
        fprintf(out, "%s\n    {\"name\": ", r > 0 ? "," : "");
        aplan_host_json_string(out, g->spec[r].name);
        /* tflm_persistent: TFLM's persistent data counted in this region (the plan had capacity minus it). */
        fprintf(out, ", \"capacity\": %llu, \"alignment\": %llu, \"lower_bound\": %llu, \"tflm_persistent\": %llu}",
                (unsigned long long)g->spec[r].size, (unsigned long long)g->spec[r].align,
                (unsigned long long)g->bounds[r],
                (unsigned long long)(r == g->persistent_region ? g->persistent_bytes : 0u));
    }
    fprintf(out, "],\n  \"traffic_bound\": %llu, \"uses_from\": \"%s\",\n", (unsigned long long)g->traffic_bound,
            in->kind == APLAN_HOST_INPUT_CSV ? (g->uses != NULL ? "csv" : "default") : "graph");
    fputs("  \"best\": ", out);
    if (g->best == SIZE_MAX) fputs("null", out);
    else aplan_host_json_string(out, g->runs[g->best].strategy->name);
    fprintf(out, ", \"fits\": %s,\n  \"strategies\": [",
            g->best != SIZE_MAX && g->runs[g->best].status == APLAN_OK ? "true" : "false");
    for (size_t k = 0; k < g->run_count; k++) {
        const aplan_host_region_run *run = &g->runs[k];
        fprintf(out, "%s\n    {\"name\": \"%s\", \"status\": ", k > 0 ? "," : "", run->strategy->name);
        aplan_host_json_string(out, run->status == APLAN_OK ? "ok" : aplan_status_str(run->status));
        fputs(", \"error\": ", out);
        if (run->status == APLAN_OK) fputs("null", out);
        else aplan_host_json_string(out, run->error);
        if (!run->planned) {
            fprintf(out, ", \"planned\": false, \"time_ms\": %.6f}", run->millis);
            continue;
        }
        fputs(", \"planned\": true, \"arenas\": [", out);
        for (size_t r = 0; r < g->count; r++)
            fprintf(out, "%s%llu", r > 0 ? ", " : "", (unsigned long long)run->arenas[r]);
        const char *outcome = run->result.outcome == APLAN_OUTCOME_OPTIMAL      ? "optimal"
                              : run->result.outcome == APLAN_OUTCOME_INFEASIBLE ? "infeasible"
                              : run->result.outcome == APLAN_OUTCOME_BEST_FOUND ? "best_found"
                              : run->result.outcome == APLAN_OUTCOME_FITS       ? "fits"
                                                                                : "plan";
        fprintf(out, "], \"regions_over\": %u, \"traffic\": %llu, \"outcome\": \"%s\", \"nodes\": %llu, "
                     "\"time_ms\": %.6f, \"verified\": %s, \"best\": %s,\n      \"region_of\": [",
                run->result.regions_over, (unsigned long long)run->result.traffic, outcome,
                (unsigned long long)run->result.nodes, run->millis, run->verified ? "true" : "false",
                k == g->best ? "true" : "false");
        for (size_t i = 0; i < in->count; i++) fprintf(out, "%s%u", i > 0 ? ", " : "", run->region_of[i]);
        fputs("],\n      \"offsets\": [", out);
        for (size_t i = 0; i < in->count; i++)
            fprintf(out, "%s%llu", i > 0 ? ", " : "", (unsigned long long)run->offsets[i]);
        fputs("]}", out);
    }
    fputs("],\n  \"buffers\": [", out);
    for (size_t i = 0; i < in->count; i++) {
        const aplan_buffer *b = &in->buffers[i];
        fprintf(out, "%s\n    {\"id\": ", i > 0 ? "," : "");
        aplan_host_json_string(out, in->ids[i]);
        fprintf(out, ", \"size\": %llu, \"lower\": %llu, \"upper\": %llu, \"uses\": %llu, \"allowed\": ",
                (unsigned long long)aplan_buffer_size(&s->problem, i), (unsigned long long)b->lower,
                (unsigned long long)b->upper, (unsigned long long)(g->uses != NULL ? g->uses[i] : 1u));
        if (g->allowed == NULL || g->allowed[i] == 0) {
            fputs("null}", out);
            continue;
        }
        fputc('[', out);
        for (size_t r = 0, n = 0; r < g->count; r++) {
            if (((g->allowed[i] >> r) & 1u) == 0) continue;
            if (n++ > 0) fputs(", ", out);
            aplan_host_json_string(out, g->spec[r].name);
        }
        fputs("]}", out);
    }
    fputs("]\n}\n", out);
    return APLAN_HOST_OK;
}

/* An identifier's part from a region name: letters and digits kept, anything else '_'; upper-cased for macros. */
static void c_part(FILE *out, const char *name, bool upper) {
    for (; *name != '\0'; name++) {
        char c = *name;
        bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!keep) c = '_';
        else if (upper && c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
        fputc(c, out);
    }
}

int aplan_host_write_region_c(FILE *out, const aplan_host_session *s, const aplan_host_options *o,
                              aplan_host_error *err) {
    (void)err; /* nothing here fails but a write, which ferror(out) tells */
    const aplan_host_input *in = s->input;
    const aplan_host_region_session *g = &s->regions;
    const aplan_host_region_run *run = &g->runs[g->best];
    const char *prefix = o->name != NULL ? o->name : "aplan";
    /* Region names whose macros collide were refused with the options (aplan_host_check_region_c_names). */
    const size_t n = strlen(prefix);
    char *up = malloc(n + 1u); /* the prefix of macros, whole */
    if (up == NULL) return APLAN_HOST_INTERNAL;
    for (size_t i = 0; i <= n; i++)
        up[i] = prefix[i] >= 'a' && prefix[i] <= 'z' ? (char)(prefix[i] - 'a' + 'A') : prefix[i];
    uint64_t most = 0;
    for (size_t r = 0; r < g->count; r++) most = run->arenas[r] > most ? run->arenas[r] : most;
    const bool wide = most > UINT32_MAX;
    const char *suffix = wide ? "ull" : "u";
    fprintf(out,
            "/* Generated by aplan %s with region strategy %s: %zu buffer%s in %zu region%s, fastest first.\n"
            " * Each buffer's offset is in its own region's arena, whose base must be aligned to at least its\n"
            " * %s_REGION_<NAME>_ALIGNMENT. Slow-memory traffic %llu bytes (the bytes outside %s times the\n"
            " * operators that touch them). */\n",
            aplan_version(), run->strategy->name, in->count, aplan_host_s(in->count), g->count, aplan_host_s(g->count),
            up, (unsigned long long)run->result.traffic, g->spec[0].name);
    fprintf(out, "#ifndef %s_REGION_PLAN_H\n#define %s_REGION_PLAN_H\n\n#include <stdint.h>\n\n", up, up);
    fprintf(out, "#define %s_REGION_COUNT %zuu\n", up, g->count);
    for (size_t r = 0; r < g->count; r++) {
        fprintf(out, "#define %s_REGION_", up);
        c_part(out, g->spec[r].name, true);
        fprintf(out, " %zuu\n#define %s_REGION_", r, up);
        c_part(out, g->spec[r].name, true);
        fprintf(out, "_SIZE %llu%s /* the arena it needs, of %llu */\n#define %s_REGION_",
                (unsigned long long)run->arenas[r], suffix, (unsigned long long)g->spec[r].size, up);
        c_part(out, g->spec[r].name, true);
        fprintf(out, "_ALIGNMENT %llu%s\n", (unsigned long long)(g->spec[r].align > s->settings.alignment
                                                                      ? g->spec[r].align
                                                                      : s->settings.alignment),
                suffix);
    }
    fprintf(out, "#define %s_BUFFER_COUNT %zuu\n\n", up, in->count);
    fprintf(out, "static const char *const %s_region_names[%s_REGION_COUNT] = {", prefix, up);
    for (size_t r = 0; r < g->count; r++) fprintf(out, "%s\"%s\"", r > 0 ? ", " : "", g->spec[r].name);
    fputs("};\n", out);
    if (in->count > 0) {
        fprintf(out, "\n/* Each buffer's region (%s_REGION_<NAME>), in input order. */\n", up);
        fprintf(out, "static const uint8_t %s_buffer_regions[%s_BUFFER_COUNT] = {\n", prefix, up);
        for (size_t i = 0; i < in->count; i++)
            fprintf(out, "    %u, /* %zu %s */\n", run->region_of[i], i, region_name(s, run, i));
        fprintf(out, "};\n\n/* Each buffer's offset in its region's arena. */\n");
        fprintf(out, "static const %s %s_buffer_offsets[%s_BUFFER_COUNT] = {\n", wide ? "uint64_t" : "uint32_t",
                prefix, up);
        for (size_t i = 0; i < in->count; i++) {
            fprintf(out, "    %llu%s, /* %zu ", (unsigned long long)run->offsets[i], suffix, i);
            for (const char *c = in->ids[i]; *c != '\0'; c++) {
                bool safe = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
                            *c == '_' || *c == '-' || *c == '.' || *c == ':' || *c == ' ' || *c == '/';
                fputc(safe ? *c : '?', out);
            }
            fprintf(out, ": steps [%llu, %llu) */\n", (unsigned long long)in->buffers[i].lower,
                    (unsigned long long)in->buffers[i].upper);
        }
        fputs("};\n", out);
    }
    fprintf(out, "\n#endif /* %s_REGION_PLAN_H */\n", up);
    free(up);
    return APLAN_HOST_OK;
}
