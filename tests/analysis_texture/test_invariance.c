/* Partition invariance: dense jittered lattices (2D and 3D in a periodic
 * Lees-Edwards box, many contacts across the faces; 2D in a box of four
 * walls), one step, then forces set from each contact's key alone (some
 * exactly zero, some on the Coulomb cone), so that every rank count has the
 * same contacts with the same forces. The texture on 1-4 ranks, over
 * everything and over a region, must equal the one-rank texture (computed
 * on rank 0 alone) in every field: counts exactly, values to 1e-12
 * relative (of the largest entry for tensors and directions). */
#include <float.h>
#include <math.h>
#include <stddef.h>

#include "parallel.h"
#include "shear_scene.h"
#include "texture_test.h"

#define REL_TOL 1e-12

typedef struct {
  int dim, cells, periodic;
  double len, lo[3], hi[3];
} inv_scene;

static const inv_scene scenes[3] = {{2, 24, 1, 24.0, {4.0, 3.0, 0.0}, {14.0, 17.0, 0.0}},
                                    {3, 8, 1, 8.0, {1.0, 1.0, 1.0}, {5.0, 5.0, 5.0}},
                                    {2, 24, 0, 24.0, {0.0, 0.0, 0.0}, {6.0, 24.0, 0.0}}};

static uint64_t mix(uint64_t h)
{
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

static double unit(uint64_t h, int shift) { return (double)((h >> shift) & 0xffff) / 65536.0; }

/* One contact in three carries nothing (enough for rattlers found over
 * several rounds), one in four of the others slides. */
static void key_forces(const moreau_sim *sim, const moreau_contacts *c, moreau_lid k, const void *ctx, double f[3])
{
  const moreau_bodies *b = moreau_sim_bodies(sim);
  const moreau_walls *w = moreau_sim_walls(sim);
  uint64_t h = mix((uint64_t)c->gid_a[k] * 0x9e3779b97f4a7c15ULL ^ mix((uint64_t)c->gid_b[k]) ^ (uint64_t)c->point[k]);
  int mat_b = c->b[k] >= 0 ? b->material[c->b[k]] : w->material[-(c->b[k] + 1)];
  double mu = moreau_materials_pair(moreau_sim_materials(sim), b->material[c->a[k]], mat_b)->mu;
  (void)ctx;
  f[0] = h % 3 == 0 ? 0.0 : 0.5 + unit(h, 8);
  if ((h >> 24) % 4 == 0) {
    double angle = 2.0 * M_PI * unit(h, 32);
    f[1] = moreau_sim_dim(sim) == 2 ? (angle < M_PI ? mu : -mu) * f[0] : mu * f[0] * cos(angle);
    f[2] = moreau_sim_dim(sim) == 2 ? 0.0 : mu * f[0] * sin(angle);
  } else {
    f[1] = 0.9 * mu * f[0] * (2.0 * unit(h, 32) - 1.0);
    f[2] = moreau_sim_dim(sim) == 2 ? 0.0 : 0.3 * mu * f[0] * (2.0 * unit(h, 48) - 1.0);
  }
}

/* Collective: the scene on comm after one step, and its texture over
 * everything (t[0]) and over the scene's region (t[1]). */
static moreau_err scene_texture(MPI_Comm comm, const inv_scene *sc, moreau_texture t[2])
{
  moreau_sim *sim;
  const double len = sc->len;
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
  MOREAU_CALL(tt_texture(sim, NULL, NULL, &t[0]));
  MOREAU_CALL(tt_texture(sim, sc->lo, sc->hi, &t[1]));
  MOREAU_CALL(moreau_sim_destroy(&sim));
  return MOREAU_SUCCESS;
}

/* The double fields of moreau_texture: offset and number of entries. */
static const struct {
  const char *name;
  size_t offset;
  int n;
} fields[] = {{"z", offsetof(moreau_texture, z), 1},
              {"z_c", offsetof(moreau_texture, z_c), 1},
              {"z_nr", offsetof(moreau_texture, z_nr), 1},
              {"z_c_nr", offsetof(moreau_texture, z_c_nr), 1},
              {"rattler_fraction", offsetof(moreau_texture, rattler_fraction), 1},
              {"sliding_fraction", offsetof(moreau_texture, sliding_fraction), 1},
              {"mean_fn", offsetof(moreau_texture, mean_fn), 1},
              {"fabric", offsetof(moreau_texture, fabric), 9},
              {"chi_n", offsetof(moreau_texture, chi_n), 9},
              {"chi_t", offsetof(moreau_texture, chi_t), 9},
              {"a_c", offsetof(moreau_texture, a_c), 1},
              {"a_n", offsetof(moreau_texture, a_n), 1},
              {"a_t", offsetof(moreau_texture, a_t), 1},
              {"dir_c", offsetof(moreau_texture, dir_c), 3},
              {"dir_n", offsetof(moreau_texture, dir_n), 3},
              {"dir_t", offsetof(moreau_texture, dir_t), 3}};

/* Fails on the first field that differs; returns the largest relative
 * difference. */
static double compare(const moreau_texture *t, const moreau_texture *ref, const char *what)
{
  double worst = 0.0;
  ck_assert_msg(t->n_bodies == ref->n_bodies && t->n_rattlers == ref->n_rattlers && t->n_contacts == ref->n_contacts &&
                    t->n_sliding == ref->n_sliding && t->n_fabric == ref->n_fabric &&
                    t->rattler_rounds == ref->rattler_rounds,
                "%s: counts (%lld %lld %lld %lld %lld %d) instead of (%lld %lld %lld %lld %lld %d)", what,
                (long long)t->n_bodies, (long long)t->n_rattlers, (long long)t->n_contacts, (long long)t->n_sliding,
                (long long)t->n_fabric, t->rattler_rounds, (long long)ref->n_bodies, (long long)ref->n_rattlers,
                (long long)ref->n_contacts, (long long)ref->n_sliding, (long long)ref->n_fabric, ref->rattler_rounds);
  for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++) {
    const double *x = (const double *)((const char *)t + fields[f].offset);
    const double *r = (const double *)((const char *)ref + fields[f].offset);
    double scale = DBL_MIN;
    for (int i = 0; i < fields[f].n; i++)
      scale = fmax(scale, fabs(r[i]));
    for (int i = 0; i < fields[f].n; i++) {
      double rel = fabs(x[i] - r[i]) / scale;
      ck_assert_msg(rel <= REL_TOL, "%s: %s[%d] = %.17g instead of %.17g", what, fields[f].name, i, x[i], r[i]);
      worst = fmax(worst, rel);
    }
  }
  return worst;
}

static void check_scene(const inv_scene *sc)
{
  moreau_texture ref[2], t[2];
  moreau_err ref_err = MOREAU_SUCCESS;
  const char *kind = sc->periodic ? "periodic Lees-Edwards" : "walled";
  double worst;
  if (par_rank(MPI_COMM_WORLD) == 0) ref_err = scene_texture(MPI_COMM_SELF, sc, ref);
  par_idle_barrier(MPI_COMM_WORLD);
  PAR_TRY(MPI_COMM_WORLD, ref_err);
  MPI_Bcast(ref, (int)sizeof(ref), MPI_BYTE, 0, MPI_COMM_WORLD);
  PAR_TRY(MPI_COMM_WORLD, scene_texture(MPI_COMM_WORLD, sc, t));
  worst = fmax(compare(&t[0], &ref[0], "everything"), compare(&t[1], &ref[1], "region"));
  if (par_rank(MPI_COMM_WORLD) == 0)
    printf("%dD %s on %d ranks: %lld bodies, %lld rattlers (%d rounds), %lld contacts, %lld sliding, Z %.4f Z_nr "
           "%.4f, a_c %.4f a_n %.4f a_t %.4f; region %lld bodies; largest relative difference %.3g\n",
           sc->dim, kind, par_size(MPI_COMM_WORLD), (long long)t[0].n_bodies, (long long)t[0].n_rattlers,
           t[0].rattler_rounds, (long long)t[0].n_contacts, (long long)t[0].n_sliding, t[0].z, t[0].z_nr, t[0].a_c,
           t[0].a_n, t[0].a_t, (long long)t[1].n_bodies, worst);
  /* The scene must exercise what it checks. */
  ck_assert_int_gt(t[0].n_rattlers, 0);
  ck_assert_int_gt(t[0].rattler_rounds, 1);
  ck_assert_int_gt(t[0].n_sliding, 0);
  ck_assert_int_gt(t[1].n_bodies, 0);
  ck_assert_int_lt(t[1].n_bodies, t[0].n_bodies);
}

START_TEST(invariance_2d_periodic) { check_scene(&scenes[0]); }
END_TEST

START_TEST(invariance_3d_periodic) { check_scene(&scenes[1]); }
END_TEST

START_TEST(invariance_2d_walls) { check_scene(&scenes[2]); }
END_TEST

TCase *tt_invariance_case(void)
{
  TCase *tc = tcase_create("invariance");
  tcase_add_test(tc, invariance_2d_periodic);
  tcase_add_test(tc, invariance_3d_periodic);
  tcase_add_test(tc, invariance_2d_walls);
  return tc;
}
