"""tractrix for Python: curves, exact arc length, moving frames and trains on tracks.

The same C++ headers as the library (double precision), vectorized over numpy arrays: every
per-frame query takes a scalar or an array of distances (or times) and returns arrays, and a train
solve returns every wagon's poses in one call. Inputs may be float32 or float64 (or integers) and
any memory layout; they are read as float64. Outputs are float64.

Conventions (the C++ library's):
  * rotation matrices are (3, 3) with the local axes as columns: side, up, forward;
  * quaternions are (x, y, z, w) with w >= 0;
  * distances are along the curve from its start; closed curves wrap them.

Building anything from user data raises ValueError with the library's message (which names the
field and the value); wrong dtypes raise TypeError and wrong shapes ValueError, naming the argument.

    import numpy as np, tractrix as tx
    keys = [(0, 0, 0), (80, 0, 10), (80, 5, 60), (0, 0, 50)]
    track = tx.Track(tx.MeasuredPath(tx.Path.catmull_rom(keys, closed=True)))
    train = tx.TrainSolver(track, [(18, 12), (14, 9), (14, 9)])
    poses = train.solve(np.linspace(0, track.length, 240))   # 240 frames × 3 wagons
    poses.body_quaternion.shape                               # (240, 3, 4)
"""

from __future__ import annotations

from . import _tractrix as _core

from .curve import Path, MeasuredPath, ClosestPoints
from .track import Track, Frames
from .network import Network, NetworkPoints, SwitchSettings, Route
from .alignment import (Alignment, AlignmentPoints, CantSegment, HorizontalSegment,
                        VerticalSegment, read_landxml)
from .train import TrainSolver, TrainPoses, TRAIN_PARTS, WagonStatus
from .motion import TimeProfile, ProfileSamples
from .driving import (SpeedLimits, SpeedPlan, PlanSamples, JerkTrajectory, SyncedTrajectory,
                      WaypointTrajectory)
from .camera import CameraRig, CameraShots
from .rig import PoseReader, StretchChain, TwoBonePoses
from .axes import EngineAxes
from .quaternion import continuous_quaternions

# include/tractrix/version.hpp, through the compiled core (an attribute its stub does not list)
__version__: str = getattr(_core, "__version__")

__all__ = [
    "Path",
    "MeasuredPath",
    "Track",
    "Frames",
    "ClosestPoints",
    "TrainSolver",
    "Network",
    "NetworkPoints",
    "SwitchSettings",
    "Route",
    "TrainPoses",
    "TRAIN_PARTS",
    "WagonStatus",
    "TimeProfile",
    "ProfileSamples",
    "SpeedLimits",
    "SpeedPlan",
    "PlanSamples",
    "JerkTrajectory",
    "SyncedTrajectory",
    "WaypointTrajectory",
    "CameraRig",
    "CameraShots",
    "PoseReader",
    "StretchChain",
    "TwoBonePoses",
    "HorizontalSegment",
    "VerticalSegment",
    "CantSegment",
    "Alignment",
    "AlignmentPoints",
    "read_landxml",
    "EngineAxes",
    "continuous_quaternions",
]
