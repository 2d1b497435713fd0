/// @file
/// `SpeedLimits`: the speed limits a driver reads from the line — signed sections, the
/// curvature the passengers feel, a slow zone held until the whole train has left it. Limits are
/// piecewise constant along the line, as railways sign them; `SpeedPlan` drives under them.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tractrix/core/expected.hpp"
#include "tractrix/core/numeric.hpp"

namespace tractrix {

/// A speed limit posted between two distances along the line: [start, end), start < end, a
/// positive and finite limit (SpeedLimits::with_zones checks them).
template <class S>
struct SpeedZone {
  S start = S(0);  ///< where the zone begins, a distance along the line
  S end = S(0);    ///< where it ends (not included)
  S limit = S(0);  ///< the speed allowed inside it, in the line's units per second
};

/// Limits a line's curvature sets (SpeedLimits::from_curvature), by name:
///
///     CurvatureLimits<double> curves;
///     curves.max_velocity = 30;          // m/s, the line's own limit
///     curves.lateral_acceleration = 0.8; // m/s², the most a passenger may feel sideways
///     curves.section_length = 20;        // m: one limit per section this long
template <class S>
struct CurvatureLimits {
  S max_velocity = S(0);  ///< the line's own limit (units per second), positive and finite
  /// the most sideways acceleration allowed, v²κ (units per second²), positive and finite
  S lateral_acceleration = S(0);
  S section_length = S(0);  ///< one limit per section this long (the last one shorter), > 0
  /// curvature samples a section, ends included: samples + 1 points; in [1, 1024]
  int samples = 8;
};

/// Limits a railway line's curvature and cant set (SpeedLimits::from_cant), by name: the
/// railway's v = sqrt(g R (D + I) / b), with D the cant leaning into the curve, I the cant
/// deficiency allowed and b the rail head distance.
///
///     CantLimits<double> cant;
///     cant.max_velocity = 44.4;      // m/s (160 km/h), the line's own limit
///     cant.cant_deficiency = 0.13;   // m: 130 mm
///     cant.section_length = 20;      // m: one limit per section this long
template <class S>
struct CantLimits {
  S max_velocity = S(0);     ///< the line's own limit (units per second), positive and finite
  S cant_deficiency = S(0);  ///< I, the cant deficiency allowed (length units), ≥ 0 and finite
  S gravity = S(9.80665);    ///< g, in the line's units per second² (9.80665 m/s² for metres)
  S section_length = S(0);   ///< one limit per section this long (the last one shorter), > 0
  /// curvature and cant sample a section, ends included: samples + 1 points; in [1, 1024]
  int samples = 8;
};

/// A piecewise-constant speed limit along [0, length]: sections [start(i), end(i)) with limit(i),
/// the first starting at 0, neighbours with different limits. Distances are in the line's units,
/// limits in those units per second. Immutable: with_zones and for_train return new limits.
template <class S>
class SpeedLimits {
 public:
  /// The line limit over the whole length: one section. Errors: out_of_range for a length or a
  /// max_velocity that is not positive and finite.
  static Expected<SpeedLimits> line(S length, S max_velocity) {
    if (!std::isfinite(length) || !(length > S(0)))
      return make_error(ErrorCode::out_of_range,
                        "speed limits: length " + detail::number_text(length) + " is not positive");
    if (!std::isfinite(max_velocity) || !(max_velocity > S(0)))
      return make_error(ErrorCode::out_of_range, "speed limits: max_velocity " +
                                                     detail::number_text(max_velocity) +
                                                     " is not positive and finite");
    return SpeedLimits({S(0)}, {max_velocity}, length);
  }

  /// The line limit lowered by a lateral-acceleration limit, v <= √(a_lat/κ), on a Track or a
  /// Route (anything with length(), sample(s, cursor) and curvature_vector(sample)): per section
  /// of `section_length` (the last one shorter) the lowest value over `samples` + 1 evenly
  /// spaced points of it, ends included; sections with the same limit are joined. The curvature
  /// is sampled, not bounded: a bend sharper between the samples than at them is missed (a
  /// section of a tenth of the tightest radius misses little). Errors (all out_of_range): line's,
  /// for the line's length and max_velocity; a lateral_acceleration not positive and finite; a
  /// section_length not positive and finite, or one that cuts the line into 1e8 sections or
  /// more; samples outside [1, 1024]; a curvature that leaves no speed (infinite at a kink, or so
  /// large that √(a_lat/κ) underflows), naming its section.
  template <class Line>
  static Expected<SpeedLimits> from_curvature(const Line& line_along,
                                              const CurvatureLimits<S>& curves) {
    return from_curvature_of(line_along, curves.max_velocity, curves.lateral_acceleration,
                             curves.section_length, curves.samples);
  }
  /// The line limit lowered by the railway's limit from curvature and cant on an Alignment (or
  /// anything with length(), sample(s, cursor), rail_head_distance() and samples with
  /// plan_curvature, cant_left and cant_right): v <= sqrt(g (D + I) / (b κ)), with κ the plan's
  /// curvature, D the cant (right − left rail) counted positive where it leans into the curve,
  /// I the cant deficiency allowed and b the rail head distance; per section, as
  /// from_curvature, the lowest over the section's samples. Errors (all out_of_range): line's;
  /// a cant_deficiency that is negative or not finite; a gravity not positive and finite; the
  /// section_length and samples errors of from_curvature; a section whose cant leans out of its
  /// curve by more than the deficiency allows (D + I ≤ 0 on a curve: nothing passes), naming it.
  template <class Line>
  static Expected<SpeedLimits> from_cant(const Line& alignment, const CantLimits<S>& limits) {
    if (!std::isfinite(limits.cant_deficiency) || !(limits.cant_deficiency >= S(0)))
      return make_error(ErrorCode::out_of_range, "speed limits: cant_deficiency " +
                                                     detail::number_text(limits.cant_deficiency) +
                                                     " is negative or not finite");
    if (!std::isfinite(limits.gravity) || !(limits.gravity > S(0)))
      return make_error(ErrorCode::out_of_range, "speed limits: gravity " +
                                                     detail::number_text(limits.gravity) +
                                                     " is not positive and finite");
    const S b = alignment.rail_head_distance();
    const auto at_point = [&](const auto& at) {
      using std::abs;
      using std::sqrt;
      const S kappa = abs(at.plan_curvature);
      if (!(kappa > S(0))) return limits.max_velocity;
      const S lean =
          at.plan_curvature > S(0) ? at.cant_right - at.cant_left : at.cant_left - at.cant_right;
      const S room = lean + limits.cant_deficiency;
      return room > S(0) ? sqrt(limits.gravity * room / (b * kappa)) : S(0);
    };
    return sectioned(alignment, limits.max_velocity, limits.section_length, limits.samples,
                     at_point, [&](S a, S e) {
                       return "speed limits: the cant in [" + detail::number_text(a) + ", " +
                              detail::number_text(e) +
                              ") leans out of its curve by more than "
                              "the cant_deficiency " +
                              detail::number_text(limits.cant_deficiency) + " allows";
                     });
  }

  /// Deprecated: 0.2's spelling, kept for one release; the same numbers in CurvatureLimits'
  /// order, with the same results and errors as from_curvature(line_along, curves).
  template <class Line>
  [[deprecated("pass a CurvatureLimits: the numbers by name")]] static Expected<SpeedLimits>
  from_curvature(const Line& line_along, S max_velocity, S lateral_acceleration, S section_length,
                 int samples = 8) {
    return from_curvature_of(line_along, max_velocity, lateral_acceleration, section_length,
                             samples);
  }

 private:
  template <class Line>
  static Expected<SpeedLimits> from_curvature_of(const Line& line_along, S max_velocity,
                                                 S lateral_acceleration, S section_length,
                                                 int samples) {
    if (!std::isfinite(lateral_acceleration) || !(lateral_acceleration > S(0))) {
      auto base = line(line_along.length(), max_velocity);
      if (!base) return base;
      return make_error(ErrorCode::out_of_range, "speed limits: lateral_acceleration " +
                                                     detail::number_text(lateral_acceleration) +
                                                     " is not positive and finite");
    }
    S sharpest = S(0);  // the curvature that left no speed, for the message
    const auto at_point = [&](const auto& at) {
      const S kappa = line_along.curvature_vector(at).stableNorm();
      using std::sqrt;
      const S limit =
          kappa > S(0) ? std::min(max_velocity, sqrt(lateral_acceleration / kappa)) : max_velocity;
      if (!(limit > S(0))) sharpest = kappa;
      return limit;
    };
    return sectioned(line_along, max_velocity, section_length, samples, at_point, [&](S a, S b) {
      return "speed limits: curvature " + detail::number_text(sharpest) + " in [" +
             detail::number_text(a) + ", " + detail::number_text(b) +
             ") leaves no speed under lateral_acceleration " +
             detail::number_text(lateral_acceleration) + " (a kink?)";
    });
  }

  // The line limit, lowered per section of `section_length` (the last one shorter) to the
  // lowest of at_point(sample) over `samples` + 1 evenly spaced points of it, ends included;
  // sections with the same limit joined. A section left no speed (a limit not > 0) is an error,
  // `no_speed(start, end)` its message.
  template <class Line, class AtPoint, class NoSpeed>
  static Expected<SpeedLimits> sectioned(const Line& line_along, S max_velocity, S section_length,
                                         int samples, AtPoint&& at_point, NoSpeed&& no_speed) {
    auto base = line(line_along.length(), max_velocity);
    if (!base) return base;
    const S length = line_along.length();
    if (!std::isfinite(section_length) || !(section_length > S(0)) ||
        !(length / section_length < S(1e8)))
      return make_error(ErrorCode::out_of_range,
                        "speed limits: section_length " + detail::number_text(section_length) +
                            " is not positive, or cuts the line into more than 1e8 sections");
    if (samples < 1 || samples > 1024)
      return make_error(
          ErrorCode::out_of_range,
          "speed limits: samples " + detail::number_text(samples) + " outside [1, 1024]");
    const auto count = static_cast<std::size_t>(std::ceil(length / section_length));
    std::vector<S> starts, limits;
    starts.reserve(count);
    limits.reserve(count);
    decltype(cursor_of(line_along)) cursor{};
    for (std::size_t i = 0; i < count; ++i) {
      const S a = S(static_cast<double>(i)) * section_length;
      const S b = std::min(length, a + section_length);
      S limit = max_velocity;
      for (int k = 0; k <= samples; ++k) {
        const S point_limit = at_point(line_along.sample(a + (b - a) * S(k) / S(samples), cursor));
        if (!(point_limit >= limit)) limit = point_limit;  // NaN too
      }
      // A kink (infinite curvature), or one so sharp that the limit underflows: nothing passes.
      if (!(limit > S(0))) return make_error(ErrorCode::out_of_range, no_speed(a, b));
      push_section(starts, limits, a, limit);
    }
    return SpeedLimits(std::move(starts), std::move(limits), length);
  }

 public:
  /// These limits lowered inside each zone (a zone never raises a limit). Zones may overlap and
  /// reach past the line's ends (clipped; a zone wholly off the line changes nothing). Errors:
  /// out_of_range, naming the zone's index, for a zone whose start or end is not finite, whose
  /// end is not after its start, or whose limit is not positive and finite.
  Expected<SpeedLimits> with_zones(const std::vector<SpeedZone<S>>& zones) const {
    std::vector<SpeedZone<S>> sections = as_zones();
    for (std::size_t i = 0; i < zones.size(); ++i) {
      const SpeedZone<S>& z = zones[i];
      if (!std::isfinite(z.start) || !std::isfinite(z.end) || !(z.end > z.start) ||
          !std::isfinite(z.limit) || !(z.limit > S(0)))
        return make_error(ErrorCode::out_of_range,
                          "speed zone " + detail::number_text(i) +
                              ": need start < end and a positive, finite limit (got " +
                              detail::number_text(z.start) + ", " + detail::number_text(z.end) +
                              ", " + detail::number_text(z.limit) + ")");
      sections.push_back(z);
    }
    return lowest_over(sections, S(0));
  }

  /// The limits for the head of a train `train_length` long: at head position s, the lowest over
  /// [s − train_length, s] — a limit holds until the last wagon has left its section (a section
  /// [a, b) reaches on to b + train_length). Errors: out_of_range for a train_length that is
  /// negative or not finite.
  Expected<SpeedLimits> for_train(S train_length) const {
    if (!std::isfinite(train_length) || !(train_length >= S(0)))
      return make_error(ErrorCode::out_of_range, "speed limits: train_length " +
                                                     detail::number_text(train_length) +
                                                     " is not finite and non-negative");
    return lowest_over(as_zones(), train_length);
  }

  /// The line's length (> 0).
  S length() const noexcept { return length_; }
  /// The number of sections (at least 1).
  std::size_t size() const noexcept { return starts_.size(); }
  /// Where section i starts (0 for the first); i < size(), unchecked.
  S start(std::size_t i) const noexcept { return starts_[i]; }
  /// Where section i ends: the next section's start, or length() for the last; i < size().
  S end(std::size_t i) const noexcept { return i + 1 < starts_.size() ? starts_[i + 1] : length_; }
  /// The limit of section i; i < size(), unchecked.
  S limit(std::size_t i) const noexcept { return limits_[i]; }
  /// The section holding s (clamped to the line; a section starting at s holds it; NaN: the
  /// first, as every query takes NaN for the start). O(log sections).
  std::size_t section_at(S s) const noexcept {
    if (std::isnan(s)) return 0;
    const auto upper = std::upper_bound(starts_.begin(), starts_.end(), s);
    return upper == starts_.begin() ? 0 : static_cast<std::size_t>(upper - starts_.begin()) - 1;
  }
  /// The limit at s (of section_at(s)). O(log sections).
  S at(S s) const noexcept { return limits_[section_at(s)]; }

 private:
  SpeedLimits(std::vector<S> starts, std::vector<S> limits, S length)
      : starts_(std::move(starts)), limits_(std::move(limits)), length_(length) {}

  // The cursor type of a Route (its Cursor) or a Track (std::size_t).
  template <class Line>
  static typename Line::Cursor cursor_of(const Line&);
  static std::size_t cursor_of(...);

  static void push_section(std::vector<S>& starts, std::vector<S>& limits, S start, S limit) {
    if (!limits.empty() && detail::exactly_equal(limits.back(), limit)) return;
    starts.push_back(start);
    limits.push_back(limit);
  }

  std::vector<SpeedZone<S>> as_zones() const {
    std::vector<SpeedZone<S>> zones;
    zones.reserve(size());
    for (std::size_t i = 0; i < size(); ++i)
      zones.push_back({start(i), end(i), limit(i)});
    return zones;
  }

  // The lowest limit of the zones covering [s − reach, s], at each s of the line: a sweep over
  // the zones' starts and their ends moved on by `reach`.
  Expected<SpeedLimits> lowest_over(const std::vector<SpeedZone<S>>& zones, S reach) const {
    std::vector<std::pair<S, std::size_t>> opens, closes;
    for (std::size_t i = 0; i < zones.size(); ++i) {
      // Only what reaches the line: every zone opens before it closes.
      if (!(zones[i].end + reach > S(0)) || !(zones[i].start < length_)) continue;
      opens.push_back({std::max(zones[i].start, S(0)), i});
      closes.push_back({zones[i].end + reach, i});
    }
    std::sort(opens.begin(), opens.end());
    std::sort(closes.begin(), closes.end());
    std::multiset<S> active;
    std::vector<S> starts, limits;
    std::size_t o = 0, c = 0;
    while (o < opens.size()) {
      const S at = std::min(opens[o].first,
                            c < closes.size() ? closes[c].first : std::numeric_limits<S>::max());
      if (!(at < length_)) break;
      for (; c < closes.size() && !(closes[c].first > at); ++c)
        erase_one(active, zones[closes[c].second].limit);
      for (; o < opens.size() && !(opens[o].first > at); ++o)
        active.insert(zones[opens[o].second].limit);
      if (!active.empty()) push_section(starts, limits, at, *active.begin());
    }
    for (; c < closes.size() && closes[c].first < length_; ++c) {
      const S at = closes[c].first;
      erase_one(active, zones[closes[c].second].limit);
      if (c + 1 < closes.size() && !(closes[c + 1].first > at)) continue;
      if (!active.empty()) push_section(starts, limits, at, *active.begin());
    }
    return SpeedLimits(std::move(starts), std::move(limits), length_);
  }

  static void erase_one(std::multiset<S>& active, S limit) {
    const auto it = active.find(limit);
    if (it != active.end()) active.erase(it);
  }

  std::vector<S> starts_;
  std::vector<S> limits_;
  S length_;
};

}  // namespace tractrix
