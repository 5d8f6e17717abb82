/* moreau_part_setup from bad starts: everything ends with the owner of its
 * cell, nothing is lost or changed, and every rank has the same cell map. */
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

#include "part_test_cases.h"
#include "part_test_util.h"

/* Violations of: every owned body is the scene's body of that gid, bitwise. */
static long check_bodies_intact(const part_test_scene *s, const moreau_bodies *b)
{
  long bad = 0;
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    moreau_body expect, got;
    part_test_body(s, b->gid[i], &expect);
    moreau_bodies_get(b, i, &got);
    if (memcmp(expect.x, got.x, sizeof(got.x)) || memcmp(expect.v, got.v, sizeof(got.v)) ||
        memcmp(expect.w, got.w, sizeof(got.w)) || memcmp(expect.q, got.q, sizeof(got.q)) ||
        expect.radius != got.radius || expect.inv_mass != got.inv_mass || expect.inv_inertia != got.inv_inertia ||
        expect.material != got.material || expect.fixed != got.fixed)
      bad++;
  }
  return bad;
}

static void run_setup(const part_test_scene *s, part_test_layout layout, moreau_part_type type, int history_shift)
{
  moreau_bodies *b;
  moreau_contacts *h;
  moreau_part *part;
  int64_t count, gid_sum;
  PT_TRY(part_test_make_bodies(s, layout, &b));
  PT_TRY(part_test_make_history(b, history_shift, &h));
  PT_TRY(moreau_part_create(MPI_COMM_WORLD, &part));
  moreau_part_set_type(part, type);
  PT_TRY(moreau_part_setup(part, b, h, 0.5));
  PT_TRY(moreau_bodies_global_count(b, &count, &gid_sum));
  ck_assert_int_eq(count, s->n);
  ck_assert_int_eq(gid_sum, s->n * (s->n + 1) / 2);
  PT_EXPECT(part_test_check_ownership(part, b), "owned bodies in this rank's cells, once");
  PT_EXPECT(check_bodies_intact(s, b), "bodies unchanged by migration");
  PT_EXPECT(part_test_map_as_root(part), "map identical on every rank");
  PT_EXPECT(part_test_check_history(b, h), "history with its body, forces kept, sorted");
  ck_assert_int_eq(part_test_sum(h->n), 2 * s->n);
  PT_TRY(moreau_part_destroy(&part));
  ck_assert_ptr_null(part);
  PT_TRY(moreau_contacts_destroy(&h));
  PT_TRY(moreau_bodies_destroy(&b));
}

START_TEST(test_setup_from_bad_start)
{
  part_test_scene s2 = {2, 3000, 80.0, 0.5, 1.0, 11}, s3 = {3, 3000, 24.0, 0.5, 1.0, 12};
  const moreau_part_type types[] = {MOREAU_PART_METIS, MOREAU_PART_BLOCK, MOREAU_PART_RCB};
  for (int type = 0; type < 3; type++) {
    moreau_part_type t = types[type];
    run_setup(&s2, PT_ON_ROOT, t, 0);
    run_setup(&s2, PT_RANDOM_RANKS, t, 1);
    run_setup(&s3, PT_SLABS, t, 0);
    run_setup(&s3, PT_RANDOM_RANKS, t, 3);
  }
}
END_TEST

/* More ranks than cells, a degenerate (flat) box without margin, and a
 * cell size far too small for the cap. */
START_TEST(test_setup_degenerate)
{
  part_test_scene tiny = {2, 3, 2.0, 0.5, 1.0, 5};
  moreau_bodies *b;
  moreau_part *part;
  double lo[3], h;
  int n[3];
  const int *map;
  int64_t count;
  run_setup(&tiny, PT_ON_ROOT, MOREAU_PART_METIS, 0);
  run_setup(&tiny, PT_RANDOM_RANKS, MOREAU_PART_BLOCK, 1);
  run_setup(&tiny, PT_RANDOM_RANKS, MOREAU_PART_RCB, 1);

  part_test_scene line = {3, 500, 10.0, 0.5, 1.0, 6};
  PT_TRY(part_test_make_bodies(&line, PT_SLABS, &b));
  for (moreau_lid i = 0; i < b->n_owned; i++)
    b->x[3 * i + 1] = b->x[3 * i + 2] = 1.0;
  PT_TRY(moreau_part_create(MPI_COMM_WORLD, &part));
  moreau_part_set_cell_size(part, 1e-6);
  PT_TRY(moreau_part_setup(part, b, NULL, 0.0));
  moreau_part_get_grid(part, lo, &h, n, &map);
  ck_assert_int_le((int64_t)n[0] * n[1] * n[2], 1 << 20);
  ck_assert_int_eq(n[1] * n[2], 1);
  PT_TRY(moreau_bodies_global_count(b, &count, NULL));
  ck_assert_int_eq(count, line.n);
  PT_EXPECT(part_test_check_ownership(part, b), "owned bodies in this rank's cells");
  PT_TRY(moreau_part_destroy(&part));
  PT_TRY(moreau_bodies_destroy(&b));
}
END_TEST

static moreau_err setup_map(const part_test_scene *s, moreau_part *part, int **map, int *ncells)
{
  moreau_bodies *b;
  double lo[3], h;
  int n[3];
  const int *m;
  MOREAU_CALL(part_test_make_bodies(s, PT_SLABS, &b));
  MOREAU_CALL(moreau_part_setup(part, b, NULL, 0.0));
  moreau_part_get_grid(part, lo, &h, n, &m);
  *ncells = n[0] * n[1] * n[2];
  MOREAU_CALL(moreau_malloc((size_t)*ncells * sizeof(int), map));
  memcpy(*map, m, (size_t)*ncells * sizeof(int));
  MOREAU_CALL(moreau_bodies_destroy(&b));
  return MOREAU_SUCCESS;
}

START_TEST(test_set_from_options)
{
  part_test_scene s = {2, 2000, 60.0, 0.5, 1.0, 21};
  moreau_part *from_options, *by_hand;
  int *map1, *map2, n1, n2;
  double lo[3], h;
  int n[3];
  const int *m;
  PetscOptionsSetValue(NULL, "-part_type", "block");
  PetscOptionsSetValue(NULL, "-part_cell_size", "3.5");
  PetscOptionsSetValue(NULL, "-part_imbalance", "1.5");
  PT_TRY(moreau_part_create(MPI_COMM_WORLD, &from_options));
  PT_TRY(moreau_part_set_from_options(from_options));
  PT_TRY(setup_map(&s, from_options, &map1, &n1));
  moreau_part_get_grid(from_options, lo, &h, n, &m);
  ck_assert_double_eq(h, 3.5);
  PT_TRY(moreau_part_create(MPI_COMM_WORLD, &by_hand));
  moreau_part_set_type(by_hand, MOREAU_PART_BLOCK);
  moreau_part_set_cell_size(by_hand, 3.5);
  PT_TRY(setup_map(&s, by_hand, &map2, &n2));
  ck_assert_int_eq(n1, n2);
  ck_assert_int_eq(memcmp(map1, map2, (size_t)n1 * sizeof(int)), 0);
  moreau_free(&map1);
  moreau_free(&map2);

  PetscOptionsSetValue(NULL, "-part_imbalance", "0.5");
  ck_assert_int_eq(moreau_part_set_from_options(by_hand), MOREAU_ERR_INPUT);
  moreau_error_clear();
  PetscOptionsClearValue(NULL, "-part_imbalance");
  PetscOptionsSetValue(NULL, "-part_renumber_every", "-1");
  ck_assert_int_eq(moreau_part_set_from_options(by_hand), MOREAU_ERR_INPUT);
  moreau_error_clear();
  PetscOptionsClearValue(NULL, "-part_renumber_every");
  PetscOptionsSetValue(NULL, "-part_type", "scotch");
  ck_assert_int_eq(moreau_part_set_from_options(by_hand), MOREAU_ERR_INPUT);
  moreau_error_clear();
  PetscOptionsSetValue(NULL, "-part_type", "rcb");
  PT_TRY(moreau_part_set_from_options(by_hand));
  {
    moreau_bodies *b;
    moreau_part_map map;
    PT_TRY(part_test_make_bodies(&s, PT_SLABS, &b));
    PT_TRY(moreau_part_setup(by_hand, b, NULL, 0.0));
    moreau_part_get_map(by_hand, &map);
    ck_assert_int_eq(map.type, MOREAU_PART_RCB);
    ck_assert_ptr_null(map.cell_rank);
    PT_TRY(moreau_bodies_destroy(&b));
  }
  PetscOptionsClearValue(NULL, "-part_type");
  PetscOptionsClearValue(NULL, "-part_cell_size");
  PT_TRY(moreau_part_destroy(&from_options));
  PT_TRY(moreau_part_destroy(&by_hand));
  PT_TRY(moreau_part_destroy(&by_hand));
}
END_TEST

TCase *part_tcase_setup(void)
{
  TCase *tc = tcase_create("setup");
  tcase_add_test(tc, test_setup_from_bad_start);
  tcase_add_test(tc, test_setup_degenerate);
  tcase_add_test(tc, test_set_from_options);
  return tc;
}
