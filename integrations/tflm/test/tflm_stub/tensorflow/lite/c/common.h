/*
 * TEST-ONLY stand-in for TensorFlow Lite Micro's tensorflow/lite/c/common.h, written for aplan's CI, which cannot
 * fetch TFLM. It declares only what the adapter uses: the status type and its first two values, with TFLM's values.
 * Real builds include TFLM's own header instead (same path).
 */
#ifndef APLAN_TFLM_STUB_TENSORFLOW_LITE_C_COMMON_H_
#define APLAN_TFLM_STUB_TENSORFLOW_LITE_C_COMMON_H_

typedef enum TfLiteStatus {
  kTfLiteOk = 0,
  kTfLiteError = 1,
} TfLiteStatus;

#endif  // APLAN_TFLM_STUB_TENSORFLOW_LITE_C_COMMON_H_
