/* Fabric and force anisotropies against closed forms. A central body (gid
 * 0, radius 1) touched by fixed bodies of radius 0.2 (supports, so that
 * none is a rattler) whose normals are spread evenly: in 2D 8 directions
 * 45 degrees apart, in 3D the 12 vertices of an icosahedron (a spherical
 * 5-design: the averages of polynomials of degree 5 or less over them are
 * the averages over the sphere). Forces follow the harmonic forms with
 * known a_n, a_t about a direction e:
 *   2D: f_n = 1 + a_n cos 2(theta - theta_e), f_t = -a_t sin 2(theta - theta_e);
 *   3D: f_n = 1 + a_n (3 (n.e)^2 - 1), f_T = 2 a_t (n.e) (e - (n.e) n),
 * i.e. f_T = -a_t sin 2 theta along the meridian away from e. The
 * distribution of normals is uniform (a_c = 0) and the sums integrate the
 * forms exactly, so the definitions of analysis.h return a_n and a_t to
 * rounding, with principal directions e. Normals all along one axis give
 * the largest fabric anisotropy: a_c = 2 (F = diag(1, 0)) in 2D, 5/2
 * (F = diag(0, 0, 1)) in 3D. */
#include <math.h>

#include "parallel.h"
#include "texture_test.h"

#define TOL 1e-12

typedef struct {
  double a_n, a_t, e[3];
} harmonic;

static void harmonic_forces(const moreau_sim *sim, const moreau_contacts *c, moreau_lid k, const void *ctx, double f[3])
{
  const harmonic *h = ctx;
  const double *n = &c->normal[3 * k];
  double t[3], s[3];
  moreau_contact_frame(moreau_sim_dim(sim), n, t, s);
  if (moreau_sim_dim(sim) == 2) {
    double angle = atan2(n[1], n[0]) - atan2(h->e[1], h->e[0]);
    f[0] = 1.0 + h->a_n * cos(2.0 * angle);
    f[1] = -h->a_t * sin(2.0 * angle);
    f[2] = 0.0;
    return;
  }
  double ce = n[0] * h->e[0] + n[1] * h->e[1] + n[2] * h->e[2], ft[3];
  for (int d = 0; d < 3; d++)
    ft[d] = 2.0 * h->a_t * ce * (h->e[d] - ce * n[d]);
  f[0] = 1.0 + h->a_n * (3.0 * ce * ce - 1.0);
  f[1] = ft[0] * t[0] + ft[1] * t[1] + ft[2] * t[2];
  f[2] = ft[0] * s[0] + ft[1] * s[1] + ft[2] * s[2];
}

/* Collective: the star of n_dir unit directions dir (stride 3) around body
 * 0 (fixed when center_fixed: with fewer than dim contacts it would
 * otherwise be a rattler) with the harmonic forces h, and its texture. */
static moreau_err star_texture(int dim, int n_dir, const double *dir, int center_fixed, const harmonic *h,
                               moreau_texture *t)
{
  moreau_sim *sim;
  MOREAU_CALL(tt_sim_create(MPI_COMM_WORLD, dim, 0.5, &sim));
  if (par_rank(MPI_COMM_WORLD) == 0) {
    MOREAU_CALL(tt_add_body(sim, 0, 0.0, 0.0, 0.0, 1.0, center_fixed));
    for (int k = 0; k < n_dir; k++)
      MOREAU_CALL(tt_add_body(sim, k + 1, 1.2 * dir[3 * k], 1.2 * dir[3 * k + 1], 1.2 * dir[3 * k + 2], 0.2, 1));
  }
  MOREAU_CALL(tt_step_and_force(sim, harmonic_forces, h));
  MOREAU_CALL(tt_texture(sim, NULL, NULL, t));
  MOREAU_CALL(moreau_sim_destroy(&sim));
  return MOREAU_SUCCESS;
}

static void check_vector(const double *v, const double *expect, const char *what)
{
  for (int d = 0; d < 3; d++)
    ck_assert_msg(fabs(v[d] - expect[d]) <= TOL, "%s: (%.17g, %.17g, %.17g) instead of (%g, %g, %g)", what, v[0], v[1],
                  v[2], expect[0], expect[1], expect[2]);
}

static void check_harmonic(int dim, int n_dir, const double *dir, const harmonic *h)
{
  moreau_texture t;
  PAR_TRY(MPI_COMM_WORLD, star_texture(dim, n_dir, dir, 0, h, &t));
  if (par_rank(MPI_COMM_WORLD) == 0)
    printf("%dD star, a_n %g a_t %g: a_c %.3g, a_n - %g = %.3g, a_t - %g = %.3g\n", dim, h->a_n, h->a_t, t.a_c, h->a_n,
           t.a_n - h->a_n, h->a_t, t.a_t - h->a_t);
  ck_assert_int_eq(t.n_fabric, n_dir);
  ck_assert_int_eq(t.n_rattlers, 0);
  ck_assert_double_eq_tol(t.a_c, 0.0, TOL);
  ck_assert_double_eq_tol(t.a_n, h->a_n, TOL);
  ck_assert_double_eq_tol(t.a_t, h->a_t, TOL);
  ck_assert_double_eq_tol(t.mean_fn, 1.0, TOL);
  for (int d = 0; d < 3; d++)
    ck_assert_double_eq_tol(t.fabric[4 * d], d < dim ? 1.0 / dim : 0.0, TOL);
  if (h->a_n > 0.0) check_vector(t.dir_n, h->e, "direction of chi_n");
  if (h->a_t > 0.0) check_vector(t.dir_t, h->e, "direction of chi_t");
}

static void star_2d(double *dir)
{
  for (int k = 0; k < 8; k++) {
    double angle = 0.3 + 2.0 * M_PI * k / 8.0;
    dir[3 * k] = cos(angle);
    dir[3 * k + 1] = sin(angle);
    dir[3 * k + 2] = 0.0;
  }
}

static void icosahedron(double *dir)
{
  const double phi = 0.5 * (1.0 + sqrt(5.0)), len = sqrt(1.0 + phi * phi);
  int k = 0;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      double a = (i ? -1.0 : 1.0) / len, b = (j ? -phi : phi) / len;
      const double v[3][3] = {{0.0, a, b}, {a, b, 0.0}, {b, 0.0, a}};
      for (int m = 0; m < 3; m++, k++)
        for (int d = 0; d < 3; d++)
          dir[3 * k + d] = v[m][d];
    }
}

START_TEST(harmonic_2d)
{
  double dir[24];
  harmonic iso = {0.0, 0.0, {1.0, 0.0, 0.0}}, h = {0.3, 0.2, {cos(0.4), sin(0.4), 0.0}};
  star_2d(dir);
  check_harmonic(2, 8, dir, &iso);
  check_harmonic(2, 8, dir, &h);
}
END_TEST

START_TEST(harmonic_3d)
{
  double dir[36];
  harmonic iso = {0.0, 0.0, {1.0, 0.0, 0.0}}, h = {0.3, 0.2, {1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0}};
  icosahedron(dir);
  check_harmonic(3, 12, dir, &iso);
  check_harmonic(3, 12, dir, &h);
}
END_TEST

/* Normals along one axis only, uniform forces: chi_n = F, so a_n = 0. */
static void check_axis(int dim)
{
  const double axis[3] = {0.0, dim == 2 ? 1.0 : 0.0, dim == 3 ? 1.0 : 0.0};
  double dir[6];
  harmonic uniform = {0.0, 0.0, {1.0, 0.0, 0.0}};
  moreau_texture t;
  for (int d = 0; d < 3; d++) {
    dir[d] = axis[d];
    dir[3 + d] = -axis[d];
  }
  PAR_TRY(MPI_COMM_WORLD, star_texture(dim, 2, dir, 1, &uniform, &t));
  const double a_max = dim == 2 ? 2.0 : 2.5;
  ck_assert_double_eq_tol(t.a_c, a_max, TOL);
  ck_assert_double_eq_tol(t.a_n, 0.0, TOL);
  ck_assert_double_eq_tol(t.a_t, 0.0, TOL);
  check_vector(t.dir_c, axis, "direction of F");
}

START_TEST(one_axis)
{
  check_axis(2);
  check_axis(3);
}
END_TEST

TCase *tt_fabric_case(void)
{
  TCase *tc = tcase_create("fabric");
  tcase_add_test(tc, harmonic_2d);
  tcase_add_test(tc, harmonic_3d);
  tcase_add_test(tc, one_axis);
  return tc;
}
