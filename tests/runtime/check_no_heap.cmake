# cmake -DNM=<nm> -DLIB=<archive> -P check_no_heap.cmake
# Fails when the no-heap runtime library references any system allocation
# function: the build that promises never to touch the heap must not be able to.
execute_process(COMMAND ${NM} -u ${LIB} OUTPUT_VARIABLE undefined RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} -u ${LIB} failed")
endif()
set(heap_functions malloc calloc realloc free posix_memalign aligned_alloc memalign valloc
    pvalloc reallocarray strdup strndup wcsdup asprintf vasprintf getline getdelim open_memstream
    tempnam realpath _Znwm _Znam _ZdlPv _ZdaPv _ZnwmSt11align_val_t _ZnamSt11align_val_t)
set(found "")
foreach(fn IN LISTS heap_functions)
  if(undefined MATCHES "(^|\n)[ \t]*U ${fn}(@[^\n]*)?\n")
    list(APPEND found ${fn})
  endif()
endforeach()
if(found)
  message(FATAL_ERROR "the no-heap runtime references: ${found}")
endif()
message(STATUS "no heap functions referenced by ${LIB}")
