/* Profiles (src/analysis/profile.c) of lattices placed by hand in fully
 * periodic boxes: the solid fraction of a square lattice of touching disks
 * is pi/4 in every bin (bins aligned with the rows, half rows, bins offset
 * by half a row, a first row straddling the periodic face, whose lower half
 * is the image of its upper half across the box) and pi/6 for a simple
 * cubic lattice of spheres, to 1e-12; bodies per bin; a linear velocity
 * profile given by hand gives the bin means and the kinetic stress. */
#include <math.h>

#include "parallel.h"
#include "shear_scene.h"
#include "stress_test.h"
#include "texture_test.h"

#define PROFILE_TOL 1e-12
#define CELLS 6 /* rows of the lattices; spacing 1, radius 1/2 */

enum { F_BODIES, F_SOLID, F_VX, F_VY, F_VZ, F_WX, F_WY, F_WZ, F_SXX };

/* The velocity of a body of row j (coordinate y = j + offset) and column i:
 * v_x = 0.5 + 0.25 y along the profile, plus +-0.125 alternating along
 * the row (mean zero over a row of even length); v_y = -0.3 y; spin
 * w_z = 0.1 j - 0.2 i. */
static void lattice_velocity(int i, double y, double v[3], double *w)
{
  v[0] = 0.5 + 0.25 * y + (i % 2 ? 0.125 : -0.125);
  v[1] = -0.3 * y;
  v[2] = 0.0;
  *w = 0.1 * y - 0.2 * i;
}

/* Collective: a fully periodic box [0, CELLS]^dim with the lattice of
 * touching bodies at (i + 1/2, j + offset, k + 1/2), moving as
 * lattice_velocity along y when moving. */
static moreau_sim *lattice_sim(int dim, double offset, int moving)
{
  moreau_sim *sim;
  MPI_Comm comm = MPI_COMM_WORLD;
  moreau_gid gid = 0;
  PAR_TRY(comm, shear_sim_create(comm, dim, CELLS, 1, 0, 0.0, 1e-3, 0.5, 0.0, &sim));
  moreau_sim_set_alert(sim, 0.1);
  if (par_rank(comm) == 0)
    for (int k = 0; k < (dim == 3 ? CELLS : 1); k++)
      for (int j = 0; j < CELLS; j++)
        for (int i = 0; i < CELLS; i++) {
          double x[3] = {i + 0.5, j + offset, dim == 3 ? k + 0.5 : 0.0}, v[3] = {0, 0, 0}, w = 0.0;
          if (moving) lattice_velocity(i, x[1], v, &w);
          moreau_body body;
          memset(&body, 0, sizeof(body));
          body.gid = gid++;
          memcpy(body.x, x, sizeof(x));
          memcpy(body.v, v, sizeof(v));
          body.w[2] = w;
          body.radius = 0.5;
          moreau_body_set_mass(&body, dim, 1.0);
          PAR_TRY(MPI_COMM_SELF, moreau_bodies_push_owned(moreau_sim_bodies(sim), &body));
        }
  /* Spread over the ranks; no step (the bodies touch, the profile needs no
   * contact). */
  PAR_TRY(comm, moreau_sim_setup(sim, 1e-9));
  return sim;
}

static void profile(moreau_sim *sim, const double lo[3], const double hi[3], int axis, int bins, double *v)
{
  moreau_region r = {{lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}};
  PAR_TRY(moreau_sim_comm(sim),
          moreau_profile_compute(moreau_sim_comm(sim), moreau_sim_domain(sim), moreau_sim_bodies(sim),
                                 moreau_sim_contacts(sim), &r, axis, bins, v));
}

/* Every bin's solid fraction is `want`; and, when counts is not NULL, the
 * bodies per bin. */
static void check_solid(const double *v, int bins, double want, const double *counts, const char *what)
{
  for (int k = 0; k < bins; k++) {
    const double *b = &v[k * MOREAU_PROFILE_FIELDS];
    ck_assert_msg(fabs(b[F_SOLID] - want) <= PROFILE_TOL * want, "%s: bin %d solid fraction %.17g, expected %.17g",
                  what, k, b[F_SOLID], want);
    if (counts)
      ck_assert_msg(b[F_BODIES] == counts[k], "%s: bin %d holds %g bodies, expected %g", what, k, b[F_BODIES],
                    counts[k]);
  }
}

START_TEST(profile_square_lattice)
{
  const double lo[3] = {0, 0, 0}, hi[3] = {CELLS, CELLS, 0}, phi = M_PI / 4.0;
  double v[4 * CELLS * MOREAU_PROFILE_FIELDS], counts[4 * CELLS];
  moreau_sim *sim = lattice_sim(2, 0.5, 0);
  /* Bins aligned with the rows: one row each. */
  for (int k = 0; k < CELLS; k++)
    counts[k] = CELLS;
  profile(sim, lo, hi, 1, CELLS, v);
  check_solid(v, CELLS, phi, counts, "rows, bins on the rows");
  /* Half rows: the centres lie on the edges between bins 2j and 2j + 1
   * and go to the upper one. */
  for (int k = 0; k < 2 * CELLS; k++)
    counts[k] = k % 2 ? CELLS : 0;
  profile(sim, lo, hi, 1, 2 * CELLS, v);
  check_solid(v, 2 * CELLS, phi, counts, "rows, half-row bins");
  /* Bins offset by half a row: [j + 1/2, j + 3/2] holds the upper half of
   * row j and the lower half of row j + 1. */
  {
    const double lo2[3] = {0, 0.5, 0}, hi2[3] = {CELLS, CELLS - 0.5, 0};
    profile(sim, lo2, hi2, 1, CELLS - 1, v);
    check_solid(v, CELLS - 1, phi, NULL, "rows, bins offset by half a row");
  }
  /* Across the rows (axis x): the columns, the same. */
  profile(sim, lo, hi, 0, CELLS, v);
  for (int k = 0; k < CELLS; k++)
    counts[k] = CELLS;
  check_solid(v, CELLS, phi, counts, "columns");
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}
END_TEST

START_TEST(profile_straddling_row)
{
  /* Rows at y = j: the first row straddles the face y = 0, its lower half
   * is the top of the box through the periodic image. */
  const double lo[3] = {0, 0, 0}, hi[3] = {CELLS, CELLS, 0}, phi = M_PI / 4.0;
  double v[2 * CELLS * MOREAU_PROFILE_FIELDS], total = 0.0;
  moreau_sim *sim = lattice_sim(2, 0.0, 0);
  profile(sim, lo, hi, 1, CELLS, v);
  check_solid(v, CELLS, phi, NULL, "straddling row, bins of one row");
  for (int k = 0; k < CELLS; k++)
    total += v[k * MOREAU_PROFILE_FIELDS + F_BODIES];
  ck_assert_double_eq(total, CELLS * CELLS);
  profile(sim, lo, hi, 1, 2 * CELLS, v);
  check_solid(v, 2 * CELLS, phi, NULL, "straddling row, half-row bins");
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}
END_TEST

START_TEST(profile_cubic_lattice)
{
  /* Simple cubic, layers along y at y = j (the first straddling the face),
   * along x and z at i + 1/2: pi/6 in every bin along each axis. */
  const double lo[3] = {0, 0, 0}, hi[3] = {CELLS, CELLS, CELLS}, phi = M_PI / 6.0;
  double v[2 * CELLS * MOREAU_PROFILE_FIELDS], counts[CELLS];
  moreau_sim *sim = lattice_sim(3, 0.0, 0);
  for (int k = 0; k < CELLS; k++)
    counts[k] = CELLS * CELLS;
  for (int axis = 0; axis < 3; axis++) {
    char what[64];
    snprintf(what, sizeof(what), "cubic lattice, axis %d", axis);
    profile(sim, lo, hi, axis, CELLS, v);
    check_solid(v, CELLS, phi, axis == 1 ? NULL : counts, what);
    snprintf(what, sizeof(what), "cubic lattice, axis %d, half bins", axis);
    profile(sim, lo, hi, axis, 2 * CELLS, v);
    check_solid(v, 2 * CELLS, phi, NULL, what);
  }
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}
END_TEST

START_TEST(profile_velocities)
{
  /* Rows at y = j + 1/2, one per bin: the mass-weighted mean velocity of a
   * bin is that of its row, the mean spin the row's mean spin, and the
   * kinetic stress sum m u u over the bin's volume (no mean flow here). */
  const double lo[3] = {0, 0, 0}, hi[3] = {CELLS, CELLS, 0};
  const double m = M_PI * 0.25, vol = CELLS; /* mass of a disk of radius 1/2, area of a bin */
  double v[CELLS * MOREAU_PROFILE_FIELDS];
  moreau_sim *sim = lattice_sim(2, 0.5, 1);
  profile(sim, lo, hi, 1, CELLS, v);
  for (int j = 0; j < CELLS; j++) {
    const double *b = &v[j * MOREAU_PROFILE_FIELDS];
    double y = j + 0.5, vx = 0.5 + 0.25 * y, vy = -0.3 * y, w = 0.0, want[9] = {0}, got[9];
    for (int i = 0; i < CELLS; i++) {
      double vi[3], wi;
      lattice_velocity(i, y, vi, &wi);
      w += wi / CELLS;
      for (int p = 0; p < 3; p++)
        for (int q = 0; q < 3; q++)
          want[3 * p + q] += m * vi[p] * vi[q] / vol;
    }
    ck_assert_double_eq(b[F_BODIES], CELLS);
    ck_assert_msg(fabs(b[F_VX] - vx) <= 1e-14 * fabs(vx) && fabs(b[F_VY] - vy) <= 1e-14 * fabs(vy) && b[F_VZ] == 0.0 &&
                      b[F_WX] == 0.0 && b[F_WY] == 0.0 && fabs(b[F_WZ] - w) <= 1e-14 * fabs(w),
                  "bin %d: v (%.17g, %.17g, %g) w (%g, %g, %.17g), expected (%.17g, %.17g, 0) (0, 0, %.17g)", j,
                  b[F_VX], b[F_VY], b[F_VZ], b[F_WX], b[F_WY], b[F_WZ], vx, vy, w);
    memcpy(got, &b[F_SXX], sizeof(got));
    ck_assert_msg(st_rel_diff(got, want, 9) <= 1e-14,
                  "bin %d: kinetic stress xx %.17g xy %.17g yy %.17g, expected "
                  "%.17g %.17g %.17g",
                  j, got[0], got[1], got[4], want[0], want[1], want[4]);
  }
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}
END_TEST

TCase *st_profile_case(void)
{
  TCase *tc = tcase_create("profile");
  tcase_add_test(tc, profile_square_lattice);
  tcase_add_test(tc, profile_straddling_row);
  tcase_add_test(tc, profile_cubic_lattice);
  tcase_add_test(tc, profile_velocities);
  return tc;
}
