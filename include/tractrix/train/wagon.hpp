/// @file
/// `Wagon`: the TrainDriver plugin's per-car user data, and the pose the TrainSolver returns for
/// it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tractrix/core/caller_arrays.hpp"
#include "tractrix/core/expected.hpp"
#include "tractrix/frame/frame.hpp"

namespace tractrix {

/// One car of a train, as the TrainDriver plugin's user data described it: `{length,
/// bogie_distance}`, with 0 < bogie_distance <= length.
template <class S>
struct Wagon {
  S length;          ///< front bogie → next wagon's front bogie (TrainDriver's Waggon_Length)
  S bogie_distance;  ///< front bogie → rear bogie (TrainDriver's Distance_RearWheels)
  S front_overhang = S(0);  ///< coupler point ahead of the front bogie, along the body
};

/// Where a wagon stands. With Wrap::clamp on open track the train is held at the ends: past the
/// far end the locomotive is held there and the train stops behind it; wagons backed past the
/// start pile up there.
enum class WagonStatus {
  on_track,     ///< both bogies on the track, bogie_distance apart
  held_at_end,  ///< a bogie held at an end of open track
  compressed,   ///< held, with its bogies closer than bogie_distance (piled up at the start, or a
                ///< chord longer than the track reaches back)
};

/// The same train driven from its other end (backing into a siding is driving forwards on the
/// reversed route): the wagons in reverse order, each turned round, its rear bogie now its front.
/// Wagon k of the result is wagon j = n − 1 − k; its bogie_distance is the same and its length
/// reaches to the old rear bogie of wagon j − 1, so with the head at the old last rear bogie
/// every bogie stands where it stood (chord and arc spacing alike). Overhangs become 0: a Wagon
/// has no rear overhang to turn into a front one.
template <class S>
std::vector<Wagon<S>> reversed_train(const std::vector<Wagon<S>>& wagons) {
  std::vector<Wagon<S>> out;
  out.reserve(wagons.size());
  for (std::size_t j = wagons.size(); j-- > 0;) {
    const Wagon<S>& w = wagons[j];
    const S gap_behind =
        j > 0 ? wagons[j - 1].length - wagons[j - 1].bogie_distance : w.length - w.bogie_distance;
    out.push_back(Wagon<S>{w.bogie_distance + gap_behind, w.bogie_distance, S(0)});
  }
  return out;
}

/// Where a bogie stands on the pieces under it.
template <class S>
struct PiecePlace {
  std::size_t piece = 0;  ///< the piece (0 on a single Track)
  S distance = S(0);  ///< along that piece in its own direction (a route may drive it backwards)
};

/// A solved wagon: both bogies' frames, the body's, where they stand.
template <class S>
struct WagonPose {
  Frame<S> front;  ///< front bogie: forward = track tangent, up from the track's up source
  Frame<S> rear;   ///< rear bogie, likewise
  Frame<S> body;   ///< origin at the front bogie (TrainDriver's pivot), forward = front − rear
  Vector3<S> body_midpoint = Vector3<S>::Zero();  ///< halfway between the bogies
  Vector3<S> coupler = Vector3<S>::Zero();        ///< front_overhang ahead of the front bogie
  /// The front bogie's distance along the track: in [0, length) on loops; beyond the ends only
  /// with Wrap::extend on open track.
  S front_distance = S(0);
  S rear_distance = S(0);  ///< the rear bogie's, likewise
  /// Whole laps of the front bogie on a loop: floor of (its unwrapped distance / length), counted
  /// from the head distance solved at (with a HeadPosition's wrapped head, add its lap()).
  long long lap = 0;
  PiecePlace<S> front_place;  ///< the front bogie's piece and distance on it (on a Route)
  PiecePlace<S> rear_place;   ///< the rear bogie's
  WagonStatus status = WagonStatus::on_track;  ///< on the track, held at an end, or compressed

  /// The body frame moved to the midpoint between the bogies.
  Frame<S> body_centered() const { return Frame<S>{body_midpoint, body.rotation}; }
};

/// Where TrainSolver::solve writes poses in an engine's own arrays: one PoseArray (position +
/// quaternion or a 4×4 matrix per record, any stride) for each part wanted, in the engine's axes;
/// parts left empty (count 0) are skipped. Which origin the body is drawn from is the choice
/// between `body` (the front bogie, the TrainDriver plugin's pivot) and `body_centered` (the
/// midpoint between the bogies, what most meshes are modelled around).
template <class T>
struct WagonPoseArrays {
  PoseArray<T> body;           ///< the body frame at the front bogie (WagonPose::body)
  PoseArray<T> front;          ///< the front bogie's frame
  PoseArray<T> rear;           ///< the rear bogie's frame
  PoseArray<T> body_centered;  ///< the body frame at the midpoint between the bogies
  EngineAxes axes = EngineAxes::tractrix();  ///< the engine's axes, applied as poses are written

  /// The first part that cannot be written, named (check once where the arrays are set up; solve
  /// skips such a part).
  [[nodiscard]] std::optional<Error> error() const {
    const std::pair<const char*, const PoseArray<T>*> parts[] = {
        {"body", &body}, {"front", &front}, {"rear", &rear}, {"body_centered", &body_centered}};
    for (const auto& [name, part] : parts)
      if (auto error = detail::output_error(name, *part, 0, "pose")) return error;
    return std::nullopt;
  }
};

namespace detail {

// `arrays` with every part that is not given (count 0) or cannot be written emptied (no memory,
// no records): the parts a solve writes.
template <class T>
WagonPoseArrays<T> writable_parts(WagonPoseArrays<T> arrays) noexcept {
  for (PoseArray<T>* part : {&arrays.body, &arrays.front, &arrays.rear, &arrays.body_centered})
    if (part->count == 0 || !part->writable()) *part = PoseArray<T>{};
  return arrays;
}

// How many records every part left by writable_parts holds, at most `limit`; 0 when none does.
template <class T>
std::size_t records_of(const WagonPoseArrays<T>& parts, std::size_t limit) noexcept {
  std::size_t n = limit;
  bool any = false;
  for (const PoseArray<T>* part : {&parts.body, &parts.front, &parts.rear, &parts.body_centered}) {
    if (!part->first) continue;
    n = std::min(n, part->count);
    any = true;
  }
  return any ? n : 0;
}

// The records of `parts` from record `offset` on: where the next train of a batch writes. Empty
// (every part) once a part given holds no record there: a batch is cut to its shortest part.
template <class T>
WagonPoseArrays<T> records_from(WagonPoseArrays<T> parts, std::size_t offset) noexcept {
  PoseArray<T>* all[] = {&parts.body, &parts.front, &parts.rear, &parts.body_centered};
  for (PoseArray<T>* part : all)
    if (part->first && part->count <= offset) return WagonPoseArrays<T>{};
  for (PoseArray<T>* part : all) {
    if (!part->first) continue;
    part->first =
        reinterpret_cast<T*>(reinterpret_cast<char*>(part->first) + offset * part->stride_bytes);
    part->count -= offset;
  }
  return parts;
}

}  // namespace detail

}  // namespace tractrix
