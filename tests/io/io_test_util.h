#ifndef MOREAU_IO_TEST_UTIL_H
#define MOREAU_IO_TEST_UTIL_H

#include <check.h>
#include <mpi.h>

/* Helpers shared by the io test programs. They run under mpiexec with
 * CK_FORK=no, so a check that fails on one rank only would leave the others
 * waiting in a collective call: tests reduce their results over
 * MPI_COMM_WORLD first and assert on the reduced values, which every rank
 * sees alike. */

/* Collective: 1 on every rank if ok is nonzero on every rank. */
int io_test_all(int ok);
/* Collective: sum over ranks. */
long io_test_sum(long v);
/* Collective: rank 0 makes a fresh directory under $TMPDIR (or /tmp) and
 * every rank gets its name in dir (at least 256 bytes). */
void io_test_make_tmpdir(char *dir);
/* Collective: rank 0 deletes dir and everything in it. */
void io_test_remove_tree(const char *dir);
/* Collective: rank 0 writes text to path; returns when it is on disk for all. */
void io_test_write_file(const char *path, const char *text);
/* Collective: runs the suite on every rank (only rank 0 prints) and returns
 * the exit status, nonzero on every rank if a check failed on any. */
int io_test_run(Suite *s);

#endif
