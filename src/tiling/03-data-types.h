/* ======================================================================== */
/* Data in and out                                                          */
/*                                                                          */
/* The toolkit owns the plan's arrays; this section moves data across that  */
/* border, always in the user's coordinates and bit for bit:                */
/*   - input: tile_input_box() says which box of an input array a rank      */
/*     needs (its block, a reach around it, one tile's planes or all of Z); */
/*     the body indexes a local array of that box with tile_input_index();  */
/*     or tile_input_set() has a hook fill each tile's input just before   */
/*     the tile is computed (memory flat in Z; tile_input() in the body);  */
/*   - output: tile_gather() copies the stored result (all of Z under       */
/*     TILE_STORE_FULL, the last planes of the window otherwise) into the   */
/*     global row-major array on a root or on every rank; tile_output_set() */
/*     hands each finished tile of the block to a function during the run  */
/*     (memory independent of Z);                                          */
/*   - tile_exchange() moves user arrays between ranks box to box: a       */
/*     plan's result to the next plan's input, with halos, in another      */
/*     direction (chained sweeps);                                         */
/*   - reductions declared on a plan (tile_reduction_init, tile_reduce):   */
/*     sum (exact), min, max, max and min with location, and a 64-bit      */
/*     integer sum, combined at the end of the run into the same bits for  */
/*     every model, grid and thread count.                                 */
/* Layout: a box's array is row-major over its dimensions X_1 .. X_N, Z    */
/* (Z last, contiguous), unless a function says otherwise.                 */
/* On a plan whose creation failed, every call here (and tile_get) does    */
/* nothing and returns the creation's code (TILE_ERR_NULL for a plan never */
/* created or already destroyed), on every rank, before any collective.    */
/* ======================================================================== */

/** TILE_ALL_TILES - tile_input_box()'s tile for every plane of Z. */
#define TILE_ALL_TILES (-1)
/** TILE_ROOT_ALL - tile_gather()'s root for "every rank receives". */
#define TILE_ROOT_ALL (-1)
/* The reductions whose operations the run's agreement names one by one
 * (the others are agreed on as one fingerprint, named together). */
enum { TILE__RED_NAMED = 8 };
/** TILE_MAX_REDUCTIONS - no longer a limit: a plan takes any number of
 *  reductions (kept so that code that names it compiles). */
#define TILE_MAX_REDUCTIONS 8

/** Layout of an array over a box (both row-major in the user's coordinates). */
enum tile_layout {
    TILE_LAYOUT_Z_LAST = 0,   /* [x_1]...[x_N][z]: the global array's layout */
    TILE_LAYOUT_Z_FIRST = 1   /* [z][x_1]...[x_N]: plane after plane */
};

/**
 * struct tile_box - a box of the space in the user's coordinates.
 * @ndims: the dimensions, N + 1 (X_1 .. X_N, then Z).
 * @lo:    the first point along each dimension.
 * @len:   the points along each dimension (0 anywhere: the box is empty).
 * An array over a box holds its points row-major, Z last:
 * tile_box_index().
 */
typedef struct tile_box {
    int ndims;
    int64_t lo[TILE_MAX_DIMS + 1];
    int64_t len[TILE_MAX_DIMS + 1];
} tile_box;

/**
 * struct tile_reach - how far around a point the body reads an input
 * array, per dimension (N + 1 entries, Z last), in the user's
 * coordinates: from -below[i] to +above[i] (both >= 0).  Zero it for
 * reads at the point itself; tile_reach_stencil() gives the stencil's.
 */
typedef struct tile_reach {
    int below[TILE_MAX_DIMS + 1];
    int above[TILE_MAX_DIMS + 1];
} tile_reach;

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

/* ------------------------------------------------------------------------ */
/* The output hook                                                          */

/**
 * struct tile_piece - what the output hook receives: one finished tile of
 * this rank's block.
 * @tile:      the tile, 0..plan->ntiles-1, in the order the loop runs.
 * @box:       its points in the user's coordinates: the block, and the
 *             tile's planes along Z.
 * @layout:    enum tile_layout of @data (tile_output_set's choice).
 * @elem_size: bytes per point.
 * @bytes:     tile_box_points(&box) * elem_size.
 * @data:      the values, bit for bit, row-major over @box: Z last
 *             (tile_box_index) or Z first (plane after plane, each plane
 *             row-major over X_1 .. X_N).  Valid during the call only.
 */
typedef struct tile_piece {
    int64_t tile;
    tile_box box;
    int layout;
    size_t elem_size;
    size_t bytes;
    const void *data;
} tile_piece;

/**
 * typedef tile_output_fn - the output hook: int fn(void *ctx, const
 * tile_plan *plan, const tile_piece *piece).  Return 0 to go on; any other
 * value is an error: the hook is not called again on this rank, the run
 * goes on to its end (the pipeline must finish on every rank) and then
 * fails on every rank with TILE_ERR_OUTPUT naming the value, the tile and
 * the rank.
 */
typedef int (*tile_output_fn)(void *ctx, const tile_plan *plan, const tile_piece *piece);

/**
 * typedef tile_input_fn - the input hook: int fn(void *ctx, const tile_plan
 * *plan, const tile_box *box, void *data).  Fill data, an array over box
 * (row-major in the user's coordinates, Z last: tile_box_index()) of the
 * element size given to tile_input_set(), with the input the body reads
 * for one tile: box is tile_input_box(plan, tile, &reach).  Return 0 to go
 * on; any other value is an error, handled as the output hook's
 * (TILE_ERR_OUTPUT at the end of the run, on every rank, naming the input
 * hook, the value, the tile and the rank).
 */
typedef int (*tile_input_fn)(void *ctx, const tile_plan *plan, const tile_box *box,
                             void *data);

/* The state of the data calls that live across runs (private). */
struct tile__io {
    tile_output_fn out_fn;
    void *out_ctx;
    int out_layout;
    int out_failed;
    int64_t out_next;               /* the next tile to hand out */
    unsigned char *out_dst;         /* tile_output_to: an array over out_box */
    tile_box out_box;
    int64_t *out_held;              /* tile_output_to_field: the field's user count */
    unsigned char *out_buf;         /* one tile of the block */
    tile_input_fn in_fn;            /* the input hook (tile_input_set) */
    void *in_ctx;
    size_t in_esz;
    tile_reach in_reach;
    int in_failed;
    int in_w;                       /* slots: the tiles in flight, S + 2 */
    int64_t in_next;                /* the next tile to fill */
    size_t in_slot_bytes;
    unsigned char *in_buf;          /* in_w slots of in_slot_bytes */
    tile_box *in_box;               /* per slot: the box of the tile it holds */
    int nred, cap;                  /* reductions declared, room for */
    tile_reduction **red;
    tile__red_slot **slots;         /* per reduction, per thread */
};

/* The plan's data state, created on first use; NULL if out of memory. */
static inline struct tile__io *tile__io_get(tile_plan *p)
{
    if (p->run.io == NULL) {
        p->run.io = (struct tile__io *)TILEHYBRID_MALLOC(sizeof *p->run.io);
        if (p->run.io != NULL)
            memset(p->run.io, 0, sizeof *p->run.io);
    }
    return p->run.io;
}
