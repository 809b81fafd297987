/*
 * Writes the .tflite models the CLI tests run on in any clone (beside the shared folder's real models when those are
 * there), built with the tests' flatbuffer writer (tests/tflite_writer.c). Usage: make_models DIR;
 * writes DIR/chain.tflite, DIR/ties.tflite, DIR/ties4.tflite, DIR/ties_overlap.tflite, DIR/offline.tflite,
 * DIR/badnames.tflite, DIR/names.tflite, DIR/huge.tflite, DIR/buffers20k.tflite, DIR/steps.tflite, DIR/refuse.tflite,
 * DIR/refuse_fc.tflite, DIR/scratch.tflite and the hostile
 * models (see hostile and hostile_tflm below); exit 0, or 1 with a message when a file cannot be written.
 *
 * Each model's figures are worked out by hand below, so the tests can pin them (TFLM's rules, aplan/tflite.h: step 1
 * holds the subgraph's inputs, op k runs at step k + 2, a tensor lives from the step that writes it through the last
 * step that reads it, the subgraph's outputs to the last step; sizes rounded up to 16, alignment 16).
 *
 * chain.tflite, the person_detect of these tests: one subgraph, int8, named tensors, three constant weight tensors
 * (the dense layer's 16,384 bytes put the file above 16 KiB), 4 operators, 6 steps:
 *   op 0 CONV_2D            input, block/conv/weights  -> block/conv
 *   op 1 DEPTHWISE_CONV_2D  block/conv, block/conv_dw/weights -> block/conv_dw
 *   op 2 ADD                block/conv, block/conv_dw -> block/add
 *   op 3 FULLY_CONNECTED    block/add, dense/weights -> output
 *   planned: s0t0 input [1x8x8x4] 256 B [1, 3); s0t2 block/conv [1x8x8x8] 512 B [2, 5); s0t4 block/conv_dw 512 B
 *   [3, 5); s0t5 block/add 512 B [4, 6); s0t7 output [1x32] 32 B [5, 6).
 *   Live bytes per step 1..5: 256, 768, 1024, 1536, 544: the lower bound is 1536 at step 4 (ADD).
 *   greedy_by_size (largest first, ties in input order): s0t2 0, s0t4 512, s0t5 1024, s0t0 512 (it meets only s0t2),
 *   s0t7 0 (it meets only s0t5): 1536, the bound. TFLM's order (ties: last added first): s0t5 0, s0t4 512, s0t2 1024,
 *   s0t0 0, s0t7 512: also 1536. linear: 256 + 3 * 512 + 32 = 1824.
 *
 * ties.tflite, the audio_preprocessor_int8 of these tests: TFLM's tie order costs 16 bytes that greedy_by_size's
 * does not. Custom operators Window, Spectrum and Energy, then FULLY_CONNECTED; 6 steps:
 *   op 0 Window           frame -> window (written, never read)
 *   op 1 Spectrum         frame -> spectrum
 *   op 2 Energy           spectrum -> energy
 *   op 3 FULLY_CONNECTED  energy, spectrum -> features
 *   planned: s0t0 frame INT16 [16] 32 B [1, 4); s0t1 window INT16 [16] 32 B [2, 3); s0t2 energy INT32 [12] 48 B
 *   [4, 6); s0t3 spectrum INT16 [16] 32 B [3, 6); s0t4 features INT64 [] (a scalar) 8 B, 16 planned, [5, 6).
 *   Live bytes per step 1..5: 32, 64, 64, 80, 96: the bound is 96 at step 5 (FULLY_CONNECTED).
 *   greedy_by_size: s0t2 0, s0t0 0 (it never meets s0t2), s0t1 32, s0t3 48 (above s0t2 and s0t0), s0t4 80: 96.
 *   TFLM's order: s0t2 0, s0t3 48, s0t1 0, then s0t0 meets s0t1 [0, 32) and s0t3 [48, 80): the 16 bytes between
 *   are too few, so 80; s0t4 80: 112. linear: 32 + 32 + 48 + 32 + 16 = 160.
 *
 * offline.tflite, the person_detect_vela of these tests: chain.tflite with an OfflineMemoryAllocation entry that
 * fixes every planned tensor: s0t0 0, s0t2 0 (sharing bytes [0, 256) with s0t0 at step 2, on purpose), s0t4 512,
 * s0t5 1024, s0t7 0. Arena 1536, the bound.
 *
 * names.tflite: names no other input has (see names_model below).
 *
 * badnames.tflite: chain.tflite with its subgraph named "main", and the names of s0t2 (block/conv) and of the
 * subgraph given a length of 2^28, past the end of the file: the reader never reads names, so the model plans; the
 * tools show those by their ids.
 *
 * huge.tflite: one ABS, s0t0 INT8 [16] 16 B -> s0t1 INT8 [256, 2^28 - 1, 2^28 + 1], 2^64 - 256 bytes, both live at
 * step 2: the section is 2^64 - 240 bytes, which fits 64 bits, and TFLM's persistent data on top of it does not.
 */
#include <stdio.h>
#include <string.h>

#include "tflite_writer.h"

enum { FLOAT32 = 0, FLOAT16 = 1, INT32 = 2, INT64 = 4, INT16 = 7, INT8 = 9 };
enum { ADD = 0, CONV_2D = 3, DEPTHWISE_CONV_2D = 4, DEQUANTIZE = 6, FULLY_CONNECTED = 9, MUL = 18, CUSTOM = 32, ABS = 101,
       ADD_N = 106, WHILE = 119 };
enum { WHILE_OPTIONS = 93 };

/* DIR/NAME: the built file f, freed; 1 when written, else 0 (said). */
static int write_file(const char *dir, const char *name, tw_file f) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *out = fopen(path, "wb");
    int ok = out != NULL && fwrite(f.data, 1, f.size, out) == f.size;
    if (out != NULL) ok = fclose(out) == 0 && ok;
    tw_free(&f);
    if (!ok) fprintf(stderr, "make_models: cannot write %s\n", path);
    return ok;
}

/* DIR/NAME: model m with the tensor names and custom codes given (n of each); 1 when written, else 0 (said). With
 * broken (a subgraph name too), the strings named by those keys get a length that runs past the end of the file. */
static int write_model_broken(const char *dir, const char *name, const tw_model *m, const tw_string *names,
                              uint32_t n_names, const tw_string *custom, uint32_t n_custom, const tw_string *subgraph,
                              const char *const *broken, size_t n_broken) {
    tw_extra x;
    memset(&x, 0, sizeof x);
    x.tensor_names = names;
    x.n_tensor_names = n_names;
    x.custom_codes = custom;
    x.n_custom_codes = n_custom;
    x.subgraph_names = subgraph;
    x.n_subgraph_names = subgraph != NULL ? 1u : 0u;
    tw_file f = tw_build_ex(m, &x);
    for (size_t k = 0; k < n_broken; k++) { /* the length word is the 4 bytes before the string's first byte */
        unsigned char *length = f.data + tw_pos(&f, broken[k]) - 4;
        length[0] = 0, length[1] = 0, length[2] = 0, length[3] = 0x10;
    }
    return write_file(dir, name, f);
}

static int write_model(const char *dir, const char *name, const tw_model *m, const tw_string *names, uint32_t n_names,
                       const tw_string *custom, uint32_t n_custom) {
    return write_model_broken(dir, name, m, names, n_names, custom, n_custom, NULL, NULL, 0);
}

/* DIR/name, a copy of DIR/from with byte `at` set to value. */
static int write_mutant(const char *dir, const char *from, const char *name, long at, unsigned char value) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, from);
    FILE *in = fopen(path, "rb");
    unsigned char data[65536];
    size_t size = in != NULL ? fread(data, 1, sizeof data, in) : 0;
    if (in != NULL) fclose(in);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *out = size > (size_t)at ? fopen(path, "wb") : NULL;
    data[at] = value;
    int ok = out != NULL && fwrite(data, 1, size, out) == size;
    if (out != NULL) ok = fclose(out) == 0 && ok;
    if (!ok) fprintf(stderr, "make_models: cannot write %s\n", path);
    return ok;
}

static const int32_t in_0[] = {0}, in_0_1[] = {0, 1}, in_2_3[] = {2, 3}, in_2_4[] = {2, 4}, in_5_6[] = {5, 6};
static const int32_t in_3[] = {3}, in_2[] = {2}, out_1[] = {1}, out_2[] = {2}, out_3[] = {3}, out_4[] = {4};
static const int32_t out_5[] = {5}, out_7[] = {7};

/* chain.tflite, offline.tflite with its plan, dangling.tflite with a metadata entry naming a missing buffer. */
static int chain(const char *dir) {
    static const int32_t s_input[] = {1, 8, 8, 4}, s_conv_w[] = {8, 3, 3, 4}, s_act[] = {1, 8, 8, 8},
                         s_dw_w[] = {1, 3, 3, 8}, s_dense_w[] = {32, 512}, s_output[] = {1, 32};
    static const tw_opcode codes[] = {{CONV_2D, CONV_2D}, {DEPTHWISE_CONV_2D, DEPTHWISE_CONV_2D}, {ADD, ADD},
                                      {FULLY_CONNECTED, FULLY_CONNECTED}};
    static const tw_tensor tensors[] = {
        {s_input, 4, INT8, 0, false}, {s_conv_w, 4, INT8, 1, false},   {s_act, 4, INT8, 0, false},
        {s_dw_w, 4, INT8, 2, false},  {s_act, 4, INT8, 0, false},      {s_act, 4, INT8, 0, false},
        {s_dense_w, 2, INT8, 3, false}, {s_output, 2, INT8, 0, false}};
    static const tw_op ops[] = {{0, in_0_1, 2, out_2, 1, 0, {0, 0}, 0}, {1, in_2_3, 2, out_4, 1, 0, {0, 0}, 0},
                                {2, in_2_4, 2, out_5, 1, 0, {0, 0}, 0}, {3, in_5_6, 2, out_7, 1, 0, {0, 0}, 0}};
    static const tw_subgraph sg[] = {{tensors, 8, in_0, 1, out_7, 1, ops, 4}};
    static const tw_string names[] = {{0, 0, "input", 0},         {0, 1, "block/conv/weights", 0},
                                      {0, 2, "block/conv", 0},    {0, 3, "block/conv_dw/weights", 0},
                                      {0, 4, "block/conv_dw", 0}, {0, 5, "block/add", 0},
                                      {0, 6, "dense/weights", 0}, {0, 7, "output", 0}};
    static uint8_t conv_w[288], dw_w[72], dense_w[16384], plan[4 * 11];
    /* version 0, 1 subgraph, 8 tensors; then each tensor's offset, -1 for the constants */
    static const int32_t words[] = {0, 1, 8, 0, -1, 0, -1, 512, 1024, -1, 0};
    for (size_t i = 0; i < sizeof conv_w; i++) conv_w[i] = (uint8_t)i;
    for (size_t i = 0; i < sizeof dw_w; i++) dw_w[i] = (uint8_t)(3 * i);
    for (size_t i = 0; i < sizeof dense_w; i++) dense_w[i] = (uint8_t)(i * 7 + (i >> 8));
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        for (unsigned k = 0; k < 4; k++) plan[4 * i + k] = (uint8_t)((uint32_t)words[i] >> (8 * k));
    }
    const tw_buffer buffers[] = {{NULL, 0, 0, 0},
                                 {conv_w, sizeof conv_w, 0, 0},
                                 {dw_w, sizeof dw_w, 0, 0},
                                 {dense_w, sizeof dense_w, 0, 0},
                                 {plan, sizeof plan, 0, 0}};
    static const tw_metadata md[] = {{"OfflineMemoryAllocation", 4}};
    /* A metadata entry naming buffer 4 of a 4-buffer model: the index embed's new buffer would take. */
    static const tw_metadata dangling_md[] = {{"min_runtime_version", 4}};
    const tw_model m = {3, codes, 4, sg, 1, buffers, 4, NULL, 0};
    const tw_model planned = {3, codes, 4, sg, 1, buffers, 5, md, 1};
    const tw_model dangling = {3, codes, 4, sg, 1, buffers, 4, dangling_md, 1};
    static const tw_string main_name = {0, 0, "main", 0};
    static const char *const broken[] = {"s0t2.name", "s0.name"};
    return write_model(dir, "chain.tflite", &m, names, 8, NULL, 0) &&
           write_model(dir, "offline.tflite", &planned, names, 8, NULL, 0) &&
           write_model(dir, "dangling.tflite", &dangling, names, 8, NULL, 0) &&
           write_model_broken(dir, "badnames.tflite", &m, names, 8, NULL, 0, &main_name, broken, 2);
}

static const tw_opcode ties_codes[] = {{CUSTOM, CUSTOM}, {CUSTOM, CUSTOM}, {CUSTOM, CUSTOM},
                                      {FULLY_CONNECTED, FULLY_CONNECTED}};
static const tw_op ties_ops[] = {{0, in_0, 1, out_1, 1, 0, {0, 0}, 0}, {1, in_0, 1, out_3, 1, 0, {0, 0}, 0},
                                 {2, in_3, 1, out_2, 1, 0, {0, 0}, 0}, {3, in_2_3, 2, out_4, 1, 0, {0, 0}, 0}};

/* ties4.tflite: ties.tflite with a quarter of the bytes (8, 8, 12, 8, 4), for plans at alignment 4 that TFLM cannot
 * take: at -a 4 greedy_by_size gives s0t2 0, s0t0 0, s0t1 8, s0t3 12, s0t4 20 (24 bytes), TFLM's order 28; offsets
 * 8, 12 and 20 are not multiples of 16, so `embed` refuses the plan and `plan` does not advise it. */
static int ties4(const char *dir) {
    static const int32_t s8[] = {8}, s12[] = {12};
    static const tw_tensor tensors[] = {{s8, 1, INT8, 0, false}, {s8, 1, INT8, 0, false}, {s12, 1, INT8, 0, false},
                                        {s8, 1, INT8, 0, false}, {NULL, 0, INT32, 0, false}};
    static const tw_subgraph sg[] = {{tensors, 5, in_0, 1, out_4, 1, ties_ops, 4}};
    static const tw_buffer buffers[] = {{NULL, 0, 0, 0}};
    const tw_model m = {3, ties_codes, 4, sg, 1, buffers, 1, NULL, 0};
    return write_model(dir, "ties4.tflite", &m, NULL, 0, NULL, 0);
}

static int ties(const char *dir) {
    static const int32_t s16[] = {16}, s12[] = {12};
    static const tw_tensor tensors[] = {{s16, 1, INT16, 0, false}, {s16, 1, INT16, 0, false},
                                        {s12, 1, INT32, 0, false}, {s16, 1, INT16, 0, false},
                                        {NULL, 0, INT64, 0, false}};
    static const tw_subgraph sg[] = {{tensors, 5, in_0, 1, out_4, 1, ties_ops, 4}};
    static const tw_buffer buffers[] = {{NULL, 0, 0, 0}};
    static const tw_string names[] = {{0, 0, "frame", 0},
                                      {0, 1, "window", 0},
                                      {0, 2, "energy", 0},
                                      {0, 3, "spectrum", 0},
                                      {0, 4, "features", 0}};
    static const tw_string custom[] = {{0, 0, "Window", 0}, {0, 1, "Spectrum", 0}, {0, 2, "Energy", 0}};
    const tw_model m = {3, ties_codes, 4, sg, 1, buffers, 1, NULL, 0};
    /* ties_overlap.tflite: byte 220 set from 16 to 116 (a mutant fuzz/embed_mutants --show 1 found). The reader
     * takes it (every tensor now constant, its data beside the flatbuffer), but Model.buffers[0] now lies on tensor
     * 0's table (bytes 336-356): moving the Buffer's file offset, as embed must, would rewrite the tensor's type.
     * embed refuses it. */
    return write_model(dir, "ties.tflite", &m, names, 5, custom, 3) &&
           write_mutant(dir, "ties.tflite", "ties_overlap.tflite", 220, 116);
}

/* names.tflite: subgraph 0 runs ADD (t0 -> t1), WHILE (cond 1, body 2; t1 -> t2) and the custom operator
 * "Scale,\"x\"" (t2 -> t3); subgraphs 1 and 2 run ADD and MUL on u0 -> u1. Tensor names: s0t0 a comma, quotes, a
 * newline, a NUL, a byte that is not UTF-8 and markup; s0t1 a long scope path; s0t2 UTF-8 (a snowman); s0t3 none. */
static int names_model(const char *dir) {
    static const int32_t shape[] = {1, 4};
    static const tw_opcode codes[] = {{ADD, ADD}, {WHILE, WHILE}, {CUSTOM, CUSTOM}, {MUL, MUL}};
    static const tw_tensor t4[] = {{shape, 2, INT8, 0, false}, {shape, 2, INT8, 0, false},
                                   {shape, 2, INT8, 0, false}, {shape, 2, INT8, 0, false}};
    static const tw_op main_ops[] = {{0, in_0, 1, out_1, 1, 0, {0, 0}, 0},
                                     {1, out_1, 1, out_2, 1, WHILE_OPTIONS, {1, 2}, 2},
                                     {2, in_2, 1, out_3, 1, 0, {0, 0}, 0}};
    static const tw_op cond_ops[] = {{0, in_0, 1, out_1, 1, 0, {0, 0}, 0}};
    static const tw_op body_ops[] = {{3, in_0, 1, out_1, 1, 0, {0, 0}, 0}};
    static const tw_subgraph sgs[] = {{t4, 4, in_0, 1, out_3, 1, main_ops, 3},
                                      {t4, 2, in_0, 1, out_1, 1, cond_ops, 1},
                                      {t4, 2, in_0, 1, out_1, 1, body_ops, 1}};
    static const tw_buffer buffers[] = {{NULL, 0, 0, 0}};
    static const char odd[] = "a,b \"q\"\n\0\xff</x>";
    static const tw_string names[] = {
        {0, 1, "encoder/layer_11/attention/self/query_projection/MatMul;bias_add", 0},
        {0, 0, odd, sizeof odd - 1u},
        {0, 2, "snow\xe2\x98\x83man", 0}};
    static const tw_string custom[] = {{0, 2, "Scale,\"x\"", 0}};
    const tw_model m = {3, codes, 4, sgs, 3, buffers, 1, NULL, 0};
    return write_model(dir, "names.tflite", &m, names, 3, custom, 1);
}

/* huge.tflite: a section just below 2^64. */
static int huge(const char *dir) {
    static const int32_t small[] = {16}, big[] = {256, (1 << 28) - 1, (1 << 28) + 1};
    static const tw_opcode codes[] = {{ABS, ABS}};
    static const tw_tensor tensors[] = {{small, 1, INT8, 0, false}, {big, 3, INT8, 0, false}};
    static const tw_op ops[] = {{0, in_0, 1, out_1, 1, 0, {0, 0}, 0}};
    static const tw_subgraph sg[] = {{tensors, 2, in_0, 1, out_1, 1, ops, 1}};
    static const tw_buffer buffers[] = {{NULL, 0, 0, 0}};
    const tw_model m = {3, codes, 1, sg, 1, buffers, 1, NULL, 0};
    return write_model(dir, "huge.tflite", &m, NULL, 0, NULL, 0);
}

/* The hostile models of issue 21 (hostile_test.sh times every command on them; tw_build_shared in
 * tests/tflite_writer.h builds them): FlatBuffers lets every entry of a vector point at one table or string, so a
 * file of about 4 (k + l) bytes names a string of l bytes, or a shape of rank l, k times over. The reader bounds its
 * own work on them; these test what the tool does with what it read. "The name" is 100,000 bytes of the alphabet
 * over and over ("abc...zabc...").
 *   shared_name.tflite     10,000 entries of subgraph 0's tensors, all one INT8 [16] tensor with the name; one ADD
 *                          t0 -> t1. 10,000 buffers of 16 bytes, t0 live at [1, 3), t1 at [2, 3), the rest never;
 *                          about 140 KB.
 *   shared_control.tflite  the same with 20,000 entries and a name of 40,000 control bytes (0x01, each shown as the
 *                          four characters \x01); about 120 KB.
 *   fanin.tflite           t0 INT8 [16] with the name, t1 INT8 [16] "out"; one ADD whose 40,000 inputs all name t0,
 *                          writing t1; about 260 KB.
 *   rank.tflite            t0 INT8 of rank 60,000 (every entry 1: 1 byte), t1 INT8 [1] "out"; one ADD whose 60,000
 *                          inputs all name t0; about 480 KB.
 *   shared_custom.tflite   one CUSTOM operator code whose custom_code is the name, and 10,000 entries of subgraph 0's
 *                          operators, all one operator of it, t0 -> t1 (INT8 [16] each): steps 2 to 10001; about
 *                          140 KB. */
static int hostile(const char *dir) {
    return write_file(dir, "shared_name.tflite", tw_build_shared(TW_SHARED_NAME, 10000, 100000, 0)) &&
           write_file(dir, "shared_control.tflite", tw_build_shared(TW_SHARED_NAME, 20000, 40000, 1)) &&
           write_file(dir, "fanin.tflite", tw_build_shared(TW_SHARED_FANIN, 40000, 100000, 0)) &&
           write_file(dir, "rank.tflite", tw_build_shared(TW_SHARED_RANK, 60000, 60000, 0)) &&
           write_file(dir, "shared_custom.tflite", tw_build_shared(TW_SHARED_CUSTOM, 10000, 100000, 0));
}

/* buffers20k.tflite: t0 -> ADD -> t1 and 20,000 empty buffers that no tensor uses: embed's front block (4 bytes a
 * buffer) passes the 64 KiB the tool first allots beyond the model, so it takes its second, exactly sized call. */
static int many_buffers(const char *dir) {
    static const int32_t s16[] = {16};
    static const tw_opcode codes[] = {{ADD, ADD}};
    static const tw_tensor t[] = {{s16, 1, INT8, 0, false}, {s16, 1, INT8, 0, false}};
    static const tw_op ops[] = {{0, in_0, 1, out_1, 1, 0, {0, 0}, 0}};
    static const tw_subgraph sg[] = {{t, 2, in_0, 1, out_1, 1, ops, 1}};
    static tw_buffer buffers[20000];
    const tw_model m = {3, codes, 1, sg, 1, buffers, 20000, NULL, 0};
    return write_model(dir, "buffers20k.tflite", &m, NULL, 0, NULL, 0);
}

/* steps.tflite: one ADD t0 -> t1 (INT8 [16]) listed 240,000 times in subgraph 0, every entry the same operator table:
 * 240,000 steps and operators in about 960 KB, the most a 1 MB file holds. Every command walks each operator entry
 * (TFLM's arena model three times an arena), so this is the shape that bounds their time per input byte. */
static int shared_steps(const char *dir) {
    static const int32_t s16[] = {16};
    static const tw_opcode codes[] = {{ADD, ADD}};
    static const tw_tensor t[] = {{s16, 1, INT8, 0, false}, {s16, 1, INT8, 0, false}};
    static const tw_op ops[] = {{0, in_0, 1, out_1, 1, 0, {0, 0}, 0}};
    static const tw_subgraph sg[] = {{t, 2, in_0, 1, out_1, 1, ops, 240000}};
    static const tw_buffer buffers[] = {{NULL, 0, 0, 0}};
    const tw_model m = {3, codes, 1, sg, 1, buffers, 1, NULL, 0};
    tw_extra x;
    memset(&x, 0, sizeof x);
    x.share_ops = true;
    return write_file(dir, "steps.tflite", tw_build_ex(&m, &x));
}

/* refuse.tflite: models TFLM's kernels refuse in Prepare, so AllocateTensors() fails whatever the arena: a DEQUANTIZE
 * of a FLOAT16 [4] tensor (dequantize_common.cc takes int8, int16 and uint8), then a FULLY_CONNECTED of its FLOAT32
 * output with INT8 [2x4] weights (a hybrid model, which fully_connected.cc rejects). refuse_fc.tflite: the
 * FULLY_CONNECTED first, reading a FLOAT32 input of the subgraph, then the DEQUANTIZE. Planned: 16 bytes each
 * (rounded up), a bound of 32 in refuse.tflite. */
static int refuse(const char *dir) {
    static const int32_t v4[] = {4}, w[] = {2, 4}, o[] = {1, 2};
    static const int32_t t0[] = {0}, t1[] = {1}, t3[] = {3}, t4[] = {4}, fc_in[] = {1, 2}, io_fc[] = {0, 1};
    static const int32_t out_fc[] = {3, 4};
    static const tw_opcode codes[] = {{DEQUANTIZE, DEQUANTIZE}, {FULLY_CONNECTED, FULLY_CONNECTED}};
    static const tw_tensor t[] = {{v4, 1, FLOAT16, 0, false}, {v4, 1, FLOAT32, 0, false}, {w, 2, INT8, 1, false},
                                  {o, 2, FLOAT32, 0, false},  {v4, 1, FLOAT32, 0, false}};
    static const tw_op dq_fc[] = {{0, t0, 1, t1, 1, 0, {0, 0}, 0}, {1, fc_in, 2, t3, 1, 0, {0, 0}, 0}};
    static const tw_op fc_dq[] = {{1, fc_in, 2, t3, 1, 0, {0, 0}, 0}, {0, t0, 1, t4, 1, 0, {0, 0}, 0}};
    static const tw_subgraph first[] = {{t, 4, t0, 1, t3, 1, dq_fc, 2}};
    static const tw_subgraph second[] = {{t, 5, io_fc, 2, out_fc, 2, fc_dq, 2}};
    static const uint8_t weights[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    static const tw_buffer buffers[] = {{NULL, 0, 0, 0}, {weights, 8, 0, 0}};
    const tw_model dq = {3, codes, 2, first, 1, buffers, 2, NULL, 0}, fc = {3, codes, 2, second, 1, buffers, 2, NULL, 0};
    return write_model(dir, "refuse.tflite", &dq, NULL, 0, NULL, 0) &&
           write_model(dir, "refuse_fc.tflite", &fc, NULL, 0, NULL, 0);
}

/* scratch.tflite, the keyword_scrambled of these tests: a kernel asks for a scratch buffer, so TFLM's planned section
 * holds more than the tensors. Two ADD_N of three FLOAT32 [1x4] inputs each (add_n.cc gathers the input pointers in
 * a scratch buffer: 3 pointers, 12 bytes on a 32-bit target, 24 on a 64-bit one):
 *   op 0 ADD_N  t0, t1, t2 -> t3
 *   op 1 ADD_N  t3, t1, t2 -> t4
 *   planned: s0t0..s0t4 16 B each: s0t0 [1, 3), s0t1 and s0t2 [1, 4), s0t3 [2, 4), s0t4 [3, 4); the requests s0o0r0
 *   at step 2 and s0o1r0 at step 3, 12 B (16 planned) each. Live bytes per step 1..3: 48, 80, 80: the lower bound is
 *   80 at step 2, 64 of tensors and 16 of scratch. */
static int scratch(const char *dir) {
    static const int32_t v[] = {1, 4}, ins0[] = {0, 1, 2}, ins1[] = {3, 1, 2}, outs0[] = {3}, outs1[] = {4};
    static const tw_opcode codes[] = {{ADD_N, ADD_N}};
    static const tw_tensor t[] = {{v, 2, FLOAT32, 0, false}, {v, 2, FLOAT32, 0, false}, {v, 2, FLOAT32, 0, false},
                                  {v, 2, FLOAT32, 0, false}, {v, 2, FLOAT32, 0, false}};
    static const tw_op ops[] = {{0, ins0, 3, outs0, 1, 0, {0, 0}, 0}, {0, ins1, 3, outs1, 1, 0, {0, 0}, 0}};
    static const tw_subgraph sg[] = {{t, 5, ins0, 3, outs1, 1, ops, 2}};
    static const tw_buffer buffers[] = {{NULL, 0, 0, 0}};
    static const tw_string names[] = {{0, 0, "frames", 0}, {0, 1, "state_a", 0}, {0, 2, "state_b", 0},
                                      {0, 3, "sum", 0},    {0, 4, "logits", 0}};
    const tw_model m = {3, codes, 1, sg, 1, buffers, 1, NULL, 0};
    return write_model(dir, "scratch.tflite", &m, names, 5, NULL, 0);
}

/* The hostile models of issue 32, for TFLM's arena model (tw_build_signal, tw_build_detection and tw_build_shared's
 * TW_SHARED_CONCAT in tests/tflite_writer.h build them; hostile_test.sh times every command on them):
 *   signal_rows.tflite      SignalDelay of an INT16 [4096, 4096, 4] input: a persistent circular buffer (40 bytes,
 *                           48 with padding) for each of 2^24 rows, in a file of about 450 bytes. The arena's op data
 *                           is 2^24 x 48 bytes + the pointer arrays; the planned tensors 128 MiB + 16 bytes.
 *   overlap_rows.tflite     SignalOverlapAdd of an INT16 [65536, 65536, 4, 4] input: 2^32 rows of an 8-byte frame
 *                           (16 with padding).
 *   signal_huge.tflite      SignalFramer of a constant INT16 [2^31 - 1, 2^31 - 1, 2, 1]: about 2^63 rows of 40 bytes,
 *                           which pass 2^64 - 1 bytes: the arena is not computable.
 *   detection.tflite        TFLite_Detection_PostProcess listed 100,000 times, one operator whose custom options
 *                           hold 25,011 keys; about 850 KB: its 1.1 million scratch requests pass the work budget.
 *   detection_keys.tflite   the same listed 4,000 times with 50,011 keys (about 920 KB): within it, 44,000 requests
 *                           of 4 to 64 bytes, eleven per entry.
 *   concat_rank.tflite      CONCATENATION whose 60,000 inputs all name one INT8 tensor of rank 60,000 (every entry
 *                           1); about 480 KB. */
static int hostile_tflm(const char *dir) {
    static const int32_t rows[] = {4096, 4096, 4}, overlap[] = {65536, 65536, 4, 4},
                         huge_rows[] = {2147483647, 2147483647, 2, 1};
    return write_file(dir, "signal_rows.tflite", tw_build_signal("SignalDelay", rows, 3, false)) &&
           write_file(dir, "overlap_rows.tflite", tw_build_signal("SignalOverlapAdd", overlap, 4, false)) &&
           write_file(dir, "signal_huge.tflite", tw_build_signal("SignalFramer", huge_rows, 4, true)) &&
           write_file(dir, "detection.tflite", tw_build_detection(100000, 25000)) &&
           write_file(dir, "detection_keys.tflite", tw_build_detection(4000, 50000)) &&
           write_file(dir, "concat_rank.tflite", tw_build_shared(TW_SHARED_CONCAT, 60000, 60000, 0));
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_models DIR\n");
        return 1;
    }
    return chain(argv[1]) && ties(argv[1]) && ties4(argv[1]) && names_model(argv[1]) && huge(argv[1]) &&
                   many_buffers(argv[1]) && hostile(argv[1]) && shared_steps(argv[1]) && refuse(argv[1]) &&
                   scratch(argv[1]) && hostile_tflm(argv[1])
               ? 0
               : 1;
}
