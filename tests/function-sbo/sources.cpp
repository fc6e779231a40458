// What a std::function stores: lambdas of every capture form, functors,
// std::bind results, std::ref, function and member pointers. Each site is
// judged by the library's own rule:
//   libstdc++: trivially copyable, size <= 16, align <= 8;
//   libc++:    nothrow copy constructible, and the 8-byte vtable pointer
//              plus the target (at its alignment) fit in 32 bytes.
//
// RUN: %heaplint %s -- %libstdcxx | %FileCheck %s --check-prefix=GNU --implicit-check-not=warning:
// RUN: %heaplint %s -- %libcxx | %FileCheck %s --check-prefix=LLVM --implicit-check-not=warning:
#include <functional>
#include <string>

struct Small { long x; void operator()() const {} };
struct Three { long x[3]; void operator()() const {} };
struct Four { long x[4]; void operator()() const {} };
struct alignas(16) Aligned16 { char c[16]; void operator()() const {} };
struct alignas(32) Aligned32 { char c[32]; void operator()() const {} };
struct Widget {
  long a = 0, b = 0, c = 0;
  void method() {}
  void captures() {
    std::function<void()> self = [this] { method(); };
    // GNU: sources.cpp:[[@LINE+2]]:34: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes [function-sbo]
    // GNU: note: captures: *this (24)
    std::function<void()> copy = [*this] { (void)a; };
  }
};
void plain(long) {}

void lambdas(long a, long b, long c, long d, char ch) {
  std::function<void()> one = [a] { (void)a; };
  std::function<void()> two = [a, b] { (void)a, (void)b; };
  // GNU: sources.cpp:[[@LINE+2]]:33: warning: {{.*}}this lambda on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: note: captures: a (8), b (8), c (8)
  std::function<void()> three = [a, b, c] { (void)a, (void)b, (void)c; };
  // GNU: sources.cpp:[[@LINE+4]]:32: warning: {{.*}}this lambda on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: note: captures: a (8), b (8), c (8), d (8)
  // LLVM: sources.cpp:[[@LINE+2]]:32: warning: std::function<void ()> stores this lambda on the heap: 32 bytes (align 8) with libc++'s 8-byte vtable pointer in front need 40 bytes, more than its inline buffer of 32 bytes [function-sbo]
  // LLVM: note: captures: a (8), b (8), c (8), d (8)
  std::function<void()> four = [a, b, c, d] { (void)a, (void)b, (void)c, (void)d; };
  // GNU: sources.cpp:[[@LINE+2]]:34: warning: {{.*}}this lambda on the heap: 24 bytes (align 8) exceeds
  // GNU: note: captures: ch (1, +7 padding), a (8), b (8)
  std::function<void()> padded = [ch, a, b] { (void)ch, (void)a, (void)b; };
  // GNU: sources.cpp:[[@LINE+2]]:34: warning: {{.*}}this lambda on the heap: 24 bytes (align 8) exceeds
  // GNU: note: captures: a (8), b (8), c (8)
  std::function<void()> by_ref = [&a, &b, &c] { (void)a, (void)b, (void)c; };
  // GNU: sources.cpp:[[@LINE+2]]:38: warning: {{.*}}this lambda on the heap: 24 bytes (align 8) exceeds
  // GNU: note: captures: a (8), b (8), c (8)
  std::function<void()> by_default = [=] { (void)(a + b + c); };
  // GNU: sources.cpp:[[@LINE+2]]:42: warning: {{.*}}this lambda on the heap: 24 bytes (align 8) exceeds
  // GNU: note: captures: a (8), b (8), c (8)
  std::function<void()> by_ref_default = [&] { (void)(a + b + c); };
  // GNU: sources.cpp:[[@LINE+2]]:32: warning: {{.*}}this lambda on the heap: 24 bytes (align 8) exceeds
  // GNU: note: captures: x (8), y (8), a (8)
  std::function<void()> init = [x = a, y = b, a] { (void)x, (void)y, (void)a; };
  // A nested lambda's use makes the outer one capture.
  // GNU: sources.cpp:[[@LINE+2]]:34: warning: {{.*}}this lambda on the heap: 24 bytes (align 8) exceeds
  // GNU: note: captures: a (8), b (8), c (8)
  std::function<void()> nested = [=] { [=] { (void)(a + b + c); }(); };
  // GNU: sources.cpp:[[@LINE+5]]:32: warning: {{.*}}this lambda on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
  // GNU: note: captures: s (32)
  // LLVM: sources.cpp:[[@LINE+3]]:32: warning: std::function<void ()> stores this lambda on the heap: 24 bytes (align 8) would fit libc++'s 32-byte inline buffer, but it is not nothrow copy constructible, which libc++ requires for inline storage [function-sbo]
  // LLVM: note: captures: s (24)
  // LLVM: note: not nothrow copy constructible: capture 's' (std::string) may throw when copied
  std::function<void()> text = [s = std::string("x")] { (void)s; };
}

void functors() {
  std::function<void()> small = Small{};
  // GNU: sources.cpp:[[@LINE+1]]:33: warning: std::function<void ()> stores this functor 'Three' on the heap: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes [function-sbo]
  std::function<void()> three = Three{};
  // GNU: sources.cpp:[[@LINE+2]]:32: warning: {{.*}}functor 'Four' on the heap: 32 bytes (align 8) exceeds
  // LLVM: sources.cpp:[[@LINE+1]]:32: warning: {{.*}}functor 'Four' on the heap: 32 bytes (align 8) with libc++'s 8-byte vtable pointer in front need 40 bytes
  std::function<void()> four = Four{};
  // An over-aligned target: libstdc++ refuses align > 8; libc++ places it
  // at offset 16 behind the vtable pointer, and 16 + 16 fits 32.
  // GNU: sources.cpp:[[@LINE+1]]:31: warning: std::function<void ()> stores this functor 'Aligned16' on the heap: alignment 16 exceeds the 8 that libstdc++'s inline buffer allows [function-sbo]
  std::function<void()> a16 = Aligned16{};
  // GNU: sources.cpp:[[@LINE+2]]:31: warning: {{.*}}functor 'Aligned32' on the heap: 32 bytes (align 32) exceeds libstdc++'s inline buffer of 16 bytes; alignment 32 exceeds the 8
  // LLVM: sources.cpp:[[@LINE+1]]:31: warning: {{.*}}functor 'Aligned32' on the heap: 32 bytes (align 32) with libc++'s 8-byte vtable pointer in front need 64 bytes
  std::function<void()> a32 = Aligned32{};
}

void library_callables(long a, long b) {
  Four big;
  // std::ref keeps a pointer: 8 bytes, trivially copyable, fits everywhere.
  std::function<void()> ref = std::ref(big);
  std::function<void()> cref = std::cref(big);
  std::function<void(long)> pointer = &plain;
  std::function<void(long)> name = plain;
  std::function<void(Widget &)> member = &Widget::method;
  // GNU: sources.cpp:[[@LINE+2]]:33: warning: std::function<void ()> stores this std::bind result on the heap: 16 bytes (align 8) would fit libstdc++'s 16-byte inline buffer, but it is not trivially copyable, which libstdc++ requires for inline storage [function-sbo]
  // GNU: note: not trivially copyable: the std::bind result (std::_Bind<void (*(long))(long)>) is not trivially copyable
  std::function<void()> bound = std::bind(&plain, a);
}
