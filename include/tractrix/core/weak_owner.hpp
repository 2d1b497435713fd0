/// @file
/// Internal: whether a weakly held owner is still the shared data a cursor last searched (a
/// measured path's, a network's), asked before the cursor trusts what it kept.
#pragma once

#include <memory>

namespace tractrix {
namespace detail {

// Whether `held` still refers to `owner`: alive, and the same control block — a destroyed
// owner whose address a newly built one reuses is not mistaken for it; copies sharing the data
// count as the same.
template <class T>
bool held_owner_is(const std::weak_ptr<const void>& held,
                   const std::shared_ptr<T>& owner) noexcept {
  return !held.expired() && !held.owner_before(owner) && !owner.owner_before(held);
}

}  // namespace detail
}  // namespace tractrix
