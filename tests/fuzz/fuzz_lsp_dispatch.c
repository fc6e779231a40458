/* The language server's message handling (analyzer/lsp: the reader loop,
 * every handler, the documents, the requests that wait) over any sequence
 * of messages with any parameters, without libclang: the analysis worker
 * is a stand-in (fuzz_lsp_worker.c, and here) that turns each document due
 * into a result
 * made from its text — for each line with "function" in it (at most four)
 * a finding there with a note and two edits, converted by the server's own
 * code (convert, diagnostics, code actions) — and after each second
 * message, so that requests also wait. Everything the server writes must
 * read back as messages.
 *
 * Input: message bodies separated by NUL bytes (framed here, so that
 * mutations keep the frames: fuzz_lsp_rpc takes the framing). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/finding.h"
#include "lsp/convert.h"
#include "lsp/diagnostics.h"
#include "lsp/lsp.h"
#include "lsp/worker.h"
#include "report/source.h"
#include "rules/registry.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *find(const char *p, size_t n, const char *what) {
  size_t k = strlen(what);
  for (size_t i = 0; i + k <= n; i++)
    if (!memcmp(p + i, what, k)) return p + i;
  return NULL;
}

/* A finding at the byte at of d's line (0-based), as the engine makes it. */
static hl_finding *finding_at(const lsp_doc *d, size_t line, size_t at) {
  size_t start = d->text.lines[line];
  hl_loc loc = {d->path, (unsigned)line + 1, (unsigned)(at - start) + 1, (unsigned)at};
  hl_finding *f = hl_finding_new("function-sbo", HL_SEV_WARNING, &loc, "a finding");
  f->end_line = loc.line;
  f->end_col = loc.col + 8;
  hl_finding_note(f, &loc, "a note");
  hl_edit retype = {d->path, (unsigned)at, 8, loc.line, loc.col, "inplace_function", 0};
  hl_edit include = {d->path, 0, 0, 1, 1, "#include <x>\n", 0};
  hl_finding_edit(f, &retype);
  hl_finding_edit(f, &include);
  return f;
}

static lsp_result *fake_result(lsp_server *S, lsp_doc *d) {
  lsp_result *r = hl_xcalloc(1, sizeof *r);
  r->gen = d->gen;
  r->version = d->version;
  if (d->lost) {
    lsp_result_add_failure(r, "lost");
    return r;
  }
  hl_sources *src = hl_sources_new();
  hl_sources_put(src, d->path, d->text.s, d->text.len);
  lsp_conv *c = lsp_conv_new(src, S->enc, &d->path, &d->uri, 1);
  for (size_t l = 0, found = 0; l < d->text.nlines && found < 4; l++) {
    size_t start = d->text.lines[l], n = lsp_line_length(d->text.s + start, d->text.len - start);
    const char *hit = find(d->text.s + start, n, "function");
    if (!hit) continue;
    found++;
    hl_finding *f = finding_at(d, l, (size_t)(hit - d->text.s));
    lsp_result_add_finding(r, f, c, &S->opt);
    const lsp_item *it = &r->items[r->nitems - 1];
    lsp_hover h = {it->line0, it->char0, it->line1, it->char1, hl_xstrdup("a hover")};
    HL_PUSH(r->hovers, r->nhovers, r->caphovers, h);
    hl_finding_free(f);
  }
  lsp_conv_free(c);
  hl_sources_free(src);
  return r;
}

/* What the worker does between two messages: frees the closed documents,
 * and analyzes those due. */
static void fake_worker(lsp_server *S) {
  pthread_mutex_lock(&S->lock);
  S->reload = S->recheck = 0;
  for (size_t i = 0; i < S->nclosed; i++) lsp_doc_free(S->closed[i]);
  S->nclosed = 0;
  for (size_t i = 0; i < S->ndocs; i++) {
    lsp_doc *d = S->docs[i];
    if (!d->pending || !d->analyzed) continue;
    d->pending = 0;
    lsp_result_store(S, d, fake_result(S, d));
  }
  pthread_mutex_unlock(&S->lock);
}

/* The bodies, each framed. */
static char *frames(const uint8_t *data, size_t size, size_t *len) {
  hl_sb b = {0};
  for (size_t at = 0; at <= size;) {
    const uint8_t *nul = memchr(data + at, 0, size - at);
    size_t n = nul ? (size_t)(nul - (data + at)) : size - at;
    hl_sb_printf(&b, "Content-Length: %zu\r\n\r\n", n);
    hl_sb_putn(&b, (const char *)data + at, n);
    at += n + 1;
  }
  *len = b.len;
  return hl_sb_take(&b);
}

/* Everything written reads back as messages. */
static void check_output(char *out, size_t len) {
  if (!len) return;
  FILE *in = fmemopen(out, len, "rb");
  lsp_reader r = {in, NULL, 0, 0, 0, 0};
  json_t *msg;
  char *err = NULL;
  int rc;
  while ((rc = lsp_rpc_read(&r, &msg, &err)) == 1) json_decref(msg);
  if (rc != 0) abort();
  lsp_reader_free(&r);
  fclose(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t len;
  char *stream = frames(data, size, &len);
  char *out = NULL;
  size_t outlen = 0;
  FILE *in = fmemopen(stream, len, "rb"), *o = open_memstream(&out, &outlen);
  lsp_server S;
  lsp_server_init(&S, in, o);
  S.opt.rules = hl_rules; /* as main.c hands them to hl_lsp_main */
  /* The server's log lines would drown libFuzzer's own. */
  S.err = NULL;
  lsp_reader r = {in, NULL, 0, 0, 0, 0};
  for (unsigned k = 0; !S.exiting && lsp_serve_message(&S, &r); k++)
    if (k % 2) fake_worker(&S);
  lsp_reader_free(&r);
  lsp_worker_stop(&S);
  lsp_server_free(&S);
  fclose(in);
  fclose(o);
  check_output(out, outlen);
  free(out);
  free(stream);
  return 0;
}
