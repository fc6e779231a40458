/* rpc: JSON-RPC 2.0 over a byte stream as the LSP frames it — header lines
 * ("Content-Length: N", others ignored) ending with an empty line, then N
 * bytes of JSON (jansson) — and how the reader finds the next message after
 * a frame it cannot use, so that one bad frame costs that frame only. */
#ifndef HEAPLINT_LSP_RPC_H
#define HEAPLINT_LSP_RPC_H

#include <jansson.h>
#include <stdio.h>

/* The error codes of JSON-RPC and the LSP. */
enum {
  LSP_PARSE_ERROR = -32700,
  LSP_INVALID_REQUEST = -32600,
  LSP_METHOD_NOT_FOUND = -32601,
  LSP_INVALID_PARAMS = -32602,
  LSP_SERVER_NOT_INITIALIZED = -32002,
  LSP_REQUEST_CANCELLED = -32800,
};

/* The largest message read: a bound on memory whatever the client sends. */
#define LSP_MAX_MESSAGE ((size_t)256 << 20)

/* The reading end: in, the bytes taken from it that are read again first
 * (what a bad frame's body swallowed), and what the next read skips. */
typedef struct lsp_reader {
  FILE *in;
  char *again;
  size_t nagain, at;
  unsigned long long skip; /* bytes to drop: an oversized frame's body */
  int lost;                /* look for the next "Content-Length:" first */
} lsp_reader;

/* Reads one message. Returns 1 with *msg (the JSON value; strings may hold
 * NUL bytes: see lsp_json_string); 0 at the end of the input; -1 with *err
 * (why, for a ParseError with id null) when the frame was no message. The
 * reader has then skipped it, and the next call reads the next message:
 *   - a Content-Length over LSP_MAX_MESSAGE: exactly that many bytes are
 *     read and dropped (never stored);
 *   - no Content-Length, or one that is not a number: everything up to the
 *     next "Content-Length:" (the next frame's header, wherever it starts:
 *     the body no length measured ends with no line break);
 *   - a body that is not JSON: when no header line follows it at once (a
 *     length counted in characters, not bytes, cut it short), the rest up
 *     to the next "Content-Length:".
 * Every byte is read once (and the few a look ahead took, twice): a frame
 * that swallowed the next one with a length too long loses it too. A bad
 * frame's request id cannot be known: only later requests are answered. */
int lsp_rpc_read(lsp_reader *r, json_t **msg, char **err);
void lsp_reader_free(lsp_reader *r);

/* Writes msg framed and flushes. Returns 0, or -1 when the output failed. */
int lsp_rpc_write(FILE *out, const json_t *msg);

/* The string v holds, or NULL when v is no string or holds a NUL byte (a
 * URI, a method or a name read as a C string would end there: "a%00b" and
 * "a\u0000b" must not name "a"). A document's text is read with its
 * length instead, NUL bytes and all. */
const char *lsp_json_string(const json_t *v);

#endif
