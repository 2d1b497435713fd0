#include <algorithm>
#include <cmath>
#include <limits>

#include "support/catch.hpp"
#include "tractrix/core/numeric.hpp"
#include "tractrix/core/vector.hpp"

using namespace tractrix;

TEMPLATE_TEST_CASE("angle_between is accurate near 0 and pi", "[core]", double) {
  using S = TestType;
  for (S angle : {S(1e-8), S(1e-4), S(1), detail::pi<S>() - S(1e-8)}) {
    const Vector3<S> a(1, 0, 0), b(std::cos(angle), std::sin(angle), 0);
    // acos(a·b) at 1e-8 would give 0 or 1.49e-8; atan2 keeps full relative precision.
    CHECK(std::abs(detail::angle_between(a, b) - angle) <= 1e-12 * std::max(angle, S(1e-4)));
  }
}

TEMPLATE_TEST_CASE("angle_between takes directions of any finite length", "[core]", float, double) {
  using S = TestType;
  // Lengths whose squares overflow or underflow: |a × b| and a · b did, and the angle read π/4
  // (inf / inf) or 0.
  const S huge = std::numeric_limits<S>::max() / S(1e8), tiny = std::numeric_limits<S>::min();
  const S angle = S(0.5);
  const Vector3<S> a(0, 1, 0), b(0, std::cos(angle), std::sin(angle));
  for (const S ka : {S(1), huge, tiny})
    for (const S kb : {S(1), huge, tiny}) {
      INFO("lengths " << ka << ", " << kb);
      CHECK(std::abs(detail::angle_between(Vector3<S>(ka * a), Vector3<S>(kb * b)) - angle) <=
            S(4) * detail::epsilon<S>());
    }
  // The scaling is exact (a power of two): dividing by the largest component rounded each
  // component, 4.5e-7 of a 5e-11 angle.
  if (sizeof(S) == sizeof(double)) {
    const Vector3<S> p(3, 7, 1), r(3, S(7 + 1e-9), 1);
    const long double ry = r.y();
    const long double cx = 7 * 1 - 1 * ry, cy = 1 * 3 - 3 * 1, cz = 3 * ry - 7 * 3;
    const long double want = std::atan2(std::sqrt(cx * cx + cy * cy + cz * cz), 9 + 7 * ry + 1);
    CHECK(std::abs(detail::angle_between(p, r) - want) <= 4 * detail::epsilon<S>() * want);
  }
  CHECK(detail::angle_between(Vector3<S>::Zero(), b) == S(0));
  CHECK(detail::angle_between(a, Vector3<S>::Zero()) == S(0));
}

TEMPLATE_TEST_CASE("bracketed_root returns a root it lands on exactly", "[core]", float, double) {
  using S = TestType;
  // False position from (0, −0.5) and (1, 0.5) lands on 0.5, where f vanishes: that is the
  // answer, not a point the search keeps narrowing towards.
  const auto line = [](S x) { return x - S(0.5); };
  CHECK(detail::bracketed_root(line, S(0), S(1), S(-0.5), S(0.5)) == S(0.5));
  // A cubic with its one real root at 0.25: found to a few ulps, superlinearly — a handful of
  // evaluations, where bisection alone would take one a bit of the significand.
  int evaluations = 0;
  const auto cubic = [&evaluations](S x) {
    ++evaluations;
    return (x - S(0.25)) * (x * x + S(1));
  };
  const S root = detail::bracketed_root(cubic, S(0), S(1), S(-0.25), S(1.5));
  CHECK(std::abs(root - S(0.25)) <= S(4) * std::numeric_limits<S>::epsilon());
  CHECK(evaluations <= 12);
}
