/* ruledata: what a rule reads from the user's input besides the code — a
 * section of numbers in the library profiles, measured per library
 * (string-sso's inline capacities), and keys of .heaplint.yaml (no-alloc's
 * function globs) — and the values the input layer hands the engine for
 * them.
 *
 * A rule declares these as data in its hl_rule (engine/rule.h); input/
 * parses and layers them by asking the rules it is handed, and the rule
 * reads its values back through the context by its own descriptor
 * (hl_ctx_profile_number, hl_ctx_option): the engine carries them without
 * knowing whose they are or what they mean. */
#ifndef HEAPLINT_ENGINE_RULEDATA_H
#define HEAPLINT_ENGINE_RULEDATA_H

#include <stddef.h>

#include "util/strv.h"

typedef struct hl_profile hl_profile;

/* A top-level key of a profile mapping names to counts (docs/profiles.md):
 * "string: {sso-capacity: {char: 15}}", "shared-state: {std::thread: 1}". */
typedef struct hl_profile_section {
  const char *key;          /* "string" */
  const char *subkey;       /* the one key under key that holds the names ("sso-capacity"); NULL: none */
  const char *const *names; /* the names it may state, in the order a profile writes them */
  size_t n;
  int scalar;       /* the name a bare number states (sso-capacity: 15 is char's); -1: a mapping only */
  const char *noun; /* what a name is, for the error of an unknown one ("character type") */
} hl_profile_section;

/* One section's numbers as a profile, or a unit's selection of profiles,
 * states them. */
typedef struct hl_profile_numbers {
  const hl_profile_section *section;
  long *v;                 /* per section->names; -1: not stated */
  const hl_profile **from; /* in a selection, the profile that stated each (the last layer to); else NULL */
} hl_profile_numbers;

/* A key of .heaplint.yaml a rule reads: a list of strings. */
typedef struct hl_rule_option {
  const char *key;  /* "no-alloc-functions" */
  const char *what; /* what an item is, for errors ("a glob over qualified function names") */
} hl_rule_option;

/* An option's value in one configuration. */
typedef struct hl_rule_option_value {
  const hl_rule_option *option;
  hl_strv items;
} hl_rule_option_value;

#endif
