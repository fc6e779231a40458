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

struct Node {
  Node *left, *right;
  long value;
};
// Calls f and hands it on to itself for the children: a function_ref
// passes on as it came in.
long visit(Node *n, const std::function<void(Node *)> &f);
// Hands f to visit(), another function, which only calls it: both change.
long visit_all(Node *n, const std::function<void(Node *)> &f);
