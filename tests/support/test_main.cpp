// Catch2 v2 needs one translation unit that defines main; v3 links Catch2::Catch2WithMain instead.
#if !defined(TRACTRIX_CATCH2_V3)
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#endif
