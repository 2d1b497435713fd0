// Moved in 0.3 to tractrix/camera/camera_rig.hpp; this forwarding header goes in 0.4.
#pragma once

#include "tractrix/camera/camera_rig.hpp"
