/* snapshot: what one analysis reads of the state the reader thread edits,
 * copied under the lock so that the reader may go on — the analyzed
 * document's text and generation, the texts of the other open documents
 * its unit reads (its own includer when it is a header, the headers it
 * includes), which libclang takes as unsaved files, and the URI of every
 * open document (convert.h sends a path back under the client's URI).
 *
 * Only what the unit reads: libclang copies each unsaved file at every
 * parse, and every open document's text went into every analysis (200
 * open 1 MB documents: about a second a keystroke, and 1 GB). The files a
 * unit read are known after its parse (hl_tu_files): the next parse gets
 * the open documents among them, and a document the unit reads that its
 * snapshot lacked (an #include just typed) is added and the unit parsed
 * again (worker.c). */
#ifndef HEAPLINT_LSP_SNAPSHOT_H
#define HEAPLINT_LSP_SNAPSHOT_H

#include <clang-c/Index.h>

#include "lsp/server.h"
#include "util/strv.h"

typedef struct lsp_snapshot {
  unsigned long gen; /* the analyzed document's */
  long version;
  int lost;                    /* its text is not the editor's (document.c) */
  unsigned long saves;         /* lsp_server.saves */
  struct CXUnsavedFile *files; /* files[0] is its text; Filename is the path */
  unsigned n;
  size_t cap;
  char **paths, **uris; /* every open document, the analyzed one first */
  size_t ndocs;
} lsp_snapshot;

/* Sorts paths and drops repeats, for the lookups below. */
void lsp_paths_sort(hl_strv *paths);

/* With S's lock held: d's text and generation, the texts of the open
 * documents whose path is in reads (sorted; NULL: none), every open
 * document's URI. */
void lsp_snapshot_take(lsp_server *S, const lsp_doc *d, const hl_strv *reads, lsp_snapshot *sn);
/* With S's lock held: adds the texts of the open documents in reads (sorted)
 * that sn lacks. Returns how many. */
unsigned lsp_snapshot_add(lsp_server *S, const lsp_doc *d, const hl_strv *reads, lsp_snapshot *sn);
void lsp_snapshot_free(lsp_snapshot *sn);

#endif
