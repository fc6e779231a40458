// heaplint calibrate's measurement of the shared states a library makes
// (std::promise, std::packaged_task, std::async, std::thread), in the one
// part of the probe program that defines main(): <future> and <thread> are
// heavy to compile in every part. After probe.hpp (allocations(), escape()).
#ifndef HEAPLINT_PROBES_SHARED_HPP
#define HEAPLINT_PROBES_SHARED_HPP

#include <future>
#include <thread>

namespace hl_probe {

// What building a shared state costs: std::promise, std::packaged_task,
// std::async (launch::async, then launch::deferred), std::thread, each once
// after a first thread has run (its one-time setup is not the state's).
template <class F> void shared_one(const char *name, F f) {
  unsigned long before = allocations();
  f();
  std::printf("shared %s %lu\n", name, allocations() - before);
  std::fflush(stdout);
}

inline void shared_states() {
  std::thread([] {}).join();
  shared_one("std::promise", [] { std::promise<int> p; escape(p); });
  shared_one("std::packaged_task", [] { std::packaged_task<int()> t([] { return 1; }); escape(t); });
  shared_one("std::async", [] { std::async(std::launch::async, [] { return 1; }).get(); });
  shared_one("std::async-deferred", [] { std::async(std::launch::deferred, [] { return 1; }).get(); });
  shared_one("std::thread", [] { std::thread([] {}).join(); });
}

}  // namespace hl_probe

#endif
