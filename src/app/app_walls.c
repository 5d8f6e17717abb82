#include <math.h>
#include <stdio.h>
#include <string.h>

#include "moreau/app.h"

/* Fixed walls on every face of the box but those of periodic axes; the box
 * also becomes the domain's box. */
static moreau_err add_box(moreau_sim *sim, const double *box)
{
  int dim = moreau_sim_dim(sim);
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  for (int k = 0; k < dim; k++) {
    double p[3] = {0, 0, 0}, n[3] = {0, 0, 0};
    MOREAU_CHECK(box[dim + k] > box[k], MOREAU_ERR_INPUT, "option -box: upper bound %d not above the lower one", k);
    lo[k] = box[k];
    hi[k] = box[dim + k];
    if (moreau_domain_is_periodic(moreau_sim_domain(sim), k)) continue;
    p[k] = box[k];
    n[k] = 1.0;
    MOREAU_CALL(moreau_walls_add(moreau_sim_walls(sim), p, n, MOREAU_WALL_FIXED, NULL, 0.0, 0.0, 0, NULL));
    p[k] = box[dim + k];
    n[k] = -1.0;
    MOREAU_CALL(moreau_walls_add(moreau_sim_walls(sim), p, n, MOREAU_WALL_FIXED, NULL, 0.0, 0.0, 0, NULL));
  }
  MOREAU_CALL(moreau_domain_set_box(moreau_sim_domain(sim), lo, hi));
  return MOREAU_SUCCESS;
}

static moreau_err read_vector(const char *name, int dim, double *v)
{
  int n = 3;
  double tmp[3] = {0, 0, 0};
  MOREAU_CALL(moreau_option_reals(name, tmp, &n));
  MOREAU_CHECK(n == dim, MOREAU_ERR_INPUT, "option %s: expected %d values, got %d", name, dim, n);
  memcpy(v, tmp, sizeof(tmp));
  return MOREAU_SUCCESS;
}

/* Options a wall of this mode never reads: giving one is a mistake (a
 * velocity for a fixed wall, say), not something to ignore. */
static moreau_err check_unread(int i, int mode)
{
  static const char *const fixed[] = {"velocity", "force", "pressure", "load_rate", "stop_travel", "mass", NULL};
  static const char *const velocity[] = {"force", "pressure", "load_rate", "mass", NULL};
  static const char *const modes[] = {"fixed", "velocity", "force"}, *const kinds[] = {"fixed", "velocity-driven", ""};
  const char *const *unread = mode == MOREAU_WALL_FIXED ? fixed : mode == MOREAU_WALL_VELOCITY ? velocity : NULL;
  for (int f = 0; unread && unread[f]; f++) {
    char name[64];
    int set;
    snprintf(name, sizeof(name), "-wall%d_%s", i, unread[f]);
    MOREAU_CALL(moreau_option_is_set(name, &set));
    MOREAU_CHECK(!set, MOREAU_ERR_INPUT, "option %s: wall %d is %s (-wall%d_mode %s) and does not read it", name, i,
                 kinds[mode], i, modes[mode]);
  }
  return MOREAU_SUCCESS;
}

static moreau_err add_wall(moreau_sim *sim, int i)
{
  const int dim = moreau_sim_dim(sim), n_materials = moreau_sim_materials(sim)->n;
  static const char *const modes[] = {"fixed", "velocity", "force", NULL};
  char name[64];
  double p[3] = {0, 0, 0}, n[3] = {0, 0, 0}, v[3] = {0, 0, 0}, force, pressure, load_rate, stop_travel, mass;
  int mode, nv = 3, set, idx;
  int64_t material;
  snprintf(name, sizeof(name), "-wall%d_normal", i);
  MOREAU_CALL(moreau_option_is_set(name, &set));
  MOREAU_CHECK(set, MOREAU_ERR_INPUT, "wall %d: -wall%d_point is given but not %s", i, i, name);
  MOREAU_CALL(read_vector(name, dim, n));
  snprintf(name, sizeof(name), "-wall%d_point", i);
  MOREAU_CALL(read_vector(name, dim, p));
  snprintf(name, sizeof(name), "-wall%d_mode", i);
  MOREAU_CALL(moreau_option_enum(name, modes, &mode));
  MOREAU_CALL(check_unread(i, mode));
  snprintf(name, sizeof(name), "-wall%d_velocity", i);
  MOREAU_CALL(moreau_option_reals(name, v, &nv));
  MOREAU_CHECK(nv == dim || nv == 3, MOREAU_ERR_INPUT, "option %s: expected %d values, got %d", name, dim, nv);
  if (dim == 2) v[2] = 0.0;
  snprintf(name, sizeof(name), "-wall%d_force", i);
  MOREAU_CALL(moreau_option_real(name, &force));
  snprintf(name, sizeof(name), "-wall%d_pressure", i);
  MOREAU_CALL(moreau_option_real(name, &pressure));
  snprintf(name, sizeof(name), "-wall%d_load_rate", i);
  MOREAU_CALL(moreau_option_real(name, &load_rate));
  snprintf(name, sizeof(name), "-wall%d_stop_travel", i);
  MOREAU_CALL(moreau_option_real(name, &stop_travel));
  snprintf(name, sizeof(name), "-wall%d_mass", i);
  MOREAU_CALL(moreau_option_real(name, &mass));
  snprintf(name, sizeof(name), "-wall%d_material", i);
  MOREAU_CALL(moreau_option_int(name, &material));
  MOREAU_CHECK(material >= 0 && material < n_materials, MOREAU_ERR_INPUT,
               "option -wall%d_material: %lld does not exist (there are %d materials)", i, (long long)material,
               n_materials);
  MOREAU_CHECK(n[0] != 0 || n[1] != 0 || n[2] != 0, MOREAU_ERR_INPUT, "option -wall%d_normal: must be a nonzero vector",
               i);
  MOREAU_CHECK(mode != MOREAU_WALL_FORCE || mass > 0, MOREAU_ERR_INPUT,
               "option -wall%d_mass: a force-driven wall needs a positive mass, got %g", i, mass);
  MOREAU_CHECK(load_rate >= 0 && isfinite(load_rate), MOREAU_ERR_INPUT,
               "option -wall%d_load_rate: must be >= 0, got %g", i, load_rate);
  MOREAU_CALL(
      moreau_walls_add(moreau_sim_walls(sim), p, n, (moreau_wall_mode)mode, v, mass, force, (int32_t)material, &idx));
  if (pressure != 0) MOREAU_CALL(moreau_walls_set_pressure(moreau_sim_walls(sim), idx, pressure));
  if (load_rate != 0) MOREAU_CALL(moreau_walls_set_load_rate(moreau_sim_walls(sim), idx, load_rate));
  MOREAU_CHECK(stop_travel >= 0 && isfinite(stop_travel), MOREAU_ERR_INPUT,
               "option -wall%d_stop_travel: must be >= 0, got %g", i, stop_travel);
  MOREAU_CALL(moreau_walls_set_stop_travel(moreau_sim_walls(sim), idx, stop_travel));
  return MOREAU_SUCCESS;
}

/* A pressure acts on the wall's face, which the other walls must bound. */
static moreau_err check_pressure_faces(moreau_sim *sim)
{
  const moreau_walls *w = moreau_sim_walls(sim);
  for (int i = 0; i < w->n; i++) {
    double size;
    if (w->pressure[i] == 0) continue;
    if (moreau_walls_face_size(w, moreau_sim_dim(sim), i, &size)) {
      moreau_error_clear();
      MOREAU_FAIL(MOREAU_ERR_INPUT,
                  "option -wall%d_pressure: the other walls do not bound wall %d on every side, so the %s the "
                  "pressure acts on is unknown (give -wall%d_force for a fixed force)",
                  i, i, moreau_sim_dim(sim) == 2 ? "length" : "area", i);
    }
    MOREAU_CHECK(size > 0, MOREAU_ERR_INPUT,
                 "option -wall%d_pressure: wall %d lies outside the other walls (its face is empty)", i, i);
  }
  return MOREAU_SUCCESS;
}

/* Walls are numbered 0, 1, ... without gaps, each with its point: any
 * -wall<j>_* option for j >= i (the first index without a point) is a gap or
 * a wall without a point, which deserves a better message than "nothing
 * reads it". */
static moreau_err check_no_wall_after(int i)
{
  static const char *const fields[] = {"point",     "normal",      "mode", "velocity", "force", "pressure",
                                       "load_rate", "stop_travel", "mass", "material", NULL};
  for (int j = i; j < i + 64; j++)
    for (int f = 0; fields[f]; f++) {
      char name[64];
      int set;
      snprintf(name, sizeof(name), "-wall%d_%s", j, fields[f]);
      MOREAU_CALL(moreau_option_is_set(name, &set));
      if (!set) continue;
      MOREAU_CHECK(j != i, MOREAU_ERR_INPUT, "wall %d: %s is given but not -wall%d_point", j, name, j);
      MOREAU_FAIL(MOREAU_ERR_INPUT,
                  "walls are numbered from 0 without gaps: %s is given but wall %d has no -wall%d_point", name, i, i);
    }
  return MOREAU_SUCCESS;
}

moreau_err moreau_app_walls_from_options(moreau_sim *sim, const double *box_default)
{
  double box[6];
  int nbox = 6, set;
  const int dim = moreau_sim_dim(sim);
  MOREAU_CALL(moreau_option_reals("-box", box, &nbox));
  MOREAU_CHECK(nbox == 0 || nbox == 2 * dim, MOREAU_ERR_INPUT, "option -box: expected %d values, got %d", 2 * dim,
               nbox);
  if (nbox) MOREAU_CALL(add_box(sim, box));
  for (int i = 0;; i++) {
    char name[64];
    snprintf(name, sizeof(name), "-wall%d_point", i);
    MOREAU_CALL(moreau_option_is_set(name, &set));
    if (!set) {
      MOREAU_CALL(check_no_wall_after(i));
      break;
    }
    MOREAU_CALL(add_wall(sim, i));
  }
  if (moreau_sim_walls(sim)->n == 0 && box_default) MOREAU_CALL(add_box(sim, box_default));
  MOREAU_CALL(check_pressure_faces(sim));
  MOREAU_CALL(moreau_walls_update_drive(moreau_sim_walls(sim), dim, moreau_sim_time(sim)));
  return MOREAU_SUCCESS;
}
