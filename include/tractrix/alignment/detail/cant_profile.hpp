/// @file
/// Internal: CantLayout's data, its build and its query.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "tractrix/alignment/cant_segment.hpp"
#include "tractrix/alignment/detail/run_search.hpp"
#include "tractrix/alignment/detail/transition_shape.hpp"
#include "tractrix/core/expected.hpp"
#include "tractrix/core/field_checks.hpp"
#include "tractrix/core/numeric.hpp"

namespace tractrix::detail {

template <class S>
struct CantData {
  std::vector<CantSegment<S>> segments;
  std::vector<std::size_t> runs;  // the segments of positive length
  std::vector<S> run_starts;
  S rail_head_distance;
};

inline TransitionShape cant_shape(CantType type) noexcept {
  switch (type) {
    case CantType::constant_cant:
      return TransitionShape::constant;
    case CantType::linear_transition:
      return TransitionShape::linear;
    case CantType::helmert_curve:
      return TransitionShape::helmert;
    case CantType::bloss_curve:
      return TransitionShape::bloss;
    case CantType::cosine_curve:
      return TransitionShape::cosine;
    case CantType::sine_curve:
      return TransitionShape::sine;
    case CantType::viennese_bend:
      return TransitionShape::viennese;
  }
  return TransitionShape::linear;
}

// The bank angle of rail elevations `left` and `right` b apart (their difference within ±b).
template <class S>
S bank_of(S left, S right, S b) noexcept {
  using std::asin;
  return asin(std::min(std::max((right - left) / b, S(-1)), S(1)));
}

// The rail elevations and the sine of the bank angle (what frames need; the angle is an asin
// away).
template <class S>
struct CantState {
  S left, right, sine;
  CantPoint<S> point() const noexcept {
    using std::asin;
    return {left, right, asin(sine)};
  }
};

// A segment's cant at fraction xi of its length. The Viennese bend moves the bank angle and the
// centre's elevation by its shape; the others each rail's elevation.
template <class S>
CantState<S> segment_cant(const CantSegment<S>& g, S b, S xi) noexcept {
  const S f = S(transition_fraction(cant_shape(g.type), double(xi)));
  if (g.type != CantType::viennese_bend) {
    const S left = g.start_cant_left + f * (g.end_cant_left - g.start_cant_left),
            right = g.start_cant_right + f * (g.end_cant_right - g.start_cant_right);
    return {left, right, std::min(std::max((right - left) / b, S(-1)), S(1))};
  }
  const S bank0 = bank_of(g.start_cant_left, g.start_cant_right, b),
          bank1 = bank_of(g.end_cant_left, g.end_cant_right, b);
  const S centre0 = S(0.5) * (g.start_cant_left + g.start_cant_right),
          centre1 = S(0.5) * (g.end_cant_left + g.end_cant_right);
  const S bank = bank0 + f * (bank1 - bank0), centre = centre0 + f * (centre1 - centre0);
  using std::sin;
  const S sine = sin(bank), half_rise = S(0.5) * b * sine;
  return {centre - half_rise, centre + half_rise, sine};
}

inline std::string cant_name(std::size_t i, CantType type) {
  return "cant segment " + std::to_string(i) + " (" + to_string(type) + ")";
}

template <class S>
Expected<bool> check_cant_segment(std::size_t i, const CantSegment<S>& g, S b) {
  const std::string name = cant_name(i, g.type);
  const std::pair<const char*, S> fields[] = {
      {"start_distance", g.start_distance},     {"horizontal_length", g.horizontal_length},
      {"start_cant_left", g.start_cant_left},   {"end_cant_left", g.end_cant_left},
      {"start_cant_right", g.start_cant_right}, {"end_cant_right", g.end_cant_right}};
  if (auto error = non_finite_field(name, fields)) return std::move(*error);
  if (g.horizontal_length < S(0))
    return make_error(
        ErrorCode::out_of_range,
        name + ": horizontal_length " + number_text(g.horizontal_length) + " is negative");
  using std::abs;
  for (const auto& [where, left, right] :
       {std::tuple<const char*, S, S>{"start", g.start_cant_left, g.start_cant_right},
        std::tuple<const char*, S, S>{"end", g.end_cant_left, g.end_cant_right}})
    if (!(abs(right - left) <= b))
      return make_error(ErrorCode::out_of_range,
                        name + ": at its " + where + " the rails differ by " +
                            number_text(right - left) + ", more than the rail head distance " +
                            number_text(b));
  if (g.type == CantType::constant_cant && (!exactly_equal(g.start_cant_left, g.end_cant_left) ||
                                            !exactly_equal(g.start_cant_right, g.end_cant_right)))
    return make_error(ErrorCode::out_of_range,
                      name + ": a constant cant's end values differ from its start values");
  return true;
}

template <class S>
Expected<CantData<S>> build_cant(S rail_head_distance, const std::vector<CantSegment<S>>& segments,
                                 double relative_gap) {
  if (!(rail_head_distance > S(0)) || !std::isfinite(rail_head_distance))
    return make_error(ErrorCode::out_of_range, "cant layout: rail_head_distance " +
                                                   number_text(rail_head_distance) +
                                                   " is not a finite number > 0");
  if (segments.empty()) return make_error(ErrorCode::empty_input, "cant layout: no segments");
  if (auto error = bad_tolerance<S>("cant layout: tolerance", {{"relative_gap", relative_gap}}))
    return std::move(*error);
  CantData<S> data{segments, {}, {}, rail_head_distance};
  using std::abs;
  S scale = rail_head_distance;
  for (const auto& g : segments)
    scale = std::max({scale, abs(g.start_distance), abs(g.start_distance + g.horizontal_length)});
  const S gap =
      S(relative_gap > 0 ? relative_gap : std::max(1e-9, 64.0 * double(epsilon<S>()))) * scale;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const auto valid = check_cant_segment(i, segments[i], rail_head_distance);
    if (!valid) return valid.error();
    if (i > 0) {
      const CantSegment<S>& before = segments[i - 1];
      const CantState<S> end = segment_cant(before, rail_head_distance, S(1));
      const S at = before.start_distance + before.horizontal_length;
      const std::string name = cant_name(i, segments[i].type);
      if (!(abs(segments[i].start_distance - at) <= gap))
        return make_error(ErrorCode::not_continuous,
                          name + " starts at distance " + number_text(segments[i].start_distance) +
                              ", where the one before ends at " + number_text(at));
      if (!(abs(segments[i].start_cant_left - end.left) <= gap) ||
          !(abs(segments[i].start_cant_right - end.right) <= gap))
        return make_error(ErrorCode::not_continuous,
                          name + " starts at cant " + number_text(segments[i].start_cant_left) +
                              " left, " + number_text(segments[i].start_cant_right) +
                              " right; the one before ends at " + number_text(end.left) + ", " +
                              number_text(end.right));
    }
    if (segments[i].horizontal_length > S(0)) {
      data.runs.push_back(i);
      data.run_starts.push_back(segments[i].start_distance);
    }
  }
  if (data.runs.empty())
    return make_error(ErrorCode::out_of_range, "cant layout: its horizontal length is 0");
  return data;
}

template <class S>
CantState<S> cant_at(const CantData<S>& data, S distance, std::size_t& hint) noexcept {
  if (std::isnan(distance)) distance = data.run_starts.front();
  const CantSegment<S>& g = data.segments[data.runs[run_of(data.run_starts, distance, hint)]];
  const S xi = clamp_or_low((distance - g.start_distance) / g.horizontal_length, S(0), S(1));
  return segment_cant(g, data.rail_head_distance, xi);
}

}  // namespace tractrix::detail
