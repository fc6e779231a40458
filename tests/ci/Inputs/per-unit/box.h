#include <functional>
// BOX_USER_COPY (a -D flag) gives Box a user-provided copy constructor.
template <class T> struct Box {
  T v;
  Box() = default;
#ifdef BOX_USER_COPY
  Box(const Box &o) : v(o.v) {}
#endif
  void operator()() const {}
};
