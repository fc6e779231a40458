/* textDocument/didOpen, didChange (incremental), didSave, didClose: the
 * documents' text and versions, and when each is analyzed — at once when
 * opened or saved, after the debounce when typed in. */
#include <stdlib.h>
#include <string.h>

#include "lsp/handlers.h"
#include "lsp/rpc.h"
#include "lsp/uri.h"
#include "util/util.h"

static const char *doc_uri(json_t *params) {
  return lsp_json_string(json_object_get(json_object_get(params, "textDocument"), "uri"));
}

/* heaplint analyzes C++: a C or Objective-C file is left alone. */
static int is_cxx(const char *language) {
  return !language || (strcmp(language, "c") && strcmp(language, "objective-c"));
}

void lsp_on_did_open(lsp_server *S, json_t *id, json_t *params) {
  (void)id;
  json_t *td = json_object_get(params, "textDocument");
  const char *uri = lsp_json_string(json_object_get(td, "uri"));
  json_t *text = json_object_get(td, "text");
  char *path = uri ? lsp_uri_path(uri) : NULL;
  if (!path || !json_is_string(text)) {
    if (uri && !path) lsp_log(S, 2, "%s: not a file: URI of a path heaplint can name; not analyzed", uri);
    free(path);
    return;
  }
  lsp_doc *d = hl_xcalloc(1, sizeof *d);
  d->uri = hl_xstrdup(uri);
  d->path = hl_abspath(path);
  free(path);
  d->analyzed = is_cxx(json_string_value(json_object_get(td, "languageId")));
  d->version = (long)json_integer_value(json_object_get(td, "version"));
  /* The text's length, not its C string: a NUL byte is text too (libclang
   * takes the length). */
  lsp_text_set(&d->text, json_string_value(text), json_string_length(text));
  pthread_mutex_lock(&S->lock);
  d->gen = ++S->gens;
  d->changed_at = lsp_now();
  lsp_doc *old = lsp_doc_find(S, uri);
  if (old) {
    /* Opened twice without a close: the new text wins. */
    for (size_t i = 0; i < S->ndocs; i++)
      if (S->docs[i] == old) S->docs[i] = d;
    old->closed = 1;
    HL_PUSH(S->closed, S->nclosed, S->capclosed, old);
  } else {
    HL_PUSH(S->docs, S->ndocs, S->capdocs, d);
  }
  if (d->analyzed) lsp_doc_schedule(S, d, 0);
  pthread_mutex_unlock(&S->lock);
}

static long number(json_t *pos, const char *key) { return (long)json_integer_value(json_object_get(pos, key)); }

/* One content change: a range and its new text, or the whole text.
 * Returns -1 for a range that ends before it starts: refused, as clangd
 * refuses it (applying it would insert without deleting, and the text
 * would silently differ from the editor's); the document is then lost
 * until the whole text comes again. */
static int apply_change(lsp_server *S, lsp_doc *d, json_t *change) {
  json_t *text = json_object_get(change, "text");
  if (!json_is_string(text)) return 0;
  json_t *range = json_object_get(change, "range");
  if (!range) {
    lsp_text_set(&d->text, json_string_value(text), json_string_length(text));
    d->lost = 0;
    return 0;
  }
  if (d->lost) return 0;
  json_t *a = json_object_get(range, "start"), *b = json_object_get(range, "end");
  long l0 = number(a, "line"), c0 = number(a, "character"), l1 = number(b, "line"), c1 = number(b, "character");
  if (l1 < l0 || (l1 == l0 && c1 < c0)) {
    lsp_log(S, 1,
            "%s: a change's range ends (line %ld, character %ld) before it starts (line %ld, character %ld): "
            "refused; the document is not analyzed until the editor sends its whole text (reopen it)",
            d->uri, l1, c1, l0, c0);
    d->lost = 1;
    return -1;
  }
  size_t from = lsp_text_offset(&d->text, l0, c0, S->enc), to = lsp_text_offset(&d->text, l1, c1, S->enc);
  lsp_text_replace(&d->text, from, to, json_string_value(text), json_string_length(text));
  return 0;
}

void lsp_on_did_change(lsp_server *S, json_t *id, json_t *params) {
  (void)id;
  const char *uri = doc_uri(params);
  json_t *changes = json_object_get(params, "contentChanges");
  pthread_mutex_lock(&S->lock);
  lsp_doc *d = uri ? lsp_doc_find(S, uri) : NULL;
  if (d) {
    size_t i;
    json_t *c;
    json_array_foreach(changes, i, c) if (apply_change(S, d, c)) break;
    json_t *v = json_object_get(json_object_get(params, "textDocument"), "version");
    d->version = json_is_integer(v) ? (long)json_integer_value(v) : d->version + 1;
    d->gen = ++S->gens;
    long delay = lsp_edit_delay_ms(&S->opt.debounce, d, lsp_now());
    if (d->analyzed) lsp_doc_schedule(S, d, delay);
  }
  pthread_mutex_unlock(&S->lock);
}

/* A saved file changes what the other open units read from disk (a header
 * they include): every open file is analyzed again, after the worker has
 * looked whether a configuration or compile database changed on disk. */
void lsp_on_did_save(lsp_server *S, json_t *id, json_t *params) {
  (void)id;
  (void)params;
  pthread_mutex_lock(&S->lock);
  S->saves++;
  S->recheck = 1;
  lsp_reanalyze_all(S);
  pthread_mutex_unlock(&S->lock);
}

void lsp_on_did_close(lsp_server *S, json_t *id, json_t *params) {
  (void)id;
  const char *uri = doc_uri(params);
  pthread_mutex_lock(&S->lock);
  lsp_doc *d = uri ? lsp_doc_find(S, uri) : NULL;
  if (d) {
    for (size_t i = 0; i < S->ndocs; i++)
      if (S->docs[i] == d) {
        memmove(&S->docs[i], &S->docs[i + 1], (S->ndocs - i - 1) * sizeof *S->docs);
        S->ndocs--;
        break;
      }
    d->closed = 1;
    HL_PUSH(S->closed, S->nclosed, S->capclosed, d);
    lsp_waiting_answer(S, NULL, uri);
    /* A closed file shows no diagnostics, as in clangd (a client that
     * pulls forgets a closed file's itself). */
    if (!S->pull) lsp_notify(S, "textDocument/publishDiagnostics", lsp_publish_params(uri, NULL));
    pthread_cond_signal(&S->wake);
  }
  pthread_mutex_unlock(&S->lock);
}
