#include <math.h>
#include <string.h>

#include "moreau/log.h"
#include "nlgs_private.h"

const moreau_option_spec moreau_nlgs_options[] = {
    {"-nlgs_tol", "<real>", "1e-4", "precision eps_f on the relative force change (seed 000 eq 41)"},
    {"-nlgs_norm", "<mean|quad|max>", "mean",
     "convergence measure: sum|dP|/sum|P|, quadratic mean, or eq 41's maximum over contacts"},
    {"-nlgs_min_it", "<int>", "2", "minimum number of sweeps per step"},
    {"-nlgs_max_it", "<int>", "2000", "maximum number of sweeps per step"},
    {"-nlgs_check_every", "<int>", "1", "take the global convergence test every k sweeps"},
    {"-nlgs_warm_start", "<bool>", "true", "start each step from the previous step's forces"},
    {NULL, NULL, NULL, NULL}};

moreau_err moreau_nlgs_create(MPI_Comm comm, moreau_nlgs **nlgs)
{
  moreau_nlgs *s;
  MOREAU_CALL(moreau_calloc(1, sizeof(*s), &s));
  s->comm = comm;
  MOREAU_MPI_CALL(MPI_Comm_rank(comm, &s->rank));
  MOREAU_MPI_CALL(MPI_Comm_size(comm, &s->size));
  s->tol = 1e-4;
  s->norm = MOREAU_NLGS_NORM_MEAN;
  s->min_it = 2;
  s->max_it = 2000;
  s->check_every = 1;
  s->warm = 1;
  moreau_nlgs_set_seed(s, 0);
  *nlgs = s;
  return MOREAU_SUCCESS;
}

moreau_err moreau_nlgs_destroy(moreau_nlgs **nlgs)
{
  moreau_nlgs *s = *nlgs;
  if (!s) return MOREAU_SUCCESS;
  moreau_free(&s->rows);
  moreau_free(&s->rows3);
  moreau_free(&s->row_contact);
  moreau_free(&s->order);
  moreau_free(&s->mult);
  moreau_free(&s->touched);
  moreau_free(&s->wall_share);
  moreau_free(&s->wall_touch);
  moreau_free(&s->wall_buf);
  moreau_free(nlgs);
  return MOREAU_SUCCESS;
}

moreau_err moreau_nlgs_set_from_options(moreau_nlgs *s)
{
  static const char *const norms[] = {"mean", "quad", "max", NULL};
  int norm;
  int64_t min_it, max_it, every, seed;
  double tol;
  MOREAU_CALL(moreau_option_real("-nlgs_tol", &tol));
  MOREAU_CALL(moreau_option_enum("-nlgs_norm", norms, &norm));
  MOREAU_CALL(moreau_option_int("-nlgs_min_it", &min_it));
  MOREAU_CALL(moreau_option_int("-nlgs_max_it", &max_it));
  MOREAU_CALL(moreau_option_int("-nlgs_check_every", &every));
  MOREAU_CALL(moreau_option_bool("-nlgs_warm_start", &s->warm));
  MOREAU_CALL(moreau_option_int("-seed", &seed));
  MOREAU_CHECK(tol > 0 && tol < 1, MOREAU_ERR_INPUT, "option -nlgs_tol: must be in (0, 1), got %g", tol);
  MOREAU_CHECK(min_it >= 0 && min_it <= 100000000, MOREAU_ERR_INPUT, "option -nlgs_min_it: must be >= 0");
  MOREAU_CHECK(max_it >= 1 && max_it <= 100000000, MOREAU_ERR_INPUT, "option -nlgs_max_it: must be >= 1");
  MOREAU_CHECK(min_it <= max_it, MOREAU_ERR_INPUT, "option -nlgs_min_it: larger than -nlgs_max_it");
  MOREAU_CHECK(every >= 1 && every <= 100000, MOREAU_ERR_INPUT, "option -nlgs_check_every: must be >= 1");
  MOREAU_CHECK(seed >= 0, MOREAU_ERR_INPUT, "option -seed: must be >= 0");
  moreau_nlgs_set_tolerance(s, tol, (moreau_nlgs_norm)norm);
  moreau_nlgs_set_iterations(s, (int)min_it, (int)max_it);
  moreau_nlgs_set_check_every(s, (int)every);
  moreau_nlgs_set_seed(s, (uint64_t)seed);
  return MOREAU_SUCCESS;
}

void moreau_nlgs_set_tolerance(moreau_nlgs *s, double tol, moreau_nlgs_norm norm)
{
  s->tol = tol;
  s->norm = norm;
}

void moreau_nlgs_set_iterations(moreau_nlgs *s, int min_it, int max_it)
{
  s->min_it = min_it;
  s->max_it = max_it;
}

void moreau_nlgs_set_check_every(moreau_nlgs *s, int k) { s->check_every = k; }

void moreau_nlgs_set_seed(moreau_nlgs *s, uint64_t seed)
{
  s->seed = seed;
  moreau_rng_seed(&s->rng, seed, (uint64_t)s->rank);
}

void moreau_nlgs_set_warm_start(moreau_nlgs *s, int warm) { s->warm = warm; }

int64_t moreau_nlgs_updates(const moreau_nlgs *s) { return s->updates; }

static moreau_err reserve(moreau_nlgs *s, int dim, moreau_lid nrows, moreau_lid nbodies, int nwalls)
{
  if (nrows > s->row_cap || (dim == 2 ? !s->rows : !s->rows3)) {
    moreau_lid cap = nrows + nrows / 2 + 64;
    moreau_free(&s->rows);
    moreau_free(&s->rows3);
    if (dim == 2)
      MOREAU_CALL(moreau_malloc((size_t)cap * sizeof(moreau_row2d), &s->rows));
    else
      MOREAU_CALL(moreau_malloc((size_t)cap * sizeof(moreau_row3d), &s->rows3));
    MOREAU_CALL(moreau_realloc((size_t)cap * sizeof(moreau_lid), &s->row_contact));
    MOREAU_CALL(moreau_realloc((size_t)cap * sizeof(moreau_lid), &s->order));
    s->row_cap = cap;
  }
  if (nbodies > s->body_cap) {
    moreau_lid cap = nbodies + nbodies / 2 + 64;
    MOREAU_CALL(moreau_realloc((size_t)cap * sizeof(double), &s->mult));
    MOREAU_CALL(moreau_realloc((size_t)cap, &s->touched));
    s->body_cap = cap;
  }
  if (nwalls > s->wall_cap) {
    MOREAU_CALL(moreau_realloc((size_t)nwalls * sizeof(double), &s->wall_share));
    MOREAU_CALL(moreau_realloc((size_t)nwalls * sizeof(double), &s->wall_touch));
    MOREAU_CALL(moreau_realloc((size_t)nwalls * 3 * sizeof(double), &s->wall_buf));
    s->wall_cap = nwalls;
  }
  return MOREAU_SUCCESS;
}

/* Gluing of force-driven walls across ranks: every rank holds a copy with mass
 * M / k (k ranks touch the wall); after a sweep the copies' normal velocities
 * are averaged, which is the velocity under the sum of all impulses. */
static moreau_err average_walls(moreau_nlgs *s, moreau_walls *w)
{
  int any = 0;
  if (s->size == 1) return MOREAU_SUCCESS;
  for (int i = 0; i < w->n; i++) {
    for (int d = 0; d < 3; d++)
      s->wall_buf[3 * i + d] = s->wall_touch[i] * w->velocity[3 * i + d];
    any |= w->mode[i] == MOREAU_WALL_FORCE;
  }
  if (!any) return MOREAU_SUCCESS;
  moreau_log_begin(MOREAU_EV_EXCHANGE);
  MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, s->wall_buf, 3 * w->n, MPI_DOUBLE, MPI_SUM, s->comm));
  moreau_log_end(MOREAU_EV_EXCHANGE);
  for (int i = 0; i < w->n; i++) {
    if (w->mode[i] != MOREAU_WALL_FORCE || s->wall_share[i] == 0) continue;
    for (int d = 0; d < 3; d++)
      w->velocity[3 * i + d] = s->wall_buf[3 * i + d] / s->wall_share[i];
  }
  return MOREAU_SUCCESS;
}

static moreau_err share_counts(moreau_nlgs *s, const moreau_nlgs_problem *prob)
{
  const moreau_contacts *c = prob->contacts;
  const moreau_bodies *b = prob->bodies;
  moreau_lid nb = moreau_bodies_n_local(b);
  memset(s->touched, 0, (size_t)nb);
  for (int i = 0; i < prob->walls->n; i++)
    s->wall_touch[i] = 0.0;
  for (moreau_lid k = 0; k < c->n; k++) {
    s->touched[c->a[k]] = 1;
    if (c->b[k] >= 0)
      s->touched[c->b[k]] = 1;
    else
      s->wall_touch[-(c->b[k] + 1)] = 1.0;
  }
  memcpy(s->wall_share, s->wall_touch, (size_t)prob->walls->n * sizeof(double));
  if (prob->part) {
    MOREAU_CALL(moreau_part_interface_build(prob->part, b, s->touched, s->mult));
  } else {
    for (moreau_lid i = 0; i < nb; i++)
      s->mult[i] = 1.0;
  }
  if (s->size > 1 && prob->walls->n > 0)
    MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, s->wall_share, prob->walls->n, MPI_DOUBLE, MPI_SUM, s->comm));
  return MOREAU_SUCCESS;
}

/* Builds the sweep records; contacts between two bodies of infinite mass
 * carry no force and get no record. Returns the number of records. */
static moreau_lid build_rows2d(moreau_nlgs *s, const moreau_nlgs_problem *prob)
{
  moreau_bodies *b = prob->bodies;
  moreau_walls *w = prob->walls;
  const moreau_contacts *c = prob->contacts;
  moreau_lid nrows = 0;
  for (moreau_lid k = 0; k < c->n; k++) {
    moreau_row2d *r = &s->rows[nrows];
    moreau_lid ia = c->a[k], ib = c->b[k];
    const double *n = &c->normal[3 * k], *ca = &c->ca[3 * k], *cb = &c->cb[3 * k];
    const double *um = &prob->u_minus[3 * k];
    const double tx = -n[1], ty = n[0];
    int mat_b;
    r->va = &b->v[3 * ia];
    r->wa = &b->w[3 * ia + 2];
    r->ima = b->inv_mass[ia] * s->mult[ia];
    r->iia = b->inv_inertia[ia] * s->mult[ia];
    r->nx = n[0];
    r->ny = n[1];
    r->ra_n = -ca[1] * n[0] + ca[0] * n[1];
    r->ra_t = -ca[1] * tx + ca[0] * ty;
    if (ib >= 0) {
      r->vb = &b->v[3 * ib];
      r->wb = &b->w[3 * ib + 2];
      r->imb_n = r->imb_t = b->inv_mass[ib] * s->mult[ib];
      r->iib = b->inv_inertia[ib] * s->mult[ib];
      r->rb_n = -cb[1] * n[0] + cb[0] * n[1];
      r->rb_t = -cb[1] * tx + cb[0] * ty;
      mat_b = b->material[ib];
    } else {
      int iw = -(ib + 1);
      r->vb = &w->velocity[3 * iw];
      r->wb = &s->zero_spin;
      r->imb_n = w->mode[iw] == MOREAU_WALL_FORCE ? s->wall_share[iw] / w->mass[iw] : 0.0;
      r->imb_t = 0.0;
      r->iib = 0.0;
      r->rb_n = r->rb_t = 0.0;
      mat_b = w->material[iw];
    }
    r->Wnn = r->ima + r->imb_n + r->iia * r->ra_n * r->ra_n + r->iib * r->rb_n * r->rb_n;
    r->Wtt = r->ima + r->imb_t + r->iia * r->ra_t * r->ra_t + r->iib * r->rb_t * r->rb_t;
    r->Wnt = r->iia * r->ra_n * r->ra_t + r->iib * r->rb_n * r->rb_t;
    double det = r->Wnn * r->Wtt - r->Wnt * r->Wnt;
    if (!(det > 0.0)) continue;
    r->inv_det = 1.0 / det;

    const moreau_pair_law *law = moreau_materials_pair(prob->materials, b->material[ia], mat_b);
    r->un_target = moreau_normal_target(c->gap[k], um[0], law->e_n, prob->dt);
    r->ut_target = -law->e_t * um[1];
    r->mu = law->mu;
    r->pn = c->force[3 * k] * prob->dt;
    r->pt = c->force[3 * k + 1] * prob->dt;
    s->row_contact[nrows] = k;
    nrows++;
  }
  return nrows;
}

static void apply_initial_impulses(moreau_nlgs *s, moreau_lid nrows)
{
  for (moreau_lid k = 0; k < nrows; k++) {
    moreau_row2d *r = &s->rows[k];
    double dn = r->pn, dt = r->pt, tx = -r->ny, ty = r->nx;
    r->va[0] -= r->ima * (dn * r->nx + dt * tx);
    r->va[1] -= r->ima * (dn * r->ny + dt * ty);
    *r->wa -= r->iia * (r->ra_n * dn + r->ra_t * dt);
    r->vb[0] += r->imb_n * dn * r->nx + r->imb_t * dt * tx;
    r->vb[1] += r->imb_n * dn * r->ny + r->imb_t * dt * ty;
    *r->wb += r->iib * (r->rb_n * dn + r->rb_t * dt);
  }
}

static double measure(const moreau_nlgs *s, const double *g)
{
  switch (s->norm) {
  case MOREAU_NLGS_NORM_QUAD:
    return g[3] > 0 ? sqrt(g[2] / g[3]) : (g[2] > 0 ? 1.0 : 0.0);
  case MOREAU_NLGS_NORM_MAX:
    return g[4];
  default:
    return g[1] > 0 ? g[0] / g[1] : (g[0] > 0 ? 1.0 : 0.0);
  }
}

static void reduce_sums(void *in, void *inout, int *len, MPI_Datatype *type)
{
  const double *a = in;
  double *b = inout;
  for (int i = 0; i < *len; i += 5) {
    for (int k = 0; k < 4; k++)
      b[i + k] += a[i + k];
    if (a[i + 4] > b[i + 4]) b[i + 4] = a[i + 4];
  }
}

static void shuffle(moreau_rng *rng, moreau_lid *order, moreau_lid n)
{
  for (moreau_lid i = n - 1; i > 0; i--) {
    moreau_lid j = (moreau_lid)moreau_rng_below(rng, (uint32_t)(i + 1));
    moreau_lid t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
}

moreau_err moreau_nlgs_solve(moreau_nlgs *s, const moreau_nlgs_problem *prob, moreau_nlgs_result *res)
{
  moreau_contacts *c = prob->contacts;
  moreau_lid nrows;
  int64_t nglobal = c->n;
  double t0 = MPI_Wtime(), g[5] = {0, 0, 0, 0, 0};
  MPI_Op op;

  const int dim = prob->bodies->dim;
  MOREAU_CALL(reserve(s, dim, c->n, moreau_bodies_n_local(prob->bodies), prob->walls->n));
  if (!s->warm) memset(c->force, 0, 3 * (size_t)c->n * sizeof(double));
  MOREAU_CALL(share_counts(s, prob));
  if (dim == 2) {
    nrows = build_rows2d(s, prob);
    apply_initial_impulses(s, nrows);
  } else {
    nrows = moreau_nlgs_build_rows3d(s, prob);
    moreau_nlgs_apply_impulses3d(s->rows3, nrows);
  }
  if (prob->part) MOREAU_CALL(moreau_part_interface_average(prob->part, prob->bodies));
  MOREAU_CALL(average_walls(s, prob->walls));
  if (s->size > 1) MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, &nglobal, 1, MPI_INT64_T, MPI_SUM, s->comm));

  for (moreau_lid k = 0; k < nrows; k++)
    s->order[k] = k;
  memset(res, 0, sizeof(*res));
  MOREAU_MPI_CALL(MPI_Op_create(reduce_sums, 1, &op));
  for (int it = 1; nglobal > 0 && it <= s->max_it; it++) {
    moreau_sweep_sums sums;
    moreau_log_begin(MOREAU_EV_NLGS_SWEEP);
    shuffle(&s->rng, s->order, nrows);
    if (dim == 2)
      moreau_nlgs_sweep2d(s->rows, s->order, nrows, s->norm == MOREAU_NLGS_NORM_MAX, &sums);
    else
      moreau_nlgs_sweep3d(s->rows3, s->order, nrows, s->norm == MOREAU_NLGS_NORM_MAX, &sums);
    moreau_log_end(MOREAU_EV_NLGS_SWEEP);
    s->updates += nrows;
    if (prob->part) MOREAU_CALL(moreau_part_interface_average(prob->part, prob->bodies));
    MOREAU_CALL(average_walls(s, prob->walls));
    res->iterations = it;
    if (it % s->check_every && it != s->max_it) continue;
    g[0] = sums.dp;
    g[1] = sums.p;
    g[2] = sums.dp2;
    g[3] = sums.p2;
    g[4] = sums.max_ratio;
    if (s->size > 1) {
      moreau_log_begin(MOREAU_EV_NLGS_CONVERGENCE);
      MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, g, 5, MPI_DOUBLE, op, s->comm));
      moreau_log_end(MOREAU_EV_NLGS_CONVERGENCE);
    }
    res->residual = measure(s, g);
    if (it >= s->min_it && res->residual < s->tol) {
      res->converged = 1;
      break;
    }
  }
  MPI_Op_free(&op);
  if (nglobal == 0) res->converged = 1;

  for (moreau_lid k = 0; k < c->n; k++)
    c->force[3 * k] = c->force[3 * k + 1] = c->force[3 * k + 2] = 0.0;
  for (moreau_lid r = 0; r < nrows; r++) {
    moreau_lid k = s->row_contact[r];
    if (dim == 2) {
      c->force[3 * k] = s->rows[r].pn / prob->dt;
      c->force[3 * k + 1] = s->rows[r].pt / prob->dt;
    } else {
      for (int i = 0; i < 3; i++)
        c->force[3 * k + i] = s->rows3[r].p[i] / prob->dt;
    }
  }
  res->seconds = MPI_Wtime() - t0;
  return MOREAU_SUCCESS;
}
