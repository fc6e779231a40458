#include "lsp/rpc.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/util.h"

/* One header line without its line break; NULL at the end of the input. */
static char *header_line(FILE *in, int *eof) {
  hl_sb b = {0};
  int c;
  while ((c = getc(in)) != EOF && c != '\n') {
    if (b.len < 4096) hl_sb_putc(&b, (char)c);
  }
  if (c == EOF && b.len == 0) {
    *eof = 1;
    hl_sb_free(&b);
    return NULL;
  }
  if (b.len && b.s[b.len - 1] == '\r') b.s[--b.len] = '\0';
  return hl_sb_take(&b);
}

int lsp_rpc_read(FILE *in, char **body, size_t *len, char **err) {
  long long length = -1;
  int eof = 0, lines = 0;
  char *line;
  while ((line = header_line(in, &eof))) {
    if (!*line) {
      free(line);
      /* Blank lines between messages are no header. */
      if (lines) break;
      continue;
    }
    lines++;
    if (!strncasecmp(line, "Content-Length:", 15)) {
      char *end;
      length = strtoll(line + 15, &end, 10);
      while (*end == ' ' || *end == '\t') end++;
      if (*end || length < 0) length = -2;
    }
    free(line);
  }
  if (eof && lines == 0) return 0;
  if (length < 0 || (size_t)length > LSP_MAX_MESSAGE) {
    *err = length == -1 ? hl_xstrdup("the message has no Content-Length header")
                        : hl_xstrdup("the message's Content-Length is not a size heaplint accepts");
    return -1;
  }
  char *b = hl_xmalloc((size_t)length + 1);
  size_t got = fread(b, 1, (size_t)length, in);
  if (got < (size_t)length) {
    free(b);
    return 0;
  }
  b[length] = '\0';
  *body = b;
  *len = (size_t)length;
  return 1;
}

int lsp_rpc_write(FILE *out, const json_t *msg) {
  char *text = json_dumps(msg, JSON_COMPACT);
  if (!text) return -1;
  size_t n = strlen(text);
  int ok = fprintf(out, "Content-Length: %zu\r\n\r\n", n) > 0 && fwrite(text, 1, n, out) == n && fflush(out) == 0;
  free(text);
  return ok ? 0 : -1;
}
