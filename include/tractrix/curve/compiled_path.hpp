/// @file
/// `CompiledPath`: a measured path compiled to polynomials in arc length, so a sample at a
/// distance is one cell found by index and two Horner sums — no table search, no inverse, no
/// De Casteljau. What `Track` samples.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <memory_resource>
#include <new>
#include <utility>
#include <vector>

#include "tractrix/core/attributes.hpp"
#include "tractrix/core/numeric.hpp"
#include "tractrix/curve/closest_point.hpp"
#include "tractrix/curve/detail/arc_length_fit.hpp"
#include "tractrix/curve/detail/cell_index.hpp"
#include "tractrix/curve/detail/nearest_point.hpp"
#include "tractrix/curve/detail/past_ends.hpp"
#include "tractrix/curve/measured_path.hpp"

namespace tractrix {

/// A measured path as polynomials in the distance s along it: cells split at the knots and
/// halved where the curve needs it, each holding the point and the path parameter as degree-7
/// polynomials in s. Built once from a MeasuredPath (which it shares, not copies); immutable;
/// copies share the cells, so any number of tracks and threads can hold one.
///
/// Accuracy: every cell is checked between its nodes against the measured path — position within
/// 0.25e-12 of the length (or the table's length scale where larger; 16 eps in float) plus the
/// rounding of the coordinates; unit tangent within 1e-11 (64 eps in float), or what the
/// position tolerance and the points' rounding resolve over the cell's size where that is
/// coarser; the parameter within the position tolerance along the path — on top of the
/// measured path's own 1e-12·length. A segment part that no polynomial fits after eight halvings
/// (256 cells to a segment: cusps, hairpin turns at a crawl) keeps the measured path's sample,
/// one cell for each such run. (Four halvings would halve the cells on curvy track, but the
/// measured path's sample behind a handed-back cell searches its table afresh: slower than
/// today's track where such cells are many.)
/// Queries: the cell holding s is found through a bucket index on s (O(1), no search), or is the
/// cursor's cell when s is still in it. Beside the cells, distance cells (polynomials in the
/// path parameter) answer distance_at and the distance along of closest_point.
template <class S, int D = 3>
class CompiledPath {
 public:
  using Point = Vector<S, D>;                          ///< a point or a direction
  using Sample = typename MeasuredPath<S, D>::Sample;  ///< point, unit tangent, path parameter

  /// Halvings of a cell before it is left to the measured path.
  static constexpr int max_depth = 8;

  /// Compiles `path`. Cannot fail: a cell that does not fit falls back to the measured path.
  static CompiledPath build(MeasuredPath<S, D> path) {
    const S length = path.length();
    const bool closed = path.closed();
    auto data =
        std::make_shared<Data>(std::move(path), length, closed, std::pmr::new_delete_resource());
    compile(*data);
    return CompiledPath(std::move(data));
  }
  /// The result of MeasuredPath::build, compiled; its error, if it holds one, passes through.
  static Expected<CompiledPath> build(Expected<MeasuredPath<S, D>> path) {
    if (!path) return path.error();
    return build(std::move(*path));
  }

  /// The measured path compiled.
  const MeasuredPath<S, D>& measured() const noexcept { return data_->measured; }
  /// The path's length (> 0).
  S length() const noexcept { return data_->length; }
  /// Whether the path is closed (distances wrap) or open (distances clamp).
  bool closed() const noexcept { return data_->closed; }
  /// The number of cells.
  std::size_t cell_count() const noexcept { return data_->cells.size(); }
  /// The number of cells left to the measured path (cusps).
  std::size_t unfitted_cells() const noexcept {
    return static_cast<std::size_t>(
        std::count_if(data_->cells.begin(), data_->cells.end(),
                      [](const detail::FittedCell<S, D>& c) { return !detail::fitted(c); }));
  }
  /// Bytes the cells, their index and the distance cells hold (not the measured path, which is
  /// shared).
  std::size_t memory_bytes() const noexcept {
    const Data& data = *data_;
    return sizeof(Data) + data.cells.size() * sizeof(detail::FittedCell<S, D>) +
           data.index.memory_bytes() +
           data.distances.size() * (sizeof(detail::FittedCell<S, 0>) + sizeof(S)) +
           data.segment_cells.size() * sizeof(std::uint32_t);
  }

  /// Point, unit tangent and path parameter at distance s (wrapped on a closed path, clamped on
  /// an open one; NaN reads as 0), as MeasuredPath::sample gives them, to the accuracy above.
  /// `cursor` is the cell found last time (any value is safe; start at 0).
  TRACTRIX_FORCE_INLINE Sample sample(S s, std::size_t& cursor) const noexcept {
    const Data& data = *data_;
    s = data.closed ? detail::wrap(s, data.length) : detail::clamp_or_low(s, S(0), data.length);
    const std::size_t i = data.index.find(s, cursor);
    const detail::FittedCell<S, D>& cell = data.cells[i];
    if (!detail::fitted(cell)) return data.measured.sample(s);
    S value[static_cast<std::size_t>(D) + 1], slope[static_cast<std::size_t>(D) + 1];
    detail::evaluate_cell(cell, s, value, slope);
    Sample out;
    for (int k = 0; k < D; ++k)
      out.point[k] = value[k];
    detail::unit_from_slope<S, D>(slope, out.tangent.data());
    out.parameter = value[D];
    return out;
  }
  /// sample(s, cursor) with a fresh cursor.
  Sample sample(S s) const noexcept {
    std::size_t cursor = 0;
    return sample(s, cursor);
  }
  /// As sample, but an open path continues straight along its end tangents past either end (the
  /// parameter stays at the end's).
  Sample sample_extended(S s, std::size_t& cursor) const noexcept {
    S beyond;
    return detail::sample_past_ends(*this, s, cursor, beyond);
  }

  /// The distance along the path at path parameter t (wrapped or clamped as
  /// MeasuredPath::distance_at; exactly 0 at the start and the length at an open path's end; on
  /// a closed path in [0, length()), the seam 0) from polynomials in t: the distance's own
  /// cells, split at the knots and halved where the speed needs it, fitted to the measured
  /// path's distance_at and checked against it to the table's tolerance — no quadrature. The
  /// cell is found among its segment's by bisection. Where no polynomial holds (cusps), the
  /// measured path's distance_at.
  S distance_at(S t) const noexcept {
    const Data& data = *data_;
    const S end = data.measured.path().end_parameter();
    t = data.closed ? detail::wrap(t, end) : detail::clamp_or_low(t, S(0), end);
    if (!(t > S(0))) return S(0);
    if (!(t < end)) return data.length;  // an open path's end
    // The cells from the one holding the segment's start to the one holding the next's.
    const auto& starts = data.distance_starts;
    const std::size_t segment =
        std::min(static_cast<std::size_t>(t), data.segment_cells.size() - 2);
    const auto above =
        std::upper_bound(starts.begin() + std::ptrdiff_t(data.segment_cells[segment]) + 1,
                         starts.begin() + std::ptrdiff_t(data.segment_cells[segment + 1]) + 1, t);
    const detail::FittedCell<S, 0>& cell =
        data.distances[static_cast<std::size_t>(above - starts.begin()) - 1];
    if (!detail::fitted(cell)) return data.measured.distance_at(t);
    const S s = detail::clamp_or_low(detail::evaluate_scalar_cell(cell, t), S(0), data.length);
    return data.closed && !(s < data.length) ? S(0) : s;  // rounded to the length: the seam
  }

  /// MeasuredPath::closest_point, measured on the cells: the same nearest point, its distance
  /// along the path from distance_at above (no quadrature per answer).
  ClosestPoint<S, D> closest_point(const Point& query) const noexcept {
    const MeasuredPath<S, D>& measured = data_->measured;
    if (!query.allFinite()) return measured.not_finite();
    return closest_of(
        detail::nearest_on_path(measured.path(), measured.bounds(), query, detail::Nearest<S>{}),
        query);
  }
  /// The same through a cursor (MeasuredPath::closest_point with a cursor; one cursor per moving
  /// point and path — the compiled path and its measured one count as one path).
  ClosestPoint<S, D> closest_point(const Point& query,
                                   ClosestPointCursor<S, D>& cursor) const noexcept {
    const MeasuredPath<S, D>& measured = data_->measured;
    if (!query.allFinite()) return measured.not_finite();
    return closest_of(measured.nearest_with(query, cursor), query);
  }

 private:
  // Everything a query reads but the measured path's own data (read only at cusps): the length
  // and closure copied, so a sample stays within these arrays. pmr vectors, so that a network's
  // pieces can hold theirs in one block (in_one_block).
  struct Data {
    MeasuredPath<S, D> measured;
    S length;
    bool closed;
    std::pmr::vector<detail::FittedCell<S, D>> cells;
    detail::CellIndex<S> index;
    // distance_at's: cells in the path parameter, their first parameters, and each segment's
    // first cell (then one past the last segment).
    std::pmr::vector<detail::FittedCell<S, 0>> distances;
    std::pmr::vector<S> distance_starts;
    std::pmr::vector<std::uint32_t> segment_cells;

    // Empty arrays that allocate from `memory`: new and delete (build), or a network's block.
    Data(MeasuredPath<S, D> path, S path_length, bool path_closed,
         std::pmr::memory_resource* memory)
        : measured(std::move(path)),
          length(path_length),
          closed(path_closed),
          cells(memory),
          index(memory),
          distances(memory),
          distance_starts(memory),
          segment_cells(memory) {}

    // The same data, its arrays allocated from `memory`, in the order queries read them.
    Data(const Data& from, std::pmr::memory_resource* memory)
        : Data(from.measured, from.length, from.closed, memory) {
      cells.assign(from.cells.begin(), from.cells.end());
      index = from.index.copied_into(memory);
      distances.assign(from.distances.begin(), from.distances.end());
      distance_starts.assign(from.distance_starts.begin(), from.distance_starts.end());
      segment_cells.assign(from.segment_cells.begin(), from.segment_cells.end());
    }
  };

  explicit CompiledPath(std::shared_ptr<const Data> data) : data_(std::move(data)) {}

  // A network measures only the piece that wins its search (closest_of), not each it passes,
  // and keeps its pieces' data in one block (in_one_block).
  template <class>
  friend class Network;

  ClosestPoint<S, D> closest_of(const detail::Nearest<S>& nearest, const Point& query) const {
    ClosestPoint<S, D> at = data_->measured.located(nearest, query);
    at.distance = distance_at(at.parameter);
    return at;
  }

  static void compile(Data& data) {
    const MeasuredPath<S, D>& measured = data.measured;
    const double eps = double(detail::epsilon<S>());
    detail::ArcLengthFitter<S, D, MeasuredPath<S, D>> fitter{
        measured,
        double(detail::inverse_tolerance<S>()) * double(measured.table().accuracy_length()) +
            8 * eps * double(measured.path().extent()),
        std::max(1e-11, 64 * eps),
        eps * double(measured.path().extent()),
        max_depth,
        {},
        {}};
    const std::size_t segments = measured.path().size();
    double s0 = 0;
    for (std::size_t i = 0; i < segments; ++i) {
      const double s1 = i + 1 == segments ? double(measured.length())
                                          : double(measured.distance_at(static_cast<S>(i + 1)));
      fitter.fit_segment(s0, std::max(s0, s1), double(i), double(i + 1));
      s0 = std::max(s0, s1);
    }
    data.cells.assign(fitter.cells.begin(), fitter.cells.end());
    data.index = detail::CellIndex<S>::build(fitter.starts, double(measured.length()));
    // The distance's own tolerance: the table's, without the coordinates' rounding that the
    // position allows (a distance carries none; far from the origin that term is 1e-10·L).
    compile_distances(
        data, double(detail::inverse_tolerance<S>()) * double(measured.table().accuracy_length()) +
                  4 * eps * double(measured.length()));
  }

  static void compile_distances(Data& data, double tolerance) {
    const MeasuredPath<S, D>& measured = data.measured;
    const S end = measured.path().end_parameter();
    // The distance at t, the end's the length (not 0, where a closed path's table wraps it).
    const auto distance = [&](double t) {
      const S at = static_cast<S>(t);
      return at < end ? double(measured.distance_at(at)) : double(measured.length());
    };
    const std::size_t segments = measured.path().size();
    std::vector<detail::FittedCell<S, 0>> distances;
    std::vector<S> starts;
    detail::fit_distances<S>(distance, segments, tolerance, max_depth, distances, starts);
    data.distances.assign(distances.begin(), distances.end());
    data.distance_starts.assign(starts.begin(), starts.end());
    const std::size_t cells = data.distances.size();
    data.segment_cells.reserve(segments + 1);
    for (std::size_t i = 0, cell = 0; i <= segments; ++i) {
      while (cell + 1 < cells && !(S(i) < data.distance_starts[cell + 1]))
        ++cell;
      data.segment_cells.push_back(static_cast<std::uint32_t>(cell));
    }
  }

  // Copies of `paths` whose data lie one after another in one block of memory (a network's
  // pieces: a route's bogies step from piece to piece, and the next piece's cells follow the
  // last's instead of lying wherever the heap put them). They share their measured paths; the
  // block lives while any of them does.
  static std::vector<CompiledPath> in_one_block(const std::vector<const CompiledPath*>& paths) {
    struct Block {
      std::pmr::monotonic_buffer_resource memory;
      std::vector<Data*> data;
      explicit Block(std::size_t bytes) : memory(bytes, std::pmr::new_delete_resource()) {}
      Block(const Block&) = delete;
      Block& operator=(const Block&) = delete;
      ~Block() {  // the data first: their arrays go back to `memory` (a no-op), then it goes
        for (Data* d : data)
          d->~Data();
      }
    };
    std::size_t bytes = 0;
    for (const CompiledPath* path : paths)
      bytes += path->memory_bytes() + 8 * alignof(std::max_align_t);  // and each array's padding
    auto block = std::make_shared<Block>(bytes);
    block->data.reserve(paths.size());
    std::vector<CompiledPath> out;
    out.reserve(paths.size());
    for (const CompiledPath* path : paths) {
      void* at = block->memory.allocate(sizeof(Data), alignof(Data));
      Data* data = new (at) Data(*path->data_, &block->memory);
      block->data.push_back(data);
      out.push_back(CompiledPath(std::shared_ptr<const Data>(block, data)));
    }
    return out;
  }

  std::shared_ptr<const Data> data_;
};

}  // namespace tractrix
