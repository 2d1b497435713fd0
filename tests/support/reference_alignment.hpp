// Independent references for alignment geometry, in long double and by other methods than the
// library's power series: each horizontal type's heading written out as its own closed-form
// integral, positions by Gauss–Legendre quadrature of (cos, sin) of that heading on short panels
// (nodes found here by Newton on the Legendre recurrence), and Fresnel integrals by their series.
#pragma once

#include <array>
#include <cmath>
#include <vector>

#include "tractrix/alignment/horizontal_segment.hpp"

namespace tractrix::test {

// Gauss–Legendre nodes and weights on [0, 1], n of them, in long double.
class LongGaussLegendre {
 public:
  explicit LongGaussLegendre(int n) {
    const long double pi = 3.141592653589793238462643383279502884L;
    for (int i = 1; i <= n; ++i) {
      long double x = std::cos(pi * (i - 0.25L) / (n + 0.5L)), derivative = 0;
      for (int iteration = 0; iteration < 100; ++iteration) {
        long double p0 = 1, p1 = x;
        for (int k = 2; k <= n; ++k) {
          const long double p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
          p0 = p1;
          p1 = p2;
        }
        derivative = n * (x * p1 - p0) / (x * x - 1);
        const long double step = p1 / derivative;
        x -= step;
        if (std::fabs(step) < 1e-30L) break;
      }
      nodes_.push_back(0.5L * (1 + x));
      weights_.push_back(1 / ((1 - x * x) * derivative * derivative));  // 2/(…) halved
    }
  }
  template <class F>
  long double integrate(F&& f, long double a, long double b) const {
    long double sum = 0;
    for (std::size_t i = 0; i < nodes_.size(); ++i)
      sum += weights_[i] * f(a + (b - a) * nodes_[i]);
    return sum * (b - a);
  }

 private:
  std::vector<long double> nodes_, weights_;
};

// One horizontal segment in long double: its heading and curvature in closed form, its position
// by quadrature.
class ReferenceHorizontal {
 public:
  template <class S>
  explicit ReferenceHorizontal(const HorizontalSegment<S>& g)
      : type_(g.type),
        x0_(g.start_point.x()),
        y0_(g.start_point.y()),
        theta0_(g.start_direction),
        k0_(g.start_radius != 0 ? 1.0L / static_cast<long double>(g.start_radius) : 0.0L),
        k1_(g.end_radius != 0 ? 1.0L / static_cast<long double>(g.end_radius) : 0.0L),
        length_(g.length),
        bend_(type_ == HorizontalType::viennese_bend
                  ? static_cast<long double>(g.gravity_center_height) * g.bank_angle_change
                  : 0.0L) {
    if (type_ == HorizontalType::line) k0_ = k1_ = 0;
    if (type_ == HorizontalType::circular_arc) k1_ = k0_;
  }

  long double curvature(long double s) const {
    const long double u = s / length_, d = k1_ - k0_;
    if (type_ == HorizontalType::cubic) {
      const long double a = cubic_a(), x = cubic_x(s);
      return 6 * a * x / std::pow(1 + 9 * a * a * x * x * x * x, 1.5L);
    }
    switch (type_) {
      case HorizontalType::line:
        return 0;
      case HorizontalType::circular_arc:
        return k0_;
      case HorizontalType::clothoid:
        return k0_ + d * u;
      case HorizontalType::helmert_curve:
        return u <= 0.5L ? k0_ + 2 * d * u * u : k1_ - 2 * d * (1 - u) * (1 - u);
      case HorizontalType::bloss_curve:
        return k0_ + d * u * u * (3 - 2 * u);
      case HorizontalType::cosine_curve:
        return k0_ + d * (1 - std::cos(pi() * u)) / 2;
      case HorizontalType::sine_curve:
        return k0_ + d * (u - std::sin(2 * pi() * u) / (2 * pi()));
      case HorizontalType::viennese_bend:
        // −h ψ''(s): ψ'' = Δψ (420u² − 1680u³ + 2100u⁴ − 840u⁵) / L²
        return k0_ + d * std::pow(u, 4) * (35 - 84 * u + 70 * u * u - 20 * u * u * u) -
               bend_ *
                   (420 * u * u - 1680 * std::pow(u, 3) + 2100 * std::pow(u, 4) -
                    840 * std::pow(u, 5)) /
                   (length_ * length_);
      default:
        return 0;
    }
  }

  // The direction at s: θ0 + ∫_0^s κ, each type's integral worked out by hand.
  long double direction(long double s) const {
    const long double L = length_, u = s / L, d = k1_ - k0_;
    if (type_ == HorizontalType::cubic) {
      const long double a = cubic_a(), x0 = cubic_x(0), x = cubic_x(s);
      return theta0_ + std::atan(3 * a * x * x) - std::atan(3 * a * x0 * x0);
    }
    long double turn = 0;
    switch (type_) {
      case HorizontalType::line:
        break;
      case HorizontalType::circular_arc:
        turn = k0_ * s;
        break;
      case HorizontalType::clothoid:
        turn = k0_ * s + d * s * u / 2;
        break;
      case HorizontalType::helmert_curve:
        if (u <= 0.5L) {
          turn = k0_ * s + 2 * d * L * u * u * u / 3;
        } else {  // the first half's turn at ½ plus ∫_½^u (κ1 − 2Δ(1 − w)²) L dw
          turn = k1_ * s - d * L / 2 + 2 * d * L * std::pow(1 - u, 3) / 3;
        }
        break;
      case HorizontalType::bloss_curve:
        turn = k0_ * s + d * L * (std::pow(u, 3) - std::pow(u, 4) / 2);
        break;
      case HorizontalType::cosine_curve:
        turn = k0_ * s + d * (s - L / pi() * std::sin(pi() * u)) / 2;
        break;
      case HorizontalType::sine_curve:
        turn = k0_ * s + d * L * (u * u / 2 + (std::cos(2 * pi() * u) - 1) / (4 * pi() * pi()));
        break;
      case HorizontalType::viennese_bend:
        // the term −h ψ''(s) turns the heading by −h ψ'(s) = −h Δψ · 140u³(1 − u)³ / L
        turn = k0_ * s + d * L * std::pow(u, 5) * (7 - 14 * u + 10 * u * u - 2.5L * u * u * u) -
               bend_ * 140 * std::pow(u * (1 - u), 3) / L;
        break;
      default:
        break;
    }
    return theta0_ + turn;
  }

  // The position at s: the start plus ∫_0^s (cos, sin) of the direction, by 24-point
  // Gauss–Legendre on panels each turning at most 0.05 rad, split at the Helmert curve's middle
  // (where its curvature's second derivative jumps).
  std::array<long double, 2> position(long double s) const {
    std::array<long double, 2> p{x0_, y0_};
    if (type_ == HorizontalType::cubic) {
      // The parabola's point at x(s), relative to x0's, turned from its tangent there to θ0.
      const long double a = cubic_a(), x0 = cubic_x(0), x = cubic_x(s);
      const long double dx = x - x0, dy = a * (x * x * x - x0 * x0 * x0);
      const long double turn = theta0_ - std::atan(3 * a * x0 * x0);
      return {x0_ + std::cos(turn) * dx - std::sin(turn) * dy,
              y0_ + std::sin(turn) * dx + std::cos(turn) * dy};
    }
    const long double middle = length_ / 2;
    if (type_ == HorizontalType::helmert_curve && s > middle) {
      add(p, 0, middle);
      add(p, middle, s);
    } else {
      add(p, 0, s);
    }
    return p;
  }

  // The point at `to` from the point `at` at `from` <= to (not for the cubic parabola): the same
  // quadrature over [from, to] only, for a caller walking the segment in order.
  std::array<long double, 2> position_after(std::array<long double, 2> at, long double from,
                                            long double to) const {
    const long double middle = length_ / 2;
    if (type_ == HorizontalType::helmert_curve && from < middle && to > middle) {
      add(at, from, middle);
      add(at, middle, to);
    } else {
      add(at, from, to);
    }
    return at;
  }

  static long double pi() { return 3.141592653589793238462643383279502884L; }

 private:
  // The cubic parabola y = a x³, a = Δκ / 6L, entered at x0 = κ0 L / Δκ.
  long double cubic_a() const { return (k1_ - k0_) / (6 * length_); }
  // Its abscissa after arc length s from x0: Newton on the arc length, itself by 24-point
  // Gauss–Legendre of sqrt(1 + 9a²x⁴) on 16 panels.
  long double cubic_x(long double s) const {
    static const LongGaussLegendre rule(24);
    const long double a = cubic_a(), x0 = k0_ * length_ / (k1_ - k0_);
    const auto speed = [a](long double x) { return std::sqrt(1 + 9 * a * a * x * x * x * x); };
    const auto arc = [&](long double x) {
      long double sum = 0;
      for (int i = 0; i < 16; ++i)
        sum += rule.integrate(speed, x0 + (x - x0) * i / 16, x0 + (x - x0) * (i + 1) / 16);
      return sum;
    };
    long double x = x0 + s;
    for (int i = 0; i < 60; ++i) {
      const long double step = (arc(x) - s) / speed(x);
      x -= step;
      if (std::fabs(step) < 1e-30L) break;
    }
    return x;
  }

  void add(std::array<long double, 2>& p, long double from, long double to) const {
    static const LongGaussLegendre rule(24);
    const long double largest = std::max(std::fabs(k0_), std::fabs(k1_)) * 1.5L + 1e-30L;
    const int panels = 1 + static_cast<int>((to - from) * largest / 0.05L);
    for (int i = 0; i < panels; ++i) {
      const long double a = from + (to - from) * i / panels,
                        b = from + (to - from) * (i + 1) / panels;
      p[0] += rule.integrate([&](long double t) { return std::cos(direction(t)); }, a, b);
      p[1] += rule.integrate([&](long double t) { return std::sin(direction(t)); }, a, b);
    }
  }

  HorizontalType type_;
  long double x0_, y0_, theta0_, k0_, k1_, length_;
  long double bend_;  // the Viennese bend's h·Δψ
};

// The clothoid from straight (κ = 0 at its start, along +x from the origin) with κ = s / A²: its
// point at s by the Fresnel series x = Σ (−1)^n s^(4n+1) / ((4n+1)(2n)! (2A²)^(2n)),
// y = Σ (−1)^n s^(4n+3) / ((4n+3)(2n+1)! (2A²)^(2n+1)), in long double.
inline std::array<long double, 2> fresnel_clothoid(long double s, long double a_squared) {
  const long double t = s * s / (2 * a_squared);  // the heading at s
  long double x = 0, y = 0, term = s;             // term = s t^k / k!
  for (int k = 0; k < 60; ++k) {
    const long double part = term / (2 * k + 1);
    if (k % 4 == 0) x += part;
    if (k % 4 == 1) y += part;
    if (k % 4 == 2) x -= part;
    if (k % 4 == 3) y -= part;
    term *= t / (k + 1);
  }
  return {x, y};
}

}  // namespace tractrix::test
