// Linked into a program, prints how many times it called the global
// operator new, when it exits (on stderr, after everything it printed).
#include <count_new.hpp>

#include <cstdio>

__attribute__((destructor)) static void report_allocations() {
  std::fprintf(stderr, "operator new calls: %lu\n", hl_count::allocations());
}
