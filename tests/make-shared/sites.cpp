// A std::shared_ptr made from a new expression, in every form, and what
// heaplint leaves alone. The same on libc++.
//
// RUN: %heaplint %s -- %libstdcxx | %FileCheck %s --implicit-check-not=warning:
// RUN: %heaplint %s -- %libcxx | %FileCheck %s --implicit-check-not=warning:
#include <cstdlib>
#include <memory>
#include <vector>

struct Widget {
  explicit Widget(int v = 0) : value(v) {}
  Widget(int *p, int v) : value(p ? *p : v) {}
  virtual ~Widget() = default;
  int value;
};
struct Gadget : Widget {
  using Widget::Widget;
};
struct Bits {
  unsigned low : 4, high : 4;
};
struct Pooled {
  static void *operator new(std::size_t n) { return std::malloc(n); }
  static void operator delete(void *p) { std::free(p); }
};
class Factory {
  Factory() = default;

public:
  static std::shared_ptr<Factory> make() {
    // CHECK: sites.cpp:[[@LINE+2]]:37: warning: std::shared_ptr<Factory> takes 'new Factory': two allocations, the object and then the control block, where std::make_shared makes one [make-shared]
    // CHECK: note: use std::make_shared<Factory>; not rewritten automatically: its constructor is not public: std::make_shared cannot call it
    return std::shared_ptr<Factory>(new Factory);
  }
};

void take(std::shared_ptr<Widget>);

void sites(std::shared_ptr<Widget> &out, const std::vector<int> &items, Bits b) {
  // CHECK: sites.cpp:[[@LINE+3]]:29: warning: std::shared_ptr<Widget> takes 'new Widget': two allocations, the object and then the control block, where std::make_shared makes one [make-shared]
  // CHECK: note: fix: std::make_shared<Widget>(1) builds the object and its control block in one allocation
  // CHECK: note: std::allocate_shared<Widget>(hl::pool_allocator<Widget>(), ...) (<heaplint/pool_allocator.hpp>) makes the one block in heaplint's pools, none from the global heap
  std::shared_ptr<Widget> a(new Widget(1));
  // CHECK: sites.cpp:[[@LINE+1]]:29: warning: std::shared_ptr<Widget> takes 'new Widget'
  std::shared_ptr<Widget> c{new Widget};
  // CHECK: sites.cpp:[[@LINE+1]]:36: warning: std::shared_ptr<Widget> takes 'new Gadget'
  auto d = std::shared_ptr<Widget>(new Gadget(2));
  // CHECK: sites.cpp:[[@LINE+1]]:32: warning: std::shared_ptr<Widget> takes 'new Widget'
  take(std::shared_ptr<Widget>(new Widget(3)));
  // CHECK: sites.cpp:[[@LINE+2]]:13: warning: std::shared_ptr<Widget> is reset to 'new Widget': two allocations
  // CHECK: note: fix: assign std::make_shared<Widget>(4) builds the object and its control block in one allocation
  out.reset(new Widget(4));
  for (int item : items) {
    // CHECK: sites.cpp:[[@LINE+1]]:31: warning: std::shared_ptr<Widget> takes 'new Widget': two allocations on every iteration of the enclosing loop
    std::shared_ptr<Widget> e(new Widget(item));
  }
  // No fix: a deleter of its own, braces, an argument make_shared cannot forward.
  // CHECK: sites.cpp:[[@LINE+2]]:29: warning: std::shared_ptr<Widget> takes 'new Widget'
  // CHECK: note: it has a deleter of its own: std::make_shared cannot take one; not rewritten
  std::shared_ptr<Widget> f(new Widget(5), [](Widget *w) { delete w; });
  // CHECK: sites.cpp:[[@LINE+2]]:29: warning: std::shared_ptr<Widget> takes 'new Widget'
  // CHECK: note: use std::make_shared<Widget>; not rewritten automatically: the object is initialized with braces, and std::make_shared uses parentheses
  std::shared_ptr<Widget> g(new Widget{6});
  // CHECK: sites.cpp:[[@LINE+2]]:29: warning: std::shared_ptr<Widget> takes 'new Widget'
  // CHECK: note: use std::make_shared<Widget>; not rewritten automatically: an argument is a null pointer constant, which std::make_shared would forward as an integer
  std::shared_ptr<Widget> h(new Widget(0, 7));
  // CHECK: sites.cpp:[[@LINE+2]]:29: warning: std::shared_ptr<Widget> takes 'new Widget'
  // CHECK: note: use std::make_shared<Widget>; not rewritten automatically: an argument is a bit-field, which std::make_shared cannot take by reference
  std::shared_ptr<Widget> i(new Widget(b.low));
  // CHECK: sites.cpp:[[@LINE+2]]:31: warning: std::shared_ptr<Widget[]> takes 'new Widget[]': two allocations
  // CHECK: note: an array: std::make_shared<Widget[]>(n) (C++20) makes one block; not rewritten
  std::shared_ptr<Widget[]> j(new Widget[2]);
  // Silent: one allocation already, or none from the global heap.
  auto k = std::make_shared<Widget>(8);
  std::shared_ptr<Widget> l(std::make_unique<Widget>(9));
  std::shared_ptr<Pooled> m(new Pooled);
  Widget *raw = new Widget(10);
  std::shared_ptr<Widget> n(raw);
}
