#include "engine/inst/splice.h"

#include <stdlib.h>
#include <string.h>

#include "engine/ast.h"
#include "util/util.h"

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

struct hl_spliced {
  edited *E; /* E[0] is the main file */
  size_t nE, capE;
  struct CXUnsavedFile *files;
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
int hl_spliced_loc(const hl_spliced *S, const hl_unit *u, CXSourceLocation l, int copies, hl_loc *out) {
  const edited *E = S->E;
  if (hl_unit_loc(u, l, out)) return -1;
  unsigned off = out->offset;
  for (size_t i = 0; i < S->nE; i++)
    if (!strcmp(E[i].file, out->file)) {
      out->offset = unmap(&E[i], off, copies);
      line_col(E[i].orig, E[i].orig_len, out->offset, &out->line, &out->col);
    }
  return 0;
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
char *hl_spliced_type(const hl_spliced *S, const char *type) {
  const edited *E = S->E;
  size_t nE = S->nE;
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

/* Where a conversion probe's argument is, in the file on disk. */
void hl_spliced_arg_loc(const hl_spliced *S, const hl_question *p, hl_loc *out) {
  const edited *E = S->E;
  memset(out, 0, sizeof *out);
  out->file = hl_xstrdup(p->file);
  out->offset = p->arg_begin;
  for (size_t i = 0; i < S->nE; i++)
    if (!strcmp(E[i].file, p->file)) line_col(E[i].orig, E[i].orig_len, p->arg_begin, &out->line, &out->col);
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
static void conversion_copy(edited *e, const hl_question *p, size_t id) {
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
static void insert_probes(const hl_inst *P, size_t from, edited **E, size_t *nE, size_t *capE, edited *m) {
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

hl_spliced *hl_splice(const hl_inst *P, size_t from, const char *suffix, char **why) {
  hl_spliced *S = hl_xcalloc(1, sizeof *S);
  CXFile main_file = clang_getFile(P->u.tu, P->u.job->source);
  char *main_abs = main_file ? hl_file_abspath(main_file, P->u.job->directory) : hl_abspath(P->u.job->file);
  edited *m = edited_for(&S->E, &S->nE, &S->capE, main_abs);
  m->name = hl_xstrdup(P->u.job->source);
  m->orig = main_file ? clang_getFileContents(P->u.tu, main_file, &m->orig_len) : NULL;
  free(main_abs);
  if (!m->orig) {
    *why = hl_xasprintf("%s: cannot read it again to probe template instantiations", hl_display_path(P->u.job->file));
    hl_spliced_free(S);
    return NULL;
  }
  insert_probes(P, from, &S->E, &S->nE, &S->capE, m);
  /* The main file is still E[0]; m may have moved with E. */
  if (suffix) insert(&S->E[0], (unsigned)S->E[0].orig_len, hl_xstrdup(suffix));
  S->files = hl_xcalloc(S->nE, sizeof *S->files);
  for (size_t i = 0; i < S->nE; i++) {
    build(&S->E[i]);
    S->files[i] = (struct CXUnsavedFile){S->E[i].name, hl_sb_str(&S->E[i].text), (unsigned long)S->E[i].text.len};
  }
  return S;
}

const struct CXUnsavedFile *hl_spliced_files(const hl_spliced *S, unsigned *n) {
  *n = (unsigned)S->nE;
  return S->files;
}

void hl_spliced_free(hl_spliced *S) {
  if (!S) return;
  for (size_t i = 0; i < S->nE; i++) {
    for (size_t k = 0; k < S->E[i].nins; k++) free(S->E[i].ins[k].text);
    free(S->E[i].ins);
    free(S->E[i].file);
    free(S->E[i].name);
    hl_sb_free(&S->E[i].text);
  }
  free(S->E);
  free(S->files);
  free(S);
}
