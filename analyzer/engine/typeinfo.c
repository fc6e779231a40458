#include "engine/ast.h"
#include "engine/typeinfo.h"
#include "engine/traitmemo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/strv.h"
#include "util/util.h"

/* ---- per translation unit ---- */

/* The compiler's answer about one instantiation, kept for this translation
 * unit only, never shared with the others of the run: the same spelling can
 * name different classes in two units (each its own anonymous-namespace
 * Holder<long>, a class that a -D flag or a macro of the file changes, a
 * name one unit's question cannot resolve), and a verdict must not depend
 * on which unit was analyzed first, or by which worker. */
typedef struct answer {
  char *spelling;          /* as the query spells the type */
  int answered;            /* the compiler was asked */
  int failed;              /* ...and could not answer (the type was not nameable there) */
  unsigned bits;           /* 1: trivially copyable, 2: nothrow copy, 4: nothrow move, 16: nothrow destroy */
  int portable;            /* its answer may be kept in the unit's memo (traitmemo.h) ... */
  unsigned long long salt; /* ... with this salt */
} answer;

typedef struct memo {
  CXCursor decl;
  hl_traits traits;
} memo;

struct hl_types {
  hl_unit u;
  int pointer_width;
  memo *memos;
  size_t nmemos, capmemos;
  answer *answers; /* the instantiations met, asked about or not */
  size_t nanswers, capanswers;
  size_t *pend; /* indices in answers of the questions queued */
  size_t npend, cappend;
  int depth;            /* recursion guard */
  long same_size[2][2]; /* size and alignment of any specialization of
                           same_size_templates[i], once one is known */
};

/* Class templates whose specializations all have one layout, whatever
 * their arguments: the signature changes only the type of a pointer they
 * hold (libstdc++'s _Any_data, manager and invoker; libc++'s buffer and
 * pointer to its base; the MSVC STL's storage). One concrete
 * specialization's layout (hl_types_learn) is then every one's, also a
 * dependent one's inside a template. */
static const char *const same_size_templates[] = {"std::function", "std::move_only_function"};

hl_types *hl_types_new(const hl_unit *u, int pointer_width) {
  hl_types *T = hl_xcalloc(1, sizeof *T);
  T->u = *u;
  T->pointer_width = pointer_width;
  return T;
}

void hl_traits_free(hl_traits *t) {
  free(t->trivially_copyable.why);
  free(t->nothrow_copy.why);
  free(t->nothrow_move.why);
  free(t->nothrow_destroy.why);
  memset(t, 0, sizeof *t);
}

void hl_types_free(hl_types *T) {
  if (!T) return;
  for (size_t i = 0; i < T->nmemos; i++) hl_traits_free(&T->memos[i].traits);
  free(T->memos);
  for (size_t i = 0; i < T->nanswers; i++) free(T->answers[i].spelling);
  free(T->answers);
  free(T->pend);
  free(T);
}

/* ---- layout ---- */

CXType hl_type_stored(CXType t, int *decays) {
  if (hl_is_ref(t))
    t = clang_getPointeeType(t);
  else if (hl_is_ref(clang_getCanonicalType(t)))
    t = clang_getPointeeType(clang_getCanonicalType(t));
  CXType c = clang_getCanonicalType(t);
  *decays = c.kind == CXType_FunctionProto || c.kind == CXType_FunctionNoProto || c.kind == CXType_ConstantArray ||
            c.kind == CXType_IncompleteArray || c.kind == CXType_VariableArray || c.kind == CXType_DependentSizedArray;
  return t;
}

/* The class template c (canonical) specializes, also when c depends on a
 * template parameter (libclang declares std::shared_ptr<T> inside a
 * template by the class template itself). */
static char *template_of(CXType c) {
  CXCursor d = clang_getTypeDeclaration(c);
  return clang_getCursorKind(d) == CXCursor_ClassTemplate ? hl_decl_name(d) : hl_template_name(c);
}

/* "std::shared_ptr" or "std::weak_ptr" when c (canonical) is one, whatever
 * its argument, also a dependent one; else NULL. */
static char *smart_pointer(CXType c) {
  char *name = template_of(c);
  if (!strcmp(name, "std::shared_ptr") || !strcmp(name, "std::weak_ptr")) return name;
  free(name);
  return NULL;
}

/* Index in same_size_templates of what c specializes, or -1. */
static int same_size_template(CXType c) {
  char *name = template_of(c);
  size_t i = hl_str_index(name, same_size_templates, sizeof same_size_templates / sizeof *same_size_templates);
  free(name);
  return i < sizeof same_size_templates / sizeof *same_size_templates ? (int)i : -1;
}

void hl_types_learn(hl_types *T, CXType t) {
  CXType c = clang_getCanonicalType(hl_unref(t));
  long long s = hl_type_size(c), a = hl_type_align(c);
  if (s <= 0 || a <= 0) return;
  int i = same_size_template(c);
  if (i < 0 || T->same_size[i][0]) return;
  T->same_size[i][0] = (long)s;
  T->same_size[i][1] = (long)a;
}

int hl_type_layout(const hl_types *T, CXType t, long *size, long *align) {
  CXType c = clang_getCanonicalType(t);
  /* A pointer's layout does not depend on what it points to (this inside
   * a class template, T* for a dependent T). */
  if (hl_is_ref(c) || c.kind == CXType_Pointer) {
    *size = *align = T->pointer_width / 8;
    return 0;
  }
  long long s = hl_type_size(c), a = hl_type_align(c);
  /* Nor does a std::shared_ptr's or std::weak_ptr's: libstdc++, libc++ and
   * the MSVC STL all hold the element pointer and the control block's. */
  char *smart = s == CXTypeLayoutError_Dependent ? smart_pointer(c) : NULL;
  if (smart) {
    free(smart);
    *size = 2 * (T->pointer_width / 8);
    *align = T->pointer_width / 8;
    return 0;
  }
  int same = s == CXTypeLayoutError_Dependent ? same_size_template(c) : -1;
  if (same >= 0 && T->same_size[same][0]) {
    *size = T->same_size[same][0];
    *align = T->same_size[same][1];
    return 0;
  }
  if (s < 0 || a <= 0) return -1;
  *size = (long)s;
  *align = (long)a;
  return 0;
}

/* ---- traits ---- */

static void set(hl_trait *t, hl_tri v, char *why) {
  free(t->why);
  t->value = v;
  t->why = why;
}

static void all(hl_traits *t, hl_tri v, const char *why) {
  set(&t->trivially_copyable, v, why ? hl_xstrdup(why) : NULL);
  set(&t->nothrow_copy, v, why ? hl_xstrdup(why) : NULL);
  set(&t->nothrow_move, v, why ? hl_xstrdup(why) : NULL);
  set(&t->nothrow_destroy, v, why ? hl_xstrdup(why) : NULL);
}

/* A culprit clause: why begins with a space when it is about the type itself
 * (" has a user-provided copy constructor"), else it names a part of it. */
static char *compose(const char *desc, const char *why) {
  if (!why) return hl_xasprintf("%s is not known", desc);
  if (why[0] == ' ') return hl_xasprintf("%s%s", desc, why);
  return hl_xasprintf("%s → %s", desc, why);
}

/* Folds a part's trait into the whole: the first "no" wins and keeps its
 * culprit; an unknown part makes a "yes" unknown. */
static void fold(hl_trait *acc, const hl_trait *part, const char *desc) {
  if (acc->value == HL_NO || part->value == HL_YES) return;
  if (part->value == HL_NO || acc->value == HL_YES) set(acc, part->value, compose(desc, part->why));
}

static void fold_all(hl_traits *acc, const hl_traits *part, const char *desc) {
  fold(&acc->trivially_copyable, &part->trivially_copyable, desc);
  fold(&acc->nothrow_copy, &part->nothrow_copy, desc);
  fold(&acc->nothrow_move, &part->nothrow_move, desc);
  fold(&acc->nothrow_destroy, &part->nothrow_destroy, desc);
}

static void copy_trait(hl_trait *dst, const hl_trait *src) {
  dst->value = src->value;
  dst->why = src->why ? hl_xstrdup(src->why) : NULL;
}

static void copy_traits(hl_traits *dst, const hl_traits *src) {
  copy_trait(&dst->trivially_copyable, &src->trivially_copyable);
  copy_trait(&dst->nothrow_copy, &src->nothrow_copy);
  copy_trait(&dst->nothrow_move, &src->nothrow_move);
  copy_trait(&dst->nothrow_destroy, &src->nothrow_destroy);
}

/* what, followed by " (file:line)" of c. */
static char *at(const hl_types *T, const char *what, CXCursor c) {
  CXFile f;
  unsigned line, col;
  clang_getFileLocation(clang_getCursorLocation(c), &f, &line, &col, NULL);
  if (!f) return hl_xstrdup(what);
  char *abs = hl_file_abspath(f, T->u.job->directory);
  char *r = hl_xasprintf("%s (%s:%u)", what, hl_display_path(abs), line);
  free(abs);
  return r;
}

static char *dup_why(const hl_trait *t) { return t->why ? hl_xstrdup(t->why) : NULL; }

static int method_is_deleted(CXCursor m) {
#if CINDEX_VERSION_MINOR >= 63
  return (int)clang_CXXMethod_isDeleted(m);
#else
  /* libclang before 16 has no query: read "= delete" off the tokens. */
  CXToken *toks = NULL;
  unsigned n = 0;
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(m);
  clang_tokenize(tu, clang_getCursorExtent(m), &toks, &n);
  int deleted = 0;
  for (unsigned i = 0; i + 1 < n && !deleted; i++) {
    CXString a = clang_getTokenSpelling(tu, toks[i]), b = clang_getTokenSpelling(tu, toks[i + 1]);
    deleted = !strcmp(clang_getCString(a), "=") && !strcmp(clang_getCString(b), "delete");
    clang_disposeString(a);
    clang_disposeString(b);
  }
  clang_disposeTokens(tu, toks, n);
  return deleted;
#endif
}

/* 0: not an assignment operator of cls; 1: copy assignment; 2: move. */
static int assignment_kind(CXCursor m, CXCursor cls) {
  char *name = hl_cxstring_take(clang_getCursorSpelling(m));
  int is_op = !strcmp(name, "operator=");
  free(name);
  if (!is_op) return 0;
  CXType ft = clang_getCursorType(m);
  if (clang_getNumArgTypes(ft) != 1) return 0;
  CXType p = clang_getArgType(ft, 0);
  int kind = p.kind == CXType_RValueReference ? 2 : 1;
  if (hl_is_ref(p)) p = clang_getPointeeType(p);
  CXCursor d = clang_getTypeDeclaration(clang_getCanonicalType(p));
  return clang_equalCursors(clang_getCanonicalCursor(d), clang_getCanonicalCursor(cls)) ? kind : 0;
}

/* Whether a declared constructor or destructor m may throw, from its
 * exception specification. *as_members: defaulted without one, so it is
 * noexcept exactly when the members' are. */
static hl_tri declared_nothrow(CXCursor m, int *as_members) {
  *as_members = 0;
  switch (clang_getCursorExceptionSpecificationType(m)) {
  case CXCursor_ExceptionSpecificationKind_DynamicNone:
  case CXCursor_ExceptionSpecificationKind_BasicNoexcept:
  case CXCursor_ExceptionSpecificationKind_NoThrow: return HL_YES;
  case CXCursor_ExceptionSpecificationKind_None:
  case CXCursor_ExceptionSpecificationKind_Dynamic:
  case CXCursor_ExceptionSpecificationKind_MSAny: return HL_NO;
  case CXCursor_ExceptionSpecificationKind_ComputedNoexcept: {
    /* libclang folds noexcept(true) and noexcept(false) into one kind, but
     * the canonical function type, whose expression is evaluated, is spelled
     * with "noexcept" only when it is true ("noexcept(expr)" when dependent). */
    char *s = hl_cxstring_take(clang_getTypeSpelling(clang_getCanonicalType(clang_getCursorType(m))));
    hl_tri r = hl_ends_with(s, " noexcept") ? HL_YES : strstr(s, "noexcept(") ? HL_UNKNOWN : HL_NO;
    free(s);
    return r;
  }
  case CXCursor_ExceptionSpecificationKind_Unevaluated: *as_members = 1; return HL_YES;
  default: return HL_UNKNOWN;
  }
}

typedef struct special {
  CXCursor cls;
  int has_virtual, has_virtual_base;
  CXCursor virtual_at;
  int copy_decl, copy_deleted, copy_user;
  CXCursor copy;
  int move_decl, move_deleted, move_user;
  CXCursor move;
  int copy_assign_decl, copy_assign_user, move_assign_decl, move_assign_user;
  CXCursor assign_at;
  int dtor_decl, dtor_user;
  CXCursor dtor;
  CXType bases[32];
  int nbases;
} special;

static int user_provided(CXCursor m) { return !clang_CXXMethod_isDefaulted(m) && !method_is_deleted(m); }

static enum CXChildVisitResult scan_member(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  special *s = data;
  switch (clang_getCursorKind(c)) {
  case CXCursor_CXXBaseSpecifier:
    if (clang_isVirtualBase(c)) s->has_virtual_base = 1;
    if (s->nbases < 32) s->bases[s->nbases++] = clang_getCursorType(c);
    break;
  case CXCursor_CXXMethod: {
    if (clang_CXXMethod_isVirtual(c) && !s->has_virtual) {
      s->has_virtual = 1;
      s->virtual_at = c;
    }
    int k = assignment_kind(c, s->cls);
    if (k == 1) {
      s->copy_assign_decl = 1;
      if (user_provided(c)) s->copy_assign_user = 1, s->assign_at = c;
    } else if (k == 2) {
      s->move_assign_decl = 1;
      if (user_provided(c)) s->move_assign_user = 1, s->assign_at = c;
    }
    break;
  }
  case CXCursor_Constructor:
    if (clang_CXXConstructor_isCopyConstructor(c)) {
      s->copy_decl = 1;
      s->copy = c;
      s->copy_deleted = method_is_deleted(c);
      s->copy_user = user_provided(c);
    } else if (clang_CXXConstructor_isMoveConstructor(c)) {
      s->move_decl = 1;
      s->move = c;
      s->move_deleted = method_is_deleted(c);
      s->move_user = user_provided(c);
    }
    break;
  case CXCursor_Destructor:
    s->dtor_decl = 1;
    s->dtor = c;
    s->dtor_user = user_provided(c);
    if (clang_CXXMethod_isVirtual(c) && !s->has_virtual) {
      s->has_virtual = 1;
      s->virtual_at = c;
    }
    break;
  default: break;
  }
  return CXChildVisit_Continue;
}

typedef struct field_walk {
  hl_types *T;
  int ask;
  const char *const *names;
  size_t nnames, index;
  int lambda;
  hl_traits *acc;
} field_walk;

static void type_traits(hl_types *T, CXType t, int ask, const char *const *names, size_t nnames, hl_traits *out);

static enum CXVisitorResult fold_field(CXCursor field, CXClientData data) {
  field_walk *w = data;
  CXType ft = clang_getCursorType(field);
  char *tname = hl_type_readable(ft);
  char *desc;
  if (w->names && w->index < w->nnames && w->names[w->index])
    desc = hl_xasprintf("capture '%s' (%s)", w->names[w->index], tname);
  else if (w->lambda)
    desc = hl_xasprintf("a capture of type %s", tname);
  else {
    char *fname = hl_cxstring_take(clang_getCursorSpelling(field));
    desc = *fname ? hl_xasprintf("member '%s' (%s)", fname, tname) : hl_xasprintf("a member of type %s", tname);
    free(fname);
  }
  w->index++;
  hl_traits part = {0};
  type_traits(w->T, ft, w->ask, NULL, 0, &part);
  /* A const member cannot be moved from: the class's move copies it. */
  if (ft.kind != CXType_LValueReference && ft.kind != CXType_RValueReference && clang_isConstQualifiedType(ft) &&
      part.nothrow_move.value != part.nothrow_copy.value) {
    free(part.nothrow_move.why);
    part.nothrow_move.value = part.nothrow_copy.value;
    part.nothrow_move.why =
        part.nothrow_copy.why ? hl_xasprintf(" is const, so a move copies it, and it%s", part.nothrow_copy.why) : NULL;
  }
  fold_all(w->acc, &part, desc);
  hl_traits_free(&part);
  free(desc);
  free(tname);
  return CXVisit_Continue;
}

/* What the members (bases and fields) of the class allow. */
static void member_traits(hl_types *T, CXType c, const special *s, int ask, const char *const *names, size_t nnames,
                          hl_traits *memb) {
  memset(memb, 0, sizeof *memb);
  all(memb, HL_YES, NULL);
  for (int i = 0; i < s->nbases; i++) {
    char *bname = hl_type_readable(s->bases[i]);
    char *desc = hl_xasprintf("base %s", bname);
    hl_traits part = {0};
    type_traits(T, s->bases[i], ask, NULL, 0, &part);
    fold_all(memb, &part, desc);
    hl_traits_free(&part);
    free(desc);
    free(bname);
  }
  field_walk fw = {T, ask, names, nnames, 0, hl_type_is_lambda(c), memb};
  clang_Type_visitFields(c, fold_field, &fw);
}

/* Trivially copyable: no virtual functions or bases, no user-provided
 * copy/move constructor, assignment or destructor, and so all the parts. */
static void trivially_copyable(const hl_types *T, const special *s, const hl_traits *memb, hl_trait *tc) {
  if (s->has_virtual)
    set(tc, HL_NO, at(T, " has virtual functions", s->virtual_at));
  else if (s->has_virtual_base)
    set(tc, HL_NO, hl_xstrdup(" has a virtual base"));
  else if (s->copy_user)
    set(tc, HL_NO, at(T, " has a user-provided copy constructor", s->copy));
  else if (s->move_user)
    set(tc, HL_NO, at(T, " has a user-provided move constructor", s->move));
  else if (s->copy_assign_user || s->move_assign_user)
    set(tc, HL_NO,
        at(T,
           s->copy_assign_user ? " has a user-provided copy assignment operator"
                               : " has a user-provided move assignment operator",
           s->assign_at));
  else if (s->dtor_user)
    set(tc, HL_NO, at(T, " has a user-provided destructor", s->dtor));
  else
    set(tc, memb->trivially_copyable.value, dup_why(&memb->trivially_copyable));
}

/* The nothrow trait t of a declared special member (what: "destructor"):
 * no when it is deleted, else its exception specification says, or
 * (defaulted) the parts' trait does. A defaulted member whose parts say
 * the same is explained by them, whether or not the compiler has
 * evaluated its specification yet (something that needed it, a library
 * template's body, may or may not have been parsed: the fast unit of the
 * language server skips them). */
static void declared_trait(const hl_types *T, hl_trait *t, CXCursor member, int deleted, const char *what,
                           const hl_trait *parts) {
  int as_members;
  hl_tri v = declared_nothrow(member, &as_members);
  if (deleted) {
    char *m = hl_xasprintf(" has a deleted %s", what);
    set(t, HL_NO, at(T, m, member));
    free(m);
  } else if (as_members || (v != HL_YES && v == parts->value && parts->why && clang_CXXMethod_isDefaulted(member))) {
    set(t, parts->value, dup_why(parts));
  } else if (v != HL_YES) {
    const char *fmt = v == HL_NO ? " has a %s that may throw" : " has a %s whose noexcept heaplint cannot evaluate";
    char *m = hl_xasprintf(fmt, what);
    set(t, v, at(T, m, member));
    free(m);
  }
}

/* Structural traits of a class that is not a template instantiation. */
static void record_traits(hl_types *T, CXType c, CXCursor decl, int ask, const char *const *names, size_t nnames,
                          hl_traits *out) {
  CXCursor def = clang_getCursorDefinition(decl);
  if (clang_Cursor_isNull(def)) {
    all(out, HL_UNKNOWN, " is incomplete here");
    return;
  }
  special s;
  memset(&s, 0, sizeof s);
  s.cls = def;
  clang_visitChildren(def, scan_member, &s);

  hl_traits memb;
  member_traits(T, c, &s, ask, names, nnames, &memb);

  all(out, HL_YES, NULL);

  trivially_copyable(T, &s, &memb, &out->trivially_copyable);

  /* Nothrow destruction: its own destructor's noexcept, or the parts'. */
  hl_trait *ds = &out->nothrow_destroy;
  if (s.dtor_decl) {
    declared_trait(T, ds, s.dtor, 0, "destructor", &memb.nothrow_destroy);
  } else {
    set(ds, memb.nothrow_destroy.value, dup_why(&memb.nothrow_destroy));
  }

  /* Nothrow copy construction. */
  hl_trait *cp = &out->nothrow_copy;
  if (s.copy_decl) {
    declared_trait(T, cp, s.copy, s.copy_deleted, "copy constructor", &memb.nothrow_copy);
  } else if (s.move_decl || s.move_assign_decl) {
    set(cp, HL_NO, hl_xstrdup(" has no copy constructor (declaring a move operation deletes it)"));
  } else {
    set(cp, memb.nothrow_copy.value, dup_why(&memb.nothrow_copy));
  }

  /* Nothrow move construction: its own move constructor, or — when none is
   * declared and one of the others is — the copy constructor. */
  hl_trait *mv = &out->nothrow_move;
  if (s.move_decl) {
    declared_trait(T, mv, s.move, s.move_deleted, "move constructor", &memb.nothrow_move);
  } else if (s.copy_decl || s.copy_assign_decl || s.move_assign_decl || s.dtor_decl) {
    if (cp->value == HL_YES)
      set(mv, HL_YES, NULL);
    else
      set(mv, cp->value,
          hl_xasprintf(" is moved by its copy constructor (it declares no move constructor), and%s",
                       cp->why ? cp->why : " that may throw"));
  } else {
    set(mv, memb.nothrow_move.value, dup_why(&memb.nothrow_move));
  }

  /* Constructing T(x) in a nothrow context also destroys it. */
  fold(cp, ds, "");
  fold(mv, ds, "");
  hl_traits_free(&memb);
}

/* ---- asking the compiler, for template instantiations ---- */

/* Whether t can be spelled at the end of the main file and mean the same
 * type there: no local classes, no lambdas, recursively in template args. */
static int nameable(CXType t, int depth) {
  if (depth > 16) return 0;
  CXType c = clang_getCanonicalType(t);
  while (hl_is_ref(c) || c.kind == CXType_Pointer) c = clang_getCanonicalType(clang_getPointeeType(c));
  CXCursor decl = clang_getTypeDeclaration(c);
  if (!clang_Cursor_isNull(decl))
    for (CXCursor p = clang_getCursorSemanticParent(decl);
         !clang_Cursor_isNull(p) && clang_getCursorKind(p) != CXCursor_TranslationUnit;
         p = clang_getCursorSemanticParent(p))
      if (hl_is_function_like(clang_getCursorKind(p))) return 0;
  int n = clang_Type_getNumTemplateArguments(c);
  for (int i = 0; i < n; i++) {
    CXType a = clang_Type_getTemplateArgumentAsType(c, (unsigned)i);
    if (a.kind != CXType_Invalid && !nameable(a, depth + 1)) return 0;
  }
  return 1;
}

static char *query_spelling(CXType c) {
  char *s = hl_type_spelling(c);
  hl_sb b = {0};
  const char *p = s;
  while (hl_starts_with(p, "const ") || hl_starts_with(p, "volatile ")) p = strchr(p, ' ') + 1;
  /* Members of an anonymous namespace are found without its (unspellable) name. */
  for (const char *q; (q = strstr(p, "(anonymous namespace)::")); p = q + strlen("(anonymous namespace)::"))
    hl_sb_putn(&b, p, (size_t)(q - p));
  hl_sb_puts(&b, p);
  free(s);
  char *r = hl_sb_take(&b);
  if (strstr(r, "(lambda at") || strstr(r, "(unnamed") || strstr(r, "(anonymous")) {
    free(r);
    return NULL;
  }
  return r;
}

static void answered_traits(const answer *a, hl_traits *out) {
  if (a->failed) {
    all(out, HL_UNKNOWN, " could not be examined by the compiler");
    return;
  }
  set(&out->trivially_copyable, (a->bits & 1) ? HL_YES : HL_NO,
      (a->bits & 1) ? NULL : hl_xstrdup(" is not trivially copyable"));
  set(&out->nothrow_copy, (a->bits & 2) ? HL_YES : HL_NO, (a->bits & 2) ? NULL : hl_xstrdup(" may throw when copied"));
  set(&out->nothrow_move, (a->bits & 4) ? HL_YES : HL_NO, (a->bits & 4) ? NULL : hl_xstrdup(" may throw when moved"));
  set(&out->nothrow_destroy, (a->bits & 16) ? HL_YES : HL_NO,
      (a->bits & 16) ? NULL : hl_xstrdup(" may throw when destroyed"));
}

/* std::shared_ptr<X> and std::weak_ptr<X>, whatever X: the standard
 * declares their copy and move constructors and their destructor noexcept,
 * and gives them a user-provided copy constructor (it counts owners), so
 * they are never trivially copyable. No need to name X. */
static int smart_pointer_traits(CXType c, hl_traits *out) {
  char *name = smart_pointer(c);
  if (!name) return 0;
  all(out, HL_YES, NULL);
  set(&out->trivially_copyable, HL_NO,
      hl_xasprintf(" is not trivially copyable (%s counts its owners when copied)", name));
  free(name);
  return 1;
}

/* Whether template argument i of c is std::allocator<...>. */
static int default_allocator(CXType c, int i) {
  CXType a = clang_Type_getTemplateArgumentAsType(c, (unsigned)i);
  if (a.kind == CXType_Invalid) return 0;
  char *name = hl_template_name(a);
  int r = !strcmp(name, "std::allocator");
  free(name);
  return r;
}

/* What a class owning heap memory is: a user-provided copy constructor
 * that may throw (it allocates). The reason says what the copy does, for
 * the library's class what (std::string, "its characters"). */
static void owner_traits(hl_traits *out, const char *name, const char *what) {
  set(&out->trivially_copyable, HL_NO, hl_xasprintf(" is not trivially copyable (copying a %s copies %s)", name, what));
  set(&out->nothrow_copy, HL_NO, hl_xasprintf(" may throw when copied (copying %s may allocate)", what));
}

/* std::basic_string<C> as code names it: "std::string", "std::wstring", ... */
static const char *string_name(CXType c) {
  CXType ch = clang_getCanonicalType(clang_Type_getTemplateArgumentAsType(c, 0));
  switch (ch.kind) {
  case CXType_Char_S:
  case CXType_Char_U: return "std::string";
  case CXType_WChar: return "std::wstring";
  case CXType_Char16: return "std::u16string";
  case CXType_Char32: return "std::u32string";
  default: break;
  }
  char *sp = hl_cxstring_take(clang_getTypeSpelling(ch));
  int u8 = !strcmp(sp, "char8_t");
  free(sp);
  return u8 ? "std::u8string" : "std::basic_string";
}

/* Class templates of the standard library whose traits do not depend on
 * their arguments, as libstdc++ and libc++ declare them at every standard
 * from C++11 (tests/function-sbo/library-families.cpp has both
 * compilers check each, so a library that changes one fails it): asked of
 * no compiler, they cost a unit no saved image.
 *   std::basic_string, std::vector with std::allocator; std::function:
 *     a user-provided copy constructor that may throw (it allocates), a
 *     move constructor and a destructor that may not;
 *   std::reference_wrapper<T>: a pointer, trivially copyable;
 *   std::chrono::duration<Rep, P> of an arithmetic Rep: its Rep. */
static int library_family_traits(CXType c, hl_traits *out) {
  char *name = hl_template_name(c);
  int n = clang_Type_getNumTemplateArguments(c);
  const char *owner = !strcmp(name, "std::basic_string") && n == 3 && default_allocator(c, 2) ? string_name(c)
                      : !strcmp(name, "std::vector") && n == 2 && default_allocator(c, 1)     ? "std::vector"
                      : !strcmp(name, "std::function") && n == 1                              ? "std::function"
                                                                                              : NULL;
  const char *owns = !owner                            ? NULL
                     : !strcmp(owner, "std::vector")   ? "its elements"
                     : !strcmp(owner, "std::function") ? "its target"
                                                       : "its characters";
  int plain = !strcmp(name, "std::reference_wrapper") && n == 1;
  if (!strcmp(name, "std::chrono::duration") && n == 2) {
    CXType rep = clang_getCanonicalType(clang_Type_getTemplateArgumentAsType(c, 0));
    plain = rep.kind >= CXType_FirstBuiltin && rep.kind <= CXType_LastBuiltin && rep.kind != CXType_Void &&
            rep.kind != CXType_NullPtr;
  }
  free(name);
  if (!owner && !plain) return 0;
  all(out, HL_YES, NULL);
  if (owner) owner_traits(out, owner, owns);
  return 1;
}

/* std::function<Sig> with a dependent Sig: its traits are the same for
 * every signature (library_family_traits). */
static int dependent_function_traits(CXType c, hl_traits *out) {
  char *name = template_of(c);
  int is = !strcmp(name, "std::function");
  free(name);
  if (!is) return 0;
  all(out, HL_YES, NULL);
  owner_traits(out, "std::function", "its target");
  return 1;
}

static void instantiation_traits(hl_types *T, CXType c, int ask, hl_traits *out) {
  if (smart_pointer_traits(c, out) || library_family_traits(c, out)) return;
  char *spelling = nameable(c, 0) ? query_spelling(c) : NULL;
  if (!spelling) {
    all(out, HL_UNKNOWN, " cannot be named outside its scope, so its traits are not known");
    /* Its fields are visible even so, and one that is not trivially
     * copyable makes any class not trivially copyable, whatever its own
     * special members (std::bind of a lambda holds a std::tuple). */
    hl_traits memb;
    memset(&memb, 0, sizeof memb);
    all(&memb, HL_YES, NULL);
    field_walk fw = {T, ask, NULL, 0, 0, 0, &memb};
    clang_Type_visitFields(c, fold_field, &fw);
    if (memb.trivially_copyable.value == HL_NO) set(&out->trivially_copyable, HL_NO, dup_why(&memb.trivially_copyable));
    hl_traits_free(&memb);
    return;
  }
  size_t idx = 0;
  while (idx < T->nanswers && strcmp(T->answers[idx].spelling, spelling)) idx++;
  if (idx == T->nanswers) {
    answer a = {spelling, 0, 0, 0, 0, 0};
    a.portable = T->u.memo && hl_trait_memo_portable(c, &a.salt);
    /* Answered in an earlier analysis of this kept unit. */
    if (a.portable && hl_trait_memo_get(T->u.memo, spelling, a.salt, &a.bits)) a.answered = 1;
    HL_PUSH(T->answers, T->nanswers, T->capanswers, a);
  } else {
    free(spelling);
  }
  if (T->answers[idx].answered) {
    answered_traits(&T->answers[idx], out);
    return;
  }
  all(out, HL_UNKNOWN, " is a template instantiation whose traits are not known yet");
  for (size_t i = 0; i < T->npend; i++)
    if (T->pend[i] == idx) ask = 0;
  if (ask) HL_PUSH(T->pend, T->npend, T->cappend, idx);
}

size_t hl_types_pending(const hl_types *T) { return T->npend; }

#define QUERY_PREFIX "__heaplint_trait_query_"
#define QUERY_TYPE "__heaplint_trait_type_"

typedef struct collect {
  hl_types *T;
  unsigned *bits;
  int *found;
} collect;

static enum CXChildVisitResult collect_answer(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  collect *k = data;
  if (clang_getCursorKind(c) != CXCursor_VarDecl || !clang_Location_isFromMainFile(clang_getCursorLocation(c)))
    return CXChildVisit_Continue;
  char *name = hl_cxstring_take(clang_getCursorSpelling(c));
  if (hl_starts_with(name, QUERY_PREFIX)) {
    size_t i = strtoul(name + strlen(QUERY_PREFIX), NULL, 10);
    CXEvalResult r = clang_Cursor_Evaluate(c);
    if (r && i < k->T->npend && clang_EvalResult_getKind(r) == CXEval_Int) {
      long long v = clang_EvalResult_getAsLongLong(r);
      if (v & 8) {
        k->bits[i] = (unsigned)v & (1 | 2 | 4 | 16);
        k->found[i] = 1;
      }
    }
    if (r) clang_EvalResult_dispose(r);
  }
  free(name);
  return CXChildVisit_Continue;
}

/* One alias and one constant per question; the alias also names the
 * destructor, which a qualified template-id cannot. */
static void append_queries(const hl_types *T, hl_sb *src) {
  for (size_t i = 0; i < T->npend; i++) {
    hl_sb_printf(src, "using " QUERY_TYPE "%zu = %s;\n", i, T->answers[T->pend[i]].spelling);
    hl_sb_printf(src,
                 "constexpr int " QUERY_PREFIX
                 "%zu = 8"
                 " | (__is_trivially_copyable(" QUERY_TYPE
                 "%zu) ? 1 : 0)"
                 " | (__is_nothrow_constructible(" QUERY_TYPE "%zu, const " QUERY_TYPE
                 "%zu &) ? 2 : 0)"
                 " | (__is_nothrow_constructible(" QUERY_TYPE "%zu, " QUERY_TYPE
                 "%zu &&) ? 4 : 0)"
                 " | (noexcept(static_cast<" QUERY_TYPE "%zu *>(nullptr)->~" QUERY_TYPE "%zu()) ? 16 : 0);\n",
                 i, i, i, i, i, i, i, i);
  }
}

/* The cheap way: save the parsed translation unit and parse just the
 * questions on top of it as a precompiled header, so its headers are not
 * parsed again. Returns the query TU, or NULL when this cannot be done. */
static CXTranslationUnit ask_over_pch(hl_types *T) {
  const char *tmp = getenv("TMPDIR");
  char *pch = hl_xasprintf("%s/heaplint-pch-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  int fd = mkstemp(pch);
  if (fd < 0) {
    free(pch);
    return NULL;
  }
  close(fd);
  int tracked = hl_temp_track(pch); /* a Ctrl-C meanwhile removes it */
  CXTranslationUnit q = NULL;
  if (clang_saveTranslationUnit(T->u.tu, pch, clang_defaultSaveOptions(T->u.tu)) == CXSaveError_None) {
    /* The file's forced includes are in the saved unit already. */
    const char **args = hl_xcalloc(T->u.nargs + 2, sizeof *args);
    size_t n = 0;
    for (size_t i = 0; i < T->u.nargs; i++) {
      const char *a = T->u.args[i];
      if (!strcmp(a, "-include") || !strcmp(a, "-include-pch") || !strcmp(a, "-imacros")) {
        i++;
        continue;
      }
      if (hl_starts_with(a, "-include") || hl_starts_with(a, "-imacros")) continue;
      args[n++] = a;
    }
    args[n++] = "-include-pch";
    args[n++] = pch;
    hl_sb src = {0};
    append_queries(T, &src);
    char *name = hl_xasprintf("%s.heaplint-query.cpp", T->u.job->file);
    struct CXUnsavedFile query = {name, hl_sb_str(&src), (unsigned long)src.len};
    unsigned nunsaved;
    struct CXUnsavedFile *unsaved = hl_unsaved_with(T->u.unsaved, T->u.nunsaved, &query, 1, &nunsaved);
    if (clang_parseTranslationUnit2(T->u.index, name, args, (int)n, unsaved, nunsaved, CXTranslationUnit_None, &q) !=
        CXError_Success)
      q = NULL;
    free(unsaved);
    free(name);
    hl_sb_free(&src);
    free(args);
  }
  unlink(pch);
  hl_temp_untrack(tracked);
  free(pch);
  return q;
}

/* The sure way: parse the file again with the questions appended, so every
 * type the file can name is in scope (before a declaration left open at
 * its end, which would swallow them: hl_unit_questions_at). The file is what the unit was parsed
 * from: an editor's unsaved text, else the file on disk. */
static CXTranslationUnit ask_by_reparse(hl_types *T, char **why) {
  hl_sb src = {0};
  const struct CXUnsavedFile *own = hl_unsaved_find(T->u.unsaved, T->u.nunsaved, T->u.job->source);
  if (own) {
    hl_sb_putn(&src, own->Contents, hl_unit_questions_at(&T->u, own->Contents, own->Length));
  } else {
    char *data = NULL;
    size_t len = 0;
    if (hl_read_file(T->u.job->file, &data, &len)) {
      *why = hl_xasprintf("%s: cannot read it again to ask the compiler about types", hl_display_path(T->u.job->file));
      return NULL;
    }
    hl_sb_putn(&src, data, hl_unit_questions_at(&T->u, data, len));
    free(data);
  }
  hl_sb_puts(&src, "\n#line 1 \"<heaplint trait queries>\"\n");
  append_queries(T, &src);
  struct CXUnsavedFile main_file = {T->u.job->source, hl_sb_str(&src), (unsigned long)src.len};
  unsigned nunsaved;
  struct CXUnsavedFile *unsaved = hl_unsaved_with(T->u.unsaved, T->u.nunsaved, &main_file, 1, &nunsaved);
  CXTranslationUnit q = NULL;
  enum CXErrorCode e = CXError_Success;
  if (T->u.reparse_queries)
    e = (q = T->u.reparse_queries(T->u.kept, unsaved, nunsaved)) ? CXError_Success : CXError_Failure;
  else
    e = clang_parseTranslationUnit2(T->u.index, T->u.job->source, T->u.args, (int)T->u.nargs, unsaved, nunsaved,
                                    CXTranslationUnit_KeepGoing, &q);
  free(unsaved);
  hl_sb_free(&src);
  if (e != CXError_Success || !q) {
    *why = hl_xasprintf("%s: the parse that asks the compiler about types failed (libclang error %d)",
                        hl_display_path(T->u.job->file), (int)e);
    return NULL;
  }
  return q;
}

char *hl_types_query_text(const hl_types *T) {
  if (T->npend == 0) return NULL;
  hl_sb src = {0};
  hl_sb_puts(&src, "\n#line 1 \"<heaplint trait queries>\"\n");
  append_queries(T, &src);
  return hl_sb_take(&src);
}

/* Each queued question's answer (found or not) recorded, the queue emptied. */
static void settle(hl_types *T, const unsigned *bits, const int *found) {
  for (size_t i = 0; i < T->npend; i++) {
    answer *a = &T->answers[T->pend[i]];
    a->answered = 1;
    a->failed = !found[i];
    a->bits = bits[i];
    if (a->portable && found[i]) hl_trait_memo_put(T->u.memo, a->spelling, a->salt, a->bits);
  }
  T->npend = 0;
}

void hl_types_collect(hl_types *T, CXTranslationUnit q) {
  if (T->npend == 0) return;
  unsigned *bits = hl_xcalloc(T->npend, sizeof *bits);
  int *found = hl_xcalloc(T->npend, sizeof *found);
  collect k = {T, bits, found};
  clang_visitChildren(clang_getTranslationUnitCursor(q), collect_answer, &k);
  settle(T, bits, found);
  free(bits);
  free(found);
}

int hl_types_answer(hl_types *T, char **why) {
  if (T->npend == 0) return 0;
  unsigned *bits = hl_xcalloc(T->npend, sizeof *bits);
  int *found = hl_xcalloc(T->npend, sizeof *found);
  collect k = {T, bits, found};
  /* Each question is one constant the compiler evaluates. */
  CXTranslationUnit q = T->u.has_preamble ? NULL : ask_over_pch(T);
  if (q) {
    clang_visitChildren(clang_getTranslationUnitCursor(q), collect_answer, &k);
    clang_disposeTranslationUnit(q);
  }
  /* Questions the precompiled route could not answer (it failed, or a type
   * did not resolve there) get the sure one. */
  int missing = 0;
  for (size_t i = 0; i < T->npend; i++) missing |= !found[i];
  int rc = 0;
  if (missing) {
    q = ask_by_reparse(T, why);
    if (q) {
      clang_visitChildren(clang_getTranslationUnitCursor(q), collect_answer, &k);
      if (!T->u.reparse_queries) clang_disposeTranslationUnit(q);
    } else {
      rc = -1;
    }
  }
  settle(T, bits, found);
  free(bits);
  free(found);
  return rc;
}

/* ---- dispatch ---- */

static void type_traits(hl_types *T, CXType t, int ask, const char *const *names, size_t nnames, hl_traits *out) {
  CXType c = clang_getCanonicalType(t);
  switch (c.kind) {
  case CXType_LValueReference:
  case CXType_RValueReference:
  case CXType_Pointer:
  case CXType_MemberPointer:
  case CXType_BlockPointer:
  case CXType_Enum: all(out, HL_YES, NULL); return;
  case CXType_ConstantArray:
  case CXType_IncompleteArray: type_traits(T, clang_getArrayElementType(c), ask, NULL, 0, out); return;
  case CXType_Record: break;
  case CXType_Dependent:
  case CXType_Unexposed:
  case CXType_Invalid:
    if (smart_pointer_traits(c, out) || dependent_function_traits(c, out)) return;
    all(out, HL_UNKNOWN, " depends on a template parameter");
    return;
  default:
    if (c.kind >= CXType_FirstBuiltin && c.kind <= CXType_LastBuiltin) {
      all(out, HL_YES, NULL);
      return;
    }
    all(out, HL_UNKNOWN, " is a kind of type heaplint does not examine");
    return;
  }
  if (T->depth > 32) {
    all(out, HL_UNKNOWN, " is nested too deeply to examine");
    return;
  }
  CXCursor decl = clang_getTypeDeclaration(c);
  if (!clang_Cursor_isNull(clang_getSpecializedCursorTemplate(decl))) {
    instantiation_traits(T, c, ask, out);
    return;
  }
  CXCursor canon = clang_getCanonicalCursor(decl);
  if (!names)
    for (size_t i = 0; i < T->nmemos; i++)
      if (clang_equalCursors(T->memos[i].decl, canon)) {
        copy_traits(out, &T->memos[i].traits);
        return;
      }
  T->depth++;
  record_traits(T, c, decl, ask, names, nnames, out);
  T->depth--;
  /* An unknown may still become known (the compiler's answers arrive later,
   * or a later call asks for them): only settled results are kept. */
  if (!names && out->trivially_copyable.value != HL_UNKNOWN && out->nothrow_copy.value != HL_UNKNOWN &&
      out->nothrow_move.value != HL_UNKNOWN && out->nothrow_destroy.value != HL_UNKNOWN) {
    memo m = {canon, {{0}, {0}, {0}, {0}}};
    copy_traits(&m.traits, out);
    HL_PUSH(T->memos, T->nmemos, T->capmemos, m);
  }
}

void hl_type_traits(hl_types *T, CXType t, int ask, const char *const *field_names, size_t nnames, hl_traits *out) {
  memset(out, 0, sizeof *out);
  int decays;
  t = hl_type_stored(t, &decays);
  if (decays) {
    all(out, HL_YES, NULL);
    return;
  }
  type_traits(T, t, ask, field_names, nnames, out);
}
