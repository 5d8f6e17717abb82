/* Repartitioning: all bodies crowd into one corner after setup; the update
 * that sees the imbalance (measured on entry, so the one after the
 * migration into the corner) repartitions, after which the load is within
 * the threshold again and nothing is lost. */
#include <math.h>
#include <stdio.h>

#include "part_test_cases.h"
#include "part_test_util.h"

/* Collective: max / mean over ranks of owned bodies + history entries, the
 * work the library measures when given n_contacts = history->n. */
static double work_imbalance(const moreau_bodies *b, const moreau_contacts *h)
{
  int size;
  double work = (double)b->n_owned + (double)h->n, total = (double)part_test_sum((long)work);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return part_test_max(work) / (total / size);
}

static void check_nothing_lost(const part_test_scene *s, const moreau_part *part, const moreau_bodies *b,
                               const moreau_contacts *h)
{
  int64_t count, gid_sum;
  PT_TRY(moreau_bodies_global_count(b, &count, &gid_sum));
  ck_assert_int_eq(count, s->n);
  ck_assert_int_eq(gid_sum, s->n * (s->n + 1) / 2);
  PT_EXPECT(part_test_check_ownership(part, b), "owned bodies in this rank's cells, once");
  PT_EXPECT(part_test_check_history(b, h), "history with its body, forces kept, sorted");
  ck_assert_int_eq(part_test_sum(h->n), 2 * s->n);
}

static void run_repartition(const part_test_scene *s, moreau_part_type type, double corner)
{
  const double threshold = 1.2;
  moreau_bodies *b;
  moreau_contacts *h;
  moreau_part *part;
  moreau_part_stats st;
  double crowded;
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  PT_TRY(part_test_make_bodies(s, PT_SLABS, &b));
  PT_TRY(part_test_make_history(b, 0, &h));
  PT_TRY(moreau_part_create(MPI_COMM_WORLD, &part));
  moreau_part_set_type(part, type);
  moreau_part_set_imbalance(part, threshold);
  PT_TRY(moreau_part_setup(part, b, h, 0.5));
  ck_assert_double_le(work_imbalance(b, h), threshold);
  PT_TRY(moreau_part_update(part, b, h, h->n));
  moreau_part_get_stats(part, &st);
  ck_assert_int_eq(st.repartitions, 0);

  for (moreau_lid i = 0; i < b->n_owned; i++)
    for (int k = 0; k < s->dim; k++)
      b->x[3 * i + k] *= corner;
  PT_TRY(moreau_part_update(part, b, h, h->n));
  moreau_part_get_stats(part, &st);
  ck_assert_int_eq(st.repartitions, 0);
  check_nothing_lost(s, part, b, h);
  crowded = work_imbalance(b, h);
  /* The scene must actually be unbalanced for the test to mean anything. */
  if (size > 1) ck_assert_double_gt(crowded, threshold);

  PT_TRY(moreau_part_update(part, b, h, h->n));
  moreau_part_get_stats(part, &st);
  ck_assert_double_eq_tol(st.imbalance, crowded, 1e-12 * crowded);
  ck_assert_int_eq(st.repartitions, (size > 1 ? 1 : 0));
  check_nothing_lost(s, part, b, h);
  ck_assert_double_le(work_imbalance(b, h), threshold);

  PT_TRY(moreau_part_update(part, b, h, h->n));
  moreau_part_get_stats(part, &st);
  ck_assert_double_le(st.imbalance, threshold);
  ck_assert_int_eq(st.repartitions, (size > 1 ? 1 : 0));
  check_nothing_lost(s, part, b, h);
  PT_TRY(moreau_part_destroy(&part));
  PT_TRY(moreau_contacts_destroy(&h));
  PT_TRY(moreau_bodies_destroy(&b));
}

/* Root: the fewest bodies any labelling of the new parts could have moved,
 * N - max over permutations pi of sum_r M[r][pi(r)], by trying every
 * permutation (size <= 8: 40320). M[r * size + q]: bodies on rank r before
 * and in part q after. */
static long fewest_moves(const long *M, int size, long n)
{
  int perm[8], c[8] = {0};
  long best = 0;
  for (int r = 0; r < size; r++)
    perm[r] = r;
  /* Heap's algorithm. */
  for (int i = 0;;) {
    long kept = 0;
    for (int r = 0; r < size; r++)
      kept += M[r * size + perm[r]];
    if (kept > best) best = kept;
    while (i < size && c[i] >= i)
      c[i++] = 0;
    if (i >= size) break;
    int j = i % 2 ? c[i] : 0, t = perm[j];
    perm[j] = perm[i];
    perm[i] = t;
    c[i]++;
    i = 0;
  }
  return n - best;
}

/* A mild drift (every body moves a little toward one side, which unbalances
 * the ranks by tens of percent) and a forced repartition: the bodies moved
 * are within 2x of the fewest any labelling of the new parts allows. */
static void run_drift_relabel(const part_test_scene *s, moreau_part_type type)
{
  moreau_bodies *b;
  moreau_contacts *h;
  moreau_part *part;
  moreau_part_stats st;
  int size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (size == 1 || size > 8) return;
  PT_TRY(part_test_make_bodies(s, PT_SLABS, &b));
  PT_TRY(part_test_make_history(b, 0, &h));
  PT_TRY(moreau_part_create(MPI_COMM_WORLD, &part));
  moreau_part_set_type(part, type);
  moreau_part_set_imbalance(part, 1e9);
  PT_TRY(moreau_part_setup(part, b, h, 0.5));
  /* x -> x (0.8 + 0.2 x / side) on every axis: bodies crowd toward the
   * origin, the farthest by a tenth of the side. */
  for (moreau_lid i = 0; i < b->n_owned; i++)
    for (int k = 0; k < s->dim; k++)
      b->x[3 * i + k] *= 0.8 + 0.2 * b->x[3 * i + k] / s->side;
  PT_TRY(moreau_part_update(part, b, h, h->n));
  /* Who holds each gid before the repartition, then after. */
  long *before, *after, *M;
  ck_assert_int_eq(moreau_calloc((size_t)s->n + 1, sizeof(long), &before), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_calloc((size_t)s->n + 1, sizeof(long), &after), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_calloc((size_t)size * size, sizeof(long), &M), MOREAU_SUCCESS);
  for (moreau_lid i = 0; i < b->n_owned; i++)
    before[b->gid[i]] = rank;
  MPI_Allreduce(MPI_IN_PLACE, before, (int)s->n + 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  const double imbalance = work_imbalance(b, h);
  moreau_part_set_imbalance(part, 1.0);
  PT_TRY(moreau_part_update(part, b, h, h->n));
  moreau_part_get_stats(part, &st);
  ck_assert_int_eq(st.repartitions, 1);
  check_nothing_lost(s, part, b, h);
  for (moreau_lid i = 0; i < b->n_owned; i++)
    after[b->gid[i]] = rank;
  MPI_Allreduce(MPI_IN_PLACE, after, (int)s->n + 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  long moved = 0;
  for (int64_t g = 1; g <= s->n; g++) {
    M[before[g] * size + after[g]]++;
    moved += before[g] != after[g];
  }
  ck_assert_int_eq(moved, st.migrated);
  const long fewest = fewest_moves(M, size, (long)s->n);
  if (rank == 0)
    printf("%s %dD, %d ranks: imbalance %.3f after the drift; the repartition moved %ld of %ld bodies, the best "
           "labelling %ld\n",
           type == MOREAU_PART_METIS ? "metis" : (type == MOREAU_PART_BLOCK ? "block" : "rcb"), s->dim, size, imbalance,
           moved, (long)s->n, fewest);
  ck_assert_msg(imbalance > 1.05, "the drift did not unbalance the ranks (%.3f)", imbalance);
  ck_assert_msg(moved <= 2 * fewest + s->n / 100, "moved %ld bodies, the best labelling %ld", moved, fewest);
  moreau_free(&before);
  moreau_free(&after);
  moreau_free(&M);
  PT_TRY(moreau_part_destroy(&part));
  PT_TRY(moreau_contacts_destroy(&h));
  PT_TRY(moreau_bodies_destroy(&b));
}

/* Weights from measured time: rank 0 reports three times the sweep seconds
 * per unit of work of the others. The imbalance is then measured in
 * seconds (3P / (P + 2) here, where the counts are balanced), and the
 * repartition balances the bodies weighted by their old rank's seconds per
 * unit of work: within 10% of the mean on every rank (METIS balances cells
 * to 3%, RCB to a body). RCB's cut moves into rank 0's old region, so rank
 * 0 keeps n0 = sum_r c_r n_r / (P c_0) bodies, c_r the seconds per unit of
 * work of rank r; METIS's new parts need not nest in the old ones. Under
 * COUNT the same times change nothing. */
static void run_time_weights(const part_test_scene *s, moreau_part_type type, moreau_part_weight weight)
{
  moreau_bodies *b;
  moreau_contacts *h;
  moreau_part *part;
  moreau_part_stats st;
  int size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (size == 1) return;
  PT_TRY(part_test_make_bodies(s, PT_SLABS, &b));
  PT_TRY(part_test_make_history(b, 0, &h));
  PT_TRY(moreau_part_create(MPI_COMM_WORLD, &part));
  moreau_part_set_type(part, type);
  moreau_part_set_weight(part, weight);
  moreau_part_set_imbalance(part, 1e9);
  PT_TRY(moreau_part_setup(part, b, h, 0.5));
  PT_TRY(moreau_part_update(part, b, h, h->n));
  /* Seconds of a long run (a few seconds per rank): the library sums them
   * in microseconds. */
  const double cost = rank == 0 ? 3e-3 : 1e-3, n_before = (double)b->n_owned;
  const double seconds = cost * (double)(b->n_owned + h->n);
  const double time_imbalance = part_test_max(seconds) / (part_test_sum_double(seconds) / size);
  const double expect_n0 = part_test_sum_double(cost * n_before) / (size * 3e-3);
  double *cost_of;
  ck_assert_int_eq(moreau_calloc((size_t)s->n + 1, sizeof(double), &cost_of), MOREAU_SUCCESS);
  for (moreau_lid i = 0; i < b->n_owned; i++)
    cost_of[b->gid[i]] = cost;
  MPI_Allreduce(MPI_IN_PLACE, cost_of, (int)s->n + 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  moreau_part_add_sweep_time(part, seconds);
  moreau_part_set_imbalance(part, 1.1);
  PT_TRY(moreau_part_update(part, b, h, h->n));
  moreau_part_get_stats(part, &st);
  check_nothing_lost(s, part, b, h);
  const double n0 = part_test_max(rank == 0 ? (double)b->n_owned : 0.0);
  double cost_here = 0.0;
  for (moreau_lid i = 0; i < b->n_owned; i++)
    cost_here += cost_of[b->gid[i]];
  const double cost_imbalance = part_test_max(cost_here) / (part_test_sum_double(cost_here) / size);
  moreau_free(&cost_of);
  if (rank == 0)
    printf("%s, %s weights, %dD, %d ranks: imbalance %.3f (time %.3f), %lld repartitions; weighted by the old costs "
           "max/mean %.3f; rank 0 holds %.0f bodies (closed form %.1f)\n",
           type == MOREAU_PART_METIS ? "metis" : "rcb", weight == MOREAU_PART_WEIGHT_TIME ? "time" : "count", s->dim,
           size, st.imbalance, time_imbalance, (long long)st.repartitions, cost_imbalance, n0, expect_n0);
  if (weight == MOREAU_PART_WEIGHT_COUNT) {
    ck_assert_msg(st.imbalance < 1.1, "count imbalance %.3f", st.imbalance);
    ck_assert_int_eq(st.repartitions, 0);
  } else {
    ck_assert_msg(fabs(st.imbalance - time_imbalance) < 1e-6 * time_imbalance, "imbalance %.6f, seconds say %.6f",
                  st.imbalance, time_imbalance);
    ck_assert_int_eq(st.repartitions, 1);
    ck_assert_msg(cost_imbalance < 1.1, "max/mean of the cost-weighted bodies %.3f", cost_imbalance);
    if (type == MOREAU_PART_RCB)
      ck_assert_msg(fabs(n0 - expect_n0) <= 0.02 * expect_n0 + 2.0, "rank 0 holds %.0f bodies, closed form %.1f", n0,
                    expect_n0);
  }
  PT_TRY(moreau_part_destroy(&part));
  PT_TRY(moreau_contacts_destroy(&h));
  PT_TRY(moreau_bodies_destroy(&b));
}

START_TEST(test_repartition_2d)
{
  part_test_scene s = {2, 3000, 80.0, 0.5, 1.0, 51};
  run_repartition(&s, MOREAU_PART_METIS, 0.25);
  run_repartition(&s, MOREAU_PART_BLOCK, 0.25);
  run_repartition(&s, MOREAU_PART_RCB, 0.25);
}
END_TEST

START_TEST(test_repartition_3d)
{
  part_test_scene s = {3, 3000, 24.0, 0.5, 1.0, 52};
  run_repartition(&s, MOREAU_PART_METIS, 0.5);
  run_repartition(&s, MOREAU_PART_BLOCK, 0.5);
  run_repartition(&s, MOREAU_PART_RCB, 0.5);
}
END_TEST

START_TEST(test_drift_relabel)
{
  part_test_scene s2 = {2, 3000, 80.0, 0.5, 1.0, 53}, s3 = {3, 3000, 24.0, 0.5, 1.0, 54};
  run_drift_relabel(&s2, MOREAU_PART_METIS);
  run_drift_relabel(&s2, MOREAU_PART_BLOCK);
  run_drift_relabel(&s3, MOREAU_PART_METIS);
  run_drift_relabel(&s2, MOREAU_PART_RCB);
  run_drift_relabel(&s3, MOREAU_PART_RCB);
}
END_TEST

START_TEST(test_time_weights)
{
  part_test_scene s2 = {2, 3000, 80.0, 0.5, 1.0, 55}, s3 = {3, 3000, 24.0, 0.5, 1.0, 56};
  run_time_weights(&s2, MOREAU_PART_RCB, MOREAU_PART_WEIGHT_TIME);
  run_time_weights(&s3, MOREAU_PART_RCB, MOREAU_PART_WEIGHT_TIME);
  run_time_weights(&s2, MOREAU_PART_METIS, MOREAU_PART_WEIGHT_TIME);
  run_time_weights(&s2, MOREAU_PART_RCB, MOREAU_PART_WEIGHT_COUNT);
}
END_TEST

TCase *part_tcase_repartition(void)
{
  TCase *tc = tcase_create("repartition");
  tcase_add_test(tc, test_repartition_2d);
  tcase_add_test(tc, test_repartition_3d);
  tcase_add_test(tc, test_drift_relabel);
  tcase_add_test(tc, test_time_weights);
  return tc;
}
