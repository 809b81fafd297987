// Unit tests of aplan_tflm::AplanMemoryPlanner against the test-only TFLM interface in tflm_stub/.
//
// Usage: test_tflm [lifetimes_dir] [seed]
//   lifetimes_dir  folder of <model>.csv buffer lists (../shared/models/lifetimes, looked for as the test runs); a
//                  model case whose file is missing is skipped, printing "skipped: needs PATH (not found)".
//   seed           seed of the random cases (default: the time), printed either way.
// Exit code: the number of failed checks (0 = pass). Strategies left out of this build of aplan skip the cases that
// name them.
//
// Expected values come from TFLM's own greedy planner tests (their numbers, scaled to TFLM's 16-byte sizes), from
// hand derivations written beside them, or from aplan_plan run directly on the same problem; the conflict rule is
// checked against TFLM's inclusive rule written out here, never through the adapter's own conversion.

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <aplan/aplan.h>

#include "aplan_micro_planner.h"
#include "micro_log_stub.h"

namespace {

int g_failures = 0;
bool g_skipped = false;  // set by a test that left a case out (a missing file), reported as "skip"
const char *g_lifetimes_dir = nullptr;

void Report(bool ok, const char *file, int line, const char *what) {
  if (!ok) {
    fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
    ++g_failures;
  }
}

void ReportEq(long long a, long long b, const char *file, int line, const char *ea, const char *eb) {
  if (a != b) {
    fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", file, line, ea, eb, a, b);
    ++g_failures;
  }
}

#define CHECK(cond) Report((cond), __FILE__, __LINE__, #cond)
#define CHECK_EQ(a, b) ReportEq(static_cast<long long>(a), static_cast<long long>(b), __FILE__, __LINE__, #a, #b)
#define CHECK_STR(text, expected)                                                                        \
  Report(strcmp((text), (expected)) == 0, __FILE__, __LINE__, "text == \"" expected "\"");             \
  if (strcmp((text), (expected)) != 0) fprintf(stderr, "    got \"%s\"\n", (text))
#define CHECK_CONTAINS(text, part)                                                                       \
  Report(strstr((text), (part)) != nullptr, __FILE__, __LINE__, "text contains \"" part "\"");          \
  if (strstr((text), (part)) == nullptr) fprintf(stderr, "    got \"%s\"\n", (text))

// Planner scratch, aligned as TFLM aligns its arena (16).
alignas(16) unsigned char g_scratch[1 << 17];

// A buffer as TFLM hands it over: size, inclusive steps, offline offset or -1.
struct TflmBuffer {
  int size;
  int first;
  int last;
  int offline;
};

const aplan_strategy *Find(const char *name) {
  const aplan_strategy *s = nullptr;
  return aplan_strategy_find(name, &s) == APLAN_OK ? s : nullptr;
}

bool Skip(const char *test, const char *name) {
  if (Find(name) != nullptr) return false;
  printf("  %s: %s is not in this build, part skipped\n", test, name);
  return true;
}

uint64_t RoundUp16(uint64_t v) { return (v + 15u) / 16u * 16u; }

void Add(aplan_tflm::AplanMemoryPlanner *p, const TflmBuffer *b, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const TfLiteStatus st = b[i].offline == -1 ? p->AddBuffer(b[i].size, b[i].first, b[i].last)
                                               : p->AddBuffer(b[i].size, b[i].first, b[i].last, b[i].offline);
    CHECK_EQ(st, kTfLiteOk);
  }
}

// TFLM's rule: buffers are live together iff first_a <= last_b and first_b <= last_a (inclusive steps).
bool TflmConflict(const TflmBuffer &a, const TflmBuffer &b) { return a.first <= b.last && b.first <= a.last; }

// aplan_plan run directly on the problem TFLM's buffers describe (written out here, not through the adapter).
struct Direct {
  aplan_status status;
  uint64_t arena;
  uint64_t offsets[256];
};

Direct PlanDirect(const aplan_strategy *s, const TflmBuffer *b, size_t n) {
  static aplan_buffer buffers[256];
  static uint64_t work[1 << 13];
  Direct d = Direct();
  for (size_t i = 0; i < n; ++i) {
    buffers[i].size = static_cast<uint64_t>(b[i].size);
    buffers[i].lower = static_cast<uint64_t>(b[i].first + 1);
    buffers[i].upper = static_cast<uint64_t>(b[i].last + 2);
    buffers[i].alignment = 0;
    buffers[i].offset = b[i].offline == -1 ? APLAN_NO_OFFSET : static_cast<uint64_t>(b[i].offline);
  }
  aplan_problem problem;
  aplan_problem_init(&problem, buffers, n);
  problem.alignment = 16;
  problem.capacity = INT_MAX;
  problem.flags = APLAN_ROUND_SIZES | APLAN_ALLOW_FIXED_ALIAS;
  aplan_result result;
  d.status = aplan_plan(s, &problem, work, sizeof work, d.offsets, &result);
  d.arena = result.arena_size;
  return d;
}

// Every offset the planner hands out, against aplan run directly with `s`, and against TFLM's own rules: each offset
// a multiple of 16, no two buffers TFLM sees live together sharing a byte (unless both are offline), the arena the
// highest end.
void CheckPlan(aplan_tflm::AplanMemoryPlanner *p, const aplan_strategy *s, const TflmBuffer *b, size_t n) {
  const Direct d = PlanDirect(s, b, n);
  CHECK_EQ(d.status, APLAN_OK);
  CHECK_EQ(p->GetMaximumMemorySize(), d.arena);
  CHECK(p->strategy() == s);
  int offsets[256];
  uint64_t end = 0;
  for (size_t i = 0; i < n; ++i) {
    CHECK_EQ(p->GetOffsetForBuffer(static_cast<int>(i), &offsets[i]), kTfLiteOk);
    CHECK_EQ(offsets[i], d.offsets[i]);
    CHECK_EQ(offsets[i] % 16, 0);
    const uint64_t e = static_cast<uint64_t>(offsets[i]) + RoundUp16(static_cast<uint64_t>(b[i].size));
    if (e > end) end = e;
  }
  CHECK_EQ(end, p->GetMaximumMemorySize());
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) {
      if (!TflmConflict(b[i], b[j]) || b[i].size == 0 || b[j].size == 0) continue;
      if (b[i].offline != -1 && b[j].offline != -1) continue;
      const int end_i = offsets[i] + static_cast<int>(RoundUp16(static_cast<uint64_t>(b[i].size)));
      const int end_j = offsets[j] + static_cast<int>(RoundUp16(static_cast<uint64_t>(b[j].size)));
      const bool apart = end_i <= offsets[j] || end_j <= offsets[i];
      Report(apart, __FILE__, __LINE__, "buffers TFLM sees live together do not overlap");
      if (!apart) fprintf(stderr, "    buffers %zu and %zu\n", i, j);
    }
  }
}

// The auto choice by hand: the smallest arena over the library's auto set, ties to the earlier one.
const aplan_strategy *AutoChoice(const TflmBuffer *b, size_t n) {
  const aplan_strategy *best = nullptr;
  uint64_t best_arena = 0;
  for (size_t i = 0; i < aplan_strategy_auto_count(); ++i) {
    const aplan_strategy *s = aplan_strategy_auto_at(i);
    const Direct d = PlanDirect(s, b, n);
    if (d.status == APLAN_OK && (best == nullptr || d.arena < best_arena)) {
      best = s;
      best_arena = d.arena;
    }
  }
  return best;
}

// ---------------------------------------------------------------------------------------------------------------

void test_lifetime_mapping_matches_tflm_conflicts() {
  // Every pair of lifetimes over steps -1..5: aplan's conflict (non-zero sizes) equals TFLM's inclusive rule.
  for (int fa = -1; fa <= 5; ++fa) {
    for (int la = fa; la <= 5; ++la) {
      for (int fb = -1; fb <= 5; ++fb) {
        for (int lb = fb; lb <= 5; ++lb) {
          aplan_buffer two[2] = {};
          CHECK(aplan_tflm::LifetimeToSteps(fa, la, &two[0].lower, &two[0].upper));
          CHECK(aplan_tflm::LifetimeToSteps(fb, lb, &two[1].lower, &two[1].upper));
          two[0].size = two[1].size = 16;
          two[0].offset = two[1].offset = APLAN_NO_OFFSET;
          aplan_problem problem;
          aplan_problem_init(&problem, two, 2);
          CHECK_EQ(aplan_problem_validate(&problem, nullptr), APLAN_OK);
          const TflmBuffer a = {16, fa, la, -1};
          const TflmBuffer b = {16, fb, lb, -1};
          CHECK_EQ(aplan_buffers_conflict(&problem, 0, 1), TflmConflict(a, b));
          // A lifetime is never empty in aplan: TFLM keeps a buffer live at least at its one step.
          CHECK(two[0].lower < two[0].upper);
        }
      }
    }
  }
  uint64_t lower = 7;
  uint64_t upper = 7;
  CHECK(aplan_tflm::LifetimeToSteps(-1, -1, &lower, &upper));
  CHECK_EQ(lower, 0);
  CHECK_EQ(upper, 1);
  CHECK(aplan_tflm::LifetimeToSteps(INT_MAX, INT_MAX, &lower, &upper));
  CHECK_EQ(lower, 2147483648LL);
  CHECK_EQ(upper, 2147483649LL);
}

void test_lifetime_mapping_rejects_outside_domain() {
  uint64_t lower = 7;
  uint64_t upper = 9;
  CHECK(!aplan_tflm::LifetimeToSteps(-2, 3, &lower, &upper));
  CHECK(!aplan_tflm::LifetimeToSteps(INT_MIN, INT_MIN, &lower, &upper));
  CHECK(!aplan_tflm::LifetimeToSteps(4, 3, &lower, &upper));
  CHECK(!aplan_tflm::LifetimeToSteps(0, -1, &lower, &upper));
  CHECK_EQ(lower, 7);
  CHECK_EQ(upper, 9);
}

// TFLM's greedy planner tests (Basics, Medium, OverlapCase), every size times 16 so that TFLM's 16-byte rounding
// leaves them alone: TFLM's offsets and arenas, times 16.
void test_tflm_greedy_cases_scaled() {
  if (Skip("tflm_greedy_cases_scaled", "greedy_by_size_tflm")) return;
  const aplan_strategy *tflm = Find("greedy_by_size_tflm");
  {
    aplan_tflm::AplanMemoryPlanner p(tflm);
    CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
    const TflmBuffer b[] = {{160, 0, 1, -1}, {320, 2, 3, -1}};
    Add(&p, b, 2);
    CHECK_EQ(p.GetMaximumMemorySize(), 320);
    int offset = -1;
    CHECK_EQ(p.GetOffsetForBuffer(0, &offset), kTfLiteOk);
    CHECK_EQ(offset, 0);
    CHECK_EQ(p.GetOffsetForBuffer(1, &offset), kTfLiteOk);
    CHECK_EQ(offset, 0);
  }
  {
    aplan_tflm::AplanMemoryPlanner p(tflm);
    CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
    const TflmBuffer b[] = {{160, 0, 1, -1}, {320, 1, 2, -1}, {480, 2, 3, -1}, {640, 3, 4, -1}, {800, 0, 1, -1}};
    Add(&p, b, 5);
    const int expected[] = {800, 1120, 640, 0, 0};
    for (int i = 0; i < 5; ++i) {
      int offset = -1;
      CHECK_EQ(p.GetOffsetForBuffer(i, &offset), kTfLiteOk);
      CHECK_EQ(offset, expected[i]);
    }
    CHECK_EQ(p.GetMaximumMemorySize(), 1440);
    CheckPlan(&p, tflm, b, 5);
  }
  {
    aplan_tflm::AplanMemoryPlanner p(tflm);
    CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
    const TflmBuffer b[] = {{1600, 0, 1, -1}, {800, 2, 3, -1}, {320, 1, 2, -1}};
    Add(&p, b, 3);
    CHECK_EQ(p.GetMaximumMemorySize(), 1920);
    CheckPlan(&p, tflm, b, 3);
  }
}

// TFLM's Medium case as written (sizes 10..50): rounded to 16, 32, 32, 48, 64. By hand, TFLM's order (equal sizes:
// last added first) places 4 at 0, 3 at 0, 2 at 48 (clear of 3), 1 at 80 (clear of 4 and 2), 0 at 64 (the gap
// between 4 and 1): arena 112. Input order (greedy_by_size) places 1 before 2 and ends at 128, so auto keeps TFLM's.
void test_sizes_rounded_to_16() {
  if (Skip("sizes_rounded_to_16", "greedy_by_size_tflm")) return;
  const TflmBuffer b[] = {{10, 0, 1, -1}, {20, 1, 2, -1}, {30, 2, 3, -1}, {40, 3, 4, -1}, {50, 0, 1, -1}};
  aplan_tflm::AplanMemoryPlanner p(Find("greedy_by_size_tflm"));
  CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
  Add(&p, b, 5);
  const int expected[] = {64, 80, 48, 0, 0};
  for (int i = 0; i < 5; ++i) {
    int offset = -1;
    CHECK_EQ(p.GetOffsetForBuffer(i, &offset), kTfLiteOk);
    CHECK_EQ(offset, expected[i]);
  }
  CHECK_EQ(p.GetMaximumMemorySize(), 112);
  CHECK_EQ(p.result().lower_bound, 112);  // steps 0-1 hold 16 + 32 + 64: the plan is optimal

  aplan_tflm::AplanMemoryPlanner automatic(nullptr);
  CHECK_EQ(automatic.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
  Add(&automatic, b, 5);
  CHECK_EQ(automatic.GetMaximumMemorySize(), 112);
  CHECK(automatic.strategy() == Find("greedy_by_size_tflm"));
  if (!Skip("sizes_rounded_to_16", "greedy_by_size")) {
    CHECK_EQ(PlanDirect(Find("greedy_by_size"), b, 5).arena, 128);
  }
}

// Step -1 (created before the first operator, or never touched): live at -1, so it conflicts with everything
// that is live at -1 and nothing else.
void test_step_minus_one() {
  if (Skip("step_minus_one", "greedy_by_size")) return;
  const aplan_strategy *s = Find("greedy_by_size");
  aplan_tflm::AplanMemoryPlanner p(s);
  CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
  const TflmBuffer b[] = {{32, -1, -1, -1}, {16, -1, 0, -1}, {64, 0, 1, -1}, {48, -1, -1, -1}};
  Add(&p, b, 4);
  int o[4];
  for (int i = 0; i < 4; ++i) CHECK_EQ(p.GetOffsetForBuffer(i, &o[i]), kTfLiteOk);
  // Largest first: 2 (64, steps 0..1) at 0; 3 (48, -1) clear of it in time: 0; 0 (32, -1) clear of 3: 48;
  // 1 (16, -1..0) clear of 2, 3 and 0: 80.
  CHECK_EQ(o[2], 0);
  CHECK_EQ(o[3], 0);
  CHECK_EQ(o[0], 48);
  CHECK_EQ(o[1], 80);
  CHECK_EQ(p.GetMaximumMemorySize(), 96);
  CheckPlan(&p, s, b, 4);
}

// Touching lifetimes: TFLM's steps are inclusive, so a buffer that ends at step 3 and one that starts at 3 are live
// together; one that starts at 4 may reuse the bytes. Equal one-step lifetimes conflict.
void test_touching_and_equal_steps() {
  if (Skip("touching_and_equal_steps", "greedy_by_size")) return;
  const aplan_strategy *s = Find("greedy_by_size");
  aplan_tflm::AplanMemoryPlanner p(s);
  CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
  const TflmBuffer b[] = {{64, 1, 3, -1}, {64, 3, 5, -1}, {64, 6, 8, -1}, {32, 9, 9, -1}, {32, 9, 9, -1}};
  Add(&p, b, 5);
  int o[5];
  for (int i = 0; i < 5; ++i) CHECK_EQ(p.GetOffsetForBuffer(i, &o[i]), kTfLiteOk);
  CHECK_EQ(o[0], 0);
  CHECK_EQ(o[1], 64);  // shares step 3 with buffer 0
  CHECK_EQ(o[2], 0);   // starts after both ended
  CHECK_EQ(o[3], 0);
  CHECK_EQ(o[4], 32);  // the same single step as buffer 3
  CHECK_EQ(p.GetMaximumMemorySize(), 128);
  CheckPlan(&p, s, b, 5);
}

void test_offline_offsets() {
  if (Skip("offline_offsets", "greedy_by_size")) return;
  const aplan_strategy *s = Find("greedy_by_size");
  {
    // Two offline buffers aliasing at 0 while both live (allowed, counted), one offline at 256, and online buffers
    // placed around them; offline -1 means online.
    aplan_tflm::AplanMemoryPlanner p(s);
    CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
    const TflmBuffer b[] = {{128, 0, 2, 0}, {64, 1, 3, 0}, {32, 0, 4, 256}, {96, 2, 2, -1}, {16, 5, 6, -1}};
    Add(&p, b, 5);
    int o[5];
    for (int i = 0; i < 5; ++i) CHECK_EQ(p.GetOffsetForBuffer(i, &o[i]), kTfLiteOk);
    CHECK_EQ(o[0], 0);
    CHECK_EQ(o[1], 0);
    CHECK_EQ(o[2], 256);
    CHECK_EQ(o[3], 128);  // clear of 0 (0..127) and 2 (256..287): the gap 128..255 fits 96
    CHECK_EQ(o[4], 0);    // nothing else is live at steps 5..6
    CHECK_EQ(p.GetMaximumMemorySize(), 288);
    CHECK_EQ(p.result().report.aliased_pairs, 1);
    CHECK_EQ(p.status(), APLAN_OK);
    CheckPlan(&p, s, b, 5);
  }
  {
    // An offline offset that is not a multiple of 16 fails when planning, naming the buffer.
    aplan_tflm::AplanMemoryPlanner p(s);
    CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
    CHECK_EQ(p.AddBuffer(64, 0, 1), kTfLiteOk);
    CHECK_EQ(p.AddBuffer(64, 0, 1, 8), kTfLiteOk);
    int offset = -1;
    CHECK_EQ(p.GetOffsetForBuffer(0, &offset), kTfLiteError);
    CHECK_EQ(offset, -1);
    CHECK_EQ(p.status(), APLAN_E_MISALIGNED_OFFSET);
    CHECK_EQ(p.report().buffer_a, 1);
    CHECK_STR(p.error_text(), "Plan: buffer 1: offset 8 is not a multiple of its alignment 16");
    CHECK_EQ(p.GetMaximumMemorySize(), 0);
  }
  {
    aplan_tflm::AplanMemoryPlanner p(s);
    CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
    CHECK_EQ(p.AddBuffer(64, 0, 1, -2), kTfLiteError);
    CHECK_EQ(p.GetBufferCount(), 0);
    CHECK_EQ(p.status(), APLAN_E_INVALID_ARG);
    CHECK_STR(p.error_text(), "AddBuffer 0: offline offset -2 is negative");
  }
}

// Scratch: 24 bytes per recorded buffer, then aplan_plan's need when planning, which aplan_plan_scratch_size gives:
// the fast form's when it fits, else the APLAN_LOW_MEMORY form's (flags). For 3 buffers in the default build the fast
// form needs the verifier's 16 per buffer plus 8 per leaf of a 4-leaf tree (80 bytes, more than greedy_by_size's 60
// or the lower bound's 36), the low-memory form greedy_by_size's list walk, 8 per buffer: 72 + 24 = 96 bytes at
// least. Compact builds (-Dcompact=true) always plan the low-memory way; the figures follow aplan_plan_scratch_size.
size_t PlanShare(const aplan_strategy *s, const TflmBuffer *b, size_t n, uint32_t flags = 0) {
  aplan_buffer32 buffers[8];
  for (size_t i = 0; i < n; ++i) {
    buffers[i].size = static_cast<uint32_t>(b[i].size);
    buffers[i].lower = static_cast<uint32_t>(b[i].first + 1);
    buffers[i].upper = static_cast<uint32_t>(b[i].last + 2);
    buffers[i].offset = APLAN_NO_OFFSET32;
  }
  aplan_problem problem;
  aplan_problem_init32(&problem, buffers, n);
  problem.alignment = 16;
  problem.capacity = INT_MAX;
  problem.flags |= APLAN_ROUND_SIZES | APLAN_ALLOW_FIXED_ALIAS | flags;
  size_t need = 0;
  CHECK_EQ(aplan_plan_scratch_size(s, &problem, &need), APLAN_OK);
  return need;
}

void test_scratch_too_small() {
  if (Skip("scratch_too_small", "greedy_by_size")) return;
  const aplan_strategy *s = Find("greedy_by_size");
  CHECK_EQ(aplan_tflm::AplanMemoryPlanner::kRecordBytes, 24);
  {
    aplan_tflm::AplanMemoryPlanner p(s);
    CHECK_EQ(p.Init(g_scratch, 60), kTfLiteOk);
    CHECK_EQ(p.AddBuffer(16, 0, 1), kTfLiteOk);
    CHECK_EQ(p.AddBuffer(16, 1, 2), kTfLiteOk);
    CHECK_EQ(p.AddBuffer(16, 2, 3), kTfLiteError);
    CHECK_EQ(p.GetBufferCount(), 2);
    CHECK_EQ(p.status(), APLAN_E_SCRATCH_TOO_SMALL);
    CHECK_EQ(p.report().value, 72);
    CHECK_EQ(p.report().limit, 60);
    CHECK_STR(p.error_text(), "AddBuffer 2: scratch too small, 3 buffers take 72 bytes before planning, Init gave 60");
  }
  const TflmBuffer b[] = {{16, 0, 1, -1}, {16, 1, 2, -1}, {16, 2, 3, -1}};
  // The least: greedy_by_size's list walk, 8 bytes a buffer, whatever the build.
  const size_t share = PlanShare(s, b, 3, APLAN_LOW_MEMORY);
  const size_t fast = 72 + PlanShare(s, b, 3);
  CHECK_EQ(share, 24);
  const size_t need = 72 + share;
  printf("  scratch_too_small: 3 buffers need %zu bytes (aplan_plan: %zu; the fast form %zu)\n", need, share, fast);
  if (fast > need) {
    // Between the two the adapter plans the low-memory way: the same offsets, the need it reports its own.
    aplan_tflm::AplanMemoryPlanner p(s);
    CHECK_EQ(p.Init(g_scratch, static_cast<int>(fast) - 1), kTfLiteOk);
    Add(&p, b, 3);
    CHECK_EQ(p.Plan(), kTfLiteOk);
    CHECK_EQ(p.scratch_needed(), need);
    CheckPlan(&p, s, b, 3);
    CHECK_EQ(p.Init(g_scratch, static_cast<int>(fast)), kTfLiteOk);
    Add(&p, b, 3);
    CHECK_EQ(p.Plan(), kTfLiteOk);
    CHECK_EQ(p.scratch_needed(), fast);
    CheckPlan(&p, s, b, 3);
  }
  {
    aplan_tflm::AplanMemoryPlanner p(s);
    CHECK_EQ(p.Init(g_scratch, static_cast<int>(need) - 1), kTfLiteOk);
    Add(&p, b, 3);
    int offset = -1;
    CHECK_EQ(p.GetOffsetForBuffer(0, &offset), kTfLiteError);
    CHECK_EQ(p.status(), APLAN_E_SCRATCH_TOO_SMALL);
    CHECK_EQ(p.scratch_needed(), need);
    CHECK_EQ(p.report().value, need);
    CHECK_EQ(p.report().limit, need - 1);
    char expected[200];
    snprintf(expected, sizeof expected,
             "Plan: scratch too small, 3 buffers need %zu bytes (72 for records and offsets, %zu for aplan_plan), "
             "Init gave %zu",
             need, share, need - 1);
    Report(strcmp(p.error_text(), expected) == 0, __FILE__, __LINE__, expected);
    CHECK_EQ(p.GetMaximumMemorySize(), 0);
  }
  {
    aplan_tflm::AplanMemoryPlanner p(s);
    CHECK_EQ(p.Init(g_scratch, static_cast<int>(need)), kTfLiteOk);
    Add(&p, b, 3);
    CHECK_EQ(p.Plan(), kTfLiteOk);
    CHECK_EQ(p.scratch_needed(), need);
    CheckPlan(&p, s, b, 3);
  }
  {
    // An unaligned scratch start is rounded up to 8 and the size shrinks to match: 3 bytes short at offset 5.
    aplan_tflm::AplanMemoryPlanner p(s);
    CHECK_EQ(p.Init(g_scratch + 5, static_cast<int>(need)), kTfLiteOk);
    Add(&p, b, 3);
    CHECK_EQ(p.Plan(), kTfLiteError);
    CHECK_EQ(p.report().limit, need - 3);
    CHECK_EQ(p.Init(g_scratch + 5, static_cast<int>(need) + 3), kTfLiteOk);
    Add(&p, b, 3);
    CHECK_EQ(p.Plan(), kTfLiteOk);
  }
}

// Test strategies: "hungry" asks for a mebibyte and then plans as greedy_by_size; "overlapping" puts every online
// buffer at offset 0, which the verifier rejects whenever two of them are live together.
aplan_status HungrySize(const aplan_strategy *, const aplan_problem *, size_t *bytes) {
  *bytes = size_t{1} << 20;
  return APLAN_OK;
}
aplan_status HungryPlan(const aplan_strategy *, const aplan_problem *problem, void *scratch, size_t scratch_size,
                        uint64_t *offsets, aplan_report *report) {
  const aplan_strategy *g = Find("greedy_by_size");
  return g->plan(g, problem, scratch, scratch_size, offsets, report);
}
aplan_status NoScratch(const aplan_strategy *, const aplan_problem *, size_t *bytes) {
  *bytes = 0;
  return APLAN_OK;
}
aplan_status AllAtZero(const aplan_strategy *, const aplan_problem *problem, void *, size_t, uint64_t *offsets,
                       aplan_report *) {
  for (size_t i = 0; i < problem->count; ++i) {
    const aplan_buffer b = aplan_buffer_at(problem, i);  // the adapter's records are compact
    offsets[i] = b.offset != APLAN_NO_OFFSET ? b.offset : 0;
  }
  return APLAN_OK;
}
const aplan_strategy kHungry = {APLAN_STRATEGY_ABI_VERSION, "hungry", "needs 1 MiB", HungrySize, HungryPlan,
                                nullptr, nullptr};
const aplan_strategy kOverlapping = {APLAN_STRATEGY_ABI_VERSION, "overlapping", "everything at 0", NoScratch,
                                     AllAtZero, nullptr, nullptr};

void test_candidates_that_do_not_fit_are_skipped() {
  if (Skip("candidates_that_do_not_fit_are_skipped", "greedy_by_size")) return;
  const aplan_strategy *g = Find("greedy_by_size");
  const TflmBuffer b[] = {{64, 0, 1, -1}, {32, 1, 2, -1}, {16, 0, 2, -1}};
  {
    const aplan_strategy *const both[] = {&kHungry, g};
    aplan_tflm::AplanMemoryPlanner p(both, 2);
    CHECK_EQ(p.Init(g_scratch, 4096), kTfLiteOk);
    Add(&p, b, 3);
    CHECK_EQ(p.Plan(), kTfLiteOk);
    CHECK(p.strategy() == g);
    CheckPlan(&p, g, b, 3);
  }
  if (!Skip("candidates_that_do_not_fit_are_skipped", "greedy_by_size_tflm")) {
    // Both fit and tie (64 at 0, 32 at 64, 16 at 96: 112 bytes): the earlier candidate wins, in either order.
    const aplan_strategy *t = Find("greedy_by_size_tflm");
    const aplan_strategy *const g_first[] = {g, t};
    const aplan_strategy *const t_first[] = {t, g};
    aplan_tflm::AplanMemoryPlanner p(g_first, 2);
    aplan_tflm::AplanMemoryPlanner q(t_first, 2);
    CHECK_EQ(p.Init(g_scratch, 4096), kTfLiteOk);
    CHECK_EQ(q.Init(g_scratch + 4096, 4096), kTfLiteOk);
    Add(&p, b, 3);
    Add(&q, b, 3);
    CHECK_EQ(p.GetMaximumMemorySize(), 112);
    CHECK_EQ(q.GetMaximumMemorySize(), 112);
    CHECK(p.strategy() == g);
    CHECK(q.strategy() == t);
  }
  {
    aplan_tflm::AplanMemoryPlanner p(&kHungry);
    CHECK_EQ(p.Init(g_scratch, 4096), kTfLiteOk);
    Add(&p, b, 3);
    CHECK_EQ(p.Plan(), kTfLiteError);
    CHECK_EQ(p.status(), APLAN_E_SCRATCH_TOO_SMALL);
    CHECK_EQ(p.scratch_needed(), 3 * 24 + PlanShare(&kHungry, b, 3, APLAN_LOW_MEMORY)); // its 1 MiB, no copy
    CHECK_EQ(p.report().limit, 4096);
  }
}

// A plan that breaks a verifier rule never reaches TFLM: its offsets are not handed out.
void test_rejected_plan_never_reaches_tflm() {
  const TflmBuffer b[] = {{64, 0, 1, -1}, {32, 1, 2, -1}};
  {
    aplan_tflm::AplanMemoryPlanner p(&kOverlapping);
    CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
    Add(&p, b, 2);
    stub_log::Clear();
    int offset = -1;
    CHECK_EQ(p.GetOffsetForBuffer(0, &offset), kTfLiteError);
    CHECK_EQ(p.GetOffsetForBuffer(1, &offset), kTfLiteError);
    CHECK_EQ(offset, -1);
    CHECK_EQ(p.GetMaximumMemorySize(), 0);
    CHECK(p.strategy() == nullptr);
    CHECK_EQ(p.status(), APLAN_E_PLAN_REJECTED);
    CHECK_EQ(p.report().rule, APLAN_E_OVERLAP);
    // aplan's steps are TFLM's plus one: TFLM's shared step 1 reads as step 2.
    CHECK_STR(p.error_text(), "Plan with overlapping: buffers 0 and 1 overlap at steps 2-2, bytes 0-31");
#if !defined(TF_LITE_STRIP_ERROR_STRINGS)
    CHECK_STR(stub_log::Text(),
              "aplan planner: Plan with overlapping: buffers 0 and 1 overlap at steps 2-2, bytes 0-31\n");
#endif
  }
  if (Skip("rejected_plan_never_reaches_tflm", "greedy_by_size")) return;
  {
    const aplan_strategy *g = Find("greedy_by_size");
    const aplan_strategy *const both[] = {&kOverlapping, g};
    aplan_tflm::AplanMemoryPlanner p(both, 2);
    CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
    Add(&p, b, 2);
    CHECK_EQ(p.Plan(), kTfLiteOk);
    CHECK(p.strategy() == g);
    CheckPlan(&p, g, b, 2);
  }
}

void test_add_buffer_after_planning() {
  if (Skip("add_buffer_after_planning", "greedy_by_size")) return;
  const aplan_strategy *s = Find("greedy_by_size");
  aplan_tflm::AplanMemoryPlanner p(s);
  CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
  TflmBuffer b[] = {{64, 0, 1, -1}, {64, 2, 3, -1}, {128, 1, 2, -1}};
  Add(&p, b, 2);
  CHECK_EQ(p.GetMaximumMemorySize(), 64);
  int offset = -1;
  CHECK_EQ(p.GetOffsetForBuffer(1, &offset), kTfLiteOk);
  CHECK_EQ(offset, 0);
  // A third buffer live with both moves them: it is placed first (largest), they go above it.
  Add(&p, b + 2, 1);
  CHECK_EQ(p.GetBufferCount(), 3);
  CHECK_EQ(p.GetOffsetForBuffer(2, &offset), kTfLiteOk);
  CHECK_EQ(offset, 0);
  CHECK_EQ(p.GetOffsetForBuffer(1, &offset), kTfLiteOk);
  CHECK_EQ(offset, 128);
  CHECK_EQ(p.GetMaximumMemorySize(), 192);
  CheckPlan(&p, s, b, 3);
  // Init forgets everything.
  CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
  CHECK_EQ(p.GetBufferCount(), 0);
  CHECK_EQ(p.GetMaximumMemorySize(), 0);
  CHECK_EQ(p.GetOffsetForBuffer(0, &offset), kTfLiteError);
}

// TFLM may reuse Init's scratch once the plan is made: the records and offsets there are then garbage. An offset
// outside the arena the plan reported is refused (APLAN_E_OUT_OF_ARENA, naming the buffer), never handed out; the
// arena figure itself lives in the planner object and stays right.
void test_scratch_overwritten_after_planning() {
  if (Skip("scratch_overwritten_after_planning", "greedy_by_size")) return;
  const aplan_strategy *s = Find("greedy_by_size");
  aplan_tflm::AplanMemoryPlanner p(s);
  CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
  const TflmBuffer b[] = {{64, 0, 2, -1}, {32, 1, 3, -1}};
  Add(&p, b, 2);
  CHECK_EQ(p.GetMaximumMemorySize(), 96);
  int offset = -1;
  CHECK_EQ(p.GetOffsetForBuffer(1, &offset), kTfLiteOk);
  CHECK_EQ(offset, 64);
  memset(g_scratch, 0x5A, sizeof g_scratch);
  offset = -1;
  CHECK_EQ(p.GetOffsetForBuffer(1, &offset), kTfLiteError);
  CHECK_EQ(offset, -1);
  CHECK_EQ(p.status(), APLAN_E_OUT_OF_ARENA);
  CHECK_EQ(p.report().buffer_a, 1);
  CHECK(strstr(p.error_text(), "GetOffsetForBuffer: buffer 1 at 6510615555426900570 (+") == p.error_text());
  CHECK(strstr(p.error_text(), ") is outside the planned arena (96 bytes): Init's scratch was overwritten after "
                               "planning") != nullptr);
  CHECK_EQ(p.GetMaximumMemorySize(), 96);
}

void test_bad_arguments() {
  aplan_tflm::AplanMemoryPlanner p(nullptr);
  CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
  CHECK_EQ(p.AddBuffer(-16, 0, 1), kTfLiteError);
  CHECK_EQ(p.GetBufferCount(), 0);
  CHECK_EQ(p.status(), APLAN_E_INVALID_ARG);
  CHECK_EQ(p.report().buffer_a, 0);
  CHECK_STR(p.error_text(), "AddBuffer 0: size -16 is negative");
  CHECK_EQ(p.AddBuffer(16, -2, 1), kTfLiteError);
  CHECK_EQ(p.status(), APLAN_E_BAD_LIFETIME);
  CHECK_STR(p.error_text(), "AddBuffer 0: steps -2..1 start before step -1");
  CHECK_EQ(p.AddBuffer(16, 3, 2), kTfLiteError);
  CHECK_STR(p.error_text(), "AddBuffer 0: steps 3..2 end before they start");
  CHECK_EQ(p.GetBufferCount(), 0);
  // A failed AddBuffer records nothing; the planner goes on.
  CHECK_EQ(p.AddBuffer(16, 0, 1), kTfLiteOk);
  CHECK_EQ(p.GetBufferCount(), 1);
  int offset = -1;
  if (!Skip("bad_arguments", "greedy_by_size")) {
    CHECK_EQ(p.GetOffsetForBuffer(0, &offset), kTfLiteOk);
    CHECK_EQ(offset, 0);
  }
  // Out of range: -1 and the count; a null pointer.
  offset = 77;
  CHECK_EQ(p.GetOffsetForBuffer(-1, &offset), kTfLiteError);
  CHECK_STR(p.error_text(), "GetOffsetForBuffer: buffer index -1 is outside 0..0");
  CHECK_EQ(p.GetOffsetForBuffer(1, &offset), kTfLiteError);
  CHECK_STR(p.error_text(), "GetOffsetForBuffer: buffer index 1 is outside 0..0");
  CHECK_EQ(offset, 77);
  CHECK_EQ(p.GetOffsetForBuffer(0, nullptr), kTfLiteError);
  CHECK_STR(p.error_text(), "GetOffsetForBuffer: null offset pointer");
  CHECK_EQ(p.status(), APLAN_E_INVALID_ARG);
  CHECK(!p.preserves_all_tensors());
}

void test_init_failures() {
  aplan_tflm::AplanMemoryPlanner p(nullptr);
  // Before any Init.
  CHECK_EQ(p.GetBufferCount(), 0);
  CHECK_EQ(p.GetMaximumMemorySize(), 0);
  CHECK_EQ(p.AddBuffer(16, 0, 1), kTfLiteError);
  CHECK_STR(p.error_text(), "AddBuffer 0: Init has not given the planner its scratch");
  // TFLM ignores Init's status: AddBuffer fails with Init's reason.
  CHECK_EQ(p.Init(nullptr, 64), kTfLiteError);
  CHECK_STR(p.error_text(), "Init: scratch of 64 bytes at null pointer");
  CHECK_EQ(p.AddBuffer(16, 0, 1), kTfLiteError);
  CHECK_STR(p.error_text(), "Init: scratch of 64 bytes at null pointer");
  CHECK_EQ(p.Init(g_scratch, -1), kTfLiteError);
  CHECK_STR(p.error_text(), "Init: scratch of -1 bytes at a pointer");
  CHECK_EQ(p.status(), APLAN_E_INVALID_ARG);
  CHECK_EQ(p.AddBuffer(16, 0, 1), kTfLiteError);
  CHECK_EQ(p.GetBufferCount(), 0);
  // An empty scratch is accepted; it just holds nothing.
  CHECK_EQ(p.Init(nullptr, 0), kTfLiteOk);
  CHECK_EQ(p.status(), APLAN_OK);
  CHECK_STR(p.error_text(), "");
  CHECK_EQ(p.AddBuffer(16, 0, 1), kTfLiteError);
  CHECK_EQ(p.status(), APLAN_E_SCRATCH_TOO_SMALL);
  CHECK_EQ(p.GetMaximumMemorySize(), 0);
  CHECK_EQ(p.Plan(), kTfLiteOk);  // nothing recorded: an empty plan
}

// Offsets are ints: a buffer or an arena beyond INT_MAX fails instead of wrapping.
void test_int_range() {
  if (Skip("int_range", "greedy_by_size")) return;
  const aplan_strategy *s = Find("greedy_by_size");
  {
    aplan_tflm::AplanMemoryPlanner p(s);
    CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
    CHECK_EQ(p.AddBuffer(INT_MAX, 0, 0), kTfLiteOk);  // 2^31 - 1, rounded up to 2^31
    CHECK_EQ(p.Plan(), kTfLiteError);
    CHECK_EQ(p.status(), APLAN_E_CAPACITY_EXCEEDED);
    CHECK_STR(p.error_text(), "Plan: buffer 0 needs 2147483648 bytes, capacity is 2147483647");
  }
  {
    aplan_tflm::AplanMemoryPlanner p(s);
    CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
    CHECK_EQ(p.AddBuffer(1 << 30, 0, 1), kTfLiteOk);
    CHECK_EQ(p.AddBuffer(1 << 30, 1, 2), kTfLiteOk);
    CHECK_EQ(p.Plan(), kTfLiteError);
    CHECK_EQ(p.status(), APLAN_E_CAPACITY_EXCEEDED);
  }
  {
    aplan_tflm::AplanMemoryPlanner p(s);
    CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
    CHECK_EQ(p.AddBuffer(1 << 30, 0, 1), kTfLiteOk);
    CHECK_EQ(p.AddBuffer((1 << 30) - 16, 1, 2), kTfLiteOk);
    CHECK_EQ(p.GetMaximumMemorySize(), 2147483632LL);
    int offset = -1;
    CHECK_EQ(p.GetOffsetForBuffer(1, &offset), kTfLiteOk);
    CHECK_EQ(offset, 1 << 30);
  }
}

// TFLM calls GetMaximumMemorySize after it has taken the scratch back: the answer must not come from it.
void test_arena_size_survives_scratch_reuse() {
  if (Skip("arena_size_survives_scratch_reuse", "greedy_by_size")) return;
  aplan_tflm::AplanMemoryPlanner p(Find("greedy_by_size"));
  CHECK_EQ(p.Init(g_scratch, 4096), kTfLiteOk);
  const TflmBuffer b[] = {{64, 0, 1, -1}, {32, 1, 2, -1}, {48, 2, 3, -1}};
  Add(&p, b, 3);
  int offset = -1;
  for (int i = 0; i < 3; ++i) CHECK_EQ(p.GetOffsetForBuffer(i, &offset), kTfLiteOk);
  memset(g_scratch, 0xA5, 4096);
  CHECK_EQ(p.GetMaximumMemorySize(), 96);
  CHECK_EQ(p.GetBufferCount(), 3);
}

void test_print_memory_plan() {
#if defined(TF_LITE_STRIP_ERROR_STRINGS)
  printf("  print_memory_plan: MicroPrintf is compiled out, skipped\n");
#else
  if (Skip("print_memory_plan", "greedy_by_size")) return;
  aplan_tflm::AplanMemoryPlanner p(Find("greedy_by_size"));
  CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
  const TflmBuffer b[] = {{64, -1, 1, -1}, {32, 1, 2, 128}};
  Add(&p, b, 2);
  stub_log::Clear();
  p.PrintMemoryPlan();
  CHECK_STR(stub_log::Text(),
            "aplan planner: 2 buffers, strategy greedy_by_size, arena 160 bytes, lower bound 160 bytes\n"
            "  buffer 0: size 64, steps -1..1, offset 0\n"
            "  buffer 1: size 32, steps 1..2, offset 128 (offline)\n");
  CHECK_EQ(p.AddBuffer(16, 0, 0, 8), kTfLiteOk);
  stub_log::Clear();
  p.PrintMemoryPlan();
  CHECK_STR(stub_log::Text(),
            "aplan planner: Plan: buffer 2: offset 8 is not a multiple of its alignment 16\n"
            "aplan planner: no plan: Plan: buffer 2: offset 8 is not a multiple of its alignment 16\n");
#endif
}

// The default constructor plans with the strategy named at build time (APLAN_TFLM_STRATEGY, "auto" unless set).
void test_default_constructor() {
  const TflmBuffer b[] = {{10, 0, 1, -1}, {20, 1, 2, -1}, {30, 2, 3, -1}, {40, 3, 4, -1}, {50, 0, 1, -1}};
  aplan_tflm::AplanMemoryPlanner p;
  CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
  Add(&p, b, 5);
  const bool is_auto = strcmp(APLAN_TFLM_STRATEGY, "auto") == 0;
  const aplan_strategy *expected = is_auto ? AutoChoice(b, 5) : Find(APLAN_TFLM_STRATEGY);
  printf("  default_constructor: APLAN_TFLM_STRATEGY is \"%s\"\n", APLAN_TFLM_STRATEGY);
  if (expected == nullptr) {
    CHECK_EQ(p.Plan(), kTfLiteError);
    CHECK_EQ(p.status(), APLAN_E_UNKNOWN_STRATEGY);
    return;
  }
  CHECK_EQ(p.Plan(), kTfLiteOk);
  CHECK(p.strategy() == expected);
  CheckPlan(&p, expected, b, 5);
}

void test_unknown_or_empty_strategy_set() {
  aplan_tflm::AplanMemoryPlanner p(nullptr, 0);
  CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
  CHECK_EQ(p.AddBuffer(16, 0, 1), kTfLiteOk);
  CHECK_EQ(p.Plan(), kTfLiteError);
  CHECK_EQ(p.status(), APLAN_E_INVALID_ARG);
  CHECK_STR(p.error_text(), "Plan: no strategy to plan with");
}

// The person detection buffer list from TFLM's greedy planner test (sizes as written, so rounded here): every
// strategy of the auto set gives aplan's own offsets, and auto the smallest of them, well under the 241,027 bytes
// the sizes add up to.
// TFLM's own person-detection buffer list (its greedy planner test): 30 buffers, sizes as TFLM passes them.
const TflmBuffer kPersonDetection[] = {
      {9216, 0, 29, -1},  {3, 28, 29, -1},    {256, 27, 28, -1},  {2304, 26, 27, -1}, {2304, 25, 26, -1},
      {2304, 24, 25, -1}, {1152, 23, 24, -1}, {4608, 22, 23, -1}, {4608, 21, 22, -1}, {4608, 20, 21, -1},
      {4608, 19, 20, -1}, {4608, 18, 19, -1}, {4608, 17, 18, -1}, {4608, 16, 17, -1}, {4608, 15, 16, -1},
      {4608, 14, 15, -1}, {4608, 13, 14, -1}, {4608, 12, 13, -1}, {2304, 11, 12, -1}, {9216, 10, 11, -1},
      {9216, 9, 10, -1},  {9216, 8, 9, -1},   {4608, 7, 8, -1},   {18432, 6, 7, -1},  {18432, 5, 6, -1},
      {18432, 4, 5, -1},  {9216, 3, 4, -1},   {36864, 2, 3, -1},  {18432, 1, 2, -1},  {18432, 0, 1, -1},
};

void test_tflm_person_detection_list() {
  const TflmBuffer *b = kPersonDetection;
  const size_t n = sizeof kPersonDetection / sizeof kPersonDetection[0];
  for (size_t i = 0; i < aplan_strategy_auto_count(); ++i) {
    const aplan_strategy *s = aplan_strategy_auto_at(i);
    aplan_tflm::AplanMemoryPlanner p(s);
    CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
    Add(&p, b, n);
    CheckPlan(&p, s, b, n);
  }
  const aplan_strategy *best = AutoChoice(b, n);
  if (best == nullptr) return;
  aplan_tflm::AplanMemoryPlanner p(nullptr);
  CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
  Add(&p, b, n);
  CheckPlan(&p, best, b, n);
  CHECK(p.GetMaximumMemorySize() < 241027u);
  // 9216 (live throughout) + 36864 + 18432 at step 2: the largest live sum, which the plan reaches.
  CHECK_EQ(p.result().lower_bound, 64512);
  CHECK_EQ(p.GetMaximumMemorySize(), 64512);
}

// A model's buffer list from ../shared/models/lifetimes (half-open steps TFLM's + 1, raw sizes, optional offline
// offset), handed over as TFLM's allocator does: inclusive steps, sizes rounded to 16. Returns the count; 0 when the
// file cannot be opened, after saying that the case is skipped and setting g_skipped.
size_t ReadLifetimes(const char *model, TflmBuffer *out, size_t max) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.csv", g_lifetimes_dir != nullptr ? g_lifetimes_dir : "LIFETIMES_DIR", model);
  FILE *f = g_lifetimes_dir != nullptr ? fopen(path, "r") : nullptr;
  if (f == nullptr) {
    printf("  shared_models: skipped: needs %s (%s)\n", path, g_lifetimes_dir != nullptr ? "not found" : "none given");
    g_skipped = true;
    return 0;
  }
  char line[256];
  size_t n = 0;
  bool header = true;
  while (fgets(line, sizeof line, f) != nullptr && n < max) {
    if (header) {
      header = false;
      continue;
    }
    const char *c = strchr(line, ',');
    if (c == nullptr) continue;
    char *end = nullptr;
    const long lower = strtol(c + 1, &end, 10);
    const long upper = strtol(end + 1, &end, 10);
    const long size = strtol(end + 1, &end, 10);
    long offline = -1;
    if (*end == ',' && end[1] >= '0' && end[1] <= '9') offline = strtol(end + 1, &end, 10);
    out[n].size = static_cast<int>(RoundUp16(static_cast<uint64_t>(size)));
    out[n].first = static_cast<int>(lower - 1);
    out[n].last = static_cast<int>(upper - 2);
    out[n].offline = static_cast<int>(offline);
    ++n;
  }
  fclose(f);
  return n;
}

void test_shared_models() {
  struct Model {
    const char *name;
    size_t buffers;
    long long arena;  // the lower bound: TFLM's figure for both, which aplan's auto choice reaches
  };
  const Model models[] = {{"person_detect", 32, 55296}, {"person_detect_vela", 4, 74464}};
  for (const Model &m : models) {
    TflmBuffer b[256];
    const size_t n = ReadLifetimes(m.name, b, 256);
    if (n == 0) continue;
    CHECK_EQ(n, m.buffers);
    const aplan_strategy *best = AutoChoice(b, n);
    if (best == nullptr) continue;
    aplan_tflm::AplanMemoryPlanner p(nullptr);
    CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
    Add(&p, b, n);
    CheckPlan(&p, best, b, n);
    CHECK_EQ(p.GetMaximumMemorySize(), m.arena);
    CHECK_EQ(p.result().lower_bound, m.arena);
    printf("  shared_models: %s: %zu buffers, arena %lld with %s, scratch %zu bytes\n", m.name, n, m.arena,
           best->name, p.scratch_needed());
  }
}

// Random buffer lists as TFLM could hand them over (steps from -1, one-step lifetimes, some offline buffers at
// multiples of 16): every strategy and auto agree with aplan run directly and keep TFLM's rule.
uint64_t g_rng = 1;  // 64 bits on every ABI, so a seed gives the same lists on 32-bit builds
int Random(int n) {
  g_rng = g_rng * 6364136223846793005ULL + 1442695040888963407ULL;
  return static_cast<int>((g_rng >> 33) % static_cast<uint64_t>(n));
}

void test_random_lists() {
  for (int round = 0; round < 300; ++round) {
    TflmBuffer b[64];
    const size_t n = static_cast<size_t>(1 + Random(40));
    for (size_t i = 0; i < n; ++i) {
      b[i].first = Random(12) - 1;
      b[i].last = b[i].first + (Random(3) == 0 ? 0 : Random(6));
      b[i].size = 16 * (1 + Random(64)) - (Random(4) == 0 ? Random(15) : 0);
      b[i].offline = Random(10) == 0 ? 16 * Random(128) : -1;
    }
    const aplan_strategy *best = AutoChoice(b, n);
    for (size_t k = 0; k <= aplan_strategy_auto_count(); ++k) {
      const bool is_auto = k == aplan_strategy_auto_count();
      const aplan_strategy *s = is_auto ? best : aplan_strategy_auto_at(k);
      if (s == nullptr) continue;
      aplan_tflm::AplanMemoryPlanner p(is_auto ? nullptr : s);
      CHECK_EQ(p.Init(g_scratch, sizeof g_scratch), kTfLiteOk);
      Add(&p, b, n);
      CheckPlan(&p, s, b, n);
    }
  }
}

// The sizing figures of aplan_micro_planner.h: every strategy of the auto set asks at most
// kPlanScratchPerBuffer * n + kPlanScratchPerOfflineBuffer * f + kPlanScratchExtra bytes of aplan_plan, on lists of
// every shape (short and long lifetimes, offline offsets, up to 1,500 buffers), and auto plans in an Init scratch of
// exactly the size the header gives.
void test_auto_sizing_figures() {
  typedef aplan_tflm::AplanMemoryPlanner P;
  static TflmBuffer b[1500];
  static aplan_buffer records[1500];
  for (int round = 0; round < 120; ++round) {
    const size_t n = static_cast<size_t>(round < 40 ? 1 + round : 1 + Random(round < 100 ? 300 : 1500));
    const int span = 1 + Random(round % 3 == 0 ? 4 : 200);
    size_t f = 0;
    for (size_t i = 0; i < n; ++i) {
      b[i].first = Random(span) - 1;
      b[i].last = b[i].first + Random(1 + Random(span));
      b[i].size = 16 * (1 + Random(64));
      b[i].offline = round % 4 == 1 && Random(3) == 0 ? 16 * static_cast<int>(i) * 1024 : -1;
      f += b[i].offline >= 0;
      records[i] = aplan_buffer();
      records[i].size = static_cast<uint64_t>(b[i].size);
      records[i].lower = static_cast<uint64_t>(b[i].first + 1);
      records[i].upper = static_cast<uint64_t>(b[i].last + 2);
      records[i].offset = b[i].offline >= 0 ? static_cast<uint64_t>(b[i].offline) : APLAN_NO_OFFSET;
    }
    aplan_problem problem;
    aplan_problem_init(&problem, records, n);
    problem.alignment = P::kAlignment;
    problem.capacity = static_cast<uint64_t>(INT_MAX);
    problem.flags = APLAN_ROUND_SIZES | APLAN_ALLOW_FIXED_ALIAS;
    const size_t limit = P::kPlanScratchPerBuffer * n + P::kPlanScratchPerOfflineBuffer * f + P::kPlanScratchExtra;
    for (size_t k = 0; k < aplan_strategy_auto_count(); ++k) {
      size_t need = 0;
      CHECK_EQ(aplan_plan_scratch_size(aplan_strategy_auto_at(k), &problem, &need), APLAN_OK);
      Report(need <= limit, __FILE__, __LINE__, "an auto strategy asks no more than the header's figure");
      if (need > limit) fprintf(stderr, "    %s: %zu > %zu (n %zu, f %zu)\n", aplan_strategy_auto_at(k)->name, need,
                                limit, n, f);
    }
    const size_t init = P::kRecordBytes * n + limit;
    if (init > sizeof g_scratch || aplan_strategy_auto_count() == 0) continue;
    P planner(nullptr);
    CHECK_EQ(planner.Init(g_scratch, static_cast<int>(init)), kTfLiteOk);
    for (size_t i = 0; i < n; ++i) CHECK_EQ(planner.AddBuffer(b[i].size, b[i].first, b[i].last, b[i].offline), kTfLiteOk);
    CHECK_EQ(planner.Plan(), kTfLiteOk);
    Report(planner.scratch_needed() <= init, __FILE__, __LINE__, "auto's peak is within the header's figure");
    // The least: 32 bytes a buffer (less than the 40 TFLM's GreedyMemoryPlanner keeps), where auto plans with the
    // list walks of greedy_by_size_tflm (TFLM's own plan) and greedy_by_size alone; one byte less fails.
    if (Skip("auto_sizing_figures", "greedy_by_size_tflm")) continue;
    const size_t least = (P::kRecordBytes + P::kLeastPlanScratchPerBuffer) * n;
    CHECK_EQ(least, 32 * n);
    P lean(nullptr);
    CHECK_EQ(lean.Init(g_scratch, static_cast<int>(least)), kTfLiteOk);
    for (size_t i = 0; i < n; ++i) CHECK_EQ(lean.AddBuffer(b[i].size, b[i].first, b[i].last, b[i].offline), kTfLiteOk);
    CHECK_EQ(lean.Plan(), kTfLiteOk);
    CHECK_EQ(lean.scratch_needed(), least);
    CHECK(lean.result().arena_size >= planner.result().arena_size);
    if (n <= 256) CHECK(lean.result().arena_size <= PlanDirect(Find("greedy_by_size_tflm"), b, n).arena);
    CHECK_EQ(lean.Init(g_scratch, static_cast<int>(least) - 1), kTfLiteOk);
    for (size_t i = 0; i < n; ++i) CHECK_EQ(lean.AddBuffer(b[i].size, b[i].first, b[i].last, b[i].offline), kTfLiteOk);
    CHECK_EQ(lean.Plan(), kTfLiteError);
    CHECK_EQ(lean.status(), APLAN_E_SCRATCH_TOO_SMALL);
  }
}

struct Test {
  const char *name;
  void (*run)();
};

const Test kTests[] = {
    {"lifetime_mapping_matches_tflm_conflicts", test_lifetime_mapping_matches_tflm_conflicts},
    {"auto_sizing_figures", test_auto_sizing_figures},
    {"lifetime_mapping_rejects_outside_domain", test_lifetime_mapping_rejects_outside_domain},
    {"tflm_greedy_cases_scaled", test_tflm_greedy_cases_scaled},
    {"scratch_overwritten_after_planning", test_scratch_overwritten_after_planning},
    {"sizes_rounded_to_16", test_sizes_rounded_to_16},
    {"step_minus_one", test_step_minus_one},
    {"touching_and_equal_steps", test_touching_and_equal_steps},
    {"offline_offsets", test_offline_offsets},
    {"scratch_too_small", test_scratch_too_small},
    {"candidates_that_do_not_fit_are_skipped", test_candidates_that_do_not_fit_are_skipped},
    {"rejected_plan_never_reaches_tflm", test_rejected_plan_never_reaches_tflm},
    {"add_buffer_after_planning", test_add_buffer_after_planning},
    {"bad_arguments", test_bad_arguments},
    {"init_failures", test_init_failures},
    {"int_range", test_int_range},
    {"arena_size_survives_scratch_reuse", test_arena_size_survives_scratch_reuse},
    {"print_memory_plan", test_print_memory_plan},
    {"default_constructor", test_default_constructor},
    {"unknown_or_empty_strategy_set", test_unknown_or_empty_strategy_set},
    {"tflm_person_detection_list", test_tflm_person_detection_list},
    {"shared_models", test_shared_models},
    {"random_lists", test_random_lists},
};

}  // namespace

// --figures: what docs/tflm.md states about the adapter, as `key value` lines for tests/docs_test.py.
int PrintFigures() {
  typedef aplan_tflm::AplanMemoryPlanner P;
  printf("tflm.object_bytes.%zu %zu\n", sizeof(void *) * 8, sizeof(P));
  printf("tflm.record_bytes %zu\n", P::kRecordBytes);
  printf("tflm.plan_per_buffer %zu\n", P::kPlanScratchPerBuffer);
  printf("tflm.plan_per_offline_buffer %zu\n", P::kPlanScratchPerOfflineBuffer);
  printf("tflm.plan_extra %zu\n", P::kPlanScratchExtra);
  printf("tflm.peak_per_buffer %zu\n", P::kRecordBytes + P::kPlanScratchPerBuffer);
  printf("tflm.least_per_buffer %zu\n", P::kRecordBytes + P::kLeastPlanScratchPerBuffer);
  const aplan_strategy *s = Find("greedy_by_size");
  if (s != nullptr) {
    P planner(s);
    const size_t n = sizeof kPersonDetection / sizeof kPersonDetection[0];
    if (planner.Init(g_scratch, sizeof g_scratch) != kTfLiteOk) return 1;
    Add(&planner, kPersonDetection, n);
    if (planner.Plan() != kTfLiteOk) return 1;
    printf("tflm.person_detection_buffers %zu\n", n);
    printf("tflm.person_detection_scratch.greedy_by_size %zu\n", planner.scratch_needed());
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--figures") == 0) return PrintFigures();
  g_lifetimes_dir = argc > 1 && argv[1][0] != '\0' ? argv[1] : nullptr;
  g_rng = argc > 2 ? strtoull(argv[2], nullptr, 10) : static_cast<uint64_t>(time(nullptr));
  printf("seed %llu%s%s\n", static_cast<unsigned long long>(g_rng), g_lifetimes_dir ? ", lifetimes from " : "",
         g_lifetimes_dir ? g_lifetimes_dir : "");
#if defined(TF_LITE_STATIC_MEMORY)
  printf("built with TF_LITE_STATIC_MEMORY\n");
#endif
  int failed_tests = 0;
  int skipped_tests = 0;
  for (const Test &t : kTests) {
    const int before = g_failures;
    g_skipped = false;
    t.run();
    const bool ok = g_failures == before;
    printf("%s %s\n", !ok ? "FAIL" : g_skipped ? "skip" : "ok  ", t.name);
    if (!ok) ++failed_tests;
    if (ok && g_skipped) ++skipped_tests;
  }
  printf("%d of %zu tests failed, %d skipped, %d checks\n", failed_tests, sizeof kTests / sizeof kTests[0],
         skipped_tests, g_failures);
  return g_failures > 255 ? 255 : g_failures;
}
