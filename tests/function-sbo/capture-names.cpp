// The captures note names each capture from the AST, not by splitting the
// capture list's text: a comma inside an initializer's template arguments
// (std::array<char, 128>) or call (h(x, this, y)) does not start a capture,
// this and *this sit where the list writes them, and when a macro writes
// the list with this in it, the order cannot be told and no note is given.
//
// RUN: %heaplint %s -- %libstdcxx 2>&1 | %FileCheck %s --implicit-check-not=captures:
#include <array>
#include <functional>
#include <map>
#include <string>

long h(long a, const void *p, long b) { return a + b + (p != nullptr); }
#define CAPTURE_ALL(x, y) [x, this, y] { (void)x; (void)y; }
#define CAPTURE_VARS(x, y, z) [x, y, z] { (void)x; (void)y; (void)z; }

struct S {
  long m = 1, n = 2;
  void f(long x, long y) {
    std::string str = "a";
    // CHECK: capture-names.cpp:[[@LINE+2]]:31: warning:
    // CHECK: capture-names.cpp:[[@LINE+1]]:31: note: captures: a (128), this (8), s (32), x (8), y (8)
    std::function<void()> g = [a = std::array<char, 128>{}, this, s = str, &x, y] { (void)a; (void)s; (void)x; (void)y; };
    // CHECK: capture-names.cpp:[[@LINE+2]]:32: warning:
    // CHECK: capture-names.cpp:[[@LINE+1]]:32: note: captures: x (8), this (8), y (8), z (48)
    std::function<void()> g1 = [x, this, y, z = std::map<int, long>{}] { (void)x; (void)y; (void)z; };
    // CHECK: capture-names.cpp:[[@LINE+2]]:32: warning:
    // CHECK: capture-names.cpp:[[@LINE+1]]:32: note: captures: v (8), *this (16), w (16)
    std::function<void()> g2 = [v = h(x, this, y), *this, w = std::array<long, 2>{{1, 2}}] { (void)v; (void)w; };
    // Implicit captures follow the explicit ones, in order of first use.
    // CHECK: capture-names.cpp:[[@LINE+2]]:32: warning:
    // CHECK: capture-names.cpp:[[@LINE+1]]:32: note: captures: k (8), y (8), this (8)
    std::function<void()> g3 = [=, k = x] { (void)k; (void)y; (void)m; (void)n; };
    // CHECK: capture-names.cpp:[[@LINE+1]]:32: warning:
    std::function<void()> g4 = CAPTURE_ALL(x, y);
    // Without this, the variables are in the AST's order.
    long z = 3;
    // CHECK: capture-names.cpp:[[@LINE+2]]:32: warning:
    // CHECK: capture-names.cpp:[[@LINE+1]]:32: note: captures: x (8), y (8), z (8)
    std::function<void()> g5 = CAPTURE_VARS(x, y, z);
    g(); g1(); g2(); g3(); g4(); g5();
  }
};
