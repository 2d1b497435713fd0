// The LandXML reader against the valley line (demos/alignments/valley_line.xml), whose element
// ends were computed with mpmath at 30 digits by make_valley_line.py and printed to 1e-6 m: the
// library's plan must reach each printed end from the printed start; its profile and cant must be
// what the file's PVIs, curves and cant stations say, in closed form. And every bad input is an
// error naming the file, line and element.
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "support/catch.hpp"
#include "tractrix/io/landxml.hpp"

using namespace tractrix;
namespace landxml = tractrix::io::landxml;

namespace {

const std::string valley = std::string(TRACTRIX_DEMOS_DIR) + "/alignments/valley_line.xml";

// A minimal document around one alignment's inner elements.
std::string document(const std::string& inner, const std::string& attributes = "staStart=\"0\"") {
  return "<?xml version=\"1.0\"?>\n<LandXML version=\"1.2\">\n<Alignments>\n<Alignment "
         "name=\"a\" " +
         attributes + ">\n" + inner + "\n</Alignment>\n</Alignments>\n</LandXML>\n";
}

const std::string two_lines =
    "<CoordGeom>\n"
    "<Line><Start>0 0</Start><End>0 100</End></Line>\n"
    "<Line><Start>0 100</Start><End>0 250</End></Line>\n"
    "</CoordGeom>";

}  // namespace

TEST_CASE("the valley line's plan reaches every printed element end", "[io][alignment]") {
  const auto file = landxml::read(valley);
  REQUIRE(file);
  REQUIRE(file->size() == 1);
  const landxml::Alignment& a = file->front();
  CHECK(a.name == "Valley line");
  const auto& plan = a.layouts.horizontal;
  REQUIRE(plan.size() == 9);
  CHECK(plan[1].type == HorizontalType::clothoid);
  CHECK(plan[1].end_radius == 600.0);  // ccw: turning left, positive
  CHECK(plan[5].type == HorizontalType::bloss_curve);
  CHECK(plan[5].end_radius == -450.0);  // cw
  CHECK(plan[6].start_radius == -450.0);
  // Each element's end, as the library computes it from the element's start, is the next
  // element's printed start (and the last's printed End: 1200920.100054 N, 2601490.303387 E).
  const HorizontalLayout<double>& layout = a.alignment.horizontal();
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const Vector2d end = layout.at(layout.segment_start(i) + plan[i].length).position;
    const Vector2d printed =
        i + 1 < plan.size() ? plan[i + 1].start_point : Vector2d(2601490.303387, 1200920.100054);
    INFO("element " << i);
    CHECK((end - printed).norm() <= 2e-6);
  }
  CHECK(layout.length() == Approx(1790.0).epsilon(1e-15));
}

TEST_CASE("the valley line's profile and cant are what its PVIs and stations say",
          "[io][alignment]") {
  const auto file = landxml::read(valley);
  REQUIRE(file);
  const tractrix::Alignment<double>& alignment = file->front().alignment;
  const VerticalLayout<double>& profile = *alignment.vertical();
  // On the gradients: the PVIs' lines.
  CHECK(profile.at(0.0).height == Approx(420.0).epsilon(1e-15));
  CHECK(profile.at(300.0).height == Approx(426.0).epsilon(1e-15));
  CHECK(profile.at(1700.0).height == Approx(421.5 + 400 * 2.5 / 490).epsilon(1e-14));
  // The 300 m parabola at its PVI lies (g2 − g1) L / 8 from it.
  CHECK(profile.at(600.0).height == Approx(432.0 + (-0.015 - 0.02) * 300 / 8).epsilon(1e-14));
  CHECK(profile.at(600.0).gradient == Approx(0.0025).epsilon(1e-12));
  // The 20 km sag circle: tangent to both gradients, its centre R above the curve.
  const double g1 = -0.015, g2 = 2.5 / 490, t1 = std::atan(g1), t2 = std::atan(g2), R = 20000;
  const double tangent = R * std::tan((t2 - t1) / 2);
  const double ax = 1300 - tangent * std::cos(t1), az = 421.5 - tangent * std::sin(t1);
  const double cx = ax - R * std::sin(t1), cz = az + R * std::cos(t1);
  for (double x : {1200.0, 1300.0, 1400.0})
    CHECK(std::fabs(profile.at(x).height - (cz - std::sqrt(R * R - (x - cx) * (x - cx)))) <= 1e-9);
  // Cant about the inside rail: a ccw curve raises the right rail, a cw one the left.
  CHECK(alignment.cant_at(360.0).right == Approx(0.05));
  CHECK(alignment.cant_at(360.0).left == 0.0);
  CHECK(alignment.cant_at(600.0).right == Approx(0.1));
  CHECK(alignment.cant_at(1300.0).left == Approx(0.12));
  CHECK(alignment.cant_at(1300.0).right == 0.0);
  CHECK(alignment.cant_at(1700.0).left == 0.0);
  CHECK(alignment.rail_head_distance() == 1.5);
}

TEST_CASE("LandXML errors name the file, the line and the element", "[io][alignment]") {
  const auto error_of = [](const std::string& text) {
    const auto r = landxml::parse(text, "t.xml");
    REQUIRE(!r);
    return r.error();
  };
  CHECK(error_of("<LandXML><Alignments>").message.rfind("t.xml:1: not XML: ", 0) == 0);
  CHECK(error_of("<Other/>").message ==
        "t.xml:1: <Other>: the document is not LandXML (its root "
        "is not <LandXML>)");
  CHECK(error_of("<LandXML/>").code == ErrorCode::empty_input);
  CHECK(error_of(document("<CoordGeom>\n<Spiral spiType=\"radioid\" rot=\"cw\" length=\"10\" "
                          "radiusEnd=\"100\"><Start>0 0</Start><PI>0 5</PI><End>1 10</End>"
                          "</Spiral>\n</CoordGeom>"))
            .message.rfind("t.xml:6: <Spiral>: spiType 'radioid' is not supported", 0) == 0);
  CHECK(error_of(document("<CoordGeom>\n<Line><End>0 100</End></Line>\n</CoordGeom>")).message ==
        "t.xml:6: <Line>: needs a <Start> point");
  CHECK(error_of(document("<CoordGeom>\n<Line><Start>0 x</Start><End>0 100</End></Line>\n"
                          "</CoordGeom>"))
            .message == "t.xml:6: <Start>: 'x' is not a number");
  // Two lines that do not meet: the continuity error, at the second line.
  const auto gap =
      error_of(document("<CoordGeom>\n<Line><Start>0 0</Start><End>0 100</End></Line>\n"
                        "<Line><Start>0 100.5</Start><End>0 250</End></Line>\n</CoordGeom>"));
  CHECK(gap.code == ErrorCode::not_continuous);
  CHECK(gap.message.rfind("t.xml:7: <Line>: horizontal segment 1 (LINE) starts 0.5", 0) == 0);
  // A profile that does not start at a PVI, and one whose curve overruns the next PVI.
  CHECK(error_of(document(two_lines + "\n<Profile><ProfAlign>\n<ParaCurve length=\"50\">0 10"
                                      "</ParaCurve>\n<PVI>250 12</PVI>\n</ProfAlign></Profile>"))
            .message.rfind("t.xml:10: <ParaCurve>: a profile must start and end at a PVI", 0) == 0);
  CHECK(error_of(document(two_lines + "\n<Profile><ProfAlign>\n<PVI>0 10</PVI>\n<ParaCurve "
                                      "length=\"300\">100 12</ParaCurve>\n<PVI>250 11</PVI>\n"
                                      "</ProfAlign></Profile>"))
            .message.rfind("t.xml:11: <ParaCurve>: its vertical curve reaches past", 0) == 0);
  CHECK(error_of(document(two_lines + "\n<Cant rotationPoint=\"nowhere\"/>"))
            .message.rfind("t.xml:9: <Cant>: rotationPoint 'nowhere'", 0) == 0);
  CHECK(error_of(document(two_lines + "\n<Cant>\n<CantStation station=\"0\" appliedCant=\"0.1\"/>"
                                      "\n<CantStation station=\"250\" appliedCant=\"0.1\" "
                                      "curvature=\"cw\"/>\n</Cant>"))
            .message.rfind("t.xml:10: <CantStation>: a cant needs curvature", 0) == 0);
  // A cant too steep for the rails: Alignment::build's error, at its cant station.
  CHECK(error_of(document(two_lines + "\n<Cant>\n<CantStation station=\"0\" appliedCant=\"0\"/>"
                                      "\n<CantStation station=\"250\" appliedCant=\"2000\" "
                                      "curvature=\"cw\"/>\n</Cant>"))
            .message.rfind("t.xml:10: <CantStation>: cant segment 0 (LINEARTRANSITION)", 0) == 0);
  CHECK(landxml::read("/nonexistent/x.xml").error().message ==
        "/nonexistent/x.xml: cannot be opened for reading");
}

TEST_CASE("LandXML with a namespace prefix and a start station", "[io][alignment]") {
  const std::string text =
      "<lx:LandXML xmlns:lx=\"http://www.landxml.org/schema/LandXML-1.2\"><lx:Alignments>"
      "<lx:Alignment name=\"p\" staStart=\"1000\"><lx:CoordGeom>"
      "<lx:Line><lx:Start>10 20</lx:Start><lx:End>10 120</lx:End></lx:Line>"
      "</lx:CoordGeom><lx:Profile><lx:ProfAlign><lx:PVI>1000 5</lx:PVI><lx:PVI>1100 7</lx:PVI>"
      "</lx:ProfAlign></lx:Profile></lx:Alignment></lx:Alignments></lx:LandXML>";
  const auto file = landxml::parse(text);
  REQUIRE(file);
  const auto& alignment = file->front().alignment;
  CHECK(alignment.station(0.0) == 1000.0);
  tractrix::Alignment<double>::Cursor cursor;
  const auto end = alignment.at_station(100.0, cursor);
  CHECK((end.point - Vector3d(120, 10, 7)).norm() <= 1e-12);
}

TEST_CASE("LandXML's spiral types, cant pivots and units, and what files get wrong in passing",
          "[io][alignment]") {
  // One spiral of each type from straight to R 400 (left), each its own alignment: the type
  // mapped, a Viennese bend with the centre-of-gravity height of the settings.
  const std::pair<const char*, HorizontalType> types[] = {
      {"clothoid", HorizontalType::clothoid},
      {"bloss", HorizontalType::bloss_curve},
      {"cosine", HorizontalType::cosine_curve},
      {"sinusoid", HorizontalType::sine_curve},
      {"biquadratic", HorizontalType::helmert_curve},
      {"weinerBogen", HorizontalType::viennese_bend},
      {"cubicParabola", HorizontalType::cubic}};
  landxml::ReadSettings settings;
  settings.gravity_center_height = 1.8;
  for (const auto& [name, type] : types) {
    const auto file = landxml::parse(
        document(std::string("<CoordGeom><Spiral spiType=\"") + name +
                 "\" rot=\"ccw\" length=\"40\" radiusStart=\"-INF\" radiusEnd=\"400\">"
                 "<Start>0 0</Start><PI>0 20</PI><End>1 40</End></Spiral></CoordGeom>"),
        "s.xml", settings);
    REQUIRE(file);
    const auto& g = file->front().layouts.horizontal.front();
    CHECK(g.type == type);
    CHECK(g.start_radius == 0.0);
    CHECK(g.end_radius == 400.0);
    CHECK(g.gravity_center_height == (type == HorizontalType::viennese_bend ? 1.8 : 0.0));
  }
  // Cant of 150 mm on a cw (right-hand) curve, about each pivot: the left rail is the high one.
  const std::pair<const char*, std::array<double, 2>> pivots[] = {{"insideRail", {0.15, 0}},
                                                                  {"outsideRail", {0, -0.15}},
                                                                  {"center", {0.075, -0.075}},
                                                                  {"leftRail", {0, -0.15}},
                                                                  {"rightRail", {0.15, 0}}};
  for (const auto& [pivot, rails] : pivots) {
    const auto file = landxml::parse(
        document(two_lines + "<Cant rotationPoint=\"" + pivot +
                 "\"><CantStation station=\"0\" appliedCant=\"150\" curvature=\"cw\"/>"
                 "<CantStation station=\"250\" appliedCant=\"150\" curvature=\"cw\"/></Cant>"));
    REQUIRE(file);
    const auto at = file->front().alignment.cant_at(100.0);
    INFO(pivot);
    CHECK(at.left == Approx(rails[0]));
    CHECK(at.right == Approx(rails[1]));
  }
  // Imperial: a line in feet, 6 inches of cant = 0.5 ft.
  const auto feet = landxml::parse(
      "<LandXML><Units><Imperial linearUnit=\"foot\"/></Units><Alignments><Alignment>" + two_lines +
      "<Cant><CantStation station=\"0\" appliedCant=\"6\" curvature=\"ccw\"/>"
      "<CantStation station=\"250\" appliedCant=\"6\" curvature=\"ccw\"/></Cant>"
      "</Alignment></Alignments></LandXML>");
  REQUIRE(feet);
  CHECK(feet->front().alignment.cant_at(10.0).right == Approx(0.5));
  // A line of no length keeps the direction of the one before it (north, here).
  const auto stub =
      landxml::parse(document("<CoordGeom><Line><Start>0 0</Start><End>100 0</End></Line>"
                              "<Line><Start>100 0</Start><End>100 0</End></Line>"
                              "<Line><Start>100 0</Start><End>200 0</End></Line></CoordGeom>"));
  REQUIRE(stub);
  CHECK(stub->front().layouts.horizontal[1].start_direction == Approx(std::atan2(1.0, 0.0)));
  // Two parabolas that meet in the file's decimals (151.8) but overlap by rounding in double.
  const auto touching = landxml::parse(
      document(two_lines + "<Profile><ProfAlign><PVI>0 10</PVI><ParaCurve length=\"56.7\">123.45 11"
                           "</ParaCurve><ParaCurve length=\"40.1\">171.85 10.5</ParaCurve>"
                           "<PVI>250 10.7</PVI></ProfAlign></Profile>"));
  CHECK(touching);
  // Cant stations before a negative start station, in order.
  const auto negative = landxml::parse(
      document(two_lines + "<Cant><CantStation station=\"-500\" appliedCant=\"0\"/><CantStation "
                           "station=\"-400\" appliedCant=\"50\" curvature=\"ccw\"/><CantStation "
                           "station=\"-250\" appliedCant=\"50\" curvature=\"ccw\"/></Cant>",
               "staStart=\"-500\""));
  REQUIRE(negative);
  CHECK(negative->front().alignment.cant_at(150.0).right == Approx(0.05));
}
