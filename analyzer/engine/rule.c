#include "engine/rule.h"

#include <string.h>

const hl_rule *hl_rule_in(const hl_rule *const *rules, const char *id) {
  for (size_t i = 0; rules[i]; i++)
    if (!strcmp(rules[i]->id, id)) return rules[i];
  return NULL;
}
