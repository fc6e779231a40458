# `cpack -G DEB` in the build tree: a Debian package of what `cmake --install`
# installs (heaplint, its profiles, docs, man page and shell completions, the
# runtime's libraries, headers, CMake package and pkg-config files), with the
# binaries stripped. The package has the install's own layout and prefix
# (CMAKE_INSTALL_PREFIX: configure with -DCMAKE_INSTALL_PREFIX=/usr for a
# system package), so the paths heaplint and heaplint.1 were built with are
# the ones it installs to. A release package is made from a Release tree
# (docs/cli.md, "Installing"); its dependencies are what dpkg-shlibdeps
# (dpkg-dev) finds the binary linked against, or without it the Debian
# packages of the libraries heaplint links.
set(CPACK_PACKAGE_NAME heaplint)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION
    "heaplint finds the heap allocations C++ hides (callables and values that std::function and std::any "
    "cannot keep inline, node containers, strings past their small buffer) on the standard library each unit is "
    "compiled for, and points at replacements from its runtime library that do not allocate.")
string(JOIN "" CPACK_PACKAGE_DESCRIPTION ${CPACK_PACKAGE_DESCRIPTION})
set(HEAPLINT_PACKAGE_MAINTAINER "heaplint maintainers <heaplint@invalid>" CACHE STRING
    "The Maintainer field of the Debian package (cpack -G DEB)")
set(CPACK_PACKAGE_CONTACT "${HEAPLINT_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX "${CMAKE_INSTALL_PREFIX}")
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_CHECKSUM SHA256)

find_program(HEAPLINT_DPKG_DEB dpkg-deb)
if(HEAPLINT_DPKG_DEB)
  set(CPACK_GENERATOR DEB)
else()
  set(CPACK_GENERATOR TGZ)
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "${PROJECT_DESCRIPTION}\n${CPACK_PACKAGE_DESCRIPTION}")
find_program(HEAPLINT_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(HEAPLINT_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  # heaplint finds libclang through its RUNPATH (the LLVM's lib/).
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS "${HEAPLINT_LLVM_ROOT}/lib")
elseif(HEAPLINT_BUILD_ANALYZER)
  string(REGEX MATCH "[0-9]+$" _hl_v "${HEAPLINT_LLVM_ROOT}")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libclang1-${_hl_v}, libyaml-0-2, libjansson4, libpcre2-8-0, libsqlite3-0")
  if(HEAPLINT_LIBCLANG_CPP)
    string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libclang-cpp${_hl_v}, libllvm${_hl_v}")
  endif()
endif()
include(CPack)
