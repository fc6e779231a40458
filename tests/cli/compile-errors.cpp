// A translation unit with compile errors, as clang-tidy handles one: the
// errors are reported under clang-diagnostic-error (never filtered, never
// suppressed), what parsed is still analyzed, no site built on a broken
// part is judged, the run exits 3, and --fix applies nothing from it
// unless --fix-errors.
//
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/errors.cpp
// RUN: cd %t && (%heaplint -v errors.cpp -- -I%src_root/runtime/include %libstdcxx; echo "exit: $?") > %t/out 2> %t/err
// RUN: %FileCheck %s --check-prefix=CHECK --implicit-check-not=warning: --implicit-check-not=error: < %t/out
// RUN: %FileCheck %s --check-prefix=ERR --implicit-check-not=remark: < %t/err
#include <any>
#include <functional>

struct Big { Unknown u; long a, b, c; };
// CHECK: errors.cpp:[[@LINE-1]]:14: error: unknown type name 'Unknown' [clang-diagnostic-error]
struct Outer { Big big; long x, y, z; };

void f(long a, long b, long c) {
  // A lambda that lost a capture to the error (clang drops it): it would
  // look 24 bytes. Not judged.
  auto v = undeclared_fn();
  // CHECK: errors.cpp:[[@LINE-1]]:12: error: use of undeclared identifier 'undeclared_fn' [clang-diagnostic-error]
  std::function<void()> lost = [v, a, b, c] {};
  // An init-capture whose initializer does not compile. Not judged.
  std::function<void()> init = [a, b, c, q = nothing] {};
  // CHECK: errors.cpp:[[@LINE-1]]:46: error: use of undeclared identifier 'nothing' [clang-diagnostic-error]
  // A class clang marked invalid, and one that holds it: their sizes are
  // not theirs. Not judged.
  std::any big = Big{};
  std::function<void()> outer = [o = Outer{}] {};
  // An expression clang made dependent outside any template: not a
  // "template-dependent" site either.
  std::any dep = v;
  // What does compile is analyzed as usual.
  std::function<void()> fine = [a, b, c] {};
  // CHECK: errors.cpp:[[@LINE-1]]:32: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes [function-sbo]
  // A compile error cannot be suppressed.
  int i = "text"; // NOLINT
  // CHECK: errors.cpp:[[@LINE-1]]:7: error: cannot initialize a variable of type 'int' with an lvalue of type 'const char[5]' [clang-diagnostic-error]
}
// CHECK: exit: 3
// ERR: 1 warning and 4 errors in 1 file (libstdc++, x86_64); 1 fixable with --fix-errors; 1 file with compile errors

// Compile errors pass every filter: -line-filter, -checks, the header
// filter, and stay out of a baseline.
// RUN: cd %t && (%heaplint '-line-filter=[{"name":"errors.cpp","lines":[[1,1]]}]' -checks=-*,any-sbo --write-baseline=%t/base.json errors.cpp -- -I%src_root/runtime/include %libstdcxx; echo "exit: $?") > %t/filtered 2>&1
// RUN: %FileCheck %s --check-prefix=FILTERED --implicit-check-not=warning: < %t/filtered
// FILTERED: errors.cpp:14:14: error: unknown type name 'Unknown' [clang-diagnostic-error]
// FILTERED: 0 warnings and 4 errors in 1 file
// FILTERED: exit: 3
// RUN: %FileCheck %s --check-prefix=BASELINE < %t/base.json
// BASELINE: "findings": []

// --fix: nothing from this unit; --fix-errors: its fixes.
// RUN: cd %t && (%heaplint --fix errors.cpp -- -I%src_root/runtime/include %libstdcxx; echo "exit: $?") > %t/fix.out 2> %t/fix.err
// RUN: %FileCheck %s --check-prefix=NOFIX < %t/fix.err
// NOFIX: heaplint: note: errors.cpp: it has compile errors: no fix from it is applied (--fix-errors applies them)
// NOFIX: 1 warning and 4 errors in 1 file (libstdc++, x86_64); 0 fixed in 0 files; 1 file with compile errors
// RUN: diff %s %t/errors.cpp
// RUN: cd %t && (%heaplint --fix-errors errors.cpp -- -I%src_root/runtime/include %libstdcxx; echo "exit: $?") > %t/fixerr.out 2> %t/fixerr.err
// RUN: %FileCheck %s --check-prefix=FIXED < %t/fixerr.err
// FIXED: 1 warning and 4 errors in 1 file (libstdc++, x86_64); 1 fixed in 1 file; 1 file with compile errors
// RUN: grep -c 'hl::inplace_function<void(), 24> fine' %t/errors.cpp
