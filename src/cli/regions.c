/*
 * `plan` and `example` with regions (--region, or a --target with a memory map): the host layer's region session
 * (src/host/regions.c) run under the whole run's deadline, the chosen format written through the formats' table,
 * and the exit code and the error lines of what does not fit. Also the check of -f c's macros before any input is
 * read.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_check_region_c_names(const char *command, const cli_options *o) {
    if (cli_formats[o->format].write_regions != aplan_host_write_region_c) return CLI_EXIT_OK;
    aplan_host_error e = {0};
    return cli_report(aplan_host_check_region_c_names(command, &o->host, &e), &e);
}

/* The writer of the chosen format in region mode. */
typedef struct region_emit {
    const cli_options *o;
    const aplan_host_session *s;
} region_emit;

static int write_region_session(FILE *out, void *state) {
    const region_emit *e = state;
    const cli_format *f = &cli_formats[e->o->format];
    cli_progress_writing(out, f->what);
    aplan_host_error err = {0};
    int rc = cli_report(f->write_regions(out, e->s, &e->o->host, &err), &err);
    return rc == CLI_EXIT_OK && ferror(out) != 0 ? CLI_EXIT_IO : rc;
}

int cli_plan_regions(const cli_options *o, aplan_host_input *in) {
    const cli_format *f = &cli_formats[o->format];
    if (f->write_regions == NULL) {
        cli_error("plan: -f %s does not apply to several regions", f->name);
        return CLI_EXIT_USAGE;
    }
    aplan_host_session s;
    cli_session_init(&s, o, in);
    const double deadline =
        aplan_host_clock_ms() + (double)s.settings.time_limit_ns / 1e6; /* the whole run's, as plan's */
    aplan_host_error err = {0};
    int rc = aplan_host_region_setup(&o->host, &s, &err);
    if (rc == CLI_EXIT_OK) rc = aplan_host_region_plan(&o->host, &s, deadline, &err);
    rc = cli_report(rc, &err);
    const aplan_host_region_session *g = &s.regions;
    const aplan_host_region_run *best = g->best != SIZE_MAX ? &g->runs[g->best] : NULL;
    size_t pinned_over = SIZE_MAX; /* a region whose pinned buffers alone pass its capacity: the bound's proof */
    for (size_t r = 0; r < g->count && rc == CLI_EXIT_OK; r++) {
        if (g->bounds[r] > g->spec[r].size) {
            pinned_over = r;
            break;
        }
    }
    if (rc == CLI_EXIT_OK && best == NULL && pinned_over != SIZE_MAX) {
        /* Nothing to plan, and that is proven: the session's formats still show every strategy and the bounds. */
        if (f->when_no_fit && f->needs == CLI_NEEDS_SESSION) {
            region_emit e = {o, &s};
            rc = cli_write_output(o->output, write_region_session, &e);
        }
        const aplan_host_region_spec *sp = &g->spec[pinned_over];
        if (rc == CLI_EXIT_OK) {
            cli_error("%s: no plan can fit every region: the buffers pinned to %s need at least %llu byte%s, %llu more "
                      "than its %llu",
                      in->name, sp->name, (unsigned long long)g->bounds[pinned_over],
                      aplan_host_s(g->bounds[pinned_over]), (unsigned long long)(g->bounds[pinned_over] - sp->size),
                      (unsigned long long)sp->size);
            rc = CLI_EXIT_NO_FIT;
        }
    }
    if (rc == CLI_EXIT_OK && best == NULL) {
        cli_error("%s: no region strategy could plan the input", in->name);
        for (size_t k = 0; k < g->run_count; k++)
            fprintf(stderr, "  %s: %s\n", g->runs[k].strategy->name, g->runs[k].error);
        rc = CLI_EXIT_BAD_INPUT;
    }
    if (rc == CLI_EXIT_OK && (best->status == APLAN_OK || f->when_no_fit)) {
        region_emit e = {o, &s};
        rc = cli_write_output(o->output, write_region_session, &e);
    }
    if (rc == CLI_EXIT_OK && best->status != APLAN_OK) {
        cli_error("%s: no plan fits every region: the best (%s): %s", in->name, best->strategy->name, best->error);
        rc = CLI_EXIT_NO_FIT;
    }
    aplan_host_session_free(&s);
    return rc;
}

