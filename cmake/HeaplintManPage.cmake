# heaplint.1 from the --help texts of the heaplint just built and of its
# subcommands, through analyzer/man/help2roff.c: the man page says what
# --help says, whatever was edited (run at build time, after each link).
#
#   cmake -DHEAPLINT=<heaplint> -DHELP2ROFF=<help2roff> -DOUTPUT=<heaplint.1>
#         -DWORK_DIR=<dir for the texts> -DVERSION=<v> -DDESCRIPTION=<line>
#         -DDOCDIR=<dir> -P HeaplintManPage.cmake
# The page's date is today's, or SOURCE_DATE_EPOCH's (reproducible builds).
foreach(var HEAPLINT HELP2ROFF OUTPUT WORK_DIR VERSION DESCRIPTION DOCDIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "HeaplintManPage.cmake: ${var} is not set")
  endif()
endforeach()

get_filename_component(dir "${OUTPUT}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}" "${WORK_DIR}")
set(texts)
foreach(sub "" lsp calibrate merge-sarif merge-index)
  set(name "${sub}")
  if(name STREQUAL "")
    set(name heaplint)
  endif()
  set(text "${WORK_DIR}/${name}.help.txt")
  execute_process(COMMAND "${HEAPLINT}" ${sub} --help OUTPUT_FILE "${text}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "HeaplintManPage.cmake: '${HEAPLINT} ${sub} --help' failed: ${rc}")
  endif()
  if(sub STREQUAL "")
    list(APPEND texts "${text}")
  else()
    list(APPEND texts "${sub}=${text}")
  endif()
endforeach()

string(TIMESTAMP date "%Y-%m-%d" UTC)
execute_process(COMMAND "${HELP2ROFF}" -o "${OUTPUT}.tmp" "--version=${VERSION}" "--date=${date}" "--description=${DESCRIPTION}"
                        "--docdir=${DOCDIR}" ${texts}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "HeaplintManPage.cmake: help2roff failed")
endif()
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
