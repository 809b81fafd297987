/*
 * The layout as SVG (and an HTML page around it): time across, offset down, one rectangle per buffer that occupies
 * memory (live at some step, non-zero size), each with a <title> tooltip; labels only where they fit, so the same
 * drawing reads for 5 buffers and for 1000. The lower-bound step is marked with a vertical line, the bound itself
 * with a horizontal one.
 */
#include <string.h>

#include "cli.h"

enum { WIDTH = 1200, LEFT = 90, RIGHT = 30, TOP = 60, BOTTOM = 60, PLOT_HEIGHT = 520 };

static double scale(uint64_t v, uint64_t lo, uint64_t hi, double pixels) {
    if (hi <= lo) return 0.0;
    return ((double)(v - lo) / (double)(hi - lo)) * pixels;
}

static void svg_body(FILE *out, const cli_session *s, const cli_run *run) {
    const cli_input *in = s->input;
    const aplan_problem *p = &s->problem;
    uint64_t arena = run->result.arena_size;
    uint64_t t0 = UINT64_MAX, t1 = 0;
    size_t drawn = 0;
    for (size_t i = 0; i < in->count; i++) {
        const aplan_buffer *b = &in->buffers[i];
        if (b->lower >= b->upper || aplan_buffer_size(p, i) == 0) continue;
        if (b->lower < t0) t0 = b->lower;
        if (b->upper > t1) t1 = b->upper;
        drawn++;
    }
    if (drawn == 0) t0 = t1 = 0;
    if (s->bound_step < t0) t0 = s->bound_step;
    if (s->bound_step + 1u > t1) t1 = s->bound_step + 1u;
    uint64_t y_hi = arena > s->bound ? arena : s->bound;
    if (y_hi == 0) y_hi = 1;
    const double pw = WIDTH - LEFT - RIGHT;
    const double ph = PLOT_HEIGHT;
    const int height = TOP + PLOT_HEIGHT + BOTTOM;

    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"aplan-layout\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\" data-buffers=\"%zu\" "
            "data-drawn=\"%zu\">\n",
            WIDTH, height, WIDTH, height, in->count, drawn);
    fputs("<title>", out);
    cli_xml_text(out, in->name);
    fprintf(out, ": %s, arena %llu bytes, lower bound %llu bytes</title>\n", run->strategy->name,
            (unsigned long long)arena, (unsigned long long)s->bound);
    fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", WIDTH, height);
    fprintf(out, "<text x=\"%d\" y=\"22\" font-size=\"15\" font-weight=\"bold\">", LEFT);
    cli_xml_text(out, in->name);
    fprintf(out, ": %s, arena %llu bytes, lower bound %llu bytes (%+.1f%%)</text>\n", run->strategy->name,
            (unsigned long long)arena, (unsigned long long)s->bound, cli_overhead_percent(arena, s->bound));
    fprintf(out, "<text x=\"%d\" y=\"42\" fill=\"#555\">time (steps) across, offset (bytes) down; %zu buffers "
                 "drawn; hover a rectangle for its details</text>\n",
            LEFT, drawn);
    /* Plot frame and axes ticks. */
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%.1f\" fill=\"#f6f6f6\" stroke=\"#999\"/>\n", LEFT,
            TOP, pw, ph);
    for (int k = 0; k <= 4; k++) {
        uint64_t step = t0 + (t1 - t0) * (uint64_t)k / 4u;
        uint64_t off = y_hi / 4u * (uint64_t)k;
        if (k == 4) off = y_hi;
        double x = LEFT + scale(step, t0, t1, pw);
        double y = TOP + scale(off, 0, y_hi, ph);
        fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%llu</text>\n", x,
                TOP + PLOT_HEIGHT + 16, (unsigned long long)step);
        fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">%llu</text>\n", LEFT - 6, y + 4,
                (unsigned long long)off);
    }
    fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">step</text>\n", LEFT + pw / 2,
            TOP + PLOT_HEIGHT + 36);

    fputs("<g class=\"buffers\">\n", out);
    for (size_t i = 0; i < in->count; i++) {
        const aplan_buffer *b = &in->buffers[i];
        uint64_t size = aplan_buffer_size(p, i);
        if (b->lower >= b->upper || size == 0) continue;
        uint64_t off = run->offsets[i];
        double x = LEFT + scale(b->lower, t0, t1, pw);
        double w = scale(b->upper, t0, t1, pw) - scale(b->lower, t0, t1, pw);
        double y = TOP + scale(off, 0, y_hi, ph);
        double h = scale(off + size, 0, y_hi, ph) - scale(off, 0, y_hi, ph);
        if (w < 0.5) w = 0.5; /* keep every buffer visible, however many there are */
        if (h < 0.5) h = 0.5;
        unsigned hue = (unsigned)((i * 137u + 17u) % 360u); /* golden-angle-like spread: neighbours differ */
        bool outline = w > 3.0 && h > 3.0;
        fprintf(out,
                "<rect class=\"buf\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"hsl(%u,65%%,62%%)\"%s>"
                "<title>",
                x, y, w, h, hue, outline ? " stroke=\"#333\" stroke-width=\"0.5\"" : "");
        cli_xml_text(out, in->ids[i]);
        fprintf(out, ": %llu bytes at offset %llu, steps %llu-%llu</title></rect>\n", (unsigned long long)size,
                (unsigned long long)off, (unsigned long long)b->lower, (unsigned long long)(b->upper - 1u));
        /* A label only where it fits (about 6.5 px per character at 11 px). */
        double text_w = 6.5 * (double)strlen(in->ids[i]) + 4.0;
        if (w >= text_w && h >= 13.0) {
            fprintf(out, "<text class=\"label\" x=\"%.2f\" y=\"%.2f\" pointer-events=\"none\">", x + 2.0,
                    y + (h < 24.0 ? h / 2.0 + 4.0 : 13.0));
            cli_xml_text(out, in->ids[i]);
            fputs("</text>\n", out);
        }
    }
    fputs("</g>\n", out);

    /* The lower bound: the step where the live sum peaks, and the bound as a height. */
    double bx = LEFT + (scale(s->bound_step, t0, t1, pw) + scale(s->bound_step + 1u, t0, t1, pw)) / 2.0;
    double by = TOP + scale(s->bound, 0, y_hi, ph);
    fprintf(out,
            "<g class=\"bound\"><line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#c00\" "
            "stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n",
            bx, TOP, bx, TOP + PLOT_HEIGHT);
    fprintf(out,
            "<line x1=\"%d\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" stroke=\"#c00\" stroke-width=\"1\" "
            "stroke-dasharray=\"2 3\"/>\n",
            LEFT, by, LEFT + pw, by);
    fprintf(out, "<text x=\"%.2f\" y=\"%d\" fill=\"#c00\" text-anchor=\"%s\">lower bound %llu bytes at step %llu</text>"
                 "</g>\n",
            bx + (bx > LEFT + pw / 2 ? -4.0 : 4.0), TOP + PLOT_HEIGHT + 50, bx > LEFT + pw / 2 ? "end" : "start",
            (unsigned long long)s->bound, (unsigned long long)s->bound_step);
    fputs("</svg>\n", out);
}

static int need_plan(const cli_run *run, const char *what) {
    if (run == NULL) {
        fprintf(stderr, "aplan: no plan to draw as %s\n", what);
        return CLI_EXIT_BAD_INPUT;
    }
    return CLI_EXIT_OK;
}

int cli_write_svg(FILE *out, const cli_session *s, const cli_run *run) {
    int rc = need_plan(run, "SVG");
    if (rc != CLI_EXIT_OK) return rc;
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
    svg_body(out, s, run);
    return CLI_EXIT_OK;
}

int cli_write_html(FILE *out, const cli_session *s, const cli_run *run) {
    int rc = need_plan(run, "HTML");
    if (rc != CLI_EXIT_OK) return rc;
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>aplan: ", out);
    cli_xml_text(out, s->input->name);
    fputs("</title>\n<style>\nbody{font-family:sans-serif;margin:1.5em;color:#222}\n"
          "table{border-collapse:collapse;margin:1em 0}td,th{padding:.25em .8em;border-bottom:1px solid #ddd;"
          "text-align:right}td:first-child,th:first-child{text-align:left}tr.best{font-weight:bold}\n"
          "svg rect.buf:hover{stroke:#000;stroke-width:2}\n</style>\n</head>\n<body>\n<h1>", out);
    cli_xml_text(out, s->input->name);
    fprintf(out, "</h1>\n<p>%zu buffers, alignment %llu, sizes %s. Lower bound %llu bytes, reached at step %llu.</p>\n",
            s->input->count, (unsigned long long)s->settings.alignment,
            s->settings.round_sizes ? "rounded up" : "as given", (unsigned long long)s->bound,
            (unsigned long long)s->bound_step);
    fputs("<table>\n<tr><th>strategy</th><th>arena bytes</th><th>lower bound</th><th>overhead</th><th>time</th>"
          "<th>verified</th></tr>\n",
          out);
    for (size_t i = 0; i < s->run_count; i++) {
        const cli_run *r = &s->runs[i];
        fprintf(out, "<tr%s><td>%s%s</td>", i == s->best ? " class=\"best\"" : "", r->strategy->name,
                i == s->best ? " (best)" : "");
        if (r->planned)
            fprintf(out, "<td>%llu</td><td>%llu</td><td>%+.1f%%</td>", (unsigned long long)r->result.arena_size,
                    (unsigned long long)s->bound, cli_overhead_percent(r->result.arena_size, s->bound));
        else
            fprintf(out, "<td>-</td><td>%llu</td><td>-</td>", (unsigned long long)s->bound);
        fprintf(out, "<td>%.3f ms</td><td>%s", r->millis, r->verified ? "yes" : "no");
        if (r->status != APLAN_OK) {
            fputs(": ", out);
            cli_xml_text(out, r->error);
        }
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n", out);
    svg_body(out, s, run);
    fputs("</body>\n</html>\n", out);
    return CLI_EXIT_OK;
}
