// std::any keeps a value inline when it is nothrow move constructible and
// fits: libstdc++ 8 bytes (align <= 8), libc++ 24 bytes (align <= 8).
//
// RUN: %heaplint %s -- %libstdcxx | %FileCheck %s --check-prefix=GNU --implicit-check-not=warning:
// RUN: %heaplint %s -- %libcxx | %FileCheck %s --check-prefix=LLVM --implicit-check-not=warning:
#include <any>
#include <array>
#include <string>

struct Pair { long a, b; };
struct Quad { long a, b, c, d; };
struct ThrowingDtor { long x = 0; ~ThrowingDtor() noexcept(false) {} };
struct HasThrowingDtor { ThrowingDtor member; };
struct ThrowingMove {
  long x = 0;
  ThrowingMove() = default;
  ThrowingMove(const ThrowingMove &) = default;
  ThrowingMove(ThrowingMove &&) noexcept(false) {}
};
// A defaulted move constructor is explained by the member that makes it
// throw, whether or not something (here the static_assert, elsewhere a
// library template's body) made the compiler evaluate it first.
struct DefaultedMove {
  ThrowingMove m;
  DefaultedMove() = default;
  DefaultedMove(const DefaultedMove &) = default;
  DefaultedMove(DefaultedMove &&) = default;
};
static_assert(!std::is_nothrow_move_constructible<DefaultedMove>::value, "");

void scalars(int i, long l, double d, long double ld, int *p, int (&arr)[4]) {
  std::any ai = i;
  std::any al = l;
  std::any ad = d;
  std::any ap = p;
  // An array decays: the any keeps a pointer.
  std::any aa = arr;
  // GNU: values.cpp:[[@LINE+2]]:18: warning: std::any stores this value of type 'long double' on the heap: 16 bytes (align 16) exceeds libstdc++'s inline buffer of 8 bytes; alignment 16 exceeds the 8 that libstdc++'s inline buffer allows [any-sbo]
  // LLVM: values.cpp:[[@LINE+1]]:18: warning: std::any stores this value of type 'long double' on the heap: alignment 16 exceeds the 8 that libc++'s inline buffer allows [any-sbo]
  std::any ald = ld;
}

void classes(std::string s) {
  // GNU: values.cpp:[[@LINE+2]]:19: warning: std::any stores this value of type 'Pair' on the heap: 16 bytes (align 8) exceeds libstdc++'s inline buffer of 8 bytes [any-sbo]
  // GNU: note: std::any keeps a value inline only up to 8 bytes, align 8, with a noexcept move constructor; store a pointer or std::reference_wrapper to it (e.g. an object from an hl_pool) instead
  std::any pair = Pair{1, 2};
  // GNU: values.cpp:[[@LINE+2]]:19: warning: {{.*}}'Quad' on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 8 bytes
  // LLVM: values.cpp:[[@LINE+1]]:19: warning: {{.*}}'Quad' on the heap: 32 bytes (align 8) exceeds libc++'s inline buffer of 24 bytes
  std::any quad = Quad{};
  // GNU: values.cpp:[[@LINE+4]]:19: warning: std::any stores this value of type 'ThrowingMove' on the heap: 8 bytes (align 8) would fit libstdc++'s 8-byte inline buffer, but it is not nothrow move constructible, which libstdc++ requires for inline storage [any-sbo]
  // GNU: note: not nothrow move constructible: ThrowingMove has a move constructor that may throw ({{.*}}values.cpp:18)
  // LLVM: values.cpp:[[@LINE+2]]:19: warning: {{.*}}'ThrowingMove' on the heap: 8 bytes (align 8) would fit libc++'s 24-byte inline buffer, but it is not nothrow move constructible
  // LLVM: note: not nothrow move constructible: ThrowingMove has a move constructor that may throw ({{.*}}values.cpp:18)
  std::any move = ThrowingMove{};
  // A destructor that may throw makes the move "may throw" too: the
  // libraries ask is_nothrow_move_constructible, which counts it.
  // GNU: values.cpp:[[@LINE+4]]:19: warning: std::any stores this value of type 'ThrowingDtor' on the heap: 8 bytes (align 8) would fit libstdc++'s 8-byte inline buffer, but it is not nothrow move constructible, which libstdc++ requires for inline storage [any-sbo]
  // GNU: note: not nothrow move constructible: ThrowingDtor has a destructor that may throw ({{.*}}values.cpp:12)
  // LLVM: values.cpp:[[@LINE+2]]:19: warning: {{.*}}'ThrowingDtor' on the heap: 8 bytes (align 8) would fit libc++'s 24-byte inline buffer, but it is not nothrow move constructible
  // LLVM: note: not nothrow move constructible: ThrowingDtor has a destructor that may throw ({{.*}}values.cpp:12)
  std::any dtor = ThrowingDtor{};
  // GNU: values.cpp:[[@LINE+3]]:19: warning: {{.*}}'HasThrowingDtor'{{.*}}not nothrow move constructible
  // GNU: note: not nothrow move constructible: member 'member' (ThrowingDtor) has a destructor that may throw ({{.*}}values.cpp:12)
  // LLVM: values.cpp:[[@LINE+1]]:19: warning: {{.*}}'HasThrowingDtor'{{.*}}not nothrow move constructible
  std::any memb = HasThrowingDtor{};
  // GNU: values.cpp:[[@LINE+4]]:24: warning: {{.*}}'DefaultedMove'{{.*}}not nothrow move constructible
  // GNU: note: not nothrow move constructible: member 'm' (ThrowingMove) has a move constructor that may throw ({{.*}}values.cpp:18)
  // LLVM: values.cpp:[[@LINE+2]]:24: warning: {{.*}}'DefaultedMove'{{.*}}not nothrow move constructible
  // LLVM: note: not nothrow move constructible: member 'm' (ThrowingMove) has a move constructor that may throw ({{.*}}values.cpp:18)
  std::any defaulted = DefaultedMove{};
  // std::string: 32 bytes on libstdc++; 24 and nothrow-movable on libc++.
  // GNU: values.cpp:[[@LINE+1]]:19: warning: std::any stores this value of type 'std::string' on the heap: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 8 bytes
  std::any text = s;
  std::any two = std::array<int, 2>{};
  // GNU: values.cpp:[[@LINE+2]]:20: warning: {{.*}}'std::array<int, 8>' on the heap: 32 bytes (align 4) exceeds libstdc++'s inline buffer of 8 bytes
  // LLVM: values.cpp:[[@LINE+1]]:20: warning: {{.*}}'std::array<int, 8>' on the heap: 32 bytes (align 4) exceeds libc++'s inline buffer of 24 bytes
  std::any eight = std::array<int, 8>{};
}
