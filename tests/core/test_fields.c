/* Field tables (moreau/fields.h): on a container of the test's own (64-bit
 * ids, 3-vectors, 32-bit flags and a field of the table's variable width)
 * resize keeps values, copy and permute move every field, records have the
 * size of their fields rounded up to whole doubles and carry exactly the
 * fields of their mask (ids bit-exact), and value structs round-trip. Then
 * the real schemas: every member of moreau_body survives push/get, ghost and
 * migration records, and sorting; contacts carry their law state with the
 * key through push, sort, warm start, compaction and history records; the
 * contact frame computed from the normal. Serial. */
#include <check.h>
#include <inttypes.h>
#include <math.h>
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_runner.h"
#include "moreau/bodies.h"
#include "moreau/contacts.h"
#include "moreau/fields.h"
#include "moreau/types.h"

static void setup(void) { moreau_error_clear(); }

/* Whole doubles needed for a record of `bytes` bytes: the closed form of the
 * rounding that moreau_fields_record_doubles promises. */
static size_t doubles_for(size_t bytes) { return (bytes + sizeof(double) - 1) / sizeof(double); }

/* ---- A container of the test's own ---------------------------------------------------------------------------- */

typedef struct {
  int64_t *id;
  double *vec; /* 3 per item */
  int32_t *flag;
  double *extra; /* var_width per item */
} toy;

/* The members in another order than the container's, so that a table that
 * confused container and value offsets would show. */
typedef struct {
  int32_t flag;
  double vec[3];
  int64_t id;
} toy_value;

#define TOY_VAR_WIDTH 2
enum { HAS_ID = 1, HAS_VEC = 2, HAS_FLAG = 4, HAS_EXTRA = 8, HAS_ALL = 15 };

/* Each field goes to a different mix of destinations so that every mask
 * selects a different subset. */
static const moreau_field toy_fields[] = {
    {"id", MOREAU_FIELD_I64, 1, MOREAU_FIELD_MIGRATE | MOREAU_FIELD_GHOST | MOREAU_FIELD_SNAPSHOT, offsetof(toy, id),
     offsetof(toy_value, id)},
    {"vec", MOREAU_FIELD_F64, 3, MOREAU_FIELD_MIGRATE, offsetof(toy, vec), offsetof(toy_value, vec)},
    {"flag", MOREAU_FIELD_I32, 1, MOREAU_FIELD_GHOST | MOREAU_FIELD_SNAPSHOT, offsetof(toy, flag),
     offsetof(toy_value, flag)},
    {"extra", MOREAU_FIELD_F64, 0, MOREAU_FIELD_MIGRATE | MOREAU_FIELD_GHOST, offsetof(toy, extra), -1},
};
static const moreau_field_table toy_table = {toy_fields, 4, TOY_VAR_WIDTH};
/* The same schema with no variable-width values (a law without state). */
static const moreau_field_table toy_table_w0 = {toy_fields, 4, 0};

/* Which of the toy's fields a mask selects. */
static unsigned toy_present(unsigned mask)
{
  unsigned p = 0;
  for (int f = 0; f < 4; f++)
    if (toy_fields[f].flags & mask) p |= 1u << f;
  return p;
}

/* The values of the item tagged k: ids include the extremes of int64 and
 * values above 2^53 that a trip through a double would round. */
static int64_t id_of(long k)
{
  static const int64_t special[] = {
      INT64_MIN, -1, (INT64_C(1) << 53) + 1, INT64_MAX, -(INT64_C(1) << 60) - 7, (INT64_C(1) << 62) + 3};
  if (k >= 0 && k < (long)(sizeof(special) / sizeof(special[0]))) return special[k];
  return (int64_t)k * 7919 - 3;
}
static double vec_of(long k, int c) { return (double)k + 0.5 * c + 0.125; }
static int32_t flag_of(long k) { return (int32_t)(-1000 + 17 * k); }
static double extra_of(long k, int c) { return -((double)k + 0.25) * (c + 1); }

static void toy_fill(const moreau_field_table *t, toy *o, size_t i, long k)
{
  o->id[i] = id_of(k);
  for (int c = 0; c < 3; c++)
    o->vec[3 * i + c] = vec_of(k, c);
  o->flag[i] = flag_of(k);
  for (int c = 0; c < t->var_width; c++)
    o->extra[(size_t)t->var_width * i + c] = extra_of(k, c);
}

/* Asserts that item i holds the values of tag k in the fields of `present`
 * and zeros (all bits) in the others. */
static void toy_expect(const moreau_field_table *t, const toy *o, size_t i, long k, unsigned present, const char *what)
{
  int64_t id = present & HAS_ID ? id_of(k) : 0;
  int32_t flag = present & HAS_FLAG ? flag_of(k) : 0;
  ck_assert_msg(o->id[i] == id, "%s: item %zu id %" PRId64 ", want %" PRId64, what, i, o->id[i], id);
  for (int c = 0; c < 3; c++) {
    double want = present & HAS_VEC ? vec_of(k, c) : 0.0;
    ck_assert_msg(o->vec[3 * i + c] == want, "%s: item %zu vec[%d] %.17g, want %.17g", what, i, c, o->vec[3 * i + c],
                  want);
  }
  ck_assert_msg(o->flag[i] == flag, "%s: item %zu flag %d, want %d", what, i, o->flag[i], flag);
  for (int c = 0; c < t->var_width; c++) {
    double got = o->extra[(size_t)t->var_width * i + c], want = present & HAS_EXTRA ? extra_of(k, c) : 0.0;
    ck_assert_msg(got == want, "%s: item %zu extra[%d] %.17g, want %.17g", what, i, c, got, want);
  }
}

START_TEST(test_toy_resize_keeps_values)
{
  toy o = {0};
  ck_assert_int_eq(moreau_fields_resize(&toy_table, &o, 8), MOREAU_SUCCESS);
  for (size_t i = 0; i < 8; i++)
    toy_fill(&toy_table, &o, i, (long)i);
  /* Large enough that the allocator moves the arrays. */
  ck_assert_int_eq(moreau_fields_resize(&toy_table, &o, 1 << 16), MOREAU_SUCCESS);
  for (size_t i = 0; i < 8; i++)
    toy_expect(&toy_table, &o, i, (long)i, HAS_ALL, "after growing");
  /* The new capacity is usable in every field. */
  toy_fill(&toy_table, &o, (1 << 16) - 1, 99);
  toy_expect(&toy_table, &o, (1 << 16) - 1, 99, HAS_ALL, "last item of the grown arrays");
  ck_assert_int_eq(moreau_fields_resize(&toy_table, &o, 3), MOREAU_SUCCESS);
  for (size_t i = 0; i < 3; i++)
    toy_expect(&toy_table, &o, i, (long)i, HAS_ALL, "after shrinking");
  moreau_fields_free(&toy_table, &o);
  ck_assert_msg(!o.id && !o.vec && !o.flag && !o.extra, "free leaves every pointer NULL");

  /* Width 0: the variable-width field has no array, the others work. */
  ck_assert_int_eq(moreau_fields_resize(&toy_table_w0, &o, 4), MOREAU_SUCCESS);
  ck_assert_msg(o.extra == NULL, "a zero-width field keeps a NULL array");
  for (size_t i = 0; i < 4; i++)
    toy_fill(&toy_table_w0, &o, i, (long)i + 10);
  ck_assert_int_eq(moreau_fields_resize(&toy_table_w0, &o, 4096), MOREAU_SUCCESS);
  for (size_t i = 0; i < 4; i++)
    toy_expect(&toy_table_w0, &o, i, (long)i + 10, HAS_ALL, "width 0 after growing");
  moreau_fields_free(&toy_table_w0, &o);
}
END_TEST

START_TEST(test_toy_copy)
{
  toy o = {0};
  ck_assert_int_eq(moreau_fields_resize(&toy_table, &o, 6), MOREAU_SUCCESS);
  for (size_t i = 0; i < 6; i++)
    toy_fill(&toy_table, &o, i, (long)i);
  moreau_fields_copy(&toy_table, &o, 4, 1);
  for (size_t i = 0; i < 6; i++)
    toy_expect(&toy_table, &o, i, i == 1 ? 4 : (long)i, HAS_ALL, "copy 4 -> 1");
  moreau_fields_free(&toy_table, &o);

  /* Width 0: copying must not touch the NULL array. */
  ck_assert_int_eq(moreau_fields_resize(&toy_table_w0, &o, 3), MOREAU_SUCCESS);
  for (size_t i = 0; i < 3; i++)
    toy_fill(&toy_table_w0, &o, i, (long)i);
  moreau_fields_copy(&toy_table_w0, &o, 0, 2);
  toy_expect(&toy_table_w0, &o, 2, 0, HAS_ALL, "width 0 copy 0 -> 2");
  toy_expect(&toy_table_w0, &o, 1, 1, HAS_ALL, "width 0 copy leaves item 1");
  moreau_fields_free(&toy_table_w0, &o);
}
END_TEST

START_TEST(test_toy_permute)
{
  /* A permutation with a fixed point (4), a 2-cycle and a 3-cycle. */
  static const int32_t perm[6] = {3, 0, 5, 1, 4, 2};
  toy o = {0};
  for (int w = 0; w < 2; w++) {
    const moreau_field_table *t = w ? &toy_table_w0 : &toy_table;
    ck_assert_int_eq(moreau_fields_resize(t, &o, 8), MOREAU_SUCCESS);
    for (size_t i = 0; i < 8; i++)
      toy_fill(t, &o, i, (long)i);
    ck_assert_int_eq(moreau_fields_permute(t, &o, 6, perm), MOREAU_SUCCESS);
    for (size_t i = 0; i < 6; i++)
      toy_expect(t, &o, i, perm[i], HAS_ALL, w ? "width 0 permuted" : "permuted: new i is old perm[i]");
    /* Only the first n items are reordered. */
    for (size_t i = 6; i < 8; i++)
      toy_expect(t, &o, i, (long)i, HAS_ALL, "beyond n");
    moreau_fields_free(t, &o);
  }
}
END_TEST

START_TEST(test_toy_record_doubles)
{
  /* Byte sums of the selected fields: id 8, vec 3 x 8, flag 4, extra
   * var_width x 8, rounded up to whole doubles. */
  ck_assert_uint_eq(moreau_fields_record_doubles(&toy_table, MOREAU_FIELD_SNAPSHOT), doubles_for(8 + 4));
  ck_assert_uint_eq(moreau_fields_record_doubles(&toy_table, MOREAU_FIELD_SNAPSHOT), 2);
  ck_assert_uint_eq(moreau_fields_record_doubles(&toy_table, MOREAU_FIELD_GHOST),
                    doubles_for(8 + 4 + TOY_VAR_WIDTH * 8));
  ck_assert_uint_eq(moreau_fields_record_doubles(&toy_table, MOREAU_FIELD_MIGRATE),
                    doubles_for(8 + 24 + TOY_VAR_WIDTH * 8));
  ck_assert_uint_eq(moreau_fields_record_doubles(&toy_table, MOREAU_FIELD_CHECKPOINT), 0);
  ck_assert_uint_eq(moreau_fields_record_doubles(&toy_table, MOREAU_FIELD_ALL),
                    doubles_for(8 + 24 + 4 + TOY_VAR_WIDTH * 8));
  ck_assert_uint_eq(moreau_fields_record_doubles(&toy_table_w0, MOREAU_FIELD_GHOST), doubles_for(8 + 4));
  ck_assert_uint_eq(moreau_fields_record_doubles(&toy_table_w0, MOREAU_FIELD_MIGRATE), doubles_for(8 + 24));
}
END_TEST

/* Packs item i of src with mask, checks the record's layout, unpacks it into
 * item j of dst (filled with other values first) and checks that exactly the
 * fields of mask arrived. */
static void pack_roundtrip(const moreau_field_table *t, const toy *src, size_t i, long k, toy *dst, size_t j,
                           unsigned mask)
{
  size_t nd = moreau_fields_record_doubles(t, mask), used = 0;
  double rec[16];
  unsigned char *bytes = (unsigned char *)rec;
  char what[64];
  snprintf(what, sizeof(what), "mask %u width %d tag %ld", mask, t->var_width, k);
  for (int f = 0; f < t->n; f++)
    if (t->field[f].flags & mask) used += moreau_field_bytes(t, &t->field[f]);
  ck_assert(nd + 1 <= sizeof(rec) / sizeof(rec[0]));
  memset(rec, 0xff, sizeof(rec));
  moreau_fields_pack(t, src, mask, i, rec);
  /* Fields in table order from the first byte: the id leads (the history
   * router reads gid_a there), bit for bit. */
  if (mask & toy_fields[0].flags) ck_assert_msg(!memcmp(rec, &src->id[i], 8), "%s: record starts with the id", what);
  for (size_t b = used; b < nd * sizeof(double); b++)
    ck_assert_msg(bytes[b] == 0, "%s: padding byte %zu of %zu is %u, want 0", what, b, nd * sizeof(double), bytes[b]);
  for (size_t b = nd * sizeof(double); b < (nd + 1) * sizeof(double); b++)
    ck_assert_msg(bytes[b] == 0xff, "%s: pack wrote byte %zu past the record of %zu doubles", what, b, nd);
  toy_fill(t, dst, j, 77);
  moreau_fields_unpack(t, dst, mask, j, rec);
  toy_expect(t, dst, j, k, toy_present(mask), what);
}

START_TEST(test_toy_pack_unpack)
{
  static const unsigned masks[] = {MOREAU_FIELD_MIGRATE, MOREAU_FIELD_GHOST, MOREAU_FIELD_SNAPSHOT,
                                   MOREAU_FIELD_MIGRATE | MOREAU_FIELD_GHOST, MOREAU_FIELD_ALL};
  for (int w = 0; w < 2; w++) {
    const moreau_field_table *t = w ? &toy_table_w0 : &toy_table;
    toy src = {0}, dst = {0};
    ck_assert_int_eq(moreau_fields_resize(t, &src, 8), MOREAU_SUCCESS);
    ck_assert_int_eq(moreau_fields_resize(t, &dst, 8), MOREAU_SUCCESS);
    /* Tags 0-5 are the special ids (INT64_MIN, -1, 2^53 + 1, ...). */
    for (size_t i = 0; i < 8; i++)
      toy_fill(t, &src, i, (long)i);
    for (size_t m = 0; m < sizeof(masks) / sizeof(masks[0]); m++)
      for (size_t i = 0; i < 8; i++)
        pack_roundtrip(t, &src, i, (long)i, &dst, 7 - i, masks[m]);
    moreau_fields_free(t, &src);
    moreau_fields_free(t, &dst);
  }
}
END_TEST

START_TEST(test_toy_value)
{
  toy o = {0};
  toy_value v, got;
  ck_assert_int_eq(moreau_fields_resize(&toy_table, &o, 3), MOREAU_SUCCESS);
  for (size_t i = 0; i < 3; i++)
    toy_fill(&toy_table, &o, i, (long)i + 20);
  memset(&v, 0, sizeof(v));
  v.id = id_of(2);
  v.flag = flag_of(2);
  for (int c = 0; c < 3; c++)
    v.vec[c] = vec_of(2, c);
  /* set: the fields with a value member take it, the other (extra) is zeroed. */
  moreau_fields_set_value(&toy_table, &o, 1, &v);
  toy_expect(&toy_table, &o, 1, 2, HAS_ID | HAS_VEC | HAS_FLAG, "set_value");
  toy_expect(&toy_table, &o, 0, 20, HAS_ALL, "set_value leaves item 0");
  toy_expect(&toy_table, &o, 2, 22, HAS_ALL, "set_value leaves item 2");

  /* get: every member with a field is written (the 0xa5 filler must go). */
  memset(&got, 0xa5, sizeof(got));
  moreau_fields_get_value(&toy_table, &o, 2, &got);
  ck_assert_msg(got.id == id_of(22), "get_value id %" PRId64 ", want %" PRId64, got.id, id_of(22));
  ck_assert_msg(got.flag == flag_of(22), "get_value flag %d, want %d", got.flag, flag_of(22));
  for (int c = 0; c < 3; c++)
    ck_assert_msg(got.vec[c] == vec_of(22, c), "get_value vec[%d] %.17g, want %.17g", c, got.vec[c], vec_of(22, c));
  moreau_fields_free(&toy_table, &o);
}
END_TEST

/* ---- The body schema ------------------------------------------------------------------------------------------- */

/* A body whose every member has values of its own, all a function of gid:
 * value = 64 gid + 4 member + component + 0.5, so any two members differ. */
static void make_body(moreau_gid gid, moreau_body *b)
{
  double *vecs[6] = {b->x, b->v, b->w, b->f_ext, b->t_ext, b->q};
  memset(b, 0, sizeof(*b));
  b->gid = gid;
  for (int m = 0; m < 6; m++)
    for (int k = 0; k < (m == 5 ? 4 : 3); k++)
      vecs[m][k] = 64.0 * (double)gid + 4.0 * m + k + 0.5;
  b->radius = 64.0 * (double)gid + 24.25;
  b->inv_mass = 64.0 * (double)gid + 28.25;
  b->inv_inertia = 64.0 * (double)gid + 32.25;
  b->material = (int32_t)(3 * gid + 1);
  b->fixed = (int32_t)(gid % 3 != 0); /* 0 and 1 both occur */
  b->shape = (int32_t)(5 * gid + 2);
  b->glued = (int32_t)(3 * gid + 1);
}

/* Asserts member by member (bitwise) that got equals want. */
static void expect_body(const moreau_body *got, const moreau_body *want, const char *what)
{
#define EXPECT_MEMBER(m, fmt, first)                                                                                   \
  ck_assert_msg(!memcmp(&got->m, &want->m, sizeof(got->m)), "%s: gid %" PRId64 " member " #m " " fmt ", want " fmt,    \
                what, want->gid, got->first, want->first)
  EXPECT_MEMBER(gid, "%" PRId64, gid);
  EXPECT_MEMBER(x, "[0] %.17g", x[0]);
  EXPECT_MEMBER(v, "[0] %.17g", v[0]);
  EXPECT_MEMBER(w, "[0] %.17g", w[0]);
  EXPECT_MEMBER(q, "[0] %.17g", q[0]);
  EXPECT_MEMBER(f_ext, "[0] %.17g", f_ext[0]);
  EXPECT_MEMBER(t_ext, "[0] %.17g", t_ext[0]);
  EXPECT_MEMBER(radius, "%.17g", radius);
  EXPECT_MEMBER(inv_mass, "%.17g", inv_mass);
  EXPECT_MEMBER(inv_inertia, "%.17g", inv_inertia);
  EXPECT_MEMBER(material, "%d", material);
  EXPECT_MEMBER(fixed, "%d", fixed);
  EXPECT_MEMBER(shape, "%d", shape);
  EXPECT_MEMBER(glued, "%d", glued);
#undef EXPECT_MEMBER
}

/* get into a struct full of filler, so a member the schema forgot shows. */
static void get_body(const moreau_bodies *b, moreau_lid i, moreau_body *out)
{
  memset(out, 0xa5, sizeof(*out));
  moreau_bodies_get(b, i, out);
}

START_TEST(test_body_push_get)
{
  moreau_bodies *b;
  moreau_body in, out;
  ck_assert_int_eq(moreau_bodies_create(MPI_COMM_SELF, 3, &b), MOREAU_SUCCESS);
  /* More than the first reservation (16), so growth keeps every member. */
  for (moreau_gid g = 1; g <= 40; g++) {
    make_body(g, &in);
    ck_assert_int_eq(moreau_bodies_push_owned(b, &in), MOREAU_SUCCESS);
  }
  ck_assert_int_eq(b->n_owned, 40);
  for (moreau_lid i = 0; i < 40; i++) {
    make_body(i + 1, &in);
    get_body(b, i, &out);
    expect_body(&out, &in, "push_owned / get");
  }
  /* set replaces every member of one body only. */
  make_body(1000, &in);
  ck_assert_int_eq(moreau_bodies_set(b, 5, &in), MOREAU_SUCCESS);
  get_body(b, 5, &out);
  expect_body(&out, &in, "set / get");
  make_body(7, &in);
  get_body(b, 6, &out);
  expect_body(&out, &in, "set leaves the next body");
  ck_assert_int_eq(moreau_bodies_destroy(&b), MOREAU_SUCCESS);
  ck_assert_ptr_null(b);
}
END_TEST

START_TEST(test_body_records)
{
  moreau_bodies *src, *dst;
  moreau_body in, out, want;
  double rec[32];
  /* Ghost records: gid 8, five 3-vectors (x v w f_ext t_ext), q (4
   * doubles: a cluster ghost's contactors follow it), three scalars
   * (radius, inv_mass, inv_inertia), material 4, shape 4, glued 4 (a rough
   * wall's grain: its rows move the wall); migration records add fixed (4). */
  const size_t ghost_bytes = 8 + 5 * 24 + 32 + 3 * 8 + 4 + 4 + 4, migrate_bytes = ghost_bytes + 4;
  ck_assert_uint_eq(moreau_bodies_record_doubles(MOREAU_FIELD_GHOST), doubles_for(ghost_bytes));
  ck_assert_uint_eq(moreau_bodies_record_doubles(MOREAU_FIELD_MIGRATE), doubles_for(migrate_bytes));
  ck_assert_uint_le(moreau_bodies_record_doubles(MOREAU_FIELD_MIGRATE), sizeof(rec) / sizeof(rec[0]));

  ck_assert_int_eq(moreau_bodies_create(MPI_COMM_SELF, 3, &src), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_bodies_create(MPI_COMM_SELF, 3, &dst), MOREAU_SUCCESS);
  make_body(4, &in); /* fixed = 1: the ghost must lose it */
  ck_assert(in.fixed != 0);
  ck_assert_int_eq(moreau_bodies_push_owned(src, &in), MOREAU_SUCCESS);
  make_body(9, &want);
  ck_assert_int_eq(moreau_bodies_push_owned(dst, &want), MOREAU_SUCCESS);

  /* A ghost slot that held another body first: unpacking must zero what the
   * record does not carry, not leave the old values. */
  make_body(50, &out);
  ck_assert_int_eq(moreau_bodies_push_ghost(dst, &out), MOREAU_SUCCESS);
  moreau_bodies_clear_ghosts(dst);
  moreau_bodies_pack(src, MOREAU_FIELD_GHOST, 0, rec);
  ck_assert_int_eq(moreau_bodies_push_record(dst, 1, MOREAU_FIELD_GHOST, rec), MOREAU_SUCCESS);
  ck_assert_int_eq(dst->n_owned, 1);
  ck_assert_int_eq(dst->n_ghost, 1);
  get_body(dst, 1, &out);
  want = in;
  want.fixed = 0;
  expect_body(&out, &want, "ghost record: fixed zero, the rest copied");
  make_body(9, &want);
  get_body(dst, 0, &out);
  expect_body(&out, &want, "ghost record leaves the owned body");

  /* A migration record carries everything; an owned push drops the ghosts. */
  moreau_bodies_pack(src, MOREAU_FIELD_MIGRATE, 0, rec);
  ck_assert_int_eq(moreau_bodies_push_record(dst, 0, MOREAU_FIELD_MIGRATE, rec), MOREAU_SUCCESS);
  ck_assert_int_eq(dst->n_owned, 2);
  ck_assert_int_eq(dst->n_ghost, 0);
  get_body(dst, 1, &out);
  expect_body(&out, &in, "migration record: every member");
  ck_assert_int_eq(moreau_bodies_destroy(&src), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_bodies_destroy(&dst), MOREAU_SUCCESS);
}
END_TEST

/* A body as make_body with no external force or torque. */
static void make_free_body(moreau_gid gid, moreau_body *b)
{
  make_body(gid, b);
  memset(b->f_ext, 0, sizeof(b->f_ext));
  memset(b->t_ext, 0, sizeof(b->t_ext));
}

/* External forces and torques have no arrays (48 bytes a body) until a body
 * with one arrives, by push, set or record, and reads are zeros meanwhile;
 * once there, they hold every body's, through growth, records and
 * compaction. A -0 counts as one (it keeps its bits). trim gives them up
 * when every body's are zero. */
START_TEST(test_body_external_lazy)
{
  moreau_bodies *b, *src;
  moreau_body in, out;
  double rec[32];
  ck_assert_int_eq(moreau_bodies_create(MPI_COMM_SELF, 3, &b), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_bodies_create(MPI_COMM_SELF, 3, &src), MOREAU_SUCCESS);
  for (moreau_gid g = 1; g <= 20; g++) {
    make_free_body(g, &in);
    ck_assert_int_eq(moreau_bodies_push_owned(b, &in), MOREAU_SUCCESS);
  }
  ck_assert_ptr_null(b->f_ext);
  ck_assert_ptr_null(b->t_ext);
  make_free_body(3, &in);
  get_body(b, 2, &out);
  expect_body(&out, &in, "no external arrays: get");
  /* Records of such bodies carry zeros, and leave a receiver without arrays. */
  make_free_body(77, &in);
  ck_assert_int_eq(moreau_bodies_push_owned(src, &in), MOREAU_SUCCESS);
  moreau_bodies_pack(src, MOREAU_FIELD_MIGRATE, 0, rec);
  ck_assert_int_eq(moreau_bodies_push_record(b, 0, MOREAU_FIELD_MIGRATE, rec), MOREAU_SUCCESS);
  ck_assert_ptr_null(b->f_ext);
  get_body(b, 20, &out);
  expect_body(&out, &in, "record without external force");
  /* Compaction and renumbering-style copies work without the arrays. */
  char keep[21];
  for (int i = 0; i < 21; i++)
    keep[i] = (char)(i != 4);
  ck_assert_int_eq(moreau_bodies_compact_owned(b, keep), MOREAU_SUCCESS);
  ck_assert_int_eq(b->n_owned, 20);
  make_free_body(6, &in);
  get_body(b, 4, &out);
  expect_body(&out, &in, "compaction without external arrays");

  /* A record with a torque gives them, zeros for the bodies before. */
  make_body(88, &in);
  memset(in.f_ext, 0, sizeof(in.f_ext));
  ck_assert_int_eq(moreau_bodies_set(src, 0, &in), MOREAU_SUCCESS);
  ck_assert_ptr_nonnull(src->f_ext);
  moreau_bodies_pack(src, MOREAU_FIELD_GHOST, 0, rec);
  ck_assert_int_eq(moreau_bodies_push_record(b, 1, MOREAU_FIELD_GHOST, rec), MOREAU_SUCCESS);
  ck_assert_ptr_nonnull(b->f_ext);
  ck_assert_ptr_nonnull(b->t_ext);
  in.fixed = 0;
  get_body(b, 20, &out);
  expect_body(&out, &in, "ghost record with a torque");
  make_free_body(1, &in);
  get_body(b, 0, &out);
  expect_body(&out, &in, "the bodies before read zeros");
  /* Growth past the capacity keeps them. */
  for (moreau_gid g = 100; g < 140; g++) {
    make_body(g, &in);
    ck_assert_int_eq(moreau_bodies_push_owned(b, &in), MOREAU_SUCCESS);
  }
  make_body(139, &in);
  get_body(b, b->n_owned - 1, &out);
  expect_body(&out, &in, "external force after growth");
  moreau_bodies_trim_external(b);
  ck_assert_ptr_nonnull(b->f_ext);
  ck_assert_int_eq(moreau_bodies_destroy(&b), MOREAU_SUCCESS);

  /* A push of -0 gives arrays and keeps the sign; trim keeps them for it and
   * drops them when all are +0. */
  ck_assert_int_eq(moreau_bodies_create(MPI_COMM_SELF, 2, &b), MOREAU_SUCCESS);
  make_free_body(5, &in);
  in.f_ext[1] = -0.0;
  ck_assert_int_eq(moreau_bodies_push_owned(b, &in), MOREAU_SUCCESS);
  ck_assert_ptr_nonnull(b->f_ext);
  get_body(b, 0, &out);
  expect_body(&out, &in, "an external force of -0");
  moreau_bodies_trim_external(b);
  ck_assert_ptr_nonnull(b->f_ext);
  b->f_ext[1] = 0.0;
  moreau_bodies_trim_external(b);
  ck_assert_ptr_null(b->f_ext);
  ck_assert_ptr_null(b->t_ext);
  in.f_ext[1] = 0.0;
  get_body(b, 0, &out);
  expect_body(&out, &in, "after trim");
  ck_assert_int_eq(moreau_bodies_enable_external(b), MOREAU_SUCCESS);
  ck_assert_msg(b->f_ext[0] == 0.0 && b->t_ext[2] == 0.0, "enabled arrays are not zero");
  ck_assert_int_eq(moreau_bodies_destroy(&b), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_bodies_destroy(&src), MOREAU_SUCCESS);
}
END_TEST

/* ---- Contacts and their law state ------------------------------------------------------------------------------ */

#define SW 2 /* state width of the contact tests */

typedef struct {
  moreau_gid ga, gb;
  int32_t p;
} key;

/* Known values of the contact with key k: force, state, local indices and
 * geometry. All exact in binary. */
static double force_of(key k, int c) { return (double)(k.ga * 100 + k.gb % 1000) + 0.5 * k.p + 0.125 * c; }
static double state_of(key k, int j) { return -(double)(k.ga * 1000 + k.gb % 1000 * 10 + k.p) - 0.25 * j - 0.0625; }
static double geom_of(key k, int c) { return (double)k.ga + 0.001953125 * c + 0.0078125 * k.p; }
static moreau_lid lid_of(key k) { return (moreau_lid)(k.ga * 10 + k.p); }

static int key_less(key x, key y)
{
  if (x.ga != y.ga) return x.ga < y.ga;
  if (x.gb != y.gb) return x.gb < y.gb;
  return x.p < y.p;
}
static int key_eq(key x, key y) { return x.ga == y.ga && x.gb == y.gb && x.p == y.p; }
static key key_at(const moreau_contacts *c, moreau_lid i) { return (key){c->gid_a[i], c->gid_b[i], c->point[i]}; }

/* Pushes a contact with every field set from its key; its list holds lever
 * arms (given before its first contact, so no bodies are needed to form
 * those of the contacts it holds). */
static void push_full(moreau_contacts *c, key k)
{
  moreau_lid i;
  if (!c->ca) {
    ck_assert_int_eq(c->n, 0);
    ck_assert_int_eq(moreau_contacts_enable_arms(c, NULL), MOREAU_SUCCESS);
  }
  ck_assert_int_eq(moreau_contacts_push(c, k.ga, k.gb, k.p, lid_of(k), -lid_of(k), &i), MOREAU_SUCCESS);
  for (int d = 0; d < 3; d++) {
    c->force[3 * i + d] = force_of(k, d);
    c->normal[3 * i + d] = geom_of(k, d);
    c->ca[3 * i + d] = geom_of(k, d + 9);
    c->cb[3 * i + d] = geom_of(k, d + 12);
  }
  c->gap[i] = geom_of(k, 15);
  for (int j = 0; j < c->state_width; j++)
    c->state[(size_t)c->state_width * i + j] = state_of(k, j);
}

/* Asserts that contact i has the force and state of its key (or zeros). */
static void expect_history(const moreau_contacts *c, moreau_lid i, int zero, const char *what)
{
  key k = key_at(c, i);
  for (int d = 0; d < 3; d++) {
    double want = zero ? 0.0 : force_of(k, d);
    ck_assert_msg(c->force[3 * i + d] == want,
                  "%s: contact %d (%" PRId64 ",%" PRId64 ",%d) force[%d] %.17g, want %.17g", what, i, k.ga, k.gb, k.p,
                  d, c->force[3 * i + d], want);
  }
  for (int j = 0; j < c->state_width; j++) {
    double got = c->state[(size_t)c->state_width * i + j], want = zero ? 0.0 : state_of(k, j);
    ck_assert_msg(got == want, "%s: contact %d (%" PRId64 ",%" PRId64 ",%d) state[%d] %.17g, want %.17g", what, i, k.ga,
                  k.gb, k.p, j, got, want);
  }
}

/* Asserts that every field of contact i, geometry included, is its key's. */
static void expect_full(const moreau_contacts *c, moreau_lid i, const char *what)
{
  key k = key_at(c, i);
  expect_history(c, i, 0, what);
  ck_assert_msg(c->a[i] == lid_of(k) && c->b[i] == -lid_of(k), "%s: contact %d a %d b %d, want %d %d", what, i, c->a[i],
                c->b[i], lid_of(k), -lid_of(k));
  for (int d = 0; d < 3; d++) {
    ck_assert_msg(c->normal[3 * i + d] == geom_of(k, d), "%s: contact %d normal[%d]", what, i, d);
    ck_assert_msg(c->ca[3 * i + d] == geom_of(k, d + 9), "%s: contact %d ca[%d]", what, i, d);
    ck_assert_msg(c->cb[3 * i + d] == geom_of(k, d + 12), "%s: contact %d cb[%d]", what, i, d);
  }
  ck_assert_msg(c->gap[i] == geom_of(k, 15), "%s: contact %d gap %.17g", what, i, c->gap[i]);
}

/* Unsorted keys: equal gid_a with different gid_b, equal pairs with
 * different points, a wall, and more than the first reservation (64). */
static int scrambled_keys(key *k, int max)
{
  int n = 0;
  for (int i = 0; i < 30 && n + 3 <= max; i++) {
    moreau_gid ga = (moreau_gid)((i * 17) % 30) + 1;
    k[n++] = (key){ga, ga + 5, 1};
    k[n++] = (key){ga, MOREAU_WALL_GID(2), 0};
    k[n++] = (key){ga, ga + 5, 0};
  }
  return n;
}

START_TEST(test_contacts_push_zero_state)
{
  moreau_contacts *c, *bad = NULL;
  ck_assert_int_eq(moreau_contacts_create(SW, &c), MOREAU_SUCCESS);
  ck_assert_int_eq(c->state_width, SW);
  ck_assert_ptr_eq(moreau_contacts_fields(c), &c->schema);
  ck_assert_int_eq(moreau_contacts_fields(c)->var_width, SW);
  for (int i = 0; i < 5; i++)
    push_full(c, (key){i + 1, i + 2, 0});
  /* Pushing into slots that held force and state: both start at zero. */
  moreau_contacts_clear(c);
  ck_assert_int_eq(c->n, 0);
  for (int i = 0; i < 5; i++) {
    moreau_lid idx;
    ck_assert_int_eq(moreau_contacts_push(c, 10 + i, 20 + i, i, i, -1 - i, &idx), MOREAU_SUCCESS);
    ck_assert_int_eq(idx, i);
  }
  ck_assert_int_eq(c->n, 5);
  for (moreau_lid i = 0; i < 5; i++) {
    ck_assert_msg(c->gid_a[i] == 10 + i && c->gid_b[i] == 20 + i && c->point[i] == i, "key of contact %d", i);
    ck_assert_msg(c->a[i] == i && c->b[i] == -1 - i, "local indices of contact %d: %d %d", i, c->a[i], c->b[i]);
    expect_history(c, i, 1, "push");
  }
  ck_assert_int_eq(moreau_contacts_destroy(&c), MOREAU_SUCCESS);
  ck_assert_ptr_null(c);
  /* A negative width is refused. */
  ck_assert_int_ne(moreau_contacts_create(-1, &bad), MOREAU_SUCCESS);
  moreau_error_clear();
}
END_TEST

START_TEST(test_contacts_sort)
{
  key k[96];
  int n = scrambled_keys(k, 96);
  moreau_contacts *c;
  ck_assert_int_gt(n, 64);
  ck_assert_int_eq(moreau_contacts_create(SW, &c), MOREAU_SUCCESS);
  for (int i = 0; i < n; i++)
    push_full(c, k[i]);
  ck_assert_int_eq(moreau_contacts_sort(c), MOREAU_SUCCESS);
  ck_assert_int_eq(c->n, n);
  for (moreau_lid i = 0; i < n; i++) {
    if (i > 0) ck_assert_msg(key_less(key_at(c, i - 1), key_at(c, i)), "sorted by key at %d", i);
    /* State and every other field went with the key. */
    expect_full(c, i, "sort");
  }
  ck_assert_int_eq(moreau_contacts_destroy(&c), MOREAU_SUCCESS);
}
END_TEST

START_TEST(test_contacts_warm_start)
{
  /* prev holds keys before and between those of cur, and cur ends with
   * keys past prev's last (the merge walk's three cases); matches are
   * counted here by brute force. */
  key kp[96], kc[96];
  int np = 0, nc = 0;
  moreau_lid matched = -1;
  long want_matched = 0;
  moreau_contacts *prev, *cur, *other;
  for (moreau_gid ga = 1; ga <= 24; ga++) {
    if (ga % 3 != 0) kp[np++] = (key){ga, ga + 1, 0};
    if (ga % 4 != 0) kp[np++] = (key){ga, ga + 1, 1};
    if (ga % 2 == 0) kc[nc++] = (key){ga, ga + 1, 0};
    if (ga % 5 != 0) kc[nc++] = (key){ga, ga + 1, 1};
    if (ga % 7 == 0) kc[nc++] = (key){ga, ga + 2, 0}; /* never in prev */
  }
  ck_assert_int_eq(moreau_contacts_create(SW, &prev), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_contacts_create(SW, &cur), MOREAU_SUCCESS);
  for (int i = 0; i < np; i++)
    push_full(prev, kp[i]);
  /* cur's force and state hold values that must all be overwritten. */
  for (int i = 0; i < nc; i++) {
    push_full(cur, kc[i]);
    for (int d = 0; d < 3; d++)
      cur->force[3 * i + d] = 1e6 + i;
    for (int j = 0; j < SW; j++)
      cur->state[SW * i + j] = -1e6 - i;
  }
  for (int i = 0; i < nc; i++)
    for (int j = 0; j < np; j++)
      want_matched += key_eq(kc[i], kp[j]);
  ck_assert_int_gt(want_matched, 0);
  ck_assert_int_lt(want_matched, nc);
  ck_assert_int_eq(moreau_contacts_warm_start(cur, prev, &matched), MOREAU_SUCCESS);
  ck_assert_int_eq(matched, want_matched);
  for (moreau_lid i = 0; i < nc; i++) {
    int found = 0;
    for (int j = 0; j < np; j++)
      found |= key_eq(key_at(cur, i), kp[j]);
    expect_history(cur, i, !found, found ? "warm start, matched" : "warm start, unmatched");
  }
  /* Lists of different state widths cannot warm-start each other. */
  ck_assert_int_eq(moreau_contacts_create(SW + 1, &other), MOREAU_SUCCESS);
  ck_assert_int_ne(moreau_contacts_warm_start(other, prev, NULL), MOREAU_SUCCESS);
  moreau_error_clear();
  ck_assert_int_eq(moreau_contacts_destroy(&other), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_contacts_destroy(&prev), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_contacts_destroy(&cur), MOREAU_SUCCESS);
}
END_TEST

START_TEST(test_contacts_compact)
{
  key k[96];
  int n = scrambled_keys(k, 96), kept = 0;
  char keep[96];
  moreau_contacts *c;
  ck_assert_int_eq(moreau_contacts_create(SW, &c), MOREAU_SUCCESS);
  for (int i = 0; i < n; i++) {
    push_full(c, k[i]);
    keep[i] = (char)(i % 3 == 0 || i % 5 == 1);
  }
  moreau_contacts_compact(c, keep);
  for (int i = 0; i < n; i++) {
    if (!keep[i]) continue;
    /* The kept contacts in their order, each with its own state. */
    ck_assert_msg(key_eq(key_at(c, kept), k[i]), "compact: contact %d is kept #%d", kept, i);
    expect_full(c, kept, "compact");
    kept++;
  }
  ck_assert_int_eq(c->n, kept);
  ck_assert_int_eq(moreau_contacts_destroy(&c), MOREAU_SUCCESS);
}
END_TEST

START_TEST(test_contacts_records)
{
  key k[96];
  int n = scrambled_keys(k, 96);
  double rec[16];
  moreau_contacts *c, *d, *w0, *w3;
  ck_assert_int_eq(moreau_contacts_create(SW, &c), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_contacts_create(SW, &d), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_contacts_create(0, &w0), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_contacts_create(3, &w3), MOREAU_SUCCESS);
  /* gid_a 8, gid_b 8, point 4, force 24, state 8 per double. */
  ck_assert_uint_eq(moreau_contacts_record_doubles(c), doubles_for(8 + 8 + 4 + 24 + SW * 8));
  ck_assert_uint_eq(moreau_contacts_record_doubles(w0), doubles_for(8 + 8 + 4 + 24));
  ck_assert_uint_eq(moreau_contacts_record_doubles(w3), doubles_for(8 + 8 + 4 + 24 + 3 * 8));
  ck_assert_uint_le(moreau_contacts_record_doubles(c), sizeof(rec) / sizeof(rec[0]));

  /* d's slots held full contacts first: what a record does not carry must
   * come back zero, not stale. */
  for (int i = 0; i < n; i++) {
    push_full(c, k[i]);
    push_full(d, k[(i + 1) % n]);
  }
  moreau_contacts_clear(d);
  for (moreau_lid i = 0; i < n; i++) {
    moreau_gid ga;
    moreau_contacts_pack(c, i, rec);
    /* The history router reads gid_a from the record's first double. */
    memcpy(&ga, rec, sizeof(ga));
    ck_assert_msg(ga == k[i].ga, "record %d starts with gid_a %" PRId64 ", want %" PRId64, i, ga, k[i].ga);
    ck_assert_int_eq(moreau_contacts_push_record(d, rec), MOREAU_SUCCESS);
  }
  ck_assert_int_eq(d->n, n);
  for (moreau_lid i = 0; i < n; i++) {
    ck_assert_msg(key_eq(key_at(d, i), k[i]), "record %d: key", i);
    expect_history(d, i, 0, "history record");
    ck_assert_msg(d->a[i] == -1 && d->b[i] == -1, "record %d: a %d b %d, want -1 -1", i, d->a[i], d->b[i]);
    for (int e = 0; e < 3; e++)
      ck_assert_msg(d->normal[3 * i + e] == 0.0 && d->ca[3 * i + e] == 0.0 && d->cb[3 * i + e] == 0.0,
                    "record %d: geometry component %d not zero", i, e);
    ck_assert_msg(d->gap[i] == 0.0, "record %d: gap %.17g, want 0", i, d->gap[i]);
  }

  ck_assert_int_eq(moreau_contacts_destroy(&w0), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_contacts_destroy(&w3), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_contacts_destroy(&c), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_contacts_destroy(&d), MOREAU_SUCCESS);
}
END_TEST

START_TEST(test_contacts_history_list)
{
  key k[96];
  int n = scrambled_keys(k, 96), n_migrate = 0;
  double rec[16];
  moreau_contacts *c, *h, *cur, *wide, *full;
  const moreau_field_table *tc, *th;
  moreau_lid matched = -1;
  ck_assert_int_eq(moreau_contacts_create(SW, &c), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_contacts_create_history(SW, &h), MOREAU_SUCCESS);
  tc = moreau_contacts_fields(c);
  th = moreau_contacts_fields(h);
  /* The history schema is exactly the fields that migrate, and they lead
   * the full schema (copy_history relies on it). */
  for (int f = 0; f < tc->n; f++)
    n_migrate += (tc->field[f].flags & MOREAU_FIELD_MIGRATE) != 0;
  ck_assert_int_eq(th->n, n_migrate);
  ck_assert_int_eq(th->var_width, SW);
  for (int f = 0; f < tc->n; f++)
    ck_assert_msg(((tc->field[f].flags & MOREAU_FIELD_MIGRATE) != 0) == (f < th->n), "field %s: history %d, at %d",
                  tc->field[f].name, (tc->field[f].flags & MOREAU_FIELD_MIGRATE) != 0, f);
  ck_assert_ptr_eq(th->field, tc->field);
  ck_assert_uint_eq(moreau_contacts_record_doubles(h), moreau_contacts_record_doubles(c));

  for (int i = 0; i < n; i++)
    push_full(c, k[i]);
  /* Twice: the second copy into a filled history replaces it. */
  for (int round = 0; round < 2; round++)
    ck_assert_int_eq(moreau_contacts_copy_history(h, c), MOREAU_SUCCESS);
  ck_assert_int_eq(h->n, n);
  /* Only the history's arrays were allocated. */
  ck_assert_ptr_null(h->a);
  ck_assert_ptr_null(h->b);
  ck_assert_ptr_null(h->normal);
  ck_assert_ptr_null(h->ca);
  ck_assert_ptr_null(h->gap);
  ck_assert_ptr_null(h->vshift);
  for (moreau_lid i = 0; i < n; i++) {
    ck_assert_msg(key_eq(key_at(h, i), k[i]), "history %d: key", i);
    expect_history(h, i, 0, "copied history");
    expect_full(c, i, "the copy's source");
  }

  /* It migrates (records in, sorted) and warm-starts a full list. */
  moreau_contacts_pack(c, 0, rec);
  ck_assert_int_eq(moreau_contacts_push_record(h, rec), MOREAU_SUCCESS);
  ck_assert_int_eq(h->n, n + 1);
  expect_history(h, n, 0, "a record pushed into a history list");
  h->n = n;
  ck_assert_int_eq(moreau_contacts_sort(h), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_contacts_create(SW, &cur), MOREAU_SUCCESS);
  for (int i = 0; i < n; i++)
    ck_assert_int_eq(moreau_contacts_push(cur, h->gid_a[i], h->gid_b[i], h->point[i], 0, -1, NULL), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_contacts_warm_start(cur, h, &matched), MOREAU_SUCCESS);
  ck_assert_int_eq(matched, n);
  for (moreau_lid i = 0; i < n; i++)
    expect_history(cur, i, 0, "warm start from a history list");

  /* A full list or a history of another width is not a target. */
  ck_assert_int_eq(moreau_contacts_create(SW, &full), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_contacts_create_history(SW + 1, &wide), MOREAU_SUCCESS);
  ck_assert_int_ne(moreau_contacts_copy_history(full, c), MOREAU_SUCCESS);
  moreau_error_clear();
  ck_assert_int_ne(moreau_contacts_copy_history(wide, c), MOREAU_SUCCESS);
  moreau_error_clear();
  ck_assert_int_eq(moreau_contacts_destroy(&full), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_contacts_destroy(&wide), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_contacts_destroy(&cur), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_contacts_destroy(&h), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_contacts_destroy(&c), MOREAU_SUCCESS);
}
END_TEST

/* Whether every history array of h lies inside [buf, buf + bytes). */
static int arrays_inside(const moreau_contacts *h, const char *buf, size_t bytes)
{
  const moreau_field_table *t = moreau_contacts_fields(h);
  for (int f = 0; f < t->n; f++) {
    const char *a = *moreau_field_slot(h, &t->field[f]);
    size_t len = (size_t)h->capacity * moreau_field_bytes(t, &t->field[f]);
    if (a < buf || a + len > buf + bytes) return 0;
  }
  return 1;
}

/* A history list in borrowed memory: it holds what a copy gives it, grows
 * out of the buffer into arrays of its own with its items, gives the buffer
 * back untouched on release, and is not moved into a buffer too small. */
START_TEST(test_contacts_history_borrowed)
{
  key k[96];
  int n = scrambled_keys(k, 96);
  double rec[16];
  const size_t bytes = 40 * 60 + 64; /* room for 40 items of 60 bytes (SW 2) and the arrays' padding */
  char *buf, *guard;
  moreau_contacts *c, *h;
  ck_assert_int_eq(moreau_contacts_create(SW, &c), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_contacts_create_history(SW, &h), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_malloc(bytes, &buf), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_malloc(bytes, &guard), MOREAU_SUCCESS);
  memset(buf, 0x5a, bytes);
  for (int i = 0; i < 30; i++)
    push_full(c, k[i]);

  /* 30 items fit: the copy lies in the buffer and reads back whole. */
  ck_assert_int_eq(moreau_contacts_borrow(h, buf, bytes), MOREAU_SUCCESS);
  ck_assert_int_eq(h->borrowed, 1);
  ck_assert_int_ge(h->capacity, 40);
  /* A second borrow is an error, not a free of the first buffer. */
  ck_assert_int_ne(moreau_contacts_borrow(h, buf, bytes), MOREAU_SUCCESS);
  moreau_error_clear();
  ck_assert_int_eq(h->borrowed, 1);
  ck_assert_int_eq(moreau_contacts_copy_history(h, c), MOREAU_SUCCESS);
  ck_assert_msg(arrays_inside(h, buf, bytes), "a borrowing history's arrays outside the buffer");
  for (moreau_lid i = 0; i < 30; i++) {
    ck_assert_msg(key_eq(key_at(h, i), k[i]), "borrowed history %d: key", i);
    expect_history(h, i, 0, "borrowed history");
  }

  /* Records pushed beyond the buffer move the list into arrays of its own. */
  for (int i = 30; i < n; i++)
    push_full(c, k[i]);
  for (int i = 30; i < n; i++) {
    moreau_contacts_pack(c, i, rec);
    ck_assert_int_eq(moreau_contacts_push_record(h, rec), MOREAU_SUCCESS);
  }
  ck_assert_int_eq(h->borrowed, 0);
  ck_assert_int_eq(h->n, n);
  ck_assert_msg(!arrays_inside(h, buf, bytes), "a grown history still in the buffer");
  for (moreau_lid i = 0; i < n; i++) {
    ck_assert_msg(key_eq(key_at(h, i), k[i]), "grown history %d: key", i);
    expect_history(h, i, 0, "a history grown out of its buffer");
  }

  /* 96 items do not fit: borrow leaves them where they are. */
  ck_assert_int_eq(moreau_contacts_borrow(h, buf, bytes), MOREAU_SUCCESS);
  ck_assert_int_eq(h->borrowed, 0);
  ck_assert_int_eq(h->n, n);
  expect_history(h, n - 1, 0, "a history too large to borrow");
  /* Released with arrays of its own: empty, arrays kept for the next copy. */
  moreau_contacts_release(h);
  ck_assert_int_eq(h->n, 0);
  ck_assert_int_ge(h->capacity, n);

  /* An empty list moves into the buffer (its own arrays freed: a leak or a
   * double free shows under the sanitizers) and gives it back unchanged. */
  ck_assert_int_eq(moreau_contacts_borrow(h, buf, bytes), MOREAU_SUCCESS);
  ck_assert_int_eq(h->borrowed, 1);
  c->n = 25;
  ck_assert_int_eq(moreau_contacts_copy_history(h, c), MOREAU_SUCCESS);
  memcpy(guard, buf, bytes);
  moreau_contacts_release(h);
  ck_assert_int_eq(h->n, 0);
  ck_assert_int_eq(h->borrowed, 0);
  ck_assert_ptr_null(h->force);
  ck_assert_ptr_null(h->gid_a);
  ck_assert_msg(!memcmp(guard, buf, bytes), "release wrote into the buffer");
  /* A list that never fits a NULL buffer keeps its arrays of its own. */
  ck_assert_int_eq(moreau_contacts_borrow(h, NULL, 0), MOREAU_SUCCESS);
  ck_assert_int_eq(h->borrowed, 0);

  ck_assert_int_eq(moreau_contacts_destroy(&h), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_contacts_destroy(&c), MOREAU_SUCCESS);
  moreau_free(&buf);
  moreau_free(&guard);
}
END_TEST

/* The frame contacts do not store: orthonormal and right-handed (s = n x t)
 * for normals along the axes (ties of the smallest component), the
 * diagonals and a spiral over the sphere; in 2D t is n turned by +90
 * degrees and s = e_z, bit for bit. The world force has the frame
 * components back. */
START_TEST(test_contacts_frame)
{
  /* Two or three components of equal size (ties of the smallest one). */
  static const double ties[6][3] = {{1, 1, 0}, {1, -1, 0}, {0, 1, 1}, {1, 0, -1}, {1, 1, -1}, {-1, 1, 1}};
  double n[3], t[3], s[3], again[2][3], st[3];
  moreau_contacts *c;
  const int N = 200;
  for (int k = 0; k < 12 + N; k++) {
    if (k < 6) { /* the axes, both ways */
      n[0] = n[1] = n[2] = 0.0;
      n[k / 2] = k % 2 ? -1.0 : 1.0;
    } else if (k < 12) {
      const double *e = ties[k - 6];
      double len = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
      for (int d = 0; d < 3; d++)
        n[d] = e[d] / len;
    } else { /* a spiral over the sphere */
      double z = 1.0 - (2.0 * (k - 12) + 1.0) / N, r = sqrt(1.0 - z * z), phi = 2.399963229728653 * (k - 12);
      n[0] = r * cos(phi);
      n[1] = r * sin(phi);
      n[2] = z;
    }
    moreau_contact_frame(3, n, t, s);
    moreau_contact_frame(3, n, again[0], again[1]);
    ck_assert_msg(!memcmp(t, again[0], sizeof(t)) && !memcmp(s, again[1], sizeof(s)), "normal %d: frame changes", k);
    double tt = t[0] * t[0] + t[1] * t[1] + t[2] * t[2], nt = n[0] * t[0] + n[1] * t[1] + n[2] * t[2];
    ck_assert_msg(fabs(tt - 1.0) < 1e-15 && fabs(nt) < 1e-15, "normal %d: |t|^2 - 1 %.3g, n . t %.3g", k, tt - 1.0, nt);
    st[0] = n[1] * t[2] - n[2] * t[1];
    st[1] = n[2] * t[0] - n[0] * t[2];
    st[2] = n[0] * t[1] - n[1] * t[0];
    for (int d = 0; d < 3; d++)
      ck_assert_msg(s[d] == st[d], "normal %d: s[%d] %.17g, n x t %.17g", k, d, s[d], st[d]);
  }
  for (int k = 0; k < 16; k++) {
    n[0] = cos(0.4 * k);
    n[1] = sin(0.4 * k);
    n[2] = 0.0;
    moreau_contact_frame(2, n, t, s);
    ck_assert_msg(t[0] == -n[1] && t[1] == n[0] && t[2] == 0.0, "2D normal %d: t (%g, %g, %g)", k, t[0], t[1], t[2]);
    ck_assert_msg(s[0] == 0.0 && s[1] == 0.0 && s[2] == 1.0, "2D normal %d: s (%g, %g, %g)", k, s[0], s[1], s[2]);
  }

  ck_assert_int_eq(moreau_contacts_create(0, &c), MOREAU_SUCCESS);
  ck_assert_int_eq(moreau_contacts_push(c, 0, 1, 0, 0, 1, NULL), MOREAU_SUCCESS);
  for (int dim = 2; dim <= 3; dim++) {
    const double f[3] = {2.0, -0.5, dim == 3 ? 0.25 : 0.0};
    double w[3];
    c->normal[0] = 0.6;
    c->normal[1] = dim == 3 ? 0.0 : 0.8;
    c->normal[2] = dim == 3 ? 0.8 : 0.0;
    memcpy(c->force, f, sizeof(f));
    moreau_contact_frame(dim, c->normal, t, s);
    moreau_contacts_world_force(c, dim, 0, w);
    const double *e[3] = {c->normal, t, s};
    for (int i = 0; i < 3; i++) {
      double fi = w[0] * e[i][0] + w[1] * e[i][1] + w[2] * e[i][2];
      ck_assert_msg(fabs(fi - f[i]) < 1e-15, "%dD: world force . e_%d %.17g, want %.17g", dim, i, fi, f[i]);
    }
  }
  ck_assert_int_eq(moreau_contacts_destroy(&c), MOREAU_SUCCESS);
}
END_TEST

int main(int argc, char **argv)
{
  int status;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("fields");
  TCase *tables = tcase_create("tables"), *bodies = tcase_create("bodies"), *contacts = tcase_create("contacts");
  tcase_add_checked_fixture(tables, setup, NULL);
  tcase_add_checked_fixture(bodies, setup, NULL);
  tcase_add_checked_fixture(contacts, setup, NULL);
  tcase_add_test(tables, test_toy_resize_keeps_values);
  tcase_add_test(tables, test_toy_copy);
  tcase_add_test(tables, test_toy_permute);
  tcase_add_test(tables, test_toy_record_doubles);
  tcase_add_test(tables, test_toy_pack_unpack);
  tcase_add_test(tables, test_toy_value);
  tcase_add_test(bodies, test_body_push_get);
  tcase_add_test(bodies, test_body_records);
  tcase_add_test(bodies, test_body_external_lazy);
  tcase_add_test(contacts, test_contacts_push_zero_state);
  tcase_add_test(contacts, test_contacts_sort);
  tcase_add_test(contacts, test_contacts_warm_start);
  tcase_add_test(contacts, test_contacts_compact);
  tcase_add_test(contacts, test_contacts_records);
  tcase_add_test(contacts, test_contacts_history_list);
  tcase_add_test(contacts, test_contacts_history_borrowed);
  tcase_add_test(contacts, test_contacts_frame);
  suite_add_tcase(s, tables);
  suite_add_tcase(s, bodies);
  suite_add_tcase(s, contacts);
  status = moreau_test_run_suite(s);
  MPI_Finalize();
  return status;
}
