// Decodes fuzzer bytes into the values tractrix must survive: ordinary numbers, extremes
// (±1e300, denormals), degenerate ones (0, −0, repeated) and non-finite ones (NaN, ±inf).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "tractrix/core/vector.hpp"

namespace tractrix::fuzz {

class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::uint8_t byte() { return position_ < size_ ? data_[position_++] : 0; }
  bool flag() { return byte() & 1; }
  int count(int lo, int hi) { return lo + byte() % (hi - lo + 1); }

  double number() {
    const std::uint8_t selector = byte();
    switch (selector % 16) {
      case 0:
        return std::numeric_limits<double>::quiet_NaN();
      case 1:
        return std::numeric_limits<double>::infinity();
      case 2:
        return -std::numeric_limits<double>::infinity();
      case 3:
        return 0.0;
      case 4:
        return -0.0;
      case 5:
        return 1e300;
      case 6:
        return std::numeric_limits<double>::denorm_min();
      case 7: {  // raw bits: anything at all
        double value = 0;
        std::uint8_t raw[8];
        for (auto& b : raw)
          b = byte();
        std::memcpy(&value, raw, 8);
        return value;
      }
      default: {  // ordinary values in [−1000, 1000] with a few digits
        const int mantissa = (static_cast<int>(byte()) << 8 | byte()) - 32768;
        return mantissa / 32.768;
      }
    }
  }
  // Mostly ordinary values: one in eight is an odd one (the rest keep constructions succeeding).
  double mostly_finite() {
    return byte() % 8 == 0 ? number() : (static_cast<int>(byte()) << 8 | byte()) / 65.536 - 500;
  }
  Vector3<double> vector() { return {mostly_finite(), mostly_finite(), mostly_finite()}; }

 private:
  const std::uint8_t* data_;
  std::size_t size_, position_ = 0;
};

// The contract: a violated check aborts with a message, which libFuzzer reports as a crash.
inline void require(bool condition, const char* what) {
  if (!condition) {
    std::fprintf(stderr, "contract violated: %s\n", what);
    std::abort();
  }
}

template <class Frame>
void require_frame(const Frame& f) {
  require(f.rotation.allFinite() && f.origin.allFinite(), "frame finite");
  require((f.rotation.transpose() * f.rotation - Eigen::Matrix3d::Identity()).norm() < 1e-9,
          "frame orthonormal");
  require(std::abs(f.rotation.determinant() - 1) < 1e-9, "frame right-handed");
}

}  // namespace tractrix::fuzz
