// Umbrella header: everything public in tractrix.
#pragma once

#include "tractrix/core/assert.hpp"
#include "tractrix/core/expected.hpp"
#include "tractrix/core/gauss_legendre.hpp"
#include "tractrix/core/numeric.hpp"
#include "tractrix/core/vector.hpp"
#include "tractrix/curve/arc_length.hpp"
#include "tractrix/curve/de_casteljau.hpp"
#include "tractrix/curve/path.hpp"
#include "tractrix/curve/segment.hpp"
#include "tractrix/frame/euler.hpp"
#include "tractrix/frame/frame.hpp"
#include "tractrix/frame/moving_frames.hpp"
#include "tractrix/frame/roll_profile.hpp"
#include "tractrix/frame/up_source.hpp"
