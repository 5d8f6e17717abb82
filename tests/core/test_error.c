/* The error machinery: a raise and the MOREAU_CALL chain above it record one
 * file/line/function frame each, innermost first; moreau_error_print writes
 * one line for input, runtime and I/O errors and the traceback otherwise; moreau_error_agree
 * spreads an error of one rank to all. Runs on any number of ranks. */
#include <check.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "moreau/error.h"

static int raise_line, middle_line, outer_line;

static moreau_err innermost(moreau_err code, int value)
{
  raise_line = __LINE__ + 1;
  MOREAU_CHECK(value >= 0, code, "value must be >= 0, got %d", value);
  return MOREAU_SUCCESS;
}

static moreau_err middle(moreau_err code, int value)
{
  middle_line = __LINE__ + 1;
  MOREAU_CALL(innermost(code, value));
  return MOREAU_SUCCESS;
}

static moreau_err outer(moreau_err code, int value)
{
  outer_line = __LINE__ + 1;
  MOREAU_CALL(middle(code, value));
  return MOREAU_SUCCESS;
}

static moreau_err recurse(int depth)
{
  if (depth == 0) MOREAU_FAIL(MOREAU_ERR_RUNTIME, "bottom reached");
  MOREAU_CALL(recurse(depth - 1));
  return MOREAU_SUCCESS;
}

/* What moreau_error_print(verbose) writes to stderr (the file descriptor, so
 * that nothing depends on how stderr is buffered). */
static void print_captured(int verbose, char *out, size_t len)
{
  char path[] = "/tmp/moreau_test_error_XXXXXX";
  int fd = mkstemp(path), saved;
  ssize_t got;
  ck_assert_int_ge(fd, 0);
  fflush(stderr);
  saved = dup(STDERR_FILENO);
  dup2(fd, STDERR_FILENO);
  moreau_error_print(verbose);
  fflush(stderr);
  dup2(saved, STDERR_FILENO);
  close(saved);
  lseek(fd, 0, SEEK_SET);
  got = read(fd, out, len - 1);
  out[got > 0 ? got : 0] = '\0';
  close(fd);
  unlink(path);
}

static int count_lines(const char *text)
{
  int n = 0;
  for (; *text; text++)
    n += *text == '\n';
  return n;
}

static void setup(void) { moreau_error_clear(); }

START_TEST(test_success_leaves_nothing)
{
  char out[256];
  ck_assert_int_eq(outer(MOREAU_ERR_RUNTIME, 1), MOREAU_SUCCESS);
  ck_assert(!moreau_error_is_local());
  ck_assert_str_eq(moreau_error_message(), "");
  print_captured(1, out, sizeof(out));
  ck_assert_str_eq(out, "");
}
END_TEST

START_TEST(test_traceback_frames)
{
  char out[4096], want[256];
  const char *at;
  ck_assert_int_eq(outer(MOREAU_ERR_INTERNAL, -3), MOREAU_ERR_INTERNAL);
  ck_assert(moreau_error_is_local());
  ck_assert_str_eq(moreau_error_message(), "value must be >= 0, got -3");
  print_captured(0, out, sizeof(out));
  ck_assert_int_eq(count_lines(out), 4);
  ck_assert_msg(!strncmp(out, "moreau: error: value must be >= 0, got -3\n", 42), "first line: %s", out);
  /* Innermost frame first, each with this file, its line and its function. */
  at = out;
  snprintf(want, sizeof(want), "  at %s:%d (innermost)\n", __FILE__, raise_line);
  ck_assert_msg((at = strstr(at, want)), "missing '%s' in:\n%s", want, out);
  snprintf(want, sizeof(want), "  at %s:%d (middle)\n", __FILE__, middle_line);
  ck_assert_msg((at = strstr(at, want)), "missing '%s' after the raise in:\n%s", want, out);
  snprintf(want, sizeof(want), "  at %s:%d (outer)\n", __FILE__, outer_line);
  ck_assert_msg((at = strstr(at, want)), "missing '%s' after middle in:\n%s", want, out);
}
END_TEST

START_TEST(test_input_error_prints_one_line)
{
  char out[4096];
  /* Input, runtime (a run that blew up) and I/O errors: the user's to act
   * on, in one line; memory, MPI and internal errors: with the frames. */
  const moreau_err one_line[] = {MOREAU_ERR_INPUT, MOREAU_ERR_RUNTIME, MOREAU_ERR_IO};
  const moreau_err traced[] = {MOREAU_ERR_MEMORY, MOREAU_ERR_MPI, MOREAU_ERR_INTERNAL};
  for (int k = 0; k < 3; k++) {
    ck_assert_int_eq(outer(one_line[k], -1), one_line[k]);
    print_captured(0, out, sizeof(out));
    ck_assert_str_eq(out, "moreau: error: value must be >= 0, got -1\n");
    /* Verbose (-error_trace) adds the frames. */
    print_captured(1, out, sizeof(out));
    ck_assert_int_eq(count_lines(out), 4);
    ck_assert_int_eq(outer(traced[k], -1), traced[k]);
    print_captured(0, out, sizeof(out));
    ck_assert_int_eq(count_lines(out), 4);
  }
}
END_TEST

START_TEST(test_new_raise_replaces_old_error)
{
  char out[4096];
  ck_assert_int_eq(outer(MOREAU_ERR_RUNTIME, -1), MOREAU_ERR_RUNTIME);
  ck_assert_int_eq(innermost(MOREAU_ERR_IO, -2), MOREAU_ERR_IO);
  ck_assert_str_eq(moreau_error_message(), "value must be >= 0, got -2");
  print_captured(1, out, sizeof(out));
  ck_assert_int_eq(count_lines(out), 2);
}
END_TEST

START_TEST(test_clear_forgets)
{
  char out[256];
  ck_assert_int_eq(outer(MOREAU_ERR_RUNTIME, -1), MOREAU_ERR_RUNTIME);
  moreau_error_clear();
  ck_assert(!moreau_error_is_local());
  ck_assert_str_eq(moreau_error_message(), "");
  print_captured(1, out, sizeof(out));
  ck_assert_str_eq(out, "");
}
END_TEST

/* A code returned without a raise (a failing library call passed up as is)
 * still yields a message and frames. */
static moreau_err bare_code(void) { return MOREAU_ERR_IO; }
static moreau_err calls_bare(void)
{
  MOREAU_CALL(bare_code());
  return MOREAU_SUCCESS;
}

START_TEST(test_trace_without_raise)
{
  char out[1024];
  ck_assert_int_eq(calls_bare(), MOREAU_ERR_IO);
  ck_assert(moreau_error_is_local());
  ck_assert_msg(strstr(moreau_error_message(), "4"), "%s", moreau_error_message());
  print_captured(1, out, sizeof(out));
  ck_assert_msg(strstr(out, "(calls_bare)"), "%s", out);
}
END_TEST

START_TEST(test_deep_chain_is_bounded)
{
  char out[1 << 14];
  ck_assert_int_eq(recurse(100), MOREAU_ERR_RUNTIME);
  print_captured(1, out, sizeof(out));
  ck_assert_msg(!strncmp(out, "moreau: error: bottom reached\n", 30), "%s", out);
  ck_assert_int_gt(count_lines(out), 2);
  ck_assert_int_le(count_lines(out), 102);
}
END_TEST

START_TEST(test_allocation_helpers)
{
  double *p = NULL;
  ck_assert_int_eq(moreau_malloc(8 * sizeof(double), &p), 0);
  ck_assert_ptr_nonnull(p);
  ck_assert_int_eq(moreau_realloc(16 * sizeof(double), &p), 0);
  p[15] = 1.0;
  moreau_free(&p);
  ck_assert_ptr_null(p);
  moreau_free(&p);
  ck_assert_int_eq(moreau_calloc(4, sizeof(double), &p), 0);
  ck_assert(p[0] == 0.0 && p[3] == 0.0);
  ck_assert_int_eq(moreau_realloc(0, &p), 0);
  ck_assert_ptr_null(p);
  /* Whole lines: aligned to 64 bytes, any size, and nothing for none. */
  for (size_t bytes = 1; bytes <= 1000; bytes += 37) {
    char *q = NULL;
    ck_assert_int_eq(moreau_malloc_lines(bytes, &q), 0);
    ck_assert_msg(q && (uintptr_t)q % 64 == 0, "%zu bytes at %p", bytes, (void *)q);
    memset(q, 1, bytes);
    moreau_free(&q);
  }
  {
    const size_t big = (size_t)5 << 20; /* asks for huge pages */
    char *q = NULL;
    ck_assert_int_eq(moreau_malloc_lines(big, &q), 0);
    ck_assert_msg(q && (uintptr_t)q % 64 == 0, "%zu bytes at %p", big, (void *)q);
    memset(q, 1, big);
    ck_assert(q[0] == 1 && q[big - 1] == 1);
    moreau_free(&q);
  }
  ck_assert_int_eq(moreau_malloc_lines(0, &p), 0);
  ck_assert_ptr_null(p);
}
END_TEST

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* This process's resident set in KiB (VmRSS), or -1. */
static long resident_kib(void)
{
  char line[256];
  long kib = -1;
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  while (fgets(line, sizeof(line), f))
    if (sscanf(line, "VmRSS: %ld kB", &kib) == 1) break;
  fclose(f);
  return kib;
}

/* A large block freed leaves the resident set: without
 * moreau_malloc_defaults, the settings a library of the PETSc package makes
 * as it loads keep every freed block resident, as moreau_malloc_keep_freed
 * does again. AddressSanitizer's allocator
 * keeps freed blocks in quarantine by design: nothing to check there. */
START_TEST(test_freed_memory_leaves)
{
#ifndef UNDER_ASAN
  const size_t big = (size_t)64 << 20;
  char *q = NULL;
  moreau_malloc_defaults();
  const long before = resident_kib();
  ck_assert_int_eq(moreau_malloc(big, &q), 0);
  memset(q, 1, big);
  const long during = resident_kib();
  moreau_free(&q);
  const long after = resident_kib();
  ck_assert_msg(before > 0 && during - before > 48 * 1024, "64 MiB written: resident %ld KiB, then %ld", before,
                during);
  ck_assert_msg(during - after > 48 * 1024, "64 MiB freed: resident %ld KiB, then %ld", during, after);
  /* What the libraries get for their shutdown: a freed block stays. */
  moreau_malloc_keep_freed();
  ck_assert_int_eq(moreau_malloc(big, &q), 0);
  memset(q, 1, big);
  const long kept_during = resident_kib();
  moreau_free(&q);
  const long kept_after = resident_kib();
  moreau_malloc_defaults();
  ck_assert_msg(kept_during - kept_after < 16 * 1024, "64 MiB freed after keep_freed: resident %ld KiB, then %ld",
                kept_during, kept_after);
#endif
}
END_TEST

/* Rank 0 fails, the others do not: all return the error; only rank 0 holds
 * its own message. */
START_TEST(test_agree)
{
  int rank, size;
  moreau_err local, global;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ck_assert_int_eq(moreau_error_agree(MPI_COMM_WORLD, MOREAU_SUCCESS), MOREAU_SUCCESS);
  ck_assert(!moreau_error_is_local());
  local = rank == 0 ? outer(MOREAU_ERR_INPUT, -5) : MOREAU_SUCCESS;
  global = moreau_error_agree(MPI_COMM_WORLD, local);
  ck_assert_int_eq(global, MOREAU_ERR_INPUT);
  if (rank == 0) {
    ck_assert(moreau_error_is_local());
    ck_assert_str_eq(moreau_error_message(), "value must be >= 0, got -5");
  } else {
    ck_assert(!moreau_error_is_local());
    ck_assert_msg(strstr(moreau_error_message(), "another rank"), "%s", moreau_error_message());
  }
  /* The largest code wins when several ranks fail. */
  local = outer(rank == size - 1 ? MOREAU_ERR_MPI : MOREAU_ERR_INPUT, -1);
  ck_assert_int_eq(moreau_error_agree(MPI_COMM_WORLD, local), MOREAU_ERR_MPI);
  ck_assert(moreau_error_is_local());
}
END_TEST

int main(int argc, char **argv)
{
  int failed;
  MPI_Init(&argc, &argv);
  Suite *s = suite_create("error");
  TCase *tc = tcase_create("error");
  tcase_add_checked_fixture(tc, setup, NULL);
  tcase_add_test(tc, test_success_leaves_nothing);
  tcase_add_test(tc, test_traceback_frames);
  tcase_add_test(tc, test_input_error_prints_one_line);
  tcase_add_test(tc, test_new_raise_replaces_old_error);
  tcase_add_test(tc, test_clear_forgets);
  tcase_add_test(tc, test_trace_without_raise);
  tcase_add_test(tc, test_deep_chain_is_bounded);
  tcase_add_test(tc, test_allocation_helpers);
  tcase_add_test(tc, test_freed_memory_leaves);
  tcase_add_test(tc, test_agree);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  MPI_Finalize();
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
