// <heaplint/alloc.h> is a C header: it must also compile as C++ at every
// standard, since the C++ layer and C++ users include it.
#include <heaplint/alloc.h>

int main() {
  void* p = hl_malloc(24);
  hl_free(p);
  return 0;
}
