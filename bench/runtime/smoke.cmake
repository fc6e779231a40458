# ctest bench.runtime-smoke: runs bench/runtime/run.sh --smoke over the
# benchmarks of this build (BINDIR) and checks that it succeeds and prints
# every table with a row of figures, so that the benchmarks never rot. No
# figure is compared: a smoke run's counts are too small to mean anything.
#   cmake -DRUN=.../run.sh -DBINDIR=... -P smoke.cmake
execute_process(COMMAND sh ${RUN} --smoke -x ${BINDIR}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "run.sh --smoke failed (${rc}):\n${err}\n${out}")
endif()
message("${out}")
# Each table: its heading, then (after the header and the separator) a row
# that starts with a figure or a name and holds a number.
set(latency)
if(EXISTS ${BINDIR}/hl_bench_latency)
  set(latency "### Latency per call")
endif()
foreach(heading ${latency}
    "#### fill, 1 thread" "#### churn, 1 thread" "#### fill, 2 threads" "#### churn, 2 threads"
    "### Allocate/free pairs" "### Callables at -O2" "### Callables at -O0" "### Frees from another thread")
  string(FIND "${out}" "${heading}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "run.sh --smoke printed no table \"${heading}\"")
  endif()
  string(SUBSTRING "${out}" ${at} -1 rest)
  if(NOT rest MATCHES "\n\\|[-:|]+\\|\n\\| [^\n]*[0-9][.][0-9]")
    message(FATAL_ERROR "the table \"${heading}\" has no row of figures")
  endif()
endforeach()
if(out MATCHES "[| ](nan|inf|-nan)[ x|]")
  message(FATAL_ERROR "run.sh --smoke printed a figure that is not a number")
endif()
