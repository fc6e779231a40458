// Wrappers other files see: members of classes declared here, parameters
// of functions defined in other files.
#pragma once
#include <functional>

struct Handler {
  int id = 0;
  std::function<void()> on_event;
};
struct Small {
  std::function<void()> cb;
};
struct Mixed {
  std::function<void()> cb;
};
struct Opaque {
  std::function<void()> cb;
};
struct Unseen {
  std::function<void()> cb;
};

void install(Handler &h, std::function<void()> f);
void set_small(Small &s);
void set_mixed_small(Mixed &m);
void set_mixed_big(Mixed &m);
void set_opaque(Opaque &o);
void set_unseen(Unseen &u);
void run(std::function<void()> f);
void forward_to(std::function<void()> f);
void later(std::function<void()> cb);
