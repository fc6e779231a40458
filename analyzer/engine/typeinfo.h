/* typeinfo: layout and copy/move traits of the types a wrapper stores.
 *
 * Size and alignment come from libclang (clang_Type_getSizeOf/AlignOf) for
 * the translation unit's own target. The traits a library's inline-buffer
 * rule depends on — trivially copyable, nothrow copy constructible, nothrow
 * move constructible — are derived from the class: its user-declared special
 * members and their exception specifications, virtual functions and bases,
 * and recursively its bases and fields (a lambda's fields are its captures).
 * Each "no" carries the culprit, so a warning can say why.
 *
 * libclang shows no members of a class template's implicit instantiation
 * (std::shared_ptr<int>, std::string, a user's Holder<long>), so for those
 * the compiler itself is asked: the questions of one translation unit are
 * batched into one extra parse of it with __is_trivially_copyable /
 * __is_nothrow_constructible appended, and the answers are kept for that
 * unit only (the same spelling may name another class in another unit). A
 * type that cannot be named there (local classes, lambdas in template
 * arguments) stays unknown — and a site whose verdict hinges on an unknown
 * is never reported: no guessing. */
#ifndef HEAPLINT_TYPEINFO_H
#define HEAPLINT_TYPEINFO_H

#include <clang-c/Index.h>
#include <stddef.h>

#include "engine/ast.h"
#include "engine/unit.h"

typedef enum hl_tri { HL_NO = 0, HL_YES = 1, HL_UNKNOWN = 2 } hl_tri;

typedef struct hl_trait {
  hl_tri value;
  char *why; /* for NO and UNKNOWN: the culprit, e.g. "capture 'sp' (std::shared_ptr<int>) is not trivially copyable" */
} hl_trait;

/* nothrow_copy and nothrow_move are what std::is_nothrow_copy/move_-
 * constructible say, and so include a destructor that may throw: the
 * compilers' __is_nothrow_constructible counts it, and the libraries ask
 * exactly that. */
typedef struct hl_traits {
  hl_trait trivially_copyable, nothrow_copy, nothrow_move, nothrow_destroy;
} hl_traits;

typedef struct hl_types hl_types;

/* For one parsed translation unit (copied; what it points to outlives T):
 * a second parse sees the same unsaved files. */
hl_types *hl_types_new(const hl_unit *u, int pointer_width);
void hl_types_free(hl_types *T);

/* Strips references and top-level qualifiers; *decays is set when t is a
 * function or array type, which a wrapper stores as a pointer. */
CXType hl_type_stored(CXType t, int *decays);

/* Size and alignment in bytes of an object of type t, as a class member
 * (a reference or a pointer takes a pointer, whatever it refers to; a
 * std::shared_ptr or std::weak_ptr two, whatever it points to, also inside
 * a template; a std::function what hl_types_learn noted). Returns 0, or -1 when t has no layout (dependent,
 * incomplete). */
int hl_type_layout(const hl_types *T, CXType t, long *size, long *align);

/* Notes t's layout when t is a specialization of a class template whose
 * specializations all have one (std::function): hl_type_layout then gives
 * it to any of them, also a dependent one (std::function<void(const T &)>
 * captured inside a template). */
void hl_types_learn(hl_types *T, CXType t);

/* The traits of t. With ask, a trait only the compiler can answer is queued
 * for hl_types_answer. field_names, when given, name t's fields in order
 * (a lambda's captures). Free with hl_traits_free. */
void hl_type_traits(hl_types *T, CXType t, int ask, const char *const *field_names, size_t nnames, hl_traits *out);
void hl_traits_free(hl_traits *t);

/* How many questions are queued. */
size_t hl_types_pending(const hl_types *T);
/* Asks the compiler every queued question in one parse. Returns 0, or -1
 * with *why (the questions stay unanswered: their sites stay silent). */
int hl_types_answer(hl_types *T, char **why);

/* The queued questions as text to append to the main file of a parse
 * that happens anyway (engine/inst/probe_parse's), or NULL when none is queued;
 * then hl_types_collect reads every answer from that parse's unit, as
 * hl_types_answer would (the main file's whole text is in scope there, as
 * in hl_types_answer's sure route), and empties the queue. */
char *hl_types_query_text(const hl_types *T);
void hl_types_collect(hl_types *T, CXTranslationUnit q);

#endif
