#pragma once
#include <functional>
#include <vector>

#if defined(EXTRA)
#include <map>
#endif

// Included by two translation units: its fix is made once.
inline long run_all(long a, long b, long c) {
  std::vector<std::function<long()>> jobs;
  jobs.push_back([a, b, c] { return a + b + c; });
  long sum = 0;
  for (auto &job : jobs) sum += job();
  return sum;
}
