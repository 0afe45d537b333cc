/* tiling.h -- tiled pipelined execution of loop nests with flow dependencies
 *
 * Part of tilehybrid (MIT licence).  PLACEHOLDER: filled by a later change;
 * it declares nothing yet and compiles on its own. */
#ifndef TILEHYBRID_TILING_H
#define TILEHYBRID_TILING_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* TILEHYBRID_TILING_H */
