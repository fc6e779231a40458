/* util: the analyzer's small toolbox — checked allocation, a growable string
 * buffer, growable arrays, whole-file reads and path display.
 *
 * Out-of-memory is the one error the analyzer does not turn into a value:
 * a command-line tool that cannot allocate has nothing better to do than say
 * so and stop, so the x* allocators print and abort. */
#ifndef HEAPLINT_UTIL_H
#define HEAPLINT_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#if defined(__GNUC__)
#define HL_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define HL_PRINTF(f, a)
#endif

void *hl_xmalloc(size_t n);
void *hl_xcalloc(size_t n, size_t size);
void *hl_xrealloc(void *p, size_t n);
char *hl_xstrdup(const char *s);
char *hl_xstrndup(const char *s, size_t n);
char *hl_xasprintf(const char *fmt, ...) HL_PRINTF(1, 2);
/* A stream writing into *buf (*len bytes; free *buf after fclose):
 * open_memstream, which fails only out of memory. */
FILE *hl_xmemstream(char **buf, size_t *len);

/* Grows *arr (of *cap elements of size elem) so that it holds at least need. */
void hl_grow(void **arr, size_t *cap, size_t need, size_t elem);
#define HL_PUSH(arr, n, cap, item)                            \
  do {                                                        \
    hl_grow((void **)&(arr), &(cap), (n) + 1, sizeof *(arr)); \
    (arr)[(n)++] = (item);                                    \
  } while (0)

typedef struct hl_sb {
  char *s;
  size_t len, cap;
} hl_sb;

void hl_sb_putn(hl_sb *b, const char *s, size_t n);
void hl_sb_puts(hl_sb *b, const char *s);
void hl_sb_putc(hl_sb *b, char c);
void hl_sb_printf(hl_sb *b, const char *fmt, ...) HL_PRINTF(2, 3);
void hl_sb_vprintf(hl_sb *b, const char *fmt, va_list ap);
/* The buffer's text ("" when empty); stays owned by the buffer. */
const char *hl_sb_str(const hl_sb *b);
/* Hands the text to the caller (never NULL) and empties the buffer. */
char *hl_sb_take(hl_sb *b);

/* A wrapper's type retyped as an inline-buffer one: "std::function<void()>"
 * with "hl::inplace_function", 24 and 8 gives "hl::inplace_function<void(),
 * 24>" (the alignment only when over 16); NULL when written has no template
 * arguments. Caller frees. */
char *hl_inline_type(const char *written, const char *replacement, long capacity, long align);
void hl_sb_free(hl_sb *b);

/* The most heaplint reads of one file itself (a configuration, profile,
 * response file, baseline, SARIF log, compile database, or a source it
 * shows or fixes): a bound on memory whatever a path points to. */
#define HL_READ_MAX ((size_t)256 << 20)
enum { HL_READ_NOT_REGULAR = -1, HL_READ_TOO_BIG = -2, HL_READ_LINK = -3 };

/* Reads a whole regular file of at most HL_READ_MAX bytes. Anything else (a
 * directory, a FIFO, a device, also through a link) is refused without
 * reading it, and without blocking: a FIFO nobody writes to would hang the
 * run, /dev/zero would fill the memory. Returns 0, or an error code for
 * hl_read_error: an errno value, or HL_READ_NOT_REGULAR or HL_READ_TOO_BIG. */
int hl_read_file(const char *path, char **data, size_t *len);
/* hl_read_file of the file name in the directory dirfd is open on, where
 * name itself is never followed if it is a symbolic link (HL_READ_LINK):
 * for a directory heaplint owns, in which a link may point anywhere. */
int hl_read_file_at(int dirfd, const char *name, char **data, size_t *len);
/* The same with a bound of the reader's own, max (at most HL_READ_MAX): a
 * reader of a small input (a configuration, a profile, a baseline) refuses
 * a larger file before reading it. On HL_READ_TOO_BIG *len is the file's
 * size (for hl_read_failure). */
int hl_read_file_max(const char *path, size_t max, char **data, size_t *len);
/* Whether hl_read_file could read path (it is opened, not read): 0 or the
 * error code. */
int hl_check_file(const char *path);
/* What hl_read_file's error code means ("is a directory", "not a regular
 * file", strerror's text...). */
const char *hl_read_error(int code);
/* The same for hl_read_file_max, as a new string: for HL_READ_TOO_BIG the
 * size it left in *len and the bound, "2621440 bytes (2.5 MiB), more than
 * the 1 MiB heaplint reads of <what>" (what: "a configuration"). */
char *hl_read_failure(int code, size_t size, size_t max, const char *what);
/* A size as people say it, into buf: "17 bytes", "4 KiB", "1.5 MiB". */
void hl_size_text(char *buf, size_t n, unsigned long long bytes);

/* Writes data to path through a temporary file in the same directory, which
 * gets mode (permission bits), the replaced file's owner and group, and is
 * flushed to disk before a rename puts it in place: path is never
 * half-written, and never has the wrong mode or owner, even for a moment (a
 * file whose owner this user cannot give the copy is not replaced). A
 * symbolic link is followed (the file it points to is replaced). What is not a regular file (a device, a FIFO) is written into
 * directly, never replaced, and so is the file standard output or error is
 * open on (/dev/stdout, a link to /proc/self/fd/1), through that
 * descriptor; a directory is an error. The temporary file is
 * removed if SIGINT, SIGTERM or SIGHUP ends the run meanwhile. Returns 0,
 * or -1 with *err naming path and the problem. */
int hl_write_file_atomic_mode(const char *path, const char *data, size_t len, mode_t mode, char **err);
/* The same with the mode a new file gets (0666 less the umask). */
int hl_write_file_atomic(const char *path, const char *data, size_t len, char **err);
/* Writes len bytes of data to fd, through short writes and EINTR: 0, or -1
 * with errno. */
int hl_write_all(int fd, const char *data, size_t len);

/* Temporary files that SIGINT, SIGTERM or SIGHUP must not leave behind: the
 * first call installs a handler that unlinks the tracked files (and then
 * removes the tracked directories they emptied), then lets
 * the signal do what it would have done (a handler installed before, or the
 * default). hl_temp_track returns a slot for hl_temp_untrack, or -1 when
 * 64 files are tracked already (the file is then not removed; untracking
 * -1 does nothing). Thread-safe: the analysis threads' precompiled headers
 * are tracked too. */
int hl_temp_track(const char *path);
void hl_temp_untrack(int slot);

/* A copy of s in which every byte that does not belong to a valid UTF-8
 * sequence is replaced by U+FFFD: JSON (and so SARIF and baselines) can only
 * carry valid UTF-8, while a path or a source line may be in any encoding. */
char *hl_utf8_sanitize(const char *s);
/* s is valid UTF-8. */
int hl_utf8_is_valid(const char *s);
/* How many UTF-16 code units the n bytes at s are (a byte that belongs to
 * no valid UTF-8 sequence counts as one, the U+FFFD it is shown as): the
 * columns SARIF counts. s is NUL-terminated somewhere at or after n. */
size_t hl_utf16_units(const char *s, size_t n);

/* Command-line option name with a value: "--name=v", "--name v", and for a
 * one-letter option also "-pv". If argv[*i] is that option, sets *matched
 * and returns the value (advancing *i past a separate one), or NULL when the
 * value is missing; otherwise *matched is 0. */
const char *hl_option_value(int argc, char **argv, int *i, const char *name, int *matched);

/* Learns the current directory, which the paths below are relative to.
 * Call it before starting threads that use them (it is otherwise learned
 * on first use, which is not thread-safe). */
void hl_paths_init(void);
/* Canonical absolute path (symlinks resolved) of an existing file, else the
 * path made absolute against cwd without touching the file system. */
char *hl_abspath(const char *path);
/* path made absolute, its directory canonical (links and ".." resolved)
 * but its own name kept: a link is named as itself, not as its target
 * (whose name may say another language, or nothing). */
char *hl_abspath_link(const char *path);
/* Whether a and b name the same file: the same device and inode (through
 * links, hard links included) when both exist, else the same canonical path
 * (a file not yet written, named two ways). */
int hl_same_file(const char *a, const char *b);
/* A path as a URI reference: unreserved characters and '/' kept, the rest
 * percent-encoded (bytes, so a path in any encoding comes back exactly). */
char *hl_uri_escape(const char *path);
/* <the executable's directory>/rel, canonical (".." resolved, by the text
 * when the path does not exist), or
 * fallback when the executable cannot be found. Caller frees. */
char *hl_exe_relative(const char *rel, const char *fallback);
/* path relative to the current directory when it lies below it, else path. */
const char *hl_display_path(const char *abs);

/* FNV-1a, 64 bits: stable across runs and machines. */
unsigned long long hl_fnv1a(const void *data, size_t n);
unsigned long long hl_fnv1a_more(unsigned long long h, const void *data, size_t n);

/* The offset just past the line break of the line that starts at pos in
 * the size bytes at text: "\r\n", "\n", or a lone "\r" (old Mac files), the
 * line ends clang counts; size when the line has none. *content, when not
 * NULL, gets the line's length without its break. */
size_t hl_line_end(const char *text, size_t size, size_t pos, size_t *content);

int hl_ends_with(const char *s, const char *suffix);
int hl_starts_with(const char *s, const char *prefix);

/* v rounded up to a multiple of a (v itself when a is not positive). */
static inline long hl_align_up(long v, long a) { return a > 0 ? (v + a - 1) / a * a : v; }

#endif
