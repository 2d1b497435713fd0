# Warning flags for tractrix's own programs (tests, examples, benchmarks); never for consumers.
function(tractrix_set_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion)
    # GCC 12's -Wmaybe-uninitialized misfires inside libstdc++ (std::function in Catch2) once
    # -fsanitize changes inlining; it is a known false positive, so only sanitizer builds drop it.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_DEBUG}" MATCHES "-fsanitize")
      target_compile_options(${target} PRIVATE -Wno-maybe-uninitialized)
    endif()
    if(TRACTRIX_WARNINGS_AS_ERRORS)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  elseif(MSVC)
    target_compile_options(${target} PRIVATE /W4 $<$<BOOL:${TRACTRIX_WARNINGS_AS_ERRORS}>:/WX>)
  endif()
endfunction()
