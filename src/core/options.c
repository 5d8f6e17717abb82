#include "moreau/options.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
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
static const char *const petsc_options[] = {
    "-log_view",        "-options_file", "-help", "-options_left", "-malloc_debug", "-malloc_dump", "-on_error_abort",
    "-log_view_memory", "-info",         NULL};

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
  while (isdigit((unsigned char)*name))
    name++;
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
  for (size_t j = 0; j <= lb; j++)
    prev[j] = j;
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

/* A numbered family is compared, and suggested, with the index the user
 * typed ("-wall3_mod" -> "-wall3_mode"); with no digits in the name, as the
 * pattern. The result may point to a static buffer, valid until the next call. */
const char *moreau_options_closest(const char *name)
{
  static char concrete[128];
  char candidate[128], digits[32] = "";
  const char *best = NULL, *d0 = strpbrk(name, "0123456789");
  size_t best_d = (size_t)-1;
  if (d0) snprintf(digits, sizeof(digits), "%.*s", (int)strspn(d0, "0123456789"), d0);
  for (int g = 0; g < ngroups; g++)
    for (const moreau_option_spec *s = groups[g].table; s->name; s++) {
      const char *hole = strstr(s->name, "<i>");
      size_t d;
      if (hole && digits[0])
        snprintf(candidate, sizeof(candidate), "%.*s%s%s", (int)(hole - s->name), s->name, digits, hole + 3);
      else
        snprintf(candidate, sizeof(candidate), "%s", s->name);
      d = edit_distance(name, candidate);
      if (d < best_d) {
        best_d = d;
        best = s->name;
        if (hole && digits[0]) {
          memcpy(concrete, candidate, sizeof(concrete));
          best = concrete;
        }
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
  /* PETSc cuts a long value to fit without saying so; a cut path or list
   * would be read as another valid value. */
  MOREAU_CHECK(strlen(buf) < len - 1, MOREAU_ERR_INPUT, "option %s: value longer than %zu characters", name, len - 2);
  if (!set) snprintf(buf, len, "%s", s->default_value);
  if (given) *given = set ? 1 : 0;
  return MOREAU_SUCCESS;
}

/* For options that take a value: `-dt` alone at the end of a command line
 * reads as an empty value, which deserves its own message. */
static moreau_err require_value(const char *name, const char *buf, int given)
{
  MOREAU_CHECK(!given || buf[0], MOREAU_ERR_INPUT, "option %s needs a value %s", name, moreau_options_find(name)->kind);
  return MOREAU_SUCCESS;
}

static moreau_err parse_real(const char *name, const char *text, double *value)
{
  char *end;
  errno = 0;
  *value = strtod(text, &end);
  while (isspace((unsigned char)*end))
    end++;
  MOREAU_CHECK(end != text && *end == '\0', MOREAU_ERR_INPUT, "option %s: '%s' is not a number", name, text);
  /* strtod flags an underflow too, which is no overflow to infinity. */
  MOREAU_CHECK(errno != ERANGE || isinf(*value) || fabs(*value) >= DBL_MIN, MOREAU_ERR_INPUT,
               "option %s: '%s' is too small to represent (below %g in magnitude)", name, text, DBL_MIN);
  MOREAU_CHECK(errno == 0 && isfinite(*value), MOREAU_ERR_INPUT, "option %s: '%s' is not a finite number", name, text);
  return MOREAU_SUCCESS;
}

moreau_err moreau_option_real(const char *name, double *value)
{
  char buf[MAX_VALUE];
  int given = 0;
  MOREAU_CALL(raw_value(name, buf, sizeof(buf), &given));
  MOREAU_CALL(require_value(name, buf, given));
  MOREAU_CALL(parse_real(name, buf, value));
  return MOREAU_SUCCESS;
}

moreau_err moreau_option_int(const char *name, int64_t *value)
{
  char buf[MAX_VALUE], *end;
  int given = 0;
  MOREAU_CALL(raw_value(name, buf, sizeof(buf), &given));
  MOREAU_CALL(require_value(name, buf, given));
  errno = 0;
  long long v = strtoll(buf, &end, 10);
  MOREAU_CHECK(end != buf && *end == '\0' && errno == 0, MOREAU_ERR_INPUT, "option %s: '%s' is not an integer", name,
               buf);
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
  int given = 0;
  MOREAU_CALL(raw_value(name, buf, sizeof(buf), &given));
  MOREAU_CALL(require_value(name, buf, given));
  MOREAU_CHECK(strlen(buf) < len, MOREAU_ERR_INPUT, "option %s: value longer than %zu characters", name, len - 1);
  memcpy(value, buf, strlen(buf) + 1);
  return MOREAU_SUCCESS;
}

/* Empty fields are errors rather than skipped: "-box 0,,1,1" is a typo, and
 * reading it as three numbers would silently shift the rest. */
moreau_err moreau_option_reals(const char *name, double *values, int *n)
{
  char buf[MAX_VALUE], *tok, *comma;
  int cap = *n, count = 0, given = 0;
  MOREAU_CALL(raw_value(name, buf, sizeof(buf), &given));
  MOREAU_CALL(require_value(name, buf, given));
  for (tok = buf; buf[0]; tok = comma + 1) {
    comma = strchr(tok, ',');
    if (comma) *comma = '\0';
    MOREAU_CHECK(tok[strspn(tok, " \t")], MOREAU_ERR_INPUT, "option %s: empty field %d in the list", name, count + 1);
    MOREAU_CHECK(count < cap, MOREAU_ERR_INPUT, "option %s: more than %d values", name, cap);
    MOREAU_CALL(parse_real(name, tok, &values[count]));
    count++;
    if (!comma) break;
  }
  *n = count;
  return MOREAU_SUCCESS;
}

moreau_err moreau_option_enum(const char *name, const char *const *choices, int *value)
{
  char buf[MAX_VALUE], list[512] = "";
  int given;
  MOREAU_CALL(raw_value(name, buf, sizeof(buf), &given));
  MOREAU_CALL(require_value(name, buf, given));
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
  if (bad[0] && known) MOREAU_FAIL(MOREAU_ERR_INPUT, "option %s is given but nothing in this run reads it", bad);
  if (bad[0]) {
    const char *close = moreau_options_closest(bad);
    MOREAU_FAIL(MOREAU_ERR_INPUT, "unknown option %s (did you mean %s? see -help)", bad, close ? close : "-help");
  }
  return MOREAU_SUCCESS;
}
