/*
 * The memory picture of a plan, as a static SVG (-f svg) and as a self-contained interactive HTML report (-f html).
 *
 * SVG: time (steps) across, offset down, one rectangle per buffer that occupies memory (live at some step, non-zero
 * size), coloured by size class with a legend, each with a <title> tooltip (name, id, type and shape, size, offset,
 * steps [lower, upper) and the operators of the first and last step, as far as the input gives them); a rectangle is
 * never drawn thinner than MIN_H / MIN_W pixels, smaller buffers are painted over larger ones, and labels appear only
 * where they fit. Under the layout, the bytes live at each step (what any plan must hold then) with the lower bound
 * and the arena as lines. Sizes are written in B / KiB / MiB. Up to DETAIL_LIMIT buffers are drawn one by one; past
 * that, the ones whose rectangle would be under a pixel are drawn at pixel resolution (one path per colour: one
 * rectangle per run of pixels in a column, merged across columns), so the size follows the plot's pixels, not the
 * count: at most DETAIL_LIMIT tooltips of about 0.25 KB (0.4 KB with a model's names and operators), plus the pixel
 * paths (0.9 MB in all for the 100,000 buffers of tests/cli/browser_test.sh, which holds it under 2 MB).
 * The plot is a panel (picture, write_panel_plot): the buffers of one arena between two heights, on a step scale and
 * size classes it is given, so the same code draws every panel.
 *
 * SVG with regions (--region, aplan_host_write_region_svg): the best region plan, one panel per region stacked top to
 * bottom, fastest first, REGION_HEAD + REGION_PLOT_H + REGION_FOOT = 294 px each under the same 76 px of heading,
 * subtitle and legend (so 2 regions make a picture 1200 x 688). Every panel spans the steps of the whole problem (a
 * step lines up across panels) and uses the whole input's size classes (a colour is one size everywhere); each has its
 * own bytes down, from 0 to its arena (or the bound of what can go nowhere else), stretched to its capacity when that
 * is at most twice as much (region_y_hi). A panel's title gives the region's name, capacity, arena (the share of the
 * capacity, or how far over it) and how many buffers it holds; its buffers are drawn as above (tooltips add the region
 * and the buffer's uses, and outside the fastest region its slow-memory traffic); the capacity is a line when within
 * the panel's bytes (a note says it lies below otherwise), and bytes past it are tinted as above when the arena passes
 * it. The heading gives the plan's slow-memory traffic, its lower bound, and whether it is proven least or does not fit
 * (the verdict, then, under the panels). DETAIL_LIMIT holds for the whole picture: the panels share it (detail_limits).
 * There is no live-bytes panel.
 *
 * HTML: one file, no network: the comparison table, then the plans drawn by the script of report_page.js from the
 * plan data embedded once as JSON (every strategy that planned, with the same scales; zoom, pan, search, colour
 * modes, legend, the live-bytes curve). The data is columnar: about 25 bytes per buffer plus 8-10 per buffer and
 * strategy, 5.6 MB for the test's 100,000 buffers and four strategies (ids of a few characters; a model adds its
 * tensors' names, types and shapes and one text per step). The script paints at pixel resolution: drawing costs the
 * pixels covered plus a pass over the buffers. Strategies whose arena is over HIDE_ABOVE times the best start hidden
 * (ticked in the table to show them). With regions (aplan_host_write_region_html): the table of the region strategies
 * (each region's arena, the traffic), and data that adds the regions and, per strategy, each buffer's region (2 bytes a
 * buffer and strategy; write_region_data); the script draws one panel per region for each ticked strategy (the best
 * alone at first), stacked, on one step axis that zooms and pans for all of them.
 *
 * Names: ids and tensor names are arbitrary bytes from files. They are shown as they are when they are valid UTF-8
 * that XML allows; every other byte (invalid UTF-8, control characters, U+FFFE/U+FFFF) is shown as the four
 * characters \xHH (aplan_host_shown_length), the same in the SVG, the table, JSON and the script's data, so the page
 * never breaks and two names never look alike unless equal (a name that holds a literal "\xHH" aside). Tensor names
 * arrive as display text already (aplan_host_name_text: a NUL byte is the text \x00; a name longer than
 * APLAN_HOST_TEXT_MAX bytes is shortened, with its marker), ids as the file holds them. In the JSON every '<', '>' and
 * '&' is written as \u003c etc., so no string can close the <script> element it sits in, and U+2028 and U+2029 as
 * \u2028 and \u2029 (line ends to a pre-2019 JavaScript parser).
 */
#include <stdlib.h>
#include <string.h>

#include "host.h"

enum {
    WIDTH = 1200,
    LEFT = 84,
    RIGHT = 30,
    TOP = 76,       /* title, subtitle and legend above */
    PLOT_H = 500,   /* the layout */
    LIVE_GAP = 34,  /* step labels between the layout and the live-bytes panel */
    LIVE_H = 120,   /* the live-bytes panel */
    BOTTOM = 58,    /* step labels, axis name and the bound's caption */
    VERDICT_LINE = 16, /* a line of the verdict under the drawing, when the plan drawn does not fit */
    DETAIL_LIMIT = 4000,
    REGION_HEAD = 24,    /* a region's panel: its title above the plot, */
    REGION_PLOT_H = 240, /* the plot, */
    REGION_FOOT = 30,    /* the step labels under it */
    REGION_BOTTOM = 24   /* the axis name under the last panel */
};
#define MIN_H 2.0 /* px: the thinnest buffer drawn one by one, so every one is visible and can be hovered */
/* px a character of the heading (15 px bold): DejaVu Sans Bold, the widest common sans-serif, takes 8.7 on average
 * over a path and the figures; capitals take more, other fonts less. The heading keeps at least HEADING_NAME_MIN
 * characters of the name. */
#define HEADING_PX 8.7
#define HEADING_NAME_MIN 16u
#define MIN_W 1.0

/* The viridis ramp (perceptually uniform, readable with colour blindness), dark to light; small classes dark. The
 * script of report_page.js uses the same eight colours. */
static const char *const palette[8] = {"#440154", "#46327e", "#365c8d", "#277f8e",
                                       "#1fa187", "#4ac16d", "#a0da39", "#fde725"};

/* ---- Text ------------------------------------------------------------------------------------------------------ */

/* The one place the picture takes a buffer's name from: the tensor's name when the input gives one, else its id (the
 * CSV id column, the example's name); display text (aplan_host_name_text) for a model's names, so a name's NUL bytes
 * arrive as the text \x00 and every string here is NUL-terminated. */
static const char *buffer_name(const aplan_host_input *in, size_t i) {
    return aplan_host_buffer_name(in, i);
}

typedef enum text_context { IN_XML, IN_JSON } text_context;

/* s as text for an XML/HTML attribute or element (entities) or inside a JSON string (escapes, '<' '>' '&' as
 * \u003c..., U+2028 and U+2029 as \u2028 and \u2029). Bytes that are not shown as themselves (see the opening
 * comment) become the text \xHH. Contract: the result is well-formed XML 1.0 character data (or attribute text in
 * double or single quotes), or the inside of a JSON string that holds no '<', so no "</script" or "<!--" can end or
 * change the <script> element holding it; either way valid UTF-8. */
static void put_text(FILE *out, const char *s, text_context where) {
    const unsigned char *p = (const unsigned char *)s;
    size_t left = strlen(s);
    while (left > 0) {
        size_t n = aplan_host_shown_length(p, left);
        if (n == 0) {
            fprintf(out, where == IN_JSON ? "\\\\x%02X" : "\\x%02X", (unsigned)*p);
            p++, left--;
            continue;
        }
        if (n == 3 && where == IN_JSON && p[0] == 0xE2u && p[1] == 0x80u && (p[2] == 0xA8u || p[2] == 0xA9u)) {
            fprintf(out, "\\u%04X", 0x2028u + (p[2] - 0xA8u)); /* a line end to a script that is not JSON.parse */
            p += n, left -= n;
            continue;
        }
        if (n > 1) {
            fwrite(p, 1, n, out);
            p += n, left -= n;
            continue;
        }
        left--;
        char c = (char)*p++;
        const char *escaped = NULL;
        if (where == IN_XML) {
            escaped = c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : c == '"' ? "&quot;"
                      : c == '\'' ? "&#39;" : NULL;
        } else {
            escaped = c == '<' ? "\\u003c" : c == '>' ? "\\u003e" : c == '&' ? "\\u0026" : c == '"' ? "\\\""
                      : c == '\\' ? "\\\\" : NULL;
        }
        if (escaped != NULL) fputs(escaped, out);
        else fputc(c, out);
    }
}

static void json_text(FILE *out, const char *s) {
    fputc('"', out);
    put_text(out, s, IN_JSON);
    fputc('"', out);
}

/* v in binary units: "12 B", "896 KiB", "2.46 MiB" (three significant digits at most, trailing zeros dropped). */
static void fmt_bytes(char *out, size_t size, uint64_t v) {
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    unsigned u = 0;
    uint64_t div = 1;
    while (u + 1u < sizeof units / sizeof units[0] && v / div >= 1024u) div *= 1024u, u++;
    if (v % div == 0) {
        snprintf(out, size, "%llu %s", (unsigned long long)(v / div), units[u]);
        return;
    }
    double x = (double)v / (double)div;
    int n = snprintf(out, size, "%.*f", x < 10.0 ? 2 : x < 100.0 ? 1 : 0, x);
    if (n < 0 || (size_t)n >= size) return;
    if (strchr(out, '.') != NULL) { /* only digits after a point are dropped: "120" stays */
        while (n > 0 && out[n - 1] == '0') out[--n] = '\0';
        if (n > 0 && out[n - 1] == '.') out[--n] = '\0';
    }
    snprintf(out + n, size - (size_t)n, " %s", units[u]);
}

/* "4 bytes" below 1 KiB; "896 KiB (917504 bytes)" above, so the exact figure is always there. */
static void fmt_bytes_exact(char *out, size_t size, uint64_t v) {
    if (v < 1024u) {
        snprintf(out, size, "%llu byte%s", (unsigned long long)v, aplan_host_s(v));
        return;
    }
    char h[32];
    fmt_bytes(h, sizeof h, v);
    snprintf(out, size, "%s (%llu bytes)", h, (unsigned long long)v);
}

/* ---- Size classes: the colour of a buffer ---------------------------------------------------------------------- */

static unsigned floor_log2(uint64_t v) {
    unsigned r = 0;
    while (v >>= 1) r++;
    return r;
}

/* At most 8 classes of sizes, each a range of whole powers of two: class k holds [2^(low + k*per), 2^(low + (k+1)
 * *per)). One class per power when the sizes span 8 powers or fewer. */
typedef struct size_classes {
    unsigned low, per, count;
} size_classes;

static size_classes make_classes(uint64_t min, uint64_t max) {
    size_classes c;
    c.low = floor_log2(min > 0 ? min : 1u);
    unsigned span = floor_log2(max > 0 ? max : 1u) - c.low + 1u;
    c.per = (span + 7u) / 8u;
    c.count = (span + c.per - 1u) / c.per;
    return c;
}

static unsigned class_of(const size_classes *c, uint64_t size) {
    return (floor_log2(size) - c->low) / c->per;
}

/* Classes spread over the whole ramp, so two classes are never neighbouring shades. */
static unsigned palette_index(const size_classes *c, unsigned k) {
    return c->count == 1 ? 4u : k * 7u / (c->count - 1u);
}

static const char *class_colour(const size_classes *c, unsigned k) {
    return palette[palette_index(c, k)];
}

static const char *class_ink(const size_classes *c, unsigned k) {
    return palette_index(c, k) < 4u ? "#fff" : "#000"; /* text on the class colour */
}

/* "4 KiB–8 KiB": the lower end included, the upper one not. */
static void class_label(char *out, size_t size, const size_classes *c, unsigned k) {
    unsigned e0 = c->low + k * c->per, e1 = e0 + c->per;
    char a[32], b[32];
    fmt_bytes(a, sizeof a, (uint64_t)1 << e0);
    if (e1 >= 64u) snprintf(b, sizeof b, "16 EiB");
    else fmt_bytes(b, sizeof b, (uint64_t)1 << e1);
    snprintf(out, size, "%s\xE2\x80\x93%s", a, b);
}

/* ---- The picture's geometry ------------------------------------------------------------------------------------ */

/* One panel: the buffers of one arena (the plan's, or one region's) drawn between y = top and top + plot_h on the
 * picture's step scale. Every panel of a picture shares t0, t1 and the size classes; y_hi is the panel's own. */
typedef struct picture {
    const aplan_host_session *s;
    const aplan_host_run *run;   /* the plan drawn (one arena); NULL for a region's panel */
    const uint64_t *offsets; /* per buffer: its offset in this panel's arena (buffers of other regions: ignored) */
    uint64_t arena;       /* bytes of the arena drawn */
    uint64_t capacity;    /* the arena's capacity, APLAN_UNLIMITED when none: what passes it is outlined and tinted */
    size_t region;        /* the region drawn, SIZE_MAX for one arena */
    size_t *order;        /* the buffers that occupy memory, largest area (steps x bytes) first: painting order */
    size_t drawn;         /* entries of order */
    size_t individual;    /* order[0..individual) are drawn one by one, the rest at pixel resolution */
    uint64_t t0, t1;      /* steps across: t0 < t1 */
    uint64_t y_hi;        /* bytes down, 0 at the top: at least 1 */
    int top, plot_h;      /* px: where the plot starts, and its height */
    size_classes classes;
} picture;

static const double plot_w = WIDTH - LEFT - RIGHT;

/* The x of a step in [t0, t1]. The distance from t0 is taken in integers before it becomes a double: steps near
 * 2^64 are 2048 apart as doubles, so (double)step - (double)t0 would put a whole range of them on one pixel. */
static double x_of(const picture *g, uint64_t step) {
    return LEFT + (double)(step - g->t0) / (double)(g->t1 - g->t0) * plot_w;
}

static double y_of(const picture *g, double bytes) {
    return g->top + bytes / (double)g->y_hi * g->plot_h;
}

static bool occupies(const aplan_host_session *s, size_t i) {
    const aplan_buffer *b = &s->input->buffers[i];
    return b->lower < b->upper && aplan_buffer_size(&s->problem, i) > 0;
}

/* A sort key that orders non-negative doubles as their values: their IEEE 754 bits, read as an integer. */
static uint64_t order_of(double x) {
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    return bits;
}

/* items[0, n) sorted by keys[item], ties in their order (the library's stable sort, aplan_sort_indices). false when
 * out of memory. */
static bool sort_items(uint32_t *items, size_t n, const uint64_t *keys) {
    uint32_t *tmp = malloc((n > 0 ? n : 1u) * sizeof *tmp);
    if (tmp == NULL) return false;
    bool ok = aplan_sort_indices(items, tmp, n, keys) == APLAN_OK;
    free(tmp);
    return ok;
}

/* What the buffers that occupy memory span: steps [t0, t1) and sizes [smin, smax], over all of them (count > 0) or
 * none (count 0: t0 = t1 = 0, smin = smax = 1). */
typedef struct extent {
    uint64_t t0, t1, smin, smax;
    size_t count;
} extent;

static extent buffers_extent(const aplan_host_session *s) {
    extent e = {UINT64_MAX, 0, UINT64_MAX, 0, 0};
    for (size_t i = 0; i < s->input->count; i++) {
        if (!occupies(s, i)) continue;
        const aplan_buffer *b = &s->input->buffers[i];
        uint64_t size = aplan_buffer_size(&s->problem, i);
        if (b->lower < e.t0) e.t0 = b->lower;
        if (b->upper > e.t1) e.t1 = b->upper;
        if (size < e.smin) e.smin = size;
        if (size > e.smax) e.smax = size;
        e.count++;
    }
    if (e.count == 0) e.t0 = e.t1 = 0, e.smin = e.smax = 1;
    return e;
}

/* g->order: the buffers of the panel that occupy memory (every one when region_of is NULL, else those region_of puts
 * in g->region), largest area first, equal areas by index; then the split between the ones drawn one by one and the
 * pixel layer: every one up to limit; past it, the buffers whose rectangle covers a pixel each way, largest first,
 * up to limit, the rest to the pixel layer, the order staying largest first within each part. g's scales (t0, t1,
 * y_hi, plot_h) must be set. false when out of memory (g->order then NULL). */
static bool panel_order(picture *g, const uint32_t *region_of, size_t limit) {
    const aplan_host_session *s = g->s;
    const aplan_host_input *in = s->input;
    g->drawn = g->individual = 0;
    g->order = malloc((in->count > 0 ? in->count : 1u) * sizeof *g->order);
    uint64_t *keys = malloc((in->count > 0 ? in->count : 1u) * sizeof *keys); /* by buffer: largest area first */
    uint32_t *by_area = malloc((in->count > 0 ? in->count : 1u) * sizeof *by_area);
    if (g->order == NULL || keys == NULL || by_area == NULL) {
        free(by_area);
        free(keys);
        free(g->order);
        g->order = NULL;
        return false;
    }
    for (size_t i = 0; i < in->count; i++) {
        if (!occupies(s, i) || (region_of != NULL && region_of[i] != g->region)) continue;
        const aplan_buffer *b = &in->buffers[i];
        keys[i] = ~order_of((double)aplan_buffer_size(&s->problem, i) * (double)(b->upper - b->lower));
        by_area[g->drawn++] = (uint32_t)i;
    }
    const bool sorted = sort_items(by_area, g->drawn, keys);
    for (size_t k = 0; k < g->drawn; k++) g->order[k] = by_area[k];
    free(by_area);
    free(keys);
    if (!sorted) {
        free(g->order);
        g->order = NULL;
        return false;
    }
    if (g->drawn <= limit) {
        g->individual = g->drawn;
        return true;
    }
    size_t *rest = malloc(g->drawn * sizeof *rest);
    if (rest == NULL) {
        free(g->order);
        g->order = NULL;
        return false;
    }
    size_t kept = 0, others = 0;
    for (size_t k = 0; k < g->drawn; k++) {
        size_t i = g->order[k];
        const aplan_buffer *b = &in->buffers[i];
        double w = x_of(g, b->upper) - x_of(g, b->lower);
        double h = (double)aplan_buffer_size(&s->problem, i) / (double)g->y_hi * g->plot_h;
        if (kept < limit && w >= 1.0 && h >= 1.0) g->order[kept++] = i;
        else rest[others++] = i;
    }
    memcpy(g->order + kept, rest, others * sizeof *rest);
    free(rest);
    g->individual = kept;
    return true;
}

/* Fill g for the one-arena picture of run: the extent (the buffers' steps and the bound's step), bytes down to
 * max(arena, bound), the painting order and the classes. false when out of memory. */
static bool picture_init(picture *g, const aplan_host_session *s, const aplan_host_run *run) {
    memset(g, 0, sizeof *g);
    g->s = s;
    g->run = run;
    g->offsets = run->offsets;
    g->arena = run->result.arena_size;
    g->capacity = s->settings.capacity;
    g->region = SIZE_MAX;
    g->top = TOP;
    g->plot_h = PLOT_H;
    extent e = buffers_extent(s);
    if (s->bound_step < e.t0) e.t0 = s->bound_step;
    if (s->bound_step + 1u > e.t1) e.t1 = s->bound_step + 1u;
    g->t0 = e.t0;
    g->t1 = e.t1;
    g->y_hi = g->arena > s->bound ? g->arena : s->bound;
    if (g->y_hi == 0) g->y_hi = 1;
    g->classes = make_classes(e.smin, e.smax);
    return panel_order(g, NULL, DETAIL_LIMIT);
}

/* ---- Axes ------------------------------------------------------------------------------------------------------ */

/* Tick spacing for steps: the smallest 1, 2 or 5 times a power of ten that is at least `want` (a power of ten
 * when none of those fits in 64 bits). */
static uint64_t step_tick(uint64_t want) {
    for (uint64_t mag = 1;; mag *= 10u) {
        if (mag >= want) return mag;
        if (mag * 2u >= want) return mag * 2u;
        if (mag * 5u >= want) return mag * 5u;
        if (mag > UINT64_MAX / 10u) return mag; /* 10^19: 5 * 10^18 < want, so one tick at most */
    }
}

/* Decimal digits of v. */
static unsigned decimal_digits(uint64_t v) {
    unsigned n = 1;
    while (v >= 10u) v /= 10u, n++;
    return n;
}

/* Tick spacing for bytes: the smallest power of two that gives at most `most` ticks, so labels are round in KiB/MiB. */
static uint64_t byte_tick(uint64_t span, uint64_t most) {
    uint64_t t = 1;
    while (t < span / most + (span % most != 0) && t <= UINT64_MAX / 2u) t *= 2u;
    return t;
}

/* Pixels a step label of `digits` digits takes at 11 px (about 6.5 px a digit) with a gap to its neighbour. */
static double step_label_px(unsigned digits) { return 6.5 * (double)digits + 10.0; }

/* Step ticks across, at most about 8, and never closer than their labels are wide: with steps near 2^64 a label is
 * 20 digits (130 px), so the spacing grows with the labels' width. Every label lies inside the drawing: one that
 * would pass the drawing's right edge (or its left one) ends (starts) 2 px from it instead, and a label so moved
 * that it would meet its neighbour is left out (its grid line stays). Step arithmetic is in integers,
 * overflow-checked: t0 and t1 may be anywhere up to 2^64 - 1. */
static void write_step_ticks(FILE *out, const picture *g, int label_y, int grid_top, int grid_bottom) {
    uint64_t span = g->t1 - g->t0; /* at least 1: t0 <= bound_step < t1 */
    double label_px = step_label_px(decimal_digits(g->t1));
    /* ticks `tick` apart are tick / span * plot_w px apart: want tick >= span * label_px / plot_w */
    double by_width = (double)span * (label_px / plot_w);
    uint64_t want = span / 8u + 1u;
    if (by_width >= (double)UINT64_MAX) want = UINT64_MAX;
    else if (by_width > (double)want) want = (uint64_t)by_width + 1u;
    uint64_t tick = step_tick(want);
    uint64_t rem = g->t0 % tick;
    if (rem != 0 && g->t0 > UINT64_MAX - (tick - rem)) return; /* no multiple of tick at or after t0 */
    double shown_to = 0.0; /* where the last label written ends */
    for (uint64_t t = rem == 0 ? g->t0 : g->t0 + (tick - rem); t <= g->t1; t += tick) {
        double x = x_of(g, t);
        fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e2e2e2\"/>", x, grid_top, x,
                grid_bottom);
        double w = step_label_px(decimal_digits(t)) - 10.0, from = x - w / 2.0;
        const char *anchor = "middle";
        double at = x;
        if (from + w > WIDTH - 2) anchor = "end", at = WIDTH - 2, from = at - w;
        else if (from < 2) anchor = "start", at = 2, from = at;
        /* A label pushed inside the drawing may now meet the one before: then the tick keeps its line only. */
        if (from >= shown_to) {
            fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"%s\" fill=\"#555\">%llu</text>\n", at, label_y,
                    anchor, (unsigned long long)t);
            shown_to = from + w + 6.0;
        } else {
            fputc('\n', out);
        }
        if (t > UINT64_MAX - tick) break;
    }
}

/* A byte tick v (a multiple of tick, a power of two) as fmt_bytes writes it when that is exact ("1.5 MiB"), else in
 * the largest unit that divides tick ("1152 MiB", not a rounded "1.12 GiB"): ticks never look unevenly spaced. */
static void fmt_tick(char *out, size_t size, uint64_t v, uint64_t tick) {
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    fmt_bytes(out, size, v);
    char *end;
    double shown = strtod(out, &end);
    unsigned u = 0;
    while (u + 1u < sizeof units / sizeof units[0] && strncmp(end + 1, units[u], 3) != 0) u++;
    double unit = 1.0;
    for (unsigned k = 0; k < u; k++) unit *= 1024.0;
    if (shown * unit == (double)v) return;
    uint64_t div = 1;
    for (u = 0; u + 1u < sizeof units / sizeof units[0] && tick / div >= 1024u; u++) div *= 1024u;
    snprintf(out, size, "%llu %s", (unsigned long long)(v / div), units[u]);
}

/* Byte ticks down the layout (0 at the top) or up the live panel (0 at the bottom). */
static void write_byte_ticks(FILE *out, const picture *g, int top, int height, bool upward, uint64_t most) {
    uint64_t tick = byte_tick(g->y_hi, most);
    for (uint64_t v = 0; v <= g->y_hi; v += tick) {
        double f = (double)v / (double)g->y_hi * height;
        double y = upward ? top + height - f : top + f;
        char label[32];
        fmt_tick(label, sizeof label, v, tick);
        fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e2e2e2\"/>", LEFT, y,
                LEFT + plot_w, y);
        fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#555\">%s</text>\n", LEFT - 6, y + 4.0,
                v == 0 ? "0" : label);
        if (v > UINT64_MAX - tick) break;
    }
}

/* ---- The layout ------------------------------------------------------------------------------------------------ */

/* A buffer's tooltip opens with its name, then its id when that differs, then its type and shape when known:
 * "MobilenetV1/.../Relu6 (s0t51), INT8 [1x48x48x8]". */
static void write_buffer_title(FILE *out, const aplan_host_input *in, size_t i) {
    put_text(out, buffer_name(in, i), IN_XML);
    if (strcmp(buffer_name(in, i), in->ids[i]) != 0) {
        fputs(" (", out);
        put_text(out, in->ids[i], IN_XML);
        fputc(')', out);
    }
    char tensor[160];
    aplan_host_tensor_text(in, i, tensor, sizeof tensor);
    if (tensor[0] != '\0') fprintf(out, ", %s", tensor);
}

/* ": from <what runs at its first step> to <what runs at its last>" (": at ..." for one step), when the input
 * names its steps. */
static void write_lifetime_ops(FILE *out, const aplan_host_input *in, const aplan_buffer *b) {
    char first[160], last[160];
    if (b->lower >= b->upper || !aplan_host_describe_step(in, b->lower, first, sizeof first) ||
        !aplan_host_describe_step(in, b->upper - 1u, last, sizeof last))
        return;
    fputs(b->upper - b->lower == 1u ? ": at " : ": from ", out);
    put_text(out, first, IN_XML);
    if (b->upper - b->lower > 1u) {
        fputs(" to ", out);
        put_text(out, last, IN_XML);
    }
}

/* In a region's panel, what the buffer costs: "; 2 uses" in the fastest region (region 0), "; 2 uses: 18 KiB (18432
 * bytes) of slow-memory traffic" in any other (its size times its uses, <aplan/regions.h>). */
static void write_buffer_traffic(FILE *out, const aplan_host_session *s, size_t region, size_t i) {
    const uint64_t uses = s->regions.uses != NULL ? s->regions.uses[i] : 1u;
    fprintf(out, "; %llu use%s", (unsigned long long)uses, aplan_host_s(uses));
    if (region == 0) return;
    char t[64];
    fmt_bytes_exact(t, sizeof t, aplan_buffer_size(&s->problem, i) * uses); /* within 64 bits: validated traffic */
    fprintf(out, ": %s of slow-memory traffic", t);
}

static void write_buffer(FILE *out, const picture *g, size_t i) {
    const aplan_host_session *s = g->s;
    const aplan_buffer *b = &s->input->buffers[i];
    uint64_t size = aplan_buffer_size(&s->problem, i), off = g->offsets[i];
    double x = x_of(g, b->lower), w = x_of(g, b->upper) - x;
    double y = y_of(g, (double)off), h = y_of(g, (double)off + (double)size) - y;
    if (w < MIN_W) w = MIN_W;
    if (h < MIN_H) h = MIN_H;
    unsigned k = class_of(&g->classes, size);
    /* A buffer that passes the capacity is outlined in red (a plan drawn although it does not fit). */
    uint64_t cap = g->capacity;
    const char *outline = cap != APLAN_UNLIMITED && size > cap - (off < cap ? off : cap)
                              ? " stroke=\"#d7191c\" stroke-width=\"1.5\" data-over=\"1\""
                          : w > 4.0 && h > 4.0 ? " stroke=\"#fff\" stroke-width=\"0.6\""
                                               : "";
    fprintf(out, "<rect class=\"buf\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"%s><title>", x, y,
            w, h, class_colour(&g->classes, k), outline);
    char sz[64], of[64];
    fmt_bytes_exact(sz, sizeof sz, size);
    if (off < 1024u) snprintf(of, sizeof of, "%llu", (unsigned long long)off);
    else
        fmt_bytes(of, sizeof of, off),
            snprintf(of + strlen(of), sizeof of - strlen(of), " (%llu)", (unsigned long long)off);
    write_buffer_title(out, s->input, i);
    /* "at offset 4" below 1 KiB, "at offset 896 KiB (917504)" above; in a region's panel, "... in fast" */
    fprintf(out, ": %s at offset %s%s%s, steps [%llu, %llu)", sz, of, g->region != SIZE_MAX ? " in " : "",
            g->region != SIZE_MAX ? s->regions.spec[g->region].name : "", (unsigned long long)b->lower,
            (unsigned long long)b->upper);
    write_lifetime_ops(out, s->input, b);
    if (g->region != SIZE_MAX) write_buffer_traffic(out, s, g->region, i);
    fputs("</title></rect>\n", out);
    /* A label only where it fits (about 6.5 px per character at 11 px): the name, else the id when it is shorter. */
    const char *name = buffer_name(s->input, i);
    if (w < 6.5 * (double)aplan_host_text_width(name) + 4.0) name = s->input->ids[i];
    if (w >= 6.5 * (double)aplan_host_text_width(name) + 4.0 && h >= 13.0) {
        fprintf(out, "<text class=\"label\" x=\"%.2f\" y=\"%.2f\" fill=\"%s\" pointer-events=\"none\">", x + 2.0,
                y + (h < 24.0 ? h / 2.0 + 4.0 : 13.0), class_ink(&g->classes, k));
        put_text(out, name, IN_XML);
        fputs("</text>\n", out);
    }
}

/* One run of pixels of one class in one column, open while the next columns repeat it. */
typedef struct pixel_run {
    size_t r0, r1, since;
} pixel_run;

/* Close the runs of prev that column c does not continue; the rest carry over into next with their start column.
 * Emitted as path rectangles, merged across columns, so a block of pixels costs one "M..z"; row r is at y top + r. */
static size_t carry_runs(FILE *out, const pixel_run *prev, size_t np, pixel_run *next, size_t nn, size_t c,
                         size_t top) {
    size_t a = 0, written = 0;
    for (size_t k = 0; k < nn; k++) {
        while (a < np && prev[a].r0 < next[k].r0) {
            fprintf(out, "M%zu %zuh%zuv%zuh-%zuz", LEFT + prev[a].since, top + prev[a].r0, c - prev[a].since,
                    prev[a].r1 - prev[a].r0, c - prev[a].since);
            written++, a++;
        }
        if (a < np && prev[a].r0 == next[k].r0 && prev[a].r1 == next[k].r1) next[k].since = prev[a++].since;
    }
    for (; a < np; a++) {
        fprintf(out, "M%zu %zuh%zuv%zuh-%zuz", LEFT + prev[a].since, top + prev[a].r0, c - prev[a].since,
                prev[a].r1 - prev[a].r0, c - prev[a].since);
        written++;
    }
    return written;
}

/* The buffers order[individual..drawn) at pixel resolution: each pixel takes the class of the last (smallest) buffer
 * painted over it; then one path per class. Costs cols x rows bytes and the pixels covered. false: out of memory. */
static bool write_pixel_layer(FILE *out, const picture *g) {
    const aplan_host_session *s = g->s;
    const size_t cols = (size_t)plot_w, rows = (size_t)g->plot_h;
    if (g->individual == g->drawn) return true;
    unsigned char *cell = calloc(cols * rows, 1); /* column-major: cell[c * rows + r] = class + 1, 0 when empty */
    pixel_run *runs = malloc(2u * rows * sizeof *runs);
    size_t *count = calloc(g->classes.count, sizeof *count);
    if (cell == NULL || runs == NULL || count == NULL) {
        free(cell), free(runs), free(count);
        return false;
    }
    for (size_t k = g->individual; k < g->drawn; k++) {
        size_t i = g->order[k];
        const aplan_buffer *b = &s->input->buffers[i];
        uint64_t size = aplan_buffer_size(&s->problem, i), off = g->offsets[i];
        double x0 = x_of(g, b->lower) - LEFT, x1 = x_of(g, b->upper) - LEFT;
        double y0 = y_of(g, (double)off) - g->top, y1 = y_of(g, (double)off + (double)size) - g->top;
        size_t c0 = (size_t)(x0 + 0.5), c1 = (size_t)(x1 + 0.5), r0 = (size_t)(y0 + 0.5), r1 = (size_t)(y1 + 0.5);
        if (c1 <= c0) c1 = c0 + 1u;
        if (r1 <= r0) r1 = r0 + 1u;
        if (c0 >= cols) c0 = cols - 1u;
        if (c1 > cols) c1 = cols;
        if (r0 >= rows) r0 = rows - 1u;
        if (r1 > rows) r1 = rows;
        unsigned char v = (unsigned char)(class_of(&g->classes, size) + 1u);
        for (size_t c = c0; c < c1; c++) memset(cell + c * rows + r0, v, r1 - r0);
        count[v - 1u]++;
    }
    for (unsigned k = 0; k < g->classes.count; k++) {
        if (count[k] == 0) continue;
        char label[80];
        class_label(label, sizeof label, &g->classes, k);
        fprintf(out, "<path class=\"pixels\" fill=\"%s\" d=\"", class_colour(&g->classes, k));
        pixel_run *prev = runs, *next = runs + rows;
        size_t np = 0;
        for (size_t c = 0; c <= cols; c++) {
            size_t nn = 0;
            for (size_t r = 0; c < cols && r < rows;) {
                if (cell[c * rows + r] != k + 1u) {
                    r++;
                    continue;
                }
                size_t r0 = r;
                while (r < rows && cell[c * rows + r] == k + 1u) r++;
                next[nn++] = (pixel_run){r0, r, c};
            }
            (void)carry_runs(out, prev, np, next, nn, c, (size_t)g->top);
            pixel_run *t = prev;
            prev = next, next = t, np = nn;
        }
        fprintf(out, "\"><title>%zu buffer%s of %s, each under a pixel here, drawn at pixel resolution (the HTML "
                     "report, -f html, zooms into %s)</title></path>\n",
                count[k], aplan_host_s(count[k]), label, count[k] == 1 ? "it" : "them");
    }
    free(cell), free(runs), free(count);
    return true;
}

/* ---- Live bytes per step --------------------------------------------------------------------------------------- */

/* column[c] = the most bytes live at any step that column c of the plot covers; false: out of memory. Events (a start
 * or an end) in step order: 8 + 8 + 4 bytes each, two per drawn buffer. */
static bool live_columns(const picture *g, double *column, size_t cols) {
    const aplan_host_session *s = g->s;
    const size_t events = 2u * g->drawn + 1u;
    uint64_t *step = malloc(events * sizeof *step);
    double *delta = malloc(events * sizeof *delta); /* bytes that start (+) or stop (-) being live: a plot value */
    uint32_t *ev = malloc(events * sizeof *ev);
    size_t n = 0;
    for (size_t k = 0; step != NULL && delta != NULL && ev != NULL && k < g->drawn; k++) {
        size_t i = g->order[k];
        double size = (double)aplan_buffer_size(&s->problem, i);
        step[n] = s->input->buffers[i].lower, delta[n] = size, ev[n] = (uint32_t)n, n++;
        step[n] = s->input->buffers[i].upper, delta[n] = -size, ev[n] = (uint32_t)n, n++;
    }
    if (step == NULL || delta == NULL || ev == NULL || !sort_items(ev, n, step)) {
        free(ev), free(delta), free(step);
        return false;
    }
    double live = 0.0;
    for (size_t k = 0; k < n;) {
        uint64_t t = step[ev[k]];
        while (k < n && step[ev[k]] == t) live += delta[ev[k++]];
        if (k == n || live <= 0.0) continue;
        /* [t, next step) holds `live` bytes: it touches columns floor(x(t)) to ceil(x(next)) - 1 */
        double a = x_of(g, t) - LEFT, b = x_of(g, step[ev[k]]) - LEFT;
        size_t c0 = (size_t)a, c1 = (size_t)b + (b > (double)(size_t)b);
        if (c1 <= c0) c1 = c0 + 1u;
        for (size_t c = c0; c < c1 && c < cols; c++)
            if (live > column[c]) column[c] = live;
    }
    free(ev), free(delta), free(step);
    return true;
}

/* The middle of the step where the live sum peaks (the lower bound's step). */
static double bound_x(const picture *g) {
    return (x_of(g, g->s->bound_step) + x_of(g, g->s->bound_step + 1u)) / 2.0; /* bound_step < t1 */
}

static bool write_live(FILE *out, const picture *g) {
    const aplan_host_session *s = g->s;
    const int top = g->top + PLOT_H + LIVE_GAP, base = top + LIVE_H;
    const size_t cols = (size_t)plot_w;
    double *column = calloc(cols, sizeof *column);
    if (column == NULL || !live_columns(g, column, cols)) {
        free(column);
        return false;
    }
    fprintf(out, "<g class=\"live\"><rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%d\" fill=\"#fafafa\" "
                 "stroke=\"#999\"/>\n", LEFT, top, plot_w, LIVE_H);
    write_byte_ticks(out, g, top, LIVE_H, true, 3u);
    /* The bound's step under the curve, so the peak it marks stays visible; a ring on the peak itself. */
    double bx = bound_x(g), yb = base - (double)s->bound / (double)g->y_hi * LIVE_H;
    fprintf(out, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#c00\" stroke-width=\"1.5\" "
                 "stroke-dasharray=\"6 4\"/>\n", bx, top, bx, base);
    /* A step outline: "V" where the value changes, "H" to where it changes next. */
    fprintf(out, "<path class=\"live-curve\" fill=\"#9ecae1\" stroke=\"#3182bd\" stroke-width=\"1\" d=\"M%d %d", LEFT,
            base);
    double prev = -1.0;
    for (size_t c = 0; c < cols; c++) {
        double y = base - column[c] / (double)g->y_hi * LIVE_H;
        if (y != prev) {
            fprintf(out, "H%zuV%.1f", LEFT + c, y);
            prev = y;
        }
    }
    fprintf(out, "H%zuV%dZ\"><title>bytes live at each step: every plan must hold them at once</title></path>\n",
            LEFT + cols, base);
    free(column);
    char bound[64], arena[64];
    fmt_bytes(bound, sizeof bound, s->bound);
    fmt_bytes(arena, sizeof arena, g->run->result.arena_size);
    fprintf(out, "<circle cx=\"%.2f\" cy=\"%.1f\" r=\"4\" fill=\"none\" stroke=\"#c00\" stroke-width=\"1.5\"/>\n", bx,
            yb);
    double ya = base - (double)g->run->result.arena_size / (double)g->y_hi * LIVE_H;
    fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" stroke-width=\"1\"/>", LEFT, ya,
            LEFT + plot_w, ya);
    fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c00\" stroke-width=\"1.2\" "
                 "stroke-dasharray=\"6 4\"/>\n", LEFT, yb, LEFT + plot_w, yb);
    fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\" fill=\"#333\">live bytes per step; arena %s (%s), "
                 "lower bound %s (dashed)</text>\n",
            LEFT + plot_w, top - 4, arena, g->run->strategy->name, bound);
    fprintf(out, "<text x=\"%d\" y=\"%d\" fill=\"#555\">live</text></g>\n", 6, top + 12);
    return true;
}

/* ---- A panel --------------------------------------------------------------------------------------------------- */

/* The plot of panel g: its frame, the step grid from its top down to grid_bottom with the step labels under the
 * plot, the byte ticks, the buffers (one by one, then the pixel layer) and, when the arena passes the capacity, the
 * bytes [capacity, y_hi) tinted over the buffers, which stay hoverable under it. false when out of memory (the pixel
 * layer; the SVG is then unfinished). */
static bool write_panel_plot(FILE *out, const picture *g, int grid_bottom) {
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%d\" fill=\"#f6f6f6\" stroke=\"#999\"/>\n", LEFT,
            g->top, plot_w, g->plot_h);
    write_step_ticks(out, g, g->top + g->plot_h + 16, g->top, grid_bottom);
    write_byte_ticks(out, g, g->top, g->plot_h, false, 8u);
    fprintf(out, "<text x=\"6\" y=\"%d\" fill=\"#555\">offset</text>\n", g->top + 12);

    fputs("<g class=\"buffers\">\n", out);
    for (size_t k = 0; k < g->individual; k++) write_buffer(out, g, g->order[k]);
    bool ok = write_pixel_layer(out, g);
    fputs("</g>\n", out);
    if (g->capacity != APLAN_UNLIMITED && g->arena > g->capacity) {
        double cy = y_of(g, (double)g->capacity);
        fprintf(out, "<g class=\"overflow\" pointer-events=\"none\"><rect x=\"%d\" y=\"%.2f\" width=\"%.0f\" "
                     "height=\"%.2f\" fill=\"#e66100\" fill-opacity=\"0.16\"/>", LEFT, cy, plot_w,
                g->top + g->plot_h - cy);
        if (g->top + g->plot_h - cy >= 16.0)
            fprintf(out, "<text x=\"%d\" y=\"%.2f\" fill=\"#a33d00\">beyond the capacity</text>", LEFT + 4, cy + 13.0);
        fputs("</g>\n", out);
    }
    return ok;
}

/* Where the memory ends: the capacity as a line across the plot with its figure, when it lies within the panel's
 * bytes (a plan above it, or a region's capacity near its arena); nothing otherwise. */
static void write_capacity_line(FILE *out, const picture *g) {
    const uint64_t cap = g->capacity;
    if (cap == APLAN_UNLIMITED || cap > g->y_hi) return;
    char c[200];
    fmt_bytes_exact(c, sizeof c, cap);
    const uint64_t whole = g->s->settings.whole_capacity;
    if (g->region == SIZE_MAX && whole != APLAN_UNLIMITED) { /* a model: what TFLM's persistent data leaves */
        char h[32], w[32];
        fmt_bytes(h, sizeof h, cap);
        fmt_bytes(w, sizeof w, whole);
        snprintf(c, sizeof c, "for the planned section: %s of %s, after TFLM's persistent data", h, w);
    }
    double cy = y_of(g, (double)cap);
    fprintf(out, "<line class=\"capacity\" x1=\"%d\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" stroke=\"#e66100\" "
                 "stroke-width=\"1.5\"/><text x=\"%.1f\" y=\"%.2f\" text-anchor=\"end\" fill=\"#e66100\">capacity "
                 "%s</text>\n", LEFT, cy, LEFT + plot_w, cy, LEFT + plot_w - 4, cy - 3, c);
}

/* ---- The SVG --------------------------------------------------------------------------------------------------- */

static void write_legend(FILE *out, const picture *g, int y) {
    fprintf(out, "<g class=\"legend\"><text x=\"%d\" y=\"%d\" fill=\"#333\">colour: size</text>\n", LEFT, y + 10);
    double x = LEFT + 80.0;
    for (unsigned k = 0; k < g->classes.count; k++) {
        char label[80];
        class_label(label, sizeof label, &g->classes, k);
        fprintf(out, "<rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"%.1f\" y=\"%d\">%s"
                     "</text>\n", x, y, class_colour(&g->classes, k), x + 16.0, y + 10, label);
        x += 28.0 + 6.2 * (double)strlen(label); /* the dash counts 3 bytes, enough room for it */
    }
    fputs("</g>\n", out);
}

/* What the heading adds to the arena when a search is behind the figure, "" otherwise (at the bound the figures say
 * it all): ", proven optimal", ", the best a search found", ", a search's first plan within the capacity". */
static const char *proof_text(const aplan_host_session *s, const aplan_host_run *run) {
    if (run->result.arena_size == s->bound) return "";
    if (s->best != SIZE_MAX && run == &s->runs[s->best] && aplan_host_best_proven(s)) return ", proven optimal";
    if (!run->searched) return "";
    if (run->result.outcome == APLAN_OUTCOME_BEST_FOUND) return ", the best a search found";
    if (run->result.outcome == APLAN_OUTCOME_FITS) return ", a search's first plan within the capacity";
    return "";
}

static bool write_heading_line(FILE *out, const aplan_host_session *s, const char *figures);

/* The file's own name in path: what follows its last '/' (path itself when it has none: "-", the example). The
 * headings and titles start from it, not from a folder cut from the left. */
static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash != NULL && slash[1] != '\0' ? slash + 1 : path;
}

/* A <title>'s start: the file's name, then its whole path in parentheses when that differs (no figure is cut). */
static void put_title_name(FILE *out, const char *path) {
    const char *base = base_name(path);
    put_text(out, base, IN_XML);
    if (base == path) return;
    fputs(" (", out);
    put_text(out, path, IN_XML);
    fputc(')', out);
}

/* The heading: the input's name and the plan's figures (a, b: the arena and the bound in words; beyond: how far the
 * plan passes the capacity, or ""), in one line that stays inside the drawing: when it would pass the right edge
 * (HEADING_PX a character), the name is shortened from its start as the table shortens names (aplan_host_short_tail);
 * the <title> keeps it whole. The name is the file's (base_name): its folders are in the <title>. false when out of
 * memory. */
static bool write_heading(FILE *out, const aplan_host_session *s, const aplan_host_run *run, const char *a,
                          const char *b, const char *beyond) {
    char figures[APLAN_HOST_VERDICT_SIZE];
    snprintf(figures, sizeof figures, ": %s, arena %s, lower bound %s (%+.1f%%)%s%s%s", run->strategy->name, a, b,
             aplan_host_overhead_percent(run->result.arena_size, s->bound), proof_text(s, run), beyond[0] ? ", " : "",
             beyond);
    return write_heading_line(out, s, figures);
}

/* The heading's line: the input's name, then figures (ASCII), shortened as write_heading says. false when out of
 * memory. */
static bool write_heading_line(FILE *out, const aplan_host_session *s, const char *figures) {
    const char *base = base_name(s->input->name);
    char *name = aplan_host_display_text(base, strlen(base));
    if (name == NULL) return false;
    size_t room = (size_t)((WIDTH - LEFT - 4) / HEADING_PX), used = strlen(figures); /* figures: ASCII */
    const char *tail = aplan_host_short_tail(name, used + HEADING_NAME_MIN < room ? room - used : HEADING_NAME_MIN);
    fprintf(out, "<text x=\"%d\" y=\"22\" font-size=\"15\" font-weight=\"bold\">%s", LEFT, tail != NULL ? "..." : "");
    put_text(out, tail != NULL ? tail : name, IN_XML);
    put_text(out, figures, IN_XML);
    fputs("</text>\n", out);
    free(name);
    return true;
}

/* The verdict split where it would pass the drawing's right edge (about 6.2 px a character at 11 px): after the
 * last "; " that leaves the first line short enough, else nowhere. Returns the length of the first line. */
static size_t verdict_break(const char *v) {
    size_t most = (size_t)(plot_w / 6.2), first = strlen(v);
    if (aplan_host_text_width(v) <= most) return first;
    for (const char *p = strstr(v, "; "); p != NULL && (size_t)(p - v) + 1u <= most; p = strstr(p + 2, "; "))
        first = (size_t)(p - v) + 1u;
    return first;
}

/* px between the lines a model adds to the heading (write_tflm_heading). */
#define TFLM_LINE 15

/* One line of a model's heading at y (nothing when out is NULL): display text, escaped. */
static void tflm_heading_line(FILE *out, int y, const char *cls, const char *text) {
    if (out == NULL) return;
    fprintf(out, "<text class=\"%s\" x=\"%d\" y=\"%d\" fill=\"#333\">", cls, LEFT, y);
    put_text(out, text, IN_XML);
    fputs("</text>\n", out);
}

/* text as heading lines from y on, broken at spaces where a line would pass the plot's width (about 6.2 px a character
 * at 11 px); the lines after the first are indented. Returns how many (out NULL: counts only). */
static int tflm_heading_text(FILE *out, int y, const char *cls, const char *text) {
    const size_t most = (size_t)(plot_w / 6.2);
    char line[1024];
    int lines = 0;
    while (*text != '\0') {
        size_t n = strlen(text), cut = n;
        if (aplan_host_text_width(text) > most) { /* the last space within the width, else the first after it */
            cut = 0;
            for (size_t k = 1; k < n && k <= most; k++)
                if (text[k] == ' ') cut = k;
            if (cut == 0) cut = strcspn(text, " ");
        }
        snprintf(line, sizeof line, "%s%.*s", lines > 0 ? "    " : "", (int)cut, text);
        tflm_heading_line(out, y + lines * TFLM_LINE, cls, line);
        lines++;
        text += cut;
        while (*text == ' ') text++;
    }
    return lines;
}

/* A model's heading under the subtitle, from y on: what the drawing covers (TFLM's planned section, its tensors and
 * kernel scratch buffers; TFLM's persistent data is not drawn), then TFLM's whole arena as the report's "TFLM arena"
 * lines give it, each known setup's smallest arena and arena_used_bytes() with its parts, the setup the report
 * recommends (aplan_host_tflm_setup) marked; or why TFLM's arena is not known. Nothing for other inputs, whose drawing
 * is what the table says. Returns the lines (out NULL: counts only, as svg_body sizes the picture); -1 when out of
 * memory. */
static int write_tflm_heading(FILE *out, const aplan_host_session *s, int y) {
    const aplan_host_input *in = s->input;
    if (in->kind != APLAN_HOST_INPUT_TFLITE) return 0;
    aplan_host_coverage_text c;
    aplan_host_coverage(s, &c);
    char text[1024];
    snprintf(text, sizeof text, "drawn: %s; TFLM's persistent data is not drawn",
             c.what);
    int lines = tflm_heading_text(out, y, "covers", text);
    const aplan_host_tflm_figures *own = &s->tflm_own, *setup = aplan_host_tflm_setup(s);
    char build[160];
    snprintf(build, sizeof build, "TFLM arena (tflite-micro %s, %s, %u-bit ABI)", APLAN_TFLM_COMMIT,
             aplan_host_tflm_kernels_text(&in->tflm), in->tflm.abi);
    if (!own->known) {
        snprintf(text, sizeof text, "%s: %s%s", build,
                 own->status == APLAN_E_FORMAT_UNSUPPORTED || own->status == APLAN_OK ? "" : "cannot be computed: ",
                 own->status == APLAN_OK ? "not computed" : own->why);
        return lines + tflm_heading_text(out, y + lines * TFLM_LINE, "tflm", text);
    }
    snprintf(text, sizeof text, "%s, the setup the report recommends marked:", build);
    lines += tflm_heading_text(out, y + lines * TFLM_LINE, "tflm", text);
    const aplan_host_tflm_figures *all[4] = {own, &s->tflm_embed, &s->tflm_compiled, &s->tflm_adapter};
    const char *const way[4] = {"TFLM's own planner", "this plan, embedded", "this plan, compiled",
                                "this plan, adapter"};
    for (size_t k = 0; k < 4u; k++) {
        const aplan_host_tflm_figures *f = all[k];
        char sum[320];
        if (f->known && !aplan_host_tflm_sum_text(sum, sizeof sum, f)) return -1;
        if (f->known)
            snprintf(text, sizeof text, "%s%s: %s", way[k], f == setup ? " (recommended)" : "", sum);
        else if (k == 1 && f->status != APLAN_OK)
            snprintf(text, sizeof text, "%s: not possible: %s", way[k], f->why);
        else
            continue;
        lines += tflm_heading_text(out, y + lines * TFLM_LINE, f == setup ? "tflm recommended" : "tflm", text);
    }
    if (own->info.unknown_ops > 0) {
        snprintf(text, sizeof text,
                 "not modelled: %lu operator%s the model does not know: every figure above is a "
                 "lower bound",
                 (unsigned long)own->info.unknown_ops, aplan_host_s(own->info.unknown_ops));
        lines += tflm_heading_text(out, y + lines * TFLM_LINE, "tflm", text);
    }
    return lines;
}

static bool svg_body(FILE *out, const aplan_host_session *s, const aplan_host_run *run) {
    const aplan_host_input *in = s->input;
    picture g;
    if (!picture_init(&g, s, run)) return false;
    const int tflm_lines = write_tflm_heading(NULL, s, 0);
    if (tflm_lines < 0) {
        free(g.order);
        return false;
    }
    g.top = TOP + tflm_lines * TFLM_LINE; /* a model's heading lines go between the subtitle and the legend */
    const int live_top = g.top + PLOT_H + LIVE_GAP;
    uint64_t arena = run->result.arena_size, cap = s->settings.capacity;
    /* No plan fits: this is the smallest, drawn with what lies beyond the capacity and the verdict under it. */
    bool over = cap != APLAN_UNLIMITED && arena > cap;
    char verdict[APLAN_HOST_VERDICT_SIZE] = "";
    if (over) (void)aplan_host_verdict(s, verdict, sizeof verdict);
    size_t first = verdict_break(verdict);
    int verdict_lines = verdict[0] == '\0' ? 0 : first < strlen(verdict) ? 2 : 1;
    const int height = live_top + LIVE_H + BOTTOM + verdict_lines * VERDICT_LINE;
    char a[64], b[64], over_by[64], beyond[96] = "";
    fmt_bytes_exact(a, sizeof a, arena);
    fmt_bytes_exact(b, sizeof b, s->bound);
    if (over) {
        fmt_bytes_exact(over_by, sizeof over_by, arena - cap);
        snprintf(beyond, sizeof beyond, "%s over the capacity", over_by);
    }

    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"aplan-layout\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\" data-buffers=\"%zu\" "
            "data-drawn=\"%zu\" data-individual=\"%zu\">\n",
            WIDTH, height, WIDTH, height, in->count, g.drawn, g.individual);
    fputs("<title>", out);
    put_title_name(out, in->name);
    fprintf(out, ": %s, arena %s, lower bound %s%s%s</title>\n", run->strategy->name, a, b, over ? ", " : "", beyond);
    fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", WIDTH, height);
    if (!write_heading(out, s, run, a, b, beyond)) {
        free(g.order);
        return false;
    }
    fprintf(out, "<text x=\"%d\" y=\"40\" fill=\"#555\">time (steps) across, offset down; %zu buffer%s in memory",
            LEFT, g.drawn, aplan_host_s(g.drawn));
    if (g.individual < g.drawn)
        fprintf(out, ", %zu drawn one by one, %zu smaller than a pixel drawn at pixel resolution", g.individual,
                g.drawn - g.individual);
    fputs("; hover a rectangle for its name, size, offset and steps</text>\n", out);
    if (write_tflm_heading(out, s, 56) < 0) {
        free(g.order);
        return false;
    }
    write_legend(out, &g, 50 + tflm_lines * TFLM_LINE);

    bool ok = write_panel_plot(out, &g, live_top + LIVE_H);
    ok = ok && write_live(out, &g);

    /* The lower bound: the step where the live sum peaks, and the bound as a height (no plan ends above it). */
    double bx = bound_x(&g), by = y_of(&g, (double)s->bound);
    fprintf(out, "<g class=\"bound\"><line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#c00\" "
                 "stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n",
            bx, g.top, bx, g.top + PLOT_H);
    fprintf(out, "<line x1=\"%d\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" stroke=\"#c00\" stroke-width=\"1\" "
                 "stroke-dasharray=\"2 3\"/>\n",
            LEFT, by, LEFT + plot_w, by);
    write_capacity_line(out, &g);
    fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">step</text>\n", LEFT + plot_w / 2,
            live_top + LIVE_H + 32);
    char what[160];
    fprintf(out, "<text x=\"%.2f\" y=\"%d\" fill=\"#c00\" text-anchor=\"%s\">lower bound %s at step %llu",
            bx + (bx > LEFT + plot_w / 2 ? -4.0 : 4.0), live_top + LIVE_H + 50,
            bx > LEFT + plot_w / 2 ? "end" : "start", b, (unsigned long long)s->bound_step);
    if (aplan_host_describe_step(in, s->bound_step, what, sizeof what)) {
        fputs(": ", out);
        put_text(out, what, IN_XML);
    }
    fputs("</text></g>\n", out);
    for (int line = 0; line < verdict_lines; line++) {
        fprintf(out, "<text class=\"verdict\" x=\"%d\" y=\"%d\" fill=\"#c00\" font-weight=\"bold\">",
                line == 0 ? LEFT : LEFT + 12, live_top + LIVE_H + BOTTOM + 8 + line * VERDICT_LINE);
        if (line == 0) verdict[first] = '\0';
        put_text(out, line == 0 ? verdict : verdict + first + 1u, IN_XML); /* the second line: after the "; " */
        fputs("</text>\n", out);
    }
    fputs("</svg>\n", out);
    free(g.order);
    return ok;
}

int aplan_host_write_svg(FILE *out, const aplan_host_session *s, const aplan_host_run *run, const aplan_host_options *o,
                         aplan_host_error *err) {
    (void)o;
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
    if (!svg_body(out, s, run)) {
        return aplan_host_error_set(err, APLAN_HOST_INTERNAL, "out of memory drawing the SVG");
    }
    return APLAN_HOST_OK;
}

/* ---- Several regions: one panel per region ------------------------------------------------------------------- */

/* The bytes down a region's panel: its arena (or the bound of what can go nowhere else, when larger), stretched to
 * its capacity when that is at most twice as much, so the capacity shows as a line without squeezing the buffers
 * into less than half the plot; an empty region shows its capacity. At least 1. */
static uint64_t region_y_hi(uint64_t arena, uint64_t bound, uint64_t capacity) {
    uint64_t hi = arena > bound ? arena : bound;
    if (capacity != APLAN_UNLIMITED && capacity > hi && (hi == 0 || capacity / 2u <= hi)) hi = capacity;
    return hi > 0 ? hi : 1u;
}

/* DETAIL_LIMIT shared by n panels holding counts[r] buffers each: limits[r] is how many panel r may draw one by one.
 * The panels with the fewest buffers are served first, each an equal share of what is left, so a share a small
 * panel does not use goes to the larger ones; the limits add up to DETAIL_LIMIT at most. */
static void detail_limits(const size_t *counts, size_t n, size_t *limits) {
    size_t by_count[APLAN_HOST_MAX_REGIONS];
    for (size_t r = 0; r < n; r++) {
        size_t k = r;
        for (; k > 0 && counts[by_count[k - 1]] > counts[r]; k--) by_count[k] = by_count[k - 1];
        by_count[k] = r;
    }
    size_t left = DETAIL_LIMIT;
    for (size_t k = 0; k < n; k++) {
        size_t r = by_count[k], share = left / (n - k);
        limits[r] = counts[r] < share ? counts[r] : share;
        left -= limits[r];
    }
}

/* Whether the region plan's traffic is proven the least: a run proved that no plan fitting every region has less
 * (outcome OPTIMAL) and plan's traffic is that run's. */
static bool traffic_proven(const aplan_host_region_session *rg, const aplan_host_region_run *plan) {
    for (size_t k = 0; k < rg->run_count; k++) {
        const aplan_host_region_run *r = &rg->runs[k];
        if (r->planned && r->status == APLAN_OK && r->result.outcome == APLAN_OUTCOME_OPTIMAL &&
            r->result.traffic == plan->result.traffic)
            return true;
    }
    return false;
}

/* The buffers run puts in region r (those that occupy memory or not). */
static size_t region_buffers(const aplan_host_session *s, const aplan_host_region_run *run, size_t r) {
    size_t n = 0;
    for (size_t i = 0; i < s->input->count; i++) n += run->region_of[i] == r;
    return n;
}

/* "does not fit: <why>" for a region plan that passes a capacity, "" otherwise. */
static void region_verdict(const aplan_host_region_run *run, char *out, size_t size) {
    if (run->status == APLAN_OK) out[0] = '\0';
    else snprintf(out, size, "does not fit: %s", run->error);
}

/* Panel g of a region plan: its title (the region's name, capacity, arena and buffers), its plot, the bound of what
 * can go nowhere else (when there is one), the arena when the plot reaches past it, and the capacity: a line, or a
 * note when it lies below the plot's bytes. One <g class="region" data-region=NAME> holds it all. false when out of
 * memory. */
static bool write_region_panel(FILE *out, const picture *g, const aplan_host_region_run *run) {
    const aplan_host_session *s = g->s;
    const aplan_host_region_session *rg = &s->regions;
    const size_t r = g->region;
    const uint64_t cap = g->capacity, bound = rg->bounds[r];
    const size_t held = region_buffers(s, run, r);
    fputs("<g class=\"region\" data-region=\"", out);
    put_text(out, rg->spec[r].name, IN_XML);
    fprintf(out, "\" data-buffers=\"%zu\" data-drawn=\"%zu\" data-individual=\"%zu\">\n", held, g->drawn,
            g->individual);
    char c[64], a[64], more[160] = "";
    fmt_bytes_exact(a, sizeof a, g->arena);
    if (cap == APLAN_UNLIMITED) snprintf(c, sizeof c, "unlimited");
    else fmt_bytes_exact(c, sizeof c, cap);
    if (cap != APLAN_UNLIMITED && g->arena > cap) {
        char by[64];
        fmt_bytes_exact(by, sizeof by, g->arena - cap);
        snprintf(more, sizeof more, ", %s over the capacity", by);
    } else if (cap != APLAN_UNLIMITED && cap > 0) {
        snprintf(more, sizeof more, " (%.1f%% of it)", 100.0 * (double)g->arena / (double)cap);
    }
    fprintf(out, "<text class=\"region-title\" x=\"%d\" y=\"%d\" font-size=\"13\"><tspan font-weight=\"bold\">", LEFT,
            g->top - 8);
    put_text(out, rg->spec[r].name, IN_XML);
    fprintf(out, "</tspan>: capacity %s; arena %s%s; %zu buffer%s", c, a, more, held, aplan_host_s(held));
    if (bound > 0) {
        char b[64];
        fmt_bytes_exact(b, sizeof b, bound);
        fprintf(out, "; lower bound %s (what can go nowhere else)", b);
    }
    fputs("</text>\n", out);
    bool ok = write_panel_plot(out, g, g->top + g->plot_h);
    if (g->drawn == 0) {
        fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#777\">no buffer in ", LEFT + plot_w / 2,
                g->top + g->plot_h / 2);
        put_text(out, rg->spec[r].name, IN_XML);
        fputs("</text>\n", out);
    }
    if (bound > 0 && bound <= g->y_hi) {
        double by = y_of(g, (double)bound);
        fprintf(out, "<line class=\"bound\" x1=\"%d\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" stroke=\"#c00\" "
                     "stroke-width=\"1\" stroke-dasharray=\"2 3\"/>\n", LEFT, by, LEFT + plot_w, by);
    }
    if (g->arena > 0 && g->arena < g->y_hi) {
        double ay = y_of(g, (double)g->arena);
        fprintf(out, "<line class=\"arena\" x1=\"%d\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" stroke=\"#333\" "
                     "stroke-width=\"1\"/>\n", LEFT, ay, LEFT + plot_w, ay);
    }
    write_capacity_line(out, g);
    if (cap != APLAN_UNLIMITED && cap > g->y_hi)
        fprintf(out, "<text class=\"capacity\" x=\"%.1f\" y=\"%d\" text-anchor=\"end\" fill=\"#e66100\">capacity %s, "
                     "past the bottom of this plot</text>\n", LEFT + plot_w - 4, g->top + g->plot_h - 6, c);
    fputs("</g>\n", out);
    return ok;
}

/* The region plan's heading figures: strategy, traffic, its bound, whether it is proven least or does not fit. */
static void region_figures(const aplan_host_session *s, const aplan_host_region_run *run, char *out, size_t size) {
    const aplan_host_region_session *rg = &s->regions;
    const uint64_t traffic = run->result.traffic;
    char t[64], b[64], percent[32] = "";
    fmt_bytes_exact(t, sizeof t, traffic);
    fmt_bytes_exact(b, sizeof b, rg->traffic_bound);
    if (rg->traffic_bound > 0)
        snprintf(percent, sizeof percent, " (%+.1f%%)", aplan_host_overhead_percent(traffic, rg->traffic_bound));
    snprintf(out, size, ": %s, traffic %s, lower bound %s%s%s%s", run->strategy->name, t, b, percent,
             traffic != rg->traffic_bound && traffic_proven(rg, run) ? ", proven least" : "",
             run->status != APLAN_OK ? ", does not fit" : "");
}

static bool region_svg_body(FILE *out, const aplan_host_session *s) {
    const aplan_host_input *in = s->input;
    const aplan_host_region_session *rg = &s->regions;
    const aplan_host_region_run *run = &rg->runs[rg->best];
    const size_t n = rg->count;
    extent e = buffers_extent(s);
    if (e.count == 0) e.t1 = e.t0 + 1u; /* nothing in memory: one step across */
    size_t counts[APLAN_HOST_MAX_REGIONS] = {0}, limits[APLAN_HOST_MAX_REGIONS];
    for (size_t i = 0; i < in->count; i++)
        if (occupies(s, i)) counts[run->region_of[i]]++;
    detail_limits(counts, n, limits);
    const int pitch = REGION_HEAD + REGION_PLOT_H + REGION_FOOT;
    picture panel[APLAN_HOST_MAX_REGIONS];
    bool ok = true;
    size_t drawn = 0, individual = 0;
    for (size_t r = 0; r < n; r++) {
        picture *g = &panel[r];
        memset(g, 0, sizeof *g);
        g->s = s;
        g->offsets = run->offsets;
        g->arena = run->arenas[r];
        g->capacity = rg->spec[r].size;
        g->region = r;
        g->t0 = e.t0;
        g->t1 = e.t1;
        g->y_hi = region_y_hi(g->arena, rg->bounds[r], g->capacity);
        g->top = TOP + (int)r * pitch + REGION_HEAD;
        g->plot_h = REGION_PLOT_H;
        g->classes = make_classes(e.smin, e.smax); /* the whole input's: a colour means one size in every panel */
        ok = ok && panel_order(g, run->region_of, limits[r]);
        drawn += g->drawn;
        individual += g->individual;
    }
    char verdict[APLAN_HOST_VERDICT_SIZE], figures[APLAN_HOST_VERDICT_SIZE];
    region_verdict(run, verdict, sizeof verdict);
    region_figures(s, run, figures, sizeof figures);
    size_t first = verdict_break(verdict);
    const int verdict_lines = verdict[0] == '\0' ? 0 : first < strlen(verdict) ? 2 : 1;
    const int base = TOP + (int)n * pitch; /* under the last panel */
    const int height = base + REGION_BOTTOM + verdict_lines * VERDICT_LINE;
    if (ok) {
        fprintf(out,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"aplan-layout aplan-regions\" width=\"%d\" "
                "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\" data-buffers=\"%zu\" "
                "data-drawn=\"%zu\" data-individual=\"%zu\" data-regions=\"%zu\">\n",
                WIDTH, height, WIDTH, height, in->count, drawn, individual, n);
        fputs("<title>", out);
        put_title_name(out, in->name);
        put_text(out, figures, IN_XML);
        fprintf(out, "; %zu region%s, fastest first</title>\n", n, aplan_host_s(n));
        fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", WIDTH, height);
        ok = write_heading_line(out, s, figures);
    }
    if (ok) {
        /* At most about 175 characters (6.2 px each at 11 px), so the line ends inside the drawing. */
        fprintf(out, "<text x=\"%d\" y=\"40\" fill=\"#555\">time (steps) across, offset down, a panel per region; "
                     "%zu buffer%s in memory", LEFT, drawn, aplan_host_s(drawn));
        if (individual < drawn)
            fprintf(out, ", %zu drawn one by one, the other %zu at pixel resolution; hover a rectangle for its figures",
                    individual, drawn - individual);
        else
            fputs("; hover a rectangle for its name, size, offset, steps and uses", out);
        fputs("</text>\n", out);
        write_legend(out, &panel[0], 50);
    }
    for (size_t r = 0; ok && r < n; r++) ok = write_region_panel(out, &panel[r], run);
    if (ok) {
        fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">step</text>\n", LEFT + plot_w / 2, base + 10);
        for (int line = 0; line < verdict_lines; line++) {
            fprintf(out, "<text class=\"verdict\" x=\"%d\" y=\"%d\" fill=\"#c00\" font-weight=\"bold\">",
                    line == 0 ? LEFT : LEFT + 12, base + REGION_BOTTOM + 8 + line * VERDICT_LINE);
            if (line == 0) verdict[first] = '\0';
            put_text(out, line == 0 ? verdict : verdict + first + 1u, IN_XML);
            fputs("</text>\n", out);
        }
        fputs("</svg>\n", out);
    }
    for (size_t r = 0; r < n; r++) free(panel[r].order);
    return ok;
}

int aplan_host_write_region_svg(FILE *out, const aplan_host_session *s, const aplan_host_options *o,
                                aplan_host_error *err) {
    (void)o;
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
    if (!region_svg_body(out, s)) {
        return aplan_host_error_set(err, APLAN_HOST_INTERNAL, "out of memory drawing the SVG");
    }
    return APLAN_HOST_OK;
}

/* ---- The HTML report ------------------------------------------------------------------------------------------- */

/* Strategies whose arena is more than this many times the best start hidden (a checkbox shows them): with the same
 * scale for every plan, the baseline's arena would squeeze the others into a sliver. */
#define HIDE_ABOVE 4.0

static bool shown_first(const aplan_host_run *r, const aplan_host_run *best) {
    return r->planned && (double)r->result.arena_size <= HIDE_ABOVE * (double)best->result.arena_size;
}

static void json_u64_array(FILE *out, const char *key, const uint64_t *v, size_t n) {
    fprintf(out, ",\n\"%s\":[", key);
    for (size_t i = 0; i < n; i++) fprintf(out, i > 0 ? ",%llu" : "%llu", (unsigned long long)v[i]);
    fputc(']', out);
}

/* The columns of one entry per input buffer, each written as ',\n"key":[...]': id, names (when some differ from
 * the ids), tensors (a model's), steps (one text per step, when the input names them), lower, len = upper - lower
 * or 0, and the planned size. false when out of memory. */
static bool write_buffer_columns(FILE *out, const aplan_host_session *s) {
    const aplan_host_input *in = s->input;
    size_t n = in->count;
    /* calloc, not malloc: gcc 12 at -m32 -O2 cannot tell that every read of a column follows its write. */
    uint64_t *col = calloc(n > 0 ? n : 1u, sizeof *col);
    if (col == NULL) return false;
    fputs(",\n\"id\":[", out);
    for (size_t i = 0; i < n; i++) {
        if (i > 0) fputc(',', out);
        json_text(out, in->ids[i]);
    }
    fputc(']', out);
    bool named = false;
    for (size_t i = 0; i < n && !named; i++) named = strcmp(buffer_name(in, i), in->ids[i]) != 0;
    if (named) {
        fputs(",\n\"names\":[", out);
        for (size_t i = 0; i < n; i++) {
            if (i > 0) fputc(',', out);
            json_text(out, buffer_name(in, i));
        }
        fputc(']', out);
    }
    if (in->tensors != NULL) {
        fputs(",\n\"tensors\":[", out);
        for (size_t i = 0; i < n; i++) {
            char tensor[160];
            aplan_host_tensor_text(in, i, tensor, sizeof tensor);
            if (i > 0) fputc(',', out);
            json_text(out, tensor);
        }
        fputc(']', out);
    }
    if (in->steps != NULL) {
        fputs(",\n\"steps\":[", out);
        for (size_t k = 0; k < in->step_count; k++) {
            char what[160];
            (void)aplan_host_describe_step(in, k, what, sizeof what);
            if (k > 0) fputc(',', out);
            json_text(out, what);
        }
        fputc(']', out);
    }
    for (size_t i = 0; i < n; i++) col[i] = in->buffers[i].lower;
    json_u64_array(out, "lower", col, n);
    for (size_t i = 0; i < n; i++) {
        const aplan_buffer *b = &in->buffers[i];
        col[i] = b->lower < b->upper ? b->upper - b->lower : 0u;
    }
    json_u64_array(out, "len", col, n);
    for (size_t i = 0; i < n; i++) col[i] = aplan_buffer_size(&s->problem, i);
    json_u64_array(out, "size", col, n);
    free(col);
    return true;
}

/* The plan data the page's script draws, once: columns of one entry per input buffer (id, lower, len = upper -
 * lower or 0, planned size) and one column of offsets per run (null when it did not plan). Numbers above 2^53 lose
 * precision in the script (a double); the table above it is written here, exact. */
static bool write_data(FILE *out, const aplan_host_session *s, const aplan_host_run *best) {
    const aplan_host_input *in = s->input;
    size_t n = in->count;
    fputs("{\"name\":", out);
    json_text(out, in->name);
    fprintf(out, ",\"bound\":%llu,\"boundStep\":%llu,\"alignment\":%llu,\"capacity\":", (unsigned long long)s->bound,
            (unsigned long long)s->bound_step, (unsigned long long)s->settings.alignment);
    if (s->settings.capacity != APLAN_UNLIMITED) fprintf(out, "%llu", (unsigned long long)s->settings.capacity);
    else fputs("null", out);
    if (s->settings.whole_capacity != APLAN_UNLIMITED) /* a model: capacity is what this leaves the planned section */
        fprintf(out, ",\"wholeCapacity\":%llu", (unsigned long long)s->settings.whole_capacity);
    fputs(",\"runs\":[", out);
    for (size_t k = 0; k < s->run_count; k++) {
        const aplan_host_run *r = &s->runs[k];
        fputs(k > 0 ? ",\n{\"name\":" : "\n{\"name\":", out);
        json_text(out, r->strategy->name);
        fprintf(out, ",\"planned\":%s,\"arena\":%llu,\"best\":%s,\"shown\":%s,\"outcome\":",
                r->planned ? "true" : "false", (unsigned long long)(r->planned ? r->result.arena_size : 0u),
                r == best ? "true" : "false", shown_first(r, best) ? "true" : "false");
        if (aplan_host_outcome_key(r) != NULL) json_text(out, aplan_host_outcome_key(r));
        else fputs("null", out);
        fprintf(out, ",\"nodes\":%llu}", (unsigned long long)r->result.nodes);
    }
    fputc(']', out);
    if (!write_buffer_columns(out, s)) return false;
    fputs(",\n\"offsets\":[", out);
    for (size_t k = 0; k < s->run_count; k++) {
        const aplan_host_run *r = &s->runs[k];
        if (k > 0) fputs(",\n", out);
        if (!r->planned) {
            fputs("null", out);
            continue;
        }
        fputc('[', out);
        for (size_t i = 0; i < n; i++) fprintf(out, i > 0 ? ",%llu" : "%llu", (unsigned long long)r->offsets[i]);
        fputc(']', out);
    }
    fputs("]}", out);
    return true;
}


/* The runs' table; shown is the plan the page is about (the best, or the smallest when none fits), which the others
 * are compared with. */
static void write_table(FILE *out, const aplan_host_session *s, const aplan_host_run *shown) {
    const aplan_host_run *best = s->best != SIZE_MAX ? &s->runs[s->best] : NULL;
    fputs(
        "<div class=\"scroll\"><table id=\"runs\">\n<tr><th>shown</th><th>strategy</th><th>arena</th><th>lower bound</th>"
        "<th>overhead</th><th>outcome</th><th>time</th><th>verified</th></tr>\n",
        out);
    char bound[64];
    fmt_bytes(bound, sizeof bound, s->bound);
    for (size_t k = 0; k < s->run_count; k++) {
        const aplan_host_run *r = &s->runs[k];
        fprintf(out, "<tr%s><td><input type=\"checkbox\" class=\"show\" data-run=\"%zu\"%s%s "
                     "aria-label=\"show %s\"></td><td>%s%s</td>",
                r == best ? " class=\"best\"" : "", k, shown_first(r, shown) ? " checked" : "",
                r->planned ? "" : " disabled", r->strategy->name, r->strategy->name,
                r == best ? " (best)" : r == shown ? " (smallest; does not fit)" : "");
        if (r->planned) {
            char arena[64];
            fmt_bytes(arena, sizeof arena, r->result.arena_size);
            fprintf(out,
                    "<td title=\"%llu byte%s\">%s <small>%llu</small></td><td title=\"%llu byte%s\">%s</td>"
                    "<td>%+.1f%%</td>",
                    (unsigned long long)r->result.arena_size, aplan_host_s(r->result.arena_size), arena,
                    (unsigned long long)r->result.arena_size, (unsigned long long)s->bound, aplan_host_s(s->bound),
                    bound, aplan_host_overhead_percent(r->result.arena_size, s->bound));
        } else {
            fprintf(out, "<td>-</td><td title=\"%llu byte%s\">%s</td><td>-</td>", (unsigned long long)s->bound,
                    aplan_host_s(s->bound), bound);
        }
        fprintf(out, "<td>%s", aplan_host_outcome_word(r));
        if (r->searched)
            fprintf(out, " <small>%llu node%s</small>", (unsigned long long)r->result.nodes,
                    aplan_host_s(r->result.nodes));
        fputs("</td>", out);
        fprintf(out, "<td>%.3f ms</td><td>%s", r->millis, r->verified ? "yes" : "no");
        if (r->status != APLAN_OK) {
            fputs(": ", out);
            put_text(out, r->error, IN_XML);
        }
        fputs("</td></tr>\n", out);
    }
    fputs("</table></div>\n", out);
}

/* The page from its doctype to its <h1>, the input's file name (its path under it), with the style sheet. */
static void write_page_head(FILE *out, const aplan_host_input *in) {
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>aplan: ", out);
    put_title_name(out, in->name);
    fputs("</title>\n<style>\n", out);
    for (const char *const *line = aplan_host_report_style; *line != NULL; line++) fputs(*line, out);
    fputs("</style>\n</head>\n<body>\n<h1>", out);
    put_text(out, base_name(in->name), IN_XML);
    fputs("</h1>\n", out);
    if (base_name(in->name) != in->name) { /* the folders, under the file's name */
        fputs("<p class=\"path\">", out);
        put_text(out, in->name, IN_XML);
        fputs("</p>\n", out);
    }
}

/* Where the script draws, up to the opening of the data's <script> element; the data follows. */
static void write_page_app(FILE *out) {
    fputs("<div id=\"app\"></div>\n<noscript><p>The plans are drawn by the page's script; without it, "
          "<code>aplan plan -f svg</code> draws the best plan as a static picture.</p></noscript>\n"
          "<p id=\"selfcheck\" data-state=\"loading\"></p>\n<script type=\"application/json\" id=\"aplan-data\">",
          out);
}

/* After the data: the script, and the page's end. */
static void write_page_end(FILE *out) {
    fputs("</script>\n<script>\n", out);
    for (const char *const *line = aplan_host_report_script; *line != NULL; line++) fputs(*line, out);
    fputs("</script>\n</body>\n</html>\n", out);
}

/* A model's page, under its first paragraph: what the plans drawn and the table's arenas cover (TFLM's planned
 * section; its persistent data is not drawn), then TFLM's whole arena, as the report's "TFLM arena" lines give it, in
 * a table (#tflm): one row per known setup with its smallest arena, arena_used_bytes() and parts, the setup the
 * report recommends (aplan_host_tflm_setup) marked; or a paragraph saying why TFLM's arena is not known. Nothing for
 * other inputs. false when out of memory. */
static bool write_tflm_html(FILE *out, const aplan_host_session *s) {
    const aplan_host_input *in = s->input;
    if (in->kind != APLAN_HOST_INPUT_TFLITE) return true;
    aplan_host_coverage_text c;
    aplan_host_coverage(s, &c);
    fputs("<p class=\"covers\">Drawn, and the arenas of the table: ", out);
    put_text(out, c.what, IN_XML);
    fputs("; TFLM&#39;s persistent data is not drawn: the TFLM arena below counts it.</p>\n", out);
    const aplan_host_tflm_figures *own = &s->tflm_own, *setup = aplan_host_tflm_setup(s);
    char build[160];
    snprintf(build, sizeof build, "TFLM arena (tflite-micro %s, %s, %u-bit ABI)", APLAN_TFLM_COMMIT,
             aplan_host_tflm_kernels_text(&in->tflm), in->tflm.abi);
    if (!own->known) {
        fputs("<p class=\"tflm\">", out);
        put_text(out, build, IN_XML);
        fputs(own->status == APLAN_E_FORMAT_UNSUPPORTED || own->status == APLAN_OK ? ": " : ": cannot be computed: ",
              out);
        put_text(out, own->status == APLAN_OK ? "not computed" : own->why, IN_XML);
        fputs("</p>\n", out);
        return true;
    }
    fputs("<div class=\"scroll\"><table id=\"tflm\">\n<caption>", out);
    put_text(out, build, IN_XML);
    fputs(": the setup the report recommends is marked</caption>\n<tr><th>setup</th><th>smallest arena</th>"
          "<th>arena_used_bytes()</th><th>its parts</th></tr>\n", out);
    const aplan_host_tflm_figures *all[4] = {own, &s->tflm_embed, &s->tflm_compiled, &s->tflm_adapter};
    const char *const way[4] = {"TFLM&#39;s own planner", "this plan, embedded", "this plan, compiled",
                                "this plan, adapter"};
    for (size_t k = 0; k < 4u; k++) {
        const aplan_host_tflm_figures *f = all[k];
        if (!f->known) {
            if (k == 1 && f->status != APLAN_OK) {
                fprintf(out, "<tr><td>%s</td><td colspan=\"3\">not possible: ", way[k]);
                put_text(out, f->why, IN_XML);
                fputs("</td></tr>\n", out);
            }
            continue;
        }
        char sum[320];
        if (!aplan_host_tflm_sum_text(sum, sizeof sum, f)) return false;
        fprintf(out, "<tr%s><td>%s%s</td><td>%llu%s</td><td>%llu</td><td>", f == setup ? " class=\"recommended\"" : "",
                way[k], f == setup ? " (recommended)" : "", (unsigned long long)f->info.smallest,
                f->info.unknown_ops > 0 ? " (at least)" : "", (unsigned long long)f->info.used);
        put_text(out, strstr(sum, " = ") + 3, IN_XML);
        fputs("</td></tr>\n", out);
    }
    fputs("</table></div>\n", out);
    if (own->info.unknown_ops > 0)
        fprintf(out, "<p class=\"tflm\">Not modelled: %lu operator%s the model does not know: every figure above is "
                     "a lower bound.</p>\n", (unsigned long)own->info.unknown_ops, aplan_host_s(own->info.unknown_ops));
    return true;
}

int aplan_host_write_html(FILE *out, const aplan_host_session *s, const aplan_host_run *run,
                          const aplan_host_options *o, aplan_host_error *err) {
    (void)o;
    const aplan_host_input *in = s->input;
    write_page_head(out, in);
    char bound[64];
    fmt_bytes_exact(bound, sizeof bound, s->bound);
    fprintf(out, "<p>%zu buffer%s, alignment %llu, sizes %s. Lower bound %s (no plan can be smaller), reached "
                 "at step %llu",
            in->count, aplan_host_s(in->count), (unsigned long long)s->settings.alignment,
            s->settings.round_sizes ? "rounded up" : "as given", bound, (unsigned long long)s->bound_step);
    char what[160];
    if (aplan_host_describe_step(in, s->bound_step, what, sizeof what)) {
        fputs(": ", out);
        put_text(out, what, IN_XML);
    }
    fputs(".</p>\n", out);
    if (!write_tflm_html(out, s)) {
        return aplan_host_error_set(err, APLAN_HOST_INTERNAL, "out of memory writing the HTML report");
    }
    char verdict[APLAN_HOST_VERDICT_SIZE];
    if (s->best == SIZE_MAX && aplan_host_verdict(s, verdict, sizeof verdict)) { /* the plan drawn does not fit */
        fputs("<p class=\"verdict\">", out);
        put_text(out, verdict, IN_XML);
        fputs("</p>\n", out);
    }
    write_table(out, s, run);
    write_page_app(out);
    if (!write_data(out, s, run)) {
        return aplan_host_error_set(err, APLAN_HOST_INTERNAL, "out of memory writing the HTML report");
    }
    write_page_end(out);
    return APLAN_HOST_OK;
}

/* ---- The HTML report with regions ------------------------------------------------------------------------------ */

/* What a region run's plan proves, as the region JSON says it: "optimal", "infeasible", "best_found", "fits" or
 * "plan". */
static const char *region_outcome_key(const aplan_host_region_run *run) {
    switch (run->result.outcome) {
    case APLAN_OUTCOME_OPTIMAL: return "optimal";
    case APLAN_OUTCOME_INFEASIBLE: return "infeasible";
    case APLAN_OUTCOME_BEST_FOUND: return "best_found";
    case APLAN_OUTCOME_FITS: return "fits";
    default: return "plan";
    }
}

/* The plan data of a region session, for the script: the keys of write_data (bound and boundStep null: one arena's
 * bound means nothing here; capacity null: the regions carry theirs) with each run's arena the sum of its regions',
 * and besides: regions [{name, capacity (null: unlimited), alignment, bound}], trafficBound, per run traffic, over
 * (regions past their capacity) and arenas (one per region, null when it did not plan), uses (one per buffer, when
 * the input gives them), and regionOf (per run, each buffer's region; null when it did not plan) beside offsets
 * (each buffer's offset in its region's arena). Only the best run is shown at first. false when out of memory. */
static bool write_region_data(FILE *out, const aplan_host_session *s) {
    const aplan_host_input *in = s->input;
    const aplan_host_region_session *rg = &s->regions;
    const size_t n = in->count;
    fputs("{\"name\":", out);
    json_text(out, in->name);
    fprintf(out, ",\"bound\":null,\"boundStep\":null,\"alignment\":%llu,\"capacity\":null,\n\"regions\":[",
            (unsigned long long)s->settings.alignment);
    for (size_t r = 0; r < rg->count; r++) {
        fputs(r > 0 ? ",{\"name\":" : "{\"name\":", out);
        json_text(out, rg->spec[r].name);
        fputs(",\"capacity\":", out);
        if (rg->spec[r].size != APLAN_UNLIMITED) fprintf(out, "%llu", (unsigned long long)rg->spec[r].size);
        else fputs("null", out);
        fprintf(out, ",\"alignment\":%llu,\"bound\":%llu}", (unsigned long long)rg->spec[r].align,
                (unsigned long long)rg->bounds[r]);
    }
    fprintf(out, "],\"trafficBound\":%llu,\"runs\":[", (unsigned long long)rg->traffic_bound);
    for (size_t k = 0; k < rg->run_count; k++) {
        const aplan_host_region_run *r = &rg->runs[k];
        uint64_t sum = 0;
        for (size_t q = 0; r->planned && q < rg->count; q++)
            sum = r->arenas[q] > UINT64_MAX - sum ? UINT64_MAX : sum + r->arenas[q];
        fputs(k > 0 ? ",\n{\"name\":" : "\n{\"name\":", out);
        json_text(out, r->strategy->name);
        fprintf(out, ",\"planned\":%s,\"arena\":%llu,\"best\":%s,\"shown\":%s,\"outcome\":",
                r->planned ? "true" : "false", (unsigned long long)sum, k == rg->best ? "true" : "false",
                k == rg->best ? "true" : "false");
        if (r->planned) json_text(out, region_outcome_key(r));
        else fputs("null", out);
        fprintf(out, ",\"nodes\":%llu,\"traffic\":%llu,\"over\":%u,\"arenas\":", (unsigned long long)r->result.nodes,
                (unsigned long long)(r->planned ? r->result.traffic : 0u), r->planned ? r->result.regions_over : 0u);
        if (!r->planned) {
            fputs("null}", out);
            continue;
        }
        for (size_t q = 0; q < rg->count; q++)
            fprintf(out, q > 0 ? ",%llu" : "[%llu", (unsigned long long)r->arenas[q]);
        fputs("]}", out);
    }
    fputc(']', out);
    if (!write_buffer_columns(out, s)) return false;
    if (rg->uses != NULL) json_u64_array(out, "uses", rg->uses, n);
    fputs(",\n\"offsets\":[", out);
    for (size_t k = 0; k < rg->run_count; k++) {
        const aplan_host_region_run *r = &rg->runs[k];
        if (k > 0) fputs(",\n", out);
        if (!r->planned) {
            fputs("null", out);
            continue;
        }
        fputc('[', out);
        for (size_t i = 0; i < n; i++) fprintf(out, i > 0 ? ",%llu" : "%llu", (unsigned long long)r->offsets[i]);
        fputc(']', out);
    }
    fputs("],\n\"regionOf\":[", out);
    for (size_t k = 0; k < rg->run_count; k++) {
        const aplan_host_region_run *r = &rg->runs[k];
        if (k > 0) fputs(",\n", out);
        if (!r->planned) {
            fputs("null", out);
            continue;
        }
        fputc('[', out);
        for (size_t i = 0; i < n; i++) fprintf(out, i > 0 ? ",%u" : "%u", (unsigned)r->region_of[i]);
        fputc(']', out);
    }
    fputs("]}", out);
    return true;
}

/* The region runs' table: per run its arena in each region (of the capacity), the traffic and how far above its
 * bound, the outcome, the time and the verification; a checkbox per run that planned (input.show[data-run=k], the
 * best ticked) draws or hides its panels. */
static void write_region_table(FILE *out, const aplan_host_session *s) {
    const aplan_host_region_session *rg = &s->regions;
    fputs("<div class=\"scroll\"><table id=\"runs\" class=\"regions\">\n<tr><th>shown</th><th>strategy</th>", out);
    for (size_t r = 0; r < rg->count; r++) {
        fputs("<th>", out);
        put_text(out, rg->spec[r].name, IN_XML);
        fputs("</th>", out);
    }
    fputs("<th>traffic</th><th>over bound</th><th>outcome</th><th>time</th><th>verified</th></tr>\n", out);
    for (size_t k = 0; k < rg->run_count; k++) {
        const aplan_host_region_run *r = &rg->runs[k];
        const bool best = k == rg->best;
        fprintf(out, "<tr%s><td><input type=\"checkbox\" class=\"show\" data-run=\"%zu\"%s%s aria-label=\"show %s\">"
                     "</td><td>%s%s</td>",
                best ? " class=\"best\"" : "", k, best ? " checked" : "", r->planned ? "" : " disabled",
                r->strategy->name, r->strategy->name,
                best ? (r->status == APLAN_OK ? " (best)" : " (best; does not fit)") : "");
        for (size_t q = 0; q < rg->count; q++) {
            if (!r->planned) {
                fputs("<td>-</td>", out);
                continue;
            }
            const uint64_t a = r->arenas[q], cap = rg->spec[q].size;
            char h[32];
            fmt_bytes(h, sizeof h, a);
            fprintf(out, "<td title=\"%llu byte%s", (unsigned long long)a, aplan_host_s(a));
            if (cap != APLAN_UNLIMITED) fprintf(out, " of %llu", (unsigned long long)cap);
            fprintf(out, "\">%s", h);
            if (cap != APLAN_UNLIMITED && a > cap) fputs(" <b class=\"verdict\">over</b>", out);
            else if (cap != APLAN_UNLIMITED && cap > 0)
                fprintf(out, " <small>%.0f%%</small>", 100.0 * (double)a / (double)cap);
            fputs("</td>", out);
        }
        if (r->planned) {
            const uint64_t t = r->result.traffic;
            char h[32], over[32];
            fmt_bytes(h, sizeof h, t);
            if (rg->traffic_bound == 0) snprintf(over, sizeof over, "%s", t == 0 ? "+0" : "-");
            else snprintf(over, sizeof over, "%+.1f%%", aplan_host_overhead_percent(t, rg->traffic_bound));
            fprintf(out, "<td title=\"%llu byte%s\">%s <small>%llu</small></td><td>%s</td><td>%s",
                    (unsigned long long)t, aplan_host_s(t), h, (unsigned long long)t, over, region_outcome_key(r));
            if (r->result.nodes > 0)
                fprintf(out, " <small>%llu node%s</small>", (unsigned long long)r->result.nodes,
                        aplan_host_s(r->result.nodes));
            fputs("</td>", out);
        } else {
            fputs("<td>-</td><td>-</td><td>-</td>", out);
        }
        fprintf(out, "<td>%.3f ms</td><td>%s", r->millis, r->verified ? "yes" : "no");
        if (r->status != APLAN_OK) {
            fputs(": ", out);
            put_text(out, r->error, IN_XML);
        }
        fputs("</td></tr>\n", out);
    }
    fputs("</table></div>\n", out);
}

int aplan_host_write_region_html(FILE *out, const aplan_host_session *s, const aplan_host_options *o,
                                 aplan_host_error *err) {
    (void)o;
    const aplan_host_input *in = s->input;
    const aplan_host_region_session *rg = &s->regions;
    write_page_head(out, in);
    fprintf(out, "<p>%zu buffer%s, alignment %llu, sizes %s; %zu region%s, fastest first: ", in->count,
            aplan_host_s(in->count), (unsigned long long)s->settings.alignment,
            s->settings.round_sizes ? "rounded up" : "as given", rg->count, aplan_host_s(rg->count));
    for (size_t r = 0; r < rg->count; r++) {
        char c[64];
        fmt_bytes_exact(c, sizeof c, rg->spec[r].size);
        fputs(r > 0 ? ", " : "", out);
        put_text(out, rg->spec[r].name, IN_XML);
        fprintf(out, " %s", rg->spec[r].size != APLAN_UNLIMITED ? c : "unlimited");
        if (rg->spec[r].align > 1u) fprintf(out, " (offsets aligned to %llu)", (unsigned long long)rg->spec[r].align);
    }
    char bound[64];
    fmt_bytes_exact(bound, sizeof bound, rg->traffic_bound);
    fputs(". Slow-memory traffic, the bytes of the buffers outside ", out);
    put_text(out, rg->spec[0].name, IN_XML);
    fprintf(out, " times their uses, is at least %s.</p>\n", bound);
    if (rg->best != SIZE_MAX) {
        char verdict[APLAN_HOST_VERDICT_SIZE];
        region_verdict(&rg->runs[rg->best], verdict, sizeof verdict);
        if (verdict[0] != '\0') {
            fputs("<p class=\"verdict\">", out);
            put_text(out, verdict, IN_XML);
            fputs("</p>\n", out);
        }
    }
    write_region_table(out, s);
    write_page_app(out);
    if (!write_region_data(out, s)) {
        return aplan_host_error_set(err, APLAN_HOST_INTERNAL, "out of memory writing the HTML report");
    }
    write_page_end(out);
    return APLAN_HOST_OK;
}
