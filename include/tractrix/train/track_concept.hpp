/// @file
/// The track concept: what a type must provide for `TrainSolver<S, TrackType>` and
/// `train_kinematics` to run trains on it. `Track` (one measured path) and `Route` (a walk
/// through a network) are tracks; a new kind of track (an alignment, a compiled track) provides
/// the same members and runs the same contract suite (tests/contracts).
///
/// A track answers by distance `s` along it, in world units from its start:
///
// clang-format off
/// | member | what it must do |
/// |---|---|
/// | `using Sample` | a point of the track: `.point`, unit `.tangent` (`Vector3<S>`) |
/// | `using Cursor` | per-caller search state; value-initialized is valid, any value is valid |
/// | `S length() const` | the length, > 0 |
/// | `bool closed() const` | a loop: `s` and `s + length()` are the same place |
/// | `Sample sample(S s, Cursor&) const` | the point at `s`, wrapped on a loop, clamped to the ends otherwise |
/// | `Sample sample_extended(S s, Cursor&) const` | as `sample`, but beyond an open end along the end's tangent |
/// | `Vector3<S> up_at(S s, const Sample&) const` | the unit up at `s` (not yet orthogonal to the tangent) |
/// | `const Vector3<S>* constant_up() const` | the up if it is the same everywhere, else null |
/// | `Vector3<S> curvature_vector(const Sample&) const` | κ·N at the sample |
/// | `PiecePlace<S> place(S s, const Sample&) const` | which piece `s` is on, and the distance on it |
/// | `S coordinate_scale() const` | the larger of the length and the largest coordinate: the scale rounding is relative to |
// clang-format on
///
/// Optional: `std::vector<S> knot_distances() const`, the distances where the track's curvature
/// may jump, ascending from 0 (`Track` and `Route` have it): compiled chord offsets
/// (TrainSolver::compiled_chords) split their cells there; without it they fit by halving alone.
///
/// Every query is `noexcept` and total: finite input gives finite output.
#pragma once

#include <type_traits>
#include <utility>

#include "tractrix/core/vector.hpp"
#include "tractrix/train/wagon.hpp"

namespace tractrix {

namespace detail {

template <class T>
using track_sample_t = typename T::Sample;
template <class T>
using track_cursor_t = typename T::Cursor;

template <class Void, template <class...> class Op, class... Args>
struct detected : std::false_type {};
template <template <class...> class Op, class... Args>
struct detected<std::void_t<Op<Args...>>, Op, Args...> : std::true_type {};
template <template <class...> class Op, class... Args>
constexpr bool is_detected = detected<void, Op, Args...>::value;

// Each member's expression, for the detection idiom; R is the result type it must convert to.
template <class T, class S>
using length_r = decltype(std::declval<const T&>().length());
template <class T>
using closed_r = decltype(std::declval<const T&>().closed());
template <class T, class S>
using sample_r =
    decltype(std::declval<const T&>().sample(S(), std::declval<typename T::Cursor&>()));
template <class T, class S>
using sample_extended_r =
    decltype(std::declval<const T&>().sample_extended(S(), std::declval<typename T::Cursor&>()));
template <class T, class S>
using up_at_r =
    decltype(std::declval<const T&>().up_at(S(), std::declval<const typename T::Sample&>()));
template <class T>
using constant_up_r = decltype(std::declval<const T&>().constant_up());
template <class T>
using curvature_vector_r =
    decltype(std::declval<const T&>().curvature_vector(std::declval<const typename T::Sample&>()));
template <class T, class S>
using place_r =
    decltype(std::declval<const T&>().place(S(), std::declval<const typename T::Sample&>()));
template <class T>
using coordinate_scale_r = decltype(std::declval<const T&>().coordinate_scale());

template <template <class...> class Op, class R, class... Args>
constexpr bool returns() {
  if constexpr (is_detected<Op, Args...>) {
    return std::is_convertible<Op<Args...>, R>::value;
  } else {
    return false;
  }
}

template <class T, class S>
constexpr bool track_members() {
  if constexpr (!is_detected<track_sample_t, T> || !is_detected<track_cursor_t, T>) {
    return false;
  } else {
    using Sample = typename T::Sample;
    return returns<length_r, S, T, S>() && returns<closed_r, bool, T>() &&
           returns<sample_r, Sample, T, S>() && returns<sample_extended_r, Sample, T, S>() &&
           returns<up_at_r, Vector3<S>, T, S>() && returns<constant_up_r, const Vector3<S>*, T>() &&
           returns<curvature_vector_r, Vector3<S>, T>() &&
           returns<place_r, PiecePlace<S>, T, S>() && returns<coordinate_scale_r, S, T>() &&
           std::is_default_constructible<typename T::Cursor>::value;
  }
}

// One static_assert per member, so a compile error names what is missing.
template <class T, class S>
constexpr bool check_track() {
  static_assert(is_detected<track_sample_t, T>,
                "a track type needs `using Sample = ...` (a point with .point and .tangent)");
  static_assert(is_detected<track_cursor_t, T>,
                "a track type needs `using Cursor = ...` (search state, value-initializable)");
  if constexpr (is_detected<track_sample_t, T> && is_detected<track_cursor_t, T>) {
    static_assert(returns<length_r, S, T, S>(), "a track type needs `S length() const`");
    static_assert(returns<closed_r, bool, T>(), "a track type needs `bool closed() const`");
    static_assert(returns<sample_r, typename T::Sample, T, S>(),
                  "a track type needs `Sample sample(S s, Cursor& cursor) const`");
    static_assert(returns<sample_extended_r, typename T::Sample, T, S>(),
                  "a track type needs `Sample sample_extended(S s, Cursor& cursor) const`");
    static_assert(returns<up_at_r, Vector3<S>, T, S>(),
                  "a track type needs `Vector3<S> up_at(S s, const Sample& at) const`");
    static_assert(returns<constant_up_r, const Vector3<S>*, T>(),
                  "a track type needs `const Vector3<S>* constant_up() const`");
    static_assert(returns<curvature_vector_r, Vector3<S>, T>(),
                  "a track type needs `Vector3<S> curvature_vector(const Sample& at) const`");
    static_assert(returns<place_r, PiecePlace<S>, T, S>(),
                  "a track type needs `PiecePlace<S> place(S s, const Sample& at) const`");
    static_assert(returns<coordinate_scale_r, S, T>(),
                  "a track type needs `S coordinate_scale() const`");
    static_assert(std::is_default_constructible<typename T::Cursor>::value,
                  "a track type's Cursor must be value-initializable");
  }
  return true;
}

}  // namespace detail

/// True when `T` provides every member of a track of scalar `S` (see this file's table).
template <class T, class S>
constexpr bool is_track = detail::track_members<T, S>();

}  // namespace tractrix
