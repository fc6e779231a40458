/* heaplint/status.h: status codes returned by the runtime's C functions, and
 * the hook through which the checked (debug) build reports a misuse of a pool
 * just before it aborts.
 *
 * Functions that can fail for a reason the caller may act on return an
 * hl_status; allocation functions return NULL instead, like malloc. */
#ifndef HEAPLINT_STATUS_H
#define HEAPLINT_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hl_status {
  HL_OK = 0,
  HL_EINVAL = 1, /* a configuration value is out of range */
  HL_ENOMEM = 2, /* the system allocator refused memory */
  HL_ENOSPC = 3, /* caller-provided memory is too small */
  HL_EBUSY = 4   /* the default allocator is already in use */
} hl_status;

/* A short English description of a status ("invalid argument", ...). */
const char *hl_strerror(int status);

/* Receives one line (no trailing newline) describing a detected misuse, e.g.
 * "heaplint: double free of 0x... in pool 'nodes' (block size 32)". The
 * runtime aborts after the handler returns: a corrupted pool cannot be
 * trusted to keep running. */
typedef void (*hl_report_fn)(const char *message);

/* Installs a report handler (NULL restores the default, which writes the
 * line to stderr) and returns the previous one. */
hl_report_fn hl_set_report_handler(hl_report_fn fn);
hl_report_fn hl_report_handler(void);

#ifdef __cplusplus
}
#endif

#endif
