// What node-container reports: a local standard node container with the
// default allocator, inserted into in the body of a loop of its function.
// Everything else here is silent: a declaration alone, an insertion outside
// a loop, a lambda defined in a loop, a custom allocator, members, globals,
// static and thread_local locals, parameters, a type that depends on a
// template parameter.
//
// RUN: %heaplint %s -- -I%src_root/runtime/include %libstdcxx | %FileCheck %s --check-prefixes=CHECK,GNU --implicit-check-not=warning:
// RUN: %heaplint %s -- -I%src_root/runtime/include %libcxx | %FileCheck %s --check-prefixes=CHECK,LLVM --implicit-check-not=warning:
#include <forward_list>
#include <list>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

// Each of the eight containers, each way of inserting.
long each(int n, const std::string &word) {
  // CHECK: triggers.cpp:[[@LINE+4]]:18: warning: std::list<int> 'l' allocates a node on the global heap for every element inserted; it is inserted into in a loop at {{.*}}triggers.cpp:[[@LINE+6]] [node-container]
  // CHECK: triggers.cpp:[[@LINE+5]]:5: note: push_back() here is in the body of a for loop
  // CHECK: triggers.cpp:[[@LINE+2]]:18: note: each node holds one int (4 bytes) and the library's links to other nodes
  // CHECK: triggers.cpp:[[@LINE+1]]:18: note: fix: retype the declaration as hl::list<int> (<heaplint/containers.hpp>), which allocates its nodes from heaplint's pools and never calls the global operator new
  std::list<int> l;
  for (int i = 0; i < n; i++) {
    l.push_back(i);
    l.emplace_front(i);
  }
  // CHECK: triggers.cpp:[[@LINE+2]]:26: warning: std::forward_list<int> 'fl' {{.*}} in a loop at {{.*}}triggers.cpp:[[@LINE+3]] [node-container]
  // CHECK: triggers.cpp:[[@LINE+2]]:19: note: emplace_after() here is in the body of a while loop
  std::forward_list<int> fl;
  while (n-- > 0) fl.emplace_after(fl.before_begin(), n);
  // CHECK: triggers.cpp:[[@LINE+4]]:30: warning: std::map<int, std::string> 'm' {{.*}} in a loop at {{.*}}triggers.cpp:[[@LINE+5]] [node-container]
  // CHECK: triggers.cpp:[[@LINE+4]]:8: note: operator[] here is in the body of a do-while loop
  // GNU: triggers.cpp:[[@LINE+2]]:30: note: each node holds one std::pair<const int, std::string> (40 bytes) and the library's links to other nodes
  // LLVM: triggers.cpp:[[@LINE+1]]:30: note: each node holds one std::pair<const int, std::string> (32 bytes) and the library's links to other nodes
  std::map<int, std::string> m;
  do { m[n] = word; } while (++n < 3);
  // CHECK: triggers.cpp:[[@LINE+2]]:27: warning: std::multimap<int, int> 'mm' {{.*}} in a loop at {{.*}}triggers.cpp:[[@LINE+3]] [node-container]
  // CHECK: triggers.cpp:[[@LINE+2]]:28: note: emplace_hint() here is in the body of a range-based for loop
  std::multimap<int, int> mm;
  for (const auto &kv : m) mm.emplace_hint(mm.end(), kv.first, 1);
  // CHECK: triggers.cpp:[[@LINE+2]]:25: warning: std::set<std::string> 's' {{.*}} in a loop at {{.*}}triggers.cpp:[[@LINE+3]] [node-container]
  // CHECK: triggers.cpp:[[@LINE+2]]:31: note: insert() here is in the body of a for loop
  std::set<std::string> s;
  for (int i = 0; i < n; i++) s.insert(word);
  // CHECK: triggers.cpp:[[@LINE+2]]:22: warning: std::multiset<int> 'ms' {{.*}} in a loop at {{.*}}triggers.cpp:[[@LINE+3]] [node-container]
  // CHECK: triggers.cpp:[[@LINE+2]]:31: note: emplace() here is in the body of a for loop
  std::multiset<int> ms;
  for (int i = 0; i < n; i++) ms.emplace(i);
  // CHECK: triggers.cpp:[[@LINE+3]]:40: warning: std::unordered_map<std::string, int> 'um' {{.*}} in a loop at {{.*}}triggers.cpp:[[@LINE+4]] [node-container]
  // CHECK: triggers.cpp:[[@LINE+3]]:31: note: try_emplace() here is in the body of a for loop
  // CHECK: triggers.cpp:[[@LINE+1]]:40: note: each node holds one std::pair<const std::string, int> ({{40|32}} bytes) and the library's links to other nodes; the bucket array is allocated again as the table grows
  std::unordered_map<std::string, int> um;
  for (int i = 0; i < n; i++) um.try_emplace(word, i);
  // CHECK: triggers.cpp:[[@LINE+2]]:27: warning: std::unordered_set<int> 'us' {{.*}} in a loop at {{.*}}triggers.cpp:[[@LINE+3]] [node-container]
  // CHECK: triggers.cpp:[[@LINE+2]]:31: note: insert() here is in the body of a for loop
  std::unordered_set<int> us;
  for (int i = 0; i < n; i++) us.insert(i);
  // The first insertion in a loop is the one named; the message does not
  // depend on how many there are.
  // CHECK: triggers.cpp:[[@LINE+1]]:22: warning: std::map<int, int> 'two' {{.*}} in a loop at {{.*}}triggers.cpp:[[@LINE+3]] [node-container]
  std::map<int, int> two;
  two.insert_or_assign(0, 0);
  for (int i = 0; i < n; i++) two.insert_or_assign(i, i);
  for (int i = 0; i < n; i++) two.emplace(i, i);
  return (long)(l.size() + m.size() + mm.size() + s.size() + ms.size() + um.size() + us.size() + two.size());
}

// Declared alone, or inserted into only outside loops: not findings.
long quiet(int n) {
  std::map<int, int> declared;
  std::list<int> once;
  once.push_back(n);
  once.push_back(n + 1);
  // A for-init and a range-init run once; only the body repeats.
  std::set<int> init;
  for (init.insert(1); n > 0; n--) {
  }
  std::list<int> range;
  for (int x : (range.push_back(1), range)) n += x;
  return (long)(declared.size() + once.size() + init.size());
}

// A lambda defined in a loop runs its body when it is called, not on each
// iteration: not a finding. A lambda that loops itself is one.
long lambdas(int n) {
  std::unordered_set<int> defined_in_loop;
  for (int i = 0; i < n; i++) {
    auto add = [&defined_in_loop, i] { defined_in_loop.insert(i); };
    add();
  }
  // CHECK: triggers.cpp:[[@LINE+2]]:18: warning: std::list<int> 'looping' {{.*}} in a loop at {{.*}}triggers.cpp:[[@LINE+4]] [node-container]
  // CHECK: triggers.cpp:[[@LINE+3]]:33: note: push_back() here is in the body of a for loop
  std::list<int> looping;
  auto fill = [&] {
    for (int i = 0; i < n; i++) looping.push_back(i);
  };
  fill();
  // A lambda's own local is judged in the lambda.
  auto own = [n] {
    // CHECK: triggers.cpp:[[@LINE+1]]:19: warning: std::set<int> 'inner' {{.*}} in a loop at {{.*}}triggers.cpp:[[@LINE+2]] [node-container]
    std::set<int> inner;
    for (int i = 0; i < n; i++) inner.insert(i);
    return inner.size();
  };
  return (long)(defined_in_loop.size() + looping.size() + own());
}

// A container declared in the loop body and inserted into once per
// iteration still allocates on every iteration.
long per_iteration(int n) {
  long total = 0;
  for (int i = 0; i < n; i++) {
    // CHECK: triggers.cpp:[[@LINE+1]]:20: warning: std::list<int> 'scratch' {{.*}} in a loop at {{.*}}triggers.cpp:[[@LINE+2]] [node-container]
    std::list<int> scratch;
    scratch.push_back(i);
    total += (long)scratch.size();
  }
  return total;
}

// Not the default allocator, not a local variable: not findings.
template <class T> struct Counting : std::allocator<T> {
  template <class U> struct rebind {
    using other = Counting<U>;
  };
  Counting() = default;
  template <class U> Counting(const Counting<U> &) {}
};

std::map<int, int> global;

struct Holder {
  std::list<int> member;
  void fill(int n) {
    for (int i = 0; i < n; i++) member.push_back(i);
  }
};

long not_local(int n, std::list<int> parameter) {
  std::list<int, Counting<int>> custom;
  static std::set<int> kept;
  thread_local std::set<int> per_thread;
  for (int i = 0; i < n; i++) {
    custom.push_back(i);
    kept.insert(i);
    per_thread.insert(i);
    global[i] = i;
    parameter.push_back(i);
  }
  return (long)(custom.size() + kept.size() + per_thread.size() + parameter.size());
}

// In a template: a type that depends on its parameters is not judged (its
// member calls are resolved only when it is instantiated, and instantiations
// are not visited); a type that does not depend on them is.
template <class T> long in_template(int n) {
  std::map<T, int> dependent;
  for (int i = 0; i < n; i++) dependent.emplace(T(), i);
  // CHECK: triggers.cpp:[[@LINE+1]]:22: warning: std::map<int, int> 'concrete' {{.*}} in a loop at {{.*}}triggers.cpp:[[@LINE+2]] [node-container]
  std::map<int, int> concrete;
  for (int i = 0; i < n; i++) concrete.emplace(i, i);
  return (long)(dependent.size() + concrete.size());
}
template long in_template<long>(int);
