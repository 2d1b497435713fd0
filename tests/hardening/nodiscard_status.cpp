// Operations with no value report failure as a [[nodiscard]] status: a dropped error must not
// compile quietly. ctest compiles this file twice: as it is (the statuses are read, it compiles)
// and with TRACTRIX_DROP_STATUS (each status dropped, the compiler must warn; -Werror).
#include <tractrix/tractrix.hpp>

namespace tx = tractrix;

#ifdef TRACTRIX_DROP_STATUS
#define STATUS(call) call
#else
#define STATUS(call) static_cast<void>(call.has_value())
#endif

void statuses(tx::SwitchSettings& switches, const tx::PieceEnd& leg,
              const tx::MeasuredPath<double>& path, const tx::Track<double>& track,
              const tx::VectorArray<double>& points, const tx::PoseArray<double>& poses,
              const tx::UpSource<double>& up) {
  const double distances[] = {0.0};
  STATUS(switches.set(leg));
  STATUS(path.samples_at(distances, 1, points, points));
  STATUS(track.frames_at(distances, 1, poses));
  STATUS(up.check_fits(path));
}

int main() {}
