#include "moreau/sim.h"

#include <math.h>
#include <string.h>

#include "moreau/log.h"

const moreau_option_spec moreau_sim_options[] = {
    {"-dt", "<real>", "2e-4", "time step"},
    {"-gravity", "<gx,gy[,gz]>", "0,-9.81", "gravity acceleration (2D: two values, 3D: three; 3D default 0,0,-9.81)"},
    {"-alert", "<real>", "0", "alert distance of contact detection; 0: a tenth of the largest radius"},
    {NULL, NULL, NULL, NULL}};

moreau_err moreau_sim_create(MPI_Comm comm, int dim, moreau_sim **simp)
{
  moreau_sim *sim;
  moreau_pair_law law = {0.5, 0.0, 0.0};
  MOREAU_CHECK(dim == 2 || dim == 3, MOREAU_ERR_INPUT, "option -dim: must be 2 or 3, got %d", dim);
  MOREAU_CALL(moreau_calloc(1, sizeof(*sim), &sim));
  sim->comm = comm;
  sim->dim = dim;
  MOREAU_MPI_CALL(MPI_Comm_rank(comm, &sim->rank));
  MOREAU_MPI_CALL(MPI_Comm_size(comm, &sim->size));
  MOREAU_CALL(moreau_bodies_create(comm, dim, &sim->bodies));
  MOREAU_CALL(moreau_walls_create(&sim->walls));
  MOREAU_CALL(moreau_materials_create(1, &law, 1.0, &sim->materials));
  MOREAU_CALL(moreau_contacts_create(&sim->contacts));
  MOREAU_CALL(moreau_contacts_create(&sim->history));
  MOREAU_CALL(moreau_detector_create(&sim->detector));
  MOREAU_CALL(moreau_nlgs_create(comm, &sim->nlgs));
  if (sim->size > 1) MOREAU_CALL(moreau_part_create(comm, &sim->part));
  sim->dt = 1e-3;
  *simp = sim;
  return MOREAU_SUCCESS;
}

moreau_err moreau_sim_destroy(moreau_sim **simp)
{
  moreau_sim *sim = *simp;
  if (!sim) return MOREAU_SUCCESS;
  MOREAU_CALL(moreau_bodies_destroy(&sim->bodies));
  MOREAU_CALL(moreau_walls_destroy(&sim->walls));
  MOREAU_CALL(moreau_materials_destroy(&sim->materials));
  MOREAU_CALL(moreau_contacts_destroy(&sim->contacts));
  MOREAU_CALL(moreau_contacts_destroy(&sim->history));
  MOREAU_CALL(moreau_detector_destroy(&sim->detector));
  MOREAU_CALL(moreau_nlgs_destroy(&sim->nlgs));
  MOREAU_CALL(moreau_part_destroy(&sim->part));
  moreau_free(&sim->u_minus);
  moreau_free(simp);
  return MOREAU_SUCCESS;
}

moreau_err moreau_sim_set_from_options(moreau_sim *sim)
{
  double g[3] = {0, 0, 0};
  int ng = 3, given;
  MOREAU_CALL(moreau_option_real("-dt", &sim->dt));
  MOREAU_CHECK(sim->dt > 0, MOREAU_ERR_INPUT, "option -dt: must be positive, got %g", sim->dt);
  MOREAU_CALL(moreau_option_is_set("-gravity", &given));
  MOREAU_CALL(moreau_option_reals("-gravity", g, &ng));
  if (!given && sim->dim == 3) {
    g[0] = g[1] = 0.0;
    g[2] = -9.81;
    ng = 3;
  }
  MOREAU_CHECK(ng == sim->dim, MOREAU_ERR_INPUT, "option -gravity: expected %d values for a %dD run, got %d", sim->dim,
               sim->dim, ng);
  memcpy(sim->gravity, g, sizeof(g));
  MOREAU_CALL(moreau_option_real("-alert", &sim->alert));
  MOREAU_CHECK(sim->alert >= 0, MOREAU_ERR_INPUT, "option -alert: must be >= 0, got %g", sim->alert);
  MOREAU_CALL(moreau_nlgs_set_from_options(sim->nlgs));
  if (sim->part) {
    MOREAU_CALL(moreau_part_set_from_options(sim->part));
  } else {
    /* Validated on one rank too, so that one options file serves every rank count. */
    moreau_part *unused;
    MOREAU_CALL(moreau_part_create(sim->comm, &unused));
    MOREAU_CALL(moreau_part_set_from_options(unused));
    MOREAU_CALL(moreau_part_destroy(&unused));
  }
  return MOREAU_SUCCESS;
}

static moreau_err check_overlaps(moreau_sim *sim, double tol)
{
  moreau_contacts *c = sim->contacts;
  double worst = 0.0;
  moreau_lid wk = -1;
  moreau_err err = MOREAU_SUCCESS;
  MOREAU_CALL(moreau_detect(sim->detector, sim->bodies, sim->walls, 0.0, c));
  for (moreau_lid k = 0; k < c->n; k++) {
    if (c->b[k] < 0) continue;
    double rmin = fmin(sim->bodies->radius[c->a[k]], sim->bodies->radius[c->b[k]]);
    double rel = -c->gap[k] / rmin;
    if (rel > tol && rel > worst) {
      worst = rel;
      wk = k;
    }
  }
  if (wk >= 0) {
    if (sim->input_name[0])
      err = moreau_error_raise(MOREAU_ERR_INPUT, __FILE__, __LINE__, __func__,
                               "%s: bodies of data rows %lld and %lld overlap by %.3g of the smaller radius "
                               "(tolerance %.3g)",
                               sim->input_name, (long long)c->gid_a[wk] + 1, (long long)c->gid_b[wk] + 1, worst, tol);
    else
      err = moreau_error_raise(MOREAU_ERR_INPUT, __FILE__, __LINE__, __func__,
                               "bodies %lld and %lld overlap by %.3g of the smaller radius (tolerance %.3g)",
                               (long long)c->gid_a[wk], (long long)c->gid_b[wk], worst, tol);
  }
  moreau_contacts_clear(c);
  MOREAU_CALL(moreau_error_agree(sim->comm, err));
  return MOREAU_SUCCESS;
}

moreau_err moreau_sim_setup(moreau_sim *sim, double overlap_tol)
{
  moreau_bodies *b = sim->bodies;
  double rmax = 0.0;
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    MOREAU_CHECK(b->material[i] >= 0 && b->material[i] < sim->materials->n, MOREAU_ERR_INPUT,
                 "body %lld: material %d does not exist (there are %d)", (long long)b->gid[i], b->material[i],
                 sim->materials->n);
    rmax = fmax(rmax, b->radius[i]);
  }
  for (int i = 0; i < sim->walls->n; i++)
    MOREAU_CHECK(sim->walls->material[i] >= 0 && sim->walls->material[i] < sim->materials->n, MOREAU_ERR_INPUT,
                 "wall %d: material %d does not exist (there are %d)", i, sim->walls->material[i], sim->materials->n);
  /* A maximum is exact whatever the partition (a sum of radii would round
   * differently on each rank count and change the contact set). */
  MOREAU_MPI_CALL(MPI_Allreduce(&rmax, &sim->rmax, 1, MPI_DOUBLE, MPI_MAX, sim->comm));
  if (!(sim->alert > 0)) sim->alert = 0.1 * sim->rmax;
  if (sim->part) {
    MOREAU_CALL(moreau_part_setup(sim->part, b, sim->history, sim->alert));
    MOREAU_CALL(moreau_part_ghosts(sim->part, b, sim->rmax + sim->alert));
  }
  MOREAU_CALL(check_overlaps(sim, overlap_tol));
  return MOREAU_SUCCESS;
}

/* Rotates unit quaternion q by the rotation vector w h (world frame). */
static void rotate(double *q, const double *w, double h)
{
  double wn = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  if (wn == 0.0) return;
  double half = 0.5 * wn * h, s = sin(half) / wn, c = cos(half);
  double d[4] = {c, s * w[0], s * w[1], s * w[2]}, r[4];
  r[0] = d[0] * q[0] - d[1] * q[1] - d[2] * q[2] - d[3] * q[3];
  r[1] = d[0] * q[1] + d[1] * q[0] + d[2] * q[3] - d[3] * q[2];
  r[2] = d[0] * q[2] - d[1] * q[3] + d[2] * q[0] + d[3] * q[1];
  r[3] = d[0] * q[3] + d[1] * q[2] - d[2] * q[1] + d[3] * q[0];
  double len = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
  for (int k = 0; k < 4; k++)
    q[k] = r[k] / len;
}

/* Half a step of positions: r += h U for owned bodies and walls. */
static void drift(moreau_sim *sim, double h)
{
  moreau_bodies *b = sim->bodies;
  moreau_walls *w = sim->walls;
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    for (int k = 0; k < 3; k++)
      b->x[3 * i + k] += h * b->v[3 * i + k];
    rotate(&b->q[4 * i], &b->w[3 * i], h);
  }
  for (int i = 0; i < w->n; i++)
    for (int k = 0; k < 3; k++)
      w->point[3 * i + k] += h * w->velocity[3 * i + k];
}

/* Relative velocity of b with respect to a at each contact point, in the
 * contact frame, from the velocities at the start of the step. */
static moreau_err relative_velocities(moreau_sim *sim)
{
  const moreau_bodies *b = sim->bodies;
  const moreau_walls *w = sim->walls;
  const moreau_contacts *c = sim->contacts;
  if (c->n > sim->u_minus_cap) {
    sim->u_minus_cap = c->n + c->n / 2 + 64;
    MOREAU_CALL(moreau_realloc(3 * (size_t)sim->u_minus_cap * sizeof(double), &sim->u_minus));
  }
  for (moreau_lid k = 0; k < c->n; k++) {
    moreau_lid ia = c->a[k], ib = c->b[k];
    const double *ca = &c->ca[3 * k], *cb = &c->cb[3 * k], *wa = &b->w[3 * ia];
    double ua[3], ub[3] = {0, 0, 0}, du[3];
    ua[0] = b->v[3 * ia] + wa[1] * ca[2] - wa[2] * ca[1];
    ua[1] = b->v[3 * ia + 1] + wa[2] * ca[0] - wa[0] * ca[2];
    ua[2] = b->v[3 * ia + 2] + wa[0] * ca[1] - wa[1] * ca[0];
    if (ib >= 0) {
      const double *wb = &b->w[3 * ib];
      ub[0] = b->v[3 * ib] + wb[1] * cb[2] - wb[2] * cb[1];
      ub[1] = b->v[3 * ib + 1] + wb[2] * cb[0] - wb[0] * cb[2];
      ub[2] = b->v[3 * ib + 2] + wb[0] * cb[1] - wb[1] * cb[0];
    } else {
      memcpy(ub, &w->velocity[3 * (-(ib + 1))], sizeof(ub));
    }
    for (int d = 0; d < 3; d++)
      du[d] = ub[d] - ua[d];
    const double *n = &c->normal[3 * k], *t = &c->tangent[3 * k], *s = &c->binormal[3 * k];
    sim->u_minus[3 * k] = du[0] * n[0] + du[1] * n[1] + du[2] * n[2];
    sim->u_minus[3 * k + 1] = du[0] * t[0] + du[1] * t[1] + du[2] * t[2];
    sim->u_minus[3 * k + 2] = du[0] * s[0] + du[1] * s[1] + du[2] * s[2];
  }
  return MOREAU_SUCCESS;
}

/* U_free = U- + dt M^-1 F_ext: gravity and each body's external force and
 * torque on every local copy of a body (owned and ghost alike, so that the
 * copies agree), the drive on force walls. */
static void free_velocities(moreau_sim *sim)
{
  moreau_bodies *b = sim->bodies;
  moreau_walls *w = sim->walls;
  moreau_lid n = moreau_bodies_n_local(b);
  for (moreau_lid i = 0; i < n; i++) {
    if (b->inv_mass[i] == 0.0) continue;
    for (int k = 0; k < 3; k++) {
      b->v[3 * i + k] += sim->dt * (sim->gravity[k] + b->inv_mass[i] * b->f_ext[3 * i + k]);
      b->w[3 * i + k] += sim->dt * b->inv_inertia[i] * b->t_ext[3 * i + k];
    }
  }
  for (int i = 0; i < w->n; i++) {
    if (w->mode[i] != MOREAU_WALL_FORCE) continue;
    for (int k = 0; k < 3; k++)
      w->velocity[3 * i + k] += sim->dt * w->drive[i] / w->mass[i] * w->normal[3 * i + k];
  }
}

static moreau_err contact_statistics(moreau_sim *sim)
{
  const moreau_contacts *c = sim->contacts;
  moreau_walls *w = sim->walls;
  double overlap = 0.0, count = (double)c->n;
  for (int i = 0; i < 3 * w->n; i++)
    w->reaction[i] = 0.0;
  for (moreau_lid k = 0; k < c->n; k++) {
    overlap = fmax(overlap, -c->gap[k]);
    if (c->b[k] >= 0) continue;
    int iw = -(c->b[k] + 1);
    const double *f = &c->force[3 * k], *n = &c->normal[3 * k], *t = &c->tangent[3 * k], *s = &c->binormal[3 * k];
    for (int d = 0; d < 3; d++)
      w->reaction[3 * iw + d] += f[0] * n[d] + f[1] * t[d] + f[2] * s[d];
  }
  if (sim->size > 1) {
    if (w->n) MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, w->reaction, 3 * w->n, MPI_DOUBLE, MPI_SUM, sim->comm));
    MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, &overlap, 1, MPI_DOUBLE, MPI_MAX, sim->comm));
    MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, &count, 1, MPI_DOUBLE, MPI_SUM, sim->comm));
  }
  sim->max_overlap = overlap;
  sim->n_contacts_global = (int64_t)count;
  return MOREAU_SUCCESS;
}

moreau_err moreau_sim_step(moreau_sim *sim)
{
  double t0;
  moreau_nlgs_problem prob;
  moreau_log_begin(MOREAU_EV_STEP);
  /* The last step's contacts become the warm-start history; this step's stay
   * in sim->contacts afterwards, for output and statistics. */
  moreau_contacts_swap(sim->contacts, sim->history);
  drift(sim, 0.5 * sim->dt);
  t0 = MPI_Wtime();
  if (sim->part) {
    MOREAU_CALL(moreau_part_update(sim->part, sim->bodies, sim->history, sim->history->n));
    MOREAU_CALL(moreau_part_ghosts(sim->part, sim->bodies, sim->rmax + sim->alert));
  }
  MOREAU_CALL(moreau_detect(sim->detector, sim->bodies, sim->walls, sim->alert, sim->contacts));
  MOREAU_CALL(moreau_contacts_warm_start(sim->contacts, sim->history, &sim->warm_matched));
  sim->detect_seconds = MPI_Wtime() - t0;
  MOREAU_CALL(relative_velocities(sim));
  free_velocities(sim);
  prob.bodies = sim->bodies;
  prob.walls = sim->walls;
  prob.materials = sim->materials;
  prob.contacts = sim->contacts;
  prob.u_minus = sim->u_minus;
  prob.part = sim->part;
  prob.dt = sim->dt;
  MOREAU_CALL(moreau_nlgs_solve(sim->nlgs, &prob, &sim->solve));
  sim->solve_seconds = sim->solve.seconds;
  drift(sim, 0.5 * sim->dt);
  MOREAU_CALL(contact_statistics(sim));
  sim->time += sim->dt;
  sim->step++;
  moreau_log_end(MOREAU_EV_STEP);
  return MOREAU_SUCCESS;
}
