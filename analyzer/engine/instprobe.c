#include "engine/instprobe.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/ast.h"
#include "engine/instances.h"
#include "util/strv.h"
#include "util/util.h"

typedef struct probe {
  char *file; /* absolute path */
  CXFile cxfile;
  unsigned begin, end; /* byte offsets of the expression (a conversion probe: of the call) */
  int conversion;
  unsigned arg_begin, arg_end; /* a conversion probe's argument */
  char *as_type;               /* ...converted to this type, or NULL: as the call converts it */
  unsigned copy_at;            /* where its copy goes: begin, or the start of its statement */
  int statement;               /* ...as a statement of its own (if (false) { copy; }) */
  CXCursor expr;               /* a layout probe's expression, a conversion probe's argument (engine/instances) */
  CXCursor call;               /* a conversion probe's call (its argument itself with as_type) */
  int relay;                   /* a relay's: its answers continue other probes' chains */
} probe;

/* One file of the unit as the probe parse sees it: the text on disk with
 * insertions, each remembered so that positions map back. */
typedef struct segment {
  unsigned in, from, len; /* bytes [in, in + len) of the inserted text copy [from, from + len) of the original */
} segment;

typedef struct insertion {
  unsigned at; /* offset in the original text */
  unsigned len;
  char *text;
  segment seg[3]; /* the original's text it copies (a conversion probe's copy of its call) */
  int nseg;
} insertion;

typedef struct edited {
  char *file;       /* absolute path */
  char *name;       /* the name handed to libclang */
  const char *orig; /* the original text (owned by the unit) */
  size_t orig_len;
  insertion *ins;
  size_t nins, capins;
  hl_sb text;
} edited;

struct hl_inst {
  hl_unit u;
  probe *v;
  size_t n, cap;
  hl_inst_answer *hits;
  size_t nhits, caphits;
  hl_strv targets; /* hl_inst_conversion_targets */
};

/* The probe itself, one line, no #include: a type's reference and its
 * const are stripped (a forwarded lvalue deduces T& or const T&; a
 * wrapper stores the decayed type), and the compiler's own trait builtins
 * give what the libraries' std:: traits give. Its body fails to compile on
 * purpose, once per instantiation, naming the numbers. It is constexpr:
 * clang instantiates a constexpr function where it is called, inside the
 * instantiation that calls it, whose callers the error's notes name (a
 * queued instantiation would name none beyond its own call); its declared
 * return type keeps the call valid whatever its body (a deduced one would
 * fail with the body, and take the caller's deduced return type with it).
 * The failure is a static assertion, which leaves the specialization valid:
 * an error that made it invalid (an incomplete type) would fail its next
 * use, from another instantiation, and that instantiation with it. Only
 * declarations and one return statement, as C++11 wants. */
#define PROBE_BODY                                                                              \
  " typedef typename hl_probe_rr_<T>::type U;"                                                  \
  " static_assert(hl_probe_<sizeof(U), alignof(U), __is_trivially_copyable(U),"                 \
  " __is_nothrow_constructible(U, const U &), __is_nothrow_constructible(U, U &&), Id>::value," \
  " \"heaplint probe\");"                                                                       \
  " return static_cast<T &&>(t); "
static const char probe_decls[] =
    "template <unsigned long, unsigned long, bool, bool, bool, int> struct hl_probe_ { static const bool value = "
    "false; };"
    " template <class T> struct hl_probe_rr_ { typedef T type; };"
    " template <class T> struct hl_probe_rr_<T &> { typedef T type; };"
    " template <class T> struct hl_probe_rr_<T &&> { typedef T type; };"
    " template <class T> struct hl_probe_rr_<const T &> { typedef T type; };"
    " template <class T> struct hl_probe_rr_<const T &&> { typedef T type; };"
    " template <int Id, class T> constexpr T &&hl_probe_fn(T &&t) noexcept {" PROBE_BODY "}\n";

/* The conversion probe: a proxy that cannot be copied or called, holding
 * the argument, whose one conversion goes to any type the argument itself
 * converts to; the overload chosen for the call instantiates it with that
 * type, and its body fails naming the type, the argument's and the
 * numbers. hl_conv_fn<Id, Nested>::take makes the proxy, except where the
 * function the copy is in names the probe's own proxy (Nested, from its
 * __PRETTY_FUNCTION__): there it passes the argument as it is (the call
 * again), as the copy's call made that function with the proxy itself
 * (conversion_copy). A binary search in C++11's constexpr: its recursion
 * is as deep as the name's length's logarithm, not as the name. */
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
    " constexpr bool hl_conv_at_(const char *s, const char *w) { return !*w || (*s == *w && hl_conv_at_(s + 1, w + "
    "1)); }"
    " constexpr bool hl_conv_in_(const char *s, unsigned long lo, unsigned long hi, const char *w) {"
    " return hi - lo <= 1 ? (lo < hi && hl_conv_at_(s + lo, w))"
    " : (hl_conv_in_(s, lo, lo + (hi - lo) / 2, w) || hl_conv_in_(s, lo + (hi - lo) / 2, hi, w)); }"
    " template <unsigned long N> constexpr bool hl_conv_nested_(const char (&f)[N], const char *w) {"
    " return hl_conv_in_(f, 0, N, w); }"
    " template <int Id, bool Nested> struct hl_conv_fn { template <class T> static hl_convp_<Id, T> take(T &&t) "
    "noexcept {"
    " return hl_convp_<Id, T>(static_cast<T &&>(t)); } };"
    " template <int Id> struct hl_conv_fn<Id, true> { template <class T> static T &&take(T &&t) noexcept {"
    " return static_cast<T &&>(t); } };\n";

#define PROBE_ERROR "hl_probe_<"
#define CONV_ERROR "implicit instantiation of undefined template 'hl_conv_<"
#define PROBE_FN "hl_probe_fn<"

hl_inst *hl_inst_new(const hl_unit *u) {
  hl_inst *P = hl_xcalloc(1, sizeof *P);
  P->u = *u;
  return P;
}

static void hit_free(hl_inst_answer *h) {
  free(h->type);
  free(h->to);
  free(h->in_system);
  free(h->carries);
  for (size_t i = 0; i < h->nchain; i++) hl_loc_free(&h->chain[i]);
  free(h->chain);
}

void hl_inst_free(hl_inst *P) {
  if (!P) return;
  hl_instances_forget();
  for (size_t i = 0; i < P->n; i++) {
    free(P->v[i].file);
    free(P->v[i].as_type);
  }
  free(P->v);
  for (size_t i = 0; i < P->nhits; i++) hit_free(&P->hits[i]);
  free(P->hits);
  hl_strv_free(&P->targets);
  free(P);
}

void hl_inst_conversion_targets(hl_inst *P, const char *const *names, size_t n) {
  for (size_t i = 0; i < n; i++) hl_strv_add(&P->targets, names[i]);
  if (n == 0) hl_strv_add(&P->targets, ""); /* set, and matching nothing */
}

/* Whether a conversion to to is one the probes ask about. */
static int wanted_to(const hl_inst *P, const char *to) {
  if (!P->targets.v) return 1;
  if (hl_starts_with(to, "std::__1::")) to += strlen("std::__1::") - strlen("std::");
  size_t len = strcspn(to, "<");
  for (size_t i = 0; i < P->targets.n; i++)
    if (strlen(P->targets.v[i]) == len && !strncmp(P->targets.v[i], to, len)) return 1;
  return 0;
}

size_t hl_inst_pending(const hl_inst *P) { return P->n; }

static int file_offset(CXSourceLocation l, CXFile *f, unsigned *off) {
  clang_getFileLocation(l, f, NULL, NULL, off);
  return *f ? 0 : -1;
}

/* The expression's file and offsets, when they are the code's own text.
 * Returns its file's text, or NULL with *why. */
static const char *own_text(const hl_inst *P, CXCursor e, CXFile *f, unsigned *b, unsigned *end, const char **why) {
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
  /* A pack expansion (`p(ps...)`) is many expressions: wrapping it as one
   * breaks its function, and every instantiation that needs it. */
  size_t k = *end;
  while (k < len && (text[k] == ' ' || text[k] == '\t' || text[k] == '\n' || text[k] == '\r')) k++;
  if (clang_getCursorKind(e) == CXCursor_PackExpansionExpr || (k + 3 <= len && !strncmp(text + k, "...", 3)) ||
      (*end >= *b + 3 && !strncmp(text + *end - 3, "...", 3))) {
    *why = "the stored expression is a pack expansion";
    return NULL;
  }
  return text;
}

int hl_inst_ask_layout(hl_inst *P, CXCursor e, const char **why) {
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
  probe p = {hl_file_abspath(f, P->u.job->directory), f, b, end, 0, 0, 0, NULL, b, 0, e, clang_getNullCursor(), 0};
  HL_PUSH(P->v, P->n, P->cap, p);
  return (int)(P->n - 1);
}

/* The extent of the body of the function whose code holds offset off of
 * file f (the parent declaration libclang gives the expression there, or
 * the local variable it initializes). Returns 0 with *begin and *end, or
 * -1 (not in a function's body: a default argument, a signature). */
typedef struct body_find {
  unsigned begin, end;
  int found;
} body_find;

static enum CXChildVisitResult find_body(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  body_find *w = d;
  if (clang_getCursorKind(c) != CXCursor_CompoundStmt) return CXChildVisit_Continue;
  CXSourceRange r = clang_getCursorExtent(c);
  clang_getFileLocation(clang_getRangeStart(r), NULL, NULL, NULL, &w->begin);
  clang_getFileLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &w->end);
  w->found = 1;
  return CXChildVisit_Break;
}

static int function_body(CXTranslationUnit tu, CXFile f, unsigned off, unsigned *begin, unsigned *end) {
  CXCursor d = clang_getCursorSemanticParent(clang_getCursor(tu, clang_getLocationForOffset(tu, f, off)));
  for (int depth = 0; depth < 4 && !clang_Cursor_isNull(d); depth++) {
    enum CXCursorKind k = clang_getCursorKind(d);
    if (hl_is_function_like(k) && k != CXCursor_LambdaExpr) {
      body_find w = {0, 0, 0};
      clang_visitChildren(d, find_body, &w);
      if (!w.found) return -1;
      *begin = w.begin;
      *end = w.end;
      return 0;
    }
    if (k != CXCursor_VarDecl) return -1;
    d = clang_getCursorSemanticParent(d);
  }
  return -1;
}

static int word_before(const char *text, size_t i, const char *w) {
  size_t n = strlen(w);
  while (i > 0 && isspace((unsigned char)text[i - 1])) i--;
  return i >= n && !strncmp(text + i - n, w, n) &&
         (i == n || !(isalnum((unsigned char)text[i - n - 1]) || text[i - n - 1] == '_'));
}

/* Whether the text before a ';' (at semi) back to the statement before it
 * is a for header's (for (init; cond; ...): its ';' ends no statement). */
static int in_for_header(const char *text, size_t semi) {
  int depth = 0;
  for (size_t i = semi; i > 0; i--) {
    char c = text[i - 1];
    if (c == ')' || c == ']' || c == '}')
      depth++;
    else if (c == '(' || c == '[' || c == '{') {
      if (--depth < 0) return c == '(' && word_before(text, i - 1, "for");
    } else if (c == ';' && depth == 0) {
      /* for (a; b; ...): a second ';' back is still the header's. */
      continue;
    }
    if (depth == 0 && (c == '}' || c == '{')) return 0;
  }
  return 0;
}

/* The start of the statement that holds the call at b, when a statement of
 * its own can go there with the same names in scope: the statement begins
 * after a ';' (not a for header's), a '}' or a block's '{'; the text back
 * to it crosses no header of if/for/while/switch/catch, no lambda
 * introducer or subscript it is inside, no braced initializer it is
 * inside, no label or ternary ':', no comma of a declarator list or comma
 * operator, no literal, block comment or preprocessor line (a line's "//"
 * comment is skipped); and it does not begin with else. Returns 0 with
 * *at, or -1. */
static int statement_start(const char *text, unsigned b, unsigned *at) {
  int depth = 0;  /* ( and [ : below 0 inside a call the statement makes */
  int braces = 0; /* } seen, their { not yet */
  int comma = 0;  /* a ',' at the lowest depth so far */
  size_t i = b;
  for (; i > 0; i--) {
    char c = text[i - 1];
    if (c == '\n') {
      /* The line above: from its "//" on, a comment. */
      size_t ls = i - 1;
      while (ls > 0 && text[ls - 1] != '\n') ls--;
      for (size_t q = ls; q + 1 < i - 1; q++)
        if (text[q] == '/' && text[q + 1] == '/') {
          i = q + 1;
          break;
        }
      continue;
    }
    if (c == '"' || c == '\'' || c == '#' || (c == '/' && i >= 2 && (text[i - 2] == '/' || text[i - 2] == '*')) ||
        (c == '*' && i >= 2 && text[i - 2] == '/'))
      return -1;
    if (braces > 0) {
      /* Inside a lambda's body or a braced list of the statement. */
      if (c == '}')
        braces++;
      else if (c == '{')
        braces--;
      continue;
    }
    if (c == ')' || c == ']') {
      depth++;
    } else if (c == '(' || c == '[') {
      if (--depth < 0) {
        if (c == '[' || word_before(text, i - 1, "if") || word_before(text, i - 1, "for") ||
            word_before(text, i - 1, "while") || word_before(text, i - 1, "switch") ||
            word_before(text, i - 1, "catch") || word_before(text, i - 1, "constexpr"))
          return -1;
        comma = 0;
      }
    } else if (c == '}') {
      if (depth == 0) break;
      braces = 1;
    } else if (c == '{') {
      if (depth < 0) return -1;
      /* A block's brace, not a braced initializer's. */
      size_t k = i - 1;
      while (k > 0 && isspace((unsigned char)text[k - 1])) k--;
      char p = k > 0 ? text[k - 1] : ';';
      if (!(p == ')' || p == '{' || p == '}' || p == ';' || word_before(text, i - 1, "else") ||
            word_before(text, i - 1, "do") || word_before(text, i - 1, "try") || word_before(text, i - 1, "mutable") ||
            word_before(text, i - 1, "noexcept")))
        return -1;
      break;
    } else if (c == ';') {
      if (depth > 0 || in_for_header(text, i - 1)) return -1;
      break;
    } else if (c == ':') {
      if (!((i >= 2 && text[i - 2] == ':') || text[i] == ':')) return -1;
    } else if (c == '?' && depth == 0) {
      return -1;
    } else if (c == ',' && depth <= 0) {
      comma = 1;
    }
  }
  if (i == 0 || comma) return -1;
  while (isspace((unsigned char)text[i])) i++;
  if (!strncmp(text + i, "else", 4) && !(isalnum((unsigned char)text[i + 4]) || text[i + 4] == '_')) return -1;
  *at = (unsigned)i;
  return 0;
}

int hl_inst_ask_conversion(hl_inst *P, CXCursor wrapped, CXCursor arg, const char *as_type, const char **why) {
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
  probe p = {hl_file_abspath(f, P->u.job->directory), f, b, end, 1,       ab, aend,
             as_type ? hl_xstrdup(as_type) : NULL,    b, 0, arg, wrapped, 0};
  size_t len = 0;
  const char *text = clang_getFileContents(P->u.tu, f, &len);
  unsigned at;
  unsigned body_begin, body_end;
  int same_call = -1; /* the call's other probes: their copies go where its first one's does */
  for (size_t i = 0; i < P->n && same_call < 0; i++)
    if (P->v[i].conversion && clang_File_isEqual(P->v[i].cxfile, f) && P->v[i].begin == b) same_call = (int)i;
  if (same_call >= 0) {
    p.copy_at = P->v[same_call].copy_at;
    p.statement = P->v[same_call].statement;
  } else if (!as_type &&
             (!function_body(P->u.tu, f, ab, &body_begin, &body_end) ||
              !function_body(P->u.tu, f, aend > ab ? aend - 1 : ab, &body_begin, &body_end) ||
              !function_body(P->u.tu, f, b, &body_begin, &body_end)) &&
             !statement_start(text, b, &at) && at > body_begin && end < body_end) {
    p.copy_at = at;
    p.statement = 1;
  }
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

static insertion *insert(edited *e, unsigned at, char *text) {
  insertion i = {at, (unsigned)strlen(text), text, {{0, 0, 0}}, 0};
  HL_PUSH(e->ins, e->nins, e->capins, i);
  return &e->ins[e->nins - 1];
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
 * where it was inserted, or with copies, inside a copy of the original's
 * text, where that text is: a lambda of a conversion probe's copy is the
 * call's own lambda, of the same type in every respect but its place). */
static unsigned unmap(const edited *e, unsigned off, int copies) {
  unsigned shift = 0;
  for (size_t i = 0; i < e->nins; i++) {
    if (off < e->ins[i].at + shift) break;
    if (off < e->ins[i].at + shift + e->ins[i].len) {
      /* In a copy of the original's text: where it was copied from. */
      unsigned in = off - (e->ins[i].at + shift);
      for (int k = 0; copies && k < e->ins[i].nseg; k++)
        if (in >= e->ins[i].seg[k].in && in < e->ins[i].seg[k].in + e->ins[i].seg[k].len)
          return e->ins[i].seg[k].from + (in - e->ins[i].seg[k].in);
      return e->ins[i].at;
    }
    shift += e->ins[i].len;
  }
  return off - shift;
}

static void line_col(const char *text, size_t len, unsigned off, unsigned *line, unsigned *col) {
  unsigned l = 1, c = 1;
  for (size_t i = 0; i < off && i < len; i++) {
    if (text[i] == '\n')
      l++, c = 1;
    else
      c++;
  }
  *line = l;
  *col = c;
}

/* A location of the probe parse, as it is in the files on disk (with
 * copies, inside a conversion probe's copy of a call: where that text is in
 * the call). */
static int map_loc(const hl_inst *P, edited *E, size_t nE, CXSourceLocation l, int copies, hl_loc *out) {
  if (hl_unit_loc(&P->u, l, out)) return -1;
  unsigned off = out->offset;
  for (size_t i = 0; i < nE; i++)
    if (!strcmp(E[i].file, out->file)) {
      out->offset = unmap(&E[i], off, copies);
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
    if (*p == '(' || *p == '[' || *p == '{')
      paren++;
    else if (*p == ')' || *p == ']' || *p == '}')
      paren--;
    else if (!paren && *p == '<')
      angle++;
    else if (!paren && *p == '>' && angle > 0)
      angle--;
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
    unsigned off =
        unmap(e, offset_of_line_col(hl_sb_str(&e->text), e->text.len, (unsigned)atoi(c1), (unsigned)atoi(c2)), 1);
    line_col(e->orig, e->orig_len, off, &line, &col);
    hl_sb_putn(&b, path, plen);
    hl_sb_printf(&b, ":%u:%u", line, col);
    p = close;
  }
  hl_sb_puts(&b, p);
  return hl_sb_take(&b);
}

/* A conversion probe's error: its numbers and both types into h. */
static int conversion_error(const char *msg, hl_inst_answer *h) {
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
    h->question = (int)strtol(a[7], NULL, 10);
  }
  for (size_t i = ok ? 2 : 0; i < n; i++) free(a[i]);
  return ok ? 0 : -1;
}

/* A layout probe's error: its numbers into h. */
static int layout_error(const char *msg, hl_inst_answer *h) {
  unsigned long size, align;
  char tc[8], nc[8], nm[8];
  /* "static assertion failed due to requirement 'hl_probe_<24, 8, true,
   * true, true, 3>::value': heaplint probe" (clang 14: "static_assert
   * failed ..."). */
  const char *p = strstr(msg, PROBE_ERROR);
  if (!p || !strstr(msg, "heaplint probe") ||
      sscanf(p, "hl_probe_<%lu, %lu, %7[a-z], %7[a-z], %7[a-z], %d>", &size, &align, tc, nc, nm, &h->question) != 6)
    return -1;
  h->size = (long)size;
  h->align = (long)align;
  h->trivially_copyable = !strcmp(tc, "true");
  h->nothrow_copy = !strcmp(nc, "true");
  h->nothrow_move = !strcmp(nm, "true");
  return 0;
}

/* Where a conversion probe's argument is, in the file on disk. */
static void argument_loc(const hl_inst *P, const edited *E, size_t nE, const probe *p, hl_loc *out) {
  memset(out, 0, sizeof *out);
  out->file = hl_xstrdup(p->file);
  out->offset = p->arg_begin;
  for (size_t i = 0; i < nE; i++)
    if (!strcmp(E[i].file, p->file)) line_col(E[i].orig, E[i].orig_len, p->arg_begin, &out->line, &out->col);
  (void)P;
}

/* Whether a "requested here" note instantiates a generic lambda's
 * operator() ("user()::(anonymous class)::operator()<int>", or "(lambda
 * at f.cpp:3:9)::operator()<...>"). */
static int generic_lambda_call(const char *note) {
  const char *op = strstr(note, ")::operator()<");
  if (!op) return 0;
  const char *a = strstr(note, "(anonymous class)"), *l = strstr(note, "(lambda at ");
  return (a && a < op) || (l && l < op);
}

static void collect(hl_inst *P, edited *E, size_t nE, CXDiagnostic d) {
  char *msg = hl_cxstring_take(clang_getDiagnosticSpelling(d));
  hl_inst_answer h;
  memset(&h, 0, sizeof h);
  int conversion = !conversion_error(msg, &h);
  int bad = !conversion && layout_error(msg, &h);
  free(msg);
  if (bad || h.question < 0 || (size_t)h.question >= P->n || P->v[h.question].conversion != conversion) {
    hit_free(&h);
    return;
  }
  size_t cap = 0, capsys = 0, capcar = 0;
  int skipped = 0, elsewhere = 0;
  if (conversion) {
    /* The conversion is instantiated in the copy of the call, or deeper in
     * a library template it hands the proxy to: the store is the
     * argument's. */
    hl_loc at;
    argument_loc(P, E, nE, &P->v[h.question], &at);
    hl_grow((void **)&h.in_system, &capsys, 1, sizeof *h.in_system);
    h.in_system[0] = 0;
    hl_grow((void **)&h.carries, &capcar, 1, sizeof *h.carries);
    h.carries[0] = 0;
    HL_PUSH(h.chain, h.nchain, cap, at);
  }
  CXDiagnosticSet notes = clang_getChildDiagnostics(d);
  unsigned nn = notes ? clang_getNumDiagnosticsInSet(notes) : 0;
  for (unsigned i = 0; i < nn; i++) {
    CXDiagnostic note = clang_getDiagnosticInSet(notes, i);
    char *text = hl_cxstring_take(clang_getDiagnosticSpelling(note));
    hl_loc loc;
    /* In a conversion probe's copy of a call, where the call itself is
     * (its callee's name: a relay finds the call there); the conversion's
     * own point is in no copied text, where the copy is inserted. */
    if (hl_ends_with(text, "requested here") && !map_loc(P, E, nE, clang_getDiagnosticLocation(note), 1, &loc)) {
      /* A conversion's own instantiation point is replaced by its argument.
       * It is the call's copy, or a library template the copy hands the
       * proxy to (std::make_shared building its object): a template of the
       * code's own that converts it stores it there, under its own probe. */
      if (conversion && !skipped) {
        skipped = 1;
        elsewhere = !clang_Location_isInSystemHeader(clang_getDiagnosticLocation(note)) &&
                    (loc.offset != P->v[h.question].copy_at || strcmp(loc.file, P->v[h.question].file));
        hl_loc_free(&loc);
      } else {
        if (h.nchain == 0) h.type = probed_type(text);
        int sys = clang_Location_isInSystemHeader(clang_getDiagnosticLocation(note));
        if (!sys) h.user = h.outer = h.nchain;
        hl_grow((void **)&h.in_system, &capsys, h.nchain + 1, sizeof *h.in_system);
        h.in_system[h.nchain] = (char)sys;
        /* Both spelled in the probe parse's text: comparable as they are. */
        hl_grow((void **)&h.carries, &capcar, h.nchain + 1, sizeof *h.carries);
        h.carries[h.nchain] = h.nchain > 0 && h.type && strstr(text, h.type)                  ? 1
                              : generic_lambda_call(text)                                     ? 3
                              : hl_starts_with(text, "in instantiation of function template") ? 0
                                                                                              : 2;
        HL_PUSH(h.chain, h.nchain, cap, loc);
      }
    }
    free(text);
    clang_disposeDiagnostic(note);
  }
  /* A template a conversion probe's copy handed its proxy to instantiates
   * its own stores with it: those answers are about the proxy. */
  if (h.nchain == 0 || !h.type || elsewhere || strstr(h.type, "hl_convp_<") ||
      (h.to && (strstr(h.to, "hl_convp_<") || !wanted_to(P, h.to)))) {
    hit_free(&h);
    return;
  }
  char *t = unmap_lambdas(E, nE, h.type);
  free(h.type);
  h.type = t;
  if (h.to) {
    t = unmap_lambdas(E, nE, h.to);
    free(h.to);
    h.to = t;
  }
  HL_PUSH(P->hits, P->nhits, P->caphits, h);
}

/* What goes before a conversion probe's call: a copy of it, in a branch
 * never taken but instantiated, with the argument through the proxy; then
 * the call itself, as the comma's operand (its value and type). In a
 * function's body the copy is a statement of its own before the call's
 * (if (false) { copy; }): a copy that does not compile (no overload takes
 * the proxy) then leaves the call's statement valid; inside it, it would
 * make the statement invalid, and with it a deduced return type and
 * everything the function would instantiate after.
 *
 * A copy whose call reaches the template that holds it made that template
 * with the proxy (BehaviorTree.CPP's registerNodeType<T>(ID, args...)
 * calls registerNodeType<T>(ID, ports, args...), and for the proxy the
 * variadic overload wins again, with one more argument): there the copy
 * is the call again, with the argument as it is (conversion_decls). Its
 * answers there would be about the proxy; and each level would make
 * another, to the compiler's depth limit, each with errors whose notes
 * name every level: their text grows with the cube of the depth (14 GB
 * and the OOM killer on that unit). */
static void conversion_copy(edited *e, const probe *p, size_t id) {
  const char *orig = e->orig;
  hl_sb b = {0};
  segment seg[3];
  int nseg = 0;
  hl_sb_puts(&b, p->statement ? "if (false) { (void)(" : "((false ? (void)(");
  if (p->as_type) {
    hl_sb_printf(&b, "%s(::hl_conv_fn<%zu, ::hl_conv_nested_(__PRETTY_FUNCTION__, \"hl_convp_<%zu,\")>::take(",
                 p->as_type, id, id);
    seg[nseg++] = (segment){(unsigned)b.len, p->arg_begin, p->arg_end - p->arg_begin};
    hl_sb_putn(&b, orig + p->arg_begin, p->arg_end - p->arg_begin);
    hl_sb_puts(&b, "))");
  } else {
    seg[nseg++] = (segment){(unsigned)b.len, p->begin, p->arg_begin - p->begin};
    hl_sb_putn(&b, orig + p->begin, p->arg_begin - p->begin);
    hl_sb_printf(&b, "::hl_conv_fn<%zu, ::hl_conv_nested_(__PRETTY_FUNCTION__, \"hl_convp_<%zu,\")>::take(", id, id);
    seg[nseg++] = (segment){(unsigned)b.len, p->arg_begin, p->arg_end - p->arg_begin};
    hl_sb_putn(&b, orig + p->arg_begin, p->arg_end - p->arg_begin);
    hl_sb_puts(&b, ")");
    seg[nseg++] = (segment){(unsigned)b.len, p->arg_end, p->end - p->arg_end};
    hl_sb_putn(&b, orig + p->arg_end, p->end - p->arg_end);
  }
  hl_sb_puts(&b, p->statement ? "); } " : ") : (void)0), ");
  insertion *i = insert(e, p->copy_at, hl_sb_take(&b));
  memcpy(i->seg, seg, sizeof seg);
  i->nseg = nseg;
}

/* Each probe's text around its stored expression, in the file that holds
 * it; the declarations first (after a byte order mark), before any header
 * that holds a probe. */
static void insert_probes(hl_inst *P, size_t from, edited **E, size_t *nE, size_t *capE, edited *m) {
  int conversions = 0;
  for (size_t i = from; i < P->n; i++) conversions |= P->v[i].conversion;
  insert(m, hl_starts_with(m->orig, "\xEF\xBB\xBF") && m->orig_len >= 3 ? 3 : 0,
         hl_xasprintf("%s%s", probe_decls, conversions ? conversion_decls : ""));
  for (size_t i = from; i < P->n; i++) {
    edited *e = edited_for(E, nE, capE, P->v[i].file);
    if (!e->orig) {
      e->name = hl_xstrdup(e->file);
      e->orig = clang_getFileContents(P->u.tu, P->v[i].cxfile, &e->orig_len);
    }
    if (P->v[i].conversion)
      conversion_copy(e, &P->v[i], i);
    else
      insert(e, P->v[i].begin, hl_xasprintf("::hl_probe_fn<%zu>(", i));
    if (!P->v[i].statement) insert(e, P->v[i].end, hl_xstrdup(")"));
  }
}

/* Parses the probed copy and collects every probe's errors, grouped by
 * probe, each probe's in the compiler's order. */
/* By id, as hl_inst_answers reads them; a stable sort, so each probe's
 * answers stay in the compiler's order. */
static void sort_hits(hl_inst *P) {
  for (size_t i = 1; i < P->nhits; i++)
    for (size_t j = i; j > 0 && P->hits[j - 1].question > P->hits[j].question; j--) {
      hl_inst_answer t = P->hits[j];
      P->hits[j] = P->hits[j - 1];
      P->hits[j - 1] = t;
    }
}

static int parse_probed(hl_inst *P, edited *E, size_t nE, void (*parsed)(CXTranslationUnit, void *), void *data,
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
  enum CXErrorCode err = clang_parseTranslationUnit2(P->u.index, P->u.job->source, a, (int)P->u.nargs + 2, unsaved,
                                                     nunsaved, CXTranslationUnit_KeepGoing, &q);
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
  sort_hits(P);
  return 0;
}

/* One parse of the unit with the probes from from on inserted. */
static int run_once(hl_inst *P, size_t from, const char *suffix, void (*parsed)(CXTranslationUnit q, void *data),
                    void *data, char **why) {
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
    insert_probes(P, from, &E, &nE, &capE, m);
    /* Probes in headers add files to E, which may move it: the main
     * file is its first. */
    m = &E[0];
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

/* ---- relays: chains the compiler cut ----
 *
 * clang instantiates a function with a deduced return type (auto) as soon
 * as a call needs it, and queues the function templates that body calls
 * until the end of the unit: their instantiations, and every probe inside
 * them, then name no caller beyond the queued call. Such a chain ends
 * inside a template's own code (taskflow: async(F) -> auto _async(F) ->
 * _schedule_async_task(..., [f]{...}) ends at that call). The call's
 * arguments are probed in one more parse (a "relay"); each answer of a
 * relay whose argument has the stored type and its layout continues the
 * chain from the call outward, as far as it goes (it may be cut again:
 * another round, at most MAX_RELAYS). */
#define MAX_RELAYS 3

typedef struct cut {
  hl_loc at;       /* the call where chains end */
  size_t first, n; /* its relay probes */
} cut;

/* The call at a location and whether it is a template's own code (a
 * function template's, a class template's member's, a lambda's in
 * either): found from the unit down, through the cursors whose extent
 * holds the location. */
typedef struct call_find {
  CXFile file;
  unsigned offset;
  int in_template;
  CXCursor found;
  CXCursor fn; /* the innermost function holding it */
} call_find;

static int at_offset(CXCursor c, CXFile file, unsigned offset) {
  CXFile f;
  unsigned off;
  clang_getFileLocation(clang_getCursorLocation(c), &f, NULL, NULL, &off);
  return f && clang_File_isEqual(f, file) && off == offset;
}

static enum CXChildVisitResult find_call(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  call_find *w = d;
  CXSourceRange r = clang_getCursorExtent(c);
  CXFile f, g;
  unsigned b, e;
  clang_getFileLocation(clang_getRangeStart(r), &f, NULL, NULL, &b);
  clang_getFileLocation(clang_getRangeEnd(r), &g, NULL, NULL, &e);
  if (!f || !g || !clang_File_isEqual(f, w->file) || !clang_File_isEqual(g, w->file) || w->offset < b || w->offset >= e)
    return CXChildVisit_Continue;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_FunctionTemplate || k == CXCursor_ClassTemplate || k == CXCursor_ClassTemplatePartialSpecialization)
    w->in_template = 1;
  if (hl_is_function_like(k) && k != CXCursor_LambdaExpr) w->fn = c;
  /* The innermost call whose callee's text holds it ("requested here" is
   * at the callee's name: o.f(x), f<T>(x), N::f(x)). */
  if (k == CXCursor_CallExpr) {
    CXSourceRange cr = clang_getCursorExtent(hl_first_child(c));
    clang_getFileLocation(clang_getRangeStart(cr), &f, NULL, NULL, &b);
    clang_getFileLocation(clang_getRangeEnd(cr), &g, NULL, NULL, &e);
    if (at_offset(c, w->file, w->offset) ||
        (f && g && clang_File_isEqual(f, w->file) && clang_File_isEqual(g, w->file) && w->offset >= b && w->offset < e))
      w->found = c;
  }
  return CXChildVisit_Recurse;
}

typedef struct arg_list {
  CXCursor *v;
  size_t n, cap;
  int first;
} arg_list;

static enum CXChildVisitResult list_args(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  arg_list *a = d;
  if (a->first)
    a->first = 0; /* the callee */
  else
    HL_PUSH(a->v, a->n, a->cap, c);
  return CXChildVisit_Continue;
}

/* Whether the lambda expression l is the one type spells "(lambda at F:line:col)". */
static int is_lambda_named(CXCursor l, const char *type) {
  CXFile f;
  unsigned line, col;
  clang_getFileLocation(clang_getCursorLocation(l), &f, &line, &col, NULL);
  if (!f || !hl_starts_with(type, "(lambda at ")) return 0;
  char tail[48];
  snprintf(tail, sizeof tail, ":%u:%u)", line, col);
  return hl_ends_with(type, tail);
}

/* The relay probes for the call at L, when L is a call inside a template's
 * own code: its arguments that may have the stored type (the lambda the
 * type names, else any of a dependent type). */
static void relay_probes(hl_inst *P, const hl_loc *L, const char *type) {
  CXFile f = clang_getFile(P->u.tu, L->file);
  if (!f) return;
  call_find w = {f, L->offset, 0, clang_getNullCursor(), clang_getNullCursor()};
  clang_visitChildren(clang_getTranslationUnitCursor(P->u.tu), find_call, &w);
  if (!w.in_template || clang_Cursor_isNull(w.found)) return;
  arg_list a = {NULL, 0, 0, 1};
  clang_visitChildren(w.found, list_args, &a);
  int named = 0;
  for (size_t i = 0; i < a.n; i++)
    named |= clang_getCursorKind(hl_strip(a.v[i])) == CXCursor_LambdaExpr && is_lambda_named(hl_strip(a.v[i]), type);
  for (size_t i = 0; i < a.n; i++) {
    CXCursor e = hl_strip(a.v[i]);
    int lambda = clang_getCursorKind(e) == CXCursor_LambdaExpr;
    if (named ? !(lambda && is_lambda_named(e, type)) : !lambda && !hl_type_is_dependent(clang_getCursorType(a.v[i])))
      continue;
    const char *why;
    int id = hl_inst_ask_layout(P, a.v[i], &why);
    if (id >= 0) P->v[id].relay = 1;
  }
  free(a.v);
}

static int same_loc(const hl_loc *a, const hl_loc *b) { return a->offset == b->offset && !strcmp(a->file, b->file); }

static int same_answer(const hl_inst_answer *a, const hl_inst_answer *b) {
  return a->type && b->type && !strcmp(a->type, b->type) && a->size == b->size && a->align == b->align &&
         a->trivially_copyable == b->trivially_copyable && a->nothrow_copy == b->nothrow_copy &&
         a->nothrow_move == b->nothrow_move;
}

static int same_hit(const hl_inst_answer *a, const hl_inst_answer *b) {
  if (a->question != b->question || a->nchain != b->nchain || !same_answer(a, b) || (!a->to) != (!b->to) ||
      (a->to && strcmp(a->to, b->to)))
    return 0;
  for (size_t i = 0; i < a->nchain; i++)
    if (!same_loc(&a->chain[i], &b->chain[i])) return 0;
  return 1;
}

/* h's chain up to its entry ci, continued by the relay answer r's beyond
 * its own entry. */
static hl_inst_answer splice(const hl_inst_answer *h, size_t ci, const hl_inst_answer *r) {
  hl_inst_answer s = *h;
  s.type = hl_xstrdup(h->type);
  s.to = h->to ? hl_xstrdup(h->to) : NULL;
  size_t hn = ci + 1;
  s.nchain = hn + r->nchain - 1;
  s.chain = hl_xcalloc(s.nchain, sizeof *s.chain);
  s.in_system = hl_xcalloc(s.nchain, 1);
  s.carries = hl_xcalloc(s.nchain, 1);
  s.user = s.outer = 0;
  for (size_t i = 0; i < s.nchain; i++) {
    const hl_loc *l = i < hn ? &h->chain[i] : &r->chain[i - hn + 1];
    s.chain[i] = *l;
    s.chain[i].file = hl_xstrdup(l->file);
    s.in_system[i] = i < hn ? h->in_system[i] : r->in_system[i - hn + 1];
    s.carries[i] = i < hn ? h->carries[i] : r->carries[i - hn + 1];
    if (!s.in_system[i]) s.user = s.outer = i;
  }
  return s;
}

/* What a chain entry is: a call in a template's code, the function that
 * holds it and the template the call instantiates (canonical cursors, or
 * null ones). */
typedef struct entry_info {
  char *file;
  unsigned offset;
  int in_template;
  CXCursor fn, callee;
} entry_info;

static const entry_info *entry_at(hl_inst *P, entry_info **seen, size_t *n, size_t *cap, const hl_loc *L) {
  for (size_t i = 0; i < *n; i++)
    if ((*seen)[i].offset == L->offset && !strcmp((*seen)[i].file, L->file)) return &(*seen)[i];
  entry_info e = {hl_xstrdup(L->file), L->offset, 0, clang_getNullCursor(), clang_getNullCursor()};
  CXFile f = clang_getFile(P->u.tu, L->file);
  if (f) {
    call_find w = {f, L->offset, 0, clang_getNullCursor(), clang_getNullCursor()};
    clang_visitChildren(clang_getTranslationUnitCursor(P->u.tu), find_call, &w);
    e.in_template = w.in_template;
    if (!clang_Cursor_isNull(w.fn)) e.fn = clang_getCanonicalCursor(w.fn);
    CXCursor callee = clang_Cursor_isNull(w.found) ? w.found : clang_getCursorReferenced(w.found);
    CXCursor t = clang_Cursor_isNull(callee) ? callee : clang_getSpecializedCursorTemplate(callee);
    if (!clang_Cursor_isNull(t)) e.callee = clang_getCanonicalCursor(t);
  }
  HL_PUSH(*seen, *n, *cap, e);
  return &(*seen)[*n - 1];
}

/* Where a hit's chain is cut: the last entry when it is in a template's
 * code; or an entry in a function template whose next entry instantiates
 * another template (a template queued while another instantiation was
 * made for its return type keeps only the outer caller: `fill_sync<T>`
 * calling `auto fill(v)`, whose store names fill's call, then fill_sync's
 * caller). Returns its index, or 0 when the chain is whole. */
static size_t cut_index(hl_inst *P, const hl_inst_answer *h, entry_info **seen, size_t *n, size_t *cap) {
  for (size_t k = 1; k < h->nchain; k++) {
    if (h->in_system[k]) continue;
    const entry_info *e = entry_at(P, seen, n, cap, &h->chain[k]);
    if (!e->in_template) continue;
    if (k == h->nchain - 1) return k;
    size_t next = k + 1;
    while (next < h->nchain - 1 && h->in_system[next]) next++;
    if (h->in_system[next]) continue;
    const entry_info *o = entry_at(P, seen, n, cap, &h->chain[next]);
    e = entry_at(P, seen, n, cap, &h->chain[k]); /* seen may have moved */
    if (!clang_Cursor_isNull(o->callee) && !clang_Cursor_isNull(e->fn) && !clang_equalCursors(o->callee, e->fn) &&
        clang_getCursorKind(e->fn) == CXCursor_FunctionTemplate &&
        clang_getCursorKind(o->callee) == CXCursor_FunctionTemplate)
      return k;
  }
  return 0;
}

/* What the relays know across their rounds. */
typedef struct relays {
  cut *C; /* the calls where chains were cut, each with its probes */
  size_t nC, capC;
  entry_info *E; /* what each chain entry looked at is */
  size_t nE, capE;
  hl_inst_answer *R; /* every relay's answers */
  size_t nR, capR;
} relays;

/* The cut of each hit from start on (cut_of: its index in S->C, or -1;
 * cut_at: the chain entry), queuing relay probes at each new one. */
static void find_cuts(hl_inst *P, relays *S, size_t start, size_t *cut_of, size_t *cut_at) {
  for (size_t i = start; i < P->nhits; i++) {
    hl_inst_answer *h = &P->hits[i];
    size_t ci = cut_index(P, h, &S->E, &S->nE, &S->capE);
    cut_at[i] = ci;
    cut_of[i] = (size_t)-1;
    if (!ci) continue;
    const hl_loc *L = &h->chain[ci];
    size_t c = 0;
    while (c < S->nC && !same_loc(&S->C[c].at, L)) c++;
    if (c == S->nC) {
      cut k = {*L, P->n, 0};
      k.at.file = hl_xstrdup(L->file);
      relay_probes(P, L, h->type);
      k.n = P->n - k.first;
      HL_PUSH(S->C, S->nC, S->capC, k);
    }
    cut_of[i] = c;
  }
}

/* Each hit from start to nhits continued by every relay answer of its
 * cut's arguments with its type and layout (the continued ones, new, go
 * last); left as it is without one. Returns where the new ones start. */
static size_t continue_chains(hl_inst *P, relays *S, size_t start, size_t nhits, const size_t *cut_of,
                              const size_t *cut_at) {
  hl_inst_answer *next = NULL;
  size_t nnext = 0, capnext = 0, kept = start;
  for (size_t i = start; i < nhits; i++) {
    hl_inst_answer *h = &P->hits[i];
    const cut *k = cut_of[i] == (size_t)-1 ? NULL : &S->C[cut_of[i]];
    int continued = 0;
    for (size_t j = 0; k && j < S->nR; j++) {
      const hl_inst_answer *r = &S->R[j];
      if ((size_t)r->question < k->first || (size_t)r->question >= k->first + k->n || !same_answer(h, r)) continue;
      hl_inst_answer sp = splice(h, cut_at[i], r);
      int dup = 0;
      for (size_t q = 0; q < nnext && !dup; q++) dup = same_hit(&next[q], &sp);
      if (dup)
        hit_free(&sp);
      else
        HL_PUSH(next, nnext, capnext, sp);
      continued = 1;
    }
    if (continued)
      hit_free(h);
    else
      P->hits[kept++] = *h;
  }
  P->nhits = kept;
  for (size_t i = 0; i < nnext; i++) HL_PUSH(P->hits, P->nhits, P->caphits, next[i]);
  free(next);
  return kept;
}

static void relay(hl_inst *P) {
  relays S;
  memset(&S, 0, sizeof S);
  size_t start = 0; /* hits before it are examined */
  for (int round = 0; round < MAX_RELAYS && start < P->nhits; round++) {
    size_t nhits = P->nhits, first = P->n;
    size_t *cut_of = hl_xcalloc(nhits, sizeof *cut_of), *cut_at = hl_xcalloc(nhits, sizeof *cut_at);
    find_cuts(P, &S, start, cut_of, cut_at);
    char *why = NULL;
    if (P->n > first && run_once(P, first, NULL, NULL, NULL, &why)) {
      free(why);
      free(cut_of);
      free(cut_at);
      break;
    }
    /* The relays' answers out of the hits. */
    size_t out = 0;
    for (size_t i = 0; i < P->nhits; i++) {
      if ((size_t)P->hits[i].question >= first)
        HL_PUSH(S.R, S.nR, S.capR, P->hits[i]);
      else
        P->hits[out++] = P->hits[i];
    }
    P->nhits = out;
    start = continue_chains(P, &S, start, nhits, cut_of, cut_at);
    free(cut_of);
    free(cut_at);
  }
  for (size_t i = 0; i < S.nR; i++) hit_free(&S.R[i]);
  free(S.R);
  for (size_t i = 0; i < S.nC; i++) hl_loc_free(&S.C[i].at);
  free(S.C);
  for (size_t i = 0; i < S.nE; i++) free(S.E[i].file);
  free(S.E);
  sort_hits(P);
}

/* ---- where to report ----
 *
 * A chain runs from the store out through the calls that passed the value
 * on: sinks, templates that store what they are given or build from it (a
 * lambda capturing it, std::bind of it, std::forward of it). The user
 * handed it over at the first call outward that is not such a pass: a call
 * in code that is no template's, or whose arguments are built from nothing
 * of a dependent type (a lambda written in a function template's body,
 * capturing its locals). */

typedef struct carried {
  CXSourceRange within; /* the argument's extent: variables declared inside are its own */
  int depth;            /* of locals followed to their initializers */
  int found;
} carried;

static int dependent_type(CXType t) {
  long long n = hl_type_size(t);
  return n == CXTypeLayoutError_Dependent || n == CXTypeLayoutError_Undeduced;
}

static enum CXChildVisitResult find_carried(CXCursor c, CXCursor parent, CXClientData d);

/* Whether a local of a dependent type is built from a parameter of one
 * (taskflow's `auto task = part([=] { c(*beg++); })`, `std::packaged_task
 * p(std::forward<F>(f))`), not from the function's own values
 * (`std::vector<T> input(n)`). */
static int built_from_parameter(CXCursor var, int depth) {
  if (depth > 3) return 0;
  carried w = {clang_getCursorExtent(var), depth + 1, 0};
  clang_visitChildren(var, find_carried, &w);
  return w.found;
}

static enum CXChildVisitResult find_carried(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  carried *w = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k != CXCursor_DeclRefExpr && k != CXCursor_VariableRef) return CXChildVisit_Recurse;
  CXCursor decl = clang_getCursorReferenced(c);
  enum CXCursorKind dk = clang_getCursorKind(decl);
  if ((dk != CXCursor_ParmDecl && dk != CXCursor_VarDecl) || !dependent_type(clang_getCursorType(decl)))
    return CXChildVisit_Recurse;
  unsigned off, begin, end;
  clang_getFileLocation(clang_getCursorLocation(decl), NULL, NULL, NULL, &off);
  clang_getFileLocation(clang_getRangeStart(w->within), NULL, NULL, NULL, &begin);
  clang_getFileLocation(clang_getRangeEnd(w->within), NULL, NULL, NULL, &end);
  if (off >= begin && off < end) return CXChildVisit_Recurse;
  if (dk == CXCursor_VarDecl && !built_from_parameter(decl, w->depth)) return CXChildVisit_Recurse;
  w->found = 1;
  return CXChildVisit_Break;
}

/* Whether the call at L passes on what its function was given or built
 * from it: it is in a template's code and an argument names a parameter
 * of a dependent type or a local built from one (std::forward<F>(f), a
 * lambda capturing f, a task built from it); a call not found there
 * counts as passing on. A lambda written there capturing the function's
 * own locals, or a temporary (P(c)), is handed over. */
static int passes_on(hl_inst *P, const hl_loc *L) {
  CXFile f = clang_getFile(P->u.tu, L->file);
  if (!f) return 0;
  call_find w = {f, L->offset, 0, clang_getNullCursor(), clang_getNullCursor()};
  clang_visitChildren(clang_getTranslationUnitCursor(P->u.tu), find_call, &w);
  if (!w.in_template) return 0;
  if (clang_Cursor_isNull(w.found)) return 1;
  arg_list a = {NULL, 0, 0, 1};
  clang_visitChildren(w.found, list_args, &a);
  int pass = 0;
  for (size_t i = 0; i < a.n && !pass; i++) {
    carried c = {clang_getCursorExtent(a.v[i]), 0, 0};
    if (find_carried(a.v[i], clang_getNullCursor(), &c) == CXChildVisit_Recurse)
      clang_visitChildren(a.v[i], find_carried, &c);
    pass = c.found;
  }
  free(a.v);
  return pass;
}

typedef struct pass_seen {
  char *file;
  unsigned offset;
  int pass;
} pass_seen;

/* Whether type is the lambda written at loc ("(lambda at F:line:col)"). */
static int lambda_at(const char *type, const hl_loc *loc) {
  if (!type || !hl_starts_with(type, "(lambda at ")) return 0;
  char tail[48];
  snprintf(tail, sizeof tail, ":%u:%u)", loc->line, loc->col);
  return hl_ends_with(type, tail);
}

/* Each hit's user: the first entry outward, up to its outer, where the
 * value was handed over rather than passed on. In a header (a library),
 * any value built from what the caller gave passes on (its lambda around
 * the caller's callable); in the unit's own file, only the stored value
 * itself does (its type among the callee's template arguments, or a
 * member of a class template, which has none of its own, passing a
 * parameter on): a test's `template <class T> void fill_sync(T val)`
 * calling `taskflow.fill(b, e, val)` hands over there the library's lambda
 * that copies val. In a header, a call the stored type goes through
 * passes it on (the library's own lambda is reported at the user's call
 * into the library). */
static void choose_users(hl_inst *P) {
  pass_seen *seen = NULL;
  size_t nseen = 0, capseen = 0;
  CXFile main_file = clang_getFile(P->u.tu, P->u.job->source);
  for (size_t i = 0; i < P->nhits; i++) {
    hl_inst_answer *h = &P->hits[i];
    /* A lambda written at a store in a generic lambda's body of the unit's
     * own code (pipes.emplace_back(type, [&](auto &pf) { ... }) inside a
     * pipe's [&](auto &pf)) is handed over there: what instantiates the
     * enclosing lambda is the library calling it. */
    CXFile f0 = clang_getFile(P->u.tu, h->chain[0].file);
    if (h->nchain > 1 && h->carries[1] == 3 && main_file && f0 && clang_File_isEqual(f0, main_file) &&
        lambda_at(h->type, &h->chain[0])) {
      h->user = 0;
      continue;
    }
    for (size_t k = 1; k < h->outer; k++) {
      if (h->in_system[k]) continue;
      CXFile f = clang_getFile(P->u.tu, h->chain[k].file);
      int own = main_file && f && clang_File_isEqual(f, main_file);
      if (own && !h->carries[k]) {
        h->user = k;
        break;
      }
      if (!own && h->carries[k] == 1) continue;
      size_t q = 0;
      while (q < nseen && !(seen[q].offset == h->chain[k].offset && !strcmp(seen[q].file, h->chain[k].file))) q++;
      if (q == nseen) {
        pass_seen ps = {hl_xstrdup(h->chain[k].file), h->chain[k].offset, passes_on(P, &h->chain[k])};
        HL_PUSH(seen, nseen, capseen, ps);
      }
      if (!seen[q].pass) {
        h->user = k;
        break;
      }
    }
  }
  for (size_t i = 0; i < nseen; i++) free(seen[i].file);
  free(seen);
}

/* ---- the check of engine/instances against the probe parse ----
 *
 * With HEAPLINT_CHECK_INSTANCES set, each layout probe's answers (the
 * distinct stored types with their numbers) are compared with what
 * engine/instances reads from clang's AST of the unit, and the outcome
 * goes to the log: a line per probe that differs, one count per unit. A
 * trait the AST cannot tell (-1) matches either answer. */
/* A type with each "(lambda at DIR/F:l:c)" as "(lambda at F:l:c)": the
 * probe parse names an edited header by the absolute path it handed to
 * libclang, the AST by the path the #include found. */
static char *lambda_basenames(const char *type) {
  hl_sb b = {0};
  const char *p = type, *at;
  while ((at = strstr(p, "(lambda at "))) {
    const char *path = at + strlen("(lambda at "), *close = strchr(path, ')'), *base = path;
    if (!close) break;
    for (const char *q = path; q < close; q++)
      if (*q == '/') base = q + 1;
    hl_sb_putn(&b, p, (size_t)(path - p));
    p = base;
  }
  hl_sb_puts(&b, p);
  return hl_sb_take(&b);
}

/* An entry of an instance's chain (engine/instances) as a location of the
 * unit. */
static int instance_loc(const hl_inst *P, const char *name, unsigned offset, hl_loc *out) {
  CXFile f = clang_getFile(P->u.tu, name);
  if (!f) return -1;
  return hl_unit_loc(&P->u, clang_getLocationForOffset(P->u.tu, f, offset), out);
}

/* Whether the instance's chain is the hit's, entry by entry. */
static int same_chain(const hl_inst *P, const hl_instance *a, const hl_inst_answer *h) {
  if (a->nchain != h->nchain) return 0;
  for (size_t k = 0; k < a->nchain; k++) {
    hl_loc l;
    if (instance_loc(P, a->chain_file[k], a->chain_offset[k], &l)) return 0;
    int same = same_loc(&l, &h->chain[k]) && a->in_system[k] == h->in_system[k] && a->carries[k] == h->carries[k];
    hl_loc_free(&l);
    if (!same) return 0;
  }
  return 1;
}

static void print_chain(hl_sb *b, const hl_inst *P, const hl_instance *a, const hl_inst_answer *h) {
  for (size_t k = 0; a && k < a->nchain; k++) {
    hl_loc l;
    if (instance_loc(P, a->chain_file[k], a->chain_offset[k], &l)) {
      hl_sb_printf(b, " ?");
      continue;
    }
    hl_sb_printf(b, " %s:%u:%u/%d%d", l.file, l.line, l.col, a->in_system[k], a->carries[k]);
    hl_loc_free(&l);
  }
  for (size_t k = 0; h && k < h->nchain; k++)
    hl_sb_printf(b, " %s:%u:%u/%d%d", h->chain[k].file, h->chain[k].line, h->chain[k].col, h->in_system[k],
                 h->carries[k]);
}

static int instance_matches(const hl_instance *a, const hl_inst_answer *h) {
  if (!h->type) return 0;
  char *x = lambda_basenames(a->type), *y = lambda_basenames(h->type);
  int same = !strcmp(x, y);
  free(x);
  free(y);
  return same && (!a->to) == (!h->to) && (!a->to || !strcmp(a->to, h->to)) && a->size == h->size &&
         a->align == h->align && a->trivially_copyable == h->trivially_copyable &&
         (a->nothrow_copy < 0 || a->nothrow_copy == h->nothrow_copy) &&
         (a->nothrow_move < 0 || a->nothrow_move == h->nothrow_move);
}

/* What engine/instances answers for probe i (instances.h). */
static long instances_of(const hl_inst *P, size_t i, hl_instance **a, const char **why) {
  const probe *p = &P->v[i];
  if (p->relay || clang_Cursor_isNull(p->expr)) {
    *a = NULL;
    *why = "a relay";
    return -1;
  }
  return p->conversion ? hl_instances_of_conversion(p->call, p->expr, p->as_type, (const char *const *)P->targets.v,
                                                    P->targets.n, a, why)
                       : hl_instances_of_expr(p->expr, a, why);
}

static void check_instances(hl_inst *P, FILE *log, int conversions) {
  size_t agree = 0, differ = 0, untold = 0, chains = 0, unchained = 0;
  for (size_t i = 0; i < P->n; i++) {
    if (!P->v[i].conversion != !conversions || P->v[i].relay || clang_Cursor_isNull(P->v[i].expr)) continue;
    size_t nh;
    const hl_inst_answer *h = hl_inst_answers(P, (int)i, &nh);
    hl_instance *a;
    const char *untold_why;
    long na = instances_of(P, i, &a, &untold_why);
    for (long k = 0; k < na; k++)
      if ((a[k].uncertain && wanted_to(P, a[k].to)) || (a[k].inside && !wanted_to(P, a[k].to))) {
        untold_why = a[k].inside && !wanted_to(P, a[k].to) ? "a library constructor that may convert it further"
                                                           : "a conversion past a template of the code's own";
        hl_instances_free(a, na);
        na = -1;
        break;
      }
    if (na < 0) {
      untold++;
      fprintf(log, "heaplint: instances: %s:%u: not told: %s\n", P->v[i].file, P->v[i].begin, untold_why);
      continue;
    }
    /* What either side has that the other has not. */
    hl_sb b = {0};
    for (size_t j = 0; j < nh; j++) {
      int found = 0;
      for (long k = 0; k < na && !found; k++) found = instance_matches(&a[k], &h[j]);
      if (!found)
        hl_sb_printf(&b, " [the probe parse only: %s%s%s %ld %ld %d%d%d]", h[j].type ? h[j].type : "?",
                     h[j].to ? " to " : "", h[j].to ? h[j].to : "", h[j].size, h[j].align, h[j].trivially_copyable,
                     h[j].nothrow_copy, h[j].nothrow_move);
    }
    for (long k = 0; k < na; k++) {
      int found = a[k].to && !wanted_to(P, a[k].to); /* not asked about */
      for (size_t j = 0; j < nh && !found; j++) found = instance_matches(&a[k], &h[j]);
      if (!found)
        hl_sb_printf(&b, " [the AST only: %s%s%s %ld %ld %d%d%d, requested at %s:%u]", a[k].type, a[k].to ? " to " : "",
                     a[k].to ? a[k].to : "", a[k].size, a[k].align, a[k].trivially_copyable, a[k].nothrow_copy,
                     a[k].nothrow_move, a[k].poi_file ? a[k].poi_file : "?", a[k].poi_offset);
    }
    /* The chain too: each hit's is one of a matching instance's (two
     * specializations may store types spelled and laid out alike). */
    for (size_t j = 0; j < nh && b.len == 0; j++) {
      long first = -1, same = 0;
      for (long k = 0; k < na && !same; k++)
        if (instance_matches(&a[k], &h[j]) && a[k].nchain) {
          if (first < 0) first = k;
          same = same_chain(P, &a[k], &h[j]);
        }
      if (first >= 0 && !same) {
        hl_sb_printf(&b, " [chains: the AST's");
        print_chain(&b, P, &a[first], NULL);
        hl_sb_printf(&b, "; the probe parse's");
        print_chain(&b, P, NULL, &h[j]);
        hl_sb_printf(&b, "]");
        chains++;
      }
    }
    for (long k = 0; k < na; k++)
      if (!a[k].nchain && (!a[k].to || wanted_to(P, a[k].to))) {
        unchained++;
        fprintf(log, "heaplint: instances: %s:%u: no chain: %s\n", P->v[i].file, P->v[i].begin,
                a[k].no_chain ? a[k].no_chain : "?");
      }
    if (b.len == 0) {
      agree++;
    } else {
      differ++;
      fprintf(log, "heaplint: instances: %s:%u: differ:%s\n", P->v[i].file, P->v[i].begin, hl_sb_str(&b));
    }
    hl_sb_free(&b);
    hl_instances_free(a, na);
  }
  fprintf(
      log,
      "heaplint: instances: %s: %zu %s agree, %zu differ, %zu not told; %zu chains differ, %zu instances without one\n",
      hl_display_path(P->u.job->file), agree, conversions ? "conversions" : "probes", differ, untold, chains,
      unchained);
}

/* ---- answers from engine/instances where the probe parse has none ----
 *
 * A layout probe the probe parse did not answer although the unit
 * instantiates its store: a conversion probe's copy of a call that does
 * not compile makes the statement holding it fail in an instantiation,
 * and with it an enclosing lambda's body and the layout probe around that
 * lambda (docs/architecture.md, "Asking the compiler"). clang's AST of
 * the unit itself has no such copies: its instances, each with the chain
 * the probe parse would have given, answer instead. All of a probe's or
 * none: an instance whose chain cannot be followed or whose traits need
 * overload resolution leaves the probe unanswered, as before. */
static int instance_hit(hl_inst *P, int id, const hl_instance *a, hl_inst_answer *h) {
  memset(h, 0, sizeof *h);
  if (!a->nchain || a->trivially_copyable < 0 || a->nothrow_copy < 0 || a->nothrow_move < 0) return -1;
  h->question = id;
  h->size = a->size;
  h->align = a->align;
  h->trivially_copyable = a->trivially_copyable;
  h->nothrow_copy = a->nothrow_copy;
  h->nothrow_move = a->nothrow_move;
  h->chain = hl_xcalloc(a->nchain, sizeof *h->chain);
  h->in_system = hl_xcalloc(a->nchain, 1);
  h->carries = hl_xcalloc(a->nchain, 1);
  for (size_t k = 0; k < a->nchain; k++) {
    if (instance_loc(P, a->chain_file[k], a->chain_offset[k], &h->chain[h->nchain])) {
      hit_free(h);
      return -1;
    }
    h->in_system[k] = a->in_system[k];
    h->carries[k] = a->carries[k];
    if (!a->in_system[k]) h->user = h->outer = k;
    h->nchain++;
  }
  h->type = hl_xstrdup(a->type);
  h->to = a->to ? hl_xstrdup(a->to) : NULL;
  return 0;
}

/* Probe i's answers from engine/instances into *v (*nv of them, maybe
 * none: nothing instantiates the store). Returns -1 when the AST cannot
 * answer all of them. */
static int instance_hits(hl_inst *P, size_t i, hl_inst_answer **v, size_t *nv) {
  *v = NULL;
  *nv = 0;
  hl_instance *a;
  const char *untold;
  long na = instances_of(P, i, &a, &untold);
  if (na < 0) return -1;
  *v = hl_xcalloc(na ? (size_t)na : 1, sizeof **v);
  for (long k = 0; k < na; k++) {
    hl_inst_answer h;
    /* A conversion to a class that may convert the value further inside
     * (not followed) leaves the probe to the parse. */
    int unfollowed = a[k].to && !wanted_to(P, a[k].to) && a[k].inside;
    if (a[k].to && !wanted_to(P, a[k].to) && !unfollowed) continue;
    if (unfollowed || a[k].uncertain || instance_hit(P, (int)i, &a[k], &h)) {
      for (size_t j = 0; j < *nv; j++) hit_free(&(*v)[j]);
      free(*v);
      *v = NULL;
      *nv = 0;
      hl_instances_free(a, na);
      return -1;
    }
    /* The probe parse answers once per stored type: a type two
     * specializations store alike (not a lambda, which is each its own)
     * is instantiated once, by the first. */
    int dup = 0;
    for (size_t j = 0; j < *nv && !dup; j++)
      dup = !strstr(h.type, "(lambda at ") && same_answer(&(*v)[j], &h) && (!h.to) == (!(*v)[j].to) &&
            (!h.to || !strcmp(h.to, (*v)[j].to));
    if (dup)
      hit_free(&h);
    else
      (*v)[(*nv)++] = h;
  }
  hl_instances_free(a, na);
  return 0;
}

static size_t answer_from_instances(hl_inst *P) {
  if (!hl_instances_usable()) return 0;
  char *answered = hl_xcalloc(P->n ? P->n : 1, 1);
  for (size_t i = 0; i < P->nhits; i++) answered[P->hits[i].question] = 1;
  size_t added = 0;
  for (size_t i = 0; i < P->n; i++) {
    hl_inst_answer *v;
    size_t nv;
    if (answered[i] || P->v[i].conversion || instance_hits(P, i, &v, &nv)) continue;
    for (size_t j = 0; j < nv; j++) HL_PUSH(P->hits, P->nhits, P->caphits, v[j]);
    added += nv;
    free(v);
  }
  free(answered);
  sort_hits(P);
  return added;
}

/* Every probe of the unit answered from clang's AST, when it can answer
 * them all (layout probes, and conversion probes whose calls it follows
 * to the conversions; engine/instances.h): then the probe parse is not
 * needed. Returns 1 with the hits in P, else 0 with P as it was. */
static int answer_all_from_instances(hl_inst *P) {
  if (!hl_instances_usable()) return 0;
  for (size_t i = 0; i < P->n; i++)
    if (P->v[i].relay) return 0;
  hl_inst_answer *all = NULL;
  size_t nall = 0, capall = 0;
  for (size_t i = 0; i < P->n; i++) {
    hl_inst_answer *v;
    size_t nv;
    if (instance_hits(P, i, &v, &nv)) {
      for (size_t j = 0; j < nall; j++) hit_free(&all[j]);
      free(all);
      return 0;
    }
    for (size_t j = 0; j < nv; j++) HL_PUSH(all, nall, capall, v[j]);
    free(v);
  }
  for (size_t j = 0; j < nall; j++) HL_PUSH(P->hits, P->nhits, P->caphits, all[j]);
  free(all);
  sort_hits(P);
  return 1;
}

int hl_inst_run(hl_inst *P, const char *suffix, void (*parsed)(CXTranslationUnit q, void *data), void *data,
                char **why) {
  if (P->n == 0) return 0;
  int check = getenv("HEAPLINT_CHECK_INSTANCES") != NULL;
  if (!check && answer_all_from_instances(P)) {
    choose_users(P);
    return 0;
  }
  int rc = run_once(P, 0, suffix, parsed, data, why);
  if (!rc) {
    relay(P);
    if (check) {
      check_instances(P, stderr, 0);
      check_instances(P, stderr, 1);
    }
    size_t added = answer_from_instances(P);
    if (check && added)
      fprintf(stderr, "heaplint: instances: %s: %zu answers from the AST where the probe parse had none\n",
              hl_display_path(P->u.job->file), added);
    choose_users(P);
  }
  return rc;
}

const hl_inst_answer *hl_inst_answers(const hl_inst *P, int id, size_t *n) {
  size_t first = P->nhits, count = 0;
  for (size_t i = 0; i < P->nhits; i++)
    if (P->hits[i].question == id) {
      if (first == P->nhits) first = i;
      count++;
    }
  *n = count;
  return count ? &P->hits[first] : NULL;
}
