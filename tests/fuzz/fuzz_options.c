/* libFuzzer target for the command line and options files: the checks of
 * src/app/app_command_line.c, PETSc's options database filled from them, and
 * every moreau options reader of a run's set-up.
 *
 * Input: the bytes before the first NUL, if there is one, are extra
 * command-line words, one per line; the rest (or everything) is the options
 * file, passed as the last words "-options_file <file>". */
#include <fcntl.h>
#include <mpi.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app_private.h"
#include "fuzz_common.h"
#include "moreau/generate.h"

#define MAX_WORDS 64

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  fuzz_init(argc, argv, 1);
  if (moreau_app_register_options()) abort();
  return 0;
}

/* The options of the app's own table, each by its getter. */
static moreau_err read_app_options(void)
{
  char text[4096];
  int64_t i;
  double x;
  int b;
  for (const moreau_option_spec *s = moreau_app_options; s->name; s++) {
    if (!strcmp(s->kind, "<int>") || !strcmp(s->kind, "<2|3>"))
      MOREAU_CALL(moreau_option_int(s->name, &i));
    else if (!strcmp(s->kind, "<real>"))
      MOREAU_CALL(moreau_option_real(s->name, &x));
    else if (!strcmp(s->kind, "<bool>"))
      MOREAU_CALL(moreau_option_bool(s->name, &b));
    else
      MOREAU_CALL(moreau_option_string(s->name, text, sizeof(text)));
  }
  return MOREAU_SUCCESS;
}

/* What a run's set-up reads, in its order, up to the check for options that
 * nothing read. */
static moreau_err read_run_options(void)
{
  int64_t dim;
  moreau_sim *sim = NULL;
  moreau_materials *m = NULL;
  moreau_gen_params gen;
  double box[6];
  moreau_err err;
  MOREAU_CALL(moreau_option_int("-dim", &dim));
  MOREAU_CHECK(dim == 2 || dim == 3, MOREAU_ERR_INPUT, "option -dim: must be 2 or 3");
  MOREAU_CALL(read_app_options());
  MOREAU_CALL(moreau_sim_create(PETSC_COMM_WORLD, (int)dim, &sim));
  err = moreau_sim_set_from_options(sim);
  const moreau_law *law = moreau_law_default();
  if (!err) err = moreau_law_from_options(&law);
  if (!err) err = moreau_sim_set_law(sim, law);
  if (!err) err = moreau_materials_from_options(law, &m);
  if (!err) err = moreau_sim_set_materials(sim, m);
  if (!err) err = moreau_generate_params_from_options((int)dim, &gen);
  for (int k = 0; !err && k < dim; k++) {
    box[k] = gen.lo[k];
    box[dim + k] = gen.hi[k];
  }
  if (!err) err = moreau_app_walls_from_options(sim, box);
  if (!err) err = moreau_options_check_unknown();
  if (moreau_sim_destroy(&sim) && !err) err = MOREAU_ERR_INTERNAL;
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}

/* app_command_line_ok prints its one line to stderr: kept out of the log. */
static int command_line_ok(int argc, char **argv)
{
  int saved = dup(2), null = open("/dev/null", O_WRONLY), ok;
  if (saved < 0 || null < 0 || dup2(null, 2) < 0) abort();
  ok = app_command_line_ok(MPI_COMM_WORLD, argc, argv);
  if (dup2(saved, 2) < 0) abort();
  close(saved);
  close(null);
  return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const uint8_t *nul = memchr(data, 0, size);
  size_t nwords = nul ? (size_t)(nul - data) : 0;
  char *words = malloc(nwords + 1), *argv[MAX_WORDS + 4], **args = argv, *save = NULL;
  int argc = 0;
  const char *file = nul ? (const char *)nul + 1 : (const char *)data;
  if (!words) abort();
  memcpy(words, data, nwords);
  words[nwords] = '\0';
  argv[argc++] = "moreau";
  /* Lines, empty ones included: an empty word is a case of its own. */
  if (nul)
    for (char *w = words; w && argc < MAX_WORDS; w = save) {
      save = strchr(w, '\n');
      if (save) *save++ = '\0';
      argv[argc++] = w;
    }
  argv[argc++] = "-options_file";
  argv[argc++] =
      (char *)fuzz_write_file("input.opts", (const uint8_t *)file, size - (size_t)(file - (const char *)data));
  argv[argc] = NULL;
  if (command_line_ok(argc, argv)) {
    /* The checks passed: PETSc must take the options as moreau_app_main's
     * PetscInitialize does, and every reader answer cleanly. */
    if (PetscOptionsClear(NULL) || PetscOptionsInsert(NULL, &argc, &args, NULL)) {
      fprintf(stderr, "fuzz: the command line checks passed but PETSc refused the options\n");
      abort();
    }
    fuzz_expect_clean(read_run_options(), "reading the run's options");
  }
  free(words);
  return 0;
}
