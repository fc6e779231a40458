/* heaplint/noalloc.h: HEAPLINT_NO_ALLOC marks a function (or a lambda) as a
 * no-allocation zone for heaplint's no-alloc rule: every site in it that
 * heaplint knows allocates — and every call to a function of the same
 * translation unit that allocates, transitively — is reported as an error.
 *
 *   HEAPLINT_NO_ALLOC void Mixer::process(float *out, int frames);
 *   void Voice::render() HEAPLINT_NO_ALLOC;
 *
 * For heaplint (and any clang) it is an annotate attribute, which libclang
 * reads; for other compilers it is nothing. It changes no code: it is a
 * promise heaplint checks, not one the compiler enforces (clang's own
 * [[clang::nonallocating]] and [[clang::nonblocking]] mark a zone too). A C
 * header, usable from C and C++ at any standard. */
#ifndef HEAPLINT_NOALLOC_H
#define HEAPLINT_NOALLOC_H

#if defined(__clang__)
#define HEAPLINT_NO_ALLOC __attribute__((annotate("heaplint::no_alloc")))
#else
#define HEAPLINT_NO_ALLOC
#endif

#endif
