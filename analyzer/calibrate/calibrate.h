/* calibrate: the 'heaplint calibrate' subcommand. It measures the
 * inline-buffer rules of the standard library a compiler and its flags use
 * (or of the callable wrappers named with --wrapper) the way an engineer
 * would by hand — compile probe programs against a counting global operator
 * new, run them, watch what allocates — fits the rules the analyzer can
 * express to the measurements, and writes them as a profile
 * (docs/calibrate.md).
 *
 * Exit status: 0 written (or --compare found no difference); 1 --compare
 * found differences; 2 usage or input error (bad option, a compiler that
 * cannot be run, an unwritable -o, an unreadable --compare profile); 5 the
 * probes could not be built or run (they did not compile, crashed or timed
 * out); 6 no profile rule fits what was measured. (3 and 4 are the
 * analyzer's.) */
#ifndef HEAPLINT_CALIBRATE_H
#define HEAPLINT_CALIBRATE_H

struct hl_rule;
/* argv[0] is "calibrate"; rules: the rules heaplint has (NULL-terminated,
 * from main.c), whose profile sections it writes and reads. Returns the
 * exit status. */
int hl_calibrate_main(int argc, char **argv, const struct hl_rule *const *rules);

#endif
