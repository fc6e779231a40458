# cmake -DCXX=<compiler> -DFLAGS=<flags;...> -DSOURCE=<file> -DEXPECT=<regex;...> -P compile_fail.cmake
# Passes when SOURCE fails to compile with a diagnostic matching every EXPECT
# regex, and compiles when HL_CONTROL is defined (so that the failure comes
# from the static_assert under test, not from a broken test file).
execute_process(COMMAND ${CXX} ${FLAGS} -fsyntax-only ${SOURCE}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled, but must not")
endif()
foreach(re IN LISTS EXPECT)
  if(NOT err MATCHES "${re}")
    message(FATAL_ERROR "diagnostic lacks /${re}/:\n${err}")
  endif()
endforeach()
execute_process(COMMAND ${CXX} ${FLAGS} -DHL_CONTROL -fsyntax-only ${SOURCE}
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${SOURCE} with HL_CONTROL must compile:\n${err}")
endif()
message(STATUS "rejected as expected")
