// Which copies heaplint knows the target of: a local, a by-value parameter
// of a function only this file can call, a member of a class only this file
// defines — when every value that reaches it is an allocating construction
// and nothing may change it in between. Every other copy stays silent.
//
// RUN: %heaplint --config-file=%S/Inputs/copies-only.yaml %s -- %libstdcxx | %FileCheck %s --implicit-check-not=warning:
// RUN: %heaplint --config-file=%S/Inputs/copies-only.yaml %s -- %libcxx | %FileCheck %s --implicit-check-not=warning:
#include <functional>
#include <utility>

struct X { void on(int, long); };
using cb_t = std::function<void(int)>;
void run(cb_t cb);
void take_ref(cb_t &cb);
cb_t make();
cb_t global;
struct Ints { int *b, *e; int *begin() { return b; } int *end() { return e; } };
Ints ints_of_range(cb_t cb);

#define BIG(x) std::bind(&X::on, x, std::placeholders::_1, 7L)

// ---- members ----

// Assigned only allocating targets in this file: its copies are known.
struct Armed {
  cb_t m;
  void arm(X *x) { m = BIG(x); }
  void rearm(X *x, long k) { m = [x, k, k2 = k, k3 = k](int) { (void)(x + k + k2 + k3); }; }
  // CHECK: reach.cpp:[[@LINE+1]]:23: warning: copying this std::function<void (int)> allocates again: its target (a std::bind result, 32 bytes)
  cb_t get() { return m; }
  // CHECK: reach.cpp:[[@LINE+1]]:21: warning: copying {{.*}} allocates again: its target
  void pass() { run(m); }
};

// Also reset to nullptr somewhere: a copy may find it empty.
struct Reset {
  cb_t m;
  void arm(X *x) { m = BIG(x); }
  void clear() { m = nullptr; }
  cb_t get() { return m; }
};

// Also assigned a wrapper heaplint cannot follow.
struct Unknown {
  cb_t m;
  void arm(X *x) { m = BIG(x); }
  void set(const cb_t &c) { m = c; }
  cb_t get() { return m; }
};

// Initialized in a constructor: from an allocating construction, or not.
struct Built {
  cb_t m;
  explicit Built(X *x) : m(BIG(x)) {}
  // CHECK: reach.cpp:[[@LINE+1]]:23: warning: copying {{.*}} allocates again: its target
  cb_t get() { return m; }
};
struct BuiltFrom {
  cb_t m;
  explicit BuiltFrom(cb_t c) : m(std::move(c)) {}
  cb_t get() { return m; }
};

// An aggregate: its member is set by braces heaplint does not follow.
struct Agg {
  cb_t m;
  cb_t get() const { return m; }
};
Agg agg(X *x) { return Agg{BIG(x)}; }

// ---- parameters ----

namespace {
// Every call passes an allocating construction: the copy inside is known.
void keep(cb_t cb) {
  // CHECK: reach.cpp:[[@LINE+1]]:13: warning: copying {{.*}} allocates again: its target (a std::bind result, 32 bytes)
  cb_t copy(cb);
  copy(1);
}
// One call passes something unknown.
void keep_some(cb_t cb) { cb_t copy(cb); copy(1); }
// Its address escapes: calls through the pointer are not seen.
void keep_ptr(cb_t cb) { cb_t copy(cb); copy(1); }
}  // namespace

// Any other file may call it with anything.
void keep_extern(cb_t cb) { cb_t copy(cb); copy(1); }

void (*escape)(cb_t) = keep_ptr;

void params(X *x, cb_t unknown) {
  keep(BIG(x));
  cb_t local = BIG(x);
  // CHECK: reach.cpp:[[@LINE+1]]:8: warning: copying {{.*}} allocates again: its target
  keep(local);
  keep_some(BIG(x));
  keep_some(unknown);
  keep_ptr(BIG(x));
  keep_extern(BIG(x));
  // Copies of a parameter nobody follows: silent.
  run(unknown);
}

// Moved into a parameter, bound to a const reference parameter: the value
// the caller holds reaches the callee.
namespace {
void keep_moved(cb_t cb) {
  // CHECK: reach.cpp:[[@LINE+1]]:13: warning: copying {{.*}} allocates again: its target (a std::bind result, 32 bytes)
  cb_t copy(cb);
  copy(1);
}
void keep_cref(const cb_t &cb) {
  // CHECK: reach.cpp:[[@LINE+1]]:13: warning: copying {{.*}} allocates again: its target (a std::bind result, 32 bytes)
  cb_t copy(cb);
  copy(1);
}
// A temporary bound to it: the construction that makes the temporary.
void keep_cref_temp(const cb_t &cb) {
  // CHECK: reach.cpp:[[@LINE+1]]:10: warning: copying {{.*}} allocates again: its target (a std::bind result, 32 bytes)
  cb_t c(cb);
  c(1);
}
// One call binds something unknown, or a variable moved from before.
void keep_cref_some(const cb_t &cb) { cb_t copy(cb); copy(1); }
void keep_moved_twice(cb_t cb) { cb_t copy(cb); copy(1); }
}  // namespace

void moves_and_refs(X *x, const cb_t &unknown) {
  cb_t a = BIG(x);
  keep_moved(std::move(a));
  cb_t b = BIG(x);
  keep_cref(b);
  keep_cref_temp(BIG(x));
  cb_t c = BIG(x);
  keep_cref_some(c);
  keep_cref_some(unknown);
  cb_t d = BIG(x);
  cb_t e = std::move(d);
  keep_moved_twice(std::move(d));
  // Moved from: empty, its copies silent.
  run(d);
  e(1);
}

// A member of a class template: the values stored into any of its
// specializations' member.
template <class T> struct Slot {
  cb_t m;
  // CHECK: reach.cpp:[[@LINE+1]]:23: warning: copying {{.*}} allocates again: its target (a std::bind result, 32 bytes)
  cb_t get() { return m; }
};
template <class T> struct SlotSome {
  cb_t m;
  cb_t get() { return m; }
};
void slots(X *x, cb_t unknown) {
  Slot<int> s;
  s.m = BIG(x);
  Slot<long> t;
  t.m = BIG(x);
  (void)s.get(), (void)t.get();
  SlotSome<int> u;
  u.m = BIG(x);
  SlotSome<long> w;
  w.m = unknown;
  (void)u.get(), (void)w.get();
}

// ---- locals ----

void locals(X *x, bool c) {
  // Emptied, moved from, swapped, passed by non-const reference: silent.
  cb_t a = BIG(x);
  a = nullptr;
  run(a);
  cb_t b = BIG(x);
  cb_t stolen = std::move(b);
  run(b);
  cb_t s1 = BIG(x), s2;
  s1.swap(s2);
  run(s1);
  cb_t r = BIG(x);
  take_ref(r);
  run(r);
  // Declared empty, set on some path: the copy may find it empty, or
  // holding the heap-stored target.
  cb_t later;
  if (c) later = BIG(x);
  // CHECK: reach.cpp:[[@LINE+1]]:7: warning: copying this std::function<void (int)> may allocate: it may hold a std::bind result (32 bytes), which {{libstdc\+\+|libc\+\+}} stores on the heap [function-copy]
  run(later);
  // Assigned an unknown wrapper: silent.
  cb_t u = BIG(x);
  u = make();
  run(u);
  // Its address taken: silent.
  cb_t p = BIG(x);
  cb_t *pp = &p;
  run(p);
  // A reference, a global, a call's result: not followed.
  cb_t &ref = p;
  run(ref);
  run(global);
  run(make());
  // A conditional initializer: not followed.
  cb_t q = c ? cb_t(BIG(x)) : cb_t();
  run(q);
  // Reassigned, every time with an allocating construction: still known.
  cb_t k = BIG(x);
  k = [x, y = x, z = x, w = x](int) { (void)(x + (y - z) + (w - x)); };
  k = BIG(x);
  // CHECK: reach.cpp:[[@LINE+1]]:7: warning: copying {{.*}} allocates again: its target
  run(k);
  (void)pp, (void)stolen;
}

// Functions the library's templates may call unseen: a constructor (through
// std::make_unique), a lambda (through a std::function), an operator.
namespace {
struct Holder {
  explicit Holder(cb_t cb) { cb_t copy(cb); copy(1); }
};
struct Functor {
  void operator()(cb_t cb) const { cb_t copy(cb); copy(1); }
};
}  // namespace
void unseen_calls(X *x) {
  Holder h(BIG(x));
  auto lambda = [](cb_t cb) { cb_t copy(cb); copy(1); };
  lambda(BIG(x));
  Functor{}(BIG(x));
}

// ---- the paths to a local's copies ----

void assigned_on_every_path(X *x, bool c, int n) {
  // Declared empty, assigned in each branch before the copy: known.
  cb_t both;
  if (c)
    both = BIG(x);
  else
    both = [x, y = x, z = x, w = x](int) { (void)(x + (y - z) + (w - x)); };
  // CHECK: reach.cpp:[[@LINE+1]]:7: warning: copying {{.*}} allocates again: its target (a {{.*}}, 32 bytes) is stored on the heap by {{.*}}, as is the other target it may hold [function-copy]
  run(both);
  // A branch that returns leaves no path without the assignment.
  cb_t or_return;
  if (c) {
    or_return = BIG(x);
  } else {
    return;
  }
  // CHECK: reach.cpp:[[@LINE+1]]:7: warning: copying {{.*}} allocates again: its target (a std::bind result, 32 bytes)
  run(or_return);
  // One branch heap-stored, the other kept inline: it may allocate.
  cb_t mixed;
  if (n > 1)
    mixed = BIG(x);
  else
    mixed = [](int) {};
  // CHECK: reach.cpp:[[@LINE+1]]:7: warning: copying {{.*}} may allocate: it may hold a std::bind result (32 bytes), which {{.*}} stores on the heap, and 1 other target kept inline [function-copy]
  run(mixed);
  // Assigned and copied in each iteration.
  for (int i = 0; i < n; i++) {
    cb_t each;
    each = BIG(x);
    // CHECK: reach.cpp:[[@LINE+1]]:9: warning: copying {{.*}} allocates again on every iteration of the enclosing loop: its target (a std::bind result, 32 bytes)
    run(each);
  }
  // Only an inline target before the copy; the heap-stored one comes after
  // the last read: silent.
  cb_t after = [](int) {};
  run(after);
  after = BIG(x);
  // Only assigned after the copy, or only inside a loop that may not run:
  // empty or inline at the copy, silent.
  cb_t empty_then;
  run(empty_then);
  empty_then = BIG(x);
  // A lambda capturing it by reference reads it whenever it is called:
  // it may find any value, including one assigned after; silent when one of
  // them is unknown.
  cb_t by_ref = [](int) {};
  auto reader = [&by_ref] { run(by_ref); };
  by_ref = make();
  reader();
}

void paths_through_statements(X *x, int k, bool c) {
  // A switch: a case entered from the condition or by falling through.
  cb_t sw = [](int) {};
  switch (k) {
  case 1:
    sw = BIG(x);
    [[fallthrough]];
  case 2:
    // CHECK: reach.cpp:[[@LINE+1]]:9: warning: copying {{.*}} may allocate: it may hold a std::bind result (32 bytes), which {{.*}} stores on the heap, and 1 other target kept inline [function-copy]
    run(sw);
    break;
  }
  // A case that copies before it assigns: silent.
  cb_t first = [](int) {};
  switch (k) {
  case 0:
    run(first);
    first = BIG(x);
    break;
  }
  // Captured by reference: the lambda's body reads it when called, after
  // the inline target is assigned: silent.
  cb_t by_ref = BIG(x);
  auto later = [&by_ref] { run(by_ref); };
  by_ref = [](int) {};
  later();
  // thread_local: a value from an earlier call may be there: not followed.
  thread_local cb_t kept = BIG(x);
  run(kept);
  kept = [](int) {};
  // A try block copies before it assigns: silent.
  cb_t tried = [](int) {};
  try {
    run(tried);
    tried = BIG(x);
  } catch (...) {
  }
  // do ... while (0) runs its body once: silent.
  cb_t once = [](int) {};
  do {
    run(once);
    once = BIG(x);
  } while (0);
  // ... and a break leaves it before the assignment: it may allocate.
  cb_t left = [](int) {};
  do {
    if (c) break;
    left = BIG(x);
  } while (0);
  // CHECK: reach.cpp:[[@LINE+1]]:7: warning: copying {{.*}} may allocate: it may hold a std::bind result (32 bytes), which {{.*}} stores on the heap, and 1 other target kept inline [function-copy]
  run(left);
  // A for loop's init-statement runs once, before the loop assigns: silent.
  cb_t before = [](int) {};
  for (cb_t copy = before; k < 3; k++) {
    copy(1);
    before = BIG(x);
  }
  // Its condition, increment and body run again after it: they may.
  cb_t looped = [](int) {};
  for (int i = 0; i < k; i++) {
    // CHECK: reach.cpp:[[@LINE+1]]:9: warning: copying {{.*}} may allocate on every iteration of the enclosing loop: it may hold a std::bind result (32 bytes)
    run(looped);
    looped = BIG(x);
  }
  // A range-based for's range is made once, before its body: silent.
  cb_t ranged = [](int) {};
  for (int i : ints_of_range(ranged)) {
    (void)i;
    ranged = BIG(x);
  }
}
