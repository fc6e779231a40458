#include <functional>
#include <map>
#include <string>

void use(unsigned long);

void app() {
  long a = 1, b = 2, c = 3;
  std::function<void()> f = [a, b, c] { use(a + b + c); };
  f();
  std::map<int, int> m;
  for (int i = 0; i < 10; i++) m[i] = i;
  use(m.size());
  for (int i = 0; i < 10; i++) {
    std::string s = "a string longer than fifteen";
    s[0] = char('a' + i);
    use(s.size());
  }
}

void constant() {
  std::string k = "a constant string longer than fifteen";
  use(k.size());
}
