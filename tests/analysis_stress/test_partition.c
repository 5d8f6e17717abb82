/* Partition invariance: dense jittered lattices (2D and 3D in a sheared
 * Lees-Edwards box, 2D between four walls), one step, then forces set on
 * every rank from each contact's key alone, so that every rank count has
 * the same contacts with the same forces. The region stress and the
 * profiles on 1-4 ranks must equal the one-rank values (computed on rank 0
 * alone) to 1e-12 relative; the sums are order-independent, so they should
 * agree to the bit (the largest difference is printed). */
#include <math.h>

#include "parallel.h"
#include "shear_scene.h"
#include "stress_test.h"
#include "texture_test.h"

#define PART_TOL 1e-12
#define PART_BINS 8
/* Two stresses, two profiles. */
#define PART_VALUES (18 + 2 * PART_BINS * MOREAU_PROFILE_FIELDS)

typedef struct {
  int dim, cells, periodic;
  double len, lo[3], hi[3];
} part_scene;

static const part_scene scenes[3] = {{2, 24, 1, 24.0, {4.0, 3.0, 0.0}, {14.0, 17.0, 0.0}},
                                     {3, 8, 1, 8.0, {1.0, 1.0, 1.0}, {5.0, 5.0, 5.0}},
                                     {2, 24, 0, 24.0, {0.0, 0.0, 0.0}, {6.0, 24.0, 0.0}}};

/* f_n in [0.5, 1.5), tangential components in (-0.3, 0.3) f_n, from the
 * contact's key (splitmix64 of gid_a, gid_b, point), or from a body's gid. */
static void key_forces(const moreau_sim *sim, const moreau_contacts *c, moreau_lid k, const void *ctx, double f[3])
{
  /* ctx: a body's gid, for key_velocities. */
  uint64_t h = ctx ? *(const moreau_gid *)ctx * 0x94d049bb133111ebULL
                   : (uint64_t)c->gid_a[k] * 0x9e3779b97f4a7c15ULL +
                         (uint64_t)(c->gid_b[k] + 7) * 0xbf58476d1ce4e5b9ULL + (uint64_t)c->point[k];
  double u[3];
  for (int i = 0; i < 3; i++) {
    uint64_t z = (h += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    u[i] = (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
  }
  f[0] = 0.5 + u[0];
  f[1] = 0.6 * (u[1] - 0.5) * f[0];
  f[2] = moreau_sim_dim(sim) == 3 ? 0.6 * (u[2] - 0.5) * f[0] : 0.0;
}

/* Velocities and spins from the gid alone, about the Lees-Edwards flow:
 * the step's own velocities depend on the order of the solver's sweeps
 * (the sums of a body's impulses), which the partition changes in the
 * last bit. */
static void key_velocities(moreau_sim *sim, double rate, double len)
{
  moreau_bodies *b = moreau_sim_bodies(sim);
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    double u[3];
    key_forces(sim, NULL, 0, &b->gid[i], u);
    b->v[3 * i] = rate * (b->x[3 * i + 1] - 0.5 * len) + u[0] - 1.0;
    b->v[3 * i + 1] = u[1];
    b->v[3 * i + 2] = u[2];
    b->w[3 * i + 2] = u[0];
  }
}

/* Collective: the scene on comm after one step; out: the stress over the
 * box (or the walls' box) and over the scene's region, the profile across
 * y over the box and across x over the region. */
static moreau_err scene_values(MPI_Comm comm, const part_scene *sc, double *out, int64_t *contacts)
{
  moreau_sim *sim;
  const double len = sc->len;
  moreau_region all = {{0, 0, 0}, {len, len, sc->dim == 3 ? len : 0}}, sub;
  MOREAU_CALL(shear_sim_create(comm, sc->dim, len, sc->periodic, sc->periodic, 0.5, 1e-3, 0.4, 0.0, &sim));
  moreau_sim_set_alert(sim, 0.25);
  if (!sc->periodic) {
    const double p[4][3] = {{0, 0, 0}, {len, 0, 0}, {0, 0, 0}, {0, len, 0}};
    const double n[4][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}};
    for (int i = 0; i < 4; i++)
      MOREAU_CALL(moreau_walls_add(moreau_sim_walls(sim), p[i], n[i], MOREAU_WALL_FIXED, NULL, 0.0, 0.0, 0, NULL));
  }
  if (par_rank(comm) == 0) MOREAU_CALL(shear_lattice_add(sim, sc->cells, len, 0.5, sc->periodic ? 0.5 : 0.0));
  MOREAU_CALL(tt_step_and_force(sim, key_forces, NULL));
  key_velocities(sim, sc->periodic ? 0.5 : 0.0, len);
  memcpy(sub.lo, sc->lo, sizeof(sub.lo));
  memcpy(sub.hi, sc->hi, sizeof(sub.hi));
  const moreau_domain *d = moreau_sim_domain(sim);
  const moreau_bodies *b = moreau_sim_bodies(sim);
  const moreau_contacts *c = moreau_sim_contacts(sim);
  MOREAU_CALL(moreau_stress_region(comm, d, b, c, &all, &out[0]));
  MOREAU_CALL(moreau_stress_region(comm, d, b, c, &sub, &out[9]));
  MOREAU_CALL(moreau_profile_compute(comm, d, b, c, &all, 1, PART_BINS, &out[18]));
  MOREAU_CALL(moreau_profile_compute(comm, d, b, c, &sub, 0, PART_BINS, &out[18 + PART_BINS * MOREAU_PROFILE_FIELDS]));
  *contacts = 0;
  for (moreau_lid k = 0; k < c->n; k++)
    *contacts += c->b[k] < 0 ? 1000000 : 1; /* walls counted apart */
  MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, contacts, 1, MPI_INT64_T, MPI_SUM, comm));
  MOREAU_CALL(moreau_sim_destroy(&sim));
  return MOREAU_SUCCESS;
}

/* The largest relative difference of a group of n values (a tensor, or
 * one field of a profile over its bins). */
static double group_diff(const double *x, const double *ref, int n, int stride)
{
  double scale = 0.0, worst = 0.0;
  for (int k = 0; k < n; k++)
    scale = fmax(scale, fabs(ref[k * stride]));
  for (int k = 0; k < n; k++)
    worst = fmax(worst, fabs(x[k * stride] - ref[k * stride]));
  return scale > 0.0 ? worst / scale : worst;
}

static void check_scene(const part_scene *sc)
{
  double ref[PART_VALUES], got[PART_VALUES], worst = 0.0;
  int64_t ref_contacts = 0, contacts = 0, identical = 1;
  moreau_err ref_err = MOREAU_SUCCESS;
  if (par_rank(MPI_COMM_WORLD) == 0) ref_err = scene_values(MPI_COMM_SELF, sc, ref, &ref_contacts);
  par_idle_barrier(MPI_COMM_WORLD);
  PAR_TRY(MPI_COMM_WORLD, ref_err);
  MPI_Bcast(ref, PART_VALUES, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Bcast(&ref_contacts, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  PAR_TRY(MPI_COMM_WORLD, scene_values(MPI_COMM_WORLD, sc, got, &contacts));
  ck_assert_int_eq(contacts, ref_contacts);
  for (int g = 0; g < 2; g++) {
    double rel = group_diff(&got[9 * g], &ref[9 * g], 9, 1);
    ck_assert_msg(rel <= PART_TOL, "stress %d: relative difference %.3g (xx %.17g instead of %.17g)", g, rel,
                  got[9 * g], ref[9 * g]);
    worst = fmax(worst, rel);
  }
  for (int p = 0; p < 2; p++)
    for (int f = 0; f < MOREAU_PROFILE_FIELDS; f++) {
      const int at = 18 + p * PART_BINS * MOREAU_PROFILE_FIELDS + f;
      double rel = group_diff(&got[at], &ref[at], PART_BINS, MOREAU_PROFILE_FIELDS);
      ck_assert_msg(rel <= PART_TOL, "profile %d, field %s: relative difference %.3g", p, moreau_profile_field_names[f],
                    rel);
      worst = fmax(worst, rel);
    }
  for (int k = 0; k < PART_VALUES; k++)
    identical &= memcmp(&got[k], &ref[k], sizeof(double)) == 0;
  if (par_rank(MPI_COMM_WORLD) == 0)
    printf("%dD %s on %d ranks: %lld body contacts, %lld wall contacts, stress xx %.6g yy %.6g xy %.6g, "
           "largest relative difference %.3g (%s)\n",
           sc->dim, sc->periodic ? "Lees-Edwards" : "walled", par_size(MPI_COMM_WORLD), (long long)(contacts % 1000000),
           (long long)(contacts / 1000000), got[0], got[4], got[1], worst,
           identical ? "bit-identical" : "not bit-identical");
  /* The scene must exercise what it checks: contacts, with walls in the
   * walled one, and bodies in every bin. */
  ck_assert_int_gt(contacts % 1000000, 100);
  ck_assert(sc->periodic || contacts / 1000000 > 0);
  for (int k = 0; k < 2 * PART_BINS; k++)
    ck_assert_double_gt(got[18 + k * MOREAU_PROFILE_FIELDS], 0.0);
}

START_TEST(partition_2d_lees_edwards) { check_scene(&scenes[0]); }
END_TEST

START_TEST(partition_3d_lees_edwards) { check_scene(&scenes[1]); }
END_TEST

START_TEST(partition_2d_walls) { check_scene(&scenes[2]); }
END_TEST

TCase *st_partition_case(void)
{
  TCase *tc = tcase_create("partition");
  tcase_add_test(tc, partition_2d_lees_edwards);
  tcase_add_test(tc, partition_3d_lees_edwards);
  tcase_add_test(tc, partition_2d_walls);
  return tc;
}
