#include "walk.h"

long for_each_item(const std::vector<int> &v, const std::function<void(int)> &f) {
  long n = 0;
  for (int x : v) {
    f(x);
    n++;
  }
  return n;
}

bool maybe(std::function<bool()> pred) { return pred && pred(); }

long visit(Node *n, const std::function<void(Node *)> &f) {
  if (n == nullptr) return 0;
  f(n);
  return 1 + visit(n->left, f) + visit(n->right, f);
}

long visit_all(Node *n, const std::function<void(Node *)> &f) { return visit(n, f); }
