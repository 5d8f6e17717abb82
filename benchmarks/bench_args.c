#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench_nlgs.h"

static moreau_err parse_int(const char *name, const char *text, int64_t lo, int64_t hi, int64_t *value)
{
  char *end;
  long long v;
  errno = 0;
  v = strtoll(text, &end, 10);
  MOREAU_CHECK(!errno && end != text && *end == '\0' && v >= lo && v <= hi, MOREAU_ERR_INPUT,
               "option %s: expected an integer in [%lld, %lld], got '%s'", name, (long long)lo, (long long)hi, text);
  *value = v;
  return MOREAU_SUCCESS;
}

static moreau_err parse_real(const char *name, const char *text, double lo, double hi, double *value)
{
  char *end;
  double v;
  errno = 0;
  v = strtod(text, &end);
  MOREAU_CHECK(!errno && end != text && *end == '\0' && v >= lo && v <= hi, MOREAU_ERR_INPUT,
               "option %s: expected a number in [%g, %g], got '%s'", name, lo, hi, text);
  *value = v;
  return MOREAU_SUCCESS;
}

moreau_err bench_params_parse(int argc, char **argv, bench_params *p)
{
  memset(p, 0, sizeof(*p));
  p->dim = 2;
  p->n = 10000;
  p->seed = 42;
  p->mu = 0.5;
  p->sweeps = 200;
  p->block = 128;
  p->repeats = 3;
  p->max_sweeps = 1 << 17;
  p->target = 0.95;
  p->budget = 1.0;
  strcpy(p->cache, "bench_cache");
  for (int i = 1; i < argc; i++) {
    const char *name = argv[i];
    int64_t v = 0;
    MOREAU_CHECK(i + 1 < argc, MOREAU_ERR_INPUT, "option %s: missing value", name);
    const char *text = argv[++i];
    if (!strcmp(name, "-dim")) {
      MOREAU_CALL(parse_int(name, text, 2, 3, &v));
      p->dim = (int)v;
    } else if (!strcmp(name, "-n")) {
      MOREAU_CALL(parse_int(name, text, 16, 100000000, &p->n));
    } else if (!strcmp(name, "-seed")) {
      MOREAU_CALL(parse_int(name, text, 0, INT64_MAX, &v));
      p->seed = (uint64_t)v;
    } else if (!strcmp(name, "-mu")) {
      MOREAU_CALL(parse_real(name, text, 0.0, 10.0, &p->mu));
    } else if (!strcmp(name, "-sweeps")) {
      MOREAU_CALL(parse_int(name, text, 1, 1000000, &v));
      p->sweeps = (int)v;
    } else if (!strcmp(name, "-block")) {
      MOREAU_CALL(parse_int(name, text, 0, 1 << 20, &v));
      p->block = (int)v;
    } else if (!strcmp(name, "-repeats")) {
      MOREAU_CALL(parse_int(name, text, 1, 100, &v));
      p->repeats = (int)v;
    } else if (!strcmp(name, "-max_sweeps")) {
      MOREAU_CALL(parse_int(name, text, 1, 1 << 24, &v));
      p->max_sweeps = (int)v;
    } else if (!strcmp(name, "-target")) {
      MOREAU_CALL(parse_real(name, text, 0.01, 0.999, &p->target));
    } else if (!strcmp(name, "-budget")) {
      MOREAU_CALL(parse_real(name, text, 0.0, 1000.0, &p->budget));
    } else if (!strcmp(name, "-cache")) {
      MOREAU_CHECK(strlen(text) < sizeof(p->cache), MOREAU_ERR_INPUT, "option -cache: path too long");
      strcpy(p->cache, strcmp(text, "none") ? text : "");
    } else {
      MOREAU_FAIL(
          MOREAU_ERR_INPUT,
          "unknown option %s (valid: -dim -n -seed -mu -sweeps -block -repeats -max_sweeps -target -budget -cache)",
          name);
    }
  }
  return MOREAU_SUCCESS;
}
