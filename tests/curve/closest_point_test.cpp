#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "support/catch.hpp"
#include "support/properties.hpp"
#include "support/reference_arc_length.hpp"
#include "support/reference_closest_point.hpp"
#include "support/shapes.hpp"
#include "tractrix/curve/closest_point.hpp"
#include "tractrix/curve/compiled_path.hpp"
#include "tractrix/curve/measured_path.hpp"

using namespace tractrix;
using namespace tractrix::test;

namespace {

template <class S>
Path<S, 3> random_path(std::mt19937& rng, bool closed) {
  std::uniform_real_distribution<S> coordinate(S(-10), S(10));
  std::uniform_int_distribution<int> count(3, 10);
  std::vector<Vector3<S>> keys(static_cast<std::size_t>(count(rng)));
  for (auto& k : keys)
    k = Vector3<S>(coordinate(rng), coordinate(rng), S(0.3) * coordinate(rng));
  return *Path<S, 3>::catmull_rom(keys, closed ? Closure::closed : Closure::open);
}

// Checks one query against the reference: the distance to the path always, the position along
// it where the minimum is unique and well conditioned. Returns the reference.
template <class S>
Reference check_query(const MeasuredPath<S>& measured, const Vector3<S>& q,
                      const ClosestPoint<S>& got, long double tolerance) {
  const Reference want = reference(measured.path(), q);
  const long double L = measured.length();
  const long double got_distance = std::sqrt(static_cast<long double>(got.squared_distance));
  const long double want_distance = std::sqrt(want.squared);
  INFO("query " << q.transpose() << ", got s = " << got.distance << " at distance "
                << static_cast<double>(got_distance)
                << ", want s = " << static_cast<double>(want.distance) << " at "
                << static_cast<double>(want_distance));
  CHECK(std::abs(got_distance - want_distance) <= tolerance * (L + want_distance));
  // The reported point, squared distance and distance along, recomputed in long double from the
  // reported parameter (Bernstein form, tanh–sinh arc lengths).
  const auto& path = measured.path();
  const long double t = got.parameter;
  const std::size_t segment = std::min(static_cast<std::size_t>(t), path.size() - 1);
  const long double u = t - static_cast<long double>(segment);
  const LongPoint at = point_of(path.segment(segment), u);
  long double squared = 0, point_error = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    squared +=
        (at[k] - q[static_cast<Eigen::Index>(k)]) * (at[k] - q[static_cast<Eigen::Index>(k)]);
    point_error = std::max(point_error, std::abs(at[k] - got.point[static_cast<Eigen::Index>(k)]));
  }
  CHECK(point_error <= tolerance * L);
  CHECK(std::abs(std::sqrt(squared) - got_distance) <= tolerance * (L + want_distance));
  long double along = 0;
  for (std::size_t i = 0; i < segment; ++i)
    along += ReferenceArcLength(path.segment(i)).length();
  along += ReferenceArcLength(path.segment(segment)).distance(u);
  if (measured.closed() && along >= L) along -= L;
  CHECK(std::abs(along - got.distance) <= tolerance * L);
  const bool unique = std::sqrt(want.second) - want_distance > 1e-6L * L;
  if (unique && want.curvature_term > 0.05L) {
    long double apart = std::abs(static_cast<long double>(got.distance) - want.distance);
    if (measured.closed()) apart = std::min(apart, L - apart);
    // Rounding of (r − q)·r' grows with the query's distance: a few eps of it along the path.
    CHECK(apart <= tolerance * L + 8 * std::numeric_limits<S>::epsilon() * want_distance);
  }
  return want;
}

}  // namespace

TEST_CASE("closest_point: the global minimum on random paths, against long double brute force") {
  std::mt19937 rng(20261130);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int checked = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const bool closed = trial % 2 == 0;
    const auto measured = *MeasuredPath<double>::build(random_path<double>(rng, closed));
    const auto compiled = CompiledPath<double>::build(measured);
    const auto& path = measured.path();
    const auto random_unit = [&] {
      return Vector3d(2 * unit(rng) - 1, 2 * unit(rng) - 1, 2 * unit(rng) - 1);
    };
    for (int k = 0; k < 12; ++k) {
      Vector3d q;
      switch (k % 6) {
        case 0:  // anywhere around the path
        case 1:
          q = Vector3d(30 * unit(rng) - 15, 30 * unit(rng) - 15, 10 * unit(rng) - 5);
          break;
        case 2:  // on the path
          q = path.point(unit(rng) * path.end_parameter());
          break;
        case 3:  // a hair off it
          q = path.point(unit(rng) * path.end_parameter()) + 1e-9 * random_unit();
          break;
        case 4:  // near an end (and past it)
          q = path.point(k % 12 == 4 ? 0.0 : path.end_parameter()) + 2 * random_unit();
          break;
        default:  // far away
          q = std::pow(10.0, 3 + 3 * unit(rng)) * random_unit().normalized();
          break;
      }
      const Reference want = check_query(measured, q, measured.closest_point(q), 1e-12L);
      // The compiled path: the same search, the distance along from its cells.
      check_query(measured, q, compiled.closest_point(q), 1e-12L);
      // Below a bound (one piece of a search over many paths): the nearest point when it is
      // nearer than the bound, nothing when it is not.
      const double L = measured.length(), nearest2 = static_cast<double>(want.squared);
      const auto within = measured.closest_point_within(q, nearest2 * (1 + 1e-6) + 1e-24 * L * L);
      REQUIRE(within);
      check_query(measured, q, *within, 1e-12L);
      if (nearest2 > 1e-6 * L * L) CHECK(!measured.closest_point_within(q, nearest2 * (1 - 1e-6)));
      ++checked;
    }
  }
  CHECK(checked == 720);
}

TEST_CASE("closest_point: single curvy segments, queries where several minima compete") {
  // Hairpins, loops and S-bends as one cubic, queries around their control polygon (where the
  // distance has several local minima, and the quintic's Bernstein coefficients change sign
  // more often than it does until the interval is halved) and far off: every answer against the
  // long double brute force.
  std::mt19937 rng(20261201);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto in_box = [&](double size) {
    return Vector3d(size * (2 * unit(rng) - 1), size * (2 * unit(rng) - 1),
                    0.2 * size * (2 * unit(rng) - 1));
  };
  int checked = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const Bezier<double, 3, 3> b{{in_box(10), in_box(10), in_box(10), in_box(10)}};
    const auto measured =
        *MeasuredPath<double>::build(Path<double, 3>::from_segments({b}, Closure::open));
    const Vector3d centre = 0.25 * (b.points[0] + b.points[1] + b.points[2] + b.points[3]);
    for (int k = 0; k < 8; ++k) {
      Vector3d q = centre + in_box(4);
      if (k >= 5) q = measured.path().point(unit(rng)) + in_box(0.5);
      if (k == 7) q = centre + std::pow(10.0, 1 + 2 * unit(rng)) * in_box(1);
      check_query(measured, q, measured.closest_point(q), 1e-12L);
      ++checked;
    }
  }
  CHECK(checked == 1200);
}

TEST_CASE("closest_point: ends, points on the path, ties between branches") {
  // An open U: two straight branches along x = ±1 joined by a bend; the axis between them is at
  // distance 1 from both.
  const auto line = [](Vector3d a, Vector3d b) {
    return Bezier<double, 3, 3>{{a, (2 * a + b) / 3, (a + 2 * b) / 3, b}};
  };
  const Bezier<double, 3, 3> bend{
      {Vector3d(-1, 0, 0), Vector3d(-1, -4.0 / 3, 0), Vector3d(1, -4.0 / 3, 0), Vector3d(1, 0, 0)}};
  const auto measured = *MeasuredPath<double>::build(
      Path<double>::from_segments({line(Vector3d(-1, 10, 0), Vector3d(-1, 0, 0)), bend,
                                   line(Vector3d(1, 0, 0), Vector3d(1, 10, 0))},
                                  Closure::open));
  const double L = measured.length();

  SECTION("past the ends: the end points, at distance 0 and length()") {
    const auto start = measured.closest_point(Vector3d(-1, 20, 0));
    CHECK(start.distance == 0.0);
    CHECK(start.parameter == 0.0);
    CHECK(start.squared_distance == Approx(100.0).epsilon(1e-14));
    const auto end = measured.closest_point(Vector3d(1, 20, 0));
    CHECK(end.distance == Approx(L).epsilon(1e-15));
    CHECK(end.parameter == measured.path().end_parameter());
  }
  SECTION("on the path: the point itself") {
    for (double s : {0.1, 3.0, 0.5 * L, L - 2.0}) {
      const Vector3d on = measured.point_at(s);
      const auto got = measured.closest_point(on);
      CHECK(got.squared_distance <= 1e-24 * L * L);
      CHECK(std::abs(got.distance - s) <= 1e-12 * L);
    }
  }
  SECTION("on the axis between two branches: either branch, at the same distance") {
    const auto got = measured.closest_point(Vector3d(0, 5, 0));
    check_query(measured, Vector3d(0, 5, 0), got, 1e-12L);
    CHECK(std::abs(std::abs(got.point.x()) - 1.0) <= 1e-15);
    CHECK(got.point.y() == Approx(5.0).epsilon(1e-15));
    CHECK(got.squared_distance == Approx(1.0).epsilon(1e-15));
  }
  SECTION("a non-finite query: NaN distance, the start") {
    const auto got = measured.closest_point(Vector3d(std::nan(""), 0, 0));
    CHECK(std::isnan(got.squared_distance));
    CHECK(got.distance == 0.0);
  }
  SECTION("the centre of a circle: every point is nearest, the radius is the distance") {
    const auto circle = *MeasuredPath<double>::build(test::circle(5.0, 8));
    const Vector3d centre = Vector3d::Zero();
    check_query(circle, centre, circle.closest_point(centre), 1e-12L);
  }
}

TEST_CASE("closest_point: float paths far from the origin") {
  std::mt19937 rng(7);
  for (float offset : {0.0f, 1e4f}) {
    auto path = random_path<float>(rng, true);
    path = *path.translated(Vector3f::Constant(offset));
    const auto measured = *MeasuredPath<float>::build(path);
    std::uniform_real_distribution<float> around(-12.0f, 12.0f);
    for (int k = 0; k < 40; ++k) {
      const Vector3f q = Vector3f::Constant(offset) + Vector3f(around(rng), around(rng), 0.0f);
      // Rounding is relative to the coordinates' magnitude (Path::extent), not the length.
      const long double scale = path.extent() / measured.length();
      check_query(measured, q, measured.closest_point(q),
                  64 * std::numeric_limits<float>::epsilon() * (1 + scale));
      check_query(measured, q, CompiledPath<float>::build(measured).closest_point(q),
                  64 * std::numeric_limits<float>::epsilon() * (1 + scale));
    }
  }
}

TEST_CASE("closest_point: far beside a nearly straight segment, and beside cusps") {
  SECTION("far queries: the foot along the segment to 1e-12 of its length") {
    // Control points shifted by a query 10⁵ away rounded to the spacing of numbers there, which
    // tilted the segment's tangent: the foot moved 1.7e-9 along it (1e-12·L + 8 eps·d is 2e-10).
    const Bezier<double, 3, 3> flat{{Vector3d(0, 0, 0), Vector3d(10.0 / 3, 0.01, 0),
                                     Vector3d(20.0 / 3, 0.01, 0), Vector3d(10, 0, 0)}};
    const auto measured =
        *MeasuredPath<double>::build(Path<double, 3>::from_segments({flat}, Closure::open));
    for (double d : {1e3, 1e4, 1e5, 1e6})
      for (double tilt : {0.0013, -0.002, 0.0005})
        check_query(measured, Vector3d(5 + tilt * d, d, 0),
                    measured.closest_point(Vector3d(5 + tilt * d, d, 0)), 1e-12L);
  }
  // A cusp at u = 1/2, (5, 7.5), and a near-cusp (a loop 1e-6 of the size across). Beside it the
  // expanded quintic's rounding swamps its values: a query on the curve ended 1e-9 from it, or on
  // the near-cusp's other branch.
  const Bezier<double, 3, 3> cusp{
      {Vector3d(0, 0, 0), Vector3d(10, 10, 0), Vector3d(0, 10, 0), Vector3d(10, 0, 0)}};
  Bezier<double, 3, 3> near_cusp = cusp;
  near_cusp.points[2].x() = 1e-5;
  SECTION("queries on the curve beside a cusp: the point itself, at its distance along") {
    for (const bool near : {false, true}) {
      const auto& segment = near ? near_cusp : cusp;
      const auto measured =
          *MeasuredPath<double>::build(Path<double, 3>::from_segments({segment}, Closure::open));
      const auto compiled = CompiledPath<double>::build(measured);
      const double L = measured.length();
      const ReferenceArcLength along(segment);
      for (long double offset : {1e-3L, 1e-4L, 2e-5L, 7.447e-6L, 1e-6L, 1e-7L})
        for (long double u : {0.5L - offset, 0.5L + offset}) {
          const LongPoint on = point_of(segment, u);
          const Vector3d q(static_cast<double>(on[0]), static_cast<double>(on[1]), 0);
          const auto got = measured.closest_point(q);
          INFO((near ? "near-cusp" : "cusp") << ", u = " << static_cast<double>(u));
          CHECK(std::sqrt(squared_to(segment, got.parameter, LongPoint{q.x(), q.y(), 0})) <=
                1e-12L * L);
          // Closer to the cusp the two branches lie within q's rounding of each other (about
          // 20·t³ apart, t = |u − 1/2|): either is the answer.
          if (offset > 5e-6L) CHECK(std::abs(got.distance - along.distance(u)) <= 1e-12L * L);
          // The compiled path beside its cusp: cells left to the measured path, or fitted ones.
          const auto on_cells = compiled.closest_point(q);
          CHECK(on_cells.parameter == got.parameter);
          if (offset > 5e-6L) CHECK(std::abs(on_cells.distance - along.distance(u)) <= 1e-12L * L);
        }
    }
  }
  SECTION("float queries around a cusp, against the brute force") {
    std::mt19937 rng(29);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (const auto& segment : {cusp, near_cusp}) {
      Bezier<float, 3, 3> b;
      for (std::size_t j = 0; j < 4; ++j)
        b.points[j] = segment.points[j].cast<float>();
      const auto measured =
          *MeasuredPath<float>::build(Path<float, 3>::from_segments({b}, Closure::open));
      for (int k = 0; k < 200; ++k) {
        const LongPoint on = point_of(b, 0.5L + 0.01L * unit(rng));
        const Vector3f q(static_cast<float>(on[0] + 1e-4 * unit(rng)),
                         static_cast<float>(on[1] + 1e-4 * unit(rng)), 0.0f);
        // The distance to the path (6.5e-4 off before, 545 float eps of the coordinates). Not the
        // position along: beside a cusp the curve turns so fast that float's rounding of its
        // points (1e-6 here) moves the foot by 3e-4.
        const auto got = measured.closest_point(q);
        const Reference want = reference(measured.path(), q);
        const long double L = measured.length(), want_distance = std::sqrt(want.squared);
        INFO("query " << q.transpose());
        CHECK(std::abs(std::sqrt(static_cast<long double>(got.squared_distance)) - want_distance) <=
              64 * std::numeric_limits<float>::epsilon() * (1 + measured.path().extent() / L) *
                  (L + want_distance));
      }
    }
  }
}

TEST_CASE("closest_point with a cursor: the global answer, searching globally only on jumps") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int trial = 0; trial < 8; ++trial) {
    const bool closed = trial % 2 == 0;
    const auto measured = *MeasuredPath<double>::build(random_path<double>(rng, closed));
    const double L = measured.length();
    const auto compiled = CompiledPath<double>::build(measured);
    ClosestPointCursor<double> cursor, compiled_cursor;
    // A vehicle 0.5 to the side of the path, 0.02 of a unit per frame, then a teleport.
    const int frames = 2000;
    for (int frame = 0; frame < frames; ++frame) {
      const double s = std::fmod(0.02 * frame, L);
      Vector3d q = measured.point_at(s) + 0.5 * Vector3d(0, 0, 1);
      if (frame % 500 == 499) q = Vector3d(20 * unit(rng) - 10, 20 * unit(rng) - 10, 0);
      const auto tracked = measured.closest_point(q, cursor);
      const auto global = measured.closest_point(q);
      INFO("trial " << trial << " frame " << frame);
      CHECK(tracked.squared_distance <= global.squared_distance * (1 + 1e-12) + 1e-24 * L * L);
      CHECK(global.squared_distance <= tracked.squared_distance * (1 + 1e-12) + 1e-24 * L * L);
      // On the compiled path: the same point through its own cursor, measured on its cells.
      const auto on_cells = compiled.closest_point(q, compiled_cursor);
      CHECK(on_cells.squared_distance == tracked.squared_distance);
      CHECK(std::abs(on_cells.distance - tracked.distance) <= 2e-12 * L);
    }
    CHECK(compiled_cursor.global_searches() == cursor.global_searches());
    CHECK(cursor.queries() == static_cast<std::size_t>(frames));
    // Following the path a little each frame needs few global searches.
    CHECK(cursor.global_searches() < static_cast<std::size_t>(frames) / 10);
  }
  SECTION("a cursor used on another path starts over") {
    const auto a = *MeasuredPath<double>::build(test::circle(5.0, 8));
    const auto b = *MeasuredPath<double>::build(test::circle(9.0, 8));
    ClosestPointCursor<double> cursor;
    (void)a.closest_point(Vector3d(6, 0, 0), cursor);
    const auto on_b = b.closest_point(Vector3d(6, 0, 0), cursor);
    CHECK(on_b.squared_distance == Approx(9.0).epsilon(1e-4));
    CHECK(cursor.global_searches() == 2);
    // A copy shares the data: the same path, no new search. A path destroyed and another built
    // (perhaps at the same address) is a new path.
    auto temporary = std::make_unique<MeasuredPath<double>>(b);
    (void)temporary->closest_point(Vector3d(6, 0, 0), cursor);
    CHECK(cursor.global_searches() == 2);
    temporary =
        std::make_unique<MeasuredPath<double>>(*MeasuredPath<double>::build(test::circle(7.0, 8)));
    CHECK(temporary->closest_point(Vector3d(6, 0, 0), cursor).squared_distance ==
          Approx(1.0).epsilon(1e-4));
    CHECK(cursor.global_searches() == 3);
  }
}

TEST_CASE("closest_point with a cursor on long paths: the certificate, not the whole path") {
  // 200 keys on a random walk that folds back on itself: the cursor's list covers a small part of
  // the path, so its answers rest on the certificate (a wrong one shows as a nearer global
  // answer).
  std::mt19937 rng(23);
  std::uniform_real_distribution<double> step(-3.0, 3.0), unit(0.0, 1.0);
  for (const Closure closure : {Closure::open, Closure::closed}) {
    std::vector<Vector3d> keys{Vector3d::Zero()};
    for (int k = 1; k < 200; ++k)
      keys.push_back(keys.back() + Vector3d(step(rng) + 0.5, step(rng), 0.2 * step(rng)));
    const auto measured = *MeasuredPath<double>::build(Path<double>::catmull_rom(keys, closure));
    ClosestPointCursor<double> cursor;
    const int frames = 6000;
    for (int frame = 0; frame < frames; ++frame) {
      const double s = std::fmod(0.07 * frame, measured.length());
      Vector3d q = measured.point_at(s) + Vector3d(0.8 * std::sin(0.01 * frame), 1.5, 0.3);
      if (frame % 700 == 699) q += Vector3d(20 * unit(rng) - 10, 20 * unit(rng) - 10, 0);
      const auto tracked = measured.closest_point(q, cursor);
      const auto global = measured.closest_point(q);
      INFO("frame " << frame);
      CHECK(std::abs(tracked.squared_distance - global.squared_distance) <=
            1e-12 * (1 + global.squared_distance));
    }
    CHECK(cursor.global_searches() < static_cast<std::size_t>(frames) / 5);
  }
}

TEST_CASE("closest_point with a cursor: more segments near the query than the cursor keeps") {
  // A hairpin of 0.02-unit segments: along y = 0 from x = 0 to 60, round a half circle of
  // radius 3, back along y = 6. A point between the branches (y = 3 ± 0.6, so the nearer branch
  // changes) moves along x: some 600 segments lie within the cursor's radius, more than it
  // keeps, so its certificate rests on the farthest box it kept. In closed form: nearest
  // (x, 0, 0) at s = x on the first branch, (x, 6, 0) at s = L − x on the second.
  const double spacing = 0.02, pi = 3.141592653589793;
  std::vector<Vector3d> keys;
  for (int k = 0; k <= 3000; ++k)
    keys.emplace_back(spacing * k, 0, 0);
  for (int k = 1; k < 471; ++k) {
    const double angle = pi * k / 471;
    keys.emplace_back(60 + 3 * std::sin(angle), 3 - 3 * std::cos(angle), 0);
  }
  for (int k = 3000; k >= 0; --k)
    keys.emplace_back(spacing * k, 6, 0);
  const auto measured =
      *MeasuredPath<double>::build(Path<double>::catmull_rom(keys, Closure::open));
  const double L = measured.length();
  ClosestPointCursor<double> cursor;
  const int frames = 3000;
  int near_first = 0, near_second = 0;
  for (int frame = 0; frame < frames; ++frame) {
    const double x = 7 + 0.015 * frame, y = 3 + 0.6 * std::sin(0.013 * frame),
                 z = 0.2 * std::cos(0.07 * frame);
    const Vector3d q(x, y, z);
    const auto tracked = measured.closest_point(q, cursor);
    const auto global = measured.closest_point(q);
    INFO("frame " << frame << ", query " << q.transpose());
    // The same segment solved the same way: the same answer, unless two tie exactly.
    CHECK((tracked.parameter == global.parameter ||
           tracked.squared_distance == global.squared_distance));
    if (std::abs(y - 3) < 1e-6) continue;
    const bool first = y < 3;
    (first ? near_first : near_second)++;
    const double side = first ? y : 6 - y;
    CHECK(std::abs(tracked.squared_distance - (side * side + z * z)) <= 1e-12);
    CHECK(std::abs(tracked.distance - (first ? x : L - x)) <= 1e-9);
    CHECK((tracked.point - Vector3d(x, first ? 0 : 6, 0)).norm() <= 1e-10);
  }
  CHECK(near_first > 500);
  CHECK(near_second > 500);
  CHECK(cursor.queries() == static_cast<std::size_t>(frames));
  // A list of 256 kept segments reaches ~2.5 units along each branch: a search every few
  // dozen frames, not every frame.
  CHECK(cursor.global_searches() < static_cast<std::size_t>(frames) / 10);
}

TEST_CASE("closest_point with a cursor: a path destroyed and rebuilt near the query") {
  // A ring of 64 keys; the cursor follows a point inside it. The ring is destroyed and rebuilt
  // (often at the same address) with one key pulled next to the query: the cursor must see it.
  std::vector<Vector3d> keys;
  for (int k = 0; k < 64; ++k) {
    const double angle = 2 * 3.141592653589793 * k / 64;
    keys.emplace_back(20 * std::cos(angle), 0, 20 * std::sin(angle));
  }
  const Vector3d q(-15, 0, 0);  // nearest the key at angle π, 5 away
  ClosestPointCursor<double> cursor;
  auto ring = std::make_unique<MeasuredPath<double>>(
      *MeasuredPath<double>::build(Path<double>::catmull_rom(keys, Closure::closed)));
  CHECK(std::sqrt(ring->closest_point(q, cursor).squared_distance) == Approx(5.0).epsilon(1e-3));
  ring.reset();
  keys[16] = Vector3d(-15, 0, 0.5);  // the key at angle π/2 pulled to 0.5 from the query
  ring = std::make_unique<MeasuredPath<double>>(
      *MeasuredPath<double>::build(Path<double>::catmull_rom(keys, Closure::closed)));
  const auto got = ring->closest_point(q, cursor);
  CHECK(got.squared_distance <= 0.25 + 1e-12);
  CHECK(got.squared_distance == Approx(ring->closest_point(q).squared_distance).epsilon(1e-12));
}

TEST_CASE("unit_interval_roots: every root of a quintic, however close") {
  // (u − r1)…(u − r5) with roots spread and clustered; coefficients in long double, rounded once.
  const std::vector<std::array<double, 5>> cases{{0.1, 0.3, 0.5, 0.7, 0.9},
                                                 {0.2, 0.2001, 0.5, 0.8, 0.80001},
                                                 {0.01, 0.02, 0.03, 1.5, -2},
                                                 {0.999, 0.5, -0.5, 2, 3}};
  for (const auto& r : cases) {
    long double c[6] = {1, 0, 0, 0, 0, 0};
    for (int k = 0; k < 5; ++k) {
      for (int j = 5; j > 0; --j)
        c[j] = c[j - 1] - r[static_cast<std::size_t>(k)] * c[j];
      c[0] = -r[static_cast<std::size_t>(k)] * c[0];
    }
    double coefficients[6];
    for (int j = 0; j < 6; ++j)
      coefficients[j] = static_cast<double>(c[j]);
    double roots[5];
    const int count = detail::unit_interval_roots(coefficients, 5, roots);
    std::vector<double> want;
    for (double x : r)
      if (x > 0 && x < 1) want.push_back(x);
    std::sort(want.begin(), want.end());
    REQUIRE(count == static_cast<int>(want.size()));
    for (int j = 0; j < count; ++j)
      CHECK(roots[j] == Approx(want[static_cast<std::size_t>(j)]).margin(1e-9));
  }
  SECTION("leading zeros, the zero polynomial, roots on the ends") {
    double roots[5];
    const double line[6] = {-0.25, 1, 0, 0, 0, 0};  // u − 1/4 written as a quintic
    REQUIRE(detail::unit_interval_roots(line, 5, roots) == 1);
    CHECK(roots[0] == 0.25);
    const double zero[6] = {0, 0, 0, 0, 0, 0};
    CHECK(detail::unit_interval_roots(zero, 5, roots) == 0);
    const double ends[6] = {0, -1, 1, 0, 0, 0};  // u² − u: roots 0 and 1, neither inside
    CHECK(detail::unit_interval_roots(ends, 5, roots) == 0);
  }
}

TEMPLATE_TEST_CASE("closest_point on a closed path: the seam is the start, never the end",
                   "[closest_point]", float, double) {
  // Queries around the seam of a loop may find the nearest point at the path's end parameter,
  // which is the start once more: every answer lies in [0, end_parameter()) and [0, length()),
  // with the cursor and without.
  using S = TestType;
  std::mt19937_64 rng = make_rng(61);
  const auto loop = *MeasuredPath<S>::build(
      Path<S, 3>::catmull_rom(test::random_loop_points<S>(rng, 9, S(30)), Closure::closed));
  const S end = loop.path().end_parameter(), length = loop.length();
  const Vector3<S> seam = loop.point_at(S(0));
  const auto compiled = CompiledPath<S>::build(loop);
  ClosestPointCursor<S, 3> cursor, compiled_cursor;
  int near_end = 0;
  for (int i = 0; i < 4000; ++i) {
    const S reach = S(i % 2 == 0 ? 1e-3 : 0.5);
    const Vector3<S> q = seam + reach * test::random_vector<S, 3>(rng, S(1));
    for (const int way : {0, 1, 2, 3}) {
      const bool moving = way % 2 == 1, on_cells = way >= 2;
      const auto got = on_cells ? (moving ? compiled.closest_point(q, compiled_cursor)
                                          : compiled.closest_point(q))
                                : (moving ? loop.closest_point(q, cursor) : loop.closest_point(q));
      INFO("query " << i << (moving ? " with the cursor" : "") << (on_cells ? ", compiled" : "")
                    << ": parameter " << got.parameter << " of " << end << ", distance "
                    << got.distance << " of " << length);
      CHECK(got.parameter >= S(0));
      CHECK(got.parameter < end);
      CHECK(got.distance >= S(0));
      CHECK(got.distance < length);
      if (got.distance > S(0.5) * length) ++near_end;
    }
  }
  CHECK(near_end > 200);  // the queries behind the seam were asked
  // Points of the path a few ulps of the parameter before its end: their distance along rounds to
  // the length itself, which on a closed path reads as 0 (the seam), never as the length.
  S t = end;
  for (int k = 0; k < 64; ++k) {
    t = std::nextafter(t, S(0));
    const Vector3<S> q = loop.path().point(t);
    for (const auto& got : {loop.closest_point(q), compiled.closest_point(q)}) {
      INFO("t = end - " << (k + 1) << " ulps: distance " << got.distance << " of " << length);
      CHECK(got.distance >= S(0));
      CHECK(got.distance < length);
    }
  }
}
