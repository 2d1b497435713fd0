"""The TrainDriver tab of the 3-D view's sidebar, its buttons and the live handler."""

import bpy
from bpy.app.handlers import persistent

from . import keys
from .train import TrainDriverError, tx

# What the library and the settings raise for a scene it cannot solve: shown, never a traceback.
FAULTS = (TrainDriverError, ValueError, TypeError, IndexError)


class TRAINDRIVER_OT_bake(bpy.types.Operator):
    """Key the wagons on every frame of the range (replacing TrainDriver's earlier keys)"""
    bl_idname = "traindriver.bake"
    bl_label = "Bake"
    bl_options = {'REGISTER', 'UNDO'}

    def execute(self, context):
        try:
            count = keys.bake(context.scene)
        except FAULTS as error:
            self.report({'ERROR'}, str(error))
            return {'CANCELLED'}
        settings = context.scene.traindriver
        self.report({'INFO'}, f"TrainDriver: keyed {count} objects on frames "
                    f"{settings.frame_start}-{settings.frame_end}")
        return {'FINISHED'}


class TRAINDRIVER_OT_clear(bpy.types.Operator):
    """Remove TrainDriver's keys (location and rotation) from the wagons and bogie objects"""
    bl_idname = "traindriver.clear"
    bl_label = "Clear Keys"
    bl_options = {'REGISTER', 'UNDO'}

    def execute(self, context):
        settings = context.scene.traindriver
        try:
            objects = keys.wagon_objects_and_bogies(settings)
        except FAULTS as error:
            self.report({'ERROR'}, str(error))
            return {'CANCELLED'}
        for obj in objects:
            keys.clear(obj)
        return {'FINISHED'}


class TRAINDRIVER_OT_use_frame_range(bpy.types.Operator):
    """Take the scene's frame range"""
    bl_idname = "traindriver.use_frame_range"
    bl_label = "Scene Range"

    def execute(self, context):
        scene = context.scene
        scene.traindriver.frame_start, scene.traindriver.frame_end = (scene.frame_start,
                                                                      scene.frame_end)
        return {'FINISHED'}


_previous = {}  # scene name → the poses of the frame before, for continuous live quaternions


@persistent
def live_update(scene, _depsgraph=None):
    settings = scene.traindriver
    if not settings.live:
        return
    try:
        _previous[scene.name] = keys.pose(scene, _previous.get(scene.name))
        settings.message = ""
    except FAULTS as error:
        _previous.pop(scene.name, None)
        settings.message = str(error)


def live_changed(settings, context):
    _previous.clear()
    if settings.live:
        live_update(context.scene)


class TRAINDRIVER_PT_panel(bpy.types.Panel):
    bl_label = "TrainDriver"
    bl_space_type = 'VIEW_3D'
    bl_region_type = 'UI'
    bl_category = "TrainDriver"

    def draw(self, context):
        layout = self.layout
        s = context.scene.traindriver
        box = layout.box()
        box.prop(s, "track_source", expand=True)
        if s.track_source == 'CURVE':
            box.prop(s, "curve")
        else:
            box.prop(s, "network")
            row = box.row()
            row.prop(s, "start_piece")
            row.prop(s, "start_backward")
        box.prop(s, "up")
        box = layout.box()
        box.prop(s, "wagons")
        box.prop(s, "forward_axis")
        box.prop(s, "pivot")
        row = box.row()
        row.prop(s, "gap")
        row.prop(s, "bogie_ratio")
        row = box.row()
        row.prop(s, "spacing", expand=True)
        box.prop(s, "wrap")
        box = layout.box()
        box.prop(s, "speed_mode")
        if s.speed_mode in ('CONSTANT', 'SPEED', 'PLAN'):
            box.prop(s, "offset")
        if s.speed_mode in ('CONSTANT', 'SPEED'):
            box.prop(s, "speed")
        elif s.speed_mode == 'DISTANCE':
            box.prop(s, "distance")
        else:
            col = box.column(align=True)
            for name in ("max_speed", "lateral_acceleration", "acceleration", "deceleration",
                         "jerk"):
                col.prop(s, name)
            box.prop(s, "stations")
        box = layout.box()
        row = box.row(align=True)
        row.prop(s, "frame_start")
        row.prop(s, "frame_end")
        row.operator("traindriver.use_frame_range", text="", icon='TIME')
        row = box.row()
        row.scale_y = 1.4
        row.operator("traindriver.bake", icon='REC')
        row.operator("traindriver.clear", icon='X')
        box.prop(s, "live", toggle=True, icon='PLAY')
        if s.message:
            box.label(text=s.message, icon='ERROR')
        obj = context.active_object
        if obj is not None and obj.type != 'CURVE':
            box = layout.box()
            box.label(text=f"Wagon: {obj.name}")
            own = obj.traindriver
            box.prop(own, "size_from", expand=True)
            if own.size_from == 'TYPED':
                box.prop(own, "length")
                box.prop(own, "bogie_distance")
            box.prop(own, "front_bogie")
            box.prop(own, "rear_bogie")
        layout.label(text=f"tractrix {tx.__version__}")


CLASSES = (TRAINDRIVER_OT_bake, TRAINDRIVER_OT_clear, TRAINDRIVER_OT_use_frame_range,
           TRAINDRIVER_PT_panel)


def register():
    bpy.app.handlers.frame_change_post.append(live_update)


def unregister():
    if live_update in bpy.app.handlers.frame_change_post:
        bpy.app.handlers.frame_change_post.remove(live_update)
