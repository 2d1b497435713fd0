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

/// One of a piece's two ends.
enum class End : std::uint8_t {
  start,  ///< where the distance along the piece is 0
  end     ///< where the distance along the piece is its length
};

/// One end of one piece of a network: what a joint lists, and what a switch leg is.
struct PieceEnd {
  std::size_t piece = 0;  ///< the piece's index in the network
  End end = End::start;   ///< which of its two ends

  /// Whether both name the same end of the same piece.
  friend bool operator==(const PieceEnd& a, const PieceEnd& b) noexcept {
    return a.piece == b.piece && a.end == b.end;
  }
  /// Whether they name different ends (or pieces).
  friend bool operator!=(const PieceEnd& a, const PieceEnd& b) noexcept { return !(a == b); }
};

/// The end as error messages name it: `"piece 3 start"`, `"piece 0 end"`.
inline std::string to_string(const PieceEnd& e) {
  return "piece " + detail::index_text(e.piece) + (e.end == End::start ? " start" : " end");
}

/// How far the ends that meet at a joint may be apart, and how far from collinear their
/// tangents, when a Network is built. Zero, the default, means the scalar type's default;
/// hand-placed data from a DCC tool usually needs looser values. A negative, NaN or infinite value
/// (or one too large for the scalar type) is refused with out_of_range, not taken for the default.
struct JointTolerance {
  /// The largest distance between two ends of a joint, as a fraction of the network's scale (the
  /// largest piece length or absolute coordinate). 0: 1e-9 (double) or 64 eps (float).
  double relative_gap = 0.0;
  /// How far from collinear two ends' tangents may be, in radians. 0: 1e-6 rad (double) or
  /// 64 eps (float), or, where larger, twice what rounding can turn the two ends' tangents
  /// (eps·|P| / |handle| at each end, summed: large coordinates next to short control handles),
  /// capped at 1e-3 rad. A value given is used as it is, whatever the rounding.
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
