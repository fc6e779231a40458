#include "report/merge.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/pipeline.h"
#include "util/hindex.h"
#include "util/output.h"
#include "util/strv.h"
#include "util/util.h"

/* ---- what a log must be to be merged ---- */

/* A SARIF log merged is read back by other tools (GitHub's code scanning,
 * GitLab, IDEs): a result that breaks what SARIF 2.1.0 requires of its
 * shape would make the whole merged log unusable, or be dropped there in
 * silence. So each is checked before anything is written, and the first
 * wrong one is named (file, JSON path, what is wrong). */
static int is_int_from(json_t *v, json_int_t min) { return json_is_integer(v) && json_integer_value(v) >= min; }

static const char *check_message(json_t *m) {
  if (!json_is_object(m)) return "has no message object";
  json_t *text = json_object_get(m, "text"), *id = json_object_get(m, "id");
  if (!json_is_string(text) && !json_is_string(id)) return "has a message with neither text nor id";
  if ((text && !json_is_string(text)) || (id && !json_is_string(id)))
    return "has a message whose text or id is not a string";
  return NULL;
}

static const char *check_region(json_t *r) {
  static const char *const lines[] = {"startLine", "startColumn", "endLine", "endColumn"};
  if (!r) return NULL;
  if (!json_is_object(r)) return "has a region that is not an object";
  for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
    json_t *v = json_object_get(r, lines[i]);
    if (v && !is_int_from(v, 1)) return "has a region whose line or column is not an integer of at least 1";
  }
  return NULL;
}

static const char *check_artifact(json_t *a) {
  if (!json_is_object(a)) return "has an artifactLocation that is not an object";
  json_t *uri = json_object_get(a, "uri");
  if (uri && !json_is_string(uri)) return "has an artifactLocation whose uri is not a string";
  return NULL;
}

/* A list of location objects (locations, relatedLocations). */
static const char *check_locations(json_t *list) {
  if (!list) return NULL;
  if (!json_is_array(list)) return "has locations that are not a list";
  size_t i;
  json_t *l;
  json_array_foreach(list, i, l) {
    if (!json_is_object(l)) return "has a location that is not an object";
    json_t *p = json_object_get(l, "physicalLocation"), *a;
    if (!p) continue;
    if (!json_is_object(p)) return "has a physicalLocation that is not an object";
    const char *why = (a = json_object_get(p, "artifactLocation")) ? check_artifact(a) : NULL;
    if (why || (why = check_region(json_object_get(p, "region")))) return why;
  }
  return NULL;
}

static const char *check_fixes(json_t *fixes) {
  if (!fixes) return NULL;
  if (!json_is_array(fixes)) return "has fixes that are not a list";
  size_t i, k, m;
  json_t *fix, *change, *rep;
  json_array_foreach(fixes, i, fix) {
    json_t *changes = json_object_get(fix, "artifactChanges");
    if (!json_is_array(changes) || !json_array_size(changes)) return "has a fix without artifactChanges";
    json_array_foreach(changes, k, change) {
      json_t *reps = json_object_get(change, "replacements");
      const char *why = check_artifact(json_object_get(change, "artifactLocation"));
      if (why) return why;
      if (!json_is_array(reps) || !json_array_size(reps)) return "has an artifactChange without replacements";
      json_array_foreach(reps, m, rep) if (!json_is_object(json_object_get(rep, "deletedRegion")) ||
                                           (why = check_region(json_object_get(rep, "deletedRegion")))) return why
          ? why
          : "has a replacement without a deletedRegion";
    }
  }
  return NULL;
}

static const char *check_result(json_t *r) {
  static const char *const levels[] = {"none", "note", "warning", "error"};
  static const char *const kinds[] = {"notApplicable", "pass", "fail", "review", "open", "informational"};
  if (!json_is_object(r)) return "is not an object";
  json_t *id = json_object_get(r, "ruleId"), *rule = json_object_get(r, "rule"), *v;
  if (id && !json_is_string(id)) return "has a ruleId that is not a string";
  if (rule && (!json_is_object(rule) || (json_object_get(rule, "id") && !json_is_string(json_object_get(rule, "id")))))
    return "has a rule that is not an object with a string id";
  if (!json_is_string(id) && !json_is_string(json_object_get(rule, "id"))) return "names no rule (ruleId or rule.id)";
  if (json_is_string(id) && json_is_string(json_object_get(rule, "id")) &&
      strcmp(json_string_value(id), json_string_value(json_object_get(rule, "id"))))
    return "has a ruleId and a rule.id that differ";
  if ((v = json_object_get(r, "ruleIndex")) && !is_int_from(v, -1))
    return "has a ruleIndex that is not an integer of at least -1";
  if ((v = json_object_get(r, "level")) && (!json_is_string(v) || !hl_str_in(json_string_value(v), levels, 4)))
    return "has a level that is not none, note, warning or error";
  if ((v = json_object_get(r, "kind")) && (!json_is_string(v) || !hl_str_in(json_string_value(v), kinds, 6)))
    return "has a kind that SARIF does not define";
  const char *why = check_message(json_object_get(r, "message"));
  if (why || (why = check_locations(json_object_get(r, "locations"))) ||
      (why = check_locations(json_object_get(r, "relatedLocations"))) ||
      (why = check_fixes(json_object_get(r, "fixes"))))
    return why;
  if ((v = json_object_get(r, "partialFingerprints"))) {
    const char *key;
    json_t *fp;
    if (!json_is_object(v)) return "has partialFingerprints that are not an object";
    json_object_foreach(v, key, fp) if (!json_is_string(fp)) return "has a partialFingerprint that is not a string";
  }
  return NULL;
}

/* The first thing wrong with a log heaplint wrote, as "<where>: <what>",
 * or NULL. */
static char *check_log(json_t *log) {
  json_t *runs = json_object_get(log, "runs"), *run = json_array_get(runs, 0), *v, *x;
  json_t *driver = json_object_get(json_object_get(run, "tool"), "driver");
  const char *name = json_string_value(json_object_get(driver, "name"));
  if (!json_is_object(log) || !json_is_string(json_object_get(log, "version")) ||
      strcmp(json_string_value(json_object_get(log, "version")), "2.1.0") || !json_is_object(run) || !name ||
      strcmp(name, "heaplint"))
    return hl_xstrdup("not a SARIF 2.1.0 log written by heaplint");
  if (json_array_size(runs) != 1) return hl_xstrdup("runs: a shard's log has one run");
  size_t i;
  json_t *rules = json_object_get(driver, "rules");
  if (rules && !json_is_array(rules)) return hl_xstrdup("runs[0].tool.driver.rules: not a list");
  json_array_foreach(rules, i, x) if (!json_is_string(json_object_get(x, "id"))) return hl_xasprintf(
      "runs[0].tool.driver.rules[%zu]: a rule needs a string id", i);
  if ((v = json_object_get(run, "results")) && !json_is_array(v)) return hl_xstrdup("runs[0].results: not a list");
  json_array_foreach(v, i, x) {
    const char *why = check_result(x);
    if (why) return hl_xasprintf("runs[0].results[%zu]: the result %s", i, why);
  }
  if ((v = json_object_get(run, "invocations")) && !json_is_array(v))
    return hl_xstrdup("runs[0].invocations: not a list");
  json_t *notes = json_object_get(json_array_get(v, 0), "toolExecutionNotifications");
  if (notes && !json_is_array(notes))
    return hl_xstrdup("runs[0].invocations[0].toolExecutionNotifications: not a list");
  json_array_foreach(notes, i, x) {
    const char *why = json_is_object(x) ? check_message(json_object_get(x, "message")) : "is not an object";
    if (why) return hl_xasprintf("runs[0].invocations[0].toolExecutionNotifications[%zu]: the notification %s", i, why);
  }
  return NULL;
}

/* ---- merging ---- */

static const char *str_at(json_t *o, const char *path) {
  /* "a.b.c": object keys only */
  char buf[256];
  snprintf(buf, sizeof buf, "%s", path);
  json_t *cur = o;
  char *save = NULL;
  for (char *tok = strtok_r(buf, ".", &save); tok && cur; tok = strtok_r(NULL, ".", &save))
    cur = json_object_get(cur, tok);
  return json_is_string(cur) ? json_string_value(cur) : "";
}

static const char *rule_id(json_t *result) {
  json_t *id = json_object_get(result, "ruleId");
  return json_is_string(id) ? json_string_value(id) : str_at(result, "rule.id");
}

static json_t *first_location(json_t *result) { return json_array_get(json_object_get(result, "locations"), 0); }

static int result_order(const void *pa, const void *pb) {
  json_t *a = *(json_t *const *)pa, *b = *(json_t *const *)pb;
  json_t *la = json_object_get(first_location(a), "physicalLocation");
  json_t *lb = json_object_get(first_location(b), "physicalLocation");
  int c = strcmp(str_at(la, "artifactLocation.uri"), str_at(lb, "artifactLocation.uri"));
  if (c) return c;
  json_int_t na = json_integer_value(json_object_get(json_object_get(la, "region"), "startLine"));
  json_int_t nb = json_integer_value(json_object_get(json_object_get(lb, "region"), "startLine"));
  if (na != nb) return na < nb ? -1 : 1;
  na = json_integer_value(json_object_get(json_object_get(la, "region"), "startColumn"));
  nb = json_integer_value(json_object_get(json_object_get(lb, "region"), "startColumn"));
  if (na != nb) return na < nb ? -1 : 1;
  if ((c = strcmp(rule_id(a), rule_id(b)))) return c;
  return strcmp(str_at(a, "message.text"), str_at(b, "message.text"));
}

/* The merged log's rules, each id found by hash: a log of many rules and
 * results costs as many lookups, not rules times results comparisons. */
typedef struct merged_rules {
  json_t *list;
  hl_hindex ix;
} merged_rules;

/* The index of the rule id in the list, or -1. */
static long rule_index(const merged_rules *R, const char *id) {
  size_t cursor = 0, i;
  unsigned long long h = hl_hindex_hash(id, strlen(id));
  while (hl_hindex_next(&R->ix, h, &cursor, &i))
    if (!strcmp(str_at(json_array_get(R->list, i), "id"), id)) return (long)i;
  return -1;
}

/* The rules' union: a rule only a later shard reports is added. */
static void add_rules(merged_rules *R, json_t *theirs) {
  size_t k;
  json_t *rule;
  json_array_foreach(theirs, k, rule) {
    const char *id = str_at(rule, "id");
    if (rule_index(R, id) >= 0) continue;
    hl_hindex_add(&R->ix, hl_hindex_hash(id, strlen(id)), json_array_size(R->list));
    json_array_append(R->list, rule);
  }
}

/* What the logs read so far hold. */
typedef struct merging {
  json_t *merged, *run;
  merged_rules rules;
  json_t **all, **notes;
  size_t nall, cap, nnotes, capnotes;
  int success;
} merging;

/* Reads and checks one log into M; 0, or -1 with *err. */
static int read_log(merging *M, const char *path, char **err) {
  json_error_t e;
  char *text = NULL;
  size_t len = 0;
  int rerr = hl_read_file_max(path, HL_SARIF_MAX, &text, &len);
  json_t *log = rerr ? NULL : json_loadb(text, len, 0, &e);
  free(text);
  char *why = NULL;
  if (rerr) {
    why = hl_read_failure(rerr, len, HL_SARIF_MAX, "a SARIF log");
    *err = hl_xasprintf("%s: cannot read: %s", path, why);
  } else if (!log) {
    *err = e.line > 0 ? hl_xasprintf("%s:%d:%d: not JSON: %s", path, e.line, e.column, e.text)
                      : hl_xasprintf("%s: cannot read: %s", path, e.text);
  } else if ((why = check_log(log))) {
    *err = hl_xasprintf("%s: %s", path, why);
  }
  free(why);
  if (*err) {
    json_decref(log);
    return -1;
  }
  json_t *r = json_array_get(json_object_get(log, "runs"), 0);
  json_t *rules = json_object_get(json_object_get(json_object_get(r, "tool"), "driver"), "rules");
  if (!M->merged) {
    M->merged = json_deep_copy(log);
    M->run = json_array_get(json_object_get(M->merged, "runs"), 0);
    json_t *driver = json_object_get(json_object_get(M->run, "tool"), "driver");
    M->rules.list = json_array();
    json_object_set_new(driver, "rules", M->rules.list);
  }
  add_rules(&M->rules, rules);
  json_t *inv = json_array_get(json_object_get(r, "invocations"), 0);
  if (json_is_false(json_object_get(inv, "executionSuccessful"))) M->success = 0;
  size_t k;
  json_t *x;
  json_array_foreach(json_object_get(inv, "toolExecutionNotifications"), k, x)
      HL_PUSH(M->notes, M->nnotes, M->capnotes, json_incref(x));
  json_array_foreach(json_object_get(r, "results"), k, x) HL_PUSH(M->all, M->nall, M->cap, json_incref(x));
  json_decref(log);
  return 0;
}

/* The merged log's results and notifications, into M->merged. */
static void finish(merging *M) {
  if (M->nall) qsort(M->all, M->nall, sizeof *M->all, result_order); /* all is NULL when there are none */
  json_t *results = json_array();
  for (size_t i = 0; i < M->nall; i++) {
    /* The same finding from two shards (a header both included) once. */
    if (i > 0 && result_order(&M->all[i - 1], &M->all[i]) == 0) continue;
    json_t *r = json_deep_copy(M->all[i]);
    long idx = rule_index(&M->rules, rule_id(r));
    if (idx >= 0)
      json_object_set_new(r, "ruleIndex", json_integer((json_int_t)idx));
    else
      json_object_del(r, "ruleIndex");
    json_array_append_new(results, r);
  }
  json_object_set_new(M->run, "results", results);
  json_t *inv = json_array_get(json_object_get(M->run, "invocations"), 0);
  if (inv) {
    json_object_set_new(inv, "executionSuccessful", json_boolean(M->success));
    json_t *notes = json_array();
    for (size_t i = 0; i < M->nnotes; i++) json_array_append(notes, M->notes[i]);
    json_object_set_new(inv, "toolExecutionNotifications", notes);
  }
}

int hl_sarif_merge(FILE *out, char *const *paths, size_t n, char **err) {
  merging M = {.success = 1};
  int ok = 1;
  *err = NULL;
  for (size_t i = 0; i < n && ok; i++) ok = read_log(&M, paths[i], err) == 0;
  if (ok && !M.merged) {
    *err = hl_xstrdup("merge-sarif: no input files");
    ok = 0;
  }
  if (ok) {
    finish(&M);
    ok = json_dumpf(M.merged, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0 && fputc('\n', out) != EOF;
    if (!ok) *err = hl_xstrdup("merge-sarif: cannot write the output");
  }
  for (size_t i = 0; i < M.nall; i++) json_decref(M.all[i]);
  free(M.all);
  for (size_t i = 0; i < M.nnotes; i++) json_decref(M.notes[i]);
  free(M.notes);
  hl_hindex_free(&M.rules.ix);
  json_decref(M.merged);
  return ok ? 0 : -1;
}

/* ---- the subcommand ---- */

static const char merge_usage[] =
    "usage: heaplint merge-sarif [-o <file>] <log.sarif>...\n"
    "\n"
    "Joins the SARIF logs of heaplint's shards (--shard=k/n --format=sarif) into\n"
    "one: the rules' union, every result once, in file and line order, and every\n"
    "shard's notifications. Written to stdout, or with -o through a temporary\n"
    "file and a rename.\n";

/* The logs named, and -o; returns -1 after printing the usage (*help) or
 * saying what is wrong. */
static int parse(int argc, char **argv, const char **output, char **logs, size_t *nlogs, int *help) {
  for (int i = 1; i < argc; i++) {
    int matched = 0;
    const char *v = hl_option_value(argc, argv, &i, "-o", &matched);
    if (matched) {
      if (!v || !*v) {
        fprintf(stderr, "heaplint: error: merge-sarif: option '-o' needs a value\n");
        return -1;
      }
      *output = v;
    } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      fputs(merge_usage, stdout);
      *help = 1;
      return -1;
    } else if (!strcmp(argv[i], "--")) {
      while (++i < argc) logs[(*nlogs)++] = argv[i];
    } else if (argv[i][0] == '-' && argv[i][1]) {
      fprintf(stderr, "heaplint: error: merge-sarif: unknown option '%s' (see heaplint merge-sarif --help)\n", argv[i]);
      return -1;
    } else {
      logs[(*nlogs)++] = argv[i];
    }
  }
  if (!*nlogs) {
    fprintf(stderr, "heaplint: error: usage: heaplint merge-sarif [-o <file>] <log.sarif>...\n");
    return -1;
  }
  return 0;
}

/* -o must not name one of the logs: it would replace what it merges.
 * Compared as files (a link, a hard link name it too). */
static int output_is_log(const char *output, char *const *logs, size_t nlogs) {
  for (size_t i = 0; output && i < nlogs; i++)
    if (hl_same_file(output, logs[i])) {
      fprintf(stderr,
              "heaplint: error: %s: refusing to write the merged log there: it is one of the logs merged (%s)\n",
              output, logs[i]);
      return 1;
    }
  return 0;
}

int hl_merge_sarif_main(int argc, char **argv) {
  const char *output = NULL;
  char **logs = hl_xcalloc((size_t)argc, sizeof *logs);
  size_t nlogs = 0;
  int help = 0, rc = HL_EXIT_INPUT;
  hl_output out;
  FILE *f;
  char *err = NULL;
  if (parse(argc, argv, &output, logs, &nlogs, &help)) {
    if (help && hl_stdout_ok()) rc = HL_EXIT_RAN;
  } else if (output_is_log(output, logs, nlogs)) {
    /* rc stays HL_EXIT_INPUT */
  } else if ((f = hl_output_open(&out, output, NULL))) {
    int merged = hl_sarif_merge(f, logs, nlogs, &err) == 0;
    if (!merged) {
      fprintf(stderr, "heaplint: error: %s\n", err);
      free(err);
    }
    if (hl_output_close(&out, merged) == 0) rc = HL_EXIT_RAN;
  }
  free(logs);
  return rc;
}
