// An independent arc-length reference for single cubic Bézier segments: double-exponential
// (tanh–sinh) quadrature in long double on panels split at every speed minimum. It shares nothing
// with ArcLengthTable: the speed comes from the Bernstein form of the derivative, the minima from
// a sampled search refined by golden sections, the quadrature from a different family.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "tractrix/curve/segment.hpp"

namespace tractrix::test {

class ReferenceArcLength {
 public:
  template <class S, int D>
  explicit ReferenceArcLength(const Bezier<S, D, 3>& b, int panels = 32) {
    for (std::size_t j = 0; j < 3; ++j)
      for (Eigen::Index k = 0; k < D; ++k)
        d_[j][static_cast<std::size_t>(k)] =
            static_cast<long double>(b.points[j + 1][k]) - b.points[j][k];
    // Breakpoints: uniform panels plus every local minimum of the speed (cusps and near-cusps),
    // so each panel's integrand is smooth inside and at worst |u − u*|-like at an end.
    std::vector<long double> cuts;
    for (int i = 0; i <= panels; ++i)
      cuts.push_back(static_cast<long double>(i) / panels);
    const int samples = 4096;
    for (int i = 1; i < samples; ++i) {
      const long double lo = (i - 1.0L) / samples, mid = static_cast<long double>(i) / samples,
                        hi = (i + 1.0L) / samples;
      if (speed(mid) <= speed(lo) && speed(mid) <= speed(hi)) cuts.push_back(golden_min(lo, hi));
    }
    std::sort(cuts.begin(), cuts.end());
    cuts_.push_back(0);
    for (long double c : cuts)
      if (c > cuts_.back()) cuts_.push_back(c);
    cumulative_.push_back(0);
    for (std::size_t i = 0; i + 1 < cuts_.size(); ++i)
      cumulative_.push_back(cumulative_.back() + integrate(cuts_[i], cuts_[i + 1]));
  }

  long double length() const { return cumulative_.back(); }

  // Arc length from u = 0 to u (clamped to [0, 1]).
  long double distance(long double u) const {
    u = std::clamp(u, 0.0L, 1.0L);
    const auto upper = std::upper_bound(cuts_.begin(), cuts_.end(), u);
    const std::size_t i = std::min<std::size_t>(
        static_cast<std::size_t>(std::max<std::ptrdiff_t>(upper - cuts_.begin() - 1, 0)),
        cuts_.size() - 2);
    return cumulative_[i] + integrate(cuts_[i], u);
  }

  // |r'(u)| = 3 |(1−u)² d0 + 2u(1−u) d1 + u² d2|.
  long double speed(long double u) const {
    const long double v = 1 - u;
    long double sum = 0;
    for (std::size_t k = 0; k < 3; ++k) {
      const long double x = 3 * (v * v * d_[0][k] + 2 * u * v * d_[1][k] + u * u * d_[2][k]);
      sum += x * x;
    }
    return std::sqrt(sum);
  }

 private:
  long double golden_min(long double lo, long double hi) const {
    const long double ratio = (std::sqrt(5.0L) - 1) / 2;
    for (int i = 0; i < 200 && hi - lo > 1e-30L; ++i) {
      const long double a = hi - ratio * (hi - lo), b = lo + ratio * (hi - lo);
      if (speed(a) < speed(b))
        hi = b;
      else
        lo = a;
    }
    return (lo + hi) / 2;
  }

  // tanh–sinh on [a, b], step 1/64 on [−4, 4]: nodes crowd doubly-exponentially to the ends, so
  // an end where the speed has a kink or a steep rise costs no accuracy.
  struct Node {
    long double gap, weight;  // distance from the nearer end on [−1, 1], weight × step
  };
  static const std::vector<Node>& nodes() {
    static const std::vector<Node> table = [] {
      const long double half_pi = 1.5707963267948966192313216916397514L, step = 1.0L / 64;
      std::vector<Node> n;
      for (int k = 0; k <= 256; ++k) {
        const long double tau = k * step, inner = half_pi * std::sinh(tau);
        const long double ch = std::cosh(inner);
        // 1 − tanh(inner) without cancellation: 2 / (exp(2·inner) + 1).
        n.push_back({2 / (std::exp(2 * inner) + 1),
                     (k == 0 ? 0.5L : 1.0L) * step * half_pi * std::cosh(tau) / (ch * ch)});
      }
      return n;
    }();
    return table;
  }
  long double integrate(long double a, long double b) const {
    if (!(b > a)) return 0;
    const long double h = (b - a) / 2;
    long double sum = 0;
    for (const Node& node : nodes()) {  // each node stands for ±τ: one point near each end
      const long double offset = h * node.gap;
      if (offset > 0) sum += node.weight * (speed(a + offset) + speed(b - offset));
    }
    return sum * h;
  }

  std::array<std::array<long double, 3>, 3> d_{};  // P1 − P0, P2 − P1, P3 − P2, padded to 3D
  std::vector<long double> cuts_, cumulative_;
};

}  // namespace tractrix::test
