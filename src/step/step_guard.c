#include <math.h>

#include "sim_private.h"

/* A blown-up run must stop at the step where it blew up, naming what went
 * wrong, rather than go on to crash in detection or in the partition (a NaN
 * has no cell) or to produce meaningless data for days. */

static int finite3(const double *x) { return isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]); }

/* The smallest gid of an owned body whose state is not finite, or INT64_MAX. */
static moreau_gid first_non_finite(const moreau_bodies *b)
{
  moreau_gid worst = INT64_MAX;
  for (moreau_lid i = 0; i < b->n_owned; i++)
    if (!finite3(&b->x[3 * i]) || !finite3(&b->v[3 * i]) || !finite3(&b->w[3 * i]))
      if (b->gid[i] < worst) worst = b->gid[i];
  return worst;
}

/* The contact of this rank with the largest overlap over the smaller radius
 * of its pair of contactors (a wall's radius is the contactor's). */
static double worst_overlap(const moreau_sim *sim, moreau_lid *which)
{
  const moreau_contacts *c = sim->contacts;
  double worst = 0.0;
  *which = -1;
  for (moreau_lid k = 0; k < c->n; k++) {
    double ra, rb;
    moreau_contacts_radii(c, sim->bodies, k, &ra, &rb);
    double r = c->b[k] >= 0 ? fmin(ra, rb) : ra;
    if (-c->gap[k] / r > worst) {
      worst = -c->gap[k] / r;
      *which = k;
    }
  }
  return worst;
}

moreau_err sim_check_state(moreau_sim *sim)
{
  moreau_gid bad = first_non_finite(sim->bodies), global_bad;
  struct {
    double ratio;
    int rank;
  } mine, top;
  moreau_lid k;
  moreau_err err = MOREAU_SUCCESS;
  const moreau_contacts *c = sim->contacts;
  mine.ratio = worst_overlap(sim, &k);
  mine.rank = sim->rank;
  MOREAU_MPI_CALL(MPI_Allreduce(&bad, &global_bad, 1, MPI_INT64_T, MPI_MIN, sim->comm));
  MOREAU_MPI_CALL(MPI_Allreduce(&mine, &top, 1, MPI_DOUBLE_INT, MPI_MAXLOC, sim->comm));
  sim->stats.max_overlap_ratio = top.ratio;
  if (global_bad != INT64_MAX) {
    if (bad == global_bad)
      err = moreau_error_raise(MOREAU_ERR_RUNTIME, __FILE__, __LINE__, __func__,
                               "step %lld: body %lld has a position or velocity that is not finite (the run blew "
                               "up; a smaller -dt may help); the state is in the last snapshot",
                               (long long)sim->step, (long long)bad);
  } else if (sim->overlap_stop > 0 && top.ratio > sim->overlap_stop && top.rank == sim->rank) {
    if (MOREAU_GID_IS_WALL(c->gid_b[k]))
      err = moreau_error_raise(MOREAU_ERR_RUNTIME, __FILE__, __LINE__, __func__,
                               "step %lld: body %lld overlaps wall %lld by %.3g of its radius, above -overlap_stop "
                               "%g (dt too large or the solver not converged); the state is in the last snapshot",
                               (long long)sim->step, (long long)c->gid_a[k],
                               (long long)(c->gid_b[k] - MOREAU_WALL_GID_BASE), top.ratio, sim->overlap_stop);
    else
      err = moreau_error_raise(MOREAU_ERR_RUNTIME, __FILE__, __LINE__, __func__,
                               "step %lld: bodies %lld and %lld overlap by %.3g of the smaller radius, above "
                               "-overlap_stop %g (dt too large or the solver not converged); the state is in the "
                               "last snapshot",
                               (long long)sim->step, (long long)c->gid_a[k], (long long)c->gid_b[k], top.ratio,
                               sim->overlap_stop);
  }
  sim->stats.unstable = global_bad != INT64_MAX || (sim->overlap_stop > 0 && top.ratio > sim->overlap_stop);
  /* The rank holding the message raised it; the others learn of it here. */
  MOREAU_CALL(moreau_error_agree(sim->comm, err));
  return MOREAU_SUCCESS;
}
