/* The law residual (moreau_nlgs_law_residual, -nlgs_norm law) on a problem
 * with a known solution: a column of N equal disks standing on a floor under
 * gravity, each touching the next, from rest. One Moreau-Jean step from rest
 * has free velocities -g dt and the exact solution brings every disk to rest:
 * the contact under disk j (j = 0 at the bottom) carries the weight of the
 * N - j disks above it, f_n = (N - j) m g, with no friction force, for every
 * law here (plain, cohesive, static/dynamic, rolling: nothing slides, pulls or
 * turns). The column is split across the ranks (one partition cell wide), so
 * on P > 1 its interface bodies are glued copies.
 *
 * Checks: the residual of the exact forces is zero to round-off and leaves
 * the forces, the contact states and the velocities as the forces give them
 * (the evaluation is undone); it is positive when one contact's force is off
 * and grows with the error; a solve stopped by the law norm reaches the
 * closed form more closely as its tolerance falls, and reports the
 * residual of the forces it returns. The same column checks a solve whose
 * u_minus lies in the solver's records, and that the contact list gets back
 * the normals and forces it lends to a solve. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "moreau/law.h"
#include "moreau/nlgs.h"
#include "parallel.h"
#include "scene.h"

#define N_DISKS 24
#define RADIUS 0.5
#define GRAVITY 9.81
#define DT 1e-3

typedef struct {
  moreau_sim *sim;
  moreau_nlgs_problem prob;
  double *u_minus;
  double *exact; /* per local contact: the closed-form normal force */
} column;

/* Collective. The column of disks (dim 2) or spheres (3) under the law
 * name (pair parameters law), the contacts detected at rest. */
static void column_create_dim(const char *name, const moreau_pair_law *law, int dim, column *col)
{
  MPI_Comm comm = MPI_COMM_WORLD;
  moreau_sim *sim;
  PAR_TRY(comm, moreau_sim_create(comm, dim, &sim));
  PAR_TRY(comm, moreau_sim_set_law(sim, moreau_law_find(name)));
  PAR_TRY(comm, moreau_materials_set_pair(moreau_sim_materials(sim), 0, 0, law));
  moreau_sim_set_dt(sim, DT);
  moreau_sim_set_gravity(sim, (const double[3]){0.0, -GRAVITY, 0.0});
  PAR_TRY(comm, scene_add_fixed_wall(sim, 0.0, 0.0, 0.0, 1.0));
  moreau_err err = MOREAU_SUCCESS;
  if (par_rank(comm) == 0)
    for (int j = 0; j < N_DISKS && !err; j++)
      err = scene_add_body(sim, j, (const double[3]){3.0, RADIUS * (2 * j + 1), 0.0}, NULL, RADIUS, 1.0, 0);
  PAR_TRY(comm, err);
  PAR_TRY(comm, moreau_sim_setup(sim, 1e-9));
  PAR_TRY(comm, moreau_sim_detect(sim));

  moreau_contacts *c = moreau_sim_contacts(sim);
  const moreau_bodies *b = moreau_sim_bodies(sim);
  col->sim = sim;
  col->u_minus = calloc(3 * (size_t)c->n + 1, sizeof(double));
  col->exact = calloc((size_t)c->n + 1, sizeof(double));
  for (moreau_lid k = 0; k < c->n; k++) {
    moreau_gid lowest = b->gid[c->a[k]];
    if (c->b[k] >= 0 && b->gid[c->b[k]] > lowest) lowest = b->gid[c->b[k]];
    if (c->b[k] < 0) lowest = 0;
    col->exact[k] = (double)(N_DISKS - lowest) * GRAVITY / b->inv_mass[c->a[k]];
  }
  col->prob = (moreau_nlgs_problem){moreau_sim_bodies(sim),
                                    moreau_sim_walls(sim),
                                    moreau_sim_materials(sim),
                                    c,
                                    col->u_minus,
                                    moreau_sim_part(sim),
                                    DT};
  /* A column of N disks on a floor: N contacts. */
  int64_t n = c->n;
  MPI_Allreduce(MPI_IN_PLACE, &n, 1, MPI_INT64_T, MPI_SUM, comm);
  ck_assert_int_eq(n, N_DISKS);
}

static void column_create(const char *name, const moreau_pair_law *law, column *col)
{
  column_create_dim(name, law, 2, col);
}

static void column_destroy(column *col)
{
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&col->sim));
  free(col->u_minus);
  free(col->exact);
}

/* Every local copy at the free velocity of the step from rest. */
static void free_velocities(column *col)
{
  moreau_bodies *b = moreau_sim_bodies(col->sim);
  for (moreau_lid i = 0; i < moreau_bodies_n_local(b); i++) {
    for (int k = 0; k < 3; k++)
      b->v[3 * i + k] = b->w[3 * i + k] = 0.0;
    b->v[3 * i + 1] = -GRAVITY * DT;
  }
}

/* The exact forces, contact `bad` (global: the contact under disk `bad`)
 * scaled by 1 + err. */
static void set_forces(column *col, moreau_gid bad, double err)
{
  moreau_contacts *c = moreau_sim_contacts(col->sim);
  const moreau_bodies *b = moreau_sim_bodies(col->sim);
  for (moreau_lid k = 0; k < c->n; k++) {
    moreau_gid upper = c->b[k] >= 0 && b->gid[c->b[k]] > b->gid[c->a[k]] ? b->gid[c->b[k]] : b->gid[c->a[k]];
    c->force[3 * k] = col->exact[k] * (upper == bad ? 1.0 + err : 1.0);
    c->force[3 * k + 1] = c->force[3 * k + 2] = 0.0;
  }
}

static double residual_of(column *col)
{
  double r;
  free_velocities(col);
  PAR_TRY(MPI_COMM_WORLD, moreau_nlgs_law_residual(moreau_sim_nlgs(col->sim), &col->prob, &r));
  return r;
}

/* The largest |f_n - exact| / exact over the contacts of all ranks. */
static double force_error(const column *col)
{
  const moreau_contacts *c = moreau_sim_contacts(col->sim);
  double worst = 0.0;
  for (moreau_lid k = 0; k < c->n; k++)
    worst =
        fmax(worst, fabs(c->force[3 * k] - col->exact[k]) / col->exact[k] + fabs(c->force[3 * k + 1]) / col->exact[k]);
  return par_max(MPI_COMM_WORLD, worst);
}

/* The largest speed of a body (its owner's copy; a ghost whose rank has no
 * contact on it keeps the free velocity). */
static double top_speed(const column *col)
{
  const moreau_bodies *b = moreau_sim_bodies(col->sim);
  double worst = 0.0;
  for (moreau_lid i = 0; i < b->n_owned; i++)
    worst = fmax(worst, hypot(b->v[3 * i], b->v[3 * i + 1]) + fabs(b->w[3 * i + 2]) * RADIUS);
  return par_max(MPI_COMM_WORLD, worst);
}

static void check_law(const char *name, const moreau_pair_law *law)
{
  column col;
  column_create(name, law, &col);
  moreau_contacts *c = moreau_sim_contacts(col.sim);

  /* At the solution: zero, and nothing changed but the velocities, which are
   * those of the exact forces (rest). The static/dynamic law's state (the
   * sliding flag of the last step) may be anything and must stay; the
   * rolling law's is its torque, part of the iterate, zero here. */
  const int flags = c->state_width && !strcmp(name, "static_dynamic");
  if (flags)
    for (moreau_lid k = 0; k < c->n; k++)
      c->state[k] = (double)(k % 2);
  set_forces(&col, -1, 0.0);
  double at_solution = residual_of(&col);
  ck_assert_msg(at_solution <= 1e-14, "%s: residual %.3g at the exact solution", name, at_solution);
  PAR_CHECK(MPI_COMM_WORLD, force_error(&col) == 0.0, "%s: the residual changed the forces", name);
  ck_assert_msg(top_speed(&col) <= 1e-14, "%s: velocities %.3g after the exact forces", name, top_speed(&col));

  /* Away from it: positive, and of the size of the error (one contact of N
   * off by err moves about err f / sum f of the impulses), for a contact in
   * the middle of the column (an interface contact on 2 ranks) and the
   * floor's. The evaluation is undone: the velocities are those of the
   * forces given (disk bad pushed up and the one under it down by
   * err (N - bad) g dt), and the state is kept. */
  for (moreau_gid bad = 0; bad < N_DISKS; bad += N_DISKS / 2) {
    double prev = 0.0;
    for (double err = 1e-6; err <= 1e-1; err *= 100.0) {
      set_forces(&col, bad, err);
      double r = residual_of(&col), jump = err * (double)(N_DISKS - bad) * GRAVITY * DT;
      ck_assert_msg(r > 0.0, "%s: residual 0 with contact %d off by %g", name, (int)bad, err);
      ck_assert_msg(r > prev * 10.0, "%s: residual %.3g at error %g not above %.3g at a 100 times smaller one", name, r,
                    err, prev);
      ck_assert_msg(r <= 2.0 * err, "%s: residual %.3g above twice the error %g", name, r, err);
      ck_assert_msg(fabs(top_speed(&col) - jump) <= 1e-9 * jump, "%s: top speed %.17g after the residual, want %.17g",
                    name, top_speed(&col), jump);
      PAR_CHECK(MPI_COMM_WORLD, fabs(force_error(&col) - err) <= 1e-15, "%s: the residual changed the forces", name);
      prev = r;
    }
  }
  int state_kept = 1;
  for (moreau_lid k = 0; flags && k < c->n; k++)
    state_kept &= c->state[k] == (double)(k % 2);
  PAR_CHECK(MPI_COMM_WORLD, state_kept, "%s: the residual changed the contact state", name);
  column_destroy(&col);
}

START_TEST(zero_at_solution_positive_away)
{
  moreau_pair_law plain = {.mu = 0.5};
  check_law("signorini_coulomb", &plain);
  moreau_pair_law cohesive = {.mu = 0.5, .f_c = 10.0};
  check_law("cohesive", &cohesive);
  moreau_pair_law stat = {.mu = 0.3, .mu_s = 0.5};
  check_law("static_dynamic", &stat);
  moreau_pair_law rolling = {.mu = 0.5, .mu_r = 0.1, .mu_o = 0.1};
  check_law("rolling", &rolling);
}
END_TEST

/* Solved from zero forces with -nlgs_norm law: each hundredfold tighter
 * tolerance brings the forces closer to the closed form, the test passed
 * below the tolerance, and the reported law residual is that of the forces
 * returned. */
START_TEST(law_norm_stops_near_the_solution)
{
  moreau_pair_law plain = {.mu = 0.5};
  column col;
  column_create("signorini_coulomb", &plain, &col);
  moreau_nlgs *nlgs = moreau_sim_nlgs(col.sim);
  double prev_error = INFINITY;
  moreau_nlgs_set_warm_start(nlgs, 0);
  moreau_nlgs_set_iterations(nlgs, 1, 1000000);
  for (double tol = 1e-4; tol >= 1e-10; tol *= 1e-2) {
    moreau_nlgs_result res;
    moreau_nlgs_set_tolerance(nlgs, tol, MOREAU_NLGS_NORM_LAW);
    moreau_nlgs_set_seed(nlgs, 7);
    free_velocities(&col);
    PAR_TRY(MPI_COMM_WORLD, moreau_nlgs_solve(nlgs, &col.prob, &res));
    ck_assert_msg(res.converged, "tol %g: not converged in %d sweeps", tol, res.iterations);
    /* On one rank the test judged the returned forces; on several it is
     * lagged by one check, and judged the forces one sweep earlier. */
    ck_assert_msg(res.residual < tol, "tol %g: converged at residual %.3g", tol, res.residual);
    if (par_size(MPI_COMM_WORLD) == 1)
      ck_assert_msg(res.law_residual == res.residual, "tol %g: law residual %.17g, test on %.17g", tol,
                    res.law_residual, res.residual);
    double error = force_error(&col);
    ck_assert_msg(error < prev_error, "tol %g: force error %.3g not below %.3g at a 100 times larger tolerance", tol,
                  error, prev_error);
    prev_error = error;
    /* The returned forces' residual, evaluated afresh: the same number up to
     * the rounding of the impulses stored as forces (1e-16 of the impulses). */
    double again = residual_of(&col);
    ck_assert_msg(fabs(again - res.law_residual) <= 1e-13, "tol %g: solve reported %.17g, the forces have %.17g", tol,
                  res.law_residual, again);
  }
  ck_assert_msg(prev_error < 1e-6, "force error %.3g at the tightest tolerance", prev_error);
  column_destroy(&col);
}
END_TEST

/* The blocks and layers orders (-nlgs_order blocks, layers) visit every
 * row once per sweep, whatever the block size against the row count (one
 * row per block, a partial last block, one block for all): a sweep that
 * skipped a row would leave its contact without force and never reach the
 * closed form. The rows are built along a space-filling curve or by height,
 * so the contact of each row must still be the one the forces are stored
 * to. */
START_TEST(block_orders_reach_the_closed_form)
{
  moreau_pair_law plain = {.mu = 0.5};
  const int blocks[] = {1, 5, N_DISKS, 1000};
  const moreau_nlgs_order orders[] = {MOREAU_NLGS_ORDER_BLOCKS, MOREAU_NLGS_ORDER_LAYERS};
  const char *names[] = {"blocks", "layers"};
  column col;
  column_create("signorini_coulomb", &plain, &col);
  moreau_nlgs *nlgs = moreau_sim_nlgs(col.sim);
  moreau_nlgs_set_warm_start(nlgs, 0);
  moreau_nlgs_set_iterations(nlgs, 1, 1000000);
  moreau_nlgs_set_tolerance(nlgs, 1e-10, MOREAU_NLGS_NORM_LAW);
  for (int o = 0; o < 2; o++)
    for (size_t k = 0; k < sizeof(blocks) / sizeof(blocks[0]); k++) {
      moreau_nlgs_result res;
      moreau_nlgs_set_order(nlgs, orders[o], blocks[k]);
      moreau_nlgs_set_seed(nlgs, 7);
      free_velocities(&col);
      PAR_TRY(MPI_COMM_WORLD, moreau_nlgs_solve(nlgs, &col.prob, &res));
      double error = force_error(&col);
      if (par_rank(MPI_COMM_WORLD) == 0)
        printf("%s of %d rows: %d sweeps, force error %.3g\n", names[o], blocks[k], res.iterations, error);
      ck_assert_msg(res.converged, "%s of %d: not converged in %d sweeps", names[o], blocks[k], res.iterations);
      ck_assert_msg(error < 1e-6, "%s of %d: force error %.3g", names[o], blocks[k], error);
    }
  column_destroy(&col);
}
END_TEST

/* The layers order sweeps from the top down: on one rank with one row per
 * block, the first sweep of a cold start meets the contacts from the
 * column's top to the floor. Every disk falls at -g dt, so each contact
 * above the floor sees no approach until the floor's has stopped disk 0:
 * after the first sweep only the floor's contact carries force (m g, disk
 * 0's weight), where the reverse order would have moved load up the
 * column. Without gravity the order cannot be built: a clear error on
 * every rank. */
START_TEST(layers_sweep_from_the_top_down)
{
  moreau_pair_law plain = {.mu = 0.5};
  column col;
  column_create("signorini_coulomb", &plain, &col);
  moreau_nlgs *nlgs = moreau_sim_nlgs(col.sim);
  moreau_nlgs_result res;
  moreau_nlgs_set_warm_start(nlgs, 0);
  moreau_nlgs_set_iterations(nlgs, 1, 1);
  moreau_nlgs_set_order(nlgs, MOREAU_NLGS_ORDER_LAYERS, 1);
  if (par_size(MPI_COMM_WORLD) == 1) {
    free_velocities(&col);
    PAR_TRY(MPI_COMM_WORLD, moreau_nlgs_solve(nlgs, &col.prob, &res));
    const moreau_contacts *c = moreau_sim_contacts(col.sim);
    const moreau_bodies *b = moreau_sim_bodies(col.sim);
    for (moreau_lid k = 0; k < c->n; k++) {
      const double want = c->b[k] < 0 ? GRAVITY / b->inv_mass[c->a[k]] : 0.0;
      ck_assert_msg(fabs(c->force[3 * k] - want) <= 1e-12 * GRAVITY / b->inv_mass[c->a[k]],
                    "contact %d (b = %d): f_n %.17g after one top-down sweep, want %.17g", (int)k, (int)c->b[k],
                    c->force[3 * k], want);
    }
  }
  moreau_sim_set_gravity(col.sim, (const double[3]){0.0, 0.0, 0.0});
  free_velocities(&col);
  moreau_err err = moreau_nlgs_solve(nlgs, &col.prob, &res);
  ck_assert_msg(err == MOREAU_ERR_INPUT, "layers without gravity: error %d, want an input error", (int)err);
  ck_assert_msg(strstr(moreau_error_message(), "needs a nonzero -gravity"), "message: %s", moreau_error_message());
  moreau_error_clear();
  column_destroy(&col);
}
END_TEST

/* Solves the column from zero forces in exactly 40 random sweeps with
 * u_minus (seed 7) and copies the forces to f. */
static void solve_with(column *col, const double *u_minus, double *f)
{
  moreau_nlgs *nlgs = moreau_sim_nlgs(col->sim);
  moreau_contacts *c = moreau_sim_contacts(col->sim);
  moreau_nlgs_result res;
  moreau_nlgs_set_warm_start(nlgs, 0);
  moreau_nlgs_set_iterations(nlgs, 40, 40);
  moreau_nlgs_set_seed(nlgs, 7);
  free_velocities(col);
  col->prob.u_minus = u_minus;
  PAR_TRY(MPI_COMM_WORLD, moreau_nlgs_solve(nlgs, &col->prob, &res));
  memcpy(f, c->force, 3 * (size_t)c->n * sizeof(double));
}

/* The relative velocities at the start of the step may lie in the solver's
 * records (moreau_nlgs_u_minus_space, where a step puts them in the random
 * order), for a column of disks and one of spheres (_i: the dimension): the
 * row build reads each before writing a record over it, so the
 * solve is the same to the bit as with u_minus in an array of its own. Every
 * contact closes at 0.1 m/s with restitution 0.5, so u_minus sets every
 * normal target (zeros give other forces: the check can fail). The blocks
 * order builds its rows in another order and has no such space; a u_minus
 * elsewhere in the records is refused. */
START_TEST(u_minus_in_the_records)
{
  moreau_pair_law bouncy = {.mu = 0.5, .e_n = 0.5};
  column col;
  column_create_dim("signorini_coulomb", &bouncy, _i, &col);
  moreau_nlgs *nlgs = moreau_sim_nlgs(col.sim);
  const moreau_contacts *c = moreau_sim_contacts(col.sim);
  const size_t n3 = 3 * (size_t)c->n + 1;
  double *closing = calloc(n3, sizeof(double)), *own = calloc(n3, sizeof(double)), *lent = calloc(n3, sizeof(double)),
         *at_rest = calloc(n3, sizeof(double));
  for (size_t k = 0; k + 1 < n3; k++)
    closing[k] = -0.1 * c->normal[k];

  solve_with(&col, closing, own);
  double *u;
  PAR_TRY(MPI_COMM_WORLD, moreau_nlgs_u_minus_space(nlgs, c->n, &u));
  void *records;
  size_t bytes;
  moreau_nlgs_workspace(nlgs, &records, &bytes);
  ck_assert_msg(u && (char *)u >= (char *)records && (char *)(u + 3 * (size_t)c->n) <= (char *)records + bytes,
                "u_minus space %p not in the records [%p, +%zu)", (void *)u, records, bytes);
  memcpy(u, closing, 3 * (size_t)c->n * sizeof(double));
  solve_with(&col, u, lent);
  PAR_CHECK(MPI_COMM_WORLD, !memcmp(own, lent, 3 * (size_t)c->n * sizeof(double)),
            "%dD: forces differ with u_minus in the records", _i);
  solve_with(&col, col.u_minus, at_rest);
  double differ = 0.0;
  for (size_t k = 0; k + 1 < n3; k++)
    differ = fmax(differ, fabs(own[k] - at_rest[k]));
  ck_assert_msg(par_max(MPI_COMM_WORLD, differ) > 0.0, "%dD: u_minus changed no force", _i);

  moreau_nlgs_set_order(nlgs, MOREAU_NLGS_ORDER_BLOCKS, 5);
  PAR_TRY(MPI_COMM_WORLD, moreau_nlgs_u_minus_space(nlgs, c->n, &u));
  ck_assert_msg(!u, "a u_minus space in the blocks order");
  moreau_nlgs_set_order(nlgs, MOREAU_NLGS_ORDER_RANDOM, 1);
  /* One rank: a refused solve on one rank only would leave the others in
   * the solve's reductions. */
  if (par_size(MPI_COMM_WORLD) == 1) {
    moreau_nlgs_result res;
    PAR_TRY(MPI_COMM_WORLD, moreau_nlgs_u_minus_space(nlgs, c->n, &u));
    col.prob.u_minus = u - 3;
    moreau_err err = moreau_nlgs_solve(nlgs, &col.prob, &res);
    ck_assert_msg(err == MOREAU_ERR_INTERNAL, "u_minus one vector early in the records: error %d", (int)err);
    moreau_error_clear();
  }
  free(closing);
  free(own);
  free(lent);
  free(at_rest);
  column_destroy(&col);
}
END_TEST

/* A solve holds the contact list's normals and forces in its records, and
 * the list's own arrays are freed meanwhile and rebuilt from the records
 * (nlgs_contacts.c): the normals come back to the bit, also that of a
 * contact without a record (disk 0 made immovable, on the fixed floor: two
 * bodies of infinite mass, no W^-1) and, in 2D, a z of -0, which a record
 * does not hold; the contact without a record carries no force, the one
 * above it the weight of the disks on it. The bodies lend their velocities
 * to the solve's table too, in 2D only when the components it does not
 * move are +0. _i: the dimension. */
START_TEST(contacts_get_their_arrays_back)
{
  moreau_pair_law plain = {.mu = 0.5};
  column col;
  moreau_nlgs_result res;
  column_create_dim("signorini_coulomb", &plain, _i, &col);
  moreau_nlgs *nlgs = moreau_sim_nlgs(col.sim);
  moreau_contacts *c = moreau_sim_contacts(col.sim);
  moreau_bodies *b = moreau_sim_bodies(col.sim);
  moreau_nlgs_set_lend_min(nlgs, 0); /* a small solve borrows too */
  for (moreau_lid i = 0; i < moreau_bodies_n_local(b); i++)
    if (b->gid[i] == 0) b->inv_mass[i] = b->inv_inertia[i] = 0.0;
  if (_i == 2)
    for (moreau_lid k = 0; k < c->n; k++)
      if (c->b[k] >= 0 && b->gid[c->a[k]] + b->gid[c->b[k]] == 2 * N_DISKS - 3) c->normal[3 * k + 2] = -0.0;
  double *before = malloc(3 * sizeof(double) * ((size_t)c->n + 1));
  memcpy(before, c->normal, 3 * sizeof(double) * (size_t)c->n);
  moreau_nlgs_set_warm_start(nlgs, 0);
  moreau_nlgs_set_iterations(nlgs, 1, 1000000);
  moreau_nlgs_set_tolerance(nlgs, 1e-12, MOREAU_NLGS_NORM_QUAD);
  free_velocities(&col);
  for (moreau_lid i = 0; i < moreau_bodies_n_local(b); i++) {
    if (b->gid[i] == 0) b->v[3 * i + 1] = 0.0; /* immovable: at rest */
    /* A spin component a 2D solve does not move, which the bodies' arrays
     * must keep (they are not lent then). */
    if (_i == 2 && b->gid[i] == N_DISKS - 1) b->w[3 * i] = 0.25;
  }
  PAR_TRY(MPI_COMM_WORLD, moreau_nlgs_solve(nlgs, &col.prob, &res));
  int kept = 1;
  for (moreau_lid i = 0; _i == 2 && i < moreau_bodies_n_local(b); i++)
    if (b->gid[i] == N_DISKS - 1) kept &= b->w[3 * i] == 0.25;
  PAR_CHECK(MPI_COMM_WORLD, kept, "2D: the solve lost a spin's x component");
  PAR_CHECK(MPI_COMM_WORLD, !memcmp(before, c->normal, 3 * sizeof(double) * (size_t)c->n),
            "%dD: the normals changed in the solve", _i);
  double floor_force = 0.0, worst = 0.0;
  for (moreau_lid k = 0; k < c->n; k++) {
    const moreau_gid ga = b->gid[c->a[k]], gb = c->b[k] >= 0 ? b->gid[c->b[k]] : -1;
    if (gb < 0 && ga == 0) floor_force = fabs(c->force[3 * k]) + fabs(c->force[3 * k + 1]) + fabs(c->force[3 * k + 2]);
    if (gb >= 0) /* the disks above the lower one of the pair rest on it */
      worst = fmax(worst, fabs(c->force[3 * k] - col.exact[k]) / col.exact[k]);
  }
  PAR_CHECK(MPI_COMM_WORLD, floor_force == 0.0, "%dD: force %g on the contact without a record", _i, floor_force);
  worst = par_max(MPI_COMM_WORLD, worst);
  ck_assert_msg(worst < 1e-6, "%dD: force error %.3g between the disks", _i, worst);
  free(before);
  column_destroy(&col);
}
END_TEST

/* The same for lists long enough that the build returns the pages of the
 * arrays it has read as it goes (nlgs_contacts.c): a square lattice of
 * 92 x 92 touching disks (spheres) on the floor, 16 836 contacts: the
 * build's last return of pages comes after its records have reached the
 * u_minus not yet returned.
 * The normals and gids come back to the bit, also with a 2D normal's z of
 * -0 and a contact whose gid is not its body's three quarters through the
 * list (then the gids stay, those before it derived again from the
 * bodies). With u_minus in the records, whose pages the build returns once
 * read, the forces are those of u_minus in an array of its own, to the bit
 * (every contact closing at 0.1 m/s with restitution 0.5: u_minus sets the
 * targets). _i: the dimension. */
/* Collective. A square lattice of side x side disks (spheres: dim 3, in one
 * layer) on the floor, gap apart, under gravity, restitution 0.5, set up
 * and detected. */
static moreau_sim *lattice_sim(int dim, int side, double gap)
{
  MPI_Comm comm = MPI_COMM_WORLD;
  moreau_sim *sim;
  moreau_pair_law plain = {.mu = 0.5, .e_n = 0.5};
  PAR_TRY(comm, moreau_sim_create(comm, dim, &sim));
  PAR_TRY(comm, moreau_materials_set_pair(moreau_sim_materials(sim), 0, 0, &plain));
  moreau_sim_set_dt(sim, DT);
  moreau_sim_set_gravity(sim, (const double[3]){0.0, -GRAVITY, 0.0});
  PAR_TRY(comm, scene_add_fixed_wall(sim, 0.0, 0.0, 0.0, 1.0));
  moreau_err err = MOREAU_SUCCESS;
  for (int j = 0; par_rank(comm) == 0 && j < side * side && !err; j++) {
    const double x[3] = {(2.0 * RADIUS + gap) * (j % side), RADIUS + (2.0 * RADIUS + gap) * (j / side), 0.0};
    err = scene_add_body(sim, j, x, NULL, RADIUS, 1.0, 0);
  }
  PAR_TRY(comm, err);
  PAR_TRY(comm, moreau_sim_setup(sim, 1e-9));
  PAR_TRY(comm, moreau_sim_detect(sim));
  return sim;
}

START_TEST(long_lists_come_back)
{
  enum { SIDE = 92 };
  MPI_Comm comm = MPI_COMM_WORLD;
  moreau_nlgs_result res;
  moreau_sim *sim = lattice_sim(_i, SIDE, 0.0);
  moreau_contacts *c = moreau_sim_contacts(sim);
  moreau_nlgs *nlgs = moreau_sim_nlgs(sim);
  moreau_nlgs_set_lend_min(nlgs, 0);
  moreau_nlgs_problem prob = {
      moreau_sim_bodies(sim), moreau_sim_walls(sim), moreau_sim_materials(sim), c, NULL, moreau_sim_part(sim), DT};
  const size_t n = (size_t)c->n;
  double *u_minus = calloc(3 * n + 1, sizeof(double)), *normal = malloc(3 * (n + 1) * sizeof(double));
  moreau_gid *gid = malloc(2 * (n + 1) * sizeof(moreau_gid));
  prob.u_minus = u_minus;
  moreau_nlgs_set_iterations(nlgs, 5, 5);
  for (size_t k = 0; k < 3 * n; k++)
    u_minus[k] = -0.1 * c->normal[k];
  for (int sabotage = 0; sabotage < 2; sabotage++) {
    if (sabotage && n > 0) {
      if (_i == 2) c->normal[3 * (n / 2) + 2] = -0.0;
      c->gid_b[3 * n / 4] = -7;
    }
    memcpy(normal, c->normal, 3 * n * sizeof(double));
    memcpy(gid, c->gid_a, n * sizeof(moreau_gid));
    memcpy(gid + n, c->gid_b, n * sizeof(moreau_gid));
    PAR_TRY(comm, moreau_nlgs_solve(nlgs, &prob, &res));
    const int same = !memcmp(normal, c->normal, 3 * n * sizeof(double)) &&
                     !memcmp(gid, c->gid_a, n * sizeof(moreau_gid)) &&
                     !memcmp(gid + n, c->gid_b, n * sizeof(moreau_gid));
    PAR_CHECK(comm, same, "%dD, %s: the normals or gids of %zu contacts changed in the solve", _i,
              sabotage ? "a foreign gid" : "as detected", n);
  }
  moreau_bodies *b = moreau_sim_bodies(sim);
  const size_t nb = 3 * (size_t)moreau_bodies_n_local(b) * sizeof(double);
  double *own = malloc(3 * (n + 1) * sizeof(double)), *v0 = malloc(nb + 1), *w0 = malloc(nb + 1), *u;
  memcpy(v0, b->v, nb);
  memcpy(w0, b->w, nb);
  moreau_nlgs_set_warm_start(nlgs, 0);
  moreau_nlgs_set_seed(nlgs, 7);
  PAR_TRY(comm, moreau_nlgs_solve(nlgs, &prob, &res));
  memcpy(own, c->force, 3 * n * sizeof(double));
  PAR_TRY(comm, moreau_nlgs_u_minus_space(nlgs, c->n, &u));
  memcpy(u, u_minus, 3 * n * sizeof(double));
  prob.u_minus = u;
  memcpy(b->v, v0, nb);
  memcpy(b->w, w0, nb);
  moreau_nlgs_set_seed(nlgs, 7);
  PAR_TRY(comm, moreau_nlgs_solve(nlgs, &prob, &res));
  PAR_CHECK(comm, !memcmp(own, c->force, 3 * n * sizeof(double)), "%dD: forces differ with u_minus in the records", _i);
  free(own);
  free(v0);
  free(w0);
  int64_t total = c->n;
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_INT64_T, MPI_SUM, comm);
  ck_assert_msg(total >= 2 * SIDE * (SIDE - 1), "%dD: %lld contacts", _i, (long long)total);
  free(u_minus);
  free(normal);
  free(gid);
  PAR_TRY(comm, moreau_sim_destroy(&sim));
}
END_TEST

/* Steps whose solves borrow (moreau_nlgs_set_lend_min 0) give the same
 * bits as steps whose solves do not: a lattice of 40 x 40 touching disks
 * (spheres) settles on the floor for 12 steps, and each step keeps the
 * history in the records, returns their pages after the warm start and
 * puts u_minus in them. The positions, velocities, forces and normals
 * after each step. _i: the dimension. */
START_TEST(steps_same_whether_borrowed)
{
  enum { SIDE = 40, STEPS = 12 };
  MPI_Comm comm = MPI_COMM_WORLD;
  moreau_sim *sim[2] = {lattice_sim(_i, SIDE, 0.0), lattice_sim(_i, SIDE, 0.0)};
  moreau_nlgs_set_lend_min(moreau_sim_nlgs(sim[0]), (size_t)-1);
  moreau_nlgs_set_lend_min(moreau_sim_nlgs(sim[1]), 0);
  int64_t contacts = 0;
  for (int step = 0; step < STEPS; step++) {
    PAR_TRY(comm, moreau_sim_step(sim[0]));
    PAR_TRY(comm, moreau_sim_step(sim[1]));
    const moreau_bodies *b0 = moreau_sim_bodies(sim[0]), *b1 = moreau_sim_bodies(sim[1]);
    const moreau_contacts *c0 = moreau_sim_contacts(sim[0]), *c1 = moreau_sim_contacts(sim[1]);
    const size_t nb = 3 * (size_t)b0->n_owned * sizeof(double), nc = 3 * (size_t)c0->n * sizeof(double);
    const int same = b0->n_owned == b1->n_owned && c0->n == c1->n && !memcmp(b0->x, b1->x, nb) &&
                     !memcmp(b0->v, b1->v, nb) && !memcmp(b0->w, b1->w, nb) && !memcmp(c0->force, c1->force, nc) &&
                     !memcmp(c0->normal, c1->normal, nc);
    PAR_CHECK(comm, same, "%dD, step %d: the borrowing solves give other bits", _i, step + 1);
    contacts += c0->n;
  }
  MPI_Allreduce(MPI_IN_PLACE, &contacts, 1, MPI_INT64_T, MPI_SUM, comm);
  ck_assert_msg(contacts >= (int64_t)STEPS * 2 * SIDE * (SIDE - 1), "%dD: %lld contacts over the steps", _i,
                (long long)contacts);
  PAR_TRY(comm, moreau_sim_destroy(&sim[0]));
  PAR_TRY(comm, moreau_sim_destroy(&sim[1]));
}
END_TEST

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("nlgs_residual");
  TCase *tc = tcase_create("residual");
  tcase_add_test(tc, zero_at_solution_positive_away);
  tcase_add_test(tc, law_norm_stops_near_the_solution);
  tcase_set_timeout(tc, 120);
  suite_add_tcase(s, tc);
  tc = tcase_create("order");
  tcase_add_test(tc, block_orders_reach_the_closed_form);
  tcase_add_test(tc, layers_sweep_from_the_top_down);
  tcase_add_loop_test(tc, u_minus_in_the_records, 2, 4);
  tcase_add_loop_test(tc, contacts_get_their_arrays_back, 2, 4);
  tcase_add_loop_test(tc, long_lists_come_back, 2, 4);
  tcase_add_loop_test(tc, steps_same_whether_borrowed, 2, 4);
  tcase_set_timeout(tc, 120);
  suite_add_tcase(s, tc);
  int status = par_run_suite(MPI_COMM_WORLD, s, argc > 1 ? argv[1] : NULL);
  MPI_Finalize();
  return status;
}
