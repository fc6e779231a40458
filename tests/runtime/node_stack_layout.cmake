# cmake -DCC=<c compiler> -DINCLUDE=<runtime/include> -DSOURCE=<file.c> -DLIB=<library>
#       -DRIGHT=<definition or empty> -DWRONG=<definition or empty> -DWORK=<dir>
#       [-DFLAGS=<flags>] -P node_stack_layout.cmake
# LIB was built with or without the node path's stacks, which change the
# thread cache's layout (heaplint/detail/tcache.h): SOURCE, which uses the
# thread cache, links with LIB when compiled with RIGHT (the definition the
# library's users get), and must not link with WRONG (the other layout's).
separate_arguments(flags UNIX_COMMAND "${FLAGS}")
file(MAKE_DIRECTORY ${WORK})
function(build result definition)
  set(defs)
  if(definition)
    set(defs -D${definition})
  endif()
  execute_process(COMMAND ${CC} -std=c11 ${flags} -I${INCLUDE} ${defs} ${SOURCE} ${LIB} -pthread
                          -o ${WORK}/layout
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${result}_rc ${rc} PARENT_SCOPE)
  set(${result}_err "${out}${err}" PARENT_SCOPE)
endfunction()
build(right "${RIGHT}")
if(NOT right_rc EQUAL 0)
  message(FATAL_ERROR "with '${RIGHT}', the library's layout, ${SOURCE} must link:\n${right_err}")
endif()
build(wrong "${WRONG}")
if(wrong_rc EQUAL 0)
  message(FATAL_ERROR "with '${WRONG}', the other layout, ${SOURCE} linked, but must not")
endif()
if(NOT wrong_err MATCHES "hl_tcache_tls")
  message(FATAL_ERROR "the link failed, but not on the thread cache:\n${wrong_err}")
endif()
message(STATUS "the other layout does not link, as expected")
