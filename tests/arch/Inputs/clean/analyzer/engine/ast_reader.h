/* ast_reader: the C interface of a C++ reader. */
#ifndef FIXTURE_AST_READER_H
#define FIXTURE_AST_READER_H

#ifdef __cplusplus
extern "C" {
#endif

int hl_ast_reader_count(const char *s);

static inline int hl_ast_reader_empty(void) { return 0; }

#ifdef __cplusplus
}
#endif

#endif
