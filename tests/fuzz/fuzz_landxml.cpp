// The LandXML reader (tractrix/io/landxml.hpp), from hostile bytes: it either returns an error
// naming the source or alignments whose every query is finite.
#include <string>

#include "fuzz/fuzz_input.hpp"
#include "tractrix/io/landxml.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto file = tractrix::io::landxml::parse(text, "fuzz.xml");
  if (!file) {
    tractrix::fuzz::require(file.error().message.rfind("fuzz.xml", 0) == 0,
                            "message names the source");
    return 0;
  }
  for (const auto& read : *file) {
    const auto& alignment = read.alignment;
    tractrix::fuzz::require(std::isfinite(alignment.length()) && alignment.length() > 0,
                            "positive finite length");
    tractrix::Alignment<double>::Cursor cursor;
    for (int i = -1; i <= 17; ++i) {
      const auto at = alignment.sample_extended(alignment.length() * i / 16, cursor);
      tractrix::fuzz::require(at.point.allFinite() && at.tangent.allFinite(), "finite sample");
      tractrix::fuzz::require(alignment.up_at(0, at).allFinite(), "finite up");
      tractrix::fuzz::require(alignment.curvature_vector(at).allFinite(), "finite curvature");
    }
    const auto near = alignment.closest_point(tractrix::Vector3d(1, 2, 3));
    tractrix::fuzz::require(near.point.allFinite() && std::isfinite(near.offset),
                            "finite closest point");
  }
  return 0;
}
