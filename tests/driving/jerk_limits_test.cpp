// JerkTrajectory from beyond the limits, in fixed durations, and its queries.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "driving/jerk_reference.hpp"
#include "support/catch.hpp"
#include "support/properties.hpp"
#include "tractrix/driving/jerk_trajectory.hpp"
#include "tractrix/motion/time_profile.hpp"

using namespace tractrix;
using namespace tractrix::test;

TEST_CASE("jerk trajectory: states beyond the limits brake back inside and stay there",
          "[motion][jerk]") {
  auto rng = make_rng(154);
  for (int i = 0; i < property_count(1000); ++i) {
    const JerkLimits<double> lim = random_limits<double>(rng);
    const AxisState<double> from{0, uniform<double>(rng, -2, 2) * lim.max_velocity,
                                 uniform<double>(rng, -2, 2) * lim.max_acceleration};
    const double target = uniform<double>(rng, -5, 5);
    const double target_velocity = uniform<double>(rng, -1, 1) * lim.max_velocity;
    INFO("case " << i << ": v " << from.velocity << " a " << from.acceleration);
    const auto tr = JerkTrajectory<double>::to_position(from, target, target_velocity, lim);
    REQUIRE(tr);
    const double over =
        from.acceleration > lim.max_acceleration    ? from.acceleration - lim.max_acceleration
        : -from.acceleration > lim.max_deceleration ? -from.acceleration - lim.max_deceleration
                                                    : 0;
    const double braking = double(reference_braking(from, lim));
    CHECK(std::abs(tr->braking_duration() - braking) <= 1e-12 * (1 + braking));
    if (over > 0) CHECK(std::abs(tr->at(0).jerk) == lim.max_jerk);
    // Where braking brought the velocity back to the limit, it stays inside from there on.
    // (Where going on would have carried it past the opposite limit first, the plan's first
    // change brakes instead, as before: then braking_duration() is the acceleration brake's.)
    const double braked = std::abs(tr->at(tr->braking_duration()).velocity);
    if (tr->braking_duration() > over / lim.max_jerk &&
        std::abs(braked - lim.max_velocity) <= 1e-12 * lim.max_velocity) {
      for (int k = 1; k <= 200; ++k) {
        const double t =
            tr->braking_duration() + (tr->duration() - tr->braking_duration()) * k / 200;
        CHECK(std::abs(tr->at(t).velocity) <= lim.max_velocity * (1 + 1e-12));
      }
    }
    CHECK(tr->at(tr->duration()).position == target);
    CHECK(limit_excess(*tr, lim, 400, 1e-6) <= 1e-12);
    const auto velocity = JerkTrajectory<double>::to_velocity(from, target_velocity, lim);
    REQUIRE(velocity);
    CHECK(limit_excess(*velocity, lim, 400, 1e-6) <= 1e-12);
  }
}

TEST_CASE("jerk trajectory: starts beyond the velocity limit take Ruckig's durations",
          "[motion][jerk]") {
  // Cases an outside check found slower than Ruckig (or still beyond v_max when braking at full
  // jerk had finished), as v_max a_max d_max j_max p0 v0 a0 p* v*, with the durations Ruckig
  // 0.19.4 (PyPI) gives for them: its velocity brake, then its time-optimal profile.
  const double cases[][10] = {
      {8.535445297425726, 2.8155485240889018, 8.4045823668673894, 0.12589624372001113,
       48.795184557826815, 9.4100670093946004, 0, 79.84992530554986, -7.4842158903329015,
       24.48183701643302},
      {331.18670940262808, 3512.6074820450635, 10284.404441920735, 1317.4999304618616,
       307.58971230445479, -491.70535761778751, 0, -34.099609063319598, 0, 1.4200130668219053},
      {0.23518378569259052, 0.37586344854331138, 0.21024905349802256, 0.29541655281245993,
       0.20635185239138959, -0.19500701371446316, -0.18342819574350805, -0.24035167359757073, 0,
       2.8064607259612853},
      {47.006972752233189, 27.063398277176681, 54.908297500376953, 21.595206045979442,
       -109.14899727296553, -73.633687634330215, 23.481966003971664, -278.22409275907359, 0,
       5.462163420863564},
      {368.45608154712602, 434.12197686167559, 664.04478301557549, 94.058636752291719,
       179.29421677292672, -613.23199901674002, 122.83876465808177, -1538.2558369727994, 0,
       9.60130785334672},
      // Braking that would carry the velocity past the opposite limit: Ruckig brakes until
      // easing from there would reach it, and plans on from that state (tractrix planned from
      // the start instead, 3.66, 4.16 and 1.18 s: shorter, but 0.1–0.6 s longer beyond the
      // limits).
      {1.099649451569908, 0.15687333301577505, 2.687805881499669, 1.415622392322109,
       -1.390436545718722, 2.2820346799047297, -1.8762908452346567, 2.6560999855584555,
       0.4628797544454438, 20.250559127104488},
      {1.1114805417690559, 0.19426607349317748, 1.6948471705208086, 0.37106725750289105,
       -2.5914088479512225, 2.2927685657194505, -1.1818860848900927, -1.11082316736838,
       -0.6975188842643649, 21.018666451870917},
      {0.3445410598328277, 2.103700159163089, 2.519466701537965, 1.0436189830244316,
       1.2720770551292464, 0.7674630121099238, -0.7479435567302007, 1.8085168684531059,
       0.2505264011155452, 4.509214123352163}};
  for (const auto& c : cases) {
    const JerkLimits<double> lim{c[0], c[1], c[2], c[3]};
    const AxisState<double> from{c[4], c[5], c[6]};
    const auto tr = JerkTrajectory<double>::to_position(from, c[7], c[8], lim);
    REQUIRE(tr);
    INFO("v0 " << c[5]);
    CHECK(std::abs(tr->duration() - c[9]) <= 1e-12 * c[9]);
    CHECK(std::abs(tr->braking_duration() - double(reference_braking(from, lim))) <= 1e-12);
    CHECK(limit_excess(*tr, lim, 400, 1e-6) <= 1e-12);
    // Braked back to the limit: inside from there on.
    const double braked = std::abs(tr->at(tr->braking_duration()).velocity);
    if (std::abs(braked - lim.max_velocity) > 1e-12 * lim.max_velocity) continue;
    for (int k = 0; k <= 200; ++k) {
      const double t = tr->braking_duration() + (tr->duration() - tr->braking_duration()) * k / 200;
      CHECK(std::abs(tr->at(t).velocity) <= lim.max_velocity * (1 + 1e-12));
    }
  }
}

TEST_CASE("jerk trajectory: a fixed duration is met exactly, inside the limits", "[motion][jerk]") {
  auto rng = make_rng(155);
  SECTION("rest to rest and cruises: every duration from the optimal one on") {
    for (int i = 0; i < property_count(500); ++i) {
      const JerkLimits<double> lim = random_limits<double>(rng);
      const double v0 = i % 2 ? 0 : uniform<double>(rng, 0, 1) * lim.max_velocity;
      const double distance = uniform<double>(rng, 0.5, 20) + v0 * v0 / lim.max_deceleration +
                              v0 * lim.max_deceleration / lim.max_jerk;
      const auto fastest = JerkTrajectory<double>::to_position({0, v0, 0}, distance, 0, lim);
      REQUIRE(fastest);
      const double duration = fastest->duration() * uniform<double>(rng, 1, 4);
      INFO("case " << i << ": v0 " << v0 << " D " << distance << " T " << duration);
      const auto tr =
          JerkTrajectory<double>::to_position_in(duration, {0, v0, 0}, distance, 0, lim);
      REQUIRE(tr);
      check_meets(*tr, duration, {0, v0, 0}, {distance, 0, 0}, lim, distance + 1);
    }
  }
  SECTION("from any state: met exactly where it is met; the optimal duration always") {
    int met = 0;
    const int cases = property_count(1000);
    for (int i = 0; i < cases; ++i) {
      const JerkLimits<double> lim = random_limits<double>(rng);
      const AxisState<double> from{0, uniform<double>(rng, -1, 1) * lim.max_velocity,
                                   uniform<double>(rng, -0.5, 0.5) * lim.max_deceleration};
      const double distance = uniform<double>(rng, -5, 5);
      const double target_velocity = uniform<double>(rng, -1, 1) * lim.max_velocity;
      const auto fastest =
          JerkTrajectory<double>::to_position(from, distance, target_velocity, lim);
      REQUIRE(fastest);
      const auto same = JerkTrajectory<double>::to_position_in(fastest->duration(), from, distance,
                                                               target_velocity, lim);
      REQUIRE(same);
      CHECK(std::abs(same->duration() - fastest->duration()) <=
            4 * eps<double>() * fastest->duration());
      const double duration = fastest->duration() * uniform<double>(rng, 1, 3);
      const auto tr =
          JerkTrajectory<double>::to_position_in(duration, from, distance, target_velocity, lim);
      if (!tr) {
        CHECK(tr.error().code == ErrorCode::no_solution);
        continue;
      }
      ++met;
      check_meets(*tr, duration, from, {distance, target_velocity, 0}, lim,
                  std::abs(distance) + lim.max_velocity * duration, 200);
    }
    // Targets that must reverse to take longer have durations no profile meets (they would be
    // reached in the shortest time, and again after a gap); in this mix they are a few percent.
    CHECK(met >= cases * 9 / 10);
  }
  SECTION("durations Ruckig meets, where neither a cruise nor a softer jerk fits them") {
    // v_max a_max d_max j_max p0 v0 a0 p* v* T: each T met by Ruckig 0.19.4 (minimum_duration
    // T gives a trajectory of exactly T); refused by tractrix before its acceleration could
    // wave, or hold below its limit. The first two are from the outside check's report.
    const double cases[][10] = {
        {0.15218576488198268, 1.3649440993009845, 1.2283245356575019, 0.28134676210387083,
         -0.10249734517291165, 0.14662561388842668, -0.24138901379507594, -0.1005817251572287,
         -0.075128066356596274, 1.85589},
        {99.047128829820423, 720.1993556400231, 1029.9903610326787, 2410.810798784215,
         36.422534741017444, -82.682380918165805, 585.84723101122074, 33.423389981339355,
         35.241343842359157, 0.436205},
        {2.8008274655824215, 0.5506016595760727, 1.3799185566354568, 1.3175545847712609,
         -0.5517499461614017, 1.838962345228012, 0.17664837335017522, 2.88695792970943,
         0.5890195551161922, 2.734825860976902},
        {1.759757066971001, 1.9403943511293968, 0.21733258001231498, 2.4629733241754677,
         -1.9861491639837765, 0.0929545267979505, 0.181903647885859, -0.5568367768292983,
         1.6030550643314905, 1.641838610995638},
        {1.759757066971001, 1.9403943511293968, 0.21733258001231498, 2.4629733241754677,
         -1.9861491639837765, 0.0929545267979505, 0.181903647885859, -0.5568367768292983,
         1.6030550643314905, 1.7200214019954303},
        {1.9090020675057116, 1.6173747922351303, 0.2624620005932279, 0.35541455838397495,
         -2.0530796598394345, 1.199233269121213, 0.1133403463345687, 0.8680112697537821,
         1.5027117684659743, 2.175794064491712},
        {2.128393297058424, 1.035586271343846, 0.4432700654001308, 1.8974504260255305,
         2.7392937325508626, -0.1273037776002293, 0.09854362436647883, 0.6964804387572263,
         -1.2917612387445268, 2.952309058763082},
        {2.4258338276359597, 1.4461263468923329, 1.3730758863112884, 0.5707792840769287,
         -2.193646436113692, 1.3341321686199963, -0.0854865904253512, -0.3534562294247321,
         0.8455350502273822, 1.71818808193347},
        {2.0598028607413936, 2.761700117337071, 2.699915737637706, 1.8512567819849566,
         -0.7817749530813591, -1.9224854437912318, 2.6800322636579073, -0.7435259794434925,
         1.1947191866078677, 2.323279673700033},
        {2.0598028607413936, 2.761700117337071, 2.699915737637706, 1.8512567819849566,
         -0.7817749530813591, -1.9224854437912318, 2.6800322636579073, -0.7435259794434925,
         1.1947191866078677, 2.7456941598273117},
        {2.8177860958623397, 1.932650940542932, 2.241035062281463, 0.7987867873229404,
         -2.9738200299602484, 0.7749584172090599, -0.007832900584516977, 1.5519542206447836,
         2.0189939686606966, 3.2987882229422896},
        {2.388673339197714, 2.2544331913600186, 1.9258031284975683, 2.3618138537564577,
         2.6444502218216037, -0.009204092808530618, -1.6097686853466437, 2.0770713781446135,
         -0.06647853642284694, 1.7037609985537878}};
    for (const auto& c : cases) {
      const JerkLimits<double> lim{c[0], c[1], c[2], c[3]};
      const AxisState<double> from{c[4], c[5], c[6]};
      INFO("T " << c[9]);
      const auto tr = JerkTrajectory<double>::to_position_in(c[9], from, c[7], c[8], lim);
      REQUIRE(tr);
      check_meets(*tr, c[9], from, {c[7], c[8], 0}, lim,
                  std::abs(c[4]) + std::abs(c[7]) + c[0] * c[9]);
    }
  }
  SECTION("to a target accelerating, met exactly where met; Ruckig's waved cases") {
    int met = 0;
    const int cases = property_count(600);
    for (int i = 0; i < cases; ++i) {
      const JerkLimits<double> lim = random_limits<double>(rng);
      const AxisState<double> from{0, uniform<double>(rng, -1, 1) * lim.max_velocity,
                                   uniform<double>(rng, -0.5, 0.5) * lim.max_deceleration};
      const AxisState<double> target{
          uniform<double>(rng, -5, 5), uniform<double>(rng, -1, 1) * lim.max_velocity,
          uniform<double>(rng, -lim.max_deceleration, lim.max_acceleration)};
      const JerkLimits<double> backwards{lim.max_velocity, lim.max_deceleration,
                                         lim.max_acceleration, lim.max_jerk};
      if (!holdable(from.velocity, from.acceleration, lim) ||
          !holdable(target.velocity, -target.acceleration, backwards)) {
        --i;
        continue;
      }
      const auto fastest = JerkTrajectory<double>::to_position(from, target, lim);
      REQUIRE(fastest);
      const double duration = fastest->duration() * uniform<double>(rng, 1, 3);
      INFO("case " << i << ": T " << duration);
      const auto tr = JerkTrajectory<double>::to_position_in(duration, from, target, lim);
      if (!tr) {
        CHECK(tr.error().code == ErrorCode::no_solution);
        continue;
      }
      ++met;
      check_meets(*tr, duration, from, target, lim,
                  std::abs(target.position) + lim.max_velocity * duration, 200);
    }
    CHECK(met >= cases * 9 / 10);
    // v_max a_max d_max j_max p0 v0 a0 p* v* a* T: each T met by Ruckig 0.19.4, and only by an
    // acceleration that waves or holds below its limit on the way to a*.
    const double waved[][11] = {
        {1.235676306623426, 2.411367362277514, 2.3445790655861476, 2.443281945403221,
         2.3869276559065025, -0.4883593318646212, 1.307064652523977, 2.7203408534175315,
         1.0740082287994923, 0.8923003352685859, 1.6418656683773367},
        {2.5858850841606005, 2.9439321926734, 1.166424845505161, 1.2998544234933849,
         -0.9156889604060465, -0.6624487649343214, -0.3493812942580572, -2.893219205770335,
         0.017484567536313556, 1.6630224234761355, 2.572988210508722}};
    for (const auto& c : waved) {
      const JerkLimits<double> lim{c[0], c[1], c[2], c[3]};
      const AxisState<double> from{c[4], c[5], c[6]}, target{c[7], c[8], c[9]};
      INFO("T " << c[10]);
      const auto tr = JerkTrajectory<double>::to_position_in(c[10], from, target, lim);
      REQUIRE(tr);
      check_meets(*tr, c[10], from, target, lim, 4 + c[0] * c[10]);
    }
  }
  SECTION("shorter than the optimal duration is an error that names it") {
    const auto tr = JerkTrajectory<double>::to_position_in(0.5, {0, 0, 0}, 10, 0, {1, 1, 1, 1});
    REQUIRE_FALSE(tr);
    CHECK(tr.error().code == ErrorCode::out_of_range);
    CHECK(tr.error().message.find("shorter than the time-optimal") != std::string::npos);
  }
}

TEST_CASE("jerk trajectory: durations in a blocked interval are refused, where Ruckig's are",
          "[motion][jerk]") {
  // Three profiles that speed up and then slow down (or the reverse) reach this target: the
  // fastest, 1.648 s, and two more whose durations bound a blocked interval. Ruckig 0.19.4 (with
  // minimum_duration, bisected) meets every duration up to 2.1874615024704651 s and none from
  // there to 6.2807194888251052 s, which it meets.
  const JerkLimits<double> lim{2.0, 0.5, 1.98, 1.91};
  const AxisState<double> from{-2.17, 1.49, -0.2};
  const double target = 0.44, velocity = 1.43;
  const double start = 2.1874615024704651, end = 6.2807194888251052;
  const auto fastest = JerkTrajectory<double>::to_position(from, target, velocity, lim);
  REQUIRE(fastest);
  CHECK(std::abs(fastest->duration() - 1.6482234346712505) <= 1e-12);
  for (double T : {1.7, 2.0, start * (1 - 1e-8)})
    CHECK(JerkTrajectory<double>::to_position_in(T, from, target, velocity, lim));
  for (int k = 1; k < 40; ++k) {
    const double T = start + (end - start) * k / 40;
    INFO("T = " << T);
    const auto tr = JerkTrajectory<double>::to_position_in(T, from, target, velocity, lim);
    REQUIRE_FALSE(tr);
    CHECK(tr.error().code == ErrorCode::no_solution);
    CHECK(tr.error().message.find("the next duration met is 6.28071949 s") != std::string::npos);
    const auto next =
        JerkTrajectory<double>::to_position_no_sooner(T, 0, from, target, velocity, lim);
    REQUIRE(next);
    CHECK(std::abs(next->duration() - end) <= 1e-9 * end);
  }
  for (double T : {start * (1 + 1e-8), end * (1 - 1e-8)})
    CHECK_FALSE(JerkTrajectory<double>::to_position_in(T, from, target, velocity, lim));
  for (double T : {end * (1 + 1e-8), 7.0, 20.0}) {
    const auto tr = JerkTrajectory<double>::to_position_in(T, from, target, velocity, lim);
    REQUIRE(tr);
    check_meets(*tr, T, from, {target, velocity, 0}, lim, 2 + lim.max_velocity * T);
  }
}

// Past a gap no_sooner() steps to the duration of a listed profile, the gap's end; the
// fixed-duration search there can round past that profile, and its polish once grew onto a
// slower root and returned its phases (1.67 s of them) under the listed duration (0.96 s). At
// durations from the optimum to 3× it, the next duration met, with phases exactly that long
// that end on the target inside the limits.
TEST_CASE("jerk trajectory: the next duration met past a gap is met by phases that long",
          "[motion][jerk]") {
  auto rng = make_rng(174);
  const int cases = property_count(150);
  int stepped = 0;
  for (int i = 0; i < cases; ++i) {
    const JerkLimits<double> lim = random_limits<double>(rng);
    const AxisState<double> from{uniform<double>(rng, -1, 1),
                                 uniform<double>(rng, -1, 1) * lim.max_velocity,
                                 uniform<double>(rng, -1, 1) * lim.max_acceleration};
    if (!holdable(from.velocity, from.acceleration, lim)) {
      --i;
      continue;
    }
    const AxisState<double> target{from.position + uniform<double>(rng, -5, 5),
                                   uniform<double>(rng, -1, 1) * lim.max_velocity, 0};
    const auto fastest = JerkTrajectory<double>::to_position(from, target, lim);
    REQUIRE(fastest);
    for (int k = 0; k < 12; ++k) {
      const double asked = fastest->duration() * (1 + 2 * k / 11.0);
      INFO("case " << i << ": v " << from.velocity << " a " << from.acceleration << " D "
                   << target.position - from.position << " v* " << target.velocity << " limits "
                   << lim.max_velocity << " " << lim.max_acceleration << " " << lim.max_deceleration
                   << " " << lim.max_jerk << ", asked " << asked);
      const auto tr = JerkTrajectory<double>::to_position_no_sooner(asked, 0, from, target, lim);
      REQUIRE(tr);
      CHECK(tr->duration() >= asked);
      stepped += tr->duration() > asked * (1 + 1e-9);
      check_meets(*tr, tr->duration(), from, target, lim,
                  std::abs(target.position - from.position) + 2 * lim.max_velocity * tr->duration(),
                  100);
    }
  }
  CHECK(stepped >= cases / 20);
  // The case that returned 1.67 s of phases for 0.958 s: its listed profile durations are
  // 0.91198, 0.95820 and 1.66884 s (the fastest 0.83015 s).
  const JerkLimits<double> lim{2.2479353684577035, 2.9354521661902235, 1.4127938930826125,
                               2.2437593746128246};
  const AxisState<double> from{0.37033512398056123, -0.94678125096650423, 1.2773098033723504};
  const AxisState<double> target{-0.093551891074046378, -0.32523027270725452, 0};
  const double listed = 0.95820457633839107;
  const auto tr = JerkTrajectory<double>::to_position_in(listed, from, target, lim);
  REQUIRE(tr);
  check_meets(*tr, listed, from, target, lim, 1.0);
}

TEST_CASE("jerk trajectory: time_at is the first time the position is reached", "[motion][jerk]") {
  auto rng = make_rng(156);
  for (int i = 0; i < property_count(300); ++i) {
    const JerkLimits<double> lim = random_limits<double>(rng);
    const AxisState<double> from{0, uniform<double>(rng, -1, 1) * lim.max_velocity, 0};
    const double target = uniform<double>(rng, -5, 5);
    const auto tr = JerkTrajectory<double>::to_position(from, target, 0, lim);
    REQUIRE(tr);
    const double station = target * uniform<double>(rng, -0.5, 1);
    const double t = tr->time_at(station);
    INFO("case " << i << ": station " << station << " target " << target);
    // Dense samples: the first crossing, found independently.
    const int steps = 20000;
    double first = std::numeric_limits<double>::infinity();
    double before = tr->at(0).position - station;
    if (before == 0) first = 0;
    for (int k = 1; k <= steps && !(first < std::numeric_limits<double>::infinity()); ++k) {
      const double now = tr->at(tr->duration() * k / steps).position - station;
      if ((before < 0) != (now < 0) || now == 0) first = tr->duration() * k / steps;
      before = now;
    }
    if (std::isfinite(first)) {
      REQUIRE(std::isfinite(t));
      CHECK(t <= first + 1e-12);
      CHECK(t >= first - tr->duration() / steps - 1e-12);
      CHECK(std::abs(tr->at(t).position - station) <= 1e-12 * (std::abs(station) + 10));
    } else {
      CHECK_FALSE(std::isfinite(t));
    }
  }
  // Half way through a symmetric move from rest to rest is half its time (the middle is where
  // the first half's phases end and the second's start: their rounding apart).
  for (int i = 0; i < property_count(300); ++i) {
    const double distance = uniform<double>(rng, 0.01, 50);
    JerkLimits<double> lim = random_limits<double>(rng);
    lim.max_deceleration = lim.max_acceleration;
    const auto tr = JerkTrajectory<double>::to_position({1, 0, 0}, 1 + distance, 0, lim);
    REQUIRE(tr);
    INFO("case " << i << ": distance " << distance);
    CHECK(std::abs(tr->time_at(1 + distance / 2) - tr->duration() / 2) <= 1e-9 * tr->duration());
  }
  const auto moving = JerkTrajectory<double>::to_velocity({0, 0, 0}, 2, {4, 2, 2, 1});
  REQUIRE(moving);
  // 0 to 2 m/s under jerk 1 without reaching the acceleration limit: 2√(2/1) s; then it cruises
  // on.
  CHECK(std::abs(moving->duration() - 2 * std::sqrt(2.0)) <= 1e-15 * 4);
  CHECK(std::abs(moving->time_at(100) -
                 (moving->duration() + (100 - moving->at(moving->duration()).position) / 2)) <=
        1e-12 * 100);
  CHECK_FALSE(std::isfinite(moving->time_at(-1)));
}

TEST_CASE("jerk trajectory: position extrema", "[motion][jerk]") {
  SECTION("a reversal's turning point in closed form") {
    // From v0 to −v0 without reaching the acceleration limit: jerk −J for √(2v0/J), where the
    // velocity is v0 − J t²/2 = 0, then +J. The turning point is at
    // v0 t − J t³/6 = (2/3) v0 √(2v0/J).
    const double v0 = 1.5, j = 0.75;
    const auto tr = JerkTrajectory<double>::to_velocity({2, v0, 0}, -v0, {3, 5, 5, j});
    REQUIRE(tr);
    const PositionExtrema<double> e = tr->position_extrema();
    const double turn = std::sqrt(2 * v0 / j);
    CHECK(std::abs(e.max - (2 + 2.0 / 3 * v0 * turn)) <= 1e-14 * 4);
    CHECK(std::abs(e.time_of_max - turn) <= 1e-14 * turn);
    // The change is symmetric (mean velocity 0): it ends where it started, which is the least
    // position, first reached at 0.
    CHECK(std::abs(tr->target().position - 2) <= 1e-15 * 4);
    CHECK(e.min == 2);
    CHECK(e.time_of_min == 0);
  }
  SECTION("no position of the move is beyond them, and they are reached") {
    auto rng = make_rng(157);
    for (int i = 0; i < property_count(300); ++i) {
      const JerkLimits<double> lim = random_limits<double>(rng);
      const AxisState<double> from{uniform<double>(rng, -2, 2),
                                   uniform<double>(rng, -1.5, 1.5) * lim.max_velocity,
                                   uniform<double>(rng, -1.5, 1.5) * lim.max_acceleration};
      const auto tr = JerkTrajectory<double>::to_position(
          from, uniform<double>(rng, -5, 5), uniform<double>(rng, -1, 1) * lim.max_velocity, lim);
      REQUIRE(tr);
      const PositionExtrema<double> e = tr->position_extrema();
      INFO("case " << i);
      // Dense samples, each sample's neighbourhood refined by golden-section search on at():
      // the extremes of the motion found without the phases' velocity roots.
      const int steps = 4000;
      double lo = std::numeric_limits<double>::infinity(), hi = -lo;
      for (int k = 0; k <= steps; ++k) {
        const double p = tr->at(tr->duration() * k / steps).position;
        lo = std::min(lo, p);
        hi = std::max(hi, p);
      }
      const double scale = 1e-12 * (10 + std::abs(e.min) + std::abs(e.max));
      CHECK(e.min <= lo + scale);
      CHECK(e.max >= hi - scale);
      // Within what the sampling can miss: |v| dt/2 at a turn is 0 (v = 0 there), so the gap is
      // |a| (dt/2)²/2 at most.
      const double dt = tr->duration() / steps;
      const double miss = 2 * lim.max_acceleration * dt * dt + scale;
      CHECK(lo - e.min <= miss + std::abs(from.acceleration) * dt * dt);
      CHECK(e.max - hi <= miss + std::abs(from.acceleration) * dt * dt);
      CHECK(std::abs(tr->at(e.time_of_min).position - e.min) <= scale);
      CHECK(std::abs(tr->at(e.time_of_max).position - e.max) <= scale);
    }
  }
}

TEST_CASE("jerk trajectory: zero-length moves, float, and bad input", "[motion][jerk]") {
  SECTION("already there") {
    const auto tr = JerkTrajectory<double>::to_position({3, 0, 0}, 3, 0, {1, 1, 1, 1});
    REQUIRE(tr);
    CHECK(tr->duration() == 0);
    CHECK(tr->at(5).position == 3);
    CHECK(tr->time_at(3) == 0);
    const auto held = JerkTrajectory<double>::to_velocity({3, 1, 0}, 1, {1, 1, 1, 1});
    REQUIRE(held);
    CHECK(held->duration() == 0);
    CHECK(held->at(2).position == 5);
  }
  SECTION("float: planned in double, exact at the end, inside the limits") {
    auto rng = make_rng(157);
    for (int i = 0; i < property_count(500); ++i) {
      const JerkLimits<float> lim = random_limits<float>(rng);
      const AxisState<float> from{uniform<float>(rng, -10, 10),
                                  uniform<float>(rng, -1, 1) * lim.max_velocity, 0};
      const float target = from.position + uniform<float>(rng, -5, 5);
      const float target_velocity = uniform<float>(rng, -1, 1) * lim.max_velocity;
      const auto tr = JerkTrajectory<float>::to_position(from, target, target_velocity, lim);
      REQUIRE(tr);
      CHECK(tr->at(tr->duration()).position == target);
      CHECK(tr->at(tr->duration()).velocity == target_velocity);
      const auto as_double = JerkTrajectory<double>::to_position(
          {from.position, from.velocity, 0}, target, target_velocity,
          {lim.max_velocity, lim.max_acceleration, lim.max_deceleration, lim.max_jerk});
      REQUIRE(as_double);
      CHECK(std::abs(double(tr->duration()) - as_double->duration()) <=
            1e-6 * as_double->duration());
      // Sampled in float: limits to float rounding.
      CHECK(limit_excess(*tr, lim, 200, 1e-3) <= 1e-5);
      // The duration as float returns it, rounded either way, is the time-optimal one; 1e-4
      // shorter is not.
      const auto same =
          JerkTrajectory<float>::to_position_in(tr->duration(), from, target, target_velocity, lim);
      REQUIRE(same);
      CHECK(std::abs(same->duration() - tr->duration()) <= 4 * eps<float>() * tr->duration());
      CHECK(same->at(same->duration()).position == target);
      if (tr->duration() > 0)
        CHECK(JerkTrajectory<float>::to_position_in(tr->duration() * (1 - 1e-4f), from, target,
                                                    target_velocity, lim)
                  .error()
                  .code == ErrorCode::out_of_range);
    }
  }
  SECTION("errors name what is wrong") {
    const JerkLimits<double> good{1, 1, 1, 1};
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const JerkLimits<double>& bad :
         {JerkLimits<double>{-1, 1, 1, 1}, JerkLimits<double>{1, 0, 1, 1},
          JerkLimits<double>{1, 1, nan, 1},
          JerkLimits<double>{1, 1, 1, std::numeric_limits<double>::infinity()}}) {
      const auto tr = JerkTrajectory<double>::to_position({}, 1, 0, bad);
      REQUIRE_FALSE(tr);
      CHECK(tr.error().code == ErrorCode::out_of_range);
      CHECK(tr.error().message.find("max_jerk") != std::string::npos);
    }
    const auto fast = JerkTrajectory<double>::to_position({}, 1, 2, good);
    REQUIRE_FALSE(fast);
    CHECK(fast.error().message.find("target velocity 2") != std::string::npos);
    const auto fast_velocity = JerkTrajectory<double>::to_velocity({}, -1.5, good);
    REQUIRE_FALSE(fast_velocity);
    CHECK(JerkTrajectory<double>::to_position({nan, 0, 0}, 1, 0, good).error().code ==
          ErrorCode::non_finite);
    CHECK(JerkTrajectory<double>::to_position({}, nan, 0, good).error().code ==
          ErrorCode::non_finite);
    CHECK(JerkTrajectory<double>::to_position_in(nan, {}, 1, 0, good).error().code ==
          ErrorCode::out_of_range);
    // Target accelerations: beyond their limits, not finite, or reached only from beyond a
    // velocity limit (slowing through 0.9 at 0.5, it came from 0.9 + 0.5²/2 > 1).
    const JerkLimits<double> braking{1, 1, 0.5, 1};
    const auto hard = JerkTrajectory<double>::to_position({}, {1, 0, -0.75}, braking);
    REQUIRE_FALSE(hard);
    CHECK(hard.error().code == ErrorCode::out_of_range);
    CHECK(hard.error().message.find("target acceleration -0.75") != std::string::npos);
    CHECK(JerkTrajectory<double>::to_position({}, {1, 0, nan}, good).error().code ==
          ErrorCode::non_finite);
    const auto past = JerkTrajectory<double>::to_position_in(5, {}, {1, 0.9, -0.5}, good);
    REQUIRE_FALSE(past);
    CHECK(past.error().code == ErrorCode::out_of_range);
    CHECK(past.error().message.find("beyond a velocity limit") != std::string::npos);
    CHECK(JerkTrajectory<double>::to_position({}, {1, 0.8, -0.5}, good));  // from 0.925
  }
}

TEST_CASE("jerk trajectory: between cruises with just enough distance for one change in float",
          "[motion][jerk]") {
  // A speed plan's section between two zone boundaries: the distance is what the one change
  // from 8.83 to 9.87 takes, to the rounding of the float velocities the plan computed — 1.44e-5
  // more. The two phases of the change ended that short of the end (4 ulps there, more than 1e-7
  // of the positions' scale) and the move was refused as "its phases would not join" (45 float
  // plans from rest in 10⁵ on random lines with zones). The slack is cruised at the faster end.
  const float start = 30.4859657f, end = 51.2579536f, v1 = 8.83098316f, v2 = 9.87291527f;
  const JerkLimits<float> lim{22.9481812f, 1.89421225f, 1.17409074f, 0.844788849f};
  const auto tr = JerkTrajectory<float>::between_cruises(start, end, v1, v2, lim);
  REQUIRE(tr);
  CHECK(tr->at(0).position == start);
  CHECK(tr->at(0).velocity == v1);
  CHECK(tr->at(tr->duration()).position == end);
  CHECK(tr->at(tr->duration()).velocity == v2);
  // The phases themselves reach the end (integrated in long double from the start: 8.5e-7 off,
  // from the float durations and jerks; they ended 1.44e-5 short without the cruise), and so
  // does the trajectory an ulp of time before its end.
  const AxisState<L> reached = integrate_phases(*tr, AxisState<float>{start, v1, 0});
  CHECK(std::abs(reached.position - L(end)) <= L(eps<float>()) * L(end));
  CHECK(std::abs(reached.velocity - L(v2)) <= 4 * L(eps<float>()) * L(v2));
  const float before = std::nextafter(tr->duration(), 0.0f);
  CHECK(std::abs(tr->at(before).position - end) <= eps<float>() * end);
  // The closed form of one change below the acceleration limit (Δv < a²/J): jerk J for √(Δv/J),
  // then −J as long; the distance is the mean velocity times 2√(Δv/J), plus the slack's cruise.
  const L dv = L(v2) - L(v1), jerk = lim.max_jerk;
  const L change = 2 * std::sqrt(dv / jerk);
  const L slack = (L(end) - L(start)) - (L(v1) + L(v2)) / 2 * change;
  CHECK(dv < L(lim.max_acceleration) * L(lim.max_acceleration) / jerk);
  CHECK(slack >= 0);
  CHECK(slack <= 2e-5L);
  CHECK(std::abs(L(tr->duration()) - (change + slack / L(v2))) <= 1e-6L * change);
  // The velocity rises from v1 to v2 and never beyond, under every limit (to float rounding).
  float previous = v1;
  for (int k = 1; k <= 200; ++k) {
    const AxisSample<float> s = tr->at(tr->duration() * float(k) / 200);
    CHECK(s.velocity >= previous - 4 * eps<float>() * v2);
    CHECK(s.velocity <= v2 * (1 + 4 * eps<float>()));
    previous = s.velocity;
  }
  CHECK(limit_excess(*tr, lim, 200, 1e-3) <= 1e-5);
  // A near-v_max cruise moved on 3.1e-7 at its speed (its roots in v_p ended 11 ulps off the
  // target, and it was refused): the bump in closed form, ending on the target.
  const AxisState<float> cruising{0.12752983f, 1.85546315f, 0};
  const JerkLimits<float> tight{1.85546327f, 1.46058953f, 0.0107912803f, 0.785968304f};
  const auto on = JerkTrajectory<float>::to_position(cruising, 0.127530143f, 1.85546315f, tight);
  REQUIRE(on);
  const L moved = L(0.127530143f) - L(cruising.position);
  CHECK(std::fabs(L(on->duration()) - moved / L(cruising.velocity)) <= 1e-6L * on->duration());
  CHECK(std::fabs(integrate_phases(*on, cruising).position - L(0.127530143f)) <=
        2 * eps<float>() * L(0.127530143f));
}
