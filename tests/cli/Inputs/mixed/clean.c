/* Nothing heaplint reports: C code with no zone. */
#include <stdlib.h>

int *make(void) { return malloc(sizeof(int)); }
