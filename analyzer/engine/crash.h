/* crash: runs a step of the analysis so that a crash inside it — a
 * SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP or SIGABRT in libclang or in
 * heaplint's rules, a stack overflow included — ends that step, not the
 * process: a front end reports the unit and goes on (the language server
 * loses one document's diagnostics, the check one unit's findings).
 *
 * How: as LLVM's CrashRecoveryContext, the crash's signal is caught on the
 * thread that runs the step (on an alternate signal stack, so that a stack
 * overflow can be caught) and the step is left with siglongjmp. Nothing
 * the step was working on can be trusted afterwards: its translation unit
 * is abandoned — never used nor disposed again (its memory stays
 * allocated) — and the next analysis parses afresh. libclang and LLVM keep
 * thread-local state (the crash recovery context a parse was in, the
 * pretty stack trace) that the jump leaves pointing into the abandoned
 * frames: a thread whose step crashed should end, and another take its
 * work. A crash outside a step is not caught: it ends the process as
 * before (the handler hands it to the one it replaced: libclang's).
 *
 * Why not a child process per analysis: a kept unit (the language server's
 * preamble, reparsed after each edit) lives in the process that parses it;
 * a fork per analysis would lose it, or need the results serialized back.
 * Catching costs nothing while nothing crashes (a sigsetjmp and two
 * sigaltstack calls per step). What it cannot catch: a crash on a thread
 * that is not in a step, a heap corrupted so badly that the next malloc
 * fails too, and exit() (LLVM's report_fatal_error without a crash
 * report) — rare next to the one reported (a null type dereferenced). */
#ifndef HEAPLINT_ENGINE_CRASH_H
#define HEAPLINT_ENGINE_CRASH_H

#include <stddef.h>

/* The stack a thread that parses should have: libclang parses on a thread
 * of its own with this much, and hl_crash_init makes it parse on the
 * calling thread instead. */
#define HL_CRASH_STACK_SIZE ((size_t)8 << 20)

/* What crashed. */
typedef struct hl_crash {
  int signal;                /* SIGSEGV, ... */
  char where[128];           /* the file of the code that crashed ("libclang-19.so.19", "heaplint"), or "" */
  const char *step, *detail; /* hl_crash_step's, when it crashed (NULL: none said) */
} hl_crash;

/* Installs the handlers; once, at start-up, before any thread starts.
 * libclang is made to parse on the calling thread (LIBCLANG_NOTHREADS:
 * its own parse thread has no alternate signal stack, and a parse that
 * overflows the stack there ends the process even under libclang's crash
 * recovery); a thread that parses needs HL_CRASH_STACK_SIZE of stack.
 * libclang's own handlers are installed first (they come with the first
 * index) so that ours come before them. Returns 0, or -1 when a handler
 * could not be installed (nothing is caught then). */
int hl_crash_init(void);

/* Runs step(arg) on this thread. Returns 0 when it returned; 1 when it
 * crashed, with *what said (the step left wherever it was: see above).
 * Without hl_crash_init, just runs it. */
int hl_crash_run(void (*step)(void *), void *arg, hl_crash *what);

/* Says what the calling thread does now inside hl_crash_run, for the
 * report of a crash: a phrase ("parsing", "in a rule") and a detail (a
 * rule's id), both static or outliving the step; NULL for none. Two stores
 * to thread-local variables: cheap enough for every cursor. */
void hl_crash_step(const char *step, const char *detail);

/* One line for a person: "SIGSEGV in libclang-19.so.19 while <step>
 * (<detail>)". Caller frees. */
char *hl_crash_describe(const hl_crash *c);

#endif
