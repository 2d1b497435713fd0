#include <cmath>

#include "support/catch.hpp"
#include "support/properties.hpp"
#include "tractrix/curve/de_casteljau.hpp"

using namespace tractrix;
using namespace tractrix::test;

namespace {

long double binomial(int n, int k) {
  long double c = 1;
  for (int i = 1; i <= k; ++i)
    c = c * (n - k + i) / i;
  return c;
}

// Independent reference: the order-th derivative from the Bernstein form in long double,
// d^k r/du^k = N!/(N−k)! Σ_i B_{i,N−k}(u) Δ^k P_i (Farin, "Curves and Surfaces for CAGD",
// Eq. 5.19).
template <class S, int D, int N>
Eigen::Matrix<long double, D, 1> bernstein_derivative(const Bezier<S, D, N>& b, long double u,
                                                      int order) {
  std::array<Eigen::Matrix<long double, D, 1>, N + 1> diff;
  for (std::size_t i = 0; i <= N; ++i)
    diff[i] = b.points[i].template cast<long double>();
  long double factor = 1;
  const std::size_t k_max = static_cast<std::size_t>(order);
  for (std::size_t k = 0; k < k_max; ++k) {
    for (std::size_t i = 0; i < N - k; ++i)
      diff[i] = diff[i + 1] - diff[i];
    factor *= static_cast<long double>(N - k);
  }
  const int m = N - order;
  Eigen::Matrix<long double, D, 1> sum = Eigen::Matrix<long double, D, 1>::Zero();
  for (int i = 0; i <= m; ++i)
    sum += binomial(m, i) * std::pow(u, i) * std::pow(1 - u, m - i) *
           diff[static_cast<std::size_t>(i)];
  return factor * sum;
}

template <class S, int N>
void check_against_bernstein(std::uint64_t seed) {
  constexpr int D = 3;
  auto rng = make_rng(seed);
  const S scale = S(100);
  for (int n = 0; n < property_count(100); ++n) {
    const auto b = random_bezier<S, D, N>(rng, scale);
    const S u = uniform<S>(rng, S(0), S(1));
    INFO("degree " << N << ", case " << n << ", u = " << u);
    const auto pt = de_casteljau(b, u);
    // De Casteljau is a convex combination per level: error ≲ N·eps·max|P| (Farin, §3.3);
    // the tangent multiplies a difference by N, so N² ulps of the scale.
    const long double point_tol = 4.0L * N * eps<S>() * scale;
    const long double tangent_tol = 8.0L * N * N * eps<S>() * scale;
    CHECK((pt.point.template cast<long double>() - bernstein_derivative(b, u, 0)).norm() <=
          point_tol);
    CHECK((pt.tangent.template cast<long double>() - bernstein_derivative(b, u, 1)).norm() <=
          tangent_tol);
    for (int order = 0; order <= N; ++order) {
      // The k-th differences are bounded by 2^k·max|P| and scaled by N!/(N−k)!; De Casteljau on
      // them adds N ulps.
      long double falling = 1;
      for (int k = 0; k < order; ++k)
        falling *= N - k;
      const long double tol = 4.0L * (N + 1) * std::pow(2.0L, order) * falling * eps<S>() * scale;
      CHECK(
          (derivative(b, u, order).template cast<long double>() - bernstein_derivative(b, u, order))
              .norm() <= tol);
    }
    CHECK(derivative(b, u, N + 1).norm() == S(0));
    CHECK(derivative(b, u, -1).norm() == S(0));
  }
}

template <class S, int N>
void check_split(std::uint64_t seed) {
  auto rng = make_rng(seed);
  const S scale = S(10);
  for (int n = 0; n < property_count(50); ++n) {
    const auto b = random_bezier<S, 3, N>(rng, scale);
    const S at = uniform<S>(rng, S(0.05), S(0.95));
    const auto [left, right] = split(b, at);
    for (S v : {S(0), S(0.3), S(0.7), S(1)}) {
      // left(v) = b(at·v), right(v) = b(at + (1 − at)·v): both halves re-cover the curve.
      const S tol = S(32) * N * eps<S>() * scale;
      CHECK((de_casteljau(left, v).point - de_casteljau(b, at * v).point).norm() <= tol);
      CHECK((de_casteljau(right, v).point - de_casteljau(b, at + (S(1) - at) * v).point).norm() <=
            tol);
    }
    CHECK(left.points[0] == b.points[0]);
    CHECK(right.points[N] == b.points[N]);
    CHECK(left.points[N] == right.points[0]);
  }
}

}  // namespace

TEMPLATE_TEST_CASE("de_casteljau matches the Bernstein form for degrees 1..6",
                   "[curve][de_casteljau]", float, double) {
  check_against_bernstein<TestType, 1>(101);
  check_against_bernstein<TestType, 2>(102);
  check_against_bernstein<TestType, 3>(103);
  check_against_bernstein<TestType, 4>(104);
  check_against_bernstein<TestType, 5>(105);
  check_against_bernstein<TestType, 6>(106);
}

TEMPLATE_TEST_CASE("de_casteljau tangent agrees with central differences", "[curve][de_casteljau]",
                   float, double) {
  using S = TestType;
  auto rng = make_rng(7);
  // Central differences err by h²/6·|r'''| + eps·|r|/h; h = cbrt(eps) balances the two.
  const S h = std::cbrt(eps<S>());
  for (int n = 0; n < property_count(100); ++n) {
    const auto b = random_bezier<S, 3, 3>(rng, S(1));
    const S u = uniform<S>(rng, S(0.1), S(0.9));
    const Vector3<S> numeric =
        (de_casteljau(b, u + h).point - de_casteljau(b, u - h).point) / (S(2) * h);
    const S third = derivative(b, u, 3).norm();
    CHECK((de_casteljau(b, u).tangent - numeric).norm() <= h * h * (third + S(8)));
  }
}

TEMPLATE_TEST_CASE("split re-covers the curve for degrees 1..6", "[curve][de_casteljau]", float,
                   double) {
  check_split<TestType, 1>(201);
  check_split<TestType, 3>(203);
  check_split<TestType, 6>(206);
}

TEST_CASE("cubic acceleration is the lecture's closed form", "[curve][de_casteljau]") {
  // r''(u) = 6(1−u)(P0 − 2P1 + P2) + 6u(P1 − 2P2 + P3); at u=0 it is 6(P0 − 2P1 + P2)
  // (the lecture's "Beispiel 4": r''(0) and r''(1)).
  const Bezier<double, 2, 3> b{{Vector2d(0, 0), Vector2d(1, 3), Vector2d(4, 3), Vector2d(5, 0)}};
  const Vector2d a0 = 6 * (b.points[0] - 2 * b.points[1] + b.points[2]);
  const Vector2d a1 = 6 * (b.points[1] - 2 * b.points[2] + b.points[3]);
  CHECK((derivative(b, 0.0, 2) - a0).norm() <= 1e-14);
  CHECK((derivative(b, 1.0, 2) - a1).norm() <= 1e-14);
  CHECK((derivative(b, 0.25, 2) - (0.75 * a0 + 0.25 * a1)).norm() <= 1e-13);
  // The lecture's tangent at u = 0.5: r'(1/2) = 3/4 (−P0 − P1 + P2 + P3).
  const Vector2d tangent = 0.75 * (-b.points[0] - b.points[1] + b.points[2] + b.points[3]);
  CHECK((de_casteljau(b, 0.5).tangent - tangent).norm() <= 1e-14);
}
