/// @file
/// `SyncedTrajectory`: several axes (a camera dolly's x, y and z; a crane's slew, trolley and
/// hoist; trains told to arrive at once) moved to their targets together — all arriving at the
/// same time, or on a straight line in space — with the timing an engine's clock needs: no sooner
/// than a minimum duration, and on a whole number of control cycles. Each axis is a
/// `JerkTrajectory` (driving/jerk_trajectory.hpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "tractrix/core/expected.hpp"
#include "tractrix/core/numeric.hpp"
#include "tractrix/driving/jerk_trajectory.hpp"

namespace tractrix {

/// How the axes of a SyncedTrajectory move together.
enum class Synchronization {
  time,   ///< all arrive together: each axis's move stretched to the slowest one's duration
  phase,  ///< on a straight line in space, where start and target allow it (else as `time`)
  none,   ///< each axis as fast as it can
};

/// When a plan may end: no sooner than `minimum_duration`, and, for a `cycle` > 0, on a whole
/// number of cycles (a controller ticking at 1 kHz: 0.001). Both 0: as soon as the limits allow.
template <class S>
struct PlanTiming {
  S minimum_duration = S(0);  ///< seconds, >= 0
  S cycle = S(0);             ///< seconds, >= 0; 0: any duration
};

/// Axes moved from any states to targets under each axis's JerkLimits, synchronized. With
/// `Synchronization::time` every axis arrives at duration(): the earliest time every axis can
/// meet (at least the slowest axis's time-optimal duration) that the timing allows. With
/// `Synchronization::phase` the axes move on the straight line from start to target — one
/// time-optimal move along it under the strictest of the axes' limits, each axis a fixed share of
/// it — where the start's velocity and acceleration and the target's lie along that line, the
/// line's limits hold the start and reach the target; otherwise they are time-synchronized
/// (synchronization() says which was done). With `Synchronization::none` each axis arrives at its
/// own earliest time the timing allows.
///
/// Times are seconds from the start. Sampling is O(axes).
template <class S>
class SyncedTrajectory {
 public:
  /// Plans the move of every axis i from from[i] to (position[i], velocity[i], acceleration 0)
  /// under limits[i]: to_position with target states of acceleration 0.
  static Expected<SyncedTrajectory> to_position(const std::vector<AxisState<S>>& from,
                                                const std::vector<S>& position,
                                                const std::vector<S>& velocity,
                                                const std::vector<JerkLimits<S>>& limits,
                                                Synchronization sync = Synchronization::time,
                                                const PlanTiming<S>& timing = {}) {
    if (position.size() != from.size() || velocity.size() != from.size())
      return make_error(ErrorCode::mismatched_sizes,
                        "synced trajectory: from, position, velocity and limits must have one "
                        "entry per axis");
    std::vector<AxisState<S>> target(from.size());
    for (std::size_t i = 0; i < from.size(); ++i)
      target[i] = {position[i], velocity[i], S(0)};
    return to_position(from, target, limits, sync, timing);
  }

  /// Plans the move of every axis i from from[i] to the state target[i] (position, velocity
  /// and acceleration; after duration() each axis goes on at its target's acceleration) under
  /// limits[i]. A line for `Synchronization::phase` also needs the target accelerations along
  /// it, and the line's limits must reach its target (else the axes are time-synchronized).
  /// Errors: mismatched_sizes for arrays of different lengths, empty_input for no axes,
  /// out_of_range for a timing that is negative or not finite; those of
  /// JerkTrajectory::to_position, naming the axis; no_solution where no common duration is
  /// found (please report the states and limits).
  static Expected<SyncedTrajectory> to_position(const std::vector<AxisState<S>>& from,
                                                const std::vector<AxisState<S>>& target,
                                                const std::vector<JerkLimits<S>>& limits,
                                                Synchronization sync = Synchronization::time,
                                                const PlanTiming<S>& timing = {}) {
    const std::size_t n = from.size();
    if (target.size() != n || limits.size() != n)
      return make_error(ErrorCode::mismatched_sizes,
                        "synced trajectory: from, target and limits must have one entry per axis");
    if (n == 0) return make_error(ErrorCode::empty_input, "synced trajectory: no axes");
    if (!std::isfinite(timing.minimum_duration) || !(timing.minimum_duration >= S(0)) ||
        !std::isfinite(timing.cycle) || !(timing.cycle >= S(0)))
      return make_error(ErrorCode::out_of_range,
                        "synced trajectory: minimum_duration and cycle must be finite and >= 0");
    SyncedTrajectory out;
    out.sync_ = sync;
    if (sync == Synchronization::phase) {
      auto line = Line::through(from, target);
      // Along the line only from a start the line's limits hold: the strictest jerk eases an
      // axis's acceleration more slowly than its own would, and its velocity could overshoot.
      // Likewise for the target, run backwards: one the line's limits reach, as
      // JerkTrajectory's input check has it.
      const JerkLimits<S> along = line ? line->limits(limits) : JerkLimits<S>{};
      if (line && holdable(line->start(from), along) &&
          !Jerk::input_error("to_position_no_sooner", line->start(from), line->end(target),
                             along)) {
        auto start = start_of(line->start(from), line->end(target), along, 0);
        if (!start) return std::move(start).error();
        auto moved = earliest(*start, line->end(target), timing.minimum_duration, timing.cycle, 0);
        if (!moved) return std::move(moved).error();
        out.line_ = std::move(*line);
        out.origin_ = from;
        out.target_ = target;
        out.axes_.push_back(std::move(*moved));
        out.duration_ = out.axes_[0].duration();
        return out;
      }
      out.sync_ = Synchronization::time;
    }
    // Each axis's earliest arrival the timing allows, its braked start and time-optimal move
    // kept to plan it again.
    std::vector<Start> starts;
    for (std::size_t i = 0; i < n; ++i) {
      auto start = start_of(from[i], target[i], limits[i], i);
      if (!start) return std::move(start).error();
      starts.push_back(std::move(*start));
      auto axis = earliest(starts[i], target[i], timing.minimum_duration, timing.cycle, i);
      if (!axis) return std::move(axis).error();
      out.duration_ = std::max(out.duration_, axis->duration());
      out.axes_.push_back(std::move(*axis));
    }
    if (out.sync_ == Synchronization::none) return out;
    // Every axis at the latest of them; an axis that cannot end then (a duration no profile of
    // it fits) moves the common time on to its next one, and the others follow. Each axis's
    // unreachable durations are a gap or two past its optimum, so this ends within a round or
    // two. An axis already arriving at the common time is kept.
    const S close = S(64) * detail::epsilon<S>();
    for (std::size_t round = 0; round < 4 * n + 4; ++round) {
      bool moved_on = false;
      for (std::size_t i = 0; i < n; ++i) {
        if (std::abs(out.axes_[i].duration() - out.duration_) <= close * out.duration_) continue;
        auto axis = earliest(starts[i], target[i], out.duration_, timing.cycle, i);
        if (!axis) return std::move(axis).error();
        if (axis->duration() > out.duration_ * (S(1) + close)) {
          out.duration_ = axis->duration();
          moved_on = true;
        }
        out.axes_[i] = std::move(*axis);
      }
      if (!moved_on) return out;
    }
    return make_error(ErrorCode::no_solution,
                      "synced trajectory: no common duration found (please report the states and "
                      "limits)");
  }

  /// The number of axes.
  std::size_t axis_count() const noexcept {
    return origin_.empty() ? axes_.size() : origin_.size();
  }
  /// When the last axis arrives (seconds); with time or phase synchronization, every axis.
  S duration() const noexcept { return duration_; }
  /// When axis `i` arrives (seconds), i < axis_count() (unchecked).
  S duration(std::size_t i) const noexcept {
    return line_.direction.empty() ? axes_[i].duration() : duration_;
  }
  /// The synchronization done: as asked, except `phase` where the states do not lie along the
  /// line from start to target, or the line's limits do not hold the start or reach the target
  /// (then `time`).
  Synchronization synchronization() const noexcept { return sync_; }

  /// Axis `i` at time t (i < axis_count(), unchecked), as JerkTrajectory::at: before 0 the start,
  /// from its arrival on the target moving on at its velocity.
  AxisSample<S> at(std::size_t i, S t) const noexcept {
    if (line_.direction.empty()) return axes_[i].at(t);
    if (!(t < duration_) && !std::isnan(t)) {
      const S dt = std::isfinite(t) ? t - duration_ : S(0);
      const AxisState<S>& e = target_[i];
      return {e.position + (e.velocity + e.acceleration * dt / S(2)) * dt,
              e.velocity + e.acceleration * dt, e.acceleration, S(0)};
    }
    const AxisSample<S> s = axes_[0].at(t);
    const S u = line_.direction[i];
    return {origin_[i].position + u * s.position, u * s.velocity, u * s.acceleration, u * s.jerk};
  }

  /// Every axis at time t, into out[0 .. axis_count()).
  void at(S t, AxisSample<S>* out) const noexcept {
    for (std::size_t i = 0; i < axis_count(); ++i)
      out[i] = at(i, t);
  }

  /// Axis i's least and greatest position over its move, and when (i < axis_count(), unchecked):
  /// JerkTrajectory::position_extrema.
  PositionExtrema<S> position_extrema(std::size_t i) const noexcept {
    if (line_.direction.empty()) return axes_[i].position_extrema();
    const PositionExtrema<S> e = axes_[0].position_extrema();
    const S u = line_.direction[i], p = origin_[i].position;
    if (u >= S(0)) return {p + u * e.min, p + u * e.max, e.time_of_min, e.time_of_max};
    return {p + u * e.max, p + u * e.min, e.time_of_max, e.time_of_min};
  }

  /// Axis i's own trajectory (i < axis_count(), unchecked); with phase synchronization, the move
  /// along the line (in its length from the start) for every i.
  const JerkTrajectory<S>& axis(std::size_t i) const noexcept {
    return axes_[line_.direction.empty() ? i : 0];
  }

 private:
  // Whether limits hold a state: acceleration inside them, and the velocity inside while the
  // acceleration is brought to zero at full jerk (the natural velocity).
  static bool holdable(const AxisState<S>& s, const JerkLimits<S>& lim) {
    const S natural = JerkTrajectory<S>::eased_velocity(s, lim.max_jerk);
    const S up = lim.max_velocity, down = lim.reverse_velocity();
    return s.acceleration <= lim.max_acceleration && -s.acceleration <= lim.max_deceleration &&
           s.velocity <= up && -s.velocity <= down && natural <= up && -natural <= down;
  }

  // The straight line from the start to the target, where every state lies along it: the
  // direction (unit), the length, and the axes' limits as limits along it.
  struct Line {
    std::vector<S> direction;
    S length = S(0);

    static std::optional<Line> through(const std::vector<AxisState<S>>& from,
                                       const std::vector<AxisState<S>>& target) {
      const std::size_t n = from.size();
      using std::sqrt;
      Line line;
      line.direction.resize(n);
      // The direction: the move, or with none (a target that is the start) the first of the
      // start velocity, its acceleration, the target velocity and its acceleration that is not
      // zero.
      const auto take = [&](auto component) {
        S norm = S(0);
        for (std::size_t i = 0; i < n; ++i) {
          line.direction[i] = component(i);
          norm += line.direction[i] * line.direction[i];
        }
        norm = sqrt(norm);
        if (!(norm > S(0)) || !std::isfinite(norm)) return S(0);
        for (S& u : line.direction)
          u /= norm;
        return norm;
      };
      const auto start_velocity = [&](std::size_t i) { return from[i].velocity; };
      const auto start_acceleration = [&](std::size_t i) { return from[i].acceleration; };
      const auto end_velocity = [&](std::size_t i) { return target[i].velocity; };
      const auto end_acceleration = [&](std::size_t i) { return target[i].acceleration; };
      line.length = take([&](std::size_t i) { return target[i].position - from[i].position; });
      if (!(line.length > S(0)) && !(take(start_velocity) > S(0)) &&
          !(take(start_acceleration) > S(0)) && !(take(end_velocity) > S(0)) &&
          !(take(end_acceleration) > S(0)))
        return std::nullopt;  // nothing moves: time synchronization is as good
      // Each vector must lie along it: its part across the direction within rounding of it.
      const auto along = [&](auto component) {
        S dot = S(0), norm = S(0);
        for (std::size_t i = 0; i < n; ++i) {
          dot += component(i) * line.direction[i];
          norm += component(i) * component(i);
        }
        S across = S(0);
        for (std::size_t i = 0; i < n; ++i) {
          const S c = component(i) - dot * line.direction[i];
          across += c * c;
        }
        return sqrt(across) <= S(64) * detail::epsilon<S>() * sqrt(norm);
      };
      if (!along(start_velocity) || !along(start_acceleration) || !along(end_velocity) ||
          !along(end_acceleration))
        return std::nullopt;
      return line;
    }

    // A state of every axis as one along the line, from `position` on.
    AxisState<S> project(const std::vector<AxisState<S>>& states, S position) const {
      S v = S(0), a = S(0);
      for (std::size_t i = 0; i < states.size(); ++i) {
        v += states[i].velocity * direction[i];
        a += states[i].acceleration * direction[i];
      }
      return {position, v, a};
    }
    AxisState<S> start(const std::vector<AxisState<S>>& from) const { return project(from, S(0)); }
    AxisState<S> end(const std::vector<AxisState<S>>& target) const {
      return project(target, length);
    }
    // Along the line each axis i moves u_i times as much: its limits over |u_i| bound the line's
    // (an axis going backwards along it brakes the line's acceleration with its own).
    JerkLimits<S> limits(const std::vector<JerkLimits<S>>& axes) const {
      const S huge = std::numeric_limits<S>::max();
      JerkLimits<S> out{huge, huge, huge, huge, huge};
      for (std::size_t i = 0; i < axes.size(); ++i) {
        using std::abs;
        const S u = abs(direction[i]);
        if (!(u > S(0))) continue;
        const bool forward = direction[i] > S(0);
        const S up = axes[i].max_velocity, down = axes[i].reverse_velocity();
        out.max_velocity = std::min(out.max_velocity, (forward ? up : down) / u);
        out.max_reverse_velocity = std::min(out.max_reverse_velocity, (forward ? down : up) / u);
        out.max_acceleration =
            std::min(out.max_acceleration,
                     (forward ? axes[i].max_acceleration : axes[i].max_deceleration) / u);
        out.max_deceleration =
            std::min(out.max_deceleration,
                     (forward ? axes[i].max_deceleration : axes[i].max_acceleration) / u);
        out.max_jerk = std::min(out.max_jerk, axes[i].max_jerk / u);
      }
      return out;
    }
  };

  using Jerk = JerkTrajectory<S>;

  // An axis's start braked back inside its limits and its time-optimal move from there.
  struct Start {
    typename Jerk::Braked braked;
    Jerk fastest;
  };
  static Expected<Start> start_of(const AxisState<S>& from, const AxisState<S>& target,
                                  const JerkLimits<S>& limits, std::size_t axis) {
    if (auto error = Jerk::input_error("to_position_no_sooner", from, target, limits))
      return named(error->error(), axis);
    typename Jerk::Braked braked = Jerk::braked(from, target, limits);
    auto fastest = Jerk::fastest_from(braked, target);
    if (!fastest) return named(fastest.error(), axis);
    return Start{std::move(braked), std::move(*fastest)};
  }

  // The axis's move arriving at the earliest time no sooner than `not_before` that it can meet,
  // on a whole number of cycles for a cycle > 0; an error names the axis.
  static Expected<Jerk> earliest(const Start& start, const AxisState<S>& target, S not_before,
                                 S cycle, std::size_t axis) {
    auto moved = Jerk::no_sooner(not_before, cycle, start.braked, start.fastest, target);
    if (moved) return moved;
    return named(moved.error(), axis);
  }

  static Error named(Error e, std::size_t axis) {
    e.message = "axis " + std::to_string(axis) + ": " + e.message;
    return e;
  }

  std::vector<JerkTrajectory<S>> axes_;  // each axis; with a line, the move along it
  Line line_;                            // direction empty: no line
  std::vector<AxisState<S>> origin_;     // with a line: the start and the target
  std::vector<AxisState<S>> target_;
  S duration_ = S(0);
  Synchronization sync_ = Synchronization::time;
};

}  // namespace tractrix
