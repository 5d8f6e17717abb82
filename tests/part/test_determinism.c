/* Determinism: the same input twice gives identical partitions, bodies,
 * history and ghosts, also through a forced repartition; and the partition
 * does not depend on which rank the bodies start on. */
#include <string.h>

#include "part_test_cases.h"
#include "part_test_util.h"

typedef struct {
  moreau_bodies *b;
  moreau_contacts *h;
  moreau_part *part;
} run_state;

static void start(run_state *r, const part_test_scene *s, part_test_layout layout, int shift, moreau_part_type type)
{
  PT_TRY(part_test_make_bodies(s, layout, &r->b));
  PT_TRY(part_test_make_history(r->b, shift, &r->h));
  PT_TRY(moreau_part_create(MPI_COMM_WORLD, &r->part));
  moreau_part_set_type(r->part, type);
  /* Every update repartitions: imbalance is never below 1. */
  moreau_part_set_imbalance(r->part, 1.0);
  PT_TRY(moreau_part_setup(r->part, r->b, r->h, 0.5));
}

static void finish(run_state *r)
{
  PT_TRY(moreau_part_destroy(&r->part));
  PT_TRY(moreau_contacts_destroy(&r->h));
  PT_TRY(moreau_bodies_destroy(&r->b));
}

/* Violations on this rank of: identical local bodies (owned and ghosts). */
static long same_bodies(const moreau_bodies *x, const moreau_bodies *y)
{
  size_t n = (size_t)moreau_bodies_n_local(x);
  if (x->n_owned != y->n_owned || x->n_ghost != y->n_ghost) return 1;
  return memcmp(x->gid, y->gid, n * sizeof(moreau_gid)) != 0 || memcmp(x->x, y->x, 3 * n * sizeof(double)) != 0 ||
         memcmp(x->v, y->v, 3 * n * sizeof(double)) != 0 || memcmp(x->radius, y->radius, n * sizeof(double)) != 0;
}

static long same_history(const moreau_contacts *x, const moreau_contacts *y)
{
  size_t n = (size_t)x->n;
  if (x->n != y->n) return 1;
  return memcmp(x->gid_a, y->gid_a, n * sizeof(moreau_gid)) != 0 ||
         memcmp(x->gid_b, y->gid_b, n * sizeof(moreau_gid)) != 0 ||
         memcmp(x->point, y->point, n * sizeof(int32_t)) != 0 ||
         memcmp(x->force, y->force, 3 * n * sizeof(double)) != 0;
}

/* Shears the bodies along x in proportion to y, deterministically. */
static void shear(moreau_bodies *b, double amount)
{
  for (moreau_lid i = 0; i < b->n_owned; i++)
    b->x[3 * i] += amount * b->x[3 * i + 1];
}

static void run_twice(const part_test_scene *s, moreau_part_type type)
{
  run_state a, b;
  start(&a, s, PT_RANDOM_RANKS, 1, type);
  start(&b, s, PT_RANDOM_RANKS, 1, type);
  PT_EXPECT(part_test_maps_differ(a.part, b.part), "same partition after setup");
  PT_EXPECT(same_bodies(a.b, b.b), "same bodies after setup");
  PT_EXPECT(same_history(a.h, b.h), "same history after setup");
  for (int it = 0; it < 2; it++) {
    shear(a.b, 0.3);
    shear(b.b, 0.3);
    PT_TRY(moreau_part_update(a.part, a.b, a.h, a.h->n));
    PT_TRY(moreau_part_update(b.part, b.b, b.h, b.h->n));
    PT_TRY(moreau_part_ghosts(a.part, a.b, s->rmax + 0.25));
    PT_TRY(moreau_part_ghosts(b.part, b.b, s->rmax + 0.25));
    PT_EXPECT(part_test_maps_differ(a.part, b.part), "same partition after a repartition");
    PT_EXPECT(same_bodies(a.b, b.b), "same bodies and ghosts after a repartition");
    PT_EXPECT(same_history(a.h, b.h), "same history after a repartition");
  }
  finish(&a);
  finish(&b);
}

static void run_start_independence(const part_test_scene *s, moreau_part_type type)
{
  run_state a, b;
  start(&a, s, PT_SLABS, 0, type);
  start(&b, s, PT_ON_ROOT, 0, type);
  PT_EXPECT(part_test_maps_differ(a.part, b.part), "partition independent of the starting ranks");
  PT_EXPECT(same_bodies(a.b, b.b), "bodies independent of the starting ranks");
  PT_EXPECT(same_history(a.h, b.h), "history independent of the starting ranks");
  finish(&a);
  finish(&b);
}

START_TEST(test_determinism_2d)
{
  part_test_scene s = {2, 2500, 70.0, 0.5, 1.0, 71};
  run_twice(&s, MOREAU_PART_METIS);
  run_twice(&s, MOREAU_PART_BLOCK);
  run_twice(&s, MOREAU_PART_RCB);
  run_start_independence(&s, MOREAU_PART_METIS);
  run_start_independence(&s, MOREAU_PART_BLOCK);
  run_start_independence(&s, MOREAU_PART_RCB);
}
END_TEST

START_TEST(test_determinism_3d)
{
  part_test_scene s = {3, 2500, 22.0, 0.5, 1.0, 72};
  run_twice(&s, MOREAU_PART_METIS);
  run_start_independence(&s, MOREAU_PART_METIS);
  run_twice(&s, MOREAU_PART_RCB);
  run_start_independence(&s, MOREAU_PART_RCB);
}
END_TEST

TCase *part_tcase_determinism(void)
{
  TCase *tc = tcase_create("determinism");
  tcase_add_test(tc, test_determinism_2d);
  tcase_add_test(tc, test_determinism_3d);
  return tc;
}
