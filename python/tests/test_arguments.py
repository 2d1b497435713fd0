"""What the package accepts and how it refuses: the library's messages as ValueError, wrong
dtypes as TypeError and wrong shapes as ValueError naming the argument, float32 and strided
input read as the same numbers, and no crash on anything."""

import threading

import numpy as np
import pytest

import tractrix as tx

KEYS = np.array([(0, 0, 0), (80, 0, 10), (80, 5, 60), (0, 0, 50)], dtype=np.float64)


@pytest.fixture(scope="module")
def track():
    return tx.Track(tx.MeasuredPath(tx.Path.catmull_rom(KEYS, closed=True)))


@pytest.mark.parametrize("build, message", [
    (lambda: tx.Path.catmull_rom([(0, 0, 0)]), "points: 1 given, at least 2 needed"),
    (lambda: tx.Path.catmull_rom([(0, 0, 0), (np.nan, 0, 0)]), "point 1: non-finite"),
    (lambda: tx.Path.hermite(KEYS, KEYS[:3]), "tangents: 3 for 4 points"),
    (lambda: tx.Path.bezier([[(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)],
                             [(4, 0, 0), (5, 0, 0), (6, 0, 0), (7, 0, 0)]]),
     "segment 0: end is 1 away from the start of segment 1 (tolerance 1.59161573e-12)"),
    (lambda: tx.MeasuredPath(tx.Path.catmull_rom(KEYS), samples_per_segment=-1),
     "samples_per_segment: -1 not in [1, 1048576] (or 0, automatic)"),
    (lambda: tx.MeasuredPath(tx.Path.catmull_rom(KEYS), length_scale=-2),
     "length_scale: -2 is not a finite length >= 0 in this scalar type"),
    (lambda: tx.MeasuredPath(tx.Path.catmull_rom(KEYS), method="chord", length_scale=10),
     "length_scale: 10 given to a chord table (it sets the exact table's tolerance; chord "
     "tables have none)"),
    (lambda: tx.TimeProfile.constant(-1), "duration: -1 is not positive"),
    (lambda: tx.StretchChain([1, 0]), "bone 1: rest length 0 is not positive"),
    (lambda: tx.PoseReader(cone=(1.0, 0.5)), "cone: inner 1 exceeds outer 0.5"),
    (lambda: tx.StretchChain([1, 2]).lengths(1.0, scale=0), "global scale: 0 is not positive"),
])
def test_library_errors_are_value_errors_with_its_message(build, message):
    with pytest.raises(ValueError) as error:
        build()
    assert message in str(error.value)


def test_train_errors_name_the_wagon(track):
    with pytest.raises(ValueError, match=r"wagon 1: bogie_distance 12 exceeds length 10"):
        tx.TrainSolver(track, [(18, 12), (10, 12)])
    with pytest.raises(ValueError, match="wrap: a closed track is always circular"):
        tx.TrainSolver(track, [(18, 12)], wrap="clamp")
    with pytest.raises(ValueError, match="no track point lies 500 "):
        tx.TrainSolver(track, [(600, 500)])
    open_track = tx.Track(tx.MeasuredPath(tx.Path.catmull_rom(KEYS)))
    rail = tx.MeasuredPath(tx.Path.catmull_rom(KEYS + 1, closed=True))
    with pytest.raises(ValueError, match="track: the rail is closed but the path is open"):
        tx.Track(open_track.path, rail=rail)


@pytest.mark.parametrize("value, kind, message", [
    (KEYS.astype(np.complex128), TypeError, "points: expected real numbers (floats or integers), got dtype complex128"),
    (KEYS.astype(bool), TypeError, "got dtype bool"),
    (KEYS.astype(str), TypeError, "got dtype <U"),
    (KEYS.astype(np.longdouble), TypeError, "convert with .astype(np.float64)"),
    ([[0, 0, 0], [1, 1]], ValueError, "points: not an array of numbers"),
    (KEYS[:, :2], ValueError, "points: expected an (N, 3) array of points, got shape (4, 2)"),
    (KEYS.reshape(-1), ValueError, "got shape (12,)"),
    (None, TypeError, "points: expected numbers, got None"),
    ("0 0 0", TypeError, "points: expected numbers, got str"),
    ([[0, 0, "a"]] * 4, TypeError, "got dtype <U"),
    ([[0, 0, None]] * 4, TypeError, "got dtype object"),
])
def test_wrong_arrays_are_refused_by_name(value, kind, message):
    with pytest.raises(kind) as error:
        tx.Path.catmull_rom(value)
    assert message in str(error.value)


def test_wrong_shapes_and_choices_in_queries(track):
    with pytest.raises(ValueError, match=r"query: expected \(3,\) or \(\.\.\., 3\) points, got shape \(2, 2\)"):
        track.path.closest_point(np.zeros((2, 2)))
    with pytest.raises(ValueError, match=r"wagons: expected \(N, 2\) rows"):
        tx.TrainSolver(track, [1, 2])
    with pytest.raises(ValueError, match="spacing: 'rigid' is not one of 'chord', 'arc'"):
        tx.TrainSolver(track, [(18, 12)], spacing="rigid")
    train = tx.TrainSolver(track, [(18, 12)])
    with pytest.raises(ValueError, match="parts: 'wheels' is not one of"):
        train.solve(0.0, parts=("wheels",))
    with pytest.raises(TypeError, match="head: expected numbers, got str"):
        train.solve("far")
    with pytest.raises(TypeError, match="path: expected a tractrix.MeasuredPath, got Path"):
        tx.Track(tx.Path.catmull_rom(KEYS))
    with pytest.raises(ValueError, match="falloff: 'cubic' is not one of"):
        tx.PoseReader(falloff="cubic")
    with pytest.raises(ValueError, match=r"target: expected \(3, 3\) or \(\.\.\., 3, 3\) matrices"):
        tx.PoseReader().weight(np.eye(3), np.zeros((4, 3)))
    with pytest.raises(ValueError, match="do not broadcast"):
        tx.StretchChain([1, 1]).two_bone(np.zeros((2, 3)), np.ones((3, 3)), (0, 0, 1))


def test_float32_strided_and_integer_input_read_as_the_same_numbers(track):
    keys32 = (KEYS + 0.1).astype(np.float32)
    from32 = tx.MeasuredPath(tx.Path.catmull_rom(keys32, closed=True))
    from64 = tx.MeasuredPath(tx.Path.catmull_rom(keys32.astype(np.float64), closed=True))
    assert from32.length == from64.length
    wide = np.zeros((4, 6))
    wide[:, ::2] = KEYS  # every other column: a strided view
    strided = tx.MeasuredPath(tx.Path.catmull_rom(wide[:, ::2], closed=True))
    fortran = tx.MeasuredPath(tx.Path.catmull_rom(np.asfortranarray(KEYS), closed=True))
    integers = tx.MeasuredPath(tx.Path.catmull_rom(KEYS.astype(np.int32).tolist(), closed=True))
    assert strided.length == fortran.length == integers.length == track.length
    s = np.linspace(0, 300, 41)
    np.testing.assert_array_equal(track.path.point_at(s.astype(np.float32)),
                                  track.path.point_at(s.astype(np.float32).astype(np.float64)))
    np.testing.assert_array_equal(track.path.point_at(s[::2]), track.path.point_at(s[::2].copy()))
    # Shapes carry through: a scalar gives (3,), a (5, 8) grid (5, 8, 3).
    assert track.path.point_at(5.0).shape == (3,)
    assert track.frame_at(np.zeros((5, 8))).rotation.shape == (5, 8, 3, 3)
    assert track.path.closest_point((1, 2, 3)).distance.shape == ()


def test_non_finite_queries_do_not_crash(track):
    s = [np.nan, np.inf, -np.inf, 1e300]
    assert np.all(np.isfinite(track.path.point_at(s)))
    assert np.all(np.isfinite(track.frame_at(s).rotation))
    poses = tx.TrainSolver(track, [(18, 12), (14, 9)]).solve(s)
    assert np.all(np.isfinite(poses.body_rotation))
    closest = track.path.closest_point([(np.nan, 0, 0)])
    assert np.isnan(closest.gap[0]) and np.all(np.isfinite(closest.point))


def test_solves_from_many_threads_give_the_serial_answer(track):
    train = tx.TrainSolver(track, [(18, 12), (14, 9)] * 200)
    heads = np.linspace(0, 1000, 64)
    serial = train.solve(heads).body_quaternion
    results = [None] * 4

    def work(i):
        results[i] = train.solve(heads).body_quaternion

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for result in results:
        np.testing.assert_array_equal(result, serial)


def test_solve_into_earlier_poses(track):
    train = tx.TrainSolver(track, [(18, 12), (14, 9)] * 3)
    poses = train.solve([0.0, 10.0])
    arrays = {name: getattr(poses, name) for name in tx.TrainPoses.__slots__}
    again = train.solve([55.0, 70.0], out=poses)
    assert again is poses
    fresh = train.solve([55.0, 70.0])
    for name in tx.TrainPoses.__slots__:
        assert getattr(poses, name) is arrays[name]  # written over, not replaced
        np.testing.assert_array_equal(getattr(poses, name), getattr(fresh, name))
    with pytest.raises(ValueError, match=r"out: front_position must be a writeable C-contiguous "
                                         r"float64 array of shape \(3, 6, 3\), got float64 \(2, 6, 3\)"):
        train.solve([1.0, 2.0, 3.0], out=poses)
    body_only = train.solve(5.0, parts=("body_position",))
    with pytest.raises(ValueError, match="out: lap must be .* got NoneType"):
        train.solve(6.0, parts=("lap",), out=body_only)


def test_network_errors():
    def piece(a, b):
        a, b = np.array(a, float), np.array(b, float)
        return tx.Track(tx.MeasuredPath(tx.Path.hermite([a, b], [b - a, b - a])))

    line = [piece((0, 0, 0), (10, 0, 0)), piece((10, 0, 0), (20, 0, 0))]
    with pytest.raises(ValueError, match="joint 0"):
        tx.Network([line[0], piece((11, 0, 0), (20, 0, 0))], [[(0, "end"), (1, "start")]])
    network = tx.Network(line, [[(0, "end"), (1, "start")]])
    with pytest.raises(ValueError, match=r"network: joint tolerance relative_gap -1 is not a "
                                         r"finite number >= 0 in this scalar type \(0: the default\)"):
        tx.Network(line, [[(0, "end"), (1, "start")]], relative_gap=-1)
    with pytest.raises(ValueError, match="network: joint tolerance angle inf"):
        tx.Network(line, [[(0, "end"), (1, "start")]], angle=float("inf"))
    with pytest.raises(ValueError, match="piece 0 start is a buffer stop, no switch"):
        network.default_settings().set(0, "start")
    with pytest.raises(ValueError, match=r"joints\[0\]: 'middle' is not one of 'start', 'end'"):
        tx.Network(line, [[(0, "middle"), (1, "start")]])
    with pytest.raises(ValueError, match=r"steps\[1\]: piece must be a non-negative integer"):
        tx.Route(network, [(0, "forward"), (-1, "forward")])
    with pytest.raises(ValueError, match="route: step 1 .* does not continue step 0"):
        tx.Route(network, [(0, "forward"), (1, "backward")])
    with pytest.raises(ValueError, match="route: step 2 .* leaves the network of 2 pieces"):
        tx.Route(network, [(0, "forward"), (1, "forward"), (2, "forward")])
    with pytest.raises(ValueError, match="network: piece 0 is closed"):
        tx.Network([tx.Track(tx.MeasuredPath(tx.Path.catmull_rom(KEYS, closed=True)))], [])
    # Joints left out are found where ends meet: the two straights join (a train crosses), a
    # kink where ends meet is refused, and ends apart stay buffer stops.
    found = tx.Network(line)
    assert found.joint_count == 1
    assert tx.Route(found, [(0, "forward"), (1, "forward")]).length == pytest.approx(20, rel=1e-14)
    assert tx.Network(line, []).joint_count == 0
    assert tx.Network([line[0], piece((11, 0, 0), (20, 0, 0))]).joint_count == 0
    with pytest.raises(ValueError, match="joint 0: the tangents of piece 0 end and piece 1 start"):
        tx.Network([line[0], piece((10, 0, 0), (20, 5, 0))])
    with pytest.raises(IndexError, match="piece 5: the network has 2 pieces"):
        network.piece(5)
    assert network.piece(1).length == pytest.approx(10, rel=1e-15)


def test_heads_inside_out_are_read_before_they_are_overwritten(track):
    train = tx.TrainSolver(track, [(18, 12)] * 4)
    poses = train.solve(np.zeros(4))
    heads = poses.front_distance.reshape(-1)[:4]  # a view into the array out= overwrites
    heads[:] = [100, 110, 120, 130]
    train.solve(heads, out=poses)
    np.testing.assert_allclose(poses.front_distance[:, 0], [100, 110, 120, 130], atol=1e-12)


def test_pose_reader_broadcasts_readers_and_targets():
    reader = tx.PoseReader(cone=(0.2, 1.0))
    turned = np.array([[1, 0, 0], [0, 0.8, -0.6], [0, 0.6, 0.8]])  # 0.6435 rad about x
    many = np.stack([np.eye(3), turned, np.eye(3)])
    expected = [1 - (np.arccos(0.8) - 0.2) / 0.8, 1.0, 1 - (np.arccos(0.8) - 0.2) / 0.8]
    np.testing.assert_allclose(reader.weight(many, turned), expected, atol=1e-12)
    np.testing.assert_allclose(reader.weight(turned, many), expected, atol=1e-12)
    grid = reader.weight(many[:, None], many[None, :])
    assert grid.shape == (3, 3) and np.allclose(np.diag(grid), 1)
    with pytest.raises(ValueError, match=r"reader, target: shapes \(2,\) and \(3,\) do not broadcast"):
        reader.weight(many[:2], many)


def test_the_compiled_core_checks_sizes_itself(track):
    """The core is importable (tractrix._tractrix); wrong arrays given to it directly raise."""
    core = track.path._core
    with pytest.raises(ValueError, match="results: 3 values where 30 are written"):
        core.points_at(np.arange(10.0), np.empty((1, 3)))
    train = tx.TrainSolver(track, [(18, 12)] * 3)
    with pytest.raises(ValueError, match="front_position: not a writeable C-contiguous float64"):
        train._core.solve(np.array([1.0]), {"front_position": np.zeros((3, 3), np.float32)})
    with pytest.raises(ValueError, match="lap: 2 values where 3 are written"):
        train._core.solve(np.array([1.0]), {"lap": np.zeros(2, np.int64)})
    with pytest.raises(ValueError, match="wagons: 4 values are not rows of 3"):
        tx._tractrix.TrainSolver.build(track._core, np.ones(4), False, "automatic")


def test_small_argument_checks(track):
    with pytest.raises(ValueError, match="s: an integer of 401 digits is beyond float64"):
        track.path.point_at(10 ** 400)
    assert track.path.point_at(5).shape == (3,)  # an int is a distance
    with pytest.raises(TypeError, match="got dtype bool"):
        track.path.point_at(True)
    with pytest.raises(TypeError, match="samples_per_segment: expected an integer, got float"):
        tx.MeasuredPath(tx.Path.catmull_rom(KEYS), samples_per_segment=16.5)
    nothing = tx.TrainSolver(track, [(18, 12)]).solve(5.0, parts=())
    assert all(getattr(nothing, name) is None for name in tx.TrainPoses.__slots__)


def test_the_compiled_core_refuses_what_it_cannot_write_or_read(track):
    core = track.path._core
    # An output it would have to convert would be a copy written and thrown away: refused.
    with pytest.raises(TypeError):
        core.points_at(np.arange(3.0), np.empty((3, 3), np.float32))
    with pytest.raises(TypeError):
        core.points_at(np.arange(3.0), np.empty((3, 6))[:, ::2])
    network = tx.Network([tx.Track(tx.MeasuredPath(tx.Path.catmull_rom(KEYS)))], [])
    with pytest.raises(IndexError, match="piece: no such piece"):
        network._core.piece(5)
    with pytest.raises(ValueError, match="up: 1 values are not rows of 3"):
        tx._tractrix.Track.build(core, "world", np.array([0.0, 1.0, 0.0])[:1], None, False, None,
                                 None)
    with pytest.raises(TypeError, match="settings: expected tractrix.SwitchSettings, got NoneType"):
        tx.Route(network, [(0, "forward")]).around(1.0, 1.0, None, 1.0, 1.0)
    with pytest.raises(ValueError, match="leg: piece must be a non-negative integer"):
        network.default_settings().set(1 << 64, "end")
    with pytest.raises(TypeError, match="piece: expected an integer, got float"):
        network.piece(1.5)


def test_edge_arguments_are_read_or_refused_by_name():
    reader = tx.PoseReader()
    # An empty broadcast weighs nothing (the core refused counts of 0 beside 1).
    assert reader.weight(np.eye(3), np.empty((0, 3, 3))).shape == (0,)
    assert reader.weight(np.empty((0, 3, 3)), np.eye(3)[None]).shape == (0,)
    # A gap below the squares' range (its square underflowed to 0).
    line = tx.MeasuredPath(tx.Path.bezier([[(0, 0, 0), (3, 0, 0), (7, 0, 0), (10, 0, 0)]]))
    assert line.closest_point([5, 1e-170, 0]).gap == pytest.approx(1e-170, rel=1e-15)
    assert line.closest_point([5, 1e-160, 0]).gap == pytest.approx(1e-160, rel=1e-15)
    # And beyond them (its square overflowed to inf): 1e160 straight out from the middle.
    assert line.closest_point([5, 1e160, 0]).gap == pytest.approx(1e160, rel=1e-15)
    network = tx.Network([tx.Track(line)], [])
    assert network.closest_point([5, -1e160, 0]).gap == pytest.approx(1e160, rel=1e-15)
    # A bool is no number, as a bool array is none (True read as 1).
    with pytest.raises(TypeError, match=r"samples_per_segment: expected an integer, got bool"):
        tx.MeasuredPath(line.path, True)
    with pytest.raises(TypeError, match=r"length_scale: expected a number, got bool"):
        tx.MeasuredPath(line.path, 0, length_scale=np.True_)
    # A look-at target that is no point is refused, as an up that is none is.
    camera = tx.CameraRig([(0, 0, 0), (10, 0, 0), (10, 0, 10)], tx.TimeProfile.sine(2))
    with pytest.raises(ValueError, match=r"target: \[nan, 0.0, 0.0\] is not finite"):
        camera.look_at_point([np.nan, 0, 0])
    # A number where a pair is wanted: a TypeError naming the argument, not len()'s.
    with pytest.raises(TypeError, match=r"cone: expected \(inner, outer\)"):
        tx.PoseReader(cone=0.5)
    with pytest.raises(TypeError, match=r"twist: expected \(inner, outer\)"):
        tx.PoseReader(twist=0.5)
    with pytest.raises(TypeError, match=r"roll: expected \(distances, angles\)"):
        tx.Track(line, roll=0.5)
    # Keys are 1-D: other shapes were flattened without a word.
    with pytest.raises(ValueError, match=r"roll distances: expected a 1-D array, got shape \(1, 2\)"):
        tx.Track(line, roll=(np.array([[0.0, 10.0]]), np.array([0.0, 1.0])))
    with pytest.raises(ValueError, match=r"times: expected a 1-D array, got shape \(3, 1\)"):
        tx.TimeProfile.keyed(np.array([[0.0], [1.0], [3.0]]), [0, 0.2, 1])
    with pytest.raises(ValueError, match=r"rest_lengths: expected a 1-D array, got shape \(2, 1\)"):
        tx.StretchChain(np.array([[1.0], [2.0]]))
    # Strings are not numbers (float("2") read them).
    with pytest.raises(TypeError, match="expected a number, got str"):
        tx.TimeProfile.constant("2")
    with pytest.raises(TypeError, match="scale: expected a number, got str"):
        tx.StretchChain([1, 1]).lengths(1.0, scale="2")


def test_speed_plan_arguments_are_read_or_refused_by_name():
    limits = tx.SpeedLimits.line(1000, 20)
    with pytest.raises(ValueError, match=r"speed limits: length -1 is not positive"):
        tx.SpeedLimits.line(-1, 20)
    with pytest.raises(ValueError, match=r"zones: expected \(N, 3\) rows"):
        limits.with_zones([(1, 2)])
    with pytest.raises(ValueError, match=r"speed zone 0: need start < end"):
        limits.with_zones([(5, 2, 10)])
    assert limits.with_zones([]).sections[0].tolist() == [0.0]
    assert limits.with_zones(np.empty((0, 3))).sections[0].tolist() == [0.0]
    with pytest.raises(TypeError, match=r"line: expected a tractrix.Track or Route"):
        tx.SpeedLimits.from_curvature(tx.Path.catmull_rom([(0, 0, 0), (1, 0, 0)]), 1, 1, 1)
    with pytest.raises(ValueError, match=r"samples: 0 not in \[1, 1024\]"):
        line = tx.Track(tx.MeasuredPath(tx.Path.catmull_rom([(0, 0, 0), (10, 0, 0)])))
        tx.SpeedLimits.from_curvature(line, 1, 1, 1, samples=0)
    with pytest.raises(TypeError, match=r"limits: expected tractrix.SpeedLimits"):
        tx.SpeedPlan(None, 20, 1, 1, 0.5)  # type: ignore[arg-type]
    for start in [(1, 2), [[1, 2, 3]], np.zeros((3, 1))]:
        with pytest.raises(ValueError, match=r"start: expected a position or"):
            tx.SpeedPlan(limits, 20, 1, 1, 0.5, start=start)
    with pytest.raises(ValueError, match=r"zones: expected \(N, 3\) rows"):
        limits.with_zones(np.zeros((0, 5)))
    with pytest.raises(ValueError, match=r"stations: expected \(N, 2\) or \(N, 3\) rows"):
        tx.SpeedPlan(limits, 20, 1, 1, 0.5, stations=np.zeros((0, 9)))
    with pytest.raises(ValueError, match=r"stations: expected \(N, 2\) or \(N, 3\) rows"):
        tx.SpeedPlan(limits, 20, 1, 1, 0.5, stations=[1, 2, 3])
    with pytest.raises(ValueError, match=r"speed plan: a hold of 3 s needs a start at rest "
                                         r"\(velocity 5, acceleration 0\)"):
        tx.SpeedPlan(limits, 20, 1, 1, 0.5, start=(100, 5, 0), hold=3)
    with pytest.raises(ValueError, match=r"speed plan: max_velocity, max_acceleration"):
        tx.SpeedPlan(limits, 20, 0, 1, 0.5)
    with pytest.raises(ValueError, match=r"station at 2000 \(dwell 1\): off the line"):
        tx.SpeedPlan(limits, 20, 1, 1, 0.5, stations=[(2000, 1)])
    # A position alone starts at rest there; the end defaults to the line's.
    plan = tx.SpeedPlan(limits, 20, 1, 1, 0.5, start=500)
    assert plan.at(0).position == 500 and plan.at(plan.duration).position == 1000


def _argument_calls():
    """(label, call, arguments that it accepts): every public function and constructor."""
    square = [(0, 0, 0), (10, 0, 0), (10, 10, 0), (0, 10, 0)]
    path = tx.Path.catmull_rom(square, closed=True)
    measured = tx.MeasuredPath(path)
    track = tx.Track(measured)
    profile = tx.TimeProfile.constant(4.0)
    straight = tx.Track(tx.MeasuredPath(tx.Path.catmull_rom([(0, 0, 0), (5, 0, 0), (10, 0, 0)])))
    network = tx.Network([
        straight,
        tx.Track(tx.MeasuredPath(tx.Path.catmull_rom([(10, 0, 0), (15, 0, 0), (20, 0, 0)]))),
        tx.Track(tx.MeasuredPath(tx.Path.hermite([(10, 0, 0), (20, 4, 0)], [(10, 0, 0)] * 2)))])
    settings = network.default_settings()
    route = tx.Route.follow(network, settings, (0, "forward"))
    limits = tx.SpeedLimits.line(40.0, 5.0)
    plan = tx.SpeedPlan(limits, 5.0, 1.0, 1.0, 2.0)
    rig = tx.CameraRig(square, profile, closed=True)
    chain = tx.StretchChain([1.0, 1.0])
    solver = tx.TrainSolver(track, [(4.0, 1.0, 2.0)])
    return [
        ("Path.catmull_rom", tx.Path.catmull_rom, dict(points=square)),
        ("Path.kochanek_bartels", tx.Path.kochanek_bartels,
         dict(points=square, tension=0.1, bias=0.0, continuity=0.0)),
        ("Path.hermite", tx.Path.hermite, dict(points=square, tangents=square)),
        ("Path.bezier", tx.Path.bezier, dict(controls=[square])),
        ("Path.evaluate", path.evaluate, dict(t=0.5)),
        ("MeasuredPath", tx.MeasuredPath,
         dict(path=path, samples_per_segment=8, method="gauss_legendre", length_scale=1.0)),
        ("MeasuredPath.sample", measured.sample, dict(s=1.0)),
        ("MeasuredPath.point_at", measured.point_at, dict(s=1.0)),
        ("MeasuredPath.tangent_at", measured.tangent_at, dict(s=1.0)),
        ("MeasuredPath.parameter_at", measured.parameter_at, dict(s=1.0)),
        ("MeasuredPath.distance_at", measured.distance_at, dict(t=1.0)),
        ("MeasuredPath.curvature_at", measured.curvature_at, dict(s=1.0)),
        ("MeasuredPath.closest_point", measured.closest_point, dict(query=(1, 2, 3))),
        ("Track", tx.Track, dict(path=measured, up=(0, 1, 0), rail_match="closest_point",
                                 roll=([0.0, 1.0], [0.0, 0.1]))),
        ("Track with a rail", tx.Track, dict(path=measured, rail=measured)),
        ("Track.frame_at", track.frame_at, dict(s=1.0)),
        ("TrainSolver", tx.TrainSolver,
         dict(track=track, wagons=[(4.0, 1.0, 2.0)], spacing="arc", wrap="circular")),
        ("TrainSolver.solve", solver.solve, dict(head=5.0)),
        ("SwitchSettings.set", settings.copy().set, dict(piece=2, end="start")),
        ("Network", tx.Network, dict(pieces=[straight], relative_gap=1e-9, angle=0.1)),
        ("Network.piece", network.piece, dict(i=0)),
        ("Network.closest_point", network.closest_point, dict(query=(1, 2, 3))),
        ("Route", tx.Route, dict(network=network, steps=[(0, "forward")])),
        ("Route.follow", tx.Route.follow,
         dict(network=network, settings=settings, start=(0, "forward"), min_length=5.0)),
        ("Route.distances_at", route.distances_at, dict(piece=0, distance=1.0)),
        ("Route.around", route.around,
         dict(head=5.0, train_length=2.0, settings=settings, ahead=1.0, behind=1.0)),
        ("TimeProfile.constant", tx.TimeProfile.constant, dict(duration=2.0)),
        ("TimeProfile.sine", tx.TimeProfile.sine, dict(duration=2.0)),
        ("TimeProfile.sine_pieces", tx.TimeProfile.sine_pieces,
         dict(duration=2.0, ease_in_end=0.3, ease_out_start=0.7)),
        ("TimeProfile.parabolic", tx.TimeProfile.parabolic,
         dict(duration=2.0, ease_in_end=0.3, ease_out_start=0.7)),
        ("TimeProfile.trapezoidal", tx.TimeProfile.trapezoidal,
         dict(distance=10.0, max_speed=2.0, max_acceleration=1.0)),
        ("TimeProfile.s_curve", tx.TimeProfile.s_curve,
         dict(distance=10.0, max_speed=2.0, max_acceleration=1.0, max_jerk=1.0)),
        ("TimeProfile.keyed", tx.TimeProfile.keyed, dict(times=[0.0, 1.0], values=[0.0, 1.0])),
        ("TimeProfile.time_at", profile.time_at, dict(value=0.5)),
        ("TimeProfile.at", profile.at, dict(t=0.5)),
        ("SpeedLimits.line", tx.SpeedLimits.line, dict(length=10.0, max_velocity=2.0)),
        ("SpeedLimits.from_curvature", tx.SpeedLimits.from_curvature,
         dict(line=track, max_velocity=5.0, lateral_acceleration=1.0, section_length=1.0,
              samples=4)),
        ("SpeedLimits.with_zones", limits.with_zones, dict(zones=[(1.0, 2.0, 1.0)])),
        ("SpeedLimits.for_train", limits.for_train, dict(train_length=2.0)),
        ("SpeedLimits.at", limits.at, dict(s=1.0)),
        ("SpeedPlan", tx.SpeedPlan,
         dict(limits=limits, max_velocity=5.0, max_acceleration=1.0, max_deceleration=1.0,
              max_jerk=2.0, start=0.0, end=30.0, stations=[(10.0, 1.0)], hold=0.0)),
        ("SpeedPlan.at", plan.at, dict(t=1.0)),
        ("SpeedPlan.time_at", plan.time_at, dict(position=1.0)),
        ("SpeedPlan.dwell_left", plan.dwell_left, dict(t=1.0)),
        ("SpeedPlan.state_at", plan.state_at, dict(t=1.0)),
        ("CameraRig", tx.CameraRig,
         dict(positions=square, profile=profile, view_directions=[(1, 0, 0)] * 4,
              tangents="catmull_rom", tension=0.1, bias=0.0, continuity=0.0,
              samples_per_segment=8)),
        ("CameraRig.with_world_up", rig.with_world_up, dict(up=(0, 0, 1))),
        ("CameraRig.with_rotation_minimizing_up", rig.with_rotation_minimizing_up,
         dict(initial_up=(0, 0, 1))),
        ("CameraRig.look_at_point", rig.look_at_point, dict(target=(0, 0, 1))),
        ("CameraRig.look_at_path", rig.look_at_path, dict(target=measured)),
        ("CameraRig.at", rig.at, dict(t=1.0)),
        ("PoseReader", tx.PoseReader,
         dict(cone=(0.2, 1.0), falloff="smoothstep", target_axis="y", elliptical_y=(0.2, 1.0),
              twist=(0.1, 0.5))),
        ("PoseReader.weight", tx.PoseReader().weight, dict(reader=np.eye(3), target=np.eye(3))),
        ("StretchChain", tx.StretchChain,
         dict(rest_lengths=[1.0, 2.0], split="proportional", max_stretch=2.0, stretch_start=0.9,
              soft=0.1)),
        ("StretchChain.lengths", chain.lengths, dict(distance=1.5, scale=1.0)),
        ("StretchChain.two_bone", chain.two_bone,
         dict(root=(0, 0, 0), goal=(1, 1, 0), pole=(0, 0, 1), scale=1.0)),
    ]


# Where a message names the thing rather than the parameter.
_NAMED_AS = {("Network", "pieces"): "network", ("Network.piece", "i"): "piece",
             ("Route", "steps"): "route", ("SwitchSettings.set", "piece"): "leg",
             ("SwitchSettings.set", "end"): "leg"}


def test_every_argument_is_refused_by_its_own_name():
    """Each argument of each public call, given something of no use ({}), is refused with a
    message that starts with the argument's name (booleans read any value's truth, and joints
    may be empty: those take {}). The arguments the call is given otherwise must work."""
    for label, call, arguments in _argument_calls():
        call(**arguments)
        for name in arguments:
            wrong = dict(arguments, **{name: {}})
            with pytest.raises((TypeError, ValueError)) as refused:
                call(**wrong)
            named = _NAMED_AS.get((label, name), name)
            assert str(refused.value).startswith(named + ":"), (label, name, str(refused.value))


def test_path_evaluate_is_the_hermite_closed_form_in_any_shape():
    """Catmull-Rom through a square: the key tangents are half the neighbours' difference, so
    halfway along segment 0 the point is (P0 + P1)/2 + (m0 - m1)/8 and the derivative
    1.5 (P1 - P0) - (m0 + m1)/4; every array shape of t comes back with a trailing 3."""
    square = np.array([(0, 0, 0), (10, 0, 0), (10, 10, 0), (0, 10, 0)], dtype=np.float64)
    path = tx.Path.catmull_rom(square, closed=True)
    m0, m1 = (square[1] - square[3]) / 2, (square[2] - square[0]) / 2
    point = (square[0] + square[1]) / 2 + (m0 - m1) / 8
    derivative = 1.5 * (square[1] - square[0]) - (m0 + m1) / 4
    t = np.array([[0.5], [1.0], [3.5]])
    points, tangents = path.evaluate(t)
    assert points.shape == (3, 1, 3) and tangents.shape == (3, 1, 3)
    np.testing.assert_allclose(points[0, 0], point, atol=1e-12)
    np.testing.assert_allclose(tangents[0, 0], derivative, atol=1e-12)
    np.testing.assert_allclose(points[1, 0], square[1], atol=1e-12)
    np.testing.assert_allclose(tangents[1, 0], m1, atol=1e-12)
    # Segment 3 closes the loop from P3 back to P0, the same shape turned three quarters.
    np.testing.assert_allclose(points[2, 0], [-1.25, 5, 0], atol=1e-12)
    single_point, single_tangent = path.evaluate(0.5)
    assert single_point.shape == (3,) and single_tangent.shape == (3,)
    np.testing.assert_allclose(single_point, point, atol=1e-12)


def _arrays(answer):
    """An answer's arrays in a fixed order: tuples, arrays, or objects with __slots__."""
    if isinstance(answer, np.ndarray):
        return [answer]
    if isinstance(answer, tuple):
        return [np.asarray(a) for a in answer]
    return [np.asarray(getattr(answer, name)) for name in type(answer).__slots__]


def test_every_query_keeps_the_shape_of_its_input_grid():
    """A (2, 2) grid of inputs gives (2, 2, ...) answers equal, entry by entry, to four single
    calls: the package reshapes every output of every vectorized query."""
    square = [(0, 0, 0), (10, 0, 0), (10, 10, 0), (0, 10, 0)]
    measured = tx.MeasuredPath(tx.Path.catmull_rom(square, closed=True))
    track = tx.Track(measured)
    network = tx.Network([tx.Track(tx.MeasuredPath(tx.Path.catmull_rom(
        [(0, 0, 0), (5, 1, 0), (10, 0, 0)])))])
    profile = tx.TimeProfile.sine(4.0)
    limits = tx.SpeedLimits.line(40.0, 5.0)
    plan = tx.SpeedPlan(limits, 5.0, 1.0, 1.0, 2.0, stations=[(20.0, 3.0)])
    rig = tx.CameraRig(square, profile, closed=True)
    chain = tx.StretchChain([1.0, 2.0], max_stretch=1.5)
    grid = np.array([[0.5, 3.0], [7.25, 12.0]])
    points = np.array([[[1, 2, 3], [9, -1, 0]], [[4, 12, 1], [-3, 5, 2]]], dtype=np.float64)
    queries = [
        (measured.path.evaluate, grid / 4), (measured.sample, grid),
        (measured.point_at, grid), (measured.tangent_at, grid), (measured.parameter_at, grid),
        (measured.distance_at, grid / 4), (measured.curvature_at, grid),
        (measured.closest_point, points), (track.frame_at, grid),
        (network.closest_point, points), (profile.at, grid / 4), (profile.time_at, grid / 12),
        (limits.at, grid), (plan.at, grid), (plan.time_at, grid), (plan.dwell_left, grid * 2),
        (rig.at, grid / 4), (chain.lengths, grid / 3),
        (lambda goal: chain.two_bone((0, 0, 0), goal, (0, 0, 1)), points / 4),
    ]
    for query, inputs in queries:
        together = _arrays(query(inputs))
        for i in range(2):
            for j in range(2):
                alone = _arrays(query(inputs[i, j]))
                assert len(alone) == len(together)
                for a, b in zip(together, alone):
                    assert a.shape == (2, 2) + b.shape, (query, a.shape, b.shape)
                    np.testing.assert_array_equal(a[i, j], b)


def test_pose_reader_broadcasts_both_ways_and_refuses_what_does_not():
    """Readers (2, 1) against targets (3,) give (2, 3) weights, each the single weight; shapes
    that do not broadcast are refused naming both."""
    reader = tx.PoseReader(cone=(0.1, 1.2))
    turn = [np.array([[np.cos(a), 0, np.sin(a)], [0, 1, 0], [-np.sin(a), 0, np.cos(a)]])
            for a in (0.0, 0.4, 0.8)]
    readers = np.stack([turn[0], turn[1]])[:, None]  # (2, 1, 3, 3)
    targets = np.stack(turn)                          # (3, 3, 3)
    weights = reader.weight(readers, targets)
    assert weights.shape == (2, 3)
    for i in range(2):
        for j in range(3):
            assert weights[i, j] == reader.weight(turn[i], turn[j])
    assert weights[0, 0] == 1.0 and 0.0 < weights[0, 1] < 1.0
    # a target that broadcasts against one reader row: (3,) targets for a (3,) reader stack
    np.testing.assert_array_equal(reader.weight(targets, turn[0]), weights[0][[0, 1, 2]])
    with pytest.raises(ValueError, match=r"^reader, target: shapes \(2,\) and \(3,\) do not"):
        reader.weight(np.stack(turn[:2]), targets)


def test_integer_arguments_are_checked_at_their_type_limits():
    """The package refuses integers its C++ types cannot hold by name, before conversion; inside
    them the library's own range message speaks."""
    path = tx.Path.catmull_rom(KEYS)
    for too_far in (-(2**31) - 1, 2**31):
        with pytest.raises(ValueError, match=rf"^samples_per_segment: {too_far} not in "
                                             r"\[-2147483648, 2147483647\]"):
            tx.MeasuredPath(path, samples_per_segment=too_far)
        with pytest.raises(ValueError, match=rf"^samples_per_segment: {too_far} not in"):
            tx.CameraRig(KEYS, tx.TimeProfile.constant(1.0), samples_per_segment=too_far)
    for edge in (-(2**31), 2**31 - 1):
        with pytest.raises(ValueError, match=rf"^samples_per_segment: {edge} not in \[1, "):
            tx.MeasuredPath(path, samples_per_segment=edge)
        with pytest.raises(ValueError, match=rf"samples_per_segment: {edge} not in \[1, "):
            tx.CameraRig(KEYS, tx.TimeProfile.constant(1.0), samples_per_segment=edge)
    network = tx.Network([tx.Track(tx.MeasuredPath(tx.Path.catmull_rom([(0, 0, 0), (5, 0, 0)]))),
                          tx.Track(tx.MeasuredPath(tx.Path.catmull_rom([(5, 0, 0), (12, 0, 0)])))])
    assert network.piece(0).length == pytest.approx(5.0)
    assert network.piece(1).length == pytest.approx(7.0)
    for wrong in (-1, 2):
        with pytest.raises(IndexError, match=rf"^piece {wrong}: the network has 2 pieces$"):
            network.piece(wrong)
    for wrong in (2**63, -(2**63) - 1):
        with pytest.raises(ValueError, match=rf"^piece: {wrong} not in \[-9223372036854775808, "
                                             r"9223372036854775807\]$"):
            network.piece(wrong)
    # Steps name pieces by the same 64-bit index: the largest reaches the network, which has no
    # such piece; one more is refused before it.
    with pytest.raises(ValueError, match=r"^steps\[0\]: "):
        tx.Route(network, [(2**63, "forward")])
    with pytest.raises(ValueError, match=r"9223372036854775807") as refused:
        tx.Route(network, [(2**63 - 1, "forward")])
    assert not str(refused.value).startswith("steps[0]: ")


def test_type_errors_name_the_type_given():
    """A wrong type is reported with the type's name, for every argument that takes an object."""
    measured = tx.MeasuredPath(tx.Path.catmull_rom(KEYS))
    network = tx.Network([tx.Track(measured)])
    route = tx.Route(network, [(0, "forward")])
    for call in (lambda: tx.MeasuredPath([1, 2]), lambda: tx.Track(measured, rail=[1]),
                 lambda: tx.TrainSolver([1], [(1.0, 0.5, 0.5)]),
                 lambda: tx.Route([1], [(0, "forward")]),
                 lambda: tx.Route.follow([1], None, (0, "forward")),
                 lambda: tx.SpeedLimits.from_curvature([1], 1.0, 1.0, 1.0),
                 lambda: tx.SpeedPlan([1], 1.0, 1.0, 1.0, 1.0),
                 lambda: tx.CameraRig(KEYS, [1]),
                 lambda: tx.CameraRig(KEYS, tx.TimeProfile.constant(1.0)).look_at_path([1]),
                 lambda: tx.Network([[1]]),
                 lambda: tx.Route.follow(network, [1], (0, "forward")),
                 lambda: route.around(1.0, 1.0, [1], 1.0, 1.0)):
        with pytest.raises(TypeError, match=r"got list$"):
            call()


def test_speed_limits_on_a_route_and_the_default_sampling(track):
    """from_curvature reads a Route as it reads a Track: on a one-piece network the route's
    limits are the piece's; on a straight route they are the line limit all along; samples=8 is
    the default."""
    piece = tx.Track(tx.MeasuredPath(tx.Path.catmull_rom([(0, 0, 0), (30, 0, 5), (60, 20, 0)])))
    route = tx.Route(tx.Network([piece]), [(0, "forward")])
    s = np.linspace(0, piece.length, 41)
    on_track = tx.SpeedLimits.from_curvature(piece, 20.0, 1.0, 5.0)
    on_route = tx.SpeedLimits.from_curvature(route, 20.0, 1.0, 5.0)
    assert on_route.length == on_track.length == pytest.approx(piece.length, rel=1e-15)
    np.testing.assert_array_equal(on_route.at(s), on_track.at(s))
    assert on_track.at(s).min() < 20.0
    straight = tx.Route(tx.Network([
        tx.Track(tx.MeasuredPath(tx.Path.catmull_rom([(0, 0, 0), (5, 0, 0)]))),
        tx.Track(tx.MeasuredPath(tx.Path.catmull_rom([(5, 0, 0), (12, 0, 0)])))]),
        [(0, "forward"), (1, "forward")])
    flat = tx.SpeedLimits.from_curvature(straight, 20.0, 1.0, 5.0)
    assert flat.length == pytest.approx(12.0, rel=1e-15)
    np.testing.assert_array_equal(flat.at(np.linspace(0, 12, 13)), 20.0)
    curvy = tx.SpeedLimits.from_curvature(track, 30.0, 1.0, 7.0)
    eight = tx.SpeedLimits.from_curvature(track, 30.0, 1.0, 7.0, samples=8)
    nine = tx.SpeedLimits.from_curvature(track, 30.0, 1.0, 7.0, samples=9)
    everywhere = np.linspace(0, track.length, 500)
    np.testing.assert_array_equal(curvy.at(everywhere), eight.at(everywhere))
    assert np.any(curvy.at(everywhere) != nine.at(everywhere))


def test_circular_is_what_automatic_chooses_on_a_closed_track(track):
    """wrap='circular' names what 'automatic' does on a closed track: the same poses, past the
    seam too."""
    heads = np.linspace(-track.length, 2 * track.length, 9)
    chosen = tx.TrainSolver(track, [(18, 12)] * 3, wrap="automatic").solve(heads)
    named = tx.TrainSolver(track, [(18, 12)] * 3, wrap="circular").solve(heads)
    for part in ("body_position", "body_quaternion", "lap"):
        np.testing.assert_array_equal(getattr(named, part), getattr(chosen, part))


def test_messages_name_the_parts_of_compound_arguments():
    """Rows, pairs and sub-values are named in full: which column a row lacks, which half of a
    cone, which of a roll's key lists; conflicting choices are named together."""
    measured = tx.MeasuredPath(tx.Path.catmull_rom(KEYS))
    limits = tx.SpeedLimits.line(100.0, 5.0)
    with pytest.raises(ValueError, match=r"^zones: .*start, end, limit"):
        limits.with_zones([(1.0, 2.0)])
    with pytest.raises(ValueError, match=r"^stations: .*position, dwell"):
        tx.SpeedPlan(limits, 5.0, 1.0, 1.0, 2.0, stations=[(1.0, 2.0, 3.0, 4.0)])
    with pytest.raises(TypeError, match=r"^cone inner: expected a number, got dict$"):
        tx.PoseReader(cone=({}, 1.0))
    with pytest.raises(TypeError, match=r"^cone outer: expected a number, got dict$"):
        tx.PoseReader(cone=(0.1, {}))
    with pytest.raises(TypeError, match=r"^elliptical_y outer: expected a number, got dict$"):
        tx.PoseReader(elliptical_y=(0.1, {}))
    with pytest.raises(ValueError, match=r"^roll angles: "):
        tx.Track(measured, roll=([0.0, 1.0], [[0.0], [1.0]]))
    with pytest.raises(ValueError, match=r"^roll distances: "):
        tx.Track(measured, roll=([[0.0], [1.0]], [0.0, 1.0]))
    with pytest.raises(ValueError, match=r"^up: give a rail or rotation_minimizing, not both$"):
        tx.Track(measured, rail=measured, rotation_minimizing=True)
    with pytest.raises(ValueError,
                       match=r"^up: expected 3 numbers \(x, y, z\), got shape \(2,\)$"):
        tx.Track(measured, up=(0.0, 1.0))
    with pytest.raises(ValueError, match=r"^view_directions: 3 for 4 positions$"):
        tx.CameraRig(KEYS, tx.TimeProfile.constant(1.0), view_directions=KEYS[:3])
    with pytest.raises(TypeError, match=r"^roll: expected \(distances, angles\), got int$"):
        tx.Track(measured, roll=3)


def test_flags_reach_the_library():
    """closed, squash and the like change what is built: each one checked against what it
    means (a closed path has a segment per key, a squashing chain shortens when pushed)."""
    assert tx.Path.hermite(KEYS, KEYS, closed=True).segment_count == 4
    assert tx.Path.hermite(KEYS, KEYS).segment_count == 3
    rig = tx.CameraRig(KEYS, tx.TimeProfile.constant(1.0), closed=True)
    assert rig.path.closed and rig.path.path.segment_count == 4
    chain = tx.StretchChain([1.0, 1.0], squash=True)
    np.testing.assert_allclose(chain.lengths(1.0), [0.5, 0.5], rtol=1e-15)
    np.testing.assert_allclose(tx.StretchChain([1.0, 1.0]).lengths(1.0), [1.0, 1.0], rtol=1e-15)
    line = [tx.Track(tx.MeasuredPath(tx.Path.catmull_rom(p))) for p in
            ([(0, 0, 0), (10, 0, 0)], [(10, 0, 0), (10, 10, 0)], [(10, 10, 0), (0, 0, 0)])]
    loop = tx.Network(line, relative_gap=0.0, angle=3.0)
    closed = tx.Route(loop, [(0, "forward"), (1, "forward"), (2, "forward")], closed=True)
    assert closed.closed and not tx.Route(loop, [(0, "forward")]).closed
    assert closed.network.piece_count == 3 and closed.network.joint_count == 3
    # Joints given by hand: the same network as found.
    joined = tx.Network(line, joints=[[(0, "end"), (1, "start")], [(1, "end"), (2, "start")],
                                      [(2, "end"), (0, "start")]], angle=3.0)
    assert joined.joint_count == loop.joint_count == 3
    assert joined.piece(1).length == pytest.approx(10.0)
    solver = tx.TrainSolver(closed, [(4.0, 1.0)])
    assert solver.track is closed


def test_messages_in_full(track):
    """The whole message of each refusal the package words itself (not the library): what a
    user reads to fix the call."""
    limits = tx.SpeedLimits.line(10.0, 1.0)
    line = tx.Network([tx.Track(tx.MeasuredPath(tx.Path.catmull_rom([(0, 0, 0), (1, 0, 0)])))])
    cases = [
        (lambda: tx.TrainSolver(track, [(1.0,)]),
         "wagons: expected (N, 2) rows of length, bogie_distance or (N, 3) with front_overhang, "
         "got shape (1, 1)"),
        (lambda: tx.TrainSolver(track, [(18, 12)]).solve(1.0, parts=("nope",)),
         "parts: 'nope' is not one of " + ", ".join(tx.TRAIN_PARTS)),
        (lambda: limits.with_zones([(1, 2)]),
         "zones: expected (N, 3) rows of start, end, limit, got shape (1, 2)"),
        (lambda: tx.SpeedPlan(limits, 1, 1, 1, 1, stations=[(1, 2, 3, 4)]),
         "stations: expected (N, 2) or (N, 3) rows of position, dwell[, arrival], got shape "
         "(1, 4)"),
        (lambda: tx.SpeedPlan(limits, 1, 1, 1, 1, start=(1, 2)),
         "start: expected a position or (position, velocity, acceleration), got shape (2,)"),
        (lambda: tx.Route.follow(line, line.default_settings(), (0,)),
         "start: expected (piece, 'forward' or 'backward'), got (0,)"),
        (lambda: tx.Path.catmull_rom(np.zeros((2, 3), np.longdouble)),
         f"points: expected float64 or narrower numbers, got dtype {np.dtype(np.longdouble)} "
         "(convert with .astype(np.float64) if the precision loss is fine)"),
        (lambda: tx.Path.catmull_rom(np.zeros((2, 3), complex)),
         "points: expected real numbers (floats or integers), got dtype complex128"),
        (lambda: tx.SpeedLimits.line(10**400, 1), "length: a number beyond float64"),
        (lambda: tx.Path.bezier(np.zeros((1, 5, 3))),
         "controls: expected (N, 4, 3) control points, got shape (1, 5, 3)"),
        (lambda: tx.StretchChain([1, 1]).two_bone(np.zeros((2, 3)), np.zeros((3, 3)), (0, 0, 1)),
         "root, goal, pole: shapes (2, 3), (3, 3), (3,) do not broadcast"),
        (lambda: tx.CameraRig(KEYS, tx.TimeProfile.constant(1.0), view_directions=KEYS[:2]),
         "view_directions: 2 for 4 positions"),
    ]
    for call, message in cases:
        with pytest.raises((TypeError, ValueError)) as refused:
            call()
        assert str(refused.value) == message


def test_earlier_poses_of_the_wrong_kind_are_named_with_what_they_are(track):
    """solve(out=...) checks each wanted part of the poses it is given: a missing one, one of
    another type, one of the wrong dtype are each reported with what was found."""
    solver = tx.TrainSolver(track, [(18, 12)] * 2)
    poses = solver.solve(np.zeros(3), parts=("lap", "body_position"))
    poses.lap = [0, 0, 0]
    with pytest.raises(ValueError, match=r"^out: lap must be a writeable C-contiguous int64 array "
                                         r"of shape \(3, 2\), got list$"):
        solver.solve(np.zeros(3), parts=("lap",), out=poses)
    poses.lap = np.zeros((3, 2))
    with pytest.raises(ValueError, match=r"^out: lap must be a writeable C-contiguous int64 array "
                                         r"of shape \(3, 2\), got float64 \(3, 2\)$"):
        solver.solve(np.zeros(3), parts=("lap",), out=poses)
    with pytest.raises(ValueError, match=r"^out: status must be a writeable C-contiguous int8 "
                                         r"array of shape \(3, 2\), got NoneType$"):
        solver.solve(np.zeros(3), parts=("status",), out=poses)


def test_reprs_say_what_was_built():
    path = tx.Path.catmull_rom(KEYS)
    loop = tx.MeasuredPath(tx.Path.catmull_rom(KEYS, closed=True))
    assert repr(path) == "Path(3 segments, open)"
    assert repr(tx.Path.catmull_rom(KEYS, closed=True)) == "Path(4 segments, closed)"
    assert repr(loop) == f"MeasuredPath(length={loop.length:.6g}, closed, 4 segments)"
    assert repr(tx.MeasuredPath(path)).endswith(", open, 3 segments)")
    assert repr(tx.Track(loop)) == f"Track(length={loop.length:.6g}, closed)"
    assert repr(tx.Track(tx.MeasuredPath(path))).endswith(", open)")


def test_what_a_blender_script_got_wrong_is_refused_by_its_real_fault(track):
    """Each call here was accepted or misreported in 0.2 (tried from a Blender script)."""
    for flag in ("no", 2, None, 1.0):
        with pytest.raises(TypeError, match=r"closed: expected True or False, got "):
            tx.Path.catmull_rom(KEYS, closed=flag)
    assert tx.Path.catmull_rom(KEYS, closed=np.bool_(True)).closed
    with pytest.raises(TypeError, match="rotation_minimizing: expected True or False, got 'yes'"):
        tx.Track(track.path, rotation_minimizing="yes")
    train = tx.TrainSolver(track, [(18, 12), (14, 9)])
    with pytest.raises(TypeError, match=r"parts: expected a sequence of names, got the string "
                                        r"'front_position' \(write \('front_position',\)"):
        train.solve(1.0, parts="front_position")
    with pytest.raises(TypeError, match="parts: expected a sequence of names, got int"):
        train.solve(1.0, parts=3)
    with pytest.raises(ValueError, match="parts: 3 is not one of front_position"):
        train.solve(1.0, parts=[3])
    with pytest.raises(ValueError, match=r"^wagon 0: length -10 is not positive$"):
        tx.TrainSolver(track, [(-10, 5)])
    with pytest.raises(TypeError, match=r"^head: expected numbers, got None$"):
        train.solve(None)
    with pytest.raises(TypeError, match=r"^spacing: 1 is not one of 'chord', 'arc'$"):
        tx.TrainSolver(track, [(18, 12)], spacing=1)
    poses = train.solve(np.zeros(5), parts=("body_position", "status"))
    assert repr(poses).startswith("TrainPoses(front_position=None, ")
    assert "body_position=float64[5, 2, 3]" in repr(poses)
    assert "status=int8[5, 2]" in repr(poses)
    assert repr(track.frame_at([1.0, 2.0])) == (
        "Frames(position=float64[2, 3], rotation=float64[2, 3, 3], quaternion=float64[2, 4])")
    assert repr(track.path.closest_point((0, 0, 0))) == (
        "ClosestPoints(distance=float64[], point=float64[3], gap=float64[])")
