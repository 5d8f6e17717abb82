/* Values carried on the force-driven walls' reduction (issue 13 item 4): the
 * solver's convergence sums ride in the reduction that averages a
 * force-driven wall's velocity after every sweep. Here every rank carries
 * three known values with an op that takes the maximum of the first and
 * sums the rest; after one interface average the carried values must be the
 * reduced ones and the walls' velocities the same averages as without a
 * carry. All values are multiples of 1/4 below 2^20: every sum is exact. */
#include <math.h>
#include <stdlib.h>

#include "moreau/walls.h"
#include "part_test_cases.h"
#include "part_test_util.h"

#define NCARRY 3

/* The first value is a maximum, every other double (carried or a wall's sum)
 * a sum, as moreau_part_wall_carry asks of an op. */
static void max_then_sums(void *in, void *inout, int *len, MPI_Datatype *type)
{
  const double *a = in;
  double *b = inout;
  int bytes;
  MPI_Type_size(*type, &bytes);
  const int n = bytes / (int)sizeof(double);
  for (int e = 0; e < *len; e++, a += n, b += n)
    for (int k = 0; k < n; k++)
      b[k] = k == 0 ? fmax(a[k], b[k]) : a[k] + b[k];
}

/* Two walls: a fixed floor and a force-driven lid whose copy on rank r moves
 * at (r + 1, 2 (r + 1), 1/4); the lid is touched by every rank but rank 1. */
static void make_walls(int rank, moreau_walls **w)
{
  const double o[3] = {0, 0, 0}, up[3] = {0, 1, 0}, top[3] = {0, 10, 0}, down[3] = {0, -1, 0};
  const double lid_v[3] = {rank + 1.0, 2.0 * (rank + 1), 0.25}, still[3] = {0, 0, 0};
  PT_TRY(moreau_walls_create(w));
  PT_TRY(moreau_walls_add(*w, o, up, MOREAU_WALL_VELOCITY, still, 0.0, 0.0, 0, NULL));
  PT_TRY(moreau_walls_add(*w, top, down, MOREAU_WALL_FORCE, lid_v, 5.0, 1.0, 0, NULL));
}

/* What the lid's average is: over the touching ranks. */
static void lid_average(int size, double *want)
{
  double n = 0.0;
  want[0] = want[1] = want[2] = 0.0;
  for (int r = 0; r < size; r++) {
    if (r == 1) continue;
    want[0] += r + 1.0;
    want[1] += 2.0 * (r + 1);
    want[2] += 0.25;
    n += 1.0;
  }
  for (int k = 0; k < 3; k++)
    want[k] /= n;
}

static void run_carry(const part_test_scene *s)
{
  int rank, size;
  moreau_bodies *b;
  moreau_part *part;
  moreau_walls *w;
  char *touched, wall_touched[2];
  double *mult, share[2], want[3], sent[NCARRY], got[NCARRY] = {-1, -1, -1};
  MPI_Op op;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  PT_TRY(part_test_make_bodies(s, PT_RANDOM_RANKS, &b));
  PT_TRY(moreau_part_create(MPI_COMM_WORLD, &part));
  PT_TRY(moreau_part_setup(part, b, NULL, 0.5));
  PT_TRY(moreau_part_ghosts(part, b, s->rmax + 0.25));
  const moreau_part_velocities bv = part_test_body_velocities(b);
  touched = calloc((size_t)moreau_bodies_n_local(b) + 1, 1);
  mult = malloc((size_t)moreau_bodies_n_local(b) * sizeof(double) + 1);
  PT_TRY(moreau_part_interface_build(part, b, touched, mult));
  make_walls(rank, &w);
  wall_touched[0] = 1;
  wall_touched[1] = rank != 1;
  PT_TRY(moreau_part_wall_interface_build(part, w, wall_touched, share));
  MPI_Op_create(max_then_sums, 1, &op);

  /* One rank holds every copy: there is no reduction to ride on. */
  ck_assert_int_eq(moreau_part_wall_reduces(part, w), size > 1);
  ck_assert_int_eq(moreau_part_wall_reduces(part, NULL), 0);
  sent[0] = 0.25 * rank;
  sent[1] = 1.0;
  sent[2] = 0.5 * (rank + 1);
  if (size == 1) {
    ck_assert_int_eq(moreau_part_wall_carry(part, sent, NCARRY, op, got), MOREAU_ERR_INTERNAL);
    moreau_error_clear();
  } else {
    ck_assert_int_eq(moreau_part_wall_carry(part, sent, MOREAU_PART_CARRY_MAX + 1, op, got), MOREAU_ERR_INTERNAL);
    moreau_error_clear();
    PT_TRY(moreau_part_wall_carry(part, sent, NCARRY, op, got));
    ck_assert_int_eq(moreau_part_wall_carry(part, sent, NCARRY, op, got), MOREAU_ERR_INTERNAL);
    moreau_error_clear();
    sent[0] = sent[1] = sent[2] = -7.0; /* taken at the call: later changes do not travel */
    PT_TRY(moreau_part_interface_average(part, b, &bv, w));
    PT_EXPECT(got[0] != 0.25 * (size - 1), "the carried maximum");
    PT_EXPECT(got[1] != size, "the carried count");
    PT_EXPECT(got[2] != 0.25 * size * (size + 1), "the carried sum");
  }
  lid_average(size, want);
  PT_EXPECT(w->velocity[3] != want[0] || w->velocity[4] != want[1] || w->velocity[5] != want[2],
            "the lid's average beside the carried values");
  PT_EXPECT(w->velocity[0] != 0 || w->velocity[1] != 0 || w->velocity[2] != 0, "the fixed wall left alone");

  /* The next average carries nothing and leaves the last result alone. */
  for (int k = 0; k < 3; k++)
    w->velocity[3 + k] = k == 0 ? rank + 1.0 : k == 1 ? 2.0 * (rank + 1) : 0.25;
  got[0] = got[1] = got[2] = -1.0;
  PT_TRY(moreau_part_interface_average(part, b, &bv, w));
  PT_EXPECT(got[0] != -1.0 || got[1] != -1.0 || got[2] != -1.0, "nothing carried, nothing written");
  PT_EXPECT(w->velocity[3] != want[0] || w->velocity[4] != want[1] || w->velocity[5] != want[2],
            "the lid's average without a carry");

  MPI_Op_free(&op);
  free(touched);
  free(mult);
  PT_TRY(moreau_walls_destroy(&w));
  PT_TRY(moreau_part_destroy(&part));
  PT_TRY(moreau_bodies_destroy(&b));
}

START_TEST(test_wall_carry)
{
  part_test_scene s = {2, 400, 30.0, 0.5, 1.0, 63};
  run_carry(&s);
}
END_TEST

TCase *part_tcase_wall_carry(void)
{
  TCase *tc = tcase_create("wall_carry");
  tcase_add_test(tc, test_wall_carry);
  return tc;
}
