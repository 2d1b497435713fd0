/// @file
/// Forwarding header: moved in 0.3 to tractrix/camera/camera_rig.hpp, which it includes. Kept
/// for one release; removed in 0.4.
#pragma once

#include "tractrix/camera/camera_rig.hpp"
