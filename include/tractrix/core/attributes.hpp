/// @file
/// Compiler hints for the few per-query kernels whose call overhead is measurable.
#pragma once

#ifndef TRACTRIX_FORCE_INLINE
#if defined(__GNUC__) || defined(__clang__)
/// Inline even where the compiler's size heuristic says no: a small kernel with several callers
/// in a translation unit (de_casteljau) is otherwise kept out of line, and the call is a
/// measurable part of a query. Define it before including tractrix to override.
#define TRACTRIX_FORCE_INLINE __attribute__((always_inline)) inline
#elif defined(_MSC_VER)
#define TRACTRIX_FORCE_INLINE __forceinline
#else
#define TRACTRIX_FORCE_INLINE inline
#endif
#endif

#ifndef TRACTRIX_NOINLINE
#if defined(__GNUC__) || defined(__clang__)
/// Keeps a rare branch's callee out of a hot kernel (MeasuredPath::sample's tangent where the
/// speed vanishes, taken a few times a track), for compilers that would inline it. Define it
/// before including tractrix to override.
#define TRACTRIX_NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define TRACTRIX_NOINLINE __declspec(noinline)
#else
#define TRACTRIX_NOINLINE
#endif
#endif
