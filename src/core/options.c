#include "moreau/options.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

#define MAX_GROUPS 32
#define MAX_VALUE 4096

static struct {
  const char *group;
  const moreau_option_spec *table;
} groups[MAX_GROUPS];
static int ngroups;

/* Options PETSc itself reads when asked (-log_view at finalize, ...); they are
 * valid even when nothing has queried them yet. */
static const char *const petsc_options[] = {"-log_view", "-options_file", "-help", "-options_left",
                                            "-malloc_debug", "-malloc_dump", "-on_error_abort",
                                            "-log_view_memory", "-info", NULL};

moreau_err moreau_options_register(const char *group, const moreau_option_spec *table)
{
  for (int g = 0; g < ngroups; g++)
    if (groups[g].table == table) return MOREAU_SUCCESS;
  MOREAU_CHECK(ngroups < MAX_GROUPS, MOREAU_ERR_INTERNAL, "too many option groups");
  groups[ngroups].group = group;
  groups[ngroups].table = table;
  ngroups++;
  return MOREAU_SUCCESS;
}

void moreau_options_print_help(FILE *out)
{
  fprintf(out, "Options (PETSc style: -name value, or in a file given by -options_file):\n");
  for (int g = 0; g < ngroups; g++) {
    fprintf(out, "\n%s:\n", groups[g].group);
    for (const moreau_option_spec *s = groups[g].table; s->name; s++) {
      char left[96];
      snprintf(left, sizeof(left), "%s %s", s->name, s->kind);
      fprintf(out, "  %-30s %s", left, s->help);
      if (s->default_value[0]) fprintf(out, " (default: %s)", s->default_value);
      fprintf(out, "\n");
    }
  }
}

/* A spec name may hold "<i>", standing for a decimal index, so that numbered
 * families such as -wall<i>_mode are declared once. */
static int name_matches(const char *spec, const char *name)
{
  const char *hole = strstr(spec, "<i>");
  size_t head;
  if (!hole) return !strcmp(spec, name);
  head = (size_t)(hole - spec);
  if (strncmp(spec, name, head)) return 0;
  name += head;
  if (!isdigit((unsigned char)*name)) return 0;
  while (isdigit((unsigned char)*name)) name++;
  return !strcmp(hole + 3, name);
}

const moreau_option_spec *moreau_options_find(const char *name)
{
  for (int g = 0; g < ngroups; g++)
    for (const moreau_option_spec *s = groups[g].table; s->name; s++)
      if (name_matches(s->name, name)) return s;
  return NULL;
}

static size_t edit_distance(const char *a, const char *b)
{
  size_t la = strlen(a), lb = strlen(b), prev[128], cur[128];
  if (la > 127) la = 127;
  if (lb > 127) lb = 127;
  for (size_t j = 0; j <= lb; j++) prev[j] = j;
  for (size_t i = 1; i <= la; i++) {
    cur[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
      size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
      cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
    }
    memcpy(prev, cur, (lb + 1) * sizeof(size_t));
  }
  return prev[lb];
}

const char *moreau_options_closest(const char *name)
{
  const char *best = NULL;
  size_t best_d = (size_t)-1;
  for (int g = 0; g < ngroups; g++)
    for (const moreau_option_spec *s = groups[g].table; s->name; s++) {
      size_t d = edit_distance(name, s->name);
      if (d < best_d) {
        best_d = d;
        best = s->name;
      }
    }
  for (int i = 0; petsc_options[i]; i++) {
    size_t d = edit_distance(name, petsc_options[i]);
    if (d < best_d) {
      best_d = d;
      best = petsc_options[i];
    }
  }
  return best;
}

/* Reads the raw value; *set tells whether the option was given. The default
 * from the table is returned when it was not. */
static moreau_err raw_value(const char *name, char *buf, size_t len, int *given)
{
  const moreau_option_spec *s = moreau_options_find(name);
  PetscBool set = PETSC_FALSE;
  MOREAU_CHECK(s, MOREAU_ERR_INTERNAL, "option %s is read but not registered", name);
  buf[0] = '\0';
  if (PetscOptionsGetString(NULL, NULL, name, buf, len, &set))
    MOREAU_FAIL(MOREAU_ERR_INPUT, "option %s: cannot read its value", name);
  if (!set) snprintf(buf, len, "%s", s->default_value);
  if (given) *given = set ? 1 : 0;
  return MOREAU_SUCCESS;
}

static moreau_err parse_real(const char *name, const char *text, double *value)
{
  char *end;
  errno = 0;
  *value = strtod(text, &end);
  while (isspace((unsigned char)*end)) end++;
  MOREAU_CHECK(end != text && *end == '\0' && errno == 0 && isfinite(*value), MOREAU_ERR_INPUT,
               "option %s: '%s' is not a finite number", name, text);
  return MOREAU_SUCCESS;
}

moreau_err moreau_option_real(const char *name, double *value)
{
  char buf[MAX_VALUE];
  MOREAU_CALL(raw_value(name, buf, sizeof(buf), NULL));
  MOREAU_CALL(parse_real(name, buf, value));
  return MOREAU_SUCCESS;
}

moreau_err moreau_option_int(const char *name, int64_t *value)
{
  char buf[MAX_VALUE], *end;
  MOREAU_CALL(raw_value(name, buf, sizeof(buf), NULL));
  errno = 0;
  long long v = strtoll(buf, &end, 10);
  MOREAU_CHECK(end != buf && *end == '\0' && errno == 0, MOREAU_ERR_INPUT,
               "option %s: '%s' is not an integer", name, buf);
  *value = (int64_t)v;
  return MOREAU_SUCCESS;
}

moreau_err moreau_option_bool(const char *name, int *value)
{
  char buf[MAX_VALUE];
  int given = 0;
  MOREAU_CALL(raw_value(name, buf, sizeof(buf), &given));
  if (given && buf[0] == '\0') {
    *value = 1;
    return MOREAU_SUCCESS;
  }
  if (!strcasecmp(buf, "1") || !strcasecmp(buf, "true") || !strcasecmp(buf, "yes") || !strcasecmp(buf, "on"))
    *value = 1;
  else if (!strcasecmp(buf, "0") || !strcasecmp(buf, "false") || !strcasecmp(buf, "no") || !strcasecmp(buf, "off"))
    *value = 0;
  else
    MOREAU_FAIL(MOREAU_ERR_INPUT, "option %s: '%s' is not a boolean (true/false)", name, buf);
  return MOREAU_SUCCESS;
}

moreau_err moreau_option_string(const char *name, char *value, size_t len)
{
  char buf[MAX_VALUE];
  MOREAU_CALL(raw_value(name, buf, sizeof(buf), NULL));
  MOREAU_CHECK(strlen(buf) < len, MOREAU_ERR_INPUT, "option %s: value longer than %zu characters", name, len - 1);
  memcpy(value, buf, strlen(buf) + 1);
  return MOREAU_SUCCESS;
}

moreau_err moreau_option_reals(const char *name, double *values, int *n)
{
  char buf[MAX_VALUE], *tok, *save = NULL;
  int cap = *n, count = 0;
  MOREAU_CALL(raw_value(name, buf, sizeof(buf), NULL));
  for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    MOREAU_CHECK(count < cap, MOREAU_ERR_INPUT, "option %s: more than %d values", name, cap);
    MOREAU_CALL(parse_real(name, tok, &values[count]));
    count++;
  }
  *n = count;
  return MOREAU_SUCCESS;
}

moreau_err moreau_option_enum(const char *name, const char *const *choices, int *value)
{
  char buf[MAX_VALUE], list[512] = "";
  MOREAU_CALL(raw_value(name, buf, sizeof(buf), NULL));
  for (int i = 0; choices[i]; i++) {
    if (!strcmp(buf, choices[i])) {
      *value = i;
      return MOREAU_SUCCESS;
    }
    strncat(list, i ? "|" : "", sizeof(list) - strlen(list) - 1);
    strncat(list, choices[i], sizeof(list) - strlen(list) - 1);
  }
  MOREAU_FAIL(MOREAU_ERR_INPUT, "option %s: '%s' is not one of %s", name, buf, list);
}

moreau_err moreau_option_is_set(const char *name, int *set)
{
  PetscBool has = PETSC_FALSE;
  MOREAU_CHECK(moreau_options_find(name), MOREAU_ERR_INTERNAL, "option %s is not registered", name);
  if (PetscOptionsHasName(NULL, NULL, name, &has)) MOREAU_FAIL(MOREAU_ERR_INPUT, "option %s: cannot read", name);
  *set = has ? 1 : 0;
  return MOREAU_SUCCESS;
}

static int is_petsc_option(const char *name)
{
  for (int i = 0; petsc_options[i]; i++)
    if (!strcmp(petsc_options[i], name)) return 1;
  return 0;
}

moreau_err moreau_options_check_unknown(void)
{
  PetscInt n = 0;
  char **names = NULL, **values = NULL;
  char bad[256] = "";
  int known = 0;
  if (PetscOptionsLeftGet(NULL, &n, &names, &values)) MOREAU_FAIL(MOREAU_ERR_INTERNAL, "cannot list options");
  for (PetscInt i = 0; i < n && !bad[0]; i++) {
    char name[250];
    snprintf(name, sizeof(name), "%s%s", names[i][0] == '-' ? "" : "-", names[i]);
    if (is_petsc_option(name)) continue;
    snprintf(bad, sizeof(bad), "%s", name);
    known = moreau_options_find(name) != NULL;
  }
  (void)PetscOptionsLeftRestore(NULL, &n, &names, &values);
  if (bad[0] && known)
    MOREAU_FAIL(MOREAU_ERR_INPUT, "option %s is given but nothing in this run reads it", bad);
  if (bad[0]) {
    const char *close = moreau_options_closest(bad);
    MOREAU_FAIL(MOREAU_ERR_INPUT, "unknown option %s (did you mean %s? see -help)", bad, close ? close : "-help");
  }
  return MOREAU_SUCCESS;
}
