/* instances: the AST backend of engine/inst, what a template's code
 * becomes in each of its instantiations, read from clang's own AST of the
 * unit libclang parsed (C++ inside: instances*.cpp, split by job; a C
 * interface out). engine/inst's modules call it; rules never do.
 *
 * libclang's C API shows a template's pattern and, through a call, the
 * specialization that call names; it cannot list a template's
 * specializations, so a walk over it cannot know that it saw them all
 * (docs/architecture.md, "Asking the compiler"). clang's
 * AST can: FunctionTemplateDecl::specializations(), and a class template's
 * specializations with their members. This module reads that AST through
 * the cursors libclang hands out, with libclang-cpp's functions over the
 * objects libclang built: both libraries are the same clang, checked at
 * run time (hl_instances_usable); nothing is changed in the AST.
 *
 * It answers the two questions of engine/inst (inst.h): the layout
 * question (the stored expression's type in every instantiation, with its
 * size, alignment and the three traits) and the conversion question (what
 * a call converts an argument to in every instantiation, following it into
 * the standard library's templates), each with the chain of points of
 * instantiation the probe parse's notes give, or "cannot tell exactly".
 * engine/inst/arbiter takes these answers instead of parsing the unit
 * again when they cover every question, and compares both in the compare
 * mode. */
#ifndef HEAPLINT_INST_INSTANCES_H
#define HEAPLINT_INST_INSTANCES_H

#include <clang-c/Index.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One instantiation's stored type. A trait is 1, 0, or -1 when it cannot be
 * told without the compiler's overload resolution. */
typedef struct hl_instance {
  char *type;    /* spelled as clang prints it ("(lambda at f.hpp:3:9)") */
  char *to;      /* a conversion's: the type it converts to, else NULL */
  int inside;    /* a conversion's, to a library class whose constructor
                        template takes the argument as it is (std::variant's
                        converting constructor): the class may convert it
                        further inside, to a wrapper of its own (a
                        std::function alternative), which this does not
                        follow */
  int uncertain; /* a conversion's, found only past a template of the
                        code's own that deduces its parameter from the
                        argument: whether the probe's proxy gets there
                        depends on that template's constraints (an
                        enable_if on the argument's type), which only
                        overload resolution with the proxy tells */
  long size, align;
  int trivially_copyable, nothrow_copy, nothrow_move;
  char *poi_file; /* where the instantiation was first requested */
  unsigned poi_offset;
  /* The probe parse's chain (engine/inst/inst.h, hl_inst_answer), read from
   * the AST: entry 0 is the store, then each point of instantiation
   * outward, through the specialization of the template code there that
   * requested the previous one, up to code that is no template. nchain is
   * 0 when that cannot be followed (an implicit call, a generic lambda's
   * body). Per entry: the file as the unit names it, the byte offset, in a
   * system header, and what the specialization instantiated there carries
   * (inst.h's carries: 1 its name holds the stored type, 0 a function
   * template specialization, 2 a member of a class template, 3 a generic
   * lambda's operator()). */
  size_t nchain;
  char **chain_file;
  unsigned *chain_offset;
  char *in_system;
  char *carries;
  const char *no_chain; /* why nchain is 0 (a static string) */
} hl_instance;

/* What reading one unit remembers between its questions (the declarations
 * found around expressions and at points of instantiation, an index of the
 * unit's references to instantiated functions): opened per unit by the
 * unit's arbiter, closed before the unit is disposed; one unit on one
 * thread. */
typedef struct hl_instances_session hl_instances_session;
hl_instances_session *hl_instances_open(void);
void hl_instances_close(hl_instances_session *s);

/* Whether this process's libclang and the libclang-cpp this module calls
 * are the same clang (else every answer is "cannot tell"). */
int hl_instances_usable(void);

/* One line for --version: whether this reader was built and is usable. */
const char *hl_instances_status(void);

/* The instantiations of the template code that holds the expression e (a
 * cursor of a parsed unit), and e's type in each (references and const
 * dropped, as a forwarding reference takes it). Returns how many (0: none
 * was instantiated), or -1 with *why when that cannot be told exactly (a
 * template this module does not follow, a type without a layout). Free with
 * hl_instances_free. */
long hl_instances_of_expr(hl_instances_session *s, CXCursor e, hl_instance **out, const char **why);

/* A conversion probe's question (engine/inst/inst.h, hl_inst_ask_conversion):
 * in each instantiation of the call, what the argument arg is converted
 * to, as the probe's proxy would be: to the parameter's type (by value or
 * a const or rvalue reference), or, handed to a library template that
 * deduces its parameter from it, wherever that template constructs
 * something from it, and through the code's own templates to the
 * library's (conversions in the code's own templates are theirs, as the
 * probe parse drops them); a conversion reached only through them is
 * marked uncertain. One instance per type converted to (to), with the argument's type,
 * layout and traits, and a chain whose entry 0 is the argument. With
 * as_type ("decltype(this->m)") the conversion is to that member's type.
 * wrappers (nwrappers names, "std::function"; none: every class) are what
 * the conversions are asked about: in the code's own template, a library
 * class that is none of them built from the value as it is makes the
 * answer untold (it may build one of them inside). */
long hl_instances_of_conversion(hl_instances_session *s, CXCursor call, CXCursor arg, const char *as_type,
                                const char *const *wrappers, size_t nwrappers, hl_instance **out, const char **why);
void hl_instances_free(hl_instance *v, long n);

#ifdef __cplusplus
}
#endif

#endif
