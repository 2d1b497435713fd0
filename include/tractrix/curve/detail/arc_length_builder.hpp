/// @file
/// The engine that builds an `ArcLengthTable` (curve/arc_length.hpp): segment by segment,
/// interval by interval, adaptive where the curve needs it. Not API; included at the end of
/// arc_length.hpp, whose table it fills as a friend.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "tractrix/curve/arc_length.hpp"

namespace tractrix::detail {

// A table being built, segment by segment and interval by interval. Invariant between calls:
// the table's parallel arrays (distances_, inverse_, segment_of_, adaptive_) hold one record
// per interval appended so far, and total + lost is the last distance (a compensated sum:
// `lost` keeps what each addition rounds away, so entries stay within an ulp of the exact sum
// however many intervals a path has, where a plain sum drifts by ~√n half-ulps).
template <class S, int D>
struct ArcLengthTableBuilder {
  using Table = ArcLengthTable<S>;

  const Path<S, D>& path;
  const int uniform;
  const bool exact;
  const S length_scale;
  // parameter_at adds Newton steps where the quintic may miss 1e-12 of the length in double,
  // 64 eps in float: float's promise is set by what float can resolve, not by double's scaled
  // by the epsilons. The whole length is not known yet: the larger of
  // the length so far and the sum of the segments' end-to-end chords stands for it (stricter,
  // never looser), or length_scale where larger. The checks sample the error below its peak,
  // hence the margin of 4.
  const S relative_tolerance = inverse_tolerance<S>();
  S chords = S(0);
  S total = S(0), lost = S(0);
  Table table;
  // The segment being measured.
  std::size_t index = 0;
  S base = S(0), bend = S(0);
  Vector<S, D> previous;  // chord tables: the last point measured
  std::optional<SpeedQuadrature<S>> quadrature;

  ArcLengthTableBuilder(const Path<S, D>& measured, int per_segment, ArcLengthMethod method,
                        S scale)
      : path(measured),
        uniform(per_segment),
        exact(method == ArcLengthMethod::gauss_legendre),
        length_scale(scale) {
    table.samples_ = uniform;
    table.closed_ = path.closed();
    table.method_ = method;
    const std::size_t n = path.size();
    const std::size_t k = uniform > 0 ? static_cast<std::size_t>(uniform) : 1;
    table.hodographs_.reserve(n);
    table.segment_first_.reserve(n + 1);
    table.distances_.reserve(n * k + 1);
    table.distances_.push_back(S(0));
    table.inverse_.reserve(n * k + 1);
    table.adaptive_.reserve(n * k);
    table.segment_of_.reserve(n * k);
    if (exact)
      for (std::size_t i = 0; i < n; ++i)
        chords += (path.segment(i).points[3] - path.segment(i).points[0]).norm();
  }

  void start_segment(std::size_t i) {
    const auto& segment = path.segment(i);
    index = i;
    base = S(static_cast<std::ptrdiff_t>(i));
    previous = segment.points[0];
    table.segment_first_.push_back(table.inverse_.size());
    table.hodographs_.push_back(Hodograph<S>::of(segment));
    // Tolerance per unit u, from the control polygon (an upper bound of the segment's length).
    S polygon = S(0);
    for (std::size_t j = 0; j < 3; ++j)
      polygon += (segment.points[j + 1] - segment.points[j]).norm();
    quadrature.emplace(table.hodographs_.back(), S(8) * detail::epsilon<S>() * polygon);
    // |r''| = |2a·u + b| ≤ 2|a| + |b|.
    const auto& c = table.hodographs_.back().coefficients;
    bend = exact ? S(2) * std::sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]) +
                       std::sqrt(c[3] * c[3] + c[4] * c[4] + c[5] * c[5])
                 : S(0);
  }

  // The length of [u0, u1] of the segment, and the quadrature's thirds and flags (exact), or
  // the chord from the last point measured (chord tables).
  S measure(S u0, S u1, std::array<S, 2>& thirds, std::uint8_t& flags) {
    if (exact) {
      const S piece = quadrature->integrate(u0, u1, &thirds);
      flags = quadrature->refined() ? Table::split_quadrature : 0;
      return piece;
    }
    const auto& segment = path.segment(index);
    const Vector<S, D> current =
        detail::exactly_equal(u1, S(1)) ? segment.points[3] : de_casteljau(segment, u1).point;
    const S piece = (current - previous).norm();
    previous = current;
    return piece;
  }

  // Appends the interval [u0, u1]: its length, then its inverse; returns by how much the
  // inverse misses its tolerance (<= 1: it holds unaided; infinite where the quadrature had to
  // split the interval). Chord tables: 0.
  S append(S u0, S u1) {
    std::array<S, 2> thirds{};
    std::uint8_t flags = 0;
    const S piece = measure(u0, u1, thirds, flags);
    const S sum = total + piece;
    lost += detail::rounding_of_sum(total, piece, sum);
    total = sum;
    // Pieces are never negative; the max keeps rounding from ever stepping an entry back.
    const S entry = std::max(table.distances_.back(), total + lost);
    table.distances_.push_back(entry);
    table.inverse_.push_back({base + u0});
    table.inverse_.push_back({base + u1});  // the end, until the next interval's start
    const std::size_t e = table.inverse_.size() - 2;
    table.segment_of_.push_back(static_cast<std::uint32_t>(index));
    table.adaptive_.push_back(flags);
    set_inverse_piece(e);
    table.tolerance_scale_ = entry;  // for distance_within in the check, as build_at's end
    S miss = S(0);
    if (exact) {
      miss = inverse_error(e, thirds, length_scale > std::max(entry, chords)) /
             (relative_tolerance * std::max({entry, chords, length_scale}));
      if (!(miss <= S(1))) table.adaptive_.back() |= Table::needs_newton;
      if (flags & Table::split_quadrature) miss = std::numeric_limits<S>::infinity();
      // Nothing to refine where the miss is 0/0 (speeds whose squares underflow) or the
      // length overflowed (an error after the loop): halving would only fill 256 entries a
      // segment before that.
      if (std::isnan(miss) || !std::isfinite(total)) miss = S(0);
    }
    table.inverse_.pop_back();
    return miss;
  }

  // Interval e's inverse piece, into table.inverse_[e][1..5]; entry e + 1's parameter must be
  // set.
  void set_inverse_piece(std::size_t e) noexcept {
    const std::size_t segment = table.segment_of_[e];
    const S origin = S(static_cast<std::ptrdiff_t>(segment));
    const auto c = inverse_piece(table.hodographs_[segment], table.parameter_of(e) - origin,
                                 table.parameter_of(e + 1) - origin,
                                 table.distances_[e + 1] - table.distances_[e]);
    for (std::size_t j = 0; j < 5; ++j)
      table.inverse_[e][j + 1] = c[j];
  }

  // Interval i's inverse at s.
  S inverse_within(std::size_t i, S s) const noexcept {
    return detail::inverse_within(table.distances_.data(), table.inverse_.data(), i, s);
  }

  // The distance by which interval i's inverse misses, sampled where symmetry cannot hide it:
  // at the parameters a third and two thirds into the interval, whose exact distances the
  // quadrature gave for free (`thirds`; NaN where it split the interval elsewhere: then infinity,
  // which makes the interval always polish). On a segment symmetric about the interval's middle
  // the error is antisymmetric about it, so a check at the middle alone reads zero there.
  // `bend` (the segment's) bounds |r''| on it, and so how fast the speed changes between
  // parameters.
  S inverse_error(std::size_t i, const std::array<S, 2>& thirds, bool coarse) const noexcept {
    using std::abs;
    const std::size_t segment = table.segment_of_[i];
    const Hodograph<S>& q = table.hodographs_[segment];
    const S origin = S(static_cast<std::ptrdiff_t>(segment));
    const S u0 = table.parameter_of(i) - origin, u1 = table.parameter_of(i + 1) - origin;
    const S w = u1 - u0;
    S worst = S(0);
    for (std::size_t k = 0; k < 2; ++k) {
      if (std::isnan(thirds[k])) return std::numeric_limits<S>::infinity();
      const S u = u0 + S(k + 1) * w / S(3);
      const S miss = abs(inverse_within(i, table.distances_[i] + thirds[k]) - origin - u);
      worst = std::max(worst, (q.speed(u) + S(0.5) * bend * miss) * miss);
    }
    // Where the speed varies a lot the thirds sit far from the middle in distance, where the
    // error of a quintic peaks; the middle is then checked too, with a quadrature. So are the
    // quarters on a `coarse` interval (one whose tolerance length_scale sets, above the path's
    // own): there the error is far from its asymptotic shape and may change sign near the
    // thirds, where it then reads well below its peak.
    const S h = table.distances_[i + 1] - table.distances_[i];
    const bool spread = !(thirds[0] >= S(0.2) * h && thirds[0] <= S(0.45) * h &&
                          thirds[1] >= S(0.55) * h && thirds[1] <= S(0.8) * h);
    const S fractions[3] = {S(0.5), S(0.25), S(0.75)};
    for (std::size_t k = 0; k < 3; ++k) {
      if (!(coarse || (spread && k == 0))) continue;
      const S at = table.distances_[i] + fractions[k] * h;
      const S t = inverse_within(i, at);
      worst = std::max(worst, abs(table.distances_[i] + table.distance_within(i, t) - at));
    }
    return worst;
  }

  // Undoes the last append: the arrays and the running sum as they were before it.
  void take_back(S total_before, S lost_before) {
    table.distances_.pop_back();
    table.inverse_.pop_back();
    table.segment_of_.pop_back();
    table.adaptive_.pop_back();
    total = total_before;
    lost = lost_before;
  }

  void uniform_segment() {
    const std::size_t k = static_cast<std::size_t>(uniform);
    const S step = S(1) / S(uniform);
    for (std::size_t j = 0; j < k; ++j)
      append(S(static_cast<std::ptrdiff_t>(j)) * step,
             j + 1 == k ? S(1) : S(static_cast<std::ptrdiff_t>(j + 1)) * step);
  }

  // An interval whose inverse or quadrature needs help is taken back and halved, left half
  // first (entries stay in order), down to automatic_depth. (Cutting it at once into as many
  // parts as the miss asks for at the quintic's h⁶ over-refines: the miss is the worst
  // spot's, usually a slow end.)
  void adaptive_segment() {
    struct Pending {
      S u0, u1;
      int depth;
    };
    std::array<Pending, Table::automatic_depth + 2> stack;
    std::size_t top = 0;
    stack[top++] = {S(0), S(1), 0};
    while (top > 0) {
      const Pending interval = stack[--top];
      // The middle as an entry stores it: base + u rounds on long float paths (from segment
      // 2^15 at 2^-8 of a segment), and an interval's distance must be that of its stored
      // parameter. Where it rounds to an end the interval is as fine as S resolves.
      const S middle = (base + S(0.5) * (interval.u0 + interval.u1)) - base;
      const bool last = interval.depth == Table::automatic_depth ||
                        !(middle > interval.u0 && middle < interval.u1);
      // Near a slow spot the quadrature would split a wide interval many times over, only for
      // the interval to be halved after: halve it first.
      if (last || quadrature->clear(interval.u0, interval.u1)) {
        const S total_before = total, lost_before = lost;
        if (append(interval.u0, interval.u1) <= S(1) || last) continue;
        take_back(total_before, lost_before);
      }
      stack[top++] = {middle, interval.u1, interval.depth + 1};
      stack[top++] = {interval.u0, middle, interval.depth + 1};
    }
  }
};

}  // namespace tractrix::detail
