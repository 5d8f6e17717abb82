/* (a) The contact set of the first step is the one-rank contact set: the same
 * keys, each contact on exactly one rank (the owner of its smaller gid), and
 * the same geometry. Before the first solve every body has the same position
 * on any number of ranks (generated bitwise alike, moved by the same
 * arithmetic), so the gaps, normals and branch vectors must agree to
 * rounding; they are checked to 1e-14 and the bitwise differences counted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "invariance.h"
#include "parallel.h"

/* Bodies with scattered velocities, so that the first half step moves them,
 * and an alert distance of half a radius, so that most lattice neighbours
 * (gaps from 0.01 to 0.6) are potential contacts and the ghost layer is
 * deep. */
static const inv_box scene = {.n = 3000,
                              .width = 60,
                              .height = 100,
                              .mu = 0.4,
                              .dt = 2e-3,
                              .nlgs_tol = 1e-4,
                              .seed = 1,
                              .scatter = 2.0,
                              .imbalance = 1.2,
                              .alert = 0.25};

#define GEOMETRY_TOL 1e-14

/* Collective over comm; no checks inside, so that rank 0 may run it alone. */
static moreau_err first_step_contacts(MPI_Comm comm, par_contact **all, int64_t *n, int64_t *n_global, long *misplaced)
{
  moreau_sim *sim;
  const moreau_contacts *c;
  MOREAU_CALL(inv_box_create(comm, &scene, &sim));
  MOREAU_CALL(moreau_sim_step(sim));
  c = moreau_sim_contacts(sim);
  /* A contact belongs to the owner of body a, the smaller gid. */
  *misplaced = 0;
  for (moreau_lid k = 0; k < c->n; k++)
    *misplaced += c->a[k] >= moreau_sim_bodies(sim)->n_owned || c->gid_a[k] >= c->gid_b[k];
  par_gather_contacts(comm, moreau_sim_bodies(sim), c, all, n);
  *n_global = moreau_sim_stats(sim)->n_contacts_global;
  MOREAU_CALL(moreau_sim_destroy(&sim));
  return MOREAU_SUCCESS;
}

static double max_diff(const double *a, const double *b, int n, long *bitwise)
{
  double d = 0.0;
  for (int k = 0; k < n; k++) {
    d = fmax(d, fabs(a[k] - b[k]));
    *bitwise += a[k] != b[k];
  }
  return d;
}

START_TEST(contact_set_matches_one_rank)
{
  par_contact *ref = NULL, *c;
  int64_t n_ref = 0, n, n_global, ref_counts[2] = {0, 0}, duplicates = 0, walls = 0;
  long misplaced, ref_misplaced = 0, bitwise = 0;
  double worst = 0.0;
  int rank = par_rank(MPI_COMM_WORLD);
  moreau_err ref_err = MOREAU_SUCCESS;
  if (rank == 0) {
    ref_err = first_step_contacts(MPI_COMM_SELF, &ref, &n_ref, &ref_counts[0], &ref_misplaced);
    ref_counts[1] = ref_misplaced;
  }
  par_idle_barrier(MPI_COMM_WORLD);
  PAR_TRY(MPI_COMM_WORLD, ref_err);
  par_bcast_items(MPI_COMM_WORLD, 0, (void **)&ref, &n_ref, sizeof(par_contact));
  MPI_Bcast(ref_counts, 2, MPI_INT64_T, 0, MPI_COMM_WORLD);
  ck_assert_msg(ref_counts[0] == n_ref && ref_counts[1] == 0,
                "one rank: %lld contacts gathered, %lld counted, %lld misplaced", (long long)n_ref,
                (long long)ref_counts[0], (long long)ref_counts[1]);

  PAR_TRY(MPI_COMM_WORLD, first_step_contacts(MPI_COMM_WORLD, &c, &n, &n_global, &misplaced));
  PAR_CHECK(MPI_COMM_WORLD, misplaced == 0, "%ld contacts are not on the rank of their smaller gid", misplaced);
  for (int64_t k = 1; k < n; k++)
    duplicates += par_contact_by_key(&c[k - 1], &c[k]) == 0;
  ck_assert_msg(duplicates == 0, "%lld contacts are held by two ranks", (long long)duplicates);
  ck_assert_msg(n == n_global, "%lld contacts gathered, the sim counts %lld", (long long)n, (long long)n_global);
  ck_assert_msg(n == n_ref, "%lld contacts on %d ranks, %lld on one", (long long)n, par_size(MPI_COMM_WORLD),
                (long long)n_ref);
  /* The scene must exercise the comparison: most bodies in contact. */
  ck_assert_msg(n > scene.n / 2, "only %lld contacts", (long long)n);
  for (int64_t k = 0; k < n; k++) {
    ck_assert_msg(par_contact_by_key(&c[k], &ref[k]) == 0,
                  "contact %lld: key (%lld, %lld, %d) instead of (%lld, %lld, %d)", (long long)k, (long long)c[k].gid_a,
                  (long long)c[k].gid_b, c[k].point, (long long)ref[k].gid_a, (long long)ref[k].gid_b, ref[k].point);
    walls += MOREAU_GID_IS_WALL(c[k].gid_b);
    worst = fmax(worst, max_diff(&c[k].gap, &ref[k].gap, 1, &bitwise));
    worst = fmax(worst, max_diff(c[k].normal, ref[k].normal, 3, &bitwise));
    worst = fmax(worst, max_diff(c[k].ca, ref[k].ca, 3, &bitwise));
    worst = fmax(worst, max_diff(c[k].cb, ref[k].cb, 3, &bitwise));
  }
  if (rank == 0)
    printf("contacts at the first step: %lld (%lld with walls) on %d ranks; largest geometry difference %.3g, "
           "%ld values not bitwise equal\n",
           (long long)n, (long long)walls, par_size(MPI_COMM_WORLD), worst, bitwise);
  ck_assert_msg(walls > 0, "no wall contacts to compare");
  ck_assert_msg(worst <= GEOMETRY_TOL, "gaps, normals or branch vectors differ by %g", worst);
  free(c);
  free(ref);
}
END_TEST

/* The default alert distance must not depend on how the bodies are spread
 * over the ranks (a sum of radii reduced over ranks rounds differently on
 * each rank count, which once made the contact set differ). */
START_TEST(default_alert_is_partition_invariant)
{
  inv_box automatic = scene;
  moreau_sim *sim = NULL;
  double ref[2] = {0, 0}, here[2];
  moreau_err ref_err = MOREAU_SUCCESS;
  automatic.alert = 0.0;
  if (par_rank(MPI_COMM_WORLD) == 0) {
    ref_err = inv_box_create(MPI_COMM_SELF, &automatic, &sim);
    if (!ref_err) {
      ref[0] = moreau_sim_alert(sim);
      ref[1] = moreau_sim_rmax(sim);
      ref_err = moreau_sim_destroy(&sim);
    }
  }
  par_idle_barrier(MPI_COMM_WORLD);
  PAR_TRY(MPI_COMM_WORLD, ref_err);
  MPI_Bcast(ref, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  PAR_TRY(MPI_COMM_WORLD, inv_box_create(MPI_COMM_WORLD, &automatic, &sim));
  here[0] = moreau_sim_alert(sim);
  here[1] = moreau_sim_rmax(sim);
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
  ck_assert_msg(here[1] == ref[1], "largest radius %a on %d ranks, %a on one", here[1], par_size(MPI_COMM_WORLD),
                ref[1]);
  ck_assert_msg(here[0] == ref[0], "default alert distance %a on %d ranks, %a on one", here[0],
                par_size(MPI_COMM_WORLD), ref[0]);
}
END_TEST

TCase *inv_alert_case(void)
{
  TCase *tc = tcase_create("alert");
  tcase_add_test(tc, default_alert_is_partition_invariant);
  return tc;
}

TCase *inv_contacts_case(void)
{
  TCase *tc = tcase_create("contacts");
  tcase_add_test(tc, contact_set_matches_one_rank);
  return tc;
}
