/* A result cache entry (--cache-dir), as a restore takes it once the file
 * is read: hl_entry_parse (the first line, its checksum, the JSON, the
 * inputs), then hl_entry_unpack (the result and the bounds of every place
 * it names), then the result packed again. An input that starts with '{'
 * is taken as the document alone and given a right first line here, so
 * that the fuzzer reaches the JSON and the bounds without having to find
 * checksums; any other is the whole file. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cache/entry.h"
#include "engine/analyze.h"
#include "rules/registry.h"
#include "util/strv.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static hl_strv interned;

static const char *intern(void *unused, const char *s) {
  (void)unused;
  hl_strv_add(&interned, s);
  return interned.v[interned.n - 1];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hl_sb file = {0};
  if (size && data[0] == '{')
    hl_sb_printf(&file, "heaplint-cache %d %016llx %zu\n", HL_ENTRY_FORMAT, hl_fnv1a(data, size), size);
  hl_sb_putn(&file, (const char *)data, size);
  json_t *doc = NULL;
  char *why = NULL;
  if (hl_entry_parse(hl_sb_str(&file), file.len, &doc, &why) == 0) {
    hl_tu_result res;
    char *log = NULL;
    if (hl_entry_unpack(doc, hl_rules, intern, NULL, &res, &log, &why) == 0) {
      json_decref(hl_entry_pack(&res, log, strlen(log)));
      hl_tu_result_free(&res);
      free(log);
    }
  }
  json_decref(doc);
  free(why);
  hl_sb_free(&file);
  hl_strv_free(&interned);
  return 0;
}
