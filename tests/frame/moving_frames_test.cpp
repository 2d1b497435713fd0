#include <cmath>

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
    max_turn = std::max(max_turn, angle_between(previous.up(), f.up()));
    // Planar loop: the side never leaves the loop's normal (±Z).
    CHECK(std::abs(std::abs(f.side().z()) - S(1)) <= S(1e-4));
    previous = f;
  }
  CHECK(max_turn < S(2) * pi<S>() * S(1e-3) * S(1.01));
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
