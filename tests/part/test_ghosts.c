/* Ghost layer against brute force: for every pair of bodies with a gap
 * below the alert distance, the owner of the smaller gid holds the other
 * body (owned or ghost); ghosts name their true owner, are exact copies,
 * come in (owner, gid) order, and no rank holds a body twice. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "part_test_cases.h"
#include "part_test_util.h"

/* Record of one local copy: gid, owner rank, is_ghost, x[3], radius. */
#define REC 7

static int cmp_gid(const void *a, const void *b)
{
  moreau_gid x = *(const moreau_gid *)a, y = *(const moreau_gid *)b;
  return (x > y) - (x < y);
}

static int holds(const moreau_gid *sorted, int n, moreau_gid gid)
{
  return bsearch(&gid, sorted, (size_t)n, sizeof(gid), cmp_gid) != NULL;
}

/* On rank 0: the violations, and in *n_cross the number of close pairs
 * whose bodies have different owners (so that the test is known to test
 * something on several ranks). */
static long brute_force(const part_test_scene *s, const double *all, const int *counts, int size, double alert,
                        long *n_cross)
{
  int64_t n = s->n;
  int *owner = malloc((size_t)(n + 1) * sizeof(int));
  double *x = malloc((size_t)(n + 1) * 3 * sizeof(double)), *r = malloc((size_t)(n + 1) * sizeof(double));
  moreau_gid **held = malloc((size_t)size * sizeof(*held));
  long bad = 0;
  int at = 0;
  *n_cross = 0;
  for (int64_t g = 0; g <= n; g++)
    owner[g] = -1;
  for (int q = 0; q < size; q++) {
    for (int k = 0; k < counts[q]; k++) {
      const double *rec = &all[(size_t)REC * (at + k)];
      moreau_gid gid = part_test_double_to_gid(rec[0]);
      if (rec[2] != 0.0) continue;
      if (gid < 1 || gid > n || owner[gid] >= 0 || (int)rec[1] != q) {
        bad++;
        continue;
      }
      owner[gid] = q;
      memcpy(&x[3 * gid], &rec[3], 3 * sizeof(double));
      r[gid] = rec[6];
    }
    at += counts[q];
  }
  for (int64_t g = 1; g <= n; g++)
    bad += owner[g] < 0;

  at = 0;
  for (int q = 0; q < size; q++) {
    held[q] = malloc((size_t)counts[q] * sizeof(moreau_gid) + 1);
    for (int k = 0; k < counts[q]; k++) {
      const double *rec = &all[(size_t)REC * (at + k)];
      moreau_gid gid = part_test_double_to_gid(rec[0]);
      held[q][k] = gid;
      if (rec[2] == 0.0) continue;
      /* A ghost: its owner, an exact copy, in (owner, gid) order. */
      if (gid < 1 || gid > n || (int)rec[1] != owner[gid] || (int)rec[1] == q ||
          memcmp(&rec[3], &x[3 * gid], 3 * sizeof(double)) != 0 || rec[6] != r[gid])
        bad++;
      if (k > 0 && all[(size_t)REC * (at + k - 1) + 2] != 0.0) {
        const double *prev = &all[(size_t)REC * (at + k - 1)];
        if (prev[1] > rec[1] || (prev[1] == rec[1] && part_test_double_to_gid(prev[0]) >= gid)) bad++;
      }
    }
    qsort(held[q], (size_t)counts[q], sizeof(moreau_gid), cmp_gid);
    for (int k = 1; k < counts[q]; k++)
      bad += held[q][k] == held[q][k - 1];
    at += counts[q];
  }

  for (int64_t a = 1; a <= n; a++)
    for (int64_t b = a + 1; b <= n; b++) {
      double d2 = 0, gap;
      for (int k = 0; k < s->dim; k++)
        d2 += (x[3 * a + k] - x[3 * b + k]) * (x[3 * a + k] - x[3 * b + k]);
      gap = sqrt(d2) - r[a] - r[b];
      if (!(gap < alert)) continue;
      if (owner[a] != owner[b]) (*n_cross)++;
      if (!holds(held[owner[a]], counts[owner[a]], b)) bad++;
    }
  for (int q = 0; q < size; q++)
    free(held[q]);
  free(held);
  free(owner);
  free(x);
  free(r);
  return bad;
}

static void run_ghosts(const part_test_scene *s, moreau_part_type type, double alert)
{
  moreau_bodies *b;
  moreau_part *part;
  int rank, size, *counts;
  double *rec, *all;
  long bad = 0, n_cross = 0;
  moreau_lid n_local;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  PT_TRY(part_test_make_bodies(s, PT_RANDOM_RANKS, &b));
  PT_TRY(moreau_part_create(MPI_COMM_WORLD, &part));
  moreau_part_set_type(part, type);
  PT_TRY(moreau_part_setup(part, b, NULL, 0.5));
  PT_TRY(moreau_part_ghosts(part, b, s->rmax + alert));
  ck_assert_int_eq(part_test_sum(size == 1 ? b->n_ghost : 0), 0);

  n_local = moreau_bodies_n_local(b);
  rec = malloc((size_t)n_local * REC * sizeof(double) + 1);
  for (moreau_lid i = 0; i < n_local; i++) {
    double *r = &rec[(size_t)REC * i];
    r[0] = part_test_gid_to_double(b->gid[i]);
    r[1] = i < b->n_owned ? rank : moreau_part_ghost_owner(part, i - b->n_owned);
    r[2] = i >= b->n_owned;
    memcpy(&r[3], &b->x[3 * i], 3 * sizeof(double));
    r[6] = b->radius[i];
  }
  part_test_gather(rec, n_local, REC, &all, &counts);
  if (rank == 0) bad = brute_force(s, all, counts, size, alert, &n_cross);
  MPI_Bcast(&n_cross, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  PT_EXPECT(bad, "ghost layer against brute force");
  if (size > 1) ck_assert_int_gt(n_cross, 20);
  free(rec);
  free(all);
  free(counts);
  PT_TRY(moreau_part_destroy(&part));
  PT_TRY(moreau_bodies_destroy(&b));
}

START_TEST(test_ghosts_2d)
{
  part_test_scene s = {2, 3000, 80.0, 0.5, 1.0, 31};
  run_ghosts(&s, MOREAU_PART_METIS, 0.25);
  run_ghosts(&s, MOREAU_PART_BLOCK, 0.25);
  run_ghosts(&s, MOREAU_PART_RCB, 0.25);
}
END_TEST

START_TEST(test_ghosts_3d)
{
  part_test_scene s = {3, 3000, 24.0, 0.5, 1.0, 32};
  run_ghosts(&s, MOREAU_PART_METIS, 0.25);
  run_ghosts(&s, MOREAU_PART_BLOCK, 0.25);
  run_ghosts(&s, MOREAU_PART_RCB, 0.25);
}
END_TEST

/* Radii far apart (a few large bodies among small ones): the cutoff uses
 * the largest radius, cells are sized by it too. */
START_TEST(test_ghosts_polydisperse)
{
  part_test_scene s = {2, 2000, 70.0, 0.2, 3.0, 33};
  run_ghosts(&s, MOREAU_PART_METIS, 0.1);
}
END_TEST

TCase *part_tcase_ghosts(void)
{
  TCase *tc = tcase_create("ghosts");
  tcase_add_test(tc, test_ghosts_2d);
  tcase_add_test(tc, test_ghosts_3d);
  tcase_add_test(tc, test_ghosts_polydisperse);
  return tc;
}
