/* calibrate/result: from the measurements to a profile — identifies the
 * library, fits each wrapper's inline-buffer rule (fit.h), builds the
 * profile, writes it as YAML and reads it back with the analyzer's loader.
 * The functions return the exit status (CAL_*). */
#ifndef HEAPLINT_CALIBRATE_RESULT_H
#define HEAPLINT_CALIBRATE_RESULT_H

#include "calibrate/cal.h"

int hl_cal_fit_all(hl_cal *c);
/* Sets c->text (the YAML) and c->written (as the loader reads it). */
int hl_cal_write_profile(hl_cal *c);

#endif
