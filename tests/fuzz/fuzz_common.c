#include "fuzz_common.h"

#include <limits.h>
#include <mpi.h>
#include <petscsys.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char scratch[PATH_MAX];
static char path[PATH_MAX];
static int petsc_started;

static void finish(void)
{
  char cmd[PATH_MAX + 16];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
  if (system(cmd) != 0) fprintf(stderr, "fuzz: could not remove %s\n", scratch);
  if (petsc_started) PetscFinalize();
  MPI_Finalize();
}

void fuzz_init(int *argc, char ***argv, int with_petsc)
{
  const char *tmp = getenv("TMPDIR");
  /* libFuzzer's own flags are no business of MPI's or PETSc's. */
  int no_argc = 1;
  char *no_args[] = {(*argv)[0], NULL}, **no_argv = no_args;
  /* Crashes are libFuzzer's to catch (it saves the input), not Open MPI's or
   * PETSc's signal handlers'. */
  setenv("OMPI_MCA_opal_signal", "", 0);
  MPI_Init(&no_argc, &no_argv);
  if (with_petsc) {
    if (PetscOptionsSetValue(NULL, "-no_signal_handler", NULL)) abort();
    if (PetscInitialize(&no_argc, &no_argv, NULL, NULL)) abort();
    /* A bad option value is the options parser's to report, not PETSc's
     * page of text. */
    if (PetscPushErrorHandler(PetscIgnoreErrorHandler, NULL)) abort();
    petsc_started = 1;
  }
  snprintf(scratch, sizeof(scratch), "%s/moreau_fuzz_XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
  if (!mkdtemp(scratch)) {
    perror("fuzz: mkdtemp");
    abort();
  }
  atexit(finish);
}

const char *fuzz_write_file(const char *name, const uint8_t *data, size_t size)
{
  FILE *f;
  snprintf(path, sizeof(path), "%s/%s", scratch, name);
  f = fopen(path, "wb");
  if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f)) {
    perror("fuzz: writing the input file");
    abort();
  }
  return path;
}

void fuzz_expect_clean(moreau_err err, const char *what)
{
  const char *msg = moreau_error_message();
  if (err == MOREAU_SUCCESS || (err != MOREAU_ERR_INTERNAL && msg[0] && !strchr(msg, '\n'))) {
    moreau_error_clear();
    return;
  }
  fprintf(stderr, "fuzz: %s answered code %d, message \"%s\"; expected success or an error of one line\n", what,
          (int)err, msg);
  moreau_error_print(1);
  abort();
}
