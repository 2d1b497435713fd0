/// @file
/// `MotionSample`: motion along a path driven by a distance–time curve, a jerk-limited trajectory
/// or any distance the caller integrates: position, speed, velocity and acceleration split into
/// the tangential part s̈·T and the normal part κ·ṡ²·N (the lecture's "Beschleunigung":
/// Tangential- und Normalbeschleunigung).
#pragma once

#include "tractrix/curve/measured_path.hpp"
#include "tractrix/driving/jerk_trajectory.hpp"
#include "tractrix/frame/up_source.hpp"
#include "tractrix/motion/time_profile.hpp"

namespace tractrix {

/// A point moving along a path at one time: where it is, its frame, and its velocity and
/// acceleration in world units per second and per second².
template <class S>
struct MotionSample {
  S time = S(0);  ///< the time sampled (seconds); 0 from sample_at_distance, which has none
  /// s along the path (world units), as given: not wrapped or clamped (parameter and position are)
  S distance = S(0);
  S parameter = S(0);                        ///< the path parameter t at that distance
  Vector3<S> position = Vector3<S>::Zero();  ///< the path's point there
  Vector3<S> tangent = Vector3<S>::UnitZ();  ///< the unit tangent there (Path::unit_tangent)
  S speed = S(0);                            ///< ds/dt, as given (world units per second)
  S curvature = S(0);                        ///< κ >= 0 there, in 1/world units
  Vector3<S> velocity = Vector3<S>::Zero();  ///< speed · tangent
  /// tangential_acceleration + normal_acceleration (world units per second²)
  Vector3<S> acceleration = Vector3<S>::Zero();
  Vector3<S> tangential_acceleration = Vector3<S>::Zero();  ///< s̈ T
  Vector3<S> normal_acceleration = Vector3<S>::Zero();  ///< κ ṡ² N, towards the bend's centre
  Frame<S> frame;  ///< at position: forward = tangent, up from the up source (look_at)
};

/// The motion of a point at `distance` along the path, moving along it at `speed` with
/// `acceleration` (ds/dt and d²s/dt²): whatever drives the distance — a profile (below), a
/// JerkTrajectory, a game's own integration. The distance goes through the exact table (clamped
/// to the path on an open one, wrapped on a closed one, as parameter_at does); speed and
/// acceleration are used as given, also where an open path's end holds the position. The
/// sample's time is 0. Never allocates.
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

/// The motion at `time` of a point that covers the whole path over the profile's duration:
/// s = E(t)·length through the exact table (the lecture's normalized arc length), so a constant
/// profile is constant speed however uneven the curve's own parameterization. Before 0 and after
/// the duration the point stands at the start or the end (TimeProfile::at). Never allocates.
/// Speeds scale as length/T and accelerations as length/T²; they overflow only where those do.
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

/// The motion at `time` of a point driven along the path by a jerk-limited trajectory whose
/// position is the distance along it (JerkTrajectory::at: after its duration the point moves on at
/// the target velocity, wrapped on a closed path, held at the end of an open one while the speed
/// stays the trajectory's). Never allocates.
template <class S>
MotionSample<S> sample(const MeasuredPath<S>& path, const JerkTrajectory<S>& trajectory, S time,
                       const UpSource<S>& up) noexcept {
  const AxisSample<S> a = trajectory.at(time);
  MotionSample<S> m = sample_at_distance(path, a.position, a.velocity, a.acceleration, up);
  m.time = time;
  return m;
}

}  // namespace tractrix
