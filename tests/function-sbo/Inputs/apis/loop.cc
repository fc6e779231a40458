#include "loop.h"
void Loop::post(std::function<void()> f) { q.push_back(std::move(f)); }
void Loop::call_after(int, std::function<void()> f) { q.push_back(std::move(f)); }
