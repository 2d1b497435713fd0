/// @file
/// An alignment as a track: its horizontal layout, vertical layout and cant together, as one 3-D
/// curve that trains, frames, sampling and speed plans run on (it meets the track concept of
/// train/track_concept.hpp). Railway data is stationed along the horizontal; trains run by the
/// length along the 3-D curve. Both are exact, and each query says which it takes:
///
/// - `sample(s)` and every track query take `s`, the length along the 3-D curve from its start;
/// - `at_station(x)`, `cant_at(x)` and the conversions take `x`, the distance along the
///   horizontal layout from its start (the railway's chainage is `start_station + x`).
///
/// World axes are IFC's: x east, y north, z up. The curve is IFC's gradient curve (plan and
/// profile); the cant does not raise it, the rail heads carry it (rail_heads()). Frames are
/// banked by the cant: the up vector turns about the tangent by the bank angle ψ (> 0 leaning
/// left); without cant it is +z.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "tractrix/alignment/alignment_layouts.hpp"
#include "tractrix/alignment/cant.hpp"
#include "tractrix/alignment/detail/alignment_curve.hpp"
#include "tractrix/alignment/horizontal.hpp"
#include "tractrix/alignment/vertical.hpp"
#include "tractrix/core/expected.hpp"
#include "tractrix/core/vector.hpp"
#include "tractrix/train/wagon.hpp"

namespace tractrix {

/// An alignment as a track. Immutable after build(); copies share the data, and any number of
/// threads read it at once.
template <class S>
class Alignment {
 public:
  /// A point of the alignment: what a track's sample has (point, unit tangent), and where it is
  /// along the horizontal with the plan's and profile's local shape there.
  using Sample = detail::AlignmentSample<S>;
  /// The segments the last query found (AlignmentCursor); any value is valid.
  using Cursor = AlignmentCursor;

  /// The alignment of `layouts`. A Viennese bend of the plan takes its change of bank angle from
  /// the cant over the same stretch (when there is a cant layout), replacing the segment's own.
  ///
  /// Errors: out_of_range for a rail_head_distance that is not a finite number > 0, non_finite
  /// for a start_station that is not finite, and those of HorizontalLayout::build,
  /// VerticalLayout::build and CantLayout::build.
  static Expected<Alignment> build(const AlignmentLayouts<S>& layouts) {
    auto data = detail::build_alignment(layouts);
    if (!data) return data.error();
    return Alignment(std::make_shared<const detail::AlignmentData<S>>(std::move(*data)));
  }

  /// The length along the 3-D curve, > 0.
  S length() const noexcept { return data_->length; }
  /// Alignments are open.
  bool closed() const noexcept { return false; }

  /// The point at length `s` along the 3-D curve, clamped to [0, length()].
  Sample sample(S s, Cursor& cursor) const noexcept {
    return detail::alignment_sample(*data_, data_->horizontal_at_length(s, cursor.vertical),
                                    cursor);
  }
  /// As sample(), but beyond an end along the end's tangent.
  Sample sample_extended(S s, Cursor& cursor) const noexcept {
    return detail::alignment_sample_extended(*data_, s, cursor);
  }
  /// The point at `x` along the horizontal layout (clamped to it).
  Sample at_station(S x, Cursor& cursor) const noexcept {
    return detail::alignment_sample(*data_, x, cursor);
  }
  /// The length along the 3-D curve at `x` along the horizontal (exact; continued linearly
  /// beyond the ends).
  S length_at(S x) const noexcept { return data_->length_at_horizontal(x); }
  /// The distance along the horizontal at length `s` along the 3-D curve: length_at's inverse.
  S horizontal_at(S s) const noexcept { return data_->horizontal_at_length_extended(s); }
  /// The railway's chainage at `x` along the horizontal: start_station + x.
  S station(S x) const noexcept { return data_->start_station + x; }

  /// The up vector at a sample: +z turned about the tangent's horizontal direction by the bank
  /// angle, perpendicular to the tangent.
  Vector3<S> up_at(S, const Sample& at) const noexcept { return detail::banked_up(at); }
  /// +z when the alignment has no cant (up_at is then the same everywhere), else null.
  const Vector3<S>* constant_up() const noexcept {
    return data_->cant ? nullptr : &data_->world_up;
  }
  /// The 3-D curve's curvature vector κN at a sample, in 1/length.
  Vector3<S> curvature_vector(const Sample& at) const noexcept {
    return detail::alignment_curvature(at);
  }
  /// Alignments are one piece: piece 0, at `s`.
  PiecePlace<S> place(S s, const Sample&) const noexcept { return {0, s}; }
  /// The larger of the length and the largest coordinate.
  S coordinate_scale() const noexcept { return data_->coordinate_scale; }
  /// The lengths along the 3-D curve where a segment of the plan or profile starts (where the
  /// curvature may jump), ascending from 0.
  std::vector<S> knot_distances() const { return data_->knots; }

  /// The cant at `x` along the horizontal; all zero without a cant layout.
  CantPoint<S> cant_at(S x) const noexcept {
    return data_->cant ? data_->cant->at(x) : CantPoint<S>{S(0), S(0), S(0)};
  }
  /// The distance between the rail heads (AlignmentLayouts::rail_head_distance).
  S rail_head_distance() const noexcept { return data_->rail_head_distance; }
  /// The rail heads at a sample: each half the rail head distance (times cos ψ) to its side,
  /// horizontally, and raised by its cant.
  RailHeads<S> rail_heads(const Sample& at) const noexcept {
    return detail::rail_heads(at, data_->rail_head_distance);
  }

  /// Where `q` lies against the alignment: the plan's point nearest q's plan position
  /// (HorizontalLayout::closest_point), its chainage and q's lateral offset, and q's height
  /// above the alignment there.
  AlignmentProjection<S> closest_point(const Vector3<S>& q) const {
    const HorizontalProjection<S> plan = data_->horizontal.closest_point(q.template head<2>());
    Cursor cursor;
    const Sample at = at_station(plan.distance, cursor);
    return {plan.distance,        station(plan.distance),   plan.offset,
            q.z() - at.point.z(), length_at(plan.distance), at.point};
  }

  /// The plan.
  const HorizontalLayout<S>& horizontal() const noexcept { return data_->horizontal; }
  /// The profile, or null when the alignment is flat.
  const VerticalLayout<S>* vertical() const noexcept {
    return data_->vertical ? &*data_->vertical : nullptr;
  }
  /// The cant, or null when there is none.
  const CantLayout<S>* cant() const noexcept { return data_->cant ? &*data_->cant : nullptr; }

 private:
  explicit Alignment(std::shared_ptr<const detail::AlignmentData<S>> data)
      : data_(std::move(data)) {}
  std::shared_ptr<const detail::AlignmentData<S>> data_;
};

}  // namespace tractrix
