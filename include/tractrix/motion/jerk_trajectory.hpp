// Moved in 0.3 to tractrix/driving/jerk_trajectory.hpp; this forwarding header goes in 0.4.
#pragma once

#include "tractrix/driving/jerk_trajectory.hpp"
