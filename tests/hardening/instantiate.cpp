// Every class template of the library instantiated in full for float and double, and the opt-in
// io readers compiled: members that no test calls still have to compile warning-free for both
// scalars.
#include "tractrix/io/network_file.hpp"  // the opt-in io component: inline functions
#include "tractrix/tractrix.hpp"

namespace tractrix {
template class Path<float, 3>;
template class Path<double, 3>;
template class Path<float, 2>;
template class Path<double, 2>;
template struct Hodograph<float>;
template struct Hodograph<double>;
template class SpeedQuadrature<float>;
template class SpeedQuadrature<double>;
template class ArcLengthTable<float>;
template class ArcLengthTable<double>;
template class MeasuredPath<float, 3>;
template class MeasuredPath<double, 3>;
template class MeasuredPath<float, 2>;
template class MeasuredPath<double, 2>;
template class CompiledPath<float, 3>;
template class CompiledPath<double, 3>;
template class CompiledPath<float, 2>;
template class CompiledPath<double, 2>;
template class PathBounds<float, 3>;
template class PathBounds<double, 2>;
template class ClosestPointCursor<float, 3>;
template class ClosestPointCursor<double, 2>;
template struct Frame<float>;
template struct Frame<double>;
template class RollProfile<float>;
template class RollProfile<double>;
template class RotationMinimizingFrames<float>;
template class RotationMinimizingFrames<double>;
template class UpSource<float>;
template class UpSource<double>;
template class Track<float>;
template class Track<double>;
template class TrainSolver<float>;
template class TrainSolver<double>;
template class Network<float>;
template class Network<double>;
template class Route<float>;
template class Route<double>;
template class TrainSolver<float, Route<float>>;
template class TrainSolver<double, Route<double>>;
template std::vector<Wagon<float>> reversed_train<float>(const std::vector<Wagon<float>>&);
template struct LoopDistance<float>;
template struct LoopDistance<double>;
template class HeadPosition<float>;
template class HeadPosition<double>;
template struct PoseArray<float>;
template struct PoseArray<double>;
template void PoseArray<float>::write<double>(std::size_t, const Vector3<double>&,
                                              const Eigen::Matrix<double, 3, 3>&,
                                              const EngineAxes&) const noexcept;
template Vector3<float> EngineAxes::point<float>(const Vector3<float>&) const noexcept;
template class TimeProfile<float>;
template class TimeProfile<double>;
template class JerkTrajectory<float>;
template class JerkTrajectory<double>;
template class SyncedTrajectory<float>;
template class SyncedTrajectory<double>;
template class WaypointTrajectory<float>;
template class WaypointTrajectory<double>;
template class SpeedLimits<float>;
template class SpeedLimits<double>;
template class SpeedPlan<float>;
template class SpeedPlan<double>;
template Expected<SpeedLimits<float>> SpeedLimits<float>::from_curvature<Track<float>>(
    const Track<float>&, const CurvatureLimits<float>&);
template Expected<SpeedLimits<double>> SpeedLimits<double>::from_curvature<Route<double>>(
    const Route<double>&, const CurvatureLimits<double>&);
template class HorizontalLayout<float>;
template class HorizontalLayout<double>;
template class VerticalLayout<float>;
template class VerticalLayout<double>;
template class CantLayout<float>;
template class CantLayout<double>;
template class Alignment<float>;
template class Alignment<double>;
template class TrainSolver<float, Alignment<float>>;
template class TrainSolver<double, Alignment<double>>;
template Expected<Track<float>> fitted_track(const Alignment<float>&, const TrackFit<float>&);
template Expected<Track<double>> fitted_track(const Alignment<double>&, const TrackFit<double>&);
template Expected<SpeedLimits<float>> SpeedLimits<float>::from_cant<Alignment<float>>(
    const Alignment<float>&, const CantLimits<float>&);
template Expected<SpeedLimits<double>> SpeedLimits<double>::from_curvature<Alignment<double>>(
    const Alignment<double>&, const CurvatureLimits<double>&);
template class CameraRig<float>;
template class CameraRig<double>;
template class PoseReader<float>;
template class PoseReader<double>;
template class StretchChain<float>;
template class StretchChain<double>;
template void train_kinematics<float>(const TrainSolver<float>&, const WagonPose<float>*, float,
                                      float, WagonMotion<float>*, std::size_t) noexcept;
template void train_kinematics<double>(const TrainSolver<double>&, const WagonPose<double>*, double,
                                       double, WagonMotion<double>*, std::size_t) noexcept;
template void train_kinematics<float, Route<float>>(const TrainSolver<float, Route<float>>&,
                                                    const WagonPose<float>*, float, float,
                                                    WagonMotion<float>*, std::size_t) noexcept;
template MotionSample<float> sample<float>(const MeasuredPath<float>&, const TimeProfile<float>&,
                                           float, const UpSource<float>&) noexcept;
template MotionSample<double> sample<double>(const MeasuredPath<double>&,
                                             const TimeProfile<double>&, double,
                                             const UpSource<double>&) noexcept;
template std::size_t TrainSolver<float>::solve<float>(float,
                                                      const WagonPoseArrays<float>&) const noexcept;
template std::size_t TrainSolver<double>::solve<float>(
    double, const WagonPoseArrays<float>&) const noexcept;
template std::size_t TrainSolver<double>::solve<double>(
    double, const WagonPoseArrays<double>&) const noexcept;
template std::size_t TrainSolver<double>::solve<float>(double, const WagonPoseArrays<float>&,
                                                       std::size_t, std::size_t) const noexcept;
template std::size_t solve_trains<double, Track<double>, float>(
    const TrainSolver<double>*, const double*, std::size_t, const WagonPoseArrays<float>&) noexcept;
template std::size_t solve_trains<float, Route<float>, float>(
    const TrainSolver<float, Route<float>>*, const float*, std::size_t,
    const WagonPoseArrays<float>&, std::size_t, std::size_t) noexcept;
template Expected<Path<float, 3>> Path<float, 3>::catmull_rom<double>(const PointArray<double>&,
                                                                      Closure);
template Expected<Path<double, 3>> Path<double, 3>::from_hermite_keys<float>(
    const PointArray<float>&, const PointArray<float>&, Closure);
template struct VectorArray<float>;
template struct VectorArray<double>;
template std::optional<Error> MeasuredPath<float, 3>::samples_at<float>(const float*, std::size_t,
                                                                        const VectorArray<float>&,
                                                                        const VectorArray<float>&,
                                                                        const EngineAxes&) const;
template std::optional<Error> MeasuredPath<double, 3>::samples_at<float>(const double*, std::size_t,
                                                                         const VectorArray<float>&,
                                                                         const VectorArray<float>&,
                                                                         const EngineAxes&) const;
template std::optional<Error> Track<float>::frames_at<float>(const float*, std::size_t,
                                                             const PoseArray<float>&,
                                                             const EngineAxes&) const;
template std::optional<Error> Track<double>::frames_at<float>(const double*, std::size_t,
                                                              const PoseArray<float>&,
                                                              const EngineAxes&) const;
// solve_each with a visitor of a type that can be named here (a lambda's cannot).
struct CountWagons {
  std::size_t* count;
  template <class S>
  void operator()(std::size_t, const WagonPose<S>&) const noexcept {
    ++*count;
  }
};
template void TrainSolver<float>::solve_each<CountWagons&>(float, CountWagons&) const noexcept;
template void TrainSolver<double, Route<double>>::solve_each<CountWagons&>(
    double, CountWagons&) const noexcept;
}  // namespace tractrix
