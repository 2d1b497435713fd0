// The network-file reader (tractrix/io/network_file.hpp), from hostile bytes: it either returns an
// error naming the file or a network whose pieces are finite and of positive length, on which
// routes follow the default switch settings and closest-point queries stay finite.
#include <sstream>
#include <string>

#include "fuzz/fuzz_input.hpp"
#include "tractrix/io/network_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  const auto file = tractrix::io::network_file::read(in, "fuzz.net");
  if (!file) {
    tractrix::fuzz::require(file.error().message.rfind("fuzz.net", 0) == 0,
                            "message names the file");
    return 0;
  }
  const auto& network = file->network;
  tractrix::fuzz::require(file->names.size() == network.piece_count(), "a name per piece");
  double scale = 1.0;
  for (std::size_t i = 0; i < network.piece_count(); ++i) {
    const double length = network.piece(i).length();
    tractrix::fuzz::require(std::isfinite(length) && length > 0, "positive finite length");
    scale = std::max(scale, length);
  }
  const auto route = tractrix::Route<double>::follow(network, network.default_settings(),
                                                     {0, tractrix::Direction::forward}, 4 * scale);
  if (route) {
    tractrix::Route<double>::Cursor cursor;
    for (int i = 0; i <= 16; ++i) {
      const auto at = route->sample(route->length() * i / 16, cursor);
      tractrix::fuzz::require(at.point.allFinite() && at.tangent.allFinite(), "finite route");
    }
  }
  const auto near =
      network.closest_point(network.piece(0).path().point_at(0) + tractrix::Vector3d(1, 2, 3));
  tractrix::fuzz::require(near.piece < network.piece_count() && near.point.allFinite(),
                          "finite closest point");
  return 0;
}
