// A port of the TrainDriver plugin's main() (the Cinema 4D wiki page,
// shared/seeds/traindriver-c4d-wiki.de.txt), kept faithful, bugs included, as the peer for tests
// and benchmarks. Not part of the library.
//  - positions come from normalized ("uniform") offsets through a lossy chord table with linear
//    interpolation (Cinema 4D's InitLength / UniformToNatural);
//  - the rear wheel offset wraps circularly even on open track (the C++ plugin's bug);
//  - the rail point is taken at the same normalized offset of the rail;
//  - frames go through HPB angles and back (HPBTarget, then SetRotHPB).
#pragma once

#include <cmath>
#include <optional>
#include <vector>

#include "tractrix/curve/arc_length.hpp"
#include "tractrix/frame/euler.hpp"
#include "tractrix/train/wagon.hpp"

namespace tractrix::test {

template <class S>
class SeedTrainDriver {
 public:
  SeedTrainDriver(const Path<S, 3>& path, int table_samples, const Path<S, 3>* rail = nullptr)
      : path_(path),
        table_(*ArcLengthTable<S>::build(path, {table_samples, ArcLengthMethod::chord})),
        rail_(rail) {
    if (rail_)
      rail_table_ = *ArcLengthTable<S>::build(*rail_, {table_samples, ArcLengthMethod::chord});
  }

  struct CarPose {
    Frame<S> wheel1, body, wheel2;
  };

  // sPos: TrainDriver's Spline Position (fraction of the path); circ: its Circular checkbox.
  void run(const std::vector<Wagon<S>>& cars, S spline_position, bool circ, CarPose* out) const {
    const S path_length = table_.length();
    S current = circular_val(spline_position, circ);
    for (std::size_t i = 0; i < cars.size(); ++i) {
      const S wheel_rel = cars[i].bogie_distance / path_length;
      const S car_rel = cars[i].length / path_length;
      const S body_rel = circular_val(current, circ);
      const S wheel1_rel = body_rel;
      S wheel2_rel = wheel1_rel - circular_val(wheel_rel, circ);
      wheel2_rel = wheel2_rel - std::floor(wheel2_rel);  // the plugin wraps the rear always
      const Vector3<S> body_pos = point(wheel1_rel);
      const Vector3<S> wheel2_pos = point(wheel2_rel);
      const Vector3<S> up_offset(0, 1, 0);
      const Vector3<S> body_up = rail_ ? rail_point(body_rel) : Vector3<S>(body_pos + up_offset);
      const Vector3<S> wheel2_up =
          rail_ ? rail_point(wheel2_rel) : Vector3<S>(wheel2_pos + up_offset);
      out[i].wheel1 = hpb_target(body_pos, tangent(wheel1_rel), body_up);
      out[i].body =
          hpb_target(body_pos, Vector3<S>(-(wheel2_pos - body_pos).normalized()), body_up);
      out[i].wheel2 = hpb_target(wheel2_pos, tangent(wheel2_rel), wheel2_up);
      current = current - car_rel;
    }
  }

 private:
  static S circular_val(S value, bool circ) {
    return circ ? value - std::floor(value) : std::min(S(1), std::max(S(0), value));
  }
  S natural(S uniform) const { return table_.parameter_at_linear(uniform * table_.length()); }
  Vector3<S> point(S uniform) const { return path_.point(natural(uniform)); }
  Vector3<S> tangent(S uniform) const {
    return path_.evaluate(natural(uniform)).tangent.normalized();
  }
  Vector3<S> rail_point(S uniform) const {
    return rail_->point(rail_table_->parameter_at_linear(uniform * rail_table_->length()));
  }
  // HPBTarget: z towards the target direction, x = z × (pos − up point), y = z × x, then
  // GetHPB / SetRotHPB.
  static Frame<S> hpb_target(const Vector3<S>& pos, const Vector3<S>& direction,
                             const Vector3<S>& up_point) {
    Frame<S> m;
    const Vector3<S> z = direction.normalized();
    const Vector3<S> x = z.cross(Vector3<S>(pos - up_point)).normalized();
    const Vector3<S> y = z.cross(x).normalized();
    m.rotation.col(0) = x;
    m.rotation.col(1) = y;
    m.rotation.col(2) = z;
    m.rotation = from_euler(euler_angles(m.rotation, EulerOrder::hpb), EulerOrder::hpb);
    m.origin = pos;
    return m;
  }

  const Path<S, 3>& path_;
  ArcLengthTable<S> table_;
  const Path<S, 3>* rail_;
  std::optional<ArcLengthTable<S>> rail_table_;
};

}  // namespace tractrix::test
