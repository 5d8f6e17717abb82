/* Regular lattices in a fully periodic box, every contact carrying a unit
 * normal force: a hexagonal packing of disks has Z = Z_c = 6, no rattler,
 * solid fraction pi / (2 sqrt 3) and an isotropic fabric; a simple cubic
 * packing of spheres has Z = 6 and solid fraction pi / 6. On any rank
 * count. */
#include <math.h>

#include "parallel.h"
#include "shear_scene.h"
#include "texture_test.h"

#define TOL 1e-12

/* Touching neighbours (gap 0 up to rounding) carry f_n = 1; the others,
 * further than the alert distance allows, nothing. */
static void touching_unit_force(const moreau_sim *sim, const moreau_contacts *c, moreau_lid k, const void *ctx,
                                double f[3])
{
  (void)sim;
  (void)ctx;
  f[0] = fabs(c->gap[k]) < 1e-9 ? 1.0 : 0.0;
  f[1] = f[2] = 0.0;
}

/* rows x cols disks of radius 0.5, rows spaced sqrt(3)/2 apart, odd rows
 * shifted by half a diameter: the box (cols, rows sqrt(3)/2) closes the
 * lattice periodically (rows even). */
static moreau_err hexagonal(MPI_Comm comm, int rows, int cols, moreau_sim **sim)
{
  const double h = sqrt(3.0) / 2.0;
  moreau_domain *d;
  double lo[3] = {0, 0, 0}, hi[3] = {cols, rows * h, 0};
  MOREAU_CALL(tt_sim_create(comm, 2, 0.5, sim));
  d = moreau_sim_domain(*sim);
  MOREAU_CALL(moreau_domain_set_box(d, lo, hi));
  MOREAU_CALL(moreau_domain_set_periodic(d, 0, 1));
  MOREAU_CALL(moreau_domain_set_periodic(d, 1, 1));
  if (par_rank(comm) == 0)
    for (int i = 0; i < rows; i++)
      for (int j = 0; j < cols; j++)
        MOREAU_CALL(tt_add_body(*sim, i * cols + j, 0.5 * (i % 2) + j + 0.25, (i + 0.5) * h, 0.0, 0.5, 0));
  return MOREAU_SUCCESS;
}

/* n^3 spheres of radius 0.5 on the unit cubic lattice, box n^3. */
static moreau_err cubic(MPI_Comm comm, int n, moreau_sim **sim)
{
  moreau_domain *d;
  double lo[3] = {0, 0, 0}, hi[3] = {n, n, n};
  MOREAU_CALL(tt_sim_create(comm, 3, 0.5, sim));
  d = moreau_sim_domain(*sim);
  MOREAU_CALL(moreau_domain_set_box(d, lo, hi));
  for (int k = 0; k < 3; k++)
    MOREAU_CALL(moreau_domain_set_periodic(d, k, 1));
  if (par_rank(comm) == 0)
    for (int i = 0; i < n * n * n; i++)
      MOREAU_CALL(tt_add_body(*sim, i, i % n + 0.5, (i / n) % n + 0.5, i / (n * n) + 0.5, 0.5, 0));
  return MOREAU_SUCCESS;
}

static void check_lattice(moreau_sim *sim, double z, double fraction, double a_c)
{
  moreau_texture t;
  double lo[3], hi[3], phi;
  PAR_TRY(MPI_COMM_WORLD, tt_step_and_force(sim, touching_unit_force, NULL));
  PAR_TRY(MPI_COMM_WORLD, tt_texture(sim, NULL, NULL, &t));
  moreau_domain_get_box(moreau_sim_domain(sim), lo, hi);
  PAR_TRY(MPI_COMM_WORLD,
          moreau_solid_fraction_region(MPI_COMM_WORLD, moreau_sim_domain(sim), moreau_sim_bodies(sim), lo, hi, &phi));
  ck_assert_int_eq(t.n_rattlers, 0);
  ck_assert_msg(fabs(t.z - z) < TOL && fabs(t.z_c - z) < TOL && fabs(t.z_nr - z) < TOL,
                "Z %.15g, Z_c %.15g, expected %g", t.z, t.z_c, z);
  ck_assert_msg(fabs(phi - fraction) < TOL, "solid fraction %.15g, expected %.15g", phi, fraction);
  ck_assert_msg(fabs(t.a_c - a_c) < TOL, "a_c %.15g, expected %g", t.a_c, a_c);
  PAR_TRY(MPI_COMM_WORLD, moreau_sim_destroy(&sim));
}

START_TEST(hexagonal_z6)
{
  moreau_sim *sim;
  PAR_TRY(MPI_COMM_WORLD, hexagonal(MPI_COMM_WORLD, 8, 8, &sim));
  /* Six directions 60 degrees apart: an isotropic fabric (F = I/2). */
  check_lattice(sim, 6.0, M_PI / (2.0 * sqrt(3.0)), 0.0);
}
END_TEST

START_TEST(cubic_z6)
{
  moreau_sim *sim;
  PAR_TRY(MPI_COMM_WORLD, cubic(MPI_COMM_WORLD, 5, &sim));
  /* The three axes: F = I/3, isotropic too. */
  check_lattice(sim, 6.0, M_PI / 6.0, 0.0);
}
END_TEST

TCase *tt_lattice_case(void)
{
  TCase *tc = tcase_create("lattice");
  tcase_add_test(tc, hexagonal_z6);
  tcase_add_test(tc, cubic_z6);
  return tc;
}
