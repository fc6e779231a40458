/* traitmemo: the trait answers a kept unit (the language server's) keeps
 * from one analysis to the next, so that an edit of the main file's code
 * asks the compiler again only about what it has not answered yet (issue
 * 34: keep what an edit does not change).
 *
 * An answer is kept for a type that is declared, with every type it names
 * (template arguments, pointees, a function type's parts), outside the
 * main file: std::tuple<long, std::string>, a header's Holder<int>. Such a
 * type means the same while nothing else that could change it has
 * changed; the memo's key says what that is (engine/inclusions.h): the
 * compile arguments, the main file's preprocessor lines (a macro defined
 * before an #include), and every other file the unit read (an editor's
 * unsaved text by its content, a file on disk by its identity, size and
 * modification time). A new key clears the memo. Types of the main file are asked every time,
 * unless named only through pointers (a std::bind of &Server::f and a
 * Server *: its traits are the pointers'), when the class's tokens are
 * part of the answer's key. */
#ifndef HEAPLINT_ENGINE_TRAITMEMO_H
#define HEAPLINT_ENGINE_TRAITMEMO_H

#include <clang-c/Index.h>
#include <stddef.h>

typedef struct hl_trait_memo hl_trait_memo;

hl_trait_memo *hl_trait_memo_new(void);
void hl_trait_memo_free(hl_trait_memo *m);

/* Clears m unless it was kept under key; from now on it is kept under key. */
void hl_trait_memo_rekey(hl_trait_memo *m, unsigned long long key);

/* Whether t's answer may be kept: every type it names is declared outside
 * the main file, or is a class of the main file named only through a
 * pointer, a reference or a member pointer (whose traits do not depend on
 * it): *salt then hashes that class's tokens, kept with the answer. */
int hl_trait_memo_portable(CXType t, unsigned long long *salt);

/* The bits kept for the type spelled so, with that salt: 1, or 0 when none
 * are. */
int hl_trait_memo_get(const hl_trait_memo *m, const char *spelling, unsigned long long salt, unsigned *bits);
void hl_trait_memo_put(hl_trait_memo *m, const char *spelling, unsigned long long salt, unsigned bits);

#endif
