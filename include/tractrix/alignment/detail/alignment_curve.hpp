/// @file
/// Internal: Alignment's data, its build, and the 3-D curve's point, tangent, up, curvature and
/// rail heads from the plan, the profile and the cant at one distance along the horizontal.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "tractrix/alignment/alignment_layouts.hpp"
#include "tractrix/alignment/cant.hpp"
#include "tractrix/alignment/horizontal.hpp"
#include "tractrix/alignment/vertical.hpp"
#include "tractrix/core/expected.hpp"
#include "tractrix/core/numeric.hpp"

namespace tractrix::detail {

// What the alignment reads of its layouts' data without their faces' per-query checks.
struct LayoutAccess {
  template <class S>
  static const CantData<S>& data(const CantLayout<S>& cant) noexcept {
    return *cant.data_;
  }
};

template <class S>
struct AlignmentSample {
  Vector3<S> point;          ///< x east, y north, z up
  Vector3<S> tangent;        ///< unit, along the 3-D curve
  S horizontal_distance;     ///< along the horizontal layout from its start
  Vector2<S> plan_tangent;   ///< the horizontal layout's unit tangent
  S plan_curvature;          ///< the horizontal layout's signed curvature (> 0 turning left)
  S gradient;                ///< dz/dx
  S gradient_rate;           ///< d²z/dx²
  S bank_sine, bank_cosine;  ///< of the cant's bank angle ψ (> 0 leaning left)
  S cant_left, cant_right;   ///< the rail heads' elevations
};

template <class S>
struct AlignmentData {
  HorizontalLayout<S> horizontal;
  std::optional<VerticalLayout<S>> vertical;
  std::optional<CantLayout<S>> cant;
  S start_station, rail_head_distance;
  S profile_origin = S(0);  // the profile's length at x = 0
  S length = S(0), coordinate_scale = S(0);
  Vector3<S> world_up = Vector3<S>::UnitZ();
  std::vector<S> knots;

  S length_at_horizontal(S x) const noexcept {
    return vertical ? vertical->profile_length(x) - profile_origin : x;
  }
  S horizontal_at_length_extended(S s, std::size_t& cursor) const noexcept {
    return vertical ? vertical->distance_at_profile_length(s + profile_origin, cursor) : s;
  }
  S horizontal_at_length_extended(S s) const noexcept {
    std::size_t cursor = 0;
    return horizontal_at_length_extended(s, cursor);
  }
  S horizontal_at_length(S s, std::size_t& cursor) const noexcept {
    return horizontal_at_length_extended(clamp_or_low(s, S(0), length), cursor);
  }
};

template <class S>
AlignmentSample<S> alignment_sample(const AlignmentData<S>& data, S x,
                                    AlignmentCursor& cursor) noexcept {
  x = clamp_or_low(x, S(0), data.horizontal.length());
  const HorizontalPoint<S> h = data.horizontal.at(x, cursor.horizontal);
  const VerticalPoint<S> v =
      data.vertical ? data.vertical->at(x, cursor.vertical) : VerticalPoint<S>{S(0), S(0), S(0)};
  const CantState<S> c = data.cant ? cant_at(LayoutAccess::data(*data.cant), x, cursor.cant)
                                   : CantState<S>{S(0), S(0), S(0)};
  using std::sqrt;
  const S stretch = sqrt(S(1) + v.gradient * v.gradient);  // |dP/dx|
  AlignmentSample<S> at;
  at.point = Vector3<S>(h.position.x(), h.position.y(), v.height);
  at.tangent = Vector3<S>(h.tangent.x(), h.tangent.y(), v.gradient) / stretch;
  at.horizontal_distance = x;
  at.plan_tangent = h.tangent;
  at.plan_curvature = h.curvature;
  at.gradient = v.gradient;
  at.gradient_rate = v.curvature * stretch * stretch * stretch;
  at.bank_sine = c.sine;
  at.bank_cosine = sqrt((S(1) - c.sine) * (S(1) + c.sine));
  at.cant_left = c.left;
  at.cant_right = c.right;
  return at;
}

template <class S>
AlignmentSample<S> alignment_sample_extended(const AlignmentData<S>& data, S s,
                                             AlignmentCursor& cursor) noexcept {
  if (s >= S(0) && s <= data.length)
    return alignment_sample(data, data.horizontal_at_length(s, cursor.vertical), cursor);
  const bool before = !(s > S(0));
  AlignmentSample<S> at = alignment_sample(data, before ? S(0) : data.horizontal.length(), cursor);
  const S beyond = std::isnan(s) ? S(0) : before ? s : s - data.length;
  at.point += beyond * at.tangent;
  return at;
}

// The left of the plan's direction, horizontal.
template <class S>
Vector3<S> plan_left(const AlignmentSample<S>& at) noexcept {
  return Vector3<S>(-at.plan_tangent.y(), at.plan_tangent.x(), S(0));
}

// +z made perpendicular to the tangent in its vertical plane, then turned about the tangent by
// the bank angle toward the left.
template <class S>
Vector3<S> banked_up(const AlignmentSample<S>& at) noexcept {
  using std::sqrt;
  const S stretch = sqrt(S(1) + at.gradient * at.gradient);
  const Vector3<S> level(-at.gradient * at.plan_tangent.x() / stretch,
                         -at.gradient * at.plan_tangent.y() / stretch, S(1) / stretch);
  return at.bank_cosine * level + at.bank_sine * plan_left(at);
}

// κN of P(x) = (plan(x), z(x)), x the horizontal distance: with P' = (t, g) and
// P'' = (κ n, z''), κN = (P'' |P'|² − P' (P'·P'')) / |P'|⁴, where P'·P'' = g z''.
template <class S>
Vector3<S> alignment_curvature(const AlignmentSample<S>& at) noexcept {
  const S q = S(1) + at.gradient * at.gradient;
  const Vector3<S> first(at.plan_tangent.x(), at.plan_tangent.y(), at.gradient);
  const Vector3<S> second =
      at.plan_curvature * plan_left(at) + Vector3<S>(S(0), S(0), at.gradient_rate);
  return (second * q - first * (at.gradient * at.gradient_rate)) / (q * q);
}

template <class S>
RailHeads<S> rail_heads(const AlignmentSample<S>& at, S rail_head_distance) noexcept {
  const Vector3<S> side = (S(0.5) * rail_head_distance * at.bank_cosine) * plan_left(at);
  return {at.point + side + Vector3<S>(S(0), S(0), at.cant_left),
          at.point - side + Vector3<S>(S(0), S(0), at.cant_right)};
}

// The plan's segments with each Viennese bend's bank change read from the cant: the change of
// (right − left) / rail head distance, as HorizontalSegment::bank_angle_change defines it (IFC's
// ψ with sin ψ ≈ ψ, as the IFC reference code, its implementation guide and the BIM Fit Check
// test set take it; asin would move a 100 m bend's end by 0.09 mm).
template <class S>
S cant_lean(const CantLayout<S>& cant, S x) noexcept {
  const CantPoint<S> at = cant.at(x);
  return at.right - at.left;
}

template <class S>
std::vector<HorizontalSegment<S>> banked_plan(const AlignmentLayouts<S>& layouts,
                                              const CantLayout<S>* cant) {
  std::vector<HorizontalSegment<S>> plan = layouts.horizontal;
  if (!cant) return plan;
  S x = S(0);
  for (auto& g : plan) {
    if (g.type == HorizontalType::viennese_bend)
      g.bank_angle_change =
          (cant_lean(*cant, x + g.length) - cant_lean(*cant, x)) / cant->rail_head_distance();
    x += g.length;
  }
  return plan;
}

template <class S>
Expected<AlignmentData<S>> build_alignment(const AlignmentLayouts<S>& layouts) {
  if (!(layouts.rail_head_distance > S(0)) || !std::isfinite(layouts.rail_head_distance))
    return make_error(ErrorCode::out_of_range, "alignment: rail_head_distance " +
                                                   number_text(layouts.rail_head_distance) +
                                                   " is not a finite number > 0");
  std::optional<CantLayout<S>> cant;
  if (!layouts.cant.empty()) {
    auto built =
        CantLayout<S>::build(layouts.rail_head_distance, layouts.cant, layouts.cant_relative_gap);
    if (!built) return built.error();
    cant = std::move(*built);
  }
  auto horizontal = HorizontalLayout<S>::build(banked_plan(layouts, cant ? &*cant : nullptr),
                                               layouts.horizontal_tolerance);
  if (!horizontal) return horizontal.error();
  std::optional<VerticalLayout<S>> vertical;
  if (!layouts.vertical.empty()) {
    auto built = VerticalLayout<S>::build(layouts.vertical, layouts.vertical_tolerance);
    if (!built) return built.error();
    vertical = std::move(*built);
  }
  if (!std::isfinite(layouts.start_station))
    return make_error(ErrorCode::non_finite,
                      "alignment: start_station is " + number_text(layouts.start_station));
  AlignmentData<S> data{std::move(*horizontal),
                        std::move(vertical),
                        std::move(cant),
                        layouts.start_station,
                        layouts.rail_head_distance,
                        S(0),
                        S(0),
                        S(0),
                        Vector3<S>::UnitZ(),
                        {}};
  const S plan_length = data.horizontal.length();
  data.profile_origin = data.vertical ? data.vertical->profile_length(S(0)) : S(0);
  data.length = data.length_at_horizontal(plan_length);
  if (!(data.length > S(0)) || !std::isfinite(data.length))
    return make_error(ErrorCode::out_of_range,
                      "alignment: its length along the 3-D curve is " + number_text(data.length));
  using std::abs;
  S scale = data.length;
  for (const auto& g : layouts.horizontal)
    scale = std::max({scale, abs(g.start_point.x()), abs(g.start_point.y())});
  for (const auto& g : layouts.vertical)
    scale = std::max(scale, abs(g.start_height));
  data.coordinate_scale = scale;
  std::vector<S> stations{S(0)};
  for (std::size_t i = 0; i < data.horizontal.segment_count(); ++i)
    stations.push_back(data.horizontal.segment_start(i));
  for (const auto& g : layouts.vertical)
    stations.push_back(g.start_distance);
  for (S station : stations)
    if (station >= S(0) && station < plan_length)
      data.knots.push_back(data.length_at_horizontal(station));
  std::sort(data.knots.begin(), data.knots.end());
  data.knots.erase(std::unique(data.knots.begin(), data.knots.end()), data.knots.end());
  data.knots.front() = S(0);
  return data;
}

}  // namespace tractrix::detail
