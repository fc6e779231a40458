// A bus whose callback types are named once, each through an alias.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

using Callback = std::function<void()>;
using Handler = std::function<void(int)>;
using Filter = std::function<bool(int)>;
using Later = std::function<long()>;
using Job = std::function<int()>;
using Named = std::function<void(const std::string &)>;

class Bus {
 public:
  Bus() {
    queue_.reserve(8);
    handlers_.reserve(8);
    filters_.reserve(8);
    later_.reserve(8);
    named_.reserve(8);
  }
  void post(Callback cb);
  void on(Handler h);
  void filter(Filter f);
  void name(Named n);
  template <class F>
  void later(F f) {
    later_.push_back(Later(std::move(f)));
  }
  // No unit calls it: what it will store is not known.
  template <class F>
  void defer(F f) {
    later_.push_back(Later(std::move(f)));
  }
  long run();

 private:
  std::vector<Callback> queue_;
  std::vector<Handler> handlers_;
  std::vector<Filter> filters_;
  std::vector<Later> later_;
  std::vector<Named> named_;
};
