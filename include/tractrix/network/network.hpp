// Network: track pieces whose ends meet at joints; a joint where three or more ends meet is a
// switch. Immutable and shared like the tracks it holds; which way each switch is set is kept
// apart, in SwitchSettings, so routes already handed to trains never change under them.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tractrix/core/assert.hpp"
#include "tractrix/core/weak_owner.hpp"
#include "tractrix/curve/path_bounds.hpp"
#include "tractrix/train/track.hpp"

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

// The nearest point of a network to a point in space: its piece, the distance along that piece,
// the point and the squared distance (NaN for a non-finite query, which gives piece 0's start).
template <class S>
struct NetworkPoint {
  std::size_t piece = 0;
  S distance = S(0);
  Vector3<S> point = Vector3<S>::Zero();
  S squared_distance = S(0);
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

// Which end each side of each joint leads to. A side with one end always leads to it; a side with
// several (the legs of a switch) leads to the one selected, by default the first listed. Cheap
// to copy: a game keeps one, throws switches in it, and asks for routes with it.
class SwitchSettings {
 public:
  SwitchSettings() = default;

  // Selects `leg` on its side of its joint. An end that is no switch leg (a buffer stop, an end
  // alone on its side of a joint) or not in the network is an error; nothing changes then.
  [[nodiscard]] std::optional<Error> set(const PieceEnd& leg) {
    if (!topology_ || leg.piece >= topology_->joint_of.size())
      return make_error(ErrorCode::out_of_range, to_string(leg) + ": no such piece in the network");
    const std::size_t joint = topology_->joint(leg);
    if (joint == detail::Topology::none)
      return make_error(ErrorCode::out_of_range, to_string(leg) + " is a buffer stop, no switch");
    const std::uint8_t side = topology_->side(leg);
    const auto& ends = topology_->sides[joint][side];
    if (ends.size() < 2)
      return make_error(ErrorCode::out_of_range,
                        to_string(leg) + " is no switch leg: it is alone on its side of joint " +
                            detail::number_text(joint));
    for (std::size_t k = 0; k < ends.size(); ++k)
      if (ends[k] == leg) selected_[2 * joint + side] = static_cast<std::uint32_t>(k);
    return std::nullopt;
  }
  // The end the given side of a joint leads to (joint < the network's joint_count(), side 0 or 1,
  // settings from Network::default_settings).
  const PieceEnd& selected(std::size_t joint, std::uint8_t side) const noexcept {
    TRACTRIX_ASSERT(topology_ && joint < topology_->sides.size() && side < 2);
    return topology_->sides[joint][side][selected_[2 * joint + side]];
  }
  // Whether these settings were made for the network with this topology.
  bool made_for(const detail::Topology* topology) const noexcept {
    return topology_.get() == topology;
  }

 private:
  template <class S>
  friend class Network;
  explicit SwitchSettings(std::shared_ptr<const detail::Topology> topology)
      : topology_(std::move(topology)), selected_(2 * topology_->sides.size(), 0) {}

  std::shared_ptr<const detail::Topology> topology_;
  std::vector<std::uint32_t> selected_;
};

// Follows a query point that moves a little between calls over a network (Network::closest_point
// with a cursor): a player beside the railway, a vehicle, a camera target. When it searches the
// whole network it keeps the `capacity` pieces whose boxes lie nearest that query q0, sorted by
// box distance; every piece left out is at least R away from q0, R the farthest kept box's
// distance (infinite when every piece is kept). A later query q, m = |q − q0| away, asks the last
// answer's piece first (with its own ClosestPointCursor), then each kept piece whose box is nearer
// than the best answer plus m (bounded by that answer: most stop at their box); every piece not
// kept is at least R − m away, so an answer nearer than R − m is the global one (the same as
// without a cursor, up to ties). Otherwise it searches the whole network again; global_searches()
// counts those. While the point stays near one piece the cost is that piece's ClosestPointCursor's.
// Where 16 or more piece boxes overlap at the point (a yard of long parallel pieces) R is about 0
// and every call searches globally, at twice the cost of a call without the cursor. No allocation
// (17.6 kB in double). One cursor per moving point; it may move to another network (it then
// searches).
template <class S>
class NetworkPointCursor {
 public:
  std::size_t queries() const noexcept { return queries_; }
  std::size_t global_searches() const noexcept { return global_searches_; }
  // Forget the state: the next call searches globally.
  void reset() noexcept { owner_.reset(); }

 private:
  template <class>
  friend class Network;
  static constexpr std::size_t capacity = 16;
  struct Nearby {
    S box_distance;  // squared while the list is built, then its root
    std::size_t piece;
    typename PathBounds<S, 3>::Box box;
  };
  static bool nearer(const Nearby& x, const Nearby& y) noexcept {
    return x.box_distance < y.box_distance;
  }

  std::weak_ptr<const void> owner_;  // the network's shared data, held weakly
  Vector3<S> origin_ = Vector3<S>::Zero();
  S radius_ = S(0);
  std::array<Nearby, capacity> nearby_{};
  std::size_t kept_ = 0;
  std::size_t piece_ = 0;  // the piece of the last answer
  ClosestPointCursor<S, 3> piece_cursor_;
  std::size_t queries_ = 0, global_searches_ = 0;
};

template <class S>
class Network {
 public:
  // Pieces are tracks (a measured path and its up source) and must be open; `joints` lists, per
  // joint, the piece ends that meet there (two for a plain joint, three or more for a switch). An
  // end in no joint is a buffer stop. Every joint is checked: its ends lie within the gap of each
  // other, and each sits on one of two sides (by its outward tangent) whose ends point away from
  // the other side's within the angle, so a train crosses from any end of one side to any of the
  // other without a kink. A failure names the joint, both ends and the gap or angle; nothing is
  // built then. Measure the pieces against the whole network's size (ArcLengthSettings::
  // length_scale): each measured to 1e-12 of its own length held up to 4.1× the table entries
  // of one curve of the network's length (benchmarks/README.md, "Networks"), and trains on
  // routes through them ran slower, for an accuracy finer than that curve has.
  static Expected<Network> build(std::vector<Track<S>> pieces,
                                 const std::vector<std::vector<PieceEnd>>& joints,
                                 JointTolerance tolerance = {}) {
    if (pieces.empty()) return make_error(ErrorCode::empty_input, "network: no pieces");
    const auto limits = joint_limits(pieces, tolerance);
    if (!limits) return limits.error();
    return joined(std::move(pieces), joints, *limits);
  }

  // The network of these pieces with its joints found rather than listed: piece ends within the
  // gap tolerance of each other (chains of them, taken together) meet at a joint, numbered in the
  // order of their lowest piece end (piece 0 start, piece 0 end, piece 1 start, …); an end near
  // no other is a buffer stop. Each joint found is then checked as a listed one is (sides,
  // angles), so ends that meet at a kink are an error, not two buffer stops. A joint's ends are
  // listed by piece, so a switch's default leg (the first listed) is its lowest piece. Use
  // build() with the joints listed where ends that meet must not join.
  static Expected<Network> join_ends(std::vector<Track<S>> pieces, JointTolerance tolerance = {}) {
    if (pieces.empty()) return make_error(ErrorCode::empty_input, "network: no pieces");
    const auto limits = joint_limits(pieces, tolerance);
    if (!limits) return limits.error();
    const auto joints = ends_that_meet(pieces, limits->gap);
    return joined(std::move(pieces), joints, *limits);
  }

  std::size_t piece_count() const noexcept { return data_->pieces.size(); }
  const Track<S>& piece(std::size_t i) const noexcept { return data_->pieces[i]; }
  // What a route samples piece i through (MeasuredPath::lookup), kept side by side for all
  // pieces: a bogie entering a piece reads one small record shared by every train, not the
  // piece's Track and MeasuredPath.
  const typename MeasuredPath<S>::Lookup& piece_lookup(std::size_t i) const noexcept {
    return data_->lookups[i];
  }
  std::size_t joint_count() const noexcept { return data_->topology->sides.size(); }
  // The joint an end is in, or none: a buffer stop (or no such piece).
  std::optional<std::size_t> joint_of(const PieceEnd& e) const noexcept {
    if (e.piece >= piece_count()) return std::nullopt;
    const std::size_t j = data_->topology->joint(e);
    if (j == detail::Topology::none) return std::nullopt;
    return j;
  }
  // The ends on side 0 or 1 of a joint (side 0 holds the first end listed at build); joint <
  // joint_count().
  const std::vector<PieceEnd>& side(std::size_t joint, std::uint8_t s) const noexcept {
    TRACTRIX_ASSERT(joint < joint_count() && s < 2);
    return data_->topology->sides[joint][s];
  }
  // Every switch set to the first end listed on each of its sides.
  SwitchSettings default_settings() const { return SwitchSettings(data_->topology); }

  // The nearest point of the whole network to `query`, exact as MeasuredPath::closest_point is on
  // each piece. The pieces sit in a tree of boxes (pieces ordered by splits along the widest spread
  // of their box centres, four to a leaf), searched nearest box first; within a piece, its own tree
  // of segment boxes. Each skips what lies farther than the best found, so a query on a network of
  // n pieces looks at O(log n) boxes and a few segments, wherever the pieces were listed. Where
  // every squared distance overflows (a query ~1e154 from the network in double, ~1e19 in
  // float) all points compare equal: the first piece's start, squared_distance +inf.
  NetworkPoint<S> closest_point(const Vector3<S>& query) const noexcept {
    const Data& d = *data_;
    NetworkPoint<S> best;
    best.point = d.pieces[0].path().path().segment(0).points[0];
    best.squared_distance = (best.point - query).squaredNorm();
    if (!query.allFinite()) {
      best.squared_distance = std::numeric_limits<S>::quiet_NaN();
      return best;
    }
    // The nearest segment point of each piece opened; the winner alone is measured (its
    // distance along the piece through the table) at the end.
    std::size_t piece = 0;
    detail::Nearest<S> nearest;
    S bound2 = std::numeric_limits<S>::infinity();
    d.index.search(query, bound2, [&](std::size_t i, S& b2) {
      // The piece's own box from the index's list, before its data is touched.
      if (!(PathBounds<S, 3>::squared_distance(d.boxes[i], query) < b2)) return;
      const std::size_t p = d.order[i];
      const MeasuredPath<S>& path = d.pieces[p].path();
      detail::Nearest<S> seed;
      seed.squared_distance = b2;
      const detail::Nearest<S> at =
          detail::nearest_on_path(path.path(), path.bounds(), query, seed);
      if (at.squared_distance < b2) {
        piece = p;
        nearest = at;
        b2 = at.squared_distance;
      }
    });
    if (!(nearest.squared_distance < std::numeric_limits<S>::infinity())) return best;
    const ClosestPoint<S, 3> at = d.pieces[piece].path().closest_of(nearest, query);
    return NetworkPoint<S>{piece, at.distance, at.point, at.squared_distance};
  }

  // The same for a point that moves a little between calls: the last answer's piece and the
  // pieces kept near the last global search, while the answer stays within their radius; the
  // whole network when it jumps (NetworkPointCursor says when, and what it costs).
  NetworkPoint<S> closest_point(const Vector3<S>& query,
                                NetworkPointCursor<S>& cursor) const noexcept {
    if (!query.allFinite()) return closest_point(query);
    using std::sqrt;
    const Data& d = *data_;
    ++cursor.queries_;
    if (detail::held_owner_is(cursor.owner_, data_)) {
      const S moved = (query - cursor.origin_).norm();
      // As the global search: the nearest segment point of each piece asked, the winner alone
      // measured at the end.
      std::size_t piece = cursor.piece_;
      detail::Nearest<S> best = d.pieces[piece].path().nearest_with(query, cursor.piece_cursor_);
      S best_distance = sqrt(best.squared_distance);
      for (std::size_t k = 0; k < cursor.kept_; ++k) {
        const auto& nearby = cursor.nearby_[k];
        if (!(nearby.box_distance - moved < best_distance)) break;
        if (nearby.piece == cursor.piece_ ||
            !(PathBounds<S, 3>::squared_distance(nearby.box, query) < best.squared_distance))
          continue;
        const MeasuredPath<S>& path = d.pieces[nearby.piece].path();
        detail::Nearest<S> seed;
        seed.squared_distance = best.squared_distance;
        const detail::Nearest<S> at =
            detail::nearest_on_path(path.path(), path.bounds(), query, seed);
        if (at.squared_distance < best.squared_distance) {
          piece = nearby.piece;
          best = at;
          best_distance = sqrt(best.squared_distance);
        }
      }
      if (best_distance <= cursor.radius_ - moved) {
        if (piece != cursor.piece_) {
          cursor.piece_ = piece;
          cursor.piece_cursor_.reset();
        }
        const ClosestPoint<S, 3> at = d.pieces[piece].path().closest_of(best, query);
        return NetworkPoint<S>{piece, at.distance, at.point, at.squared_distance};
      }
    }
    ++cursor.global_searches_;
    NetworkPoint<S> best = closest_point(query);
    cursor.owner_ = data_;
    cursor.origin_ = query;
    if (best.piece != cursor.piece_) cursor.piece_cursor_.reset();
    cursor.piece_ = best.piece;
    // The `capacity` pieces with the nearest boxes: appended while there is room, then a max-heap
    // on the box distance whose top bounds the tree search. Every piece left out is at least that
    // far away.
    using Cursor = NetworkPointCursor<S>;
    auto& nearby = cursor.nearby_;
    cursor.kept_ = 0;
    S reach = std::numeric_limits<S>::infinity();
    d.index.search(query, reach, [&](std::size_t i, S& bound2) {
      const std::size_t p = d.order[i];
      const auto& box = d.boxes[i];
      const S box2 = PathBounds<S, 3>::squared_distance(box, query);
      if (!(box2 < bound2)) return;
      if (cursor.kept_ < Cursor::capacity) {
        nearby[cursor.kept_++] = {box2, p, box};
        if (cursor.kept_ < Cursor::capacity) return;
        std::make_heap(nearby.begin(), nearby.end(), Cursor::nearer);
      } else {
        std::pop_heap(nearby.begin(), nearby.end(), Cursor::nearer);
        nearby.back() = {box2, p, box};
        std::push_heap(nearby.begin(), nearby.end(), Cursor::nearer);
      }
      bound2 = nearby[0].box_distance;
    });
    // Pieces pruned (by a tree box or their own) or evicted were no nearer than the bound when
    // left out, and the bound only fell. With every piece kept, every answer is certified.
    cursor.radius_ =
        cursor.kept_ == piece_count() ? std::numeric_limits<S>::infinity() : sqrt(reach);
    std::sort(nearby.begin(), nearby.begin() + static_cast<std::ptrdiff_t>(cursor.kept_),
              Cursor::nearer);
    for (std::size_t k = 0; k < cursor.kept_; ++k)
      nearby[k].box_distance = sqrt(nearby[k].box_distance);
    return best;
  }

  const detail::Topology& topology() const noexcept { return *data_->topology; }
  // True when both hold the same data (one was copied from the other).
  bool shares_data_with(const Network& other) const noexcept { return data_ == other.data_; }

 private:
  // Groups the pieces' ends that lie within `gap` of each other, directly or through a chain of
  // such ends: sorted along x, each end is compared with those after it until x differs by more
  // than the gap (O(n log n) for ends spread out, as networks are), and merged by union-find.
  static std::vector<std::vector<PieceEnd>> ends_that_meet(const std::vector<Track<S>>& pieces,
                                                           S gap) {
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
      for (std::size_t j = i + 1; j < count && point[order[j]].x() - point[order[i]].x() <= gap;
           ++j)
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
  struct JointLimits {
    S gap;
    S angle;
    bool angle_given;
  };
  static Expected<JointLimits> joint_limits(const std::vector<Track<S>>& pieces,
                                            JointTolerance tolerance) {
    for (const auto& [name, value] :
         {std::pair<const char*, double>{"relative_gap", tolerance.relative_gap},
          std::pair<const char*, double>{"angle", tolerance.angle}})
      if (!(value >= 0.0) || !std::isfinite(S(value)))
        return make_error(ErrorCode::out_of_range,
                          std::string("network: joint tolerance ") + name + " " +
                              detail::number_text(value) +
                              " is not a finite number >= 0 in this scalar type (0: the default)");
    S scale = S(0);
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      if (pieces[i].closed())
        return make_error(ErrorCode::mismatched_topology,
                          "network: piece " + detail::number_text(i) +
                              " is closed; a piece has two ends (split a loop into pieces)");
      scale = std::max({scale, pieces[i].length(), pieces[i].path().path().extent()});
    }
    using std::max;
    const double eps64 = 64.0 * double(detail::epsilon<S>());
    return JointLimits{
        S(tolerance.relative_gap > 0.0 ? tolerance.relative_gap : max(1e-9, eps64)) * scale,
        S(tolerance.angle > 0.0 ? tolerance.angle : max(1e-6, eps64)), tolerance.angle > 0.0};
  }

  // The network of checked pieces (joint_limits passed) with these joints: each joint added and
  // checked (add_joint), then the piece index and the pieces' lookups built.
  static Expected<Network> joined(std::vector<Track<S>> pieces,
                                  const std::vector<std::vector<PieceEnd>>& joints,
                                  const JointLimits& limits) {
    auto topology = std::make_shared<detail::Topology>();
    topology->joint_of.assign(pieces.size(), {detail::Topology::none, detail::Topology::none});
    topology->side_of.assign(pieces.size(), {0, 0});
    topology->sides.resize(joints.size());
    for (std::size_t j = 0; j < joints.size(); ++j)
      if (auto error = add_joint(j, joints[j], pieces, limits, *topology)) return std::move(*error);
    auto [order, boxes] = piece_order(pieces);
    PathBounds<S, 3> index(boxes);
    std::vector<typename MeasuredPath<S>::Lookup> lookups;
    lookups.reserve(pieces.size());
    for (const Track<S>& piece : pieces)
      lookups.push_back(piece.path().lookup());  // into the pieces' shared data, which Data keeps
    return Network(std::make_shared<const Data>(Data{std::move(pieces), std::move(lookups),
                                                     std::move(topology), std::move(index),
                                                     std::move(order), std::move(boxes)}));
  }

  // A piece end as a joint sees it: where it is, the way out of its piece, and how far rounding
  // can turn that direction (eps·|P| over the handle the tangent came from: |r'|/3 where
  // MeasuredPath::sample took r', above 64 eps of the length, else the next derivative's).
  struct EndGeometry {
    Vector3<S> point, outward;
    S turn;
  };
  static EndGeometry end_geometry(const Track<S>& piece, End end) {
    const MeasuredPath<S>& path = piece.path();
    const bool at_start = end == End::start;
    const auto at = path.sample(at_start ? S(0) : path.length());
    const Path<S, 3>& curve = path.path();
    const S t = at_start ? S(0) : curve.end_parameter();
    const S speed = curve.derivative(t, 1).norm();
    S handle = speed > S(64) * detail::epsilon<S>() * path.length() ? speed / S(3) : S(0);
    for (int order = 2; order <= 3 && !(handle > S(0)); ++order)
      handle = curve.derivative(t, order).norm() / S(6);
    const S turn =
        handle > S(0) ? detail::epsilon<S>() * at.point.cwiseAbs().maxCoeff() / handle : S(0);
    return {at.point, at_start ? Vector3<S>(-at.tangent) : at.tangent, turn};
  }

  // Joint j: its ends are pieces of the network in no other joint, each is put on a side by its
  // outward direction (with the first end, or against it; two ends are on opposite sides whatever
  // their angle, so a kink past 90° is measured as one), and every pair is checked. Fills in
  // `topology`'s entries for the joint.
  static std::optional<Error> add_joint(std::size_t j, const std::vector<PieceEnd>& ends,
                                        const std::vector<Track<S>>& pieces,
                                        const JointLimits& limits, detail::Topology& topology) {
    const std::string joint = "joint " + detail::number_text(j) + ": ";
    if (ends.size() < 2)
      return make_error(ErrorCode::too_few_points, joint + "lists " +
                                                       detail::number_text(ends.size()) +
                                                       " piece ends; a joint joins two or more");
    std::vector<EndGeometry> at(ends.size());
    for (std::size_t k = 0; k < ends.size(); ++k) {
      const PieceEnd& e = ends[k];
      if (e.piece >= pieces.size())
        return make_error(ErrorCode::out_of_range, joint + to_string(e) + ": the network has " +
                                                       detail::number_text(pieces.size()) +
                                                       " pieces");
      std::size_t& slot = topology.joint_of[e.piece][static_cast<std::size_t>(e.end)];
      if (slot == j)
        return make_error(ErrorCode::out_of_range, joint + to_string(e) + " is listed twice");
      if (slot != detail::Topology::none)
        return make_error(ErrorCode::out_of_range, joint + to_string(e) + " is already in joint " +
                                                       detail::number_text(slot));
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
                        joint + "all " + detail::number_text(ends.size()) +
                            " ends point the same way (" + to_string(ends[0]) + " and " +
                            to_string(ends[1]) + "): a train cannot pass from one to another");
    return std::nullopt;
  }

  // Two ends of a joint: within the gap of each other, and (`across`: on opposite sides)
  // continuing each other or (same side: two legs of a switch) parallel, within the angle. The
  // default angle grows with the two ends' rounding, twice over, to at most 1e-3 rad: data
  // rounded coarser than that needs an explicit tolerance.
  static std::optional<Error> check_pair(const std::string& joint, const PieceEnd& a,
                                         const PieceEnd& b, const EndGeometry& at_a,
                                         const EndGeometry& at_b, bool across,
                                         const JointLimits& limits) {
    const S gap = (at_a.point - at_b.point).norm();
    if (!(gap <= limits.gap))
      return make_error(ErrorCode::not_continuous,
                        joint + to_string(a) + " and " + to_string(b) + " are " +
                            detail::number_text(double(gap)) + " apart (tolerance " +
                            detail::number_text(double(limits.gap)) + ")");
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
                        joint + "the tangents of " + to_string(a) + " and " + to_string(b) +
                            " are " + detail::number_text(double(angle)) +
                            " rad from collinear (tolerance " +
                            detail::number_text(double(angle_limit)) + ")");
    return std::nullopt;
  }

  struct Data {
    std::vector<Track<S>> pieces;
    std::vector<typename MeasuredPath<S>::Lookup> lookups;  // per piece
    std::shared_ptr<const detail::Topology> topology;
    PathBounds<S, 3> index;                             // over the pieces' boxes, in `order`
    std::vector<std::size_t> order;                     // leaf item i is piece order[i]
    std::vector<typename PathBounds<S, 3>::Box> boxes;  // and boxes[i] its box
  };

  // The pieces' boxes, ordered so that neighbours in the list are neighbours in space: each node
  // of the box tree splits its pieces along the widest spread of their box centres, recursively.
  static std::pair<std::vector<std::size_t>, std::vector<typename PathBounds<S, 3>::Box>>
  piece_order(const std::vector<Track<S>>& pieces) {
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
  explicit Network(std::shared_ptr<const Data> data) : data_(std::move(data)) {}

  std::shared_ptr<const Data> data_;
};

}  // namespace tractrix
