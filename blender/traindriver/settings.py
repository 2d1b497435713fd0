"""The add-on's settings: the scene's train (track, wagons, speed, frames) and each wagon's own
(length and bogie distance, bogie objects)."""

import bpy
from bpy.props import (BoolProperty, EnumProperty, FloatProperty, IntProperty, PointerProperty,
                       StringProperty)


def _live_changed(settings, context):
    from . import ui  # the handler lives with the UI
    ui.live_changed(settings, context)


def _is_curve(_settings, obj):
    return obj.type == 'CURVE'


class WagonSettings(bpy.types.PropertyGroup):
    """Per object: what the solver needs of a wagon."""
    size_from: EnumProperty(
        name="Size", default='BOUNDS',
        items=[('BOUNDS', "From Bounds", "Length: the object's extent along its forward axis "
                "plus the train's coupling gap; bogie distance: the train's bogie ratio of it"),
               ('TYPED', "Typed In", "The length and bogie distance typed here")])
    length: FloatProperty(
        name="Length", default=10.0, min=0.0, unit='LENGTH',
        description="Front bogie to the next wagon's front bogie, along the train")
    bogie_distance: FloatProperty(
        name="Bogie Distance", default=7.0, min=0.0, unit='LENGTH',
        description="Front bogie to rear bogie")
    front_bogie: PointerProperty(
        name="Front Bogie", type=bpy.types.Object,
        description="An object keyed on the front bogie's frame (a child of the wagon or not)")
    rear_bogie: PointerProperty(
        name="Rear Bogie", type=bpy.types.Object,
        description="An object keyed on the rear bogie's frame (a child of the wagon or not)")


class TrainSettings(bpy.types.PropertyGroup):
    """Per scene: the train, its track and how it moves."""
    track_source: EnumProperty(
        name="Track", default='CURVE',
        items=[('CURVE', "Curve", "One curve object (its first spline)"),
               ('NETWORK', "Network", "The curve objects of a collection, joined where their "
                "ends meet; the train follows the first leg at each switch")])
    curve: PointerProperty(name="Curve", type=bpy.types.Object, poll=_is_curve,
                           description="The curve the train runs on (Bézier, NURBS or poly)")
    network: PointerProperty(name="Pieces", type=bpy.types.Collection,
                             description="Curve objects, each spline a piece of the network")
    start_piece: PointerProperty(name="Start", type=bpy.types.Object, poll=_is_curve,
                                 description="The piece the route starts on (default: the first "
                                 "curve by name)")
    start_backward: BoolProperty(name="Backward", default=False,
                                 description="Start against the start piece's direction")
    up: EnumProperty(
        name="Up", default='WORLD',
        items=[('WORLD', "World Z", "Wagons stand up along world Z, rolled by the curve's tilt"),
               ('MINIMUM', "Minimum Twist", "Rotation-minimizing frames from world Z at the "
                "start, rolled by the curve's tilt")])
    wagons: PointerProperty(name="Wagons", type=bpy.types.Collection,
                            description="The wagons, locomotive first, in order of their names")
    forward_axis: EnumProperty(
        name="Forward", default='NEG_Y',
        items=[('NEG_Y', "-Y", "Models face -Y (Blender's front view)"), ('POS_Y', "+Y", ""),
               ('POS_X', "+X", ""), ('NEG_X', "-X", "")],
        description="The wagon objects' own axis that points along the track (up is their +Z)")
    pivot: EnumProperty(
        name="Origin", default='CENTER',
        items=[('CENTER', "Between Bogies", "Object origins sit midway between the bogies"),
               ('FRONT', "Front Bogie", "Object origins sit on the front bogie (the "
                "TrainDriver plugin's pivot)")])
    gap: FloatProperty(name="Coupling Gap", default=0.5, min=0.0, unit='LENGTH',
                       description="Added to each bounds-sized wagon's length")
    bogie_ratio: FloatProperty(name="Bogie Ratio", default=0.7, min=0.01, max=1.0,
                               description="A bounds-sized wagon's bogie distance, as a "
                               "fraction of its extent")
    spacing: EnumProperty(
        name="Spacing", default='CHORD',
        items=[('CHORD', "Chord", "Rigid wagons: straight-line bogie distances"),
               ('ARC', "Arc", "Distances along the track (the TrainDriver plugin's way)")])
    wrap: EnumProperty(
        name="Ends", default='AUTOMATIC',
        items=[('AUTOMATIC', "Automatic", "Round a closed curve, held at the ends of an open one"),
               ('CLAMP', "Clamp", "Held at the ends of open track"),
               ('EXTEND', "Extend", "Beyond the ends along the end tangents")])
    speed_mode: EnumProperty(
        name="Speed", default='CONSTANT',
        items=[('CONSTANT', "Constant", "One speed from the first frame"),
               ('SPEED', "Animated Speed", "The Speed property, keyed as you like, integrated "
                "frame by frame"),
               ('DISTANCE', "Animated Distance", "The Distance property: where the head is"),
               ('PLAN', "Speed Plan", "The fastest jerk-limited run under a line limit and the "
                "curves' limit, stopping at stations")])
    speed: FloatProperty(name="Speed", default=10.0, unit='VELOCITY',
                         description="Metres (scene units) a second; animatable")
    distance: FloatProperty(name="Distance", default=0.0, unit='LENGTH',
                            description="The head's distance along the track; animatable")
    offset: FloatProperty(name="Start Distance", default=0.0, unit='LENGTH',
                          description="The head's distance along the track on the first frame")
    max_speed: FloatProperty(name="Line Limit", default=20.0, min=0.001, unit='VELOCITY')
    lateral_acceleration: FloatProperty(name="Lateral Accel.", default=1.0, min=0.001,
                                        description="Limits speed in curves: sqrt(a / curvature)")
    acceleration: FloatProperty(name="Acceleration", default=1.0, min=0.001)
    deceleration: FloatProperty(name="Deceleration", default=1.0, min=0.001)
    jerk: FloatProperty(name="Jerk", default=1.0, min=0.001)
    stations: StringProperty(
        name="Stations", default="",
        description="Stops on the way as distance:dwell seconds, separated by commas "
        "(e.g. 120:30, 480:20); the plan ends at the track's end")
    frame_start: IntProperty(name="Start", default=1)
    frame_end: IntProperty(name="End", default=250)
    live: BoolProperty(name="Live", default=False, update=lambda s, c: _live_changed(s, c),
                       description="Move the wagons on every frame change instead of keys")
    message: StringProperty(name="Message", default="",
                            description="The last error of the live train")


CLASSES = (WagonSettings, TrainSettings)


def register():
    bpy.types.Object.traindriver = PointerProperty(type=WagonSettings)
    bpy.types.Scene.traindriver = PointerProperty(type=TrainSettings)


def unregister():
    del bpy.types.Scene.traindriver
    del bpy.types.Object.traindriver
