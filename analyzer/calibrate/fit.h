/* fit: a wrapper's inline-storage rule — the numbers of a profile entry —
 * derived from what the probes measured, or a refusal that lists the
 * measurements when no rule the analyzer can express predicts all of them.
 *
 * The rule is the analyzer's (docs/profiles.md): a target of size S and
 * alignment A stays inline iff align_up(align_up(header.size, A) + S,
 * max(header.align, A)) <= buffer.size, A <= max-align (when stated), and
 * it has every required trait. Among the rules that predict every
 * measurement the fit takes the simplest, in the order docs/calibrate.md
 * gives. */
#ifndef HEAPLINT_FIT_H
#define HEAPLINT_FIT_H

#include "calibrate/programs.h"

typedef struct hl_rule_fit {
  long buffer_size, buffer_align;
  long header_size, header_align; /* 0: no header in front of the target */
  long max_align;                 /* 0: no limit stated */
  unsigned
    requires; /* HL_REQ_* (profile.h) */
} hl_rule_fit;

/* Fits the measurements of one wrapper. Returns 0, or -1 with *why (several
 * lines: why, then what was measured). */
int hl_fit(const hl_cal_prog_probed *p, hl_rule_fit *fit, char **why);

/* std::string's small-buffer capacity: the longest string made without
 * allocating, from allocs[n] for n = 0.. chars; -1 when the measurements
 * show none (the empty string allocates, or none does). */
long hl_fit_sso(const long *allocs, size_t n);

#endif
