#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_private.h"

/* XDMF descriptions of the snapshots, for ParaView (both its XDMF and XDMF3
 * readers) and VisIt. Each snapshot gets snap_<step>.xmf beside its .h5,
 * referring to it by file name only so the folder can be moved. The time
 * collection <dir>/snapshots.xmf repeats each snapshot's grids with paths
 * through snapshots/ rather than xi:include-ing the per-snapshot files, because
 * readers resolve HDF5 paths relative to the top-level file, which would break
 * the file-name-only references of included files.
 *
 * The collection ends with a comment naming its last step. A new snapshot
 * after that step is appended in place, rewriting only the end of the file,
 * so that writing a snapshot costs the same whatever the number before it.
 * Otherwise (no collection yet, a restart from an earlier step, a file cut
 * by a kill) the collection is rebuilt by scanning the snapshots folder
 * instead of being kept in memory: that way it survives restarts (a
 * restarted run still lists the snapshots written before it), works for
 * several sims in one process, and never lists a snapshot that is not
 * complete, because a snapshot's .xmf is renamed into place only after its
 * .h5. Snapshots with a step beyond the current one are left out: they
 * belong to an earlier run in the same folder and will be overwritten as
 * this run reaches them. Each per-snapshot file starts with a comment holding
 * its metadata, which is what the scan reads back. */

#define META_TAG "moreau snapshot:"
#define LAST_TAG "<!-- moreau last step: "

/* The end of the collection: its last step, then the closing tags. */
static void put_tail(FILE *f, int64_t last_step)
{
  fprintf(f, "    " LAST_TAG "%" PRId64 " -->\n    </Grid>\n  </Domain>\n</Xdmf>\n", last_step);
}

static void put_item(FILE *f, int ind, const char *dims, const char *number_type, int precision, const char *h5,
                     const char *dataset)
{
  fprintf(f, "%*s<DataItem Dimensions=\"%s\" NumberType=\"%s\" Precision=\"%d\" Format=\"HDF\">%s:%s</DataItem>\n", ind,
          "", dims, number_type, precision, h5, dataset);
}

static void put_attribute(FILE *f, int ind, const char *name, const char *type, const char *center, const char *dims,
                          const char *number_type, int precision, const char *h5, const char *dataset)
{
  fprintf(f, "%*s<Attribute Name=\"%s\" AttributeType=\"%s\" Center=\"%s\">\n", ind, "", name, type, center);
  put_item(f, ind + 2, dims, number_type, precision, h5, dataset);
  fprintf(f, "%*s</Attribute>\n", ind, "");
}

/* The opening of a grid: its topology (n_elements elements of
 * nodes_per_element nodes, connectivity from the dataset conn of dimensions
 * conn_dims) and its XYZ geometry (the dataset points of dimensions
 * point_dims). The caller adds attributes and closes the grid. */
static void open_grid(FILE *f, int ind, const char *h5, const char *name, const char *topology, const char *n_elements,
                      int nodes_per_element, const char *conn_dims, const char *conn, const char *point_dims,
                      const char *points)
{
  fprintf(f, "%*s<Grid Name=\"%s\" GridType=\"Uniform\">\n", ind, "", name);
  fprintf(f, "%*s<Topology TopologyType=\"%s\" NumberOfElements=\"%s\" NodesPerElement=\"%d\">\n", ind + 2, "",
          topology, n_elements, nodes_per_element);
  put_item(f, ind + 4, conn_dims, "Int", 8, h5, conn);
  fprintf(f, "%*s</Topology>\n", ind + 2, "");
  fprintf(f, "%*s<Geometry GeometryType=\"XYZ\">\n", ind + 2, "");
  put_item(f, ind + 4, point_dims, "Float", 8, h5, points);
  fprintf(f, "%*s</Geometry>\n", ind + 2, "");
}

/* The opening of a grid of n points, one vertex each, from the datasets
 * connectivity, position and radius of group, with their radius for the
 * Glyph filter; n1 and n3 receive the dimensions "n" and "n 3". */
static void open_points(FILE *f, int ind, const char *h5, const char *name, const char *group, int64_t n, char n1[32],
                        char n3[48])
{
  char conn[64], position[64], radius[64];
  snprintf(n1, 32, "%" PRId64, n);
  snprintf(n3, 48, "%" PRId64 " 3", n);
  snprintf(conn, sizeof(conn), "%s/connectivity", group);
  snprintf(position, sizeof(position), "%s/position", group);
  snprintf(radius, sizeof(radius), "%s/radius", group);
  open_grid(f, ind, h5, name, "Polyvertex", n1, 1, n1, conn, n3, position);
  put_attribute(f, ind + 2, "radius", "Scalar", "Node", n1, "Float", 8, h5, radius);
}

static void put_particles(FILE *f, int ind, const char *h5, int64_t n)
{
  char n1[32], n3[48];
  open_points(f, ind, h5, "particles", "/bodies", n, n1, n3);
  put_attribute(f, ind + 2, "velocity", "Vector", "Node", n3, "Float", 8, h5, "/bodies/velocity");
  put_attribute(f, ind + 2, "angular_velocity", "Vector", "Node", n3, "Float", 8, h5, "/bodies/angular_velocity");
  put_attribute(f, ind + 2, "gid", "Scalar", "Node", n1, "Int", 8, h5, "/bodies/gid");
  put_attribute(f, ind + 2, "material", "Scalar", "Node", n1, "Int", 4, h5, "/bodies/material");
  put_attribute(f, ind + 2, "fixed", "Scalar", "Node", n1, "Int", 4, h5, "/bodies/fixed");
  fprintf(f, "%*s</Grid>\n", ind, "");
}

/* The granular geometry: one vertex per contactor (a plain body is its own
 * one), so a Glyph scaled by radius draws every disk of every cluster. */
static void put_contactors(FILE *f, int ind, const char *h5, int64_t n)
{
  char n1[32], n3[48];
  open_points(f, ind, h5, "contactors", "/contactors", n, n1, n3);
  put_attribute(f, ind + 2, "gid", "Scalar", "Node", n1, "Int", 8, h5, "/contactors/gid");
  put_attribute(f, ind + 2, "index", "Scalar", "Node", n1, "Int", 4, h5, "/contactors/index");
  fprintf(f, "%*s</Grid>\n", ind, "");
}

/* The force network: one line segment per contact, between the centres of
 * the two bodies (or from the body to the contact point on a wall). */
static void put_contacts(FILE *f, int ind, const char *h5, int64_t n)
{
  char n1[32], n2[48], n3[48], e3[48];
  snprintf(n1, sizeof(n1), "%" PRId64, n);
  snprintf(n2, sizeof(n2), "%" PRId64 " 2", n);
  snprintf(n3, sizeof(n3), "%" PRId64 " 3", n);
  snprintf(e3, sizeof(e3), "%" PRId64 " 3", 2 * n);
  open_grid(f, ind, h5, "contacts", "Polyline", n1, 2, n2, "/contacts/connectivity", e3, "/contacts/endpoints");
  put_attribute(f, ind + 2, "normal_force", "Scalar", "Cell", n1, "Float", 8, h5, "/contacts/normal_force");
  put_attribute(f, ind + 2, "tangential_force", "Scalar", "Cell", n1, "Float", 8, h5, "/contacts/tangential_force");
  put_attribute(f, ind + 2, "normal", "Vector", "Cell", n3, "Float", 8, h5, "/contacts/normal");
  fprintf(f, "%*s</Grid>\n", ind, "");
}

/* The outline of the box: its edges as line segments between its corners. */
static void put_box(FILE *f, int ind, const char *h5, int dim)
{
  int n_vertices = 1 << dim, n_edges = dim * (n_vertices / 2);
  char e1[16], e2[32], v3[32];
  snprintf(e1, sizeof(e1), "%d", n_edges);
  snprintf(e2, sizeof(e2), "%d 2", n_edges);
  snprintf(v3, sizeof(v3), "%d 3", n_vertices);
  open_grid(f, ind, h5, "box", "Polyline", e1, 2, e2, "/box/edges", v3, "/box/vertices");
  fprintf(f, "%*s</Grid>\n", ind, "");
}

/* One snapshot as a spatial collection of its non-empty grids (XDMF readers
 * reject zero-sized data items). prefix locates the .h5 from the XDMF file. */
static moreau_err put_snapshot(FILE *f, int ind, const char *prefix, const io_snapshot_meta *m)
{
  char name[IO_PATH_MAX], h5[IO_PATH_MAX];
  MOREAU_CALL(io_snapshot_name(name, m->step, ".h5"));
  MOREAU_CALL(io_path(h5, "%s%s", prefix, name));
  fprintf(f, "%*s<Grid Name=\"step_%06" PRId64 "\" GridType=\"Collection\" CollectionType=\"Spatial\">\n", ind, "",
          m->step);
  fprintf(f, "%*s<Time Value=\"%.17g\"/>\n", ind + 2, "", m->time);
  if (m->n_bodies > 0) put_particles(f, ind + 2, h5, m->n_bodies);
  if (m->n_contactors > 0) put_contactors(f, ind + 2, h5, m->n_contactors);
  if (m->n_contacts > 0) put_contacts(f, ind + 2, h5, m->n_contacts);
  if (m->has_box) put_box(f, ind + 2, h5, m->dim);
  fprintf(f, "%*s</Grid>\n", ind, "");
  return MOREAU_SUCCESS;
}

static void put_header(FILE *f)
{
  fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  fprintf(f, "<!DOCTYPE Xdmf SYSTEM \"Xdmf.dtd\" []>\n");
}

static moreau_err open_for_writing(const char *path, FILE **f)
{
  *f = fopen(path, "w");
  MOREAU_CHECK(*f, MOREAU_ERR_IO, "%s: cannot open for writing (%s)", path, strerror(errno));
  return MOREAU_SUCCESS;
}

/* Closes a file written under tmp and gives it its final name, so a reader
 * (or a crash) never sees half of it. */
static moreau_err finish_file(FILE *f, const char *tmp, const char *path)
{
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  MOREAU_CHECK(!bad, MOREAU_ERR_IO, "%s: write failed (%s)", tmp, strerror(errno));
  MOREAU_CHECK(rename(tmp, path) == 0, MOREAU_ERR_IO, "%s: cannot rename to %s (%s)", tmp, path, strerror(errno));
  return MOREAU_SUCCESS;
}

moreau_err io_xdmf_write_snapshot(const char *snap_dir, const io_snapshot_meta *meta)
{
  char name[IO_PATH_MAX], path[IO_PATH_MAX], tmp[IO_PATH_MAX];
  FILE *f;
  moreau_err err;
  MOREAU_CALL(io_snapshot_name(name, meta->step, ".xmf"));
  MOREAU_CALL(io_path(path, "%s/%s", snap_dir, name));
  MOREAU_CALL(io_path(tmp, "%s.tmp", path));
  MOREAU_CALL(open_for_writing(tmp, &f));
  put_header(f);
  fprintf(f,
          "<!-- " META_TAG " step=%" PRId64 " time=%.17g dim=%d n_bodies=%" PRId64 " n_contacts=%" PRId64
          " box=%d contactors=%" PRId64 " -->\n",
          meta->step, meta->time, meta->dim, meta->n_bodies, meta->n_contacts, meta->has_box, meta->n_contactors);
  fprintf(f, "<Xdmf Version=\"3.0\">\n  <Domain>\n");
  err = put_snapshot(f, 4, "", meta);
  fprintf(f, "  </Domain>\n</Xdmf>\n");
  if (err) {
    fclose(f);
    MOREAU_CALL(err);
  }
  MOREAU_CALL(finish_file(f, tmp, path));
  return MOREAU_SUCCESS;
}

/* Step of a file named snap_<digits>.xmf; 0 for any other name. */
static int snapshot_step(const char *name, int64_t *step)
{
  const char *digits = name + 5;
  char *end;
  if (strncmp(name, "snap_", 5) != 0 || digits[0] < '0' || digits[0] > '9') return 0;
  errno = 0;
  *step = strtoll(digits, &end, 10);
  return errno == 0 && strcmp(end, ".xmf") == 0;
}

/* Metadata from the comment a snapshot's .xmf starts with; 0 if the file is
 * not one of ours. The files of snapshots older than the box outline have
 * no box= (and their .h5 no /box), those older than the contactors no
 * contactors= (and their .h5 no /contactors). */
static int read_meta(const char *path, io_snapshot_meta *m)
{
  char line[512];
  int found = 0, fields;
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  for (int i = 0; i < 4 && !found && fgets(line, sizeof(line), f); i++) {
    const char *tag = strstr(line, META_TAG);
    m->has_box = 0;
    m->n_contactors = -1;
    fields = tag ? sscanf(tag + strlen(META_TAG),
                          " step=%" SCNd64 " time=%lf dim=%d n_bodies=%" SCNd64 " n_contacts=%" SCNd64
                          " box=%d contactors=%" SCNd64,
                          &m->step, &m->time, &m->dim, &m->n_bodies, &m->n_contacts, &m->has_box, &m->n_contactors)
                 : 0;
    found = fields >= 5 && (m->dim == 2 || m->dim == 3);
  }
  fclose(f);
  return found;
}

static int cmp_step(const void *pa, const void *pb)
{
  const io_snapshot_meta *a = pa, *b = pb;
  return (a->step > b->step) - (a->step < b->step);
}

static moreau_err scan_snapshots(const char *snap_dir, int64_t last_step, io_snapshot_meta **list, size_t *count)
{
  DIR *d = opendir(snap_dir);
  struct dirent *e;
  size_t cap = 0;
  moreau_err err = MOREAU_SUCCESS;
  MOREAU_CHECK(d, MOREAU_ERR_IO, "%s: cannot list (%s)", snap_dir, strerror(errno));
  *list = NULL;
  *count = 0;
  while (!err && (e = readdir(d))) {
    char path[IO_PATH_MAX];
    int64_t step;
    io_snapshot_meta m;
    if (!snapshot_step(e->d_name, &step) || step > last_step) continue;
    err = io_path(path, "%s/%s", snap_dir, e->d_name);
    if (err || !read_meta(path, &m) || m.step != step) continue;
    if (*count == cap) {
      cap = cap ? 2 * cap : 64;
      err = moreau_realloc(cap * sizeof(**list), list);
    }
    if (!err) (*list)[(*count)++] = m;
  }
  closedir(d);
  MOREAU_CALL(err);
  qsort(*list, *count, sizeof(**list), cmp_step);
  return MOREAU_SUCCESS;
}

/* Appends snapshot m to the collection at path in place when the file ends
 * with the tail of an earlier step; *done says whether it did. */
static moreau_err append_in_place(const char *path, const io_snapshot_meta *m, int *done)
{
  char buf[512], expect[512];
  FILE *f = fopen(path, "r+"), *probe;
  off_t size, back;
  size_t n;
  long long last;
  char *tag;
  *done = 0;
  if (!f) return MOREAU_SUCCESS;
  if (fseeko(f, 0, SEEK_END) != 0 || (size = ftello(f)) < 0) goto keep;
  back = size < (off_t)sizeof(buf) - 1 ? size : (off_t)sizeof(buf) - 1;
  if (fseeko(f, size - back, SEEK_SET) != 0) goto keep;
  n = fread(buf, 1, (size_t)back, f);
  buf[n] = '\0';
  tag = strstr(buf, LAST_TAG);
  if (!tag || sscanf(tag + strlen(LAST_TAG), "%lld", &last) != 1 || last >= m->step) goto keep;
  /* The tail must be whole: a file cut by a kill is rebuilt instead. */
  probe = fmemopen(expect, sizeof(expect), "w");
  if (!probe) goto keep;
  put_tail(probe, last);
  fclose(probe);
  if (strcmp(tag - 4, expect)) goto keep;
  if (fseeko(f, size - (off_t)strlen(expect), SEEK_SET) != 0) goto keep;
  MOREAU_CALL(put_snapshot(f, 6, "snapshots/", m));
  put_tail(f, m->step);
  *done = 1;
keep:
  if (ferror(f) | fclose(f)) MOREAU_FAIL(MOREAU_ERR_IO, "%s: write failed (%s)", path, strerror(errno));
  return MOREAU_SUCCESS;
}

moreau_err io_xdmf_write_collection(const char *dir, const io_snapshot_meta *latest)
{
  char path[IO_PATH_MAX];
  int done;
  MOREAU_CALL(io_path(path, "%s/snapshots.xmf", dir));
  MOREAU_CALL(append_in_place(path, latest, &done));
  if (!done) MOREAU_CALL(io_xdmf_rebuild_collection(dir, latest->step));
  return MOREAU_SUCCESS;
}

moreau_err io_xdmf_rebuild_collection(const char *dir, int64_t last_step)
{
  char snap_dir[IO_PATH_MAX], path[IO_PATH_MAX], tmp[IO_PATH_MAX];
  io_snapshot_meta *list;
  size_t count = 0;
  FILE *f;
  moreau_err err = MOREAU_SUCCESS;
  MOREAU_CALL(io_path(snap_dir, "%s/snapshots", dir));
  MOREAU_CALL(io_path(path, "%s/snapshots.xmf", dir));
  MOREAU_CALL(io_path(tmp, "%s.tmp", path));
  MOREAU_CALL(scan_snapshots(snap_dir, last_step, &list, &count));
  err = open_for_writing(tmp, &f);
  if (err) {
    moreau_free(&list);
    MOREAU_CALL(err);
  }
  put_header(f);
  fprintf(f, "<Xdmf Version=\"3.0\">\n  <Domain>\n");
  fprintf(f, "    <Grid Name=\"snapshots\" GridType=\"Collection\" CollectionType=\"Temporal\">\n");
  for (size_t i = 0; i < count && !err; i++)
    err = put_snapshot(f, 6, "snapshots/", &list[i]);
  put_tail(f, count ? list[count - 1].step : -1);
  moreau_free(&list);
  if (err) {
    fclose(f);
    MOREAU_CALL(err);
  }
  MOREAU_CALL(finish_file(f, tmp, path));
  return MOREAU_SUCCESS;
}
