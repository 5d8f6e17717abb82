#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "io_private.h"
#include "moreau/io.h"
#include "moreau/log.h"

/* Global row counts and this rank's first row, for bodies, contacts and
 * contactors (n_contactors is -1 when the snapshot has no shapes table), and
 * this rank's contactor rows. */
typedef struct {
  int64_t n_bodies, body_off, n_contacts, contact_off, n_contactors, contactor_off, my_contactors;
} snapshot_rows;

/* What one snapshot writes. */
typedef struct {
  const moreau_run_state *rs;
  int rank;
  const moreau_bodies *b;
  const moreau_contacts *c;    /* may be NULL */
  const moreau_walls *w;       /* may be NULL */
  const moreau_shapes *shapes; /* may be NULL: no /contactors */
  /* The owned bodies in gid order, the order of their rows (and of their
   * contactors'): the file does not depend on how the bodies are stored. */
  const moreau_lid *by_gid;
} snapshot_src;

static moreau_lid local_contacts(const snapshot_src *s) { return s->c ? s->c->n : 0; }

/* The contactors of owned body i: a plain body is its own one. */
static moreau_lid body_contactors(const snapshot_src *s, moreau_lid i)
{
  int32_t shape = s->b->shape[i];
  return shape == 0 ? 1 : s->shapes->count[shape - 1];
}

/* The contactor rows of this rank. A shape id outside the table (setup
 * refuses them, so a bug) fails on every rank: the row counts that follow
 * are collective. */
static moreau_err local_contactors(const snapshot_src *s, int64_t *n)
{
  const moreau_bodies *b = s->b;
  moreau_lid bad = -1;
  *n = 0;
  for (moreau_lid i = 0; i < b->n_owned && bad < 0; i++) {
    if (b->shape[i] < 0 || b->shape[i] > s->shapes->n_shapes)
      bad = i;
    else
      *n += body_contactors(s, i);
  }
  MOREAU_CALL(moreau_error_agree(s->rs->comm,
                                 bad < 0 ? MOREAU_SUCCESS
                                         : moreau_error_raise(MOREAU_ERR_INTERNAL, __FILE__, __LINE__, __func__,
                                                              "body %" PRId64 " has shape %d, not in the table of %d",
                                                              b->gid[bad], b->shape[bad], s->shapes->n_shapes)));
  return MOREAU_SUCCESS;
}

static moreau_err count_rows(const snapshot_src *s, snapshot_rows *rows)
{
  int64_t mine[3] = {s->b->n_owned, local_contacts(s), 0}, before[3] = {0, 0, 0}, total[3];
  if (s->shapes) MOREAU_CALL(local_contactors(s, &mine[2]));
  MOREAU_MPI_CALL(MPI_Exscan(mine, before, 3, MPI_INT64_T, MPI_SUM, s->rs->comm));
  MOREAU_MPI_CALL(MPI_Allreduce(mine, total, 3, MPI_INT64_T, MPI_SUM, s->rs->comm));
  if (s->rank == 0) before[0] = before[1] = before[2] = 0;
  rows->n_bodies = total[0];
  rows->body_off = before[0];
  rows->n_contacts = total[1];
  rows->contact_off = before[1];
  rows->n_contactors = s->shapes ? total[2] : -1;
  rows->contactor_off = before[2];
  rows->my_contactors = mine[2];
  return MOREAU_SUCCESS;
}

#define F64 H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE
#define I64 H5T_STD_I64LE, H5T_NATIVE_INT64

/* Rows that count up from a first value: the vertex lists. */
typedef struct {
  int64_t first; /* the value of this rank's first row */
  int per_row;   /* values a row */
} counting_rows;

static void fill_counting(const void *ctx, int64_t first, int64_t n, void *buf)
{
  const counting_rows *c = ctx;
  int64_t *v = buf, start = c->first + first * c->per_row;
  for (int64_t i = 0; i < n * c->per_row; i++)
    v[i] = start + i;
}

/* Writes the vertex list 0..N-1 of N points as the dataset name, this rank
 * the rows [off, off + n): XDMF
 * readers differ on implicit connectivity (the XDMF3 reader needs it
 * explicit), so it is stored. */
static moreau_err write_vertex_list(const snapshot_src *s, hid_t file, const char *name, int64_t N, int64_t off,
                                    int64_t n, const char *path)
{
  counting_rows c = {off, 1};
  io_rows src = {sizeof(int64_t), fill_counting, &c, s->rs->write_piece_bytes};
  MOREAU_CALL(io_h5_write_pieces(s->rs->comm, file, name, I64, N, off, n, 0, &src, path));
  return MOREAU_SUCCESS;
}

static moreau_err write_bodies(hid_t file, const snapshot_src *s, const snapshot_rows *r, const char *path)
{
  const moreau_bodies *b = s->b;
  int64_t n = b->n_owned, N = r->n_bodies, off = r->body_off;
  MOREAU_CALL(io_h5_make_group(s->rs->comm, file, "/bodies", path));
  MOREAU_CALL(io_h5_write_fields(s->rs->comm, file, "/bodies", &moreau_body_fields, b, MOREAU_FIELD_SNAPSHOT, N, off, n,
                                 s->by_gid, s->rs->write_piece_bytes, path));
  MOREAU_CALL(write_vertex_list(s, file, "/bodies/connectivity", N, off, n, path));
  return MOREAU_SUCCESS;
}

/* The granular geometry for viewers: one row per contactor of every owned
 * body, written through a field table like the bodies. */
typedef struct {
  double *position, *radius;
  moreau_gid *gid;
  int32_t *index; /* within the body's shape; 0 for a plain body */
} contactor_rows;

#define CONTACTOR_FIELD(name, type, ncomp, member)                                                                     \
  {                                                                                                                    \
    name, MOREAU_FIELD_##type, ncomp, MOREAU_FIELD_SNAPSHOT, offsetof(contactor_rows, member), -1                      \
  }
static const moreau_field contactor_fields[] = {
    CONTACTOR_FIELD("position", F64, 3, position),
    CONTACTOR_FIELD("radius", F64, 1, radius),
    CONTACTOR_FIELD("gid", I64, 1, gid),
    CONTACTOR_FIELD("index", I32, 1, index),
};
static const moreau_field_table contactor_table = {contactor_fields,
                                                   (int)(sizeof(contactor_fields) / sizeof(contactor_fields[0])), 0};

static void free_contactor_rows(contactor_rows *cr) { moreau_fields_free(&contactor_table, cr); }

static moreau_err build_contactor_rows(const snapshot_src *s, int64_t n, contactor_rows *cr)
{
  const moreau_bodies *b = s->b;
  int64_t row = 0;
  MOREAU_CALL(moreau_fields_resize(&contactor_table, cr, (size_t)n));
  for (moreau_lid j = 0; j < b->n_owned; j++) {
    moreau_lid i = s->by_gid[j];
    int32_t shape = b->shape[i];
    for (moreau_lid k = 0; k < body_contactors(s, i); k++, row++) {
      if (shape == 0) {
        memcpy(&cr->position[3 * row], &b->x[3 * i], 3 * sizeof(double));
        cr->radius[row] = b->radius[i];
      } else {
        moreau_shape_contactor(s->shapes, s->shapes->first[shape - 1] + k, &b->x[3 * i], &b->q[4 * i], b->radius[i],
                               &cr->position[3 * row], &cr->radius[row]);
      }
      cr->gid[row] = b->gid[i];
      cr->index[row] = k;
    }
  }
  return MOREAU_SUCCESS;
}

static moreau_err write_contactors(hid_t file, const snapshot_src *s, const snapshot_rows *r, const char *path)
{
  int64_t N = r->n_contactors, off = r->contactor_off, n = r->my_contactors;
  contactor_rows cr = {0};
  moreau_err err;
  if (!s->shapes) return MOREAU_SUCCESS;
  /* Every rank builds its rows before the collective writes, and all agree
   * that they could. */
  err = moreau_error_agree(s->rs->comm, build_contactor_rows(s, n, &cr));
  if (!err) err = io_h5_make_group(s->rs->comm, file, "/contactors", path);
  if (!err)
    err = io_h5_write_fields(s->rs->comm, file, "/contactors", &contactor_table, &cr, MOREAU_FIELD_SNAPSHOT, N, off, n,
                             NULL, 0, path);
  free_contactor_rows(&cr);
  MOREAU_CALL(err);
  MOREAU_CALL(write_vertex_list(s, file, "/contactors/connectivity", N, off, n, path));
  return MOREAU_SUCCESS;
}

/* The segment of contact i, from the centre of a to the centre of the
 * image of b that a touches, so that a contact across a periodic face is
 * drawn there, not across the box; a wall has no centre: the segment ends at
 * the contact point. */
static void contact_segment(const snapshot_src *s, int64_t i, double *ends)
{
  const moreau_contacts *c = s->c;
  const double *x = s->b->x;
  moreau_lid a = c->a[i];
  double ca[3], cb[3];
  moreau_contacts_arms(c, s->b, i, ca, cb);
  for (int d = 0; d < 3; d++) {
    ends[d] = x[3 * a + d];
    ends[3 + d] = x[3 * a + d] + ca[d] - cb[d];
  }
}

/* Rows of /contacts/endpoints: two a contact. */
static void fill_endpoints(const void *ctx, int64_t first, int64_t n, void *buf)
{
  double *row = buf, ends[6];
  for (int64_t r = first; r < first + n; r++, row += 3) {
    contact_segment(ctx, r / 2, ends);
    memcpy(row, &ends[3 * (r % 2)], 3 * sizeof(double));
  }
}

/* One force component of each contact, a column of c->force. */
typedef struct {
  const moreau_contacts *c;
  int component;
} force_column;

static void fill_force(const void *ctx, int64_t first, int64_t n, void *buf)
{
  const force_column *col = ctx;
  double *v = buf;
  for (int64_t i = 0; i < n; i++)
    v[i] = col->c->force[3 * (first + i) + col->component];
}

/* The rest of each contact's frame, which contacts do not store: t
 * (column 0) or s (column 1). */
typedef struct {
  const moreau_contacts *c;
  int dim, column;
} frame_column;

static void fill_frame(const void *ctx, int64_t first, int64_t n, void *buf)
{
  const frame_column *col = ctx;
  double *row = buf, ts[2][3];
  for (int64_t i = first; i < first + n; i++, row += 3) {
    moreau_contact_frame(col->dim, &col->c->normal[3 * i], ts[0], ts[1]);
    memcpy(row, ts[col->column], sizeof(ts[0]));
  }
}

static moreau_err write_frame_column(hid_t file, const snapshot_src *s, const snapshot_rows *r, const char *name,
                                     int column, const char *path)
{
  frame_column col = {s->c, s->rs->dim, column};
  io_rows src = {3 * sizeof(double), fill_frame, &col, s->rs->write_piece_bytes};
  MOREAU_CALL(io_h5_write_pieces(s->rs->comm, file, name, F64, r->n_contacts, r->contact_off, local_contacts(s), 3,
                                 &src, path));
  return MOREAU_SUCCESS;
}

/* The contact schema of a rank with no contact list: the same datasets,
 * with no rows. */
static const moreau_field_table *contact_schema(const snapshot_src *s, moreau_contacts **empty)
{
  *empty = NULL;
  if (s->c) return moreau_contacts_fields(s->c);
  if (moreau_contacts_create(0, empty)) return NULL;
  return moreau_contacts_fields(*empty);
}

static moreau_err write_force_column(hid_t file, const snapshot_src *s, const snapshot_rows *r, const char *name,
                                     int component, const char *path)
{
  force_column col = {s->c, component};
  io_rows src = {sizeof(double), fill_force, &col, s->rs->write_piece_bytes};
  MOREAU_CALL(io_h5_write_pieces(s->rs->comm, file, name, F64, r->n_contacts, r->contact_off, local_contacts(s), 0,
                                 &src, path));
  return MOREAU_SUCCESS;
}

static moreau_err write_contacts(hid_t file, const snapshot_src *s, const snapshot_rows *r, const char *path)
{
  int64_t n = local_contacts(s), N = r->n_contacts, off = r->contact_off;
  moreau_contacts *empty;
  const moreau_field_table *schema = contact_schema(s, &empty);
  io_rows ends = {3 * sizeof(double), fill_endpoints, s, s->rs->write_piece_bytes};
  counting_rows pairs = {2 * off, 2};
  io_rows connectivity = {2 * sizeof(int64_t), fill_counting, &pairs, s->rs->write_piece_bytes};
  moreau_err err;
  MOREAU_CHECK(schema, MOREAU_ERR_MEMORY, "%s: out of memory", path);
  MOREAU_CALL(io_h5_make_group(s->rs->comm, file, "/contacts", path));
  err = io_h5_write_fields(s->rs->comm, file, "/contacts", schema, s->c ? (const void *)s->c : empty,
                           MOREAU_FIELD_SNAPSHOT, N, off, n, NULL, 0, path);
  MOREAU_CALL(moreau_contacts_destroy(&empty));
  MOREAU_CALL(err);
  MOREAU_CALL(write_frame_column(file, s, r, "/contacts/tangent", 0, path));
  MOREAU_CALL(write_frame_column(file, s, r, "/contacts/binormal", 1, path));
  MOREAU_CALL(io_h5_write_pieces(s->rs->comm, file, "/contacts/endpoints", F64, 2 * N, 2 * off, 2 * n, 3, &ends, path));
  MOREAU_CALL(write_force_column(file, s, r, "/contacts/normal_force", 0, path));
  MOREAU_CALL(write_force_column(file, s, r, "/contacts/tangential_force", 1, path));
  MOREAU_CALL(io_h5_write_pieces(s->rs->comm, file, "/contacts/connectivity", I64, N, off, n, 2, &connectivity, path));
  return MOREAU_SUCCESS;
}

/* Walls are replicated on every rank: rank 0 writes them, the others take
 * part in the collective calls with no rows. */
static moreau_err write_walls(hid_t file, const snapshot_src *s, const char *path)
{
  const moreau_walls *w = s->w;
  int64_t N = w ? w->n : 0, n = s->rank == 0 ? N : 0;
  if (N == 0) return MOREAU_SUCCESS;
  MOREAU_CALL(io_h5_make_group(s->rs->comm, file, "/walls", path));
  MOREAU_CALL(io_h5_write_rows(s->rs->comm, file, "/walls/point", F64, N, 0, n, 3, w->point, path));
  MOREAU_CALL(io_h5_write_rows(s->rs->comm, file, "/walls/normal", F64, N, 0, n, 3, w->normal, path));
  MOREAU_CALL(io_h5_write_rows(s->rs->comm, file, "/walls/velocity", F64, N, 0, n, 3, w->velocity, path));
  MOREAU_CALL(io_h5_write_rows(s->rs->comm, file, "/walls/reaction", F64, N, 0, n, 3, w->reaction, path));
  return MOREAU_SUCCESS;
}

/* The outline of the box for viewers: its 2^dim corners, corner v at hi
 * along the axes whose bit is set in v (z = 0 in 2D), and its dim 2^(dim-1)
 * edges, each joining two corners that differ along one axis. Replicated
 * like the walls: rank 0 writes it. */
static moreau_err write_box(hid_t file, const snapshot_src *s, const char *path)
{
  const moreau_run_state *rs = s->rs;
  double vertex[8][3];
  int64_t edge[12][2];
  int64_t nv = (int64_t)1 << rs->dim, ne = 0;
  if (!rs->has_box) return MOREAU_SUCCESS;
  for (int64_t v = 0; v < nv; v++)
    for (int k = 0; k < 3; k++)
      vertex[v][k] = k >= rs->dim ? 0.0 : (v >> k) & 1 ? rs->box_hi[k] : rs->box_lo[k];
  for (int k = 0; k < rs->dim; k++)
    for (int64_t v = 0; v < nv; v++)
      if (!((v >> k) & 1)) {
        edge[ne][0] = v;
        edge[ne++][1] = v | (int64_t)1 << k;
      }
  MOREAU_CALL(io_h5_make_group(rs->comm, file, "/box", path));
  MOREAU_CALL(io_h5_write_rows(rs->comm, file, "/box/vertices", F64, nv, 0, s->rank == 0 ? nv : 0, 3, vertex, path));
  MOREAU_CALL(io_h5_write_rows(rs->comm, file, "/box/edges", I64, ne, 0, s->rank == 0 ? ne : 0, 2, edge, path));
  return MOREAU_SUCCESS;
}

/* The box, its periodic axes and the Lees-Edwards state; box_lo, box_hi and
 * the Lees-Edwards attributes exist only when the run has them. */
static moreau_err write_box_attributes(hid_t file, const snapshot_src *s, const char *path)
{
  const moreau_run_state *rs = s->rs;
  int32_t periodic[3], axes[2] = {rs->le_flow, rs->le_gradient};
  for (int k = 0; k < 3; k++)
    periodic[k] = rs->periodic[k] != 0;
  MOREAU_CALL(io_h5_write_attr_array(rs->comm, file, "periodic", H5T_STD_I32LE, H5T_NATIVE_INT32, 3, periodic, path));
  if (rs->has_box) {
    MOREAU_CALL(io_h5_write_attr_array(rs->comm, file, "box_lo", F64, 3, rs->box_lo, path));
    MOREAU_CALL(io_h5_write_attr_array(rs->comm, file, "box_hi", F64, 3, rs->box_hi, path));
  }
  if (rs->le_flow >= 0) {
    MOREAU_CALL(
        io_h5_write_attr_array(rs->comm, file, "lees_edwards_axes", H5T_STD_I32LE, H5T_NATIVE_INT32, 2, axes, path));
    MOREAU_CALL(io_h5_write_attr(rs->comm, file, "lees_edwards_offset", F64, &rs->le_offset, path));
  }
  return MOREAU_SUCCESS;
}

static moreau_err write_attributes(hid_t file, const snapshot_src *s, const snapshot_rows *r, const char *path)
{
  int32_t dim = s->rs->dim;
  MOREAU_CALL(io_h5_write_attr(s->rs->comm, file, "time", F64, &s->rs->time, path));
  MOREAU_CALL(io_h5_write_attr(s->rs->comm, file, "step", I64, &s->rs->step, path));
  MOREAU_CALL(io_h5_write_attr(s->rs->comm, file, "dt", F64, &s->rs->dt, path));
  MOREAU_CALL(io_h5_write_attr(s->rs->comm, file, "dim", H5T_STD_I32LE, H5T_NATIVE_INT32, &dim, path));
  MOREAU_CALL(io_h5_write_attr(s->rs->comm, file, "n_bodies", I64, &r->n_bodies, path));
  MOREAU_CALL(io_h5_write_attr(s->rs->comm, file, "n_contacts", I64, &r->n_contacts, path));
  MOREAU_CALL(write_box_attributes(file, s, path));
  return MOREAU_SUCCESS;
}

static moreau_err write_contents(hid_t file, const snapshot_src *s, const snapshot_rows *r, const char *path)
{
  MOREAU_CALL(write_attributes(file, s, r, path));
  MOREAU_CALL(write_bodies(file, s, r, path));
  MOREAU_CALL(write_contactors(file, s, r, path));
  MOREAU_CALL(write_contacts(file, s, r, path));
  MOREAU_CALL(write_walls(file, s, path));
  MOREAU_CALL(write_box(file, s, path));
  return MOREAU_SUCCESS;
}

static moreau_err write_h5(const snapshot_src *s, const snapshot_rows *r, const char *path)
{
  hid_t file;
  MOREAU_CALL(io_h5_create(s->rs->comm, path, &file));
  MOREAU_CALL(io_h5_close(s->rs->comm, file, write_contents(file, s, r, path), path));
  return MOREAU_SUCCESS;
}

static moreau_err rename_file(const char *from, const char *to)
{
  MOREAU_CHECK(rename(from, to) == 0, MOREAU_ERR_IO, "%s: cannot rename to %s (%s)", from, to, strerror(errno));
  return MOREAU_SUCCESS;
}

static moreau_err write_xdmf(const char *dir, const char *snap_dir, const snapshot_src *s, const snapshot_rows *r)
{
  io_snapshot_meta meta = {.step = s->rs->step,
                           .time = s->rs->time,
                           .dim = s->rs->dim,
                           .n_bodies = r->n_bodies,
                           .n_contacts = r->n_contacts,
                           .n_contactors = r->n_contactors,
                           .has_box = s->rs->has_box != 0};
  MOREAU_CALL(io_xdmf_write_snapshot(snap_dir, &meta));
  MOREAU_CALL(io_xdmf_write_collection(dir, &meta));
  return MOREAU_SUCCESS;
}

static moreau_err snapshot_write(const snapshot_src *s, const char *dir)
{
  char snap_dir[IO_PATH_MAX], name[IO_PATH_MAX], final_path[IO_PATH_MAX], tmp_path[IO_PATH_MAX];
  snapshot_rows rows;
  MPI_Comm comm = s->rs->comm;
  int root = s->rank == 0;
  moreau_err err;
  MOREAU_CHECK(dir && dir[0], MOREAU_ERR_INPUT, "the output directory name is empty");
  MOREAU_CALL(io_path(snap_dir, "%s/snapshots", dir));
  MOREAU_CALL(io_snapshot_name(name, s->rs->step, ".h5"));
  MOREAU_CALL(io_path(final_path, "%s/%s", snap_dir, name));
  MOREAU_CALL(io_path(tmp_path, "%s.tmp", final_path));
  MOREAU_CALL(moreau_error_agree(comm, root ? io_mkdir_p(snap_dir) : MOREAU_SUCCESS));
  MOREAU_CALL(count_rows(s, &rows));
  err = write_h5(s, &rows, tmp_path);
  /* Every rank knows of a failure (the writer agrees each step of it): the
   * partial file goes at once. */
  if (err && root) unlink(tmp_path);
  MOREAU_CALL(err);
  /* The agreement of the close is also the barrier: every rank has closed
   * the file before rank 0 gives it its final name. */
  MOREAU_CALL(moreau_error_agree(comm, root ? rename_file(tmp_path, final_path) : MOREAU_SUCCESS));
  MOREAU_CALL(moreau_error_agree(comm, root ? write_xdmf(dir, snap_dir, s, &rows) : MOREAU_SUCCESS));
  return MOREAU_SUCCESS;
}

moreau_err moreau_snapshot_write(const moreau_run_state *rs, const moreau_bodies *b, const moreau_contacts *c,
                                 const moreau_walls *w, const moreau_shapes *shapes, const char *dir)
{
  moreau_err err;
  snapshot_src s = {rs, 0, b, c, w, shapes, NULL};
  MOREAU_MPI_CALL(MPI_Comm_rank(rs->comm, &s.rank));
  moreau_log_begin(MOREAU_EV_IO_WRITE);
  moreau_lid *sorted;
  err = moreau_error_agree(rs->comm, moreau_bodies_write_order(b, rs->by_gid, &s.by_gid, &sorted));
  if (!err) err = snapshot_write(&s, dir);
  moreau_free(&sorted);
  moreau_log_end(MOREAU_EV_IO_WRITE);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}
