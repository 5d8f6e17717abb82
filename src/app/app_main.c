#include <errno.h>
#include <math.h>
#include <petscsys.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_private.h"
#include "moreau/generate.h"
#include "moreau/io.h"
#include "moreau/log.h"
#include "moreau/run_output.h"

typedef struct {
  int dim;
  int64_t steps, output_every, snapshot_every, status_every, seed;
  int64_t checkpoint_every, checkpoint_keep;
  int overwrite;
  double t_end, strain_end, overlap_tol, checkpoint_wall_interval;
  char particles_file[4096], output_dir[4096];
  char restart[4096]; /* the checkpoint this run continues, "" for a new run */
  moreau_run_analysis_config analysis;
} app_config;

static moreau_err read_config(app_config *cfg)
{
  int64_t dim;
  MOREAU_CALL(moreau_option_int("-dim", &dim));
  MOREAU_CHECK(dim == 2 || dim == 3, MOREAU_ERR_INPUT, "option -dim: must be 2 or 3, got %lld", (long long)dim);
  cfg->dim = (int)dim;
  MOREAU_CALL(moreau_option_int("-steps", &cfg->steps));
  MOREAU_CALL(moreau_option_real("-t_end", &cfg->t_end));
  MOREAU_CALL(moreau_option_real("-strain_end", &cfg->strain_end));
  MOREAU_CHECK(cfg->strain_end >= 0 && isfinite(cfg->strain_end), MOREAU_ERR_INPUT,
               "option -strain_end: must be >= 0, got %g", cfg->strain_end);
  MOREAU_CALL(moreau_option_int("-seed", &cfg->seed));
  MOREAU_CALL(moreau_option_string("-particles_file", cfg->particles_file, sizeof(cfg->particles_file)));
  MOREAU_CALL(moreau_option_real("-overlap_tol", &cfg->overlap_tol));
  MOREAU_CALL(moreau_option_string("-output_dir", cfg->output_dir, sizeof(cfg->output_dir)));
  MOREAU_CALL(moreau_option_bool("-overwrite", &cfg->overwrite));
  MOREAU_CALL(moreau_option_int("-output_every", &cfg->output_every));
  MOREAU_CALL(moreau_option_int("-snapshot_every", &cfg->snapshot_every));
  MOREAU_CALL(moreau_option_int("-status_every", &cfg->status_every));
  MOREAU_CALL(moreau_option_int("-checkpoint_every", &cfg->checkpoint_every));
  MOREAU_CALL(moreau_option_real("-checkpoint_wall_interval", &cfg->checkpoint_wall_interval));
  MOREAU_CALL(moreau_option_int("-checkpoint_keep", &cfg->checkpoint_keep));
  MOREAU_CHECK(cfg->checkpoint_every >= 0, MOREAU_ERR_INPUT, "option -checkpoint_every: must be >= 0");
  MOREAU_CHECK(cfg->checkpoint_wall_interval >= 0, MOREAU_ERR_INPUT,
               "option -checkpoint_wall_interval: must be >= 0 (seconds)");
  MOREAU_CHECK(cfg->checkpoint_keep >= 1 && cfg->checkpoint_keep <= 1000000, MOREAU_ERR_INPUT,
               "option -checkpoint_keep: must be >= 1");
  MOREAU_CHECK(cfg->steps >= -1, MOREAU_ERR_INPUT, "option -steps: must be >= 0 (or -1 for no limit)");
  MOREAU_CHECK(cfg->t_end > 0, MOREAU_ERR_INPUT, "option -t_end: must be positive, got %g", cfg->t_end);
  MOREAU_CHECK(cfg->seed >= 0, MOREAU_ERR_INPUT, "option -seed: must be >= 0");
  /* Beyond half the smaller radius, bodies would be taken as touching that
   * are half inside each other: no packing to start from. */
  MOREAU_CHECK(cfg->overlap_tol >= 0 && cfg->overlap_tol <= 0.5, MOREAU_ERR_INPUT,
               "option -overlap_tol: must be in [0, 0.5] (a fraction of the smaller radius), got %g", cfg->overlap_tol);
  MOREAU_CHECK(cfg->output_dir[0], MOREAU_ERR_INPUT, "option -output_dir: must not be empty");
  MOREAU_CHECK(cfg->output_every >= 1, MOREAU_ERR_INPUT, "option -output_every: must be >= 1");
  MOREAU_CHECK(cfg->snapshot_every >= 0, MOREAU_ERR_INPUT, "option -snapshot_every: must be >= 0");
  MOREAU_CHECK(cfg->status_every >= 0, MOREAU_ERR_INPUT, "option -status_every: must be >= 0");
  return MOREAU_SUCCESS;
}

static double input_overlap_tol(const app_config *cfg)
{
  size_t n = strlen(cfg->particles_file);
  double stop = 0.0;
  if (n > 3 && !strcmp(cfg->particles_file + n - 3, ".h5") && !moreau_option_real("-overlap_stop", &stop))
    return fmax(cfg->overlap_tol, stop);
  return cfg->overlap_tol;
}

/* The MD comparison's time step: -dt when given, else -md_dt_factor (0.1)
 * times the shortest contact time scale (moreau_sim_stiffness_time: about a
 * twentieth of the shortest collision, pi sqrt(m / 2 k_n), and a tenth of
 * the dashpots' relaxation). Collective. */
static moreau_err md_time_step(moreau_sim *sim)
{
  int dt_given, factor_given;
  double factor = 0.1, t;
  MOREAU_CALL(moreau_option_is_set("-dt", &dt_given));
  MOREAU_CALL(moreau_option_is_set("-md_dt_factor", &factor_given));
  if (factor_given) MOREAU_CALL(moreau_option_real("-md_dt_factor", &factor));
  MOREAU_CHECK(!(dt_given && factor_given), MOREAU_ERR_INPUT,
               "option -md_dt_factor: give either -dt or -md_dt_factor, not both");
  MOREAU_CHECK(factor > 0 && factor <= 1, MOREAU_ERR_INPUT, "option -md_dt_factor: must be in (0, 1], got %g", factor);
  if (dt_given) return MOREAU_SUCCESS;
  MOREAU_CALL(moreau_sim_stiffness_time(sim, &t));
  moreau_sim_set_dt(sim, factor * t);
  return MOREAU_SUCCESS;
}

/* Everything up to the first step: options, bodies, walls, distribution. */
static moreau_err setup(MPI_Comm comm, app_config *cfg, moreau_sim **simp)
{
  moreau_sim *sim;
  moreau_materials *materials;
  const moreau_law *law;
  moreau_shapes *shapes = NULL;
  moreau_gen_params gen;
  moreau_err err;
  const double *box_default = NULL;
  double box[6];
  MOREAU_CALL(read_config(cfg));
  MOREAU_CALL(moreau_sim_create(comm, cfg->dim, simp));
  sim = *simp;
  MOREAU_CALL(moreau_sim_set_from_options(sim));
  MOREAU_CALL(moreau_law_from_options(&law));
  MOREAU_CALL(moreau_sim_set_law(sim, law));
  MOREAU_CALL(moreau_materials_from_options(law, &materials));
  MOREAU_CALL(moreau_sim_set_materials(sim, materials));
  MOREAU_CALL(app_shapes_from_options(comm, cfg->dim, &shapes));
  MOREAU_CALL(moreau_sim_set_shapes(sim, &shapes));
  /* A restart reads the same options as its first run did (so that they are
   * checked alike), but its bodies come from the checkpoint. */
  if (cfg->particles_file[0]) {
    if (!cfg->restart[0])
      MOREAU_CALL(
          moreau_read_particles(cfg->particles_file, moreau_sim_bodies(sim), materials, moreau_sim_shapes(sim)));
    moreau_sim_set_input_name(sim, cfg->particles_file);
  } else {
    MOREAU_CALL(moreau_generate_params_from_options(cfg->dim, &gen));
    gen.shapes = moreau_sim_shapes(sim);
    gen.body_shape = gen.shapes ? 1 : 0;
    err = cfg->restart[0] ? MOREAU_SUCCESS : moreau_generate(&gen, moreau_sim_bodies(sim), materials);
    moreau_generate_params_free(&gen);
    MOREAU_CALL(err);
    for (int k = 0; k < cfg->dim; k++) {
      box[k] = gen.lo[k];
      box[cfg->dim + k] = gen.hi[k];
    }
    box_default = box;
  }
  MOREAU_CALL(app_domain_from_options(sim, box_default));
  MOREAU_CALL(moreau_app_walls_from_options(sim, box_default));
  MOREAU_CALL(app_rough_wall_modes(sim));
  if (cfg->restart[0]) {
    MOREAU_CALL(app_checkpoint_restore(sim, cfg->restart));
    MOREAU_CALL(moreau_checkpoint_discard_after(comm, cfg->output_dir, moreau_sim_step_index(sim)));
  }
  MOREAU_CALL(moreau_error_agree(comm, app_rough_from_options(sim, !cfg->restart[0])));
  MOREAU_CALL(moreau_error_agree(comm, app_domain_inertial_number(sim)));
  MOREAU_CALL(app_domain_start_profile(sim, !cfg->restart[0]));
  MOREAU_CALL(moreau_run_analysis_from_options(sim, cfg->output_every, cfg->snapshot_every, &cfg->analysis));
  if (moreau_law_is_explicit(law)) MOREAU_CALL(md_time_step(sim));
  /* Every option has been read by now. */
  MOREAU_CALL(moreau_options_check_unknown());
  /* The overlaps of a checkpoint are the run's own: nothing to refuse; a
   * snapshot may hold the overlaps a run allows (up to -overlap_stop). */
  MOREAU_CALL(moreau_sim_setup(sim, cfg->restart[0] ? HUGE_VAL : input_overlap_tol(cfg)));
  /* Only once every input was accepted: a rejected run leaves no directory. */
  MOREAU_CALL(moreau_output_dir_prepare(comm, cfg->output_dir,
                                        cfg->restart[0]  ? MOREAU_OUTPUT_CONTINUE
                                        : cfg->overwrite ? MOREAU_OUTPUT_OVERWRITE
                                                         : MOREAU_OUTPUT_NEW));
  return MOREAU_SUCCESS;
}

/* The time the run stops at: -t_end, or earlier when -strain_end is reached
 * first at the Lees-Edwards rate; a rough cell's strain rate follows its
 * gap, so its end is the estimate at the current rate (for the ETA; the
 * loop stops on the strain itself). */
static double end_time(const app_config *cfg, const moreau_sim *sim)
{
  moreau_lees_edwards le;
  moreau_rough_cell rc;
  moreau_domain_get_lees_edwards(moreau_sim_domain(sim), &le);
  if (cfg->strain_end > 0 && le.on && le.rate != 0.0) return fmin(cfg->t_end, cfg->strain_end / fabs(le.rate));
  if (cfg->strain_end > 0 && moreau_sim_rough_cell(sim, &rc)) {
    double v = fabs(moreau_sim_walls(sim)->velocity[3 * rc.top + rc.flow]), gap = moreau_sim_rough_gap(sim);
    double left = cfg->strain_end - fabs(moreau_sim_rough_strain(sim));
    if (v > 0 && gap > 0) return fmin(cfg->t_end, moreau_sim_time(sim) + fmax(left, 0.0) * gap / v);
  }
  return cfg->t_end;
}

static int finished(const app_config *cfg, const moreau_sim *sim)
{
  if (cfg->steps >= 0 && moreau_sim_step_index(sim) >= cfg->steps) return 1;
  /* A rough cell's strain rate follows its gap: its strain is measured. */
  if (cfg->strain_end > 0 && moreau_sim_rough_cell(sim, NULL) && fabs(moreau_sim_rough_strain(sim)) >= cfg->strain_end)
    return 1;
  if (moreau_walls_travel_done(moreau_sim_walls(sim))) return 1;
  return moreau_sim_time(sim) >= end_time(cfg, sim) - 0.5 * moreau_sim_dt(sim);
}

/* Whether to checkpoint after this step, agreed by every rank in one small
 * reduction: a signal caught on any rank, or rank 0's wall clock past the
 * interval. *stop says a signal asked the run to end. */
static moreau_err checkpoint_due(const app_config *cfg, const moreau_sim *sim, double last_checkpoint, int *due,
                                 int *stop)
{
  int64_t step = moreau_sim_step_index(sim);
  int flags[2] = {app_signal_caught() != 0, 0};
  if (moreau_sim_rank(sim) == 0 && cfg->checkpoint_wall_interval > 0)
    flags[1] = MPI_Wtime() - last_checkpoint >= cfg->checkpoint_wall_interval;
  MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, flags, 2, MPI_INT, MPI_MAX, moreau_sim_comm(sim)));
  *stop = flags[0];
  *due = flags[0] || flags[1] || (cfg->checkpoint_every > 0 && step % cfg->checkpoint_every == 0);
  return MOREAU_SUCCESS;
}

static moreau_err open_timeseries(const app_config *cfg, const moreau_sim *sim, moreau_run_output **out)
{
  if (cfg->restart[0])
    MOREAU_CALL(moreau_run_output_continue(sim, cfg->output_dir, &cfg->analysis, out));
  else
    MOREAU_CALL(moreau_run_output_create(sim, cfg->output_dir, &cfg->analysis, out));
  return MOREAU_SUCCESS;
}

/* The outputs agree each failure over every rank (a full disk may strike
 * some ranks only): *agreed records that a failure came from them. */
static moreau_err output(moreau_err err, int *agreed)
{
  if (err) *agreed = 1;
  return err;
}

/* The time loop. *stopped says a signal ended it early (after a checkpoint);
 * *agreed that it failed in its outputs, on every rank. */
static moreau_err run(const app_config *cfg, moreau_sim *sim, int *stopped, int *agreed)
{
  moreau_run_output *out;
  double t0 = MPI_Wtime(), last_checkpoint = t0;
  int64_t last_snapshot = -1, last_ckpt = -1, step = moreau_sim_step_index(sim), first_step = step;
  int due = 0, stop = 0;
  /* A restart's first state is the checkpoint's, already in the series. */
  if (!cfg->restart[0]) MOREAU_CALL(output(moreau_run_output_snapshot(sim, cfg->output_dir, &cfg->analysis), agreed));
  last_snapshot = last_ckpt = step;
  MOREAU_CALL(output(open_timeseries(cfg, sim, &out), agreed));
  while (!stop && !finished(cfg, sim)) {
    /* A pressure acts on the faces of the walls as they are now; a load
     * growing in time is taken at the middle of the step. */
    moreau_err err = moreau_walls_update_drive(moreau_sim_walls(sim), moreau_sim_dim(sim),
                                               moreau_sim_time(sim) + 0.5 * moreau_sim_dt(sim));
    if (!err) err = moreau_sim_step(sim);
    if (err) {
      /* The failure of the step is the one to report. */
      moreau_err cleanup = moreau_run_output_destroy(&out);
      MOREAU_CALL(err ? err : cleanup);
    }
    step = moreau_sim_step_index(sim);
    MOREAU_CALL(output(moreau_run_output_step(out, sim), agreed));
    if (step % cfg->output_every == 0) MOREAU_CALL(output(moreau_run_output_row(out, sim), agreed));
    if (cfg->snapshot_every > 0 && step % cfg->snapshot_every == 0) {
      MOREAU_CALL(output(moreau_run_output_snapshot(sim, cfg->output_dir, &cfg->analysis), agreed));
      last_snapshot = step;
    }
    if (cfg->status_every > 0 && step % cfg->status_every == 0)
      moreau_run_output_status(out, sim, MPI_Wtime() - t0, first_step, cfg->steps, end_time(cfg, sim));
    MOREAU_CALL(checkpoint_due(cfg, sim, last_checkpoint, &due, &stop));
    if (due) {
      MOREAU_CALL(output(app_checkpoint_write(sim, cfg->output_dir, (int)cfg->checkpoint_keep), agreed));
      last_checkpoint = MPI_Wtime();
      last_ckpt = step;
    }
  }
  if (last_snapshot != step)
    MOREAU_CALL(output(moreau_run_output_snapshot(sim, cfg->output_dir, &cfg->analysis), agreed));
  if (last_ckpt != step)
    MOREAU_CALL(output(app_checkpoint_write(sim, cfg->output_dir, (int)cfg->checkpoint_keep), agreed));
  if (moreau_sim_rank(sim) == 0) {
    if (stop)
      printf("moreau: stopped by a signal at step %lld after a checkpoint; continue with -restart auto\n",
             (long long)step);
    else {
      int wall = moreau_walls_travel_done(moreau_sim_walls(sim)) - 1;
      if (wall >= 0) printf("moreau: wall %d has moved its -wall%d_stop_travel\n", wall, wall);
      printf("moreau: done, %lld steps in %.1f s; outputs in %s/ (timeseries.csv, snapshots.xmf for ParaView)\n",
             (long long)step, MPI_Wtime() - t0, cfg->output_dir);
    }
  }
  /* Closing writes on rank 0 only: the others learn of its failure here. */
  MOREAU_CALL(output(moreau_error_agree(moreau_sim_comm(sim), moreau_run_output_destroy(&out)), agreed));
  *stopped = stop;
  return MOREAU_SUCCESS;
}

static int wants_help(int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "-help") || !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return 1;
  return 0;
}

/* The lowest rank holding its own message prints it, so an error every rank
 * found (a bad option) is printed once. An I/O failure is the system's (a
 * full disk): its one line names the file and the reason, and the traceback
 * comes with -error_trace only, as for input errors. */
static void report(MPI_Comm comm, moreau_err err, int trace)
{
  int rank, size, mine, first;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  mine = moreau_error_is_local() ? rank : size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (rank != first) return;
  if (err == MOREAU_ERR_IO && !trace)
    fprintf(stderr, "moreau: error: %s\n", moreau_error_message());
  else
    moreau_error_print(trace);
}

int moreau_app_main(int argc, char **argv)
{
  app_config cfg = {0};
  moreau_sim *sim = NULL;
  moreau_err err;
  int trace = 0, code, stopped = 0, agreed = 0;
  MPI_Comm comm;

  if (moreau_app_register_options()) return MOREAU_ERR_INTERNAL;
  /* MPI starts before PETSc so that the checks below can talk; PETSc then
   * leaves MPI_Finalize to us. */
  /* Open MPI's "sm" and "lockedfile" shared-file-pointer components overflow a buffer (glibc
   * aborts the run) when a file's path is longer than about 216 characters,
   * and HDF5's MPI-IO driver opens every file through it although moreau
   * never uses a shared file pointer. A user's own choice is kept. */
  setenv("OMPI_MCA_sharedfp", "individual", 0);
  /* Open MPI's aggregating collective-write components (vulcan, dynamic)
   * drop a failed write on a full disk from 3 ranks on: the dataset write
   * returns success and the snapshot is silently incomplete; two_phase and
   * ROMIO hang there. Each rank writing its own rows reports the failure
   * where it happens. A user's own choice is kept. */
  setenv("OMPI_MCA_fcoll", "individual", 0);
  MPI_Init(&argc, &argv);
  /* A scheduler's signal may come while the run starts: from here on it is
   * only a flag (again after PETSc, which installs handlers of its own). */
  app_signals_install();
  if (!app_command_line_ok(MPI_COMM_WORLD, argc, argv)) {
    MPI_Finalize();
    return MOREAU_ERR_INPUT;
  }
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
  if (PetscInitialize(&argc, &argv, NULL, NULL)) {
    fprintf(stderr, "moreau: error: PETSc could not start\n");
    MPI_Finalize();
    return MOREAU_ERR_RUNTIME;
  }
  comm = PETSC_COMM_WORLD;
  moreau_malloc_defaults();
  moreau_log_register();
  app_signals_install();
  /* A bad -error_trace value is an input error like any other. */
  err = moreau_option_bool("-error_trace", &trace);
  if (!err) err = app_restart_options(comm, cfg.restart, sizeof(cfg.restart));
  /* The checkpoint's run may have had it. */
  if (!err) err = moreau_option_bool("-error_trace", &trace);
  if (!err) err = setup(comm, &cfg, &sim);
  err = moreau_error_agree(comm, err);
  if (!err) {
    err = run(&cfg, sim, &stopped, &agreed);
    if (err && agreed) {
      report(comm, err, trace);
    } else if (err && moreau_sim_stats(sim)->unstable) {
      /* Every rank agreed on this failure: one message, and the state that
       * failed goes into a snapshot for diagnosis. */
      report(comm, err, trace);
      if (moreau_run_output_snapshot(sim, cfg.output_dir, &cfg.analysis)) report(comm, MOREAU_ERR_IO, trace);
    } else if (err) {
      /* Mid-run failures may strike one rank while the others wait in a
       * collective: print here and take the whole job down. */
      moreau_error_print(1);
      MPI_Abort(comm, err == MOREAU_ERR_INPUT ? MOREAU_ERR_INPUT : MOREAU_ERR_RUNTIME);
    }
  } else {
    report(comm, err, trace);
  }
  if (moreau_sim_destroy(&sim) && !err) {
    moreau_error_print(1);
    err = MOREAU_ERR_RUNTIME;
  }
  code = err == MOREAU_SUCCESS ? (stopped ? APP_EXIT_CHECKPOINTED : 0)
                               : (err == MOREAU_ERR_INPUT ? MOREAU_ERR_INPUT : MOREAU_ERR_RUNTIME);
  moreau_malloc_keep_freed();
  PetscFinalize();
  MPI_Finalize();
  return code;
}
