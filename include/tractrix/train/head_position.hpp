// HeadPosition: a train's head distance advanced frame by frame (speed · dt) without growing. A
// game that adds 0.025 to a float head every frame stalls once the head passes ~4e5 (the step is
// below half an ulp); on a loop this keeps the distance in [0, length) and counts the laps.
#pragma once

#include <cmath>

#include "tractrix/core/numeric.hpp"
#include "tractrix/train/track.hpp"

namespace tractrix {

template <class S>
class HeadPosition {
 public:
  // A head at `distance` along `track` (wrapped into [0, length) on a loop; kept as given on open
  // track, where the TrainSolver's Wrap mode clamps or extends it).
  explicit HeadPosition(const Track<S>& track, S distance = S(0)) noexcept
      : length_(track.length()), closed_(track.closed()) {
    advance(distance);
  }

  // Moves the head by `delta` (negative backs it up). The head is kept as a rounded distance
  // plus what rounding took from it, so after any number of steps it is the correctly rounded
  // sum of the deltas (wrapped), not that sum less a half-ulp per step. A non-finite delta is
  // ignored: the head stays where it was.
  void advance(S delta) noexcept {
    if (!std::isfinite(delta)) return;
    add(delta);
    // Whole laps off: one exact subtraction for the usual single crossing; a second pass only
    // where rounding lands on the boundary.
    for (int pass = 0; closed_ && pass < 3 && !(distance_ >= S(0) && distance_ < length_); ++pass) {
      const S laps = std::floor(distance_ / length_);  // nonzero: distance_ is outside the lap
      const S off = laps * length_;
      add(-off);
      add(-std::fma(laps, length_, -off));  // the product's rounding, for jumps of many laps
      lap_ += saturated_lap_count(laps);
    }
  }

  // The head to pass to TrainSolver::solve: in [0, length) on a loop.
  S distance() const noexcept { return distance_; }
  // Whole laps completed (negative when backed up past the start); 0 on open track.
  long long lap() const noexcept { return lap_; }

 private:
  // distance_ + low_ is the head exactly (up to the rounding of low_ itself, ulps of an ulp).
  void add(S x) noexcept {
    const S sum = distance_ + x;
    low_ += rounding_of_sum(distance_, x, sum);
    // Renormalized: distance_ the rounded head, low_ what is left (within half an ulp of it).
    const S folded = sum + low_;
    low_ = rounding_of_sum(sum, low_, folded);
    distance_ = folded;
  }

  S length_;
  bool closed_;
  S distance_ = S(0);
  S low_ = S(0);
  long long lap_ = 0;
};

}  // namespace tractrix
