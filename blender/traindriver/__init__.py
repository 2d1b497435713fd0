"""TrainDriver for Blender: wagons on a curve, keyed or live, solved by tractrix.

Pick a curve (or a collection of curves for a network) and a collection of wagon objects in the
TrainDriver tab of the 3-D view's sidebar, set the speed and press Bake. The zip this add-on comes
in carries tractrix's Python package built for Blender's Python (blender/build_addon.py).
"""

bl_info = {
    "name": "TrainDriver",
    "author": "the tractrix developers",
    "version": (0, 3, 0),
    "blender": (3, 4, 0),
    "location": "View3D > Sidebar > TrainDriver",
    "description": "Wagons along curves and track networks, baked or live (tractrix)",
    "category": "Animation",
}

import bpy  # noqa: E402

from . import settings, ui  # noqa: E402

_CLASSES = settings.CLASSES + ui.CLASSES


def register():
    for cls in _CLASSES:
        bpy.utils.register_class(cls)
    settings.register()
    ui.register()


def unregister():
    ui.unregister()
    settings.unregister()
    for cls in reversed(_CLASSES):
        bpy.utils.unregister_class(cls)
