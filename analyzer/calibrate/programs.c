#include "calibrate/programs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strv.h"
#include "util/util.h"

/* analyzer/calibrate/probes/count_new.hpp, probe.hpp and shared.hpp, turned into C strings at
 * build time (cmake/HeaplintEmbed.cmake): one source of truth, no copy. */
extern const char hl_embedded_count_new_hpp[];
extern const char hl_embedded_probe_hpp[];
extern const char hl_embedded_shared_hpp[];

const char *hl_kind_name(int kind) {
  static const char *const names[HL_KINDS] = {
      "trivially copyable", "copy and move noexcept", "copy may throw", "move may throw", "copy and move may throw",
  };
  return kind >= 0 && kind < HL_KINDS ? names[kind] : "?";
}

static const char *sig_of(const hl_cal_prog_wrapper *w) { return w->signature ? w->signature : "hl_probe::no_call"; }

/* The part of the program both kinds share: the harness and the headers of
 * the wrappers, with count_new.hpp in the one part that defines main(). The
 * harness comes first: its check of the C++ standard is then the first
 * error a compiler in C++14 mode reports. */
static void prologue(hl_sb *b, const hl_cal_prog_plan *plan, int part, int parts) {
  hl_sb_printf(b, "// Written by heaplint calibrate: part %d of %d.\n", part, parts);
  hl_sb_printf(b, "#define HL_PROBE_PART %d\n#define HL_PROBE_PARTS %d\n", part, parts);
  hl_sb_puts(b, hl_embedded_probe_hpp);
  if (part == 0) hl_sb_puts(b, hl_embedded_count_new_hpp);
  if (part == 0 && plan->string_sso) hl_sb_puts(b, hl_embedded_shared_hpp);
  for (size_t i = 0; i < plan->nincludes; i++) hl_sb_printf(b, "#include %s\n", plan->includes[i]);
  if (part == 0) hl_sb_puts(b, "unsigned long hl_probe::allocations() { return hl_count::allocations(); }\n");
}

char *hl_cal_program_source(const hl_cal_prog_plan *plan, int program, int part, int parts) {
  hl_sb b = {0};
  prologue(&b, plan, part, parts);
  hl_sb_printf(&b, "void hl_probe_part_%d();\nvoid hl_probe_part_%d() {\n", part, part);
  for (size_t i = 0; i < plan->nw; i++) {
    const hl_cal_prog_wrapper *w = &plan->w[i];
    if (w->program != program) continue;
    if (w->feature) hl_sb_printf(&b, "#if defined(%s)\n", w->feature);
    hl_sb_printf(&b, "  hl_probe::wrapper<%s, %s>(%zu);\n", w->type, sig_of(w), i);
    if (w->feature) {
      /* Said once, by the part that prints the program's other facts. */
      if (part == 0) hl_sb_printf(&b, "#else\n  hl_probe::absent(%zu);\n", i);
      hl_sb_puts(&b, "#endif\n");
    }
  }
  hl_sb_puts(&b, "}\n");
  if (part == 0) {
    for (int k = 1; k < parts; k++) hl_sb_printf(&b, "void hl_probe_part_%d();\n", k);
    hl_sb_puts(&b, "int main() {\n  hl_probe::identify();\n");
    for (int k = 0; k < parts; k++) hl_sb_printf(&b, "  hl_probe_part_%d();\n", k);
    if (plan->string_sso && program == 0) hl_sb_puts(&b, "  hl_probe::string_sso();\n  hl_probe::shared_states();\n");
    hl_sb_puts(&b, "}\n");
  }
  return hl_sb_take(&b);
}

char *hl_cal_timing_source(const hl_cal_prog_plan *plan, int program, const hl_timing *rows, size_t n) {
  hl_sb b = {0};
  prologue(&b, plan, 0, 1);
  hl_sb_puts(&b, "int main() {\n");
  for (size_t i = 0; i < n; i++) {
    const hl_timing *r = &rows[i];
    if (r->wrapper < 0) {
      if (program == 0) hl_sb_printf(&b, "  hl_probe::string_timed(%ld);\n", r->size);
      continue;
    }
    const hl_cal_prog_wrapper *w = &plan->w[r->wrapper];
    if (w->program != program) continue;
    hl_sb_printf(&b, "  hl_probe::timed<%s, %s, %ld, %ld, %d>(%d);\n", w->type, sig_of(w), r->size, r->align, r->kind,
                 r->wrapper);
  }
  hl_sb_puts(&b, "}\n");
  return hl_sb_take(&b);
}

void hl_measured_init(hl_measured *m, size_t nwrappers) {
  memset(m, 0, sizeof *m);
  m->w = hl_xcalloc(nwrappers ? nwrappers : 1, sizeof *m->w);
  m->nw = nwrappers;
  for (size_t t = 0; t < HL_SHARED_KINDS; t++) m->shared[t] = -1;
}

void hl_measured_free(hl_measured *m) {
  free(m->library);
  free(m->library_version);
  free(m->abi);
  free(m->abi_namespace);
  free(m->compiler);
  for (size_t t = 0; t < HL_SSO_KINDS; t++) free(m->string_allocs[t]);
  for (size_t i = 0; i < m->nw; i++) free(m->w[i].v);
  free(m->w);
  memset(m, 0, sizeof *m);
}

/* The rest of the line after "word " (the word included in line). */
static char *rest_after(const char *line, const char *word) {
  size_t n = strlen(word);
  return !strncmp(line, word, n) && line[n] == ' ' ? hl_xstrdup(line + n + 1) : NULL;
}

static int read_line(const char *line, hl_measured *m, char **err) {
  long w, size, align, allocs, offset, n;
  int kind, used = 0;
  char lib[32];
  char *s;
  if (sscanf(line, "probe %ld %ld %ld %d %ld %ld%n", &w, &size, &align, &kind, &allocs, &offset, &used) == 6 &&
      !line[used] && w >= 0 && (size_t)w < m->nw) {
    hl_cal_prog_probed *p = &m->w[w];
    hl_cal_prog_probe pr = {size, align, kind, allocs, offset};
    HL_PUSH(p->v, p->n, p->cap, pr);
    m->pending = 0;
    return 0;
  }
  if (sscanf(line, "try %ld %ld %ld %d%n", &w, &size, &align, &kind, &used) == 4 && !line[used] && w >= 0 &&
      (size_t)w < m->nw) {
    m->pending = 1;
    m->pending_wrapper = (size_t)w;
    m->pending_probe = (hl_cal_prog_probe){size, align, kind, 0, -1};
    return 0;
  }
  if (sscanf(line, "wrapper %ld %ld %ld%n", &w, &size, &align, &used) == 3 && !line[used] && w >= 0 &&
      (size_t)w < m->nw) {
    m->w[w].seen = 1;
    m->w[w].size = size;
    m->w[w].align = align;
    return 0;
  }
  if (sscanf(line, "absent %ld%n", &w, &used) == 1 && !line[used] && w >= 0 && (size_t)w < m->nw) {
    m->w[w].absent = 1;
    return 0;
  }
  if (sscanf(line, "shared %31s %ld%n", lib, &allocs, &used) == 2 && !line[used]) {
    static const char *const names[] = HL_SHARED_NAMES;
    size_t t = hl_str_index(lib, names, HL_SHARED_KINDS);
    if (t < HL_SHARED_KINDS) {
      m->shared[t] = allocs;
      return 0;
    }
  }
  if (sscanf(line, "string %15s %ld %ld%n", lib, &n, &allocs, &used) == 3 && !line[used]) {
    static const char *const types[] = HL_SSO_CHAR_TYPES;
    size_t t = hl_str_index(lib, types, HL_SSO_KINDS);
    if (t < HL_SSO_KINDS && n == (long)m->nstring[t]) {
      HL_PUSH(m->string_allocs[t], m->nstring[t], m->capstring[t], allocs);
      return 0;
    }
  }
  if (sscanf(line, "pointer %ld%n", &n, &used) == 1 && !line[used]) {
    m->pointer_width = (int)n;
    return 0;
  }
  if (sscanf(line, "library %31s %n", lib, &used) == 1 && used > 0) {
    free(m->library);
    free(m->library_version);
    m->library = hl_xstrdup(lib);
    m->library_version = hl_xstrdup(line + used);
    return 0;
  }
  char ns[128];
  if (sscanf(line, "abi %31s %127s %n", lib, ns, &used) == 2 && used > 0 &&
      (!strcmp(lib, "namespace") || !strcmp(lib, "no-namespace"))) {
    free(m->abi);
    free(m->abi_namespace);
    m->abi = hl_xstrdup(line + used);
    m->abi_namespace = hl_xstrdup(ns);
    m->abi_absent = lib[0] == 'n' && lib[1] == 'o';
    return 0;
  }
  if ((s = rest_after(line, "compiler"))) {
    free(m->compiler);
    m->compiler = s;
    return 0;
  }
  *err = hl_xasprintf("the probe program printed a line heaplint does not understand: '%s'", line);
  return -1;
}

/* Calls fn for each line of text (without its newline). */
static int each_line(const char *text, int (*fn)(const char *, void *, char **), void *data, char **err) {
  while (*text) {
    size_t len = strcspn(text, "\n");
    char *line = hl_xstrndup(text, len);
    int rc = fn(line, data, err);
    free(line);
    if (rc) return rc;
    text += len + (text[len] == '\n');
  }
  return 0;
}

static int measure_line(const char *line, void *m, char **err) { return read_line(line, m, err); }

int hl_cal_read_measured(const char *output, hl_measured *m, char **err) {
  return each_line(output, measure_line, m, err);
}

typedef struct timing_read {
  hl_timing *rows;
  size_t n;
  int opt;
} timing_read;

static int timing_line(const char *line, void *data, char **err) {
  timing_read *t = data;
  long w, size, align;
  int kind, used = 0;
  double construct, call;
  int string = sscanf(line, "time s:%ld %lf %lf%n", &size, &construct, &call, &used) == 3 && !line[used];
  if (string) {
    w = -1;
    align = 1;
    kind = HL_KIND_TRIVIAL;
  } else if (!(sscanf(line, "time %ld:%ld:%ld:%d %lf %lf%n", &w, &size, &align, &kind, &construct, &call, &used) == 6 &&
               !line[used])) {
    *err = hl_xasprintf("the timing program printed a line heaplint does not understand: '%s'", line);
    return -1;
  }
  for (size_t i = 0; i < t->n; i++) {
    hl_timing *r = &t->rows[i];
    if (r->wrapper == (int)w && r->size == size && (string || (r->align == align && r->kind == kind))) {
      r->construct_ns[t->opt] = construct;
      if (t->opt == 1) r->call_ns = call;
    }
  }
  return 0;
}

int hl_cal_read_timing(const char *output, hl_timing *rows, size_t n, int opt, char **err) {
  timing_read t = {rows, n, opt};
  return each_line(output, timing_line, &t, err);
}
