/* registry: the list of rules, expanded from rules/rules.def (a new rule
 * is one line there: scripts/new-rule.sh writes it with the rule's file,
 * page and tests), and the rules' summaries and descriptions read from
 * their pages. */
#include <string.h>

#include "rules/registry.h"
#include "util/util.h"

#define HL_RULE(cname, id) extern const hl_rule hl_rule_##cname;
#include "rules/rules.def"
#undef HL_RULE

const hl_rule *const hl_rules[] = {
#define HL_RULE(cname, id) &hl_rule_##cname,
#include "rules/rules.def"
#undef HL_RULE
    NULL,
};

const hl_rule *hl_rule_find(const char *id) { return hl_rule_in(hl_rules, id); }

/* The lines of the page's first block after the title that starts with
 * prefix ("> " for the summary, "" for the paragraph after it), joined.
 * skip: blocks to pass over first. */
static char *block(const char *doc, int skip, const char *prefix) {
  const char *p = strchr(doc, '\n');
  hl_sb b = {0};
  while (p && *p == '\n') p++;
  for (; p && skip > 0; skip--) {
    p = strstr(p, "\n\n");
    while (p && *p == '\n') p++;
  }
  size_t plen = strlen(prefix);
  while (p && *p && *p != '\n') {
    size_t n = strcspn(p, "\n");
    if (plen && strncmp(p, prefix, plen)) break;
    if (b.len) hl_sb_putc(&b, ' ');
    for (size_t i = plen; i < n; i++)
      if (p[i] != '`') hl_sb_putc(&b, p[i]);
    p += n + (p[n] == '\n');
  }
  return hl_sb_take(&b);
}

static const char *page(const hl_rule *r) {
  for (size_t i = 0; hl_rule_docs[i].id; i++)
    if (!strcmp(hl_rule_docs[i].id, r->id)) return hl_rule_docs[i].text;
  return "";
}

char *hl_rule_summary(const hl_rule *r) { return block(page(r), 0, "> "); }

char *hl_rule_description(const hl_rule *r) { return block(page(r), 1, ""); }
