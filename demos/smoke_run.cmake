# The demos' smoke tests: run(code text args...) runs ${DEMO} with args and checks its exit code
# and that its output matches the regex `text`.
function(run expect_code expect_text)
  get_filename_component(name ${DEMO} NAME_WE)
  execute_process(COMMAND ${DEMO} ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL expect_code)
    message(FATAL_ERROR "${name} ${ARGN}: exit ${code}, expected ${expect_code}\n${out}${err}")
  endif()
  if(NOT "${out}${err}" MATCHES "${expect_text}")
    message(FATAL_ERROR "${name} ${ARGN}: output lacks '${expect_text}':\n${out}${err}")
  endif()
endfunction()
