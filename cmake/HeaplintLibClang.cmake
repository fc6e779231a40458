# Finds libclang's C API (Debian's libclang-N-dev) for the analyzer.
#
#   HEAPLINT_LLVM_VERSION   major version to use (default: newest of 19..14)
#   HEAPLINT_LLVM_ROOT      or the LLVM prefix itself (/usr/lib/llvm-19)
#
# Sets HEAPLINT_LLVM_ROOT, HEAPLINT_LLVM_VERSION_FOUND and the imported
# target heaplint::libclang.

set(HEAPLINT_LLVM_VERSION "" CACHE STRING "LLVM major version whose libclang the analyzer uses (empty: newest installed, 19 down to 14)")
set(HEAPLINT_SUPPORTED_LLVM 19 18 17 16 15 14)

if(NOT HEAPLINT_LLVM_ROOT)
  if(HEAPLINT_LLVM_VERSION)
    set(_hl_candidates ${HEAPLINT_LLVM_VERSION})
  else()
    set(_hl_candidates ${HEAPLINT_SUPPORTED_LLVM})
  endif()
  foreach(v IN LISTS _hl_candidates)
    if(EXISTS "/usr/lib/llvm-${v}/include/clang-c/Index.h")
      set(HEAPLINT_LLVM_ROOT "/usr/lib/llvm-${v}")
      break()
    endif()
  endforeach()
endif()
if(NOT HEAPLINT_LLVM_ROOT OR NOT EXISTS "${HEAPLINT_LLVM_ROOT}/include/clang-c/Index.h")
  message(FATAL_ERROR "libclang headers not found (looked for LLVM ${HEAPLINT_LLVM_VERSION}${_hl_candidates}). "
                      "Install libclang-19-dev (scripts/quickstart.sh does), or pass -DHEAPLINT_LLVM_ROOT=<prefix>.")
endif()
set(HEAPLINT_LLVM_ROOT "${HEAPLINT_LLVM_ROOT}" CACHE PATH "LLVM prefix whose libclang the analyzer uses" FORCE)

find_library(HEAPLINT_LIBCLANG NAMES clang libclang HINTS "${HEAPLINT_LLVM_ROOT}/lib" NO_DEFAULT_PATH)
if(NOT HEAPLINT_LIBCLANG)
  message(FATAL_ERROR "libclang.so not found under ${HEAPLINT_LLVM_ROOT}/lib")
endif()

file(STRINGS "${HEAPLINT_LLVM_ROOT}/include/clang-c/Index.h" _hl_minor REGEX "^#define CINDEX_VERSION_MINOR [0-9]+")
string(REGEX REPLACE ".* ([0-9]+)$" "\\1" _hl_minor "${_hl_minor}")
string(REGEX MATCH "llvm-([0-9]+)" _hl_m "${HEAPLINT_LLVM_ROOT}")
set(HEAPLINT_LLVM_VERSION_FOUND "${CMAKE_MATCH_1}")
message(STATUS "heaplint: libclang from ${HEAPLINT_LLVM_ROOT} (LLVM ${HEAPLINT_LLVM_VERSION_FOUND}, CINDEX 0.${_hl_minor})")

add_library(heaplint::libclang UNKNOWN IMPORTED)
set_target_properties(heaplint::libclang PROPERTIES
  IMPORTED_LOCATION "${HEAPLINT_LIBCLANG}"
  INTERFACE_INCLUDE_DIRECTORIES "${HEAPLINT_LLVM_ROOT}/include")
