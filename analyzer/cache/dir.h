/* dir: the result cache's directory, as heaplint owns it.
 *
 * Its root is marked by a CACHEDIR.TAG (the Cache Directory Tagging
 * standard, https://bford.info/cachedir/, which backup tools honour) whose
 * second line names heaplint. heaplint writes the tag only into a new or
 * empty directory and refuses a directory that holds anything without it:
 * the cache never takes over a directory of the user's (".", $HOME, a
 * build tree). Inside the root, heaplint reads, writes, lists and removes
 * only the names it makes — xx/<14 hex digits>.json for an entry (xx: two
 * hex digits), <that>.tmp-<8 hex digits> while one is written,
 * CACHEDIR.TAG.tmp-<8 hex digits> while the tag is — and only regular
 * files. Every access is relative to a descriptor of the root, with
 * O_NOFOLLOW, so no symbolic link inside the cache (an entry, a
 * subdirectory) is ever followed; nothing is opened in a way that can block,
 * and what is not a regular file in an entry's place (a link, a FIFO) is
 * left as it is. The root itself may be a link the user chose.
 * Thread-safe. */
#ifndef HEAPLINT_CACHE_DIR_H
#define HEAPLINT_CACHE_DIR_H

#include <stddef.h>

typedef struct hl_cache_dir hl_cache_dir;

/* Opens the cache directory dir, creating it when missing and marking it
 * when it is new or empty. Returns NULL with *err (naming dir and why) when
 * it cannot be used or is not heaplint's. */
hl_cache_dir *hl_cache_dir_open(const char *dir, char **err);
void hl_cache_dir_close(hl_cache_dir *D);

/* The path of the entry of key hash h, for messages (malloc'd). */
char *hl_cache_dir_entry_path(const hl_cache_dir *D, unsigned long long h);

/* Reads the entry of h into *text (malloc'd, *len bytes). Returns 0, 1 when
 * there is none, or -1 with *why (malloc'd) when what is there cannot be
 * read. */
int hl_cache_dir_read(hl_cache_dir *D, unsigned long long h, char **text, size_t *len, char **why);
/* Marks the entry of h used now: the trim removes the entries used longest
 * ago. */
void hl_cache_dir_touch(hl_cache_dir *D, unsigned long long h);
/* Stores text as the entry of h, through a temporary file and a rename, so
 * that no reader sees half an entry. Returns 0, or -1 with *err (naming the
 * file and why: also when what is in the entry's place is not a regular
 * file, which stays). */
int hl_cache_dir_write(hl_cache_dir *D, unsigned long long h, const char *text, size_t len, char **err);

/* When the entries take more than max bytes: removes those used longest ago
 * until they take at most 90% of it (so that the next runs do not trim at
 * once). Also removes the temporary files a killed run left (an hour old). */
void hl_cache_dir_trim(hl_cache_dir *D, unsigned long long max);

#endif
