# Turns a text file into a C string at build time, so that heaplint carries
# the C++ of its calibration probes (analyzer/calibrate/probes/*.hpp) and
# its rules' pages (docs/rules/*.md) inside its binary: one source of
# truth, no copy to keep in step, nothing to install beside it.
#
#   cmake -DNAME=<C identifier> -DINPUT=<file> -DOUTPUT=<file.c> -P HeaplintEmbed.cmake
#
# The bytes are written as hex, so no character of the input needs escaping.
foreach(var NAME INPUT OUTPUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "HeaplintEmbed.cmake: ${var} is not set")
  endif()
endforeach()
file(READ "${INPUT}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
# Sixteen bytes to a line, for a readable generated file.
string(REGEX REPLACE "((0x..,){16})" "\\1\n  " bytes "${bytes}")
get_filename_component(input_name "${INPUT}" NAME)
file(WRITE "${OUTPUT}.tmp"
  "/* Generated from ${input_name} by cmake/HeaplintEmbed.cmake; do not edit. */\n"
  "extern const char ${NAME}[];\n"
  "const char ${NAME}[] = {\n  ${bytes}0x00};\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
