// Motion along a path driven by a distance–time curve: position, speed, velocity and
// acceleration split into the tangential part s̈·T and the normal part κ·ṡ²·N (the lecture's
// "Beschleunigung": Tangential- und Normalbeschleunigung).
#pragma once

#include "tractrix/curve/measured_path.hpp"
#include "tractrix/frame/up_source.hpp"
#include "tractrix/driving/jerk_trajectory.hpp"
#include "tractrix/motion/time_profile.hpp"

namespace tractrix {

template <class S>
struct MotionSample {
  S time = S(0);
  S distance = S(0);   // s along the path (world units)
  S parameter = S(0);  // path parameter t
  Vector3<S> position = Vector3<S>::Zero();
  Vector3<S> tangent = Vector3<S>::UnitZ();  // unit
  S speed = S(0);                            // ds/dt
  S curvature = S(0);                        // κ
  Vector3<S> velocity = Vector3<S>::Zero();
  Vector3<S> acceleration = Vector3<S>::Zero();
  Vector3<S> tangential_acceleration = Vector3<S>::Zero();  // s̈ T
  Vector3<S> normal_acceleration = Vector3<S>::Zero();      // κ ṡ² N
  Frame<S> frame;  // forward = tangent, up from the up source
};

// The motion of a point at `distance` along the path, moving along it at `speed` with
// `acceleration` (ds/dt and d²s/dt²): whatever drives the distance — a profile (below), a
// JerkTrajectory, a game's own integration. The distance goes through the exact table (clamped
// to the path on an open one, wrapped on a closed one, as parameter_at does). Never allocates.
template <class S>
MotionSample<S> sample_at_distance(const MeasuredPath<S>& path, S distance, S speed, S acceleration,
                                   const UpSource<S>& up) noexcept {
  MotionSample<S> m;
  const S length = path.length();
  m.distance = distance;
  m.speed = speed;
  m.parameter = path.parameter_at(m.distance);
  m.position = path.path().point(m.parameter);
  m.tangent = path.path().unit_tangent(m.parameter);
  const Vector3<S> curvature_vector = path.path().curvature_vector(m.parameter);
  m.curvature = curvature_vector.stableNorm();  // no overflow for huge, finite κ
  m.velocity = m.speed * m.tangent;
  m.tangential_acceleration = acceleration * m.tangent;
  // ṡ·(ṡ·κN), not ṡ²·κN: ṡ² alone overflows for ṡ above 1e154 where κṡ² is far below the range.
  m.normal_acceleration = m.speed * (m.speed * curvature_vector);
  m.acceleration = m.tangential_acceleration + m.normal_acceleration;
  m.frame = look_at(m.position, m.tangent, up.up_at(m.distance, length, m.position, m.tangent));
  return m;
}

// The motion at `time` of a point that covers the whole path over the profile's duration:
// s = E(t)·length through the exact table (the lecture's normalized arc length), so a constant
// profile is constant speed however uneven the curve's own parameterization. Never allocates.
// Speeds scale as length/T and accelerations as length/T²; they overflow only where those do.
template <class S>
MotionSample<S> sample(const MeasuredPath<S>& path, const TimeProfile<S>& profile, S time,
                       const UpSource<S>& up) noexcept {
  const ProfileSample<S> e = profile.at(time);
  const S length = path.length();
  MotionSample<S> m =
      sample_at_distance(path, e.value * length, e.rate * length, e.acceleration * length, up);
  m.time = time;
  return m;
}

// The motion at `time` of a point driven along the path by a jerk-limited trajectory whose
// position is the distance along it.
template <class S>
MotionSample<S> sample(const MeasuredPath<S>& path, const JerkTrajectory<S>& trajectory, S time,
                       const UpSource<S>& up) noexcept {
  const AxisSample<S> a = trajectory.at(time);
  MotionSample<S> m = sample_at_distance(path, a.position, a.velocity, a.acceleration, up);
  m.time = time;
  return m;
}

}  // namespace tractrix
