/* Repartitioning: all bodies crowd into one corner after setup; the update
 * that sees the imbalance (measured on entry, so the one after the
 * migration into the corner) repartitions, after which the load is within
 * the threshold again and nothing is lost. */
#include <math.h>

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
  PT_EXPECT(part_test_check_ownership(part, b), "owned bodies in this rank's cells, sorted");
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

START_TEST(test_repartition_2d)
{
  part_test_scene s = {2, 3000, 80.0, 0.5, 1.0, 51};
  run_repartition(&s, MOREAU_PART_METIS, 0.25);
  run_repartition(&s, MOREAU_PART_BLOCK, 0.25);
}
END_TEST

START_TEST(test_repartition_3d)
{
  part_test_scene s = {3, 3000, 24.0, 0.5, 1.0, 52};
  run_repartition(&s, MOREAU_PART_METIS, 0.5);
  run_repartition(&s, MOREAU_PART_BLOCK, 0.5);
}
END_TEST

TCase *part_tcase_repartition(void)
{
  TCase *tc = tcase_create("repartition");
  tcase_add_test(tc, test_repartition_2d);
  tcase_add_test(tc, test_repartition_3d);
  return tc;
}
