// Horizontal layouts against references they share nothing with: each type's heading integrated
// by hand and its position by long double Gauss–Legendre quadrature (support/reference_alignment),
// the clothoid's Fresnel series, and the closed forms of lines and arcs.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "support/catch.hpp"
#include "support/reference_alignment.hpp"
#include "tractrix/alignment/horizontal.hpp"

using namespace tractrix;
using namespace tractrix::test;

namespace {

const HorizontalType transitions[] = {HorizontalType::clothoid,    HorizontalType::helmert_curve,
                                      HorizontalType::bloss_curve, HorizontalType::cosine_curve,
                                      HorizontalType::sine_curve,  HorizontalType::viennese_bend};

const HorizontalType transitions_and_cubic[] = {
    HorizontalType::clothoid,     HorizontalType::helmert_curve, HorizontalType::bloss_curve,
    HorizontalType::cosine_curve, HorizontalType::sine_curve,    HorizontalType::viennese_bend,
    HorizontalType::cubic};

// The eight start and end radius pairs of buildingSMART's atomic test set, in its spirit:
// straight to curve and back, left and right, curve to sharper and gentler curve, and a
// reversal through straight.
const double radius_pairs[8][2] = {{0, 300},    {0, -300},     {300, 0},     {-300, 0},
                                   {1000, 300}, {-300, -1000}, {1000, -300}, {-250, 400}};

template <class S>
HorizontalSegment<S> segment(HorizontalType type, double r0, double r1, double length,
                             double x = 1200.5, double y = -730.25, double direction = 0.7) {
  HorizontalSegment<S> g;
  g.type = type;
  g.start_point = Vector2<S>(S(x), S(y));
  g.start_direction = S(direction);
  g.start_radius = S(r0);
  g.end_radius = S(r1);
  g.length = S(length);
  return g;
}

// The largest distance from the reference over n + 1 evenly spaced distances and a few awkward
// ones (the ends, just inside them, the Helmert curve's middle), and the largest direction,
// curvature and tangent differences.
struct Deviation {
  long double position = 0, direction = 0, curvature = 0, tangent = 0;
  long double sharpest = 0;  // the largest |κ| of the reference
};
// The size of a segment's curvature terms: its end curvatures and the Viennese bend's bank term
// (whose polynomial terms cancel to a smaller sum).
template <class S>
long double curvature_scale(const HorizontalSegment<S>& g) {
  const auto k = [](long double r) { return r != 0 ? std::fabs(1 / r) : 0.0L; };
  return std::max(k(g.start_radius), k(g.end_radius)) +
         420 * std::fabs(static_cast<long double>(g.gravity_center_height) * g.bank_angle_change) /
             (static_cast<long double>(g.length) * g.length);
}
template <class S>
Deviation deviation(const HorizontalSegment<S>& g, int n = 64) {
  const auto layout = HorizontalLayout<S>::build({g});
  REQUIRE(layout);
  const ReferenceHorizontal reference(g);
  const long double L = g.length;
  std::vector<long double> distances;
  for (int i = 0; i <= n; ++i)
    distances.push_back(L * i / n);
  for (long double s : {1e-9L * L, L / 2 - 1e-7L * L, L / 2 + 1e-7L * L, L * (1 - 1e-9L)})
    distances.push_back(s);
  std::sort(distances.begin(), distances.end());
  Deviation worst;
  std::size_t cursor = 0;
  // The reference walks the distances in order (its quadrature over each step only); the cubic
  // parabola's has no such walk.
  long double last = 0;
  std::array<long double, 2> r = reference.position(0);
  for (long double s : distances) {
    const auto p = layout->at(S(s), cursor);
    const long double at = static_cast<long double>(S(s));  // the distance asked, in S
    r = g.type == HorizontalType::cubic ? reference.position(at)
                                        : reference.position_after(r, last, at);
    last = at;
    worst.position =
        std::max(worst.position, std::hypot(p.position.x() - r[0], p.position.y() - r[1]));
    worst.direction = std::max(worst.direction, std::fabs(p.direction - reference.direction(at)));
    worst.curvature = std::max(worst.curvature, std::fabs(p.curvature - reference.curvature(at)));
    worst.sharpest = std::max(worst.sharpest, std::fabs(reference.curvature(at)));
    const long double t = reference.direction(at);
    worst.tangent = std::max(worst.tangent,
                             std::hypot(p.tangent.x() - std::cos(t), p.tangent.y() - std::sin(t)));
  }
  return worst;
}

// Control points of buildingSMART Germany's BIM Fit Check atomic alignment test set
// (A. Pinzenöhler, IQSOFT test data generator; IFC4X3_ADD2 files with control points per metre),
// as published in github.com/RickBrice/IFC-Alignment-Geometry-Implementation-Guide at commit
// b088ddb, BIM_Fit_Check_testset/Alignment-atomic-testset/<type>/ifcfiles/horizontal_check/.
// That repository carries no licence file, so only two points of each of the 48 cases are
// quoted here, as facts to check against: the points at 50 m and 100 m of each 100 m segment
// starting at the origin along +x. The Viennese bends take their bank from the cases' cant
// (rail head distance 1.5 m) and a centre of gravity 1.8 m high.
struct FitCheckCase {
  HorizontalType type;
  int variant;
  double start_radius, end_radius, gravity_center_height, start_cant, end_cant;
  double x50, y50, x100, y100;
};
const FitCheckCase fit_check_cases[] = {
    {HorizontalType::clothoid, 1, 0, 300, 0, 0, 0, 49.9913201421206, 0.694358332578799,
     99.7225792178274, 5.5445423656288},
    {HorizontalType::clothoid, 2, 0, -300, 0, 0, 0, 49.9913201421206, -0.694358332578799,
     99.7225792178274, -5.5445423656288},
    {HorizontalType::clothoid, 3, 300, 0, 0, 0, 0, 49.8467713085449, 3.46724739860723,
     99.2605646656708, 11.0758773084716},
    {HorizontalType::clothoid, 4, -300, 0, 0, 0, 0, 49.8467713085449, -3.46724739860723,
     99.2605646656708, -11.0758773084716},
    {HorizontalType::clothoid, 5, 1000, 300, 0, 0, 0, 49.9566969512643, 1.73527951347574,
     99.4068642447563, 8.85797863211989},
    {HorizontalType::clothoid, 6, -1000, -300, 0, 0, 0, 49.9566969512643, -1.73527951347574,
     99.4068642447563, -8.85797863211989},
    {HorizontalType::clothoid, 7, 300, 1000, 0, 0, 0, 49.8252008723562, 3.67440418550316,
     98.9869256442883, 12.7191586166162},
    {HorizontalType::clothoid, 8, -300, -1000, 0, 0, 0, 49.8252008723562, -3.67440418550316,
     98.9869256442883, -12.7191586166162},
    {HorizontalType::helmert_curve, 1, 0, 300, 0, 0, 0, 49.9972443634885, 0.347204361427475,
     99.7517634462451, 4.85106052287364},
    {HorizontalType::helmert_curve, 2, 0, -300, 0, 0, 0, 49.9972443634885, -0.347204361427475,
     99.7517634462451, -4.85106052287364},
    {HorizontalType::helmert_curve, 3, 300, 0, 0, 0, 0, 49.8122545525202, 3.81263503030693,
     99.174298539187, 11.7645912845465},
    {HorizontalType::helmert_curve, 4, -300, 0, 0, 0, 0, 49.8122545525202, -3.81263503030693,
     99.174298539187, -11.7645912845465},
    {HorizontalType::helmert_curve, 5, 1000, 300, 0, 0, 0, 49.9681012468824, 1.49252747074135,
     99.4454089089295, 8.37378888968845},
    {HorizontalType::helmert_curve, 6, -1000, -300, 0, 0, 0, 49.9681012468824, -1.49252747074135,
     99.4454089089295, -8.37378888968845},
    {HorizontalType::helmert_curve, 7, 300, 1000, 0, 0, 0, 49.7998035122387, 3.91603145329256,
     98.9204802175707, 13.2003138962093},
    {HorizontalType::helmert_curve, 8, -300, -1000, 0, 0, 0, 49.7998035122387, -3.91603145329256,
     98.9204802175707, -13.2003138962093},
    {HorizontalType::bloss_curve, 1, 0, 300, 0, 0, 0, 49.9962110370024, 0.416638792537601,
     99.7468064174602, 4.98981104238495},
    {HorizontalType::bloss_curve, 2, 0, -300, 0, 0, 0, 49.9962110370024, -0.416638792537601,
     99.7468064174602, -4.98981104238495},
    {HorizontalType::bloss_curve, 3, 300, 0, 0, 0, 0, 49.8198844910547, 3.74362851185448,
     99.1924283733983, 11.6269410469495},
    {HorizontalType::bloss_curve, 4, -300, 0, 0, 0, 0, 49.8198844910547, -3.74362851185448,
     99.1924283733983, -11.6269410469495},
    {HorizontalType::bloss_curve, 5, 1000, 300, 0, 0, 0, 49.9657730947647, 1.54107757946626,
     99.438128612715, 8.47068231980687},
    {HorizontalType::bloss_curve, 6, -1000, -300, 0, 0, 0, 49.9657730947647, -1.54107757946626,
     99.438128612715, -8.47068231980687},
    {HorizontalType::bloss_curve, 7, 300, 1000, 0, 0, 0, 49.805359778026, 3.86775383565237,
     98.9341998449655, 13.1041208021888},
    {HorizontalType::bloss_curve, 8, -300, -1000, 0, 0, 0, 49.805359778026, -3.86775383565237,
     98.9341998449655, -13.1041208021888},
    {HorizontalType::cosine_curve, 1, 0, 300, 0, 0, 0, 49.9965364029406, 0.394622286404052,
     99.7484553577365, 4.94582068772272},
    {HorizontalType::cosine_curve, 2, 0, -300, 0, 0, 0, 49.9965364029406, -0.394622286404052,
     99.7484553577365, -4.94582068772272},
    {HorizontalType::cosine_curve, 3, 300, 0, 0, 0, 0, 49.8175443484384, 3.76551744971644,
     99.1867566349768, 11.6705953902686},
    {HorizontalType::cosine_curve, 4, -300, 0, 0, 0, 0, 49.8175443484384, -3.76551744971644,
     99.1867566349768, -11.6705953902686},
    {HorizontalType::cosine_curve, 5, 1000, 300, 0, 0, 0, 49.966493009278, 1.52568242432606,
     99.4404746164793, 8.4399645627269},
    {HorizontalType::cosine_curve, 6, -1000, -300, 0, 0, 0, 49.966493009278, -1.52568242432606,
     99.4404746164793, -8.4399645627269},
    {HorizontalType::cosine_curve, 7, 300, 1000, 0, 0, 0, 49.8036538655621, 3.88306775608843,
     98.9298874350011, 13.1346246946288},
    {HorizontalType::cosine_curve, 8, -300, -1000, 0, 0, 0, 49.8036538655621, -3.88306775608843,
     98.9298874350011, -13.1346246946288},
    {HorizontalType::sine_curve, 1, 0, 300, 0, 0, 0, 49.9980741364418, 0.272261686632476,
     99.7569805097155, 4.70132070248442},
    {HorizontalType::sine_curve, 2, 0, -300, 0, 0, 0, 49.9980741364418, -0.272261686632476,
     99.7569805097155, -4.70132070248442},
    {HorizontalType::sine_curve, 3, 300, 0, 0, 0, 0, 49.8041724921779, 3.88712356370469,
     99.1546020539043, 11.9131216855725},
    {HorizontalType::sine_curve, 4, -300, 0, 0, 0, 0, 49.8041724921779, -3.88712356370469,
     99.1546020539043, -11.9131216855725},
    {HorizontalType::sine_curve, 5, 1000, 300, 0, 0, 0, 49.9703821993632, 1.44011819493608,
     99.4532004131354, 8.26922476836964},
    {HorizontalType::sine_curve, 6, -1000, -300, 0, 0, 0, 49.9703821993632, -1.44011819493608,
     99.4532004131354, -8.26922476836964},
    {HorizontalType::sine_curve, 7, 300, 1000, 0, 0, 0, 49.7939732141883, 3.96815152347189,
     98.9056108357451, 13.3041082336709},
    {HorizontalType::sine_curve, 8, -300, -1000, 0, 0, 0, 49.7939732141883, -3.96815152347189,
     98.9056108357451, -13.3041082336709},
    {HorizontalType::viennese_bend, 1, 0, 300, 1.8, 0.0, 0.1, 49.9989767144196, 0.171476631974637,
     99.7631986781913, 4.49991547594814},
    {HorizontalType::viennese_bend, 2, 0, -300, 1.8, 0.0, -0.1, 49.9989767144196,
     -0.171476631974637, 99.7631986781913, -4.49991547594814},
    {HorizontalType::viennese_bend, 3, 300, 0, 1.8, 0.1, 0.0, 49.7927219283836, 3.98723130106789,
     99.1273217104727, 12.1127676566252},
    {HorizontalType::viennese_bend, 4, -300, 0, 1.8, -0.1, 0.0, 49.7927219283836, -3.98723130106789,
     99.1273217104727, -12.1127676566252},
    {HorizontalType::viennese_bend, 5, 1000, 300, 1.8, 0.03, 0.1, 49.9734233177278,
     1.36963643847827, 99.4632891776699, 8.12856690712201},
    {HorizontalType::viennese_bend, 6, -1000, -300, 1.8, -0.03, -0.1, 49.9734233177278,
     -1.36963643847827, 99.4632891776699, -8.12856690712201},
    {HorizontalType::viennese_bend, 7, 300, 1000, 1.8, 0.1, 0.03, 49.7857699446063,
     4.03820194365747, 98.8852257359684, 13.4436462743899},
    {HorizontalType::viennese_bend, 8, -300, -1000, 1.8, -0.1, -0.03, 49.7857699446063,
     -4.03820194365747, 98.8852257359684, -13.4436462743899},
};

}  // namespace

TEST_CASE("every transition type and radius pair is within 1e-12 of its length of the quadrature",
          "[alignment]") {
  for (HorizontalType type : transitions)
    for (const auto& radii : radius_pairs)
      for (double length : {100.0, 37.5}) {
        auto g = segment<double>(type, radii[0], radii[1], length);
        if (type == HorizontalType::viennese_bend) {
          g.gravity_center_height = 1.8;
          g.bank_angle_change =
              (radii[1] != 0.0 ? 30 / radii[1] : 0) - (radii[0] != 0.0 ? 30 / radii[0] : 0);
        }
        const Deviation d = deviation(g);
        INFO(to_string(type) << " R " << radii[0] << " -> " << radii[1] << " L " << length);
        CHECK(d.position <= 1e-12L * length);
        CHECK(d.direction <= 4e-15L);
        CHECK(d.curvature <= 1e-14L * curvature_scale(g));
        CHECK(d.tangent <= 4e-15L);
      }
}

TEST_CASE("a cubic parabola is y = x^3 / 6RL along its length, within 1e-12 of it", "[alignment]") {
  // Its length is along the curve (IFC's SegmentLength): the 100 m one from straight to R 300
  // ends at x = 99.72702866375541, y = 5.510184408765427 (30-digit quadrature and root; the
  // IFC implementation guide's example prints 99.7259, 5.5100).
  const auto end = HorizontalLayout<double>::build(
      {segment<double>(HorizontalType::cubic, 0, 300, 100, 0, 0, 0)});
  REQUIRE(end);
  CHECK(std::fabs(end->at(100.0).position.x() - 99.72702866375541) <= 1e-12);
  CHECK(std::fabs(end->at(100.0).position.y() - 5.510184408765427) <= 1e-12);
  for (const auto& radii : radius_pairs)
    for (double length : {100.0, 37.5}) {
      const auto g = segment<double>(HorizontalType::cubic, radii[0], radii[1], length);
      const Deviation d = deviation(g);
      INFO("R " << radii[0] << " -> " << radii[1] << " L " << length);
      CHECK(d.position <= 1e-12L * length);
      CHECK(d.direction <= 4e-15L);
      CHECK(d.curvature <= 1e-13L * curvature_scale(g));
      CHECK(d.tangent <= 4e-15L);
    }
}

TEST_CASE("float layouts are within a few float epsilons of the coordinates' size", "[alignment]") {
  for (HorizontalType type : transitions_and_cubic)
    for (const auto& radii : radius_pairs) {
      const auto g = segment<float>(type, radii[0], radii[1], 100.0);
      const Deviation d = deviation(g);
      INFO(to_string(type) << " R " << radii[0] << " -> " << radii[1]);
      const long double scale = 1500;  // the coordinates' size
      CHECK(d.position <= 8 * 1.2e-7L * scale);
      CHECK(d.direction <= 8 * 1.2e-7L);
      CHECK(d.tangent <= 8 * 1.2e-7L);
    }
}

TEST_CASE("lines and arcs are their closed forms, over many turns", "[alignment]") {
  const auto line =
      HorizontalLayout<double>::build({segment<double>(HorizontalType::line, 0, 0, 500)});
  REQUIRE(line);
  const auto p = line->at(321.0);
  CHECK(std::hypot(p.position.x() - (1200.5 + 321 * std::cos(0.7)),
                   p.position.y() - (-730.25 + 321 * std::sin(0.7))) <= 1e-12 * 500);
  CHECK(p.curvature == 0.0);
  // An arc of radius 35 turning left through ~14 full circles, and one turning right.
  for (double radius : {35.0, -35.0}) {
    const double length = 3100;
    const auto arc = HorizontalLayout<double>::build(
        {segment<double>(HorizontalType::circular_arc, radius, radius, length, 10, 20, -2.0)});
    REQUIRE(arc);
    long double worst = 0;
    for (int i = 0; i <= 997; ++i) {
      const long double s = length * i / 997.0L, R = radius, a = -2.0L, phi = s / R;
      // The centre is R to the left of the start's direction; the point turns about it.
      const long double cx = 10 - R * std::sin(a), cy = 20 + R * std::cos(a);
      const long double x = cx + R * std::sin(a + phi), y = cy - R * std::cos(a + phi);
      const auto q = arc->at(double(s));
      worst = std::max(worst, std::hypot(q.position.x() - x, q.position.y() - y));
      CHECK(q.curvature == Approx(1 / radius));
    }
    CHECK(worst <= 1e-12L * length);
  }
}

TEST_CASE("a clothoid from straight is the Fresnel series", "[alignment]") {
  // A² = R L; the series is summed in long double while its terms stay below ~1e8.
  for (const auto& [radius, length] : {std::pair<double, double>{300, 100}, {2, 20}}) {
    const auto layout = HorizontalLayout<double>::build(
        {segment<double>(HorizontalType::clothoid, 0, radius, length, 0, 0, 0)});
    REQUIRE(layout);
    long double worst = 0;
    for (int i = 0; i <= 500; ++i) {
      const long double s = length * i / 500.0L;
      const auto r = fresnel_clothoid(s, static_cast<long double>(radius) * length);
      const auto p = layout->at(double(s));
      worst = std::max(worst, std::hypot(p.position.x() - r[0], p.position.y() - r[1]));
    }
    INFO("R " << radius << " L " << length);
    CHECK(worst <= 1e-12L * length);
  }
}

TEST_CASE("a sharp clothoid turning hundreds of radians is still within 1e-12 of its length",
          "[alignment]") {
  // From straight to R 1 over 1000: L / 2R = 500 rad.
  const auto d = deviation(segment<double>(HorizontalType::clothoid, 0, 1, 1000, 5, 5, 0), 256);
  CHECK(d.position <= 1e-12L * 1000);
  CHECK(d.tangent <= 1e-13L);
}

TEST_CASE("a chain of segments is continuous and each part matches its own reference",
          "[alignment]") {
  // Line, clothoid in, arc, Bloss out, line: each segment starts where the reference says the
  // one before ends.
  struct Part {
    HorizontalType type;
    double r0, r1, length;
  };
  const Part parts[] = {{HorizontalType::line, 0, 0, 120},
                        {HorizontalType::clothoid, 0, -450, 80},
                        {HorizontalType::circular_arc, -450, -450, 200},
                        {HorizontalType::bloss_curve, -450, 0, 90},
                        {HorizontalType::line, 0, 0, 60}};
  std::vector<HorizontalSegment<double>> segments;
  long double x = 500, y = 800, direction = 1.2;
  for (const Part& part : parts) {
    auto g = segment<double>(part.type, part.r0, part.r1, part.length, double(x), double(y),
                             double(direction));
    segments.push_back(g);
    const ReferenceHorizontal reference(g);
    const auto end = reference.position(part.length);
    x = end[0];
    y = end[1];
    direction = reference.direction(part.length);
  }
  segments.push_back(segment<double>(HorizontalType::line, 0, 0, 0, double(x), double(y),
                                     double(direction)));  // IFC's closing segment
  const auto layout = HorizontalLayout<double>::build(segments);
  REQUIRE(layout);
  CHECK(layout->length() == 550.0);
  CHECK(layout->segment_count() == 6);
  CHECK(layout->segment_start(3) == 400.0);
  std::size_t cursor = 0;
  long double worst = 0;
  for (int i = 0; i <= 1100; ++i) {
    const double s = 0.5 * i;
    std::size_t k = 0;
    while (k + 1 < segments.size() && layout->segment_start(k + 1) <= s &&
           segments[k + 1].length > 0)
      ++k;
    const ReferenceHorizontal reference(segments[k]);
    const auto r = reference.position(s - layout->segment_start(k));
    const auto p = layout->at(s, cursor);
    worst = std::max(worst, std::hypot(p.position.x() - r[0], p.position.y() - r[1]));
  }
  CHECK(worst <= 1e-12L * 550);
  // Beyond the ends: clamped; NaN: the start.
  CHECK((layout->at(-5.0).position - segments[0].start_point).norm() <= 1e-12);
  CHECK((layout->at(std::nan("")).position - segments[0].start_point).norm() <= 1e-12);
  CHECK((layout->at(1e9).position - Vector2d(double(x), double(y))).norm() <= 1e-10);
}

TEST_CASE("a layout that does not continue, or bad attributes, are errors naming the segment",
          "[alignment]") {
  auto a = segment<double>(HorizontalType::line, 0, 0, 100, 0, 0, 0);
  auto b = segment<double>(HorizontalType::circular_arc, 200, 200, 50, 100.001, 0, 0);
  auto result = HorizontalLayout<double>::build({a, b});
  REQUIRE(!result);
  CHECK(result.error().code == ErrorCode::not_continuous);
  CHECK(result.error().message.find("horizontal segment 1 (CIRCULARARC) starts 0.001") == 0);
  // Within a tolerance given, it builds.
  CHECK(HorizontalLayout<double>::build({a, b}, HorizontalTolerance{1e-5, 0}));
  b.start_point.x() = 100;
  b.start_direction = 0.01;
  result = HorizontalLayout<double>::build({a, b});
  REQUIRE(!result);
  CHECK(result.error().message.find("0.01 rad off the direction") != std::string::npos);

  const auto error_of = [](HorizontalSegment<double> g) {
    const auto r = HorizontalLayout<double>::build({g});
    REQUIRE(!r);
    return r.error();
  };
  auto g = a;
  g.length = -1;
  CHECK(error_of(g).code == ErrorCode::out_of_range);
  g.length = 0;
  CHECK(error_of(g).message == "horizontal layout: its length is 0");
  g = a;
  g.start_radius = std::nan("");
  CHECK(error_of(g).code == ErrorCode::non_finite);
  CHECK(error_of(g).message == "horizontal segment 0 (LINE): start_radius is nan");
  g = a;
  g.end_radius = 30;
  CHECK(error_of(g).code == ErrorCode::out_of_range);
  g = segment<double>(HorizontalType::circular_arc, 0, 0, 10);
  CHECK(error_of(g).message == "horizontal segment 0 (CIRCULARARC): an arc's radius must not be 0");
  g = segment<double>(HorizontalType::circular_arc, 100, 90, 10);
  CHECK(error_of(g).code == ErrorCode::out_of_range);
  g = segment<double>(HorizontalType::cubic, 300, 300, 10);
  CHECK(error_of(g).message.find("needs different start and end radii") != std::string::npos);
  // A cubic parabola between near-equal radii enters where it is steep, and one as long as its
  // radius ends steep: their curvature misses the radii given by more than 10 %.
  g = segment<double>(HorizontalType::cubic, 300, 350, 100);
  CHECK(error_of(g).message.find("more than 10 % off the radius given") != std::string::npos);
  g = segment<double>(HorizontalType::cubic, 0, 100, 100);
  CHECK(error_of(g).code == ErrorCode::out_of_range);
  g = segment<double>(HorizontalType::clothoid, 0, 1e-9, 1e3);
  CHECK(error_of(g).message.find("turns too far over its length") != std::string::npos);
  CHECK(!HorizontalLayout<double>::build({}));
  CHECK(!HorizontalLayout<double>::build({a}, HorizontalTolerance{-1, 0}));
}

TEST_CASE("the 48 cases of the BIM Fit Check alignment test set agree to their printed digits",
          "[alignment]") {
  // The control points print 15 significant digits: ~1e-13 m at 100 m.
  for (const FitCheckCase& c : fit_check_cases) {
    auto g = segment<double>(c.type, c.start_radius, c.end_radius, 100, 0, 0, 0);
    g.gravity_center_height = c.gravity_center_height;
    g.bank_angle_change = (c.end_cant - c.start_cant) / 1.5;
    const auto layout = HorizontalLayout<double>::build({g});
    REQUIRE(layout);
    INFO(to_string(c.type) << " TS" << c.variant);
    CHECK((layout->at(50.0).position - Vector2d(c.x50, c.y50)).norm() <= 2e-13);
    CHECK((layout->at(100.0).position - Vector2d(c.x100, c.y100)).norm() <= 2e-13);
  }
  // The one the alignment issue singled out: TS6, the clothoid from R −1000 to −300, ends at
  // y = −8.857978632 (a 30-digit quadrature), where IfcOpenShell's table prints −8.857980.
  const auto clothoid = HorizontalLayout<double>::build(
      {segment<double>(HorizontalType::clothoid, -1000, -300, 100, 0, 0, 0)});
  REQUIRE(clothoid);
  CHECK(std::fabs(clothoid->at(100.0).position.y() - -8.857978632) <= 1e-9);
}
