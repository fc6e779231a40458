/* ast: the small cursor and type helpers the rules and the type queries
 * share — the first or last child of a cursor, looking through implicit
 * conversions, references, a libclang string as a C string, the names of
 * declarations and types, a file's absolute path. Uses util only. */
#ifndef HEAPLINT_AST_H
#define HEAPLINT_AST_H

#include <clang-c/Index.h>

/* The string's text, malloc'd; s is disposed. */
char *hl_cxstring_take(CXString s);

CXCursor hl_first_child(CXCursor c);
CXCursor hl_last_child(CXCursor c);
/* c's children in order: malloc'd (NULL when none), *n of them. */
CXCursor *hl_children(CXCursor c, size_t *n);

/* An implicit conversion or parentheses: nothing a rule judges by. */
int hl_is_transparent(CXCursor c);
/* c, through implicit conversions and parentheses. */
CXCursor hl_strip(CXCursor c);

/* A specialization of a function template (not merely a member of a class
 * template's specialization). */
int hl_is_function_template_specialization(CXCursor fn);

/* Functions, methods, lambdas: a local variable's scope. */
int hl_is_function_like(enum CXCursorKind k);

/* Size and alignment as clang_Type_getSizeOf/AlignOf answer them (bytes, or
 * a negative CXTypeLayoutError), except that a placeholder type (an
 * unresolved overload set, a bound member function, a pseudo-object: the
 * types clang gives an expression that is not yet a value) answers
 * CXTypeLayoutError_Invalid: libclang 19 has no answer for them and may
 * crash asking (clang's getTypeInfo is unreachable there). Every layout
 * question goes through these two (tests/arch/check_arch.py). */
long long hl_type_size(CXType t);
long long hl_type_align(CXType t);
/* Whether clang cannot lay t out yet: it depends on a template parameter. */
int hl_type_is_dependent(CXType t);

int hl_is_ref(CXType t);
/* The referred-to type, keeping the code's spelling where the reference is
 * spelled directly (a typedef to a reference loses it); t when not one. */
CXType hl_unref(CXType t);

/* The qualified name of the class template t specializes ("std::map"), or
 * "" when it is no specialization; malloc'd. */
char *hl_template_name(CXType t);
/* Whether t specializes the class template name ("std::allocator"). */
int hl_type_is_template(CXType t, const char *name);
/* The same with references looked through, and for a class that
 * specializes no template its own name ("std::in_place_t"). */
char *hl_class_name(CXType t);
/* Whether a and b (references looked through) name the same class. */
int hl_same_class(CXType a, CXType b);

/* Qualified name of a declaration without inline namespaces
 * ("std::function" for libc++'s std::__1::function). */
char *hl_decl_name(CXCursor decl);
/* The type as the code spells it (sugar kept: "std::string"). */
char *hl_type_spelling(CXType t);
/* The shorter of the type's spelling and its canonical spelling: the code's
 * own names ("std::string") are short, library typedefs ("typename
 * std::remove_reference<Message &>::type") are long. */
char *hl_type_readable(CXType t);
/* Whether the type is a lambda's closure type. */
int hl_type_is_lambda(CXType t);

/* The absolute path of f, a file of a translation unit whose relative
 * names are relative to workdir (NULL: the current directory). */
char *hl_file_abspath(CXFile f, const char *workdir);

/* The unsaved files over (a parse's own edited copies) followed by those of
 * base that none of them replaces (an editor's text of other files), by
 * name; *n of them. Only the array is allocated: free it. */
struct CXUnsavedFile *hl_unsaved_with(const struct CXUnsavedFile *base, unsigned nbase,
                                      const struct CXUnsavedFile *over, unsigned nover, unsigned *n);
/* The text base has for the file named name, or NULL. */
const struct CXUnsavedFile *hl_unsaved_find(const struct CXUnsavedFile *base, unsigned nbase, const char *name);
/* A deep copy of n unsaved files (names and texts; each text ends in a
 * NUL past its Length), for hl_unsaved_free. */
struct CXUnsavedFile *hl_unsaved_copy(const struct CXUnsavedFile *v, unsigned n);
void hl_unsaved_free(struct CXUnsavedFile *v, unsigned n);

#endif
