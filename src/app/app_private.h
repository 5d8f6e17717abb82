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

/* app_signals.c */
/* Not collective. SIGTERM, SIGUSR1 and SIGINT only set a flag from now on. */
void app_signals_install(void);
/* The last signal caught (0: none). */
int app_signal_caught(void);

#endif
