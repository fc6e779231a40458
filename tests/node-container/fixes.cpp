// node-container's fixes, checked on the rewritten text: every kind of
// declaration it retypes, and every case where it gives a note instead and
// leaves the text as it was. The same rewrites on libc++.
//
// RUN: cp %s %t.cpp
// RUN: %heaplint --fix %t.cpp -- %libstdcxx -I%src_root/runtime/include > %t.out 2> %t.err
// RUN: %FileCheck %s --check-prefix=FIXED < %t.cpp
// RUN: %FileCheck %s --check-prefix=NOTES < %t.out
// RUN: %FileCheck %s --check-prefix=SUMMARY < %t.err
// The result compiles against the runtime, and a second run changes nothing:
// what is left are the notes.
// RUN: %gxx %libstdcxx -fsyntax-only -I%src_root/runtime/include %t.cpp
// RUN: cp %t.cpp %t.first.cpp
// RUN: %heaplint --fix %t.cpp -- %libstdcxx -I%src_root/runtime/include > %t.again 2> %t.again.err
// RUN: diff %t.first.cpp %t.cpp
// RUN: %FileCheck %s --check-prefix=AGAIN < %t.again.err
// RUN: %FileCheck %s --check-prefix=AGAIN-NOTES --implicit-check-not=fix: < %t.again
//
// libc++: the same rewrites, and they compile there too.
// RUN: cp %s %t.llvm.cpp
// RUN: %heaplint --fix %t.llvm.cpp -- %libcxx -I%src_root/runtime/include > /dev/null 2> %t.llvm.err
// RUN: %FileCheck %s --check-prefix=SUMMARY-LLVM < %t.llvm.err
// RUN: %FileCheck %s --check-prefix=FIXED < %t.llvm.cpp
// RUN: %clangxx %libcxx -fsyntax-only -I%src_root/runtime/include %t.llvm.cpp
//
// The include goes after the last #include:
// FIXED: {{^}}#include <utility>
// FIXED-NEXT: {{^}}#include <heaplint/containers.hpp>
#include <cstddef>
#include <forward_list>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

struct ByLength {
  bool operator()(const std::string &a, const std::string &b) const { return a.size() < b.size(); }
};
struct Point {
  int x, y;
};
struct PointHash {
  std::size_t operator()(const Point &p) const { return std::hash<int>()(p.x * 31 + p.y); }
};
struct PointEq {
  bool operator()(const Point &a, const Point &b) const { return a.x == b.x && a.y == b.y; }
};
enum class Color { red, green };

// Every container, retyped to its alias; the arguments as written.
long retyped(int n, const std::string &word) {
  // FIXED: {{^}}  hl::list<int> l;
  std::list<int> l;
  // FIXED: {{^}}  hl::forward_list<std::string> fl;
  std::forward_list<std::string> fl;
  // FIXED: {{^}}  hl::map<int, std::string> m;
  std::map<int, std::string> m;
  // FIXED: {{^}}  hl::multimap<std::string, long> mm;
  std::multimap<std::string, long> mm;
  // FIXED: {{^}}  hl::set<Color> s;
  std::set<Color> s;
  // FIXED: {{^}}  hl::multiset<double> ms;
  std::multiset<double> ms;
  // The alias's default hash is hl::hash<Key>, which forwards to std::hash.
  // FIXED: {{^}}  hl::unordered_map<std::string, int> um;
  std::unordered_map<std::string, int> um;
  // FIXED: {{^}}  hl::unordered_set<Color> us;
  std::unordered_set<Color> us;
  for (int i = 0; i < n; i++) {
    l.push_back(i);
    fl.push_front(word);
    m[i] = word;
    mm.emplace(word, i);
    s.insert(i % 2 ? Color::red : Color::green);
    ms.insert(i * 0.5);
    um[word] += i;
    us.insert(Color::green);
  }
  return (long)(l.size() + m.size() + mm.size() + s.size() + ms.size() + um.size() + us.size());
}

// A comparator, a hash or an equality written by the user is kept, an
// explicit std::allocator is dropped; spaces and qualification as written.
long arguments(int n, const std::string &word) {
  // FIXED: {{^}}  hl::set<std::string, ByLength> by_length;
  std::set<std::string, ByLength> by_length;
  // FIXED: {{^}}  hl::unordered_map<std::string, int, std::hash<std::string>> std_hash;
  std::unordered_map<std::string, int, std::hash<std::string>> std_hash;
  // FIXED: {{^}}  hl::unordered_set<Point, PointHash, PointEq> points;
  std::unordered_set<Point, PointHash, PointEq> points;
  // FIXED: {{^}}  hl::map<int, int, std::greater<int>> explicit_allocator;
  std::map<int, int, std::greater<int>, std::allocator<std::pair<const int, int>>> explicit_allocator;
  // FIXED: {{^}}  hl::list<int> explicit_list_allocator;
  std::list<int, std::allocator<int> > explicit_list_allocator;
  // FIXED: {{^}}  hl::list<std::list<int> > nested;
  std::list<std::list<int> > nested;
  // FIXED: {{^}}  hl::map<long, long> qualified;
  ::std::map<long, long> qualified;
  using namespace std;
  // FIXED: {{^}}  hl::set<long> unqualified;
  set<long> unqualified;
  for (int i = 0; i < n; i++) {
    by_length.insert(word);
    std_hash.emplace(word, i);
    points.insert(Point{i, i});
    explicit_allocator.emplace(i, i);
    explicit_list_allocator.push_back(i);
    nested.emplace_back();
    qualified[i] = i;
    unqualified.insert(i);
  }
  return (long)(by_length.size() + std_hash.size() + points.size() + explicit_allocator.size() +
                explicit_list_allocator.size() + nested.size() + qualified.size() + unqualified.size());
}

// What the variable may do and still be retyped: any member call, a
// range-for, a capture by reference; constructors that take no container.
long local_uses(int n, const std::map<int, int> &source) {
  // FIXED: {{^}}  hl::map<int, int> m = {{[{][{]}}1, 2}};
  std::map<int, int> m = {{1, 2}};
  // FIXED: {{^}}  hl::list<int> sized(10, 1);
  std::list<int> sized(10, 1);
  // FIXED: {{^}}  hl::set<std::string, ByLength> with_comparator(ByLength{});
  std::set<std::string, ByLength> with_comparator(ByLength{});
  // FIXED: {{^}}  hl::map<int, int> ranged(source.begin(), source.end());
  std::map<int, int> ranged(source.begin(), source.end());
  auto add = [&m](int i) { m.emplace(i, i); };
  for (int i = 0; i < n; i++) {
    m.insert({i, i});
    sized.push_back(i);
    with_comparator.insert(std::to_string(i));
    ranged.emplace(i, i);
    add(i + n);
  }
  m.insert(source.begin(), source.end());
  m = {{3, 4}};
  // Iterators are the same types with either allocator.
  std::map<int, int>::iterator it = m.find(3);
  long sum = it == m.end() ? 0 : it->second;
  for (const auto &kv : m) sum += kv.second;
  return sum + (long)(sized.size() + with_comparator.size() + ranged.size());
}

void take(const std::map<int, int> &);
void take_set(std::set<int>);
std::map<int, int> make();
using Index = std::map<int, int>;
#define INT_LIST std::list<int>

// Notes instead of edits; the text stays as it was.
long notes(int n, std::map<int, int> &other, std::list<int> &other_list) {
  // FIXED: {{^}}  Index aliased;
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+1]]:9: note: use hl::map<int, int> (<heaplint/containers.hpp>), which allocates its nodes from heaplint's pools and never calls the global operator new; not rewritten automatically: its type is spelled through the alias 'Index', which other code may use; retype the alias
  Index aliased;
  // FIXED: {{^}}  INT_LIST from_macro;
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+1]]:12: note: use hl::list<int> {{.*}}; not rewritten automatically: its type is written by the macro 'INT_LIST'
  INT_LIST from_macro;
  // FIXED: {{^}}  auto deduced = std::set<int>{};
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+1]]:8: note: use hl::set<int> {{.*}}; not rewritten automatically: its type is deduced (auto) from its initializer
  auto deduced = std::set<int>{};
  // FIXED: {{^}}  std::list<int> first, second;
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+1]]:18: note: use hl::list<int> {{.*}}; not rewritten automatically: its declaration also declares 'second'; declare it on its own
  std::list<int> first, second;
  // FIXED: {{^}}  std::map<int, int> copy_of_other = other;
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+1]]:22: note: use hl::map<int, int> {{.*}}; not rewritten automatically: it is constructed from a std::map, and hl::map is a different type
  std::map<int, int> copy_of_other = other;
  // FIXED: {{^}}  std::map<int, int> made = make();
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+1]]:22: note: use hl::map<int, int> {{.*}}; not rewritten automatically: it is initialized with the std::map that make() returns, and hl::map is a different type
  std::map<int, int> made = make();
  // FIXED: {{^}}  std::map<int, int> passed;
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+1]]:22: note: use hl::map<int, int> {{.*}}; not rewritten automatically: it is passed to take() at {{.*}}fixes.cpp.tmp.cpp:[[@LINE+2]]
  std::map<int, int> passed;
  take(passed);
  // FIXED: {{^}}  std::set<int> by_value;
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+1]]:17: note: use hl::set<int> {{.*}}; not rewritten automatically: it is passed to take_set() at {{.*}}fixes.cpp.tmp.cpp:[[@LINE+2]]
  std::set<int> by_value;
  take_set(by_value);
  // FIXED: {{^}}  std::map<int, int> copied;
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+1]]:22: note: use hl::map<int, int> {{.*}}; not rewritten automatically: it is copied into 'copy' at {{.*}}fixes.cpp.tmp.cpp:[[@LINE+2]]
  std::map<int, int> copied;
  auto copy = copied;
  // FIXED: {{^}}  std::map<int, int> pointed;
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+1]]:22: note: use hl::map<int, int> {{.*}}; not rewritten automatically: it is taken by address at {{.*}}fixes.cpp.tmp.cpp:[[@LINE+2]]
  std::map<int, int> pointed;
  std::map<int, int> *pointer = &pointed;
  // FIXED: {{^}}  std::map<int, int> referred;
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+1]]:22: note: use hl::map<int, int> {{.*}}; not rewritten automatically: it is bound to 'reference' at {{.*}}fixes.cpp.tmp.cpp:[[@LINE+2]]
  std::map<int, int> referred;
  const std::map<int, int> &reference = referred;
  // FIXED: {{^}}  std::set<int> captured;
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+1]]:17: note: use hl::set<int> {{.*}}; not rewritten automatically: it is captured by a lambda at {{.*}}fixes.cpp.tmp.cpp:[[@LINE+2]]
  std::set<int> captured;
  auto by_copy = [captured] { return captured.size(); };
  // FIXED: {{^}}  std::set<int> captured_by_default;
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+1]]:17: note: use hl::set<int> {{.*}}; not rewritten automatically: it is captured by a lambda at {{.*}}fixes.cpp.tmp.cpp:[[@LINE+2]]
  std::set<int> captured_by_default;
  auto by_default = [=] { return captured_by_default.size(); };
  // FIXED: {{^}}  std::map<int, int> swapped;
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+1]]:22: note: use hl::map<int, int> {{.*}}; not rewritten automatically: its swap() at {{.*}}fixes.cpp.tmp.cpp:[[@LINE+2]] takes a std::map, and hl::map is a different type
  std::map<int, int> swapped;
  swapped.swap(other);
  // FIXED: {{^}}  std::map<int, int> assigned;
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+1]]:22: note: use hl::map<int, int> {{.*}}; not rewritten automatically: its operator=() at {{.*}}fixes.cpp.tmp.cpp:[[@LINE+2]] takes a std::map, and hl::map is a different type
  std::map<int, int> assigned;
  assigned = other;
  // FIXED: {{^}}  std::map<int, int> merged;
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+1]]:22: note: use hl::map<int, int> {{.*}}; not rewritten automatically: its merge() at {{.*}}fixes.cpp.tmp.cpp:[[@LINE+2]] takes a std::map, and hl::map is a different type
  std::map<int, int> merged;
  merged.merge(other);
  // FIXED: {{^}}  std::list<int> spliced;
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+1]]:18: note: use hl::list<int> {{.*}}; not rewritten automatically: its splice() at {{.*}}fixes.cpp.tmp.cpp:[[@LINE+2]] takes a std::list, and hl::list is a different type
  std::list<int> spliced;
  spliced.splice(spliced.end(), other_list);
  // A node handle is built on the allocator.
  // FIXED: {{^}}  std::map<int, int> extracted;
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+1]]:22: note: use hl::map<int, int> {{.*}}; not rewritten automatically: its extract() at {{.*}}fixes.cpp.tmp.cpp:[[@LINE+2]] returns a type that names its std::allocator
  std::map<int, int> extracted;
  auto node = extracted.extract(1);
  // FIXED: {{^}}  std::map<int, int> given_nodes;
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+1]]:22: note: use hl::map<int, int> {{.*}}; not rewritten automatically: its insert() at {{.*}}fixes.cpp.tmp.cpp:[[@LINE+2]] takes a type that names its std::allocator
  std::map<int, int> given_nodes;
  for (int i = 0; i < n; i++) given_nodes.insert(other.extract(i));
  // FIXED: {{^}}  std::map<int, int> allocator_asked;
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+1]]:22: note: use hl::map<int, int> {{.*}}; not rewritten automatically: its get_allocator() at {{.*}}fixes.cpp.tmp.cpp:[[@LINE+2]] returns a std::allocator
  std::map<int, int> allocator_asked;
  std::allocator<std::pair<const int, int>> allocator = allocator_asked.get_allocator();
  for (int i = 0; i < n; i++) {
    aliased[i] = i;
    from_macro.push_back(i);
    deduced.insert(i);
    first.push_back(i);
    copy_of_other[i] = i;
    made[i] = i;
    passed[i] = i;
    by_value.insert(i);
    copied[i] = i;
    pointed[i] = i;
    referred[i] = i;
    captured.insert(i);
    captured_by_default.insert(i);
    swapped[i] = i;
    assigned[i] = i;
    merged[i] = i;
    spliced.push_back(i);
    extracted[i] = i;
    allocator_asked[i] = i;
  }
  // FIXED: {{^}}  for (std::list<int> each : {std::list<int>{1}})
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+1]]:23: note: use hl::list<int> {{.*}}; not rewritten automatically: it is the variable of a range-based for, copied from each element
  for (std::list<int> each : {std::list<int>{1}})
    for (int i = 0; i < n; i++) each.push_back(i);
  return (long)(copy.size() + pointer->size() + reference.size() + by_copy() + by_default() + node.empty() +
                (allocator == std::allocator<std::pair<const int, int>>()) + second.size());
}

std::map<int, int> returned(int n) {
  // FIXED: {{^}}  std::map<int, int> result;
  // NOTES: fixes.cpp.tmp.cpp:[[@LINE+1]]:22: note: use hl::map<int, int> {{.*}}; not rewritten automatically: it is returned at {{.*}}fixes.cpp.tmp.cpp:[[@LINE+3]]
  std::map<int, int> result;
  for (int i = 0; i < n; i++) result[i] = i;
  return result;
}

// SUMMARY: 42 warnings in 1 file (libstdc++, x86_64); 20 fixed in 1 file
// SUMMARY-LLVM: 42 warnings in 1 file (libc++, x86_64); 20 fixed in 1 file
// AGAIN: 22 warnings in 1 file (libstdc++, x86_64); 0 fixed in 0 files
// AGAIN-NOTES-COUNT-22: not rewritten automatically
