#ifndef MOREAU_ANALYSIS_H
#define MOREAU_ANALYSIS_H

#include <mpi.h>

#include "moreau/bodies.h"
#include "moreau/contacts.h"
#include "moreau/domain.h"
#include "moreau/error.h"
#include "moreau/materials.h"
#include "moreau/part.h"
#include "moreau/walls.h"

/* The public API: exported from libmoreau, which hides everything else. */
#pragma GCC visibility push(default)

/* The macroscopic state of the bodies, computed in parallel (each rank sums
 * what it owns, one reduction).
 *
 * Stress tensor (compression positive), over the domain's box volume V:
 *   sigma_ij = (1/V) [ sum over body-body contacts of f_i l_j
 *                      + sum over bodies of m u_i u_j ],
 * f the contact force b receives from a (the step's mean force), l the
 * branch vector from a's centre to the centre of the image of b it touches,
 * u a body's velocity less the mean flow the boundaries impose
 * (moreau_domain_stream_velocity). Row-major 3x3; in 2D the z row and column
 * are zero. Contacts with walls are left out: this is the stress of a
 * periodic cell; for walled boxes the wall reactions give the stress. */
typedef struct {
  double sigma[9];
  double volume;         /* of the box; 0 (and sigma zero) without a box */
  double solid_fraction; /* volume (2D: area) of the bodies over the box's */
  double mean_diameter;  /* number mean of 2 r */
  double grain_density;  /* mass over volume of the bodies of finite mass (0: none) */
  double grain_mass;     /* their total mass */
} moreau_macro_state;

/* Collective over comm. */
MOREAU_MUST_CHECK moreau_err moreau_macro_state_compute(MPI_Comm comm, const moreau_domain *d, const moreau_bodies *b,
                                                        const moreau_contacts *c, moreau_macro_state *s);

/* The region the analysis measures: the axis-aligned box [lo, hi] (the
 * first dim values). A body belongs to it when its centre does, a contact
 * between bodies when its contact point does, a contact with a wall when
 * its body does (along periodic axes points are taken in the box first, so
 * a region equal to the periodic box holds everything). Along a periodic
 * axis the region must lie in the box: a point is never compared with the
 * part of a region beyond a periodic face. */
typedef struct {
  double lo[3], hi[3];
} moreau_region;

/* Not collective. Whether x (after wrapping into the periodic box) lies in
 * the closed region [lo, hi]. */
int moreau_region_contains(const moreau_domain *d, const moreau_region *r, const double x[3]);

/* Collective. The Love-Weber stress over the region (compression positive,
 * row-major 3x3, zero z row and column in 2D):
 *   sigma_ij = (1/V) [ sum over contacts in the region of f_i l_j
 *                      + sum over bodies in the region of m u_i u_j ],
 * f the step's mean force a exerts on b (or on the wall), l the branch
 * vector from a's centre to the centre of the image of b it touches (for a
 * wall: to the contact point, since the wall bears the force there), u a
 * body's velocity less the mean flow of the boundaries, V the region's
 * volume (2D: area). In a static packing held by walls, with no body force,
 * the sum is the boundary term sum x F of the wall reactions, so sigma over
 * the walls' box equals their tractions. Sums are order-independent
 * (moreau_sum): the same on every partition. */
MOREAU_MUST_CHECK moreau_err moreau_stress_region(MPI_Comm comm, const moreau_domain *d, const moreau_bodies *b,
                                                  const moreau_contacts *c, const moreau_region *r, double sigma[9]);

/* Not collective. Invariants of a stress tensor (compression positive):
 * 2D (the xy block): p = (s1 + s2) / 2, q = (s1 - s2) / 2 with s1 >= s2
 * the principal stresses; 3D: p = tr(sigma) / 3 and the von Mises form
 * q = sqrt(3 J2) = sqrt(3/2 s:s), s the deviator (s1 - s3 in a triaxial
 * test with s2 = s3). angle: the direction of the major principal stress
 * of the xy block, in degrees from +x, in (-90, 90] (in 3D, of the xy
 * block: the flow-gradient plane of the default shear cell). */
void moreau_stress_invariants(int dim, const double sigma[9], double *p, double *q, double *angle);

/* Profiles across an axis: the region cut into `bins` slabs of equal width
 * along `axis`. Per bin (MOREAU_PROFILE_FIELDS values, in this order):
 *   bodies          number of bodies whose centre is in the slab
 *   solid_fraction  volume of the bodies inside the slab over its volume,
 *                   exact along the axis (disk and sphere slices; a body
 *                   near a periodic face of that axis through its image),
 *                   whole across the other axes
 *   vx, vy, vz      mass-weighted mean velocity of its bodies
 *   wx, wy, wz      mean angular velocity of its bodies (2D: wz only)
 *   sxx ... szz     the stress of moreau_stress_region over the slab (9,
 *                   row-major): contacts and bodies placed as in a
 *                   region
 * A slab without bodies has zero velocity and spin. */
enum { MOREAU_PROFILE_FIELDS = 17 };
extern const char *const moreau_profile_field_names[MOREAU_PROFILE_FIELDS + 1]; /* NULL-terminated */

/* Collective. values: bins x MOREAU_PROFILE_FIELDS, the same on every rank
 * and partition (order-independent sums). */
MOREAU_MUST_CHECK moreau_err moreau_profile_compute(MPI_Comm comm, const moreau_domain *d, const moreau_bodies *b,
                                                    const moreau_contacts *c, const moreau_region *r, int axis,
                                                    int bins, double *values);

/* Solid in a region. The exact area of a disk of centre c and radius r
 * inside the rectangle [lo, hi], and the exact volume of a ball inside the
 * box [lo, hi] (closed forms, exact to rounding; src/analysis/region_volume.c
 * gives the derivation). Empty (0) for r <= 0 and for a rectangle or box
 * with hi <= lo along an axis. Not collective. */
double moreau_disk_box_area(const double c[2], double r, const double lo[2], const double hi[2]);
double moreau_sphere_box_volume(const double c[3], double r, const double lo[3], const double hi[3]);

/* Collective over comm. The solid fraction of the axis-aligned region
 * [lo, hi] (the first dim values; finite, lo < hi, else MOREAU_ERR_INPUT):
 * the volume (2D: area) of the bodies inside it, over its own. Each rank
 * adds the exact parts of its owned bodies and, along periodic axes, of
 * their periodic (and Lees-Edwards) images, so a region reaching across a
 * periodic face, or beyond the box, counts the solid that is there. A region
 * spanning exactly one period along a periodic axis counts every body whole
 * along it: the region equal to a fully periodic box gives the bodies'
 * volume over the box's, exactly. The sum is order-independent
 * (moreau_sum): the same double on every rank count. */
MOREAU_MUST_CHECK moreau_err moreau_solid_fraction_region(MPI_Comm comm, const moreau_domain *d, const moreau_bodies *b,
                                                          const double lo[3], const double hi[3], double *fraction);

/* Normal-force statistics over the force-bearing (f_n > 0) body-body
 * contacts; contacts with walls are left out (they measure the walls'
 * loading, not the network's). x = f_n / <f_n> is binned in nb bins of equal
 * width on [0, f_max), bin i = [i f_max/nb, (i+1) f_max/nb) (up to rounding
 * at the edges), and x >= f_max counts as overflow. MOREAU_FORCE_PDF_FMAX
 * is the usual f_max: an exponential distribution of x (P = exp(-x))
 * leaves exp(-6), 0.25%, of the contacts beyond it; a steeper tail leaves
 * fewer. The PDF is count_i / (n * width), the density of x over all n
 * contacts, so that
 * sum pdf_i * width + overflow / n = 1 (exactly 1 without overflow). */
#define MOREAU_FORCE_PDF_FMAX 6.0

typedef struct {
  int nb;
  double f_max;     /* in units of the mean force */
  int64_t n;        /* force-bearing body-body contacts over all ranks */
  int64_t overflow; /* of them with x >= f_max */
  double mean;      /* <f_n> over them (0 when n = 0) */
  int64_t *count;   /* nb */
  double *pdf;      /* nb */
} moreau_force_pdf;

/* Not collective. nb >= 1, f_max finite and positive (MOREAU_ERR_INPUT
 * otherwise); the arrays belong to the object. */
MOREAU_MUST_CHECK moreau_err moreau_force_pdf_create(int nb, double f_max, moreau_force_pdf **pdf);
MOREAU_MUST_CHECK moreau_err moreau_force_pdf_destroy(moreau_force_pdf **pdf);
/* Lower edge of bin i (i = nb: f_max), in units of the mean. */
double moreau_force_pdf_bin_lo(const moreau_force_pdf *pdf, int i);
/* Collective over comm: the mean and the histogram of the contacts each
 * rank owns (c holds the owned contacts of this rank), reduced over ranks.
 * The counts are exact and the mean is the same double for every partition
 * of the same contacts. */
MOREAU_MUST_CHECK moreau_err moreau_force_pdf_compute(MPI_Comm comm, const moreau_contacts *c, moreau_force_pdf *pdf);
/* Not collective (the histogram is the same on every rank). The exponent of
 * the tail P(x) ~ exp(-beta x) above the mean: a least-squares fit of ln P
 * against the bin centre over the non-empty bins whose lower edge is >= 1,
 * each weighted by its count (the inverse variance of ln P for Poisson
 * counts). *beta_error is the standard error of the fit, *bins the number of
 * bins used; beta and its error are NaN with fewer than 2 bins. */
void moreau_force_pdf_tail(const moreau_force_pdf *pdf, double *beta, double *beta_error, int *bins);

/* Texture of the contact network, computed in parallel. Only force-bearing
 * contacts count: f_n > 0 (a contact at exactly f_n = 0 is one the solver
 * left open, e.g. a gap that stays open, and carries nothing; tensile
 * cohesive forces f_n < 0 are not counted either).
 *
 * Rattlers: bodies of finite mass with fewer than dim force-bearing contacts
 * (2 in 2D, 3 in 3D), removed recursively: removing a rattler removes its
 * contacts from its neighbours' counts, which may make them rattlers, until
 * nothing changes (the result is the largest subnetwork in which every body
 * of finite mass keeps at least dim contacts, whatever the order of
 * removal). Walls and bodies of infinite mass are supports: never rattlers.
 *
 * Coordination over all bodies and over the non-rattlers (then counting only
 * contacts between non-rattlers and with walls): Z the mean number of
 * distinct partners (a body or a wall) a body has force-bearing contacts
 * with, Z_c the mean number of force-bearing contact points (Z_c = Z for
 * disks and spheres; Z_c > Z with several points per pair, Saint-Cyr et al.
 * 2013, seed 003 section V).
 *
 * Fabric and force anisotropies (harmonic approximation of Rothenburg &
 * Bathurst 1989, Radjai et al. 1998; in 3D Ouadfel & Rothenburg 2001, Azema,
 * Radjai & Saussine 2009, Mech. Mater. 41, 729) over the force-bearing
 * body-body contacts between non-rattlers, n their normal, t f_t + s f_s
 * their tangential force f_T:
 *   F     = <n (x) n>                      (the fabric tensor, trace 1)
 *   chi_n = <f_n n (x) n> / <f_n>          (trace 1)
 *   chi_t = <sym(f_T (x) n)> / <f_n>       (trace 0)
 * with eigenvalues in decreasing order. In 2D (seed 003 eqs 11-12)
 *   a_c = 2 (F1 - F2),  a_c + a_n = 2 (chi_n1 - chi_n2) / (chi_n1 + chi_n2),
 *   a_t = 2 (t1 - t2) / (chi_n1 + chi_n2), t1 >= t2 those of dev(chi_t);
 * these are the amplitudes of P(theta) = (1 + a_c cos 2(theta - theta_c)) /
 * (2 pi), <f_n>(theta) = <f_n> (1 + a_n cos 2(theta - theta_n)) and
 * <f_t>(theta) = -<f_n> a_t sin 2(theta - theta_t) (t is n turned by +90
 * degrees) to first order (exact for a uniform P), so that
 * (sigma_1 - sigma_2) / (sigma_1 + sigma_2) ~ (a_c + a_n + a_t) / 2 with
 * coaxial directions and branch lengths independent of direction. In 3D the
 * same with the factor 5/2 and the extreme eigenvalues,
 *   a_c = 5/2 (F1 - F3),  a_c + a_n = 5/2 (chi_n1 - chi_n3) / tr chi_n,
 *   a_t = 5/2 (t1 - t3) / tr chi_n,
 * the amplitudes of P(n) = (1 + a_c (3 cos^2 theta - 1)) / (4 pi), of
 * <f_n> (1 + a_n (3 cos^2 theta - 1)) and of a tangential force
 * -<f_n> a_t sin 2 theta along the meridian (theta from the axis; Azema et
 * al. 2009), for which (sigma_1 - sigma_3) / tr sigma ~
 * 2/5 (a_c + a_n + a_t). a_n is the difference of the two anisotropies (it
 * may be negative); a_c, a_t >= 0.
 * The principal directions are unit eigenvectors of the largest eigenvalue
 * (sign: the component of largest magnitude positive; 2D: in the xy plane).
 *
 * Contacts are counted once, by their owner. Normals are geometry: across a
 * periodic face a contact's normal points to the image of b that a touches,
 * so periodic boundaries change nothing here.
 *
 * Region: with r not NULL, only the bodies in it (moreau_region: by their
 * centre, in the periodic box) enter the body averages (Z, Z_c, the rattler
 * fraction) and only the contacts in it (by their contact point, a wall
 * contact by its body) enter the contact averages (sliding fraction,
 * tensors), as for the stress; rattlers are found on the whole network
 * first. Averages over an empty set are 0. */
typedef struct {
  int64_t n_bodies;    /* in the region */
  int64_t n_rattlers;  /* among them */
  int64_t n_contacts;  /* force-bearing contacts (body-body and body-wall) */
  int64_t n_sliding;   /* among them, |f_T| >= mu f_n (1 - 1e-9) */
  int64_t n_fabric;    /* force-bearing body-body contacts between non-rattlers */
  int rattler_rounds;  /* removal rounds that removed something */
  double z, z_c;       /* over all bodies */
  double z_nr, z_c_nr; /* over non-rattlers */
  double rattler_fraction;
  double sliding_fraction;              /* n_sliding / n_contacts */
  double mean_fn;                       /* <f_n> over the n_fabric contacts */
  double fabric[9], chi_n[9], chi_t[9]; /* row-major 3x3; 2D: the xy block */
  double a_c, a_n, a_t;
  double dir_c[3], dir_n[3], dir_t[3]; /* principal directions of F, chi_n, dev(chi_t) */
} moreau_texture;

/* Collective over comm, after a step: uses the interface plan the step's
 * solve built from its contacts (moreau_part_interface_build; c must be that
 * list, as moreau_sim_contacts gives it after moreau_sim_step). part's
 * communicator must be comm. w holds the walls (may be NULL without wall
 * contacts), m the materials (for the friction coefficient), r the region
 * (NULL: everything) and d its domain (may be NULL without a region). */
MOREAU_MUST_CHECK moreau_err moreau_texture_compute(MPI_Comm comm, moreau_part *part, const moreau_bodies *b,
                                                    const moreau_contacts *c, const moreau_walls *w,
                                                    const moreau_materials *m, const moreau_domain *d,
                                                    const moreau_region *r, moreau_texture *t);

#pragma GCC visibility pop

#endif
