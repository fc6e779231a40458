#include "engine/inst/arbiter.h"

#include <stdio.h>
#include <stdlib.h>

#include "engine/inst/answer.h"
#include "engine/inst/compare.h"
#include "engine/inst/from_ast.h"
#include "engine/inst/inst_impl.h"
#include "engine/inst/probe_parse.h"
#include "engine/inst/relay.h"
#include "engine/inst/users.h"
#include "engine/inst/instances.h"
#include "util/util.h"

hl_inst *hl_inst_new(const hl_unit *u, const hl_inst_options *o) {
  hl_inst *P = hl_xcalloc(1, sizeof *P);
  P->u = *u;
  P->compare = o->compare;
  P->log = o->log;
  P->ast = hl_instances_open();
  return P;
}

void hl_inst_free(hl_inst *P) {
  if (!P) return;
  hl_instances_close(P->ast);
  for (size_t i = 0; i < P->n; i++) {
    free(P->v[i].file);
    free(P->v[i].as_type);
  }
  free(P->v);
  for (size_t i = 0; i < P->nhits; i++) hl_answer_free(&P->hits[i]);
  free(P->hits);
  hl_strv_free(&P->targets);
  free(P);
}

void hl_inst_conversion_targets(hl_inst *P, const char *const *names, size_t n) {
  for (size_t i = 0; i < n; i++) hl_strv_add(&P->targets, names[i]);
  if (n == 0) hl_strv_add(&P->targets, ""); /* set, and matching nothing */
}

size_t hl_inst_pending(const hl_inst *P) { return P->n; }

int hl_inst_run(hl_inst *P, const char *suffix, void (*parsed)(CXTranslationUnit q, void *data), void *data,
                char **why) {
  if (P->n == 0) return 0;
  int check = P->compare;
  if (!check && hl_from_ast_all(P)) {
    hl_choose_users(P);
    return 0;
  }
  int rc = hl_probe_parse(P, 0, suffix, parsed, data, why);
  if (!rc) {
    hl_relay(P);
    if (check) {
      hl_compare_backends(P, P->log, 0);
      hl_compare_backends(P, P->log, 1);
    }
    size_t added = hl_from_ast_fill(P);
    if (check && added)
      fprintf(P->log, "heaplint: instances: %s: %zu answers from the AST where the probe parse had none\n",
              hl_display_path(P->u.job->file), added);
    hl_choose_users(P);
  }
  return rc;
}
