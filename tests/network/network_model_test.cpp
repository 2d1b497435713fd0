// Model-based random tests for networks: random layouts of track (a line of stations with
// passing loops and sidings, closed into an oval or ending at buffer stops), random switch
// settings and random starts. The routes the library follows are checked against a model of the
// layout kept by the generator itself — which node each piece leaves and reaches, which way it is
// stored — that knows nothing of the library's joints, sides or walks.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "support/catch.hpp"
#include "support/properties.hpp"
#include "tractrix/network/network.hpp"
#include "tractrix/network/route.hpp"
#include "tractrix/train/train_solver.hpp"

using namespace tractrix;
using namespace tractrix::test;

namespace {

using V = Vector3<double>;

// One piece as the generator laid it: from node `from` to node `to` along the circuit's way
// (none at a buffer stop), stored reversed or not.
struct ModelPiece {
  std::size_t from, to;
  bool reversed;
};
constexpr std::size_t none = static_cast<std::size_t>(-1);

struct Layout {
  std::vector<Track<double>> tracks;
  std::vector<ModelPiece> model;
};

Track<double> track_of(const std::vector<CubicBezier<double, 3>>& segments, bool reversed) {
  std::vector<CubicBezier<double, 3>> s = segments;
  if (reversed) {
    std::reverse(s.begin(), s.end());
    for (auto& segment : s)
      std::reverse(segment.points.begin(), segment.points.end());
  }
  return *Track<double>::build(
      MeasuredPath<double>::build(Path<double, 3>::from_segments(s, Closure::open)));
}

CubicBezier<double, 3> straight(V a, V b) {
  return {{a, (2.0 * a + b) / 3.0, (a + 2.0 * b) / 3.0, b}};
}

// A random layout. Nodes 0..n along the bottom (x = 100 k, heading +x); if closed, nodes
// n+1..2n+1 along the top (z = 100, heading −x) and half circles joining the ends.
Layout random_layout(std::mt19937_64& rng, bool closed) {
  std::uniform_int_distribution<int> spans_of(2, 4);
  std::uniform_real_distribution<double> chance(0.0, 1.0);
  const int spans = spans_of(rng);
  Layout layout;
  const auto add = [&](const std::vector<CubicBezier<double, 3>>& segments, std::size_t from,
                       std::size_t to) {
    const bool reversed = chance(rng) < 0.5;
    layout.tracks.push_back(track_of(segments, reversed));
    layout.model.push_back({from, to, reversed});
  };
  // A line of `spans` spans from `origin` heading `heading` (±x), its nodes from `first`.
  const auto line = [&](V origin, double heading, std::size_t first) {
    for (int k = 0; k < spans; ++k) {
      const V a = origin + V(heading * 100.0 * k, 0, 0), b = a + V(heading * 100.0, 0, 0);
      const std::size_t from = first + std::size_t(k), to = from + 1;
      add({straight(a, b)}, from, to);
      // Passing loops beside the span, 10 and 20 out (one or two: a switch of three legs).
      const int loops = chance(rng) < 0.5 ? 0 : chance(rng) < 0.7 ? 1 : 2;
      for (int l = 1; l <= loops; ++l) {
        const V out(0, 0, -10.0 * l * heading), step(heading * 25.0, 0, 0);
        const V m = a + V(heading * 50.0, 0, 0) + out;
        add({CubicBezier<double, 3>{{a, a + step, a + step + out, m}},
             CubicBezier<double, 3>{{m, b - step + out, b - step, b}}},
            from, to);
      }
      // A siding leaving the span's start, ending 30 on at a buffer stop off the line.
      if (chance(rng) < 0.3) {
        const V off(0, 0, 15.0 * heading), step(heading * 15.0, 0, 0);
        add({CubicBezier<double, 3>{{a, a + step, a + step + off, a + 2.0 * step + off}}}, from,
            none);
      }
    }
  };
  line(V(0, 0, 0), 1.0, 0);
  if (!closed) {
    // Buffer stops 50 beyond both ends: a joint of two ends continues one into the other, so the
    // line's end nodes need a piece on their far side too.
    add({straight(V(-50, 0, 0), V(0, 0, 0))}, none, 0);
    add({straight(V(100.0 * spans, 0, 0), V(100.0 * spans + 50, 0, 0))}, std::size_t(spans), none);
  }
  if (closed) {
    const double x_end = 100.0 * spans;
    line(V(x_end, 0, 100), -1.0, std::size_t(spans) + 1);
    const auto bend = [](V centre, double from) {
      std::vector<CubicBezier<double, 3>> segments;
      const double step = detail::pi<double>() / 4, handle = 50.0 * 4.0 / 3.0 * std::tan(step / 4);
      for (int k = 0; k < 4; ++k) {
        const double a0 = from + step * k, a1 = a0 + step;
        const V p0 = centre + 50.0 * V(std::sin(a0), 0, -std::cos(a0));
        const V p1 = centre + 50.0 * V(std::sin(a1), 0, -std::cos(a1));
        segments.push_back({{p0, p0 + handle * V(std::cos(a0), 0, std::sin(a0)),
                             p1 - handle * V(std::cos(a1), 0, std::sin(a1)), p1}});
      }
      return segments;
    };
    add(bend(V(x_end, 0, 50), 0.0), std::size_t(spans), std::size_t(spans) + 1);
    add(bend(V(0, 0, 50), detail::pi<double>()), std::size_t(2 * spans) + 1, 0);
  }
  return layout;
}

// The pieces on one side of `node`, in order: those leaving it along the circuit (way 1) or
// those reaching it (way 0).
std::vector<std::size_t> pieces_at(const Layout& layout, std::size_t node, int way) {
  std::vector<std::size_t> ends;
  for (std::size_t p = 0; p < layout.model.size(); ++p)
    if ((way == 1 ? layout.model[p].from : layout.model[p].to) == node) ends.push_back(p);
  return ends;
}

// The model's walk: the steps a train takes from `start` with `choice[node][way]` (the piece
// chosen among the candidates leaving a node that way; way 1 with the circuit, 0 against it),
// or the lowest-numbered candidate where the test chose none (the default leg: a joint found
// where ends meet lists its ends by piece). Stops at a buffer stop, back at the start, or once
// at least `min_length` long.
struct Walked {
  std::vector<Step> steps;
  bool closed = false;
  bool refused = false;  // it trails through a switch set against it
};

Walked model_walk(const Layout& layout, const std::vector<std::array<std::size_t, 2>>& choice,
                  Step start, double min_length) {
  const auto& m = layout.model;
  const auto with_circuit = [&](const Step& s) {
    return (s.direction == Direction::forward) != m[s.piece].reversed;
  };
  Walked out;
  Step step = start;
  double length = 0;
  for (int guard = 0; guard < 1000; ++guard) {
    out.steps.push_back(step);
    length += layout.tracks[step.piece].length();
    if (length >= min_length) return out;
    const bool along = with_circuit(step);
    const std::size_t node = along ? m[step.piece].to : m[step.piece].from;
    if (node == none) return out;  // the siding's buffer stop
    // The pieces on each side of `node`, and the one each side is set to.
    const auto side = [&](int way) { return pieces_at(layout, node, way); };
    const auto selected = [&](int way, const std::vector<std::size_t>& ends) {
      const std::size_t chosen = choice[node][std::size_t(way)];
      return chosen == none ? ends.front() : chosen;
    };
    // Arriving by a leg the switch is not set to: refused.
    const std::vector<std::size_t> arriving = side(along ? 0 : 1);
    if (arriving.size() > 1 && selected(along ? 0 : 1, arriving) != step.piece) {
      out.refused = true;
      return out;
    }
    const std::vector<std::size_t> candidates = side(along ? 1 : 0);
    if (candidates.empty()) return out;  // a buffer stop at the line's end
    const std::size_t next = selected(along ? 1 : 0, candidates);
    // Driving along the circuit on a piece stored reversed is driving it backwards.
    step = {next, along != m[next].reversed ? Direction::forward : Direction::backward};
    if (step == start) {
      out.closed = true;
      return out;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("model: routes followed on random layouts are the model's walks", "[network][model]") {
  std::mt19937_64 rng = make_rng(79);
  std::uniform_real_distribution<double> chance(0.0, 1.0);
  int layouts = 0, walks = 0, closed_walks = 0, switches = 0, refused = 0;
  // 120 layouts a unit of TRACTRIX_PROPERTY_FACTOR (CI runs 4; 100 is a long run).
  const int trials = property_count(120);
  for (int trial = 0; trial < trials; ++trial) {
    const bool closed = trial % 2 == 0;
    const Layout layout = random_layout(rng, closed);
    const auto network = Network<double>::join_ends(layout.tracks);
    INFO("trial " << trial << (closed ? ", an oval" : ", a line") << " of " << layout.tracks.size()
                  << " pieces");
    INFO((network ? std::string() : network.error().message));
    REQUIRE(network);
    ++layouts;
    std::size_t nodes = 0;
    for (const ModelPiece& p : layout.model)
      for (const std::size_t node : {p.from, p.to})
        if (node != none) nodes = std::max(nodes, node + 1);
    for (int k = 0; k < 8; ++k) {
      // Random settings: at each node and way with several candidates, maybe a chosen one.
      std::vector<std::array<std::size_t, 2>> choice(nodes, {none, none});
      SwitchSettings settings = network->default_settings();
      for (std::size_t node = 0; node < nodes; ++node)
        for (const int way : {0, 1}) {
          const std::vector<std::size_t> candidates = pieces_at(layout, node, way);
          if (candidates.size() < 2 || chance(rng) < 0.3) continue;
          ++switches;
          const std::size_t p =
              candidates[std::uniform_int_distribution<std::size_t>(0, candidates.size() - 1)(rng)];
          choice[node][std::size_t(way)] = p;
          // The piece end at that node: its start if it leaves the node along its storage.
          const bool start_here = (way == 1) != layout.model[p].reversed;
          REQUIRE_FALSE(settings.set({p, start_here ? End::start : End::end}));
        }
      const std::size_t piece =
          std::uniform_int_distribution<std::size_t>(0, layout.tracks.size() - 1)(rng);
      const Step start{piece, chance(rng) < 0.5 ? Direction::forward : Direction::backward};
      const double min_length = chance(rng) < 0.5 ? 400.0 : 1e9;
      const Walked expected = model_walk(layout, choice, start, min_length);
      const auto route = Route<double>::follow(*network, settings, start, min_length);
      INFO("walk " << k << " from " << to_string(start));
      INFO((route ? std::string() : route.error().message));
      ++walks;
      if (expected.refused) {
        // Trailing through a switch set against the train: an error naming the joint.
        REQUIRE_FALSE(route);
        CHECK(route.error().message.find("the switch is set to") != std::string::npos);
        ++refused;
        continue;
      }
      REQUIRE(route);
      closed_walks += expected.closed ? 1 : 0;
      CHECK(route->closed() == expected.closed);
      REQUIRE(route->size() == expected.steps.size());
      for (std::size_t i = 0; i < route->size(); ++i) {
        INFO("step " << i);
        CHECK(route->step(i) == expected.steps[i]);
      }
      // The train reversing: the route driven the other way is the model's steps turned, in
      // reverse order.
      const Route<double> back = route->reversed();
      for (std::size_t i = 0; i < back.size(); ++i)
        CHECK(back.step(i) == expected.steps[expected.steps.size() - 1 - i].turned());
    }
  }
  CHECK(layouts == trials);
  CHECK(closed_walks > trials / 8);  // loops were driven round, not only lines to their ends
  CHECK(switches > 5 * trials / 3);
  CHECK(walks == 8 * trials);
  CHECK(refused > trials / 6);  // and trailing against a switch was tried
}
