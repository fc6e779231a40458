/* bench/replace_new.h: every replaceable global operator new and delete
 * (all eight new forms: array, nothrow, align_val_t; all twelve deletes), by
 * their Itanium names, the same for libstdc++ and libc++, for the LD_PRELOAD
 * libraries that count a program's allocations (bench/realcode/hl_trace.c,
 * bench/fixproof/hl_count_new.c). Included once, after the including file
 * has defined
 *   static void *hook_new(size_t n, void *caller);
 *   static void *hook_new_aligned(size_t n, size_t align, void *caller);
 * which return NULL on failure (the throwing forms then abort: a
 * measurement that runs out of memory is void anyway); caller is the
 * return address into the code that called operator new. The blocks go
 * back with free(). */
#ifndef HEAPLINT_BENCH_REPLACE_NEW_H
#define HEAPLINT_BENCH_REPLACE_NEW_H

#include <stddef.h>
#include <stdlib.h>

#define HL_NEW_EXPORT __attribute__((visibility("default")))

#define HL_NEW(name)                                          \
  HL_NEW_EXPORT void *name(size_t n) {                        \
    void *p = hook_new(n, __builtin_return_address(0));       \
    if (!p) abort();                                          \
    return p;                                                 \
  }
#define HL_NEW_NOTHROW(name)                                  \
  HL_NEW_EXPORT void *name(size_t n, const void *nt) {        \
    (void)nt;                                                 \
    return hook_new(n, __builtin_return_address(0));          \
  }
#define HL_NEW_ALIGNED(name)                                  \
  HL_NEW_EXPORT void *name(size_t n, size_t a) {              \
    void *p = hook_new_aligned(n, a, __builtin_return_address(0)); \
    if (!p) abort();                                          \
    return p;                                                 \
  }
#define HL_NEW_ALIGNED_NOTHROW(name)                          \
  HL_NEW_EXPORT void *name(size_t n, size_t a, const void *nt) { \
    (void)nt;                                                 \
    return hook_new_aligned(n, a, __builtin_return_address(0)); \
  }
HL_NEW(_Znwm)
HL_NEW(_Znam)
HL_NEW_NOTHROW(_ZnwmRKSt9nothrow_t)
HL_NEW_NOTHROW(_ZnamRKSt9nothrow_t)
HL_NEW_ALIGNED(_ZnwmSt11align_val_t)
HL_NEW_ALIGNED(_ZnamSt11align_val_t)
HL_NEW_ALIGNED_NOTHROW(_ZnwmSt11align_val_tRKSt9nothrow_t)
HL_NEW_ALIGNED_NOTHROW(_ZnamSt11align_val_tRKSt9nothrow_t)

#define HL_DEL(name) HL_NEW_EXPORT void name(void *p) { free(p); }
#define HL_DEL2(name, T) HL_NEW_EXPORT void name(void *p, T x) { (void)x; free(p); }
#define HL_DEL3(name, T, U) HL_NEW_EXPORT void name(void *p, T x, U y) { (void)x; (void)y; free(p); }
HL_DEL(_ZdlPv)
HL_DEL(_ZdaPv)
HL_DEL2(_ZdlPvm, size_t)
HL_DEL2(_ZdaPvm, size_t)
HL_DEL2(_ZdlPvRKSt9nothrow_t, const void *)
HL_DEL2(_ZdaPvRKSt9nothrow_t, const void *)
HL_DEL2(_ZdlPvSt11align_val_t, size_t)
HL_DEL2(_ZdaPvSt11align_val_t, size_t)
HL_DEL3(_ZdlPvmSt11align_val_t, size_t, size_t)
HL_DEL3(_ZdaPvmSt11align_val_t, size_t, size_t)
HL_DEL3(_ZdlPvSt11align_val_tRKSt9nothrow_t, size_t, const void *)
HL_DEL3(_ZdaPvSt11align_val_tRKSt9nothrow_t, size_t, const void *)

#endif
