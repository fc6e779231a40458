/* AddressSanitizer's defaults for the sanitizer build of heaplint only
 * (HEAPLINT_SANITIZE): the sanitizer runtime calls this before main().
 *
 * libclang registers LLVM's signal handlers on the thread that first needs
 * them (with -j, a worker) and replaces that thread's alternate signal stack
 * with a malloc'd one that is larger than ASan's; when the thread exits,
 * ASan unmaps "its" stack, which is now heap memory, and dies with "failed
 * to deallocate" (about one -j2 run in three). Without ASan's own stack the
 * handlers still run, on LLVM's. */
const char *__asan_default_options(void);

const char *__asan_default_options(void) { return "use_sigaltstack=0"; }
