#include <math.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "moreau/log.h"
#include "nlgs_private.h"

const moreau_option_spec moreau_nlgs_options[] = {
    {"-nlgs_tol", "<real>", "1e-4", "precision eps_f on the relative force change (seed 000 eq 41)"},
    {"-nlgs_norm", "<mean|quad|max|law>", "mean",
     "convergence measure: sum|dP|/sum|P|, quadratic mean, eq 41's maximum over contacts, or the law residual"},
    {"-nlgs_min_it", "<int>", "2", "minimum number of sweeps per step"},
    {"-nlgs_max_it", "<int>", "2000", "maximum number of sweeps per step"},
    {"-nlgs_check_every", "<int>", "1", "take the global convergence test every k sweeps"},
    {"-nlgs_warm_start", "<bool>", "true", "start each step from the previous step's forces"},
    {"-nlgs_order", "<random|blocks|layers>", "random",
     "sweep order: a fresh random permutation; space-filling-curve blocks of rows in random order, each shuffled; or "
     "blocks of rows by height along -gravity, from the top down, each shuffled"},
    {"-nlgs_block", "<int>", "128", "rows per block of -nlgs_order blocks and layers"},
    {"-nlgs_copy_split", "<real>", "0.55",
     "an interface body's copy on each of its k ranks has mass M / max(1, split k): 1 is the plain mass split M / k, "
     "down to 0.5 each copy is stiffer and load crosses subdomains in fewer sweeps"},
    {NULL, NULL, NULL, NULL}};

moreau_err moreau_nlgs_create(MPI_Comm comm, int dim, const moreau_law *law, moreau_nlgs **nlgs)
{
  moreau_nlgs *s;
  MOREAU_CHECK(dim == 2 || dim == 3, MOREAU_ERR_INPUT, "dimension must be 2 or 3, got %d", dim);
  MOREAU_CHECK(law, MOREAU_ERR_INTERNAL, "moreau_nlgs_create: no contact law");
  MOREAU_CALL(moreau_calloc(1, sizeof(*s), &s));
  s->comm = comm;
  s->dim = dim;
  s->ops = dim == 2 ? &nlgs_ops2d : &nlgs_ops3d;
  moreau_nlgs_set_law(s, law);
  MOREAU_MPI_CALL(MPI_Comm_rank(comm, &s->rank));
  MOREAU_MPI_CALL(MPI_Comm_size(comm, &s->size));
  s->tol = 1e-4;
  s->norm = MOREAU_NLGS_NORM_MEAN;
  s->min_it = 2;
  s->max_it = 2000;
  s->check_every = 1;
  s->warm = 1;
  s->lend_min = (size_t)64 << 20;
  s->order_kind = MOREAU_NLGS_ORDER_RANDOM;
  s->block = 128;
  s->copy_split = 0.55;
  moreau_nlgs_set_seed(s, 0);
  *nlgs = s;
  return MOREAU_SUCCESS;
}

void moreau_nlgs_set_law(moreau_nlgs *s, const moreau_law *law)
{
  s->law = law;
  s->sweep = s->dim == 2 ? law->sweep2d : law->sweep3d;
  s->row_size = s->dim == 2 ? law->row_size2d : law->row_size3d;
  moreau_free(&s->rows); /* reallocated at the new record size by the next solve */
  moreau_free(&s->row_saved);
  s->row_cap = 0;
}

moreau_err moreau_nlgs_destroy(moreau_nlgs **nlgs)
{
  moreau_nlgs *s = *nlgs;
  if (!s) return MOREAU_SUCCESS;
  moreau_free(&s->rows);
  moreau_free(&s->row_saved);
  moreau_free(&s->row_contact);
  moreau_free(&s->row_extra);
  moreau_free(&s->row_extra2d);
  moreau_free(&s->order);
  moreau_free(&s->contact_perm);
  moreau_free(&s->visit);
  moreau_free(&s->block_perm);
  moreau_free(&s->mult);
  moreau_free(&s->inv_inertia6);
  moreau_free(&s->touched);
  moreau_free(&s->wall_share);
  moreau_free(&s->wall_touched);
  moreau_free(&s->wall_glue);
  moreau_free(&s->vel);
  moreau_free(nlgs);
  return MOREAU_SUCCESS;
}

moreau_err moreau_nlgs_set_from_options(moreau_nlgs *s)
{
  static const char *const norms[] = {"mean", "quad", "max", "law", NULL};
  static const char *const orders[] = {"random", "blocks", "layers", NULL};
  int norm, order;
  int64_t min_it, max_it, every, seed, block;
  double tol, split;
  MOREAU_CALL(moreau_option_real("-nlgs_tol", &tol));
  MOREAU_CALL(moreau_option_enum("-nlgs_norm", norms, &norm));
  MOREAU_CALL(moreau_option_int("-nlgs_min_it", &min_it));
  MOREAU_CALL(moreau_option_int("-nlgs_max_it", &max_it));
  MOREAU_CALL(moreau_option_int("-nlgs_check_every", &every));
  MOREAU_CALL(moreau_option_bool("-nlgs_warm_start", &s->warm));
  MOREAU_CALL(moreau_option_int("-seed", &seed));
  MOREAU_CALL(moreau_option_enum("-nlgs_order", orders, &order));
  MOREAU_CALL(moreau_option_int("-nlgs_block", &block));
  MOREAU_CALL(moreau_option_real("-nlgs_copy_split", &split));
  MOREAU_CHECK(split >= 0.5 && split <= 1, MOREAU_ERR_INPUT, "option -nlgs_copy_split: must be in [0.5, 1], got %g",
               split);
  MOREAU_CHECK(block >= 1 && block <= 100000000, MOREAU_ERR_INPUT, "option -nlgs_block: must be >= 1, got %lld",
               (long long)block);
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
  moreau_nlgs_set_order(s, (moreau_nlgs_order)order, (int)block);
  s->copy_split = split;
  return MOREAU_SUCCESS;
}

void moreau_nlgs_set_order(moreau_nlgs *s, moreau_nlgs_order order, int block)
{
  s->order_kind = order;
  s->block = block >= 1 ? block : 1;
}

void moreau_nlgs_set_down(moreau_nlgs *s, const double g[3])
{
  double len = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
  for (int k = 0; k < 3; k++)
    s->down[k] = len > 0.0 ? g[k] / len : 0.0;
}

int moreau_nlgs_needs_down(const moreau_nlgs *s) { return s->order_kind == MOREAU_NLGS_ORDER_LAYERS; }

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

void moreau_nlgs_get_rng(const moreau_nlgs *s, uint64_t state[4]) { memcpy(state, s->rng.s, sizeof(s->rng.s)); }

void moreau_nlgs_set_rng(moreau_nlgs *s, const uint64_t state[4]) { memcpy(s->rng.s, state, sizeof(s->rng.s)); }

void moreau_nlgs_set_warm_start(moreau_nlgs *s, int warm) { s->warm = warm; }

void moreau_nlgs_set_lend_min(moreau_nlgs *s, size_t bytes) { s->lend_min = bytes; }

int64_t moreau_nlgs_updates(const moreau_nlgs *s) { return s->updates; }

void moreau_nlgs_workspace(const moreau_nlgs *s, void **buf, size_t *bytes)
{
  *buf = s->rows;
  *bytes = s->rows ? (size_t)s->row_cap * s->row_size : 0;
}

void moreau_nlgs_workspace_release(moreau_nlgs *s)
{
  if (s->rows && s->lent)
    (void)nlgs_release_pages(s->rows, 0, (size_t)s->row_cap * s->row_size,
                             nlgs_lines_granule((size_t)s->row_cap * s->row_size));
}

/* Room for nrows records, and behind them for as many normals kept apart
 * (nlgs_contacts.c). */
static moreau_err reserve_rows(moreau_nlgs *s, moreau_lid nrows)
{
  const size_t keep_rows = (nlgs_contacts_keep_room(nrows) + s->row_size - 1) / s->row_size;
  if ((size_t)nrows + keep_rows > (size_t)s->row_cap || !s->rows) {
    moreau_lid cap = nrows + nrows / 2 + 64;
    if ((size_t)cap < (size_t)nrows + keep_rows) cap = nrows + (moreau_lid)keep_rows;
    moreau_free(&s->rows);
    MOREAU_CALL(moreau_malloc_lines((size_t)cap * s->row_size, &s->rows));
    if (!s->row_saved) MOREAU_CALL(moreau_malloc(s->row_size, &s->row_saved));
    MOREAU_CALL(moreau_realloc((size_t)cap * sizeof(moreau_lid), &s->row_contact));
    /* Not realloc: the records point into it, and are rebuilt anyway. */
    if (s->dim == 3) {
      moreau_free(&s->row_extra);
      MOREAU_CALL(moreau_malloc((size_t)cap * sizeof(*s->row_extra), &s->row_extra));
    } else {
      moreau_free(&s->row_extra2d);
      MOREAU_CALL(moreau_malloc((size_t)cap * sizeof(*s->row_extra2d), &s->row_extra2d));
    }
    MOREAU_CALL(moreau_realloc((size_t)cap * sizeof(moreau_lid), &s->order));
    MOREAU_CALL(moreau_realloc((size_t)cap * sizeof(moreau_lid), &s->visit));
    s->row_cap = cap;
  }
  return MOREAU_SUCCESS;
}

moreau_err moreau_nlgs_u_minus_space(moreau_nlgs *s, moreau_lid n, double **u_minus)
{
  *u_minus = NULL;
  MOREAU_ASSERT(s->row_size >= 3 * sizeof(double));
  if (s->order_kind != MOREAU_NLGS_ORDER_RANDOM) return MOREAU_SUCCESS;
  MOREAU_CALL(reserve_rows(s, n));
  *u_minus = (double *)nlgs_row(s, n) - 3 * (size_t)n;
  return MOREAU_SUCCESS;
}

static moreau_err reserve(moreau_nlgs *s, moreau_lid nrows, moreau_lid nbodies, int nwalls)
{
  MOREAU_CALL(reserve_rows(s, nrows));
  if (nbodies > s->body_cap) {
    moreau_lid cap = nbodies + nbodies / 2 + 64;
    MOREAU_CALL(moreau_realloc((size_t)cap * sizeof(double), &s->mult));
    if (s->dim == 3) MOREAU_CALL(moreau_realloc(6 * (size_t)cap * sizeof(double), &s->inv_inertia6));
    MOREAU_CALL(moreau_realloc((size_t)cap, &s->touched));
    s->body_cap = cap;
  }
  if (nwalls > s->wall_cap) {
    MOREAU_CALL(moreau_realloc((size_t)nwalls * sizeof(double), &s->wall_share));
    MOREAU_CALL(moreau_realloc((size_t)nwalls, &s->wall_touched));
    MOREAU_CALL(moreau_realloc(3 * (size_t)nwalls * sizeof(double), &s->wall_glue));
    s->wall_cap = nwalls;
  }
  return MOREAU_SUCCESS;
}

/* Marks body i touched, or its wall when it is a rough wall's grain. */
static void touch(moreau_nlgs *s, const moreau_bodies *b, moreau_lid i)
{
  if (b->glued[i])
    s->wall_touched[b->glued[i] - 1] = 1;
  else
    s->touched[i] = 1;
}

/* Which bodies and walls this rank's contacts touch; the partition turns that
 * into the multiplicity k of each interface body and wall. A body's copy has
 * mass M / max(1, split k) in the records (a wall's, M / k), and the
 * partition's averages add up the copies' changes accordingly
 * (moreau_part_interface_start). */
static moreau_err share_counts(moreau_nlgs *s, const moreau_nlgs_problem *prob)
{
  const moreau_contacts *c = prob->contacts;
  const moreau_bodies *b = prob->bodies;
  moreau_lid nb = moreau_bodies_n_local(b);
  if (nb) memset(s->touched, 0, (size_t)nb);
  if (prob->walls->n) memset(s->wall_touched, 0, (size_t)prob->walls->n);
  for (moreau_lid k = 0; k < c->n; k++) {
    moreau_lid ia = c->a[k], ib = c->b[k];
    MOREAU_ASSERT(ia >= 0 && ia < b->n_owned && ib < nb && ib >= -prob->walls->n);
    /* A rough wall's grain: its rows move the wall. */
    touch(s, b, ia);
    if (ib >= 0)
      touch(s, b, ib);
    else
      s->wall_touched[-(ib + 1)] = 1;
  }
  MOREAU_CALL(moreau_part_interface_build(prob->part, b, s->touched, s->mult));
  const moreau_part_velocities vel = nlgs_velocities_view(s);
  MOREAU_CALL(moreau_part_interface_start(prob->part, b, &vel, s->copy_split));
  MOREAU_CALL(moreau_part_wall_interface_build(prob->part, prob->walls, s->wall_touched, s->wall_share));
  const moreau_walls *w = prob->walls;
  for (int i = 0; i < w->n; i++) {
    double scale = w->mode[i] == MOREAU_WALL_FORCE ? sqrt(s->wall_share[i] / w->mass[i]) : 0.0;
    for (int k = 0; k < 3; k++)
      s->wall_glue[3 * i + k] = scale * w->normal[3 * i + k];
  }
  return MOREAU_SUCCESS;
}

/* The sums every convergence check reduces over the ranks, in one message:
 * the sweep's increment sums (seed 000 eq 41 and its variants), the law
 * residual's (with -nlgs_norm law) and the interface spread. */
enum { G_DP, G_P, G_DP2, G_P2, G_MAX_RATIO, G_LAW_DP, G_LAW_P, G_SPREAD, G_N };

static double ratio(double num, double den) { return den > 0 ? num / den : (num > 0 ? 1.0 : 0.0); }

static double measure(const moreau_nlgs *s, const double *g)
{
  switch (s->norm) {
  case MOREAU_NLGS_NORM_QUAD:
    return g[G_P2] > 0 ? sqrt(g[G_DP2] / g[G_P2]) : (g[G_DP2] > 0 ? 1.0 : 0.0);
  case MOREAU_NLGS_NORM_MAX:
    return g[G_MAX_RATIO];
  case MOREAU_NLGS_NORM_LAW:
    return ratio(g[G_LAW_DP], g[G_LAW_P]);
  default:
    return ratio(g[G_DP], g[G_P]);
  }
}

/* The check's reduction over elements of a contiguous type of doubles: the
 * G_N sums of a check (maxima where they are maxima), then, when the check
 * rides on the force-driven walls' reduction (moreau_part_wall_carry), the
 * walls' sums. The type is queried for its length: an element is never cut. */
static void reduce_sums(void *in, void *inout, int *len, MPI_Datatype *type)
{
  const double *a = in;
  double *b = inout;
  int bytes;
  MPI_Type_size(*type, &bytes);
  const int n = bytes / (int)sizeof(double);
  for (int e = 0; e < *len; e++, a += n, b += n)
    for (int k = 0; k < n; k++)
      b[k] = k == G_MAX_RATIO || k == G_SPREAD ? fmax(a[k], b[k]) : b[k] + a[k];
}

/* One interface average of the table's velocities (and of the force-driven
 * walls'), in two halves. */
static moreau_err average_begin(moreau_nlgs *s, const moreau_nlgs_problem *prob)
{
  const moreau_part_velocities vel = nlgs_velocities_view(s);
  if (moreau_part_wall_reduces(prob->part, prob->walls)) nlgs_velocities_walls_out(s, prob);
  MOREAU_CALL(moreau_part_interface_average_begin(prob->part, prob->bodies, &vel, prob->walls));
  return MOREAU_SUCCESS;
}

static moreau_err average_end(moreau_nlgs *s, const moreau_nlgs_problem *prob)
{
  MOREAU_CALL(moreau_part_interface_average_end(prob->part));
  if (moreau_part_wall_reduces(prob->part, prob->walls)) nlgs_velocities_walls_in(s, prob);
  return MOREAU_SUCCESS;
}

/* The records of prob's contacts, their impulses applied to the table's
 * velocities and the copies of interface bodies averaged: the velocities are
 * then those of the contact forces. Returns the record count and the global
 * contact count. */
/* A u_minus in the records (moreau_nlgs_u_minus_space) must lie where the
 * row build reads it before writing over it: the random order, and records
 * that need not grow (growing would drop it). */
static moreau_err u_minus_fits(const moreau_nlgs *s, const moreau_nlgs_problem *prob)
{
  uintptr_t um = (uintptr_t)prob->u_minus, rows = (uintptr_t)s->rows;
  if (!s->rows || um < rows || um >= rows + (uintptr_t)s->row_cap * s->row_size) return MOREAU_SUCCESS;
  MOREAU_CHECK(s->order_kind == MOREAU_NLGS_ORDER_RANDOM && prob->contacts->n <= s->row_cap &&
                   prob->u_minus == (const double *)nlgs_row(s, prob->contacts->n) - 3 * (size_t)prob->contacts->n,
               MOREAU_ERR_INTERNAL,
               "u_minus lies in the solver's records but not where moreau_nlgs_u_minus_space put it");
  return MOREAU_SUCCESS;
}

/* lend: whether the contact list lends its normals and forces to the solve
 * (nlgs_contacts.c). */
static moreau_err setup_rows(moreau_nlgs *s, const moreau_nlgs_problem *prob, int lend, moreau_lid *nrows,
                             int64_t *nglobal)
{
  const moreau_contacts *c = prob->contacts;
  MOREAU_CHECK(prob->bodies->dim == s->dim, MOREAU_ERR_INTERNAL, "a %dD solver given %dD bodies", s->dim,
               prob->bodies->dim);
  MOREAU_CHECK(prob->part, MOREAU_ERR_INTERNAL, "moreau_nlgs_solve: no partition");
  MOREAU_CALL(u_minus_fits(s, prob));
  MOREAU_CALL(reserve(s, c->n, moreau_bodies_n_local(prob->bodies), prob->walls->n));
  MOREAU_CALL(nlgs_velocities_gather(s, prob, lend));
  MOREAU_CALL(share_counts(s, prob));
  nlgs_velocities_masses(s, prob);
  MOREAU_CALL(nlgs_contact_order(s, prob));
  nlgs_contacts_lend(s, c, lend);
  const moreau_lid built = s->ops->build(s, prob);
  MOREAU_ASSERT(built >= 0 && built <= c->n);
  *nrows = built;
  MOREAU_CALL(average_begin(s, prob));
  MOREAU_CALL(average_end(s, prob));
  *nglobal = c->n;
  MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, nglobal, 1, MPI_INT64_T, MPI_SUM, s->comm));
  return MOREAU_SUCCESS;
}

/* The global law residual of the records' impulses (one small reduction). */
static moreau_err law_residual(moreau_nlgs *s, moreau_contacts *c, moreau_lid nrows, double *residual)
{
  double dp[2];
  MOREAU_CALL(nlgs_law_residual_sums(s, c, nrows, dp));
  MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, dp, 2, MPI_DOUBLE, MPI_SUM, s->comm));
  *residual = ratio(dp[0], dp[1]);
  return MOREAU_SUCCESS;
}

moreau_err moreau_nlgs_law_residual(moreau_nlgs *s, const moreau_nlgs_problem *prob, double *residual)
{
  moreau_lid nrows;
  int64_t nglobal;
  s->lent = 0;
  MOREAU_CALL(setup_rows(s, prob, 0, &nrows, &nglobal));
  *residual = 0.0;
  const moreau_err err = s->law->explicit_forces ? MOREAU_SUCCESS : law_residual(s, prob->contacts, nrows, residual);
  MOREAU_CALL(nlgs_velocities_scatter(s, prob));
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}

/* Whether a row end (body i, or wall -(i + 1)) moves a force-driven wall
 * (a rough wall's grain moves its wall). On several ranks every copy of such
 * a wall gets the average of the velocities the copies had when the average
 * began, so every row moving it must come before. */
static int moves_force_wall(const moreau_nlgs *s, const moreau_bodies *b, const moreau_walls *w, moreau_lid i)
{
  int wall = i < 0 ? (int)(-(i + 1)) : b->glued[i] - 1;
  return s->size > 1 && wall >= 0 && w->mode[wall] == MOREAU_WALL_FORCE;
}

/* Whether record i touches what the interface exchange carries: a ghost, an
 * owned body other ranks' contacts touch too, or a force-driven wall. */
static int on_edge(const moreau_nlgs *s, const moreau_nlgs_problem *prob, moreau_lid i)
{
  const moreau_bodies *b = prob->bodies;
  const moreau_contacts *c = prob->contacts;
  moreau_lid k = s->row_contact[i], ia = c->a[k], ib = c->b[k];
  return s->mult[ia] > 1.0 || (ib >= 0 && (ib >= b->n_owned || s->mult[ib] > 1.0)) ||
         moves_force_wall(s, b, prob->walls, ia) || moves_force_wall(s, b, prob->walls, ib);
}

/* Puts in s->order the records on the edge before the others, each group in
 * record order; returns how many are on the edge (none on one rank). One
 * pass: the inner records fill the end backwards, then are reversed. */
static moreau_lid edge_first(moreau_nlgs *s, const moreau_nlgs_problem *prob, moreau_lid nrows)
{
  moreau_lid n_edge = 0, back = nrows;
  for (moreau_lid i = 0; i < nrows; i++) {
    if (on_edge(s, prob, i))
      s->order[n_edge++] = i;
    else
      s->order[--back] = i;
  }
  for (moreau_lid i = n_edge, j = nrows - 1; i < j; i++, j--) {
    moreau_lid t = s->order[i];
    s->order[i] = s->order[j];
    s->order[j] = t;
  }
  return n_edge;
}

static void add_sums(moreau_sweep_sums *sums, const moreau_sweep_sums *more)
{
  sums->dp += more->dp;
  sums->p += more->p;
  sums->dp2 += more->dp2;
  sums->p2 += more->p2;
  sums->max_ratio = fmax(sums->max_ratio, more->max_ratio);
}

/* The local sums of a convergence check after the sweep that gave sums. */
static moreau_err check_sums(moreau_nlgs *s, const moreau_nlgs_problem *prob, moreau_lid nrows,
                             const moreau_sweep_sums *sums, double *g)
{
  g[G_DP] = sums->dp;
  g[G_P] = sums->p;
  g[G_DP2] = sums->dp2;
  g[G_P2] = sums->p2;
  g[G_MAX_RATIO] = sums->max_ratio;
  g[G_LAW_DP] = g[G_LAW_P] = 0.0;
  if (s->norm == MOREAU_NLGS_NORM_LAW) MOREAU_CALL(nlgs_law_residual_sums(s, prob->contacts, nrows, &g[G_LAW_DP]));
  g[G_SPREAD] = moreau_part_interface_spread(prob->part);
  return MOREAU_SUCCESS;
}

/* Whether the reduced sums g of the check after sweep it pass the test. */
static int passes(const moreau_nlgs *s, const double *g, int it, moreau_nlgs_result *res)
{
  res->residual = measure(s, g);
  res->interface_spread = g[G_SPREAD];
  return it >= s->min_it && res->residual < s->tol;
}

/* Returns the pages of the rows' and bodies' per-solve arrays, which the
 * next solve writes again: they would stay resident under the next
 * detection and warm start, where a step's memory peaks once the solve
 * borrows. */
static void release_scratch(moreau_nlgs *s)
{
  const size_t page = (size_t)sysconf(_SC_PAGESIZE), rows = (size_t)s->row_cap, bodies = (size_t)s->body_cap;
  (void)nlgs_release_pages(s->row_contact, 0, rows * sizeof(moreau_lid), page);
  (void)nlgs_release_pages(s->order, 0, rows * sizeof(moreau_lid), page);
  (void)nlgs_release_pages(s->mult, 0, bodies * sizeof(double), page);
  (void)nlgs_release_pages(s->touched, 0, bodies, page);
}

/* Sweeps the nrows records (the first n_edge on the interface) until the
 * test passes or max_it; ride: whether the check's sums ride in the walls'
 * reduction. */
static moreau_err sweep_rows(moreau_nlgs *s, const moreau_nlgs_problem *prob, moreau_lid nrows, int64_t nglobal,
                             moreau_lid n_edge, int ride, moreau_nlgs_result *res)
{
  moreau_contacts *c = prob->contacts;
  double g_send[G_N], g_recv[G_N];
  /* On several ranks the check's reduction is non-blocking and lagged: the
   * sums of the check after sweep k are reduced while the next sweeps run,
   * so no rank waits for the slowest one at every check, and a pass stops
   * the solve a little after the state that passed. With a force-driven
   * wall, whose velocity is reduced after every sweep anyway, the sums ride
   * in sweep k + 1's wall reduction and the verdict is known at its end;
   * otherwise they have their own reduction, completed at the next check.
   * On one rank the check is immediate. checked: the sweep whose state the
   * last completed test judged (0: none); pending: the sweep whose test is
   * in flight (0: none). */
  const int lagged = s->size > 1;
  int pending = 0, checked = 0;
  MPI_Request req = MPI_REQUEST_NULL;
  moreau_law_sweep_args edge_sweep = {0}, inner_sweep;
  MPI_Datatype check_type;
  MPI_Op op;

  edge_sweep.rows = s->rows;
  edge_sweep.max_ratio = s->norm == MOREAU_NLGS_NORM_MAX;
  inner_sweep = edge_sweep;
  memset(res, 0, sizeof(*res));
  MOREAU_MPI_CALL(MPI_Op_create(reduce_sums, 1, &op));
  MOREAU_MPI_CALL(MPI_Type_contiguous(G_N, MPI_DOUBLE, &check_type));
  MOREAU_MPI_CALL(MPI_Type_commit(&check_type));
  for (int it = 1; nglobal > 0 && it <= s->max_it; it++) {
    moreau_sweep_sums sums, inner;
    /* The rows on the interface first, then the exchange of their bodies'
     * velocities is in flight while the interior rows are swept (they touch
     * no body the exchange carries); each group in its own fresh order. */
    const moreau_lid edge_runs = nlgs_visit_order(s, s->order, n_edge, s->visit, 0, &edge_sweep);
    nlgs_visit_order(s, s->order + n_edge, nrows - n_edge, s->visit + n_edge, edge_runs, &inner_sweep);
    double t_sweep = MPI_Wtime();
    moreau_log_begin(MOREAU_EV_NLGS_SWEEP);
    s->sweep(&edge_sweep, &sums);
    moreau_log_end(MOREAU_EV_NLGS_SWEEP);
    res->sweep_seconds += MPI_Wtime() - t_sweep;
    MOREAU_CALL(average_begin(s, prob));
    t_sweep = MPI_Wtime();
    moreau_log_begin(MOREAU_EV_NLGS_SWEEP);
    s->sweep(&inner_sweep, &inner);
    moreau_log_end(MOREAU_EV_NLGS_SWEEP);
    res->sweep_seconds += MPI_Wtime() - t_sweep;
    add_sums(&sums, &inner);
    s->updates += nrows;
    MOREAU_CALL(average_end(s, prob));
    res->iterations = it;
    if (s->law->explicit_forces) { /* the forces were functions of the state: done */
      res->converged = 1;
      break;
    }
    const int check = it % s->check_every == 0 || it == s->max_it, verdict = pending && (ride || check);
    if (!check && !verdict) continue;
    moreau_log_begin(MOREAU_EV_NLGS_CONVERGENCE);
    if (verdict) { /* the last check's: arrived with this sweep's glue, or wait for it */
      if (!ride) MOREAU_MPI_CALL(MPI_Wait(&req, MPI_STATUS_IGNORE));
      checked = pending;
      pending = 0;
      res->converged = passes(s, g_recv, checked, res);
    }
    if (!res->converged && check) {
      MOREAU_CALL(check_sums(s, prob, nrows, &sums, g_send));
      if (lagged && it != s->max_it) {
        if (ride)
          MOREAU_CALL(moreau_part_wall_carry(prob->part, g_send, G_N, op, g_recv));
        else
          MOREAU_MPI_CALL(MPI_Iallreduce(g_send, g_recv, 1, check_type, op, s->comm, &req));
        pending = it;
      } else {
        MOREAU_MPI_CALL(MPI_Allreduce(g_send, g_recv, 1, check_type, op, s->comm));
        checked = it;
        res->converged = passes(s, g_recv, it, res);
      }
    }
    moreau_log_end(MOREAU_EV_NLGS_CONVERGENCE);
    if (res->converged) break;
  }
  MPI_Type_free(&check_type);
  MPI_Op_free(&op);
  if (nglobal == 0) res->converged = 1;
  if (s->norm == MOREAU_NLGS_NORM_LAW && checked == res->iterations)
    res->law_residual = res->residual; /* the last test judged the returned forces */
  else if (nglobal > 0 && !s->law->explicit_forces) {
    moreau_log_begin(MOREAU_EV_NLGS_CONVERGENCE);
    MOREAU_CALL(law_residual(s, c, nrows, &res->law_residual));
    moreau_log_end(MOREAU_EV_NLGS_CONVERGENCE);
  }
  return MOREAU_SUCCESS;
}

moreau_err moreau_nlgs_solve(moreau_nlgs *s, const moreau_nlgs_problem *prob, moreau_nlgs_result *res)
{
  moreau_contacts *c = prob->contacts;
  moreau_lid nrows = 0;
  int64_t nglobal = 0;
  const double t0 = MPI_Wtime();
  if (!s->warm || s->law->explicit_forces) {
    if (c->n) memset(c->force, 0, 3 * (size_t)c->n * sizeof(double));
  }
  s->lent = (size_t)c->n * s->row_size >= s->lend_min;
  moreau_log_begin(MOREAU_EV_NLGS_ROWS);
  moreau_err err = setup_rows(s, prob, s->lent, &nrows, &nglobal);
  const moreau_lid n_edge = err ? 0 : edge_first(s, prob, nrows);
  nlgs_contacts_take(s, c, prob->bodies);
  moreau_log_end(MOREAU_EV_NLGS_ROWS);
  if (!err) err = sweep_rows(s, prob, nrows, nglobal, n_edge, moreau_part_wall_reduces(prob->part, prob->walls), res);
  moreau_log_begin(MOREAU_EV_NLGS_ROWS);
  /* The records go back to the contacts first, then the table to the
   * bodies: the lent arrays come back where the solve's memory has gone. */
  const moreau_err back = nlgs_contacts_give_back(s, c, prob->bodies, err ? -1 : nrows, prob->dt);
  const moreau_err scattered = nlgs_velocities_scatter(s, prob);
  /* Dead until the next solve, which writes all of it again. */
  if (s->lent) {
    nlgs_velocities_free(s);
    release_scratch(s);
  }
  moreau_log_end(MOREAU_EV_NLGS_ROWS);
  MOREAU_CALL(err);
  MOREAU_CALL(back);
  MOREAU_CALL(scattered);
  res->seconds = MPI_Wtime() - t0;
  return MOREAU_SUCCESS;
}
