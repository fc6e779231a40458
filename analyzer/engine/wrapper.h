/* wrapper: the data a profile gives the engine — for each wrapper
 * (std::function, std::any, a custom callback type) when it keeps what it
 * stores inline — the profile an entry comes from, and the numbers a
 * rule measures per library (engine/ruledata.h). Loading, layering
 * and selecting profiles is input/profile.h's; the format is documented in
 * docs/profiles.md. */
#ifndef HEAPLINT_ENGINE_WRAPPER_H
#define HEAPLINT_ENGINE_WRAPPER_H

#include <stddef.h>

#include "engine/ruledata.h"

enum {
  HL_REQ_TRIVIALLY_COPYABLE = 1u << 0,
  HL_REQ_NOTHROW_COPY = 1u << 1,
  HL_REQ_NOTHROW_MOVE = 1u << 2,
};

/* Which fields a wrapper entry states (a config's override states few). */
enum {
  HL_W_RULE = 1u << 0,
  HL_W_BUFFER = 1u << 1,
  HL_W_HEADER = 1u << 2,
  HL_W_MAX_ALIGN = 1u << 3,
  HL_W_REQUIRES = 1u << 4,
  HL_W_FACTORIES = 1u << 5,
  HL_W_EMPLACE = 1u << 6,
  HL_W_SOURCE = 1u << 7,
  HL_W_REPLACEMENT = 1u << 8,
};

typedef struct hl_wrapper {
  unsigned given;   /* HL_W_* */
  char *name;       /* qualified, without inline namespaces: "std::function" */
  char *rule;       /* the rule that reports it: "function-sbo" */
  long buffer_size; /* bytes of the inline buffer */
  long buffer_align;
  long header_size;  /* bytes the library stores in front of the target */
  long header_align; /* (libc++'s __func vtable pointer); 0 when none */
  char *header_what; /* what that header is, for messages */
  long max_align;    /* a target aligned more than this goes to the heap; 0: no limit */
  unsigned
    requires;       /* HL_REQ_* traits the target must have to stay inline */
  char **factories; /* free functions making the wrapper: stored type = 1st template arg */
  size_t nfactories;
  char **emplacers; /* members replacing the stored value: stored type = result type */
  size_t nemplacers;
  char *source;              /* where the rule comes from (library source, measurement) */
  char *replacement;         /* the type a fix retypes the wrapper to ("hl::inplace_move_function");
                          NULL: the rule's default; "none": no fix */
  const hl_profile *profile; /* the profile this entry came from */
} hl_wrapper;

struct hl_profile {
  char *path;
  char *library; /* "libstdc++", "libc++", "MSVC STL"; NULL: any library */
  char *description;
  char *detect_include; /* an included file whose path ends with this means the library */
  /* An ABI variant of the library (its old string ABI, an unstable ABI):
   * what messages call it, and how a unit shows it uses it — by the
   * namespace the library's headers declare, or do not, under it. NULL:
   * the library as it is by default. */
  char *abi;                   /* "pre-C++11 string ABI (_GLIBCXX_USE_CXX11_ABI=0)" */
  char *named;                 /* messages' name for it: "libstdc++'s pre-C++11 string ABI (...)" */
  char *detect_namespace;      /* the unit declares this namespace ("std::__2") */
  char *detect_no_namespace;   /* the unit does not declare this one ("std::__cxx11") */
  int pointer_width;           /* 32 or 64; 0: any */
  hl_profile_numbers *numbers; /* the rules' sections it states (engine/ruledata.h) */
  size_t nnumbers;
  hl_wrapper *wrappers;
  size_t nwrappers;
};

#endif
