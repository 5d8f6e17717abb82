#ifndef MOREAU_ERROR_H
#define MOREAU_ERROR_H

#include <mpi.h>

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

/* Every non-trivial function returns a moreau_err and every call is checked
 * with MOREAU_CALL, which records file/line/function so that a failure prints a
 * traceback (as PETSc's PetscCall). Codes double as process exit codes. */
typedef int moreau_err;

/* Every function returning a moreau_err is declared with MOREAU_MUST_CHECK,
 * so that a call whose code is ignored is a compiler warning. */
#define MOREAU_MUST_CHECK __attribute__((warn_unused_result))

enum {
  MOREAU_SUCCESS = 0,
  MOREAU_ERR_RUNTIME = 1, /* numerical or system failure during a run */
  MOREAU_ERR_INPUT = 2,   /* bad options, bad input file: the user's to fix */
  MOREAU_ERR_MEMORY = 3,
  MOREAU_ERR_IO = 4,
  MOREAU_ERR_MPI = 5,
  MOREAU_ERR_INTERNAL = 6
};

MOREAU_MUST_CHECK moreau_err moreau_error_raise(moreau_err code, const char *file, int line, const char *func,
                                                const char *fmt, ...) __attribute__((format(printf, 5, 6)));
MOREAU_MUST_CHECK moreau_err moreau_error_trace(moreau_err code, const char *file, int line, const char *func);

#define MOREAU_CALL(...)                                                                                               \
  do {                                                                                                                 \
    moreau_err moreau_call_err_ = (__VA_ARGS__);                                                                       \
    if (moreau_call_err_) return moreau_error_trace(moreau_call_err_, __FILE__, __LINE__, __func__);                   \
  } while (0)

#define MOREAU_FAIL(code, ...) return moreau_error_raise((code), __FILE__, __LINE__, __func__, __VA_ARGS__)

/* User-input checks stay on in every build. */
#define MOREAU_CHECK(cond, code, ...)                                                                                  \
  do {                                                                                                                 \
    if (!(cond)) MOREAU_FAIL((code), __VA_ARGS__);                                                                     \
  } while (0)

#define MOREAU_MPI_CALL(...)                                                                                           \
  do {                                                                                                                 \
    int moreau_mpi_err_ = (__VA_ARGS__);                                                                               \
    if (moreau_mpi_err_ != MPI_SUCCESS) MOREAU_FAIL(MOREAU_ERR_MPI, "MPI call failed (%d)", moreau_mpi_err_);          \
  } while (0)

/* Internal invariants: checked in debug builds only. */
#ifndef NDEBUG
#define MOREAU_ASSERT(cond)                                                                                            \
  do {                                                                                                                 \
    if (!(cond)) MOREAU_FAIL(MOREAU_ERR_INTERNAL, "internal invariant violated: %s", #cond);                           \
  } while (0)
#else
#define MOREAU_ASSERT(cond) ((void)0)
#endif

/* Collective. Makes an error seen on some ranks an error on all of them: the
 * returned code is the largest over comm. Ranks that had no error of their own
 * record "error on another rank" so they exit quietly with the same code. */
MOREAU_MUST_CHECK moreau_err moreau_error_agree(MPI_Comm comm, moreau_err local);

/* Whether this rank raised the pending error itself (it then prints it). */
int moreau_error_is_local(void);
/* Prints the pending error: one line for input, runtime and I/O errors,
 * with the traceback for memory, MPI and internal ones (or always when
 * verbose is set). */
void moreau_error_print(int verbose);
/* The pending error's message ("" if none); for tests. */
const char *moreau_error_message(void);
/* Forgets the pending error; for tests that expect failures. */
void moreau_error_clear(void);

/* Allocation helpers that fail with MOREAU_ERR_MEMORY and a size in the message. */
MOREAU_MUST_CHECK moreau_err moreau_malloc(size_t bytes, void *ptr_out);
MOREAU_MUST_CHECK moreau_err moreau_calloc(size_t n, size_t size, void *ptr_out);
MOREAU_MUST_CHECK moreau_err moreau_realloc(size_t bytes, void *ptr_inout);
/* bytes on whole 64-byte cache lines (freed by moreau_free): an array of
 * records of 64 k bytes then puts each on k lines. From 4 MiB on, on 2 MiB
 * pages where the kernel gives them. */
MOREAU_MUST_CHECK moreau_err moreau_malloc_lines(size_t bytes, void *ptr_out);
void moreau_free(void *ptr_inout);
/* Gives glibc's malloc back its defaults: blocks from 128 KiB on in their
 * own mappings, and the freed top of the heap returned to the system. A
 * library the PETSc package links (SuperLU_dist) turns both off as it loads,
 * so every array freed stayed resident and a large array's untouched
 * capacity counted too. The program calls this once MPI and PETSc are up,
 * and moreau_malloc_keep_freed before they shut down: the libraries start
 * and end as they always have in this process (with the defaults from the
 * start, a run now and then ended in a segmentation fault after its work,
 * in CI; not reproduced here). */
void moreau_malloc_defaults(void);
/* What the library above sets: no block in a mapping of its own, nothing
 * returned to the system when freed. */
void moreau_malloc_keep_freed(void);

#pragma GCC visibility pop

#endif
