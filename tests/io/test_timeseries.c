/* CSV time series: rank 0 writes a header and one row per call, values that
 * read back to the same doubles; the other ranks' values are ignored. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_test_util.h"
#include "moreau/io.h"

static char tmpdir[256];
static int rank;

/* Rank 0 only: the lines of a file (at most max), newline removed. */
static int read_lines(const char *path, char lines[][512], int max)
{
  FILE *f = fopen(path, "r");
  int n = 0;
  if (!f) return -1;
  while (n < max && fgets(lines[n], 512, f)) {
    lines[n][strcspn(lines[n], "\n")] = '\0';
    n++;
  }
  fclose(f);
  return n;
}

/* Rank 0 only: whether a row holds exactly these doubles. */
static int row_equals(const char *row, const double *expected, int n)
{
  const char *p = row;
  for (int i = 0; i < n; i++) {
    char *end;
    double v = strtod(p, &end);
    if (end == p || memcmp(&v, &expected[i], sizeof(double)) != 0) return 0;
    if (i + 1 < n && *end != ',') return 0;
    p = end + 1;
  }
  return p[-1] == '\0';
}

static int bcast_int(int v)
{
  MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return v;
}

START_TEST(t_rows_round_trip)
{
  static const double rows[3][4] = {
      {0.0, 1.0 / 3.0, -0.0, 1e-310},
      {1e-3, DBL_MAX, -DBL_MIN, 0.1 + 0.2},
      {2e-3, -123456789.123456789, M_PI, 6.02214076e23},
  };
  char path[512], lines[8][512];
  moreau_timeseries *ts;
  int ok = 1, n;
  snprintf(path, sizeof(path), "%s/series.csv", tmpdir);
  ck_assert_int_eq(moreau_timeseries_create(MPI_COMM_WORLD, path, &ts), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_timeseries_add_column(ts, "time"), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_timeseries_add_column(ts, "mu"), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_timeseries_add_column(ts, "p"), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_timeseries_add_column(ts, "n_contacts"), MOREAU_SUCCESS);
  for (int r = 0; r < 3; r++) {
    double garbage[4] = {NAN, NAN, NAN, NAN};
    ck_assert(io_test_all(moreau_timeseries_write(ts, rank == 0 ? rows[r] : garbage) == MOREAU_SUCCESS));
    /* Each row is on disk as soon as it is written. */
    if (rank == 0) ok = ok && read_lines(path, lines, 8) == r + 2 && row_equals(lines[r + 1], rows[r], 4);
  }
  ck_assert(io_test_all(moreau_timeseries_destroy(&ts) == MOREAU_SUCCESS));
  ck_assert(ts == NULL);
  if (rank == 0) {
    n = read_lines(path, lines, 8);
    ok = ok && n == 4 && strcmp(lines[0], "time,mu,p,n_contacts") == 0;
    for (int r = 0; r < 3 && ok; r++)
      ok = row_equals(lines[r + 1], rows[r], 4);
  }
  ck_assert(bcast_int(ok));
}
END_TEST

START_TEST(t_header_without_rows)
{
  char path[512], lines[4][512];
  moreau_timeseries *ts;
  int ok = 1;
  snprintf(path, sizeof(path), "%s/empty.csv", tmpdir);
  ck_assert_int_eq(moreau_timeseries_create(MPI_COMM_WORLD, path, &ts), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_timeseries_add_column(ts, "step"), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_timeseries_add_column(ts, "q_over_p"), MOREAU_SUCCESS);
  ck_assert(io_test_all(moreau_timeseries_destroy(&ts) == MOREAU_SUCCESS));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) ok = read_lines(path, lines, 4) == 1 && strcmp(lines[0], "step,q_over_p") == 0;
  ck_assert(bcast_int(ok));
  ck_assert_int_eq(moreau_timeseries_destroy(&ts), MOREAU_SUCCESS);
}
END_TEST

START_TEST(t_misuse)
{
  char path[512];
  moreau_timeseries *ts = NULL;
  double v = 1.0;
  moreau_err err;
  snprintf(path, sizeof(path), "%s/no/such/dir/series.csv", tmpdir);
  err = moreau_timeseries_create(MPI_COMM_WORLD, path, &ts);
  ck_assert(io_test_all(err == MOREAU_ERR_IO));
  moreau_error_clear();
  snprintf(path, sizeof(path), "%s/late_column.csv", tmpdir);
  ck_assert_int_eq(moreau_timeseries_create(MPI_COMM_WORLD, path, &ts), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_timeseries_add_column(ts, "a"), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_timeseries_add_column(ts, "b,c"), MOREAU_ERR_INTERNAL);
  moreau_error_clear();
  ck_assert(io_test_all(moreau_timeseries_write(ts, &v) == MOREAU_SUCCESS));
  ck_assert_int_eq(moreau_timeseries_add_column(ts, "late"), MOREAU_ERR_INTERNAL);
  moreau_error_clear();
  ck_assert(io_test_all(moreau_timeseries_destroy(&ts) == MOREAU_SUCCESS));
}
END_TEST

static Suite *timeseries_suite(void)
{
  Suite *s = suite_create("io_timeseries");
  TCase *tc = tcase_create("timeseries");
  tcase_add_test(tc, t_rows_round_trip);
  tcase_add_test(tc, t_header_without_rows);
  tcase_add_test(tc, t_misuse);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv)
{
  int status;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  io_test_make_tmpdir(tmpdir);
  status = io_test_run(timeseries_suite());
  io_test_remove_tree(tmpdir);
  MPI_Finalize();
  return status;
}
