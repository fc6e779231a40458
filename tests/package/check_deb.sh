#!/bin/sh
# cpack -G DEB over the build tree (ctest 'package.deb'): the package
# heaplint's CPack configuration (cmake/HeaplintPackage.cmake) makes has
# its name, version and dependencies, holds the stripped binary (no debug
# sections), the man page, both shell completions, the runtime's headers,
# libraries, CMake package and pkg-config files, the profiles and docs; and
# the binary, unpacked, analyzes a file with the profiles beside it.
# Packages the tree as it is built (a RelWithDebInfo tree in CI: stripped
# all the same; a release package comes from a Release tree, docs/cli.md).
#   check_deb.sh <build dir> <work dir> <version>
# Exits 77 (skipped) without dpkg-deb.
set -eu
build=$1 work=$2 version=$3
command -v dpkg-deb >/dev/null 2>&1 || { echo "check_deb: dpkg-deb not found: skipped" >&2; exit 77; }
fail() { echo "check_deb: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/out" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log" >&2; fail "cpack failed"; }
deb=$(ls "$work"/out/heaplint_*.deb)
[ "$(echo "$deb" | wc -l)" -eq 1 ] || fail "not one package: $deb"

dpkg-deb -f "$deb" Package Version Architecture Depends >"$work/fields"
grep -qx "Package: heaplint" "$work/fields" || fail "Package is not heaplint: $(cat "$work/fields")"
grep -qx "Version: $version" "$work/fields" || fail "Version is not $version: $(cat "$work/fields")"
for lib in libclang1- libyaml-0-2 libjansson4 libpcre2-8-0 libsqlite3-0; do
  grep "^Depends:" "$work/fields" | grep -q "$lib" || fail "Depends names no $lib: $(cat "$work/fields")"
done

dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|^\./||' >"$work/contents"
bin=$(grep '/bin/heaplint$' "$work/contents") || fail "no bin/heaplint in the package"
prefix=${bin%/bin/heaplint}
for f in share/man/man1/heaplint.1 share/bash-completion/completions/heaplint share/zsh/site-functions/_heaplint \
  include/heaplint/pool.h include/heaplint/inplace_function.hpp share/heaplint/profiles/libstdc++-64.yaml \
  share/doc/heaplint/cli.md share/doc/heaplint/rules/function-sbo.md; do
  grep -qx "$prefix/$f" "$work/contents" || fail "no $prefix/$f in the package"
done
grep -q "^$prefix/lib.*/libheaplint_runtime\.a$" "$work/contents" || fail "no runtime library in the package"
grep -q "^$prefix/lib.*/pkgconfig/heaplint-runtime\.pc$" "$work/contents" || fail "no pkg-config file in the package"
grep -q "^$prefix/lib.*/cmake/heaplint/heaplintConfig\.cmake$" "$work/contents" || fail "no CMake package in the package"

dpkg-deb -x "$deb" "$work/root"
exe="$work/root/$bin"
file "$exe" | grep -q ", stripped" || fail "the binary is not stripped: $(file "$exe")"
if readelf -S "$exe" | grep -q '\.debug_'; then fail "the binary has debug sections"; fi
printf '#include <functional>\nstruct Big { long a[8]; void operator()() const {} };\nstd::function<void()> f = Big{};\n' \
  >"$work/t.cpp"
"$exe" --checks=-*,function-sbo "$work/t.cpp" -- -std=c++17 >"$work/run.out" 2>&1 || true
grep -q "warning: .*\[function-sbo\]" "$work/run.out" || { cat "$work/run.out" >&2; fail "the unpacked heaplint found nothing"; }
echo "check_deb: $(basename "$deb"): $(wc -l <"$work/contents") entries, $(dpkg-deb -f "$deb" Depends)"
