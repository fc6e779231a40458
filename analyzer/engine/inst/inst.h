/* inst: what a template's code stores in each of its instantiations. Inside
 * a template the stored type depends on the template arguments, so
 * libclang (which shows only the pattern) cannot size it; the compiler can,
 * at each instantiation. A rule asks in its prepare (a layout question: the
 * type of an expression; a conversion question: what a call converts an
 * argument to) and reads the answers in its end, each with the chain of
 * calls that made the types concrete. Who answers is engine/inst/arbiter's
 * business (arbiter.h); a rule sees only this interface. */
#ifndef HEAPLINT_INST_H
#define HEAPLINT_INST_H

#include <clang-c/Index.h>
#include <stddef.h>

#include "engine/finding.h"

typedef struct hl_inst hl_inst;

/* One instantiation's answer. chain[0] is where the asked expression is
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
  char *to;   /* a conversion question's: the type it is converted to
                 ("std::function<void ()>"); NULL for a layout question */
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

/* Asks about the expression e of the unit: its decayed type, size,
 * alignment and traits in each instantiation. Returns the question's id
 * (>= 0), or -1 with *why when the expression cannot be asked about (it
 * comes from a macro, is a braced list, or does not stand where an argument
 * or an initializer can be wrapped). */
int hl_inst_ask_layout(hl_inst *I, CXCursor e, const char **why);

/* Asks what the argument arg of the call wrapped is converted to, where
 * the call's callee is known only per instantiation (callbacks->append(cb)
 * with a dependent callbacks): each instantiation that converts it answers
 * with the target type, the argument's layout and traits, and its chain.
 * With as_type (a type's spelling, "decltype(this->m)"), wrapped is arg
 * itself and the question is its conversion to that type (a member
 * initializer). The same question asked twice has one id. Returns it, or
 * -1 with *why. */
int hl_inst_ask_conversion(hl_inst *I, CXCursor wrapped, CXCursor arg, const char *as_type, const char **why);

/* The answers to question id, in the order the compiler gave them. */
const hl_inst_answer *hl_inst_answers(const hl_inst *I, int id, size_t *n);

#endif
