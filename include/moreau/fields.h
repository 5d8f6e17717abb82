#ifndef MOREAU_FIELDS_H
#define MOREAU_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "moreau/error.h"

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

/* Field tables: the schema of an SoA container (bodies, contacts) written
 * once. Each field names one array member of the container, its element type
 * and width, and where it goes: with migrating items, to ghosts, to snapshot
 * and checkpoint files. Growing, copying, permuting, packing for messages and
 * the HDF5 writer and reader all walk the table, so adding a per-item
 * quantity is one table entry (plus the member it names). */

typedef enum { MOREAU_FIELD_F64, MOREAU_FIELD_I32, MOREAU_FIELD_I64 } moreau_field_type;

enum {
  MOREAU_FIELD_MIGRATE = 1u,    /* travels with its item to another rank */
  MOREAU_FIELD_GHOST = 2u,      /* copied to the ghost copies of an item */
  MOREAU_FIELD_SNAPSHOT = 4u,   /* written to snapshots and read back from them */
  MOREAU_FIELD_CHECKPOINT = 8u, /* written to checkpoints */
  MOREAU_FIELD_ALL = 15u,
  MOREAU_FIELD_OPTIONAL = 16u, /* files written before it existed lack it: read as zeros */
  /* Its array may be NULL, every item zero then (an external force, which
   * most runs do not have: no memory for it). The functions here read zeros
   * from an absent array and leave it absent; the container allocates it
   * before a nonzero value must be stored (moreau_fields_record_wants,
   * moreau_fields_value_wants). */
  MOREAU_FIELD_LAZY = 32u
};

typedef struct {
  const char *name; /* the dataset name in files */
  moreau_field_type type;
  int ncomp;       /* values per item; 0: the container's variable width */
  unsigned flags;  /* MOREAU_FIELD_* */
  size_t array;    /* offsetof(container, pointer member) */
  ptrdiff_t value; /* offsetof(value struct, member) (e.g. moreau_body), or -1 */
} moreau_field;

/* A table with the variable width that fields of ncomp 0 take (e.g. the
 * per-contact law state). */
typedef struct {
  const moreau_field *field;
  int n;
  int var_width;
} moreau_field_table;

size_t moreau_field_type_size(moreau_field_type type);
/* Values per item of field f in table t. */
static inline int moreau_field_ncomp(const moreau_field_table *t, const moreau_field *f)
{
  return f->ncomp > 0 ? f->ncomp : t->var_width;
}
/* Bytes per item of field f. */
static inline size_t moreau_field_bytes(const moreau_field_table *t, const moreau_field *f)
{
  return (size_t)moreau_field_ncomp(t, f) * moreau_field_type_size(f->type);
}
/* The address of field f's array pointer in container obj. */
static inline void **moreau_field_slot(const void *obj, const moreau_field *f)
{
  return (void **)((char *)(uintptr_t)obj + f->array);
}
/* The first of f's values for item i. */
static inline void *moreau_field_item(const moreau_field_table *t, const void *obj, const moreau_field *f, size_t i)
{
  return (char *)*moreau_field_slot(obj, f) + i * moreau_field_bytes(t, f);
}

/* Whether obj has no array for lazy field f (its items are all zero). */
static inline int moreau_field_absent(const void *obj, const moreau_field *f)
{
  return (f->flags & MOREAU_FIELD_LAZY) && !*moreau_field_slot(obj, f);
}

/* Not collective. Reallocates every array of obj to capacity items; the
 * items below the old capacity keep their values. */
MOREAU_MUST_CHECK moreau_err moreau_fields_resize(const moreau_field_table *t, void *obj, size_t capacity);
/* Frees every array of obj and sets its pointer to NULL. */
void moreau_fields_free(const moreau_field_table *t, void *obj);
/* Item `to` becomes a copy of item `from` (all fields). */
void moreau_fields_copy(const moreau_field_table *t, void *obj, size_t from, size_t to);
/* Reorders the first n items: new item i is old item perm[i]. */
MOREAU_MUST_CHECK moreau_err moreau_fields_permute(const moreau_field_table *t, void *obj, size_t n,
                                                   const int32_t *perm);

/* Packed records of the fields in mask, for messages: fields in table order,
 * bytes copied as they are (so 64-bit ids travel exactly). The record size
 * is rounded up to whole doubles so records can sit in double buffers. */
size_t moreau_fields_record_doubles(const moreau_field_table *t, unsigned mask);
void moreau_fields_pack(const moreau_field_table *t, const void *obj, unsigned mask, size_t i, double *rec);
/* Item i takes the fields in mask from rec; the other fields are zeroed. An
 * absent lazy field stays absent: rec must hold zeros for it
 * (moreau_fields_record_wants). */
void moreau_fields_unpack(const moreau_field_table *t, void *obj, unsigned mask, size_t i, const double *rec);
/* Whether rec (packed with mask) holds a nonzero value of a lazy field that
 * obj has no array for. */
int moreau_fields_record_wants(const moreau_field_table *t, const void *obj, unsigned mask, const double *rec);

/* Copies between item i and a value struct (fields with value >= 0; the
 * others are zeroed by set). Set leaves an absent lazy field absent: the
 * value must hold zeros for it (moreau_fields_value_wants). */
void moreau_fields_get_value(const moreau_field_table *t, const void *obj, size_t i, void *value);
void moreau_fields_set_value(const moreau_field_table *t, void *obj, size_t i, const void *value);
/* Whether value holds a nonzero value of a lazy field that obj has no array
 * for. */
int moreau_fields_value_wants(const moreau_field_table *t, const void *obj, const void *value);
/* Not collective. Gives every absent lazy field of obj an array of capacity
 * items (at least one), all zero. */
MOREAU_MUST_CHECK moreau_err moreau_fields_give_lazy(const moreau_field_table *t, void *obj, size_t capacity);
/* Frees the array of every lazy field whose first n items are all zero
 * (bitwise: a -0 keeps it). */
void moreau_fields_drop_zero_lazy(const moreau_field_table *t, void *obj, size_t n);

#pragma GCC visibility pop

#endif
