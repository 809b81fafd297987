/*
 * aplan as a TensorFlow Lite Micro memory planner.
 *
 * aplan_tflm::AplanMemoryPlanner implements tflite::MicroMemoryPlanner on top of aplan's C API, so a TFLM
 * application gets aplan's strategies, lower bound and verifier by handing one object to MicroAllocator::Create:
 *
 *   static aplan_tflm::AplanMemoryPlanner planner;            // auto: the best of aplan's auto set
 *   tflite::MicroAllocator *allocator = tflite::MicroAllocator::Create(arena, arena_size, &planner);
 *   tflite::MicroInterpreter interpreter(model, resolver, allocator);
 *
 * Guarantees (docs/tflm.md says more):
 *   - Two buffers conflict in aplan exactly when they conflict in TFLM (LifetimeToSteps below), so a plan aplan
 *     verifies is a plan TFLM may use.
 *   - Every plan comes out of aplan_plan, which verifies it; a plan that fails verification is never handed out:
 *     GetOffsetForBuffer then returns kTfLiteError.
 *   - Sizes are rounded up to 16 bytes and every offset is a multiple of 16 (TFLM's arena buffer alignment); offline
 *     offsets must be multiples of 16 too. Every offset + size fits an int.
 *   - No heap, no exceptions, no RTTI: every byte beyond the object itself comes from the scratch TFLM passes to
 *     Init (kRecordBytes per buffer from AddBuffer on, plus aplan_plan's scratch while planning), and it plans in
 *     whatever that scratch holds down to (kRecordBytes + kLeastPlanScratchPerBuffer) = 32 bytes a buffer, less
 *     than TFLM's GreedyMemoryPlanner keeps (40), so it never sets a larger smallest arena than TFLM's own planner.
 *   - Failures return kTfLiteError; the aplan status, report and a one-line reason stay readable through status(),
 *     report() and error_text(), and the reason goes to MicroPrintf.
 *
 * Not thread-safe: one planner serves one MicroAllocator. The object may live anywhere (static storage is usual);
 * it holds pointers into the Init scratch, never owns it, and frees nothing.
 *
 * Builds as C++11 and later, with and without TF_LITE_STATIC_MEMORY, against TFLM's own headers.
 */
#ifndef APLAN_INTEGRATIONS_TFLM_APLAN_MICRO_PLANNER_H_
#define APLAN_INTEGRATIONS_TFLM_APLAN_MICRO_PLANNER_H_

#include <stddef.h>
#include <stdint.h>

#include <aplan/aplan.h>

#include "tensorflow/lite/micro/compatibility.h"
#include "tensorflow/lite/micro/memory_planner/micro_memory_planner.h"

/*
 * APLAN_TFLM_STRATEGY: the name of the strategy the default constructor plans with, fixed when the adapter is
 * built, e.g. -DAPLAN_TFLM_STRATEGY=\"greedy_by_size\". "auto" (the default) chooses per model among the
 * library's auto set (aplan_strategy_auto_at in <aplan/strategies.h>: the same set as the CLI's -s auto, TFLM's own
 * plan first on a tie). A name this build of aplan lacks fails at planning time with APLAN_E_UNKNOWN_STRATEGY.
 */
#ifndef APLAN_TFLM_STRATEGY
#define APLAN_TFLM_STRATEGY "auto"
#endif

namespace aplan_tflm {

/**
 * TFLM's inclusive lifetime [first_time_used, last_time_used] as aplan's half-open [lower, upper):
 * lower = first + 1, upper = last + 2.
 *
 * Exactness: TFLM's planners treat buffers a and b as simultaneously live iff first_a <= last_b and
 * first_b <= last_a. aplan's rule is lower_a < upper_b and lower_b < upper_a, that is
 * first_a + 1 < last_b + 2 and first_b + 1 < last_a + 2, the same two integer inequalities. Adding one more to
 * both ends keeps TFLM's step -1 (a tensor created before the first operator, or one no operator touches, which TFLM
 * records with the "uninitialised" marker -1) at aplan step 0. A one-step lifetime (first == last) stays live for
 * one step rather than becoming empty.
 *
 * @return true and the steps; false (outputs untouched) iff first_time_used < -1 (TFLM never produces such a step)
 *         or last_time_used < first_time_used (TFLM's rule would make such a buffer conflict with the buffers
 *         spanning the gap, which no interval expresses). O(1).
 */
bool LifetimeToSteps(int first_time_used, int last_time_used, uint64_t *lower, uint64_t *upper);

class AplanMemoryPlanner : public tflite::MicroMemoryPlanner {
 public:
  /** Init scratch each buffer holds from AddBuffer until the next Init: its aplan_buffer32 record (16 bytes) and
   *  its offset (8 bytes). Planning n buffers needs n * kRecordBytes plus aplan_plan_scratch_size of the strategy. */
  static constexpr size_t kRecordBytes = sizeof(aplan_buffer32) + sizeof(uint64_t);
  /** What aplan_plan_scratch_size asks for at most, for any strategy of the auto set (aplan_strategy_auto_at) on
   *  any problem of n < 8192 buffers of which f have an offline offset: kPlanScratchPerBuffer * n +
   *  kPlanScratchPerOfflineBuffer * f + kPlanScratchExtra bytes (first_fit's need with aplan_plan's guarded copy
   *  of the offsets; the others ask less). So auto plans in any Init scratch of at least
   *  (kRecordBytes + kPlanScratchPerBuffer) * n + kPlanScratchPerOfflineBuffer * f + kPlanScratchExtra bytes.
   *  From 8192 buffers the greedy strategies take faster paths that ask 96 bytes a buffer more (about 125 a
   *  buffer with the copy; 48 more and about 76 above 65,536 buffers); first_fit does not, so auto still plans
   *  in that scratch, with the candidates that fit.
   *  The adapter's tests hold every build of aplan to these. */
  static constexpr size_t kPlanScratchPerBuffer = 40;
  static constexpr size_t kPlanScratchPerOfflineBuffer = 16;
  static constexpr size_t kPlanScratchExtra = 64;
  /** The least aplan_plan scratch auto plans in: greedy_by_size_tflm under APLAN_LOW_MEMORY (its list walk, TFLM's
   *  own O(n^2) way, the same offsets), 8 bytes a buffer, taken by any candidate whose fast need does not fit. So
   *  auto plans, with TFLM's plan at worst, in any Init scratch of (kRecordBytes + kLeastPlanScratchPerBuffer) * n
   *  bytes; a build of aplan without greedy_by_size_tflm needs its cheapest candidate's. */
  static constexpr size_t kLeastPlanScratchPerBuffer = 8;
  /** TFLM's arena buffer alignment: sizes are rounded up to it and every offset is a multiple of it. */
  static constexpr uint64_t kAlignment = 16;
  /** Length of error_text()'s buffer, NUL included; longer reasons are cut. */
  static constexpr size_t kErrorTextSize = 192;

  /** Plans with APLAN_TFLM_STRATEGY, the strategy chosen when the adapter was built ("auto" unless defined). */
  AplanMemoryPlanner();
  /** Plans with `strategy` (owned by the caller, alive as long as the planner), or, for nullptr, the auto set
   *  (aplan_strategy_auto_at, in its order: greedy_by_size_tflm first, so that when it ties for the smallest arena the
   *  offsets are exactly those of TFLM's GreedyMemoryPlanner): every candidate whose scratch fits runs and the
   *  smallest verified arena wins (ties: the earlier candidate). */
  explicit AplanMemoryPlanner(const aplan_strategy *strategy);
  /** Plans with the best of `count` candidates, as auto does over its set: those whose scratch need does not fit
   *  or whose plan fails are skipped. The array and the strategies must outlive the planner. count 0 or a null
   *  array fails at planning time with APLAN_E_INVALID_ARG. */
  AplanMemoryPlanner(const aplan_strategy *const *candidates, size_t count);
  ~AplanMemoryPlanner() override;
  // Not copyable: the plan lives in the Init scratch, and an explicit strategy is held in a member the copy would
  // keep pointing into.
  AplanMemoryPlanner(const AplanMemoryPlanner &) = delete;
  AplanMemoryPlanner &operator=(const AplanMemoryPlanner &) = delete;

  /**
   * Take the scratch every later call works in, and forget every buffer. TFLM calls it with the free space of its
   * arena before each model's AddBuffer calls and ignores its status, so a failure here also fails every AddBuffer
   * until the next Init. The memory stays the caller's; the planner reads and writes it until the plan is committed
   * (TFLM's lifetime for planner scratch). An unaligned pointer is rounded up to 8 bytes (the size shrinks to match).
   * @return kTfLiteOk; kTfLiteError (APLAN_E_INVALID_ARG) iff scratch_buffer_size < 0, or scratch_buffer is null
   *         and scratch_buffer_size > 0. O(1).
   */
  TfLiteStatus Init(unsigned char *scratch_buffer, int scratch_buffer_size) override;

  /**
   * Record buffer number GetBufferCount() (0, 1, ... in call order), planned online. size in bytes (TFLM passes it
   * already rounded to 16; it is rounded again here, harmlessly); steps are TFLM's inclusive allocation scopes.
   * Marks the current plan stale: the next query plans again.
   * @return kTfLiteOk; kTfLiteError, nothing recorded, iff Init failed or never ran (APLAN_E_INVALID_ARG),
   *         size < 0 (APLAN_E_INVALID_ARG), the steps are outside LifetimeToSteps' domain (APLAN_E_BAD_LIFETIME),
   *         or the scratch has no room for kRecordBytes more (APLAN_E_SCRATCH_TOO_SMALL). O(1).
   */
  TfLiteStatus AddBuffer(int size, int first_time_used, int last_time_used) override;

  /**
   * As above, for a buffer the model's offline plan puts at offline_offset bytes from the start of the planned
   * section; -1 (TFLM's "online" marker) plans it online. Offline buffers may share bytes with each other while
   * live, as TFLM allows (aplan counts such pairs in result().report.aliased_pairs); online buffers never overlap
   * them. Fails as above and, with APLAN_E_INVALID_ARG, iff offline_offset < -1. An offset that is not a multiple
   * of 16 fails at planning time (APLAN_E_MISALIGNED_OFFSET) where TFLM's greedy planner would use it. O(1).
   */
  TfLiteStatus AddBuffer(int size, int first_time_used, int last_time_used, int offline_offset) override;

  /** The arena size of the plan (highest offset + size), planning first if a buffer was added since; 0 when
   *  planning fails (the interface has no error channel: GetOffsetForBuffer and Plan report the failure). A
   *  current plan is answered from the object itself, without reading the scratch: TFLM asks for it after it has
   *  released the planner's scratch. */
  size_t GetMaximumMemorySize() override;

  /** Buffers recorded since Init. O(1). */
  int GetBufferCount() override;

  /**
   * The planned offset of buffer buffer_index, planning first if a buffer was added since.
   * @return kTfLiteOk; kTfLiteError, *offset untouched, iff offset is null or buffer_index is outside
   *         [0, GetBufferCount()) (APLAN_E_INVALID_ARG), planning failed (see Plan), or the offset and its buffer
   *         (rounded to kAlignment) would not lie inside the planned arena (APLAN_E_OUT_OF_ARENA: Init's scratch,
   *         where the offsets live, was overwritten after planning). O(1) with a current plan.
   */
  TfLiteStatus GetOffsetForBuffer(int buffer_index, int *offset) override;

  /** false: buffers whose lifetimes do not overlap share memory, so a tensor's data does not outlive its last use. */
  bool preserves_all_tensors() const override { return false; }

  /** Print the plan with MicroPrintf, one line per buffer (TFLM's steps, size, offset), after a summary line
   *  (strategy, arena, lower bound); or the reason planning failed. Plans first if needed. O(n). */
  void PrintMemoryPlan() override;

  /**
   * Plan now unless the plan is current; the queries above call it. Builds the aplan problem over the recorded
   * buffers (compact records, alignment 16, APLAN_ROUND_SIZES, APLAN_ALLOW_FIXED_ALIAS, capacity INT_MAX so every
   * offset fits an int) and runs aplan_plan with the strategy or each candidate: in the fast form when its
   * aplan_plan_scratch_size fits what Init left after the records, else with APLAN_LOW_MEMORY (the same plan in
   * less scratch: O(n^2)) when that fits, else the candidate is skipped. With several candidates, the winner is planned
   * again if it was not the last to run (strategies are deterministic), so the offsets need no second array.
   * @return kTfLiteOk; kTfLiteError with status():
   *   - whatever Init or a failed AddBuffer left (planning is then not attempted);
   *   - a validation status from aplan (e.g. APLAN_E_MISALIGNED_OFFSET for an offline offset, or
   *     APLAN_E_CAPACITY_EXCEEDED when a buffer or the arena passes INT_MAX);
   *   - APLAN_E_UNKNOWN_STRATEGY when the named strategy is not in this build of aplan, or, for auto, when the
   *     build has none of the auto set;
   *   - APLAN_E_SCRATCH_TOO_SMALL when no candidate's need fits (scratch_needed() says the smallest);
   *   - the first candidate's failure when every candidate that fitted failed: its own status, or
   *     APLAN_E_PLAN_REJECTED when its plan broke a verifier rule.
   * Complexity: the strategies' (O(n log n) for the built-ins) plus O(n log n) verification each.
   */
  TfLiteStatus Plan();

  /** The strategy of the current plan; nullptr while none is current or planning failed. */
  const aplan_strategy *strategy() const { return chosen_; }
  /** Arena size, lower bound and report of the current plan (zeroed while none). result().lower_bound ==
   *  result().arena_size proves the plan optimal. */
  const aplan_result &result() const { return result_; }
  /** APLAN_OK, or the status of the most recent failure since Init (a later success does not clear it). */
  aplan_status status() const { return status_; }
  /** aplan's report of that failure: rule, buffer, and for APLAN_E_SCRATCH_TOO_SMALL the bytes needed (value) and
   *  available (limit). Steps in it are aplan's: TFLM's plus one. */
  const aplan_report &report() const { return report_; }
  /** One line saying what failed and why (aplan_report_format's text with the context in front), "" when nothing
   *  failed. Owned by the planner, valid until its next call. */
  const char *error_text() const { return error_text_; }
  /** Bytes of Init scratch the last planning attempt needed at its peak (n * kRecordBytes plus aplan_plan's
   *  scratch); after APLAN_E_SCRATCH_TOO_SMALL, what the cheapest candidate would have needed. */
  size_t scratch_needed() const { return scratch_needed_; }

 private:
  TfLiteStatus AddRecord(int size, int first_time_used, int last_time_used, uint32_t fixed_offset);
  // candidates[0, count), or, when auto_set, aplan_strategy_auto_at(0, count).
  TfLiteStatus PlanWith(const aplan_strategy *const *candidates, size_t count, bool auto_set);
  void ResetPlan();
  TfLiteStatus Fail(aplan_status status, const aplan_report *report, const char *context);
  void Remember(aplan_status status, const aplan_report *report);

  // What to plan with: the candidates (single_ for an explicit strategy), or, when by_name_, strategy_name_ ("auto"
  // for the auto set) looked up in this build of aplan at planning time.
  const aplan_strategy *const *candidates_;
  size_t candidate_count_;
  const aplan_strategy *single_;
  bool by_name_;
  const char *strategy_name_;

  // The Init scratch: records_[0, count_) from its start, then the offsets, then aplan_plan's scratch.
  unsigned char *scratch_;
  size_t scratch_size_;
  aplan_buffer32 *records_;
  size_t count_;
  bool initialised_;  // Init succeeded
  bool init_failed_;  // Init failed: every AddBuffer fails with its reason until the next Init

  // The plan: current while no buffer was added since; result_, chosen_ and plan_ok_ live here, not in scratch.
  bool plan_current_;
  bool plan_ok_;
  const aplan_strategy *chosen_;
  aplan_result result_;
  size_t scratch_needed_;

  // The most recent failure.
  aplan_status status_;
  aplan_report report_;
  char error_text_[kErrorTextSize];

  // Under TF_LITE_STATIC_MEMORY, TFLM's macro declares a do-nothing operator delete so the virtual destructor links
  // without a heap. TFLM's definition names a parameter it does not use: keep -Wextra -Werror builds quiet.
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

#endif  // APLAN_INTEGRATIONS_TFLM_APLAN_MICRO_PLANNER_H_
