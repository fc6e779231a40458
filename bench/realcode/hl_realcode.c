/* hl-realcode: the offline half of the real-code harness (hl_trace.c is the
 * run-time half). It says which functions of a program to watch, turns the
 * traces into allocations per source line, and compares them with
 * heaplint's findings.
 *
 *   nm -C --defined-only PROG | hl-realcode funcs > funcs.txt
 *       The std::function and std::any constructors and assignments of the
 *       program, as "<address> <kind>" for hl_trace ($HL_TRACE_FUNCS).
 *   hl-realcode report [--via SRC] ROOT PROG TRACE > lines.txt
 *       Charges each traced call to the innermost call site in a source file
 *       under ROOT (the project's own code, headers and tests alike), read
 *       from PROG's DWARF line table with elfutils' libdw, and prints one
 *       line per source line and kind: "<kind> <calls> <allocations>
 *       <allocating calls> <file>:<line>". With --via (ROOT a part of SRC,
 *       the user's lines), also one line per such site and call site under
 *       SRC between it and the wrapper (the library's code the call went
 *       through, its store among them): "... <file>:<line>@<file>:<line>".
 *   hl-realcode compare LINES HEAPLINT_JSON
 *       Compares the lines that allocated with heaplint's findings
 *       (heaplint --format=json): precision and recall, separately for
 *       constructions (function-sbo, any-sbo) and copies (function-copy),
 *       over the lines the run executed; prints every miss and every false
 *       warning first. A finding matches a line of the same file within
 *       --window lines (default 2), or further on in the finding's
 *       statement (read from the source): heaplint points at the stored
 *       expression, the debug line table at the call, and a statement may
 *       span lines. */
#define _GNU_SOURCE
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Kinds: family * 3 + operation. */
enum { OP_CONSTRUCT, OP_COPY, OP_MOVE };
static const char *const kind_names[] = {"function-construction", "function-copy", "function-move",
                                         "any-construction",      "any-copy",      "any-move"};
#define NKINDS 6

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fputs("hl-realcode: out of memory\n", stderr);
    exit(2);
  }
  return p;
}

static void *xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p) {
    fputs("hl-realcode: out of memory\n", stderr);
    exit(2);
  }
  return p;
}

static char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(xmalloc(n), s, n);
}

/* ---- funcs: which functions to watch ---- */

/* After "<prefix><...>" at s (angle brackets balanced), the rest; NULL when
 * s does not start with prefix. */
static const char *after_template(const char *s, const char *prefix, size_t *tlen) {
  size_t n = strlen(prefix);
  if (strncmp(s, prefix, n)) return NULL;
  const char *p = s + n - 1; /* at '<' */
  int depth = 0;
  for (; *p; p++) {
    if (*p == '<') depth++;
    else if (*p == '>' && --depth == 0) break;
  }
  if (!*p) return NULL;
  *tlen = (size_t)(p + 1 - s);
  return p + 1;
}

/* The operation of a constructor or assignment of the class named by
 * cls (cls_len bytes, e.g. "std::function<void ()>"), given what follows the
 * member's name: "(cls const&)" copies, "(cls&&)" moves, a template or any
 * other parameter constructs; -1 for the default constructor, nullptr and
 * the like, which never allocate. */
static int operation(const char *rest, const char *cls, size_t cls_len) {
  /* libc++ tags its members with the ABI version: any::any[abi:ne190107](...). */
  if (!strncmp(rest, "[abi:", 5)) {
    const char *end = strchr(rest, ']');
    if (!end) return -1;
    rest = end + 1;
  }
  if (*rest == '<') return OP_CONSTRUCT;
  if (*rest != '(') return -1;
  rest++;
  if (!strncmp(rest, cls, cls_len)) {
    if (!strcmp(rest + cls_len, " const&)")) return OP_COPY;
    if (!strcmp(rest + cls_len, "&&)")) return OP_MOVE;
  }
  if (*rest == ')' || !strncmp(rest, "std::nullptr_t)", 15) || !strncmp(rest, "decltype(nullptr))", 18)) return -1;
  return OP_CONSTRUCT;
}

/* The kind of a demangled symbol, -1 when it is not watched. */
static int classify(const char *name) {
  /* binutils 2.40 leaves libc++'s constructor templates with an ABI tag
   * mangled (_ZNSt3__13anyC2B8ne190107I...EEOT_, any(T&&)): a
   * constructor (C1/C2), an optional tag (B<len><tag>), then template
   * arguments (I): a construction. */
  static const char any_ctor[] = "_ZNSt3__13anyC";
  if (!strncmp(name, any_ctor, sizeof any_ctor - 1)) {
    const char *p = name + sizeof any_ctor - 1;
    if (*p != '1' && *p != '2') return -1;
    p++;
    if (*p == 'B') {
      char *end;
      unsigned long len = strtoul(p + 1, &end, 10);
      if (end == p + 1 || strlen(end) < len) return -1;
      p = end + len;
    }
    return *p == 'I' ? 3 + OP_CONSTRUCT : -1;
  }
  static const char *const function_prefixes[] = {"std::function<", "std::__1::function<"};
  for (size_t i = 0; i < 2; i++) {
    size_t tlen;
    const char *rest = after_template(name, function_prefixes[i], &tlen);
    if (!rest) continue;
    int op = -1;
    if (!strncmp(rest, "::function", 10)) op = operation(rest + 10, name, tlen);
    else if (!strncmp(rest, "::operator=", 11)) op = operation(rest + 11, name, tlen);
    return op < 0 ? -1 : op;
  }
  static const char *const any_classes[] = {"std::any", "std::__1::any"};
  for (size_t i = 0; i < 2; i++) {
    size_t n = strlen(any_classes[i]);
    if (strncmp(name, any_classes[i], n) || strncmp(name + n, "::", 2)) continue;
    const char *rest = name + n + 2;
    int op = -1;
    if (!strncmp(rest, "any", 3)) op = operation(rest + 3, name, n);
    else if (!strncmp(rest, "operator=", 9)) op = operation(rest + 9, name, n);
    else if (!strncmp(rest, "emplace<", 8)) op = OP_CONSTRUCT;
    return op < 0 ? -1 : 3 + op;
  }
  return -1;
}

/* A constructor of a class that is not the wrappers' own machinery: inside
 * a watched call it builds the stored value (a std::vector<bool> copied
 * into a std::any, a lambda's std::string capture), and what it allocates
 * is the value's own, which the program would allocate without the
 * wrapper too. hl_trace stops charging the wrapper there. */
#define KIND_VALUE 100

static const char *const machinery[] = {
    "std::function<", "std::_Function", "std::_Any_data", "std::any", "std::__function::", "std::__any_imp",
    "std::__1::function<", "std::__1::__function::", "std::__1::any", "std::__1::__any_imp", "std::unique_ptr<",
    "std::__1::unique_ptr<", "std::__compressed_pair", "std::__1::__compressed_pair", "std::_Head_base",
    "std::_Tuple_impl", "std::tuple<", "std::__1::tuple<", "std::__1::__tuple"};

/* The last "::" at nesting depth 0 in [b, e), or NULL. */
static const char *last_scope(const char *b, const char *e) {
  int depth = 0;
  const char *sep = NULL;
  for (const char *p = b; p + 1 < e; p++) {
    if (*p == '<' || *p == '(' || *p == '{') depth++;
    else if (*p == '>' || *p == ')' || *p == '}') depth--;
    else if (depth == 0 && p[0] == ':' && p[1] == ':') sep = p;
  }
  return sep;
}

static int value_constructor(const char *name) {
  /* The parameters: the '(' that matches the name's last ')'. */
  const char *close = strrchr(name, ')'), *open = NULL;
  int depth = 0;
  for (const char *p = close; p && p >= name; p--) {
    if (*p == ')') depth++;
    else if (*p == '(' && --depth == 0) {
      open = p;
      break;
    }
  }
  if (!open) return 0;
  /* A constructor template's demangled name may start with a type
   * ("main::$_0&& std::__1::__function::__value_func<...>::__value_func<...>(...)"):
   * the qualified name follows the last space outside brackets. */
  int d = 0;
  for (const char *p = name; p < open; p++) {
    if (*p == '<' || *p == '(' || *p == '{') d++;
    else if (*p == '>' || *p == ')' || *p == '}') d--;
    else if (*p == ' ' && d == 0) name = p + 1;
  }
  const char *sep = last_scope(name, open);
  if (!sep) return 0;
  /* Class::Member: the member's name without template arguments or an ABI
   * tag equals the class's last name without its template arguments. */
  const char *outer = last_scope(name, sep);
  const char *cls = outer ? outer + 2 : name;
  size_t clen = strcspn(cls, "<");
  if (cls + clen > sep) clen = (size_t)(sep - cls);
  const char *mem = sep + 2;
  size_t mlen = (size_t)(open - mem);
  for (const char *p = mem; p < open; p++)
    if ((*p == '<' || *p == '[') && p > mem) {
      mlen = (size_t)(p - mem);
      break;
    }
  if (clen == 0 || clen != mlen || strncmp(cls, mem, clen)) return 0;
  for (size_t i = 0; i < sizeof machinery / sizeof *machinery; i++)
    if (!strncmp(name, machinery[i], strlen(machinery[i]))) return 0;
  /* Allocators and the guards that hold their memory are the machinery's. */
  char *own = strndup(cls, clen);
  int alloc = own && (strstr(own, "alloc") || strstr(own, "Alloc"));
  free(own);
  return !alloc;
}

static int cmd_funcs(void) {
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  while ((n = getline(&line, &cap, stdin)) > 0) {
    if (line[n - 1] == '\n') line[n - 1] = '\0';
    unsigned long long addr;
    char type;
    int used = 0;
    if (sscanf(line, "%llx %c %n", &addr, &type, &used) < 2 || !used) continue;
    if (type != 'T' && type != 't' && type != 'W' && type != 'w') continue;
    int kind = classify(line + used);
    if (kind < 0 && value_constructor(line + used)) kind = KIND_VALUE;
    if (kind >= 0) printf("%llx %d\n", addr, kind);
  }
  free(line);
  return 0;
}

/* ---- report: traces to source lines ---- */

typedef struct site {
  char *file;
  int line, kind;
  unsigned long calls, allocs, alloc_calls;
} site;

typedef struct sites {
  site *v;
  size_t n, cap;
} sites;

static site *sites_find(sites *s, const char *file, int line, int kind) {
  for (size_t i = 0; i < s->n; i++)
    if (s->v[i].line == line && s->v[i].kind == kind && !strcmp(s->v[i].file, file)) return &s->v[i];
  if (s->n == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 256;
    s->v = xrealloc(s->v, s->cap * sizeof *s->v);
  }
  s->v[s->n] = (site){xstrdup(file), line, kind, 0, 0, 0};
  return &s->v[s->n++];
}

static int by_file_line(const void *a, const void *b) {
  const site *x = a, *y = b;
  int c = strcmp(x->file, y->file);
  if (c) return c;
  if (x->line != y->line) return (x->line > y->line) - (x->line < y->line);
  return (x->kind > y->kind) - (x->kind < y->kind);
}

/* One row of the program's line tables. */
typedef struct row {
  Dwarf_Addr addr;
  const char *file; /* owned by libdw */
  int line, end;    /* end: the end of a sequence, no code at addr */
} row;

/* Addresses to source lines, cached (a trace repeats its call sites). The
 * rows of every unit's line table are read once and searched: libdw's own
 * lookup needs .debug_aranges, which clang does not emit by default. */
typedef struct resolver {
  Dwfl *dwfl;
  row *rows;
  size_t nrows;
  struct cached {
    uint64_t addr;
    char *file; /* NULL: no line, or not under the root */
    char *real; /* the line's file wherever it is; NULL: no line */
    int line;
  } *cache;
  size_t ncache, capcache;
  char root[PATH_MAX];
  size_t rootlen;
} resolver;

/* By address; at one address the end of a sequence sorts first, so that
 * the row that starts code there wins. */
static int by_addr(const void *a, const void *b) {
  const row *x = a, *y = b;
  if (x->addr != y->addr) return (x->addr > y->addr) - (x->addr < y->addr);
  return y->end - x->end;
}

static const Dwfl_Callbacks offline_callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
};

static int resolver_open(resolver *r, const char *root, const char *prog) {
  memset(r, 0, sizeof *r);
  if (!realpath(root, r->root)) {
    fprintf(stderr, "hl-realcode: %s: %s\n", root, strerror(errno));
    return -1;
  }
  r->rootlen = strlen(r->root);
  r->dwfl = dwfl_begin(&offline_callbacks);
  if (!r->dwfl) return -1;
  /* The traces hold link-time addresses (run-time ones minus the load
   * address), as the line tables do: libdwfl's bias (where it placed the
   * file) does not apply. */
  Dwfl_Module *mod = dwfl_report_offline(r->dwfl, "prog", prog, -1);
  Dwarf *dw = NULL;
  Dwarf_Addr bias;
  if (!mod || dwfl_report_end(r->dwfl, NULL, NULL) != 0 || !(dw = dwfl_module_getdwarf(mod, &bias))) {
    fprintf(stderr, "hl-realcode: %s: %s\n", prog, dwfl_errmsg(-1));
    return -1;
  }
  size_t cap = 0;
  Dwarf_Off off = 0, next;
  size_t hsize;
  while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
    Dwarf_Die cu;
    Dwarf_Lines *lines;
    size_t n;
    if (dwarf_offdie(dw, off + hsize, &cu) && dwarf_getsrclines(&cu, &lines, &n) == 0) {
      for (size_t i = 0; i < n; i++) {
        Dwarf_Line *l = dwarf_onesrcline(lines, i);
        Dwarf_Addr a;
        int ln = 0;
        bool end = false;
        if (!l || dwarf_lineaddr(l, &a) || dwarf_lineno(l, &ln) || dwarf_lineendsequence(l, &end)) continue;
        if (r->nrows == cap) {
          cap = cap ? cap * 2 : 65536;
          r->rows = xrealloc(r->rows, cap * sizeof *r->rows);
        }
        r->rows[r->nrows++] = (row){a, dwarf_linesrc(l, NULL, NULL), ln, end};
      }
    }
    off = next;
  }
  qsort(r->rows, r->nrows, sizeof *r->rows, by_addr);
  return 0;
}

/* The source line of a return address (the call is the byte before). */
static const struct cached *resolve(resolver *r, uint64_t ret) {
  for (size_t i = 0; i < r->ncache; i++)
    if (r->cache[i].addr == ret) return &r->cache[i];
  if (r->ncache == r->capcache) {
    r->capcache = r->capcache ? r->capcache * 2 : 1024;
    r->cache = xrealloc(r->cache, r->capcache * sizeof *r->cache);
  }
  struct cached *c = &r->cache[r->ncache++];
  *c = (struct cached){ret, NULL, NULL, 0};
  /* The last row at or before the call (the line tables hold link-time
   * addresses, as the traces do). */
  Dwarf_Addr a = ret - 1;
  size_t lo = 0, hi = r->nrows;
  while (lo < hi) {
    size_t m = (lo + hi) / 2;
    if (r->rows[m].addr <= a) lo = m + 1;
    else hi = m;
  }
  const row *at = lo > 0 && !r->rows[lo - 1].end ? &r->rows[lo - 1] : NULL;
  int line = at ? at->line : 0;
  const char *file = at ? at->file : NULL;
  char real[PATH_MAX];
  if (file && line > 0 && realpath(file, real)) {
    c->real = xstrdup(real);
    c->line = line;
    if (!strncmp(real, r->root, r->rootlen) && real[r->rootlen] == '/') c->file = xstrdup(real);
  }
  return c;
}

/* Whether path is under the directory dir (dirlen its length). */
static int under(const char *path, const char *dir, size_t dirlen) {
  return path && !strncmp(path, dir, dirlen) && path[dirlen] == '/';
}

static int cmd_report(const char *via, const char *root, const char *prog, const char *trace) {
  resolver r;
  if (resolver_open(&r, root, prog)) return 2;
  char viaroot[PATH_MAX] = "";
  if (via && !realpath(via, viaroot)) {
    fprintf(stderr, "hl-realcode: %s: %s\n", via, strerror(errno));
    return 2;
  }
  size_t vialen = strlen(viaroot);
  sites vias = {0}; /* file: "<site file>:<site line>@<via file>", line: the via's */
  FILE *f = fopen(trace, "r");
  if (!f) {
    fprintf(stderr, "hl-realcode: %s: %s\n", trace, strerror(errno));
    return 2;
  }
  sites s = {0};
  unsigned long unattributed[NKINDS] = {0}, unattributed_allocs[NKINDS] = {0};
  char *line = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, f) > 0) {
    char *p = line, *end;
    long kind = strtol(p, &end, 10);
    unsigned long calls = strtoul(end, &end, 10), allocs = strtoul(end, &end, 10),
                  alloc_calls = strtoul(end, &end, 10);
    if (kind < 0 || kind >= NKINDS) continue;
    const struct cached *hit = NULL, *inner[64];
    size_t ninner = 0;
    for (p = end;;) {
      uint64_t a = strtoull(p, &end, 16);
      if (end == p) break;
      p = end;
      if (!a) continue;
      const struct cached *c = resolve(&r, a);
      if (c->file) {
        hit = c;
        break;
      }
      if (vialen && under(c->real, viaroot, vialen) && ninner < 64) inner[ninner++] = c;
    }
    for (size_t i = 0; hit && i < ninner; i++) {
      int seen = 0;
      for (size_t j = 0; j < i && !seen; j++) seen = inner[j]->line == inner[i]->line && !strcmp(inner[j]->real, inner[i]->real);
      if (seen) continue;
      char *key = xmalloc(strlen(hit->file) + strlen(inner[i]->real) + 16);
      sprintf(key, "%s:%d@%s", hit->file, hit->line, inner[i]->real);
      site *v = sites_find(&vias, key, inner[i]->line, (int)kind);
      free(key);
      v->calls += calls;
      v->allocs += allocs;
      v->alloc_calls += alloc_calls;
    }
    if (!hit) {
      unattributed[kind] += calls;
      unattributed_allocs[kind] += allocs;
      continue;
    }
    site *st = sites_find(&s, hit->file, hit->line, (int)kind);
    st->calls += calls;
    st->allocs += allocs;
    st->alloc_calls += alloc_calls;
  }
  free(line);
  fclose(f);
  qsort(s.v, s.n, sizeof *s.v, by_file_line);
  for (size_t i = 0; i < s.n; i++)
    printf("%s %lu %lu %lu %s:%d\n", kind_names[s.v[i].kind], s.v[i].calls, s.v[i].allocs, s.v[i].alloc_calls,
           s.v[i].file, s.v[i].line);
  qsort(vias.v, vias.n, sizeof *vias.v, by_file_line);
  for (size_t i = 0; i < vias.n; i++)
    printf("%s %lu %lu %lu %s:%d\n", kind_names[vias.v[i].kind], vias.v[i].calls, vias.v[i].allocs,
           vias.v[i].alloc_calls, vias.v[i].file, vias.v[i].line);
  for (size_t i = 0; i < vias.n; i++) free(vias.v[i].file);
  free(vias.v);
  for (int k = 0; k < NKINDS; k++)
    if (unattributed[k])
      fprintf(stderr, "hl-realcode: %lu %s calls (%lu allocations) had no call site under %s\n", unattributed[k],
              kind_names[k], unattributed_allocs[k], r.root);
  for (size_t i = 0; i < s.n; i++) free(s.v[i].file);
  free(s.v);
  for (size_t i = 0; i < r.ncache; i++) {
    free(r.cache[i].file);
    free(r.cache[i].real);
  }
  free(r.cache);
  free(r.rows);
  dwfl_end(r.dwfl);
  return 0;
}

/* ---- compare: lines against heaplint's findings ---- */

typedef struct finding {
  char *file;
  int line;
  int copy; /* function-copy (a copy), else a construction rule */
  int any;  /* about a std::any (any-sbo, or a copy of one), else a std::function */
  int matched;
  /* A store inside a template reported where it was instantiated names
   * the store in a note "stored at ...": that line, or 0. */
  char *stored_file;
  int stored_line;
  int unexecuted_caller; /* reported at a caller in a file the run never executed */
  int store_exact;       /* an executed site is on the store's own line: that one only */
} finding;

/* The "stored at" note of a finding: its file (realpath'd, malloc'd) and line. */
static char *stored_at(json_t *o, int *line) {
  json_t *notes = json_object_get(o, "notes");
  for (size_t i = 0; json_is_array(notes) && i < json_array_size(notes); i++) {
    json_t *n = json_array_get(notes, i);
    const char *msg = json_string_value(json_object_get(n, "message"));
    const char *file = json_string_value(json_object_get(n, "file"));
    if (!msg || !file || strncmp(msg, "stored at ", 10)) continue;
    char real[PATH_MAX];
    *line = (int)json_integer_value(json_object_get(n, "line"));
    return xstrdup(realpath(file, real) ? real : file);
  }
  return NULL;
}

/* ---- statements: how far a finding's statement reaches ---- */

/* A source file with its comments and literals blanked (newlines kept). */
typedef struct source {
  char *path, *code;
  size_t len;
} source;

static source *sources;
static size_t nsources;

static const source *source_get(const char *path) {
  for (size_t i = 0; i < nsources; i++)
    if (!strcmp(sources[i].path, path)) return &sources[i];
  sources = xrealloc(sources, (nsources + 1) * sizeof *sources);
  source *f = &sources[nsources++];
  f->path = xstrdup(path);
  f->code = NULL;
  f->len = 0;
  FILE *in = fopen(path, "r");
  if (!in) return f;
  size_t cap = 0;
  int c;
  while ((c = getc(in)) != EOF) {
    if (f->len + 1 >= cap) f->code = xrealloc(f->code, cap = cap ? cap * 2 : 65536);
    f->code[f->len++] = (char)c;
  }
  fclose(in);
  if (!f->code) return f;
  f->code[f->len] = '\0';
  /* Blank // and block comments, string and character literals. */
  for (size_t i = 0; i < f->len; i++) {
    char *t = f->code;
    if (t[i] == '/' && t[i + 1] == '/') {
      while (i < f->len && t[i] != '\n') t[i++] = ' ';
    } else if (t[i] == '/' && t[i + 1] == '*') {
      for (; i < f->len && !(t[i] == '*' && t[i + 1] == '/'); i++)
        if (t[i] != '\n') t[i] = ' ';
      if (i + 1 < f->len) t[i] = t[i + 1] = ' ', i++;
    } else if (t[i] == '"' || (t[i] == '\'' && !(i > 0 && isalnum((unsigned char)t[i - 1])))) {
      char q = t[i];
      for (t[i++] = ' '; i < f->len && t[i] != q && t[i] != '\n'; i++) {
        if (t[i] == '\\' && i + 1 < f->len) t[i++] = ' ';
        /* A backslash-newline continues the literal: the line stays. */
        if (t[i] != '\n') t[i] = ' ';
      }
      if (i < f->len && t[i] == q) t[i] = ' ';
    }
  }
  return f;
}

/* Whether the '{' at code[i] opens a block (an if's, a function's, a
 * statement of braces), not a lambda's body or a braced initializer
 * (`Validator v{[opt](std::string &) {...}, "DEPRECATED"};`), from what
 * precedes it: a block follows the ')' of a control statement or a
 * function's declarator (not a lambda's `](...)`), else, do or try, or
 * anything but a word, ']' or what starts an expression (a case label's
 * ':', the end of the previous statement). */
static int opens_block(const char *code, size_t i) {
  static const char *const words[] = {"else", "do", "try"};
  size_t k = i;
  while (k > 0 && isspace((unsigned char)code[k - 1])) k--;
  if (k == 0) return 1;
  char p = code[k - 1];
  if (p == ')') {
    int d = 0;
    for (k--; k > 0; k--) {
      if (code[k] == ')') d++;
      else if (code[k] == '(' && --d == 0) break;
    }
    while (k > 0 && isspace((unsigned char)code[k - 1])) k--;
    return !(k > 0 && code[k - 1] == ']');
  }
  if (strchr("]=,([<", p)) return 0;
  if (!isalnum((unsigned char)p) && p != '_') return 1;
  size_t e = k;
  while (k > 0 && (isalnum((unsigned char)code[k - 1]) || code[k - 1] == '_')) k--;
  for (size_t w = 0; w < sizeof words / sizeof *words; w++)
    if (strlen(words[w]) == e - k && !strncmp(code + k, words[w], e - k)) return 1;
  return 0; /* Type name{, return {, mutable {, -> type { */
}

/* The last line of the statement that holds line `line` of path, from that
 * line on: up to its ';' (or a block's '{', not after an assignment)
 * outside any bracket the line opens, at most 40 lines on (taskflow's emplace of three lambdas spans
 * 18). A statement that is its block's last also takes the block's
 * closing brace, where g++'s line table puts what a return statement
 * converts. 0 when the file cannot be read, or, with opens, when the line
 * closes a bracket it did not open (it starts no statement). */
static int statement_end_of(const char *path, int line, int opens) {
  const source *f = source_get(path);
  if (!f->code) return 0;
  size_t i = 0;
  for (int l = 1; l < line && i < f->len; i++)
    if (f->code[i] == '\n') l++;
  int depth = 0, l = line, end = 0;
  for (; i < f->len && l <= line + 40 && !end; i++) {
    char c = f->code[i];
    if (c == '\n') l++;
    else if (c == '(' || c == '[') depth++;
    else if ((c == ')' || c == ']' || c == '}') && --depth < 0 && opens) return 0;
    else if (c == '{' && depth <= 0 && opens_block(f->code, i)) end = l;
    else if (c == '{') depth++;
    else if (c == ';' && depth <= 0) end = l;
  }
  if (!end) return line;
  /* The next line that has code: a lone '}'? */
  while (i < f->len && f->code[i] != '\n') i++;
  size_t k = i + 1;
  int next = end + 1;
  while (k < f->len && (f->code[k] == ' ' || f->code[k] == '\t' || f->code[k] == '\n' || f->code[k] == '\r')) {
    if (f->code[k] == '\n') next++;
    k++;
  }
  if (k < f->len && f->code[k] == '}') {
    size_t m = k + 1;
    while (m < f->len && (f->code[m] == ' ' || f->code[m] == '\t' || f->code[m] == '\r')) m++;
    if (m >= f->len || f->code[m] == '\n') return next;
  }
  return end;
}

/* Whether a site at line `at` is the finding's at `line`: within window
 * lines, or further on in the finding's statement and in no statement
 * nested in it. */
static int statement_end(const char *path, int line) { return statement_end_of(path, line, 0); }

static int near(const char *path, int line, int at, int window) {
  if (abs(at - line) <= window) return 1;
  if (!(at > line && at <= statement_end(path, line))) return 0;
  /* Not when a statement nested in it holds the site (the inner
   * emplace of a subflow lambda whose body the outer call spans). */
  for (int l = line + 1; l < at; l++)
    if (statement_end_of(path, l, 1) >= at) return 0;
  return 1;
}

/* Whether the finding is about the site's operation and wrapper. */
static int same_op(const finding *f, const site *s) {
  return f->copy == (s->kind % 3 == OP_COPY) && f->any == (s->kind / 3 == 1);
}

/* Reads a lines file into s (per line, kind: constructions and copies;
 * moves never allocate and no rule is about them), and its via lines
 * ("<file>:<line>@<file>:<line>", report --via) into vias, keyed as
 * report keys them. Returns 0, or -1. */
static int read_lines(const char *path, sites *s, sites *vias) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "hl-realcode: %s: %s\n", path, strerror(errno));
    return -1;
  }
  char *line = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, f) > 0) {
    char kname[64], loc[PATH_MAX + 32];
    unsigned long calls, allocs, alloc_calls;
    if (sscanf(line, "%63s %lu %lu %lu %s", kname, &calls, &allocs, &alloc_calls, loc) != 5) continue;
    int kind = -1;
    for (int k = 0; k < NKINDS; k++)
      if (!strcmp(kname, kind_names[k])) kind = k;
    char *colon = strrchr(loc, ':');
    if (kind < 0 || kind % 3 == OP_MOVE || !colon) continue;
    *colon = '\0';
    site *st = strchr(loc, '@') ? sites_find(vias, loc, atoi(colon + 1), kind) : sites_find(s, loc, atoi(colon + 1), kind);
    st->calls += calls;
    st->allocs += allocs;
    st->alloc_calls += alloc_calls;
  }
  free(line);
  fclose(f);
  return 0;
}

static void sites_free(sites *s) {
  for (size_t i = 0; i < s->n; i++) free(s->v[i].file);
  free(s->v);
}

/* Whether lines a and b are in one statement: one started at most 12
 * lines above the earlier runs to the later (at most 40 lines on). */
static int same_statement(const char *path, int a, int b) {
  int lo = a < b ? a : b, hi = a < b ? b : a;
  for (int start = lo; start >= 1 && start >= lo - 12; start--)
    if (statement_end(path, start) >= hi) return 1;
  return 0;
}

/* What the call sites at site si did through the store a finding names
 * (its "stored at" file and line), from the via lines: -1 when the site has
 * none (judge the site as a whole), 0 when none of its calls went through
 * that store (the finding is not about what ran there), 1 when they did
 * and none allocated, 2 when one did. */
static int via_status(const sites *vias, const site *si, const finding *f, int window) {
  char prefix[PATH_MAX + 32];
  snprintf(prefix, sizeof prefix, "%s:%d@", si->file, si->line);
  size_t plen = strlen(prefix);
  int any = 0, status = 0;
  for (size_t i = 0; i < vias->n; i++) {
    const site *v = &vias->v[i];
    if (v->kind != si->kind || strncmp(v->file, prefix, plen)) continue;
    any = 1;
    /* The via line is the library's call; the store it names may be an
     * argument of that call's statement, which the line table puts at its
     * first line or its last (a lambda three lines below
     * `_schedule_async_task(`, nine above `), std::move(fu));`). */
    if (strcmp(v->file + plen, f->stored_file) ||
        !(near(f->stored_file, f->stored_line, v->line, window) ||
          same_statement(f->stored_file, f->stored_line, v->line)))
      continue;
    if (status < 1) status = 1;
    if (v->alloc_calls > 0) status = 2;
  }
  return any ? status : -1;
}

/* Whether the calls at a finding's own line (executed sites of the user
 * lines near it) went through the store it names: -1 when the user lines
 * have no via lines, 0 when none did (or none ran), 1 when one did. A store's executed
 * site says nothing of a caller whose calls never reached it. */
static int caller_reached(const sites *executed, const sites *evias, const finding *f, int window) {
  /* With via lines, a caller line with no executed site near it made no
   * call at all. */
  int status = evias->n ? 0 : -1;
  for (size_t i = 0; i < executed->n && status < 1; i++) {
    const site *e = &executed->v[i];
    if (e->kind % 3 != (f->copy ? OP_COPY : OP_CONSTRUCT) || strcmp(e->file, f->file) ||
        !near(f->file, f->line, e->line, window))
      continue;
    int v = via_status(evias, e, f, window);
    if (v > status) status = v > 0 ? 1 : v;
  }
  return status;
}

static int cmd_compare(int window, const char *executed_path, const char *lines_path, const char *json_path,
                       const char *label) {
  sites s = {0}, executed = {0}, vias = {0}, evias = {0};
  if (read_lines(lines_path, &s, &vias) || (executed_path && read_lines(executed_path, &executed, &evias))) return 2;

  json_error_t err;
  json_t *root = json_load_file(json_path, 0, &err);
  json_t *arr = root ? json_object_get(root, "findings") : NULL;
  if (!json_is_array(arr)) {
    fprintf(stderr, "hl-realcode: %s: not heaplint's JSON (%s)\n", json_path, root ? "no findings" : err.text);
    return 2;
  }
  finding *fs = xmalloc(json_array_size(arr) * sizeof *fs);
  size_t nf = 0;
  for (size_t i = 0; i < json_array_size(arr); i++) {
    json_t *o = json_array_get(arr, i);
    const char *file = json_string_value(json_object_get(o, "file"));
    const char *rule = json_string_value(json_object_get(o, "rule"));
    const char *sev = json_string_value(json_object_get(o, "severity"));
    if (!file || !rule || (sev && strcmp(sev, "warning"))) continue;
    int copy = !strcmp(rule, "function-copy");
    if (!copy && strcmp(rule, "function-sbo") && strcmp(rule, "any-sbo")) continue;
    char real[PATH_MAX];
    int dup = 0;
    const char *path = realpath(file, real) ? real : file;
    int ln = (int)json_integer_value(json_object_get(o, "line"));
    /* One finding per line, but a line that hands its callables to two
     * stores (two "stored at" notes) has one finding per store. */
    int sline = 0;
    char *sfile = stored_at(o, &sline);
    for (size_t k = 0; k < nf && !dup; k++)
      dup = fs[k].line == ln && fs[k].copy == copy && !strcmp(fs[k].file, path) && fs[k].stored_line == sline &&
            !fs[k].stored_file == !sfile && (!sfile || !strcmp(fs[k].stored_file, sfile));
    if (!dup) {
      const char *msg = json_string_value(json_object_get(o, "message"));
      /* A copy of a std::any, or of a class whose implicit copy copies
       * one ("... copies the std::any member 'value', ..."). */
      int any = copy ? msg && (!strncmp(msg, "copying this std::any", 21) || strstr(msg, "copies the std::any member"))
                     : !strcmp(rule, "any-sbo");
      fs[nf] = (finding){xstrdup(path), ln, copy, any, 0, sfile, sline, 0, 0};
      nf++;
    } else {
      free(sfile);
    }
  }
  json_decref(root);

  qsort(s.v, s.n, sizeof *s.v, by_file_line);
  /* Each executed site takes the nearest finding of its operation in its
   * file within the window; exact lines first. A finding that names the
   * store it reports ("stored at", a template's store reported where it
   * was instantiated) is tried there first: the allocation happens there,
   * inside the template (charged to it when the template is the project's
   * own code); then at its own line (the user's, in lines-user.txt). */
  int *match = xmalloc((s.n ? s.n : 1) * sizeof *match), *through = xmalloc((s.n ? s.n : 1) * sizeof *through);
  for (size_t i = 0; i < s.n; i++) match[i] = through[i] = -1;
  /* A finding whose store is an executed site here is about that site
   * only, whether or not an earlier finding took it: the same store
   * reported at each of its callers. */
  /* One reported in a file of which nothing ran (a test file left out of
   * the run: --executed, the user lines) says nothing about what the store
   * did for the callers that did run. */
  for (size_t k = 0; k < nf && executed_path; k++) {
    int ran = 0;
    for (size_t i = 0; i < executed.n && fs[k].stored_file && !ran; i++) ran = !strcmp(fs[k].file, executed.v[i].file);
    if (fs[k].stored_file && !ran) {
      free(fs[k].stored_file);
      fs[k].stored_file = NULL;
      fs[k].unexecuted_caller = 1;
    }
  }
  for (size_t k = 0; k < nf; k++) {
    int line = fs[k].stored_line;
    for (size_t i = 0; i < s.n && fs[k].stored_file && line > 0; i++)
      if (same_op(&fs[k], &s.v[i]) && !strcmp(fs[k].stored_file, s.v[i].file)) {
        /* Two stores on neighbouring lines (a constructor's two member
         * initializers) are two sites: one on the store's own line is it. */
        fs[k].store_exact |= s.v[i].line == line;
        if (near(fs[k].stored_file, line, s.v[i].line, window)) fs[k].stored_line = -line;
      }
  }
  for (int by_store = 1; by_store >= 0; by_store--)
    for (int d = 0; d <= window + 1; d++) /* window + 1: further on in the statement */
      for (size_t i = 0; i < s.n; i++) {
        if (match[i] >= 0) continue;
        for (size_t k = 0; k < nf; k++) {
          int store_here = fs[k].stored_line < 0;
          if (fs[k].matched || (by_store && !store_here) || (!by_store && store_here)) continue;
          if (by_store && fs[k].store_exact && d != 0) continue;
          /* At the store: only when the finding's own caller reached it. */
          if (by_store && executed_path) {
            finding at = fs[k];
            at.stored_line = -fs[k].stored_line;
            if (caller_reached(&executed, &evias, &at, window) == 0) continue;
          }
          const char *file = by_store ? fs[k].stored_file : fs[k].file;
          int line = by_store ? -fs[k].stored_line : fs[k].line;
          if (!same_op(&fs[k], &s.v[i]) || strcmp(file, s.v[i].file)) continue;
          if (d <= window ? abs(s.v[i].line - line) != d
                          : abs(s.v[i].line - line) <= window || !near(file, line, s.v[i].line, window))
            continue;
          /* At the caller's line (the user lines, a finding naming its
           * store): judged by what went through that store, if the lines
           * say; not at all when nothing did from here. */
          int via = !by_store && fs[k].stored_file && fs[k].stored_line > 0 ? via_status(&vias, &s.v[i], &fs[k], window) : -1;
          if (via == 0) continue;
          match[i] = (int)k;
          through[i] = via;
          fs[k].matched = 1;
          break;
        }
      }
  /* A call statement the line table splits over two lines (g++ charges
   * some of a taskflow.emplace([&] { ... 27 lines ... }) to its first line,
   * some to its closing '});') is one call: a finding already matched at
   * one of them also holds at the other, when that other line's calls went
   * through the store it names and allocated. */
  for (size_t i = 0; i < s.n; i++) {
    if (match[i] >= 0 || s.v[i].alloc_calls == 0) continue;
    for (size_t k = 0; k < nf && match[i] < 0; k++) {
      if (!fs[k].matched || !fs[k].stored_file || fs[k].stored_line <= 0 || !same_op(&fs[k], &s.v[i]) ||
          strcmp(fs[k].file, s.v[i].file) || !near(fs[k].file, fs[k].line, s.v[i].line, window))
        continue;
      if (via_status(&vias, &s.v[i], &fs[k], window) != 2) continue;
      match[i] = (int)k;
      through[i] = 2;
    }
  }
  /* Those of a store already taken are neither right nor wrong; nor those
   * whose caller never ran. */
  for (size_t k = 0; k < nf; k++) fs[k].matched |= fs[k].stored_line < 0 || fs[k].unexecuted_caller;

  static const char *const op_names[] = {"constructions", "copies"};
  for (int op = 0; op < 2; op++) {
    unsigned long executed = 0, allocating = 0, hits = 0, falsepos = 0, allocs = 0, missed_allocs = 0;
    for (size_t i = 0; i < s.n; i++) {
      if (s.v[i].kind % 3 != op) continue;
      int allocated = s.v[i].alloc_calls > 0;
      /* The finding's claim holds: the site allocated, through its store
       * when the via lines say which went where. */
      int holds = match[i] >= 0 && (through[i] < 0 ? allocated : through[i] == 2);
      executed++;
      allocating += allocated;
      allocs += s.v[i].allocs;
      if (allocated && holds) hits++;
      if (allocated && !holds) {
        missed_allocs += s.v[i].allocs;
        printf("%s: miss: %s:%d: %s: %lu of %lu calls allocated (%lu allocations)\n", label, s.v[i].file,
               s.v[i].line, op == OP_COPY ? "copy" : "construction", s.v[i].alloc_calls, s.v[i].calls,
               s.v[i].allocs);
      }
      if (match[i] >= 0 && !holds) {
        falsepos++;
        printf("%s: false: %s:%d: %s: heaplint warns at line %d, none of %lu calls allocated%s\n", label,
               s.v[i].file, s.v[i].line, op == OP_COPY ? "copy" : "construction", fs[match[i]].line, s.v[i].calls,
               through[i] == 1 ? " through the store it names" : "");
      }
    }
    unsigned long unexecuted = 0;
    for (size_t k = 0; k < nf; k++) unexecuted += !fs[k].matched && fs[k].copy == op;
    printf("%s: %s: %lu lines executed, %lu allocated (%lu allocations); heaplint: %lu hits, %lu false, %lu "
           "missed (%lu allocations), %lu findings on lines not executed;",
           label, op_names[op], executed, allocating, allocs, hits, falsepos, allocating - hits, missed_allocs,
           unexecuted);
    if (hits + falsepos) printf(" precision %.1f%%", 100.0 * (double)hits / (double)(hits + falsepos));
    else printf(" precision n/a");
    if (allocating) printf(", recall %.1f%%\n", 100.0 * (double)hits / (double)allocating);
    else printf(", recall n/a\n");
  }
  for (size_t k = 0; k < nf; k++) {
    free(fs[k].file);
    free(fs[k].stored_file);
  }
  free(fs);
  free(match);
  free(through);
  sites_free(&s);
  sites_free(&executed);
  sites_free(&vias);
  sites_free(&evias);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "funcs")) return cmd_funcs();
  if (argc == 5 && !strcmp(argv[1], "report")) return cmd_report(NULL, argv[2], argv[3], argv[4]);
  if (argc == 7 && !strcmp(argv[1], "report") && !strcmp(argv[2], "--via"))
    return cmd_report(argv[3], argv[4], argv[5], argv[6]);
  if (argc >= 4 && !strcmp(argv[1], "compare")) {
    int i = 2, window = 2;
    const char *executed = NULL;
    for (;;) {
      if (argc - i >= 4 && !strcmp(argv[i], "--window")) window = atoi(argv[i + 1]);
      else if (argc - i >= 4 && !strcmp(argv[i], "--executed")) executed = argv[i + 1];
      else break;
      i += 2;
    }
    if (argc - i == 2 || argc - i == 3)
      return cmd_compare(window, executed, argv[i], argv[i + 1], argc - i == 3 ? argv[i + 2] : "realcode");
  }
  fputs("usage: nm -C --defined-only PROG | hl-realcode funcs\n"
        "       hl-realcode report [--via SRC] ROOT PROG TRACE\n"
        "       hl-realcode compare [--window N] [--executed USER_LINES] LINES HEAPLINT_JSON [LABEL]\n",
        stderr);
  return 2;
}
