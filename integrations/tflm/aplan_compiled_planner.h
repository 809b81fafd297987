/*
 * A plan made before the device, compiled into the firmware, as a TensorFlow Lite Micro memory planner that needs
 * no scratch at all.
 *
 * TFLM hands every planner the arena's free space while it plans (GreedyMemoryPlanner keeps 40 bytes a buffer there,
 * AplanMemoryPlanner its records and aplan_plan's scratch), and on small models that working space, not the plan,
 * sets the smallest arena that works. aplan_tflm::AplanCompiledPlanner plans nothing on the device: `aplan plan
 * MODEL -f c` writes every buffer TFLM will add (its size, its steps, its offset; `<prefix>_tflm_plan` and
 * `<PREFIX>_TFLM_PLAN_BUFFERS`), and this planner hands those offsets out after checking, buffer by buffer, that TFLM
 * adds exactly the buffers the plan was made for:
 *
 *   #include "person_detect_plan.h"                       // aplan plan person_detect.tflite -f c -o ...
 *   static aplan_tflm::AplanCompiledPlanner planner(aplan_tflm_plan, APLAN_TFLM_PLAN_BUFFERS);
 *   tflite::MicroAllocator *allocator = tflite::MicroAllocator::Create(arena, arena_size, &planner);
 *   tflite::MicroInterpreter interpreter(model, resolver, allocator);
 *
 * Guarantees:
 *   - No scratch: Init's buffer is never read or written, so TFLM's arena need not hold a planner's working space.
 *   - The plan is the model's: AddBuffer k fails unless TFLM's size (rounded up to 16), first and last step equal
 *     entry k's, and TFLM passes an offline offset exactly for the entries marked offline, equal to their offset;
 *     a model with more or fewer buffers than the plan fails at AddBuffer or at the first query.
 *   - The plan is checked on the device, not trusted: before the first offset is handed out, every entry's offset
 *     is a multiple of 16 and inside an int, and no two entries that TFLM sees live together share a byte (unless
 *     both have offline offsets, which TFLM lets alias): O(n^2) comparisons once, with no memory (the verifier of
 *     aplan's core needs its own records, which is what this planner avoids).
 *   - GetMaximumMemorySize is the plan's arena (the highest offset + size), so TFLM reserves the planned section
 *     and checks it against the arena, unlike TFLM's NonPersistentMemoryPlannerShim, which answers 0.
 *   - Failures return kTfLiteError, with status() and a one-line error_text() (also printed with MicroPrintf).
 *
 * Not thread-safe; one planner serves one MicroAllocator. The entries are the caller's (static const data) and must
 * outlive the planner. Builds as C++11 and later, with and without TF_LITE_STATIC_MEMORY, against TFLM's headers;
 * it needs nothing of aplan's library.
 */
#ifndef APLAN_INTEGRATIONS_TFLM_APLAN_COMPILED_PLANNER_H_
#define APLAN_INTEGRATIONS_TFLM_APLAN_COMPILED_PLANNER_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/lite/micro/compatibility.h"
#include "tensorflow/lite/micro/memory_planner/micro_memory_planner.h"

namespace aplan_tflm {

class AplanCompiledPlanner : public tflite::MicroMemoryPlanner {
 public:
  /** The columns of an entry of `aplan plan -f c`'s `<prefix>_tflm_plan`: bytes (rounded up to 16, as TFLM adds
   *  them), TFLM's first and last step (inclusive, -1 before the first operator), offset in the planned section,
   *  and 1 when the model's offline plan fixes that offset (TFLM then passes it to AddBuffer), else 0. */
  enum Column { kSize = 0, kFirst = 1, kLast = 2, kOffset = 3, kOffline = 4, kColumns = 5 };
  /** TFLM's arena buffer alignment: sizes are rounded up to it, and every offset must be a multiple of it. */
  static constexpr int32_t kAlignment = 16;
  /** Length of error_text()'s buffer, NUL included; longer reasons are cut. */
  static constexpr size_t kErrorTextSize = 160;

  /** Hands out the offsets of entries[0, count), in TFLM's AddBuffer order (the caller's memory, alive as long as
   *  the planner). A null array with a non-zero count fails every later call. O(1); the entries are checked at the
   *  first query. */
  AplanCompiledPlanner(const int32_t (*entries)[kColumns], size_t count);
  ~AplanCompiledPlanner() override;
  AplanCompiledPlanner(const AplanCompiledPlanner &) = delete;
  AplanCompiledPlanner &operator=(const AplanCompiledPlanner &) = delete;

  /** Forgets the buffers added so far; the scratch is not used. kTfLiteOk always (TFLM ignores the status). */
  TfLiteStatus Init(unsigned char *scratch_buffer, int scratch_buffer_size) override;
  /** Checks buffer GetBufferCount() against its entry (above). kTfLiteError when it does not match or the plan
   *  has no more entries. O(1). */
  TfLiteStatus AddBuffer(int size, int first_time_used, int last_time_used) override;
  /** The same, for a buffer with an offline offset (-1: none), which must equal the entry's. */
  TfLiteStatus AddBuffer(int size, int first_time_used, int last_time_used, int offline_offset) override;
  /** The plan's arena, once every entry has been added and the plan checked; 0 otherwise (TFLM then stops at
   *  GetOffsetForBuffer, which reports why). O(n^2) on the first call, O(1) after. */
  size_t GetMaximumMemorySize() override;
  int GetBufferCount() override;
  /** Entry buffer_index's offset. kTfLiteError when the index is outside the buffers added, when TFLM added fewer
   *  buffers than the plan has, or when the plan fails its check. */
  TfLiteStatus GetOffsetForBuffer(int buffer_index, int *offset) override;
  bool preserves_all_tensors() const override { return false; }
  /** One line per buffer (TFLM's steps, size, offset) after a summary, or the reason the plan is refused. */
  void PrintMemoryPlan() override;

  /** false once a call failed since Init; error_text() says why. */
  bool ok() const { return ok_; }
  /** The reason of the first failure since Init ("" when none). Owned by the planner. */
  const char *error_text() const { return error_text_; }
  /** The plan's arena (highest offset + size; 0 for an empty plan), known once checked. */
  size_t arena_size() const { return arena_size_; }

 private:
  bool Check();  // the whole plan once: every entry added, offsets aligned, no two live entries sharing bytes
  TfLiteStatus Fail(const char *what, int64_t a, const char *middle, int64_t b, const char *end);

  const int32_t (*entries_)[kColumns];
  size_t count_;     // entries
  size_t added_;     // buffers TFLM added since Init
  bool checked_;
  bool ok_;
  size_t arena_size_;
  char error_text_[kErrorTextSize];

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#endif
  TF_LITE_REMOVE_VIRTUAL_DELETE
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
};

}  // namespace aplan_tflm

#endif  // APLAN_INTEGRATIONS_TFLM_APLAN_COMPILED_PLANNER_H_
