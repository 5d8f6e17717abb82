#include <signal.h>
#include <string.h>

#include "app_private.h"

/* A scheduler's warning (SIGUSR1 before the time limit, SIGTERM at it) or
 * a user's Ctrl-C must not kill a run in the middle of a step: the handler
 * only records the signal; the time loop checkpoints at the next step
 * boundary, once every rank agrees (one small reduction per step). */
static volatile sig_atomic_t caught;

static void on_signal(int sig) { caught = sig; }

void app_signals_install(void)
{
  static const int signals[] = {SIGTERM, SIGUSR1, SIGINT};
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
    sigaction(signals[i], &sa, NULL);
}

int app_signal_caught(void) { return caught; }
