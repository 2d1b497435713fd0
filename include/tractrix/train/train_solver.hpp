/// @file
/// `TrainSolver`: the poses of a train's wagons chained along a track behind a head distance, as
/// the TrainDriver plugin for Cinema 4D places them; `Wrap`, `Spacing` and `TrainOptions` choose
/// what happens past the track's ends and how bogies are spaced; `solve_trains` solves many
/// trains in one call. Chord spacing's search is in detail/chord_search.hpp.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(TRACTRIX_OPENMP) && defined(_OPENMP)
#include <omp.h>
#endif

#include "tractrix/core/loop_distance.hpp"
#include "tractrix/train/detail/chord_offsets.hpp"
#include "tractrix/train/detail/chord_search.hpp"
#include "tractrix/train/track.hpp"
#include "tractrix/train/track_concept.hpp"
#include "tractrix/train/wagon.hpp"

namespace tractrix {

namespace detail {
// Where a track's curvature may jump, for compiled chord offsets: the track's knot_distances()
// where it has them (Track, Route), else only its start (the fit then halves about the knots,
// and on long tracks of many knots may find no cell that holds).
template <class TrackType, class = void>
struct has_knot_distances : std::false_type {};
template <class TrackType>
struct has_knot_distances<TrackType,
                          std::void_t<decltype(std::declval<const TrackType&>().knot_distances())>>
    : std::true_type {};
template <class TrackType>
std::vector<double> knot_distances(const TrackType& track) {
  std::vector<double> knots;
  if constexpr (has_knot_distances<TrackType>::value) {
    for (const auto k : track.knot_distances())
      knots.push_back(double(k));
  }
  if (knots.empty() || knots.front() > 0.0) knots.insert(knots.begin(), 0.0);
  return knots;
}

// What train_kinematics reads of a solver: where it places and samples a bogie (private to
// TrainSolver, which has no other use for them in its API).
struct TrainSolverAccess {
  template <class Solver, class S>
  static auto sample_at(const Solver& solver, S distance, typename Solver::Cursor& cursor) {
    return solver.sample_at(distance, cursor);
  }
  template <class Solver, class S>
  static bool beyond_end(const Solver& solver, S distance) {
    return solver.beyond_end(distance);
  }
  template <class Solver, class S>
  static bool held_at_end(const Solver& solver, S distance) {
    return solver.held_at_end(distance);
  }
};
}  // namespace detail

/// What happens past the ends of the track.
enum class Wrap {
  automatic,  ///< circular on a loop, clamp on open track (TrainSolver::build picks)
  circular,   ///< a loop: distances wrap, and WagonPose::lap counts the laps; closed track only
  /// open track only: bogies are held at the ends. A head past the far end is held there and the
  /// train stops behind it; bogies backed past the start pile up there (WagonStatus)
  clamp,
  extend  ///< open track only: the track runs on straight along its end tangents past either end
};

/// How bogies are spaced along the track.
enum class Spacing {
  /// Rigid bodies, straight-line distances: each rear bogie is the first track point
  /// bogie_distance in a straight line behind its front bogie, and the next wagon's front bogie
  /// the first one length − bogie_distance behind that rear bogie.
  chord,
  /// The TrainDriver plugin's way, distances along the track: wagon i's front bogie lies the sum
  /// of the lengths of the wagons ahead of it behind the head, its rear bogie bogie_distance
  /// behind that.
  arc
};

/// How a TrainSolver treats the track's ends and spaces its bogies.
struct TrainOptions {
  Wrap wrap = Wrap::automatic;       ///< what happens past the ends of the track
  Spacing spacing = Spacing::chord;  ///< straight-line or along-the-track bogie distances
};

/// A train's wagons chained along a track: each wagon's bogie, body and coupler frames for a
/// head distance, the locomotive's front bogie there and the wagons behind it. On a Track, or on
/// any track type (train/track_concept.hpp: a network's `Route<S>`, say). Immutable once built;
/// every solve is const and keeps no state, so one solver serves any number of threads.
/// Distances are in the track's units, along it from its start.
template <class S, class TrackType = Track<S>>
class TrainSolver {
  static_assert(detail::check_track<TrackType, S>(), "TrainSolver<S, TrackType>: see above");

 public:
  /// A solver for `wagons` (locomotive first; an empty list is allowed) on `track`. Wrap::automatic
  /// becomes circular on a closed track and clamp on an open one.
  ///
  /// Errors: out_of_range for a wrap that does not fit the track (circular on open track, or
  /// anything but circular and automatic on a closed one); non_finite for a wagon whose length,
  /// bogie_distance or front_overhang is not finite; out_of_range for a length or
  /// bogie_distance that is not positive, a bogie_distance that exceeds the wagon's length, or a
  /// negative front_overhang; no_solution, for chord spacing on a loop, for a bogie chord with no
  /// track point that far behind some head within one lap (chords beyond the track's narrowest
  /// reach are tried behind 256 evenly spaced heads, and the message names the first that fails).
  static Expected<TrainSolver> build(TrackType track, std::vector<Wagon<S>> wagons,
                                     TrainOptions options = {}) {
    if (options.wrap == Wrap::automatic)
      options.wrap = track.closed() ? Wrap::circular : Wrap::clamp;
    if (track.closed() != (options.wrap == Wrap::circular))
      return make_error(ErrorCode::out_of_range, track.closed()
                                                     ? "wrap: a closed track is always circular"
                                                     : "wrap: circular needs a closed track");
    for (std::size_t i = 0; i < wagons.size(); ++i) {
      const Wagon<S>& w = wagons[i];
      const std::string name = "wagon " + detail::number_text(i) + ": ";
      if (!std::isfinite(w.length) || !std::isfinite(w.bogie_distance) ||
          !std::isfinite(w.front_overhang))
        return make_error(ErrorCode::non_finite,
                          name + "non-finite length, bogie_distance or front_overhang");
      if (!(w.length > S(0)))
        return make_error(ErrorCode::out_of_range,
                          name + "length " + detail::number_text(w.length) + " is not positive");
      if (!(w.bogie_distance > S(0)))
        return make_error(
            ErrorCode::out_of_range,
            name + "bogie_distance " + detail::number_text(w.bogie_distance) + " is not positive");
      if (w.bogie_distance > w.length)
        return make_error(ErrorCode::out_of_range,
                          name + "bogie_distance " + detail::number_text(w.bogie_distance) +
                              " exceeds length " + detail::number_text(w.length));
      if (w.front_overhang < S(0))
        return make_error(
            ErrorCode::out_of_range,
            name + "front_overhang " + detail::number_text(w.front_overhang) + " is negative");
    }
    TrainSolver solver(std::move(track), std::move(wagons), options);
    if (options.spacing == Spacing::chord && solver.track_.closed()) {
      // A chord no longer than the farthest any track point lies from the bogie has a solution
      // within one lap (the distance behind the bogie starts at 0 and reaches it). Chords within
      // the track's narrowest reach (a bound for every head) need no trial solve; each distinct
      // longer one is checked by solving it at 256 heads, which also names where it fails.
      S longest = S(0);
      for (const Wagon<S>& w : solver.wagons_)
        longest = std::max({longest, w.bogie_distance, w.length - w.bogie_distance});
      const S reach = solver.narrowest_reach(longest);
      // Where the coordinates' rounding sets the solver's tolerances, it may be what failed.
      const std::string coarse = ", or its coordinates, " +
                                 detail::number_text(solver.coordinate_scale_) +
                                 " from the origin, round too coarsely for it: place the track "
                                 "near the origin and its poses in the world";
      std::vector<std::pair<S, S>> checked;  // chord, unsolvable_at (NaN: solvable)
      for (std::size_t i = 0; i < solver.wagons_.size(); ++i) {
        const Wagon<S>& w = solver.wagons_[i];
        for (const S chord : {w.bogie_distance, w.length - w.bogie_distance}) {
          if (!(chord > reach)) continue;
          auto c = std::find_if(checked.begin(), checked.end(), [chord](const auto& entry) {
            return detail::exactly_equal(entry.first, chord);
          });
          if (c == checked.end())
            c = checked.insert(checked.end(), {chord, solver.chord_unsolvable_at(chord)});
          if (!std::isnan(c->second))
            return make_error(ErrorCode::no_solution,
                              "wagon " + detail::number_text(i) + ": no track point lies " +
                                  detail::number_text(chord) + " (a bogie chord) behind distance " +
                                  detail::number_text(c->second) +
                                  " within one lap (the track is narrower than the chord there" +
                                  (solver.rounding_bound_ ? coarse : std::string()) + ")");
        }
      }
    }
    return solver;
  }

  /// The result of Track::build (or of a Route's factory), solved for: its error, if it holds
  /// one, passes through; otherwise as the main build.
  static Expected<TrainSolver> build(Expected<TrackType> track, std::vector<Wagon<S>> wagons,
                                     TrainOptions options = {}) {
    if (!track) return track.error();
    return build(std::move(*track), std::move(wagons), options);
  }

  /// The TrainDriver plugin's "Spline Position" (a fraction of the track, may exceed 1 or be
  /// negative) as a head distance: spline_position · track_length.
  static S head_distance_from_normalized(S spline_position, S track_length) noexcept {
    return spline_position * track_length;
  }

  /// The track the train runs on.
  const TrackType& track() const noexcept { return track_; }
  /// The wagons, locomotive first, as given to build.
  const std::vector<Wagon<S>>& wagons() const noexcept { return wagons_; }
  /// The options, with Wrap::automatic resolved to circular or clamp.
  const TrainOptions& options() const noexcept { return options_; }

  /// This solver with its chord searches compiled: for each distinct chord of its wagons (bogie
  /// distances, and lengths less bogie distances), the distance from a bogie back to the first
  /// track point that chord away, as polynomials in the bogie's distance, so that a chord bogie
  /// usually costs one track sample instead of a search. Every guess is checked by that sample
  /// against the search's own tolerance (|c − d| within 1e-12 of the length), and the search
  /// runs where it misses or where no polynomial fits. The offsets are fitted to the search's
  /// roots, so they place a bogie where the search does, to the chord's conditioning — not
  /// bit-identically; the check confirms the chord's length, not that no nearer root lies
  /// between (the fit does, through the search it was built from). Copies share the compiled
  /// chords. Building costs a few thousand
  /// chord searches per track segment and chord: compile once, copy to every train with these
  /// wagons. Arc spacing has nothing to compile (the copy is unchanged); the distances of open
  /// track where the chord ends off the track are left to the search.
  ///
  /// Measured (benchmarks/README.md, "Compiled chords"): a chord wagon takes 0.6–0.76× the
  /// instructions on curvy track. Where the track and its chords stay in cache (a game's loop
  /// of a few hundred units) that is 0.41–0.62× the time; on long curvy tracks the cells (1–18
  /// kB a track segment for five chords) compete with the track for the cache and the guess
  /// sits on the chord chain's critical path, and it can be slower (up to 2.6× on 10⁵ tiny
  /// segments). Measure it on your track.
  TrainSolver compiled_chords() const {
    TrainSolver copy = *this;
    if (options_.spacing != Spacing::chord || wagons_.empty()) return copy;
    auto chords = std::make_shared<CompiledChords>();
    const std::vector<double> knots = detail::knot_distances(track_);
    for (const Wagon<S>& w : wagons_) {
      std::array<int, 2> used{-1, -1};
      const S wagon_chords[2] = {w.bogie_distance, w.length - w.bogie_distance};
      for (std::size_t k = 0; k < 2; ++k) {
        const S chord = wagon_chords[k];
        if (!(chord > S(0))) continue;
        auto& functions = chords->functions;
        auto f = std::find_if(functions.begin(), functions.end(), [chord](const auto& g) {
          return detail::exactly_equal(g.chord, chord);
        });
        if (f == functions.end())
          f = functions.insert(functions.end(), compile_chord(chord, knots));
        used[k] = static_cast<int>(f - functions.begin());
      }
      chords->of_wagon.push_back(used);
    }
    copy.chords_ = std::move(chords);
    return copy;
  }
  /// Whether chord searches start from compiled chord offsets (compiled_chords()).
  bool has_compiled_chords() const noexcept { return chords_ != nullptr; }
  /// Bytes the compiled chords hold (0 without them).
  std::size_t compiled_chord_bytes() const noexcept {
    if (!chords_) return 0;
    std::size_t bytes =
        sizeof(CompiledChords) + chords_->of_wagon.size() * sizeof(std::array<int, 2>);
    for (const auto& f : chords_->functions)
      bytes += f.memory_bytes();
    return bytes;
  }

  using Sample = typename TrackType::Sample;  ///< the track's sample (point, tangent, parameter)
  using Cursor = typename TrackType::Cursor;  ///< the track's lookup cursor

  /// One pose per wagon: the locomotive's front bogie at head_distance, the wagons behind it.
  /// Allocates the vector; otherwise as solve(head_distance, out).
  std::vector<WagonPose<S>> solve(S head_distance) const {
    std::vector<WagonPose<S>> poses(wagons_.size());
    solve(head_distance, poses.data());
    return poses;
  }

  /// Into a caller-owned buffer of wagons().size() poses; never allocates. Stateless: the same
  /// head distance always gives the same poses. A non-finite head distance is treated as 0. On a
  /// loop the head wraps and WagonPose::lap counts its laps; past the ends of open track the
  /// train is held (Wrap::clamp) or runs on straight (Wrap::extend).
  ///
  /// Compiled with OpenMP and TRACTRIX_OPENMP defined (off by default), arc spacing splits the
  /// wagons over the OpenMP threads (trains of 1024 wagons and more); the poses are bit-identical
  /// to a single thread's. The OpenMP runtime may allocate when it first starts its threads.
  void solve(S head_distance, WagonPose<S>* out) const noexcept {
    over_threads(wagons_.size(), [&](std::size_t begin, std::size_t end) noexcept {
      solve(head_distance, out, begin, end);
    });
  }

  /// Wagons [begin, end) only, into out[begin] … out[end − 1] (end is cut to wagons().size(); an
  /// empty range writes nothing). With arc spacing each wagon's place follows from the head
  /// alone, so ranges are independent and together bit-identical to the whole solve: split a
  /// long train over an engine's own worker threads this way. With chord spacing each wagon
  /// hangs on the one before it, so a range walks the chain from wagon 0 (frames are built only
  /// inside the range); splitting it over threads saves only the frames. Never allocates.
  void solve(S head_distance, WagonPose<S>* out, std::size_t begin,
             std::size_t end) const noexcept {
    solve_range(head_distance, begin, end,
                [this, out](std::size_t j, const Placed& p, Cursor cursor) noexcept {
                  write_pose(wagons_[j], p, cursor, out[j]);
                });
  }

  /// Straight into an engine's arrays (WagonPoseArrays: position + quaternion or 4×4 matrices,
  /// float or double, any record size, the engine's axes): no WagonPose buffer, no conversion
  /// loop, and only the frames of the parts given are built (a body_centered part alone costs
  /// one frame a wagon, not three). Writes wagons 0 … n − 1 of every part, n the smallest count
  /// of the parts given (count > 0) and at most wagons().size(); returns n (0 when no part can be
  /// written). Parts that WagonPoseArrays::error() rejects are skipped. Never allocates; with
  /// OpenMP and TRACTRIX_OPENMP, arc spacing splits the wagons over threads as solve() does.
  template <class T>
  std::size_t solve(S head_distance, const WagonPoseArrays<T>& out) const noexcept {
    const WagonPoseArrays<T> parts = detail::writable_parts(out);
    const std::size_t n = detail::records_of(parts, wagons_.size());
    over_threads(n, [&](std::size_t begin, std::size_t end) noexcept {
      write_arrays(head_distance, parts, begin, end);
    });
    return n;
  }

  /// Wagons [begin, end) only into an engine's arrays (record j of each part for wagon j), for an
  /// engine's job system: with arc spacing ranges are independent and together bit-identical to
  /// the whole solve; with chord spacing a range walks the chain from wagon 0 (as the WagonPose
  /// range solve). `end` is cut to what solve(head_distance, out) would write, which it returns.
  template <class T>
  std::size_t solve(S head_distance, const WagonPoseArrays<T>& out, std::size_t begin,
                    std::size_t end) const noexcept {
    const WagonPoseArrays<T> parts = detail::writable_parts(out);
    const std::size_t n = detail::records_of(parts, wagons_.size());
    write_arrays(head_distance, parts, begin, std::min(end, n));
    return n;
  }

  /// Each wagon's pose handed to `visit(j, pose)` as it is solved, j = 0 … n − 1 in order, from
  /// one scratch pose: no buffer of n poses, for outputs in any layout (the Python package's
  /// arrays). `pose` is valid only during the call; `visit` must not throw (the solve is
  /// noexcept). Never allocates.
  template <class Visit>
  void solve_each(S head_distance, Visit&& visit) const noexcept {
    WagonPose<S> scratch;
    solve_range(head_distance, 0, wagons_.size(),
                [this, &scratch, &visit](std::size_t j, const Placed& p, Cursor cursor) noexcept {
                  write_pose(wagons_[j], p, cursor, scratch);
                  visit(j, static_cast<const WagonPose<S>&>(scratch));
                });
  }

 private:
  friend struct detail::TrainSolverAccess;

  // A compiled chord for one search (none: no function) and the cursor of its cells.
  struct CompiledChord {
    const detail::ChordOffsetFunction<S>* function = nullptr;
    std::size_t* cursor = nullptr;
  };
  // One cell cursor for each of the first few compiled chords (a train has a handful of wagon
  // types); chords past them share, a cursor being only a hint.
  using ChordCursors = std::array<std::size_t, 8>;

  // True where Wrap::clamp holds a bogie at this distance: at or beyond an end of open track. The
  // one rule for WagonPose::status and for train_kinematics (a held bogie does not move).
  bool held_at_end(S distance) const noexcept {
    return options_.wrap == Wrap::clamp && (distance <= S(0) || distance >= track_.length());
  }

  // The track under a bogie at `distance` as this solver places it: wrapped on loops, and past
  // the ends of open track straight along the end tangent with Wrap::extend. The one rule for
  // solve() and train_kinematics.
  Sample sample_at(S distance, Cursor& cursor) const noexcept {
    return options_.wrap == Wrap::extend ? track_.sample_extended(distance, cursor)
                                         : track_.sample(distance, cursor);
  }
  // True where sample_at continues past an end of open track (a straight line: no curvature).
  bool beyond_end(S distance) const noexcept {
    return options_.wrap == Wrap::extend && (distance < S(0) || distance > track_.length());
  }

  // Places wagons [begin, end) and hands each to put(j, placed, cursor) to build and store its
  // frames.
  template <class Put>
  void solve_range(S head_distance, std::size_t begin, std::size_t end,
                   const Put& put) const noexcept {
    end = std::min(end, wagons_.size());
    if (begin >= end) return;
    const S length = track_.length();
    const bool loop = track_.closed();
    if (!std::isfinite(head_distance)) head_distance = S(0);
    LoopDistance<S> head{head_distance, 0};
    if (loop) {
      head = LoopDistance<S>::wrapped(head_distance, length);
    } else if (options_.wrap == Wrap::clamp && head_distance > length) {
      // Past the far end the locomotive is held there and the train behind it stops with it,
      // whichever the spacing (holding each bogie alone would pile the wagons onto the end).
      head.distance = length;
    }
    // Software-pipelined: wagon i is placed and sampled while the frames of wagon i − lag are
    // built. The two are independent, so the CPU overlaps the samples' latency chains (table
    // lookups, square roots, divisions) with the frames' arithmetic and the pose stores.
    constexpr std::size_t lag = 2;
    Placed placed[lag + 1];
    Cursor cursor{};
    ChordCursors chord_cursors{};
    Sample next;
    bool have_next = false;
    LoopDistance<S> front = head;
    const bool arc = options_.spacing == Spacing::arc;
    const std::size_t first = arc ? begin : 0;  // the chord chain starts at the locomotive
    for (std::size_t i = first; i < end + lag; ++i) {
      if (i < end) {
        const Wagon<S>& wagon = wagons_[i];
        Placed& p = placed[i % (lag + 1)];
        if (arc) {
          // From the head alone (one subtraction of the wagon's offset), so no range depends on
          // another; on loops a train shorter than the track needs at most one lap correction.
          // On a loop the offset is kept modulo its length (laps apart): one step places the
          // bogie however many laps behind the head it is.
          front = placed_on_track(LoopDistance<S>{head.distance - offsets_[i], head.lap}.plus_laps(
              loop ? -offset_laps_[i] : 0));
          p.lap = front.lap;
          p.front_distance = front.distance;
          p.front = sample_at(front.distance, cursor);
          p.rear_distance = place(front.distance - wagon.bogie_distance);
          p.rear = sample_at(p.rear_distance, cursor);
          // (Its lap is not reported: the pose carries the front bogie's.)
          if (loop) p.rear_distance = LoopDistance<S>{p.rear_distance, 0}.on_loop(length).distance;
        } else {
          front = placed_on_track(front);
          p.front_distance = front.distance;
          p.lap = front.lap;
          // The previous chord solve already sampled this front bogie; the next wagon's front
          // bogie is the chord (length − bogie_distance) behind this rear bogie.
          p.front = have_next ? next : sample_at(front.distance, cursor);
          LoopDistance<S> rear{chord_behind(front.distance, p.front.point, wagon.bogie_distance,
                                            cursor, p.rear, compiled_chord(i, 0, chord_cursors)),
                               front.lap};
          if (loop) rear = rear.on_loop(length);
          p.rear_distance = rear.distance;
          const S gap = wagon.length - wagon.bogie_distance;
          if (gap > S(0)) {
            front = {chord_behind(rear.distance, p.rear.point, gap, cursor, next,
                                  compiled_chord(i, 1, chord_cursors)),
                     rear.lap};
          } else {
            front = rear;
            next = p.rear;
          }
          have_next = true;
        }
      }
      if (i >= first + lag && i - lag >= begin) {
        const std::size_t j = i - lag;
        put(j, placed[j % (lag + 1)], cursor);
      }
    }
  }

  TrainSolver(TrackType track, std::vector<Wagon<S>> wagons, TrainOptions options)
      : track_(std::move(track)),
        coordinate_scale_(track_.coordinate_scale()),
        rounding_bound_(coordinate_scale_ > track_.length() &&
                        S(2) * detail::epsilon<S>() * coordinate_scale_ >
                            S(1e-12) * track_.length()),
        coincident_(S(1024) * detail::epsilon<S>() * coordinate_scale_),
        wagons_(std::move(wagons)),
        options_(options) {
    // A compensated sum, as a route's offsets: each offset within an ulp of the exact one (a
    // plain float sum drifts further with every wagon).
    offsets_.reserve(wagons_.size());
    S sum = S(0), carry = S(0);
    for (const Wagon<S>& w : wagons_) {
      offsets_.push_back(sum + carry);
      const S next = sum + w.length;
      carry += detail::rounding_of_sum(sum, w.length, next);
      sum = next;
    }
    // On a loop, each offset as its exact remainder and whole laps: a wagon laps behind the
    // head is then placed by one step, not by an fmod per solve (and its distance is rounded at
    // the loop's size, not at its offset's).
    if (track_.closed()) {
      offset_laps_.reserve(offsets_.size());
      for (S& offset : offsets_) {
        const LoopDistance<S> wrapped = LoopDistance<S>::wrapped(offset, track_.length());
        offset = wrapped.distance;
        offset_laps_.push_back(wrapped.lap);
      }
    }
  }

  // A bogie distance as this solver keeps it: on a loop in [0, length) with its laps, else
  // placed (held on track in clamp mode).
  LoopDistance<S> placed_on_track(LoopDistance<S> d) const noexcept {
    if (track_.closed()) return d.on_loop(track_.length());
    return {place(d.distance), d.lap};
  }

  // Distances are kept unwrapped on loops (wrapped when sampled); clamp mode holds them on track.
  S place(S s) const noexcept {
    if (options_.wrap == Wrap::clamp) return detail::clamp_or_low(s, S(0), track_.length());
    return s;
  }

  // One wagon's bogies between placing them and building its frames.
  struct Placed {
    Sample front, rear;
    S front_distance, rear_distance;
    long long lap;
  };

  void write_pose(const Wagon<S>& wagon, const Placed& p, Cursor cursor,
                  WagonPose<S>& pose) const noexcept {
    const Sample& f = p.front;
    const Sample& r = p.rear;
    if (const Vector3<S>* up = track_.constant_up()) {
      // By reference: a copy of the up vector per frame cost a failed store-to-load forward.
      write_frames(wagon, f, r, *up, *up, *up, coincident_, pose);
    } else {
      write_frames(wagon, f, r, track_.up_at(p.front_distance, f), track_.up_at(p.rear_distance, r),
                   body_middle_up(p.front_distance, p.rear_distance, cursor), coincident_, pose);
    }
    pose.front_distance = p.front_distance;
    pose.rear_distance = p.rear_distance;
    pose.front_place = track_.place(p.front_distance, f);
    pose.rear_place = track_.place(p.rear_distance, r);
    pose.lap = p.lap;
    pose.status = WagonStatus::on_track;
    if (held_at_end(p.front_distance) || held_at_end(p.rear_distance)) {
      using std::sqrt;
      const S spacing = options_.spacing == Spacing::chord ? (f.point - r.point).norm()
                                                           : p.front_distance - p.rear_distance;
      pose.status = spacing < wagon.bogie_distance * (S(1) - sqrt(detail::epsilon<S>()))
                        ? WagonStatus::compressed
                        : WagonStatus::held_at_end;
    }
  }

  // Wagons [0, n) handed to range(begin, end): with OpenMP and TRACTRIX_OPENMP, arc spacing and
  // n >= 1024, one even share to each thread (each wagon's place follows from the head alone);
  // otherwise all of them at once.
  template <class Range>
  void over_threads(std::size_t n, const Range& range) const noexcept {
#if defined(TRACTRIX_OPENMP) && defined(_OPENMP)
    if (options_.spacing == Spacing::arc && n >= 1024) {
#pragma omp parallel
      {
        const auto threads = static_cast<std::size_t>(omp_get_num_threads());
        const auto thread = static_cast<std::size_t>(omp_get_thread_num());
        range(n * thread / threads, n * (thread + 1) / threads);
      }
      return;
    }
#endif
    range(std::size_t(0), n);
  }

  // Wagons [begin, end) into `parts` (as detail::writable_parts leaves them, each part given at
  // least `end` records long).
  template <class T>
  void write_arrays(S head_distance, const WagonPoseArrays<T>& parts, std::size_t begin,
                    std::size_t end) const noexcept {
    solve_range(head_distance, begin, end,
                [this, &parts](std::size_t j, const Placed& p, Cursor cursor) noexcept {
                  write_parts(wagons_[j], p, cursor, parts, j);
                });
  }

  // Record j of each part given (a part not given has no memory): only those parts' frames are
  // built, and only their up vectors looked up.
  template <class T>
  void write_parts(const Wagon<S>& wagon, const Placed& p, Cursor cursor,
                   const WagonPoseArrays<T>& parts, std::size_t j) const noexcept {
    const Sample& f = p.front;
    const Sample& r = p.rear;
    const EngineAxes& axes = parts.axes;
    const Vector3<S>* constant = track_.constant_up();
    Vector3<S> varying;  // the up vector of the frame at hand, where the track's up varies
    auto up = [&](auto&& look_up) noexcept -> const Vector3<S>& {
      if (constant) return *constant;
      varying = look_up();
      return varying;
    };
    Frame<S> frame;
    if (parts.front.first) {
      detail::look_at_unit(frame, f.point, f.tangent,
                           up([&] { return track_.up_at(p.front_distance, f); }));
      parts.front.write(j, frame.origin, frame.rotation, axes);
    }
    if (parts.rear.first) {
      detail::look_at_unit(frame, r.point, r.tangent,
                           up([&] { return track_.up_at(p.rear_distance, r); }));
      parts.rear.write(j, frame.origin, frame.rotation, axes);
    }
    if (parts.body.first || parts.body_centered.first) {
      detail::look_at_unit(frame, f.point, body_forward(wagon, f, r, coincident_), up([&] {
                             return body_middle_up(p.front_distance, p.rear_distance, cursor);
                           }));
      if (parts.body.first) parts.body.write(j, frame.origin, frame.rotation, axes);
      if (parts.body_centered.first)
        parts.body_centered.write(j, Vector3<S>(S(0.5) * (f.point + r.point)), frame.rotation,
                                  axes);
    }
  }

  // Body forward: rear bogie to front bogie, or the front tangent where a wagon compressed at an
  // end has its bogies so close that the points' rounding would steer it. Only a wagon
  // compressed below half its bogie distance: far out on float track 2¹⁰ ulps can exceed a whole
  // bogie distance, and a wagon at its full spacing keeps its chord.
  TRACTRIX_FORCE_INLINE static Vector3<S> body_forward(const Wagon<S>& wagon, const Sample& f,
                                                       const Sample& r, S coincident) noexcept {
    const Vector3<S> chord = f.point - r.point;
    const S near = std::min(coincident, S(0.5) * wagon.bogie_distance);
    return chord.squaredNorm() > near * near ? normalized_or<S, 3>(chord, f.tangent) : f.tangent;
  }

  TRACTRIX_FORCE_INLINE static void write_frames(const Wagon<S>& wagon, const Sample& f,
                                                 const Sample& r, const Vector3<S>& front_up,
                                                 const Vector3<S>& rear_up,
                                                 const Vector3<S>& body_up, S coincident,
                                                 WagonPose<S>& pose) noexcept {
    detail::look_at_unit(pose.front, f.point, f.tangent, front_up);
    detail::look_at_unit(pose.rear, r.point, r.tangent, rear_up);
    const Vector3<S> forward = body_forward(wagon, f, r, coincident);
    detail::look_at_unit(pose.body, f.point, forward, body_up);
    pose.body_midpoint = S(0.5) * (f.point + r.point);
    pose.coupler = f.point + wagon.front_overhang * forward;
  }

  Vector3<S> body_middle_up(S front, S rear, Cursor cursor) const noexcept {
    // On a loop the rear may sit just behind the seam: take the middle of the short way.
    if (track_.closed() && rear > front) rear -= track_.length();
    const S middle = S(0.5) * (front + rear);
    const auto m = sample_at(middle, cursor);
    return track_.up_at(middle, m);
  }

  // The first distance s behind `from` (at point p) where the track point is `chord` away from p
  // (detail/chord_search.hpp). On a loop, falls back to arc spacing when no solution lies within
  // one track length (build() rules that out); stops at 0 in clamp mode; with Wrap::extend, goes
  // on along the straight past the start. `solved` says whether a root was found (or the chord
  // ends off the track in clamp mode) rather than the arc fallback taken.
  S chord_behind(S from, const Vector3<S>& p, S chord, Cursor& cursor, Sample& found,
                 CompiledChord compiled, bool* solved = nullptr) const noexcept {
    using Offset = detail::ChordOffset<S>;
    using std::abs;
    const S length = track_.length();
    const bool clamp = options_.wrap == Wrap::clamp;
    // |g| = |c − d|(c + d), so this asks |c − d| <= 1e-12 of the track's length (the arc-length
    // tables' promise) or 2 eps of coordinate_scale_ (what points rounded to their coordinates
    // resolve: float, or far out), whichever is larger.
    detail::ChordSearch<S> search(from, chord, S(2) * chord * chord_tolerance());
    if (solved) *solved = true;
    if (compiled.function) {
      // The compiled offset's guess, confirmed by the bogie's own sample.
      const S guess = compiled.function->root_guess(from, length, *compiled.cursor);
      if (!std::isnan(guess) && !(clamp && guess < S(0))) {
        found = sample_at(guess, cursor);
        if (abs(Offset::between(found.point.data(), p.data()).residual(chord)) <= search.tolerance)
          return guess;
      }
    }
    for (int iteration = 0; iteration < search.limit; ++iteration) {
      search.extend_budget(iteration, length);
      if (clamp && search.s < S(0)) {
        found = sample_at(S(0), cursor);
        if ((found.point - p).squaredNorm() <= chord * chord) return S(0);  // chord ends off track
        search.s = S(0);
      }
      found = sample_at(search.s, cursor);
      const Offset offset = Offset::between(found.point.data(), p.data());
      const S g = offset.residual(chord);
      if (abs(g) <= search.tolerance) return search.s;
      if (search.pulled_back(g)) continue;
      search.bracket(g, iteration);
      const S slope = offset.slope(found.tangent.data());
      const auto step = search.step(g, slope, iteration);
      if (search.lands_on_root(step, clamp)) {
        // The sample that would confirm it is the bogie's own; where the coordinates' rounding
        // sets the tolerance (rounding_bound_) it is checked, and the search goes on if it missed.
        found = sample_at(step.next, cursor);
        if (!rounding_bound_ ||
            abs(Offset::between(found.point.data(), p.data()).residual(chord)) <= search.tolerance)
          return step.next;
        search.relaunch(g, step.next);
        continue;
      }
      const S next = search.safeguarded(step.next);
      // Only a loop can lack a root: clamp mode stops at 0 (above) and an extended open track
      // runs on for ever.
      if (!search.bracketed && options_.wrap == Wrap::circular && from - next > length) {
        if (solved) *solved = false;
        found = sample_at(place(from - chord), cursor);
        return place(from - chord);
      }
      if (detail::exactly_equal(next, search.s)) return search.s;  // the last representable
      search.watch(g, slope, next, step.newton);
      search.s = next;
    }
    // Out of steps: a solution exists if g changed sign (bisection was closing in); without a
    // bracket nothing says one does.
    if (solved) *solved = search.bracketed;
    found = sample_at(search.s, cursor);
    return search.s;
  }

  // A lower bound of how far the track reaches from any head: the least, over 256 heads, of the
  // farthest of 1024 track points (sampled points are on the track), less 1/512 of the length —
  // every head lies within that arc, so within that distance, of a sampled one (the triangle
  // inequality). Any chord up to it has a solution behind every head. O(256 · 1024) distances,
  // however many wagons; on the stack (8 kB in double): building allocates only what it keeps.
  // Stops early once every head sees a point `enough` away (plus the 1/512): fewer points give
  // a smaller bound, still a bound, and one that already covers every chord up to `enough`.
  S narrowest_reach(S enough = std::numeric_limits<S>::infinity()) const noexcept {
    constexpr std::size_t heads = 256, points = 1024;
    const S length = track_.length();
    Cursor cursor{};
    std::array<Vector3<S>, heads> head;
    std::array<S, heads> farthest;  // squared
    for (std::size_t k = 0; k < heads; ++k) {
      head[k] = sample_at(length * S(k) / S(heads), cursor).point;
      farthest[k] = S(0);
    }
    const S margin = length / S(2 * heads);
    const S wanted = (enough + margin) * (enough + margin);
    for (std::size_t j = 0; j < points; ++j) {
      const Vector3<S> q = sample_at(length * S(j) / S(points), cursor).point;
      S nearest = std::numeric_limits<S>::infinity();
      for (std::size_t k = 0; k < heads; ++k) {
        farthest[k] = std::max(farthest[k], (q - head[k]).squaredNorm());
        nearest = std::min(nearest, farthest[k]);
      }
      if (nearest >= wanted) break;
    }
    // Points sampled where coordinates are much larger than the track (float far from the
    // origin) are each a few ulps of those coordinates off, and so is every distance between them.
    const S rounding = S(8) * detail::epsilon<S>() * coordinate_scale_;
    using std::sqrt;
    return sqrt(*std::min_element(farthest.begin(), farthest.end())) - margin - rounding;
  }

  // The first head distance (of 256 around the loop) behind which no track point lies `chord`
  // away within one lap, or NaN if the chord has a solution behind every one.
  S chord_unsolvable_at(S chord) const noexcept {
    const S length = track_.length();
    Cursor cursor{};
    for (int k = 0; k < 256; ++k) {
      const S s = length * S(k) / S(256);
      const Vector3<S> p = sample_at(s, cursor).point;
      Sample rear;
      bool solved = false;
      chord_behind(s, p, chord, cursor, rear, {}, &solved);
      if (!solved) return s;
    }
    return std::numeric_limits<S>::quiet_NaN();
  }

  // The chord offsets of compiled_chords(): one function a distinct chord, and for each wagon
  // the functions of its bogie chord and of its gap to the next wagon (−1: none).
  struct CompiledChords {
    std::vector<detail::ChordOffsetFunction<S>> functions;
    std::vector<std::array<int, 2>> of_wagon;
  };

  // Wagon i's compiled chord (0: bogie distance, 1: the gap behind its rear bogie), or none.
  CompiledChord compiled_chord(std::size_t i, int which, ChordCursors& cursors) const noexcept {
    if (!chords_) return {};
    const int f = chords_->of_wagon[i][static_cast<std::size_t>(which)];
    if (f < 0) return {};
    const auto k = static_cast<std::size_t>(f);
    return {&chords_->functions[k], &cursors[k % cursors.size()]};
  }

  // The first root behind s of `chord`, refined by Newton steps past the search's tolerance to
  // what the track's samples resolve (the data a compiled offset is fitted to), or NaN where
  // the chord has no root on the track.
  S exact_root_behind(S s, S chord) const noexcept {
    using std::abs;
    Cursor cursor{};
    const Vector3<S> p = sample_at(s, cursor).point;
    Sample at;
    bool solved = false;
    S r = chord_behind(s, p, chord, cursor, at, {}, &solved);
    if (!solved) return std::numeric_limits<S>::quiet_NaN();
    const S resolution = S(2) * detail::epsilon<S>() * std::max(coordinate_scale_, abs(r));
    for (int step = 0; step < 8; ++step) {
      at = sample_at(r, cursor);
      const Vector3<S> c = p - at.point;
      const S slope = S(-2) * c.dot(at.tangent);
      if (!(slope < S(0))) break;
      const S change = (c.squaredNorm() - chord * chord) / slope;
      r -= change;
      if (!(abs(change) > resolution)) break;
    }
    at = sample_at(r, cursor);
    const S miss = abs((p - at.point).norm() - chord);
    return miss <= chord_tolerance() ? r : std::numeric_limits<S>::quiet_NaN();
  }

  // |c − d| a chord search accepts: 1e-12 of the track's length, or what the coordinates'
  // rounding resolves.
  S chord_tolerance() const noexcept {
    return std::max(S(1e-12) * track_.length(), S(2) * detail::epsilon<S>() * coordinate_scale_);
  }

  detail::ChordOffsetFunction<S> compile_chord(S chord, const std::vector<double>& knots) const {
    const auto root = [this, chord](double s) {
      return double(exact_root_behind(static_cast<S>(s), chord));
    };
    // A quarter of the search's tolerance: a guess then passes the check despite its rounding.
    return detail::fit_chord_offsets<S>(chord, double(track_.length()), knots, root,
                                        0.25 * double(chord_tolerance()), 8);
  }

  TrackType track_;
  std::shared_ptr<const CompiledChords> chords_;  // compiled_chords(), shared by copies
  // The size of the numbers the solver works with: the track's length or its largest coordinate,
  // whichever is larger. Far from the origin a float step is eps · that coordinate, so solver
  // tolerances scale with it (a track 10⁶ units out resolves to 0.06 units in float).
  S coordinate_scale_;
  // The chord tolerance is set by the rounding of coordinates larger than the track (float, or
  // far from the origin): a sample lands within a few ulps of where a Newton step predicts, and
  // those ulps are the size of the tolerance, so a predicted answer is confirmed by its sample.
  bool rounding_bound_;
  // A compressed wagon's bogies nearer than this (2¹⁰ ulps of the coordinates) take the track's
  // tangent as the body's forward; farther apart, the points' few ulps of rounding turn the
  // chord by a few thousandths of a radian at most.
  S coincident_;
  std::vector<Wagon<S>> wagons_;
  // Wagon i's front bogie is offsets_[i] behind the head (arc spacing); on a loop, that and
  // offset_laps_[i] whole laps.
  std::vector<S> offsets_;
  std::vector<long long> offset_laps_;
  TrainOptions options_;
};

/// Many trains in one call (a railway's traffic, each train on its own track or route): `count`
/// trains and as many heads, train k solved at heads[k] (as TrainSolver::solve), its
/// wagons().size() poses written right after those of trains 0 … k − 1, so `out` holds the sum of
/// the trains' wagon counts. Trains built from copies of one Track or Route share its data;
/// nothing is copied or allocated here. Split the trains over an engine's own threads by calling
/// it on sub-ranges.
template <class S, class TrackType>
void solve_trains(const TrainSolver<S, TrackType>* trains, const S* heads, std::size_t count,
                  WagonPose<S>* out) noexcept {
  for (std::size_t k = 0; k < count; ++k) {
    trains[k].solve(heads[k], out);
    out += trains[k].wagons().size();
  }
}

/// Trains [begin, end) of a batch of `count` (end is cut to count) into an engine's arrays for
/// the whole batch: train k at heads[k], its wagons in the records after those of trains 0 … k −
/// 1, written as TrainSolver::solve(head, arrays) writes one train (only the parts given, only
/// their frames). The range is what a job system hands each worker: ranges are independent, and
/// together write what the whole batch writes. Records past a part's count are not written.
/// Returns the number of records the range wrote into each part (the batch's records from the
/// range's first wagon on, as far as every part given reaches). Never allocates.
template <class S, class TrackType, class T>
std::size_t solve_trains(const TrainSolver<S, TrackType>* trains, const S* heads, std::size_t count,
                         const WagonPoseArrays<T>& out, std::size_t begin,
                         std::size_t end) noexcept {
  end = std::min(end, count);
  std::size_t offset = 0;  // the first record of train k
  for (std::size_t k = 0; k < begin && k < end; ++k)
    offset += trains[k].wagons().size();
  const WagonPoseArrays<T> parts = detail::writable_parts(out);
  std::size_t written = 0;
  for (std::size_t k = begin; k < end; ++k) {
    written += trains[k].solve(heads[k], detail::records_from(parts, offset));
    offset += trains[k].wagons().size();
  }
  return written;
}

/// The whole batch into an engine's arrays: solve_trains(trains, heads, count, out, 0, count).
/// Compiled with OpenMP and TRACTRIX_OPENMP defined (off by default), the trains are split over
/// the OpenMP threads by their wagon counts (batches of 1024 wagons and more), chord spacing as
/// well as arc: each train is independent of the others. The records are bit-identical to one
/// thread's. Returns the records written into each part.
template <class S, class TrackType, class T>
std::size_t solve_trains(const TrainSolver<S, TrackType>* trains, const S* heads, std::size_t count,
                         const WagonPoseArrays<T>& out) noexcept {
#if defined(TRACTRIX_OPENMP) && defined(_OPENMP)
  std::size_t total = 0;
  for (std::size_t k = 0; k < count; ++k)
    total += trains[k].wagons().size();
  if (count > 1 && total >= 1024) {
    std::size_t written = 0;
#pragma omp parallel reduction(+ : written)
    {
      // Thread t takes the trains whose first wagon falls in its share [lo, hi) of all wagons.
      const auto threads = static_cast<std::size_t>(omp_get_num_threads());
      const auto thread = static_cast<std::size_t>(omp_get_thread_num());
      const std::size_t lo = total * thread / threads, hi = total * (thread + 1) / threads;
      std::size_t begin = count, end = count, offset = 0;
      for (std::size_t k = 0; k < count; offset += trains[k].wagons().size(), ++k) {
        if (begin == count && offset >= lo) begin = k;
        if (offset >= hi) {
          end = k;
          break;
        }
      }
      written += solve_trains(trains, heads, count, out, begin, end);
    }
    return written;
  }
#endif
  return solve_trains(trains, heads, count, out, 0, count);
}

}  // namespace tractrix
