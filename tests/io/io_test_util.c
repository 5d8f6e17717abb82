#define _XOPEN_SOURCE 700
#include "io_test_util.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int io_test_all(int ok)
{
  int mine = ok != 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return all;
}

long io_test_sum(long v)
{
  long total = 0;
  MPI_Allreduce(&v, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

void io_test_make_tmpdir(char *dir)
{
  int rank, ok = 1;
  char buf[256] = {0};
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    const char *base = getenv("TMPDIR");
    snprintf(buf, sizeof(buf), "%s/moreau_io_XXXXXX", base && base[0] ? base : "/tmp");
    ok = mkdtemp(buf) != NULL;
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast(buf, sizeof(buf), MPI_CHAR, 0, MPI_COMM_WORLD);
  if (!ok) {
    fprintf(stderr, "cannot make a temporary directory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  memcpy(dir, buf, sizeof(buf));
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

void io_test_remove_tree(const char *dir)
{
  int rank;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  MPI_Barrier(MPI_COMM_WORLD);
}

void io_test_write_file(const char *path, const char *text)
{
  int rank, ok = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    FILE *f = fopen(path, "wb");
    ok = f && fwrite(text, 1, strlen(text), f) == strlen(text);
    if (f) ok = fclose(f) == 0 && ok;
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!ok) {
    fprintf(stderr, "cannot write %s\n", path);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

int io_test_run(Suite *s)
{
  int rank, failed;
  SRunner *sr = srunner_create(s);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  srunner_run_all(sr, rank == 0 ? CK_NORMAL : CK_SILENT);
  failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return io_test_sum(failed) ? 1 : 0;
}
