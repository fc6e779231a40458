#include "lsp/server.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lsp/rpc.h"
#include "report/jsontext.h"
#include "util/util.h"

double lsp_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void lsp_send(lsp_server *S, json_t *msg) {
  json_object_set_new(msg, "jsonrpc", json_string("2.0"));
  pthread_mutex_lock(&S->out_lock);
  /* A client gone is seen by the reader as the end of its input. */
  (void)lsp_rpc_write(S->out, msg);
  pthread_mutex_unlock(&S->out_lock);
  json_decref(msg);
}

void lsp_reply(lsp_server *S, json_t *id, json_t *result) {
  json_t *m = json_object();
  json_object_set(m, "id", id ? id : json_null());
  json_object_set_new(m, "result", result ? result : json_null());
  lsp_send(S, m);
}

void lsp_reply_error(lsp_server *S, json_t *id, int code, const char *message) {
  json_t *m = json_object();
  json_object_set(m, "id", id ? id : json_null());
  json_object_set_new(m, "error", json_pack("{s:i, s:o}", "code", code, "message", hl_json_text(message)));
  lsp_send(S, m);
}

void lsp_notify(lsp_server *S, const char *method, json_t *params) {
  json_t *m = json_object();
  json_object_set_new(m, "method", json_string(method));
  json_object_set_new(m, "params", params ? params : json_null());
  lsp_send(S, m);
}

void lsp_log(lsp_server *S, int type, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  hl_sb b = {0};
  hl_sb_vprintf(&b, fmt, ap);
  va_end(ap);
  fprintf(stderr, "heaplint lsp: %s\n", hl_sb_str(&b));
  lsp_notify(S, "window/logMessage", json_pack("{s:i, s:o}", "type", type, "message", hl_json_text(hl_sb_str(&b))));
  hl_sb_free(&b);
}

lsp_doc *lsp_doc_find(lsp_server *S, const char *uri) {
  for (size_t i = 0; i < S->ndocs; i++)
    if (!strcmp(S->docs[i]->uri, uri)) return S->docs[i];
  return NULL;
}

void lsp_doc_schedule(lsp_server *S, lsp_doc *d, long delay_ms) {
  double due = lsp_now() + (double)delay_ms / 1000.0;
  /* A later edit pushes the analysis back; an earlier request (a save)
   * brings it forward. */
  if (!d->pending || due < d->due || delay_ms > 0) d->due = due;
  d->pending = 1;
  pthread_cond_signal(&S->wake);
}

void lsp_reanalyze_all(lsp_server *S) {
  for (size_t i = 0; i < S->ndocs; i++)
    if (S->docs[i]->analyzed) lsp_doc_schedule(S, S->docs[i], 0);
  pthread_cond_signal(&S->wake);
}

void lsp_result_free(lsp_result *r) {
  if (!r) return;
  for (size_t i = 0; i < r->nitems; i++) {
    json_decref(r->items[i].diagnostic);
    json_decref(r->items[i].fix);
    json_decref(r->items[i].suppress);
    free(r->items[i].title_fix);
    free(r->items[i].title_suppress);
  }
  free(r->items);
  for (size_t i = 0; i < r->nhovers; i++) free(r->hovers[i].markdown);
  free(r->hovers);
  free(r);
}

static void waiting_free(lsp_waiting *w) {
  json_decref(w->id);
  json_decref(w->params);
  free(w->uri);
}

void lsp_answer_or_wait(lsp_server *S, lsp_doc *d, json_t *id, json_t *params, lsp_answer_fn answer) {
  if (!d->analyzed || (d->result && d->result->gen == d->gen)) {
    answer(S, id, params, d->analyzed ? d->result : NULL);
    return;
  }
  lsp_waiting w = {json_incref(id), json_incref(params), hl_xstrdup(d->uri), d->gen, answer};
  HL_PUSH(S->waiting, S->nwaiting, S->capwaiting, w);
}

void lsp_waiting_answer(lsp_server *S, lsp_doc *d, const char *uri) {
  size_t kept = 0;
  for (size_t i = 0; i < S->nwaiting; i++) {
    lsp_waiting *w = &S->waiting[i];
    int mine = !strcmp(w->uri, d ? d->uri : uri);
    if (mine && (!d || (d->result && d->result->gen >= w->gen))) {
      w->answer(S, w->id, w->params, d ? d->result : NULL);
      waiting_free(w);
    } else {
      S->waiting[kept++] = *w;
    }
  }
  S->nwaiting = kept;
}

int lsp_waiting_cancel(lsp_server *S, const json_t *id) {
  for (size_t i = 0; i < S->nwaiting; i++)
    if (json_equal(S->waiting[i].id, (json_t *)id)) {
      lsp_reply_error(S, S->waiting[i].id, LSP_REQUEST_CANCELLED, "cancelled");
      waiting_free(&S->waiting[i]);
      memmove(&S->waiting[i], &S->waiting[i + 1], (S->nwaiting - i - 1) * sizeof *S->waiting);
      S->nwaiting--;
      return 1;
    }
  return 0;
}
