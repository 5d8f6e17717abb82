#include <math.h>
#include <stdio.h>
#include <string.h>

#include "moreau/io.h"
#include "moreau/log.h"
#include "moreau/options.h"
#include "moreau/sum.h"
#include "run_analysis.h"

const moreau_option_spec moreau_analysis_options[] = {
    {"-analysis_every", "<int>", "0",
     "steps between samples of the analysis columns; each row of timeseries.csv holds the mean of the samples since "
     "the row before (0: one sample at each row)"},
    {"-analysis_region", "<xlo,ylo[,zlo],xhi,yhi[,zhi]>", "",
     "box the analysis measures, clipped to the periodic box along periodic axes (default: the periodic box along "
     "periodic axes, else the walls, else the bodies' extent)"},
    {"-force_pdf_bins", "<int>", "30",
     "bins of the normal-force PDF on [0, 6 <f_n>) written with each snapshot to <output_dir>/forces/ (0: none)"},
    {"-profile_bins", "<int>", "0", "bins of the profiles across -profile_axis (0: no profiles)"},
    {"-profile_axis", "<x|y|z>", "", "axis of the profiles (default: the Lees-Edwards gradient axis, else y)"},
    {"-profile_every", "<int>", "",
     "steps between profile files <output_dir>/profiles/profile_<step>.csv, each the mean of the samples since the "
     "last (default: -snapshot_every, else 10 rows)"},
    {NULL, NULL, NULL, NULL}};

moreau_err moreau_run_analysis_from_options(const moreau_sim *sim, int64_t output_every, int64_t snapshot_every,
                                            moreau_run_analysis_config *cfg)
{
  static const char *const axes[] = {"x", "y", "z", NULL};
  const int dim = moreau_sim_dim(sim);
  double region[6];
  int n = 6, set;
  moreau_lees_edwards le;
  memset(cfg, 0, sizeof(*cfg));
  MOREAU_CALL(moreau_option_int("-analysis_every", &cfg->every));
  MOREAU_CHECK(cfg->every >= 0, MOREAU_ERR_INPUT, "option -analysis_every: must be >= 0");
  if (cfg->every == 0) cfg->every = output_every;
  MOREAU_CHECK(output_every % cfg->every == 0, MOREAU_ERR_INPUT,
               "option -analysis_every: %lld does not divide -output_every %lld (every row must close on a sample)",
               (long long)cfg->every, (long long)output_every);
  MOREAU_CALL(moreau_option_reals("-analysis_region", region, &n));
  MOREAU_CHECK(n == 0 || n == 2 * dim, MOREAU_ERR_INPUT, "option -analysis_region: expected %d values, got %d", 2 * dim,
               n);
  cfg->has_region = n > 0;
  for (int k = 0; k < dim && cfg->has_region; k++) {
    cfg->region.lo[k] = region[k];
    cfg->region.hi[k] = region[dim + k];
    MOREAU_CHECK(isfinite(region[k]) && isfinite(region[dim + k]) && region[dim + k] > region[k], MOREAU_ERR_INPUT,
                 "option -analysis_region: each upper bound must exceed its lower bound");
  }
  if (cfg->has_region) {
    const moreau_domain *d = moreau_sim_domain(sim);
    double lo[3], hi[3];
    moreau_domain_get_box(d, lo, hi);
    for (int k = 0; k < dim; k++)
      MOREAU_CHECK(!moreau_domain_is_periodic(d, k) || (cfg->region.hi[k] > lo[k] && cfg->region.lo[k] < hi[k]),
                   MOREAU_ERR_INPUT, "option -analysis_region: outside the periodic box along axis %c", "xyz"[k]);
  }
  int64_t bins;
  MOREAU_CALL(moreau_option_int("-force_pdf_bins", &bins));
  MOREAU_CHECK(bins >= 0 && bins <= 100000, MOREAU_ERR_INPUT, "option -force_pdf_bins: must be in [0, 100000]");
  cfg->force_pdf_bins = (int)bins;
  MOREAU_CALL(moreau_option_int("-profile_bins", &bins));
  MOREAU_CHECK(bins >= 0 && bins <= 100000, MOREAU_ERR_INPUT, "option -profile_bins: must be in [0, 100000]");
  cfg->profile_bins = (int)bins;
  if (!cfg->profile_bins) return MOREAU_SUCCESS;
  moreau_domain_get_lees_edwards(moreau_sim_domain(sim), &le);
  cfg->profile_axis = le.on ? le.gradient : 1;
  MOREAU_CALL(moreau_option_is_set("-profile_axis", &set));
  if (set) MOREAU_CALL(moreau_option_enum("-profile_axis", axes, &cfg->profile_axis));
  MOREAU_CHECK(cfg->profile_axis < dim, MOREAU_ERR_INPUT, "option -profile_axis: a %dD run has no axis z", dim);
  cfg->profile_every = snapshot_every > 0 ? snapshot_every : 10 * output_every;
  MOREAU_CALL(moreau_option_is_set("-profile_every", &set));
  if (set) MOREAU_CALL(moreau_option_int("-profile_every", &cfg->profile_every));
  MOREAU_CHECK(cfg->profile_every >= 1 && cfg->profile_every % cfg->every == 0, MOREAU_ERR_INPUT,
               "option -profile_every: must be a positive multiple of the sampling interval %lld (-analysis_every)",
               (long long)cfg->every);
  return MOREAU_SUCCESS;
}

/* The histogram behind the tail exponent column: 30 bins on [0, 6 <f>). */
#define RUN_ANALYSIS_PDF_BINS 30

struct run_analysis {
  moreau_run_analysis_config cfg;
  char profile_dir[4200];
  int dim, ncols, stress_cols, le;
  double f_c;            /* cohesive law: the largest tension of a bond of the default pair; else 0 */
  double *sum, *sample;  /* ncols */
  moreau_force_pdf *pdf; /* for the mean force and the tail of each sample */
  int64_t samples;
  double *profile_sum, *profile; /* profile_bins x MOREAU_PROFILE_FIELDS + 1 (the bin centre) */
  int64_t profile_samples;
};

moreau_err run_analysis_create(const moreau_sim *sim, const moreau_run_analysis_config *cfg, const char *dir,
                               run_analysis **ap)
{
  run_analysis *a;
  moreau_lees_edwards le;
  MOREAU_CALL(moreau_calloc(1, sizeof(*a), &a));
  *ap = a;
  a->cfg = *cfg;
  a->dim = moreau_sim_dim(sim);
  moreau_domain_get_lees_edwards(moreau_sim_domain(sim), &le);
  a->le = le.on;
  a->stress_cols = a->dim * (a->dim + 1) / 2;
  if (!strcmp(moreau_law_name(moreau_sim_law(sim)), "cohesive"))
    a->f_c = moreau_materials_pair(moreau_sim_materials(sim), 0, 0)->f_c;
  a->ncols = a->stress_cols + 4 + a->le + (a->f_c > 0) + 3 + 10;
  snprintf(a->profile_dir, sizeof(a->profile_dir), "%s/profiles", dir);
  MOREAU_CALL(moreau_calloc((size_t)a->ncols, sizeof(double), &a->sum));
  MOREAU_CALL(moreau_calloc((size_t)a->ncols, sizeof(double), &a->sample));
  MOREAU_CALL(moreau_force_pdf_create(RUN_ANALYSIS_PDF_BINS, MOREAU_FORCE_PDF_FMAX, &a->pdf));
  if (cfg->profile_bins) {
    size_t n = (size_t)cfg->profile_bins * (MOREAU_PROFILE_FIELDS + 1);
    MOREAU_CALL(moreau_calloc(n, sizeof(double), &a->profile_sum));
    MOREAU_CALL(moreau_calloc(n, sizeof(double), &a->profile));
  }
  return MOREAU_SUCCESS;
}

moreau_err run_analysis_destroy(run_analysis **ap)
{
  run_analysis *a = *ap;
  if (!a) return MOREAU_SUCCESS;
  moreau_free(&a->sum);
  moreau_free(&a->sample);
  MOREAU_CALL(moreau_force_pdf_destroy(&a->pdf));
  moreau_free(&a->profile_sum);
  moreau_free(&a->profile);
  moreau_free(ap);
  return MOREAU_SUCCESS;
}

moreau_err run_analysis_add_columns(const run_analysis *a, moreau_timeseries *ts, int *ncols)
{
  static const char axes[] = "xyz";
  static const char *const scalars[] = {"p", "q", "q_over_p", "stress_angle", "inertial_number"};
  static const char *const more[] = {
      "packing_fraction", "mean_normal_force", "force_tail_exponent", "z",   "z_c", "z_nonrattler",
      "z_c_nonrattler",   "rattler_fraction",  "sliding_fraction",    "a_c", "a_n", "a_t",
      "fabric_angle"};
  char name[64];
  for (int i = 0; i < a->dim; i++)
    for (int j = i; j < a->dim; j++) {
      snprintf(name, sizeof(name), "stress_%c%c", axes[i], axes[j]);
      MOREAU_CALL(moreau_timeseries_add_column(ts, name));
    }
  for (int k = 0; k < 4 + a->le; k++)
    MOREAU_CALL(moreau_timeseries_add_column(ts, scalars[k]));
  if (a->f_c > 0) MOREAU_CALL(moreau_timeseries_add_column(ts, "bond_number"));
  for (int k = 0; k < 13; k++)
    MOREAU_CALL(moreau_timeseries_add_column(ts, more[k]));
  *ncols = a->ncols;
  return MOREAU_SUCCESS;
}

/* Collective. The region measured now: the option's, or along each axis the
 * periodic box, else the two walls facing each other across it (axis-aligned
 * walls; rough walls: the inner faces of their grains), else the extent of
 * the bodies. */
static moreau_err current_region(const run_analysis *a, const moreau_sim *sim, moreau_region *r)
{
  const moreau_domain *d = moreau_sim_domain(sim);
  const moreau_walls *w = moreau_sim_walls(sim);
  const moreau_bodies *b = moreau_sim_bodies(sim);
  double lo[3], hi[3], extent[6];
  int need = 0;
  moreau_domain_get_box(d, lo, hi);
  if (a->cfg.has_region) {
    /* Along a periodic axis points are taken in the box, so the region is
     * too (the box may have shrunk under the pressure control). */
    *r = a->cfg.region;
    for (int k = 0; k < a->dim; k++)
      if (moreau_domain_is_periodic(d, k)) {
        r->lo[k] = fmax(r->lo[k], lo[k]);
        r->hi[k] = fmin(r->hi[k], hi[k]);
        MOREAU_CHECK(r->hi[k] > r->lo[k], MOREAU_ERR_INPUT,
                     "option -analysis_region: outside the periodic box along axis %c", "xyz"[k]);
      }
    return MOREAU_SUCCESS;
  }
  for (int k = 0; k < 3; k++) {
    r->lo[k] = -HUGE_VAL;
    r->hi[k] = HUGE_VAL;
  }
  for (int k = 0; k < a->dim; k++) {
    if (moreau_domain_is_periodic(d, k)) {
      r->lo[k] = lo[k];
      r->hi[k] = hi[k];
      continue;
    }
    for (int i = 0; i < w->n; i++) {
      const double *n = &w->normal[3 * i], *p = &w->point[3 * i];
      if (fabs(n[k]) < 1.0 - 1e-12) continue;
      if (n[k] > 0.0) r->lo[k] = fmax(r->lo[k], p[k]);
      if (n[k] < 0.0) r->hi[k] = fmin(r->hi[k], p[k]);
    }
    need |= !isfinite(r->lo[k]) || !isfinite(r->hi[k]);
  }
  /* A rough cell's walls hold their grains' centres: the flow lies between
   * the grains' inner faces. */
  moreau_rough_cell rc;
  if (moreau_sim_rough_cell(sim, &rc)) {
    r->lo[rc.gradient] += 0.5 * rc.diameter;
    r->hi[rc.gradient] -= 0.5 * rc.diameter;
  }
  if (!need) return MOREAU_SUCCESS;
  for (int k = 0; k < 3; k++) {
    extent[k] = HUGE_VAL;
    extent[3 + k] = HUGE_VAL;
  }
  for (moreau_lid i = 0; i < b->n_owned; i++)
    for (int k = 0; k < 3; k++) {
      extent[k] = fmin(extent[k], b->x[3 * i + k] - b->radius[i]);
      extent[3 + k] = fmin(extent[3 + k], -(b->x[3 * i + k] + b->radius[i]));
    }
  MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, extent, 6, MPI_DOUBLE, MPI_MIN, moreau_sim_comm(sim)));
  for (int k = 0; k < a->dim; k++) {
    if (!isfinite(r->lo[k])) r->lo[k] = extent[k];
    if (!isfinite(r->hi[k])) r->hi[k] = -extent[3 + k];
  }
  MOREAU_CHECK(isfinite(r->lo[0]) && isfinite(r->hi[0]), MOREAU_ERR_INPUT, "the analysis region is empty: no bodies");
  return MOREAU_SUCCESS;
}

static moreau_err take_sample(run_analysis *a, const moreau_sim *sim, const moreau_region *r)
{
  const moreau_domain *d = moreau_sim_domain(sim);
  MPI_Comm comm = moreau_sim_comm(sim);
  double sigma[9], p, q, angle, beta, beta_error, *s = a->sample;
  moreau_texture tx;
  int k = 0, tail_bins;
  MOREAU_CALL(moreau_stress_region(comm, d, moreau_sim_bodies(sim), moreau_sim_contacts(sim), r, sigma));
  moreau_stress_invariants(a->dim, sigma, &p, &q, &angle);
  for (int i = 0; i < a->dim; i++)
    for (int j = i; j < a->dim; j++)
      s[k++] = sigma[3 * i + j];
  s[k++] = p;
  s[k++] = q;
  s[k++] = p > 0.0 ? q / p : 0.0;
  s[k++] = angle;
  if (a->le) {
    /* I = rate d / sqrt(sigma_gg / rho): the normal stress on the shear
     * plane, the mean diameter and grain density of the bodies. */
    moreau_lees_edwards le;
    const moreau_macro_state *ms = moreau_sim_macro_state(sim);
    moreau_domain_get_lees_edwards(d, &le);
    double sgg = sigma[4 * le.gradient];
    s[k++] = sgg > 0.0 ? fabs(le.rate) * ms->mean_diameter * sqrt(ms->grain_density / sgg) : 0.0;
  }
  if (a->f_c > 0) {
    /* B = f_c / (p d) (seed 003 eq 3), d the mean diameter of the bodies. */
    const moreau_bodies *b = moreau_sim_bodies(sim);
    moreau_sum sums[2] = {{0, 0}, {0, 0}};
    for (moreau_lid i = 0; i < b->n_owned; i++) {
      moreau_sum_add(&sums[0], 2.0 * b->radius[i]);
      moreau_sum_add(&sums[1], 1.0);
    }
    MOREAU_CALL(moreau_sum_allreduce(comm, sums, 2));
    double dmean = moreau_sum_value(&sums[0]) / fmax(moreau_sum_value(&sums[1]), 1.0);
    s[k++] = p > 0.0 && dmean > 0.0 ? a->f_c / (p * dmean) : 0.0;
  }
  MOREAU_CALL(moreau_solid_fraction_region(comm, d, moreau_sim_bodies(sim), r->lo, r->hi, &s[k++]));
  MOREAU_CALL(moreau_force_pdf_compute(comm, moreau_sim_contacts(sim), a->pdf));
  s[k++] = a->pdf->mean;
  moreau_force_pdf_tail(a->pdf, &beta, &beta_error, &tail_bins);
  /* No fit (too few contacts above the mean): 0, so that means stay numbers. */
  s[k++] = isfinite(beta) ? beta : 0.0;
  MOREAU_CALL(moreau_texture_compute(comm, moreau_sim_part(sim), moreau_sim_bodies(sim), moreau_sim_contacts(sim),
                                     moreau_sim_walls(sim), moreau_sim_materials(sim), d, a->cfg.has_region ? r : NULL,
                                     &tx));
  s[k++] = tx.z;
  s[k++] = tx.z_c;
  s[k++] = tx.z_nr;
  s[k++] = tx.z_c_nr;
  s[k++] = tx.rattler_fraction;
  s[k++] = tx.sliding_fraction;
  s[k++] = tx.a_c;
  s[k++] = tx.a_n;
  s[k++] = tx.a_t;
  /* The major direction of the fabric in the xy plane, as stress_angle. */
  double angle_c = atan2(tx.dir_c[1], tx.dir_c[0]) * 180.0 / M_PI;
  s[k++] = angle_c > 90.0 ? angle_c - 180.0 : angle_c <= -90.0 ? angle_c + 180.0 : angle_c;
  MOREAU_ASSERT(k == a->ncols);
  for (int i = 0; i < a->ncols; i++)
    a->sum[i] += s[i];
  a->samples++;
  return MOREAU_SUCCESS;
}

static moreau_err profile_sample(run_analysis *a, const moreau_sim *sim, const moreau_region *r)
{
  const int bins = a->cfg.profile_bins, axis = a->cfg.profile_axis, width = MOREAU_PROFILE_FIELDS + 1;
  double *v = a->profile;
  MOREAU_CALL(moreau_profile_compute(moreau_sim_comm(sim), moreau_sim_domain(sim), moreau_sim_bodies(sim),
                                     moreau_sim_contacts(sim), r, axis, bins, v));
  /* The values come packed (MOREAU_PROFILE_FIELDS per bin); each row of
   * the file leads with the bin centre, so spread them from the end. */
  for (int k = bins - 1; k >= 0; k--) {
    for (int j = MOREAU_PROFILE_FIELDS - 1; j >= 0; j--)
      v[(size_t)k * width + 1 + j] = v[(size_t)k * MOREAU_PROFILE_FIELDS + j];
    v[(size_t)k * width] = r->lo[axis] + (k + 0.5) * (r->hi[axis] - r->lo[axis]) / bins;
  }
  for (size_t i = 0; i < (size_t)bins * width; i++)
    a->profile_sum[i] += v[i];
  a->profile_samples++;
  return MOREAU_SUCCESS;
}

/* The columns of a profile file: the bin centre, then the fields that mean
 * something in the run's dimension (indices into a sample row: the centre,
 * then moreau_profile_field_names); the stress as in the time series, its
 * upper triangle. 2D names its spin about z "spin". */
static const int profile_keep_2d[] = {0, 1, 2, 3, 4, 8, 9, 10, 13, -1};
static const int profile_keep_3d[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 17, -1};

static moreau_err profile_write(run_analysis *a, const moreau_sim *sim)
{
  static const char axes[] = "xyz";
  const int bins = a->cfg.profile_bins, width = MOREAU_PROFILE_FIELDS + 1;
  const int *keep = a->dim == 2 ? profile_keep_2d : profile_keep_3d;
  const char *columns[MOREAU_PROFILE_FIELDS + 1];
  char name[64], axis_name[2] = {axes[a->cfg.profile_axis], 0};
  int n = 0;
  for (; keep[n] >= 0; n++)
    columns[n] = keep[n] == 0 ? axis_name : moreau_profile_field_names[keep[n] - 1];
  if (a->dim == 2) columns[5] = "spin";
  /* The means of the kept columns, row by row. */
  for (int k = 0; k < bins; k++)
    for (int j = 0; j < n; j++) {
      size_t from = (size_t)k * width + keep[j];
      a->profile[(size_t)k * n + j] = a->profile_sum[from] / (double)a->profile_samples;
    }
  for (size_t i = 0; i < (size_t)bins * width; i++)
    a->profile_sum[i] = 0.0;
  a->profile_samples = 0;
  snprintf(name, sizeof(name), "profile_%06lld.csv", (long long)moreau_sim_step_index(sim));
  MOREAU_CALL(moreau_csv_table_write(moreau_sim_comm(sim), a->profile_dir, name, n, columns, bins, a->profile));
  return MOREAU_SUCCESS;
}

static moreau_err sample(run_analysis *a, const moreau_sim *sim)
{
  moreau_region r;
  MOREAU_CALL(current_region(a, sim, &r));
  MOREAU_CALL(take_sample(a, sim, &r));
  if (a->cfg.profile_bins) MOREAU_CALL(profile_sample(a, sim, &r));
  return MOREAU_SUCCESS;
}

moreau_err run_analysis_step(run_analysis *a, const moreau_sim *sim)
{
  const int64_t step = moreau_sim_step_index(sim);
  if (step % a->cfg.every) return MOREAU_SUCCESS;
  /* -log_view shows the analysis' share of a run as MoreauAnalysis. */
  moreau_log_begin(MOREAU_EV_ANALYSIS);
  moreau_err err = sample(a, sim);
  moreau_log_end(MOREAU_EV_ANALYSIS);
  MOREAU_CALL(err);
  if (a->cfg.profile_bins && step % a->cfg.profile_every == 0) MOREAU_CALL(profile_write(a, sim));
  return MOREAU_SUCCESS;
}

int run_analysis_row(run_analysis *a, double *r)
{
  for (int i = 0; i < a->ncols; i++) {
    r[i] = a->samples ? a->sum[i] / (double)a->samples : 0.0;
    a->sum[i] = 0.0;
  }
  a->samples = 0;
  return a->ncols;
}
