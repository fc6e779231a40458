#include "lsp/rpc.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/util.h"

/* The header every frame has, lower case. Its first letter occurs nowhere
 * else in it, so a search that fails at any byte restarts at that byte. */
static const char length_header[] = "content-length:";
#define LENGTH_HEADER_LEN (sizeof length_header - 1)

static int next_byte(lsp_reader *r) {
  if (r->at < r->nagain) return (unsigned char)r->again[r->at++];
  if (r->again) {
    free(r->again);
    r->again = NULL;
    r->nagain = r->at = 0;
  }
  return getc(r->in);
}

/* The n bytes at p are read next, before what was to be read again. */
static void read_again(lsp_reader *r, const char *p, size_t n) {
  size_t left = r->nagain - r->at;
  char *b = hl_xmalloc(n + left + 1);
  memcpy(b, p, n);
  if (left) memcpy(b + n, r->again + r->at, left);
  free(r->again);
  r->again = b;
  r->nagain = n + left;
  r->at = 0;
}

/* Reads n bytes into b (NULL: drops them). Returns 0 when the input ended first. */
static int read_bytes(lsp_reader *r, char *b, unsigned long long n) {
  char chunk[65536];
  while (n && r->at < r->nagain) {
    size_t k = r->nagain - r->at < n ? r->nagain - r->at : (size_t)n;
    if (b) memcpy(b, r->again + r->at, k), b += k;
    r->at += k;
    n -= k;
  }
  while (n) {
    size_t want = n < sizeof chunk ? (size_t)n : sizeof chunk;
    size_t got = fread(b ? b : chunk, 1, want, r->in);
    if (got == 0) return 0;
    if (b) b += got;
    n -= got;
  }
  return 1;
}

/* Skips to the next "Content-Length:" (in any case), which is read next.
 * Returns 0 when the input ends first. */
static int find_header(lsp_reader *r) {
  size_t k = 0;
  int c;
  while ((c = next_byte(r)) != EOF) {
    c = tolower(c);
    k = c == length_header[k] ? k + 1 : c == length_header[0];
    if (k == LENGTH_HEADER_LEN) {
      read_again(r, length_header, LENGTH_HEADER_LEN);
      return 1;
    }
  }
  return 0;
}

/* Whether a header line comes next ("Name:", RFC 7230's token characters
 * before the colon): the frame that ended before it was measured right, and
 * nothing needs skipping. What it looked at is read again. */
static int header_next(lsp_reader *r) {
  char seen[65];
  size_t n = 0;
  int c = EOF;
  while (n < sizeof seen - 1 && (c = next_byte(r)) != EOF) {
    seen[n++] = (char)c;
    if (!c || (!isalnum(c) && !strchr("!#$%&'*+-.^_`|~", c))) break;
  }
  read_again(r, seen, n);
  return n > 1 && c == ':';
}

/* One header line without its line break; NULL at the end of the input.
 * A line is kept up to 4096 bytes: a bound on memory. */
static char *header_line(lsp_reader *r) {
  hl_sb b = {0};
  int c;
  while ((c = next_byte(r)) != EOF && c != '\n') {
    if (b.len < 4096) hl_sb_putc(&b, (char)c);
  }
  if (c == EOF && b.len == 0) {
    hl_sb_free(&b);
    return NULL;
  }
  if (b.len && b.s[b.len - 1] == '\r') b.s[--b.len] = '\0';
  return hl_sb_take(&b);
}

enum { NO_LENGTH = -1, BAD_LENGTH = -2, INPUT_ENDED = -3 };

/* Reads a frame's header lines. Returns its Content-Length, NO_LENGTH,
 * BAD_LENGTH (not a number of bytes), or INPUT_ENDED. */
static long long read_header(lsp_reader *r) {
  long long length = NO_LENGTH;
  int lines = 0;
  char *line;
  while ((line = header_line(r))) {
    if (!*line) {
      free(line);
      /* Blank lines between messages are no header. */
      if (lines) return length;
      continue;
    }
    lines++;
    if (!strncasecmp(line, length_header, LENGTH_HEADER_LEN)) {
      char *end;
      errno = 0;
      length = strtoll(line + LENGTH_HEADER_LEN, &end, 10);
      while (*end == ' ' || *end == '\t') end++;
      if (*end || end == line + LENGTH_HEADER_LEN || length < 0 || errno) length = BAD_LENGTH;
    }
    free(line);
  }
  return lines ? length : INPUT_ENDED;
}

/* The frame's body of length bytes, as JSON. */
static int read_body(lsp_reader *r, size_t length, json_t **msg, char **err) {
  char *b = hl_xmalloc(length + 1);
  if (!read_bytes(r, b, length)) {
    free(b);
    return 0;
  }
  json_error_t je;
  *msg = json_loadb(b, length, JSON_ALLOW_NUL, &je);
  if (!*msg) {
    *err = hl_xasprintf(
        "the message is not JSON: %s (line %d, column %d); what follows it up to the next "
        "Content-Length header is skipped",
        je.text, je.line, je.column);
    r->lost = 1;
  }
  free(b);
  return *msg ? 1 : -1;
}

int lsp_rpc_read(lsp_reader *r, json_t **msg, char **err) {
  *msg = NULL;
  if (r->skip) {
    unsigned long long n = r->skip;
    r->skip = 0;
    if (!read_bytes(r, NULL, n)) return 0;
  }
  if (r->lost) {
    r->lost = 0;
    if (!header_next(r) && !find_header(r)) return 0;
  }
  long long length = read_header(r);
  if (length == INPUT_ENDED) return 0;
  if (length < 0) {
    *err = hl_xstrdup(length == NO_LENGTH ? "the message has no Content-Length header; what follows it up to the "
                                            "next Content-Length header is skipped"
                                          : "the message's Content-Length is not a number of bytes; what follows "
                                            "it up to the next Content-Length header is skipped");
    r->lost = 1;
    return -1;
  }
  if ((unsigned long long)length > LSP_MAX_MESSAGE) {
    *err = hl_xasprintf(
        "the message's Content-Length, %lld bytes, is over the %zu MiB heaplint reads: its body is "
        "skipped",
        length, LSP_MAX_MESSAGE >> 20);
    r->skip = (unsigned long long)length;
    return -1;
  }
  return read_body(r, (size_t)length, msg, err);
}

void lsp_reader_free(lsp_reader *r) {
  free(r->again);
  r->again = NULL;
  r->nagain = r->at = 0;
}

int lsp_rpc_write(FILE *out, const json_t *msg) {
  char *text = json_dumps(msg, JSON_COMPACT);
  if (!text) return -1;
  size_t n = strlen(text);
  int ok = fprintf(out, "Content-Length: %zu\r\n\r\n", n) > 0 && fwrite(text, 1, n, out) == n && fflush(out) == 0;
  free(text);
  return ok ? 0 : -1;
}

const char *lsp_json_string(const json_t *v) {
  const char *s = json_string_value(v);
  return s && strlen(s) == json_string_length(v) ? s : NULL;
}
