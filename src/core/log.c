#include "moreau/log.h"

#include <petscsys.h>

static PetscLogEvent events[MOREAU_EV_COUNT];
static int registered;

void moreau_log_register(void)
{
  static const char *names[MOREAU_EV_COUNT] = {
      "MoreauStep",     "MoreauDetect",    "MoreauNlgsSweep",   "MoreauNlgsConv", "MoreauExchange",
      "MoreauMigrate",  "MoreauPartition", "MoreauRepartition", "MoreauIORead",   "MoreauIOWrite",
      "MoreauAnalysis", "MoreauWarmStart", "MoreauFreeVel",     "MoreauNlgsRows", "MoreauDetectBuild"};
  PetscClassId classid;
  PetscBool init = PETSC_FALSE;
  if (registered || PetscInitialized(&init) || !init) return;
  if (PetscClassIdRegister("Moreau", &classid)) return;
  for (int i = 0; i < MOREAU_EV_COUNT; i++)
    if (PetscLogEventRegister(names[i], classid, &events[i])) return;
  registered = 1;
}

void moreau_log_begin(moreau_log_event ev)
{
  if (registered) (void)PetscLogEventBegin(events[ev], 0, 0, 0, 0);
}

void moreau_log_end(moreau_log_event ev)
{
  if (registered) (void)PetscLogEventEnd(events[ev], 0, 0, 0, 0);
}
