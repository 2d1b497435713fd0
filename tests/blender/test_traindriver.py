"""TrainDriver in the real Blender: installs the add-on zip, builds a train on a Bézier
figure-eight and checks the baked keys against Blender's own evaluation of the curve and of the
objects' world matrices; then drives the same train through the live handler, runs a train over a
network of two curves, and renders one frame.

    blender -b --factory-startup --python-exit-code 1 --python tests/blender/test_traindriver.py \
        -- build/blender/traindriver.zip build/blender

Every check prints its worst value; any failure raises, and Blender exits with 1.
"""

import math
import os
import sys

import bpy
import numpy as np

ZIP, OUT = sys.argv[sys.argv.index("--") + 1:][:2]
FRAMES = (1, 120)
# A figure-eight through its knots, Blender's automatic handles; metres, a model railway's size
# in a scene of tens of metres (Blender's evaluation is float32: 1e-5 is ~100 of its steps here).
EIGHT = [(0, 0, 0), (10, 7, 0.8), (20, 0, 1.6), (10, -7, 0.8), (0, 0, 0.2), (-10, 7, 0.8),
         (-20, 0, 0), (-10, -7, 0.4)]
WAGON = (1.0, 3.2, 1.2)  # x, y (forward), z extent
checks = []


def check(name, worst, limit):
    checks.append((name, worst, limit))
    print(f"{'ok  ' if worst <= limit else 'FAIL'} {name}: {worst:.3g} (limit {limit:g})")


def install():
    bpy.ops.preferences.addon_install(filepath=os.path.abspath(ZIP), overwrite=True)
    bpy.ops.preferences.addon_enable(module="traindriver")
    import traindriver  # noqa: F401  (installed by the zip)
    from traindriver import train
    assert train.tx.__file__.startswith(os.path.dirname(traindriver.__file__)), \
        "the add-on must load the tractrix it carries"
    print("TrainDriver with tractrix", train.tx.__version__, "from", train.tx.__file__)


def bezier_curve(name, knots, cyclic, location=(0, 0, 0), rotation=(0, 0, 0), scale=(1, 1, 1)):
    data = bpy.data.curves.new(name, "CURVE")
    data.dimensions = '3D'
    spline = data.splines.new('BEZIER')
    spline.bezier_points.add(len(knots) - 1)
    for point, co in zip(spline.bezier_points, knots):
        point.co = co
        point.handle_left_type = point.handle_right_type = 'AUTO'
    spline.use_cyclic_u = cyclic
    obj = bpy.data.objects.new(name, data)
    obj.location, obj.rotation_euler, obj.scale = location, rotation, scale
    bpy.context.scene.collection.objects.link(obj)
    return obj


def wagons(name, count, size):
    collection = bpy.data.collections.new(name)
    bpy.context.scene.collection.children.link(collection)
    objects = []
    for i in range(count):
        mesh = bpy.data.meshes.new(f"{name}{i}")
        x, y, z = (s / 2 for s in size)
        corners = [(sx * x, sy * y, sz * z) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
        faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
        mesh.from_pydata(corners, [], faces)
        obj = bpy.data.objects.new(f"{name}{i:02d}", mesh)
        collection.objects.link(obj)
        objects.append(obj)
    return collection, objects


def blender_curve_points(obj, resolution):
    """Blender's evaluation of the curve in the world, `resolution` points a segment."""
    obj.data.resolution_u = resolution
    depsgraph = bpy.context.evaluated_depsgraph_get()
    evaluated = obj.evaluated_get(depsgraph)
    mesh = evaluated.to_mesh()
    points = np.empty(len(mesh.vertices) * 3)
    mesh.vertices.foreach_get("co", points)
    evaluated.to_mesh_clear()
    m = np.array(obj.matrix_world)
    return points.reshape(-1, 3) @ m[:3, :3].T + m[:3, 3]


def blender_segments(obj):
    """Each Bézier segment of the curve as Blender evaluates it: the cubic through its points at
    t = 0, 1/3, 2/3, 1 (resolution 3), rebuilt by Lagrange interpolation — exact for a cubic, so
    these are Blender's own segments to its float32 rounding. (4, 3) power coefficients each."""
    points = blender_curve_points(obj, 3)
    closed = obj.data.splines[0].use_cyclic_u
    count = len(points) // 3 if closed else (len(points) - 1) // 3
    samples = np.array([[points[(3 * i + k) % len(points)] for k in range(4)]
                        for i in range(count)])
    t = np.array([0, 1 / 3, 2 / 3, 1])
    vandermonde = t[:, None] ** np.arange(4)
    return np.linalg.solve(vandermonde, samples)  # (count, 4, 3)


def closest_on_segments(queries, segments):
    """Distance from each query to the nearest of the cubic segments, and the unit tangent there:
    on each segment the best of 401 samples refined by Gauss-Newton steps on
    (C(t) - q)·C'(t) = 0 (clamped to the segment, so a point at a segment's end is found from
    the neighbour too), the least of them."""
    t = np.linspace(0, 1, 401)
    powers = t[:, None] ** np.arange(4)
    curve = np.einsum("tk,skd->std", powers, segments)  # (segments, t, 3)
    c0, c1, c2, c3 = (segments[:, k] for k in range(4))
    gaps, tangents = [], []
    for q in queries:
        x = t[((curve - q) ** 2).sum(-1).argmin(axis=1)]
        for _ in range(8):  # quadratic convergence where the point is on the curve
            p = c0 + x[:, None] * (c1 + x[:, None] * (c2 + x[:, None] * c3))
            d1 = c1 + x[:, None] * (2 * c2 + 3 * x[:, None] * c3)
            x = np.clip(x - ((p - q) * d1).sum(1) / (d1 * d1).sum(1), 0, 1)
        p = c0 + x[:, None] * (c1 + x[:, None] * (c2 + x[:, None] * c3))
        d1 = c1 + x[:, None] * (2 * c2 + 3 * x[:, None] * c3)
        best = int(np.sqrt(((p - q) ** 2).sum(1)).argmin())
        gaps.append(np.linalg.norm(p[best] - q))
        tangents.append(d1[best] / np.linalg.norm(d1[best]))
    return np.array(gaps), np.array(tangents)


def world(obj):
    return np.array(obj.matrix_world)


def train_scene():
    scene = bpy.context.scene
    for obj in list(scene.objects):
        bpy.data.objects.remove(obj)
    curve = bezier_curve("Eight", EIGHT, True, location=(1, -2, 0.5), rotation=(0, 0, 0.4),
                         scale=(1.2, 1.2, 1.2))
    collection, cars = wagons("Wagon", 8, WAGON)
    bpy.context.view_layer.update()  # Blender computes the automatic handles
    s = scene.traindriver
    s.curve, s.wagons = curve, collection
    s.gap, s.bogie_ratio, s.speed = 0.3, 0.7, 6.0
    s.frame_start, s.frame_end = FRAMES
    # Two wagons carry bogie objects, children of the wagon; the second is scaled (its size
    # typed in, as its bounds grew), and a camera in the collection is passed over.
    cars[1].scale = (1.1, 1.1, 1.1)
    cars[1].traindriver.size_from = 'TYPED'
    cars[1].traindriver.length, cars[1].traindriver.bogie_distance = WAGON[1] + s.gap, 0.7 * WAGON[1]
    collection.objects.link(bpy.data.objects.new("WagonCamera", bpy.data.cameras.new("C")))
    for car in cars[:2]:
        for part in ("front_bogie", "rear_bogie"):
            bogie = bpy.data.objects.new(f"{car.name}_{part}", None)
            bogie.parent = car
            collection.objects.link(bogie)
            setattr(car.traindriver, part, bogie)
    return scene, curve, cars


def test_bake(scene, curve, cars):
    assert bpy.ops.traindriver.bake() == {'FINISHED'}
    segments = blender_segments(curve)
    s = scene.traindriver
    length, bogie = WAGON[1] + s.gap, s.bogie_ratio * WAGON[1]
    on_curve = spacing = forward_error = up_error = couple = 0.0
    bogie_gap = bogie_tangent = 0.0
    poses = {}
    for frame in range(FRAMES[0], FRAMES[1] + 1, 7):
        scene.frame_set(frame)
        fronts, rears = [], []
        for car in cars:
            m = world(car)
            forward, up = -m[:3, 1] / np.linalg.norm(m[:3, 1]), m[:3, 2] / np.linalg.norm(m[:3, 2])
            # The bogies where the wagon's pose puts them: on Blender's curve only if the
            # wagon's position and its -Y are right.
            fronts.append(m[:3, 3] + forward * bogie / 2)
            rears.append(m[:3, 3] - forward * bogie / 2)
            poses[(frame, car.name)] = m
            side = np.cross(forward, (0, 0, 1))
            up_error = max(up_error, abs(up @ side) / np.linalg.norm(side), -up[2])
        gaps, _ = closest_on_segments(np.array(fronts + rears), segments)
        on_curve = max(on_curve, gaps.max())
        # chord spacing: a wagon's rear bogie to the next one's front, length - bogie distance
        couple = max(couple, max(abs(np.linalg.norm(rears[i] - fronts[i + 1]) - (length - bogie))
                                 for i in range(len(cars) - 1)))
        # The bogie objects, keyed from the bogies' own frames (one under a scaled wagon).
        for car in cars[:2]:
            front, rear = (world(getattr(car.traindriver, part))
                           for part in ("front_bogie", "rear_bogie"))
            gaps, tangents = closest_on_segments(np.array([front[:3, 3], rear[:3, 3]]), segments)
            bogie_gap = max(bogie_gap, gaps.max())
            for m, tangent in ((front, tangents[0]), (rear, tangents[1])):
                own = -m[:3, 1] / np.linalg.norm(m[:3, 1])
                bogie_tangent = max(bogie_tangent, np.linalg.norm(np.cross(own, tangent)))
            chord = front[:3, 3] - rear[:3, 3]
            spacing = max(spacing, abs(np.linalg.norm(chord) - bogie))
            body = -world(car)[:3, 1] / np.linalg.norm(world(car)[:3, 1])
            forward_error = max(forward_error,
                                np.linalg.norm(np.cross(chord / np.linalg.norm(chord), body)))
    check("bogies (by each wagon's pose) on Blender's evaluated curve (m)", on_curve, 1e-5)
    check("chord from a rear bogie to the next front - (length - bogie distance) (m)", couple,
          1e-5)
    check("wagon +Z off the vertical plane through its -Y", up_error, 1e-5)
    check("bogie objects on Blender's curve (m)", bogie_gap, 1e-5)
    check("bogie objects' -Y against Blender's tangent (rad)", bogie_tangent, 1e-5)
    check("bogie objects' chord - bogie distance (m)", spacing, 1e-5)
    check("wagon -Y against its bogie objects' chord (rad)", forward_error, 1e-5)
    flips, worst = 0, 1.0
    for car in cars + [cars[0].traindriver.front_bogie]:
        curves = [f for f in car.animation_data.action.fcurves
                  if f.data_path == "rotation_quaternion"]
        assert len(curves) == 4 and len(curves[0].keyframe_points) == FRAMES[1] - FRAMES[0] + 1
        keys = np.array([[k.co[1] for k in f.keyframe_points] for f in curves]).T
        dots = (keys[1:] * keys[:-1]).sum(1)
        flips += int((dots < 0).sum())
        worst = min(worst, dots.min())
    check("quaternion keys flipping sign between frames", flips, 0)
    check("1 - smallest dot of consecutive quaternion keys", 1 - worst, 0.05)
    return poses


def test_live(scene, cars, baked):
    assert bpy.ops.traindriver.clear() == {'FINISHED'}
    assert cars[0].animation_data.action.fcurves.find("location") is None
    scene.traindriver.live = True
    worst = 0.0
    for frame in range(FRAMES[0], FRAMES[1] + 1, 7):
        scene.frame_set(frame)
        bpy.context.view_layer.update()
        for car in cars:
            worst = max(worst, np.abs(world(car) - baked[(frame, car.name)]).max())
    scene.traindriver.live = False
    check("live poses - baked poses", worst, 1e-5)
    assert scene.traindriver.message == ""


def test_errors(scene):
    curve = scene.traindriver.curve
    scene.traindriver.curve = None
    try:
        bpy.ops.traindriver.bake()
        raise AssertionError("a bake without a curve must fail")
    except RuntimeError as error:  # the operator's report, in background mode
        assert "Track: pick a curve object" in str(error), error
        assert "Traceback" not in str(error), error
    scene.traindriver.curve = curve
    # A wagon the user keyed: refused by name, nothing of its keys removed.
    car = scene.traindriver.wagons.objects[3]
    car.keyframe_insert("location", frame=3)
    try:
        bpy.ops.traindriver.bake()
        raise AssertionError("a bake over the user's own keys must fail")
    except RuntimeError as error:
        assert f"{car.name}: has its own location keys" in str(error), error
    assert bpy.ops.traindriver.clear() == {'FINISHED'}
    user = [f for f in car.animation_data.action.fcurves
            if f.group is None or f.group.name != "TrainDriver"]
    assert len(user) == 3, "Clear Keys removes TrainDriver's keys only"
    for fcurve in user:
        car.animation_data.action.fcurves.remove(fcurve)
    scene.traindriver.live = True
    scene.traindriver.wagons = None
    scene.frame_set(5)
    assert scene.traindriver.message == "Wagons: pick the collection of wagon objects", \
        scene.traindriver.message
    scene.traindriver.live = False


def test_network():
    """Two open curves meeting end to start: a network; the train crosses the joint."""
    scene = bpy.data.scenes.new("Network")
    bpy.context.window.scene = scene if bpy.context.window else None
    pieces = bpy.data.collections.new("Pieces")
    scene.collection.children.link(pieces)
    a = bezier_curve("A", [(0, 0, 0), (20, 0, 0)], False)
    b = bezier_curve("B", [(20, 0, 0), (40, 15, 0)], False)
    for obj in (a, b):
        bpy.context.scene.collection.objects.unlink(obj)
        pieces.objects.link(obj)
        spline = obj.data.splines[0]
        for point in spline.bezier_points:
            point.handle_left_type = point.handle_right_type = 'FREE'
        p0, p1 = spline.bezier_points
    a.data.splines[0].bezier_points[0].handle_right = (5, 0, 0)
    a.data.splines[0].bezier_points[1].handle_left = (15, 0, 0)
    b.data.splines[0].bezier_points[0].handle_right = (27, 0, 0)
    b.data.splines[0].bezier_points[1].handle_left = (35, 10, 0)
    collection, cars = wagons("Car", 3, (1.0, 3.0, 1.0))
    bpy.context.scene.collection.children.unlink(collection)
    scene.collection.children.link(collection)
    s = scene.traindriver
    s.track_source, s.network, s.wagons = 'NETWORK', pieces, collection
    s.speed, s.offset, s.frame_start, s.frame_end = 4.0, 12.0, 1, 120
    with bpy.context.temp_override(scene=scene):
        assert bpy.ops.traindriver.bake() == {'FINISHED'}
    segments = np.concatenate([blender_segments(a), blender_segments(b)])
    worst = 0.0
    for frame in (1, 60, 120):
        scene.frame_set(frame)
        for car in cars:
            m = world(car)
            forward = -m[:3, 1] / np.linalg.norm(m[:3, 1])
            bogies = np.array([m[:3, 3] + forward * 1.05, m[:3, 3] - forward * 1.05])
            worst = max(worst, closest_on_segments(bogies, segments)[0].max())
    check("network: bogies on Blender's curves (m)", worst, 1e-5)
    scene.frame_set(120)
    check("network: the last wagon crossed onto the second curve (m short of x = 20)",
          20.0 - world(cars[-1])[0, 3], 0.0)


def test_nurbs_and_poly_splines():
    """NURBS (orders 2 to 5, Endpoint, Cyclic, weights) and poly splines: every point Blender
    evaluates lies on the path the add-on reads from the spline, and the ends are Blender's."""
    from traindriver import train
    axes = train.axes_of(bpy.context.scene.traindriver)
    rng = np.random.default_rng(3)
    controls = [(0, 0, 0), (4, 5, 0.5), (9, 4, 1), (12, -1, 0), (17, 2, 1.5), (20, 6, 0), (24, 3, 1)]
    worst_inside = worst_ends = 0.0
    cases = [(kind, order, endpoint, cyclic, weighted)
             for kind, order in (('POLY', 2), ('NURBS', 2), ('NURBS', 3), ('NURBS', 4), ('NURBS', 5))
             for endpoint in (False, True) for cyclic in (False, True) for weighted in (False, True)
             if not (kind == 'POLY' and (endpoint or weighted))]
    refused = 0
    for kind, order, endpoint, cyclic, weighted in cases:
        data = bpy.data.curves.new("n", "CURVE")
        data.dimensions, data.resolution_u = '3D', 12
        spline = data.splines.new(kind)
        spline.points.add(len(controls) - 1)
        weights = rng.uniform(0.5, 2.0, len(controls)) if weighted else np.ones(len(controls))
        for point, co, w in zip(spline.points, controls, weights):
            point.co = (*co, w)
        spline.order_u, spline.use_endpoint_u, spline.use_cyclic_u = order, endpoint, cyclic
        obj = bpy.data.objects.new("n", data)
        obj.location, obj.rotation_euler = (2, 1, 0), (0.2, 0, 0.5)
        bpy.context.scene.collection.objects.link(obj)
        bpy.context.view_layer.update()
        if kind == 'NURBS' and endpoint and cyclic:  # Blender's own knots there: not read
            try:
                train.spline_path(spline, obj.matrix_world, axes, obj.name)
            except train.TrainDriverError as error:
                assert "both Cyclic and Endpoint is not read" in str(error), error
                refused += 1
            bpy.data.objects.remove(obj)
            continue
        path, _ = train.spline_path(spline, obj.matrix_world, axes, obj.name)
        measured = train.tx.MeasuredPath(path)
        points = axes.to_tractrix(blender_curve_points(obj, 12))
        worst_inside = max(worst_inside, measured.closest_point(points).gap.max())
        if not cyclic:
            ends = measured.point_at([0.0, measured.length])
            worst_ends = max(worst_ends, np.abs(ends - points[[0, -1]]).max())
        bpy.data.objects.remove(obj)
    check(f"NURBS and poly: Blender's points off the path, {len(cases) - refused} splines (m)",
          worst_inside, 1e-5)
    check("NURBS both Cyclic and Endpoint: not refused", 8 - refused, 0)
    check("NURBS and poly: open ends against Blender's (m)", worst_ends, 1e-5)


def tilted_curve(kind, tilts):
    """A curve of `kind` (Bézier with automatic handles, NURBS order 4 with weights, poly) through
    four points, with those tilts."""
    points = [(0, 0, 0), (12, 4, 0), (20, 14, 2), (30, 16, 2)]
    if kind == 'BEZIER':
        curve = bezier_curve("Tilted", points, False)
        items = curve.data.splines[0].bezier_points
    else:
        data = bpy.data.curves.new("Tilted", "CURVE")
        data.dimensions = '3D'
        spline = data.splines.new(kind)
        spline.points.add(len(points) - 1)
        for point, co, w in zip(spline.points, points, (1.0, 1.6, 0.7, 1.0)):
            point.co = (*co, w if kind == 'NURBS' else 1.0)
        spline.order_u, spline.use_endpoint_u = 4, True
        curve = bpy.data.objects.new("Tilted", data)
        bpy.context.scene.collection.objects.link(curve)
        items = spline.points
    for item, tilt in zip(items, tilts):
        item.tilt = tilt
    curve.data.twist_mode, curve.data.resolution_u = 'Z_UP', 64
    bpy.context.view_layer.update()
    return curve


def roll(rotation):
    """The roll of an object frame (-Y forward, +Z up) about its forward axis, from upright
    (+Z in the vertical plane through forward); positive turns +Z to the right of travel.
    (Follow Path on a poly spline turns the forward axis gradually between points where the
    track's direction jumps; the roll about it is still the tilt.)"""
    forward = -rotation[:, 1] / np.linalg.norm(rotation[:, 1])
    up = rotation[:, 2] / np.linalg.norm(rotation[:, 2])
    upright = np.array([0.0, 0.0, 1.0]) - forward[2] * forward
    upright /= np.linalg.norm(upright)
    right = np.cross(forward, upright)
    return np.arctan2(up @ right, up @ upright)


def test_tilt():
    """Tilt: an object on Blender's Follow Path constraint (Z up twist, following the curve, -Y
    forward, +Z up) is turned about the track as the add-on's wagons are, on Bézier, NURBS and
    poly splines."""
    from traindriver import train
    scene = bpy.context.scene
    s = scene.traindriver
    for kind, limit in (('BEZIER', 0.02), ('NURBS', 0.02), ('POLY', 0.02)):
        curve = tilted_curve(kind, (0.0, 0.5, -0.3, 0.2))
        s.track_source, s.curve, s.up = 'CURVE', curve, 'WORLD'
        track, axes = train.track_of(s), train.axes_of(s)
        follower = bpy.data.objects.new("Follower", None)
        scene.collection.objects.link(follower)
        follow = follower.constraints.new('FOLLOW_PATH')
        follow.target, follow.use_curve_follow, follow.use_fixed_location = curve, True, True
        follow.forward_axis, follow.up_axis = 'TRACK_NEGATIVE_Y', 'UP_Z'
        curve.data.update_tag()  # the constraint needs the curve's path: evaluate it again
        worst = 0.0
        for offset in np.linspace(0.02, 0.98, 49):
            follow.offset_factor = offset
            bpy.context.view_layer.update()
            m = np.array(follower.matrix_world)
            distance = track.path.closest_point(axes.to_tractrix(m[:3, 3])).distance
            ours = axes.rotation(track.frame_at(distance).rotation)
            worst = max(worst, abs(roll(ours) - roll(m[:3, :3])))
        check(f"tilt on a {kind.lower()} spline (up to 0.5 rad): roll against Follow Path's "
              "(rad)", worst, limit)
        bpy.data.objects.remove(follower)
        bpy.data.objects.remove(curve)


def test_speed_modes():
    """Animated distance, animated speed and the speed plan move the train where Blender's own
    f-curve evaluation (and the plan's closed forms) say."""
    from traindriver import train
    tx = train.tx
    scene = bpy.context.scene
    line = bezier_curve("Line", [(0, 30, 0), (60, 30, 0)], False)
    collection, cars = wagons("Speed", 2, (1.0, 3.0, 1.0))
    s = scene.traindriver
    s.track_source, s.curve, s.wagons, s.pivot = 'CURVE', line, collection, 'FRONT'
    s.frame_start, s.frame_end = 1, 121
    fps = scene.render.fps / scene.render.fps_base
    solver = tx.TrainSolver(train.track_of(s), train.wagon_rows(s, cars),
                            axes=train.axes_of(s))

    def head_error(frames, heads):
        """The locomotive's origin (its front bogie) against tractrix's solve at those heads."""
        worst = 0.0
        for frame, head in zip(frames, heads):
            scene.frame_set(frame)
            expected = solver.solve(head, parts=("body_position",)).body_position[0]
            worst = max(worst, np.linalg.norm(world(cars[0])[:3, 3] - expected))
        return worst

    # Animated distance: keyed 5 at frame 1 and 50 at frame 101 (Blender's Bézier easing).
    s.speed_mode = 'DISTANCE'
    for frame, value in ((1, 5.0), (101, 50.0)):
        s.distance = value
        scene.keyframe_insert('traindriver.distance', frame=frame)
    assert bpy.ops.traindriver.bake() == {'FINISHED'}
    fcurve = scene.animation_data.action.fcurves.find('traindriver.distance')
    frames = (1, 30, 64, 101, 121)
    check("animated distance: locomotive at Blender's f-curve value (m)",
          head_error(frames, [fcurve.evaluate(f) for f in frames]), 1e-5)
    # Animated speed: a linear ramp 0 → 6 m/s over frames 1 → 61, then held: the distance is
    # the ramp's area (trapezoids integrate it exactly).
    s.speed_mode, s.offset = 'SPEED', 2.0
    for frame, value in ((1, 0.0), (61, 6.0)):
        s.speed = value
        scene.keyframe_insert('traindriver.speed', frame=frame)
    for key in scene.animation_data.action.fcurves.find('traindriver.speed').keyframe_points:
        key.interpolation = 'LINEAR'
    assert bpy.ops.traindriver.bake() == {'FINISHED'}
    def travelled(f):
        t, ramp = (f - 1) / fps, 60 / fps
        return 2.0 + (3.0 * t * t / ramp if t <= ramp else 3.0 * ramp + 6.0 * (t - ramp))
    check("animated speed: locomotive at the integral of the speed (m)",
          head_error(frames, [travelled(f) for f in frames]), 1e-5)
    # A speed plan stopping at a station for 1 s and at the end of the line.
    s.speed_mode, s.offset, s.stations = 'PLAN', 0.0, "20:1"
    s.max_speed, s.acceleration, s.deceleration, s.jerk = 8.0, 2.0, 2.0, 4.0
    s.frame_end = 1 + int(18 * fps)  # the plan takes 17.3 s
    assert bpy.ops.traindriver.bake() == {'FINISHED'}
    positions = []
    for frame in range(1, s.frame_end + 1):
        scene.frame_set(frame)
        positions.append(world(cars[0])[:3, 3].copy())
    along = np.array([p[0] for p in positions]) - world(line)[0, 3]
    still = np.flatnonzero(np.abs(np.diff(along)) < 1e-9)
    at_station = still[np.abs(along[still] - 20.0) < 0.5]
    check("speed plan: standing still near the station, off 20 m by (m)",
          np.abs(along[at_station] - 20.0).max() if len(at_station) else 1.0, 1e-6)
    check("speed plan: frames standing at the station - 1 s of frames",
          abs(len(at_station) - fps), 1.0)
    check("speed plan: stopped at the end of the line, off 60 m by (m)",
          abs(along[-1] - 60.0), 1e-6)
    check("speed plan: never backwards (m)", max(0.0, -np.diff(along).min()), 0.0)
    s.stations = "20:1, oops"
    try:
        bpy.ops.traindriver.bake()
        raise AssertionError("a bad station must fail")
    except RuntimeError as error:
        assert "Stations: 'oops' is not distance:dwell" in str(error), error
    s.stations, s.speed_mode = "", 'CONSTANT'
    for obj in cars + [line]:
        bpy.data.objects.remove(obj)


class _Layout:
    """Stands in for a panel's layout: every property drawn must exist, every button an
    operator."""

    def __init__(self):
        self.drawn = []

    def __getattr__(self, name):
        return self._any

    def _any(self, *args, **kwargs):
        return self

    def prop(self, data, name, **kwargs):
        assert name in data.bl_rna.properties, f"panel draws a missing property {name!r}"
        self.drawn.append(name)

    def operator(self, idname, **kwargs):
        category, name = idname.split(".")
        assert hasattr(getattr(bpy.ops, category), name), f"panel's button {idname} is missing"
        self.drawn.append(idname)


def test_panel_draws():
    from traindriver import ui
    scene = bpy.context.scene
    drawn = set()
    for source in ('CURVE', 'NETWORK'):
        for mode in ('CONSTANT', 'SPEED', 'DISTANCE', 'PLAN'):
            scene.traindriver.track_source, scene.traindriver.speed_mode = source, mode
            panel = type("Panel", (), {"layout": _Layout()})()
            ui.TRAINDRIVER_PT_panel.draw(panel, bpy.context)
            drawn.update(panel.layout.drawn)
    settings = set(scene.traindriver.bl_rna.properties.keys()) - {"rna_type", "name", "message"}
    missing = sorted(settings - drawn)
    check(f"panel: settings not drawn ({', '.join(missing)})", len(missing), 0)
    scene.traindriver.track_source, scene.traindriver.speed_mode = 'CURVE', 'CONSTANT'


def render(scene, cars):
    camera = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
    scene.collection.objects.link(camera)
    # Square to the figure-eight (turned 0.4 rad about Z, centred on (1, -2)).
    camera.location = (1 + 50 * math.sin(0.4), -2 - 50 * math.cos(0.4), 40)
    camera.rotation_euler = (math.radians(51), 0, 0.4)
    bpy.ops.mesh.primitive_plane_add(size=120, location=(0, 0, -0.7))
    bpy.context.object.color = (0.55, 0.6, 0.5, 1)
    for i, car in enumerate(cars):
        car.color = (0.75, 0.2 + 0.08 * i, 0.15, 1) if i else (0.15, 0.25, 0.6, 1)
    scene.camera = camera
    scene.frame_set(60)
    scene.render.engine = 'BLENDER_WORKBENCH'
    scene.render.resolution_x, scene.render.resolution_y = 800, 400
    scene.render.image_settings.color_mode, scene.render.image_settings.compression = 'RGB', 100
    camera.data.lens = 44
    scene.render.filepath = os.path.abspath(os.path.join(OUT, "traindriver.png"))
    scene.display.shading.color_type = 'OBJECT'
    curve = scene.traindriver.curve
    curve.data.bevel_depth, curve.data.resolution_u = 0.12, 64
    curve.color = (0.2, 0.2, 0.2, 1)
    bpy.ops.render.render(write_still=True)
    print("rendered", scene.render.filepath)


def main():
    install()
    scene, curve, cars = train_scene()
    baked = test_bake(scene, curve, cars)
    test_live(scene, cars, baked)
    test_errors(scene)
    test_nurbs_and_poly_splines()
    if os.environ.get("TRAINDRIVER_RENDER", "1") == "1":
        render(scene, cars)
    test_tilt()
    test_speed_modes()
    test_panel_draws()
    test_network()
    failed = [c for c in checks if not c[1] <= c[2]]
    if failed:
        raise SystemExit(f"{len(failed)} of {len(checks)} TrainDriver checks failed")
    print(f"all {len(checks)} TrainDriver checks passed")


main()
