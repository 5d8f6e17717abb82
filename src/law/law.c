#include <string.h>

#include "law_kernel.h"
#include "moreau/options.h"

/* Every law moreau knows, by name. */
static const moreau_law *const laws[] = {&moreau_law_signorini_coulomb, &moreau_law_cohesive,
                                         &moreau_law_static_dynamic,    &moreau_law_rolling,
                                         &moreau_law_md_spring_dashpot, NULL};

const moreau_law *moreau_law_find(const char *name)
{
  for (int i = 0; laws[i]; i++)
    if (!strcmp(laws[i]->name, name)) return laws[i];
  return NULL;
}

const moreau_law *moreau_law_default(void) { return &moreau_law_signorini_coulomb; }

const char *moreau_law_name(const moreau_law *law) { return law->name; }

int moreau_law_state_width(const moreau_law *law) { return law->state_width; }

moreau_err moreau_law_from_options(const moreau_law **law)
{
  static const char *const names[] = {"signorini_coulomb", "cohesive", "static_dynamic", "rolling", NULL};
  static const char *const methods[] = {"cd", "md", NULL};
  int i, method, law_given;
  MOREAU_CALL(moreau_option_enum("-method", methods, &method));
  MOREAU_CALL(moreau_option_is_set("-law", &law_given));
  if (method == 1) {
    MOREAU_CHECK(!law_given, MOREAU_ERR_INPUT,
                 "option -law: -method md has its own force law (spring-dashpot, regularized Coulomb)");
    *law = &moreau_law_md_spring_dashpot;
    return MOREAU_SUCCESS;
  }
  MOREAU_CALL(moreau_option_enum("-law", names, &i));
  *law = moreau_law_find(names[i]);
  MOREAU_CHECK(*law, MOREAU_ERR_INTERNAL, "law %s is not registered", names[i]);
  return MOREAU_SUCCESS;
}

int moreau_law_is_explicit(const moreau_law *law) { return law->explicit_forces; }
int moreau_law_needs_isotropic_inertia(const moreau_law *law) { return law->isotropic_inertia_3d; }
