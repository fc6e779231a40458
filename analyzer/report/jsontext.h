/* JSON strings from text that may not be valid UTF-8 (paths, source
 * lines): jansson refuses such a string (json_string returns NULL, and a
 * json_pack with it fails), which would silently drop a finding or a whole
 * report. */
#ifndef HEAPLINT_JSONTEXT_H
#define HEAPLINT_JSONTEXT_H

#include <jansson.h>
#include <stdlib.h>

#include "util/util.h"

/* s as a JSON string; bytes that are not valid UTF-8 become U+FFFD. Never
 * NULL but when out of memory. */
static inline json_t *hl_json_text(const char *s) {
  json_t *j = json_string(s ? s : "");
  if (j) return j;
  char *v = hl_utf8_sanitize(s);
  j = json_string(v);
  free(v);
  return j;
}

#endif
