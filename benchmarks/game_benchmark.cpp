// Short trains on game-sized tracks, float and double, beside the long train the README's
// per-wagon figure comes from, in the same run: one solve per frame of 10–50 wagons on a curvy
// 500-unit loop (gentle, tight hairpins, noisy hand-placed keys) against 10⁴ wagons on a long
// gentle loop, and 20 wagons on the same loops compiled (Track::compiled, and for chord
// spacing TrainSolver::compiled_chords). Also built at -O0 and -Og (game_benchmark_O0 / _Og):
// what engines' debug builds pay. Counter: ns_per_wagon.
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "game_tracks.hpp"
#include "tractrix/tractrix.hpp"
#include "train_fixtures.hpp"

namespace {

using tractrix::Spacing;
using tractrix::bench::game_track;
using tractrix::bench::game_train;
using tractrix::bench::GameTrack;
using tractrix::bench::long_track;

// One solve per frame with the head moving on, as a game drives it.
// `compiled`: the track compiled (Track::compiled) and, for chord spacing, its chords
// (TrainSolver::compiled_chords).
template <class S>
void run(benchmark::State& state, const tractrix::Track<S>& given, long count, Spacing spacing,
         bool compiled = false) {
  const tractrix::Track<S> track = compiled ? given.compiled() : given;
  auto solver = *tractrix::TrainSolver<S>::build(track, game_train<S>(count),
                                                 {tractrix::Wrap::circular, spacing});
  if (compiled) solver = solver.compiled_chords();
  std::vector<tractrix::WagonPose<S>> poses(static_cast<std::size_t>(count));
  tractrix::HeadPosition<S> head(track, S(0.3) * track.length());
  for (auto _ : state) {
    head.advance(S(0.4));  // 24 units/s at 60 Hz
    solver.solve(head.distance(), poses.data());
    benchmark::DoNotOptimize(poses.data());
    benchmark::ClobberMemory();
  }
  tractrix::bench::count_wagons(state, count);
}

const char* name_of(GameTrack shape) {
  return shape == GameTrack::gentle ? "gentle" : shape == GameTrack::tight ? "tight" : "noisy";
}

template <class S>
void register_all(const char* scalar) {
  for (const Spacing spacing : {Spacing::chord, Spacing::arc}) {
    const std::string tail = std::string(scalar) + (spacing == Spacing::chord ? "/chord" : "/arc");
    benchmark::RegisterBenchmark(("long_train/" + tail + "/10000").c_str(),
                                 [spacing](benchmark::State& state) {
                                   static const auto track = long_track<S>(10000);
                                   run<S>(state, track, 10000, spacing);
                                 })
        ->Unit(benchmark::kMicrosecond);
    for (const GameTrack shape : {GameTrack::gentle, GameTrack::tight, GameTrack::noisy})
      for (const long wagons : {10L, 20L, 50L})
        benchmark::RegisterBenchmark(
            ("short_train/" + tail + "/" + name_of(shape) + "/" + std::to_string(wagons)).c_str(),
            [spacing, shape, wagons](benchmark::State& state) {
              static const auto tracks = std::vector<tractrix::Track<S>>{
                  game_track<S>(GameTrack::gentle), game_track<S>(GameTrack::tight),
                  game_track<S>(GameTrack::noisy)};
              run<S>(state, tracks[static_cast<std::size_t>(shape)], wagons, spacing);
            })
            ->Unit(benchmark::kMicrosecond);
    for (const GameTrack shape : {GameTrack::gentle, GameTrack::tight, GameTrack::noisy})
      benchmark::RegisterBenchmark(
          ("short_train_compiled/" + tail + "/" + name_of(shape) + "/20").c_str(),
          [spacing, shape](benchmark::State& state) {
            static const auto tracks = std::vector<tractrix::Track<S>>{
                game_track<S>(GameTrack::gentle), game_track<S>(GameTrack::tight),
                game_track<S>(GameTrack::noisy)};
            run<S>(state, tracks[static_cast<std::size_t>(shape)], 20, spacing, true);
          })
          ->Unit(benchmark::kMicrosecond);
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all<float>("float");
  register_all<double>("double");
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
