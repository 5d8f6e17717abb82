#include "bench_siconos.h"

#include <stdlib.h>
#include <string.h>

#include <FrictionContactProblem.h>
#include <Friction_cst.h>
#include <NonSmoothDrivers.h>
#include <NumericsMatrix.h>
#include <SolverOptions.h>
#include <SparseBlockMatrix.h>

#include "moreau/rng.h"

struct bench_siconos {
  bench_problem *prob;
  int nc;
  int m;                     /* contact dimension: 2 (n, t) or 3 (n, t, s) */
  int ndof;                  /* velocity components of a body: 3 (vx, vy, wz) or 6 (v, w) */
  moreau_lid *perm;          /* Siconos contact i is moreau contact perm[i] */
  double *jac;               /* per moreau contact: signed H rows of side a then b, m x ndof each */
  moreau_lid *inc_ptr, *inc; /* per local body: incident contacts, as 2 k + side */
  SparseBlockStructuredMatrix *sbm;
  NumericsMatrix *W;
  unsigned int *rows_cum;
  size_t *row_ptr, *col;
  double *blocks, **block_ptr;
  double *q, *mu, *r, *u, *force;
  SolverOptions *options;
  FrictionContactProblem fcp;
};

/* The library keeps its vector kernels private; the benchmark uses only the
 * public API. */
static void cross3(const double *a, const double *b, double *c)
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* The contact frame as moreau's sweep uses it: 2D (n, t) with t = e_z x n;
 * 3D (n, t, s) (moreau_contact_frame). */
static void contact_frame(const moreau_contacts *c, int m, moreau_lid k, double e[3][3])
{
  const double *n = &c->normal[3 * k];
  memcpy(e[0], n, 3 * sizeof(double));
  moreau_contact_frame(m, n, e[1], e[2]);
}

/* Relative velocity of b with respect to a at the contact, u_i = sum over the
 * two sides of s (e_i . v + (c x e_i) . w), s = -1 for a, +1 for b: the same
 * kinematics as moreau's sweep. 2D keeps (vx, vy, wz), 3D (v, w). */
static void contact_jacobian(const bench_siconos *s, const moreau_contacts *c, moreau_lid k, double *jac)
{
  double e[3][3];
  contact_frame(c, s->m, k, e);
  for (int side = 0; side < 2; side++) {
    const double *p = side ? &c->cb[3 * k] : &c->ca[3 * k];
    double sign = side ? 1.0 : -1.0;
    for (int i = 0; i < s->m; i++) {
      double *J = &jac[(side * s->m + i) * s->ndof], pxe[3];
      cross3(p, e[i], pxe);
      if (s->m == 2) {
        J[0] = sign * e[i][0];
        J[1] = sign * e[i][1];
        J[2] = sign * pxe[2];
        continue;
      }
      for (int d = 0; d < 3; d++) {
        J[d] = sign * e[i][d];
        J[3 + d] = sign * pxe[d];
      }
    }
  }
}

static moreau_err build_incidence(bench_siconos *s)
{
  const moreau_contacts *c = moreau_sim_contacts(s->prob->sim);
  moreau_lid nb = moreau_bodies_n_local(moreau_sim_bodies(s->prob->sim));
  MOREAU_CALL(moreau_calloc((size_t)nb + 1, sizeof(moreau_lid), &s->inc_ptr));
  MOREAU_CALL(moreau_malloc(2 * (size_t)c->n * sizeof(moreau_lid) + 1, &s->inc));
  for (moreau_lid k = 0; k < c->n; k++) {
    s->inc_ptr[c->a[k] + 1]++;
    if (c->b[k] >= 0) s->inc_ptr[c->b[k] + 1]++;
  }
  for (moreau_lid i = 0; i < nb; i++)
    s->inc_ptr[i + 1] += s->inc_ptr[i];
  for (moreau_lid k = 0; k < c->n; k++) {
    s->inc[s->inc_ptr[c->a[k]]++] = 2 * k;
    if (c->b[k] >= 0) s->inc[s->inc_ptr[c->b[k]]++] = 2 * k + 1;
  }
  for (moreau_lid i = nb; i > 0; i--)
    s->inc_ptr[i] = s->inc_ptr[i - 1];
  s->inc_ptr[0] = 0;
  return MOREAU_SUCCESS;
}

typedef struct {
  size_t col;
  double b[9];
} row_block;

static int by_column(const void *x, const void *y)
{
  size_t a = ((const row_block *)x)->col, b = ((const row_block *)y)->col;
  return (a > b) - (a < b);
}

/* Adds J_k M^-1 J_l^T over the body shared by contacts k and l, in Siconos's
 * column-major m x m block layout. */
static void add_coupling(const bench_siconos *s, const double *Jk, const double *Jl, const double *minv, double *b)
{
  for (int p = 0; p < s->m; p++)
    for (int q = 0; q < s->m; q++) {
      double v = 0.0;
      for (int d = 0; d < s->ndof; d++)
        v += Jk[s->ndof * p + d] * minv[d] * Jl[s->ndof * q + d];
      b[p + s->m * q] += v;
    }
}

/* Row i of W: every contact sharing a body with contact perm[i]. */
static moreau_err assemble(bench_siconos *s, const moreau_lid *iperm)
{
  const moreau_contacts *c = moreau_sim_contacts(s->prob->sim);
  const moreau_bodies *bd = moreau_sim_bodies(s->prob->sim);
  const size_t bsize = (size_t)(s->m * s->m), jside = (size_t)(s->m * s->ndof);
  size_t bound = 0, nnz = 0, row_cap = 0;
  row_block *row = NULL;
  for (moreau_lid k = 0; k < c->n; k++) {
    size_t deg = (size_t)(s->inc_ptr[c->a[k] + 1] - s->inc_ptr[c->a[k]]);
    if (c->b[k] >= 0) deg += (size_t)(s->inc_ptr[c->b[k] + 1] - s->inc_ptr[c->b[k]]);
    bound += deg;
    if (deg > row_cap) row_cap = deg;
  }
  MOREAU_CALL(moreau_malloc(bsize * bound * sizeof(double) + 1, &s->blocks));
  MOREAU_CALL(moreau_malloc(bound * sizeof(size_t) + 1, &s->col));
  MOREAU_CALL(moreau_malloc(((size_t)s->nc + 1) * sizeof(size_t), &s->row_ptr));
  MOREAU_CALL(moreau_malloc(row_cap * sizeof(row_block) + 1, &row));
  s->row_ptr[0] = 0;
  for (int i = 0; i < s->nc; i++) {
    moreau_lid k = s->perm[i];
    size_t n = 0;
    for (int side = 0; side < 2; side++) {
      moreau_lid body = side ? c->b[k] : c->a[k];
      if (body < 0) continue;
      /* Spheres only (checked at creation): the inverse inertia is a scalar. */
      const double im = bd->inv_mass[body], ii = bd->inv_inertia[body];
      const double minv[6] = {im, im, s->m == 2 ? ii : im, ii, ii, ii};
      for (moreau_lid e = s->inc_ptr[body]; e < s->inc_ptr[body + 1]; e++) {
        moreau_lid l = s->inc[e] / 2;
        int lside = s->inc[e] % 2;
        row[n].col = (size_t)iperm[l];
        memset(row[n].b, 0, sizeof(row[n].b));
        add_coupling(s, &s->jac[2 * jside * (size_t)k + jside * (size_t)side],
                     &s->jac[2 * jside * (size_t)l + jside * (size_t)lside], minv, row[n].b);
        n++;
      }
    }
    qsort(row, n, sizeof(*row), by_column);
    for (size_t j = 0; j < n; j++) {
      if (j > 0 && row[j].col == s->col[nnz - 1]) {
        for (size_t m = 0; m < bsize; m++)
          s->blocks[bsize * (nnz - 1) + m] += row[j].b[m];
        continue;
      }
      s->col[nnz] = row[j].col;
      memcpy(&s->blocks[bsize * nnz], row[j].b, bsize * sizeof(double));
      nnz++;
    }
    s->row_ptr[i + 1] = nnz;
  }
  moreau_free(&row);

  MOREAU_CALL(moreau_malloc(nnz * sizeof(double *) + 1, &s->block_ptr));
  MOREAU_CALL(moreau_malloc((size_t)s->nc * sizeof(unsigned int), &s->rows_cum));
  for (size_t j = 0; j < nnz; j++)
    s->block_ptr[j] = &s->blocks[bsize * j];
  for (int i = 0; i < s->nc; i++)
    s->rows_cum[i] = (unsigned int)s->m * (unsigned int)(i + 1);
  s->sbm = SBM_new();
  MOREAU_CHECK(s->sbm, MOREAU_ERR_MEMORY, "SBM_new failed");
  s->sbm->nbblocks = (unsigned int)nnz;
  s->sbm->block = s->block_ptr;
  s->sbm->blocknumber0 = s->sbm->blocknumber1 = (unsigned int)s->nc;
  s->sbm->blocksize0 = s->sbm->blocksize1 = s->rows_cum;
  s->sbm->filled1 = (size_t)s->nc + 1;
  s->sbm->filled2 = nnz;
  s->sbm->index1_data = s->row_ptr;
  s->sbm->index2_data = s->col;
  /* Siconos finds the diagonal blocks itself on first use and keeps them here. */
  s->sbm->diagonal_blocks = NULL;
  s->W = NM_new();
  MOREAU_CHECK(s->W, MOREAU_ERR_MEMORY, "NM_new failed");
  s->W->storageType = NM_SPARSE_BLOCK;
  s->W->size0 = s->W->size1 = s->m * s->nc;
  s->W->matrix1 = s->sbm;
  return MOREAU_SUCCESS;
}

/* q = J v_free - target and mu of each contact, with moreau's Signorini
 * targets on the mean velocity (seed 000 eq 7) and gap closing. */
static void free_velocities(bench_siconos *s)
{
  const bench_problem *prob = s->prob;
  const moreau_sim *sim = prob->sim;
  const moreau_contacts *c = moreau_sim_contacts(sim);
  const moreau_bodies *bd = moreau_sim_bodies(sim);
  const moreau_walls *walls = moreau_sim_walls(sim);
  const size_t jside = (size_t)(s->m * s->ndof);
  for (int i = 0; i < s->nc; i++) {
    moreau_lid k = s->perm[i];
    double u[3] = {0.0, 0.0, 0.0}, e[3][3], um[3];
    int mat_b;
    contact_frame(c, s->m, k, e);
    for (int side = 0; side < 2; side++) {
      moreau_lid body = side ? c->b[k] : c->a[k];
      const double *J = &s->jac[2 * jside * (size_t)k + jside * (size_t)side];
      if (body < 0) continue;
      const double *v = &prob->v_free[3 * body], *w = &prob->w_free[3 * body];
      const double vel[6] = {v[0], v[1], s->m == 2 ? w[2] : v[2], w[0], w[1], w[2]};
      for (int p = 0; p < s->m; p++)
        for (int d = 0; d < s->ndof; d++)
          u[p] += J[s->ndof * p + d] * vel[d];
    }
    if (c->b[k] < 0) {
      int iw = -(c->b[k] + 1);
      for (int p = 0; p < s->m; p++)
        u[p] += dot3(e[p], &walls->velocity[3 * iw]);
      mat_b = walls->material[iw];
    } else {
      mat_b = bd->material[c->b[k]];
    }
    const moreau_pair_law *law = moreau_materials_pair(moreau_sim_materials(sim), bd->material[c->a[k]], mat_b);
    /* The relative velocity at the start of the step, in the frame. */
    for (int p = 0; p < 3; p++)
      um[p] = dot3(e[p], &prob->u_minus[3 * k]);
    double gpos = c->gap[k] > 0.0 ? c->gap[k] : 0.0, closing = -2.0 * gpos / moreau_sim_dt(sim);
    double un_target = um[0] < closing ? -law->e_n * um[0] : closing;
    s->q[s->m * i] = u[0] - un_target;
    for (int p = 1; p < s->m; p++)
      s->q[s->m * i + p] = u[p] + law->e_t * um[p];
    s->mu[i] = law->mu;
  }
}

moreau_err bench_siconos_create(bench_problem *prob, bench_siconos_order order, uint64_t seed, bench_siconos **sp,
                                double *assembly_seconds)
{
  bench_siconos *s;
  const moreau_contacts *c = moreau_sim_contacts(prob->sim);
  const moreau_bodies *bd = moreau_sim_bodies(prob->sim);
  const int dim = moreau_sim_dim(prob->sim);
  moreau_lid *iperm;
  double t0;
  MOREAU_CHECK(moreau_sim_size(prob->sim) == 1, MOREAU_ERR_INPUT, "the Siconos comparison runs on one rank only");
  MOREAU_CHECK(c->n > 0, MOREAU_ERR_INPUT, "the pile has no contacts");
  for (moreau_lid i = 0; i < moreau_bodies_n_local(bd); i++)
    MOREAU_CHECK(bd->shape[i] == 0, MOREAU_ERR_INPUT, "the Siconos comparison takes disks or spheres only");
  MOREAU_CALL(moreau_calloc(1, sizeof(*s), &s));
  *sp = s;
  s->prob = prob;
  s->nc = (int)c->n;
  s->m = dim;
  s->ndof = dim == 2 ? 3 : 6;
  MOREAU_CALL(moreau_malloc((size_t)s->nc * sizeof(moreau_lid), &s->perm));
  MOREAU_CALL(moreau_malloc((size_t)s->nc * sizeof(moreau_lid), &iperm));
  for (int i = 0; i < s->nc; i++)
    s->perm[i] = i;
  if (order == BENCH_SICONOS_RANDOM_NUMBERING) {
    moreau_rng rng;
    moreau_rng_seed(&rng, seed, 1);
    for (int i = s->nc - 1; i > 0; i--) {
      int j = (int)moreau_rng_below(&rng, (uint32_t)(i + 1));
      moreau_lid t = s->perm[i];
      s->perm[i] = s->perm[j];
      s->perm[j] = t;
    }
  }
  for (int i = 0; i < s->nc; i++)
    iperm[s->perm[i]] = i;
  MOREAU_CALL(moreau_malloc((size_t)s->m * (size_t)s->nc * sizeof(double), &s->q));
  MOREAU_CALL(moreau_malloc((size_t)s->nc * sizeof(double), &s->mu));
  MOREAU_CALL(moreau_malloc((size_t)s->m * (size_t)s->nc * sizeof(double), &s->r));
  MOREAU_CALL(moreau_malloc((size_t)s->m * (size_t)s->nc * sizeof(double), &s->u));
  MOREAU_CALL(moreau_calloc(3 * (size_t)s->nc, sizeof(double), &s->force));
  MOREAU_CALL(moreau_malloc(2 * (size_t)(s->m * s->ndof) * (size_t)s->nc * sizeof(double), &s->jac));

  t0 = MPI_Wtime();
  for (moreau_lid k = 0; k < c->n; k++)
    contact_jacobian(s, c, k, &s->jac[2 * (size_t)(s->m * s->ndof) * (size_t)k]);
  MOREAU_CALL(build_incidence(s));
  MOREAU_CALL(assemble(s, iperm));
  free_velocities(s);
  *assembly_seconds = MPI_Wtime() - t0;
  moreau_free(&iperm);

  s->options = solver_options_create(dim == 2 ? SICONOS_FRICTION_2D_NSGS : SICONOS_FRICTION_3D_NSGS);
  MOREAU_CHECK(s->options, MOREAU_ERR_RUNTIME, "solver_options_create(SICONOS_FRICTION_%dD_NSGS) failed", dim);
  MOREAU_CHECK(s->options->iSize > SICONOS_FRICTION_3D_IPARAM_ERROR_EVALUATION, MOREAU_ERR_RUNTIME,
               "unexpected Siconos option layout (iSize %d)", s->options->iSize);
  /* The same per-sweep work as moreau's convergence measure: the light
   * (incremental) error, no final full residual and no solution filter. */
  s->options->iparam[SICONOS_FRICTION_3D_IPARAM_ERROR_EVALUATION] = SICONOS_FRICTION_3D_NSGS_ERROR_EVALUATION_LIGHT;
  s->options->filterOn = false;
  s->options->dparam[SICONOS_DPARAM_TOL] = 0.0;
  s->fcp.dimension = dim;
  s->fcp.numberOfContacts = s->nc;
  s->fcp.M = s->W;
  s->fcp.q = s->q;
  s->fcp.mu = s->mu;
  return MOREAU_SUCCESS;
}

moreau_err bench_siconos_destroy(bench_siconos **sp)
{
  bench_siconos *s = *sp;
  if (!s) return MOREAU_SUCCESS;
  if (s->options) {
    /* Siconos 4.4's solver_options_delete frees the members, not the
     * structs, of the options and of their internal solvers (fc3d: the
     * local solver). */
    SolverOptions *internal[4] = {NULL};
    size_t n_internal = s->options->numberOfInternalSolvers < 4 ? s->options->numberOfInternalSolvers : 4;
    for (size_t i = 0; i < n_internal; i++)
      internal[i] = s->options->internalSolvers[i];
    solver_options_delete(s->options);
    for (size_t i = 0; i < n_internal; i++)
      free(internal[i]);
    free(s->options);
  }
  if (s->W) {
    /* W's storage is ours: detach it before Siconos frees the wrapper. */
    s->W->matrix1 = NULL;
    NM_free(s->W);
  }
  if (s->sbm) {
    free(s->sbm->diagonal_blocks);
    free(s->sbm);
  }
  moreau_free(&s->perm);
  moreau_free(&s->jac);
  moreau_free(&s->inc_ptr);
  moreau_free(&s->inc);
  moreau_free(&s->rows_cum);
  moreau_free(&s->row_ptr);
  moreau_free(&s->col);
  moreau_free(&s->blocks);
  moreau_free(&s->block_ptr);
  moreau_free(&s->q);
  moreau_free(&s->mu);
  moreau_free(&s->r);
  moreau_free(&s->u);
  moreau_free(&s->force);
  moreau_free(sp);
  return MOREAU_SUCCESS;
}

int64_t bench_siconos_blocks(const bench_siconos *s) { return (int64_t)s->sbm->nbblocks; }

const char *bench_siconos_local_solver(const bench_siconos *s)
{
  if (s->m == 2 || s->options->numberOfInternalSolvers < 1) return "closed form";
  return solver_options_id_to_name(s->options->internalSolvers[0]->solverId);
}

moreau_err bench_siconos_solve(void *ctx, int sweeps, int warm, bench_probe *out)
{
  bench_siconos *s = ctx;
  double dt = moreau_sim_dt(s->prob->sim), t0, c0;
  /* NSGS starts from the reactions it is given. */
  if (!warm) {
    memset(s->r, 0, (size_t)s->m * (size_t)s->nc * sizeof(double));
    memset(s->u, 0, (size_t)s->m * (size_t)s->nc * sizeof(double));
  }
  s->options->iparam[SICONOS_IPARAM_MAX_ITER] = sweeps;
  t0 = MPI_Wtime();
  c0 = bench_cpu_time();
  /* Not converging is the expected outcome with a zero tolerance. */
  if (s->m == 2)
    (void)fc2d_driver(&s->fcp, s->r, s->u, s->options);
  else
    (void)fc3d_driver(&s->fcp, s->r, s->u, s->options);
  out->cpu_seconds = bench_cpu_time() - c0;
  out->seconds = MPI_Wtime() - t0;
  MOREAU_CHECK(s->options->iparam[SICONOS_IPARAM_ITER_DONE] == sweeps, MOREAU_ERR_RUNTIME,
               "Siconos did %d sweeps instead of %d", s->options->iparam[SICONOS_IPARAM_ITER_DONE], sweeps);
  out->updates = (int64_t)s->nc * sweeps;
  for (int i = 0; i < s->nc; i++)
    for (int p = 0; p < s->m; p++)
      s->force[3 * s->perm[i] + p] = s->r[s->m * i + p] / dt;
  MOREAU_CALL(bench_carried_share(s->prob, s->force, &out->share));
  return MOREAU_SUCCESS;
}
