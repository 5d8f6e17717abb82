/* Interface average: every copy gets a known velocity (a function of its
 * rank and gid), the touched sets are pseudo-random; after interface_build
 * and interface_average every holder copy and the owner's copy must equal
 * the average over the holders computed here from the gathered copies,
 * mult the holder count, and the other copies must be untouched. The
 * values are multiples of 1/4 below 2^20, so every sum is exact and the
 * expected average is the correctly rounded quotient whatever the order.
 * Interface sum: the same with per-body values of another width, summed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "part_test_cases.h"
#include "part_test_util.h"

#define MAXC 6
/* Gathered record: gid, rank, is_ghost, touched, mult, velocity[MAXC]. */
#define REC (5 + MAXC)

static uint64_t mix(int rank, moreau_gid gid)
{
  uint64_t h = (uint64_t)gid * 0x9e3779b97f4a7c15ULL ^ (uint64_t)(rank + 1) * 0xc2b2ae3d27d4eb4fULL;
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 32);
}

/* Owners touch most of their bodies, ghosts a third. */
static int touched_copy(int rank, moreau_gid gid, int ghost)
{
  return ghost ? mix(rank, gid) % 3 == 0 : mix(rank, gid) % 4 != 0;
}

static double initial(int rank, moreau_gid gid, int c) { return 0.5 * (rank + 1) + 0.25 * (double)(gid % 1000) + c; }

/* The velocity components the average acts on, as in the library. */
static void components(int dim, const moreau_bodies *b, moreau_lid i, double *out)
{
  if (dim == 2) {
    out[0] = b->v[3 * i];
    out[1] = b->v[3 * i + 1];
    out[2] = b->w[3 * i + 2];
    return;
  }
  for (int k = 0; k < 3; k++) {
    out[k] = b->v[3 * i + k];
    out[3 + k] = b->w[3 * i + k];
  }
}

/* Component c of what the average acts on. */
static double *component(int dim, moreau_bodies *b, moreau_lid i, int c)
{
  if (dim == 2) return c < 2 ? &b->v[3 * i + c] : &b->w[3 * i + 2];
  return c < 3 ? &b->v[3 * i + c] : &b->w[3 * i + c - 3];
}

static void set_initial(int dim, int rank, moreau_bodies *b)
{
  for (moreau_lid i = 0; i < moreau_bodies_n_local(b); i++) {
    double c[MAXC];
    for (int k = 0; k < MAXC; k++)
      c[k] = initial(rank, b->gid[i], k);
    memset(&b->v[3 * i], 0, 3 * sizeof(double));
    memset(&b->w[3 * i], 0, 3 * sizeof(double));
    if (dim == 2) {
      b->v[3 * i] = c[0];
      b->v[3 * i + 1] = c[1];
      b->w[3 * i + 2] = c[2];
    } else {
      memcpy(&b->v[3 * i], c, 3 * sizeof(double));
      memcpy(&b->w[3 * i], c + 3, 3 * sizeof(double));
    }
  }
}

static int cmp_rec(const void *pa, const void *pb)
{
  const double *a = pa, *b = pb;
  moreau_gid ga = part_test_double_to_gid(a[0]), gb = part_test_double_to_gid(b[0]);
  if (ga != gb) return (ga > gb) - (ga < gb);
  return (a[1] > b[1]) - (a[1] < b[1]);
}

/* On rank 0: violations over all copies, of the average over the holders
 * (of their sum when average is 0); *n_iface counts bodies that need the
 * exchange (two holders or more, or a holder that is not the owner);
 * *spread is the largest |holder copy - average| over the first nv
 * components. */
static long check_copies(int nc, int nv, int average, double *all, long n, long *n_iface, double *spread)
{
  long bad = 0;
  *n_iface = 0;
  *spread = 0.0;
  qsort(all, (size_t)n, REC * sizeof(double), cmp_rec);
  for (long first = 0, last; first < n; first = last) {
    moreau_gid gid = part_test_double_to_gid(all[REC * first]);
    double sum[MAXC] = {0}, avg[MAXC];
    int k = 0, owner = -1, owner_holds = 0;
    for (last = first; last < n && part_test_double_to_gid(all[REC * last]) == gid; last++) {
      const double *r = &all[REC * last];
      if (r[2] == 0.0) {
        bad += owner >= 0;
        owner = (int)r[1];
        owner_holds = r[3] != 0.0;
      }
      if (r[3] == 0.0) continue;
      k++;
      for (int c = 0; c < nc; c++)
        sum[c] += initial((int)r[1], gid, c);
    }
    bad += owner < 0;
    if (k >= 2 || (k == 1 && !owner_holds)) (*n_iface)++;
    for (int c = 0; c < nc; c++)
      avg[c] = average ? sum[c] / k : sum[c];
    for (long j = first; j < last; j++) {
      const double *r = &all[REC * j];
      int is_owner = r[2] == 0.0, holder = r[3] != 0.0, rank = (int)r[1];
      for (int c = 0; c < nv && holder; c++)
        *spread = fmax(*spread, fabs(initial(rank, gid, c) - avg[c]));
      double expect_mult = is_owner ? (k > 1 ? k : 1) : (holder ? k : 1);
      int averaged = holder || (is_owner && k > 0);
      if (r[4] != expect_mult) bad++;
      for (int c = 0; c < nc; c++)
        if (r[5 + c] != (averaged ? avg[c] : initial(rank, gid, c))) bad++;
    }
  }
  return bad;
}

/* The copy split: every copy starts at common(gid), and holder copies
 * then change by their scale times change(rank, gid). */
static double common(moreau_gid gid, int c) { return 0.25 * (double)(gid % 1000) + c; }
static double change(int rank, moreau_gid gid, int c) { return 0.25 * (double)(rank + 1 + (gid + c) % 5); }

/* On rank 0: violations over all copies after `rounds` such changes of a
 * solve started at common(gid) (round j's change is j times change()): the
 * averaged copies (holders, the owner) must hold common + the sum over the
 * holders of all rounds' changes, the change the impulses give the whole
 * body whatever the split; the other copies common. */
static long check_split(int nc, int rounds, double *all, long n)
{
  long bad = 0;
  qsort(all, (size_t)n, REC * sizeof(double), cmp_rec);
  for (long first = 0, last; first < n; first = last) {
    moreau_gid gid = part_test_double_to_gid(all[REC * first]);
    double want[MAXC];
    int k = 0;
    for (int c = 0; c < nc; c++)
      want[c] = common(gid, c);
    for (last = first; last < n && part_test_double_to_gid(all[REC * last]) == gid; last++) {
      const double *r = &all[REC * last];
      if (r[3] == 0.0) continue;
      k++;
      for (int c = 0; c < nc; c++)
        want[c] += 0.5 * rounds * (rounds + 1) * change((int)r[1], gid, c);
    }
    for (long j = first; j < last; j++) {
      const double *r = &all[REC * j];
      int averaged = r[3] != 0.0 || (r[2] == 0.0 && k > 0);
      for (int c = 0; c < nc; c++) {
        double expect = averaged ? want[c] : common(gid, c);
        bad += !(fabs(r[5 + c] - expect) <= 1e-12 * (fabs(expect) + 1.0));
      }
    }
  }
  return bad;
}

/* Sets every copy to common(gid), starts a solve with the split, and runs
 * `rounds` averages, the holder copies changing by their scale times j
 * change() before average j; the velocities go to rec. */
static void run_split(int dim, int rank, moreau_part *part, moreau_bodies *b, const char *touched, const double *mult,
                      double split, int rounds, double *rec)
{
  int nc = dim == 2 ? 3 : 6;
  const moreau_part_velocities bv = part_test_body_velocities(b);
  for (moreau_lid i = 0; i < moreau_bodies_n_local(b); i++) {
    memset(&b->v[3 * i], 0, 3 * sizeof(double));
    memset(&b->w[3 * i], 0, 3 * sizeof(double));
    for (int c = 0; c < nc; c++)
      *component(dim, b, i, c) = common(b->gid[i], c);
  }
  PT_TRY(moreau_part_interface_start(part, b, &bv, split));
  for (int j = 1; j <= rounds; j++) {
    for (moreau_lid i = 0; i < moreau_bodies_n_local(b); i++)
      for (int c = 0; touched[i] && c < nc; c++)
        *component(dim, b, i, c) += moreau_part_copy_scale(mult[i], split) * j * change(rank, b->gid[i], c);
    PT_TRY(moreau_part_interface_average(part, b, &bv, NULL));
  }
  for (moreau_lid i = 0; i < moreau_bodies_n_local(b); i++)
    components(dim, b, i, &rec[(size_t)REC * i + 5]);
}

/* Whether copy i is outside the interface exchange. */
static int free_copy(const moreau_bodies *b, const char *touched, const double *mult, moreau_lid i)
{
  return i >= b->n_owned ? !touched[i] : touched[i] && mult[i] == 1.0;
}

static void run_interface(const part_test_scene *s, moreau_part_type type)
{
  int rank, size, nc = s->dim == 2 ? 3 : 6, *counts;
  moreau_bodies *b;
  moreau_part *part;
  moreau_part_stats st;
  moreau_lid n_local;
  char *touched;
  double *mult, *rec, *all, *first, *values;
  long bad = 0, n_iface = 0, n_total, local_bad = 0, n_mult = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  PT_TRY(part_test_make_bodies(s, PT_RANDOM_RANKS, &b));
  PT_TRY(moreau_part_create(MPI_COMM_WORLD, &part));
  moreau_part_set_type(part, type);
  PT_TRY(moreau_part_setup(part, b, NULL, 0.5));
  PT_TRY(moreau_part_ghosts(part, b, s->rmax + 0.25));
  n_local = moreau_bodies_n_local(b);
  moreau_part_velocities bv = part_test_body_velocities(b);
  touched = malloc((size_t)n_local + 1);
  mult = malloc((size_t)n_local * sizeof(double) + 1);
  rec = malloc((size_t)n_local * REC * sizeof(double) + 1);
  first = malloc((size_t)n_local * MAXC * sizeof(double) + 1);
  for (moreau_lid i = 0; i < n_local; i++)
    touched[i] = (char)touched_copy(rank, b->gid[i], i >= b->n_owned);
  set_initial(s->dim, rank, b);
  PT_TRY(moreau_part_interface_build(part, b, touched, mult));
  PT_TRY(moreau_part_interface_average(part, b, &bv, NULL));
  double spread = moreau_part_interface_spread(part), want_spread;
  MPI_Allreduce(MPI_IN_PLACE, &spread, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);

  for (moreau_lid i = 0; i < n_local; i++) {
    double *r = &rec[(size_t)REC * i];
    memset(r, 0, REC * sizeof(double));
    r[0] = part_test_gid_to_double(b->gid[i]);
    r[1] = rank;
    r[2] = i >= b->n_owned;
    r[3] = touched[i];
    r[4] = mult[i];
    components(s->dim, b, i, &r[5]);
    components(s->dim, b, i, &first[(size_t)MAXC * i]);
    if (s->dim == 2) local_bad += b->v[3 * i + 2] != 0.0 || b->w[3 * i] != 0.0 || b->w[3 * i + 1] != 0.0;
    n_mult += mult[i] > 1.0;
  }
  PT_EXPECT(local_bad, "unused 2D components untouched");
  moreau_part_get_stats(part, &st);
  ck_assert_int_eq(part_test_sum(st.interface_bodies != n_mult), 0);
  if (size == 1) ck_assert_int_eq(st.sweep_messages, 0);
  n_total = part_test_sum(n_local);
  part_test_gather(rec, n_local, REC, &all, &counts);
  if (rank == 0) bad = check_copies(nc, s->dim, 1, all, n_total, &n_iface, &want_spread);
  MPI_Bcast(&n_iface, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  MPI_Bcast(&want_spread, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  PT_EXPECT(bad, "copies equal the average over holders, mult the holder count");
  ck_assert_msg(spread == want_spread, "interface spread %.17g, want %.17g", spread, want_spread);
  if (size > 1) ck_assert(spread > 0.0);
  if (size > 1) ck_assert_int_gt(n_iface, 20);
  free(all);
  free(counts);

  /* The same inputs give bitwise the same result, with the same plan and
   * with a rebuilt one. */
  for (int rebuild = 0; rebuild < 2; rebuild++) {
    local_bad = 0;
    set_initial(s->dim, rank, b);
    if (rebuild) PT_TRY(moreau_part_interface_build(part, b, touched, mult));
    PT_TRY(moreau_part_interface_average(part, b, &bv, NULL));
    for (moreau_lid i = 0; i < n_local; i++) {
      double c[MAXC] = {0};
      components(s->dim, b, i, c);
      local_bad += memcmp(c, &first[(size_t)MAXC * i], (size_t)nc * sizeof(double)) != 0;
    }
    PT_EXPECT(local_bad, "bitwise identical averages");
  }

  /* In two halves: between begin and end, bodies the exchange does not
   * carry (ghosts untouched here, owned bodies touched here and by no other
   * rank) may change and keep their change; the others average as in one
   * call. An exchange cannot begin twice or end unbegun. */
  set_initial(s->dim, rank, b);
  PT_TRY(moreau_part_interface_average_begin(part, b, &bv, NULL));
  ck_assert_int_eq(moreau_part_interface_average_begin(part, b, &bv, NULL), MOREAU_ERR_INTERNAL);
  moreau_error_clear();
  for (moreau_lid i = 0; i < n_local; i++)
    if (free_copy(b, touched, mult, i)) b->v[3 * i] = -1.0 - (double)i;
  PT_TRY(moreau_part_interface_average_end(part));
  ck_assert_int_eq(moreau_part_interface_average_end(part), MOREAU_ERR_INTERNAL);
  moreau_error_clear();
  local_bad = 0;
  for (moreau_lid i = 0; i < n_local; i++) {
    double c[MAXC] = {0};
    components(s->dim, b, i, c);
    if (free_copy(b, touched, mult, i))
      local_bad += c[0] != -1.0 - (double)i || memcmp(c + 1, &first[(size_t)MAXC * i + 1], (size_t)(nc - 1) * 8);
    else
      local_bad += memcmp(c, &first[(size_t)MAXC * i], (size_t)nc * sizeof(double)) != 0;
  }
  PT_EXPECT(local_bad, "begin/end: the exchanged copies average, the others keep their change");

  /* A copy split below 1: each copy sees the body heavier than M / k, and
   * the averages add the copies' changes up in proportion (two averages of
   * one solve); a split of 1 is the plain average. Splits outside [0.5, 1]
   * are refused. */
  for (int t = 0; t < 3; t++) {
    const double split[3] = {0.5, 0.6, 1.0};
    run_split(s->dim, rank, part, b, touched, mult, split[t], 2, rec);
    part_test_gather(rec, n_local, REC, &all, &counts);
    if (rank == 0) bad = check_split(nc, 2, all, n_total);
    MPI_Bcast(&bad, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    ck_assert_msg(bad == 0, "copy split %g: %ld copies off the whole body's change", split[t], bad);
    free(all);
    free(counts);
  }
  ck_assert_int_eq(moreau_part_interface_start(part, b, &bv, 1.5), MOREAU_ERR_INTERNAL);
  ck_assert_int_eq(moreau_part_interface_start(part, b, &bv, 0.4), MOREAU_ERR_INTERNAL);
  moreau_error_clear();

  /* The sum over the holders, MAXC values per body: wider than the 2D
   * average, so the buffers grow. */
  values = malloc((size_t)n_local * MAXC * sizeof(double) + 1);
  for (moreau_lid i = 0; i < n_local; i++)
    for (int c = 0; c < MAXC; c++)
      values[(size_t)MAXC * i + c] = initial(rank, b->gid[i], c);
  PT_TRY(moreau_part_interface_sum(part, b, values, MAXC));
  for (moreau_lid i = 0; i < n_local; i++)
    memcpy(&rec[(size_t)REC * i + 5], &values[(size_t)MAXC * i], MAXC * sizeof(double));
  part_test_gather(rec, n_local, REC, &all, &counts);
  if (rank == 0) bad = check_copies(MAXC, 0, 0, all, n_total, &n_iface, &want_spread);
  PT_EXPECT(bad, "copies equal the sum over holders");
  free(all);
  free(counts);

  /* New ghosts invalidate the plan. */
  PT_TRY(moreau_part_ghosts(part, b, s->rmax + 0.25));
  bv = part_test_body_velocities(b);
  ck_assert_int_eq(moreau_part_interface_average(part, b, &bv, NULL), MOREAU_ERR_INTERNAL);
  moreau_error_clear();
  ck_assert_int_eq(moreau_part_interface_sum(part, b, values, MAXC), MOREAU_ERR_INTERNAL);
  moreau_error_clear();
  free(values);

  free(touched);
  free(mult);
  free(rec);
  free(first);
  PT_TRY(moreau_part_destroy(&part));
  PT_TRY(moreau_bodies_destroy(&b));
}

START_TEST(test_interface_2d)
{
  part_test_scene s = {2, 3000, 80.0, 0.5, 1.0, 61};
  run_interface(&s, MOREAU_PART_METIS);
  run_interface(&s, MOREAU_PART_BLOCK);
  run_interface(&s, MOREAU_PART_RCB);
}
END_TEST

START_TEST(test_interface_3d)
{
  part_test_scene s = {3, 3000, 24.0, 0.5, 1.0, 62};
  run_interface(&s, MOREAU_PART_METIS);
  run_interface(&s, MOREAU_PART_BLOCK);
  run_interface(&s, MOREAU_PART_RCB);
}
END_TEST

TCase *part_tcase_interface(void)
{
  TCase *tc = tcase_create("interface");
  tcase_add_test(tc, test_interface_2d);
  tcase_add_test(tc, test_interface_3d);
  return tc;
}
