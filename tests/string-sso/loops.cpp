// In the body of a loop a construction allocates on every iteration; an
// assignment does only when the string is new on every iteration (declared
// in the loop): a string from outside keeps the room the first one made.
// The same sites in C++11 and C++14, where a temporary is copied (the copy
// elided) into the variable.
//
// RUN: %heaplint %s -- %libstdcxx | %FileCheck %s --implicit-check-not=warning:
// RUN: %heaplint %s -- -std=c++11 | %FileCheck %s --implicit-check-not=warning:
// RUN: %heaplint %s -- -std=c++14 -stdlib=libc++ | %FileCheck %s --check-prefix=LLVM --implicit-check-not=warning:
#include <string>
#include <vector>

void take(const std::string &);

void loops(const std::vector<int> &items, int n) {
  std::string outside;
  for (int item : items) {
    // CHECK: loops.cpp:[[@LINE+3]]:21: warning: std::string built from a string literal of 16 characters allocates on every iteration of the enclosing loop: libstdc++ keeps at most 15 characters inline [string-sso]
    // CHECK: loops.cpp:[[@LINE+3]]:21: warning: std::string built from a string literal of 23 characters allocates on every iteration of the enclosing loop: libstdc++
    // LLVM: loops.cpp:[[@LINE+2]]:21: warning: std::string built from a string literal of 23 characters allocates on every iteration of the enclosing loop: libc++ keeps at most 22 characters inline [string-sso]
    std::string s = "0123456789012345";
    std::string t = "01234567890123456789012";
    // CHECK: loops.cpp:[[@LINE+1]]:5: warning: assigning a string literal of 16 characters to std::string 'outside' allocates unless it has the room already: libstdc++
    outside = "0123456789012345";
    std::string inside;
    // CHECK: loops.cpp:[[@LINE+1]]:5: warning: assigning a string literal of 16 characters to std::string 'inside' allocates on every iteration of the enclosing loop unless it has the room already
    inside = "0123456789012345";
    // CHECK: loops.cpp:[[@LINE+1]]:10: warning: std::string built from a concatenation of 17 characters allocates on every iteration of the enclosing loop
    take(std::string("0123456789") + "0123456");
  }
  int i = 0;
  while (i++ < n) {
    // CHECK: loops.cpp:[[@LINE+1]]:10: warning: std::string built from a string literal of 16 characters allocates on every iteration of the enclosing loop
    take("0123456789012345");
  }
  // CHECK: loops.cpp:[[@LINE+1]]:24: warning: std::string built from a string literal of 16 characters allocates: libstdc++
  for (std::string s = "0123456789012345"; i < n; i++) {
    // A lambda's body runs when it is called, not per iteration.
    // CHECK: loops.cpp:[[@LINE+1]]:28: warning: std::string built from a string literal of 16 characters allocates: libstdc++
    auto later = [] { take("0123456789012345"); };
    later();
  }
  do {
    // CHECK: loops.cpp:[[@LINE+1]]:10: warning: std::string built from a string literal of 16 characters allocates: libstdc++
    take("0123456789012345");
  } while (0);
}
