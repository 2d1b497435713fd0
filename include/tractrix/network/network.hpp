/// @file
/// `Network`: track pieces whose ends meet at joints; a joint where three or more ends meet is a
/// switch. Immutable and shared like the tracks it holds; which way each switch is set is kept
/// apart, in `SwitchSettings`, so routes already handed to trains never change under them.
/// `NetworkPoint` and `NetworkPointCursor` answer the nearest point of a network. The builder's
/// checks are in detail/network_builder.hpp.
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
#include "tractrix/network/detail/network_builder.hpp"
#include "tractrix/network/joint.hpp"
#include "tractrix/train/track.hpp"

namespace tractrix {

/// The nearest point of a network to a point in space (Network::closest_point): its piece, the
/// distance along that piece, the point and the squared distance.
template <class S>
struct NetworkPoint {
  std::size_t piece = 0;  ///< the piece the point is on
  S distance = S(0);      ///< along that piece in its own direction, in [0, its length]
  Vector3<S> point = Vector3<S>::Zero();  ///< the nearest point itself
  /// |point − query|², in squared network units. NaN for a non-finite query, +inf where every
  /// squared distance overflows; in both cases the rest is piece 0's start.
  S squared_distance = S(0);
};

/// Which end each side of each joint of one network leads to. A side with one end always leads
/// to it; a side with several (the legs of a switch) leads to the one selected, by default the
/// first listed. Made by Network::default_settings; cheap to copy: a game keeps one, throws
/// switches in it, and asks for routes with it (Route::follow, Route::around).
class SwitchSettings {
 public:
  /// Settings made for no network: set refuses every end (out_of_range) and routes refuse them
  /// (mismatched_topology). Assign Network::default_settings() before use.
  SwitchSettings() = default;

  /// Selects `leg` on its side of its joint, so that side leads to it. Errors, all out_of_range,
  /// and nothing changes then: a piece not in the network (or settings made for no network), a
  /// buffer stop, or an end alone on its side of its joint (no switch leg).
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
  /// The end the given side of a joint leads to. Preconditions (asserted): settings from
  /// Network::default_settings, joint < the network's joint_count(), side 0 or 1.
  const PieceEnd& selected(std::size_t joint, std::uint8_t side) const noexcept {
    TRACTRIX_ASSERT(topology_ && joint < topology_->sides.size() && side < 2);
    return topology_->sides[joint][side][selected_[2 * joint + side]];
  }
  /// Whether these settings were made for the network with this topology (Network::topology();
  /// copies of a network share it). Routes check this before they walk.
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

/// Follows a query point that moves a little between calls over a network (Network::closest_point
/// with a cursor): a player beside the railway, a vehicle, a camera target. Default-constructed,
/// its first query searches the whole network.
///
/// When it searches the whole network from a query q0, it keeps the 16 pieces whose boxes lie
/// nearest q0, sorted by box distance; every piece left out is at least R away from q0, R the
/// farthest kept box's distance (infinite when every piece is kept). A later query q,
/// m = |q − q0| away, asks the last answer's piece first (with its own ClosestPointCursor), then
/// each kept piece whose box is nearer than the best answer plus m (bounded by that answer: most
/// stop at their box). Every piece not kept is at least R − m away, so an answer no farther than
/// R − m is the global one (the same as without a cursor, up to ties). Otherwise it searches the
/// whole network again; global_searches() counts those. While the point stays near one piece the
/// cost is that piece's ClosestPointCursor's. Where 16 or more piece boxes overlap at the point
/// (a yard of long parallel pieces) R is about 0 and every call searches globally, costing more
/// than a call without the cursor.
///
/// No allocation: the lists live in the cursor (17.6 kB in double). One cursor per moving point;
/// used on another network (or after its network is destroyed) it searches globally.
template <class S>
class NetworkPointCursor {
 public:
  /// How many queries this cursor has answered (non-finite queries return before reaching it and
  /// are not counted).
  std::size_t queries() const noexcept { return queries_; }
  /// How many of those searched the whole network: the first, the first after reset() or on
  /// another network, and each that moved too far from the last global search.
  std::size_t global_searches() const noexcept { return global_searches_; }
  /// Forgets the kept pieces: the next query searches globally. The counts are kept.
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

/// Track pieces whose ends meet at joints: a joint where two ends meet joins them, one where
/// three or more meet is a switch, and an end in no joint is a buffer stop. Pieces are numbered
/// as listed at build, joints as listed (or as found by join_ends). Immutable once built; copies
/// share the pieces and the joints (a reference count, no data copied), so every route and train
/// on a network can hold it, from any thread. Distances are in the pieces' units.
template <class S>
class Network {
 public:
  /// The network of `pieces` joined at `joints`. Pieces are tracks (a measured path and its up
  /// source) and must be open; `joints` lists, per joint, the piece ends that meet there (two for
  /// a plain joint, three or more for a switch). An end in no joint is a buffer stop. Every joint
  /// is checked: its ends lie within the gap of each other, and each sits on one of two sides (by
  /// its outward tangent; side 0 holds the first end listed) whose ends point away from the other
  /// side's within the angle, so a train crosses from any end of one side to any of the other
  /// without a kink. Measure the pieces against the whole network's size
  /// (ArcLengthSettings::length_scale): a short piece measured to its own length gets a denser
  /// table than the network's accuracy needs, and routes through it run slower.
  ///
  /// Errors (nothing is built; a joint's error names the joint, its ends and the gap or angle):
  /// empty_input for no pieces; out_of_range for a tolerance that is negative or not finite in S;
  /// mismatched_topology for a closed piece; too_few_points for a joint of fewer than two ends;
  /// out_of_range for a joint's end of a piece not in the network, listed twice in the joint, or
  /// already in another joint; not_continuous for two ends of a joint farther apart than the gap
  /// or farther from collinear than the angle, and for a joint whose ends all point the same way.
  static Expected<Network> build(std::vector<Track<S>> pieces,
                                 const std::vector<std::vector<PieceEnd>>& joints,
                                 JointTolerance tolerance = {}) {
    if (pieces.empty()) return make_error(ErrorCode::empty_input, "network: no pieces");
    const auto limits = detail::joint_limits(pieces, tolerance);
    if (!limits) return limits.error();
    return joined(std::move(pieces), joints, *limits);
  }

  /// The network of these pieces with its joints found rather than listed: piece ends within the
  /// gap tolerance of each other (chains of them, taken together) meet at a joint, numbered in
  /// the order of their lowest piece end (piece 0 start, piece 0 end, piece 1 start, …); an end
  /// near no other is a buffer stop. Each joint found is then checked as a listed one is, so ends
  /// that meet at a kink are an error, not two buffer stops. A joint's ends are listed by piece,
  /// so a switch's default leg (the first listed) is its lowest piece. Use build() with the
  /// joints listed where ends that meet must not join.
  ///
  /// Errors, as build's: empty_input for no pieces; out_of_range for a tolerance that is negative
  /// or not finite in S; mismatched_topology for a closed piece; not_continuous for a joint whose
  /// ends are at a kink, whose ends all point the same way, or whose chain of ends reaches
  /// farther than the gap from one end to another.
  static Expected<Network> join_ends(std::vector<Track<S>> pieces, JointTolerance tolerance = {}) {
    if (pieces.empty()) return make_error(ErrorCode::empty_input, "network: no pieces");
    const auto limits = detail::joint_limits(pieces, tolerance);
    if (!limits) return limits.error();
    const auto joints = detail::ends_that_meet(pieces, limits->gap);
    return joined(std::move(pieces), joints, *limits);
  }

  /// How many pieces the network has (≥ 1).
  std::size_t piece_count() const noexcept { return data_->pieces.size(); }
  /// Piece i, i < piece_count() (not checked).
  const Track<S>& piece(std::size_t i) const noexcept { return data_->pieces[i]; }
  /// The flat view of piece i that a track type made of many paths samples through
  /// (MeasuredPath::Lookup, with MeasuredPath::sample_with): Route does. Kept side by side for
  /// all pieces, so a bogie entering a piece reads one small record shared by every train, not
  /// the piece's Track and MeasuredPath. Valid while a copy of this network lives; i <
  /// piece_count() (not checked).
  const typename MeasuredPath<S>::Lookup& piece_lookup(std::size_t i) const noexcept {
    return data_->lookups[i];
  }
  /// Piece i's compiled form (Track::compiled), or null where the piece samples its measured
  /// path: what Route samples through when there is one. Valid while a copy of this network
  /// lives; i < piece_count() (not checked).
  const CompiledPath<S>* piece_compiled(std::size_t i) const noexcept { return data_->compiled[i]; }
  /// The same network with every piece compiled (Track::compiled): routes on it, and trains on
  /// those, sample polynomials in the distance instead of the tables (benchmarks/README.md,
  /// "Compiled tracks"). Joints, switches and closest points are unchanged. Pieces compiled
  /// before (Network::build, or an earlier compiled()) keep their cells. Every piece's compiled
  /// data is then copied into one block of memory, in piece order, shared by every route and
  /// train on the network: a bogie that steps onto the next piece finds its cells beside the
  /// last's, not in a heap block of their own.
  Network compiled() const {
    std::vector<Track<S>> pieces = data_->pieces;
    for (Track<S>& piece : pieces)
      if (!piece.compiled_path()) piece = piece.compiled();
    std::vector<const CompiledPath<S>*> compiled;
    compiled.reserve(pieces.size());
    for (const Track<S>& piece : pieces)
      compiled.push_back(piece.compiled_path());
    std::vector<CompiledPath<S>> in_block = CompiledPath<S>::in_one_block(compiled);
    for (std::size_t i = 0; i < pieces.size(); ++i)
      pieces[i] = pieces[i].with_compiled(std::move(in_block[i]));
    return Network(
        make_data(std::move(pieces), data_->topology, data_->index, data_->order, data_->boxes));
  }
  /// How many joints the network has (switches included; 0 is allowed).
  std::size_t joint_count() const noexcept { return data_->topology->sides.size(); }
  /// The joint an end is in, or std::nullopt for a buffer stop (or a piece not in the network).
  std::optional<std::size_t> joint_of(const PieceEnd& e) const noexcept {
    if (e.piece >= piece_count()) return std::nullopt;
    const std::size_t j = data_->topology->joint(e);
    if (j == detail::Topology::none) return std::nullopt;
    return j;
  }
  /// The ends on side `s` (0 or 1) of a joint: a train crosses from an end on one side to an end
  /// on the other. Side 0 holds the joint's first end (as listed, or as join_ends found it).
  /// Preconditions (asserted): joint < joint_count(), s < 2.
  const std::vector<PieceEnd>& side(std::size_t joint, std::uint8_t s) const noexcept {
    TRACTRIX_ASSERT(joint < joint_count() && s < 2);
    return data_->topology->sides[joint][s];
  }
  /// Settings for this network with every switch set to the first end listed on each of its
  /// sides.
  SwitchSettings default_settings() const { return SwitchSettings(data_->topology); }

  /// The nearest point of the whole network to `query`, exact as MeasuredPath::closest_point is
  /// on each piece (where two points are equally near, either may come back). The pieces sit in
  /// a tree of boxes (ordered by splits along the widest spread of their box centres, four to a
  /// leaf), searched nearest box first; within a piece, its own tree of segment boxes. Each skips
  /// what lies farther than the best found, so a query on a network of n pieces looks at
  /// O(log n) boxes and a few segments, wherever the pieces were listed. A non-finite query gives
  /// piece 0's start with a NaN squared_distance. Where every squared distance overflows (a query
  /// ~1e154 from the network in double, ~1e19 in float) all points compare equal: piece 0's
  /// start, squared_distance +inf.
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
    const ClosestPoint<S, 3> at = closest_of(piece, nearest, query);
    return NetworkPoint<S>{piece, at.distance, at.point, at.squared_distance};
  }

  /// The same for a point that moves a little between calls: the last answer's piece and the
  /// pieces kept near the last global search, while the answer stays within their radius; the
  /// whole network when it jumps (NetworkPointCursor says when, and what it costs). The same
  /// answer as without the cursor, up to ties. One cursor per moving point.
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
        const ClosestPoint<S, 3> at = closest_of(piece, best, query);
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

  /// The joints as the network keeps them (internal layout), shared with the SwitchSettings made
  /// for it: what SwitchSettings::made_for compares.
  const detail::Topology& topology() const noexcept { return *data_->topology; }
  /// True when both hold the same data (one was copied from the other).
  bool shares_data_with(const Network& other) const noexcept { return data_ == other.data_; }

 private:
  // The network of checked pieces (joint_limits passed) with these joints: each joint added and
  // checked (add_joint), then the piece index and the pieces' lookups built.
  static Expected<Network> joined(std::vector<Track<S>> pieces,
                                  const std::vector<std::vector<PieceEnd>>& joints,
                                  const detail::JointLimits<S>& limits) {
    auto topology = std::make_shared<detail::Topology>();
    topology->joint_of.assign(pieces.size(), {detail::Topology::none, detail::Topology::none});
    topology->side_of.assign(pieces.size(), {0, 0});
    topology->sides.resize(joints.size());
    for (std::size_t j = 0; j < joints.size(); ++j)
      if (auto error = detail::add_joint(j, joints[j], pieces, limits, *topology))
        return std::move(*error);
    auto [order, boxes] = detail::piece_order(pieces);
    PathBounds<S, 3> index(boxes);
    return Network(make_data(std::move(pieces), std::move(topology), std::move(index),
                             std::move(order), std::move(boxes)));
  }

  struct Data {
    std::vector<Track<S>> pieces;
    std::vector<typename MeasuredPath<S>::Lookup> lookups;  // per piece
    std::vector<const CompiledPath<S>*> compiled;           // per piece, into `pieces`
    std::shared_ptr<const detail::Topology> topology;
    PathBounds<S, 3> index;                             // over the pieces' boxes, in `order`
    std::vector<std::size_t> order;                     // leaf item i is piece order[i]
    std::vector<typename PathBounds<S, 3>::Box> boxes;  // and boxes[i] its box
  };

  explicit Network(std::shared_ptr<const Data> data) : data_(std::move(data)) {}

  // The winning piece's answer, measured along it: on its cells where it is compiled.
  ClosestPoint<S, 3> closest_of(std::size_t piece, const detail::Nearest<S>& nearest,
                                const Vector3<S>& query) const {
    const Data& d = *data_;
    if (const CompiledPath<S>* compiled = d.compiled[piece])
      return compiled->closest_of(nearest, query);
    return d.pieces[piece].path().closest_of(nearest, query);
  }

  // The shared data of these pieces, with their lookups and compiled forms (pointers into the
  // pieces' shared data and into the pieces Data keeps).
  static std::shared_ptr<const Data> make_data(std::vector<Track<S>> pieces,
                                               std::shared_ptr<const detail::Topology> topology,
                                               PathBounds<S, 3> index,
                                               std::vector<std::size_t> order,
                                               std::vector<typename PathBounds<S, 3>::Box> boxes) {
    auto data = std::make_shared<Data>(Data{std::move(pieces),
                                            {},
                                            {},
                                            std::move(topology),
                                            std::move(index),
                                            std::move(order),
                                            std::move(boxes)});
    for (const Track<S>& piece : data->pieces) {
      data->lookups.push_back(piece.path().lookup());
      data->compiled.push_back(piece.compiled_path());
    }
    return data;
  }

  std::shared_ptr<const Data> data_;
};

}  // namespace tractrix
