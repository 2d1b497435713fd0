// Alignment layouts from hostile bytes: any segments (every type, extreme and NaN attributes),
// profiles and cant either build or are refused, and what builds answers every query finitely.
#include <vector>

#include "fuzz/fuzz_input.hpp"
#include "tractrix/alignment/alignment.hpp"
#include "tractrix/alignment/fitted_track.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tractrix;
  fuzz::Input in(data, size);
  AlignmentLayouts<double> layouts;
  const int plan = in.count(1, 4);
  Vector2d start(in.mostly_finite(), in.mostly_finite());
  double direction = in.mostly_finite();
  for (int i = 0; i < plan; ++i) {
    HorizontalSegment<double> g;
    g.type = static_cast<HorizontalType>(in.count(0, 8));
    g.start_point = in.flag() ? start : Vector2d(in.mostly_finite(), in.mostly_finite());
    g.start_direction = in.flag() ? direction : in.number();
    g.start_radius = in.byte() % 3 == 0 ? 0.0 : in.mostly_finite();
    g.end_radius = in.byte() % 3 == 0 ? 0.0 : in.mostly_finite();
    g.length = in.flag() ? std::abs(in.mostly_finite()) : in.number();
    g.gravity_center_height = in.flag() ? 0.0 : in.number();
    g.bank_angle_change = in.flag() ? 0.0 : in.number();
    layouts.horizontal.push_back(g);
    // Where a single segment would end, so that the next can continue it.
    if (const auto one = HorizontalLayout<double>::build({g})) {
      const auto end = one->at(one->length());
      start = end.position;
      direction = end.direction;
    }
  }
  layouts.horizontal_tolerance = {in.flag() ? 0.0 : 1e-6, in.flag() ? 0.0 : 1e-6};
  if (in.flag())
    layouts.vertical = {{static_cast<VerticalType>(in.count(0, 3)), in.mostly_finite(),
                         in.mostly_finite(), in.mostly_finite(), in.number(), in.number(),
                         in.flag() ? 0.0 : in.mostly_finite()}};
  if (in.flag())
    layouts.cant = {{static_cast<CantType>(in.count(0, 6)), in.mostly_finite(), in.mostly_finite(),
                     in.number(), in.number(), in.number(), in.number()}};
  layouts.rail_head_distance = in.flag() ? 1.5 : in.number();
  // The profile alone, as a caller building only a VerticalLayout would.
  if (!layouts.vertical.empty())
    if (const auto profile = VerticalLayout<double>::build(layouts.vertical)) {
      std::size_t cursor = 0;
      for (double x :
           {profile->start_distance(), profile->end_distance(), in.count(0, 255) * 10.0 - 1280}) {
        const auto v = profile->at(x, cursor);
        fuzz::require(std::isfinite(v.height) && std::isfinite(v.gradient), "finite profile");
        fuzz::require(std::isfinite(profile->profile_length(x)), "finite profile length");
        fuzz::require(std::isfinite(profile->distance_at_profile_length(x, cursor)),
                      "finite distance at a profile length");
      }
    }
  const auto alignment = Alignment<double>::build(layouts);
  if (!alignment) {
    fuzz::require(!alignment.error().message.empty(), "an error says why");
    return 0;
  }
  fuzz::require(std::isfinite(alignment->length()) && alignment->length() > 0, "length");
  Alignment<double>::Cursor cursor;
  for (int i = 0; i < 12; ++i) {
    // Anything on the alignment; beyond its ends, distances the extension can reach in double.
    const double s = in.flag() ? in.number() : in.mostly_finite();
    const auto at = i % 2 == 0 ? alignment->sample(s, cursor)
                               : alignment->sample_extended(in.count(0, 255) * 10.0 - 1280, cursor);
    fuzz::require(at.point.allFinite() && at.tangent.allFinite(), "finite sample");
    fuzz::require(alignment->up_at(s, at).allFinite(), "finite up");
    fuzz::require(alignment->curvature_vector(at).allFinite(), "finite curvature");
    const auto rails = alignment->rail_heads(at);
    fuzz::require(rails.left.allFinite() && rails.right.allFinite(), "finite rail heads");
  }
  const auto near = alignment->closest_point(in.vector());
  fuzz::require(!near.point.hasNaN(), "closest point not NaN");
  // As a Track (fitted_track), at a tolerance the fuzzer picks down to a micrometre of the
  // length: built, or refused with a message; built, every frame finite.
  if (alignment->length() < 1e5) {
    TrackFit<double> fit;
    fit.tolerance = alignment->length() * std::pow(10.0, -double(in.count(1, 6)));
    fit.bank_tolerance = in.flag() ? 0.0 : 1e-3;
    const auto track = fitted_track(*alignment, fit);
    if (!track) {
      fuzz::require(!track.error().message.empty(), "a fit's error says why");
    } else {
      for (int i = 0; i <= 4; ++i) {
        const Frame<double> frame = track->frame_at(track->length() * i / 4);
        fuzz::require(frame.origin.allFinite() && frame.rotation.allFinite(), "finite frame");
      }
    }
  }
  return 0;
}
