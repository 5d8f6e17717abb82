/* Communication audit (issue 13 item 2): while a pile drifts across the
 * subdomains of 2-16 ranks, every MPI call the library makes inside a step
 * is counted through PMPI wrappers defined here (the program exports them,
 * so libmoreau's calls bind to them). A step must use no all-to-all or
 * all-gather at all, no rooted collective (broadcast, gather, scatter,
 * reduce) unless it repartitions, only a bounded number of small reductions
 * besides the solver's convergence checks, and point-to-point messages only
 * to ranks owning cells within the ghost reach of its own cells.
 *
 * The reach: a body is copied to the ranks owning cells within r + rmax +
 * alert of its centre, which is less than two cells (edge 2 rmax) for the
 * small alert distance here, and a body moves much less than a cell per step;
 * so every legitimate peer owns a cell within NEIGHBOUR_CELLS cells (index
 * distance along each axis) of one of this rank's cells. The same runs with
 * recursive coordinate bisection, whose neighbours are the ranks whose
 * regions come within NEIGHBOUR_CELLS cell edges of this rank's, and whose
 * repartitions must gather nothing to a root either. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "invariance.h"
#include "parallel.h"

#define STEPS 200
#define NEIGHBOUR_CELLS 2
/* Reductions per step outside the solver's checks (counted on one build of
 * the step: part update, guard, kinematics, detection sizes) may not grow
 * with P; the bound leaves room for a few more, not for one per rank. */
#define MAX_REDUCTIONS 24
/* Doubles (or integers) in one reduction: walls' reactions and the like. */
#define MAX_REDUCTION_COUNT 64

static const inv_box scene = {.n = 500,
                              .width = 80,
                              .height = 12,
                              .mu = 0.4,
                              .dt = 2e-3,
                              .nlgs_tol = 1e-4,
                              .seed = 1,
                              .box_velocity = 30.0,
                              .imbalance = 1.1};

/* What one step did. */
static struct {
  int on;
  long bulk;   /* all-to-all and all-gather, any variant */
  long rooted; /* bcast, gather, scatter, reduce, scan, barrier */
  long reductions, checks, barriers;
  long max_count;
  char *peer; /* peer[r]: a message went to rank r */
} audit;

static void count_reduction(int count)
{
  if (!audit.on) return;
  audit.reductions++;
  if (count > audit.max_count) audit.max_count = count;
}

static void count_peer(int dest)
{
  if (audit.on && dest >= 0) audit.peer[dest] = 1;
}

int MPI_Alltoall(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, MPI_Comm c)
{
  audit.bulk += audit.on;
  return PMPI_Alltoall(s, sc, st, r, rc, rt, c);
}

int MPI_Alltoallv(const void *s, const int *sc, const int *sd, MPI_Datatype st, void *r, const int *rc, const int *rd,
                  MPI_Datatype rt, MPI_Comm c)
{
  audit.bulk += audit.on;
  return PMPI_Alltoallv(s, sc, sd, st, r, rc, rd, rt, c);
}

int MPI_Allgather(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, MPI_Comm c)
{
  audit.bulk += audit.on;
  return PMPI_Allgather(s, sc, st, r, rc, rt, c);
}

int MPI_Allgatherv(const void *s, int sc, MPI_Datatype st, void *r, const int *rc, const int *rd, MPI_Datatype rt,
                   MPI_Comm c)
{
  audit.bulk += audit.on;
  return PMPI_Allgatherv(s, sc, st, r, rc, rd, rt, c);
}

int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c)
{
  audit.rooted += audit.on;
  return PMPI_Bcast(b, n, t, root, c);
}

int MPI_Gather(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, int root, MPI_Comm c)
{
  audit.rooted += audit.on;
  return PMPI_Gather(s, sc, st, r, rc, rt, root, c);
}

int MPI_Gatherv(const void *s, int sc, MPI_Datatype st, void *r, const int *rc, const int *rd, MPI_Datatype rt,
                int root, MPI_Comm c)
{
  audit.rooted += audit.on;
  return PMPI_Gatherv(s, sc, st, r, rc, rd, rt, root, c);
}

int MPI_Scatter(const void *s, int sc, MPI_Datatype st, void *r, int rc, MPI_Datatype rt, int root, MPI_Comm c)
{
  audit.rooted += audit.on;
  return PMPI_Scatter(s, sc, st, r, rc, rt, root, c);
}

int MPI_Reduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c)
{
  audit.rooted += audit.on;
  return PMPI_Reduce(s, r, n, t, op, root, c);
}

int MPI_Exscan(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
  audit.rooted += audit.on;
  return PMPI_Exscan(s, r, n, t, op, c);
}

int MPI_Barrier(MPI_Comm c)
{
  audit.rooted += audit.on;
  return PMPI_Barrier(c);
}

int MPI_Allreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
  count_reduction(n);
  return PMPI_Allreduce(s, r, n, t, op, c);
}

int MPI_Iallreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c, MPI_Request *q)
{
  audit.checks += audit.on;
  if (audit.on && n > audit.max_count) audit.max_count = n;
  return PMPI_Iallreduce(s, r, n, t, op, c, q);
}

int MPI_Ibarrier(MPI_Comm c, MPI_Request *q)
{
  audit.barriers += audit.on;
  return PMPI_Ibarrier(c, q);
}

int MPI_Send(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c)
{
  count_peer(dest);
  return PMPI_Send(b, n, t, dest, tag, c);
}

int MPI_Isend(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c, MPI_Request *q)
{
  count_peer(dest);
  return PMPI_Isend(b, n, t, dest, tag, c, q);
}

int MPI_Issend(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c, MPI_Request *q)
{
  count_peer(dest);
  return PMPI_Issend(b, n, t, dest, tag, c, q);
}

/* neighbour[r]: rank r owns a cell within NEIGHBOUR_CELLS of a cell of me. */
static void neighbours(const moreau_part *part, int me, int size, char *neighbour)
{
  double lo[3], h;
  int n[3];
  const int *cell_rank;
  moreau_part_get_grid(part, lo, &h, n, &cell_rank);
  memset(neighbour, 0, (size_t)size);
  for (int k = 0; k < n[2]; k++)
    for (int j = 0; j < n[1]; j++)
      for (int i = 0; i < n[0]; i++) {
        if (cell_rank[i + n[0] * (j + n[1] * k)] != me) continue;
        for (int c = k - NEIGHBOUR_CELLS; c <= k + NEIGHBOUR_CELLS; c++)
          for (int b = j - NEIGHBOUR_CELLS; b <= j + NEIGHBOUR_CELLS; b++)
            for (int a = i - NEIGHBOUR_CELLS; a <= i + NEIGHBOUR_CELLS; a++)
              if (a >= 0 && a < n[0] && b >= 0 && b < n[1] && c >= 0 && c < n[2])
                neighbour[cell_rank[a + n[0] * (b + n[1] * c)]] = 1;
      }
}

/* RCB: the region of every rank from the documented cuts (moreau_part_map),
 * lo[3 r .. 3 r + 2] and hi[...], unbounded outside the cuts. */
static void rcb_regions(const moreau_part_map *map, int r0, int r1, const double *lo, const double *hi, double *rlo,
                        double *rhi)
{
  if (r1 - r0 == 1) {
    memcpy(&rlo[3 * r0], lo, 3 * sizeof(double));
    memcpy(&rhi[3 * r0], hi, 3 * sizeof(double));
    return;
  }
  int m = r0 + (r1 - r0) / 2, a = map->rcb_axis[m];
  double below_hi[3], above_lo[3];
  memcpy(below_hi, hi, sizeof(below_hi));
  memcpy(above_lo, lo, sizeof(above_lo));
  below_hi[a] = map->rcb_cut[m];
  above_lo[a] = map->rcb_cut[m];
  rcb_regions(map, r0, m, lo, below_hi, rlo, rhi);
  rcb_regions(map, m, r1, above_lo, hi, rlo, rhi);
}

/* neighbour[r]: rank r's region comes within NEIGHBOUR_CELLS cell edges of
 * mine (the grid's edge is still twice the largest radius). */
static void rcb_neighbours(const moreau_part *part, int me, int size, char *neighbour)
{
  moreau_part_map map;
  double lo[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL}, hi[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL};
  double *rlo = malloc(3 * (size_t)size * sizeof(double)), *rhi = malloc(3 * (size_t)size * sizeof(double));
  moreau_part_get_map(part, &map);
  rcb_regions(&map, 0, size, lo, hi, rlo, rhi);
  for (int r = 0; r < size; r++) {
    int near = 1;
    for (int k = 0; k < 3; k++) {
      double gap = NEIGHBOUR_CELLS * map.h;
      near &= rlo[3 * r + k] <= rhi[3 * me + k] + gap && rlo[3 * me + k] <= rhi[3 * r + k] + gap;
    }
    neighbour[r] = (char)near;
  }
  free(rlo);
  free(rhi);
}

/* lid: a force-driven lid presses the pile (its velocity is reduced over the
 * ranks after every sweep, and the convergence checks ride with it). */
static void audit_steps(moreau_part_type type, int steps, double lid)
{
  const int rcb = type == MOREAU_PART_RCB;
  inv_box sc = scene;
  int rank = par_rank(MPI_COMM_WORLD), size = par_size(MPI_COMM_WORLD);
  moreau_sim *sim;
  moreau_part_stats before, after;
  char *neighbour = calloc((size_t)size, 1);
  long bad_bulk = 0, bad_rooted = 0, bad_peer = 0, max_reductions = 0, max_count = 0, checks = 0, barriers = 0;
  long messages = 0, peers_seen = 0, repartition_steps = 0, bad_counter = 0, moved = 0, bad_ride = 0, sweeps = 0;
  audit.peer = calloc((size_t)size, 1);
  sc.part_type = type;
  sc.lid_mass = lid;
  PAR_TRY(MPI_COMM_WORLD, inv_box_create(MPI_COMM_WORLD, &sc, &sim));
  for (int step = 0; step < steps; step++) {
    moreau_err err;
    int peers = 0;
    moreau_part_get_stats(moreau_sim_part(sim), &before);
    char *peer = audit.peer;
    memset(&audit, 0, sizeof(audit));
    audit.peer = memset(peer, 0, (size_t)size);
    audit.on = 1;
    err = moreau_sim_step(sim);
    audit.on = 0;
    PAR_TRY(MPI_COMM_WORLD, err);
    moreau_part_get_stats(moreau_sim_part(sim), &after);
    /* With the lid on several ranks a solve makes one non-blocking reduction
     * per sweep and one for the glue before the first, the lid's: a check
     * whose sums travelled on their own would add one. */
    sweeps += moreau_sim_stats(sim)->solve.iterations;
    if (lid > 0 && size > 1) bad_ride += audit.checks != moreau_sim_stats(sim)->solve.iterations + 1;
    bad_bulk += audit.bulk;
    /* The part's own counters (what benchmarks report) agree with PMPI's. */
    bad_counter += after.exchange_rounds - before.exchange_rounds != audit.barriers;
    /* A repartition sends the bodies to their new owners, wherever they are,
     * and with METIS gathers the cell weights to rank 0 (issue 13 item 3):
     * such steps are audited for all-to-alls, and with RCB, which reduces
     * its histograms over all ranks, for rooted collectives too. */
    if (after.repartitions != before.repartitions) {
      repartition_steps++;
      if (rcb) bad_rooted += audit.rooted;
      moved += after.repartition_bytes - before.repartition_bytes;
      continue;
    }
    bad_counter += after.repartition_bytes != before.repartition_bytes;
    bad_rooted += audit.rooted;
    if (audit.reductions > max_reductions) max_reductions = audit.reductions;
    if (audit.max_count > max_count) max_count = audit.max_count;
    checks += audit.checks;
    barriers += audit.barriers;
    /* The map after the step is the one the step's messages followed
     * (a repartition happens before migration and ghosts). */
    if (rcb)
      rcb_neighbours(moreau_sim_part(sim), rank, size, neighbour);
    else
      neighbours(moreau_sim_part(sim), rank, size, neighbour);
    for (int r = 0; r < size; r++) {
      if (!audit.peer[r]) continue;
      peers++;
      if (!neighbour[r] || r == rank) bad_peer++;
    }
    messages += peers > 0;
    peers_seen += peers;
  }
  if (rank == 0)
    printf("%s%s: audit on %d ranks over %d steps (%ld repartitioned): rank 0 sent to %.1f peers per step, %ld calls "
           "of all-to-all or all-gather, at most %ld reductions of at most %ld items per step besides %ld non-blocking "
           "ones (checks%s) in %ld sweeps and %ld sparse-exchange barriers in all\n",
           rcb ? "rcb" : "metis", lid > 0 ? " with a force-driven lid" : "", size, steps, repartition_steps,
           (double)peers_seen / steps, bad_bulk, max_reductions, max_count, checks, lid > 0 ? ", the lid's" : "",
           sweeps, barriers);
  PAR_CHECK(MPI_COMM_WORLD, bad_bulk == 0, "%ld all-to-all or all-gather calls in steps", bad_bulk);
  PAR_CHECK(MPI_COMM_WORLD, bad_rooted == 0, "%ld rooted collectives in steps %s", bad_rooted,
            rcb ? "" : "that did not repartition");
  PAR_CHECK(MPI_COMM_WORLD, bad_counter == 0,
            "%ld steps whose exchange or repartition counters disagree with the calls counted", bad_counter);
  PAR_CHECK(MPI_COMM_WORLD, bad_peer == 0, "%ld messages to ranks that are not neighbours", bad_peer);
  PAR_CHECK(MPI_COMM_WORLD, max_reductions <= MAX_REDUCTIONS, "%ld reductions in one step (bound %d)", max_reductions,
            MAX_REDUCTIONS);
  PAR_CHECK(MPI_COMM_WORLD, bad_ride == 0, "%ld steps whose checks made reductions of their own beside the lid's",
            bad_ride);
  PAR_CHECK(MPI_COMM_WORLD, max_count <= MAX_REDUCTION_COUNT, "a reduction of %ld items (bound %d)", max_count,
            MAX_REDUCTION_COUNT);
  /* The audit saw the traffic it is about: on several ranks, every rank
   * messages someone in most steps, and the pile was repartitioned. */
  if (size > 1) {
    PAR_CHECK(MPI_COMM_WORLD, messages >= steps / 2, "rank %d sent messages in only %ld of %d steps", rank, messages,
              steps);
    PAR_CHECK(MPI_COMM_WORLD, repartition_steps > 0, "the drifting pile was never repartitioned");
    ck_assert_msg(par_sum(MPI_COMM_WORLD, (double)moved) > 0, "repartitions moved no bytes");
  }
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
  free(audit.peer);
  free(neighbour);
}

START_TEST(steps_talk_to_neighbours_only) { audit_steps(MOREAU_PART_METIS, STEPS, 0.0); }
END_TEST

START_TEST(rcb_steps_talk_to_neighbours_only) { audit_steps(MOREAU_PART_RCB, STEPS, 0.0); }
END_TEST

/* Issue 13 item 4: the checks' sums ride in the force-driven walls' reduction. */
START_TEST(checks_ride_on_the_lid) { audit_steps(MOREAU_PART_METIS, STEPS / 2, 20.0); }
END_TEST

int main(int argc, char **argv)
{
  int status;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("comm_audit");
  TCase *tc = tcase_create("audit");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, steps_talk_to_neighbours_only);
  tcase_add_test(tc, rcb_steps_talk_to_neighbours_only);
  tcase_add_test(tc, checks_ride_on_the_lid);
  suite_add_tcase(s, tc);
  status = par_run_suite(MPI_COMM_WORLD, s, argc > 1 ? argv[1] : NULL);
  MPI_Finalize();
  return status;
}
