#include <stddef.h>
#include <string.h>

#include "nlgs_private.h"

/* The law residual: each record's local solve made once more from the
 * current velocities, measured and undone before the next record's, so every
 * contact is judged against the same state (a Jacobi pass). The law's own
 * sweep does the solve, so the residual needs nothing from a law: what a
 * local solve writes is its record, the velocity table entries behind the
 * two side pointers every record starts with (a rough wall's among them),
 * and the contact's state. */

/* The two side pointers lead both record types, so one undo serves both. */
_Static_assert(offsetof(moreau_row2d, va) == 0 && offsetof(moreau_row3d, va) == 0 &&
                   offsetof(moreau_row2d, vb) == sizeof(double *) && offsetof(moreau_row3d, vb) == sizeof(double *),
               "records start with va, vb");

moreau_err nlgs_law_residual_sums(moreau_nlgs *s, moreau_contacts *c, moreau_lid nrows, double dp[2])
{
  const int width = c->state_width;
  /* An entry's velocity and spin: 3 doubles in 2D, 6 in 3D. */
  const size_t entry = (size_t)(s->dim == 2 ? MOREAU_SPIN2D + 1 : MOREAU_SPIN3D + 3) * sizeof(double);
  double saved_v[2][6], saved_state[8];
  moreau_lid one;
  moreau_law_sweep_args args = {.rows = s->rows, .order = &one, .n = 1};
  dp[0] = dp[1] = 0.0;
  MOREAU_CHECK(width <= 8, MOREAU_ERR_INTERNAL, "law residual: a contact state of %d doubles (at most 8)", width);
  for (moreau_lid i = 0; i < nrows; i++) {
    /* The records come in memory order, their entries from anywhere. */
    if (i + MOREAU_SWEEP_AHEAD < nrows) moreau_prefetch_sides(nlgs_row(s, i + MOREAU_SWEEP_AHEAD));
    void *row = nlgs_row(s, i);
    double *side[2]; /* va, vb */
    double *state = width ? &c->state[(size_t)width * s->row_contact[i]] : NULL;
    moreau_sweep_sums sums;
    memcpy(side, row, sizeof(side));
    memcpy(s->row_saved, row, s->row_size);
    for (int k = 0; k < 2; k++)
      memcpy(saved_v[k], side[k], entry);
    if (state) memcpy(saved_state, state, (size_t)width * sizeof(double));
    one = i;
    s->sweep(&args, &sums);
    dp[0] += sums.dp;
    dp[1] += sums.p;
    for (int k = 0; k < 2; k++)
      memcpy(side[k], saved_v[k], entry);
    if (state) memcpy(state, saved_state, (size_t)width * sizeof(double));
    memcpy(row, s->row_saved, s->row_size);
  }
  return MOREAU_SUCCESS;
}
