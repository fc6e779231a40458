// A third-party API (on the -isystem path) that takes its callback by
// reference, as std::function: heaplint does not look into system headers.
#pragma once

#include <functional>

inline int vendor_run(std::function<int()> &job) { return job(); }
