/*
 * Random planning problems from a byte string, for the fuzzers, the property tests and the benchmarks.
 *
 * Bytes are read two ways (zstd's "data producer"): structure (how many ops, which kind, how big) from the END of the
 * input, and details (which tensor an op reads, each dimension) from the FRONT, so a mutation in one half changes
 * one aspect and the fuzzer can explore structure and sizes independently. An exhausted input reads as zeros; every
 * input, even empty, gives a problem.
 *
 * Two generators:
 *   - gg_graph: an inference graph (inputs, ops in topological order, each tensor produced by one op and read by
 *     later ones: chains, skip connections, concatenations, fan-out, several graph inputs and outputs, tensors
 *     nobody reads or touches, tensors read but never written, tiny and huge sizes, a few fixed offsets), with
 *     lifetimes derived by TFLite Micro's rules (../shared/models/README.md);
 *   - gg_direct: buffers straight from the bytes (any intervals, sizes up to 2^64 - 1, alignments 1 to 4096 and
 *     invalid ones, fixed offsets, capacities): the corners a graph never makes, validation failures included.
 * Both stay within GG_MAX_BUFFERS so one run takes well under a millisecond.
 */
#ifndef APLAN_FUZZ_GRAPH_GEN_H
#define APLAN_FUZZ_GRAPH_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "aplan/aplan.h"

#define GG_MAX_BUFFERS 128

typedef struct gg_producer {
    const uint8_t *data;
    size_t size; /* bytes not yet consumed, between the front and the back cursors */
} gg_producer;

void gg_producer_init(gg_producer *p, const uint8_t *data, size_t size);
/* A value in [0, max] from the back (structure). */
uint64_t gg_param(gg_producer *p, uint64_t max);
/* A value in [0, max] from the front (details). */
uint64_t gg_take(gg_producer *p, uint64_t max);

/* A generated problem: owns its buffers; problem.buffers points into this struct (do not copy it by value). */
typedef struct gg_problem {
    aplan_buffer buffers[GG_MAX_BUFFERS];
    aplan_problem problem;
} gg_problem;

void gg_graph(gg_producer *p, gg_problem *out);
void gg_direct(gg_producer *p, gg_problem *out);
/* Picks one of the two from the last byte of the input. */
void gg_any(const uint8_t *data, size_t size, gg_problem *out);

#endif
