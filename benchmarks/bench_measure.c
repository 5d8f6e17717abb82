#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench_nlgs.h"

double bench_cpu_time(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

moreau_err bench_moreau_solve(void *ctx, int sweeps, int warm, bench_probe *out)
{
  bench_problem *prob = ctx;
  moreau_sim *sim = prob->sim;
  moreau_nlgs *nlgs = moreau_sim_nlgs(sim);
  MPI_Comm comm = moreau_sim_comm(sim);
  moreau_nlgs_problem np = {moreau_sim_bodies(sim),   moreau_sim_walls(sim), moreau_sim_materials(sim),
                            moreau_sim_contacts(sim), prob->u_minus,         moreau_sim_part(sim),
                            moreau_sim_dt(sim)};
  moreau_nlgs_result res;
  int64_t before = moreau_nlgs_updates(nlgs), updates;
  double t0, t, c0, c;
  /* The bodies restart from the free velocities either way: a warm solve
   * re-applies the forces it starts from. Only a cold one reseeds, so that
   * consecutive warm calls keep drawing fresh sweep orders. */
  bench_problem_restore(prob);
  moreau_nlgs_set_warm_start(nlgs, warm);
  if (!warm) moreau_nlgs_set_seed(nlgs, prob->seed);
  moreau_nlgs_set_iterations(nlgs, sweeps, sweeps);
  /* A zero tolerance never converges, so exactly `sweeps` sweeps run. */
  moreau_nlgs_set_tolerance(nlgs, 0.0, MOREAU_NLGS_NORM_MEAN);
  MOREAU_MPI_CALL(MPI_Barrier(comm));
  t0 = MPI_Wtime();
  c0 = bench_cpu_time();
  MOREAU_CALL(moreau_nlgs_solve(nlgs, &np, &res));
  c = bench_cpu_time() - c0;
  t = MPI_Wtime() - t0;
  MOREAU_CHECK(res.iterations == sweeps, MOREAU_ERR_RUNTIME, "asked for %d sweeps, got %d", sweeps, res.iterations);
  updates = moreau_nlgs_updates(nlgs) - before;
  MOREAU_MPI_CALL(MPI_Allreduce(&t, &out->seconds, 1, MPI_DOUBLE, MPI_MAX, comm));
  MOREAU_MPI_CALL(MPI_Allreduce(&c, &out->cpu_seconds, 1, MPI_DOUBLE, MPI_SUM, comm));
  MOREAU_MPI_CALL(MPI_Allreduce(&updates, &out->updates, 1, MPI_INT64_T, MPI_SUM, comm));
  MOREAU_CALL(bench_carried_share(prob, moreau_sim_contacts(sim)->force, &out->share));
  return MOREAU_SUCCESS;
}

moreau_err bench_fastest(bench_solve_fn solve, void *ctx, int sweeps, int repeats, bench_probe *best)
{
  MOREAU_CALL(solve(ctx, sweeps, 0, best));
  for (int i = 1; i < repeats; i++) {
    bench_probe pr;
    MOREAU_CALL(solve(ctx, sweeps, 0, &pr));
    if (pr.cpu_seconds < best->cpu_seconds) *best = pr;
  }
  return MOREAU_SUCCESS;
}

moreau_err bench_run_moreau(const bench_params *p, bench_problem *prob, moreau_nlgs_order order, int block,
                            bench_result *r)
{
  bench_probe setup;
  memset(r, 0, sizeof(*r));
  if (order == MOREAU_NLGS_ORDER_RANDOM)
    snprintf(r->name, sizeof(r->name), "moreau NLGS, random order");
  else
    snprintf(r->name, sizeof(r->name), "moreau NLGS, %s of %d", order == MOREAU_NLGS_ORDER_BLOCKS ? "blocks" : "layers",
             block);
  r->setup_in_solve = 1;
  moreau_nlgs_set_order(moreau_sim_nlgs(prob->sim), order, block);
  MOREAU_CALL(bench_fastest(bench_moreau_solve, prob, 0, p->repeats, &setup));
  r->setup_seconds = setup.seconds;
  MOREAU_CALL(bench_measure(bench_moreau_solve, prob, p, moreau_sim_size(prob->sim), 0.0, r));
  return MOREAU_SUCCESS;
}

/* Sweeps per call on the trajectory after k sweeps: one at first, then the
 * power of two nearest below k / 64, so that the calls' setup costs at most
 * a few percent, the target is located within 1/64 of the sweeps, and every
 * power of two is a call boundary. */
static int chunk_after(int k)
{
  int c = 1;
  while (2 * c <= k / 64)
    c *= 2;
  return c;
}

moreau_err bench_measure(bench_solve_fn solve, void *ctx, const bench_params *p, int ranks, double budget,
                         bench_result *r)
{
  bench_probe pr;
  int k = 0;
  double share = 0.0;

  MOREAU_CALL(bench_fastest(solve, ctx, p->sweeps, p->repeats, &pr));
  r->sweeps = p->sweeps;
  r->sweep_seconds = pr.seconds;
  r->sweep_cpu_seconds = pr.cpu_seconds;
  r->updates_per_second_per_core = (double)pr.updates / (pr.seconds * ranks);
  r->updates_per_cpu_second = (double)pr.updates / pr.cpu_seconds;
  r->share_after_sweeps = pr.share;

  /* One cold-started iteration, in calls of a few sweeps, each continuing
   * from the forces the last one left, timed call by call. */
  r->trajectory_seconds = r->trajectory_cpu_seconds = 0.0;
  r->reached = 0;
  if (budget < 0.0) return MOREAU_SUCCESS;
  while (k < p->max_sweeps && !(budget > 0.0 && r->trajectory_cpu_seconds >= budget)) {
    int m = chunk_after(k);
    if (m > p->max_sweeps - k) m = p->max_sweeps - k;
    MOREAU_CALL(solve(ctx, m, k > 0, &pr));
    k += m;
    share = pr.share;
    r->trajectory_seconds += pr.seconds;
    r->trajectory_cpu_seconds += pr.cpu_seconds;
    if ((k & (k - 1)) == 0 && r->curve_n < BENCH_CURVE_MAX) r->curve_share[r->curve_n++] = share;
    if (share >= p->target) {
      r->reached = 1;
      break;
    }
  }
  r->trajectory_sweeps = k;
  r->trajectory_share = share;
  if (r->reached) {
    MOREAU_CALL(solve(ctx, k, 0, &pr));
    r->race_seconds = pr.seconds;
    r->race_cpu_seconds = pr.cpu_seconds;
    r->race_share = pr.share;
  }
  return MOREAU_SUCCESS;
}

static void cpu_model(char *model, size_t len)
{
  char line[512];
  FILE *f = fopen("/proc/cpuinfo", "r");
  snprintf(model, len, "unknown");
  if (!f) return;
  while (fgets(line, sizeof(line), f)) {
    char *colon = strchr(line, ':');
    if (strncmp(line, "model name", 10) || !colon) continue;
    snprintf(model, len, "%s", colon + 2);
    model[strcspn(model, "\n")] = '\0';
    break;
  }
  fclose(f);
}

void bench_print_problem(MPI_Comm comm, const bench_params *p, const bench_problem *prob)
{
  int rank, size;
  char model[256];
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (rank) return;
  cpu_model(model, sizeof(model));
  printf("\nNLGS benchmark: %lld %s, %lld contacts (%lld with walls), mu %g, dt %g, %d rank(s), CPU %s\n",
         (long long)prob->n_bodies, p->dim == 2 ? "disks" : "spheres", (long long)prob->n_contacts,
         (long long)prob->n_wall_contacts, p->mu, moreau_sim_dt(prob->sim), size, model);
  if (prob->settle_steps)
    printf("pile settled in %lld steps (%.1f s)%s%s\n", (long long)prob->settle_steps, prob->settle_seconds,
           prob->packing_path[0] ? ", cached in " : "", prob->packing_path);
  else
    printf("pile read from %s\n", prob->packing_path);
  printf("cold start, zero tolerance (fixed sweep counts); target: walls carry %.0f%% of the weight\n\n",
         100.0 * p->target);
}

/* Processor time of the cold-started iteration in calls, or of the one
 * uninterrupted solve to the target, with the setup when the solve times
 * leave it out. */
static double trajectory_total(const bench_result *r)
{
  return r->trajectory_cpu_seconds + (r->setup_in_solve ? 0.0 : r->setup_seconds);
}

static double race_total(const bench_result *r)
{
  return r->race_cpu_seconds + (r->setup_in_solve ? 0.0 : r->setup_seconds);
}

static const char *short_name(const char *name) { return strncmp(name, "Siconos ", 8) ? name : name + 8; }

void bench_print_results(MPI_Comm comm, const bench_params *p, const bench_result *r, int n)
{
  int rank, pct = (int)lround(100.0 * p->target);
  MPI_Comm_rank(comm, &rank);
  if (rank) return;
  printf("throughput: cold solves of %d sweeps, fastest of %d\n", p->sweeps, p->repeats);
  printf("%-38s %9s %9s %9s %15s %15s %9s\n", "solver", "setup[s]", "wall[s]", "cpu[s]", "updates/s/core",
         "updates/cpu-s", "carried");
  for (int i = 0; i < n; i++)
    printf("%-38s %9.4f %9.4f %9.4f %15.4g %15.4g %8.2f%%\n", r[i].name, r[i].setup_seconds, r[i].sweep_seconds,
           r[i].sweep_cpu_seconds, r[i].updates_per_second_per_core, r[i].updates_per_cpu_second,
           100.0 * r[i].share_after_sweeps);

  printf("\ncold start until the walls carry %d%% of the weight (one iteration, in calls of <= k/64 sweeps)\n", pct);
  printf("%-38s %8s %9s %9s %9s %12s  %s\n", "solver", "sweeps", "carried", "wall[s]", "cpu[s]", "cpu+setup[s]", "");
  for (int i = 0; i < n; i++) {
    const bench_result *x = &r[i];
    if (!x->trajectory_sweeps) continue;
    printf("%-38s %8d %8.2f%% %9.3f %9.3f %12.3f  %s\n", x->name, x->trajectory_sweeps, 100.0 * x->trajectory_share,
           x->trajectory_seconds, x->trajectory_cpu_seconds, trajectory_total(x),
           x->reached ? "reached"
                      : (x->trajectory_sweeps >= p->max_sweeps ? "stopped at -max_sweeps" : "stopped at -budget"));
  }
  printf("\nthe same number of sweeps in one cold solve (what reaching %d%% costs without the calls' restarts)\n", pct);
  printf("%-38s %8s %9s %9s %9s %12s\n", "solver", "sweeps", "carried", "wall[s]", "cpu[s]", "cpu+setup[s]");
  for (int i = 0; i < n; i++) {
    const bench_result *x = &r[i];
    if (!x->reached) continue;
    printf("%-38s %8d %8.2f%% %9.3f %9.3f %12.3f\n", x->name, x->trajectory_sweeps, 100.0 * x->race_share,
           x->race_seconds, x->race_cpu_seconds, race_total(x));
  }
  printf("\nupdates/s/core: by wall time; updates/cpu-s: by processor time (the fairer figure on a shared\n"
         "machine). moreau's solve times include its setup (building the sweep records); Siconos's exclude\n"
         "the assembly of W (setup), which cpu+setup adds.\n");

  printf("\nshare of the weight carried after k sweeps of the cold-started iteration:\n%-8s", "k");
  for (int i = 0; i < n; i++)
    printf(" %24.24s", short_name(r[i].name));
  printf("\n");
  for (int j = 0; j < BENCH_CURVE_MAX; j++) {
    int any = 0;
    for (int i = 0; i < n; i++)
      any |= j < r[i].curve_n;
    if (!any) break;
    printf("%-8d", 1 << j);
    for (int i = 0; i < n; i++)
      if (j < r[i].curve_n)
        printf(" %23.2f%%", 100.0 * r[i].curve_share[j]);
      else
        printf(" %24s", "");
    printf("\n");
  }

  for (int k = 0; k < n * n; k++) {
    const bench_result *a = &r[k / n], *b = &r[k % n];
    if (a == b || strncmp(a->name, "moreau ", 7) || (!strncmp(b->name, "moreau ", 7) && b < a)) continue;
    printf("\n%s vs %s:\n  %.2fx the contact updates per processor second (%.2fx by wall time)\n", a->name, b->name,
           a->updates_per_cpu_second / b->updates_per_cpu_second,
           a->updates_per_second_per_core / b->updates_per_second_per_core);
    if (!a->reached || !b->trajectory_sweeps) continue;
    if (b->reached)
      printf("  %.2fx faster to %d%% of the weight by processor time with setup in one solve (%.2fx by wall "
             "time; %.2fx in calls)\n",
             race_total(b) / race_total(a), pct, b->race_seconds / a->race_seconds,
             trajectory_total(b) / trajectory_total(a));
    else
      printf("  after %.3g processor seconds (%.2fx moreau's time to %d%%) it carries only %.2f%% of the weight\n",
             b->trajectory_cpu_seconds, b->trajectory_cpu_seconds / a->trajectory_cpu_seconds, pct,
             100.0 * b->trajectory_share);
  }
}
