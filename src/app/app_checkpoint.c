#include <petscsys.h>
#include <string.h>

#include "app_private.h"

/* The shapes table as checkpoint rows (moreau_checkpoint.shape_rows);
 * *rows NULL and *n 0 without one. */
static moreau_err shape_rows(const moreau_shapes *t, double **rows, int64_t *n)
{
  const int cols = MOREAU_CHECKPOINT_SHAPE_COLS;
  *rows = NULL;
  *n = 0;
  if (!t || t->n_contactors == 0) return MOREAU_SUCCESS;
  MOREAU_CALL(moreau_malloc((size_t)t->n_contactors * cols * sizeof(double), rows));
  for (moreau_lid s = 0; s < t->n_shapes; s++)
    for (moreau_lid c = t->first[s]; c < t->first[s] + t->count[s]; c++) {
      double *r = &(*rows)[(size_t)c * cols];
      r[0] = (double)(s + 1);
      for (int k = 0; k < 3; k++)
        r[1 + k] = t->offset[3 * c + k];
      r[4] = t->radius[c];
    }
  *n = t->n_contactors;
  return MOREAU_SUCCESS;
}

moreau_err app_checkpoint_write(const moreau_sim *sim, const char *dir, int keep)
{
  moreau_checkpoint ck;
  char *options = NULL;
  moreau_err err;
  memset(&ck, 0, sizeof(ck));
  moreau_sim_run_state(sim, &ck.run);
  ck.bodies = moreau_sim_bodies(sim);
  /* The contacts of the step just done are the next step's warm start. */
  ck.history = moreau_sim_contacts(sim);
  ck.walls = moreau_sim_walls(sim);
  moreau_nlgs_get_rng(moreau_sim_nlgs(sim), ck.rng);
  moreau_part_get_map(moreau_sim_part(sim), &ck.map);
  ck.has_box = moreau_domain_has_box(moreau_sim_domain(sim));
  moreau_domain_get_box(moreau_sim_domain(sim), ck.box_lo, ck.box_hi);
  {
    moreau_lees_edwards le;
    moreau_domain_get_lees_edwards(moreau_sim_domain(sim), &le);
    ck.le_offset = le.on ? le.offset : 0.0;
    for (int k = 0; k < 3; k++)
      ck.len_rate[k] = moreau_domain_length_rate(moreau_sim_domain(sim), k);
  }
  MOREAU_CHECK(PetscOptionsGetAll(NULL, &options) == 0, MOREAU_ERR_RUNTIME, "cannot list the run's options");
  ck.options = options;
  err = shape_rows(moreau_sim_shapes(sim), &ck.shape_rows, &ck.n_shape_rows);
  if (!err) err = moreau_checkpoint_write(&ck, dir, keep);
  moreau_free(&ck.shape_rows);
  PetscFree(options);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}

/* The walls come from the run's options (the same as the checkpoint's):
 * their state at the checkpoint replaces what the options say. */
static moreau_err restore_walls(moreau_walls *w, const moreau_walls *saved, const char *path)
{
  MOREAU_CHECK(w->n == saved->n, MOREAU_ERR_INPUT, "%s: the checkpoint has %d walls, the options give %d", path,
               saved->n, w->n);
  for (int i = 0; i < w->n; i++) {
    MOREAU_CHECK(w->mode[i] == saved->mode[i], MOREAU_ERR_INPUT,
                 "%s: wall %d has another mode in the checkpoint than in the options", path, i);
    memcpy(&w->point[3 * i], &saved->point[3 * i], 3 * sizeof(double));
    memcpy(&w->normal[3 * i], &saved->normal[3 * i], 3 * sizeof(double));
    memcpy(&w->velocity[3 * i], &saved->velocity[3 * i], 3 * sizeof(double));
    memcpy(&w->reaction[3 * i], &saved->reaction[3 * i], 3 * sizeof(double));
    w->mass[i] = saved->mass[i];
    w->drive[i] = saved->drive[i];
  }
  return MOREAU_SUCCESS;
}

/* The shapes the restart rebuilt from its options must be the checkpoint's:
 * the options name a shape file, whose contents may have changed since. A
 * checkpoint written before they were stored has none to compare. */
static moreau_err check_shapes(const moreau_shapes *t, const moreau_checkpoint *ck, const char *path)
{
  double *rows;
  int64_t n;
  if (!ck->shape_rows) return MOREAU_SUCCESS;
  MOREAU_CALL(shape_rows(t, &rows, &n));
  int64_t bad = n == ck->n_shape_rows ? -1 : 0;
  for (int64_t i = 0; bad < 0 && i < n * MOREAU_CHECKPOINT_SHAPE_COLS; i++)
    if (rows[i] != ck->shape_rows[i]) bad = i / MOREAU_CHECKPOINT_SHAPE_COLS;
  moreau_free(&rows);
  MOREAU_CHECK(bad < 0, MOREAU_ERR_INPUT,
               "%s: the shapes of this run differ from the checkpoint's (%lld contactors against %lld, first "
               "difference at contactor %lld): was the shape file changed?",
               path, (long long)n, (long long)ck->n_shape_rows, (long long)bad);
  return MOREAU_SUCCESS;
}

static moreau_err restore(moreau_sim *sim, moreau_checkpoint *ck, const char *path)
{
  MOREAU_CALL(check_shapes(moreau_sim_shapes(sim), ck, path));
  MOREAU_CALL(restore_walls(moreau_sim_walls(sim), ck->walls, path));
  moreau_lees_edwards le;
  if (ck->has_box) MOREAU_CALL(moreau_domain_set_box(moreau_sim_domain(sim), ck->box_lo, ck->box_hi));
  /* The images continue where they were (the options give the rate). */
  moreau_domain_get_lees_edwards(moreau_sim_domain(sim), &le);
  if (le.on) MOREAU_CALL(moreau_domain_set_lees_edwards_offset(moreau_sim_domain(sim), ck->le_offset));
  for (int k = 0; k < moreau_sim_dim(sim); k++)
    if (ck->len_rate[k] != 0.0) MOREAU_CALL(moreau_domain_set_length_rate(moreau_sim_domain(sim), k, ck->len_rate[k]));
  moreau_sim_set_clock(sim, ck->run.step, ck->run.time);
  if (ck->rng_restored) moreau_nlgs_set_rng(moreau_sim_nlgs(sim), ck->rng);
  MOREAU_CALL(moreau_part_set_map(moreau_sim_part(sim), &ck->map));
  return MOREAU_SUCCESS;
}

moreau_err app_checkpoint_restore(moreau_sim *sim, const char *path)
{
  moreau_checkpoint ck;
  moreau_err err;
  memset(&ck, 0, sizeof(ck));
  ck.bodies = moreau_sim_bodies(sim);
  ck.history = moreau_sim_history(sim);
  MOREAU_CALL(moreau_walls_create(&ck.walls));
  err = moreau_checkpoint_read(path, moreau_sim_comm(sim), moreau_sim_dim(sim), &ck);
  if (!err) err = moreau_error_agree(moreau_sim_comm(sim), restore(sim, &ck, path));
  moreau_checkpoint_free(&ck);
  MOREAU_CALL(moreau_walls_destroy(&ck.walls));
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}
