// A copy of a class that holds a wrapper (issue 12): eventpp's AnyId keeps
// each event in a std::any, built by a converting constructor at the
// user's call (dispatcher.append(std::string("hello"))), and the
// dispatcher, a template, copies the event whole into its map as the key.
// The class's implicit copy constructor copies the std::any, which
// allocates again when the target is on the heap. heaplint follows the
// instantiated body of the template the call calls, and reports the copy
// once, at the class (where the compiler defines that constructor), with
// the store, the copy and the call.
//
// RUN: %heaplint --config-file=%S/Inputs/copies-only.yaml %s -- %libstdcxx -isystem %probes | %FileCheck %s --check-prefix=GNU --implicit-check-not=warning:
// RUN: %heaplint --config-file=%S/Inputs/copies-only.yaml %s -- %libcxx -isystem %probes | %FileCheck %s --check-prefix=LLVM --implicit-check-not=warning:
//
// Measured: each case prints "<line of its class> <allocations of its
// copies>" (counted around the wrapper member, inside the implicit copy);
// heaplint must warn on exactly the classes whose copies allocated.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gxx %libstdcxx -O0 -w -isystem %probes %s -o %t/gnu && %t/gnu > %t/gnu.measured
// RUN: %heaplint -v --config-file=%S/Inputs/copies-only.yaml %s -- %libstdcxx -isystem %probes > %t/gnu.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 12 class-copies-libstdc++ %t/gnu.measured %t/gnu.heaplint
// RUN: %clangxx %libcxx -O0 -w -isystem %probes %s -o %t/llvm && %t/llvm > %t/llvm.measured
// RUN: %heaplint -v --config-file=%S/Inputs/copies-only.yaml %s -- %libcxx -isystem %probes > %t/llvm.heaplint 2>&1
// RUN: %groundtruth compare --min-sites 12 class-copies-libc++ %t/llvm.measured %t/llvm.heaplint
#include <count_new.hpp>

#include <any>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

// What the ids' implicit copies allocated: Begin is copied just before the
// wrapper member, End just after it.
static unsigned long copies_, mark_;
struct Begin {
  Begin() {}
  Begin(const Begin &) { mark_ = hl_count::allocations(); }
};
struct End {
  End() {}
  End(const End &) { copies_ += hl_count::allocations() - mark_; }
};

// eventpp's AnyId: an id whose converting constructor keeps the value in a
// std::any; its copy constructor is the implicit one, which copies the any.
#define ID(Name)                                                                  \
  struct Name {                                                                   \
    static constexpr int line = __LINE__;                                         \
    template <class T> Name(const T &v) : key(sizeof v), value(v) {}              \
    bool operator<(const Name &o) const { return key < o.key; }                   \
    long key;                                                                     \
    Begin b;                                                                      \
    std::any value;                                                               \
    End e;                                                                        \
  }
// GNU: class-copies.cpp:[[@LINE+7]]:4: warning: copying IdString allocates again: its implicit copy constructor copies the std::any member 'value', whose target (a value of type 'const std::basic_string<char>', 32 bytes) is stored on the heap by libstdc++ [function-copy]
// GNU-NEXT: [[@LINE+6]] | ID(IdString);
// GNU: class-copies.cpp:[[@LINE+5]]:1: note: its target is stored here: 32 bytes (align 8) exceeds libstdc++'s inline buffer of 8 bytes
// GNU: class-copies.cpp:{{[0-9]+}}:39: note: copied here, as the key, when the container does not hold it yet
// GNU-NEXT: {{.*}} | void append(const Event &event) { ++lists[event]; }
// GNU: class-copies.cpp:{{[0-9]+}}:3: note: copied when this call hands it over
// GNU-NEXT: {{.*}} | ds.append(std::string("hello"));
ID(IdString);
// GNU: class-copies.cpp:[[@LINE+4]]:4: warning: copying IdFour allocates again: {{.*}} (a value of type 'const Four', 32 bytes) is stored on the heap by libstdc++
// LLVM: class-copies.cpp:[[@LINE+3]]:4: warning: copying IdFour allocates again: {{.*}} (a value of type 'const Four', 32 bytes) is stored on the heap by libc++
// LLVM: note: copied here
// LLVM-NEXT: {{.*}} | void enqueue(const Event &event) { events.push_back(event); }
ID(IdFour);
ID(IdInt);
ID(IdKept);
ID(IdRef);
ID(IdBuilt);
ID(IdSizeof);
// A copy constructor of its own that does not copy the value: nothing to say.
struct IdWritten {
  static constexpr int line = __LINE__;
  template <class T> IdWritten(const T &v) : key(sizeof v), value(v) {}
  IdWritten(const IdWritten &o) : key(o.key) {}
  bool operator<(const IdWritten &o) const { return key < o.key; }
  long key;
  Begin b;
  std::any value;
  End e;
};

// An id keeping a callable in a std::function: 24 bytes are on the heap with
// libstdc++ (16-byte buffer), inline with libc++.
// GNU: class-copies.cpp:[[@LINE+2]]:8: warning: copying Task allocates again: its implicit copy constructor copies the std::function<void ()> member 'fn', whose target (a lambda, 24 bytes) is stored on the heap by libstdc++ [function-copy]
// GNU: class-copies.cpp:[[@LINE+2]]:37: note: its target is stored here: 24 bytes (align 8) exceeds libstdc++'s inline buffer of 16 bytes
struct Task { static constexpr int line = __LINE__;
  template <class F> Task(F f) : fn(f) {}
  bool operator<(const Task &) const { return false; }
  Begin b;
  std::function<void()> fn;
  End e;
};

// eventpp's dispatcher: the event is taken by const reference and copied
// into the map's node as its key (operator[] inserts it when new).
template <class Event> struct Dispatcher {
  std::map<Event, int> lists;
  void append(const Event &event) { ++lists[event]; }
};
// One that keeps the events in a vector.
template <class Event> struct Queue {
  std::vector<Event> events;
  void enqueue(const Event &event) { events.push_back(event); }
};
// One that looks the event up without copying it.
template <class Event> struct Finder {
  std::map<Event, int> lists;
  int find(const Event &event) { auto it = lists.find(event); return it == lists.end() ? 0 : it->second; }
};

// Takes in something else than the event: a reference to it, a value
// built from it, its size.
template <class Event> struct Refs {
  std::vector<std::reference_wrapper<const Event>> refs;
  void keep(const Event &event) { refs.emplace_back(event); }
};
struct Summary {
  template <class E> Summary(const E &e) : key(e.key) {}
  long key;
};
template <class Event> struct Summaries {
  std::vector<Summary> all;
  void keep(const Event &event) { all.emplace_back(event); }
};
template <class Event> struct Sizes {
  unsigned long n = 0;
  void keep(const Event &event) { n += sizeof(Event(event)); }
};

// The base of a class that holds the any: a vector of bases slices it off.
struct IdBase { long key; bool operator<(const IdBase &o) const { return key < o.key; } };
struct IdDerived : IdBase {
  static constexpr int line = __LINE__;
  template <class T> IdDerived(const T &v) : IdBase{sizeof v}, value(v) {}
  Begin b;
  std::any value;
  End e;
};
template <class Event> struct Bases {
  std::vector<IdBase> all;
  void keep(const Event &event) { all.push_back(event); }
};

// A constructor whose body empties what its initializer stored.
struct IdReset {
  static constexpr int line = __LINE__;
  template <class T> IdReset(const T &v) : key(sizeof v), value(v) { value.reset(); }
  bool operator<(const IdReset &o) const { return key < o.key; }
  long key;
  Begin b;
  std::any value;
  End e;
};

// An explicit specialization that writes a copy constructor of its own,
// which does not copy the any.
template <class Tag> struct Tagged {
  template <class T> Tagged(const T &v) : key(sizeof v), value(v) {}
  bool operator<(const Tagged &o) const { return key < o.key; }
  long key;
  Begin b;
  std::any value;
  End e;
};
template <> struct Tagged<int> {
  static constexpr int line = __LINE__;
  template <class T> Tagged(const T &v) : key(sizeof v), value(v) {}
  Tagged(const Tagged &o) : key(o.key) {}
  bool operator<(const Tagged &o) const { return key < o.key; }
  long key;
  Begin b;
  std::any value;
  End e;
};

struct Four { long a, b, c, d; };

static void begin() { copies_ = 0; }
static void end(int line, const char *label) { std::printf("%d %lu %s\n", line, copies_, label); }

int main() {
  long a = 1, b = 2, c = 3;
  Dispatcher<IdString> ds;
  begin();
  ds.append(std::string("hello"));
  end(IdString::line, "AnyId of a std::string copied into a map");

  Queue<IdFour> qf;
  begin();
  qf.enqueue(Four{1, 2, 3, 4});
  end(IdFour::line, "AnyId of 32 bytes copied into a vector");

  Dispatcher<IdInt> di;
  begin();
  di.append(3);
  end(IdInt::line, "AnyId of an int");

  Finder<IdKept> fk;
  begin();
  (void)fk.find(Four{1, 2, 3, 4});
  end(IdKept::line, "AnyId of 32 bytes looked up, never copied");

  Dispatcher<IdWritten> dw;
  begin();
  dw.append(Four{1, 2, 3, 4});
  end(IdWritten::line, "a copy constructor of its own, which does not copy the value");

  Dispatcher<Task> dt;
  begin();
  dt.append([a, b, c] { (void)(a + b + c); });
  end(Task::line, "a task of 24 bytes copied into a map");
  Refs<IdRef> rr;
  begin();
  rr.keep(Four{1, 2, 3, 4});
  end(IdRef::line, "a reference to the event kept, no copy");

  Summaries<IdBuilt> sb;
  begin();
  sb.keep(Four{1, 2, 3, 4});
  end(IdBuilt::line, "a value built from the event kept, no copy");

  Sizes<IdSizeof> sz;
  begin();
  sz.keep(Four{1, 2, 3, 4});
  end(IdSizeof::line, "a copy under sizeof, never made");

  Bases<IdDerived> bd;
  begin();
  bd.keep(Four{1, 2, 3, 4});
  end(IdDerived::line, "a vector of the base class: the any is sliced off");

  Dispatcher<IdReset> dr;
  begin();
  dr.append(Four{1, 2, 3, 4});
  end(IdReset::line, "the constructor's body empties the any");

  Dispatcher<Tagged<int>> dg;
  begin();
  dg.append(Four{1, 2, 3, 4});
  end(Tagged<int>::line, "an explicit specialization with a copy constructor of its own");
  return 0;
}
