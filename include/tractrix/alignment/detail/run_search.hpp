/// @file
/// Internal: which run (a segment of positive length) of a layout a distance falls in, by the
/// runs' ascending starts, with a caller's hint tried first — the search every layout's query
/// begins with.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace tractrix::detail {

// The run a value falls in, by the starts given (the first before it, the last after it).
template <class S>
std::size_t run_of(const std::vector<S>& starts, S value) noexcept {
  const auto upper = std::upper_bound(starts.begin(), starts.end(), value);
  return static_cast<std::size_t>(std::max<std::ptrdiff_t>(upper - starts.begin() - 1, 0));
}

// As run_of, `hint` (any value) tried first and left at the answer.
template <class S>
std::size_t run_of(const std::vector<S>& starts, S value, std::size_t& hint) noexcept {
  if (hint < starts.size() && starts[hint] <= value &&
      (hint + 1 == starts.size() || value < starts[hint + 1]))
    return hint;
  return hint = run_of(starts, value);
}

}  // namespace tractrix::detail
