/*
 * The output formats of `plan` and `example` (-f), one row each: the one declaration of a format. The option parser
 * (its names, matched case aside, and the unknown-format message), the help and emit (commands.c: what is written,
 * from which plan, and whether it is written when no plan fits) all read this table, so adding a format is its row
 * here and its writer (declared in cli.h).
 */
#include <stdint.h>
#include <string.h>

#include "cli.h"

/* The first row is the default. */
const cli_format cli_formats[] = {
    {"table", CLI_NEEDS_SESSION, true, 0, "the table",
     "the strategies compared, the verdict, and for a model how to use the plan", aplan_host_write_table,
     aplan_host_write_region_table, NULL},
    {"csv", CLI_NEEDS_PLAN, false, 0, "the plan as CSV",
     "the best plan as MiniMalloc's CSV: the input's columns and offset (and region)", aplan_host_write_csv,
     aplan_host_write_region_csv, ".csv"},
    {"json", CLI_NEEDS_SESSION, true, 0, "the JSON", "every strategy's result and every buffer", aplan_host_write_json,
     aplan_host_write_region_json, ".json"},
    {"svg", CLI_NEEDS_PLAN, true, 0, "the SVG",
     "the best plan drawn (or, when none fits, the smallest with its overflow)", aplan_host_write_svg,
     aplan_host_write_region_svg, ".svg"},
    {"html", CLI_NEEDS_PLAN, true, 0, "the HTML report", "a page with the table and every plan drawn, zoom and search",
     aplan_host_write_html, aplan_host_write_region_html, ".html"},
    {"c", CLI_NEEDS_PLAN, false, CLI_OPT_NAME, "the C header",
     "the best plan as a C header, with TFLM's BufferPlan (and each buffer's region)", aplan_host_write_c,
     aplan_host_write_region_c, ".h"},
};

const size_t cli_format_count = sizeof cli_formats / sizeof cli_formats[0];

size_t cli_format_of_path(const char *path) {
    size_t n = strlen(path);
    for (size_t f = 0; f < cli_format_count; f++) {
        const char *ext = cli_formats[f].extension;
        size_t e = ext != NULL ? strlen(ext) : 0;
        /* a name of its own before the extension: ".svg" alone, or "dir/.svg", is a hidden file's name */
        if (e == 0 || n <= e || path[n - e - 1u] == '/' || !aplan_host_same_name(path + n - e, ext)) continue;
        return f;
    }
    return SIZE_MAX;
}

void cli_format_names(char *out, size_t out_size, unsigned options, bool mark_default) {
    size_t at = 0, listed = 0, total = 0;
    for (size_t f = 0; f < cli_format_count; f++) total += options == 0 || (cli_formats[f].options & options) != 0;
    if (out_size > 0) out[0] = '\0';
    for (size_t f = 0; f < cli_format_count && at < out_size; f++) {
        if (options != 0 && (cli_formats[f].options & options) == 0) continue;
        listed++;
        int n = snprintf(out + at, out_size - at, "%s%s%s", listed == 1 ? "" : listed == total ? " or " : ", ",
                         cli_formats[f].name, mark_default && f == 0 ? " (default)" : "");
        if (n < 0) break;
        at += (size_t)n;
    }
}

void cli_print_format_help(FILE *out) {
    char names[160];
    cli_format_names(names, sizeof names, 0, true);
    fprintf(out, "  -f, --format FMT      %s, any case:\n", names);
    for (size_t f = 0; f < cli_format_count; f++)
        fprintf(out, "                        %-6s %s\n", cli_formats[f].name, cli_formats[f].help);
}
