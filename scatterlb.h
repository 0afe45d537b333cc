/* scatterlb.h -- load-balanced MPI_Scatterv for heterogeneous processors
 *
 * Part of tilehybrid (MIT licence).  PLACEHOLDER: filled by a later change;
 * it declares nothing yet and compiles on its own. */
#ifndef TILEHYBRID_SCATTERLB_H
#define TILEHYBRID_SCATTERLB_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* TILEHYBRID_SCATTERLB_H */
