#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "io_private.h"

/* Parallel CSV reader. Every rank reads the header line, then only its own
 * byte slab of the data that follows: a line belongs to the rank whose slab
 * holds its first byte. Line numbers and global ids need the counts of the
 * ranks before, which come from MPI_Exscan after the slab is read, so errors
 * are recorded during the pass and turned into messages afterwards. */

enum {
  COL_X,
  COL_Y,
  COL_Z,
  COL_R,
  COL_VX,
  COL_VY,
  COL_VZ,
  COL_OMEGA,
  COL_WX,
  COL_WY,
  COL_WZ,
  COL_MATERIAL,
  COL_FIXED,
  COL_SHAPE,
  COL_ANGLE,
  COL_QW,
  COL_QX,
  COL_QY,
  COL_QZ,
  COL_COUNT
};

static const char *const col_name[COL_COUNT] = {"x",     "y",  "z",  "r",  "vx",       "vy",    "vz",
                                                "omega", "wx", "wy", "wz", "material", "fixed", "shape",
                                                "angle", "qw", "qx", "qy", "qz"};

#define BIT(c) (1u << (c))
static const unsigned cols_2d = BIT(COL_X) | BIT(COL_Y) | BIT(COL_R) | BIT(COL_VX) | BIT(COL_VY) | BIT(COL_OMEGA) |
                                BIT(COL_MATERIAL) | BIT(COL_FIXED) | BIT(COL_SHAPE) | BIT(COL_ANGLE);
static const unsigned cols_3d = BIT(COL_X) | BIT(COL_Y) | BIT(COL_Z) | BIT(COL_R) | BIT(COL_VX) | BIT(COL_VY) |
                                BIT(COL_VZ) | BIT(COL_WX) | BIT(COL_WY) | BIT(COL_WZ) | BIT(COL_MATERIAL) |
                                BIT(COL_FIXED) | BIT(COL_SHAPE) | BIT(COL_QW) | BIT(COL_QX) | BIT(COL_QY) | BIT(COL_QZ);
static const unsigned needed_2d = BIT(COL_X) | BIT(COL_Y) | BIT(COL_R);
static const unsigned needed_3d = BIT(COL_X) | BIT(COL_Y) | BIT(COL_Z) | BIT(COL_R);

#define REASON_MAX 256

typedef struct {
  const char *path;
  int dim;
  const moreau_materials *m;
  const moreau_shapes *shapes; /* NULL: no clusters */
  int ncols;
  int col[COL_COUNT]; /* quantity held by each column of the file, in file order */
} csv_layout;

/* Outcome of one rank's pass over its slab. */
typedef struct {
  int64_t lines, rows;
  int64_t bad_line; /* index among this rank's lines of the first bad one, -1 if none */
  char reason[REASON_MAX];
} slab_result;

static char *trim(char *s)
{
  char *end;
  while (*s == ' ' || *s == '\t')
    s++;
  end = s + strlen(s);
  while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
    *--end = '\0';
  return s;
}

static int is_skipped(const char *trimmed) { return trimmed[0] == '\0' || trimmed[0] == '#'; }

static moreau_err fail_at(const char *path, int64_t line, const char *reason)
{
  MOREAU_FAIL(MOREAU_ERR_INPUT, "%s:%lld: %s", path, (long long)line, reason);
}

/* Reads lines from the start of the file up to the header (comments and
 * blank lines may come first). */
static moreau_err find_header(FILE *f, const char *path, int dim, char **line, size_t *cap, off_t *data_start,
                              int64_t *header_lines)
{
  ssize_t n;
  off_t pos = 0;
  *header_lines = 0;
  while ((n = getline(line, cap, f)) > 0) {
    /* Spreadsheets saving "UTF-8 CSV" start the file with a byte order mark. */
    if (pos == 0 && n >= 3 && memcmp(*line, "\xEF\xBB\xBF", 3) == 0) memmove(*line, *line + 3, (size_t)n - 2);
    pos += n;
    ++*header_lines;
    if (!is_skipped(trim(*line))) {
      *data_start = pos;
      return MOREAU_SUCCESS;
    }
  }
  MOREAU_FAIL(MOREAU_ERR_INPUT, "%s:%lld: no header line (expected column names such as %s)", path,
              (long long)*header_lines + 1, dim == 2 ? "x,y,r" : "x,y,z,r");
}

static moreau_err parse_header(char *header, int64_t line, csv_layout *L)
{
  unsigned allowed = L->dim == 2 ? cols_2d : cols_3d, needed = L->dim == 2 ? needed_2d : needed_3d, seen = 0;
  char reason[REASON_MAX];
  char *p = header;
  L->ncols = 0;
  for (;;) {
    char *comma = strchr(p, ',');
    char *name;
    int c = 0;
    if (comma) *comma = '\0';
    name = trim(p);
    while (c < COL_COUNT && strcmp(name, col_name[c]) != 0)
      c++;
    if (c == COL_COUNT) {
      snprintf(reason, sizeof(reason), "unknown column '%.64s' (%s)", name,
               L->dim == 2 ? "2D columns: x, y, r, vx, vy, omega, material, fixed, shape, angle"
                           : "3D columns: x, y, z, r, vx, vy, vz, wx, wy, wz, material, fixed, shape, qw, qx, qy, qz");
      MOREAU_CALL(fail_at(L->path, line, reason));
    }
    if (!(allowed & BIT(c))) {
      snprintf(reason, sizeof(reason), "column '%s' is for %s runs but this run is %dD", name,
               L->dim == 2 ? "3D" : "2D", L->dim);
      MOREAU_CALL(fail_at(L->path, line, reason));
    }
    if (seen & BIT(c)) {
      snprintf(reason, sizeof(reason), "column '%s' appears twice", name);
      MOREAU_CALL(fail_at(L->path, line, reason));
    }
    seen |= BIT(c);
    L->col[L->ncols++] = c;
    if (!comma) break;
    p = comma + 1;
  }
  for (int c = 0; c < COL_COUNT; c++) {
    if ((needed & BIT(c)) && !(seen & BIT(c))) {
      snprintf(reason, sizeof(reason), "missing column '%s' (%s)", col_name[c],
               L->dim == 2 ? "2D files need x, y and r" : "3D files need x, y, z and r");
      MOREAU_CALL(fail_at(L->path, line, reason));
    }
  }
  return MOREAU_SUCCESS;
}

static int parse_field(const char *text, int c, double *value, char *reason)
{
  char *end;
  if (text[0] == '\0') {
    snprintf(reason, REASON_MAX, "column '%s' is empty", col_name[c]);
    return 0;
  }
  *value = strtod(text, &end);
  if (*end != '\0') {
    snprintf(reason, REASON_MAX, "column '%s': '%.40s' is not a number", col_name[c], text);
    return 0;
  }
  if (!isfinite(*value)) {
    snprintf(reason, REASON_MAX, "column '%s': '%.40s' is not a finite number", col_name[c], text);
    return 0;
  }
  return 1;
}

static int check_values(const csv_layout *L, const double *val, char *reason)
{
  double mat = val[COL_MATERIAL], fixed = val[COL_FIXED];
  if (!(val[COL_R] > 0)) {
    snprintf(reason, REASON_MAX, "radius must be positive, got %.17g", val[COL_R]);
    return 0;
  }
  if (mat != floor(mat) || mat < 0 || mat >= L->m->n) {
    snprintf(reason, REASON_MAX, "material %.17g is not an integer in [0, %d) (there are %d materials)", mat, L->m->n,
             L->m->n);
    return 0;
  }
  if (fixed != 0 && fixed != 1) {
    snprintf(reason, REASON_MAX, "fixed must be 0 or 1, got %.17g", fixed);
    return 0;
  }
  double shape = val[COL_SHAPE], n_shapes = L->shapes ? (double)L->shapes->n_shapes : 0.0;
  if (shape != floor(shape) || shape < 0 || shape > n_shapes) {
    if (L->shapes)
      snprintf(reason, REASON_MAX, "shape %.17g is not 0 (a disk) or a shape id in [1, %.0f]", shape, n_shapes);
    else
      snprintf(reason, REASON_MAX, "shape %.17g needs a shapes table (-shape); 0 is a disk", shape);
    return 0;
  }
  return 1;
}

/* The orientation: an angle about z (2D) or a unit quaternion qw, qx, qy,
 * qz (3D; none given: the identity), relative to the frame the shape file
 * gave the contactors in, so a 3D cluster's body frame (its principal axes)
 * is turned by the row's rotation after the shape's own. */
static int orientation(const csv_layout *L, const double *val, moreau_body *body, char *reason)
{
  if (L->dim == 2) {
    body->q[0] = cos(0.5 * val[COL_ANGLE]);
    body->q[3] = sin(0.5 * val[COL_ANGLE]);
    return 1;
  }
  double q[4] = {val[COL_QW], val[COL_QX], val[COL_QY], val[COL_QZ]};
  double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (len == 0.0) {
    q[0] = len = 1.0;
  } else if (fabs(len - 1.0) > 1e-6) {
    snprintf(reason, REASON_MAX, "the quaternion (qw, qx, qy, qz) has length %.17g, not 1", len);
    return 0;
  }
  double p[4] = {1.0, 0.0, 0.0, 0.0};
  if (body->shape > 0 && L->shapes) memcpy(p, &L->shapes->q[4 * (body->shape - 1)], sizeof(p));
  /* q p: the shape's principal frame first, then the row's rotation. */
  body->q[0] = (q[0] * p[0] - q[1] * p[1] - q[2] * p[2] - q[3] * p[3]) / len;
  body->q[1] = (q[0] * p[1] + q[1] * p[0] + q[2] * p[3] - q[3] * p[2]) / len;
  body->q[2] = (q[0] * p[2] - q[1] * p[3] + q[2] * p[0] + q[3] * p[1]) / len;
  body->q[3] = (q[0] * p[3] + q[1] * p[2] - q[2] * p[1] + q[3] * p[0]) / len;
  return 1;
}

/* Parses one data line (already trimmed) into a body; on failure returns 0
 * with the reason. */
static int parse_row(const csv_layout *L, char *text, moreau_body *body, char *reason)
{
  double val[COL_COUNT] = {0};
  int nfields = 1;
  char *p = text;
  for (const char *q = text; *q; q++)
    nfields += *q == ',';
  if (nfields != L->ncols) {
    snprintf(reason, REASON_MAX, "expected %d fields, found %d", L->ncols, nfields);
    return 0;
  }
  for (int i = 0; i < L->ncols; i++) {
    char *comma = strchr(p, ',');
    if (comma) *comma = '\0';
    if (!parse_field(trim(p), L->col[i], &val[L->col[i]], reason)) return 0;
    if (comma) p = comma + 1;
  }
  if (!check_values(L, val, reason)) return 0;
  memset(body, 0, sizeof(*body));
  body->x[0] = val[COL_X];
  body->x[1] = val[COL_Y];
  body->x[2] = val[COL_Z];
  body->v[0] = val[COL_VX];
  body->v[1] = val[COL_VY];
  body->v[2] = val[COL_VZ];
  if (L->dim == 2) {
    body->w[2] = val[COL_OMEGA];
  } else {
    body->w[0] = val[COL_WX];
    body->w[1] = val[COL_WY];
    body->w[2] = val[COL_WZ];
  }
  body->radius = val[COL_R];
  body->material = (int32_t)val[COL_MATERIAL];
  body->fixed = (int32_t)val[COL_FIXED];
  body->shape = (int32_t)val[COL_SHAPE];
  if (!orientation(L, val, body, reason)) return 0;
  moreau_body_set_shape_mass(body, L->dim, L->shapes, L->m->density[body->material]);
  /* A radius so small that the mass or inertia underflows to zero. */
  if (!isfinite(body->inv_mass) || !isfinite(body->inv_inertia)) {
    snprintf(reason, REASON_MAX, "radius %.17g is too small (its mass underflows)", body->radius);
    return 0;
  }
  return 1;
}

/* Reads the lines whose first byte is in [lo, hi), appending the bodies with
 * their row index on this rank as global id. After the first bad line the
 * remaining lines are only counted, so that the line numbers of errors found
 * on later ranks stay right. */
static moreau_err read_slab(FILE *f, const csv_layout *L, off_t lo, off_t hi, off_t data_start, moreau_bodies *b,
                            char **line, size_t *cap, slab_result *res)
{
  off_t pos = lo;
  ssize_t n;
  moreau_body body;
  res->lines = res->rows = 0;
  res->bad_line = -1;
  if (lo >= hi) return MOREAU_SUCCESS;
  MOREAU_CHECK(fseeko(f, lo > data_start ? lo - 1 : lo, SEEK_SET) == 0, MOREAU_ERR_IO, "%s: cannot seek (%s)", L->path,
               strerror(errno));
  /* The line under lo starts at lo only if the byte before it ends a line;
   * otherwise it is the previous rank's. */
  if (lo > data_start && fgetc(f) != '\n') {
    n = getline(line, cap, f);
    pos = n > 0 ? pos + n : hi;
  }
  while (pos < hi && (n = getline(line, cap, f)) > 0) {
    /* A NUL byte would silently cut the line short. */
    int has_nul = strlen(*line) != (size_t)n;
    char *text = trim(*line);
    pos += n;
    res->lines++;
    if (res->bad_line >= 0) continue;
    if (has_nul) {
      snprintf(res->reason, sizeof(res->reason), "the line holds a NUL byte (not a text file?)");
      res->bad_line = res->lines - 1;
      continue;
    }
    if (is_skipped(text)) continue;
    if (!parse_row(L, text, &body, res->reason)) {
      res->bad_line = res->lines - 1;
      continue;
    }
    body.gid = res->rows++;
    MOREAU_CALL(moreau_bodies_push_owned(b, &body));
  }
  MOREAU_CHECK(!ferror(f), MOREAU_ERR_IO, "%s: read error (%s)", L->path, strerror(errno));
  return MOREAU_SUCCESS;
}

static moreau_err file_size_of(FILE *f, const char *path, off_t *size)
{
  struct stat st;
  MOREAU_CHECK(fstat(fileno(f), &st) == 0, MOREAU_ERR_IO, "%s: cannot stat (%s)", path, strerror(errno));
  *size = st.st_size;
  return MOREAU_SUCCESS;
}

/* Everything after the file is open; the caller closes it. */
static moreau_err read_open_file(FILE *f, const char *path, moreau_bodies *b, const moreau_materials *m,
                                 const moreau_shapes *shapes)
{
  int rank, size;
  csv_layout L = {.path = path, .dim = b->dim, .m = m, .shapes = shapes};
  char *line = NULL;
  size_t cap = 0;
  off_t data_start = 0, file_size = 0, lo, hi, span;
  int64_t header_lines = 0, mine[2], before[2] = {0, 0};
  moreau_lid first = b->n_owned;
  slab_result res = {0};
  moreau_err err;

  MOREAU_MPI_CALL(MPI_Comm_rank(b->comm, &rank));
  MOREAU_MPI_CALL(MPI_Comm_size(b->comm, &size));
  err = find_header(f, path, b->dim, &line, &cap, &data_start, &header_lines);
  if (!err) err = parse_header(line, header_lines, &L);
  if (!err) err = file_size_of(f, path, &file_size);
  err = moreau_error_agree(b->comm, err);
  if (err) {
    free(line);
    MOREAU_CALL(err);
  }

  span = file_size - data_start;
  lo = data_start + (off_t)((int64_t)span * rank / size);
  hi = data_start + (off_t)((int64_t)span * (rank + 1) / size);
  err = read_slab(f, &L, lo, hi, data_start, b, &line, &cap, &res);
  free(line);

  mine[0] = res.lines;
  mine[1] = res.rows;
  MOREAU_MPI_CALL(MPI_Exscan(mine, before, 2, MPI_INT64_T, MPI_SUM, b->comm));
  if (rank == 0) before[0] = before[1] = 0;
  if (!err && res.bad_line >= 0) err = fail_at(path, header_lines + before[0] + res.bad_line + 1, res.reason);
  MOREAU_CALL(moreau_error_agree(b->comm, err));
  MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, &mine[1], 1, MPI_INT64_T, MPI_SUM, b->comm));
  MOREAU_CHECK(mine[1] > 0, MOREAU_ERR_INPUT, "%s: no bodies (a header but no data rows)", path);
  for (moreau_lid i = first; i < b->n_owned; i++)
    b->gid[i] += before[1];
  return MOREAU_SUCCESS;
}

static moreau_err open_file(const char *path, FILE **f)
{
  *f = fopen(path, "rb");
  MOREAU_CHECK(*f, MOREAU_ERR_INPUT, "%s: cannot open (%s)", path, strerror(errno));
  return MOREAU_SUCCESS;
}

moreau_err io_csv_read(const char *path, moreau_bodies *b, const moreau_materials *m, const moreau_shapes *shapes)
{
  FILE *f;
  moreau_err err = moreau_error_agree(b->comm, open_file(path, &f));
  if (!err) err = read_open_file(f, path, b, m, shapes);
  if (f) fclose(f);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}
