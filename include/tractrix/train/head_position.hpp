/// @file
/// `HeadPosition`: a train's head distance advanced frame by frame (speed · dt) without growing.
#pragma once

#include <cmath>
#include <limits>

#include "tractrix/core/numeric.hpp"
#include "tractrix/train/track.hpp"

namespace tractrix {

/// A train's head distance, advanced frame by frame. A game that adds 0.025 to a float head every
/// frame stalls once the head passes 2^19 ≈ 5.2e5 (the step is below half an ulp); on a loop this
/// keeps the distance in [0, length) and counts laps, and carries each step's rounding.
template <class S>
class HeadPosition {
 public:
  /// A head at `distance` along `track` (wrapped into [0, length) on a loop; kept as given on open
  /// track, where the TrainSolver's Wrap mode clamps or extends it).
  explicit HeadPosition(const Track<S>& track, S distance = S(0)) noexcept
      : length_(track.length()), closed_(track.closed()) {
    advance(distance);
  }

  /// Moves the head by `delta` (negative backs it up). The head is kept as a rounded distance
  /// plus what rounding took from it, so after any number of steps it is the correctly rounded
  /// sum of the deltas (wrapped), not that sum less a half-ulp per step. A non-finite delta is
  /// ignored, and so is one whose sum overflows on open track: the head stays where it was.
  void advance(S delta) noexcept {
    if (!std::isfinite(delta)) return;
    if (!closed_) {
      const S distance = distance_, low = low_;
      add(delta);
      if (!std::isfinite(distance_) || !std::isfinite(low_)) distance_ = distance, low_ = low;
      return;
    }
    // A step of a length or more: its whole laps are counted, not added. fmod is exact, so the
    // head gets the remainder (under a length), and no sum at the step's magnitude rounds the
    // carry away (a float jump of 10⁷ laps and more drifted by ulps of the length).
    using std::abs;
    if (!(abs(delta) < length_)) {
      const S rest = std::fmod(delta, length_);
      lap_ = add_laps(lap_, detail::laps_between(delta, rest, length_));
      delta = rest;
    }
    add(delta);
    // Crossing the seam: one addition of the length, its rounding carried. Forwards first: a
    // head that rounded onto length with a negative carry lies before the seam and comes back.
    if (distance_ >= length_) {
      add(-length_);
      lap_ = add_laps(lap_, 1);
    }
    if (distance_ < S(0)) {
      add(length_);
      lap_ = add_laps(lap_, -1);
    }
    // A head within rounding below the seam rounds onto length: it is kept at the last distance
    // below, the difference carried (snapping it to 0 lost every step a slow reverse took).
    if (distance_ >= length_) {
      const S below = std::nextafter(length_, S(0));
      low_ += distance_ - below;
      distance_ = below;
    }
  }

  /// The head to pass to TrainSolver::solve: in [0, length) on a loop.
  S distance() const noexcept { return distance_; }
  /// Whole laps completed (negative when backed up past the start); 0 on open track.
  long long lap() const noexcept { return lap_; }

 private:
  static long long add_laps(long long laps, long long more) noexcept {
    const long long most = std::numeric_limits<long long>::max();
    if (more > 0 && laps > most - more) return most;
    if (more < 0 && laps < -most - more) return -most;
    return laps + more;
  }

  // distance_ + low_ is the head exactly (up to the rounding of low_ itself, ulps of an ulp).
  void add(S x) noexcept {
    const S sum = distance_ + x;
    low_ += detail::rounding_of_sum(distance_, x, sum);
    // Renormalized: distance_ the rounded head, low_ what is left (within half an ulp of it).
    const S folded = sum + low_;
    low_ = detail::rounding_of_sum(sum, low_, folded);
    distance_ = folded;
  }

  S length_;
  bool closed_;
  S distance_ = S(0);
  S low_ = S(0);
  long long lap_ = 0;
};

}  // namespace tractrix
