/* The rough-wall shear cell: grains glued to walls (moreau_rough_cell).
 * - A frictionless disk (sphere) hitting a grain of a force-driven wall of
 *   mass M at an angle theta to the wall's normal takes the impulse of a
 *   body of mass m against a body that moves along N only,
 *   P = u / (1/m + cos^2 theta / M), and the wall moves along N by P cos
 *   theta / M, to round-off; against a velocity-driven wall P = m u.
 * - A sheared cell of disks (spheres) between two rough walls, the top one
 *   pushed by a pressure and sheared at an inertial number: over the run
 *   the top wall's momentum balance sum(R dt) = drive T + M (V_end -
 *   V_start) holds to round-off on every rank count; the grains stay on
 *   their wall's plane, the bodies between the walls, the body count and
 *   gid sum constant; no contact of a grain with its own wall.
 * - The contact set of the first step of that cell on P ranks is the
 *   one-rank set (keys exact, geometry to 1e-12).
 * - A grain glued to a missing wall, or not fixed, is an input error.
 * - A disk held between two rough walls: the Love-Weber stress between the
 *   grains' inner faces is the wall's traction. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "moreau/analysis.h"
#include "moreau/rng.h"
#include "parallel.h"
#include "scene.h"
#include "shear_scene.h"

#define GEOMETRY_TOL 1e-12

/* A grain glued to wall iw (not collective: rank 0 adds it). */
static moreau_err add_grain(moreau_sim *sim, moreau_gid gid, const double x[3], double radius, int iw)
{
  moreau_body body;
  memset(&body, 0, sizeof(body));
  body.gid = gid;
  memcpy(body.x, x, sizeof(body.x));
  body.q[0] = 1.0;
  body.radius = radius;
  body.fixed = 1;
  body.glued = iw + 1;
  moreau_body_set_mass(&body, moreau_sim_dim(sim), 1.0);
  return moreau_bodies_push_owned(moreau_sim_bodies(sim), &body);
}

/* An empty sim over the box [lo, hi], periodic along x (and z), no
 * gravity, time step dt, friction mu without restitution, the NLGS to tol
 * (mean norm) in at most max_it sweeps. */
static moreau_err cell_sim_create(MPI_Comm comm, int dim, const double lo[3], const double hi[3], double dt, double mu,
                                  double tol, int max_it, moreau_sim **simp)
{
  const double g[3] = {0, 0, 0};
  MOREAU_CALL(moreau_sim_create(comm, dim, simp));
  moreau_sim *sim = *simp;
  moreau_domain *d = moreau_sim_domain(sim);
  moreau_sim_set_dt(sim, dt);
  moreau_sim_set_gravity(sim, g);
  MOREAU_CALL(scene_set_law(sim, mu, 0.0, 0.0));
  MOREAU_CALL(moreau_domain_set_box(d, lo, hi));
  MOREAU_CALL(moreau_domain_set_periodic(d, 0, 1));
  if (dim == 3) MOREAU_CALL(moreau_domain_set_periodic(d, 2, 1));
  moreau_nlgs_set_tolerance(moreau_sim_nlgs(sim), tol, MOREAU_NLGS_NORM_MEAN);
  moreau_nlgs_set_iterations(moreau_sim_nlgs(sim), 2, max_it);
  return MOREAU_SUCCESS;
}

/* ---- one impact ------------------------------------------------------------------------------------------------ */

/* A periodic strip of width 8 along x (and z), a fixed floor at y = 0 and a
 * top wall at y = 4 (normal -y; force-driven of mass M with no drive, or
 * held when M = 0) carrying one grain of radius 0.5 at (4, 4); a free disk
 * of radius 0.5 and density 1 touches it from below at angle theta and
 * moves toward it at speed u. Returns the disk's and the wall's velocity
 * after one step. */
static moreau_err impact(MPI_Comm comm, int dim, double theta, double M, double u, double *m, double v[3], double V[3])
{
  moreau_sim *sim;
  const double lo[3] = {0, 0, 0}, hi[3] = {8, 4, dim == 3 ? 8 : 0};
  const double floor_p[3] = {0, 0, 0}, up[3] = {0, 1, 0}, top_p[3] = {0, 4, 0}, down[3] = {0, -1, 0};
  const double grain[3] = {4, 4, dim == 3 ? 4 : 0};
  /* From the disk to the grain, theta off the vertical. */
  const double dir[3] = {sin(theta), cos(theta), 0};
  double x[3], v0[3];
  for (int k = 0; k < 3; k++) {
    x[k] = grain[k] - (1.0 + 1e-9) * dir[k];
    v0[k] = u * dir[k];
  }
  MOREAU_CALL(cell_sim_create(comm, dim, lo, hi, 1e-3, 0.0, 1e-14, 1000, &sim));
  moreau_walls *w = moreau_sim_walls(sim);
  MOREAU_CALL(moreau_walls_add(w, floor_p, up, MOREAU_WALL_FIXED, NULL, 0.0, 0.0, 0, NULL));
  MOREAU_CALL(
      moreau_walls_add(w, top_p, down, M > 0 ? MOREAU_WALL_FORCE : MOREAU_WALL_VELOCITY, NULL, M, 0.0, 0, NULL));
  if (par_rank(comm) == 0) {
    MOREAU_CALL(add_grain(sim, 0, grain, 0.5, 1));
    MOREAU_CALL(scene_add_body(sim, 1, x, v0, 0.5, 1.0, 0));
  }
  MOREAU_CALL(moreau_sim_setup(sim, 0.0));
  MOREAU_CALL(moreau_sim_step(sim));
  moreau_body body;
  ck_assert_int_eq(par_get_body(moreau_sim_bodies(sim), 1, &body), 1);
  *m = 1.0 / body.inv_mass;
  memcpy(v, body.v, sizeof(body.v));
  memcpy(V, &w->velocity[3], 3 * sizeof(double));
  MOREAU_CALL(moreau_sim_destroy(&sim));
  return MOREAU_SUCCESS;
}

#define WALL_MASS 3.0

static void check_impact(int dim)
{
  const double theta = 0.6, u = 2.0, c = cos(theta);
  const double dir[3] = {sin(theta), cos(theta), 0};
  double m, v[3], V[3], worst = 0.0;
  for (int held = 0; held < 2; held++) {
    PAR_TRY(MPI_COMM_WORLD, impact(MPI_COMM_WORLD, dim, theta, held ? 0.0 : WALL_MASS, u, &m, v, V));
    const double inv_M = held ? 0.0 : 1.0 / WALL_MASS;
    /* The wall moves along N = -y only: V = (P/M)(d . N) N, d . N = -c. */
    double P = u / (1.0 / m + c * c * inv_M);
    double v_want[3], V_want[3] = {0, P * c * inv_M, 0};
    for (int k = 0; k < 3; k++)
      v_want[k] = u * dir[k] - P / m * dir[k];
    for (int k = 0; k < dim; k++) {
      worst = fmax(worst, fabs(v[k] - v_want[k]) / u);
      worst = fmax(worst, fabs(V[k] - V_want[k]) / u);
    }
    /* Along y the disk and the wall share their momentum. */
    if (!held) worst = fmax(worst, fabs(m * v[1] + WALL_MASS * V[1] - m * u * c) / (m * u));
    if (par_rank(MPI_COMM_WORLD) == 0)
      printf("%dD impact on a grain of a %s wall: disk (%.15g, %.15g), wall y %.15g; closed form (%.15g, %.15g), "
             "%.15g\n",
             dim, held ? "held" : "force-driven", v[0], v[1], V[1], v_want[0], v_want[1], V_want[1]);
  }
  ck_assert_msg(worst < 1e-12, "%dD: the impact on a rough wall's grain is off the closed form by %g u", dim, worst);
}

START_TEST(impact_2d) { check_impact(2); }
END_TEST

START_TEST(impact_3d) { check_impact(3); }
END_TEST

/* A disk of radius 1 held between a grain of the floor (radius 0.5, centre
 * 0.5 below the floor's inner face y = 0) and a grain of a top wall pushed
 * down by F (inner face y = 2), in a strip of period 8: at rest, the
 * Love-Weber stress between the inner faces counts the grains' contacts as
 * wall contacts, sigma_yy = F 2 / (8 x 2) = F / 8, the rest 0. */
START_TEST(stack_stress)
{
  const double lo[3] = {0, -1, 0}, hi[3] = {8, 3, 0}, F = 5.0;
  const double floor_p[3] = {0, -0.5, 0}, up[3] = {0, 1, 0}, top_p[3] = {0, 2.5, 0}, down[3] = {0, -1, 0};
  const double g0[3] = {4, -0.5, 0}, g1[3] = {4, 2.5, 0}, x[3] = {4, 1, 0};
  moreau_sim *sim;
  double sigma[9];
  PAR_TRY(MPI_COMM_WORLD, cell_sim_create(MPI_COMM_WORLD, 2, lo, hi, 1e-3, 0.4, 1e-14, 1000, &sim));
  moreau_walls *w = moreau_sim_walls(sim);
  PAR_TRY(MPI_COMM_WORLD, moreau_walls_add(w, floor_p, up, MOREAU_WALL_FIXED, NULL, 0.0, 0.0, 0, NULL));
  PAR_TRY(MPI_COMM_WORLD, moreau_walls_add(w, top_p, down, MOREAU_WALL_FORCE, NULL, 2.0, F, 0, NULL));
  if (par_rank(MPI_COMM_WORLD) == 0) {
    PAR_TRY(MPI_COMM_SELF, add_grain(sim, 0, g0, 0.5, 0));
    PAR_TRY(MPI_COMM_SELF, add_grain(sim, 1, g1, 0.5, 1));
    PAR_TRY(MPI_COMM_SELF, scene_add_body(sim, 2, x, NULL, 1.0, 1.0, 0));
  }
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_setup(sim, 1e-12));
  for (int step = 0; step < 5; step++)
    PAR_TRY(MPI_COMM_WORLD, moreau_sim_step(sim));
  const moreau_region region = {{0, 0, 0}, {8, 2, 0}};
  PAR_TRY(MPI_COMM_WORLD, moreau_stress_region(MPI_COMM_WORLD, moreau_sim_domain(sim), moreau_sim_bodies(sim),
                                               moreau_sim_contacts(sim), &region, sigma));
  if (par_rank(MPI_COMM_WORLD) == 0)
    printf("stack between two rough walls: sigma_yy %.15g (F / 8 = %.15g), sigma_xx %.3g, sigma_xy %.3g, top wall "
           "reaction %.15g\n",
           sigma[4], F / 8, sigma[0], sigma[1], w->reaction[4]);
  ck_assert_msg(fabs(sigma[4] - F / 8) <= 1e-12 * F, "sigma_yy %.17g, not F / 8", sigma[4]);
  ck_assert_msg(fabs(sigma[0]) + fabs(sigma[1]) + fabs(sigma[3]) <= 1e-12 * F, "sigma_xx %g, xy %g, yx %g", sigma[0],
                sigma[1], sigma[3]);
  ck_assert_msg(fabs(w->reaction[4] - F) <= 1e-12 * F, "top wall reaction %.17g, not F", w->reaction[4]);
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}
END_TEST

/* ---- a sheared cell ------------------------------------------------------------------------------------------ */

#define CELL_GAP 8.0
#define GRAIN_D 1.0
#define PRESSURE 100.0

/* The cell's period along x (and z): 12 in 2D, 6 in 3D. */
static double cell_len(int dim) { return dim == 2 ? 12.0 : 6.0; }

/* A dense jittered lattice of free bodies in [0, L] x [0, 8] (x [0, L])
 * with layers of grains of diameter 1 glued to the floor (wall 0, plane y
 * = -0.5) and to the top wall (wall 1, plane y = 8.5, force-driven: drive
 * p x area, mass M = the bodies' mass), sheared at inertial number 0.1. */
static moreau_err cell_create(MPI_Comm comm, int dim, moreau_sim **simp)
{
  const double len = cell_len(dim), z_len = dim == 3 ? len : 1.0;
  const double lo[3] = {0, -GRAIN_D, 0}, hi[3] = {len, CELL_GAP + GRAIN_D, dim == 3 ? len : 0};
  const double floor_p[3] = {0, -0.5 * GRAIN_D, 0}, up[3] = {0, 1, 0};
  const double top_p[3] = {0, CELL_GAP + 0.5 * GRAIN_D, 0}, down[3] = {0, -1, 0};
  const int nx = (int)len, ny = (int)CELL_GAP, nz = dim == 3 ? (int)len : 1;
  moreau_sim *sim;
  moreau_gid gid = 0;
  double mass = 0.0;
  MOREAU_CALL(cell_sim_create(comm, dim, lo, hi, 2e-3, 0.4, 1e-5, 3000, simp));
  sim = *simp;
  moreau_sim_set_alert(sim, 0.1);
  for (int k = 0; k < nz; k++)
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++, gid++) {
        moreau_rng rng;
        double x[3], v[3] = {0, 0, 0}, r;
        moreau_rng_seed(&rng, 17, (uint64_t)gid);
        r = 0.40 + 0.08 * moreau_rng_uniform(&rng);
        x[0] = i + 0.5 + (0.5 - r) * (2.0 * moreau_rng_uniform(&rng) - 1.0);
        x[1] = j + 0.5 + (0.5 - r) * (2.0 * moreau_rng_uniform(&rng) - 1.0);
        x[2] = dim == 3 ? k + 0.5 + (0.5 - r) * (2.0 * moreau_rng_uniform(&rng) - 1.0) : 0.0;
        for (int a = 0; a < dim; a++)
          v[a] = 0.2 * (2.0 * moreau_rng_uniform(&rng) - 1.0);
        mass += (dim == 2 ? M_PI * r * r : 4.0 / 3.0 * M_PI * r * r * r);
        if (par_rank(comm) == 0) MOREAU_CALL(scene_add_body(sim, gid, x, v, r, 1.0, 0));
      }
  moreau_walls *w = moreau_sim_walls(sim);
  MOREAU_CALL(moreau_walls_add(w, floor_p, up, MOREAU_WALL_FIXED, NULL, 0.0, 0.0, 0, NULL));
  MOREAU_CALL(moreau_walls_add(w, top_p, down, MOREAU_WALL_FORCE, NULL, mass, PRESSURE * len * z_len, 0, NULL));
  for (int wall = 0; wall < 2; wall++)
    for (int k = 0; k < nz; k++)
      for (int i = 0; i < nx; i++, gid++) {
        const double x[3] = {i + 0.5, wall ? top_p[1] : floor_p[1], dim == 3 ? k + 0.5 : 0.0};
        if (par_rank(comm) == 0) MOREAU_CALL(add_grain(sim, gid, x, 0.5 * GRAIN_D, wall));
      }
  /* I = 0.1 with d about 0.88 and rho 1: rate = I sqrt(p / rho) / d. */
  moreau_rough_cell rc = {.bottom = 0,
                          .top = 1,
                          .flow = 0,
                          .gradient = 1,
                          .diameter = GRAIN_D,
                          .shear_rate = 0.1 * sqrt(PRESSURE) / 0.88,
                          .pressure = PRESSURE};
  MOREAU_CALL(moreau_sim_set_rough_cell(sim, &rc));
  MOREAU_CALL(moreau_sim_setup(sim, 0.0));
  return MOREAU_SUCCESS;
}

/* Collective: how far the grains of wall iw are from its plane, and the
 * free bodies outside the walls' planes (count). */
static void grains_and_bodies(const moreau_sim *sim, double *off_plane, double *outside)
{
  const moreau_bodies *b = moreau_sim_bodies(sim);
  const moreau_walls *w = moreau_sim_walls(sim);
  double off = 0.0, out = 0.0, y_lo = w->point[1], y_hi = w->point[4];
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    double y = b->x[3 * i + 1];
    if (b->glued[i])
      off = fmax(off, fabs(y - w->point[3 * (b->glued[i] - 1) + 1]));
    else
      out += !(y > y_lo && y < y_hi);
  }
  *off_plane = par_max(moreau_sim_comm(sim), off);
  *outside = par_sum(moreau_sim_comm(sim), out);
}

static void check_cell(int dim)
{
  moreau_sim *sim;
  int64_t count0, sum0, count, sum, changes = 0;
  double impulse = 0.0, worst_off = 0.0, outside = 0.0, own_wall = 0.0, off, out;
  const int steps = dim == 2 ? 300 : 100;
  PAR_TRY(MPI_COMM_WORLD, cell_create(MPI_COMM_WORLD, dim, &sim));
  const moreau_bodies *b = moreau_sim_bodies(sim);
  const moreau_walls *w = moreau_sim_walls(sim);
  const double dt = moreau_sim_dt(sim), V0 = w->velocity[4], M = w->mass[1], drive = w->drive[1];
  PAR_TRY(MPI_COMM_WORLD, moreau_bodies_global_count(b, &count0, &sum0));
  double gap_before = 0.0;
  for (int s = 0; s < steps; s++) {
    gap_before = moreau_sim_rough_gap(sim);
    PAR_TRY(MPI_COMM_WORLD, moreau_sim_step(sim));
    /* The reaction is the force of the bodies on the wall: along +y. */
    impulse += w->reaction[4] * dt;
    PAR_TRY(MPI_COMM_WORLD, moreau_bodies_global_count(b, &count, &sum));
    changes += count != count0 || sum != sum0;
    grains_and_bodies(sim, &off, &out);
    worst_off = fmax(worst_off, off);
    outside += out;
    const moreau_contacts *c = moreau_sim_contacts(sim);
    double mine = 0.0;
    for (moreau_lid k = 0; k < c->n; k++)
      mine += c->b[k] < 0 && b->glued[c->a[k]] == -c->b[k];
    own_wall += par_sum(MPI_COMM_WORLD, mine);
  }
  /* M (V_end - V_start) = sum (R - drive) dt along y. */
  const double T = steps * dt, lhs = impulse, rhs = drive * T + M * (w->velocity[4] - V0);
  moreau_rough_cell rc;
  ck_assert(moreau_sim_rough_cell(sim, &rc));
  const double strain = moreau_sim_rough_strain(sim), gap = moreau_sim_rough_gap(sim);
  /* Set from the gap at the start of the last step. */
  const double v_flow = w->velocity[3], v_want = rc.shear_rate * gap_before;
  if (par_rank(MPI_COMM_WORLD) == 0)
    printf("%dD rough cell on %d ranks, %d steps: strain %.3f, gap %.4f; top wall impulse %.15g, drive T + M dV "
           "%.15g (relative %.2g); grains off their plane %.2g; bodies outside %g; contacts grain-own wall %g\n",
           dim, par_size(MPI_COMM_WORLD), steps, strain, gap, lhs, rhs, fabs(lhs - rhs) / rhs, worst_off, outside,
           own_wall);
  ck_assert_msg(changes == 0, "%dD: the body count or gid sum changed after %lld steps", dim, (long long)changes);
  ck_assert_msg(fabs(lhs - rhs) <= 1e-9 * rhs, "%dD: the top wall's momentum balance is off by %g", dim,
                fabs(lhs - rhs) / rhs);
  ck_assert_msg(worst_off <= 1e-12, "%dD: a grain left its wall's plane by %g", dim, worst_off);
  ck_assert_msg(outside == 0, "%dD: %g body positions outside the walls", dim, outside);
  ck_assert_msg(own_wall == 0, "%dD: %g contacts of a grain with its own wall", dim, own_wall);
  ck_assert_msg(strain > 0.05, "%dD: the cell was hardly sheared (strain %g)", dim, strain);
  ck_assert_msg(v_flow == v_want, "%dD: top wall flow velocity %.17g, not the shear rate times H = %.17g", dim, v_flow,
                v_want);
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}

START_TEST(cell_2d) { check_cell(2); }
END_TEST

START_TEST(cell_3d) { check_cell(3); }
END_TEST

/* ---- partition invariance ------------------------------------------------------------------------------------ */

static moreau_err first_contacts(MPI_Comm comm, int dim, par_contact **all, int64_t *n)
{
  moreau_sim *sim;
  MOREAU_CALL(cell_create(comm, dim, &sim));
  MOREAU_CALL(moreau_sim_step(sim));
  par_gather_contacts(comm, moreau_sim_bodies(sim), moreau_sim_contacts(sim), all, n);
  MOREAU_CALL(moreau_sim_destroy(&sim));
  return MOREAU_SUCCESS;
}

static void check_invariance(int dim)
{
  par_contact *ref = NULL, *c;
  int64_t n_ref = 0, n, with_grains = 0;
  double worst = 0.0;
  moreau_err ref_err = MOREAU_SUCCESS;
  const int64_t n_free = dim == 2 ? 12 * 8 : 6 * 8 * 6;
  if (par_rank(MPI_COMM_WORLD) == 0) ref_err = first_contacts(MPI_COMM_SELF, dim, &ref, &n_ref);
  par_idle_barrier(MPI_COMM_WORLD);
  PAR_TRY(MPI_COMM_WORLD, ref_err);
  par_bcast_items(MPI_COMM_WORLD, 0, (void **)&ref, &n_ref, sizeof(par_contact));
  PAR_TRY(MPI_COMM_WORLD, first_contacts(MPI_COMM_WORLD, dim, &c, &n));
  ck_assert_msg(n == n_ref, "%dD: %lld contacts on %d ranks, %lld on one", dim, (long long)n, par_size(MPI_COMM_WORLD),
                (long long)n_ref);
  for (int64_t k = 0; k < n; k++) {
    ck_assert_msg(par_contact_by_key(&c[k], &ref[k]) == 0, "contact %lld: key (%lld, %lld) instead of (%lld, %lld)",
                  (long long)k, (long long)c[k].gid_a, (long long)c[k].gid_b, (long long)ref[k].gid_a,
                  (long long)ref[k].gid_b);
    with_grains += (c[k].gid_a >= n_free && c[k].gid_a < MOREAU_WALL_GID_BASE) ||
                   (c[k].gid_b >= n_free && c[k].gid_b < MOREAU_WALL_GID_BASE);
    worst = fmax(worst, fabs(c[k].gap - ref[k].gap));
    for (int d = 0; d < 3; d++) {
      worst = fmax(worst, fabs(c[k].normal[d] - ref[k].normal[d]));
      worst = fmax(worst, fabs(c[k].ca[d] - ref[k].ca[d]));
      worst = fmax(worst, fabs(c[k].cb[d] - ref[k].cb[d]));
    }
  }
  if (par_rank(MPI_COMM_WORLD) == 0)
    printf("%dD rough cell on %d ranks: %lld contacts, %lld with a grain; geometry within %.3g\n", dim,
           par_size(MPI_COMM_WORLD), (long long)n, (long long)with_grains, worst);
  ck_assert_msg(with_grains > 0, "%dD: no contact with a wall's grain", dim);
  ck_assert_msg(worst <= GEOMETRY_TOL, "%dD: geometry differs by %g", dim, worst);
  free(c);
  free(ref);
}

START_TEST(invariance_2d) { check_invariance(2); }
END_TEST

START_TEST(invariance_3d) { check_invariance(3); }
END_TEST

/* A grain glued to a wall that does not exist, or one that is not fixed,
 * is refused by setup (a snapshot used as input may hold either). */
START_TEST(bad_glue)
{
  const double x[3] = {1, 1, 0}, p[3] = {0, 0, 0}, up[3] = {0, 1, 0};
  for (int c = 0; c < 2; c++) {
    moreau_sim *sim;
    PAR_TRY(MPI_COMM_WORLD, moreau_sim_create(MPI_COMM_WORLD, 2, &sim));
    PAR_TRY(MPI_COMM_WORLD, moreau_walls_add(moreau_sim_walls(sim), p, up, MOREAU_WALL_FIXED, NULL, 0.0, 0.0, 0, NULL));
    if (par_rank(MPI_COMM_WORLD) == 0) {
      moreau_body body;
      memset(&body, 0, sizeof(body));
      body.gid = 0;
      memcpy(body.x, x, sizeof(body.x));
      body.q[0] = 1.0;
      body.radius = 0.5;
      body.fixed = c == 0;
      body.glued = c == 0 ? 2 : 1;
      moreau_body_set_mass(&body, 2, 1.0);
      PAR_TRY(MPI_COMM_SELF, moreau_bodies_push_owned(moreau_sim_bodies(sim), &body));
    }
    moreau_err err = moreau_sim_setup(sim, 0.0);
    const char *msg = moreau_error_message();
    ck_assert_int_eq(err, MOREAU_ERR_INPUT);
    if (par_rank(MPI_COMM_WORLD) == 0)
      ck_assert_msg(strstr(msg, c == 0 ? "glued to wall 1, which does not exist" : "must be fixed"), "message: %s",
                    msg);
    moreau_error_clear();
    PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
  }
}
END_TEST

TCase *shear_rough_case(void)
{
  TCase *tc = tcase_create("rough");
  tcase_add_test(tc, impact_2d);
  tcase_add_test(tc, impact_3d);
  tcase_add_test(tc, cell_2d);
  tcase_add_test(tc, cell_3d);
  tcase_add_test(tc, invariance_2d);
  tcase_add_test(tc, invariance_3d);
  tcase_add_test(tc, bad_glue);
  tcase_add_test(tc, stack_stress);
  tcase_set_timeout(tc, 600);
  return tc;
}
