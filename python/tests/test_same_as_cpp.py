"""The package gives the C++ library's numbers, bit for bit: the same inputs (decimal literals in
both files) through Python and through reference.cpp, compared with ==."""

import numpy as np
import pytest

import tractrix as tx

KEYS = [(0, 0, 0), (80, 0, 10), (80, 5, 60), (0, 0, 50), (-30, 8, 25)]
S = [0, 1.5, 37.25, 100, 212.125, -20, 400]
T = [0, 0.3, 2.75, 4.999]
QUERIES = [(40, 0, -5), (1000, 0, 0), (10, 3, 30), (80, 5, 60)]


def same(actual, expected):
    actual = np.asarray(actual, dtype=np.float64).reshape(-1)
    assert actual.shape == expected.shape
    # Bit-equal (== also makes -0.0 equal 0.0, which the decimal print cannot tell apart anyway).
    mismatch = np.flatnonzero(actual != expected)
    assert mismatch.size == 0, (
        f"{mismatch.size} of {actual.size} differ; first at {mismatch[0]}: "
        f"{actual[mismatch[0]]!r} vs C++ {expected[mismatch[0]]!r}")


@pytest.fixture(scope="module")
def paths():
    loop = tx.MeasuredPath(tx.Path.catmull_rom(KEYS, closed=True))
    open_ = tx.MeasuredPath(tx.Path.kochanek_bartels(KEYS, tension=0.25, bias=-0.5,
                                                     continuity=0.125),
                            samples_per_segment=8)
    return {"loop": loop, "open": open_}


def test_lengths(cpp, paths):
    same(paths["loop"].length, cpp["loop.length"])
    same(paths["open"].length, cpp["open.length"])
    chords = tx.MeasuredPath(tx.Path.catmull_rom(KEYS, closed=True), samples_per_segment=5,
                             method="chord")
    same(chords.length, cpp["chords.length"])


@pytest.mark.parametrize("name", ["loop", "open"])
def test_queries_by_distance(cpp, paths, name):
    path = paths[name]
    same(path.point_at(S), cpp[f"{name}.point_at"])
    same(path.tangent_at(S), cpp[f"{name}.tangent_at"])
    same(path.parameter_at(S), cpp[f"{name}.parameter_at"])
    same(path.parameter_at(S, linear=True), cpp[f"{name}.parameter_at_linear"])
    same(path.curvature_at(S), cpp[f"{name}.curvature_at"])
    same(path.distance_at(T), cpp[f"{name}.distance_at"])
    points, tangents, parameters = path.sample(S)
    same(points, cpp[f"{name}.sample.point"])
    same(tangents, cpp[f"{name}.sample.tangent"])
    same(parameters, cpp[f"{name}.sample.parameter"])
    # One at a time gives the same as the array (no state between calls).
    same([path.point_at(s) for s in S], cpp[f"{name}.point_at"])


@pytest.mark.parametrize("name", ["loop", "open"])
def test_closest_point(cpp, paths, name):
    closest = paths[name].closest_point(QUERIES)
    same(closest.distance, cpp[f"{name}.closest.distance"])
    same(closest.point, cpp[f"{name}.closest.point"])
    same(closest.gap, np.sqrt(cpp[f"{name}.closest.squared"]))


def test_frames_for_every_up_source(cpp, paths):
    loop = paths["loop"]
    rail = tx.MeasuredPath(tx.Path.catmull_rom(np.array(KEYS) + (1, 2, 0), closed=True))
    tracks = {
        "world": tx.Track(loop, up=(0, 0, 1)),
        "rail": tx.Track(loop, rail=rail),
        "rail_closest": tx.Track(loop, rail=rail, rail_match="closest_point"),
        "rmf_roll": tx.Track(loop, rotation_minimizing=True, roll=([0, 50, 150], [0, 0.3, -0.2])),
    }
    for name, track in tracks.items():
        frames = track.frame_at(S)
        same(frames.position, cpp[f"{name}.position"])
        same(frames.rotation, cpp[f"{name}.rotation"])
        same(frames.quaternion, cpp[f"{name}.quaternion"])


def check_train(cpp, name, train, heads):
    poses = train.solve(heads)
    for part in tx.TrainPoses.__slots__:
        same(getattr(poses, part), cpp[f"{name}.{part}"])


def test_trains(cpp, paths):
    loop_track = tx.Track(paths["loop"])
    open_track = tx.Track(paths["open"])
    check_train(cpp, "chord_loop",
                tx.TrainSolver(loop_track, [(18, 12, 0), (14, 9, 1.5), (14, 9, 0)]),
                [0, 42, 500.5, -73.25])
    check_train(cpp, "arc_clamp",
                tx.TrainSolver(open_track, [(18, 12), (14, 9), (14, 9), (20, 15)], spacing="arc",
                               wrap="clamp"),
                [-10, 5, 60, 1000])
    check_train(cpp, "chord_extend", tx.TrainSolver(open_track, [(18, 12), (14, 9)], wrap="extend"),
                [-10, 5, 1000])


def test_time_profiles(cpp):
    times = [0, 0.5, 1.7, 3, 100, -1]
    profiles = {
        "constant": tx.TimeProfile.constant(2),
        "sine": tx.TimeProfile.sine(2.5),
        "sine_pieces": tx.TimeProfile.sine_pieces(3, 0.2, 0.7),
        "parabolic": tx.TimeProfile.parabolic(3, 0.3, 0.6),
        "trapezoidal": tx.TimeProfile.trapezoidal(10, 2, 1),
        "s_curve": tx.TimeProfile.s_curve(10, 2, 1, 1),
        "keyed": tx.TimeProfile.keyed([0, 1, 3], [0, 0.2, 1]),
    }
    for name, profile in profiles.items():
        at = profile.at(times)
        same(profile.duration, cpp[f"profile.{name}.duration"])
        same(at.value, cpp[f"profile.{name}.value"])
        same(at.rate, cpp[f"profile.{name}.rate"])
        same(at.acceleration, cpp[f"profile.{name}.acceleration"])
        same(profile.time_at([0.0, 0.1, 0.5, 0.99, 1.0]), cpp[f"profile.{name}.time_at"])


def test_rig(cpp):
    targets = np.array([[1, 0, 0, 0, 1, 0, 0, 0, 1],
                        [1, 0, 0, 0, 0.8, -0.6, 0, 0.6, 0.8],
                        [0.36, 0.48, -0.8, -0.8, 0.6, 0, 0.48, 0.64, 0.6]]).reshape(3, 3, 3)
    circular = tx.PoseReader(cone=(0.2, 1.0), falloff="smoothstep")
    elliptical = tx.PoseReader(cone=(0.1, 0.9), elliptical_y=(0.3, 1.2), twist=(0.5, 2.0),
                               target_axis="-y", falloff="gaussian", reversed=True)
    same(circular.weight(np.eye(3), targets), cpp["reader.circular"])
    same(elliptical.weight(np.eye(3), targets), cpp["reader.elliptical"])

    arm = tx.StretchChain([3, 2], soft=0.1, max_stretch=1.5)
    pose = arm.two_bone((0, 0, 0), [(4, 1, 0), (10, 0, 0), (0, 0, 0)], (0, 0, 1), scale=1.25)
    same(pose.joints, cpp["two_bone.joints"])
    same(np.stack([pose.upper_rotation, pose.lower_rotation], axis=1), cpp["two_bone.rotations"])
    same(np.stack([pose.upper_length, pose.lower_length], axis=1), cpp["two_bone.lengths"])
    chain = tx.StretchChain([1, 2, 3])
    same(chain.lengths([3.0, 6.5, 10.0, 20.0], scale=2), cpp["chain.lengths"])


def test_network_routes_and_trains_on_them(cpp):
    def piece(a, ta, b, tb):
        return tx.Track(tx.MeasuredPath(tx.Path.hermite([a, b], [ta, tb])))

    network = tx.Network(
        [piece((-200, 0, 0), (200, 0, 0), (0, 0, 0), (200, 0, 0)),
         piece((0, 0, 0), (200, 0, 0), (200, 0, 0), (200, 0, 0)),
         piece((0, 0, 0), (37.5, 0, 0), (37, 0, 4.6), (36.328125, 0, 9.375)),
         piece((37, 0, 4.6), (58.125, 0, 15), (95.125, 0, 19.6), (58.125, 0, 15))],
        [[(0, "end"), (1, "start"), (2, "start")], [(2, "end"), (3, "start")]])
    closest = network.closest_point([(10, 0, 1), (60, 3, 10), (-300, 0, 0)])
    same(closest.piece, cpp["network.closest.piece"])
    same(closest.distance, cpp["network.closest.distance"])
    same(closest.point, cpp["network.closest.point"])
    same(closest.gap, np.sqrt(cpp["network.closest.squared"]))
    switches = network.default_settings().set(2, "start")
    route = tx.Route.follow(network, switches, (0, "forward"))
    same([route.length, route.reversed().length], cpp["route.length"])
    check_train(cpp, "route_train", tx.TrainSolver(route, [(16, 11)] * 4, wrap="clamp"),
                [225, 0, 300])
    switches.set(1, "start")
    moved, head = route.around(225.0, 64.0, switches, 50.0, 10.0)
    same([moved.length, head], cpp["around"])
    same([(p, d == "backward") for p, d in moved.steps], cpp["around.steps"])


def test_camera_rigs(cpp):
    positions = [(0, 0, 0), (10, 2, 0), (20, 5, 3), (25, 4, 10)]
    directions = [(1, 0, 0), (0, 0, 0), (0.5, 0, 1), (0, 0, 0)]
    profile = tx.TimeProfile.s_curve(1, 0.5, 0.4, 0.5)
    keyed = tx.CameraRig(positions, profile, view_directions=directions)
    smooth = tx.CameraRig(positions, profile, view_directions=directions, tangents="catmull_rom",
                          tension=0.25)
    rigs = {"keyed": keyed, "point": smooth.look_at_point((5, 5, 5)),
            "rmf": keyed.with_rotation_minimizing_up((0, 1, 0)),
            "zup": keyed.with_world_up((0, 0, 1)).look_at_path(smooth.path)}
    for name, rig in rigs.items():
        shots = rig.at([0.0, 0.7, 1.9, 3.3, 100.0])
        for part in tx.CameraShots.__slots__:
            same(getattr(shots, part), cpp[f"camera.{name}.{part}"])
