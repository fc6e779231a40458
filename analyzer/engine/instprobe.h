/* instprobe: asks the compiler what a template stores, once per concrete
 * instantiation. Inside a template the stored type depends on the template
 * arguments, so libclang (which shows only the pattern) cannot size it; the
 * compiler can, at each instantiation.
 *
 * Each probe wraps one stored expression in the translation unit's text as
 * `::hl_probe_fn<Id>(expr)`, a function template whose body instantiates an
 * undefined class template carrying sizeof, alignof and the three traits of
 * the decayed type (trivially copyable, nothrow copy and move constructible).
 * The compiler then reports one error per instantiation, with those numbers
 * in the class's name and the chain of "requested here" notes that leads to
 * the code that instantiated it. All probes of a unit are inserted into an
 * in-memory copy of its files (libclang's unsaved files) and answered by one
 * extra parse; positions are mapped back to the files as they are on disk.
 * An expression the probe does not reach (a parse failure, no instantiation)
 * has no answer: its site stays undecided, never guessed.
 *
 * Why the compiler's diagnostics and not a walk of the instantiations:
 * libclang's C API shows a template's pattern only, never an instantiated
 * body (there is no cursor for Task<int>::arm), and a second front end on
 * clang's C++ API would tie heaplint to one clang's C++ ABI. The compiler
 * knows every instantiation's layout and traits exactly; an error naming
 * them, with its "requested here" notes, is what the C API does carry. */
#ifndef HEAPLINT_INSTPROBE_H
#define HEAPLINT_INSTPROBE_H

#include <clang-c/Index.h>
#include <stddef.h>

#include "engine/finding.h"
#include "engine/unit.h"

typedef struct hl_probes hl_probes;

/* One instantiation's answer. chain[0] is where the probed expression is
 * instantiated (the store itself); the rest are the "requested here"
 * locations outward. user is the outermost of them in the user's own files
 * (not a system header): the code that made the type concrete. */
typedef struct hl_probe_hit {
  int id;
  long size, align;
  int trivially_copyable, nothrow_copy, nothrow_move;
  char *type;        /* the decayed stored type, as the compiler spells it */
  hl_loc *chain;
  size_t nchain;
  size_t user;       /* index in chain */
} hl_probe_hit;

/* For one parsed translation unit (copied; what it points to outlives P). */
hl_probes *hl_probes_new(const hl_unit *u);
void hl_probes_free(hl_probes *P);

/* Queues a probe around the expression e of the unit. Returns its id (>= 0),
 * or -1 with *why when the expression cannot be wrapped (it comes from a
 * macro, is a braced list, or does not stand where an argument or an
 * initializer can be wrapped). */
int hl_probes_add(hl_probes *P, CXCursor e, const char **why);

size_t hl_probes_pending(const hl_probes *P);

/* Parses the unit once with every queued probe inserted. Returns 0, or -1
 * with *why (the probes then have no answers). */
int hl_probes_run(hl_probes *P, char **why);

/* The answers for probe id, in the order the compiler gave them. */
const hl_probe_hit *hl_probes_hits(const hl_probes *P, int id, size_t *n);

#endif
