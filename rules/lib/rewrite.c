#include "rules/lib/rewrite.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* The parsed contents of the file at path, from the translation unit. */
static const char *contents(hl_ctx *ctx, const char *path, CXFile *file, size_t *size) {
  *file = clang_getFile(hl_ctx_tu(ctx), path);
  if (!*file) return NULL;
  return clang_getFileContents(hl_ctx_tu(ctx), *file, size);
}

typedef struct refs {
  const char *name;
  CXCursor found; /* TemplateRef to the template */
  CXCursor alias; /* TypeRef to a typedef or alias */
} refs;

static enum CXChildVisitResult find_ref(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  refs *r = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_TemplateRef && clang_Cursor_isNull(r->found)) {
    char *n = hl_decl_name(clang_getCursorReferenced(c));
    if (!strcmp(n, r->name)) r->found = c;
    free(n);
  } else if (k == CXCursor_TypeRef && clang_Cursor_isNull(r->alias)) {
    enum CXCursorKind rk = clang_getCursorKind(clang_getCursorReferenced(c));
    if (rk == CXCursor_TypedefDecl || rk == CXCursor_TypeAliasDecl) r->alias = c;
  }
  /* Only the declared type: not the initializer. */
  return (k == CXCursor_TemplateRef || k == CXCursor_TypeRef || k == CXCursor_NamespaceRef) ? CXChildVisit_Continue
                                                                                            : CXChildVisit_Break;
}

/* Another name declared in the same declaration as decl ("T a, b;"): its
 * extent starts where decl's does, at the shared type. Only the cursors of
 * decl's own file are walked. */
typedef struct sibling_walk {
  CXCursor decl;
  CXFile file;
  unsigned offset;
  CXCursor found;
} sibling_walk;

/* A statement's declarations ("T a = ..., b;"): libclang gives the second
 * one an extent that starts at its own name, so they are found here. */
typedef struct stmt_decls {
  CXCursor decl, other;
  int has_decl;
} stmt_decls;

static enum CXChildVisitResult stmt_decl(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  stmt_decls *s = d;
  if (clang_getCursorKind(c) != CXCursor_VarDecl) return CXChildVisit_Continue;
  if (clang_equalCursors(c, s->decl))
    s->has_decl = 1;
  else if (clang_Cursor_isNull(s->other))
    s->other = c;
  return CXChildVisit_Continue;
}

static enum CXChildVisitResult find_sibling(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  sibling_walk *w = d;
  CXFile f;
  clang_getSpellingLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
  if (!f || !clang_File_isEqual(f, w->file)) return CXChildVisit_Continue;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_DeclStmt) {
    stmt_decls s = {w->decl, clang_getNullCursor(), 0};
    clang_visitChildren(c, stmt_decl, &s);
    if (s.has_decl) {
      w->found = s.other; /* null when decl is alone */
      return CXChildVisit_Break;
    }
  }
  if ((k == CXCursor_VarDecl || k == CXCursor_FieldDecl) && !clang_equalCursors(c, w->decl)) {
    unsigned o;
    clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(c)), &f, NULL, NULL, &o);
    if (f && clang_File_isEqual(f, w->file) && o == w->offset) {
      w->found = c;
      return CXChildVisit_Break;
    }
  }
  return CXChildVisit_Recurse;
}

static char *declared_with(CXCursor decl) {
  sibling_walk w = {decl, NULL, 0, clang_getNullCursor()};
  clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(decl)), &w.file, NULL, NULL, &w.offset);
  if (!w.file) return NULL;
  clang_visitChildren(clang_getCursorSemanticParent(decl), find_sibling, &w);
  return clang_Cursor_isNull(w.found) ? NULL : hl_cxstring_take(clang_getCursorSpelling(w.found));
}

/* Back from off (a template's name) over its qualification (std::,
 * ::std::): where the qualified name starts. */
static unsigned qualified_start(const char *text, unsigned off) {
  unsigned start = off;
  for (;;) {
    unsigned p = start;
    while (p > 0 && isspace((unsigned char)text[p - 1])) p--;
    if (p < 2 || text[p - 1] != ':' || text[p - 2] != ':') break;
    p -= 2;
    start = p;
    while (p > 0 && isspace((unsigned char)text[p - 1])) p--;
    unsigned id_end = p;
    while (p > 0 && (isalnum((unsigned char)text[p - 1]) || text[p - 1] == '_')) p--;
    if (p == id_end) break; /* a leading "::" */
    start = p;
  }
  return start;
}

/* A comment inside the qualified name stops qualified_start: behind it is
 * still "::" (std::/ *c* /function) or, before a "::" the scan stopped
 * at, the qualifier's identifier (std / *c* / ::function). Only then is
 * the name cut; a comment before the whole type, or a label's ':', is
 * not part of it. */
static int comment_in_name(const char *text, unsigned start) {
  unsigned before = start;
  int comment = 0;
  for (;;) {
    while (before > 0 && isspace((unsigned char)text[before - 1])) before--;
    if (before < 4 || text[before - 1] != '/' || text[before - 2] != '*') break;
    unsigned open = before - 2;
    while (open >= 2 && !(text[open - 2] == '/' && text[open - 1] == '*')) open--;
    if (open < 2) break;
    before = open - 2;
    comment = 1;
  }
  return comment &&
         ((before >= 2 && text[before - 1] == ':' && text[before - 2] == ':') ||
          (text[start] == ':' && before > 0 && (isalnum((unsigned char)text[before - 1]) || text[before - 1] == '_')));
}

/* Forward from off (a template's name) over its template arguments to the
 * matching '>' (which may be half of a '>>'): the offset after it, or 0. */
static unsigned template_args_end(const char *text, size_t size, unsigned off) {
  unsigned p = off;
  while (p < size && (isalnum((unsigned char)text[p]) || text[p] == '_')) p++;
  while (p < size && isspace((unsigned char)text[p])) p++;
  if (p >= size || text[p] != '<') return 0;
  int angle = 0, paren = 0;
  for (; p < size; p++) {
    char ch = text[p];
    if (ch == '(' || ch == '[' || ch == '{')
      paren++;
    else if (ch == ')' || ch == ']' || ch == '}')
      paren--;
    else if (paren == 0 && ch == '<')
      angle++;
    else if (paren == 0 && ch == '>' && --angle == 0)
      return p + 1;
  }
  return 0;
}

int hl_rewrite_template_range(hl_ctx *ctx, CXCursor decl, const char *template_name, hl_edit *e, char **written,
                              char **alias, char **reason) {
  memset(e, 0, sizeof *e);
  *written = NULL;
  *alias = NULL;
  *reason = NULL;
  refs r = {template_name, clang_getNullCursor(), clang_getNullCursor()};
  clang_visitChildren(decl, find_ref, &r);
  if (clang_Cursor_isNull(r.found)) {
    if (clang_Cursor_isNull(r.alias)) return -1;
    *alias = hl_cxstring_take(clang_getCursorSpelling(clang_getCursorReferenced(r.alias)));
    return 1;
  }
  /* A template named inside a macro cannot be edited where it is written:
   * in its body, nor in an argument, where the new type's comma would split
   * the argument in two. */
  CXSourceLocation at = clang_getCursorLocation(r.found);
  CXFile file;
  unsigned line, off;
  clang_getSpellingLocation(at, &file, &line, NULL, &off);
  CXFile efile, xfile;
  unsigned eoff, xoff;
  clang_getFileLocation(at, &efile, NULL, NULL, &eoff);
  clang_getExpansionLocation(at, &xfile, NULL, NULL, &xoff);
  if (!file || eoff != off) return -1;
  if (xoff != off || !xfile || !clang_File_isEqual(xfile, file)) {
    *reason = hl_xstrdup("its type is written in a macro's argument, where the new type's comma would split it");
    return -1;
  }
  char *sibling = declared_with(decl);
  if (sibling) {
    *reason = hl_xasprintf("its declaration also declares '%s'; declare it on its own", sibling);
    free(sibling);
    return -1;
  }
  size_t size;
  const char *text = clang_getFileContents(hl_ctx_tu(ctx), file, &size);
  if (!text || off >= size) return -1;

  /* Back over the qualification, forward over the template arguments. */
  unsigned start = qualified_start(text, off);
  if (comment_in_name(text, start)) {
    *reason = hl_xstrdup("a comment is written inside its type's name");
    return -1;
  }
  unsigned end = template_args_end(text, size, off);
  if (!end) return -1;
  e->file = hl_file_abspath(file, hl_ctx_job(ctx)->directory);
  e->offset = start;
  e->length = end - start;
  /* The qualification may start on an earlier line (std::\n function). */
  e->line = line;
  for (unsigned q = start; q < off; q++)
    if (text[q] == '\n' || (text[q] == '\r' && text[q + 1] != '\n')) e->line--;
  unsigned bol = start;
  while (bol > 0 && text[bol - 1] != '\n' && text[bol - 1] != '\r') bol--;
  e->col = start - bol + 1;
  e->file_hash = hl_fnv1a(text, size);
  *written = hl_xstrndup(text + start, end - start);
  return 0;
}

int hl_rewrite_type(hl_ctx *ctx, CXCursor decl, const char *template_name, hl_edit *e, char **written, char **why) {
  char *alias = NULL;
  int r = hl_rewrite_template_range(ctx, decl, template_name, e, written, &alias, why);
  if (r == 1)
    *why =
        hl_xasprintf("its type is spelled through the alias '%s', which other code may use; retype the alias", alias);
  free(alias);
  return r == 0 ? 0 : -1;
}

int hl_rewrite_span(hl_ctx *ctx, CXFile file, unsigned start, unsigned end, hl_edit *e) {
  memset(e, 0, sizeof *e);
  size_t size;
  const char *text = file ? clang_getFileContents(hl_ctx_tu(ctx), file, &size) : NULL;
  if (!text || end < start || end > size) return -1;
  e->file = hl_file_abspath(file, hl_ctx_job(ctx)->directory);
  e->offset = start;
  e->length = end - start;
  e->line = 1;
  size_t bol = 0, content;
  for (size_t next; bol < start; bol = next) {
    next = hl_line_end(text, size, bol, &content);
    if (bol + content == next || next > start) break; /* the last line, or start's */
    e->line++;
  }
  e->col = start - (unsigned)bol + 1;
  e->file_hash = hl_fnv1a(text, size);
  return 0;
}

int hl_rewrite_spelled_at(CXSourceLocation loc, CXFile *file, unsigned *off) {
  CXFile sf;
  unsigned soff;
  clang_getSpellingLocation(loc, &sf, NULL, NULL, &soff);
  clang_getFileLocation(loc, file, NULL, NULL, off);
  return *file && sf && clang_File_isEqual(sf, *file) && soff == *off;
}

int hl_rewrite_extent(hl_ctx *ctx, CXCursor c, hl_edit *e, const char **text) {
  CXSourceRange r = clang_getCursorExtent(c);
  CXFile f1, f2;
  unsigned start, end;
  size_t size;
  memset(e, 0, sizeof *e);
  if (!hl_rewrite_spelled_at(clang_getRangeStart(r), &f1, &start) ||
      !hl_rewrite_spelled_at(clang_getRangeEnd(r), &f2, &end) || !clang_File_isEqual(f1, f2) ||
      !(*text = clang_getFileContents(hl_ctx_tu(ctx), f1, &size)))
    return -1;
  return hl_rewrite_span(ctx, f1, start, end, e);
}

/* A line's first token is a directive named d ("include", "pragma"). */
static int directive(const char *line, size_t n, const char *d, const char **rest) {
  size_t i = 0;
  while (i < n && isspace((unsigned char)line[i])) i++;
  if (i >= n || line[i] != '#') return 0;
  i++;
  while (i < n && isspace((unsigned char)line[i])) i++;
  size_t dl = strlen(d);
  if (n - i < dl || strncmp(line + i, d, dl) || (i + dl < n && isalnum((unsigned char)line[i + dl]))) return 0;
  if (rest) *rest = line + i + dl;
  return 1;
}

/* "#pragma once", with rest the text after "pragma" up to the line's end. */
static int once(const char *rest, size_t n) {
  size_t i = 0;
  while (i < n && isspace((unsigned char)rest[i])) i++;
  return n - i >= 4 && !strncmp(rest + i, "once", 4) && (n - i == 4 || !isalnum((unsigned char)rest[i + 4]));
}

/* The next line of text from *pos: its length n, whether it starts inside a
 * block comment, and whether it has anything outside comments. */
static int next_line(const char *text, size_t size, size_t *pos, int *in_comment, const char **line, size_t *n,
                     int *starts_in_comment, int *code) {
  if (*pos >= size) return 0;
  size_t end = hl_line_end(text, size, *pos, NULL);
  *line = text + *pos;
  *n = end - *pos;
  *starts_in_comment = *in_comment;
  *code = 0;
  for (size_t i = 0; i < *n; i++) {
    char c = (*line)[i], d = i + 1 < *n ? (*line)[i + 1] : 0;
    if (*in_comment) {
      if (c == '*' && d == '/') *in_comment = 0, i++;
    } else if (c == '/' && d == '/') {
      break;
    } else if (c == '/' && d == '*') {
      *in_comment = 1, i++;
    } else if (!isspace((unsigned char)c)) {
      *code = 1;
    }
  }
  *pos = end;
  return 1;
}

/* The macro a directive names (its rest after the directive word). */
static size_t macro_name(const char *rest, size_t n, const char **name) {
  size_t i = 0;
  while (i < n && (rest[i] == ' ' || rest[i] == '\t')) i++;
  *name = rest + i;
  size_t j = i;
  while (j < n && (isalnum((unsigned char)rest[j]) || rest[j] == '_')) j++;
  return j - i;
}

/* Whether the file is wrapped in an include guard: its first code is
 * "#ifndef X", the next "#define X", and the #endif closing that #ifndef is
 * the last code in the file. A leading "#ifndef NDEBUG" block is not one. */
static int include_guarded(const char *text, size_t size) {
  size_t pos = 0, n, len = 0;
  int in_comment = 0, starts_in_comment, code, state = 0, depth = 0;
  const char *line, *rest, *name = NULL;
  while (next_line(text, size, &pos, &in_comment, &line, &n, &starts_in_comment, &code)) {
    if (!code) continue;
    if (state == 3) return 0; /* code after the guard's #endif */
    if (starts_in_comment) return 0;
    if (state == 0) {
      if (!directive(line, n, "ifndef", &rest)) return 0;
      len = macro_name(rest, (size_t)(line + n - rest), &name);
      if (!len) return 0;
      state = 1, depth = 1;
    } else if (state == 1) {
      const char *defined;
      if (!directive(line, n, "define", &rest) || macro_name(rest, (size_t)(line + n - rest), &defined) != len ||
          strncmp(defined, name, len))
        return 0;
      state = 2;
    } else if (directive(line, n, "if", NULL) || directive(line, n, "ifdef", NULL) ||
               directive(line, n, "ifndef", NULL)) {
      depth++;
    } else if (directive(line, n, "endif", NULL) && --depth == 0) {
      state = 3;
    }
  }
  return state == 3;
}

/* Follows a line of n bytes: *in_comment says whether a block comment is
 * open at its end. */
static void track_comment(const char *line, size_t n, int *in_comment) {
  for (size_t i = 0; i + 1 < n; i++) {
    if (!*in_comment && line[i] == '/' && line[i + 1] == '/') break;
    if (!*in_comment && line[i] == '/' && line[i + 1] == '*')
      *in_comment = 1, i++;
    else if (*in_comment && line[i] == '*' && line[i + 1] == '/')
      *in_comment = 0, i++;
  }
}

/* The line break that ends at end ("\n" when none does: the top of the
 * file, or its last line without one). */
static const char *line_break(const char *text, size_t end) {
  if (end > 0 && text[end - 1] == '\r') return "\r";
  return end > 1 && text[end - 1] == '\n' && text[end - 2] == '\r' ? "\r\n" : "\n";
}

int hl_rewrite_include(hl_ctx *ctx, const char *file, const char *header, hl_edit *e) {
  memset(e, 0, sizeof *e);
  CXFile f;
  size_t size;
  const char *text = contents(ctx, file, &f, &size);
  if (!text) return -1;
  /* A UTF-8 byte order mark stays first: the scan and the insertion start
   * after it. */
  const char *whole = text;
  size_t whole_size = size, bom = size >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
  text += bom;
  size -= bom;
  char *angled = hl_xasprintf("<%s>", header), *quoted = hl_xasprintf("\"%s\"", header);
  /* Scan the directives at the top level (depth 0, or 1 inside an include
   * guard): the insertion goes after the last #include among them, else
   * after the guard's #define or #pragma once, else at the top. */
  int depth = 0, guard = 0, in_comment = 0, present = 0;
  size_t after_include = (size_t)-1, after_guard = 0, line_no = 0, insert_line = 0, guard_line = 0;
  int first_directive = 1, guarded = include_guarded(text, size);
  for (size_t pos = 0; pos < size;) {
    size_t end = hl_line_end(text, size, pos, NULL), n = end - pos;
    const char *line = text + pos, *rest;
    line_no++;
    /* Block comments spanning lines are skipped whole. */
    int was_comment = in_comment;
    track_comment(line, n, &in_comment);
    if (!was_comment) {
      if (directive(line, n, "if", NULL) || directive(line, n, "ifdef", NULL) || directive(line, n, "ifndef", NULL)) {
        if (first_directive && guarded && directive(line, n, "ifndef", NULL)) guard = 1;
        depth++;
        first_directive = 0;
      } else if (directive(line, n, "endif", NULL)) {
        depth--;
      } else if (guard == 1 && directive(line, n, "define", NULL)) {
        guard = 2;
        after_guard = end;
        guard_line = line_no;
      } else if (directive(line, n, "pragma", &rest) && !guard && once(rest, (size_t)(line + n - rest))) {
        after_guard = end;
        guard_line = line_no;
        first_directive = 0;
      } else if (directive(line, n, "include", &rest)) {
        char *target = hl_xstrndup(rest, (size_t)(line + n - rest));
        if (strstr(target, angled) || strstr(target, quoted)) present = 1;
        free(target);
        if (depth == (guard ? 1 : 0)) {
          after_include = end;
          insert_line = line_no + 1;
        }
        first_directive = 0;
      } else if (line[strspn(line, " \t")] == '#') {
        first_directive = 0;
      }
    }
    pos = end;
  }
  free(angled);
  free(quoted);
  if (present) return 1;
  size_t at = after_include != (size_t)-1 ? after_include : after_guard;
  unsigned line = after_include != (size_t)-1 ? (unsigned)insert_line : (unsigned)guard_line + 1;
  int needs_newline = at > 0 && text[at - 1] != '\n' && text[at - 1] != '\r';
  /* The file's own line ending: that of the line the include follows, else
   * the first one in the file (a CRLF file stays CRLF, a CR file CR). */
  int after_break = at > 0 && !needs_newline;
  const char *eol = line_break(text, after_break ? at : hl_line_end(text, size, 0, NULL));
  e->file = hl_xstrdup(file);
  e->offset = (unsigned)(at + bom);
  e->length = 0;
  e->line = line ? line : 1;
  e->col = 1;
  e->text = hl_xasprintf("%s#include <%s>%s", needs_newline ? eol : "", header, eol);
  e->file_hash = hl_fnv1a(whole, whole_size);
  return 0;
}
