# cmake -DBUILD=<heaplint build dir> -DWORK=<scratch dir> -DSOURCE=<tests/runtime>
#       -DCC=<c compiler> -DGENERATOR=<generator> [-DFLAGS=<flags>] -P install_consumer.cmake
# FLAGS go to every compile and link (the sanitizer build's -fsanitize=...).
# Installs the runtime component into a fresh prefix, then builds and runs a
# CMake project that uses find_package(heaplint), and a C program built with
# pkg-config's flags: what a user of the installed runtime does.
file(REMOVE_RECURSE ${WORK})
set(prefix ${WORK}/prefix)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "failed (${rc}): ${cmd}\n${out}\n${err}")
  endif()
  set(run_out "${out}" PARENT_SCOPE)
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD} --component runtime --prefix ${prefix})

run(${CMAKE_COMMAND} -S ${SOURCE}/consumer -B ${WORK}/consumer -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release
    "-DCMAKE_C_FLAGS=${FLAGS}" "-DCMAKE_CXX_FLAGS=${FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${FLAGS}")
run(${CMAKE_COMMAND} --build ${WORK}/consumer)
run(${WORK}/consumer/consumer)
run(${WORK}/consumer/consumer_debug)

file(GLOB_RECURSE pc_files ${prefix}/*/heaplint-runtime.pc)
list(GET pc_files 0 pc)
get_filename_component(pc_dir ${pc} DIRECTORY)
set(ENV{PKG_CONFIG_PATH} ${pc_dir})
run(pkg-config --cflags heaplint-runtime)
string(STRIP "${run_out}" cflags)
run(pkg-config --libs --static heaplint-runtime)
string(STRIP "${run_out}" libs)
separate_arguments(cflags UNIX_COMMAND "${cflags}")
separate_arguments(libs UNIX_COMMAND "${libs}")
separate_arguments(flags UNIX_COMMAND "${FLAGS}")
run(${CC} -std=c11 ${flags} ${cflags} ${SOURCE}/consumer/main.c ${libs} -o ${WORK}/c_consumer)
run(${WORK}/c_consumer)
message(STATUS "installed runtime consumed through find_package and pkg-config")
