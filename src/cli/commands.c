/*
 * The commands: plan, example, verify, bound, list and targets, and emit, which writes a session in the chosen
 * format. Each handler loads its input, runs a session and maps every outcome to an exit code (cli.h) with the
 * error printed; results go to stdout or -o FILE, errors to stderr.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "aplan/strategies.h"
#include "cli.h"

/* Open -o FILE (or stdout), write, close; any write failure is an I/O error. */
static int emit(const cli_options *o, cli_session *s) {
    FILE *out = stdout;
    if (o->output != NULL) {
        out = fopen(o->output, "w");
        if (out == NULL) {
            cli_error("cannot open %s for writing: %s", o->output, strerror(errno));
            return CLI_EXIT_IO;
        }
    }
    const cli_run *best = s->best != SIZE_MAX ? &s->runs[s->best] : NULL;
    int rc = CLI_EXIT_OK;
    switch (o->format) {
    case CLI_FORMAT_TABLE:
        rc = cli_write_table(out, s);
        break;
    case CLI_FORMAT_JSON:
        rc = cli_write_json(out, s);
        break;
    case CLI_FORMAT_CSV:
        rc = cli_write_csv(out, s, best);
        break;
    case CLI_FORMAT_SVG:
        rc = cli_write_svg(out, s, best);
        break;
    case CLI_FORMAT_HTML:
        rc = cli_write_html(out, s, best);
        break;
    case CLI_FORMAT_C:
        rc = cli_write_c(out, s, best);
        break;
    }
    bool failed = ferror(out) != 0;
    if (out != stdout) failed = fclose(out) != 0 || failed;
    else failed = fflush(out) != 0 || failed;
    if (rc == CLI_EXIT_OK && failed) {
        cli_error("cannot write %s", o->output != NULL ? o->output : "standard output");
        rc = CLI_EXIT_IO;
    }
    return rc;
}

static int plan_input(const cli_options *o, cli_input *in) {
    cli_session s;
    cli_session_init(&s, o, in);
    int rc = cli_check_problem(&s);
    if (rc == CLI_EXIT_OK) rc = cli_check_fixed(&s);
    if (rc == CLI_EXIT_OK) rc = cli_compute_bound(&s);
    if (rc != CLI_EXIT_OK) return rc;
    if (s.bound > s.settings.capacity) {
        cli_error("%s: no plan can fit: the lower bound is %llu bytes, %llu more than the capacity %llu", in->name,
                  (unsigned long long)s.bound, (unsigned long long)(s.bound - s.settings.capacity),
                  (unsigned long long)s.settings.capacity);
        return CLI_EXIT_NO_FIT;
    }
    rc = cli_select_strategies(o->strategies, &s);
    if (rc != CLI_EXIT_OK) {
        cli_session_free(&s);
        return rc;
    }
    bool any_planned = false;
    for (size_t i = 0; i < s.run_count; i++) {
        cli_run_one(&s, &s.runs[i]);
        cli_run *r = &s.runs[i];
        any_planned = any_planned || r->planned;
        if (r->status == APLAN_OK && (s.best == SIZE_MAX || r->result.arena_size < s.runs[s.best].result.arena_size))
            s.best = i;
    }
    if (s.best == SIZE_MAX) {
        if (any_planned) {
            /* Every plan exceeded the capacity: say by how much the smallest one misses. */
            size_t smallest = SIZE_MAX;
            for (size_t i = 0; i < s.run_count; i++) {
                if (s.runs[i].planned &&
                    (smallest == SIZE_MAX || s.runs[i].result.arena_size < s.runs[smallest].result.arena_size))
                    smallest = i;
            }
            const cli_run *r = &s.runs[smallest];
            if (o->format == CLI_FORMAT_TABLE) (void)emit(o, &s);
            cli_error("%s: nothing fits the capacity of %llu bytes: the smallest plan (%s) needs %llu bytes, "
                      "%llu more",
                      in->name, (unsigned long long)s.settings.capacity, r->strategy->name,
                      (unsigned long long)r->result.arena_size,
                      (unsigned long long)(r->result.arena_size - s.settings.capacity));
            cli_session_free(&s);
            return CLI_EXIT_NO_FIT;
        }
        if (o->format == CLI_FORMAT_TABLE || o->format == CLI_FORMAT_JSON) (void)emit(o, &s);
        cli_error("%s: no strategy could plan the input", in->name);
        for (size_t i = 0; i < s.run_count; i++)
            fprintf(stderr, "  %s: %s\n", s.runs[i].strategy->name, s.runs[i].error);
        cli_session_free(&s);
        return CLI_EXIT_BAD_INPUT;
    }
    if (s.auto_mode) {
        /* Keep only the best run. */
        cli_run keep = s.runs[s.best];
        for (size_t i = 0; i < s.run_count; i++) {
            if (i != s.best) free(s.runs[i].offsets);
        }
        s.runs[0] = keep;
        s.run_count = 1;
        s.best = 0;
    }
    rc = emit(o, &s);
    cli_session_free(&s);
    return rc;
}

/* Loads the command's input file, printing the error on failure. */
static int load_arg(const cli_options *o, cli_input *in) {
    char message[512];
    int rc = cli_load(o->args[0], in, message, sizeof message);
    if (rc != CLI_EXIT_OK) cli_error("%s", message);
    return rc;
}

int cli_cmd_plan(const cli_options *o) {
    cli_input in;
    int rc = load_arg(o, &in);
    if (rc != CLI_EXIT_OK) return rc;
    rc = plan_input(o, &in);
    cli_input_free(&in);
    return rc;
}

int cli_cmd_example(const cli_options *o) {
    if (o->graph) {
        cli_example_describe(stdout);
        return CLI_EXIT_OK;
    }
    cli_input in;
    if (cli_example(&in) != CLI_EXIT_OK) {
        cli_error("out of memory");
        return CLI_EXIT_INTERNAL;
    }
    int rc = plan_input(o, &in);
    cli_input_free(&in);
    return rc;
}

int cli_cmd_bound(const cli_options *o) {
    cli_input in;
    int rc = load_arg(o, &in);
    if (rc != CLI_EXIT_OK) return rc;
    cli_session s;
    cli_session_init(&s, o, &in);
    rc = cli_check_problem(&s);
    if (rc == CLI_EXIT_OK) rc = cli_compute_bound(&s);
    if (rc == CLI_EXIT_OK) {
        size_t live = 0;
        uint64_t live_sum = 0;
        for (size_t i = 0; i < in.count; i++) {
            const aplan_buffer *b = &in.buffers[i];
            if (b->lower <= s.bound_step && s.bound_step < b->upper && aplan_buffer_size(&s.problem, i) > 0) {
                live++;
                live_sum += aplan_buffer_size(&s.problem, i);
            }
        }
        printf("%s: %zu buffers, alignment %llu, sizes %s\n", in.name, in.count,
               (unsigned long long)s.settings.alignment, s.settings.round_sizes ? "rounded up" : "as given");
        printf("lower bound: %llu bytes\n", (unsigned long long)s.bound);
        printf("reached at step %llu: %zu buffers live, %llu bytes\n", (unsigned long long)s.bound_step, live,
               (unsigned long long)live_sum);
        if (live_sum < s.bound)
            printf("(the bound comes from a single buffer or a fixed offset, above the live sum)\n");
        size_t shown = 0;
        for (size_t i = 0; i < in.count; i++) {
            const aplan_buffer *b = &in.buffers[i];
            if (b->lower <= s.bound_step && s.bound_step < b->upper && aplan_buffer_size(&s.problem, i) > 0) {
                if (shown == 20) {
                    printf("  ... and %zu more\n", live - shown);
                    break;
                }
                printf("  %-24s %12llu bytes  steps %llu-%llu\n", in.ids[i],
                       (unsigned long long)aplan_buffer_size(&s.problem, i), (unsigned long long)b->lower,
                       (unsigned long long)(b->upper - 1u));
                shown++;
            }
        }
        if (fflush(stdout) != 0) rc = CLI_EXIT_IO;
    }
    cli_input_free(&in);
    return rc;
}

/* Offsets of a plan file for the problem: rows matched by id; a .tflite plan gives its offline offsets. */
static int load_plan_offsets(const char *path, const cli_input *problem, uint64_t *offsets) {
    cli_input plan;
    char message[512];
    int rc = cli_load(path, &plan, message, sizeof message);
    if (rc != CLI_EXIT_OK) {
        cli_error("%s", message);
        return rc;
    }
    for (size_t i = 0; i < problem->count; i++) offsets[i] = APLAN_NO_OFFSET;
    if (plan.kind == CLI_INPUT_CSV && (plan.csv_columns & APLAN_CSV_HAS_OFFSET) == 0) {
        cli_error("%s: the plan has no 'offset' column", path);
        cli_input_free(&plan);
        return CLI_EXIT_BAD_INPUT;
    }
    /* Match by id: a sorted index would be O(n log n); plans are small enough that a hint (same position) plus a
     * linear fallback keeps this simple and exact. */
    for (size_t j = 0; j < plan.count; j++) {
        size_t i = j < problem->count && strcmp(problem->ids[j], plan.ids[j]) == 0 ? j : SIZE_MAX;
        for (size_t k = 0; i == SIZE_MAX && k < problem->count; k++) {
            if (strcmp(problem->ids[k], plan.ids[j]) == 0) i = k;
        }
        char where[128];
        cli_describe_buffer(&plan, j, where, sizeof where);
        if (i == SIZE_MAX) {
            cli_error("%s: %s is not in the problem %s", path, where, problem->name);
            cli_input_free(&plan);
            return CLI_EXIT_BAD_INPUT;
        }
        const aplan_buffer *a = &problem->buffers[i];
        const aplan_buffer *b = &plan.buffers[j];
        if (a->size != b->size || a->lower != b->lower || a->upper != b->upper) {
            cli_error("%s: %s has size %llu, steps [%llu, %llu); the problem says size %llu, steps [%llu, %llu)", path,
                      where, (unsigned long long)b->size, (unsigned long long)b->lower, (unsigned long long)b->upper,
                      (unsigned long long)a->size, (unsigned long long)a->lower, (unsigned long long)a->upper);
            cli_input_free(&plan);
            return CLI_EXIT_BAD_INPUT;
        }
        offsets[i] = b->offset;
    }
    cli_input_free(&plan);
    return CLI_EXIT_OK;
}

int cli_cmd_verify(const cli_options *o) {
    cli_input in;
    int rc = load_arg(o, &in);
    if (rc != CLI_EXIT_OK) return rc;
    cli_session s;
    cli_session_init(&s, o, &in);
    uint64_t *offsets = malloc((in.count + 1u) * sizeof *offsets);
    if (offsets == NULL) {
        cli_input_free(&in);
        cli_error("out of memory");
        return CLI_EXIT_INTERNAL;
    }
    rc = cli_check_problem(&s);
    if (rc == CLI_EXIT_OK) rc = cli_compute_bound(&s);
    if (rc == CLI_EXIT_OK) rc = load_plan_offsets(o->args[1], &in, offsets);
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
        aplan_status st = cli_verify(&s.problem, offsets, arena, &r);
        if (st == APLAN_OK) {
            printf("%s: valid: %zu buffers, arena %llu bytes, lower bound %llu bytes (+%.1f%%)%s\n", o->args[1],
                   in.count, (unsigned long long)arena, (unsigned long long)s.bound,
                   cli_overhead_percent(arena, s.bound), arena == s.bound ? ", optimal" : "");
            if (r.aliased_pairs > 0) printf("aliased fixed pairs (allowed): %zu\n", r.aliased_pairs);
            if (fflush(stdout) != 0) rc = CLI_EXIT_IO;
        } else {
            char text[400];
            cli_describe_report(&in, st, &r, text, sizeof text);
            cli_error("%s: verification failed: %s", o->args[1], text);
            rc = CLI_EXIT_VERIFY;
        }
    }
    free(offsets);
    cli_input_free(&in);
    return rc;
}

int cli_cmd_list(const cli_options *o) {
    (void)o;
    for (size_t i = 0; i < aplan_strategy_count(); i++) {
        const aplan_strategy *st = aplan_strategy_at(i);
        printf("%-20s %s\n", st->name, st->description);
    }
    printf("%-20s %s\n", "all", "run every strategy above (the default)");
    printf("%-20s %s\n", "auto", "run every strategy, keep the best plan");
    return fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_IO;
}

int cli_cmd_targets(const cli_options *o) {
    (void)o;
    printf("%-22s %-9s %-12s %s\n", "target", "alignment", "RAM bytes", "part");
    for (size_t i = 0; i < cli_target_count(); i++) {
        const cli_target *t = cli_target_at(i);
        printf("%-22s %-9llu %-12llu %s\n", t->name, (unsigned long long)t->alignment, (unsigned long long)t->ram,
               t->core);
        printf("%-22s alignment: %s\n", "", t->why_alignment);
        printf("%-22s RAM: %s\n", "", t->why_ram);
    }
    return fflush(stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_IO;
}
