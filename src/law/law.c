#include <string.h>

#include "law_kernel.h"

/* Every law moreau knows, by name. */
static const moreau_law *const laws[] = {&moreau_law_signorini_coulomb, NULL};

const moreau_law *moreau_law_find(const char *name)
{
  for (int i = 0; laws[i]; i++)
    if (!strcmp(laws[i]->name, name)) return laws[i];
  return NULL;
}

const moreau_law *moreau_law_default(void) { return &moreau_law_signorini_coulomb; }

const char *moreau_law_name(const moreau_law *law) { return law->name; }

int moreau_law_state_width(const moreau_law *law) { return law->state_width; }
