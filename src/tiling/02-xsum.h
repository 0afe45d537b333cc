/* ------------------------------------------------------------------------ */
/* The exact sum of doubles                                                 */

/* A header on its own too (C99, no MPI): #include "src/tiling/02-xsum.h".
 * The sum of ten 0.1 added one by one is 0.9999999999999999; their exact
 * sum rounded once is 1:
 *
 *     tile_xsum x;
 *     int i;
 *     tile_xsum_init(&x);
 *     for (i = 0; i < 10; i++)
 *         tile_xsum_add(&x, 0.1);
 *     printf("%.17g\n", tile_xsum_round(&x));       // prints: 1
 */
#ifndef TILEHYBRID_XSUM_H
#define TILEHYBRID_XSUM_H
#include <stdint.h>
#include <string.h>

/** Limbs of a tile_xsum: 32 bits each from 2^-1074 up, with room above
 *  2^1024 for 2^60 additions. */
#define TILE_XSUM_LIMBS 72

/**
 * struct tile_xsum - an exact sum of doubles (a fixed-point accumulator
 * covering the whole double range): the sum does not depend on the order
 * of the additions, and tile_xsum_round() rounds it once, to nearest (ties
 * to even).  Initialise with tile_xsum_init().  About 600 bytes.
 * @limb:    the value sum limb[i] 2^(32 i - 1074) (private).
 * @pending: additions since the carries were last propagated (private).
 * @nan, @pinf, @ninf: NaNs, +inf and -inf added (private).
 */
typedef struct tile_xsum {
    int64_t limb[TILE_XSUM_LIMBS];
    int64_t pending;
    int64_t nan, pinf, ninf;
} tile_xsum;

/** tile_xsum_init() - an empty sum (its value is +0.0). */
static inline void tile_xsum_init(tile_xsum *x)
{
    memset(x, 0, sizeof *x);
}

/* Propagate the carries: every limb but the top one in [0, 2^32), the top
 * one carrying the sign. */
static inline void tile__xsum_carry(tile_xsum *x)
{
    int i;
    for (i = 0; i < TILE_XSUM_LIMBS - 1; i++) {
        int64_t low = x->limb[i] & (int64_t)0xffffffff;     /* two's complement */
        x->limb[i + 1] += (x->limb[i] - low) / ((int64_t)1 << 32);
        x->limb[i] = low;
    }
    x->pending = 0;
}

/**
 * tile_xsum_add() - add v exactly.
 * @x: the sum; @v: any double (a NaN or an infinity is counted apart, and
 *     +0.0 and -0.0 add nothing).
 */
static inline void tile_xsum_add(tile_xsum *x, double v)
{
    uint64_t b, m, r;
    int64_t d0, d1, d2;
    int e, pos, j, sh;
    memcpy(&b, &v, sizeof b);
    e = (int)((b >> 52) & 0x7ff);
    m = b & (((uint64_t)1 << 52) - 1);
    if (e == 0x7ff) {
        x->nan += m != 0;
        x->pinf += m == 0 && !(b >> 63);
        x->ninf += m == 0 && (b >> 63);
        return;
    }
    if (e == 0 && m == 0)
        return;
    if (e != 0)
        m |= (uint64_t)1 << 52;
    pos = e != 0 ? e - 1 : 0;      /* v = m 2^(pos - 1074) */
    j = pos >> 5;
    sh = pos & 31;
    r = sh != 0 ? m >> (32 - sh) : m >> 32;
    d0 = (int64_t)((m << sh) & 0xffffffffu);
    d1 = (int64_t)(r & 0xffffffffu);
    d2 = (int64_t)(r >> 32);
    if (b >> 63) {
        d0 = -d0;
        d1 = -d1;
        d2 = -d2;
    }
    x->limb[j] += d0;
    x->limb[j + 1] += d1;
    x->limb[j + 2] += d2;
    if (++x->pending >= ((int64_t)1 << 20))
        tile__xsum_carry(x);
}

/* The sum as 3 + TILE_XSUM_LIMBS words (the non-finite counts, then the
 * limbs; carried, each limb below 2^32 but the top one's sign), so that
 * MPI_SUM over ranks in two's complement adds sums exactly; and back. */
static inline void tile__xsum_put(const tile_xsum *x, uint64_t *w)
{
    int i;
    w[0] = (uint64_t)x->nan;
    w[1] = (uint64_t)x->pinf;
    w[2] = (uint64_t)x->ninf;
    for (i = 0; i < TILE_XSUM_LIMBS; i++)
        w[3 + i] = (uint64_t)x->limb[i];
}

static inline void tile__xsum_get(tile_xsum *x, const uint64_t *w)
{
    int i;
    tile_xsum_init(x);
    x->nan = (int64_t)w[0];
    x->pinf = (int64_t)w[1];
    x->ninf = (int64_t)w[2];
    for (i = 0; i < TILE_XSUM_LIMBS; i++)
        x->limb[i] = (int64_t)w[3 + i];
}

/** tile_xsum_merge() - x += y, exactly. */
static inline void tile_xsum_merge(tile_xsum *x, const tile_xsum *y)
{
    int i;
    if (x->pending > 0)
        tile__xsum_carry(x);
    for (i = 0; i < TILE_XSUM_LIMBS; i++)   /* y's limbs stay below 2^53 */
        x->limb[i] += y->limb[i];
    x->pending = y->pending + 1;
    x->nan += y->nan;
    x->pinf += y->pinf;
    x->ninf += y->ninf;
    tile__xsum_carry(x);
}

/* Bit `pos` of the magnitude (limbs carried, all non-negative). */
static inline uint64_t tile__xsum_bit(const tile_xsum *x, int pos)
{
    return pos < 0 ? 0 : ((uint64_t)x->limb[pos >> 5] >> (pos & 31)) & 1u;
}

/* The double nearest to the magnitude in x (carried, non-negative, not
 * zero), msb its top bit: 53 bits, round to nearest, ties to even. */
static inline uint64_t tile__xsum_bits(const tile_xsum *x, int msb)
{
    uint64_t mant = 0, round, sticky = 0;
    int i, p = msb - 53;
    if (msb < 52) {             /* below 2^-1022: a subnormal, exact */
        for (i = msb; i >= 0; i--)
            mant = (mant << 1) | tile__xsum_bit(x, i);
        return mant;
    }
    for (i = msb; i >= msb - 52; i--)
        mant = (mant << 1) | tile__xsum_bit(x, i);
    round = tile__xsum_bit(x, p);
    if (p > 0) {
        sticky = ((uint64_t)x->limb[p >> 5] & (((uint64_t)1 << (p & 31)) - 1)) != 0;
        for (i = 0; i < (p >> 5) && !sticky; i++)
            sticky = x->limb[i] != 0;
    }
    if (round && (sticky || (mant & 1))) {
        mant++;
        if (mant >> 53) {
            mant >>= 1;
            msb++;
        }
    }
    if (msb - 51 >= 0x7ff)      /* overflow: infinity */
        return (uint64_t)0x7ff << 52;
    return ((uint64_t)(msb - 51) << 52) | (mant & (((uint64_t)1 << 52) - 1));
}

/**
 * tile_xsum_round() - the sum, rounded once to the nearest double (ties
 * to even).
 * @in: the sum (not changed).
 * An exact zero is +0.0; a sum beyond the double range is +-inf; with a
 * NaN, or both infinities, added: NaN (0x7ff8000000000000); else with an
 * infinity added: that infinity.  The same bits for any order of the
 * additions and merges.
 * Return: the rounded sum.
 */
static inline double tile_xsum_round(const tile_xsum *in)
{
    tile_xsum x = *in;
    uint64_t b;
    int neg, i, h, msb;
    double v;
    if (x.nan > 0 || (x.pinf > 0 && x.ninf > 0))
        b = (uint64_t)0x7ff8 << 48;
    else if (x.pinf > 0 || x.ninf > 0)
        b = ((uint64_t)0x7ff << 52) | ((uint64_t)(x.ninf > 0) << 63);
    else {
        tile__xsum_carry(&x);
        neg = x.limb[TILE_XSUM_LIMBS - 1] < 0;
        for (i = 0; neg && i < TILE_XSUM_LIMBS; i++)
            x.limb[i] = -x.limb[i];
        if (neg)
            tile__xsum_carry(&x);
        for (h = TILE_XSUM_LIMBS - 1; h >= 0 && x.limb[h] == 0; h--)
            ;
        if (h < 0)
            return 0.0;
        for (msb = 32 * h + 31; !tile__xsum_bit(&x, msb); msb--)
            ;
        b = tile__xsum_bits(&x, msb) | ((uint64_t)neg << 63);
    }
    memcpy(&v, &b, sizeof v);
    return v;
}

#endif /* TILEHYBRID_XSUM_H */
