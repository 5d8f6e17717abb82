#define _XOPEN_SOURCE 700
#include "invariance.h"

#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "moreau/generate.h"
#include "moreau/rng.h"
#include "parallel.h"
#include "scene.h"

static moreau_err add_walls(moreau_sim *sim, const inv_box *p)
{
  moreau_walls *w = moreau_sim_walls(sim);
  const double v[3] = {p->box_velocity, 0, 0};
  const double left[3] = {0, 0, 0}, right[3] = {p->width, 0, 0};
  const double east[3] = {1, 0, 0}, west[3] = {-1, 0, 0}, up[3] = {0, 1, 0};
  MOREAU_CALL(moreau_walls_add(w, left, up, MOREAU_WALL_VELOCITY, v, 0.0, 0.0, 0, NULL));
  MOREAU_CALL(moreau_walls_add(w, left, east, MOREAU_WALL_VELOCITY, v, 0.0, 0.0, 0, NULL));
  MOREAU_CALL(moreau_walls_add(w, right, west, MOREAU_WALL_VELOCITY, v, 0.0, 0.0, 0, NULL));
  if (p->lid_mass > 0) {
    const double top[3] = {0, p->height + 0.5, 0}, down[3] = {0, -1, 0};
    MOREAU_CALL(moreau_walls_add(w, top, down, MOREAU_WALL_FORCE, v, p->lid_mass, 9.81 * p->lid_mass, 0, NULL));
  }
  return MOREAU_SUCCESS;
}

moreau_err inv_box_create(MPI_Comm comm, const inv_box *p, moreau_sim **simp)
{
  moreau_sim *sim;
  moreau_bodies *b;
  moreau_nlgs *nlgs;
  const double gravity[3] = {0.0, -9.81, 0.0};
  moreau_gen_params gen = {.type = MOREAU_GEN_LATTICE,
                           .n = p->n,
                           .hi = {p->width, p->height, 0},
                           .radius = 0.5,
                           .polydispersity = 0.3,
                           .jitter = 0.8,
                           .seed = 42};
  MOREAU_CALL(moreau_sim_create(comm, 2, &sim));
  b = moreau_sim_bodies(sim);
  nlgs = moreau_sim_nlgs(sim);
  MOREAU_CALL(scene_set_law(sim, p->mu, 0.0, 0.0));
  moreau_sim_set_dt(sim, p->dt);
  moreau_sim_set_alert(sim, p->alert);
  moreau_sim_set_gravity(sim, gravity);
  MOREAU_CALL(moreau_generate(&gen, b, moreau_sim_materials(sim)));
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    moreau_rng rng;
    moreau_rng_seed(&rng, 77, (uint64_t)b->gid[i]);
    b->v[3 * i] = p->box_velocity + p->scatter * (2.0 * moreau_rng_uniform(&rng) - 1.0);
    b->v[3 * i + 1] = p->scatter * (2.0 * moreau_rng_uniform(&rng) - 1.0);
    b->w[3 * i + 2] = p->scatter * (2.0 * moreau_rng_uniform(&rng) - 1.0);
  }
  MOREAU_CALL(add_walls(sim, p));
  moreau_nlgs_set_tolerance(nlgs, p->nlgs_tol, MOREAU_NLGS_NORM_MEAN);
  moreau_nlgs_set_iterations(nlgs, 2, 5000);
  moreau_nlgs_set_seed(nlgs, p->seed);
  moreau_part_set_imbalance(moreau_sim_part(sim), p->imbalance);
  moreau_part_set_type(moreau_sim_part(sim), p->part_type);
  MOREAU_CALL(moreau_sim_setup(sim, 0.01));
  *simp = sim;
  return MOREAU_SUCCESS;
}

moreau_err inv_pyramid_add(moreau_sim *sim, int n0)
{
  /* Rows 2.3 r apart along x: a disk rests on two below at 35 degrees from
   * the vertical and clears its row neighbours by 0.3 r. */
  const double r = 0.5, spacing = 2.3 * r, rise = sqrt(4.0 * r * r - 0.25 * spacing * spacing);
  moreau_gid gid = 0;
  for (int row = 0; row < n0; row++)
    for (int j = 0; j < n0 - row; j++, gid++) {
      moreau_rng rng;
      double x[3] = {(j + 0.5 * row) * spacing, row * rise, 0.0};
      moreau_rng_seed(&rng, 31, (uint64_t)gid);
      MOREAU_CALL(scene_add_body(sim, gid, x, NULL, r, 0.5 + moreau_rng_uniform(&rng), row == 0));
    }
  return MOREAU_SUCCESS;
}

static double frame_kinetic_energy(const moreau_sim *sim, double vx)
{
  const moreau_bodies *b = moreau_sim_bodies(sim);
  double e = 0.0;
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    double u = b->v[3 * i] - vx, v = b->v[3 * i + 1], w = b->w[3 * i + 2];
    if (b->inv_mass[i] > 0.0) e += 0.5 * (u * u + v * v) / b->inv_mass[i];
    if (b->inv_inertia[i] > 0.0) e += 0.5 * w * w / b->inv_inertia[i];
  }
  return par_sum(moreau_sim_comm(sim), e);
}

moreau_err inv_run(moreau_sim *sim, int steps, int window, double frame_vx, inv_state *st)
{
  const moreau_bodies *b = moreau_sim_bodies(sim);
  const moreau_walls *w = moreau_sim_walls(sim);
  int64_t count0, sum0;
  double rmin = INFINITY;
  memset(st, 0, sizeof(*st));
  st->converged = 1;
  MOREAU_CALL(moreau_bodies_global_count(b, &count0, &sum0));
  for (int s = 0; s < steps; s++) {
    const moreau_step_stats *stats;
    MOREAU_CALL(moreau_sim_step(sim));
    stats = moreau_sim_stats(sim);
    MOREAU_CALL(moreau_bodies_global_count(b, &st->count, &st->gid_sum));
    st->count_changes += st->count != count0 || st->gid_sum != sum0;
    st->max_overlap = fmax(st->max_overlap, stats->max_overlap);
    st->converged &= stats->solve.converged;
    if (s >= steps - window)
      for (int iw = 0; iw < w->n; iw++)
        st->wall_load -= w->reaction[3 * iw + 1] / window;
  }
  for (moreau_lid i = 0; i < b->n_owned; i++)
    rmin = fmin(rmin, b->radius[i]);
  MOREAU_MPI_CALL(MPI_Allreduce(&rmin, &st->min_radius, 1, MPI_DOUBLE, MPI_MIN, moreau_sim_comm(sim)));
  st->mean_x = par_mean_coordinate(sim, 0);
  st->mean_y = par_mean_coordinate(sim, 1);
  st->kinetic = frame_kinetic_energy(sim, frame_vx);
  st->contacts = moreau_sim_stats(sim)->n_contacts_global;
  if (moreau_sim_size(sim) > 1) {
    moreau_part_stats stats;
    moreau_part_get_stats(moreau_sim_part(sim), &stats);
    st->repartitions = stats.repartitions;
  }
  return MOREAU_SUCCESS;
}

void inv_make_tmpdir(char *dir)
{
  int ok = 1;
  char buf[256] = {0};
  if (par_rank(MPI_COMM_WORLD) == 0) {
    const char *base = getenv("TMPDIR");
    snprintf(buf, sizeof(buf), "%s/moreau_invariance_XXXXXX", base && base[0] ? base : "/tmp");
    ok = mkdtemp(buf) != NULL;
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(buf, sizeof(buf), MPI_CHAR, 0, MPI_COMM_WORLD);
  ck_assert_msg(ok, "cannot make a temporary directory");
  memcpy(dir, buf, sizeof(buf));
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

void inv_remove_tree(const char *dir)
{
  MPI_Barrier(MPI_COMM_WORLD);
  if (par_rank(MPI_COMM_WORLD) == 0) nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  MPI_Barrier(MPI_COMM_WORLD);
}
