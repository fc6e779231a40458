#include "script.h"

long run(const std::string &text, long base) {
  expected<Script> s = parse(text);
  if (!s) return -1;
  Env env{base};
  return s.value()(env);
}
