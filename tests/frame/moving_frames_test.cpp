#include <cmath>
#include <limits>
#include <vector>

#include "support/catch.hpp"
#include "support/properties.hpp"
#include "support/shapes.hpp"
#include "tractrix/frame/up_source.hpp"

using namespace tractrix;
using namespace tractrix::test;

TEMPLATE_TEST_CASE("rotation-minimizing frames ride a vertical loop without flipping",
                   "[frame][rmf]", float, double) {
  using S = TestType;
  const auto loop = *MeasuredPath<S>::build(vertical_loop<S>(S(20), 32));
  // Initial up: the loop's inward normal at the bottom is +Y; the RMF of a planar curve keeps
  // its up in the plane... here the side stays ±Z and up points to the centre all the way round.
  const auto rmf = *UpSource<S>::rotation_minimizing(loop);
  const auto world = *UpSource<S>::world();
  const S length = loop.length();
  const S step = length * S(1e-3);
  auto previous = rmf.frame_at(loop, S(0));
  S max_turn = S(0);
  for (S s = step; s <= length; s += step) {
    const auto f = rmf.frame_at(loop, s);
    // Adjacent samples 1e-3 of the length apart turn by the loop's own curvature, ~2π·1e-3.
    max_turn = std::max(max_turn, detail::angle_between(previous.up(), f.up()));
    // Planar loop: the side never leaves the loop's normal (±Z).
    CHECK(std::abs(std::abs(f.side().z()) - S(1)) <= S(1e-4));
    previous = f;
  }
  CHECK(max_turn < S(2) * detail::pi<S>() * S(1e-3) * S(1.01));
  // World up on the same loop: the documented fallback keeps up on the +Y side, so the frame
  // turns over at the top (a half turn about forward) — finite, orthonormal, but flipped.
  const auto top = world.frame_at(loop, length / S(2));
  CHECK(top.rotation.allFinite());
  CHECK(top.up().y() >= S(0));
  const auto rmf_top = rmf.frame_at(loop, length / S(2));
  CHECK(rmf_top.up().y() < S(-0.99));  // upside down at the top of the loop, as a rider is
}

TEST_CASE("rotation-minimizing twist converges at 4th order (trefoil knot)", "[frame][rmf]") {
  // The holonomy (twist gained over one lap before it is spread out) against a finely stepped
  // reference: 32 segments × k samples; the error should fall ~16× per doubling of k.
  const auto knot = trefoil<double>(32, 10.0);
  const auto path = *MeasuredPath<double>::build(knot);
  auto holonomy = [&](int k) {
    return RotationMinimizingFrames<double>::build(path, Vector3<double>::UnitY(), k)->holonomy();
  };
  const double reference = holonomy(1024);
  double previous = 0;
  for (int k : {4, 8, 16, 32}) {
    const double error = std::abs(holonomy(k) - reference);
    if (k == 4) {
      INFO("128 frames per loop: twist error " << error);
      CHECK(error <= 1e-6);
    }
    if (previous > 0) {
      INFO("k = " << k << ", ratio " << previous / error);
      CHECK(previous / error > 12);
    }
    previous = error;
  }
}

TEST_CASE("rotation-minimizing holonomy is the path's total torsion", "[frame][rmf]") {
  // A frame that does not turn about the tangent turns against the Frenet frame at the torsion's
  // rate, and the Frenet frame comes back to itself after a lap: the holonomy is the total
  // torsion, mod 2π — here of the cubic path itself, segment by segment by Simpson's rule in
  // long double (τ = (r' × r'')·r''' / |r' × r''|², ds = |r'| du), plus the Frenet normal's turn
  // about the tangent at each joint (the cubics are C¹ there, not C²).
  using L = long double;
  using VL = Eigen::Matrix<L, 3, 1>;
  const auto knot = trefoil<double>(32, 10.0);
  const auto path = *MeasuredPath<double>::build(knot);
  const std::size_t n = knot.size();
  auto control = [&](std::size_t i, std::size_t k) {
    return VL(knot.segment(i).points[k].cast<L>());
  };
  auto derivatives = [&](std::size_t i, L u, VL& d1, VL& d2, VL& d3) {
    const VL p0 = control(i, 0), p1 = control(i, 1), p2 = control(i, 2), p3 = control(i, 3);
    const L v = 1 - u;
    d1 = 3 * (v * v * (p1 - p0) + 2 * u * v * (p2 - p1) + u * u * (p3 - p2));
    d2 = 6 * (v * (p2 - 2 * p1 + p0) + u * (p3 - 2 * p2 + p1));
    d3 = 6 * (p3 - 3 * p2 + 3 * p1 - p0);
  };
  auto torsion_rate = [&](std::size_t i, L u) {
    VL d1, d2, d3;
    derivatives(i, u, d1, d2, d3);
    const VL b = d1.cross(d2);
    return b.dot(d3) / b.squaredNorm() * d1.norm();
  };
  auto normal = [&](std::size_t i, L u) {
    VL d1, d2, d3;
    derivatives(i, u, d1, d2, d3);
    const VL t = d1.normalized();
    return VL((d2 - d2.dot(t) * t).normalized());
  };
  L total = 0;
  const int steps = 4000;  // even
  for (std::size_t i = 0; i < n; ++i) {
    L sum = torsion_rate(i, 0) + torsion_rate(i, 1);
    for (int k = 1; k < steps; ++k)
      sum += (k % 2 ? 4 : 2) * torsion_rate(i, L(k) / steps);
    total += sum / (3 * steps);
    // The Frenet normal's turn about the tangent from this segment's end to the next's start.
    const VL before = normal(i, 1), after = normal((i + 1) % n, 0);
    VL d1, d2, d3;
    derivatives((i + 1) % n, 0, d1, d2, d3);
    total += std::atan2(before.cross(after).dot(d1.normalized()), before.dot(after));
  }
  const double holonomy =
      RotationMinimizingFrames<double>::build(path, Vector3<double>::UnitY(), 32)->holonomy();
  const L two_pi = 2 * 3.14159265358979323846264338327950288L;
  INFO("holonomy " << holonomy << ", total torsion " << double(total));
  CHECK(std::abs(double(std::remainder(L(holonomy) - total, two_pi))) <= 1e-8);
}

TEMPLATE_TEST_CASE("rotation-minimizing frames are scale invariant and seam-free", "[frame][rmf]",
                   double) {
  using S = TestType;
  const auto knot = *MeasuredPath<S>::build(trefoil<S>(24, S(1)));
  const auto rmf = *UpSource<S>::rotation_minimizing(knot);
  for (S scale : {S(1e-3), S(1e3)}) {
    const auto big = *MeasuredPath<S>::build(trefoil<S>(24, scale));
    const auto big_rmf = *UpSource<S>::rotation_minimizing(big);
    for (int i = 0; i < 30; ++i) {
      const S f = S(i) / S(30);
      const auto a = rmf.frame_at(knot, f * knot.length());
      const auto b = big_rmf.frame_at(big, f * big.length());
      CHECK((a.rotation - b.rotation).norm() <= 1e-12);
    }
  }
  const auto start = rmf.frame_at(knot, S(0));
  const auto end = rmf.frame_at(knot, knot.length() * (S(1) - S(1e-12)));
  CHECK((start.rotation - end.rotation).norm() <= 1e-9);
}

TEMPLATE_TEST_CASE(
    "rotation-minimizing up at a distance laps away on a loop is the up at the "
    "distance itself",
    "[frame][rmf]", float, double) {
  using S = TestType;
  // A trefoil has holonomy, so the last entry's up carried a lap on is visibly wrong: 0.2 used
  // it for every distance past the length.
  const auto knot = *MeasuredPath<S>::build(trefoil<S>(24, S(10)));
  const auto frames = *RotationMinimizingFrames<S>::build(knot);
  REQUIRE(std::abs(frames.holonomy()) > S(0.01));
  const S length = knot.length();
  for (int i = 0; i < 12; ++i) {
    const S s = length * (S(i) + S(0.37)) / S(12);
    const Vector3<S> point = knot.point_at(s), tangent = knot.tangent_at(s);
    const Vector3<S> up = frames.up_at(s, point, tangent);
    for (const int laps : {1, 3, -1, -2}) {
      INFO("s " << s << ", " << laps << " laps");
      const S away = s + S(laps) * length;
      // The same place to the rounding of `away` itself, a few eps of the laps' length.
      const S tolerance = S(64) * eps<S>() * S(std::abs(laps) + 1);
      CHECK((frames.up_at(away, point, tangent) - up).norm() <= tolerance);
    }
  }
  // NaN is the start.
  const Vector3<S> start = frames.up_at(S(0), knot.point_at(S(0)), knot.tangent_at(S(0)));
  CHECK((frames.up_at(std::numeric_limits<S>::quiet_NaN(), knot.point_at(S(0)),
                      knot.tangent_at(S(0))) -
         start)
            .norm() == S(0));
}

TEMPLATE_TEST_CASE("rotation-minimizing frames of any density make an up source",
                   "[frame][rmf][up]", float, double) {
  using S = TestType;
  const auto knot = *MeasuredPath<S>::build(trefoil<S>(24, S(10)));
  for (const int per_segment : {2, 5, 40}) {
    auto frames = RotationMinimizingFrames<S>::build(knot, Vector3<S>::UnitY(), per_segment);
    REQUIRE(frames);
    const auto source = UpSource<S>::rotation_minimizing(frames);
    REQUIRE(source);
    REQUIRE(source->frames() != nullptr);
    CHECK(source->frames()->path().shares_data_with(knot));
    for (int i = 0; i <= 8; ++i) {
      const S s = knot.length() * S(i) / S(8);
      const Vector3<S> point = knot.point_at(s), tangent = knot.tangent_at(s);
      CHECK((source->up_at(s, knot.length(), point, tangent) - frames->up_at(s, point, tangent))
                .norm() == S(0));
    }
  }
  // A density the frames refuse is the source's error.
  const auto refused = UpSource<S>::rotation_minimizing(
      RotationMinimizingFrames<S>::build(knot, Vector3<S>::UnitY(), 0));
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message == "per_segment: 0 not in [1, 1048576]");
}

TEMPLATE_TEST_CASE("a double-reflection step at one point turns up by the tangents' rotation",
                   "[frame][rmf]", float, double) {
  using S = TestType;
  using V = Vector3<S>;
  // A corner: the same point, the tangent turning 0.7 rad about an oblique axis. The step must be
  // the minimal rotation taking t0 to t1 (the double reflection's limit), not a mirror.
  const V axis = V(S(0.3), S(-0.5), S(0.81)).normalized();
  const V t0 = any_perpendicular(axis);
  const Eigen::Matrix<S, 3, 3> turn = Eigen::AngleAxis<S>(S(0.7), axis).toRotationMatrix();
  const V t1 = turn * t0;
  const V up = axis.cross(t0);  // perpendicular to t0
  for (const V& point : {V(0, 0, 0), V(S(1e4), S(-3e3), S(2e4))}) {
    const V carried = detail::double_reflect(up, point, t0, point, t1);
    INFO("point " << point.transpose());
    CHECK((carried - turn * up).norm() <= S(16) * eps<S>());
    CHECK(std::abs(carried.dot(t1)) <= S(16) * eps<S>());
  }
  // Tangents equal to rounding at one point (a query on a table entry): up is kept.
  const V nudged = (t0 + V(eps<S>(), 0, 0)).normalized();
  CHECK((detail::double_reflect(up, V(1, 2, 3), t0, V(1, 2, 3), nudged) - up).norm() <=
        S(8) * eps<S>());
}

TEMPLATE_TEST_CASE("at a corner the frame turns by the tangents' minimal rotation alone",
                   "[frame][rmf]", float, double) {
  using S = TestType;
  using V = Vector3<S>;
  // Kochanek–Bartels continuity −1: corners of 1.2–1.5 rad at keys 1–3. Just past a key the up
  // must be the up just before it carried by the minimal rotation between the two tangents (a
  // quaternion from two vectors, in long double), up to the frames' own turn over the ±h between
  // them. The table entry at a key was reached by a double reflection straight onto the
  // outgoing tangent, spreading the corner over the step before it: 0.029 rad off at 4 entries a
  // segment, 1.5e-3 at 16.
  const std::vector<V> keys{V(0, 0, 0), V(10, 2, 0), V(12, 5, 9), V(3, 8, 11), V(-4, 3, 6)};
  KochanekBartels<S> shape;
  shape.continuity = S(-1);
  const auto path =
      *MeasuredPath<S>::build(Path<S, 3>::kochanek_bartels(keys, shape, Closure::open));
  const S h = sizeof(S) == sizeof(float) ? S(1e-3) : S(1e-7);
  for (int per_segment : {4, 16}) {
    const auto frames = *RotationMinimizingFrames<S>::build(path, V::UnitY(), per_segment);
    for (int key = 1; key <= 3; ++key) {
      const S at = path.distance_at(S(key));
      std::size_t cursor = 0;
      const auto before = path.sample(at - h, cursor), after = path.sample(at + h, cursor);
      const V up_before = frames.up_at(at - h, before.point, before.tangent);
      const V up_after = frames.up_at(at + h, after.point, after.tangent);
      using L = long double;
      const Eigen::Matrix<L, 3, 1> carried =
          Eigen::Quaternion<L>::FromTwoVectors(before.tangent.template cast<L>(),
                                               after.tangent.template cast<L>()) *
          up_before.template cast<L>();
      INFO("per_segment " << per_segment << ", key " << key);
      CHECK(std::acos(std::min(L(1), carried.dot(up_after.template cast<L>()))) <=
            L(sizeof(S) == sizeof(float) ? 2e-3 : 1e-7));
    }
  }
}

TEMPLATE_TEST_CASE("past an open path's end the frame runs straight on", "[frame][rmf]", float,
                   double) {
  using S = TestType;
  using V = Vector3<S>;
  // A track extended past its end (Wrap::extend) asks for up at the clamped distance, length, at
  // points on the end tangent's line: the frame must not turn there. It was carried from the
  // entry before the end, as if the path bent towards the far point (3e-7 to 8e-7 rad).
  // A helix: its frames twist along every interval, up to the end.
  std::vector<V> points, tangents;
  for (int i = 0; i <= 24; ++i) {
    const S k = S(i) * S(0.5);
    points.emplace_back(S(5) * std::cos(k), S(5) * std::sin(k), S(2) * k);
    tangents.emplace_back(S(-2.5) * std::sin(k), S(2.5) * std::cos(k), S(1));
  }
  const auto path =
      *MeasuredPath<S>::build(Path<S, 3>::from_hermite_keys(points, tangents, Closure::open));
  const auto frames = *RotationMinimizingFrames<S>::build(path, V::UnitY());
  const S length = path.length();
  const auto end = path.sample(length);
  const V up_end = frames.up_at(length, end.point, end.tangent);
  for (const S beyond : {S(0.1), S(10), S(1000)}) {
    const V up = frames.up_at(length, end.point + beyond * end.tangent, end.tangent);
    INFO("beyond " << beyond);
    CHECK((up - up_end).norm() <= S(8) * eps<S>());
  }
}
