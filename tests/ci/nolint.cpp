// NOLINT comments, with clang-tidy's semantics.
//
// RUN: (%heaplint %s -- %libstdcxx; echo "exit: $?") > %t.out 2> %t.err
// RUN: %FileCheck %s --check-prefix=OUT --implicit-check-not=warning: --implicit-check-not=error: < %t.out
// RUN: %FileCheck %s --check-prefix=ERR < %t.err
#include <functional>

void f(long a, long b, long c) {
  std::function<void()> all = [a, b, c] {};  // NOLINT
  std::function<void()> named = [a, b, c] {};  // NOLINT(function-sbo)
  std::function<void()> globbed = [a, b, c] {};  // NOLINT(any-sbo, function-*)
  // A suppression of another rule does not hide this one.
  // OUT: nolint.cpp:[[@LINE+1]]:33: warning: std::function<void ()> stores this lambda on the heap
  std::function<void()> other = [a, b, c] {};  // NOLINT(any-sbo)
  // NOLINTNEXTLINE(function-sbo)
  std::function<void()> next = [a, b, c] {};
  // NOLINTNEXTLINE
  std::function<void()> next_all = [a, b, c] {};
  // NOLINTNEXTLINE(function-sbo) only reaches the next line:
  int gap = 0;
  // OUT: nolint.cpp:[[@LINE+1]]:33: warning: std::function<void ()> stores this lambda on the heap
  std::function<void()> after = [a, b, c] {};
  (void)gap;
  // NOLINTBEGIN(function-sbo)
  std::function<void()> region1 = [a, b, c] {};
  std::function<void()> region2 = [a, b, c] {};
  // NOLINTEND(function-sbo)
  // OUT: nolint.cpp:[[@LINE+1]]:35: warning: std::function<void ()> stores this lambda on the heap
  std::function<void()> outside = [a, b, c] {};
  // NOLINTBEGIN
  std::function<void()> region_all = [a, b, c] {};
  // NOLINTEND
}

// Unmatched region markers are errors (exit 1), where they stand. (The
// checks spell the markers with a regex so as not to be markers themselves.)
// OUT: nolint.cpp:[[@LINE+1]]:4: error: unmatched 'NOLINT{{E}}ND' comment without a previous 'NOLINT{{B}}EGIN' comment [nolint]
// NOLINTEND(any-sbo)
// OUT: nolint.cpp:[[@LINE+1]]:4: error: unmatched 'NOLINT{{B}}EGIN' comment without a subsequent 'NOLINT{{E}}ND' comment [nolint]
// NOLINTBEGIN(function-sbo)
// OUT: exit: 1
// ERR: 3 warnings and 2 errors in 1 file (libstdc++, x86_64); 8 suppressed by NOLINT
