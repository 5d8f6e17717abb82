#include "moreau/run_output.h"
#include "moreau/sum.h"

#include <stdio.h>

#include "run_analysis.h"

struct moreau_run_output {
  moreau_timeseries *ts;
  run_analysis *analysis;
  int ncols;
  int cell; /* the columns of a periodic cell are written */
  double *row;
  /* A rough cell: its wall stresses (normal, shear) summed over the steps
   * since the last row, and how many. */
  double wall_stress[2];
  int64_t wall_samples;
};

static const char *const fixed_columns[] = {
    "step",           "time",        "contacts",       "iterations",   "residual",         "converged", "solve_seconds",
    "detect_seconds", "max_overlap", "kinetic_energy", "law_residual", "interface_spread", NULL};

static moreau_err open_series(const moreau_sim *sim, const char *dir, const moreau_run_analysis_config *an, int resume,
                              moreau_run_output **outp)
{
  moreau_run_output *out;
  char path[4200];
  static const char axes[] = "xyz";
  const int dim = moreau_sim_dim(sim), n_walls = moreau_sim_walls(sim)->n;
  int n;
  MOREAU_CALL(moreau_calloc(1, sizeof(*out), &out));
  *outp = out;
  MOREAU_CALL(run_analysis_create(sim, an, dir, &out->analysis));
  snprintf(path, sizeof(path), "%s/timeseries.csv", dir);
  if (resume)
    MOREAU_CALL(moreau_timeseries_continue(moreau_sim_comm(sim), path, (double)moreau_sim_step_index(sim), &out->ts));
  else
    MOREAU_CALL(moreau_timeseries_create(moreau_sim_comm(sim), path, &out->ts));
  for (int i = 0; fixed_columns[i]; i++, out->ncols++)
    MOREAU_CALL(moreau_timeseries_add_column(out->ts, fixed_columns[i]));
  for (int w = 0; w < n_walls; w++) {
    char name[64];
    for (int d = 0; d < dim; d++, out->ncols++) {
      snprintf(name, sizeof(name), "wall%d_f%c", w, axes[d]);
      MOREAU_CALL(moreau_timeseries_add_column(out->ts, name));
    }
    for (int d = 0; d < dim; d++, out->ncols++) {
      snprintf(name, sizeof(name), "wall%d_%c", w, axes[d]);
      MOREAU_CALL(moreau_timeseries_add_column(out->ts, name));
    }
  }
  out->cell = moreau_domain_any_periodic(moreau_sim_domain(sim));
  if (out->cell) {
    char name[64];
    static const char *const cell_columns[] = {"strain",        "solid_fraction", "pressure_target", "pressure",
                                               "normal_stress", "shear_stress",   "friction",        NULL};
    for (int i = 0; cell_columns[i]; i++, out->ncols++)
      MOREAU_CALL(moreau_timeseries_add_column(out->ts, cell_columns[i]));
    for (int d = 0; d < dim; d++, out->ncols++) {
      snprintf(name, sizeof(name), "box_%c", axes[d]);
      MOREAU_CALL(moreau_timeseries_add_column(out->ts, name));
    }
  }
  MOREAU_CALL(run_analysis_add_columns(out->analysis, out->ts, &n));
  out->ncols += n;
  MOREAU_CALL(moreau_malloc((size_t)out->ncols * sizeof(double), &out->row));
  return MOREAU_SUCCESS;
}

moreau_err moreau_run_output_create(const moreau_sim *sim, const char *dir, const moreau_run_analysis_config *an,
                                    moreau_run_output **out)
{
  moreau_err err = open_series(sim, dir, an, 0, out);
  if (err) {
    /* Only a file that was opened can fail to close: the error stays err. */
    moreau_err cleanup = moreau_run_output_destroy(out);
    MOREAU_CALL(err ? err : cleanup);
  }
  return MOREAU_SUCCESS;
}

moreau_err moreau_run_output_continue(const moreau_sim *sim, const char *dir, const moreau_run_analysis_config *an,
                                      moreau_run_output **out)
{
  moreau_err err = open_series(sim, dir, an, 1, out);
  if (err) {
    /* Only a file that was opened can fail to close: the error stays err. */
    moreau_err cleanup = moreau_run_output_destroy(out);
    MOREAU_CALL(err ? err : cleanup);
  }
  return MOREAU_SUCCESS;
}

static double rough_area(const moreau_sim *sim, const moreau_rough_cell *rc)
{
  double lo[3], hi[3], area = 1.0;
  moreau_domain_get_box(moreau_sim_domain(sim), lo, hi);
  for (int i = 0; i < moreau_sim_dim(sim); i++)
    if (i != rc->gradient) area *= hi[i] - lo[i];
  return area;
}

/* The top wall's normal and shear stress this step: the bodies push it out
 * (against its inward normal) and drag it back against its motion. */
static void rough_wall_stress(const moreau_sim *sim, const moreau_rough_cell *rc, double stress[2])
{
  const moreau_walls *w = moreau_sim_walls(sim);
  const double *f = &w->reaction[3 * rc->top], v = w->velocity[3 * rc->top + rc->flow];
  const double area = rough_area(sim, rc);
  stress[0] = -f[rc->gradient] * w->normal[3 * rc->top + rc->gradient] / area;
  stress[1] = -(v > 0 ? 1.0 : v < 0 ? -1.0 : 0.0) * f[rc->flow] / area;
}

/* The rough-wall cell's columns (as cell_row's): the normal and shear
 * stresses are the top wall's, averaged over the steps since the last row;
 * the pressure is the mean normal stress of the Love-Weber tensor between
 * the grains' inner faces, now; the solid fraction is the free bodies' over
 * the gap; the box along the gradient is the gap. Collective. */
static moreau_err rough_row(moreau_run_output *out, const moreau_sim *sim, const moreau_rough_cell *rc, double *r,
                            int *k)
{
  const moreau_bodies *b = moreau_sim_bodies(sim);
  const moreau_walls *w = moreau_sim_walls(sim);
  const int dim = moreau_sim_dim(sim);
  double lo[3], hi[3], trace = 0.0, stress[2], sigma[9];
  moreau_sum solid = {0.0, 0.0}; /* independent of the partition and of the bodies' order */
  moreau_region region;
  moreau_domain_get_box(moreau_sim_domain(sim), lo, hi);
  /* The mean normal stress between the grains' inner faces. */
  for (int i = 0; i < 3; i++) {
    region.lo[i] = i < dim ? lo[i] : 0.0;
    region.hi[i] = i < dim ? hi[i] : 0.0;
  }
  region.lo[rc->gradient] = w->point[3 * rc->bottom + rc->gradient] + 0.5 * rc->diameter;
  region.hi[rc->gradient] = w->point[3 * rc->top + rc->gradient] - 0.5 * rc->diameter;
  MOREAU_CALL(
      moreau_stress_region(moreau_sim_comm(sim), moreau_sim_domain(sim), b, moreau_sim_contacts(sim), &region, sigma));
  for (int i = 0; i < dim; i++)
    trace += sigma[4 * i];
  for (moreau_lid i = 0; i < b->n_owned; i++)
    if (!b->glued[i]) moreau_sum_add(&solid, moreau_bodies_measure(b, i));
  MOREAU_CALL(moreau_sum_allreduce(moreau_sim_comm(sim), &solid, 1));
  if (out->wall_samples) {
    stress[0] = out->wall_stress[0] / (double)out->wall_samples;
    stress[1] = out->wall_stress[1] / (double)out->wall_samples;
  } else {
    rough_wall_stress(sim, rc, stress);
  }
  out->wall_stress[0] = out->wall_stress[1] = 0.0;
  out->wall_samples = 0;
  r[(*k)++] = moreau_sim_rough_strain(sim);
  r[(*k)++] = moreau_sum_value(&solid) / (rough_area(sim, rc) * moreau_sim_rough_gap(sim));
  r[(*k)++] = rc->pressure;
  r[(*k)++] = trace / dim;
  r[(*k)++] = stress[0];
  r[(*k)++] = stress[1];
  r[(*k)++] = stress[0] > 0 ? stress[1] / stress[0] : 0.0;
  for (int i = 0; i < dim; i++)
    r[(*k)++] = i == rc->gradient ? moreau_sim_rough_gap(sim) : hi[i] - lo[i];
  return MOREAU_SUCCESS;
}

moreau_err moreau_run_output_step(moreau_run_output *out, const moreau_sim *sim)
{
  moreau_rough_cell rc;
  if (moreau_sim_rough_cell(sim, &rc)) {
    double stress[2];
    rough_wall_stress(sim, &rc, stress);
    out->wall_stress[0] += stress[0];
    out->wall_stress[1] += stress[1];
    out->wall_samples++;
  }
  MOREAU_CALL(run_analysis_step(out->analysis, sim));
  return MOREAU_SUCCESS;
}

moreau_err moreau_run_output_destroy(moreau_run_output **outp)
{
  moreau_run_output *out = *outp;
  if (!out) return MOREAU_SUCCESS;
  MOREAU_CALL(run_analysis_destroy(&out->analysis));
  MOREAU_CALL(moreau_timeseries_destroy(&out->ts));
  moreau_free(&out->row);
  moreau_free(outp);
  return MOREAU_SUCCESS;
}

moreau_err moreau_kinetic_energy(const moreau_sim *sim, double *energy)
{
  const moreau_bodies *b = moreau_sim_bodies(sim);
  /* Independent of the order of the bodies, hence of the rank count and of
   * the renumbering. */
  moreau_sum e = {0.0, 0.0};
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    const double *v = &b->v[3 * i];
    if (b->inv_mass[i] > 0) moreau_sum_add(&e, 0.5 * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) / b->inv_mass[i]);
    moreau_sum_add(&e, moreau_bodies_rotational_energy(b, i));
  }
  MOREAU_CALL(moreau_sum_allreduce(moreau_sim_comm(sim), &e, 1));
  *energy = moreau_sum_value(&e);
  return MOREAU_SUCCESS;
}

/* The rough-wall cell's columns (see cell_row): the stresses are the top
 * wall's reaction over the cell's cross-section, the box along the
 * gradient its gap. */
/* The periodic cell's columns; returns how many. Under Lees-Edwards the
 * normal stress is sigma_gg (gradient axis), the shear stress the
 * flow-gradient component with the sign that makes it positive when it
 * resists the imposed shear, and friction their ratio; without, the normal
 * stress is the pressure and the other two are 0. */
static int cell_row(const moreau_sim *sim, double *r)
{
  const moreau_macro_state *ms = moreau_sim_macro_state(sim);
  const moreau_domain *d = moreau_sim_domain(sim);
  const int dim = moreau_sim_dim(sim);
  moreau_lees_edwards le;
  double lo[3], hi[3], pressure, tau = 0.0, trace = 0.0, mass;
  int k = 0, axes[3];
  moreau_domain_get_lees_edwards(d, &le);
  moreau_domain_get_box(d, lo, hi);
  moreau_sim_get_pressure(sim, &pressure, axes, &mass);
  for (int i = 0; i < dim; i++)
    trace += ms->sigma[4 * i];
  if (le.on) tau = -(le.rate > 0 ? 1.0 : le.rate < 0 ? -1.0 : 0.0) * ms->sigma[3 * le.flow + le.gradient];
  r[k++] = le.on ? le.rate * moreau_sim_time(sim) : 0.0;
  r[k++] = ms->solid_fraction;
  r[k++] = pressure;
  r[k++] = trace / dim;
  r[k++] = le.on ? ms->sigma[4 * le.gradient] : trace / dim;
  r[k++] = tau;
  r[k++] = le.on && ms->sigma[4 * le.gradient] > 0 ? tau / ms->sigma[4 * le.gradient] : 0.0;
  for (int i = 0; i < dim; i++)
    r[k++] = hi[i] - lo[i];
  return k;
}

moreau_err moreau_run_output_row(moreau_run_output *out, const moreau_sim *sim)
{
  double *r = out->row;
  int k = 0;
  const moreau_step_stats *st = moreau_sim_stats(sim);
  const moreau_walls *walls = moreau_sim_walls(sim);
  const int dim = moreau_sim_dim(sim);
  r[k++] = (double)moreau_sim_step_index(sim);
  r[k++] = moreau_sim_time(sim);
  r[k++] = (double)st->n_contacts_global;
  r[k++] = st->solve.iterations;
  r[k++] = st->solve.residual;
  r[k++] = st->solve.converged;
  r[k++] = st->solve_seconds;
  r[k++] = st->detect_seconds;
  r[k++] = st->max_overlap;
  MOREAU_CALL(moreau_kinetic_energy(sim, &r[k++]));
  r[k++] = st->solve.law_residual;
  r[k++] = st->solve.interface_spread;
  for (int w = 0; w < walls->n; w++) {
    for (int d = 0; d < dim; d++)
      r[k++] = walls->reaction[3 * w + d];
    for (int d = 0; d < dim; d++)
      r[k++] = walls->point[3 * w + d];
  }
  moreau_rough_cell rc;
  if (out->cell && moreau_sim_rough_cell(sim, &rc))
    MOREAU_CALL(rough_row(out, sim, &rc, r, &k));
  else if (out->cell)
    k += cell_row(sim, &r[k]);
  k += run_analysis_row(out->analysis, &r[k]);
  MOREAU_ASSERT(k == out->ncols);
  MOREAU_CALL(moreau_timeseries_write(out->ts, r));
  return MOREAU_SUCCESS;
}

void moreau_run_output_status(const moreau_run_output *out, const moreau_sim *sim, double wall, int64_t first_step,
                              int64_t max_steps, double t_end)
{
  const int64_t step = moreau_sim_step_index(sim);
  const moreau_step_stats *st = moreau_sim_stats(sim);
  /* The wall time is this run's: a restart's rate counts its own steps. */
  double per_step = step > first_step ? wall / (double)(step - first_step) : 0.0,
         left = (t_end - moreau_sim_time(sim)) / moreau_sim_dt(sim);
  (void)out;
  if (moreau_sim_rank(sim)) return;
  if (max_steps >= 0 && (double)(max_steps - step) < left) left = (double)(max_steps - step);
  if (left < 0) left = 0;
  printf("step %8lld  t %.5e  contacts %9lld  it %5d  res %.2e  wall %8.1fs  ETA %8.1fs\n", (long long)step,
         moreau_sim_time(sim), (long long)st->n_contacts_global, st->solve.iterations, st->solve.residual, wall,
         left * per_step);
  fflush(stdout);
}

/* The force PDF of the current step as a table: f_lo, f_hi, pdf, count. */
static moreau_err force_pdf_write(const moreau_sim *sim, const char *dir, int bins)
{
  static const char *const columns[4] = {"f_lo", "f_hi", "pdf", "count"};
  moreau_force_pdf *pdf;
  double *rows = NULL;
  char sub[4200], name[64];
  MOREAU_CALL(moreau_force_pdf_create(bins, MOREAU_FORCE_PDF_FMAX, &pdf));
  moreau_err err = moreau_force_pdf_compute(moreau_sim_comm(sim), moreau_sim_contacts(sim), pdf);
  if (!err) err = moreau_malloc((size_t)bins * 4 * sizeof(double), &rows);
  for (int i = 0; !err && i < bins; i++) {
    rows[4 * i] = moreau_force_pdf_bin_lo(pdf, i);
    rows[4 * i + 1] = moreau_force_pdf_bin_lo(pdf, i + 1);
    rows[4 * i + 2] = pdf->pdf[i];
    rows[4 * i + 3] = (double)pdf->count[i];
  }
  snprintf(sub, sizeof(sub), "%s/forces", dir);
  snprintf(name, sizeof(name), "force_pdf_%06lld.csv", (long long)moreau_sim_step_index(sim));
  if (!err) err = moreau_csv_table_write(moreau_sim_comm(sim), sub, name, 4, columns, bins, rows);
  moreau_free(&rows);
  moreau_err cleanup = moreau_force_pdf_destroy(&pdf);
  MOREAU_CALL(err ? err : cleanup);
  return MOREAU_SUCCESS;
}

moreau_err moreau_run_output_snapshot(const moreau_sim *sim, const char *dir, const moreau_run_analysis_config *an)
{
  moreau_run_state rs;
  moreau_sim_run_state(sim, &rs);
  MOREAU_CALL(moreau_snapshot_write(&rs, moreau_sim_bodies(sim), moreau_sim_contacts(sim), moreau_sim_walls(sim),
                                    moreau_sim_shapes(sim), dir));
  if (an->force_pdf_bins) MOREAU_CALL(force_pdf_write(sim, dir, an->force_pdf_bins));
  return MOREAU_SUCCESS;
}
