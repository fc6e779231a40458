/* server: the language server's state, shared by the thread that reads
 * messages (main.c's loop and the handlers) and the analysis worker —
 * the open documents, each one's latest analysis, the requests waiting
 * for one, and the output, one message at a time.
 *
 * Threads: the reader owns a document's text and version and changes them
 * under lock; the worker owns the parsed units and the analysis state and
 * stores each result under lock. A document closed is taken off the list
 * by the reader and freed by the worker (the only thread that may still be
 * analyzing it). Lock order: lock, then out. */
#ifndef HEAPLINT_LSP_SERVER_H
#define HEAPLINT_LSP_SERVER_H

#include <jansson.h>
#include <pthread.h>
#include <stdio.h>

#include "input/options.h"
#include "lsp/text.h"

/* How long to wait after an edit before analyzing: clangd's policy
 * (TUScheduler's DebouncePolicy) — the median of the document's last
 * LSP_DEBOUNCE_HISTORY reparses' durations (of its kept unit: what a newer
 * edit makes stale, analysis.h) times ratio, clamped to [min_ms, max_ms];
 * max_ms until one is measured. min_ms == max_ms is a fixed delay.
 * Unlike clangd, an adaptive debounce (min_ms < max_ms) does not wait
 * after an edit that follows a pause at least that long (the first of a
 * burst, one made between two reads): waiting only helps when another
 * edit comes before the reparse would end (lsp_edit_delay_ms). */
typedef struct lsp_debounce {
  long min_ms, max_ms;
  double ratio;
} lsp_debounce;
#define LSP_DEBOUNCE_HISTORY 15
/* clangd's defaults (ClangdServer::Options::UpdateDebounce). */
#define LSP_DEBOUNCE_DEFAULT ((lsp_debounce){50, 500, 1.0})
/* How long a document is left alone after its fast result before the
 * full unit's analysis refines it (ms): an edit sooner makes that result
 * stale, and the refine waits for the edit's own fast result. */
#define LSP_REFINE_DEFAULT_MS 500

/* heaplint lsp's command line and initializationOptions. */
typedef struct lsp_options {
  /* The command line, parsed as the check's (input/options.h): -p or
   * --compile-commands-dir (the one compile database), the configuration
   * (--config-file, --config, --checks, the filters), the profiles, the
   * extra arguments, --docs-url. */
  hl_options cli;
  lsp_debounce debounce;              /* --debounce, or initializationOptions.debounce */
  int fast_first;                     /* initializationOptions.fastFirst (default 1) */
  long refine_ms;                     /* initializationOptions.refineDelay: idle time before a refine */
  char *docs_url;                     /* where docs/ is: a rule's page is hl_rule_page_url(docs_url, id) */
  const struct hl_rule *const *rules; /* the rules heaplint has, from main.c */
} lsp_options;

/* One diagnostic as published, with what a code action offers for it;
 * positions in the negotiated encoding. */
typedef struct lsp_item {
  long line0, char0, line1, char1;
  json_t *diagnostic; /* the Diagnostic */
  json_t *fix;        /* the quick fix's WorkspaceEdit, or NULL */
  json_t *suppress;   /* the NOLINT comment's WorkspaceEdit, or NULL */
  char *title_fix, *title_suppress;
} lsp_item;

/* One store's layout, as hover shows it. */
typedef struct lsp_hover {
  long line0, char0, line1, char1;
  char *markdown;
} lsp_hover;

/* A document's analysis, for the text it was made of: its generation
 * (lsp_doc.gen) and the client's version of it. */
typedef struct lsp_result {
  unsigned long id; /* its resultId (pull diagnostics): given when stored */
  unsigned long gen;
  long version;
  lsp_item *items;
  size_t nitems, capitems;
  lsp_hover *hovers;
  size_t nhovers, caphovers;
} lsp_result;

typedef struct lsp_unitstate lsp_unitstate; /* the worker's (analysis.c) */

typedef struct lsp_doc {
  char *uri, *path; /* uri: as the client sent it; path: absolute, canonical */
  int analyzed;     /* C++ (a C file is not heaplint's) */
  lsp_text text;    /* the reader's; changed under lock */
  long version;     /* the client's, as it sent it (it may go down: a re-open) */
  /* The server's count of the texts it was given (lsp_server.gens): it
   * only grows, so "the analysis of this text or a later one" means what
   * it says whatever versions the client sends. */
  unsigned long gen;
  /* A change could not be applied (a range that ends before it starts):
   * the text is not the client's until a change sends all of it. */
  int lost;
  /* under lock */
  int closed;
  int pending; /* an analysis is wanted ... */
  double due;  /* ... from this time on (lsp_now) */
  /* The last result came from the fast unit (analysis.h): the full one's
   * analysis of the same text is wanted from this time on, unless an edit
   * comes first (its own result is refined then). */
  int refine;
  double refine_due;
  lsp_result *result; /* the latest stored, or NULL */
  /* Its analyses' durations (s), the latest last: the debounce's history. */
  double took[LSP_DEBOUNCE_HISTORY];
  unsigned ntook;
  double changed_at; /* lsp_now at its last change, or its opening */
  /* the worker's */
  lsp_unitstate *unit;
} lsp_doc;

struct lsp_server;

/* A request that waits for the analysis of a document's current text (its
 * generation, or a later one: a re-opened document's text is later). */
typedef struct lsp_waiting lsp_waiting;
typedef void (*lsp_answer_fn)(struct lsp_server *S, json_t *id, json_t *params, const lsp_result *r);
struct lsp_waiting {
  json_t *id, *params;
  char *uri;
  unsigned long gen;
  lsp_answer_fn answer;
};

/* A workspace/diagnostic request, answered by the worker (cached.h). */
typedef struct lsp_pull {
  json_t *id, *params;
} lsp_pull;

typedef struct lsp_server {
  FILE *in, *out;
  FILE *err; /* the editor's server log (stderr), or NULL: where lsp_log also writes */
  lsp_options opt;
  lsp_encoding enc;
  int initialized, shut_down, exiting;
  int watch_registration; /* the client lets the server register file watchers */
  /* The client pulls diagnostics (textDocument.diagnostic, LSP 3.17):
   * none are pushed; a result it did not wait for is announced with
   * workspace/diagnostic/refresh when it takes one (refresh). */
  int pull, refresh;
  char *root; /* the workspace's folder (rootUri), or NULL */

  pthread_mutex_t lock; /* what follows, and each document's shared fields */
  pthread_cond_t wake;  /* the worker sleeps on it */
  lsp_doc **docs;
  size_t ndocs, capdocs;
  lsp_doc **closed; /* for the worker to free */
  size_t nclosed, capclosed;
  lsp_waiting *waiting;
  size_t nwaiting, capwaiting;
  unsigned long gens;    /* the last generation given to a document's text */
  unsigned long saves;   /* didSave notifications so far */
  unsigned long results; /* the last result's id */
  unsigned long refreshes;
  lsp_pull *pulls; /* workspace/diagnostic requests, for the worker */
  size_t npulls, cappulls;
  int reload;    /* configurations or compile databases changed: read them again */
  int recheck;   /* a file was saved: reload if one of them changed on disk */
  int quit;      /* the worker stops */
  int analyzing; /* the worker is in an analysis (libclang cannot be stopped there) */
  pthread_t worker;
  int worker_started;
  void *worker_state;

  pthread_mutex_t out_lock; /* one message at a time on out */
} lsp_server;

/* A server reading in and writing out, with no document and no worker. */
void lsp_server_init(lsp_server *S, FILE *in, FILE *out);
/* Frees it all; the worker must be stopped (lsp_worker_stop). */
void lsp_server_free(lsp_server *S);
/* Frees a document; its unit must be gone (the worker's). */
void lsp_doc_free(lsp_doc *d);

/* Seconds on a clock that only goes forward. */
double lsp_now(void);

/* Sends msg (taking it) as one message. */
void lsp_send(lsp_server *S, json_t *msg);
/* A response to the request id with result (taken; NULL: null). */
void lsp_reply(lsp_server *S, json_t *id, json_t *result);
void lsp_reply_error(lsp_server *S, json_t *id, int code, const char *message);
/* A notification (params taken). */
void lsp_notify(lsp_server *S, const char *method, json_t *params);
/* window/logMessage of type (1 error, 2 warning, 3 info, 4 log); the
 * text also goes to stderr, the editor's server log. */
void lsp_log(lsp_server *S, int type, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* With lock held: the open document of uri, or NULL. */
lsp_doc *lsp_doc_find(lsp_server *S, const char *uri);
/* With lock held: the delay before analyzing d after an edit (ms). */
long lsp_debounce_ms(const lsp_debounce *p, const lsp_doc *d);
/* With lock held: the delay before analyzing d after an edit made at
 * now (ms): the debounce, or none after a pause at least that long.
 * Records now as d's last change. */
long lsp_edit_delay_ms(const lsp_debounce *p, lsp_doc *d, double now);
/* With lock held: d's reparse took seconds (lsp_debounce's history). */
void lsp_doc_took(lsp_doc *d, double seconds);
/* With lock held: asks for an analysis of d after delay_ms. */
void lsp_doc_schedule(lsp_server *S, lsp_doc *d, long delay_ms);
/* With lock held: asks for an analysis of every open C++ document now. */
void lsp_reanalyze_all(lsp_server *S);
void lsp_result_free(lsp_result *r);
/* publishDiagnostics' parameters for r (NULL: none, as for a closed file). */
json_t *lsp_publish_params(const char *uri, const lsp_result *r);

/* With lock held: stores r, the result of an analysis of d, publishes its
 * diagnostics (or, to a client that pulls them, says they changed when it
 * did not wait for them) and answers the requests that waited for it — unless d
 * changed (r->gen is not d's: a newer analysis is due) or closed meanwhile,
 * which drops r. */
void lsp_result_store(lsp_server *S, lsp_doc *d, lsp_result *r);

/* With lock held: answers the request now when d's analysis is of its
 * current text, else when it is (lsp_waiting_answer). */
void lsp_answer_or_wait(lsp_server *S, lsp_doc *d, json_t *id, json_t *params, lsp_answer_fn answer);
/* For a request about params.textDocument: answer now, or when the
 * analysis of the document's current version is stored; null for a
 * document that is not open. Takes the lock. */
void lsp_with_document(lsp_server *S, json_t *id, json_t *params, lsp_answer_fn answer);
/* With lock held: answers the requests waiting for d (NULL: for uri, which
 * closed: with r NULL). */
void lsp_waiting_answer(lsp_server *S, lsp_doc *d, const char *uri);
/* With lock held: a waiting request (or workspace/diagnostic) cancelled:
 * answered RequestCancelled.
 * Returns whether one was waiting. */
int lsp_waiting_cancel(lsp_server *S, const json_t *id);

#endif
