#include "moreau/log.h"
#include "part_private.h"

/* The velocity components a dimension uses: (vx, vy, wz) in 2D (width 3),
 * (v, w) in 3D (width 6). Sending only these halves the 2D messages. */
static void get_velocity(const void *obj, int width, moreau_lid i, double *out)
{
  const moreau_part_velocities *vel = obj;
  const int nv = width == 3 ? 2 : 3;
  for (int k = 0; k < nv; k++)
    out[k] = vel->v[(size_t)vel->stride * i + k];
  for (int k = 0; k < width - nv; k++)
    out[nv + k] = vel->w[(size_t)vel->stride * i + k];
}

static void set_velocity(void *obj, int width, moreau_lid i, const double *in)
{
  const moreau_part_velocities *vel = obj;
  const int nv = width == 3 ? 2 : 3;
  for (int k = 0; k < nv; k++)
    vel->v[(size_t)vel->stride * i + k] = in[k];
  for (int k = 0; k < width - nv; k++)
    vel->w[(size_t)vel->stride * i + k] = in[nv + k];
}

/* The spread is measured on the velocity: 2 components of (vx, vy, wz), 3 of (v, w). */
static int velocity_components(const moreau_part *part) { return part->ncomp == 3 ? 2 : 3; }

moreau_err moreau_part_interface_average_begin(moreau_part *part, const moreau_bodies *b,
                                               const moreau_part_velocities *vel, moreau_walls *w)
{
  /* The exchange in flight reads and writes through part->iface_vel. */
  MOREAU_CHECK(!part->reduce.open, MOREAU_ERR_INTERNAL, "an interface exchange is already in flight");
  moreau_log_begin(MOREAU_EV_EXCHANGE);
  part->iface_vel = *vel;
  MOREAU_CALL(part_interface_reduce_begin(part, b, part->ncomp, velocity_components(part), get_velocity, set_velocity,
                                          &part->iface_vel));
  MOREAU_CALL(part_wall_average_begin(part, w));
  moreau_log_end(MOREAU_EV_EXCHANGE);
  return MOREAU_SUCCESS;
}

moreau_err moreau_part_interface_average_end(moreau_part *part)
{
  moreau_log_begin(MOREAU_EV_EXCHANGE);
  MOREAU_CALL(part_interface_reduce_end(part));
  MOREAU_CALL(part_wall_average_end(part));
  moreau_log_end(MOREAU_EV_EXCHANGE);
  return MOREAU_SUCCESS;
}

moreau_err moreau_part_interface_average(moreau_part *part, const moreau_bodies *b, const moreau_part_velocities *vel,
                                         moreau_walls *w)
{
  MOREAU_CALL(moreau_part_interface_average_begin(part, b, vel, w));
  MOREAU_CALL(moreau_part_interface_average_end(part));
  return MOREAU_SUCCESS;
}

moreau_err moreau_part_interface_start(moreau_part *part, const moreau_bodies *b, const moreau_part_velocities *vel,
                                       double split)
{
  size_t w = (size_t)part->ncomp;
  MOREAU_CHECK(part->iface_valid && b->n_owned == part->ghost_n_owned, MOREAU_ERR_INTERNAL,
               "moreau_part_interface_start: no interface plan for these bodies");
  MOREAU_CHECK(split >= 0.5 && split <= 1.0, MOREAU_ERR_INTERNAL, "copy split %g outside [0.5, 1]", split);
  part->iface_split = split;
  if (split == 1.0) return MOREAU_SUCCESS;
  MOREAU_CALL(moreau_realloc(((size_t)part->n_iface + 1) * w * sizeof(double), &part->iface_base));
  for (moreau_lid s = 0; s < part->n_iface; s++)
    get_velocity(vel, part->ncomp, part->iface_lid[s], &part->iface_base[w * s]);
  return MOREAU_SUCCESS;
}

double moreau_part_interface_spread(const moreau_part *part) { return part->iface_spread; }
