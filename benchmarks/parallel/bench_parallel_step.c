/* Issue 4 probe: a few time steps of one scene on P ranks, reporting per step
 * what the distributed solver costs: sweeps to tolerance, the per-rank
 * messages and bytes of one interface average, interface bodies, imbalance
 * and times. The scene is set up exactly as the moreau program does it (same
 * options), so a state saved by moreau (-particles_file snap.h5) is solved
 * from the same starting point at every rank count. */
#include <petscsys.h>
#include <stdio.h>
#include <string.h>

#include "moreau/app.h"
#include "moreau/generate.h"
#include "moreau/io.h"
#include "moreau/log.h"
#include "moreau/materials.h"
#include "moreau/sim.h"

static const moreau_option_spec bench_options[] = {
    {"-bench_steps", "<int>", "2",
     "time steps to take (the first starts cold: a state read from a file has no contact history)"},
    {"-bench_csv", "<file>", "", "append one row per step to this CSV file (header written when it is new)"},
    {"-bench_label", "<text>", "", "value of the label column of the CSV rows"},
    {"-bench_tile", "<int>", "1",
     "make the scene k times wider: copies of the bodies side by side, every other one mirrored (2D)"},
    {"-bench_tile_x", "<x0,x1>", "", "the scene's side walls, needed by -bench_tile > 1"},
    {"-bench_forces", "<file>", "",
     "write the last step's contact forces to this CSV file (gid_a,gid_b,point,f_n,f_t,f_s; a wall is gid_b < 0)"},
    {NULL, NULL, NULL, NULL}};

typedef struct {
  int64_t steps, tile;
  double tile_x[2];
  char csv[4096], label[256], forces[4096];
} bench_config;

/* Global figures of one step; per-rank quantities as min, mean and max. */
typedef struct {
  int64_t bodies, contacts, interface_copies, warm_matched;
  double step_seconds, solve_seconds, detect_seconds;
  double msgs[3], bytes[3], iface[3];
  double step_msgs[3], step_bytes[3]; /* sent in the step's ghost and migration exchanges */
} step_figures;

/* The part's exchange counters at the end of the last step. */
typedef struct {
  int64_t messages, bytes;
} exchange_counts;

/* A settled pile of N disks between side walls at x0 and x1 = x0 + W becomes
 * one of k N disks between x0 and x0 + k W: copy j sits j W further right,
 * and odd copies are mirror images (x -> 2 x0 + (j + 1) W - x, with mirrored
 * velocity and spin). Neighbouring copies then meet with the same column of
 * disks, each disk facing its own mirror image at the same height, so every
 * disk that leaned on a side wall now leans on its twin (an overlap d with the
 * wall becomes 2 d with the twin). The twins cannot pass a vertical friction
 * force to each other (by symmetry), so the seams are the one place where the
 * state is not exactly the settled one. Copy j's global ids are the original
 * ones + j N. */
static moreau_err tile_scene(const bench_config *cfg, moreau_bodies *b)
{
  int64_t n_global;
  moreau_lid n0 = b->n_owned;
  double x0 = cfg->tile_x[0], w = cfg->tile_x[1] - cfg->tile_x[0];
  MOREAU_CHECK(b->dim == 2, MOREAU_ERR_INPUT, "option -bench_tile: only for 2D scenes");
  MOREAU_CALL(moreau_bodies_global_count(b, &n_global, &(int64_t){0}));
  for (int64_t j = 1; j < cfg->tile; j++) {
    for (moreau_lid i = 0; i < n0; i++) {
      moreau_body body;
      moreau_bodies_get(b, i, &body);
      MOREAU_CHECK(body.x[0] >= x0 && body.x[0] <= x0 + w, MOREAU_ERR_INPUT,
                   "option -bench_tile_x: body %lld at x = %g lies outside [%g, %g]", (long long)body.gid, body.x[0],
                   x0, x0 + w);
      body.gid += j * n_global;
      if (j % 2) {
        body.x[0] = 2.0 * x0 + (double)(j + 1) * w - body.x[0];
        body.v[0] = -body.v[0];
        body.w[2] = -body.w[2];
        body.q[3] = -body.q[3];
        body.f_ext[0] = -body.f_ext[0];
        body.t_ext[2] = -body.t_ext[2];
      } else {
        body.x[0] += (double)j * w;
      }
      MOREAU_CALL(moreau_bodies_push_owned(b, &body));
    }
  }
  return MOREAU_SUCCESS;
}

static moreau_err setup_scene(MPI_Comm comm, const bench_config *cfg, moreau_sim **simp)
{
  moreau_sim *sim;
  moreau_materials *materials;
  moreau_gen_params gen;
  int64_t dim;
  double overlap_tol, box[6];
  const double *box_default = NULL;
  char particles[4096];
  MOREAU_CALL(moreau_option_int("-dim", &dim));
  MOREAU_CALL(moreau_option_real("-overlap_tol", &overlap_tol));
  MOREAU_CALL(moreau_option_string("-particles_file", particles, sizeof(particles)));
  MOREAU_CALL(moreau_sim_create(comm, (int)dim, simp));
  sim = *simp;
  MOREAU_CALL(moreau_sim_set_from_options(sim));
  MOREAU_CALL(moreau_materials_from_options(moreau_law_default(), &materials));
  MOREAU_CALL(moreau_sim_set_materials(sim, materials));
  if (particles[0]) {
    MOREAU_CALL(moreau_read_particles(particles, moreau_sim_bodies(sim), moreau_sim_materials(sim), NULL));
    moreau_sim_set_input_name(sim, particles);
  } else {
    MOREAU_CALL(moreau_generate_params_from_options(moreau_sim_dim(sim), &gen));
    MOREAU_CALL(moreau_generate(&gen, moreau_sim_bodies(sim), moreau_sim_materials(sim)));
    for (int k = 0; k < moreau_sim_dim(sim); k++) {
      box[k] = gen.lo[k];
      box[moreau_sim_dim(sim) + k] = gen.hi[k];
    }
    box_default = box;
  }
  if (cfg->tile > 1) MOREAU_CALL(tile_scene(cfg, moreau_sim_bodies(sim)));
  MOREAU_CALL(moreau_app_walls_from_options(sim, box_default));
  MOREAU_CALL(moreau_options_check_unknown());
  MOREAU_CALL(moreau_sim_setup(sim, overlap_tol));
  return MOREAU_SUCCESS;
}

static moreau_err min_mean_max(MPI_Comm comm, double x, double out[3])
{
  double lo, hi, sum;
  int size;
  MOREAU_MPI_CALL(MPI_Comm_size(comm, &size));
  MOREAU_MPI_CALL(MPI_Allreduce(&x, &lo, 1, MPI_DOUBLE, MPI_MIN, comm));
  MOREAU_MPI_CALL(MPI_Allreduce(&x, &hi, 1, MPI_DOUBLE, MPI_MAX, comm));
  MOREAU_MPI_CALL(MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, comm));
  out[0] = lo;
  out[1] = sum / size;
  out[2] = hi;
  return MOREAU_SUCCESS;
}

/* Times are the slowest rank's: that is what the step costs. */
static moreau_err gather_figures(const moreau_sim *sim, double step_seconds, exchange_counts *last, step_figures *f)
{
  const moreau_step_stats *stats = moreau_sim_stats(sim);
  MPI_Comm comm = moreau_sim_comm(sim);
  moreau_part_stats st = {0};
  double t[3] = {step_seconds, stats->solve_seconds, stats->detect_seconds}, tmax[3], copies;
  memset(f, 0, sizeof(*f));
  /* One rank reports no partition figures (as before the partition existed there). */
  if (moreau_sim_size(sim) > 1) moreau_part_get_stats(moreau_sim_part(sim), &st);
  MOREAU_MPI_CALL(MPI_Allreduce(t, tmax, 3, MPI_DOUBLE, MPI_MAX, comm));
  f->step_seconds = tmax[0];
  f->solve_seconds = tmax[1];
  f->detect_seconds = tmax[2];
  MOREAU_CALL(moreau_bodies_global_count(moreau_sim_bodies(sim), &f->bodies, &(int64_t){0}));
  f->contacts = stats->n_contacts_global;
  MOREAU_CALL(min_mean_max(comm, (double)st.sweep_messages, f->msgs));
  MOREAU_CALL(min_mean_max(comm, (double)st.sweep_bytes, f->bytes));
  MOREAU_CALL(min_mean_max(comm, (double)st.interface_bodies, f->iface));
  MOREAU_CALL(min_mean_max(comm, (double)(st.exchange_messages - last->messages), f->step_msgs));
  MOREAU_CALL(min_mean_max(comm, (double)(st.exchange_bytes - last->bytes), f->step_bytes));
  *last = (exchange_counts){st.exchange_messages, st.exchange_bytes};
  copies = (double)st.interface_bodies;
  MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, &copies, 1, MPI_DOUBLE, MPI_SUM, comm));
  f->interface_copies = (int64_t)copies;
  copies = (double)stats->warm_matched;
  MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, &copies, 1, MPI_DOUBLE, MPI_SUM, comm));
  f->warm_matched = (int64_t)copies;
  return MOREAU_SUCCESS;
}

static const char csv_header[] =
    "label,ranks,bodies,step,contacts,iterations,residual,converged,step_seconds,solve_seconds,detect_seconds,"
    "imbalance,interface_copies,interface_bodies_min,interface_bodies_mean,interface_bodies_max,"
    "sweep_messages_min,sweep_messages_mean,sweep_messages_max,sweep_bytes_min,sweep_bytes_mean,sweep_bytes_max,"
    "warm_started_contacts,law_residual,interface_spread,step_messages_min,step_messages_mean,step_messages_max,"
    "step_bytes_min,step_bytes_mean,step_bytes_max";

/* Rank 0 only. */
static moreau_err write_row(const bench_config *cfg, const moreau_sim *sim, const step_figures *f)
{
  const moreau_nlgs_result *solve = &moreau_sim_stats(sim)->solve;
  FILE *fp;
  long size;
  double imbalance = 1.0;
  if (moreau_sim_size(sim) > 1) {
    moreau_part_stats st;
    moreau_part_get_stats(moreau_sim_part(sim), &st);
    imbalance = st.imbalance;
  }
  printf("step %lld: ranks %d bodies %lld contacts %lld sweeps %d residual %.3g%s step %.4f s solve %.4f s; "
         "interface copies %lld, per rank per sweep: messages %.0f/%.1f/%.0f bytes %.0f/%.0f/%.0f (min/mean/max)\n",
         (long long)moreau_sim_step_index(sim), moreau_sim_size(sim), (long long)f->bodies, (long long)f->contacts,
         solve->iterations, solve->residual, solve->converged ? "" : " (NOT converged)", f->step_seconds,
         f->solve_seconds, (long long)f->interface_copies, f->msgs[0], f->msgs[1], f->msgs[2], f->bytes[0], f->bytes[1],
         f->bytes[2]);
  if (!cfg->csv[0]) return MOREAU_SUCCESS;
  fp = fopen(cfg->csv, "a");
  MOREAU_CHECK(fp, MOREAU_ERR_IO, "%s: cannot open for appending", cfg->csv);
  fseek(fp, 0, SEEK_END);
  size = ftell(fp);
  if (size == 0) fprintf(fp, "%s\n", csv_header);
  fprintf(fp,
          "%s,%d,%lld,%lld,%lld,%d,%.6g,%d,%.6g,%.6g,%.6g,%.4f,%lld,%.0f,%.2f,%.0f,%.0f,%.2f,%.0f,%.0f,%.2f,%.0f,%lld,%"
          ".6g,%."
          "6g",
          cfg->label, moreau_sim_size(sim), (long long)f->bodies, (long long)moreau_sim_step_index(sim),
          (long long)f->contacts, solve->iterations, solve->residual, solve->converged, f->step_seconds,
          f->solve_seconds, f->detect_seconds, imbalance, (long long)f->interface_copies, f->iface[0], f->iface[1],
          f->iface[2], f->msgs[0], f->msgs[1], f->msgs[2], f->bytes[0], f->bytes[1], f->bytes[2],
          (long long)f->warm_matched, solve->law_residual, solve->interface_spread);
  fprintf(fp, ",%.0f,%.2f,%.0f,%.0f,%.0f,%.0f\n", f->step_msgs[0], f->step_msgs[1], f->step_msgs[2], f->step_bytes[0],
          f->step_bytes[1], f->step_bytes[2]);
  MOREAU_CHECK(fclose(fp) == 0, MOREAU_ERR_IO, "%s: write failed", cfg->csv);
  return MOREAU_SUCCESS;
}

/* One contact of the forces file. */
typedef struct {
  double gid_a, gid_b, point, f[3];
} contact_row;

static int by_key(const void *x, const void *y)
{
  const contact_row *a = x, *b = y;
  for (int k = 0; k < 3; k++) {
    double u = (&a->gid_a)[k], v = (&b->gid_a)[k];
    if (u != v) return u < v ? -1 : 1;
  }
  return 0;
}

/* Collective: the contacts of every rank gathered on rank 0, sorted by key
 * and written there (the reference of an equal-accuracy comparison). */
static moreau_err write_forces(const char *path, const moreau_sim *sim)
{
  const moreau_contacts *c = moreau_sim_contacts(sim);
  MPI_Comm comm = moreau_sim_comm(sim);
  const int width = sizeof(contact_row) / sizeof(double), size = moreau_sim_size(sim);
  contact_row *mine = NULL, *all = NULL;
  int *counts = NULL, *offsets = NULL, n = (int)c->n * width, total = 0;
  moreau_err err = MOREAU_SUCCESS;
  MOREAU_CALL(moreau_malloc(((size_t)c->n + 1) * sizeof(*mine), &mine));
  for (moreau_lid k = 0; k < c->n; k++) {
    /* A wall's key is huge (MOREAU_WALL_GID), not exact as a double: -(wall + 1) instead. */
    double gid_b = c->b[k] < 0 ? (double)c->b[k] : (double)c->gid_b[k];
    mine[k] = (contact_row){(double)c->gid_a[k], gid_b, (double)c->point[k], {0, 0, 0}};
    memcpy(mine[k].f, &c->force[3 * k], sizeof(mine[k].f));
  }
  if (moreau_sim_rank(sim) == 0) {
    MOREAU_CALL(moreau_calloc((size_t)size, sizeof(int), &counts));
    MOREAU_CALL(moreau_calloc((size_t)size, sizeof(int), &offsets));
  }
  MOREAU_MPI_CALL(MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, comm));
  if (moreau_sim_rank(sim) == 0) {
    for (int r = 0; r < size; r++) {
      offsets[r] = total;
      total += counts[r];
    }
    MOREAU_CALL(moreau_malloc(((size_t)total + width) * sizeof(double), &all));
  }
  MOREAU_MPI_CALL(MPI_Gatherv(mine, n, MPI_DOUBLE, all, counts, offsets, MPI_DOUBLE, 0, comm));
  if (moreau_sim_rank(sim) == 0) {
    FILE *fp = fopen(path, "w");
    if (!fp) {
      err = moreau_error_raise(MOREAU_ERR_IO, __FILE__, __LINE__, __func__, "%s: cannot open for writing", path);
    } else {
      qsort(all, (size_t)(total / width), sizeof(contact_row), by_key);
      fprintf(fp, "gid_a,gid_b,point,f_n,f_t,f_s\n");
      for (int k = 0; k < total / width; k++)
        fprintf(fp, "%.0f,%.0f,%.0f,%.17g,%.17g,%.17g\n", all[k].gid_a, all[k].gid_b, all[k].point, all[k].f[0],
                all[k].f[1], all[k].f[2]);
      if (fclose(fp)) err = moreau_error_raise(MOREAU_ERR_IO, __FILE__, __LINE__, __func__, "%s: write failed", path);
    }
  }
  moreau_free(&mine);
  moreau_free(&all);
  moreau_free(&counts);
  moreau_free(&offsets);
  return moreau_error_agree(comm, err);
}

static moreau_err run(const bench_config *cfg, moreau_sim *sim)
{
  exchange_counts last = {0, 0};
  if (moreau_sim_size(sim) > 1) {
    moreau_part_stats st;
    moreau_part_get_stats(moreau_sim_part(sim), &st);
    last = (exchange_counts){st.exchange_messages, st.exchange_bytes};
  }
  for (int64_t s = 0; s < cfg->steps; s++) {
    step_figures f;
    moreau_err err = MOREAU_SUCCESS;
    double t0;
    MOREAU_MPI_CALL(MPI_Barrier(moreau_sim_comm(sim)));
    t0 = MPI_Wtime();
    MOREAU_CALL(moreau_sim_step(sim));
    MOREAU_CALL(gather_figures(sim, MPI_Wtime() - t0, &last, &f));
    if (moreau_sim_rank(sim) == 0) err = write_row(cfg, sim, &f);
    MOREAU_CALL(moreau_error_agree(moreau_sim_comm(sim), err));
  }
  if (cfg->forces[0]) MOREAU_CALL(write_forces(cfg->forces, sim));
  return MOREAU_SUCCESS;
}

static moreau_err read_config(bench_config *cfg)
{
  MOREAU_CALL(moreau_option_int("-bench_steps", &cfg->steps));
  MOREAU_CHECK(cfg->steps >= 1, MOREAU_ERR_INPUT, "option -bench_steps: must be >= 1");
  MOREAU_CALL(moreau_option_string("-bench_csv", cfg->csv, sizeof(cfg->csv)));
  MOREAU_CALL(moreau_option_string("-bench_label", cfg->label, sizeof(cfg->label)));
  MOREAU_CALL(moreau_option_string("-bench_forces", cfg->forces, sizeof(cfg->forces)));
  MOREAU_CHECK(!strpbrk(cfg->label, ",\"\n"), MOREAU_ERR_INPUT, "option -bench_label: no comma, quote or newline");
  MOREAU_CALL(moreau_option_int("-bench_tile", &cfg->tile));
  MOREAU_CHECK(cfg->tile >= 1, MOREAU_ERR_INPUT, "option -bench_tile: must be >= 1");
  if (cfg->tile > 1) {
    int n = 2;
    MOREAU_CALL(moreau_option_reals("-bench_tile_x", cfg->tile_x, &n));
    MOREAU_CHECK(n == 2 && cfg->tile_x[1] > cfg->tile_x[0], MOREAU_ERR_INPUT,
                 "option -bench_tile_x: give the side walls x0,x1 (x0 < x1) of the scene to tile");
  }
  return MOREAU_SUCCESS;
}

/* The lowest rank that raised the error prints it, so an input error every
 * rank found is printed once. */
static void report(MPI_Comm comm)
{
  int rank, size, mine, first;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  mine = moreau_error_is_local() ? rank : size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (rank == first) moreau_error_print(1);
}

int main(int argc, char **argv)
{
  bench_config cfg;
  moreau_sim *sim = NULL;
  moreau_err err, destroy_err;
  MPI_Comm comm;
  if (moreau_app_register_options() || moreau_options_register("Benchmark", bench_options)) return 1;
  if (PetscInitialize(&argc, &argv, NULL, NULL)) return 1;
  comm = PETSC_COMM_WORLD;
  moreau_malloc_defaults();
  moreau_log_register();
  err = read_config(&cfg);
  if (!err) err = setup_scene(comm, &cfg, &sim);
  err = moreau_error_agree(comm, err);
  if (err) {
    report(comm);
  } else if ((err = run(&cfg, sim))) {
    /* A failure inside a step may leave the other ranks in a collective. */
    moreau_error_print(1);
    MPI_Abort(comm, err == MOREAU_ERR_INPUT ? 2 : 1);
  }
  destroy_err = moreau_sim_destroy(&sim);
  if (destroy_err && !err) {
    moreau_error_print(1);
    err = destroy_err;
  }
  moreau_malloc_keep_freed();
  PetscFinalize();
  return err ? (err == MOREAU_ERR_INPUT ? 2 : 1) : 0;
}
