# One version everywhere: the Python package's metadata says what include/tractrix/version.hpp
# says (CMake, the package config, pkg-config and Python's __version__ read the header itself).
# Run with -DSOURCE=<repository> -DVERSION=<the project's version>.
file(READ "${SOURCE}/pyproject.toml" pyproject)
string(REGEX MATCH "\nversion = \"([^\"]*)\"" match "${pyproject}")
if(NOT CMAKE_MATCH_1 STREQUAL VERSION)
  message(FATAL_ERROR "pyproject.toml says version ${CMAKE_MATCH_1}, version.hpp says ${VERSION}")
endif()
message(STATUS "version ${VERSION} in version.hpp and pyproject.toml")
