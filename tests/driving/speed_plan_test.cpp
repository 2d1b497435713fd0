#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "support/catch.hpp"
#include "support/pieces.hpp"
#include "support/properties.hpp"
#include "support/shapes.hpp"
#include "tractrix/driving/speed_plan.hpp"
#include "tractrix/motion/time_profile.hpp"
#include "tractrix/network/route.hpp"
#include "tractrix/train/track.hpp"

using namespace tractrix;
using namespace tractrix::test;

namespace {

// The lowest limit over [s − train, s] from the zones as given (and the line limit), by
// scanning them: independent of SpeedLimits' sweep.
double held_limit(const std::vector<SpeedZone<double>>& zones, double line, double train,
                  double s) {
  double limit = line;
  for (const auto& z : zones)
    if (z.start < s && z.end > s - train) limit = std::min(limit, z.limit);
  return limit;
}

// Where braking at full power from (v, a) comes to rest, stepped in long double: jerk down to
// the braking limit, held, and up again once the velocity left equals what raising the
// acceleration to 0 removes (v = a²/2J). To 1e-6 of the distance at the steps used.
double full_brake_end(double position, double v, double a, const JerkLimits<double>& m) {
  long double p = position, vel = v, acc = a;
  const long double j = m.max_jerk, dmax = m.max_deceleration;
  const long double dt = (vel / dmax + dmax / j + std::fabs(acc) / j) / 2e6L;
  for (int k = 0; k < 8000000 && (vel > 0 || acc < 0); ++k) {
    const long double jerk = acc < 0 && vel <= acc * acc / (2 * j) ? j : (acc > -dmax ? -j : 0);
    long double step = dt;
    if (jerk < 0 && acc - j * step < -dmax) step = (acc + dmax) / j;  // land on the limit
    p += step * (vel + step * (acc / 2 + step * jerk / 6));
    vel += step * (acc + step * jerk / 2);
    acc += step * jerk;
    if (acc > 0 && vel <= 0) break;
  }
  return double(p);
}

// Samples a plan densely: velocity under `limit(s)`, motion inside its limits, never backwards.
template <class Limit>
void check_plan(const SpeedPlan<double>& plan, const JerkLimits<double>& motion, Limit limit,
                int steps) {
  double previous = plan.at(0).position;
  for (int k = 0; k <= steps; ++k) {
    const double t = plan.duration() * k / steps;
    const AxisSample<double> s = plan.at(t);
    INFO("t " << t << " s " << s.position << " v " << s.velocity << " a " << s.acceleration);
    CHECK(s.velocity <= limit(s.position) * (1 + 1e-12));
    CHECK(s.velocity >= -1e-12 * motion.max_velocity);
    CHECK(s.acceleration <= motion.max_acceleration * (1 + 1e-12));
    CHECK(-s.acceleration <= motion.max_deceleration * (1 + 1e-12));
    CHECK(std::abs(s.jerk) <= motion.max_jerk * (1 + 1e-12));
    CHECK(s.position >= previous - 1e-12 * (1 + std::abs(previous)));
    previous = s.position;
  }
}

}  // namespace

TEST_CASE("speed limits: zones lower the line, and a train keeps a limit until it has left",
          "[motion][speed]") {
  const auto line = *SpeedLimits<double>::line(1000, 30);
  const std::vector<SpeedZone<double>> zones{{200, 300, 10}, {250, 400, 20}, {500, 520, 5}};
  const auto signed_limits = *line.with_zones(zones);
  // Sections: [0,200) 30, [200,300) 10, [300,400) 20, [400,500) 30, [500,520) 5, [520,1000) 30.
  const double starts[] = {0, 200, 300, 400, 500, 520};
  const double limits[] = {30, 10, 20, 30, 5, 30};
  REQUIRE(signed_limits.size() == 6);
  for (std::size_t i = 0; i < 6; ++i) {
    CHECK(signed_limits.start(i) == starts[i]);
    CHECK(signed_limits.limit(i) == limits[i]);
  }
  const auto for_train = *signed_limits.for_train(50);
  for (double s = 0; s <= 1000; s += 0.5)
    CHECK(for_train.at(s) == held_limit(zones, 30, 50, s + 1e-9));
  CHECK(for_train.at(349.9) == 10);  // the tail is still in the 10 zone
  CHECK(for_train.at(350.1) == 20);
  CHECK(for_train.at(569.9) == 5);
  CHECK(for_train.at(570.1) == 30);
  // NaN is the start, as for every query (it was the last section: 30 where the first is 10).
  const auto slow_start = *line.with_zones({{-5, 20, 10}});
  CHECK(slow_start.at(std::nan("")) == 10);
  CHECK(slow_start.at(-1) == 10);
  const auto plan = *SpeedPlan<double>::build(slow_start, {30, 1, 1, 0.5}, {0, 0, 0}, 1000);
  CHECK(plan.time_at(std::nan("")) == 0);  // was +inf
  CHECK(plan.at(std::nan("")).position == 0);
}

TEST_CASE("speed plan: one stop on an open line is the S-curve", "[motion][speed]") {
  auto rng = make_rng(161);
  for (int i = 0; i < property_count(200); ++i) {
    const double length = uniform<double>(rng, 1, 2000);
    const JerkLimits<double> motion{uniform<double>(rng, 1, 40), uniform<double>(rng, 0.2, 2),
                                    uniform<double>(rng, 0.2, 2), uniform<double>(rng, 0.1, 2)};
    const auto limits = *SpeedLimits<double>::line(length, motion.max_velocity);
    // Equal acceleration and braking: the S-curve of TimeProfile (its own closed form) applies.
    JerkLimits<double> symmetric = motion;
    symmetric.max_deceleration = symmetric.max_acceleration;
    const auto plan = SpeedPlan<double>::build(limits, symmetric, {0, 0, 0}, length);
    REQUIRE(plan);
    const auto curve = *TimeProfile<double>::s_curve(length, motion.max_velocity,
                                                     motion.max_acceleration, motion.max_jerk);
    INFO("case " << i << ": length " << length);
    CHECK(std::abs(plan->duration() - curve.duration()) <= 1e-12 * curve.duration());
    CHECK(plan->at(plan->duration()).position == length);
    CHECK(plan->at(plan->duration()).velocity == 0);
  }
}

TEST_CASE("speed plan: under every limit, zones held for the whole train, stations hit",
          "[motion][speed]") {
  auto rng = make_rng(162);
  for (int i = 0; i < property_count(100); ++i) {
    const double length = 5000;
    const JerkLimits<double> motion{40, uniform<double>(rng, 0.3, 1.5),
                                    uniform<double>(rng, 0.3, 1.5), uniform<double>(rng, 0.2, 1)};
    std::vector<SpeedZone<double>> zones;
    for (int z = 0; z < 12; ++z) {
      const double start = uniform<double>(rng, 0, length);
      zones.push_back({start, start + uniform<double>(rng, 5, 600), uniform<double>(rng, 3, 35)});
    }
    const double train = uniform<double>(rng, 0, 200);
    const auto limits = SpeedLimits<double>::line(length, 40)->with_zones(zones)->for_train(train);
    REQUIRE(limits);
    std::vector<StationStop<double>> stations{{uniform<double>(rng, 500, 2000), 30},
                                              {uniform<double>(rng, 2500, 4000), 0}};
    const auto plan = SpeedPlan<double>::build(*limits, motion, {0, 0, 0}, length, stations);
    REQUIRE(plan);
    INFO("case " << i);
    CHECK(plan->overspeed_distance() == 0);
    check_plan(
        *plan, motion, [&](double s) { return held_limit(zones, 40, train, s); }, 4000);
    // Each station: reached exactly, at rest, standing for its dwell.
    for (const auto& st : stations) {
      const double t = plan->time_at(st.position);
      REQUIRE(std::isfinite(t));
      CHECK(plan->at(t).position == st.position);
      CHECK(plan->at(t).velocity == 0);
      CHECK(plan->at(t + st.dwell * 0.999).position == st.position);
      CHECK(plan->at(t + st.dwell * 0.999).velocity == 0);
      // And not reached before: a little earlier the head is short of it.
      CHECK(plan->at(t - 1e-3).position < st.position);
    }
    CHECK(plan->at(plan->duration()).position == length);
  }
}

TEST_CASE("speed plan: curvature limits lateral acceleration on a curve", "[motion][speed]") {
  // A circle of radius 200: v <= √(a_lat·R) = √(0.8·200) = 12.65 wherever the head is.
  const double radius = 200;
  const auto track = *Track<double>::build(MeasuredPath<double>::build(circle<double>(radius, 16)));
  const double lateral = 0.8;
  CurvatureLimits<double> curves;
  curves.max_velocity = 30.0;
  curves.lateral_acceleration = lateral;
  curves.section_length = track.length() / 100;
  const auto limits = SpeedLimits<double>::from_curvature(track, curves);
  REQUIRE(limits);
  const double expected = std::sqrt(lateral * radius);
  for (std::size_t i = 0; i < limits->size(); ++i)
    CHECK(std::abs(limits->limit(i) - expected) <= 2e-3 * expected);  // 16 Bézier arcs: κ ≈ 1/R
  const JerkLimits<double> motion{30, 0.5, 0.7, 0.4};
  const auto plan = SpeedPlan<double>::build(*limits, motion, {0, 0, 0}, track.length() * 0.9);
  REQUIRE(plan);
  // The lateral acceleration v²κ, with κ at the head from the track itself.
  std::size_t cursor = 0;
  for (int k = 0; k <= 2000; ++k) {
    const AxisSample<double> s = plan->at(plan->duration() * k / 2000);
    const double kappa = track.curvature_vector(track.sample(s.position, cursor)).norm();
    CHECK(s.velocity * s.velocity * kappa <= lateral * (1 + 1e-3));
  }
  CurvatureLimits<double> backwards = curves;
  backwards.lateral_acceleration = -1.0;
  CHECK(SpeedLimits<double>::from_curvature(track, backwards).error().message ==
        "speed limits: lateral_acceleration -1 is not positive and finite");
  // An infinite line limit is no limit either: refused as a negative one is.
  CHECK(SpeedLimits<double>::line(100, std::numeric_limits<double>::infinity()).error().message ==
        "speed limits: max_velocity inf is not positive and finite");
  // On a route too: the same circle as two half-circle pieces joined into a loop gives the same
  // limits section by section.
  const Path<double, 3> whole = circle<double>(radius, 16);
  std::vector<Track<double>> halves;
  for (std::size_t h = 0; h < 2; ++h)
    halves.push_back(piece_of(whole, 8 * h, 8 * h + 8, false));
  const auto network = Network<double>::build(
      halves, {{{0, End::end}, {1, End::start}}, {{1, End::end}, {0, End::start}}});
  REQUIRE(network);
  const auto route = Route<double>::build(
      *network, {{0, Direction::forward}, {1, Direction::forward}}, Closure::closed);
  REQUIRE(route);
  const auto on_route = SpeedLimits<double>::from_curvature(*route, curves);
  REQUIRE(on_route);
  for (double s = 0; s < track.length(); s += track.length() / 333)
    CHECK(std::abs(on_route->at(s) - limits->at(s)) <= 1e-9 * expected);
}

TEST_CASE("speed limits: a curvature that leaves no speed is an error, not a limit of 0",
          "[motion][speed]") {
  // A line of 100 whose curvature is `sharp` in [40, 60) and 0.01 elsewhere (from_curvature
  // needs only length(), sample(s, cursor) and curvature_vector(sample)).
  struct Line {
    double sharp;
    using Cursor = std::size_t;
    struct Sample {
      double s;
    };
    double length() const { return 100.0; }
    Sample sample(double s, Cursor&) const { return {s}; }
    Vector3<double> curvature_vector(const Sample& at) const {
      return {at.s >= 40 && at.s < 60 ? sharp : 0.01, 0, 0};
    }
  };
  CurvatureLimits<double> curves;
  curves.max_velocity = 30;
  curves.lateral_acceleration = 1;
  curves.section_length = 10;
  const auto gentle = SpeedLimits<double>::from_curvature(Line{4.0}, curves);
  REQUIRE(gentle);
  CHECK(gentle->at(50) == 0.5);                          // √(1/4)
  CHECK(gentle->at(10) == Approx(10.0).epsilon(1e-15));  // √(1/0.01)
  for (const double kink : {HUGE_VAL, 1e308}) {
    INFO("curvature " << kink);
    curves.lateral_acceleration = kink == HUGE_VAL ? 1.0 : 1e-300;  // 1e-300/1e308 underflows
    const auto refused = SpeedLimits<double>::from_curvature(Line{kink}, curves);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code == ErrorCode::out_of_range);
    INFO(refused.error().message);
    // Sections are sampled ends included: the kink from 40 on shows first in [30, 40).
    CHECK(refused.error().message.find("in [30, 40)") != std::string::npos);
  }
}

TEST_CASE("speed plan: replanning mid-run keeps velocity and acceleration", "[motion][speed]") {
  const double length = 3000;
  const JerkLimits<double> motion{30, 1, 1.2, 0.6};
  const auto open_line = *SpeedLimits<double>::line(length, 30);
  const auto plan = *SpeedPlan<double>::build(open_line, motion, {0, 0, 0}, length);
  SECTION("a limit ahead, far enough to brake for") {
    const double now = 10;
    const AxisState<double> state = plan.state_at(now);
    REQUIRE(state.acceleration > 0);  // still speeding up: the join must keep it
    const std::vector<SpeedZone<double>> zones{{state.position + 800, state.position + 1000, 8}};
    const auto limits = *open_line.with_zones(zones);
    const auto replanned = SpeedPlan<double>::build(limits, motion, state, length);
    REQUIRE(replanned);
    const AxisSample<double> joined = replanned->at(0);
    CHECK(joined.position == state.position);
    CHECK(joined.velocity == state.velocity);
    CHECK(joined.acceleration == state.acceleration);
    CHECK(replanned->overspeed_distance() == 0);
    // Finite differences across the join: the acceleration does not jump.
    const double h = 1e-3;
    auto p = [&](double t) {
      return t < now ? plan.at(t).position : replanned->at(t - now).position;
    };
    const double across = (p(now + h) - 2 * p(now) + p(now - h)) / (h * h);
    CHECK(std::abs(across - state.acceleration) <= 1e-2 * motion.max_acceleration);
    check_plan(
        *replanned, motion, [&](double s) { return held_limit(zones, 30, 0, s); }, 4000);
  }
  SECTION("a limit lowered under the train: brake at full power, overspeed reported") {
    const double now = plan.duration() * 0.5;
    const AxisState<double> state = plan.state_at(now);
    const std::vector<SpeedZone<double>> zones{{state.position - 10, state.position + 300, 5}};
    const auto replanned =
        SpeedPlan<double>::build(*open_line.with_zones(zones), motion, state, length);
    REQUIRE(replanned);
    CHECK(replanned->overspeed_distance() > 0);
    CHECK(replanned->at(0).velocity == state.velocity);
    // Inside the limit from where the braking ends on.
    const double settled = replanned->time_at(state.position + replanned->overspeed_distance());
    for (int k = 0; k <= 1000; ++k) {
      const double t = settled + (replanned->duration() - settled) * k / 1000;
      const AxisSample<double> s = replanned->at(t);
      CHECK(s.velocity <= held_limit(zones, 30, 0, s.position) * (1 + 1e-9));
    }
  }
  SECTION("a stop too close to make is an error that says where braking ends") {
    const double now = plan.duration() * 0.5;
    const AxisState<double> state = plan.state_at(now);
    const auto replanned = SpeedPlan<double>::build(open_line, motion, state, state.position + 5);
    REQUIRE_FALSE(replanned);
    CHECK(replanned.error().code == ErrorCode::no_solution);
    CHECK(replanned.error().message.find("cannot stop") != std::string::npos);
  }
  SECTION("so is one that only an acceleration limit of 1e-40 could come back from") {
    // Braking from 218.6 (accelerating at 498.8) ends near 3420, far past the station at 463.7;
    // coming back at 2.7e-40 would creep at 1e-18 for 5e21 s — a reversal, however slow.
    const JerkLimits<double> lopsided{499.98, 2.7226523566839745e-40, 217.64, 217.64};
    const auto creeping =
        SpeedPlan<double>::build(*SpeedLimits<double>::line(1000, 1000), lopsided,
                                 {217.6361083984375, 218.6126708984375, 498.7945556640625},
                                 489.2120361328125, {{463.7298583984375, 217.6361083984375}});
    if (creeping) {
      double previous = creeping->at(0).position;
      for (int q = 1; q <= 1000; ++q) {
        const double position = creeping->at(creeping->duration() * q / 1000).position;
        CHECK(position >= previous - 1e-9 * previous);
        previous = position;
      }
    } else {
      CHECK(creeping.error().message.find("cannot stop") != std::string::npos);
    }
  }
}

TEST_CASE("speed plan: float, a move one ulp past a zone's end is not a reversal",
          "[motion][speed]") {
  const auto line = SpeedLimits<float>::line(46649.5812f, 4.35561419f)
                        ->with_zones({{22690.9434f, 29166.4492f, 3.65798211f},
                                      {5317.76123f, 14322.3906f, 2.74457932f}});
  REQUIRE(line);
  const JerkLimits<float> motion{4.35561419f, 3.59824538f, 0.782118678f, 0.135677442f};
  const auto plan =
      SpeedPlan<float>::build(*line, motion, {6239.25342f, 4.35561419f, 0}, 46649.5812f);
  REQUIRE(plan);
  CHECK(plan->at(plan->duration()).position == 46649.5812f);
  float previous = plan->at(0).position;
  for (int q = 1; q <= 2000; ++q) {
    const auto s = plan->at(plan->duration() * static_cast<float>(q) / 2000);
    CHECK(s.position >= previous - 1e-6f * previous);
    // It starts over the zone's limit and brakes at full power; once inside the limit it stays
    // there until the zone ends (float rounding of the limit allowed).
    const float braked = 6239.25342f + plan->overspeed_distance();
    if (s.position > braked + 1 && s.position < 14322.38f)
      CHECK(s.velocity <= 2.74457932f * 1.0001f);
    previous = s.position;
  }
}

TEST_CASE("speed plan: already there, and a replan from inside a merged move", "[motion][speed]") {
  const auto line = *SpeedLimits<double>::line(100, 10);
  const auto there = SpeedPlan<double>::build(line, {10, 1, 1, 1}, {50, 0, 0}, 50);
  REQUIRE(there);
  CHECK(there->duration() == 0);
  CHECK(there->at(3).position == 50);
  CHECK(there->time_at(50) == 0);
  // A plan that brakes through a boundary it merged away (the acceleration not zero there); a
  // replan from its own state at that moment continues it, as fast.
  const auto limits =
      SpeedLimits<double>::line(1806.6667192610028, 33.512101691519597)
          ->with_zones({{875.91869423111905, 1668.980153081523, 39.486549404494689},
                        {794.67294791487689, 1012.4974405354687, 12.545107837731672},
                        {330.58054218320922, 914.07283042050869, 21.664672432540879},
                        {760.82612341006541, 806.40519742145636, 19.193938142244207},
                        {947.16357922718669, 1162.5385317047858, 30.264032976217358}});
  const JerkLimits<double> motion{63.944807266745869, 1.7038746036690615, 0.43883590222365676,
                                  2.0296558882516882};
  const double end = 356.40058328702327;
  const auto plan = *SpeedPlan<double>::build(*limits, motion, {0, 12.075473200206924, 0}, end);
  const double now = 9.0546549149941633;
  const auto replan = SpeedPlan<double>::build(*limits, motion, plan.state_at(now), end);
  REQUIRE(replan);
  CHECK(std::abs(replan->duration() - (plan.duration() - now)) <= 1e-9 * plan.duration());
  CHECK(replan->at(replan->duration()).velocity == 0);
}

TEST_CASE("speed plan: a replan is continuous in its start state", "[motion][speed]") {
  // Cases a random search found where a replan from a plan's own state and from that state a few
  // ulps away differed by seconds, or reported overspeed where there is none. Every nudged replan
  // must agree with the plan's own remaining time (the independent reference: the running plan)
  // and run inside its limits.
  struct Case {
    SpeedLimits<double> limits;
    JerkLimits<double> motion;
    double t;  // replan from the plan's state at t
  };
  const double end_a = 3033.4121894182663, end_b = 1026.2938056430335;
  const Case cases[] = {
      // A velocity change to within rounding of the natural velocity: the phases did not join,
      // and the train crawled at the zone's limit to the end (1219.6 s instead of 432.3).
      {*SpeedLimits<double>::line(end_a, 16.32150500248261)
            ->with_zones({{196.8691824195823, 840.56288550439399, 2.3298071762609367}})
            ->for_train(8.5461349634109851),
       {21.251461519348009, 0.68299505550709649, 0.97282276118104338, 0.56592130027566567},
       30.489220740437158},
      // Braking that ends on a lower limit: a state a few ulps away did not merge its first move
      // (+1.66 s) and counted 0.98 units of overspeed.
      {*SpeedLimits<double>::line(end_b, 15.315340612088374)
            ->with_zones({{895.27104033683975, 984.26672594337617, 9.906841218990067},
                          {351.6593638370461, 367.37785739976044, 1.5001417024304993}})
            ->for_train(34.334575962959597),
       {15.433607460650268, 0.45028627984291808, 0.87565667535798264, 0.37767363773177842},
       130.04346014208954},
  };
  for (const Case& c : cases) {
    const double end = c.limits.length();
    const auto plan = SpeedPlan<double>::build(c.limits, c.motion, {0, 0, 0}, end);
    REQUIRE(plan);
    const double remaining = plan->duration() - c.t;
    const AxisState<double> state = plan->state_at(c.t);
    for (int field = 0; field < 3; ++field)
      for (int ulps = -2; ulps <= 2; ++ulps) {
        AxisState<double> nudged = state;
        double& x =
            field == 0 ? nudged.position : (field == 1 ? nudged.velocity : nudged.acceleration);
        for (int k = 0; k < std::abs(ulps); ++k)
          x = std::nextafter(x, ulps > 0 ? 1e300 : -1e300);
        const auto replan = SpeedPlan<double>::build(c.limits, c.motion, nudged, end);
        REQUIRE(replan);
        CHECK(std::abs(replan->duration() - remaining) <= 1e-6 * remaining);
        CHECK(replan->overspeed_distance() <= 1e-9 * end);
      }
  }
  SECTION("overspeed is 0 for a start a few ulps over a cap it cruises at") {
    // Over by 2 ulps of its own velocity, a cruise at the line limit counted its whole length
    // (2782 units) as overspeed.
    const auto limits =
        *SpeedLimits<double>::line(3610.259763667143, 15.361455678039203)
             ->with_zones({{3313.5918172561833, 3526.8037151557705, 3.8967421635482067},
                           {3381.9662066025126, 3422.5192495720162, 5.8726571336181292}});
    const JerkLimits<double> motion{14.27829465661245, 1.4001412032987128, 1.0234315077431375,
                                    0.23320529992199765};
    double durations[2];
    int i = 0;
    for (double v : {14.27829465661245, 14.278294656612454}) {
      const auto p =
          SpeedPlan<double>::build(limits, motion, {399.05290651773254, v, 0}, limits.length());
      REQUIRE(p);
      CHECK(p->overspeed_distance() == 0);
      durations[i++] = p->duration();
    }
    CHECK(std::abs(durations[1] - durations[0]) <= 1e-9 * durations[0]);
  }
  SECTION("a fast state placed on the stop is still refused") {
    // Releasing its acceleration would carry it 200 units past the stop (and back).
    const auto limits = *SpeedLimits<double>::line(445.0836181640625, 445.0836181640625);
    const auto plan = SpeedPlan<double>::build(limits, {1e300, 289.5355224609375, 500, 1e300},
                                               {445.0836181640625, 300, 445}, 445.0836181640625);
    REQUIRE_FALSE(plan);
    CHECK(plan.error().message.find("already at the stop") != std::string::npos);
  }
  SECTION("a start at rest braking hard is still refused, whatever max_velocity") {
    // The rounding allowed for a plan's own states is of the line's limits (500 here), not of a
    // max_velocity of 1e300 meaning "no cap".
    const auto limits = *SpeedLimits<double>::line(215.2252197265625, 499.9847412109375);
    const auto plan = SpeedPlan<double>::build(
        limits, {1e300, 789.093017578125, 68.90869140625, 185.455322265625},
        {32.745361328125, 0, -785.21728515625}, 215.2252197265625);
    REQUIRE_FALSE(plan);
    CHECK(plan.error().message.find("would") != std::string::npos);
  }
  SECTION("a replan arriving on a station still dwells there") {
    // In the last instants before the dwell the position has rounded onto the station while the
    // state still moves; the station was taken as behind the start and its 30 s dropped.
    const auto limits = *SpeedLimits<double>::line(1000, 20);
    const JerkLimits<double> motion{20, 1, 1.2, 0.5};
    const std::vector<StationStop<double>> stations{{400, 30}};
    const auto plan = SpeedPlan<double>::build(limits, motion, {0, 0, 0}, 1000, stations);
    REQUIRE(plan);
    const double arrive = plan->time_at(400);
    for (double before = 1e-3; before > 1e-12; before *= 0.7) {
      const double t = arrive - before;
      const auto replan =
          SpeedPlan<double>::build(limits, motion, plan->state_at(t), 1000, stations);
      REQUIRE(replan);
      CHECK(std::abs(replan->duration() - (plan->duration() - t)) <= 1e-3);
      CHECK(replan->at(replan->duration() - 60).position == 400);  // standing at the station
    }
  }
  SECTION("a replan while standing at a station waits out the rest of its dwell") {
    // Standing at 400 for 30 s from the arrival: the dwell left at t is 30 − (t − arrival); a
    // replan from there with it as its hold stands until the arrival + 30 and then runs the
    // same leg from rest the plan runs (its end at the same time). Without the hold it leaves
    // at once (a station the start stands on is not after it).
    const auto limits = *SpeedLimits<double>::line(1000, 20);
    const JerkLimits<double> motion{20, 1, 1.2, 0.5};
    const std::vector<StationStop<double>> stations{{400, 30}};
    const auto plan = SpeedPlan<double>::build(limits, motion, {0, 0, 0}, 1000, stations);
    REQUIRE(plan);
    const double arrive = plan->time_at(400), leave = arrive + 30;
    CHECK(plan->dwell_left(arrive - 1) == 0);
    CHECK(plan->dwell_left(leave + 1) == 0);
    CHECK(plan->dwell_left(0) == 0);
    CHECK(plan->dwell_left(plan->duration()) == 0);
    for (const double into : {0.25, 10.0, 29.5}) {
      const double t = arrive + into;
      INFO("t " << t);
      CHECK(plan->dwell_left(t) == Approx(30 - into).margin(1e-9));
      const auto replan = SpeedPlan<double>::build(
          limits, motion, {plan->state_at(t), 1000, stations, plan->dwell_left(t)});
      REQUIRE(replan);
      CHECK(replan->duration() == Approx(plan->duration() - t).margin(1e-9));
      CHECK(replan->dwell_left(0) == Approx(30 - into).margin(1e-9));
      CHECK(replan->at(30 - into - 1e-3).position == 400);
      CHECK(replan->at(30 - into - 1e-3).velocity == 0);
      for (const double after : {0.5, 7.0, 40.0})
        CHECK(replan->at(30 - into + after).position ==
              Approx(plan->at(leave + after).position).margin(1e-9));
      const auto at_once =
          SpeedPlan<double>::build(limits, motion, plan->state_at(t), 1000, stations);
      REQUIRE(at_once);
      CHECK(at_once->at(0.5).position > 400);
      CHECK(at_once->duration() == Approx(plan->duration() - leave).margin(1e-9));
    }
    // A hold needs a start at rest, and a time >= 0.
    const auto moving = SpeedPlan<double>::build(limits, motion, {{100, 5, 0}, 1000, {}, 3.0});
    REQUIRE_FALSE(moving);
    CHECK(moving.error().message ==
          "speed plan: a hold of 3 s needs a start at rest (velocity 5, acceleration 0)");
    for (const double bad : {-1.0, std::nan(""), HUGE_VAL}) {
      const auto refused = SpeedPlan<double>::build(limits, motion, {{100, 0, 0}, 1000, {}, bad});
      REQUIRE_FALSE(refused);
      CHECK(refused.error().code == ErrorCode::out_of_range);
    }
    // A hold so long that the run after it rounds away is refused, as is such a dwell.
    const auto lost = SpeedPlan<double>::build(limits, motion, {{0, 0, 0}, 1000, {}, 1e30});
    REQUIRE_FALSE(lost);
    CHECK(lost.error().message.find("is lost to the rounding of the time") != std::string::npos);
    CHECK_FALSE(SpeedPlan<double>::build(limits, motion, {0, 0, 0}, 1000, {{400, 1e30}}));
    // At the end already: the plan is the hold.
    const auto standing = SpeedPlan<double>::build(limits, motion, {{1000, 0, 0}, 1000, {}, 4.0});
    REQUIRE(standing);
    CHECK(standing->duration() == 4.0);
    CHECK(standing->at(2).position == 1000);
    CHECK(standing->dwell_left(1) == 3.0);
  }
  SECTION("a move that reverses after a 1e42 s phase is seen to reverse") {
    // Braking from 217 at a limit of 2.7e-40 runs 6.5e43 units; the time-optimal move to the
    // stop went there and came back, its later phases' times rounded onto its end, where at()
    // is the target, so the reversal was not seen and the plan ran backwards.
    const auto limits = *SpeedLimits<double>::line(499.9847412109375, 499.9847412109375);
    const auto plan = SpeedPlan<double>::build(
        limits, {217.6361083984375, 217.6361083984375, 2.7226523566839745e-40, 217.6361083984375},
        {217.6361083984375, 217.6361083984375, -113.2965087890625}, 328.094482421875);
    REQUIRE_FALSE(plan);
    CHECK(plan.error().message.find("cannot stop") != std::string::npos);
  }
  SECTION("a replan leaving a station keeps up with the plan") {
    // The zone before the station holds 2.59 until the train's tail leaves it, 7.3 units on; the
    // plan reaches 2.59 there only just. From its state a moment later that velocity is out of
    // reach without reversing, and the replan crawled at 2.59 to the next boundary instead
    // (55.8 s for the plan's 36.9).
    const auto limits =
        *SpeedLimits<double>::line(747.54476634482364, 20.347242519568674)
             ->with_zones({{239.22277066022062, 307.08348809010175, 27.901391444374582},
                           {-0.54919590430658893, 89.440098619170001, 28.874803689141004},
                           {287.96204624206149, 341.84588367371776, 25.681497355284925},
                           {141.87413414680748, 186.20619037290669, 2.5858276308768415},
                           {283.26310384034514, 342.61726617997368, 19.940740234044064}})
             ->for_train(23.736770741019775);
    const JerkLimits<double> motion{20.347242519568674, 0.4606087311615143, 0.51340198824535044,
                                    24.33135761218476};
    const std::vector<StationStop<double>> stations{
        {69.354857741970392, 0}, {512.8421654407897, 0}, {202.67712848603745, 0}};
    const double end = 367.37954294815552;
    const auto plan = SpeedPlan<double>::build(limits, motion, {0, 0, 0}, end, stations);
    REQUIRE(plan);
    const AxisState<double> leaving{202.67712849009268, 1.2165678806208559e-05,
                                    0.02433135761230094};
    const double t = plan->time_at(leaving.position);
    const auto replan = SpeedPlan<double>::build(limits, motion, leaving, end, stations);
    REQUIRE(replan);
    CHECK(replan->duration() <= 1.001 * (plan->duration() - t));
    CHECK(replan->at(replan->duration()).position == end);
  }
  SECTION("replans from the last instants of an approach stop on the stop") {
    // There the velocity is ~1e-12 and the braking's rounding is that of the whole move: these
    // were refused as "would reverse" and "already at the stop and still moving".
    const auto limits =
        *SpeedLimits<double>::line(708.73124724762442, 9.7742462728169031)
             ->with_zones({{14.900527628205895, 101.04352300536044, 8.9964799550863326}});
    const JerkLimits<double> motion{8.3286110876174178, 0.94080129331272566, 1.025800583807857,
                                    0.22523447110251632};
    const double end = 457.79242606529363;
    const auto plan = SpeedPlan<double>::build(limits, motion, {0, 0, 0}, end);
    REQUIRE(plan);
    for (double t : {67.817818440402149, 67.817784975198592, 67.79}) {
      const AxisState<double> state = plan->state_at(t);
      const auto replan = SpeedPlan<double>::build(limits, motion, state, end);
      REQUIRE(replan);
      CHECK(replan->at(replan->duration()).position == end);
      CHECK(replan->at(replan->duration()).velocity == 0);
      for (int k = 0; k <= 1000; ++k) {
        const AxisSample<double> s = replan->at(replan->duration() * k / 1000);
        CHECK(s.velocity >= -1e-12);
        CHECK(s.position <= end);
      }
      // (Up to 0.1 ms longer than the plan's own rest at t = 67.79: the replan eases its
      // acceleration where the plan it starts from does not, see build().)
      CHECK(replan->duration() <= plan->duration() - t + 1e-3);
    }
  }
}

TEMPLATE_TEST_CASE("speed plan: starts a few ulps over a cap, and float plans from rest",
                   "[motion][speed]", float, double) {
  using S = TestType;
  SECTION("a start k ulps over its zone's limit, just before the zone ends, cruises on") {
    // between_cruises was asked to change 5 + 1 ulp into 5 within 1e-7 and refused ("needs
    // 0.0069" in float).
    const auto limits = *SpeedLimits<S>::line(1000, 10)->with_zones({{0, 500, 5}});
    for (int k = 0; k <= 4; ++k) {
      S v = 5;
      for (int i = 0; i < k; ++i)
        v = std::nextafter(v, S(10));
      for (S before : {S(1e-7), S(1e-3), S(7e-3), S(0.1)}) {
        const AxisState<S> start{S(500) - before, v, 0};
        const auto plan = SpeedPlan<S>::build(limits, {10, 1, 1, 1}, start, S(1000));
        REQUIRE(plan);
        CHECK(plan->at(0).position == start.position);
        CHECK(plan->at(0).velocity == v);
        CHECK(plan->at(plan->duration()).position == S(1000));
        CHECK(plan->overspeed_distance() == 0);
      }
    }
  }
  SECTION("random lines with zones, from rest to the end") {
    // In float 202 of 2000 such plans were refused: between_cruises judged "just enough
    // distance" to double's rounding, not to the float positions it was given.
    auto rng = make_rng(211);
    for (int i = 0; i < property_count(300); ++i) {
      const S length = uniform<S>(rng, 100, 4100);
      std::vector<SpeedZone<S>> zones;
      for (int z = 0; z < 4; ++z) {
        const S a = uniform<S>(rng, 0, length);
        zones.push_back({a, a + uniform<S>(rng, 1, length / 5), uniform<S>(rng, 1, 26)});
      }
      const auto limits = SpeedLimits<S>::line(length, uniform<S>(rng, 5, 30))->with_zones(zones);
      REQUIRE(limits);
      const JerkLimits<S> motion{uniform<S>(rng, 5, 30), uniform<S>(rng, 0.2f, 2.2f),
                                 uniform<S>(rng, 0.2f, 2.2f), uniform<S>(rng, 0.2f, 2.2f)};
      const auto plan = SpeedPlan<S>::build(*limits, motion, {0, 0, 0}, length);
      REQUIRE(plan);
      CHECK(plan->at(plan->duration()).position == length);
    }
  }
}

TEMPLATE_TEST_CASE("speed plan: a replan from the last instants of an approach", "[motion][speed]",
                   float, double) {
  using S = TestType;
  const auto limits = *SpeedLimits<S>::line(1000, 20);
  const JerkLimits<S> motion{25, 1, S(1.2), S(0.8)};
  SECTION("the plan's own states: a velocity ulps below zero, braking ulps past the stop") {
    // Before, every state whose velocity had rounded below zero was refused as "negative"
    // (621 of these 4000 in double), and in float 126 more as "cannot stop" (braking at full
    // power ended a few ulps past the stop, judged to 1e-9 of it).
    for (const S end : {S(1000), S(737.25)}) {
      const auto plan = *SpeedPlan<S>::build(limits, motion, {0, 0, 0}, end);
      const S resolution = S(64) * std::numeric_limits<S>::epsilon() * end;
      int below_zero = 0;
      for (int k = 1; k <= 4000; ++k) {
        const S remaining = plan.duration() * S(std::pow(10.0, -1.0 - 11.0 * k / 4000.0));
        const AxisState<S> state = plan.state_at(plan.duration() - remaining);
        if (state.velocity < 0) ++below_zero;
        INFO("end " << end << ", " << remaining << " s before it: " << state.position << " "
                    << state.velocity << " " << state.acceleration);
        const auto replanned = SpeedPlan<S>::build(limits, motion, state, end);
        REQUIRE(replanned);
        CHECK(replanned->at(0).position == state.position);
        CHECK(replanned->at(0).velocity == std::max(state.velocity, S(0)));
        CHECK(replanned->at(replanned->duration()).position == end);
        // As fast as the rest of the plan, but for the last ulp of the end's position: a state
        // in the last instants is on the braking curve to within the rounding of its position,
        // and a stop δ farther costs up to ~(6δ/J)^(1/3) more at jerk J (0.14 s in float here,
        // 0.17 ms in double; the bound below is twice that for δ the end's ulp).
        const S extra =
            S(2) * std::cbrt(S(6) * std::numeric_limits<S>::epsilon() * end / motion.max_jerk);
        CHECK(replanned->duration() <= remaining + extra);
        S previous = state.position;
        for (int j = 1; j <= 20; ++j) {
          const S x = replanned->at(replanned->duration() * S(j) / 20).position;
          CHECK(x >= previous - resolution);
          previous = x;
        }
      }
      CHECK(below_zero > 100);
    }
  }
  SECTION("a state a few ulps past the end it is settling on; farther is an error") {
    const S end = 1000;
    const AxisState<S> past{std::nextafter(end, S(2000)), S(3e-13), S(-3e-7)};
    const auto plan = SpeedPlan<S>::build(limits, motion, past, end);
    REQUIRE(plan);
    CHECK(plan->at(0).position == past.position);
    CHECK(plan->at(plan->duration()).position == end);
    CHECK(plan->duration() < S(1e-3));
    const AxisState<S> beyond{S(1000.01), S(3e-13), S(-3e-7)};
    CHECK(SpeedPlan<S>::build(*SpeedLimits<S>::line(2000, 20), motion, beyond, end).error().code ==
          ErrorCode::out_of_range);
  }
}

TEMPLATE_TEST_CASE("speed plan: replans from random running states in float and double",
                   "[motion][speed]", float, double) {
  // Lines with zones and stations, a plan from rest, a replan from its state at random times.
  // In float 23 of these 10⁴ replans were refused before (0.2 %: "cannot stop"): a state on the
  // braking curve of a stop beyond a zone boundary, to its rounding, braked to the boundary's
  // velocity and eased off before it, missing the stop by 400 times the state's rounding.
  using S = TestType;
  auto rng = make_rng(1);
  const S resolution = S(64) * std::numeric_limits<S>::epsilon();
  int replans = 0;
  for (int i = 0; i < property_count(500); ++i) {
    const S length = uniform<S>(rng, 200, 4000), line = uniform<S>(rng, 5, 40);
    std::vector<SpeedZone<S>> zones;
    const int zone_count = 1 + static_cast<int>(rng() % 6);
    for (int z = 0; z < zone_count; ++z) {
      const S a = uniform<S>(rng, 0, length);
      zones.push_back({a, a + uniform<S>(rng, 5, length / 3), uniform<S>(rng, 1, line)});
    }
    const auto limits = SpeedLimits<S>::line(length, line)->with_zones(zones);
    REQUIRE(limits);
    std::vector<SpeedZone<double>> zones_double;
    for (const SpeedZone<S>& z : zones)
      zones_double.push_back({double(z.start), double(z.end), double(z.limit)});
    const JerkLimits<S> motion{line * uniform<S>(rng, 0.8f, 1.5f), uniform<S>(rng, 0.2f, 1.5f),
                               uniform<S>(rng, 0.2f, 1.5f), uniform<S>(rng, 0.1f, 1.5f)};
    std::vector<StationStop<S>> stations;
    if (rng() % 2) stations.push_back({uniform<S>(rng, 0, length), uniform<S>(rng, 0, 30)});
    const S end = rng() % 3 ? length : uniform<S>(rng, length / 2, length);
    const auto plan = SpeedPlan<S>::build(*limits, motion, {0, 0, 0}, end, stations);
    REQUIRE(plan);
    for (int q = 0; q < 20; ++q) {
      const AxisState<S> state = plan->state_at(uniform<S>(rng, 0, plan->duration()));
      INFO("line " << i << ", state " << state.position << " " << state.velocity << " "
                   << state.acceleration);
      const auto replanned = SpeedPlan<S>::build(*limits, motion, state, end, stations);
      REQUIRE(replanned);
      ++replans;
      CHECK(replanned->at(0).position == state.position);
      CHECK(replanned->at(0).velocity == std::max(state.velocity, S(0)));
      CHECK(replanned->at(replanned->duration()).position == end);
      // Forward only, and under every limit beyond where it ran over them.
      const S free_from = state.position + replanned->overspeed_distance();
      S previous = state.position;
      for (int k = 1; k <= 50; ++k) {
        const AxisSample<S> at = replanned->at(replanned->duration() * S(k) / 50);
        CHECK(at.position >= previous - resolution * length);
        previous = at.position;
        if (at.position > free_from + resolution * length)
          CHECK(at.velocity <= S(held_limit(zones_double, double(line), 0, double(at.position))) *
                                   (1 + resolution));
      }
    }
  }
  CHECK(replans == 20 * property_count(500));
}

TEST_CASE("speed plan: a float move whose velocity ends at rest one rounding below zero",
          "[motion][speed]") {
  // A running plan's state 118 units before its end, accelerating: the move straight to the end
  // ends at rest with a phase-end velocity of about -1e-7, judged a reversal to 1e-9 of the
  // velocity in float as in double. The replan braked almost to rest 26 units short and set off
  // again: 28.17 s where the same state in double (the reference: 1e-9 is far above its
  // rounding) takes 13.95.
  const auto run = [](auto scalar) {
    using S = decltype(scalar);
    const std::vector<SpeedZone<S>> zones{{S(0x1.25b2dap+10), S(0x1.af4adp+10), S(0x1.0726f4p+5)},
                                          {S(0x1.0e06d6p+9), S(0x1.6867c6p+10), S(0x1.c6949p+4)},
                                          {S(0x1.517a32p+11), S(0x1.a45c78p+11), S(0x1.1d4008p+4)},
                                          {S(0x1.293e7p+10), S(0x1.869366p+10), S(0x1.179b48p+5)},
                                          {S(0x1.2deeap+11), S(0x1.56b63cp+11), S(0x1.c0fac6p+4)}};
    const auto limits = *SpeedLimits<S>::line(S(0x1.54c15p+11), S(0x1.257d08p+5))
                             ->with_zones(zones)
                             ->for_train(S(0x1.8ff624p+6));
    const JerkLimits<S> motion{S(0x1.4c9d34p+5), S(0x1.157a9cp-2), S(0x1.5bbe96p+0),
                               S(0x1.3240d2p+0)};
    const AxisState<S> state{S(0x1.c971fap+10), S(0x1.d64ab8p+3), S(0x1.157a9cp-2)};
    const auto plan = SpeedPlan<S>::build(limits, motion, state, S(0x1.e6eaa6p+10));
    REQUIRE(plan);
    return double(plan->duration());
  };
  const double reference = run(0.0);
  CHECK(reference == Approx(13.95).margin(0.01));
  CHECK(run(0.0f) == Approx(reference).epsilon(1e-5));
}

TEST_CASE("speed plan: a float first move cut at a boundary its rounded phases stop short of",
          "[motion][speed]") {
  // The move from the state ends 1 ulp past the zone boundary at 313.101807 it is cut at, but
  // its float phases, integrated, stop short of it: time_at(boundary) was +infinity, and so was
  // every later piece's start and the plan's duration (5 of 2.1·10⁶ float replans from random
  // running states). The reference: the same inputs in double.
  auto plan_in = [](auto scalar) {
    using S = decltype(scalar);
    const std::vector<SpeedZone<S>> zones{{S(3548.15576), S(3949.24292), S(14.4237461)},
                                          {S(1360.46362), S(1635.79077), S(11.1572857)},
                                          {S(2311.80615), S(3254.04126), S(16.9087715)},
                                          {S(36.7362213), S(313.355164), S(18.6920853)},
                                          {S(313.101807), S(1128.51831), S(12.3419113)}};
    const auto limits = *SpeedLimits<S>::line(S(3856.44116), S(19.1699219))->with_zones(zones);
    const JerkLimits<S> motion{S(16.5714321), S(0.780572355), S(0.5890643), S(0.483336776)};
    return SpeedPlan<S>::build(limits, motion, {S(245.527649), S(14.9342022), S(-0.5890643)},
                               S(3719.46313));
  };
  const auto in_float = plan_in(0.0f);
  const auto in_double = plan_in(0.0);
  REQUIRE(in_float);
  REQUIRE(in_double);
  CHECK(std::isfinite(in_float->duration()));
  CHECK(std::abs(double(in_float->duration()) - in_double->duration()) <=
        1e-5 * in_double->duration());
  CHECK(in_float->at(in_float->duration()).position == 3719.46313f);
  for (std::size_t p = 0; p < in_float->size(); ++p)
    CHECK(std::isfinite(in_float->piece_start_time(p)));
}

TEST_CASE("speed plan: a float replan from a state eased 1 ulp over the next zone's limit",
          "[motion][speed]") {
  // The plan from rest speeds up to the zone's limit, 29.506588, for one move through the zone's
  // start to the stop just beyond it. Its own float state on the way eases 1 ulp over that limit,
  // so the replan would not plan past the zone's start and braked at full power for the
  // boundary's velocity instead: "cannot stop" (1 in 2·10⁶ random float replans, found by
  // review). The reference: the plan's own remaining time, and the same line in double.
  auto line = [](auto scalar) {
    using S = decltype(scalar);
    const std::vector<SpeedZone<S>> zones{{S(369.552063), S(785.348938), S(25.2307129)},
                                          {S(1997.14465), S(2165.21118), S(29.506588)},
                                          {S(87.4343033), S(202.277496), S(14.0514631)},
                                          {S(1119.45288), S(1127.755), S(16.6750526)}};
    return *SpeedLimits<S>::line(S(2009.67896), S(35.6343575))->with_zones(zones);
  };
  auto motion = [](auto scalar) {
    using S = decltype(scalar);
    return JerkLimits<S>{S(38.8813591), S(1.0546968), S(1.38229299), S(0.159668908)};
  };
  const float end = 2009.67896f;
  const auto plan = SpeedPlan<float>::build(line(0.0f), motion(0.0f), {0, 0, 0}, end);
  const auto reference = SpeedPlan<double>::build(line(0.0), motion(0.0), {0, 0, 0}, end);
  REQUIRE(plan);
  REQUIRE(reference);
  const AxisState<float> state{1447.86658f, 28.2957535f, 0.621824384f};
  const float t = plan->time_at(state.position);
  CHECK(plan->state_at(t).velocity == Approx(state.velocity).epsilon(1e-6));
  const auto replanned = SpeedPlan<float>::build(line(0.0f), motion(0.0f), state, end);
  REQUIRE(replanned);
  CHECK(replanned->at(replanned->duration()).position == end);
  const double remaining = reference->duration() - reference->time_at(state.position);
  CHECK(std::abs(double(replanned->duration()) - remaining) <= 1e-4 * remaining);
  CHECK(std::abs(replanned->duration() - (plan->duration() - t)) <= 1e-4f * replanned->duration());
}

TEST_CASE("speed plan: bad input is a clear error", "[motion][speed]") {
  CHECK(SpeedLimits<double>::line(-1, 10).error().code == ErrorCode::out_of_range);
  CHECK(SpeedLimits<double>::line(10, std::nan("")).error().code == ErrorCode::out_of_range);
  const auto line = *SpeedLimits<double>::line(100, 10);
  CHECK(line.with_zones({{5, 4, 1}}).error().message.find("speed zone 0") != std::string::npos);
  CHECK(line.with_zones({{0, 4, -1}}).error().code == ErrorCode::out_of_range);
  CHECK(line.for_train(-3).error().code == ErrorCode::out_of_range);
  const JerkLimits<double> motion{10, 1, 1, 1};
  CHECK(SpeedPlan<double>::build(line, {10, -1, 1, 1}, {}, 50).error().code ==
        ErrorCode::out_of_range);
  CHECK(SpeedPlan<double>::build(line, motion, {}, 150).error().code == ErrorCode::out_of_range);
  CHECK(SpeedPlan<double>::build(line, motion, {60, 0, 0}, 50).error().code ==
        ErrorCode::out_of_range);
  CHECK(SpeedPlan<double>::build(line, motion, {0, -1, 0}, 50).error().code ==
        ErrorCode::out_of_range);
  CHECK(SpeedPlan<double>::build(line, motion, {}, 50, {{120, 5}})
            .error()
            .message.find("station at 120") != std::string::npos);
  CHECK(SpeedPlan<double>::build(line, motion, {}, 50, {{20, -5}}).error().code ==
        ErrorCode::out_of_range);
  CHECK(SpeedPlan<double>::build(line, motion, {std::nan(""), 0, 0}, 50).error().code ==
        ErrorCode::non_finite);
  // 1 m/s, braking at 3 m/s² under a jerk limit of 1: the deceleration takes 3 s to release, the
  // train stops long before.
  CHECK(SpeedPlan<double>::build(line, motion, {0, 1, -3}, 50).error().message.find("reverse") !=
        std::string::npos);
}

TEST_CASE("speed plan: random replans from running states", "[motion][speed]") {
  auto rng = make_rng(163);
  const double length = 4000;
  for (int i = 0; i < property_count(150); ++i) {
    const JerkLimits<double> motion{35, uniform<double>(rng, 0.3, 1.5),
                                    uniform<double>(rng, 0.3, 1.5), uniform<double>(rng, 0.2, 1)};
    std::vector<SpeedZone<double>> zones;
    auto add_zones = [&](int count) {
      for (int z = 0; z < count; ++z) {
        const double start = uniform<double>(rng, 0, length);
        zones.push_back({start, start + uniform<double>(rng, 5, 500), uniform<double>(rng, 2, 30)});
      }
    };
    add_zones(6);
    const auto line = *SpeedLimits<double>::line(length, 35);
    const auto plan = *SpeedPlan<double>::build(*line.with_zones(zones), motion, {0, 0, 0}, length);
    // A new zone (maybe under the train, maybe just ahead), replanned from a running state.
    const double now = uniform<double>(rng, 0, plan.duration());
    const AxisState<double> state = plan.state_at(now);
    add_zones(2);
    if (i % 3 == 0)  // right where the train is
      zones.push_back({state.position - 5, state.position + uniform<double>(rng, 10, 300),
                       uniform<double>(rng, 2, 30)});
    INFO("case " << i << ": state " << state.position << " " << state.velocity << " "
                 << state.acceleration);
    const auto replanned = SpeedPlan<double>::build(*line.with_zones(zones), motion, state, length);
    if (!replanned) {
      // Only a stop too close to make: braking at full power ends past the end of the line.
      CHECK(replanned.error().code == ErrorCode::no_solution);
      CHECK(full_brake_end(state.position, state.velocity, state.acceleration, motion) >
            length - 1e-3);
      continue;
    }
    const AxisSample<double> joined = replanned->at(0);
    CHECK(joined.position == state.position);
    CHECK(joined.velocity == state.velocity);
    CHECK(joined.acceleration == state.acceleration);
    CHECK(replanned->at(replanned->duration()).position == length);
    // Inside every limit beyond where it ran over them, and inside the motion limits throughout
    // (once the acceleration the replan inherited is).
    const double free_from = state.position + replanned->overspeed_distance();
    for (int k = 0; k <= 3000; ++k) {
      const AxisSample<double> s = replanned->at(replanned->duration() * k / 3000);
      if (s.position > free_from + 1e-9 * length)
        CHECK(s.velocity <= held_limit(zones, 35, 0, s.position) * (1 + 1e-9));
      CHECK(s.velocity >= -1e-9);
      CHECK(std::abs(s.jerk) <= motion.max_jerk * (1 + 1e-12));
    }
  }
}

TEST_CASE("speed plan: a replan over the limit with a lower limit again before the stop",
          "[motion][speed]") {
  // Braking to the 800 boundary's velocity eased off before it, and from there the stop was out
  // of reach: refused, "braking at full power ends at 824.32", though braking to rest at full
  // power from the state ends at 823.42, short of the stop at 823.74.
  const double length = 823.7430941504;
  const std::vector<SpeedZone<double>> zones{{563.5, 800, 11.77}, {800, length, 11.6}};
  const JerkLimits<double> motion{31.25710794139685, 0.71171665722220911, 0.99783090487109005,
                                  0.16888263731211231};
  const AxisState<double> state{675.5118224086973, 16.459485253007927, -0.52083748278255737};
  REQUIRE(full_brake_end(state.position, state.velocity, state.acceleration, motion) <
          length - 0.3);
  const auto plan = SpeedPlan<double>::build(
      *SpeedLimits<double>::line(length, 22.8)->with_zones(zones), motion, state, length);
  REQUIRE(plan);
  CHECK(plan->at(0).position == state.position);
  CHECK(plan->at(0).velocity == state.velocity);
  CHECK(plan->at(plan->duration()).position == length);
  double previous = state.position;
  const double free_from = state.position + plan->overspeed_distance();
  for (int k = 0; k <= 4000; ++k) {
    const AxisSample<double> s = plan->at(plan->duration() * k / 4000);
    if (s.position > free_from + 1e-9 * length)
      CHECK(s.velocity <= held_limit(zones, 22.8, 0, s.position) * (1 + 1e-9));
    CHECK(s.velocity >= -1e-9);
    CHECK(s.position >= previous - 1e-9);
    CHECK(std::abs(s.jerk) <= motion.max_jerk * (1 + 1e-12));
    previous = s.position;
  }
}

TEST_CASE("speed plan: no overspeed reported where the replan never runs over", "[motion][speed]") {
  // Accelerating at 26.6, 298 units before a zone of 20.6 it can brake for: the move to that
  // zone, from a state that is still accelerating, reported the distance from the start to
  // where it began (319 units) although the head never runs over a limit. In 1.5·10⁴ random
  // replans with zones lowered ahead, 1218 reported overspeed more than a unit beyond where
  // the velocity last exceeded a limit; 39 do now.
  const std::vector<SpeedZone<double>> zones{
      {0x1.26c7b34c8de62p+5, 0x1.23cab3d416b72p+8, 0x1.2abe9659efe21p+4},
      {0x1.7bc8922493e0bp+9, 0x1.975228df7f24ap+9, 0x1.499f56a2fff73p+4}};
  const double line = 0x1.16dddc284763p+5, length = 0x1.9b70689fd409p+9;
  const auto limits = *SpeedLimits<double>::line(length, line)->with_zones(zones);
  const JerkLimits<double> motion{0x1.9def12b0b77d5p+5, 0x1.6aed537b0e783p+0, 0x1.732a56744708cp+0,
                                  0x1.380d53885c13ap-1};
  const AxisState<double> state{0x1.b86e1197dcd14p+8, 0x1.a99c0dd79b334p+4, 0x1.6aed537b0e783p+0};
  const auto replanned = SpeedPlan<double>::build(limits, motion, state, length);
  REQUIRE(replanned);
  double worst = 0;
  for (int k = 0; k <= 20000; ++k) {
    const AxisSample<double> s = replanned->at(replanned->duration() * k / 20000);
    worst = std::max(worst, s.velocity / held_limit(zones, line, 0, s.position));
  }
  CHECK(worst <= 1 + 1e-12);
  CHECK(replanned->overspeed_distance() == 0);
}

TEMPLATE_TEST_CASE("speed plan: a limit lowered ahead of a train braking for its stop",
                   "[motion][speed]", float, double) {
  // Braking for the end at 1000, 50 before it; a 1-unit zone from 900: braking at full power
  // ends on the stop, over the zone's limit for 49.47 units. In float that brake ends within
  // rounding past the stop and overspeed_distance() said 0.
  using S = TestType;
  const JerkLimits<S> motion{25, 1, S(1.2), S(0.8)};
  const auto line = *SpeedLimits<S>::line(2000, 20);
  const auto plan = *SpeedPlan<S>::build(line, motion, {0, 0, 0}, 1000);
  for (const S at : {S(950), S(960), S(980)}) {
    const AxisState<S> state = plan.state_at(plan.time_at(at));
    const auto replanned =
        SpeedPlan<S>::build(*line.with_zones({{900, 1100, 1}}), motion, state, 1000);
    REQUIRE(replanned);
    // Where the velocity last exceeds 1, from dense samples.
    S last_over = state.position;
    for (int k = 0; k <= 20000; ++k) {
      const AxisSample<S> s = replanned->at(replanned->duration() * S(k) / 20000);
      if (s.velocity > S(1) * (1 + S(64) * std::numeric_limits<S>::epsilon()))
        last_over = s.position;
    }
    INFO("from " << at << ": over the limit until " << last_over);
    CHECK(last_over > state.position + 10);  // it does run over
    CHECK(state.position + replanned->overspeed_distance() >= last_over);
    CHECK(state.position + replanned->overspeed_distance() <= last_over + S(0.01));
  }
}

// A timetable: a stop reached no sooner than its arrival time, the leg to it run under a lower
// top speed. On an open line with equal acceleration and braking the leg is the S-curve to a
// cruise at v, which takes T(v) = D/v + τ(v), τ the time from rest to v (2√(v/J) below the knee
// A²/J, v/A + A/J above), while the cruise fits (v·τ(v) <= D); there T falls as v rises. The v
// that arrives at T, solved here in long double by bisection on that closed form.
TEST_CASE("speed plan: a timetabled stop is reached on time, at the closed form's speed",
          "[motion][speed]") {
  auto rng = make_rng(246);
  for (int i = 0; i < property_count(100); ++i) {
    const double length = uniform<double>(rng, 10, 2000);
    const double a = uniform<double>(rng, 0.2, 2), j = uniform<double>(rng, 0.1, 2);
    const JerkLimits<double> motion{uniform<double>(rng, 1, 40), a, a, j};
    const auto limits = *SpeedLimits<double>::line(length, motion.max_velocity);
    const auto fastest = SpeedPlan<double>::build(limits, motion, {0, 0, 0}, length);
    REQUIRE(fastest);
    const double arrival = fastest->duration() * uniform<double>(rng, 1.05, 3);
    Journey<double> journey{{0, 0, 0}, length, {}, 0, arrival};
    const auto plan = SpeedPlan<double>::build(limits, motion, journey);
    REQUIRE(plan);
    using L = long double;
    const auto rise = [&](L v) {
      return v < L(a) * a / j ? 2 * std::sqrt(v / j) : v / a + L(a) / j;
    };
    const auto takes = [&](L v) { return L(length) / v + rise(v); };
    L lo = 0, hi = motion.max_velocity;  // the fastest cruise that fits: v·τ(v) = D
    for (int k = 0; k < 200; ++k) {
      const L mid = (lo + hi) / 2;
      (mid * rise(mid) < length ? lo : hi) = mid;
    }
    hi = lo;
    lo = 0;
    for (int k = 0; k < 200; ++k) {
      const L mid = (lo + hi) / 2;
      (takes(mid) > arrival ? lo : hi) = mid;
    }
    const double v = double((lo + hi) / 2);
    INFO("case " << i << ": length " << length << " arrival " << arrival << " v " << v);
    CHECK(plan->duration() >= arrival);
    CHECK(plan->duration() <= arrival * (1 + 1e-9));
    CHECK(plan->at(plan->duration() / 2).velocity == Approx(v).epsilon(1e-9));
    check_plan(
        *plan, motion, [&](double) { return motion.max_velocity; }, 400);
  }
}

TEST_CASE("speed plan: a timetabled running start slows to its top speed, over no limit",
          "[motion][speed]") {
  // A 5 km line of limit 25 under a 1.0 braking limit and jerk 0.5, timetabled to take 500 s:
  // its top speed is about 10. From 20 the head brakes to it, under every limit all the way:
  // no overspeed (the timetable's top speed is not a limit).
  const auto limits = *SpeedLimits<double>::line(5000, 25);
  const JerkLimits<double> motion{30, 0.8, 1.0, 0.5};
  const auto running = SpeedPlan<double>::build(limits, motion, {{0, 20, 0}, 5000, {}, 0, 500});
  REQUIRE(running);
  CHECK(running->duration() == Approx(500).epsilon(1e-9));
  CHECK(running->overspeed_distance() == 0);
  // From 30, over the line's 25, it brakes at full power to that top speed: jerk −0.5 for 2 s
  // (to 29, over 60 − 0.5·2³/6), then −1.0 held, under 25 after 4 s more (29·4 − 4²/2): over
  // the line's limit for 59.333 + 108 = 167.333, not until it is down to the top speed.
  const auto fast = SpeedPlan<double>::build(limits, motion, {{0, 30, 0}, 5000, {}, 0, 500});
  REQUIRE(fast);
  CHECK(fast->duration() == Approx(500).epsilon(1e-9));
  CHECK(fast->overspeed_distance() == Approx(60 - 4.0 / 6 + 108).epsilon(1e-12));
  CHECK(fast->at(fast->time_at(167)).velocity > 25);
}

TEST_CASE("speed plan: timetabled stations, trains told to arrive at once, replans on time",
          "[motion][speed]") {
  const std::vector<SpeedZone<double>> zones{{300, 500, 8}, {900, 1000, 12}};
  const auto limits = *SpeedLimits<double>::line(1500, 25)->with_zones(zones);
  const JerkLimits<double> motion{30, 0.8, 1.0, 0.5};
  const auto line_limit = [&](double s) { return held_limit(zones, 25, 0, s); };
  // Untimed: the fastest run through a station at 700 with a 30 s dwell.
  const auto fastest = SpeedPlan<double>::build(limits, motion, {0, 0, 0}, 1500, {{700, 30}});
  REQUIRE(fastest);
  const double first = fastest->time_at(700);
  // The station timetabled 40 s later than the fastest arrival, the end 25 s later than the
  // fastest run from there: each reached on time, under the limits.
  const double at_station = first + 40;
  const double at_end = fastest->duration() + 40 + 25;
  const auto timed = SpeedPlan<double>::build(
      limits, motion, {{0, 0, 0}, 1500, {{700, 30, at_station}}, 0, at_end});
  REQUIRE(timed);
  CHECK(timed->time_at(700) >= at_station);
  CHECK(timed->time_at(700) <= at_station * (1 + 1e-9));
  CHECK(timed->duration() >= at_end);
  CHECK(timed->duration() <= at_end * (1 + 1e-9));
  check_plan(*timed, motion, line_limit, 2000);
  CHECK(timed->overspeed_distance() == 0);
  // A time the fastest run cannot make: it runs as fast as it can (late).
  const auto late =
      SpeedPlan<double>::build(limits, motion, {{0, 0, 0}, 1500, {{700, 30, first / 2}}, 0, 1});
  REQUIRE(late);
  CHECK(late->duration() == Approx(fastest->duration()).epsilon(1e-12));
  // A replan from the timed run's state halfway to the station, with the same timetable on its
  // own clock: it continues the run (arrives on time, never over the slower leg's speed).
  const double t = at_station / 2;
  const AxisState<double> now = timed->state_at(t);
  const auto replan = SpeedPlan<double>::build(
      limits, motion, {now, 1500, {{700, 30, at_station - t}}, 0, at_end - t});
  REQUIRE(replan);
  CHECK(replan->time_at(700) + t == Approx(at_station).epsilon(1e-9));
  CHECK(replan->duration() + t == Approx(at_end).epsilon(1e-9));
  CHECK(replan->overspeed_distance() == 0);
  // Two trains on lines of their own told to arrive at once: the later fastest arrival is the
  // common time, which both then meet.
  const auto other_limits = *SpeedLimits<double>::line(1200, 18);
  const auto other = SpeedPlan<double>::build(other_limits, motion, {0, 0, 0}, 1200);
  REQUIRE(other);
  const double together = std::max(other->duration(), fastest->time_at(700));
  const auto a = SpeedPlan<double>::build(other_limits, motion, {{0, 0, 0}, 1200, {}, 0, together});
  const auto b = SpeedPlan<double>::build(limits, motion, {{0, 0, 0}, 700, {}, 0, together});
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->duration() == Approx(together).epsilon(1e-9));
  CHECK(b->duration() == Approx(together).epsilon(1e-9));
  // Arrival times far off are still met (a top speed of distance/time is late enough).
  for (double far : {1e12, 1e100}) {
    const auto slow = SpeedPlan<double>::build(limits, motion, {{0, 0, 0}, 1500, {}, 0, far});
    REQUIRE(slow);
    CHECK(slow->duration() >= far);
    CHECK(slow->duration() <= far * (1 + 1e-9));
  }
  // Arrival times that are not finite times >= 0 are errors.
  for (double bad : {-1.0, std::numeric_limits<double>::quiet_NaN()}) {
    const auto at_end_bad = SpeedPlan<double>::build(limits, motion, {{0, 0, 0}, 1500, {}, 0, bad});
    REQUIRE_FALSE(at_end_bad);
    CHECK(at_end_bad.error().code == ErrorCode::out_of_range);
    const auto at_station_bad =
        SpeedPlan<double>::build(limits, motion, {{0, 0, 0}, 1500, {{700, 30, bad}}});
    REQUIRE_FALSE(at_station_bad);
    CHECK(at_station_bad.error().message.find("arrival") != std::string::npos);
  }
}
