// Functions that take a callable as std::function, written out.
#pragma once

#include <functional>
#include <vector>

// Only calls f: it can refer to the caller's callable.
long for_each_item(const std::vector<int> &v, const std::function<void(int)> &f);
// Tests pred before calling it: a function_ref cannot be empty.
bool maybe(std::function<bool()> pred);
// Declared, defined nowhere in the database.
void elsewhere(std::function<void(long)> f);
