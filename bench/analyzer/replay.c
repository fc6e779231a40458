/* replay: the parse floor that heaplint is measured against.
 *
 * Reads a compile database and replays each C++ entry the way heaplint would
 * see it, one translation unit after another, in the entry's directory:
 *
 *   replay syntax [--clang PATH] DIR   clang++ -fsyntax-only on each entry
 *   replay libclang DIR                libclang parses and disposes each entry
 *                                      (heaplint's parse, without its work)
 *   replay count DIR                   how many C++ entries there are
 *   replay time CMD [ARG...]           runs CMD once (output discarded) and
 *                                      prints "wall user sys" in seconds
 *
 * The arguments are the entry's, transformed as heaplint transforms them
 * (analyzer/input/jobs.c): the compiler, -c, -o and the dependency-file flags go,
 * "-x c++" comes in for a C++ file without a C++ extension, and "-w" goes
 * last, since heaplint passes -w too. DIR is a build directory or its
 * compile_commands.json. Benchmark tooling, not part of heaplint. */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE
#include <clang-c/Index.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct strs {
  char **v;
  size_t n, cap;
} strs;

static void *xrealloc(void *p, size_t n) {
  p = realloc(p, n);
  if (!p) {
    fputs("replay: out of memory\n", stderr);
    exit(2);
  }
  return p;
}

static char *xstrdup(const char *s) { return strcpy(xrealloc(NULL, strlen(s) + 1), s); }

static void push(strs *s, char *v) {
  if (s->n + 1 >= s->cap) {
    s->cap = s->cap ? 2 * s->cap : 16;
    s->v = xrealloc(s->v, s->cap * sizeof *s->v);
  }
  s->v[s->n++] = v;
  s->v[s->n] = NULL;
}

static void strs_free(strs *s) {
  for (size_t i = 0; i < s->n; i++) free(s->v[i]);
  free(s->v);
  memset(s, 0, sizeof *s);
}

/* Splits a "command" string as a POSIX shell would split words: blanks
 * separate, quotes group, a backslash escapes (inside double quotes only
 * before " \ $ `). */
static void split_command(const char *cmd, strs *out) {
  const char *p = cmd;
  char *word = xrealloc(NULL, strlen(cmd) + 1);
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n') p++;
    if (!*p) break;
    size_t n = 0;
    while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
      if (*p == '\'') {
        for (p++; *p && *p != '\''; p++) word[n++] = *p;
        if (*p) p++;
      } else if (*p == '"') {
        for (p++; *p && *p != '"'; p++) {
          if (*p == '\\' && p[1] && strchr("\"\\$`", p[1])) p++;
          word[n++] = *p;
        }
        if (*p) p++;
      } else if (*p == '\\' && p[1]) {
        word[n++] = p[1];
        p += 2;
      } else {
        word[n++] = *p++;
      }
    }
    word[n] = '\0';
    push(out, xstrdup(word));
  }
  free(word);
}

typedef struct entry {
  char *directory;
  char *file; /* as written in the entry */
  strs args;  /* what follows the compiler, transformed as heaplint does */
} entry;

static const char *ext_of(const char *path) {
  const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
  return dot && (!slash || dot > slash) ? dot + 1 : "";
}

static int is_cxx_ext(const char *ext) {
  static const char *const cxx[] = {"cc", "cp", "cxx", "cpp", "CPP", "c++", "C", "ii", "cppm", "ixx",
                                    "ccm", "cxxm", "c++m", "hh", "hpp", "hxx", "H", "h++", "tcc", "inl"};
  for (size_t i = 0; i < sizeof cxx / sizeof *cxx; i++)
    if (!strcmp(ext, cxx[i])) return 1;
  return 0;
}

/* Whether the entry is C++ as heaplint decides it (analyzer/input/jobs.c). */
static int is_cxx(const char *file, const char *driver, const char *x) {
  if (x) return !strncmp(x, "c++", 3);
  const char *ext = ext_of(file);
  if (is_cxx_ext(ext)) return 1;
  const char *base = strrchr(driver, '/');
  base = base ? base + 1 : driver;
  return strstr(base, "++") && (!strcmp(ext, "c") || !strcmp(ext, "h") || !strcmp(ext, "i"));
}

static int drop(const char *a, int *skip_next) {
  static const char *const with_value[] = {"-o", "-MF", "-MT", "-MQ", "-MJ", "--serialize-diagnostics"};
  static const char *const alone[] = {"-c", "-S", "-E", "-M", "-MM", "-MD", "-MMD", "-MG", "-MP",
                                      "-fsyntax-only", "-save-temps"};
  for (size_t i = 0; i < sizeof with_value / sizeof *with_value; i++)
    if (!strcmp(a, with_value[i])) return *skip_next = 1;
  for (size_t i = 0; i < sizeof alone / sizeof *alone; i++)
    if (!strcmp(a, alone[i])) return 1;
  return !strncmp(a, "-o", 2) || !strncmp(a, "-MF", 3) || !strncmp(a, "-MT", 3) || !strncmp(a, "-MQ", 3);
}

static int same_file(const char *dir, const char *a, const char *b) {
  char pa[4096], pb[4096];
  snprintf(pa, sizeof pa, "%s%s%s", a[0] == '/' ? "" : dir, a[0] == '/' ? "" : "/", a);
  snprintf(pb, sizeof pb, "%s%s%s", b[0] == '/' ? "" : dir, b[0] == '/' ? "" : "/", b);
  struct stat sa, sb;
  if (stat(pa, &sa) || stat(pb, &sb)) return !strcmp(pa, pb);
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Loads the C++ entries of the database; returns how many, or -1. */
static long load(const char *dir, entry **out) {
  char path[4096];
  struct stat st;
  if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) snprintf(path, sizeof path, "%s/compile_commands.json", dir);
  else snprintf(path, sizeof path, "%s", dir);
  json_error_t e;
  json_t *root = json_load_file(path, 0, &e);
  if (!root || !json_is_array(root)) {
    fprintf(stderr, "replay: %s: %s\n", path, root ? "not a JSON array" : e.text);
    json_decref(root);
    return -1;
  }
  entry *v = NULL;
  long n = 0;
  size_t i;
  json_t *j;
  json_array_foreach(root, i, j) {
    const char *d = json_string_value(json_object_get(j, "directory"));
    const char *f = json_string_value(json_object_get(j, "file"));
    json_t *cmd = json_object_get(j, "command"), *arr = json_object_get(j, "arguments");
    if (!d || !f || (!json_is_string(cmd) && !json_is_array(arr))) {
      fprintf(stderr, "replay: %s: entry %zu is incomplete\n", path, i + 1);
      json_decref(root);
      return -1;
    }
    strs argv = {0};
    if (json_is_array(arr)) {
      size_t k;
      json_t *a;
      json_array_foreach(arr, k, a) push(&argv, xstrdup(json_string_value(a) ? json_string_value(a) : ""));
    } else {
      split_command(json_string_value(cmd), &argv);
    }
    const char *x = NULL;
    for (size_t k = 1; k < argv.n; k++) {
      if (!strcmp(argv.v[k], "-x") && k + 1 < argv.n) x = argv.v[++k];
      else if (!strncmp(argv.v[k], "-x", 2) && argv.v[k][2]) x = argv.v[k] + 2;
    }
    if (argv.n == 0 || !is_cxx(f, argv.v[0], x)) {
      strs_free(&argv);
      continue;
    }
    entry en = {xstrdup(d), xstrdup(f), {0}};
    int skip_next = 0;
    for (size_t k = 1; k < argv.n; k++) {
      if (skip_next) {
        skip_next = 0;
        continue;
      }
      if (drop(argv.v[k], &skip_next)) continue;
      if (argv.v[k][0] != '-' && same_file(d, argv.v[k], f)) continue;
      push(&en.args, xstrdup(argv.v[k]));
    }
    if (!x && !is_cxx_ext(ext_of(f))) {
      push(&en.args, xstrdup("-x"));
      push(&en.args, xstrdup("c++"));
    }
    push(&en.args, xstrdup("-w"));
    strs_free(&argv);
    v = xrealloc(v, (size_t)(n + 1) * sizeof *v);
    v[n++] = en;
  }
  json_decref(root);
  *out = v;
  return n;
}

static void entries_free(entry *v, long n) {
  for (long i = 0; i < n; i++) {
    free(v[i].directory);
    free(v[i].file);
    strs_free(&v[i].args);
  }
  free(v);
}

static int run_clang(const char *clang, const entry *e) {
  strs argv = {0};
  push(&argv, xstrdup(clang));
  push(&argv, xstrdup("-fsyntax-only"));
  for (size_t i = 0; i < e->args.n; i++) push(&argv, xstrdup(e->args.v[i]));
  push(&argv, xstrdup(e->file));
  pid_t pid = fork();
  if (pid == 0) {
    if (chdir(e->directory)) _exit(126);
    execv(clang, argv.v);
    _exit(127);
  }
  int status = -1;
  if (pid > 0) waitpid(pid, &status, 0);
  strs_free(&argv);
  if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
    fprintf(stderr, "replay: %s: clang -fsyntax-only failed (status %d)\n", e->file, status);
    return -1;
  }
  return 0;
}

static int parse_libclang(CXIndex index, const entry *e) {
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd) || chdir(e->directory)) {
    fprintf(stderr, "replay: %s: %s\n", e->directory, strerror(errno));
    return -1;
  }
  CXTranslationUnit tu = NULL;
  enum CXErrorCode err = clang_parseTranslationUnit2(index, e->file, (const char *const *)e->args.v,
                                                     (int)e->args.n, NULL, 0, CXTranslationUnit_None, &tu);
  int rc = 0;
  if (err != CXError_Success || !tu) {
    fprintf(stderr, "replay: %s: libclang could not parse it (error %d)\n", e->file, (int)err);
    rc = -1;
  } else {
    for (unsigned i = 0, n = clang_getNumDiagnostics(tu); i < n; i++) {
      CXDiagnostic d = clang_getDiagnostic(tu, i);
      if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) rc = -1;
      clang_disposeDiagnostic(d);
    }
    if (rc) fprintf(stderr, "replay: %s: does not compile under libclang\n", e->file);
    clang_disposeTranslationUnit(tu);
  }
  if (chdir(cwd)) rc = -1;
  return rc;
}

static double seconds(struct timeval t) { return (double)t.tv_sec + (double)t.tv_usec / 1e6; }

static int time_command(char **argv) {
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pid_t pid = fork();
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
      dup2(null, 1);
      dup2(null, 2);
    }
    execvp(argv[0], argv);
    _exit(127);
  }
  if (pid < 0) {
    perror("replay: fork");
    return 2;
  }
  int status;
  struct rusage ru;
  if (wait4(pid, &status, 0, &ru) < 0) {
    perror("replay: wait4");
    return 2;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
  printf("%.3f %.3f %.3f\n", wall, seconds(ru.ru_utime), seconds(ru.ru_stime));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

static int usage(void) {
  fputs("usage: replay syntax [--clang PATH] DIR | replay libclang DIR | replay count DIR | replay time CMD [ARG...]\n",
        stderr);
  return 2;
}

int main(int argc, char **argv) {
  if (argc < 3) return usage();
  const char *mode = argv[1];
  if (!strcmp(mode, "time")) return time_command(argv + 2);
  const char *clang = "/usr/lib/llvm-19/bin/clang++";
  int a = 2;
  if (!strcmp(mode, "syntax") && !strcmp(argv[a], "--clang") && a + 2 < argc) {
    clang = argv[a + 1];
    a += 2;
  }
  if (a + 1 != argc) return usage();
  entry *v = NULL;
  long n = load(argv[a], &v);
  if (n < 0) return 2;
  int failed = 0;
  if (!strcmp(mode, "count")) {
    printf("%ld\n", n);
  } else if (!strcmp(mode, "syntax")) {
    for (long i = 0; i < n; i++) failed |= run_clang(clang, &v[i]) != 0;
  } else if (!strcmp(mode, "libclang")) {
    CXIndex index = clang_createIndex(0, 0);
    for (long i = 0; i < n; i++) failed |= parse_libclang(index, &v[i]) != 0;
    clang_disposeIndex(index);
  } else {
    entries_free(v, n);
    return usage();
  }
  entries_free(v, n);
  return failed ? 1 : 0;
}
