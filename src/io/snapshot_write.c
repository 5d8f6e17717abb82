#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "io_private.h"
#include "moreau/io.h"
#include "moreau/log.h"

/* Global row counts and this rank's first row, for bodies and contacts. */
typedef struct {
  int64_t n_bodies, body_off, n_contacts, contact_off;
} snapshot_rows;

static moreau_lid local_contacts(const moreau_sim *sim) { return sim->contacts ? sim->contacts->n : 0; }

static moreau_err count_rows(const moreau_sim *sim, snapshot_rows *rows)
{
  int64_t mine[2] = {sim->bodies->n_owned, local_contacts(sim)}, before[2] = {0, 0}, total[2];
  MOREAU_MPI_CALL(MPI_Exscan(mine, before, 2, MPI_INT64_T, MPI_SUM, sim->comm));
  MOREAU_MPI_CALL(MPI_Allreduce(mine, total, 2, MPI_INT64_T, MPI_SUM, sim->comm));
  if (sim->rank == 0) before[0] = before[1] = 0;
  rows->n_bodies = total[0];
  rows->body_off = before[0];
  rows->n_contacts = total[1];
  rows->contact_off = before[1];
  return MOREAU_SUCCESS;
}

static moreau_err make_group(hid_t file, const char *name, const char *path)
{
  hid_t g = H5Gcreate2(file, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  MOREAU_CHECK(g >= 0, MOREAU_ERR_IO, "%s: cannot create group %s", path, name);
  H5Gclose(g);
  return MOREAU_SUCCESS;
}

#define F64 H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE
#define I64 H5T_STD_I64LE, H5T_NATIVE_INT64
#define I32 H5T_STD_I32LE, H5T_NATIVE_INT32

static moreau_err write_bodies(hid_t file, const moreau_sim *sim, const snapshot_rows *r, const char *path)
{
  const moreau_bodies *b = sim->bodies;
  int64_t n = b->n_owned, N = r->n_bodies, off = r->body_off;
  int64_t *vertex;
  MOREAU_CALL(make_group(file, "/bodies", path));
  MOREAU_CALL(io_h5_write_rows(file, "/bodies/gid", I64, N, off, n, 0, b->gid, path));
  MOREAU_CALL(io_h5_write_rows(file, "/bodies/position", F64, N, off, n, 3, b->x, path));
  MOREAU_CALL(io_h5_write_rows(file, "/bodies/velocity", F64, N, off, n, 3, b->v, path));
  MOREAU_CALL(io_h5_write_rows(file, "/bodies/angular_velocity", F64, N, off, n, 3, b->w, path));
  MOREAU_CALL(io_h5_write_rows(file, "/bodies/orientation", F64, N, off, n, 4, b->q, path));
  MOREAU_CALL(io_h5_write_rows(file, "/bodies/external_force", F64, N, off, n, 3, b->f_ext, path));
  MOREAU_CALL(io_h5_write_rows(file, "/bodies/external_torque", F64, N, off, n, 3, b->t_ext, path));
  MOREAU_CALL(io_h5_write_rows(file, "/bodies/radius", F64, N, off, n, 0, b->radius, path));
  MOREAU_CALL(io_h5_write_rows(file, "/bodies/inv_mass", F64, N, off, n, 0, b->inv_mass, path));
  MOREAU_CALL(io_h5_write_rows(file, "/bodies/inv_inertia", F64, N, off, n, 0, b->inv_inertia, path));
  MOREAU_CALL(io_h5_write_rows(file, "/bodies/material", I32, N, off, n, 0, b->material, path));
  MOREAU_CALL(io_h5_write_rows(file, "/bodies/fixed", I32, N, off, n, 0, b->fixed, path));
  /* XDMF readers differ on implicit connectivity (the XDMF3 reader needs it
   * explicit), so the vertex list is stored. */
  MOREAU_CALL(moreau_malloc((size_t)n * sizeof(*vertex), &vertex));
  for (int64_t i = 0; i < n; i++)
    vertex[i] = off + i;
  MOREAU_CALL(io_h5_write_rows(file, "/bodies/connectivity", I64, N, off, n, 0, vertex, path));
  moreau_free(&vertex);
  return MOREAU_SUCCESS;
}

/* Per-contact values that are not stored contiguously in moreau_contacts. */
typedef struct {
  double *endpoints, *f_n, *f_t;
  int64_t *connectivity;
} contact_rows;

static moreau_err build_contact_rows(const moreau_sim *sim, int64_t off, contact_rows *cr)
{
  const moreau_contacts *c = sim->contacts;
  const double *x = sim->bodies->x;
  size_t n = (size_t)local_contacts(sim);
  MOREAU_CALL(moreau_malloc(6 * n * sizeof(double), &cr->endpoints));
  MOREAU_CALL(moreau_malloc(n * sizeof(double), &cr->f_n));
  MOREAU_CALL(moreau_malloc(n * sizeof(double), &cr->f_t));
  MOREAU_CALL(moreau_malloc(2 * n * sizeof(int64_t), &cr->connectivity));
  for (size_t i = 0; i < n; i++) {
    moreau_lid a = c->a[i], b = c->b[i];
    for (int d = 0; d < 3; d++) {
      cr->endpoints[6 * i + d] = x[3 * a + d];
      /* A wall has no centre: the segment ends at the contact point. */
      cr->endpoints[6 * i + 3 + d] = b >= 0 ? x[3 * b + d] : x[3 * a + d] + c->ca[3 * i + d];
    }
    cr->f_n[i] = c->force[3 * i];
    cr->f_t[i] = c->force[3 * i + 1];
    cr->connectivity[2 * i] = 2 * (off + (int64_t)i);
    cr->connectivity[2 * i + 1] = 2 * (off + (int64_t)i) + 1;
  }
  return MOREAU_SUCCESS;
}

static void free_contact_rows(contact_rows *cr)
{
  moreau_free(&cr->endpoints);
  moreau_free(&cr->f_n);
  moreau_free(&cr->f_t);
  moreau_free(&cr->connectivity);
}

static moreau_err write_contact_rows(hid_t file, const moreau_sim *sim, const snapshot_rows *r, const contact_rows *cr,
                                     const char *path)
{
  const moreau_contacts *c = sim->contacts;
  int64_t n = local_contacts(sim), N = r->n_contacts, off = r->contact_off;
  const moreau_gid *gid_a = n ? c->gid_a : NULL, *gid_b = n ? c->gid_b : NULL;
  const double *force = n ? c->force : NULL, *normal = n ? c->normal : NULL;
  MOREAU_CALL(make_group(file, "/contacts", path));
  MOREAU_CALL(io_h5_write_rows(file, "/contacts/gid_a", I64, N, off, n, 0, gid_a, path));
  MOREAU_CALL(io_h5_write_rows(file, "/contacts/gid_b", I64, N, off, n, 0, gid_b, path));
  MOREAU_CALL(io_h5_write_rows(file, "/contacts/endpoints", F64, 2 * N, 2 * off, 2 * n, 3, cr->endpoints, path));
  MOREAU_CALL(io_h5_write_rows(file, "/contacts/normal_force", F64, N, off, n, 0, cr->f_n, path));
  MOREAU_CALL(io_h5_write_rows(file, "/contacts/tangential_force", F64, N, off, n, 0, cr->f_t, path));
  MOREAU_CALL(io_h5_write_rows(file, "/contacts/force", F64, N, off, n, 3, force, path));
  MOREAU_CALL(io_h5_write_rows(file, "/contacts/normal", F64, N, off, n, 3, normal, path));
  MOREAU_CALL(io_h5_write_rows(file, "/contacts/connectivity", I64, N, off, n, 2, cr->connectivity, path));
  return MOREAU_SUCCESS;
}

static moreau_err write_contacts(hid_t file, const moreau_sim *sim, const snapshot_rows *r, const char *path)
{
  contact_rows cr = {0};
  moreau_err err = build_contact_rows(sim, r->contact_off, &cr);
  if (!err) err = write_contact_rows(file, sim, r, &cr, path);
  free_contact_rows(&cr);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}

/* Walls are replicated on every rank: rank 0 writes them, the others take
 * part in the collective calls with no rows. */
static moreau_err write_walls(hid_t file, const moreau_sim *sim, const char *path)
{
  const moreau_walls *w = sim->walls;
  int64_t N = w ? w->n : 0, n = sim->rank == 0 ? N : 0;
  if (N == 0) return MOREAU_SUCCESS;
  MOREAU_CALL(make_group(file, "/walls", path));
  MOREAU_CALL(io_h5_write_rows(file, "/walls/point", F64, N, 0, n, 3, w->point, path));
  MOREAU_CALL(io_h5_write_rows(file, "/walls/normal", F64, N, 0, n, 3, w->normal, path));
  MOREAU_CALL(io_h5_write_rows(file, "/walls/velocity", F64, N, 0, n, 3, w->velocity, path));
  MOREAU_CALL(io_h5_write_rows(file, "/walls/reaction", F64, N, 0, n, 3, w->reaction, path));
  return MOREAU_SUCCESS;
}

static moreau_err write_attributes(hid_t file, const moreau_sim *sim, const snapshot_rows *r, const char *path)
{
  int32_t dim = sim->dim;
  MOREAU_CALL(io_h5_write_attr(file, "time", F64, &sim->time, path));
  MOREAU_CALL(io_h5_write_attr(file, "step", I64, &sim->step, path));
  MOREAU_CALL(io_h5_write_attr(file, "dt", F64, &sim->dt, path));
  MOREAU_CALL(io_h5_write_attr(file, "dim", I32, &dim, path));
  MOREAU_CALL(io_h5_write_attr(file, "n_bodies", I64, &r->n_bodies, path));
  MOREAU_CALL(io_h5_write_attr(file, "n_contacts", I64, &r->n_contacts, path));
  return MOREAU_SUCCESS;
}

static moreau_err write_contents(hid_t file, const moreau_sim *sim, const snapshot_rows *r, const char *path)
{
  MOREAU_CALL(write_attributes(file, sim, r, path));
  MOREAU_CALL(write_bodies(file, sim, r, path));
  MOREAU_CALL(write_contacts(file, sim, r, path));
  MOREAU_CALL(write_walls(file, sim, path));
  return MOREAU_SUCCESS;
}

static moreau_err write_h5(const moreau_sim *sim, const snapshot_rows *r, const char *path)
{
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS), file = -1;
  moreau_err err;
  MOREAU_CHECK(fapl >= 0 && H5Pset_fapl_mpio(fapl, sim->comm, MPI_INFO_NULL) >= 0, MOREAU_ERR_IO,
               "%s: cannot set up parallel HDF5 access", path);
  file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  H5Pclose(fapl);
  MOREAU_CHECK(file >= 0, MOREAU_ERR_IO, "%s: cannot create file", path);
  err = write_contents(file, sim, r, path);
  if (H5Fclose(file) < 0 && !err) MOREAU_FAIL(MOREAU_ERR_IO, "%s: cannot close file (disk full?)", path);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}

static moreau_err rename_file(const char *from, const char *to)
{
  MOREAU_CHECK(rename(from, to) == 0, MOREAU_ERR_IO, "%s: cannot rename to %s (%s)", from, to, strerror(errno));
  return MOREAU_SUCCESS;
}

static moreau_err write_xdmf(const char *dir, const char *snap_dir, const moreau_sim *sim, const snapshot_rows *r)
{
  io_snapshot_meta meta = {
      .step = sim->step, .time = sim->time, .dim = sim->dim, .n_bodies = r->n_bodies, .n_contacts = r->n_contacts};
  MOREAU_CALL(io_xdmf_write_snapshot(snap_dir, &meta));
  MOREAU_CALL(io_xdmf_write_collection(dir, sim->step));
  return MOREAU_SUCCESS;
}

static moreau_err snapshot_write(const moreau_sim *sim, const char *dir)
{
  char snap_dir[IO_PATH_MAX], name[IO_PATH_MAX], final_path[IO_PATH_MAX], tmp_path[IO_PATH_MAX];
  snapshot_rows rows;
  int root = sim->rank == 0;
  MOREAU_CHECK(dir && dir[0], MOREAU_ERR_INPUT, "the output directory name is empty");
  MOREAU_CALL(io_path(snap_dir, "%s/snapshots", dir));
  MOREAU_CALL(io_snapshot_name(name, sim->step, ".h5"));
  MOREAU_CALL(io_path(final_path, "%s/%s", snap_dir, name));
  MOREAU_CALL(io_path(tmp_path, "%s.tmp", final_path));
  MOREAU_CALL(moreau_error_agree(sim->comm, root ? io_mkdir_p(snap_dir) : MOREAU_SUCCESS));
  MOREAU_CALL(count_rows(sim, &rows));
  MOREAU_CALL(moreau_error_agree(sim->comm, write_h5(sim, &rows, tmp_path)));
  /* The agreement above is also the barrier: every rank has closed the file
   * before rank 0 gives it its final name. */
  MOREAU_CALL(moreau_error_agree(sim->comm, root ? rename_file(tmp_path, final_path) : MOREAU_SUCCESS));
  MOREAU_CALL(moreau_error_agree(sim->comm, root ? write_xdmf(dir, snap_dir, sim, &rows) : MOREAU_SUCCESS));
  return MOREAU_SUCCESS;
}

moreau_err moreau_snapshot_write(const moreau_sim *sim, const char *dir)
{
  moreau_err err;
  moreau_log_begin(MOREAU_EV_IO_WRITE);
  err = snapshot_write(sim, dir);
  moreau_log_end(MOREAU_EV_IO_WRITE);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}
