#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "io_private.h"
#include "moreau/io.h"
#include "moreau/log.h"

static int has_suffix(const char *s, const char *suffix)
{
  size_t n = strlen(s), k = strlen(suffix);
  return n > k && strcmp(s + n - k, suffix) == 0;
}

/* Checked on every rank before the readers start, so that a missing file
 * gives the user the system's reason on one line instead of an HDF5 stack or
 * a failure inside a collective call. */
static moreau_err check_readable(const char *path)
{
  struct stat st;
  FILE *f;
  /* stat first: opening a pipe would wait for a writer, and the readers
   * size their slabs from the file's size. */
  MOREAU_CHECK(stat(path, &st) == 0, MOREAU_ERR_INPUT, "%s: cannot open (%s)", path, strerror(errno));
  MOREAU_CHECK(!S_ISDIR(st.st_mode), MOREAU_ERR_INPUT, "%s: cannot open (%s)", path, strerror(EISDIR));
  MOREAU_CHECK(S_ISREG(st.st_mode), MOREAU_ERR_INPUT, "%s: not a regular file (a pipe or device)", path);
  f = fopen(path, "rb");
  MOREAU_CHECK(f, MOREAU_ERR_INPUT, "%s: cannot open (%s)", path, strerror(errno));
  fclose(f);
  return MOREAU_SUCCESS;
}

static moreau_err read_by_type(const char *path, moreau_bodies *b, const moreau_materials *m,
                               const moreau_shapes *shapes)
{
  int is_csv = has_suffix(path, ".csv"), is_h5 = has_suffix(path, ".h5");
  MOREAU_CHECK(m && m->n >= 1, MOREAU_ERR_INTERNAL, "%s: reading bodies needs the materials table", path);
  MOREAU_CHECK(is_csv || is_h5, MOREAU_ERR_INPUT, "%s: unknown particle file type (expected .csv or .h5)", path);
  MOREAU_CALL(moreau_error_agree(b->comm, check_readable(path)));
  if (is_csv)
    MOREAU_CALL(io_csv_read(path, b, m, shapes));
  else
    MOREAU_CALL(io_h5_read(path, b, m));
  return MOREAU_SUCCESS;
}

moreau_err moreau_read_particles(const char *path, moreau_bodies *b, const moreau_materials *m,
                                 const moreau_shapes *shapes)
{
  moreau_lid n_before = b->n_owned;
  moreau_err err;
  moreau_log_begin(MOREAU_EV_IO_READ);
  err = read_by_type(path, b, m, shapes);
  moreau_log_end(MOREAU_EV_IO_READ);
  /* A failed read leaves b as it was, not with part of the file in it. */
  if (err) b->n_owned = n_before;
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}
