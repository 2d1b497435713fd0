// tractrix's Python core (_tractrix): the double instantiation of the library over contiguous
// numpy arrays. The public module (python/tractrix/__init__.py) checks dtypes and shapes, names
// the argument that is wrong, allocates the outputs and calls these functions, which only loop:
// every array reaching here is C-contiguous float64 (int64/int8 for laps and statuses) of the
// shape the Python layer promised (and checked again for size here). Loops, and the builds that
// take long (measuring a path, rotation-minimizing frames, a chord train's check, a network's
// index), run with the GIL released.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <tractrix/tractrix.hpp>
#if defined(TRACTRIX_PYTHON_LANDXML)
#include <tractrix/io/landxml.hpp>
#endif

namespace nb = nanobind;
namespace tx = tractrix;

namespace {

using In = nb::ndarray<const double, nb::c_contig, nb::device::cpu>;
using Out = nb::ndarray<double, nb::c_contig, nb::device::cpu>;
using OutLaps = nb::ndarray<std::int64_t, nb::c_contig, nb::device::cpu>;
using OutStatus = nb::ndarray<std::int8_t, nb::c_contig, nb::device::cpu>;

using Path = tx::Path<double>;
using MeasuredPath = tx::MeasuredPath<double>;
using Track = tx::Track<double>;
using Network = tx::Network<double>;
using Route = tx::Route<double>;
using Alignment = tx::Alignment<double>;
using Vec3 = tx::Vector3d;
using Mat3 = Eigen::Matrix3d;

template <class T>
T value_or_raise(tx::Expected<T> result) {
  if (!result) throw nb::value_error(result.error().message.c_str());
  return std::move(*result);
}

Vec3 vec3(const double* p) {
  return {p[0], p[1], p[2]};
}
void put3(double* out, const Vec3& v) {
  out[0] = v.x();
  out[1] = v.y();
  out[2] = v.z();
}
// Row-major 3×3 (numpy's (3, 3) in C order): element (r, c) at [3r + c].
Mat3 mat3(const double* p) {
  Mat3 m;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      m(r, c) = p[3 * r + c];
  return m;
}
void put33(double* out, const Mat3& m) {
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      out[3 * r + c] = m(r, c);
}
// x, y, z, w with w >= 0: PoseArray's position_quaternion convention, so Python and C++
// quaternions of one rotation are the same numbers.
void put_quaternion(double* out, const Mat3& rotation) {
  Eigen::Quaterniond q(rotation);
  if (q.w() < 0) q.coeffs() = -q.coeffs();
  out[0] = q.x();
  out[1] = q.y();
  out[2] = q.z();
  out[3] = q.w();
}

// The core trusts the Python layer for meaning, not for memory: every array is checked for the
// size it is read or written at, so a direct call with wrong arrays raises instead of touching
// memory out of bounds.
std::size_t rows(const In& a, std::size_t width, const char* name) {
  if (a.size() % width != 0) {
    const std::string message = std::string(name) + ": " + std::to_string(a.size()) +
                                " values are not rows of " + std::to_string(width);
    throw nb::value_error(message.c_str());
  }
  return a.size() / width;
}
template <class Array>
void need(const Array& a, std::size_t count, const char* name) {
  if (a.size() != count) {
    const std::string message = std::string(name) + ": " + std::to_string(a.size()) +
                                " values where " + std::to_string(count) + " are written";
    throw nb::value_error(message.c_str());
  }
}

// Samples of a plan at times t (anything with at(t) -> AxisSample) into four arrays.
template <class Plan>
void sample_axis(const Plan& plan, In t, Out position, Out velocity, Out acceleration, Out jerk) {
  need(position, t.size(), "positions");
  need(velocity, t.size(), "velocities");
  need(acceleration, t.size(), "accelerations");
  need(jerk, t.size(), "jerks");
  for (std::size_t i = 0; i < t.size(); ++i) {
    const tx::AxisSample<double> at = plan.at(t.data()[i]);
    position.data()[i] = at.position;
    velocity.data()[i] = at.velocity;
    acceleration.data()[i] = at.acceleration;
    jerk.data()[i] = at.jerk;
  }
}

// Frames written into three arrays a query at a time (origins (N, 3), rotations (N, 3, 3),
// quaternions (N, 4)), their sizes checked for `count` frames first.
struct FramesOut {
  Out& origins;
  Out& rotations;
  Out& quaternions;
  FramesOut(Out& o, Out& r, Out& q, std::size_t count) : origins(o), rotations(r), quaternions(q) {
    need(origins, 3 * count, "origins");
    need(rotations, 9 * count, "rotations");
    need(quaternions, 4 * count, "quaternions");
  }
  void put(std::size_t i, const tx::Frame<double>& frame) const noexcept {
    put3(origins.data() + 3 * i, frame.origin);
    put33(rotations.data() + 9 * i, frame.rotation);
    put_quaternion(quaternions.data() + 4 * i, frame.rotation);
  }
};

std::vector<Vec3> points_of(const In& a) {
  std::vector<Vec3> points(rows(a, 3, "points"));
  for (std::size_t i = 0; i < points.size(); ++i)
    points[i] = vec3(a.data() + 3 * i);
  return points;
}
std::vector<double> values_of(const In& a) {
  return {a.data(), a.data() + a.size()};
}

// Tells the optimizer the buffers are read (the timing loop must not be dropped as dead).
inline void keep_written(const void* a, const void* b) {
#if defined(__GNUC__)
  asm volatile("" : : "r"(a), "r"(b) : "memory");
#else
  static const void* volatile sink;
  sink = a;
  sink = b;
#endif
}

// A MeasuredPath query at each of `in` (distances or parameters) into `out`: vectors or numbers.
template <class Result, Result (MeasuredPath::*query)(double) const noexcept>
void each_at(const MeasuredPath& path, In in, Out out) {
  constexpr std::size_t width = std::is_same_v<Result, Vec3> ? 3 : 1;
  need(out, width * in.size(), "results");
  for (std::size_t i = 0; i < in.size(); ++i) {
    if constexpr (width == 3)
      put3(out.data() + 3 * i, (path.*query)(in.data()[i]));
    else
      out.data()[i] = (path.*query)(in.data()[i]);
  }
}

tx::Closure closure(bool closed) {
  return closed ? tx::Closure::closed : tx::Closure::open;
}

// The up source a Python Track asks for: kind "world" (up), "rail" (rail path, match) or
// "rotation_minimizing" (initial up), with an optional roll profile on top.
Track make_track(const MeasuredPath& path, const std::string& kind, const In& up,
                 std::optional<MeasuredPath> rail, bool rail_closest_point,
                 std::optional<In> roll_distances, std::optional<In> roll_angles) {
  if (rows(up, 3, "up") != 1) throw nb::value_error("up: not one vector of 3");
  tx::UpSource<double> source = [&] {
    if (kind == "rail") {
      if (!rail) throw nb::value_error("up: a rail source needs a rail path");
      return *tx::UpSource<double>::rail(*rail, rail_closest_point
                                                    ? tx::RailMatch::closest_point
                                                    : tx::RailMatch::normalized_arc_length);
    }
    if (kind == "rotation_minimizing")
      return value_or_raise(tx::UpSource<double>::rotation_minimizing(path, vec3(up.data())));
    return value_or_raise(tx::UpSource<double>::world(vec3(up.data())));
  }();
  if (roll_distances && roll_angles)
    source = source.with_roll(value_or_raise(tx::RollProfile<double>::build(
        values_of(*roll_distances), values_of(*roll_angles), path.closed() ? path.length() : 0)));
  return value_or_raise(Track::build(path, std::move(source)));
}

// The parts of a train solve that Python asked for (null: not wanted), looked up while the GIL is
// held.
struct TrainOutputs {
  double* position[3] = {};  // front, rear, body
  double* rotation[3] = {};
  double* quaternion[3] = {};
  double* body_midpoint = nullptr;
  double* coupler = nullptr;
  double* front_distance = nullptr;
  double* rear_distance = nullptr;
  std::int64_t* lap = nullptr;
  std::int8_t* status = nullptr;
  std::int64_t* piece[2] = {};  // front, rear: the piece under the bogie (0 on a Track)
  double* piece_distance[2] = {};
  // The arrays written, referenced until the solve is over (destroyed with the GIL held).
  std::vector<nb::object> held;

  // Arrays are taken as they are (no conversion: a converted copy would be written and thrown
  // away) and must hold `count` records.
  static TrainOutputs from(const nb::dict& out, std::size_t count) {
    TrainOutputs o;
    auto take = [&](const std::string& key, auto& array, std::size_t width, const char* kind) {
      nb::object held = out[key.c_str()];
      o.held.push_back(held);  // the dict may be cleared by another thread while we write
      if (!nb::try_cast(held, array, /*convert=*/false)) {
        const std::string message = key + ": not a writeable C-contiguous " + kind + " array";
        throw nb::value_error(message.c_str());
      }
      need(array, width * count, key.c_str());
    };
    auto get = [&](const std::string& key, std::size_t width) -> double* {
      if (!out.contains(key.c_str())) return nullptr;
      Out array;
      take(key, array, width, "float64");
      return array.data();
    };
    auto get_int = [&](const std::string& key, auto* type) -> decltype(type) {
      using T = std::remove_pointer_t<decltype(type)>;
      if (!out.contains(key.c_str())) return nullptr;
      nb::ndarray<T, nb::c_contig, nb::device::cpu> array;
      take(key, array, 1, sizeof(T) == 1 ? "int8" : "int64");
      return array.data();
    };
    const char* parts[3] = {"front", "rear", "body"};
    for (int k = 0; k < 3; ++k) {
      const std::string part = parts[k];
      o.position[k] = get(part + "_position", 3);
      o.rotation[k] = get(part + "_rotation", 9);
      o.quaternion[k] = get(part + "_quaternion", 4);
    }
    o.body_midpoint = get("body_midpoint", 3);
    o.coupler = get("coupler", 3);
    o.front_distance = get("front_distance", 1);
    o.rear_distance = get("rear_distance", 1);
    o.lap = get_int("lap", static_cast<std::int64_t*>(nullptr));
    o.status = get_int("status", static_cast<std::int8_t*>(nullptr));
    for (int k = 0; k < 2; ++k) {
      const std::string part = parts[k];
      o.piece[k] = get_int(part + "_piece", static_cast<std::int64_t*>(nullptr));
      o.piece_distance[k] = get(part + "_piece_distance", 1);
    }
    return o;
  }

  void write(std::size_t i, const tx::WagonPose<double>& pose) const noexcept {
    const tx::Frame<double>* frames[3] = {&pose.front, &pose.rear, &pose.body};
    for (int k = 0; k < 3; ++k) {
      if (position[k]) put3(position[k] + 3 * i, frames[k]->origin);
      if (rotation[k]) put33(rotation[k] + 9 * i, frames[k]->rotation);
      if (quaternion[k]) put_quaternion(quaternion[k] + 4 * i, frames[k]->rotation);
    }
    if (body_midpoint) put3(body_midpoint + 3 * i, pose.body_midpoint);
    if (coupler) put3(coupler + 3 * i, pose.coupler);
    if (front_distance) front_distance[i] = pose.front_distance;
    if (rear_distance) rear_distance[i] = pose.rear_distance;
    if (lap) lap[i] = pose.lap;
    if (status) status[i] = static_cast<std::int8_t>(pose.status);
    const tx::PiecePlace<double>* places[2] = {&pose.front_place, &pose.rear_place};
    for (int k = 0; k < 2; ++k) {
      if (piece[k]) piece[k][i] = static_cast<std::int64_t>(places[k]->piece);
      if (piece_distance[k]) piece_distance[k][i] = places[k]->distance;
    }
  }
};

// TrainSolver on a Track or on a network's Route: the same calls.
template <class TrackType>
void bind_train(nb::module_& m, const char* name) {
  using Solver = tx::TrainSolver<double, TrackType>;
  nb::class_<Solver>(m, name)
      .def_static(
          "build",
          [](const TrackType& track, In wagons, bool arc, const std::string& wrap) {
            std::vector<tx::Wagon<double>> list(rows(wagons, 3, "wagons"));
            for (std::size_t i = 0; i < list.size(); ++i) {
              const double* w = wagons.data() + 3 * i;
              list[i] = tx::Wagon<double>{w[0], w[1], w[2]};
            }
            tx::TrainOptions options;
            options.spacing = arc ? tx::Spacing::arc : tx::Spacing::chord;
            options.wrap = wrap == "circular" ? tx::Wrap::circular
                           : wrap == "clamp"  ? tx::Wrap::clamp
                           : wrap == "extend" ? tx::Wrap::extend
                                              : tx::Wrap::automatic;
            return value_or_raise(Solver::build(track, std::move(list), options));
          },
          nb::call_guard<nb::gil_scoped_release>())
      .def_prop_ro("wagon_count", [](const Solver& t) { return t.wagons().size(); })
      .def_prop_ro("track", [](const Solver& t) { return t.track(); })
      .def("solve",
           [](const Solver& train, In heads, nb::dict out) {
             const TrainOutputs outputs =
                 TrainOutputs::from(out, heads.size() * train.wagons().size());
             nb::gil_scoped_release release;
             const std::size_t n = train.wagons().size();
             for (std::size_t f = 0; f < heads.size(); ++f)
               train.solve_each(heads.data()[f],
                                [&](std::size_t j, const tx::WagonPose<double>& pose) noexcept {
                                  outputs.write(f * n + j, pose);
                                });
           })
      // The C++ peers of solve for the overhead benchmark (python/benchmarks/overhead.py), timed
      // inside C++: `repeats` solves of one head, seconds per solve. "poses": into a WagonPose
      // buffer; "body": the body's position + quaternion into a PoseArray (what solve(head,
      // parts=("body_position", "body_quaternion")) returns); "bogies_and_body": position +
      // quaternion of both bogies, the body and the centred body.
      .def(
          "time_solve_in_cpp",
          [](const Solver& train, double head, int repeats, const std::string& outputs) {
            if (repeats < 1 ||
                (outputs != "poses" && outputs != "body" && outputs != "bogies_and_body"))
              throw nb::value_error(
                  "time_solve_in_cpp: repeats >= 1 and outputs poses, body or bogies_and_body");
            const std::size_t n = train.wagons().size();
            std::vector<tx::WagonPose<double>> poses(n);
            std::vector<double> records(4 * 7 * n);
            tx::WagonPoseArrays<double> arrays;
            arrays.body = tx::PoseArray<double>::poses(records.data(), n);
            if (outputs == "bogies_and_body") {
              arrays.front = tx::PoseArray<double>::poses(records.data() + 7 * n, n);
              arrays.rear = tx::PoseArray<double>::poses(records.data() + 14 * n, n);
              arrays.body_centered = tx::PoseArray<double>::poses(records.data() + 21 * n, n);
            }
            const auto start = std::chrono::steady_clock::now();
            for (int r = 0; r < repeats; ++r) {
              if (outputs == "poses")
                train.solve(head + 1e-9 * r, poses.data());
              else
                train.solve(head + 1e-9 * r, arrays);
              keep_written(poses.data(), records.data());
            }
            const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
            return took.count() / repeats;
          },
          nb::call_guard<nb::gil_scoped_release>());
}

// An alignment's layouts from rows of numbers, the type first as its enum's value (the Python
// layer maps IFC's names): horizontal rows of 9 (type, x, y, direction, start radius, end radius,
// length, gravity centre height, bank angle change), vertical rows of 7 (type, start distance,
// horizontal length, start height, start gradient, end gradient, end radius), cant rows of 7
// (type, start distance, horizontal length, start left, end left, start right, end right).
// tolerances: horizontal gap, angle, vertical gap, gradient, cant gap.
tx::AlignmentLayouts<double> layouts_of(const In& horizontal, const In& vertical, const In& cant,
                                        double rail_head_distance, double start_station,
                                        const In& tolerances) {
  tx::AlignmentLayouts<double> layouts;
  const auto type = [](double code, int count, const char* layout) {
    if (!(code >= 0 && code < count)) {
      const std::string message = std::string(layout) + ": type code out of range";
      throw nb::value_error(message.c_str());
    }
    return static_cast<std::uint8_t>(code);
  };
  for (std::size_t i = 0, n = rows(horizontal, 9, "horizontal"); i < n; ++i) {
    const double* r = horizontal.data() + 9 * i;
    tx::HorizontalSegment<double> g;
    g.type = static_cast<tx::HorizontalType>(type(r[0], 9, "horizontal"));
    g.start_point = tx::Vector2<double>(r[1], r[2]);
    g.start_direction = r[3];
    g.start_radius = r[4];
    g.end_radius = r[5];
    g.length = r[6];
    g.gravity_center_height = r[7];
    g.bank_angle_change = r[8];
    layouts.horizontal.push_back(g);
  }
  for (std::size_t i = 0, n = rows(vertical, 7, "vertical"); i < n; ++i) {
    const double* r = vertical.data() + 7 * i;
    layouts.vertical.push_back({static_cast<tx::VerticalType>(type(r[0], 4, "vertical")), r[1],
                                r[2], r[3], r[4], r[5], r[6]});
  }
  for (std::size_t i = 0, n = rows(cant, 7, "cant"); i < n; ++i) {
    const double* r = cant.data() + 7 * i;
    layouts.cant.push_back(
        {static_cast<tx::CantType>(type(r[0], 7, "cant")), r[1], r[2], r[3], r[4], r[5], r[6]});
  }
  need(tolerances, 5, "tolerances");
  const double* t = tolerances.data();
  layouts.rail_head_distance = rail_head_distance;
  layouts.start_station = start_station;
  layouts.horizontal_tolerance = {t[0], t[1]};
  layouts.vertical_tolerance = {t[2], t[3]};
  layouts.cant_relative_gap = t[4];
  return layouts;
}

// The rows layouts_of reads, from layouts (what a reader produced).
std::tuple<std::vector<double>, std::vector<double>, std::vector<double>> rows_of(
    const tx::AlignmentLayouts<double>& layouts) {
  std::vector<double> h, v, c;
  for (const auto& g : layouts.horizontal)
    h.insert(h.end(), {double(g.type), g.start_point.x(), g.start_point.y(), g.start_direction,
                       g.start_radius, g.end_radius, g.length, g.gravity_center_height,
                       g.bank_angle_change});
  for (const auto& g : layouts.vertical)
    v.insert(v.end(), {double(g.type), g.start_distance, g.horizontal_length, g.start_height,
                       g.start_gradient, g.end_gradient, g.end_radius});
  for (const auto& g : layouts.cant)
    c.insert(c.end(), {double(g.type), g.start_distance, g.horizontal_length, g.start_cant_left,
                       g.end_cant_left, g.start_cant_right, g.end_cant_right});
  return {h, v, c};
}

void bind_alignment(nb::module_& m) {
  nb::class_<Alignment>(m, "Alignment")
      .def_static(
          "build",
          [](In horizontal, In vertical, In cant, double rail_head_distance, double start_station,
             In tolerances) {
            return value_or_raise(Alignment::build(layouts_of(
                horizontal, vertical, cant, rail_head_distance, start_station, tolerances)));
          },
          nb::call_guard<nb::gil_scoped_release>())
      .def_prop_ro("length", &Alignment::length)
      .def_prop_ro("closed", &Alignment::closed)
      .def_prop_ro("rail_head_distance", &Alignment::rail_head_distance)
      .def_prop_ro("start_station", [](const Alignment& a) { return a.station(0.0); })
      .def_prop_ro("horizontal_length", [](const Alignment& a) { return a.horizontal().length(); })
      // Points and unit tangents at lengths s along the 3-D curve (at_station false) or at
      // distances x along the horizontal (true), with the other of the two.
      .def(
          "samples",
          [](const Alignment& a, In at, bool at_station, Out points, Out tangents) {
            need(points, 3 * at.size(), "points");
            need(tangents, 3 * at.size(), "tangents");
            Alignment::Cursor cursor;
            for (std::size_t i = 0; i < at.size(); ++i) {
              const double v = at.data()[i];
              const Alignment::Sample p =
                  at_station ? a.at_station(v, cursor) : a.sample(v, cursor);
              put3(points.data() + 3 * i, p.point);
              put3(tangents.data() + 3 * i, p.tangent);
            }
          },
          nb::arg("at"), nb::arg("at_station"), nb::arg("points").noconvert(),
          nb::arg("tangents").noconvert(), nb::call_guard<nb::gil_scoped_release>())
      .def(
          "frames_at",
          [](const Alignment& a, In s, Out origins, Out rotations, Out quaternions) {
            const FramesOut out(origins, rotations, quaternions, s.size());
            Alignment::Cursor cursor;
            for (std::size_t i = 0; i < s.size(); ++i) {
              const Alignment::Sample p = a.sample(s.data()[i], cursor);
              out.put(i, tx::look_at(p.point, p.tangent, a.up_at(s.data()[i], p)));
            }
          },
          nb::arg("s"), nb::arg("origins").noconvert(), nb::arg("rotations").noconvert(),
          nb::arg("quaternions").noconvert(), nb::call_guard<nb::gil_scoped_release>())
      // The plan's signed curvature, the gradient and the bank angle at lengths s.
      .def(
          "shape_at",
          [](const Alignment& a, In s, Out out) {
            need(out, 3 * s.size(), "out");
            Alignment::Cursor cursor;
            for (std::size_t i = 0; i < s.size(); ++i) {
              const Alignment::Sample p = a.sample(s.data()[i], cursor);
              double* o = out.data() + 3 * i;
              o[0] = p.plan_curvature;
              o[1] = p.gradient;
              o[2] = std::atan2(p.bank_sine, p.bank_cosine);
            }
          },
          nb::arg("s"), nb::arg("out").noconvert(), nb::call_guard<nb::gil_scoped_release>())
      // The cant at distances x along the horizontal: left, right, bank per query.
      .def(
          "cant_at",
          [](const Alignment& a, In x, Out out) {
            need(out, 3 * x.size(), "out");
            for (std::size_t i = 0; i < x.size(); ++i) {
              const tx::CantPoint<double> c = a.cant_at(x.data()[i]);
              out.data()[3 * i] = c.left;
              out.data()[3 * i + 1] = c.right;
              out.data()[3 * i + 2] = c.bank;
            }
          },
          nb::arg("x"), nb::arg("out").noconvert(), nb::call_guard<nb::gil_scoped_release>())
      .def(
          "rail_heads",
          [](const Alignment& a, In s, Out left, Out right) {
            need(left, 3 * s.size(), "left");
            need(right, 3 * s.size(), "right");
            Alignment::Cursor cursor;
            for (std::size_t i = 0; i < s.size(); ++i) {
              const tx::RailHeads<double> heads = a.rail_heads(a.sample(s.data()[i], cursor));
              put3(left.data() + 3 * i, heads.left);
              put3(right.data() + 3 * i, heads.right);
            }
          },
          nb::arg("s"), nb::arg("left").noconvert(), nb::arg("right").noconvert(),
          nb::call_guard<nb::gil_scoped_release>())
      .def(
          "lengths",
          [](const Alignment& a, In in, bool to_length, Out out) {
            need(out, in.size(), "out");
            for (std::size_t i = 0; i < in.size(); ++i)
              out.data()[i] = to_length ? a.length_at(in.data()[i]) : a.horizontal_at(in.data()[i]);
          },
          nb::arg("values"), nb::arg("to_length"), nb::arg("out").noconvert(),
          nb::call_guard<nb::gil_scoped_release>())
      // Per query: horizontal distance, station, offset, elevation, length; and the point.
      .def(
          "closest_points",
          [](const Alignment& a, In queries, Out values, Out points) {
            const std::size_t n = rows(queries, 3, "queries");
            need(values, 5 * n, "values");
            need(points, 3 * n, "points");
            for (std::size_t i = 0; i < n; ++i) {
              const tx::AlignmentProjection<double> p =
                  a.closest_point(vec3(queries.data() + 3 * i));
              double* o = values.data() + 5 * i;
              o[0] = p.horizontal_distance;
              o[1] = p.station;
              o[2] = p.offset;
              o[3] = p.elevation;
              o[4] = p.length;
              put3(points.data() + 3 * i, p.point);
            }
          },
          nb::arg("queries"), nb::arg("values").noconvert(), nb::arg("points").noconvert(),
          nb::call_guard<nb::gil_scoped_release>());

  bind_train<Alignment>(m, "AlignmentTrainSolver");

  m.def(
      "fitted_track",
      [](const Alignment& alignment, double tolerance, double bank_tolerance) {
        tx::TrackFit<double> fit;
        fit.tolerance = tolerance;
        fit.bank_tolerance = bank_tolerance;
        return value_or_raise(tx::fitted_track(alignment, fit));
      },
      nb::call_guard<nb::gil_scoped_release>());

  m.def("has_landxml", [] {
#if defined(TRACTRIX_PYTHON_LANDXML)
    return true;
#else
    return false;
#endif
  });
  // The alignments of a LandXML file: (name, alignment, horizontal, vertical, cant rows) each.
  m.def(
      "read_landxml",
      [](const std::string& path, const std::string& text, double rail_head_distance,
         double relative_gap, double angle, double gravity_center_height) {
#if defined(TRACTRIX_PYTHON_LANDXML)
        tx::io::landxml::ReadSettings settings;
        settings.rail_head_distance = rail_head_distance;
        settings.relative_gap = relative_gap;
        settings.angle = angle;
        settings.gravity_center_height = gravity_center_height;
        auto read = text.empty() ? tx::io::landxml::read(path, settings)
                                 : tx::io::landxml::parse(text, path, settings);
        std::vector<std::tuple<std::string, Alignment, std::vector<double>, std::vector<double>,
                               std::vector<double>>>
            out;
        for (auto& one : value_or_raise(std::move(read))) {
          auto [h, v, c] = rows_of(one.layouts);
          out.emplace_back(one.name, one.alignment, std::move(h), std::move(v), std::move(c));
        }
        return out;
#else
        (void)path, (void)text, (void)rail_head_distance, (void)relative_gap, (void)angle,
            (void)gravity_center_height;
        throw nb::value_error("this tractrix was built without pugixml: no LandXML reader");
#endif
      },
      nb::call_guard<nb::gil_scoped_release>());
}

}  // namespace

NB_MODULE(_tractrix, m) {
  m.doc() = "tractrix's compiled core; use the tractrix package, which checks its arguments.";
  m.attr("__version__") = TRACTRIX_VERSION_STRING;

  // The library's check of custom engine axes (each axis once, one handedness); the Python layer
  // applies the signed permutations itself.
  m.def("check_engine_axes",
        [](const std::tuple<int, int, int>& world, const std::tuple<int, int, int>& local) {
          const int w[3] = {std::get<0>(world), std::get<1>(world), std::get<2>(world)};
          const int l[3] = {std::get<0>(local), std::get<1>(local), std::get<2>(local)};
          value_or_raise(tx::EngineAxes::make(w, l));
        });

  nb::class_<Path>(m, "Path")
      .def_static("kochanek_bartels",
                  [](In points, double tension, double bias, double continuity, bool closed) {
                    tx::KochanekBartels<double> shape;
                    shape.tension = tension;
                    shape.bias = bias;
                    shape.continuity = continuity;
                    return value_or_raise(
                        Path::kochanek_bartels(points_of(points), shape, closure(closed)));
                  })
      .def_static("hermite",
                  [](In points, In tangents, bool closed) {
                    return value_or_raise(Path::from_hermite_keys(
                        points_of(points), points_of(tangents), closure(closed)));
                  })
      .def_static(
          "bezier",
          [](In controls, bool closed) {
            std::vector<Path::Segment> segments(rows(controls, 12, "controls"));
            for (std::size_t i = 0; i < segments.size(); ++i)
              for (std::size_t k = 0; k < 4; ++k)
                segments[i].points[k] = vec3(controls.data() + 12 * i + 3 * k);
            return value_or_raise(Path::from_segments(std::move(segments), closure(closed)));
          })
      .def_prop_ro("segment_count", &Path::size)
      .def_prop_ro("closed", &Path::closed)
      .def(
          "controls",
          [](const Path& path, Out out) {
            need(out, 12 * path.size(), "controls");
            for (std::size_t i = 0; i < path.size(); ++i)
              for (std::size_t k = 0; k < 4; ++k)
                put3(out.data() + 12 * i + 3 * k, path.segment(i).points[k]);
          },
          nb::arg("out").noconvert())
      .def(
          "evaluate",
          [](const Path& path, In t, Out points, Out tangents) {
            need(points, 3 * t.size(), "points");
            need(tangents, 3 * t.size(), "tangents");
            for (std::size_t i = 0; i < t.size(); ++i) {
              const tx::PointTangent<double, 3> at = path.evaluate(t.data()[i]);
              put3(points.data() + 3 * i, at.point);
              put3(tangents.data() + 3 * i, at.tangent);
            }
          },
          nb::arg("t"), nb::arg("points").noconvert(), nb::arg("tangents").noconvert(),
          nb::call_guard<nb::gil_scoped_release>());

  nb::class_<MeasuredPath>(m, "MeasuredPath")
      .def_static(
          "build",
          [](const Path& path, int samples_per_segment, bool chords, double length_scale) {
            tx::ArcLengthSettings settings;
            settings.samples_per_segment = samples_per_segment;
            settings.length_scale = length_scale;
            settings.method =
                chords ? tx::ArcLengthMethod::chord : tx::ArcLengthMethod::gauss_legendre;
            return value_or_raise(MeasuredPath::build(path, settings));
          },
          nb::call_guard<nb::gil_scoped_release>())
      .def_prop_ro("length", &MeasuredPath::length)
      .def_prop_ro("closed", &MeasuredPath::closed)
      .def_prop_ro("path", [](const MeasuredPath& p) { return p.path(); })
      .def(
          "samples",
          [](const MeasuredPath& path, In s, Out points, Out tangents, Out parameters) {
            need(points, 3 * s.size(), "points");
            need(tangents, 3 * s.size(), "tangents");
            need(parameters, s.size(), "parameters");
            std::size_t cursor = 0;
            for (std::size_t i = 0; i < s.size(); ++i) {
              const MeasuredPath::Sample at = path.sample(s.data()[i], cursor);
              put3(points.data() + 3 * i, at.point);
              put3(tangents.data() + 3 * i, at.tangent);
              parameters.data()[i] = at.parameter;
            }
          },
          nb::arg("s"), nb::arg("points").noconvert(), nb::arg("tangents").noconvert(),
          nb::arg("parameters").noconvert(), nb::call_guard<nb::gil_scoped_release>())
      .def("points_at", &each_at<Vec3, &MeasuredPath::point_at>, nb::arg("values"),
           nb::arg("out").noconvert(), nb::call_guard<nb::gil_scoped_release>())
      .def("tangents_at", &each_at<Vec3, &MeasuredPath::tangent_at>, nb::arg("values"),
           nb::arg("out").noconvert(), nb::call_guard<nb::gil_scoped_release>())
      .def(
          "parameter_at",
          [](const MeasuredPath& path, In s, Out t, bool linear) {
            need(t, s.size(), "parameters");
            std::size_t cursor = 0;
            for (std::size_t i = 0; i < s.size(); ++i)
              t.data()[i] = linear ? path.parameter_at_linear(s.data()[i])
                                   : path.parameter_at(s.data()[i], cursor);
          },
          nb::arg("s"), nb::arg("out").noconvert(), nb::arg("linear"),
          nb::call_guard<nb::gil_scoped_release>())
      .def("distance_at", &each_at<double, &MeasuredPath::distance_at>, nb::arg("values"),
           nb::arg("out").noconvert(), nb::call_guard<nb::gil_scoped_release>())
      .def("curvature_at", &each_at<double, &MeasuredPath::curvature_at>, nb::arg("values"),
           nb::arg("out").noconvert(), nb::call_guard<nb::gil_scoped_release>())
      .def(
          "closest_points",
          [](const MeasuredPath& path, In queries, Out distance, Out points, Out squared) {
            const std::size_t n = rows(queries, 3, "queries");
            need(distance, n, "distances");
            need(points, 3 * n, "points");
            need(squared, n, "squared distances");
            for (std::size_t i = 0; i < n; ++i) {
              const auto at = path.closest_point(vec3(queries.data() + 3 * i));
              distance.data()[i] = at.distance;
              put3(points.data() + 3 * i, at.point);
              squared.data()[i] = at.squared_distance;
            }
          },
          nb::arg("queries"), nb::arg("distance").noconvert(), nb::arg("points").noconvert(),
          nb::arg("squared").noconvert(), nb::call_guard<nb::gil_scoped_release>());

  nb::class_<Track>(m, "Track")
      .def_static("build", &make_track, nb::call_guard<nb::gil_scoped_release>())
      .def_prop_ro("length", &Track::length)
      .def_prop_ro("closed", &Track::closed)
      .def_prop_ro("path", [](const Track& t) { return t.path(); })
      .def(
          "frames_at",
          [](const Track& track, In s, Out origins, Out rotations, Out quaternions) {
            const FramesOut out(origins, rotations, quaternions, s.size());
            std::size_t cursor = 0;
            const tx::UpSource<double>& up = track.up_source();
            for (std::size_t i = 0; i < s.size(); ++i)
              out.put(i, up.frame_at(track.path(), s.data()[i], cursor));
          },
          nb::arg("s"), nb::arg("origins").noconvert(), nb::arg("rotations").noconvert(),
          nb::arg("quaternions").noconvert(), nb::call_guard<nb::gil_scoped_release>());

  bind_train<Track>(m, "TrainSolver");
  bind_train<Route>(m, "RouteTrainSolver");
  bind_alignment(m);

  nb::class_<tx::SwitchSettings>(m, "SwitchSettings")
      .def("set",
           [](tx::SwitchSettings& settings, std::size_t piece, bool at_end) {
             if (auto error = settings.set({piece, at_end ? tx::End::end : tx::End::start}))
               throw nb::value_error(error->message.c_str());
           })
      .def("copy", [](const tx::SwitchSettings& settings) { return settings; });

  nb::class_<Network>(m, "Network")
      .def_static(
          "build",
          [](std::vector<Track> pieces,
             const std::vector<std::vector<std::pair<std::size_t, bool>>>& joints,
             double relative_gap, double angle) {
            std::vector<std::vector<tx::PieceEnd>> ends(joints.size());
            for (std::size_t j = 0; j < joints.size(); ++j)
              for (const auto& [piece, at_end] : joints[j])
                ends[j].push_back({piece, at_end ? tx::End::end : tx::End::start});
            return value_or_raise(Network::build(std::move(pieces), ends, {relative_gap, angle}));
          },
          nb::call_guard<nb::gil_scoped_release>())
      .def_static(
          "join_ends",
          [](std::vector<Track> pieces, double relative_gap, double angle) {
            return value_or_raise(Network::join_ends(std::move(pieces), {relative_gap, angle}));
          },
          nb::call_guard<nb::gil_scoped_release>())
      .def_prop_ro("piece_count", &Network::piece_count)
      .def_prop_ro("joint_count", &Network::joint_count)
      .def("piece",
           [](const Network& network, std::size_t i) {
             if (i >= network.piece_count()) throw nb::index_error("piece: no such piece");
             return network.piece(i);
           })
      .def("default_settings", &Network::default_settings)
      .def(
          "closest_points",
          [](const Network& network, In queries, OutLaps piece, Out distance, Out points,
             Out squared) {
            const std::size_t n = rows(queries, 3, "queries");
            need(piece, n, "pieces");
            need(distance, n, "distances");
            need(points, 3 * n, "points");
            need(squared, n, "squared distances");
            for (std::size_t i = 0; i < n; ++i) {
              const tx::NetworkPoint<double> at =
                  network.closest_point(vec3(queries.data() + 3 * i));
              piece.data()[i] = static_cast<std::int64_t>(at.piece);
              distance.data()[i] = at.distance;
              put3(points.data() + 3 * i, at.point);
              squared.data()[i] = at.squared_distance;
            }
          },
          nb::arg("queries"), nb::arg("piece").noconvert(), nb::arg("distance").noconvert(),
          nb::arg("points").noconvert(), nb::arg("squared").noconvert(),
          nb::call_guard<nb::gil_scoped_release>());

  nb::class_<Route>(m, "Route")
      .def_static(
          "build",
          [](const Network& network, const std::vector<std::pair<std::size_t, bool>>& steps,
             bool closed) {
            std::vector<tx::Step> list;
            for (const auto& [piece, backward] : steps)
              list.push_back({piece, backward ? tx::Direction::backward : tx::Direction::forward});
            return value_or_raise(Route::build(network, std::move(list), closure(closed)));
          })
      .def_static(
          "follow",
          [](const Network& network, const tx::SwitchSettings& settings, std::size_t piece,
             bool backward, double min_length) {
            return value_or_raise(Route::follow(
                network, settings,
                {piece, backward ? tx::Direction::backward : tx::Direction::forward}, min_length));
          })
      .def_prop_ro("length", &Route::length)
      .def_prop_ro("closed", &Route::closed)
      .def_prop_ro("network", [](const Route& route) { return route.network(); })
      .def("steps",
           [](const Route& route) {
             std::vector<std::pair<std::size_t, bool>> steps;
             for (std::size_t i = 0; i < route.size(); ++i)
               steps.emplace_back(route.step(i).piece,
                                  route.step(i).direction == tx::Direction::backward);
             return steps;
           })
      .def("reversed", &Route::reversed)
      .def("distances_at",
           [](const Route& route, std::size_t piece, double distance) {
             return route.distances_at(tx::PiecePlace<double>{piece, distance});
           })
      .def("around", [](const Route& route, double head, double train_length,
                        const tx::SwitchSettings& settings, double ahead, double behind) {
        Route::Moved moved =
            value_or_raise(route.around(head, train_length, settings, ahead, behind));
        return std::make_pair(std::move(moved.route), moved.head);
      });

  nb::class_<tx::TimeProfile<double>>(m, "TimeProfile")
      .def_static("constant",
                  [](double d) { return value_or_raise(tx::TimeProfile<double>::constant(d)); })
      .def_static("sine", [](double d) { return value_or_raise(tx::TimeProfile<double>::sine(d)); })
      .def_static("sine_pieces",
                  [](double d, double in_end, double out_start) {
                    return value_or_raise(tx::TimeProfile<double>::sine_pieces(
                        d, tx::ease_fractions(in_end, out_start)));
                  })
      .def_static("parabolic",
                  [](double d, double in_end, double out_start) {
                    return value_or_raise(tx::TimeProfile<double>::parabolic(
                        d, tx::ease_fractions(in_end, out_start)));
                  })
      .def_static("trapezoidal",
                  [](double distance, double v, double a) {
                    return value_or_raise(tx::TimeProfile<double>::trapezoidal(distance, v, a));
                  })
      .def_static("s_curve",
                  [](double distance, double v, double a, double j) {
                    return value_or_raise(tx::TimeProfile<double>::s_curve(distance, v, a, j));
                  })
      .def_static("keyed",
                  [](In times, In values) {
                    return value_or_raise(
                        tx::TimeProfile<double>::keyed(values_of(times), values_of(values)));
                  })
      .def_prop_ro("duration", &tx::TimeProfile<double>::duration)
      .def(
          "time_at",
          [](const tx::TimeProfile<double>& profile, In values, Out times) {
            need(times, values.size(), "times");
            for (std::size_t i = 0; i < values.size(); ++i)
              times.data()[i] = profile.time_at(values.data()[i]);
          },
          nb::arg("values"), nb::arg("times").noconvert(), nb::call_guard<nb::gil_scoped_release>())
      .def(
          "at",
          [](const tx::TimeProfile<double>& profile, In t, Out value, Out rate, Out acceleration) {
            need(value, t.size(), "values");
            need(rate, t.size(), "rates");
            need(acceleration, t.size(), "accelerations");
            for (std::size_t i = 0; i < t.size(); ++i) {
              const tx::ProfileSample<double> at = profile.at(t.data()[i]);
              value.data()[i] = at.value;
              rate.data()[i] = at.rate;
              acceleration.data()[i] = at.acceleration;
            }
          },
          nb::arg("t"), nb::arg("value").noconvert(), nb::arg("rate").noconvert(),
          nb::arg("acceleration").noconvert(), nb::call_guard<nb::gil_scoped_release>());

  // Driving: speed limits along a line (a Track or a Route) and the fastest jerk-limited run
  // under them, queried per time like a profile.
  using Limits = tx::SpeedLimits<double>;
  using Plan = tx::SpeedPlan<double>;
  nb::class_<Limits>(m, "SpeedLimits")
      .def_static("line",
                  [](double length, double max_velocity) {
                    return value_or_raise(Limits::line(length, max_velocity));
                  })
      .def_static(
          "from_track",
          [](const Track& track, double max_velocity, double lateral, double section, int samples) {
            return value_or_raise(Limits::from_curvature(
                track, tx::CurvatureLimits<double>{max_velocity, lateral, section, samples}));
          },
          nb::call_guard<nb::gil_scoped_release>())
      .def_static(
          "from_route",
          [](const Route& route, double max_velocity, double lateral, double section, int samples) {
            return value_or_raise(Limits::from_curvature(
                route, tx::CurvatureLimits<double>{max_velocity, lateral, section, samples}));
          },
          nb::call_guard<nb::gil_scoped_release>())
      .def_static(
          "from_alignment",
          [](const Alignment& alignment, double max_velocity, double cant_deficiency,
             double gravity, double section, int samples) {
            return value_or_raise(Limits::from_cant(
                alignment,
                tx::CantLimits<double>{max_velocity, cant_deficiency, gravity, section, samples}));
          },
          nb::call_guard<nb::gil_scoped_release>())
      .def("with_zones",
           [](const Limits& limits, In zones) {
             const std::size_t n = rows(zones, 3, "zones");
             std::vector<tx::SpeedZone<double>> list(n);
             for (std::size_t i = 0; i < n; ++i)
               list[i] = {zones.data()[3 * i], zones.data()[3 * i + 1], zones.data()[3 * i + 2]};
             return value_or_raise(limits.with_zones(list));
           })
      .def("for_train",
           [](const Limits& limits, double train_length) {
             return value_or_raise(limits.for_train(train_length));
           })
      .def_prop_ro("length", &Limits::length)
      .def_prop_ro("section_count", &Limits::size)
      .def(
          "sections",
          [](const Limits& limits, Out starts, Out ends, Out values) {
            need(starts, limits.size(), "starts");
            need(ends, limits.size(), "ends");
            need(values, limits.size(), "limits");
            for (std::size_t i = 0; i < limits.size(); ++i) {
              starts.data()[i] = limits.start(i);
              ends.data()[i] = limits.end(i);
              values.data()[i] = limits.limit(i);
            }
          },
          nb::arg("starts").noconvert(), nb::arg("ends").noconvert(), nb::arg("limits").noconvert())
      .def(
          "at",
          [](const Limits& limits, In s, Out out) {
            need(out, s.size(), "limits");
            for (std::size_t i = 0; i < s.size(); ++i)
              out.data()[i] = limits.at(s.data()[i]);
          },
          nb::arg("s"), nb::arg("out").noconvert(), nb::call_guard<nb::gil_scoped_release>());

  nb::class_<Plan>(m, "SpeedPlan")
      .def_static(
          "build",
          [](const Limits& limits, double max_velocity, double max_acceleration,
             double max_deceleration, double max_jerk, double position, double velocity,
             double acceleration, double end, In stations, double hold, double arrival) {
            // Rows of (position, dwell, arrival).
            const std::size_t n = rows(stations, 3, "stations");
            std::vector<tx::StationStop<double>> stops(n);
            for (std::size_t i = 0; i < n; ++i)
              stops[i] = {stations.data()[3 * i], stations.data()[3 * i + 1],
                          stations.data()[3 * i + 2]};
            return value_or_raise(Plan::build(
                limits, {max_velocity, max_acceleration, max_deceleration, max_jerk},
                {{position, velocity, acceleration}, end, std::move(stops), hold, arrival}));
          },
          nb::call_guard<nb::gil_scoped_release>())
      .def_prop_ro("duration", &Plan::duration)
      .def_prop_ro("overspeed_distance", &Plan::overspeed_distance)
      .def(
          "at",
          [](const Plan& plan, In t, Out position, Out velocity, Out acceleration, Out jerk) {
            sample_axis(plan, t, position, velocity, acceleration, jerk);
          },
          nb::arg("t"), nb::arg("position").noconvert(), nb::arg("velocity").noconvert(),
          nb::arg("acceleration").noconvert(), nb::arg("jerk").noconvert(),
          nb::call_guard<nb::gil_scoped_release>())
      .def(
          "time_at",
          [](const Plan& plan, In positions, Out times) {
            need(times, positions.size(), "times");
            for (std::size_t i = 0; i < positions.size(); ++i)
              times.data()[i] = plan.time_at(positions.data()[i]);
          },
          nb::arg("positions"), nb::arg("times").noconvert(),
          nb::call_guard<nb::gil_scoped_release>())
      .def(
          "dwell_left",
          [](const Plan& plan, In t, Out left) {
            need(left, t.size(), "dwells");
            for (std::size_t i = 0; i < t.size(); ++i)
              left.data()[i] = plan.dwell_left(t.data()[i]);
          },
          nb::arg("t"), nb::arg("left").noconvert(), nb::call_guard<nb::gil_scoped_release>());

  // Driving one axis, or several together: the jerk-limited trajectory from any state.
  using Jerk = tx::JerkTrajectory<double>;
  using Synced = tx::SyncedTrajectory<double>;
  // Limits as (max_velocity, max_acceleration, max_deceleration, max_jerk, max_reverse_velocity).
  const auto jerk_limits = [](const In& l) {
    need(l, 5, "limits");
    const double* x = l.data();
    return tx::JerkLimits<double>{x[0], x[1], x[2], x[3], x[4]};
  };
  nb::class_<Jerk>(m, "JerkTrajectory")
      .def_static(
          "to_position",
          [jerk_limits](double p, double v, double a, double target, double target_velocity,
                        double target_acceleration, In limits) {
            return value_or_raise(Jerk::to_position(
                {p, v, a}, {target, target_velocity, target_acceleration}, jerk_limits(limits)));
          })
      .def_static("to_position_in",
                  [jerk_limits](double duration, double p, double v, double a, double target,
                                double target_velocity, double target_acceleration, In limits) {
                    return value_or_raise(Jerk::to_position_in(
                        duration, {p, v, a}, {target, target_velocity, target_acceleration},
                        jerk_limits(limits)));
                  })
      .def_static(
          "to_position_no_sooner",
          [jerk_limits](double duration, double cycle, double p, double v, double a, double target,
                        double target_velocity, double target_acceleration, In limits) {
            return value_or_raise(Jerk::to_position_no_sooner(
                duration, cycle, {p, v, a}, {target, target_velocity, target_acceleration},
                jerk_limits(limits)));
          })
      .def_static("to_velocity",
                  [jerk_limits](double p, double v, double a, double target_velocity, In limits) {
                    return value_or_raise(
                        Jerk::to_velocity({p, v, a}, target_velocity, jerk_limits(limits)));
                  })
      .def_prop_ro("duration", &Jerk::duration)
      .def_prop_ro("braking_duration", &Jerk::braking_duration)
      .def_prop_ro("position_extrema",
                   [](const Jerk& tr) {
                     const tx::PositionExtrema<double> e = tr.position_extrema();
                     return std::make_tuple(e.min, e.max, e.time_of_min, e.time_of_max);
                   })
      .def("at", &sample_axis<Jerk>, nb::arg("t"), nb::arg("position").noconvert(),
           nb::arg("velocity").noconvert(), nb::arg("acceleration").noconvert(),
           nb::arg("jerk").noconvert(), nb::call_guard<nb::gil_scoped_release>())
      .def(
          "time_at",
          [](const Jerk& tr, In positions, Out times) {
            need(times, positions.size(), "times");
            for (std::size_t i = 0; i < positions.size(); ++i)
              times.data()[i] = tr.time_at(positions.data()[i]);
          },
          nb::arg("positions"), nb::arg("times").noconvert(),
          nb::call_guard<nb::gil_scoped_release>());

  using Waypoints = tx::WaypointTrajectory<double>;
  nb::class_<Waypoints>(m, "WaypointTrajectory")
      .def_static(
          "build",
          [](double p, double v, double a, In points, In limits) {
            const std::size_t n = rows(points, 3, "waypoints");
            if (rows(limits, 5, "limits") != n)
              throw nb::value_error("limits: not one row per waypoint");
            std::vector<tx::Waypoint<double>> list(n);
            for (std::size_t i = 0; i < n; ++i) {
              const double* w = points.data() + 3 * i;
              const double* l = limits.data() + 5 * i;
              list[i] = {w[0], w[1], w[2], tx::JerkLimits<double>{l[0], l[1], l[2], l[3], l[4]}};
            }
            // (Every waypoint carries its leg's limits: the trajectory's own are never used.)
            return value_or_raise(Waypoints::through(
                {p, v, a}, list, n > 0 ? *list[0].limits : tx::JerkLimits<double>{}));
          },
          nb::call_guard<nb::gil_scoped_release>())
      .def_prop_ro("duration", &Waypoints::duration)
      .def(
          "times",
          [](const Waypoints& w, Out arrivals, Out departures) {
            need(arrivals, w.leg_count(), "arrivals");
            need(departures, w.leg_count(), "departures");
            for (std::size_t i = 0; i < w.leg_count(); ++i) {
              arrivals.data()[i] = w.arrival(i);
              departures.data()[i] = w.departure(i);
            }
          },
          nb::arg("arrivals").noconvert(), nb::arg("departures").noconvert())
      .def_prop_ro("leg_count", &Waypoints::leg_count)
      .def(
          "at",
          [](const Waypoints& w, In t, Out position, Out velocity, Out acceleration, Out jerk) {
            sample_axis(w, t, position, velocity, acceleration, jerk);
          },
          nb::arg("t"), nb::arg("position").noconvert(), nb::arg("velocity").noconvert(),
          nb::arg("acceleration").noconvert(), nb::arg("jerk").noconvert(),
          nb::call_guard<nb::gil_scoped_release>());

  nb::class_<Synced>(m, "SyncedTrajectory")
      .def_static(
          "build",
          [](In starts, In targets, In limits, int sync, double minimum_duration, double cycle) {
            if (sync < 0 || sync > 2) throw nb::value_error("synchronization: not 0, 1 or 2");
            const std::size_t n = rows(starts, 3, "start");
            if (rows(targets, 3, "target") != n || rows(limits, 5, "limits") != n)
              throw nb::value_error("target and limits: not one per axis");
            std::vector<tx::AxisState<double>> from(n), to(n);
            std::vector<tx::JerkLimits<double>> lim(n);
            for (std::size_t i = 0; i < n; ++i) {
              const double* s = starts.data() + 3 * i;
              const double* e = targets.data() + 3 * i;
              const double* l = limits.data() + 5 * i;
              from[i] = {s[0], s[1], s[2]};
              to[i] = {e[0], e[1], e[2]};
              lim[i] = {l[0], l[1], l[2], l[3], l[4]};
            }
            return value_or_raise(Synced::to_position(
                from, to, lim, static_cast<tx::Synchronization>(sync), {minimum_duration, cycle}));
          },
          nb::call_guard<nb::gil_scoped_release>())
      .def_prop_ro("duration", [](const Synced& tr) { return tr.duration(); })
      .def_prop_ro("axis_count", &Synced::axis_count)
      .def_prop_ro("synchronization",
                   [](const Synced& tr) { return static_cast<int>(tr.synchronization()); })
      .def(
          "axis_durations",
          [](const Synced& tr, Out out) {
            need(out, tr.axis_count(), "durations");
            for (std::size_t i = 0; i < tr.axis_count(); ++i)
              out.data()[i] = tr.duration(i);
          },
          nb::arg("out").noconvert())
      .def(
          "extrema",
          [](const Synced& tr, Out low, Out high, Out time_low, Out time_high) {
            for (const Out* o : {&low, &high, &time_low, &time_high})
              need(*o, tr.axis_count(), "extrema");
            for (std::size_t i = 0; i < tr.axis_count(); ++i) {
              const tx::PositionExtrema<double> e = tr.position_extrema(i);
              low.data()[i] = e.min;
              high.data()[i] = e.max;
              time_low.data()[i] = e.time_of_min;
              time_high.data()[i] = e.time_of_max;
            }
          },
          nb::arg("low").noconvert(), nb::arg("high").noconvert(), nb::arg("time_low").noconvert(),
          nb::arg("time_high").noconvert())
      .def(
          "at",
          [](const Synced& tr, In t, Out position, Out velocity, Out acceleration, Out jerk) {
            const std::size_t n = tr.axis_count(), count = t.size() * n;
            need(position, count, "positions");
            need(velocity, count, "velocities");
            need(acceleration, count, "accelerations");
            need(jerk, count, "jerks");
            for (std::size_t k = 0; k < t.size(); ++k)
              for (std::size_t i = 0; i < n; ++i) {
                const tx::AxisSample<double> at = tr.at(i, t.data()[k]);
                position.data()[k * n + i] = at.position;
                velocity.data()[k * n + i] = at.velocity;
                acceleration.data()[k * n + i] = at.acceleration;
                jerk.data()[k * n + i] = at.jerk;
              }
          },
          nb::arg("t"), nb::arg("position").noconvert(), nb::arg("velocity").noconvert(),
          nb::arg("acceleration").noconvert(), nb::arg("jerk").noconvert(),
          nb::call_guard<nb::gil_scoped_release>());

  using CameraRig = tx::CameraRig<double>;
  nb::class_<CameraRig>(m, "CameraRig")
      .def_static(
          "build",
          [](In positions, std::optional<In> directions, const tx::TimeProfile<double>& profile,
             bool catmull_rom, bool closed, double tension, double bias, double continuity,
             int samples_per_segment) {
            const std::size_t n = rows(positions, 3, "positions");
            if (directions && rows(*directions, 3, "view_directions") != n)
              throw nb::value_error("view_directions: not one per key");
            std::vector<tx::CameraKey<double>> keys(n);
            for (std::size_t i = 0; i < n; ++i) {
              keys[i].position = vec3(positions.data() + 3 * i);
              if (directions) keys[i].view_direction = vec3(directions->data() + 3 * i);
            }
            tx::CameraRigSettings<double> settings;
            settings.tangents =
                catmull_rom ? tx::CameraTangents::catmull_rom : tx::CameraTangents::view_direction;
            settings.closure = closure(closed);
            settings.shape.tension = tension;
            settings.shape.bias = bias;
            settings.shape.continuity = continuity;
            settings.arc_length.samples_per_segment = samples_per_segment;
            return value_or_raise(CameraRig::build(keys, profile, settings));
          },
          nb::call_guard<nb::gil_scoped_release>())
      .def("with_world_up",
           [](const CameraRig& rig, In up) {
             if (rows(up, 3, "up") != 1) throw nb::value_error("up: not one vector of 3");
             return value_or_raise(
                 rig.with_up(value_or_raise(tx::UpSource<double>::world(vec3(up.data())))));
           })
      .def(
          "with_rotation_minimizing_up",
          [](const CameraRig& rig, In up) {
            if (rows(up, 3, "up") != 1) throw nb::value_error("up: not one vector of 3");
            return value_or_raise(rig.with_up(value_or_raise(
                tx::UpSource<double>::rotation_minimizing(rig.path(), vec3(up.data())))));
          },
          nb::call_guard<nb::gil_scoped_release>())
      .def("look_at_point",
           [](const CameraRig& rig, In target) {
             if (rows(target, 3, "target") != 1)
               throw nb::value_error("target: not one point of 3");
             return rig.look_at_point(vec3(target.data()));
           })
      .def("look_at_path", &CameraRig::look_at_path)
      .def_prop_ro("path", [](const CameraRig& rig) { return rig.path(); })
      .def_prop_ro("profile", [](const CameraRig& rig) { return rig.profile(); })
      .def(
          "shots",
          [](const CameraRig& rig, In times, Out positions, Out rotations, Out quaternions,
             Out distances, Out speeds, Out velocities, Out accelerations, Out tangential,
             Out normal) {
            const std::size_t n = times.size();
            const FramesOut frames(positions, rotations, quaternions, n);
            need(distances, n, "distances");
            need(speeds, n, "speeds");
            need(velocities, 3 * n, "velocities");
            need(accelerations, 3 * n, "accelerations");
            need(tangential, 3 * n, "tangential accelerations");
            need(normal, 3 * n, "normal accelerations");
            for (std::size_t i = 0; i < n; ++i) {
              const tx::CameraShot<double> shot = rig.at(times.data()[i]);
              frames.put(i, shot.frame);
              distances.data()[i] = shot.motion.distance;
              speeds.data()[i] = shot.motion.speed;
              put3(velocities.data() + 3 * i, shot.motion.velocity);
              put3(accelerations.data() + 3 * i, shot.motion.acceleration);
              put3(tangential.data() + 3 * i, shot.motion.tangential_acceleration);
              put3(normal.data() + 3 * i, shot.motion.normal_acceleration);
            }
          },
          nb::arg("times"), nb::arg("positions").noconvert(), nb::arg("rotations").noconvert(),
          nb::arg("quaternions").noconvert(), nb::arg("distances").noconvert(),
          nb::arg("speeds").noconvert(), nb::arg("velocities").noconvert(),
          nb::arg("accelerations").noconvert(), nb::arg("tangential").noconvert(),
          nb::arg("normal").noconvert(), nb::call_guard<nb::gil_scoped_release>());

  nb::class_<tx::PoseReader<double>>(m, "PoseReader")
      .def_static(
          "build",
          [](int axis, double inner, double outer, std::optional<std::pair<double, double>> y,
             int falloff, bool reversed, std::optional<std::pair<double, double>> twist) {
            tx::PoseReaderSettings<double> settings;
            if (axis < 0 || axis > 5 || falloff < 0 || falloff > 5)
              throw nb::value_error("target_axis, falloff: not an axis or falloff index (0-5)");
            settings.target_axis = static_cast<tx::PoseAxis>(axis);
            settings.cone = {inner, outer};
            if (y) settings.elliptical_y = tx::ConeRange<double>{y->first, y->second};
            settings.falloff = static_cast<tx::PoseFalloff>(falloff);
            settings.reversed = reversed;
            if (twist) settings.twist = tx::ConeRange<double>{twist->first, twist->second};
            return value_or_raise(tx::PoseReader<double>::build(settings));
          })
      .def(
          "weights",
          [](const tx::PoseReader<double>& reader, In readers, In targets, Out weights) {
            // One reader for many targets, many readers for one target, or one each.
            const std::size_t r = rows(readers, 9, "readers"), t = rows(targets, 9, "targets");
            const std::size_t n = std::max(r, t);
            if ((r != 1 && r != n) || (t != 1 && t != n))
              throw nb::value_error("readers, targets: counts differ and neither is 1");
            need(weights, n, "weights");
            const std::size_t reader_step = r == 1 ? 0 : 9, target_step = t == 1 ? 0 : 9;
            nb::gil_scoped_release release;
            for (std::size_t i = 0; i < n; ++i)
              weights.data()[i] = reader.weight(mat3(readers.data() + reader_step * i),
                                                mat3(targets.data() + target_step * i));
          },
          nb::arg("readers"), nb::arg("targets"), nb::arg("weights").noconvert());

  nb::class_<tx::StretchChain<double>>(m, "StretchChain")
      .def_static(
          "build",
          [](In rest, bool proportional, double max_stretch, double stretch_start, bool squash,
             double soft) {
            tx::StretchSettings<double> settings;
            settings.split =
                proportional ? tx::StretchSplit::proportional : tx::StretchSplit::equal;
            settings.max_stretch = max_stretch;
            settings.stretch_start = stretch_start;
            settings.squash = squash;
            settings.soft = soft;
            return value_or_raise(tx::StretchChain<double>::build(values_of(rest), settings));
          })
      .def_prop_ro("bone_count", &tx::StretchChain<double>::size)
      .def_prop_ro("rest_length", &tx::StretchChain<double>::rest_length)
      .def(
          "lengths",
          [](const tx::StretchChain<double>& chain, In distances, double scale, Out out) {
            const tx::GlobalScale<double> global =
                value_or_raise(tx::GlobalScale<double>::from(scale));
            need(out, distances.size() * chain.size(), "lengths");
            nb::gil_scoped_release release;
            for (std::size_t i = 0; i < distances.size(); ++i)
              chain.lengths(distances.data()[i], global, out.data() + i * chain.size());
          },
          nb::arg("distances"), nb::arg("scale"), nb::arg("out").noconvert())
      .def(
          "two_bone",
          [](const tx::StretchChain<double>& chain, In root, In goal, In pole, double scale,
             Out joints, Out rotations, Out lengths) {
            const tx::GlobalScale<double> global =
                value_or_raise(tx::GlobalScale<double>::from(scale));
            const std::size_t n = rows(goal, 3, "goal");
            if (rows(root, 3, "root") != n || rows(pole, 3, "pole") != n)
              throw nb::value_error("root, goal, pole: different counts");
            need(joints, 9 * n, "joints");
            need(rotations, 18 * n, "rotations");
            need(lengths, 2 * n, "lengths");
            nb::gil_scoped_release release;
            for (std::size_t i = 0; i < n; ++i) {
              const tx::TwoBonePose<double> pose =
                  chain.two_bone(vec3(root.data() + 3 * i), vec3(goal.data() + 3 * i),
                                 vec3(pole.data() + 3 * i), global);
              put3(joints.data() + 9 * i, pose.root);
              put3(joints.data() + 9 * i + 3, pose.knee);
              put3(joints.data() + 9 * i + 6, pose.end);
              put33(rotations.data() + 18 * i, pose.upper_rotation);
              put33(rotations.data() + 18 * i + 9, pose.lower_rotation);
              lengths.data()[2 * i] = pose.upper_length;
              lengths.data()[2 * i + 1] = pose.lower_length;
            }
          },
          nb::arg("root"), nb::arg("goal"), nb::arg("pole"), nb::arg("scale"),
          nb::arg("joints").noconvert(), nb::arg("rotations").noconvert(),
          nb::arg("lengths").noconvert());
}
