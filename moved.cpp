#include <cstdio>
#include <utility>
#include "tractrix/tractrix.hpp"
using namespace tractrix; using S = double; using V2 = Vector2<S>;
int main() {
  const Bezier<S, 2, 3> cusp{{V2(0, 0), V2(1, 1), V2(0, 1), V2(1, 0)}};
  auto a = *ArcLengthTable<S>::build(*Path<S, 2>::from_segments({cusp}, Closure::open), ArcLengthSettings{1});
  const auto lk = a.lookup();
  const ArcLengthTable<S> b = std::move(a);  // b lives; its arrays are the ones lk points at
  std::size_t c1 = 0, c2 = 0; const S s = S(0.3) * b.length();
  std::printf("table %.17g\n", b.parameter_at(s, c1));
  std::printf("lookup %.17g\n", lk.parameter_at(s, c2));
}
