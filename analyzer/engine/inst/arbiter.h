/* arbiter: who answers a unit's questions (inst.h). Two backends: clang's
 * own AST of the unit (engine/inst/ast.h), read directly, and the probe
 * parse (probe_parse.h), which splices a probe around each asked
 * expression into the unit's text and reads the compiler's diagnostics in
 * one more parse. The AST answers when it can answer every question (each
 * instantiation's chain followed, no trait that needs overload
 * resolution): then there is no parse. Otherwise the probe parse answers,
 * and the AST fills the layout questions it left without an answer. With
 * the run's compare mode (--check-instances), the probe parse always runs
 * and both are compared, question by question (compare.h).
 *
 * Why two: libclang's C API shows a template's pattern only, never an
 * instantiated body, so a walk over it cannot know that it saw every
 * instantiation; the probe parse asks the compiler in the C API's own
 * terms, at the cost of a parse. The AST backend reads clang's AST through
 * libclang-cpp of the same clang (checked at run time), and is optional. */
#ifndef HEAPLINT_INST_ARBITER_H
#define HEAPLINT_INST_ARBITER_H

#include <clang-c/Index.h>
#include <stdio.h>

#include "engine/inst/inst.h"
#include "engine/unit.h"

typedef struct hl_inst_options {
  int compare; /* both backends answer every question, compared (compare.h) */
  FILE *log;   /* where the comparison goes: the unit's log */
} hl_inst_options;

/* For one parsed translation unit (copied; what it points to outlives I):
 * a second parse sees the same unsaved files. */
hl_inst *hl_inst_new(const hl_unit *u, const hl_inst_options *o);
void hl_inst_free(hl_inst *I);

/* The types a conversion question asks about, by their template's name
 * without inline namespaces ("std::function"; the wrappers the rules
 * report): an answer converting to anything else is dropped, from the
 * probe parse and from the AST alike (both answer for other types too,
 * differently where overload resolution of the proxy differs from the
 * argument's). Without a call, every answer is kept. The names are copied. */
void hl_inst_conversion_targets(hl_inst *I, const char *const *names, size_t n);

size_t hl_inst_pending(const hl_inst *I);

/* Answers every question asked. When the probe parse runs, suffix, when
 * not NULL, is appended to the main file's text in that parse (another
 * question for the compiler that needs the whole unit in scope: the trait
 * queries), and parsed(q, data), when not NULL, is called with the parsed
 * unit before it is disposed; when the AST answers everything, there is
 * no parse, parsed is not called and the suffix's questions are left to
 * their caller. Returns 0, or -1 with *why (the questions then have no
 * answers, and parsed is not called). */
int hl_inst_run(hl_inst *I, const char *suffix, void (*parsed)(CXTranslationUnit q, void *data), void *data,
                char **why);

#endif
