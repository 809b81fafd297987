/*
 * TEST-ONLY stand-in for TensorFlow Lite Micro's interface tflite::MicroMemoryPlanner
 * (tensorflow/lite/micro/memory_planner/micro_memory_planner.h, same path), written for aplan's CI from the
 * interface's documented signatures. The adapter must compile unchanged against the real header, so every
 * signature, default and virtual-ness here is TFLM's; only the comments are ours.
 *
 * The contract as TFLM's allocator uses it (micro_allocator.cc, CommitStaticMemoryPlan):
 *   1. Init(scratch, size) with the arena's free space; its status is not checked.
 *   2. AddBuffer once per tensor or kernel scratch buffer to plan, in a fixed order that numbers them 0, 1, ...;
 *      sizes already rounded to 16; steps inclusive, -1 for "before the first operator"; the four-argument form
 *      only for buffers the model's offline plan places.
 *   3. GetOffsetForBuffer(i) for every i, then the scratch is taken back, then GetMaximumMemorySize().
 */
#ifndef APLAN_TFLM_STUB_TENSORFLOW_LITE_MICRO_MEMORY_PLANNER_MICRO_MEMORY_PLANNER_H_
#define APLAN_TFLM_STUB_TENSORFLOW_LITE_MICRO_MEMORY_PLANNER_MICRO_MEMORY_PLANNER_H_

#include <stddef.h>

#include "tensorflow/lite/c/common.h"

namespace tflite {

class MicroMemoryPlanner {
 public:
  MicroMemoryPlanner() {}
  virtual ~MicroMemoryPlanner() {}

  // Buffer number GetBufferCount() (before the call): size in bytes, live at steps [first, last] inclusive.
  virtual TfLiteStatus AddBuffer(int size, int first_time_used, int last_time_used) = 0;

  // The same for a buffer the offline plan puts at offline_offset; planners that cannot honour it fail.
  virtual TfLiteStatus AddBuffer(int /*size*/, int /*first_time_used*/, int /*last_time_used*/,
                                 int /*offline_offset*/) {
    return kTfLiteError;
  }

  // Bytes from the start of the planned section to the end of its highest buffer.
  virtual size_t GetMaximumMemorySize() = 0;
  // Buffers added so far.
  virtual int GetBufferCount() = 0;
  // Offset of buffer buffer_index (in AddBuffer order) from the start of the planned section.
  virtual TfLiteStatus GetOffsetForBuffer(int buffer_index, int *offset) = 0;

  // Working memory for the planner, valid until the plan is committed; planners that need none keep the default.
  virtual TfLiteStatus Init(unsigned char * /*scratch_buffer*/, int /*scratch_buffer_size*/) { return kTfLiteOk; }

  // Whether every tensor keeps its data after the whole graph has run (no two buffers share memory).
  virtual bool preserves_all_tensors() const = 0;

  // Debug output of the plan; the default prints nothing.
  virtual void PrintMemoryPlan() {}
};

}  // namespace tflite

#endif  // APLAN_TFLM_STUB_TENSORFLOW_LITE_MICRO_MEMORY_PLANNER_MICRO_MEMORY_PLANNER_H_
