// Cells over [0, length) found in O(1): the cells' starts and one bucket a cell, each naming the
// cell that holds the bucket's first distance. The lookup of CompiledPath and of the compiled
// chord offsets (train/detail/chord_offsets.hpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory_resource>
#include <utility>
#include <vector>

#include "tractrix/core/attributes.hpp"

namespace tractrix::detail {

template <class S>
struct CellIndex {
  // pmr vectors: a network keeps every piece's index in one block (CompiledPath::in_one_block).
  // Elsewhere from new and delete, never the program's pmr default resource (a scoped arena set
  // as the default while a track is built would be freed under it).
  std::pmr::vector<S> starts;               // cell i covers [starts[i], starts[i + 1]); last: +inf
  std::pmr::vector<std::uint32_t> buckets;  // bucket b: the cell holding b / bucket_scale
  S bucket_scale = S(0);                    // buckets per unit of distance

  explicit CellIndex(std::pmr::memory_resource* memory = std::pmr::new_delete_resource())
      : starts(memory), buckets(memory) {}

  // An index of the cells starting at `cell_starts` (ascending, the first 0) over [0, length).
  static CellIndex build(const std::vector<S>& cell_starts, double length) {
    CellIndex index;
    const std::size_t cells = cell_starts.size();
    index.starts.reserve(cells + 1);
    index.starts.assign(cell_starts.begin(), cell_starts.end());
    index.starts.push_back(std::numeric_limits<S>::infinity());
    const std::size_t count = std::max<std::size_t>(cells, 1);
    index.bucket_scale = S(double(count) / length);
    index.buckets.resize(count);
    std::size_t cell = 0;
    for (std::size_t b = 0; b < count; ++b) {
      const S s = S(double(b) / double(index.bucket_scale));
      while (cell + 1 < cells && !(s < index.starts[cell + 1]))
        ++cell;
      index.buckets[b] = static_cast<std::uint32_t>(cell);
    }
    return index;
  }

  // The same index, its arrays allocated from `memory`.
  CellIndex copied_into(std::pmr::memory_resource* memory) const {
    CellIndex out(memory);
    out.starts.assign(starts.begin(), starts.end());
    out.buckets.assign(buckets.begin(), buckets.end());
    out.bucket_scale = bucket_scale;
    return out;
  }

  std::size_t cell_count() const noexcept { return starts.empty() ? 0 : starts.size() - 1; }
  std::size_t memory_bytes() const noexcept {
    return starts.size() * sizeof(S) + buckets.size() * sizeof(std::uint32_t);
  }

  // The cell holding s (in [0, length)): the cursor's if s is in it, else from the buckets.
  TRACTRIX_FORCE_INLINE std::size_t find(S s, std::size_t& cursor) const noexcept {
    const S* first = starts.data();
    std::size_t i = cursor;
    if (i < starts.size() - 1 && first[i] <= s && s < first[i + 1]) return i;  // any cursor is safe
    std::size_t b = static_cast<std::size_t>(s * bucket_scale);
    if (b >= buckets.size()) b = buckets.size() - 1;
    i = buckets[b];
    while (s < first[i] && i > 0)  // s·scale rounded up into the next bucket
      --i;
    while (!(s < first[i + 1]))
      ++i;
    cursor = i;
    return i;
  }
};

}  // namespace tractrix::detail
