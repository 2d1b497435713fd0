/// @file
/// `StretchChain`: stretchy IK that stays right under global scale (the stretchy-IK tutorial:
/// stretched bone = rest + (distance/scale − chain length)/bones, only past full reach), with the
/// options riggers expect.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "tractrix/core/assert.hpp"
#include "tractrix/core/expected.hpp"
#include "tractrix/core/numeric.hpp"
#include "tractrix/core/vector.hpp"

namespace tractrix {

/// How a stretched chain's extra length (d/scale − L, for a chain of rest length L and n bones) is
/// shared among its bones. A squashed chain (shorter than L) shrinks proportionally either way.
enum class StretchSplit {
  equal,         ///< the tutorial: every bone gains (d/scale − L)/n
  proportional,  ///< every bone scales by (d/scale)/L
};

/// How a StretchChain stretches and squashes; checked by StretchChain::build.
template <class S>
struct StretchSettings {
  StretchSplit split = StretchSplit::equal;  ///< how the extra length is shared among the bones
  /// Longest chain, as a multiple of its rest length, >= 1 (infinity: unlimited; 1: no stretch).
  S max_stretch = std::numeric_limits<S>::infinity();
  /// Stretch begins when d/scale passes start·L, start in (0, 1] (1: at full reach, as in the
  /// tutorial).
  S stretch_start = S(1);
  /// Squash (compress) the bones proportionally when d/scale < L, instead of bending the chain.
  /// With stretch_start < 1 the squashed chain stays (1 − stretch_start)·L longer than d/scale, as
  /// the stretched one does, so its length is continuous where the stretch begins.
  bool squash = false;
  /// Soft IK zone as a fraction of L in [0, 1) (Andy Nicholas), used by two_bone: within the last
  /// soft·L before full reach the effector approaches the goal exponentially, so the knee never
  /// pops; with max_stretch > 1 the chain stretches by d/d_soft instead. While it is on, two_bone
  /// does not use stretch_start or squash. 0: off.
  S soft = S(0);
};

/// A rig's global scale: positive and finite, checked where it enters (a number, or a transform's
/// uniform scale), so the per-frame solves never receive a zero, negative or NaN scale.
template <class S>
class GlobalScale {
 public:
  /// Scale 1.
  GlobalScale() = default;

  /// A scale of `value`. Errors: non_finite for a NaN or infinite value, out_of_range for one
  /// not above 0.
  static Expected<GlobalScale> from(S value) {
    if (!std::isfinite(value))
      return make_error(ErrorCode::non_finite,
                        "global scale: " + detail::number_text(value) + " is not finite");
    if (!(value > S(0)))
      return make_error(ErrorCode::out_of_range,
                        "global scale: " + detail::number_text(value) + " is not positive");
    return GlobalScale(value);
  }

  /// The uniform scale of a transform's linear part: the mean length of its columns. Errors,
  /// never a scale silently read from one axis: non_finite for a NaN or infinite column length,
  /// out_of_range for a zero-length column, a column length off the mean by more than
  /// `tolerance` times it (non-uniform scale), or a tolerance that is negative, NaN or infinite.
  static Expected<GlobalScale> of_transform(const Eigen::Matrix<S, 3, 3>& linear,
                                            S tolerance = S(1e-6)) {
    if (!(tolerance >= S(0)) || !std::isfinite(tolerance))
      return make_error(ErrorCode::out_of_range, "global scale: tolerance " +
                                                     detail::number_text(double(tolerance)) +
                                                     " is not a finite number >= 0");
    // stableNorm: a plain norm's squares overflow for huge scales and lose their digits for tiny
    // ones.
    const S sx = linear.col(0).stableNorm(), sy = linear.col(1).stableNorm(),
            sz = linear.col(2).stableNorm();
    if (!std::isfinite(sx) || !std::isfinite(sy) || !std::isfinite(sz))
      return make_error(ErrorCode::non_finite, "global scale: non-finite transform");
    if (!(sx > S(0)) || !(sy > S(0)) || !(sz > S(0)))
      return make_error(ErrorCode::out_of_range, "global scale: zero-length axis");
    const S mean = (sx + sy + sz) / S(3);
    using std::abs;
    if (abs(sx - mean) > tolerance * mean || abs(sy - mean) > tolerance * mean ||
        abs(sz - mean) > tolerance * mean)
      return make_error(ErrorCode::out_of_range, "global scale: non-uniform (" +
                                                     detail::number_text(double(sx)) + ", " +
                                                     detail::number_text(double(sy)) + ", " +
                                                     detail::number_text(double(sz)) + ")");
    return from(mean);
  }

  /// The scale: finite and > 0.
  S value() const noexcept { return value_; }

 private:
  explicit GlobalScale(S value) noexcept : value_(value) {}
  S value_ = S(1);
};

/// A two-bone solve: joint positions and the bones' world rotations: z along the bone, x the
/// knee's hinge (the bend plane's normal, the same for both bones), y = z × x in the bend plane.
/// y turns with the bone, so it lies on the pole's side while the bone points ahead along root →
/// goal and on the other side where the bone points back towards the root.
template <class S>
struct TwoBonePose {
  Vector3<S> root,  ///< the chain's root, as given (the origin if it was not finite)
      knee,         ///< the joint between the bones
      end;          ///< the effector, on the root–goal line; on the goal where the bones reach
  Eigen::Matrix<S, 3, 3> upper_rotation,  ///< the upper bone's rotation (columns x, y, z)
      lower_rotation;                     ///< the lower bone's rotation
  S upper_length,    ///< the upper bone, stretched, in world units (rest space × scale)
      lower_length;  ///< the lower bone (all bones after the first), likewise
};

/// A chain of bones that stretches (and optionally squashes) towards a goal as its settings say,
/// its rest lengths given in rest space and every solve taking the rig's GlobalScale. Built by
/// build(), which checks the lengths and settings.
template <class S>
class StretchChain {
 public:
  /// A chain of bones with these rest lengths (rest space, root first). Errors: empty_input for no
  /// bones, out_of_range for a rest length that is not finite and positive, or a setting outside
  /// its range (max_stretch below 1 or NaN, stretch_start outside (0, 1], soft outside [0, 1)).
  static Expected<StretchChain> build(std::vector<S> rest_lengths,
                                      StretchSettings<S> settings = {}) {
    if (rest_lengths.empty()) return make_error(ErrorCode::empty_input, "rest_lengths: empty");
    for (std::size_t i = 0; i < rest_lengths.size(); ++i)
      if (!std::isfinite(rest_lengths[i]) || !(rest_lengths[i] > S(0)))
        return make_error(ErrorCode::out_of_range,
                          "bone " + detail::number_text(i) + ": rest length " +
                              detail::number_text(rest_lengths[i]) + " is not positive");
    if (std::isnan(settings.max_stretch) || !(settings.max_stretch >= S(1)))
      return make_error(
          ErrorCode::out_of_range,
          "max_stretch: " + detail::number_text(settings.max_stretch) + " is below 1");
    if (!std::isfinite(settings.stretch_start) || !(settings.stretch_start > S(0)) ||
        settings.stretch_start > S(1))
      return make_error(
          ErrorCode::out_of_range,
          "stretch_start: " + detail::number_text(settings.stretch_start) + " not in (0, 1]");
    if (!std::isfinite(settings.soft) || settings.soft < S(0) || !(settings.soft < S(1)))
      return make_error(ErrorCode::out_of_range,
                        "soft: " + detail::number_text(settings.soft) + " not in [0, 1)");
    StretchChain chain;
    chain.rest_ = std::move(rest_lengths);
    chain.total_ = std::accumulate(chain.rest_.begin(), chain.rest_.end(), S(0));
    chain.lower_rest_ = std::accumulate(chain.rest_.begin() + 1, chain.rest_.end(), S(0));
    chain.settings_ = settings;
    return chain;
  }

  /// The chain's rest length L: the bones' rest lengths summed (rest space).
  S rest_length() const noexcept { return total_; }
  /// The number of bones.
  std::size_t size() const noexcept { return rest_.size(); }
  /// The settings it was built with.
  const StretchSettings<S>& settings() const noexcept { return settings_; }

  /// The chain length (rest space) for a root–goal distance d in rest space (d_world / scale).
  /// A NaN or negative d counts as 0; an infinite one (a world distance that overflowed when
  /// divided by the scale) as beyond any reach: the length is then max_stretch's cap.
  S chain_length(S d) const noexcept {
    if (std::isnan(d) || d < S(0)) d = S(0);
    const S start = settings_.stretch_start * total_;
    S length = total_;
    if (d > start)
      length = total_ + (d - start);
    else if (settings_.squash && d < total_)
      length = d + (total_ - start);  // d itself when stretch_start is 1
    const S cap = settings_.max_stretch * total_;
    return length > cap ? cap : length;
  }

  /// Soft IK (Andy Nicholas): where the effector aims for a rest-space distance d and a chain of
  /// this reach: d itself up to hard = reach·(1 − soft), then hard + zone·(1 − exp(−(d − hard) /
  /// zone)) with zone = soft·reach, which meets d with slope 1 (C¹) and never quite reaches full
  /// extension. With soft 0, d capped at reach.
  S soft_reach(S d, S reach) const noexcept {
    const S zone = settings_.soft * reach;
    if (!(zone > S(0))) return d < reach ? d : reach;
    const S hard = reach - zone;
    if (d <= hard) return d;
    using std::exp;
    return hard + zone * (S(1) - exp(-(d - hard) / zone));
  }

  /// Stretched bone lengths (rest space) for a root–goal distance in world units and a global
  /// scale, written to out[0 .. size()). The soft zone is not applied here (two_bone only).
  void lengths(S distance, GlobalScale<S> scale, S* out) const noexcept {
    const S length = chain_length(distance / scale.value());
    for (std::size_t i = 0; i < rest_.size(); ++i)
      out[i] = stretched(rest_[i], 1, length);
  }
  /// The same, returned as a vector of size() lengths.
  std::vector<S> lengths(S distance, GlobalScale<S> scale) const {
    std::vector<S> out(rest_.size());
    lengths(distance, scale, out.data());
    return out;
  }

  /// Joints of a straight-line solve along root → goal (N bones: N + 1 joints, root first), the
  /// bones as long as lengths() makes them: the effector lands on the goal where the chain is as
  /// long as the distance (stretching from stretch_start 1, or squashing with it), and passes it
  /// where the chain is longer (at rest inside its reach without squash, or with stretch_start
  /// below 1). World units; a goal on the root lays the chain along +x.
  std::vector<Vector3<S>> straight(const Vector3<S>& root, const Vector3<S>& goal,
                                   GlobalScale<S> scale) const {
    const S global_scale = scale.value();
    // stableNorm and normalized_or: a huge distance's square would overflow to an infinite chain
    // times a zero direction, NaN joints.
    const Vector3<S> offset = goal - root;
    const std::vector<S> l = lengths(offset.stableNorm(), scale);
    const Vector3<S> direction = normalized_or(offset, Vector3<S>(Vector3<S>::UnitX()));
    std::vector<Vector3<S>> joints{root};
    for (S bone : l)
      joints.push_back(joints.back() + global_scale * bone * direction);
    return joints;
  }

  /// Analytic two-bone solve with a pole vector. The solve runs in rest space (positions /
  /// scale), so scaling the rig scales the answer and nothing else. Goal beyond reach: the
  /// effector stops on the root–goal line at full (stretched, soft) reach. Goal on the root: the
  /// chain folds towards the pole. Pole on the root–goal line: the bend plane falls back to a
  /// fixed perpendicular of that line.
  /// Non-finite input: a non-finite root counts as the origin, goal as the root, pole as no pole.
  /// A chain of other than two bones is solved as two: its first bone, and the others as one (a
  /// one-bone chain: that bone and one of length 0, so the knee is the end, on the root–goal
  /// line).
  TwoBonePose<S> two_bone(Vector3<S> root, Vector3<S> goal, Vector3<S> pole,
                          GlobalScale<S> scale) const noexcept {
    const S global_scale = scale.value();
    if (!root.allFinite()) root = Vector3<S>::Zero();
    if (!goal.allFinite()) goal = root;
    if (!pole.allFinite()) pole = root;
    const Vector3<S> offset = (goal - root) / global_scale;
    const S d = offset.stableNorm();  // finite wherever offset is (its square may overflow)
    const Reach reach = reach_for(d);
    const S lo = std::abs(reach.upper - reach.lower);
    const S aimed = reach.aim < lo ? lo : reach.aim;
    const Vector3<S> toward_pole = (pole - root) / global_scale;
    Vector3<S> u = d > S(0) ? Vector3<S>(offset / d) : Vector3<S>::Zero();
    if (!(d > S(0))) u = normalized_or(toward_pole, Vector3<S>(Vector3<S>::UnitX()));
    const Vector3<S> v = bend_direction(u, toward_pole);
    const Triangle triangle = root_angle(reach.upper, reach.lower, aimed);
    const Vector3<S> upper = triangle.cosine * u + triangle.sine * v;  // unit: u ⟂ v
    TwoBonePose<S> pose;
    pose.root = root;
    pose.knee = root + global_scale * reach.upper * upper;
    pose.end = root + global_scale * aimed * u;
    pose.upper_length = global_scale * reach.upper;
    pose.lower_length = global_scale * reach.lower;
    // The bones' directions in rest space, not from the world joints (whose difference loses
    // digits far from the origin); a bone of length 0, or within rounding of it against the
    // other two sides (its direction would be their rounding: a one-bone chain with a soft zone
    // aimed an ulp past its bone), lies along the root–goal line.
    // It is kept in the bend plane: its rounding off the plane, eps·(aimed + l0)/l1, would tilt
    // its frame off a rotation.
    const Vector3<S> hinge = v.cross(u);
    const bool lower_lost = !(reach.lower > S(64) * detail::epsilon<S>() * (aimed + reach.upper));
    Vector3<S> lower = triangle.c * u - triangle.a * upper;
    lower -= lower.dot(hinge) * hinge;
    lower = lower_lost ? u : normalized_or(lower, u);
    pose.upper_rotation = bone_rotation(upper, hinge);
    pose.lower_rotation = bone_rotation(lower, hinge);
    return pose;
  }

 private:
  // Made by build(): a default one has no keys, and its queries would read past them.
  StretchChain() = default;
  // The two bones' lengths in rest space for a goal d away, and the distance the effector aims
  // at (d, or less where the chain cannot reach it).
  struct Reach {
    S upper, lower, aim;
  };
  Reach reach_for(S d) const noexcept {
    if (settings_.soft > S(0)) {
      // Soft stretch: aim at the soft distance of the rest chain, then scale the whole chain by
      // d / d_soft (capped by max_stretch), so the effector still lands on the goal but the chain
      // never snaps straight.
      const S soft_distance = soft_reach(d, total_);
      S k = S(1);
      if (d > soft_distance && soft_distance > S(0)) k = d / soft_distance;
      if (k > settings_.max_stretch) k = settings_.max_stretch;
      return {rest_[0] * k, lower_rest_ * k, soft_distance * k};
    }
    const S length = chain_length(d);
    const S upper = stretched(rest_[0], 1, length);
    const S lower = stretched(lower_rest_, rest_.size() - 1, length);
    const S reach = upper + lower;
    return {upper, lower, d < reach ? d : reach};
  }

  // The unit direction in the bend plane perpendicular to the root–goal direction u, towards the
  // pole. Off the line by more than the projection's rounding, relative to the pole's distance or
  // the chain's size, whichever is larger (an absolute threshold would bend a tiny chain away from
  // its pole); else a fixed perpendicular of u. Projected twice: where
  // the pole lies near the line, one projection leaves v off perpendicular by up to its rounding
  // over |v|.
  Vector3<S> bend_direction(const Vector3<S>& u, const Vector3<S>& toward_pole) const noexcept {
    Vector3<S> v = toward_pole - toward_pole.dot(u) * u;
    const S v_norm = v.stableNorm();
    if (!(v_norm > S(64) * detail::epsilon<S>() * std::max(toward_pole.stableNorm(), total_)))
      return any_perpendicular(u);
    v /= v_norm;
    return (v - v.dot(u) * u).normalized();
  }

  // The triangle of the two bones and the aimed distance, its sides a, b, c relative to a power
  // of two near the longest (exact, so ordinary chains get the same triangle as without it, and
  // the squares of bones of 1e200 in double or 2e19 in float stay in range), and the angle at
  // the root: cosine from the law of cosines, sine from Heron's product of the side differences,
  // exactly 0 at full extension where √(1 − cos²) would err by √eps. A stretched chain is
  // straight by design: within rounding of full reach it is snapped straight, keeping the √eps
  // sensitivity of a nearly straight triangle out of the answer.
  struct Triangle {
    S a, b, c, cosine, sine;
  };
  static Triangle root_angle(S upper, S lower, S aimed) noexcept {
    const bool straight = aimed >= (upper + lower) * (S(1) - S(8) * detail::epsilon<S>());
    S unit = std::max({upper, lower, aimed});
    using std::ilogb;
    using std::ldexp;
    unit = unit > S(0) && unit <= std::numeric_limits<S>::max() ? ldexp(S(1), ilogb(unit)) : S(1);
    Triangle t{upper / unit, lower / unit, aimed / unit, S(1), S(0)};
    if (t.a > S(0) && t.c > S(0) && !straight) {
      using std::sqrt;
      const S denominator = S(2) * t.a * t.c;
      t.cosine =
          detail::clamp_or_low((t.a * t.a + t.c * t.c - t.b * t.b) / denominator, S(-1), S(1));
      const S product =
          (t.a + t.b + t.c) * (t.a + t.b - t.c) * (t.c + t.a - t.b) * (t.c - t.a + t.b);
      t.sine = product > S(0) ? sqrt(product) / denominator : S(0);
    }
    return t;
  }

  // A stretched length (rest space) of `bones` consecutive bones whose rest lengths sum to `rest`,
  // for a chain length: proportional, or each bone taking an equal share of the extra.
  S stretched(S rest, std::size_t bones, S length) const noexcept {
    if (settings_.split == StretchSplit::proportional || length < total_)
      return rest * (length / total_);
    return rest + S(static_cast<double>(bones)) *
                      ((length - total_) / S(static_cast<double>(rest_.size())));
  }

  // A bone's rotation: z its unit direction, x the hinge (the bend plane's unit normal, the same
  // for both bones), y = z × x in the bend plane. y turns with the bone: taken as the pole's
  // direction off the bone instead, it would flip 180° where the bone passes perpendicular to the
  // root–goal line, and lose its digits where the bone points at the pole.
  static Eigen::Matrix<S, 3, 3> bone_rotation(const Vector3<S>& along,
                                              const Vector3<S>& hinge) noexcept {
    Eigen::Matrix<S, 3, 3> r;
    r.col(0) = hinge;
    r.col(1) = along.cross(hinge);
    r.col(2) = along;
    return r;
  }

  std::vector<S> rest_;
  S total_ = S(0);
  S lower_rest_ = S(0);  // the bones after the first, summed: two_bone's lower bone
  StretchSettings<S> settings_;
};

}  // namespace tractrix
