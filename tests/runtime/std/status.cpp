// <heaplint/status.h> is a C header: it must also compile as C++ at every
// standard, since the C++ layer and C++ users include it.
#include <heaplint/status.h>

int main() {
  return hl_strerror(HL_OK) != nullptr ? 0 : 1;
}
