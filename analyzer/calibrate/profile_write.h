/* profile_write: a profile (profile.h) as the YAML the loader reads,
 * written with libyaml's emitter, and the field-by-field differences
 * between two profiles (heaplint calibrate's -o and --compare). */
#ifndef HEAPLINT_PROFILE_WRITE_H
#define HEAPLINT_PROFILE_WRITE_H

#include "input/profile.h"
#include "util/strv.h"
#include "util/util.h"

/* The YAML text of p, in the format of docs/profiles.md: fields that are
 * unset (NULL, 0, -1 for a string capacity) are left out. Returns 0 with *text
 * (caller frees), or -1 with *err. */
int hl_profile_write(const hl_profile *p, char **text, char **err);

/* Adds to out one message per field in which got differs from want: the
 * library, detect.include, target.pointer-width, string.sso-capacity and,
 * wrapper by wrapper (matched by name), rule, buffer, header, max-align,
 * requires, factories and emplace. Prose (description, header.what,
 * source) is not compared. Returns the number of differences. */
size_t hl_profile_diff(const hl_profile *got, const hl_profile *want, hl_strv *out);

#endif
