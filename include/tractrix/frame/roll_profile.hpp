/// @file
/// `RollProfile`: roll angles keyed by distance along a path (cant, superelevation, dutch
/// angle).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "tractrix/core/cubic_hermite.hpp"
#include "tractrix/core/expected.hpp"
#include "tractrix/core/numeric.hpp"

namespace tractrix {

/// Roll angles (radians) keyed by distance: C¹ interpolation of (distance, angle) keys by cubic
/// Hermite pieces whose slopes are the mean of the neighbouring secant slopes. Angles are used as
/// given, never wrapped to ±π: keys 0, π, 2π are a full roll. On a closed track (period > 0) the
/// profile repeats with the period; the piece from the last key to the first key of the next lap
/// ends at the first angle plus the whole turns of (last − first), so a profile that rolls 2π per
/// lap goes on rolling instead of rolling back. Before the first and after the last key of an
/// open profile the angle is held: C¹ between its end keys (their slopes are the end secants), C⁰
/// at them, where the rate drops to 0.
template <class S>
class RollProfile {
 public:
  /// A profile through the keys (distances[i], angles[i]); `period` 0 for open track, else the
  /// closed track's length. Errors: empty_input for no keys, mismatched_sizes for arrays of
  /// different lengths, non_finite for a NaN or infinite key, out_of_range for a negative or
  /// non-finite period, distances not strictly ascending, or keys spanning a whole period or
  /// more.
  static Expected<RollProfile> build(std::vector<S> distances, std::vector<S> angles,
                                     S period = S(0)) {
    if (distances.empty()) return make_error(ErrorCode::empty_input, "roll keys: empty");
    if (distances.size() != angles.size())
      return make_error(ErrorCode::mismatched_sizes,
                        "roll angles: " + detail::number_text(angles.size()) + " for " +
                            detail::number_text(distances.size()) + " distances");
    if (!std::isfinite(period) || period < S(0))
      return make_error(ErrorCode::out_of_range, "roll period: " + detail::number_text(period));
    for (std::size_t i = 0; i < distances.size(); ++i) {
      if (!std::isfinite(distances[i]) || !std::isfinite(angles[i]))
        return make_error(ErrorCode::non_finite,
                          "roll key " + detail::number_text(i) + ": non-finite");
      if (i > 0 && !(distances[i] > distances[i - 1]))
        return make_error(ErrorCode::out_of_range,
                          "roll key " + detail::number_text(i) + ": distance " +
                              detail::number_text(distances[i]) + " not after " +
                              detail::number_text(distances[i - 1]));
    }
    // The closing key, front + period, must land after the last key as rounded too: a span an
    // ulp short of the period could round it onto the last (an interval of length 0: an infinite
    // slope, and NaN angles).
    if (period > S(0) && !(distances.back() - distances.front() < period))
      return make_error(ErrorCode::out_of_range, "roll keys: span not shorter than the period " +
                                                     detail::number_text(period));
    if (period > S(0) && !(distances.front() + period > distances.back()))
      return make_error(ErrorCode::out_of_range,
                        "roll keys: the first key plus the period " + detail::number_text(period) +
                            " rounds onto the last key, at " +
                            detail::number_text(distances.back()) +
                            " (the span is shorter by less than its rounding)");
    RollProfile profile;
    profile.period_ = period;
    if (period > S(0)) {
      // One key of the next lap closes the loop; the slopes then see both neighbours.
      using std::round;
      const S turn = S(2) * detail::pi<S>();
      const S turns = round((angles.back() - angles.front()) / turn);
      distances.push_back(distances.front() + period);
      angles.push_back(angles.front() + turns * turn);
    }
    profile.distances_ = std::move(distances);
    profile.angles_ = std::move(angles);
    profile.slopes_ = slopes(profile.distances_, profile.angles_, period > S(0));
    return profile;
  }

  /// Roll angle at distance s (radians): wrapped into the period on a closed profile, held at
  /// the end keys' angles beyond an open one's; a NaN s gives the first key's angle.
  S angle_at(S s) const noexcept {
    const std::size_t n = distances_.size();
    if (n == 1) return angles_[0];
    if (period_ > S(0)) {
      // Into [first, first + period): whole turns gained per lap are whole rotations, invisible.
      s = distances_[0] + detail::wrap(s - distances_[0], period_);
    } else {
      if (!(s > distances_.front())) return angles_.front();
      if (s >= distances_.back()) return angles_.back();
    }
    return detail::cubic_hermite(distances_, angles_, slopes_, s).value;
  }

  /// The keys' distances, ascending; a closed profile's end with its closing key, the first
  /// distance plus the period.
  const std::vector<S>& distances() const noexcept { return distances_; }
  /// The keys' angles (radians); a closed profile's end with the closing key's, the first angle
  /// plus the whole turns of the last.
  const std::vector<S>& angles() const noexcept { return angles_; }

 private:
  // Made by build(): a default one has no keys, and its queries would read past them.
  RollProfile() = default;
  static std::vector<S> slopes(const std::vector<S>& d, const std::vector<S>& a, bool periodic) {
    const std::size_t n = d.size();
    std::vector<S> m(n, S(0));
    if (n < 2) return m;
    auto secant = [&](std::size_t i) { return (a[i + 1] - a[i]) / (d[i + 1] - d[i]); };
    for (std::size_t i = 0; i < n; ++i) {
      if (i == 0 || i + 1 == n) {
        if (periodic) {
          // Key 0 and the closing key are the same point one lap apart: same slope.
          m[i] = (secant(0) + secant(n - 2)) / S(2);
        } else {
          m[i] = i == 0 ? secant(0) : secant(n - 2);
        }
      } else {
        m[i] = (secant(i - 1) + secant(i)) / S(2);
      }
    }
    return m;
  }

  std::vector<S> distances_, angles_, slopes_;
  S period_ = S(0);
};

}  // namespace tractrix
