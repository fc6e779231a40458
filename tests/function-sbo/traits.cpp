// The traits that send a target to the heap although it fits: derived from
// the class (special members, their noexcept, virtual functions and bases,
// recursively bases and fields), with the culprit named.
//
// RUN: %heaplint %s -- -I%src_root/runtime/include %libstdcxx | %FileCheck %s --check-prefix=GNU --implicit-check-not=warning:
// RUN: %heaplint %s -- -I%src_root/runtime/include %libcxx | %FileCheck %s --check-prefix=LLVM --implicit-check-not=warning:
#include <functional>
#include <memory>

struct Trivial { long x; Trivial() = default; Trivial(const Trivial &) = default; void operator()() const {} };
struct UserCopy { long x = 0; UserCopy() = default; UserCopy(const UserCopy &o) noexcept : x(o.x) {} void operator()() const {} };
struct ThrowingCopy { long x = 0; ThrowingCopy() = default; ThrowingCopy(const ThrowingCopy &o) : x(o.x) {} void operator()() const {} };
struct FalseCopy { long x = 0; FalseCopy() = default; FalseCopy(const FalseCopy &o) noexcept(false) : x(o.x) {} void operator()() const {} };
struct TrueCopy { long x = 0; TrueCopy() = default; TrueCopy(const TrueCopy &o) noexcept(sizeof(long) == 8) : x(o.x) {} void operator()() const {} };
struct Dtor { long x = 0; ~Dtor() {} void operator()() const {} };
struct Assign { long x = 0; Assign &operator=(const Assign &) { return *this; } void operator()() const {} };
struct Virtual { long x = 0; virtual void operator()() const {} };
struct Base { long x = 0; Base() = default; Base(const Base &) {} };
struct Derived : Base { void operator()() const {} };
struct Member { Base b; void operator()() const {} };
struct Bits { unsigned a : 3, b : 5; long c; void operator()() const {} };
struct OutOfLine { long x = 0; OutOfLine() = default; OutOfLine(const OutOfLine &); void operator()() const {} };
OutOfLine::OutOfLine(const OutOfLine &) = default;

void traits() {
  std::function<void()> trivial = Trivial{};
  std::function<void()> bits = Bits{};
  // GNU: traits.cpp:[[@LINE+3]]:37: warning: std::function<void ()> stores this functor 'UserCopy' on the heap: 8 bytes (align 8) would fit libstdc++'s 16-byte inline buffer, but it is not trivially copyable, which libstdc++ requires for inline storage [function-sbo]
  // GNU: note: not trivially copyable: UserCopy has a user-provided copy constructor ({{.*}}traits.cpp:11)
  // GNU: note: fix: retype the declaration as hl::inplace_function<void(), 8> (<heaplint/inplace_function.hpp>), which keeps targets of up to 8 bytes inline and never allocates{{$}}
  std::function<void()> user_copy = UserCopy{};
  // GNU: traits.cpp:[[@LINE+4]]:41: warning: {{.*}}'ThrowingCopy' on the heap: 8 bytes (align 8) would fit libstdc++'s 16-byte inline buffer, but it is not trivially copyable
  // LLVM: traits.cpp:[[@LINE+3]]:41: warning: std::function<void ()> stores this functor 'ThrowingCopy' on the heap: 8 bytes (align 8) would fit libc++'s 32-byte inline buffer, but it is not nothrow copy constructible, which libc++ requires for inline storage [function-sbo]
  // LLVM: note: not nothrow copy constructible: ThrowingCopy has a copy constructor that may throw ({{.*}}traits.cpp:12)
  // LLVM: note: use hl::inplace_function<void(), 8> (<heaplint/inplace_function.hpp>), which keeps targets of up to 8 bytes inline and never allocates; not rewritten automatically: hl::inplace_function rejects a target whose move may throw, and ThrowingCopy's may: ThrowingCopy is moved by its copy constructor (it declares no move constructor), and has a copy constructor that may throw ({{.*}}traits.cpp:12)
  std::function<void()> throwing_copy = ThrowingCopy{};
  // noexcept(false) and noexcept(<true expression>) are told apart.
  // GNU: traits.cpp:[[@LINE+3]]:38: warning: {{.*}}'FalseCopy'{{.*}}not trivially copyable
  // LLVM: traits.cpp:[[@LINE+2]]:38: warning: {{.*}}'FalseCopy'{{.*}}it is not nothrow copy constructible
  // LLVM: note: not nothrow copy constructible: FalseCopy has a copy constructor that may throw ({{.*}}traits.cpp:13)
  std::function<void()> false_copy = FalseCopy{};
  // GNU: traits.cpp:[[@LINE+1]]:37: warning: {{.*}}'TrueCopy'{{.*}}not trivially copyable
  std::function<void()> true_copy = TrueCopy{};
  // GNU: traits.cpp:[[@LINE+2]]:32: warning: {{.*}}'Dtor'{{.*}}not trivially copyable
  // GNU: note: not trivially copyable: Dtor has a user-provided destructor ({{.*}}traits.cpp:15)
  std::function<void()> dtor = Dtor{};
  // GNU: traits.cpp:[[@LINE+2]]:34: warning: {{.*}}'Assign'{{.*}}not trivially copyable
  // GNU: note: not trivially copyable: Assign has a user-provided copy assignment operator ({{.*}}traits.cpp:16)
  std::function<void()> assign = Assign{};
  // GNU: traits.cpp:[[@LINE+2]]:32: warning: {{.*}}'Virtual' on the heap: 16 bytes (align 8) would fit{{.*}}not trivially copyable
  // GNU: note: not trivially copyable: Virtual has virtual functions ({{.*}}traits.cpp:17)
  std::function<void()> virt = Virtual{};
  // GNU: traits.cpp:[[@LINE+4]]:35: warning: {{.*}}'Derived'{{.*}}not trivially copyable
  // GNU: note: not trivially copyable: base Base has a user-provided copy constructor ({{.*}}traits.cpp:18)
  // LLVM: traits.cpp:[[@LINE+2]]:35: warning: {{.*}}'Derived'{{.*}}it is not nothrow copy constructible
  // LLVM: note: not nothrow copy constructible: base Base has a copy constructor that may throw ({{.*}}traits.cpp:18)
  std::function<void()> derived = Derived{};
  // GNU: traits.cpp:[[@LINE+4]]:34: warning: {{.*}}'Member'{{.*}}not trivially copyable
  // GNU: note: not trivially copyable: member 'b' (Base) has a user-provided copy constructor ({{.*}}traits.cpp:18)
  // LLVM: traits.cpp:[[@LINE+2]]:34: warning: {{.*}}'Member'{{.*}}it is not nothrow copy constructible
  // LLVM: note: not nothrow copy constructible: member 'b' (Base) has a copy constructor that may throw ({{.*}}traits.cpp:18)
  std::function<void()> member = Member{};
  // Defaulted, but not on its first declaration: user-provided.
  // GNU: traits.cpp:[[@LINE+2]]:39: warning: {{.*}}'OutOfLine'{{.*}}not trivially copyable
  // LLVM: traits.cpp:[[@LINE+1]]:39: warning: {{.*}}'OutOfLine'{{.*}}it is not nothrow copy constructible
  std::function<void()> out_of_line = OutOfLine{};
}

void captures(std::shared_ptr<int> sp, std::unique_ptr<int> &up) {
  // Class template instantiations: heaplint asks the compiler.
  // GNU: traits.cpp:[[@LINE+3]]:34: warning: std::function<void ()> stores this lambda on the heap: 16 bytes (align 8) would fit libstdc++'s 16-byte inline buffer, but it is not trivially copyable, which libstdc++ requires for inline storage [function-sbo]
  // GNU: note: captures: sp (16)
  // GNU: note: not trivially copyable: capture 'sp' (std::shared_ptr<int>) is not trivially copyable
  std::function<void()> shared = [sp] { (void)sp; };
  std::function<void()> unique_ref = [&up] { (void)up; };
}
