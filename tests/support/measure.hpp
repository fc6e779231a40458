// The measuring half of a lit test whose program counts each site's
// global operator new calls: MEASURE(line, label, statement) runs the
// statement and prints "<line> <count> <label>", the line heaplint should
// report when the count is not 0, as `hl-groundtruth compare` reads it.
#ifndef HEAPLINT_TESTS_MEASURE_HPP
#define HEAPLINT_TESTS_MEASURE_HPP

#include <count_new.hpp>

#include <cstdio>

static void site(int line, unsigned long count, const char *label) { std::printf("%d %lu %s\n", line, count, label); }
#define MEASURE(line, label, ...)                                        \
  do {                                                                   \
    unsigned long before_ = hl_count::allocations();                     \
    __VA_ARGS__;                                                         \
    site(line, hl_count::allocations() - before_, label);                \
  } while (0)

#endif
