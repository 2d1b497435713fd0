/// @file
/// The engine behind chord spacing in `TrainSolver` (train/train_solver.hpp): the search for the
/// first distance behind a bogie where the track is a chord away from it. Not API.
//
// The search solves g(s) = |P(s) − p|² − c² = 0 for s below `from` (p = P(from), c the chord),
// Newton stepping back from the arc guess from − c (an arc is never shorter than its chord, so
// g <= 0 there), bracketed once g changes sign, and bisecting where Newton leaves the bracket.
// Before a bracket, steps that may leap over a root are checked and shortened: the track comes
// no nearer the chord's sphere than the distance it runs, so a step shorter than
// (c − d) + (c − d') (d and d' the distances to p at its ends) skips no root.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace tractrix::detail {

// A track point's offset from the bogie p, on raw scalars (debug builds pay a call per Eigen
// operation): g and its derivative along the track.
template <class S>
struct ChordOffset {
  S dx, dy, dz;

  static ChordOffset between(const S* point, const S* p) noexcept {
    return {point[0] - p[0], point[1] - p[1], point[2] - p[2]};
  }
  S residual(S chord) const noexcept { return dx * dx + dy * dy + dz * dz - chord * chord; }
  // dg/ds for the unit tangent at the point.
  S slope(const S* tangent) const noexcept {
    return S(2) * (dx * tangent[0] + dy * tangent[1] + dz * tangent[2]);
  }
};

// The state of one search. Invariants: s is where the next sample is taken; g(hi) < 0; once
// bracketed, g(lo) >= 0 and the root lies in [lo, hi]; `limit` is the iteration budget.
template <class S>
struct ChordSearch {
  // check_below's value for a landing that needs no check.
  static constexpr S unchecked = -std::numeric_limits<S>::infinity();

  S chord;
  S tolerance;  // on |g|
  S s;
  S hi;
  S lo = S(0);
  bool bracketed = false;
  // Where the last step that may leap started, and g there.
  S stepped_from;
  S g_before = S(0);
  // A landing with g below this is checked: +inf after a step that may leap, g_before after a
  // Newton step (which should rise), unchecked otherwise or once the step has been cut to c − d.
  S check_below = unchecked;
  int retreats = 0;   // halvings of the last step
  int shortened = 0;  // steps shortened in this search: past 4, steps are no longer checked
  int limit = 40;

  ChordSearch(S from, S chord_length, S g_tolerance) noexcept
      : chord(chord_length),
        tolerance(g_tolerance),
        s(from - chord_length),
        hi(from),
        stepped_from(from) {}

  // 40 steps are plenty once bracketed. Before, each step goes back at least c − |P(s) − p|
  // (Newton's never less, and capped at a chord) until a lap is covered, so a root many chords
  // behind (a train leaving a coil of track) is reached within a budget of steps per chord of
  // track, granted once.
  void extend_budget(int iteration, S length) noexcept {
    if (iteration == 39 && !bracketed && limit == 40)
      limit += 4 * static_cast<int>(std::min(length / chord, S(1e6)));
  }

  // Before a bracket, a landing the last step may have leapt to (g below check_below) is pulled
  // back when the step was longer than what skips no root: halved twice, then cut to c − d.
  // True when s moved and must be sampled again.
  bool pulled_back(S g) noexcept {
    if (!(g < check_below) || bracketed) return false;
    using std::sqrt;
    const S safe = chord - sqrt(chord * chord + g_before);
    if (!(stepped_from - s > safe + (chord - sqrt(chord * chord + std::min(g, S(0))))))
      return false;
    if (retreats == 0) ++shortened;
    s = ++retreats < 3 ? S(0.5) * (stepped_from + s) : stepped_from - safe;
    if (retreats == 3) check_below = unchecked;
    return true;
  }

  // g at s narrows the bracket; the first sign change grants 40 more steps from here.
  void bracket(S g, int iteration) noexcept {
    if (g < S(0)) {
      hi = s;
      return;
    }
    if (!bracketed) limit = std::max(limit, iteration + 40);
    lo = s;
    bracketed = true;
  }

  struct Step {
    S next;
    bool newton;
  };
  // Newton unless its step back is longer than the chord (where the track runs along the
  // sphere, at a hairpin's tip, it would leap whole laps): there, and where the track heads
  // towards p, one chord back. The first step from the arc guess is Halley's with g'' taken as 2
  // (g'' = 2(1 + (P − p)·κN), and the second term is small for chords shorter than the radius of
  // curvature): one step to 1e-12 where Newton takes two. Written as g / (slope − g / slope), so
  // no product of g and slope overflows.
  Step step(S g, S slope, int iteration) const noexcept {
    const bool newton = slope < S(0) && (bracketed || g >= chord * slope);
    S next = newton ? s - g / slope : s - chord;
    if (iteration == 0 && newton) {
      const S halley = slope - g / slope;
      if (halley < S(0)) next = s - g / halley;
    }
    return {next, newton};
  }

  // A Newton step δ leaves g ≈ ½g''δ² behind, g'' at most 4 for chords up to the radius of
  // curvature: under the tolerance (and inside the bracket, on track), its landing is the answer.
  bool lands_on_root(const Step& st, bool stops_at_zero) const noexcept {
    const S step = s - st.next;
    return st.newton && (!bracketed || (st.next > lo && st.next < hi)) &&
           !(stops_at_zero && st.next < S(0)) && S(2) * S(4) * step * step <= tolerance;
  }

  // Searches on from a Newton landing that missed (where the coordinates' rounding sets the
  // tolerance, a few ulps can), checking it like any Newton step.
  void relaunch(S g, S next) noexcept {
    stepped_from = s;
    g_before = g;
    retreats = 0;
    check_below = shortened < 4 ? g : unchecked;
    s = next;
  }

  // Bisection where the step leaves the bracket; one chord back from hi where it goes forward.
  S safeguarded(S next) const noexcept {
    if (bracketed && !(next > lo && next < hi)) return S(0.5) * (lo + hi);
    if (!bracketed && next > hi) return hi - chord;
    return next;
  }

  // Marks the step from s to `next` for checking where it may leap: Newton's past its model's
  // reach (g'' ≈ 2 bends g by step², and a step whose bend could undo half its rise can cross
  // the top); a chord step where Newton's would be longer (the track along the sphere); a chord
  // step towards p from within c / 64 of the sphere (a tangent pointing the wrong way; from
  // farther in, such steps cross the turns of a coil, where shortening them would crawl). Every
  // search watches: where the coordinates' rounding sets the tolerance it also sets the
  // tangents' errors, and elsewhere a Newton step from a stretch well inside the sphere can
  // still leap a bulge of track that rises past the chord and falls back (a 15-key open track
  // put the rear bogie 97 behind where the first root was 60). A bulge that rises only a
  // thousandth of the chord past it, over a stretch of about a chord's thirtieth, can still be
  // leapt: the checks are a model of the bend, not a bound.
  void watch(S g, S slope, S next, bool newton) noexcept {
    if (shortened >= 4) {
      check_below = unchecked;
      return;
    }
    stepped_from = s;
    g_before = g;
    retreats = 0;
    const bool leap = newton ? S(2) * (s - next) * (s - next) > -g
                             : slope < S(0) || g > S(-0.031) * chord * chord;
    check_below = leap ? std::numeric_limits<S>::infinity() : newton ? g : unchecked;
  }
};

}  // namespace tractrix::detail
