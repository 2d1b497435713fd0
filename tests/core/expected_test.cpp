#include <string>

#include "support/catch.hpp"
#include "tractrix/core/expected.hpp"
#include "tractrix/core/numeric.hpp"

using namespace tractrix;

TEST_CASE("Expected holds either a value or an error", "[core][expected]") {
  Expected<std::string> good = std::string("track");
  REQUIRE(good.has_value());
  REQUIRE(static_cast<bool>(good));
  CHECK(*good == "track");
  CHECK(good->size() == 5);

  Expected<std::string> bad = make_error(ErrorCode::out_of_range, "wagon 3: length -1");
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().code == ErrorCode::out_of_range);
  CHECK(bad.error().message == "wagon 3: length -1");
  CHECK(std::string(to_string(ErrorCode::no_solution)) == "no_solution");
  CHECK(std::string(to_string(ErrorCode::mismatched_topology)) == "mismatched_topology");
}

TEMPLATE_TEST_CASE("wrap keeps many laps exact and maps non-finite input to 0", "[core][numeric]",
                   float, double) {
  using S = TestType;
  const S period = S(7.25);  // exactly representable, so k·period is exact for small k
  CHECK(wrap(S(0), period) == S(0));
  CHECK(wrap(period, period) == S(0));
  CHECK(wrap(S(3) * period + S(1.5), period) == S(1.5));
  CHECK(wrap(-S(1.5), period) == period - S(1.5));
  CHECK(wrap(-S(1000) * period, period) == S(0));
  // −tiny + period rounds to period in floating point; wrap must still land in [0, period).
  const S tiny = std::numeric_limits<S>::denorm_min();
  CHECK(wrap(-tiny, period) < period);
  CHECK(wrap(std::numeric_limits<S>::quiet_NaN(), period) == S(0));
  CHECK(wrap(std::numeric_limits<S>::infinity(), period) == S(0));
  CHECK(clamp_or_low(std::numeric_limits<S>::quiet_NaN(), S(1), S(2)) == S(1));
  CHECK(clamp_or_low(S(5), S(1), S(2)) == S(2));
}
