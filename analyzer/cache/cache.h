/* cache: the result cache (--cache-dir) — a translation unit whose inputs
 * did not change since a run stored its result is not parsed again, and a
 * restored unit prints exactly what its analysis would.
 *
 * An entry's key is heaplint itself (its version, libclang's, a hash of the
 * executable), the content of every profile and of the unit's
 * configuration (and the profiles it names), the unit's effective compile
 * command (file, directory, arguments after --extra-arg), and what the
 * run's messages and parses depend on besides files: the current directory
 * (messages show paths relative to it), -v, and the environment variables
 * that change a parse (CPATH and the like: cache.c lists them). The entry
 * holds, besides the result (cache/entry.h), every file the unit read with
 * the hash of the text libclang parsed: a restore trusts a file whose size,
 * modification and inode change times and inode number are as they were (as
 * git's index does: an inode change time cannot be set back), and compares
 * its hash otherwise (a checkout that rewrote it unchanged), so that
 * touching one header re-analyzes exactly the units that include it.
 *
 * The directory is heaplint's own (cache/dir.h: marked, its names only, no
 * links, nothing that blocks); an entry is untrusted input (checksummed,
 * bounded: cache/entry.h) and one that cannot be used is ignored with a
 * note, the unit analyzed again, the entry replaced. Entries are written
 * through a temporary file and a rename, so runs that share the directory
 * (shards, CI jobs) never read half an entry. A restore marks its entry
 * used; closing trims the directory to its maximum size, least recently
 * used first. Thread-safe. */
#ifndef HEAPLINT_CACHE_CACHE_H
#define HEAPLINT_CACHE_CACHE_H

#include <stdio.h>

#include "engine/analyze.h"
#include "input/config.h"
#include "input/profile.h"

typedef struct hl_cache hl_cache;

/* The size --cache-max-size does not set. */
#define HL_CACHE_DEFAULT_MAX ((unsigned long long)1 << 30)

typedef struct hl_cache_stats {
  size_t hits, misses;
} hl_cache_stats;

/* Opens the cache in dir, creating it when missing (cache/dir.h: a
 * directory that is not heaplint's is refused). tool: heaplint's and
 * libclang's versions; profiles: the run's; verbose: -v (a remark for every
 * unit: restored, or why not). Returns NULL with *err. */
hl_cache *hl_cache_open(const char *dir, unsigned long long max_size, const char *tool, const hl_profile_set *profiles,
                        int verbose, char **err);

/* The stored result of job under cfg into res, when its inputs are
 * unchanged: its messages (and the note about an entry that cannot be
 * read, the -v remark) to log. Returns 1 when restored. */
int hl_cache_restore(hl_cache *C, const hl_job *job, const hl_config *cfg, hl_tu_result *res, FILE *log);

/* Stores an analyzed unit's result (res must have its inputs) and what the
 * analysis said (text, len bytes); a unit that did not parse is not kept.
 * A failure to write (also: what is in the entry's place is not a regular
 * file, and stays) is said on log, once per run. */
void hl_cache_store(hl_cache *C, const hl_job *job, const hl_config *cfg, const hl_tu_result *res, const char *text,
                    size_t len, FILE *log);

/* After the analysis: adds C's counts to *st and trims the directory. */
void hl_cache_finish(hl_cache *C, hl_cache_stats *st);
/* The restored findings point into C: after the report. */
void hl_cache_free(hl_cache *C);

#endif
