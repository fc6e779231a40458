#include "input/gitdiff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/hindex.h"
#include "util/proc.h"
#include "util/util.h"

/* A path git quoted ("b/caf\303\251.cc" with octal escapes, when
 * core.quotepath is on despite -c, or for a tab or a newline). */
static char *unquote(const char *s, size_t n) {
  hl_sb b = {0};
  for (size_t i = 1; i + 1 < n; i++) {
    char c = s[i];
    if (c != '\\' || i + 2 >= n) {
      hl_sb_putc(&b, c);
      continue;
    }
    c = s[++i];
    if (c >= '0' && c <= '7') {
      unsigned v = 0;
      for (int k = 0; k < 3 && i < n - 1 && s[i] >= '0' && s[i] <= '7'; k++) v = v * 8 + (unsigned)(s[i++] - '0');
      i--;
      hl_sb_putc(&b, (char)v);
    } else {
      hl_sb_putc(&b, c == 'n' ? '\n' : c == 't' ? '\t' : c);
    }
  }
  return hl_sb_take(&b);
}

/* "+++ b/src/a.cc" -> "src/a.cc"; NULL for /dev/null (a deleted file). */
static char *new_name(const char *line, size_t n) {
  const char *p = line + 4;
  size_t len = n - 4;
  while (len && (p[len - 1] == '\r' || p[len - 1] == '\t')) len--;
  char *name = len && p[0] == '"' ? unquote(p, len) : hl_xstrndup(p, len);
  if (strncmp(name, "b/", 2)) {
    free(name);
    return NULL;
  }
  char *rest = hl_xstrdup(name + 2);
  free(name);
  return rest;
}

/* Adds file to files unless it is there (seen indexes files by name). */
static int add_file(hl_strv *files, hl_hindex *seen, const char *file) {
  unsigned long long h = hl_hindex_hash(file, strlen(file));
  size_t cursor = 0, i;
  while (hl_hindex_next(seen, h, &cursor, &i))
    if (!strcmp(files->v[i], file)) return 1;
  hl_hindex_add(seen, h, files->n);
  hl_strv_add(files, file);
  return 1;
}

void hl_git_diff_parse(const char *text, const char *top, hl_line_filter *lf, hl_strv *files) {
  char *file = NULL;
  int listed = 0;       /* file is in files already */
  hl_hindex seen = {0}; /* files by name: a diff of many files costs as many lookups */
  lf->active = 1;
  for (const char *line = text; *line;) {
    const char *nl = strchr(line, '\n');
    size_t n = nl ? (size_t)(nl - line) : strlen(line);
    unsigned from, count = 1;
    /* sscanf measures the rest of the text (strlen) at each call: it reads
     * a copy of the line, or a diff of many hunks would take time growing
     * with its square. */
    char hunk[96];
    snprintf(hunk, sizeof hunk, "%.*s", (int)(n < sizeof hunk ? n : sizeof hunk - 1), line);
    if (n > 4 && !strncmp(line, "+++ ", 4)) {
      free(file);
      char *rel = new_name(line, n);
      file = rel ? hl_xasprintf("%s/%s", top, rel) : NULL;
      listed = 0;
      free(rel);
    } else if (file && !strncmp(line, "@@ ", 3) &&
               (sscanf(hunk, "@@ -%*u,%*u +%u,%u", &from, &count) == 2 ||
                sscanf(hunk, "@@ -%*u +%u,%u", &from, &count) == 2 ||
                (count = 1, sscanf(hunk, "@@ -%*u,%*u +%u", &from) == 1) ||
                (count = 1, sscanf(hunk, "@@ -%*u +%u", &from) == 1))) {
      /* A hunk that only removes lines changes none that remain. */
      if (count) {
        hl_line_filter_add(lf, file, from, from + count - 1);
        if (!listed) listed = add_file(files, &seen, file);
      }
    }
    line += n + (nl != NULL);
  }
  free(file);
  hl_hindex_free(&seen);
  hl_line_filter_finish(lf);
}

/* Runs git with argv, its stdout into *out; on failure *err says what git
 * said. Its output goes through two temporary files, removed if SIGINT,
 * SIGTERM or SIGHUP ends the run meanwhile (hl_temp_track). */
static int run_git(char **argv, char **out, char **err) {
  const char *tmp = getenv("TMPDIR");
  char *o = hl_xasprintf("%s/heaplint-git-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  char *e = hl_xasprintf("%s/heaplint-git-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  int fo = mkstemp(o), so = fo < 0 ? -1 : hl_temp_track(o);
  int fe = fo < 0 ? -1 : mkstemp(e), se = fe < 0 ? -1 : hl_temp_track(e);
  int rc = -1;
  if (fo < 0 || fe < 0) {
    *err = hl_xstrdup("cannot make a temporary file for git's output");
    goto out;
  }
  hl_proc p = {.argv = argv, .out_path = o, .err_path = e};
  hl_proc_run_all(&p, 1, 1);
  size_t len;
  char *said = NULL;
  if (!hl_proc_ok(&p)) {
    char *how = hl_proc_outcome(&p), *cmd = hl_proc_command(argv);
    if (hl_read_file(e, &said, &len)) said = NULL;
    while (said && len && (said[len - 1] == '\n')) said[--len] = 0;
    *err = hl_xasprintf("--diff: '%s' %s%s%s", cmd, how, said && *said ? ": " : "", said ? said : "");
    free(how);
    free(cmd);
    free(said);
  } else if (hl_read_file(o, out, &len)) {
    *err = hl_xstrdup("--diff: cannot read git's output back");
  } else {
    rc = 0;
  }
out:
  if (fo >= 0) close(fo), unlink(o);
  if (fe >= 0) close(fe), unlink(e);
  hl_temp_untrack(so);
  hl_temp_untrack(se);
  free(o);
  free(e);
  return rc;
}

int hl_git_diff(const char *ref, hl_line_filter *lf, hl_strv *files, char **err) {
  char *top = NULL, *text = NULL;
  char *rev[] = {"git", "rev-parse", "--show-toplevel", NULL};
  if (run_git(rev, &top, err)) return -1;
  top[strcspn(top, "\n")] = 0;
  char *diff[] = {"git",
                  "-c",
                  "core.quotepath=off",
                  "diff",
                  "-U0",
                  "--no-color",
                  "--no-ext-diff",
                  "--src-prefix=a/",
                  "--dst-prefix=b/",
                  (char *)(ref ? ref : "HEAD"),
                  "--",
                  NULL};
  int rc = run_git(diff, &text, err);
  if (!rc) hl_git_diff_parse(text, top, lf, files);
  free(text);
  free(top);
  return rc;
}
