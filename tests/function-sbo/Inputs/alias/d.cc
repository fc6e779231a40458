#include <vendor.h>

#include "bus.h"

int d(long x, long y, long z) {
  Job job = [x, y, z] { return int(x + y + z); };
  return vendor_run(job);
}
