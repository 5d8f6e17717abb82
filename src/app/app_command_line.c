#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app_private.h"

/* The command line and the options files it names are checked on rank 0
 * before PETSc reads them, so that a mistake gives one line naming it
 * instead of PETSc's page, a crash in its parser, or a hang of the other
 * ranks in a broadcast that rank 0 never reaches. */

#define MAX_DEPTH 16
#define MAX_FILE_BYTES (16 << 20)

/* Option names seen in one source (the command line, or one file): an
 * option given twice there is a mistake; the command line may override a
 * file. */
#define MAX_SEEN 512

typedef struct {
  const char *name[MAX_SEEN];
  int n;
} seen_names;

typedef struct {
  char message[4300];
  dev_t dev[MAX_DEPTH];
  ino_t ino[MAX_DEPTH];
  int depth;
} checker;

static int fail(checker *c, const char *fmt, const char *a, const char *b)
{
  snprintf(c->message, sizeof(c->message), fmt, a, b);
  return 0;
}

static int check_file(checker *c, const char *path);

/* An option name: a dash and a letter (values such as -1 or -9.81 are not). */
static int is_name(const char *w) { return w[0] == '-' && isalpha((unsigned char)w[1]); }

static int is_help(const char *w) { return !strcmp(w, "-help") || !strcmp(w, "--help") || !strcmp(w, "-h"); }

/* Options PETSc acts on while it reads the command line and the files, in
 * any case (it compares them with strcasecmp): a pop without a push, a
 * missing prefix or a YAML file nobody checked stops it with its page on
 * every rank. moreau's names carry no prefix and its files are plain text,
 * so these are refused here. */
static const char *const petsc_reader_options[] = {"-prefix_push", "-prefix_pop", "-options_file_yaml",
                                                   "-options_string_yaml", NULL};

/* PETSc ignores the case of option names, so -Dt would be read as -dt and
 * -Options_file would open a file: names are checked as spelled against the
 * registry and against the options PETSc's reader acts on. */
static int check_name(checker *c, const char *w)
{
  char lower[128];
  size_t n = strlen(w);
  int upper = 0;
  if (n >= sizeof(lower)) return 1;
  for (size_t i = 0; i <= n; i++) {
    upper |= isupper((unsigned char)w[i]);
    lower[i] = (char)tolower((unsigned char)w[i]);
  }
  for (const char *const *r = petsc_reader_options; *r; r++)
    if (!strcmp(lower, *r))
      return fail(c, "option %s: not supported (moreau reads plain-text options files of full option names)%s", w, "");
  if (upper && (moreau_options_find(lower) || !strcmp(lower, "-options_file")))
    return fail(c, "option %s: option names are lower case (did you mean %s?)", w, lower);
  return 1;
}

/* Records name in seen; fails if it is there already (-options_file may
 * name several files). */
static int check_repeat(checker *c, seen_names *seen, const char *name, const char *where)
{
  if (!strcmp(name, "-options_file")) return 1;
  for (int i = 0; i < seen->n; i++)
    if (!strcmp(seen->name[i], name)) {
      snprintf(c->message, sizeof(c->message), "option %s: given twice%s%s (give each option once)", name,
               where[0] ? " in " : " on the command line", where);
      return 0;
    }
  if (seen->n < MAX_SEEN) seen->name[seen->n++] = name;
  return 1;
}

/* Whether PETSc takes w for an option name (PetscOptionsValidKey): one or
 * two dashes, then a letter, and not a number such as -inf. */
static int is_option_name(const char *w)
{
  char *end;
  if (w[0] != '-') return 0;
  if (w[1] == '-') w++;
  if (!isalpha((unsigned char)w[1])) return 0;
  (void)strtod(w, &end);
  return end == w || *end == '_' || isalnum((unsigned char)*end);
}

/* The next word of a line as PETSc splits it: words are separated by
 * blanks, and one that starts with '"' runs to the next '"'. */
static char *next_word(char **cur)
{
  char *w = *cur, *p, stop = ' ';
  if (!w || !*w) return NULL;
  if (*w == '"') stop = *w++;
  for (p = w; *p && *p != stop; p++)
    ;
  if (*p) *p++ = '\0';
  while (*p == ' ')
    p++;
  *cur = p;
  return w;
}

/* One line, as PETSc reads it (it stops with a page of its own, on one rank,
 * otherwise): blank, a comment, or an option name with at most one value
 * that is not itself an option name. */
static int check_line(checker *c, const char *path, int line, char *text)
{
  char *cur = text, *name, *value;
  for (char *p = text; *p; p++)
    if (*p == '\t' || *p == '\r') *p = ' ';
  if ((name = strchr(text, '#'))) *name = '\0';
  while (*cur == ' ')
    cur++;
  if (!(name = next_word(&cur))) return 1;
  if (!is_option_name(name)) {
    snprintf(c->message, sizeof(c->message), "-options_file %s: line %d does not start with an option name (-name)",
             path, line);
    return 0;
  }
  if ((value = next_word(&cur)) && is_option_name(value)) {
    snprintf(c->message, sizeof(c->message),
             "-options_file %s: line %d holds two options (%.200s %.200s); write one per line", path, line, name,
             value);
    return 0;
  }
  if (value && next_word(&cur)) {
    snprintf(c->message, sizeof(c->message), "-options_file %s: line %d: option %.200s takes one value, not more", path,
             line, name);
    return 0;
  }
  return 1;
}

/* Every line of an options file (text is left as it was). */
static int check_lines(checker *c, const char *path, const char *text)
{
  size_t n = strlen(text);
  char *copy;
  int ok = 1, line = 0;
  if (moreau_malloc(n + 1, &copy)) {
    moreau_error_clear();
    return fail(c, "-options_file %s: out of memory%s", path, "");
  }
  memcpy(copy, text, n + 1);
  for (char *p = copy, *end; ok && p; p = end) {
    if ((end = strchr(p, '\n'))) *end++ = '\0';
    ok = check_line(c, path, ++line, p);
  }
  moreau_free(&copy);
  return ok;
}

/* The option names of a text file: each given once, spelled as registered;
 * and the files that follow "-options_file" (PETSc lets a file include
 * another). Comments (# to the end of the line) are not read. */
static int check_includes(checker *c, const char *path, char *text)
{
  char *save = NULL, *word;
  seen_names seen = {.n = 0};
  for (char *p = strchr(text, '#'); p; p = strchr(p, '#'))
    while (*p && *p != '\n')
      *p++ = ' ';
  word = strtok_r(text, " \t\r\n", &save);
  while (word) {
    if (is_name(word) && (!check_name(c, word) || !check_repeat(c, &seen, word, path))) return 0;
    if (!strcmp(word, "-options_file")) {
      char *name = strtok_r(NULL, " \t\r\n", &save);
      if (!name) return fail(c, "-options_file in %s%s needs a file name", path, "");
      if (!check_file(c, name)) return 0;
    }
    word = strtok_r(NULL, " \t\r\n", &save);
  }
  return 1;
}

/* A regular, readable text file, not already being read (a file that
 * includes itself, directly or not). */
static int check_file(checker *c, const char *path)
{
  struct stat st;
  FILE *f;
  char *text;
  size_t n;
  int ok;
  if (stat(path, &st) != 0) return fail(c, "-options_file %s: cannot open (%s)", path, strerror(errno));
  if (S_ISDIR(st.st_mode)) return fail(c, "-options_file %s: is a directory%s", path, "");
  if (!S_ISREG(st.st_mode)) return fail(c, "-options_file %s: not a regular file (a pipe or device)%s", path, "");
  if (st.st_size > MAX_FILE_BYTES) return fail(c, "-options_file %s: larger than 16 MB%s", path, "");
  for (int i = 0; i < c->depth; i++)
    if (c->dev[i] == st.st_dev && c->ino[i] == st.st_ino)
      return fail(c, "-options_file %s: includes itself (through -options_file)%s", path, "");
  if (c->depth == MAX_DEPTH) return fail(c, "-options_file %s: options files nested too deep%s", path, "");
  if (!(f = fopen(path, "rb"))) return fail(c, "-options_file %s: cannot open (%s)", path, strerror(errno));
  if (moreau_malloc((size_t)st.st_size + 1, &text)) {
    fclose(f);
    moreau_error_clear();
    return fail(c, "-options_file %s: out of memory%s", path, "");
  }
  n = fread(text, 1, (size_t)st.st_size, f);
  fclose(f);
  text[n] = '\0';
  if (memchr(text, '\0', n)) {
    moreau_free(&text);
    return fail(c, "-options_file %s: not a text file (it holds a NUL byte)%s", path, "");
  }
  if (!check_lines(c, path, text)) {
    moreau_free(&text);
    return 0;
  }
  c->dev[c->depth] = st.st_dev;
  c->ino[c->depth] = st.st_ino;
  c->depth++;
  ok = check_includes(c, path, text);
  c->depth--;
  moreau_free(&text);
  return ok;
}

/* Option names take one dash and their value as the next word. */
static int check_word(checker *c, char **argv, int i)
{
  const char *w = argv[i], *eq, *prev = i > 1 ? argv[i - 1] : "";
  if (!strcmp(w, "-") || !strcmp(w, "--")) return fail(c, "'%s': a dash without an option name%s", w, "");
  if (is_help(w)) return 1;
  if (w[0] == '-' && w[1] == '-' && isalpha((unsigned char)w[2]))
    return fail(c, "%s: options take one dash (%s)", w, w + 1);
  if (w[0] == '-' && isalpha((unsigned char)w[1]) && (eq = strchr(w, '='))) {
    snprintf(c->message, sizeof(c->message), "%s: write the value after a space (%.*s %s)", w, (int)(eq - w), w,
             eq + 1);
    return 0;
  }
  if (is_name(w)) return check_name(c, w);
  if (is_help(prev)) return fail(c, "option %s takes no value (got '%s')", prev, w);
  /* PETSc reads an empty value as no value: a flag set to true. */
  if (!w[0] && is_name(prev)) return fail(c, "option %s: empty value ''%s", prev, "");
  /* A word that is no option and follows no option is stray: PETSc would
   * ignore it silently. */
  if (w[0] != '-' && !is_name(prev))
    return fail(c, "'%s': not an option (options start with a dash) and not the value of one%s", w, "");
  return 1;
}

static int check_command_line(checker *c, int argc, char **argv)
{
  seen_names seen = {.n = 0};
  for (int i = 1; i < argc; i++) {
    if (!check_word(c, argv, i)) return 0;
    if (is_name(argv[i]) && !check_repeat(c, &seen, argv[i], "")) return 0;
    if (strcmp(argv[i], "-options_file")) continue;
    if (i + 1 >= argc) return fail(c, "option -options_file needs a file name%s%s", "", "");
    if (!check_file(c, argv[++i])) return 0;
  }
  return 1;
}

int app_command_line_ok(MPI_Comm comm, int argc, char **argv)
{
  static checker c;
  int rank, ok = 1;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    c.depth = 0;
    ok = check_command_line(&c, argc, argv);
    if (!ok) fprintf(stderr, "moreau: error: %s\n", c.message);
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, comm);
  return ok;
}
