// TRACTRIX_ASSERT: checks internal invariants (never user data, which gets an Expected error).
// Define TRACTRIX_ASSERT before including tractrix to route failures to your engine's handler.
#pragma once

#ifndef TRACTRIX_ASSERT
#include <cassert>
#define TRACTRIX_ASSERT(condition) assert(condition)
#endif
