"""Writing the train into the scene: keyframes for a frame range (bake) or the poses of the
current frame (live, from a frame-change handler)."""

import bpy
import numpy as np
from mathutils import Matrix, Quaternion

from .train import Train, TrainDriverError, tx, wagon_objects

_PATHS = (("location", 3), ("rotation_quaternion", 4))


def _matrices(positions, quaternions, scale):
    """4×4 world matrices from (F, 3) positions and (F, 4) w-first quaternions, with an
    object's own scale (which keys leave as it is)."""
    out = np.zeros((len(positions), 4, 4))
    for i, (p, q) in enumerate(zip(positions, quaternions)):
        out[i] = np.array(Matrix.LocRotScale(p, Quaternion(q), scale))
    return out


def _local(obj, worlds, parent_worlds):
    """Location and w-first quaternion keys making obj's world matrix `worlds` under its parent,
    whose world matrices on those frames are parent_worlds (obj's own scale is kept)."""
    bases = np.linalg.inv(parent_worlds @ np.array(obj.matrix_parent_inverse)) @ worlds
    locations, rotations = np.empty((len(bases), 3)), np.empty((len(bases), 4))
    for i, basis in enumerate(bases):
        location, rotation, _ = Matrix(basis.tolist()).decompose()
        locations[i], rotations[i] = location, rotation
    return locations, tx.continuous_quaternions(rotations)


def _poses(train, poses):
    """{object: ((F, 3) positions, (F, 4) quaternions)} in the world, for the wagons and their
    bogie objects."""
    out = {}
    body_p, body_q = getattr(poses, train.body), poses.body_quaternion
    for w, obj in enumerate(train.objects):
        out[obj] = (body_p[:, w], body_q[:, w])
        for bogie, part in zip(train.bogies[w], ("front", "rear")):
            if bogie is not None:
                out[bogie] = (getattr(poses, part + "_position")[:, w],
                              getattr(poses, part + "_quaternion")[:, w])
    return out


def _keys_of(world_poses):
    """{object: (locations, quaternions)} in each object's parent space: a parent moved here is
    taken on its new poses, any other parent where it stands now."""
    out = {}
    for obj, (positions, quaternions) in world_poses.items():
        parent = obj.parent
        if parent is None:
            out[obj] = (positions, quaternions)
            continue
        if parent in world_poses:
            parent_world = _matrices(*world_poses[parent], parent.scale)
        else:
            parent_world = np.broadcast_to(np.array(parent.matrix_world), (len(positions), 4, 4))
        out[obj] = _local(obj, _matrices(positions, quaternions, None), parent_world)
    return out


_GROUP = "TrainDriver"
_TRANSFORMS = ("location", "rotation_quaternion", "rotation_euler", "rotation_axis_angle")


def clear(obj):
    """Removes the keys TrainDriver wrote (its f-curve group) from obj, and nothing else."""
    action = obj.animation_data.action if obj.animation_data else None
    if action is None:
        return
    for fcurve in [f for f in action.fcurves if f.group is not None and f.group.name == _GROUP]:
        action.fcurves.remove(fcurve)


def _check_own_keys(objects):
    """Objects whose location or rotation the user keyed: TrainDriver would fight those keys."""
    for obj in objects:
        action = obj.animation_data.action if obj.animation_data else None
        if action is None:
            continue
        for fcurve in action.fcurves:
            if fcurve.data_path in _TRANSFORMS and (fcurve.group is None or
                                                    fcurve.group.name != _GROUP):
                raise TrainDriverError(
                    f"{obj.name}: has its own {fcurve.data_path} keys; TrainDriver keys location "
                    "and rotation — remove those keys, or parent the object to an empty and key "
                    "the empty")


def _write(obj, frames, values):
    obj.rotation_mode = 'QUATERNION'
    clear(obj)
    if obj.animation_data is None:
        obj.animation_data_create()
    if obj.animation_data.action is None:
        obj.animation_data.action = bpy.data.actions.new(obj.name + "TrainDriver")
    action = obj.animation_data.action
    for (path, width), array in zip(_PATHS, values):
        for index in range(width):
            fcurve = action.fcurves.new(path, index=index, action_group=_GROUP)
            fcurve.keyframe_points.add(len(frames))
            co = np.empty(2 * len(frames))
            co[0::2], co[1::2] = frames, array[:, index]
            fcurve.keyframe_points.foreach_set("co", co)
            fcurve.keyframe_points.foreach_set(
                "interpolation", [bpy.types.Keyframe.bl_rna.properties["interpolation"]
                                  .enum_items["LINEAR"].value] * len(frames))
            fcurve.update()


def bake(scene):
    """Keys every wagon (and bogie object) on each frame of the scene's range; returns the
    number of objects keyed."""
    settings = scene.traindriver
    if settings.frame_end < settings.frame_start:
        raise ValueError(f"Frames: end {settings.frame_end} is before start "
                         f"{settings.frame_start}")
    train = Train(scene)
    frames = np.arange(settings.frame_start, settings.frame_end + 1, dtype=float)
    keys = _keys_of(_poses(train, train.solve(frames)))
    _check_own_keys(keys)
    for obj, values in keys.items():
        _write(obj, frames, values)
    return len(keys)


def pose(scene, after=None):
    """Moves the wagons to the current frame's poses (no keys); returns the poses, for the
    next frame's continuity."""
    train = Train(scene)
    poses = train.solve(np.array([float(scene.frame_current)]), after)
    for obj, (locations, rotations) in _keys_of(_poses(train, poses)).items():
        obj.rotation_mode = 'QUATERNION'
        obj.location, obj.rotation_quaternion = locations[0], rotations[0]
    return poses


def wagon_objects_and_bogies(settings):
    """The objects TrainDriver keys: the wagons and their bogie objects."""
    objects = wagon_objects(settings)
    return objects + [b for o in objects for b in (o.traindriver.front_bogie,
                                                   o.traindriver.rear_bogie) if b is not None]
