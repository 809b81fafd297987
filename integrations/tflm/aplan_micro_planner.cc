// aplan_tflm::AplanMemoryPlanner: see aplan_micro_planner.h for the contract and docs/tflm.md for its use.
//
// Layout of the Init scratch (base rounded up to 8 bytes, what aplan_buffer and aplan_plan's scratch need):
//
//   [ records: count x aplan_buffer32 (16 B) | offsets: count x uint64_t (8 B) | aplan_plan scratch ... ]
//
// The records grow with AddBuffer; the offsets and aplan_plan's scratch are placed behind them when planning, so a
// buffer added after a plan moves them and the next query plans again. Everything a query needs once the plan is
// current (arena size, status, chosen strategy) is kept in the object, so GetMaximumMemorySize stays right after
// TFLM has taken the scratch back.

#include "aplan_micro_planner.h"

#include <limits.h>

#include <aplan/strategies.h>

#include "aplan_tflm_text.h"
#include "tensorflow/lite/micro/micro_log.h"

namespace aplan_tflm {

#if __cplusplus < 201703L
// Before C++17 a static constexpr member used by reference needs one definition.
constexpr size_t AplanMemoryPlanner::kRecordBytes;
constexpr size_t AplanMemoryPlanner::kPlanScratchPerBuffer;
constexpr size_t AplanMemoryPlanner::kPlanScratchPerOfflineBuffer;
constexpr size_t AplanMemoryPlanner::kPlanScratchExtra;
constexpr size_t AplanMemoryPlanner::kLeastPlanScratchPerBuffer;
constexpr uint64_t AplanMemoryPlanner::kAlignment;
constexpr size_t AplanMemoryPlanner::kErrorTextSize;
#endif

namespace {

using internal::Text;

// The steps back in TFLM's numbering, for messages and the printed plan (inverse of LifetimeToSteps).
int64_t FirstStep(const aplan_buffer32 &b) { return static_cast<int64_t>(b.lower) - 1; }
int64_t LastStep(const aplan_buffer32 &b) { return static_cast<int64_t>(b.upper) - 2; }

bool SameName(const char *a, const char *b) {
  while (*a != '\0' && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}

// A candidate's name for messages; a caller's candidate list may hold a null or nameless entry.
const char *Name(const aplan_strategy *s) { return s != nullptr && s->name != nullptr ? s->name : "(unnamed)"; }

void ClearReport(aplan_report *report, aplan_status rule, size_t buffer) {
  aplan_report_clear(report);
  report->rule = rule;
  report->buffer_a = buffer;
}

}  // namespace

bool LifetimeToSteps(int first_time_used, int last_time_used, uint64_t *lower, uint64_t *upper) {
  if (first_time_used < -1 || last_time_used < first_time_used) return false;
  // Both are at least -1 here, so the sums are non-negative and fit 64 bits.
  *lower = static_cast<uint64_t>(static_cast<int64_t>(first_time_used) + 1);
  *upper = static_cast<uint64_t>(static_cast<int64_t>(last_time_used) + 2);
  return true;
}

AplanMemoryPlanner::AplanMemoryPlanner() : AplanMemoryPlanner(nullptr) {
  by_name_ = true;
  strategy_name_ = APLAN_TFLM_STRATEGY;
}

AplanMemoryPlanner::AplanMemoryPlanner(const aplan_strategy *strategy) : AplanMemoryPlanner(&single_, 1) {
  single_ = strategy;
  if (strategy == nullptr) {
    // The auto set, resolved by name at planning time so that a build without some strategies still works.
    by_name_ = true;
    strategy_name_ = "auto";
  }
}

AplanMemoryPlanner::AplanMemoryPlanner(const aplan_strategy *const *candidates, size_t count)
    : candidates_(candidates),
      candidate_count_(count),
      single_(nullptr),
      by_name_(false),
      strategy_name_(nullptr),
      scratch_(nullptr),
      scratch_size_(0),
      records_(nullptr),
      count_(0),
      initialised_(false),
      init_failed_(false),
      plan_current_(false),
      plan_ok_(false),
      chosen_(nullptr),
      result_(),
      scratch_needed_(0),
      status_(APLAN_OK),
      report_(),
      error_text_() {
  aplan_report_clear(&report_);
}

// The scratch belongs to TFLM: nothing to release.
AplanMemoryPlanner::~AplanMemoryPlanner() {}

TfLiteStatus AplanMemoryPlanner::Init(unsigned char *scratch_buffer, int scratch_buffer_size) {
  count_ = 0;
  scratch_ = nullptr;
  scratch_size_ = 0;
  records_ = nullptr;
  initialised_ = false;
  init_failed_ = false;
  status_ = APLAN_OK;
  aplan_report_clear(&report_);
  error_text_[0] = '\0';
  ResetPlan();
  if (scratch_buffer_size < 0 || (scratch_buffer == nullptr && scratch_buffer_size > 0)) {
    aplan_report clear;
    ClearReport(&clear, APLAN_E_INVALID_ARG, APLAN_NO_BUFFER);
    Text t(error_text_, sizeof error_text_);
    t.Put("Init: scratch of ").PutI(scratch_buffer_size).Put(" bytes at ").Put(scratch_buffer ? "a" : "null");
    t.Put(" pointer");
    init_failed_ = true;
    Remember(APLAN_E_INVALID_ARG, &clear);
    return kTfLiteError;
  }
  size_t size = static_cast<size_t>(scratch_buffer_size);
  if (scratch_buffer != nullptr) {
    // The offsets are uint64_t and aplan_plan wants APLAN_SCRATCH_ALIGN: round the start up to both.
    const uintptr_t align = alignof(uint64_t) > APLAN_SCRATCH_ALIGN ? alignof(uint64_t) : APLAN_SCRATCH_ALIGN;
    const uintptr_t address = reinterpret_cast<uintptr_t>(scratch_buffer);
    const size_t skip = static_cast<size_t>((align - address % align) % align);
    size = size > skip ? size - skip : 0;
    scratch_ = scratch_buffer + (size > 0 ? skip : 0);
  }
  scratch_size_ = size;
  records_ = static_cast<aplan_buffer32 *>(static_cast<void *>(scratch_));
  initialised_ = true;
  return kTfLiteOk;
}

TfLiteStatus AplanMemoryPlanner::AddBuffer(int size, int first_time_used, int last_time_used) {
  return AddRecord(size, first_time_used, last_time_used, APLAN_NO_OFFSET32);
}

TfLiteStatus AplanMemoryPlanner::AddBuffer(int size, int first_time_used, int last_time_used, int offline_offset) {
  if (offline_offset < -1) {
    aplan_report r;
    ClearReport(&r, APLAN_E_INVALID_ARG, count_);
    Text t(error_text_, sizeof error_text_);
    t.Put("AddBuffer ").PutU(count_).Put(": offline offset ").PutI(offline_offset).Put(" is negative");
    Remember(APLAN_E_INVALID_ARG, &r);
    return kTfLiteError;
  }
  // -1 is TFLM's marker for "no offline offset".
  return AddRecord(size, first_time_used, last_time_used,
                   offline_offset == -1 ? APLAN_NO_OFFSET32 : static_cast<uint32_t>(offline_offset));
}

TfLiteStatus AplanMemoryPlanner::AddRecord(int size, int first_time_used, int last_time_used, uint32_t fixed_offset) {
  if (init_failed_) {
    // Init failed and TFLM does not look at its status: fail here, keeping Init's reason.
    MicroPrintf("aplan planner: %s", error_text_);
    return kTfLiteError;
  }
  aplan_report r;
  if (!initialised_) {
    ClearReport(&r, APLAN_E_INVALID_ARG, count_);
    Text t(error_text_, sizeof error_text_);
    t.Put("AddBuffer ").PutU(count_).Put(": Init has not given the planner its scratch");
    Remember(APLAN_E_INVALID_ARG, &r);
    return kTfLiteError;
  }
  if (size < 0) {
    ClearReport(&r, APLAN_E_INVALID_ARG, count_);
    Text t(error_text_, sizeof error_text_);
    t.Put("AddBuffer ").PutU(count_).Put(": size ").PutI(size).Put(" is negative");
    Remember(APLAN_E_INVALID_ARG, &r);
    return kTfLiteError;
  }
  uint64_t lower = 0;
  uint64_t upper = 0;
  if (!LifetimeToSteps(first_time_used, last_time_used, &lower, &upper)) {
    ClearReport(&r, APLAN_E_BAD_LIFETIME, count_);
    Text t(error_text_, sizeof error_text_);
    t.Put("AddBuffer ").PutU(count_).Put(": steps ").PutI(first_time_used).Put("..").PutI(last_time_used);
    t.Put(first_time_used < -1 ? " start before step -1" : " end before they start");
    Remember(APLAN_E_BAD_LIFETIME, &r);
    return kTfLiteError;
  }
  // count_ * kRecordBytes <= scratch_size_ holds, so neither side overflows.
  if (scratch_size_ - count_ * kRecordBytes < kRecordBytes) {
    ClearReport(&r, APLAN_E_SCRATCH_TOO_SMALL, count_);
    r.value = (count_ + 1) * kRecordBytes;
    r.limit = scratch_size_;
    Text t(error_text_, sizeof error_text_);
    t.Put("AddBuffer ").PutU(count_).Put(": scratch too small, ").PutU(count_ + 1).Put(" buffers take ");
    t.PutU(r.value).Put(" bytes before planning, Init gave ").PutU(scratch_size_);
    Remember(APLAN_E_SCRATCH_TOO_SMALL, &r);
    return kTfLiteError;
  }
  // aplan_buffer32 is a plain C struct: assigned into the scratch, no placement new (and so no <new>, which some
  // bare-metal toolchains lack). Every field fits 32 bits: size and offset are non-negative ints, and the steps are
  // at most INT_MAX + 2 (LifetimeToSteps). The alignment is the problem's: kAlignment.
  aplan_buffer32 b;
  b.size = static_cast<uint32_t>(size);
  b.lower = static_cast<uint32_t>(lower);
  b.upper = static_cast<uint32_t>(upper);
  b.offset = fixed_offset;
  records_[count_] = b;
  ++count_;
  ResetPlan();
  return kTfLiteOk;
}

size_t AplanMemoryPlanner::GetMaximumMemorySize() {
  if (Plan() != kTfLiteOk) return 0;
  return static_cast<size_t>(result_.arena_size);
}

int AplanMemoryPlanner::GetBufferCount() { return static_cast<int>(count_); }

TfLiteStatus AplanMemoryPlanner::GetOffsetForBuffer(int buffer_index, int *offset) {
  if (offset == nullptr || buffer_index < 0 || static_cast<size_t>(buffer_index) >= count_) {
    aplan_report r;
    ClearReport(&r, APLAN_E_INVALID_ARG, APLAN_NO_BUFFER);
    Text t(error_text_, sizeof error_text_);
    t.Put("GetOffsetForBuffer: ");
    if (offset == nullptr) {
      t.Put("null offset pointer");
    } else {
      t.Put("buffer index ").PutI(buffer_index).Put(" is outside 0..").PutI(static_cast<int64_t>(count_) - 1);
    }
    Remember(APLAN_E_INVALID_ARG, &r);
    return kTfLiteError;
  }
  if (Plan() != kTfLiteOk) return kTfLiteError;
  const uint64_t *offsets = static_cast<const uint64_t *>(static_cast<const void *>(records_ + count_));
  // The records and offsets live in Init's scratch, which TFLM may reuse once planning is over: an offset is handed
  // out only when it and its buffer (as planned: rounded up to kAlignment) lie inside the arena the plan reported,
  // which is kept outside that scratch. The capacity INT_MAX then bounds offset + size, so the offset fits an int.
  const uint64_t at = offsets[buffer_index], size = records_[buffer_index].size, arena = result_.arena_size;
  const uint64_t step = static_cast<uint64_t>(kAlignment);
  const uint64_t planned = size > UINT64_MAX - (step - 1u) ? UINT64_MAX : (size + step - 1u) / step * step;
  if (at > arena || planned > arena - at) {
    aplan_report r;
    ClearReport(&r, APLAN_E_OUT_OF_ARENA, static_cast<size_t>(buffer_index));
    Text t(error_text_, sizeof error_text_);
    t.Put("GetOffsetForBuffer: buffer ").PutI(buffer_index).Put(" at ").PutU(at).Put(" (+").PutU(planned)
        .Put(") is outside the planned arena (").PutU(arena).Put(" bytes): Init's scratch was overwritten after planning");
    Remember(APLAN_E_OUT_OF_ARENA, &r);
    return kTfLiteError;
  }
  *offset = static_cast<int>(at);
  return kTfLiteOk;
}

void AplanMemoryPlanner::PrintMemoryPlan() {
  if (Plan() != kTfLiteOk) {
    MicroPrintf("aplan planner: no plan: %s", error_text_);
    return;
  }
  MicroPrintf("aplan planner: %d buffers, strategy %s, arena %d bytes, lower bound %d bytes",
              static_cast<int>(count_), chosen_ != nullptr ? chosen_->name : "none",
              static_cast<int>(result_.arena_size), static_cast<int>(result_.lower_bound));
  const uint64_t *offsets = static_cast<const uint64_t *>(static_cast<const void *>(records_ + count_));
  for (size_t i = 0; i < count_; ++i) {
    const aplan_buffer32 &b = records_[i];
    MicroPrintf("  buffer %d: size %d, steps %d..%d, offset %d%s", static_cast<int>(i), static_cast<int>(b.size),
                static_cast<int>(FirstStep(b)), static_cast<int>(LastStep(b)), static_cast<int>(offsets[i]),
                b.offset != APLAN_NO_OFFSET32 ? " (offline)" : "");
  }
}

TfLiteStatus AplanMemoryPlanner::Plan() {
  if (plan_current_) return plan_ok_ ? kTfLiteOk : kTfLiteError;
  plan_current_ = true;
  scratch_needed_ = 0;
  if (count_ == 0) {
    // Nothing to place (AddBuffer succeeded never, so Init's state does not matter): an empty arena.
    plan_ok_ = true;
    return kTfLiteOk;
  }
  if (!by_name_) return PlanWith(candidates_, candidate_count_, false);

  // A strategy named at build time, or the auto set: looked up in this build of aplan.
  const aplan_strategy *found = nullptr;
  const bool is_auto = strategy_name_ == nullptr || SameName(strategy_name_, "auto");
  if (is_auto ? aplan_strategy_auto_count() == 0 : aplan_strategy_find(strategy_name_, &found) != APLAN_OK) {
    aplan_report r;
    ClearReport(&r, APLAN_E_UNKNOWN_STRATEGY, APLAN_NO_BUFFER);
    Text t(error_text_, sizeof error_text_);
    t.Put("Plan: ");
    if (is_auto) {
      t.Put("this build of aplan has none of the auto set (aplan_strategy_auto_at)");
    } else {
      t.Put("strategy \"").Put(strategy_name_).Put("\" is not in this build of aplan");
    }
    return Fail(APLAN_E_UNKNOWN_STRATEGY, &r, nullptr);
  }
  return is_auto ? PlanWith(nullptr, aplan_strategy_auto_count(), true) : PlanWith(&found, 1, false);
}

TfLiteStatus AplanMemoryPlanner::PlanWith(const aplan_strategy *const *candidates, size_t count, bool auto_set) {
  plan_ok_ = false;
  chosen_ = nullptr;
  result_ = aplan_result();
  scratch_needed_ = 0;
  if ((candidates == nullptr && !auto_set) || count == 0) {
    aplan_report r;
    ClearReport(&r, APLAN_E_INVALID_ARG, APLAN_NO_BUFFER);
    Text t(error_text_, sizeof error_text_);
    t.Put("Plan: no strategy to plan with");
    return Fail(APLAN_E_INVALID_ARG, &r, nullptr);
  }
  // Two forms of one problem: fast, and APLAN_LOW_MEMORY (the same plan in the least scratch, O(n^2)), for a
  // candidate whose fast need does not fit.
  aplan_problem problem;
  aplan_problem_init32(&problem, records_, count_);
  problem.alignment = kAlignment;
  problem.capacity = static_cast<uint64_t>(INT_MAX);
  problem.flags |= APLAN_ROUND_SIZES | APLAN_ALLOW_FIXED_ALIAS;
  aplan_problem lean = problem;
  lean.flags |= APLAN_LOW_MEMORY;
  aplan_report r;
  aplan_status st = aplan_problem_validate(&problem, &r);
  if (st != APLAN_OK) return Fail(st, &r, "");

  // records and offsets are multiples of 8 bytes long, so the plan scratch behind them keeps APLAN_SCRATCH_ALIGN.
  uint64_t *offsets = static_cast<uint64_t *>(static_cast<void *>(records_ + count_));
  const size_t held = count_ * kRecordBytes;
  unsigned char *work = scratch_ + held;
  const size_t room = scratch_size_ - held;

  size_t best = count;  // index of the winner so far; count = none
  const aplan_problem *best_form = &problem;
  aplan_result best_result = aplan_result();
  size_t last_run = count;
  size_t smallest_need = SIZE_MAX;
  size_t peak = 0;
  size_t first_failure = count;
  aplan_status failure_status = APLAN_OK;
  aplan_report failure_report;
  aplan_report_clear(&failure_report);
  const auto candidate = [candidates](size_t i) {
    return candidates != nullptr ? candidates[i] : aplan_strategy_auto_at(i);
  };
  for (size_t i = 0; i < count; ++i) {
    const aplan_strategy *s = candidate(i);
    // The fast form when its need fits, else the low-memory one (the same plan); neither: skipped.
    const aplan_problem *form = &problem;
    size_t need = 0;
    st = aplan_plan_scratch_size(s, form, &need);
    if (st == APLAN_OK && need > room) {
      form = &lean;
      st = aplan_plan_scratch_size(s, form, &need);
      if (st == APLAN_OK && need > room) {
        if (need < smallest_need) smallest_need = need;
        continue;
      }
    }
    aplan_result res;
    if (st == APLAN_OK) {
      st = aplan_plan(s, form, work, need, offsets, &res);
      last_run = i;
      if (need > peak) peak = need;
    } else {
      res = aplan_result();
      aplan_report_clear(&res.report);
      res.report.rule = st;
    }
    if (st != APLAN_OK) {
      if (first_failure == count) {
        first_failure = i;
        failure_status = st;
        failure_report = res.report;
      }
      continue;
    }
    if (best == count || res.arena_size < best_result.arena_size) {
      best = i;
      best_form = form;
      best_result = res;
    }
  }

  if (best == count) {
    if (first_failure != count) {
      scratch_needed_ = held + peak;
      return Fail(failure_status, &failure_report, Name(candidate(first_failure)));
    }
    // Every candidate's need was larger than what is left.
    scratch_needed_ = held + smallest_need;
    ClearReport(&r, APLAN_E_SCRATCH_TOO_SMALL, APLAN_NO_BUFFER);
    r.value = scratch_needed_;
    r.limit = scratch_size_;
    Text t(error_text_, sizeof error_text_);
    t.Put("Plan: scratch too small, ").PutU(count_).Put(" buffers need ").PutU(scratch_needed_);
    t.Put(" bytes (").PutU(held).Put(" for records and offsets, ").PutU(smallest_need);
    t.Put(" for aplan_plan), Init gave ").PutU(scratch_size_);
    return Fail(APLAN_E_SCRATCH_TOO_SMALL, &r, nullptr);
  }
  if (best != last_run) {
    // The offsets array holds the last run's plan: plan the winner again (deterministic, verified again).
    size_t need = 0;
    st = aplan_plan_scratch_size(candidate(best), best_form, &need);
    if (st == APLAN_OK) st = aplan_plan(candidate(best), best_form, work, need, offsets, &best_result);
    if (st != APLAN_OK) return Fail(st, &best_result.report, Name(candidate(best)));
  }
  scratch_needed_ = held + peak;
  chosen_ = candidate(best);
  result_ = best_result;
  plan_ok_ = true;
  return kTfLiteOk;
}

void AplanMemoryPlanner::ResetPlan() {
  plan_current_ = false;
  plan_ok_ = false;
  chosen_ = nullptr;
  result_ = aplan_result();
}

// Record a planning failure: with a context (a strategy name, or "" for the problem itself) the text is
// "Plan[ with NAME]: <aplan_report_format>"; without one the caller has written the text already.
TfLiteStatus AplanMemoryPlanner::Fail(aplan_status status, const aplan_report *report, const char *context) {
  plan_ok_ = false;
  chosen_ = nullptr;
  result_ = aplan_result();
  if (context != nullptr) {
    Text t(error_text_, sizeof error_text_);
    t.Put("Plan");
    if (context[0] != '\0') t.Put(" with ").Put(context);
    t.Put(": ");
    aplan_report_format(report, t.End(), t.Room());
  }
  Remember(status, report);
  return kTfLiteError;
}

void AplanMemoryPlanner::Remember(aplan_status status, const aplan_report *report) {
  status_ = status;
  report_ = *report;
  MicroPrintf("aplan planner: %s", error_text_);
}

}  // namespace aplan_tflm
