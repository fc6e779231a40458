// Expressions whose type is one of clang's placeholders (an unresolved
// overload set such as std::endl, streamed inside a template next to a
// global operator<< as GoogleTest declares one) have no layout: libclang 19
// crashed when asked for their size. The unit is analyzed to its end, the
// store after them included, with or without a compile error before them.
//
// RUN: %heaplint %s -- %libstdcxx | %FileCheck %s --check-prefix=GNU --implicit-check-not=warning:
// RUN: %heaplint %s -- %libcxx | %FileCheck %s --allow-empty --check-prefix=LLVM --implicit-check-not=warning:
// A fatal error (an #include not found) first: what parsed is analyzed,
// exit 3 as for any compile error, and no crash.
// RUN: %not %heaplint %s -- %libstdcxx -DMISSING_HEADER | %FileCheck %s --check-prefix=BROKEN
#ifdef MISSING_HEADER
#include "no-such-header.h"
#endif
#include <functional>
#include <ostream>

struct Secret;
void operator<<(const Secret &, int);

template <class T> void dump(std::ostream &os, T &c) { os << c << std::endl; }
template <class T> void flush_with(std::ostream &os, T &) { os << std::flush << std::endl; }
template <class T> struct Holder {
  T value;
  void print(std::ostream &os) { os << value << std::ends; }
};

void store(long a, long b, long c) {
  // GNU: placeholder-types.cpp:[[@LINE+2]]:29: warning: std::function<void ()> stores this lambda on the heap: 24 bytes
  // LLVM-NOT: :[[@LINE+1]]:{{.*}}warning
  std::function<void()> f = [a, b, c] {};
  f();
}
// BROKEN: error: 'no-such-header.h' file not found [clang-diagnostic-error]
