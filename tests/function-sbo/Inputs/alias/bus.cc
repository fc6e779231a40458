#include "bus.h"

void Bus::post(Callback cb) { queue_.push_back(std::move(cb)); }
void Bus::on(Handler h) { handlers_.push_back(std::move(h)); }
void Bus::filter(Filter f) { filters_.push_back(std::move(f)); }
void Bus::name(Named n) { named_.push_back(std::move(n)); }

long Bus::run() {
  long n = 0;
  for (Callback &cb : queue_) {
    cb();
    n++;
  }
  for (Handler &h : handlers_) h(1);
  for (Filter &f : filters_) n += f(2);
  for (Later &l : later_) n += l();
  for (Named &f : named_) f("x");
  return n;
}
