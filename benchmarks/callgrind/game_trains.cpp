// Instruction counts under callgrind (not built by CMake) for game_benchmark's trains: see
// benchmarks/README.md, "Short trains on game tracks". Arguments: float|double, arc|chord,
// long | gentle | tight | noisy, then optional flags `compiled` (Track::compiled) and `chords`
// (TrainSolver::compiled_chords). Counts 2000 frames of a 20-wagon train on a game track, or 4
// frames of the 10⁴-wagon reference, each frame's head 0.4 further; build with -Ibenchmarks.
// Also compiles against commit bea6ffa, before the game work (see the README section).
#include <valgrind/callgrind.h>

#include <cstdio>
#include <string>
#include <vector>

#include "game_tracks.hpp"

using namespace tractrix;

template <class S>
int run(bool chord, const std::string& track_name, bool compiled, bool chords) {
  using bench::GameTrack;
  const bool long_train = track_name == "long";
  const long count = long_train ? 10000 : 20;
  const int frames = long_train ? 4 : 2000;
  const GameTrack shape = track_name == "tight"   ? GameTrack::tight
                          : track_name == "noisy" ? GameTrack::noisy
                                                  : GameTrack::gentle;
  Track<S> track = long_train ? bench::long_track<S>(count) : bench::game_track<S>(shape);
#if __has_include("tractrix/train/detail/chord_offsets.hpp")
  if (compiled) track = track.compiled();
#endif
  auto solver = *TrainSolver<S>::build(track, bench::game_train<S>(count),
                                       {Wrap::circular, chord ? Spacing::chord : Spacing::arc});
#if __has_include("tractrix/train/detail/chord_offsets.hpp")
  if (chords) solver = solver.compiled_chords();
#else
  (void)compiled, (void)chords;
#endif
  std::vector<WagonPose<S>> poses(static_cast<std::size_t>(count));
  // (Commits before HeadPosition: the same heads, wrapped by hand, for before/after counts.)
  S head = S(0.3) * track.length();
  CALLGRIND_START_INSTRUMENTATION;
  for (int frame = 0; frame < frames; ++frame) {
    head += S(0.4);
    if (head >= track.length()) head -= track.length();
    solver.solve(head, poses.data());
  }
  CALLGRIND_STOP_INSTRUMENTATION;
  std::printf("%ld wagon solves; wagon 3 at x = %f\n", count * frames,
              static_cast<double>(poses[3].front.origin.x()));
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 4) return 2;
  const bool chord = std::string(argv[2]) == "chord";
  bool compiled = false, chords = false;
  for (int i = 4; i < argc; ++i) {
    compiled = compiled || std::string(argv[i]) == "compiled";
    chords = chords || std::string(argv[i]) == "chords";
  }
  return std::string(argv[1]) == "float" ? run<float>(chord, argv[3], compiled, chords)
                                         : run<double>(chord, argv[3], compiled, chords);
}
