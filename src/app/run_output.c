#include "moreau/run_output.h"

#include <stdio.h>

struct moreau_run_output {
  moreau_timeseries *ts;
  int ncols;
  double *row;
};

static const char *const fixed_columns[] = {
    "step",          "time",           "contacts",    "iterations",     "residual", "converged",
    "solve_seconds", "detect_seconds", "max_overlap", "kinetic_energy", NULL};

moreau_err moreau_run_output_create(const moreau_sim *sim, const char *dir, moreau_run_output **outp)
{
  moreau_run_output *out;
  char path[4200];
  static const char axes[] = "xyz";
  MOREAU_CALL(moreau_calloc(1, sizeof(*out), &out));
  snprintf(path, sizeof(path), "%s/timeseries.csv", dir);
  MOREAU_CALL(moreau_timeseries_create(sim->comm, path, &out->ts));
  for (int i = 0; fixed_columns[i]; i++, out->ncols++)
    MOREAU_CALL(moreau_timeseries_add_column(out->ts, fixed_columns[i]));
  for (int w = 0; w < sim->walls->n; w++) {
    char name[64];
    for (int d = 0; d < sim->dim; d++, out->ncols++) {
      snprintf(name, sizeof(name), "wall%d_f%c", w, axes[d]);
      MOREAU_CALL(moreau_timeseries_add_column(out->ts, name));
    }
    for (int d = 0; d < sim->dim; d++, out->ncols++) {
      snprintf(name, sizeof(name), "wall%d_%c", w, axes[d]);
      MOREAU_CALL(moreau_timeseries_add_column(out->ts, name));
    }
  }
  MOREAU_CALL(moreau_malloc((size_t)out->ncols * sizeof(double), &out->row));
  *outp = out;
  return MOREAU_SUCCESS;
}

moreau_err moreau_run_output_destroy(moreau_run_output **outp)
{
  moreau_run_output *out = *outp;
  if (!out) return MOREAU_SUCCESS;
  MOREAU_CALL(moreau_timeseries_destroy(&out->ts));
  moreau_free(&out->row);
  moreau_free(outp);
  return MOREAU_SUCCESS;
}

moreau_err moreau_kinetic_energy(const moreau_sim *sim, double *energy)
{
  const moreau_bodies *b = sim->bodies;
  double e = 0.0;
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    const double *v = &b->v[3 * i], *w = &b->w[3 * i];
    if (b->inv_mass[i] > 0) e += 0.5 * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) / b->inv_mass[i];
    if (b->inv_inertia[i] > 0) e += 0.5 * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]) / b->inv_inertia[i];
  }
  MOREAU_MPI_CALL(MPI_Allreduce(&e, energy, 1, MPI_DOUBLE, MPI_SUM, sim->comm));
  return MOREAU_SUCCESS;
}

moreau_err moreau_run_output_row(moreau_run_output *out, const moreau_sim *sim)
{
  double *r = out->row;
  int k = 0;
  r[k++] = (double)sim->step;
  r[k++] = sim->time;
  r[k++] = (double)sim->n_contacts_global;
  r[k++] = sim->solve.iterations;
  r[k++] = sim->solve.residual;
  r[k++] = sim->solve.converged;
  r[k++] = sim->solve_seconds;
  r[k++] = sim->detect_seconds;
  r[k++] = sim->max_overlap;
  MOREAU_CALL(moreau_kinetic_energy(sim, &r[k++]));
  for (int w = 0; w < sim->walls->n; w++) {
    for (int d = 0; d < sim->dim; d++)
      r[k++] = sim->walls->reaction[3 * w + d];
    for (int d = 0; d < sim->dim; d++)
      r[k++] = sim->walls->point[3 * w + d];
  }
  MOREAU_CALL(moreau_timeseries_write(out->ts, r));
  return MOREAU_SUCCESS;
}

void moreau_run_output_status(const moreau_run_output *out, const moreau_sim *sim, double wall, int64_t max_steps,
                              double t_end)
{
  double per_step = sim->step > 0 ? wall / (double)sim->step : 0.0, left = (t_end - sim->time) / sim->dt;
  (void)out;
  if (sim->rank) return;
  if (max_steps >= 0 && (double)(max_steps - sim->step) < left) left = (double)(max_steps - sim->step);
  if (left < 0) left = 0;
  printf("step %8lld  t %.5e  contacts %9lld  it %5d  res %.2e  wall %8.1fs  ETA %8.1fs\n", (long long)sim->step,
         sim->time, (long long)sim->n_contacts_global, sim->solve.iterations, sim->solve.residual, wall,
         left * per_step);
  fflush(stdout);
}
