// Cant layouts against each transition's shape written out here (EN 13803's, as IFC 4.3 lists
// them), the bank angle asin(Δ / rail head distance), and the Viennese bend's shape applied to
// the bank angle rather than to the rails.
#include <cmath>
#include <string>
#include <vector>

#include "support/catch.hpp"
#include "tractrix/alignment/cant.hpp"

using namespace tractrix;

namespace {

const double pi = 3.141592653589793238462643383279502884;

double shape(CantType type, double u) {
  switch (type) {
    case CantType::linear_transition:
      return u;
    case CantType::helmert_curve:
      return u < 0.5 ? 2 * u * u : 1 - 2 * (1 - u) * (1 - u);
    case CantType::bloss_curve:
      return 3 * u * u - 2 * u * u * u;
    case CantType::cosine_curve:
      return (1 - std::cos(pi * u)) / 2;
    case CantType::sine_curve:
      return u - std::sin(2 * pi * u) / (2 * pi);
    case CantType::viennese_bend:
      return 35 * std::pow(u, 4) - 84 * std::pow(u, 5) + 70 * std::pow(u, 6) - 20 * std::pow(u, 7);
    default:
      return 0;
  }
}

}  // namespace

TEST_CASE("each cant transition moves each rail by its shape", "[alignment]") {
  for (CantType type : {CantType::linear_transition, CantType::helmert_curve, CantType::bloss_curve,
                        CantType::cosine_curve, CantType::sine_curve}) {
    // Into a right-hand curve: the left rail rises 0 → 150 mm about the centre line.
    const auto cant = CantLayout<double>::build(
        1.5, {{type, 200, 80, 0, 0.075, 0, -0.075},
              {CantType::constant_cant, 280, 50, 0.075, 0.075, -0.075, -0.075}});
    REQUIRE(cant);
    for (int i = 0; i <= 40; ++i) {
      const double u = i / 40.0, f = shape(type, u);
      const CantPoint<double> at = cant->at(200 + 80 * u);
      INFO(to_string(type) << " at " << u);
      CHECK(std::fabs(at.left - 0.075 * f) <= 1e-15);
      CHECK(std::fabs(at.right + 0.075 * f) <= 1e-15);
      CHECK(std::fabs(at.bank - std::asin(-0.15 * f / 1.5)) <= 1e-15);  // leaning right
    }
  }
}

TEST_CASE("a cant's Viennese bend moves the bank angle by its shape, the centre likewise",
          "[alignment]") {
  // The right rail rises 0 → 160 mm about the left rail (the centre rises 0 → 80 mm).
  const auto cant =
      CantLayout<double>::build(1.5, {{CantType::viennese_bend, 0, 120, 0, 0, 0, 0.16}});
  REQUIRE(cant);
  const double end_bank = std::asin(0.16 / 1.5);
  for (int i = 0; i <= 24; ++i) {
    const double u = i / 24.0, f = shape(CantType::viennese_bend, u);
    const CantPoint<double> at = cant->at(120 * u);
    CHECK(std::fabs(at.bank - f * end_bank) <= 1e-15);
    CHECK(std::fabs(0.5 * (at.left + at.right) - 0.08 * f) <= 1e-15);
    CHECK(std::fabs(at.right - at.left - 1.5 * std::sin(f * end_bank)) <= 1e-15);
  }
}

TEST_CASE("a cant layout holds its end values beyond its ends and names bad segments",
          "[alignment]") {
  const auto cant =
      CantLayout<float>::build(1.435f, {{CantType::linear_transition, 10, 50, 0, 0, 0, 0.1f},
                                        {CantType::constant_cant, 60, 100, 0, 0, 0.1f, 0.1f},
                                        {CantType::linear_transition, 160, 0, 0, 0, 0.1f, 0.1f}});
  REQUIRE(cant);
  CHECK(cant->at(0).right == 0.0f);
  CHECK(cant->at(500).right == 0.1f);
  CHECK(cant->at(std::nanf("")).right == 0.0f);
  CHECK(cant->rail_head_distance() == 1.435f);

  const auto error_of = [](std::vector<CantSegment<double>> segments, double b = 1.5) {
    const auto r = CantLayout<double>::build(b, segments);
    REQUIRE(!r);
    return r.error();
  };
  CHECK(error_of({{CantType::constant_cant, 0, 10, 0, 0, 0, 0}}, 0).code ==
        ErrorCode::out_of_range);
  CHECK(error_of({}).code == ErrorCode::empty_input);
  CHECK(error_of({{CantType::constant_cant, 0, 10, 0, 0, 0, 0.1}}).message ==
        "cant segment 0 (CONSTANTCANT): a constant cant's end values differ from its start values");
  CHECK(error_of({{CantType::linear_transition, 0, 10, 0, 0, 0, 1.6}})
            .message.find(
                "cant segment 0 (LINEARTRANSITION): at its end the rails differ by 1.6") == 0);
  CHECK(error_of({{CantType::linear_transition, 0, 10, 0, 0, 0, 0.1},
                  {CantType::constant_cant, 10, 10, 0, 0, 0.12, 0.12}})
            .code == ErrorCode::not_continuous);
  CHECK(error_of({{CantType::linear_transition, 0, 10, 0, 0, 0, 0.1},
                  {CantType::constant_cant, 11, 10, 0, 0, 0.1, 0.1}})
            .message.find("starts at distance 11") != std::string::npos);
  CHECK(error_of({{CantType::linear_transition, 0, 10, std::nan(""), 0, 0, 0.1}}).code ==
        ErrorCode::non_finite);
}
