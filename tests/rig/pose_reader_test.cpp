#include <cmath>
#include <limits>
#include <type_traits>

#include "support/catch.hpp"
#include "support/properties.hpp"
#include "tractrix/rig/pose_reader.hpp"

using namespace tractrix;
using namespace tractrix::test;

namespace {
template <class S>
Eigen::Matrix<S, 3, 3> rotation(S angle, const Vector3<S>& axis) {
  return Eigen::AngleAxis<S>(angle, axis.normalized()).toRotationMatrix();
}
constexpr PoseFalloff all_falloffs[] = {PoseFalloff::linear,       PoseFalloff::smoothstep,
                                        PoseFalloff::smootherstep, PoseFalloff::ease_in,
                                        PoseFalloff::ease_out,     PoseFalloff::gaussian};
}  // namespace

TEMPLATE_TEST_CASE("the cone reader remaps the angle as the 3ds Max script does",
                   "[rig][pose_reader]", float, double) {
  using S = TestType;
  using M = Eigen::Matrix<S, 3, 3>;
  PoseReaderSettings<S> settings;
  settings.cone = {S(0.3), S(1.1)};
  const auto reader = *PoseReader<S>::build(settings);
  settings.reversed = true;
  const auto reversed = *PoseReader<S>::build(settings);
  const M identity = M::Identity();
  for (S angle = S(0); angle < S(3); angle += S(0.05)) {
    const M target = rotation(angle, Vector3<S>(1, 0, 0));
    // The 3ds Max script: 1 inside, 0 outside, 1 − (angle − min)/(max − min) between; reversed: the
    // rest.
    const S expected = angle < S(0.3)   ? S(1)
                       : angle > S(1.1) ? S(0)
                                        : S(1) - (angle - S(0.3)) / S(0.8);
    CHECK(std::abs(reader.weight(identity, target) - expected) <= S(64) * eps<S>());
    CHECK(std::abs(reversed.weight(identity, target) - (S(1) - expected)) <= S(64) * eps<S>());
  }
}

TEMPLATE_TEST_CASE("every falloff is exactly 1 and 0 outside the zone, monotone between",
                   "[rig][pose_reader]", float, double) {
  using S = TestType;
  for (PoseFalloff f : all_falloffs) {
    CHECK(falloff_weight(f, S(0)) == S(1));
    CHECK(falloff_weight(f, S(-0.5)) == S(1));
    CHECK(falloff_weight(f, S(1)) == S(0));  // the gaussian too: no 0.993 plateau
    CHECK(falloff_weight(f, S(7)) == S(0));
    S previous = S(1);
    for (int i = 1; i <= 1000; ++i) {
      const S w = falloff_weight(f, S(i) / S(1000));
      CHECK(w <= previous + S(4) * eps<S>());  // monotone up to rounding
      previous = w;
    }
  }
  // Inside the zone each is its formula (1 − f(t)): at t = 0.3.
  CHECK(std::abs(falloff_weight(PoseFalloff::linear, S(0.3)) - S(0.7)) <= S(4) * eps<S>());
  CHECK(std::abs(falloff_weight(PoseFalloff::ease_out, S(0.3)) - S(0.49)) <= S(4) * eps<S>());
  CHECK(std::abs(falloff_weight(PoseFalloff::ease_in, S(0.3)) - S(0.91)) <= S(4) * eps<S>());
  CHECK(std::abs(falloff_weight(PoseFalloff::smoothstep, S(0.3)) - S(1 - 0.09 * 2.4)) <=
        S(4) * eps<S>());
  // Smooth falloffs are C¹ at both edges: the one-sided slopes vanish.
  const S h = std::cbrt(eps<S>());
  for (PoseFalloff f : {PoseFalloff::smoothstep, PoseFalloff::smootherstep}) {
    CHECK(std::abs((falloff_weight(f, h) - S(1)) / h) <= S(4) * h);
    CHECK(std::abs(falloff_weight(f, S(1) - h) / h) <= S(4) * h);
  }
  // Published values: smoothstep(1/4) = 5/32, smootherstep(1/4) = 53/512 (so weights 27/32,
  // 459/512).
  CHECK(std::abs(falloff_weight(PoseFalloff::smoothstep, S(0.25)) - S(27) / S(32)) <=
        S(4) * eps<S>());
  CHECK(std::abs(falloff_weight(PoseFalloff::smootherstep, S(0.25)) - S(459) / S(512)) <=
        S(4) * eps<S>());
  // Near the outer edge the weight is small and keeps its relative accuracy, against the
  // polynomials in long double: computed as 1 − f(t), smootherstep in float was 7.5 times too
  // large at t = 0.998.
  using L = long double;
  for (int i = 0; i < 4000; ++i) {
    const S t = S(0.5) + S(0.5) * S(i) / S(4000);
    const L x = L(t), u = L(1) - x;
    const std::pair<PoseFalloff, L> exact[] = {
        {PoseFalloff::smoothstep, u * u * (L(3) - L(2) * u)},
        {PoseFalloff::smootherstep, u * u * u * (u * (u * L(6) - L(15)) + L(10))},
        {PoseFalloff::ease_in, L(1) - x * x}};
    for (const auto& [f, w] : exact) {
      INFO("falloff " << int(f) << ", t = " << t);
      CHECK(std::abs(L(falloff_weight(f, t)) - w) <= L(16) * L(eps<S>()) * w);
    }
  }
  // The gaussian over [0, 1), against its definition in long double (whose own cancellation near
  // t = 1 is a few long double ulps of e^(−4), hence the 1e-18).
  for (int i = 0; i < 4000; ++i) {
    const S t = S(i) / S(4000);
    const L x = L(t), w = (std::exp(L(-4) * x * x) - std::exp(L(-4))) / (L(1) - std::exp(L(-4)));
    INFO("t = " << t);
    CHECK(std::abs(L(falloff_weight(PoseFalloff::gaussian, t)) - w) <=
          L(16) * L(eps<S>()) * w + L(1e-18));
  }
}

TEST_CASE("the reader's angle is accurate near 0 and pi", "[rig][pose_reader]") {
  const auto reader = *PoseReader<double>::build({});
  for (double angle : {1e-8, 1e-4, 1.0, 3.141592653589793 - 1e-8}) {
    const auto target = rotation(angle, Vector3d(0, 1, 0));
    CHECK(std::abs(reader.angle(Eigen::Matrix3d::Identity(), target) - angle) <=
          1e-12 * std::max(angle, 1e-4));
  }
}

TEMPLATE_TEST_CASE("elliptical cones, twist and scale", "[rig][pose_reader]", float, double) {
  using S = TestType;
  using M = Eigen::Matrix<S, 3, 3>;
  PoseReaderSettings<S> settings;
  settings.cone = {S(0.2), S(0.6)};            // narrow towards x
  settings.elliptical_y = {{S(0.5), S(1.5)}};  // wide towards y
  const auto reader = *PoseReader<S>::build(settings);
  const M identity = M::Identity();
  // Tilting the target's z towards +x (a rotation about +y) uses the x radii; towards +y the y
  // radii.
  const S angle = S(0.4);
  CHECK(std::abs(reader.weight(identity, rotation(angle, Vector3<S>(0, 1, 0))) - S(0.5)) <=
        S(64) * eps<S>());
  CHECK(std::abs(reader.weight(identity, rotation(angle, Vector3<S>(-1, 0, 0))) - S(1)) <=
        S(64) * eps<S>());
  CHECK(std::abs(reader.weight(identity, rotation(S(1), Vector3<S>(-1, 0, 0))) - S(0.5)) <=
        S(64) * eps<S>());
  // Halfway between the axes (a tilt towards (1, 1, 0)) the radii are the ellipses',
  // r = ab / √(b² cos² φ + a² sin² φ) = ab·√2 / √(a² + b²): inner 0.26261, outer 0.78784, so a
  // tilt of 0.5 is t = 0.45197 into the zone, weight 1 − t (linear).
  {
    const double inner = 0.2 * 0.5 * std::sqrt(2.0) / std::sqrt(0.2 * 0.2 + 0.5 * 0.5);
    const double outer = 0.6 * 1.5 * std::sqrt(2.0) / std::sqrt(0.6 * 0.6 + 1.5 * 1.5);
    const double expected = 1 - (0.5 - inner) / (outer - inner);
    CHECK(std::abs(double(reader.weight(identity, rotation(S(0.5), Vector3<S>(-1, 1, 0)))) -
                   expected) <= 64 * double(eps<S>()));
  }
  // Scale in either transform does not change the weight.
  const M target = rotation(S(0.35), Vector3<S>(1, 1, 0));
  CHECK(std::abs(reader.weight(S(3) * identity, S(0.01) * target) -
                 reader.weight(identity, target)) <= S(64) * eps<S>());
  // At any finite scale: axes whose squared lengths overflow or underflow read a weight of 1 for a
  // target pointing away (its axis divided by an infinite norm) and 0 at the pose.
  const S huge = std::numeric_limits<S>::max() / S(1e8), tiny = std::numeric_limits<S>::min();
  for (const S k : {huge, tiny}) {
    INFO("scale " << k);
    CHECK(std::abs(reader.weight(identity, k * rotation(angle, Vector3<S>(0, 1, 0))) - S(0.5)) <=
          S(64) * eps<S>());
    CHECK(std::abs(reader.weight(k * identity, k * rotation(S(1), Vector3<S>(-1, 0, 0))) -
                   S(0.5)) <= S(64) * eps<S>());
    CHECK(reader.weight(identity, k * M(Vector3<S>(1, -1, -1).asDiagonal())) == S(0));
    CHECK(reader.weight(k * identity, k * identity) == S(1));
    CHECK(std::abs(reader.angle(k * identity, k * rotation(angle, Vector3<S>(1, 0, 0))) - angle) <=
          S(4) * eps<S>());
  }

  // Twist: swing-only rotations have no twist (weight 1); twist about z is read and remapped.
  settings.twist = ConeRange<S>{S(0.1), S(0.5)};
  settings.cone = {S(3), S(3.1)};  // a circular swing cone that passes everything here
  settings.elliptical_y.reset();
  const auto twisting = *PoseReader<S>::build(settings);
  auto rng = make_rng(101);
  for (int n = 0; n < 100; ++n) {
    const S phi = uniform<S>(rng, S(0), S(6.28));
    const M swing =
        rotation(uniform<S>(rng, S(0), S(2.5)), Vector3<S>(std::cos(phi), std::sin(phi), 0));
    CHECK(std::abs(PoseReader<S>::twist(identity, swing)) <= contract<S>(1e-12) * S(10));
    CHECK(std::abs(twisting.weight(identity, swing) - S(1)) <= contract<S>(1e-12) * S(10));
  }
  const M twist = rotation(S(0.3), Vector3<S>(0, 0, 1));
  CHECK(std::abs(PoseReader<S>::twist(identity, twist) - S(0.3)) <= S(64) * eps<S>());
  CHECK(std::abs(twisting.weight(identity, twist) - S(0.5)) <= S(256) * eps<S>());
  // A 180° swing is deterministic and finite.
  const M flip = rotation(detail::pi<S>(), Vector3<S>(1, 0, 0));
  CHECK(std::isfinite(PoseReader<S>::twist(identity, flip)));
  CHECK(std::isfinite(twisting.weight(identity, flip)));

  // Every target axis: the twist is about the aimed axis, from the shortest turn that aims it
  // along the reader's z (for −z, whose shortest turn is any half turn: the one about x, as a
  // bind pose diag(1, −1, −1) holds it). Decomposed about the target's own z, a −z target was a
  // 180° swing, and every twist read 0 (weight 1).
  const std::pair<PoseAxis, Vector3<S>> axes[] = {
      {PoseAxis::x, Vector3<S>(1, 0, 0)},           {PoseAxis::y, Vector3<S>(0, 1, 0)},
      {PoseAxis::z, Vector3<S>(0, 0, 1)},           {PoseAxis::negative_x, Vector3<S>(-1, 0, 0)},
      {PoseAxis::negative_y, Vector3<S>(0, -1, 0)}, {PoseAxis::negative_z, Vector3<S>(0, 0, -1)}};
  for (const auto& [axis, a] : axes) {
    settings.target_axis = axis;
    const auto by_axis = *PoseReader<S>::build(settings);
    const M rest = axis == PoseAxis::negative_z
                       ? M(Vector3<S>(1, -1, -1).asDiagonal())
                       : M(Eigen::Quaternion<S>::FromTwoVectors(a, Vector3<S>::UnitZ()));
    for (const auto& [tw, expected] :
         {std::pair{S(0.05), S(1)}, std::pair{S(0.3), S(0.5)}, std::pair{S(-0.3), S(0.5)},
          std::pair{S(0.4), S(0.25)}, std::pair{S(1), S(0)}}) {
      const M twisted = rest * rotation(tw, a);
      INFO("axis " << int(axis) << ", twist " << tw);
      CHECK(std::abs(by_axis.weight(identity, twisted) - expected) <= S(256) * eps<S>());
      // Swung as well, about an axis across the reader's z: swing and twist apart, the same
      // twist (an x or y target read part of such a swing as twist).
      const M swung = rotation(S(0.5), Vector3<S>(1, 0, 0)) * twisted;
      CHECK(std::abs(by_axis.weight(identity, swung) - expected) <= S(256) * eps<S>());
    }
  }
}

TEMPLATE_TEST_CASE("the cone reader rejects bad cones and survives zero axes",
                   "[rig][pose_reader][errors]", float, double) {
  using S = TestType;
  PoseReaderSettings<S> settings;
  settings.cone = {S(0.8), S(0.4)};
  CHECK(PoseReader<S>::build(settings).error().message ==
        "cone: inner " + detail::number_text(S(0.8)) + " exceeds outer " +
            detail::number_text(S(0.4)));
  // Small angles keep their digits (std::to_string printed both as 0.000000).
  if (std::is_same<S, double>::value) {
    settings.cone = {S(1e-7), S(5e-8)};
    CHECK(PoseReader<S>::build(settings).error().message ==
          "cone: inner 1e-07 exceeds outer 5e-08");
  }
  settings.cone = {S(-0.1), S(0.4)};
  CHECK(PoseReader<S>::build(settings).error().code == ErrorCode::out_of_range);
  settings.cone = {S(0.1), std::numeric_limits<S>::quiet_NaN()};
  CHECK(PoseReader<S>::build(settings).error().code == ErrorCode::non_finite);
  settings.cone = {S(0.2), S(0.6)};
  settings.elliptical_y = {{S(0.7), S(0.3)}};
  CHECK(PoseReader<S>::build(settings).error().message ==
        "elliptical_y: inner " + detail::number_text(S(0.7)) + " exceeds outer " +
            detail::number_text(S(0.3)));
  settings.elliptical_y.reset();
  // inner == outer is a step.
  settings.cone = {S(0.5), S(0.5)};
  const auto step = *PoseReader<S>::build(settings);
  using M = Eigen::Matrix<S, 3, 3>;
  CHECK(step.weight(M::Identity(), rotation(S(0.49), Vector3<S>(1, 0, 0))) == S(1));
  CHECK(step.weight(M::Identity(), rotation(S(0.51), Vector3<S>(1, 0, 0))) == S(0));
  CHECK(step.weight(M::Zero(), M::Identity()) == S(0));
}

TEMPLATE_TEST_CASE("one cone range makes a circular cone", "[rig][pose_reader]", float, double) {
  using S = TestType;
  // Only the cone is set: every direction of tilt reads the same. A 40° tilt in a linear cone
  // from 20° to 60° is halfway: weight (60 − 40)/(60 − 20) = 0.5.
  PoseReaderSettings<S> settings;
  settings.cone = {S(20) * detail::pi<S>() / S(180), S(60) * detail::pi<S>() / S(180)};
  const auto reader = *PoseReader<S>::build(settings);
  using M = Eigen::Matrix<S, 3, 3>;
  const S tilt = S(40) * detail::pi<S>() / S(180);
  for (S direction : {S(0), S(0.7), S(1.5707963), S(2.5), S(4)}) {
    const Vector3<S> axis(std::cos(direction), std::sin(direction), S(0));
    CHECK(std::abs(reader.weight(M::Identity(), rotation(tilt, axis)) - S(0.5)) <=
          S(64) * eps<S>());
  }
}
