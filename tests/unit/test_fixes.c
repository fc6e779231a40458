/* report/fixes: --fix applies an edit only inside the file it edits. An
 * edit's offset and length come from an analysis or from a result cache
 * entry, which anyone who can write the cache may have made: one that
 * lies outside the file must leave the file as it was (it used to copy
 * heap memory into it, then crash), while a good edit is applied. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "report/fixes.h"
#include "util/util.h"

static const char original[] = "int a;\nint b;\n";

typedef struct fixture {
  char dir[64];
  char *path;
} fixture;

static int setup(void **state) {
  fixture *F = calloc(1, sizeof *F);
  strcpy(F->dir, "/tmp/hl-test-fixes-XXXXXX");
  assert_non_null(mkdtemp(F->dir));
  F->path = hl_xasprintf("%s/a.cc", F->dir);
  char *err = NULL;
  assert_int_equal(hl_write_file_atomic(F->path, original, sizeof original - 1, &err), 0);
  *state = F;
  return 0;
}

static int teardown(void **state) {
  fixture *F = *state;
  unlink(F->path);
  rmdir(F->dir);
  free(F->path);
  free(F);
  return 0;
}

/* The file's text after --fix applied one finding with one edit. */
static char *apply_one(const fixture *F, unsigned offset, unsigned length, const char *text, hl_fix_result *res,
                       char **log) {
  hl_loc at = {F->path, 1, 1, 0};
  hl_finding *f = hl_finding_new("function-sbo", HL_SEV_WARNING, &at, "m");
  hl_edit e = {hl_xstrdup(F->path), offset, length, 1, 1, hl_xstrdup(text), hl_fnv1a(original, sizeof original - 1)};
  HL_PUSH(f->edits, f->nedits, f->capedits, e);
  hl_findings all = {0};
  hl_findings_add(&all, f);
  size_t loglen;
  FILE *out = hl_xmemstream(log, &loglen);
  hl_fixes_apply(&all, NULL, out, res);
  fclose(out);
  hl_findings_free(&all);
  char *data = NULL;
  size_t len;
  assert_int_equal(hl_read_file(F->path, &data, &len), 0);
  return data;
}

static void good_edit_is_applied(void **state) {
  hl_fix_result res;
  char *log = NULL, *after = apply_one(*state, 4, 1, "x", &res, &log);
  assert_string_equal(after, "int x;\nint b;\n");
  assert_int_equal(res.findings_fixed, 1);
  free(after);
  free(log);
}

static void check_refused(void **state, unsigned offset, unsigned length) {
  hl_fix_result res;
  char *log = NULL, *after = apply_one(*state, offset, length, "x", &res, &log);
  assert_string_equal(after, original);
  assert_int_equal(res.findings_fixed, 0);
  assert_int_equal(res.findings_skipped, 1);
  assert_int_equal(res.files_written, 0);
  assert_non_null(strstr(log, "not fixed: its edit of"));
  assert_non_null(strstr(log, "lies outside the file's 14 bytes"));
  free(after);
  free(log);
}

static void offset_past_the_end(void **state) { check_refused(state, sizeof original - 1 + 100, 0); }
static void offset_at_the_top(void **state) { check_refused(state, 0xffffffffu, 0); }
static void length_past_the_end(void **state) { check_refused(state, 10, 5); }
static void length_that_wraps(void **state) { check_refused(state, 4, 0xfffffffeu); }

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(good_edit_is_applied, setup, teardown),
      cmocka_unit_test_setup_teardown(offset_past_the_end, setup, teardown),
      cmocka_unit_test_setup_teardown(offset_at_the_top, setup, teardown),
      cmocka_unit_test_setup_teardown(length_past_the_end, setup, teardown),
      cmocka_unit_test_setup_teardown(length_that_wraps, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
