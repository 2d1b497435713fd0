"""Values against sources independent of the library: closed forms, numpy quadrature and brute
force written here."""

import math
import warnings

import numpy as np
import pytest

import tractrix as tx


def random_bezier_chain(rng, count, closed=False):
    """`count` cubic segments meeting end to start, hand-placed-looking (no cusps)."""
    points = np.cumsum(rng.uniform(-10, 10, size=(3 * count + 1, 3)) + (8, 0, 0), axis=0)
    if closed:
        points[-1] = points[0]
    return np.stack([points[3 * i:3 * i + 4] for i in range(count)])


def bezier_speed(controls, u):
    """|B'(u)| of each segment at parameters u (shape (segments, len(u)))."""
    d0, d1, d2 = (controls[:, 1] - controls[:, 0], controls[:, 2] - controls[:, 1],
                  controls[:, 3] - controls[:, 2])
    u = u[None, :, None]
    derivative = 3 * ((1 - u) ** 2 * d0[:, None] + 2 * u * (1 - u) * d1[:, None] +
                      u ** 2 * d2[:, None])
    return np.linalg.norm(derivative, axis=-1)


def bezier_point(controls, u):
    b = np.stack([(1 - u) ** 3, 3 * u * (1 - u) ** 2, 3 * u ** 2 * (1 - u), u ** 3], axis=-1)
    return np.einsum("...k,skd->s...d", b, controls)


def numpy_arc_length(controls, u_end=1.0, pieces=64, order=32):
    """Composite Gauss–Legendre (numpy's nodes) of each segment's speed from 0 to u_end."""
    nodes, weights = np.polynomial.legendre.leggauss(order)
    edges = np.linspace(0.0, u_end, pieces + 1)
    half = (edges[1:] - edges[:-1]) / 2
    u = ((edges[:-1] + edges[1:]) / 2)[:, None] + half[:, None] * nodes[None, :]
    speed = bezier_speed(controls, u.reshape(-1)).reshape(len(controls), pieces, order)
    return np.einsum("spk,k,p->s", speed, weights, half)


def test_a_straight_catmull_rom_is_a_uniform_line():
    direction = np.array([2.0, 1.0, 2.0]) / 3.0  # unit
    keys = [k * 3 * direction for k in range(6)]
    line = tx.MeasuredPath(tx.Path.catmull_rom(keys))
    assert line.length == pytest.approx(15.0, rel=1e-14)
    s = np.linspace(0, 15, 31)
    np.testing.assert_allclose(line.point_at(s), s[:, None] * direction, atol=1e-13)
    np.testing.assert_allclose(line.tangent_at(s), np.broadcast_to(direction, (31, 3)),
                               atol=1e-14)
    np.testing.assert_allclose(line.parameter_at(s), s / 3, atol=1e-14)
    np.testing.assert_allclose(line.curvature_at(s), 0, atol=1e-12)
    # Open paths clamp distances; closed ones wrap them.
    np.testing.assert_allclose(line.point_at([-5, 20]), [[0, 0, 0], 15 * direction], atol=1e-13)


@pytest.mark.parametrize("seed", range(4))
def test_exact_length_and_inverse_against_numpy_quadrature(seed):
    rng = np.random.default_rng(seed)
    controls = random_bezier_chain(rng, 6)
    for samples in (1, 3, 16):
        path = tx.MeasuredPath(tx.Path.bezier(controls), samples_per_segment=samples)
        lengths = numpy_arc_length(controls)
        total = lengths.sum()
        assert abs(path.length - total) <= 1e-12 * total
        # distance_at(t) and parameter_at(s) at random parameters, each against the quadrature.
        t = np.sort(rng.uniform(0, 6, 40))
        segment, u = np.minimum(t.astype(int), 5), t - np.minimum(t.astype(int), 5)
        expected = np.array([lengths[:k].sum() + numpy_arc_length(controls[k:k + 1], uk)[0]
                             for k, uk in zip(segment, u)])
        np.testing.assert_allclose(path.distance_at(t), expected, rtol=0, atol=1e-12 * total)
        speed = bezier_speed(controls[segment], u)[np.arange(40), np.arange(40)]
        error_in_distance = np.abs(path.parameter_at(expected) - t) * speed
        assert error_in_distance.max() <= 1e-11 * total


def test_closest_point_against_brute_force():
    rng = np.random.default_rng(7)
    controls = random_bezier_chain(rng, 5)
    path = tx.MeasuredPath(tx.Path.bezier(controls))
    queries = rng.uniform(-20, 60, size=(30, 3)) + (40, 0, 0)
    u = np.linspace(0, 1, 20001)
    dense = bezier_point(controls, u).reshape(-1, 3)
    brute = np.sqrt(((queries[:, None, :] - dense[None]) ** 2).sum(-1)).min(axis=1)
    closest = path.closest_point(queries)
    # The exact minimum is below the sampled one, by at most the sampling's curvature error.
    assert np.all(closest.gap <= brute + 1e-12 * path.length)
    np.testing.assert_allclose(closest.gap, brute, rtol=0, atol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(closest.point - queries, axis=1), closest.gap,
                               rtol=1e-13)
    np.testing.assert_allclose(path.point_at(closest.distance), closest.point, atol=1e-9)


def quaternion_matrix(q):
    x, y, z, w = np.moveaxis(q, -1, 0)
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
        np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
        np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1),
    ], -2)


def bezier_derivative(controls, t):
    """dB/dt of a chain of cubic segments at path parameters t (numpy, not the library)."""
    segment = np.minimum(t.astype(int), len(controls) - 1)
    u = (t - segment)[:, None]
    c = controls[segment]
    return 3 * ((1 - u) ** 2 * (c[:, 1] - c[:, 0]) + 2 * u * (1 - u) * (c[:, 2] - c[:, 1]) +
                u ** 2 * (c[:, 3] - c[:, 2]))


def chain_point(controls, t):
    segment = np.minimum(t.astype(int), len(controls) - 1)
    u = t - segment
    b = np.stack([(1 - u) ** 3, 3 * u * (1 - u) ** 2, 3 * u ** 2 * (1 - u), u ** 3], axis=-1)
    return np.einsum("nk,nkd->nd", b, controls[segment])


def test_frames_are_orthonormal_face_along_the_curve_and_match_their_quaternions():
    rng = np.random.default_rng(3)
    controls = random_bezier_chain(rng, 8, closed=True)
    path = tx.MeasuredPath(tx.Path.bezier(controls, closed=True))
    # Not at the seam, where the hand-placed loop has a corner.
    s = np.linspace(0, path.length, 500, endpoint=False)[1:]
    for track in (tx.Track(path), tx.Track(path, up=(0, 0, 1)),
                  tx.Track(path, rotation_minimizing=True),
                  tx.Track(path, roll=([0, path.length / 2], [0, 1.0]))):
        frames = track.frame_at(s)
        r = frames.rotation
        np.testing.assert_allclose(np.einsum("nji,njk->nik", r, r), np.broadcast_to(np.eye(3), r.shape),
                                   atol=1e-13)
        np.testing.assert_allclose(np.linalg.det(r), 1, atol=1e-13)
        # Position and forward against numpy's own Bézier evaluation at the frame's parameter
        # (the parameter is checked against quadrature in the arc-length test above).
        t = path.parameter_at(s)
        np.testing.assert_allclose(frames.position, chain_point(controls, t), atol=1e-12)
        derivative = bezier_derivative(controls, t)
        forward = derivative / np.linalg.norm(derivative, axis=1, keepdims=True)
        np.testing.assert_allclose(r[:, :, 2], forward, atol=1e-13)
        np.testing.assert_allclose(quaternion_matrix(frames.quaternion), r, atol=1e-14)
        assert np.all(frames.quaternion[:, 3] >= 0)
    # World up: the side axis is level (perpendicular to up).
    side = tx.Track(path, up=(0, 0, 1)).frame_at(s).rotation[:, :, 0]
    np.testing.assert_allclose(side[:, 2], 0, atol=1e-14)


def test_chord_train_geometry():
    rng = np.random.default_rng(11)
    controls = random_bezier_chain(rng, 12, closed=True)
    path = tx.MeasuredPath(tx.Path.bezier(controls, closed=True))
    wagons = np.array([(18, 12, 2), (14, 9, 1), (14, 9, 0), (20, 15, 0.5)] * 3, dtype=float)
    train = tx.TrainSolver(tx.Track(path), wagons)
    poses = train.solve(np.linspace(-50, 3 * path.length, 97))
    front, rear = poses.front_position, poses.rear_position
    tolerance = 1e-9 * path.length
    np.testing.assert_allclose(np.linalg.norm(front - rear, axis=-1),
                               np.broadcast_to(wagons[:, 1], front.shape[:2]), atol=tolerance)
    gap = np.linalg.norm(rear[:, :-1] - front[:, 1:], axis=-1)
    np.testing.assert_allclose(gap, np.broadcast_to(wagons[:-1, 0] - wagons[:-1, 1], gap.shape),
                               atol=tolerance)
    forward = (front - rear) / np.linalg.norm(front - rear, axis=-1, keepdims=True)
    np.testing.assert_allclose(poses.body_rotation[..., :, 2], forward, atol=1e-12)
    np.testing.assert_allclose(poses.body_midpoint, (front + rear) / 2, atol=1e-12)
    np.testing.assert_allclose(poses.coupler, front + wagons[:, 2, None] * forward, atol=1e-12)
    np.testing.assert_allclose(poses.body_position, front, atol=0)
    # Both bogies on the curve at their distances (numpy's evaluation at the parameters).
    for position, distance in ((front, poses.front_distance), (rear, poses.rear_distance)):
        t = path.parameter_at(distance).reshape(-1)
        np.testing.assert_allclose(position.reshape(-1, 3), chain_point(controls, t), atol=1e-9)


def test_a_hundred_thousand_wagon_arc_solve_in_one_call():
    keys = [(np.cos(a) * 3000, 40 * np.sin(3 * a), np.sin(a) * 2000)
            for a in np.linspace(0, 2 * np.pi, 24, endpoint=False)]
    path = tx.MeasuredPath(tx.Path.catmull_rom(keys, closed=True))
    n = 100_000
    lengths = 0.1 + 0.05 * (np.arange(n) % 7)
    wagons = np.stack([lengths, 0.75 * lengths], axis=1)
    train = tx.TrainSolver(tx.Track(path), wagons, spacing="arc")
    head = 1234.5
    poses = train.solve(head, parts=("front_distance", "rear_distance", "lap", "status",
                                     "body_quaternion"))
    # Closed forms: each front bogie is the lengths before it behind the head, wrapped.
    unwrapped = head - np.concatenate([[0.0], np.cumsum(lengths)[:-1]])
    L = path.length
    np.testing.assert_allclose(poses.front_distance, np.mod(unwrapped, L), rtol=0, atol=1e-9 * L)
    np.testing.assert_array_equal(poses.lap, np.floor(unwrapped / L).astype(np.int64))
    np.testing.assert_allclose(poses.rear_distance, np.mod(unwrapped - 0.75 * lengths, L),
                               rtol=0, atol=1e-9 * L)
    assert np.all(poses.status == tx.WagonStatus.ON_TRACK)
    np.testing.assert_allclose(np.linalg.norm(poses.body_quaternion, axis=1), 1, atol=1e-14)
    assert poses.front_position is None


def test_clamped_trains_say_where_they_are_held():
    path = tx.MeasuredPath(tx.Path.catmull_rom([(0, 0, 0), (100, 0, 0)]))
    train = tx.TrainSolver(tx.Track(path), [(10, 8)] * 3, spacing="arc")
    poses = train.solve([-5.0, 50.0, 200.0])
    np.testing.assert_array_equal(poses.status[1], tx.WagonStatus.ON_TRACK)
    np.testing.assert_allclose(poses.front_distance[1], [50, 40, 30], atol=1e-12)
    # Past the far end the locomotive is held there and the train stops behind it.
    np.testing.assert_array_equal(poses.status[2], [tx.WagonStatus.HELD_AT_END,
                                                    tx.WagonStatus.ON_TRACK,
                                                    tx.WagonStatus.ON_TRACK])
    np.testing.assert_allclose(poses.front_distance[2], [100, 90, 80], atol=1e-12)
    assert np.all((poses.front_distance >= 0) & (poses.front_distance <= path.length))
    assert tx.WagonStatus.COMPRESSED in poses.status[0]


def test_time_profiles_closed_forms():
    trapezoid = tx.TimeProfile.trapezoidal(10, 2, 1)  # ramps of 2 s and 2 m, 3 s cruising
    assert trapezoid.duration == pytest.approx(7, rel=1e-15)
    at = trapezoid.at([1.0, 3.5, 6.0, 7.0])
    np.testing.assert_allclose(at.value, [0.05, 0.5, 0.95, 1.0], rtol=1e-14)
    np.testing.assert_allclose(at.rate * 10, [1, 2, 1, 0], atol=1e-14)
    np.testing.assert_allclose(at.acceleration * 10, [1, 0, -1, -1], atol=1e-14)
    np.testing.assert_allclose(tx.TimeProfile.constant(4).at([0, 1, 4, 9]).value, [0, 0.25, 1, 1])
    # Parent's sine ease at a quarter of the duration.
    assert tx.TimeProfile.sine(2).at(0.5).value == pytest.approx(0.146447, abs=1e-6)
    s_curve = tx.TimeProfile.s_curve(10, 2, 1, 1)
    t = np.linspace(0, s_curve.duration, 2001)
    at = s_curve.at(t)
    assert at.value[0] == 0 and at.value[-1] == pytest.approx(1, abs=1e-15)
    assert np.all(np.diff(at.value) >= 0)
    assert at.rate.max() * 10 <= 2 * (1 + 1e-12)
    assert np.abs(at.acceleration).max() * 10 <= 1 * (1 + 1e-12)
    # When does the trapezoid pass 5 % (t²/20 = 0.05 at t = 1), half way, 95 %?
    np.testing.assert_allclose(trapezoid.time_at([0.05, 0.5, 0.95]), [1, 3.5, 6], rtol=1e-14)
    for done in (tx.TimeProfile.s_curve(0, 2, 1, 1), tx.TimeProfile.trapezoidal(0, 2, 1)):
        assert done.duration == 0
        np.testing.assert_array_equal(done.at([-1, 0, 5]).value, [1, 1, 1])
    keyed = tx.TimeProfile.keyed([0, 1, 3], [0, 0.2, 1])
    np.testing.assert_allclose(keyed.at([0, 1, 3]).value, [0, 0.2, 1], atol=1e-15)


def about_x(angle):
    c, s = np.cos(angle), np.sin(angle)
    return np.moveaxis(np.array([[np.ones_like(c), 0 * c, 0 * c], [0 * c, c, -s], [0 * c, s, c]]),
                       [0, 1], [-2, -1])


def test_pose_reader_falloffs_closed_form():
    angles = np.linspace(0, 1.4, 29)
    targets = about_x(angles)
    t = np.clip((angles - 0.2) / 0.8, 0, 1)
    expected = {"linear": 1 - t, "smoothstep": 1 - t * t * (3 - 2 * t), "ease_in": 1 - t * t,
                "ease_out": (1 - t) ** 2}
    for falloff, weight in expected.items():
        reader = tx.PoseReader(cone=(0.2, 1.0), falloff=falloff)
        np.testing.assert_allclose(reader.weight(np.eye(3), targets), weight, atol=1e-12)
    reversed_ = tx.PoseReader(cone=(0.2, 1.0), reversed=True).weight(np.eye(3), targets)
    np.testing.assert_allclose(reversed_, t, atol=1e-12)
    # A reader per target: turning both the same way leaves the weight 1.
    np.testing.assert_allclose(tx.PoseReader().weight(targets, targets), 1, atol=0)


def test_stretch_chain_closed_forms():
    chain = tx.StretchChain([1, 2, 3])
    # Rest space is world / scale: 5 < 6 keeps the rest lengths, 10 adds (10 − 6) / 3 to each.
    np.testing.assert_allclose(chain.lengths([10, 20], scale=2),
                               [[1, 2, 3], [1 + 4 / 3, 2 + 4 / 3, 3 + 4 / 3]], rtol=1e-15)
    proportional = tx.StretchChain([1, 2, 3], split="proportional", max_stretch=1.5)
    np.testing.assert_allclose(proportional.lengths([8, 100]), [[4 / 3, 8 / 3, 4], [1.5, 3, 4.5]],
                               rtol=1e-15)
    arm = tx.StretchChain([3, 2])
    goals = np.array([(4, 1, 0), (1, 2, 2), (0.5, 0, 0)], dtype=float)
    pose = arm.two_bone((0, 0, 0), goals, (0, 0, 1))
    root, knee, end = pose.joints[:, 0], pose.joints[:, 1], pose.joints[:, 2]
    np.testing.assert_allclose(end[:2], goals[:2], atol=1e-14)  # within reach
    np.testing.assert_allclose(np.linalg.norm(knee - root, axis=1), 3, rtol=1e-14)
    np.testing.assert_allclose(np.linalg.norm(end - knee, axis=1), 2, rtol=1e-14)
    np.testing.assert_allclose(pose.upper_length, 3)
    # Too close to fold further (|3 − 2| = 1 > 0.5): the end stops 1 from the root on its line.
    np.testing.assert_allclose(end[2], (1, 0, 0), atol=1e-14)
    rigid = tx.StretchChain([3, 2], max_stretch=1)
    far = rigid.two_bone((0, 0, 0), (100, 0, 0), (0, 0, 1), scale=2)
    np.testing.assert_allclose(far.joints[2], (10, 0, 0), atol=1e-13)  # reach 5 × scale 2
    stretchy = arm.two_bone((0, 0, 0), (100, 0, 0), (0, 0, 1), scale=2)
    np.testing.assert_allclose(stretchy.joints[2], (100, 0, 0), atol=1e-12)  # unlimited stretch
    # Other bone counts are solved as two bones, the first and the rest as one (as in C++): bones
    # 1 and 2 + 3 = 5 reaching 5 put the knee where the law of cosines says, (25 + 1 − 25) / 10 =
    # 0.1 along the goal's line and sqrt(1 − 0.01) towards the pole.
    three = tx.StretchChain([1, 2, 3]).two_bone((0, 0, 0), (5, 0, 0), (0, 1, 0))
    np.testing.assert_allclose(three.joints[1], (0.1, np.sqrt(0.99), 0), atol=1e-14)
    np.testing.assert_allclose([three.upper_length, three.lower_length], [1, 5], rtol=1e-15)


def straight_network():
    def piece(a, b):
        a, b = np.array(a, float), np.array(b, float)
        return tx.Track(tx.MeasuredPath(tx.Path.hermite([a, b], [b - a, b - a])))

    # A 200-unit main line along x into a switch: straight on for 200, or a 100-unit leg on the
    # same line (not a real layout, but every distance and nearest point has a closed form).
    return tx.Network([piece((-200, 0, 0), (0, 0, 0)), piece((0, 0, 0), (200, 0, 0)),
                       piece((0, 0, 0), (100, 0, 0))],
                      [[(0, "end"), (1, "start"), (2, "start")]])


def test_trains_on_routes_closed_forms():
    network = straight_network()
    route = tx.Route.follow(network, network.default_settings(), (0, "forward"))
    assert route.steps == [(0, "forward"), (1, "forward")]
    assert route.length == pytest.approx(400, rel=1e-15)
    train = tx.TrainSolver(route, [(16, 11)] * 4, spacing="arc")
    poses = train.solve(225.0)
    front = 225.0 - 16 * np.arange(4)
    np.testing.assert_allclose(poses.front_position[:, 0], front - 200, atol=1e-12)
    np.testing.assert_array_equal(poses.front_piece, np.where(front >= 200, 1, 0))
    np.testing.assert_allclose(poses.front_piece_distance, np.where(front >= 200, front - 200,
                                                                    front), atol=1e-12)
    # Driven the other way, each piece is run backwards: distances on a piece count from its
    # own start.
    back = tx.TrainSolver(route.reversed(), [(16, 11)] * 4, spacing="arc").solve(100.0)
    along = 400 - (100.0 - 16 * np.arange(4))  # distance along the forward route
    np.testing.assert_array_equal(back.front_piece, np.where(along >= 200, 1, 0))
    np.testing.assert_allclose(back.front_piece_distance, np.where(along >= 200, along - 200,
                                                                   along), atol=1e-12)
    # The other leg of the switch.
    branch = tx.Route.follow(network, network.default_settings().set(2, "start"), (0, "forward"))
    assert branch.steps == [(0, "forward"), (2, "forward")]
    assert branch.length == pytest.approx(300, rel=1e-15)


def test_network_closest_point_against_each_piece():
    network = straight_network()
    rng = np.random.default_rng(5)
    queries = rng.uniform(-250, 250, size=(200, 3))
    closest = network.closest_point(queries)
    # Every piece is a segment of a line: the nearest point of each in closed form.
    ends = [((-200, 0, 0), (0, 0, 0)), ((0, 0, 0), (200, 0, 0)), ((0, 0, 0), (100, 0, 0))]
    gaps, along = [], []
    for a, b in ends:
        a, b = np.array(a, float), np.array(b, float)
        t = np.clip((queries - a) @ (b - a) / ((b - a) @ (b - a)), 0, 1)
        gaps.append(np.linalg.norm(queries - (a + t[:, None] * (b - a)), axis=1))
        along.append(t * np.linalg.norm(b - a))
    np.testing.assert_allclose(closest.gap, np.min(gaps, axis=0), rtol=1e-12)
    # The piece it names is a nearest one, and the distance is the foot point's along it.
    rows = np.arange(len(queries))
    np.testing.assert_allclose(np.array(gaps)[closest.piece, rows], closest.gap, rtol=1e-12)
    np.testing.assert_allclose(closest.distance, np.array(along)[closest.piece, rows], atol=1e-9)


def test_network_closest_point_as_a_route_distance():
    network = straight_network()
    route = tx.Route.follow(network, network.default_settings(), (0, "forward"))
    # Points beside the line x in (-200, 200): the route starts at x = -200.
    xs = np.array([-150.0, -0.5, 0.0, 75.0, 199.0])
    closest = network.closest_point(np.column_stack([xs, np.full(5, 3.0), np.full(5, -2.0)]))
    for x, piece, distance in zip(xs, closest.piece, closest.distance):
        along = route.distances_at(int(piece), float(distance))
        if piece == 2:  # the branch beside the main line: not on this route
            assert along == []
            continue
        assert along == [pytest.approx(x + 200, abs=1e-12 * 400)]
    # Driven the other way, distances count from the far end.
    assert route.reversed().distances_at(1, 50.0) == [pytest.approx(150.0, abs=1e-12 * 400)]
    with pytest.raises(ValueError, match="piece"):
        route.distances_at(-1, 0.0)


def test_camera_rig_closed_forms():
    # Keys on a straight line, a constant profile: constant speed length / T along +x.
    rig = tx.CameraRig([(0, 0, 0), (10, 0, 0), (30, 0, 0)], tx.TimeProfile.constant(5.0),
                       tangents="catmull_rom")
    shots = rig.at(np.linspace(0, 5, 11))
    assert rig.path.length == pytest.approx(30, rel=1e-14)
    np.testing.assert_allclose(shots.speed, 6.0, rtol=1e-12)
    np.testing.assert_allclose(shots.position[:, 0], shots.distance, atol=1e-12)
    np.testing.assert_allclose(shots.velocity, np.broadcast_to((6.0, 0, 0), (11, 3)), atol=1e-12)
    np.testing.assert_allclose(shots.acceleration, 0, atol=1e-12)
    # Looking at a point: forward is the unit vector to it; Z-up keeps the side axis level.
    target = np.array([5.0, 5.0, 5.0])
    aimed = rig.look_at_point(target).with_world_up((0, 0, 1)).at(np.linspace(0, 5, 7))
    to_target = target - aimed.position
    np.testing.assert_allclose(aimed.rotation[..., :, 2],
                               to_target / np.linalg.norm(to_target, axis=1, keepdims=True),
                               atol=1e-14)
    np.testing.assert_allclose(aimed.rotation[..., 2, 0], 0, atol=1e-14)
    # An s-curve move: the tangential acceleration is the profile's, times the length.
    profile = tx.TimeProfile.s_curve(1, 0.5, 0.4, 0.5)
    moving = tx.CameraRig([(0, 0, 0), (10, 0, 0), (30, 0, 0)], profile, tangents="catmull_rom")
    t = np.linspace(0, profile.duration, 9)
    np.testing.assert_allclose(moving.at(t).tangential[:, 0],
                               30 * profile.at(t).acceleration, atol=1e-12)


def test_copies_share_what_never_changes_and_not_switch_settings():
    import copy

    network = straight_network()
    path = tx.Path.catmull_rom([(0, 0, 0), (1, 0, 0), (2, 1, 0)])
    profile = tx.TimeProfile.constant(2.0)
    for built in (path, tx.MeasuredPath(path), network, profile, tx.StretchChain([1, 2])):
        assert copy.copy(built) is built and copy.deepcopy(built) is built
    # Throwing a switch in a copy leaves the settings it was copied from as they were.
    settings = network.default_settings()
    for copied in (copy.copy(settings), copy.deepcopy(settings), settings.copy()):
        copied.set(2, "start")
        assert tx.Route.follow(network, copied, (0, "forward")).steps == [(0, "forward"),
                                                                           (2, "forward")]
        assert tx.Route.follow(network, settings, (0, "forward")).steps == [(0, "forward"),
                                                                             (1, "forward")]


def test_speed_plan_closed_forms():
    # Rest to rest over 1000 under v 20, a = b = 1, j 0.5: both limits reached (v >= a²/j), so
    # T = L/v + v/a + a/j = 50 + 20 + 2; the first jerk phase is x = j t³/6, v = j t²/2, a = j t.
    limits = tx.SpeedLimits.line(1000, 20)
    plan = tx.SpeedPlan(limits, 20, 1, 1, 0.5)
    assert plan.duration == pytest.approx(72, abs=1e-9)
    at = plan.at(np.array([1.0, 36.0, 72.0]))
    np.testing.assert_allclose(at.position, [0.5 / 6, 500, 1000], rtol=0, atol=1e-9)
    np.testing.assert_allclose(at.velocity, [0.25, 20, 0], rtol=0, atol=1e-9)
    np.testing.assert_allclose(at.acceleration, [0.5, 0, 0], rtol=0, atol=1e-9)
    np.testing.assert_allclose(at.jerk[:1], [0.5], rtol=0, atol=1e-12)
    assert plan.time_at(500) == pytest.approx(36, abs=1e-9)
    assert plan.time_at([0.5 / 6, 1001]).tolist()[1] == np.inf
    assert plan.time_at(0.5 / 6) == pytest.approx(1, abs=1e-6)
    assert plan.at(np.zeros((2, 3))).position.shape == (2, 3)
    assert plan.state_at(36) == pytest.approx((500, 20, 0), abs=1e-9)

    # Braking gentler than accelerating (b = 0.5): accelerating 22 s over 220, braking
    # v/b + b/j = 41 s over 410, cruising 370 between: T = 81.5, 500 passed at 22 + 280/20. The
    # other way round (a = 0.5, b = 1) the cruise starts at 410: 500 at 41 + 90/20.
    gentle_braking = tx.SpeedPlan(limits, 20, 1, 0.5, 0.5)
    assert gentle_braking.duration == pytest.approx(81.5, abs=1e-9)
    assert gentle_braking.time_at(500) == pytest.approx(36, abs=1e-9)
    assert tx.SpeedPlan(limits, 20, 0.5, 1, 0.5).time_at(500) == pytest.approx(45.5, abs=1e-9)
    # At t = 3 the acceleration is held at 1 (jerk 0; v = j·2²/2 + 1, x = j·2³/6 + 1 + 1/2);
    # half a second before the end the last jerk phase has v = jτ²/2, a = −jτ, x = L − jτ³/6.
    at = gentle_braking.at(np.array([3.0, 81.0]))
    np.testing.assert_allclose(at.position, [4 / 6 + 1.5, 1000 - 0.5 * 0.125 / 6], atol=1e-9)
    np.testing.assert_allclose(at.velocity, [2, 0.0625], atol=1e-9)
    np.testing.assert_allclose(at.acceleration, [1, -0.25], atol=1e-9)
    np.testing.assert_allclose(at.jerk, [0, 0.5], atol=1e-12)
    # From a moving start (x0, v0, a0) = (100, 5, 0.2) the jerk rises the acceleration to 1 first:
    # x = x0 + v0 t + a0 t²/2 + j t³/6 for t < 1.6.
    moving = tx.SpeedPlan(limits, 20, 1, 1, 0.5, start=(100, 5, 0.2))
    at = moving.at(1.0)
    assert (float(at.position), float(at.velocity), float(at.acceleration)) == pytest.approx(
        (100 + 5 + 0.1 + 0.5 / 6, 5 + 0.2 + 0.25, 0.7), abs=1e-9)
    # Faster than the limit at the start: braked back to 20 as fast as the jerk allows (b = 0.5,
    # j = 0.5): jerk −j for b/j = 1 s (25 − j/6 = 24.9167 on, the speed down to 24.75), then
    # held at −b for 4.75/b = 9.5 s at the mean of 24.75 and 20: 237.47917 over the limit.
    over = tx.SpeedPlan(limits, 25, 1, 0.5, 0.5, start=(0, 25, 0))
    assert over.overspeed_distance == pytest.approx(25 - 0.5 / 6 + (24.75 + 20) / 2 * 9.5,
                                                    abs=1e-9)

    # A timetable: the end no sooner than 100 s. T = L/v + v/a + a/j = 1000/v + v + 2 = 100
    # gives the cruise v = (98 − √(98² − 4000))/2; a station's arrival the same way (the leg to
    # 400 at 50 s: 400/v + v + 2 = 50), its dwell after it, and the leg on as fast as it can.
    timed = tx.SpeedPlan(limits, 20, 1, 1, 0.5, arrival=100)
    assert timed.duration == pytest.approx(100, abs=1e-7)
    assert float(timed.at(50).velocity) == pytest.approx((98 - math.sqrt(98**2 - 4000)) / 2,
                                                         rel=1e-9)
    station = tx.SpeedPlan(limits, 20, 1, 1, 0.5, stations=[(400, 10, 50)])
    assert float(station.time_at(400)) == pytest.approx(50, abs=1e-7)
    v = (48 - math.sqrt(48**2 - 1600)) / 2
    assert float(station.at(25).velocity) == pytest.approx(v, rel=1e-9)
    # From rest at 400 to 1000 after the dwell: 600/20 + 20 + 2 = 52 s.
    assert station.duration == pytest.approx(50 + 10 + 52, abs=1e-7)

    # A zone lowered for a 50-long train: held until the tail has left it.
    held = limits.with_zones([(300, 400, 10)]).for_train(50)
    starts, ends, values = held.sections
    np.testing.assert_array_equal(starts, [0, 300, 450])
    np.testing.assert_array_equal(ends, [300, 450, 1000])
    np.testing.assert_array_equal(values, [20, 10, 20])
    np.testing.assert_array_equal(held.at([299, 300, 449, 450]), [20, 10, 10, 20])

    # A station: 30 s standing on it; a replan 10 s in keeps the 20 s left when held, and
    # leaves at once when not.
    stopping = tx.SpeedPlan(limits, 20, 1, 1, 0.5, stations=[(400, 30)])
    arrive = float(stopping.time_at(400))
    assert stopping.at(arrive + 15).position == pytest.approx(400, abs=1e-12)
    assert stopping.dwell_left(arrive + 10) == pytest.approx(20, abs=1e-9)
    assert stopping.dwell_left(arrive - 1) == 0
    replan = tx.SpeedPlan(limits, 20, 1, 1, 0.5, start=stopping.state_at(arrive + 10),
                          stations=[(400, 30)], hold=float(stopping.dwell_left(arrive + 10)))
    assert replan.duration == pytest.approx(stopping.duration - arrive - 10, abs=1e-9)
    assert replan.at(19.9).position == pytest.approx(400, abs=1e-12)
    at_once = tx.SpeedPlan(limits, 20, 1, 1, 0.5, start=stopping.state_at(arrive + 10))
    assert at_once.at(1).position > 400

    # On a circle of radius 100 the lateral limit is sqrt(a_lat R) = sqrt(80): 16 Bezier arcs
    # with handles 4/3 tan(θ/4) R, whose curvature is 1/R to ~3e-5 (4 arcs: to 1 %).
    theta = 2 * np.pi / 16
    k = 4 / 3 * np.tan(theta / 4) * 100
    arcs = []
    for a in np.arange(16) * theta:
        b = a + theta
        p0, p3 = 100 * np.array([np.cos(a), 0, np.sin(a)]), 100 * np.array([np.cos(b), 0, np.sin(b)])
        t0, t3 = np.array([-np.sin(a), 0, np.cos(a)]), np.array([-np.sin(b), 0, np.cos(b)])
        arcs.append([p0, p0 + k * t0, p3 - k * t3, p3])
    ring = tx.Track(tx.MeasuredPath(tx.Path.bezier(np.array(arcs), closed=True)))
    curved = tx.SpeedLimits.from_curvature(ring, 30, 0.8, 10)
    assert curved.length == pytest.approx(ring.length)
    np.testing.assert_allclose(curved.sections[2], np.sqrt(80), rtol=1e-4)
    # More samples a section can only find the same or sharper bends: never a higher limit, and
    # on a curvy track a lower one somewhere.
    wavy = tx.Track(tx.MeasuredPath(tx.Path.catmull_rom(
        [(0, 0, 0), (40, 0, 20), (80, 0, -20), (120, 0, 20), (160, 0, 0)])))
    few = tx.SpeedLimits.from_curvature(wavy, 30, 0.8, 25, samples=1).at(np.arange(0, 160, 0.5))
    many = tx.SpeedLimits.from_curvature(wavy, 30, 0.8, 25, samples=64).at(np.arange(0, 160, 0.5))
    assert np.all(many <= few) and np.any(many < few)
    # Capped by the line limit where that is lower.
    np.testing.assert_array_equal(tx.SpeedLimits.from_curvature(ring, 5, 0.8, 10).sections[2], [5])


def test_closest_point_gaps_keep_their_digits_from_1e_170_to_1e200():
    """Beside a straight track along x, a query (5, 3g, 4g) is 5g away: exact to rounding from
    gaps whose squares underflow (1e-170: the square is 0, 1e-160: subnormal) to gaps whose
    squares overflow, in one call with ordinary ones and with a query on the track (gap 0, no
    warning: 0/0 is never evaluated where it shows)."""
    track = tx.MeasuredPath(tx.Path.catmull_rom([(0, 0, 0), (4, 0, 0), (10, 0, 0)]))
    scales = np.array([1e-170, 3e-160, 1e-150, 1.0, 1e160, 1e200])
    queries = np.stack([np.full_like(scales, 5.0), 3 * scales, 4 * scales], axis=-1)
    # A query on the track, and a NaN one (whose answer is not asked here: only that it leaves the
    # others' rescue from overflow alone).
    queries = np.vstack([queries, [(5.0, 0.0, 0.0), (np.nan, 0.0, 0.0)]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for network in (False, True):
            found = (tx.Network([tx.Track(track)]).closest_point(queries) if network
                     else track.closest_point(queries))
            np.testing.assert_allclose(found.gap[:-2], 5 * scales, rtol=1e-15)
            assert found.gap[-2] == 0.0
