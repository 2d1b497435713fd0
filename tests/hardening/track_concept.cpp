// The track concept (train/track_concept.hpp), checked at compile time: the library's track
// types are tracks and other types are not; and, compiled with TRACTRIX_HALF_TRACK, a solver on
// a type that lacks members fails with messages that name them (ctest matches one).
#include <tractrix/tractrix.hpp>

namespace tx = tractrix;

static_assert(tx::is_track<tx::Track<double>, double>, "Track<double> is a track");
static_assert(tx::is_track<tx::Track<float>, float>, "Track<float> is a track");
static_assert(tx::is_track<tx::Route<double>, double>, "Route<double> is a track");
static_assert(tx::is_track<tx::Route<float>, float>, "Route<float> is a track");
static_assert(!tx::is_track<tx::MeasuredPath<double>, double>, "a measured path has no up");
static_assert(!tx::is_track<tx::Track<double>, float>, "a double track is no float track");
static_assert(!tx::is_track<int, double>, "int is no track");

#ifdef TRACTRIX_HALF_TRACK
// Has a sample and a length, and nothing else a train needs.
struct HalfTrack {
  using Sample = tx::MeasuredPath<double>::Sample;
  using Cursor = std::size_t;
  double length() const { return 1.0; }
};
using Solver = tx::TrainSolver<double, HalfTrack>;
const std::size_t solver_size = sizeof(Solver);
#endif

int main() {}
