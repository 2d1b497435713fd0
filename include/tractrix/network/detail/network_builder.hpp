/// @file
/// The engine that builds a Network (network/network.hpp): joints found where ends meet, joint
/// limits from the tolerance and the network's scale, each joint's ends put on sides and checked
/// in pairs, and the pieces ordered for the box tree. Not API.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tractrix/core/expected.hpp"
#include "tractrix/core/field_checks.hpp"
#include "tractrix/core/numeric.hpp"
#include "tractrix/curve/path_bounds.hpp"
#include "tractrix/network/joint.hpp"
#include "tractrix/train/track.hpp"

namespace tractrix::detail {

// Groups the pieces' ends that lie within `gap` of each other, directly or through a chain of
// such ends: sorted along x, each end is compared with those after it until x differs by more
// than the gap (O(n log n) for ends spread out, as networks are), and merged by union-find.
template <class S>
std::vector<std::vector<PieceEnd>> ends_that_meet(const std::vector<Track<S>>& pieces, S gap) {
  const std::size_t count = 2 * pieces.size();
  std::vector<Vector3<S>> point(count);
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const MeasuredPath<S>& path = pieces[i].path();
    point[2 * i] = path.point_at(S(0));
    point[2 * i + 1] = path.point_at(path.length());
  }
  std::vector<std::size_t> order(count), parent(count);
  for (std::size_t k = 0; k < count; ++k)
    order[k] = parent[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return point[a].x() < point[b].x() || (!(point[b].x() < point[a].x()) && a < b);
  });
  const auto root = [&](std::size_t k) {
    while (parent[k] != k)
      k = parent[k] = parent[parent[k]];
    return k;
  };
  for (std::size_t i = 0; i < count; ++i)
    for (std::size_t j = i + 1; j < count && point[order[j]].x() - point[order[i]].x() <= gap; ++j)
      if ((point[order[i]] - point[order[j]]).norm() <= gap) {
        const std::size_t a = root(order[i]), b = root(order[j]);
        parent[std::max(a, b)] = std::min(a, b);
      }
  // A joint per group of two or more, in the order of its lowest end (its root: a merge keeps
  // the lower root), its ends in order.
  std::vector<std::vector<std::size_t>> members(count);
  for (std::size_t k = 0; k < count; ++k)
    members[root(k)].push_back(k);
  std::vector<std::vector<PieceEnd>> joints;
  for (const std::vector<std::size_t>& group : members) {
    if (group.size() < 2) continue;
    joints.emplace_back();
    for (const std::size_t k : group)
      joints.back().push_back(PieceEnd{k / 2, k % 2 == 0 ? End::start : End::end});
  }
  return joints;
}

// How far a joint's ends may be apart and how far from collinear, from the tolerance and the
// network's scale (its largest piece length or coordinate). `angle_given`: an explicit angle
// replaces the default, which otherwise grows with the ends' rounding (joint_angle_limit).
template <class S>
struct JointLimits {
  S gap;
  S angle;
  bool angle_given;
};
template <class S>
Expected<JointLimits<S>> joint_limits(const std::vector<Track<S>>& pieces,
                                      JointTolerance tolerance) {
  if (auto error =
          bad_tolerance<S>("network: joint tolerance",
                           {{"relative_gap", tolerance.relative_gap}, {"angle", tolerance.angle}}))
    return std::move(*error);
  S scale = S(0);
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (pieces[i].closed())
      return make_error(ErrorCode::mismatched_topology,
                        "network: piece " + number_text(i) +
                            " is closed; a piece has two ends (split a loop into pieces)");
    scale = std::max({scale, pieces[i].length(), pieces[i].path().path().extent()});
  }
  using std::max;
  const double eps64 = 64.0 * double(epsilon<S>());
  return JointLimits<S>{
      S(tolerance.relative_gap > 0.0 ? tolerance.relative_gap : max(1e-9, eps64)) * scale,
      S(tolerance.angle > 0.0 ? tolerance.angle : max(1e-6, eps64)), tolerance.angle > 0.0};
}

// A piece end as a joint sees it: where it is, the way out of its piece, and how far rounding
// can turn that direction (eps·|P| over the handle the tangent came from: |r'|/3 where
// MeasuredPath::sample took r', above 64 eps of the length, else the next derivative's).
template <class S>
struct EndGeometry {
  Vector3<S> point, outward;
  S turn;
};
template <class S>
EndGeometry<S> end_geometry(const Track<S>& piece, End end) {
  const MeasuredPath<S>& path = piece.path();
  const bool at_start = end == End::start;
  const auto at = path.sample(at_start ? S(0) : path.length());
  const Path<S, 3>& curve = path.path();
  const S t = at_start ? S(0) : curve.end_parameter();
  const S speed = curve.derivative(t, 1).norm();
  S handle = speed > S(64) * epsilon<S>() * path.length() ? speed / S(3) : S(0);
  for (int order = 2; order <= 3 && !(handle > S(0)); ++order)
    handle = curve.derivative(t, order).norm() / S(6);
  const S turn = handle > S(0) ? epsilon<S>() * at.point.cwiseAbs().maxCoeff() / handle : S(0);
  return {at.point, at_start ? Vector3<S>(-at.tangent) : at.tangent, turn};
}

// Joint j: its ends are pieces of the network in no other joint, each is put on a side by its
// outward direction (with the first end, or against it; two ends are on opposite sides whatever
// their angle, so a kink past 90° is measured as one), and every pair is checked. Fills in
// `topology`'s entries for the joint.
template <class S>
std::optional<Error> add_joint(std::size_t j, const std::vector<PieceEnd>& ends,
                               const std::vector<Track<S>>& pieces, const JointLimits<S>& limits,
                               Topology& topology) {
  const std::string joint = "joint " + number_text(j) + ": ";
  if (ends.size() < 2)
    return make_error(ErrorCode::too_few_points, joint + "lists " + number_text(ends.size()) +
                                                     " piece ends; a joint joins two or more");
  std::vector<EndGeometry<S>> at(ends.size());
  for (std::size_t k = 0; k < ends.size(); ++k) {
    const PieceEnd& e = ends[k];
    if (e.piece >= pieces.size())
      return make_error(ErrorCode::out_of_range, joint + to_string(e) + ": the network has " +
                                                     number_text(pieces.size()) + " pieces");
    std::size_t& slot = topology.joint_of[e.piece][static_cast<std::size_t>(e.end)];
    if (slot == j)
      return make_error(ErrorCode::out_of_range, joint + to_string(e) + " is listed twice");
    if (slot != Topology::none)
      return make_error(ErrorCode::out_of_range,
                        joint + to_string(e) + " is already in joint " + number_text(slot));
    slot = j;
    at[k] = end_geometry(pieces[e.piece], e.end);
  }
  for (std::size_t k = 0; k < ends.size(); ++k) {
    const std::uint8_t side =
        ends.size() == 2 ? (k == 0 ? 0 : 1) : (at[k].outward.dot(at[0].outward) >= S(0) ? 0 : 1);
    topology.side_of[ends[k].piece][static_cast<std::size_t>(ends[k].end)] = side;
    topology.sides[j][side].push_back(ends[k]);
  }
  for (std::size_t a = 0; a < ends.size(); ++a)
    for (std::size_t b = a + 1; b < ends.size(); ++b) {
      const bool across = topology.side(ends[a]) != topology.side(ends[b]);
      if (auto error = check_pair(joint, ends[a], ends[b], at[a], at[b], across, limits))
        return error;
    }
  // Collinear, and all pointing one way: no two of them continue each other.
  if (topology.sides[j][1].empty())
    return make_error(ErrorCode::not_continuous,
                      joint + "all " + number_text(ends.size()) + " ends point the same way (" +
                          to_string(ends[0]) + " and " + to_string(ends[1]) +
                          "): a train cannot pass from one to another");
  return std::nullopt;
}

// Two ends of a joint: within the gap of each other, and (`across`: on opposite sides)
// continuing each other or (same side: two legs of a switch) parallel, within the angle. The
// default angle grows with the two ends' rounding, twice over, to at most 1e-3 rad: data
// rounded coarser than that needs an explicit tolerance.
template <class S>
std::optional<Error> check_pair(const std::string& joint, const PieceEnd& a, const PieceEnd& b,
                                const EndGeometry<S>& at_a, const EndGeometry<S>& at_b, bool across,
                                const JointLimits<S>& limits) {
  const S gap = (at_a.point - at_b.point).norm();
  if (!(gap <= limits.gap))
    return make_error(ErrorCode::not_continuous, joint + to_string(a) + " and " + to_string(b) +
                                                     " are " + number_text(double(gap)) +
                                                     " apart (tolerance " +
                                                     number_text(double(limits.gap)) + ")");
  const Vector3<S> other = across ? Vector3<S>(-at_b.outward) : at_b.outward;
  using std::atan2;
  const S angle = atan2(at_a.outward.cross(other).norm(), at_a.outward.dot(other));
  using std::max;
  using std::min;
  const S angle_limit = limits.angle_given
                            ? limits.angle
                            : max(limits.angle, min(S(2) * (at_a.turn + at_b.turn), S(1e-3)));
  if (!(angle <= angle_limit))
    return make_error(ErrorCode::not_continuous,
                      joint + "the tangents of " + to_string(a) + " and " + to_string(b) + " are " +
                          number_text(double(angle)) + " rad from collinear (tolerance " +
                          number_text(double(angle_limit)) + ")");
  return std::nullopt;
}

// The pieces' boxes, ordered so that neighbours in the list are neighbours in space: each node
// of the box tree splits its pieces along the widest spread of their box centres, recursively.
template <class S>
std::pair<std::vector<std::size_t>, std::vector<typename PathBounds<S, 3>::Box>> piece_order(
    const std::vector<Track<S>>& pieces) {
  using Box = typename PathBounds<S, 3>::Box;
  std::vector<Box> boxes(pieces.size());
  std::vector<Vector3<S>> centre(pieces.size());
  std::vector<std::size_t> order(pieces.size());
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    boxes[i] = pieces[i].path().bounds().root();
    centre[i] = S(0.5) * boxes[i].lo + S(0.5) * boxes[i].hi;  // no overflow near the limit
    order[i] = i;
  }
  struct Range {
    std::size_t begin, end, leaves;  // items [begin, end) under a node of `leaves` leaves
  };
  constexpr std::size_t leaf = PathBounds<S, 3>::leaf_size;
  std::size_t all = 1;
  while (all * leaf < order.size())
    all *= 2;
  std::vector<Range> pending{{0, order.size(), all}};
  while (!pending.empty()) {
    const Range r = pending.back();
    pending.pop_back();
    if (r.end - r.begin <= leaf) continue;
    // Split where the box tree splits the node: its left child's leaves full, the rest right.
    const std::size_t middle = r.begin + (r.leaves / 2) * leaf;
    if (middle >= r.end) {
      pending.push_back({r.begin, r.end, r.leaves / 2});
      continue;
    }
    Vector3<S> lo = centre[order[r.begin]], hi = lo;
    for (std::size_t k = r.begin; k < r.end; ++k) {
      lo = lo.cwiseMin(centre[order[k]]);
      hi = hi.cwiseMax(centre[order[k]]);
    }
    Eigen::Index axis = 0;
    (hi - lo).maxCoeff(&axis);
    const auto base = order.begin();
    std::nth_element(
        base + static_cast<std::ptrdiff_t>(r.begin), base + static_cast<std::ptrdiff_t>(middle),
        base + static_cast<std::ptrdiff_t>(r.end),
        [&](std::size_t a, std::size_t b) { return centre[a][axis] < centre[b][axis]; });
    pending.push_back({r.begin, middle, r.leaves / 2});
    pending.push_back({middle, r.end, r.leaves / 2});
  }
  std::vector<Box> ordered(pieces.size());
  for (std::size_t k = 0; k < order.size(); ++k)
    ordered[k] = boxes[order[k]];
  return {std::move(order), std::move(ordered)};
}

}  // namespace tractrix::detail
