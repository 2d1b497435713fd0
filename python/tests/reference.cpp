// The C++ side of test_same_as_cpp.py: the library's own answers for the inputs that test gives
// the Python package, printed as "name v0 v1 …" lines (%.17g, so every double reads back
// bit-equal). The inputs are decimal literals in both files, never computed (numpy's and libm's
// sin may differ in the last bit).
#include <cstdio>
#include <string>
#include <vector>

#include <tractrix/tractrix.hpp>

using namespace tractrix;

namespace {

void print(const std::string& name, const std::vector<double>& values) {
  std::printf("%s", name.c_str());
  for (double v : values)
    std::printf(" %.17g", v);
  std::printf("\n");
}
void add(std::vector<double>& out, const Vector3d& v) {
  out.insert(out.end(), {v.x(), v.y(), v.z()});
}
// Row-major, as numpy's (3, 3).
void add(std::vector<double>& out, const Eigen::Matrix3d& m) {
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      out.push_back(m(r, c));
}
void add_quaternion(std::vector<double>& out, const Eigen::Matrix3d& m) {
  double pose[7];
  PoseArray<double>::poses(pose, 1).write(0, Vector3d(Vector3d::Zero()), m);
  out.insert(out.end(), pose + 3, pose + 7);
}
template <class T>
T must(Expected<T> e) {
  if (!e) {
    std::fprintf(stderr, "reference: %s\n", e.error().message.c_str());
    std::exit(1);
  }
  return std::move(*e);
}

void frames(const std::string& name, const Track<double>& track, const std::vector<double>& s) {
  std::vector<double> position, rotation, quaternion;
  for (double d : s) {
    const Frame<double> f = track.frame_at(d);
    add(position, f.origin);
    add(rotation, f.rotation);
    add_quaternion(quaternion, f.rotation);
  }
  print(name + ".position", position);
  print(name + ".rotation", rotation);
  print(name + ".quaternion", quaternion);
}

template <class TrackType>
void train(const std::string& name, const TrainSolver<double, TrackType>& solver,
           const std::vector<double>& heads) {
  std::vector<double> part[9], midpoint, coupler, front_distance, rear_distance, lap, status;
  std::vector<double> front_piece, front_piece_distance, rear_piece, rear_piece_distance;
  std::vector<WagonPose<double>> poses(solver.wagons().size());
  for (double head : heads) {
    solver.solve(head, poses.data());
    for (const WagonPose<double>& p : poses) {
      const Frame<double>* f[3] = {&p.front, &p.rear, &p.body};
      for (int k = 0; k < 3; ++k) {
        add(part[3 * k], f[k]->origin);
        add(part[3 * k + 1], f[k]->rotation);
        add_quaternion(part[3 * k + 2], f[k]->rotation);
      }
      add(midpoint, p.body_midpoint);
      add(coupler, p.coupler);
      front_distance.push_back(p.front_distance);
      rear_distance.push_back(p.rear_distance);
      lap.push_back(static_cast<double>(p.lap));
      status.push_back(static_cast<double>(p.status));
      front_piece.push_back(static_cast<double>(p.front_place.piece));
      front_piece_distance.push_back(p.front_place.distance);
      rear_piece.push_back(static_cast<double>(p.rear_place.piece));
      rear_piece_distance.push_back(p.rear_place.distance);
    }
  }
  const char* frame_names[3] = {"front", "rear", "body"};
  const char* kinds[3] = {"position", "rotation", "quaternion"};
  for (int k = 0; k < 9; ++k)
    print(name + "." + frame_names[k / 3] + "_" + kinds[k % 3], part[k]);
  print(name + ".body_midpoint", midpoint);
  print(name + ".coupler", coupler);
  print(name + ".front_distance", front_distance);
  print(name + ".rear_distance", rear_distance);
  print(name + ".lap", lap);
  print(name + ".status", status);
  print(name + ".front_piece", front_piece);
  print(name + ".front_piece_distance", front_piece_distance);
  print(name + ".rear_piece", rear_piece);
  print(name + ".rear_piece_distance", rear_piece_distance);
}

Track<double> piece(const Vector3d& a, const Vector3d& ta, const Vector3d& b, const Vector3d& tb) {
  return must(Track<double>::build(MeasuredPath<double>::build(
      Path<double>::from_hermite_keys({a, b}, {ta, tb}, Closure::open))));
}

// A main line, a switch, straight on or onto a siding (example 09's, with literal numbers).
void network() {
  const auto net = must(Network<double>::build(
      {piece({-200, 0, 0}, {200, 0, 0}, {0, 0, 0}, {200, 0, 0}),
       piece({0, 0, 0}, {200, 0, 0}, {200, 0, 0}, {200, 0, 0}),
       piece({0, 0, 0}, {37.5, 0, 0}, {37, 0, 4.6}, {36.328125, 0, 9.375}),
       piece({37, 0, 4.6}, {58.125, 0, 15}, {95.125, 0, 19.6}, {58.125, 0, 15})},
      {{{0, End::end}, {1, End::start}, {2, End::start}}, {{2, End::end}, {3, End::start}}}));
  std::vector<double> piece_index, distance, point, squared;
  for (const Vector3d& q : {Vector3d(10, 0, 1), Vector3d(60, 3, 10), Vector3d(-300, 0, 0)}) {
    const NetworkPoint<double> at = net.closest_point(q);
    piece_index.push_back(static_cast<double>(at.piece));
    distance.push_back(at.distance);
    add(point, at.point);
    squared.push_back(at.squared_distance);
  }
  print("network.closest.piece", piece_index);
  print("network.closest.distance", distance);
  print("network.closest.point", point);
  print("network.closest.squared", squared);
  SwitchSettings switches = net.default_settings();
  if (switches.set({2, End::start})) std::exit(1);
  const auto route = must(Route<double>::follow(net, switches, {0, Direction::forward}));
  print("route.length", {route.length(), route.reversed().length()});
  train("route_train",
        must(TrainSolver<double, Route<double>>::build(
            route, std::vector<Wagon<double>>(4, {16, 11}), {Wrap::clamp, Spacing::chord})),
        {225, 0, 300});
  if (switches.set({1, End::start})) std::exit(1);
  const auto moved = must(route.around(225.0, 64.0, switches, 50.0, 10.0));
  std::vector<double> steps;
  for (std::size_t i = 0; i < moved.route.size(); ++i)
    steps.insert(steps.end(), {static_cast<double>(moved.route.step(i).piece),
                               static_cast<double>(moved.route.step(i).direction)});
  print("around", {moved.route.length(), moved.head});
  print("around.steps", steps);
}

// Camera rigs: keyed directions, then Catmull–Rom tangents with a look-at point, rotation-
// minimizing up and a Z-up world.
void camera() {
  const std::vector<CameraKey<double>> keys{{{0, 0, 0}, {1, 0, 0}},
                                            {{10, 2, 0}, {0, 0, 0}},
                                            {{20, 5, 3}, {0.5, 0, 1}},
                                            {{25, 4, 10}, {0, 0, 0}}};
  const auto profile = must(TimeProfile<double>::s_curve(1, 0.5, 0.4, 0.5));
  const auto keyed = must(CameraRig<double>::build(keys, profile));
  CameraRigSettings<double> settings;
  settings.tangents = CameraTangents::catmull_rom;
  settings.shape.tension = 0.25;
  const auto smooth = must(CameraRig<double>::build(keys, profile, settings));
  const std::pair<const char*, CameraRig<double>> rigs[] = {
      {"camera.keyed", keyed},
      {"camera.point", smooth.look_at_point({5, 5, 5})},
      {"camera.rmf",
       must(keyed.with_up(must(UpSource<double>::rotation_minimizing(keyed.path(), {0, 1, 0}))))},
      {"camera.zup",
       must(keyed.with_up(must(UpSource<double>::world({0, 0, 1})))).look_at_path(smooth.path())}};
  for (const auto& [name, rig] : rigs) {
    std::vector<double> position, rotation, quaternion, distance, speed, velocity, acceleration,
        tangential, normal;
    for (double t : {0.0, 0.7, 1.9, 3.3, 100.0}) {
      const CameraShot<double> shot = rig.at(t);
      add(position, shot.frame.origin);
      add(rotation, shot.frame.rotation);
      add_quaternion(quaternion, shot.frame.rotation);
      distance.push_back(shot.motion.distance);
      speed.push_back(shot.motion.speed);
      add(velocity, shot.motion.velocity);
      add(acceleration, shot.motion.acceleration);
      add(tangential, shot.motion.tangential_acceleration);
      add(normal, shot.motion.normal_acceleration);
    }
    const std::string n = name;
    print(n + ".position", position);
    print(n + ".rotation", rotation);
    print(n + ".quaternion", quaternion);
    print(n + ".distance", distance);
    print(n + ".speed", speed);
    print(n + ".velocity", velocity);
    print(n + ".acceleration", acceleration);
    print(n + ".tangential", tangential);
    print(n + ".normal", normal);
  }
}

}  // namespace

int main() {
  const std::vector<Vector3d> keys{{0, 0, 0}, {80, 0, 10}, {80, 5, 60}, {0, 0, 50}, {-30, 8, 25}};
  const std::vector<double> s{0, 1.5, 37.25, 100, 212.125, -20, 400};
  const std::vector<double> t{0, 0.3, 2.75, 4.999};
  const std::vector<Vector3d> queries{{40, 0, -5}, {1000, 0, 0}, {10, 3, 30}, {80, 5, 60}};

  const auto loop =
      must(MeasuredPath<double>::build(Path<double>::catmull_rom(keys, Closure::closed)));
  const auto open = must(MeasuredPath<double>::build(
      Path<double>::kochanek_bartels(keys, {0.25, -0.5, 0.125}, Closure::open),
      {8, ArcLengthMethod::gauss_legendre}));
  const auto chords = must(MeasuredPath<double>::build(
      Path<double>::catmull_rom(keys, Closure::closed), {5, ArcLengthMethod::chord}));
  print("loop.length", {loop.length()});
  print("open.length", {open.length()});
  print("chords.length", {chords.length()});

  for (const auto& [name, path] : {std::pair{"loop", &loop}, std::pair{"open", &open}}) {
    std::vector<double> point, tangent, parameter, linear, curvature, distance;
    std::vector<double> sample_point, sample_tangent, sample_parameter;
    for (double d : s) {
      const MeasuredPath<double>::Sample at = path->sample(d);
      add(sample_point, at.point);
      add(sample_tangent, at.tangent);
      sample_parameter.push_back(at.parameter);
      add(point, path->point_at(d));
      add(tangent, path->tangent_at(d));
      parameter.push_back(path->parameter_at(d));
      linear.push_back(path->parameter_at_linear(d));
      curvature.push_back(path->curvature_at(d));
    }
    for (double u : t)
      distance.push_back(path->distance_at(u));
    const std::string n = name;
    print(n + ".point_at", point);
    print(n + ".tangent_at", tangent);
    print(n + ".parameter_at", parameter);
    print(n + ".parameter_at_linear", linear);
    print(n + ".curvature_at", curvature);
    print(n + ".distance_at", distance);
    print(n + ".sample.point", sample_point);
    print(n + ".sample.tangent", sample_tangent);
    print(n + ".sample.parameter", sample_parameter);
    std::vector<double> c_distance, c_point, c_squared;
    for (const Vector3d& q : queries) {
      const auto c = path->closest_point(q);
      c_distance.push_back(c.distance);
      add(c_point, c.point);
      c_squared.push_back(c.squared_distance);
    }
    print(n + ".closest.distance", c_distance);
    print(n + ".closest.point", c_point);
    print(n + ".closest.squared", c_squared);
  }

  frames("world", must(Track<double>::build(loop, must(UpSource<double>::world({0, 0, 1})))), s);
  std::vector<Vector3d> rail_keys;
  for (const Vector3d& k : keys)
    rail_keys.push_back(k + Vector3d(1, 2, 0));
  const auto rail =
      must(MeasuredPath<double>::build(Path<double>::catmull_rom(rail_keys, Closure::closed)));
  frames("rail", must(Track<double>::build(loop, UpSource<double>::rail(rail))), s);
  frames("rail_closest",
         must(Track<double>::build(loop, UpSource<double>::rail(rail, RailMatch::closest_point))),
         s);
  frames(
      "rmf_roll",
      must(Track<double>::build(loop, must(UpSource<double>::rotation_minimizing(loop, {0, 1, 0}))
                                          .with_roll(must(RollProfile<double>::build(
                                              {0, 50, 150}, {0, 0.3, -0.2}, loop.length()))))),
      s);

  const auto loop_track = must(Track<double>::build(loop));
  train("chord_loop",
        must(TrainSolver<double>::build(loop_track, {{18, 12}, {14, 9, 1.5}, {14, 9}})),
        {0, 42, 500.5, -73.25});
  train("arc_clamp",
        must(TrainSolver<double>::build(must(Track<double>::build(open)),
                                        {{18, 12}, {14, 9}, {14, 9}, {20, 15}},
                                        {Wrap::clamp, Spacing::arc})),
        {-10, 5, 60, 1000});
  train("chord_extend",
        must(TrainSolver<double>::build(must(Track<double>::build(open)), {{18, 12}, {14, 9}},
                                        {Wrap::extend, Spacing::chord})),
        {-10, 5, 1000});

  const std::vector<double> times{0, 0.5, 1.7, 3, 100, -1};
  const std::pair<const char*, TimeProfile<double>> profiles[] = {
      {"constant", must(TimeProfile<double>::constant(2))},
      {"sine", must(TimeProfile<double>::sine(2.5))},
      {"sine_pieces", must(TimeProfile<double>::sine_pieces(3, ease_fractions(0.2, 0.7)))},
      {"parabolic", must(TimeProfile<double>::parabolic(3, ease_fractions(0.3, 0.6)))},
      {"trapezoidal", must(TimeProfile<double>::trapezoidal(10, 2, 1))},
      {"s_curve", must(TimeProfile<double>::s_curve(10, 2, 1, 1))},
      {"keyed", must(TimeProfile<double>::keyed({0, 1, 3}, {0, 0.2, 1}))}};
  for (const auto& [name, profile] : profiles) {
    std::vector<double> value, rate, acceleration;
    for (double time : times) {
      const ProfileSample<double> at = profile.at(time);
      value.push_back(at.value);
      rate.push_back(at.rate);
      acceleration.push_back(at.acceleration);
    }
    const std::string n = std::string("profile.") + name;
    print(n + ".duration", {profile.duration()});
    print(n + ".value", value);
    print(n + ".rate", rate);
    print(n + ".acceleration", acceleration);
    std::vector<double> times_at;
    for (double e : {0.0, 0.1, 0.5, 0.99, 1.0})
      times_at.push_back(profile.time_at(e));
    print(n + ".time_at", times_at);
  }

  // Targets as literal row-major matrices (local axes as columns).
  const double targets[3][9] = {{1, 0, 0, 0, 1, 0, 0, 0, 1},
                                {1, 0, 0, 0, 0.8, -0.6, 0, 0.6, 0.8},
                                {0.36, 0.48, -0.8, -0.8, 0.6, 0, 0.48, 0.64, 0.6}};
  PoseReaderSettings<double> circular;
  circular.cone = {0.2, 1.0};
  circular.falloff = PoseFalloff::smoothstep;
  PoseReaderSettings<double> elliptical;
  elliptical.cone = {0.1, 0.9};
  elliptical.elliptical_y = ConeRange<double>{0.3, 1.2};
  elliptical.twist = ConeRange<double>{0.5, 2.0};
  elliptical.target_axis = PoseAxis::negative_y;
  elliptical.falloff = PoseFalloff::gaussian;
  elliptical.reversed = true;
  for (const auto& [name, settings] :
       {std::pair{"reader.circular", circular}, std::pair{"reader.elliptical", elliptical}}) {
    const auto reader = must(PoseReader<double>::build(settings));
    std::vector<double> weights;
    for (const auto& m : targets) {
      Eigen::Matrix3d target;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
          target(r, c) = m[3 * r + c];
      weights.push_back(reader.weight(Eigen::Matrix3d::Identity(), target));
    }
    print(name, weights);
  }

  StretchSettings<double> soft;
  soft.soft = 0.1;
  soft.max_stretch = 1.5;
  const auto arm = must(StretchChain<double>::build({3, 2}, soft));
  std::vector<double> joints, rotations, lengths;
  for (const Vector3d& goal : {Vector3d(4, 1, 0), Vector3d(10, 0, 0), Vector3d(0, 0, 0)}) {
    const TwoBonePose<double> pose =
        arm.two_bone({0, 0, 0}, goal, {0, 0, 1}, must(GlobalScale<double>::from(1.25)));
    add(joints, pose.root);
    add(joints, pose.knee);
    add(joints, pose.end);
    add(rotations, pose.upper_rotation);
    add(rotations, pose.lower_rotation);
    lengths.insert(lengths.end(), {pose.upper_length, pose.lower_length});
  }
  print("two_bone.joints", joints);
  print("two_bone.rotations", rotations);
  print("two_bone.lengths", lengths);
  const auto chain = must(StretchChain<double>::build({1, 2, 3}));
  std::vector<double> chain_lengths;
  for (double d : {3.0, 6.5, 10.0, 20.0})
    for (double l : chain.lengths(d, must(GlobalScale<double>::from(2))))
      chain_lengths.push_back(l);
  print("chain.lengths", chain_lengths);
  network();
  camera();
}
