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
  unsigned begin, end; /* byte offsets of the expression (a conversion probe: of the call) */
  int conversion;
  unsigned arg_begin, arg_end; /* a conversion probe's argument */
  char *as_type;       /* ...converted to this type, or NULL: as the call converts it */
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

/* The probe itself, one line, no #include: a type's reference and its
 * const are stripped (a forwarded lvalue deduces T& or const T&; a
 * wrapper stores the decayed type), and the compiler's own trait builtins
 * give what the libraries' std:: traits give. Its body fails to compile on
 * purpose, once per instantiation, naming the numbers. */
static const char probe_decls[] =
    "template <unsigned long, unsigned long, bool, bool, bool, int> struct hl_probe_;"
    " template <class T> struct hl_probe_rr_ { typedef T type; };"
    " template <class T> struct hl_probe_rr_<T &> { typedef T type; };"
    " template <class T> struct hl_probe_rr_<T &&> { typedef T type; };"
    " template <class T> struct hl_probe_rr_<const T &> { typedef T type; };"
    " template <class T> struct hl_probe_rr_<const T &&> { typedef T type; };"
    " template <int Id, class T> T &&hl_probe_fn(T &&t) noexcept {"
    " typedef typename hl_probe_rr_<T>::type U;"
    " (void)sizeof(hl_probe_<sizeof(U), alignof(U), __is_trivially_copyable(U),"
    " __is_nothrow_constructible(U, const U &), __is_nothrow_constructible(U, U &&), Id>);"
    " return static_cast<T &&>(t); }\n";

/* The conversion probe: a proxy that cannot be copied or called, holding
 * the argument, whose one conversion goes to any type the argument itself
 * converts to; the overload chosen for the call instantiates it with that
 * type, and its body fails naming the type, the argument's and the
 * numbers. */
static const char conversion_decls[] =
    "template <class, class, unsigned long, unsigned long, bool, bool, bool, int> struct hl_conv_;"
    " template <bool> struct hl_conv_if_ {}; template <> struct hl_conv_if_<true> { typedef int type; };"
    " template <int Id, class T> struct hl_convp_ { T &&t;"
    " explicit hl_convp_(T &&a) noexcept : t(static_cast<T &&>(a)) {}"
    " hl_convp_(hl_convp_ &&o) noexcept : t(static_cast<T &&>(o.t)) {}"
    " hl_convp_(const hl_convp_ &) = delete;"
    " template <class To, typename hl_conv_if_<__is_constructible(To, T &&)>::type = 0> operator To() const {"
    " typedef typename hl_probe_rr_<T>::type U;"
    " (void)sizeof(hl_conv_<To, U, sizeof(U), alignof(U), __is_trivially_copyable(U),"
    " __is_nothrow_constructible(U, const U &), __is_nothrow_constructible(U, U &&), Id>);"
    " return To(static_cast<T &&>(t)); } };"
    " template <int Id, class T> hl_convp_<Id, T> hl_conv_fn(T &&t) noexcept {"
    " return hl_convp_<Id, T>(static_cast<T &&>(t)); }\n";

#define PROBE_ERROR "implicit instantiation of undefined template 'hl_probe_<"
#define CONV_ERROR "implicit instantiation of undefined template 'hl_conv_<"
#define PROBE_FN "hl_probe_fn<"

hl_probes *hl_probes_new(const hl_unit *u) {
  hl_probes *P = hl_xcalloc(1, sizeof *P);
  P->u = *u;
  return P;
}

static void hit_free(hl_probe_hit *h) {
  free(h->type);
  free(h->to);
  free(h->in_system);
  for (size_t i = 0; i < h->nchain; i++) hl_loc_free(&h->chain[i]);
  free(h->chain);
}

void hl_probes_free(hl_probes *P) {
  if (!P) return;
  for (size_t i = 0; i < P->n; i++) {
    free(P->v[i].file);
    free(P->v[i].as_type);
  }
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

/* The expression's file and offsets, when they are the code's own text.
 * Returns its file's text, or NULL with *why. */
static const char *own_text(const hl_probes *P, CXCursor e, CXFile *f, unsigned *b, unsigned *end, const char **why) {
  CXSourceRange r = clang_getCursorExtent(e);
  CXFile g, sf;
  unsigned sb, line, col;
  if (file_offset(clang_getRangeStart(r), f, b) || file_offset(clang_getRangeEnd(r), &g, end) ||
      !clang_File_isEqual(*f, g) || *end <= *b) {
    *why = "the stored expression has no place in a file";
    return NULL;
  }
  /* Text spelled inside a macro's body is not the code's own text there. */
  clang_getSpellingLocation(clang_getRangeStart(r), &sf, &line, &col, &sb);
  if (!sf || !clang_File_isEqual(sf, *f) || sb != *b) {
    *why = "the stored expression comes from a macro";
    return NULL;
  }
  size_t len = 0;
  const char *text = clang_getFileContents(P->u.tu, *f, &len);
  if (!text || *end > len) {
    *why = "the stored expression's file cannot be read";
    return NULL;
  }
  return text;
}

int hl_probes_add(hl_probes *P, CXCursor e, const char **why) {
  CXFile f;
  unsigned b, end;
  const char *text = own_text(P, e, &f, &b, &end, why);
  if (!text) return -1;
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
  probe p = {hl_file_abspath(f, P->u.job->directory), f, b, end, 0, 0, 0, NULL};
  HL_PUSH(P->v, P->n, P->cap, p);
  return (int)(P->n - 1);
}

int hl_probes_add_conversion(hl_probes *P, CXCursor wrapped, CXCursor arg, const char *as_type, const char **why) {
  CXFile f, g;
  unsigned b, end, ab, aend;
  if (!own_text(P, wrapped, &f, &b, &end, why) || !own_text(P, arg, &g, &ab, &aend, why)) return -1;
  if (!clang_File_isEqual(f, g) || ab < b || aend > end) {
    *why = "the argument is not inside its call's text";
    return -1;
  }
  for (size_t i = 0; i < P->n; i++)
    if (P->v[i].conversion && clang_File_isEqual(P->v[i].cxfile, f) && P->v[i].begin == b && P->v[i].arg_begin == ab)
      return (int)i;
  probe p = {hl_file_abspath(f, P->u.job->directory), f, b, end, 1, ab, aend, as_type ? hl_xstrdup(as_type) : NULL};
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

/* The template arguments of "...'hl_conv_<A, B, ...>'" split at the commas
 * outside any brackets: the type converted to, the argument's, the numbers.
 * Returns how many (at most max); each malloc'd. */
static size_t split_args(const char *s, char **out, size_t max) {
  size_t n = 0;
  int angle = 0, paren = 0;
  const char *from = s;
  for (const char *p = s; *p && n < max; p++) {
    if (*p == '(' || *p == '[' || *p == '{') paren++;
    else if (*p == ')' || *p == ']' || *p == '}') paren--;
    else if (!paren && *p == '<') angle++;
    else if (!paren && *p == '>' && angle > 0) angle--;
    if ((*p == ',' && !paren && !angle) || (*p == '>' && !paren && angle == 0 && !strcmp(p, ">'"))) {
      out[n++] = hl_xstrndup(from, (size_t)(p - from));
      from = p + 2;
      if (*p == '>') break;
    }
  }
  return n;
}

/* The offset of line:col in text. */
static unsigned offset_of_line_col(const char *text, size_t len, unsigned line, unsigned col) {
  size_t i = 0;
  for (unsigned l = 1; l < line && i < len; i++)
    if (text[i] == '\n') l++;
  return (unsigned)(i + col - 1 <= len ? i + col - 1 : len);
}

/* The type as the compiler spelled it in the probe parse, with each
 * "(lambda at file:line:col)" of an edited file back where it is on disk. */
static char *unmap_lambdas(const edited *E, size_t nE, const char *type) {
  hl_sb b = {0};
  const char *p = type, *at;
  while ((at = strstr(p, "(lambda at "))) {
    const char *path = at + strlen("(lambda at "), *close = strchr(path, ')');
    hl_sb_putn(&b, p, (size_t)(path - p));
    p = path;
    if (!close) break;
    const char *c2 = close, *c1;
    while (c2 > path && c2[-1] != ':') c2--;
    for (c1 = c2 - 1; c1 > path && c1[-1] != ':'; c1--) {
    }
    const edited *e = NULL;
    size_t plen = c1 > path ? (size_t)(c1 - 1 - path) : 0;
    for (size_t i = 0; i < nE && plen && !e; i++)
      if ((strlen(E[i].file) == plen && !strncmp(E[i].file, path, plen)) ||
          (E[i].name && strlen(E[i].name) == plen && !strncmp(E[i].name, path, plen)))
        e = &E[i];
    if (!e) continue;
    unsigned line, col;
    unsigned off = unmap(e, offset_of_line_col(hl_sb_str(&e->text), e->text.len, (unsigned)atoi(c1), (unsigned)atoi(c2)));
    line_col(e->orig, e->orig_len, off, &line, &col);
    hl_sb_putn(&b, path, plen);
    hl_sb_printf(&b, ":%u:%u", line, col);
    p = close;
  }
  hl_sb_puts(&b, p);
  return hl_sb_take(&b);
}

/* A conversion probe's error: its numbers and both types into h. */
static int conversion_error(const char *msg, hl_probe_hit *h) {
  char *a[8] = {0};
  size_t n = hl_starts_with(msg, CONV_ERROR) ? split_args(msg + strlen(CONV_ERROR), a, 8) : 0;
  int ok = n == 8;
  if (ok) {
    h->to = a[0];
    h->type = a[1];
    /* The argument's type without its const (a const T & argument). */
    size_t n1 = strlen(h->type);
    if (n1 > 6 && !strcmp(h->type + n1 - 6, " const")) h->type[n1 - 6] = '\0';
    if (hl_starts_with(h->type, "const ")) memmove(h->type, h->type + 6, strlen(h->type + 6) + 1);
    h->size = strtol(a[2], NULL, 10);
    h->align = strtol(a[3], NULL, 10);
    h->trivially_copyable = !strcmp(a[4], "true");
    h->nothrow_copy = !strcmp(a[5], "true");
    h->nothrow_move = !strcmp(a[6], "true");
    h->id = (int)strtol(a[7], NULL, 10);
  }
  for (size_t i = ok ? 2 : 0; i < n; i++) free(a[i]);
  return ok ? 0 : -1;
}

/* A layout probe's error: its numbers into h. */
static int layout_error(const char *msg, hl_probe_hit *h) {
  unsigned long size, align;
  char tc[8], nc[8], nm[8];
  if (!hl_starts_with(msg, PROBE_ERROR) ||
      sscanf(msg + strlen(PROBE_ERROR) - strlen("hl_probe_<"), "hl_probe_<%lu, %lu, %7[a-z], %7[a-z], %7[a-z], %d>",
             &size, &align, tc, nc, nm, &h->id) != 6)
    return -1;
  h->size = (long)size;
  h->align = (long)align;
  h->trivially_copyable = !strcmp(tc, "true");
  h->nothrow_copy = !strcmp(nc, "true");
  h->nothrow_move = !strcmp(nm, "true");
  return 0;
}

/* Where a conversion probe's argument is, in the file on disk. */
static void argument_loc(const hl_probes *P, const edited *E, size_t nE, const probe *p, hl_loc *out) {
  memset(out, 0, sizeof *out);
  out->file = hl_xstrdup(p->file);
  out->offset = p->arg_begin;
  for (size_t i = 0; i < nE; i++)
    if (!strcmp(E[i].file, p->file)) line_col(E[i].orig, E[i].orig_len, p->arg_begin, &out->line, &out->col);
  (void)P;
}

static void collect(hl_probes *P, edited *E, size_t nE, CXDiagnostic d) {
  char *msg = hl_cxstring_take(clang_getDiagnosticSpelling(d));
  hl_probe_hit h;
  memset(&h, 0, sizeof h);
  int conversion = !conversion_error(msg, &h);
  int bad = !conversion && layout_error(msg, &h);
  free(msg);
  if (bad || h.id < 0 || (size_t)h.id >= P->n || P->v[h.id].conversion != conversion) {
    hit_free(&h);
    return;
  }
  size_t cap = 0, capsys = 0;
  int skipped = 0, elsewhere = 0;
  if (conversion) {
    /* The conversion is instantiated in the copy of the call, or deeper in
     * a library template it hands the proxy to: the store is the
     * argument's. */
    hl_loc at;
    argument_loc(P, E, nE, &P->v[h.id], &at);
    hl_grow((void **)&h.in_system, &capsys, 1, sizeof *h.in_system);
    h.in_system[0] = 0;
    HL_PUSH(h.chain, h.nchain, cap, at);
  }
  CXDiagnosticSet notes = clang_getChildDiagnostics(d);
  unsigned nn = notes ? clang_getNumDiagnosticsInSet(notes) : 0;
  for (unsigned i = 0; i < nn; i++) {
    CXDiagnostic note = clang_getDiagnosticInSet(notes, i);
    char *text = hl_cxstring_take(clang_getDiagnosticSpelling(note));
    hl_loc loc;
    if (hl_ends_with(text, "requested here") && !map_loc(P, E, nE, clang_getDiagnosticLocation(note), &loc)) {
      /* A conversion's own instantiation point is replaced by its argument.
       * It is the call's copy, or a library template the copy hands the
       * proxy to (std::make_shared building its object): a template of the
       * code's own that converts it stores it there, under its own probe. */
      if (conversion && !skipped) {
        skipped = 1;
        elsewhere = !clang_Location_isInSystemHeader(clang_getDiagnosticLocation(note)) &&
                    (loc.offset != P->v[h.id].begin || strcmp(loc.file, P->v[h.id].file));
        hl_loc_free(&loc);
      } else {
        if (h.nchain == 0) h.type = probed_type(text);
        int sys = clang_Location_isInSystemHeader(clang_getDiagnosticLocation(note));
        if (!sys) h.user = h.nchain;
        hl_grow((void **)&h.in_system, &capsys, h.nchain + 1, sizeof *h.in_system);
        h.in_system[h.nchain] = (char)sys;
        HL_PUSH(h.chain, h.nchain, cap, loc);
      }
    }
    free(text);
    clang_disposeDiagnostic(note);
  }
  /* A template a conversion probe's copy handed its proxy to instantiates
   * its own stores with it: those answers are about the proxy. */
  if (h.nchain == 0 || !h.type || elsewhere || strstr(h.type, "hl_convp_<") || (h.to && strstr(h.to, "hl_convp_<"))) {
    hit_free(&h);
    return;
  }
  char *t = unmap_lambdas(E, nE, h.type);
  free(h.type);
  h.type = t;
  HL_PUSH(P->hits, P->nhits, P->caphits, h);
}

/* What goes before a conversion probe's call: a copy of it, in a branch
 * never taken but instantiated, with the argument through the proxy; then
 * the call itself, as the comma's operand (its value and type). */
static char *conversion_copy(const char *orig, const probe *p, size_t id) {
  hl_sb b = {0};
  hl_sb_puts(&b, "((false ? (void)(");
  if (p->as_type) {
    hl_sb_printf(&b, "%s(::hl_conv_fn<%zu>(", p->as_type, id);
    hl_sb_putn(&b, orig + p->arg_begin, p->arg_end - p->arg_begin);
    hl_sb_puts(&b, "))");
  } else {
    hl_sb_putn(&b, orig + p->begin, p->arg_begin - p->begin);
    hl_sb_printf(&b, "::hl_conv_fn<%zu>(", id);
    hl_sb_putn(&b, orig + p->arg_begin, p->arg_end - p->arg_begin);
    hl_sb_puts(&b, ")");
    hl_sb_putn(&b, orig + p->arg_end, p->end - p->arg_end);
  }
  hl_sb_puts(&b, ") : (void)0), ");
  return hl_sb_take(&b);
}

/* Each probe's text around its stored expression, in the file that holds
 * it; the declarations first (after a byte order mark), before any header
 * that holds a probe. */
static void insert_probes(hl_probes *P, edited **E, size_t *nE, size_t *capE, edited *m) {
  int conversions = 0;
  for (size_t i = 0; i < P->n; i++) conversions |= P->v[i].conversion;
  insert(m, hl_starts_with(m->orig, "\xEF\xBB\xBF") && m->orig_len >= 3 ? 3 : 0,
         hl_xasprintf("%s%s", probe_decls, conversions ? conversion_decls : ""));
  for (size_t i = 0; i < P->n; i++) {
    edited *e = edited_for(E, nE, capE, P->v[i].file);
    if (!e->orig) {
      e->name = hl_xstrdup(e->file);
      e->orig = clang_getFileContents(P->u.tu, P->v[i].cxfile, &e->orig_len);
    }
    insert(e, P->v[i].begin,
           P->v[i].conversion ? conversion_copy(e->orig, &P->v[i], i) : hl_xasprintf("::hl_probe_fn<%zu>(", i));
    insert(e, P->v[i].end, hl_xstrdup(")"));
  }
}

/* Parses the probed copy and collects every probe's errors, grouped by
 * probe, each probe's in the compiler's order. */
static int parse_probed(hl_probes *P, edited *E, size_t nE, void (*parsed)(CXTranslationUnit, void *), void *data,
                        char **why) {
  struct CXUnsavedFile *probed = hl_xcalloc(nE, sizeof *probed);
  for (size_t i = 0; i < nE; i++) {
    build(&E[i]);
    probed[i] = (struct CXUnsavedFile){E[i].name, hl_sb_str(&E[i].text), (unsigned long)E[i].text.len};
  }
  /* The other files an editor has unsaved text for, as the unit saw them. */
  unsigned nunsaved;
  struct CXUnsavedFile *unsaved = hl_unsaved_with(P->u.unsaved, P->u.nunsaved, probed, (unsigned)nE, &nunsaved);
  free(probed);
  /* Every instantiation's error is wanted, not the first twenty, nor a
   * chain with its middle elided (the default keeps 10 notes). */
  const char **a = hl_xcalloc(P->u.nargs + 2, sizeof *a);
  for (size_t i = 0; i < P->u.nargs; i++) a[i] = P->u.args[i];
  a[P->u.nargs] = "-ferror-limit=0";
  a[P->u.nargs + 1] = "-ftemplate-backtrace-limit=0";
  CXTranslationUnit q = NULL;
  enum CXErrorCode err = clang_parseTranslationUnit2(P->u.index, P->u.job->source, a, (int)P->u.nargs + 2,
                                                     unsaved, nunsaved, CXTranslationUnit_KeepGoing, &q);
  free(a);
  free(unsaved);
  if (err != CXError_Success || !q) {
    *why = hl_xasprintf("%s: the parse that probes template instantiations failed (libclang error %d)",
                        hl_display_path(P->u.job->file), (int)err);
    return -1;
  }
  unsigned nd = clang_getNumDiagnostics(q);
  for (unsigned i = 0; i < nd; i++) {
    CXDiagnostic d = clang_getDiagnostic(q, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) collect(P, E, nE, d);
    clang_disposeDiagnostic(d);
  }
  if (parsed) parsed(q, data);
  clang_disposeTranslationUnit(q);
  for (size_t i = 1; i < P->nhits; i++)
    for (size_t j = i; j > 0 && P->hits[j - 1].id > P->hits[j].id; j--) {
      hl_probe_hit t = P->hits[j];
      P->hits[j] = P->hits[j - 1];
      P->hits[j - 1] = t;
    }
  return 0;
}

int hl_probes_run(hl_probes *P, const char *suffix, void (*parsed)(CXTranslationUnit q, void *data), void *data,
                  char **why) {
  if (P->n == 0) return 0;
  edited *E = NULL;
  size_t nE = 0, capE = 0;
  CXFile main_file = clang_getFile(P->u.tu, P->u.job->source);
  char *main_abs = main_file ? hl_file_abspath(main_file, P->u.job->directory) : hl_abspath(P->u.job->file);
  edited *m = edited_for(&E, &nE, &capE, main_abs);
  m->name = hl_xstrdup(P->u.job->source);
  m->orig = main_file ? clang_getFileContents(P->u.tu, main_file, &m->orig_len) : NULL;
  free(main_abs);
  int rc;
  if (!m->orig) {
    *why = hl_xasprintf("%s: cannot read it again to probe template instantiations", hl_display_path(P->u.job->file));
    rc = -1;
  } else {
    insert_probes(P, &E, &nE, &capE, m);
    if (suffix) insert(m, (unsigned)m->orig_len, hl_xstrdup(suffix));
    rc = parse_probed(P, E, nE, parsed, data, why);
  }
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
