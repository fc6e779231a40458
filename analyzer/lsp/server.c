#include "lsp/server.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lsp/rpc.h"
#include "report/jsontext.h"
#include "util/util.h"

void lsp_server_init(lsp_server *S, FILE *in, FILE *out) {
  memset(S, 0, sizeof *S);
  S->in = in;
  S->out = out;
  S->err = stderr;
  S->opt.debounce = LSP_DEBOUNCE_DEFAULT;
  S->opt.fast_first = 1;
  S->opt.refine_ms = LSP_REFINE_DEFAULT_MS;
  /* Error-checking: after a crash of the analysis inside the lock, the
   * worker learns that it holds it (worker.c). */
  pthread_mutexattr_t ma;
  pthread_mutexattr_init(&ma);
  pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&S->lock, &ma);
  pthread_mutexattr_destroy(&ma);
  pthread_mutex_init(&S->out_lock, NULL);
  /* The worker's deadlines are on the monotonic clock (lsp_now). */
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&S->wake, &ca);
  pthread_condattr_destroy(&ca);
}

static void waiting_free(lsp_waiting *w);

void lsp_server_free(lsp_server *S) {
  for (size_t i = 0; i < S->ndocs; i++) lsp_doc_free(S->docs[i]);
  free(S->docs);
  for (size_t i = 0; i < S->nclosed; i++) lsp_doc_free(S->closed[i]);
  free(S->closed);
  for (size_t i = 0; i < S->nwaiting; i++) waiting_free(&S->waiting[i]);
  free(S->waiting);
  for (size_t i = 0; i < S->npulls; i++) {
    json_decref(S->pulls[i].id);
    json_decref(S->pulls[i].params);
  }
  free(S->pulls);
  free(S->root);
  pthread_cond_destroy(&S->wake);
  pthread_mutex_destroy(&S->lock);
  pthread_mutex_destroy(&S->out_lock);
  hl_options_free(&S->opt.cli);
  free(S->opt.docs_url);
}

void lsp_doc_free(lsp_doc *d) {
  if (!d) return;
  free(d->uri);
  free(d->path);
  lsp_text_free(&d->text);
  lsp_result_free(d->result);
  free(d);
}

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
  if (S->err) fprintf(S->err, "heaplint lsp: %s\n", hl_sb_str(&b));
  lsp_notify(S, "window/logMessage", json_pack("{s:i, s:o}", "type", type, "message", hl_json_text(hl_sb_str(&b))));
  hl_sb_free(&b);
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

lsp_doc *lsp_doc_find(lsp_server *S, const char *uri) {
  for (size_t i = 0; i < S->ndocs; i++)
    if (!strcmp(S->docs[i]->uri, uri)) return S->docs[i];
  return NULL;
}

long lsp_debounce_ms(const lsp_debounce *p, const lsp_doc *d) {
  if (!d->ntook || p->min_ms == p->max_ms) return p->max_ms;
  double v[LSP_DEBOUNCE_HISTORY];
  memcpy(v, d->took, d->ntook * sizeof *v);
  qsort(v, d->ntook, sizeof *v, by_value);
  /* The upper median, as clangd's nth_element at size / 2. */
  double ms = v[d->ntook / 2] * p->ratio * 1000.0;
  return ms > (double)p->max_ms ? p->max_ms : ms < (double)p->min_ms ? p->min_ms : (long)ms;
}

long lsp_edit_delay_ms(const lsp_debounce *p, lsp_doc *d, double now) {
  long ms = lsp_debounce_ms(p, d);
  double pause = (now - d->changed_at) * 1000.0;
  d->changed_at = now;
  /* No edit came for as long as a reparse takes: one soon after this is
   * as unlikely, and waiting would only delay this edit's diagnostics. */
  if (p->min_ms < p->max_ms && pause >= (double)ms) return 0;
  return ms;
}

void lsp_doc_took(lsp_doc *d, double seconds) {
  if (d->ntook == LSP_DEBOUNCE_HISTORY) memmove(d->took, d->took + 1, --d->ntook * sizeof *d->took);
  d->took[d->ntook++] = seconds;
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

void lsp_with_document(lsp_server *S, json_t *id, json_t *params, lsp_answer_fn answer) {
  const char *uri = lsp_json_string(json_object_get(json_object_get(params, "textDocument"), "uri"));
  pthread_mutex_lock(&S->lock);
  lsp_doc *d = uri ? lsp_doc_find(S, uri) : NULL;
  if (d)
    lsp_answer_or_wait(S, d, id, params, answer);
  else
    answer(S, id, params, NULL);
  pthread_mutex_unlock(&S->lock);
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

json_t *lsp_publish_params(const char *uri, const lsp_result *r) {
  json_t *a = json_array();
  for (size_t i = 0; r && i < r->nitems; i++) json_array_append(a, r->items[i].diagnostic);
  json_t *p = json_pack("{s:s, s:o}", "uri", uri, "diagnostics", a);
  if (r) json_object_set_new(p, "version", json_integer(r->version));
  return p;
}

static int waits(const lsp_server *S, const lsp_doc *d) {
  for (size_t i = 0; i < S->nwaiting; i++)
    if (!strcmp(S->waiting[i].uri, d->uri)) return 1;
  return 0;
}

void lsp_result_store(lsp_server *S, lsp_doc *d, lsp_result *r) {
  if (d->closed || d->gen != r->gen) {
    lsp_result_free(r);
    return;
  }
  r->id = ++S->results;
  lsp_result_free(d->result);
  d->result = r;
  if (!S->pull) {
    lsp_notify(S, "textDocument/publishDiagnostics", lsp_publish_params(d->uri, r));
  } else if (S->refresh && !waits(S, d)) {
    /* A result the client did not ask for (a save re-analyzed the file):
     * it pulls again. */
    char *rid = hl_xasprintf("heaplint-refresh-%lu", ++S->refreshes);
    lsp_send(S, json_pack("{s:s, s:s}", "id", rid, "method", "workspace/diagnostic/refresh"));
    free(rid);
  }
  lsp_waiting_answer(S, d, NULL);
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
  for (size_t i = 0; i < S->npulls; i++)
    if (json_equal(S->pulls[i].id, (json_t *)id)) {
      lsp_reply_error(S, S->pulls[i].id, LSP_REQUEST_CANCELLED, "cancelled");
      json_decref(S->pulls[i].id);
      json_decref(S->pulls[i].params);
      memmove(&S->pulls[i], &S->pulls[i + 1], (S->npulls - i - 1) * sizeof *S->pulls);
      S->npulls--;
      return 1;
    }
  return 0;
}
