# Consumer tests: tractrix used the ways a project uses it — find_package after an install into a
# temporary prefix, and add_subdirectory — each configured, built and run by ctest.
set(tractrix_consumer_prefix "${CMAKE_CURRENT_BINARY_DIR}/consumer-prefix")
set(tractrix_consumer_options -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER} -DCMAKE_BUILD_TYPE=Release)

add_test(NAME consumer.install
  COMMAND ${CMAKE_COMMAND} --install ${PROJECT_BINARY_DIR} --prefix ${tractrix_consumer_prefix})
set_tests_properties(consumer.install PROPERTIES FIXTURES_SETUP tractrix_installed)

add_test(NAME consumer.find_package
  COMMAND ${CMAKE_CTEST_COMMAND} --build-and-test
    ${CMAKE_CURRENT_SOURCE_DIR}/consumer/find_package
    ${CMAKE_CURRENT_BINARY_DIR}/consumer-find-package
    --build-generator ${CMAKE_GENERATOR}
    --build-options ${tractrix_consumer_options} -DCMAKE_PREFIX_PATH=${tractrix_consumer_prefix}
    --test-command consumer)
set_tests_properties(consumer.find_package PROPERTIES FIXTURES_REQUIRED tractrix_installed)

add_test(NAME consumer.add_subdirectory
  COMMAND ${CMAKE_CTEST_COMMAND} --build-and-test
    ${CMAKE_CURRENT_SOURCE_DIR}/consumer/add_subdirectory
    ${CMAKE_CURRENT_BINARY_DIR}/consumer-add-subdirectory
    --build-generator ${CMAKE_GENERATOR}
    --build-options ${tractrix_consumer_options} -DTRACTRIX_SOURCE_DIR=${PROJECT_SOURCE_DIR}
    --test-command consumer)

# Engines' flags (see engine_flags/CMakeLists.txt), as errors, with example 08 in float.
add_test(NAME consumer.engine_flags
  COMMAND ${CMAKE_CTEST_COMMAND} --build-and-test
    ${CMAKE_CURRENT_SOURCE_DIR}/consumer/engine_flags
    ${CMAKE_CURRENT_BINARY_DIR}/consumer-engine-flags
    --build-generator ${CMAKE_GENERATOR}
    --build-options ${tractrix_consumer_options} -DTRACTRIX_SOURCE_DIR=${PROJECT_SOURCE_DIR}
    --test-command consumer)
set_tests_properties(consumer.engine_flags PROPERTIES PASS_REGULAR_EXPRESSION "travelled 14400.00 units")

# FetchContent, cloning this repository's committed HEAD, as the README shows.
find_package(Git QUIET)
if(GIT_FOUND AND EXISTS ${PROJECT_SOURCE_DIR}/.git)
  add_test(NAME consumer.fetch_content
    COMMAND ${CMAKE_CTEST_COMMAND} --build-and-test
      ${CMAKE_CURRENT_SOURCE_DIR}/consumer/fetch_content
      ${CMAKE_CURRENT_BINARY_DIR}/consumer-fetch-content
      --build-generator ${CMAKE_GENERATOR}
      --build-options ${tractrix_consumer_options} -DTRACTRIX_SOURCE_DIR=${PROJECT_SOURCE_DIR}
      --test-command consumer)
endif()

# pkg-config against the same temporary install.
find_program(TRACTRIX_PKG_CONFIG pkg-config)
if(TRACTRIX_PKG_CONFIG)
  add_test(NAME consumer.pkg_config
    COMMAND ${CMAKE_COMMAND} -DPREFIX=${tractrix_consumer_prefix} -DCXX=${CMAKE_CXX_COMPILER}
            -DSOURCE=${CMAKE_CURRENT_SOURCE_DIR}/consumer/consumer.cpp
            -DOUT=${CMAKE_CURRENT_BINARY_DIR}/pkg_config_consumer
            -P ${CMAKE_CURRENT_SOURCE_DIR}/consumer/pkg_config.cmake)
  set_tests_properties(consumer.pkg_config PROPERTIES FIXTURES_REQUIRED tractrix_installed)
endif()

# The README's usage example, cut out of README.md at configure time, must compile and run.
set(tractrix_readme "${PROJECT_SOURCE_DIR}/README.md")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${tractrix_readme}")
file(READ "${tractrix_readme}" tractrix_readme_text)
string(REGEX MATCH "<!-- usage-example -->[\r\n]+```cpp[\r\n]+(.*)```[\r\n]+<!-- /usage-example -->"
       tractrix_readme_match "${tractrix_readme_text}")
if(NOT tractrix_readme_match)
  message(FATAL_ERROR "README.md has no usage example between <!-- usage-example --> markers")
endif()
file(GENERATE OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/readme_example.cpp" CONTENT "${CMAKE_MATCH_1}")
add_executable(readme_example "${CMAKE_CURRENT_BINARY_DIR}/readme_example.cpp")
target_link_libraries(readme_example PRIVATE tractrix::tractrix)
tractrix_set_warnings(readme_example)
add_test(NAME readme.usage_example COMMAND readme_example)

# A newcomer without Eigen or Catch2 is told which package to install, not CMake's generic text.
foreach(missing Eigen3 Catch2)
  add_test(NAME consumer.missing_${missing}
    COMMAND ${CMAKE_COMMAND} -S ${PROJECT_SOURCE_DIR} -B ${CMAKE_CURRENT_BINARY_DIR}/missing-${missing}
            -DCMAKE_DISABLE_FIND_PACKAGE_${missing}=ON -DTRACTRIX_BUILD_BENCHMARKS=OFF
            -DTRACTRIX_BUILD_TESTS=ON)
endforeach()
# The README's install command on a machine without Catch2: configure a plain clone, install.
add_test(NAME consumer.install_without_Catch2
  COMMAND ${CMAKE_COMMAND} -DSOURCE=${PROJECT_SOURCE_DIR}
          -DBUILD=${CMAKE_CURRENT_BINARY_DIR}/install-without-catch2
          -P ${CMAKE_CURRENT_SOURCE_DIR}/consumer/install_without_catch2.cmake)
set_tests_properties(consumer.missing_Eigen3 PROPERTIES
  PASS_REGULAR_EXPRESSION "tractrix needs Eigen 3.4 or newer.*apt-get install libeigen3-dev")
set_tests_properties(consumer.missing_Catch2 PROPERTIES
  PASS_REGULAR_EXPRESSION "tests need Catch2.*apt-get install catch2")

add_test(NAME consumer.one_version
  COMMAND ${CMAKE_COMMAND} -DSOURCE=${PROJECT_SOURCE_DIR} -DVERSION=${PROJECT_VERSION}
          -P ${CMAKE_CURRENT_SOURCE_DIR}/consumer/one_version.cmake)
