#include <functional>
std::function<void()> keep;
void u4(long a, long b, long c) { keep = [a, b, c] {}; }
