#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "moreau/io.h"
#include "moreau/log.h"

/* Only rank 0 holds the file; every rank keeps the column names so that a
 * misuse (a column added after the first row) fails on all of them alike. */
struct moreau_timeseries {
  MPI_Comm comm; /* not owned */
  int rank;
  FILE *file; /* rank 0 only */
  char *path;
  char **names;
  int ncols, capacity;
  int header_written;
  char *kept_header; /* continuing a file: its header, without the newline */
};

static moreau_err open_file(moreau_timeseries *ts)
{
  ts->file = fopen(ts->path, "w");
  MOREAU_CHECK(ts->file, MOREAU_ERR_IO, "%s: cannot open for writing (%s)", ts->path, strerror(errno));
  return MOREAU_SUCCESS;
}

moreau_err moreau_timeseries_create(MPI_Comm comm, const char *path, moreau_timeseries **tsp)
{
  moreau_timeseries *ts;
  size_t len = strlen(path);
  moreau_err err;
  MOREAU_CALL(moreau_calloc(1, sizeof(*ts), &ts));
  ts->comm = comm;
  MOREAU_MPI_CALL(MPI_Comm_rank(comm, &ts->rank));
  MOREAU_CALL(moreau_malloc(len + 1, &ts->path));
  memcpy(ts->path, path, len + 1);
  err = moreau_error_agree(comm, ts->rank == 0 ? open_file(ts) : MOREAU_SUCCESS);
  if (err) {
    /* The failure to open is the one to report, not a failure to clean up. */
    moreau_err cleanup = moreau_timeseries_destroy(&ts);
    MOREAU_CALL(err ? err : cleanup);
  }
  *tsp = ts;
  return MOREAU_SUCCESS;
}

/* Rank 0: keeps the header and the complete rows of step <= last_step of
 * an existing series (a row cut by a kill has no newline and goes too), and
 * opens it for appending. No file yet: a new one. */
static moreau_err keep_rows(moreau_timeseries *ts, double last_step)
{
  char tmp[4200], *line = NULL;
  size_t cap = 0;
  ssize_t len;
  FILE *in = fopen(ts->path, "r"), *out;
  if (!in) {
    MOREAU_CHECK(errno == ENOENT, MOREAU_ERR_IO, "%s: cannot open (%s)", ts->path, strerror(errno));
    return open_file(ts);
  }
  MOREAU_CHECK(snprintf(tmp, sizeof(tmp), "%s.tmp", ts->path) < (int)sizeof(tmp), MOREAU_ERR_INPUT, "%s: path too long",
               ts->path);
  out = fopen(tmp, "w");
  if (!out) {
    fclose(in);
    MOREAU_FAIL(MOREAU_ERR_IO, "%s: cannot open for writing (%s)", tmp, strerror(errno));
  }
  for (int first = 1; (len = getline(&line, &cap, in)) > 0; first = 0) {
    if (line[len - 1] != '\n') break;
    if (first) {
      line[len - 1] = '\0';
      if (moreau_malloc((size_t)len, &ts->kept_header) == MOREAU_SUCCESS) memcpy(ts->kept_header, line, (size_t)len);
      line[len - 1] = '\n';
    } else if (strtod(line, NULL) > last_step) {
      break;
    }
    fputs(line, out);
  }
  free(line);
  fclose(in);
  MOREAU_CHECK(fclose(out) == 0 && rename(tmp, ts->path) == 0, MOREAU_ERR_IO, "%s: cannot rewrite (%s)", ts->path,
               strerror(errno));
  ts->file = fopen(ts->path, "a");
  MOREAU_CHECK(ts->file, MOREAU_ERR_IO, "%s: cannot open for appending (%s)", ts->path, strerror(errno));
  return MOREAU_SUCCESS;
}

moreau_err moreau_timeseries_continue(MPI_Comm comm, const char *path, double last_step, moreau_timeseries **tsp)
{
  moreau_timeseries *ts;
  moreau_err err;
  MOREAU_CALL(moreau_calloc(1, sizeof(*ts), &ts));
  ts->comm = comm;
  MOREAU_MPI_CALL(MPI_Comm_rank(comm, &ts->rank));
  MOREAU_CALL(moreau_malloc(strlen(path) + 1, &ts->path));
  memcpy(ts->path, path, strlen(path) + 1);
  err = moreau_error_agree(comm, ts->rank == 0 ? keep_rows(ts, last_step) : MOREAU_SUCCESS);
  if (err) {
    moreau_err cleanup = moreau_timeseries_destroy(&ts);
    MOREAU_CALL(err ? err : cleanup);
  }
  *tsp = ts;
  return MOREAU_SUCCESS;
}

moreau_err moreau_timeseries_add_column(moreau_timeseries *ts, const char *name)
{
  size_t len = strlen(name);
  MOREAU_CHECK(!ts->header_written, MOREAU_ERR_INTERNAL, "%s: column '%s' added after the first row", ts->path, name);
  MOREAU_CHECK(len > 0 && !strpbrk(name, ",\"\n\r"), MOREAU_ERR_INTERNAL, "%s: bad column name '%s'", ts->path, name);
  if (ts->ncols == ts->capacity) {
    int cap = ts->capacity ? 2 * ts->capacity : 16;
    MOREAU_CALL(moreau_realloc((size_t)cap * sizeof(*ts->names), &ts->names));
    ts->capacity = cap;
  }
  MOREAU_CALL(moreau_malloc(len + 1, &ts->names[ts->ncols]));
  memcpy(ts->names[ts->ncols], name, len + 1);
  ts->ncols++;
  return MOREAU_SUCCESS;
}

static void write_header(moreau_timeseries *ts)
{
  for (int i = 0; i < ts->ncols; i++)
    fprintf(ts->file, "%s%s", i ? "," : "", ts->names[i]);
  fputc('\n', ts->file);
}

/* Rank 0's part of a row. Flushed at once so that a run killed by the
 * scheduler still leaves every row written so far. */
/* A continued series must have this run's columns. */
static moreau_err check_kept_header(moreau_timeseries *ts)
{
  size_t at = 0, len = strlen(ts->kept_header);
  for (int i = 0; i < ts->ncols; i++) {
    size_t n = strlen(ts->names[i]);
    if (i && (at >= len || ts->kept_header[at++] != ',')) break;
    if (strncmp(ts->kept_header + at, ts->names[i], n)) break;
    at += n;
    if (i == ts->ncols - 1 && at == len) return MOREAU_SUCCESS;
  }
  MOREAU_FAIL(MOREAU_ERR_INPUT, "%s: cannot continue it, its columns are not this run's", ts->path);
}

static moreau_err write_row(moreau_timeseries *ts, const double *values, int header)
{
  if (header && !ts->kept_header) write_header(ts);
  if (ts->kept_header) {
    MOREAU_CALL(check_kept_header(ts));
    moreau_free(&ts->kept_header);
  }
  for (int i = 0; i < ts->ncols; i++)
    fprintf(ts->file, "%s%.17g", i ? "," : "", values[i]);
  fputc('\n', ts->file);
  MOREAU_CHECK(fflush(ts->file) == 0 && !ferror(ts->file), MOREAU_ERR_IO, "%s: write failed (%s)", ts->path,
               strerror(errno));
  return MOREAU_SUCCESS;
}

moreau_err moreau_timeseries_write(moreau_timeseries *ts, const double *values)
{
  moreau_err err;
  int header = !ts->header_written;
  ts->header_written = 1;
  moreau_log_begin(MOREAU_EV_IO_WRITE);
  err = moreau_error_agree(ts->comm, ts->rank == 0 ? write_row(ts, values, header) : MOREAU_SUCCESS);
  moreau_log_end(MOREAU_EV_IO_WRITE);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}

static moreau_err close_file(moreau_timeseries *ts)
{
  int bad;
  if (!ts->file) return MOREAU_SUCCESS;
  /* A series that never got a row still names its columns. */
  if (!ts->header_written && ts->ncols > 0 && !ts->kept_header) write_header(ts);
  bad = ferror(ts->file);
  bad |= fclose(ts->file) != 0;
  ts->file = NULL;
  MOREAU_CHECK(!bad, MOREAU_ERR_IO, "%s: write failed when closing", ts->path);
  return MOREAU_SUCCESS;
}

moreau_err moreau_timeseries_destroy(moreau_timeseries **tsp)
{
  moreau_timeseries *ts = *tsp;
  moreau_err err;
  if (!ts) return MOREAU_SUCCESS;
  err = close_file(ts);
  for (int i = 0; i < ts->ncols; i++)
    moreau_free(&ts->names[i]);
  moreau_free(&ts->names);
  moreau_free(&ts->path);
  moreau_free(&ts->kept_header);
  moreau_free(tsp);
  MOREAU_CALL(err);
  return MOREAU_SUCCESS;
}
