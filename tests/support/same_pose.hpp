// Bit-for-bit comparison of train poses: range and parallel solves must match the serial one.
#pragma once

#include "tractrix/train/wagon.hpp"

namespace tractrix::test {

template <class S>
bool same_pose(const WagonPose<S>& a, const WagonPose<S>& b) {
  return a.front.origin == b.front.origin && a.front.rotation == b.front.rotation &&
         a.rear.origin == b.rear.origin && a.rear.rotation == b.rear.rotation &&
         a.body.origin == b.body.origin && a.body.rotation == b.body.rotation &&
         a.body_midpoint == b.body_midpoint && a.coupler == b.coupler &&
         a.front_distance == b.front_distance && a.rear_distance == b.rear_distance &&
         a.lap == b.lap && a.front_place.piece == b.front_place.piece &&
         a.front_place.distance == b.front_place.distance &&
         a.rear_place.piece == b.rear_place.piece &&
         a.rear_place.distance == b.rear_place.distance && a.status == b.status;
}

}  // namespace tractrix::test
