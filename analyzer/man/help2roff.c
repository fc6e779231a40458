/* help2roff: heaplint.1 from heaplint's own --help texts, at build time,
 * so that the man page and --help cannot drift (cmake/HeaplintManPage.cmake
 * runs heaplint for the texts, then this). A host tool, not part of
 * heaplint; it knows only the layout the usage texts share:
 *
 *   usage: heaplint ...            the synopsis (with the indented lines
 *          heaplint ...            after it that name heaplint)
 *   text at column 0               paragraphs (a blank line ends one)
 *   heading:                       a heading (column 0, ends with ':',
 *                                  after a blank line or a list)
 *     -x, --opt=<v>  what it does  an item: its tag, two spaces, the text
 *                    more text     (indented deeper: the item goes on)
 *
 * usage: help2roff -o <out.1> --version=<v> --date=<yyyy-mm-dd> --description=<line>
 *                  --docdir=<dir> <heaplint --help text> [<subcommand>=<its --help text>]...
 * Exit status 0, or 1 with the reason on stderr (nothing written). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { IN_NOTHING, IN_USAGE, IN_PARAGRAPH, IN_ITEM } state;

typedef struct page {
  FILE *out;
  int main;          /* heaplint's own text, not a subcommand's */
  int described;     /* .SH DESCRIPTION written */
  int options_begun; /* .SH OPTIONS written */
  state at;
  int blank; /* the previous line was empty */
} page;

/* Text as roff reads it literally: backslashes and minus signs escaped
 * (an option is typed with ASCII hyphens), a control character at the
 * start of a line defused. */
static void put_text(FILE *out, const char *s, size_t n) {
  if (n && (s[0] == '.' || s[0] == '\'')) fputs("\\&", out);
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '\\')
      fputs("\\e", out);
    else if (s[i] == '-')
      fputs("\\-", out);
    else
      fputc(s[i], out);
  }
}

static void put_line(FILE *out, const char *s) {
  put_text(out, s, strlen(s));
  fputc('\n', out);
}

static size_t indent(const char *s) { return strspn(s, " "); }

static int is_heading(const page *p, const char *line, size_t len) {
  return len > 1 && line[0] != ' ' && line[len - 1] == ':' && (p->blank || p->at == IN_ITEM) && len < 40;
}

/* "usage: heaplint lsp [options]": heaplint and its subcommand in bold. */
static void synopsis_line(page *p, const char *s) {
  if (p->at == IN_USAGE) fputs(".br\n", p->out);
  if (!strncmp(s, "heaplint", 8)) {
    fputs("\\fBheaplint\\fR", p->out);
    s += 8;
    size_t sp = strspn(s, " "), word = strcspn(s + sp, " ");
    if (word && !strchr("[-<(", s[sp])) {
      fprintf(p->out, "%.*s\\fB", (int)sp, s);
      put_text(p->out, s + sp, word);
      fputs("\\fR", p->out);
      s += sp + word;
    }
  }
  put_line(p->out, s);
  p->at = IN_USAGE;
}

/* "exit status" is a section of its own in heaplint's page; the other
 * headings group its options. A subcommand's headings are bold lines. */
static void heading(page *p, const char *line, size_t len) {
  char *name = strndup(line, len - 1);
  if (!p->main) {
    fputs(".PP\n\\fB", p->out);
    put_text(p->out, name, strlen(name));
    fputs(":\\fR\n", p->out);
  } else if (!strcmp(name, "exit status")) {
    fputs(".SH \"EXIT STATUS\"\n", p->out);
  } else {
    if (!p->options_begun) fputs(".SH OPTIONS\n", p->out);
    p->options_begun = 1;
    name[0] = (char)(name[0] >= 'a' && name[0] <= 'z' ? name[0] - 'a' + 'A' : name[0]);
    fprintf(p->out, ".SS \"%s\"\n", name);
  }
  free(name);
  p->at = IN_NOTHING;
}

/* Where an item's tag ends: at two spaces, or at one where the next word
 * does not go on with it ("-h, --help", "-p <dir>", "-j <n>" do;
 * "--extra-arg-before=<arg> add <arg>", whose tag fills its column, ends). */
static size_t tag_length(const char *tag) {
  size_t n = strcspn(tag, " ");
  while (tag[n] == ' ' && tag[n + 1] != ' ' && tag[n + 1] &&
         (tag[n - 1] == ',' || tag[n + 1] == '<' || tag[n + 1] == '['))
    n += 1 + strcspn(tag + n + 1, " ");
  return n;
}

/* "  -p <dir>      read <dir>/...": the tag in bold, then the text. */
static void item(page *p, const char *line) {
  const char *tag = line + indent(line);
  size_t n = tag_length(tag);
  fputs(".TP\n\\fB", p->out);
  put_text(p->out, tag, n);
  fputs("\\fR\n", p->out);
  if (tag[n]) put_line(p->out, tag + n + indent(tag + n));
  p->at = IN_ITEM;
}

static void one_line(page *p, const char *line) {
  size_t len = strlen(line), in = indent(line);
  if (len == 0) {
    p->blank = 1;
    if (p->at != IN_ITEM) p->at = IN_NOTHING;
    return;
  }
  if (!strncmp(line, "usage: ", 7)) {
    if (p->main) fputs(".SH SYNOPSIS\n", p->out);
    synopsis_line(p, line + 7);
  } else if (p->at == IN_USAGE && in > 0 && !strncmp(line + in, "heaplint", 8)) {
    synopsis_line(p, line + in);
  } else if (is_heading(p, line, len)) {
    heading(p, line, len);
  } else if (in == 2) {
    item(p, line);
  } else if (in > 2 && p->at == IN_ITEM && !p->blank) {
    put_line(p->out, line + in);
  } else {
    if (p->at != IN_PARAGRAPH || p->blank) {
      fputs(p->main && !p->described && !p->options_begun ? ".SH DESCRIPTION\n" : ".PP\n", p->out);
      p->described = 1;
    }
    put_line(p->out, line + in);
    p->at = IN_PARAGRAPH;
  }
  p->blank = 0;
}

static int convert(page *p, const char *path) {
  FILE *in = fopen(path, "r");
  if (!in) return perror(path), -1;
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  while ((n = getline(&line, &cap, in)) >= 0) {
    if (n && line[n - 1] == '\n') line[--n] = 0;
    one_line(p, line);
  }
  free(line);
  int bad = ferror(in);
  fclose(in);
  if (bad) fprintf(stderr, "help2roff: %s: cannot read\n", path);
  return bad ? -1 : 0;
}

static void header(FILE *out, const char *version, const char *date, const char *description) {
  fprintf(out, ".\\\" Generated from heaplint's --help by analyzer/man/help2roff.c; do not edit.\n");
  fprintf(out, ".TH HEAPLINT 1 \"%s\" \"heaplint %s\" \"User Commands\"\n.SH NAME\nheaplint \\- ", date, version);
  char *d = strdup(description);
  if (d[0] >= 'A' && d[0] <= 'Z') d[0] = (char)(d[0] - 'A' + 'a');
  put_line(out, d);
  free(d);
}

static void footer(FILE *out, const char *docdir) {
  fputs(".SH \"SEE ALSO\"\n\\fBclang\\-tidy\\fR(1), \\fBclangd\\fR(1)\n.PP\nThe documentation in\n.IR ", out);
  put_line(out, docdir);
  fputs("(cli.md, config.md, ci.md, fixes.md, and a page per rule under rules/).\n", out);
}

static const char *flag(const char *arg, const char *name) {
  size_t n = strlen(name);
  return !strncmp(arg, name, n) && arg[n] == '=' ? arg + n + 1 : NULL;
}

int main(int argc, char **argv) {
  const char *out_path = NULL, *version = NULL, *description = NULL, *docdir = NULL, *date = NULL, *v;
  int i = 1;
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (!strcmp(argv[i], "-o") && i + 1 < argc)
      out_path = argv[++i];
    else if ((v = flag(argv[i], "--version")))
      version = v;
    else if ((v = flag(argv[i], "--date")))
      date = v;
    else if ((v = flag(argv[i], "--description")))
      description = v;
    else if ((v = flag(argv[i], "--docdir")))
      docdir = v;
    else
      break;
  }
  if (!out_path || !version || !date || !description || !docdir || i >= argc) {
    fputs(
        "usage: help2roff -o <out.1> --version=<v> --date=<date> --description=<line> --docdir=<dir> <help> "
        "[<sub>=<help>]...\n",
        stderr);
    return 1;
  }
  for (int k = i + 1; k < argc; k++)
    if (!strchr(argv[k], '=')) return fprintf(stderr, "help2roff: '%s' is not <subcommand>=<file>\n", argv[k]), 1;
  FILE *out = fopen(out_path, "w");
  if (!out) return perror(out_path), 1;
  header(out, version, date, description);
  page p = {out, 1, 0, 0, IN_NOTHING, 1};
  int rc = convert(&p, argv[i]);
  for (int k = i + 1; k < argc && !rc; k++) {
    const char *eq = strchr(argv[k], '=');
    if (k == i + 1) fputs(".SH SUBCOMMANDS\n", out);
    fprintf(out, ".SS \"heaplint %.*s\"\n", (int)(eq - argv[k]), argv[k]);
    p = (page){out, 0, 0, 0, IN_NOTHING, 1};
    rc = convert(&p, eq + 1);
  }
  if (!rc) footer(out, docdir);
  if (fclose(out) != 0 || rc) {
    remove(out_path);
    return 1;
  }
  return 0;
}
