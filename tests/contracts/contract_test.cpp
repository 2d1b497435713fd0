// Contracts every kind must keep, run over every up source, time profile and track type, for
// float and double: the promises a caller relies on without knowing which kind it was handed.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "support/catch.hpp"
#include "support/pieces.hpp"
#include "support/properties.hpp"
#include "tractrix/tractrix.hpp"

using namespace tractrix;
using namespace tractrix::test;

namespace {

template <class S>
bool orthonormal(const Eigen::Matrix<S, 3, 3>& r, S tolerance) {
  return (r.transpose() * r - Eigen::Matrix<S, 3, 3>::Identity()).norm() <= tolerance &&
         std::abs(r.determinant() - S(1)) <= tolerance;
}

// Signed angle from a to b about the unit axis, computed in long double.
template <class S>
long double angle_about(const Vector3<S>& a, const Vector3<S>& b, const Vector3<S>& axis) {
  const Eigen::Matrix<long double, 3, 1> x = a.template cast<long double>(),
                                         y = b.template cast<long double>(),
                                         n = axis.template cast<long double>();
  return std::atan2(x.cross(y).dot(n), x.dot(y));
}

// Every kind of up source on one path, with a name for failure messages.
template <class S>
struct NamedSource {
  std::string name;
  UpSource<S> source;
};

template <class S>
std::vector<NamedSource<S>> every_up_source(const MeasuredPath<S>& path,
                                            const MeasuredPath<S>& rail,
                                            const RollProfile<S>& roll) {
  std::vector<NamedSource<S>> sources{
      {"world +Y", *UpSource<S>::world()},
      {"world (0, 3, 4)", *UpSource<S>::world(Vector3<S>(0, 3, 4))},
      {"rail, normalized arc length", *UpSource<S>::rail(rail)},
      {"rail, closest point", *UpSource<S>::rail(rail, RailMatch::closest_point)},
      {"rotation-minimizing", *UpSource<S>::rotation_minimizing(path)}};
  const std::size_t kinds = sources.size();
  for (std::size_t i = 0; i < kinds; ++i)
    sources.push_back({sources[i].name + " + roll", sources[i].source.with_roll(roll)});
  return sources;
}

// A random wobbly path, its rail 2 units above, and a roll profile over its length.
template <class S>
struct Scene {
  MeasuredPath<S> path, rail;
  RollProfile<S> roll;
};

template <class S>
Scene<S> random_scene(std::mt19937_64& rng, Closure closure) {
  const auto points = random_loop_points<S>(rng, 7, S(40));
  std::vector<Vector3<S>> rail_points;
  for (const auto& p : points)
    rail_points.push_back(p + Vector3<S>(0, S(2), 0));
  auto path = *MeasuredPath<S>::build(Path<S, 3>::catmull_rom(points, closure));
  auto rail = *MeasuredPath<S>::build(Path<S, 3>::catmull_rom(rail_points, closure));
  const S length = path.length();
  const S period = closure == Closure::closed ? length : S(0);
  auto roll = *RollProfile<S>::build({S(0), length / S(3), length / S(2)},
                                     {S(0.2), S(-0.4), S(0.1)}, period);
  return {std::move(path), std::move(rail), std::move(roll)};
}

// The same geometry as a route through a network: `path` cut into three pieces at segments 2
// and 5, the middle one stored turned round (driven backwards), each piece world up.
template <class S>
Route<S> route_of(const MeasuredPath<S>& path) {
  const Path<S, 3>& whole = path.path();
  const std::size_t cuts[] = {0, 2, 5, whole.size()};
  std::vector<Track<S>> pieces;
  std::vector<Step> steps;
  for (std::size_t k = 0; k < 3; ++k) {
    const bool turn = k == 1;
    pieces.push_back(piece_of(whole, cuts[k], cuts[k + 1], turn));
    steps.push_back({k, turn ? Direction::backward : Direction::forward});
  }
  std::vector<std::vector<PieceEnd>> joints{{steps[0].exit(), steps[1].entry()},
                                            {steps[1].exit(), steps[2].entry()}};
  if (whole.closed()) joints.push_back({steps[2].exit(), steps[0].entry()});
  return *Route<S>::build(*Network<S>::build(std::move(pieces), joints), steps,
                          whole.closed() ? Closure::closed : Closure::open);
}

// Every track type on one scene, with a name for failure messages: the path as a Track with
// every up source, measured and compiled, and as a Route of pieces (world up).
template <class S, class Check>
void for_every_track(const Scene<S>& scene, Check&& check) {
  for (const auto& named : every_up_source(scene.path, scene.rail, scene.roll)) {
    const Track<S> track = *Track<S>::build(scene.path, named.source);
    check(track, "Track, " + named.name);
    check(track.compiled(), "compiled Track, " + named.name);
  }
  check(route_of(scene.path), std::string("Route of 3 pieces, world +Y"));
}

}  // namespace

TEMPLATE_TEST_CASE("contract: every up source gives a frame on the path, along it, right-handed",
                   "[contract][frame][up]", float, double) {
  using S = TestType;
  auto rng = make_rng(201);
  for (int n = 0; n < property_count(4); ++n) {
    const Closure closure = n % 2 == 0 ? Closure::closed : Closure::open;
    const Scene<S> scene = random_scene<S>(rng, closure);
    const MeasuredPath<S>& path = scene.path;
    const S length = path.length();
    const S tolerance = S(64) * eps<S>();
    for (const auto& named : every_up_source(path, scene.rail, scene.roll)) {
      const UpSource<S>& source = named.source;
      for (int i = 0; i <= 48; ++i) {
        const S s = length * S(i) / S(48);
        INFO(named.name << ", case " << n << ", s = " << s);
        const Frame<S> f = source.frame_at(path, s);
        CHECK(orthonormal(f.rotation, tolerance));
        CHECK((f.origin - path.point_at(s)).norm() <= tolerance * S(64));
        CHECK(f.forward().dot(path.tangent_at(s)) >= S(1) - tolerance);
        // up_at is the unit hint the frame was made from: the frame's side is perpendicular to it.
        const Vector3<S> up = source.up_at(s, length, f.origin, f.forward());
        CHECK(std::abs(up.norm() - S(1)) <= tolerance);
        CHECK(std::abs(up.dot(f.side())) <= tolerance);
        CHECK(up.dot(f.up()) > S(0));
        if (closure == Closure::closed) {
          // Loops: a lap later (and at exactly the length) the frame is the same.
          const Frame<S> lap = source.frame_at(path, s + length);
          CHECK((lap.rotation - f.rotation).norm() <= contract<S>(1e-9) * S(10));
        }
        // No jumps: 1e-4 of the length further on, the frame has turned by little (the path's
        // curvature, the roll's and the rail's rates over that step are all far below 0.02).
        const Frame<S> next = source.frame_at(path, std::min(s + length * S(1e-4), length));
        CHECK((next.rotation - f.rotation).norm() <= S(0.02));
      }
    }
  }
}

TEMPLATE_TEST_CASE("contract: each up source's own rule, checked from outside",
                   "[contract][frame][up]", float, double) {
  using S = TestType;
  using L = long double;
  auto rng = make_rng(203);
  const Scene<S> scene = random_scene<S>(rng, Closure::closed);
  const MeasuredPath<S>& path = scene.path;
  const S length = path.length();
  const auto sources = every_up_source(path, scene.rail, scene.roll);
  const std::size_t kinds = sources.size() / 2;
  const S delta = length * S(1e-3);
  for (int i = 1; i < 40; ++i) {
    const S s = length * S(i) / S(40);
    INFO("s = " << s);
    const Vector3<S> forward = path.tangent_at(s), point = path.point_at(s);
    // World up: side is horizontal (perpendicular to the world up) and up leans towards it.
    for (std::size_t k : {std::size_t(0), std::size_t(1)}) {
      const Frame<S> f = sources[k].source.frame_at(path, s);
      const Vector3<S> world = sources[k].source.world_up();
      CHECK(std::abs(f.side().dot(world)) <= contract<S>(1e-13) * S(64));
      CHECK(f.up().dot(world) > S(0));
    }
    // Rail (normalized arc length): up points at the rail point at the same fraction of its own
    // length, projected onto the normal plane.
    {
      const Vector3<S> offset = scene.rail.point_at(s / length * scene.rail.length()) - point;
      const Vector3<S> expected = (offset - offset.dot(forward) * forward).normalized();
      CHECK((sources[2].source.frame_at(path, s).up() - expected).norm() <= contract<S>(1e-10));
    }
    // Rail (closest point): up points at the rail where the rail crosses the path's normal plane,
    // found here by bisection on the rail's distance near the normalized match.
    {
      const S rail_length = scene.rail.length();
      auto g = [&](S r) { return (scene.rail.point_at(r) - point).dot(forward); };
      S lo = s / length * rail_length - rail_length / S(8), hi = lo + rail_length / S(4);
      REQUIRE(g(lo) * g(hi) < S(0));
      for (int k = 0; k < 200 && hi - lo > S(0); ++k) {
        const S mid = (lo + hi) / S(2);
        if (mid == lo || mid == hi) break;
        (g(lo) * g(mid) <= S(0) ? hi : lo) = mid;
      }
      const Vector3<S> offset = scene.rail.point_at(lo) - point;
      const Vector3<S> expected = (offset - offset.dot(forward) * forward).normalized();
      CHECK((sources[3].source.frame_at(path, s).up() - expected).norm() <= contract<S>(1e-9));
    }
    // Rotation-minimizing: the frame turns about the tangent only by the holonomy spread evenly
    // over the lap — the up vector's change along the side, by central differences.
    {
      const UpSource<S>& rmf = sources[4].source;
      const Frame<S> here = rmf.frame_at(path, s);
      const L twist = (rmf.frame_at(path, s + delta).up() - rmf.frame_at(path, s - delta).up())
                          .template cast<L>()
                          .dot(here.side().template cast<L>()) /
                      (L(2) * L(delta));
      const L spread = L(rmf.frames()->holonomy()) / L(length);
      // Central differences of a 4th-order frame: O(δ²κ³) plus rounding eps/δ.
      CHECK(std::abs(twist + spread) <= L(2e-4) + L(16) * L(eps<S>()) / (L(delta) / L(length)));
    }
    // Roll: on top of every kind, the rolled up is the kind's up turned about forward by the
    // profile's angle.
    for (std::size_t k = 0; k < kinds; ++k) {
      INFO(sources[k].name);
      const Frame<S> base = sources[k].source.frame_at(path, s);
      const Frame<S> rolled = sources[k + kinds].source.frame_at(path, s);
      const long double angle = angle_about(base.up(), rolled.up(), base.forward());
      const long double expected = scene.roll.angle_at(s);
      CHECK(std::abs(std::remainder(angle - expected, 2 * 3.141592653589793238L)) <=
            L(contract<S>(1e-12)) * 64);
    }
  }
}

TEMPLATE_TEST_CASE("contract: every time profile runs from 0 to 1, monotone, with true derivatives",
                   "[contract][profile]", float, double) {
  using S = TestType;
  using L = long double;
  const std::pair<const char*, Expected<TimeProfile<S>>> profiles[] = {
      {"constant", TimeProfile<S>::constant(S(4))},
      {"sine", TimeProfile<S>::sine(S(4))},
      {"sine pieces", TimeProfile<S>::sine_pieces(S(4), ease_fractions(S(0.2), S(0.7)))},
      {"parabolic", TimeProfile<S>::parabolic(S(4), ease_fractions(S(0.3), S(0.6)))},
      {"trapezoidal", TimeProfile<S>::trapezoidal(S(100), S(20), S(8))},
      {"triangle", TimeProfile<S>::trapezoidal(S(10), S(20), S(8))},
      {"s-curve", TimeProfile<S>::s_curve(S(100), S(20), S(8), S(5))},
      {"s-curve, short", TimeProfile<S>::s_curve(S(2), S(20), S(8), S(5))},
      {"keyed", TimeProfile<S>::keyed({S(0), S(1), S(2.5), S(4)}, {S(0), S(0.2), S(0.9), S(1)})}};
  for (const auto& [name, built] : profiles) {
    INFO(name);
    REQUIRE(built);
    const TimeProfile<S>& p = *built;
    const S T = p.duration();
    CHECK(std::abs(p.at(S(0)).value) <= eps<S>());
    CHECK(std::abs(p.at(T).value - S(1)) <= S(8) * eps<S>());
    // Clamped outside [0, T]; NaN lands at the start.
    CHECK(p.at(-T).value == p.at(S(0)).value);
    CHECK(p.at(S(2) * T).value == p.at(T).value);
    CHECK(p.at(std::numeric_limits<S>::quiet_NaN()).value == p.at(S(0)).value);
    const int steps = 4000;
    const S h = T / S(steps);
    L integral = 0;  // ∫ rate dt by the midpoint rule, in long double
    S previous = p.at(S(0)).value;
    for (int i = 0; i < steps; ++i) {
      const S t = T * (S(i) + S(0.5)) / S(steps);
      const ProfileSample<S> m = p.at(t);
      integral += L(m.rate) * L(h);
      CHECK(m.rate >= -S(8) * eps<S>() / T);
      const S next = p.at(T * S(i + 1) / S(steps)).value;
      CHECK(next >= previous - S(4) * eps<S>());
      previous = next;
      // Rate and acceleration against central differences (step d), in long double.
      const S d = T * S(std::is_same<S, float>::value ? 2e-3 : 1e-5);
      if (t - d < S(0) || t + d > T) continue;
      const ProfileSample<S> a = p.at(t - d), b = p.at(t + d);
      const L scale = L(std::abs(m.acceleration)) + L(1) / L(T);
      const L rate = (L(b.value) - L(a.value)) / (L(2) * L(d));
      CHECK(std::abs(rate - L(m.rate)) <= L(d) * scale * 4 + L(16) * L(eps<S>()) / L(d) +
                                              L(std::abs(b.acceleration - a.acceleration)));
      // The rate's mean slope over the step lies between the accelerations met there (a jump at
      // a phase boundary included): the acceleration is the rate's derivative.
      const L slope = (L(b.rate) - L(a.rate)) / (L(2) * L(d));
      const L low = std::min({L(a.acceleration), L(m.acceleration), L(b.acceleration)});
      const L high = std::max({L(a.acceleration), L(m.acceleration), L(b.acceleration)});
      const L slack = L(0.01) * scale + L(16) * L(eps<S>()) / (L(d) * L(T));
      CHECK(slope >= low - slack);
      CHECK(slope <= high + slack);
    }
    // The rate integrates to the whole distance.
    CHECK(std::abs(integral - L(1)) <= L(1e-5) + L(steps) * L(eps<S>()));
  }
}

TEMPLATE_TEST_CASE("contract: a camera starts on its first key and stops on its last",
                   "[contract][camera]", float, double) {
  using S = TestType;
  using V = Vector3<S>;
  const std::vector<CameraKey<S>> keys{
      {V(0, 2, 0), V(1, 0, 0)}, {V(20, 3, 5), V::Zero()}, {V(30, 2, 25), V(0, S(-0.2), 1)}};
  const auto profile = *TimeProfile<S>::sine(S(6));
  for (CameraTangents tangents : {CameraTangents::view_direction, CameraTangents::catmull_rom}) {
    CameraRigSettings<S> settings;
    settings.tangents = tangents;
    const auto rig = *CameraRig<S>::build(keys, profile, settings);
    const auto rmf = *rig.with_up(*UpSource<S>::rotation_minimizing(rig.path()));
    const S scale = S(40);
    for (const CameraRig<S>* camera : {&rig, &rmf}) {
      CHECK((camera->at(S(0)).motion.position - keys.front().position).norm() <= S(0));
      CHECK((camera->at(S(6)).motion.position - keys.back().position).norm() <=
            S(64) * eps<S>() * scale);
      CHECK(camera->at(S(0)).motion.speed == S(0));
      for (int i = 0; i <= 30; ++i) {
        const S t = S(6) * S(i) / S(30);
        const CameraShot<S> shot = camera->at(t);
        INFO("t = " << t);
        CHECK(orthonormal(shot.frame.rotation, S(64) * eps<S>()));
        // The sine ease in closed form, E = (1 − cos πt/T)/2, Ė = (π/2T) sin πt/T (not the
        // profile's own at()): the camera is E·L along its path, moving at Ė·L.
        const S w = detail::pi<S>() / S(6), along = (S(1) - std::cos(w * t)) / S(2);
        CHECK(std::abs(shot.motion.speed - w / S(2) * std::sin(w * t) * rig.path().length()) <=
              S(64) * eps<S>() * scale);
        CHECK((shot.motion.position - rig.path().point_at(along * rig.path().length())).norm() <=
              S(256) * eps<S>() * scale);
      }
    }
  }
}

TEMPLATE_TEST_CASE(
    "contract: every track type, spacing and up source keeps bogies on the track, "
    "exactly apart",
    "[contract][train]", float, double) {
  using S = TestType;
  auto rng = make_rng(207);
  const Scene<S> scene = random_scene<S>(rng, Closure::closed);
  const S length = scene.path.length();
  const std::vector<Wagon<S>> wagons{{S(14), S(9), S(1)}, {S(11), S(7)}, {S(11), S(7)}};
  const S tolerance = contract<S>(1e-9) * length;
  for_every_track(scene, [&](const auto& track, const std::string& name) {
    using TrackType = std::decay_t<decltype(track)>;
    REQUIRE(std::abs(track.length() - length) <= tolerance);
    for (Spacing spacing : {Spacing::chord, Spacing::arc}) {
      const auto solver =
          *TrainSolver<S, TrackType>::build(track, wagons, {Wrap::automatic, spacing});
      for (S head : {S(3), length / S(2), length - S(1), S(5) * length + S(7)}) {
        INFO(name << ", " << (spacing == Spacing::chord ? "chord" : "arc") << " spacing, head "
                  << head);
        const auto poses = solver.solve(head);
        for (std::size_t i = 0; i < wagons.size(); ++i) {
          const WagonPose<S>& pose = poses[i];
          CHECK((pose.front.origin - scene.path.point_at(pose.front_distance)).norm() <= tolerance);
          CHECK((pose.rear.origin - scene.path.point_at(pose.rear_distance)).norm() <= tolerance);
          if (spacing == Spacing::chord) {
            CHECK(std::abs((pose.front.origin - pose.rear.origin).norm() -
                           wagons[i].bogie_distance) <= tolerance);
          } else {
            const S gap = std::remainder(pose.front_distance - pose.rear_distance, length);
            CHECK(std::abs(gap - wagons[i].bogie_distance) <= tolerance);
          }
          for (const Frame<S>* f : {&pose.front, &pose.rear, &pose.body})
            CHECK(orthonormal(f->rotation, S(64) * eps<S>()));
          CHECK(pose.body.forward().dot((pose.front.origin - pose.rear.origin).normalized()) >=
                S(1) - S(64) * eps<S>());
          CHECK(pose.status == WagonStatus::on_track);
        }
      }
    }
  });
}

TEMPLATE_TEST_CASE(
    "contract: open track of every type clamps or extends, and says where each "
    "wagon stands",
    "[contract][train]", float, double) {
  using S = TestType;
  auto rng = make_rng(209);
  const Scene<S> scene = random_scene<S>(rng, Closure::open);
  const S length = scene.path.length();
  const std::vector<Wagon<S>> wagons{{S(14), S(9), S(1)}, {S(11), S(7)}, {S(11), S(7)}};
  const S tolerance = contract<S>(1e-9) * length;
  const Vector3<S> end = scene.path.point_at(length), direction = scene.path.tangent_at(length);
  for_every_track(scene, [&](const auto& track, const std::string& name) {
    using Solver = TrainSolver<S, std::decay_t<decltype(track)>>;
    // The end as the track sees it (a route's pieces sum to the length within rounding).
    const S track_end = track.length();
    REQUIRE(std::abs(track_end - length) <= tolerance);
    for (Spacing spacing : {Spacing::chord, Spacing::arc}) {
      INFO(name << ", " << (spacing == Spacing::chord ? "chord" : "arc") << " spacing");
      // Extend: 5 past the end the locomotive runs on the end tangent's straight line.
      const auto extended = *Solver::build(track, wagons, {Wrap::extend, spacing});
      const WagonPose<S> ahead = extended.solve(track_end + S(5))[0];
      CHECK(ahead.front_distance == track_end + S(5));
      CHECK((ahead.front.origin - (end + S(5) * direction)).norm() <= tolerance);
      CHECK(ahead.front.forward().dot(direction) >= S(1) - S(64) * eps<S>());
      // Clamp: driven 30 past the end, the locomotive is held there; mid-track all are on it.
      const auto clamped = *Solver::build(track, wagons, {Wrap::clamp, spacing});
      const auto held = clamped.solve(track_end + S(30));
      CHECK(held[0].front_distance == track_end);
      CHECK((held[0].front.origin - end).norm() <= tolerance);
      CHECK(held[0].status != WagonStatus::on_track);
      for (const auto& pose : clamped.solve(track_end / S(2))) {
        CHECK(pose.status == WagonStatus::on_track);
        CHECK(pose.rear_distance >= S(0));
      }
    }
  });
}

TEST_CASE("contract: what only build() makes cannot be default-constructed", "[contract]") {
  // A default one would hold no entries, keys or bones, and its queries would read past them.
  STATIC_REQUIRE_FALSE(std::is_default_constructible<ArcLengthTable<double>>::value);
  STATIC_REQUIRE_FALSE(std::is_default_constructible<RollProfile<float>>::value);
  STATIC_REQUIRE_FALSE(std::is_default_constructible<StretchChain<double>>::value);
  STATIC_REQUIRE_FALSE(std::is_default_constructible<MeasuredPath<float>>::value);
  STATIC_REQUIRE_FALSE(std::is_default_constructible<Track<double>>::value);
  STATIC_REQUIRE_FALSE(std::is_default_constructible<Route<double>>::value);
}
