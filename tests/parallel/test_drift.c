/* (d) A pile that drifts across the subdomains: the deposition box of (c),
 * narrower, with walls and bodies moving sideways at DRIFT_VELOCITY, so that
 * the pile travels more than its own width while it falls. The bodies leave
 * the cells of their ranks (bodies beyond the grid belong to its edge cells),
 * the work piles up on the ranks ahead, and the partition must be redone
 * (threshold 1.2). The run must keep every body, keep overlaps small and
 * reach the one-rank state, measured in the frame of the box.
 *
 * Tolerances, from six one-rank runs with seeds 1-6: the mean height spread
 * by 3e-5 (most of the pile is still falling), the mean x by less than 1e-6,
 * the kinetic energy by 7e-4, the wall load over the last 50 steps by 2.3%
 * and the contacts by one in 152. The bounds are three to seven times that;
 * the contact count gets the bound of (c), a few contacts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "invariance.h"
#include "parallel.h"

#define DRIFT_VELOCITY 30.0
#define STEPS 400
#define WINDOW 50
#define POSITION_TOL 1e-4
#define KINETIC_TOL 5e-3
#define LOAD_TOL 0.08
#define CONTACTS_TOL 0.05
/* As in the pile test: overlaps stay below 5% of the smallest radius. */
#define OVERLAP_TOL 0.05

static const inv_box scene = {.n = 300,
                              .width = 20,
                              .height = 100,
                              .mu = 0.4,
                              .dt = 2e-3,
                              .nlgs_tol = 1e-4,
                              .seed = 1,
                              .box_velocity = DRIFT_VELOCITY,
                              .imbalance = 1.2};

/* Collective over comm; no checks inside, so that rank 0 may run it alone. */
static moreau_err drift(MPI_Comm comm, const inv_box *box, inv_state *st)
{
  moreau_sim *sim;
  MOREAU_CALL(inv_box_create(comm, box, &sim));
  MOREAU_CALL(inv_run(sim, STEPS, WINDOW, DRIFT_VELOCITY, st));
  MOREAU_CALL(moreau_sim_destroy(&sim));
  return MOREAU_SUCCESS;
}

static double rel(double a, double b) { return fabs(a - b) / fabs(b); }

/* The drift split by METIS or by recursive coordinate bisection, whose cuts
 * follow the pile. */
static void check_drift(moreau_part_type type)
{
  inv_box sc = scene;
  inv_state ref, st;
  int rank = par_rank(MPI_COMM_WORLD), size = par_size(MPI_COMM_WORLD);
  moreau_err ref_err = MOREAU_SUCCESS;
  double travel = DRIFT_VELOCITY * STEPS * scene.dt;
  sc.part_type = type;
  if (rank == 0) ref_err = drift(MPI_COMM_SELF, &sc, &ref);
  par_idle_barrier(MPI_COMM_WORLD);
  PAR_TRY(MPI_COMM_WORLD, ref_err);
  MPI_Bcast(&ref, sizeof(ref), MPI_BYTE, 0, MPI_COMM_WORLD);
  PAR_TRY(MPI_COMM_WORLD, drift(MPI_COMM_WORLD, &sc, &st));

  if (rank == 0)
    printf("%s: drift of %.3g on %d ranks vs one: %lld repartitions; mean x %.6g / %.6g, mean height %.6g / %.6g "
           "(%.1e), kinetic energy in the box %.6g / %.6g (%.1e), wall load %.6g / %.6g (%.1e), contacts %lld / %lld "
           "(%.1e), largest overlap %.3g / %.3g\n",
           type == MOREAU_PART_RCB ? "rcb" : "metis", travel, size, (long long)st.repartitions, st.mean_x, ref.mean_x,
           st.mean_y, ref.mean_y, rel(st.mean_y, ref.mean_y), st.kinetic, ref.kinetic, rel(st.kinetic, ref.kinetic),
           st.wall_load, ref.wall_load, rel(st.wall_load, ref.wall_load), (long long)st.contacts,
           (long long)ref.contacts, rel((double)st.contacts, (double)ref.contacts), st.max_overlap, ref.max_overlap);
  ck_assert_msg(travel > scene.width, "scene error: the pile does not travel its own width");
  if (size > 1) ck_assert_msg(st.repartitions > 0, "the drifting pile was never repartitioned");
  ck_assert_int_eq(st.count, scene.n);
  ck_assert_int_eq(st.gid_sum, scene.n * (scene.n - 1) / 2);
  ck_assert_msg(st.count_changes == 0, "count or gid sum changed after %lld steps", (long long)st.count_changes);
  ck_assert_msg(ref.converged && st.converged, "a solve did not converge");
  /* The box moved with the pile: in its frame, where the bodies are, the
   * centre of mass stays within the box. */
  ck_assert_msg(fabs(st.mean_x - travel - 0.5 * scene.width) < 0.25 * scene.width,
                "the pile is not in the moving box (mean x %g)", st.mean_x);
  ck_assert_msg(rel(st.mean_x - travel, ref.mean_x - travel) < POSITION_TOL, "mean x in the box %.8g, one rank %.8g",
                st.mean_x - travel, ref.mean_x - travel);
  ck_assert_msg(rel(st.mean_y, ref.mean_y) < POSITION_TOL, "mean height %.8g, one rank %.8g", st.mean_y, ref.mean_y);
  ck_assert_msg(rel(st.kinetic, ref.kinetic) < KINETIC_TOL, "kinetic energy %.8g, one rank %.8g", st.kinetic,
                ref.kinetic);
  ck_assert_msg(rel(st.wall_load, ref.wall_load) < LOAD_TOL, "wall load %.8g, one rank %.8g", st.wall_load,
                ref.wall_load);
  ck_assert_msg(rel((double)st.contacts, (double)ref.contacts) < CONTACTS_TOL, "%lld contacts, one rank %lld",
                (long long)st.contacts, (long long)ref.contacts);
  ck_assert_msg(st.max_overlap < OVERLAP_TOL * st.min_radius && ref.max_overlap < OVERLAP_TOL * ref.min_radius,
                "largest overlap %g (one rank %g) against a smallest radius of %g", st.max_overlap, ref.max_overlap,
                st.min_radius);
}

START_TEST(drifting_pile_matches_one_rank) { check_drift(MOREAU_PART_METIS); }
END_TEST

START_TEST(drifting_pile_matches_one_rank_rcb) { check_drift(MOREAU_PART_RCB); }
END_TEST

TCase *inv_drift_case(void)
{
  TCase *tc = tcase_create("drift");
  tcase_add_test(tc, drifting_pile_matches_one_rank);
  tcase_add_test(tc, drifting_pile_matches_one_rank_rcb);
  return tc;
}
