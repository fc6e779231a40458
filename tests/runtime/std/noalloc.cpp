// <heaplint/noalloc.h> is a C header of one macro: it must compile as C++ at
// every standard, before a declaration, after one, and on a definition.
#include <heaplint/noalloc.h>

HEAPLINT_NO_ALLOC int first(int x);
int second(int x) HEAPLINT_NO_ALLOC;
HEAPLINT_NO_ALLOC int first(int x) { return x + 1; }
int second(int x) { return x - 1; }

int main() { return first(0) + second(0) - 0; }
