/* calibrate/cli: the command line of 'heaplint calibrate' (its usage, its
 * options) and what it asks to measure: the standard library's wrappers, or
 * the ones named with --wrapper, with the headers they need. */
#ifndef HEAPLINT_CALIBRATE_CLI_H
#define HEAPLINT_CALIBRATE_CLI_H

#include "calibrate/cal.h"

extern const char hl_cal_usage[];

/* Fills c's options from argv (argv[0] is "calibrate"). Returns 0, 1 for
 * --help, or -1 with *err. */
int hl_cal_parse_options(hl_cal *c, int argc, char **argv, char **err);

/* Fills c's targets and the probes' plan. Returns 0, or -1 with *err. */
int hl_cal_choose_targets(hl_cal *c, char **err);

#endif
