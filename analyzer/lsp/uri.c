#include "lsp/uri.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static int hex(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = tolower(c);
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

char *lsp_uri_path(const char *uri) {
  if (strncmp(uri, "file://", 7)) return NULL;
  const char *p = uri + 7;
  /* file://localhost/path names the same file as file:///path. */
  if (!strncmp(p, "localhost/", 10)) p += 9;
  if (*p != '/') return NULL;
  hl_sb b = {0};
  for (; *p && *p != '?' && *p != '#'; p++) {
    int h, l;
    if (*p == '%' && (h = hex(p[1])) >= 0 && (l = hex(p[2])) >= 0) {
      /* "%00" would end the path there: a.cc%00.txt is not a.cc. */
      if (h == 0 && l == 0) {
        hl_sb_free(&b);
        return NULL;
      }
      hl_sb_putc(&b, (char)(h * 16 + l));
      p += 2;
    } else {
      hl_sb_putc(&b, *p);
    }
  }
  return hl_sb_take(&b);
}

char *lsp_path_uri(const char *path) {
  char *esc = hl_uri_escape(path);
  char *uri = hl_xasprintf("file://%s", esc);
  free(esc);
  return uri;
}
