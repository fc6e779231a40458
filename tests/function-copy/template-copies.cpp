// A copy inside a template whose wrapper type depends on it (issue 12):
// Node(const Callback_ &callback) : callback(callback), with Callback_ a
// std::function only per instantiation, reached from the code's own call
// through member functions passing the parameter on and std::make_shared.
// The copy allocates again when a call of the code's own hands it a
// target on the heap (a temporary it builds, or a variable known to hold
// one): reported once, at the copy, with the store and that call.
//
// RUN: %heaplint --config-file=%S/Inputs/copies-only.yaml %s -- %libstdcxx -isystem %probes | %FileCheck %s --check-prefixes=CHECK,GNU --implicit-check-not=warning:
// RUN: %heaplint --config-file=%S/Inputs/copies-only.yaml %s -- %libcxx -isystem %probes | %FileCheck %s --check-prefixes=CHECK,LLVM --implicit-check-not=warning:
//
// Measured: each list prints "<line of its copy> <allocations of its copies>"
// (counted in the node's constructor, around the member initializer);
// heaplint must warn on exactly the copies that allocated.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gxx %libstdcxx -O0 -w -isystem %probes %s -o %t/gnu && %t/gnu > %t/gnu.measured
// RUN: %heaplint -v --config-file=%S/Inputs/copies-only.yaml %s -- %libstdcxx -isystem %probes > %t/gnu.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 4 template-copies-libstdc++ %t/gnu.measured %t/gnu.heaplint
// RUN: %clangxx %libcxx -O0 -w -isystem %probes %s -o %t/llvm && %t/llvm > %t/llvm.measured
// RUN: %heaplint -v --config-file=%S/Inputs/copies-only.yaml %s -- %libcxx -isystem %probes > %t/llvm.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 4 template-copies-libc++ %t/llvm.measured %t/llvm.heaplint
#include <count_new.hpp>

#include <cstdio>
#include <functional>
#include <memory>
#include <utility>

template <class T> struct Select { using Type = T; };

// What the nodes' copies allocated since begin().
static unsigned long copies_;
static void copied(unsigned long mark) { copies_ += hl_count::allocations() - mark; }

// Lists that keep each callback in a node of their own, as eventpp's
// CallbackList does (one per case: one copy line each).
template <class Sig> class ListA {
  using Callback_ = typename Select<std::function<Sig>>::Type;
  struct Node {
    Node(const Callback_ &callback) : mark(hl_count::allocations()), callback(callback) { copied(mark); } static constexpr int line = __LINE__;
    unsigned long mark;
    Callback_ callback;
  };
  std::shared_ptr<Node> doAllocate(const Callback_ &callback) { return std::make_shared<Node>(callback); }

public:
  std::shared_ptr<Node> last;
  void append(const Callback_ &callback) { last = doAllocate(callback); }
};
template <class Sig> class ListB {
  using Callback_ = typename Select<std::function<Sig>>::Type;
  struct Node {
    Node(const Callback_ &callback) : mark(hl_count::allocations()), callback(callback) { copied(mark); } static constexpr int line = __LINE__;
    unsigned long mark;
    Callback_ callback;
  };
  std::shared_ptr<Node> doAllocate(const Callback_ &callback) { return std::make_shared<Node>(callback); }

public:
  std::shared_ptr<Node> last;
  void append(const Callback_ &callback) { last = doAllocate(callback); }
};
template <class Sig> class ListC {
  using Callback_ = typename Select<std::function<Sig>>::Type;
  struct Node {
    Node(const Callback_ &callback) : mark(hl_count::allocations()), callback(callback) { copied(mark); } static constexpr int line = __LINE__;
    unsigned long mark;
    Callback_ callback;
  };
  std::shared_ptr<Node> doAllocate(const Callback_ &callback) { return std::make_shared<Node>(callback); }

public:
  std::shared_ptr<Node> last;
  void append(const Callback_ &callback) { last = doAllocate(callback); }
};

// A list that copies something else than what it is handed.
template <class Sig> class Decoy {
  using Callback_ = typename Select<std::function<Sig>>::Type;
  struct Node {
    Node(const Callback_ &callback) : mark(hl_count::allocations()), callback(callback) { copied(mark); } static constexpr int line = __LINE__;
    unsigned long mark;
    Callback_ callback;
  };
  Callback_ fallback = [] {};

public:
  std::shared_ptr<Node> last;
  void append(const Callback_ &callback) { (void)callback; last = std::make_shared<Node>(fallback); }
};

static void begin() { copies_ = 0; }
static void end(int line, const char *label) { std::printf("%d %lu %s\n", line, copies_, label); }

int main() {
  long a = 1, b = 2, c = 3, d = 4;
  // The first call hands over an inline target, the second one on the heap
  // with libstdc++ (24 bytes); the compiler names only the first.
  // GNU: template-copies.cpp:40:79: warning: copying this std::function<void ()> allocates again: its target (a lambda, 24 bytes) is stored on the heap by libstdc++ [function-copy]
  // GNU: template-copies.cpp:[[@LINE+5]]:24: note: its target is stored here
  // GNU: template-copies.cpp:[[@LINE+4]]:3: note: copied when this call hands it over
  ListA<void()> small_then_24;
  begin();
  small_then_24.append([a] { (void)a; });
  small_then_24.append([a, b, c] { (void)(a + b + c); });
  end(decltype(small_then_24.last)::element_type::line, "inline, then 24 bytes");

  // A variable known to hold a 32-byte target: on the heap with both.
  // GNU: template-copies.cpp:53:79: warning: copying this std::function<void ()> allocates again: its target (a lambda, 32 bytes) is stored on the heap by libstdc++ [function-copy]
  // LLVM: template-copies.cpp:53:79: warning: copying this std::function<void ()> allocates again: its target (a lambda, 32 bytes) is stored on the heap by libc++ [function-copy]
  // CHECK: template-copies.cpp:[[@LINE+2]]:31: note: its target is stored here
  // CHECK: template-copies.cpp:[[@LINE+4]]:3: note: copied when this call hands it over
  std::function<void()> f32 = [a, b, c, d] { (void)(a + b + c + d); };
  ListB<void()> from_variable;
  begin();
  from_variable.append(f32);
  end(decltype(from_variable.last)::element_type::line, "a variable holding 32 bytes");

  // Inline targets only: nothing to report.
  ListC<void()> small;
  begin();
  small.append([a] { (void)a; });
  end(decltype(small.last)::element_type::line, "inline targets");

  // The copy is of the list's own member, not of what the call hands over.
  Decoy<void()> decoy;
  begin();
  decoy.append([a, b, c, d] { (void)(a + b + c + d); });
  end(decltype(decoy.last)::element_type::line, "a copy of something else");
  return 0;
}
