#ifndef MOREAU_FUZZ_COMMON_H
#define MOREAU_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "moreau/error.h"

/* Helpers shared by the libFuzzer targets of tests/fuzz (see README.md). */

/* Starts MPI as a singleton, and PETSc when with_petsc is set, both finalized
 * at exit; makes this process's scratch directory (removed at exit). Call
 * once, from LLVMFuzzerInitialize. */
void fuzz_init(int *argc, char ***argv, int with_petsc);

/* Writes size bytes of data to <scratch>/<name> (truncating it) and returns
 * that path (static storage, valid until the next call). */
const char *fuzz_write_file(const char *name, const uint8_t *data, size_t size);

/* The verdict on one call of moreau: success, or an error with a message of
 * one non-empty line, is what a reader may answer to any bytes; an internal
 * error (an invariant broken by input), an empty or multi-line message, and
 * of course a crash, sanitizer report or hang are findings. A finding is
 * printed and the process aborts, so that libFuzzer saves the input. Clears
 * the pending error. */
void fuzz_expect_clean(moreau_err err, const char *what);

#endif
