/* topology.h -- communication-optimal process grids
 *
 * Part of tilehybrid (MIT licence).  PLACEHOLDER: filled by a later change;
 * it declares nothing yet and compiles on its own. */
#ifndef TILEHYBRID_TOPOLOGY_H
#define TOPO_VERSION "0.1.0"
#define TILEHYBRID_TOPOLOGY_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* TILEHYBRID_TOPOLOGY_H */
