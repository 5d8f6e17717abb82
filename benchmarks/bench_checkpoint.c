/* Checkpoint cost against body count and rank count (issue 8): the time to
 * write and to read back a checkpoint of a 2D packing, its size, and both
 * as a fraction of the time of one step at a fixed number of sweeps. Not a
 * test: run by hand (benchmarks/README.md).
 *
 *   mpiexec -n 2 benchmarks/bench_checkpoint -n 100000 -sweeps 100 -repeats 3 -dir /tmp/ckbench
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "moreau/checkpoint.h"
#include "moreau/generate.h"
#include "moreau/sim.h"

typedef struct {
  int64_t n;
  int sweeps, repeats;
  const char *dir;
} bench_args;

static int parse(int argc, char **argv, bench_args *a)
{
  a->n = 10000;
  a->sweeps = 100;
  a->repeats = 3;
  a->dir = "ckpt_bench";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "-n"))
      a->n = atoll(argv[i + 1]);
    else if (!strcmp(argv[i], "-sweeps"))
      a->sweeps = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "-repeats"))
      a->repeats = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "-dir"))
      a->dir = argv[i + 1];
    else
      return 0;
  }
  return a->n > 0 && a->sweeps > 0 && a->repeats > 0 && argc % 2 == 1;
}

/* A square box holding n lattice sites of radius 0.5 with walls around. */
static moreau_err make_scene(MPI_Comm comm, int64_t n, moreau_sim **simp)
{
  moreau_sim *sim;
  moreau_gen_params gen;
  double side = ceil(sqrt((double)n)) * 1.0 * (1.0 + MOREAU_GEN_LATTICE_GAP), g[3] = {0, -9.81, 0};
  moreau_pair_law law = {.mu = 0.5, .e_n = 0, .e_t = 0};
  memset(&gen, 0, sizeof(gen));
  gen.type = MOREAU_GEN_LATTICE;
  gen.n = n;
  gen.hi[0] = side * 1.0001;
  gen.hi[1] = side * 1.0001;
  gen.radius = 0.5;
  gen.polydispersity = 0.0;
  gen.jitter = 0.0;
  gen.seed = 7;
  MOREAU_CALL(moreau_sim_create(comm, 2, simp));
  sim = *simp;
  moreau_sim_set_dt(sim, 1e-3);
  moreau_sim_set_gravity(sim, g);
  MOREAU_CALL(moreau_materials_set_pair(moreau_sim_materials(sim), 0, 0, &law));
  MOREAU_CALL(moreau_generate(&gen, moreau_sim_bodies(sim), moreau_sim_materials(sim)));
  for (int k = 0; k < 2; k++) {
    double p[3] = {0, 0, 0}, nrm[3] = {0, 0, 0};
    nrm[k] = 1.0;
    MOREAU_CALL(moreau_walls_add(moreau_sim_walls(sim), p, nrm, MOREAU_WALL_FIXED, NULL, 0, 0, 0, NULL));
    p[k] = gen.hi[k];
    nrm[k] = -1.0;
    MOREAU_CALL(moreau_walls_add(moreau_sim_walls(sim), p, nrm, MOREAU_WALL_FIXED, NULL, 0, 0, 0, NULL));
  }
  MOREAU_CALL(moreau_sim_setup(sim, 0.01));
  return MOREAU_SUCCESS;
}

static void fill_checkpoint(const moreau_sim *sim, moreau_checkpoint *ck)
{
  memset(ck, 0, sizeof(*ck));
  moreau_sim_run_state(sim, &ck->run);
  ck->bodies = moreau_sim_bodies(sim);
  ck->history = moreau_sim_contacts(sim);
  ck->walls = moreau_sim_walls(sim);
  moreau_nlgs_get_rng(moreau_sim_nlgs(sim), ck->rng);
  moreau_part_get_map(moreau_sim_part(sim), &ck->map);
  ck->options = "-benchmark bench_checkpoint";
}

/* Reads the newest checkpoint into fresh containers, as a restart does. */
static moreau_err read_back(const moreau_sim *sim, const char *path)
{
  moreau_checkpoint ck;
  moreau_err err;
  memset(&ck, 0, sizeof(ck));
  MOREAU_CALL(moreau_bodies_create(moreau_sim_comm(sim), 2, &ck.bodies));
  MOREAU_CALL(moreau_contacts_create(0, &ck.history));
  MOREAU_CALL(moreau_walls_create(&ck.walls));
  err = moreau_checkpoint_read(path, moreau_sim_comm(sim), 2, &ck);
  moreau_checkpoint_free(&ck);
  MOREAU_CALL(moreau_bodies_destroy(&ck.bodies));
  MOREAU_CALL(moreau_contacts_destroy(&ck.history));
  MOREAU_CALL(moreau_walls_destroy(&ck.walls));
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static moreau_err run(MPI_Comm comm, const bench_args *a)
{
  moreau_sim *sim;
  moreau_checkpoint ck;
  char path[4096];
  double t, step_s, write_s[64], read_s[64];
  int rank, size, reps = a->repeats > 64 ? 64 : a->repeats;
  struct stat st;
  MOREAU_MPI_CALL(MPI_Comm_rank(comm, &rank));
  MOREAU_MPI_CALL(MPI_Comm_size(comm, &size));
  MOREAU_CALL(make_scene(comm, a->n, &sim));
  moreau_nlgs_set_tolerance(moreau_sim_nlgs(sim), 0.0, MOREAU_NLGS_NORM_MEAN);
  moreau_nlgs_set_iterations(moreau_sim_nlgs(sim), a->sweeps, a->sweeps);
  MOREAU_CALL(moreau_sim_step(sim));
  MOREAU_MPI_CALL(MPI_Barrier(comm));
  t = MPI_Wtime();
  MOREAU_CALL(moreau_sim_step(sim));
  step_s = MPI_Wtime() - t;
  for (int r = 0; r < reps; r++) {
    fill_checkpoint(sim, &ck);
    MOREAU_MPI_CALL(MPI_Barrier(comm));
    t = MPI_Wtime();
    MOREAU_CALL(moreau_checkpoint_write(&ck, a->dir, 1));
    write_s[r] = MPI_Wtime() - t;
    snprintf(path, sizeof(path), "%s/checkpoints/ckpt_%08lld.h5", a->dir, (long long)moreau_sim_step_index(sim));
    MOREAU_MPI_CALL(MPI_Barrier(comm));
    t = MPI_Wtime();
    MOREAU_CALL(read_back(sim, path));
    read_s[r] = MPI_Wtime() - t;
  }
  qsort(write_s, (size_t)reps, sizeof(double), cmp_double);
  qsort(read_s, (size_t)reps, sizeof(double), cmp_double);
  if (rank == 0 && stat(path, &st) == 0)
    printf("ranks %d bodies %lld contacts %lld size_MB %.2f step_s(%d sweeps) %.4g write_s %.4g read_s %.4g "
           "write/step %.3g read/step %.3g cost_of_one_per_10min %.3g%%\n",
           size, (long long)a->n, (long long)moreau_sim_stats(sim)->n_contacts_global, st.st_size / 1e6, a->sweeps,
           step_s, write_s[reps / 2], read_s[reps / 2], write_s[reps / 2] / step_s, read_s[reps / 2] / step_s,
           100.0 * write_s[reps / 2] / 600.0);
  MOREAU_CALL(moreau_sim_destroy(&sim));
  return MOREAU_SUCCESS;
}

int main(int argc, char **argv)
{
  bench_args a;
  moreau_err err;
  MPI_Init(&argc, &argv);
  moreau_malloc_defaults();
  if (!parse(argc, argv, &a)) {
    fprintf(stderr, "usage: bench_checkpoint [-n bodies] [-sweeps k] [-repeats r] [-dir DIR]\n");
    moreau_malloc_keep_freed();
    MPI_Finalize();
    return 2;
  }
  err = run(MPI_COMM_WORLD, &a);
  if (err) {
    moreau_error_print(1);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  moreau_malloc_keep_freed();
  MPI_Finalize();
  return 0;
}
