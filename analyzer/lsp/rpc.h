/* rpc: JSON-RPC 2.0 over a byte stream as the LSP frames it — header lines
 * ("Content-Length: N", others ignored) ending with an empty line, then N
 * bytes of JSON (jansson). */
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

/* Reads one message's body. Returns 1 with *body (malloc'd, NUL-terminated)
 * and *len; 0 at the end of the input; -1 with *err when the header has no
 * usable Content-Length (the body, if any, is then skipped: the next read
 * starts at the next header). */
int lsp_rpc_read(FILE *in, char **body, size_t *len, char **err);

/* Writes msg framed and flushes. Returns 0, or -1 when the output failed. */
int lsp_rpc_write(FILE *out, const json_t *msg);

#endif
