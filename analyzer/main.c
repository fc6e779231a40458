/* heaplint: the command-line tool. main() only picks the subcommand:
 * 'heaplint merge-sarif ...', 'heaplint merge-index ...', 'heaplint calibrate ...', 'heaplint lsp' (the
 * language server, lsp/lsp.h), and otherwise the
 * check of the files named (check.h), which runs the stages input ->
 * engine -> report (docs/architecture.md). */
#include <string.h>

#include "calibrate/calibrate.h"
#include "check.h"
#include "index/merge.h"
#include "lsp/lsp.h"
#include "report/merge.h"
#include "rules/registry.h"

/* The subcommands that know the rules get heaplint's: the front end hands
 * them down (lsp/ and calibrate/ never name rules/). */
static int calibrate(int argc, char **argv) { return hl_calibrate_main(argc, argv, hl_rules); }
static int lsp(int argc, char **argv) { return hl_lsp_main(argc, argv, hl_rules); }

static const struct subcommand {
  const char *name;
  int (*main)(int argc, char **argv); /* argv[0] is the subcommand's name */
} subcommands[] = {
    {"merge-sarif", hl_merge_sarif_main},
    {"merge-index", hl_merge_index_main},
    {"calibrate", calibrate},
    {"lsp", lsp},
};

int main(int argc, char **argv) {
  for (size_t i = 0; argc > 1 && i < sizeof subcommands / sizeof *subcommands; i++)
    if (!strcmp(argv[1], subcommands[i].name)) return subcommands[i].main(argc - 1, argv + 1);
  return hl_check_main(argc, argv);
}
