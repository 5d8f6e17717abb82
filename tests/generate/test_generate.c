/* Body generators: geometry of the result (count, ids, no overlap, inside the
 * box, radius range, masses), bitwise independence of the number of ranks,
 * seed dependence, the size distributions (uniform, bidisperse, file) and the
 * solid fraction of the random packing, input errors, and the options. Every check is decided on
 * rank 0 and broadcast, so that all ranks fail together instead of hanging. */
#include <check.h>
#include <math.h>
#include <petscsys.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "moreau/generate.h"

#define DENSITY 2.5
#define PROBLEM_LEN 512

static const moreau_option_spec app_options[] = {{"-seed", "<int>", "1", "random seed"}, {NULL, NULL, NULL, NULL}};

static moreau_materials *materials;
static int rank, nranks;

static moreau_gen_params params(moreau_gen_type type, int dim, int64_t n)
{
  moreau_gen_params p;
  memset(&p, 0, sizeof(p));
  p.type = type;
  p.n = n;
  p.hi[0] = 1.0;
  p.hi[1] = dim == 2 ? 2.0 : 1.0;
  p.hi[2] = dim == 3 ? 2.0 : 0.0;
  p.polydispersity = 0.3;
  p.jitter = 0.5;
  p.seed = 7;
  ck_assert_int_eq(moreau_generate_auto_radius(dim, &p, &p.radius), MOREAU_SUCCESS);
  return p;
}

/* Every rank ends with the same verdict: rank 0's. */
static void assert_no_problem(char *problem)
{
  (void)MPI_Bcast(problem, PROBLEM_LEN, MPI_CHAR, 0, MPI_COMM_WORLD);
  ck_assert_msg(problem[0] == '\0', "%s", problem);
}

static moreau_bodies *generate(const moreau_gen_params *p, int dim, MPI_Comm comm)
{
  moreau_bodies *b = NULL;
  ck_assert_int_eq(moreau_bodies_create(comm, dim, &b), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_generate(p, b, materials), MOREAU_SUCCESS);
  return b;
}

static void destroy(moreau_bodies **b) { ck_assert_int_eq(moreau_bodies_destroy(b), MOREAU_SUCCESS); }

/* Collective over b->comm. On its rank 0, returns all bodies at index gid,
 * or NULL with a problem when the ids are not 0..n-1 once each. The bodies
 * travel as raw bytes (each zeroed before it is filled, so that padding is
 * deterministic and the sets can be compared with memcmp). */
static moreau_body *gather_by_gid(const moreau_bodies *b, int64_t n, char *problem)
{
  int me, size, mine = b->n_owned, *counts = NULL, *displs = NULL, total = 0;
  const int body_bytes = (int)sizeof(moreau_body);
  moreau_body *local, *all = NULL, *sorted = NULL;
  char *seen;
  (void)MPI_Comm_rank(b->comm, &me);
  (void)MPI_Comm_size(b->comm, &size);
  local = malloc(((size_t)mine + 1) * sizeof(moreau_body));
  for (int i = 0; i < mine; i++) {
    memset(&local[i], 0, sizeof(moreau_body));
    moreau_bodies_get(b, i, &local[i]);
  }
  mine *= body_bytes;
  if (me == 0) {
    counts = malloc((size_t)size * sizeof(int));
    displs = malloc((size_t)size * sizeof(int));
  }
  (void)MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, b->comm);
  if (me == 0) {
    for (int r = 0; r < size; r++) {
      displs[r] = total;
      total += counts[r];
    }
    all = malloc((size_t)total + sizeof(moreau_body));
  }
  (void)MPI_Gatherv(local, mine, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, b->comm);
  free(local);
  if (me != 0) return NULL;
  free(counts);
  free(displs);
  if (total != n * body_bytes) {
    snprintf(problem, PROBLEM_LEN, "%d bodies generated, expected %lld", total / body_bytes, (long long)n);
    free(all);
    return NULL;
  }
  sorted = malloc((size_t)total + sizeof(moreau_body));
  seen = calloc((size_t)n, 1);
  for (int64_t i = 0; i < n && !problem[0]; i++) {
    const moreau_body *body = &all[i];
    if (body->gid < 0 || body->gid >= n || seen[body->gid])
      snprintf(problem, PROBLEM_LEN, "gid %lld out of range or repeated", (long long)body->gid);
    else {
      seen[body->gid] = 1;
      memcpy(&sorted[body->gid], body, sizeof(moreau_body));
    }
  }
  free(seen);
  free(all);
  if (problem[0]) {
    free(sorted);
    return NULL;
  }
  return sorted;
}

/* The geometric and physical properties every generated set must have. */
/* Whether r is a radius p's distribution can draw: within the uniform range,
 * one of the two bidisperse radii, or a radius of the table (relative 1e-12). */
static int radius_allowed(const moreau_gen_params *p, double r)
{
  double small;
  switch (p->size_dist) {
  case MOREAU_GEN_SIZE_BIDISPERSE:
    small = p->radius / (1.0 - p->size_fraction + p->size_fraction * p->size_ratio);
    return fabs(r - small) <= 1e-12 * r || fabs(r - p->size_ratio * small) <= 1e-12 * r;
  case MOREAU_GEN_SIZE_FILE:
    for (int64_t i = 0; i < p->size_count; i++)
      if (fabs(r - p->radius * p->size_radius[i]) <= 1e-12 * r) return 1;
    return 0;
  default:
    return r >= p->radius * (1.0 - p->polydispersity) && r <= p->radius * (1.0 + p->polydispersity);
  }
}

static void verify(const moreau_gen_params *p, int dim, const moreau_body *bodies, char *problem)
{
  double min_r = INFINITY, max_r = 0.0, scale = 0.0;
  for (int k = 0; k < dim; k++)
    scale = fmax(scale, fmax(fabs(p->lo[k]), fabs(p->hi[k])));
  for (int64_t i = 0; i < p->n && !problem[0]; i++) {
    const moreau_body a = bodies[i];
    double measure, mass;
    min_r = fmin(min_r, a.radius);
    max_r = fmax(max_r, a.radius);
    if (!radius_allowed(p, a.radius))
      snprintf(problem, PROBLEM_LEN, "body %lld: radius %.17g is not one the distribution draws", (long long)i,
               a.radius);
    /* Containment up to the rounding of coordinates of this magnitude. */
    for (int k = 0; k < dim; k++)
      if (a.x[k] - a.radius < p->lo[k] - 1e-14 * scale || a.x[k] + a.radius > p->hi[k] + 1e-14 * scale)
        snprintf(problem, PROBLEM_LEN, "body %lld sticks out of the box along axis %d (x %.17g, r %.17g)", (long long)i,
                 k, a.x[k], a.radius);
    if (dim == 2 && a.x[2] != 0.0) snprintf(problem, PROBLEM_LEN, "body %lld: z = %g in 2D", (long long)i, a.x[2]);
    for (int k = 0; k < 3; k++)
      if (a.v[k] != 0.0 || a.w[k] != 0.0) snprintf(problem, PROBLEM_LEN, "body %lld is not at rest", (long long)i);
    if (a.material != p->material || a.fixed != 0 || a.q[0] != 1.0)
      snprintf(problem, PROBLEM_LEN, "body %lld: material %d fixed %d q0 %g", (long long)i, a.material, a.fixed,
               a.q[0]);
    measure = dim == 2 ? M_PI * a.radius * a.radius : 4.0 / 3.0 * M_PI * a.radius * a.radius * a.radius;
    mass = DENSITY * measure;
    if (fabs(a.inv_mass * mass - 1.0) > 1e-12) snprintf(problem, PROBLEM_LEN, "body %lld: wrong mass", (long long)i);
    for (int64_t j = i + 1; j < p->n; j++) {
      const double *xb = bodies[j].x;
      double d2 = 0.0, sum = a.radius + bodies[j].radius;
      for (int k = 0; k < 3; k++)
        d2 += (a.x[k] - xb[k]) * (a.x[k] - xb[k]);
      if (d2 < sum * sum) {
        snprintf(problem, PROBLEM_LEN, "bodies %lld and %lld overlap by %g", (long long)i, (long long)j,
                 sum - sqrt(d2));
        break;
      }
    }
  }
  if (!problem[0] && p->size_dist == MOREAU_GEN_SIZE_UNIFORM && p->polydispersity > 0.0 && p->n >= 100 &&
      (min_r > p->radius * (1.0 - 0.5 * p->polydispersity) || max_r < p->radius * (1.0 + 0.5 * p->polydispersity)))
    snprintf(problem, PROBLEM_LEN, "radii span only [%g, %g] for mean %g, p %g", min_r, max_r, p->radius,
             p->polydispersity);
}

/* Vertical coordinates: the lattice fills the bottom first; random placement
 * spreads over the whole height. */
static void verify_layout(const moreau_gen_params *p, int dim, const moreau_body *bodies, char *problem)
{
  int up = dim - 1;
  double low_half_top = -INFINITY, high_quarter_bottom = INFINITY, mean = 0.0;
  for (int64_t i = 0; i < p->n; i++) {
    double y = bodies[i].x[up];
    mean += y / (double)p->n;
    if (i < p->n / 2) low_half_top = fmax(low_half_top, y);
    if (i >= 3 * p->n / 4) high_quarter_bottom = fmin(high_quarter_bottom, y);
  }
  if (p->type == MOREAU_GEN_LATTICE && low_half_top >= high_quarter_bottom)
    snprintf(problem, PROBLEM_LEN, "lattice does not fill bottom-up: first half reaches %g, last quarter starts at %g",
             low_half_top, high_quarter_bottom);
  if (p->type == MOREAU_GEN_RANDOM && p->n >= 100 &&
      fabs(mean - 0.5 * (p->lo[up] + p->hi[up])) > 0.1 * (p->hi[up] - p->lo[up]))
    snprintf(problem, PROBLEM_LEN, "random bodies are not spread over the height: mean %g", mean);
}

/* Generates on all ranks, checks the set, and compares it bitwise with the
 * set rank 0 generates alone. Returns the bodies by gid on rank 0 (the caller
 * frees them), NULL elsewhere. */
static moreau_body *checked_bodies(const moreau_gen_params *p, int dim)
{
  char problem[PROBLEM_LEN] = "";
  moreau_bodies *b = generate(p, dim, MPI_COMM_WORLD);
  int local_all = b->n_owned == p->n, any_all;
  moreau_body *all = gather_by_gid(b, p->n, problem);
  (void)MPI_Allreduce(&local_all, &any_all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && !problem[0]) {
    moreau_bodies *alone = generate(p, dim, MPI_COMM_SELF);
    moreau_body *ref = gather_by_gid(alone, p->n, problem);
    if (!problem[0] && memcmp(ref, all, (size_t)p->n * sizeof(moreau_body)))
      snprintf(problem, PROBLEM_LEN, "%d ranks do not give the bodies one rank gives", nranks);
    if (!problem[0]) verify(p, dim, all, problem);
    if (!problem[0]) verify_layout(p, dim, all, problem);
    /* With enough bodies for several tiles, the work must be shared. */
    if (!problem[0] && nranks > 1 && p->n >= 100 && any_all)
      snprintf(problem, PROBLEM_LEN, "one rank holds all the bodies");
    free(ref);
    destroy(&alone);
  }
  destroy(&b);
  assert_no_problem(problem);
  return all;
}

static void check_generator(const moreau_gen_params *p, int dim) { free(checked_bodies(p, dim)); }

START_TEST(lattice_2d) { check_generator((moreau_gen_params[]){params(MOREAU_GEN_LATTICE, 2, 2000)}, 2); }
END_TEST

START_TEST(lattice_3d) { check_generator((moreau_gen_params[]){params(MOREAU_GEN_LATTICE, 3, 1500)}, 3); }
END_TEST

START_TEST(lattice_full_jitter_monodisperse)
{
  moreau_gen_params p = params(MOREAU_GEN_LATTICE, 2, 700);
  p.polydispersity = 0.0;
  p.jitter = 1.0;
  ck_assert_int_eq(moreau_generate_auto_radius(2, &p, &p.radius), MOREAU_SUCCESS);
  check_generator(&p, 2);
}
END_TEST

START_TEST(lattice_offset_box)
{
  moreau_gen_params p = params(MOREAU_GEN_LATTICE, 3, 300);
  double lo[3] = {-3.0, 10.0, 0.5}, hi[3] = {-2.0, 10.5, 2.0};
  memcpy(p.lo, lo, sizeof(lo));
  memcpy(p.hi, hi, sizeof(hi));
  p.radius = 0.04;
  check_generator(&p, 3);
}
END_TEST

START_TEST(random_2d) { check_generator((moreau_gen_params[]){params(MOREAU_GEN_RANDOM, 2, 2000)}, 2); }
END_TEST

START_TEST(random_3d)
{
  /* Tall enough for several tiles. */
  moreau_gen_params p = params(MOREAU_GEN_RANDOM, 3, 6000);
  p.hi[2] = 6.0;
  ck_assert_int_eq(moreau_generate_auto_radius(3, &p, &p.radius), MOREAU_SUCCESS);
  check_generator(&p, 3);
}
END_TEST

START_TEST(random_few_in_flat_box)
{
  moreau_gen_params p = params(MOREAU_GEN_RANDOM, 3, 5);
  p.hi[2] = 0.3;
  ck_assert_int_eq(moreau_generate_auto_radius(3, &p, &p.radius), MOREAU_SUCCESS);
  check_generator(&p, 3);
}
END_TEST

/* The automatic lattice radius is the largest that fits: a hair more and the
 * lattice no longer holds n. */
START_TEST(lattice_auto_radius_is_largest)
{
  for (int dim = 2; dim <= 3; dim++) {
    moreau_gen_params p = params(MOREAU_GEN_LATTICE, dim, dim == 2 ? 2000 : 1500);
    moreau_bodies *b = NULL;
    ck_assert_int_ge(moreau_generate_lattice_capacity(dim, &p), p.n);
    p.radius *= 1.000001;
    ck_assert_int_lt(moreau_generate_lattice_capacity(dim, &p), p.n);
    ck_assert_int_eq(moreau_bodies_create(MPI_COMM_WORLD, dim, &b), MOREAU_SUCCESS);
    ck_assert_int_eq(moreau_generate(&p, b, materials), MOREAU_ERR_INPUT);
    ck_assert_ptr_nonnull(strstr(moreau_error_message(), "at most"));
    ck_assert_int_eq(b->n_owned, 0);
    moreau_error_clear();
    destroy(&b);
  }
}
END_TEST

/* A box far longer than it is thin: the long axis has no spacing below 2^61
 * sites that fits n (its search once doubled an int64 past overflow); the
 * short one sets it, and it is still the largest. */
START_TEST(lattice_auto_radius_thin_box)
{
  for (int dim = 2; dim <= 3; dim++) {
    moreau_gen_params p = params(MOREAU_GEN_LATTICE, dim, 50);
    moreau_bodies *b = NULL;
    p.hi[0] = 1e30;
    ck_assert_int_eq(moreau_generate_auto_radius(dim, &p, &p.radius), MOREAU_SUCCESS);
    ck_assert(p.radius > 0.2 && p.radius < 1.0);
    ck_assert_int_ge(moreau_generate_lattice_capacity(dim, &p), p.n);
    ck_assert_int_eq(moreau_bodies_create(MPI_COMM_WORLD, dim, &b), MOREAU_SUCCESS);
    ck_assert_int_eq(moreau_generate(&p, b, materials), MOREAU_SUCCESS);
    destroy(&b);
    p.radius *= 1.000001;
    ck_assert_int_lt(moreau_generate_lattice_capacity(dim, &p), p.n);
  }
}
END_TEST

START_TEST(random_auto_radius_fill)
{
  for (int dim = 2; dim <= 3; dim++) {
    moreau_gen_params p = params(MOREAU_GEN_RANDOM, dim, 1000);
    double fill = (double)p.n *
                  (dim == 2 ? M_PI * p.radius * p.radius * (1.0 + p.polydispersity * p.polydispersity / 3.0)
                            : 4.0 / 3.0 * M_PI * pow(p.radius, 3.0) * (1.0 + p.polydispersity * p.polydispersity)) /
                  2.0;
    ck_assert_double_eq_tol(fill, dim == 2 ? 0.35 : 0.25, 1e-9);
  }
}
END_TEST

START_TEST(seed_changes_positions)
{
  for (int type = 0; type < 2; type++) {
    moreau_gen_params p = params(type ? MOREAU_GEN_RANDOM : MOREAU_GEN_LATTICE, 2, 800);
    char problem[PROBLEM_LEN] = "";
    moreau_bodies *a = generate(&p, 2, MPI_COMM_WORLD), *b;
    moreau_body *ra = gather_by_gid(a, p.n, problem), *rb;
    p.seed = 8;
    b = generate(&p, 2, MPI_COMM_WORLD);
    rb = gather_by_gid(b, p.n, problem);
    if (rank == 0 && !problem[0]) {
      int64_t same = 0;
      for (int64_t i = 0; i < p.n; i++)
        same += !memcmp(ra[i].x, rb[i].x, 3 * sizeof(double));
      if (same > 0) snprintf(problem, PROBLEM_LEN, "%lld bodies did not move with a new seed", (long long)same);
    }
    free(ra);
    free(rb);
    destroy(&a);
    destroy(&b);
    assert_no_problem(problem);
  }
}
END_TEST

#define PATH_LEN 64

/* Rank 0 writes text to a fresh file whose name every rank gets in path. */
static void write_size_file(const char *text, char path[PATH_LEN])
{
  if (rank == 0) {
    int fd;
    FILE *f;
    snprintf(path, PATH_LEN, "/tmp/moreau_gen_sizes_XXXXXX");
    fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
  }
  (void)MPI_Bcast(path, PATH_LEN, MPI_CHAR, 0, MPI_COMM_WORLD);
}

static void remove_size_file(const char *path)
{
  (void)MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) remove(path);
}

static double solid_fraction(const moreau_gen_params *p, int dim, const moreau_body *bodies)
{
  double solid = 0.0, box = 1.0;
  for (int64_t i = 0; i < p->n; i++)
    solid += dim == 2 ? M_PI * pow(bodies[i].radius, 2.0) : 4.0 / 3.0 * M_PI * pow(bodies[i].radius, 3.0);
  for (int k = 0; k < dim; k++)
    box *= p->hi[k] - p->lo[k];
  return solid / box;
}

static double mean_radius(const moreau_gen_params *p, const moreau_body *bodies)
{
  double sum = 0.0;
  for (int64_t i = 0; i < p->n; i++)
    sum += bodies[i].radius;
  return sum / (double)p->n;
}

/* n = 10^4 bodies of ratio 1.4, 30% large: the number of large bodies is
 * binomial (within 3 sigma), the two radii are exactly 1.4 apart, and the
 * number-mean radius is -gen_radius (within 4 standard errors). */
START_TEST(bidisperse_number_fraction)
{
  for (int type = 0; type < 2; type++) {
    moreau_gen_params p = params(type ? MOREAU_GEN_RANDOM : MOREAU_GEN_LATTICE, 2, 10000);
    char problem[PROBLEM_LEN] = "";
    moreau_body *bodies;
    p.size_dist = MOREAU_GEN_SIZE_BIDISPERSE;
    p.size_ratio = 1.4;
    p.size_fraction = 0.3;
    ck_assert_int_eq(moreau_generate_auto_radius(2, &p, &p.radius), MOREAU_SUCCESS);
    bodies = checked_bodies(&p, 2);
    if (rank == 0) {
      double min_r = INFINITY, max_r = 0.0, f = p.size_fraction, n = (double)p.n, small, sd;
      int64_t large = 0;
      for (int64_t i = 0; i < p.n; i++) {
        min_r = fmin(min_r, bodies[i].radius);
        max_r = fmax(max_r, bodies[i].radius);
      }
      for (int64_t i = 0; i < p.n; i++)
        large += bodies[i].radius == max_r;
      small = p.radius / (1.0 - f + f * p.size_ratio);
      sd = (p.size_ratio - 1.0) * small * sqrt(f * (1.0 - f) / n);
      if (fabs((double)large - n * f) > 3.0 * sqrt(n * f * (1.0 - f)))
        snprintf(problem, PROBLEM_LEN, "%lld large bodies of %lld, expected %g +- %g", (long long)large, (long long)p.n,
                 n * f, 3.0 * sqrt(n * f * (1.0 - f)));
      else if (fabs(max_r / min_r - p.size_ratio) > 1e-14 * p.size_ratio)
        snprintf(problem, PROBLEM_LEN, "ratio %.17g, expected %g", max_r / min_r, p.size_ratio);
      else if (fabs(mean_radius(&p, bodies) - p.radius) > 4.0 * sd)
        snprintf(problem, PROBLEM_LEN, "mean radius %g, expected %g +- %g", mean_radius(&p, bodies), p.radius,
                 4.0 * sd);
    }
    free(bodies);
    assert_no_problem(problem);
  }
}
END_TEST

/* The counts of each radius of a size file against its probabilities:
 * chi-square below the 0.1% quantile for count - 1 degrees of freedom. */
static void check_size_counts(const moreau_gen_params *p, const moreau_body *bodies, const double *radius,
                              const double *weight, int count, char *problem)
{
  static const double chi2_999[] = {10.83, 13.82, 16.27, 18.47};
  double total = 0.0, chi2 = 0.0, mean = 0.0;
  int64_t seen[8] = {0};
  for (int i = 0; i < count; i++) {
    total += weight[i];
    mean += weight[i] * radius[i];
  }
  mean /= total;
  for (int64_t b = 0; b < p->n; b++) {
    int which = -1;
    for (int i = 0; i < count; i++)
      if (fabs(bodies[b].radius - p->radius * radius[i] / mean) <= 1e-12 * bodies[b].radius) which = i;
    if (which < 0) {
      snprintf(problem, PROBLEM_LEN, "body %lld: radius %g is not in the file", (long long)b, bodies[b].radius);
      return;
    }
    seen[which]++;
  }
  for (int i = 0; i < count; i++) {
    double expected = (double)p->n * weight[i] / total;
    chi2 += ((double)seen[i] - expected) * ((double)seen[i] - expected) / expected;
  }
  if (chi2 > chi2_999[count - 2])
    snprintf(problem, PROBLEM_LEN, "chi-square %g over %d sizes exceeds %g", chi2, count, chi2_999[count - 2]);
}

START_TEST(file_distribution)
{
  static const struct {
    const char *text;
    int count;
    double radius[4], weight[4];
  } files[] = {{"# radius, weight\n1.0, 1\n1.5,2\n\n2.0 5  # the large ones\n", 3, {1.0, 1.5, 2.0}, {1, 2, 5}},
               {"0.001\n0.002\n0.002\n", 2, {0.001, 0.002}, {1, 2}}};
  for (int type = 0; type < 2; type++)
    for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
      moreau_gen_params p = params(type ? MOREAU_GEN_RANDOM : MOREAU_GEN_LATTICE, 2, 10000);
      char path[PATH_LEN], problem[PROBLEM_LEN] = "";
      moreau_body *bodies;
      write_size_file(files[f].text, path);
      ck_assert_int_eq(moreau_generate_read_size_file(path, &p), MOREAU_SUCCESS);
      remove_size_file(path);
      ck_assert_int_eq(p.size_dist, MOREAU_GEN_SIZE_FILE);
      ck_assert_int_eq(moreau_generate_auto_radius(2, &p, &p.radius), MOREAU_SUCCESS);
      bodies = checked_bodies(&p, 2);
      if (rank == 0) check_size_counts(&p, bodies, files[f].radius, files[f].weight, files[f].count, problem);
      free(bodies);
      moreau_generate_params_free(&p);
      assert_no_problem(problem);
    }
}
END_TEST

/* A file of one radius: every body has exactly -gen_radius. */
START_TEST(file_single_radius)
{
  moreau_gen_params p = params(MOREAU_GEN_RANDOM, 2, 2000);
  char path[PATH_LEN], problem[PROBLEM_LEN] = "";
  moreau_body *bodies;
  write_size_file("0.37\n", path);
  ck_assert_int_eq(moreau_generate_read_size_file(path, &p), MOREAU_SUCCESS);
  remove_size_file(path);
  p.radius = 0.01;
  bodies = checked_bodies(&p, 2);
  for (int64_t i = 0; rank == 0 && i < p.n && !problem[0]; i++)
    if (bodies[i].radius != p.radius)
      snprintf(problem, PROBLEM_LEN, "body %lld: radius %.17g, expected %g", (long long)i, bodies[i].radius, p.radius);
  free(bodies);
  moreau_generate_params_free(&p);
  moreau_generate_params_free(&p);
  assert_no_problem(problem);
}
END_TEST

/* Uniform radii fill their whole range [r (1 - p), r (1 + p)] (verify checks
 * the bounds) with mean r. */
START_TEST(uniform_bounds)
{
  moreau_gen_params p = params(MOREAU_GEN_RANDOM, 2, 10000);
  char problem[PROBLEM_LEN] = "";
  moreau_body *bodies;
  p.polydispersity = 0.5;
  ck_assert_int_eq(moreau_generate_auto_radius(2, &p, &p.radius), MOREAU_SUCCESS);
  bodies = checked_bodies(&p, 2);
  if (rank == 0) {
    double min_r = INFINITY, max_r = 0.0, sd = p.radius * p.polydispersity / sqrt(3.0 * (double)p.n);
    for (int64_t i = 0; i < p.n; i++) {
      min_r = fmin(min_r, bodies[i].radius);
      max_r = fmax(max_r, bodies[i].radius);
    }
    if (min_r > p.radius * (1.0 - 0.99 * p.polydispersity) || max_r < p.radius * (1.0 + 0.99 * p.polydispersity))
      snprintf(problem, PROBLEM_LEN, "radii span only [%g, %g] for r %g, p %g", min_r, max_r, p.radius,
               p.polydispersity);
    else if (fabs(mean_radius(&p, bodies) - p.radius) > 4.0 * sd)
      snprintf(problem, PROBLEM_LEN, "mean radius %g, expected %g", mean_radius(&p, bodies), p.radius);
  }
  free(bodies);
  assert_no_problem(problem);
}
END_TEST

/* Loose random packings for a shear cell: bidisperse and uniform, at the
 * requested solid fraction (within statistical bounds: the radius is set from
 * the distribution's mean), with no overlap and every body inside the box
 * (checked by verify, brute force over all pairs). The 3D boxes are thin and
 * tall so that they hold several tiles (each about 40 r_max). */
START_TEST(random_fraction_reached)
{
  static const struct {
    int dim;
    moreau_gen_size_dist dist;
    double ratio, fraction;
  } cases[] = {{2, MOREAU_GEN_SIZE_BIDISPERSE, 2.0, 0.5}, {2, MOREAU_GEN_SIZE_BIDISPERSE, 1.4, 0.6},
               {2, MOREAU_GEN_SIZE_UNIFORM, 0.0, 0.5},    {3, MOREAU_GEN_SIZE_BIDISPERSE, 2.0, 0.4},
               {3, MOREAU_GEN_SIZE_BIDISPERSE, 1.4, 0.4}, {3, MOREAU_GEN_SIZE_UNIFORM, 0.0, 0.45}};
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    moreau_gen_params p = params(MOREAU_GEN_RANDOM, cases[c].dim, cases[c].dim == 2 ? 4000 : 8000);
    char problem[PROBLEM_LEN] = "";
    moreau_body *bodies;
    if (cases[c].dim == 3) {
      p.hi[0] = p.hi[1] = 0.4;
      p.hi[2] = 8.0;
    }
    p.size_dist = cases[c].dist;
    p.size_ratio = cases[c].ratio;
    p.size_fraction = 0.5;
    p.fraction = cases[c].fraction;
    ck_assert_int_eq(moreau_generate_auto_radius(cases[c].dim, &p, &p.radius), MOREAU_SUCCESS);
    bodies = checked_bodies(&p, cases[c].dim);
    if (rank == 0) {
      double phi = solid_fraction(&p, cases[c].dim, bodies);
      if (nranks == 1)
        printf("random %dD %s ratio %g: solid fraction %.4f for -gen_fraction %g, no overlap\n", cases[c].dim,
               p.size_dist == MOREAU_GEN_SIZE_UNIFORM ? "uniform p 0.3" : "bidisperse", p.size_ratio, phi, p.fraction);
      if (fabs(phi - p.fraction) > 0.04 * p.fraction)
        snprintf(problem, PROBLEM_LEN, "%dD: solid fraction %g, requested %g", cases[c].dim, phi, p.fraction);
    }
    free(bodies);
    assert_no_problem(problem);
  }
}
END_TEST

/* Every rank returns MOREAU_ERR_INPUT, the rank that found it says why, and
 * no body is left behind. */
static void expect_input_error(const moreau_gen_params *p, int dim, const char *words)
{
  moreau_bodies *b = NULL;
  int wrong = 0, any_wrong;
  ck_assert_int_eq(moreau_bodies_create(MPI_COMM_WORLD, dim, &b), MOREAU_SUCCESS);
  moreau_err err = moreau_generate(p, b, materials);
  if (err != MOREAU_ERR_INPUT || b->n_owned != 0) wrong = 1;
  if (moreau_error_is_local() && !strstr(moreau_error_message(), words)) wrong = 2;
  (void)MPI_Allreduce(&wrong, &any_wrong, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  ck_assert_msg(any_wrong == 0, "expected an input error mentioning '%s', got code %d: %s", words, err,
                moreau_error_message());
  moreau_error_clear();
  destroy(&b);
}

START_TEST(input_errors)
{
  for (int dim = 2; dim <= 3; dim++)
    for (int type = 0; type < 2; type++) {
      moreau_gen_params good = params(type ? MOREAU_GEN_RANDOM : MOREAU_GEN_LATTICE, dim, 200), p;
      p = good, p.n = 0, expect_input_error(&p, dim, "-gen_n");
      p = good, p.n = -3, expect_input_error(&p, dim, "-gen_n");
      p = good, p.hi[dim - 1] = p.lo[dim - 1], expect_input_error(&p, dim, "-gen_box");
      p = good, p.hi[0] = -1.0, expect_input_error(&p, dim, "-gen_box");
      p = good, p.lo[0] = -1e308, p.hi[0] = 1e308, expect_input_error(&p, dim, "-gen_box: x extent");
      p = good, p.polydispersity = 1.0, expect_input_error(&p, dim, "-gen_polydispersity");
      p = good, p.polydispersity = -0.1, expect_input_error(&p, dim, "-gen_polydispersity");
      p = good, p.jitter = 1.5, expect_input_error(&p, dim, "-gen_jitter");
      p = good, p.jitter = -0.1, expect_input_error(&p, dim, "-gen_jitter");
      p = good, p.radius = -0.01, expect_input_error(&p, dim, "-gen_radius");
      p = good, p.radius = 0.0, expect_input_error(&p, dim, "-gen_radius");
      p = good, p.radius = 0.6, expect_input_error(&p, dim, "do not fit");
      p = good, p.material = 5, expect_input_error(&p, dim, "-gen_material");
      p = good, p.n = 1000000, expect_input_error(&p, dim, "-gen_n");
      p = good, p.fraction = 1.0, expect_input_error(&p, dim, "-gen_fraction");
      p = good, p.fraction = -0.1, expect_input_error(&p, dim, "-gen_fraction");
      p = good, p.size_dist = MOREAU_GEN_SIZE_BIDISPERSE, p.size_fraction = 0.5;
      p.size_ratio = 0.9, expect_input_error(&p, dim, "-gen_size_ratio");
      p.size_ratio = 2e3, expect_input_error(&p, dim, "-gen_size_ratio");
      p.size_ratio = 1.4, p.size_fraction = -0.1, expect_input_error(&p, dim, "-gen_size_fraction");
      p.size_fraction = 1.1, expect_input_error(&p, dim, "-gen_size_fraction");
      p = good, p.size_dist = MOREAU_GEN_SIZE_FILE, expect_input_error(&p, dim, "-gen_size_file");
      p = good, p.size_dist = (moreau_gen_size_dist)7, expect_input_error(&p, dim, "-gen_size_dist");
    }
}
END_TEST

/* Dense enough to fit the box's volume, too dense for the method. */
START_TEST(cannot_fit)
{
  moreau_gen_params p = params(MOREAU_GEN_LATTICE, 2, 2000);
  p.radius *= 1.2;
  expect_input_error(&p, 2, "at most");
  p = params(MOREAU_GEN_RANDOM, 2, 2000);
  p.radius *= sqrt(0.9 / 0.35);
  expect_input_error(&p, 2, "-gen_radius");
  expect_input_error(&p, 2, "solid fraction of only");
  /* Above what random placement reaches: the error names -gen_fraction. */
  p = params(MOREAU_GEN_RANDOM, 2, 2000);
  p.fraction = 0.88;
  ck_assert_int_eq(moreau_generate_auto_radius(2, &p, &p.radius), MOREAU_SUCCESS);
  expect_input_error(&p, 2, "-gen_fraction 0.88: random placement reached a solid fraction of only");
  p = params(MOREAU_GEN_RANDOM, 3, 500);
  p.fraction = 0.7;
  ck_assert_int_eq(moreau_generate_auto_radius(3, &p, &p.radius), MOREAU_SUCCESS);
  expect_input_error(&p, 3, "-gen_fraction 0.7: random placement reached");
  /* Above what the lattice holds. */
  p = params(MOREAU_GEN_LATTICE, 2, 2000);
  p.fraction = 0.7;
  ck_assert_int_eq(moreau_generate_auto_radius(2, &p, &p.radius), MOREAU_SUCCESS);
  expect_input_error(&p, 2, "-gen_fraction 0.7");
}
END_TEST

static void set_option(const char *name, const char *value) { PetscOptionsSetValue(NULL, name, value); }

/* Sets the options of pairs (name, value, ..., NULL). */
static void set_options(const char *const *pairs)
{
  for (int i = 0; pairs[i]; i += 2)
    set_option(pairs[i], pairs[i + 1]);
}

static void clear_options(void)
{
  for (const moreau_option_spec *s = moreau_generate_options; s->name; s++)
    PetscOptionsClearValue(NULL, s->name);
  PetscOptionsClearValue(NULL, "-seed");
}

START_TEST(options_defaults)
{
  moreau_gen_params p;
  double box2[4] = {0, 0, 2, 0.5}, box3[6] = {0, 0, 0, 1, 1, 2};
  clear_options();
  ck_assert_int_eq(moreau_generate_params_from_options(2, &p), MOREAU_SUCCESS);
  ck_assert_int_eq(p.type, MOREAU_GEN_LATTICE);
  ck_assert_int_eq(p.n, 2000);
  for (int k = 0; k < 2; k++) {
    ck_assert_double_eq(p.lo[k], box2[k]);
    ck_assert_double_eq(p.hi[k], box2[2 + k]);
  }
  ck_assert_double_eq(p.polydispersity, 0.3);
  ck_assert_double_eq(p.jitter, 0.5);
  ck_assert_int_eq(p.seed, 1);
  ck_assert_int_eq(p.material, 0);
  ck_assert_double_gt(p.radius, 0.0);
  ck_assert_int_ge(moreau_generate_lattice_capacity(2, &p), 2000);
  ck_assert_int_eq(moreau_generate_params_from_options(3, &p), MOREAU_SUCCESS);
  for (int k = 0; k < 3; k++) {
    ck_assert_double_eq(p.lo[k], box3[k]);
    ck_assert_double_eq(p.hi[k], box3[3 + k]);
  }
  ck_assert_int_ge(moreau_generate_lattice_capacity(3, &p), 2000);
}
END_TEST

START_TEST(options_given)
{
  moreau_gen_params p;
  clear_options();
  set_option("-gen_type", "random");
  set_option("-gen_n", "300");
  set_option("-gen_box", "-1,0,2,1,3,4");
  set_option("-gen_radius", "0.05");
  set_option("-gen_polydispersity", "0.1");
  set_option("-gen_jitter", "0");
  set_option("-seed", "42");
  ck_assert_int_eq(moreau_generate_params_from_options(3, &p), MOREAU_SUCCESS);
  ck_assert_int_eq(p.type, MOREAU_GEN_RANDOM);
  ck_assert_int_eq(p.n, 300);
  ck_assert_double_eq(p.lo[0], -1.0);
  ck_assert_double_eq(p.lo[2], 2.0);
  ck_assert_double_eq(p.hi[1], 3.0);
  ck_assert_double_eq(p.hi[2], 4.0);
  ck_assert_double_eq(p.radius, 0.05);
  ck_assert_double_eq(p.polydispersity, 0.1);
  ck_assert_double_eq(p.jitter, 0.0);
  ck_assert_int_eq(p.seed, 42);
  clear_options();
}
END_TEST

/* Sets the options of pairs (name, value, ..., NULL) and expects an input
 * error whose message contains words, and p left with nothing to free. */
static void expect_options_error(int dim, const char *const *pairs, const char *words)
{
  moreau_gen_params p;
  clear_options();
  set_options(pairs);
  ck_assert_int_eq(moreau_generate_params_from_options(dim, &p), MOREAU_ERR_INPUT);
  ck_assert_msg(strstr(moreau_error_message(), words) != NULL, "message '%s' does not name %s", moreau_error_message(),
                words);
  ck_assert_ptr_null(p.size_radius);
  moreau_error_clear();
  clear_options();
}

static void expect_option_error(int dim, const char *name, const char *value)
{
  expect_options_error(dim, (const char *const[]){name, value, NULL}, name);
}

START_TEST(options_sizes)
{
  moreau_gen_params p;
  char path[PATH_LEN];
  double fill;
  clear_options();
  set_options((const char *const[]){"-gen_size_dist", "bidisperse", "-gen_size_ratio", "2", "-gen_size_fraction",
                                    "0.25", "-gen_type", "random", "-gen_fraction", "0.5", NULL});
  ck_assert_int_eq(moreau_generate_params_from_options(2, &p), MOREAU_SUCCESS);
  ck_assert_int_eq(p.size_dist, MOREAU_GEN_SIZE_BIDISPERSE);
  ck_assert_double_eq(p.size_ratio, 2.0);
  ck_assert_double_eq(p.size_fraction, 0.25);
  ck_assert_double_eq(p.fraction, 0.5);
  /* Mean radius r: small r / 1.25, large 2 r / 1.25; n of them fill half the box. */
  fill = 2000.0 * M_PI * p.radius * p.radius * (0.75 + 0.25 * 4.0) / (1.25 * 1.25) / (2.0 * 0.5);
  ck_assert_double_eq_tol(fill, 0.5, 1e-12);
  ck_assert_double_eq(p.polydispersity, 0.0);
  moreau_generate_params_free(&p);
  clear_options();
  write_size_file("2,1\n4,3\n", path);
  set_options((const char *const[]){"-gen_size_dist", "file", "-gen_size_file", path, "-gen_radius", "0.01", NULL});
  ck_assert_int_eq(moreau_generate_params_from_options(3, &p), MOREAU_SUCCESS);
  remove_size_file(path);
  ck_assert_int_eq(p.size_dist, MOREAU_GEN_SIZE_FILE);
  ck_assert_int_eq(p.size_count, 2);
  /* Weighted mean radius 3.5: relative radii 2 / 3.5 and 4 / 3.5. */
  ck_assert_double_eq_tol(p.size_radius[0], 2.0 / 3.5, 1e-15);
  ck_assert_double_eq_tol(p.size_radius[1], 4.0 / 3.5, 1e-15);
  ck_assert_double_eq_tol(p.size_cdf[0], 0.25, 1e-15);
  ck_assert_double_eq(p.size_cdf[1], 1.0);
  ck_assert_double_eq(p.radius, 0.01);
  moreau_generate_params_free(&p);
  ck_assert_ptr_null(p.size_radius);
  clear_options();
}
END_TEST

/* Each bad size file is one error naming -gen_size_file and the file. */
START_TEST(size_file_errors)
{
  static const char *const bad[] = {"",
                                    "# only a comment\n",
                                    "0.1,1\nabc\n",
                                    "-0.1\n",
                                    "0\n",
                                    "0.1,-1\n",
                                    "0.1,0\n0.2,0\n",
                                    "0.1,1,2\n",
                                    "0.1;1\n",
                                    "1e999\n",
                                    "nan\n",
                                    "1,inf\n",
                                    "0.001\n2\n"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    char path[PATH_LEN];
    write_size_file(bad[i], path);
    expect_options_error(2, (const char *const[]){"-gen_size_dist", "file", "-gen_size_file", path, NULL},
                         "-gen_size_file");
    remove_size_file(path);
  }
  expect_options_error(2, (const char *const[]){"-gen_size_dist", "file", NULL}, "-gen_size_file");
  expect_options_error(
      2, (const char *const[]){"-gen_size_dist", "file", "-gen_size_file", "/nonexistent/sizes.txt", NULL},
      "-gen_size_file /nonexistent/sizes.txt: cannot open");
}
END_TEST

START_TEST(options_errors)
{
  expect_option_error(2, "-gen_type", "hexagonal");
  expect_option_error(2, "-gen_n", "0");
  expect_option_error(2, "-gen_n", "many");
  expect_option_error(2, "-gen_box", "0,0,1");
  expect_option_error(2, "-gen_box", "0,0,0,1,1,1");
  expect_option_error(3, "-gen_box", "0,0,1,1");
  expect_option_error(2, "-gen_box", "0,0,0,2");
  expect_option_error(2, "-gen_radius", "-0.1");
  expect_option_error(2, "-gen_polydispersity", "1");
  expect_option_error(2, "-gen_jitter", "2");
  expect_option_error(2, "-gen_material", "-1");
  expect_option_error(2, "-gen_size_dist", "gaussian");
  expect_option_error(2, "-gen_fraction", "1");
  expect_option_error(2, "-gen_fraction", "-0.1");
  expect_options_error(2, (const char *const[]){"-gen_size_dist", "bidisperse", "-gen_size_fraction", "0.5", NULL},
                       "-gen_size_dist bidisperse needs -gen_size_ratio");
  expect_options_error(2, (const char *const[]){"-gen_size_dist", "bidisperse", "-gen_size_ratio", "2", NULL},
                       "-gen_size_dist bidisperse needs -gen_size_fraction");
  expect_options_error(2,
                       (const char *const[]){"-gen_size_dist", "bidisperse", "-gen_size_ratio", "0.9",
                                             "-gen_size_fraction", "0.5", NULL},
                       "-gen_size_ratio");
  expect_options_error(
      2,
      (const char *const[]){"-gen_size_dist", "bidisperse", "-gen_size_ratio", "2", "-gen_size_fraction", "1.5", NULL},
      "-gen_size_fraction");
  expect_options_error(
      2,
      (const char *const[]){"-gen_size_dist", "bidisperse", "-gen_size_ratio", "2", "-gen_size_fraction", "-0.5", NULL},
      "-gen_size_fraction");
  expect_options_error(2, (const char *const[]){"-gen_fraction", "0.3", "-gen_radius", "0.01", NULL}, "-gen_fraction");
}
END_TEST

static Suite *generate_suite(void)
{
  Suite *s = suite_create("generate");
  TCase *geometry = tcase_create("geometry"), *errors = tcase_create("errors"), *options = tcase_create("options");
  tcase_add_test(geometry, lattice_2d);
  tcase_add_test(geometry, lattice_3d);
  tcase_add_test(geometry, lattice_full_jitter_monodisperse);
  tcase_add_test(geometry, lattice_offset_box);
  tcase_add_test(geometry, random_2d);
  tcase_add_test(geometry, random_3d);
  tcase_add_test(geometry, random_few_in_flat_box);
  tcase_add_test(geometry, lattice_auto_radius_is_largest);
  tcase_add_test(geometry, lattice_auto_radius_thin_box);
  tcase_add_test(geometry, random_auto_radius_fill);
  tcase_add_test(geometry, seed_changes_positions);
  tcase_add_test(geometry, bidisperse_number_fraction);
  tcase_add_test(geometry, file_distribution);
  tcase_add_test(geometry, file_single_radius);
  tcase_add_test(geometry, uniform_bounds);
  tcase_add_test(geometry, random_fraction_reached);
  tcase_add_test(errors, input_errors);
  tcase_add_test(errors, cannot_fit);
  tcase_add_test(options, options_defaults);
  tcase_add_test(options, options_given);
  tcase_add_test(options, options_errors);
  tcase_add_test(options, options_sizes);
  tcase_add_test(options, size_file_errors);
  suite_add_tcase(s, geometry);
  suite_add_tcase(s, errors);
  suite_add_tcase(s, options);
  return s;
}

int main(int argc, char **argv)
{
  moreau_pair_law law = {.mu = 0.3, .e_n = 0.0, .e_t = 0.0};
  SRunner *runner;
  int failed, any_failed;
  if (PetscInitialize(&argc, &argv, NULL, NULL)) return 1;
  (void)MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  (void)MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  if (moreau_options_register("app", app_options) || moreau_options_register("generate", moreau_generate_options) ||
      moreau_materials_create(1, &law, DENSITY, &materials)) {
    moreau_error_print(1);
    PetscFinalize();
    return 1;
  }
  runner = srunner_create(generate_suite());
  srunner_set_fork_status(runner, CK_NOFORK);
  srunner_run_all(runner, rank == 0 ? CK_NORMAL : CK_SILENT);
  failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  if (moreau_materials_destroy(&materials)) failed++;
  (void)MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  PetscFinalize();
  return any_failed ? 1 : 0;
}
