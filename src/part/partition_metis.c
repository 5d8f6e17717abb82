#include <metis.h>

#include "part_private.h"

/* Any fixed seed: METIS is then deterministic for a given graph. */
#define PART_METIS_SEED 1848

/* Face neighbours of every cell (4 in 2D, 6 in 3D) in CSR form, each edge
 * weighted by the lighter of its two cells: cutting between two loaded
 * cells splits contacts, cutting next to an empty cell costs little. */
static moreau_err cell_graph(const part_grid *g, const int32_t *weight, idx_t **xadj, idx_t **adjncy, idx_t **adjwgt)
{
  int32_t stride[3] = {1, g->n[0], g->n[0] * g->n[1]};
  idx_t k = 0;
  size_t max_edges = (size_t)g->ncells * 2 * (size_t)g->dim;
  MOREAU_CALL(moreau_malloc(((size_t)g->ncells + 1) * sizeof(idx_t), xadj));
  MOREAU_CALL(moreau_malloc(max_edges * sizeof(idx_t), adjncy));
  MOREAU_CALL(moreau_malloc(max_edges * sizeof(idx_t), adjwgt));
  (*xadj)[0] = 0;
  for (int32_t c = 0; c < g->ncells; c++) {
    int32_t ijk[3] = {c % g->n[0], (c / g->n[0]) % g->n[1], c / (g->n[0] * g->n[1])};
    for (int d = 0; d < g->dim; d++)
      for (int s = -1; s <= 1; s += 2) {
        int32_t nb;
        if (ijk[d] + s < 0 || ijk[d] + s >= g->n[d]) continue;
        nb = c + s * stride[d];
        (*adjncy)[k] = nb;
        (*adjwgt)[k] = weight[c] < weight[nb] ? weight[c] : weight[nb];
        k++;
      }
    (*xadj)[c + 1] = k;
  }
  return MOREAU_SUCCESS;
}

moreau_err part_partition_metis(const part_grid *g, const int32_t *weight, int nparts, int *cell_rank)
{
  idx_t nvtxs = g->ncells, ncon = 1, np = nparts, objval = 0, options[METIS_NOPTIONS];
  idx_t *xadj, *adjncy, *adjwgt, *vwgt, *part;
  int status;
  /* With fewer than a few cells per part METIS cannot bisect sensibly (it
   * prints complaints and leaves parts empty anyway); blocks do as well. */
  if (g->ncells < 4 * nparts) {
    MOREAU_CALL(part_partition_block(g, weight, nparts, cell_rank));
    return MOREAU_SUCCESS;
  }
  MOREAU_CALL(cell_graph(g, weight, &xadj, &adjncy, &adjwgt));
  MOREAU_CALL(moreau_malloc((size_t)g->ncells * sizeof(idx_t), &vwgt));
  MOREAU_CALL(moreau_malloc((size_t)g->ncells * sizeof(idx_t), &part));
  for (int32_t c = 0; c < g->ncells; c++)
    vwgt[c] = weight[c];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = PART_METIS_SEED;
  /* Connected subdomains keep the interface (and the halo) short. */
  options[METIS_OPTION_CONTIG] = 1;
  status =
      METIS_PartGraphKway(&nvtxs, &ncon, xadj, adjncy, vwgt, NULL, adjwgt, &np, NULL, NULL, options, &objval, part);
  for (int32_t c = 0; c < g->ncells; c++)
    cell_rank[c] = (int)part[c];
  moreau_free(&xadj);
  moreau_free(&adjncy);
  moreau_free(&adjwgt);
  moreau_free(&vwgt);
  moreau_free(&part);
  MOREAU_CHECK(status == METIS_OK, MOREAU_ERR_RUNTIME, "METIS_PartGraphKway failed (status %d) on %d cells, %d parts",
               status, (int)g->ncells, nparts);
  return MOREAU_SUCCESS;
}
