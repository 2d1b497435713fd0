/// @file
/// Internal: the checks every builder makes of the numbers it is given — named fields that must be
/// finite, and tolerances that must be finite numbers >= 0 in the scalar type — with the one
/// message each.
#pragma once

#include <cmath>
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>

#include "tractrix/core/expected.hpp"
#include "tractrix/core/numeric.hpp"

namespace tractrix::detail {

/// non_finite for the first field that is NaN or infinite: "<what>: <field> is <value>".
template <class S, std::size_t N>
std::optional<Error> non_finite_field(const std::string& what,
                                      const std::pair<const char*, S> (&fields)[N]) {
  for (const auto& [field, value] : fields)
    if (!std::isfinite(value))
      return Error{ErrorCode::non_finite, what + ": " + field + " is " + number_text(value)};
  return std::nullopt;
}

/// out_of_range for the first tolerance that is negative or not finite in S:
/// "<what> <field> <value> is not a finite number >= 0 in this scalar type (0: the default)".
template <class S>
std::optional<Error> bad_tolerance(
    const std::string& what, std::initializer_list<std::pair<const char*, double>> tolerances) {
  for (const auto& [field, value] : tolerances)
    if (!(value >= 0.0) || !std::isfinite(S(value)))
      return Error{ErrorCode::out_of_range,
                   what + " " + field + " " + number_text(value) +
                       " is not a finite number >= 0 in this scalar type (0: the default)"};
  return std::nullopt;
}

}  // namespace tractrix::detail
