/* ------------------------------------------------------------------------ */
/* In-tile orders: what an order is                                         */

/* An in-tile order (enum tile_order) is the path a thread's walk takes
 * through the points of its tile (struct tile__walk, "The point cursor").
 * Each is one file, 16-order-NAME.h, that provides:
 *   tile__NAME_traits()  what the rest of the plan must know of it
 *                        (struct tile__order_traits);
 *   tile__NAME_walk()    the walk's loop levels (w->lev, outermost first),
 *                        the step of a run (w->dx, w->step) and its flags
 *                        (w->contig: a run's points are consecutive
 *                        elements; the SIMD loop's w->fast and w->diag);
 *   tile__NAME_run()     the run at the walk's position: its first point
 *                        (w->x) and its points (w->count), once per run;
 * and, where its plane is not row-major, its layout (the hyperplane
 * order's tile__hyperplane_layout); where it steps from one run to the
 * next without the walk's odometer, that step (the hyperplane order's
 * next diagonal and planes in pairs, tile__hyperplane_next, which
 * tile__walk_next calls inline where the walk set w->dstop).  19-orders.h
 * dispatches to them.  A new order is that file (its traits carry its
 * names: tile_order_name and tile_order_parse give them to the demos,
 * tilectl and the bench, and a mismatch between ranks names its
 * constant), a case in each dispatcher of 19-orders.h, its value in enum
 * tile_order (01-types.h, before TILE_ORDER_AUTO, whose value the range
 * checks of tile_config and tile_plane_layout take as the last), and the
 * walk's fields it needs (struct tile__walk, 01-types.h: the hyperplane
 * order's are its own). */

/**
 * struct tile__order_traits - what the plan must know of an in-tile order
 * (private).
 * @min_n:  the least N it runs at (below it the plan runs the plane order).
 * @rows:   its plane is row-major, X_N contiguous (the rows of a face
 *          message run along X_N: tile__row_dim).
 * @mirror: the reads of z - 1 at a tile's first plane need the mirror below
 *          the ring even at d_Z = 1 (a run crosses the planes).
 * @llc:    the height's cache bound is the last-level cache, not a core's
 *          (tile__cache_bytes).
 * @pairs:  the N at which the walk hands out planes in pairs where the plan
 *          does not skew (tile_plane_pairs), or 0.
 * @name:   its word (tile_order_name: the demos' and tilectl's --order).
 * @constant: its enum constant's name (a mismatch between ranks names it).
 */
typedef struct tile__order_traits {
    int min_n;
    int rows;
    int mirror;
    int llc;
    int pairs;
    const char *name;
    const char *constant;
} tile__order_traits;
