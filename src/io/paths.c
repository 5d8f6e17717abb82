#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "io_private.h"

moreau_err io_path(char *buf, const char *fmt, ...)
{
  va_list ap;
  int n;
  va_start(ap, fmt);
  n = vsnprintf(buf, IO_PATH_MAX, fmt, ap);
  va_end(ap);
  MOREAU_CHECK(n >= 0 && n < IO_PATH_MAX, MOREAU_ERR_INPUT, "path too long (more than %d characters)", IO_PATH_MAX - 1);
  return MOREAU_SUCCESS;
}

moreau_err io_snapshot_name(char *buf, int64_t step, const char *suffix)
{
  MOREAU_CALL(io_path(buf, "snap_%06" PRId64 "%s", step, suffix));
  return MOREAU_SUCCESS;
}

static moreau_err make_one_dir(const char *path)
{
  struct stat st;
  if (mkdir(path, 0777) == 0) return MOREAU_SUCCESS;
  /* Another process (or an earlier run) may have made it: only a directory
   * already there is fine. */
  if (errno == EEXIST && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return MOREAU_SUCCESS;
  MOREAU_FAIL(MOREAU_ERR_IO, "%s: cannot create directory (%s)", path,
              errno == EEXIST ? "a file of that name exists" : strerror(errno));
}

moreau_err io_mkdir_p(const char *path)
{
  char buf[IO_PATH_MAX];
  size_t n;
  MOREAU_CALL(io_path(buf, "%s", path));
  n = strlen(buf);
  while (n > 1 && buf[n - 1] == '/')
    buf[--n] = '\0';
  for (size_t i = 1; i < n; i++) {
    if (buf[i] != '/' || buf[i - 1] == '/') continue;
    buf[i] = '\0';
    MOREAU_CALL(make_one_dir(buf));
    buf[i] = '/';
  }
  MOREAU_CALL(make_one_dir(buf));
  return MOREAU_SUCCESS;
}
