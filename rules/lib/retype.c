#include "rules/lib/retype.h"

#include <stdlib.h>
#include <string.h>

#include "util/strv.h"
#include "util/util.h"
#include "rules/lib/uses.h"

typedef struct target {
  CXCursor decl; /* canonical VarDecl or FieldDecl */
  int container; /* the wrapper is its element (or mapped) type */
  char *blocked; /* why it cannot be retyped, or NULL */
  char *shared;  /* declared where other units see it (a header): why that stops a local retype */
  int group;     /* targets one value flows through (T x = std::move(member);) share one: retyped together */
  char *flow;    /* what blocks it besides its flows into locals: what the project's retype of the flow heeds */
} target;

typedef struct alias {
  CXCursor var; /* a range-for variable bound to a container's elements */
  int t;
} alias;

/* A use read during the walk, judged after it: a store that makes it
 * harmless (a push_back's converted argument) is visited after the use. */
typedef struct pending {
  int t, direct, result_called;
  int flow; /* it moves or copies the whole target into a local of its type */
  hl_use use;
} pending;

struct hl_retype {
  target *v;
  size_t n, cap;
  alias *aliases;
  size_t naliases, capaliases;
  CXCursor *stores; /* calls that are stores of known callables */
  size_t nstores, capstores;
  pending *uses;
  size_t nuses, capuses;
};

/* The group of t, with path halving (a union-find over targets). */
static int group_of(hl_retype *R, int t) {
  while (R->v[t].group != t) {
    R->v[t].group = R->v[R->v[t].group].group;
    t = R->v[t].group;
  }
  return t;
}

static const char *const store_methods[] = {"push_back",   "push_front",      "emplace_back", "emplace_front",
                                            "emplace",     "emplace_after",   "emplace_hint", "insert",
                                            "try_emplace", "insert_or_assign"};
static const char *const read_methods[] = {"size",     "empty",    "clear",    "reserve",  "shrink_to_fit",
                                           "capacity", "max_size", "pop_back", "pop_front"};
static const char *const element_methods[] = {"operator[]", "at", "front", "back"};
static const char *const container_templates[] = {
    "std::vector", "std::deque",    "std::list",          "std::forward_list",
    "std::map",    "std::multimap", "std::unordered_map", "std::unordered_multimap"};

#define IN(s, v) hl_str_in((s), (v), sizeof(v) / sizeof *(v))

hl_retype *hl_retype_new(void) { return hl_xcalloc(1, sizeof(hl_retype)); }

void hl_retype_free(hl_retype *R) {
  if (!R) return;
  for (size_t i = 0; i < R->n; i++) {
    free(R->v[i].blocked);
    free(R->v[i].shared);
    free(R->v[i].flow);
  }
  free(R->v);
  free(R->aliases);
  free(R->stores);
  for (size_t i = 0; i < R->nuses; i++) hl_use_free(&R->uses[i].use);
  free(R->uses);
  free(R);
}

/* Whether decl's type is the wrapper w itself (1), a standard container of
 * it (2), or neither (0). */
static int shape(const hl_ctx *ctx, CXCursor decl, const hl_wrapper *w) {
  CXType t = clang_getCanonicalType(clang_getCursorType(decl));
  if (t.kind != CXType_Record) return 0;
  const hl_wrapper *direct = hl_ctx_wrapper_of_type(ctx, t);
  if (direct) return (!w || direct == w) ? 1 : 0;
  char *name = hl_template_name(t);
  int r = 0;
  if (IN(name, container_templates)) {
    int mapped = strstr(name, "map") != NULL;
    const hl_wrapper *e = hl_ctx_wrapper_of_type(ctx, clang_Type_getTemplateArgumentAsType(t, mapped ? 1 : 0));
    r = e && (!w || e == w) ? 2 : 0;
  }
  free(name);
  return r;
}

static int is_local(CXCursor decl) {
  enum CXCursorKind k = clang_getCursorKind(clang_getCursorSemanticParent(decl));
  return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
         k == CXCursor_Destructor || k == CXCursor_ConversionFunction || k == CXCursor_LambdaExpr;
}

static int find(const hl_retype *R, CXCursor decl) {
  for (size_t i = 0; i < R->n; i++)
    if (clang_equalCursors(R->v[i].decl, decl)) return (int)i;
  return -1;
}

static void block(hl_retype *R, int t, char *why) {
  if (R->v[t].blocked)
    free(why);
  else
    R->v[t].blocked = why;
}

/* Another declaration of a variable in the main file (extern, then the
 * definition; a static member's in-class declaration, then its
 * definition): retyping one of them alone would not compile. */
typedef struct redecl_walk {
  CXCursor decl, found;
} redecl_walk;

static enum CXChildVisitResult find_redecl(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  redecl_walk *w = d;
  if (!clang_Location_isFromMainFile(clang_getCursorLocation(c))) return CXChildVisit_Continue;
  switch (clang_getCursorKind(c)) {
  case CXCursor_VarDecl:
    if (!clang_equalCursors(c, w->decl) && clang_equalCursors(clang_getCanonicalCursor(c), w->decl)) {
      w->found = c;
      return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
  case CXCursor_Namespace:
  case CXCursor_LinkageSpec:
  case CXCursor_StructDecl:
  case CXCursor_ClassDecl:
  case CXCursor_UnionDecl: return CXChildVisit_Recurse;
  default: return CXChildVisit_Continue;
  }
}

/* The target for decl (made on first sight), or -1 when decl is not a
 * wrapper variable, member or container of wrappers. */
static int target_of(hl_retype *R, const hl_ctx *ctx, CXCursor decl, const hl_wrapper *w) {
  decl = clang_getCanonicalCursor(decl);
  int t = find(R, decl);
  if (t >= 0) return t;
  enum CXCursorKind k = clang_getCursorKind(decl);
  if (k != CXCursor_VarDecl && k != CXCursor_FieldDecl) return -1;
  int s = shape(ctx, decl, w);
  if (!s) return -1;
  target x = {decl, s == 2, NULL, NULL, (int)R->n, NULL};
  HL_PUSH(R->v, R->n, R->cap, x);
  t = (int)R->n - 1;
  /* A member or a global is seen by other translation units unless it is
   * declared in this one's own file. */
  if (k == CXCursor_FieldDecl || !is_local(decl)) {
    hl_loc loc;
    if (!hl_ctx_loc(ctx, clang_getCursorLocation(decl), &loc)) {
      if (strcmp(loc.file, hl_ctx_job(ctx)->file))
        R->v[t].shared =
            hl_xasprintf("it is declared in %s, which other translation units may include", hl_display_path(loc.file));
      hl_loc_free(&loc);
    }
  }
  if (k == CXCursor_VarDecl && !is_local(decl)) {
    redecl_walk rw = {decl, clang_getNullCursor()};
    clang_visitChildren(clang_getTranslationUnitCursor(hl_ctx_tu(ctx)), find_redecl, &rw);
    hl_loc loc;
    if (!clang_Cursor_isNull(rw.found) && !hl_ctx_loc(ctx, clang_getCursorLocation(rw.found), &loc)) {
      char *at = hl_loc_where(&loc);
      block(R, t,
            hl_xasprintf("it is declared more than once (again at %s), and heaplint retypes a single declaration only",
                         at));
      free(at);
      hl_loc_free(&loc);
    }
  }
  return t;
}

/* The target the object expression of a call refers to (directly, or
 * through a range-for alias of a container's elements). */
static int object_target(hl_retype *R, const hl_ctx *ctx, CXCursor object, const hl_wrapper *w, int want_container) {
  object = hl_strip(object);
  enum CXCursorKind k = clang_getCursorKind(object);
  if (k != CXCursor_DeclRefExpr && k != CXCursor_MemberRefExpr) return -1;
  CXCursor decl = clang_getCanonicalCursor(clang_getCursorReferenced(object));
  for (size_t i = 0; i < R->naliases; i++)
    if (clang_equalCursors(R->aliases[i].var, decl)) return want_container ? -1 : R->aliases[i].t;
  int t = target_of(R, ctx, decl, w);
  if (t >= 0 && R->v[t].container != want_container) return -1;
  return t;
}

/* The member a constructor's initializer list initializes with child. */
typedef struct init_walk {
  CXCursor child, member, last_ref;
} init_walk;

static enum CXChildVisitResult member_init(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  init_walk *w = d;
  if (clang_getCursorKind(c) == CXCursor_MemberRef)
    w->last_ref = c;
  else if (clang_equalCursors(c, w->child)) {
    w->member = w->last_ref;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Continue;
}

/* Whether p copies or moves the wrapper that call constructs: before C++17
 * a copy-initialization (std::function<void()> f = lambda;) constructs a
 * temporary wrapper and then moves it into place, a constructor call that
 * libclang shows without a name. The store goes where the copy goes. */
static int moves_wrapper(CXCursor p, CXCursor call) {
  if (clang_getCursorKind(p) != CXCursor_CallExpr || clang_Cursor_getNumArguments(p) != 1 ||
      !hl_same_class(clang_getCursorType(p), clang_getCursorType(call)))
    return 0;
  CXCursor ctor = clang_getCursorReferenced(p);
  return clang_Cursor_isNull(ctor) ||
         (clang_getCursorKind(ctor) == CXCursor_Constructor &&
          (clang_CXXConstructor_isCopyConstructor(ctor) || clang_CXXConstructor_isMoveConstructor(ctor)));
}

/* The code of e as written, spaces folded ("arr[i]"), or NULL when it is
 * long, or not in one file. */
static char *written(const hl_ctx *ctx, CXCursor e) {
  CXSourceRange r = clang_getCursorExtent(e);
  CXFile bf, ef;
  unsigned bo, eo;
  clang_getFileLocation(clang_getRangeStart(r), &bf, NULL, NULL, &bo);
  clang_getFileLocation(clang_getRangeEnd(r), &ef, NULL, NULL, &eo);
  size_t size = 0;
  const char *text = bf ? clang_getFileContents(hl_ctx_tu(ctx), bf, &size) : NULL;
  if (!text || !ef || !clang_File_isEqual(bf, ef) || eo <= bo || eo > size || eo - bo > 48) return NULL;
  hl_sb b = {0};
  for (unsigned i = bo; i < eo; i++) {
    int space = text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r';
    if (!space)
      hl_sb_putc(&b, text[i]);
    else if (b.len && b.s[b.len - 1] != ' ')
      hl_sb_putc(&b, ' ');
  }
  return hl_sb_take(&b);
}

/* Why the left side of an assignment is no variable or member heaplint can
 * retype, naming it: "it is assigned to 'arr[0]', an element of an array;
 * heaplint retypes variables and members". */
static char *assign_why(const hl_ctx *ctx, CXCursor object) {
  CXCursor o = hl_strip(object);
  enum CXCursorKind k = clang_getCursorKind(o);
  CXCursor d = clang_getCursorReferenced(o);
  char *what, *code = written(ctx, o);
  if (k == CXCursor_ArraySubscriptExpr)
    what = hl_xstrdup("an element of an array");
  else if (k == CXCursor_ConditionalOperator)
    what = hl_xstrdup("one of two objects a conditional chooses between");
  else if (k == CXCursor_UnaryOperator)
    what = hl_xstrdup("an object reached through a pointer");
  else if (k == CXCursor_CallExpr) {
    char *f = hl_callee_phrase(o);
    what = hl_xasprintf("the object %s returns", f);
    free(f);
  } else if (clang_getCursorKind(d) == CXCursor_ParmDecl)
    what = hl_xstrdup("a parameter, whose type its callers see");
  else if (hl_is_ref(clang_getCursorType(d)))
    what = hl_xstrdup("a reference to a wrapper declared elsewhere");
  else
    what = hl_xstrdup("an expression heaplint does not follow");
  char *r = code ? hl_xasprintf("it is assigned to '%s', %s; heaplint retypes variables and members", code, what)
                 : hl_xasprintf("it is assigned to %s; heaplint retypes variables and members", what);
  free(code);
  free(what);
  return r;
}

/* What the wrapper call constructs goes into: its first ancestor that is
 * not a copy or move of it, with *below the child on the way. */
static CXCursor constructed_into(hl_ctx *ctx, CXCursor call, CXCursor *below) {
  size_t k = 0;
  CXCursor p = hl_ctx_opaque_ancestor(ctx, &k, call, below);
  while (moves_wrapper(p, call)) {
    k++;
    p = hl_ctx_opaque_ancestor(ctx, &k, p, below);
  }
  return p;
}

int hl_retype_store(hl_retype *R, hl_ctx *ctx, CXCursor call, hl_store_kind kind, const hl_wrapper *w, char **why) {
  *why = NULL;
  int t = -1;
  if (kind == HL_STORE_ASSIGN) {
    t = object_target(R, ctx, hl_first_child(call), w, 0);
    if (t < 0) *why = assign_why(ctx, hl_first_child(call));
  } else if (kind == HL_STORE_CONTAINER) {
    CXCursor callee = hl_first_child(call);
    t = clang_getCursorKind(callee) == CXCursor_MemberRefExpr ? object_target(R, ctx, hl_first_child(callee), w, 1)
                                                              : -1;
    if (t < 0) *why = hl_xstrdup("it goes into a container heaplint cannot retype");
  } else if (kind == HL_STORE_CONSTRUCT) {
    CXCursor below, p = constructed_into(ctx, call, &below);
    enum CXCursorKind pk = clang_getCursorKind(p);
    if (pk == CXCursor_VarDecl || pk == CXCursor_FieldDecl) {
      t = target_of(R, ctx, p, w);
      if (t >= 0 && R->v[t].container) t = -1;
    } else if (pk == CXCursor_Constructor) {
      init_walk iw = {below, clang_getNullCursor(), clang_getNullCursor()};
      clang_visitChildren(p, member_init, &iw);
      if (!clang_Cursor_isNull(iw.member)) t = target_of(R, ctx, clang_getCursorReferenced(iw.member), w);
      if (t >= 0 && R->v[t].container) t = -1;
    } else if (pk == CXCursor_CallExpr) {
      /* Converted for a container's push_back/insert: the container. */
      CXCursor fn = clang_getCursorReferenced(p), callee = hl_first_child(p);
      char *name = hl_cxstring_take(clang_getCursorSpelling(fn));
      if (clang_getCursorKind(fn) == CXCursor_CXXMethod && IN(name, store_methods) &&
          clang_getCursorKind(callee) == CXCursor_MemberRefExpr) {
        t = object_target(R, ctx, hl_first_child(callee), w, 1);
        if (t >= 0) HL_PUSH(R->stores, R->nstores, R->capstores, p);
      } else {
        char *f = hl_callee_phrase(p);
        *why = hl_xasprintf("it is passed to %s as a std::function", f);
        free(f);
      }
      free(name);
    } else if (pk == CXCursor_ReturnStmt) {
      *why = hl_xstrdup("it is returned as a std::function");
    }
    if (t < 0 && !*why) *why = hl_xstrdup("it is not stored in a variable or member heaplint can retype");
  } else {
    *why = hl_xstrdup("it is stored in a way heaplint does not retype");
  }
  if (t >= 0) HL_PUSH(R->stores, R->nstores, R->capstores, call);
  return t;
}

/* The declaration's name as summaries show it: qualified, with its
 * parameters ("Loop::post(std::function<void ()>)"). */
char *hl_retype_api_name(CXCursor fn) {
  char *q = hl_decl_name(fn), *d = hl_cxstring_take(clang_getCursorDisplayName(fn)),
       *s = hl_cxstring_take(clang_getCursorSpelling(fn));
  const char *params = hl_starts_with(d, s) ? d + strlen(s) : strchr(d, '(');
  char *r = hl_xasprintf("%s%s", q, params ? params : "()");
  free(q);
  free(d);
  free(s);
  return r;
}

int hl_retype_param_of(hl_ctx *ctx, CXCursor call, hl_retype_param *out) {
  *out = (hl_retype_param){0};
  CXCursor below, p = constructed_into(ctx, call, &below);
  if (clang_getCursorKind(p) != CXCursor_CallExpr) return 0;
  CXCursor fn = clang_getCursorReferenced(p);
  enum CXCursorKind fk = clang_getCursorKind(fn);
  if (fk != CXCursor_FunctionDecl && fk != CXCursor_CXXMethod && fk != CXCursor_Constructor) return 0;
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(fn))) return 0;
  int n = clang_Cursor_getNumArguments(p), index = -1;
  for (int i = 0; i < n && index < 0; i++)
    if (clang_equalCursors(clang_Cursor_getArgument(p, (unsigned)i), below)) index = i;
  if (index < 0 || index >= clang_Cursor_getNumArguments(fn)) return 0;
  char *usr = hl_cxstring_take(clang_getCursorUSR(fn));
  if (!*usr) {
    free(usr);
    return 0;
  }
  out->usr = usr;
  out->index = index;
  out->api = hl_retype_api_name(fn);
  out->type = hl_type_spelling(clang_getCursorType(clang_Cursor_getArgument(fn, (unsigned)index)));
  return 1;
}

void hl_retype_param_free(hl_retype_param *p) {
  free(p->usr);
  free(p->api);
  free(p->type);
}

static int is_store(const hl_retype *R, CXCursor call) {
  for (size_t i = 0; i < R->nstores; i++)
    if (clang_equalCursors(R->stores[i], call)) return 1;
  return 0;
}

/* operator=(nullptr) empties the wrapper: fine for any wrapper. */
static int assigns_null(CXCursor call) {
  int n = clang_Cursor_getNumArguments(call);
  if (n < 1) return 0;
  return clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(call, (unsigned)(n - 1)))).kind ==
         CXType_NullPtr;
}

/* A use of the wrapper itself (a variable, a member, or a container's
 * element through a range-for alias). */
static void direct_use(hl_retype *R, int t, const hl_use *u) {
  char *at = hl_loc_where(&u->loc);
  if (u->kind == HL_USE_MEMBER) {
    const char *m = u->method_name;
    if (!strcmp(m, "operator()") || !strcmp(m, "operator bool") || !strcmp(m, "target") || !strcmp(m, "target_type")) {
    } else if (!strcmp(m, "operator=")) {
      if (!is_store(R, u->call) && !assigns_null(u->call))
        block(R, t, hl_xasprintf("it is assigned another wrapper at %s, whose size heaplint does not know", at));
    } else {
      block(R, t, hl_xasprintf("its %s() is called at %s", m, at));
    }
  } else {
    block(R, t, hl_xasprintf("it is %s at %s", u->kind == HL_USE_ESCAPE ? u->how : "used", at));
  }
  free(at);
}

static void container_use(hl_retype *R, int t, const hl_use *u, int result_called) {
  char *at = hl_loc_where(&u->loc);
  if (u->kind == HL_USE_MEMBER) {
    const char *m = u->method_name;
    if (IN(m, store_methods)) {
      if (!is_store(R, u->call))
        block(R, t, hl_xasprintf("its %s() at %s stores something whose size heaplint does not know", m, at));
    } else if (IN(m, element_methods)) {
      if (!result_called) block(R, t, hl_xasprintf("an element is used through %s at %s", m, at));
    } else if (!IN(m, read_methods)) {
      block(R, t, hl_xasprintf("its %s() is called at %s", m, at));
    }
  } else if (u->kind == HL_USE_RANGE_FOR) {
    /* Iterating is fine; the loop variable's own uses were followed. */
  } else {
    block(R, t, hl_xasprintf("it is %s at %s", u->how, at));
  }
  free(at);
}

/* Whether call is std::move of one argument. */
static int is_std_move(CXCursor call) {
  if (clang_getCursorKind(call) != CXCursor_CallExpr || clang_Cursor_getNumArguments(call) != 1) return 0;
  char *name = hl_decl_name(clang_getCursorReferenced(call));
  int r = !strcmp(name, "std::move");
  free(name);
  return r;
}

CXCursor hl_retype_whole_parent(hl_ctx *ctx, CXCursor ref, CXCursor *below) {
  size_t k = 0;
  CXCursor p = hl_ctx_opaque_ancestor(ctx, &k, ref, below);
  if (is_std_move(p)) {
    k++;
    p = hl_ctx_opaque_ancestor(ctx, &k, p, below);
  }
  CXType t = clang_getCursorType(clang_getCursorReferenced(ref));
  for (int i = 0; i < 2 && clang_getCursorKind(p) == CXCursor_CallExpr && clang_Cursor_getNumArguments(p) == 1; i++) {
    CXCursor ctor = clang_getCursorReferenced(p);
    if (!hl_same_class(clang_getCursorType(p), t) ||
        (!clang_Cursor_isNull(ctor) &&
         !(clang_getCursorKind(ctor) == CXCursor_Constructor &&
           (clang_CXXConstructor_isCopyConstructor(ctor) || clang_CXXConstructor_isMoveConstructor(ctor)))))
      break;
    k++;
    p = hl_ctx_opaque_ancestor(ctx, &k, p, below);
  }
  return p;
}

/* The local variable the use ref initializes with the whole object it
 * names, moved or copied (T x = std::move(m); T x = m;), when x is of the
 * same type; else a null cursor. The two are then one flow: retyping one
 * alone would not compile. */
static CXCursor initialized_local(hl_ctx *ctx, CXCursor ref, CXCursor decl) {
  CXCursor below, p = hl_retype_whole_parent(ctx, ref, &below);
  if (clang_getCursorKind(p) != CXCursor_VarDecl || !is_local(p) ||
      !clang_equalTypes(clang_getCanonicalType(clang_getCursorType(p)),
                        clang_getCanonicalType(clang_getCursorType(decl))))
    return clang_getNullCursor();
  return p;
}

CXCursor hl_retype_member_init(hl_ctx *ctx, CXCursor ref) {
  CXCursor below, p = hl_retype_whole_parent(ctx, ref, &below);
  if (clang_getCursorKind(p) != CXCursor_Constructor) return clang_getNullCursor();
  init_walk iw = {below, clang_getNullCursor(), clang_getNullCursor()};
  clang_visitChildren(p, member_init, &iw);
  if (clang_Cursor_isNull(iw.member)) return clang_getNullCursor();
  CXCursor m = clang_getCanonicalCursor(clang_getCursorReferenced(iw.member));
  if (clang_getCursorKind(m) != CXCursor_FieldDecl ||
      !hl_same_class(clang_getCursorType(m), clang_getCursorType(clang_getCursorReferenced(ref))))
    return clang_getNullCursor();
  return m;
}

void hl_retype_use(hl_retype *R, hl_ctx *ctx, CXCursor ref) {
  CXCursor decl = hl_use_target(ref);
  if (clang_Cursor_isNull(decl)) return;
  /* A member moved or copied into itself (another object's, in a move or
   * copy constructor): retyped with itself. */
  if (clang_equalCursors(hl_retype_member_init(ctx, ref), clang_getCanonicalCursor(decl))) return;
  int t = -1, via_alias = 0;
  for (size_t i = 0; i < R->naliases && t < 0; i++)
    if (clang_equalCursors(R->aliases[i].var, decl)) t = R->aliases[i].t, via_alias = 1;
  if (t < 0) t = target_of(R, ctx, decl, NULL);
  if (t < 0) return;
  CXCursor local = via_alias ? clang_getNullCursor() : initialized_local(ctx, ref, R->v[t].decl);
  int partner = clang_Cursor_isNull(local) ? -1 : target_of(R, ctx, local, NULL);
  int flow = partner >= 0 && partner != t && R->v[partner].container == R->v[t].container;
  if (flow) R->v[group_of(R, partner)].group = group_of(R, t);
  pending p = {t, !R->v[t].container || via_alias, 0, flow, {0}};
  if (hl_use_of(ctx, ref, &p.use)) return;
  p.result_called = hl_use_result_is_called(ctx, &p.use);
  if (p.use.kind == HL_USE_RANGE_FOR && !p.direct) {
    /* By reference, the loop variable is the element: follow its uses. */
    CXType lt = clang_getCursorType(p.use.loop_var);
    if (lt.kind == CXType_LValueReference || lt.kind == CXType_RValueReference) {
      alias a = {clang_getCanonicalCursor(p.use.loop_var), t};
      HL_PUSH(R->aliases, R->naliases, R->capaliases, a);
    }
  }
  HL_PUSH(R->uses, R->nuses, R->capuses, p);
}

/* Every use read during the walk, judged (but flows into locals, with
 * skip_flow). */
static void judge_uses(hl_retype *R, int skip_flow) {
  for (size_t i = 0; i < R->nuses; i++) {
    pending *p = &R->uses[i];
    if (skip_flow && p->flow) continue;
    if (p->direct)
      direct_use(R, p->t, &p->use);
    else
      container_use(R, p->t, &p->use, p->result_called);
  }
}

void hl_retype_finish(hl_retype *R) {
  /* Twice: without the flows into locals, for the project, which retypes
   * a flow whole (the reason kept as flow); then with them, for the local
   * retype, which stops at a flow as at any escape. */
  char **made = hl_xcalloc(R->n ? R->n : 1, sizeof *made); /* what blocked them when they were made */
  for (size_t i = 0; i < R->n; i++) made[i] = R->v[i].blocked ? hl_xstrdup(R->v[i].blocked) : NULL;
  judge_uses(R, 1);
  for (size_t i = 0; i < R->n; i++) {
    R->v[i].flow = R->v[i].blocked;
    R->v[i].blocked = made[i];
  }
  free(made);
  judge_uses(R, 0);
  /* A flow with a target declared in a header is the project's to retype,
   * whole or not at all: all its targets are shared, and what blocks one
   * (besides the flow itself) blocks all. */
  for (size_t i = 0; i < R->n; i++) {
    int g = group_of(R, (int)i);
    if (R->v[i].shared && !R->v[g].shared) R->v[g].shared = hl_xstrdup(R->v[i].shared);
  }
  for (size_t i = 0; i < R->n; i++) {
    int g = group_of(R, (int)i);
    if (R->v[g].shared && R->v[i].flow && !R->v[g].flow) R->v[g].flow = hl_xstrdup(R->v[i].flow);
  }
  for (size_t i = 0; i < R->n; i++) {
    int g = group_of(R, (int)i);
    if (!R->v[g].shared || g == (int)i) continue;
    if (R->v[g].flow && !R->v[i].flow) R->v[i].flow = hl_xstrdup(R->v[g].flow);
    if (!R->v[i].shared) R->v[i].shared = hl_xstrdup(R->v[g].shared);
  }
}

int hl_retype_group(hl_retype *R, int t) { return group_of(R, t); }

const char *hl_retype_blocked(const hl_retype *R, int t) { return R->v[t].shared ? R->v[t].shared : R->v[t].blocked; }

int hl_retype_count(const hl_retype *R) { return (int)R->n; }
int hl_retype_shared(const hl_retype *R, int t) { return R->v[t].shared != NULL; }
const char *hl_retype_local_blocked(const hl_retype *R, int t) { return R->v[t].flow; }

CXCursor hl_retype_decl(const hl_retype *R, int t, int *container) {
  *container = R->v[t].container;
  return R->v[t].decl;
}
