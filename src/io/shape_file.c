/* The shape file: the contactors of rigid clusters, one per line. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "moreau/io.h"

/* A shape file stays small (a few shapes of some tens of contactors); this
 * bounds what a wrong file (a snapshot given by mistake) makes us read. */
#define SHAPE_FILE_MAX_CONTACTORS 100000

typedef struct {
  int64_t n, cap;
  int64_t *id;
  double *offset, *radius; /* offset: stride 3 */
} contactor_list;

static void list_free(contactor_list *l)
{
  moreau_free(&l->id);
  moreau_free(&l->offset);
  moreau_free(&l->radius);
}

static moreau_err list_push(contactor_list *l, int64_t id, const double *o, double r)
{
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 64;
    MOREAU_CALL(moreau_realloc((size_t)l->cap * sizeof(int64_t), &l->id));
    MOREAU_CALL(moreau_realloc(3 * (size_t)l->cap * sizeof(double), &l->offset));
    MOREAU_CALL(moreau_realloc((size_t)l->cap * sizeof(double), &l->radius));
  }
  l->id[l->n] = id;
  memcpy(&l->offset[3 * l->n], o, 3 * sizeof(double));
  l->radius[l->n] = r;
  l->n++;
  return MOREAU_SUCCESS;
}

/* One data line: id, then dim coordinates, then the radius, separated by
 * commas and/or blanks. */
static moreau_err parse_line(const char *path, int64_t lineno, char *text, int dim, contactor_list *l)
{
  double v[5] = {0, 0, 0, 0, 0};
  int want = dim + 2, got = 0;
  char *p = text, *end;
  while (got < 5) {
    while (*p == ' ' || *p == '\t' || *p == ',' || *p == '\r' || *p == '\n')
      p++;
    if (!*p) break;
    v[got] = strtod(p, &end);
    MOREAU_CHECK(end != p, MOREAU_ERR_INPUT, "%s:%lld: '%.20s' is not a number", path, (long long)lineno, p);
    MOREAU_CHECK(isfinite(v[got]), MOREAU_ERR_INPUT, "%s:%lld: a value is not finite", path, (long long)lineno);
    got++;
    p = end;
  }
  while (*p == ' ' || *p == '\t' || *p == ',' || *p == '\r' || *p == '\n')
    p++;
  MOREAU_CHECK(got == want && !*p, MOREAU_ERR_INPUT, "%s:%lld: expected %d values (shape id, %s, radius), found %s%d",
               path, (long long)lineno, want, dim == 2 ? "x, y" : "x, y, z", *p ? "more than " : "", got);
  MOREAU_CHECK(v[0] == floor(v[0]) && v[0] >= 1 && v[0] <= INT32_MAX, MOREAU_ERR_INPUT,
               "%s:%lld: the shape id must be an integer >= 1, got %g", path, (long long)lineno, v[0]);
  MOREAU_CHECK(v[want - 1] > 0, MOREAU_ERR_INPUT, "%s:%lld: the radius must be positive, got %g", path,
               (long long)lineno, v[want - 1]);
  MOREAU_CHECK(l->n < SHAPE_FILE_MAX_CONTACTORS, MOREAU_ERR_INPUT, "%s: more than %d contactors", path,
               SHAPE_FILE_MAX_CONTACTORS);
  double o[3] = {v[1], v[2], dim == 3 ? v[3] : 0.0};
  MOREAU_CALL(list_push(l, (int64_t)v[0], o, v[want - 1]));
  return MOREAU_SUCCESS;
}

static moreau_err read_lines(FILE *f, const char *path, int dim, contactor_list *l)
{
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  int64_t lineno = 0;
  moreau_err err = MOREAU_SUCCESS;
  while (!err && (len = getline(&line, &cap, f)) >= 0) {
    lineno++;
    char *p = line;
    while (*p == ' ' || *p == '\t')
      p++;
    if ((size_t)len != strlen(line))
      err = moreau_error_raise(MOREAU_ERR_INPUT, __FILE__, __LINE__, __func__, "%s:%lld: a NUL byte (not a text file)",
                               path, (long long)lineno);
    else if (!(*p == '#' || *p == '\n' || *p == '\r' || *p == '\0'))
      err = parse_line(path, lineno, p, dim, l);
  }
  free(line);
  MOREAU_CALL(err);
  MOREAU_CHECK(!ferror(f), MOREAU_ERR_INPUT, "%s: read error (%s)", path, strerror(errno));
  MOREAU_CHECK(l->n > 0, MOREAU_ERR_INPUT, "%s: no contactors (lines 'shape id, x, y%s, radius')", path,
               dim == 3 ? ", z" : "");
  return MOREAU_SUCCESS;
}

/* Adds the shapes 1..K of the list in order, each with its contactors in
 * file order. */
static moreau_err add_shapes(const char *path, const contactor_list *l, moreau_shapes *shapes)
{
  int64_t k_max = 0;
  for (int64_t i = 0; i < l->n; i++)
    k_max = l->id[i] > k_max ? l->id[i] : k_max;
  for (int64_t k = 1; k <= k_max; k++) {
    contactor_list one = {0};
    moreau_err err = MOREAU_SUCCESS;
    moreau_lid s;
    double bound;
    for (int64_t i = 0; i < l->n && !err; i++)
      if (l->id[i] == k) err = list_push(&one, k, &l->offset[3 * i], l->radius[i]);
    if (!err && one.n == 0)
      err = moreau_error_raise(MOREAU_ERR_INPUT, __FILE__, __LINE__, __func__,
                               "%s: shape %lld has no contactors (ids must run from 1 without gaps; the largest is "
                               "%lld)",
                               path, (long long)k, (long long)k_max);
    if (!err) err = moreau_shapes_add_unit(shapes, (int)one.n, one.offset, one.radius, &s, &bound);
    list_free(&one);
    MOREAU_CALL(err);
  }
  return MOREAU_SUCCESS;
}

static moreau_err read_shape_file(const char *path, moreau_shapes *shapes)
{
  struct stat st;
  contactor_list l = {0};
  FILE *f;
  moreau_err err;
  MOREAU_CHECK(stat(path, &st) == 0, MOREAU_ERR_INPUT, "%s: cannot open (%s)", path, strerror(errno));
  MOREAU_CHECK(S_ISREG(st.st_mode), MOREAU_ERR_INPUT, "%s: not a regular file", path);
  f = fopen(path, "r");
  MOREAU_CHECK(f, MOREAU_ERR_INPUT, "%s: cannot open (%s)", path, strerror(errno));
  err = read_lines(f, path, shapes->dim, &l);
  fclose(f);
  if (!err) err = add_shapes(path, &l, shapes);
  list_free(&l);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}

moreau_err moreau_read_shapes(MPI_Comm comm, const char *path, moreau_shapes *shapes)
{
  /* Every rank reads the small file: the same table everywhere, and the
   * same verdict agreed before anyone goes on. */
  MOREAU_CALL(moreau_error_agree(comm, read_shape_file(path, shapes)));
  return MOREAU_SUCCESS;
}
