#include <errno.h>
#include <math.h>
#include <petscsys.h>
#include <stdio.h>
#include <string.h>

#include "moreau/app.h"
#include "moreau/generate.h"
#include "moreau/io.h"
#include "moreau/log.h"
#include "moreau/run_output.h"

typedef struct {
  int dim;
  int64_t steps, output_every, snapshot_every, status_every, seed;
  double t_end, overlap_tol;
  char particles_file[4096], output_dir[4096];
} app_config;

static moreau_err read_config(app_config *cfg)
{
  int64_t dim;
  MOREAU_CALL(moreau_option_int("-dim", &dim));
  MOREAU_CHECK(dim == 2 || dim == 3, MOREAU_ERR_INPUT, "option -dim: must be 2 or 3, got %lld", (long long)dim);
  cfg->dim = (int)dim;
  MOREAU_CALL(moreau_option_int("-steps", &cfg->steps));
  MOREAU_CALL(moreau_option_real("-t_end", &cfg->t_end));
  MOREAU_CALL(moreau_option_int("-seed", &cfg->seed));
  MOREAU_CALL(moreau_option_string("-particles_file", cfg->particles_file, sizeof(cfg->particles_file)));
  MOREAU_CALL(moreau_option_real("-overlap_tol", &cfg->overlap_tol));
  MOREAU_CALL(moreau_option_string("-output_dir", cfg->output_dir, sizeof(cfg->output_dir)));
  MOREAU_CALL(moreau_option_int("-output_every", &cfg->output_every));
  MOREAU_CALL(moreau_option_int("-snapshot_every", &cfg->snapshot_every));
  MOREAU_CALL(moreau_option_int("-status_every", &cfg->status_every));
  MOREAU_CHECK(cfg->steps >= -1, MOREAU_ERR_INPUT, "option -steps: must be >= 0 (or -1 for no limit)");
  MOREAU_CHECK(cfg->t_end > 0, MOREAU_ERR_INPUT, "option -t_end: must be positive, got %g", cfg->t_end);
  MOREAU_CHECK(cfg->seed >= 0, MOREAU_ERR_INPUT, "option -seed: must be >= 0");
  MOREAU_CHECK(cfg->overlap_tol >= 0, MOREAU_ERR_INPUT, "option -overlap_tol: must be >= 0");
  MOREAU_CHECK(cfg->output_dir[0], MOREAU_ERR_INPUT, "option -output_dir: must not be empty");
  MOREAU_CHECK(cfg->output_every >= 1, MOREAU_ERR_INPUT, "option -output_every: must be >= 1");
  MOREAU_CHECK(cfg->snapshot_every >= 0, MOREAU_ERR_INPUT, "option -snapshot_every: must be >= 0");
  MOREAU_CHECK(cfg->status_every >= 0, MOREAU_ERR_INPUT, "option -status_every: must be >= 0");
  return MOREAU_SUCCESS;
}

/* Everything up to the first step: options, bodies, walls, distribution. */
static moreau_err setup(MPI_Comm comm, app_config *cfg, moreau_sim **simp)
{
  moreau_sim *sim;
  moreau_gen_params gen;
  const double *box_default = NULL;
  double box[6];
  MOREAU_CALL(read_config(cfg));
  MOREAU_CALL(moreau_sim_create(comm, cfg->dim, simp));
  sim = *simp;
  MOREAU_CALL(moreau_sim_set_from_options(sim));
  MOREAU_CALL(moreau_materials_destroy(&sim->materials));
  MOREAU_CALL(moreau_materials_from_options(&sim->materials));
  if (cfg->particles_file[0]) {
    MOREAU_CALL(moreau_read_particles(cfg->particles_file, sim->bodies, sim->materials));
    snprintf(sim->input_name, sizeof(sim->input_name), "%s", cfg->particles_file);
  } else {
    MOREAU_CALL(moreau_generate_params_from_options(cfg->dim, &gen));
    MOREAU_CALL(moreau_generate(&gen, sim->bodies, sim->materials));
    for (int k = 0; k < cfg->dim; k++) {
      box[k] = gen.lo[k];
      box[cfg->dim + k] = gen.hi[k];
    }
    box_default = box;
  }
  MOREAU_CALL(moreau_app_walls_from_options(sim, box_default));
  MOREAU_CALL(moreau_options_check_unknown());
  MOREAU_CALL(moreau_sim_setup(sim, cfg->overlap_tol));
  return MOREAU_SUCCESS;
}

static int finished(const app_config *cfg, const moreau_sim *sim)
{
  if (cfg->steps >= 0 && sim->step >= cfg->steps) return 1;
  return sim->time >= cfg->t_end - 0.5 * sim->dt;
}

static moreau_err run(const app_config *cfg, moreau_sim *sim)
{
  moreau_run_output *out;
  double t0 = MPI_Wtime();
  int64_t last_snapshot = -1;
  MOREAU_CALL(moreau_snapshot_write(sim, cfg->output_dir));
  last_snapshot = sim->step;
  MOREAU_CALL(moreau_run_output_create(sim, cfg->output_dir, &out));
  while (!finished(cfg, sim)) {
    MOREAU_CALL(moreau_sim_step(sim));
    if (sim->step % cfg->output_every == 0) MOREAU_CALL(moreau_run_output_row(out, sim));
    if (cfg->snapshot_every > 0 && sim->step % cfg->snapshot_every == 0) {
      MOREAU_CALL(moreau_snapshot_write(sim, cfg->output_dir));
      last_snapshot = sim->step;
    }
    if (cfg->status_every > 0 && sim->step % cfg->status_every == 0)
      moreau_run_output_status(out, sim, MPI_Wtime() - t0, cfg->steps, cfg->t_end);
  }
  if (last_snapshot != sim->step) MOREAU_CALL(moreau_snapshot_write(sim, cfg->output_dir));
  if (sim->rank == 0)
    printf("moreau: done, %lld steps in %.1f s; outputs in %s/ (timeseries.csv, snapshots.xmf for ParaView)\n",
           (long long)sim->step, MPI_Wtime() - t0, cfg->output_dir);
  MOREAU_CALL(moreau_run_output_destroy(&out));
  return MOREAU_SUCCESS;
}

/* PETSc reports an unreadable -options_file with a page of its own; check the
 * files first so the user gets one line naming the file. Collective. */
static int options_files_readable(MPI_Comm comm, int argc, char **argv)
{
  char message[4200] = "";
  int rank, bad = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    for (int i = 1; i < argc && !bad; i++) {
      FILE *f;
      if (strcmp(argv[i], "-options_file")) continue;
      if (i + 1 >= argc) {
        snprintf(message, sizeof(message), "option -options_file needs a file name");
        bad = 1;
      } else if (!(f = fopen(argv[i + 1], "r"))) {
        snprintf(message, sizeof(message), "-options_file %s: cannot open (%s)", argv[i + 1], strerror(errno));
        bad = 1;
      } else {
        fclose(f);
      }
    }
    if (bad) fprintf(stderr, "moreau: error: %s\n", message);
  }
  MPI_Bcast(&bad, 1, MPI_INT, 0, comm);
  return !bad;
}

static int wants_help(int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "-help") || !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return 1;
  return 0;
}

/* The lowest rank holding its own message prints it, so an error every rank
 * found (a bad option) is printed once. */
static void report(MPI_Comm comm, int trace)
{
  int rank, size, mine, first;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  mine = moreau_error_is_local() ? rank : size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (rank == first) moreau_error_print(trace);
}

int moreau_app_main(int argc, char **argv)
{
  app_config cfg;
  moreau_sim *sim = NULL;
  moreau_err err;
  int trace = 0, code;
  MPI_Comm comm;

  if (moreau_app_register_options()) return MOREAU_ERR_INTERNAL;
  /* MPI starts before PETSc so that the checks below can talk; PETSc then
   * leaves MPI_Finalize to us. */
  MPI_Init(&argc, &argv);
  if (wants_help(argc, argv)) {
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
      printf("moreau: contact dynamics (Moreau-Jean NSCD) for rigid granular media\n"
             "usage: mpiexec -n <ranks> moreau [-options_file file] [-option value ...]\n\n");
      moreau_options_print_help(stdout);
    }
    MPI_Finalize();
    return 0;
  }
  if (!options_files_readable(MPI_COMM_WORLD, argc, argv)) {
    MPI_Finalize();
    return MOREAU_ERR_INPUT;
  }
  if (PetscInitialize(&argc, &argv, NULL, NULL)) {
    fprintf(stderr, "moreau: error: PETSc could not start\n");
    MPI_Finalize();
    return MOREAU_ERR_RUNTIME;
  }
  comm = PETSC_COMM_WORLD;
  moreau_log_register();
  (void)moreau_option_bool("-error_trace", &trace);
  moreau_error_clear();
  err = setup(comm, &cfg, &sim);
  err = moreau_error_agree(comm, err);
  if (!err) {
    err = run(&cfg, sim);
    if (err) {
      /* Mid-run failures may strike one rank while the others wait in a
       * collective: print here and take the whole job down. */
      moreau_error_print(1);
      MPI_Abort(comm, err == MOREAU_ERR_INPUT ? MOREAU_ERR_INPUT : MOREAU_ERR_RUNTIME);
    }
  } else {
    report(comm, trace);
  }
  moreau_sim_destroy(&sim);
  code = err == MOREAU_SUCCESS ? 0 : (err == MOREAU_ERR_INPUT ? MOREAU_ERR_INPUT : MOREAU_ERR_RUNTIME);
  PetscFinalize();
  MPI_Finalize();
  return code;
}
