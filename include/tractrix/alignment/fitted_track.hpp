/// @file
/// An alignment as a `Track`: its 3-D curve fitted by cubic Hermite pieces within a stated
/// distance, and its cant as a roll profile within a stated angle. What takes tracks and not
/// the track concept — a `Network`'s pieces (a turnout's diverging alignment joined to the main
/// line), a camera looking at a path — takes an alignment this way. A train on one alignment
/// runs on the alignment itself, exactly (TrainSolver<S, Alignment<S>>); the fit is for where a
/// Track is required.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "tractrix/alignment/alignment.hpp"
#include "tractrix/alignment/detail/fitted_track.hpp"
#include "tractrix/core/expected.hpp"
#include "tractrix/core/field_checks.hpp"
#include "tractrix/train/track.hpp"

namespace tractrix {

/// How closely fitted_track follows an alignment.
template <class S>
struct TrackFit {
  /// The largest distance of the fitted path from the alignment's curve, in the alignment's
  /// length unit, checked at seven points of every piece. 0: 1e-6 (a micrometre in metres), or
  /// what the coordinates resolve (64 eps of their scale) where that is more (float).
  S tolerance = S(0);
  /// The largest error of the frames' bank angle (the roll about the tangent), radians. 0: 1e-6.
  S bank_tolerance = S(0);
  /// How the fitted path's arc-length table is built.
  ArcLengthSettings arc_length = {};
};

/// The Track of `alignment`: a path of cubic Hermite pieces between points of the alignment,
/// with its tangents scaled by each piece's length, split where the plan or profile changes
/// segment and halved until every piece is within fit.tolerance of the alignment (measured
/// across the alignment's tangent at seven points of it); up is +z, rolled by the cant's bank
/// angle (keyed at the pieces' ends and the cant's segment ends, refined until the roll is within
/// half of fit.bank_tolerance at the quarter points between keys). A distance along the track is
/// the same point of the alignment, to within the tolerance across and their lengths' difference
/// along (far less than the tolerance: 6e-8 m on a 650 m test line fitted to 1e-6 m).
///
/// Errors: out_of_range for a tolerance that is negative, not finite, or below what the
/// alignment's coordinates resolve, or an alignment no piece count up to 2^20 fits; and those of
/// MeasuredPath::build and RollProfile::build.
template <class S>
Expected<Track<S>> fitted_track(const Alignment<S>& alignment, const TrackFit<S>& fit = {}) {
  using std::isfinite;
  const S resolved = S(64) * detail::epsilon<S>() * alignment.coordinate_scale();
  const S tolerance = fit.tolerance > S(0) ? fit.tolerance : std::max(S(1e-6), resolved);
  const S bank_tolerance = fit.bank_tolerance > S(0) ? fit.bank_tolerance : S(1e-6);
  if (!(fit.tolerance >= S(0)) || !isfinite(fit.tolerance) || !(tolerance >= resolved))
    return make_error(ErrorCode::out_of_range,
                      "track fit: tolerance " + detail::number_text(fit.tolerance) +
                          " is not a finite number >= " + detail::number_text(resolved) +
                          " (what coordinates up to " +
                          detail::number_text(alignment.coordinate_scale()) +
                          " resolve; 0: " + detail::number_text(tolerance) + ")");
  if (auto error =
          detail::bad_tolerance<S>("track fit:", {{"bank_tolerance", double(fit.bank_tolerance)}}))
    return std::move(*error);
  auto pieces = detail::fit_pieces(alignment, tolerance);
  if (!pieces) return pieces.error();
  auto path = Path<S, 3>::from_segments(std::move(pieces->segments), Closure::open);
  if (!path) return path.error();
  auto measured = MeasuredPath<S>::build(std::move(*path), fit.arc_length);
  if (!measured) return measured.error();
  auto up = UpSource<S>::world(Vector3<S>::UnitZ());
  if (!up) return up.error();
  if (!alignment.constant_up()) {
    auto roll = detail::fit_roll(alignment, *measured, pieces->starts, bank_tolerance);
    if (!roll) return roll.error();
    *up = up->with_roll(std::move(*roll));
  }
  return Track<S>::build(std::move(*measured), std::move(*up));
}

}  // namespace tractrix
