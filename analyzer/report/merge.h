/* merge: the 'heaplint merge-sarif' subcommand — joins the SARIF logs of
 * heaplint's shards into one, on stdout or into -o's file, after checking
 * that each is a log heaplint wrote and each result has the shape SARIF
 * 2.1.0 requires. */
#ifndef HEAPLINT_REPORT_MERGE_H
#define HEAPLINT_REPORT_MERGE_H

#include <stddef.h>
#include <stdio.h>

/* The most heaplint reads of a SARIF log (as of any file, HL_READ_MAX). */
#define HL_SARIF_MAX ((size_t)256 << 20)

/* Merges SARIF logs (shards of one run) into one on out: the rules'
 * union, every result once, in file/line/rule order. Writes nothing and
 * returns -1 with *err naming the file and the problem (where in the log,
 * for a result of the wrong shape) when a log cannot be merged; else 0.
 * Takes time linear in the logs' size (and n log n to sort the results). */
int hl_sarif_merge(FILE *out, char *const *paths, size_t n, char **err);

/* argv[0] is "merge-sarif". Returns the exit status (report/pipeline.h). */
int hl_merge_sarif_main(int argc, char **argv);

#endif
