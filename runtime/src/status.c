#include "heaplint/status.h"

#include <stdatomic.h>
#include <stdio.h>

static void report_to_stderr(const char *message) { fprintf(stderr, "%s\n", message); }

static _Atomic(hl_report_fn) report_fn = report_to_stderr;

const char *hl_strerror(int status) {
  switch (status) {
  case HL_OK: return "success";
  case HL_EINVAL: return "invalid argument";
  case HL_ENOMEM: return "out of memory";
  case HL_ENOSPC: return "memory area too small";
  case HL_EBUSY: return "allocator already in use";
  default: return "unknown status";
  }
}

hl_report_fn hl_set_report_handler(hl_report_fn fn) { return atomic_exchange(&report_fn, fn ? fn : report_to_stderr); }

hl_report_fn hl_report_handler(void) { return atomic_load(&report_fn); }
