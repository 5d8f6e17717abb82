/* Owned bodies stored along a Morton curve: after setup, after the updates
 * that renumber and after a repartition every rank's bodies are in curve
 * order (ties by gid) with every field moved with its gid; with
 * renumbering off they keep their input order with migrants appended. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "moreau/morton.h"
#include "part_test_cases.h"
#include "part_test_util.h"

/* Violations on this rank of: the owned bodies in Morton order over the
 * cube on the grid's corner with the grid's longest edge (2^31 points per
 * axis in 2D, 2^21 in 3D), equal keys by gid. */
static long check_morton_order(const moreau_part *part, const moreau_bodies *b)
{
  double lo[3] = {0, 0, 0}, edge = 0.0, h;
  int n[3];
  const int *map;
  long bad = 0;
  uint64_t prev = 0;
  moreau_part_get_grid(part, lo, &h, n, &map);
  for (int d = 0; d < b->dim; d++)
    edge = fmax(edge, n[d] * h);
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    uint64_t key = moreau_morton_key(&b->x[3 * i], lo, edge, b->dim, b->dim == 2 ? 31 : 21);
    if (i > 0 && (key < prev || (key == prev && b->gid[i] <= b->gid[i - 1]))) bad++;
    prev = key;
  }
  return bad;
}

/* Violations of: every owned body is the scene's body of its gid, with its
 * position moved by `shift` along x. */
static long check_fields_follow_gid(const part_test_scene *s, const moreau_bodies *b, double shift)
{
  long bad = 0;
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    moreau_body expect, got;
    part_test_body(s, b->gid[i], &expect);
    expect.x[0] += shift;
    moreau_bodies_get(b, i, &got);
    if (memcmp(expect.x, got.x, sizeof(got.x)) || memcmp(expect.v, got.v, sizeof(got.v)) ||
        memcmp(expect.w, got.w, sizeof(got.w)) || expect.radius != got.radius || expect.inv_mass != got.inv_mass)
      bad++;
  }
  return bad;
}

/* Moves every owned body by dx along x (in place, so the sums stay exact). */
static void shift_all(moreau_bodies *b, double dx)
{
  for (moreau_lid i = 0; i < b->n_owned; i++)
    b->x[3 * i] += dx;
}

static void run_renumber(const part_test_scene *s, int every)
{
  moreau_bodies *b;
  moreau_contacts *h;
  moreau_part *part;
  const double dx = 0.25;
  PT_TRY(part_test_make_bodies(s, PT_RANDOM_RANKS, &b));
  PT_TRY(part_test_make_history(b, 1, &h));
  PT_TRY(moreau_part_create(MPI_COMM_WORLD, &part));
  moreau_part_set_renumber_every(part, every);
  PT_TRY(moreau_part_setup(part, b, h, 1.0));
  PT_EXPECT(check_morton_order(part, b), "setup: owned bodies in Morton order");
  PT_EXPECT(check_fields_follow_gid(s, b, 0.0), "setup: every field with its gid");
  /* Updates 1 .. every - 1 leave the order to migration; update `every`
   * renumbers. A shift of a quarter of a body moves some bodies across
   * cells (and ranks), and changes keys, so the curve order breaks. */
  for (int u = 1; u <= every; u++) {
    shift_all(b, dx);
    PT_TRY(moreau_part_update(part, b, h, h->n));
  }
  PT_EXPECT(check_morton_order(part, b), "after `every` updates: owned bodies in Morton order");
  PT_EXPECT(check_fields_follow_gid(s, b, every * dx), "after `every` updates: every field with its gid");
  PT_EXPECT(part_test_check_ownership(part, b), "owned bodies in this rank's cells, once");
  PT_EXPECT(part_test_check_history(b, h), "history with its body, forces kept, sorted");
  PT_TRY(moreau_part_destroy(&part));
  PT_TRY(moreau_contacts_destroy(&h));
  PT_TRY(moreau_bodies_destroy(&b));
}

START_TEST(test_renumber_morton)
{
  part_test_scene s2 = {2, 3000, 80.0, 0.5, 1.0, 31}, s3 = {3, 3000, 24.0, 0.5, 1.0, 32};
  run_renumber(&s2, 1);
  run_renumber(&s2, 3);
  run_renumber(&s3, 1);
  run_renumber(&s3, 2);
}
END_TEST

/* The check itself must fail on bodies that are not in curve order: the
 * input order of a random scene is not. */
START_TEST(test_renumber_off)
{
  part_test_scene s = {2, 2000, 60.0, 0.5, 1.0, 33};
  moreau_bodies *b;
  moreau_part *part;
  moreau_gid *before;
  moreau_lid n0;
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  PT_TRY(part_test_make_bodies(&s, PT_ON_ROOT, &b));
  n0 = b->n_owned;
  before = malloc((size_t)n0 * sizeof(*before) + 1);
  if (n0 > 0) memcpy(before, b->gid, (size_t)n0 * sizeof(*before));
  PT_TRY(moreau_part_create(MPI_COMM_WORLD, &part));
  moreau_part_set_renumber_every(part, 0);
  PT_TRY(moreau_part_setup(part, b, NULL, 1.0));
  ck_assert_int_gt(part_test_sum(check_morton_order(part, b)), 0);
  /* On one rank nothing moves: the input order stays. */
  if (size == 1) {
    ck_assert_int_eq(b->n_owned, n0);
    ck_assert_int_eq(memcmp(before, b->gid, (size_t)n0 * sizeof(*before)), 0);
  }
  PT_EXPECT(check_fields_follow_gid(&s, b, 0.0), "every field with its gid");
  free(before);
  PT_TRY(moreau_part_destroy(&part));
  PT_TRY(moreau_bodies_destroy(&b));
}
END_TEST

TCase *part_tcase_renumber(void)
{
  TCase *tc = tcase_create("renumber");
  tcase_add_test(tc, test_renumber_morton);
  tcase_add_test(tc, test_renumber_off);
  return tc;
}
