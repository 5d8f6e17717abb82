#ifndef MOREAU_TYPES_H
#define MOREAU_TYPES_H

#include <stdint.h>

/* Local indices are 32-bit, global ids 64-bit (design.md, convention 4). */
typedef int32_t moreau_lid;
typedef int64_t moreau_gid;

#define MOREAU_LID_MPI MPI_INT32_T
#define MOREAU_GID_MPI MPI_INT64_T

/* Walls take the top of the global-id range so that a (body, wall) contact key
 * sorts after every (body, body) key of the same body. */
#define MOREAU_WALL_GID_BASE (INT64_MAX - 1048576)
#define MOREAU_WALL_GID(w) (MOREAU_WALL_GID_BASE + (moreau_gid)(w))
#define MOREAU_GID_IS_WALL(g) ((g) >= MOREAU_WALL_GID_BASE)

#define MOREAU_MAX_DIM 3

#endif
