#include "util/ere.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <ctype.h>
#include <pcre2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hindex.h"
#include "util/util.h"

/* Bounds that keep compiling and matching cheap; docs/config.md states
 * them. The DFA matcher's time per subject byte grows with the states of
 * the pattern active at once (every branch of 'x.*1|x.*2|...' stays
 * active): 30 ms for a 200-byte path at MAX_PATTERN, 0.7 s at 16384. */
#define MAX_PATTERN 4096
#define MAX_REPEAT 255
/* Verdicts remembered per pattern: a header's findings, however many,
 * cost one match. */
#define MAX_MEMO 65536

/* The paths matched so far and their verdicts. */
typedef struct memo {
  pthread_mutex_t lock;
  char **paths;
  unsigned char *verdicts;
  size_t n, cap, capverdicts;
  hl_hindex ix;
} memo;

struct hl_ere {
  pcre2_code *code;
  pcre2_match_context *match;
  memo *memo;
};

typedef struct translation {
  const char *p;  /* the ERE */
  size_t i;       /* where it is read */
  hl_sb out;      /* the PCRE2 pattern */
  long atom;      /* where the last repeatable item starts in out, or -1 */
  int repeated;   /* that item already has a repetition operator */
  size_t *groups; /* where each open group starts in out */
  size_t ngroups, capgroups;
  char *err;
} translation;

static int fail(translation *t, const char *what) {
  if (!t->err) t->err = hl_xasprintf("%s at offset %zu", what, t->i);
  return -1;
}

/* A byte that stands for itself: escaped when PCRE2 gives it a meaning
 * (a backslash before ASCII punctuation always means the character). */
static void literal(hl_sb *out, unsigned char c) {
  if (c < 0x80 && ispunct(c)) hl_sb_putc(out, '\\');
  hl_sb_putc(out, (char)c);
}

static void start_atom(translation *t) {
  t->atom = (long)t->out.len;
  t->repeated = 0;
}

/* A repetition operator (*, +, ?, {m,n}) for the last item. POSIX leaves
 * two in a row undefined and glibc applies the second to the first's
 * result: so does a group around it here (PCRE2 would read "a++" as
 * possessive and "a+?" as lazy, which match differently). */
static int repetition(translation *t, const char *op) {
  if (t->atom < 0) return fail(t, "a repetition operator that repeats nothing");
  if (t->repeated) {
    hl_sb_putc(&t->out, ')');
    hl_sb tail = {0};
    hl_sb_putn(&tail, t->out.s + t->atom, t->out.len - (size_t)t->atom);
    t->out.len = (size_t)t->atom;
    hl_sb_puts(&t->out, "(?:");
    hl_sb_putn(&t->out, tail.s, tail.len);
    hl_sb_free(&tail);
  }
  hl_sb_puts(&t->out, op);
  t->repeated = 1;
  return 0;
}

/* {m}, {m,}, {m,n}, {,n}: digits only, at most MAX_REPEAT. */
static int interval(translation *t) {
  const char *p = t->p + t->i + 1;
  long lo = -1, hi = -1;
  int comma = 0;
  if (isdigit((unsigned char)*p)) lo = strtol(p, (char **)&p, 10);
  if (*p == ',') {
    comma = 1;
    p++;
    if (isdigit((unsigned char)*p)) hi = strtol(p, (char **)&p, 10);
  }
  if (*p != '}' || (lo < 0 && hi < 0)) return fail(t, "an invalid interval {...}");
  if (lo > MAX_REPEAT || hi > MAX_REPEAT) return fail(t, "an interval over 255");
  if (lo < 0) lo = 0;
  if (hi >= 0 && hi < lo) return fail(t, "an interval {m,n} with n < m");
  char op[32];
  if (!comma)
    snprintf(op, sizeof op, "{%ld}", lo);
  else if (hi < 0)
    snprintf(op, sizeof op, "{%ld,}", lo);
  else
    snprintf(op, sizeof op, "{%ld,%ld}", lo, hi);
  if (repetition(t, op)) return -1;
  t->i = (size_t)(p - t->p) + 1; /* past the } */
  return 0;
}

/* [...]: PCRE2's classes read as POSIX's, except that a backslash is an
 * escape there and a literal here, and that PCRE2 has no collating
 * elements ([.x.] and [=x=] of one character are that character). */
static int bracket(translation *t) {
  static const char *const classes[] = {"alnum", "alpha", "blank", "cntrl", "digit", "graph",
                                        "lower", "print", "punct", "space", "upper", "xdigit"};
  start_atom(t);
  hl_sb_putc(&t->out, '[');
  t->i++;
  if (t->p[t->i] == '^') hl_sb_putc(&t->out, '^'), t->i++;
  if (t->p[t->i] == ']') hl_sb_puts(&t->out, "\\]"), t->i++;
  for (;;) {
    char c = t->p[t->i];
    if (!c) return fail(t, "an unmatched [");
    if (c == ']') break;
    if (c == '[' && (t->p[t->i + 1] == ':' || t->p[t->i + 1] == '.' || t->p[t->i + 1] == '=')) {
      char kind = t->p[t->i + 1];
      const char *body = t->p + t->i + 2;
      const char *end = body;
      while (*end && !(end[0] == kind && end[1] == ']')) end++;
      if (!*end) return fail(t, "an unterminated [: :], [. .] or [= =]");
      size_t n = (size_t)(end - body);
      if (kind == ':') {
        int known = 0;
        for (size_t k = 0; k < sizeof classes / sizeof *classes; k++)
          known |= strlen(classes[k]) == n && !strncmp(classes[k], body, n);
        if (!known) return fail(t, "an unknown character class");
        hl_sb_puts(&t->out, "[:");
        hl_sb_putn(&t->out, body, n);
        hl_sb_puts(&t->out, ":]");
      } else {
        if (n != 1) return fail(t, "a collating element of more than one character");
        literal(&t->out, (unsigned char)*body);
      }
      t->i = (size_t)(end - t->p) + 2;
      continue;
    }
    if (c == '\\' || c == '[') hl_sb_putc(&t->out, '\\');
    hl_sb_putc(&t->out, c);
    t->i++;
  }
  hl_sb_putc(&t->out, ']');
  t->i++;
  return 0;
}

/* \x outside brackets: glibc's word and buffer operators, or the literal
 * character; other letters and digits (back references above all, which
 * no linear-time matcher can have) are refused. */
static int escape(translation *t) {
  unsigned char c = (unsigned char)t->p[t->i + 1];
  const char *op = NULL;
  char same[3] = {'\\', (char)c, 0};
  int atom = 0;
  switch (c) {
  case '\0': return fail(t, "a trailing backslash");
  case 'w':
  case 'W':
  case 's':
  case 'S':
    atom = 1;
    op = same;
    break;
  case 'b':
  case 'B': op = same; break;
  case '<': op = "\\b(?=\\w)"; break;
  case '>': op = "\\b(?<=\\w)"; break;
  case '`': op = "\\A"; break;
  case '\'': op = "\\z"; break;
  default:
    if (isalnum(c)) return fail(t, "a back reference or an escaped letter or digit, which heaplint does not accept");
    start_atom(t);
    literal(&t->out, c);
    t->i += 2;
    return 0;
  }
  if (atom)
    start_atom(t);
  else
    t->atom = -1;
  hl_sb_puts(&t->out, op);
  t->i += 2;
  return 0;
}

static int translate(translation *t) {
  while (t->p[t->i]) {
    char c = t->p[t->i];
    int rc = 0;
    switch (c) {
    case '\\': rc = escape(t); break;
    case '[': rc = bracket(t); break;
    case '{': rc = interval(t); break;
    case '*':
    case '+':
    case '?': {
      char op[2] = {c, 0};
      rc = repetition(t, op);
      t->i++;
      break;
    }
    case '(':
      HL_PUSH(t->groups, t->ngroups, t->capgroups, t->out.len);
      hl_sb_puts(&t->out, "(?:");
      t->atom = -1;
      t->i++;
      break;
    case ')':
      if (!t->ngroups) return fail(t, "an unmatched )");
      hl_sb_putc(&t->out, ')');
      t->atom = (long)t->groups[--t->ngroups];
      t->repeated = 0;
      t->i++;
      break;
    case '|':
    case '^':
    case '$':
      hl_sb_putc(&t->out, c);
      t->atom = -1;
      t->i++;
      break;
    case '.':
      start_atom(t);
      hl_sb_putc(&t->out, '.');
      t->i++;
      break;
    default:
      start_atom(t);
      literal(&t->out, (unsigned char)c);
      t->i++;
    }
    if (rc) return -1;
  }
  if (t->ngroups) return fail(t, "an unmatched (");
  return 0;
}

hl_ere *hl_ere_compile(const char *pattern, char **err) {
  if (strlen(pattern) > MAX_PATTERN) {
    *err = hl_xasprintf("longer than %d bytes", MAX_PATTERN);
    return NULL;
  }
  translation t = {pattern, 0, {0}, -1, 0, NULL, 0, 0, NULL};
  hl_sb_puts(&t.out, "");
  int bad = translate(&t);
  free(t.groups);
  if (bad) {
    *err = t.err;
    hl_sb_free(&t.out);
    return NULL;
  }
  /* POSIX's '.' matches a newline and '$' only the very end; no UTF, so
   * bytes are matched as bytes, as glibc does in the C locale. */
  int code;
  PCRE2_SIZE offset;
  pcre2_code *re = pcre2_compile((PCRE2_SPTR)t.out.s, t.out.len,
                                 PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY | PCRE2_NEVER_UTF | PCRE2_NEVER_UCP |
                                     PCRE2_NEVER_BACKSLASH_C | PCRE2_NO_AUTO_CAPTURE,
                                 &code, &offset, NULL);
  hl_sb_free(&t.out);
  if (!re) {
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(code, msg, sizeof msg);
    *err = hl_xasprintf("%s", (const char *)msg);
    return NULL;
  }
  hl_ere *e = hl_xcalloc(1, sizeof *e);
  e->code = re;
  e->memo = hl_xcalloc(1, sizeof *e->memo);
  pthread_mutex_init(&e->memo->lock, NULL);
  e->match = pcre2_match_context_create(NULL);
  if (!e->match) {
    hl_ere_free(e);
    *err = hl_xstrdup("out of memory");
    return NULL;
  }
  return e;
}

/* The verdict remembered for s (0 or 1), or -1; with verdict >= 0,
 * remembers it instead. */
static int remembered(memo *m, const char *s, int verdict) {
  unsigned long long h = hl_hindex_hash(s, strlen(s));
  size_t cursor = 0, i;
  int found = -1;
  pthread_mutex_lock(&m->lock);
  while (found < 0 && hl_hindex_next(&m->ix, h, &cursor, &i))
    if (!strcmp(m->paths[i], s)) found = m->verdicts[i];
  if (found < 0 && verdict >= 0 && m->n < MAX_MEMO) {
    hl_hindex_add(&m->ix, h, m->n);
    hl_grow((void **)&m->verdicts, &m->capverdicts, m->n + 1, 1);
    m->verdicts[m->n] = (unsigned char)verdict;
    HL_PUSH(m->paths, m->n, m->cap, hl_xstrdup(s));
  }
  pthread_mutex_unlock(&m->lock);
  return found;
}

static int match(const hl_ere *re, const char *s) {
  pcre2_match_data *md = pcre2_match_data_create(1, NULL);
  if (!md) return 1;
  /* The DFA matcher keeps every active state of the pattern per subject
   * byte in this workspace; a pattern with more states asks for more. */
  size_t nws = 1024;
  int *ws = hl_xmalloc(nws * sizeof *ws);
  int rc;
  while ((rc = pcre2_dfa_match(re->code, (PCRE2_SPTR)s, strlen(s), 0, PCRE2_DFA_SHORTEST, md, re->match, ws, nws)) ==
             PCRE2_ERROR_DFA_WSSIZE &&
         nws < ((size_t)1 << 22)) {
    nws *= 4;
    ws = hl_xrealloc(ws, nws * sizeof *ws);
  }
  free(ws);
  pcre2_match_data_free(md);
  /* Only a sure "no match" leaves a header out: a limit reached keeps its
   * findings (never hide one because of an exhausted budget). */
  return rc != PCRE2_ERROR_NOMATCH;
}

int hl_ere_match(const hl_ere *re, const char *s) {
  int verdict = remembered(re->memo, s, -1);
  if (verdict < 0) {
    verdict = match(re, s);
    remembered(re->memo, s, verdict);
  }
  return verdict;
}

void hl_ere_free(hl_ere *re) {
  if (!re) return;
  pcre2_code_free(re->code);
  pcre2_match_context_free(re->match);
  if (re->memo) {
    for (size_t i = 0; i < re->memo->n; i++) free(re->memo->paths[i]);
    free(re->memo->paths);
    free(re->memo->verdicts);
    hl_hindex_free(&re->memo->ix);
    pthread_mutex_destroy(&re->memo->lock);
    free(re->memo);
  }
  free(re);
}
