/// @file
/// `SpeedPlan`: driving a train along a track or route — the fastest jerk-limited run of its
/// head under SpeedLimits, stopping at stations: when the train will be where, at what speed. Its
/// legs are planned by detail/leg_planner.hpp.
///
/// A limit applies to the whole train when the limits are SpeedLimits::for_train's: the head may
/// speed up only once the last wagon has left a slower section. The plan brakes to reach each
/// lower limit where it starts and speeds up after each one ends: the velocity at every change of
/// limit is the highest the two sides and the braking and acceleration on either side allow
/// (backward and forward passes over the sections), with the acceleration back at zero there,
/// and each section between is the fastest jerk-limited move between its two ends
/// (JerkTrajectory::between_cruises) — except where a boundary's velocity is below both its
/// limits and one move across it is faster. Stations stop the train exactly on their mark for
/// their dwell time.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tractrix/core/expected.hpp"
#include "tractrix/core/numeric.hpp"
#include "tractrix/driving/detail/leg_planner.hpp"
#include "tractrix/driving/jerk_trajectory.hpp"
#include "tractrix/driving/speed_limits.hpp"

namespace tractrix {

/// A stop: the head halts at `position` and stands for `dwell` seconds; with an `arrival` time,
/// no sooner than then (a timetable: the leg to it runs slower, see SpeedPlan::build).
template <class S>
struct StationStop {
  S position = S(0);  ///< along the line
  S dwell = S(0);     ///< seconds at rest there
  S arrival = S(0);   ///< the earliest arrival, seconds from the plan's start; 0: none
};

/// Where a SpeedPlan runs: from `start` to a stop at `end`, stopping on the way at each station
/// after the start and before `end` for its dwell time. A station the start is arriving on (to
/// rounding, still moving) is ahead of it; one it stands on is not: to replan while a train
/// stands at a station, pass what is left of its dwell as `hold` (SpeedPlan::dwell_left(t) of
/// the plan it stands in), and the new plan stands that long first.
template <class S>
struct Journey {
  /// a position on the line, velocity >= 0 (a few ulps below counts as rest), and an acceleration
  /// the jerk limit can release before the train stops (one that would reverse it is refused)
  AxisState<S> start;
  S end = S(0);  ///< where the head stops, start.position <= end <= length
  /// in any order, each on the line with a finite dwell >= 0; those not ahead of the start, and
  /// those at or past `end`, are skipped
  std::vector<StationStop<S>> stations;
  S hold = S(0);  ///< seconds to stand at the start first (start at rest), finite and >= 0
  /// the earliest arrival at `end`, seconds from the plan's start (0: none); as
  /// StationStop::arrival
  S arrival = S(0);
};

/// The fastest run of a train's head along the line under speed limits and motion limits,
/// stopping at stations: position, velocity, acceleration and jerk at any time, and when it
/// passes any point. A plan is a run of pieces, each a JerkTrajectory: the moves between
/// boundaries and standing at a station (or at the start, a hold). Times are seconds from the
/// plan's start, positions distances along the line. Immutable: a change of limits or stops is a
/// new plan built from state_at(t), with dwell_left(t) as its hold.
template <class S>
class SpeedPlan {
 public:
  /// The fastest run of `journey` under `limits` and `motion`. `motion` limits acceleration,
  /// braking and jerk; its max_velocity caps every limit. The first section is planned from
  /// the start state as it is (JerkTrajectory::to_position), so a replan from a running plan's
  /// state_at(t) — a limit raised or lowered, a new stop — continues it with velocity and
  /// acceleration unbroken (a replan with nothing changed is not always as fast as the rest of
  /// the plan it starts from: from inside a move that passed a boundary below both limits it
  /// may ease its acceleration at that boundary). An acceleration beyond its limit at the start
  /// eases back at full jerk. A start faster than the limits ahead allow brakes at full power
  /// and is over the limit for a while: overspeed_distance() says how far.
  ///
  /// A stop with an arrival time the fastest run would beat (a timetable; trains told to arrive
  /// at once) is reached at that time: the leg to it runs under a lower top speed — the highest
  /// that arrives no sooner, found by bisection (the leg's arrival grows as the top speed falls),
  /// so it arrives within the rounding of that speed after the time (1e-9 of it in the tests). A
  /// leg that is already late runs as fast as it can. From a running start faster than that top
  /// speed the leg brakes to it at full power (as for a lower limit ahead); the top speed is not
  /// a limit: overspeed_distance() counts only where the head is over the line's limits.
  ///
  /// Errors: non_finite for a start or an end that is not finite. out_of_range for motion limits
  /// that are not positive and finite; a hold that is negative or not finite, or one from a start
  /// whose velocity and acceleration are not exactly 0; positions out of order (0 <= start <= end
  /// <= limits.length() is needed); a negative start velocity; a start deceleration that stops
  /// the train before the jerk limit can release it; a station off the line or with a negative or
  /// non-finite dwell or arrival (checked also for stations skipped); a hold or dwell so long that
  /// a move after it is lost to the rounding of the time. no_solution for a stop the train can no
  /// longer make (braking at full power ends past it, or it is on the stop and still moving). A
  /// section's JerkTrajectory error passes through with its code.
  static Expected<SpeedPlan> build(const SpeedLimits<S>& limits, const JerkLimits<S>& motion,
                                   const Journey<S>& journey) {
    auto from = checked_start(limits, motion, journey.start, journey.end, journey.hold);
    if (!from) return from.error();
    auto stops = stops_ahead(limits, motion, *from, journey.end, journey.stations);
    if (!stops) return stops.error();
    const Planner planner(limits, motion, journey.start.position);
    detail::Legs<S> legs;
    if (!std::isfinite(journey.arrival) || !(journey.arrival >= S(0)))
      return make_error(ErrorCode::out_of_range, "speed plan: arrival " +
                                                     detail::number_text(journey.arrival) +
                                                     " is not a finite time >= 0");
    (*stops).back().arrival = journey.arrival;
    AxisState<S> at = *from;
    // Standing at rest where `at` is, for `seconds`.
    const auto stand = [&](S seconds) -> std::optional<Error> {
      auto standing = JerkTrajectory<S>::to_velocity(at, S(0), motion);
      if (!standing) return standing.error();
      legs.push(std::move(*standing), seconds, at.position, true);
      return std::nullopt;
    };
    if (journey.hold > S(0))
      if (auto error = stand(journey.hold)) return *error;
    for (std::size_t k = 0; k < stops->size(); ++k) {
      const StationStop<S>& stop = (*stops)[k];
      auto leg = stop.arrival > S(0)
                     ? timed_leg(limits, motion, journey.start.position, at, legs.time, stop)
                     : planner.leg(at, legs.time, stop.position);
      if (!leg) return leg.error();
      legs.append(std::move(*leg));
      at = {stop.position, S(0), S(0)};
      if (k + 1 < stops->size() || stop.dwell > S(0))
        if (auto error = stand(stop.dwell)) return *error;
    }
    if (legs.pieces.empty())  // already at the end, at rest: a plan of standing there
      if (auto error = stand(S(0))) return *error;
    if (auto error = lost_to_rounding(legs.pieces)) return *error;
    return SpeedPlan(std::move(legs), journey.end);
  }
  /// From `start` to a stop at `end`, stopping at `stations` on the way: build(limits, motion,
  /// {start, end, stations}).
  static Expected<SpeedPlan> build(const SpeedLimits<S>& limits, const JerkLimits<S>& motion,
                                   const AxisState<S>& start, S end,
                                   std::vector<StationStop<S>> stations = {}) {
    return build(limits, motion, Journey<S>{start, end, std::move(stations), S(0)});
  }
  /// Deprecated: 0.2's spelling with a hold, kept for one release; a bare number after the
  /// stations: build(limits, motion, {start, end, stations, hold}).
  [[deprecated("pass a SpeedPlan Journey: the hold by name")]] static Expected<SpeedPlan> build(
      const SpeedLimits<S>& limits, const JerkLimits<S>& motion, const AxisState<S>& start, S end,
      std::vector<StationStop<S>> stations, S hold) {
    return build(limits, motion, Journey<S>{start, end, std::move(stations), hold});
  }

  /// When the head comes to rest at the end, in seconds from the plan's start (holds and dwells
  /// on the way included).
  S duration() const noexcept { return duration_; }
  /// The state at time t (before 0, and NaN, the start; from duration() on standing at the end).
  /// O(log pieces).
  AxisSample<S> at(S t) const noexcept {
    if (!(t > S(0))) return pieces_.front().move.at(S(0));
    if (!(t < duration_)) return {end_, S(0), S(0), S(0)};  // at rest on the end
    const Piece& p = pieces_[piece_at(t)];
    return p.move.at(t - p.start_time);
  }
  /// The state at time t, to replan from (build with it as the Journey's start).
  AxisState<S> state_at(S t) const noexcept {
    const AxisSample<S> s = at(t);
    return {s.position, s.velocity, s.acceleration};
  }
  /// How long the head still stands at a station (or at the start, a hold) at time t, in
  /// seconds: 0 while it moves and from duration() on; before 0, the whole of a hold. A replan
  /// from state_at(t) takes it as its hold.
  S dwell_left(S t) const noexcept {
    if (!(t < duration_)) return S(0);
    const Piece& p = pieces_[piece_at(t)];
    return p.standing ? p.end_time - std::max(t, S(0)) : S(0);
  }
  /// The first time the head reaches `position`: 0 at or before the start (and for NaN),
  /// +infinity beyond the end. O(log pieces).
  S time_at(S position) const noexcept {
    if (std::isnan(position)) return S(0);  // NaN: the start, as every query
    if (!(position <= end_)) return std::numeric_limits<S>::infinity();
    if (!(position > pieces_.front().move.at(S(0)).position)) return S(0);
    // Positions never decrease: the first piece ending at or past the position holds it.
    std::size_t lo = 0, hi = pieces_.size();
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (pieces_[mid].end_position < position)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (lo >= pieces_.size()) lo = pieces_.size() - 1;
    const Piece& p = pieces_[lo];
    // A move's end is where it is first at its target (it never goes back): exactly, not where
    // the flat arrival rounds to the same position a little earlier.
    const S until = p.end_time - p.start_time;
    if (detail::exactly_equal(position, p.end_position))
      return p.start_time + std::min(p.move.duration(), until);
    return p.start_time + std::min(p.move.time_at(position), until);
  }
  /// How far past the start the head is still over a limit: the distance along the line from
  /// the start to where it last comes under one (0 unless a replan lowered a limit under the
  /// train, or closer ahead than it can brake for). It brakes at full power until inside.
  S overspeed_distance() const noexcept { return overspeed_; }
  /// The number of pieces the plan is made of (moves over sections, and standing at stations),
  /// at least 1.
  std::size_t size() const noexcept { return pieces_.size(); }
  /// When piece i starts, in seconds from the plan's start (never decreasing in i; i < size(),
  /// unchecked). It runs until the next piece starts, or until duration() for the last.
  S piece_start_time(std::size_t i) const noexcept { return pieces_[i].start_time; }
  /// Piece i's move, on its own time: at time t of the plan it is at t − piece_start_time(i). A
  /// braking move may be cut short by the next piece, and a standing one runs on at rest past its
  /// own duration. i < size(), unchecked.
  const JerkTrajectory<S>& piece(std::size_t i) const noexcept { return pieces_[i].move; }

 private:
  using Piece = detail::PlanPiece<S>;
  using Planner = detail::LegPlanner<S>;

  // The highest speed the line and the motion allow anywhere.
  static S highest_speed(const SpeedLimits<S>& limits, const JerkLimits<S>& motion) noexcept {
    S fastest = S(0);
    for (std::size_t i = 0; i < limits.size(); ++i)
      fastest = std::max(fastest, limits.limit(i));
    return std::min(fastest, motion.max_velocity);
  }

  // build's start, checked: finite, in order on the line, a hold only from rest, and a state
  // the jerk limit can bring to rest without reversing. A velocity a few ulps below zero (a
  // plan's own state in the last instants of its approach carries that rounding) is rest.
  static Expected<AxisState<S>> checked_start(const SpeedLimits<S>& limits,
                                              const JerkLimits<S>& motion,
                                              const AxisState<S>& start, S end, S hold) {
    if (auto error = motion.error("speed plan")) return std::move(*error);
    if (!std::isfinite(start.position) || !std::isfinite(start.velocity) ||
        !std::isfinite(start.acceleration) || !std::isfinite(end))
      return make_error(ErrorCode::non_finite, "speed plan: start or end not finite");
    if (!(hold >= S(0)) || !std::isfinite(hold))
      return make_error(ErrorCode::out_of_range, "speed plan: hold " + detail::number_text(hold) +
                                                     " is not a finite time >= 0");
    if (hold > S(0) && !(detail::exactly_equal(start.velocity, S(0)) &&
                         detail::exactly_equal(start.acceleration, S(0))))
      return make_error(ErrorCode::out_of_range,
                        "speed plan: a hold of " + detail::number_text(hold) +
                            " s needs a start at rest (velocity " +
                            detail::number_text(start.velocity) + ", acceleration " +
                            detail::number_text(start.acceleration) + ")");
    // The line's highest speed: the scale of a plan's velocities, and of their rounding.
    const S fastest = std::max(highest_speed(limits, motion), start.velocity);
    const S slowest = -S(64) * detail::epsilon<S>() * fastest;
    AxisState<S> from = start;
    if (from.velocity < S(0) && from.velocity >= slowest) from.velocity = S(0);
    // ... and a position a few ulps past the end it is settling on is at that end.
    const bool settling_past_end =
        end < from.position &&
        from.position - end <= Planner::position_rounding(end, from.position) &&
        Planner::settling_on(from, end, motion);
    if (!(start.position >= S(0)) || !(end <= limits.length()) ||
        !(end >= start.position || settling_past_end))
      return make_error(ErrorCode::out_of_range,
                        "speed plan: need 0 <= start " + detail::number_text(start.position) +
                            " <= end " + detail::number_text(end) + " <= the line's length " +
                            detail::number_text(limits.length()));
    if (!(from.velocity >= S(0)))
      return make_error(ErrorCode::out_of_range,
                        "speed plan: start velocity " + detail::number_text(start.velocity) +
                            " is negative (plan along a reversed route to go backwards)");
    // Braking harder than the jerk limit can release before the train stops: every motion from
    // there reverses (a plan's own states never do, up to rounding). A plan's state on its last
    // approach to rest carries the rounding of the phase it is on — of the velocities the plan
    // runs at, up to the line's highest limit — not of its own tiny velocity: v and a²/2J there
    // are both nearly zero.
    const S eased = JerkTrajectory<S>::eased_velocity(from, motion.max_jerk);
    if (eased < -S(64) * detail::epsilon<S>() * (S(2) * from.velocity - eased + fastest))
      return make_error(ErrorCode::out_of_range,
                        "speed plan: start deceleration " +
                            detail::number_text(start.acceleration) +
                            " stops the train before the jerk limit can release it (it would "
                            "reverse)");
    return from;
  }

  // The stations after `from` and before `end`, in order, then the end (dwell 0). A station the
  // start is arriving on (to rounding, still moving) is still ahead of it; one it stands on is
  // not.
  static Expected<std::vector<StationStop<S>>> stops_ahead(const SpeedLimits<S>& limits,
                                                           const JerkLimits<S>& motion,
                                                           const AxisState<S>& from, S end,
                                                           std::vector<StationStop<S>> stations) {
    std::sort(
        stations.begin(), stations.end(),
        [](const StationStop<S>& a, const StationStop<S>& b) { return a.position < b.position; });
    std::vector<StationStop<S>> stops;
    for (const StationStop<S>& st : stations) {
      if (!std::isfinite(st.position) || !std::isfinite(st.dwell) || !(st.dwell >= S(0)) ||
          !std::isfinite(st.arrival) || !(st.arrival >= S(0)) || st.position < S(0) ||
          st.position > limits.length())
        return make_error(ErrorCode::out_of_range,
                          "station at " + detail::number_text(st.position) + " (dwell " +
                              detail::number_text(st.dwell) +
                              (detail::exactly_equal(st.arrival, S(0))
                                   ? std::string()
                                   : ", arrival " + detail::number_text(st.arrival)) +
                              "): off the line, or a negative or non-finite dwell or arrival");
      if ((st.position > from.position ||
           (from.position - st.position <= Planner::position_rounding(st.position, from.position) &&
            Planner::settling_on(from, st.position, motion))) &&
          st.position < end)
        stops.push_back(st);
    }
    stops.push_back({end, S(0), S(0)});
    return stops;
  }

  // The leg to `stop` arriving no sooner than its arrival time: the fastest, or where that is
  // early, the leg under the highest top speed (motion's max_velocity, which caps every limit)
  // that is not — halved until late enough, then bisected.
  static Expected<detail::Legs<S>> timed_leg(const SpeedLimits<S>& limits,
                                             const JerkLimits<S>& motion, S plan_start,
                                             const AxisState<S>& at, S time,
                                             const StationStop<S>& stop) {
    const auto under = [&](S top) {
      JerkLimits<S> capped = motion;
      capped.max_velocity = top;
      return Planner(limits, capped, plan_start, motion.max_velocity).leg(at, time, stop.position);
    };
    // From the line's highest speed (no lower than the fastest leg's speeds) down.
    S hi = highest_speed(limits, motion);
    auto late = under(hi);
    const S distance = stop.position - at.position;
    if (!late || !(late->time < stop.arrival) || !(distance > S(0))) return late;
    // No leg under top speed v is over sooner than distance/v: from there (then halving, for a
    // start faster than that, which brakes to it).
    S lo = std::min(hi, distance / (stop.arrival - time));
    late = under(lo);
    for (int k = 0; k < 200 && late && late->time < stop.arrival; ++k) {
      hi = lo;
      lo = lo / S(2);
      late = under(lo);
    }
    if (!late) return late;
    if (late->time < stop.arrival)
      return make_error(ErrorCode::no_solution, "speed plan: the leg to " +
                                                    detail::number_text(stop.position) +
                                                    " cannot be made to arrive as late as " +
                                                    detail::number_text(stop.arrival) + " s");
    for (int k = 0; k < 200; ++k) {
      const S mid = lo + (hi - lo) / S(2);
      if (!(mid > lo && mid < hi)) break;
      auto leg = under(mid);
      if (!leg) return leg;
      if (leg->time < stop.arrival) {
        hi = mid;
      } else {
        lo = mid;
        late = std::move(leg);
      }
    }
    return late;
  }

  // Holds and dwells so long that a move after them rounds away (a hold of 1e30 s before a 70 s
  // run: the head stood, then was at the end) are refused, not planned.
  static std::optional<Error> lost_to_rounding(const std::vector<Piece>& pieces) {
    for (const Piece& p : pieces)
      if (p.move.duration() > S(0) && !(p.start_time + p.move.duration() > p.start_time))
        return make_error(ErrorCode::out_of_range,
                          "speed plan: a move of " + detail::number_text(p.move.duration()) +
                              " s starting at " + detail::number_text(p.start_time) +
                              " s is lost to the rounding of the time (a hold or dwell too long)");
    return std::nullopt;
  }

  // The piece that runs at time t (the first before 0).
  std::size_t piece_at(S t) const noexcept {
    const auto upper = std::upper_bound(piece_starts_.begin(), piece_starts_.end(), t);
    return upper == piece_starts_.begin()
               ? 0
               : static_cast<std::size_t>(upper - piece_starts_.begin()) - 1;
  }

  SpeedPlan(detail::Legs<S>&& legs, S end)
      : pieces_(std::move(legs.pieces)),
        duration_(legs.time),
        end_(end),
        overspeed_(legs.overspeed) {
    piece_starts_.reserve(pieces_.size());
    for (const Piece& p : pieces_)
      piece_starts_.push_back(p.start_time);
  }

  std::vector<Piece> pieces_;
  std::vector<S> piece_starts_;
  S duration_ = S(0);
  S end_ = S(0);
  S overspeed_ = S(0);
};

}  // namespace tractrix
