// Network pieces for tests: cut from one path (to compare a route with the curve it was cut from),
// or straight.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "tractrix/curve/measured_path.hpp"
#include "tractrix/frame/up_source.hpp"
#include "tractrix/train/track.hpp"

namespace tractrix::test {

// Segments [begin, end) of `path` as one open piece; turned round (segments and their control
// points in reverse order) if `turn`, so a route must drive it backwards.
template <class S>
Track<S> piece_of(const Path<S, 3>& path, std::size_t begin, std::size_t end, bool turn,
                  const UpSource<S>& up = UpSource<S>::world().value()) {
  std::vector<CubicBezier<S, 3>> segments;
  for (std::size_t i = begin; i < end; ++i)
    segments.push_back(path.segment(i));
  if (turn) {
    std::reverse(segments.begin(), segments.end());
    for (auto& segment : segments)
      std::reverse(segment.points.begin(), segment.points.end());
  }
  return *Track<S>::build(
      MeasuredPath<S>::build(Path<S, 3>::from_segments(segments, Closure::open)), up);
}

// The straight piece from a to b, at uniform speed (its length is |b − a| to the table's
// rounding).
template <class S>
Track<S> straight_piece(const Vector3<S>& a, const Vector3<S>& b) {
  return *Track<S>::build(
      MeasuredPath<S>::build(Path<S, 3>::from_hermite_keys({a, b}, {b - a, b - a}, Closure::open)));
}

}  // namespace tractrix::test
