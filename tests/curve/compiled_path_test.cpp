// CompiledPath against references it shares nothing with: points at a distance found in long
// double (tanh–sinh lengths, Newton–bisection on them, the Bernstein form), closed-form
// polylines, and the measured path only where the compiled one must hand over to it.
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <memory_resource>
#include <vector>

#include "support/catch.hpp"
#include "support/properties.hpp"
#include "support/reference_arc_length.hpp"
#include "support/reference_closest_point.hpp"
#include "tractrix/tractrix.hpp"

using namespace tractrix;
using namespace tractrix::test;

namespace {

using Long3 = Eigen::Matrix<long double, 3, 1>;

// The point and unit tangent at distance s along a path, in long double, by a different method
// from every step of the library's: per-segment tanh–sinh lengths, Newton steps on them kept
// inside a bisection bracket, then the Bernstein form.
template <class S>
class LongDoublePath {
 public:
  explicit LongDoublePath(const Path<S, 3>& path) : path_(path) {
    starts_.push_back(0);
    for (std::size_t i = 0; i < path.size(); ++i) {
      segments_.emplace_back(path.segment(i));
      starts_.push_back(starts_.back() + segments_.back().length());
    }
  }
  long double length() const { return starts_.back(); }
  // The distance along the path at path parameter t in [0, segment count].
  long double distance_at(long double t) const {
    const std::size_t i = std::min(static_cast<std::size_t>(t), segments_.size() - 1);
    return starts_[i] + segments_[i].distance(t - static_cast<long double>(i));
  }

  // Point and unit tangent at s in [0, length()].
  std::pair<Long3, Long3> at(long double s) const {
    std::size_t i = 0;
    while (i + 1 < segments_.size() && s >= starts_[i + 1])
      ++i;
    const ReferenceArcLength& segment = segments_[i];
    const long double target = s - starts_[i];
    long double lo = 0, hi = 1, u = target / segment.length();
    for (int k = 0; k < 60 && hi - lo > 1e-19L; ++k) {
      const long double residual = segment.distance(u) - target;
      if (std::abs(residual) < 1e-19L * length()) break;
      if (residual > 0)
        hi = u;
      else
        lo = u;
      const long double speed = segment.speed(u);
      const long double next = speed > 0 ? u - residual / speed : -1;
      u = (next > lo && next < hi) ? next : (lo + hi) / 2;
    }
    return bernstein(path_.segment(i), u);
  }

 private:
  static std::pair<Long3, Long3> bernstein(const Bezier<S, 3, 3>& b, long double u) {
    const LongPoint p = point_of(b, u), d = point_of(b, u, 1);
    const Long3 point(p[0], p[1], p[2]), derivative(d[0], d[1], d[2]);
    return {point, derivative / derivative.norm()};
  }

  const Path<S, 3>& path_;
  std::vector<ReferenceArcLength> segments_;
  std::vector<long double> starts_;
};

template <class S>
long double distance(const Vector3<S>& a, const Long3& b) {
  return (a.template cast<long double>() - b).norm();
}

}  // namespace

TEMPLATE_TEST_CASE("a compiled path samples the exact arc-length point, against long double",
                   "[curve][compiled]", float, double) {
  using S = TestType;
  auto rng = make_rng(431);
  // Double: the measured path's 1e-12 of the length; float: 64 eps of it (docs/guarantees.md).
  const long double position = std::is_same<S, double>::value ? 1e-12L : 64 * eps<S>();
  // The unit tangent: 1e-9 (measured 4e-10) in double; in float the points' own rounding over a
  // cell's size (32 eps of the coordinates / the cell's half length) — the measured path's
  // float tangents miss by as much (both printed below).
  const long double direction = std::is_same<S, double>::value ? 1e-9L : 1e-3L;
  long double measured_tangent = 0;
  long double worst_position = 0, worst_tangent = 0;
  for (int n = 0; n < property_count(6); ++n) {
    const Closure closure = n % 2 ? Closure::open : Closure::closed;
    const auto path = *Path<S, 3>::catmull_rom(random_loop_points<S>(rng, 12, S(300)), closure);
    const auto measured = *MeasuredPath<S>::build(path);
    const auto compiled = CompiledPath<S>::build(measured);
    const LongDoublePath<S> reference(path);
    const long double length = reference.length();
    REQUIRE(std::abs(compiled.length() - length) <= position * length);
    std::size_t cursor = 0;
    for (int k = 0; k <= 400; ++k) {
      // A sweep with a cursor, then jumps with a fresh one.
      const S s = k <= 200 ? S(length * k / 200) : uniform<S>(rng, S(0), S(length));
      const auto sample = k <= 200 ? compiled.sample(s, cursor) : compiled.sample(s);
      const auto exact = reference.at(static_cast<long double>(s));
      INFO("path " << n << ", s = " << s << " of " << double(length));
      CHECK(distance(sample.point, exact.first) <= position * length);
      CHECK(distance(sample.tangent, exact.second) <= direction);
      measured_tangent =
          std::max(measured_tangent, distance(measured.sample(s).tangent, exact.second));
      worst_position = std::max(worst_position, distance(sample.point, exact.first) / length);
      worst_tangent = std::max(worst_tangent, distance(sample.tangent, exact.second));
      // The parameter is where the measured path's point is the same point.
      CHECK(distance(path.point(sample.parameter), exact.first) <= position * length);
      // And back: the distance at a parameter (closest points' distance along), from the cells.
      const S t = uniform<S>(rng, S(0), path.end_parameter());
      CHECK(std::abs(compiled.distance_at(t) - reference.distance_at(t)) <= position * length);
    }
  }
  WARN("worst position " << double(worst_position) << "·length, tangent " << double(worst_tangent)
                         << " (measured path: " << double(measured_tangent) << ")");
}

TEST_CASE("a compiled path hands a cusp to the measured path and stays exact around it",
          "[curve][compiled]") {
  // (0,0) (1,1) (0,1) (1,0): r'(1/2) = 0, the tangent turns round there. Between two straight
  // segments, so the cells either side fit.
  using S = double;
  std::vector<Bezier<S, 3, 3>> segments(3);
  segments[0].points = {Vector3<S>(-3, 0, 0), Vector3<S>(-2, 0, 0), Vector3<S>(-1, 0, 0),
                        Vector3<S>(0, 0, 0)};
  segments[1].points = {Vector3<S>(0, 0, 0), Vector3<S>(1, 1, 0), Vector3<S>(0, 1, 0),
                        Vector3<S>(1, 0, 0)};
  segments[2].points = {Vector3<S>(1, 0, 0), Vector3<S>(1, -1, 0), Vector3<S>(1, -2, 0),
                        Vector3<S>(1, -3, 0)};
  const auto path = *Path<S, 3>::from_segments(segments, Closure::open);
  const auto compiled = CompiledPath<S>::build(*MeasuredPath<S>::build(path));
  CHECK(compiled.unfitted_cells() >= 1);
  const LongDoublePath<S> reference(path);
  const long double length = reference.length();
  for (int k = 0; k <= 2000; ++k) {
    const S s = S(length * k / 2000);
    const auto exact = reference.at(static_cast<long double>(s));
    INFO("s = " << s);
    CHECK(distance(compiled.sample(s).point, exact.first) <= 1e-12L * length);
    const S t = S(3 * k) / S(2000);  // through the cusp at t = 1.5, and the cells beside it
    CHECK(std::abs(compiled.distance_at(t) - reference.distance_at(t)) <= 1e-12L * length);
  }
}

TEST_CASE("a compiled polyline is the closed form, through cells of very uneven length",
          "[curve][compiled]") {
  // Straight segments at uniform speed, lengths from 1e-3 to 10: the point at s is the
  // polyline's. 2000 segments, so the bucket index sees cells 10⁴ times apart in size.
  using S = double;
  auto rng = make_rng(433);
  std::vector<Bezier<S, 3, 3>> segments;
  std::vector<Vector3<S>> corners{Vector3<S>(0, 0, 0)};
  std::vector<long double> starts{0};
  for (int i = 0; i < 2000; ++i) {
    const S size = std::pow(S(10), uniform<S>(rng, S(-3), S(1)));
    const Vector3<S> next = corners.back() + size * random_vector<S, 3>(rng, S(1)).normalized();
    Bezier<S, 3, 3> b;
    b.points = {corners.back(), corners.back() + (next - corners.back()) / S(3),
                corners.back() + (next - corners.back()) * S(2) / S(3), next};
    segments.push_back(b);
    starts.push_back(
        starts.back() +
        (next.template cast<long double>() - corners.back().template cast<long double>()).norm());
    corners.push_back(next);
  }
  const auto path = *Path<S, 3>::from_segments(segments, Closure::open);
  const auto compiled = CompiledPath<S>::build(*MeasuredPath<S>::build(path));
  // A straight segment at uniform speed is a polynomial in s of degree 1: one cell each, none
  // handed back, and at least the 34 scalars of a cell (mid, 1/half, 4 × 8 coefficients) each.
  CHECK(compiled.cell_count() == segments.size());
  CHECK(compiled.unfitted_cells() == 0);
  CHECK(compiled.memory_bytes() >= segments.size() * 34 * sizeof(S));
  const long double length = starts.back();
  std::size_t cursor = 0;
  for (int k = 0; k < 20000; ++k) {
    const long double s = uniform<S>(rng, S(0), S(length));
    const std::size_t i = static_cast<std::size_t>(
        std::upper_bound(starts.begin(), starts.end(), s) - starts.begin() - 1);
    const Long3 a = corners[i].template cast<long double>(),
                b = corners[i + 1].template cast<long double>();
    const long double fraction = (s - starts[i]) / (starts[i + 1] - starts[i]);
    const auto sample = compiled.sample(S(s), cursor);
    INFO("s = " << double(s) << ", segment " << i);
    CHECK(distance(sample.point, a + fraction * (b - a)) <= 1e-12L * length);
    CHECK(distance(sample.tangent, Long3((b - a) / (b - a).norm())) <= 1e-9L);
    // At uniform speed the distance at a parameter is linear in it, segment by segment.
    const S t = S(i) + S(fraction);
    CHECK(std::abs(compiled.distance_at(t) - s) <= 1e-12L * length);
  }
}

TEMPLATE_TEST_CASE("a compiled path wraps, clamps, reads NaN as 0 and ignores its cursor",
                   "[curve][compiled]", float, double) {
  using S = TestType;
  auto rng = make_rng(435);
  for (const Closure closure : {Closure::closed, Closure::open}) {
    const auto path = *Path<S, 3>::catmull_rom(random_loop_points<S>(rng, 9, S(50)), closure);
    const auto compiled = CompiledPath<S>::build(*MeasuredPath<S>::build(path));
    const S length = compiled.length();
    const auto start = path.segment(0).points[0];
    const auto end = path.segment(path.size() - 1).points[3];
    const S tolerance = S(64) * eps<S>() * length;
    CHECK((compiled.sample(std::numeric_limits<S>::quiet_NaN()).point - start).norm() <= tolerance);
    if (closure == Closure::closed) {
      CHECK((compiled.sample(-length / S(4)).point - compiled.sample(S(0.75) * length).point)
                .norm() <= tolerance);
      CHECK((compiled.sample(S(3) * length).point - start).norm() <= tolerance);
    } else {
      // Clamped to the ends, and past them along the end tangents with sample_extended.
      CHECK((compiled.sample(-S(5)).point - start).norm() <= tolerance);
      CHECK((compiled.sample(length + S(5)).point - end).norm() <= tolerance);
      std::size_t cursor = 0;
      const auto beyond = compiled.sample_extended(length + S(5), cursor);
      CHECK((beyond.point - (end + S(5) * path.unit_tangent(path.end_parameter()))).norm() <=
            tolerance);
    }
    // distance_at wraps and clamps its parameter as the measured path's does, and gives the ends
    // exactly: 0 at the start, an open path's length at its end.
    const S last = path.end_parameter();
    CHECK(compiled.distance_at(S(0)) == S(0));
    CHECK(compiled.distance_at(std::numeric_limits<S>::quiet_NaN()) == S(0));
    const S quarter = compiled.distance_at(S(0.25) * last);
    if (closure == Closure::closed) {
      CHECK(std::abs(compiled.distance_at(S(-0.75) * last) - quarter) <= tolerance);
      CHECK(std::abs(compiled.distance_at(S(2.25) * last) - quarter) <= tolerance);
      CHECK(compiled.distance_at(last) == S(0));
      // Just before the end the distance may round to the length: that is the seam, 0. (It does
      // on this float loop, a parameter one ulp short of the end.)
      auto seam_rng = make_rng(7);
      const auto seam_loop = CompiledPath<S>::build(*MeasuredPath<S>::build(
          Path<S, 3>::catmull_rom(random_loop_points<S>(seam_rng, 12, S(300)), Closure::closed)));
      for (const auto* loop : {&compiled, &seam_loop}) {
        S t = loop->measured().path().end_parameter();
        for (int k = 0; k < 256; ++k) {
          t = std::nextafter(t, S(0));
          CHECK(loop->distance_at(t) < loop->length());
        }
      }
    } else {
      CHECK(compiled.distance_at(-S(1)) == S(0));
      CHECK(compiled.distance_at(last) == length);
      CHECK(compiled.distance_at(last + S(1)) == length);
    }
    // Any cursor, the same bits: the cell comes from s, the cursor only saves the index.
    for (int k = 0; k < 200; ++k) {
      const S s = uniform<S>(rng, S(0), length);
      std::size_t fresh = 0, stale = 7, wild = std::numeric_limits<std::size_t>::max();
      const auto a = compiled.sample(s, fresh);
      CHECK(compiled.sample(s, stale).point == a.point);
      CHECK(compiled.sample(s, wild).point == a.point);
      CHECK(compiled.sample(s, fresh).tangent == a.tangent);
    }
  }
}

TEST_CASE("a compiled path's distance at a parameter holds far from the origin",
          "[curve][compiled]") {
  // The distance carries no rounding of the coordinates: shifted 1e5 and 1e6 away, the same
  // 1e-12·length of long-double arc lengths as at the origin (the point's tolerance has an
  // eps-of-the-coordinates term that the distance must not borrow: 1.6e-9·L at 1e6 when it did).
  auto rng = make_rng(437);
  for (const double offset : {0.0, 1e5, 1e6}) {
    const auto keys = random_loop_points<double>(rng, 10, 40.0);
    std::vector<Vector3<double>> shifted;
    for (const auto& k : keys)
      shifted.push_back(k + Vector3<double>::Constant(offset));
    const auto path = *Path<double, 3>::catmull_rom(shifted, Closure::closed);
    const auto compiled = CompiledPath<double>::build(*MeasuredPath<double>::build(path));
    const LongDoublePath<double> reference(path);
    const long double length = reference.length();
    for (int k = 0; k < 300; ++k) {
      const double t = uniform<double>(rng, 0.0, path.end_parameter());
      INFO("offset " << offset << ", t = " << t);
      CHECK(std::abs(compiled.distance_at(t) - reference.distance_at(t)) <= 1e-12L * length);
    }
  }
}

namespace {
// A memory resource that counts what it is asked for and hands it to new and delete.
class CountingResource : public std::pmr::memory_resource {
 public:
  int allocations = 0;

 private:
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    ++allocations;
    return std::pmr::new_delete_resource()->allocate(bytes, alignment);
  }
  void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override {
    std::pmr::new_delete_resource()->deallocate(p, bytes, alignment);
  }
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override {
    return this == &other;
  }
};
}  // namespace

TEST_CASE("a compiled path never allocates from the program's pmr default resource",
          "[curve][compiled]") {
  // A program may set a scoped arena as the default resource while it loads a level; a compiled
  // path built meanwhile must not keep memory from it (it would be freed under the path).
  CountingResource counting;
  std::pmr::memory_resource* const before = std::pmr::set_default_resource(&counting);
  const auto path = *Path<double, 3>::catmull_rom(
      random_loop_points<double>(*std::make_unique<std::mt19937_64>(make_rng(439)), 8, 30.0),
      Closure::closed);
  const auto compiled = CompiledPath<double>::build(*MeasuredPath<double>::build(path));
  std::pmr::set_default_resource(before);
  CHECK(counting.allocations == 0);
  CHECK(compiled.cell_count() > 0);
}
