// Moved in 0.3 to tractrix/driving/speed_plan.hpp; this forwarding header goes in 0.4.
#pragma once

#include "tractrix/driving/speed_plan.hpp"
