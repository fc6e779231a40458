/* registry: the list of rules. A new rule is one file under rules/, one
 * line here, one page under docs/rules/ and one test folder. */
#include <string.h>

#include "engine/rule.h"

extern const hl_rule hl_rule_any_sbo;
extern const hl_rule hl_rule_function_copy;
extern const hl_rule hl_rule_function_sbo;
extern const hl_rule hl_rule_node_container;

const hl_rule *const hl_rules[] = {
    &hl_rule_any_sbo,
    &hl_rule_function_copy,
    &hl_rule_function_sbo,
    &hl_rule_node_container,
    NULL,
};

const hl_rule *hl_rule_find(const char *id) {
  for (size_t i = 0; hl_rules[i]; i++)
    if (!strcmp(hl_rules[i]->id, id)) return hl_rules[i];
  return NULL;
}
