// TEST-ONLY MicroPrintf for the stand-in TFLM headers: prints to stderr like TFLM's host DebugLog and keeps the
// last messages so tests can assert what the planner said.
#include "micro_log_stub.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tensorflow/lite/micro/micro_log.h"

namespace {
char g_log[8192];
size_t g_log_len = 0;
}  // namespace

#if !defined(TF_LITE_STRIP_ERROR_STRINGS)
void MicroPrintf(const char *format, ...) {
  char line[512];
  va_list args;
  va_start(args, format);
  const int n = vsnprintf(line, sizeof line, format, args);
  va_end(args);
  if (n < 0) return;
  fprintf(stderr, "%s\n", line);
  const size_t len = strlen(line);
  if (g_log_len + len + 2 <= sizeof g_log) {
    memcpy(g_log + g_log_len, line, len);
    g_log_len += len;
    g_log[g_log_len++] = '\n';
    g_log[g_log_len] = '\0';
  }
}
#endif

namespace stub_log {

const char *Text() { return g_log; }

void Clear() {
  g_log_len = 0;
  g_log[0] = '\0';
}

}  // namespace stub_log
