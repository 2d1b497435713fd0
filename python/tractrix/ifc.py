"""IFC 4.3 alignments for tractrix, read with IfcOpenShell (an optional extra:
``pip install tractrix[ifc]``).

An ``IfcAlignment``'s business logic is what tractrix builds from: the segments nested in its
``IfcAlignmentHorizontal``, ``IfcAlignmentVertical`` and ``IfcAlignmentCant`` layouts carry IFC's
design parameters, which map one to one onto tractrix's HorizontalSegment, VerticalSegment and
CantSegment (docs/alignments.md). The geometric representation (``IfcCompositeCurve``,
``IfcGradientCurve``, ``IfcSegmentedReferenceCurve``) is not read: tractrix evaluates the design
parameters exactly.

Lengths stay in the file's length unit; plane angles (the horizontal segments' StartDirection) are
converted to radians from the project's angle unit.

    import tractrix as tx, tractrix.ifc
    for alignment in tractrix.ifc.read_alignments("line.ifc"):
        train = tx.TrainSolver(alignment, [(20, 14)] * 8)
"""

from __future__ import annotations

import os
import re
from typing import Any, List, Optional, Sequence, Union

from . import Alignment, CantSegment, HorizontalSegment, VerticalSegment

__all__ = ["read_alignments", "alignment_of"]


def _ifcopenshell() -> Any:
    try:
        import ifcopenshell  # noqa: PLC0415 (optional dependency, imported where it is used)
    except ImportError:
        raise ImportError("tractrix.ifc needs IfcOpenShell: pip install tractrix[ifc] "
                          "(or pip install ifcopenshell)") from None
    return ifcopenshell


def _angle_unit(model: Any) -> float:
    """Radians per unit of the project's plane angle (1 for radians, pi/180 for degrees): the
    project's own unit assignment, else the file's first."""
    projects = [p.UnitsInContext for p in model.by_type("IfcProject") if p.UnitsInContext]
    for assignment in projects or model.by_type("IfcUnitAssignment"):
        for unit in assignment.Units:
            if getattr(unit, "UnitType", None) != "PLANEANGLEUNIT":
                continue
            if unit.is_a("IfcConversionBasedUnit"):
                factor = unit.ConversionFactor
                value = factor.ValueComponent.wrappedValue
                return float(value) * _angle_unit_of(factor.UnitComponent)
            return _angle_unit_of(unit)
    return 1.0


def _angle_unit_of(unit: Any) -> float:
    if unit is not None and unit.is_a("IfcSIUnit") and unit.Name == "RADIAN":
        prefixes = {None: 1.0, "MILLI": 1e-3, "MICRO": 1e-6}
        return prefixes.get(unit.Prefix, 1.0)
    return 1.0


def _where(entity: Any) -> str:
    name = getattr(entity, "Name", None)
    return f"#{entity.id()} {entity.is_a()}" + (f" '{name}'" if name else "")


def _start_station(alignment: Any) -> float:
    """The station of the alignment's start: its first nested IfcReferent's
    Pset_Stationing.Station (IFC 4.3's stationing), else 0."""
    import ifcopenshell.util.element  # noqa: PLC0415

    for rel in alignment.IsNestedBy or ():
        for referent in rel.RelatedObjects:
            if referent.is_a("IfcReferent"):
                station = ifcopenshell.util.element.get_pset(referent, name="Pset_Stationing",
                                                             prop="Station")
                if isinstance(station, (int, float, str)):
                    return float(station)
    return 0.0


def _layout(alignment: Any, kind: str) -> Optional[Any]:
    """The alignment's nested layout of IFC type `kind`, or None; more than one is an error."""
    found = [obj for rel in (alignment.IsNestedBy or ()) for obj in rel.RelatedObjects
             if obj.is_a(kind)]
    if len(found) > 1:
        raise ValueError(f"{_where(alignment)}: {len(found)} {kind} layouts, expected one")
    return found[0] if found else None


def _segments(layout: Any, kind: str) -> List[Any]:
    """The design parameters of a layout's nested IfcAlignmentSegments, in nesting order."""
    out = []
    for rel in layout.IsNestedBy or ():
        for segment in rel.RelatedObjects:
            if not segment.is_a("IfcAlignmentSegment"):
                continue
            parameters = segment.DesignParameters
            if parameters is None or not parameters.is_a(kind):
                raise ValueError(f"{_where(segment)}: its DesignParameters are not an {kind}")
            out.append(parameters)
    return out


def _number(entity: Any, attribute: str, default: Optional[float] = None) -> float:
    value = getattr(entity, attribute)
    if value is None:
        if default is None:
            raise ValueError(f"{_where(entity)}: {attribute} is missing")
        return default
    if hasattr(value, "wrappedValue"):
        value = value.wrappedValue
    return float(value)


def _type(entity: Any, types: Sequence[str]) -> str:
    kind = entity.PredefinedType
    if kind not in types:
        raise ValueError(f"{_where(entity)}: PredefinedType {kind} is not one tractrix evaluates "
                         f"({', '.join(types)})")
    return str(kind)


_HORIZONTAL = ("LINE", "CIRCULARARC", "CLOTHOID", "CUBIC", "HELMERTCURVE", "BLOSSCURVE",
               "COSINECURVE", "SINECURVE", "VIENNESEBEND")
_VERTICAL = ("CONSTANTGRADIENT", "CIRCULARARC", "PARABOLICARC", "CLOTHOID")
_CANT = ("CONSTANTCANT", "LINEARTRANSITION", "HELMERTCURVE", "BLOSSCURVE", "COSINECURVE",
         "SINECURVE", "VIENNESEBEND")


def _horizontal(parameters: Any, radians: float) -> HorizontalSegment:
    point = parameters.StartPoint
    if point is None or len(point.Coordinates) < 2:
        raise ValueError(f"{_where(parameters)}: StartPoint is missing")
    return HorizontalSegment(
        _type(parameters, _HORIZONTAL), (float(point.Coordinates[0]), float(point.Coordinates[1])),
        _number(parameters, "StartDirection") * radians,
        _number(parameters, "StartRadiusOfCurvature"), _number(parameters, "EndRadiusOfCurvature"),
        _number(parameters, "SegmentLength"), _number(parameters, "GravityCenterLineHeight", 0.0))


def _vertical(parameters: Any) -> VerticalSegment:
    return VerticalSegment(
        _type(parameters, _VERTICAL), _number(parameters, "StartDistAlong"),
        _number(parameters, "HorizontalLength"), _number(parameters, "StartHeight"),
        _number(parameters, "StartGradient"), _number(parameters, "EndGradient"),
        _number(parameters, "RadiusOfCurvature", 0.0))


def _cant(parameters: Any) -> CantSegment:
    left = _number(parameters, "StartCantLeft")
    right = _number(parameters, "StartCantRight")
    return CantSegment(
        _type(parameters, _CANT), _number(parameters, "StartDistAlong"),
        _number(parameters, "HorizontalLength"), left,
        _number(parameters, "EndCantLeft", left), right,
        _number(parameters, "EndCantRight", right))


def alignment_of(alignment: Any, *, horizontal_tolerance: tuple = (0.0, 0.0),
                 vertical_tolerance: tuple = (0.0, 0.0), cant_gap: float = 0.0) -> Alignment:
    """A tractrix Alignment from an IfcOpenShell ``IfcAlignment`` entity (its file's units as the
    module says), starting at the station of its first IfcReferent with Pset_Stationing. Errors raise ValueError naming the entity (by its #id) and, for a
    segment the library refuses, the IfcAlignmentSegment's design parameters."""
    model = alignment.file
    radians = _angle_unit(model)
    horizontal_layout = _layout(alignment, "IfcAlignmentHorizontal")
    if horizontal_layout is None:
        raise ValueError(f"{_where(alignment)}: no IfcAlignmentHorizontal nested in it")
    vertical_layout = _layout(alignment, "IfcAlignmentVertical")
    cant_layout = _layout(alignment, "IfcAlignmentCant")
    entities = {
        "horizontal": _segments(horizontal_layout, "IfcAlignmentHorizontalSegment"),
        "vertical": (_segments(vertical_layout, "IfcAlignmentVerticalSegment")
                     if vertical_layout is not None else []),
        "cant": (_segments(cant_layout, "IfcAlignmentCantSegment")
                 if cant_layout is not None else []),
    }
    horizontal = [_horizontal(p, radians) for p in entities["horizontal"]]
    vertical = [_vertical(p) for p in entities["vertical"]]
    cant = [_cant(p) for p in entities["cant"]]
    rail_head_distance = 1.5
    if cant_layout is not None:
        rail_head_distance = _number(cant_layout, "RailHeadDistance")
    try:
        return Alignment(horizontal, vertical, cant, rail_head_distance=rail_head_distance,
                         start_station=_start_station(alignment),
                         horizontal_tolerance=horizontal_tolerance,
                         vertical_tolerance=vertical_tolerance, cant_gap=cant_gap,
                         name=str(alignment.Name or ""))
    except ValueError as error:
        message = str(error)
        # The library names segments by layout and index: add the IFC entity.
        found = re.match(r"(horizontal|vertical|cant) segment (\d+)", message)
        if found:
            layout, index = found.group(1), int(found.group(2))
            if index < len(entities[layout]):
                message += f" (IFC {_where(entities[layout][index])})"
        raise ValueError(f"{_where(alignment)}: {message}") from None


def read_alignments(source: Union[str, "os.PathLike[str]", Any],
                    **tolerances: Any) -> List[Alignment]:
    """Every IfcAlignment of an IFC 4.3 file (a path, or a file IfcOpenShell has opened) that has
    a horizontal layout, as tractrix Alignments in file order (child alignments too). Keyword
    arguments are alignment_of's tolerances. Errors raise ValueError starting with the file's
    name and naming the entity."""
    ifcopenshell = _ifcopenshell()
    if isinstance(source, (str, os.PathLike)):
        source = os.fspath(source)
    name = source if isinstance(source, str) else "IFC file"
    try:
        model = ifcopenshell.open(source) if isinstance(source, str) else source
    except (OSError, RuntimeError) as error:
        raise ValueError(f"{name}: cannot be read as IFC ({error})") from None
    if not model.schema.upper().startswith("IFC4X3"):
        raise ValueError(f"{name}: schema {model.schema}, not IFC 4.3 (IFC4X3): alignments with "
                         "these layouts are IFC 4.3's")
    out = []
    for alignment in model.by_type("IfcAlignment"):
        if _layout(alignment, "IfcAlignmentHorizontal") is None:
            continue  # an alignment of child alignments only, or one without business logic
        try:
            out.append(alignment_of(alignment, **tolerances))
        except ValueError as error:
            raise ValueError(f"{name}: {error}") from None
    return out

