// The train demo's track-file reader (tractrix/io/track_file.hpp), from hostile bytes: it either
// returns an error naming the file or a finite track of positive length with a roll per key.
#include <sstream>
#include <string>

#include "fuzz/fuzz_input.hpp"
#include "tractrix/io/track_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  const auto track = tractrix::io::track_file::read(in, "fuzz.csv");
  if (!track) {
    tractrix::fuzz::require(track.error().message.rfind("fuzz.csv:", 0) == 0,
                            "message names the file");
    return 0;
  }
  const double length = track->path.length();
  tractrix::fuzz::require(std::isfinite(length) && length > 0, "positive finite length");
  tractrix::fuzz::require(
      track->key_rolls.empty() ||
          track->key_rolls.size() == track->path.path().size() + (track->path.closed() ? 0 : 1),
      "one roll per key");
  for (double roll : track->key_rolls)
    tractrix::fuzz::require(std::isfinite(roll), "finite roll");
  std::size_t cursor = 0;
  for (int i = 0; i <= 16; ++i) {
    const auto sample = track->path.sample(length * i / 16, cursor);
    tractrix::fuzz::require(sample.point.allFinite() && sample.tangent.allFinite(),
                            "finite points");
  }
  return 0;
}
