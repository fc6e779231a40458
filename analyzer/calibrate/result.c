#include "calibrate/result.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/fit.h"
#include "util/proc.h"
#include "calibrate/profile_write.h"
#include "util/util.h"

/* The standard libraries probe.hpp tells apart, as profiles name them. */
static const hl_cal_library libraries[] = {
    {"libstdc++", "libstdc++", "GNU libstdc++ (GCC)", "bits/c++config.h"},
    {"libc++", "libc++", "LLVM libc++", "__config_site"},
    {"msvc", "MSVC STL", "Microsoft STL", "yvals_core.h"},
};

/* basic_string's inline capacity for each character type the program
 * measured (char always: it is measured wherever there is a std::string). */
static int fit_strings(hl_cal *c) {
  static const char *const types[] = HL_SSO_CHAR_TYPES;
  int bad = 0;
  for (size_t t = 0; t < HL_SSO_KINDS; t++) {
    c->sso[t] = hl_fit_sso(c->m.string_allocs[t], c->m.nstring[t]);
    if (c->sso[t] >= 0 || (t != HL_SSO_CHAR && !c->m.nstring[t])) continue;
    hl_cal_error(
        "std::basic_string<%s>: no length up to %zu characters is kept without allocating, or every one "
        "is: no small-string capacity fits",
        types[t], c->m.nstring[t] ? c->m.nstring[t] - 1 : 0);
    bad = 1;
  }
  return bad;
}

int hl_cal_fit_all(hl_cal *c) {
  int status = CAL_OK;
  if (!c->custom) {
    for (size_t i = 0; i < sizeof libraries / sizeof *libraries && !c->library; i++)
      if (c->m.library && !strcmp(c->m.library, libraries[i].probe_name)) c->library = &libraries[i];
    if (!c->library) {
      hl_cal_error(
          "the standard library cannot be identified: it defines none of __GLIBCXX__, _LIBCPP_VERSION and "
          "_MSVC_STL_VERSION");
      return CAL_NO_FIT;
    }
    if (fit_strings(c)) status = CAL_NO_FIT;
  }
  for (size_t i = 0; i < c->n; i++) {
    const hl_cal_prog_probed *p = &c->m.w[i];
    if (p->absent) {
      hl_cal_note("%s has no %s: the profile leaves it out", c->library ? c->library->name : "the library",
                  c->targets[i].name);
      continue;
    }
    if (!p->seen) continue;
    char *why;
    if (hl_fit(p, &c->targets[i].fit, &why)) {
      hl_cal_error("%s: %s", c->pw[i].type, why);
      free(why);
      status = CAL_NO_FIT;
      continue;
    }
    c->targets[i].fitted = 1;
  }
  return status;
}

/* The n numbers v (-1: not measured) of the names names into the section
 * a rule declares under key. */
static void section_numbers(const hl_cal *c, hl_profile *P, const char *key, const char *const *names, const long *v,
                            size_t n) {
  const hl_profile_section *s = hl_profile_section_of(c->rules, key);
  for (size_t t = 0; s && t < n; t++) {
    size_t i = hl_str_index(names[t], s->names, s->n);
    if (v[t] >= 0 && i < s->n) hl_profile_set_number(P, s, i, v[t]);
  }
}

static hl_profile *make_profile(const hl_cal *c) {
  static const char *const types[] = HL_SSO_CHAR_TYPES, *const makers[] = HL_SHARED_NAMES;
  hl_profile *P = hl_xcalloc(1, sizeof *P);
  P->pointer_width = c->m.pointer_width;
  char *cmd = hl_proc_command(c->command.v);
  const char *compiler = c->m.compiler ? c->m.compiler : "an unknown compiler";
  if (c->library) {
    P->library = hl_xstrdup(c->library->name);
    P->description = hl_xasprintf("%s, %s%s%d-bit targets", c->library->description, c->m.abi ? c->m.abi : "",
                                  c->m.abi ? ", " : "", c->m.pointer_width);
    P->detect_include = hl_xstrdup(c->library->detect);
    if (c->m.abi) {
      P->abi = hl_xstrdup(c->m.abi);
      P->named = hl_xasprintf("%s's %s", P->library, P->abi);
      *(c->m.abi_absent ? &P->detect_no_namespace : &P->detect_namespace) = hl_xstrdup(c->m.abi_namespace);
    }
    section_numbers(c, P, "string", types, c->sso, HL_SSO_KINDS);
    section_numbers(c, P, "shared-state", makers, c->m.shared, HL_SHARED_KINDS);
  } else {
    hl_sb d = {0};
    for (size_t i = 0; i < c->n; i++) hl_sb_printf(&d, "%s%s", i ? ", " : "", c->targets[i].name);
    hl_sb_printf(&d, ", %d-bit targets, measured with %s", c->m.pointer_width, compiler);
    P->description = hl_sb_take(&d);
  }
  size_t cap = 0;
  for (size_t i = 0; i < c->n; i++) {
    const hl_cal_target *t = &c->targets[i];
    if (!t->fitted) continue;
    hl_wrapper w;
    memset(&w, 0, sizeof w);
    w.name = hl_xstrdup(t->name);
    w.rule = hl_xstrdup(t->rule);
    w.buffer_size = t->fit.buffer_size;
    w.buffer_align = t->fit.buffer_align;
    w.header_size = t->fit.header_size;
    w.header_align = t->fit.header_align;
    w.max_align = t->fit.max_align;
    w.
      requires
    = t->fit.
        requires;
    if (t->factory) {
      w.factories = hl_xcalloc(1, sizeof *w.factories);
      w.factories[w.nfactories++] = hl_xstrdup(t->factory);
    }
    if (t->replacement) w.replacement = hl_xstrdup(t->replacement);
    if (t->emplace) {
      w.emplacers = hl_xcalloc(1, sizeof *w.emplacers);
      w.emplacers[w.nemplacers++] = hl_xstrdup(t->emplace);
    }
    const char *std = hl_cal_program_std[c->pw[i].program];
    char *lib = c->library ? hl_xasprintf("; %s %s", c->library->name, c->m.library_version) : hl_xstrdup("");
    w.source = hl_xasprintf("measured by heaplint calibrate %s: %s%s%s (%s%s)", HEAPLINT_VERSION, cmd, std ? " " : "",
                            std ? std : "", compiler, lib);
    free(lib);
    w.profile = P;
    HL_PUSH(P->wrappers, P->nwrappers, cap, w);
  }
  free(cmd);
  return P;
}

/* Writes the profile as YAML and reads it back with the analyzer's loader:
 * what is written is what heaplint --profile will read. */
int hl_cal_write_profile(hl_cal *c) {
  hl_profile *P = make_profile(c);
  char *err = NULL;
  int status = CAL_OK;
  if (hl_profile_write(P, &c->text, &err)) {
    status = CAL_PROBES;
  } else {
    char *path = hl_cal_path(c, "profile.yaml");
    if (hl_cal_write_text(path, c->text))
      err = hl_xasprintf("%s: cannot write: %s", path, strerror(errno));
    else if (hl_profile_load(path, c->rules, &c->written, &err)) {
      char *e = err;
      err = hl_xasprintf("the profile written does not load: %s", e);
      free(e);
    }
    free(path);
    if (err) status = CAL_PROBES;
  }
  if (err) {
    hl_cal_error("%s", err);
    free(err);
  }
  hl_profile_free(P);
  return status;
}
