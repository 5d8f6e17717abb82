#ifndef MOREAU_OPTIONS_H
#define MOREAU_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "moreau/error.h"

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

/* One documented option. Every option a module reads is listed in that
 * module's table, with the default as the text a user would type; the getters
 * below take the default from the table, so `-help` cannot disagree with the
 * code. Tables end with an entry whose name is NULL. */
typedef struct {
  const char *name;          /* with the leading dash, e.g. "-dt" */
  const char *kind;          /* shown in -help: "<real>", "<int>", "<file>", ... */
  const char *default_value; /* "" for none */
  const char *help;
} moreau_option_spec;

/* Registers a module's table (kept by pointer, must outlive the process). The
 * app registers all tables before reading any option. Not collective. */
MOREAU_MUST_CHECK moreau_err moreau_options_register(const char *group, const moreau_option_spec *table);
/* Prints every registered option, grouped, with default and meaning. */
void moreau_options_print_help(FILE *out);
/* Finds the spec of a registered option, or NULL. */
const moreau_option_spec *moreau_options_find(const char *name);
/* The registered option name closest to name (edit distance). */
const char *moreau_options_closest(const char *name);

/* Getters read the PETSc options database (command line and -options_file)
 * and fail with MOREAU_ERR_INPUT and a one-line message when the value does
 * not parse. They fail with MOREAU_ERR_INTERNAL for an unregistered name. */
MOREAU_MUST_CHECK moreau_err moreau_option_real(const char *name, double *value);
MOREAU_MUST_CHECK moreau_err moreau_option_int(const char *name, int64_t *value);
MOREAU_MUST_CHECK moreau_err moreau_option_bool(const char *name, int *value);
MOREAU_MUST_CHECK moreau_err moreau_option_string(const char *name, char *value, size_t len);
/* A comma-separated list of reals; *n is the capacity on entry, the count on
 * return. */
MOREAU_MUST_CHECK moreau_err moreau_option_reals(const char *name, double *values, int *n);
/* One of choices (NULL-terminated); *value is the index. */
MOREAU_MUST_CHECK moreau_err moreau_option_enum(const char *name, const char *const *choices, int *value);
/* Whether the option was given at all. */
MOREAU_MUST_CHECK moreau_err moreau_option_is_set(const char *name, int *set);

/* Not collective (every rank sees the same options). Fails with
 * MOREAU_ERR_INPUT naming the first option that nothing has read: an unknown
 * one (with the closest valid name) or a known one this run does not use. */
MOREAU_MUST_CHECK moreau_err moreau_options_check_unknown(void);

#pragma GCC visibility pop

#endif
