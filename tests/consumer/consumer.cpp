// A consumer of tractrix: builds a path and its arc-length table and checks one known length.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include <tractrix/tractrix.hpp>
#ifdef TRACTRIX_CONSUMER_IO
#include <sstream>

#include <tractrix/io/track_file.hpp>
#endif

int main() {
#ifdef TRACTRIX_PACKAGE_VERSION
  if (std::strcmp(TRACTRIX_PACKAGE_VERSION, TRACTRIX_VERSION_STRING) != 0) {
    std::printf("package version %s, headers %s\n", TRACTRIX_PACKAGE_VERSION,
                TRACTRIX_VERSION_STRING);
    return 4;
  }
#endif
  // A straight line from (0,0,0) to (3,4,0) with uneven speed: length 5 whatever the speed.
  using Path = tractrix::Path<double, 3>;
  std::vector<tractrix::Vector3d> points{{0, 0, 0}, {3, 4, 0}};
  std::vector<tractrix::Vector3d> tangents{{0.3, 0.4, 0}, {4.5, 6, 0}};
  auto path = Path::from_hermite_keys(points, tangents, tractrix::Closure::open);
  if (!path) return 1;
  auto table = tractrix::ArcLengthTable<double>::build(*path);
  if (!table) return 2;
  std::printf("length %.15f\n", table->length());
  if (!(std::abs(table->length() - 5.0) < 1e-12)) return 3;
#ifdef TRACTRIX_CONSUMER_IO
  // The same line from a track file: two keys, tangents as above.
  std::istringstream file("open\n0,0,0, 0.3,0.4,0\n3,4,0, 4.5,6,0\n");
  const auto track = tractrix::io::track_file::read(file, "line.csv");
  if (!track || !(std::abs(track->path.length() - 5.0) < 1e-12)) return 5;
#endif
  return 0;
}
