// aplan_tflm::AplanCompiledPlanner: see aplan_compiled_planner.h for the contract and docs/tflm.md for its use.

#include "aplan_compiled_planner.h"

#include <limits.h>

#include "aplan_tflm_text.h"
#include "tensorflow/lite/micro/micro_log.h"

namespace aplan_tflm {

#if __cplusplus < 201703L
constexpr int32_t AplanCompiledPlanner::kAlignment;
constexpr size_t AplanCompiledPlanner::kErrorTextSize;
#endif

namespace {

using internal::Text;

int64_t RoundUp(int64_t size) {
  const int64_t a = AplanCompiledPlanner::kAlignment;
  return (size + a - 1) / a * a;
}

}  // namespace

AplanCompiledPlanner::AplanCompiledPlanner(const int32_t (*entries)[kColumns], size_t count)
    : entries_(entries), count_(count), added_(0), checked_(false), ok_(true), arena_size_(0), error_text_() {}

AplanCompiledPlanner::~AplanCompiledPlanner() {}

TfLiteStatus AplanCompiledPlanner::Init(unsigned char *scratch_buffer, int scratch_buffer_size) {
  (void)scratch_buffer;
  (void)scratch_buffer_size;
  added_ = 0;
  ok_ = true;
  error_text_[0] = '\0';
  // checked_ and arena_size_ describe the entries, which do not change: the check is not repeated.
  return kTfLiteOk;
}

TfLiteStatus AplanCompiledPlanner::Fail(const char *what, int64_t a, const char *middle, int64_t b, const char *end) {
  if (ok_) {  // the first failure's reason is kept
    Text(error_text_, sizeof error_text_).Put(what).PutI(a).Put(middle).PutI(b).Put(end);
    MicroPrintf("aplan compiled plan: %s", error_text_);
  }
  ok_ = false;
  return kTfLiteError;
}

TfLiteStatus AplanCompiledPlanner::AddBuffer(int size, int first_time_used, int last_time_used) {
  return AddBuffer(size, first_time_used, last_time_used, -1);
}

TfLiteStatus AplanCompiledPlanner::AddBuffer(int size, int first_time_used, int last_time_used, int offline_offset) {
  if (entries_ == nullptr && count_ > 0) return Fail("no entries for a plan of ", static_cast<int64_t>(count_), "", 0,
                                                     " buffers");
  const size_t k = added_;
  if (k >= count_)
    return Fail("AddBuffer ", static_cast<int64_t>(k), ": the compiled plan has ", static_cast<int64_t>(count_),
                " buffers: it was made for another model or setting (--abi, --kernels)");
  const int32_t *e = entries_[k];
  if (size < 0 || RoundUp(size) != e[kSize])
    return Fail("AddBuffer ", static_cast<int64_t>(k), ": TFLM adds ", size,
                " bytes, not the plan's (another model or setting: --abi, --kernels)");
  if (first_time_used != e[kFirst] || last_time_used != e[kLast])
    return Fail("AddBuffer ", static_cast<int64_t>(k), ": TFLM's steps start at ", first_time_used,
                ", not the plan's (another model or setting)");
  const bool offline = offline_offset != -1;
  if (offline != (e[kOffline] != 0) || (offline && offline_offset != e[kOffset]))
    return Fail("AddBuffer ", static_cast<int64_t>(k), ": offline offset ", offline_offset,
                " is not the plan's (the model's offline plan changed)");
  ++added_;
  return kTfLiteOk;
}

bool AplanCompiledPlanner::Check() {
  if (!ok_) return false;
  if (added_ != count_) {
    Fail("TFLM added ", static_cast<int64_t>(added_), " of the compiled plan's ", static_cast<int64_t>(count_),
         " buffers: it was made for another model or setting");
    return false;
  }
  if (checked_) return true;
  int64_t arena = 0;
  for (size_t i = 0; i < count_; ++i) {
    const int32_t *a = entries_[i];
    const int64_t end = static_cast<int64_t>(a[kOffset]) + a[kSize];
    if (a[kSize] < 0 || a[kOffset] < 0 || a[kOffset] % kAlignment != 0 || end > INT_MAX) {
      Fail("entry ", static_cast<int64_t>(i), ": offset ", a[kOffset],
           " is negative, not a multiple of 16, or ends past INT_MAX");
      return false;
    }
    if (end > arena) arena = end;
    // TFLM's rule: two buffers are live together when first_a <= last_b and first_b <= last_a.
    for (size_t j = 0; j < i; ++j) {
      const int32_t *b = entries_[j];
      const bool live = a[kFirst] <= b[kLast] && b[kFirst] <= a[kLast];
      const bool bytes = a[kSize] > 0 && b[kSize] > 0 && a[kOffset] < b[kOffset] + b[kSize] &&
                         b[kOffset] < a[kOffset] + a[kSize];
      if (live && bytes && !(a[kOffline] != 0 && b[kOffline] != 0)) {
        Fail("entries ", static_cast<int64_t>(j), " and ", static_cast<int64_t>(i),
             " are live together and share bytes: the plan is not valid");
        return false;
      }
    }
  }
  arena_size_ = static_cast<size_t>(arena);
  checked_ = true;
  return true;
}

size_t AplanCompiledPlanner::GetMaximumMemorySize() { return Check() ? arena_size_ : 0; }

int AplanCompiledPlanner::GetBufferCount() { return static_cast<int>(added_); }

TfLiteStatus AplanCompiledPlanner::GetOffsetForBuffer(int buffer_index, int *offset) {
  if (offset == nullptr || buffer_index < 0 || static_cast<size_t>(buffer_index) >= added_)
    return Fail("GetOffsetForBuffer: buffer ", buffer_index, " is outside 0..", static_cast<int64_t>(added_) - 1,
                " (or the offset pointer is null)");
  if (!Check()) return kTfLiteError;
  *offset = entries_[buffer_index][kOffset];
  return kTfLiteOk;
}

void AplanCompiledPlanner::PrintMemoryPlan() {
  if (!Check()) {
    MicroPrintf("aplan compiled plan: refused: %s", error_text_);
    return;
  }
  MicroPrintf("aplan compiled plan: %d buffers, arena %d bytes", static_cast<int>(count_),
              static_cast<int>(arena_size_));
  for (size_t i = 0; i < count_; ++i) {
    const int32_t *e = entries_[i];
    MicroPrintf("  buffer %d: size %d, steps %d..%d, offset %d%s", static_cast<int>(i), static_cast<int>(e[kSize]),
                static_cast<int>(e[kFirst]), static_cast<int>(e[kLast]), static_cast<int>(e[kOffset]),
                e[kOffline] != 0 ? " (offline)" : "");
  }
}

}  // namespace aplan_tflm
