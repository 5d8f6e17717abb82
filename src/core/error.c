#include "moreau/error.h"

#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define MOREAU_MAX_FRAMES 32

typedef struct {
  const char *file;
  int line;
  const char *func;
} error_frame;

static struct {
  moreau_err code;
  int local;
  char message[1024];
  int nframes;
  error_frame frames[MOREAU_MAX_FRAMES];
} pending;

static void push_frame(const char *file, int line, const char *func)
{
  if (pending.nframes < MOREAU_MAX_FRAMES) {
    pending.frames[pending.nframes].file = file;
    pending.frames[pending.nframes].line = line;
    pending.frames[pending.nframes].func = func;
    pending.nframes++;
  }
}

moreau_err moreau_error_raise(moreau_err code, const char *file, int line, const char *func, const char *fmt, ...)
{
  va_list ap;
  pending.code = code;
  pending.local = 1;
  pending.nframes = 0;
  va_start(ap, fmt);
  vsnprintf(pending.message, sizeof(pending.message), fmt, ap);
  va_end(ap);
  push_frame(file, line, func);
  return code;
}

moreau_err moreau_error_trace(moreau_err code, const char *file, int line, const char *func)
{
  if (pending.code == MOREAU_SUCCESS) {
    pending.code = code;
    pending.local = 1;
    snprintf(pending.message, sizeof(pending.message), "error code %d", code);
  }
  push_frame(file, line, func);
  return code;
}

moreau_err moreau_error_agree(MPI_Comm comm, moreau_err local)
{
  int global = local;
  if (MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS)
    return moreau_error_raise(MOREAU_ERR_MPI, __FILE__, __LINE__, __func__, "MPI_Allreduce failed");
  if (global && !local) {
    pending.code = global;
    pending.local = 0;
    pending.nframes = 0;
    snprintf(pending.message, sizeof(pending.message), "error on another rank");
  }
  return global;
}

int moreau_error_is_local(void) { return pending.code != MOREAU_SUCCESS && pending.local; }

void moreau_error_print(int verbose)
{
  if (pending.code == MOREAU_SUCCESS) return;
  fprintf(stderr, "moreau: error: %s\n", pending.message);
  /* The user's input, the run's numerics and the system's I/O are told in
   * one line; where in the code matters for faults of the program or the
   * machine (memory, MPI, internal invariants). */
  if (verbose || pending.code == MOREAU_ERR_MEMORY || pending.code == MOREAU_ERR_MPI ||
      pending.code == MOREAU_ERR_INTERNAL) {
    for (int i = 0; i < pending.nframes; i++)
      fprintf(stderr, "  at %s:%d (%s)\n", pending.frames[i].file, pending.frames[i].line, pending.frames[i].func);
  }
  fflush(stderr);
}

const char *moreau_error_message(void) { return pending.message; }

void moreau_error_clear(void) { memset(&pending, 0, sizeof(pending)); }

moreau_err moreau_malloc(size_t bytes, void *ptr_out)
{
  void *p = bytes ? malloc(bytes) : NULL;
  if (bytes && !p) MOREAU_FAIL(MOREAU_ERR_MEMORY, "out of memory allocating %zu bytes", bytes);
  *(void **)ptr_out = p;
  return MOREAU_SUCCESS;
}

void moreau_malloc_defaults(void)
{
  /* glibc's own values (mallopt(3)). */
  (void)mallopt(M_MMAP_MAX, 65536);
  (void)mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  (void)mallopt(M_TRIM_THRESHOLD, 128 * 1024);
}

void moreau_malloc_keep_freed(void)
{
  (void)mallopt(M_MMAP_MAX, 0);
  (void)mallopt(M_TRIM_THRESHOLD, -1);
}

moreau_err moreau_malloc_lines(size_t bytes, void *ptr_out)
{
  /* From 4 MiB on, on 2 MiB pages where the kernel gives them (transparent
   * huge pages on madvise, as Debian sets them): a random sweep over
   * hundreds of MiB of records misses the TLB at nearly every row with 4 KiB
   * pages. */
  const size_t huge = (size_t)2 << 20, align = bytes >= 2 * huge ? huge : 64;
  const size_t size = (bytes + align - 1) / align * align;
  void *p = bytes ? aligned_alloc(align, size) : NULL;
  if (bytes && !p) MOREAU_FAIL(MOREAU_ERR_MEMORY, "out of memory allocating %zu bytes", bytes);
#ifdef MADV_HUGEPAGE
  if (p && align == huge) (void)madvise(p, size, MADV_HUGEPAGE); /* a hint: refused, the pages stay small */
#endif
  *(void **)ptr_out = p;
  return MOREAU_SUCCESS;
}

moreau_err moreau_calloc(size_t n, size_t size, void *ptr_out)
{
  void *p = (n && size) ? calloc(n, size) : NULL;
  if (n && size && !p) MOREAU_FAIL(MOREAU_ERR_MEMORY, "out of memory allocating %zu x %zu bytes", n, size);
  *(void **)ptr_out = p;
  return MOREAU_SUCCESS;
}

moreau_err moreau_realloc(size_t bytes, void *ptr_inout)
{
  void **pp = (void **)ptr_inout;
  if (!bytes) {
    free(*pp);
    *pp = NULL;
    return MOREAU_SUCCESS;
  }
  void *p = realloc(*pp, bytes);
  if (!p) MOREAU_FAIL(MOREAU_ERR_MEMORY, "out of memory reallocating to %zu bytes", bytes);
  *pp = p;
  return MOREAU_SUCCESS;
}

void moreau_free(void *ptr_inout)
{
  void **pp = (void **)ptr_inout;
  free(*pp);
  *pp = NULL;
}
