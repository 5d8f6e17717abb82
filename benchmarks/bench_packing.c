#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_nlgs.h"
#include "moreau/generate.h"
#include "moreau/io.h"

/* Disks (spheres) of mean radius 0.5 (diameter 1), radii in [0.35, 0.65], on
 * a square (cubic) lattice about sqrt(n) (cbrt(n)) sites wide: the pile
 * settles to a layer lower than it is wide, so the side walls carry only a
 * small part of the weight. */
#define MEAN_RADIUS 0.5
#define POLYDISPERSITY 0.3
#define JITTER 0.8
#define GRAVITY 9.81
#define DT 2e-3
/* Static when the bodies' root mean square speed is below this share of
 * sqrt(g d). */
#define STATIC_SPEED 1e-3
#define SETTLE_MIN_STEPS 500
#define SETTLE_MAX_STEPS 20000
#define SETTLE_CHECK_EVERY 50
/* The deposition only has to end in a dense static pile, not follow an
 * accurate trajectory: a loose tolerance and a cap on the sweeps keep the
 * impacts cheap, and warm start makes the quasi-static end converge anyway. */
#define SETTLE_TOL 1e-3
#define SETTLE_MAX_SWEEPS 100

/* 2D: a square lattice about sqrt(n) sites wide; 3D: a cubic one about
 * cbrt(n) sites wide and deep. The vertical axis (y in 2D, z in 3D) holds
 * the rows that the n bodies fill, plus one row of room. */
static void pile_box(const bench_params *p, double lo[3], double hi[3])
{
  double spacing = 2.0 * MEAN_RADIUS * (1.0 + POLYDISPERSITY) * (1.0 + MOREAU_GEN_LATTICE_GAP);
  int up = p->dim - 1;
  int64_t cols = (int64_t)ceil(p->dim == 2 ? sqrt((double)p->n) : cbrt((double)p->n));
  int64_t layer = p->dim == 2 ? cols : cols * cols, rows = (p->n + layer - 1) / layer;
  lo[0] = lo[1] = lo[2] = 0.0;
  hi[2] = 0.0;
  /* A little slack so that rounding never drops a lattice column or row. */
  for (int d = 0; d < up; d++)
    hi[d] = (double)cols * spacing * (1.0 + 1e-9);
  hi[up] = (double)(rows + 1) * spacing;
}

/* A fixed wall on each face of the box. */
static moreau_err add_walls(moreau_sim *sim, int dim, const double lo[3], const double hi[3])
{
  for (int d = 0; d < dim; d++)
    for (int side = 0; side < 2; side++) {
      double pt[3] = {0.0, 0.0, 0.0}, nrm[3] = {0.0, 0.0, 0.0};
      pt[d] = side ? hi[d] : lo[d];
      nrm[d] = side ? -1.0 : 1.0;
      MOREAU_CALL(moreau_walls_add(moreau_sim_walls(sim), pt, nrm, MOREAU_WALL_FIXED, NULL, 0.0, 0.0, 0, NULL));
    }
  return MOREAU_SUCCESS;
}

/* The settled pile is cached as CSV (x, y[, z], r in global id order), the
 * plainest format moreau_read_particles reads, so that a cache survives
 * changes to the snapshot layout. */
static void cache_path(const bench_params *p, char *path, size_t len)
{
  snprintf(path, len, "%s/%s_n%lld_seed%llu_mu%g.csv", p->cache, p->dim == 2 ? "pile" : "bed3d", (long long)p->n,
           (unsigned long long)p->seed, p->mu);
}

static int by_gid(const void *x, const void *y)
{
  double a = ((const double *)x)[0], b = ((const double *)y)[0];
  return (a > b) - (a < b);
}

/* rec: n records of (gid, x, y[, z], r). */
static moreau_err write_rows(const char *dir, const char *path, int dim, const double *rec, int64_t n)
{
  const int w = dim + 2;
  char tmp[4400];
  FILE *f;
  int ok;
  /* Written beside the target and renamed, so that an interrupted run
   * leaves no truncated cache behind. */
  MOREAU_CHECK(mkdir(dir, 0777) == 0 || errno == EEXIST, MOREAU_ERR_IO, "%s: cannot create: %s", dir, strerror(errno));
  snprintf(tmp, sizeof(tmp), "%s.tmp", path);
  f = fopen(tmp, "w");
  MOREAU_CHECK(f, MOREAU_ERR_IO, "%s: cannot open for writing: %s", tmp, strerror(errno));
  ok = fprintf(f, dim == 2 ? "x,y,r\n" : "x,y,z,r\n") > 0;
  for (int64_t i = 0; i < n && ok; i++)
    for (int j = 1; j < w && ok; j++)
      ok = fprintf(f, "%.17g%c", rec[w * i + j], j + 1 < w ? ',' : '\n') > 0;
  ok = (fclose(f) == 0) && ok;
  MOREAU_CHECK(ok, MOREAU_ERR_IO, "%s: write failed", tmp);
  MOREAU_CHECK(rename(tmp, path) == 0, MOREAU_ERR_IO, "%s: cannot rename to %s: %s", tmp, path, strerror(errno));
  return MOREAU_SUCCESS;
}

/* Collective: gathers (gid, x, y[, z], r) on rank 0, which writes the file. */
static moreau_err write_packing(const moreau_sim *sim, const char *dir, const char *path)
{
  const moreau_bodies *b = moreau_sim_bodies(sim);
  const int dim = moreau_sim_dim(sim), w = dim + 2;
  int n = (int)b->n_owned, *counts = NULL, *displs = NULL, total = 0;
  double *mine = NULL, *all = NULL;
  moreau_err err = MOREAU_SUCCESS;
  MOREAU_CALL(moreau_malloc((size_t)w * (size_t)n * sizeof(double) + 1, &mine));
  for (int i = 0; i < n; i++) {
    mine[w * i] = (double)b->gid[i];
    for (int d = 0; d < dim; d++)
      mine[w * i + 1 + d] = b->x[3 * i + d];
    mine[w * i + w - 1] = b->radius[i];
  }
  MOREAU_CALL(moreau_malloc((size_t)moreau_sim_size(sim) * sizeof(int), &counts));
  MOREAU_CALL(moreau_malloc((size_t)moreau_sim_size(sim) * sizeof(int), &displs));
  n *= w;
  MOREAU_MPI_CALL(MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, moreau_sim_comm(sim)));
  for (int r = 0; r < moreau_sim_size(sim) && moreau_sim_rank(sim) == 0; r++) {
    displs[r] = total;
    total += counts[r];
  }
  MOREAU_CALL(moreau_malloc((size_t)total * sizeof(double) + 1, &all));
  MOREAU_MPI_CALL(MPI_Gatherv(mine, n, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0, moreau_sim_comm(sim)));
  if (moreau_sim_rank(sim) == 0) {
    qsort(all, (size_t)total / (size_t)w, (size_t)w * sizeof(double), by_gid);
    err = write_rows(dir, path, dim, all, total / w);
  }
  moreau_free(&mine);
  moreau_free(&all);
  moreau_free(&counts);
  moreau_free(&displs);
  MOREAU_CALL(moreau_error_agree(moreau_sim_comm(sim), err));
  return MOREAU_SUCCESS;
}

/* Root mean square over the bodies of |v| + |w| r in 2D: a few rattlers
 * rolling freely along the floor (rolling costs nothing) do not keep the pile
 * from counting as static. In 3D only |v| counts: a sphere resting on a
 * point contact spins about the contact normal for ever (Coulomb's law has no
 * torsion), and such spin moves nothing. */
static moreau_err rms_speed(const moreau_sim *sim, double *rms)
{
  const moreau_bodies *b = moreau_sim_bodies(sim);
  double local[2] = {0.0, (double)b->n_owned}, global[2];
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    const double *u = &b->v[3 * i];
    double s = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    if (moreau_sim_dim(sim) == 2) s += fabs(b->w[3 * i + 2]) * b->radius[i];
    local[0] += s * s;
  }
  MOREAU_MPI_CALL(MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_SUM, moreau_sim_comm(sim)));
  *rms = global[1] > 0 ? sqrt(global[0] / global[1]) : 0.0;
  return MOREAU_SUCCESS;
}

/* Deposition under gravity with the default solver settings until the root
 * mean square speed falls below STATIC_SPEED sqrt(g d). */
static moreau_err settle(bench_problem *prob)
{
  moreau_sim *sim = prob->sim;
  double t0 = MPI_Wtime(), rms = INFINITY, vstatic = STATIC_SPEED * sqrt(GRAVITY * 2.0 * MEAN_RADIUS);
  int64_t step = 0;
  moreau_nlgs_set_tolerance(moreau_sim_nlgs(sim), SETTLE_TOL, MOREAU_NLGS_NORM_MEAN);
  moreau_nlgs_set_iterations(moreau_sim_nlgs(sim), 2, SETTLE_MAX_SWEEPS);
  while (step < SETTLE_MAX_STEPS && (step < SETTLE_MIN_STEPS || rms > vstatic)) {
    MOREAU_CALL(moreau_sim_step(sim));
    step++;
    if (step % SETTLE_CHECK_EVERY) continue;
    MOREAU_CALL(rms_speed(sim, &rms));
    if (moreau_sim_rank(sim) == 0 && step % 500 == 0) {
      const moreau_step_stats *st = moreau_sim_stats(sim);
      printf("  settling: step %6lld  t %6.2f  contacts %8lld  sweeps %5d  overlap %.3g  rms speed %.3g (static "
             "below %.3g)\n",
             (long long)step, moreau_sim_time(sim), (long long)st->n_contacts_global, st->solve.iterations,
             st->max_overlap, rms, vstatic);
    }
  }
  MOREAU_CHECK(rms <= vstatic, MOREAU_ERR_RUNTIME, "the pile is not static after %d steps (rms speed %g)",
               SETTLE_MAX_STEPS, rms);
  prob->settle_steps = step;
  prob->settle_seconds = MPI_Wtime() - t0;
  return MOREAU_SUCCESS;
}

/* Bodies at rest where the pile settled, contacts detected there, and the
 * free velocities U- + dt g with U- = 0. */
static moreau_err freeze(bench_problem *prob)
{
  moreau_sim *sim = prob->sim;
  moreau_bodies *b = moreau_sim_bodies(sim);
  moreau_contacts *c = moreau_sim_contacts(sim);
  moreau_lid nb;
  int64_t local[3], global[3];
  double gravity[3], w = 0.0, g;
  moreau_sim_get_gravity(sim, gravity);
  g = sqrt(gravity[0] * gravity[0] + gravity[1] * gravity[1] + gravity[2] * gravity[2]);
  /* Bodies to their owners, ghosts, and the contacts at these positions
   * (detection does not look at the velocities set below). */
  MOREAU_CALL(moreau_sim_detect(sim));
  nb = moreau_bodies_n_local(b);
  for (moreau_lid i = 0; i < 3 * nb; i++)
    b->v[i] = b->w[i] = 0.0;
  for (moreau_lid i = 0; i < nb; i++) {
    if (b->inv_mass[i] == 0.0) continue;
    for (int d = 0; d < 3; d++)
      b->v[3 * i + d] = moreau_sim_dt(sim) * gravity[d];
  }
  MOREAU_CALL(moreau_malloc(3 * (size_t)nb * sizeof(double) + 1, &prob->v_free));
  MOREAU_CALL(moreau_malloc(3 * (size_t)nb * sizeof(double) + 1, &prob->w_free));
  memcpy(prob->v_free, b->v, 3 * (size_t)nb * sizeof(double));
  memcpy(prob->w_free, b->w, 3 * (size_t)nb * sizeof(double));
  MOREAU_CALL(moreau_calloc(3 * (size_t)c->n + 1, sizeof(double), &prob->u_minus));

  for (moreau_lid i = 0; i < b->n_owned; i++)
    if (b->inv_mass[i] > 0.0) w += g / b->inv_mass[i];
  MOREAU_MPI_CALL(MPI_Allreduce(&w, &prob->weight, 1, MPI_DOUBLE, MPI_SUM, moreau_sim_comm(sim)));
  for (int d = 0; d < 3; d++)
    prob->down[d] = gravity[d] / g;
  local[0] = b->n_owned;
  local[1] = c->n;
  local[2] = 0;
  for (moreau_lid k = 0; k < c->n; k++)
    local[2] += c->b[k] < 0;
  MOREAU_MPI_CALL(MPI_Allreduce(local, global, 3, MPI_INT64_T, MPI_SUM, moreau_sim_comm(sim)));
  prob->n_bodies = global[0];
  prob->n_contacts = global[1];
  prob->n_wall_contacts = global[2];
  return MOREAU_SUCCESS;
}

moreau_err bench_problem_create(MPI_Comm comm, const bench_params *p, bench_problem *prob)
{
  moreau_sim *sim;
  moreau_pair_law law = {.mu = p->mu, .e_n = 0.0, .e_t = 0.0};
  moreau_gen_params gen = {.type = MOREAU_GEN_LATTICE,
                           .n = p->n,
                           .radius = MEAN_RADIUS,
                           .polydispersity = POLYDISPERSITY,
                           .jitter = JITTER,
                           .seed = p->seed};
  int cached = 0;

  memset(prob, 0, sizeof(*prob));
  prob->seed = p->seed;
  MOREAU_CALL(moreau_sim_create(comm, p->dim, &sim));
  prob->sim = sim;
  MOREAU_CALL(moreau_materials_set_pair(moreau_sim_materials(sim), 0, 0, &law));
  moreau_sim_set_dt(sim, DT);
  moreau_sim_set_gravity(sim,
                         p->dim == 2 ? (const double[3]){0.0, -GRAVITY, 0.0} : (const double[3]){0.0, 0.0, -GRAVITY});
  pile_box(p, gen.lo, gen.hi);
  MOREAU_CALL(add_walls(sim, p->dim, gen.lo, gen.hi));
  if (p->cache[0]) {
    cache_path(p, prob->packing_path, sizeof(prob->packing_path));
    cached = access(prob->packing_path, R_OK) == 0;
  }
  if (cached) {
    MOREAU_CALL(moreau_read_particles(prob->packing_path, moreau_sim_bodies(sim), moreau_sim_materials(sim), NULL));
    MOREAU_CALL(moreau_sim_setup(sim, 0.1));
  } else {
    MOREAU_CHECK(moreau_generate_lattice_capacity(p->dim, &gen) >= p->n, MOREAU_ERR_INTERNAL,
                 "the lattice box holds fewer than %lld bodies", (long long)p->n);
    MOREAU_CALL(moreau_generate(&gen, moreau_sim_bodies(sim), moreau_sim_materials(sim)));
    MOREAU_CALL(moreau_sim_setup(sim, 0.01));
    if (moreau_sim_rank(sim) == 0)
      printf("settling %lld %s (nothing cached yet)\n", (long long)p->n, p->dim == 2 ? "disks" : "spheres");
    MOREAU_CALL(settle(prob));
    if (p->cache[0]) MOREAU_CALL(write_packing(sim, p->cache, prob->packing_path));
  }
  MOREAU_CALL(freeze(prob));
  return MOREAU_SUCCESS;
}

moreau_err bench_problem_destroy(bench_problem *prob)
{
  MOREAU_CALL(moreau_sim_destroy(&prob->sim));
  moreau_free(&prob->v_free);
  moreau_free(&prob->w_free);
  moreau_free(&prob->u_minus);
  return MOREAU_SUCCESS;
}

void bench_problem_restore(bench_problem *prob)
{
  moreau_bodies *b = moreau_sim_bodies(prob->sim);
  size_t bytes = 3 * (size_t)moreau_bodies_n_local(b) * sizeof(double);
  memcpy(b->v, prob->v_free, bytes);
  memcpy(b->w, prob->w_free, bytes);
}

moreau_err bench_carried_share(const bench_problem *prob, const double *force, double *share)
{
  const moreau_contacts *c = moreau_sim_contacts(prob->sim);
  double load = 0.0, total;
  for (moreau_lid k = 0; k < c->n; k++) {
    if (c->b[k] >= 0) continue;
    const double *f = &force[3 * k], *n = &c->normal[3 * k];
    double t[3], s[3];
    moreau_contact_frame(moreau_sim_dim(prob->sim), n, t, s);
    for (int d = 0; d < 3; d++)
      load += (f[0] * n[d] + f[1] * t[d] + f[2] * s[d]) * prob->down[d];
  }
  MOREAU_MPI_CALL(MPI_Allreduce(&load, &total, 1, MPI_DOUBLE, MPI_SUM, moreau_sim_comm(prob->sim)));
  *share = total / prob->weight;
  return MOREAU_SUCCESS;
}
