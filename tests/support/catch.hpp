// The one test header: Catch2 v3 where it was found, v2.13 (Debian 12) otherwise.
#pragma once

#if defined(TRACTRIX_CATCH2_V3)
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#else
#include <catch2/catch.hpp>
#endif
