/* Partition invariance with periodic and Lees-Edwards boundaries: a dense
 * sheared lattice in a fully periodic box (Lees-Edwards images along y
 * sliding along x), in 2D and 3D.
 * - The contact set of the first step on P ranks is the one-rank set: the
 *   same keys, each on one rank, geometry within 1e-12; many contacts cross
 *   the faces (bodies more than half a period apart).
 * - 200 sheared steps keep the body count and the gid sum after every step,
 *   every body inside the box and the overlaps small. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "parallel.h"
#include "shear_scene.h"

#define GEOMETRY_TOL 1e-12

typedef struct {
  int dim, cells;
  double len;
} scene;

static const scene scenes[2] = {{2, 24, 24.0}, {3, 8, 8.0}};

static moreau_err scene_create(MPI_Comm comm, const scene *sc, moreau_sim **sim)
{
  MOREAU_CALL(shear_sim_create(comm, sc->dim, sc->len, 1, 1, 0.5, 1e-3, 0.4, 0.0, sim));
  moreau_sim_set_alert(*sim, 0.25);
  if (par_rank(comm) == 0) MOREAU_CALL(shear_lattice_add(*sim, sc->cells, sc->len, 0.5, 0.5));
  MOREAU_CALL(moreau_sim_setup(*sim, 0.0));
  return MOREAU_SUCCESS;
}

static moreau_err first_contacts(MPI_Comm comm, const scene *sc, par_contact **all, int64_t *n, int64_t *across)
{
  moreau_sim *sim;
  moreau_body *bodies;
  int64_t nb;
  MOREAU_CALL(scene_create(comm, sc, &sim));
  MOREAU_CALL(moreau_sim_step(sim));
  par_gather_contacts(comm, moreau_sim_bodies(sim), moreau_sim_contacts(sim), all, n);
  par_gather_bodies(moreau_sim_bodies(sim), &bodies, &nb);
  *across = 0;
  for (int64_t k = 0; k < *n; k++) {
    const par_contact *c = &(*all)[k];
    if (c->gid_a < 0 || c->gid_b < 0 || c->gid_a >= nb || c->gid_b >= nb) continue;
    for (int d = 0; d < sc->dim; d++)
      if (fabs(bodies[c->gid_b].x[d] - bodies[c->gid_a].x[d]) > 0.5 * sc->len) {
        (*across)++;
        break;
      }
  }
  free(bodies);
  MOREAU_CALL(moreau_sim_destroy(&sim));
  return MOREAU_SUCCESS;
}

static double max_diff(const double *a, const double *b, int n)
{
  double d = 0.0;
  for (int k = 0; k < n; k++)
    d = fmax(d, fabs(a[k] - b[k]));
  return d;
}

static void check_contacts(const scene *sc)
{
  par_contact *ref = NULL, *c;
  int64_t n_ref = 0, n, across, across_ref = 0;
  double worst = 0.0;
  moreau_err ref_err = MOREAU_SUCCESS;
  if (par_rank(MPI_COMM_WORLD) == 0) ref_err = first_contacts(MPI_COMM_SELF, sc, &ref, &n_ref, &across_ref);
  par_idle_barrier(MPI_COMM_WORLD);
  PAR_TRY(MPI_COMM_WORLD, ref_err);
  par_bcast_items(MPI_COMM_WORLD, 0, (void **)&ref, &n_ref, sizeof(par_contact));
  PAR_TRY(MPI_COMM_WORLD, first_contacts(MPI_COMM_WORLD, sc, &c, &n, &across));
  ck_assert_msg(n == n_ref, "%dD: %lld contacts on %d ranks, %lld on one", sc->dim, (long long)n,
                par_size(MPI_COMM_WORLD), (long long)n_ref);
  for (int64_t k = 0; k < n; k++) {
    ck_assert_msg(par_contact_by_key(&c[k], &ref[k]) == 0, "contact %lld: key (%lld, %lld) instead of (%lld, %lld)",
                  (long long)k, (long long)c[k].gid_a, (long long)c[k].gid_b, (long long)ref[k].gid_a,
                  (long long)ref[k].gid_b);
    worst = fmax(worst, fabs(c[k].gap - ref[k].gap));
    worst = fmax(worst, max_diff(c[k].normal, ref[k].normal, 3));
    worst = fmax(worst, max_diff(c[k].ca, ref[k].ca, 3));
    worst = fmax(worst, max_diff(c[k].cb, ref[k].cb, 3));
  }
  if (par_rank(MPI_COMM_WORLD) == 0)
    printf("%dD sheared periodic lattice on %d ranks: %lld contacts, %lld across the faces; geometry within %.3g\n",
           sc->dim, par_size(MPI_COMM_WORLD), (long long)n, (long long)across, worst);
  ck_assert_msg(across > sc->cells, "%dD: only %lld contacts across the faces", sc->dim, (long long)across);
  ck_assert_msg(worst <= GEOMETRY_TOL, "%dD: geometry differs by %g", sc->dim, worst);
  free(c);
  free(ref);
}

START_TEST(contact_set_matches_one_rank_2d) { check_contacts(&scenes[0]); }
END_TEST

START_TEST(contact_set_matches_one_rank_3d) { check_contacts(&scenes[1]); }
END_TEST

static void check_sheared_run(const scene *sc)
{
  moreau_sim *sim;
  int64_t count0, sum0, count, sum, changes = 0, outside = 0;
  double worst_overlap = 0.0;
  PAR_TRY(MPI_COMM_WORLD, scene_create(MPI_COMM_WORLD, sc, &sim));
  const moreau_bodies *b = moreau_sim_bodies(sim);
  PAR_TRY(MPI_COMM_WORLD, moreau_bodies_global_count(b, &count0, &sum0));
  for (int s = 0; s < 200; s++) {
    PAR_TRY(MPI_COMM_WORLD, moreau_sim_step(sim));
    PAR_TRY(MPI_COMM_WORLD, moreau_bodies_global_count(b, &count, &sum));
    changes += count != count0 || sum != sum0;
    worst_overlap = fmax(worst_overlap, moreau_sim_stats(sim)->max_overlap_ratio);
  }
  for (moreau_lid i = 0; i < b->n_owned; i++)
    for (int d = 0; d < sc->dim; d++)
      outside += !(b->x[3 * i + d] >= 0.0 && b->x[3 * i + d] < sc->len);
  outside = (int64_t)par_sum(MPI_COMM_WORLD, (double)outside);
  if (par_rank(MPI_COMM_WORLD) == 0)
    printf("%dD sheared run on %d ranks: %lld bodies, largest overlap %.3g of the smaller radius\n", sc->dim,
           par_size(MPI_COMM_WORLD), (long long)count, worst_overlap);
  ck_assert_msg(changes == 0, "%dD: the body count or gid sum changed after %lld steps", sc->dim, (long long)changes);
  ck_assert_msg(outside == 0, "%dD: %lld coordinates outside the box", sc->dim, (long long)outside);
  ck_assert_msg(worst_overlap < 0.02, "%dD: overlap %g of the smaller radius", sc->dim, worst_overlap);
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}

START_TEST(sheared_run_keeps_bodies_2d) { check_sheared_run(&scenes[0]); }
END_TEST

START_TEST(sheared_run_keeps_bodies_3d) { check_sheared_run(&scenes[1]); }
END_TEST

TCase *shear_invariance_case(void)
{
  TCase *tc = tcase_create("invariance");
  tcase_add_test(tc, contact_set_matches_one_rank_2d);
  tcase_add_test(tc, contact_set_matches_one_rank_3d);
  tcase_add_test(tc, sheared_run_keeps_bodies_2d);
  tcase_add_test(tc, sheared_run_keeps_bodies_3d);
  return tc;
}
