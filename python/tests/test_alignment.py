"""Alignments from Python against closed forms, numpy quadrature, the LandXML file's own printed
ends and IfcOpenShell's evaluation of the same IFC file."""

import math
import pathlib
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import tractrix as tx

ROOT = pathlib.Path(__file__).resolve().parents[2]
H, V, C = tx.HorizontalSegment, tx.VerticalSegment, tx.CantSegment


def arc_alignment(radius=250.0, start_station=0.0):
    """100 m straight along +x, then a left arc of `radius`, 300 m: flat."""
    return tx.Alignment([H("LINE", (0, 0), 0.0, 0, 0, 100),
                         H("CIRCULARARC", (100, 0), 0.0, radius, radius, 300)],
                        start_station=start_station, name="arc")


def test_an_arc_is_a_circle_and_its_frames_are_level():
    R = 250.0
    a = arc_alignment(R)
    assert a.length == pytest.approx(400, rel=1e-15)
    assert a.horizontal_length == pytest.approx(400, rel=1e-15)
    x = np.linspace(100, 400, 31)
    phi = (x - 100) / R
    points, tangents = a.at_station(x)
    expected = np.stack([100 + R * np.sin(phi), R * (1 - np.cos(phi)), 0 * phi], axis=-1)
    assert np.abs(points - expected).max() < 1e-12 * 400
    assert np.abs(tangents - np.stack([np.cos(phi), np.sin(phi), 0 * phi], -1)).max() < 1e-14
    s_points, _ = a.sample(x)  # flat: the 3-D length is the horizontal distance
    assert np.abs(s_points - expected).max() < 1e-12 * 400
    frames = a.frame_at(x)
    assert np.abs(frames.rotation[:, :, 1] - (0, 0, 1)).max() < 1e-15  # up
    assert np.abs(frames.rotation[:, :, 2] - tangents).max() < 1e-15  # forward
    curvature, gradient, bank = a.shape_at(x[1:-1])
    assert np.all(curvature == 1 / R) and np.all(gradient == 0) and np.all(bank == 0)
    assert "arc" in repr(a) and a.closed is False


def test_a_clothoid_against_numpy_quadrature_of_its_heading():
    L, R, theta0 = 120.0, -400.0, 0.3
    a = tx.Alignment([H("CLOTHOID", (5, -7), theta0, 0, R, L)])
    rate = 1 / (R * L)  # curvature per length
    s = np.linspace(0, L, 13)
    nodes, weights = np.polynomial.legendre.leggauss(40)
    expected = []
    for end in s:
        t = end / 2 * (nodes + 1)
        heading = theta0 + rate * t * t / 2
        expected.append((5 + end / 2 * weights @ np.cos(heading),
                         -7 + end / 2 * weights @ np.sin(heading), 0.0))
    points, _ = a.sample(s)
    assert np.abs(points - np.array(expected)).max() < 1e-12 * L
    curvature, _, _ = a.shape_at(s[1:-1])
    assert np.abs(curvature - rate * s[1:-1]).max() < 1e-16


def test_a_profile_heights_and_lengths_in_closed_form():
    g0, g1, z0 = 0.02, -0.01, 10.0
    z1 = z0 + 150 * g0
    z2 = z1 + 200 * (g0 + g1) / 2
    a = tx.Alignment([H("LINE", (0, 0), 0.0, 0, 0, 400)],
                     [V("CONSTANTGRADIENT", 0, 150, z0, g0, g0),
                      V("PARABOLICARC", 150, 200, z1, g0, g1),
                      V("CONSTANTGRADIENT", 350, 50, z2, g1, g1)])
    x = np.linspace(0, 400, 41)
    t = np.clip(x - 150, 0, 200)
    z = np.where(x <= 150, z0 + g0 * x,
                 np.where(x <= 350, z1 + g0 * t + (g1 - g0) * t * t / 400, z2 + g1 * (x - 350)))
    points, _ = a.at_station(x)
    assert np.abs(points[:, 2] - z).max() < 1e-12 * 400

    def antiderivative(g):
        return (g * np.sqrt(1 + g * g) + np.arcsinh(g)) / 2

    g = g0 + (g1 - g0) * t / 200
    length = (np.minimum(x, 150) * math.sqrt(1 + g0 * g0) +
              200 / (g1 - g0) * (antiderivative(g) - antiderivative(g0)) +
              np.maximum(x - 350, 0) * math.sqrt(1 + g1 * g1))
    assert np.abs(a.length_at(x) - length).max() < 1e-12 * 400
    assert np.abs(a.horizontal_at(length) - x).max() < 1e-12 * 400
    _, gradient, _ = a.shape_at(length[1:-1])
    assert np.abs(gradient - np.where(x <= 150, g0, np.where(x <= 350, g, g1))[1:-1]).max() < 1e-14


def canted_curve():
    """A left arc of radius 500 after a clothoid, the right rail raised 0.15 over a linear ramp."""
    plan = [H("LINE", (0, 0), 0.0, 0, 0, 100), H("CLOTHOID", (100, 0), 0.0, 0, 500, 100)]
    end = tx.Alignment(plan).at_station(200.0)
    direction = 100 / (2 * 500)  # a clothoid from straight turns by L / 2R
    plan.append(H("CIRCULARARC", tuple(end[0][:2]), direction, 500, 500, 300))
    cant = [C("CONSTANTCANT", 0, 100, 0, 0, 0, 0), C("LINEARTRANSITION", 100, 100, 0, 0, 0, 0.15),
            C("CONSTANTCANT", 200, 300, 0, 0, 0.15, 0.15)]
    return tx.Alignment(plan, cant=cant, rail_head_distance=1.5)


def test_cant_banks_frames_and_raises_the_right_rail():
    a = canted_curve()
    s = np.linspace(210, 490, 8)
    psi = math.asin(0.15 / 1.5)
    _, _, bank = a.shape_at(s)
    assert np.abs(bank - psi).max() < 1e-15
    left, right = a.rail_heads(s)
    assert np.abs(right[:, 2] - left[:, 2] - 0.15).max() < 1e-14
    # (a difference of coordinates ~500 m from the origin: rounding of 1e-13)
    assert np.abs(np.hypot(*(right - left)[:, :2].T) - 1.5 * math.cos(psi)).max() < 1e-12
    frames = a.frame_at(s)
    up, forward = frames.rotation[:, :, 1], frames.rotation[:, :, 2]
    assert np.abs(up[:, 2] - math.cos(psi)).max() < 1e-15
    assert np.abs(np.einsum("ij,ij->i", up, forward)).max() < 1e-15
    # Leaning left: the up vector tilts towards the curve's inside (the left of travel).
    side_left = np.stack([-forward[:, 1], forward[:, 0], 0 * s], -1)
    assert np.all(np.einsum("ij,ij->i", up, side_left) > 0)
    # The cant ramp: the right rail's height linear in distance (flat profile), and the cant
    # itself there by station.
    x = np.linspace(100, 200, 11)
    cant_left, cant_right, cant_bank = a.cant_at(x)
    assert np.all(cant_left == 0) and np.abs(cant_right - 0.15 * (x - 100) / 100).max() < 1e-15
    assert np.abs(cant_bank - np.arcsin(cant_right / 1.5)).max() < 1e-15
    _, right = a.rail_heads(a.length_at(x))
    assert np.abs(right[:, 2] - 0.15 * (x - 100) / 100).max() < 1e-14


def test_speed_limits_from_cant_follow_the_railway_formula():
    a = canted_curve()
    limits = tx.SpeedLimits.from_cant(a, max_velocity=60, cant_deficiency=0.1, section_length=50)
    on_arc = math.sqrt(9.80665 * 500 * (0.15 + 0.1) / 1.5)
    assert limits.at(np.array([260.0, 420.0])) == pytest.approx([on_arc] * 2, rel=1e-12)
    assert limits.at(20.0) == 60  # the straight: the line's own limit


def test_a_chord_train_on_an_arc_has_its_bogies_on_the_circle_exactly_apart():
    R = 300.0
    a = tx.Alignment([H("CIRCULARARC", (0, 0), 0.0, R, R, 600)])
    train = tx.TrainSolver(a, [(20, 14), (20, 14), (20, 14)], spacing="chord")
    poses = train.solve(np.array([200.0, 450.0]))
    centre = np.array([0, R, 0])
    for bogie in (poses.front_position, poses.rear_position):
        assert np.abs(np.linalg.norm(bogie - centre, axis=-1) - R).max() < 1e-9
    gap = np.linalg.norm(poses.front_position - poses.rear_position, axis=-1)
    assert np.abs(gap - 14).max() < 1e-9
    # Chord spacing: a wagon's rear bogie to the next one's front, length − bogie_distance.
    couple = np.linalg.norm(poses.rear_position[:, :-1] - poses.front_position[:, 1:], axis=-1)
    assert np.abs(couple - 6).max() < 1e-9
    assert isinstance(train.track, tx.Alignment)


def test_closest_point_gives_chainage_offset_and_elevation():
    a = arc_alignment(250.0, start_station=1000.0)
    x = np.array([50.0, 180.0, 333.0])
    points, tangents = a.at_station(x)
    left = np.stack([-tangents[:, 1], tangents[:, 0], 0 * x], -1)
    offset, height = np.array([2.5, -4.0, 0.75]), np.array([1.0, -0.5, 3.0])
    query = points + offset[:, None] * left + height[:, None] * (0, 0, 1)
    found = a.closest_point(query)
    assert np.abs(found.horizontal_distance - x).max() < 1e-9
    assert np.abs(found.station - (1000 + x)).max() < 1e-9
    assert np.abs(found.offset - offset).max() < 1e-9
    assert np.abs(found.elevation - height).max() < 1e-9
    assert np.abs(found.point - points).max() < 1e-9
    assert a.start_station == 1000.0


def test_an_alignment_as_a_track_joins_a_network_at_a_turnout():
    """The main line along +x, switched at x = 60 onto a diverging clothoid into a right-hand
    arc of radius 190: every bogie of a train through the turnout lies on the alignment it is
    on, within the fit's micrometre."""
    main_in = tx.Alignment([H("LINE", (0, 0), 0.0, 0, 0, 60)])
    main_out = tx.Alignment([H("LINE", (60, 0), 0.0, 0, 0, 140)])
    clothoid = H("CLOTHOID", (60, 0), 0.0, 0, -190, 30)
    end, tangent = tx.Alignment([clothoid]).at_station(30.0)
    diverging = tx.Alignment([clothoid, H("CIRCULARARC", tuple(end[:2]),
                                          math.atan2(tangent[1], tangent[0]), -190, -190, 60)])
    pieces = [a.as_track() for a in (main_in, main_out, diverging)]
    assert abs(pieces[2].length - diverging.length) < 1e-6
    network = tx.Network(pieces, [[(0, "end"), (1, "start"), (2, "start")]])
    settings = network.default_settings().set(2, "start")
    route = tx.Route.follow(network, settings, (0, "forward"))
    poses = tx.TrainSolver(route, [(20, 14)] * 3).solve(np.array([80.0, 120.0, 150.0]))
    for bogie in (poses.front_position, poses.rear_position):
        on_turnout = bogie[..., 0] >= 60
        assert np.abs(bogie[~on_turnout][:, 1]).max(initial=0) < 1e-6
        assert np.abs(diverging.closest_point(bogie[on_turnout]).offset).max() < 1e-6
    with pytest.raises(ValueError, match="track fit: tolerance"):
        diverging.as_track(tolerance=-1)


def test_bad_segments_name_the_field():
    with pytest.raises(ValueError, match=r"horizontal\[0\]: type 'SPIRAL' is not one of"):
        tx.Alignment([H("SPIRAL", (0, 0), 0.0, 0, 0, 10)])
    with pytest.raises(ValueError, match=r"horizontal\[0\]\.start_point: expected \(x, y\)"):
        tx.Alignment([H("LINE", (0, 0, 0), 0.0, 0, 0, 10)])
    with pytest.raises(TypeError, match=r"vertical\[0\]: expected a tractrix.VerticalSegment"):
        tx.Alignment([H("LINE", (0, 0), 0.0, 0, 0, 10)], [C("CONSTANTCANT", 0, 10, 0, 0, 0, 0)])
    with pytest.raises(ValueError, match=r"horizontal segment 1 \(LINE\) starts 5 away"):
        tx.Alignment([H("LINE", (0, 0), 0.0, 0, 0, 10), H("LINE", (15, 0), 0.0, 0, 0, 10)])
    with pytest.raises(TypeError, match="start_radius: expected a number"):
        tx.Alignment([H("CIRCULARARC", (0, 0), 0.0, "300", 300, 10)])


# ---------------------------------------------------------------------------------------------
# LandXML

VALLEY = ROOT / "demos/alignments/valley_line.xml"
needs_landxml = pytest.mark.skipif(not tx._core.has_landxml(),
                                   reason="the package was built without pugixml")


@needs_landxml
def test_landxml_plan_reaches_every_printed_end():
    (valley,) = tx.read_landxml(str(VALLEY))
    assert valley.name == "Valley line"
    assert len(valley.horizontal) == 9 and len(valley.cant) > 0 and len(valley.vertical) > 0
    ns = {"l": "http://www.landxml.org/schema/LandXML-1.2"}
    geometry = ET.parse(VALLEY).getroot().find(".//l:CoordGeom", ns)
    x = 0.0
    for element in geometry:
        x += float(element.get("length"))
        northing, easting = map(float, element.find("l:End", ns).text.split())
        point, _ = valley.at_station(x)
        assert abs(point[0] - easting) < 2e-6 and abs(point[1] - northing) < 2e-6


@needs_landxml
def test_landxml_errors_name_the_file_line_and_element():
    text = VALLEY.read_text().replace('spiType="bloss"', 'spiType="radioid"', 1)
    with pytest.raises(ValueError, match=r"^mine\.xml:\d+: <Spiral>: spiType 'radioid'"):
        tx.read_landxml("mine.xml", text=text)
    with pytest.raises(ValueError, match="cannot be opened"):
        tx.read_landxml(str(ROOT / "no such file.xml"))


# ---------------------------------------------------------------------------------------------
# IFC 4.3, through IfcOpenShell


def ifc_model(vertical=True, cant=True):
    """An IFC 4.3 file made by IfcOpenShell's alignment API (metres): a straight, a clothoid into
    a Bloss curve's arc... and the profile and cant over it; with IfcOpenShell's geometry."""
    ifcopenshell = pytest.importorskip("ifcopenshell")
    import ifcopenshell.api
    import ifcopenshell.api.alignment as al

    f = ifcopenshell.file(schema="IFC4X3_ADD2")
    ifcopenshell.api.run("root.create_entity", f, ifc_class="IfcProject", name="tractrix test")
    ifcopenshell.api.run("unit.assign_unit", f, length={"is_metric": True, "raw": "METERS"})
    context = ifcopenshell.api.run("context.add_context", f, context_type="Model")
    ifcopenshell.api.run("context.add_context", f, context_type="Model",
                         context_identifier="Axis", target_view="GRAPH_VIEW", parent=context)
    alignment = al.create(f, "IFC line", include_vertical=vertical, include_cant=cant)
    if cant:
        layout = al.get_cant_layout(alignment)
        layout.RailHeadDistance = 1.5
        for row in ((0.0, 100.0, 0.0, 0.0, "CONSTANTCANT"),
                    (100.0, 80.0, 0.0, 0.12, "LINEARTRANSITION"),
                    (180.0, 150.0, 0.12, 0.12, "CONSTANTCANT"),
                    (330.0, 70.0, 0.12, 0.0, "COSINECURVE")):
            al.create_layout_segment(f, layout, f.createIfcAlignmentCantSegment(
                None, None, row[0], row[1], 0.0, 0.0, row[2], row[3], row[4]))
    horizontal = al.get_horizontal_layout(alignment)
    start, direction = (0.0, 0.0), 0.2
    for kind, r0, r1, length in (("LINE", 0.0, 0.0, 100.0), ("CLOTHOID", 0.0, 400.0, 80.0),
                                 ("CIRCULARARC", 400.0, 400.0, 150.0),
                                 ("BLOSSCURVE", 400.0, 0.0, 70.0), ("LINE", 0.0, 0.0, 60.0)):
        end = al.create_layout_segment(f, horizontal, f.createIfcAlignmentHorizontalSegment(
            None, None, f.createIfcCartesianPoint(start), direction, r0, r1, length, None, kind))
        start, direction = (float(end[0, 3]), float(end[1, 3])), math.atan2(end[1, 0], end[0, 0])
    if vertical:
        layout = al.get_vertical_layout(alignment)
        for row in ((0.0, 120.0, 50.0, 0.015, 0.015, "CONSTANTGRADIENT"),
                    (120.0, 160.0, 51.8, 0.015, -0.01, "PARABOLICARC"),
                    (280.0, 180.0, 52.2, -0.01, -0.01, "CONSTANTGRADIENT")):
            al.create_layout_segment(f, layout, f.createIfcAlignmentVerticalSegment(
                None, None, *row[:5], None, row[5]))
    return f, alignment


def translation(matrix):
    """The translation of a 4×4 placement from IfcOpenShell's evaluator, which some versions
    return transposed (the translation in the last row)."""
    m = np.asarray(matrix)
    return m[:3, 3] if np.array_equal(m[3], (0, 0, 0, 1)) else m[3, :3]


def test_ifc_alignment_matches_ifcopenshell_evaluation(tmp_path):
    f, entity = ifc_model()
    import ifcopenshell.api.alignment as al
    from ifcopenshell.api.alignment.util import evaluate_representation

    import tractrix.ifc

    path = tmp_path / "line.ifc"
    f.write(str(path))
    (a,) = tractrix.ifc.read_alignments(str(path))
    assert a.name == "IFC line" and len(a.horizontal) == 6 and len(a.cant) == 5
    assert a.rail_head_distance == 1.5
    # IfcOpenShell evaluates its own geometric representation (mapped from the same business
    # logic) at distances along the horizontal.
    gradient = al.get_curve(entity)
    while not gradient.is_a("IfcGradientCurve"):
        gradient = gradient.BaseCurve
    x = np.linspace(0, 459.0, 52)
    ours, _ = a.at_station(x)
    theirs = np.array([translation(evaluate_representation(gradient, float(d))) for d in x])
    # IfcOpenShell 0.9 agrees to 1e-13 on the lines and the arc, to 5e-9 on the profile and to
    # 4e-7 (clothoid) and 6e-7 (Bloss) on the transitions, where this library meets long-double
    # references to 1e-12 (tests/alignment): the transitions' gap is IfcOpenShell's series.
    exact = (x <= 100) | ((x >= 180) & (x <= 330)) | (x >= 400)
    assert np.abs(ours - theirs)[exact, :2].max() < 1e-9
    assert np.abs(ours - theirs)[:, :2].max() < 1e-6
    assert np.abs(ours - theirs)[:, 2].max() < 1e-8
    # The cant's business logic, read back: the cosine ramp down is the IFC shape function.
    _, right = a.rail_heads(a.length_at(np.array([150.0, 250.0, 365.0])))
    left, _ = a.rail_heads(a.length_at(np.array([150.0, 250.0, 365.0])))
    rise = right[:, 2] - left[:, 2]
    assert rise[1] == pytest.approx(0.12, abs=1e-14)
    assert rise[0] == pytest.approx(0.12 * 50 / 80, abs=1e-14)
    assert rise[2] == pytest.approx(0.12 * (1 - (1 - math.cos(math.pi * 35 / 70)) / 2), abs=1e-14)


def test_ifc_errors_name_the_entity(tmp_path):
    f, entity = ifc_model(vertical=False, cant=False)
    import tractrix.ifc

    (arc,) = [g for g in f.by_type("IfcAlignmentHorizontalSegment")
              if g.PredefinedType == "CIRCULARARC"]
    arc.StartPoint.Coordinates = (arc.StartPoint.Coordinates[0] + 1.0,
                                  arc.StartPoint.Coordinates[1])
    with pytest.raises(ValueError, match=rf"IFC file: #{entity.id()} IfcAlignment 'IFC line': "
                       r"horizontal segment 2 \(CIRCULARARC\) starts (1|0\.9999\d+) away .*\(IFC "
                       rf"#{arc.id()} IfcAlignmentHorizontalSegment\)"):
        tractrix.ifc.read_alignments(f)
    arc.StartDirection = None  # a required attribute left out, as broken files do
    with pytest.raises(ValueError, match=rf"#{arc.id()} IfcAlignmentHorizontalSegment: "
                       "StartDirection is missing"):
        tractrix.ifc.read_alignments(f)
    with pytest.raises(ValueError, match="cannot be read as IFC"):
        tractrix.ifc.read_alignments(tmp_path / "missing.ifc")  # a pathlib.Path too


def test_ifc_plane_angles_in_degrees_are_read_as_radians():
    f, _ = ifc_model(vertical=False, cant=False)
    import ifcopenshell.api

    import tractrix.ifc

    radians = tractrix.ifc.read_alignments(f)[0]
    degree = ifcopenshell.api.run("unit.add_conversion_based_unit", f, name="degree")
    ifcopenshell.api.run("unit.assign_unit", f, units=[degree])
    for segment in f.by_type("IfcAlignmentHorizontalSegment"):
        segment.StartDirection = math.degrees(segment.StartDirection)
    degrees = tractrix.ifc.read_alignments(f)[-1]
    s = np.linspace(0, radians.length, 9)
    assert np.abs(degrees.sample(s)[0] - radians.sample(s)[0]).max() < 1e-9


def test_ifc_reader_on_hostile_attribute_values():
    """Random design parameters (NaN, infinities, huge, negative, missing): every read ends in
    alignments whose queries are finite or in a ValueError, never another exception."""
    f, _ = ifc_model()
    import tractrix.ifc

    rng = np.random.default_rng(7)
    numbers = [math.nan, math.inf, -math.inf, 1e300, -1e300, 0.0, -5.0, 1e-300, 3.0, None]
    fields = {"IfcAlignmentHorizontalSegment": ("StartDirection", "StartRadiusOfCurvature",
                                                "EndRadiusOfCurvature", "SegmentLength"),
              "IfcAlignmentVerticalSegment": ("StartDistAlong", "HorizontalLength", "StartHeight",
                                              "StartGradient", "EndGradient"),
              "IfcAlignmentCantSegment": ("StartDistAlong", "HorizontalLength", "StartCantLeft",
                                          "EndCantRight")}
    entities = [(e, a) for kind, names in fields.items() for e in f.by_type(kind) for a in names]
    outcomes = {"read": 0, "refused": 0}
    for _ in range(150):
        entity, attribute = entities[rng.integers(len(entities))]
        before = getattr(entity, attribute)
        value = numbers[rng.integers(len(numbers))]
        try:
            setattr(entity, attribute, value)
        except (RuntimeError, TypeError, ValueError):
            continue  # IfcOpenShell refused it (a required attribute, a non-number)
        try:
            for a in tractrix.ifc.read_alignments(f):
                points, tangents = a.sample(np.linspace(0, a.length, 7))
                assert np.isfinite(points).all() and np.isfinite(tangents).all()
            outcomes["read"] += 1
        except ValueError as error:
            assert str(error).startswith("IFC file: #")
            outcomes["refused"] += 1
        setattr(entity, attribute, before)
    assert outcomes["read"] > 0 and outcomes["refused"] > 0
