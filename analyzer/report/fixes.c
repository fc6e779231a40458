#include "report/fixes.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#include "util/util.h"
#include "input/yamlfile.h"

/* ---- --export-fixes ---- */

/* Only valid UTF-8 reaches libyaml: hl_fixes_export checks paths and edits
 * first, messages are cleaned. */
static int scalar(yaml_emitter_t *e, const char *s, int quoted) {
  return hl_yaml_emit_scalar(e, s, quoted ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_PLAIN_SCALAR_STYLE);
}

static int message(yaml_emitter_t *e, const char *s) {
  char *v = hl_utf8_sanitize(s);
  int ok = scalar(e, v, 1);
  free(v);
  return ok;
}

/* What YAML cannot carry exactly: a path or a replacement that is not
 * UTF-8 (clang-apply-replacements needs them byte for byte). */
static const char *not_utf8(const hl_findings *all, const char *main_file, const char *build_dir) {
  if (main_file && !hl_utf8_is_valid(main_file)) return main_file;
  if (!hl_utf8_is_valid(build_dir)) return build_dir;
  for (size_t i = 0; i < all->n; i++) {
    const hl_finding *f = all->v[i];
    if (!f->nedits) continue;
    if (!hl_utf8_is_valid(f->loc.file)) return f->loc.file;
    for (size_t k = 0; k < f->nedits; k++)
      if (!hl_utf8_is_valid(f->edits[k].file) || !hl_utf8_is_valid(f->edits[k].text)) return f->edits[k].file;
  }
  return NULL;
}

static int to_buffer(void *data, unsigned char *buf, size_t size) {
  hl_sb_putn(data, (const char *)buf, size);
  return 1;
}

/* clang-apply-replacements drops an identical replacement only when two
 * translation units both bring it; within one (and the whole export is one
 * MainSourceFile) it applies every copy. So an edit that several findings
 * share (the #include each fix needs) is written once, with the first. */
static int exported_before(const hl_edit *const *done, size_t n, const hl_edit *x) {
  for (size_t i = 0; i < n; i++)
    if (done[i]->offset == x->offset && done[i]->length == x->length && !strcmp(done[i]->file, x->file) &&
        !strcmp(done[i]->text, x->text))
      return 1;
  return 0;
}

static int by_text(const void *pa, const void *pb) {
  return strcmp((*(const hl_edit *const *)pa)->text, (*(const hl_edit *const *)pb)->text);
}

/* clang-apply-replacements refuses two different insertions at one place
 * ("the new insertion has the same insert location"), which two fixes that
 * each need their own #include after the same line make. Those go out as
 * one insertion, in the order --fix applies them (by text), with the first
 * finding that needs any of them; all are then marked written. Returns the
 * joined text, or NULL when x is alone at its place. */
static char *merged_insertions(const hl_findings *all, const hl_edit *x, const hl_edit ***done, size_t *ndone,
                               size_t *capdone) {
  const hl_edit **group = NULL;
  size_t n = 0, cap = 0;
  for (size_t i = 0; i < all->n; i++)
    for (size_t k = 0; k < all->v[i]->nedits; k++) {
      const hl_edit *y = &all->v[i]->edits[k];
      if (y->length || y->offset != x->offset || strcmp(y->file, x->file) || exported_before(group, n, y)) continue;
      HL_PUSH(group, n, cap, y);
    }
  char *joined = NULL;
  if (n > 1) {
    qsort(group, n, sizeof *group, by_text);
    hl_sb b = {0};
    for (size_t i = 0; i < n; i++) {
      hl_sb_puts(&b, group[i]->text);
      if (!exported_before(*done, *ndone, group[i])) HL_PUSH(*done, *ndone, *capdone, group[i]);
    }
    joined = hl_sb_take(&b);
  }
  free(group);
  return joined;
}

int hl_fixes_export(const char *path, const hl_findings *all, const char *main_file, const char *build_dir,
                    char **err) {
  hl_sb out = {0};
  yaml_emitter_t e;
  yaml_event_t ev;
  const hl_edit **done = NULL; /* the edits written so far */
  size_t ndone = 0, capdone = 0;
  const char *bad = not_utf8(all, main_file, build_dir);
  if (bad) {
    *err = hl_xasprintf(
        "%s: cannot write the fixes: %s: the path or the edit is not valid UTF-8, which YAML "
        "cannot carry exactly",
        path, hl_display_path(bad));
    return -1;
  }
  if (!yaml_emitter_initialize(&e)) {
    *err = hl_xasprintf("%s: cannot start the YAML writer", path);
    return -1;
  }
  yaml_emitter_set_output(&e, to_buffer, &out);
  yaml_emitter_set_unicode(&e, 1);
  yaml_emitter_set_width(&e, -1);
  int ok = yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) && yaml_emitter_emit(&e, &ev) &&
           yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0) && yaml_emitter_emit(&e, &ev) &&
           hl_yaml_emit_open(&e, 1, 0) && scalar(&e, "MainSourceFile", 0) &&
           scalar(&e, main_file ? main_file : "", 1) && scalar(&e, "Diagnostics", 0) && hl_yaml_emit_open(&e, 0, 0);
  for (size_t i = 0; ok && i < all->n; i++) {
    const hl_finding *f = all->v[i];
    if (!f->nedits) continue;
    ok = hl_yaml_emit_open(&e, 1, 0) && scalar(&e, "DiagnosticName", 0) && scalar(&e, f->rule, 0) &&
         scalar(&e, "DiagnosticMessage", 0) && hl_yaml_emit_open(&e, 1, 0) && scalar(&e, "Message", 0) &&
         message(&e, f->message) && scalar(&e, "FilePath", 0) && scalar(&e, f->loc.file, 1) &&
         scalar(&e, "FileOffset", 0) && hl_yaml_emit_number(&e, (long)f->loc.offset) && scalar(&e, "Replacements", 0) &&
         hl_yaml_emit_open(&e, 0, 0);
    for (size_t k = 0; ok && k < f->nedits; k++) {
      const hl_edit *x = &f->edits[k];
      if (exported_before(done, ndone, x)) continue;
      HL_PUSH(done, ndone, capdone, x);
      char *merged = x->length == 0 ? merged_insertions(all, x, &done, &ndone, &capdone) : NULL;
      const char *text = merged ? merged : x->text;
      ok = hl_yaml_emit_open(&e, 1, 0) && scalar(&e, "FilePath", 0) && scalar(&e, x->file, 1) &&
           scalar(&e, "Offset", 0) && hl_yaml_emit_number(&e, (long)x->offset) && scalar(&e, "Length", 0) &&
           hl_yaml_emit_number(&e, (long)x->length) && scalar(&e, "ReplacementText", 0) && scalar(&e, text, 1) &&
           hl_yaml_emit_close(&e, 1);
      free(merged);
    }
    ok = ok && hl_yaml_emit_close(&e, 0) && hl_yaml_emit_close(&e, 1) && scalar(&e, "Level", 0) &&
         scalar(&e, f->severity == HL_SEV_ERROR ? "Error" : "Warning", 0) && scalar(&e, "BuildDirectory", 0) &&
         scalar(&e, build_dir, 1) && hl_yaml_emit_close(&e, 1);
  }
  ok = ok && hl_yaml_emit_close(&e, 0) && hl_yaml_emit_close(&e, 1) && yaml_document_end_event_initialize(&ev, 0) &&
       yaml_emitter_emit(&e, &ev) && yaml_stream_end_event_initialize(&ev) && yaml_emitter_emit(&e, &ev);
  yaml_emitter_delete(&e);
  free(done);
  int rc = -1;
  if (!ok)
    *err = hl_xasprintf("%s: cannot write the fixes as YAML", path);
  else
    rc = hl_write_file_atomic(path, hl_sb_str(&out), out.len, err);
  hl_sb_free(&out);
  return rc;
}

/* ---- --fix ---- */

typedef struct change {
  const hl_edit *edit;
  size_t finding;
} change;

typedef struct file_changes {
  const char *path;
  change *v;
  size_t n, cap;
} file_changes;

static int by_position(const void *pa, const void *pb) {
  const change *a = pa, *b = pb;
  if (a->edit->offset != b->edit->offset) return a->edit->offset < b->edit->offset ? -1 : 1;
  if (a->edit->length != b->edit->length) return a->edit->length < b->edit->length ? -1 : 1;
  int c = strcmp(a->edit->text, b->edit->text);
  if (c) return c;
  return a->finding < b->finding ? -1 : a->finding > b->finding;
}

static int same_edit(const hl_edit *a, const hl_edit *b) {
  return a->offset == b->offset && a->length == b->length && !strcmp(a->text, b->text);
}

/* Two edits that cannot both be made: overlapping ranges, or two
 * different replacements starting at one place. Insertions at one place (two
 * #includes after the same line) all go in, in a fixed order, and before a
 * replacement starting there (an #include above a declaration on line 1),
 * as clang-apply-replacements orders them. */
static int conflict(const hl_edit *a, const hl_edit *b) {
  if (same_edit(a, b)) return 0;
  if (a->offset == b->offset) return a->length && b->length;
  const hl_edit *lo = a->offset < b->offset ? a : b, *hi = lo == a ? b : a;
  return lo->offset + lo->length > hi->offset;
}

static int edit_fits(const hl_edit *e, size_t len) {
  return e->offset <= len && e->length <= len - e->offset && e->text;
}

static void skip(char *skipped, size_t i, const hl_finding *f, FILE *log, const char *why) {
  if (skipped[i]) return;
  skipped[i] = 1;
  fprintf(log, "heaplint: error: %s:%u:%u: not fixed: %s\n", hl_display_path(f->loc.file), f->loc.line, f->loc.col,
          why);
}

/* A finding applied together with a skipped one (hl_finding.together:
 * two aliases of one wrapper type) is skipped too: either alone would not
 * compile where values pass between them. */
static void skip_together(char *skipped, const hl_findings *all, FILE *log) {
  for (size_t i = 0; i < all->n; i++) {
    const hl_finding *a = all->v[i];
    if (!skipped[i] || !a->together) continue;
    for (size_t j = 0; j < all->n; j++) {
      const hl_finding *b = all->v[j];
      if (skipped[j] || !b->together || strcmp(a->together, b->together)) continue;
      char *why = hl_xasprintf("it goes with the rewrite at %s:%u:%u, which is not applied (the two name one type)",
                               hl_display_path(a->loc.file), a->loc.line, a->loc.col);
      skip(skipped, j, b, log, why);
      free(why);
    }
  }
}

/* Two findings whose edits of F overlap are both skipped. */
static void skip_conflicts(const file_changes *F, const hl_findings *all, char *skipped, FILE *log) {
  for (size_t k = 0; k < F->n; k++)
    for (size_t m = k + 1; m < F->n && F->v[m].edit->offset <= F->v[k].edit->offset + F->v[k].edit->length; m++)
      if (conflict(F->v[k].edit, F->v[m].edit)) {
        const hl_finding *a = all->v[F->v[k].finding], *b = all->v[F->v[m].finding];
        char *why2 = hl_xasprintf("its edit at %s:%u:%u conflicts with the fix of the finding at %s:%u:%u",
                                  hl_display_path(F->path), F->v[k].edit->line, F->v[k].edit->col,
                                  hl_display_path(b->loc.file), b->loc.line, b->loc.col);
        char *why3 = hl_xasprintf("its edit at %s:%u:%u conflicts with the fix of the finding at %s:%u:%u",
                                  hl_display_path(F->path), F->v[m].edit->line, F->v[m].edit->col,
                                  hl_display_path(a->loc.file), a->loc.line, a->loc.col);
        skip(skipped, F->v[k].finding, a, log, why2);
        skip(skipped, F->v[m].finding, b, log, why3);
        free(why2);
        free(why3);
      }
}

/* content with the edits of F that are not skipped, front to back (the
 * edits are sorted by position), each distinct edit once, into out.
 * Returns how many were applied. */
static size_t edited(const file_changes *F, const char *content, size_t len, const char *skipped, hl_sb *out) {
  size_t pos = 0, applied = 0;
  const hl_edit *last = NULL;
  for (size_t k = 0; k < F->n; k++) {
    const hl_edit *e = F->v[k].edit;
    if (skipped[F->v[k].finding] || (last && same_edit(last, e))) continue;
    hl_sb_putn(out, content + pos, e->offset - pos);
    hl_sb_puts(out, e->text);
    pos = e->offset + e->length;
    last = e;
    applied++;
  }
  if (applied) hl_sb_putn(out, content + pos, len - pos);
  return applied;
}

/* Writes content with the edits of F that are not skipped; a file that
 * cannot be written skips its findings. Returns 1 when the file was written. */
static int apply_file(const file_changes *F, const char *content, size_t len, mode_t mode, const hl_findings *all,
                      char *skipped, FILE *log) {
  hl_sb out = {0};
  if (!edited(F, content, len, skipped, &out)) {
    hl_sb_free(&out);
    return 0;
  }
  char *err = NULL;
  int written = hl_write_file_atomic_mode(F->path, hl_sb_str(&out), out.len, mode, &err) == 0;
  if (!written) {
    for (size_t k = 0; k < F->n; k++) skip(skipped, F->v[k].finding, all->v[F->v[k].finding], log, err);
    free(err);
  }
  hl_sb_free(&out);
  return written;
}

/* Why F's edits cannot be applied to its file (malloc'd), or NULL with the
 * file's status, *content (malloc'd) and *len. */
static char *unfit(const file_changes *F, struct stat *st, char **content, size_t *len) {
  char *why = NULL;
  int err = 0;
  if (stat(F->path, st) != 0 || (err = hl_read_file(F->path, content, len)) != 0)
    why = hl_xasprintf("%s cannot be read: %s", hl_display_path(F->path), err ? hl_read_error(err) : strerror(errno));
  /* Read-only: no write bit at all (root could still write it, but the
   * owner said not to), or not writable by this user. */
  else if (!(st->st_mode & 0222) || access(F->path, W_OK) != 0)
    why = hl_xasprintf("%s is read-only", hl_display_path(F->path));
  else {
    unsigned long long hash = hl_fnv1a(*content, *len);
    for (size_t k = 0; k < F->n && !why; k++)
      if (F->v[k].edit->file_hash != hash)
        why = hl_xasprintf("%s changed since it was analyzed; run heaplint again", hl_display_path(F->path));
    /* An edit comes from an analysis, or from a cache entry that anyone
     * who can write the cache may have made: it is checked against the
     * file it edits before a byte is copied. */
    for (size_t k = 0; k < F->n && !why; k++)
      if (!edit_fits(F->v[k].edit, *len))
        why = hl_xasprintf(
            "its edit of %s at offset %u (length %u) lies outside the file's %zu bytes; the "
            "result it came from is damaged",
            hl_display_path(F->path), F->v[k].edit->offset, F->v[k].edit->length, *len);
  }
  return why;
}

void hl_fix_texts_free(hl_fix_texts *t) {
  for (size_t j = 0; j < t->n; j++) free(t->texts[j]);
  free(t->files);
  free(t->texts);
  free(t->lens);
  memset(t, 0, sizeof *t);
}

typedef struct render_state {
  const file_changes *files;
  size_t nfiles;
  char *const *contents;
  const size_t *lengths;
} render_state;

static void render(const void *state, const char *skipped, hl_fix_texts *out) {
  const render_state *R = state;
  size_t cap = R->nfiles ? R->nfiles : 1;
  out->files = hl_xcalloc(cap, sizeof *out->files);
  out->texts = hl_xcalloc(cap, sizeof *out->texts);
  out->lens = hl_xcalloc(cap, sizeof *out->lens);
  out->n = 0;
  for (size_t j = 0; j < R->nfiles; j++) {
    hl_sb b = {0};
    if (!R->contents[j] || !edited(&R->files[j], R->contents[j], R->lengths[j], skipped, &b)) {
      hl_sb_free(&b);
      continue;
    }
    out->files[out->n] = (char *)R->files[j].path;
    out->lens[out->n] = b.len;
    out->texts[out->n++] = hl_sb_take(&b);
  }
}

/* chk's rounds: each finding it drops is skipped, until a round drops
 * none (each drops one at least, so there are at most as many rounds as
 * findings). */
static void check_rounds(const hl_fix_check *chk, const hl_findings *all, const file_changes *files, size_t nfiles,
                         char *const *contents, const size_t *lengths, char *skipped, FILE *log) {
  render_state st = {files, nfiles, contents, lengths};
  hl_fix_render r = {&st, render};
  char **why = hl_xcalloc(all->n ? all->n : 1, sizeof *why);
  for (size_t round = 0; round <= all->n; round++) {
    size_t dropped = chk->check(chk->data, all, skipped, &r, why);
    for (size_t i = 0; i < all->n; i++)
      if (why[i]) {
        skip(skipped, i, all->v[i], log, why[i]);
        free(why[i]);
        why[i] = NULL;
      }
    skip_together(skipped, all, log);
    if (!dropped) break;
  }
  free(why);
}

void hl_fixes_apply(const hl_findings *all, const hl_fix_check *chk, FILE *log, hl_fix_result *res) {
  memset(res, 0, sizeof *res);
  file_changes *files = NULL;
  size_t nfiles = 0, capfiles = 0;
  char *skipped = hl_xcalloc(all->n ? all->n : 1, 1);
  int *has_edits = hl_xcalloc(all->n ? all->n : 1, sizeof *has_edits);
  for (size_t i = 0; i < all->n; i++) {
    const hl_finding *f = all->v[i];
    has_edits[i] = f->nedits > 0;
    for (size_t k = 0; k < f->nedits; k++) {
      const hl_edit *e = &f->edits[k];
      size_t j = 0;
      while (j < nfiles && strcmp(files[j].path, e->file)) j++;
      if (j == nfiles) {
        file_changes fc = {e->file, NULL, 0, 0};
        HL_PUSH(files, nfiles, capfiles, fc);
      }
      change c = {e, i};
      HL_PUSH(files[j].v, files[j].n, files[j].cap, c);
    }
  }

  /* Check every file first: a finding is fixed only if all its files can be. */
  char **contents = hl_xcalloc(nfiles ? nfiles : 1, sizeof *contents);
  size_t *lengths = hl_xcalloc(nfiles ? nfiles : 1, sizeof *lengths);
  struct stat *stats = hl_xcalloc(nfiles ? nfiles : 1, sizeof *stats);
  for (size_t j = 0; j < nfiles; j++) {
    file_changes *F = &files[j];
    qsort(F->v, F->n, sizeof *F->v, by_position);
    char *why = unfit(F, &stats[j], &contents[j], &lengths[j]);
    if (why) {
      for (size_t k = 0; k < F->n; k++) skip(skipped, F->v[k].finding, all->v[F->v[k].finding], log, why);
      free(contents[j]);
      contents[j] = NULL;
      free(why);
      continue;
    }
    skip_conflicts(F, all, skipped, log);
  }

  skip_together(skipped, all, log);
  if (chk) check_rounds(chk, all, files, nfiles, contents, lengths, skipped, log);

  /* Apply what remains, each distinct edit once. */
  for (size_t j = 0; j < nfiles; j++) {
    file_changes *F = &files[j];
    if (!contents[j]) continue;
    res->files_written += apply_file(F, contents[j], lengths[j], stats[j].st_mode & 07777, all, skipped, log);
  }
  for (size_t i = 0; i < all->n; i++) {
    if (!has_edits[i]) continue;
    if (skipped[i])
      res->findings_skipped++;
    else
      res->findings_fixed++;
  }
  for (size_t j = 0; j < nfiles; j++) {
    free(contents[j]);
    free(files[j].v);
  }
  free(files);
  free(contents);
  free(lengths);
  free(stats);
  free(skipped);
  free(has_edits);
}
