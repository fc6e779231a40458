/* merge: the 'heaplint merge-sarif' subcommand — joins the SARIF logs of
 * heaplint's shards into one (report/emit.h's hl_sarif_merge), on stdout or
 * into -o's file. */
#ifndef HEAPLINT_REPORT_MERGE_H
#define HEAPLINT_REPORT_MERGE_H

/* argv[0] is "merge-sarif". Returns the exit status (report/pipeline.h). */
int hl_merge_sarif_main(int argc, char **argv);

#endif
