#include <cmath>
#include <limits>
#include <type_traits>

#include "support/catch.hpp"
#include "support/properties.hpp"
#include "tractrix/rig/stretch_ik.hpp"

using namespace tractrix;
using namespace tractrix::test;

TEMPLATE_TEST_CASE("the tutorial's rule: rest + (d/scale - L)/n past full reach, for any scale",
                   "[rig][stretch]", float, double) {
  using S = TestType;
  for (int bones : {2, 3, 16, 64}) {
    const auto chain =
        *StretchChain<S>::build(std::vector<S>(static_cast<std::size_t>(bones), S(5)));
    const S rest = S(5) * S(bones);
    for (S scale : {S(1e-3), S(1), S(1e3)}) {
      for (S ratio : {S(0.3), S(0.99), S(1.0), S(1.01), S(1.7), S(4)}) {
        const S d = ratio * rest * scale;
        const auto l = chain.lengths(d, *GlobalScale<S>::from(scale));
        // The tutorial: 5 + (distance/scale − 10)/2 for two bones of 5, generalized to n bones.
        const S expected = ratio > S(1) ? S(5) + (d / scale - rest) / S(bones) : S(5);
        S sum = S(0);
        for (S bone : l) {
          CHECK(std::abs(bone - expected) <= S(64) * eps<S>() * expected);
          sum += bone;
        }
        if (ratio > S(1))
          CHECK(std::abs(sum - d / scale) <= S(64) * S(bones) * eps<S>() * rest * ratio);
      }
    }
  }
  // The proportional split scales each bone by (d/scale)/L; it also sums to d/scale.
  StretchSettings<S> proportional;
  proportional.split = StretchSplit::proportional;
  const auto uneven = *StretchChain<S>::build({S(3), S(7)}, proportional);
  const auto l = uneven.lengths(S(30), *GlobalScale<S>::from(S(2)));  // d/scale = 15, L = 10
  CHECK(std::abs(l[0] - S(4.5)) <= S(16) * eps<S>() * S(5));
  CHECK(std::abs(l[1] - S(10.5)) <= S(16) * eps<S>() * S(10));
}

TEMPLATE_TEST_CASE("stretch limits: max stretch, start ratio, squash, continuity", "[rig][stretch]",
                   float, double) {
  using S = TestType;
  StretchSettings<S> settings;
  settings.max_stretch = S(1.5);
  const auto capped = *StretchChain<S>::build({S(5), S(5)}, settings);
  CHECK(capped.chain_length(S(100)) == S(15));
  // Continuous at d = L·scale, and never above the cap.
  const S below = capped.chain_length(S(10) * (S(1) - S(1e-6))),
          above = capped.chain_length(S(10) * (S(1) + S(1e-6)));
  CHECK(std::abs(below - above) <= S(2e-5));
  for (S d = S(0); d < S(40); d += S(0.01))
    CHECK(capped.chain_length(d) <= S(15));
  settings.stretch_start = S(0.9);
  const auto early = *StretchChain<S>::build({S(5), S(5)}, settings);
  CHECK(early.chain_length(S(9)) == S(10));
  CHECK(std::abs(early.chain_length(S(10)) - S(11)) <= S(8) * eps<S>() * S(11));
  settings = {};
  settings.squash = true;
  const auto squashy = *StretchChain<S>::build({S(5), S(5)}, settings);
  CHECK(std::abs(squashy.lengths(S(8), GlobalScale<S>())[0] - S(4)) <= S(8) * eps<S>() * S(4));
  // Squash with the stretch starting early keeps the chain (1 − 0.9)·10 = 1 longer than d, as the
  // stretch does: no jump from 9 to 10 where the stretch begins.
  settings.stretch_start = S(0.9);
  const auto both = *StretchChain<S>::build({S(5), S(5)}, settings);
  CHECK(std::abs(both.chain_length(S(5)) - S(6)) <= S(8) * eps<S>() * S(6));
  CHECK(std::abs(both.chain_length(S(9) * (S(1) - S(1e-6))) -
                 both.chain_length(S(9) * (S(1) + S(1e-6)))) <= S(4e-5));
  for (S d = S(0); d < S(12); d += S(0.01))
    CHECK(both.chain_length(d + S(0.01)) - both.chain_length(d) <= S(0.0101));
  // A distance that overflowed (a world distance over a small scale) is beyond any reach: the
  // cap, not 0. NaN counts as 0.
  settings = {};
  settings.squash = true;
  settings.max_stretch = S(2);
  const auto doubled = *StretchChain<S>::build({S(5), S(5)}, settings);
  CHECK(doubled.chain_length(std::numeric_limits<S>::infinity()) == S(20));
  CHECK(doubled.lengths(std::numeric_limits<S>::max(), *GlobalScale<S>::from(S(0.5)))[1] == S(10));
  CHECK(doubled.chain_length(std::numeric_limits<S>::quiet_NaN()) == S(0));
}

TEMPLATE_TEST_CASE("two-bone solves are scale-free and land on the goal within reach",
                   "[rig][stretch]", double) {
  using S = TestType;
  StretchSettings<S> settings;
  settings.max_stretch = S(1.5);
  const auto chain = *StretchChain<S>::build({S(4), S(6)}, settings);
  auto rng = make_rng(103);
  for (int n = 0; n < property_count(200); ++n) {
    const Vector3<S> root = random_vector<S, 3>(rng, S(20)), pole = random_vector<S, 3>(rng, S(20));
    const Vector3<S> goal = root + random_vector<S, 3>(rng, S(9));
    const S scale = std::pow(S(10), uniform<S>(rng, S(-3), S(3)));
    INFO("d = " << (goal - root).norm() << ", scale " << scale);
    const auto scaled =
        chain.two_bone(scale * root, scale * goal, scale * pole, *GlobalScale<S>::from(scale));
    const auto unit = chain.two_bone(root, goal, pole, GlobalScale<S>());
    // Solving (root, goal, scale) equals solving (root/scale, goal/scale, 1), scaled.
    for (const auto& [a, b] : {std::pair{scaled.knee, unit.knee}, std::pair{scaled.end, unit.end}})
      CHECK((a / scale - b).norm() <= 1e-12 * (b.norm() + 10));
    // Bones keep their lengths; within the clamp the effector lands on the goal.
    CHECK(std::abs((unit.knee - unit.root).norm() - unit.upper_length) <= 1e-9 * 10);
    CHECK(std::abs((unit.end - unit.knee).norm() - unit.lower_length) <= 1e-9 * 10);
    if ((goal - root).norm() < S(15) && (goal - root).norm() > S(2))
      CHECK((unit.end - goal).norm() <= 1e-9 * 10);
    // The knee bends towards the pole.
    const Vector3<S> u = (goal - root).normalized();
    const Vector3<S> to_pole = (pole - root) - (pole - root).dot(u) * u;
    CHECK((unit.knee - root).dot(to_pole) >= -1e-9);
    CHECK(unit.upper_rotation.allFinite());
  }
  // Degenerate: goal on the root, pole on the root–goal line.
  const auto folded =
      chain.two_bone(Vector3<S>::Zero(), Vector3<S>::Zero(), Vector3<S>(0, 1, 0), GlobalScale<S>());
  CHECK(folded.knee.allFinite());
  CHECK(folded.end.allFinite());
  const auto collinear = chain.two_bone(Vector3<S>::Zero(), Vector3<S>(5, 0, 0),
                                        Vector3<S>(9, 0, 0), GlobalScale<S>());
  CHECK(collinear.knee.allFinite());
  CHECK((collinear.end - Vector3<S>(5, 0, 0)).norm() <= 1e-12);
}

// The bones' rotations against the joints and the inputs: z along the bone (from the world
// joints), x along (pole − root) × (goal − root) for both bones, orthonormal and right-handed.
TEMPLATE_TEST_CASE(
    "two_bone's bone rotations are rotations about one hinge, turning with the bones",
    "[rig][stretch]", float, double) {
  using S = TestType;
  using M = Eigen::Matrix<S, 3, 3>;
  const S tolerance = S(16) * eps<S>();
  const auto check_rotation = [&](const M& r, const Vector3<S>& along, const Vector3<S>& hinge) {
    CHECK((r.transpose() * r - M::Identity()).cwiseAbs().maxCoeff() <= tolerance);
    CHECK(std::abs(r.determinant() - S(1)) <= tolerance);
    CHECK((r.col(2) - along.normalized()).norm() <= S(64) * eps<S>());
    CHECK((r.col(0) - hinge).norm() <= S(64) * eps<S>());
  };
  StretchSettings<S> settings;
  settings.max_stretch = S(1.5);
  const auto chain = *StretchChain<S>::build({S(3), S(5)}, settings);
  auto rng = make_rng(131);
  for (int n = 0; n < property_count(200); ++n) {
    const Vector3<S> root = random_vector<S, 3>(rng, S(5)), pole = random_vector<S, 3>(rng, S(20));
    const Vector3<S> goal = root + random_vector<S, 3>(rng, S(7));
    const Vector3<S> hinge = (pole - root).cross(goal - root).normalized();
    const auto pose = chain.two_bone(root, goal, pole, GlobalScale<S>());
    INFO("solve " << n);
    check_rotation(pose.upper_rotation, pose.knee - pose.root, hinge);
    check_rotation(pose.lower_rotation, pose.end - pose.knee, hinge);
  }
  // A bone pointing at the pole: y was the pole's direction less its part along the bone, all
  // rounding there (det 6e-5, |RᵀR − I| = 1.7).
  const auto rigid = *StretchChain<S>::build({S(3), S(5)});
  const Vector3<S> pole(S(0.3), S(10), S(0.7)), goal(4, 0, 0);
  const auto at_pole = rigid.two_bone(Vector3<S>::Zero(), goal, pole, GlobalScale<S>());
  const Vector3<S> hinge = pole.cross(goal).normalized();
  check_rotation(at_pole.upper_rotation, at_pole.knee, hinge);
  check_rotation(at_pole.lower_rotation, at_pole.end - at_pole.knee, hinge);
  // The upper bone of {3, 5} stands perpendicular to the root–goal line at d = 4: its y turned
  // 180° there. It turns by about the bone's own turn (0.33 mrad) across d = 4 ± 0.001.
  for (const auto& [lengths, bone] :
       {std::pair{std::vector<S>{S(3), S(5)}, 0}, std::pair{std::vector<S>{S(5), S(3)}, 1}}) {
    const auto c = *StretchChain<S>::build(lengths);
    const Vector3<S> up(0, 10, 0);
    const auto a = c.two_bone(Vector3<S>::Zero(), Vector3<S>(S(3.999), 0, 0), up, GlobalScale<S>());
    const auto b = c.two_bone(Vector3<S>::Zero(), Vector3<S>(S(4.001), 0, 0), up, GlobalScale<S>());
    const M& ra = bone == 0 ? a.upper_rotation : a.lower_rotation;
    const M& rb = bone == 0 ? b.upper_rotation : b.lower_rotation;
    INFO("bones " << lengths[0] << ", " << lengths[1]);
    CHECK((ra - rb).cwiseAbs().maxCoeff() <= S(1e-3));
  }
}

TEMPLATE_TEST_CASE("a chain much smaller than a unit bends towards its pole", "[rig][stretch]",
                   float, double) {
  using S = TestType;
  // Bones of 1e-5 (float) or 1e-14 (double), the goal 1.5 bones away: the knee is 0.75 of a bone
  // along the line and sqrt(1 − 0.75²) off it, towards the pole. The pole test held an absolute
  // unit: every pole here counted as on the line and the knee went to +z.
  const S bone = sizeof(S) == sizeof(float) ? S(1e-5) : S(1e-14);
  const auto chain = *StretchChain<S>::build({bone, bone});
  const Vector3<S> goal(S(1.5) * bone, 0, 0);
  const S off = std::sqrt(S(1) - S(0.5625));
  for (const Vector3<S>& side :
       {Vector3<S>(0, 1, 0), Vector3<S>(0, -1, 0), Vector3<S>(0, 0, 1), Vector3<S>(0, 0, -1)}) {
    const Vector3<S> pole = Vector3<S>(S(0.75) * bone, 0, 0) + S(0.5) * bone * side;
    const auto pose = chain.two_bone(Vector3<S>::Zero(), goal, pole, GlobalScale<S>());
    const Vector3<S> expected = bone * (Vector3<S>(S(0.75), 0, 0) + off * side);
    INFO("pole side " << side.transpose());
    CHECK((pose.knee - expected).norm() <= S(64) * eps<S>() * bone);
  }
}

TEMPLATE_TEST_CASE("two_bone on chains near the ends of the scalar's range: a 3-4-5 triangle",
                   "[rig][stretch]", float, double) {
  using S = TestType;
  // Bones 3 and 4 (times a size), the goal 5 along x, the pole towards +y: the knee at
  // (1.8, 2.4) and the lower bone along (0.8, −0.6), whatever the size. The law of cosines'
  // squares overflowed for large sizes (the chain went straight) and underflowed for small ones.
  const bool single = sizeof(S) == sizeof(float);
  for (const S size : {single ? S(1e19) : S(1e200), single ? S(1e-19) : S(1e-200), S(1)}) {
    INFO("size " << size);
    const auto chain = *StretchChain<S>::build({S(3) * size, S(4) * size});
    const auto pose = chain.two_bone(Vector3<S>::Zero(), Vector3<S>(S(5) * size, 0, 0),
                                     Vector3<S>(0, size, 0), GlobalScale<S>());
    CHECK((pose.knee / size - Vector3<S>(S(1.8), S(2.4), 0)).norm() <= S(16) * eps<S>());
    CHECK((pose.end / size - Vector3<S>(5, 0, 0)).norm() <= S(16) * eps<S>());
    CHECK((pose.upper_rotation.col(2) - Vector3<S>(S(0.6), S(0.8), 0)).norm() <= S(16) * eps<S>());
    CHECK((pose.lower_rotation.col(2) - Vector3<S>(S(0.8), S(-0.6), 0)).norm() <= S(16) * eps<S>());
    CHECK(
        (pose.lower_rotation.transpose() * pose.lower_rotation - Eigen::Matrix<S, 3, 3>::Identity())
            .norm() <= S(16) * eps<S>());
  }
}
TEMPLATE_TEST_CASE("two_bone on a chain of one or three bones: its first bone and the rest",
                   "[rig][stretch]", float, double) {
  // The bone count is the user's; two_bone wrote size() lengths into room for two (a stack
  // overflow in release builds, an abort in debug ones).
  using S = TestType;
  const S tol = S(64) * eps<S>() * S(10);
  const Vector3<S> root(1, 2, 3), pole(1, 9, 3);
  StretchSettings<S> settings;
  settings.max_stretch = S(1);  // rigid: the lower bone is 2 + 3 long
  const auto three = *StretchChain<S>::build({S(1), S(2), S(3)}, settings);
  // Within reach (1 to 6 from the root) the effector lands on the goal with bones of 1 and 5.
  const Vector3<S> goal = root + Vector3<S>(3, 0, 4);  // 5 away
  const auto bent = three.two_bone(root, goal, pole, GlobalScale<S>());
  CHECK((bent.end - goal).norm() <= tol);
  CHECK(std::abs((bent.knee - root).norm() - S(1)) <= tol);
  CHECK(std::abs((bent.end - bent.knee).norm() - S(5)) <= tol);
  CHECK(bent.lower_length == S(5));
  // The knee off the root–goal line on the pole's side: at the law-of-cosines angle from it,
  // cos = (1 + 25 − 25) / (2·1·5) = 0.1.
  CHECK(std::abs((bent.knee - root).dot(Vector3<S>(S(0.6), 0, S(0.8))) - S(0.1)) <= tol);
  CHECK((bent.knee - root).y() > S(0));
  // Stretching, the equal split gives the lower bone two shares of the extra.
  const auto stretchy = *StretchChain<S>::build({S(1), S(2), S(3)});
  const auto far = stretchy.two_bone(root, root + Vector3<S>(9, 0, 0), pole, GlobalScale<S>());
  CHECK(std::abs(far.upper_length - S(2)) <= tol);  // 1 + (9 − 6)/3
  CHECK(std::abs(far.lower_length - S(7)) <= tol);  // 5 + 2·(9 − 6)/3
  CHECK((far.end - (root + Vector3<S>(9, 0, 0))).norm() <= tol);

  // One bone: the knee is the end, the bone's length from the root towards the goal.
  const auto one = *StretchChain<S>::build({S(2)}, settings);
  for (const S d : {S(0.5), S(2), S(7)}) {
    const auto pose = one.two_bone(root, root + Vector3<S>(0, 0, d), pole, GlobalScale<S>());
    CHECK((pose.knee - (root + Vector3<S>(0, 0, 2))).norm() <= tol);
    CHECK((pose.end - pose.knee).norm() <= tol);
    CHECK(pose.lower_length == S(0));
    CHECK(pose.lower_rotation.allFinite());
  }
  // With a soft zone the aim can land an ulp past the bone: the zero-length lower bone's frame
  // was built from the rounding of aim·u − bone·upper (off orthonormal by 9.4e-3, its z 0.02 rad
  // off the root–goal line). It is the upper bone's frame, a rotation.
  if (std::is_same<S, double>::value) {
    StretchSettings<S> soft;
    soft.soft = S(0x1.8a9cf2cc4b1a4p-6);
    const auto single = *StretchChain<S>::build({S(0x1.1b79f899238d7p+0)}, soft);
    const Vector3<S> far_goal(S(0x1.14309723ed80dp-4), S(0x1.0300ffc56e108p+1),
                              S(-0x1.0fca086d7f631p+0));
    const Vector3<S> side_pole(S(-0x1.3cf7018ee05d9p-3), S(-0x1.761f4f610ed0ap-2),
                               S(-0x1.6d8b7ad2986d1p-3));
    const auto pose = single.two_bone(Vector3<S>::Zero(), far_goal, side_pole, GlobalScale<S>());
    const Eigen::Matrix<S, 3, 3> r = pose.lower_rotation;
    CHECK((r.transpose() * r - Eigen::Matrix<S, 3, 3>::Identity()).cwiseAbs().maxCoeff() <=
          S(16) * eps<S>());
    CHECK((r.col(2) - far_goal.normalized()).norm() <= S(16) * eps<S>());
  }
  // A lower bone a few hundred ulps of the others long: its direction's rounding off the bend
  // plane (eps·2/l1) tilted its frame off a rotation by up to 5e-3.
  auto rng = make_rng(91);
  for (const S ulps : {S(70), S(200), S(1000), S(10000)}) {
    StretchSettings<S> rigid;
    rigid.max_stretch = S(1);
    const auto tiny_lower = *StretchChain<S>::build({S(1), ulps * eps<S>() * S(2)}, rigid);
    for (int i = 0; i < 200; ++i) {
      const Vector3<S> direction = random_vector<S, 3>(rng, S(1)).normalized();
      const auto pose = tiny_lower.two_bone(Vector3<S>::Zero(), direction,
                                            random_vector<S, 3>(rng, S(1)), GlobalScale<S>());
      for (const auto& r : {pose.upper_rotation, pose.lower_rotation})
        CHECK((r.transpose() * r - Eigen::Matrix<S, 3, 3>::Identity()).cwiseAbs().maxCoeff() <=
              S(16) * eps<S>());
    }
  }
}

TEST_CASE("soft IK removes the knee pop", "[rig][stretch]") {
  // Two bones of 5, pole up; the goal slides out along x through full extension (10).
  auto knee_speed = [](const StretchChain<double>& chain) {
    double worst = 0;
    Vector3d previous =
        chain.two_bone(Vector3d::Zero(), Vector3d(9, 0, 0), Vector3d(0, 5, 0), {}).knee;
    for (double d = 9.01; d <= 11.0; d += 0.01) {
      const Vector3d knee =
          chain.two_bone(Vector3d::Zero(), Vector3d(d, 0, 0), Vector3d(0, 5, 0), {}).knee;
      worst = std::max(worst, (knee - previous).norm() / 0.01);
      previous = knee;
    }
    return worst;
  };
  StretchSettings<double> hard;
  hard.max_stretch = 1;
  StretchSettings<double> soft = hard;
  soft.soft = 0.1;
  StretchSettings<double> soft_stretch = soft;
  soft_stretch.max_stretch = 2;
  const double hard_speed = knee_speed(*StretchChain<double>::build({5, 5}, hard));
  INFO("hard knee speed " << hard_speed);
  CHECK(hard_speed > 15);  // the pop: the knee snaps as the chain straightens
  CHECK(knee_speed(*StretchChain<double>::build({5, 5}, soft)) <= 3);
  CHECK(knee_speed(*StretchChain<double>::build({5, 5}, soft_stretch)) <= 3);
  // Soft reach is C¹: value and slope continuous where the soft zone begins (d = 9).
  const auto chain = *StretchChain<double>::build({5, 5}, soft);
  const double h = 1e-6;
  CHECK(std::abs(chain.soft_reach(9 + h, 10) - chain.soft_reach(9 - h, 10) - 2 * h) <= 1e-10);
  // Its values (Nicholas's rule): d below the zone, hard + zone·(1 − e^(−(d − hard)/zone))
  // in it: at d = 10 (zone 1, hard 9) 9 + (1 − 1/e).
  CHECK(chain.soft_reach(8.5, 10) == 8.5);
  CHECK(std::abs(chain.soft_reach(10, 10) - (10 - std::exp(-1.0))) <= 1e-14);
  CHECK(std::abs(chain.soft_reach(12, 10) - (10 - std::exp(-3.0))) <= 1e-14);
  // Soft stretch at 12: the chain scaled by k = 12 / soft_reach(12), each bone 5k, the knee
  // a bone apart from root and end.
  const auto soft_stretched = *StretchChain<double>::build({5, 5}, soft_stretch);
  const double k = 12 / (10 - std::exp(-3.0));
  const auto long_pose =
      soft_stretched.two_bone(Vector3d::Zero(), Vector3d(12, 0, 0), Vector3d(0, 5, 0), {});
  CHECK(std::abs(long_pose.upper_length - 5 * k) <= 1e-12);
  CHECK(std::abs(long_pose.lower_length - 5 * k) <= 1e-12);
  CHECK(std::abs(long_pose.knee.norm() - 5 * k) <= 1e-12);
  CHECK(std::abs((long_pose.end - long_pose.knee).norm() - 5 * k) <= 1e-12);
  // With stretching the soft chain still lands on the goal.
  const auto stretchy = *StretchChain<double>::build({5, 5}, soft_stretch);
  CHECK((stretchy.two_bone(Vector3d::Zero(), Vector3d(12, 0, 0), Vector3d(0, 5, 0), {}).end -
         Vector3d(12, 0, 0))
            .norm() <= 1e-9);
}

TEMPLATE_TEST_CASE("global scale comes from uniform transforms only, bad chains are rejected",
                   "[rig][stretch][errors]", float, double) {
  using S = TestType;
  using M = Eigen::Matrix<S, 3, 3>;
  const M rotation =
      Eigen::AngleAxis<S>(S(0.7), Vector3<S>(1, 2, 3).normalized()).toRotationMatrix();
  CHECK(std::abs(GlobalScale<S>::of_transform(S(2.5) * rotation)->value() - S(2.5)) <=
        S(8) * eps<S>() * S(2.5));
  // Scales whose squares leave the type's range: read to rounding, not as infinite or zero.
  for (const S scale : {S(std::is_same<S, float>::value ? 1e20 : 1e160),
                        S(std::is_same<S, float>::value ? 1e-23 : 1e-160)}) {
    const auto huge_or_tiny = GlobalScale<S>::of_transform(scale * rotation);
    REQUIRE(huge_or_tiny);
    CHECK(std::abs(huge_or_tiny->value() - scale) <= S(8) * eps<S>() * scale);
  }
  M stretched = rotation;
  stretched.col(1) *= S(2);
  const auto bad = GlobalScale<S>::of_transform(stretched);
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message.rfind("global scale: non-uniform", 0) == 0);
  CHECK(GlobalScale<S>::of_transform(M::Zero()).error().code == ErrorCode::out_of_range);
  // A tolerance that every comparison fails (NaN) must not accept the non-uniform transform.
  for (const S tolerance :
       {std::numeric_limits<S>::quiet_NaN(), S(-1), std::numeric_limits<S>::infinity()}) {
    const auto refused = GlobalScale<S>::of_transform(stretched, tolerance);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message.rfind("global scale: tolerance", 0) == 0);
  }
  CHECK(StretchChain<S>::build({}).error().code == ErrorCode::empty_input);
  CHECK(StretchChain<S>::build({S(5), S(0)}).error().message ==
        "bone 1: rest length " + detail::number_text(S(0)) + " is not positive");
  StretchSettings<S> settings;
  settings.max_stretch = S(0.5);
  CHECK(StretchChain<S>::build({S(5)}, settings).error().code == ErrorCode::out_of_range);
  // A zero, negative or NaN scale is rejected where it enters, never silently read as 1.
  CHECK(GlobalScale<S>::from(S(0)).error().message ==
        "global scale: " + detail::number_text(S(0)) + " is not positive");
  CHECK(GlobalScale<S>::from(S(-2)).error().code == ErrorCode::out_of_range);
  CHECK(GlobalScale<S>::from(std::numeric_limits<S>::quiet_NaN()).error().code ==
        ErrorCode::non_finite);
  CHECK(GlobalScale<S>::from(std::numeric_limits<S>::infinity()).error().code ==
        ErrorCode::non_finite);
  CHECK(GlobalScale<S>().value() == S(1));
  CHECK(GlobalScale<S>::from(S(0.25))->value() == S(0.25));
}

TEMPLATE_TEST_CASE("a straight solve puts the joints on the root-goal line", "[rig][stretch]",
                   float, double) {
  using S = TestType;
  // Three bones of 5 and a goal 18 away at scale 1, or 36 away at scale 2: every bone stretches
  // to 5 + (18 − 15)/3 = 6 in rest space, so the joints are 6·scale apart along the line.
  const auto chain = *StretchChain<S>::build({S(5), S(5), S(5)});
  const Vector3<S> direction = Vector3<S>(2, -1, 2) / S(3);
  for (S scale : {S(1), S(2)}) {
    const Vector3<S> root(1, 2, 3);
    const auto joints =
        chain.straight(root, root + S(18) * scale * direction, *GlobalScale<S>::from(scale));
    REQUIRE(joints.size() == 4u);
    for (std::size_t i = 0; i < 4; ++i)
      CHECK((joints[i] - (root + S(6) * S(i) * scale * direction)).norm() <=
            S(64) * eps<S>() * S(20) * scale);
  }
  // A goal 1.4e200 away (double; 1.4e30 in float): its squared distance overflowed, the joints
  // came out NaN (straight) or at the root.
  const S far = sizeof(S) == sizeof(float) ? S(1e30) : S(1e200);
  const Vector3<S> far_goal(far, far, 0);
  const auto far_joints = chain.straight(Vector3<S>::Zero(), far_goal, GlobalScale<S>());
  CHECK(((far_joints.back() - far_goal) / far).norm() <= S(8) * eps<S>());
  CHECK(std::abs(far_joints[1].x() - far_joints[1].y()) <= S(8) * eps<S>() * far);
  const auto far_two =
      StretchChain<S>::build({S(3), S(5)})
          ->two_bone(Vector3<S>::Zero(), far_goal, Vector3<S>(0, 0, far), GlobalScale<S>());
  CHECK(((far_two.end - far_goal) / far).norm() <= S(8) * eps<S>());
  CHECK(far_two.knee.allFinite());
  // Out of reach with max_stretch 1.1: the chain stops at 16.5·scale on the line.
  StretchSettings<S> settings;
  settings.max_stretch = S(1.1);
  const auto capped = *StretchChain<S>::build({S(5), S(5), S(5)}, settings);
  const auto end = capped.straight(Vector3<S>::Zero(), S(40) * direction, GlobalScale<S>()).back();
  CHECK((end - S(16.5) * direction).norm() <= S(64) * eps<S>() * S(20));
}
