/*
 * TEST-ONLY stand-in for TensorFlow Lite Micro's tensorflow/lite/micro/compatibility.h (same path, same meaning).
 *
 * Under TF_LITE_STATIC_MEMORY, TFLM asks every class derived from one of its interfaces to declare a do-nothing
 * class-level operator delete in its private section, so that the virtual destructor does not pull in the global
 * ::operator delete on targets without a heap. Without the define the macro is empty.
 */
#ifndef APLAN_TFLM_STUB_TENSORFLOW_LITE_MICRO_COMPATIBILITY_H_
#define APLAN_TFLM_STUB_TENSORFLOW_LITE_MICRO_COMPATIBILITY_H_

#ifdef TF_LITE_STATIC_MEMORY
#define TF_LITE_REMOVE_VIRTUAL_DELETE \
  void operator delete(void *) {}
#else
#define TF_LITE_REMOVE_VIRTUAL_DELETE
#endif

#endif  // APLAN_TFLM_STUB_TENSORFLOW_LITE_MICRO_COMPATIBILITY_H_
