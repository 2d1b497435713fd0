/// @file
/// `Expected<T>`: the result of every fallible construction from user data (no exceptions), and
/// the `Error` it carries.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace tractrix {

/// What kind of thing went wrong; the `Error`'s message says which field and value. A setting
/// checked against a range (a length that must be positive, a count, a tolerance) is out_of_range
/// also when it is NaN or infinite; non_finite is for data: points, keys, states, wagons, vectors.
enum class ErrorCode {
  empty_input,          ///< no points, no segments, no keys
  too_few_points,       ///< fewer than the construction needs
  non_finite,           ///< NaN or infinity in data (points, keys, states, vectors)
  out_of_range,         ///< a setting outside its documented range (NaN and infinity too)
  not_continuous,       ///< consecutive segments do not meet, or a closed path does not close
  mismatched_sizes,     ///< parallel arrays of different lengths
  no_solution,          ///< the geometry admits no answer (e.g. a wheelbase longer than the track)
  mismatched_topology,  ///< curves that must both be closed (or both open) are not
};

/// Short name of a code, for logs: `"out_of_range"`.
inline const char* to_string(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::empty_input:
      return "empty_input";
    case ErrorCode::too_few_points:
      return "too_few_points";
    case ErrorCode::non_finite:
      return "non_finite";
    case ErrorCode::out_of_range:
      return "out_of_range";
    case ErrorCode::not_continuous:
      return "not_continuous";
    case ErrorCode::mismatched_sizes:
      return "mismatched_sizes";
    case ErrorCode::no_solution:
      return "no_solution";
    case ErrorCode::mismatched_topology:
      return "mismatched_topology";
  }
  return "unknown";
}

/// What went wrong, with a message naming the bad field and value.
struct Error {
  ErrorCode code;       ///< the kind of failure
  std::string message;  ///< "wagon 0: bogie_distance 12.5 exceeds length 10"
};

namespace detail {
// Reading the value of an Expected that holds an error (or the error of one that holds a value) is
// a bug in the caller, and would be undefined behaviour; it stops the program in every build
// mode, with the error's message, instead of running on with garbage.
[[noreturn]] inline void bad_expected_access(const char* what, const Error* error) noexcept {
  std::fprintf(stderr, "tractrix: %s%s%s\n", what, error ? ": " : "",
               error ? error->message.c_str() : "");
  std::abort();
}
}  // namespace detail

template <class T>
class Expected;

namespace detail {
template <class T>
struct is_expected : std::false_type {};
template <class T>
struct is_expected<Expected<T>> : std::true_type {};
}  // namespace detail

/// Either a value or an `Error`; check it (`if (!result)`) before reading the value. Reading the
/// wrong alternative aborts with the error's message, also in release builds.
template <class T>
class [[nodiscard]] Expected {
 public:
  /// A value: a function returning `Expected<T>` can `return value;`.
  Expected(T value) : storage_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit
  /// An error: a function returning `Expected<T>` can `return make_error(code, message);`.
  Expected(Error error) : storage_(std::in_place_index<1>, std::move(error)) {}  // NOLINT: implicit

  /// True when this holds a value.
  bool has_value() const noexcept { return storage_.index() == 0; }
  /// True when this holds a value: `if (!result) return result.error();`.
  explicit operator bool() const noexcept { return has_value(); }

  /// The value; aborts with the error's message if this holds an error.
  T& value() & { return *checked_value(); }
  /// The value; aborts with the error's message if this holds an error.
  const T& value() const& { return *checked_value(); }
  /// The value, moved out; aborts with the error's message if this holds an error.
  T&& value() && { return std::move(*checked_value()); }
  /// `value()`.
  T& operator*() & { return value(); }
  /// `value()`.
  const T& operator*() const& { return value(); }
  /// `value()`, moved out.
  T&& operator*() && { return std::move(*this).value(); }
  /// The value's members: `track->length()`; aborts if this holds an error.
  T* operator->() { return &value(); }
  /// The value's members: `track->length()`; aborts if this holds an error.
  const T* operator->() const { return &value(); }

  /// The error; aborts if this holds a value.
  const Error& error() const {
    const Error* error = std::get_if<1>(&storage_);
    if (!error) detail::bad_expected_access("Expected::error() read on a value", nullptr);
    return *error;
  }

  /// The next step of a chain: `f(value)`, itself an `Expected<U>`, or this error passed on
  /// unchanged. `MeasuredPath<double>::build(path).and_then(make_rig)`.
  template <class F>
  auto and_then(F&& f) & {
    return chain<decltype(std::forward<F>(f)(value()))>(std::forward<F>(f), *this);
  }
  /// `and_then` reading a const value.
  template <class F>
  auto and_then(F&& f) const& {
    return chain<decltype(std::forward<F>(f)(value()))>(std::forward<F>(f), *this);
  }
  /// `and_then` moving the value into `f`.
  template <class F>
  auto and_then(F&& f) && {
    return chain<decltype(std::forward<F>(f)(std::move(*this).value()))>(std::forward<F>(f),
                                                                         std::move(*this));
  }

  /// `f(value)` as an `Expected` of its result, or this error passed on unchanged: a step that
  /// cannot fail, in a chain of steps that can.
  template <class F>
  auto transform(F&& f) & {
    return chain<Expected<std::decay_t<decltype(std::forward<F>(f)(value()))>>>(std::forward<F>(f),
                                                                                *this);
  }
  /// `transform` reading a const value.
  template <class F>
  auto transform(F&& f) const& {
    return chain<Expected<std::decay_t<decltype(std::forward<F>(f)(value()))>>>(std::forward<F>(f),
                                                                                *this);
  }
  /// `transform` moving the value into `f`.
  template <class F>
  auto transform(F&& f) && {
    return chain<Expected<std::decay_t<decltype(std::forward<F>(f)(std::move(*this).value()))>>>(
        std::forward<F>(f), std::move(*this));
  }

 private:
  // and_then and transform: R is the Expected the chain returns; f's result converts to it.
  template <class R, class F, class Self>
  static R chain(F&& f, Self&& self) {
    static_assert(detail::is_expected<R>::value,
                  "and_then needs a function that returns an Expected");
    if (!self.has_value()) return R(std::get<1>(std::forward<Self>(self).storage_));
    return R(std::forward<F>(f)(std::get<0>(std::forward<Self>(self).storage_)));
  }

  T* checked_value() {
    if (T* value = std::get_if<0>(&storage_)) return value;
    detail::bad_expected_access("the value of an Expected that holds an error was read",
                                std::get_if<1>(&storage_));
  }
  const T* checked_value() const {
    if (const T* value = std::get_if<0>(&storage_)) return value;
    detail::bad_expected_access("the value of an Expected that holds an error was read",
                                std::get_if<1>(&storage_));
  }

  std::variant<T, Error> storage_;
};

namespace detail {
// A number for an error message, with the digits it has (1e-06, 471.23875, 4096): unlike
// std::to_string, small values keep their digits (1e-7 is not "0.000000"). Counts and indices
// as they are.
template <class T>
std::string number_text(T x) {
  if constexpr (std::is_integral<T>::value) {
    return std::to_string(x);
  } else {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", static_cast<double>(x));
    return text;
  }
}

// An index for an error message. Indices come in as std::size_t, so a caller's -1 arrives as
// 2^64 - 1; indices in the upper half print as the negative number they were ("piece -1").
inline std::string index_text(std::size_t index) {
  const std::size_t half = ~std::size_t(0) / 2;
  return index > half ? "-" + std::to_string(~index + 1) : std::to_string(index);
}
}  // namespace detail

/// Builds an `Error`; the message should name the field and its value.
inline Error make_error(ErrorCode code, std::string message) {
  return Error{code, std::move(message)};
}

}  // namespace tractrix
