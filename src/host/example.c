/*
 * The built-in example: a small int8 MobileNetV2-like network (strided convolutions, depthwise separable blocks and
 * one inverted-residual block whose ADD keeps its input alive across three ops), described as a TFLite graph would
 * be: tensors with shapes, ops with input and output tensors. Lifetimes come from the graph by TFLM's rules
 * (tensorflow/lite/micro/micro_allocation_info.cc, summarised in ../shared/models/README.md), so what `aplan`
 * prints with no arguments is what a real model of this shape would need.
 */
#include <stdlib.h>
#include <string.h>

#include "host.h"

enum { MAX_DIMS = 4, MAX_OP_TENSORS = 3 };

typedef struct ex_tensor {
    const char *name;
    int dims[MAX_DIMS]; /* 0 ends the shape */
    bool constant;      /* weights and biases live in flash: never planned */
} ex_tensor;

typedef struct ex_op {
    const char *kind;
    int inputs[MAX_OP_TENSORS];  /* -1 ends */
    int outputs[MAX_OP_TENSORS]; /* -1 ends */
} ex_op;

static const ex_tensor tensors[] = {
    {"input", {1, 48, 48, 3}, false},      /* 0 */
    {"conv1_w", {16, 3, 3, 3}, true},      /* 1 */
    {"conv1", {1, 24, 24, 16}, false},     /* 2  conv 3x3 stride 2 */
    {"dw1_w", {1, 3, 3, 16}, true},        /* 3 */
    {"dw1", {1, 24, 24, 16}, false},       /* 4  depthwise 3x3 */
    {"pw1_w", {32, 1, 1, 16}, true},       /* 5 */
    {"pw1", {1, 24, 24, 32}, false},       /* 6  pointwise */
    {"dw2_w", {1, 3, 3, 32}, true},        /* 7 */
    {"dw2", {1, 12, 12, 32}, false},       /* 8  depthwise stride 2 */
    {"pw2_w", {32, 1, 1, 32}, true},       /* 9 */
    {"pw2", {1, 12, 12, 32}, false},       /* 10 block input, kept for the skip */
    {"expand_w", {96, 1, 1, 32}, true},    /* 11 */
    {"expand", {1, 12, 12, 96}, false},    /* 12 */
    {"dw3_w", {1, 3, 3, 96}, true},        /* 13 */
    {"dw3", {1, 12, 12, 96}, false},       /* 14 */
    {"project_w", {32, 1, 1, 96}, true},   /* 15 */
    {"project", {1, 12, 12, 32}, false},   /* 16 */
    {"add", {1, 12, 12, 32}, false},       /* 17 skip connection: pw2 + project */
    {"pool", {1, 1, 1, 32}, false},        /* 18 global average pool */
    {"fc_w", {10, 32}, true},              /* 19 */
    {"logits", {1, 10}, false},            /* 20 */
    {"probs", {1, 10}, false},             /* 21 */
};

static const ex_op ops[] = {
    {"CONV_2D", {0, 1, -1}, {2, -1}},
    {"DEPTHWISE_CONV_2D", {2, 3, -1}, {4, -1}},
    {"CONV_2D", {4, 5, -1}, {6, -1}},
    {"DEPTHWISE_CONV_2D", {6, 7, -1}, {8, -1}},
    {"CONV_2D", {8, 9, -1}, {10, -1}},
    {"CONV_2D", {10, 11, -1}, {12, -1}},
    {"DEPTHWISE_CONV_2D", {12, 13, -1}, {14, -1}},
    {"CONV_2D", {14, 15, -1}, {16, -1}},
    {"ADD", {10, 16, -1}, {17, -1}},
    {"AVERAGE_POOL_2D", {17, -1, -1}, {18, -1}},
    {"FULLY_CONNECTED", {18, 19, -1}, {20, -1}},
    {"SOFTMAX", {20, -1, -1}, {21, -1}},
};

static const int graph_inputs[] = {0};
static const int graph_outputs[] = {21};

enum {
    TENSOR_COUNT = (int)(sizeof tensors / sizeof tensors[0]),
    OP_COUNT = (int)(sizeof ops / sizeof ops[0])
};

static uint64_t bytes_of(const ex_tensor *t) {
    uint64_t n = 1; /* int8: one byte per element */
    for (int d = 0; d < MAX_DIMS && t->dims[d] != 0; d++) n *= (uint64_t)t->dims[d];
    return n;
}

int aplan_host_example(aplan_host_input *in) {
    memset(in, 0, sizeof *in);
    /* TFLM's steps: 1 = the subgraph's inputs, op k = step k + 2. first/last are inclusive; -1 = not yet seen. */
    long first[TENSOR_COUNT];
    long last[TENSOR_COUNT];
    for (int t = 0; t < TENSOR_COUNT; t++) first[t] = last[t] = -1;
    for (size_t i = 0; i < sizeof graph_inputs / sizeof graph_inputs[0]; i++) {
        first[graph_inputs[i]] = 1;
        last[graph_inputs[i]] = 1;
    }
    for (int k = 0; k < OP_COUNT; k++) {
        long step = k + 2;
        for (int j = 0; j < MAX_OP_TENSORS && ops[k].outputs[j] >= 0; j++) {
            int t = ops[k].outputs[j];
            if (first[t] < 0) first[t] = step;
            if (last[t] < step) last[t] = step;
        }
        /* Every input is live through the op's step, so an op never works in place. A tensor read before anything
         * wrote it (none here) would start at step 0. */
        for (int j = 0; j < MAX_OP_TENSORS && ops[k].inputs[j] >= 0; j++) {
            int t = ops[k].inputs[j];
            if (first[t] < 0) first[t] = 0;
            if (last[t] < step) last[t] = step;
        }
    }
    for (size_t i = 0; i < sizeof graph_outputs / sizeof graph_outputs[0]; i++) last[graph_outputs[i]] = OP_COUNT + 1;

    in->kind = APLAN_HOST_INPUT_EXAMPLE;
    in->name = "built-in example";
    in->buffers = calloc(TENSOR_COUNT, sizeof *in->buffers);
    in->ids = calloc(TENSOR_COUNT, sizeof *in->ids);
    in->tensors = calloc(TENSOR_COUNT, sizeof *in->tensors);
    in->steps = calloc(OP_COUNT + 2, sizeof *in->steps);
    if (in->buffers == NULL || in->ids == NULL || in->tensors == NULL || in->steps == NULL) {
        aplan_host_input_free(in);
        return APLAN_HOST_INTERNAL;
    }
    /* The steps as a model's: 0 before anything, 1 the inputs of the one subgraph, then op k at step k + 2. */
    in->step_count = OP_COUNT + 2;
    for (size_t k = 0; k < in->step_count; k++) {
        bool op = k >= 2u;
        in->steps[k] = (aplan_host_step){k == 0 ? APLAN_TFLITE_STEP_START : op ? APLAN_TFLITE_STEP_OPERATOR
                                                                      : APLAN_TFLITE_STEP_ENTRY,
                                  op ? 0u : APLAN_TFLITE_NONE, op ? (uint32_t)(k - 2u) : APLAN_TFLITE_NONE,
                                  k == 1 ? 0u : APLAN_TFLITE_NONE, 0u, -1, NULL, 0, false, NULL};
        if (op) { /* a builtin's name, static, like a model's */
            in->steps[k].op_name = ops[k - 2u].kind;
            in->steps[k].op_name_size = strlen(ops[k - 2u].kind);
        }
    }
    for (int t = 0; t < TENSOR_COUNT; t++) {
        if (tensors[t].constant) continue;
        aplan_host_tensor *facts = &in->tensors[in->count]; /* no name: the id is the example's name for it */
        facts->type = "INT8";
        facts->has_shape = true;
        for (int d = 0; d < MAX_DIMS && tensors[t].dims[d] != 0; d++) facts->shape[facts->rank++] = tensors[t].dims[d];
        aplan_buffer *b = &in->buffers[in->count];
        b->size = bytes_of(&tensors[t]);
        if (first[t] < 0) {
            b->lower = b->upper = 0; /* untouched tensors still reach TFLM's planner, with an empty lifetime */
        } else {
            b->lower = (uint64_t)first[t];
            b->upper = (uint64_t)last[t] + 1u;
        }
        b->offset = APLAN_NO_OFFSET;
        in->ids[in->count] = tensors[t].name; /* static: the example's names are its ids */
        in->count++;
    }
    in->tensor_count = in->count;
    in->name = "built-in example";
    return APLAN_HOST_OK;
}

void aplan_host_example_uses(uint64_t *uses, size_t count) {
    size_t i = 0;
    for (int t = 0; t < TENSOR_COUNT && i < count; t++) {
        if (tensors[t].constant) continue;
        uses[i] = 0;
        for (int k = 0; k < OP_COUNT; k++) {
            bool touches = false;
            for (int j = 0; j < MAX_OP_TENSORS && ops[k].inputs[j] >= 0; j++)
                touches = touches || ops[k].inputs[j] == t;
            for (int j = 0; j < MAX_OP_TENSORS && ops[k].outputs[j] >= 0; j++)
                touches = touches || ops[k].outputs[j] == t;
            uses[i] += touches;
        }
        i++;
    }
}

/* The tensors of list (at most max, -1 ended when fewer) as the graph listing shows them; returns how many. */
static size_t graph_tensors(const int *list, size_t max, aplan_host_graph_tensor *out) {
    size_t n = 0;
    for (; n < max && list[n] >= 0; n++) {
        const ex_tensor *t = &tensors[list[n]];
        out[n] = (aplan_host_graph_tensor){t->name, NULL, bytes_of(t), t->constant};
    }
    return n;
}

void aplan_host_example_describe(FILE *out, const aplan_host_input *in) {
    enum { MOST = MAX_OP_TENSORS > (int)(sizeof graph_inputs / sizeof graph_inputs[0])
                      ? MAX_OP_TENSORS : (int)(sizeof graph_inputs / sizeof graph_inputs[0]) };
    aplan_host_graph_tensor inputs[MOST], outputs[MOST];
    char what[96];
    aplan_host_graph_heading(out, "built-in example (an int8 MobileNetV2-like network)", OP_COUNT, 1, in->step_count);
    for (size_t step = 0; step < in->step_count; step++) {
        size_t ni = 0, no = 0;
        if (step == 1) {
            no = graph_tensors(graph_inputs, sizeof graph_inputs / sizeof graph_inputs[0], outputs);
        } else if (step >= 2) {
            ni = graph_tensors(ops[step - 2u].inputs, MAX_OP_TENSORS, inputs);
            no = graph_tensors(ops[step - 2u].outputs, MAX_OP_TENSORS, outputs);
        }
        (void)aplan_host_describe_step(in, step, what, sizeof what);
        aplan_host_graph_line(out, step, 0, what, inputs, ni, outputs, no);
    }
}
