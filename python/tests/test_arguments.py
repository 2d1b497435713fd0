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
    (KEYS.astype(np.complex128), TypeError, "points: expected float32 or float64 numbers, got dtype complex128"),
    (KEYS.astype(bool), TypeError, "got dtype bool"),
    (KEYS.astype(str), TypeError, "got dtype <U"),
    (KEYS.astype(np.longdouble), TypeError, "convert with .astype(np.float64)"),
    ([[0, 0, 0], [1, 1]], ValueError, "points: not an array of numbers"),
    (KEYS[:, :2], ValueError, "points: expected an (N, 3) array of points, got shape (4, 2)"),
    (KEYS.reshape(-1), ValueError, "got shape (12,)"),
    (None, TypeError, "got dtype object"),
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
    with pytest.raises(TypeError, match="head: expected float32 or float64 numbers"):
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
    with pytest.raises(ValueError, match=r"stations: expected \(N, 2\) rows"):
        tx.SpeedPlan(limits, 20, 1, 1, 0.5, stations=np.zeros((0, 9)))
    with pytest.raises(ValueError, match=r"stations: expected \(N, 2\) rows"):
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
