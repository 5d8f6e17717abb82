/* CSV particle reader: good files (every value checked, by global id, on any
 * number of ranks) and bad files (the error is MOREAU_ERR_INPUT on every rank
 * and the message names the file and the right line). */
#include <check.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_test_util.h"
#include "moreau/bodies.h"
#include "moreau/io.h"
#include "moreau/materials.h"

static char tmpdir[256];
static moreau_materials *materials; /* densities 1.5, 2.5, 7 */
static const double density[3] = {1.5, 2.5, 7.0};

typedef struct {
  double x[3], v[3], w[3], r;
  int material, fixed;
} expected_body;

static int same_double(double a, double b) { return memcmp(&a, &b, sizeof(double)) == 0; }

static int same_vec(const double *a, const double *b, int n)
{
  for (int i = 0; i < n; i++)
    if (!same_double(a[i], b[i])) return 0;
  return 1;
}

static int close_rel(double a, double b) { return fabs(a - b) <= 1e-14 * fabs(b); }

/* Mismatches between one read body and what the file says, with the masses
 * worked out here from the density and the disk/sphere formulas. */
static int body_mismatches(const moreau_bodies *b, moreau_lid i, const expected_body *e, int dim)
{
  static const double unit_q[4] = {1, 0, 0, 0};
  int bad = 0;
  double rho = density[e->material], r = e->r;
  double mass = dim == 2 ? rho * M_PI * r * r : rho * 4.0 * M_PI * r * r * r / 3.0;
  double inertia = dim == 2 ? mass * r * r / 2.0 : 2.0 * mass * r * r / 5.0;
  bad += !same_vec(&b->x[3 * i], e->x, 3);
  bad += !same_vec(&b->v[3 * i], e->v, 3);
  bad += !same_vec(&b->w[3 * i], e->w, 3);
  bad += !same_vec(&b->q[4 * i], unit_q, 4);
  bad += !same_double(b->radius[i], e->r);
  bad += b->material[i] != e->material;
  bad += b->fixed[i] != e->fixed;
  if (e->fixed) {
    bad += b->inv_mass[i] != 0.0 || b->inv_inertia[i] != 0.0;
  } else {
    bad += !close_rel(b->inv_mass[i], 1.0 / mass);
    bad += !close_rel(b->inv_inertia[i], 1.0 / inertia);
  }
  if (bad) fprintf(stderr, "body %lld differs from the file in %d fields\n", (long long)b->gid[i], bad);
  return bad;
}

/* Collective: every expected body was read exactly once, with its values. */
static void check_bodies(const moreau_bodies *b, const expected_body *e, int n, int dim)
{
  int *seen = calloc((size_t)n, sizeof(int)), *seen_all = calloc((size_t)n, sizeof(int));
  long bad = 0, once = 0;
  int64_t count, gid_sum;
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    if (b->gid[i] < 0 || b->gid[i] >= n) {
      bad++;
      continue;
    }
    seen[b->gid[i]]++;
    bad += body_mismatches(b, i, &e[b->gid[i]], dim);
  }
  MPI_Allreduce(seen, seen_all, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int g = 0; g < n; g++)
    once += seen_all[g] == 1;
  ck_assert(io_test_all(moreau_bodies_global_count(b, &count, &gid_sum) == MOREAU_SUCCESS));
  bad = io_test_sum(bad);
  free(seen);
  free(seen_all);
  ck_assert_int_eq(count, n);
  ck_assert_int_eq(gid_sum, (int64_t)n * (n - 1) / 2);
  ck_assert_int_eq(once, n);
  ck_assert_int_eq(bad, 0);
}

/* Collective: writes text as tmpdir/name and reads it, which must succeed. */
static moreau_bodies *read_good(const char *name, const char *text, int dim)
{
  char path[512];
  moreau_bodies *b;
  moreau_err err;
  snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
  io_test_write_file(path, text);
  ck_assert(io_test_all(moreau_bodies_create(MPI_COMM_WORLD, dim, &b) == MOREAU_SUCCESS));
  err = moreau_read_particles(path, b, materials, NULL);
  if (err) fprintf(stderr, "unexpected error: %s\n", moreau_error_message());
  ck_assert(io_test_all(err == MOREAU_SUCCESS));
  return b;
}

START_TEST(t_2d_all_columns)
{
  static const char text[] = "# disks with every optional column\n"
                             "x,y,r,vx,vy,omega,material,fixed\n"
                             "\n"
                             "0.1,0.2,0.05,1,-2,3.5,0,0\n"
                             "  1.5 , -2.25 , 0.125 , 0 , 0 , 0 , 2 , 1  \n"
                             "# a comment between rows\n"
                             "1e-3,2E2,1.0,-0.5,0.25,-1e-8,1,0\r\n"
                             "\t-7,\t8,\t0.3,\t4,\t5,\t6,\t1,\t1\n"
                             "0.3333333333333333,-0.6666666666666666,2.5e-1,1e300,-1e-300,0.1,2,0\n"
                             "\n"
                             "10,20,3,0,0,-0,0,0";
  static const expected_body e[] = {
      {{0.1, 0.2, 0}, {1, -2, 0}, {0, 0, 3.5}, 0.05, 0, 0},
      {{1.5, -2.25, 0}, {0, 0, 0}, {0, 0, 0}, 0.125, 2, 1},
      {{1e-3, 2e2, 0}, {-0.5, 0.25, 0}, {0, 0, -1e-8}, 1.0, 1, 0},
      {{-7, 8, 0}, {4, 5, 0}, {0, 0, 6}, 0.3, 1, 1},
      {{0.3333333333333333, -0.6666666666666666, 0}, {1e300, -1e-300, 0}, {0, 0, 0.1}, 0.25, 2, 0},
      {{10, 20, 0}, {0, 0, 0}, {0, 0, -0.0}, 3, 0, 0},
  };
  moreau_bodies *b = read_good("all.csv", text, 2);
  check_bodies(b, e, 6, 2);
  ck_assert(io_test_all(moreau_bodies_destroy(&b) == MOREAU_SUCCESS));
}
END_TEST

START_TEST(t_2d_minimal)
{
  static const char text[] = "x,y,r\n1,2,0.5\n-1,-2,0.25\n3,4,1\n";
  static const expected_body e[] = {
      {{1, 2, 0}, {0}, {0}, 0.5, 0, 0},
      {{-1, -2, 0}, {0}, {0}, 0.25, 0, 0},
      {{3, 4, 0}, {0}, {0}, 1, 0, 0},
  };
  moreau_bodies *b = read_good("minimal.csv", text, 2);
  check_bodies(b, e, 3, 2);
  ck_assert(io_test_all(moreau_bodies_destroy(&b) == MOREAU_SUCCESS));
}
END_TEST

/* Spreadsheet exports: byte order mark and CRLF line endings. */
START_TEST(t_spreadsheet_export)
{
  static const char text[] = "\xEF\xBB\xBFx,y,r,material\r\n1,2,0.5,1\r\n-1,-2,0.25,2\r\n";
  static const expected_body e[] = {
      {{1, 2, 0}, {0}, {0}, 0.5, 1, 0},
      {{-1, -2, 0}, {0}, {0}, 0.25, 2, 0},
  };
  moreau_bodies *b = read_good("exported.csv", text, 2);
  check_bodies(b, e, 2, 2);
  ck_assert(io_test_all(moreau_bodies_destroy(&b) == MOREAU_SUCCESS));
}
END_TEST

START_TEST(t_2d_reordered)
{
  static const char text[] = " fixed , material,omega , vy,vx, r ,y,x\n"
                             "0,1,2.5,-3,4,0.75,6,7\n"
                             "1,2,0,0,0,1.25,-6,-7\n"
                             "0,0,-1,1,2,0.5,3,4\n"
                             "0,2,0,9,8,2,5,6\n";
  static const expected_body e[] = {
      {{7, 6, 0}, {4, -3, 0}, {0, 0, 2.5}, 0.75, 1, 0},
      {{-7, -6, 0}, {0, 0, 0}, {0, 0, 0}, 1.25, 2, 1},
      {{4, 3, 0}, {2, 1, 0}, {0, 0, -1}, 0.5, 0, 0},
      {{6, 5, 0}, {8, 9, 0}, {0, 0, 0}, 2, 2, 0},
  };
  moreau_bodies *b = read_good("reordered.csv", text, 2);
  check_bodies(b, e, 4, 2);
  ck_assert(io_test_all(moreau_bodies_destroy(&b) == MOREAU_SUCCESS));
}
END_TEST

START_TEST(t_3d)
{
  static const char text[] = "x,y,z,r,vx,vy,vz,wx,wy,wz,material,fixed\n"
                             "1,2,3,0.5,0.1,0.2,0.3,-1,-2,-3,1,0\n"
                             "# second body is fixed\n"
                             "-1,-2,-3,0.25,0,0,-9.81,0,0,0,0,1\n"
                             "4,5,6,1,7,8,9,10,11,12,2,0\n"
                             "0,0,0,2,0,0,0,0,0,1e-5,0,0\n"
                             "7,8,9,0.125,1,1,1,1,1,1,1,0\n";
  static const expected_body e[] = {
      {{1, 2, 3}, {0.1, 0.2, 0.3}, {-1, -2, -3}, 0.5, 1, 0}, {{-1, -2, -3}, {0, 0, -9.81}, {0, 0, 0}, 0.25, 0, 1},
      {{4, 5, 6}, {7, 8, 9}, {10, 11, 12}, 1, 2, 0},         {{0, 0, 0}, {0, 0, 0}, {0, 0, 1e-5}, 2, 0, 0},
      {{7, 8, 9}, {1, 1, 1}, {1, 1, 1}, 0.125, 1, 0},
  };
  moreau_bodies *b = read_good("spheres.csv", text, 3);
  check_bodies(b, e, 5, 3);
  ck_assert(io_test_all(moreau_bodies_destroy(&b) == MOREAU_SUCCESS));
}
END_TEST

/* Values of row i of the generated file, chosen so that most need all 17
 * digits to round-trip. */
static void generated_row(int i, expected_body *e)
{
  memset(e, 0, sizeof(*e));
  e->x[0] = i / 3.0 - 100.0;
  e->x[1] = sqrt((double)i + 0.5);
  e->v[0] = sin(i);
  e->v[1] = -cos(i) * 1e-7;
  e->w[2] = i * 0.1;
  e->r = 0.01 + (i % 17) / 7.0;
  e->material = i % 3;
  e->fixed = i % 11 == 0;
}

/* Many rows with comments, blank lines, CRLF endings and long lines spread
 * through the file, so that slab boundaries on several ranks fall inside
 * rows, comments and blank lines alike. */
START_TEST(t_many_rows)
{
  enum { N = 2000 };
  expected_body *e = malloc(N * sizeof(*e));
  char *text = malloc((size_t)N * 700), *p = text;
  p += sprintf(p, "# generated\n\nomega,x,y,r,vx,vy,material,fixed\n");
  for (int i = 0; i < N; i++) {
    generated_row(i, &e[i]);
    if (i % 37 == 5) p += sprintf(p, "# comment %d %0*d\n", i, i % 200, 0);
    if (i % 53 == 7) p += sprintf(p, "\n   \n");
    p += sprintf(p, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d,%d%s", e[i].w[2], e[i].x[0], e[i].x[1], e[i].r, e[i].v[0],
                 e[i].v[1], e[i].material, e[i].fixed, i == N - 1 ? "" : (i % 5 ? "\n" : "\r\n"));
  }
  moreau_bodies *b = read_good("many.csv", text, 2);
  check_bodies(b, e, N, 2);
  ck_assert(io_test_all(moreau_bodies_destroy(&b) == MOREAU_SUCCESS));
  free(text);
  free(e);
}
END_TEST

/* Collective: reads path, which must fail with MOREAU_ERR_INPUT on every rank
 * and leave no bodies; the rank(s) that found the problem must report a
 * message starting with prefix and containing reason. */
static void expect_input_error(const char *path, int dim, const char *prefix, const char *reason)
{
  moreau_bodies *b;
  moreau_err err;
  long reporters, good_reports;
  int good;
  ck_assert(io_test_all(moreau_bodies_create(MPI_COMM_WORLD, dim, &b) == MOREAU_SUCCESS));
  err = moreau_read_particles(path, b, materials, NULL);
  good = 0;
  if (moreau_error_is_local()) {
    const char *msg = moreau_error_message();
    good = strncmp(msg, prefix, strlen(prefix)) == 0 && strstr(msg, reason) != NULL;
    if (!good) fprintf(stderr, "message \"%s\" does not start with \"%s\" or lacks \"%s\"\n", msg, prefix, reason);
  }
  reporters = io_test_sum(moreau_error_is_local());
  good_reports = io_test_sum(good);
  ck_assert(io_test_all(err == MOREAU_ERR_INPUT));
  ck_assert(io_test_all(b->n_owned == 0));
  ck_assert_int_ge(reporters, 1);
  ck_assert_int_eq(good_reports, reporters);
  moreau_error_clear();
  ck_assert(io_test_all(moreau_bodies_destroy(&b) == MOREAU_SUCCESS));
}

typedef struct {
  const char *header;
  const char *row; /* NULL: the header itself is bad */
  const char *reason;
  int dim;
} bad_case;

static const bad_case bad_cases[] = {
    {"x,y", NULL, "missing column 'r'", 2},
    {"x,y,r,colour", NULL, "unknown column 'colour'", 2},
    {"x,y,z,r", NULL, "column 'z'", 2},
    {"x,y,r,omega", NULL, "column 'omega'", 3},
    {"x,y,r,x", NULL, "column 'x' appears twice", 2},
    {"x,y,r", "0.5,abc,0.1", "column 'y': 'abc' is not a number", 2},
    {"x,y,r", "0.5,1.0x,0.1", "'1.0x' is not a number", 2},
    {"x,y,r", "0,0,-0.1", "radius must be positive", 2},
    {"x,y,r", "0,0,0", "radius must be positive", 2},
    {"x,y,r", "0,0,-0", "radius must be positive", 2},
    {"x,y,r", "0,nan,0.1", "column 'y': 'nan' is not a finite number", 2},
    {"x,y,r", "NaN,0,0.1", "not a finite number", 2},
    {"x,y,r", "inf,0,0.1", "not a finite number", 2},
    {"x,y,r", "1e999,0,0.1", "not a finite number", 2},
    {"x,y,r", "0,0", "expected 3 fields, found 2", 2},
    {"x,y,r", "0,0,1,2", "expected 3 fields, found 4", 2},
    {"x,y,r", "0,,0.1", "column 'y' is empty", 2},
    {"x,y,r,material", "0,0,0.1,3", "material 3 is not an integer in [0, 3)", 2},
    {"x,y,r,material", "0,0,0.1,-1", "material -1", 2},
    {"x,y,r,material", "0,0,0.1,1.5", "material 1.5", 2},
    {"x,y,r,fixed", "0,0,0.1,2", "fixed must be 0 or 1", 2},
    {"x,y,z,r", "0,0,0.1", "expected 4 fields, found 3", 3},
};

/* A good row for a header of the bad-file cases. */
static void good_row(const char *header, int i, char *buf, size_t size)
{
  int fields = 1;
  for (const char *q = header; *q; q++)
    fields += *q == ',';
  if (strncmp(header, "x,y,z,r", 7) == 0)
    snprintf(buf, size, "%d.5,%d,0,0.25", i, -i);
  else
    snprintf(buf, size, "%d.5,%d,0.25%s", i, -i, fields == 4 ? ",0" : "");
}

/* Writes a file with the bad row after n_before good rows (and a comment
 * line every 10 rows); returns the 1-based line number of the bad row. */
static int write_bad_file(const char *path, const bad_case *c, int n_before, int n_after)
{
  size_t size = (size_t)(n_before + n_after + 10) * 64;
  char *text = malloc(size), *p = text, row[64];
  int line = 1;
  p += sprintf(p, "%s\n", c->header);
  for (int i = 0; i < n_before; i++) {
    if (i % 10 == 3) {
      p += sprintf(p, "# note\n");
      line++;
    }
    good_row(c->header, i, row, sizeof(row));
    p += sprintf(p, "%s\n", row);
    line++;
  }
  p += sprintf(p, "%s%s", c->row, n_after ? "\n" : "");
  line++;
  for (int i = 0; i < n_after; i++) {
    good_row(c->header, i, row, sizeof(row));
    p += sprintf(p, "%s%s", row, i + 1 < n_after ? "\n" : "");
  }
  io_test_write_file(path, text);
  free(text);
  return line;
}

START_TEST(t_bad_files)
{
  /* Bad row first (rank 0's slab), in the middle, near the end, and last
   * without a newline: on 3 ranks each rank's slab gets one. */
  static const int before[] = {0, 150, 280, 300}, after[] = {300, 150, 20, 0};
  char path[512], prefix[600];
  for (size_t k = 0; k < sizeof(bad_cases) / sizeof(bad_cases[0]); k++) {
    const bad_case *c = &bad_cases[k];
    snprintf(path, sizeof(path), "%s/bad_%zu.csv", tmpdir, k);
    if (!c->row) {
      char text[256];
      snprintf(text, sizeof(text), "%s\n0,1,2,3,4,5\n", c->header);
      io_test_write_file(path, text);
      snprintf(prefix, sizeof(prefix), "%s:1: ", path);
      expect_input_error(path, c->dim, prefix, c->reason);
      continue;
    }
    for (int j = 0; j < 4; j++) {
      int line = write_bad_file(path, c, before[j], after[j]);
      snprintf(prefix, sizeof(prefix), "%s:%d: ", path, line);
      expect_input_error(path, c->dim, prefix, c->reason);
    }
  }
}
END_TEST

START_TEST(t_header_after_comments)
{
  char path[512], prefix[600];
  snprintf(path, sizeof(path), "%s/late_header.csv", tmpdir);
  io_test_write_file(path, "# comment\n\n# another\nx,y,radius\n0,0,1\n");
  snprintf(prefix, sizeof(prefix), "%s:4: ", path);
  expect_input_error(path, 2, prefix, "unknown column 'radius'");
}
END_TEST

START_TEST(t_no_header)
{
  char path[512], prefix[600];
  snprintf(path, sizeof(path), "%s/empty.csv", tmpdir);
  io_test_write_file(path, "");
  snprintf(prefix, sizeof(prefix), "%s:1: ", path);
  expect_input_error(path, 2, prefix, "no header line");
  io_test_write_file(path, "# only a comment\n\n");
  snprintf(prefix, sizeof(prefix), "%s:3: ", path);
  expect_input_error(path, 2, prefix, "no header line");
}
END_TEST

START_TEST(t_missing_file_and_bad_type)
{
  char path[512], expected[700];
  snprintf(path, sizeof(path), "%s/does_not_exist.csv", tmpdir);
  snprintf(expected, sizeof(expected), "%s: cannot open (No such file or directory)", path);
  expect_input_error(path, 2, expected, "");
  snprintf(path, sizeof(path), "%s/particles.txt", tmpdir);
  io_test_write_file(path, "x,y,r\n0,0,1\n");
  snprintf(expected, sizeof(expected), "%s: unknown particle file type (expected .csv or .h5)", path);
  expect_input_error(path, 2, expected, "");
}
END_TEST

static Suite *csv_suite(void)
{
  Suite *s = suite_create("io_csv");
  TCase *tc = tcase_create("csv");
  tcase_add_test(tc, t_2d_all_columns);
  tcase_add_test(tc, t_2d_minimal);
  tcase_add_test(tc, t_spreadsheet_export);
  tcase_add_test(tc, t_2d_reordered);
  tcase_add_test(tc, t_3d);
  tcase_add_test(tc, t_many_rows);
  tcase_add_test(tc, t_bad_files);
  tcase_add_test(tc, t_header_after_comments);
  tcase_add_test(tc, t_no_header);
  tcase_add_test(tc, t_missing_file_and_bad_type);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv)
{
  static const moreau_pair_law law = {.mu = 0.5, .e_n = 0, .e_t = 0};
  int status;
  MPI_Init(&argc, &argv);
  io_test_make_tmpdir(tmpdir);
  if (moreau_materials_create(3, &law, 1.0, &materials)) {
    moreau_error_print(1);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (int i = 0; i < 3; i++)
    materials->density[i] = density[i];
  status = io_test_run(csv_suite());
  if (moreau_materials_destroy(&materials)) status = EXIT_FAILURE;
  io_test_remove_tree(tmpdir);
  MPI_Finalize();
  return status;
}
