/* gen: what hl-groundtruth's corpora share — a growing string, the corpus
 * being written (its line count: a site's line is known as it is written),
 * and a site written from a template with marked lines (groundtruth.c's
 * site(): '@' marks the line heaplint should report). groundtruth.c writes
 * the callable and value corpora, alloc.c the string, shared_ptr,
 * shared-state and no-allocation-zone corpora. */
#ifndef HL_GROUNDTRUTH_GEN_H
#define HL_GROUNDTRUTH_GEN_H

#include <stdarg.h>
#include <stddef.h>

#if defined(__GNUC__)
#define GT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define GT_PRINTF(f, a)
/* alloc.c: writes the corpus named which (ALLOC_CORPORA) into g, main()
 * aside. Returns 0, or -1 when which is none of them. */
#define ALLOC_CORPORA "string-sso, make-shared, no-alloc, shared-state"
#define ALLOC_CORPORA_BAR "string-sso|make-shared|no-alloc|shared-state"
int alloc_corpus(gen *g, const char *which);

#endif

typedef struct buf {
  char *s;
  size_t n, cap;
} buf;

typedef struct gen {
  buf out;
  int lines; /* newlines in out: the next line written is lines + 1 */
  int nsites;
  /* The templates corpus's site being written: the rule heaplint should
   * report it under, its category (one word, for the summary) and the
   * allocations measured on this library (the program prints them next to
   * what it counts; compare fails when they differ). */
  const char *rule, *cat;
  long expect, srcexpect;
} gen;

/* What one site stores. */
typedef struct store {
  const char *label; /* printed by the program, so no quotes or backslashes */
  const char *sig;   /* the wrapper's signature; NULL: void() */
  const char *setup; /* statements before the measured window; NULL: none */
  const char *expr;  /* the stored expression */
  const char *self;  /* members of the class whose member function holds the
                        site (for this captures); NULL: a free function */
  const char *type;  /* what make_any / emplace / in_place_type construct */
  const char *args;  /* ...from these arguments */
} store;

/* An allocator over malloc, in the corpora's C++ (inside namespace hl_gt):
 * it stands for the user's own allocator (a pool), which the rules do not
 * judge. Where only operator new is counted, what it allocates is not
 * counted anyway; where malloc is counted too (HL_COUNT_MALLOC), its calls
 * are counted apart in own_calls (a class's own operator new adds to it as
 * well) and a site prints them as own=N, beside the count without them. */
#define MALLOC_ALLOC_CPP                                                                     \
  "unsigned long own_calls;\n"                                                               \
  "template <class T> struct malloc_alloc {\n"                                               \
  "  using value_type = T;\n"                                                                \
  "  malloc_alloc() = default;\n"                                                            \
  "  template <class U> malloc_alloc(const malloc_alloc<U> &) noexcept {}\n"                 \
  "  T *allocate(std::size_t n) {\n"                                                         \
  "    own_calls++;\n"                                                                       \
  "    if (void *p = std::malloc(n * sizeof(T))) return static_cast<T *>(p);\n"              \
  "    throw std::bad_alloc();\n"                                                            \
  "  }\n"                                                                                    \
  "  void deallocate(T *p, std::size_t) noexcept { std::free(p); }\n"                        \
  "  friend bool operator==(const malloc_alloc &, const malloc_alloc &) { return true; }\n"  \
  "  friend bool operator!=(const malloc_alloc &, const malloc_alloc &) { return false; }\n" \
  "};\n"

void *xrealloc(void *p, size_t n);
void buf_putn(buf *b, const char *s, size_t n);
void buf_puts(buf *b, const char *s);
void buf_vprintf(buf *b, const char *fmt, va_list ap) GT_PRINTF(2, 0);
void buf_printf(buf *b, const char *fmt, ...) GT_PRINTF(2, 3);
void put(gen *g, const char *s);
void putf(gen *g, const char *fmt, ...) GT_PRINTF(2, 3);
/* Writes one site from a template; the $NAMEs come from the store
 * (groundtruth.c's placeholder()), $LINE is the line marked '@'. */
void site(gen *g, const char *tmpl, const char *wrapper, const store *s);

/* alloc.c: writes the corpus named which (ALLOC_CORPORA) into g, main()
 * aside. Returns 0, or -1 when which is none of them. */
#define ALLOC_CORPORA "string-sso, make-shared, no-alloc, shared-state"
#define ALLOC_CORPORA_BAR "string-sso|make-shared|no-alloc|shared-state"
int alloc_corpus(gen *g, const char *which);

#endif
