/* (e) Determinism: the same scene, options, seed and rank count give the same
 * run bit for bit (positions, velocities, spins, orientations and contact
 * forces gathered by gid and key, and the sweep and repartition counts),
 * through migration, repartitioning and interface gluing: the drifting pile
 * of (d), with scattered initial velocities so that it is dense in contacts
 * early (about 260 at the end, 7000 sweeps, repartitioned on 2 ranks and
 * more), for STEPS steps, twice. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "invariance.h"
#include "parallel.h"

#define STEPS 300

static const inv_box scene = {.n = 300,
                              .width = 20,
                              .height = 100,
                              .mu = 0.4,
                              .dt = 2e-3,
                              .nlgs_tol = 1e-4,
                              .seed = 3,
                              .box_velocity = 30.0,
                              .scatter = 2.0,
                              .imbalance = 1.2};

typedef struct {
  moreau_body *bodies;
  int64_t n_bodies;
  par_contact *contacts;
  int64_t n_contacts;
  int64_t repartitions, sweeps;
} run_record;

static void run(run_record *r)
{
  moreau_sim *sim;
  inv_state st;
  r->sweeps = 0;
  PAR_TRY(MPI_COMM_WORLD, inv_box_create(MPI_COMM_WORLD, &scene, &sim));
  for (int s = 0; s < STEPS; s++) {
    PAR_TRY(MPI_COMM_WORLD, inv_run(sim, 1, 1, 0.0, &st));
    r->sweeps += moreau_sim_stats(sim)->solve.iterations;
  }
  par_gather_bodies(moreau_sim_bodies(sim), &r->bodies, &r->n_bodies);
  par_gather_contacts(moreau_sim_comm(sim), moreau_sim_bodies(sim), moreau_sim_contacts(sim), &r->contacts,
                      &r->n_contacts);
  r->repartitions = st.repartitions;
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}

START_TEST(same_rank_count_same_run)
{
  run_record a, b;
  int64_t differ = 0;
  run(&a);
  run(&b);
  if (par_rank(MPI_COMM_WORLD) == 0)
    printf("determinism on %d ranks: %lld bodies, %lld contacts, %lld sweeps, %lld repartitions\n",
           par_size(MPI_COMM_WORLD), (long long)a.n_bodies, (long long)a.n_contacts, (long long)a.sweeps,
           (long long)a.repartitions);
  if (par_size(MPI_COMM_WORLD) > 1) ck_assert_msg(a.repartitions > 0, "scene error: no repartition to reproduce");
  ck_assert_int_eq(a.n_bodies, scene.n);
  ck_assert_int_eq(b.n_bodies, a.n_bodies);
  ck_assert_int_eq(b.sweeps, a.sweeps);
  ck_assert_int_eq(b.repartitions, a.repartitions);
  for (int64_t i = 0; i < a.n_bodies; i++)
    differ += a.bodies[i].gid != b.bodies[i].gid || memcmp(a.bodies[i].x, b.bodies[i].x, sizeof(a.bodies[i].x)) ||
              memcmp(a.bodies[i].v, b.bodies[i].v, sizeof(a.bodies[i].v)) ||
              memcmp(a.bodies[i].w, b.bodies[i].w, sizeof(a.bodies[i].w)) ||
              memcmp(a.bodies[i].q, b.bodies[i].q, sizeof(a.bodies[i].q));
  ck_assert_msg(differ == 0, "%lld bodies differ between two identical runs", (long long)differ);
  ck_assert_int_eq(b.n_contacts, a.n_contacts);
  for (int64_t k = 0; k < a.n_contacts; k++)
    differ += par_contact_by_key(&a.contacts[k], &b.contacts[k]) != 0 ||
              memcmp(a.contacts[k].force, b.contacts[k].force, sizeof(a.contacts[k].force));
  ck_assert_msg(differ == 0, "%lld contacts differ between two identical runs", (long long)differ);
  free(a.bodies);
  free(b.bodies);
  free(a.contacts);
  free(b.contacts);
}
END_TEST

TCase *inv_determinism_case(void)
{
  TCase *tc = tcase_create("determinism");
  tcase_add_test(tc, same_rank_count_same_run);
  return tc;
}
