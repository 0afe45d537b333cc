/* hybrid.h -- MPI+OpenMP models for tiled loop nests
 *
 * Part of tilehybrid (MIT licence).  PLACEHOLDER: filled by a later change;
 * it declares nothing yet and compiles on its own. */
#ifndef TILEHYBRID_HYBRID_H
#define TILEHYBRID_HYBRID_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* TILEHYBRID_HYBRID_H */
