#include "lsp/apis.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/rule.h"
#include "index/db.h"
#include "report/apis.h"
#include "util/util.h"

/* How many call sites a hover lists. */
#define SITES_SHOWN 10

/* A hover at a declaration's line. */
typedef struct entry {
  hl_loc at;
  hl_sb markdown;
} entry;

struct lsp_apis {
  char *path;            /* the index read last, or NULL */
  dev_t dev;             /* and what it was then: read again when */
  ino_t ino;             /*   any of these changed */
  off_t size;            /* */
  struct timespec mtime; /* */
  entry *v;
  size_t n, cap;
};

static void clear(lsp_apis *P) {
  for (size_t i = 0; i < P->n; i++) {
    hl_loc_free(&P->v[i].at);
    hl_sb_free(&P->v[i].markdown);
  }
  P->n = 0;
  free(P->path);
  P->path = NULL;
}

void lsp_apis_free(lsp_apis *P) {
  if (!P) return;
  clear(P);
  free(P->v);
  free(P);
}

/* Markdown that shows text as it is: its punctuation escaped. */
static void plain(hl_sb *b, const char *text) {
  for (const char *p = text; *p; p++) {
    if (strchr("\\`*_{}[]<>#|!", *p)) hl_sb_putc(b, '\\');
    hl_sb_putc(b, *p);
  }
}

/* The entry at l's line (a new one, or the one there: a parameter's
 * figure and its plan share the line), its markdown ready for more. */
static hl_sb *at_line(lsp_apis *P, const hl_loc *l) {
  for (size_t i = 0; i < P->n; i++)
    if (!strcmp(P->v[i].at.file, l->file) && P->v[i].at.line == l->line) {
      hl_sb_puts(&P->v[i].markdown, "\n\n---\n\n");
      return &P->v[i].markdown;
    }
  entry e = {hl_loc_copy(l), {0}};
  HL_PUSH(P->v, P->n, P->cap, e);
  return &P->v[P->n - 1].markdown;
}

static void add_figure(lsp_apis *P, const hl_api_figure *f) {
  char *line = hl_api_line(f);
  for (size_t d = 0; d < f->ndecls; d++) {
    hl_sb *b = at_line(P, &f->decls[d]);
    hl_sb_puts(b, "**heaplint**, over the project index: API ");
    plain(b, line);
    for (size_t k = 0; k < f->nat && k < SITES_SHOWN; k++) {
      hl_sb_printf(b, "%s- ", k ? "\n" : "\n\n");
      plain(b, hl_display_path(f->at[k].file));
      hl_sb_printf(b, ":%u:%u", f->at[k].line, f->at[k].col);
    }
    if (f->nat > SITES_SHOWN) hl_sb_printf(b, "\n- and %zu more", f->nat - SITES_SHOWN);
  }
  free(line);
}

static void add_plan(lsp_apis *P, const hl_finding *f) {
  hl_sb *b = at_line(P, &f->loc);
  hl_sb_puts(b, "**heaplint**, over the project index: ");
  plain(b, f->message);
  hl_sb_printf(b, " (%s)", f->rule);
  for (size_t k = 0; k < f->nnotes && k < SITES_SHOWN; k++) {
    hl_sb_printf(b, "%s- ", k ? "\n" : "\n\n");
    plain(b, hl_display_path(f->notes[k].loc.file));
    hl_sb_printf(b, ":%u:%u: ", f->notes[k].loc.line, f->notes[k].loc.col);
    plain(b, f->notes[k].message);
  }
  if (f->nnotes > SITES_SHOWN) hl_sb_printf(b, "\n- and %zu more", f->nnotes - SITES_SHOWN);
}

/* The rules' plans over X, as the check makes them with -p. */
static void plans(lsp_apis *P, hl_index *X, hl_config_policy *pd) {
  hl_index_lookup ix = hl_index_lookups(X);
  hl_plan_policy policy = hl_config_plan_policy(pd);
  hl_findings found = {0};
  /* The rules heaplint has, as the configuration carries them down. */
  const hl_rule *const *rules = pd->fallback->registry;
  for (size_t r = 0; rules && rules[r]; r++)
    if (rules[r]->plan) rules[r]->plan(&ix, &policy, &found);
  for (size_t i = 0; i < found.n; i++)
    if (found.v[i]->loc.file && hl_config_enabled(hl_config_policy_at(pd, found.v[i]->loc.file), found.v[i]->rule))
      add_plan(P, found.v[i]);
  hl_findings_free(&found);
}

static void load(lsp_apis *P, hl_config_policy *pd) {
  char *err = NULL;
  hl_index *X = hl_index_open_readonly(P->path, &err);
  if (!X) {
    free(err);
    return;
  }
  hl_api_figure *figs = NULL;
  size_t nfigs = 0;
  if (!hl_index_apis(X, NULL, 0, &figs, &nfigs, &err))
    for (size_t i = 0; i < nfigs; i++) add_figure(P, &figs[i]);
  free(err);
  err = NULL;
  hl_api_figures_free(figs, nfigs);
  plans(P, X, pd);
  hl_index_close(X, &err);
  free(err);
}

/* The index that applies: --index, else the result cache's directory's
 * (--cache-dir, $HEAPLINT_CACHE_DIR, the configuration's cache-dir), as
 * the check finds it. NULL: none. */
static char *index_path(const hl_options *o, const hl_config *cfg) {
  if (hl_options_no_index(o)) return NULL;
  if (o->index) return hl_abspath(o->index);
  const char *env = getenv("HEAPLINT_CACHE_DIR");
  const char *dir = o->cache_dir ? o->cache_dir : env && *env ? env : cfg ? cfg->cache_dir : NULL;
  if (!dir) return NULL;
  char *abs = hl_abspath(dir), *p = hl_xasprintf("%s/index.sqlite", abs);
  free(abs);
  return p;
}

/* Reads the index at path again unless it is the one read last, as it
 * was. */
static void refresh(lsp_apis *P, char *path, hl_config_policy *pd) {
  struct stat st;
  int exists = path && stat(path, &st) == 0;
  if (exists && P->path && !strcmp(P->path, path) && st.st_dev == P->dev && st.st_ino == P->ino &&
      st.st_size == P->size && st.st_mtim.tv_sec == P->mtime.tv_sec && st.st_mtim.tv_nsec == P->mtime.tv_nsec) {
    free(path);
    return;
  }
  clear(P);
  if (!exists) {
    free(path);
    return;
  }
  P->path = path;
  P->dev = st.st_dev;
  P->ino = st.st_ino;
  P->size = st.st_size;
  P->mtime = st.st_mtim;
  load(P, pd);
}

void lsp_apis_add_hovers(lsp_apis **P, const hl_options *o, const hl_config *cfg, hl_configs *configs, const char *path,
                         lsp_conv *c, lsp_result *r) {
  if (!*P) *P = hl_xcalloc(1, sizeof **P);
  hl_config_policy pd = {configs, cfg};
  refresh(*P, index_path(o, cfg), &pd);
  for (size_t i = 0; i < (*P)->n; i++) {
    const entry *e = &(*P)->v[i];
    if (strcmp(e->at.file, path)) continue;
    size_t n = 0;
    const char *text = lsp_conv_line(c, path, e->at.line, &n);
    if (!text) continue;
    size_t from = 0, to = n;
    while (from < n && (text[from] == ' ' || text[from] == '\t')) from++;
    while (to > from && (text[to - 1] == '\r' || text[to - 1] == '\n')) to--;
    hl_loc l = e->at;
    l.col = (unsigned)from + 1;
    lsp_pos a, b;
    lsp_range_of(c, &l, e->at.line, (unsigned)to + 1, &a, &b);
    lsp_hover h = {a.line, a.character, b.line, b.character, hl_xstrdup(hl_sb_str(&e->markdown))};
    HL_PUSH(r->hovers, r->nhovers, r->caphovers, h);
  }
}
