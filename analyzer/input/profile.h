/* profile: the standard-library profiles — data, never C constants — that
 * say when a wrapper (std::function, std::any, a custom callback type) keeps
 * what it stores inline and when it goes to the heap.
 *
 * A profile describes one library on one pointer width, perhaps one ABI
 * variant of it (the YAML files in rules/profiles, or a file written by
 * `heaplint calibrate`); the format is documented in docs/profiles.md. For
 * each translation unit the analyzer selects the profile of the library it
 * includes, of its target's pointer width and of the ABI the unit shows it
 * uses, then lays any --profile files over it, wrapper by wrapper. */
#ifndef HEAPLINT_PROFILE_H
#define HEAPLINT_PROFILE_H

#include <stddef.h>

#include "engine/wrapper.h"
#include "util/hindex.h"

/* The most heaplint reads of a profile: the shipped ones are 2 KiB. */
#define HL_PROFILE_MAX ((size_t)1 << 20)

struct hl_rule;

/* Loads one profile file; its sections are those rules declare
 * (hl_rule.profile; rules: NULL-terminated, the front end's). Returns 0,
 * or -1 with *err = "path:line:col: why". */
int hl_profile_load(const char *path, const struct hl_rule *const *rules, hl_profile **out, char **err);
void hl_profile_free(hl_profile *p);
/* The section a rule declares under the profile key key ("string"), or
 * NULL: for calibrate, which measures the numbers and writes them. */
const hl_profile_section *hl_profile_section_of(const struct hl_rule *const *rules, const char *key);
/* Sets, or reads (-1: not stated), the number p states for s->names[name]. */
void hl_profile_set_number(hl_profile *p, const hl_profile_section *s, size_t name, long v);
long hl_profile_number(const hl_profile *p, const hl_profile_section *s, size_t name);

typedef struct hl_profile_set {
  hl_profile **base; /* shipped library profiles */
  size_t nbase, capbase;
  hl_profile **extra; /* --profile files, applied on top in order */
  size_t nextra, capextra;
  const struct hl_rule *const *rules; /* hl_profiles_load's */
} hl_profile_set;

/* Loads every *.yaml in dir as a base profile (the sections of set->rules). Returns 0 or -1 with *err. */
int hl_profiles_load_dir(hl_profile_set *set, const char *dir, char **err);
int hl_profiles_add_extra(hl_profile_set *set, const char *path, char **err);
void hl_profiles_free(hl_profile_set *set);
/* The shipped profiles of dir (NULL: hl_profiles_default_dir), then the
 * extra files (--profile) on top; rules: the rules heaplint has
 * (NULL-terminated), whose sections a profile may state and one of which
 * each wrapper must name. Returns 0 or -1 with *err. */
int hl_profiles_load(hl_profile_set *set, const char *dir, char *const *extra, size_t nextra,
                     const struct hl_rule *const *rules, char **err);

/* The library whose detect_include ends included_path, or NULL. */
const hl_profile *hl_profiles_detect(const hl_profile_set *set, const char *included_path);

/* What a unit shows of its library's ABI: whether it declares a namespace
 * ("std::__cxx11", as libstdc++'s headers do under the C++11 string ABI
 * only), asked of the unit as parsed, so a macro set by a header counts as
 * one set by a flag. */
typedef struct hl_unit_namespaces {
  int (*declares)(void *data, const char *qualified);
  void *data;
} hl_unit_namespaces;

/* The wrappers that apply to one translation unit, layer by layer: the
 * base profile of its library and pointer width (the one for the ABI the
 * unit uses, when a profile describes that ABI variant), then each
 * --profile file, then the config's profiles and its wrapper overrides.
 * A profile for an ABI variant applies only to units that use it. */
typedef struct hl_selection {
  const hl_wrapper **v;
  size_t n, cap;
  hl_wrapper **owned; /* merged overrides, freed with the selection */
  size_t nowned, capowned;
  const hl_profile *base;  /* NULL when no base profile matches */
  const hl_profile **used; /* every profile that contributed, base first */
  size_t nused, capused;
  hl_hindex names; /* v by wrapper name: layering n entries over m takes n + m steps */
  /* The rules' sections, each number as the last layer to state it did,
   * and that layer's profile (from). */
  hl_profile_numbers *numbers;
  size_t nnumbers;
  hl_unit_namespaces unit; /* declares NULL: no profile for an ABI variant applies */
} hl_selection;

void hl_selection_init(hl_selection *sel, const hl_profile_set *set, const char *library, int pointer_width,
                       const hl_unit_namespaces *unit);
/* Complete entries of p replace the same-named ones or are added. */
void hl_selection_layer(hl_selection *sel, const hl_profile *p, const char *library, int pointer_width);
/* Entries of p that state only some fields change just those fields of the
 * same-named wrapper (an entry naming no selected wrapper must be complete). */
void hl_selection_overlay(hl_selection *sel, const hl_profile *p);
void hl_selection_free(hl_selection *sel);

/* Reads a YAML list of wrapper entries into p (for a config's "wrappers");
 * with partial, an entry needs only its name. Returns 0 or -1 with *err. */
struct hl_yaml;
int hl_profile_wrappers_from_yaml(struct hl_yaml *y, void *seq_node, int partial, hl_profile *p, char **err);

/* The directory holding the shipped profiles: $HEAPLINT_PROFILE_DIR, else
 * <dir of the executable>/../share/heaplint/profiles. Caller frees. */
char *hl_profiles_default_dir(void);

#endif
