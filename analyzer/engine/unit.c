#include "engine/unit.h"

#include "engine/ast.h"

int hl_unit_loc(const hl_unit *u, CXSourceLocation loc, hl_loc *out) {
  CXFile file;
  unsigned line, col, offset;
  clang_getFileLocation(loc, &file, &line, &col, &offset);
  if (!file) return -1;
  out->file = hl_file_abspath(file, u->job->directory);
  out->line = line;
  out->col = col;
  out->offset = offset;
  return 0;
}

static unsigned offset_of(CXSourceLocation at) {
  unsigned offset = 0;
  clang_getFileLocation(at, NULL, NULL, NULL, &offset);
  return offset;
}

/* Whether tu has an error in its main file at or after offset end. */
static int error_from(CXTranslationUnit tu, size_t end) {
  int found = 0;
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n && !found; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    CXSourceLocation at = clang_getDiagnosticLocation(d);
    found = clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error && clang_Location_isFromMainFile(at) &&
            offset_of(at) >= end;
    clang_disposeDiagnostic(d);
  }
  return found;
}

static enum CXChildVisitResult last_in_main(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  if (clang_Location_isFromMainFile(clang_getCursorLocation(c))) *(CXCursor *)data = c;
  return CXChildVisit_Continue;
}

size_t hl_unit_questions_at(const hl_unit *u, const char *text, size_t len) {
  size_t end = len;
  while (end && (text[end - 1] == ' ' || text[end - 1] == '\t' || text[end - 1] == '\n' || text[end - 1] == '\r'))
    end--;
  if (!error_from(u->tu, end)) return len;
  /* The declaration left open is the last one (its extent may end before
   * what is open in it: "int f( {"); a declaration's types after an error
   * are not trusted anyway. */
  CXCursor last = clang_getNullCursor();
  clang_visitChildren(clang_getTranslationUnitCursor(u->tu), last_in_main, &last);
  size_t from = clang_Cursor_isNull(last) ? 0 : offset_of(clang_getRangeStart(clang_getCursorExtent(last)));
  return from < len ? from : len;
}
