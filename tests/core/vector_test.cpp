#include <algorithm>
#include <cmath>

#include "support/catch.hpp"
#include "tractrix/core/numeric.hpp"
#include "tractrix/core/vector.hpp"

using namespace tractrix;

TEMPLATE_TEST_CASE("angle_between is accurate near 0 and pi", "[core]", double) {
  using S = TestType;
  for (S angle : {S(1e-8), S(1e-4), S(1), pi<S>() - S(1e-8)}) {
    const Vector3<S> a(1, 0, 0), b(std::cos(angle), std::sin(angle), 0);
    // acos(a·b) at 1e-8 would give 0 or 1.49e-8; atan2 keeps full relative precision.
    CHECK(std::abs(angle_between(a, b) - angle) <= 1e-12 * std::max(angle, S(1e-4)));
  }
}
