#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "support/catch.hpp"
#include "support/properties.hpp"
#include "support/reference_arc_length.hpp"
#include "support/shapes.hpp"
#include "tractrix/curve/arc_length.hpp"
#include "tractrix/curve/measured_path.hpp"

using namespace tractrix;
using namespace tractrix::test;

namespace {

// A straight line of length L along a fixed direction, with control points at 0, 0.05L, 0.2L, L:
// the speed is very uneven but never reverses, so s(t) = x(t), in closed form.
template <class S>
Path<S, 3> uneven_line(S length) {
  const Vector3<S> dir = Vector3<S>(1, 2, 2) / S(3);
  const Bezier<S, 3, 3> b{
      {Vector3<S>::Zero(), S(0.05) * length * dir, S(0.2) * length * dir, length * dir}};
  return *Path<S, 3>::from_segments({b}, Closure::open);
}

template <class S>
S uneven_line_distance(S length, S t) {
  const S v = S(1) - t;
  return length * (S(3) * t * v * v * S(0.05) + S(3) * t * t * v * S(0.2) + t * t * t);
}

// y = x² for x in [−a, a], a quadratic Bézier (−a, a²), (0, −a²), (a, a²) raised to degree 3.
// x runs linearly in u, and s(x) = F(x) − F(−a) with F(x) = x/2·√(1+4x²) + asinh(2x)/4.
template <class S>
Path<S, 2> parabola(S a, S scale = S(1)) {
  using V = Vector2<S>;
  const V q0(-a, a * a), q1(0, -a * a), q2(a, a * a);
  const Bezier<S, 2, 3> b{
      {scale * q0, scale * (q0 + S(2) * q1) / S(3), scale * (S(2) * q1 + q2) / S(3), scale * q2}};
  return *Path<S, 2>::from_segments({b}, Closure::open);
}

long double parabola_primitive(long double x) {
  return x / 2 * std::sqrt(1 + 4 * x * x) + std::asinh(2 * x) / 4;
}

// Independent reference length: composite Simpson on |r'(t)| from de_casteljau, in long double.
template <class S, int D>
long double simpson_length(const Path<S, D>& path, S t0, S t1, int panels) {
  const long double h = (static_cast<long double>(t1) - t0) / panels;
  long double sum = 0;
  for (int i = 0; i <= 2 * panels; ++i) {
    const long double t = t0 + h * i / 2;
    const long double w = (i == 0 || i == 2 * panels) ? 1 : (i % 2 ? 4 : 2);
    sum += w * path.evaluate(static_cast<S>(t)).tangent.template cast<long double>().norm();
  }
  return sum * h / 6;
}

}  // namespace

TEMPLATE_TEST_CASE("Gauss-Legendre tables give closed-form lengths and distances",
                   "[curve][arc_length]", float, double) {
  using S = TestType;
  const S length = S(37.5);
  const auto line = uneven_line(length);
  const auto table = ArcLengthTable<S>::build(line);
  REQUIRE(table);
  CHECK(std::abs(table->length() - length) <= contract<S>(1e-12) * length);
  for (S t = S(0); t <= S(1); t += S(1) / S(97)) {
    CHECK(std::abs(table->distance_at(t) - uneven_line_distance(length, t)) <=
          contract<S>(1e-12) * length);
  }

  const S a = S(2);
  const auto curve = parabola(a);
  const auto ptable = ArcLengthTable<S>::build(curve);
  REQUIRE(ptable);
  const long double exact = 2 * parabola_primitive(a);
  CHECK(std::abs(ptable->length() - exact) <= contract<S>(1e-12) * exact);
  for (S t = S(0); t <= S(1); t += S(1) / S(89)) {
    const long double x = -a + 2 * a * static_cast<long double>(t);
    const long double s = parabola_primitive(x) - parabola_primitive(-a);
    CHECK(std::abs(ptable->distance_at(t) - s) <= contract<S>(1e-12) * exact);
  }
}

TEMPLATE_TEST_CASE("parameter_at inverts the closed-form arc length", "[curve][arc_length]", float,
                   double) {
  using S = TestType;
  const S length = S(37.5);
  const auto line = uneven_line(length);
  const auto table = *ArcLengthTable<S>::build(line, {4});
  const S a = S(2);
  const auto curve = parabola(a);
  const auto ptable = *ArcLengthTable<S>::build(curve, {4});
  for (int i = 0; i <= 200; ++i) {
    const S s = length * S(i) / S(200);
    const S t = table.parameter_at(s);
    CHECK(std::abs(uneven_line_distance(length, t) - s) <= contract<S>(1e-12) * length);
    const S ps = ptable.length() * S(i) / S(200);
    const S pt = ptable.parameter_at(ps);
    const long double x = -a + 2 * a * static_cast<long double>(pt);
    CHECK(std::abs(parabola_primitive(x) - parabola_primitive(-a) - ps) <=
          contract<S>(1e-12) * ptable.length());
  }
}

TEMPLATE_TEST_CASE("exact tables do not depend on the sample count", "[curve][arc_length]", float,
                   double) {
  using S = TestType;
  auto rng = make_rng(31);
  const auto path = *Path<S, 3>::catmull_rom(random_loop_points<S>(rng, 9, S(20)), Closure::closed);
  const auto reference = *ArcLengthTable<S>::build(path, {1});
  for (int k : {2, 5, 16, 256}) {
    const auto table = *ArcLengthTable<S>::build(path, {k});
    CHECK(std::abs(table.length() - reference.length()) <= contract<S>(1e-13) * reference.length());
    for (S t = S(0); t < path.end_parameter(); t += S(0.37)) {
      CHECK(std::abs(table.distance_at(t) - reference.distance_at(t)) <=
            contract<S>(1e-13) * reference.length());
    }
  }
  // And they agree with an independent Simpson integration of |r'| (4000 panels a segment).
  long double simpson = 0;
  for (std::size_t i = 0; i < path.size(); ++i)
    simpson += simpson_length(path, S(i), S(i + 1), 4000);
  CHECK(std::abs(reference.length() - simpson) <= contract<S>(1e-12) * simpson);
}

TEMPLATE_TEST_CASE("a path of zero length is refused by the table as by the measured path",
                   "[curve][arc_length]", float, double) {
  using S = TestType;
  // Every control point at one place: a path with no direction to move in.
  const Vector3<S> p(S(3), S(-2), S(7));
  const auto path = *Path<S, 3>::from_segments({Bezier<S, 3, 3>{{p, p, p, p}}}, Closure::open);
  for (const ArcLengthMethod method : {ArcLengthMethod::gauss_legendre, ArcLengthMethod::chord}) {
    for (const int density : {0, 1, 16}) {
      const auto table = ArcLengthTable<S>::build(path, {density, method});
      REQUIRE_FALSE(table.has_value());
      CHECK(table.error().code == ErrorCode::out_of_range);
      CHECK(table.error().message == "path: zero length (all control points equal)");
    }
  }
  const auto measured = MeasuredPath<S>::build(path);
  REQUIRE_FALSE(measured.has_value());
  CHECK(measured.error().message == "path: zero length (all control points equal)");
}

TEST_CASE("chord tables converge as O(h^2)", "[curve][arc_length]") {
  const auto curve = parabola(2.0);
  const long double exact = 2 * parabola_primitive(2.0L);
  double previous_error = 0;
  // The O(h²) term dominates once the chords resolve the curvature (k >= 8 here).
  for (int k : {8, 16, 32, 64, 128, 256}) {
    const auto table = *ArcLengthTable<double>::build(curve, {k, ArcLengthMethod::chord});
    const double error = static_cast<double>(exact - table.length());
    CHECK(error > 0);  // chords are shorter than the arc
    if (previous_error > 0) {
      INFO("k = " << k << ", error ratio " << previous_error / error);
      CHECK(previous_error / error > 3.6);
      CHECK(previous_error / error < 4.4);
    }
    previous_error = error;
  }
}

TEMPLATE_TEST_CASE("parameter_at_linear is the lecture's monotone, continuous lookup",
                   "[curve][arc_length]", float, double) {
  using S = TestType;
  auto rng = make_rng(37);
  for (auto method : {ArcLengthMethod::chord, ArcLengthMethod::gauss_legendre}) {
    const auto path = *Path<S, 3>::catmull_rom(random_loop_points<S>(rng, 6, S(10)), Closure::open);
    const auto table = *ArcLengthTable<S>::build(path, {8, method});
    const S length = table.length();
    // At the entries the lookup is exact: entry i holds t = i/8.
    for (std::size_t i = 0; i < table.distances().size(); i += 3)
      CHECK(std::abs(table.parameter_at_linear(table.distances()[i]) - S(i) / S(8)) <=
            S(8) * eps<S>() * S(6));
    // Monotone, and continuous: a step ds moves t by at most ds / (smallest table slope).
    S min_slope = std::numeric_limits<S>::max();
    for (std::size_t i = 0; i + 1 < table.distances().size(); ++i)
      min_slope = std::min(min_slope, (table.distances()[i + 1] - table.distances()[i]) * S(8));
    S previous = table.parameter_at_linear(S(0));
    const int steps = 5000;
    for (int i = 1; i <= steps; ++i) {
      const S t = table.parameter_at_linear(length * S(i) / S(steps));
      CHECK(t >= previous);
      CHECK(t - previous <= (length / S(steps)) / min_slope * S(1.001) + S(16) * eps<S>());
      previous = t;
    }
    // The distance_at of this table inverts parameter_at (chord: exactly; exact mode: to the
    // interpolation error, which parameter_at removes).
    if (method == ArcLengthMethod::chord) {
      for (S s = S(0); s < length; s += length / S(77))
        CHECK(std::abs(table.distance_at(table.parameter_at_linear(s)) - s) <=
              S(64) * eps<S>() * length);
    }
    // Ends: open paths clamp, NaN lands at the start.
    CHECK(table.parameter_at_linear(-length) == S(0));
    CHECK(table.parameter_at_linear(length) == path.end_parameter());
    CHECK(table.parameter_at_linear(S(2) * length) == path.end_parameter());
    CHECK(table.parameter_at_linear(std::numeric_limits<S>::quiet_NaN()) == S(0));
  }
}

TEMPLATE_TEST_CASE("parameter_at is exact on random paths and wraps closed ones",
                   "[curve][arc_length][property]", float, double) {
  using S = TestType;
  auto rng = make_rng(41);
  for (int n = 0; n < property_count(20); ++n) {
    const bool closed = n % 2 == 0;
    const auto path = *Path<S, 3>::catmull_rom(random_loop_points<S>(rng, 5 + n % 4, S(30)),
                                               closed ? Closure::closed : Closure::open);
    const auto table = *ArcLengthTable<S>::build(path, {1 + n % 16});
    const S length = table.length();
    for (int i = 0; i < 50; ++i) {
      const S s = uniform<S>(rng, S(0), length);
      const S t = table.parameter_at(s);
      INFO("case " << n << ", s = " << s);
      CHECK(std::abs(table.distance_at(t) - s) <= contract<S>(1e-12) * length);
      // Never leaves the table interval that brackets s.
      const S t_lookup = table.parameter_at_linear(s);
      CHECK(std::abs(t - t_lookup) <= S(1) / S(table.samples_per_segment()));
      if (closed) {
        CHECK(std::abs(table.parameter_at(s + length) - t) <= S(64) * eps<S>() * S(8));
        CHECK(std::abs(table.parameter_at(s - S(3) * length) - t) <= S(256) * eps<S>() * S(8));
      }
    }
    if (!closed) {
      CHECK(table.parameter_at(-S(1)) == S(0));
      CHECK(table.parameter_at(S(2) * length) == path.end_parameter());
    }
  }
}

TEMPLATE_TEST_CASE("the cursor inverse is exact and does not depend on the cursor",
                   "[curve][arc_length][property]", float, double) {
  using S = TestType;
  auto rng = make_rng(43);
  for (int n = 0; n < property_count(20); ++n) {
    const auto path = *Path<S, 3>::catmull_rom(random_loop_points<S>(rng, 5 + n % 4, S(30)),
                                               n % 2 == 0 ? Closure::closed : Closure::open);
    const auto table = *ArcLengthTable<S>::build(path, {1 + n % 16});
    const S length = table.length();
    const auto& entries = table.distances();
    for (int i = 0; i < 50; ++i) {
      // Random distances and distances exactly on entries (where two intervals meet; the last
      // entry is the length, which a closed path wraps to 0).
      const S s = i % 2 == 0 ? uniform<S>(rng, S(0), length)
                             : entries[static_cast<std::size_t>(i) % (entries.size() - 1)];
      std::size_t from_start = 0, from_end = entries.size(), near = 0;
      const S t = table.parameter_at(s, from_start);
      INFO("case " << n << ", s = " << s);
      CHECK(std::abs(table.distance_at(t) - s) <= contract<S>(1e-12) * length);
      CHECK(table.parameter_at(s, from_end) == t);
      (void)table.parameter_at(s - S(0.01) * length, near);  // a cursor just behind
      CHECK(table.parameter_at(s, near) == t);
      CHECK(from_start == from_end);
    }
  }
}

TEMPLATE_TEST_CASE("scaling the curve by 1e-6 or 1e6 leaves relative results unchanged",
                   "[curve][arc_length]", float, double) {
  using S = TestType;
  auto rng = make_rng(43);
  const auto points = random_loop_points<S>(rng, 6, S(1));
  const auto path = *Path<S, 3>::catmull_rom(points, Closure::closed);
  const auto table = *ArcLengthTable<S>::build(path);
  for (S scale : {S(1e-6), S(1e6)}) {
    std::vector<Vector3<S>> scaled;
    for (const auto& p : points)
      scaled.push_back(scale * p);
    const auto big = *Path<S, 3>::catmull_rom(scaled, Closure::closed);
    const auto big_table = *ArcLengthTable<S>::build(big);
    CHECK(std::abs(big_table.length() / scale - table.length()) <=
          contract<S>(1e-13) * table.length());
    for (int i = 0; i < 40; ++i) {
      const S f = S(i) / S(40);
      CHECK(std::abs(big_table.parameter_at(f * big_table.length()) -
                     table.parameter_at(f * table.length())) <= contract<S>(1e-12) * S(6));
    }
  }
}

TEMPLATE_TEST_CASE("distance_at never passes the length", "[curve][arc_length]", float, double) {
  using S = TestType;
  // Open paths: the last entry's distance plus the rest of the segment rounded an ulp past the
  // compensated length on 26 of 200 float paths.
  auto rng = make_rng(211);
  for (int trial = 0; trial < 200; ++trial) {
    const auto table = *ArcLengthTable<S>::build(
        *Path<S, 3>::catmull_rom(random_loop_points<S>(rng, 4, S(10)), Closure::open));
    const S end = S(3);
    INFO("trial " << trial);
    CHECK(table.distance_at(end) <= table.length());
    CHECK(table.distance_at(end) >= table.length() * (S(1) - S(4) * eps<S>()));
    CHECK(table.distance_at(std::nextafter(end, S(0))) <= table.length());
  }
}

TEMPLATE_TEST_CASE("paths too small for their squared speeds are refused, not mismeasured",
                   "[curve][arc_length][errors]", float, double) {
  using S = TestType;
  using V = Vector3<S>;
  // A straight cubic from 0 to 3·scale with uneven handles (its speed varies ninefold): length
  // 3·scale, exactly. Its squared speeds are subnormal from about 1e-154 (float 1e-19) and the
  // length came out 5e-6 short at 1e-160 and 0 ("all control points equal") at 1e-200 (float
  // 1e-20). Measured down to √(smallest normal / eps), refused below it.
  const bool is_float = std::is_same<S, float>::value;
  const S smallest = std::sqrt(std::numeric_limits<S>::min() / eps<S>());
  for (const S scale :
       {S(is_float ? 1e-15 : 1e-145), S(is_float ? 1e-20 : 1e-160), S(is_float ? 1e-30 : 1e-200)}) {
    INFO("scale " << scale);
    const auto path = Path<S, 3>::from_segments(
        {Bezier<S, 3, 3>{
            {V(0, 0, 0), V(S(0.1) * scale, 0, 0), V(S(2.9) * scale, 0, 0), V(S(3) * scale, 0, 0)}}},
        Closure::open);
    const auto measured = MeasuredPath<S>::build(path);
    if (S(3) * scale >= smallest) {
      REQUIRE(measured);
      CHECK(std::abs(measured->length() - S(3) * scale) <= S(64) * eps<S>() * S(3) * scale);
      CHECK(std::abs(measured->parameter_at(measured->length() / S(2)) - S(0.5)) <=
            contract<S>(1e-12));
    } else {
      REQUIRE_FALSE(measured);
      CHECK(measured.error().code == ErrorCode::out_of_range);
      CHECK(measured.error().message.rfind("path: " + detail::number_text(double(S(3) * scale)) +
                                               " across, too small to measure",
                                           0) == 0);
    }
  }
}

TEMPLATE_TEST_CASE("cusps and zero-speed ends stay exact and finite", "[curve][arc_length]", float,
                   double) {
  using S = TestType;
  using V = Vector2<S>;
  // (0,0), (1,1), (0,1), (1,0): r'(1/2) = 0, a cusp at u = 1/2.
  const Bezier<S, 2, 3> cusp{{V(0, 0), V(1, 1), V(0, 1), V(1, 0)}};
  const auto path = *Path<S, 2>::from_segments({cusp}, Closure::open);
  CHECK(de_casteljau(cusp, S(0.5)).tangent.norm() <= S(4) * eps<S>());
  // r'(u) = 3v·(v, 1) with v = 1 − 2u, so s(u) = ½(2^{3/2} − (v² + 1)^{3/2}) up to the cusp and
  // the length is 2√2 − 1: a closed form, not the table's own quadrature.
  const auto exact_distance = [](long double u) {
    const long double v = 1 - 2 * u, rise = std::pow(v * v + 1, 1.5L), top = std::pow(2.0L, 1.5L);
    return v >= 0 ? (top - rise) / 2 : (top - 1) / 2 + (rise - 1) / 2;
  };
  const long double length = exact_distance(1);
  for (int k : {1, 2, 3, 16}) {
    const auto table = *ArcLengthTable<S>::build(path, {k});
    CHECK(std::fabs(table.length() - length) <= contract<S>(1e-12) * length);
    std::size_t cursor = 0;
    for (int i = 0; i <= 64; ++i) {
      const S s = table.length() * S(i) / S(64);
      const S t = table.parameter_at(s);
      CHECK(std::isfinite(t));
      CHECK(std::fabs(exact_distance(t) - s) <= contract<S>(1e-12) * length);
      CHECK(std::fabs(exact_distance(table.parameter_at(s, cursor)) - s) <=
            contract<S>(1e-12) * length);
      const S u = S(i) / S(64);
      CHECK(std::fabs(table.distance_at(u) - exact_distance(u)) <= contract<S>(1e-12) * length);
    }
  }
  // P0 = P1: the speed is zero at t = 0; parameter_at near 0 still converges.
  const Bezier<S, 2, 3> flat_start{{V(0, 0), V(0, 0), V(1, 1), V(2, 0)}};
  const auto start = *Path<S, 2>::from_segments({flat_start}, Closure::open);
  const auto table = *ArcLengthTable<S>::build(start, {4});
  for (S s : {S(0), S(1e-9), S(1e-4), S(0.01)}) {
    const S t = table.parameter_at(s * table.length());
    CHECK(std::isfinite(t));
    CHECK(std::abs(table.distance_at(t) - s * table.length()) <=
          contract<S>(1e-12) * table.length());
  }
}

TEMPLATE_TEST_CASE("zero-length segments and bad sample counts", "[curve][arc_length][errors]",
                   float, double) {
  using S = TestType;
  using V = Vector3<S>;
  // Zero tangents: a zero-length segment, a straight one of length 5 with zero speed at both
  // ends, and another zero-length one.
  const std::vector<V> keys{V(0, 0, 0), V(0, 0, 0), V(3, 4, 0), V(3, 4, 0)};
  const auto path =
      *Path<S, 3>::from_hermite_keys(keys, std::vector<V>(4, V::Zero()), Closure::open);
  for (auto method : {ArcLengthMethod::chord, ArcLengthMethod::gauss_legendre}) {
    const auto table = *ArcLengthTable<S>::build(path, {8, method});
    CHECK(std::abs(table.length() - S(5)) <= S(64) * eps<S>() * S(5));
    for (S s = S(-1); s <= S(6); s += S(0.125)) {
      CHECK(std::isfinite(table.parameter_at_linear(s)));
      CHECK(std::isfinite(table.parameter_at(s)));
    }
  }
  const auto negative = ArcLengthTable<S>::build(path, {-1});
  REQUIRE_FALSE(negative);
  CHECK(negative.error().code == ErrorCode::out_of_range);
  CHECK(negative.error().message ==
        "samples_per_segment: -1 not in [1, 1048576] (or 0, automatic)");
  CHECK_FALSE(ArcLengthTable<S>::build(path, {(1 << 20) + 1}));
}

TEMPLATE_TEST_CASE("length_scale measures a short path to the accuracy of a longer one",
                   "[curve][arc_length]", float, double) {
  using S = TestType;
  using V = Vector3<S>;
  // A straight segment along x whose speed runs from 3 to 25.5 (control points 0, 1, 1.5, 10):
  // the distance at u is x(u) itself, so the inverse's error is |x(t) − s|, against the
  // Bernstein form in long double. A network's piece measured against the network's length:
  // 1e-12 of 10⁵ units, not of this piece's 10.
  const auto path = *Path<S, 3>::from_segments(
      {CubicBezier<S, 3>{{V(0, 0, 0), V(1, 0, 0), V(S(1.5), 0, 0), V(10, 0, 0)}}}, Closure::open);
  const auto x = [](long double u) {
    const long double w = 1 - u;
    return 3 * w * w * u + 3 * w * u * u * 1.5L + u * u * u * 10;
  };
  const S scale = S(1e5);
  const auto own = *ArcLengthTable<S>::build(path);
  const auto scaled = *ArcLengthTable<S>::build(path, {0, ArcLengthMethod::gauss_legendre, 1e5});
  CHECK(std::abs(scaled.length() - S(10)) <= S(16) * eps<S>() * S(10));
  // Coarser, the point of it: 126 entries → 31 in double, 9 → 4 in float.
  CHECK(scaled.entry_count() < own.entry_count());
  // The length each table's tolerance is relative to: its own 10, or the 10⁵ it was given.
  CHECK(std::abs(own.accuracy_length() - S(10)) <= S(16) * eps<S>() * S(10));
  CHECK(scaled.accuracy_length() == scale);
  long double worst_own = 0, worst_scaled = 0;
  for (int i = 0; i <= 1000; ++i) {
    const S s = S(10) * S(i) / S(1000);
    worst_own = std::max(worst_own, std::fabs(x(own.parameter_at(s)) - s));
    worst_scaled = std::max(worst_scaled, std::fabs(x(scaled.parameter_at(s)) - s));
  }
  CHECK(worst_own <= contract<S>(1e-12) * S(10));
  CHECK(worst_scaled <= contract<S>(1e-12) * scale);
  // One entry a segment on a gentle 35-unit segment, the scale a few lengths (float) or 10⁹
  // units (double) out: the quintic's error there changes sign near the thirds, where the
  // build samples it, and peaks at the middle, 1.2 times the promise until the build checked
  // the middle and quarters of such coarse intervals too. Against the long-double reference.
  const CubicBezier<S, 3> gentle{{V(0, S(-2.8199), 0), V(S(8.9323), S(-2.7888), S(-3.5271)),
                                  V(S(19.3642), S(-3.1637), S(-13.4050)),
                                  V(S(28.5996), S(-2.2447), S(-19.3672))}};
  const test::ReferenceArcLength reference(gentle);
  const double far = std::is_same<S, double>::value ? 1.3e9 : 170.0;
  const auto coarse = *ArcLengthTable<S>::build(*Path<S, 3>::from_segments({gentle}, Closure::open),
                                                {1, ArcLengthMethod::gauss_legendre, far});
  long double worst_coarse = 0;
  for (int i = 0; i <= 2000; ++i) {
    const S s = coarse.length() * S(i) / S(2000);
    worst_coarse =
        std::max(worst_coarse, std::fabs(reference.distance(coarse.parameter_at(s)) - s));
  }
  CHECK(worst_coarse <= contract<S>(1e-12) * S(far));
  // Not a length: negative, NaN, infinite, or beyond float's range.
  for (double bad : {-1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
    const auto refused = ArcLengthTable<S>::build(path, {0, ArcLengthMethod::gauss_legendre, bad});
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code == ErrorCode::out_of_range);
  }
  CHECK(bool(ArcLengthTable<S>::build(path, {0, ArcLengthMethod::gauss_legendre, 1e300})) ==
        std::is_same<S, double>::value);
  CHECK(
      ArcLengthTable<S>::build(path, {0, ArcLengthMethod::gauss_legendre, -1.0}).error().message ==
      "length_scale: -1 is not a finite length >= 0 in this scalar type");
  // A chord table has no tolerance to scale: the setting is refused, not ignored.
  const auto chord = ArcLengthTable<S>::build(path, {0, ArcLengthMethod::chord, 100.0});
  REQUIRE_FALSE(chord);
  CHECK(chord.error().code == ErrorCode::out_of_range);
  CHECK(chord.error().message ==
        "length_scale: 100 given to a chord table (it sets the exact "
        "table's tolerance; chord tables have none)");
  CHECK(bool(ArcLengthTable<S>::build(path, {0, ArcLengthMethod::chord, 0.0})));
}

TEMPLATE_TEST_CASE("long tables sum their intervals without drift", "[curve][arc_length]", float,
                   double) {
  using S = TestType;
  // 4096 straight segments along x: the length is the last point minus the first, exactly (the
  // pieces telescope), whatever each piece rounds to. 65 536 intervals summed naively drift by
  // ~√n half-ulps of the total (~60 ulps); compensated, the total is within an ulp or two.
  std::vector<typename Path<S, 3>::Segment> segments;
  S x = S(0);
  for (int k = 0; k < 4096; ++k) {
    const S next = static_cast<S>(0.1234567 * (k + 1));
    typename Path<S, 3>::Segment segment;
    for (int i = 0; i < 4; ++i)
      segment.points[static_cast<std::size_t>(i)] =
          Vector3<S>(x + (next - x) * S(i) / S(3), S(0), S(0));
    segment.points[3].x() = next;
    segments.push_back(segment);
    x = next;
  }
  const auto path = *Path<S, 3>::from_segments(segments, Closure::open);
  for (const ArcLengthMethod method : {ArcLengthMethod::gauss_legendre, ArcLengthMethod::chord}) {
    const auto table = *ArcLengthTable<S>::build(path, {16, method});
    CHECK(std::abs(table.length() - x) <= S(2) * eps<S>() * x);
  }
}

TEMPLATE_TEST_CASE("automatic density does not refine what it cannot measure",
                   "[curve][arc_length]", float, double) {
  using S = TestType;
  // Zero length (0/0 misses) and overflowing lengths used to halve every segment 256 times
  // before the error: 2.8 GB for 10^5 equal keys. Zero length is refused from the control
  // points, before any entry is built.
  const std::vector<Vector3<S>> same(2000, Vector3<S>(S(1), S(2), S(3)));
  const auto point = *Path<S, 3>::catmull_rom(same, Closure::open);
  CHECK(ArcLengthTable<S>::build(point).error().message ==
        "path: zero length (all control points equal)");
  const S huge = std::numeric_limits<S>::max() / S(4);
  const auto far = *Path<S, 3>::catmull_rom(
      {Vector3<S>(-huge, S(0), S(0)), Vector3<S>(huge, huge, S(0)), Vector3<S>(-huge, huge, S(0))},
      Closure::open);
  CHECK(ArcLengthTable<S>::build(far).error().code == ErrorCode::non_finite);
}

TEMPLATE_TEST_CASE("a chord table where r'' overflows answers finite and in range",
                   "[curve][arc_length]", float, double) {
  using S = TestType;
  using V = Vector3<S>;
  // Inner control points max/30 out and back: |r'| stays finite at the ends, r'' = 2·q·u + q1
  // does not, and the inverse's t'' was NaN there — every parameter_at on the interval NaN (a
  // fuzzed Kochanek–Bartels loop with bias 1e300 found it). The chords are finite, so the lecture's
  // chord table builds; its inverse must stay a monotone map onto the segment.
  const S big = std::numeric_limits<S>::max() / S(30);
  const Bezier<S, 3, 3> spike{{V(0, 0, 0), V(0, big, 0), V(0, -big, 0), V(1, 0, 0)}};
  const auto path = *Path<S, 3>::from_segments({spike}, Closure::open);
  const auto table = ArcLengthTable<S>::build(path, {1, ArcLengthMethod::chord});
  REQUIRE(table);
  S previous = S(0);
  for (int k = 0; k <= 16; ++k) {
    const S s = table->length() * S(k) / S(16);
    const S t = table->parameter_at(s);
    INFO("s " << s << ", t " << t);
    CHECK(std::isfinite(t));
    CHECK(t >= previous);
    CHECK(t <= S(1));
    previous = t;
  }
  CHECK(table->parameter_at(S(0)) == S(0));
  CHECK(table->parameter_at(table->length()) == S(1));
  // A denser table samples the spike itself: its chords overflow, an error.
  CHECK(ArcLengthTable<S>::build(path, {4, ArcLengthMethod::chord}).error().code ==
        ErrorCode::non_finite);
}

TEST_CASE("a long float path keeps each entry's distance that of its stored parameter",
          "[curve][arc_length]") {
  // Past segment 2^15, segment + u rounds to 2^-8 in float: an entry halved below that stored a
  // rounded parameter beside the distance of the unrounded one (1e-2 of the length off, equal
  // parameters). 70 000 short straight segments, then one curvy cubic.
  using S = float;
  using V = Vector3<S>;
  std::vector<Bezier<S, 3, 3>> segments;
  for (int i = 0; i < 70000; ++i) {
    const S x = S(i) * S(1e-3);
    segments.push_back(
        {{V(x, 0, 0), V(x + S(1e-3) / 3, 0, 0), V(x + S(2e-3) / 3, 0, 0), V(x + S(1e-3), 0, 0)}});
  }
  const V start = segments.back().points[3];
  const Bezier<S, 3, 3> curvy{
      {start, start + V(30, 40, 0), start + V(-20, 45, 10), start + V(10, 0, 5)}};
  segments.push_back(curvy);
  const auto path = *Path<S, 3>::from_segments(segments, Closure::open);
  const auto table = *ArcLengthTable<S>::build(path);
  const ReferenceArcLength reference(curvy);
  const std::size_t last = path.size() - 1;
  std::size_t first = table.entry_count();
  while (first > 0 && table.entry_parameter(first - 1) >= S(static_cast<double>(last)))
    --first;
  const long double before = table.distances()[first];
  const long double tolerance = contract<S>(1e-12) * table.length();
  CHECK(table.entry_count() - first > 1);  // the cubic was refined
  for (std::size_t e = first; e < table.entry_count(); ++e) {
    CHECK(table.entry_parameter(e) < table.entry_parameter(e + 1));
    const long double u = static_cast<long double>(table.entry_parameter(e)) - last;
    CHECK(std::fabs(table.distances()[e] - before - reference.distance(u)) <= tolerance);
    CHECK(std::fabs(table.distance_at(table.entry_parameter(e)) - table.distances()[e]) <=
          tolerance);
  }
}

TEMPLATE_TEST_CASE("automatic density places entries where the curve needs them",
                   "[curve][arc_length]", float, double) {
  using S = TestType;
  // 64 keys round a circle: each segment turns 5.6°, one quintic inverse per segment meets the
  // tolerance, and the table is small: under 200 bytes a segment in double, 100 in float.
  const auto circle_path = circle<S>(S(100), 64);
  const auto gentle = *ArcLengthTable<S>::build(circle_path);
  CHECK(gentle.samples_per_segment() == 0);
  CHECK(gentle.entry_count() == circle_path.size());
  CHECK(gentle.memory_bytes() <= (sizeof(S) == 8 ? 200u : 100u) * circle_path.size());
  // Hairpins through a zigzag of keys: Catmull–Rom segments that slow down and turn sharply.
  // Their slow middles need entries (double's 1e-12; float's 64 eps needs fewer), their ends
  // fewer; every segment is halved only where it must be, at most 256 times.
  std::vector<Vector3<S>> zigzag;
  for (int k = 0; k < 16; ++k)
    zigzag.emplace_back(S(4) * S(k), S(0), k % 2 ? S(6) : S(-6));
  const auto zigzag_path = *Path<S, 3>::catmull_rom(zigzag, Closure::open);
  const auto curvy = *ArcLengthTable<S>::build(zigzag_path);
  if (std::is_same<S, double>::value) CHECK(curvy.entry_count() > 2 * zigzag_path.size());
  CHECK(curvy.entry_count() <= 256 * zigzag_path.size());
  // Entries ascend in parameter and distance, each segment's first at its start.
  for (const auto* table : {&gentle, &curvy}) {
    for (std::size_t e = 0; e < table->entry_count(); ++e) {
      CHECK(table->entry_parameter(e) < table->entry_parameter(e + 1));
      CHECK(table->distances()[e] <= table->distances()[e + 1]);
    }
    CHECK(table->entry_parameter(table->entry_count()) == S(table->segment_count()));
  }
  // Both exact against the long-double tanh–sinh reference, per segment: distances at entries
  // and the inverse anywhere.
  for (const auto* path : {&circle_path, &zigzag_path}) {
    const auto table = *ArcLengthTable<S>::build(*path);
    long double before = 0;
    std::vector<long double> starts;
    std::vector<ReferenceArcLength> references;
    for (std::size_t i = 0; i < path->size(); ++i) {
      references.emplace_back(path->segment(i));
      starts.push_back(before);
      before += references.back().length();
    }
    const long double length = before;
    auto reference_distance = [&](S t) {
      const std::size_t i = std::min(static_cast<std::size_t>(t), path->size() - 1);
      return starts[i] + references[i].distance(static_cast<long double>(t) - i);
    };
    for (std::size_t e = 0; e <= table.entry_count(); ++e)
      CHECK(std::abs(table.distances()[e] - reference_distance(table.entry_parameter(e))) <=
            contract<S>(1e-12) * length);
    auto rng = make_rng(53);
    for (int k = 0; k < 2000; ++k) {
      const S s = uniform<S>(rng, S(0), table.length());
      CHECK(std::abs(reference_distance(table.parameter_at(s)) - s) <= contract<S>(1e-12) * length);
    }
  }
  // Chord tables (the lecture's) keep 16 entries a segment, evenly spaced, when automatic; exact
  // ones place theirs, and say so.
  const auto chord_table = *ArcLengthTable<S>::build(
      zigzag_path, {ArcLengthSettings::automatic, ArcLengthMethod::chord});
  CHECK(chord_table.samples_per_segment() == 16);
  CHECK_FALSE(chord_table.is_adaptive());
  CHECK(chord_table.entry_count() == 16 * zigzag_path.size());
  const auto exact_table = *ArcLengthTable<S>::build(zigzag_path, {ArcLengthSettings::automatic});
  CHECK(exact_table.samples_per_segment() == 0);
  CHECK(exact_table.is_adaptive());
  CHECK_FALSE(ArcLengthTable<S>::build(zigzag_path, {5})->is_adaptive());
}

namespace {

// A cubic whose hodograph is (u − cusp)·(w0 + w1·u): its speed vanishes at u = cusp with a kink.
// From r'(u) = a u² + b u + c: a = w1, b = w0 − cusp·w1, c = −cusp·w0, and back to control points
// through c = 3 d0, b = 6 (d1 − d0), a = 3 (d0 − 2 d1 + d2).
template <class S>
Bezier<S, 3, 3> cusp_cubic(double cusp, const Vector3<double>& w0, const Vector3<double>& w1) {
  const Vector3<double> a = w1, b = w0 - cusp * w1, c = -cusp * w0;
  const Vector3<double> d0 = c / 3, d1 = d0 + b / 6, d2 = a / 3 - d0 + 2 * d1;
  const Vector3<double> p1 = d0, p2 = p1 + d1, p3 = p2 + d2;
  return {{Vector3<S>::Zero(), p1.cast<S>(), p2.cast<S>(), p3.cast<S>()}};
}

struct NamedCubic {
  std::string name;
  std::vector<double> points;  // 12 coordinates, converted to S by each test
};

template <class S>
Bezier<S, 3, 3> to_cubic(const NamedCubic& c) {
  Bezier<S, 3, 3> b;
  for (std::size_t i = 0; i < 4; ++i)
    b.points[i] = Vector3<S>(static_cast<S>(c.points[3 * i]), static_cast<S>(c.points[3 * i + 1]),
                             static_cast<S>(c.points[3 * i + 2]));
  return b;
}

NamedCubic named(std::string name, const Bezier<double, 3, 3>& b) {
  NamedCubic c{std::move(name), {}};
  for (const auto& p : b.points)
    c.points.insert(c.points.end(), {p.x(), p.y(), p.z()});
  return c;
}

// Curves where exactness was lost: symmetric segments (an odd table density puts an interval's
// middle on the axis of symmetry), cusps on an entry, between entries and near either end,
// near-cusps, and random cubics.
std::vector<NamedCubic> hard_cubics(int random_count) {
  using V = Vector3<double>;
  const double k = 0.5522847498307936;  // quarter circle: 4/3·(√2 − 1)
  std::vector<NamedCubic> cubics{
      named("quarter circle", {{V(1, 0, 0), V(1, k, 0), V(k, 1, 0), V(0, 1, 0)}}),
      named("symmetric cusp", {{V(0, 0, 0), V(1, 1, 0), V(0, 1, 0), V(1, 0, 0)}}),
      named("cusp at 1/2", cusp_cubic<double>(0.5, V(1, 2, 0.5), V(-0.3, 1, 2))),
      named("cusp at 0.3", cusp_cubic<double>(0.3, V(1, 2, 0.5), V(-0.3, 1, 2))),
      named("cusp at 1/3", cusp_cubic<double>(1.0 / 3, V(1, -2, 0.5), V(3, 1, -2))),
      named("cusp at 0.37", cusp_cubic<double>(0.37, V(1, -2, 0.5), V(3, 1, -2))),
      named("cusp at 0.001", cusp_cubic<double>(0.001, V(1, 2, 0.5), V(-0.3, 1, 2))),
      named("cusp at 0.999", cusp_cubic<double>(0.999, V(1, 2, 0.5), V(-0.3, 1, 2))),
  };
  auto rng = make_rng(53);
  for (double offset : {1e-3, 1e-6, 1e-9}) {
    auto b = cusp_cubic<double>(uniform(rng, 0.05, 0.95), random_vector<double, 3>(rng, 1.0),
                                random_vector<double, 3>(rng, 1.0));
    b.points[2] += offset * random_vector<double, 3>(rng, 1.0);
    cubics.push_back(named("near-cusp " + std::to_string(offset), b));
  }
  for (int i = 0; i < random_count; ++i)
    cubics.push_back(named("random " + std::to_string(i), random_bezier<double, 3, 3>(rng, 1.0)));
  return cubics;
}

}  // namespace

TEST_CASE("the arc-length reference matches closed forms", "[curve][arc_length][reference]") {
  // The test reference itself, against the parabola's and the uneven line's closed forms.
  const ReferenceArcLength reference(parabola(2.0).segment(0));
  for (int i = 0; i <= 40; ++i) {
    const long double u = i / 40.0L, x = -2 + 4 * u;
    // The control points −2/3 and −4/3 are rounded to double: 4e-16 is their share.
    CHECK(std::fabs(reference.distance(u) - (parabola_primitive(x) - parabola_primitive(-2))) <=
          4e-16L * reference.length());
  }
  const Bezier<double, 3, 3> line = uneven_line(37.5).segment(0);
  const ReferenceArcLength line_reference(line);
  for (int i = 0; i <= 40; ++i)
    CHECK(std::fabs(line_reference.distance(i / 40.0L) - uneven_line_distance(37.5, i / 40.0)) <=
          1e-14L * 37.5);
}

TEMPLATE_TEST_CASE("Gauss-Legendre tables are exact at every density, cusps anywhere",
                   "[curve][arc_length][property]", float, double) {
  using S = TestType;
  for (const NamedCubic& named_cubic : hard_cubics(property_count(4))) {
    const Bezier<S, 3, 3> cubic = to_cubic<S>(named_cubic);
    const ReferenceArcLength reference(cubic);
    const long double length = reference.length();
    const long double tolerance = contract<S>(1e-12) * length;
    const auto path = *Path<S, 3>::from_segments({cubic}, Closure::open);
    for (int density = 0; density <= 33; ++density) {  // 0: automatic, adaptive
      INFO(named_cubic.name << ", " << density << " entries per segment");
      const auto table = *ArcLengthTable<S>::build(path, {density});
      CHECK(std::fabs(table.length() - length) <= tolerance);
      std::size_t cursor = 0;  // a forward sweep, as a train or a camera makes
      for (int i = 0; i <= 40; ++i) {
        const S t = S(i) / S(40) + S(0.0031) * S(i % 3 == 1);  // entries and points between them
        CHECK(std::fabs(table.distance_at(t) - reference.distance(t)) <= tolerance);
        const S s = static_cast<S>(length * i / 40);
        const S exact = table.parameter_at(s, cursor);
        CHECK(std::fabs(reference.distance(exact) - s) <= tolerance);
        const S from_start = table.parameter_at(s);  // the same without the sweep's cursor
        CHECK(std::fabs(reference.distance(from_start) - s) <= tolerance);
      }
    }
  }
}

TEMPLATE_TEST_CASE("the speed quadrature splits at cusps and reports exact thirds",
                   "[curve][arc_length]", float, double) {
  using S = TestType;
  const auto cubic = cusp_cubic<S>(0.3, Vector3d(1, 2, 0.5), Vector3d(-0.3, 1, 2));
  const ReferenceArcLength reference(cubic);
  const Hodograph<S> hodograph = Hodograph<S>::of(cubic);
  SpeedQuadrature<S> quadrature(hodograph, S(8) * eps<S>());
  const long double tolerance = contract<S>(1e-14) * reference.length();
  // [0.2, 0.4] holds the cusp inside: split there, so the thirds are unknown (NaN).
  std::array<S, 2> thirds{};
  const S across = quadrature.integrate(S(0.2), S(0.4), &thirds);
  CHECK(quadrature.refined());
  CHECK(std::fabs(across - (reference.distance(S(0.4)) - reference.distance(S(0.2)))) <= tolerance);
  CHECK(std::isnan(thirds[0]));
  CHECK(std::isnan(thirds[1]));
  // [0.3, 0.45] starts at the cusp: refined in thirds towards it, and the thirds are exact.
  const S u0 = static_cast<S>(0.3), w = static_cast<S>(0.15);
  const S from_cusp = quadrature.integrate(u0, u0 + w, &thirds);
  CHECK(quadrature.refined());
  const long double base = reference.distance(u0);
  CHECK(std::fabs(from_cusp - (reference.distance(u0 + w) - base)) <= tolerance);
  CHECK(std::fabs(thirds[0] - (reference.distance(u0 + w / S(3)) - base)) <= tolerance);
  CHECK(std::fabs(thirds[1] - (reference.distance(u0 + S(2) * w / S(3)) - base)) <= tolerance);
  // Far from the cusp nothing is split, and the thirds are exact as well.
  const S away = quadrature.integrate(S(0.7), S(0.8), &thirds);
  CHECK_FALSE(quadrature.refined());
  const long double away_base = reference.distance(S(0.7));
  CHECK(std::fabs(away - (reference.distance(S(0.8)) - away_base)) <= tolerance);
  CHECK(std::fabs(thirds[0] - (reference.distance(S(0.7) + S(0.1) / S(3)) - away_base)) <=
        tolerance);
}

TEMPLATE_TEST_CASE("a measured path answers by distance: points, tangents, curvature, extension",
                   "[curve][measured_path]", float, double) {
  using S = TestType;
  using V = Vector3<S>;
  // A circle of radius 40 (cubic arcs, radial error ~1e-10 of R at 64 segments): curvature 1/R
  // towards the centre, the point at distance s at angle s/R.
  const S radius = S(40);
  const auto circle_path = *MeasuredPath<S>::build(test::circle<S>(radius, 64));
  // Float's own bounds (contract's 64000 eps allowed 4.9 units off a point and 12 on a unit
  // tangent): its distances' rounding, eps of the length, moves the point that much.
  const bool in_float = std::is_same<S, float>::value;
  const S point_tolerance = in_float ? S(64) * eps<S>() * circle_path.length() : S(1.6e-8) * radius;
  const S tangent_tolerance = in_float ? S(256) * eps<S>() : S(1.6e-6);
  for (int i = 0; i < 16; ++i) {
    const S s = circle_path.length() * S(i) / S(16);
    const S angle = s / radius;
    INFO("s = " << s);
    const V expected(radius * std::cos(angle), 0, radius * std::sin(angle));
    CHECK((circle_path.point_at(s) - expected).norm() <= point_tolerance);
    CHECK((circle_path.tangent_at(s) - V(-std::sin(angle), 0, std::cos(angle))).norm() <=
          tangent_tolerance);
    // κ of the cubic circle ripples by ~4e-7 of 1/R; in float r'' is a second difference of
    // control points ~R apart, worth ~1000 eps of itself.
    const S kappa_tolerance = S(1e-6) + S(2048) * eps<S>();
    CHECK(std::abs(circle_path.curvature_at(s) * radius - S(1)) <= kappa_tolerance);
    CHECK((circle_path.curvature_vector_at(s) + expected / (radius * radius)).norm() <=
          kappa_tolerance / radius);
  }
  // An open straight line of length 10: extension continues along the end tangents.
  const auto line = *MeasuredPath<S>::build(Path<S, 3>::from_hermite_keys(
      {V(0, 0, 0), V(6, 8, 0)}, {V(6, 8, 0), V(6, 8, 0)}, Closure::open));
  CHECK(std::abs(line.length() - S(10)) <= S(16) * eps<S>() * S(10));
  std::size_t cursor = 0;
  CHECK((line.sample_extended(S(15), cursor).point - V(9, 12, 0)).norm() <= S(64) * eps<S>());
  CHECK((line.sample_extended(S(-5), cursor).point - V(-3, -4, 0)).norm() <= S(64) * eps<S>());
  CHECK(line.sample_extended(std::numeric_limits<S>::quiet_NaN(), cursor).point == V(0, 0, 0));
  CHECK(line.sample(S(15), cursor).point == line.sample(line.length(), cursor).point);  // clamped
  // A path ending in a zero-length segment: the lecture's lookup at the length is the end.
  const auto tail = *MeasuredPath<S>::build(Path<S, 3>::from_hermite_keys(
      {V(0, 0, 0), V(5, 0, 0), V(5, 0, 0)}, {V(5, 0, 0), V::Zero(), V::Zero()}, Closure::open));
  CHECK(tail.parameter_at_linear(tail.length()) == S(2));
  CHECK(tail.parameter_at_linear(S(2) * tail.length()) == S(2));
}

TEMPLATE_TEST_CASE("a lookup samples as its measured path does on a circle and at a cusp",
                   "[curve][measured_path]", float, double) {
  using S = TestType;
  using V = Vector3<S>;
  // The circle of radius 40 above, through its lookup (what a network's route samples through),
  // at distances before, on and past one lap: the point at angle s/R and the tangent along it.
  const S radius = S(40);
  const auto circle_path = *MeasuredPath<S>::build(test::circle<S>(radius, 64));
  const auto circle = circle_path.lookup();
  const bool in_float = std::is_same<S, float>::value;
  const S point_tolerance = in_float ? S(64) * eps<S>() * circle_path.length() : S(1.6e-8) * radius;
  const S tangent_tolerance = in_float ? S(256) * eps<S>() : S(1.6e-6);
  std::size_t cursor = 0;
  for (int i = -20; i <= 40; ++i) {
    const S s = circle_path.length() * S(i) / S(16) + S(0.37);
    const long double angle = static_cast<long double>(s) / radius;
    INFO("s = " << s);
    const auto at = MeasuredPath<S>::sample_with(circle, s, cursor);
    const V expected(S(radius * std::cos(angle)), 0, S(radius * std::sin(angle)));
    // Float's s past a lap carries eps·3L of rounding into the angle.
    const S wrapped = S(4) * eps<S>() * circle_path.length();
    CHECK((at.point - expected).norm() <= point_tolerance + wrapped);
    CHECK((at.tangent - V(S(-std::sin(angle)), 0, S(std::cos(angle)))).norm() <=
          tangent_tolerance + wrapped / radius);
    std::size_t own = 0;
    const auto direct = circle_path.sample(s, own);
    CHECK(at.point == direct.point);
    CHECK(at.tangent == direct.tangent);
    CHECK(at.parameter == direct.parameter);
  }
  // An open line clamps: before the start is the start, past the end is the end.
  const auto line = *MeasuredPath<S>::build(Path<S, 3>::from_hermite_keys(
      {V(0, 0, 0), V(6, 8, 0)}, {V(6, 8, 0), V(6, 8, 0)}, Closure::open));
  CHECK(MeasuredPath<S>::sample_with(line.lookup(), S(-3), cursor).point == V(0, 0, 0));
  CHECK((MeasuredPath<S>::sample_with(line.lookup(), S(15), cursor).point - V(6, 8, 0)).norm() <=
        S(16) * eps<S>() * S(10));
  // The cusp of "cusps and zero-speed ends" at one entry a segment, where the inverse needs its
  // Newton polish: distances against the closed form s(u), points against the Bernstein form in
  // long double, tangents ±(v, 1)/|(v, 1)| (v = 1 − 2u) away from the cusp.
  using V2 = Vector2<S>;
  const Bezier<S, 2, 3> cusp{{V2(0, 0), V2(1, 1), V2(0, 1), V2(1, 0)}};
  const auto cusp_path = *MeasuredPath<S, 2>::build(
      *Path<S, 2>::from_segments({cusp}, Closure::open), ArcLengthSettings{1});
  const auto exact_distance = [](long double u) {
    const long double v = 1 - 2 * u, rise = std::pow(v * v + 1, 1.5L), top = std::pow(2.0L, 1.5L);
    return v >= 0 ? (top - rise) / 2 : (top - 1) / 2 + (rise - 1) / 2;
  };
  const long double length = exact_distance(1);
  const auto lookup = cusp_path.lookup();
  cursor = 0;
  for (int i = 0; i <= 64; ++i) {
    const S s = S(length * i / 64);
    INFO("s = " << s);
    const auto at = MeasuredPath<S, 2>::sample_with(lookup, s, cursor);
    const long double u = at.parameter, w = 1 - u;
    CHECK(std::fabs(exact_distance(u) - s) <= contract<S>(1e-12) * length);
    const long double x = 3 * w * w * u + u * u * u, y = 3 * w * w * u + 3 * w * u * u;
    CHECK(std::hypot(at.point.x() - x, at.point.y() - y) <= S(8) * eps<S>());
    const long double v = 1 - 2 * u;
    if (std::fabs(v) > 0.05L) {
      const long double sign = v > 0 ? 1 : -1, norm = std::sqrt(v * v + 1);
      CHECK(std::hypot(at.tangent.x() - sign * v / norm, at.tangent.y() - sign / norm) <=
            S(64) * eps<S>());
    }
  }
}
