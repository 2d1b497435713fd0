#include <array>
#include <cmath>
#include <limits>

#include "support/catch.hpp"
#include "support/properties.hpp"
#include "support/shapes.hpp"
#include "tractrix/frame/up_source.hpp"

using namespace tractrix;
using namespace tractrix::test;

namespace {
template <class S>
void check_frame(const Frame<S>& f, const MeasuredPath<S>& path, S s) {
  const S tol = S(64) * eps<S>();
  CHECK((f.rotation.transpose() * f.rotation - Eigen::Matrix<S, 3, 3>::Identity()).norm() <= tol);
  CHECK(std::abs(f.rotation.determinant() - S(1)) <= tol);
  // Forward is the path's direction of increasing arc length.
  const Vector3<S> tangent = path.tangent_at(s);
  CHECK(f.forward().cross(tangent).norm() <= tol);
  CHECK(f.forward().dot(tangent) > S(0));
}
}  // namespace

TEMPLATE_TEST_CASE("every up source gives orthonormal frames along random paths", "[frame][up]",
                   float, double) {
  using S = TestType;
  auto rng = make_rng(61);
  for (int n = 0; n < property_count(6); ++n) {
    const auto points = random_loop_points<S>(rng, 7, S(40));
    const auto path = *MeasuredPath<S>::build(Path<S, 3>::catmull_rom(points, Closure::closed));
    std::vector<Vector3<S>> rail_points;
    for (const auto& p : points)
      rail_points.push_back(p + Vector3<S>(0, S(2), 0));
    const auto rail =
        *MeasuredPath<S>::build(Path<S, 3>::catmull_rom(rail_points, Closure::closed));
    const auto roll =
        *RollProfile<S>::build({S(0), path.length() / S(2)}, {S(0.2), S(-0.4)}, path.length());
    std::vector<UpSource<S>> sources{
        *UpSource<S>::world(), *UpSource<S>::world(Vector3<S>::UnitZ()), *UpSource<S>::rail(rail),
        *UpSource<S>::rail(rail, RailMatch::closest_point),
        *UpSource<S>::rotation_minimizing(path)};
    sources.push_back(sources[0].with_roll(roll));
    sources.push_back(sources[4].with_roll(roll));
    for (const auto& source : sources) {
      for (int i = 0; i < 40; ++i) {
        const S s = path.length() * S(i) / S(40);
        check_frame(source.frame_at(path, s), path, s);
      }
    }
  }
}

TEMPLATE_TEST_CASE("a rail that is the track itself gives world +Y", "[frame][up][rail]", float,
                   double) {
  using S = TestType;
  // Every rail point lies on the track, so the offset has no part across the tangent: the
  // documented fallback, world +Y, not a 0/0 (the circle lies flat: +Y is the frames' up).
  const auto path = *MeasuredPath<S>::build(circle<S>(S(20), 16));
  for (const RailMatch match : {RailMatch::normalized_arc_length, RailMatch::closest_point}) {
    const auto up = *UpSource<S>::rail(path, match);
    for (int i = 0; i < 40; ++i) {
      const S s = path.length() * S(i) / S(40);
      const auto sample = path.sample(s);
      const Vector3<S> hint = up.up_at(s, path.length(), sample.point, sample.tangent);
      INFO("s = " << s);
      REQUIRE(hint.allFinite());
      CHECK((hint - Vector3<S>::UnitY()).norm() == S(0));
      CHECK(up.frame_at(path, s).up().y() >= S(1) - S(8) * std::numeric_limits<S>::epsilon());
    }
  }
}

TEMPLATE_TEST_CASE("a rail beside a circle banks by atan2(w, h)", "[frame][up][rail]", double) {
  using S = TestType;
  // Path: circle of radius R; rail: circle of radius R + w at height h. At every point the
  // offset to the rail is w·outward + h·up, already in the normal plane, so the bank (the angle
  // of up from +Y) is atan2(w, h). The cubic circles are accurate to ~(2π/64)⁶ ≈ 1e-10.
  for (const auto& [radius, w, h] :
       {std::array<S, 3>{S(1000), S(0.5), S(1.5)}, std::array<S, 3>{S(3), S(0.5), S(1.5)},
        std::array<S, 3>{S(3), S(2.5), S(0.5)}}) {
    const auto path = *MeasuredPath<S>::build(circle<S>(radius, 64));
    const auto rail = *MeasuredPath<S>::build(circle<S>(radius + w, 64, h));
    // The same rail drawn from another starting angle: its normalized arc length no longer
    // matches the path's, but the closest point in the normal plane still does. From 1.2 rad on,
    // Newton from the normalized match reached the crossing across the loop (up pointed over it).
    const auto shifted_rail = *MeasuredPath<S>::build(circle<S>(radius + w, 64, h, S(0.7)));
    const auto by_length = *UpSource<S>::rail(rail);
    const auto by_plane = *UpSource<S>::rail(shifted_rail, RailMatch::closest_point);
    const auto by_shifted_length = *UpSource<S>::rail(shifted_rail);
    const S expected = std::atan2(w, h);
    const S circle_error = S(2.7e-4) * std::pow(S(4) / S(64), S(6)) * (radius + w);
    for (const S phase : {S(1.2), S(1.4), S(2), S(2.5), S(3.1)}) {
      const auto far_shifted = *UpSource<S>::rail(
          *MeasuredPath<S>::build(circle<S>(radius + w, 64, h, phase)), RailMatch::closest_point);
      for (int i = 0; i < 50; ++i) {
        const S s = path.length() * S(i) / S(50);
        const auto f = far_shifted.frame_at(path, s);
        INFO("R = " << radius << ", phase " << phase << ", s = " << s);
        CHECK(std::abs(detail::angle_between(f.up(), Vector3<S>::UnitY()) - expected) <=
              1e-11 + S(2) * circle_error / std::hypot(w, h));
        CHECK(f.up().dot(Vector3<S>(f.origin.x(), 0, f.origin.z())) > 0);
      }
    }
    for (int i = 0; i < 50; ++i) {
      const S s = path.length() * S(i) / S(50);
      const auto f = by_length.frame_at(path, s);
      INFO("R = " << radius << ", s = " << s);
      CHECK(std::abs(detail::angle_between(f.up(), Vector3<S>::UnitY()) - expected) <= 1e-9);
      // Banked outwards: up leans away from the centre, towards the rail.
      CHECK(f.up().dot(Vector3<S>(f.origin.x(), 0, f.origin.z())) > 0);
      // With knots at other angles the two cubic circles' radial errors no longer cancel: the
      // 4 tan(Δθ/4) circle errs by 2.7e-4·R at 4 segments, scaling as Δθ⁶ (Dokken et al. 1990);
      // that error over the offset |(w, h)| bounds the angle.
      const auto g = by_plane.frame_at(path, s);
      CHECK(std::abs(detail::angle_between(g.up(), Vector3<S>::UnitY()) - expected) <=
            1e-11 + S(2) * circle_error / std::hypot(w, h));
      // The normalized match with a phase-shifted rail is wrong, as documented.
      const auto wrong = by_shifted_length.frame_at(path, s);
      CHECK(std::abs(detail::angle_between(wrong.up(), Vector3<S>::UnitY()) - expected) > 1e-3);
    }
  }
}

TEMPLATE_TEST_CASE("closed paths have no seam, also at exactly 100% with a rail",
                   "[frame][up][rail]", float, double) {
  using S = TestType;
  const auto path = *MeasuredPath<S>::build(circle<S>(S(50), 16));
  const auto rail = *MeasuredPath<S>::build(circle<S>(S(51), 16, S(1)));
  const S length = path.length();
  for (const auto& source : {*UpSource<S>::rail(rail), *UpSource<S>::rotation_minimizing(path)}) {
    const auto start = source.frame_at(path, S(0));
    const auto end = source.frame_at(path, length);  // where the TrainDriver plugin failed
    CHECK((start.rotation - end.rotation).norm() <= S(64) * eps<S>());
    const auto just_before = source.frame_at(path, length * (S(1) - S(1e-4)));
    CHECK((start.rotation - just_before.rotation).norm() <= S(2e-3));
    for (S s : {S(3), S(77.5)}) {
      const auto a = source.frame_at(path, s);
      const auto b = source.frame_at(path, s + length);
      const auto c = source.frame_at(path, s - S(1000) * length);
      CHECK((a.rotation - b.rotation).norm() <= contract<S>(1e-11) * S(10));
      CHECK((a.rotation - c.rotation).norm() <= contract<S>(1e-10) * S(10));
    }
  }
}

TEMPLATE_TEST_CASE("roll profiles interpolate C1 through their keys", "[frame][roll]", float,
                   double) {
  using S = TestType;
  const std::vector<S> d{S(0), S(10), S(25), S(40)};
  const std::vector<S> a{S(0), S(0.5), S(-0.3),
                         S(2) * detail::pi<S>()};  // ends one full roll later
  const auto open = *RollProfile<S>::build(d, a);
  for (std::size_t i = 0; i < d.size(); ++i)
    CHECK(std::abs(open.angle_at(d[i]) - a[i]) <= S(4) * eps<S>() * S(7));
  CHECK(open.angle_at(S(-5)) == a.front());
  CHECK(open.angle_at(S(100)) == a.back());
  // C1: one-sided difference quotients agree at the inner keys.
  const S h = std::cbrt(eps<S>()) * S(10);
  for (std::size_t i = 1; i + 1 < d.size(); ++i) {
    const S left = (open.angle_at(d[i]) - open.angle_at(d[i] - h)) / h;
    const S right = (open.angle_at(d[i] + h) - open.angle_at(d[i])) / h;
    CHECK(std::abs(left - right) <= S(40) * h);
  }
  // Between keys, the Hermite cubic with the documented slopes (the mean of the neighbouring
  // secants; the end secant at an open profile's ends), in long double.
  {
    using L = long double;
    const L secant[3] = {(L(a[1]) - L(a[0])) / 10, (L(a[2]) - L(a[1])) / 15,
                         (L(a[3]) - L(a[2])) / 15};
    const L slope[4] = {secant[0], (secant[0] + secant[1]) / 2, (secant[1] + secant[2]) / 2,
                        secant[2]};
    for (const L s : {L(3), L(17.5), L(31)}) {
      const std::size_t k = s < 10 ? 0 : (s < 25 ? 1 : 2);
      const L w = L(d[k + 1]) - L(d[k]), u = (s - L(d[k])) / w;
      const L expected =
          (2 * u * u * u - 3 * u * u + 1) * L(a[k]) + (u * u * u - 2 * u * u + u) * w * slope[k] +
          (3 * u * u - 2 * u * u * u) * L(a[k + 1]) + (u * u * u - u * u) * w * slope[k + 1];
      INFO("s " << double(s));
      CHECK(std::abs(L(open.angle_at(S(s))) - expected) <= 64 * L(eps<S>()) * 7);
    }
  }
  // Periodic: a profile that gains 2π per lap keeps rolling through the seam (no roll back):
  // keys 0 → 0 and 20 → π close on 40 → 2π, every secant π/20, so the angle is πs/20.
  const auto loop = *RollProfile<S>::build({S(0), S(20)}, {S(0), detail::pi<S>()}, S(40));
  for (const S s : {S(7), S(30), S(39.99), S(40.01), S(55)}) {
    INFO("s " << s);
    const S expected = detail::pi<S>() * (s < S(40) ? s : s - S(40)) / S(20);
    CHECK(std::abs(loop.angle_at(s) - expected) <= S(64) * eps<S>() * S(7));
  }
  const S before = loop.angle_at(S(40) - S(1e-2)), after = loop.angle_at(S(40) + S(1e-2));
  const S jump = std::remainder(after - before, S(2) * detail::pi<S>());
  CHECK(std::abs(jump) < S(0.01));
  CHECK(std::abs(loop.angle_at(S(5)) - loop.angle_at(S(45))) <= S(64) * eps<S>() * S(10));

  // Bad keys are rejected with the key named.
  const S nan = std::numeric_limits<S>::quiet_NaN();
  CHECK(RollProfile<S>::build({}, {}).error().code == ErrorCode::empty_input);
  CHECK(RollProfile<S>::build({S(0), S(0)}, {S(0), S(1)}).error().message ==
        "roll key 1: distance " + detail::number_text(S(0)) + " not after " +
            detail::number_text(S(0)));
  CHECK(RollProfile<S>::build({S(0), nan}, {S(0), S(1)}).error().code == ErrorCode::non_finite);
  CHECK(RollProfile<S>::build({S(0)}, {S(0), S(1)}).error().code == ErrorCode::mismatched_sizes);
  CHECK(RollProfile<S>::build({S(0), S(50)}, {S(0), S(1)}, S(40)).error().code ==
        ErrorCode::out_of_range);
  // A span an ulp shorter than the period, keys beyond the first lap: the closing key 50 + period
  // rounds onto the last key, 150 (an interval of length 0 made every angle NaN).
  const S period = std::nextafter(S(100), S(200));
  const auto onto = RollProfile<S>::build({S(50), S(100), S(150)}, {S(0), S(0.3), S(0.1)}, period);
  REQUIRE(!onto);
  CHECK(onto.error().message.find("rounds onto the last key") != std::string::npos);
  // Just long enough for the closing key to land after the last: every angle finite, and the
  // keys' own angles.
  const S longer = S(100) + S(2) * (std::nextafter(S(150), S(200)) - S(150));  // 2 ulps at 150
  const auto closing =
      RollProfile<S>::build({S(50), S(100), S(150)}, {S(0), S(0.3), S(0.1)}, longer);
  REQUIRE(closing);
  for (S s = S(-10); s < S(300); s += S(0.37))
    CHECK(std::isfinite(closing->angle_at(s)));
  CHECK(closing->angle_at(S(100)) == S(0.3));
}

TEMPLATE_TEST_CASE("roll turns up about forward, right-handed", "[frame][roll]", float, double) {
  using S = TestType;
  using V = Vector3<S>;
  const auto straight = *MeasuredPath<S>::build(Path<S, 3>::from_hermite_keys(
      {V(0, 0, 0), V(0, 0, 10)}, {V(0, 0, 10), V(0, 0, 10)}, Closure::open));
  const S angle = S(0.3);
  const auto rolled = UpSource<S>::world()->with_roll(*RollProfile<S>::build({S(0)}, {angle}));
  const auto f = rolled.frame_at(straight, S(5));
  // Forward +Z, up +Y rolled by +0.3 about +Z turns towards −X (−side).
  CHECK((f.up() - V(-std::sin(angle), std::cos(angle), 0)).norm() <= S(16) * eps<S>());
}

TEMPLATE_TEST_CASE("up sources reject bad input", "[frame][up][errors]", float, double) {
  using S = TestType;
  using V = Vector3<S>;
  const S nan = std::numeric_limits<S>::quiet_NaN();
  CHECK(UpSource<S>::world(V(0, nan, 0)).error().code == ErrorCode::non_finite);
  CHECK(UpSource<S>::world(V(0, 0, 0)).error().code == ErrorCode::out_of_range);
  const auto point = Path<S, 3>::from_hermite_keys({V(1, 1, 1), V(1, 1, 1)}, {V::Zero(), V::Zero()},
                                                   Closure::open);
  CHECK(MeasuredPath<S>::build(point).error().message ==
        "path: zero length (all control points equal)");
  const auto path = *MeasuredPath<S>::build(circle<S>(S(5), 8));
  // The rail keeps the density its caller measured it with (0.1 rebuilt it at a fixed 16).
  const auto coarse_rail = *MeasuredPath<S>::build(circle<S>(S(6), 8), {3});
  CHECK(UpSource<S>::rail(coarse_rail)->rail_path()->table().samples_per_segment() == 3);
  CHECK(UpSource<S>::rail(coarse_rail)->rail_path()->shares_data_with(coarse_rail));
  // Rotation-minimizing frames sit at 16 parameters a segment, whatever the table's density.
  const auto rmf = *UpSource<S>::rotation_minimizing(path);
  CHECK(rmf.frames()->size() == 16 * path.path().size() + 1);
  CHECK(UpSource<S>::rotation_minimizing(path, V(nan, 0, 0)).error().code == ErrorCode::non_finite);
}

TEMPLATE_TEST_CASE("rail and roll frames do not change when everything is scaled",
                   "[frame][up][rail]", double) {
  using S = TestType;
  auto rng = make_rng(67);
  const auto points = random_loop_points<S>(rng, 8, S(30));
  std::vector<Vector3<S>> rail_points;
  for (const auto& p : points)
    rail_points.push_back(p + Vector3<S>(S(0.5), S(1.5), S(0.2)));
  const auto rotations = [&](S scale, RailMatch match) {
    std::vector<Vector3<S>> a, b;
    for (const auto& p : points)
      a.push_back(scale * p);
    for (const auto& p : rail_points)
      b.push_back(scale * p);
    const auto path = *MeasuredPath<S>::build(Path<S, 3>::catmull_rom(a, Closure::closed));
    const auto roll =
        *RollProfile<S>::build({S(0), path.length() / S(3)}, {S(0.1), S(-0.2)}, path.length());
    const auto rail = *MeasuredPath<S>::build(Path<S, 3>::catmull_rom(b, Closure::closed));
    const auto up = UpSource<S>::rail(rail, match)->with_roll(roll);
    std::vector<Eigen::Matrix<S, 3, 3>> out;
    for (int i = 0; i < 25; ++i)
      out.push_back(up.frame_at(path, path.length() * S(i) / S(25)).rotation);
    return out;
  };
  for (auto match : {RailMatch::normalized_arc_length, RailMatch::closest_point}) {
    const auto base = rotations(S(1), match);
    for (S scale : {S(1e-3), S(1e3)}) {
      const auto scaled = rotations(scale, match);
      for (std::size_t i = 0; i < base.size(); ++i)
        CHECK((scaled[i] - base[i]).norm() <= 1e-12);
    }
  }
}

TEMPLATE_TEST_CASE("world up is normalized, whatever length it is given", "[frame][up]", float,
                   double) {
  using S = TestType;
  const auto path = *MeasuredPath<S>::build(Path<S, 3>::catmull_rom(
      {Vector3<S>(0, 0, 0), Vector3<S>(10, 0, 0), Vector3<S>(10, 0, 10), Vector3<S>(0, 0, 10)},
      Closure::closed));
  for (S scale : {S(1e-3), S(3), S(1e6)}) {
    const auto up = *UpSource<S>::world(scale * Vector3<S>(0, 3, 4));
    CHECK(std::abs(up.world_up().norm() - S(1)) <= S(4) * eps<S>());
    CHECK((up.world_up() - Vector3<S>(0, S(0.6), S(0.8))).norm() <= S(4) * eps<S>());
    for (S s : {S(0), S(7), S(23)}) {
      const Vector3<S> up_here = up.up_at(s, path.length(), path.point_at(s), path.tangent_at(s));
      CHECK((up_here - Vector3<S>(0, S(0.6), S(0.8))).norm() <= S(4) * eps<S>());
    }
  }
}

TEMPLATE_TEST_CASE("rotation-minimizing frames of another curve do not fit, by its length",
                   "[frame][up][errors]", float, double) {
  // Frames built on the same circle scaled by 1 + e: its length differs by e of it. The check
  // allows 8·max(1e-12, 64 eps) of the length (what exact tables of one curve can disagree by):
  // a curve off by a quarter of that fits, one off by four times it does not, and neither does
  // an open copy of a closed path.
  using S = TestType;
  const S allowance = S(8) * std::max(S(1e-12), S(64) * std::numeric_limits<S>::epsilon());
  const auto path = *MeasuredPath<S>::build(circle<S>(S(5), 8));
  for (const S off : {S(0.25), S(4)}) {
    INFO("off by " << off << " allowances");
    const auto other = *MeasuredPath<S>::build(circle<S>(S(5) * (S(1) + off * allowance), 8));
    const auto frames = *UpSource<S>::rotation_minimizing(other);
    const auto error = frames.check_fits(path);
    if (off < S(1)) {
      CHECK_FALSE(error);
    } else {
      REQUIRE(error);
      CHECK(error->code == ErrorCode::mismatched_topology);
    }
  }
  const auto open =
      *MeasuredPath<S>::build(Path<S, 3>::from_segments(path.path().segments(), Closure::open));
  CHECK((*UpSource<S>::rotation_minimizing(open)).check_fits(path));
}
