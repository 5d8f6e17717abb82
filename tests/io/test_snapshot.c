/* HDF5 snapshots and their XDMF descriptions: a snapshot read back gives the
 * bodies bit for bit whatever the rank counts, the contact and wall datasets
 * hold what was written, the box attributes and outline are the run's box
 * (none without a box), the contactors of rigid clusters are where their
 * shapes put them, the XDMF files are well-formed XML whose every
 * reference names an existing dataset of the declared shape. */
#include <check.h>
#include <dirent.h>
#include <hdf5.h>
#include <inttypes.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_test_util.h"
#include "moreau/io.h"
#include "moreau/rng.h"

static char tmpdir[256];
static moreau_materials *materials;
static int rank, size;

/* Any finite double, from all bit patterns: subnormals, huge values, -0. */
static double any_double(moreau_rng *r)
{
  double d;
  do {
    uint64_t u = moreau_rng_next(r);
    memcpy(&d, &u, sizeof(d));
  } while (!isfinite(d));
  return d;
}

static double any_positive(moreau_rng *r)
{
  double d;
  do
    d = fabs(any_double(r));
  while (!(d > 0));
  return d;
}

static void random_body(moreau_rng *r, moreau_gid gid, moreau_body *b)
{
  b->gid = gid;
  for (int d = 0; d < 3; d++) {
    b->x[d] = any_double(r);
    b->v[d] = any_double(r);
    b->w[d] = any_double(r);
    b->f_ext[d] = any_double(r);
    b->t_ext[d] = any_double(r);
  }
  for (int d = 0; d < 4; d++)
    b->q[d] = any_double(r);
  b->radius = any_positive(r);
  b->inv_mass = any_double(r);
  b->inv_inertia = any_double(r);
  b->material = (int32_t)moreau_rng_below(r, 3);
  b->fixed = (int32_t)moreau_rng_below(r, 2);
}

/* What a snapshot is written from: the run state, bodies, contacts and
 * walls, built by hand. */
typedef struct {
  moreau_run_state rs;
  moreau_bodies *bodies;
  moreau_contacts *contacts;
  moreau_walls *walls;
} scene;

static moreau_err add_contact(scene *sc, moreau_rng *r, moreau_lid a, moreau_lid b, moreau_gid gid_b)
{
  moreau_contacts *c = sc->contacts;
  moreau_lid i;
  /* Arms of any length, as a cluster's may be: the list holds them. */
  MOREAU_CALL(moreau_contacts_enable_arms(c, sc->bodies));
  MOREAU_CALL(moreau_contacts_push(c, sc->bodies->gid[a], gid_b, 0, a, b, &i));
  for (int d = 0; d < 3; d++) {
    c->normal[3 * i + d] = any_double(r);
    c->ca[3 * i + d] = moreau_rng_uniform(r) - 0.5;
    c->cb[3 * i + d] = moreau_rng_uniform(r) - 0.5;
    c->force[3 * i + d] = any_double(r);
    /* The branch vectors of a real contact meet: x_a + ca = x_b + cb. */
    if (b >= 0) c->cb[3 * i + d] = sc->bodies->x[3 * a + d] + c->ca[3 * i + d] - sc->bodies->x[3 * b + d];
  }
  return MOREAU_SUCCESS;
}

/* Not collective: fills sc (see make_scene). */
static moreau_err fill_scene(scene *sc, int dim, int with_contacts, int n_walls, int64_t step, uint64_t seed)
{
  moreau_rng r, rw;
  moreau_body body;
  int n = (size > 1 && rank == 1) ? 0 : 4 + 3 * rank;
  sc->rs.comm = MPI_COMM_WORLD;
  sc->rs.dim = dim;
  sc->rs.step = step;
  sc->rs.time = step / 3.0e4;
  sc->rs.dt = 1.0 / 3.0e4;
  sc->rs.le_flow = sc->rs.le_gradient = -1;
  moreau_rng_seed(&r, seed, (uint64_t)rank);
  MOREAU_CALL(moreau_bodies_create(MPI_COMM_WORLD, dim, &sc->bodies));
  for (int k = 0; k < n; k++) {
    random_body(&r, 1000 * (moreau_gid)rank + 7 * k + 3, &body);
    MOREAU_CALL(moreau_bodies_push_owned(sc->bodies, &body));
  }
  for (int k = 0; k < 2; k++) {
    random_body(&r, 900000 + 10 * (moreau_gid)rank + k, &body);
    MOREAU_CALL(moreau_bodies_push_ghost(sc->bodies, &body));
  }
  MOREAU_CALL(moreau_contacts_create(0, &sc->contacts));
  if (with_contacts && n >= 3) {
    MOREAU_CALL(add_contact(sc, &r, 0, 1, sc->bodies->gid[1]));
    MOREAU_CALL(add_contact(sc, &r, 1, n, sc->bodies->gid[n]));
    MOREAU_CALL(add_contact(sc, &r, 2, -1, MOREAU_WALL_GID(0)));
    MOREAU_CALL(add_contact(sc, &r, 0, -2, MOREAU_WALL_GID(1)));
    MOREAU_CALL(add_contact(sc, &r, 2, n + 1, sc->bodies->gid[n + 1]));
  }
  MOREAU_CALL(moreau_walls_create(&sc->walls));
  moreau_rng_seed(&rw, seed, 12345);
  for (int k = 0; k < n_walls; k++) {
    double p[3], nrm[3], v[3];
    for (int d = 0; d < 3; d++) {
      p[d] = moreau_rng_uniform(&rw);
      nrm[d] = moreau_rng_uniform(&rw) + 0.1;
      v[d] = moreau_rng_uniform(&rw) - 0.5;
    }
    MOREAU_CALL(moreau_walls_add(sc->walls, p, nrm, MOREAU_WALL_VELOCITY, v, 0, 0, 0, NULL));
    for (int d = 0; d < 3; d++)
      sc->walls->reaction[3 * k + d] = any_double(&rw);
  }
  return MOREAU_SUCCESS;
}

/* Collective. A scene built by hand: a few random bodies per rank (none on
 * rank 1 when there are several ranks, to exercise empty slabs), two ghosts,
 * contacts between owned bodies, with a ghost and with walls, and two walls
 * that are the same on every rank. */
static scene *make_scene(int dim, int with_contacts, int n_walls, int64_t step, uint64_t seed)
{
  scene *sc = calloc(1, sizeof(*sc));
  moreau_err err = fill_scene(sc, dim, with_contacts, n_walls, step, seed);
  if (err) fprintf(stderr, "rank %d: %s\n", rank, moreau_error_message());
  ck_assert(io_test_all(err == MOREAU_SUCCESS));
  return sc;
}

/* Collective. */
static void destroy_scene(scene **sc)
{
  moreau_err err = moreau_bodies_destroy(&(*sc)->bodies);
  if (!err) err = moreau_contacts_destroy(&(*sc)->contacts);
  if (!err) err = moreau_walls_destroy(&(*sc)->walls);
  free(*sc);
  *sc = NULL;
  ck_assert(io_test_all(err == MOREAU_SUCCESS));
}

/* Collective: every rank gets all ranks' items (bytes each), in rank order. */
static void *gather_all(const void *mine, int n, size_t bytes, int *total)
{
  int *counts = malloc((size_t)size * sizeof(int)), *displs = malloc((size_t)size * sizeof(int));
  int my_bytes = n * (int)bytes;
  char *all;
  MPI_Allgather(&my_bytes, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
  displs[0] = 0;
  for (int p = 1; p < size; p++)
    displs[p] = displs[p - 1] + counts[p - 1];
  *total = (displs[size - 1] + counts[size - 1]) / (int)bytes;
  all = malloc((size_t)*total * bytes + 1);
  MPI_Allgatherv(mine, my_bytes, MPI_BYTE, all, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
  free(counts);
  free(displs);
  return all;
}

static int same(const void *a, const void *b, size_t bytes) { return memcmp(a, b, bytes) == 0; }

/* a and b agree to tol relative to scale (the largest coordinate the sum
 * that made a went through). */
static int close3(const double *a, const double *b, double tol, double scale)
{
  double t = tol * fmax(1.0, scale);
  return fabs(a[0] - b[0]) <= t && fabs(a[1] - b[1]) <= t && fabs(a[2] - b[2]) <= t;
}

static int by_gid(const void *a, const void *b)
{
  moreau_gid ga = ((const moreau_body *)a)->gid, gb = ((const moreau_body *)b)->gid;
  return (ga > gb) - (ga < gb);
}

/* Collective: the bodies read back are exactly the owned bodies of the
 * scene, each once. */
static void check_same_bodies(const scene *sc, const moreau_bodies *got)
{
  moreau_body *mine = malloc((size_t)sc->bodies->n_owned * sizeof(*mine) + 1), *all, g;
  int n_all;
  long bad = 0, matched = 0;
  for (moreau_lid i = 0; i < sc->bodies->n_owned; i++)
    moreau_bodies_get(sc->bodies, i, &mine[i]);
  all = gather_all(mine, sc->bodies->n_owned, sizeof(*mine), &n_all);
  qsort(all, (size_t)n_all, sizeof(*all), by_gid);
  for (moreau_lid i = 0; i < got->n_owned; i++) {
    const moreau_body *e;
    moreau_bodies_get(got, i, &g);
    e = bsearch(&g, all, (size_t)n_all, sizeof(*all), by_gid);
    if (!e) {
      bad++;
      continue;
    }
    matched++;
    if (!(same(g.x, e->x, sizeof(g.x)) && same(g.v, e->v, sizeof(g.v)) && same(g.w, e->w, sizeof(g.w)) &&
          same(g.q, e->q, sizeof(g.q)) && same(g.f_ext, e->f_ext, sizeof(g.f_ext)) &&
          same(g.t_ext, e->t_ext, sizeof(g.t_ext)) && same(&g.radius, &e->radius, sizeof(double)) &&
          same(&g.inv_mass, &e->inv_mass, sizeof(double)) && same(&g.inv_inertia, &e->inv_inertia, sizeof(double)) &&
          g.material == e->material && g.fixed == e->fixed)) {
      fprintf(stderr, "rank %d: body %" PRId64 " read back differs\n", rank, g.gid);
      bad++;
    }
  }
  bad = io_test_sum(bad);
  matched = io_test_sum(matched);
  free(mine);
  free(all);
  ck_assert_int_eq(bad, 0);
  ck_assert_int_eq(matched, n_all);
}

/* What the scene says the contact rows of the file must hold. */
typedef struct {
  int64_t gid_a, gid_b;
  double ends[6], f_n, f_t, force[3], normal[3];
  double scale; /* largest coordinate of the two centres */
} contact_row;

static contact_row *expected_contacts(const scene *sc, int *n_all)
{
  const moreau_contacts *c = sc->contacts;
  const double *x = sc->bodies->x;
  contact_row *mine = calloc((size_t)c->n + 1, sizeof(*mine)), *all;
  for (moreau_lid i = 0; i < c->n; i++) {
    moreau_lid a = c->a[i], b = c->b[i];
    mine[i].gid_a = c->gid_a[i];
    mine[i].gid_b = c->gid_b[i];
    for (int d = 0; d < 3; d++) {
      mine[i].ends[d] = x[3 * a + d];
      /* The centre of the image of b that a touches: b's own centre in this
       * bounded scene, to rounding (the writer goes through the branch
       * vectors so that a contact across a periodic face stays short). */
      mine[i].ends[3 + d] = b >= 0 ? x[3 * b + d] : x[3 * a + d] + c->ca[3 * i + d];
      mine[i].force[d] = c->force[3 * i + d];
      mine[i].normal[d] = c->normal[3 * i + d];
    }
    for (int d = 0; d < 3; d++)
      mine[i].scale = fmax(mine[i].scale, fmax(fabs(mine[i].ends[d]), fabs(mine[i].ends[3 + d])));
    mine[i].f_n = c->force[3 * i];
    mine[i].f_t = c->force[3 * i + 1];
  }
  all = gather_all(mine, c->n, sizeof(*mine), n_all);
  free(mine);
  return all;
}

/* Reads a whole dataset of rows x cols (cols 0: one-dimensional) on this
 * rank alone; returns NULL (after a message) if it is missing or misshapen. */
static void *read_dataset(hid_t file, const char *name, hid_t type, size_t elem, hsize_t rows, hsize_t cols)
{
  hid_t d = H5Dopen2(file, name, H5P_DEFAULT), s;
  hsize_t dims[2] = {0, 0};
  int nd;
  void *buf = NULL;
  if (d < 0) {
    fprintf(stderr, "no dataset %s\n", name);
    return NULL;
  }
  s = H5Dget_space(d);
  nd = H5Sget_simple_extent_ndims(s);
  H5Sget_simple_extent_dims(s, dims, NULL);
  H5Sclose(s);
  if (nd != (cols ? 2 : 1) || dims[0] != rows || (cols && dims[1] != cols)) {
    fprintf(stderr, "dataset %s has the wrong shape\n", name);
  } else {
    buf = malloc(elem * rows * (cols ? cols : 1) + 1);
    if (H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) {
      free(buf);
      buf = NULL;
    }
  }
  H5Dclose(d);
  return buf;
}

/* The attribute holds n values (bytes in all) equal to expected. */
static int attr_array_equals(hid_t file, const char *name, hid_t type, const void *expected, int n, size_t bytes)
{
  char value[64] = {0};
  hid_t a = H5Aexists(file, name) > 0 ? H5Aopen(file, name, H5P_DEFAULT) : -1, space = a >= 0 ? H5Aget_space(a) : -1;
  int ok = space >= 0 && H5Sget_simple_extent_npoints(space) == n && H5Aread(a, type, value) >= 0 &&
           same(value, expected, bytes);
  if (space >= 0) H5Sclose(space);
  if (a >= 0) H5Aclose(a);
  if (!ok) fprintf(stderr, "attribute %s is missing or wrong\n", name);
  return ok;
}

static int attr_equals(hid_t file, const char *name, hid_t type, const void *expected, size_t bytes)
{
  return attr_array_equals(file, name, type, expected, 1, bytes);
}

/* The corner of the box a vertex is, as a bit mask (bit k: at hi along axis
 * k), or -1 when some coordinate is neither lo nor hi exactly (or z is not 0
 * in 2D). */
static int corner_of(const double *v, const moreau_run_state *rs)
{
  int mask = 0;
  for (int k = 0; k < 3; k++) {
    if (k >= rs->dim) {
      if (v[k] != 0.0) return -1;
    } else if (same(&v[k], &rs->box_hi[k], 8)) {
      mask |= 1 << k;
    } else if (!same(&v[k], &rs->box_lo[k], 8)) {
      return -1;
    }
  }
  return mask;
}

/* Rank 0 only: problems in the outline /box: the 2^dim vertices are the
 * corners of the box, each once, and the dim 2^(dim-1) edges are distinct
 * and join corners that differ along one axis, so they are the box's edges. */
static int check_outline(hid_t file, const moreau_run_state *rs)
{
  int nv = 1 << rs->dim, ne = rs->dim * nv / 2, bad = 0, corner[8], seen[8] = {0}, joined[8][8] = {{0}};
  double *v = read_dataset(file, "/box/vertices", H5T_NATIVE_DOUBLE, 8, (hsize_t)nv, 3);
  int64_t *e = read_dataset(file, "/box/edges", H5T_NATIVE_INT64, 8, (hsize_t)ne, 2);
  if (!v || !e) {
    bad++;
  } else {
    for (int i = 0; i < nv; i++) {
      corner[i] = corner_of(&v[3 * i], rs);
      bad += corner[i] < 0 || seen[corner[i]]++;
    }
    for (int i = 0; i < ne && !bad; i++) {
      int64_t a = e[2 * i], b = e[2 * i + 1];
      int differ = a >= 0 && a < nv && b >= 0 && b < nv ? corner[a] ^ corner[b] : 0;
      bad += differ == 0 || (differ & (differ - 1)) != 0 || joined[a][b]++ || joined[b][a]++;
    }
  }
  if (bad) fprintf(stderr, "the box outline is wrong\n");
  free(v);
  free(e);
  return bad;
}

/* Rank 0 only: problems in the box attributes and outline of a file:
 * periodic always, box_lo, box_hi and /box only with a box, the Lees-Edwards
 * attributes only with Lees-Edwards. */
static int check_box_data(hid_t file, const moreau_run_state *rs)
{
  int32_t periodic[3] = {rs->periodic[0], rs->periodic[1], rs->periodic[2]}, axes[2] = {rs->le_flow, rs->le_gradient};
  int bad = !attr_array_equals(file, "periodic", H5T_NATIVE_INT32, periodic, 3, sizeof(periodic));
  if (rs->le_flow >= 0) {
    bad += !attr_array_equals(file, "lees_edwards_axes", H5T_NATIVE_INT32, axes, 2, sizeof(axes));
    bad += !attr_equals(file, "lees_edwards_offset", H5T_NATIVE_DOUBLE, &rs->le_offset, 8);
  } else {
    bad += H5Aexists(file, "lees_edwards_axes") > 0 || H5Aexists(file, "lees_edwards_offset") > 0;
  }
  if (!rs->has_box)
    return bad + (H5Aexists(file, "box_lo") > 0) + (H5Aexists(file, "box_hi") > 0) +
           (H5Lexists(file, "/box", H5P_DEFAULT) > 0);
  bad += !attr_array_equals(file, "box_lo", H5T_NATIVE_DOUBLE, rs->box_lo, 3, sizeof(rs->box_lo));
  bad += !attr_array_equals(file, "box_hi", H5T_NATIVE_DOUBLE, rs->box_hi, 3, sizeof(rs->box_hi));
  return bad + check_outline(file, rs);
}

/* Rank 0 only: problems in the contact, wall and attribute data of a file. */
/* Problems with a vertex list: rows x cols (0: one-dimensional) values
 * 0, 1, 2, ... in order. */
static int check_counting(hid_t file, const char *name, int64_t rows, int cols)
{
  int64_t *v = read_dataset(file, name, H5T_NATIVE_INT64, 8, (hsize_t)rows, (hsize_t)cols), bad = 0;
  if (!v) return 1;
  for (int64_t i = 0; i < rows * (cols ? cols : 1); i++)
    bad += v[i] != i;
  if (bad) fprintf(stderr, "%s: %" PRId64 " values out of order\n", name, bad);
  free(v);
  return bad > 0;
}

static int check_file_data(const char *path, const scene *sc, const contact_row *rows, int n_rows, int64_t n_bodies)
{
  hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  int bad = 0, nw = sc->walls->n;
  int32_t dim = sc->rs.dim;
  int64_t nc = n_rows;
  int64_t *ga, *gb;
  double *ends, *fn, *ft, *force, *normal;
  if (file < 0) return 1;
  bad += !attr_equals(file, "time", H5T_NATIVE_DOUBLE, &sc->rs.time, sizeof(double));
  bad += !attr_equals(file, "dt", H5T_NATIVE_DOUBLE, &sc->rs.dt, sizeof(double));
  bad += !attr_equals(file, "step", H5T_NATIVE_INT64, &sc->rs.step, sizeof(int64_t));
  bad += !attr_equals(file, "dim", H5T_NATIVE_INT32, &dim, sizeof(int32_t));
  bad += !attr_equals(file, "n_bodies", H5T_NATIVE_INT64, &n_bodies, sizeof(int64_t));
  bad += !attr_equals(file, "n_contacts", H5T_NATIVE_INT64, &nc, sizeof(int64_t));
  bad += check_box_data(file, &sc->rs);
  ga = read_dataset(file, "/contacts/gid_a", H5T_NATIVE_INT64, 8, nc, 0);
  gb = read_dataset(file, "/contacts/gid_b", H5T_NATIVE_INT64, 8, nc, 0);
  ends = read_dataset(file, "/contacts/endpoints", H5T_NATIVE_DOUBLE, 8, 2 * nc, 3);
  fn = read_dataset(file, "/contacts/normal_force", H5T_NATIVE_DOUBLE, 8, nc, 0);
  ft = read_dataset(file, "/contacts/tangential_force", H5T_NATIVE_DOUBLE, 8, nc, 0);
  force = read_dataset(file, "/contacts/force", H5T_NATIVE_DOUBLE, 8, nc, 3);
  normal = read_dataset(file, "/contacts/normal", H5T_NATIVE_DOUBLE, 8, nc, 3);
  if (!ga || !gb || !ends || !fn || !ft || !force || !normal) {
    bad++;
  } else {
    for (int i = 0; i < n_rows; i++) {
      const contact_row *e = &rows[i];
      int ok = ga[i] == e->gid_a && gb[i] == e->gid_b && same(&ends[6 * i], e->ends, 3 * sizeof(double)) &&
               close3(&ends[6 * i + 3], &e->ends[3], 1e-12, e->scale) && same(&fn[i], &e->f_n, 8) &&
               same(&ft[i], &e->f_t, 8) && same(&force[3 * i], e->force, sizeof(e->force)) &&
               same(&normal[3 * i], e->normal, sizeof(e->normal));
      if (!ok) fprintf(stderr, "contact row %d differs\n", i);
      bad += !ok;
    }
  }
  bad += check_counting(file, "/contacts/connectivity", nc, 2);
  bad += check_counting(file, "/bodies/connectivity", n_bodies, 0);
  free(ga);
  free(gb);
  free(ends);
  free(fn);
  free(ft);
  free(force);
  free(normal);
  if (nw > 0) {
    static const char *names[4] = {"/walls/point", "/walls/normal", "/walls/velocity", "/walls/reaction"};
    const double *src[4] = {sc->walls->point, sc->walls->normal, sc->walls->velocity, sc->walls->reaction};
    for (int k = 0; k < 4; k++) {
      double *w = read_dataset(file, names[k], H5T_NATIVE_DOUBLE, 8, (hsize_t)nw, 3);
      bad += !w || !same(w, src[k], 3 * (size_t)nw * sizeof(double));
      free(w);
    }
  } else {
    bad += H5Lexists(file, "/walls", H5P_DEFAULT) > 0;
  }
  H5Fclose(file);
  return bad;
}

static char *read_text(const char *path)
{
  FILE *f = fopen(path, "rb");
  long n;
  char *text;
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  text = calloc((size_t)n + 1, 1);
  if (fread(text, 1, (size_t)n, f) != (size_t)n) text[0] = '\0';
  fclose(f);
  return text;
}

/* Rank 0 only: problems with one DataItem reference "file.h5:/dataset" (a
 * path relative to the XDMF file's folder) declared with dims. */
static int check_reference(const char *base, const char *ref, const char *dims)
{
  char file_name[512], h5_path[1024];
  const char *colon = strchr(ref, ':');
  long want[2] = {-1, -1};
  hsize_t got[2] = {0, 0};
  int want_nd = sscanf(dims, "%ld %ld", &want[0], &want[1]), got_nd, bad;
  hid_t f, d, s;
  if (!colon || colon - ref >= (long)sizeof(file_name)) return 1;
  memcpy(file_name, ref, (size_t)(colon - ref));
  file_name[colon - ref] = '\0';
  snprintf(h5_path, sizeof(h5_path), "%s/%s", base, file_name);
  f = H5Fopen(h5_path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) {
    fprintf(stderr, "XDMF reference %s: no file %s\n", ref, h5_path);
    return 1;
  }
  d = H5Dopen2(f, colon + 1, H5P_DEFAULT);
  if (d < 0) {
    fprintf(stderr, "XDMF reference %s: no dataset\n", ref);
    H5Fclose(f);
    return 1;
  }
  s = H5Dget_space(d);
  got_nd = H5Sget_simple_extent_ndims(s);
  H5Sget_simple_extent_dims(s, got, NULL);
  bad = got_nd != want_nd || (long)got[0] != want[0] || (want_nd == 2 && (long)got[1] != want[1]);
  if (bad) fprintf(stderr, "XDMF reference %s: Dimensions=\"%s\" do not match the dataset\n", ref, dims);
  H5Sclose(s);
  H5Dclose(d);
  H5Fclose(f);
  return bad;
}

/* Rank 0 only: xmllint accepts the file and every DataItem names an existing
 * dataset of its declared shape. Returns the number of problems and the
 * number of references in *n_refs. */
static int check_xdmf(const char *xmf, int *n_refs)
{
  char cmd[1200], base[512], dims[64];
  char *text = read_text(xmf), *p, *slash;
  int bad = 0;
  *n_refs = 0;
  if (!text) return 1;
  snprintf(cmd, sizeof(cmd), "xmllint --noout '%s'", xmf);
  if (system(cmd) != 0) {
    fprintf(stderr, "xmllint rejects %s\n", xmf);
    bad++;
  }
  snprintf(base, sizeof(base), "%s", xmf);
  slash = strrchr(base, '/');
  if (slash) *slash = '\0';
  for (p = strstr(text, "<DataItem"); p; p = strstr(p, "<DataItem")) {
    char *gt = strchr(p, '>'), *close = gt ? strstr(gt, "</DataItem>") : NULL, *dim_attr = strstr(p, "Dimensions=\"");
    if (!close || !dim_attr || dim_attr > gt || sscanf(dim_attr, "Dimensions=\"%63[0-9 ]\"", dims) != 1) {
      bad++;
      break;
    }
    *close = '\0';
    bad += check_reference(base, gt + 1, dims);
    ++*n_refs;
    p = close + 1;
  }
  free(text);
  return bad;
}

static int count_occurrences(const char *text, const char *what)
{
  int n = 0;
  for (const char *p = text ? strstr(text, what) : NULL; p; p = strstr(p + 1, what))
    n++;
  return n;
}

/* Rank 0 only: leftovers of the write-then-rename scheme. */
static int count_tmp_files(const char *dir)
{
  DIR *d = opendir(dir);
  struct dirent *e;
  int n = 0;
  if (!d) return 1;
  while ((e = readdir(d)))
    n += strstr(e->d_name, ".tmp") != NULL;
  closedir(d);
  return n;
}

/* The Time values of an XDMF text, in order. */
static int time_values(const char *text, double *t, int max)
{
  int n = 0;
  for (const char *p = text ? strstr(text, "<Time Value=\"") : NULL; p && n < max; p = strstr(p + 1, "<Time Value=\""))
    t[n++] = strtod(p + strlen("<Time Value=\""), NULL);
  return n;
}

static int bcast_int(int v)
{
  MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return v;
}

/* Collective: the snapshot h5 read back gives the scene's bodies. */
static void check_read_back(const scene *sc, const char *h5)
{
  moreau_bodies *back;
  moreau_err err;
  ck_assert(io_test_all(moreau_bodies_create(MPI_COMM_WORLD, sc->rs.dim, &back) == MOREAU_SUCCESS));
  err = moreau_read_particles(h5, back, materials, NULL);
  if (err) fprintf(stderr, "rank %d: %s\n", rank, moreau_error_message());
  ck_assert(io_test_all(err == MOREAU_SUCCESS));
  check_same_bodies(sc, back);
  ck_assert(io_test_all(moreau_bodies_destroy(&back) == MOREAU_SUCCESS));
}

static void write_ok(const scene *sc, const char *dir)
{
  moreau_err err = moreau_snapshot_write(&sc->rs, sc->bodies, sc->contacts, sc->walls, NULL, dir);
  if (err) fprintf(stderr, "rank %d: %s\n", rank, moreau_error_message());
  ck_assert(io_test_all(err == MOREAU_SUCCESS));
}

/* Problems with the box grids of an XDMF text: there are n_grids, each a
 * Polyline of the dim 2^(dim-1) edges of the box over its 2^dim corners. */
static int check_box_grids(const char *text, int dim, int n_grids)
{
  int nv = 1 << dim, ne = dim * nv / 2, bad = count_occurrences(text, "<Grid Name=\"box\"") != n_grids;
  char topology[128], edges[64], vertices[64];
  snprintf(topology, sizeof(topology),
           "<Topology TopologyType=\"Polyline\" NumberOfElements=\"%d\" NodesPerElement=\"2\">", ne);
  snprintf(edges, sizeof(edges), "Dimensions=\"%d 2\"", ne);
  snprintf(vertices, sizeof(vertices), "Dimensions=\"%d 3\"", nv);
  for (const char *p = text ? strstr(text, "<Grid Name=\"box\"") : NULL; p; p = strstr(p + 1, "<Grid Name=\"box\"")) {
    const char *end = strstr(p, "</Grid>"), *t = strstr(p, topology), *e = strstr(p, edges), *v = strstr(p, vertices);
    bad += !end || !t || t > end || !e || e > end || !strstr(e, ":/box/edges<") || !v || v > end ||
           !strstr(v, ":/box/vertices<");
  }
  if (bad) fprintf(stderr, "the box grids are wrong:\n%s\n", text ? text : "(missing)");
  return bad;
}

/* A periodic box (and its Lees-Edwards state) for the run state. */
typedef struct {
  double lo[3], hi[3];
  int periodic[3], le_flow, le_gradient;
  double le_offset;
} box_setup;

static void set_box(moreau_run_state *rs, const box_setup *box)
{
  rs->has_box = 1;
  memcpy(rs->box_lo, box->lo, sizeof(box->lo));
  memcpy(rs->box_hi, box->hi, sizeof(box->hi));
  memcpy(rs->periodic, box->periodic, sizeof(box->periodic));
  rs->le_flow = box->le_flow;
  rs->le_gradient = box->le_gradient;
  rs->le_offset = box->le_offset;
}

/* A snapshot written and read back, with a box or without (box NULL). */
static void round_trip(int dim, const box_setup *box)
{
  char dir[512], snap_dir[600], h5[700], xmf[700], top[700];
  scene *sc = make_scene(dim, 1, 2, 42, 7 + (uint64_t)dim);
  contact_row *rows;
  int n_rows, bad = 0, refs = 0, refs_top = 0;
  int64_t n_bodies;
  if (box) set_box(&sc->rs, box);
  snprintf(dir, sizeof(dir), "%s/run%dd%s/out", tmpdir, dim, box ? "_box" : "");
  snprintf(snap_dir, sizeof(snap_dir), "%s/snapshots", dir);
  snprintf(h5, sizeof(h5), "%s/snap_000042.h5", snap_dir);
  snprintf(xmf, sizeof(xmf), "%s/snap_000042.xmf", snap_dir);
  snprintf(top, sizeof(top), "%s/snapshots.xmf", dir);
  write_ok(sc, dir);
  check_read_back(sc, h5);

  rows = expected_contacts(sc, &n_rows);
  ck_assert(io_test_all(moreau_bodies_global_count(sc->bodies, &n_bodies, NULL) == MOREAU_SUCCESS));
  if (rank == 0) {
    char *text;
    bad += check_file_data(h5, sc, rows, n_rows, n_bodies);
    bad += check_xdmf(xmf, &refs);
    bad += check_xdmf(top, &refs_top);
    bad += count_tmp_files(snap_dir) + count_tmp_files(dir);
    text = read_text(xmf);
    bad += count_occurrences(text, "Name=\"particles\"") != 1 || count_occurrences(text, "Name=\"contacts\"") != 1;
    bad += check_box_grids(text, dim, box != NULL);
    free(text);
    text = read_text(top);
    bad += check_box_grids(text, dim, box != NULL);
    free(text);
  }
  free(rows);
  ck_assert_int_gt(n_rows, 0);
  ck_assert_int_eq(bcast_int(bad), 0);
  /* particles: connectivity, position and 6 attributes; contacts:
   * connectivity, endpoints and 3 attributes; box: edges and vertices. */
  ck_assert_int_eq(bcast_int(refs), box ? 15 : 13);
  ck_assert_int_eq(bcast_int(refs_top), box ? 15 : 13);
  destroy_scene(&sc);
}

/* Not collective: a scene of n bodies on this rank, stored in the reverse
 * of their gid order, with a contact between each body and the next. */
static moreau_err fill_large_scene(scene *sc, moreau_lid n)
{
  moreau_rng r;
  moreau_body body;
  sc->rs.comm = MPI_COMM_WORLD;
  sc->rs.dim = 2;
  sc->rs.step = 7;
  sc->rs.dt = 1e-4;
  sc->rs.time = 7e-4;
  sc->rs.le_flow = sc->rs.le_gradient = -1;
  moreau_rng_seed(&r, 99, (uint64_t)rank);
  MOREAU_CALL(moreau_bodies_create(MPI_COMM_WORLD, 2, &sc->bodies));
  MOREAU_CALL(moreau_contacts_create(0, &sc->contacts));
  MOREAU_CALL(moreau_walls_create(&sc->walls));
  for (moreau_lid k = 0; k < n; k++) {
    random_body(&r, 1000000 * (moreau_gid)rank + 2 * (moreau_gid)(n - k), &body);
    MOREAU_CALL(moreau_bodies_push_owned(sc->bodies, &body));
  }
  for (moreau_lid k = 0; k + 1 < n; k++)
    MOREAU_CALL(add_contact(sc, &r, k, k + 1, sc->bodies->gid[k + 1]));
  return MOREAU_SUCCESS;
}

/* The writers make rows that are not stored as the file holds them (bodies
 * in gid order, contact endpoints, vertex lists) a piece of
 * write_piece_bytes at a time, each rank in as many collective writes as
 * the rank with the most pieces: here from one row a piece to dozens of
 * pieces a dataset, uneven between the ranks (rank 1 has no rows). Every row
 * must still be where it belongs. */
static void many_pieces(size_t piece_bytes, moreau_lid n0, moreau_lid n2)
{
  char dir[512], h5[700];
  const moreau_lid n_rank[3] = {n0, 0, n2};
  scene *sc = calloc(1, sizeof(*sc));
  contact_row *rows;
  int n_rows, bad = 0;
  int64_t n_bodies;
  moreau_err err = fill_large_scene(sc, n_rank[rank % 3]);
  if (err) fprintf(stderr, "rank %d: %s\n", rank, moreau_error_message());
  ck_assert(io_test_all(err == MOREAU_SUCCESS));
  sc->rs.write_piece_bytes = piece_bytes;
  snprintf(dir, sizeof(dir), "%s/pieces%zu/out", tmpdir, piece_bytes);
  snprintf(h5, sizeof(h5), "%s/snapshots/snap_000007.h5", dir);
  write_ok(sc, dir);
  check_read_back(sc, h5);
  rows = expected_contacts(sc, &n_rows);
  ck_assert(io_test_all(moreau_bodies_global_count(sc->bodies, &n_bodies, NULL) == MOREAU_SUCCESS));
  if (rank == 0) bad = check_file_data(h5, sc, rows, n_rows, n_bodies);
  free(rows);
  ck_assert_int_eq(n_rows, n0 - 1 + (size > 2 ? n2 - 1 : 0));
  ck_assert_int_eq(bcast_int(bad), 0);
  destroy_scene(&sc);
}

START_TEST(t_many_pieces)
{
  many_pieces(1, 7, 4);        /* a row a piece */
  many_pieces(1000, 300, 157); /* 2 to 15 pieces a dataset on rank 0 */
}
END_TEST

START_TEST(t_round_trip_2d) { round_trip(2, NULL); }
END_TEST

START_TEST(t_round_trip_3d) { round_trip(3, NULL); }
END_TEST

/* Corners that are not round in binary, so a vertex equal to them bit for
 * bit was copied, not recomputed. */
START_TEST(t_box_2d)
{
  static const box_setup box = {{-0.1, 0.3, 0.0}, {2.7, 1.9, 0.0}, {1, 1, 0}, 0, 1, 0.123456789};
  round_trip(2, &box);
}
END_TEST

START_TEST(t_box_3d)
{
  static const box_setup box = {{0.1, -0.7, 0.2}, {1.3, 0.9, 2.2}, {1, 0, 1}, 2, 0, 0.0};
  round_trip(3, &box);
}
END_TEST

START_TEST(t_box_3d_no_lees_edwards)
{
  static const box_setup box = {{0.1, -0.7, 0.2}, {1.3, 0.9, 2.2}, {0, 1, 0}, -1, -1, 0.0};
  round_trip(3, &box);
}
END_TEST

/* A snapshot without contacts (and without walls) after one with contacts:
 * zero-row datasets, no contacts grid, and a time collection of both. */
START_TEST(t_no_contacts_and_collection)
{
  char dir[512], h5[700], xmf[700], top[700];
  scene *first = make_scene(2, 1, 2, 7, 99), *second = make_scene(2, 0, 0, 8, 100);
  int bad = 0, refs = 0, refs_top = 0;
  int64_t n_bodies;
  snprintf(dir, sizeof(dir), "%s/collection", tmpdir);
  snprintf(h5, sizeof(h5), "%s/snapshots/snap_000008.h5", dir);
  snprintf(xmf, sizeof(xmf), "%s/snapshots/snap_000008.xmf", dir);
  snprintf(top, sizeof(top), "%s/snapshots.xmf", dir);
  write_ok(first, dir);
  write_ok(second, dir);
  ck_assert(io_test_all(moreau_bodies_global_count(second->bodies, &n_bodies, NULL) == MOREAU_SUCCESS));
  if (rank == 0) {
    char *text = read_text(xmf), *all = read_text(top);
    double times[3];
    int n_times = time_values(all, times, 3);
    bad += check_file_data(h5, second, NULL, 0, n_bodies);
    bad += check_xdmf(xmf, &refs);
    bad += check_xdmf(top, &refs_top);
    bad += count_occurrences(text, "Name=\"contacts\"") != 0;
    bad += count_occurrences(all, "CollectionType=\"Temporal\"") != 1;
    bad += n_times != 2 || !same(&times[0], &first->rs.time, 8) || !same(&times[1], &second->rs.time, 8);
    if (bad) fprintf(stderr, "collection:\n%s\n", all ? all : "(missing)");
    free(text);
    free(all);
  }
  ck_assert_int_eq(bcast_int(bad), 0);
  ck_assert_int_eq(bcast_int(refs), 8);
  ck_assert_int_eq(bcast_int(refs_top), 13 + 8);
  destroy_scene(&first);
  destroy_scene(&second);
}
END_TEST

/* Snapshots of later steps left by an earlier run in the same folder are not
 * part of this run's collection; rewriting a step replaces it. */
START_TEST(t_stale_snapshots)
{
  char dir[512], top[700];
  scene *late = make_scene(3, 1, 1, 50, 5), *early = make_scene(3, 1, 1, 10, 6);
  int bad = 0;
  snprintf(dir, sizeof(dir), "%s/stale", tmpdir);
  snprintf(top, sizeof(top), "%s/snapshots.xmf", dir);
  write_ok(late, dir);
  write_ok(early, dir);
  write_ok(early, dir);
  if (rank == 0) {
    char *all = read_text(top);
    bad += count_occurrences(all, "<Time ") != 1 || count_occurrences(all, "snapshots/snap_000010.h5") == 0;
    bad += count_occurrences(all, "snap_000050") != 0;
    free(all);
  }
  ck_assert_int_eq(bcast_int(bad), 0);
  destroy_scene(&late);
  destroy_scene(&early);
}
END_TEST

/* Collective: rank 0 removes path; returns when it is gone for all. */
static void remove_file(const char *path)
{
  if (rank == 0) remove(path);
  MPI_Barrier(MPI_COMM_WORLD);
}

/* Rank 0 only: problems with the collection at path: it lists n_steps steps
 * and has n_boxes box grids. */
static int check_collection(const char *path, int n_steps, int n_boxes)
{
  char *all = read_text(path);
  int bad = count_occurrences(all, "<Time ") != n_steps || check_box_grids(all, 2, n_boxes);
  if (bad) fprintf(stderr, "collection:\n%s\n", all ? all : "(missing)");
  free(all);
  return bad;
}

/* The collection rebuilt from the folder draws the box of the snapshots that
 * have one; the .xmf of an older snapshot, whose metadata has no box=, gives
 * no box grid (its .h5 has no /box). */
START_TEST(t_box_collection_rebuilt)
{
  static const box_setup box = {{0.0, 0.0, 0.0}, {2.0, 1.5, 0.0}, {1, 0, 0}, -1, -1, 0.0};
  char dir[512], top[700], xmf5[700];
  scene *sc = make_scene(2, 1, 0, 5, 21);
  int bad = 0;
  snprintf(dir, sizeof(dir), "%s/rebuilt", tmpdir);
  snprintf(top, sizeof(top), "%s/snapshots.xmf", dir);
  snprintf(xmf5, sizeof(xmf5), "%s/snapshots/snap_000005.xmf", dir);
  set_box(&sc->rs, &box);
  write_ok(sc, dir);
  sc->rs.step = 6;
  sc->rs.has_box = 0;
  write_ok(sc, dir);
  if (rank == 0) bad += check_collection(top, 2, 1);
  remove_file(top);
  sc->rs.step = 7;
  sc->rs.has_box = 1;
  write_ok(sc, dir);
  if (rank == 0) bad += check_collection(top, 3, 2);
  /* Step 5 as a version before the box outline (and the contactors) wrote
   * it. */
  if (rank == 0) {
    static const char *newer = " box=1 contactors=-1";
    char *text = read_text(xmf5), *tag = text ? strstr(text, " box=1 contactors=-1 -->") : NULL;
    bad += !tag;
    if (tag) memmove(tag, tag + strlen(newer), strlen(tag + strlen(newer)) + 1);
    FILE *f = fopen(xmf5, "w");
    bad += !f || fputs(text ? text : "", f) < 0;
    if (f) fclose(f);
    free(text);
  }
  remove_file(top);
  sc->rs.step = 8;
  write_ok(sc, dir);
  if (rank == 0) bad += check_collection(top, 4, 2);
  ck_assert_int_eq(bcast_int(bad), 0);
  destroy_scene(&sc);
}
END_TEST

/* Collective: the read fails with MOREAU_ERR_INPUT everywhere, leaving no
 * bodies, and some rank's message contains text. */
static void expect_read_error(const char *path, int dim, const char *text)
{
  moreau_bodies *b;
  moreau_err err;
  int good;
  ck_assert(io_test_all(moreau_bodies_create(MPI_COMM_WORLD, dim, &b) == MOREAU_SUCCESS));
  err = moreau_read_particles(path, b, materials, NULL);
  good = moreau_error_is_local() && strstr(moreau_error_message(), text) != NULL;
  if (moreau_error_is_local() && !good) fprintf(stderr, "unexpected message: %s\n", moreau_error_message());
  ck_assert(io_test_all(err == MOREAU_ERR_INPUT && b->n_owned == 0));
  ck_assert_int_ge(io_test_sum(good), 1);
  moreau_error_clear();
  ck_assert(io_test_all(moreau_bodies_destroy(&b) == MOREAU_SUCCESS));
}

START_TEST(t_read_errors)
{
  char dir[512], path[700], expected[800];
  scene *sc = make_scene(3, 0, 0, 3, 11);
  snprintf(dir, sizeof(dir), "%s/errors", tmpdir);
  write_ok(sc, dir);
  snprintf(path, sizeof(path), "%s/snapshots/snap_000003.h5", dir);
  snprintf(expected, sizeof(expected), "%s: snapshot is 3D but the run is 2D", path);
  expect_read_error(path, 2, expected);
  snprintf(path, sizeof(path), "%s/not_hdf5.h5", tmpdir);
  io_test_write_file(path, "x,y,r\n0,0,1\n");
  snprintf(expected, sizeof(expected), "%s: cannot open as HDF5", path);
  expect_read_error(path, 3, expected);
  snprintf(path, sizeof(path), "%s/missing.h5", tmpdir);
  snprintf(expected, sizeof(expected), "%s: cannot open (No such file or directory)", path);
  expect_read_error(path, 3, expected);
  destroy_scene(&sc);
}
END_TEST

/* Rigid clusters: two trimers of different shapes and one plain disk. The
 * expected contactors are computed here from the generator's offsets and
 * the closed forms of a trimer (bounding radius R, centroid at the origin
 * by symmetry), not through moreau_shape_contactor. */
#define CLUSTER_BODIES 3
#define CLUSTER_ROWS 7
static const double trimer_eta[2] = {0.3, 0.55}, trimer_R = 1.7;
static const double cluster_x[CLUSTER_BODIES][2] = {{1.0, 2.0}, {-2.5, 0.4}, {3.0, -1.0}};
static const double cluster_radius[CLUSTER_BODIES] = {0.8, 1.3, 0.45}, cluster_angle[CLUSTER_BODIES] = {0.7, -2.1, 0.3};
static const int32_t cluster_shape[CLUSTER_BODIES] = {1, 2, 0};

typedef struct {
  int64_t gid;
  int32_t index;
  double x[3], r;
} contactor_row;

/* Not collective: the shapes table, and body k (gid 10 + k) owned by rank
 * k % size. */
static moreau_err fill_cluster_scene(scene *sc, moreau_shapes **shapes)
{
  MOREAU_CALL(moreau_shapes_create(2, shapes));
  for (int t = 0; t < 2; t++) {
    double offsets[9], radii[3], bounding;
    moreau_lid id;
    MOREAU_CALL(moreau_shape_trimer(trimer_eta[t], trimer_R, offsets, radii));
    MOREAU_CALL(moreau_shapes_add_unit(*shapes, 3, offsets, radii, &id, &bounding));
  }
  sc->rs.comm = MPI_COMM_WORLD;
  sc->rs.dim = 2;
  sc->rs.step = 4;
  sc->rs.le_flow = sc->rs.le_gradient = -1;
  MOREAU_CALL(moreau_bodies_create(MPI_COMM_WORLD, 2, &sc->bodies));
  for (int k = 0; k < CLUSTER_BODIES; k++) {
    moreau_body body = {.gid = 10 + k, .radius = cluster_radius[k], .shape = cluster_shape[k]};
    body.x[0] = cluster_x[k][0];
    body.x[1] = cluster_x[k][1];
    body.q[0] = cos(cluster_angle[k] / 2);
    body.q[3] = sin(cluster_angle[k] / 2);
    if (k % size == rank) MOREAU_CALL(moreau_bodies_push_owned(sc->bodies, &body));
  }
  MOREAU_CALL(moreau_contacts_create(0, &sc->contacts));
  MOREAU_CALL(moreau_walls_create(&sc->walls));
  return MOREAU_SUCCESS;
}

/* The contactor rows the scene must give, in body order. */
static void expected_contactors(contactor_row *rows)
{
  int n = 0;
  for (int k = 0; k < CLUSTER_BODIES; k++) {
    double offsets[9] = {0}, radii[3] = {1.0}, c = cos(cluster_angle[k]), s = sin(cluster_angle[k]);
    /* A plain disk: one contactor at the centre, of the body's radius. */
    double scale = cluster_radius[k];
    int m = 1;
    if (cluster_shape[k]) {
      ck_assert(moreau_shape_trimer(trimer_eta[cluster_shape[k] - 1], trimer_R, offsets, radii) == MOREAU_SUCCESS);
      /* The body's radius is the trimer's bounding radius, R. */
      scale /= trimer_R;
      m = 3;
    }
    for (int j = 0; j < m; j++, n++) {
      const double *o = &offsets[3 * j];
      rows[n].gid = 10 + k;
      rows[n].index = j;
      rows[n].x[0] = cluster_x[k][0] + scale * (c * o[0] - s * o[1]);
      rows[n].x[1] = cluster_x[k][1] + scale * (s * o[0] + c * o[1]);
      rows[n].x[2] = 0.0;
      rows[n].r = scale * radii[j];
    }
  }
  ck_assert_int_eq(n, CLUSTER_ROWS);
}

/* Rank 0 only: problems with /contactors of the file at path: n rows, each
 * (gid, index) of expected once, at its centre and radius. */
static int check_contactors(const char *path, const contactor_row *expected, int n)
{
  hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  double *x, *r;
  int64_t *gid, *conn;
  int32_t *index;
  int bad = 0, seen[CLUSTER_ROWS] = {0};
  if (file < 0) return 1;
  x = read_dataset(file, "/contactors/position", H5T_NATIVE_DOUBLE, 8, (hsize_t)n, 3);
  r = read_dataset(file, "/contactors/radius", H5T_NATIVE_DOUBLE, 8, (hsize_t)n, 0);
  gid = read_dataset(file, "/contactors/gid", H5T_NATIVE_INT64, 8, (hsize_t)n, 0);
  index = read_dataset(file, "/contactors/index", H5T_NATIVE_INT32, 4, (hsize_t)n, 0);
  conn = read_dataset(file, "/contactors/connectivity", H5T_NATIVE_INT64, 8, (hsize_t)n, 0);
  bad += !x || !r || !gid || !index || !conn;
  for (int i = 0; i < n && !bad; i++) {
    const contactor_row *e = NULL;
    for (int j = 0; j < n && !e; j++)
      if (expected[j].gid == gid[i] && expected[j].index == index[i]) e = &expected[j];
    if (!e || seen[e - expected]++ || !close3(&x[3 * i], e->x, 1e-14, 4.0) || fabs(r[i] - e->r) > 1e-15 ||
        conn[i] != i) {
      fprintf(stderr, "contactor row %d (gid %" PRId64 ", index %d): (%.17g, %.17g, %.17g) r %.17g\n", i, gid[i],
              index[i], x[3 * i], x[3 * i + 1], x[3 * i + 2], r[i]);
      bad++;
    }
  }
  free(x);
  free(r);
  free(gid);
  free(index);
  free(conn);
  H5Fclose(file);
  return bad;
}

/* Rank 0 only: problems with the grids of an XDMF text: n_grids contactors
 * grids of n vertices, each naming the contactor datasets, and as many
 * particles grids. */
static int check_contactor_grids(const char *text, int n, int n_grids)
{
  static const char *names[4] = {":/contactors/connectivity<", ":/contactors/position<", ":/contactors/radius<",
                                 ":/contactors/index<"};
  char topology[128];
  int bad = count_occurrences(text, "<Grid Name=\"contactors\"") != n_grids ||
            count_occurrences(text, "<Grid Name=\"particles\"") != n_grids;
  snprintf(topology, sizeof(topology),
           "<Topology TopologyType=\"Polyvertex\" NumberOfElements=\"%d\" NodesPerElement=\"1\">", n);
  for (const char *p = text ? strstr(text, "<Grid Name=\"contactors\"") : NULL; p;
       p = strstr(p + 1, "<Grid Name=\"contactors\"")) {
    const char *end = strstr(p, "</Grid>"), *t = strstr(p, topology);
    bad += !end || !t || t > end;
    for (int k = 0; k < 4 && end; k++) {
      const char *at = strstr(p, names[k]);
      bad += !at || at > end;
    }
  }
  if (bad) fprintf(stderr, "the contactors grids are wrong:\n%s\n", text ? text : "(missing)");
  return bad;
}

/* A snapshot with a shapes table has one /contactors row per contactor of
 * each body, at its world centre, and an XDMF grid drawing them; the
 * collection rebuilt from the folder draws them too. Without the table
 * there is no such group or grid. */
START_TEST(t_cluster_contactors)
{
  char dir[512], h5[700], xmf[700], top[700], plain[512];
  scene *sc = calloc(1, sizeof(*sc));
  moreau_shapes *shapes = NULL;
  contactor_row expected[CLUSTER_ROWS];
  int bad = 0, refs = 0, refs_top = 0;
  moreau_err err = fill_cluster_scene(sc, &shapes);
  if (err) fprintf(stderr, "rank %d: %s\n", rank, moreau_error_message());
  ck_assert(io_test_all(err == MOREAU_SUCCESS));
  expected_contactors(expected);
  snprintf(dir, sizeof(dir), "%s/clusters", tmpdir);
  snprintf(h5, sizeof(h5), "%s/snapshots/snap_000004.h5", dir);
  snprintf(xmf, sizeof(xmf), "%s/snapshots/snap_000004.xmf", dir);
  snprintf(top, sizeof(top), "%s/snapshots.xmf", dir);
  err = moreau_snapshot_write(&sc->rs, sc->bodies, sc->contacts, sc->walls, shapes, dir);
  if (err) fprintf(stderr, "rank %d: %s\n", rank, moreau_error_message());
  ck_assert(io_test_all(err == MOREAU_SUCCESS));
  if (rank == 0) {
    char *text = read_text(xmf);
    bad += check_contactors(h5, expected, CLUSTER_ROWS);
    bad += check_xdmf(xmf, &refs);
    bad += check_contactor_grids(text, CLUSTER_ROWS, 1);
    free(text);
  }
  /* The collection rebuilt from the folder reads the contactor count back
   * from each snapshot's .xmf. */
  remove_file(top);
  sc->rs.step = 5;
  err = moreau_snapshot_write(&sc->rs, sc->bodies, sc->contacts, sc->walls, shapes, dir);
  ck_assert(io_test_all(err == MOREAU_SUCCESS));
  snprintf(plain, sizeof(plain), "%s/clusters_plain", tmpdir);
  write_ok(sc, plain);
  if (rank == 0) {
    char *text = read_text(top), plain_h5[700], plain_xmf[700];
    hid_t file;
    bad += check_xdmf(top, &refs_top);
    bad += check_contactor_grids(text, CLUSTER_ROWS, 2);
    free(text);
    snprintf(plain_h5, sizeof(plain_h5), "%s/snapshots/snap_000005.h5", plain);
    snprintf(plain_xmf, sizeof(plain_xmf), "%s/snapshots/snap_000005.xmf", plain);
    file = H5Fopen(plain_h5, H5F_ACC_RDONLY, H5P_DEFAULT);
    bad += file < 0 || H5Lexists(file, "/contactors", H5P_DEFAULT) != 0;
    if (file >= 0) H5Fclose(file);
    text = read_text(plain_xmf);
    bad += !text || count_occurrences(text, "/contactors") != 0 || count_occurrences(text, "\"contactors\"") != 0;
    free(text);
  }
  ck_assert_int_eq(bcast_int(bad), 0);
  /* particles: 8 references; contactors: connectivity, position and 3
   * attributes. */
  ck_assert_int_eq(bcast_int(refs), 8 + 5);
  ck_assert_int_eq(bcast_int(refs_top), 2 * (8 + 5));
  ck_assert(io_test_all(moreau_shapes_destroy(&shapes) == MOREAU_SUCCESS));
  destroy_scene(&sc);
}
END_TEST

/* A body whose shape is not in the table fails on every rank (only one
 * holds it), before anything is written. */
START_TEST(t_cluster_bad_shape)
{
  char dir[512];
  scene *sc = calloc(1, sizeof(*sc));
  moreau_shapes *shapes = NULL;
  moreau_err err = fill_cluster_scene(sc, &shapes);
  ck_assert(io_test_all(err == MOREAU_SUCCESS));
  if (rank == 0) sc->bodies->shape[0] = 3;
  snprintf(dir, sizeof(dir), "%s/clusters_bad", tmpdir);
  err = moreau_snapshot_write(&sc->rs, sc->bodies, sc->contacts, sc->walls, shapes, dir);
  ck_assert(io_test_all(err == MOREAU_ERR_INTERNAL));
  ck_assert_int_eq(io_test_sum(moreau_error_is_local() && strstr(moreau_error_message(), "body 10 has shape 3")), 1);
  moreau_error_clear();
  ck_assert(io_test_all(moreau_shapes_destroy(&shapes) == MOREAU_SUCCESS));
  destroy_scene(&sc);
}
END_TEST

static Suite *snapshot_suite(void)
{
  Suite *s = suite_create("io_snapshot");
  TCase *tc = tcase_create("snapshot");
  tcase_add_test(tc, t_round_trip_2d);
  tcase_add_test(tc, t_round_trip_3d);
  tcase_add_test(tc, t_box_2d);
  tcase_add_test(tc, t_box_3d);
  tcase_add_test(tc, t_box_3d_no_lees_edwards);
  tcase_add_test(tc, t_box_collection_rebuilt);
  tcase_add_test(tc, t_no_contacts_and_collection);
  tcase_add_test(tc, t_stale_snapshots);
  tcase_add_test(tc, t_read_errors);
  tcase_add_test(tc, t_cluster_contactors);
  tcase_add_test(tc, t_cluster_bad_shape);
  tcase_add_test(tc, t_many_pieces);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv)
{
  static const moreau_pair_law law = {.mu = 0.5, .e_n = 0, .e_t = 0};
  int status;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  io_test_make_tmpdir(tmpdir);
  if (moreau_materials_create(3, &law, 1.0, &materials)) {
    moreau_error_print(1);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  status = io_test_run(snapshot_suite());
  if (moreau_materials_destroy(&materials)) status = EXIT_FAILURE;
  io_test_remove_tree(tmpdir);
  MPI_Finalize();
  return status;
}
