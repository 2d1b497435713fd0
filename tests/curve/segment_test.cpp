#include "support/catch.hpp"
#include "support/properties.hpp"
#include "tractrix/curve/de_casteljau.hpp"

using namespace tractrix;
using namespace tractrix::test;

TEMPLATE_TEST_CASE("Hermite and Bezier convert both ways", "[curve][segment]", float, double) {
  using S = TestType;
  auto rng = make_rng(11);
  for (int n = 0; n < property_count(200); ++n) {
    const Hermite<S, 3> h{random_vector<S, 3>(rng, S(10)), random_vector<S, 3>(rng, S(10)),
                          random_vector<S, 3>(rng, S(10)), random_vector<S, 3>(rng, S(10))};
    const auto b = to_bezier(h);
    // P1 = p0 + m0/3, P2 = p1 − m1/3 (the lecture's conversion).
    const S tol = S(16) * eps<S>() * S(10);
    CHECK((b.points[0] - h.p0).norm() == S(0));
    CHECK((b.points[1] - (h.p0 + h.m0 / S(3))).norm() <= tol);
    CHECK((b.points[2] - (h.p1 - h.m1 / S(3))).norm() <= tol);
    CHECK((b.points[3] - h.p1).norm() == S(0));
    // The Bézier form reproduces the Hermite end derivatives...
    CHECK((de_casteljau(b, S(0)).tangent - h.m0).norm() <= S(4) * tol);
    CHECK((de_casteljau(b, S(1)).tangent - h.m1).norm() <= S(4) * tol);
    // ...and converting back returns the keys.
    const auto back = to_hermite(b);
    CHECK((back.m0 - h.m0).norm() <= S(4) * tol);
    CHECK((back.m1 - h.m1).norm() <= S(4) * tol);
    CHECK(back.p0 == h.p0);
    CHECK(back.p1 == h.p1);
  }
}

TEST_CASE("Hermite basis matches the cubic Hermite polynomials", "[curve][segment]") {
  // r(u) = h00 p0 + h10 m0 + h01 p1 + h11 m1 with h00 = 2u³ − 3u² + 1, h10 = u³ − 2u² + u,
  // h01 = −2u³ + 3u², h11 = u³ − u² (the Hermite basis, an independent form of the same curve).
  const Hermite<double, 2> h{{1, 2}, {-3, 5}, {4, -1}, {2, 2}};
  const auto b = to_bezier(h);
  for (double u = 0; u <= 1.0; u += 0.0625) {
    const double h00 = 2 * u * u * u - 3 * u * u + 1, h10 = u * u * u - 2 * u * u + u;
    const double h01 = -2 * u * u * u + 3 * u * u, h11 = u * u * u - u * u;
    const Vector2d expected = h00 * h.p0 + h10 * h.m0 + h01 * h.p1 + h11 * h.m1;
    CHECK((de_casteljau(b, u).point - expected).norm() <= 32 * eps<double>() * 5);
  }
}
