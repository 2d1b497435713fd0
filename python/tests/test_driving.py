"""JerkTrajectory and SyncedTrajectory from Python, against Ruckig (an independent online
planner, PyPI's `ruckig`) where it is installed, and against closed forms."""

import math

import numpy as np
import pytest

import tractrix as tx

ruckig = pytest.importorskip("ruckig")


def _ruckig(starts, targets, velocities, limits, synchronization="time", minimum=None,
            cycle=None, accelerations=None):
    """Ruckig's plan for the same axes: (duration, trajectory)."""
    n = len(targets)
    inp = ruckig.InputParameter(n)
    inp.current_position = [s[0] for s in starts]
    inp.current_velocity = [s[1] for s in starts]
    inp.current_acceleration = [s[2] for s in starts]
    inp.target_position = list(targets)
    inp.target_velocity = list(velocities)
    inp.target_acceleration = [0.0] * n if accelerations is None else list(accelerations)
    inp.max_velocity = [lim[0] for lim in limits]
    inp.max_acceleration = [lim[1] for lim in limits]
    inp.min_acceleration = [-lim[2] for lim in limits]
    inp.max_jerk = [lim[3] for lim in limits]
    inp.synchronization = {"time": ruckig.Synchronization.Time,
                           "phase": ruckig.Synchronization.Phase,
                           "none": ruckig.Synchronization.No}[synchronization]
    if minimum is not None:
        inp.minimum_duration = minimum
    otg = ruckig.Ruckig(n, cycle if cycle else 0.001)
    if cycle:
        inp.duration_discretization = ruckig.DurationDiscretization.Discrete
    trajectory = ruckig.Trajectory(n)
    result = otg.calculate(inp, trajectory)
    assert result in (ruckig.Result.Working, ruckig.Result.Finished), result
    return trajectory.duration, trajectory


def _random_axis(rng):
    """Limits, and a start the limits can hold (acceleration inside, velocity staying inside
    while the acceleration is brought to zero)."""
    lim = rng.uniform(0.1, 3.0, 4)
    while True:
        v = rng.uniform(-1, 1) * lim[0]
        a = rng.uniform(-1, 1) * min(lim[1], lim[2])
        natural = v + a * abs(a) / (2 * lim[3])
        if abs(natural) <= lim[0]:
            break
    return lim, (rng.uniform(-3, 3), v, a), rng.uniform(-5, 5), rng.uniform(-1, 1) * lim[0]


def _random_axes(rng, n=3):
    """n random axes as columns: their limits, starts, targets and target velocities."""
    limits, starts, targets, velocities = zip(*[_random_axis(rng) for _ in range(n)])
    return list(limits), list(starts), list(targets), list(velocities)


def test_jerk_trajectory_takes_ruckigs_time_from_states_inside_the_limits():
    rng = np.random.default_rng(46)
    for _ in range(300):
        lim, start, target, velocity = _random_axis(rng)
        tr = tx.JerkTrajectory.to_position(start, target, velocity, max_velocity=lim[0],
                                           max_acceleration=lim[1], max_deceleration=lim[2],
                                           max_jerk=lim[3])
        expected, _ = _ruckig([start], [target], [velocity], [lim])
        assert tr.duration == pytest.approx(expected, rel=1e-9)
        end = tr.at(tr.duration)
        assert end.position == target and end.velocity == velocity and end.acceleration == 0


def test_starts_beyond_the_limits_take_ruckigs_time():
    # Velocities to 2.5 v_max and accelerations to 2.5 times their limits, either way: braked
    # back as Ruckig brakes (jerk towards braking, a hold at the braking limit, stopping where
    # easing would carry the velocity to the opposite limit), then time-optimal.
    rng = np.random.default_rng(50)
    for _ in range(400):
        lim = rng.uniform(0.1, 3.0, 4)
        start = (rng.uniform(-3, 3), rng.uniform(-2.5, 2.5) * lim[0],
                 rng.uniform(-2.5, 2.5) * max(lim[1], lim[2]))
        target, velocity = rng.uniform(-5, 5), rng.uniform(-1, 1) * lim[0]
        tr = tx.JerkTrajectory.to_position(start, target, velocity, max_velocity=lim[0],
                                           max_acceleration=lim[1], max_deceleration=lim[2],
                                           max_jerk=lim[3])
        expected, _ = _ruckig([start], [target], [velocity], [lim])
        assert tr.duration == pytest.approx(expected, rel=1e-9)


def test_a_reverse_velocity_limit_of_its_own_takes_ruckigs_time():
    # Ruckig's min_velocity is the negative reverse limit.
    rng = np.random.default_rng(51)
    checked = 0
    for _ in range(300):
        lim, start, target, velocity = _random_axis(rng)
        back = rng.uniform(0.1, 3.0)
        natural = start[1] + start[2] * abs(start[2]) / (2 * lim[3])
        if -natural > back or -start[1] > back:
            continue
        velocity = max(velocity, -back)
        checked += 1
        tr = tx.JerkTrajectory.to_position(start, target, velocity, max_velocity=lim[0],
                                           max_acceleration=lim[1], max_deceleration=lim[2],
                                           max_jerk=lim[3], max_reverse_velocity=back)
        inp = ruckig.InputParameter(1)
        inp.current_position, inp.current_velocity = [start[0]], [start[1]]
        inp.current_acceleration = [start[2]]
        inp.target_position, inp.target_velocity = [target], [velocity]
        inp.target_acceleration = [0.0]
        inp.max_velocity, inp.min_velocity = [lim[0]], [-back]
        inp.max_acceleration, inp.min_acceleration = [lim[1]], [-lim[2]]
        inp.max_jerk = [lim[3]]
        trajectory = ruckig.Trajectory(1)
        ruckig.Ruckig(1, 0.001).calculate(inp, trajectory)
        assert tr.duration == pytest.approx(trajectory.duration, rel=1e-9)
        samples = tr.at(np.linspace(0, tr.duration, 201))
        assert np.all(samples.velocity >= -back * (1 + 1e-12))
        assert np.all(samples.velocity <= lim[0] * (1 + 1e-12))
    assert checked >= 200
    # Phase synchronization: an axis moving backwards along the line brings its reverse limit.
    line = tx.SyncedTrajectory([0.0, 0.0], [-1.0, 1.0], limits=[(1, 1, 1, 1, 0.25), (1, 1, 1, 1, 0)],
                               synchronization="phase")
    assert line.duration == pytest.approx(
        tx.JerkTrajectory.to_position(0.0, -1.0, max_velocity=1, max_acceleration=1, max_jerk=1,
                                      max_reverse_velocity=0.25).duration, rel=1e-12)


@pytest.mark.parametrize("accelerating", [False, True])
def test_fixed_durations_are_met_wherever_ruckig_meets_them(accelerating):
    # Ruckig with a minimum duration T returns a trajectory of exactly T where one exists within
    # the limits, else the next duration it can meet: each T is met by one planner iff by both.
    # Targets at acceleration 0, or accelerating either way.
    rng = np.random.default_rng(53 if accelerating else 49)
    met = refused = 0
    for _ in range(300 if accelerating else 400):
        lim, start, position, velocity = _random_axis(rng)
        target = _random_target(rng, lim) if accelerating else (position, velocity, 0.0)
        keywords = dict(max_velocity=lim[0], max_acceleration=lim[1], max_deceleration=lim[2],
                        max_jerk=lim[3], acceleration=target[2])
        optimum = tx.JerkTrajectory.to_position(start, target[0], target[1], **keywords).duration
        for stretch in (1.001, 1.05, 1.3, 3.0):
            duration = optimum * stretch
            ruckig_meets = abs(_ruckig_to_state(start, target, lim, duration) - duration) <= (
                1e-9 * duration)
            try:
                tr = tx.JerkTrajectory.to_position_in(duration, start, target[0], target[1],
                                                      **keywords)
            except ValueError as error:
                assert not ruckig_meets, str(error)
                refused += 1
                continue
            assert ruckig_meets
            met += 1
            assert tr.duration == duration
            end = tr.at(np.nextafter(duration, 0))
            assert float(end.position) == pytest.approx(target[0], abs=1e-9)
            assert float(end.acceleration) == pytest.approx(target[2], abs=1e-9)
            samples = tr.at(np.linspace(0, duration, 201))
            assert np.all(np.abs(samples.velocity) <= lim[0] * (1 + 1e-12))
            assert np.all(samples.acceleration <= lim[1] * (1 + 1e-12))
            assert np.all(-samples.acceleration <= lim[2] * (1 + 1e-12))
    assert met >= (1100 if accelerating else 1500)
    assert accelerating or refused >= 8  # durations in blocked intervals, refused by both


def test_jerk_trajectory_samples_extrema_and_replans():
    # From rest to 1 under v 1, a 1, j 1: no hold (v·j = a²), v_p = (D²j/4)^(1/3), T = 2D/v_p.
    tr = tx.JerkTrajectory.to_position(0.0, 1.0, max_velocity=1, max_acceleration=1, max_jerk=1)
    assert tr.duration == pytest.approx(2 / 0.25 ** (1 / 3), rel=1e-14)
    t = np.linspace(0, tr.duration, 7).reshape(7, 1)
    samples = tr.at(t)
    assert samples.position.shape == (7, 1) and samples.jerk.shape == (7, 1)
    assert samples.position[0, 0] == 0 and samples.position[-1, 0] == 1
    # The middle of the symmetric move: half way, at the peak velocity, no acceleration.
    middle = tr.at(tr.duration / 2)
    assert float(middle.position) == pytest.approx(0.5, abs=1e-14)
    assert float(middle.velocity) == pytest.approx(0.25 ** (1 / 3), rel=1e-14)
    assert tr.position_extrema == (0.0, 1.0, 0.0, pytest.approx(tr.duration))
    assert float(tr.time_at(0.5)) == pytest.approx(tr.duration / 2, rel=1e-12)
    # A retarget mid-move continues from the state reached.
    state = tr.state_at(1.0)
    back = tx.JerkTrajectory.to_position(state, -1.0, max_velocity=1, max_acceleration=1,
                                         max_jerk=1)
    assert back.state_at(0.0) == pytest.approx(state, abs=1e-15)
    _, rk = _ruckig([state], [-1.0], [0.0], [(1, 1, 1, 1)])
    assert back.duration == pytest.approx(rk.duration, rel=1e-9)
    # The reversal's turning point is the top of Ruckig's trajectory, sampled: golden-section
    # search on its positions. (Ruckig 0.19.4's own position_extrema says 0.96329 at 1.5874 s
    # here, a phase boundary, while its trajectory goes on up to 0.97174 at 1.7174 s.)
    low, high, _, t_high = back.position_extrema
    a, b = 0.0, rk.duration
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(100):
        c, d = b - ratio * (b - a), a + ratio * (b - a)
        if rk.at_time(c)[0][0] > rk.at_time(d)[0][0]:
            b = d
        else:
            a = c
    assert high == pytest.approx(rk.at_time(a)[0][0], abs=1e-12)
    assert t_high == pytest.approx(a, abs=1e-6)
    assert low == -1.0
    # A fixed duration and velocity control.
    slow = tx.JerkTrajectory.to_position_in(6.0, 0.0, 1.0, max_velocity=1, max_acceleration=1,
                                            max_jerk=1)
    assert slow.duration == 6.0 and float(slow.at(6.0).position) == 1.0
    cruise = tx.JerkTrajectory.to_velocity((0, 0, 0), 0.5, max_velocity=1, max_acceleration=1,
                                           max_jerk=1)
    assert cruise.duration == pytest.approx(2 * math.sqrt(0.5), rel=1e-14)
    with pytest.raises(ValueError, match="shorter than the time-optimal"):
        tx.JerkTrajectory.to_position_in(1.0, 0.0, 1.0, max_velocity=1, max_acceleration=1,
                                         max_jerk=1)
    with pytest.raises(ValueError, match="positive and finite"):
        tx.JerkTrajectory.to_position(0.0, 1.0, max_velocity=-1, max_acceleration=1, max_jerk=1)
    with pytest.raises(TypeError):
        tx.JerkTrajectory()


def test_time_synchronized_axes_arrive_with_ruckig():
    rng = np.random.default_rng(47)
    for case in range(150):
        limits, starts, targets, velocities = _random_axes(rng)
        rest = case % 2 == 0
        if rest:
            starts = [(s[0], 0.0, 0.0) for s in starts]
            velocities = [0.0] * 3
        tr = tx.SyncedTrajectory(starts, targets, velocities, limits=limits)
        expected, _ = _ruckig(starts, targets, velocities, limits)
        assert tr.synchronization == "time"
        assert np.all(tr.durations == tr.duration)
        # Ruckig's is the earliest duration every axis can meet (its blocked intervals).
        assert tr.duration == pytest.approx(expected, rel=1e-9)
        end = tr.at(tr.duration)
        assert end.position == pytest.approx(targets, abs=1e-12)
        assert end.velocity == pytest.approx(velocities, abs=1e-12)
        samples = tr.at(np.linspace(0, tr.duration, 301))
        assert samples.position.shape == (301, 3)
        for axis, lim in enumerate(limits):
            assert np.all(np.abs(samples.velocity[:, axis]) <= lim[0] * (1 + 1e-12))
            assert np.all(samples.acceleration[:, axis] <= lim[1] * (1 + 1e-12))
            assert np.all(-samples.acceleration[:, axis] <= lim[2] * (1 + 1e-12))


def test_time_synchronized_axes_on_control_cycles_arrive_with_ruckig():
    # Ruckig's discrete durations: the earliest whole number of cycles every axis meets.
    rng = np.random.default_rng(53)
    for case in range(60):
        limits, starts, targets, velocities = _random_axes(rng)
        cycle = (0.01, 0.001, 1 / 60)[case % 3]
        tr = tx.SyncedTrajectory(starts, targets, velocities, limits=limits, cycle=cycle)
        expected, _ = _ruckig(starts, targets, velocities, limits, cycle=cycle)
        assert tr.duration == pytest.approx(expected, rel=1e-9)
        assert tr.duration / cycle == pytest.approx(round(tr.duration / cycle), abs=1e-6)
        end = tr.at(tr.duration)
        assert end.position == pytest.approx(targets, abs=1e-12)


def test_phase_synchronized_axes_move_on_ruckigs_line():
    rng = np.random.default_rng(48)
    on_ruckigs_line = 0
    for _ in range(60):
        limits = rng.uniform(0.1, 3.0, (3, 4))
        start = rng.uniform(-3, 3, 3)
        target = start + rng.uniform(-4, 4, 3)
        tr = tx.SyncedTrajectory(start, target, limits=limits, synchronization="phase")
        assert tr.synchronization == "phase"
        expected, rk = _ruckig([(p, 0.0, 0.0) for p in start], target, [0.0] * 3, limits,
                               "phase")
        # Ruckig scales the slowest axis's own profile onto the others; where that breaks
        # another axis's limits it synchronizes in time instead, off the line. On the line the
        # two agree; off it Ruckig's is faster (time synchronization relaxes the line).
        u = (target - start) / np.linalg.norm(target - start)
        t = np.linspace(0, expected, 41)
        offset = np.array([rk.at_time(x)[0] for x in t]) - start
        on_line = np.abs(offset - np.outer(offset @ u, u)).max() <= 1e-9
        on_ruckigs_line += on_line
        if not on_line:
            assert tr.duration > expected
            continue
        assert tr.duration == pytest.approx(expected, rel=1e-9)
        for x in t:
            position, velocity, _ = rk.at_time(x)
            sample = tr.at(x)
            assert sample.position == pytest.approx(position, abs=1e-9)
            assert sample.velocity == pytest.approx(velocity, abs=1e-9)
        # Every sample of tractrix's on the line.
        offset = tr.at(np.linspace(0, tr.duration, 101)).position - start
        assert np.abs(offset - np.outer(offset @ u, u)).max() <= 1e-12
    assert on_ruckigs_line >= 20
    # Not along the line: time synchronization, said so.
    across = tx.SyncedTrajectory([(0, 0, 0), (0, 0.5, 0)], [1, 0], limits=(1, 1, 1, 1),
                                 synchronization="phase")
    assert across.synchronization == "time"


def test_timing_and_independent_axes():
    # Rest to rest over 1 under v 1, a 1, j 1: 2/0.25^(1/3) = 3.1748 s.
    optimum = 2 / 0.25 ** (1 / 3)
    for cycle in (0.001, 0.01, 0.25):
        tr = tx.SyncedTrajectory([0.0], [1.0], limits=(1, 1, 1, 1), cycle=cycle)
        assert tr.duration == pytest.approx(math.ceil(optimum / cycle) * cycle, rel=1e-12)
        expected, _ = _ruckig([(0, 0, 0)], [1.0], [0.0], [(1, 1, 1, 1)], cycle=cycle)
        assert tr.duration == pytest.approx(expected, rel=1e-9)
    tr = tx.SyncedTrajectory([0.0, 0.0], [1.0, 0.1], limits=(1, 1, 1, 1), minimum_duration=5)
    assert tr.duration == pytest.approx(5, rel=1e-13)
    expected, _ = _ruckig([(0, 0, 0)] * 2, [1.0, 0.1], [0.0] * 2, [(1, 1, 1, 1)] * 2,
                          minimum=5.0)
    assert tr.duration == pytest.approx(expected, rel=1e-9)
    free = tx.SyncedTrajectory([0.0, 0.0], [1.0, 0.1], limits=(1, 1, 1, 1),
                               synchronization="none")
    assert free.durations[0] == pytest.approx(optimum, rel=1e-14)
    assert free.durations[1] < free.durations[0] == free.duration
    low, high, t_low, t_high = free.position_extrema
    assert list(low) == [0, 0] and list(high) == pytest.approx([1, 0.1], abs=1e-15)
    assert list(t_high) == pytest.approx(list(free.durations), rel=1e-14)
    with pytest.raises(ValueError, match="synchronization"):
        tx.SyncedTrajectory([0.0], [1.0], limits=(1, 1, 1, 1), synchronization="both")
    with pytest.raises(ValueError, match="limits"):
        tx.SyncedTrajectory([0.0], [1.0], limits=(1, 1, 1))
    with pytest.raises(ValueError, match="as many"):
        tx.SyncedTrajectory([0.0, 1.0], [1.0], limits=(1, 1, 1, 1))
    with pytest.raises(ValueError, match="minimum_duration and cycle"):
        tx.SyncedTrajectory([0.0], [1.0], limits=(1, 1, 1, 1), cycle=-1)
    with pytest.raises(ValueError, match="axis 0"):
        tx.SyncedTrajectory([0.0], [1.0], [3.0], limits=(1, 1, 1, 1))


def test_waypoints_are_ruckig_moves_end_to_end():
    # Each leg is the time-optimal move from the state the one before left: Ruckig's, leg by leg.
    rng = np.random.default_rng(52)
    for _ in range(40):
        lim = rng.uniform(0.5, 3.0, 4)
        points, expected, state = [], 0.0, (rng.uniform(-3, 3), 0.0, 0.0)
        start = state
        for k in range(4):
            position = state[0] + rng.uniform(-6, 6)
            velocity = 0.0 if k % 2 else rng.uniform(-1, 1) * lim[0]
            dwell = rng.uniform(0, 2) if velocity == 0 else 0.0
            leg, _ = _ruckig([state], [position], [velocity], [lim])
            expected += leg + dwell
            points.append((position, velocity, dwell))
            state = (position, velocity, 0.0)
        run = tx.WaypointTrajectory(start, points, limits=lim)
        assert run.duration == pytest.approx(expected, rel=1e-9)
        arrivals, departures = run.times
        for (position, velocity, dwell), arrival, departure in zip(points, arrivals, departures):
            sample = run.at(np.array([arrival, (arrival + departure) / 2, departure]))
            assert sample.position == pytest.approx([position] * 3, abs=1e-9)
            assert departure - arrival == pytest.approx(dwell, abs=1e-12)
    with pytest.raises(ValueError, match="waypoint 0: dwell"):
        tx.WaypointTrajectory(0.0, [(1.0, 0.5, 1.0)], limits=(1, 1, 1, 1))
    with pytest.raises(ValueError, match="2 rows for 1 waypoints"):
        tx.WaypointTrajectory(0.0, [(1.0, 0.0, 1.0)], limits=[(1, 1, 1, 1)] * 2)


def _ruckig_to_state(start, target, limits, minimum=None, cycle=None):
    """Ruckig's duration for one axis to a target (position, velocity, acceleration)."""
    duration, _ = _ruckig([start], [target[0]], [target[1]], [limits], minimum=minimum,
                          cycle=cycle, accelerations=[target[2]])
    return duration


def _random_target(rng, lim):
    """A target with an acceleration, reached from inside the limits (run backwards, its
    velocity stays inside while the acceleration is brought to zero)."""
    while True:
        velocity = rng.uniform(-1, 1) * lim[0]
        acceleration = rng.uniform(-lim[2], lim[1])
        if abs(velocity - acceleration * abs(acceleration) / (2 * lim[3])) <= lim[0]:
            return (rng.uniform(-5, 5), velocity, acceleration)


def test_a_target_acceleration_takes_ruckigs_time():
    # From states inside the limits (accelerating too) and beyond them, to targets that
    # accelerate either way: Ruckig's durations, and the target state exactly.
    rng = np.random.default_rng(52)
    for k in range(500):
        lim, start, _, _ = _random_axis(rng)
        if k % 3 == 0:  # beyond the limits: to 2.5 times them
            start = (start[0], rng.uniform(-2.5, 2.5) * lim[0],
                     rng.uniform(-2.5, 2.5) * max(lim[1], lim[2]))
        target = _random_target(rng, lim)
        tr = tx.JerkTrajectory.to_position(start, target[0], target[1], acceleration=target[2],
                                           max_velocity=lim[0], max_acceleration=lim[1],
                                           max_deceleration=lim[2], max_jerk=lim[3])
        assert tr.duration == pytest.approx(_ruckig_to_state(start, target, lim), rel=1e-9)
        end = tr.at(tr.duration)
        assert (end.position, end.velocity, end.acceleration) == target
        after = tr.at(tr.duration + 0.5)  # moving on at the target's acceleration
        assert float(after.velocity) == pytest.approx(target[1] + 0.5 * target[2], abs=1e-12)


@pytest.mark.parametrize("inside_the_family", [True, False])
def test_long_moves_that_cruise_take_ruckigs_time(inside_the_family):
    # Long moves to accelerating targets. Inside the family the planner takes the cruise at the
    # velocity limit without a search (the start not slowing along the move, the target met
    # slowing: v, a >= 0 and v* >= 0, a* <= 0 that way); outside it, one sign flipped, it
    # searches. Either way Ruckig's durations, forwards and backwards.
    rng = np.random.default_rng(60)
    for k in range(300):
        lim, _, _, _ = _random_axis(rng)
        sign = 1.0 if k % 2 == 0 else -1.0
        while True:
            v, a = rng.uniform(0, 1) * lim[0], rng.uniform(0, 1) * min(lim[1], lim[2])
            v_end, a_end = rng.uniform(0, 1) * lim[0], -rng.uniform(0, 1) * min(lim[1], lim[2])
            if not inside_the_family:
                flip = k % 4
                v, a, v_end, a_end = [(-x if i == flip else x)
                                      for i, x in enumerate((v, a, v_end, a_end))]
            if (abs(v + a * abs(a) / (2 * lim[3])) <= lim[0]
                    and abs(v_end - a_end * abs(a_end) / (2 * lim[3])) <= lim[0]):
                break
        start = (0.0, sign * v, sign * a)
        target = (sign * rng.uniform(20, 200), sign * v_end, sign * a_end)
        tr = tx.JerkTrajectory.to_position(start, target[0], target[1], acceleration=target[2],
                                           max_velocity=lim[0], max_acceleration=lim[1],
                                           max_deceleration=lim[2], max_jerk=lim[3])
        assert tr.duration == pytest.approx(_ruckig_to_state(start, target, lim), rel=1e-9)
        end = tr.at(np.array([tr.duration * (1 - 1e-12)]))
        assert float(end.position[0]) == pytest.approx(target[0], rel=1e-9, abs=1e-9)


def test_a_target_acceleration_out_of_reach_is_refused():
    keywords = dict(max_velocity=1.0, max_acceleration=1.0, max_jerk=1.0)
    with pytest.raises(ValueError, match="target acceleration"):
        tx.JerkTrajectory.to_position(0.0, 1.0, 0.0, acceleration=1.5, **keywords)
    # Slowing through 0.9 at 0.5: run backwards it came from 0.9 + 0.5²/2, beyond v_max = 1.
    with pytest.raises(ValueError, match="beyond a velocity limit"):
        tx.JerkTrajectory.to_position(0.0, 1.0, 0.9, acceleration=-0.5, **keywords)


def test_no_sooner_takes_ruckigs_next_duration():
    # Ruckig with a minimum duration T: T where a profile within the limits meets it, else the
    # end of the blocked interval T falls in; on control cycles, the first whole cycle met.
    rng = np.random.default_rng(54)
    past_a_gap = 0
    for k in range(300):
        lim, start, _, _ = _random_axis(rng)
        target = _random_target(rng, lim) if k % 2 else (rng.uniform(-5, 5),
                                                          rng.uniform(-1, 1) * lim[0], 0.0)
        keywords = dict(max_velocity=lim[0], max_acceleration=lim[1], max_deceleration=lim[2],
                        max_jerk=lim[3], acceleration=target[2])
        optimum = tx.JerkTrajectory.to_position(start, target[0], target[1], **keywords).duration
        for stretch, cycle in ((0.5, 0.0), (1.05, 0.0), (1.3, 0.0), (2.0, 0.0), (1.2, 0.01)):
            duration = optimum * stretch
            tr = tx.JerkTrajectory.to_position_no_sooner(duration, start, target[0], target[1],
                                                         cycle=cycle, **keywords)
            expected = _ruckig_to_state(start, target, lim, duration, cycle or None)
            assert tr.duration == pytest.approx(expected, rel=1e-9)
            past_a_gap += tr.duration > max(duration, optimum) * (1 + 1e-9) and cycle == 0
            end = tr.at(np.nextafter(tr.duration, 0))  # the phases (at the duration: the target)
            assert (float(end.position), float(end.velocity)) == pytest.approx(target[:2],
                                                                                abs=1e-9)
    assert past_a_gap >= 5
    with pytest.raises(ValueError, match="finite and >= 0"):
        tx.JerkTrajectory.to_position_no_sooner(-1.0, 0.0, 1.0, max_velocity=1,
                                                max_acceleration=1, max_jerk=1)


def test_time_synchronized_axes_to_accelerating_targets_arrive_with_ruckig():
    rng = np.random.default_rng(55)
    for _ in range(100):
        limits, starts, _, _ = _random_axes(rng)
        ends = [_random_target(rng, lim) for lim in limits]
        targets, velocities, accelerations = ([e[i] for e in ends] for i in range(3))
        tr = tx.SyncedTrajectory(starts, targets, velocities, limits=limits,
                                 acceleration=accelerations)
        expected, _ = _ruckig(starts, targets, velocities, limits, accelerations=accelerations)
        assert tr.duration == pytest.approx(expected, rel=1e-9)
        end = tr.at(np.nextafter(tr.duration, 0))  # the phases (at the duration: the target)
        assert end.position == pytest.approx(targets, abs=1e-9)
        assert end.velocity == pytest.approx(velocities, abs=1e-9)
        assert end.acceleration == pytest.approx(accelerations, abs=1e-9)
    # On a line: the start at rest, the target's velocity and acceleration along the move.
    line = tx.SyncedTrajectory([0.0, 0.0], [3.0, 4.0], [0.6, 0.8], limits=(2, 2, 2, 2),
                               acceleration=[0.3, 0.4], synchronization="phase")
    assert line.synchronization == "phase"
    expected, _ = _ruckig([(0, 0, 0)] * 2, [3.0, 4.0], [0.6, 0.8], [(2, 2, 2, 2)] * 2, "phase",
                          accelerations=[0.3, 0.4])
    assert line.duration == pytest.approx(expected, rel=1e-9)
    with pytest.raises(ValueError, match="acceleration \\(1\\)"):
        tx.SyncedTrajectory([0.0, 0.0], [3.0, 4.0], limits=(2, 2, 2, 2), acceleration=[0.3])
