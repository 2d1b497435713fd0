/// @file
/// Forwarding header: moved in 0.3 to tractrix/driving/jerk_trajectory.hpp, which it includes. Kept
/// for one release; removed in 0.4.
#pragma once

#include "tractrix/driving/jerk_trajectory.hpp"
