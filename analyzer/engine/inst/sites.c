#include "engine/inst/sites.h"

#include <ctype.h>
#include <string.h>

#include "engine/ast.h"
#include "util/util.h"

static int file_offset(CXSourceLocation l, CXFile *f, unsigned *off) {
  clang_getFileLocation(l, f, NULL, NULL, off);
  return *f ? 0 : -1;
}

/* The expression's file and offsets, when they are the code's own text.
 * Returns its file's text, or NULL with *why. */
static const char *own_text(const hl_unit *u, CXCursor e, CXFile *f, unsigned *b, unsigned *end, const char **why) {
  CXSourceRange r = clang_getCursorExtent(e);
  CXFile g, sf;
  unsigned sb, line, col;
  if (file_offset(clang_getRangeStart(r), f, b) || file_offset(clang_getRangeEnd(r), &g, end) ||
      !clang_File_isEqual(*f, g) || *end <= *b) {
    *why = "the stored expression has no place in a file";
    return NULL;
  }
  /* Text spelled inside a macro's body is not the code's own text there. */
  clang_getSpellingLocation(clang_getRangeStart(r), &sf, &line, &col, &sb);
  if (!sf || !clang_File_isEqual(sf, *f) || sb != *b) {
    *why = "the stored expression comes from a macro";
    return NULL;
  }
  size_t len = 0;
  const char *text = clang_getFileContents(u->tu, *f, &len);
  if (!text || *end > len) {
    *why = "the stored expression's file cannot be read";
    return NULL;
  }
  /* A pack expansion (`p(ps...)`) is many expressions: wrapping it as one
   * breaks its function, and every instantiation that needs it. */
  size_t k = *end;
  while (k < len && (text[k] == ' ' || text[k] == '\t' || text[k] == '\n' || text[k] == '\r')) k++;
  if (clang_getCursorKind(e) == CXCursor_PackExpansionExpr || (k + 3 <= len && !strncmp(text + k, "...", 3)) ||
      (*end >= *b + 3 && !strncmp(text + *end - 3, "...", 3))) {
    *why = "the stored expression is a pack expansion";
    return NULL;
  }
  return text;
}

int hl_site_layout(const hl_unit *u, CXCursor e, hl_question *q, const char **why) {
  CXFile f;
  unsigned b, end;
  const char *text = own_text(u, e, &f, &b, &end, why);
  if (!text) return -1;
  /* Wrapped only where an expression stands alone: after '=', '(', ',',
   * '{' or return, and not a braced list (a call cannot take one through a
   * template). */
  size_t k = b;
  while (k > 0 && (text[k - 1] == ' ' || text[k - 1] == '\t' || text[k - 1] == '\n' || text[k - 1] == '\r')) k--;
  int after_return = k >= 6 && !strncmp(text + k - 6, "return", 6) && k != b &&
                     (k == 6 || !(isalnum((unsigned char)text[k - 7]) || text[k - 7] == '_'));
  if (text[b] == '{' || k == 0 || (!after_return && !strchr("=(,{", text[k - 1]))) {
    *why = "the stored expression cannot be wrapped where it stands";
    return -1;
  }
  *q =
      (hl_question){hl_file_abspath(f, u->job->directory), f, b, end, 0, 0, 0, NULL, b, 0, e, clang_getNullCursor(), 0};
  return 0;
}

/* The extent of the body of the function whose code holds offset off of
 * file f (the parent declaration libclang gives the expression there, or
 * the local variable it initializes). Returns 0 with *begin and *end, or
 * -1 (not in a function's body: a default argument, a signature). */
typedef struct body_find {
  unsigned begin, end;
  int found;
} body_find;

static enum CXChildVisitResult find_body(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  body_find *w = d;
  if (clang_getCursorKind(c) != CXCursor_CompoundStmt) return CXChildVisit_Continue;
  CXSourceRange r = clang_getCursorExtent(c);
  clang_getFileLocation(clang_getRangeStart(r), NULL, NULL, NULL, &w->begin);
  clang_getFileLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &w->end);
  w->found = 1;
  return CXChildVisit_Break;
}

static int function_body(CXTranslationUnit tu, CXFile f, unsigned off, unsigned *begin, unsigned *end) {
  CXCursor d = clang_getCursorSemanticParent(clang_getCursor(tu, clang_getLocationForOffset(tu, f, off)));
  for (int depth = 0; depth < 4 && !clang_Cursor_isNull(d); depth++) {
    enum CXCursorKind k = clang_getCursorKind(d);
    if (hl_is_function_like(k) && k != CXCursor_LambdaExpr) {
      body_find w = {0, 0, 0};
      clang_visitChildren(d, find_body, &w);
      if (!w.found) return -1;
      *begin = w.begin;
      *end = w.end;
      return 0;
    }
    if (k != CXCursor_VarDecl) return -1;
    d = clang_getCursorSemanticParent(d);
  }
  return -1;
}

static int word_before(const char *text, size_t i, const char *w) {
  size_t n = strlen(w);
  while (i > 0 && isspace((unsigned char)text[i - 1])) i--;
  return i >= n && !strncmp(text + i - n, w, n) &&
         (i == n || !(isalnum((unsigned char)text[i - n - 1]) || text[i - n - 1] == '_'));
}

/* Whether the text before a ';' (at semi) back to the statement before it
 * is a for header's (for (init; cond; ...): its ';' ends no statement). */
static int in_for_header(const char *text, size_t semi) {
  int depth = 0;
  for (size_t i = semi; i > 0; i--) {
    char c = text[i - 1];
    if (c == ')' || c == ']' || c == '}')
      depth++;
    else if (c == '(' || c == '[' || c == '{') {
      if (--depth < 0) return c == '(' && word_before(text, i - 1, "for");
    } else if (c == ';' && depth == 0) {
      /* for (a; b; ...): a second ';' back is still the header's. */
      continue;
    }
    if (depth == 0 && (c == '}' || c == '{')) return 0;
  }
  return 0;
}

/* The start of the statement that holds the call at b, when a statement of
 * its own can go there with the same names in scope: the statement begins
 * after a ';' (not a for header's), a '}' or a block's '{'; the text back
 * to it crosses no header of if/for/while/switch/catch, no lambda
 * introducer or subscript it is inside, no braced initializer it is
 * inside, no label or ternary ':', no comma of a declarator list or comma
 * operator, no literal, block comment or preprocessor line (a line's "//"
 * comment is skipped); and it does not begin with else. Returns 0 with
 * *at, or -1. */
static int statement_start(const char *text, unsigned b, unsigned *at) {
  int depth = 0;  /* ( and [ : below 0 inside a call the statement makes */
  int braces = 0; /* } seen, their { not yet */
  int comma = 0;  /* a ',' at the lowest depth so far */
  size_t i = b;
  for (; i > 0; i--) {
    char c = text[i - 1];
    if (c == '\n') {
      /* The line above: from its "//" on, a comment. */
      size_t ls = i - 1;
      while (ls > 0 && text[ls - 1] != '\n') ls--;
      for (size_t q = ls; q + 1 < i - 1; q++)
        if (text[q] == '/' && text[q + 1] == '/') {
          i = q + 1;
          break;
        }
      continue;
    }
    if (c == '"' || c == '\'' || c == '#' || (c == '/' && i >= 2 && (text[i - 2] == '/' || text[i - 2] == '*')) ||
        (c == '*' && i >= 2 && text[i - 2] == '/'))
      return -1;
    if (braces > 0) {
      /* Inside a lambda's body or a braced list of the statement. */
      if (c == '}')
        braces++;
      else if (c == '{')
        braces--;
      continue;
    }
    if (c == ')' || c == ']') {
      depth++;
    } else if (c == '(' || c == '[') {
      if (--depth < 0) {
        if (c == '[' || word_before(text, i - 1, "if") || word_before(text, i - 1, "for") ||
            word_before(text, i - 1, "while") || word_before(text, i - 1, "switch") ||
            word_before(text, i - 1, "catch") || word_before(text, i - 1, "constexpr"))
          return -1;
        comma = 0;
      }
    } else if (c == '}') {
      if (depth == 0) break;
      braces = 1;
    } else if (c == '{') {
      if (depth < 0) return -1;
      /* A block's brace, not a braced initializer's. */
      size_t k = i - 1;
      while (k > 0 && isspace((unsigned char)text[k - 1])) k--;
      char p = k > 0 ? text[k - 1] : ';';
      if (!(p == ')' || p == '{' || p == '}' || p == ';' || word_before(text, i - 1, "else") ||
            word_before(text, i - 1, "do") || word_before(text, i - 1, "try") || word_before(text, i - 1, "mutable") ||
            word_before(text, i - 1, "noexcept")))
        return -1;
      break;
    } else if (c == ';') {
      if (depth > 0 || in_for_header(text, i - 1)) return -1;
      break;
    } else if (c == ':') {
      if (!((i >= 2 && text[i - 2] == ':') || text[i] == ':')) return -1;
    } else if (c == '?' && depth == 0) {
      return -1;
    } else if (c == ',' && depth <= 0) {
      comma = 1;
    }
  }
  if (i == 0 || comma) return -1;
  while (isspace((unsigned char)text[i])) i++;
  if (!strncmp(text + i, "else", 4) && !(isalnum((unsigned char)text[i + 4]) || text[i + 4] == '_')) return -1;
  *at = (unsigned)i;
  return 0;
}

int hl_site_conversion(const hl_unit *u, CXCursor wrapped, CXCursor arg, const char *as_type, hl_question *q,
                       const char **why) {
  CXFile f, g;
  unsigned b, end, ab, aend;
  if (!own_text(u, wrapped, &f, &b, &end, why) || !own_text(u, arg, &g, &ab, &aend, why)) return -1;
  if (!clang_File_isEqual(f, g) || ab < b || aend > end) {
    *why = "the argument is not inside its call's text";
    return -1;
  }
  *q = (hl_question){hl_file_abspath(f, u->job->directory), f, b, end, 1,       ab, aend,
                     as_type ? hl_xstrdup(as_type) : NULL,  b, 0, arg, wrapped, 0};
  return 0;
}

void hl_site_statement(const hl_unit *u, hl_question *q) {
  size_t len = 0;
  const char *text = clang_getFileContents(u->tu, q->cxfile, &len);
  unsigned at;
  unsigned body_begin, body_end;
  CXFile f = q->cxfile;
  unsigned b = q->begin, end = q->end, ab = q->arg_begin, aend = q->arg_end;
  if ((!function_body(u->tu, f, ab, &body_begin, &body_end) ||
       !function_body(u->tu, f, aend > ab ? aend - 1 : ab, &body_begin, &body_end) ||
       !function_body(u->tu, f, b, &body_begin, &body_end)) &&
      !statement_start(text, b, &at) && at > body_begin && end < body_end) {
    q->copy_at = at;
    q->statement = 1;
  }
}
