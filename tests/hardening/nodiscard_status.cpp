// Operations with no value report failure as a [[nodiscard]] status: a dropped error must not
// compile quietly. ctest compiles this file as it is (each status read: it compiles) and with
// TRACTRIX_DROP_STATUS=n for n = 1..4 (status n dropped: the compiler must warn; -Werror).
#include <tractrix/tractrix.hpp>

namespace tx = tractrix;

#ifndef TRACTRIX_DROP_STATUS
#define TRACTRIX_DROP_STATUS 0
#endif
// The preprocessor picks, so the dropped call is the only one the compiler sees.
#define READ(call) static_cast<void>((call).has_value())

void statuses(tx::SwitchSettings& switches, const tx::PieceEnd& leg,
              const tx::MeasuredPath<double>& path, const tx::Track<double>& track,
              const tx::VectorArray<double>& points, const tx::PoseArray<double>& poses,
              const tx::UpSource<double>& up) {
  const double distances[] = {0.0};
#if TRACTRIX_DROP_STATUS == 1
  switches.set(leg);
#else
  READ(switches.set(leg));
#endif
#if TRACTRIX_DROP_STATUS == 2
  path.samples_at(distances, 1, points, points);
#else
  READ(path.samples_at(distances, 1, points, points));
#endif
#if TRACTRIX_DROP_STATUS == 3
  track.frames_at(distances, 1, poses);
#else
  READ(track.frames_at(distances, 1, poses));
#endif
#if TRACTRIX_DROP_STATUS == 4
  up.check_fits(path);
#else
  READ(up.check_fits(path));
#endif
}

int main() {}
