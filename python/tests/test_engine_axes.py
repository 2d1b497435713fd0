"""Engine axes and quaternion keys: the poses a DCC or an engine takes (Blender, Maya, Unity,
Unreal, Godot), checked against matrices built here from the axis maps and against a plain loop
for continuity."""

import numpy as np
import pytest

import tractrix as tx

OVAL = np.array([(0, 0, 0), (60, 0, -20), (120, 0, 0), (120, 0, 40), (60, 0, 60), (0, 0, 40)],
                dtype=float)
PRESETS = ("tractrix", "maya", "blender", "unity", "unreal", "godot")
CUSTOM = [((2, 3, 1), (3, 1, 2)), ((-1, -2, -3), (1, 2, -3)), ((3, -1, 2), (-2, -3, -1))]


def signed_permutation(axes):
    """The matrix sending axis i to ±axes[i] (built from the map, not by the library)."""
    m = np.zeros((3, 3))
    for i, a in enumerate(axes):
        m[abs(a) - 1, i] = np.sign(a)
    return m


def matrix_of(q):
    """Rotation matrices of (x, y, z, w) unit quaternions, the textbook formula."""
    x, y, z, w = np.moveaxis(q, -1, 0)
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
        np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
        np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1)], -2)


@pytest.fixture(scope="module")
def oval():
    return tx.Track(tx.MeasuredPath(tx.Path.catmull_rom(OVAL, closed=True)))


def all_axes():
    return [getattr(tx.EngineAxes, name)() for name in PRESETS] + [
        tx.EngineAxes(world, local) for world, local in CUSTOM]


@pytest.mark.parametrize("axes", all_axes(), ids=repr)
def test_poses_in_engine_axes_are_the_maps_applied_to_tractrix_poses(oval, axes):
    frames = oval.frame_at(np.linspace(0, oval.length, 97))
    w, lo = signed_permutation(axes.world), signed_permutation(axes.local)
    if np.linalg.det(w) < 0:
        assert np.linalg.det(lo) < 0  # the library's check: one handedness
    np.testing.assert_array_equal(axes.point(frames.position), frames.position @ w.T)
    np.testing.assert_array_equal(axes.to_tractrix(axes.point(frames.position)), frames.position)
    rotation = axes.rotation(frames.rotation)
    np.testing.assert_array_equal(rotation, w @ frames.rotation @ lo.T)
    np.testing.assert_allclose(np.linalg.det(rotation), 1.0, atol=1e-14)
    q = axes.quaternion(frames.quaternion)
    if axes.quaternion_order == "wxyz":
        q = q[..., [1, 2, 3, 0]]
    assert (q[..., 3] >= 0).all()
    np.testing.assert_allclose(matrix_of(q), rotation, atol=2e-15)


def test_blender_objects_face_minus_y_with_z_up_and_keys_w_first(oval):
    axes = tx.EngineAxes.blender()
    frames = oval.frame_at(np.linspace(0, oval.length, 50))
    r = axes.rotation(frames.rotation)
    # Blender's world: tractrix's (x, y, z) is (x, -z, y); an object's -Y is the direction of travel
    # and its +Z the track's up.
    forward = frames.rotation[..., :, 2]
    up = frames.rotation[..., :, 1]
    blender = lambda v: np.stack([v[..., 0], -v[..., 2], v[..., 1]], -1)  # noqa: E731
    np.testing.assert_array_equal(-r[..., :, 1], blender(forward))
    np.testing.assert_array_equal(r[..., :, 2], blender(up))
    np.testing.assert_array_equal(r[..., 2, 2], up[..., 1])  # flat oval: up is Blender's +Z
    q = axes.quaternion(frames.quaternion)
    np.testing.assert_allclose(matrix_of(q[..., [1, 2, 3, 0]]), r, atol=2e-15)


def test_a_train_solved_in_engine_axes(oval):
    axes = tx.EngineAxes.unreal()
    wagons = [(18, 12, 1), (14, 9, 0.5), (14, 9, 0.5)]
    plain = tx.TrainSolver(oval, wagons)
    engine = tx.TrainSolver(oval, wagons, axes=axes)
    assert engine.axes == axes and plain.axes == tx.EngineAxes()
    heads = np.linspace(0, 2 * oval.length, 31)
    a, b = plain.solve(heads), engine.solve(heads)
    w = signed_permutation(axes.world)
    for part in ("front_position", "rear_position", "body_position", "body_midpoint", "coupler"):
        np.testing.assert_array_equal(getattr(b, part), getattr(a, part) @ w.T)
    for part in ("front", "rear", "body"):
        np.testing.assert_array_equal(getattr(b, part + "_rotation"),
                                      axes.rotation(getattr(a, part + "_rotation")))
        np.testing.assert_allclose(matrix_of(getattr(b, part + "_quaternion")),
                                   getattr(b, part + "_rotation"), atol=2e-15)
    for part in ("front_distance", "lap", "status"):
        np.testing.assert_array_equal(getattr(b, part), getattr(a, part))


def flips(q):
    return int((np.einsum("...i,...i->...", q[1:], q[:-1]) < 0).sum())


def test_keys_without_flips_along_frames_and_across_live_frames(oval):
    train = tx.TrainSolver(oval, [(18, 12), (14, 9)], axes=tx.EngineAxes.blender())
    heads = np.linspace(0, 3 * oval.length, 600)
    plain = train.solve(heads, parts=("body_quaternion", "front_quaternion"))
    assert flips(plain.body_quaternion) >= 4  # each lap passes a half turn: w changes sign
    keys = train.solve(heads, parts=("body_quaternion", "front_quaternion"), continuous=True)
    for part in ("body_quaternion", "front_quaternion"):
        q, p = getattr(keys, part), getattr(plain, part)
        assert flips(q) == 0
        np.testing.assert_array_equal(np.abs(q), np.abs(p))  # the same rotations
        # A plain loop, key after key, picks the same signs.
        expected = p.copy()
        for i in range(1, len(expected)):
            expected[i] *= np.where((expected[i] * expected[i - 1]).sum(-1) < 0, -1, 1)[:, None]
        np.testing.assert_array_equal(q, expected)
    # Live: one head a frame, each following the frame before, into the same poses.
    poses = train.solve(heads[0], parts=("body_quaternion",))
    live = [poses.body_quaternion.copy()]
    for head in heads[1:]:
        train.solve(head, parts=("body_quaternion",), out=poses, after=poses)
        live.append(poses.body_quaternion.copy())
    np.testing.assert_array_equal(np.array(live), keys.body_quaternion)
    # A grid of heads (2 takes × 300 frames) after one frame of each take's keys.
    grid = heads.reshape(2, 300)
    first = train.solve(grid[:, 0], parts=("body_quaternion",))
    rest = train.solve(grid[:, 1:].T, parts=("body_quaternion",), after=first)
    together = np.concatenate([first.body_quaternion[None], rest.body_quaternion])
    np.testing.assert_array_equal(together, np.stack([
        train.solve(take, parts=("body_quaternion",), continuous=True).body_quaternion
        for take in grid], axis=1))


def test_quaternion_keys_by_hand():
    q = np.array([[0, 0, 0, 1], [0, 0.6, 0, -0.8], [0, -1, 0, 0], [0, 0.6, 0, 0.8]], float)
    np.testing.assert_array_equal(tx.continuous_quaternions(q), [
        [0, 0, 0, 1], [0, -0.6, 0, 0.8], [0, -1, 0, 0], [0, -0.6, 0, -0.8]])
    np.testing.assert_array_equal(tx.continuous_quaternions(q, after=[0, 0, 0, -1]), -np.array([
        [0, 0, 0, 1], [0, -0.6, 0, 0.8], [0, -1, 0, 0], [0, -0.6, 0, -0.8]]))
    grid = np.stack([q, -q], axis=1)  # (frames, wagons, 4)
    np.testing.assert_array_equal(tx.continuous_quaternions(grid, axis=0)[:, 1],
                                  -tx.continuous_quaternions(q))
    np.testing.assert_array_equal(tx.continuous_quaternions(grid.swapaxes(0, 1), axis=1),
                                  tx.continuous_quaternions(grid).swapaxes(0, 1))


def test_engine_axes_arguments_are_checked(oval):
    with pytest.raises(ValueError, match=r"^world: axis 1 is 1; each of ±1, ±2, ±3"):
        tx.EngineAxes((1, 1, 3))
    with pytest.raises(ValueError, match="world and local maps differ in handedness"):
        tx.EngineAxes((-1, 2, 3), (1, 2, 3))
    with pytest.raises(TypeError, match="world: expected three axis numbers"):
        tx.EngineAxes("xyz")
    with pytest.raises(TypeError, match="local: expected three axis numbers"):
        tx.EngineAxes((1, 2, 3), (1.0, 2, 3))
    with pytest.raises(ValueError, match="quaternion_order: 'zyxw' is not one of"):
        tx.EngineAxes(quaternion_order="zyxw")
    with pytest.raises(TypeError, match="axes: expected a tractrix.EngineAxes, got str"):
        tx.TrainSolver(oval, [(18, 12)], axes="blender")
    train = tx.TrainSolver(oval, [(18, 12)])
    with pytest.raises(TypeError, match="continuous: expected True or False"):
        train.solve([1.0, 2.0], continuous="yes")
    with pytest.raises(TypeError, match="after: expected the TrainPoses of the frame before"):
        train.solve(1.0, after=np.zeros((1, 4)))
    with pytest.raises(ValueError, match=r"after: front_quaternion is \(3, 1, 4\), not the shape"):
        train.solve(1.0, after=train.solve([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="quaternions: expected"):
        tx.continuous_quaternions([0, 0, 0, 1])
    with pytest.raises(ValueError, match="axis: expected an axis"):
        tx.continuous_quaternions(np.zeros((2, 3, 4)), axis=2)
    assert repr(tx.EngineAxes.blender()) == (
        "EngineAxes(world=(1, 3, -2), local=(1, 3, -2), quaternion_order='wxyz')")


def test_each_preset_is_its_engines_convention(oval):
    """Where each engine's world axes and object axes point, written out from the engines'
    documentation: a frame's forward (tractrix column 2), up (1) and right of travel (-side)."""
    frames = oval.frame_at(np.linspace(0, oval.length, 17))
    side, up, forward = (frames.rotation[..., :, k] for k in range(3))
    right = -side

    def world_of(name, v):  # tractrix world (x, y, z) in the engine's world
        x, y, z = v[..., 0], v[..., 1], v[..., 2]
        return {"tractrix": (x, y, z), "maya": (x, y, z), "blender": (x, -z, y),
                "unity": (-x, y, z), "unreal": (x, z, y), "godot": (x, y, z)}[name]

    # The engine object's own axes (column index, sign) holding forward, up and right.
    objects = {"tractrix": {"forward": (2, 1), "up": (1, 1), "right": (0, -1)},
               "maya": {"forward": (2, 1), "up": (1, 1), "right": (0, -1)},
               "blender": {"forward": (1, -1), "up": (2, 1), "right": (0, -1)},
               "unity": {"forward": (2, 1), "up": (1, 1), "right": (0, 1)},
               "unreal": {"forward": (0, 1), "up": (2, 1), "right": (1, 1)},
               "godot": {"forward": (2, -1), "up": (1, 1), "right": (0, 1)}}
    for name in PRESETS:
        axes = getattr(tx.EngineAxes, name)()
        np.testing.assert_array_equal(axes.point(frames.position),
                                      np.stack(world_of(name, frames.position), -1))
        r = axes.rotation(frames.rotation)
        for direction, vector in (("forward", forward), ("up", up), ("right", right)):
            column, sign = objects[name][direction]
            np.testing.assert_array_equal(sign * r[..., :, column],
                                          np.stack(world_of(name, vector), -1), err_msg=name)
    assert [getattr(tx.EngineAxes, n)().quaternion_order for n in PRESETS] == [
        "xyzw", "xyzw", "wxyz", "xyzw", "xyzw", "xyzw"]


def test_every_pair_of_axis_maps_keeps_quaternion_and_rotation_together():
    """All 1152 signed-permutation pairs of one handedness: the quaternion of each pose is the
    rotation's (another construction's answer, not the library's own)."""
    import itertools
    rng = np.random.default_rng(11)
    q = rng.normal(size=(4, 4))
    q /= np.linalg.norm(q, axis=1)[:, None]
    r = matrix_of(q)
    maps = [tuple(s * (p + 1) for s, p in zip(signs, perm))
            for perm in itertools.permutations(range(3))
            for signs in itertools.product((1, -1), repeat=3)]
    handed = {m: np.linalg.det(signed_permutation(m)) for m in maps}
    count = 0
    for world in maps:
        for local in maps:
            if handed[world] != handed[local]:
                continue
            order = ("xyzw", "wxyz")[count % 2]
            axes = tx.EngineAxes(world, local, order)
            keys = axes.quaternion(q)
            keys = keys[..., [1, 2, 3, 0]] if order == "wxyz" else keys
            np.testing.assert_allclose(matrix_of(keys), axes.rotation(r), atol=1e-14)
            count += 1
    assert count == 1152


def test_axes_and_keys_name_their_arguments():
    axes = tx.EngineAxes.blender()
    for method, name in ((axes.point, "points"), (axes.to_tractrix, "points"),
                         (axes.rotation, "rotations"), (axes.quaternion, "quaternions")):
        with pytest.raises(TypeError, match=rf"^{name}: expected numbers, got str$"):
            method("x")
    with pytest.raises(TypeError, match=r"^quaternions: expected numbers, got None$"):
        tx.continuous_quaternions(None)
    with pytest.raises(TypeError, match=r"^after: expected numbers, got str$"):
        tx.continuous_quaternions(np.zeros((2, 4)), after="x")
    with pytest.raises(ValueError, match=r"^after: expected the keys before, of shape \(3, 4\), "
                                         r"got \(2, 4\)$"):
        tx.continuous_quaternions(np.zeros((5, 3, 4)), after=np.zeros((2, 4)))
    for axis in (2, -3, True, 0.0):
        with pytest.raises(ValueError, match=r"^axis: expected an axis of the keys' 2 leading "
                                             rf"dimensions, got {axis!r}$"):
            tx.continuous_quaternions(np.zeros((2, 3, 4)), axis=axis)


def test_keys_along_a_negative_axis():
    rng = np.random.default_rng(5)
    q = rng.normal(size=(6, 5, 4))
    np.testing.assert_array_equal(tx.continuous_quaternions(q, axis=-1),
                                  tx.continuous_quaternions(q, axis=1))
    np.testing.assert_array_equal(tx.continuous_quaternions(q, axis=-2),
                                  tx.continuous_quaternions(q, axis=0))
    along = tx.continuous_quaternions(q, axis=1)
    assert ((along[:, 1:] * along[:, :-1]).sum(-1) >= 0).all()
    assert not ((q[:, 1:] * q[:, :-1]).sum(-1) >= 0).all()
