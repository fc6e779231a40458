/* calibrate/report: --report — the fitted rules in words and a table of
 * the telling probes (the largest inline and the smallest allocating target
 * per alignment, the trait variants, std::string) with their timings. */
#ifndef HEAPLINT_CALIBRATE_REPORT_H
#define HEAPLINT_CALIBRATE_REPORT_H

#include <stdio.h>

#include "calibrate/cal.h"

/* Prints the report on out. Returns the exit status (CAL_*). */
int hl_cal_report(hl_cal *c, FILE *out);

#endif
