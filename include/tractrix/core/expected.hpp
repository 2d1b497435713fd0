// Expected<T>: the result of every fallible construction from user data (no exceptions).
#pragma once

#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "tractrix/core/assert.hpp"

namespace tractrix {

enum class ErrorCode {
  empty_input,       // no points, no segments, no keys
  too_few_points,    // fewer than the construction needs
  non_finite,        // NaN or infinity in user data
  out_of_range,      // a count, length or angle outside its documented range
  not_continuous,    // consecutive segments do not meet, or a closed path does not close
  mismatched_sizes,  // parallel arrays of different lengths
  no_solution,       // the geometry admits no answer (e.g. a wheelbase longer than the track)
};

// Short name of a code, for logs.
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
  }
  return "unknown";
}

// What went wrong, with a message naming the bad field and value.
struct Error {
  ErrorCode code;
  std::string message;
};

// Either a value or an Error. Accessing the wrong alternative is a TRACTRIX_ASSERT failure.
template <class T>
class Expected {
 public:
  Expected(T value) : storage_(std::in_place_index<0>, std::move(value)) {}      // NOLINT: implicit
  Expected(Error error) : storage_(std::in_place_index<1>, std::move(error)) {}  // NOLINT: implicit

  bool has_value() const noexcept { return storage_.index() == 0; }
  explicit operator bool() const noexcept { return has_value(); }

  T& value() & {
    TRACTRIX_ASSERT(has_value());
    return *std::get_if<0>(&storage_);
  }
  const T& value() const& {
    TRACTRIX_ASSERT(has_value());
    return *std::get_if<0>(&storage_);
  }
  T&& value() && {
    TRACTRIX_ASSERT(has_value());
    return std::move(*std::get_if<0>(&storage_));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const {
    TRACTRIX_ASSERT(!has_value());
    return *std::get_if<1>(&storage_);
  }

 private:
  std::variant<T, Error> storage_;
};

// Builds an Error; the message should name the field and its value.
inline Error make_error(ErrorCode code, std::string message) {
  return Error{code, std::move(message)};
}

}  // namespace tractrix
