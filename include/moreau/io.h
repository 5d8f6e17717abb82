#ifndef MOREAU_IO_H
#define MOREAU_IO_H

#include <stdint.h>
#include <stdio.h>

#include "moreau/bodies.h"
#include "moreau/error.h"
#include "moreau/materials.h"
#include "moreau/options.h"
#include "moreau/sim.h"

/* Collective. Reads bodies from a CSV file (header names the columns; 2D needs
 * x,y,r and 3D x,y,z,r; optional vx,vy[,vz], omega (2D) or wx,wy,wz (3D),
 * material, fixed) or from an HDF5 snapshot written by moreau_snapshot_write,
 * chosen by the file's extension (.csv, .h5). Each rank reads a contiguous
 * slab of the file and appends those bodies to b as owned; nothing is
 * broadcast. The global id of a body is its row index (0-based). Masses come
 * from the density of the body's material. A bad file fails with
 * MOREAU_ERR_INPUT and a message "<file>:<line>: <reason>". */
moreau_err moreau_read_particles(const char *path, moreau_bodies *b, const moreau_materials *m);

/* Collective. Writes <dir>/snapshots/snap_<step, 6 digits>.h5 (bodies and
 * contacts, each rank writing its slab with the MPI-IO driver) and the XDMF
 * file beside it, and updates <dir>/snapshots.xmf, the time collection of all
 * snapshots so far. Creates the directories if needed. */
moreau_err moreau_snapshot_write(const moreau_sim *sim, const char *dir);

/* Time series: rank 0 writes a CSV file with a header line. */
typedef struct moreau_timeseries moreau_timeseries;
/* Collective. Opens path for writing (truncating). */
moreau_err moreau_timeseries_create(MPI_Comm comm, const char *path, moreau_timeseries **ts);
/* Adds a column before the first row is written. */
moreau_err moreau_timeseries_add_column(moreau_timeseries *ts, const char *name);
/* Collective but only rank 0's values are used: writes one row (one value per
 * column, in order) and flushes it. */
moreau_err moreau_timeseries_write(moreau_timeseries *ts, const double *values);
moreau_err moreau_timeseries_destroy(moreau_timeseries **ts);

#endif
