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
 * has no answer: its site stays undecided, never guessed. A conversion
 * probe (hl_inst_ask_conversion) asks the same of a call whose callee
 * depends on the template: what the argument becomes there, if anything. 
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

typedef struct hl_inst hl_inst;

/* One instantiation's answer. chain[0] is where the probed expression is
 * instantiated (the store itself); the rest are the "requested here"
 * locations outward. outer is the outermost of them in the user's own
 * files (not a system header): the code that made the type concrete. user
 * is where to report it: the call in the function that defines the lambda
 * the stored type names (the call that hands it over, inside a template
 * too), else outer. */
typedef struct hl_inst_answer {
  int question; /* the id of the question it answers */
  long size, align;
  int trivially_copyable, nothrow_copy, nothrow_move;
  char *type; /* the decayed stored type, as the compiler spells it */
  char *to;   /* a conversion probe's: the type it is converted to
                        ("std::function<void ()>"); NULL for a layout probe */
  hl_loc *chain;
  char *in_system; /* per chain entry: in a system header */
  char *carries;   /* per chain entry: 1 when what is instantiated there
                        names the stored type among its template arguments
                        (the value itself is passed through that call), 0
                        when it is a function template specialization that
                        does not, 2 when it has no arguments of its own (a
                        member function of a class template), 3 when it is
                        a generic lambda's operator() */
  size_t nchain;
  size_t user;  /* index in chain */
  size_t outer; /* index in chain */
} hl_inst_answer;

/* For one parsed translation unit (copied; what it points to outlives P):
 * a second parse sees the same unsaved files. */
hl_inst *hl_inst_new(const hl_unit *u);
void hl_inst_free(hl_inst *P);

/* Queues a probe around the expression e of the unit. Returns its id (>= 0),
 * or -1 with *why when the expression cannot be wrapped (it comes from a
 * macro, is a braced list, or does not stand where an argument or an
 * initializer can be wrapped). */
int hl_inst_ask_layout(hl_inst *P, CXCursor e, const char **why);

/* Queues a conversion probe: what the argument arg of the call wrapped is
 * converted to, where the call's callee is known only per instantiation
 * (callbacks->append(cb) with a dependent callbacks). The call stays as it
 * is; a copy of it beside it, never run, takes the argument through a
 * proxy whose only conversion is the argument's own, to whatever the
 * chosen overload takes: each instantiation that converts it reports the
 * target type, the argument's layout and traits, and its chain. With
 * as_type (a type's spelling, "decltype(this->m)"), wrapped is arg itself
 * and the copy converts it to that type (a member initializer). The same
 * probe asked twice has one id. Returns it, or -1 with *why. */
int hl_inst_ask_conversion(hl_inst *P, CXCursor wrapped, CXCursor arg, const char *as_type, const char **why);

/* The types a conversion probe asks about, by their template's name
 * without inline namespaces ("std::function"; the wrappers the rules
 * report): an answer converting to anything else is dropped, from the
 * probe parse and from the AST alike (both answer for other types too,
 * differently where overload resolution of the proxy differs from the
 * argument's). Without a call, every answer is kept. The names are copied. */
void hl_inst_conversion_targets(hl_inst *P, const char *const *names, size_t n);

size_t hl_inst_pending(const hl_inst *P);

/* Parses the unit once with every queued probe inserted. suffix, when not
 * NULL, is appended to the main file's text in that parse (another
 * question for the compiler that needs the whole unit in scope: the trait
 * queries), and parsed(q, data), when not NULL, is called with the parsed
 * unit before it is disposed. Returns 0, or -1 with *why (the probes then
 * have no answers, and parsed is not called).
 *
 * Where engine/instances can read them (instances.h), the answers come
 * from clang's AST of the unit itself, with the same numbers and chains:
 * when it answers every probe (layout and conversion probes, each
 * instance's chain followed), there is no parse at all, parsed is not called and the
 * suffix's questions are left to their caller; otherwise it answers the
 * layout probes the parse left without an answer (a conversion probe's
 * copy that does not compile can take an enclosing lambda's probe with
 * it). HEAPLINT_CHECK_INSTANCES in the environment always parses and
 * compares both. */
int hl_inst_run(hl_inst *P, const char *suffix, void (*parsed)(CXTranslationUnit q, void *data), void *data,
                char **why);

/* The answers for probe id, in the order the compiler gave them. */
const hl_inst_answer *hl_inst_answers(const hl_inst *P, int id, size_t *n);

#endif
