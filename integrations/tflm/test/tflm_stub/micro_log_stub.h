// TEST-ONLY: what the stand-in MicroPrintf printed since the last Clear (one message per line; always empty when
// TF_LITE_STRIP_ERROR_STRINGS compiles MicroPrintf out, as in TFLM's release builds).
#ifndef APLAN_TFLM_STUB_MICRO_LOG_STUB_H_
#define APLAN_TFLM_STUB_MICRO_LOG_STUB_H_

namespace stub_log {
const char *Text();
void Clear();
}  // namespace stub_log

#endif  // APLAN_TFLM_STUB_MICRO_LOG_STUB_H_
