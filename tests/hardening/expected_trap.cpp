// Reads the value of an Expected that holds an error: built with NDEBUG, this must still stop the
// program with the error's message (expected_trap.cmake checks the exit and the text).
#include <cstdio>

#include "tractrix/core/expected.hpp"

int main() {
  const tractrix::Expected<int> failed =
      tractrix::make_error(tractrix::ErrorCode::too_few_points, "path: 1 key point, need 2");
  std::printf("%d\n", *failed);
  return 0;
}
