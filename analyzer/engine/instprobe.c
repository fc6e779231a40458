#include "engine/instprobe.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ast.h"
#include "util/util.h"

typedef struct probe {
  char *file;          /* absolute path */
  CXFile cxfile;
  unsigned begin, end; /* byte offsets of the expression */
} probe;

/* One file of the unit as the probe parse sees it: the text on disk with
 * insertions, each remembered so that positions map back. */
typedef struct insertion {
  unsigned at;         /* offset in the original text */
  unsigned len;
  char *text;
} insertion;

typedef struct edited {
  char *file;          /* absolute path */
  char *name;          /* the name handed to libclang */
  const char *orig;    /* the original text (owned by the unit) */
  size_t orig_len;
  insertion *ins;
  size_t nins, capins;
  hl_sb text;
} edited;

struct hl_probes {
  hl_unit u;
  probe *v;
  size_t n, cap;
  hl_probe_hit *hits;
  size_t nhits, caphits;
};

/* The probe itself, one line, no #include: a type's reference is stripped
 * (a forwarded lvalue deduces T&), and the compiler's own trait builtins
 * give what the libraries' std:: traits give. Its body fails to compile on
 * purpose, once per instantiation, naming the numbers. */
static const char probe_decls[] =
    "template <unsigned long, unsigned long, bool, bool, bool, int> struct hl_probe_;"
    " template <class T> struct hl_probe_rr_ { typedef T type; };"
    " template <class T> struct hl_probe_rr_<T &> { typedef T type; };"
    " template <class T> struct hl_probe_rr_<T &&> { typedef T type; };"
    " template <int Id, class T> T &&hl_probe_fn(T &&t) noexcept {"
    " typedef typename hl_probe_rr_<T>::type U;"
    " (void)sizeof(hl_probe_<sizeof(U), alignof(U), __is_trivially_copyable(U),"
    " __is_nothrow_constructible(U, const U &), __is_nothrow_constructible(U, U &&), Id>);"
    " return static_cast<T &&>(t); }\n";

#define PROBE_ERROR "implicit instantiation of undefined template 'hl_probe_<"
#define PROBE_FN "hl_probe_fn<"

hl_probes *hl_probes_new(const hl_unit *u) {
  hl_probes *P = hl_xcalloc(1, sizeof *P);
  P->u = *u;
  return P;
}

static void hit_free(hl_probe_hit *h) {
  free(h->type);
  for (size_t i = 0; i < h->nchain; i++) hl_loc_free(&h->chain[i]);
  free(h->chain);
}

void hl_probes_free(hl_probes *P) {
  if (!P) return;
  for (size_t i = 0; i < P->n; i++) free(P->v[i].file);
  free(P->v);
  for (size_t i = 0; i < P->nhits; i++) hit_free(&P->hits[i]);
  free(P->hits);
  free(P);
}

size_t hl_probes_pending(const hl_probes *P) { return P->n; }

static int file_offset(CXSourceLocation l, CXFile *f, unsigned *off) {
  clang_getFileLocation(l, f, NULL, NULL, off);
  return *f ? 0 : -1;
}

int hl_probes_add(hl_probes *P, CXCursor e, const char **why) {
  CXSourceRange r = clang_getCursorExtent(e);
  CXFile f, g, sf;
  unsigned b, end, sb, line, col;
  if (file_offset(clang_getRangeStart(r), &f, &b) || file_offset(clang_getRangeEnd(r), &g, &end) ||
      !clang_File_isEqual(f, g) || end <= b) {
    *why = "the stored expression has no place in a file";
    return -1;
  }
  /* Text spelled inside a macro's body is not the code's own text there. */
  clang_getSpellingLocation(clang_getRangeStart(r), &sf, &line, &col, &sb);
  if (!sf || !clang_File_isEqual(sf, f) || sb != b) {
    *why = "the stored expression comes from a macro";
    return -1;
  }
  size_t len = 0;
  const char *text = clang_getFileContents(P->u.tu, f, &len);
  if (!text || end > len) {
    *why = "the stored expression's file cannot be read";
    return -1;
  }
  /* Wrapped only where an expression stands alone: after '=', '(', ',',
   * '{' or return, and not a braced list (a call cannot take one through a
   * template). */
  size_t k = b;
  while (k > 0 && (text[k - 1] == ' ' || text[k - 1] == '\t' || text[k - 1] == '\n' || text[k - 1] == '\r')) k--;
  int after_return = k >= 6 && !strncmp(text + k - 6, "return", 6) && k != b &&
                     (k == 6 || !(isalnum((unsigned char)text[k - 7]) || text[k - 7] == '_'));
  if (text[b] == '{' || k == 0 || (!after_return && !strchr("=(,{", text[k - 1]))) {
    *why = "the stored expression cannot be wrapped where it stands";
    return -1;
  }
  probe p = {hl_file_abspath(f, P->u.job->directory), f, b, end};
  HL_PUSH(P->v, P->n, P->cap, p);
  return (int)(P->n - 1);
}

/* ---- the edited copy ---- */

static edited *edited_for(edited **E, size_t *n, size_t *cap, const char *file) {
  for (size_t i = 0; i < *n; i++)
    if (!strcmp((*E)[i].file, file)) return &(*E)[i];
  edited e;
  memset(&e, 0, sizeof e);
  e.file = hl_xstrdup(file);
  HL_PUSH(*E, *n, *cap, e);
  return &(*E)[*n - 1];
}

static void insert(edited *e, unsigned at, char *text) {
  insertion i = {at, (unsigned)strlen(text), text};
  HL_PUSH(e->ins, e->nins, e->capins, i);
}

static int by_offset(const void *a, const void *b) {
  const insertion *x = a, *y = b;
  return x->at < y->at ? -1 : x->at > y->at;
}

static void build(edited *e) {
  /* Stable: a probe's "(" and ")" at one offset keep the order they were
   * added in, so nested probes nest. */
  for (size_t i = 1; i < e->nins; i++)
    for (size_t j = i; j > 0 && by_offset(&e->ins[j - 1], &e->ins[j]) > 0; j--) {
      insertion t = e->ins[j];
      e->ins[j] = e->ins[j - 1];
      e->ins[j - 1] = t;
    }
  size_t from = 0;
  for (size_t i = 0; i < e->nins; i++) {
    hl_sb_putn(&e->text, e->orig + from, e->ins[i].at - from);
    hl_sb_puts(&e->text, e->ins[i].text);
    from = e->ins[i].at;
  }
  hl_sb_putn(&e->text, e->orig + from, e->orig_len - from);
}

/* The original offset of an offset in the edited text (inside an insertion:
 * where it was inserted). */
static unsigned unmap(const edited *e, unsigned off) {
  unsigned shift = 0;
  for (size_t i = 0; i < e->nins; i++) {
    if (off < e->ins[i].at + shift) break;
    if (off < e->ins[i].at + shift + e->ins[i].len) return e->ins[i].at;
    shift += e->ins[i].len;
  }
  return off - shift;
}

static void line_col(const char *text, size_t len, unsigned off, unsigned *line, unsigned *col) {
  unsigned l = 1, c = 1;
  for (size_t i = 0; i < off && i < len; i++) {
    if (text[i] == '\n') l++, c = 1;
    else c++;
  }
  *line = l;
  *col = c;
}

/* A location of the probe parse, as it is in the files on disk. */
static int map_loc(const hl_probes *P, edited *E, size_t nE, CXSourceLocation l, hl_loc *out) {
  if (hl_unit_loc(&P->u, l, out)) return -1;
  unsigned off = out->offset;
  for (size_t i = 0; i < nE; i++)
    if (!strcmp(E[i].file, out->file)) {
      out->offset = unmap(&E[i], off);
      line_col(E[i].orig, E[i].orig_len, out->offset, &out->line, &out->col);
    }
  return 0;
}

/* "hl_probe_fn<3, (lambda at a.cpp:4:9)>' requested here": the type. */
static char *probed_type(const char *note) {
  const char *p = strstr(note, PROBE_FN);
  if (!p) return NULL;
  p = strchr(p, ',');
  const char *q = strstr(note, ">' requested here");
  if (!p || !q || q <= p) return NULL;
  p += 2;
  char *t = hl_xstrndup(p, (size_t)(q - p));
  size_t n = strlen(t);
  while (n > 0 && (t[n - 1] == '&' || t[n - 1] == ' ')) t[--n] = '\0';
  if (hl_starts_with(t, "const ")) memmove(t, t + 6, strlen(t + 6) + 1);
  return t;
}

static void collect(hl_probes *P, edited *E, size_t nE, CXDiagnostic d) {
  char *msg = hl_cxstring_take(clang_getDiagnosticSpelling(d));
  unsigned long size, align;
  char tc[8], nc[8], nm[8];
  int id;
  if (!hl_starts_with(msg, PROBE_ERROR) ||
      sscanf(msg + strlen(PROBE_ERROR) - strlen("hl_probe_<"), "hl_probe_<%lu, %lu, %7[a-z], %7[a-z], %7[a-z], %d>",
             &size, &align, tc, nc, nm, &id) != 6 ||
      id < 0 || (size_t)id >= P->n) {
    free(msg);
    return;
  }
  free(msg);
  hl_probe_hit h;
  memset(&h, 0, sizeof h);
  h.id = id;
  h.size = (long)size;
  h.align = (long)align;
  h.trivially_copyable = !strcmp(tc, "true");
  h.nothrow_copy = !strcmp(nc, "true");
  h.nothrow_move = !strcmp(nm, "true");
  size_t cap = 0;
  CXDiagnosticSet notes = clang_getChildDiagnostics(d);
  unsigned nn = notes ? clang_getNumDiagnosticsInSet(notes) : 0;
  for (unsigned i = 0; i < nn; i++) {
    CXDiagnostic note = clang_getDiagnosticInSet(notes, i);
    char *text = hl_cxstring_take(clang_getDiagnosticSpelling(note));
    hl_loc loc;
    if (hl_ends_with(text, "requested here") && !map_loc(P, E, nE, clang_getDiagnosticLocation(note), &loc)) {
      if (h.nchain == 0) h.type = probed_type(text);
      if (!clang_Location_isInSystemHeader(clang_getDiagnosticLocation(note))) h.user = h.nchain;
      HL_PUSH(h.chain, h.nchain, cap, loc);
    }
    free(text);
    clang_disposeDiagnostic(note);
  }
  if (h.nchain == 0 || !h.type) {
    hit_free(&h);
    return;
  }
  HL_PUSH(P->hits, P->nhits, P->caphits, h);
}

int hl_probes_run(hl_probes *P, char **why) {
  if (P->n == 0) return 0;
  edited *E = NULL;
  size_t nE = 0, capE = 0;
  CXFile main_file = clang_getFile(P->u.tu, P->u.job->source);
  char *main_abs = main_file ? hl_file_abspath(main_file, P->u.job->directory) : hl_abspath(P->u.job->file);
  edited *m = edited_for(&E, &nE, &capE, main_abs);
  m->name = hl_xstrdup(P->u.job->source);
  m->orig = main_file ? clang_getFileContents(P->u.tu, main_file, &m->orig_len) : NULL;
  free(main_abs);
  int rc = 0;
  if (!m->orig) {
    *why = hl_xasprintf("%s: cannot read it again to probe template instantiations", hl_display_path(P->u.job->file));
    rc = -1;
    goto out;
  }
  /* The declarations go first (after a byte order mark), before any
   * header that holds a probe. */
  insert(m, hl_starts_with(m->orig, "\xEF\xBB\xBF") && m->orig_len >= 3 ? 3 : 0, hl_xstrdup(probe_decls));
  for (size_t i = 0; i < P->n; i++) {
    edited *e = edited_for(&E, &nE, &capE, P->v[i].file);
    if (!e->orig) {
      e->name = hl_xstrdup(e->file);
      e->orig = clang_getFileContents(P->u.tu, P->v[i].cxfile, &e->orig_len);
    }
    insert(e, P->v[i].begin, hl_xasprintf("::hl_probe_fn<%zu>(", i));
    insert(e, P->v[i].end, hl_xstrdup(")"));
  }
  struct CXUnsavedFile *unsaved = hl_xcalloc(nE, sizeof *unsaved);
  for (size_t i = 0; i < nE; i++) {
    build(&E[i]);
    unsaved[i] = (struct CXUnsavedFile){E[i].name, hl_sb_str(&E[i].text), (unsigned long)E[i].text.len};
  }
  /* Every instantiation's error is wanted, not the first twenty. */
  const char **a = hl_xcalloc(P->u.nargs + 1, sizeof *a);
  for (size_t i = 0; i < P->u.nargs; i++) a[i] = P->u.args[i];
  a[P->u.nargs] = "-ferror-limit=0";
  CXTranslationUnit q = NULL;
  enum CXErrorCode err = clang_parseTranslationUnit2(P->u.index, P->u.job->source, a, (int)P->u.nargs + 1,
                                                     unsaved, (unsigned)nE, CXTranslationUnit_KeepGoing, &q);
  free(a);
  if (err != CXError_Success || !q) {
    *why = hl_xasprintf("%s: the parse that probes template instantiations failed (libclang error %d)",
                        hl_display_path(P->u.job->file), (int)err);
    rc = -1;
  } else {
    unsigned nd = clang_getNumDiagnostics(q);
    for (unsigned i = 0; i < nd; i++) {
      CXDiagnostic d = clang_getDiagnostic(q, i);
      if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) collect(P, E, nE, d);
      clang_disposeDiagnostic(d);
    }
    clang_disposeTranslationUnit(q);
    /* Grouped by probe, each probe's in the compiler's order. */
    for (size_t i = 1; i < P->nhits; i++)
      for (size_t j = i; j > 0 && P->hits[j - 1].id > P->hits[j].id; j--) {
        hl_probe_hit t = P->hits[j];
        P->hits[j] = P->hits[j - 1];
        P->hits[j - 1] = t;
      }
  }
  free(unsaved);
out:
  for (size_t i = 0; i < nE; i++) {
    for (size_t k = 0; k < E[i].nins; k++) free(E[i].ins[k].text);
    free(E[i].ins);
    free(E[i].file);
    free(E[i].name);
    hl_sb_free(&E[i].text);
  }
  free(E);
  return rc;
}

const hl_probe_hit *hl_probes_hits(const hl_probes *P, int id, size_t *n) {
  size_t first = P->nhits, count = 0;
  for (size_t i = 0; i < P->nhits; i++)
    if (P->hits[i].id == id) {
      if (first == P->nhits) first = i;
      count++;
    }
  *n = count;
  return count ? &P->hits[first] : NULL;
}
