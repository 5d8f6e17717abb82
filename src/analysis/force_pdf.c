#include <math.h>

#include "moreau/analysis.h"
#include "moreau/sum.h"

moreau_err moreau_force_pdf_create(int nb, double f_max, moreau_force_pdf **pdf)
{
  moreau_force_pdf *p;
  MOREAU_CHECK(nb >= 1, MOREAU_ERR_INPUT, "force PDF: %d bins, it needs at least 1", nb);
  MOREAU_CHECK(isfinite(f_max) && f_max > 0.0, MOREAU_ERR_INPUT, "force PDF: f_max %g must be finite and positive",
               f_max);
  MOREAU_CALL(moreau_calloc(1, sizeof(*p), &p));
  p->nb = nb;
  p->f_max = f_max;
  moreau_err err = moreau_calloc((size_t)nb, sizeof(int64_t), &p->count);
  if (!err) err = moreau_calloc((size_t)nb, sizeof(double), &p->pdf);
  if (err) {
    moreau_err cleanup = moreau_force_pdf_destroy(&p);
    MOREAU_CALL(err ? err : cleanup);
  }
  *pdf = p;
  return MOREAU_SUCCESS;
}

moreau_err moreau_force_pdf_destroy(moreau_force_pdf **pdf)
{
  if (!*pdf) return MOREAU_SUCCESS;
  moreau_free(&(*pdf)->count);
  moreau_free(&(*pdf)->pdf);
  moreau_free(pdf);
  return MOREAU_SUCCESS;
}

double moreau_force_pdf_bin_lo(const moreau_force_pdf *pdf, int i) { return (double)i * pdf->f_max / pdf->nb; }

/* A force-bearing body-body contact (walls have b < 0). */
static int force_bearing(const moreau_contacts *c, moreau_lid k) { return c->b[k] >= 0 && c->force[3 * k] > 0.0; }

/* The sum of f_n (order-independent) and the count are reduced first, then
 * the bin counts, which are integers and so exact. The mean is the same
 * double on every rank and for every partition, so each contact falls in
 * the same bin wherever it lives. */
moreau_err moreau_force_pdf_compute(MPI_Comm comm, const moreau_contacts *c, moreau_force_pdf *pdf)
{
  moreau_sum sum = {0.0, 0.0};
  int64_t n = 0;
  const int nb = pdf->nb;
  for (moreau_lid k = 0; k < c->n; k++) {
    if (!force_bearing(c, k)) continue;
    moreau_sum_add(&sum, c->force[3 * k]);
    n++;
  }
  MOREAU_CALL(moreau_sum_allreduce(comm, &sum, 1));
  MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, &n, 1, MPI_INT64_T, MPI_SUM, comm));
  pdf->n = n;
  pdf->mean = n > 0 ? moreau_sum_value(&sum) / (double)n : 0.0;
  pdf->overflow = 0;
  for (int i = 0; i < nb; i++)
    pdf->count[i] = 0;
  for (moreau_lid k = 0; k < c->n; k++) {
    if (!force_bearing(c, k)) continue;
    const double bin = floor(c->force[3 * k] / pdf->mean * nb / pdf->f_max);
    if (bin < nb)
      pdf->count[(int)bin]++;
    else
      pdf->overflow++;
  }
  MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, pdf->count, nb, MPI_INT64_T, MPI_SUM, comm));
  MOREAU_MPI_CALL(MPI_Allreduce(MPI_IN_PLACE, &pdf->overflow, 1, MPI_INT64_T, MPI_SUM, comm));
  const double width = pdf->f_max / nb;
  for (int i = 0; i < nb; i++)
    pdf->pdf[i] = n > 0 ? (double)pdf->count[i] / ((double)n * width) : 0.0;
  return MOREAU_SUCCESS;
}

/* Weighted least squares of y = ln P against x = the bin centre, weights the
 * counts N_i: ln P_i has the variance 1/N_i (Poisson counts, to first
 * order), so these are the inverse-variance weights, and the standard error
 * of the slope is 1 / sqrt(sum N_i (x_i - <x>)^2). For an exact exponential
 * the mean of P over a bin is exp(-beta x_centre) times a factor that is the
 * same for every bin, so centres give the slope without bias. */
void moreau_force_pdf_tail(const moreau_force_pdf *pdf, double *beta, double *beta_error, int *bins)
{
  double w = 0.0, wx = 0.0, wy = 0.0, sxx = 0.0, sxy = 0.0;
  const double width = pdf->f_max / pdf->nb;
  int used = 0;
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < pdf->nb; i++) {
      if (pdf->count[i] == 0 || moreau_force_pdf_bin_lo(pdf, i) < 1.0) continue;
      const double wi = (double)pdf->count[i], x = moreau_force_pdf_bin_lo(pdf, i) + 0.5 * width, y = log(pdf->pdf[i]);
      if (pass == 0) {
        w += wi;
        wx += wi * x;
        wy += wi * y;
        used++;
      } else {
        sxx += wi * (x - wx / w) * (x - wx / w);
        sxy += wi * (x - wx / w) * (y - wy / w);
      }
    }
  *bins = used;
  *beta = used >= 2 ? -sxy / sxx : NAN;
  *beta_error = used >= 2 ? 1.0 / sqrt(sxx) : NAN;
}
