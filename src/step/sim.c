#include <math.h>
#include <string.h>

#include "moreau/log.h"
#include "sim_private.h"

const moreau_option_spec moreau_sim_options[] = {
    {"-dt", "<real>", "2e-4", "time step"},
    {"-gravity", "<gx,gy[,gz]>", "0,-9.81", "gravity acceleration (2D: two values, 3D: three; 3D default 0,0,-9.81)"},
    {"-alert", "<real>", "0", "alert distance of contact detection; 0: a tenth of the largest radius"},
    {"-detect_skin", "<real>", "-1",
     "detection keeps the pairs within alert + skin and builds them again only when a body may have moved half the "
     "skin (the contacts do not depend on it); 0: a build at every step; < 0: half the largest radius"},
    {"-overlap_stop", "<real>", "0.25",
     "stop the run (exit 1, state in a last snapshot) when an overlap exceeds this fraction of the smaller radius; "
     "0: never"},
    {NULL, NULL, NULL, NULL}};

static moreau_err create_pieces(moreau_sim *sim)
{
  moreau_pair_law pair = {.mu = 0.5, .e_n = 0.0, .e_t = 0.0};
  int width = moreau_law_state_width(sim->law);
  MOREAU_CALL(moreau_domain_create(sim->dim, &sim->domain));
  MOREAU_CALL(moreau_bodies_create(sim->comm, sim->dim, &sim->bodies));
  MOREAU_CALL(moreau_walls_create(&sim->walls));
  MOREAU_CALL(moreau_materials_create(1, &pair, 1.0, &sim->materials));
  MOREAU_CALL(moreau_contacts_create(width, &sim->contacts));
  MOREAU_CALL(moreau_contacts_create_history(width, &sim->history));
  MOREAU_CALL(moreau_detector_create(&sim->detector));
  MOREAU_CALL(moreau_nlgs_create(sim->comm, sim->dim, sim->law, &sim->nlgs));
  MOREAU_CALL(moreau_part_create(sim->comm, &sim->part));
  moreau_part_set_domain(sim->part, sim->domain);
  return MOREAU_SUCCESS;
}

moreau_err moreau_sim_create(MPI_Comm comm, int dim, moreau_sim **simp)
{
  moreau_sim *sim;
  moreau_err err;
  MOREAU_CHECK(dim == 2 || dim == 3, MOREAU_ERR_INPUT, "option -dim: must be 2 or 3, got %d", dim);
  MOREAU_CALL(moreau_calloc(1, sizeof(*sim), &sim));
  sim->comm = MPI_COMM_NULL;
  *simp = sim;
  sim->dim = dim;
  sim->law = moreau_law_default();
  sim->dt = 1e-3;
  sim->overlap_stop = 0.25;
  sim->skin = -1.0;
  MOREAU_MPI_CALL(MPI_Comm_dup(comm, &sim->comm));
  MOREAU_MPI_CALL(MPI_Comm_rank(sim->comm, &sim->rank));
  MOREAU_MPI_CALL(MPI_Comm_size(sim->comm, &sim->size));
  err = create_pieces(sim);
  if (err) {
    /* The failure to create is the one to report, not a failure to clean up. */
    moreau_err cleanup = moreau_sim_destroy(simp);
    MOREAU_CALL(err ? err : cleanup);
  }
  return MOREAU_SUCCESS;
}

moreau_err moreau_sim_set_law(moreau_sim *sim, const moreau_law *law)
{
  int width = moreau_law_state_width(law);
  MOREAU_CHECK(sim->contacts->n == 0 && sim->history->n == 0, MOREAU_ERR_INTERNAL,
               "moreau_sim_set_law: the law is chosen before there are contacts");
  MOREAU_CALL(moreau_contacts_destroy(&sim->contacts));
  MOREAU_CALL(moreau_contacts_destroy(&sim->history));
  MOREAU_CALL(moreau_contacts_create(width, &sim->contacts));
  MOREAU_CALL(moreau_contacts_create_history(width, &sim->history));
  moreau_nlgs_set_law(sim->nlgs, law);
  sim->law = law;
  return MOREAU_SUCCESS;
}

moreau_err moreau_sim_set_shapes(moreau_sim *sim, moreau_shapes **shapes)
{
  moreau_shapes *t = *shapes;
  moreau_err err = MOREAU_SUCCESS;
  *shapes = NULL;
  for (moreau_lid s = 0; t && s < t->n_shapes && !err; s++) {
    /* The contact key holds a contactor index in 16 bits (detect.c). */
    if (t->count[s] >= 1 << 15)
      err = moreau_error_raise(MOREAU_ERR_INPUT, __FILE__, __LINE__, __func__,
                               "shape %lld has %lld contactors; at most 32767 are supported", (long long)s + 1,
                               (long long)t->count[s]);
  }
  if (err) {
    MOREAU_CALL(moreau_shapes_destroy(&t));
    return err;
  }
  MOREAU_CALL(moreau_shapes_destroy(&sim->shapes));
  sim->shapes = t;
  sim->bodies->shapes = t;
  return MOREAU_SUCCESS;
}

moreau_err moreau_sim_stiffness_time(const moreau_sim *sim, double *t)
{
  const moreau_bodies *b = sim->bodies;
  const moreau_materials *m = sim->materials;
  /* Smallest mass; minus the largest stiffness and dampings (one MIN). */
  double mk[4] = {HUGE_VAL, 0.0, 0.0, 0.0};
  for (moreau_lid i = 0; i < b->n_owned; i++)
    if (b->inv_mass[i] > 0) mk[0] = fmin(mk[0], 1.0 / b->inv_mass[i]);
  /* A force-driven wall is a body along its normal (every rank has every wall). */
  for (int i = 0; i < sim->walls->n; i++)
    if (sim->walls->mode[i] == MOREAU_WALL_FORCE) mk[0] = fmin(mk[0], sim->walls->mass[i]);
  for (int i = 0; i < m->n * m->n; i++) {
    mk[1] = fmin(mk[1], -m->pair[i].k_n);
    mk[2] = fmin(mk[2], -m->pair[i].g_n);
    mk[3] = fmin(mk[3], -m->pair[i].g_t);
  }
  MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, mk, 4, MPI_DOUBLE, MPI_MIN, sim->comm));
  MOREAU_CHECK(isfinite(mk[0]) && mk[1] < 0, MOREAU_ERR_INPUT,
               "the MD time scale sqrt(m / k_n) needs a body of finite mass and a positive stiffness");
  *t = sqrt(-mk[0] / mk[1]);
  /* The dashpots are explicit too: a viscous force g u relaxes u in m / g. */
  if (mk[2] < 0) *t = fmin(*t, -mk[0] / mk[2]);
  if (mk[3] < 0) *t = fmin(*t, -mk[0] / mk[3]);
  return MOREAU_SUCCESS;
}

moreau_err moreau_sim_destroy(moreau_sim **simp)
{
  moreau_sim *sim = *simp;
  if (!sim) return MOREAU_SUCCESS;
  MOREAU_CALL(moreau_domain_destroy(&sim->domain));
  MOREAU_CALL(moreau_bodies_destroy(&sim->bodies));
  MOREAU_CALL(moreau_walls_destroy(&sim->walls));
  MOREAU_CALL(moreau_materials_destroy(&sim->materials));
  MOREAU_CALL(moreau_contacts_destroy(&sim->contacts));
  MOREAU_CALL(moreau_contacts_destroy(&sim->history));
  MOREAU_CALL(moreau_detector_destroy(&sim->detector));
  MOREAU_CALL(moreau_nlgs_destroy(&sim->nlgs));
  MOREAU_CALL(moreau_part_destroy(&sim->part));
  MOREAU_CALL(moreau_shapes_destroy(&sim->shapes));
  moreau_free(&sim->u_minus_own);
  if (sim->comm != MPI_COMM_NULL) MOREAU_MPI_CALL(MPI_Comm_free(&sim->comm));
  moreau_free(simp);
  return MOREAU_SUCCESS;
}

moreau_err moreau_sim_set_from_options(moreau_sim *sim)
{
  double g[3] = {0, 0, 0};
  int ng = 3, given;
  MOREAU_CALL(moreau_option_real("-dt", &sim->dt));
  MOREAU_CHECK(sim->dt > 0, MOREAU_ERR_INPUT, "option -dt: must be positive, got %g", sim->dt);
  MOREAU_CALL(moreau_option_is_set("-gravity", &given));
  MOREAU_CALL(moreau_option_reals("-gravity", g, &ng));
  if (!given && sim->dim == 3) {
    g[0] = g[1] = 0.0;
    g[2] = -9.81;
    ng = 3;
  }
  MOREAU_CHECK(ng == sim->dim, MOREAU_ERR_INPUT, "option -gravity: expected %d values for a %dD run, got %d", sim->dim,
               sim->dim, ng);
  memcpy(sim->gravity, g, sizeof(g));
  moreau_nlgs_set_down(sim->nlgs, g);
  MOREAU_CALL(moreau_option_real("-alert", &sim->alert));
  MOREAU_CHECK(sim->alert >= 0, MOREAU_ERR_INPUT, "option -alert: must be >= 0, got %g", sim->alert);
  MOREAU_CALL(moreau_option_real("-detect_skin", &sim->skin));
  MOREAU_CHECK(isfinite(sim->skin), MOREAU_ERR_INPUT, "option -detect_skin: must be a finite number, got %g",
               sim->skin);
  MOREAU_CALL(moreau_option_real("-overlap_stop", &sim->overlap_stop));
  MOREAU_CHECK(sim->overlap_stop >= 0, MOREAU_ERR_INPUT, "option -overlap_stop: must be >= 0, got %g",
               sim->overlap_stop);
  MOREAU_CALL(moreau_nlgs_set_from_options(sim->nlgs));
  MOREAU_CHECK(!moreau_nlgs_needs_down(sim->nlgs) || g[0] != 0.0 || g[1] != 0.0 || g[2] != 0.0, MOREAU_ERR_INPUT,
               "option -nlgs_order layers: needs a nonzero -gravity (the layers are across it)");
  MOREAU_CALL(moreau_part_set_from_options(sim->part));
  return MOREAU_SUCCESS;
}

/* Names a body as its input names it: a CSV file's data row is its gid + 1;
 * a snapshot (or a generator) carries gids. */
static int input_has_rows(const moreau_sim *sim)
{
  size_t n = strlen(sim->input_name);
  return n > 4 && !strcmp(sim->input_name + n - 4, ".csv");
}

/* The initial overlaps, with walls too: a body outside the walls overlaps
 * one by more than its radius. */
static moreau_err check_overlaps(moreau_sim *sim, double tol)
{
  moreau_contacts *c = sim->contacts;
  const moreau_bodies *b = sim->bodies;
  double worst = 0.0;
  moreau_lid wk = -1;
  moreau_err err = MOREAU_SUCCESS;
  const char *what = input_has_rows(sim) ? "data row" : "body with gid";
  const char *whats = input_has_rows(sim) ? "data rows" : "bodies with gids";
  const long long shift = input_has_rows(sim) ? 1 : 0;
  const moreau_lid *by_gid;
  MOREAU_CALL(moreau_part_owned_by_gid(sim->part, b, &by_gid));
  MOREAU_CALL(moreau_detect(sim->detector, sim->domain, b, sim->walls, 0.0, by_gid, c));
  for (moreau_lid k = 0; k < c->n; k++) {
    double ra, rb;
    moreau_contacts_radii(c, b, k, &ra, &rb);
    double r = c->b[k] >= 0 ? fmin(ra, rb) : ra, rel = -c->gap[k] / r;
    if (rel > tol && rel > worst) {
      worst = rel;
      wk = k;
    }
  }
  if (wk >= 0 && c->b[wk] < 0)
    err = moreau_error_raise(MOREAU_ERR_INPUT, __FILE__, __LINE__, __func__,
                             "%s%s%s %lld overlaps wall %d by %.3g of its radius (tolerance %.3g; is it outside the "
                             "walls?)",
                             sim->input_name, sim->input_name[0] ? ": " : "", what, (long long)c->gid_a[wk] + shift,
                             -(c->b[wk] + 1), worst, tol);
  else if (wk >= 0)
    err = moreau_error_raise(MOREAU_ERR_INPUT, __FILE__, __LINE__, __func__,
                             "%s%s%s %lld and %lld overlap by %.3g of the smaller radius (tolerance %.3g)",
                             sim->input_name, sim->input_name[0] ? ": " : "", whats, (long long)c->gid_a[wk] + shift,
                             (long long)c->gid_b[wk] + shift, worst, tol);
  moreau_contacts_clear(c);
  MOREAU_CALL(moreau_error_agree(sim->comm, err));
  return MOREAU_SUCCESS;
}

/* The bodies must fit a box whose size is a finite number: a grid of cells
 * cannot be laid over coordinates from -1e308 to 1e308. */
static moreau_err check_extent(const moreau_sim *sim)
{
  const moreau_bodies *b = sim->bodies;
  double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  static const char axes[] = "xyz";
  for (moreau_lid i = 0; i < b->n_owned; i++)
    for (int k = 0; k < sim->dim; k++) {
      MOREAU_CHECK(isfinite(b->x[3 * i + k]), MOREAU_ERR_INPUT, "body %lld: its position is not finite",
                   (long long)b->gid[i]);
      lo[k] = fmin(lo[k], b->x[3 * i + k]);
      hi[k] = fmax(hi[k], b->x[3 * i + k]);
    }
  for (int k = 0; k < 3; k++)
    lo[k] = -lo[k];
  MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, lo, 3, MPI_DOUBLE, MPI_MAX, sim->comm));
  MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, hi, 3, MPI_DOUBLE, MPI_MAX, sim->comm));
  for (int k = 0; k < sim->dim; k++)
    MOREAU_CHECK(!(hi[k] >= -lo[k]) || (isfinite(hi[k] + lo[k]) && hi[k] + lo[k] < 1e300), MOREAU_ERR_INPUT,
                 "the bodies span %g to %g along %c: too far apart to lay a grid of cells over", -lo[k], hi[k],
                 axes[k]);
  return MOREAU_SUCCESS;
}

/* Every body's material and shape exist, and the largest radius of this
 * rank's bodies. */
static moreau_err check_bodies(const moreau_sim *sim, double *rmax)
{
  const moreau_bodies *b = sim->bodies;
  moreau_lid n_shapes = sim->shapes ? sim->shapes->n_shapes : 0;
  *rmax = 0.0;
  for (moreau_lid i = 0; i < b->n_owned; i++) {
    MOREAU_CHECK(b->material[i] >= 0 && b->material[i] < sim->materials->n, MOREAU_ERR_INPUT,
                 "body %lld: material %d does not exist (there are %d)", (long long)b->gid[i], b->material[i],
                 sim->materials->n);
    MOREAU_CHECK(b->shape[i] >= 0 && b->shape[i] <= n_shapes, MOREAU_ERR_INPUT,
                 "body %lld: shape %d does not exist (there are %lld; 0 is a plain %s)", (long long)b->gid[i],
                 b->shape[i], (long long)n_shapes, sim->dim == 2 ? "disk" : "sphere");
    MOREAU_CHECK(!(sim->dim == 3 && b->shape[i] > 0 && moreau_law_needs_isotropic_inertia(sim->law)), MOREAU_ERR_INPUT,
                 "body %lld: the %s law does not take 3D clusters (its torque solve needs spheres)",
                 (long long)b->gid[i], moreau_law_name(sim->law));
    MOREAU_CHECK(b->glued[i] >= 0 && b->glued[i] <= sim->walls->n, MOREAU_ERR_INPUT,
                 "body %lld: glued to wall %d, which does not exist (there are %d walls)", (long long)b->gid[i],
                 b->glued[i] - 1, sim->walls->n);
    MOREAU_CHECK(!b->glued[i] || (b->inv_mass[i] == 0.0 && b->inv_inertia[i] == 0.0), MOREAU_ERR_INPUT,
                 "body %lld: a grain glued to wall %d must be fixed (it moves with its wall)", (long long)b->gid[i],
                 b->glued[i] - 1);
    *rmax = fmax(*rmax, b->radius[i]);
  }
  for (int i = 0; i < sim->walls->n; i++)
    MOREAU_CHECK(sim->walls->material[i] >= 0 && sim->walls->material[i] < sim->materials->n, MOREAU_ERR_INPUT,
                 "wall %d: material %d does not exist (there are %d)", i, sim->walls->material[i], sim->materials->n);
  return MOREAU_SUCCESS;
}

moreau_err moreau_sim_setup(moreau_sim *sim, double overlap_tol)
{
  moreau_bodies *b = sim->bodies;
  double rmax = 0.0;
  MOREAU_CALL(moreau_error_agree(sim->comm, check_bodies(sim, &rmax)));
  /* A maximum is exact whatever the partition (a sum of radii would round
   * differently on each rank count and change the contact set). */
  MOREAU_MPI_CALL(MPI_Allreduce(&rmax, &sim->rmax, 1, MPI_DOUBLE, MPI_MAX, sim->comm));
  MOREAU_CALL(moreau_error_agree(sim->comm, check_extent(sim)));
  if (!(sim->alert > 0)) sim->alert = 0.1 * sim->rmax;
  /* A stretched cohesive bond acts up to its range: detection must see it
   * (the range is 0 unless the cohesive law's options set it). */
  for (int i = 0; i < sim->materials->n * sim->materials->n; i++)
    sim->alert = fmax(sim->alert, sim->materials->pair[i].d_c);
  /* Half a radius: a settled pile then rarely builds and a sheared one every
   * few steps, while the narrow phase, which tests more pairs, costs little
   * more than at a skin of 0 (benchmarks/README.md, per-step overhead). */
  MOREAU_CALL(moreau_detector_set_skin(sim->detector, sim->skin < 0 ? 0.5 * sim->rmax : sim->skin));
  /* One image of a pair within reach: a period of at least twice the
   * largest interaction distance. */
  MOREAU_CALL(moreau_domain_check_cutoff(sim->domain, 2.0 * sim->rmax + sim->alert));
  if (moreau_domain_any_periodic(sim->domain))
    for (moreau_lid i = 0; i < b->n_owned; i++)
      (void)moreau_domain_wrap(sim->domain, &b->x[3 * i], &b->v[3 * i]);
  MOREAU_CALL(moreau_part_setup(sim->part, b, sim->history, sim->alert));
  MOREAU_CALL(moreau_part_ghosts(sim->part, b, sim->rmax + sim->alert));
  MOREAU_CALL(check_overlaps(sim, overlap_tol));
  MOREAU_CALL(sim_barostat_setup(sim));
  sim->history_in_place = 1;
  return MOREAU_SUCCESS;
}

/* Brings every body to its owner, rebuilds the ghosts and detects the
 * contacts at the current positions. */
static moreau_err distribute_and_detect(moreau_sim *sim)
{
  MOREAU_CALL(moreau_part_update(sim->part, sim->bodies, sim->history, sim->history->n));
  MOREAU_CALL(moreau_part_ghosts(sim->part, sim->bodies, sim->rmax + sim->alert));
  const moreau_lid *by_gid;
  MOREAU_CALL(moreau_part_owned_by_gid(sim->part, sim->bodies, &by_gid));
  MOREAU_CALL(moreau_detect(sim->detector, sim->domain, sim->bodies, sim->walls, sim->alert, by_gid, sim->contacts));
  return MOREAU_SUCCESS;
}

moreau_err moreau_sim_detect(moreau_sim *sim)
{
  MOREAU_CALL(distribute_and_detect(sim));
  return MOREAU_SUCCESS;
}

moreau_err moreau_sim_step(moreau_sim *sim)
{
  double t0;
  moreau_nlgs_problem prob;
  moreau_log_begin(MOREAU_EV_STEP);
  /* The last step's contacts become the warm-start history (their key,
   * force and state only); this step's stay in sim->contacts afterwards, for
   * output and statistics. */
  moreau_log_begin(MOREAU_EV_WARM_START);
  /* From here to the warm start the history lies in the solver's records,
   * dead between two solves: its 44 bytes a contact are then not on top of
   * the records at the solve, where a step's memory peaks. */
  void *records;
  size_t records_bytes;
  moreau_nlgs_workspace(sim->nlgs, &records, &records_bytes);
  MOREAU_CALL(moreau_contacts_borrow(sim->history, records, records_bytes));
  if (!sim->history_in_place) MOREAU_CALL(moreau_contacts_copy_history(sim->history, sim->contacts));
  moreau_log_end(MOREAU_EV_WARM_START);
  sim->history_in_place = 0;
  sim_rough_drive(sim);
  sim_drift(sim, 0.5 * sim->dt);
  t0 = MPI_Wtime();
  MOREAU_CALL(distribute_and_detect(sim));
  moreau_log_begin(MOREAU_EV_WARM_START);
  MOREAU_CALL(moreau_contacts_warm_start(sim->contacts, sim->history, &sim->stats.warm_matched));
  moreau_contacts_release(sim->history);
  /* Its pages would stay resident under the solve. */
  moreau_nlgs_workspace_release(sim->nlgs);
  moreau_log_end(MOREAU_EV_WARM_START);
  sim->stats.detect_seconds = MPI_Wtime() - t0;
  moreau_log_begin(MOREAU_EV_FREE_VELOCITY);
  MOREAU_CALL(sim_relative_velocities(sim));
  sim_free_velocities(sim);
  moreau_log_end(MOREAU_EV_FREE_VELOCITY);
  prob.bodies = sim->bodies;
  prob.walls = sim->walls;
  prob.materials = sim->materials;
  prob.contacts = sim->contacts;
  prob.u_minus = sim->u_minus;
  prob.part = sim->part;
  prob.dt = sim->dt;
  MOREAU_CALL(moreau_nlgs_solve(sim->nlgs, &prob, &sim->stats.solve));
  sim->stats.solve_seconds = sim->stats.solve.seconds;
  moreau_part_add_sweep_time(sim->part, sim->stats.solve.sweep_seconds);
  sim_drift(sim, 0.5 * sim->dt);
  sim_rough_stream(sim);
  MOREAU_CALL(sim_contact_statistics(sim));
  MOREAU_CALL(sim_barostat(sim));
  sim->time += sim->dt;
  sim->step++;
  moreau_log_end(MOREAU_EV_STEP);
  MOREAU_CALL(sim_check_state(sim));
  return MOREAU_SUCCESS;
}
