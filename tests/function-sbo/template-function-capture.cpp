// Two shapes CLI11 showed (issue 12), both silent before:
//  - a store inside a template through a call whose callee is known (one
//    named function, not a template) while the argument's type depends on
//    the template: the pattern holds no conversion to std::function, the
//    instantiation makes it;
//  - a lambda capturing a std::function whose signature depends on the
//    template: every std::function has the same layout and traits whatever
//    its signature, so the lambda's do not depend on the template either,
//    and it is judged once, at the store, as a std::shared_ptr<T> is.
// A lambda capturing a value of a dependent type is judged per
// instantiation, at the call that made the type concrete.
//
// RUN: %heaplint -v %s -- %libstdcxx -isystem %probes 2>%t.err | %FileCheck %s --check-prefix=GNU --implicit-check-not=warning:
// RUN: %FileCheck %s --check-prefix=REMARK --implicit-check-not="not decided" < %t.err
// REMARK: 3 warnings in 1 file
// RUN: %heaplint %s -- %libcxx -isystem %probes | %FileCheck %s --check-prefix=LLVM --implicit-check-not=warning:
//
// Measured with both libraries against the counting operator new.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gxx %libstdcxx -O0 -w -isystem %probes %s -o %t/gnu && %t/gnu > %t/gnu.measured
// RUN: %heaplint -v %s -- %libstdcxx -isystem %probes > %t/gnu.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 4 function-capture-libstdc++ %t/gnu.measured %t/gnu.heaplint
// RUN: %clangxx %libcxx -O0 -w -isystem %probes %s -o %t/llvm && %t/llvm > %t/llvm.measured
// RUN: %heaplint -v %s -- %libcxx -isystem %probes > %t/llvm.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 3 function-capture-libc++ %t/llvm.measured %t/llvm.heaplint
#include <count_new.hpp>

#include <functional>
#include <string>
#include <utility>

#include "../support/measure.hpp"

using callback_t = std::function<bool(const std::string &)>;

struct App {
  callback_t cb;
  void add_option(const char *name, callback_t f) { (void)name; cb = std::move(f); }

  // CLI11's add_option_function<ArgType>: the callback wrapped in a lambda
  // that parses first.
  template <typename ArgType> int add_option_function(const std::function<void(const ArgType &)> &func) {
    auto fun = [func](const std::string &res) { ArgType v{}; (void)res; func(v); return true; };
    // GNU: template-function-capture.cpp:[[@LINE+4]]:21: warning: std::function<bool (const std::basic_string<char> &)> stores this lambda on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes; it is not trivially copyable, which libstdc++ requires for inline storage
    // GNU: note: captures: func (32)
    // GNU: note: not trivially copyable: capture 'func' (const std::function<void (const ArgType &)>) is not trivially copyable
    // LLVM: template-function-capture.cpp:[[@LINE+1]]:21: warning: std::function<bool (const std::string &)> stores this lambda on the heap: 48 bytes (align 16) with libc++'s 8-byte vtable pointer in front need 64 bytes, more than its inline buffer of 32 bytes
    add_option("x", std::move(fun)); return __LINE__;
  }

  // A capture of a dependent type: judged where the type is concrete.
  template <typename T> void add_value(T value) {
    add_option("v", [value](const std::string &s) { return s.size() > sizeof value; });
  }
};

// The same through an overloaded callee, one candidate a template: what
// the call resolves to is known only per instantiation (a conversion
// probe), but the lambda's layout is the same in all, so it is reported at
// the store, once.
struct Overloaded {
  callback_t cb;
  void add(const char *name, callback_t f) { (void)name; cb = std::move(f); }
  template <class T> void add(const char *name, T &variable, bool) { (void)name; (void)variable; }
  template <typename A> int add_function(const std::function<void(const A &)> &func) {
    auto fun = [func](const std::string &res) { A v{}; (void)res; func(v); return true; };
    // GNU: template-function-capture.cpp:[[@LINE+2]]:14: warning: std::function<bool (const std::basic_string<char> &)> stores the lambda made at template-function-capture.cpp:[[@LINE-1]] on the heap: 32 bytes (align 8)
    // LLVM: template-function-capture.cpp:[[@LINE+1]]:14: warning: std::function<bool (const std::string &)> stores the lambda made at template-function-capture.cpp:[[@LINE-2]] on the heap: 48 bytes (align 16)
    add("x", std::move(fun)); return __LINE__;
  }
};

struct Two { long a, b; };
struct Three { long a, b, c; };

int main() {
  App app;
  int line = 0;
  MEASURE(line, "std::function capture", line = app.add_option_function<int>([](const int &) {}));
  app.add_option_function<std::string>([](const std::string &) {});
  Overloaded o;
  MEASURE(line, "overloaded callee", line = o.add_function<int>([](const int &) {}));
  o.add_function<long>([](const long &) {});
  // 8 bytes: inline in both libraries.
  MEASURE(__LINE__, "one long", app.add_value(1L));
  // 16 bytes, trivially copyable: inline in both.
  MEASURE(__LINE__, "two longs", app.add_value(Two{1, 2}));
  // GNU: template-function-capture.cpp:[[@LINE+2]]:{{[0-9]+}}: warning: std::function<bool (const std::basic_string<char> &)> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: note: stored at {{.*}}template-function-capture.cpp:53 as std::function<bool (const std::basic_string<char> &)>
  MEASURE(__LINE__, "three longs", app.add_value(Three{1, 2, 3}));
  return 0;
}
