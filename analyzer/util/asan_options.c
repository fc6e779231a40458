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

/* LeakSanitizer: libclang (not instrumented) leaves some of its own
 * SmallVector buffers behind when a C++20 unit is parsed and disposed
 * (tests/fixcorpus/cxx20.test: 12 objects, allocated in
 * llvm::SmallVectorBase::grow_pod, the only frame LSan can see through
 * libLLVM). Only that frame is suppressed: a leak of heaplint's own still
 * shows, wherever it is called from. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_options(void);

const char *__lsan_default_suppressions(void) { return "leak:llvm::SmallVectorBase\n"; }
/* Not the table of the suppressions used: stderr is what the tests read. */
const char *__lsan_default_options(void) { return "print_suppressions=0"; }
