// TrainSolver: wagons chained along a track (the seed's TrainDriver, without its bugs).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tractrix/train/track.hpp"
#include "tractrix/train/wagon.hpp"

namespace tractrix {

// What happens past the ends of the track. automatic: circular on a loop, clamp on open track.
enum class Wrap { automatic, circular, clamp, extend };
// How bogies are spaced: chord (rigid bodies: straight-line distances) or arc (the seed's way:
// distances along the track).
enum class Spacing { chord, arc };

struct TrainOptions {
  Wrap wrap = Wrap::automatic;
  Spacing spacing = Spacing::chord;
};

template <class S>
class TrainSolver {
 public:
  // Checks every wagon (finite, 0 < bogie_distance <= length, overhang >= 0) and, for chord
  // spacing on a loop, that each chord has a solution at 256 evenly spaced positions.
  static Expected<TrainSolver> build(Track<S> track, std::vector<Wagon<S>> wagons,
                                     TrainOptions options = {}) {
    if (options.wrap == Wrap::automatic)
      options.wrap = track.closed() ? Wrap::circular : Wrap::clamp;
    if (track.closed() != (options.wrap == Wrap::circular))
      return make_error(ErrorCode::out_of_range, track.closed()
                                                     ? "wrap: a closed track is always circular"
                                                     : "wrap: circular needs a closed track");
    for (std::size_t i = 0; i < wagons.size(); ++i) {
      const Wagon<S>& w = wagons[i];
      const std::string name = "wagon " + std::to_string(i) + ": ";
      if (!std::isfinite(w.length) || !std::isfinite(w.bogie_distance) ||
          !std::isfinite(w.front_overhang))
        return make_error(ErrorCode::non_finite,
                          name + "non-finite length, bogie_distance or front_overhang");
      if (!(w.bogie_distance > S(0)))
        return make_error(
            ErrorCode::out_of_range,
            name + "bogie_distance " + std::to_string(w.bogie_distance) + " is not positive");
      if (w.bogie_distance > w.length)
        return make_error(ErrorCode::out_of_range,
                          name + "bogie_distance " + std::to_string(w.bogie_distance) +
                              " exceeds length " + std::to_string(w.length));
      if (w.front_overhang < S(0))
        return make_error(
            ErrorCode::out_of_range,
            name + "front_overhang " + std::to_string(w.front_overhang) + " is negative");
    }
    TrainSolver solver(std::move(track), std::move(wagons), options);
    if (options.spacing == Spacing::chord && solver.track_.closed()) {
      for (std::size_t i = 0; i < solver.wagons_.size(); ++i) {
        const Wagon<S>& w = solver.wagons_[i];
        for (const S chord : {w.bogie_distance, w.length - w.bogie_distance}) {
          if (!(chord > S(0))) continue;
          if (!solver.chord_solvable(chord))
            return make_error(ErrorCode::no_solution,
                              "wagon " + std::to_string(i) + ": bogie chord " +
                                  std::to_string(chord) +
                                  " has no solution on this track (longer than the track allows)");
        }
      }
    }
    return solver;
  }

  // The seed's "Spline Position" (a fraction of the track, may exceed 1) as a head distance.
  static S head_distance_from_normalized(S spline_position, S track_length) noexcept {
    return spline_position * track_length;
  }

  const Track<S>& track() const noexcept { return track_; }
  const std::vector<Wagon<S>>& wagons() const noexcept { return wagons_; }
  const TrainOptions& options() const noexcept { return options_; }

  // One pose per wagon; the locomotive's front bogie at head_distance (world units), wagons behind.
  std::vector<WagonPose<S>> solve(S head_distance) const {
    std::vector<WagonPose<S>> poses(wagons_.size());
    solve(head_distance, poses.data());
    return poses;
  }

  // Into a caller-owned buffer of wagons().size() poses; never allocates. Stateless: the same head
  // distance always gives the same poses. A non-finite head distance is treated as 0.
  void solve(S head_distance, WagonPose<S>* out) const noexcept {
    const S length = track_.length();
    const bool loop = track_.closed();
    if (!std::isfinite(head_distance)) head_distance = S(0);
    // Loops keep distances in [0, length) and count whole laps apart: 1000 laps lose no precision,
    // and no sample pays for fmod.
    long long lap = 0;
    S front = head_distance;
    if (loop) {
      front = wrap(head_distance, length);
      // Whole laps, saturated: a head 1e300 track lengths away has no representable lap count.
      const S laps = std::round((head_distance - front) / length);
      const S limit = S(4e18);
      lap = laps > limit    ? 4000000000000000000LL
            : laps < -limit ? -4000000000000000000LL
                            : static_cast<long long>(laps);
    }
    auto keep_on_loop = [length](S s, long long& laps) {
      while (s < S(0))
        s += length, --laps;
      while (s >= length)
        s -= length, ++laps;
      return s;
    };
    std::size_t cursor = 0;
    Sample next;
    bool have_next = false;
    for (std::size_t i = 0; i < wagons_.size(); ++i) {
      const Wagon<S>& wagon = wagons_[i];
      WagonPose<S>& pose = out[i];
      front = loop ? keep_on_loop(front, lap) : place(front);
      // With chord spacing the previous chord solve already sampled this front bogie.
      const Sample f = have_next ? next : at(front, cursor);
      Sample r;
      S rear;
      if (options_.spacing == Spacing::arc) {
        rear = place(front - wagon.bogie_distance);
        r = at(rear, cursor);
      } else {
        rear = chord_behind(front, f.point, wagon.bogie_distance, cursor, r);
      }
      long long rear_lap = lap;
      if (loop) rear = keep_on_loop(rear, rear_lap);
      const bool constant_up = track_.up_source().is_constant();
      const Vector3<S>& world_up = track_.up_source().world_up();
      detail::look_at_unit(pose.front, f.point, f.tangent,
                           constant_up ? world_up : track_.up_at(front, f.point, f.tangent));
      detail::look_at_unit(pose.rear, r.point, r.tangent,
                           constant_up ? world_up : track_.up_at(rear, r.point, r.tangent));
      Vector3<S> body_forward = f.point - r.point;
      if (!(body_forward.norm() > S(0))) body_forward = f.tangent;
      const Vector3<S> body_up = constant_up ? world_up : body_middle_up(front, rear, cursor);
      detail::look_at(pose.body, f.point, body_forward, body_up);
      pose.body_midpoint = S(0.5) * (f.point + r.point);
      pose.coupler = f.point + wagon.front_overhang * pose.body.forward();
      pose.front_distance = front;
      pose.rear_distance = rear;
      pose.lap = loop ? lap : 0;
      // The next wagon's front bogie: from this front (arc) or behind this rear bogie (chord).
      const S gap = wagon.length - wagon.bogie_distance;
      if (options_.spacing == Spacing::arc) {
        front -= wagon.length;
      } else {
        if (gap > S(0)) {
          front = chord_behind(rear, r.point, gap, cursor, next);
        } else {
          front = rear;
          next = r;
        }
        lap = rear_lap;
        have_next = true;
      }
    }
  }

 private:
  TrainSolver(Track<S> track, std::vector<Wagon<S>> wagons, TrainOptions options)
      : track_(std::move(track)), wagons_(std::move(wagons)), options_(options) {}

  // Distances are kept unwrapped on loops (wrapped when sampled); clamp mode holds them on track.
  S place(S s) const noexcept {
    if (options_.wrap == Wrap::clamp) return clamp_or_low(s, S(0), track_.length());
    return s;
  }

  using Sample = typename Track<S>::Sample;

  Sample at(S s, std::size_t& cursor) const noexcept {
    return options_.wrap == Wrap::extend ? track_.sample_extended(s, cursor)
                                         : track_.sample(s, cursor);
  }

  Vector3<S> body_middle_up(S front, S rear, std::size_t& cursor) const noexcept {
    // On a loop the rear may sit just behind the seam: take the middle of the short way.
    if (track_.closed() && rear > front) rear -= track_.length();
    const S middle = S(0.5) * (front + rear);
    std::size_t middle_cursor = cursor;
    const auto m = at(middle, middle_cursor);
    return track_.up_at(middle, m.point, m.tangent);
  }

  // The first distance s behind `from` (at point p) where the track point is `chord` away from p:
  // Newton on g(s) = |P(s) − p|² − chord² stepping back from from − chord (an arc is never shorter
  // than its chord, so g <= 0 there), bracketed once g changes sign. Falls back to arc spacing
  // when no solution lies within one track length (build() rules that out on loops), and stops at
  // 0 in clamp mode.
  S chord_behind(S from, const Vector3<S>& p, S chord, std::size_t& cursor,
                 Sample& found) const noexcept {
    const S length = track_.length();
    const S arc_guess = from - chord;
    S hi = arc_guess, lo = S(0);
    bool bracketed = false;
    S s = arc_guess;
    const S tolerance = S(2) * chord * S(4) * epsilon<S>() * length;  // |g| = |c − d|(c + d)
    for (int iteration = 0; iteration < 40; ++iteration) {
      if (options_.wrap == Wrap::clamp && s < S(0)) {
        found = at(S(0), cursor);
        if ((found.point - p).squaredNorm() <= chord * chord) return S(0);  // chord ends off track
        s = S(0);
      }
      found = at(s, cursor);
      const Vector3<S> diff = found.point - p;
      const S g = diff.squaredNorm() - chord * chord;
      using std::abs;
      if (abs(g) <= tolerance) return s;
      if (g < S(0))
        hi = s;
      else
        lo = s, bracketed = true;
      const S slope = S(2) * diff.dot(found.tangent);  // dg/ds
      S next = slope < S(0) ? s - g / slope : s - chord;
      if (bracketed && !(next > lo && next < hi)) next = S(0.5) * (lo + hi);
      if (!bracketed && next > hi) next = hi - chord;
      if (!bracketed && from - next > length) {
        found = at(place(arc_guess), cursor);
        return place(arc_guess);
      }
      if (next == s) return s;
      s = next;
    }
    found = at(s, cursor);
    return s;
  }

  bool chord_solvable(S chord) const noexcept {
    const S length = track_.length();
    std::size_t cursor = 0;
    for (int k = 0; k < 256; ++k) {
      const S s = length * S(k) / S(256);
      const Vector3<S> p = at(s, cursor).point;
      Sample rear;
      chord_behind(s, p, chord, cursor, rear);
      const S error = (rear.point - p).norm() - chord;
      using std::abs;
      if (!(abs(error) <= S(1e-6) * length)) return false;
    }
    return true;
  }

  Track<S> track_;
  std::vector<Wagon<S>> wagons_;
  TrainOptions options_;
};

}  // namespace tractrix
