#include "guard.h"

Timer::Timer(std::function<void(int)> cb) : cb_(std::move(cb)) {}
