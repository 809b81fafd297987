// Internal to integrations/tflm: the text builder both planners write their one-line reasons with. Not installed.
#ifndef APLAN_INTEGRATIONS_TFLM_APLAN_TFLM_TEXT_H_
#define APLAN_INTEGRATIONS_TFLM_APLAN_TFLM_TEXT_H_

#include <stddef.h>
#include <stdint.h>

namespace aplan_tflm {
// A named namespace, not an anonymous one: a class with linkage draws no "unused member" warning in the file that
// uses half of it.
namespace internal {

// A bounded, always NUL-terminated text builder: no snprintf, so the adapter needs nothing from stdio on a device.
class Text {
 public:
  Text(char *out, size_t size) : out_(out), size_(size), len_(0) {
    if (size_ > 0) out_[0] = '\0';
  }
  Text &Put(const char *s) {
    for (; *s != '\0'; ++s) PutChar(*s);
    return *this;
  }
  Text &PutU(uint64_t v) {
    char digits[21];
    size_t n = sizeof digits;
    do {
      digits[--n] = static_cast<char>('0' + static_cast<int>(v % 10u));
      v /= 10u;
    } while (v != 0);
    for (; n < sizeof digits; ++n) PutChar(digits[n]);
    return *this;
  }
  Text &PutI(int64_t v) {
    if (v < 0) {
      PutChar('-');
      return PutU(0u - static_cast<uint64_t>(v));
    }
    return PutU(static_cast<uint64_t>(v));
  }
  // Where the text ends now, and how much room is left behind it (for aplan_report_format to write into).
  char *End() { return out_ + len_; }
  size_t Room() const { return size_ > len_ ? size_ - len_ : 0; }

 private:
  void PutChar(char c) {
    if (len_ + 1 < size_) {
      out_[len_++] = c;
      out_[len_] = '\0';
    }
  }
  char *out_;
  size_t size_;
  size_t len_;
};

}  // namespace internal
}  // namespace aplan_tflm

#endif  // APLAN_INTEGRATIONS_TFLM_APLAN_TFLM_TEXT_H_
