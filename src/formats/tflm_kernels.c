/*
 * What each of TFLM's reference kernels asks of the arena (tensorflow/tflite-micro at APLAN_TFLM_COMMIT): one entry
 * per operator MicroMutableOpResolver can register, naming the sources it was read from, with its builtin options
 * struct, the persistent buffers of its Init and every temporary tensor, persistent buffer and scratch request of
 * its Prepare, in the kernel's order.
 *
 * The facts were read from the kernels' sources and checked allocation by allocation against an instrumented TFLM
 * build (x86-64, and 32-bit ARM under qemu-user) on real models and on models made to exercise each kernel: sizes
 * of structs private to a kernel (its OpData) were measured by compiling the kernel for each target. Sizes here
 * are facts, not TFLM's code. docs/tflm.md says how they were checked and lists what is not modelled.
 *
 * Not modelled, and so reported as unknown operators (aplan_tflm_arena_info.unknown_ops): the resource variable
 * operators (VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE), which need the application's MicroResourceVariables in
 * the arena and allocate on an assignment that depends on other operators; operators the reference resolver cannot
 * register (REDUCE_PROD, ethos-u without an Ethos-U build, DECODE without compression).
 *
 * Device side: no allocation, no stdio. Sizes are computed in 64 bits and saturate (the replay then fails, as TFLM
 * would on such a model).
 */
#include "formats/tflm_internal.h"

#include "formats/tflite_ops.h"

enum { FLOAT32 = 0, INT32 = 2, UINT8 = 3, INT64 = 4, BOOL = 6, INT16 = 7, INT8 = 9, INT4 = 17 }; /* TensorType codes */

#define K(file) "tensorflow/lite/micro/kernels/" file
#define S(file) "signal/micro/kernels/" file

/* ---- Arithmetic and shorthands ---------------------------------------------------------------------------------- */

static uint64_t mul(uint64_t a, uint64_t b) {
    uint64_t r;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}
static uint64_t add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
/* A dimension as TFLM's int reads it (an absent tensor or a rank too small reads 0 here; TFLM's kernels reject
 * those models). i < 0 counts from the end. */
static uint64_t dim(aplan__tflm_tensor t, int i) {
    const int at = i < 0 ? (int)t.rank + i : i;
    return at >= 0 && (uint32_t)at < t.rank && at < (int)APLAN_TFLITE_MAX_RANK ? (uint64_t)t.dims[at] : 0u;
}
/* Channels TFLM sees in a tensor's quantization: it builds its TfLiteAffineQuantization only when both the scale
 * and the zero point vectors are non-empty. */
static uint64_t channels(const aplan__tflm_tensor *t) {
    return t->present && t->scales > 0 && t->zero_points > 0 ? t->scales : 0u;
}
/* The value for the target: 32-bit or 64-bit. */
static uint64_t by_abi(const aplan__tflm_node *n, uint64_t v32, uint64_t v64) {
    return aplan__tflm_ptr(n) == 8u ? v64 : v32;
}
/* TfLiteIntArrayGetSizeInBytes(rank): the dims a kernel keeps for a shape it computes. */
static uint64_t int_array(uint64_t count) { return add(4u, mul(4u, count)); }

static aplan__tflm_tensor in(aplan__tflm_node *n, uint32_t k) { return aplan__tflm_input(n, k); }
static aplan__tflm_tensor out(aplan__tflm_node *n, uint32_t k) { return aplan__tflm_output(n, k); }
#define I(k) aplan__tflm_temp_input(n, (k))
#define O(k) aplan__tflm_temp_output(n, (k))
#define PERSISTENT(bytes) aplan__tflm_persistent(n, (bytes))
#define SCRATCH(bytes) aplan__tflm_scratch(n, (bytes))

/* TFLM's "Hybrid models are not supported on TFLite Micro" check (conv_common.cc, fully_connected.cc, CMSIS-NN's
 * conv.cc and fully_connected.cc): the input and weights types the kernel pairs. */
static bool weights_pair(uint8_t input, uint8_t filter) {
    return (input == FLOAT32 && filter == FLOAT32) || (input == INT16 && filter == INT8) ||
           (input == INT8 && (filter == INT4 || filter == INT8));
}
/* Refuse the operator (its Prepare returns an error there) when ok is false; returns ok. */
static bool require(aplan__tflm_node *n, bool ok, aplan_tflm_refusal why, uint8_t a, uint8_t b) {
    if (!ok) aplan__tflm_refuse(n, why, a, b);
    return ok;
}
#define REQUIRE_WEIGHTS(ok, input, filter) require(n, (ok), APLAN_TFLM_REFUSED_WEIGHTS, (input).type, (filter).type)

/* ---- Prepare sequences shared by many kernels (temporary tensors only) ------------------------------------------ */

static void p_i0(aplan__tflm_node *n) { I(0); }
static void p_i0_o0(aplan__tflm_node *n) { I(0); O(0); }
static void p_i0_i0_o0(aplan__tflm_node *n) { I(0); I(0); O(0); }
static void p_i0_i1(aplan__tflm_node *n) { I(0); I(1); }
static void p_i0_i1_o0(aplan__tflm_node *n) { I(0); I(1); O(0); }
static void p_i0_i1_i2_o0(aplan__tflm_node *n) { I(0); I(1); I(2); O(0); }
static void p_i0_i1_i2_i3_o0(aplan__tflm_node *n) { I(0); I(1); I(2); I(3); O(0); }
static void p_i0_o0_o1(aplan__tflm_node *n) { I(0); O(0); O(1); }
static void p_i2(aplan__tflm_node *n) { I(2); }
/* Temporaries, then the output's computed shape kept as a TfLiteIntArray (DEPTH_TO_SPACE, SPACE_TO_DEPTH). */
static void p_i0_o0_dims(aplan__tflm_node *n) {
    I(0);
    O(0);
    PERSISTENT(int_array(out(n, 0).rank));
}
/* GATHER, GATHER_ND: the same with two inputs. */
static void p_i0_i1_o0_dims(aplan__tflm_node *n) {
    I(0);
    I(1);
    O(0);
    PERSISTENT(int_array(out(n, 0).rank));
}
/* PAD, PADV2: the constant value (input 2) only when the node has three inputs. */
static void p_pad(aplan__tflm_node *n) {
    I(0);
    I(1);
    if (aplan__tflm_inputs(n) == 3u) I(2);
    O(0);
}

/* ---- Kernels with more to say ----------------------------------------------------------------------------------- */

/* add_n.cc: every input once; float32 gathers input pointers in a scratch buffer, int8 also keeps its OpData. */
static void p_add_n(aplan__tflm_node *n) {
    const uint32_t inputs = aplan__tflm_inputs(n);
    I(0);
    O(0);
    for (uint32_t i = 1; i < inputs; i++) I(i);
    const uint8_t type = out(n, 0).type;
    if (type == FLOAT32) SCRATCH(mul(aplan__tflm_ptr(n), inputs));
    if (type == INT8) {
        PERSISTENT(40u);
        SCRATCH(mul(aplan__tflm_ptr(n), inputs));
    }
}

/* batch_matmul.cc: quantized OpData, then transposed copies of the operands (a TfLiteTensor-like header, its dims
 * and its data) when the kernel must transpose them, then the output's dims; CMSIS-NN's kernel allocates the
 * quantized OpData last (quantized_last). Options: BatchMatMulOptions adj_x (field 0, bool) and adj_y (field 1,
 * bool). */
static void batch_matmul(aplan__tflm_node *n, bool quantized_last) {
    const aplan__tflm_tensor a = in(n, 0), b = in(n, 1);
    const bool quantized = a.type == INT8 || a.type == INT16;
    I(0);
    I(1);
    O(0);
    if (quantized && !quantized_last) PERSISTENT(28u);
    if (aplan__tflm_option(n, 0, 1, false, 0) != 0) {
        PERSISTENT(by_abi(n, 12u, 24u));
        PERSISTENT(int_array(a.rank));
        PERSISTENT(a.bytes);
    }
    if (aplan__tflm_option(n, 1, 1, false, 0) == 0) {
        PERSISTENT(by_abi(n, 12u, 24u));
        PERSISTENT(int_array(b.rank));
        PERSISTENT(b.bytes);
    }
    PERSISTENT(int_array(out(n, 0).rank));
    if (quantized && quantized_last) PERSISTENT(28u);
}
static void p_batch_matmul(aplan__tflm_node *n) { batch_matmul(n, false); }

/* concatenation.cc: input 0 and the output, then every input (input 0 again); its output type must be bool, float32,
 * int8, int16, int32 or int64. */
static void p_concatenation(aplan__tflm_node *n) {
    I(0);
    O(0);
    for (uint32_t i = 0; i < aplan__tflm_inputs(n); i++) I(i);
    const uint8_t t = out(n, 0).type;
    (void)require(n, t == BOOL || t == FLOAT32 || t == INT8 || t == INT16 || t == INT32 || t == INT64,
                  APLAN_TFLM_REFUSED_TYPE, t, t);
}

/* dequantize_common.cc: input int8, int16 or uint8, output float32. */
static void p_dequantize(aplan__tflm_node *n) {
    I(0);
    O(0);
    const uint8_t a = in(n, 0).type, b = out(n, 0).type;
    if (require(n, a == INT8 || a == INT16 || a == UINT8, APLAN_TFLM_REFUSED_TYPE, a, a))
        (void)require(n, b == FLOAT32, APLAN_TFLM_REFUSED_TYPE, b, b);
}

/* conv.cc / depthwise_conv.cc: the per-channel multiplier and shift arrays (every type, float too), filter
 * channels from the filter's dims[0] (CONV_2D, OHWI) or dims[3] (DEPTHWISE, 1HWO); an int4 filter is unpacked
 * into a scratch buffer of one byte per element. */
static void p_conv(aplan__tflm_node *n) {
    const aplan__tflm_tensor filter = in(n, 1);
    O(0);
    I(0);
    I(1);
    if (!REQUIRE_WEIGHTS(weights_pair(in(n, 0).type, filter.type), in(n, 0), filter)) return;
    PERSISTENT(mul(4u, dim(filter, 0)));
    PERSISTENT(mul(4u, dim(filter, 0)));
    I(0);
    I(1);
    I(2);
    O(0);
    if (filter.type == INT4) SCRATCH(filter.elements);
}
static void p_depthwise_conv(aplan__tflm_node *n) {
    const aplan__tflm_tensor input = in(n, 0), filter = in(n, 1);
    O(0);
    I(0);
    I(1);
    PERSISTENT(mul(4u, dim(filter, 3)));
    PERSISTENT(mul(4u, dim(filter, 3)));
    if (!REQUIRE_WEIGHTS(input.type == filter.type || weights_pair(input.type, filter.type), input, filter)) return;
    if (filter.type == INT4) SCRATCH(filter.elements);
    I(0);
    I(1);
    I(2);
    O(0);
}

/* cumsum.cc: int8 keeps quantization parameters. */
static void p_cumsum(aplan__tflm_node *n) {
    I(0);
    I(1);
    O(0);
    if (out(n, 0).type == INT8) PERSISTENT(36u);
}

/* detection_postprocess.cc: eleven scratch buffers sized by the boxes, the classes and the detections, the last
 * two read from the custom options by key (flexbuffers::Map), so extra keys do not shift them. */
static void p_detection_postprocess(aplan__tflm_node *n) {
    const aplan__tflm_tensor scores = in(n, 1);
    const uint64_t boxes = dim(in(n, 0), 1);
    const int32_t md = aplan__tflm_custom_key(n, "max_detections");
    const int32_t nc = aplan__tflm_custom_key(n, "num_classes");
    const uint64_t detections = md < 0 ? 0u : (uint64_t)md, classes = nc < 0 ? 0u : (uint64_t)nc;
    I(0);
    I(1);
    I(2);
    SCRATCH(boxes);
    SCRATCH(mul(boxes, 16u));
    SCRATCH(mul(mul(dim(scores, 1), dim(scores, 2)), 4u));
    SCRATCH(mul(boxes, 4u));
    SCRATCH(mul(boxes, 4u));
    SCRATCH(mul(mul(detections, boxes), 4u));
    SCRATCH(mul(mul(detections, boxes), 4u));
    SCRATCH(mul(boxes, 4u));
    SCRATCH(mul(mul(detections, boxes), 4u));
    SCRATCH(mul(mul(classes > detections ? classes : detections, boxes), 4u));
    SCRATCH(mul(mul(boxes < detections ? boxes : detections, boxes), 4u));
}

/* embedding_lookup.cc: the output's dims and its OpData (a pointer-sized pair). */
static void p_embedding_lookup(aplan__tflm_node *n) {
    I(0);
    I(1);
    O(0);
    PERSISTENT(int_array(out(n, 0).rank));
    PERSISTENT(by_abi(n, 8u, 16u));
}

/* fully_connected.cc: an int4 filter's unpacked copy; per-channel arrays for a quantized input with more than one
 * filter scale. */
static void p_fully_connected(aplan__tflm_node *n) {
    const aplan__tflm_tensor input = in(n, 0), filter = in(n, 1);
    I(0);
    I(1);
    I(2);
    O(0);
    const bool checked = input.type == FLOAT32 || input.type == INT8 || input.type == INT16;
    if (!REQUIRE_WEIGHTS(!checked || weights_pair(input.type, filter.type), input, filter)) return;
    if (filter.type == INT4) SCRATCH(filter.elements);
    const uint64_t q = channels(&filter);
    if (input.type != FLOAT32 && q > 1u) {
        PERSISTENT(mul(4u, q));
        PERSISTENT(mul(4u, q));
    }
}

/* l2_pool_2d.cc: the output's dims. */
static void p_l2_pool(aplan__tflm_node *n) {
    O(0);
    I(0);
    PERSISTENT(int_array(out(n, 0).rank));
}

/* log_softmax.cc: int8 keeps its parameters. */
static void p_log_softmax(aplan__tflm_node *n) {
    I(0);
    O(0);
    if (in(n, 0).type == INT8) PERSISTENT(by_abi(n, 28u, 40u));
}

/* reduce.cc, MEAN and SUM: an int32 accumulator per output element for int8 and int16, the iteration index and
 * the resolved axes; then PrepareSimple's temporaries. */
static void p_mean_sum(aplan__tflm_node *n) {
    const aplan__tflm_tensor input = in(n, 0);
    I(0);
    O(0);
    I(1);
    if (input.type == INT8 || input.type == INT16) SCRATCH(mul(4u, out(n, 0).elements));
    SCRATCH(mul(4u, input.rank));
    SCRATCH(mul(4u, in(n, 1).elements));
    I(0);
    I(1);
    if (input.type == INT8) O(0);
}
/* reduce.cc, REDUCE_MAX and REDUCE_MIN: PrepareSimple first. */
static void p_reduce_min_max(aplan__tflm_node *n) {
    const aplan__tflm_tensor input = in(n, 0);
    I(0);
    I(1);
    if (input.type == INT8) O(0);
    I(0);
    O(0);
    I(1);
    SCRATCH(mul(4u, input.rank));
    SCRATCH(mul(4u, in(n, 1).elements));
}
/* reduce.cc, REDUCE_ALL. */
static void p_reduce_all(aplan__tflm_node *n) {
    I(0);
    O(0);
    I(1);
    I(0);
    I(1);
    SCRATCH(mul(4u, in(n, 0).rank));
    SCRATCH(mul(4u, in(n, 1).elements));
}

/* mirror_pad.cc: two index arrays of the input's rank. */
static void p_mirror_pad(aplan__tflm_node *n) {
    const uint64_t rank = in(n, 0).rank;
    I(0);
    I(1);
    O(0);
    SCRATCH(mul(4u, rank));
    SCRATCH(mul(4u, rank));
}

/* reshape.cc keeps new dims only for an output shape with a -1 entry, which a model the reader accepts never has
 * (a negative shape entry is refused): its Prepare asks nothing more. */

/* softmax.cc: int16 keeps two lookup tables of 513 int16 each. */
static void p_softmax(aplan__tflm_node *n) {
    I(0);
    O(0);
    if (in(n, 0).type == INT16) {
        PERSISTENT(1026u);
        PERSISTENT(1026u);
    }
}

/* svdf.cc: the activation state product per batch, and for int8 the scratch of the output's units. */
static void p_svdf(aplan__tflm_node *n) {
    const aplan__tflm_tensor input = in(n, 0);
    const uint64_t batch = dim(input, 0);
    I(0);
    I(1);
    I(2);
    I(3);
    I(4);
    O(0);
    SCRATCH(mul(mul(4u, batch), dim(in(n, 1), 0)));
    if (input.type == INT8) SCRATCH(mul(mul(4u, batch), dim(out(n, 0), 1)));
}

/* transpose_conv.cc: inputs 0 output shape, 1 filter (OHWI), 2 input, 3 optional bias. */
static void p_transpose_conv(aplan__tflm_node *n) {
    const aplan__tflm_tensor filter = in(n, 1), input = in(n, 2), bias = in(n, 3);
    const uint64_t elements = out(n, 0).elements;
    O(0);
    I(2);
    I(1);
    PERSISTENT(mul(4u, dim(filter, 0)));
    PERSISTENT(mul(4u, dim(filter, 0)));
    if (input.type == INT8) SCRATCH(mul(4u, elements));
    if (input.type == INT16) SCRATCH(mul(8u, elements));
    if (input.type != FLOAT32) {
        I(2);
        I(1);
        I(3);
        O(0);
    }
    if (input.type == INT16 && bias.present && bias.type == INT16) SCRATCH(mul(8u, bias.elements));
}

/* unidirectional_sequence_lstm.cc: its 24 inputs; for an int16 cell state, per-channel arrays of the eight gate
 * weights with more than one scale (in the kernel's gate order); then four state scratch buffers of batch x
 * cell units. Options: UnidirectionalSequenceLSTMOptions time_major (field 3, bool). */
static void lstm(aplan__tflm_node *n, bool cmsis) {
    static const uint8_t gate_order[8] = {2, 6, 1, 5, 3, 7, 4, 8};
    const aplan__tflm_tensor input = in(n, 0), cell = in(n, 19);
    for (uint32_t i = 0; i < 24u; i++) I(i);
    O(0);
    if (cell.type == INT16) {
        for (unsigned g = 0; g < 8u; g++) {
            const aplan__tflm_tensor w = in(n, gate_order[g]);
            const uint64_t q = channels(&w);
            if (q > 1u) {
                PERSISTENT(mul(4u, q));
                PERSISTENT(mul(4u, q));
            }
        }
    }
    const bool time_major = aplan__tflm_option(n, 3, 1, false, 0) != 0;
    const aplan__tflm_tensor output_state = in(n, 18);
    const uint64_t state = mul(mul(dim(input, time_major ? 1 : 0), dim(output_state, 1)),
                               cell.type == FLOAT32 ? 4u : 2u);
    /* CMSIS-NN's int16-cell path (int8 or int16 activations) keeps eight kernel-sum arrays, int32 or int64 per
     * state unit, and needs one state buffer less. */
    const bool sums = cmsis && cell.type == INT16 && (input.type == INT8 || input.type == INT16);
    if (sums) {
        for (unsigned i = 0; i < 8u; i++) PERSISTENT(mul(dim(output_state, 1), input.type == INT8 ? 4u : 8u));
    }
    for (unsigned i = 0; i < (sums ? 3u : 4u); i++) SCRATCH(state);
}
static void p_lstm(aplan__tflm_node *n) { lstm(n, false); }

/* ---- Signal library kernels (custom operators, options a flexbuffer map) ---------------------------------------- */

/* signal/src/circular_buffer.cc: the buffer's header (three size_t, two ints, a pointer) and its int16 slots,
 * rounded to int32 words. */
static uint64_t circular_buffer(aplan__tflm_node *n, uint64_t capacity) {
    return add(add(mul(3u, aplan__tflm_ptr(n)), 8u + aplan__tflm_ptr(n)), mul(4u, capacity));
}
/* The rows a signal kernel processes: every dimension but the last (or the last two). A rank above
 * APLAN_TFLITE_MAX_RANK reads its last dimensions as 0 (dim), so it has no rows: O(1) whatever the rank. */
static uint64_t outer(const aplan__tflm_tensor *t, unsigned inner_dims) {
    if (t->rank > APLAN_TFLITE_MAX_RANK) return 0;
    uint64_t inner = 1, rows = 1;
    for (unsigned i = 1; i <= inner_dims; i++) inner = mul(inner, dim(*t, -(int)i));
    /* the product of the other dimensions, not elements / inner: no 64-bit division on a 32-bit core */
    for (uint32_t i = 0; i + inner_dims < t->rank; i++) rows = mul(rows, dim(*t, (int)i));
    return inner == 0 ? 0 : rows;
}

/* delay.cc: options delay_length (element 0). Per row, a circular buffer of frame + delay slots (the kernel's loop
 * over the rows, as one event: aplan__tflm_persistent_rows). */
static void p_delay(aplan__tflm_node *n) {
    const aplan__tflm_tensor input = in(n, 0);
    const int32_t delay = aplan__tflm_custom_int(n, 0);
    const uint64_t rows = outer(&input, 1);
    const uint64_t capacity = add(dim(input, -1), delay < 0 ? 0u : (uint64_t)delay);
    I(0);
    O(0);
    PERSISTENT(mul(rows, aplan__tflm_ptr(n)));
    PERSISTENT(mul(rows, aplan__tflm_ptr(n)));
    aplan__tflm_persistent_rows(n, rows, circular_buffer(n, capacity));
}

/* filter_bank.cc: options num_channels (element 0); a work area of num_channels + 1 uint64. */
static void i_filter_bank(aplan__tflm_node *n) {
    const int32_t c = aplan__tflm_custom_int(n, 0);
    PERSISTENT(mul(8u, add(c < 0 ? 0u : (uint64_t)c, 1u)));
}
static void p_filter_bank(aplan__tflm_node *n) {
    for (uint32_t i = 0; i < 6u; i++) I(i);
    O(0);
}

/* filter_bank_spectral_subtraction.cc: options num_channels (element 4); noise estimates of num_channels uint32. */
static void i_spectral_subtraction(aplan__tflm_node *n) {
    const int32_t c = aplan__tflm_custom_int(n, 4);
    PERSISTENT(mul(4u, c < 0 ? 0u : (uint64_t)c));
}

/* framer.cc: options frame_size (0), frame_step (1). Per row, a circular buffer of frame_size rounded up to a
 * multiple of frame_step (one event for the rows). */
static void p_framer(aplan__tflm_node *n) {
    const aplan__tflm_tensor input = in(n, 0);
    const int32_t size = aplan__tflm_custom_int(n, 0), step = aplan__tflm_custom_int(n, 1);
    const uint64_t rows = outer(&input, 1);
    /* in 32 bits (both are int32: the sum stays below 2^32), so a 32-bit core needs no 64-bit division */
    const uint64_t capacity =
        step > 0 && size >= 0 ? (uint64_t)(((uint32_t)size + (uint32_t)step - 1u) / (uint32_t)step) * (uint64_t)step
                              : 0u;
    I(0);
    O(0);
    O(1);
    PERSISTENT(mul(rows, aplan__tflm_ptr(n)));
    PERSISTENT(mul(rows, aplan__tflm_ptr(n)));
    aplan__tflm_persistent_rows(n, rows, circular_buffer(n, capacity));
}

/* rfft.cc, irfft.cc: options "T" (the element type, read by key) and fft_length (element 1). kiss_fftr's state:
 * three pointers, the complex FFT's state (264 bytes and a twiddle per half-length point) and 3/2 of a half-length
 * of complex super-twiddles; 0 for an odd length. An unsupported T allocates nothing (TFLM then crashes). */
static bool fft_type(aplan__tflm_node *n, int32_t *type) {
    *type = aplan__tflm_custom_key(n, "T");
    return *type == INT16 || *type == INT32 || *type == FLOAT32;
}
static uint64_t fftr_state(aplan__tflm_node *n, int32_t type, int32_t length) {
    if (length < 0 || length % 2 != 0) return 0;
    const uint64_t cpx = type == INT16 ? 4u : 8u, half = (uint64_t)length / 2u;
    return add(add(3u * aplan__tflm_ptr(n) + 264u, mul(cpx, half)), mul(cpx, 3u * half / 2u));
}
static void i_rfft(aplan__tflm_node *n) {
    int32_t type;
    if (!fft_type(n, &type)) return;
    PERSISTENT(by_abi(n, 32u, 48u));
    PERSISTENT(fftr_state(n, type, aplan__tflm_custom_int(n, 1)));
}
static void p_rfft(aplan__tflm_node *n) {
    int32_t type;
    const bool supported = fft_type(n, &type);
    const int32_t length = aplan__tflm_custom_int(n, 1);
    I(0);
    O(0);
    (void)supported; /* an unsupported type crashes TFLM's Prepare before this point; its figures are moot */
    SCRATCH(mul(length < 0 ? 0u : (uint64_t)length, type == INT16 ? 2u : 4u));
}
static void i_irfft(aplan__tflm_node *n) {
    int32_t type;
    if (!fft_type(n, &type)) return;
    PERSISTENT(by_abi(n, 24u, 32u));
    PERSISTENT(add(type == FLOAT32 ? 2u * aplan__tflm_ptr(n) : 0u, fftr_state(n, type, aplan__tflm_custom_int(n, 1))));
}

/* overlap_add.cc: options "T" (by key; int16 or float32). Per row, a frame of the input's last dimension (one event
 * for the rows). */
static void i_overlap_add(aplan__tflm_node *n) {
    const int32_t type = aplan__tflm_custom_key(n, "T");
    if (type == INT16 || type == FLOAT32) PERSISTENT(by_abi(n, 24u, 32u));
}
static void p_overlap_add(aplan__tflm_node *n) {
    const aplan__tflm_tensor input = in(n, 0);
    const uint64_t rows = outer(&input, 2), frame = dim(input, -1);
    const uint64_t element = aplan__tflm_custom_key(n, "T") == INT16 ? 2u : 4u;
    I(0);
    O(0);
    PERSISTENT(mul(rows, aplan__tflm_ptr(n)));
    aplan__tflm_persistent_rows(n, rows, mul(frame, element));
}

/* stacker.cc: options num_channels (0), stacker_left_context (1), stacker_right_context (2); one circular buffer
 * of num_channels x (left + right + 1) slots. */
static void i_stacker(aplan__tflm_node *n) {
    const int64_t channels_ = aplan__tflm_custom_int(n, 0), left = aplan__tflm_custom_int(n, 1),
                  right = aplan__tflm_custom_int(n, 2);
    const int64_t slots = channels_ * (left + right + 1); /* int32 operands: no 64-bit overflow */
    PERSISTENT(by_abi(n, 36u, 56u));
    PERSISTENT(circular_buffer(n, slots < 0 ? 0u : (uint64_t)slots));
}


/* ---- CMSIS-NN's kernels (tensorflow/lite/micro/kernels/cmsis_nn, CMSIS-NN 4ab83cc3) ------------------------------
 * They replace ten of the reference kernels; the others (ADD, MUL, PAD, PADV2, TRANSPOSE, MAXIMUM, MINIMUM) ask what
 * the reference ones ask. Scratch sizes are CMSIS-NN's *_get_buffer_size for a build without MVE: portable C (no
 * ARM_MATH_DSP: x86 hosts, Cortex-M0/M0+/M3) or ARM_MATH_DSP (Cortex-M4/M7/M33, Armv7-A), compiled by GCC or clang
 * (Arm Compiler 6 adds two terms, not modelled). A scratch request is made only for a size above 0, but for
 * TRANSPOSE_CONV's reversed filter. */
#define CMSIS(file) "tensorflow/lite/micro/kernels/cmsis_nn/" file

/* TFLM's ComputePaddingHeightWidth for one dimension: the padding before the data, SAME from the input size
 * (VALID, or an unknown padding when the options table is absent, gives 0). In 32-bit arithmetic but for one
 * product: no 64-bit division on a 32-bit core. */
static uint64_t same_padding(uint64_t in_size, uint64_t filter, int64_t stride, int64_t dilation) {
    if (stride <= 0 || dilation <= 0 || in_size > INT32_MAX || stride > INT32_MAX || filter == 0) return 0;
    const uint32_t out = (uint32_t)(in_size + (uint64_t)stride - 1u) / (uint32_t)stride; /* below 2^32 */
    const int64_t effective = (int64_t)(filter - 1u) * dilation + 1;
    const int64_t total = ((int64_t)out - 1) * stride + effective - (int64_t)in_size;
    return total > 0 ? (uint64_t)total >> 1 : 0u;
}
/* A convolution's options (Conv2DOptions and DepthwiseConv2DOptions: padding field 0, strides 1 and 2, dilations at
 * `dilations`, `dilations` + 1) and the padding they give, as TFLM's parser leaves them: all 0 without a table. */
typedef struct conv_geometry {
    int64_t stride_w, stride_h, dilation_w, dilation_h;
    uint64_t pad_w, pad_h;
} conv_geometry;
static conv_geometry geometry(aplan__tflm_node *n, const aplan__tflm_tensor *input, const aplan__tflm_tensor *filter,
                              unsigned dilations) {
    conv_geometry g = {0, 0, 0, 0, 0, 0};
    if (!aplan__tflm_has_options(n)) return g;
    const bool same = aplan__tflm_option(n, 0, 1, false, 0) == 0;
    g.stride_w = aplan__tflm_option(n, 1, 4, true, 0);
    g.stride_h = aplan__tflm_option(n, 2, 4, true, 0);
    g.dilation_w = aplan__tflm_option(n, dilations, 4, true, 1);
    g.dilation_h = aplan__tflm_option(n, dilations + 1u, 4, true, 1);
    if (same) {
        g.pad_w = same_padding(dim(*input, 2), dim(*filter, 2), g.stride_w, g.dilation_w);
        g.pad_h = same_padding(dim(*input, 1), dim(*filter, 1), g.stride_h, g.dilation_h);
    }
    return g;
}
/* arm_convolve_s8_get_buffer_size without MVE: two int16 columns of the patch rounded up to 4. */
static uint64_t im2col_s8(uint64_t column) { return mul(4u, add(column, 3u) & ~(uint64_t)3u); }

/* conv.cc: input, filter, output; the per-channel arrays for int8 and int16 only; then CalculateOpDataConv's
 * temporaries, and the convolution wrapper's buffer: int8 none for a 1x1 convolution, else the im2col columns; int16
 * two int16 columns of the patch (the bias is looked up among the outputs, so never found). */
static void c_conv(aplan__tflm_node *n) {
    const aplan__tflm_tensor input = in(n, 0), filter = in(n, 1);
    I(0);
    I(1);
    O(0);
    if (!REQUIRE_WEIGHTS(weights_pair(input.type, filter.type), input, filter)) return;
    if (input.type == INT8 || input.type == INT16) {
        PERSISTENT(mul(4u, dim(filter, 0)));
        PERSISTENT(mul(4u, dim(filter, 0)));
    }
    I(0);
    I(1);
    I(2);
    O(0);
    const conv_geometry g = geometry(n, &input, &filter, 4u);
    const uint64_t in_c = dim(input, 3), fh = dim(filter, 1), fw = dim(filter, 2);
    const uint64_t column = mul(mul(in_c, fw), fh);
    if (input.type == INT8) {
        const bool is_1x1 = g.pad_w == 0 && g.pad_h == 0 && fw == 1 && fh == 1 && g.dilation_w == 1 &&
                            g.dilation_h == 1 && in_c == dim(filter, 3);
        if (!is_1x1 && column > 0) SCRATCH(im2col_s8(column));
    }
    if (input.type == INT16 && column > 0) SCRATCH(mul(4u, column));
}

/* depthwise_conv.cc: as CONV_2D's order; the optimised int8 path (depth multiplier 1, one batch, no dilation) wants
 * an int16 copy of the patch with DSP, but not for a 3x3 filter padded by at most 1; an int4 filter always. */
static void c_depthwise_conv(aplan__tflm_node *n) {
    const aplan__tflm_tensor input = in(n, 0), filter = in(n, 1);
    I(0);
    I(1);
    O(0);
    if (input.type == INT8 || input.type == INT16) {
        PERSISTENT(mul(4u, dim(filter, 3)));
        PERSISTENT(mul(4u, dim(filter, 3)));
    }
    I(0);
    I(1);
    I(2);
    O(0);
    if (input.type != INT8 || (filter.type != INT8 && filter.type != INT4)) return;
    const conv_geometry g = geometry(n, &input, &filter, 5u);
    const uint64_t in_c = dim(input, 3), fh = dim(filter, 1), fw = dim(filter, 2);
    const bool optimised = in_c == dim(out(n, 0), 3) && dim(input, 0) == 1 && g.dilation_w == 1 && g.dilation_h == 1;
    const bool three_by_three = fw == 3 && fh == 3 && g.pad_w <= 1 && g.pad_h <= 1;
    const uint64_t bytes = mul(mul(mul(2u, in_c), fw), fh);
    if (!optimised || bytes == 0) return;
    if (filter.type == INT4 || (aplan__tflm_isa(n) == APLAN_TFLM_ISA_DSP && !three_by_three)) SCRATCH(bytes);
}

/* fully_connected.cc: the reference's temporaries and per-channel arrays (no int4 unpacking); an int8 layer whose
 * output has rank 3 or 4 and a depth that is a multiple of 4 runs as a 1x1 convolution, and per-tensor quantization
 * then needs its multiplier and shift spread over the output depth. */
static void c_fully_connected(aplan__tflm_node *n) {
    const aplan__tflm_tensor input = in(n, 0), filter = in(n, 1), output = out(n, 0);
    I(0);
    I(1);
    I(2);
    O(0);
    if (!REQUIRE_WEIGHTS(weights_pair(input.type, filter.type), input, filter)) return;
    const uint64_t q = channels(&filter);
    if (input.type != FLOAT32 && q > 1u) {
        PERSISTENT(mul(4u, q));
        PERSISTENT(mul(4u, q));
    }
    const uint64_t accum = dim(filter, -1), depth = dim(output, -1);
    if (input.type == INT8 && filter.type == INT8 && output.rank > 2u && (accum & 3u) == 0 && q <= 1u && depth > 0)
        SCRATCH(mul(8u, depth));
}

/* pooling.cc, AVERAGE_POOL_2D: PoolingPrepare's temporaries twice; with DSP an int32 per channel. */
static void c_average_pool(aplan__tflm_node *n) {
    const aplan__tflm_tensor input = in(n, 0);
    I(0);
    O(0);
    I(0);
    O(0);
    if (aplan__tflm_isa(n) == APLAN_TFLM_ISA_DSP && (input.type == INT8 || input.type == INT16) && dim(input, 3) > 0)
        SCRATCH(mul(4u, dim(input, 3)));
}

/* batch_matmul.cc: the reference's transposed copies and output dims, then the quantized OpData. */
static void c_batch_matmul(aplan__tflm_node *n) { batch_matmul(n, true); }

/* transpose_conv.cc: int8 replaces the reference's accumulator with CMSIS-NN's buffer (for strides up to 2 and more
 * than 16 input channels, a reversed convolution: im2col columns, and a reversed filter copy, requested even empty;
 * else an int32 column buffer, sized with the vertical stride in both terms, as CMSIS-NN does). */
static void c_transpose_conv(aplan__tflm_node *n) {
    const aplan__tflm_tensor filter = in(n, 1), input = in(n, 2), bias = in(n, 3);
    O(0);
    I(2);
    I(1);
    PERSISTENT(mul(4u, dim(filter, 0)));
    PERSISTENT(mul(4u, dim(filter, 0)));
    if (input.type == INT8) {
        const int64_t sw = aplan__tflm_option(n, 1, 4, true, 0), sh = aplan__tflm_option(n, 2, 4, true, 0);
        const uint64_t in_c = dim(input, 3), in_w = dim(input, 2), fh = dim(filter, 1), fw = dim(filter, 2),
                       out_c = dim(filter, 0);
        const bool reversed = sw <= 2 && sh <= 2 && in_c > 16u;
        uint64_t buffer;
        if (reversed) {
            buffer = im2col_s8(mul(mul(fw, fh), in_c));
        } else {
            const uint64_t h = sh > 0 ? (uint64_t)sh : 0u;
            const int64_t width = ((int64_t)in_w - 1) * sw + (int64_t)(fw > h ? fw : h);
            buffer = width > 0 ? mul(mul(mul((uint64_t)width, out_c), fh > h ? fh : h), 4u) : 0u;
        }
        if (buffer > 0) SCRATCH(buffer);
        SCRATCH(reversed ? mul(mul(mul(in_c, fw), fh), out_c) : 0u);
    }
    if (input.type == INT16) SCRATCH(mul(8u, out(n, 0).elements));
    if (input.type != FLOAT32) {
        I(2);
        I(1);
        I(3);
        O(0);
    }
    if (input.type == INT16 && bias.present && bias.type == INT16) SCRATCH(mul(8u, bias.elements));
}

static void c_lstm(aplan__tflm_node *n) { lstm(n, true); }

/* ---- The table -------------------------------------------------------------------------------------------------- */

/* Entry shorthands: a builtin operator and its sources; its params struct (size/align, the same on both targets
 * unless given twice); the OpData its Init allocates (bytes on 32- and 64-bit targets, 0 for none). */
#define NONE {0, 0}, {0, 0}
#define PARAMS(size, align) {size, size}, {align, align}
#define OPDATA(b32, b64) {b32, b64}
#define BUILTIN(op, source, params, opdata, init, prepare) \
    {APLAN__OP_##op, NULL, source, params, opdata, init, prepare}
#define CUSTOM(name, source, opdata, init, prepare) {APLAN__OP_CUSTOM, name, source, NONE, opdata, init, prepare}

const aplan__tflm_kernel aplan__tflm_kernels[] = {
    BUILTIN(ADD, K("add.cc"), PARAMS(8, 4), OPDATA(60, 60), NULL, p_i0_i1_o0),
    BUILTIN(AVERAGE_POOL_2D, K("pooling.cc"), PARAMS(40, 4), OPDATA(32, 32), NULL, p_i0_o0),
    BUILTIN(CONCATENATION, K("concatenation.cc"), PARAMS(8, 4), OPDATA(24, 40), NULL, p_concatenation),
    BUILTIN(CONV_2D, K("conv.cc"), PARAMS(28, 4), OPDATA(56, 72), NULL, p_conv),
    BUILTIN(DEPTHWISE_CONV_2D, K("depthwise_conv.cc"), PARAMS(28, 4), OPDATA(56, 72), NULL, p_depthwise_conv),
    BUILTIN(DEPTH_TO_SPACE, K("depth_to_space.cc"), PARAMS(4, 4), OPDATA(0, 0), NULL, p_i0_o0_dims),
    BUILTIN(DEQUANTIZE, K("dequantize.cc"), NONE, OPDATA(32, 32), NULL, p_dequantize),
    BUILTIN(EMBEDDING_LOOKUP, K("embedding_lookup.cc"), NONE, OPDATA(0, 0), NULL, p_embedding_lookup),
    BUILTIN(FLOOR, K("floor.cc"), NONE, OPDATA(0, 0), NULL, NULL),
    BUILTIN(FULLY_CONNECTED, K("fully_connected.cc"), PARAMS(16, 4), OPDATA(48, 64), NULL, p_fully_connected),
    BUILTIN(L2_NORMALIZATION, K("l2norm.cc"), PARAMS(4, 4), OPDATA(4, 4), NULL, p_i0_o0),
    BUILTIN(L2_POOL_2D, K("l2_pool_2d.cc"), PARAMS(40, 4), OPDATA(0, 0), NULL, p_l2_pool),
    BUILTIN(LOGISTIC, K("logistic.cc"), NONE, OPDATA(16, 16), NULL, p_i0_o0),
    BUILTIN(MAX_POOL_2D, K("pooling.cc"), PARAMS(40, 4), OPDATA(32, 32), NULL, p_i0_o0),
    BUILTIN(MUL, K("mul.cc"), PARAMS(4, 4), OPDATA(36, 36), NULL, p_i0_i1_o0),
    BUILTIN(RELU, K("activations.cc"), NONE, OPDATA(28, 28), NULL, p_i0_o0),
    BUILTIN(RELU6, K("activations.cc"), NONE, OPDATA(8, 8), NULL, p_i0),
    BUILTIN(RESHAPE, K("reshape.cc"), PARAMS(36, 4), OPDATA(0, 0), NULL, p_i0_o0),
    BUILTIN(RESIZE_BILINEAR, K("resize_bilinear.cc"), PARAMS(2, 1), OPDATA(0, 0), NULL, p_i0_i1_o0),
    BUILTIN(SOFTMAX, K("softmax.cc"), PARAMS(4, 4), OPDATA(56, 80), NULL, p_softmax),
    BUILTIN(SPACE_TO_DEPTH, K("space_to_depth.cc"), PARAMS(4, 4), OPDATA(0, 0), NULL, p_i0_o0_dims),
    BUILTIN(SVDF, K("svdf.cc"), PARAMS(12, 4), OPDATA(36, 36), NULL, p_svdf),
    BUILTIN(TANH, K("tanh.cc"), NONE, OPDATA(16, 16), NULL, p_i0_i0_o0),
    /* CUSTOM (32): custom operators by name, in strcmp order, as the op resolver matches them. */
    CUSTOM("CIRCULAR_BUFFER", K("circular_buffer.cc"), OPDATA(8, 8), NULL, p_i0_o0),
    CUSTOM("SignalDelay", S("delay.cc"), OPDATA(20, 32), NULL, p_delay),
    CUSTOM("SignalEnergy", S("energy.cc"), OPDATA(8, 8), NULL, p_i0_o0),
    CUSTOM("SignalFftAutoScale", S("fft_auto_scale_kernel.cc"), OPDATA(0, 0), NULL, p_i0_o0_o1),
    CUSTOM("SignalFilterBank", S("filter_bank.cc"), OPDATA(36, 64), i_filter_bank, p_filter_bank),
    CUSTOM("SignalFilterBankLog", S("filter_bank_log.cc"), OPDATA(8, 8), NULL, p_i0_o0),
    CUSTOM("SignalFilterBankSpectralSubtraction", S("filter_bank_spectral_subtraction.cc"), OPDATA(44, 56),
           i_spectral_subtraction, p_i0_o0_o1),
    CUSTOM("SignalFilterBankSquareRoot", S("filter_bank_square_root.cc"), OPDATA(0, 0), NULL, p_i0_i1_o0),
    CUSTOM("SignalFramer", S("framer.cc"), OPDATA(28, 40), NULL, p_framer),
    CUSTOM("SignalIrfft", S("irfft.cc"), OPDATA(0, 0), i_irfft, p_i0_o0),
    CUSTOM("SignalOverlapAdd", S("overlap_add.cc"), OPDATA(0, 0), i_overlap_add, p_overlap_add),
    CUSTOM("SignalPCAN", S("pcan.cc"), OPDATA(4, 4), NULL, p_i0_i1_i2_o0),
    CUSTOM("SignalRfft", S("rfft.cc"), OPDATA(0, 0), i_rfft, p_rfft),
    CUSTOM("SignalStacker", S("stacker.cc"), OPDATA(0, 0), i_stacker, p_i0_o0_o1),
    CUSTOM("SignalWindow", S("window.cc"), OPDATA(8, 8), NULL, p_i0_i1_o0),
    CUSTOM("TFLite_Detection_PostProcess", K("detection_postprocess.cc"), OPDATA(112, 112), NULL,
           p_detection_postprocess),
    BUILTIN(PAD, K("pad.cc"), NONE, OPDATA(56, 56), NULL, p_pad),
    BUILTIN(GATHER, K("gather.cc"), PARAMS(8, 4), OPDATA(0, 0), NULL, p_i0_i1_o0_dims),
    BUILTIN(BATCH_TO_SPACE_ND, K("batch_to_space_nd.cc"), NONE, OPDATA(0, 0), NULL, p_i0_o0),
    BUILTIN(SPACE_TO_BATCH_ND, K("space_to_batch_nd.cc"), NONE, OPDATA(4, 4), NULL, p_i0_o0),
    BUILTIN(TRANSPOSE, K("transpose.cc"), NONE, OPDATA(0, 0), NULL, p_i0_i1_o0),
    BUILTIN(MEAN, K("reduce.cc"), PARAMS(1, 1), OPDATA(44, 44), NULL, p_mean_sum),
    BUILTIN(SUB, K("sub.cc"), PARAMS(8, 4), OPDATA(52, 52), NULL, p_i0_i1_o0),
    BUILTIN(DIV, K("div.cc"), PARAMS(4, 4), OPDATA(28, 28), NULL, p_i0_i1_o0),
    BUILTIN(SQUEEZE, K("squeeze.cc"), PARAMS(36, 4), OPDATA(0, 0), NULL, p_i0_o0),
    BUILTIN(UNIDIRECTIONAL_SEQUENCE_LSTM, K("unidirectional_sequence_lstm.cc"), PARAMS(16, 4), OPDATA(688, 688),
            NULL, p_lstm),
    BUILTIN(STRIDED_SLICE, K("strided_slice.cc"), PARAMS(24, 4), OPDATA(84, 84), NULL, p_i0_i1_i2_i3_o0),
    BUILTIN(EXP, K("exp.cc"), NONE, OPDATA(0, 0), NULL, p_i0_o0),
    BUILTIN(SPLIT, K("split.cc"), PARAMS(4, 4), OPDATA(0, 0), NULL, p_i0),
    BUILTIN(LOG_SOFTMAX, K("log_softmax.cc"), NONE, OPDATA(0, 0), NULL, p_log_softmax),
    BUILTIN(CAST, K("cast.cc"), PARAMS(8, 4), OPDATA(0, 0), NULL, p_i0_o0),
    BUILTIN(PRELU, K("prelu.cc"), NONE, OPDATA(28, 28), NULL, p_i0_i1_o0),
    BUILTIN(MAXIMUM, K("maximum_minimum.cc"), NONE, OPDATA(0, 0), NULL, NULL),
    BUILTIN(ARG_MAX, K("arg_min_max.cc"), PARAMS(4, 4), OPDATA(0, 0), NULL, NULL),
    BUILTIN(MINIMUM, K("maximum_minimum.cc"), NONE, OPDATA(0, 0), NULL, NULL),
    BUILTIN(LESS, K("comparisons.cc"), NONE, OPDATA(32, 32), NULL, p_i0_i1),
    BUILTIN(NEG, K("neg.cc"), NONE, OPDATA(0, 0), NULL, NULL),
    BUILTIN(PADV2, K("pad.cc"), NONE, OPDATA(56, 56), NULL, p_pad),
    BUILTIN(GREATER, K("comparisons.cc"), NONE, OPDATA(32, 32), NULL, p_i0_i1),
    BUILTIN(GREATER_EQUAL, K("comparisons.cc"), NONE, OPDATA(32, 32), NULL, p_i0_i1),
    BUILTIN(LESS_EQUAL, K("comparisons.cc"), NONE, OPDATA(32, 32), NULL, p_i0_i1),
    BUILTIN(SLICE, K("slice.cc"), NONE, OPDATA(0, 0), NULL, p_i0_i1_i2_o0),
    BUILTIN(SIN, K("elementwise.cc"), NONE, OPDATA(0, 0), NULL, p_i0_o0),
    BUILTIN(TRANSPOSE_CONV, K("transpose_conv.cc"), PARAMS(20, 4), OPDATA(72, 80), NULL, p_transpose_conv),
    BUILTIN(EXPAND_DIMS, K("expand_dims.cc"), NONE, OPDATA(0, 0), NULL, p_i0_i1_o0),
    BUILTIN(EQUAL, K("comparisons.cc"), NONE, OPDATA(32, 32), NULL, p_i0_i1),
    BUILTIN(NOT_EQUAL, K("comparisons.cc"), NONE, OPDATA(32, 32), NULL, p_i0_i1),
    BUILTIN(LOG, K("elementwise.cc"), NONE, OPDATA(0, 0), NULL, p_i0_o0),
    BUILTIN(SUM, K("reduce.cc"), PARAMS(1, 1), OPDATA(44, 44), NULL, p_mean_sum),
    BUILTIN(SQRT, K("elementwise.cc"), NONE, OPDATA(0, 0), NULL, p_i0_o0),
    BUILTIN(RSQRT, K("elementwise.cc"), NONE, OPDATA(28, 28), NULL, p_i0_o0),
    BUILTIN(SHAPE, K("shape.cc"), PARAMS(4, 4), OPDATA(0, 0), NULL, NULL),
    BUILTIN(ARG_MIN, K("arg_min_max.cc"), PARAMS(4, 4), OPDATA(0, 0), NULL, NULL),
    BUILTIN(REDUCE_MAX, K("reduce.cc"), PARAMS(1, 1), OPDATA(44, 44), NULL, p_reduce_min_max),
    BUILTIN(PACK, K("pack.cc"), PARAMS(8, 4), OPDATA(0, 0), NULL, NULL),
    BUILTIN(LOGICAL_OR, K("logical.cc"), NONE, OPDATA(0, 0), NULL, NULL),
    BUILTIN(LOGICAL_AND, K("logical.cc"), NONE, OPDATA(0, 0), NULL, NULL),
    BUILTIN(LOGICAL_NOT, K("elementwise.cc"), NONE, OPDATA(0, 0), NULL, p_i0_o0),
    BUILTIN(UNPACK, K("unpack.cc"), PARAMS(8, 4), OPDATA(0, 0), NULL, NULL),
    BUILTIN(REDUCE_MIN, K("reduce.cc"), PARAMS(1, 1), OPDATA(44, 44), NULL, p_reduce_min_max),
    BUILTIN(FLOOR_DIV, K("floor_div.cc"), NONE, OPDATA(0, 0), NULL, p_i0_i1_o0),
    BUILTIN(SQUARE, K("elementwise.cc"), NONE, OPDATA(0, 0), NULL, p_i0_o0),
    BUILTIN(ZEROS_LIKE, K("zeros_like.cc"), NONE, OPDATA(0, 0), NULL, p_i0_o0),
    BUILTIN(FILL, K("fill.cc"), NONE, OPDATA(0, 0), NULL, p_i0_i1_o0),
    BUILTIN(FLOOR_MOD, K("floor_mod.cc"), NONE, OPDATA(0, 0), NULL, p_i0_i1_o0),
    BUILTIN(RESIZE_NEAREST_NEIGHBOR, K("resize_nearest_neighbor.cc"), PARAMS(2, 1), OPDATA(0, 0), NULL,
            p_i0_i1_o0),
    BUILTIN(LEAKY_RELU, K("leaky_relu.cc"), PARAMS(4, 4), OPDATA(24, 24), NULL, p_i0_o0),
    BUILTIN(SQUARED_DIFFERENCE, K("squared_difference.cc"), NONE, OPDATA(112, 112), NULL, p_i0_i1_o0),
    BUILTIN(MIRROR_PAD, K("mirror_pad.cc"), PARAMS(4, 4), OPDATA(20, 20), NULL, p_mirror_pad),
    BUILTIN(ABS, K("elementwise.cc"), NONE, OPDATA(28, 28), NULL, p_i0_o0),
    BUILTIN(SPLIT_V, K("split_v.cc"), PARAMS(4, 4), OPDATA(0, 0), NULL, p_i2),
    BUILTIN(CEIL, K("ceil.cc"), NONE, OPDATA(0, 0), NULL, p_i0_o0),
    BUILTIN(REVERSE_V2, K("reverse.cc"), NONE, OPDATA(0, 0), NULL, p_i0_i1_o0),
    BUILTIN(ADD_N, K("add_n.cc"), NONE, OPDATA(0, 0), NULL, p_add_n),
    BUILTIN(GATHER_ND, K("gather_nd.cc"), NONE, OPDATA(0, 0), NULL, p_i0_i1_o0_dims),
    BUILTIN(COS, K("elementwise.cc"), NONE, OPDATA(0, 0), NULL, p_i0_o0),
    BUILTIN(ELU, K("elu.cc"), NONE, OPDATA(256, 256), NULL, p_i0_o0),
    BUILTIN(QUANTIZE, K("quantize.cc"), NONE, OPDATA(32, 32), NULL, p_i0_o0),
    BUILTIN(ROUND, K("round.cc"), NONE, OPDATA(0, 0), NULL, p_i0_o0),
    BUILTIN(HARD_SWISH, K("hard_swish.cc"), NONE, OPDATA(20, 20), NULL, p_i0_o0),
    BUILTIN(IF, K("if.cc"), PARAMS(8, 4), OPDATA(8, 8), NULL, p_i0),
    BUILTIN(WHILE, K("while.cc"), PARAMS(8, 4), OPDATA(8, 8), NULL, NULL),
    BUILTIN(SELECT_V2, K("select.cc"), NONE, OPDATA(1, 1), NULL, p_i0_i1_i2_o0),
    BUILTIN(BATCH_MATMUL, K("batch_matmul.cc"), PARAMS(3, 1), OPDATA(16, 32), NULL, p_batch_matmul),
    BUILTIN(CUMSUM, K("cumsum.cc"), PARAMS(2, 1), OPDATA(0, 0), NULL, p_cumsum),
    BUILTIN(CALL_ONCE, K("call_once.cc"), PARAMS(4, 4), OPDATA(8, 8), NULL, NULL),
    BUILTIN(BROADCAST_TO, K("broadcast_to.cc"), NONE, OPDATA(0, 0), NULL, p_i0_i1_o0),
    BUILTIN(REDUCE_ALL, K("reduce.cc"), PARAMS(1, 1), OPDATA(44, 44), NULL, p_reduce_all),
    BUILTIN(BROADCAST_ARGS, K("broadcast_args.cc"), NONE, OPDATA(0, 0), NULL, p_i0_i1_o0),
    BUILTIN(DYNAMIC_UPDATE_SLICE, K("dynamic_update_slice.cc"), NONE, OPDATA(0, 0), NULL, p_i0_i1_i2_o0),
};
const size_t aplan__tflm_kernel_count = sizeof aplan__tflm_kernels / sizeof aplan__tflm_kernels[0];

/* CMSIS-NN's kernels where they differ from the reference ones, sorted by code (the look-up tries them first). */
const aplan__tflm_kernel aplan__tflm_cmsis_kernels[] = {
    BUILTIN(AVERAGE_POOL_2D, CMSIS("pooling.cc"), PARAMS(40, 4), OPDATA(36, 36), NULL, c_average_pool),
    BUILTIN(CONV_2D, CMSIS("conv.cc"), PARAMS(28, 4), OPDATA(60, 80), NULL, c_conv),
    BUILTIN(DEPTHWISE_CONV_2D, CMSIS("depthwise_conv.cc"), PARAMS(28, 4), OPDATA(60, 80), NULL, c_depthwise_conv),
    BUILTIN(FULLY_CONNECTED, CMSIS("fully_connected.cc"), PARAMS(16, 4), OPDATA(72, 96), NULL, c_fully_connected),
    BUILTIN(MAX_POOL_2D, CMSIS("pooling.cc"), PARAMS(40, 4), OPDATA(36, 36), NULL, p_i0_o0),
    BUILTIN(SOFTMAX, CMSIS("softmax.cc"), PARAMS(4, 4), OPDATA(64, 88), NULL, p_softmax),
    BUILTIN(SVDF, CMSIS("svdf.cc"), PARAMS(12, 4), OPDATA(40, 48), NULL, p_svdf),
    BUILTIN(UNIDIRECTIONAL_SEQUENCE_LSTM, CMSIS("unidirectional_sequence_lstm.cc"), PARAMS(16, 4),
            OPDATA(912, 1008), NULL, c_lstm),
    BUILTIN(TRANSPOSE_CONV, CMSIS("transpose_conv.cc"), PARAMS(20, 4), OPDATA(76, 88), NULL, c_transpose_conv),
    BUILTIN(BATCH_MATMUL, CMSIS("batch_matmul.cc"), PARAMS(3, 1), OPDATA(36, 56), NULL, c_batch_matmul),
};
const size_t aplan__tflm_cmsis_kernel_count = sizeof aplan__tflm_cmsis_kernels / sizeof aplan__tflm_cmsis_kernels[0];
