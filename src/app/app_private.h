#ifndef MOREAU_APP_PRIVATE_H
#define MOREAU_APP_PRIVATE_H

#include "moreau/app.h"
#include "moreau/checkpoint.h"

/* Process exit code of a run stopped by a signal after writing a
 * checkpoint: it can be resumed with -restart auto. */
#define APP_EXIT_CHECKPOINTED 3

/* app_checkpoint.c */
/* Collective. Writes the sim's checkpoint under dir, keeping the newest
 * keep checkpoints. */
MOREAU_MUST_CHECK moreau_err app_checkpoint_write(const moreau_sim *sim, const char *dir, int keep);
/* Collective, before setup and after the walls are in place: puts the
 * checkpoint's bodies, history, wall state, box, clock, random state and
 * partition map into the sim. */
MOREAU_MUST_CHECK moreau_err app_checkpoint_restore(moreau_sim *sim, const char *path);

/* app_restart.c */
/* Collective, before any other option is read. With -restart given, finds
 * the checkpoint (auto: the newest verified one under -output_dir) into
 * path and makes its run's options the options of this run: the command
 * line may change only the options that are safe to change (MOREAU_ERR_INPUT
 * naming the first other one). path[0] == 0 without -restart. */
MOREAU_MUST_CHECK moreau_err app_restart_options(MPI_Comm comm, char *path, size_t len);

/* app_command_line.c */
/* Collective (MPI only; before PETSc starts). Rank 0 checks the command
 * line (one dash, no "=", no stray word) and every options file it names,
 * also through -options_file inside files (a regular text file, readable,
 * not including itself), and prints one error line; returns whether all is
 * well, the same on every rank. */
int app_command_line_ok(MPI_Comm comm, int argc, char **argv);

/* app_domain.c */
/* Not collective. The periodic axes (-periodic), Lees-Edwards images
 * (-lees_edwards, -lees_edwards_velocity or -inertial_number,
 * -lees_edwards_axes) and pressure control (-pressure, -pressure_axes,
 * -barostat_mass) of the domain, on the box of -box or else box_default
 * (the generator's; NULL: none). Before the walls: a periodic axis gets no
 * walls from a box. */
/* app_shapes.c: the shapes table of -shape (NULL for disks/spheres), the
 * same on every rank; errors agreed. */
MOREAU_MUST_CHECK moreau_err app_shapes_from_options(MPI_Comm comm, int dim, moreau_shapes **shapes);

MOREAU_MUST_CHECK moreau_err app_domain_from_options(moreau_sim *sim, const double *box_default);
/* Collective, once the bodies are in place (after a restart's): with
 * -inertial_number, the Lees-Edwards rate I / (d sqrt(rho / p)) from the
 * bodies' mean diameter and grain density (the offset stays). */
MOREAU_MUST_CHECK moreau_err app_domain_inertial_number(moreau_sim *sim);
/* Not collective. A new run (new_run != 0) under Lees-Edwards starts with the imposed
 * linear profile added to the owned bodies' velocities (unless
 * -lees_edwards_profile false). */
MOREAU_MUST_CHECK moreau_err app_domain_start_profile(moreau_sim *sim, int new_run);

/* app_rough.c: the rough-wall shear cell of -rough_walls. First, after the
 * walls and before a restart's checkpoint (which checks the walls' modes),
 * the top wall's mode; then, after the checkpoint, a new run gets the glued
 * grains and the top wall's drive and mass, and every run the sim's
 * moreau_rough_cell. Collective. */
MOREAU_MUST_CHECK moreau_err app_rough_wall_modes(moreau_sim *sim);
MOREAU_MUST_CHECK moreau_err app_rough_from_options(moreau_sim *sim, int new_run);

/* app_signals.c */
/* Not collective. SIGTERM, SIGUSR1 and SIGINT only set a flag from now on. */
void app_signals_install(void);
/* The last signal caught (0: none). */
int app_signal_caught(void);

#endif
