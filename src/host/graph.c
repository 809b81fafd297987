/*
 * The graph listing (`aplan graph MODEL`, `aplan example --graph`): one line per step of the lifetimes, saying what
 * runs at it and which tensors it reads and writes, so that "reached at step 30" can be traced to an operator and
 * its tensors. The steps are the reader's (aplan_tflite_steps): control flow included, each IF / WHILE / CALL_ONCE
 * followed by an entry step and the steps of each subgraph it walks, indented by call depth.
 */
#include <stdlib.h>
#include <string.h>

#include "host.h"

/* One line per step is long anyway and the names are what the listing is for: only a name longer than twice the
 * table's limit (a pathological one) is shortened here. */
#define GRAPH_NAME_SHOWN (2u * APLAN_HOST_NAME_SHOWN)

void aplan_host_graph_heading(FILE *out, const char *name, size_t operators, size_t subgraphs, size_t steps) {
    fprintf(out, "%s: %zu operator%s in %zu subgraph%s, %zu step%s (the steps of the lifetimes)\n", name, operators,
            aplan_host_s(operators), subgraphs, aplan_host_s(subgraphs), steps, aplan_host_s(steps));
    fputs("step  what runs: inputs -> outputs, each tensor as name (id when planned) and bytes; constants counted\n",
          out);
}

/* The named tensors of list, ", "-separated; returns how many constants it left out. */
static size_t write_tensors(FILE *out, const aplan_host_graph_tensor *list, size_t count) {
    size_t constants = 0, shown = 0;
    for (size_t k = 0; k < count; k++) {
        if (list[k].constant) {
            constants++;
            continue;
        }
        if (shown++ > 0) fputs(", ", out);
        (void)aplan_host_write_short(out, list[k].name, GRAPH_NAME_SHOWN);
        if (list[k].id != NULL) fprintf(out, " (%s)", list[k].id);
        fprintf(out, " %llu B", (unsigned long long)list[k].bytes);
    }
    return constants;
}

void aplan_host_graph_line(FILE *out, size_t step, uint32_t depth, const char *what,
                           const aplan_host_graph_tensor *inputs, size_t input_count,
                           const aplan_host_graph_tensor *outputs, size_t output_count) {
    fprintf(out, "%4zu  %*s%s", step, (int)(2u * (depth < 16u ? depth : 16u)), "", what);
    if (input_count > 0) {
        fputs(": ", out);
        size_t constants = write_tensors(out, inputs, input_count);
        if (constants > 0) {
            fprintf(out, "%s%zu constant%s", constants < input_count ? " + " : "", constants,
                    constants == 1 ? "" : "s");
        }
    }
    if (output_count > 0) {
        fputs(" -> ", out);
        (void)write_tensors(out, outputs, output_count);
    }
    fputc('\n', out);
}

/* The buffer index of tensor (subgraph, tensor), or SIZE_MAX when it is not planned: in->tflite_ids are in the
 * reader's order (subgraph, then tensor, ascending), so a binary search. */
static size_t planned_index(const aplan_host_input *in, uint32_t subgraph, uint32_t tensor) {
    size_t lo = 0, hi = in->tensor_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2u;
        const aplan_tflite_id *id = &in->tflite_ids[mid];
        if (id->subgraph < subgraph || (id->subgraph == subgraph && id->tensor < tensor)) lo = mid + 1u;
        else hi = mid;
    }
    return lo < in->tensor_count && in->tflite_ids[lo].subgraph == subgraph && in->tflite_ids[lo].tensor == tensor
               ? lo
               : SIZE_MAX;
}

/* What a line shows of each tensor of the model, read once (aplan_tflite_tensor, O(rank), and the name's text, made
 * once per distinct string) however many operators, or entries of one operator, name it: a FlatBuffer can list one
 * tensor of rank L, or with an L-byte name, K times at 4 bytes each, which a look-up per reference turns into K * L
 * work. */
typedef struct graph_tensor {
    const char *name;       /* names' text, or id when the tensor has no name; NULL until read */
    const char *planned_id; /* the buffer's id when the tensor is planned and named; else NULL */
    uint64_t bytes;
    bool constant;
    char id[24];            /* "s<subgraph>t<tensor>" */
} graph_tensor;

/* Every tensor of the model: subgraph s's tensor t at tensors[first[s] + t]; and the names' texts. */
typedef struct graph_cache {
    graph_tensor *tensors;
    size_t *first;          /* subgraph count + 1 entries */
    size_t subgraphs;
    aplan_host_names names;
} graph_cache;

static void free_cache(graph_cache *c) {
    free(c->tensors);
    free(c->first);
    aplan_host_names_free(&c->names);
    memset(c, 0, sizeof *c);
}

/* Size the cache for the model's subgraphs (aplan_tflite_subgraph: its tensor counts). APLAN_HOST_OK,
 * APLAN_HOST_INTERNAL (out of memory) or APLAN_HOST_BAD_INPUT with *e filled. */
static int init_cache(graph_cache *c, const char *model, size_t size, size_t subgraphs, aplan_format_error *e) {
    memset(c, 0, sizeof *c);
    c->subgraphs = subgraphs;
    c->first = malloc((subgraphs + 1u) * sizeof *c->first);
    if (c->first == NULL) return APLAN_HOST_INTERNAL;
    size_t total = 0;
    for (size_t s = 0; s < subgraphs; s++) {
        aplan_tflite_subgraph_info g;
        if (aplan_tflite_subgraph(model, size, (uint32_t)s, &g, e) != APLAN_OK) return APLAN_HOST_BAD_INPUT;
        c->first[s] = total;
        total += g.tensor_count; /* at most UINT32_MAX - 1 in all (the query) */
    }
    c->first[subgraphs] = total;
    c->tensors = calloc(total + 1u, sizeof *c->tensors);
    return c->tensors != NULL ? APLAN_HOST_OK : APLAN_HOST_INTERNAL;
}

/* Tensor (subgraph, index) as the listing shows it, read on its first use. NULL with *rc APLAN_HOST_BAD_INPUT and *e
 * filled (a tensor the look-up cannot describe; a malformed name alone reads as absent, and the id stands for it) or
 * APLAN_HOST_INTERNAL (out of memory). */
static const graph_tensor *cached_tensor(graph_cache *c, const aplan_host_input *in, const char *model, size_t size,
                                         uint32_t subgraph, uint32_t index, int *rc, aplan_format_error *e) {
    if (subgraph >= c->subgraphs || index >= c->first[subgraph + 1u] - c->first[subgraph]) {
        *rc = APLAN_HOST_BAD_INPUT; /* never for a model the query accepted: the reader checks every index */
        return NULL;
    }
    graph_tensor *g = &c->tensors[c->first[subgraph] + index];
    if (g->name != NULL) return g;
    aplan_tflite_tensor_info t;
    aplan_tflite_id id = {subgraph, index};
    if (aplan_tflite_tensor(model, size, id, &t, e) != APLAN_OK) {
        *rc = APLAN_HOST_BAD_INPUT;
        return NULL;
    }
    (void)aplan_tflite_id_format(id, g->id, sizeof g->id);
    g->bytes = t.size;
    g->constant = t.constant;
    if (t.name.size > 0) {
        aplan_host_name name;
        if (!aplan_host_names_get(&c->names, t.name.data, t.name.size, &name)) {
            *rc = APLAN_HOST_INTERNAL;
            return NULL;
        }
        size_t planned = planned_index(in, subgraph, index);
        g->planned_id = planned != SIZE_MAX ? in->ids[planned] : NULL;
        g->name = name.text;
    } else { /* no name: its id, as everywhere */
        g->name = g->id;
    }
    return g;
}

/* A model's tensors for one line: each entry of v (absent inputs, -1, skipped), pointing into the cache. */
typedef struct tensor_list {
    aplan_host_graph_tensor *items;
    size_t count;
} tensor_list;

/* APLAN_HOST_OK, or what cached_tensor gives. O(entries of v) beyond the first reads of their tensors. */
static int load_tensor_list(graph_cache *c, const aplan_host_input *in, const char *model, size_t size,
                            uint32_t subgraph, aplan_tflite_indices v, tensor_list *l, aplan_format_error *e) {
    l->count = 0;
    l->items = malloc(((size_t)v.count + 1u) * sizeof *l->items);
    if (l->items == NULL) return APLAN_HOST_INTERNAL;
    for (uint32_t k = 0; k < v.count; k++) {
        int32_t index = aplan_tflite_index_at(v, k);
        if (index < 0) continue;
        int rc = APLAN_HOST_OK;
        const graph_tensor *g = cached_tensor(c, in, model, size, subgraph, (uint32_t)index, &rc, e);
        if (g == NULL) return rc;
        l->items[l->count++] = (aplan_host_graph_tensor){g->name, g->planned_id, g->bytes, g->constant};
    }
    return APLAN_HOST_OK;
}

int aplan_host_write_graph(FILE *out, const aplan_host_input *in, const char *model, size_t size,
                           aplan_host_error *err) {
    aplan_tflite_info info;
    aplan_format_error e;
    memset(&e, 0, sizeof e);
    if (aplan_tflite_query(model, size, &info, &e) != APLAN_OK || in->steps == NULL) {
        /* The input loaded, so the query passes; without steps, a custom code could not be read (load_steps). */
        return aplan_host_error_set(err, APLAN_HOST_BAD_INPUT, "%s: the operators cannot be listed: %s", in->name,
                  e.message[0] != '\0' ? e.message : "an operator's custom code is malformed");
    }
    graph_cache cache;
    int rc = init_cache(&cache, model, size, info.subgraph_count, &e);
    if (rc == APLAN_HOST_OK)
        aplan_host_graph_heading(out, in->name, info.operator_count, info.subgraph_count, in->step_count);
    for (size_t k = 0; k < in->step_count && rc == APLAN_HOST_OK; k++) {
        const aplan_host_step *s = &in->steps[k];
        tensor_list inputs = {NULL, 0}, outputs = {NULL, 0};
        if (s->kind == APLAN_TFLITE_STEP_ENTRY) {
            /* a subgraph's inputs are created as it is entered */
            aplan_tflite_subgraph_info g;
            rc = aplan_tflite_subgraph(model, size, s->entered, &g, &e) == APLAN_OK
                     ? load_tensor_list(&cache, in, model, size, s->entered, g.inputs, &outputs, &e)
                     : APLAN_HOST_BAD_INPUT;
        } else if (s->kind == APLAN_TFLITE_STEP_OPERATOR) {
            aplan_tflite_operator_info op;
            rc = aplan_tflite_operator(model, size, s->subgraph, s->op, &op, &e) == APLAN_OK
                     ? load_tensor_list(&cache, in, model, size, s->subgraph, op.inputs, &inputs, &e)
                     : APLAN_HOST_BAD_INPUT;
            if (rc == APLAN_HOST_OK)
                rc = load_tensor_list(&cache, in, model, size, s->subgraph, op.outputs, &outputs, &e);
        }
        if (rc == APLAN_HOST_OK) {
            char what[160];
            (void)aplan_host_describe_step(in, k, what, sizeof what);
            aplan_host_graph_line(out, k, s->depth, what, inputs.items, inputs.count, outputs.items, outputs.count);
        }
        free(inputs.items);
        free(outputs.items);
    }
    free_cache(&cache);
    if (rc == APLAN_HOST_INTERNAL) aplan_host_error_set(err, rc, "out of memory");
    else if (rc != APLAN_HOST_OK)
        aplan_host_error_set(err, rc, "%s: byte %llu: %s", in->name, (unsigned long long)e.byte_offset,
                             e.message[0] != '\0' ? e.message : aplan_status_str(e.status));
    return rc;
}
