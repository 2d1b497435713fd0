#!/usr/bin/env python3
"""Writes valley_line.xml: a LandXML 1.2 alignment of tractrix's own design for the alignment
demo and the reader's tests. Its element end points are computed here with mpmath at 30 digits
(Fresnel-type integrals of each transition's heading by quadrature), independently of the
library, and printed to 1e-6 m.

Plan (stations from 0, coordinates in a Swiss-style projected grid, metres):
  line 300, clothoid 120 (straight -> R 600 left), arc R 600 for 350, clothoid 120 back to
  straight, line 200, Bloss 100 (straight -> R 450 right), arc R 450 for 250, Bloss 100 back,
  line 250.
Profile: PVIs at 0 (420.0 m), 600 (432.0, a 300 m parabola), 1300 (421.5, a 20 km vertical
circle), the end (424.0).
Cant (appliedCant in millimetres, as LandXML has it): ramps of 120 m to 100 mm (left curve,
the right rail raised) and of 100 m to 120 mm (right curve, the left rail raised), about the
inside rail.

Run: python3 make_valley_line.py > valley_line.xml
"""
from mpmath import mp, mpf, quad, cos, sin, atan2, pi, sqrt, tan, atan

mp.dps = 30
E0, N0, DIR0 = mpf(2600150), mpf(1199870), mpf("0.35")  # start point and direction (radians from east)

parts = [  # (kind, length, start curvature, end curvature, LandXML spiral type)
    ("line", 300, 0, 0, None),
    ("spiral", 120, 0, mpf(1) / 600, "clothoid"),
    ("arc", 350, mpf(1) / 600, mpf(1) / 600, None),
    ("spiral", 120, mpf(1) / 600, 0, "clothoid"),
    ("line", 200, 0, 0, None),
    ("spiral", 100, 0, mpf(-1) / 450, "bloss"),
    ("arc", 250, mpf(-1) / 450, mpf(-1) / 450, None),
    ("spiral", 100, mpf(-1) / 450, 0, "bloss"),
    ("line", 250, 0, 0, None),
]


def shape(kind, spiral, u):
    if kind != "spiral":
        return mpf(0)
    return u if spiral == "clothoid" else u * u * (3 - 2 * u)


def shape_integral(kind, spiral, u):
    if kind != "spiral":
        return mpf(0)
    return u * u / 2 if spiral == "clothoid" else u ** 3 - u ** 4 / 2


def heading(part, theta0, s):
    kind, L, k0, k1, spiral = part
    L = mpf(L)
    return theta0 + k0 * s + (k1 - k0) * L * shape_integral(kind, spiral, s / L)


def point(part, e, n, theta0, s):
    de = quad(lambda t: cos(heading(part, theta0, t)), [0, s / 2, s])
    dn = quad(lambda t: sin(heading(part, theta0, t)), [0, s / 2, s])
    return e + de, n + dn


def fmt(v):
    return f"{float(v):.6f}"


def ne(e, n):
    return f"{fmt(n)} {fmt(e)}"  # LandXML writes northing first


def radius(k):
    return "INF" if k == 0 else fmt(abs(1 / k))


lines = []
e, n, theta, station = E0, N0, DIR0, mpf(0)
for part in parts:
    kind, L, k0, k1, spiral = part
    e1, n1 = point(part, e, n, theta, mpf(L))
    theta1 = heading(part, theta, mpf(L))
    if kind == "line":
        lines.append(f'        <Line staStart="{fmt(station)}" length="{L}"><Start>{ne(e, n)}</Start>'
                     f'<End>{ne(e1, n1)}</End></Line>')
    elif kind == "arc":
        r = 1 / k0
        ce, cn = e - r * sin(theta), n + r * cos(theta)  # the centre, left of travel for r > 0
        rot = "ccw" if k0 > 0 else "cw"
        lines.append(f'        <Curve rot="{rot}" crvType="arc" staStart="{fmt(station)}" length="{L}" '
                     f'radius="{fmt(abs(r))}"><Start>{ne(e, n)}</Start><Center>{ne(ce, cn)}</Center>'
                     f'<End>{ne(e1, n1)}</End></Curve>')
    else:
        # PI: where the start and end tangents meet.
        d0 = (cos(theta), sin(theta))
        d1 = (cos(theta1), sin(theta1))
        det = d0[0] * (-d1[1]) - d0[1] * (-d1[0])
        t = ((e1 - e) * (-d1[1]) - (n1 - n) * (-d1[0])) / det
        pe, pn = e + t * d0[0], n + t * d0[1]
        rot = "ccw" if (k0 + k1) > 0 else "cw"
        lines.append(f'        <Spiral spiType="{spiral}" rot="{rot}" staStart="{fmt(station)}" length="{L}" '
                     f'radiusStart="{radius(k0)}" radiusEnd="{radius(k1)}"><Start>{ne(e, n)}</Start>'
                     f'<PI>{ne(pe, pn)}</PI><End>{ne(e1, n1)}</End></Spiral>')
    e, n, theta, station = e1, n1, theta1, station + L

total = station
g1 = (mpf("421.5") - 432) / 700
g2 = (mpf("424.0") - mpf("421.5")) / (total - 1300)
circle_length = 20000 * (atan(g2) - atan(g1))  # along the vertical circle
profile = f"""        <ProfAlign name="design">
          <PVI>0 420.0</PVI>
          <ParaCurve length="300">600 432.0</ParaCurve>
          <CircCurve length="{fmt(circle_length)}" radius="20000">1300 421.5</CircCurve>
          <PVI>{fmt(total)} 424.0</PVI>
        </ProfAlign>"""
cant = """      <Cant name="design" gauge="1.435" rotationPoint="insideRail">
        <CantStation station="0" appliedCant="0"/>
        <CantStation station="300" appliedCant="0" curvature="ccw"/>
        <CantStation station="420" appliedCant="100" curvature="ccw"/>
        <CantStation station="770" appliedCant="100" curvature="ccw"/>
        <CantStation station="890" appliedCant="0" curvature="ccw"/>
        <CantStation station="1090" appliedCant="0" curvature="cw"/>
        <CantStation station="1190" appliedCant="120" curvature="cw"/>
        <CantStation station="1440" appliedCant="120" curvature="cw"/>
        <CantStation station="1540" appliedCant="0" curvature="cw"/>
        <CantStation station="{0}" appliedCant="0"/>
      </Cant>""".format(fmt(total))

print(f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- Valley line: an alignment of tractrix's own design (demos/alignments/make_valley_line.py),
     for the alignment demo and the LandXML reader's tests. -->
<LandXML xmlns="http://www.landxml.org/schema/LandXML-1.2" version="1.2" date="2026-12-06" time="12:00:00">
  <Units><Metric linearUnit="meter" areaUnit="squareMeter" volumeUnit="cubicMeter" angularUnit="radians" directionUnit="radians"/></Units>
  <Alignments name="valley">
    <Alignment name="Valley line" length="{fmt(total)}" staStart="0">
      <CoordGeom>
{chr(10).join(lines)}
      </CoordGeom>
      <Profile name="design">
{profile}
      </Profile>
{cant}
    </Alignment>
  </Alignments>
</LandXML>""")
