#include <math.h>
#include <stdint.h>

#include "generate_private.h"

/* Sites per axis are clamped so that their product stays an int64. */
#define MAX_SITES_PER_AXIS 4.0e18
/* The most sites per axis the radius search tries: doubling past it would
 * overflow an int64. */
#define MAX_TRIAL_SITES ((int64_t)1 << 61)

static double lattice_spacing(const moreau_gen_params *p)
{
  return 2.0 * moreau_gen_r_max(p) * (1.0 + MOREAU_GEN_LATTICE_GAP);
}

/* Sites along each axis for spacing s; stretch > 1 forgives the rounding of
 * L / s when s was itself computed as L / m. */
static void lattice_counts(int dim, const moreau_gen_params *p, double s, double stretch, int64_t count[3])
{
  for (int k = 0; k < 3; k++) {
    double c = k < dim ? floor((p->hi[k] - p->lo[k]) / s * stretch) : 1.0;
    count[k] = c > MAX_SITES_PER_AXIS ? (int64_t)MAX_SITES_PER_AXIS : (int64_t)c;
  }
}

static int64_t product(const int64_t count[3])
{
  if ((double)count[0] * (double)count[1] * (double)count[2] >= 9.0e18) return INT64_MAX;
  return count[0] * count[1] * count[2];
}

int64_t moreau_generate_lattice_capacity(int dim, const moreau_gen_params *p)
{
  int64_t count[3];
  lattice_counts(dim, p, lattice_spacing(p), 1.0, count);
  return product(count);
}

static int spacing_fits(int dim, const moreau_gen_params *p, double s)
{
  int64_t count[3];
  lattice_counts(dim, p, s, 1.0 + 1e-12, count);
  return product(count) >= p->n;
}

/* The largest spacing that fits n sites makes some axis hold exactly m sites,
 * so it is L_k / m for some axis k and integer m; on each axis, the smallest
 * such m that fits gives that axis's candidate (fitting is monotone in m).
 * An axis far longer than another may have none below MAX_TRIAL_SITES; the
 * shortest axis always has one (m^dim sites fit n for m <= 2^32). */
double moreau_gen_lattice_auto_radius(int dim, const moreau_gen_params *p)
{
  double best = 0.0, s_min, s_max;
  for (int k = 0; k < dim; k++) {
    double len = p->hi[k] - p->lo[k];
    int64_t lo = 0, hi = 1;
    int fits;
    while (!(fits = spacing_fits(dim, p, len / (double)hi)) && hi < MAX_TRIAL_SITES) {
      lo = hi;
      hi *= 2;
    }
    if (!fits) continue;
    while (hi - lo > 1) {
      int64_t mid = lo + (hi - lo) / 2;
      if (spacing_fits(dim, p, len / (double)mid))
        hi = mid;
      else
        lo = mid;
    }
    if (len / (double)hi > best) best = len / (double)hi;
  }
  /* Shrunk a little so that the plain floor in the generator finds the same
   * number of sites. */
  moreau_gen_size_range(p, &s_min, &s_max);
  return best / (2.0 * s_max * (1.0 + MOREAU_GEN_LATTICE_GAP)) * (1.0 - 1e-9);
}

moreau_err moreau_gen_lattice(const moreau_gen_params *p, moreau_bodies *b, const moreau_materials *m)
{
  int dim = b->dim, rank, size;
  double s = lattice_spacing(p);
  int64_t count[3], begin, end;
  lattice_counts(dim, p, s, 1.0, count);
  MOREAU_CHECK(p->fraction <= 0.0 || p->n <= product(count), MOREAU_ERR_INPUT,
               "-gen_fraction %g: at most %lld of the -gen_n %lld bodies fit on the lattice at that fraction; lower "
               "-gen_fraction or use -gen_type random",
               p->fraction, (long long)product(count), (long long)p->n);
  MOREAU_CHECK(p->n <= product(count), MOREAU_ERR_INPUT,
               "-gen_n %lld: at most %lld bodies fit on the lattice of -gen_box with -gen_radius %g "
               "(spacing %g); reduce -gen_n or -gen_radius, or enlarge -gen_box",
               (long long)p->n, (long long)product(count), p->radius, s);
  MOREAU_MPI_CALL(MPI_Comm_rank(b->comm, &rank));
  MOREAU_MPI_CALL(MPI_Comm_size(b->comm, &size));
  moreau_gen_block(p->n, rank, size, &begin, &end);
  MOREAU_CHECK(end - begin <= INT32_MAX - b->n_owned, MOREAU_ERR_INPUT,
               "-gen_n %lld: too many bodies per rank for 32-bit local indices; use more ranks", (long long)p->n);
  MOREAU_CALL(moreau_bodies_reserve(b, b->n_owned + (moreau_lid)(end - begin)));
  for (int64_t g = begin; g < end; g++) {
    moreau_rng rng;
    double x[3] = {0.0, 0.0, 0.0}, r;
    int64_t rest = g;
    moreau_rng_seed(&rng, p->seed, (uint64_t)g);
    r = moreau_gen_draw_radius(p, &rng);
    /* x fastest, the vertical axis last: the bottom layers fill first. */
    for (int k = 0; k < dim; k++) {
      int64_t site = rest % count[k];
      double free_space = 0.5 * s - r;
      rest /= count[k];
      x[k] = p->lo[k] + ((double)site + 0.5) * s + p->jitter * free_space * (2.0 * moreau_rng_uniform(&rng) - 1.0);
    }
    MOREAU_CALL(moreau_gen_push(b, p, m, g, x, r));
  }
  return MOREAU_SUCCESS;
}
