/// @file
/// `Route`: a walk through a network — pieces in order (`Step`s), each driven forwards or
/// backwards (`Direction`) — measured as one track, so a TrainSolver runs on it as on a single
/// curve: `TrainSolver<S, Route<S>>`.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tractrix/curve/detail/past_ends.hpp"
#include "tractrix/network/network.hpp"
#include "tractrix/train/wagon.hpp"

namespace tractrix {

/// Which way a route drives a piece.
enum class Direction : std::uint8_t {
  forward,  ///< along the piece's own distance, from its start to its end
  backward  ///< against it, from its end to its start
};

/// One piece of a route and the way it is driven.
struct Step {
  std::size_t piece = 0;                     ///< the piece's index in the network
  Direction direction = Direction::forward;  ///< which way the route drives it

  /// Whether both drive the same piece the same way.
  friend bool operator==(const Step& a, const Step& b) noexcept {
    return a.piece == b.piece && a.direction == b.direction;
  }
  /// Whether they differ in piece or direction.
  friend bool operator!=(const Step& a, const Step& b) noexcept { return !(a == b); }
  /// The same piece driven the other way.
  Step turned() const noexcept {
    return {piece, direction == Direction::forward ? Direction::backward : Direction::forward};
  }
  /// The end a train enters the piece by: its start driven forward, its end driven backward.
  PieceEnd entry() const noexcept {
    return {piece, direction == Direction::forward ? End::start : End::end};
  }
  /// The end a train leaves the piece by: its end driven forward, its start driven backward.
  PieceEnd exit() const noexcept {
    return {piece, direction == Direction::forward ? End::end : End::start};
  }
};

/// The step as error messages name it: `"piece 3 forward"`, `"piece 0 backward"`.
inline std::string to_string(const Step& step) {
  return "piece " + detail::index_text(step.piece) +
         (step.direction == Direction::forward ? " forward" : " backward");
}

/// A walk through a network — pieces in order, each driven forwards or backwards — measured as
/// one track: distance s runs along the route from the start of its first step, in the network's
/// units, wrapped on a closed route and clamped on an open one. A track type (the track concept,
/// train/track_concept.hpp), so `TrainSolver<S, Route<S>>` runs trains on it. Immutable once
/// built; copies share the steps and the network (a reference count, no data copied), so any
/// number of trains can hold one route, from any thread.
template <class S>
class Route {
 public:
  /// A point on the route: as MeasuredPath::Sample, plus the step it lies on and its distance
  /// along that piece.
  struct Sample {
    Vector3<S> point;  ///< the point on the piece
    /// The unit tangent, pointing along the route: against the piece on a backward step.
    Vector3<S> tangent;
    S parameter;       ///< the piece's path parameter t at the point
    std::size_t step;  ///< the step the point lies on
    S piece_distance;  ///< the distance along that piece in the piece's own direction
  };
  /// Where the last query landed, so that the next one near it starts there. Value-initialized
  /// for a first query; any value is valid (a stale cursor costs a search, never a wrong answer).
  /// One cursor per caller (a bogie, a camera).
  struct Cursor {
    std::size_t step = 0;   ///< the step of the last query
    std::size_t table = 0;  ///< its entry in that piece's arc-length table
    std::size_t cell = 0;   ///< or its cell, where the piece is compiled
  };
  /// A distance along the route, as the step and the piece it lies on (locate's result).
  struct Place {
    std::size_t step;     ///< the step it lies on
    std::size_t piece;    ///< that step's piece
    S piece_distance;     ///< the distance along the piece in the piece's own direction
    Direction direction;  ///< which way the step drives the piece
  };

  /// The walk `steps` through `network`: each step must continue the one before it — the one's
  /// exit end and the next's entry end in one joint, on opposite sides — and, with
  /// Closure::closed, the first continues the last. Switch settings are not consulted (a route is
  /// what the train will drive; SwitchSettings::set each leg on it to show it).
  ///
  /// Errors: empty_input for no steps; out_of_range for a step whose piece is not in the network;
  /// not_continuous for a step that does not continue the one before it (the one's exit or the
  /// next's entry a buffer stop, the two in different joints, or both on one side of their
  /// joint), the message naming both steps and why.
  static Expected<Route> build(Network<S> network, std::vector<Step> steps,
                               Closure closure = Closure::open) {
    const bool closed = closure == Closure::closed;
    if (steps.empty()) return make_error(ErrorCode::empty_input, "route: no steps");
    for (std::size_t i = 0; i < steps.size(); ++i)
      if (steps[i].piece >= network.piece_count())
        return make_error(ErrorCode::out_of_range,
                          "route: step " + detail::number_text(i) + " (" + to_string(steps[i]) +
                              ") leaves the network of " +
                              detail::number_text(network.piece_count()) + " pieces");
    for (std::size_t i = 1; i < steps.size() + (closed ? 1 : 0); ++i) {
      const Step& from = steps[i - 1];
      const Step& to = steps[i % steps.size()];
      if (auto error = break_between(network, from, to))
        return make_error(ErrorCode::not_continuous,
                          "route: step " + detail::number_text(i % steps.size()) + " (" +
                              to_string(to) + ") does not continue step " +
                              detail::number_text(i - 1) + " (" + to_string(from) + "): " + *error);
    }
    return Route(std::move(network), std::move(steps), closed);
  }
  /// Deprecated: build with a `bool` for the closure (0.2's spelling, kept for one release);
  /// true is Closure::closed. Otherwise the same, errors included.
  [[deprecated("pass Closure::closed or Closure::open")]] static Expected<Route> build(
      Network<S> network, std::vector<Step> steps, bool closed) {
    return build(std::move(network), std::move(steps), closed ? Closure::closed : Closure::open);
  }

  /// The walk from `start` that a train takes with these switch settings: piece after piece
  /// until a buffer stop, until it comes back to `start` (a closed route), or until it is at
  /// least `min_length` long (an open route ending at the end of the piece that got it there;
  /// infinity, the default, or NaN sets no length).
  ///
  /// Errors: out_of_range for a start whose piece is not in the network; mismatched_topology for
  /// settings made for another network; no_solution for a switch entered by a leg it is not set
  /// to, the message naming the joint and both legs.
  static Expected<Route> follow(Network<S> network, const SwitchSettings& settings, Step start,
                                S min_length = std::numeric_limits<S>::infinity()) {
    if (start.piece >= network.piece_count())
      return make_error(ErrorCode::out_of_range,
                        "route: the start (" + to_string(start) + ") is not in the network of " +
                            detail::number_text(network.piece_count()) + " pieces");
    bool closed = false;
    auto steps = walk(network, settings, start, min_length, Walk::follow, &closed);
    if (!steps) return steps.error();
    return Route(std::move(network), std::move(*steps), closed);
  }

  /// The network the route runs through.
  const Network<S>& network() const noexcept { return data_->network; }
  /// The route's length: its pieces' lengths summed (> 0).
  S length() const noexcept { return data_->offsets.back(); }
  /// Whether the route is closed (distances wrap) or open (distances clamp).
  bool closed() const noexcept { return data_->closed; }
  /// How many steps the route has (≥ 1).
  std::size_t size() const noexcept { return data_->steps.size(); }
  /// Step i, i < size() (not checked).
  const Step& step(std::size_t i) const noexcept { return data_->steps[i]; }
  /// The route distance where step i starts, i ≤ size() (not checked); i == size(): the length.
  S step_start(std::size_t i) const noexcept { return data_->offsets[i]; }
  /// The route distances of its pieces' knots, where its curvature may jump (Track's, mapped
  /// onto each step in its direction), ascending from 0.
  std::vector<S> knot_distances() const {
    std::vector<S> knots;
    for (std::size_t i = 0; i < size(); ++i) {
      const Step& s = step(i);
      const Track<S>& piece = network().piece(s.piece);
      const S piece_length = piece.length();
      knots.push_back(step_start(i));  // the joint (a turned piece's own start is its far end)
      for (const S k : piece.knot_distances())
        if (k > S(0))
          knots.push_back(step_start(i) +
                          (s.direction == Direction::forward ? k : piece_length - k));
    }
    std::sort(knots.begin(), knots.end());
    knots.erase(
        std::unique(knots.begin(), knots.end(), [](S a, S b) { return !(a < b) && !(b < a); }),
        knots.end());
    while (!knots.empty() && !(knots.back() < length()))
      knots.pop_back();
    return knots;
  }

  /// The same walk driven the other way: the steps in reverse order, each turned, closed if this
  /// one is. Distance s on this route is length() − s on the reversed one; a train backing along
  /// this route is a train driving forwards on the reversed one (reversed_train gives its
  /// wagons).
  Route reversed() const {
    std::vector<Step> steps;
    steps.reserve(data_->steps.size());
    for (auto it = data_->steps.rbegin(); it != data_->steps.rend(); ++it)
      steps.push_back(it->turned());
    return Route(data_->network, std::move(steps), data_->closed);
  }

  /// The step and piece distance at route distance s (wrapped on closed routes, clamped on open
  /// ones; NaN reads as 0): O(log steps).
  Place locate(S s) const noexcept {
    Cursor cursor;
    cursor.step = find_step(wrap_or_clamp(s));
    const Sample at = sample(s, cursor);
    return {at.step, data_->steps[at.step].piece, at.piece_distance,
            data_->steps[at.step].direction};
  }

  /// locate's inverse: the route distances at which the route passes `place` (a piece and a
  /// distance along it in the piece's own direction, clamped onto the piece; NaN reads as 0),
  /// ascending — one per step over that piece, none where the route does not pass it or the
  /// piece is not in the network. A closest point on the network (Network::closest_point: its
  /// piece and distance) becomes a distance along the route this way, and so does a bogie's
  /// WagonPose::front_place on another route. O(steps).
  std::vector<S> distances_at(const PiecePlace<S>& place) const {
    std::vector<S> out;
    if (place.piece >= data_->network.piece_count()) return out;
    const S piece_length = data_->network.piece_lookup(place.piece).table.length();
    const S d = detail::clamp_or_low(place.distance, S(0), piece_length);
    for (std::size_t i = 0; i < data_->steps.size(); ++i) {
      const Step& step = data_->steps[i];
      if (step.piece != place.piece) continue;
      const S s = data_->offsets[i] + (step.direction == Direction::forward ? d : piece_length - d);
      // On a loop the end of the last step is its start: in [0, length()) like every distance.
      out.push_back(data_->closed && !(s < length()) ? S(0) : s);
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  /// distances_at for a closest point on the network: its piece and distance.
  std::vector<S> distances_at(const NetworkPoint<S>& point) const {
    return distances_at(PiecePlace<S>{point.piece, point.distance});
  }

  /// s wrapped (closed) into [0, length()) or clamped (open) into [0, length()]; NaN gives 0, and
  /// so does an infinite s on a closed route.
  S wrap_or_clamp(S s) const noexcept {
    if (data_->closed) return detail::wrap(s, length());
    return detail::clamp_or_low(s, S(0), length());
  }

  /// Point and unit tangent along the route at distance s (wrapped or clamped), exact to the
  /// pieces' promise (MeasuredPath::sample, or CompiledPath::sample on a compiled network's
  /// pieces); O(1) from a cursor near s, O(log steps) otherwise.
  /// Updates `cursor` for the next query.
  Sample sample(S s, Cursor& cursor) const noexcept {
    s = wrap_or_clamp(s);
    const std::size_t i = step_near(s, cursor);
    const Step& step = data_->steps[i];
    const auto& piece = data_->network.piece_lookup(step.piece);
    const S piece_length = piece.table.length();
    const S local = detail::clamp_or_low(s - data_->offsets[i], S(0), piece_length);
    const bool forward = step.direction == Direction::forward;
    const S d = forward ? local : piece_length - local;
    const CompiledPath<S>* compiled = data_->network.piece_compiled(step.piece);
    const auto at = compiled ? compiled->sample(d, cursor.cell)
                             : MeasuredPath<S>::sample_with(piece, d, cursor.table);
    Sample out;
    out.point = at.point;
    out.tangent = forward ? at.tangent : Vector3<S>(-at.tangent);
    out.parameter = at.parameter;
    out.step = i;
    out.piece_distance = d;
    return out;
  }
  /// As sample, but an open route continues straight along its end tangents past either end (the
  /// piece distance runs on past the piece's end likewise, beyond [0, the piece's length]).
  Sample sample_extended(S s, Cursor& cursor) const noexcept {
    S beyond;
    Sample out = detail::sample_past_ends(*this, s, cursor, beyond);
    if (beyond < S(0) || beyond > S(0)) {
      const bool forward = data_->steps[out.step].direction == Direction::forward;
      out.piece_distance += forward ? beyond : -beyond;
    }
    return out;
  }

  /// The unit up hint at a sample (Track::up_at of its piece, at its piece distance; the route
  /// distance is not used). The source sees the piece's own direction, so a banked curve leans
  /// the same way whichever way it is driven.
  Vector3<S> up_at(S, const Sample& at) const noexcept {
    const Step& step = data_->steps[at.step];
    const Track<S>& piece = data_->network.piece(step.piece);
    const bool forward = step.direction == Direction::forward;
    return piece.up_at(at.piece_distance, at.point, forward ? at.tangent : Vector3<S>(-at.tangent));
  }
  /// The world up every piece of the route shares, if all have the same constant up source; else
  /// null (up_at must be asked). Points into the network's data: valid while the route lives.
  const Vector3<S>* constant_up() const noexcept { return data_->constant_up; }
  /// Curvature vector κN at a sample, in 1/length (Path::curvature_vector at its parameter): the
  /// same whichever way a piece is driven.
  Vector3<S> curvature_vector(const Sample& at) const noexcept {
    return data_->network.piece(data_->steps[at.step].piece)
        .path()
        .path()
        .curvature_vector(at.parameter);
  }
  /// The piece and the distance along it (its own direction) of a sample; the route distance is
  /// not used.
  PiecePlace<S> place(S, const Sample& at) const noexcept {
    return {data_->steps[at.step].piece, at.piece_distance};
  }
  /// The size of the numbers a solver on this route works with: its length or its pieces'
  /// largest coordinate, whichever is larger.
  S coordinate_scale() const noexcept { return data_->coordinate_scale; }

  /// around's result: the new route, and the head's distance on it.
  struct Moved;
  /// A train's route as it moves: the steps under the train (from `train_length` behind `head` to
  /// `head`) kept as they are — a switch thrown under the train moves no wagon — and beyond them
  /// the steps the switch settings lead to, until `ahead` past the head and `behind` past the last
  /// bogie are covered or a buffer stop is reached. Steps further away are dropped, so the route
  /// stays short on a big network. A switch set against the walk (entered by the leg it is not set
  /// to) ends it there, as a buffer stop does: the train may not pass until it is thrown. Returns
  /// the new (open) route and the head's distance on it; the train solved there stands where it
  /// stood.
  ///
  /// `train_length` is how far back along the route the last bogie stands (head − the last
  /// pose's rear_distance). With arc spacing the wagons' lengths summed are never less; with chord
  /// spacing on curves the bogies stand farther back (each chord's arc is longer than the chord):
  /// pass that distance, or a `behind` that covers the difference. A bogie whose step is dropped
  /// jumps. Non-finite or negative lengths count as 0 (and a non-finite head as 0); a closed
  /// route comes back unchanged, with the head as given.
  ///
  /// Errors: mismatched_topology for settings made for another network (on a closed route too);
  /// out_of_range for a walk of more than 4 steps a piece + 1024 (an `ahead` or `behind` of many
  /// laps of a loop).
  Expected<Moved> around(S head, S train_length, const SwitchSettings& settings, S ahead,
                         S behind) const {
    if (!std::isfinite(head)) head = S(0);
    // Settings of another network are an error on a closed route too, which needs no walk.
    if (!settings.made_for(&data_->network.topology())) return foreign_settings();
    if (data_->closed) return Moved{*this, head};
    auto length_or_zero = [](S x) { return std::isfinite(x) && x > S(0) ? x : S(0); };
    const S rear = head - length_or_zero(train_length);
    const std::vector<S>& offsets = data_->offsets;
    const std::size_t first = find_step(wrap_or_clamp(rear));
    const std::size_t last = find_step(wrap_or_clamp(head));
    // Ahead: on from the head's step until `ahead` past the head is covered. Behind: the rear
    // bogie's step turned round, from its far end, until `behind` past the rear is covered.
    auto forward_steps = walk(data_->network, settings, data_->steps[last],
                              head - offsets[last] + length_or_zero(ahead), Walk::around);
    if (!forward_steps) return forward_steps.error();
    auto backward_steps = walk(data_->network, settings, data_->steps[first].turned(),
                               offsets[first + 1] - rear + length_or_zero(behind), Walk::around);
    if (!backward_steps) return backward_steps.error();
    std::vector<Step> steps;
    steps.reserve(backward_steps->size() + (last - first) + forward_steps->size());
    for (std::size_t k = backward_steps->size(); k-- > 1;)
      steps.push_back((*backward_steps)[k].turned());
    const std::size_t prepended = steps.size();
    for (std::size_t k = first; k <= last; ++k)
      steps.push_back(data_->steps[k]);
    for (std::size_t k = 1; k < forward_steps->size(); ++k)
      steps.push_back((*forward_steps)[k]);
    Route route(data_->network, std::move(steps), false);
    const S moved_head = route.step_start(prepended) + (head - offsets[first]);
    return Moved{std::move(route), moved_head};
  }

 private:
  Route(Network<S> network, std::vector<Step> steps, bool closed) {
    std::vector<S> offsets;
    offsets.reserve(steps.size() + 1);
    offsets.push_back(S(0));
    S sum = S(0), carry = S(0);  // compensated: a long route's offsets stay exact to an ulp
    S scale = S(0);
    bool same_up = true;
    // In the network's shared data, which outlives every route on it.
    const Vector3<S>& up = network.piece(steps.front().piece).up_source().world_up();
    for (const Step& step : steps) {
      const Track<S>& piece = network.piece(step.piece);
      const S next = sum + piece.length();
      carry += detail::rounding_of_sum(sum, piece.length(), next);
      sum = next;
      offsets.push_back(sum + carry);
      scale = std::max(scale, piece.path().path().extent());
      const Vector3<S>& own = piece.up_source().world_up();
      same_up = same_up && piece.up_source().is_constant() &&
                detail::exactly_equal(own.x(), up.x()) && detail::exactly_equal(own.y(), up.y()) &&
                detail::exactly_equal(own.z(), up.z());
    }
    scale = std::max(scale, offsets.back());
    data_ =
        std::make_shared<const Data>(Data{std::move(network), std::move(steps), std::move(offsets),
                                          closed, same_up ? &up : nullptr, scale});
  }

  // Why `to` cannot follow `from`, or nothing when it can.
  static std::optional<std::string> break_between(const Network<S>& network, const Step& from,
                                                  const Step& to) {
    const detail::Topology& topology = network.topology();
    const PieceEnd out = from.exit(), in = to.entry();
    const std::size_t j = topology.joint(out);
    if (j == detail::Topology::none) return to_string(out) + " is a buffer stop";
    if (topology.joint(in) != j) {
      const std::size_t k = topology.joint(in);
      return to_string(out) + " is in joint " + detail::number_text(j) + ", " + to_string(in) +
             (k == detail::Topology::none ? " is a buffer stop"
                                          : " in joint " + detail::number_text(k));
    }
    if (topology.side(out) == topology.side(in))
      return to_string(out) + " and " + to_string(in) + " are on the same side of joint " +
             detail::number_text(j) + " (a train cannot turn back there)";
    return std::nullopt;
  }

  // How walk treats its start and a switch set against it.
  enum class Walk {
    follow,  // stops back at the start (a closed route); a switch set against it is an error
    around,  // goes on past the start; stops at a switch set against it, as at a buffer stop
  };

  static Error foreign_settings() {
    return make_error(ErrorCode::mismatched_topology,
                      "route: the switch settings were made for another network");
  }

  // Steps from `start` as the settings lead, until min_length is covered, a buffer stop, or (when
  // following) back at `start`; `closed` is set when it came back.
  static Expected<std::vector<Step>> walk(const Network<S>& network, const SwitchSettings& settings,
                                          Step start, S min_length, Walk mode,
                                          bool* closed = nullptr) {
    const detail::Topology& topology = network.topology();
    if (!settings.made_for(&topology)) return foreign_settings();
    std::vector<Step> steps{start};
    S length = network.piece(start.piece).length();
    // Each step follows from the one before and, as every switch is entered by the leg it is
    // set to, the one before from it: a walk that does not stop comes back to its start within
    // 2·pieces steps. Past that only a length of more than a few laps of a loop (or one float
    // lengths cannot reach) keeps it walking round.
    const std::size_t most = 4 * network.piece_count() + 1024;
    while (!(length >= min_length)) {
      const PieceEnd out = steps.back().exit();
      const std::size_t j = topology.joint(out);
      if (j == detail::Topology::none) break;  // a buffer stop
      const std::uint8_t side = topology.side(out);
      if (topology.sides[j][side].size() > 1 && settings.selected(j, side) != out) {
        if (mode == Walk::around) break;
        return make_error(ErrorCode::no_solution, "route: joint " + detail::number_text(j) +
                                                      " is entered from " + to_string(out) +
                                                      " but the switch is set to " +
                                                      to_string(settings.selected(j, side)));
      }
      const PieceEnd in = settings.selected(j, static_cast<std::uint8_t>(1 - side));
      const Step next{in.piece, in.end == End::start ? Direction::forward : Direction::backward};
      if (mode == Walk::follow && next == start) {
        if (closed) *closed = true;
        break;
      }
      if (steps.size() == most)
        return make_error(ErrorCode::out_of_range,
                          "route: from " + to_string(start) + ", " + detail::number_text(most) +
                              " steps (the limit: 4 a piece + 1024) cover " +
                              detail::number_text(double(length)) + " of the " +
                              detail::number_text(double(min_length)) +
                              " asked for; a route laps a loop a few times at most");
      steps.push_back(next);
      length += network.piece(next.piece).length();
    }
    return steps;
  }

  std::size_t find_step(S s) const noexcept {
    const auto it = std::upper_bound(data_->offsets.begin() + 1, data_->offsets.end() - 1, s);
    return static_cast<std::size_t>(it - (data_->offsets.begin() + 1));
  }
  // The step holding s (in [0, length]): the cursor's, a neighbour's, or by binary search.
  std::size_t step_near(S s, Cursor& cursor) const noexcept {
    const std::vector<S>& offsets = data_->offsets;
    const std::size_t n = data_->steps.size();
    std::size_t i = cursor.step < n ? cursor.step : n - 1;
    if (s >= offsets[i] && (s < offsets[i + 1] || i + 1 == n)) {
      cursor.step = i;
      return i;
    }
    // A new step: its table search starts from the end the query came in by.
    bool at_route_start;
    if (i + 1 < n && s >= offsets[i + 1] && (i + 2 == n || s < offsets[i + 2])) {
      ++i, at_route_start = true;
    } else if (i > 0 && s < offsets[i] && s >= offsets[i - 1]) {
      --i, at_route_start = false;
    } else {
      i = find_step(s);
      at_route_start = s - offsets[i] < offsets[i + 1] - s;
    }
    const bool forward = data_->steps[i].direction == Direction::forward;
    cursor.table = at_route_start == forward ? 0 : std::numeric_limits<std::size_t>::max();
    cursor.step = i;
    return i;
  }

  struct Data {
    Network<S> network;
    std::vector<Step> steps;
    std::vector<S> offsets;  // offsets[i]: route distance where step i starts; back(): length
    bool closed;
    const Vector3<S>* constant_up;  // null unless every piece has this world up
    S coordinate_scale;
  };
  std::shared_ptr<const Data> data_;  // shared by copies: trains on one route share it
};

/// Route::around's result: the new route, and the head's distance on it.
template <class S>
struct Route<S>::Moved {
  Route route;  ///< the route around the train
  S head;       ///< the head's distance on `route`
};

}  // namespace tractrix
