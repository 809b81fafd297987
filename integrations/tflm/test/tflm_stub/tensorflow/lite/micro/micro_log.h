/*
 * TEST-ONLY stand-in for TensorFlow Lite Micro's tensorflow/lite/micro/micro_log.h (same path): MicroPrintf, a
 * printf-like logger that ends every message with a newline itself. With TF_LITE_STRIP_ERROR_STRINGS (TFLM's
 * release builds) the call compiles to nothing that evaluates its text, as in TFLM. The test build defines it in
 * test/tflm_stub/micro_log_stub.cc, which also keeps the messages for the tests to read.
 */
#ifndef APLAN_TFLM_STUB_TENSORFLOW_LITE_MICRO_MICRO_LOG_H_
#define APLAN_TFLM_STUB_TENSORFLOW_LITE_MICRO_MICRO_LOG_H_

#if !defined(TF_LITE_STRIP_ERROR_STRINGS)
void MicroPrintf(const char *format, ...);
#else
#define MicroPrintf(...) tflite::Unused(__VA_ARGS__)
#endif

namespace tflite {

// Swallows its arguments: what MicroPrintf becomes when error strings are stripped.
template <typename... Args>
void Unused(Args &&...args) {
  (void)(sizeof...(args));
}

}  // namespace tflite

#endif  // APLAN_TFLM_STUB_TENSORFLOW_LITE_MICRO_MICRO_LOG_H_
