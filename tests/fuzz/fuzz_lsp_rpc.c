/* The language server's framing (lsp/rpc.h) over any bytes: reading ends
 * (each read takes bytes: after a bad frame the reader finds the next one
 * and never goes round in circles), a read returns a message or a reason,
 * and every message written back and read again is the same message. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lsp/rpc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_back(const json_t *msg) {
  char *buf = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&buf, &len);
  if (lsp_rpc_write(out, msg)) abort();
  fclose(out);
  FILE *in = fmemopen(buf, len, "rb");
  lsp_reader r = {in, NULL, 0, 0, 0, 0};
  json_t *again = NULL;
  char *err = NULL;
  if (lsp_rpc_read(&r, &again, &err) != 1 || !json_equal((json_t *)msg, again)) abort();
  json_decref(again);
  if (lsp_rpc_read(&r, &again, &err) != 0) abort();
  lsp_reader_free(&r);
  fclose(in);
  free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!size) return 0;
  FILE *in = fmemopen((void *)data, size, "rb");
  lsp_reader r = {in, NULL, 0, 0, 0, 0};
  for (size_t reads = 0;; reads++) {
    if (reads > size) abort();
    json_t *msg = NULL;
    char *err = NULL;
    int rc = lsp_rpc_read(&r, &msg, &err);
    if (rc == 0) break;
    if (rc > 0) {
      if (!msg || err) abort();
      read_back(msg);
      json_decref(msg);
    } else {
      if (msg || !err) abort();
      free(err);
    }
  }
  lsp_reader_free(&r);
  fclose(in);
  return 0;
}
