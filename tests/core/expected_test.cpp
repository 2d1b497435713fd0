#include <memory>
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

namespace {
Expected<int> halve_even(int x) {
  if (x % 2 != 0) return make_error(ErrorCode::out_of_range, "odd " + detail::number_text(x));
  return x / 2;
}
}  // namespace

TEST_CASE("and_then chains fallible steps and passes the first error on", "[core][expected]") {
  const Expected<int> twelve = 12;
  const Expected<int> three = twelve.and_then(halve_even).and_then(halve_even);
  REQUIRE(three.has_value());
  CHECK(*three == 3);
  // 12 → 6 → 3 → refused: the message is the step that failed, with its value.
  const Expected<int> refused =
      twelve.and_then(halve_even).and_then(halve_even).and_then(halve_even);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().code == ErrorCode::out_of_range);
  CHECK(refused.error().message == "odd 3");
  // A step after the error is not called.
  int calls = 0;
  const Expected<int> after = refused.and_then([&](int x) -> Expected<int> { return ++calls + x; });
  CHECK(calls == 0);
  CHECK(after.error().message == "odd 3");
}

TEST_CASE("transform maps a value and keeps an error, also for move-only values",
          "[core][expected]") {
  const Expected<int> four = 4;
  const Expected<std::string> text = four.transform([](int x) { return std::to_string(x * 25); });
  REQUIRE(text.has_value());
  CHECK(*text == "100");
  const Expected<int> bad = make_error(ErrorCode::non_finite, "speed: nan");
  const Expected<double> still_bad = bad.transform([](int x) { return x * 0.5; });
  REQUIRE_FALSE(still_bad.has_value());
  CHECK(still_bad.error().code == ErrorCode::non_finite);
  CHECK(still_bad.error().message == "speed: nan");
  // An rvalue chain moves its value into the step.
  const Expected<int> seven = Expected<std::unique_ptr<int>>(std::make_unique<int>(6))
                                  .transform([](std::unique_ptr<int> p) { return *p + 1; });
  CHECK(*seven == 7);
}

TEMPLATE_TEST_CASE("wrap keeps many laps exact and maps non-finite input to 0", "[core][numeric]",
                   float, double) {
  using S = TestType;
  const S period = S(7.25);  // exactly representable, so k·period is exact for small k
  CHECK(detail::wrap(S(0), period) == S(0));
  CHECK(detail::wrap(period, period) == S(0));
  CHECK(detail::wrap(S(3) * period + S(1.5), period) == S(1.5));
  CHECK(detail::wrap(-S(1.5), period) == period - S(1.5));
  CHECK(detail::wrap(-S(1000) * period, period) == S(0));
  // −tiny + period rounds to period in floating point; wrap must still land in [0, period).
  const S tiny = std::numeric_limits<S>::denorm_min();
  CHECK(detail::wrap(-tiny, period) < period);
  CHECK(detail::wrap(std::numeric_limits<S>::quiet_NaN(), period) == S(0));
  CHECK(detail::wrap(std::numeric_limits<S>::infinity(), period) == S(0));
  CHECK(detail::clamp_or_low(std::numeric_limits<S>::quiet_NaN(), S(1), S(2)) == S(1));
  CHECK(detail::clamp_or_low(S(5), S(1), S(2)) == S(2));
}
