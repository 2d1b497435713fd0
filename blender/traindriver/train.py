"""From Blender's data to a tractrix train: the track from curve objects, the wagons from objects,
the head's distance on each frame. Nothing here writes to the scene (keys.py does)."""

import math
import sys

import numpy as np

try:
    from . import tractrix as tx  # the copy the add-on's zip carries, built for this Python
except ImportError as missing:
    try:  # a development setup: tractrix installed into Blender's Python
        import tractrix as tx
    except ImportError:
        raise ImportError(
            f"TrainDriver: tractrix does not load in this Blender's Python "
            f"{sys.version_info[0]}.{sys.version_info[1]} ({missing}); build the add-on with that "
            "Python version: python3.X blender/build_addon.py") from None


class TrainDriverError(Exception):
    """A fault in the scene's train settings, shown in Blender's UI as it is."""


# Blender: Z up, objects facing -Y with +Z up; the wagons' forward axis as chosen.
_LOCAL = {'NEG_Y': (1, 3, -2), 'POS_Y': (-1, 3, 2), 'POS_X': (2, 3, 1), 'NEG_X': (-2, 3, -1)}
_FORWARD_INDEX = {'NEG_Y': 1, 'POS_Y': 1, 'POS_X': 0, 'NEG_X': 0}


def axes_of(settings):
    """Blender's world and quaternion order, the wagons' own forward axis."""
    return tx.EngineAxes((1, 3, -2), _LOCAL[settings.forward_axis], "wxyz")


def _world(matrix, points):
    m = np.array(matrix)
    return points @ m[:3, :3].T + m[:3, 3]


def spline_path(spline, matrix, axes, name):
    """The spline (world coordinates, tractrix's axes) as a tx.Path, and a function giving its
    tilt as Track roll keys on the measured path (None where the spline has no tilt)."""
    closed = bool(spline.use_cyclic_u)
    if spline.type == 'BEZIER':
        count = len(spline.bezier_points)
        if count < 2:
            raise TrainDriverError(f"{name}: a Bézier spline of {count} point; it needs 2")
        data = np.empty(count * 3)
        knots, left, right = (np.empty((count, 3)) for _ in range(3))
        for array, attribute in ((knots, "co"), (left, "handle_left"), (right, "handle_right")):
            spline.bezier_points.foreach_get(attribute, data)
            array[:] = data.reshape(count, 3)
        tilts = np.empty(count)
        spline.bezier_points.foreach_get("tilt", tilts)
        to = lambda p: axes.to_tractrix(_world(matrix, p))  # noqa: E731
        path = tx.Path.bezier_spline(to(knots), to(left), to(right), closed=closed)
        # Blender interpolates a Bézier spline's tilt linearly between its knots.
        return path, (lambda measured: measured.tilt_keys(tilts)) if tilts.any() else None
    count = len(spline.points)
    if count < 2:
        raise TrainDriverError(f"{name}: a {spline.type.lower()} spline of {count} point; it "
                               "needs 2")
    points = np.empty(count * 4)
    spline.points.foreach_get("co", points)
    points = points.reshape(count, 4)
    tilts = np.empty(count)
    spline.points.foreach_get("tilt", tilts)
    controls = axes.to_tractrix(_world(matrix, points[:, :3]))
    if spline.type == 'POLY':
        args = dict(order=2, closed=closed, endpoint=not closed)
        weights = None
    else:
        if spline.use_bezier_u:
            raise TrainDriverError(f"{name}: a NURBS spline with Bezier knots is not read; clear "
                                   "its Bezier option or convert it to a Bézier curve")
        if closed and spline.use_endpoint_u:
            raise TrainDriverError(f"{name}: a NURBS spline both Cyclic and Endpoint is not "
                                   "read; clear one of the two")
        args = dict(order=min(spline.order_u, count), closed=closed,
                    endpoint=bool(spline.use_endpoint_u))
        weights = points[:, 3]
    path = tx.Path.nurbs(controls, weights, **args)

    def roll(measured):  # NURBS tilt is blended by the curve's own basis functions
        t, angles = tx.Path.nurbs_tilt(tilts, controls, weights, **args)
        return measured.distance_at(t), angles
    return path, roll if tilts.any() else None


def _track_of_spline(settings, spline, matrix, axes, name):
    path, roll = spline_path(spline, matrix, axes, name)
    measured = tx.MeasuredPath(path)
    return tx.Track(measured, rotation_minimizing=settings.up == 'MINIMUM',
                    roll=roll(measured) if roll is not None else None)


def track_of(settings):
    """The Track (one curve) or Route (a network of curves) the train runs on."""
    axes = axes_of(settings)
    if settings.track_source == 'CURVE':
        curve = settings.curve
        if curve is None or curve.type != 'CURVE':
            raise TrainDriverError("Track: pick a curve object")
        if len(curve.data.splines) == 0:
            raise TrainDriverError(f"{curve.name}: the curve has no spline")
        return _track_of_spline(settings, curve.data.splines[0], curve.matrix_world, axes,
                                curve.name)
    if settings.network is None:
        raise TrainDriverError("Track: pick a collection of curve objects for the network")
    curves = sorted((o for o in settings.network.all_objects if o.type == 'CURVE'),
                    key=lambda o: o.name)
    if not curves:
        raise TrainDriverError(f"{settings.network.name}: no curve objects in the collection")
    pieces, first_of = [], {}
    for curve in curves:
        first_of[curve.name] = len(pieces)
        for i, spline in enumerate(curve.data.splines):
            pieces.append(_track_of_spline(settings, spline, curve.matrix_world, axes,
                                           f"{curve.name} spline {i}"))
    network = tx.Network(pieces)
    start = settings.start_piece or curves[0]
    if start.name not in first_of:
        raise TrainDriverError(f"Start: {start.name} is not in {settings.network.name}")
    direction = "backward" if settings.start_backward else "forward"
    return tx.Route.follow(network, network.default_settings(), (first_of[start.name], direction))


_GEOMETRY = {'MESH', 'CURVE', 'SURFACE', 'META', 'FONT', 'GPENCIL', 'VOLUME', 'POINTCLOUD',
             'CURVES'}


def wagon_objects(settings):
    """The wagons, in order of their names: the collection's objects with geometry (or a typed-in
    size), leaving out bogie objects and any object under a wagon (its parts ride with it);
    cameras, lights and empties are passed over, so an empty may carry the wagons."""
    if settings.wagons is None:
        raise TrainDriverError("Wagons: pick the collection of wagon objects")
    members = list(settings.wagons.all_objects)
    bogies = {b for o in members for b in (o.traindriver.front_bogie, o.traindriver.rear_bogie)
              if b is not None}
    candidates = {o for o in members if o not in bogies and
                  (o.type in _GEOMETRY or o.traindriver.size_from == 'TYPED')}

    def under_a_wagon(obj):
        parent = obj.parent
        while parent is not None:
            if parent in candidates:
                return True
            parent = parent.parent
        return False
    objects = sorted((o for o in candidates if not under_a_wagon(o)), key=lambda o: o.name)
    if not objects:
        raise TrainDriverError(f"{settings.wagons.name}: no objects with geometry to use as "
                               "wagons")
    return objects


def wagon_rows(settings, objects):
    """(N, 2) rows of length and bogie distance, from each object's bounds or typed in."""
    rows = []
    axis = _FORWARD_INDEX[settings.forward_axis]
    for obj in objects:
        own = obj.traindriver
        if own.size_from == 'TYPED':
            rows.append((own.length, own.bogie_distance))
            continue
        extent = obj.dimensions[axis]
        if not extent > 0:
            raise TrainDriverError(f"{obj.name}: no extent along its forward axis to size it "
                                   "by; type its length and bogie distance in")
        rows.append((extent + settings.gap, settings.bogie_ratio * extent))
    return np.array(rows, dtype=float)


def _stations(settings):
    stops = []
    for item in filter(None, (s.strip() for s in settings.stations.split(","))):
        try:
            where, dwell = (float(x) for x in item.split(":"))
        except ValueError:
            raise TrainDriverError(f"Stations: {item!r} is not distance:dwell (e.g. 120:30)") \
                from None
        stops.append((where, dwell))
    return np.array(stops, dtype=float).reshape(-1, 2)


def _animated(scene, prop, frames):
    """The scene's TrainDriver property at each frame, as its f-curve (or the value) gives it."""
    fcurve = None
    animation = scene.animation_data
    if animation is not None and (animation.drivers.find(f"traindriver.{prop}") is not None
                                  or len(animation.nla_tracks)):
        raise TrainDriverError(f"{prop.capitalize()}: a driver or NLA strips animate the scene; "
                               "TrainDriver reads the property's keys in the scene's action")
    if animation is not None and animation.action is not None:
        fcurve = animation.action.fcurves.find(f"traindriver.{prop}")
    if fcurve is None:
        return np.full(len(frames), getattr(scene.traindriver, prop), dtype=float)
    return np.array([fcurve.evaluate(f) for f in frames], dtype=float)


def heads_at(scene, track, frames):
    """The front bogie's distance along the track on each frame."""
    settings = scene.traindriver
    frames = np.asarray(frames, dtype=float)
    fps = scene.render.fps / scene.render.fps_base
    seconds = (frames - settings.frame_start) / fps
    if settings.speed_mode == 'CONSTANT':
        return settings.offset + settings.speed * seconds
    if settings.speed_mode == 'DISTANCE':
        return _animated(scene, "distance", frames)
    if settings.speed_mode == 'SPEED':
        last = int(math.ceil(frames.max())) if len(frames) else settings.frame_start
        steps = np.arange(settings.frame_start, max(last, settings.frame_start) + 1, dtype=float)
        speed = _animated(scene, "speed", steps)
        travelled = np.concatenate([[0.0], np.cumsum(0.5 * (speed[1:] + speed[:-1]))]) / fps
        return settings.offset + np.interp(frames, steps, travelled, left=0.0)
    plan = speed_plan(settings, track)
    return plan.at(np.maximum(seconds, 0.0)).position


def speed_plan(settings, track):
    if not isinstance(track, (tx.Track, tx.Route)):
        raise TrainDriverError("Speed plan: the track is neither a curve nor a route")
    limits = tx.SpeedLimits.from_curvature(track, settings.max_speed,
                                           settings.lateral_acceleration,
                                           section_length=max(track.length / 200, 1e-3))
    return tx.SpeedPlan(limits, settings.max_speed, settings.acceleration, settings.deceleration,
                        settings.jerk, start=settings.offset, stations=_stations(settings))


class Train:
    """The scene's train, solved: wagons, their bogie objects and the solver."""

    def __init__(self, scene):
        settings = scene.traindriver
        self.scene = scene
        self.track = track_of(settings)
        self.objects = wagon_objects(settings)
        self.rows = wagon_rows(settings, self.objects)
        wrap = settings.wrap.lower()
        if self.track.closed and wrap != "automatic":
            wrap = "automatic"  # a closed curve is always circular
        self.solver = tx.TrainSolver(self.track, self.rows, settings.spacing.lower(), wrap,
                                     axes=axes_of(settings))
        self.body = "body_midpoint" if settings.pivot == 'CENTER' else "body_position"
        self.bogies = [(o.traindriver.front_bogie, o.traindriver.rear_bogie) for o in self.objects]
        parts = [self.body, "body_quaternion"]
        if any(b is not None for pair in self.bogies for b in pair):
            parts += ["front_position", "front_quaternion", "rear_position", "rear_quaternion"]
        self.parts = tuple(parts)

    def solve(self, frames, after=None):
        """Poses on each frame (frames: an array), quaternions continuous from frame to frame and
        from `after`, the poses of the frame before."""
        heads = heads_at(self.scene, self.track, frames)
        if after is not None:  # its last frame's keys, where the train is still the same
            keys = {name: getattr(after, name, None) for name in self.parts
                    if name.endswith("quaternion")}
            same = all(k is not None and k.shape[-2] == len(self.objects) for k in keys.values())
            after = tx.TrainPoses({name: k[-1] for name, k in keys.items()}) if same else None
        return self.solver.solve(heads, self.parts, continuous=True, after=after)
