/* A pile of a few hundred polydisperse disks deposited in a box:
 * (e) once settled, the walls carry its weight within 1e-3;
 * (f) the same seed gives a bit-identical run, another seed a different sweep
 *     order but the same macroscopic state;
 * (g) cold-start iterations rise as eps_f falls (seed 000 Fig 10), and warm
 *     start cuts them at least fivefold on a quasi-static step. */
#include <check.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "moreau/generate.h"
#include "scene.h"

#define PILE_N 300
/* The jittered lattice collapses and comes to rest within 5.5 s (2750 steps). */
#define SETTLE_STEPS 3000

static moreau_sim *make_pile(uint64_t seed)
{
  moreau_sim *sim;
  moreau_gen_params gen = {MOREAU_GEN_LATTICE, PILE_N, {0, 0, 0}, {20, 40, 0}, 0.5, 0.3, 0.8, 42, 0};
  double box[4] = {0, 0, 20, 40};
  ck_assert_int_eq(moreau_sim_create(MPI_COMM_SELF, 2, &sim), 0);
  ck_assert_int_eq(scene_set_law(sim, 0.4, 0.0, 0.0), 0);
  sim->dt = 2e-3;
  sim->gravity[1] = -9.81;
  ck_assert_int_eq(moreau_generate(&gen, sim->bodies, sim->materials), 0);
  ck_assert_int_eq(scene_add_fixed_wall(sim, box[0], 0, 1, 0), 0);
  ck_assert_int_eq(scene_add_fixed_wall(sim, box[2], 0, -1, 0), 0);
  ck_assert_int_eq(scene_add_fixed_wall(sim, 0, box[1], 0, 1), 0);
  ck_assert_int_eq(scene_add_fixed_wall(sim, 0, box[3], 0, -1), 0);
  moreau_nlgs_set_tolerance(sim->nlgs, 1e-4, MOREAU_NLGS_NORM_MEAN);
  moreau_nlgs_set_iterations(sim->nlgs, 2, 5000);
  moreau_nlgs_set_seed(sim->nlgs, seed);
  ck_assert_int_eq(moreau_sim_setup(sim, 0.01), 0);
  return sim;
}

static void run(moreau_sim *sim, int steps)
{
  for (int i = 0; i < steps; i++) ck_assert_int_eq(moreau_sim_step(sim), 0);
}

static double weight(const moreau_sim *sim)
{
  double w = 0.0;
  for (moreau_lid i = 0; i < sim->bodies->n_owned; i++) w += 9.81 / sim->bodies->inv_mass[i];
  return w;
}

static double wall_load(const moreau_sim *sim)
{
  double f = 0.0;
  for (int i = 0; i < sim->walls->n; i++) f -= sim->walls->reaction[3 * i + 1];
  return f;
}

static double mean_height(const moreau_sim *sim)
{
  double h = 0.0;
  for (moreau_lid i = 0; i < sim->bodies->n_owned; i++) h += sim->bodies->x[3 * i + 1];
  return h / sim->bodies->n_owned;
}

/* One settled pile serves the tests that start from rest. */
static moreau_sim *settled_pile(void)
{
  static moreau_sim *pile;
  if (!pile) {
    pile = make_pile(9);
    run(pile, SETTLE_STEPS);
  }
  return pile;
}

START_TEST(test_pile_carries_weight)
{
  moreau_sim *sim = settled_pile();
  moreau_nlgs_set_tolerance(sim->nlgs, 1e-8, MOREAU_NLGS_NORM_MEAN);
  moreau_nlgs_set_iterations(sim->nlgs, 2, 100000);
  run(sim, 20);
  double w = weight(sim), f = wall_load(sim);
  printf("pile: weight %.8g, wall load %.8g, relative difference %.2e, contacts %lld\n", w, f, fabs(f - w) / w,
         (long long)sim->n_contacts_global);
  ck_assert_msg(fabs(f - w) < 1e-3 * w, "walls carry %.8g of a weight of %.8g", f, w);
  ck_assert_msg(sim->max_overlap < 0.05 * 0.35, "largest overlap %g", sim->max_overlap);
}
END_TEST

START_TEST(test_seed_determinism)
{
  moreau_sim *a = make_pile(5), *b = make_pile(5), *c = make_pile(6);
  moreau_lid n = a->bodies->n_owned;
  run(a, 300);
  run(b, 300);
  run(c, 300);
  ck_assert(memcmp(a->bodies->x, b->bodies->x, 3 * (size_t)n * sizeof(double)) == 0);
  ck_assert(memcmp(a->bodies->v, b->bodies->v, 3 * (size_t)n * sizeof(double)) == 0);
  ck_assert(memcmp(a->history->force, b->history->force, 3 * (size_t)a->history->n * sizeof(double)) == 0);
  ck_assert_msg(memcmp(a->bodies->x, c->bodies->x, 3 * (size_t)n * sizeof(double)) != 0,
                "another seed gave the same trajectory: the sweep order does not depend on the seed");
  moreau_sim_destroy(&b);
  run(a, SETTLE_STEPS - 300);
  run(c, SETTLE_STEPS - 300);
  double ha = mean_height(a), hc = mean_height(c);
  printf("mean height: seed 5 %.6g, seed 6 %.6g; wall load %.6g vs %.6g\n", ha, hc, wall_load(a), wall_load(c));
  ck_assert_msg(fabs(ha - hc) < 0.01 * ha, "mean heights %g and %g differ by more than 1%%", ha, hc);
  ck_assert(fabs(wall_load(a) - wall_load(c)) < 0.01 * weight(a));
  moreau_sim_destroy(&a);
  moreau_sim_destroy(&c);
}
END_TEST

/* Saved state of a settled pile, so that one step can be solved several
 * times from the same start. */
typedef struct {
  moreau_body *bodies;
  moreau_contacts *history;
} saved_state;

static void save(const moreau_sim *sim, saved_state *s)
{
  const moreau_contacts *h = sim->contacts;
  s->bodies = malloc((size_t)sim->bodies->n_owned * sizeof(moreau_body));
  for (moreau_lid i = 0; i < sim->bodies->n_owned; i++) moreau_bodies_get(sim->bodies, i, &s->bodies[i]);
  ck_assert_int_eq(moreau_contacts_create(&s->history), 0);
  for (moreau_lid k = 0; k < h->n; k++) {
    moreau_lid idx;
    ck_assert_int_eq(moreau_contacts_push(s->history, h->gid_a[k], h->gid_b[k], h->point[k], h->a[k], h->b[k], &idx), 0);
    memcpy(&s->history->force[3 * idx], &h->force[3 * k], 3 * sizeof(double));
  }
}

static int solve_from(moreau_sim *sim, const saved_state *s, double tol, int warm)
{
  moreau_contacts *h = sim->contacts;
  for (moreau_lid i = 0; i < sim->bodies->n_owned; i++) moreau_bodies_set(sim->bodies, i, &s->bodies[i]);
  moreau_contacts_clear(h);
  for (moreau_lid k = 0; k < s->history->n; k++) {
    moreau_lid idx;
    const moreau_contacts *o = s->history;
    ck_assert_int_eq(moreau_contacts_push(h, o->gid_a[k], o->gid_b[k], o->point[k], o->a[k], o->b[k], &idx), 0);
    memcpy(&h->force[3 * idx], &o->force[3 * k], 3 * sizeof(double));
  }
  moreau_nlgs_set_tolerance(sim->nlgs, tol, MOREAU_NLGS_NORM_MEAN);
  moreau_nlgs_set_iterations(sim->nlgs, 1, 1000000);
  moreau_nlgs_set_warm_start(sim->nlgs, warm);
  moreau_nlgs_set_seed(sim->nlgs, 3);
  ck_assert_int_eq(moreau_sim_step(sim), 0);
  ck_assert(sim->solve.converged);
  return sim->solve.iterations;
}

START_TEST(test_iterations_vs_precision_and_warm_start)
{
  moreau_sim *sim = settled_pile();
  saved_state s;
  const double tols[4] = {1e-2, 1e-3, 1e-4, 1e-5};
  int it[4];
  save(sim, &s);
  for (int i = 0; i < 4; i++) it[i] = solve_from(sim, &s, tols[i], 0);
  int warm = solve_from(sim, &s, 1e-4, 1);
  printf("cold-start sweeps for eps_f 1e-2..1e-5: %d %d %d %d; warm start at 1e-4: %d (%.1fx fewer)\n", it[0], it[1],
         it[2], it[3], warm, (double)it[2] / warm);
  for (int i = 1; i < 4; i++) ck_assert_msg(it[i] > it[i - 1], "iterations did not rise as eps_f fell");
  ck_assert_msg(it[2] >= 5 * warm, "warm start saved only %.1fx", (double)it[2] / warm);
  free(s.bodies);
  moreau_contacts_destroy(&s.history);
}
END_TEST

int main(int argc, char **argv)
{
  int failed;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("pile");
  TCase *tc = tcase_create("pile");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_pile_carries_weight);
  tcase_add_test(tc, test_seed_determinism);
  tcase_add_test(tc, test_iterations_vs_precision_and_warm_start);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  {
    moreau_sim *pile = settled_pile();
    moreau_sim_destroy(&pile);
  }
  MPI_Finalize();
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
