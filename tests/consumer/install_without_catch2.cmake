# Configures a top-level tractrix with Catch2 hidden, as on a machine without it, and installs:
# the README's install command must need no test framework. Run with -DSOURCE= -DBUILD=.
file(REMOVE_RECURSE ${BUILD})
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${BUILD}/build
                        -DCMAKE_DISABLE_FIND_PACKAGE_Catch2=ON
                RESULT_VARIABLE configured OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT configured EQUAL 0)
  message(FATAL_ERROR "configure without Catch2 failed:\n${out}\n${err}")
endif()
if(NOT err MATCHES "The tests are skipped")
  message(FATAL_ERROR "configure without Catch2 did not say the tests are skipped:\n${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD}/build --prefix ${BUILD}/prefix
                RESULT_VARIABLE installed OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT installed EQUAL 0 OR NOT EXISTS ${BUILD}/prefix/include/tractrix/tractrix.hpp)
  message(FATAL_ERROR "install without Catch2 failed:\n${out}\n${err}")
endif()
