/// @file
/// The library's version: the one place it is written. CMake's project version, the package
/// config, pkg-config and the Python package all read it from here.
#pragma once

/// Major version: a change here may break code written against an older one.
#define TRACTRIX_VERSION_MAJOR 0
/// Minor version: new features; below 1.0 it may also rename (the changelog says what moved).
#define TRACTRIX_VERSION_MINOR 3
/// Patch version: fixes only.
#define TRACTRIX_VERSION_PATCH 0
/// The version as text, "major.minor.patch".
#define TRACTRIX_VERSION_STRING "0.3.0"
