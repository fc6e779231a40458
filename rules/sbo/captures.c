#include "rules/sbo/captures.h"

#include <stdlib.h>
#include <string.h>

#include "rules/sbo/match.h"
#include "util/util.h"

typedef struct cap_walk {
  CXCursor lambda;
  CXSourceRange range;
  char **names;  /* candidates for implicit captures, in order of first use */
  CXType *types; /* their types; a null-kind type for this */
  size_t n, cap, captypes;
} cap_walk;

static int offset_of(CXSourceLocation l) {
  unsigned off;
  clang_getFileLocation(l, NULL, NULL, NULL, &off);
  return (int)off;
}

static int outside_lambda(const cap_walk *w, CXCursor decl) {
  int off = offset_of(clang_getCursorLocation(decl));
  return off < offset_of(clang_getRangeStart(w->range)) || off > offset_of(clang_getRangeEnd(w->range));
}

static void candidate(cap_walk *w, const char *name, CXType t) {
  for (size_t i = 0; i < w->n; i++)
    if (!strcmp(w->names[i], name)) return;
  size_t before = w->n;
  HL_PUSH(w->names, w->n, w->cap, hl_xstrdup(name));
  hl_grow((void **)&w->types, &w->captypes, w->n, sizeof *w->types);
  w->types[before] = t;
}

static enum CXChildVisitResult find_uses(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  cap_walk *w = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_DeclRefExpr) {
    CXCursor decl = clang_getCursorReferenced(c);
    enum CXCursorKind dk = clang_getCursorKind(decl);
    if ((dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl) && clang_Cursor_getStorageClass(decl) != CX_SC_Static &&
        hl_is_function_like(clang_getCursorKind(clang_getCursorSemanticParent(decl))) && outside_lambda(w, decl)) {
      char *name = hl_cxstring_take(clang_getCursorSpelling(decl));
      candidate(w, name, clang_getCursorType(decl));
      free(name);
    }
  } else if (k == CXCursor_CXXThisExpr || (k == CXCursor_MemberRefExpr && clang_Cursor_isNull(hl_first_child(c)) &&
                                           clang_getCursorKind(clang_getCursorReferenced(c)) == CXCursor_FieldDecl)) {
    CXType none = {CXType_Invalid, {0, 0}};
    candidate(w, "this", none);
  }
  return CXChildVisit_Recurse;
}

/* Whether a field of type f can hold the variable of type v. */
static int holds(CXType f, CXType v) {
  if (v.kind == CXType_Invalid) return clang_getCanonicalType(f).kind == CXType_Pointer; /* this */
  CXType fc = clang_getCanonicalType(f);
  CXType vt = clang_getCanonicalType(hl_unref(v));
  if (fc.kind == CXType_LValueReference || fc.kind == CXType_RValueReference)
    fc = clang_getCanonicalType(clang_getPointeeType(fc));
  char *a = hl_type_spelling(fc), *b = hl_type_spelling(vt);
  const char *pa = hl_starts_with(a, "const ") ? a + 6 : a, *pb = hl_starts_with(b, "const ") ? b + 6 : b;
  int r = !strcmp(pa, pb);
  free(a);
  free(b);
  return r;
}

/* An explicit capture: its name and where the capture list writes it. */
typedef struct capture {
  unsigned offset;
  int in_macro; /* written by a macro: its offset is not where it is in the list */
  char *name;
} capture;

static int in_macro(CXSourceLocation l) {
  CXFile spelled, expanded;
  unsigned s, e;
  clang_getSpellingLocation(l, &spelled, NULL, NULL, &s);
  clang_getFileLocation(l, &expanded, NULL, NULL, &e);
  return s != e || !clang_File_isEqual(spelled, expanded);
}

typedef struct span {
  unsigned from, to;
} span;

typedef struct intro_walk {
  capture *v;
  size_t n, cap;
  span *other; /* extents of the lambda's other children: init-captures' initializers, ... */
  size_t nother, capother;
} intro_walk;

static enum CXChildVisitResult intro_child(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  intro_walk *w = d;
  CXSourceRange r = clang_getCursorExtent(c);
  if (clang_getCursorKind(c) == CXCursor_VariableRef) {
    capture cap = {(unsigned)offset_of(clang_getRangeStart(r)), in_macro(clang_getRangeStart(r)),
                   hl_cxstring_take(clang_getCursorSpelling(c))};
    HL_PUSH(w->v, w->n, w->cap, cap);
  } else if (clang_getCursorKind(c) != CXCursor_CXXThisExpr) {
    /* Inside a template libclang also shows a this capture as a child: it
     * is the capture, not an initializer hiding one. */
    span e = {(unsigned)offset_of(clang_getRangeStart(r)), (unsigned)offset_of(clang_getRangeEnd(r))};
    HL_PUSH(w->other, w->nother, w->capother, e);
  }
  return CXChildVisit_Continue;
}

static int by_offset(const void *a, const void *b) {
  const capture *x = a, *y = b;
  return (x->offset > y->offset) - (x->offset < y->offset);
}

/* The explicit captures in the order the capture list writes them ("this",
 * "*this", "x" for x, &x and x = e), and whether a default (= or &) leads
 * it. The variables' names come from the AST (libclang shows each variable
 * capture, init-captures included, as a VariableRef in order), so nothing
 * inside an initializer (std::array<char, 128>{}) is read as a capture.
 * this and *this have no cursor: they are found among the tokens of the
 * capture list, outside every initializer, and placed by their offsets.
 * Returns the count, or -1 when that order cannot be told (a macro writes
 * the list or a part of it). *has_default: 0, or '=' or '&'. */
static long explicit_captures(CXCursor lambda, char ***names, int *has_default) {
  intro_walk w = {0};
  clang_visitChildren(lambda, intro_child, &w);
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(lambda);
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(tu, clang_getCursorExtent(lambda), &toks, &n);
  char **sp = hl_xcalloc(n ? n : 1, sizeof *sp);
  for (unsigned i = 0; i < n; i++) sp[i] = hl_cxstring_take(clang_getTokenSpelling(tu, toks[i]));
  *has_default = n > 2 && !strcmp(sp[0], "[") && (!strcmp(sp[1], "=") || !strcmp(sp[1], "&")) &&
                         (!strcmp(sp[2], ",") || !strcmp(sp[2], "]"))
                     ? sp[1][0]
                     : 0;
  size_t nvars = w.n;
  int depth = 0;
  for (unsigned i = 0; i < n && !strcmp(sp[0], "["); i++) {
    if (!strcmp(sp[i], "[") || !strcmp(sp[i], "(") || !strcmp(sp[i], "{")) depth++;
    if (!strcmp(sp[i], "]") || !strcmp(sp[i], ")") || !strcmp(sp[i], "}")) depth--;
    if (depth == 0) break; /* the end of the capture list */
    if (strcmp(sp[i], "this") || i == 0) continue;
    unsigned first = !strcmp(sp[i - 1], "*") ? i - 1 : i;
    if (first == 0 || (strcmp(sp[first - 1], "[") && strcmp(sp[first - 1], ","))) continue;
    unsigned off = (unsigned)offset_of(clang_getTokenLocation(tu, toks[i]));
    int inside = 0;
    for (size_t k = 0; k < w.nother; k++) inside |= off >= w.other[k].from && off < w.other[k].to;
    if (inside) continue;
    capture cap = {(unsigned)offset_of(clang_getTokenLocation(tu, toks[first])),
                   in_macro(clang_getCursorLocation(lambda)), hl_xstrdup(first < i ? "*this" : "this")};
    HL_PUSH(w.v, w.n, w.cap, cap);
  }
  for (unsigned i = 0; i < n; i++) free(sp[i]);
  free(sp);
  clang_disposeTokens(tu, toks, n);
  free(w.other);

  long count = (long)w.n;
  if (w.n > nvars) {
    /* Only a this capture needs the offsets: the variables are in order. */
    for (size_t i = 0; i < w.n; i++) {
      if (w.v[i].in_macro) count = -1;
      for (size_t k = 0; k < i; k++)
        if (w.v[i].offset == w.v[k].offset) count = -1;
    }
    if (count >= 0) qsort(w.v, w.n, sizeof *w.v, by_offset);
  }
  *names = NULL;
  if (count < 0) {
    for (size_t i = 0; i < w.n; i++) free(w.v[i].name);
  } else {
    *names = hl_xcalloc(w.n ? w.n : 1, sizeof **names);
    for (size_t i = 0; i < w.n; i++) (*names)[i] = w.v[i].name;
  }
  free(w.v);
  return count;
}

/* Names each field of the closure, or leaves s->captures NULL when the
 * fields cannot be matched to captures with certainty. */
void hl_sbo_name_captures(hl_sbo_site *s) {
  if (clang_Cursor_isNull(s->lambda)) return;
  CXType *fields;
  size_t nfields = hl_sbo_field_types(clang_getCursorType(s->lambda), &fields);
  int has_default;
  char **names;
  long listed = explicit_captures(s->lambda, &names, &has_default);
  if (listed < 0) {
    free(fields);
    return;
  }
  size_t nexplicit = (size_t)listed;
  char **out = hl_xcalloc(nfields ? nfields : 1, sizeof *out);
  size_t got = 0;
  for (; got < nexplicit && got < nfields; got++) out[got] = hl_xstrdup(names[got]);
  if (has_default && got < nfields) {
    cap_walk w = {0};
    w.lambda = s->lambda;
    w.range = clang_getCursorExtent(s->lambda);
    CXCursor body = hl_last_child(s->lambda);
    clang_visitChildren(body, find_uses, &w);
    /* Implicit captures follow in order of first use; uses that capture
     * nothing (constants, statics) have no field and are skipped. */
    size_t c = 0;
    while (got < nfields && c < w.n) {
      int dup = 0;
      for (size_t e = 0; e < nexplicit; e++) dup |= !strcmp(names[e], w.names[c]);
      if (!dup && holds(fields[got], w.types[c])) out[got++] = hl_xstrdup(w.names[c]);
      c++;
    }
    for (size_t i = 0; i < w.n; i++) free(w.names[i]);
    free(w.names);
    free(w.types);
  }
  if (got == nfields) {
    s->captures = out;
    s->ncaptures = nfields;
  } else {
    for (size_t i = 0; i < got; i++) free(out[i]);
    free(out);
  }
  for (size_t i = 0; i < nexplicit; i++) free(names[i]);
  free(names);
  free(fields);
}

typedef struct cap_fields {
  const hl_types *T;
  const hl_sbo_site *s;
  size_t index;
  long end;
  hl_layout *l;
} cap_fields;

static enum CXVisitorResult record_field(CXCursor f, CXClientData d) {
  cap_fields *c = d;
  long size = 0, align = 0;
  hl_type_layout(c->T, clang_getCursorType(f), &size, &align);
  /* Inside a template libclang has no offsets: lay the field out as the
   * compiler would, after the previous one at its alignment. */
  long bits = clang_Cursor_getOffsetOfField(f);
  long off = bits >= 0 ? bits / 8 : hl_align_up(c->end, align > 0 ? align : 1);
  if (c->index < c->s->ncaptures) hl_layout_add_field(c->l, c->s->captures[c->index], off, size);
  c->end = off + size;
  c->index++;
  return CXVisit_Continue;
}

void hl_sbo_captures_layout(const hl_ctx *ctx, const hl_sbo_site *s, hl_layout *l) {
  if (!s->captures || s->ncaptures == 0) return;
  cap_fields c = {hl_ctx_types(ctx), s, 0, 0, l};
  clang_Type_visitFields(clang_getCursorType(s->lambda), record_field, &c);
}

/* "captures: this (8), id (4, +4 padding), deadline (8)": a field's
 * padding is told after it. */
char *hl_sbo_captures_note(const hl_ctx *ctx, const hl_sbo_site *s, const hl_sbo_verdict *v) {
  if (!s->captures || s->ncaptures == 0) return NULL;
  hl_layout *l = hl_layout_new(NULL, &s->loc);
  hl_sbo_captures_layout(ctx, s, l);
  hl_sb b = {0};
  hl_sb_puts(&b, "captures: ");
  long end = 0;
  for (size_t i = 0; i < l->nfields; i++) {
    const hl_layout_field *f = &l->fields[i];
    if (i > 0 && f->offset > end) hl_sb_printf(&b, ", +%ld padding", f->offset - end);
    if (i > 0) hl_sb_puts(&b, "), ");
    hl_sb_printf(&b, "%s (%ld", f->name, f->size);
    end = f->offset + f->size;
  }
  if (v->size > end) hl_sb_printf(&b, ", +%ld padding", v->size - end);
  hl_sb_puts(&b, ")");
  hl_layout_free(l);
  return hl_sb_take(&b);
}

typedef struct closure_layout {
  const hl_types *T;
  long size, align;
  int ok;
} closure_layout;

static enum CXVisitorResult lay_field(CXCursor f, CXClientData d) {
  closure_layout *L = d;
  long size, align;
  if (hl_type_layout(L->T, clang_getCursorType(f), &size, &align)) {
    L->ok = 0;
    return CXVisit_Break;
  }
  L->size = hl_align_up(L->size, align) + size;
  if (align > L->align) L->align = align;
  return CXVisit_Continue;
}

/* The implicit by-reference captures of a [&] lambda inside a template,
 * which clang lists only per instantiation: every local variable or
 * parameter of the enclosing functions the body names, and this when the
 * body uses a member. A by-reference capture is a pointer-sized field
 * whatever the variable's type. Where a name might not capture (a const
 * or reference local that constant expressions may read without capturing
 * it, an unevaluated operand, a member call that may be static) the count
 * is not certain: bail. */
typedef struct ref_walk {
  cap_walk names; /* only the range and the names are used */
  char **explicit_names;
  size_t nexplicit;
  int this_used, bail;
} ref_walk;

static void ref_name(ref_walk *w, const char *name) {
  for (size_t i = 0; i < w->nexplicit; i++)
    if (!strcmp(w->explicit_names[i], name)) return;
  CXType none = {CXType_Invalid, {0, 0}};
  candidate(&w->names, name, none);
}

static enum CXChildVisitResult count_refs(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  ref_walk *w = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_UnaryExpr || k == CXCursor_CXXTypeidExpr) {
    w->bail = 1;
    return CXChildVisit_Break;
  }
  if (k == CXCursor_DeclRefExpr) {
    CXCursor decl = clang_getCursorReferenced(c);
    enum CXCursorKind dk = clang_getCursorKind(decl);
    enum CX_StorageClass sc = clang_Cursor_getStorageClass(decl);
    if ((dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl) && sc != CX_SC_Static && sc != CX_SC_Extern &&
        hl_is_function_like(clang_getCursorKind(clang_getCursorSemanticParent(decl))) &&
        outside_lambda(&w->names, decl)) {
      CXType t = clang_getCursorType(decl);
      if (clang_isConstQualifiedType(t) || (dk == CXCursor_VarDecl && hl_is_ref(t))) {
        w->bail = 1;
        return CXChildVisit_Break;
      }
      char *name = hl_cxstring_take(clang_getCursorSpelling(decl));
      ref_name(w, name);
      free(name);
    }
  } else if (k == CXCursor_CXXThisExpr) {
    w->this_used = 1;
  } else if (k == CXCursor_MemberRefExpr && clang_Cursor_isNull(hl_first_child(c))) {
    CXCursor m = clang_getCursorReferenced(c);
    enum CXCursorKind mk = clang_getCursorKind(m);
    if (mk == CXCursor_FieldDecl || (mk == CXCursor_CXXMethod && !clang_CXXMethod_isStatic(m))) {
      w->this_used = 1;
    } else {
      w->bail = 1;
      return CXChildVisit_Break;
    }
  }
  return CXChildVisit_Recurse;
}

/* How many fields a [&] default adds: 0 or more, or -1 when not certain. */
static long implicit_refs(CXCursor lambda, char **explicit_names, size_t nexplicit) {
  ref_walk w;
  memset(&w, 0, sizeof w);
  w.names.lambda = lambda;
  w.names.range = clang_getCursorExtent(lambda);
  w.explicit_names = explicit_names;
  w.nexplicit = nexplicit;
  clang_visitChildren(hl_last_child(lambda), count_refs, &w);
  int this_explicit = 0;
  for (size_t i = 0; i < nexplicit; i++)
    this_explicit |= !strcmp(explicit_names[i], "this") || !strcmp(explicit_names[i], "*this");
  long n = w.bail ? -1 : (long)w.names.n + (w.this_used && !this_explicit);
  for (size_t i = 0; i < w.names.n; i++) free(w.names.names[i]);
  free(w.names.names);
  free(w.names.types);
  return n;
}

/* Inside a template clang treats every lambda's closure type as dependent,
 * so it has no size. A lambda whose captures all have a layout is laid out
 * here as the compiler lays out any class: each capture at its alignment,
 * in order, the whole padded to the largest. clang lists the captures it
 * is given in the pattern; a [&] default adds one pointer-sized field per
 * variable the body names (after them); a [=] default's copies are known
 * only per instantiation. */
int hl_sbo_template_lambda_layout(const hl_ctx *ctx, CXCursor lambda, long *size, long *align) {
  int has_default;
  char **names;
  long n = explicit_captures(lambda, &names, &has_default);
  long refs = n < 0 ? -1 : has_default == '&' ? implicit_refs(lambda, names, (size_t)n) : has_default ? -1 : 0;
  for (long i = 0; i < n; i++) free(names[i]);
  free(names);
  if (refs < 0) return -1;
  closure_layout L = {hl_ctx_types(ctx), 0, 1, 1};
  CXType *fields;
  size_t nfields = hl_sbo_field_types(clang_getCursorType(lambda), &fields);
  free(fields);
  if (nfields != (size_t)n) return -1;
  clang_Type_visitFields(clang_getCursorType(lambda), lay_field, &L);
  if (!L.ok) return -1;
  long ptr = hl_ctx_pointer_width(ctx) / 8;
  if (refs > 0) {
    L.size = hl_align_up(L.size, ptr) + refs * ptr;
    if (ptr > L.align) L.align = ptr;
  }
  *size = nfields || refs ? hl_align_up(L.size, L.align) : 1;
  *align = L.align;
  return 0;
}
