/* uri: file:// URIs (RFC 3986 as the LSP uses them: percent-encoded bytes)
 * and the paths they name. */
#ifndef HEAPLINT_LSP_URI_H
#define HEAPLINT_LSP_URI_H

/* The path of a file: URI ("file:///a%20b/c.cc" -> "/a b/c.cc"), or NULL
 * when it is not one, or names no path ("%00": a C string would end
 * there, and name another file). Caller frees. */
char *lsp_uri_path(const char *uri);

/* The file: URI of an absolute path, every byte outside the unreserved
 * set and '/' percent-encoded. Caller frees. */
char *lsp_path_uri(const char *path);

#endif
