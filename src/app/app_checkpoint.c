#include <petscsys.h>
#include <string.h>

#include "app_private.h"

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
  err = moreau_checkpoint_write(&ck, dir, keep);
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

static moreau_err restore(moreau_sim *sim, moreau_checkpoint *ck, const char *path)
{
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
