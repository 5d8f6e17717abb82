/* What the memory of this machine allows a random-order sweep (issue 14):
 *
 *   bench_memory [MiB]   (default 1024)
 *
 * 1. stream: read and write every double of an array of MiB mebibytes once
 *    (x[i] += 1), bytes moved per second counting the read and the write;
 * 2. random lines: visit the array's 64-byte lines in a random order, read
 *    and write one double in each, prefetching 16 visits ahead as the sweep
 *    does; lines per second and bytes per second (a line read and written
 *    back: 128 bytes).
 * A sweep of records and bodies scattered over memory cannot run faster
 * than (2) divided by the lines it touches per contact update. Not a test. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define LINE_DOUBLES 8
#define AHEAD 16

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* xorshift64*: enough to shuffle the visiting order. */
static uint64_t next(uint64_t *s)
{
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 0x2545F4914F6CDD1DULL;
}

int main(int argc, char **argv)
{
  size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 1024, n = mib << 17, lines = n / LINE_DOUBLES;
  double *x = malloc(n * sizeof(double)), sum = 0.0, t;
  uint32_t *order = malloc(lines * sizeof(uint32_t));
  uint64_t seed = 88172645463325252ULL;
  if (!x || !order || mib == 0 || lines > UINT32_MAX) {
    fprintf(stderr, "bench_memory: cannot allocate %zu MiB (give 1 to 16384)\n", mib);
    return 2;
  }
  for (size_t i = 0; i < n; i++)
    x[i] = (double)i;
  for (size_t i = 0; i < lines; i++)
    order[i] = (uint32_t)i;
  for (size_t i = lines - 1; i > 0; i--) {
    size_t j = next(&seed) % (i + 1);
    uint32_t s = order[i];
    order[i] = order[j];
    order[j] = s;
  }
  t = now();
  for (size_t i = 0; i < n; i++)
    x[i] += 1.0;
  t = now() - t;
  printf("stream: %zu MiB read and written in %.3f s: %.2f GB/s\n", mib, t,
         2.0 * (double)(n * sizeof(double)) / t / 1e9);
  t = now();
  for (size_t k = 0; k < lines; k++) {
    if (k + AHEAD < lines) __builtin_prefetch(&x[(size_t)order[k + AHEAD] * LINE_DOUBLES], 1, 3);
    x[(size_t)order[k] * LINE_DOUBLES] += 1.0;
  }
  t = now() - t;
  printf("random lines: %zu lines in %.3f s: %.3e lines/s, %.2f GB/s (read and written back)\n", lines, t,
         (double)lines / t, 128.0 * (double)lines / t / 1e9);
  for (size_t i = 0; i < n; i += 4096)
    sum += x[i];
  printf("(checksum %g)\n", sum);
  free(x);
  free(order);
  return 0;
}
