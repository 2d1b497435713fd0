/// @file
/// Joints: where the ends of a network's pieces meet (End, PieceEnd), how far apart and how far
/// from collinear they may be (JointTolerance), and which joint and side each end is on.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tractrix/core/numeric.hpp"

namespace tractrix {

// One of a piece's two ends: where its distance is 0 (start) or its length (end).
enum class End : std::uint8_t { start, end };

struct PieceEnd {
  std::size_t piece = 0;
  End end = End::start;

  friend bool operator==(const PieceEnd& a, const PieceEnd& b) noexcept {
    return a.piece == b.piece && a.end == b.end;
  }
  friend bool operator!=(const PieceEnd& a, const PieceEnd& b) noexcept { return !(a == b); }
};

inline std::string to_string(const PieceEnd& e) {
  return "piece " + detail::index_text(e.piece) + (e.end == End::start ? " start" : " end");
}

// How far joined ends may be apart, relative to the network's scale (its largest piece length or
// coordinate), and how far from collinear their tangents may be, in radians. Zero means the
// scalar's default: 1e-9 (double) or 64 eps (float) of the scale, and 1e-6 rad (double) or 64 eps
// (float) — or, where the two ends' coordinates are large next to the handles their tangents
// come from, twice what their rounding can turn those tangents (eps·|P|/|handle| an end: a float
// loop 10³ units out turns its tangents 7.7e-6 rad, over float's 64 eps), up to 1e-3 rad.
// Hand-placed data from a DCC tool usually needs looser ones: say so here. Negative, NaN or
// infinite values are refused (out_of_range), not taken for the default.
struct JointTolerance {
  double relative_gap = 0.0;
  double angle = 0.0;
};

namespace detail {
// Which joint and which side of it each piece end is on. Shared by a network and the switch
// settings made for it.
struct Topology {
  static constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
  // Per piece: the joint of its start and of its end (none: a buffer stop), and their sides.
  std::vector<std::array<std::size_t, 2>> joint_of;
  std::vector<std::array<std::uint8_t, 2>> side_of;
  // Per joint: the ends on each side. A train crosses from one side to the other.
  std::vector<std::array<std::vector<PieceEnd>, 2>> sides;

  std::size_t joint(const PieceEnd& e) const noexcept {
    return joint_of[e.piece][static_cast<std::size_t>(e.end)];
  }
  std::uint8_t side(const PieceEnd& e) const noexcept {
    return side_of[e.piece][static_cast<std::size_t>(e.end)];
  }
};
}  // namespace detail

}  // namespace tractrix
