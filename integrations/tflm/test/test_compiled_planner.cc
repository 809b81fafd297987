// Unit tests of aplan_tflm::AplanCompiledPlanner against the test-only TFLM interface in tflm_stub/.
//
// Usage: test_compiled_planner
// Exit code: the number of failed checks (0 = pass). Each case's figures are worked out by hand beside it.
// With APLAN_TEST_PLAN_HEADER defined (cli_test.sh compiles this file with a header `aplan plan -f c` wrote), one
// more case feeds that header's own buffers back and checks its offsets and arena.

#include <stdio.h>
#include <string.h>

#include "aplan_compiled_planner.h"
#include "micro_log_stub.h"

#ifdef APLAN_TEST_PLAN_HEADER
#include APLAN_TEST_PLAN_HEADER
#endif

namespace {

int g_failures = 0;

void ReportEq(long long a, long long b, const char *file, int line, const char *ea, const char *eb) {
  if (a != b) {
    fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", file, line, ea, eb, a, b);
    ++g_failures;
  }
}
void ReportStr(const char *got, const char *want, const char *file, int line) {
  if (strcmp(got, want) != 0) {
    fprintf(stderr, "%s:%d: text differs:\n    got  \"%s\"\n    want \"%s\"\n", file, line, got, want);
    ++g_failures;
  }
}
#define CHECK_EQ(a, b) ReportEq(static_cast<long long>(a), static_cast<long long>(b), __FILE__, __LINE__, #a, #b)
#define CHECK_STR(got, want) ReportStr((got), (want), __FILE__, __LINE__)

using aplan_tflm::AplanCompiledPlanner;

// Three buffers: a [0..1] 32 B at 0, b [1..2] 16 B at 32, c [2..3] 32 B at 0 (a and c are never live together, b
// sits above both): an arena of 48 bytes.
const int32_t kPlan[3][5] = {{32, 0, 1, 0, 0}, {16, 1, 2, 32, 0}, {32, 2, 3, 0, 0}};

void AddAll(AplanCompiledPlanner *p) {
  CHECK_EQ(p->AddBuffer(20, 0, 1), kTfLiteOk);  // TFLM's size before rounding: 20 -> 32
  CHECK_EQ(p->AddBuffer(16, 1, 2), kTfLiteOk);
  CHECK_EQ(p->AddBuffer(32, 2, 3), kTfLiteOk);
}

void TestHandsOutThePlan() {
  AplanCompiledPlanner p(kPlan, 3);
  // No scratch at all: a null buffer of size 0 is all TFLM need give it.
  CHECK_EQ(p.Init(nullptr, 0), kTfLiteOk);
  AddAll(&p);
  CHECK_EQ(p.GetBufferCount(), 3);
  CHECK_EQ(p.GetMaximumMemorySize(), 48);
  int offset = -1;
  CHECK_EQ(p.GetOffsetForBuffer(1, &offset), kTfLiteOk);
  CHECK_EQ(offset, 32);
  CHECK_EQ(p.GetOffsetForBuffer(2, &offset), kTfLiteOk);
  CHECK_EQ(offset, 0);
  CHECK_EQ(p.ok(), true);
  CHECK_STR(p.error_text(), "");
  // A second model run (TFLM calls Init again): the same buffers again.
  CHECK_EQ(p.Init(nullptr, 0), kTfLiteOk);
  AddAll(&p);
  CHECK_EQ(p.GetMaximumMemorySize(), 48);
}

void TestRefusesAnotherModel() {
  {
    AplanCompiledPlanner p(kPlan, 3);
    p.Init(nullptr, 0);
    CHECK_EQ(p.AddBuffer(32, 0, 1), kTfLiteOk);
    CHECK_EQ(p.AddBuffer(32, 1, 2), kTfLiteError);  // 32 where the plan has 16
    CHECK_STR(p.error_text(), "AddBuffer 1: TFLM adds 32 bytes, not the plan's (another model or setting: --abi, --kernels)");
    CHECK_EQ(p.GetMaximumMemorySize(), 0);
    int offset = 7;
    CHECK_EQ(p.GetOffsetForBuffer(0, &offset), kTfLiteError);
    CHECK_EQ(offset, 7);
  }
  {
    AplanCompiledPlanner p(kPlan, 3);
    p.Init(nullptr, 0);
    CHECK_EQ(p.AddBuffer(32, 0, 1), kTfLiteOk);
    CHECK_EQ(p.AddBuffer(16, 0, 2), kTfLiteError);
    CHECK_STR(p.error_text(), "AddBuffer 1: TFLM's steps start at 0, not the plan's (another model or setting)");
  }
  {
    AplanCompiledPlanner p(kPlan, 3);
    p.Init(nullptr, 0);
    AddAll(&p);
    CHECK_EQ(p.AddBuffer(16, 3, 3), kTfLiteError);  // a fourth buffer
    CHECK_STR(p.error_text(),
              "AddBuffer 3: the compiled plan has 3 buffers: it was made for another model or setting (--abi, --kernels)");
  }
  {
    AplanCompiledPlanner p(kPlan, 3);
    p.Init(nullptr, 0);
    CHECK_EQ(p.AddBuffer(32, 0, 1), kTfLiteOk);
    CHECK_EQ(p.GetMaximumMemorySize(), 0);  // two buffers short
    CHECK_STR(p.error_text(), "TFLM added 1 of the compiled plan's 3 buffers: it was made for another model or setting");
  }
  {
    AplanCompiledPlanner p(kPlan, 3);
    p.Init(nullptr, 0);
    CHECK_EQ(p.AddBuffer(32, 0, 1, 0), kTfLiteError);  // offline where the plan has none
    CHECK_STR(p.error_text(), "AddBuffer 0: offline offset 0 is not the plan's (the model's offline plan changed)");
    // Init starts over, forgetting the failure.
    CHECK_EQ(p.Init(nullptr, 0), kTfLiteOk);
    CHECK_EQ(p.ok(), true);
    AddAll(&p);
    CHECK_EQ(p.GetMaximumMemorySize(), 48);
  }
}

void TestChecksThePlan() {
  {
    // b moved onto a: both live at step 1.
    const int32_t bad[2][5] = {{32, 0, 1, 0, 0}, {16, 1, 2, 16, 0}};
    AplanCompiledPlanner p(bad, 2);
    p.Init(nullptr, 0);
    CHECK_EQ(p.AddBuffer(32, 0, 1), kTfLiteOk);
    CHECK_EQ(p.AddBuffer(16, 1, 2), kTfLiteOk);
    CHECK_EQ(p.GetMaximumMemorySize(), 0);
    CHECK_STR(p.error_text(), "entries 0 and 1 are live together and share bytes: the plan is not valid");
  }
  {
    // The same pair, both offline: TFLM lets offline tensors alias, and so does the check.
    const int32_t aliased[2][5] = {{32, 0, 1, 0, 1}, {16, 1, 2, 16, 1}};
    AplanCompiledPlanner p(aliased, 2);
    p.Init(nullptr, 0);
    CHECK_EQ(p.AddBuffer(32, 0, 1, 0), kTfLiteOk);
    CHECK_EQ(p.AddBuffer(16, 1, 2, 16), kTfLiteOk);
    CHECK_EQ(p.GetMaximumMemorySize(), 32);
  }
  {
    const int32_t misaligned[1][5] = {{16, 0, 0, 8, 0}};
    AplanCompiledPlanner p(misaligned, 1);
    p.Init(nullptr, 0);
    CHECK_EQ(p.AddBuffer(16, 0, 0), kTfLiteOk);
    CHECK_EQ(p.GetMaximumMemorySize(), 0);
    CHECK_STR(p.error_text(), "entry 0: offset 8 is negative, not a multiple of 16, or ends past INT_MAX");
  }
  {
    AplanCompiledPlanner p(nullptr, 0);  // an empty plan of an empty model
    p.Init(nullptr, 0);
    CHECK_EQ(p.GetMaximumMemorySize(), 0);
    CHECK_EQ(p.ok(), true);
  }
}

#ifdef APLAN_TEST_PLAN_HEADER
// The header's own buffers fed back: every offset and the arena are the header's.
void TestGeneratedHeader() {
  AplanCompiledPlanner p(aplan_tflm_plan, APLAN_TFLM_PLAN_BUFFERS);
  p.Init(nullptr, 0);
  for (size_t i = 0; i < APLAN_TFLM_PLAN_BUFFERS; ++i) {
    const int32_t *e = aplan_tflm_plan[i];
    CHECK_EQ(e[4] != 0 ? p.AddBuffer(e[0], e[1], e[2], e[3]) : p.AddBuffer(e[0], e[1], e[2]), kTfLiteOk);
  }
  CHECK_EQ(p.GetMaximumMemorySize(), APLAN_ARENA_SIZE);
  for (size_t i = 0; i < APLAN_TFLM_PLAN_BUFFERS; ++i) {
    int offset = -1;
    CHECK_EQ(p.GetOffsetForBuffer(static_cast<int>(i), &offset), kTfLiteOk);
    CHECK_EQ(offset, aplan_buffer_offsets[i]);
  }
}
#endif

}  // namespace

int main() {
  TestHandsOutThePlan();
  TestRefusesAnotherModel();
  TestChecksThePlan();
#ifdef APLAN_TEST_PLAN_HEADER
  TestGeneratedHeader();
#endif
  printf("%d checks failed\n", g_failures);
  return g_failures > 255 ? 255 : g_failures;
}
