#ifndef TILEHYBRID_BALANCE_H
#define TILEHYBRID_BALANCE_H

#include "tilehybrid.h"
#if TILEHYBRID__MODE != defined(TILEHYBRID_SEPARATE) + defined(TILEHYBRID_IMPLEMENTATION)
#error "balance.h: TILEHYBRID_SEPARATE or TILEHYBRID_IMPLEMENTATION changed after the first tilehybrid header was included: define them before it"
#endif

#include <float.h>

#define BAL_VERSION TILEHYBRID_VERSION

#ifdef __cplusplus
extern "C" {
#endif
