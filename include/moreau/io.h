#ifndef MOREAU_IO_H
#define MOREAU_IO_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

#include "moreau/bodies.h"
#include "moreau/contacts.h"
#include "moreau/error.h"
#include "moreau/materials.h"
#include "moreau/options.h"
#include "moreau/walls.h"

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

/* What the writers need to know of a run besides its bodies, contacts and
 * walls. The box and its periodic axes are stored in snapshots so that
 * viewers and tools draw the cell the run used. */
typedef struct {
  MPI_Comm comm;
  int dim;
  int64_t step;
  double time, dt;
  int has_box;                 /* the domain has a box */
  double box_lo[3], box_hi[3]; /* its corners (z = 0 in 2D; zeros without a box) */
  int periodic[3];             /* 1 on a periodic axis (0 without a box) */
  int le_flow, le_gradient;    /* Lees-Edwards flow and gradient axes, -1 without */
  double le_offset;            /* Lees-Edwards offset along flow (0 without) */
  /* Bytes of rows the writers make at once, where rows are not stored as
   * the file holds them (bodies in gid order, contact endpoints): what
   * writing adds to a rank's memory. 0: 4 MiB. */
  size_t write_piece_bytes;
  /* The owned bodies' lids in increasing gid order, the order the writers
   * write them in, when the caller keeps it (the partition does); NULL: the
   * writers sort them, which adds 36 bytes a body to the rank's memory. */
  const moreau_lid *by_gid;
} moreau_run_state;

/* Collective over b->comm. Reads bodies from a CSV file or from an HDF5
 * snapshot written by moreau_snapshot_write, chosen by the extension (.csv,
 * .h5), and appends them to b as owned bodies (ghosts are dropped). Each rank
 * reads a contiguous slab of the file; nothing is broadcast. See
 * docs/file-formats.md for both formats.
 *
 * CSV: a header line names the columns in any order; 2D needs x,y,r and 3D
 * x,y,z,r; optional vx,vy[,vz], omega (2D) or wx,wy,wz (3D), material,
 * fixed, and in 2D shape (0: a disk; s >= 1: shape s of shapes, r its
 * bounding radius) and angle (its orientation, radians about z). Blank lines
 * and lines starting with '#' are skipped. The global id of a body is its
 * data-row index (0-based, in file order); masses come from the density of
 * the body's material in m and, for clusters, the shape's union.
 * HDF5: every field is restored exactly as written (masses included); the
 * snapshot's dimension must be b->dim.
 *
 * Errors, the same code on every rank: a bad CSV row or header fails with
 * MOREAU_ERR_INPUT and "<file>:<line>: <reason>" (line 1-based, from the rank
 * that found it); a missing file, an unknown extension or a bad snapshot with
 * MOREAU_ERR_INPUT and "<file>: <reason>". On error b is left as it was
 * (apart from its ghosts). m and shapes (NULL: no clusters) are only read. */
MOREAU_MUST_CHECK moreau_err moreau_read_particles(const char *path, moreau_bodies *b, const moreau_materials *m,
                                                   const moreau_shapes *shapes);

/* Collective over comm: appends the shapes of a shape file to shapes (every
 * rank reads the file). One contactor per line, "id, x, y, r" in 2D or "id,
 * x, y, z, r" in 3D (commas or blanks), in any frame; '#' comments and blank
 * lines skipped. Ids run from 1 without gaps; shape k is added k-th with its
 * contactors in file order (moreau_shapes_add_unit: bodies scale it by their
 * radius). Errors: MOREAU_ERR_INPUT with "<file>:<line>: <reason>" or
 * "<file>: <reason>", on every rank. */
MOREAU_MUST_CHECK moreau_err moreau_read_shapes(MPI_Comm comm, const char *path, moreau_shapes *shapes);

/* Collective over rs->comm. Writes <dir>/snapshots/snap_<step, 6 digits>.h5
 * (bodies, contacts and walls, each rank writing its slab with the MPI-IO
 * driver) and snap_<step>.xmf beside it, then rebuilds <dir>/snapshots.xmf,
 * the time collection of the snapshots in that folder up to this step.
 * Creates the directories if needed. Files are written under a temporary
 * name and renamed when complete. Writes the snapshot fields of the owned
 * bodies (ghosts only as contact endpoints), the contacts (may be NULL) and
 * the walls (may be NULL), with the step, time and dt of rs and, when
 * rs->has_box, the box, its periodic axes, the Lees-Edwards state and an
 * outline of the box (group /box, drawn by the XDMF files). With a shapes
 * table (shapes; NULL: none) it also writes the group /contactors, one row
 * per contactor of every owned body (a plain body is its own single
 * contactor, so the group is the whole granular geometry): position (its
 * world centre), radius, gid (the body's) and index (within the body's
 * shape, 0 for a plain body), drawn by the XDMF files as the grid
 * contactors beside the bodies' grid particles. Modifies nothing. I/O
 * failures give MOREAU_ERR_IO naming the path, on every rank. */
MOREAU_MUST_CHECK moreau_err moreau_snapshot_write(const moreau_run_state *rs, const moreau_bodies *b,
                                                   const moreau_contacts *c, const moreau_walls *w,
                                                   const moreau_shapes *shapes, const char *dir);

/* How a run uses its output directory: a new run into a directory without
 * an earlier run's outputs, a new run that first removes them (-overwrite),
 * or a run that continues them (-restart). */
typedef enum { MOREAU_OUTPUT_NEW, MOREAU_OUTPUT_OVERWRITE, MOREAU_OUTPUT_CONTINUE } moreau_output_mode;

/* Collective over comm. Makes the output directory (and its parents) and
 * checks that files can be written in it. The outputs of an earlier run are
 * timeseries.csv, snapshots.xmf, snapshots/snap_*, checkpoints/ckpt_*,
 * profiles/profile_* and forces/force_pdf_*
 * (other files are the user's and stay): a new run refuses a directory
 * holding any, with MOREAU_OUTPUT_OVERWRITE they are removed first (with a
 * note). Failures are MOREAU_ERR_INPUT on every rank with one line from
 * rank 0 naming the directory. */
MOREAU_MUST_CHECK moreau_err moreau_output_dir_prepare(MPI_Comm comm, const char *dir, moreau_output_mode mode);

/* Time series: a CSV file with a header line of column names and one row per
 * write, values printed with 17 significant digits (they read back to the
 * same doubles). Only rank 0 holds the file. */
typedef struct moreau_timeseries moreau_timeseries;
/* Collective. Opens path for writing (truncating it); the caller owns *ts
 * and frees it with moreau_timeseries_destroy. Fails with MOREAU_ERR_IO on
 * every rank if rank 0 cannot open the file. comm is stored, not duplicated. */
MOREAU_MUST_CHECK moreau_err moreau_timeseries_create(MPI_Comm comm, const char *path, moreau_timeseries **ts);
/* Collective. Continues the series at path after a restart from step
 * last_step: keeps its header and its complete rows whose step (first
 * column) is <= last_step, drops the rest, and appends from there (a new
 * file if there is none). The columns added afterwards must be the file's
 * (MOREAU_ERR_INPUT at the first row otherwise). */
MOREAU_MUST_CHECK moreau_err moreau_timeseries_continue(MPI_Comm comm, const char *path, double last_step,
                                                        moreau_timeseries **ts);
/* Not collective, but call it on every rank with the same names. Adds a
 * column; only before the first row, and the name may not contain a comma,
 * quote or newline (MOREAU_ERR_INTERNAL otherwise). name is copied. */
MOREAU_MUST_CHECK moreau_err moreau_timeseries_add_column(moreau_timeseries *ts, const char *name);
/* Collective but only rank 0's values are used: writes the header before the
 * first row, then one row (one value per column, in order) and flushes it. */
MOREAU_MUST_CHECK moreau_err moreau_timeseries_write(moreau_timeseries *ts, const double *values);
/* Not collective. Closes the file (writing the header if no row was written)
 * and frees *ts, setting it to NULL; accepts a NULL *ts. */
MOREAU_MUST_CHECK moreau_err moreau_timeseries_destroy(moreau_timeseries **ts);

/* Collective over comm. Rank 0 writes a CSV table to dir/name (making dir):
 * a header of the ncols column names, then nrows rows of values (row-major,
 * full precision). The file appears complete or not at all (a temporary
 * name, renamed); a failure is agreed by all ranks (MOREAU_ERR_IO, one line
 * naming the file). values need only be valid on rank 0. */
MOREAU_MUST_CHECK moreau_err moreau_csv_table_write(MPI_Comm comm, const char *dir, const char *name, int ncols,
                                                    const char *const *columns, int nrows, const double *values);

#pragma GCC visibility pop

#endif
