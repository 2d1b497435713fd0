/// @file
/// Kinematics of a moving train: speed and acceleration of every bogie, split into the part along
/// the track and the lateral (centripetal) part — what sound, camera shake and tilting code
/// needs.
#pragma once

#include <algorithm>
#include <cstddef>
#include <limits>
#include <vector>

#include "tractrix/core/numeric.hpp"
#include "tractrix/train/train_solver.hpp"

namespace tractrix {

/// How one bogie moves, in the track's units and the head's time unit (speed in length per time).
template <class S>
struct BogieMotion {
  S speed = S(0);                                ///< ds/dt along the track
  S tangential_acceleration = S(0);              ///< d²s/dt²
  S lateral_acceleration = S(0);                 ///< κ·(ds/dt)² ≥ 0, towards the centre
  Vector3<S> velocity = Vector3<S>::Zero();      ///< (ds/dt)·T
  Vector3<S> acceleration = Vector3<S>::Zero();  ///< (d²s/dt²)·T + (ds/dt)²·κN
};

/// How one wagon's bogies move.
template <class S>
struct WagonMotion {
  BogieMotion<S> front,  ///< the front bogie's motion
      rear;              ///< the rear bogie's motion
};

/// Motion of every bogie of `poses` (a solve at some head distance) when the head moves at
/// head_speed with head_acceleration along the track (non-finite values count as 0; a result is
/// finite wherever its true value fits, e.g. κv² even where v² alone would overflow). Each bogie
/// distance is a function s(h) of the head distance; ds/dt = s'(h)·v and
/// d²s/dt² = s''(h)·v² + s'(h)·a. Arc spacing: s' = 1, s'' = 0 (0 and 0 for a bogie held at an
/// end by clamping, and for every bogie while the locomotive is held at the far end: the train
/// stops with it; one-sided, so a bogie exactly at an end reads 0 whichever way the head moves).
/// Chord spacing: |P(s_b) − P(s_a)| = d, derived twice along the chain (exact, with
/// D = P_b − P_a and K = κN):
///
///     s_b' = s_a' (D·T_a)/(D·T_b),
///     s_b'' = [D·(T_a s_a'' + K_a s_a'² − K_b s_b'²) − |T_b s_b' − T_a s_a'|²] / (D·T_b).
///
/// `poses` and `out` hold `count` wagons (at most wagons().size(), the default): the first
/// wagons of the train, since each bogie's motion follows from those ahead of it.
template <class S, class TrackType>
void train_kinematics(const TrainSolver<S, TrackType>& solver, const WagonPose<S>* poses,
                      S head_speed, S head_acceleration, WagonMotion<S>* out,
                      std::size_t count = std::numeric_limits<std::size_t>::max()) noexcept {
  // Non-finite head speed or acceleration is treated as 0 (a stopped, unaccelerated train).
  if (!std::isfinite(head_speed)) head_speed = S(0);
  if (!std::isfinite(head_acceleration)) head_acceleration = S(0);
  const TrackType& track = solver.track();
  const bool chord = solver.options().spacing == Spacing::chord;
  struct Point {  // initialized, though always assigned before use: GCC's -O2 cannot tell
    Vector3<S> position = Vector3<S>::Zero(), tangent = Vector3<S>::Zero(),
               curvature = Vector3<S>::Zero();
    S first = S(1), second = S(0);  // s'(h), s''(h)
  };
  typename TrackType::Cursor cursor{};
  auto local = [&](S distance, const Vector3<S>& position) {
    Point p;
    p.position = position;
    const auto sample = detail::TrainSolverAccess::sample_at(solver, distance, cursor);
    p.tangent = sample.tangent;
    p.curvature = detail::TrainSolverAccess::beyond_end(solver, distance)
                      ? Vector3<S>::Zero()
                      : track.curvature_vector(sample);
    return p;
  };
  auto held = [&](S distance) { return detail::TrainSolverAccess::held_at_end(solver, distance); };
  auto follow = [&](const Point& a, Point& b) {
    const Vector3<S> d = b.position - a.position;
    const S denominator = d.dot(b.tangent);
    if (detail::exactly_equal(denominator, S(0))) {
      b.first = a.first, b.second = a.second;
      return;
    }
    b.first = a.first * d.dot(a.tangent) / denominator;
    const Vector3<S> relative = b.tangent * b.first - a.tangent * a.first;
    b.second = (d.dot(a.tangent * a.second + a.curvature * (a.first * a.first) -
                      b.curvature * (b.first * b.first)) -
                relative.squaredNorm()) /
               denominator;
  };
  auto motion = [&](const Point& p) {
    BogieMotion<S> m;
    m.speed = p.first * head_speed;
    m.tangential_acceleration = p.second * head_speed * head_speed + p.first * head_acceleration;
    m.velocity = m.speed * p.tangent;
    const Vector3<S> centripetal = m.speed * (m.speed * p.curvature);  // v² alone may overflow
    m.lateral_acceleration = centripetal.stableNorm();
    m.acceleration = m.tangential_acceleration * p.tangent + centripetal;
    return m;
  };
  Point front;
  count = std::min(count, solver.wagons().size());
  // Arc spacing: a bogie moves with the head unless it or the locomotive is held.
  const S arc_first = count > 0 && held(poses[0].front_distance) ? S(0) : S(1);
  for (std::size_t i = 0; i < count; ++i) {
    const WagonPose<S>& pose = poses[i];
    Point next_front = local(pose.front_distance, pose.front.origin);
    if (i == 0 || !chord) {
      next_front.first = held(pose.front_distance) ? S(0) : arc_first;
      next_front.second = S(0);
    } else {
      follow(front, next_front);  // front still holds the previous rear bogie
      if (held(pose.front_distance)) next_front.first = next_front.second = S(0);
    }
    front = next_front;
    Point rear = local(pose.rear_distance, pose.rear.origin);
    if (chord)
      follow(front, rear);
    else
      rear.first = arc_first, rear.second = S(0);
    if (held(pose.rear_distance)) rear.first = rear.second = S(0);
    out[i].front = motion(front);
    out[i].rear = motion(rear);
    front = rear;
  }
}

/// train_kinematics into a vector: a vector of the first wagons' poses (those an engine draws)
/// gets their motions; one longer than the train, the train's.
template <class S, class TrackType>
std::vector<WagonMotion<S>> train_kinematics(const TrainSolver<S, TrackType>& solver,
                                             const std::vector<WagonPose<S>>& poses, S head_speed,
                                             S head_acceleration) {
  std::vector<WagonMotion<S>> motions(std::min(poses.size(), solver.wagons().size()));
  train_kinematics(solver, poses.data(), head_speed, head_acceleration, motions.data(),
                   motions.size());
  return motions;
}

}  // namespace tractrix
