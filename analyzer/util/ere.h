/* ere: POSIX extended regular expressions (a configuration's header-filter)
 * matched in time linear in the subject, whatever the pattern.
 *
 * glibc's regcomp takes time exponential in some patterns ('a++++...': 31 s
 * with 22 '+'), and a repository's configuration must not be able to hang CI.
 * So the pattern is translated into PCRE2's syntax, with the same meaning,
 * and matched with PCRE2's DFA matcher (pcre2_dfa_match), which reads the
 * subject once and never backtracks; compiling is bounded by the pattern's
 * length and PCRE2's own limits. The matcher's time per byte grows with
 * the pattern (the states active at once): so patterns are at most 4096
 * bytes, and each subject's verdict is remembered (a header with many
 * findings is matched once). Accepted: the ERE of POSIX (docs/config.md),
 * plus glibc's \w \W \s \S \b \B \< \> \` \'; refused with a message: back
 * references and other escapes of letters and digits, multi-character
 * collating elements, intervals over 255. */
#ifndef HEAPLINT_ERE_H
#define HEAPLINT_ERE_H

typedef struct hl_ere hl_ere;

/* Compiles pattern. Returns it, or NULL with *err (what is wrong, and
 * where). */
hl_ere *hl_ere_compile(const char *pattern, char **err);
/* 1 when s matches re (anywhere, as regexec), else 0. Thread-safe: the
 * verdicts remembered are shared under a lock. */
int hl_ere_match(const hl_ere *re, const char *s);
void hl_ere_free(hl_ere *re);

#endif
