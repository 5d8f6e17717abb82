#include <stddef.h>

#include "moreau/bodies.h"

#define ALL MOREAU_FIELD_ALL
/* Persistent per-body data that a ghost does not need: nothing reads a
 * ghost's fixed flag (its inverse mass is already 0). */
#define OWNED (MOREAU_FIELD_MIGRATE | MOREAU_FIELD_SNAPSHOT | MOREAU_FIELD_CHECKPOINT)
#define FIELD(name, type, ncomp, flags, member)                                                                        \
  {                                                                                                                    \
    name, MOREAU_FIELD_##type, ncomp, flags, offsetof(moreau_bodies, member), offsetof(moreau_body, member)            \
  }

/* The body schema: one entry per array of moreau_bodies. The name is the
 * dataset under /bodies in snapshot and checkpoint files. */
static const moreau_field body_fields[] = {
    FIELD("gid", I64, 1, ALL, gid),
    FIELD("position", F64, 3, ALL, x),
    FIELD("velocity", F64, 3, ALL, v),
    FIELD("angular_velocity", F64, 3, ALL, w),
    FIELD("orientation", F64, 4, ALL, q), /* a cluster ghost's contactors follow it */
    /* Most runs have none: no arrays until a body has one. */
    FIELD("external_force", F64, 3, ALL | MOREAU_FIELD_LAZY, f_ext),
    FIELD("external_torque", F64, 3, ALL | MOREAU_FIELD_LAZY, t_ext),
    FIELD("radius", F64, 1, ALL, radius),
    FIELD("inv_mass", F64, 1, ALL, inv_mass),
    FIELD("inv_inertia", F64, 1, ALL, inv_inertia),
    FIELD("material", I32, 1, ALL, material),
    FIELD("fixed", I32, 1, OWNED, fixed),
    /* Older snapshots and checkpoints hold plain disks and spheres. */
    FIELD("shape", I32, 1, ALL | MOREAU_FIELD_OPTIONAL, shape),
    /* A ghost's rows move its wall instead of it; older files have no rough walls. */
    FIELD("glued", I32, 1, ALL | MOREAU_FIELD_OPTIONAL, glued),
};

const moreau_field_table moreau_body_fields = {body_fields, (int)(sizeof(body_fields) / sizeof(body_fields[0])), 0};
