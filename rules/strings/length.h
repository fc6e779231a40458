/* strings/length: what string-sso knows of a std::basic_string before it is
 * built — its character type and allocator, and the length, known at
 * compile time, of what it is built from: a string literal (also "..."s),
 * a const std::string_view initialized from one (also "..."sv), a count of
 * characters (std::string(40, 'x')), or a concatenation of such pieces
 * with operator+. A concatenation may also hold lvalue strings and
 * pointers of unknown length: each such operator+ makes a new string, so
 * the pieces that are known give a lower bound. A string rvalue of unknown
 * origin (a call's result, std::move) may already have room: nothing is
 * known then. */
#ifndef HEAPLINT_RULES_STRINGS_LENGTH_H
#define HEAPLINT_RULES_STRINGS_LENGTH_H

#include "engine/rule.h"

/* A std::basic_string with the default allocator: its character type as
 * C++ spells it ("char", "wchar_t", "char8_t", "char16_t", "char32_t"),
 * NULL for any other type, and whether its traits are std::char_traits. */
const char *hl_string_char_type(CXType t, int *std_traits);

typedef struct hl_strlen {
  long min;         /* characters, at least */
  int exact;        /* min is the length */
  int constant;     /* every piece is a constant: the same string on every run */
  const char *what; /* static: "a string literal", "a concatenation", ... */
  CXCursor literal; /* the source is this one string literal (a plain one, no
                        suffix), or a null cursor */
} hl_strlen;

/* The length of the string a construction of a basic_string (call, a
 * CallExpr to one of its constructors) makes. Returns 0, or -1 when it is
 * not known (or the constructor is a copy or a move). */
int hl_strlen_construct(hl_ctx *ctx, CXCursor call, hl_strlen *out);

/* The same for a call of operator+ that yields a basic_string, or of the
 * literal operator ""s. */
int hl_strlen_call(hl_ctx *ctx, CXCursor call, hl_strlen *out);

/* The length of a source the string is assigned from (operator=, assign):
 * a literal, a std::string_view constant. */
int hl_strlen_source(hl_ctx *ctx, CXCursor e, hl_strlen *out);

/* Whether call is operator+ yielding a basic_string: a piece of a
 * concatenation is judged with the whole. */
int hl_strlen_is_concat(CXCursor call);

/* e, through implicit conversions, parentheses and a functional cast
 * (std::string(...)), which only name the construction inside. */
CXCursor hl_strlen_operand(CXCursor e);

#endif
