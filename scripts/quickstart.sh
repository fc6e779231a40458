#!/bin/sh
# The README's two quick-start commands, on a fresh Debian 12 machine:
#   scripts/quickstart.sh example   install what the analyzer needs, build it (no
#                                   tests), analyze examples/, show --fix on a copy
#   scripts/quickstart.sh test      install what the tests need too, build, run every test
#   scripts/quickstart.sh sanitize  after 'test': the analyzer's lit suites again, under
#                                   ASan and UBSan (not in CI: see below)
# Build trees go to build/ (build-asan/ for the analyzer under the sanitizers,
# build-san/ for the runtime's sanitizer run).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
jobs=$(nproc 2>/dev/null || echo 2)

# Debian packages the example needs: a C and C++ compiler (libstdc++'s
# headers are what the example is analyzed against), CMake, libclang 19 and
# the libraries the analyzer reads its inputs with; and LLVM's and clang's
# C++ libraries (llvm-19-dev, libclang-cpp19-dev), which build
# engine/inst/instances: template instantiations read from clang's AST (without
# them the analyzer builds all the same, and some stores inside templates
# stay "not decided"). Nothing else.
example_packages="cmake make gcc g++ pkg-config libclang-19-dev libyaml-dev libjansson-dev libpcre2-dev libsqlite3-dev
  llvm-19-dev libclang-cpp19-dev"

# And what the tests need besides. libclang-14 (Debian 12's default) is
# built against too, to keep the CINDEX_VERSION guards honest. bazel-bootstrap
# (Bazel 4.2.3 and a JDK) runs integrations/bazel's aspect (tests/bazel).
# groff, man and mandoc check the man page (tests/cli/manpage.test), zsh
# its completion (tests/cli/completion.test); dpkg-dev (dpkg-shlibdeps) and
# file the Debian package cpack makes (tests/package).
test_packages="$example_packages python3
  clang-19 llvm-19-tools clang-tools-19 clang-tidy-19 clang-format-19 libc++-19-dev libc++abi-19-dev libclang-rt-19-dev
  libclang-14-dev
  libcmocka-dev libboost-dev libdw-dev
  python3-jsonschema vim neovim nodejs strace
  g++-multilib qemu-user
  bazel-bootstrap
  groff-base man-db mandoc zsh
  dpkg-dev file"

# Elapsed time per stage, on stderr: what CI's log shows of where its time goes,
# and again all together when the script ends, passing or not (a log shown
# from its end then has them).
started=$(date +%s)
stamps=""
stamp() {
  line="quickstart: $1 done at $(( $(date +%s) - started )) s"
  stamps="$stamps$line
"
  echo "$line" >&2
}
stamps_at_exit() {
  status=$?
  [ -n "$stamps" ] && printf 'quickstart: the stages (exit %s after %s s):\n%s' "$status" "$(( $(date +%s) - started ))" "$stamps" >&2
  exit "$status"
}

install_missing() {
  missing=""
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
  done
  [ -z "$missing" ] && return 0
  echo "quickstart: installing:$missing" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends $missing
}

# Microsoft's SARIF validator for tests/ci/sarif-validator.test: npm's
# @microsoft/sarif-multitool, a self-contained .NET program, into build/npm.
# npm comes with nodesource's nodejs; Debian's nodejs needs its npm package.
install_sarif_validator() {
  if ! command -v npm >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends npm
  fi
  tool="$top/build/npm/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
  mkdir -p "$top/build/npm"
  [ -x "$tool" ] || npm install --no-audit --no-fund --prefix "$top/build/npm" @microsoft/sarif-multitool@5.7.0 >&2
  export HEAPLINT_SARIF_MULTITOOL="$tool"
}

case "${1:-}" in
  example)
    install_missing $example_packages
    # The analyzer, its profiles and the runtime its fixes point to (what
    # 'cmake --install' installs); not the test suite, nor the benchmarks.
    cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHEAPLINT_BUILD_TESTS=OFF >/dev/null
    cmake --build build -j "$jobs" --target heaplint heaplint_runtime heaplint_runtime_debug
    # examples/ is a small CMake project; its compile database is what
    # heaplint reads, exactly as in a user's CI.
    cmake -S examples -B build/examples -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
    status=0
    build/bin/heaplint -p build/examples || status=$?
    # The run above has no fix-its: examples/ does not use heaplint's
    # runtime, and a fix that includes it would not compile (its notes say
    # how to add it). So --fix runs on a copy (the checkout stays as it is)
    # built with the runtime, as a user's project would add it: its headers
    # on the include path, its library linked. Over the whole database: what
    # it rewrites, the APIs (an alias, a header's member) for every call
    # site. The fixed copy then builds and runs.
    rm -rf build/examples-fixed
    cp -r examples build/examples-fixed
    cmake -S build/examples-fixed -B build/examples-fixed/build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
      "-DCMAKE_CXX_FLAGS=-I$top/runtime/include" \
      "-DCMAKE_CXX_STANDARD_LIBRARIES=$top/build/runtime/libheaplint_runtime.a -pthread" >/dev/null
    echo
    echo "heaplint --fix rewrites these (on a copy in build/examples-fixed, with heaplint's runtime):"
    build/bin/heaplint -p build/examples-fixed/build --fix --quiet >/dev/null || true
    diff -ru --exclude=build examples build/examples-fixed || true
    cmake --build build/examples-fixed/build -j "$jobs" >/dev/null
    echo
    echo "The fixed copy builds and runs:"
    build/examples-fixed/build/pulse-demo | tail -n 1
    echo
    echo "To run heaplint from anywhere, install it (the analyzer, its profiles, the runtime's headers):"
    echo "  cmake --install build --prefix \"\$HOME/.local\"   # then: export PATH=\"\$HOME/.local/bin:\$PATH\""
    echo "  heaplint -p <your build dir>"
    exit "$status"
    ;;
  test)
    trap stamps_at_exit EXIT
    install_missing $test_packages
    # npm first: the SARIF validator, and the VS Code extension's package
    # test (lsp.vscode-package: npm install from the registry, then
    # @vscode/vsce; its node_modules stay in build/tests/vscode-package).
    install_sarif_validator
    stamp "packages"
    vscode_package=OFF
    command -v npm >/dev/null 2>&1 && vscode_package=ON
    cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHEAPLINT_BUILD_TESTS=ON \
      -DHEAPLINT_TEST_VSCODE_PACKAGE=$vscode_package
    cmake --build build -j "$jobs"
    stamp "build"
    (cd build && ctest --output-on-failure -j "$jobs")
    stamp "ctest"
    # The runtime again under AddressSanitizer and UndefinedBehaviorSanitizer.
    cmake -S . -B build-san -DHEAPLINT_BUILD_ANALYZER=OFF -DHEAPLINT_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
    cmake --build build-san -j "$jobs"
    # Not the compile_fail tests: a program the runtime must reject fails to
    # compile the same way under the sanitizers (the plain pass ran them).
    (cd build-san && ctest --output-on-failure -j "$jobs" -E '^runtime[.]compile_fail[.]')
    stamp "runtime under the sanitizers"
    # The analyzer must still build against Debian 12's default libclang.
    cmake -S . -B build-clang14 -DHEAPLINT_LLVM_VERSION=14 -DHEAPLINT_BUILD_TESTS=OFF >/dev/null
    cmake --build build-clang14 -j "$jobs" --target heaplint
    stamp "build against libclang 14"
    ;;
  sanitize)
    # The analyzer itself under AddressSanitizer and UndefinedBehaviorSanitizer
    # (libclang, not instrumented, runs as it is), over the lit suites that
    # drive heaplint's own code through its inputs (ctest's lit.* tests,
    # HEAPLINT_LIT_SUITES in tests/CMakeLists.txt): the same site
    # configuration with this heaplint and its own output folder; after
    # 'test' (it reads build/). Not part of 'test', which CI runs: a
    # sanitized heaplint runs 2 to 3 times as long as the plain one, and this
    # pass alone took 22 minutes of a 56-minute CI run (11 with the suites
    # trimmed to cli, fixes, instances and the smaller rules', still over
    # CI's 30 minutes with the rest). In CI the sanitizers run over the
    # input loaders (the fuzz harnesses) and the runtime. The corpus suites
    # (groundtruth, fixcorpus, calibrate) are left out here too: their time
    # is the compilers' and the measured programs'. What the suites run
    # besides heaplint stays build/'s, uninstrumented: the compilers and the
    # runtime the fix tests link (an instrumented one would not link into
    # their uninstrumented programs).
    trap stamps_at_exit EXIT
    [ -f build/tests/lit.site.cfg.py ] || { echo "quickstart: run 'scripts/quickstart.sh test' first (sanitize reads build/)" >&2; exit 1; }
    cmake -S . -B build-asan -DHEAPLINT_SANITIZE=ON -DHEAPLINT_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo
    cmake --build build-asan -j "$jobs" --target heaplint
    sed -e "s|^config.heaplint = .*|config.heaplint = \"$top/build-asan/bin/heaplint\"|" \
        -e "s|^config.heaplint_obj_root = .*|config.heaplint_obj_root = \"$top/build-asan\"|" \
        build/tests/lit.site.cfg.py > build-asan/lit.site.cfg.py
    lit=$(sed -n 's/^HEAPLINT_LIT:FILEPATH=//p' build/CMakeCache.txt)
    suites=$(cd build && ctest -N -R '^lit[.]' | sed -n 's/^ *Test *#[0-9]*: lit[.]//p')
    [ -n "$suites" ] || { echo "quickstart: build/ has no lit.* tests (HEAPLINT_LIT_SUITES)" >&2; exit 1; }
    corpus=" groundtruth fixcorpus calibrate "
    # shellcheck disable=SC2046 # one argument per suite
    python3 "$lit" -s -j "$jobs" --param heaplint_site_config="$top/build-asan/lit.site.cfg.py" \
      $(for s in $suites; do case "$corpus" in *" $s "*) ;; *) echo "tests/$s" ;; esac; done)
    stamp "analyzer under the sanitizers"
    ;;
  *)
    echo "usage: scripts/quickstart.sh example|test|sanitize" >&2
    exit 2
    ;;
esac
