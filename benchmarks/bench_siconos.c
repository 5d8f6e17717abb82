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
  moreau_lid *perm;          /* Siconos contact i is moreau contact perm[i] */
  double *jac;               /* per moreau contact: signed H rows of side a then b, 2 x 3 each (n row, t row) */
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

/* Relative velocity of b with respect to a at the contact, (n, t) = sum over
 * the two sides of J v, J = s [n^T, (e_z x c).n; t^T, (e_z x c).t], s = -1 for
 * a, +1 for b: the same kinematics as moreau's sweep. */
static void contact_jacobian(const moreau_contacts *c, moreau_lid k, double *jac)
{
  const double *n = &c->normal[3 * k];
  const double tx = -n[1], ty = n[0];
  for (int side = 0; side < 2; side++) {
    const double *p = side ? &c->cb[3 * k] : &c->ca[3 * k];
    double s = side ? 1.0 : -1.0, *J = &jac[6 * side];
    J[0] = s * n[0];
    J[1] = s * n[1];
    J[2] = s * (-p[1] * n[0] + p[0] * n[1]);
    J[3] = s * tx;
    J[4] = s * ty;
    J[5] = s * (-p[1] * tx + p[0] * ty);
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
  double b[4];
} row_block;

static int by_column(const void *x, const void *y)
{
  size_t a = ((const row_block *)x)->col, b = ((const row_block *)y)->col;
  return (a > b) - (a < b);
}

/* Adds J_k M^-1 J_l^T over the body shared by contacts k and l, in Siconos's
 * column-major 2x2 block layout. */
static void add_coupling(const double *Jk, const double *Jl, const double *minv, double *b)
{
  for (int p = 0; p < 2; p++)
    for (int q = 0; q < 2; q++) {
      double v = 0.0;
      for (int d = 0; d < 3; d++)
        v += Jk[3 * p + d] * minv[d] * Jl[3 * q + d];
      b[p + 2 * q] += v;
    }
}

/* Row i of W: every contact sharing a body with contact perm[i]. */
static moreau_err assemble(bench_siconos *s, const moreau_lid *iperm)
{
  const moreau_contacts *c = moreau_sim_contacts(s->prob->sim);
  const moreau_bodies *bd = moreau_sim_bodies(s->prob->sim);
  size_t bound = 0, nnz = 0, row_cap = 0;
  row_block *row = NULL;
  for (moreau_lid k = 0; k < c->n; k++) {
    size_t deg = (size_t)(s->inc_ptr[c->a[k] + 1] - s->inc_ptr[c->a[k]]);
    if (c->b[k] >= 0) deg += (size_t)(s->inc_ptr[c->b[k] + 1] - s->inc_ptr[c->b[k]]);
    bound += deg;
    if (deg > row_cap) row_cap = deg;
  }
  MOREAU_CALL(moreau_malloc(4 * bound * sizeof(double) + 1, &s->blocks));
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
      const double minv[3] = {bd->inv_mass[body], bd->inv_mass[body], bd->inv_inertia[body]};
      for (moreau_lid e = s->inc_ptr[body]; e < s->inc_ptr[body + 1]; e++) {
        moreau_lid l = s->inc[e] / 2;
        int lside = s->inc[e] % 2;
        row[n].col = (size_t)iperm[l];
        memset(row[n].b, 0, sizeof(row[n].b));
        add_coupling(&s->jac[12 * k + 6 * side], &s->jac[12 * l + 6 * lside], minv, row[n].b);
        n++;
      }
    }
    qsort(row, n, sizeof(*row), by_column);
    for (size_t j = 0; j < n; j++) {
      if (j > 0 && row[j].col == s->col[nnz - 1]) {
        for (int m = 0; m < 4; m++)
          s->blocks[4 * (nnz - 1) + m] += row[j].b[m];
        continue;
      }
      s->col[nnz] = row[j].col;
      memcpy(&s->blocks[4 * nnz], row[j].b, sizeof(row[j].b));
      nnz++;
    }
    s->row_ptr[i + 1] = nnz;
  }
  moreau_free(&row);

  MOREAU_CALL(moreau_malloc(nnz * sizeof(double *) + 1, &s->block_ptr));
  MOREAU_CALL(moreau_malloc((size_t)s->nc * sizeof(unsigned int), &s->rows_cum));
  for (size_t j = 0; j < nnz; j++)
    s->block_ptr[j] = &s->blocks[4 * j];
  for (int i = 0; i < s->nc; i++)
    s->rows_cum[i] = 2u * (unsigned int)(i + 1);
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
  s->W->size0 = s->W->size1 = 2 * s->nc;
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
  for (int i = 0; i < s->nc; i++) {
    moreau_lid k = s->perm[i];
    double u[2] = {0.0, 0.0};
    int mat_b;
    for (int side = 0; side < 2; side++) {
      moreau_lid body = side ? c->b[k] : c->a[k];
      const double *J = &s->jac[12 * k + 6 * side];
      if (body < 0) continue;
      const double v[3] = {prob->v_free[3 * body], prob->v_free[3 * body + 1], prob->w_free[3 * body + 2]};
      for (int p = 0; p < 2; p++)
        u[p] += J[3 * p] * v[0] + J[3 * p + 1] * v[1] + J[3 * p + 2] * v[2];
    }
    if (c->b[k] < 0) {
      int iw = -(c->b[k] + 1);
      const double *vw = &walls->velocity[3 * iw], *n = &c->normal[3 * k];
      u[0] += n[0] * vw[0] + n[1] * vw[1];
      u[1] += -n[1] * vw[0] + n[0] * vw[1];
      mat_b = walls->material[iw];
    } else {
      mat_b = bd->material[c->b[k]];
    }
    const moreau_pair_law *law = moreau_materials_pair(moreau_sim_materials(sim), bd->material[c->a[k]], mat_b);
    const double *um = &prob->u_minus[3 * k];
    double gpos = c->gap[k] > 0.0 ? c->gap[k] : 0.0, closing = -2.0 * gpos / moreau_sim_dt(sim);
    double un_target = um[0] < closing ? -law->e_n * um[0] : closing;
    s->q[2 * i] = u[0] - un_target;
    s->q[2 * i + 1] = u[1] + law->e_t * um[1];
    s->mu[i] = law->mu;
  }
}

moreau_err bench_siconos_create(bench_problem *prob, int shuffle, uint64_t seed, bench_siconos **sp,
                                double *assembly_seconds)
{
  bench_siconos *s;
  const moreau_contacts *c = moreau_sim_contacts(prob->sim);
  moreau_lid *iperm;
  double t0;
  MOREAU_CHECK(moreau_sim_size(prob->sim) == 1, MOREAU_ERR_INPUT, "the Siconos comparison runs on one rank only");
  MOREAU_CHECK(c->n > 0, MOREAU_ERR_INPUT, "the pile has no contacts");
  MOREAU_CALL(moreau_calloc(1, sizeof(*s), &s));
  *sp = s;
  s->prob = prob;
  s->nc = (int)c->n;
  MOREAU_CALL(moreau_malloc((size_t)s->nc * sizeof(moreau_lid), &s->perm));
  MOREAU_CALL(moreau_malloc((size_t)s->nc * sizeof(moreau_lid), &iperm));
  for (int i = 0; i < s->nc; i++)
    s->perm[i] = i;
  if (shuffle) {
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
  MOREAU_CALL(moreau_malloc(2 * (size_t)s->nc * sizeof(double), &s->q));
  MOREAU_CALL(moreau_malloc((size_t)s->nc * sizeof(double), &s->mu));
  MOREAU_CALL(moreau_malloc(2 * (size_t)s->nc * sizeof(double), &s->r));
  MOREAU_CALL(moreau_malloc(2 * (size_t)s->nc * sizeof(double), &s->u));
  MOREAU_CALL(moreau_calloc(3 * (size_t)s->nc, sizeof(double), &s->force));
  MOREAU_CALL(moreau_malloc(12 * (size_t)s->nc * sizeof(double), &s->jac));

  t0 = MPI_Wtime();
  for (moreau_lid k = 0; k < c->n; k++)
    contact_jacobian(c, k, &s->jac[12 * k]);
  MOREAU_CALL(build_incidence(s));
  MOREAU_CALL(assemble(s, iperm));
  free_velocities(s);
  *assembly_seconds = MPI_Wtime() - t0;
  moreau_free(&iperm);

  s->options = solver_options_create(SICONOS_FRICTION_2D_NSGS);
  MOREAU_CHECK(s->options, MOREAU_ERR_RUNTIME, "solver_options_create(SICONOS_FRICTION_2D_NSGS) failed");
  MOREAU_CHECK(s->options->iSize > SICONOS_FRICTION_3D_IPARAM_ERROR_EVALUATION, MOREAU_ERR_RUNTIME,
               "unexpected Siconos option layout (iSize %d)", s->options->iSize);
  /* The same per-sweep work as moreau's convergence measure: the light
   * (incremental) error, no final full residual and no solution filter. */
  s->options->iparam[SICONOS_FRICTION_3D_IPARAM_ERROR_EVALUATION] = SICONOS_FRICTION_3D_NSGS_ERROR_EVALUATION_LIGHT;
  s->options->filterOn = false;
  s->options->dparam[SICONOS_DPARAM_TOL] = 0.0;
  s->fcp.dimension = 2;
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
    /* Siconos 4.4's solver_options_delete frees the members, not the struct. */
    solver_options_delete(s->options);
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

moreau_err bench_siconos_solve(void *ctx, int sweeps, int warm, bench_probe *out)
{
  bench_siconos *s = ctx;
  double dt = moreau_sim_dt(s->prob->sim), t0, c0;
  /* fc2d NSGS starts from the reactions it is given. */
  if (!warm) {
    memset(s->r, 0, 2 * (size_t)s->nc * sizeof(double));
    memset(s->u, 0, 2 * (size_t)s->nc * sizeof(double));
  }
  s->options->iparam[SICONOS_IPARAM_MAX_ITER] = sweeps;
  t0 = MPI_Wtime();
  c0 = bench_cpu_time();
  /* Not converging is the expected outcome with a zero tolerance. */
  (void)fc2d_driver(&s->fcp, s->r, s->u, s->options);
  out->cpu_seconds = bench_cpu_time() - c0;
  out->seconds = MPI_Wtime() - t0;
  MOREAU_CHECK(s->options->iparam[SICONOS_IPARAM_ITER_DONE] == sweeps, MOREAU_ERR_RUNTIME,
               "Siconos did %d sweeps instead of %d", s->options->iparam[SICONOS_IPARAM_ITER_DONE], sweeps);
  out->updates = (int64_t)s->nc * sweeps;
  for (int i = 0; i < s->nc; i++) {
    moreau_lid k = s->perm[i];
    s->force[3 * k] = s->r[2 * i] / dt;
    s->force[3 * k + 1] = s->r[2 * i + 1] / dt;
  }
  MOREAU_CALL(bench_carried_share(s->prob, s->force, &out->share));
  return MOREAU_SUCCESS;
}
