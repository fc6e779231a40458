/* broken: the parts of a translation unit with compile errors that no rule
 * may judge. clang recovers from an error by dropping what it could not
 * build, silently: a capture naming an undeclared variable vanishes from
 * the lambda (whose size then looks smaller), a class with a member of an
 * unknown type is "invalid" with a size of 1, an expression around an error
 * gets a dependent type outside any template. A site built on any of that
 * would be judged on types the code does not have, so the walker does not
 * show the rules an expression or a variable whose source holds one: an
 * error's own place, a use of an invalid declaration or of an invalid class
 * (a member, base or template argument of it too), a lambda that lost a
 * capture. Found once per unit that has errors. */
#ifndef HEAPLINT_ENGINE_BROKEN_H
#define HEAPLINT_ENGINE_BROKEN_H

#include <clang-c/Index.h>

typedef struct hl_broken hl_broken;

/* The broken places of tu (call only for a unit with errors). */
hl_broken *hl_broken_find(CXTranslationUnit tu);
/* Whether c is an expression or a variable whose source holds a broken
 * place (then no rule sees it; its children are still walked). */
int hl_broken_covers(const hl_broken *b, CXCursor c);
void hl_broken_free(hl_broken *b);

#endif
