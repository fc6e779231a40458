/* check: the default subcommand, 'heaplint [options] <files> [-- flags]' —
 * the one place where the stages meet: input (the command line, profiles,
 * the job list, each job's configuration) -> engine (every translation
 * unit, in parallel) -> report (report/pipeline.h). */
#ifndef HEAPLINT_CHECK_H
#define HEAPLINT_CHECK_H

/* argv[0] is the program. Returns the exit status (report/pipeline.h). */
int hl_check_main(int argc, char **argv);

#endif
