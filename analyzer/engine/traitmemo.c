#include "engine/traitmemo.h"

#include <stdlib.h>
#include <string.h>

#include "engine/ast.h"
#include "util/util.h"

typedef struct kept {
  char *spelling;
  unsigned long long salt;
  unsigned bits;
} kept;

struct hl_trait_memo {
  unsigned long long key;
  kept *v;
  size_t n, cap;
};

hl_trait_memo *hl_trait_memo_new(void) { return hl_xcalloc(1, sizeof(hl_trait_memo)); }

static void clear(hl_trait_memo *m) {
  for (size_t i = 0; i < m->n; i++) free(m->v[i].spelling);
  m->n = 0;
}

void hl_trait_memo_free(hl_trait_memo *m) {
  if (!m) return;
  clear(m);
  free(m->v);
  free(m);
}

void hl_trait_memo_rekey(hl_trait_memo *m, unsigned long long key) {
  if (m->key != key) clear(m);
  m->key = key;
}

int hl_trait_memo_get(const hl_trait_memo *m, const char *spelling, unsigned long long salt, unsigned *bits) {
  for (size_t i = 0; m && i < m->n; i++)
    if (m->v[i].salt == salt && !strcmp(m->v[i].spelling, spelling)) {
      *bits = m->v[i].bits;
      return 1;
    }
  return 0;
}

void hl_trait_memo_put(hl_trait_memo *m, const char *spelling, unsigned long long salt, unsigned bits) {
  unsigned old;
  if (!m || hl_trait_memo_get(m, spelling, salt, &old)) return;
  kept k = {hl_xstrdup(spelling), salt, bits};
  HL_PUSH(m->v, m->n, m->cap, k);
}

/* The tokens of a declaration of the main file, hashed into *salt. */
static void salt_with(CXCursor d, unsigned long long *salt) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(d);
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(tu, clang_getCursorExtent(d), &toks, &n);
  for (unsigned i = 0; i < n; i++) {
    CXString sp = clang_getTokenSpelling(tu, toks[i]);
    const char *c = clang_getCString(sp);
    if (c) *salt = hl_fnv1a_more(*salt, c, strlen(c) + 1);
    clang_disposeString(sp);
  }
  clang_disposeTokens(tu, toks, n);
}

/* ptr: t is named through a pointer, a reference or a member pointer,
 * whose traits do not depend on what it points to: a class of the main
 * file is then allowed, its declaration's tokens salting the answer (an
 * edit of that class asks again). */
static int portable(CXType t, int depth, int ptr, unsigned long long *salt) {
  if (depth > 24) return 0;
  t = clang_getCanonicalType(t);
  switch (t.kind) {
  case CXType_Pointer:
  case CXType_LValueReference:
  case CXType_RValueReference:
  case CXType_BlockPointer: return portable(clang_getPointeeType(t), depth + 1, 1, salt);
  case CXType_MemberPointer:
    return portable(clang_getPointeeType(t), depth + 1, 1, salt) &&
           portable(clang_Type_getClassType(t), depth + 1, 1, salt);
  case CXType_ConstantArray:
  case CXType_IncompleteArray: return portable(clang_getArrayElementType(t), depth + 1, ptr, salt);
  case CXType_FunctionProto:
  case CXType_FunctionNoProto: {
    int n = clang_getNumArgTypes(t);
    for (int i = 0; i < n; i++)
      if (!portable(clang_getArgType(t, (unsigned)i), depth + 1, ptr, salt)) return 0;
    return portable(clang_getResultType(t), depth + 1, ptr, salt);
  }
  default: break;
  }
  if (t.kind >= CXType_FirstBuiltin && t.kind <= CXType_LastBuiltin) return 1;
  CXCursor d = clang_getTypeDeclaration(t);
  if (clang_Cursor_isNull(d) || clang_getCursorKind(d) == CXCursor_NoDeclFound) return 0;
  if (clang_Location_isFromMainFile(clang_getCursorLocation(d))) {
    if (!ptr) return 0;
    salt_with(d, salt);
  }
  int n = clang_Type_getNumTemplateArguments(t);
  for (int i = 0; i < n; i++) {
    CXType a = clang_Type_getTemplateArgumentAsType(t, (unsigned)i);
    /* A value (an int, a pointer to an object) names no type. */
    if (a.kind != CXType_Invalid && !portable(a, depth + 1, ptr, salt)) return 0;
  }
  return 1;
}

int hl_trait_memo_portable(CXType t, unsigned long long *salt) {
  *salt = 0;
  return portable(t, 0, 0, salt);
}
