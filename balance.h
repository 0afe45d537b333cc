/* balance.h -- master-thread load balancing for the funneled model
 *
 * Part of tilehybrid (MIT licence).  PLACEHOLDER: filled by a later change;
 * it declares nothing yet and compiles on its own. */
#ifndef TILEHYBRID_BALANCE_H
#define TILEHYBRID_BALANCE_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif /* TILEHYBRID_BALANCE_H */
