/*
 * The handlers of the command table (main.c), and emit, which writes a session in the chosen format. Each handler
 * loads its input, runs a session and maps every outcome to an exit code (cli.h) with the error printed; results go
 * to stdout or -o FILE, errors to stderr.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "aplan/strategies.h"
#include "cli.h"

/* What emit writes: the session in the format -o and -f chose, from run. */
typedef struct emit_state {
    const cli_options *o;
    const aplan_host_session *s;
    const aplan_host_run *run;
} emit_state;

/* cli_writer of emit. */
static int write_session(FILE *out, void *state) {
    const emit_state *e = state;
    const cli_format *f = &cli_formats[e->o->format];
    cli_progress_writing(out, f->what);
    errno = 0;
    aplan_host_error err = {0};
    int rc = cli_report(f->write(out, e->s, e->run, &e->o->host, &err), &err);
    return rc == CLI_EXIT_OK && ferror(out) != 0 ? CLI_EXIT_IO : rc;
}

/* Write the session to -o FILE (replaced only when complete) or stdout in the chosen format, from run: the best plan
 * (NULL: none, which only a format of the whole session takes), or the smallest when none fits; any write failure is
 * an I/O error, printed with its reason. */
static int emit(const cli_options *o, const aplan_host_session *s, const aplan_host_run *run) {
    const cli_format *f = &cli_formats[o->format];
    if (f->needs == CLI_NEEDS_PLAN && run == NULL) { /* run_strategies never asks for it */
        cli_error("no plan to write as %s", f->what);
        return CLI_EXIT_INTERNAL;
    }
    emit_state e = {o, s, run};
    return cli_write_output(o->output, write_session, &e);
}

/* Check the input, compute the bound and run the strategies of `list` (-s syntax); s->best is then the smallest
 * verified plan within the capacity. Returns CLI_EXIT_OK, or the exit code with the reason printed; with show (plan:
 * the table or JSON is the result) the table or JSON of a failed run is written too, so that a plan that does not
 * fit still shows every strategy's size, the verdict and what dominates the peak. */
static int run_strategies(const cli_options *o, aplan_host_session *s, const char *list, bool show) {
    aplan_host_error err = {0};
    const aplan_host_input *in = s->input;
    const double t0 = aplan_host_clock_ms(); /* the time limit's start: the input is read */
    int rc = cli_report(aplan_host_prepare(s, list, &err), &err);
    if (rc != CLI_EXIT_OK) return rc;
    /* The runs under one deadline (aplan_host_run_strategies): reading the input is done, writing comes after. */
    const aplan_host_run *smallest = aplan_host_run_strategies(s, t0, show && in->kind == APLAN_HOST_INPUT_TFLITE);
    if (smallest != NULL && smallest->status == APLAN_OK) return CLI_EXIT_OK;
    /* What a search found out about the capacity: proven that nothing fits, or out of time before finding a fit. */
    const aplan_host_run *proof, *ran_out;
    aplan_host_capacity_verdicts(s, &proof, &ran_out);
    /* Plans that do not fit are still plans: a format of the whole session (the table, JSON) shows them (exit 4), and
     * so does a search that proved that none fits; a format of one plan that is written then (cli_format.when_no_fit)
     * gets the smallest. When no strategy planned (exit 3) there is nothing to show, and nothing is written. */
    const cli_format *f = &cli_formats[o->format];
    bool session = f->needs == CLI_NEEDS_SESSION;
    if (show && f->when_no_fit && (smallest != NULL || (session && proof != NULL)))
        (void)emit(o, s, session ? NULL : smallest);
    return cli_report(aplan_host_no_plan(s, smallest, &err), &err);
}

/* A CSV with a `region` column read without regions: said, not ignored (which would plan, or check, every buffer in
 * one arena against what the file says). true when refused (the error printed). */
static bool region_column_refused(const aplan_host_input *in) {
    if (in->kind != APLAN_HOST_INPUT_CSV || (in->csv_columns & APLAN_CSV_HAS_REGION) == 0) return false;
    cli_error("%s: it has a 'region' column, which only --region (or a --target with a memory map) reads: give the "
              "regions (--region NAME:SIZE, repeated, fastest first), or leave the column out",
              in->name);
    return true;
}

static int plan_input(const cli_options *o, aplan_host_input *in) {
    if (aplan_host_option_regions(&o->host, NULL) > 0) return cli_plan_regions(o, in);
    if (region_column_refused(in)) return CLI_EXIT_BAD_INPUT;
    aplan_host_session s;
    cli_session_init(&s, o, in);
    aplan_host_whole_arena_capacity(&s);
    int rc = run_strategies(o, &s, o->host.strategies, true);
    if (rc == CLI_EXIT_OK) aplan_host_keep_best(&s);
    if (rc == CLI_EXIT_OK) rc = emit(o, &s, &s.runs[s.best]);
    /* The planned section fits what the capacity leaves it; TFLM's whole arena, its working peak included, may
     * still not. */
    if (rc == CLI_EXIT_OK && s.settings.whole_capacity != APLAN_UNLIMITED &&
        s.tflm_own.status == APLAN_E_FORMAT_UNSUPPORTED) {
        cli_error("%s: %s", in->name, s.tflm_own.why); /* a capacity asks whether TFLM runs it there: it does not */
        rc = CLI_EXIT_REFUSED;
    }
    const aplan_host_tflm_figures *f = aplan_host_tflm_setup(&s); /* the verdict's setup: one that fits when any does */
    if (rc == CLI_EXIT_OK && s.settings.whole_capacity != APLAN_UNLIMITED && f != NULL &&
        f->info.smallest > s.settings.whole_capacity) {
        cli_error("%s: TFLM's smallest arena (%s) is %llu byte%s, %llu more than the capacity of %llu bytes", in->name,
                  aplan_host_tflm_way(&s, f), (unsigned long long)f->info.smallest, aplan_host_s(f->info.smallest),
                  (unsigned long long)(f->info.smallest - s.settings.whole_capacity),
                  (unsigned long long)s.settings.whole_capacity);
        rc = CLI_EXIT_NO_FIT;
    }
    aplan_host_session_free(&s);
    return rc;
}

/* Loads the command's input file (the problem), printing the error on failure, or a warning when its lifetimes look
 * inclusive or empty. */
static int load_arg(const cli_options *o, aplan_host_input *in) {
    char message[512];
    int rc = aplan_host_load(o->args[0], cli_max_input(o), in, message, sizeof message);
    if (rc != CLI_EXIT_OK) cli_error("%s", message);
    else if (aplan_host_warn_lifetimes(NULL, in)) {
        cli_progress_end(); /* the warning's lines start on a clear line */
        (void)aplan_host_warn_lifetimes(stderr, in);
    }
    return rc;
}

/* A model's buffers are its tensors and its kernels' scratch requests, as TFLM plans them. */
static int add_scratch(const cli_options *o, aplan_host_input *in) {
    char message[512];
    aplan_tflm_config c;
    int rc = aplan_host_tflm_config(&o->host, &c, message, sizeof message);
    if (rc == CLI_EXIT_OK) rc = aplan_host_add_tflm_scratch(in, &c, message, sizeof message, NULL);
    if (rc != CLI_EXIT_OK) {
        cli_error("%s", message);
        aplan_host_input_free(in);
    }
    return rc;
}

int cli_cmd_plan(const cli_options *o) {
    cli_progress_begin(); /* plan, bound and verify: the commands that run long on large inputs */
    cli_progress("reading %s", o->args[0]);
    aplan_host_input in;
    int rc = load_arg(o, &in);
    if (rc == CLI_EXIT_OK) rc = add_scratch(o, &in);
    if (rc != CLI_EXIT_OK) return rc;
    rc = plan_input(o, &in);
    aplan_host_input_free(&in);
    return rc;
}

int cli_cmd_example(const cli_options *o) {
    aplan_host_input in;
    if (aplan_host_example(&in) != CLI_EXIT_OK) {
        cli_error("out of memory");
        return CLI_EXIT_INTERNAL;
    }
    int rc;
    if (o->graph) {
        aplan_host_example_describe(stdout, &in);
        rc = cli_flush_stdout();
    } else {
        rc = plan_input(o, &in);
    }
    aplan_host_input_free(&in);
    return rc;
}

int cli_cmd_bound(const cli_options *o) {
    aplan_host_error err = {0};
    cli_progress_begin();
    cli_progress("reading %s", o->args[0]);
    aplan_host_input in;
    int rc = load_arg(o, &in);
    if (rc == CLI_EXIT_OK) rc = add_scratch(o, &in);
    if (rc != CLI_EXIT_OK) return rc;
    aplan_host_session s;
    cli_session_init(&s, o, &in);
    cli_progress("checking the problem");
    rc = cli_report(aplan_host_check_problem(&s, &err), &err);
    cli_progress("computing the lower bound");
    if (rc == CLI_EXIT_OK) rc = cli_report(aplan_host_compute_bound(&s, &err), &err);
    if (rc == CLI_EXIT_OK) {
        cli_progress_writing(stdout, "the bound");
        enum { SHOWN = 20 };
        size_t largest[SHOWN];
        uint64_t live_sum;
        size_t live = aplan_host_live_at(&s, s.bound_step, largest, SHOWN, &live_sum);
        aplan_host_write_heading(stdout, &s);
        printf("at step %llu: %zu buffer%s live, %llu byte%s%s\n", (unsigned long long)s.bound_step, live,
               aplan_host_s(live), (unsigned long long)live_sum, aplan_host_s(live_sum),
               live > 1 ? ", largest first" : "");
        if (live_sum < s.bound)
            printf("(the bound comes from a single buffer or a fixed offset, above the live sum)\n");
        aplan_host_write_buffer_rows(stdout, &s, largest, live < SHOWN ? live : SHOWN);
        if (live > SHOWN) printf("  ... and %zu more\n", live - SHOWN);
        rc = cli_flush_stdout();
    }
    aplan_host_input_free(&in);
    return rc;
}

/* For a model: TFLM's whole arena with a planned section of `section` bytes (its own planner in the arena, as when the
 * plan is embedded), judged against the capacity when one was given. CLI_EXIT_OK; CLI_EXIT_NO_FIT when it does not
 * fit; CLI_EXIT_REFUSED (message printed) when TFLM refuses the model and a capacity asks whether it runs. */
static int verify_tflm_arena(const aplan_host_session *s, uint64_t section) {
    const aplan_host_input *in = s->input;
    if (in->kind != APLAN_HOST_INPUT_TFLITE || !in->has_tflm) return CLI_EXIT_OK;
    aplan_host_tflm_figures f;
    const bool known = aplan_host_tflm_section_figures(s, section, &f);
    printf("TFLM arena (tflite-micro %s, %s, %u-bit ABI, TFLM's own planner in the arena, this section): ",
           APLAN_TFLM_COMMIT, aplan_host_tflm_kernels_text(&in->tflm), in->tflm.abi);
    if (!known) {
        (void)aplan_host_write_shown(stdout, f.why);
        fputc('\n', stdout);
        if (f.status != APLAN_E_FORMAT_UNSUPPORTED || s->settings.whole_capacity == APLAN_UNLIMITED) return CLI_EXIT_OK;
        cli_error("%s: %s", in->name, f.why);
        return CLI_EXIT_REFUSED;
    }
    aplan_host_write_tflm_sum(stdout, &f);
    fputc('\n', stdout);
    const uint64_t whole = s->settings.whole_capacity, need = f.info.smallest;
    if (whole == APLAN_UNLIMITED) return CLI_EXIT_OK;
    if (need <= whole) {
        printf("fits: TFLM's arena needs %llu of %llu byte%s (%.1f%%); %llu byte%s free\n", (unsigned long long)need,
               (unsigned long long)whole, aplan_host_s(whole), whole > 0 ? (double)need * 100.0 / (double)whole : 0.0,
               (unsigned long long)(whole - need), aplan_host_s(whole - need));
        return CLI_EXIT_OK;
    }
    printf(
        "does not fit: TFLM's smallest arena with this plan is %llu byte%s, %llu more than the capacity (%llu bytes)\n",
        (unsigned long long)need, aplan_host_s(need), (unsigned long long)(need - whole), (unsigned long long)whole);
    return CLI_EXIT_NO_FIT;
}

/* `verify` with regions (--region, or a --target with a memory map): PLAN is a CSV with `offset` and `region` columns
 * (what `plan -f csv` writes with regions), its rows matched to PROBLEM's by id as without regions; each row's region
 * is one of the regions by name. A buffer the plan omits is unplaced (in the first region it may use). Each region's
 * arena is its highest end; aplan_region_verify checks the plan (each region's rules, the pins, the capacities, which
 * for a model's slowest region holding TFLM's persistent data are what it leaves, as `plan` counts it). Exit 0 with
 * the arenas and the traffic; 4 when it only passes a capacity; 5 naming the rule, the buffers and the region; 3 for a
 * plan that cannot be read as a region plan. O(n log n) time, O(n) memory. */
static int verify_regions(const cli_options *o, aplan_host_input *in) {
    aplan_host_error err = {0};
    const char *path = o->args[1];
    aplan_host_session s;
    cli_session_init(&s, o, in);
    cli_progress("checking the problem");
    int rc = cli_report(aplan_host_region_setup(&o->host, &s, &err), &err);
    const aplan_host_region_session *g = &s.regions;
    uint32_t *region_of = malloc((in->count + 1u) * sizeof *region_of);
    uint64_t *offsets = malloc((in->count + 1u) * sizeof *offsets);
    size_t *row_of = malloc((in->count + 1u) * sizeof *row_of);
    if (rc == CLI_EXIT_OK && (region_of == NULL || offsets == NULL || row_of == NULL)) {
        cli_error("out of memory");
        rc = CLI_EXIT_INTERNAL;
    }
    aplan_host_input plan;
    bool loaded = false;
    if (rc == CLI_EXIT_OK) {
        char message[512];
        cli_progress("reading %s", path);
        rc = aplan_host_load(path, cli_max_input(o), &plan, message, sizeof message);
        if (rc != CLI_EXIT_OK) cli_error("%s", message);
        loaded = rc == CLI_EXIT_OK;
    }
    if (rc == CLI_EXIT_OK && (plan.kind != APLAN_HOST_INPUT_CSV || (plan.csv_columns & APLAN_CSV_HAS_REGION) == 0)) {
        cli_error("%s: %s: with regions, the plan is a CSV with 'offset' and 'region' columns (`aplan plan -f csv "
                  "--region ...` writes one)",
                  path,
                  plan.kind != APLAN_HOST_INPUT_CSV ? "a model's offline plan is one arena"
                                                    : "it has no 'region' column");
        rc = CLI_EXIT_BAD_INPUT;
    }
    if (rc == CLI_EXIT_OK)
        rc = cli_report(aplan_host_plan_offsets(path, &plan, in, offsets, row_of, &err), &err);
    if (rc == CLI_EXIT_OK)
        rc = cli_report(aplan_host_plan_regions(path, &plan, g, in->count, row_of, region_of, &err), &err);
    uint64_t arenas[APLAN_HOST_MAX_REGIONS] = {0};
    for (size_t i = 0; rc == CLI_EXIT_OK && i < in->count; i++) {
        uint64_t end;
        if (offsets[i] == APLAN_NO_OFFSET) continue;
        if (__builtin_add_overflow(offsets[i], aplan_buffer_size(&s.problem, i), &end)) end = UINT64_MAX;
        if (end > arenas[region_of[i]]) arenas[region_of[i]] = end; /* overflow: the verifier names it */
    }
    if (rc == CLI_EXIT_OK) {
        cli_progress("verifying the plan");
        size_t need = 0, bound_need = 0;
        void *scratch = NULL;
        aplan_report r;
        aplan_report_clear(&r);
        aplan_status st = aplan_region_verify_scratch_size(&s.problem, &g->set, &need);
        if (st == APLAN_OK) st = aplan_region_bounds_scratch_size(&s.problem, &g->set, &bound_need);
        if (st == APLAN_OK && (scratch = malloc((need > bound_need ? need : bound_need) + 8u)) == NULL)
            st = APLAN_E_OUT_OF_MEMORY;
        uint64_t bounds[APLAN_HOST_MAX_REGIONS], traffic_bound = 0;
        if (st == APLAN_OK) st = aplan_region_bounds(&s.problem, &g->set, scratch, bound_need, bounds, &traffic_bound);
        if (st == APLAN_OK)
            st = aplan_region_verify(&s.problem, &g->set, region_of, offsets, arenas, scratch, need, &r);
        free(scratch);
        const char *where = r.in_region && r.region < g->count ? g->spec[r.region].name : NULL;
        if (st == APLAN_OK) {
            const uint64_t traffic = aplan_region_traffic(&s.problem, &g->set, region_of);
            cli_progress_writing(stdout, "the result");
            printf("%s: valid: %zu buffer%s in %zu region%s: ", path, in->count, aplan_host_s(in->count), g->count,
                   aplan_host_s(g->count));
            for (size_t k = 0; k < g->count; k++)
                printf("%s%s %llu of %llu", k > 0 ? ", " : "", g->spec[k].name, (unsigned long long)arenas[k],
                       (unsigned long long)g->regions[k].capacity);
            printf(" bytes; traffic %llu byte%s, lower bound %llu byte%s", (unsigned long long)traffic,
                   aplan_host_s(traffic), (unsigned long long)traffic_bound, aplan_host_s(traffic_bound));
            if (traffic == traffic_bound) printf(", least");
            else if (traffic_bound > 0) printf(" (+%.1f%%)", aplan_host_overhead_percent(traffic, traffic_bound));
            fputc('\n', stdout);
            if (g->persistent_region != SIZE_MAX)
                printf("%s holds TFLM's persistent data too (%llu bytes): the plan had %llu of its %llu bytes\n",
                       g->spec[g->persistent_region].name, (unsigned long long)g->persistent_bytes,
                       (unsigned long long)g->regions[g->persistent_region].capacity,
                       (unsigned long long)g->spec[g->persistent_region].size);
            if (r.aliased_pairs > 0) printf("aliased fixed pairs (allowed): %zu\n", r.aliased_pairs);
            rc = cli_flush_stdout();
        } else if (st == APLAN_E_CAPACITY_EXCEEDED && where != NULL) { /* valid but too large: exit 4, as plan */
            printf("does not fit: %s's arena, %llu byte%s, is %llu more than %s (%llu)\n", where,
                   (unsigned long long)r.value, aplan_host_s(r.value), (unsigned long long)(r.value - r.limit),
                   r.region == g->persistent_region ? "what it leaves after TFLM's persistent data" : "its capacity",
                   (unsigned long long)r.limit);
            rc = cli_flush_stdout();
            if (rc == CLI_EXIT_OK) rc = CLI_EXIT_NO_FIT;
        } else if (st == APLAN_E_OUT_OF_MEMORY) {
            cli_error("out of memory");
            rc = CLI_EXIT_INTERNAL;
        } else {
            char text[400];
            aplan_host_describe_report(in, st, &r, text, sizeof text);
            cli_error("%s: verification failed: %s%s%s", path, text, where != NULL ? " in " : "",
                      where != NULL ? where : "");
            rc = CLI_EXIT_VERIFY;
        }
    }
    if (loaded) aplan_host_input_free(&plan);
    free(region_of);
    free(offsets);
    free(row_of);
    aplan_host_session_free(&s);
    return rc;
}

int cli_cmd_verify(const cli_options *o) {
    aplan_host_error err = {0};
    cli_progress_begin();
    cli_progress("reading %s", o->args[0]);
    aplan_host_input in, plan;
    int rc = load_arg(o, &in);
    if (rc != CLI_EXIT_OK) return rc;
    if (aplan_host_option_regions(&o->host, NULL) > 0) {
        if (in.kind == APLAN_HOST_INPUT_TFLITE && (rc = add_scratch(o, &in)) != CLI_EXIT_OK) return rc; /* frees in */
        rc = verify_regions(o, &in);
        aplan_host_input_free(&in);
        return rc;
    }
    if (region_column_refused(&in)) {
        aplan_host_input_free(&in);
        return CLI_EXIT_BAD_INPUT;
    }
    /* A model's problem is what `plan` plans: its tensors and its kernels' scratch buffers. A plan written by `plan`
     * places both; a model's offline plan holds the tensors only, and TFLM's planner places the scratch around them,
     * as the check below does (a build without greedy_by_size_tflm, TFLM's planner, checks the tensors alone). */
    char message[512], *plan_data = NULL;
    size_t plan_size = 0;
    const aplan_strategy *tflm_planner = NULL;
    bool offline = false; /* the plan is a model's offline plan */
    if (in.kind == APLAN_HOST_INPUT_TFLITE) {
        cli_progress("reading %s", o->args[1]);
        rc = aplan_host_read_file(o->args[1], cli_max_input(o), &plan_data, &plan_size, message, sizeof message);
        if (rc != CLI_EXIT_OK) cli_error("%s", message);
        offline = rc == CLI_EXIT_OK && aplan_host_is_tflite(plan_data, plan_size);
        if (rc == CLI_EXIT_OK && (!offline || aplan_strategy_find("greedy_by_size_tflm", &tflm_planner) == APLAN_OK))
            rc = add_scratch(o, &in); /* frees in on failure */
        else if (rc != CLI_EXIT_OK)
            aplan_host_input_free(&in);
        if (rc != CLI_EXIT_OK) {
            free(plan_data);
            return rc;
        }
    }
    aplan_host_session s;
    cli_session_init(&s, o, &in);
    aplan_host_whole_arena_capacity(&s); /* a model's capacity is TFLM's whole arena's, as for plan */
    uint64_t *offsets = malloc((in.count + 1u) * sizeof *offsets);
    if (offsets == NULL) {
        free(plan_data);
        aplan_host_input_free(&in);
        cli_error("out of memory");
        return CLI_EXIT_INTERNAL;
    }
    cli_progress("checking the problem");
    rc = cli_report(aplan_host_check_problem(&s, &err), &err);
    /* Fixed buffers of the problem that clash are its mistake, whatever the plan: bad input, as `plan` says. */
    if (rc == CLI_EXIT_OK) rc = cli_report(aplan_host_check_fixed(&s, &err), &err);
    cli_progress("computing the lower bound");
    if (rc == CLI_EXIT_OK) rc = cli_report(aplan_host_compute_bound(&s, &err), &err);
    if (rc == CLI_EXIT_OK) {
        if (plan_data == NULL) cli_progress("reading %s", o->args[1]);
        rc = plan_data != NULL ? aplan_host_load_bytes(o->args[1], plan_data, plan_size, &plan, message, sizeof message)
                               : aplan_host_load(o->args[1], cli_max_input(o), &plan, message, sizeof message);
        if (rc != CLI_EXIT_OK) cli_error("%s", message);
        else if (region_column_refused(&plan)) rc = CLI_EXIT_BAD_INPUT;
        else rc = cli_report(aplan_host_plan_offsets(o->args[1], &plan, &in, offsets, NULL, &err), &err);
        if (rc == CLI_EXIT_OK && offline)
            rc = cli_report(aplan_host_offline_plan(o->args[1], &plan, &s, offsets, &err), &err);
        aplan_host_input_free(&plan);
    }
    free(plan_data);
    cli_progress("verifying the plan");
    if (rc == CLI_EXIT_OK) {
        /* The arena a plan claims is its highest end; overflow is left for the verifier to name. */
        uint64_t arena = 0;
        for (size_t i = 0; i < in.count; i++) {
            uint64_t end;
            if (offsets[i] == APLAN_NO_OFFSET) continue;
            if (__builtin_add_overflow(offsets[i], aplan_buffer_size(&s.problem, i), &end)) end = UINT64_MAX;
            if (end > arena) arena = end;
        }
        aplan_report r;
        aplan_report_clear(&r);
        aplan_status st = aplan_host_verify(&s.problem, offsets, arena, &r);
        if (st == APLAN_OK) {
            cli_progress_writing(stdout, "the result");
            printf("%s: valid: %zu buffer%s", o->args[1], in.count, aplan_host_s(in.count));
            if (offline && in.count > in.tensor_count)
                printf(" (%zu tensor%s at the offline plan's offsets, %zu kernel scratch buffer%s where TFLM's planner "
                       "places them)",
                       in.tensor_count, aplan_host_s(in.tensor_count), in.count - in.tensor_count,
                       aplan_host_s(in.count - in.tensor_count));
            printf(", arena %llu byte%s, lower bound %llu byte%s (+%.1f%%)%s\n", (unsigned long long)arena,
                   aplan_host_s(arena), (unsigned long long)s.bound, aplan_host_s(s.bound),
                   aplan_host_overhead_percent(arena, s.bound), arena == s.bound ? ", optimal" : "");
            if (r.aliased_pairs > 0) printf("aliased fixed pairs (allowed): %zu\n", r.aliased_pairs);
            rc = verify_tflm_arena(&s, arena);
            const int flushed = cli_flush_stdout();
            if (rc == CLI_EXIT_OK) rc = flushed;
        } else if (st == APLAN_E_CAPACITY_EXCEEDED) { /* a valid plan too large: exit 4, as plan says it */
            printf("does not fit: the plan's arena, %llu byte%s, is %llu more than %s (%llu)\n",
                   (unsigned long long)arena, aplan_host_s(arena), (unsigned long long)(arena - s.settings.capacity),
                   s.settings.whole_capacity != APLAN_UNLIMITED
                       ? "what the capacity leaves after TFLM's persistent data"
                       : "the capacity",
                   (unsigned long long)s.settings.capacity);
            rc = cli_flush_stdout();
            if (rc == CLI_EXIT_OK) rc = CLI_EXIT_NO_FIT;
        } else {
            char text[400];
            aplan_host_describe_report(&in, st, &r, text, sizeof text);
            cli_error("%s: verification failed: %s", o->args[1], text);
            rc = CLI_EXIT_VERIFY;
        }
    }
    free(offsets);
    aplan_host_input_free(&in);
    return rc;
}

int cli_cmd_list(const cli_options *o) {
    (void)o;
    for (size_t i = 0; i < aplan_strategy_count(); i++) {
        const aplan_strategy *st = aplan_strategy_at(i);
        printf("%-20s %s\n", st->name, st->description);
    }
    printf("%-20s %s\n", "all", "run every strategy above (the default)");
    printf("%-20s run", "auto");
    for (size_t i = 0; i < aplan_strategy_auto_count(); i++)
        printf("%s %s", i == 0 ? "" : ",", aplan_strategy_auto_at(i)->name);
    const aplan_strategy *exact = NULL;
    if (aplan_strategy_find("exact", &exact) == APLAN_OK)
        printf("; then search from the best plan with exact while --time-limit lasts");
    printf("; keep the best plan (ties: the first listed)\n");
    return cli_flush_stdout();
}

int cli_cmd_targets(const cli_options *o) {
    (void)o;
    printf("%-22s %-9s %-12s %s\n", "target", "alignment", "RAM bytes", "part");
    for (size_t i = 0; i < aplan_host_target_count(); i++) {
        const aplan_host_target *t = aplan_host_target_at(i);
        printf("%-22s %-9llu %-12llu %s\n", t->name, (unsigned long long)t->alignment, (unsigned long long)t->ram,
               t->core);
        printf("%-22s alignment: %s\n", "", t->why_alignment);
        printf("%-22s RAM: %s\n", "", t->why_ram);
        if (t->region_count == 0) continue;
        printf("%-22s regions, fastest first:", "");
        for (size_t r = 0; r < t->region_count; r++)
            printf("%s %s:%llu:%llu", r > 0 ? "," : "", t->regions[r].name, (unsigned long long)t->regions[r].size,
                   (unsigned long long)t->regions[r].align);
        printf("\n%-22s where from: %s\n", "", t->why_regions);
    }
    printf("The RAM size is the capacity. The alignment is the default for CSV input (other runtimes): a .tflite\n"
           "model keeps TFLM's 16-byte tensor alignment (MicroArenaBufferAlignment) on every target.\n"
           "A preset with regions (NAME:SIZE:ALIGN) plans them with `plan` and `example`, as --region does.\n"
           "Its RAM, the largest region (one arena in one memory), is the capacity of the other commands.\n"
           "Every preset is a 32-bit core: TFLM's structs are sized for 4-byte pointers (--abi 32) with any of them.\n"
           "CMSIS-NN (--kernels cmsis-nn) is modelled as each core builds it: portable C on cortex-m0plus, DSP on\n"
           "Cortex-M4 and M7; Helium (cortex-m55-ethos-u55) and the other cores are not covered.\n");
    return cli_flush_stdout();
}

/* ------------------------------------------------------------------------------------------------------------ */
/* embed                                                                                                         */

typedef struct bytes {
    const void *data;
    size_t size;
} bytes;

/* cli_write_file_atomic's writer for a block of bytes. */
static int write_bytes(FILE *out, void *state) {
    const bytes *b = state;
    return fwrite(b->data, 1, b->size, out) == b->size ? CLI_EXIT_OK : CLI_EXIT_IO;
}

/* Read the model at path whole and load it into in, keeping its bytes (*data, the caller frees) for the commands
 * that go back to the model: embed and graph. Anything but a .tflite model is bad input, with `why` saying what the
 * command needs one for. Returns CLI_EXIT_OK, or the exit code with the error printed (nothing to free then). */
static int load_model(const char *path, uint64_t max_size, const char *why, char **data, size_t *size,
                      aplan_host_input *in) {
    char message[512];
    int rc = aplan_host_read_file(path, max_size, data, size, message, sizeof message);
    if (rc != CLI_EXIT_OK) {
        cli_error("%s", message);
        return rc;
    }
    if (*size == 0) {
        cli_error("%s: empty file (0 bytes): not a .tflite model", path);
        rc = CLI_EXIT_BAD_INPUT;
    } else if (!aplan_host_is_tflite(*data, *size)) {
        cli_error("%s: not a .tflite model (no \"TFL3\" at bytes 4..7): %s", path, why);
        rc = CLI_EXIT_BAD_INPUT;
    } else if ((rc = aplan_host_load_bytes(path, *data, *size, in, message, sizeof message)) != CLI_EXIT_OK) {
        cli_error("%s", message);
    }
    if (rc != CLI_EXIT_OK) free(*data);
    return rc;
}

/* add_scratch on a model load_model read, its bytes (data) freed with it on failure. */
static int add_model_scratch(const cli_options *o, char *data, aplan_host_input *in) {
    const int rc = add_scratch(o, in);
    if (rc != CLI_EXIT_OK) free(data);
    return rc;
}

int cli_cmd_graph(const cli_options *o) {
    aplan_host_error err = {0};
    char *data;
    size_t size;
    aplan_host_input in;
    int rc = load_model(o->args[0], cli_max_input(o),
                        "a CSV problem has no operators, only buffers and their lifetimes", &data, &size, &in);
    if (rc != CLI_EXIT_OK) return rc;
    rc = cli_report(aplan_host_write_graph(stdout, &in, data, size, &err), &err);
    if (rc == CLI_EXIT_OK) rc = cli_flush_stdout();
    aplan_host_input_free(&in);
    free(data);
    return rc;
}

int cli_cmd_embed(const cli_options *o) {
    const char *model = o->args[0];
    if (o->output == NULL || strcmp(o->output, "-") == 0) {
        cli_error("embed: -o OUT is required: the file to write the model with its plan to");
        return CLI_EXIT_USAGE;
    }
    /* Writing over the model needs --force (cli_parse_options checks it); the input is read whole before anything
     * is written, so even --force never reads a half-written file. */
    char message[512];
    char *data;
    size_t size;
    int rc = aplan_host_read_file(model, cli_max_input(o), &data, &size, message, sizeof message);
    if (rc != CLI_EXIT_OK) {
        cli_error("%s", message);
        return rc;
    }
    aplan_host_error err = {0};
    aplan_host_embedding e = {0};
    const unsigned flags = (o->replan ? APLAN_HOST_EMBED_REPLAN : 0u) | (o->force ? APLAN_HOST_EMBED_FORCE : 0u);
    rc = cli_report(aplan_host_embed_model(model, data, size, &o->host, flags, NULL, 0, NULL, &e, &err), &err);
    if (rc == CLI_EXIT_OK && e.grows)
        fprintf(stderr, "%s: warning: with the plan embedded TFLM's arena grows from %llu to %llu bytes (--force)\n",
                CLI_PROGRAM, (unsigned long long)e.s.tflm_own.info.used, (unsigned long long)e.s.tflm_embed.info.used);
    if (rc == CLI_EXIT_OK) {
        bytes b = {e.model, e.size};
        rc = cli_write_output(o->output, write_bytes, &b);
    }
    if (rc == CLI_EXIT_OK && e.info.replaced)
        fprintf(stderr, "%s: warning: %s already had an offline plan (OfflineMemoryAllocation); %s holds the new plan "
                        "in its place\n",
                CLI_PROGRAM, e.in.name, o->output);
    if (rc == CLI_EXIT_OK) {
        aplan_host_write_embed_result(stdout, &e, o->output);
        rc = cli_flush_stdout();
    }
    aplan_host_embedding_free(&e);
    free(data);
    return rc;
}

int cli_cmd_arena(const cli_options *o) {
    aplan_host_error err = {0};
    char *data;
    size_t size;
    aplan_host_input in;
    int rc = load_model(o->args[0], cli_max_input(o), "the arena is TFLM's, which runs models", &data, &size, &in);
    if (rc == CLI_EXIT_OK) rc = add_model_scratch(o, data, &in);
    if (rc != CLI_EXIT_OK) return rc;
    aplan_host_session s;
    cli_session_init(&s, o, &in);
    rc = cli_report(aplan_host_check_problem(&s, &err), &err);
    if (rc == CLI_EXIT_OK) rc = cli_report(aplan_host_check_fixed(&s, &err), &err);
    if (rc == CLI_EXIT_OK) {
        aplan_host_compute_tflm_arena(&s);
        if (!s.tflm_own.known) rc = cli_report(aplan_host_tflm_failure(&s, &s.tflm_own, &err), &err);
    }
    if (rc == CLI_EXIT_OK) rc = cli_report(aplan_host_write_tflm_breakdown(stdout, &s, &err), &err);
    if (rc == CLI_EXIT_OK && s.settings.capacity != APLAN_UNLIMITED) {
        uint64_t need = s.tflm_own.info.smallest, capacity = s.settings.capacity;
        if (need <= capacity) {
            printf("fits: the smallest arena, %llu byte%s, of %llu; %llu byte%s free\n", (unsigned long long)need,
                   aplan_host_s(need), (unsigned long long)capacity, (unsigned long long)(capacity - need),
                   aplan_host_s(capacity - need));
        } else {
            printf("does not fit: the smallest arena, %llu byte%s, is %llu more than %llu\n", (unsigned long long)need,
                   aplan_host_s(need), (unsigned long long)(need - capacity), (unsigned long long)capacity);
            rc = CLI_EXIT_NO_FIT;
        }
    }
    int flushed = cli_flush_stdout();
    if (rc == CLI_EXIT_OK) rc = flushed;
    aplan_host_session_free(&s);
    aplan_host_input_free(&in);
    free(data);
    return rc;
}
