/* calibrate/build: building and running the probe programs — compiling
 * their parts in parallel, linking, running each (through the emulator when
 * there is one) and reading what it measured — and the timing programs of
 * --report. Failures are said on stderr; the functions return the exit
 * status (CAL_*). */
#ifndef HEAPLINT_CALIBRATE_BUILD_H
#define HEAPLINT_CALIBRATE_BUILD_H

#include "calibrate/cal.h"

/* Compiles and links the measuring programs (sets c->built). */
int hl_cal_build(hl_cal *c);
/* Runs them and reads their output into c->m. */
int hl_cal_run(hl_cal *c);
/* Builds and runs the timing programs of the n rows t. */
int hl_cal_time_rows(hl_cal *c, hl_timing *t, size_t n);

#endif
