#include <cmath>
#include <limits>

#include "support/catch.hpp"
#include "support/properties.hpp"
#include "tractrix/frame/euler.hpp"
#include "tractrix/frame/up_source.hpp"

using namespace tractrix;
using namespace tractrix::test;

namespace {
template <class S>
S orthonormality_error(const Frame<S>& f) {
  return (f.rotation.transpose() * f.rotation - Eigen::Matrix<S, 3, 3>::Identity()).norm();
}
}  // namespace

TEMPLATE_TEST_CASE("look_at gives right-handed orthonormal frames along forward", "[frame]", float,
                   double) {
  using S = TestType;
  auto rng = make_rng(51);
  const S tol = S(16) * eps<S>();
  for (int n = 0; n < property_count(500); ++n) {
    const Vector3<S> origin = random_vector<S, 3>(rng, S(100));
    const Vector3<S> forward = random_vector<S, 3>(rng, S(10));
    const Vector3<S> hint = random_vector<S, 3>(rng, S(10));
    const auto f = look_at(origin, forward, hint);
    CHECK(orthonormality_error(f) <= tol);
    CHECK(std::abs(f.rotation.determinant() - S(1)) <= tol);
    CHECK((f.side() - f.up().cross(f.forward())).norm() <= tol);
    CHECK(f.forward().cross(forward.normalized()).norm() <= tol);
    CHECK(f.forward().dot(forward) > S(0));
    // Up stays in the plane of hint and forward, on the hint's side.
    CHECK(std::abs(f.side().dot(hint.normalized())) <= tol);
    CHECK(f.up().dot(hint) >= S(0));
    CHECK(f.origin == origin);
  }
}

TEMPLATE_TEST_CASE("look_at falls back without NaN on degenerate input", "[frame][errors]", float,
                   double) {
  using S = TestType;
  using V = Vector3<S>;
  const S nan = std::numeric_limits<S>::quiet_NaN();
  const S tol = S(16) * eps<S>();
  for (const auto& [forward, hint] : {std::pair<V, V>{V(0, 0, 0), V(0, 1, 0)},
                                      {V(0, 1, 0), V(0, 1, 0)},
                                      {V(0, -2, 0), V(0, 1, 0)},
                                      {V(1, 0, 0), V(nan, 0, 0)},
                                      {V(nan, 1, 0), V(0, 1, 0)},
                                      {V(1, 0, 0), V(0, 0, 0)}}) {
    const auto f = look_at(V::Zero(), forward, hint);
    CHECK(f.rotation.allFinite());
    CHECK(orthonormality_error(f) <= tol);
    CHECK(std::abs(f.rotation.determinant() - S(1)) <= tol);
  }
  // A hint 1e-3 rad from forward still gives the exact construction, and a tiny turn of the hint
  // turns the frame a little, not by 180°.
  const V forward(0, 1, 0);
  const V hint(std::sin(S(1e-3)), std::cos(S(1e-3)), 0);
  const V nudged(std::sin(S(1e-3)), std::cos(S(1e-3)), S(1e-6));
  const auto a = look_at(V::Zero(), forward, hint), b = look_at(V::Zero(), forward, nudged);
  CHECK(detail::angle_between(a.side(), b.side()) < S(2e-3));
}

TEMPLATE_TEST_CASE("frames convert to quaternions and isometries, compose and invert", "[frame]",
                   float, double) {
  using S = TestType;
  auto rng = make_rng(53);
  const S tol = S(64) * eps<S>();
  for (int n = 0; n < property_count(100); ++n) {
    const auto a = look_at(random_vector<S, 3>(rng, S(10)), random_vector<S, 3>(rng, S(1)),
                           random_vector<S, 3>(rng, S(1)));
    const auto b = look_at(random_vector<S, 3>(rng, S(10)), random_vector<S, 3>(rng, S(1)),
                           random_vector<S, 3>(rng, S(1)));
    const auto q = Frame<S>::from_quaternion(a.origin, a.quaternion());
    CHECK((q.rotation - a.rotation).norm() <= tol);
    const auto iso = Frame<S>::from_isometry(a.isometry());
    CHECK((iso.rotation - a.rotation).norm() == S(0));
    CHECK((iso.origin - a.origin).norm() == S(0));
    const auto identity = a * a.inverse();
    CHECK((identity.rotation - Eigen::Matrix<S, 3, 3>::Identity()).norm() <= tol);
    CHECK(identity.origin.norm() <= S(20) * tol);
    const Vector3<S> p = random_vector<S, 3>(rng, S(5));
    CHECK(((a * b).to_world(p) - a.to_world(b.to_world(p))).norm() <= S(40) * tol);
    CHECK((a.to_local(a.to_world(p)) - p).norm() <= S(40) * tol);
  }
}

// Each order's axes as its name spells them (R = R_first(a) R_second(b) R_third(c)): the test's
// own table, not the library's.
struct NamedOrder {
  EulerOrder order;
  int axes[3];
};
const NamedOrder named_orders[] = {{EulerOrder::xyz, {0, 1, 2}}, {EulerOrder::xzy, {0, 2, 1}},
                                   {EulerOrder::yxz, {1, 0, 2}}, {EulerOrder::yzx, {1, 2, 0}},
                                   {EulerOrder::zxy, {2, 0, 1}}, {EulerOrder::zyx, {2, 1, 0}}};

TEMPLATE_TEST_CASE("Euler angles in every order are the rotations their names spell",
                   "[frame][euler]", float, double) {
  using S = TestType;
  auto rng = make_rng(56);
  for (const NamedOrder& named : named_orders)
    for (int n = 0; n < 50; ++n) {
      const Vector3<S> angles(uniform<S>(rng, -S(3), S(3)), uniform<S>(rng, -S(1.5), S(1.5)),
                              uniform<S>(rng, -S(3), S(3)));
      const Eigen::Matrix<S, 3, 3> expected =
          (Eigen::AngleAxis<S>(angles[0], Vector3<S>::Unit(named.axes[0])) *
           Eigen::AngleAxis<S>(angles[1], Vector3<S>::Unit(named.axes[1])) *
           Eigen::AngleAxis<S>(angles[2], Vector3<S>::Unit(named.axes[2])))
              .toRotationMatrix();
      INFO("order " << int(named.order));
      CHECK((from_euler(angles, named.order) - expected).norm() <= S(16) * eps<S>());
      CHECK((euler_angles(expected, named.order) - angles).norm() <= S(64) * eps<S>());
    }
}

TEMPLATE_TEST_CASE("Euler angles round-trip in every order, gimbal lock included", "[frame][euler]",
                   float, double) {
  using S = TestType;
  auto rng = make_rng(57);
  const S tol = S(64) * eps<S>();
  const S half_pi = detail::pi<S>() / S(2);
  for (auto order : {EulerOrder::xyz, EulerOrder::xzy, EulerOrder::yxz, EulerOrder::yzx,
                     EulerOrder::zxy, EulerOrder::zyx}) {
    for (int n = 0; n < property_count(100); ++n) {
      Vector3<S> angles(uniform<S>(rng, -detail::pi<S>(), detail::pi<S>()),
                        uniform<S>(rng, -half_pi, half_pi),
                        uniform<S>(rng, -detail::pi<S>(), detail::pi<S>()));
      if (n % 10 == 0) angles[1] = n % 20 == 0 ? half_pi : -half_pi;  // gimbal lock
      const auto r = from_euler(angles, order);
      const Vector3<S> back = euler_angles(r, order);
      CHECK((from_euler(back, order) - r).norm() <= tol);
      if (n % 10 != 0 && std::abs(std::abs(angles[1]) - half_pi) > S(1e-2)) {
        CHECK((back - angles).norm() <= S(8) * tol);
      }
    }
  }
  // HPB is heading about +Y, then pitch about the turned +X, then bank about the turned +Z.
  const Vector3<S> hpb_angles(S(0.3), S(-0.2), S(0.1));
  const auto frame = Frame<S>{Vector3<S>::Zero(), from_euler(hpb_angles, EulerOrder::hpb)};
  const Eigen::Matrix<S, 3, 3> expected = (Eigen::AngleAxis<S>(S(0.3), Vector3<S>::UnitY()) *
                                           Eigen::AngleAxis<S>(S(-0.2), Vector3<S>::UnitX()) *
                                           Eigen::AngleAxis<S>(S(0.1), Vector3<S>::UnitZ()))
                                              .toRotationMatrix();
  CHECK((frame.rotation - expected).norm() <= tol);
  CHECK((hpb(frame) - hpb_angles).norm() <= S(4) * tol);
}

TEMPLATE_TEST_CASE("Euler angles near gimbal lock round-trip an engine's rotation matrices",
                   "[frame][euler]", float, double) {
  // Rotations as engines hold them: a quaternion rounded to S, its matrix computed in S, so
  // every entry carries rounding of about eps, also those of size cos β. The reference is the
  // same rotation in long double. γ read from R(i,j) and R(i,i) (both of size cos β) was off by
  // eps / cos β: 1e-3 at 1e-12 rad from the lock in double.
  using S = TestType;
  using L = long double;
  auto rng = make_rng(58);
  const L half_pi = 1.5707963267948966192313216916397514L;
  for (const NamedOrder& named : named_orders) {
    const EulerOrder order = named.order;
    const int* axes = named.axes;
    for (const L off : {L(0), L(1e-14), L(1e-12), L(1e-10), L(1e-8), L(1e-6), L(1e-4), L(1e-2)}) {
      for (int n = 0; n < property_count(20); ++n) {
        const L a = L(uniform<double>(rng, -3.1, 3.1)), c = L(uniform<double>(rng, -3.1, 3.1));
        const L b = (n % 2 ? -1 : 1) * (half_pi - off);
        using QL = Eigen::Quaternion<L>;
        using VL = Eigen::Matrix<L, 3, 1>;
        const QL q = QL(Eigen::AngleAxis<L>(a, VL::Unit(axes[0]))) *
                     QL(Eigen::AngleAxis<L>(b, VL::Unit(axes[1]))) *
                     QL(Eigen::AngleAxis<L>(c, VL::Unit(axes[2])));
        const Eigen::Matrix<L, 3, 3> exact = q.toRotationMatrix();
        const Eigen::Matrix<S, 3, 3> r =
            Eigen::Quaternion<S>(S(q.w()), S(q.x()), S(q.y()), S(q.z())).toRotationMatrix();
        const Vector3<S> back = euler_angles(r, order);
        const Eigen::Matrix<L, 3, 3> again = from_euler(back, order).template cast<L>();
        INFO("order " << int(order) << ", pi/2 - " << double(off));
        CHECK(double((again - exact).norm()) <= 16.0 * double(eps<S>()));
        CHECK(std::abs(back[1]) <= detail::pi<S>() / S(2));
      }
    }
  }
  // At the lock itself γ is 0 and α carries the rotation.
  const Eigen::Matrix<S, 3, 3> locked =
      from_euler(Vector3<S>(S(0.7), detail::pi<S>() / S(2), S(0.4)), EulerOrder::xyz);
  const Vector3<S> back = euler_angles(locked, EulerOrder::xyz);
  CHECK(back[2] == S(0));
  CHECK(std::abs(back[0] - S(1.1)) <= S(8) * eps<S>());  // R_x(α) R_y(π/2) R_z(γ) turns by α + γ

  // Half turns, exact: every angle in (−π, π] (atan2 of a −0 gave −π), and the round trip.
  using M = Eigen::Matrix<S, 3, 3>;
  const M half_turns[] = {M(Vector3<S>(1, -1, -1).asDiagonal()),
                          M(Vector3<S>(-1, 1, -1).asDiagonal()),
                          M(Vector3<S>(-1, -1, 1).asDiagonal())};
  for (auto order : {EulerOrder::xyz, EulerOrder::xzy, EulerOrder::yxz, EulerOrder::yzx,
                     EulerOrder::zxy, EulerOrder::zyx})
    for (const M& turn : half_turns) {
      const Vector3<S> angles = euler_angles(turn, order);
      INFO("order " << int(order) << ", angles " << angles.transpose());
      CHECK((angles.array() > -detail::pi<S>()).all());
      CHECK((angles.array() <= detail::pi<S>()).all());
      CHECK((from_euler(angles, order) - turn).norm() <= S(8) * eps<S>());
    }
  // A frame banked half a turn: heading 0, pitch 0, bank π.
  const Vector3<S> banked = hpb(Frame<S>{Vector3<S>::Zero(), half_turns[2]});
  CHECK(std::abs(banked[0]) == S(0));
  CHECK(std::abs(banked[1]) == S(0));
  CHECK(banked[2] == detail::pi<S>());
}

TEST_CASE("look_at: a tiny hint nearly along a huge forward still gives an orthonormal frame") {
  // From fuzz_frames: |hint × forward|² underflowed and the side lost its length.
  const Vector3<double> forward(1.0068021917667187e+244, -5.0497568334997517e-195,
                                -5.0497568334997517e-195);
  const Vector3<double> hint(6.2596554803444093e-159, -5.0497568334997517e-195,
                             -1.9725612603993682e-197);
  const auto f = look_at(Vector3<double>::Zero(), forward, hint);
  CHECK((f.rotation.transpose() * f.rotation - Eigen::Matrix3d::Identity()).norm() <= 1e-15);
  CHECK(std::abs(f.rotation.determinant() - 1.0) <= 1e-15);
  // |forward|² overflows, yet forward keeps its direction: +X to the last bit, not the +Z fallback.
  CHECK(f.forward() == Vector3<double>::UnitX());
}

TEMPLATE_TEST_CASE("normalized_or, any_perpendicular and world up at any finite size", "[frame]",
                   float, double) {
  using S = TestType;
  using V = Vector3<S>;
  const V direction = V(2, -3, 6) / S(7);  // |(2, -3, 6)| = 7
  const S largest = std::numeric_limits<S>::max(), smallest = std::numeric_limits<S>::denorm_min();
  for (const S scale : {smallest * S(7), S(1e-30), S(1), S(1e30), largest / S(8)}) {
    INFO("scale " << scale);
    const V v = direction * scale;
    CHECK((normalized_or(v, V(V::UnitX())) - direction).norm() <= S(4) * detail::epsilon<S>());
    const V side = any_perpendicular(v);
    CHECK(std::abs(side.norm() - S(1)) <= S(4) * detail::epsilon<S>());
    CHECK(std::abs(side.dot(direction)) <= S(4) * detail::epsilon<S>());
    const auto up = UpSource<S>::world(v);
    REQUIRE(up);
    CHECK((up->world_up() - direction).norm() <= S(4) * detail::epsilon<S>());
  }
  // Zero and non-finite vectors give the fallback, and world up refuses them.
  const S nan = std::numeric_limits<S>::quiet_NaN(), inf = std::numeric_limits<S>::infinity();
  for (const V& bad : {V(0, 0, 0), V(nan, 1, 0), V(inf, 0, 0), V(-inf, inf, 1)}) {
    CHECK(normalized_or(bad, V(V::UnitX())) == V::UnitX());
    CHECK(!UpSource<S>::world(bad));
  }
}

// The documented fallback: a hint along forward (or zero, or not finite) is replaced by the
// coordinate axis least aligned with forward. Reference: look_at given that axis as its hint.
TEMPLATE_TEST_CASE("look_at replaces a useless hint by the axis least aligned with forward",
                   "[frame]", float, double) {
  using S = TestType;
  using V = Vector3<S>;
  const S nan = std::numeric_limits<S>::quiet_NaN();
  const V forwards[] = {V(0, 1, 0), V(0, 0, 1), V(1, 0, 0), V(0, -1, 0), V(S(0.3), S(-2), 1)};
  for (const V& forward : forwards) {
    const V unit = forward.normalized();
    const V a = unit.cwiseAbs();
    const V axis = a.x() <= a.y() && a.x() <= a.z() ? V(V::UnitX())
                   : a.y() <= a.z()                 ? V(V::UnitY())
                                                    : V(V::UnitZ());
    const auto reference = look_at(V::Zero(), forward, axis);
    for (const V& hint : {forward, V(-forward), V(V::Zero()), V(nan, 0, 1)}) {
      INFO("forward " << forward.transpose() << ", hint " << hint.transpose());
      const auto f = look_at(V::Zero(), forward, hint);
      CHECK((f.rotation - reference.rotation).cwiseAbs().maxCoeff() <= S(4) * detail::epsilon<S>());
    }
  }
}

TEMPLATE_TEST_CASE("look_at with a hint within a few eps of forward stays orthonormal", "[frame]",
                   float, double) {
  using S = TestType;
  using V = Vector3<S>;
  // The hint is forward turned by an angle near or below eps, at lengths far from forward's: the
  // side is rounding noise in direction, but must still be a unit vector perpendicular to it.
  // With one Gram–Schmidt step the worst of these was 224 eps off orthonormal (float, GCC) and
  // 664 eps (double, Clang); with a second, 5.
  std::mt19937_64 rng = make_rng(77);
  S worst = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const V forward = random_vector<S, 3>(rng, S(1)) * std::pow(S(10), uniform<S>(rng, -20, 20));
    const V unit = forward.normalized();
    const V off = any_perpendicular(unit);
    const S angle = detail::epsilon<S>() * std::pow(S(10), uniform<S>(rng, -4, 1));
    const V hint = (unit + angle * off) * std::pow(S(10), uniform<S>(rng, -20, 20));
    const auto f = look_at(V::Zero(), forward, hint);
    worst =
        std::max(worst, (f.rotation.transpose() * f.rotation - Eigen::Matrix<S, 3, 3>::Identity())
                            .cwiseAbs()
                            .maxCoeff());
  }
  CHECK(worst <= S(8) * detail::epsilon<S>());
}

TEST_CASE("look_at keeps the direction of finite vectors whose squares overflow or underflow") {
  // Forward and the hint's perpendicular part scaled far beyond the squares' range must give the
  // frame of the same vectors at unit scale: the directions are exact, only the lengths are
  // extreme.
  const Vector3<double> forward(3, -4, 12), hint(0, 0, 1);  // |forward| = 13
  const auto reference = look_at(Vector3<double>::Zero(), forward, hint);
  for (const double scale : {1e-300, 1e-160, 1e160, 1e300}) {
    const auto f = look_at(Vector3<double>::Zero(), Vector3<double>(forward * scale), hint);
    CHECK((f.rotation - reference.rotation).norm() <= 4e-16);
    const auto g = look_at(Vector3<double>::Zero(), forward, Vector3<double>(hint * scale));
    CHECK((g.rotation - reference.rotation).norm() <= 4e-16);
  }
  // From fuzz_frames: a hint 1e-162 rad off -Z. |hint × z|² is subnormal; the side is still
  // hint × z = (uy, -ux, 0) normalized, -Y to within 1e-91.
  const Vector3<double> nearly_up(6.2596554803444093e-159, 1.224167783418391e-250, -905.8837890625);
  const auto f = look_at(Vector3<double>::Zero(), Vector3<double>::UnitZ(), nearly_up);
  CHECK((f.rotation.transpose() * f.rotation - Eigen::Matrix3d::Identity()).norm() <= 1e-15);
  CHECK((f.side() - Vector3<double>(0, -1, 0)).norm() <= 1e-15);
}
