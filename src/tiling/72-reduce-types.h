/* ------------------------------------------------------------------------ */
/* Declared reductions: the types                                           */

/** Reduction operations (tile_reduction_init). */
enum tile_reduce_op {
    TILE_REDUCE_SUM = 0,    /* sum of doubles, exact, rounded once */
    TILE_REDUCE_MIN,        /* the least double (IEEE 754 totalOrder: -0.0 < +0.0) */
    TILE_REDUCE_MAX,        /* the greatest double (totalOrder) */
    TILE_REDUCE_MAXLOC,     /* the greatest, and the first point that has it */
    TILE_REDUCE_MINLOC,     /* the least, and the first point that has it */
    TILE_REDUCE_SUM_U64,    /* sum of uint64_t modulo 2^64 (checksums of bit patterns) */
    TILE_REDUCE_COUNT_
};

/* A thread's part of a reduction (private; padded so that threads do not
 * share the cache lines they write): the SIMD loop's lanes of a SUM_U64
 * too (struct tile__lanes). */
typedef struct tile__red_slot {
    tile_xsum sum;
    uint64_t u64, key;
    int64_t at[TILE_MAX_DIMS + 1];
    int64_t count;
    char pad_[64];
    tile__lanes lanes;
    char pad2_[64];
} tile__red_slot;

/**
 * struct tile_reduction - a reduction declared on a plan
 * (tile_reduction_init) and fed in the body (tile_reduce,
 * tile_reduce_u64).  At the end of each run every rank has the result:
 * @op:    enum tile_reduce_op.
 * @value: SUM: the exact sum rounded once; MIN, MAX, MINLOC, MAXLOC: the
 *         value, bit for bit (0.0 when no point contributed).
 * @u64:   SUM_U64: the sum modulo 2^64.
 * @coord: MINLOC, MAXLOC: the user coordinates (X_1 .. X_N, Z) of the
 *         first point in row-major order (the global array's order) that
 *         has the value; -1 when no point contributed.
 * @count: the points that contributed, over every rank.
 * After a run that failed: count 0, value and u64 0, coord -1.
 * The rest is private.  The result does not depend on the model, the
 * process grid, the thread count or the tile height: a sum is exact until
 * its one rounding, and min and max follow a total order (totalOrder:
 * -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN) with ties broken on
 * the coordinates.
 */
typedef struct tile_reduction {
    int op;
    double value;
    uint64_t u64;
    int64_t coord[TILE_MAX_DIMS + 1];
    int64_t count;
    /* private */
    tile_plan *plan_;
    const tile_plan *u64_plan_;     /* plan_ if op is SUM_U64, else NULL (one test) */
    tile__red_slot *slot_;
} tile_reduction;
