// Wagon: the TrainDriver plugin's per-car user data, and the pose the TrainSolver returns for it.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "tractrix/core/caller_arrays.hpp"
#include "tractrix/core/expected.hpp"
#include "tractrix/frame/frame.hpp"

namespace tractrix {

template <class S>
struct Wagon {
  S length;          // front bogie → next wagon's front bogie (TrainDriver's Waggon_Length)
  S bogie_distance;  // front bogie → rear bogie (TrainDriver's Distance_RearWheels)
  S front_overhang = S(0);  // coupler point ahead of the front bogie, along the body
};

// Where a wagon stands. With Wrap::clamp on open track the train is held at the ends: a wagon
// with a bogie at an end is held there, and one whose bogies are closer together than its
// bogie_distance (the train piled up at the end) is compressed.
enum class WagonStatus { on_track, held_at_end, compressed };

template <class S>
struct WagonPose {
  Frame<S> front;  // front bogie: forward = track tangent, up from the track's up source
  Frame<S> rear;   // rear bogie, likewise
  Frame<S> body;   // origin at the front bogie (TrainDriver's pivot), forward = front − rear
  Vector3<S> body_midpoint = Vector3<S>::Zero();  // halfway between the bogies
  Vector3<S> coupler = Vector3<S>::Zero();        // front_overhang ahead of the front bogie
  S front_distance = S(0);  // along the track: [0, length) on loops, may leave [0, length)
  S rear_distance = S(0);   // only with Wrap::extend on open track
  long long lap = 0;        // whole laps of the front bogie on a loop (floor of distance / length)
  WagonStatus status = WagonStatus::on_track;

  // The body frame moved to the midpoint between the bogies.
  Frame<S> body_centered() const { return Frame<S>{body_midpoint, body.rotation}; }
};

// Where TrainSolver::solve writes poses in an engine's own arrays: one PoseArray (position +
// quaternion or a 4×4 matrix per record, any stride) for each part wanted, in the engine's axes;
// parts left empty (count 0) are skipped. Which origin the body is drawn from is the choice
// between `body` (the front bogie, the TrainDriver plugin's pivot) and `body_centered` (the
// midpoint between the bogies, what most meshes are modelled around).
template <class T>
struct WagonPoseArrays {
  PoseArray<T> body;  // the body frame at the front bogie (WagonPose::body)
  PoseArray<T> front;
  PoseArray<T> rear;
  PoseArray<T> body_centered;  // the body frame at the midpoint between the bogies
  EngineAxes axes = EngineAxes::tractrix();

  // The first part that cannot be written, named (check once where the arrays are set up; solve
  // skips such a part).
  std::optional<Error> error() const {
    const std::pair<const char*, const PoseArray<T>*> parts[] = {
        {"body", &body}, {"front", &front}, {"rear", &rear}, {"body_centered", &body_centered}};
    for (const auto& [name, part] : parts)
      if (auto error = detail::output_error(name, *part, 0, "pose")) return error;
    return std::nullopt;
  }
};

}  // namespace tractrix
