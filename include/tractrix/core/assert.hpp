/// @file
/// `TRACTRIX_ASSERT`: the check of internal invariants (never of user data, which gets an
/// Expected error).
#pragma once

#ifndef TRACTRIX_ASSERT
#include <cassert>
/// Checks an internal invariant: `assert(condition)` unless defined before tractrix is included,
/// so failures can go to an engine's own handler. Off under NDEBUG, as assert is.
#define TRACTRIX_ASSERT(condition) assert(condition)
#endif
