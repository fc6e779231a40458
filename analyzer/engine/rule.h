/* rule: the interface every check implements, and the registry of checks.
 *
 * A rule is one C file under rules/. The walker calls begin once per
 * translation unit, visit for every cursor of the user's code (never system
 * headers), prepare once after the walk (to ask for type traits it will need:
 * all rules' questions are answered together), then end, where deferred
 * findings are decided and handed to the context. Rules never print. */
#ifndef HEAPLINT_RULE_H
#define HEAPLINT_RULE_H

#include <clang-c/Index.h>

#include "engine/ast.h"
#include "engine/context.h"

typedef struct hl_rule {
  const char *id;       /* kebab-case, e.g. "function-sbo" */
  const char *summary;  /* one line, for --list-rules and SARIF */
  const char *description; /* a paragraph: what it finds, why, the fix */
  void *(*begin)(hl_ctx *ctx);
  void (*visit)(hl_ctx *ctx, void *state, CXCursor c);
  void (*prepare)(hl_ctx *ctx, void *state);
  void (*end)(hl_ctx *ctx, void *state);
} hl_rule;

/* Every rule heaplint has, NULL-terminated, in id order. */
extern const hl_rule *const hl_rules[];

const hl_rule *hl_rule_find(const char *id);

#endif
