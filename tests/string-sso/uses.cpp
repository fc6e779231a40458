// What a use that rules the pooled hl::string out is called in the note:
// as the statement reads (returned, copied into a variable), never as
// the constructor the compiler calls for it
// ("passed to basic_string()").
// RUN: %heaplint %s -- %libstdcxx -I%src_root/runtime/include | %FileCheck %s --implicit-check-not=warning: --implicit-check-not='basic_string()'
// RUN: %heaplint %s -- %libcxx -I%src_root/runtime/include | %FileCheck %s --implicit-check-not=warning: --implicit-check-not='basic_string()'
#include <string>

std::string returned(int n) {
  for (int i = 0; i < n; i++) {
    // CHECK: uses.cpp:[[@LINE+2]]:21: warning: std::string built from a string literal of 34 characters allocates on every iteration of the enclosing loop
    // CHECK: note: use hl::string (<heaplint/containers.hpp>), whose characters come from heaplint's pools; not rewritten automatically: it is returned at {{.*}}uses.cpp:[[@LINE+2]]{{$}}
    std::string t = "another string longer than fifteen";
    if (i == 2) return t;
  }
  return "";
}

std::size_t copied(int n) {
  std::size_t total = 0;
  for (int i = 0; i < n; i++) {
    // CHECK: uses.cpp:[[@LINE+2]]:21: warning: std::string built from a string literal of 34 characters allocates on every iteration of the enclosing loop
    // CHECK: note: use hl::string (<heaplint/containers.hpp>), whose characters come from heaplint's pools; not rewritten automatically: it is copied into 'c' at {{.*}}uses.cpp:[[@LINE+3]], a std::string{{$}}
    std::string b = "another string longer than fifteen";
    b += 'x';
    std::string c = b;
    total += c.size();
  }
  return total;
}
