/* project: the compile command of a file the editor opened, found the way
 * the CLI reads a compile database (input/jobs.h) and the way clangd finds
 * one:
 *
 *   1. the compile database: the one --compile-commands-dir (or -p) names,
 *      else compile_commands.json in the file's directory or an ancestor,
 *      or in build/ below one (the nearest wins);
 *   2. the file's own entry there;
 *   3. for a file with none (a header): a translation unit of that database
 *      that includes it — one with the same stem in the same directory
 *      first, then one with the same stem anywhere, then any other — whose
 *      text has an #include naming the file;
 *   4. else the fallback flags: the .heaplint.yaml's fallback-flags
 *      (relative paths against its directory), or -std=c++17.
 *
 * The databases are read once and kept until lsp_project_forget (a change
 * to one, or to a configuration). Used by the analysis worker only. */
#ifndef HEAPLINT_LSP_PROJECT_H
#define HEAPLINT_LSP_PROJECT_H

#include "engine/job.h"
#include "input/config.h"
#include "util/strv.h"

typedef struct lsp_project lsp_project;

/* db_dir: the one database to use, or NULL to look for one per file. The
 * extra arguments go around every command, as the CLI's --extra-arg. */
lsp_project *lsp_project_new(const char *db_dir, const hl_strv *before, const hl_strv *after);
void lsp_project_free(lsp_project *P);
/* Reads the databases again on the next lookup. */
void lsp_project_forget(lsp_project *P);
/* Appends the path of every database read so far. */
void lsp_project_files(const lsp_project *P, hl_strv *out);

/* Every entry of the databases read so far and of root's (the workspace's
 * folder: found as for a file there; NULL: none), each file once: the
 * project's units, for workspace/diagnostic. Problems go to msgs. Valid
 * until the next call or lsp_project_forget. */
void lsp_project_units(lsp_project *P, const char *root, hl_strv *msgs, const hl_job ***units, size_t *n);

typedef enum lsp_source { LSP_FROM_DB, LSP_FROM_INCLUDER, LSP_FROM_FALLBACK } lsp_source;

/* The job that analyzes path: its own command, an includer's (the job is
 * then the includer's: path's findings come from that unit, as the CLI
 * reports a header's), or the fallback flags of cfg. *how says which
 * ("<db>", "<includer>", "fallback flags ..."; caller frees). Problems of
 * a database (unreadable, entries for missing files) go to msgs, once per
 * database. */
lsp_source lsp_project_job(lsp_project *P, const char *path, const hl_config *cfg, hl_job *job, char **how,
                           hl_strv *msgs);

#endif
