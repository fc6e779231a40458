/* rewrite: the source edits the rules' fixes are made of — the range of a
 * template type as a declaration writes it, and where an #include goes in
 * a file (after its last top-level #include, inside its include guard or
 * after #pragma once). Edits carry the hash of the file as libclang parsed
 * it, so --fix can refuse a file that changed since. */
#ifndef HEAPLINT_RULES_REWRITE_H
#define HEAPLINT_RULES_REWRITE_H

#include "engine/rule.h"

/* The range of the template-id naming template_name (qualified, without
 * inline namespaces: "std::function") as decl's type writes it — directly,
 * or as a template argument ("std::vector<std::function<void()>>").
 * Returns 0 with e's file, offset, length, line, col and hash set (text
 * NULL) and *written the text; 1 when decl's type names it only through an
 * alias (*alias set to the alias's name); -1 otherwise, with *reason (to
 * free) when it can say why the type may not be edited: written in a
 * macro's argument, declared together with another name ("T a, b;"), a
 * comment inside the name. */
int hl_rewrite_template_range(hl_ctx *ctx, CXCursor decl, const char *template_name, hl_edit *e, char **written,
                              char **alias, char **reason);

/* hl_rewrite_template_range with its failures in words: returns 0 with e
 * and *written set, or -1 with *why (to free) saying why the type may not
 * be rewritten (an alias, or hl_rewrite_template_range's reason), NULL
 * when it cannot say. */
int hl_rewrite_type(hl_ctx *ctx, CXCursor decl, const char *template_name, hl_edit *e, char **written, char **why);

/* The edit replacing bytes [start, end) of file as parsed: e's file,
 * offset, length, line, col and hash (text NULL). Returns 0, or -1 when
 * the file cannot be read or the range is not in it. */
int hl_rewrite_span(hl_ctx *ctx, CXFile file, unsigned start, unsigned end, hl_edit *e);

/* Where loc is in its file (*file, *off), when that is where it is
 * spelled (not in a macro): 1, else 0. */
int hl_rewrite_spelled_at(CXSourceLocation loc, CXFile *file, unsigned *off);

/* The edit replacing c's whole extent, when c is written in one file and
 * not in a macro: e as hl_rewrite_span makes it, and *text the file's text
 * (owned by the translation unit). Returns 0, or -1. */
int hl_rewrite_extent(hl_ctx *ctx, CXCursor c, hl_edit *e, const char **text);

/* The edit that adds "#include <header>" to the file e->file (as parsed).
 * Returns 0 and sets e, 1 when the file includes it already, -1 when it
 * cannot be read. */
int hl_rewrite_include(hl_ctx *ctx, const char *file, const char *header, hl_edit *e);

#endif
