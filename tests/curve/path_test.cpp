#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "support/catch.hpp"
#include "support/properties.hpp"
#include "tractrix/curve/measured_path.hpp"
#include "tractrix/curve/path.hpp"

using namespace tractrix;
using namespace tractrix::test;

TEMPLATE_TEST_CASE("Hermite keys are interpolated with their tangents", "[curve][path]", float,
                   double) {
  using S = TestType;
  using P = Path<S, 3>;
  auto rng = make_rng(21);
  for (bool closed : {false, true}) {
    const auto points = random_loop_points<S>(rng, 6, S(50));
    std::vector<Vector3<S>> tangents;
    for (int i = 0; i < 6; ++i)
      tangents.push_back(random_vector<S, 3>(rng, S(30)));
    const auto path =
        P::from_hermite_keys(points, tangents, closed ? Closure::closed : Closure::open);
    REQUIRE(path);
    CHECK(path->size() == (closed ? 6u : 5u));
    CHECK(path->closed() == closed);
    const S tol = S(64) * eps<S>() * S(80);
    for (std::size_t i = 0; i + 1 < points.size(); ++i) {
      // Key i sits at t = i; its tangent leaves from there and arrives at t = i from below.
      const auto at = path->evaluate(S(i));
      CHECK((at.point - points[i]).norm() <= tol);
      CHECK((at.tangent - tangents[i]).norm() <= tol);
      const auto arriving = de_casteljau(path->segment(i), S(1));
      CHECK((arriving.point - points[i + 1]).norm() <= tol);
      CHECK((arriving.tangent - tangents[i + 1]).norm() <= tol);
    }
  }
}

TEMPLATE_TEST_CASE("Catmull-Rom and Kochanek-Bartels tangents follow their formulas",
                   "[curve][path]", float, double) {
  using S = TestType;
  using P = Path<S, 3>;
  const std::vector<Vector3<S>> pts{{0, 0, 0}, {10, 2, 0}, {20, 0, 5}, {25, -5, 10}, {15, -8, 20}};
  const S tol = S(64) * eps<S>() * S(25);
  const auto cr = P::catmull_rom(pts, Closure::open);
  REQUIRE(cr);
  for (std::size_t i = 1; i + 1 < pts.size(); ++i)
    CHECK((cr->evaluate(S(i)).tangent - (pts[i + 1] - pts[i - 1]) / S(2)).norm() <= tol);
  // Open ends mirror their neighbour: the end tangent is the end chord.
  CHECK((cr->evaluate(S(0)).tangent - (pts[1] - pts[0])).norm() <= tol);
  CHECK((de_casteljau(cr->segment(3), S(1)).tangent - (pts[4] - pts[3])).norm() <= tol);

  // Closed Catmull-Rom wraps the neighbours of the first key.
  const auto loop = P::catmull_rom(pts, Closure::closed);
  REQUIRE(loop);
  CHECK(loop->size() == 5u);
  CHECK((loop->evaluate(S(0)).tangent - (pts[1] - pts[4]) / S(2)).norm() <= tol);

  // Tension 1 gives zero tangents at every key.
  const auto tight = P::kochanek_bartels(pts, {S(1), S(0), S(0)}, Closure::open);
  REQUIRE(tight);
  CHECK(tight->evaluate(S(2)).tangent.norm() <= tol);

  // Continuity c (Kochanek & Bartels 1984, Eq. 8–9): the tangent leaving a key (DD_i as the
  // equations are usually stated) is (1+c)/2·before + (1−c)/2·after, the one arriving at it
  // (DS_i) (1−c)/2·before + (1+c)/2·after.
  const S c = S(-0.5);
  const auto corner = P::kochanek_bartels(pts, {S(0), S(0), c}, Closure::open);
  REQUIRE(corner);
  const Vector3<S> before = pts[2] - pts[1], after = pts[3] - pts[2];
  const Vector3<S> out = (S(1) + c) / S(2) * before + (S(1) - c) / S(2) * after;
  const Vector3<S> in = (S(1) - c) / S(2) * before + (S(1) + c) / S(2) * after;
  CHECK((corner->evaluate(S(2)).tangent - out).norm() <= tol);
  CHECK((de_casteljau(corner->segment(1), S(1)).tangent - in).norm() <= tol);
  // Seen on a square's corners: c = −1 gives box corners, the path staying inside the keys'
  // box; c = +1 inverted ones, the path overshooting each corner (Noskowicz's table).
  const std::vector<Vector3<S>> square{Vector3<S>(0, 0, 0), Vector3<S>(1, 0, 0),
                                       Vector3<S>(1, 1, 0), Vector3<S>(0, 1, 0)};
  for (const S sign : {S(-1), S(1)}) {
    const auto cornered = P::kochanek_bartels(square, {S(0), S(0), sign}, Closure::open);
    REQUIRE(cornered);
    S max_x = S(0);
    for (int i = 0; i <= 300; ++i)
      max_x = std::max(max_x, cornered->evaluate(S(i) / S(100)).point.x());
    if (sign < S(0))
      CHECK(max_x <= S(1) + tol);
    else
      CHECK(max_x >= S(1.1));
  }

  // Bias b: both tangents scale the incoming chord by (1+b)/2 and the outgoing one by (1−b)/2.
  const S b = S(0.5);
  const auto leaning = P::kochanek_bartels(pts, {S(0), b, S(0)}, Closure::open);
  REQUIRE(leaning);
  CHECK((leaning->evaluate(S(2)).tangent - ((S(1) + b) / S(2) * before + (S(1) - b) / S(2) * after))
            .norm() <= tol);
  // All three at once, both tangents: (1−t) scales each; bias weighs the chords, continuity
  // splits them between leaving and arriving as above.
  const S t3 = S(0.3), b3 = S(0.4), c3 = S(-0.6);
  const auto all = P::kochanek_bartels(pts, {t3, b3, c3}, Closure::open);
  REQUIRE(all);
  const Vector3<S> leaving = (S(1) - t3) * ((S(1) + b3) * (S(1) + c3) / S(2) * before +
                                            (S(1) - b3) * (S(1) - c3) / S(2) * after);
  const Vector3<S> arriving = (S(1) - t3) * ((S(1) + b3) * (S(1) - c3) / S(2) * before +
                                             (S(1) - b3) * (S(1) + c3) / S(2) * after);
  CHECK((all->evaluate(S(2)).tangent - leaving).norm() <= tol);
  CHECK((de_casteljau(all->segment(1), S(1)).tangent - arriving).norm() <= tol);
  CHECK((all->end_tangent(1) - arriving.normalized()).norm() <= S(16) * eps<S>());
}

TEMPLATE_TEST_CASE("closed paths wrap t over many laps, open paths clamp", "[curve][path]", float,
                   double) {
  using S = TestType;
  auto rng = make_rng(23);
  const auto path = Path<S, 3>::catmull_rom(random_loop_points<S>(rng, 7, S(10)), Closure::closed);
  REQUIRE(path);
  const S n = path->end_parameter();
  for (S t : {S(0), S(0.3), S(2.75), S(6.999)}) {
    for (int laps : {1, -1, 1000, -1000}) {
      // t + laps·n is itself rounded: the error allowed is that rounding times the speed.
      const S shifted = t + S(laps) * n;
      const S rounding = std::abs(shifted - S(laps) * n - t) + eps<S>();
      const auto a = path->evaluate(t), b = path->evaluate(shifted);
      CHECK((a.point - b.point).norm() <= S(4) * rounding * S(40) + S(64) * eps<S>() * S(13));
    }
  }
  const auto open = Path<S, 3>::catmull_rom(random_loop_points<S>(rng, 4, S(10)), Closure::open);
  REQUIRE(open);
  CHECK(open->evaluate(S(-3)).point == open->segment(0).points[0]);
  CHECK(open->evaluate(S(10)).point == open->segment(2).points[3]);
  CHECK(open->evaluate(std::numeric_limits<S>::quiet_NaN()).point == open->segment(0).points[0]);
  CHECK(path->evaluate(std::numeric_limits<S>::infinity()).point.allFinite());
  CHECK(path->evaluate(n).point == path->evaluate(S(0)).point);
}

TEMPLATE_TEST_CASE("reversed path runs the same points backwards", "[curve][path]", float, double) {
  using S = TestType;
  auto rng = make_rng(29);
  const auto path = Path<S, 3>::catmull_rom(random_loop_points<S>(rng, 5, S(10)), Closure::open);
  REQUIRE(path);
  const auto back = path->reversed();
  const S n = path->end_parameter();
  for (S t = S(0); t <= n; t += S(0.125)) {
    const auto a = path->evaluate(t), b = back.evaluate(n - t);
    CHECK((a.point - b.point).norm() <= S(64) * eps<S>() * S(13));
    CHECK((a.tangent + b.tangent).norm() <= S(256) * eps<S>() * S(40));
  }
}

TEMPLATE_TEST_CASE("translated moves every point and extent is the largest coordinate",
                   "[curve][path]", float, double) {
  using S = TestType;
  typename Path<S, 3>::Segment segment;
  segment.points = {Vector3<S>(S(1), S(-7), S(2)), Vector3<S>(S(4), S(3), S(-2)),
                    Vector3<S>(S(0), S(5), S(6)), Vector3<S>(S(2), S(1), S(1))};
  const auto path = *Path<S, 3>::from_segments({segment}, Closure::open);
  CHECK(path.extent() == S(7));
  const Vector3<S> offset(S(1000), S(-2000), S(0.5));
  const auto moved = path.translated(offset);
  REQUIRE(moved);
  CHECK(!moved->closed());
  CHECK(moved->extent() == S(2007));  // |−7 − 2000|
  for (S t = S(0); t <= S(1); t += S(0.125))
    CHECK((moved->point(t) - (path.point(t) + offset)).norm() <= S(8) * eps<S>() * S(2000));
  const auto bad = path.translated(Vector3<S>(std::numeric_limits<S>::quiet_NaN(), S(0), S(0)));
  REQUIRE(!bad);
  CHECK(bad.error().code == ErrorCode::non_finite);
}

TEMPLATE_TEST_CASE("bad input gives errors that name the field", "[curve][path][errors]", float,
                   double) {
  using S = TestType;
  using P = Path<S, 3>;
  using V = Vector3<S>;
  const S nan = std::numeric_limits<S>::quiet_NaN();
  CHECK(P::from_segments({}, Closure::open).error().code == ErrorCode::empty_input);
  CHECK(P::catmull_rom({}, Closure::open).error().code == ErrorCode::empty_input);
  CHECK(P::catmull_rom({V(1, 2, 3)}, Closure::open).error().code == ErrorCode::too_few_points);
  const auto bad_point = P::catmull_rom({V(0, 0, 0), V(1, nan, 0), V(2, 0, 0)}, Closure::open);
  CHECK(bad_point.error().code == ErrorCode::non_finite);
  CHECK(bad_point.error().message == "point 1: non-finite");
  const auto bad_tangent =
      P::from_hermite_keys({V(0, 0, 0), V(1, 0, 0)}, {V(1, 0, 0), V(nan, 0, 0)}, Closure::open);
  CHECK(bad_tangent.error().message == "tangent 1: non-finite");
  CHECK(P::from_hermite_keys({V(0, 0, 0), V(1, 0, 0)}, {V(1, 0, 0)}, Closure::open).error().code ==
        ErrorCode::mismatched_sizes);
  const auto kb = P::kochanek_bartels({V(0, 0, 0), V(1, 0, 0)}, {nan, S(0), S(0)}, Closure::open);
  CHECK(kb.error().code == ErrorCode::non_finite);

  using B = Bezier<S, 3, 3>;
  const B first{{V(0, 0, 0), V(1, 0, 0), V(2, 0, 0), V(3, 0, 0)}};
  const B apart{{V(4, 0, 0), V(5, 0, 0), V(6, 0, 0), V(7, 0, 0)}};
  const auto gap = P::from_segments({first, apart}, Closure::open);
  CHECK(gap.error().code == ErrorCode::not_continuous);
  CHECK(gap.error().message.rfind("segment 0: end is 1", 0) == 0);
  CHECK(P::from_segments({first}, Closure::closed).error().code == ErrorCode::not_continuous);
  // A gap of a few ulps is snapped shut, so the path is exactly continuous.
  B nearly = apart;
  nearly.points[0] = V(S(3) + S(4) * eps<S>() * S(3), 0, 0);
  const auto snapped = P::from_segments({first, nearly}, Closure::open);
  REQUIRE(snapped);
  CHECK(snapped->segment(1).points[0] == first.points[3]);
  B infinite = first;
  infinite.points[2].x() = std::numeric_limits<S>::infinity();
  CHECK(P::from_segments({infinite}, Closure::open).error().message ==
        "segment 0: non-finite control point");
}

TEMPLATE_TEST_CASE("degenerate keys give finite paths", "[curve][path]", float, double) {
  using S = TestType;
  using V = Vector3<S>;
  // Repeated points make zero-length segments with zero tangents: valid, finite everywhere.
  const auto path =
      Path<S, 3>::catmull_rom({V(0, 0, 0), V(0, 0, 0), V(1, 0, 0), V(1, 0, 0)}, Closure::open);
  REQUIRE(path);
  for (S t = S(-1); t <= S(4); t += S(0.0625)) {
    const auto at = path->evaluate(t);
    CHECK(at.point.allFinite());
    CHECK(at.tangent.allFinite());
  }
}

TEMPLATE_TEST_CASE("a closed path at t = size() is its start, corners on the seam included",
                   "[curve][path]", float, double) {
  using S = TestType;
  using V = Vector3<S>;
  // Two segments that meet at the seam with a corner: the tangent and the second derivative
  // jump there, so only the segment that starts at t = 0 gives the right values.
  const Bezier<S, 3, 3> a{{V(0, 0, 0), V(1, 0, 0), V(2, 1, 0), V(3, 1, 0)}};
  const Bezier<S, 3, 3> b{{V(3, 1, 0), V(3, 3, 1), V(1, 2, 0), V(0, 0, 0)}};
  const auto path = *Path<S, 3>::from_segments({a, b}, Closure::closed);
  const S end = path.end_parameter();
  for (S t : {end, S(2) * end, -end}) {
    INFO("t = " << t);
    const auto [segment, u] = path.locate(t);
    CHECK(segment == 0u);
    CHECK(u == S(0));
    // Against the first segment's own derivatives at u = 0: r' = 3(P1 − P0), r'' = 6(P0 − 2P1 +
    // P2).
    CHECK(path.derivative(t, 1) == V(3, 0, 0));
    CHECK(path.derivative(t, 2) == V(0, 6, 0));
    CHECK(path.unit_tangent(t) == V(1, 0, 0));
    CHECK(path.point(t) == V(0, 0, 0));
  }
}

TEMPLATE_TEST_CASE("the unit tangent keeps its direction near the scalar's range", "[curve][path]",
                   float, double) {
  using S = TestType;
  using V = Vector3<S>;
  // Control points a third of the largest float or double apart: r' = 3(P1 − P0) overflows at
  // the ends, yet the tangent is +Y everywhere (the segment is a straight line along y).
  const S big = std::numeric_limits<S>::max() / S(3);
  const Bezier<S, 3, 3> line{{V(0, -big, 0), V(0, 0, 0), V(0, 0, 0), V(0, big, 0)}};
  const auto path = *Path<S, 3>::from_segments({line}, Closure::open);
  for (const S t : {S(0), S(0.25), S(0.5), S(1)}) {
    INFO("t = " << t);
    CHECK((path.unit_tangent(t) - V(0, 1, 0)).norm() <= S(4) * detail::epsilon<S>());
  }
}

TEMPLATE_TEST_CASE("the tangent at an open path's end with a zero end handle: from behind",
                   "[curve][path]", float, double) {
  using S = TestType;
  using V = Vector3<S>;
  using L = long double;
  // P2 == P3 (DCC tools export such ends): r'(1) = 0, and just before the end r' ≈ r''(1)(u − 1)
  // points against r''(1). With P1 == P2 == P3 too, r''(1) = 0 and r' ≈ r'''·(u − 1)²/2 points
  // along r'''. The reference: the long-double secant into the end over the last 1e-6 of u. The
  // first case came back reversed, and a network refused to join such a piece to its successor
  // ("all 2 ends point the same way") or put a switch's leg on the wrong side.
  const std::vector<std::array<V, 4>> ends{{V(-30, 0, 0), V(-20, 0, 0), V(0, 0, 0), V(0, 0, 0)},
                                           {V(0, 0, 0), V(10, 0, 0), V(10, 10, 0), V(10, 10, 0)},
                                           {V(30, 0, 10), V(20, 0, 0), V(0, 0, 0), V(0, 0, 0)},
                                           {V(0, 0, 0), V(5, 5, 0), V(5, 5, 0), V(5, 5, 0)}};
  for (const auto& points : ends) {
    const Bezier<S, 3, 3> segment{points};
    const auto path = *Path<S, 3>::from_segments({segment}, Closure::open);
    auto at = [&](L u) {
      const L v = 1 - u;
      const L w[4] = {v * v * v, 3 * u * v * v, 3 * u * u * v, u * u * u};
      Eigen::Matrix<L, 3, 1> r = Eigen::Matrix<L, 3, 1>::Zero();
      for (std::size_t k = 0; k < 4; ++k)
        r += w[k] * points[k].template cast<L>();
      return r;
    };
    const Eigen::Matrix<L, 3, 1> secant = (at(1) - at(1 - 1e-6L)).normalized();
    const V got = path.unit_tangent(S(1));
    INFO("end " << points[3].transpose() << ": got " << got.transpose());
    CHECK((got.template cast<L>() - secant).norm() <= 1e-4L);
    // A measured path's sample at its length falls back on it where the speed vanishes.
    const auto measured = *MeasuredPath<S>::build(path);
    CHECK((measured.sample(measured.length()).tangent.template cast<L>() - secant).norm() <= 1e-4L);
    // The start stays the limit from ahead: the reversed path's end, negated.
    CHECK((path.unit_tangent(S(0)) + path.reversed().unit_tangent(S(1))).norm() <= S(1e-4));
  }
}

namespace {
// An engine's key record: three floats and its own data after them.
struct EngineKey {
  float x, y, z;
  int id;
};
}  // namespace

TEMPLATE_TEST_CASE("paths read engines' own point arrays, float records of any size",
                   "[curve][path][caller_arrays]", float, double) {
  using S = TestType;
  const std::vector<EngineKey> keys{
      {0, 0, 0, 7}, {10.5f, 1, 2, 8}, {20, -3, 4.25f, 9}, {31, 0, -1, 10}};
  std::vector<Vector3<S>> reference;  // the same coordinates, copied field by field
  for (const EngineKey& k : keys)
    reference.emplace_back(S(k.x), S(k.y), S(k.z));
  const PointArray<float> view{&keys[0].x, keys.size(), sizeof(EngineKey)};
  for (Closure closure : {Closure::open, Closure::closed}) {
    const auto from_array = Path<S, 3>::catmull_rom(view, closure);
    const auto from_vector = Path<S, 3>::catmull_rom(reference, closure);
    REQUIRE(from_array);
    REQUIRE(from_array->size() == from_vector->size());
    for (std::size_t i = 0; i < from_array->size(); ++i)
      for (std::size_t j = 0; j < 4; ++j)
        CHECK(from_array->segment(i).points[j] == from_vector->segment(i).points[j]);
  }
  // Tangents from a second array: a packed float[3] array (the default stride).
  const float tangents[4][3] = {{1, 0, 0}, {1, 1, 0}, {0, 1, 1}, {1, 0, 0}};
  const auto hermite =
      Path<S, 3>::from_hermite_keys(view, PointArray<float>{tangents[0], 4}, Closure::open);
  REQUIRE(hermite);
  // r'(2) = 3(P1 − P0) with P1 = P0 + m/3: the key's tangent up to the rounding of P0 (~20).
  CHECK((hermite->derivative(S(2), 1) - Vector3<S>(0, 1, 1)).norm() <= S(256) * eps<S>());
  CHECK(hermite->point(S(3)) == reference[3]);
  // Arrays that cannot be read are rejected, naming the array.
  const auto null = Path<S, 3>::catmull_rom(PointArray<float>{nullptr, 4}, Closure::open);
  CHECK(null.error().message == "points: null pointer for 4 points");
  const auto overlapping =
      Path<S, 3>::kochanek_bartels(PointArray<float>{&keys[0].x, 4, 8}, {}, Closure::open);
  CHECK(overlapping.error().message == "points: stride 8 bytes is shorter than a point (12 bytes)");
}
