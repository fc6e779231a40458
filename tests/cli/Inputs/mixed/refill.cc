#include <vector>

static std::vector<long> pool;

extern "C" void refill() { pool.push_back(1); }
