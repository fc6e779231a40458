/* node-container: a local std::list, forward_list, map, multimap, set,
 * multiset, unordered_map or unordered_set with the default allocator that
 * the function inserts into in a loop. Each element inserted is a node of
 * its own, so the loop calls the global operator new once per element.
 * Fix: the hl:: alias of the same container (heaplint/containers.hpp),
 * whose allocator takes nodes from heaplint's pools.
 * See docs/rules/node-container.md.
 *
 * Uses of a variable can come before the insertion that makes it a
 * finding, so the walk only records them; end() judges them. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "rules/lib/rewrite.h"
#include "rules/lib/runtime_std.h"
#include "rules/lib/uses.h"

#define RULE "node-container"
#define HEADER "heaplint/containers.hpp"

typedef struct container {
  const char *name;   /* the class template, without inline namespaces */
  const char *alias;  /* heaplint's alias: same parameters but the allocator */
  unsigned allocator; /* index of the allocator parameter */
  int pair;           /* elements are std::pair<const Key, T> */
  int hashed;         /* has a bucket array as well */
} container;

static const container containers[] = {
    {"std::list", "hl::list", 1, 0, 0},
    {"std::forward_list", "hl::forward_list", 1, 0, 0},
    {"std::map", "hl::map", 3, 1, 0},
    {"std::multimap", "hl::multimap", 3, 1, 0},
    {"std::set", "hl::set", 2, 0, 0},
    {"std::multiset", "hl::multiset", 2, 0, 0},
    {"std::unordered_map", "hl::unordered_map", 4, 1, 1},
    {"std::unordered_set", "hl::unordered_set", 3, 0, 1},
};

/* The members that insert an element. Of these containers only map and
 * unordered_map have operator[], which inserts a key it does not find. */
static const char *const inserters[] = {
    "insert",     "emplace",       "emplace_hint", "emplace_back", "emplace_front",    "push_back",
    "push_front", "emplace_after", "insert_after", "try_emplace",  "insert_or_assign", "operator[]",
};

/* A local variable of one of the containers, with the default allocator. */
typedef struct var {
  CXCursor decl; /* canonical */
  CXType type;   /* canonical */
  const container *kind;
  hl_loc loc; /* its name */
  char *name;
  char *blocked;     /* why its declaration cannot be retyped, or NULL */
  int in_loop;       /* inserted into in the body of a loop */
  hl_loc insert_loc; /* the first such insertion */
  char *insert_method;
  const char *loop_kind;
} var;

/* A use read during the walk, judged in end(). */
typedef struct pending {
  size_t var;
  hl_use use;
} pending;

typedef struct state {
  var *vars;
  size_t nvars, capvars;
  pending *uses;
  size_t nuses, capuses;
} state;

/* ---- small AST helpers ---- */

static const container *container_of(CXType t) {
  char *n = hl_template_name(t);
  const container *k = NULL;
  for (size_t i = 0; i < sizeof containers / sizeof *containers && !k; i++)
    if (!strcmp(n, containers[i].name)) k = &containers[i];
  free(n);
  return k;
}

/* What a loop hl_loop_around found is, in words: "for loop", ... */
static const char *loop_kind(CXCursor loop) {
  switch (clang_getCursorKind(loop)) {
  case CXCursor_ForStmt: return "for loop";
  case CXCursor_WhileStmt: return "while loop";
  case CXCursor_DoStmt: return "do-while loop";
  default: return "range-based for loop";
  }
}

/* ---- what a retype would break ---- */

/* t is one of the container's own arguments (its key, mapped or element
 * type): those do not change with the allocator. */
static int own_argument(const var *v, CXType t) {
  for (unsigned i = 0; i < v->kind->allocator; i++)
    if (hl_same_class(clang_Type_getTemplateArgumentAsType(v->type, i), t)) return 1;
  return 0;
}

static int names_allocator(CXType t) {
  int n = clang_Type_getNumTemplateArguments(t);
  for (int i = 0; i < n; i++)
    if (hl_type_is_template(clang_Type_getTemplateArgumentAsType(t, (unsigned)i), "std::allocator")) return 1;
  return 0;
}

/* Why a type in the signature of a member (or constructor) that the code
 * calls would not match once the allocator is heaplint's, or NULL: another
 * standard node container (swap, merge, splice, copy), an allocator, or a
 * type built on the allocator (a node handle). Iterators are the same types
 * with either allocator on libstdc++ and libc++ (its pointer is T*), so
 * they do not count; arguments of a member template (emplace, insert of a
 * range) are the caller's types, not the container's. */
static char *tied(const var *v, CXType param, int member_template, int result) {
  CXType t = clang_getCanonicalType(hl_unref(param));
  if (clang_Cursor_isNull(clang_getTypeDeclaration(t)) || own_argument(v, t)) return NULL;
  if (result && hl_same_class(t, v->type)) return NULL; /* operator= returns *this */
  const container *k = container_of(t);
  if (k) return hl_xasprintf("a %s, and %s is a different type", k->name, v->kind->alias);
  if (hl_type_is_template(t, "std::allocator")) return hl_xstrdup("a std::allocator");
  if (!member_template && names_allocator(t)) return hl_xstrdup("a type that names its std::allocator");
  return NULL;
}

/* Why the call of member method (through its first nparams parameters)
 * would not compile on the retyped container, or NULL. */
static char *signature_blocks(const var *v, CXCursor method, int nparams, const char **verb) {
  CXType fty = clang_getCursorType(method);
  int tmpl = hl_is_function_template_specialization(method);
  int np = clang_getNumArgTypes(fty);
  if (nparams >= 0 && nparams < np) np = nparams;
  for (int i = 0; i < np; i++) {
    char *why = tied(v, clang_getArgType(fty, (unsigned)i), tmpl, 0);
    if (why) {
      *verb = "takes";
      return why;
    }
  }
  *verb = "returns";
  return clang_getCursorKind(method) == CXCursor_Constructor ? NULL : tied(v, clang_getResultType(fty), tmpl, 1);
}

/* The arguments a call writes: default arguments (the allocator_type()
 * most constructors end with) have no place in the source. */
static int written_arguments(CXCursor call) {
  int n = clang_Cursor_getNumArguments(call), given = 0;
  while (given < n && !clang_Range_isNull(clang_getCursorExtent(clang_Cursor_getArgument(call, (unsigned)given))))
    given++;
  return given;
}

/* Why the initializer keeps the declaration from being retyped, or NULL:
 * a copy of another container, a container made elsewhere, an allocator. */
static char *init_blocks(const var *v, CXCursor decl) {
  CXCursor init = hl_strip(hl_last_child(decl));
  if (!clang_isExpression(clang_getCursorKind(init))) return NULL;
  CXCursor fn = clang_getCursorReferenced(init);
  if (clang_getCursorKind(init) == CXCursor_CallExpr && clang_getCursorKind(fn) == CXCursor_Constructor) {
    const char *verb;
    char *why = signature_blocks(v, fn, written_arguments(init), &verb);
    if (!why) return NULL;
    char *r = hl_xasprintf("it is constructed from %s", why);
    free(why);
    return r;
  }
  if (clang_getCursorKind(init) == CXCursor_CallExpr && !clang_Cursor_isNull(fn)) {
    char *name = hl_cxstring_take(clang_getCursorSpelling(fn));
    char *r = hl_xasprintf("it is initialized with the %s that %s() returns, and %s is a different type", v->kind->name,
                           name, v->kind->alias);
    free(name);
    return r;
  }
  return hl_xasprintf("it is initialized from a %s, and %s is a different type", v->kind->name, v->kind->alias);
}

/* Why the statement that declares it cannot be retyped for it alone, or
 * NULL: a range-for's variable. (The type written once for two variables
 * is hl_rewrite_template_range's to say, for every rule.) */
static char *statement_blocks(const hl_ctx *ctx) {
  CXCursor stmt = hl_ctx_ancestor(ctx, 0);
  enum CXCursorKind k = clang_getCursorKind(stmt);
  if (k == CXCursor_CXXForRangeStmt)
    return hl_xstrdup("it is the variable of a range-based for, copied from each element");
  if (k != CXCursor_DeclStmt) return hl_xstrdup("it is not declared in a declaration statement of its own");
  return NULL;
}

/* ---- the walk ---- */

static void *begin(hl_ctx *ctx, const hl_rule *self) {
  (void)self;
  (void)ctx;
  return hl_xcalloc(1, sizeof(state));
}

/* A local variable (not static, thread_local or extern) whose type is one
 * of the containers with std::allocator as its allocator, written or not. */
static void declare(hl_ctx *ctx, state *S, CXCursor c) {
  enum CX_StorageClass sc = clang_Cursor_getStorageClass(c);
  if (!hl_is_function_like(clang_getCursorKind(clang_getCursorSemanticParent(c))) || sc == CX_SC_Static ||
      sc == CX_SC_Extern || clang_getCursorTLSKind(c) != CXTLS_None)
    return;
  CXType t = clang_getCanonicalType(clang_getCursorType(c));
  if (t.kind != CXType_Record) return;
  const container *k = container_of(t);
  if (!k || clang_Type_getNumTemplateArguments(t) <= (int)k->allocator ||
      !hl_type_is_template(clang_Type_getTemplateArgumentAsType(t, k->allocator), "std::allocator"))
    return;
  var v = {clang_getCanonicalCursor(c), t, k, {0}, NULL, NULL, 0, {0}, NULL, NULL};
  if (hl_ctx_loc(ctx, clang_getCursorLocation(c), &v.loc)) return;
  v.name = hl_cxstring_take(clang_getCursorSpelling(c));
  v.blocked = statement_blocks(ctx);
  if (!v.blocked) v.blocked = init_blocks(&v, c);
  HL_PUSH(S->vars, S->nvars, S->capvars, v);
}

static int is_inserter(const char *method) {
  for (size_t i = 0; i < sizeof inserters / sizeof *inserters; i++)
    if (!strcmp(method, inserters[i])) return 1;
  return 0;
}

static void use(hl_ctx *ctx, state *S, CXCursor ref) {
  CXCursor decl = hl_use_target(ref);
  if (clang_Cursor_isNull(decl)) return;
  size_t i = 0;
  while (i < S->nvars && !clang_equalCursors(S->vars[i].decl, decl)) i++;
  if (i == S->nvars) return;
  pending p = {i, {0}};
  if (hl_use_of(ctx, ref, &p.use)) return;
  var *v = &S->vars[i];
  if (!v->in_loop && p.use.kind == HL_USE_MEMBER && is_inserter(p.use.method_name)) {
    CXCursor loop = hl_loop_around(ctx, ref);
    if (!clang_Cursor_isNull(loop)) {
      v->in_loop = 1;
      v->insert_loc = hl_loc_copy(&p.use.loc);
      v->insert_method = hl_xstrdup(p.use.method_name);
      v->loop_kind = loop_kind(loop);
    }
  }
  HL_PUSH(S->uses, S->nuses, S->capuses, p);
}

static void visit(hl_ctx *ctx, void *st, CXCursor c) {
  state *S = st;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_VarDecl)
    declare(ctx, S, c);
  else if (k == CXCursor_DeclRefExpr && S->nvars)
    use(ctx, S, c);
}

/* ---- the finding and its fix ---- */

/* Why a use keeps the variable from being retyped, or NULL. A member call
 * is fine unless its signature names another container or the allocator;
 * a range-for only iterates; anything else lets the std type escape. */
static char *use_blocks(const var *v, const hl_use *u) {
  if (u->kind == HL_USE_RANGE_FOR) return NULL;
  char *at = hl_loc_where(&u->loc), *r = NULL;
  if (u->kind == HL_USE_MEMBER) {
    const char *verb;
    char *why = signature_blocks(v, u->method, -1, &verb);
    if (why) r = hl_xasprintf("its %s() at %s %s %s", u->method_name, at, verb, why);
    free(why);
  } else {
    r = hl_xasprintf("it is %s at %s", u->how, at);
  }
  free(at);
  return r;
}

/* A comparator, hash or equality argument that is the standard default
 * for the key (std::less<Key>, ...): not worth showing. */
static int default_argument(const var *v, unsigned i) {
  static const char *const defaults[] = {"std::less", "std::hash", "std::equal_to"};
  CXType a = clang_Type_getTemplateArgumentAsType(v->type, i);
  CXType key = clang_getCanonicalType(clang_Type_getTemplateArgumentAsType(v->type, 0));
  for (size_t d = 0; d < sizeof defaults / sizeof *defaults; d++)
    if (hl_type_is_template(a, defaults[d]) && clang_Type_getNumTemplateArguments(a) == 1 &&
        clang_equalTypes(clang_getCanonicalType(clang_Type_getTemplateArgumentAsType(a, 0)), key))
      return 1;
  return 0;
}

/* The arguments before the allocator: as the declaration writes them when
 * it names the template itself, else as the compiler spells them, without
 * the standard defaults at the end. */
static char **arguments(const var *v, int written, size_t *n) {
  CXType t = written ? clang_getCursorType(v->decl) : v->type;
  int nargs = clang_Type_getNumTemplateArguments(t);
  *n = nargs < 0 ? 0 : (size_t)nargs < v->kind->allocator ? (size_t)nargs : v->kind->allocator;
  if (!written)
    while (*n > (v->kind->pair ? 2u : 1u) && default_argument(v, (unsigned)(*n - 1))) (*n)--;
  char **a = hl_xcalloc(*n ? *n : 1, sizeof *a);
  for (size_t i = 0; i < *n; i++) a[i] = hl_type_spelling(clang_Type_getTemplateArgumentAsType(t, (unsigned)i));
  return a;
}

/* "each node holds one std::pair<const int, std::string> (40 bytes) ...":
 * the element's size is the compiler's; the links around it in the node
 * are the library's own business and are not stated. */
static char *element_note(const var *v, char *const *args, size_t nargs) {
  CXType key = clang_getCanonicalType(clang_Type_getTemplateArgumentAsType(v->type, 0));
  long size = hl_type_size(key);
  char *elem;
  if (v->kind->pair && nargs >= 2) {
    CXType mapped = clang_getCanonicalType(clang_Type_getTemplateArgumentAsType(v->type, 1));
    long ka = hl_type_align(key), ms = hl_type_size(mapped), ma = hl_type_align(mapped);
    size = size < 0 || ka < 0 || ms < 0 || ma < 0 ? -1 : hl_align_up(hl_align_up(size, ma) + ms, ka > ma ? ka : ma);
    elem = hl_xasprintf("std::pair<const %s, %s>", args[0], args[1]);
  } else {
    elem = hl_xstrdup(nargs ? args[0] : "element");
  }
  char *bytes = size >= 0 ? hl_xasprintf(" (%ld bytes)", size) : hl_xstrdup("");
  char *r = hl_xasprintf("each node holds one %s%s and the library's links to other nodes%s", elem, bytes,
                         v->kind->hashed ? "; the bucket array is allocated again as the table grows" : "");
  free(bytes);
  free(elem);
  return r;
}

/* "std::map<int, std::string, Cmp, std::allocator<...>>" ->
 * "hl::map<int, std::string, Cmp>": the user's spelling of every argument,
 * the allocator dropped. NULL when the text does not read as a template-id. */
static char *retyped(const char *written, const container *k) {
  const char *lt = strchr(written, '<');
  size_t len = strlen(written);
  if (!lt || len < 2 || written[len - 1] != '>') return NULL;
  const char *cut = written + len - 1; /* the closing '>' */
  unsigned args = 1;
  int angle = 0, paren = 0;
  for (const char *p = lt + 1; p < written + len - 1; p++) {
    if (*p == '(' || *p == '[' || *p == '{')
      paren++;
    else if (*p == ')' || *p == ']' || *p == '}')
      paren--;
    else if (!paren && *p == '<')
      angle++;
    else if (!paren && *p == '>')
      angle--;
    else if (!paren && !angle && *p == ',' && args++ == k->allocator) {
      cut = p;
      break;
    }
  }
  return hl_xasprintf("%s%.*s>", k->alias, (int)(cut - lt), lt);
}

/* Why the type's text cannot be found: the macro that writes it, when one
 * does (named where it is used). */
static char *written_by_macro(const hl_ctx *ctx, CXCursor decl) {
  CXSourceLocation at = clang_getCursorLocation(hl_first_child(decl));
  CXFile file;
  unsigned spelled, expanded;
  clang_getSpellingLocation(at, NULL, NULL, NULL, &spelled);
  clang_getFileLocation(at, &file, NULL, NULL, &expanded);
  size_t size;
  const char *text = file ? clang_getFileContents(hl_ctx_tu(ctx), file, &size) : NULL;
  if (spelled == expanded || !text || expanded >= size)
    return hl_xstrdup("heaplint cannot find where its type is written");
  size_t n = 0;
  while (expanded + n < size && (isalnum((unsigned char)text[expanded + n]) || text[expanded + n] == '_')) n++;
  return hl_xasprintf("its type is written by the macro '%.*s'", (int)n, text + expanded);
}

static void add_finding(hl_ctx *ctx, state *S, var *v) {
  hl_edit type, include;
  memset(&include, 0, sizeof include);
  char *written = NULL, *blocked = v->blocked, *replacement = NULL, *why = NULL;
  v->blocked = NULL;
  int r = hl_rewrite_type(ctx, v->decl, v->kind->name, &type, &written, &why);
  if (r != 0) {
    free(blocked);
    if (why)
      blocked = why;
    else if (clang_getCursorType(v->decl).kind == CXType_Auto)
      blocked = hl_xstrdup("its type is deduced (auto) from its initializer");
    else
      blocked = written_by_macro(ctx, v->decl);
  } else if (!(replacement = retyped(written, v->kind)) && !blocked) {
    blocked = hl_xstrdup("heaplint cannot read its type as written");
  }
  for (size_t i = 0; i < S->nuses && !blocked; i++)
    if (&S->vars[S->uses[i].var] == v) blocked = use_blocks(v, &S->uses[i].use);
  if (!blocked) blocked = hl_runtime_blocked(ctx, HEADER);

  size_t nargs;
  char **args = arguments(v, r == 0, &nargs);
  if (!replacement) {
    hl_sb b = {0};
    hl_sb_printf(&b, "%s<", v->kind->alias);
    for (size_t i = 0; i < nargs; i++) hl_sb_printf(&b, "%s%s", i ? ", " : "", args[i]);
    hl_sb_putc(&b, '>');
    replacement = hl_sb_take(&b);
  }
  hl_sb shown = {0};
  hl_sb_printf(&shown, "%s<", v->kind->name);
  for (size_t i = 0; i < nargs; i++) hl_sb_printf(&shown, "%s%s", i ? ", " : "", args[i]);
  hl_sb_putc(&shown, '>');

  char *at = hl_loc_where(&v->insert_loc);
  char *m = hl_xasprintf(
      "%s '%s' allocates a node on the global heap for every element inserted; it is inserted "
      "into in a loop at %s",
      hl_sb_str(&shown), v->name, at);
  hl_finding *f = hl_finding_new(RULE, HL_SEV_WARNING, &v->loc, m);
  free(m);
  free(at);
  m = hl_xasprintf("%s%s here is in the body of a %s", v->insert_method,
                   strcmp(v->insert_method, "operator[]") ? "()" : "", v->loop_kind);
  hl_finding_note(f, &v->insert_loc, m);
  free(m);
  m = element_note(v, args, nargs);
  hl_finding_note(f, &v->loc, m);
  free(m);
  m = hl_xasprintf("%s %s (<" HEADER
                   ">), which allocates its nodes from heaplint's pools and never calls the "
                   "global operator new%s%s",
                   blocked ? "use" : "fix: retype the declaration as", replacement,
                   blocked ? "; not rewritten automatically: " : "", blocked ? blocked : "");
  hl_finding_note(f, &v->loc, m);
  free(m);
  if (!blocked) {
    type.text = replacement;
    replacement = NULL;
    hl_finding_edit(f, &type);
    if (hl_rewrite_include(ctx, type.file, HEADER, &include) == 0) hl_finding_edit(f, &include);
  }
  hl_ctx_report(ctx, f);

  for (size_t i = 0; i < nargs; i++) free(args[i]);
  free(args);
  hl_sb_free(&shown);
  hl_edit_free(&type);
  hl_edit_free(&include);
  free(replacement);
  free(blocked);
  free(written);
}

static void end(hl_ctx *ctx, void *st) {
  state *S = st;
  for (size_t i = 0; i < S->nvars; i++)
    if (S->vars[i].in_loop) add_finding(ctx, S, &S->vars[i]);
  for (size_t i = 0; i < S->nvars; i++) {
    var *v = &S->vars[i];
    hl_loc_free(&v->loc);
    hl_loc_free(&v->insert_loc);
    free(v->name);
    free(v->blocked);
    free(v->insert_method);
  }
  for (size_t i = 0; i < S->nuses; i++) hl_use_free(&S->uses[i].use);
  free(S->vars);
  free(S->uses);
  free(S);
}

const hl_rule hl_rule_node_container = {
    RULE, NULL, begin, visit, NULL, end, /* libclang's layouts: the compiler is asked nothing after the walk */
    0,    NULL,                          /* no link step */
    NULL,                                /* no project-wide plan */
    NULL, NULL,                          /* no numbers from the profiles, no config key */
};
