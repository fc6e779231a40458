#include "index/db.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "index/serial.h"
#include "util/util.h"

/* 'HLIX': what makes a SQLite file a heaplint index. */
#define APPLICATION_ID 0x484c4958
/* The layout of the tables below; another is refused. */
#define SCHEMA 4

static const char *const schema_sql =
    "CREATE TABLE IF NOT EXISTS units(name TEXT PRIMARY KEY, digest TEXT NOT NULL, zones TEXT NOT NULL)"
    " WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS functions(usr TEXT NOT NULL, unit TEXT NOT NULL, body TEXT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS functions_usr ON functions(usr);"
    "CREATE INDEX IF NOT EXISTS functions_unit ON functions(unit);"
    "CREATE TABLE IF NOT EXISTS overrides(usr TEXT NOT NULL, overridden TEXT NOT NULL, unit TEXT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS overrides_of ON overrides(overridden);"
    "CREATE INDEX IF NOT EXISTS overrides_unit ON overrides(unit);"
    "CREATE TABLE IF NOT EXISTS apis(unit TEXT NOT NULL, usr TEXT NOT NULL, param INTEGER NOT NULL, api TEXT NOT NULL,"
    " type TEXT NOT NULL, wrapper TEXT NOT NULL, replacement TEXT NOT NULL, rule TEXT NOT NULL, file TEXT NOT NULL, "
    "line INTEGER NOT NULL,"
    " col INTEGER NOT NULL, offset INTEGER NOT NULL, size INTEGER NOT NULL, align INTEGER NOT NULL,"
    " capacity INTEGER NOT NULL);"
    "CREATE INDEX IF NOT EXISTS apis_param ON apis(usr, param);"
    "CREATE INDEX IF NOT EXISTS apis_unit ON apis(unit);"
    "CREATE TABLE IF NOT EXISTS aliases(usr TEXT NOT NULL, unit TEXT NOT NULL, wrapper TEXT NOT NULL, blocked TEXT,"
    " body TEXT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS aliases_usr ON aliases(usr);"
    /* One row per alias, from the first unit (alias_lookup): a header's
     * alias has a row in every unit that includes it. */
    "CREATE INDEX IF NOT EXISTS aliases_usr_unit ON aliases(usr, unit);"
    "CREATE INDEX IF NOT EXISTS aliases_unit ON aliases(unit);"
    "CREATE TABLE IF NOT EXISTS wvalues(unit TEXT NOT NULL, wrapper TEXT NOT NULL, file TEXT NOT NULL,"
    " line INTEGER NOT NULL, col INTEGER NOT NULL, offset INTEGER NOT NULL, known INTEGER NOT NULL,"
    " allocates INTEGER NOT NULL, move_throws INTEGER NOT NULL, size INTEGER NOT NULL, align INTEGER NOT NULL,"
    " store_file TEXT NOT NULL, store_offset INTEGER NOT NULL, dependent INTEGER NOT NULL,"
    " move_fixed INTEGER NOT NULL, fixes TEXT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS wvalues_store ON wvalues(store_file, store_offset);"
    /* Whether any unit sized a template's store (alias_figures): one probe,
     * not a scan of the store's row in every unit. */
    "CREATE INDEX IF NOT EXISTS wvalues_store_known ON wvalues(store_file, store_offset, wrapper, known);"
    "CREATE INDEX IF NOT EXISTS wvalues_wrapper ON wvalues(wrapper);"
    "CREATE INDEX IF NOT EXISTS wvalues_unit ON wvalues(unit);"
    "CREATE TABLE IF NOT EXISTS spellings(unit TEXT NOT NULL, wrapper TEXT NOT NULL, file TEXT NOT NULL,"
    " line INTEGER NOT NULL, col INTEGER NOT NULL, offset INTEGER NOT NULL);"
    "CREATE INDEX IF NOT EXISTS spellings_wrapper ON spellings(wrapper);"
    "CREATE INDEX IF NOT EXISTS spellings_unit ON spellings(unit);"
    /* function-copy across units: what flows between slots (src NULL:
     * a value heaplint cannot follow), and the copies of slots' values
     * each unit left to the link step. */
    "CREATE TABLE IF NOT EXISTS wflows(unit TEXT NOT NULL, src TEXT, dst TEXT NOT NULL, file TEXT NOT NULL,"
    " line INTEGER NOT NULL, col INTEGER NOT NULL, offset INTEGER NOT NULL);"
    "CREATE INDEX IF NOT EXISTS wflows_dst ON wflows(dst);"
    "CREATE INDEX IF NOT EXISTS wflows_unit ON wflows(unit);"
    "CREATE TABLE IF NOT EXISTS wcopies(unit TEXT NOT NULL, slot TEXT NOT NULL, wrapper TEXT NOT NULL,"
    " what TEXT NOT NULL, file TEXT NOT NULL, line INTEGER NOT NULL, col INTEGER NOT NULL, offset INTEGER NOT NULL);"
    "CREATE INDEX IF NOT EXISTS wcopies_unit ON wcopies(unit);";

/* The tables whose rows belong to one unit (column unit), besides units. */
static const char *const unit_tables[] = {"functions", "overrides", "apis",   "aliases",
                                          "wvalues",   "spellings", "wflows", "wcopies"};

struct hl_index {
  sqlite3 *db;
  char *name; /* for messages: the file, or "the index in memory" */
  sqlite3_stmt *fn, *ov, *fl;
};

static int fail(hl_index *X, const char *doing, char **err) {
  *err = hl_xasprintf("%s: %s: %s", X->name, doing, sqlite3_errmsg(X->db));
  return -1;
}

static int exec(hl_index *X, const char *sql, const char *doing, char **err) {
  return sqlite3_exec(X->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : fail(X, doing, err);
}

/* A pragma's integer value in schema db ("main", "src"). */
static int pragma(hl_index *X, const char *db, const char *name, long long *v) {
  char *sql = hl_xasprintf("PRAGMA %s.%s", db, name);
  sqlite3_stmt *st;
  int rc = sqlite3_prepare_v2(X->db, sql, -1, &st, NULL);
  free(sql);
  if (rc != SQLITE_OK) return -1;
  rc = sqlite3_step(st);
  *v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
  sqlite3_finalize(st);
  return rc == SQLITE_ROW ? 0 : -1;
}

/* Schema db is a heaplint index of this version, or empty (new: fresh
 * may make it one). */
static int recognize(hl_index *X, const char *db, const char *file, int fresh, char **err) {
  long long app, version, tables = 0;
  if (pragma(X, db, "application_id", &app) || pragma(X, db, "user_version", &version)) {
    *err = hl_xasprintf("%s: not a heaplint index (%s)", file, sqlite3_errmsg(X->db));
    return -1;
  }
  char *sql = hl_xasprintf("SELECT count(*) FROM %s.sqlite_master", db);
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(X->db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
    tables = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  free(sql);
  if (app == 0 && version == 0 && tables == 0 && fresh) {
    char *init = hl_xasprintf("PRAGMA application_id=%d; PRAGMA user_version=%d;", APPLICATION_ID, SCHEMA);
    int rc = exec(X, init, "creating the index", err);
    free(init);
    return rc;
  }
  if (app != APPLICATION_ID) {
    *err = hl_xasprintf("%s: not a heaplint index (a SQLite database of another program%s)", file,
                        tables ? "" : ", or an empty one");
    return -1;
  }
  if (version != SCHEMA) {
    *err = hl_xasprintf(
        "%s: a heaplint index of another version (schema %lld, this heaplint reads %d): remove it, "
        "the next run builds it again",
        file, version, SCHEMA);
    return -1;
  }
  return 0;
}

/* The write transaction an index is recognized and made in: a file that
 * is no SQLite database fails here, before recognize. */
static int begin_open(hl_index *X, char **err) {
  int rc = sqlite3_exec(X->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
  if (rc == SQLITE_OK) return 0;
  *err = rc == SQLITE_NOTADB ? hl_xasprintf("%s: not a heaplint index (%s)", X->name, sqlite3_errmsg(X->db))
                             : hl_xasprintf("%s: cannot open the index: %s", X->name, sqlite3_errmsg(X->db));
  return -1;
}

static int fn_lookup(void *data, const char *usr, hl_sfn *out);
static void ov_lookup(void *data, const char *usr, hl_strv *out);

/* The index at path opened with flags: read and written (made when
 * missing), or only read. */
static hl_index *open_index(const char *path, int writable, char **err) {
  *err = NULL;
  hl_index *X = hl_xcalloc(1, sizeof *X);
  X->name = hl_xstrdup(path ? path : "the index in memory");
  int flags = (writable ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY) | SQLITE_OPEN_NOFOLLOW |
              SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_URI;
  if (sqlite3_open_v2(path ? path : ":memory:", &X->db, flags, NULL) != SQLITE_OK) {
    *err = hl_xasprintf("%s: cannot open the index: %s", X->name, X->db ? sqlite3_errmsg(X->db) : "out of memory");
    char *ignored = NULL;
    hl_index_close(X, &ignored);
    free(ignored);
    return NULL;
  }
  sqlite3_busy_timeout(X->db, 60000); /* runs that share it wait for each other */
  /* Recognized and made in one write transaction: runs that share the
   * index (CI shards on one machine) never see it half made. */
  if ((writable && begin_open(X, err)) || recognize(X, "main", X->name, writable, err) ||
      (writable && exec(X, schema_sql, "creating the index", err)) ||
      (writable && exec(X, "COMMIT", "creating the index", err)) ||
      sqlite3_prepare_v2(X->db, "SELECT body FROM functions WHERE usr=?1 ORDER BY unit LIMIT 1", -1, &X->fn, NULL) ||
      sqlite3_prepare_v2(X->db, "SELECT DISTINCT usr FROM overrides WHERE overridden=?1 ORDER BY usr", -1, &X->ov,
                         NULL) ||
      sqlite3_prepare_v2(
          X->db, "SELECT DISTINCT src, file, line, col, offset FROM wflows WHERE dst=?1 ORDER BY file, line, col", -1,
          &X->fl, NULL)) {
    if (!*err) fail(X, "reading the index", err);
    char *ignored = NULL;
    hl_index_close(X, &ignored);
    free(ignored);
    return NULL;
  }
  return X;
}

hl_index *hl_index_open(const char *path, char **err) { return open_index(path, 1, err); }

hl_index *hl_index_open_readonly(const char *path, char **err) { return open_index(path, 0, err); }

int hl_index_begin(hl_index *X, char **err) { return exec(X, "BEGIN IMMEDIATE", "writing", err); }
int hl_index_commit(hl_index *X, char **err) { return exec(X, "COMMIT", "writing", err); }

/* Runs sql with text parameters (NULL-terminated); 0 or -1. */
static int run(hl_index *X, const char *sql, const char *const *args, char **err) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(X->db, sql, -1, &st, NULL) != SQLITE_OK) return fail(X, "writing", err);
  for (int i = 0; args[i]; i++) sqlite3_bind_text(st, i + 1, args[i], -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  sqlite3_finalize(st);
  return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : fail(X, "writing", err);
}

/* The digest the index holds of unit, or NULL. */
static char *digest_of(hl_index *X, const char *unit) {
  sqlite3_stmt *st;
  char *d = NULL;
  if (sqlite3_prepare_v2(X->db, "SELECT digest FROM units WHERE name=?1", -1, &st, NULL) != SQLITE_OK) return NULL;
  sqlite3_bind_text(st, 1, unit, -1, SQLITE_STATIC);
  if (sqlite3_step(st) == SQLITE_ROW) d = hl_xstrdup((const char *)sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  return d;
}

static int put_api(hl_index *X, const char *unit, const hl_sapi *a, char **err) {
  char *n[7] = {hl_xasprintf("%d", a->param),     hl_xasprintf("%u", a->at.line), hl_xasprintf("%u", a->at.col),
                hl_xasprintf("%u", a->at.offset), hl_xasprintf("%ld", a->size),   hl_xasprintf("%ld", a->align),
                hl_xasprintf("%ld", a->capacity)};
  int rc =
      run(X,
          "INSERT INTO apis(unit, usr, param, api, type, wrapper, replacement, rule, file, line, col, offset, size,"
          " align, capacity) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
          (const char *[]){unit, a->usr, n[0], a->api, a->type, a->wrapper, a->replacement, a->rule,
                           a->at.file ? a->at.file : "", n[1], n[2], n[3], n[4], n[5], n[6], NULL},
          err);
  for (int i = 0; i < 7; i++) free(n[i]);
  return rc;
}

static int put_value(hl_index *X, const char *unit, const hl_svalue *v, char **err) {
  char *n[11] = {
      hl_xasprintf("%u", v->at.line),   hl_xasprintf("%u", v->at.col),    hl_xasprintf("%u", v->at.offset),
      hl_xasprintf("%d", v->known),     hl_xasprintf("%d", v->allocates), hl_xasprintf("%d", v->move_throws),
      hl_xasprintf("%ld", v->size),     hl_xasprintf("%ld", v->align),    hl_xasprintf("%u", v->store.offset),
      hl_xasprintf("%d", v->dependent), hl_xasprintf("%d", v->move_fixed)};
  char *fixes = v->move_fixed ? hl_sedits_json(v->fixes, v->nfixes) : hl_xstrdup("");
  int rc = run(X,
               "INSERT INTO wvalues(unit, wrapper, file, line, col, offset, known, allocates, move_throws, size, align,"
               " store_file, store_offset, dependent, move_fixed, fixes)"
               " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
               (const char *[]){unit, v->wrapper, v->at.file ? v->at.file : "", n[0], n[1], n[2], n[3], n[4], n[5],
                                n[6], n[7], v->store.file ? v->store.file : "", n[8], n[9], n[10], fixes, NULL},
               err);
  free(fixes);
  for (int i = 0; i < 11; i++) free(n[i]);
  return rc;
}

static int put_spelling(hl_index *X, const char *unit, const hl_sspelling *p, char **err) {
  char *n[3] = {hl_xasprintf("%u", p->at.line), hl_xasprintf("%u", p->at.col), hl_xasprintf("%u", p->at.offset)};
  int rc = run(X, "INSERT INTO spellings(unit, wrapper, file, line, col, offset) VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
               (const char *[]){unit, p->wrapper, p->at.file ? p->at.file : "", n[0], n[1], n[2], NULL}, err);
  for (int i = 0; i < 3; i++) free(n[i]);
  return rc;
}

static int put_flow(hl_index *X, const char *unit, const hl_sflow *f, char **err) {
  char *n[3] = {hl_xasprintf("%u", f->at.line), hl_xasprintf("%u", f->at.col), hl_xasprintf("%u", f->at.offset)};
  sqlite3_stmt *st;
  int rc = sqlite3_prepare_v2(X->db,
                              "INSERT INTO wflows(unit, src, dst, file, line, col, offset)"
                              " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                              -1, &st, NULL);
  if (rc == SQLITE_OK) {
    const char *v[7] = {unit, f->from, f->to, f->at.file ? f->at.file : "", n[0], n[1], n[2]};
    for (int i = 0; i < 7; i++)
      if (v[i]) sqlite3_bind_text(st, i + 1, v[i], -1, SQLITE_STATIC); /* src NULL: unknown */
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
  }
  for (int i = 0; i < 3; i++) free(n[i]);
  return rc == SQLITE_DONE ? 0 : fail(X, "writing", err);
}

static int put_copy(hl_index *X, const char *unit, const hl_scopy *c, char **err) {
  char *n[3] = {hl_xasprintf("%u", c->at.line), hl_xasprintf("%u", c->at.col), hl_xasprintf("%u", c->at.offset)};
  int rc = run(
      X,
      "INSERT INTO wcopies(unit, slot, wrapper, what, file, line, col, offset)"
      " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
      (const char *[]){unit, c->slot, c->wrapper, c->what, c->at.file ? c->at.file : "", n[0], n[1], n[2], NULL}, err);
  for (int i = 0; i < 3; i++) free(n[i]);
  return rc;
}

static int put_alias(hl_index *X, const char *unit, const hl_salias *a, char **err) {
  char *body = hl_salias_json(a);
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(X->db, "INSERT INTO aliases(usr, unit, wrapper, blocked, body) VALUES(?1, ?2, ?3, ?4, ?5)", -1,
                         &st, NULL) != SQLITE_OK) {
    free(body);
    return fail(X, "writing", err);
  }
  sqlite3_bind_text(st, 1, a->usr, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, unit, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 3, a->wrapper, -1, SQLITE_STATIC);
  if (a->blocked) sqlite3_bind_text(st, 4, a->blocked, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 5, body, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  sqlite3_finalize(st);
  free(body);
  return rc == SQLITE_DONE ? 0 : fail(X, "writing", err);
}

static int delete_unit(hl_index *X, const char *unit, char **err) {
  for (size_t i = 0; i < sizeof unit_tables / sizeof *unit_tables; i++) {
    char *sql = hl_xasprintf("DELETE FROM %s WHERE unit=?1", unit_tables[i]);
    int rc = run(X, sql, (const char *[]){unit, NULL}, err);
    free(sql);
    if (rc) return -1;
  }
  return 0;
}

static int put_rows(hl_index *X, const char *unit, const hl_summary *s, const char *digest, char **err) {
  char *zones = hl_szones_json(s->zones, s->nzones);
  int rc = delete_unit(X, unit, err) || run(X, "INSERT OR REPLACE INTO units(name, digest, zones) VALUES(?1, ?2, ?3)",
                                            (const char *[]){unit, digest, zones, NULL}, err);
  free(zones);
  for (size_t i = 0; !rc && i < s->naliases; i++) rc = put_alias(X, unit, &s->aliases[i], err);
  for (size_t i = 0; !rc && i < s->nvalues; i++) rc = put_value(X, unit, &s->values[i], err);
  for (size_t i = 0; !rc && i < s->nspellings; i++) rc = put_spelling(X, unit, &s->spellings[i], err);
  for (size_t i = 0; !rc && i < s->nflows; i++) rc = put_flow(X, unit, &s->flows[i], err);
  for (size_t i = 0; !rc && i < s->ncopies; i++) rc = put_copy(X, unit, &s->copies[i], err);
  for (size_t i = 0; !rc && i < s->nfns; i++) {
    char *body = hl_sfn_json(&s->fns[i]);
    rc = run(X, "INSERT INTO functions(usr, unit, body) VALUES(?1, ?2, ?3)",
             (const char *[]){s->fns[i].usr, unit, body, NULL}, err);
    free(body);
  }
  for (size_t i = 0; !rc && i < s->overrides.n; i++)
    rc = run(X, "INSERT INTO overrides(usr, overridden, unit) VALUES(?1, ?2, ?3)",
             (const char *[]){s->overrides.v[i], s->overridden.v[i], unit, NULL}, err);
  for (size_t i = 0; !rc && i < s->napis; i++) rc = put_api(X, unit, &s->apis[i], err);
  return rc ? -1 : 0;
}

int hl_index_put(hl_index *X, const char *unit, const hl_summary *s, char **err) {
  char *json = hl_summary_json(s);
  char *digest = hl_xasprintf("%016llx", hl_fnv1a(json, strlen(json)));
  free(json);
  char *had = digest_of(X, unit);
  int rc = had && !strcmp(had, digest) ? 0 : put_rows(X, unit, s, digest, err);
  free(had);
  free(digest);
  return rc;
}

/* path as a read-only file: URI (never created when missing). */
static char *ro_uri(const char *path) {
  hl_sb b = {0};
  hl_sb_puts(&b, "file:");
  for (const unsigned char *p = (const unsigned char *)path; *p; p++)
    if (*p == '%' || *p == '?' || *p == '#' || *p < 0x21 || *p > 0x7e)
      hl_sb_printf(&b, "%%%02X", *p);
    else
      hl_sb_printf(&b, "%c", *p);
  hl_sb_puts(&b, "?mode=ro");
  char *r = hl_xstrdup(hl_sb_str(&b));
  hl_sb_free(&b);
  return r;
}

int hl_index_merge(hl_index *X, const char *path, char **err) {
  *err = NULL;
  char *uri = ro_uri(path);
  int rc = run(X, "ATTACH ?1 AS src", (const char *[]){uri, NULL}, err);
  free(uri);
  if (rc) {
    free(*err);
    *err = hl_xasprintf("%s: not a heaplint index (%s)", path, sqlite3_errmsg(X->db));
    return -1;
  }
  rc = recognize(X, "src", path, 0, err) || hl_index_begin(X, err) ||
       exec(X,
            "DELETE FROM main.functions WHERE unit IN (SELECT name FROM src.units);"
            "DELETE FROM main.overrides WHERE unit IN (SELECT name FROM src.units);"
            "DELETE FROM main.apis WHERE unit IN (SELECT name FROM src.units);"
            "DELETE FROM main.aliases WHERE unit IN (SELECT name FROM src.units);"
            "DELETE FROM main.wvalues WHERE unit IN (SELECT name FROM src.units);"
            "DELETE FROM main.spellings WHERE unit IN (SELECT name FROM src.units);"
            "DELETE FROM main.wflows WHERE unit IN (SELECT name FROM src.units);"
            "DELETE FROM main.wcopies WHERE unit IN (SELECT name FROM src.units);"
            "INSERT OR REPLACE INTO main.units SELECT name, digest, zones FROM src.units;"
            "INSERT INTO main.functions SELECT usr, unit, body FROM src.functions;"
            "INSERT INTO main.overrides SELECT usr, overridden, unit FROM src.overrides;"
            "INSERT INTO main.apis SELECT * FROM src.apis;"
            "INSERT INTO main.aliases SELECT * FROM src.aliases;"
            "INSERT INTO main.wvalues SELECT * FROM src.wvalues;"
            "INSERT INTO main.spellings SELECT * FROM src.spellings;"
            "INSERT INTO main.wflows SELECT * FROM src.wflows;"
            "INSERT INTO main.wcopies SELECT * FROM src.wcopies;",
            "merging", err) ||
       hl_index_commit(X, err);
  if (rc) sqlite3_exec(X->db, "ROLLBACK", NULL, NULL, NULL);
  sqlite3_exec(X->db, "DETACH src", NULL, NULL, NULL);
  return rc ? -1 : 0;
}

static char *column(sqlite3_stmt *st, int i);

/* The copies unit left to the link step, added to s. */
static int unit_copies(hl_index *X, const char *unit, hl_summary *s) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(
          X->db, "SELECT slot, wrapper, what, file, line, col, offset FROM wcopies WHERE unit=?1 ORDER BY rowid", -1,
          &st, NULL) != SQLITE_OK)
    return -1;
  sqlite3_bind_text(st, 1, unit, -1, SQLITE_STATIC);
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    hl_scopy c = {column(st, 0),
                  column(st, 1),
                  column(st, 2),
                  {column(st, 3), (unsigned)sqlite3_column_int64(st, 4), (unsigned)sqlite3_column_int64(st, 5),
                   (unsigned)sqlite3_column_int64(st, 6)}};
    HL_PUSH(s->copies, s->ncopies, s->capcopies, c);
  }
  sqlite3_finalize(st);
  return rc == SQLITE_DONE ? 0 : -1;
}

hl_summary *hl_index_zones(hl_index *X, const char *unit, char **err) {
  sqlite3_stmt *st;
  hl_summary *s = NULL;
  if (sqlite3_prepare_v2(X->db, "SELECT zones FROM units WHERE name=?1", -1, &st, NULL) != SQLITE_OK) {
    fail(X, "reading", err);
    return NULL;
  }
  sqlite3_bind_text(st, 1, unit, -1, SQLITE_STATIC);
  if (sqlite3_step(st) == SQLITE_ROW) {
    const char *t = (const char *)sqlite3_column_text(st, 0);
    char *why = NULL;
    s = hl_szones_parse(t ? t : "", t ? (size_t)sqlite3_column_bytes(st, 0) : 0, &why);
    if (!s) *err = hl_xasprintf("%s: the zones of %s: %s", X->name, unit, why);
    free(why);
  }
  sqlite3_finalize(st);
  if (s && unit_copies(X, unit, s)) {
    hl_summary_free(s);
    s = NULL;
    fail(X, "reading", err);
  }
  return s;
}

static char *column(sqlite3_stmt *st, int i) {
  const char *t = (const char *)sqlite3_column_text(st, i);
  return hl_xstrdup(t ? t : "");
}

/* The sites of one API, each once (a header's call is in every unit that
 * includes it), in file order. */
static void api_sites(hl_index *X, const char *usr, int param, hl_api_figure *f) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(X->db,
                         "SELECT DISTINCT file, line, col, offset FROM apis WHERE usr=?1 AND param=?2"
                         " AND unit IN (SELECT name FROM temp.run_units) ORDER BY file, line, col",
                         -1, &st, NULL) != SQLITE_OK)
    return;
  sqlite3_bind_text(st, 1, usr, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int(st, 2, param);
  size_t cap = 0;
  while (sqlite3_step(st) == SQLITE_ROW) {
    hl_loc l = {column(st, 0), (unsigned)sqlite3_column_int64(st, 1), (unsigned)sqlite3_column_int64(st, 2),
                (unsigned)sqlite3_column_int64(st, 3)};
    HL_PUSH(f->at, f->nat, cap, l);
  }
  sqlite3_finalize(st);
}

static sqlite3_stmt *prepare1(hl_index *X, const char *sql, const char *arg) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(X->db, sql, -1, &st, NULL) != SQLITE_OK) return NULL;
  sqlite3_bind_text(st, 1, arg, -1, SQLITE_TRANSIENT);
  return st;
}

static int loc_before(const hl_loc *a, const hl_loc *b) {
  int c = strcmp(a->file, b->file);
  return c ? c < 0 : a->line != b->line ? a->line < b->line : a->col < b->col;
}

/* Where the parameter is declared written out as the wrapper: the
 * aliases rows of its units (a declaration through an alias has none). */
static void api_decls(hl_index *X, const char *usr, int param, hl_api_figure *f) {
  char *key = hl_slot_param_usr(usr, param);
  sqlite3_stmt *st = prepare1(X, "SELECT body FROM aliases WHERE usr=?1", key);
  free(key);
  size_t cap = 0;
  while (st && sqlite3_step(st) == SQLITE_ROW) {
    const char *t = (const char *)sqlite3_column_text(st, 0);
    hl_salias a;
    char *why = NULL;
    if (!t || hl_salias_parse(t, (size_t)sqlite3_column_bytes(st, 0), &a, &why)) {
      free(why);
      continue;
    }
    int seen = !a.at.file;
    for (size_t k = 0; !seen && k < f->ndecls; k++)
      seen = !strcmp(f->decls[k].file, a.at.file) && f->decls[k].line == a.at.line && f->decls[k].col == a.at.col;
    if (!seen) {
      size_t k = f->ndecls;
      HL_PUSH(f->decls, f->ndecls, cap, a.at);
      for (; k > 0 && loc_before(&f->decls[k], &f->decls[k - 1]); k--) {
        hl_loc t2 = f->decls[k];
        f->decls[k] = f->decls[k - 1];
        f->decls[k - 1] = t2;
      }
      a.at = (hl_loc){0};
    }
    hl_salias_free(&a);
  }
  sqlite3_finalize(st);
}

int hl_index_apis(hl_index *X, char *const *units, size_t nunits, hl_api_figure **out, size_t *n, char **err) {
  *out = NULL;
  *n = 0;
  if (exec(X, "CREATE TEMP TABLE IF NOT EXISTS run_units(name TEXT PRIMARY KEY); DELETE FROM temp.run_units;",
           "reading", err))
    return -1;
  if (!units && exec(X, "INSERT INTO temp.run_units(name) SELECT name FROM main.units", "reading", err)) return -1;
  for (size_t i = 0; i < nunits; i++)
    if (run(X, "INSERT OR IGNORE INTO temp.run_units(name) VALUES(?1)", (const char *[]){units[i], NULL}, err))
      return -1;
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(X->db,
                         "SELECT usr, param, min(api), min(type), min(wrapper), min(replacement),"
                         " count(DISTINCT file || ':' || line || ':' || col), count(DISTINCT file),"
                         " max(size), max(align), max(capacity) FROM apis"
                         " WHERE unit IN (SELECT name FROM temp.run_units) GROUP BY usr, param"
                         " ORDER BY 7 DESC, 3, 2",
                         -1, &st, NULL) != SQLITE_OK)
    return fail(X, "reading", err);
  size_t cap = 0;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    hl_api_figure f = {column(st, 2),
                       column(st, 3),
                       column(st, 4),
                       column(st, 5),
                       (size_t)sqlite3_column_int64(st, 6),
                       (size_t)sqlite3_column_int64(st, 7),
                       (long)sqlite3_column_int64(st, 8),
                       (long)sqlite3_column_int64(st, 9),
                       (long)sqlite3_column_int64(st, 10),
                       NULL,
                       0,
                       NULL,
                       0};
    api_sites(X, (const char *)sqlite3_column_text(st, 0), sqlite3_column_int(st, 1), &f);
    api_decls(X, (const char *)sqlite3_column_text(st, 0), sqlite3_column_int(st, 1), &f);
    HL_PUSH(*out, *n, cap, f);
  }
  sqlite3_finalize(st);
  return rc == SQLITE_DONE ? 0 : fail(X, "reading", err);
}

/* Steps st (bound by the caller) once: its first row's location, or none. */
static void first_loc(sqlite3_stmt *st, hl_loc *out) {
  *out = (hl_loc){0};
  if (sqlite3_step(st) == SQLITE_ROW)
    *out = (hl_loc){column(st, 0), (unsigned)sqlite3_column_int64(st, 1), (unsigned)sqlite3_column_int64(st, 2),
                    (unsigned)sqlite3_column_int64(st, 3)};
  sqlite3_finalize(st);
}

/* e into v (capacity *cap) unless an edit at its place is there; e is
 * taken (left empty) when added. */
static void add_edit(hl_edit **v, size_t *n, size_t *cap, hl_edit *e) {
  if (!e->file) return;
  for (size_t m = 0; m < *n; m++)
    if (!strcmp((*v)[m].file, e->file) && (*v)[m].offset == e->offset) return;
  HL_PUSH(*v, *n, *cap, *e);
  *e = (hl_edit){0};
}

/* From every unit's row: a member's partners; a parameter's declarations
 * (each unit's own, with its #include), whether a unit defines its
 * function and the member or parameter it goes into; each edit once. */
static int alias_extras(hl_index *X, hl_alias_view *v) {
  sqlite3_stmt *st;
  if (!(st = prepare1(X, "SELECT body FROM aliases WHERE usr=?1", v->alias.usr))) return -1;
  size_t capextra = 0, capincs = 0;
  while (sqlite3_step(st) == SQLITE_ROW) {
    const char *t = (const char *)sqlite3_column_text(st, 0);
    hl_salias a;
    char *why = NULL;
    if (t && !hl_salias_parse(t, (size_t)sqlite3_column_bytes(st, 0), &a, &why)) {
      for (size_t k = 0; k < a.nextra; k++) add_edit(&v->extra, &v->nextra, &capextra, &a.extra[k]);
      if (a.param) {
        if (a.type.file) {
          a.type.text = a.written;
          a.written = NULL;
        }
        add_edit(&v->extra, &v->nextra, &capextra, &a.type);
        add_edit(&v->incs, &v->nincs, &capincs, &a.include);
        v->defined |= a.param == 2;
        /* The unit that defines the function says where its value goes. */
        if (a.into && !v->alias.into) {
          v->alias.into = a.into;
          a.into = NULL;
        }
        if (a.onto && !v->alias.onto) {
          v->alias.onto = a.onto;
          a.onto = NULL;
        }
      }
      hl_salias_free(&a);
    }
    free(why);
  }
  sqlite3_finalize(st);
  return 0;
}

/* The edits that make the values whose move may throw only through their
 * const captures movable, each list once. */
static int alias_fixes(hl_index *X, hl_alias_view *v) {
  const char *w = v->alias.key;
  sqlite3_stmt *st;
  if (!(st = prepare1(X, "SELECT DISTINCT fixes FROM wvalues WHERE wrapper=?1 AND known AND move_fixed", w))) return -1;
  size_t capfix = 0;
  while (sqlite3_step(st) == SQLITE_ROW) {
    const char *t = (const char *)sqlite3_column_text(st, 0);
    hl_edit *e = NULL;
    size_t ne = 0;
    char *why = NULL;
    if (t && !hl_sedits_parse(t, (size_t)sqlite3_column_bytes(st, 0), &e, &ne, &why)) {
      for (size_t k = 0; k < ne; k++) HL_PUSH(v->fixes, v->nfixes, capfix, e[k]);
      v->fixed_values++;
    } else {
      /* Unreadable: the value is one whose move may throw. */
      for (size_t k = 0; k < ne; k++) hl_edit_free(&e[k]);
      v->fixes_unreadable = 1;
    }
    free(e);
    free(why);
  }
  sqlite3_finalize(st);
  return 0;
}

/* What every unit stored into v's wrapper type, and what stands in the
 * way of retyping its alias. */
static int alias_figures(hl_index *X, hl_alias_view *v) {
  const char *w = v->alias.key;
  sqlite3_stmt *st = prepare1(X,
                              "SELECT count(DISTINCT CASE WHEN known THEN file || ':' || offset END),"
                              " count(DISTINCT CASE WHEN allocates THEN file || ':' || offset END),"
                              " count(DISTINCT CASE WHEN allocates THEN file END),"
                              " max(CASE WHEN known THEN size END), max(CASE WHEN known THEN align END)"
                              " FROM wvalues WHERE wrapper=?1",
                              w);
  if (!st) return -1;
  if (sqlite3_step(st) == SQLITE_ROW) {
    v->values = (size_t)sqlite3_column_int64(st, 0);
    v->allocating = (size_t)sqlite3_column_int64(st, 1);
    v->files = (size_t)sqlite3_column_int64(st, 2);
    v->size = (long)sqlite3_column_int64(st, 3);
    v->align = (long)sqlite3_column_int64(st, 4);
  }
  sqlite3_finalize(st);
  static const char *const firsts[] = {
      /* A template's store no unit instantiates; any other value not sized. */
      "SELECT file, line, col, offset FROM wvalues w WHERE wrapper=?1 AND NOT known AND (NOT dependent OR NOT EXISTS"
      " (SELECT 1 FROM wvalues k WHERE k.store_file = w.store_file AND k.store_offset = w.store_offset"
      " AND k.wrapper = w.wrapper AND k.known = 1)) ORDER BY file, line, col LIMIT 1",
      "SELECT file, line, col, offset FROM wvalues WHERE wrapper=?1 AND known AND move_throws AND NOT move_fixed"
      " ORDER BY file, line, col LIMIT 1",
      "SELECT file, line, col, offset FROM spellings WHERE wrapper=?1 ORDER BY file, line, col LIMIT 1"};
  hl_loc *to[] = {&v->unknown_at, &v->throws_at, &v->spelled_at};
  /* A member's type is written out where it is declared: what it stores is
   * its own (spellings are an alias's concern). */
  for (int i = 0; i < (v->alias.member ? 2 : 3); i++) {
    if (!(st = prepare1(X, firsts[i], i == 2 ? v->alias.wrapper : w))) return -1;
    first_loc(st, to[i]);
  }
  if (!(st = prepare1(X, "SELECT min(blocked) FROM aliases WHERE usr=?1 AND blocked IS NOT NULL", v->alias.usr)))
    return -1;
  if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) v->blocked = column(st, 0);
  sqlite3_finalize(st);
  if (alias_extras(X, v) || alias_fixes(X, v)) return -1;
  if (!(st = prepare1(X,
                      "SELECT DISTINCT file, line, col, offset FROM wvalues WHERE wrapper=?1 AND allocates"
                      " ORDER BY file, line, col",
                      w)))
    return -1;
  size_t cap = 0;
  while (sqlite3_step(st) == SQLITE_ROW) {
    hl_loc l = {column(st, 0), (unsigned)sqlite3_column_int64(st, 1), (unsigned)sqlite3_column_int64(st, 2),
                (unsigned)sqlite3_column_int64(st, 3)};
    HL_PUSH(v->sites, v->nsites, cap, l);
  }
  sqlite3_finalize(st);
  return 0;
}

static int alias_lookup(void *data, hl_alias_view **out, size_t *n, char **err) {
  hl_index *X = data;
  *out = NULL;
  *n = 0;
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(X->db,
                         "SELECT a.usr, a.body FROM (SELECT usr, min(unit) AS unit FROM aliases GROUP BY usr) m"
                         " JOIN aliases a ON a.usr = m.usr AND a.unit = m.unit ORDER BY a.usr, a.rowid",
                         -1, &st, NULL) != SQLITE_OK)
    return fail(X, "reading", err);
  size_t cap = 0;
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    const char *usr = (const char *)sqlite3_column_text(st, 0), *t = (const char *)sqlite3_column_text(st, 1);
    hl_alias_view v = {0};
    char *why = NULL;
    /* A unit that declares a function and then defines it has a row for
     * each declaration of a parameter: one view. */
    if (*n && usr && !strcmp((*out)[*n - 1].alias.usr, usr)) continue;
    if (!t || hl_salias_parse(t, (size_t)sqlite3_column_bytes(st, 1), &v.alias, &why)) {
      /* A row that cannot be read is an alias the index does not know. */
      free(why);
      continue;
    }
    HL_PUSH(*out, *n, cap, v);
    if (alias_figures(X, &(*out)[*n - 1])) {
      sqlite3_finalize(st);
      return fail(X, "reading", err);
    }
  }
  sqlite3_finalize(st);
  return rc == SQLITE_DONE ? 0 : fail(X, "reading", err);
}

/* The flows into slot key (wflows_dst: one probe), added to *flows. */
static void flows_lookup(void *data, const char *key, hl_sflow **flows, size_t *nflows) {
  hl_index *X = data;
  size_t cap = *nflows;
  sqlite3_reset(X->fl);
  sqlite3_bind_text(X->fl, 1, key, -1, SQLITE_TRANSIENT);
  while (sqlite3_step(X->fl) == SQLITE_ROW) {
    const char *src = (const char *)sqlite3_column_text(X->fl, 0);
    hl_sflow f = {src ? hl_xstrdup(src) : NULL,
                  hl_xstrdup(key),
                  {column(X->fl, 1), (unsigned)sqlite3_column_int64(X->fl, 2), (unsigned)sqlite3_column_int64(X->fl, 3),
                   (unsigned)sqlite3_column_int64(X->fl, 4)}};
    HL_PUSH(*flows, *nflows, cap, f);
  }
  sqlite3_reset(X->fl);
}

static void slot_lookup(void *data, const char *key, hl_svalue **values, size_t *nvalues, hl_sflow **flows,
                        size_t *nflows) {
  hl_index *X = data;
  size_t cap = *nvalues;
  sqlite3_stmt *st = prepare1(X,
                              "SELECT DISTINCT file, line, col, offset, known, allocates, size, align FROM wvalues"
                              " WHERE wrapper=?1 AND NOT (known=0 AND dependent=1 AND EXISTS(SELECT 1 FROM wvalues k"
                              " WHERE k.store_file=wvalues.store_file AND k.store_offset=wvalues.store_offset"
                              " AND k.wrapper=wvalues.wrapper AND k.known=1)) ORDER BY file, line, col",
                              key);
  while (st && sqlite3_step(st) == SQLITE_ROW) {
    hl_svalue v = {.wrapper = hl_xstrdup(key),
                   .at = {column(st, 0), (unsigned)sqlite3_column_int64(st, 1), (unsigned)sqlite3_column_int64(st, 2),
                          (unsigned)sqlite3_column_int64(st, 3)},
                   .known = sqlite3_column_int(st, 4),
                   .allocates = sqlite3_column_int(st, 5),
                   .size = (long)sqlite3_column_int64(st, 6),
                   .align = (long)sqlite3_column_int64(st, 7)};
    v.store = hl_loc_copy(&v.at);
    HL_PUSH(*values, *nvalues, cap, v);
  }
  sqlite3_finalize(st);
  flows_lookup(data, key, flows, nflows);
}

static int fn_lookup(void *data, const char *usr, hl_sfn *out) {
  hl_index *X = data;
  int found = 0;
  sqlite3_reset(X->fn);
  sqlite3_bind_text(X->fn, 1, usr, -1, SQLITE_TRANSIENT);
  if (sqlite3_step(X->fn) == SQLITE_ROW) {
    const char *t = (const char *)sqlite3_column_text(X->fn, 0);
    char *why = NULL;
    /* A row that cannot be read is a function the index does not know. */
    found = t && hl_sfn_parse(t, (size_t)sqlite3_column_bytes(X->fn, 0), out, &why) == 0;
    free(why);
  }
  sqlite3_reset(X->fn);
  return found;
}

static void ov_lookup(void *data, const char *usr, hl_strv *out) {
  hl_index *X = data;
  sqlite3_reset(X->ov);
  sqlite3_bind_text(X->ov, 1, usr, -1, SQLITE_TRANSIENT);
  while (sqlite3_step(X->ov) == SQLITE_ROW) hl_strv_add(out, (const char *)sqlite3_column_text(X->ov, 0));
  sqlite3_reset(X->ov);
}

hl_index_lookup hl_index_lookups(hl_index *X) {
  return (hl_index_lookup){X, fn_lookup, ov_lookup, alias_lookup, slot_lookup, flows_lookup};
}

int hl_index_close(hl_index *X, char **err) {
  if (!X) return 0;
  sqlite3_finalize(X->fn);
  sqlite3_finalize(X->ov);
  sqlite3_finalize(X->fl);
  int rc = sqlite3_close(X->db) == SQLITE_OK ? 0 : -1;
  if (rc) *err = hl_xasprintf("%s: closing the index: %s", X->name, sqlite3_errmsg(X->db));
  free(X->name);
  free(X);
  return rc;
}
