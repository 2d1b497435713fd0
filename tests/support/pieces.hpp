// Network pieces cut from one path, for tests that compare a route with the curve it was cut from.
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

}  // namespace tractrix::test
