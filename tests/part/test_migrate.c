/* Migration by moreau_part_update: bodies moved by several cells end with
 * the owner of their new cell, unchanged, with their history entries and
 * forces; the migrated count matches the bodies that left their rank. */
#include <math.h>
#include <string.h>

#include "moreau/rng.h"
#include "part_test_cases.h"
#include "part_test_util.h"

/* Position of body gid at iteration it: its scene position moved by up to
 * `reach` along each axis, wrapped into [0, side). A function of (gid, it)
 * only, so the test knows where every body must be. */
static void position(const part_test_scene *s, moreau_gid gid, int it, double reach, double *x)
{
  moreau_body base;
  moreau_rng rng;
  part_test_body(s, gid, &base);
  moreau_rng_seed(&rng, s->seed + 1000 + (uint64_t)it, (uint64_t)gid);
  for (int k = 0; k < 3; k++)
    x[k] = 0.0;
  for (int k = 0; k < s->dim; k++) {
    double t = fmod(base.x[k] + reach * (2.0 * moreau_rng_uniform(&rng) - 1.0), s->side);
    x[k] = t < 0.0 ? t + s->side : t;
  }
}

/* Violations of: every owned body at x_of(gid) with its scene velocity. */
static long check_moved(const part_test_scene *s, const moreau_bodies *b, int it, double reach, double shift)
{
  long bad = 0;
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    moreau_body base;
    double x[3];
    part_test_body(s, b->gid[i], &base);
    position(s, b->gid[i], it, reach, x);
    x[0] += shift;
    if (memcmp(x, &b->x[3 * i], sizeof(x)) || memcmp(base.v, &b->v[3 * i], sizeof(base.v)) ||
        base.radius != b->radius[i])
      bad++;
  }
  return bad;
}

static void check_all(const part_test_scene *s, const moreau_part *part, const moreau_bodies *b,
                      const moreau_contacts *h, int it, double reach, double shift)
{
  int64_t count, gid_sum;
  PT_TRY(moreau_bodies_global_count(b, &count, &gid_sum));
  ck_assert_int_eq(count, s->n);
  ck_assert_int_eq(gid_sum, s->n * (s->n + 1) / 2);
  PT_EXPECT(part_test_check_ownership(part, b), "owned bodies in this rank's cells, once");
  PT_EXPECT(check_moved(s, b, it, reach, shift), "bodies carried unchanged");
  PT_EXPECT(part_test_check_history(b, h), "history with its body, forces kept, sorted");
  ck_assert_int_eq(part_test_sum(h->n), 2 * s->n);
}

/* Moves the owned bodies and returns the global number that leave this
 * rank's cells. */
static long move(const part_test_scene *s, const moreau_part *part, moreau_bodies *b, int it, double reach,
                 double shift)
{
  int rank;
  long leaving = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    position(s, b->gid[i], it, reach, &b->x[3 * i]);
    b->x[3 * i] += shift;
    leaving += part_test_owner_of(part, &b->x[3 * i]) != rank;
  }
  return part_test_sum(leaving);
}

static void run_migrate(const part_test_scene *s, moreau_part_type type)
{
  moreau_bodies *b;
  moreau_contacts *h;
  moreau_part *part;
  moreau_part_stats st;
  double lo[3], cell, reach;
  int n[3], size;
  const int *map;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  PT_TRY(part_test_make_bodies(s, PT_SLABS, &b));
  PT_TRY(part_test_make_history(b, 0, &h));
  PT_TRY(moreau_part_create(MPI_COMM_WORLD, &part));
  moreau_part_set_type(part, type);
  /* Migration alone: no repartition however uneven the load gets. */
  moreau_part_set_imbalance(part, 1e9);
  PT_TRY(moreau_part_setup(part, b, h, 0.5));
  moreau_part_get_grid(part, lo, &cell, n, &map);
  reach = 3.0 * cell;
  for (int it = 1; it <= 5; it++) {
    long leaving = move(s, part, b, it, reach, 0.0);
    PT_TRY(moreau_part_update(part, b, h, h->n));
    moreau_part_get_stats(part, &st);
    ck_assert_int_eq(st.migrated, leaving);
    if (size > 1) ck_assert_int_gt(leaving, 0);
    ck_assert_int_eq(st.repartitions, 0);
    check_all(s, part, b, h, it, reach, 0.0);
    PT_TRY(moreau_part_ghosts(part, b, s->rmax));
  }
  /* Everything far beyond the grid: clamped into the edge cells. */
  {
    long leaving = move(s, part, b, 6, reach, 5.0 * s->side);
    PT_TRY(moreau_part_update(part, b, h, h->n));
    moreau_part_get_stats(part, &st);
    ck_assert_int_eq(st.migrated, leaving);
    check_all(s, part, b, h, 6, reach, 5.0 * s->side);
  }
  PT_TRY(moreau_part_destroy(&part));
  PT_TRY(moreau_contacts_destroy(&h));
  PT_TRY(moreau_bodies_destroy(&b));
}

START_TEST(test_migrate_2d)
{
  part_test_scene s = {2, 3000, 80.0, 0.5, 1.0, 41};
  run_migrate(&s, MOREAU_PART_METIS);
  run_migrate(&s, MOREAU_PART_BLOCK);
  run_migrate(&s, MOREAU_PART_RCB);
}
END_TEST

START_TEST(test_migrate_3d)
{
  part_test_scene s = {3, 3000, 24.0, 0.5, 1.0, 42};
  run_migrate(&s, MOREAU_PART_METIS);
  run_migrate(&s, MOREAU_PART_BLOCK);
  run_migrate(&s, MOREAU_PART_RCB);
}
END_TEST

TCase *part_tcase_migrate(void)
{
  TCase *tc = tcase_create("migrate");
  tcase_add_test(tc, test_migrate_2d);
  tcase_add_test(tc, test_migrate_3d);
  return tc;
}
