/* dladdr: where libclang is, for its resource directory. */
#define _GNU_SOURCE
#include "input/jobs.h"

#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <clang-c/CXCompilationDatabase.h>
#include <clang-c/Index.h>

#include "util/globs.h"
#include "util/hindex.h"

hl_lang hl_lang_of(const char *path, const char *x_flag, int cxx_driver) {
  if (x_flag) {
    if (!strcmp(x_flag, "c++") || !strcmp(x_flag, "c++-header") || !strcmp(x_flag, "c++-module") ||
        !strcmp(x_flag, "c++-cpp-output"))
      return HL_LANG_CXX;
    if (!strcmp(x_flag, "c") || !strcmp(x_flag, "c-header") || !strcmp(x_flag, "cpp-output")) return HL_LANG_C;
    return HL_LANG_OTHER;
  }
  const char *dot = strrchr(path, '.');
  const char *slash = strrchr(path, '/');
  if (!dot || (slash && dot < slash)) return HL_LANG_OTHER;
  const char *ext = dot + 1;
  /* clang's driver table (clang/Driver/Types.def) for what matters here. */
  static const char *const cxx[] = {"cc",   "cp",  "cxx", "cpp",  "CPP",  "c++", "C",   "ii",
                                    "cppm", "ixx", "ccm", "cxxm", "c++m", "hh",  "hpp", "hxx",
                                    "H",    "h++", "tcc", "inl",  "ipp",  "tpp", "txx"};
  for (size_t i = 0; i < sizeof cxx / sizeof *cxx; i++)
    if (!strcmp(ext, cxx[i])) return HL_LANG_CXX;
  if (!strcmp(ext, "h")) return cxx_driver ? HL_LANG_CXX : HL_LANG_C;
  if (!strcmp(ext, "c") || !strcmp(ext, "i")) return cxx_driver ? HL_LANG_CXX : HL_LANG_C;
  return HL_LANG_OTHER;
}

void hl_job_arg(hl_job *j, const char *a) { HL_PUSH(j->args, j->nargs, j->capargs, hl_xstrdup(a)); }

void hl_job_free(hl_job *j) {
  free(j->file);
  free(j->source);
  free(j->directory);
  for (size_t i = 0; i < j->nargs; i++) free(j->args[i]);
  free(j->args);
  for (size_t i = 0; i < j->nonly; i++) free(j->only[i]);
  free(j->only);
}

void hl_job_copy(hl_job *dst, const hl_job *src) {
  memset(dst, 0, sizeof *dst);
  dst->file = hl_xstrdup(src->file);
  dst->source = hl_xstrdup(src->source);
  dst->directory = src->directory ? hl_xstrdup(src->directory) : NULL;
  dst->lang = src->lang;
  for (size_t i = 0; i < src->nargs; i++) hl_job_arg(dst, src->args[i]);
  if (src->nonly) dst->only = hl_xcalloc(src->nonly, sizeof *dst->only);
  for (size_t i = 0; i < src->nonly; i++) dst->only[dst->nonly++] = hl_xstrdup(src->only[i]);
}

void hl_jobs_free(hl_jobs *jobs) {
  for (size_t i = 0; i < jobs->n; i++) hl_job_free(&jobs->v[i]);
  free(jobs->v);
  memset(jobs, 0, sizeof *jobs);
}

/* The error for a file that is neither C nor C++, said the same way
 * whether it was named with -p or with flags after '--'. */
static void not_c_or_cxx(hl_strv *errs, const char *path, const char *x) {
  hl_strv_addf(errs, "%s: cannot analyze: not a C or C++ source file (by its %s)", path, x ? "-x flag" : "extension");
}

/* Checks that path names a readable regular file (a FIFO or a device would
 * block the parse, or never end). */
static int check_source(const char *path, hl_strv *errs) {
  int e = hl_check_file(path);
  if (e) hl_strv_addf(errs, "%s: cannot analyze: %s", path, hl_read_error(e));
  return e ? -1 : 0;
}

static const char *x_flag_in(char *const *flags, size_t n) {
  const char *x = NULL;
  for (size_t i = 0; i < n; i++) {
    if (!strcmp(flags[i], "-x") && i + 1 < n)
      x = flags[++i];
    else if (!strncmp(flags[i], "-x", 2) && flags[i][2])
      x = flags[i] + 2;
  }
  return x;
}

/* Whether argv[0] is a C++ driver (g++, clang++-19, c++, ...). */
static int is_cxx_driver(const char *argv0) {
  const char *base = strrchr(argv0, '/');
  base = base ? base + 1 : argv0;
  return strstr(base, "++") != NULL;
}

/* Drops what only a real compile needs: output, dependency files, -c. */
static int skip_arg(const char *a, int *skip_next) {
  static const char *const with_value[] = {"-o", "-MF", "-MT", "-MQ", "-MJ", "--serialize-diagnostics"};
  static const char *const alone[] = {
      "-c", "-S", "-E", "-M", "-MM", "-MD", "-MMD", "-MG", "-MP", "-fsyntax-only", "-save-temps"};
  for (size_t i = 0; i < sizeof with_value / sizeof *with_value; i++)
    if (!strcmp(a, with_value[i])) {
      *skip_next = 1;
      return 1;
    }
  for (size_t i = 0; i < sizeof alone / sizeof *alone; i++)
    if (!strcmp(a, alone[i])) return 1;
  return !strncmp(a, "-o", 2) || !strncmp(a, "-MF", 3) || !strncmp(a, "-MT", 3) || !strncmp(a, "-MQ", 3);
}

static char *resolve(const char *dir, const char *path) {
  if (path[0] == '/' || !dir) return hl_abspath(path);
  char *joined = hl_xasprintf("%s/%s", dir, path);
  char *abs = hl_abspath(joined);
  free(joined);
  return abs;
}

/* Copies a compiler command's arguments (without argv[0]) into j, without
 * what only a real compile needs and without the source file itself. */
static void add_command_args(hl_job *j, char *const *argv, size_t n) {
  int skip_next = 0;
  for (size_t i = 0; i < n; i++) {
    if (skip_next) {
      skip_next = 0;
      continue;
    }
    if (skip_arg(argv[i], &skip_next)) continue;
    /* The end of the options: only input files follow (libclang puts one
     * before the file of a command it infers for an unlisted file); the
     * arguments heaplint adds after these must stay options. */
    if (!strcmp(argv[i], "--")) continue;
    if (argv[i][0] != '-') {
      char *abs = resolve(j->directory, argv[i]);
      int is_source = !strcmp(abs, j->file);
      free(abs);
      if (is_source) continue;
    }
    hl_job_arg(j, argv[i]);
  }
}

/* Splits a response file's text the way GCC and clang's driver do (GNU
 * rules): whitespace separates, quotes group, a backslash escapes the next
 * character. */
static void split_gnu(const char *t, size_t n, hl_strv *out) {
  hl_sb w = {0};
  int in_word = 0;
  char quote = 0;
  for (size_t i = 0; i < n; i++) {
    char c = t[i];
    if (quote) {
      if (c == quote)
        quote = 0;
      else if (c == '\\' && i + 1 < n)
        hl_sb_putc(&w, t[++i]); /* in either quote, as GCC and clang */
      else
        hl_sb_putc(&w, c);
    } else if (c == '"' || c == '\'') {
      quote = c, in_word = 1;
    } else if (c == '\\' && i + 1 < n) {
      hl_sb_putc(&w, t[++i]), in_word = 1;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      if (in_word) hl_strv_addf(out, "%s", hl_sb_str(&w));
      w.len = 0, in_word = 0;
      if (w.s) w.s[0] = 0;
    } else {
      hl_sb_putc(&w, c), in_word = 1;
    }
  }
  if (in_word) hl_strv_addf(out, "%s", hl_sb_str(&w));
  hl_sb_free(&w);
}

/* Replaces each @file argument with the arguments in that response file
 * (nested ones too), as a compiler's driver does: libclang does not, and
 * would parse without the -D and -I the file holds. A file that cannot be
 * read is an error, as it is for the compiler; the job is then not run. */
static int expand_response_files(hl_job *j, hl_strv *errs, int depth) {
  int again = 0;
  for (size_t i = 0; i < j->nargs; i++) {
    const char *a = j->args[i];
    if (a[0] != '@' || !a[1]) continue;
    if (depth > 64) {
      hl_strv_addf(errs, "%s: cannot analyze: more than 64 response files, or one that includes itself, at '%s'",
                   hl_display_path(j->file), a + 1);
      return -1;
    }
    char *path = j->directory ? resolve(j->directory, a + 1) : hl_xstrdup(a + 1);
    char *text = NULL;
    size_t len = 0;
    int e = hl_read_file_max(path, HL_RESPONSE_FILE_MAX, &text, &len);
    free(path);
    if (e) {
      char *why = hl_read_failure(e, len, HL_RESPONSE_FILE_MAX, "a response file");
      hl_strv_addf(errs, "%s: cannot analyze: its response file '%s' cannot be read: %s", hl_display_path(j->file),
                   a + 1, why);
      free(why);
      return -1;
    }
    hl_strv words = {0};
    split_gnu(text, len, &words);
    free(text);
    char **old = j->args;
    size_t nold = j->nargs;
    j->args = NULL;
    j->nargs = j->capargs = 0;
    for (size_t k = 0; k < i; k++) HL_PUSH(j->args, j->nargs, j->capargs, old[k]);
    for (size_t k = 0; k < words.n; k++) hl_job_arg(j, words.v[k]);
    for (size_t k = i + 1; k < nold; k++) HL_PUSH(j->args, j->nargs, j->capargs, old[k]);
    free(old[i]);
    free(old);
    hl_strv_free(&words);
    again = 1;
    break;
  }
  return again ? expand_response_files(j, errs, depth + 1) : 0;
}

/* ---- libclang's resource directory ---- */

/* libclang runs its driver as "clang", without a directory: the driver
 * takes its resource directory (the headers of clang's own, stddef.h)
 * from that name, so it is "lib/clang/19", relative to the current
 * directory. Run from /, it names /lib/clang/19, which may exist and lack
 * what it needs ('stddef.h' file not found); elsewhere a fallback happens
 * to work. libclang knows its own (CIndexer::getClangResourcesPath: beside
 * the library, as clang's beside its binary) but tells the driver too late.
 * So every job names it first, as clangd adds its own: the command's, or
 * --extra-arg's, come later and win. */
static char resource_arg[PATH_MAX + 32];
static pthread_once_t resource_once = PTHREAD_ONCE_INIT;

static void find_resource_dir(void) {
  Dl_info info;
  CXString v = clang_getClangVersion();
  const char *version = strstr(clang_getCString(v), "version ");
  long major = version ? strtol(version + 8, NULL, 10) : 0;
  clang_disposeString(v);
  if (!major || !dladdr((void *)(size_t)clang_getClangVersion, &info) || !info.dli_fname || info.dli_fname[0] != '/')
    return;
  /* <prefix>/lib/libclang.so -> <prefix>/lib/clang/<major>, by the name the
   * library was loaded by (as libclang does): Debian's is a link from
   * /usr/lib/llvm-19/lib into /usr/lib/x86_64-linux-gnu. */
  char *lib = hl_xstrdup(info.dli_fname);
  char *slash = strrchr(lib, '/');
  if (slash) *slash = 0;
  slash = strrchr(lib, '/');
  if (slash) *slash = 0;
  char *dir = hl_xasprintf("%s/lib/clang/%ld", lib, major), *probe = hl_xasprintf("%s/include/stddef.h", dir);
  struct stat st;
  if (slash && stat(probe, &st) == 0 && strlen(dir) < PATH_MAX)
    snprintf(resource_arg, sizeof resource_arg, "-resource-dir=%s", dir);
  free(lib);
  free(dir);
  free(probe);
}

/* Whether the job's first argument is the resource directory it was given. */
static int has_resource_arg(const hl_job *j) {
  return j->nargs > 0 && resource_arg[0] && !strcmp(j->args[0], resource_arg);
}

void hl_job_resource_dir(hl_job *j) {
  pthread_once(&resource_once, find_resource_dir);
  if (!resource_arg[0] || has_resource_arg(j)) return;
  hl_job_arg(j, resource_arg);
  char *first = j->args[j->nargs - 1];
  memmove(j->args + 1, j->args, (j->nargs - 1) * sizeof *j->args);
  j->args[0] = first;
}

/* ---- compile database entries ---- */

/* A response file in a database entry, renamed in the copy libclang reads
 * (db_copy): libclang's loader would expand it itself, opening whatever it
 * names (a FIFO waits for ever, /dev/zero is read without end). The name
 * is given back here, and expand_response_files reads it with its bounds. */
#define RSP_MARK "--heaplint-response-file="

static int add_db_command(hl_jobs *jobs, CXCompileCommand cmd, int named, hl_strv *errs) {
  CXString d = clang_CompileCommand_getDirectory(cmd), f = clang_CompileCommand_getFilename(cmd);
  unsigned n = clang_CompileCommand_getNumArgs(cmd);
  hl_job j = {0};
  j.directory = hl_xstrdup(clang_getCString(d));
  /* The language is the listed name's: a link "a.cc" to a file of another
   * name (a content-addressed blob, a device) is still a C++ entry. */
  const char *listed_name = clang_getCString(f);
  char *joined = listed_name[0] == '/' ? hl_xstrdup(listed_name) : hl_xasprintf("%s/%s", j.directory, listed_name);
  char *listed = hl_abspath_link(joined);
  free(joined);
  j.file = resolve(j.directory, listed_name);
  j.source = hl_xstrdup(j.file);
  clang_disposeString(d);
  clang_disposeString(f);
  hl_job_resource_dir(&j);

  char **argv = hl_xcalloc(n ? n : 1, sizeof *argv);
  for (unsigned i = 0; i < n; i++) {
    CXString a = clang_CompileCommand_getArg(cmd, i);
    const char *s = clang_getCString(a);
    argv[i] = hl_starts_with(s, RSP_MARK) ? hl_xasprintf("@%s", s + strlen(RSP_MARK)) : hl_xstrdup(s);
    clang_disposeString(a);
  }
  const char *x = n > 1 ? x_flag_in(argv + 1, n - 1) : NULL;
  j.lang = hl_lang_of(listed, x, n > 0 && is_cxx_driver(argv[0]));
  if (n > 1) add_command_args(&j, argv + 1, n - 1);
  for (unsigned i = 0; i < n; i++) free(argv[i]);
  free(argv);

  int rc = -1;
  if (j.lang == HL_LANG_OTHER) {
    /* Another language's entry (Objective-C, assembly) is skipped; only a
     * file the user named is an error. A C unit is analyzed for what
     * applies to C (no-allocation zones), as clang-tidy runs its C checks. */
    if (named) not_c_or_cxx(errs, hl_display_path(listed), x);
    rc = named ? -1 : 0;
    goto drop;
  }
  /* A stale database lists files that are gone: say so, not "could not
   * parse" (exit 2, and the other entries are still analyzed). */
  int e = hl_check_file(j.file);
  if (e) {
    hl_strv_addf(errs, "%s: cannot analyze: %s (listed in the compile database)", hl_display_path(listed),
                 hl_read_error(e));
    goto drop;
  }
  /* g++ compiles foo.c as C++; libclang, given no driver, would not (nor a
   * link's target of another name). */
  if (j.lang == HL_LANG_CXX && !x && hl_lang_of(j.file, NULL, 0) != HL_LANG_CXX) {
    hl_job_arg(&j, "-x");
    hl_job_arg(&j, "c++");
  }
  if (expand_response_files(&j, errs, 0)) goto drop;
  /* Relative -I and file names in the command are relative to its directory. */
  hl_job_arg(&j, "-working-directory");
  hl_job_arg(&j, j.directory);
  HL_PUSH(jobs->v, jobs->n, jobs->cap, j);
  free(listed);
  return 0;
drop:
  hl_job_free(&j);
  free(listed);
  return rc;
}

void hl_jobs_from_args(hl_jobs *jobs, char *const *files, size_t nfiles, char *const *flags, size_t nflags,
                       hl_strv *errs) {
  /* After "--" either flags, or a whole compiler command (what CMake's
   * <LANG>_CLANG_TIDY hook passes): its driver decides the language. */
  int command = nflags > 0 && flags[0][0] != '-' && flags[0][0] != '@';
  const char *x = x_flag_in(flags + command, nflags - (size_t)command);
  for (size_t i = 0; i < nfiles; i++) {
    if (check_source(files[i], errs)) continue;
    /* Named on the command line with no driver: a .h header counts as C++,
     * since that is what a C++ analyzer is asked about; a .c file is C,
     * analyzed for what applies to C. */
    hl_lang lang = hl_lang_of(files[i], x, command && is_cxx_driver(flags[0]));
    if (!x && lang == HL_LANG_C && hl_ends_with(files[i], ".h")) lang = HL_LANG_CXX;
    if (lang == HL_LANG_OTHER) {
      not_c_or_cxx(errs, files[i], x);
      continue;
    }
    hl_job j = {0};
    j.file = hl_abspath(files[i]);
    j.source = hl_xstrdup(files[i]);
    j.lang = lang;
    hl_job_resource_dir(&j);
    if (command) {
      add_command_args(&j, flags + 1, nflags - 1);
    } else {
      for (size_t k = 0; k < nflags; k++) hl_job_arg(&j, flags[k]);
    }
    /* A header named alone, or a .c file a C++ driver compiles, still parses as C++. */
    if (lang == HL_LANG_CXX && !x && hl_lang_of(files[i], NULL, 0) != HL_LANG_CXX) {
      hl_job_arg(&j, "-x");
      hl_job_arg(&j, "c++");
    }
    if (expand_response_files(&j, errs, 0)) {
      hl_job_free(&j);
      continue;
    }
    HL_PUSH(jobs->v, jobs->n, jobs->cap, j);
  }
}

/* "arguments", when present, is a list of strings. */
static int strings_only(json_t *a) {
  if (!a) return 1;
  if (!json_is_array(a)) return 0;
  size_t i;
  json_t *x;
  json_array_foreach(a, i, x) if (!json_is_string(x)) return 0;
  return 1;
}

/* libclang says only "cannot load" (and prints its own noise on stderr), so
 * the database is checked here first: its JSON when it has the shape of a
 * compile database, else NULL with the reason, line and column in errs. */
static json_t *check_db(const char *json_path, const char *text, size_t len, hl_strv *errs) {
  json_error_t e;
  json_t *root = json_loadb(text, len, 0, &e);
  if (!root) {
    if (e.line > 0)
      hl_strv_addf(errs, "%s:%d:%d: malformed compile database: %s", json_path, e.line, e.column, e.text);
    else
      hl_strv_addf(errs, "%s: cannot read the compile database: %s", json_path, e.text);
    return NULL;
  }
  if (!json_is_array(root)) {
    hl_strv_addf(errs, "%s: malformed compile database: the top level must be a JSON array of commands", json_path);
    json_decref(root);
    return NULL;
  }
  size_t i;
  json_t *entry;
  json_array_foreach(root, i, entry) {
    const char *missing =
        !json_is_object(entry)                                 ? "an object"
        : !json_is_string(json_object_get(entry, "directory")) ? "\"directory\""
        : !json_is_string(json_object_get(entry, "file"))      ? "\"file\""
        : (!json_is_string(json_object_get(entry, "command")) && !json_is_array(json_object_get(entry, "arguments")))
            ? "\"command\" or \"arguments\""
            : NULL;
    if (!missing && !strings_only(json_object_get(entry, "arguments"))) {
      hl_strv_addf(errs, "%s: malformed compile database: entry %zu has \"arguments\" that are not all strings",
                   json_path, i + 1);
      json_decref(root);
      return NULL;
    }
    if (missing) {
      hl_strv_addf(errs, "%s: malformed compile database: entry %zu is not %s%s", json_path, i + 1,
                   missing[0] == 'a' ? "" : "complete: it lacks ", missing);
      json_decref(root);
      return NULL;
    }
  }
  return root;
}

/* ---- the copy libclang reads, when the database needs one ---- */

/* A "command" split as libclang's loader splits it on POSIX (LLVM's
 * unescapeCommandLine, JSONCommandLineSyntax::Gnu): only ' ' separates;
 * a backslash escapes the next character, also in double quotes; single
 * quotes escape nothing; an unterminated quote ends the command. */
static json_t *split_command(const char *s) {
  json_t *args = json_array();
  size_t n = strlen(s), i = 0;
  for (;;) {
    while (i < n && s[i] == ' ') i++;
    if (i >= n) return args;
    hl_sb w = {0};
    int more = 1;
    while (more && i < n && s[i] != ' ') {
      char q = s[i];
      if (q == '"' || q == '\'') {
        for (i++; more && (more = i < n) && s[i] != q; i++) {
          if (q == '"' && s[i] == '\\' && !(more = ++i < n)) break;
          hl_sb_putc(&w, s[i]);
        }
        i += more;
        continue;
      }
      do {
        if (s[i] == '\\' && !(more = ++i < n)) break;
        hl_sb_putc(&w, s[i++]);
      } while (i < n && s[i] != ' ' && s[i] != '"' && s[i] != '\'');
    }
    json_array_append_new(args, json_string(hl_sb_str(&w)));
    hl_sb_free(&w);
    if (!more) return args;
  }
}

/* What libclang's loader would get wrong in an entry, made right in the
 * copy it reads (returns whether there was any): a relative "directory"
 * is relative to the database's own directory (base) — the format says
 * so, and libclang would take it relative to heaplint's current directory,
 * and find no command for a file named; a response file is renamed
 * (RSP_MARK), so that heaplint reads it, not libclang. */
static int fix_entry(json_t *entry, const char *base) {
  const char *dir = json_string_value(json_object_get(entry, "directory"));
  json_t *args = json_object_get(entry, "arguments");
  const char *command = json_string_value(json_object_get(entry, "command"));
  int fixed = 0;
  if (dir[0] != '/') {
    char *joined = strcmp(dir, ".") ? hl_xasprintf("%s/%s", base, dir) : hl_xstrdup(base);
    json_object_set_new(entry, "directory", json_string(joined));
    free(joined);
    fixed = 1;
  }
  if (!args && !strchr(command, '@')) return fixed;
  /* "arguments" wins over "command", as in libclang. */
  args = args ? json_incref(args) : split_command(command);
  json_t *renamed = json_array();
  size_t i;
  json_t *a;
  int rsp = 0;
  json_array_foreach(args, i, a) {
    const char *v = json_string_value(a);
    rsp |= v[0] == '@';
    json_array_append_new(renamed, v[0] == '@' ? json_sprintf(RSP_MARK "%s", v + 1) : json_incref(a));
  }
  json_decref(args);
  if (rsp) {
    json_object_del(entry, "command");
    json_object_set_new(entry, "arguments", renamed);
  } else {
    json_decref(renamed);
  }
  return fixed | rsp;
}

/* A copy of the database with its entries fixed (fix_entry), for libclang
 * to load instead; removed (also by SIGINT, SIGTERM, SIGHUP) once loaded. */
typedef struct db_copy {
  char *dir; /* NULL: no copy */
  char *path;
  int slots[2]; /* hl_temp_track's */
} db_copy;

static void db_copy_remove(db_copy *c) {
  if (!c->dir) return;
  unlink(c->path);
  rmdir(c->dir);
  hl_temp_untrack(c->slots[1]);
  hl_temp_untrack(c->slots[0]);
  free(c->path);
  free(c->dir);
  memset(c, 0, sizeof *c);
}

/* Makes the copy when an entry needs fixing. A relative "directory" is
 * relative to the directory of the database after links are followed (a
 * compile_commands.json linked from the source root into the build
 * directory keeps its meaning), as in LLVM's own fix (llvm-project
 * #235400, after libclang 19). Returns 0 (c->dir NULL when no copy is
 * needed), or -1 when it cannot be written (errs says why). */
static int db_copy_make(db_copy *c, json_t *root, const char *json, hl_strv *errs) {
  memset(c, 0, sizeof *c);
  char *real = hl_abspath(json), *slash = strrchr(real, '/');
  if (slash) *(slash == real ? slash + 1 : slash) = 0;
  size_t i;
  json_t *entry;
  int fixed = 0;
  json_array_foreach(root, i, entry) fixed |= fix_entry(entry, real);
  free(real);
  if (!fixed) return 0;
  const char *tmp = getenv("TMPDIR");
  char *dir = hl_xasprintf("%s/heaplint-db-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    hl_strv_addf(errs, "%s: cannot make a temporary copy of the compile database in %s: %s", json,
                 tmp && *tmp ? tmp : "/tmp", strerror(errno));
    free(dir);
    return -1;
  }
  c->dir = dir;
  c->path = hl_xasprintf("%s/compile_commands.json", dir);
  c->slots[0] = hl_temp_track(c->dir);
  c->slots[1] = hl_temp_track(c->path);
  FILE *f = fopen(c->path, "wx");
  int ok = f && json_dumpf(root, f, JSON_COMPACT) == 0;
  if ((f && fclose(f) != 0) || !ok) {
    hl_strv_addf(errs, "%s: cannot write a temporary copy of the compile database to %s: %s", json, c->path,
                 strerror(errno));
    db_copy_remove(c);
    return -1;
  }
  return 0;
}

/* A database that lists one command many times (a generator's bug, or
 * concatenated databases) would have it parsed as often: the copies are
 * dropped before any parse. Two entries are the same when their jobs are
 * (file, directory, cleaned arguments), found by hash: a database of many
 * entries costs as many lookups, not a comparison of every pair. */
static unsigned long long job_hash(const hl_job *j) {
  const char **parts = hl_xcalloc(j->nargs + 2, sizeof *parts);
  parts[0] = j->file;
  parts[1] = j->directory ? j->directory : "";
  for (size_t i = 0; i < j->nargs; i++) parts[i + 2] = j->args[i];
  unsigned long long h = hl_hindex_hash_parts(parts, j->nargs + 2);
  free(parts);
  return h;
}

int hl_job_same(const hl_job *a, const hl_job *b) {
  if (strcmp(a->file, b->file) || a->nargs != b->nargs || !a->directory != !b->directory ||
      (a->directory && strcmp(a->directory, b->directory)))
    return 0;
  for (size_t i = 0; i < a->nargs; i++)
    if (strcmp(a->args[i], b->args[i])) return 0;
  return 1;
}

/* What the last job reports joins what its twin (the same unit, added
 * before) reports: the whole unit when either does, else both's headers. */
static void merge_only(hl_job *twin, hl_job *last) {
  if (!twin->nonly) return;
  if (!last->nonly) {
    for (size_t i = 0; i < twin->nonly; i++) free(twin->only[i]);
    free(twin->only);
    twin->only = NULL;
    twin->nonly = 0;
    return;
  }
  for (size_t i = 0; i < last->nonly; i++) {
    int has = 0;
    for (size_t k = 0; k < twin->nonly && !has; k++) has = !strcmp(twin->only[k], last->only[i]);
    if (has) continue;
    twin->only = hl_xrealloc(twin->only, (twin->nonly + 1) * sizeof *twin->only);
    twin->only[twin->nonly++] = hl_xstrdup(last->only[i]);
  }
}

/* The jobs from first on came from this database, and ix holds those
 * before the last: drops the last one when it is one of them, else adds
 * it to ix. */
static void drop_duplicate(hl_jobs *jobs, size_t first, size_t *seen, hl_hindex *ix) {
  if (jobs->n - first == *seen) return; /* add_db_command added nothing */
  hl_job *last = &jobs->v[jobs->n - 1];
  unsigned long long h = job_hash(last);
  size_t cursor = 0, i;
  while (hl_hindex_next(ix, h, &cursor, &i))
    if (hl_job_same(&jobs->v[first + i], last)) {
      merge_only(&jobs->v[first + i], last);
      hl_job_free(last);
      jobs->n--;
      return;
    }
  hl_hindex_add(ix, h, (*seen)++);
}

/* ---- a header's includer ---- */

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* The length of path's name without its extension. */
static size_t stem_len(const char *path) {
  const char *b = base_name(path), *dot = strrchr(b, '.');
  return dot && dot != b ? (size_t)(dot - b) : strlen(b);
}

static int same_stem(const char *a, const char *b) {
  size_t n = stem_len(a);
  return n == stem_len(b) && !strncmp(base_name(a), base_name(b), n);
}

static int same_dir(const char *a, const char *b) {
  size_t na = (size_t)(base_name(a) - a), nb = (size_t)(base_name(b) - b);
  return na == nb && !strncmp(a, b, na);
}

/* Whether the line at p (n bytes) is an #include whose name path ends with
 * ("net/socket.h" for /src/net/socket.h; "./" and "../" looked through). */
static int includes_line(const char *p, size_t n, const char *path) {
  size_t i = 0;
  while (i < n && isspace((unsigned char)p[i])) i++;
  if (i >= n || p[i] != '#') return 0;
  for (i++; i < n && isspace((unsigned char)p[i]); i++) {
  }
  if (n - i < 7 || strncmp(p + i, "include", 7)) return 0;
  for (i += 7; i < n && isspace((unsigned char)p[i]); i++) {
  }
  if (i >= n || (p[i] != '"' && p[i] != '<')) return 0;
  char close = p[i] == '"' ? '"' : '>';
  const char *name = p + i + 1, *end = memchr(name, close, n - i - 1);
  if (!end) return 0;
  while (end - name >= 2 && (!strncmp(name, "./", 2) || !strncmp(name, "../", 3))) name += name[1] == '/' ? 2 : 3;
  size_t len = (size_t)(end - name), plen = strlen(path);
  return len > 0 && len < plen && path[plen - len - 1] == '/' && !strncmp(path + plen - len, name, len);
}

static int includes(const char *unit, const char *path) {
  char *text;
  size_t len;
  if (hl_read_file(unit, &text, &len)) return 0;
  int found = 0;
  for (size_t at = 0; at < len && !found;) {
    const char *nl = memchr(text + at, '\n', len - at);
    size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
    found = includes_line(text + at, n, path);
    at += n + 1;
  }
  free(text);
  return found;
}

/* A unit that includes path itself. */
static long direct_includer(const hl_jobs *jobs, const char *path) {
  size_t scanned = 0;
  for (int pass = 0; pass < 3; pass++)
    for (size_t k = 0; k < jobs->n && scanned < HL_INCLUDER_SCAN; k++) {
      const char *f = jobs->v[k].file;
      int stem = same_stem(f, path), here = same_dir(f, path);
      int candidate = pass == 0 ? stem && here : pass == 1 ? stem && !here : !stem;
      if (candidate && (scanned++, includes(f, path))) return (long)k;
    }
  return -1;
}

/* A unit that includes path through headers of path's directory (an .inl
 * of template definitions included at the end of its .h), depth levels
 * deep at most. */
static long includer_through(const hl_jobs *jobs, const char *path, int depth) {
  long k = direct_includer(jobs, path);
  if (k >= 0 || depth == 0) return k;
  size_t nd = (size_t)(base_name(path) - path);
  char *dir = nd ? hl_xstrndup(path, nd) : hl_xstrdup("./");
  DIR *d = opendir(dir);
  struct dirent *e;
  size_t read = 0;
  while (d && k < 0 && read < HL_INCLUDER_SCAN && (e = readdir(d))) {
    if (!hl_is_header_name(e->d_name)) continue;
    char *h = hl_xasprintf("%s%s", dir, e->d_name);
    if (strcmp(h, path) && (read++, includes(h, path))) k = includer_through(jobs, h, depth - 1);
    free(h);
  }
  if (d) closedir(d);
  free(dir);
  return k;
}

long hl_jobs_includer(const hl_jobs *jobs, const char *path) { return includer_through(jobs, path, 2); }

int hl_is_header_name(const char *path) {
  const char *dot = strrchr(base_name(path), '.');
  static const char *const ext[] = {"h", "hh", "hpp", "hxx", "h++", "H", "inl", "ipp", "tpp", "txx", "tcc"};
  for (size_t i = 0; dot && i < sizeof ext / sizeof *ext; i++)
    if (!strcmp(dot + 1, ext[i])) return 1;
  return 0;
}

/* The database json (in dir), read and checked by heaplint, then loaded by
 * libclang (from a fixed copy when it needs one); NULL when it cannot be
 * used (errs says why). */
static CXCompilationDatabase open_db(const char *dir, const char *json, hl_strv *errs) {
  char *text = NULL;
  size_t len = 0;
  int e = hl_read_file(json, &text, &len);
  if (e) {
    char *why = hl_read_failure(e, len, HL_READ_MAX, "a compile database");
    hl_strv_addf(errs, "%s: cannot read the compile database: %s%s", json, why,
                 e == ENOENT ? " (generate it with cmake -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or bear)" : "");
    free(why);
    return NULL;
  }
  json_t *root = check_db(json, text, len, errs);
  free(text);
  if (!root) return NULL;
  db_copy copy;
  e = db_copy_make(&copy, root, json, errs);
  json_decref(root);
  if (e) return NULL;
  CXCompilationDatabase_Error err;
  CXCompilationDatabase db = clang_CompilationDatabase_fromDirectory(copy.dir ? copy.dir : dir, &err);
  /* libclang has read it whole: the copy is not needed any more. */
  db_copy_remove(&copy);
  if (err != CXCompilationDatabase_NoError || !db) {
    hl_strv_addf(errs, "%s: libclang cannot load this compile database", json);
    if (db) clang_CompilationDatabase_dispose(db);
    return NULL;
  }
  return db;
}

/* A header named (path, absolute) that the database does not list is
 * analyzed through a unit that includes it, as the language server does:
 * that unit's job, reporting only in the header. Returns 1 when added (or
 * joined to the same unit's job), 0 when no unit includes it (the caller
 * then takes the command libclang infers, parsing the header alone). */
static int named_header(CXCompilationDatabase db, hl_jobs *jobs, size_t first, size_t *seen, hl_hindex *ix,
                        hl_jobs *all, const char *path) {
  if (!hl_is_header_name(path)) return 0;
  if (!all->n) {
    hl_strv ignored = {0};
    CXCompileCommands cmds = clang_CompilationDatabase_getAllCompileCommands(db);
    unsigned n = clang_CompileCommands_getSize(cmds);
    for (unsigned i = 0; i < n; i++) add_db_command(all, clang_CompileCommands_getCommand(cmds, i), 0, &ignored);
    clang_CompileCommands_dispose(cmds);
    hl_strv_free(&ignored);
  }
  for (size_t i = 0; i < all->n; i++)
    if (!strcmp(all->v[i].file, path)) return 0; /* listed: its own command */
  long k = hl_jobs_includer(all, path);
  if (k < 0) return 0;
  hl_job j;
  hl_job_copy(&j, &all->v[k]);
  j.only = hl_xcalloc(1, sizeof *j.only);
  j.only[j.nonly++] = hl_xstrdup(path);
  HL_PUSH(jobs->v, jobs->n, jobs->cap, j);
  drop_duplicate(jobs, first, seen, ix);
  return 1;
}

int hl_jobs_from_db(hl_jobs *jobs, const char *builddir, char *const *files, size_t nfiles, hl_strv *errs) {
  struct stat st;
  if (stat(builddir, &st) != 0) {
    hl_strv_addf(errs, "%s: cannot read the compile database: %s", builddir, strerror(errno));
    return -1;
  }
  char *dir, *json;
  if (S_ISDIR(st.st_mode)) {
    dir = hl_xstrdup(builddir);
    json = hl_xasprintf("%s/compile_commands.json", builddir);
  } else {
    const char *slash = strrchr(builddir, '/');
    dir = slash ? hl_xstrndup(builddir, (size_t)(slash - builddir) + (slash == builddir)) : hl_xstrdup(".");
    json = hl_xstrdup(builddir);
    if (!hl_ends_with(builddir, "compile_commands.json")) {
      hl_strv_addf(errs, "%s: -p takes a build directory or its compile_commands.json", builddir);
      free(dir);
      free(json);
      return -1;
    }
  }
  int rc = -1;
  CXCompilationDatabase db = open_db(dir, json, errs);
  if (!db) goto out;
  rc = 0;
  size_t first = jobs->n;
  hl_hindex hashes = {0};
  size_t seen = 0;
  hl_jobs all = {0}; /* every entry, read when a header is named */
  if (nfiles == 0) {
    CXCompileCommands cmds = clang_CompilationDatabase_getAllCompileCommands(db);
    unsigned n = clang_CompileCommands_getSize(cmds);
    if (n == 0) {
      hl_strv_addf(errs, "%s: the compile database contains no compile commands", json);
      rc = -1;
    }
    for (unsigned i = 0; i < n; i++) {
      add_db_command(jobs, clang_CompileCommands_getCommand(cmds, i), 0, errs);
      drop_duplicate(jobs, first, &seen, &hashes);
    }
    clang_CompileCommands_dispose(cmds);
  } else {
    for (size_t i = 0; i < nfiles; i++) {
      if (check_source(files[i], errs)) continue;
      /* A file of another language gets no command inferred from a
       * neighbour's: the same error as without -p. */
      if (hl_lang_of(files[i], NULL, 0) == HL_LANG_OTHER) {
        not_c_or_cxx(errs, files[i], NULL);
        continue;
      }
      char *abs = hl_abspath(files[i]);
      if (named_header(db, jobs, first, &seen, &hashes, &all, abs)) {
        free(abs);
        continue;
      }
      CXCompileCommands cmds = clang_CompilationDatabase_getCompileCommands(db, abs);
      unsigned n = cmds ? clang_CompileCommands_getSize(cmds) : 0;
      if (n == 0) hl_strv_addf(errs, "%s: cannot analyze: no compile command for it in %s", files[i], json);
      for (unsigned k = 0; k < n; k++) {
        add_db_command(jobs, clang_CompileCommands_getCommand(cmds, k), 1, errs);
        drop_duplicate(jobs, first, &seen, &hashes);
      }
      if (cmds) clang_CompileCommands_dispose(cmds);
      free(abs);
    }
  }
  hl_hindex_free(&hashes);
  hl_jobs_free(&all);
  clang_CompilationDatabase_dispose(db);
out:
  free(dir);
  free(json);
  return rc;
}

void hl_jobs_extra_args(hl_jobs *jobs, char *const *before, size_t nbefore, char *const *after, size_t nafter) {
  if (!nbefore && !nafter) return;
  for (size_t i = 0; i < jobs->n; i++) {
    hl_job *j = &jobs->v[i];
    /* The resource directory stays first: --extra-arg-before's own wins. */
    size_t keep = has_resource_arg(j) ? 1 : 0;
    char **old = j->args;
    size_t nold = j->nargs;
    j->args = NULL;
    j->nargs = j->capargs = 0;
    for (size_t k = 0; k < keep; k++) HL_PUSH(j->args, j->nargs, j->capargs, old[k]);
    for (size_t k = 0; k < nbefore; k++) hl_job_arg(j, before[k]);
    for (size_t k = keep; k < nold; k++) HL_PUSH(j->args, j->nargs, j->capargs, old[k]);
    for (size_t k = 0; k < nafter; k++) hl_job_arg(j, after[k]);
    free(old);
  }
}

void hl_jobs_remove_args(hl_jobs *jobs, char *const *globs, size_t nglobs) {
  for (size_t i = 0; i < jobs->n && nglobs; i++) {
    hl_job *j = &jobs->v[i];
    size_t out = 0;
    for (size_t k = 0; k < j->nargs; k++) {
      int drop = 0;
      for (size_t g = 0; g < nglobs && !drop; g++) drop = hl_glob_match(globs[g], j->args[k]);
      /* -working-directory's value is heaplint's own, never the user's. */
      if (!strcmp(j->args[k], "-working-directory") || (k > 0 && !strcmp(j->args[k - 1], "-working-directory")))
        drop = 0;
      if (drop)
        free(j->args[k]);
      else
        j->args[out++] = j->args[k];
    }
    j->nargs = out;
  }
}

void hl_jobs_shard(hl_jobs *jobs, unsigned k, unsigned n) {
  size_t out = 0;
  for (size_t i = 0; i < jobs->n; i++) {
    if (i % n == k - 1)
      jobs->v[out++] = jobs->v[i];
    else
      hl_job_free(&jobs->v[i]);
  }
  jobs->n = out;
}
