#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "io_private.h"
#include "moreau/io.h"

/* Rank 0: the file, written to a temporary name and renamed when complete,
 * so that a reader never sees half a table. */
static moreau_err write_table(const char *dir, const char *name, int ncols, const char *const *columns, int nrows,
                              const double *values)
{
  char path[IO_PATH_MAX], tmp[IO_PATH_MAX];
  FILE *f;
  MOREAU_CALL(io_mkdir_p(dir));
  MOREAU_CALL(io_path(path, "%s/%s", dir, name));
  MOREAU_CALL(io_path(tmp, "%s.tmp", path));
  f = fopen(tmp, "w");
  MOREAU_CHECK(f, MOREAU_ERR_IO, "%s: cannot create (%s)", tmp, strerror(errno));
  for (int j = 0; j < ncols; j++)
    fprintf(f, "%s%s", j ? "," : "", columns[j]);
  fputc('\n', f);
  for (int i = 0; i < nrows; i++) {
    for (int j = 0; j < ncols; j++)
      fprintf(f, "%s%.17g", j ? "," : "", values[(size_t)i * ncols + j]);
    fputc('\n', f);
  }
  int bad = fflush(f) != 0 || ferror(f);
  int saved = errno;
  bad |= fclose(f) != 0;
  if (bad) {
    unlink(tmp);
    MOREAU_FAIL(MOREAU_ERR_IO, "%s: write failed (%s)", tmp, strerror(saved ? saved : errno));
  }
  MOREAU_CHECK(rename(tmp, path) == 0, MOREAU_ERR_IO, "%s: cannot rename to %s (%s)", tmp, path, strerror(errno));
  return MOREAU_SUCCESS;
}

moreau_err moreau_csv_table_write(MPI_Comm comm, const char *dir, const char *name, int ncols,
                                  const char *const *columns, int nrows, const double *values)
{
  int rank;
  MOREAU_MPI_CALL(MPI_Comm_rank(comm, &rank));
  MOREAU_CALL(
      moreau_error_agree(comm, rank == 0 ? write_table(dir, name, ncols, columns, nrows, values) : MOREAU_SUCCESS));
  return MOREAU_SUCCESS;
}
