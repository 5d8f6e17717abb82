#include <ctype.h>
#include <petscsys.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "app_private.h"

/* What a restart may change: when to stop, how often to write, how hard to
 * solve, how to partition and what to measure. Everything else defines the
 * physics of the run
 * and must stay what the checkpoint's run had. */
static const char *const safe_options[] = {"-restart",
                                           "-output_dir",
                                           "-overwrite",
                                           "-options_file",
                                           "-t_end",
                                           "-steps",
                                           "-strain_end",
                                           "-output_every",
                                           "-snapshot_every",
                                           "-status_every",
                                           "-checkpoint_every",
                                           "-checkpoint_wall_interval",
                                           "-checkpoint_keep",
                                           "-nlgs_tol",
                                           "-nlgs_min_it",
                                           "-nlgs_max_it",
                                           "-nlgs_check_every",
                                           "-nlgs_copy_split",
                                           "-part_type",
                                           "-part_weight",
                                           "-part_imbalance",
                                           "-part_cell_size",
                                           "-analysis_every",
                                           "-analysis_region",
                                           "-profile_bins",
                                           "-profile_axis",
                                           "-profile_every",
                                           "-error_trace",
                                           "-log_view",
                                           NULL};

static int is_safe(const char *name)
{
  for (int i = 0; safe_options[i]; i++)
    if (!strcmp(name, safe_options[i])) return 1;
  return 0;
}

/* An option name: a dash and a letter (values such as -1 or -9.81 are not). */
static int is_name(const char *tok) { return tok[0] == '-' && isalpha((unsigned char)tok[1]); }

/* Splits PETSc's "-a 1 -b -c x" into name/value pairs in place: names[i],
 * values[i] ("" for a flag). Returns the count. */
static int split(char *text, char **names, char **values, int max)
{
  int n = 0;
  char *save = NULL, *tok = strtok_r(text, " \t\n", &save);
  while (tok && n < max) {
    names[n] = tok;
    values[n] = "";
    tok = strtok_r(NULL, " \t\n", &save);
    if (tok && !is_name(tok)) {
      values[n] = tok;
      tok = strtok_r(NULL, " \t\n", &save);
    }
    n++;
  }
  return n;
}

static const char *find(const char *name, char **names, char **values, int n)
{
  for (int i = 0; i < n; i++)
    if (!strcmp(names[i], name)) return values[i];
  return NULL;
}

#define MAX_OPTIONS 4096

/* The checkpoint's options become this run's; the command line's may only
 * differ where that is safe. */
static moreau_err merge(char *saved, char *given, const char *path)
{
  static char *sn[MAX_OPTIONS], *sv[MAX_OPTIONS], *gn[MAX_OPTIONS], *gv[MAX_OPTIONS];
  int ns = split(saved, sn, sv, MAX_OPTIONS), ng = split(given, gn, gv, MAX_OPTIONS);
  for (int i = 0; i < ng; i++) {
    const moreau_option_spec *spec = moreau_options_find(gn[i]);
    const char *was = find(gn[i], sn, sv, ns);
    /* PETSc's own options (-log_view, ...) are not the run's physics, and
     * an unknown name is reported later with the closest valid one. */
    if (!spec || is_safe(gn[i])) continue;
    /* What the checkpoint's run did not give, it had at its default. */
    if (!was) was = spec->default_value;
    MOREAU_CHECK(!strcmp(was, gv[i]), MOREAU_ERR_INPUT,
                 "option %s: the run of %s had %s, and a restart may only change -t_end, -steps, output and "
                 "checkpoint intervals, solver tolerances and partition options",
                 gn[i], path, was[0] ? was : "it as a flag");
  }
  for (int i = 0; i < ns; i++) {
    /* PETSc reads its own options (-log_view, ...) when it starts: too late
     * to restore them here, and they change nothing in the run. */
    if (find(sn[i], gn, gv, ng) || !strcmp(sn[i], "-restart") || !moreau_options_find(sn[i])) continue;
    MOREAU_CHECK(PetscOptionsSetValue(NULL, sn[i], sv[i][0] ? sv[i] : NULL) == 0, MOREAU_ERR_INPUT,
                 "%s: cannot restore option %s", path, sn[i]);
  }
  return MOREAU_SUCCESS;
}

moreau_err app_restart_options(MPI_Comm comm, char *path, size_t len)
{
  char restart[4096], dir[4096], *saved = NULL, *given = NULL;
  moreau_err err;
  path[0] = '\0';
  MOREAU_CALL(moreau_option_string("-restart", restart, sizeof(restart)));
  if (!restart[0]) return MOREAU_SUCCESS;
  MOREAU_CALL(moreau_option_string("-output_dir", dir, sizeof(dir)));
  if (!strcmp(restart, "auto")) {
    MOREAU_CALL(moreau_checkpoint_find(comm, dir, path, len));
  } else {
    struct stat st;
    MOREAU_CHECK(strlen(restart) < len, MOREAU_ERR_INPUT, "option -restart: path too long");
    MOREAU_CHECK(stat(restart, &st) != 0 || !S_ISDIR(st.st_mode), MOREAU_ERR_INPUT,
                 "option -restart %s: is a directory, not a checkpoint file (-restart auto -output_dir %s takes the "
                 "newest checkpoint of a run's output directory)",
                 restart, restart);
    memcpy(path, restart, strlen(restart) + 1);
  }
  MOREAU_CALL(moreau_checkpoint_read_options(path, comm, &saved));
  MOREAU_CHECK(PetscOptionsGetAll(NULL, &given) == 0, MOREAU_ERR_RUNTIME, "cannot list the options");
  err = merge(saved, given, path);
  moreau_free(&saved);
  PetscFree(given);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}
