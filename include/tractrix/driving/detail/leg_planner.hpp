/// @file
/// The engine behind `SpeedPlan` (driving/speed_plan.hpp): one leg of a run, from a state to a
/// stop, under piecewise-constant limits. Not API.
//
// A leg's boundaries are where the limit changes between the state and the stop. The velocity at
// each is the highest the two sides allow and the braking to the next and the acceleration from
// the last can reach (a backward, then a forward pass), with the acceleration back at zero there;
// each section between is the fastest jerk-limited move between its two ends
// (JerkTrajectory::between_cruises), and two sections become one move where a boundary's velocity
// is below both limits and the one move is faster. The first section starts from the state as it
// is: a cruise like any boundary, the time-optimal move to a boundary's velocity (the lead), or —
// too fast for what is ahead — braking at full power and the rest of the leg from where that
// ends.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "tractrix/core/expected.hpp"
#include "tractrix/core/numeric.hpp"
#include "tractrix/driving/jerk_trajectory.hpp"
#include "tractrix/driving/speed_limits.hpp"

namespace tractrix::detail {

// One move of a plan: a section, a merged run of them, or standing at a station.
template <class S>
struct PlanPiece {
  S start_time;
  JerkTrajectory<S> move;
  S end_time;      // when the next piece takes over (a stop's dwell, a braking cut short)
  S end_position;  // where
  bool standing;   // at rest at a station (or the start's hold) until end_time
};

// Pieces planned from a start time on: what a leg returns, appended to the plan only whole.
template <class S>
struct Legs {
  std::vector<PlanPiece<S>> pieces;
  S time = S(0);       // when the last piece hands over
  S overspeed = S(0);  // how far from the plan's start the head runs over a limit

  // A move from `time` for `duration`, handing over at `end_position`.
  void push(JerkTrajectory<S> move, S duration, S end_position, bool standing = false) {
    pieces.push_back({time, std::move(move), time + duration, end_position, standing});
    time += duration;
  }
  void append(Legs&& more) {
    for (PlanPiece<S>& p : more.pieces)
      pieces.push_back(std::move(p));
    time = more.time;
    overspeed = std::max(overspeed, more.overspeed);
  }
};

template <class S>
class LegPlanner {
 public:
  // `limit`: the velocity cap that counts as a limit for the overspeed, where motion's
  // max_velocity is lower (a timetable's top speed, which the head may be over at the start
  // without running over a limit); motion's max_velocity if 0.
  LegPlanner(const SpeedLimits<S>& limits, const JerkLimits<S>& motion, S plan_start,
             S limit = S(0))
      : limits_(limits),
        motion_(motion),
        plan_start_(plan_start),
        limit_(std::max(limit, motion.max_velocity)) {}

  // The run from `at` (at `time`) to a stop at rest on `stop`. Errors: a stop the state cannot
  // make (braking at full power ends past it, or it is already there and still moving).
  Expected<Legs<S>> leg(const AxisState<S>& at, S time, S stop) const {
    Legs<S> out{{}, time, S(0)};
    if (!(stop > at.position)) return arrived(at, std::move(out), stop);
    Sections sec = sections(at, stop);
    std::optional<Lead> lead;
    if (!starts_as_cruise(at, sec)) {
      lead = lead_move(at, sec);
      if (!lead) return braked_first(at, time, stop, sec);
      note_overspeed(out, lead->move, at.position, sec.limit[0], at.position,
                     lead->move.target().position);
      sec.v[lead->boundary] = lead->move.target().velocity;
    }
    return sections_run(at, std::move(out), sec, lead);
  }

  // ---- Tests of states and moves, shared with SpeedPlan's input checks ------------------------

  // The highest w <= cap to which a cruise at v changes within `distance` (acceleration
  // `limit`), the same as the highest v <= cap braking to w within it under the braking limit:
  // the fastest change between cruises covers (v + w)/2 · τ(Δ), τ = 2√(Δ/J) below A²/J and
  // Δ/A + A/J above, so Δ solves (2v + Δ)·√(Δ/J) = d (a cubic in √Δ) or
  // (2v + Δ)(Δ/A + A/J)/2 = d (a quadratic).
  static S reach(S v, S distance, S cap, S limit, S jerk) noexcept {
    using std::cbrt;
    using std::sqrt;
    if (!(cap > v)) return cap;
    const S knee = limit * limit / jerk;
    auto covered = [&](S change) {
      return (S(2) * v + change) / S(2) * detail::velocity_change_time(change, limit, jerk);
    };
    if (covered(cap - v) <= distance) return cap;
    S change;
    if (covered(knee) >= distance) {
      // x = √(Δ/J): J x³ + 2v x − d = 0, one positive root; Cardano without cancellation.
      const S p = S(2) * v / jerk, q = distance / (S(2) * jerk);
      const S u = cbrt(q + sqrt(q * q + p * p * p / S(27)));
      const S x = u - p / (S(3) * u);
      change = jerk * x * x;
    } else {
      // Δ²/(2A) + Δ(v/A + A/2J) + (vA/J − d) = 0, the positive root written without
      // cancellation.
      const S a2 = S(1) / (S(2) * limit), b = v / limit + limit / (S(2) * jerk);
      const S c = v * limit / jerk - distance;
      change = S(-2) * c / (b + sqrt(b * b - S(4) * a2 * c));
    }
    // Rounding may leave it a hair long: the change is the part of the distance, not more.
    S w = std::min(cap, v + std::max(change, S(0)));
    for (int i = 0; i < 8 && covered(w - v) > distance; ++i)
      w = std::nextafter(w, v);
    return w;
  }

  // A state on `stop` but for rounding, still moving (a plan's state in the last instants of its
  // approach): the release of its acceleration, if that cannot move it farther than the
  // position's rounding either way — |x(t) − x0| <= T·(|v0| + T·(|a0|/2 + J·T/6)) over the
  // release's T. (Its velocity may dip to −1e-16 on the way: the rounding of the plan's
  // velocities, not of this tiny one.) None for a state at rest, or a fast one placed on the stop.
  static std::optional<JerkTrajectory<S>> settling_on(const AxisState<S>& at, S stop,
                                                      const JerkLimits<S>& motion) {
    if (!moving(at)) return std::nullopt;
    auto rest = JerkTrajectory<S>::to_velocity(at, S(0), motion);
    if (!rest) return std::nullopt;
    using std::abs;
    const S resolution = position_rounding(stop, at.position);
    const S T = rest->duration();
    const S excursion =
        T * (abs(at.velocity) + T * (abs(at.acceleration) / S(2) + motion.max_jerk * T / S(6)));
    if (excursion > resolution || abs(rest->target().position - stop) > resolution)
      return std::nullopt;
    return std::move(*rest);
  }

  // Whether a state is still moving: a velocity, or an acceleration that will make one.
  static bool moving(const AxisState<S>& at) noexcept {
    return at.velocity > S(0) || at.acceleration < S(0) || at.acceleration > S(0);
  }
  // The rounding, relative, that moves and the states they end in are judged to: 1e-9, or 64 eps
  // where S is float (its phases' rounding).
  static S relative_rounding() noexcept { return std::max(S(1e-9), S(64) * detail::epsilon<S>()); }

  // The rounding a plan's own positions near a and b carry (a state in the last instants of its
  // approach to a stop or the end may lie that far past it).
  static S position_rounding(S a, S b) noexcept {
    using std::abs;
    return S(16) * detail::epsilon<S>() * std::max(abs(a), abs(b));
  }

  // The move keeps moving forward: its velocity >= 0 up to the rounding of a state that arrives
  // at rest (relative_rounding() of its largest velocity or of `limit`, the limit it runs under,
  // whichever is less), checked at its phase ends and at the velocity's turning
  // points inside phases. Nor does its position fall back, or pass its target, by more than the
  // positions' rounding and 1e-9 of the move: a velocity that small can still be a reversal where
  // the acceleration limit is smaller still (1e-18 for 1e21 s at 1e-40 runs back 3000 units).
  static bool never_reverses(const JerkTrajectory<S>& move, S limit) noexcept {
    S lowest = S(0), largest = S(0), farthest = move.at(S(0)).position, fall = S(0);
    for_turning_points(move, [&](S, const AxisSample<S>& s) {
      lowest = std::min(lowest, s.velocity);
      largest = std::max(largest, std::abs(s.velocity));
      fall = std::max(fall, farthest - s.position);
      farthest = std::max(farthest, s.position);
    });
    // (A float phase end one ulp past a boundary is not a reversal.)
    const S target = move.target().position, start = move.at(S(0)).position;
    const S rounding = S(1e-9) * std::abs(target - start) +
                       S(4) * detail::epsilon<S>() * (std::abs(target) + std::abs(start));
    return lowest >= -relative_rounding() * std::min(largest, limit) && fall <= rounding &&
           farthest - target <= rounding;
  }
  // How far a move runs until its velocity is at or under `limit` for good (0 if never over):
  // the last phase end or velocity turning point over the limit (the velocity's maxima are
  // among them), then bisection to where it comes down.
  static S over_limit(const JerkTrajectory<S>& move, S limit) noexcept {
    // Over by more than the rounding of a velocity evaluated at a phase's end: a cruise at the
    // limit (or a move easing onto it) evaluates a few ulps over it now and then.
    const S bound = limit * (S(1) + S(64) * detail::epsilon<S>());
    S last_over = S(-1);
    for_turning_points(move, [&](S t, const AxisSample<S>& s) {
      if (s.velocity > bound) last_over = std::max(last_over, t);
    });
    if (last_over < S(0)) return S(0);
    S lo = last_over, hi = move.duration();
    if (move.at(hi).velocity > bound) return move.target().position - move.at(0).position;
    for (int i = 0; i < 200; ++i) {
      const S mid = lo + (hi - lo) / S(2);
      if (!(mid > lo && mid < hi)) break;
      (move.at(mid).velocity > bound ? lo : hi) = mid;
    }
    return move.at(hi).position - move.at(0).position;
  }
  // Calls visit with the move's state at each phase end and each turning point of its velocity
  // (a + j t = 0 inside a phase).
  template <class Visit>
  static void for_turning_points(const JerkTrajectory<S>& move, Visit visit) noexcept {
    for (int i = 0; i < move.phase_count(); ++i) {
      const auto& ph = move.phase(i);
      // The phase's own start as well as at(): where a phase follows one 1e42 s long, its start
      // time rounds onto the end and at() there is the target (a reversal would hide in it).
      visit(ph.start_time,
            AxisSample<S>{ph.start.position, ph.start.velocity, ph.start.acceleration, ph.jerk});
      visit(ph.start_time, move.at(ph.start_time));
      if (ph.jerk < S(0) || ph.jerk > S(0)) {
        const S t = -ph.start.acceleration / ph.jerk;
        if (t > S(0) && t < ph.duration) visit(ph.start_time + t, move.at(ph.start_time + t));
      }
      visit(ph.start_time + ph.duration, move.at(ph.start_time + ph.duration));
    }
  }

 private:
  // The boundaries x[0] = the state's position < ... < x[n] = the stop, the limit of each
  // section (capped by motion's max_velocity) and the velocity at each boundary.
  struct Sections {
    std::vector<S> x, cap, v;
    std::vector<S> limit;  // the cap that counts for the overspeed (cap but for a top speed)
    std::size_t n = 0;     // sections
  };
  // The first move from the state as it is (not from a cruise): to `boundary`, under `cap`.
  struct Lead {
    JerkTrajectory<S> move;
    std::size_t boundary;
    S cap;
  };

  // (A velocity a few ulps over a limit is at it, to the limit's rounding.)
  static bool inside(S velocity, S limit) noexcept {
    return velocity <= limit * (S(1) + S(4) * detail::epsilon<S>());
  }

  JerkLimits<S> capped(S max_velocity) const noexcept {
    JerkLimits<S> m = motion_;
    m.max_velocity = max_velocity;
    return m;
  }

  // The time-optimal move from `at` to `position`, arriving at `velocity`, under `limit`: none
  // where there is no such move or it reverses (never_reverses).
  std::optional<JerkTrajectory<S>> forward_move(const AxisState<S>& at, S position, S velocity,
                                                S limit) const {
    auto move = JerkTrajectory<S>::to_position(at, position, velocity, capped(limit));
    if (!move || !never_reverses(*move, limit)) return std::nullopt;
    return std::move(*move);
  }

  // Notes where a move from `from` runs over `limit` inside the section [begin, end) of the
  // line: up to where it comes under it for good, or the section's end.
  void note_overspeed(Legs<S>& out, const JerkTrajectory<S>& move, S from, S limit, S begin,
                      S end) const noexcept {
    const S under = from + over_limit(move, limit);
    if (under > begin) out.overspeed = std::max(out.overspeed, std::min(under, end) - plan_start_);
  }

  // A state at or past its stop: settled onto it, or already at rest there.
  Expected<Legs<S>> arrived(const AxisState<S>& at, Legs<S> out, S stop) const {
    if (auto rest = settling_on(at, stop, motion_)) {
      const S T = rest->duration();
      out.push(std::move(*rest), T, stop);
      return out;
    }
    if (moving(at))
      return make_error(
          ErrorCode::no_solution,
          "speed plan: already at the stop at " + detail::number_text(stop) + " and still moving");
    return out;
  }

  // The boundaries from the state to the stop, and their velocities after the backward pass:
  // the lower limit of the two sides, lowered to what braking to the next allows.
  Sections sections(const AxisState<S>& at, S stop) const {
    Sections sec;
    sec.x.push_back(at.position);
    for (std::size_t i = limits_.section_at(at.position); i < limits_.size(); ++i) {
      sec.cap.push_back(std::min(limits_.limit(i), motion_.max_velocity));
      sec.limit.push_back(std::min(limits_.limit(i), limit_));
      const S next = limits_.end(i);
      if (!(next < stop)) break;
      sec.x.push_back(next);
    }
    sec.x.push_back(stop);
    const std::size_t n = sec.n = sec.x.size() - 1;
    std::vector<S>& v = sec.v;
    v.resize(n + 1);
    v[0] = at.velocity;
    v[n] = S(0);
    for (std::size_t i = 1; i < n; ++i)
      v[i] = std::min(sec.cap[i - 1], sec.cap[i]);
    for (std::size_t i = n - 1; i >= 1; --i)
      v[i] = reach(v[i + 1], sec.x[i + 1] - sec.x[i], v[i], motion_.max_deceleration,
                   motion_.max_jerk);
    return sec;
  }

  // A state that is a cruise inside the first section's limit, slow enough to brake for the
  // first boundary: the leg runs from it as from any boundary.
  bool starts_as_cruise(const AxisState<S>& at, const Sections& sec) const {
    const bool settled = !(at.acceleration < S(0)) && !(at.acceleration > S(0));
    return settled && inside(at.velocity, sec.cap[0]) &&
           inside(at.velocity, reach(sec.v[1], sec.x[1] - sec.x[0], sec.cap[0],
                                     motion_.max_deceleration, motion_.max_jerk));
  }

  // Accelerating, or over the section's own limit (lowered under the train): the time-optimal
  // move from the state as it is to the first boundary; where that is out of reach without
  // reversing (a running plan's move may pass a boundary below both limits without easing its
  // acceleration there, and a replan from inside it must do the same), to a later one under the
  // lowest limit on the way — past the first only from a state the lower limits can hold as it
  // is, to their rounding. None: the state must brake first.
  std::optional<Lead> lead_move(const AxisState<S>& at, const Sections& sec) const {
    S lowest = sec.cap[0];
    const S natural = JerkTrajectory<S>::eased_velocity(at, motion_.max_jerk);
    for (std::size_t k = 1; k <= sec.n && k <= 16; ++k) {
      lowest = std::min(lowest, sec.cap[k - 1]);
      if (k > 1 && !(inside(at.velocity, lowest) && inside(natural, lowest))) break;
      auto move =
          JerkTrajectory<S>::to_position(at, sec.x[k], std::min(sec.v[k], lowest), capped(lowest));
      if (move && never_reverses(*move, lowest)) return Lead{std::move(*move), k, lowest};
      if (k == 1 && move)
        if (auto reachable = fastest_reachable(at, sec.x[1], std::min(sec.v[1], lowest), lowest))
          return Lead{std::move(*reachable), 1, lowest};
    }
    return std::nullopt;
  }

  // The boundary's velocity (from the backward pass) is out of reach from this state without
  // reversing (leaving a station, the plan itself reached it only just): the fastest velocity
  // below `velocity` that is, by bisection — a lower target is reached without reversing.
  std::optional<JerkTrajectory<S>> fastest_reachable(const AxisState<S>& at, S position, S velocity,
                                                     S limit) const {
    std::optional<JerkTrajectory<S>> reachable;
    S lo = S(0), hi = velocity;
    for (int i = 0; i < 48 && hi - lo > S(4) * detail::epsilon<S>() * hi; ++i) {
      const S mid = lo + (hi - lo) / S(2);
      if (auto trial = forward_move(at, position, mid, limit)) {
        lo = mid;
        reachable = std::move(*trial);
      } else {
        hi = mid;
      }
    }
    return reachable;
  }

  // Whether a full-power brake from `at` ends on the stop, within rounding of it.
  bool ends_on(const JerkTrajectory<S>& brake, const AxisState<S>& at, S stop) const {
    return std::abs(brake.target().position - stop) <=
           relative_rounding() * (std::abs(stop) + at.velocity * brake.duration());
  }

  // Too fast for what is ahead, or a start that cannot make the first boundary from its
  // acceleration: bring the acceleration to zero, braking down to the first boundary's velocity
  // at full power, and plan on from the cruise it ends in — or, where the head reaches the
  // boundary first, from the state it has there. Where that fails (a limit dropping again before
  // the stop, so that braking to the boundary's velocity eased off too early) and braking to
  // rest at full power ends short of the stop: that, then on from rest.
  Expected<Legs<S>> braked_first(const AxisState<S>& at, S time, S stop,
                                 const Sections& sec) const {
    const std::vector<S>& x = sec.x;
    const S cap0 = sec.cap[0];
    std::optional<JerkTrajectory<S>> to_rest;
    if (x[1] < stop) {
      // A state on the stop's own braking curve, to rounding (a running plan's, braking through
      // a boundary for the stop beyond it): brake to rest at full power through the boundaries.
      // Braking to the first boundary's velocity would ease off before it and miss the stop by
      // far more than the state's rounding.
      if (auto full = JerkTrajectory<S>::to_velocity(at, S(0), capped(std::max(cap0, at.velocity))))
        to_rest = std::move(*full);
      if (to_rest && ends_on(*to_rest, at, stop))
        return braked_to_rest(at, time, stop, sec, *to_rest);
    }
    const S target =
        std::min(std::max(JerkTrajectory<S>::eased_velocity(at, motion_.max_jerk), S(0)), sec.v[1]);
    auto braking =
        JerkTrajectory<S>::to_velocity(at, target, capped(std::max({cap0, at.velocity, target})));
    if (!braking) return make_error(braking.error().code, "speed plan: " + braking.error().message);
    const JerkTrajectory<S>& brake = *braking;
    Legs<S> out{{}, time, S(0)};
    AxisState<S> next = brake.target();
    if (next.position > x[1]) {
      if (!(x[1] < stop)) {  // the stop itself: braking at full power must end on it
        if (next.position > stop && !ends_on(brake, at, stop))
          return make_error(ErrorCode::no_solution,
                            "speed plan: cannot stop at " + detail::number_text(stop) +
                                " from this state (braking at full power ends at " +
                                detail::number_text(next.position) + ")");
        note_overspeed(out, brake, at.position, sec.limit[0], at.position, stop);
        out.push(brake, brake.duration(), stop);
        return out;
      }
      // Braking that ends on the boundary but for the rounding of its phases ends there, at
      // rest in acceleration: cut a few ulps short it would hand the next leg an acceleration
      // of rounding, and a leg from a moving acceleration cannot merge its first section.
      if (next.position - x[1] >
          S(4) * detail::epsilon<S>() *
              (std::abs(x[1]) + std::abs(at.position) + at.velocity * brake.duration()))
        next = brake.state_at(brake.time_at(x[1]));
      next.position = x[1];
    }
    note_overspeed(out, brake, at.position, sec.limit[0], at.position, next.position);
    const bool cut = detail::exactly_equal(next.position, x[1]) && brake.target().position > x[1];
    out.push(brake, cut ? brake.time_at(x[1]) : brake.duration(), next.position);
    auto rest = leg(next, out.time, stop);
    if (rest) {
      out.append(std::move(*rest));
      return out;
    }
    if (!to_rest || !(to_rest->target().position < stop)) return rest.error();
    return braked_to_rest(at, time, stop, sec, *to_rest);
  }

  // The full-power brake to rest, ending on the stop or short of it: on from rest there, not a
  // jump onto the stop. Over a section's limit where it runs over it before slowing under it.
  Expected<Legs<S>> braked_to_rest(const AxisState<S>& at, S time, S stop, const Sections& sec,
                                   const JerkTrajectory<S>& to_rest) const {
    Legs<S> out{{}, time, S(0)};
    for (std::size_t i = 0; i < sec.n; ++i)
      note_overspeed(out, to_rest, at.position, sec.limit[i], sec.x[i], sec.x[i + 1]);
    const AxisState<S> rest = to_rest.target();
    const bool short_of_it = rest.position < stop;
    out.push(to_rest, to_rest.duration(), short_of_it ? rest.position : stop);
    if (!short_of_it) return out;
    auto more = leg(rest, out.time, stop);
    if (!more) return more.error();
    out.append(std::move(*more));
    return out;
  }

  // The fastest move between the cruises at boundaries a and b, under `limit`.
  Expected<JerkTrajectory<S>> move_over(const Sections& sec, std::size_t a, std::size_t b,
                                        S limit) const {
    return JerkTrajectory<S>::between_cruises(sec.x[a], sec.x[b], sec.v[a], sec.v[b],
                                              capped(std::max({limit, sec.v[a], sec.v[b]})));
  }

  // The sections from the lead's boundary (or the start) to the stop, after the forward pass.
  // Where a boundary's velocity is below both sides' limits (passed while speeding up or braking
  // for something further on), holding the acceleration at zero there only loses time: the run
  // so far and the next section become one move under the lower limit if that is faster. The
  // lead merges like any other move: merged, it is the time-optimal move from the state to the
  // later boundary under the lower limit.
  Expected<Legs<S>> sections_run(const AxisState<S>& at, Legs<S> out, Sections& sec,
                                 const std::optional<Lead>& lead) const {
    const std::size_t n = sec.n, first = lead ? lead->boundary : 0;
    std::vector<S>& v = sec.v;
    for (std::size_t i = first + 1; i < n; ++i)
      v[i] = reach(v[i - 1], sec.x[i] - sec.x[i - 1], v[i], motion_.max_acceleration,
                   motion_.max_jerk);
    if (first >= n) {  // the lead reached the stop
      out.push(lead->move, lead->move.duration(), lead->move.target().position);
      return out;
    }
    const S natural = JerkTrajectory<S>::eased_velocity(at, motion_.max_jerk);
    bool run_from_state = bool(lead);
    std::size_t run_start = first;
    S run_cap = lead ? lead->cap : sec.cap[first];
    Expected<JerkTrajectory<S>> run =
        lead ? Expected<JerkTrajectory<S>>(lead->move) : move_over(sec, first, first + 1, run_cap);
    if (!run) return make_error(run.error().code, "speed plan: " + run.error().message);
    for (std::size_t i = lead ? first : first + 1; i < n; ++i) {
      auto next = move_over(sec, i, i + 1, sec.cap[i]);
      if (!next) return make_error(next.error().code, "speed plan: " + next.error().message);
      const S lower = std::min(run_cap, sec.cap[i]);
      const bool start_inside = run_from_state
                                    ? inside(at.velocity, lower) && inside(natural, lower)
                                    : inside(v[run_start], lower);
      // (Both ends of the merged move inside the lower limit: it never exceeds it.)
      if (v[i] < lower * (S(1) - S(64) * detail::epsilon<S>()) && start_inside &&
          v[i + 1] <= lower) {
        std::optional<JerkTrajectory<S>> merged;
        if (run_from_state) {
          merged = forward_move(at, sec.x[i + 1], std::min(v[i + 1], lower), lower);
        } else if (auto m = move_over(sec, run_start, i + 1, lower)) {
          merged = std::move(*m);
        }
        if (merged && merged->duration() < run->duration() + next->duration()) {
          run = std::move(*merged);
          run_cap = lower;
          continue;
        }
      }
      out.push(*run, run->duration(), run->target().position);
      run = std::move(next);
      run_start = i;
      run_cap = sec.cap[i];
      run_from_state = false;
    }
    out.push(*run, run->duration(), run->target().position);
    return out;
  }

  const SpeedLimits<S>& limits_;
  const JerkLimits<S>& motion_;
  S plan_start_;
  S limit_;  // the velocity cap over which the head is over a limit
};

}  // namespace tractrix::detail
