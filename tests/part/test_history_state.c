/* The warm-start history with law state through the partition: a history
 * of state width 3 whose force and state are known functions of the key
 * starts on the wrong ranks, goes through moreau_part_setup, an update that
 * moves every body across the domain and updates that repartition after a
 * drift. After each, every entry sits on the rank that owns its gid_a body,
 * the list is sorted by key, the force and every state value are exactly
 * those of the key, and no entry is lost or duplicated. Any number of ranks.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "part_test_util.h"

#define STATE_WIDTH 3

/* The known state of a key: distinct per component and per point, exact in
 * binary (the wall's gid enters through a small residue). */
static double state_of(moreau_gid ga, moreau_gid gb, int32_t point, int j)
{
  return (double)ga * 1000.0 + (double)(gb % 1009) + 0.25 * j + 0.0625 * point;
}

static moreau_err push_entry(moreau_contacts *h, moreau_gid ga, moreau_gid gb, int32_t point)
{
  moreau_lid i;
  MOREAU_CALL(moreau_contacts_push(h, ga, gb, point, -1, -1, &i));
  part_test_force(ga, gb, point, &h->force[3 * i]);
  for (int j = 0; j < STATE_WIDTH; j++)
    h->state[(size_t)STATE_WIDTH * i + j] = state_of(ga, gb, point, j);
  return MOREAU_SUCCESS;
}

/* Two entries per body, (gid, gid + 1, 0) and (gid, wall 0, 1), created on
 * rank (rank + shift) mod P, i.e. away from their bodies when shift is not a
 * multiple of P; the wall entry first, so the list also starts unsorted. */
static moreau_err make_history(const moreau_bodies *b, int shift, moreau_contacts **h)
{
  int rank, size, n_in = 0, n_out = b->n_owned;
  moreau_gid *gids;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MOREAU_CALL(moreau_contacts_create(STATE_WIDTH, h));
  int to = (rank + shift) % size, from = ((rank - shift) % size + size) % size;
  MOREAU_MPI_CALL(
      MPI_Sendrecv(&n_out, 1, MPI_INT, to, 1, &n_in, 1, MPI_INT, from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  MOREAU_CALL(moreau_malloc((size_t)n_in * sizeof(moreau_gid) + 1, &gids));
  MOREAU_MPI_CALL(MPI_Sendrecv(b->gid, n_out, MOREAU_GID_MPI, to, 2, gids, n_in, MOREAU_GID_MPI, from, 2,
                               MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  for (int k = 0; k < n_in; k++) {
    MOREAU_CALL(push_entry(*h, gids[k], MOREAU_WALL_GID(0), 1));
    MOREAU_CALL(push_entry(*h, gids[k], gids[k] + 1, 0));
  }
  moreau_free(&gids);
  return MOREAU_SUCCESS;
}

/* Owned bodies are stored along a Morton curve, not by gid: a scan. */
static int owns(const moreau_bodies *b, moreau_gid gid)
{
  for (moreau_lid i = 0; i < b->n_owned; i++)
    if (b->gid[i] == gid) return 1;
  return 0;
}

static int key_before(const moreau_contacts *h, moreau_lid i, moreau_lid j)
{
  if (h->gid_a[i] != h->gid_a[j]) return h->gid_a[i] < h->gid_a[j];
  if (h->gid_b[i] != h->gid_b[j]) return h->gid_b[i] < h->gid_b[j];
  return h->point[i] < h->point[j];
}

/* Violations on this rank of: gid_a owned here, strictly sorted by key, a key that was
 * made, the force and every state value of the key bit for bit, the state
 * width kept. */
static long check_history(const moreau_bodies *b, const moreau_contacts *h)
{
  long bad = h->state_width != STATE_WIDTH || moreau_contacts_fields(h)->var_width != STATE_WIDTH;
  for (moreau_lid j = 0; j < h->n; j++) {
    moreau_gid ga = h->gid_a[j], gb = h->gid_b[j];
    int32_t p = h->point[j];
    double f[3], st[STATE_WIDTH];
    if (!owns(b, ga)) bad++;
    if (j > 0 && !key_before(h, j - 1, j)) bad++;
    if (!((gb == ga + 1 && p == 0) || (gb == MOREAU_WALL_GID(0) && p == 1))) bad++;
    part_test_force(ga, gb, p, f);
    if (memcmp(f, &h->force[3 * j], sizeof(f))) bad++;
    for (int k = 0; k < STATE_WIDTH; k++)
      st[k] = state_of(ga, gb, p, k);
    if (memcmp(st, &h->state[(size_t)STATE_WIDTH * j], sizeof(st))) bad++;
  }
  return bad;
}

static void check_all(const part_test_scene *s, const moreau_part *part, const moreau_bodies *b,
                      const moreau_contacts *h, const char *when)
{
  int64_t count, gid_sum;
  long n_hist = part_test_sum(h->n);
  char what[160];
  PT_TRY(moreau_bodies_global_count(b, &count, &gid_sum));
  ck_assert_msg(count == s->n && gid_sum == s->n * (s->n + 1) / 2, "%s: bodies %lld (gid sum %lld), want %lld", when,
                (long long)count, (long long)gid_sum, (long long)s->n);
  snprintf(what, sizeof(what), "%s: owned bodies in this rank's cells, once", when);
  PT_EXPECT(part_test_check_ownership(part, b), what);
  snprintf(what, sizeof(what), "%s: history with its body, sorted, force and state of its key", when);
  PT_EXPECT(check_history(b, h), what);
  ck_assert_msg(n_hist == 2 * s->n, "%s: %ld history entries, want %lld", when, n_hist, (long long)(2 * s->n));
}

/* Moves every owned body by (dx, dy) (wrapped into [0, side)) and scales
 * its position by `scale` about the origin; returns the global number of
 * bodies that leave this rank's cells. */
static long move(const part_test_scene *s, const moreau_part *part, moreau_bodies *b, double dx, double dy,
                 double scale)
{
  int rank;
  long leaving = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    double *x = &b->x[3 * i];
    x[0] = scale * fmod(x[0] + dx, s->side);
    x[1] = scale * fmod(x[1] + dy, s->side);
    leaving += part_test_owner_of(part, x) != rank;
  }
  return part_test_sum(leaving);
}

static void run_history_state(const part_test_scene *s, moreau_part_type type, int shift)
{
  moreau_bodies *b;
  moreau_contacts *h;
  moreau_part *part;
  moreau_part_stats st;
  int size;
  long leaving;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* Bodies on pseudo-random ranks, unsorted; their history elsewhere. */
  PT_TRY(part_test_make_bodies(s, PT_RANDOM_RANKS, &b));
  PT_TRY(make_history(b, shift, &h));
  PT_TRY(moreau_part_create(MPI_COMM_WORLD, &part));
  moreau_part_set_type(part, type);
  moreau_part_set_imbalance(part, 1e9); /* no repartition while moving */
  PT_TRY(moreau_part_setup(part, b, h, 0.5));
  check_all(s, part, b, h, "after setup");

  /* Half the domain along x, a third along y: most bodies change rank. */
  leaving = move(s, part, b, 0.5 * s->side, s->side / 3.0, 1.0);
  PT_TRY(moreau_part_update(part, b, h, h->n));
  moreau_part_get_stats(part, &st);
  ck_assert_int_eq(st.migrated, leaving);
  if (size > 1) ck_assert_msg(leaving > 0, "the move must send bodies away");
  ck_assert_int_eq(st.repartitions, 0);
  check_all(s, part, b, h, "after the move");

  /* Every imbalance now repartitions; the bodies drift into a corner. */
  moreau_part_set_imbalance(part, 1.0);
  for (int it = 0; it < 3; it++) {
    move(s, part, b, 0.0, 0.0, it == 0 ? 0.5 : 1.0);
    PT_TRY(moreau_part_update(part, b, h, h->n));
    check_all(s, part, b, h, "after a repartition");
  }
  moreau_part_get_stats(part, &st);
  if (size > 1) ck_assert_msg(st.repartitions > 0, "the drift must repartition (%lld)", (long long)st.repartitions);
  PT_TRY(moreau_part_destroy(&part));
  PT_TRY(moreau_contacts_destroy(&h));
  PT_TRY(moreau_bodies_destroy(&b));
}

START_TEST(test_history_state_2d)
{
  part_test_scene s = {2, 3000, 80.0, 0.5, 1.0, 61};
  run_history_state(&s, MOREAU_PART_METIS, 1);
  run_history_state(&s, MOREAU_PART_BLOCK, 1);
  run_history_state(&s, MOREAU_PART_RCB, 1);
}
END_TEST

START_TEST(test_history_state_3d)
{
  part_test_scene s = {3, 3000, 24.0, 0.5, 1.0, 62};
  run_history_state(&s, MOREAU_PART_METIS, 1);
  run_history_state(&s, MOREAU_PART_BLOCK, 1);
  run_history_state(&s, MOREAU_PART_RCB, 1);
}
END_TEST

int main(int argc, char **argv)
{
  int status;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("part_history_state");
  TCase *tc = tcase_create("history_state");
  tcase_add_test(tc, test_history_state_2d);
  tcase_add_test(tc, test_history_state_3d);
  suite_add_tcase(s, tc);
  status = part_test_run(s);
  MPI_Finalize();
  return status;
}
