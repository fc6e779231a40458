// A script parsed into a callable, its type named once.
#pragma once

#include <functional>
#include <string>

#include "expected.h"

struct Env {
  long base;
};

using Script = std::function<long(Env &)>;

expected<Script> parse(const std::string &text);
long run(const std::string &text, long base);
