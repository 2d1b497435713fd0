// Compiler hints for the few per-query kernels whose call overhead is measurable.
#pragma once

// TRACTRIX_FORCE_INLINE: inline even where the compiler's size heuristic says no. GCC kept
// de_casteljau out of line once it had three callers in a translation unit, and the call cost
// Path::evaluate 0.3 ns of its 5.9 (benchmarks/README.md). Define it before including tractrix
// to override.
#ifndef TRACTRIX_FORCE_INLINE
#if defined(__GNUC__) || defined(__clang__)
#define TRACTRIX_FORCE_INLINE __attribute__((always_inline)) inline
#elif defined(_MSC_VER)
#define TRACTRIX_FORCE_INLINE __forceinline
#else
#define TRACTRIX_FORCE_INLINE inline
#endif
#endif

// TRACTRIX_NOINLINE: keep a rare branch's callee out of a hot kernel — MeasuredPath::sample's
// tangent where the speed vanishes (Path::unit_tangent, taken a few times a track). GCC 12 kept
// that call out of line without it too (the same instruction counts); it states the intent for
// compilers that would not. Define it before including tractrix to override.
#ifndef TRACTRIX_NOINLINE
#if defined(__GNUC__) || defined(__clang__)
#define TRACTRIX_NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define TRACTRIX_NOINLINE __declspec(noinline)
#else
#define TRACTRIX_NOINLINE
#endif
#endif
