/// @file
/// `HeadPosition`: a train's head distance advanced frame by frame (speed · dt) without growing.
#pragma once

#include <cmath>
#include <limits>

#include "tractrix/core/loop_distance.hpp"
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
      const S distance = head_.distance, low = low_;
      add(delta);
      if (!std::isfinite(head_.distance) || !std::isfinite(low_))
        head_.distance = distance, low_ = low;
      return;
    }
    // A step of a length or more: its whole laps are counted, not added. fmod is exact, so the
    // head gets the remainder (under a length), and no sum at the step's magnitude rounds the
    // carry away (a float jump of 10⁷ laps and more drifted by ulps of the length).
    using std::abs;
    if (!(abs(delta) < length_)) {
      const S rest = std::fmod(delta, length_);
      head_ = head_.plus_laps(LoopDistance<S>::laps_between(delta, rest, length_));
      delta = rest;
    }
    add(delta);
    // Crossing the seam: one addition of the length, its rounding carried. Forwards first: a
    // head that rounded onto length with a negative carry lies before the seam and comes back.
    if (head_.distance >= length_) {
      add(-length_);
      head_ = head_.plus_laps(1);
    }
    if (head_.distance < S(0)) {
      add(length_);
      head_ = head_.plus_laps(-1);
    }
    // A head within rounding below the seam rounds onto length: it is kept at the last distance
    // below, the difference carried (snapping it to 0 lost every step a slow reverse took).
    if (head_.distance >= length_) {
      const S below = std::nextafter(length_, S(0));
      low_ += head_.distance - below;
      head_.distance = below;
    }
  }

  /// The head to pass to TrainSolver::solve: in [0, length) on a loop.
  S distance() const noexcept { return head_.distance; }
  /// Whole laps completed (negative when backed up past the start; saturated at
  /// ±LoopDistance::most_laps); 0 on open track.
  long long lap() const noexcept { return head_.lap; }
  /// The head and its laps together.
  LoopDistance<S> loop_distance() const noexcept { return head_; }

 private:
  // head_.distance + low_ is the head exactly (up to the rounding of low_ itself, ulps of an ulp).
  void add(S x) noexcept {
    const S sum = head_.distance + x;
    low_ += detail::rounding_of_sum(head_.distance, x, sum);
    // Renormalized: head_.distance the rounded head, low_ what is left (within half an ulp of it).
    const S folded = sum + low_;
    low_ = detail::rounding_of_sum(sum, low_, folded);
    head_.distance = folded;
  }

  S length_;
  bool closed_;
  LoopDistance<S> head_;  // the rounded head, and its laps on a loop
  S low_ = S(0);
};

}  // namespace tractrix
