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
