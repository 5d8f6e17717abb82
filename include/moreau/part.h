#ifndef MOREAU_PART_H
#define MOREAU_PART_H

#include <mpi.h>

#include "moreau/bodies.h"
#include "moreau/contacts.h"
#include "moreau/error.h"
#include "moreau/options.h"

/* Space partition over the ranks of a communicator. The domain is covered by a
 * grid of cells; the cells are partitioned into P parts (METIS_PartGraphKway on
 * the cell graph weighted by bodies and contacts, or contiguous blocks), and a
 * body belongs to the rank owning the cell of its centre. The part also keeps
 * the ghost layer and the plan of interface bodies (bodies touched by contacts
 * on more than one rank), whose velocities are glued every NLGS sweep. */
typedef struct moreau_part moreau_part;

typedef enum { MOREAU_PART_METIS, MOREAU_PART_BLOCK } moreau_part_type;

typedef struct {
  double imbalance;         /* max / mean of per-rank work, at the last update */
  int64_t repartitions;     /* so far */
  int64_t migrated;         /* bodies sent to another rank at the last update (global) */
  int64_t sweep_messages;   /* messages sent by this rank per interface average */
  int64_t sweep_bytes;      /* bytes sent by this rank per interface average */
  int64_t interface_bodies; /* local bodies with multiplicity > 1 */
} moreau_part_stats;

/* Not collective; comm is stored, not duplicated. */
moreau_err moreau_part_create(MPI_Comm comm, moreau_part **part);
moreau_err moreau_part_destroy(moreau_part **part);
/* Reads -part_type, -part_imbalance, -part_cell_size. */
moreau_err moreau_part_set_from_options(moreau_part *part);
void moreau_part_set_type(moreau_part *part, moreau_part_type type);
void moreau_part_set_imbalance(moreau_part *part, double threshold);

/* Collective. Builds the cell grid over the global bounding box of the bodies
 * (widened by margin on each side), partitions it and sends every body, with
 * the history entries whose gid_a it is, to the rank owning its cell. The
 * bodies may start anywhere (e.g. a slab read from a file). */
moreau_err moreau_part_setup(moreau_part *part, moreau_bodies *b, moreau_contacts *history, double margin);

/* Collective. Sends bodies that moved out of this rank's cells, with their
 * history, to their new owners; repartitions first when the imbalance of
 * work (owned bodies + owned contacts of the last step, given as
 * n_contacts) exceeds the threshold. Owned bodies end sorted by gid and the
 * history sorted by key. */
moreau_err moreau_part_update(moreau_part *part, moreau_bodies *b, moreau_contacts *history, moreau_lid n_contacts);

/* Collective. Drops the ghosts and copies in every body owned by another
 * rank whose bounding sphere, grown by cutoff, overlaps a cell owned here.
 * Ghosts are ordered by owner rank, then gid. */
moreau_err moreau_part_ghosts(moreau_part *part, moreau_bodies *b, double cutoff);

/* Rank owning ghost i (0 <= i < b->n_ghost). */
int moreau_part_ghost_owner(const moreau_part *part, moreau_lid i);

/* Collective. touched[i] (i over owned + ghost bodies) says whether a contact
 * owned by this rank involves body i. Builds the interface plan and returns in
 * mult[i] the number of ranks whose contacts touch body i (at least 1). */
moreau_err moreau_part_interface_build(moreau_part *part, const moreau_bodies *b, const char *touched, double *mult);

/* Collective. Replaces the velocity (v and w) of every copy of every interface
 * body by the average over the ranks whose contacts touch it, summed in rank
 * order so the result is bitwise reproducible. */
moreau_err moreau_part_interface_average(moreau_part *part, moreau_bodies *b);

void moreau_part_get_stats(const moreau_part *part, moreau_part_stats *stats);

extern const moreau_option_spec moreau_part_options[];

#endif
