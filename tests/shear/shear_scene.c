#include "shear_scene.h"

#include "moreau/rng.h"
#include "scene.h"

moreau_err shear_sim_create(MPI_Comm comm, int dim, double len, int periodic, int le, double rate, double dt, double mu,
                            double e_n, moreau_sim **simp)
{
  moreau_sim *sim;
  moreau_domain *d;
  double lo[3] = {0, 0, 0}, hi[3] = {len, len, dim == 3 ? len : 0}, g[3] = {0, 0, 0};
  MOREAU_CALL(moreau_sim_create(comm, dim, simp));
  sim = *simp;
  d = moreau_sim_domain(sim);
  moreau_sim_set_dt(sim, dt);
  moreau_sim_set_gravity(sim, g);
  MOREAU_CALL(scene_set_law(sim, mu, e_n, 0.0));
  MOREAU_CALL(moreau_domain_set_box(d, lo, hi));
  for (int k = 0; k < dim && periodic; k++)
    MOREAU_CALL(moreau_domain_set_periodic(d, k, 1));
  if (le) MOREAU_CALL(moreau_domain_set_lees_edwards(d, 0, 1, rate));
  moreau_nlgs_set_tolerance(moreau_sim_nlgs(sim), 1e-6, MOREAU_NLGS_NORM_MEAN);
  moreau_nlgs_set_iterations(moreau_sim_nlgs(sim), 2, 5000);
  return MOREAU_SUCCESS;
}

moreau_err shear_lattice_add(moreau_sim *sim, int cells, double len, double scatter, double rate)
{
  const int dim = moreau_sim_dim(sim);
  const double s = len / cells;
  moreau_gid gid = 0;
  for (int k = 0; k < (dim == 3 ? cells : 1); k++)
    for (int j = 0; j < cells; j++)
      for (int i = 0; i < cells; i++, gid++) {
        moreau_rng rng;
        double x[3], v[3] = {0, 0, 0}, r;
        moreau_rng_seed(&rng, 91, (uint64_t)gid);
        r = s * (0.40 + 0.08 * moreau_rng_uniform(&rng));
        x[0] = (i + 0.5) * s + (0.5 * s - r) * (2.0 * moreau_rng_uniform(&rng) - 1.0);
        x[1] = (j + 0.5) * s + (0.5 * s - r) * (2.0 * moreau_rng_uniform(&rng) - 1.0);
        x[2] = dim == 3 ? (k + 0.5) * s + (0.5 * s - r) * (2.0 * moreau_rng_uniform(&rng) - 1.0) : 0.0;
        for (int d = 0; d < dim; d++)
          v[d] = scatter * (2.0 * moreau_rng_uniform(&rng) - 1.0);
        v[0] += rate * (x[1] - 0.5 * len);
        MOREAU_CALL(scene_add_body(sim, gid, x, v, r, 1.0, 0));
      }
  return MOREAU_SUCCESS;
}
