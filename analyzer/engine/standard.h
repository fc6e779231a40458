/* standard: the C++ standard a translation unit is compiled in, as its
 * compile arguments make it: -std= when given, else the compiler's default
 * for the language. It is what the compiler says __cplusplus is, asked with
 * a one-line parse under the same arguments, so every spelling of the
 * option (-std=gnu++1y, -std=c++0x, /std:c++14) and every default counts. */
#ifndef HEAPLINT_STANDARD_H
#define HEAPLINT_STANDARD_H

#include <clang-c/Index.h>
#include <stddef.h>

/* __cplusplus for the translation unit source parsed with args (without the
 * source): 201103L for C++11, ...; 0 when it is not C++. Returns -1 when the
 * compiler cannot be asked. */
long hl_standard_cplusplus(CXIndex index, const char *source, const char *const *args, size_t nargs);

/* "C++11", "C++14", ... for a __cplusplus value (a draft's value names the
 * standard it precedes: 202002L is C++20, 202302L C++23); "C++98" below. */
const char *hl_standard_name(long cplusplus);

#endif
