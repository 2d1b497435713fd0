/// @file
/// Internal: fitted_track's pieces (cubic Hermite between points of an alignment, halved until
/// close enough) and its roll keys (the cant's bank angle, refined until close enough).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "tractrix/alignment/alignment.hpp"
#include "tractrix/alignment/detail/run_search.hpp"
#include "tractrix/core/expected.hpp"
#include "tractrix/curve/de_casteljau.hpp"
#include "tractrix/curve/measured_path.hpp"
#include "tractrix/frame/roll_profile.hpp"

namespace tractrix::detail {

// The most pieces a fit may have.
constexpr std::size_t most_fitted_pieces = std::size_t(1) << 20;

template <class S>
struct FittedPieces {
  std::vector<CubicBezier<S>> segments;
  std::vector<S> starts;  // the alignment's length at each piece's start, and at the end
};

// The cubic Hermite piece from the alignment's point at s0 to the one at s1, its tangents the
// alignment's unit tangents times s1 − s0 (as Bézier controls).
template <class S>
CubicBezier<S> hermite_piece(const Alignment<S>& a, S s0, S s1,
                             typename Alignment<S>::Cursor& cursor) noexcept {
  const auto start = a.sample(s0, cursor), end = a.sample(s1, cursor);
  const S third = (s1 - s0) / S(3);
  return CubicBezier<S>{{start.point, start.point + third * start.tangent,
                         end.point - third * end.tangent, end.point}};
}

// How far the piece strays from the alignment: at u = k/8, the distance of its point from the
// alignment's point at s0 + u (s1 − s0) across the alignment's tangent there (the part along
// the tangent only moves the point along the curve).
template <class S>
S piece_gap(const Alignment<S>& a, const CubicBezier<S>& piece, S s0, S s1,
            typename Alignment<S>::Cursor& cursor) noexcept {
  S worst = S(0);
  for (int k = 1; k < 8; ++k) {
    const S u = S(k) / S(8);
    const auto on = a.sample(s0 + u * (s1 - s0), cursor);
    const Vector3<S> gap = de_casteljau(piece, u).point - on.point;
    const S across = (gap - gap.dot(on.tangent) * on.tangent).norm();
    worst = std::isnan(across) ? across : std::max(worst, across);
  }
  return worst;
}

// Pieces between the alignment's knots, each halved until its gap is within the tolerance.
template <class S>
Expected<FittedPieces<S>> fit_pieces(const Alignment<S>& a, S tolerance) {
  std::vector<S> knots = a.knot_distances();
  knots.push_back(a.length());
  FittedPieces<S> out;
  typename Alignment<S>::Cursor cursor;
  std::vector<std::pair<S, S>> pending;  // a stack, the next piece on top
  for (std::size_t k = 0; k + 1 < knots.size(); ++k) {
    if (!(knots[k + 1] > knots[k])) continue;
    pending.emplace_back(knots[k], knots[k + 1]);
    while (!pending.empty()) {
      const auto [s0, s1] = pending.back();
      pending.pop_back();
      const CubicBezier<S> piece = hermite_piece(a, s0, s1, cursor);
      const S gap = piece_gap(a, piece, s0, s1, cursor);
      const S middle = s0 + S(0.5) * (s1 - s0);
      if (gap <= tolerance || !(middle > s0 && middle < s1)) {
        if (!(gap <= tolerance) || out.segments.size() == most_fitted_pieces)
          return make_error(ErrorCode::out_of_range,
                            "track fit: no fit within " + number_text(tolerance) + " near " +
                                number_text(s0) + " along the alignment (" +
                                number_text(out.segments.size()) + " pieces so far)");
        out.segments.push_back(piece);
        out.starts.push_back(s0);
        continue;
      }
      pending.emplace_back(middle, s1);
      pending.emplace_back(s0, middle);
    }
  }
  out.starts.push_back(a.length());
  return out;
}

// Distances along the fitted path ↔ lengths along the alignment. A distance's point is on piece
// i at parameter u (the path's arc-length inverse); the alignment's point at s_i + u·h_i is its
// match up to the piece's drift along the tangent, which one step along the tangent removes.
// Lengths to distances (for keys only) are linear between the pieces' ends, exact there.
template <class S>
struct PieceMap {
  const Alignment<S>& alignment;
  const MeasuredPath<S>& path;
  const std::vector<S>& starts;  // the alignment's length at each piece's start, and the end
  std::vector<S> ends;           // the path's distance there

  S to_alignment(S d) const noexcept {
    const S t = path.parameter_at(d);
    const std::size_t i = std::min(static_cast<std::size_t>(std::max(t, S(0))), starts.size() - 2);
    const S u = t - S(static_cast<double>(i));
    const S s = starts[i] + u * (starts[i + 1] - starts[i]);
    typename Alignment<S>::Cursor cursor;
    const auto on = alignment.sample(s, cursor);
    return s + (de_casteljau(path.path().segment(i), u).point - on.point).dot(on.tangent);
  }
  S to_track(S s) const noexcept {
    const std::size_t i = std::min(run_of(starts, s), starts.size() - 2);
    const S span = starts[i + 1] - starts[i];
    const S u = span > S(0) ? std::min(std::max((s - starts[i]) / span, S(0)), S(1)) : S(0);
    return ends[i] + u * (ends[i + 1] - ends[i]);
  }
};

// The roll that banks +z as the alignment does (its bank ψ > 0 leans left; a roll > 0 turns up
// towards the right): −ψ, at a distance along the fitted path.
template <class S>
S roll_at(const PieceMap<S>& map, S d) noexcept {
  const Alignment<S>& a = map.alignment;
  return -a.cant_at(a.horizontal_at(map.to_alignment(d))).bank;
}

// Roll keys at the pieces' ends and the cant's segment ends, with a key added halfway between two
// wherever the profile strays from the bank by more than half the tolerance at a quarter, half or
// three quarters of the way (the half leaves room for the peaks between those points); a profile
// that does not settle in 60 rounds is an error.
template <class S>
Expected<RollProfile<S>> fit_roll(const Alignment<S>& a, const MeasuredPath<S>& path,
                                  const std::vector<S>& starts, S bank_tolerance) {
  PieceMap<S> map{a, path, starts, {}};
  map.ends.reserve(starts.size());
  for (std::size_t i = 0; i < starts.size(); ++i)
    map.ends.push_back(path.distance_at(S(static_cast<double>(i))));
  std::vector<S> keys = map.ends;
  if (const CantLayout<S>* cant = a.cant())
    for (std::size_t i = 0; i < cant->segment_count(); ++i)
      keys.push_back(map.to_track(a.length_at(cant->segment(i).start_distance)));
  std::sort(keys.begin(), keys.end());
  const S apart = S(64) * epsilon<S>() * path.length();
  keys.erase(std::unique(keys.begin(), keys.end(), [&](S x, S y) { return y - x <= apart; }),
             keys.end());
  for (int round = 0; round < 60; ++round) {
    std::vector<S> angles;
    angles.reserve(keys.size());
    for (S d : keys)
      angles.push_back(roll_at(map, d));
    auto profile = RollProfile<S>::build(keys, angles, S(0));
    if (!profile) return profile.error();
    std::vector<S> added;
    for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
      const S step = S(0.25) * (keys[i + 1] - keys[i]);
      bool close = true;
      for (int k = 1; k <= 3 && close; ++k) {
        const S d = keys[i] + S(k) * step;
        using std::abs;
        close = abs(profile->angle_at(d) - roll_at(map, d)) <= S(0.5) * bank_tolerance;
      }
      if (!close && S(2) * step > apart) added.push_back(keys[i] + S(2) * step);
    }
    if (added.empty()) return profile;
    keys.insert(keys.end(), added.begin(), added.end());
    std::sort(keys.begin(), keys.end());
  }
  return make_error(ErrorCode::out_of_range, "track fit: the cant's roll does not settle within " +
                                                 number_text(bank_tolerance) + " rad");
}

}  // namespace tractrix::detail
