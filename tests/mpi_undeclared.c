/* tests/mpi_undeclared.c -- a TILE_AT whose offset the plan does not
 * deliver (not one of the stencil's vectors, or not axis-aligned within the
 * widths) is the run's TILE_ERR_ACCESS on every rank, in the default build
 * (no TILE_CHECK_ACCESS), naming the source line, the point, the offset and
 * the stencil; never a wrong number with status 0.
 *
 * Four bodies, each with one read the stencil leaves out, in every model
 * and every in-tile order (planes, Z inner, hyperplane), at the process
 * count tests/run.sh gives (1-4):
 *   diagonal  A(x-1, y-1, z) read, "-1,0,0 0,-1,0 0,0,-1" declared;
 *   ahead     A(x+1, y, z-1) read (a Jacobi step's read ahead), only
 *             "-1,0,-1 0,0,-1 0,-1,-1" declared;
 *   odd z     A(x, y-1, z) read only at odd z (a half-step of fdtd),
 *             "-1,0,0 0,0,-1" declared;
 *   widths    A(x-2, y, z) read with the shorthand dep[] = {1, 1};
 *   odd z 1-D A(x-2, z) read only at odd z, N = 1 (a plane is one row),
 *             "-1,0 0,-1" declared;
 *   one point A(x-1, y-1, z) read only at the point (5,7,7), the second
 *             last row and column of the space, "-1,0,0 0,-1,0 0,0,-1"
 *             declared: not a run the checked loop runs (unless a block
 *             starts there), so it is the fast loops' fence that sees it;
 *   one point 1-D  A(x-2, z) read only at (18,10), N = 1, tiles of 4
 *             planes (the third plane of a tile: the checked loop runs
 *             only the first two rows of a thread's first tile of a run
 *             when N = 1; under TILEHYBRID_BAND=on or auto, rows 10 and
 *             11 go in a band);
 *   by value  the one-point read, made only while the point's own element
 *             still holds its first value (0): the checked loop, given the
 *             run again after the fast loop hit the fence, does not reach
 *             it; the run still fails, saying so;
 *   far       A(x, z-60) read only at (18,110), N = 1, Z 120: an offset
 *             past the fence's margin (check_far; no declared run);
 *   skewed    A(x-7, y-7, z-7) on seidel's skewed plan, at each point of
 *             z = 1 in turn: within +-7, but farther than 16 planes
 *             (check_skewed_near; no declared run).
 * The point named is the first that reaches the read: at odd z in the odd
 * z cases (also on the second plane of a pair of the hyperplane order),
 * the point itself in the one-point cases.
 * And the same bodies with the read declared run without an error and
 * equal the sequential loop bit for bit (no false alarm).
 */
#include <mpi.h>

#include "../hybrid.h"
#include "check.h"

#include <string.h>

#define X0 7
#define X1 9
#define ZL 11
#define XL 23       /* the 1-D case's X: 4 blocks of at least 2 points (it reads x - 2) */
#define PX 5        /* the one-point case's point */
#define PY 7
#define PZ 7
#define QX 18       /* and its 1-D case's */
#define QZ 10

static int nprocs, myrank;

enum { DIAGONAL, AHEAD, ODD_Z, WIDTHS, ODD_Z1, POINT, POINT1, BY_VALUE, NCASES };
static const char *const case_name[NCASES] = { "diagonal", "ahead", "odd z", "widths",
                                               "odd z, N = 1", "one point",
                                               "one point, N = 1", "one point, by value" };
static const char *const short_stencil[NCASES] = { "-1,0,0 0,-1,0 0,0,-1",
                                                   "-1,0,-1 0,0,-1 0,-1,-1",
                                                   "-1,0,0 0,0,-1", NULL, "-1,0 0,-1",
                                                   "-1,0,0 0,-1,0 0,0,-1", "-1,0 0,-1",
                                                   "-1,0,0 0,-1,0 0,0,-1" };
static const char *const full_stencil[NCASES] = { "-1,0,0 0,-1,0 0,0,-1 -1,-1,0",
                                                  "-1,0,-1 0,0,-1 0,-1,-1 1,0,-1",
                                                  "-1,0,0 0,0,-1 0,-1,0", NULL,
                                                  "-1,0 0,-1 -2,0",
                                                  "-1,0,0 0,-1,0 0,0,-1 -1,-1,0",
                                                  "-1,0 0,-1 -2,0",
                                                  "-1,0,0 0,-1,0 0,0,-1 -1,-1,0" };
static const char *const offset_text[NCASES] = { "offset (-1,-1,0)", "offset (1,0,-1)",
                                                 "offset (0,-1,0)", "offset (-2,0,0)",
                                                 "offset (-2,0)", "offset (-1,-1,0)",
                                                 "offset (-2,0)", "offset (-1,-1,0)" };
/* The point a case's message must name (NULL: any, or odd z). */
static const char *const point_text[NCASES] = { NULL, NULL, NULL, NULL, NULL, "point (5,7,7)",
                                                "point (18,10)", "point (5,7,7)" };
static int line_lo[NCASES], line_hi[NCASES];

/* The boundary value at (x, y, z) (check_edge_n's). */
static double edge(int64_t x, int64_t y, int64_t z)
{
    int64_t c[3];
    c[0] = x;
    c[1] = y;
    c[2] = z;
    return check_edge_value(c, 2);
}

/* The same in 1-D: (x, z). */
static double edge1(int64_t x, int64_t z)
{
    int64_t c[2];
    c[0] = x;
    c[1] = z;
    return check_edge_value(c, 1);
}

/* Does msg name a source line of this file within [lo, hi]? */
static int names_line(const char *msg, int lo, int hi)
{
    const char *at = strstr(msg, "mpi_undeclared.c:");
    int line = 0;
    return at != NULL && sscanf(at + strlen("mpi_undeclared.c:"), "%d", &line) == 1 &&
           line >= lo && line <= hi;
}

/* Does msg name a point whose last coordinate (z) is odd? */
static int names_odd_z(const char *msg)
{
    const char *at = strstr(msg, "point (");
    const char *end = at != NULL ? strchr(at, ')') : NULL;
    const char *comma = end;
    while (comma != NULL && comma > at && *comma != ',')
        comma--;
    return comma != NULL && comma > at && atoi(comma + 1) % 2 == 1;
}

/* Does msg list the stencil text ("a,b,c d,e,f") as "(a,b,c) (d,e,f)"? */
static int names_stencil(const char *msg, const char *text)
{
    char want[160];
    size_t k = 0;
    want[k++] = '(';
    for (; *text != '\0' && k + 3 < sizeof want; text++) {
        if (*text == ' ') {
            want[k++] = ')';
            want[k++] = ' ';
            want[k++] = '(';
        } else {
            want[k++] = *text;
        }
    }
    want[k++] = ')';
    want[k] = '\0';
    return strstr(msg, want) != NULL;
}

/* The plain loop of the body of case c over the whole space (boundary
 * values from check_edge_n outside it). */
static double *sequential(int c)
{
    double *a = (double *)malloc(sizeof(double) * (c == ODD_Z1 || c == POINT1 ? XL : X0 * X1) *
                                 ZL);
    int64_t x, y, z;
    if (a == NULL)
        return NULL;
    if (c == ODD_Z1 || c == POINT1) {   /* 1-D: a[x * ZL + z] */
        for (z = 0; z < ZL; z++)
            for (x = 0; x < XL; x++) {
                double l = x > 0 ? a[(x - 1) * ZL + z] : edge1(x - 1, z);
                double d = z > 0 ? a[x * ZL + z - 1] : edge1(x, z - 1);
                double v = 0.5 * (l + d);
                if (c == ODD_Z1 ? z % 2 : x == QX && z == QZ)
                    v += 0.25 * (x > 1 ? a[(x - 2) * ZL + z] : edge1(x - 2, z));
                a[x * ZL + z] = v;
            }
        return a;
    }
#define SEQ(i, j, k)                                                               \
    ((i) < 0 || (j) < 0 || (k) < 0 || (i) >= X0 || (j) >= X1                       \
         ? edge((i), (j), (k))                                                     \
         : a[((i) * X1 + (j)) * ZL + (k)])
    for (z = 0; z < ZL; z++)
        for (x = 0; x < X0; x++)
            for (y = 0; y < X1; y++) {
                double v = 0.0;
                switch (c) {
                case DIAGONAL:
                    v = 0.25 * (SEQ(x - 1, y, z) + SEQ(x, y - 1, z) + SEQ(x, y, z - 1) +
                                SEQ(x - 1, y - 1, z));
                    break;
                case AHEAD:
                    v = 0.25 * (SEQ(x - 1, y, z - 1) + SEQ(x, y, z - 1) + SEQ(x, y - 1, z - 1) +
                                SEQ(x + 1, y, z - 1));
                    break;
                case ODD_Z:
                    v = 0.5 * (SEQ(x - 1, y, z) + SEQ(x, y, z - 1));
                    if (z % 2)
                        v += 0.25 * SEQ(x, y - 1, z);
                    break;
                case POINT:
                case BY_VALUE:
                    v = 0.25 * (SEQ(x - 1, y, z) + SEQ(x, y - 1, z) + SEQ(x, y, z - 1));
                    if (x == PX && y == PY && z == PZ)
                        v += 0.125 * SEQ(x - 1, y - 1, z);
                    break;
                default:
                    v = 0.3 * (SEQ(x - 1, y, z) + SEQ(x, y - 1, z) + SEQ(x, y, z - 1)) +
                        0.1 * SEQ(x - 2, y, z);
                    break;
                }
                a[(x * X1 + y) * ZL + z] = v;
            }
#undef SEQ
    return a;
}

/* Every point of the 1-D space this rank stores equals want's, bit for
 * bit, and there is one. */
static int same_2d(const tile_plan *p, const double *want)
{
    int64_t c[2], seen = 0;
    double v;
    for (c[0] = 0; c[0] < XL; c[0]++)
        for (c[1] = 0; c[1] < ZL; c[1]++) {
            if (tile_get(p, c, &v) != TILE_OK)
                continue;
            if (memcmp(&v, &want[c[0] * ZL + c[1]], sizeof v) != 0)
                return 0;
            seen++;
        }
    return seen > 0;
}

/* Case c's configuration: the stencil without (full 0) or with (1) the
 * read, model m, order o, tiles of 2 planes, every plane stored. */
static void case_config(tile_config *cfg, int c, int full, int m, int o)
{
    int one = c == ODD_Z1 || c == POINT1;
    check_config(cfg, one ? 1 : 2, one ? XL : X0, X1, ZL);
    if (c == WIDTHS) {
        cfg->dep[0] = full ? 2 : 1;
        cfg->dep[1] = 1;
        cfg->depz = 1;
    } else {
        tile_config_stencil(cfg, full ? full_stencil[c] : short_stencil[c], NULL);
    }
    cfg->model = m;
    cfg->threads = m == TILE_MODEL_MPI ? 1 : 2;
    cfg->order = o;
    cfg->tile_height = c == POINT1 ? 4 : 2;    /* tiles start at even z: the odd planes are
                                                 * never a tile's first */
    cfg->storage = TILE_STORE_FULL;
}

/* Case c's body run on p, the lines of its HYBRID_RUN kept in line_lo[c]
 * and line_hi[c]. */
static void run_body1(tile_plan *p, int c);

static void run_body(tile_plan *p, int c)
{
    /* the message names the line of the TILE_AT, or (compilers differ for
     * macro arguments over several lines) one of the HYBRID_RUN's */
    if (c == POINT1 || c == ODD_Z1) {
        run_body1(p, c);
        return;
    }
    switch (c) {
    case DIAGONAL:
        line_lo[c] = __LINE__;
        HYBRID_RUN(p, it, {
            TILE_AT(double, it, 0, 0, 0) =
                0.25 * (TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0) +
                        TILE_AT(double, it, 0, 0, -1) + TILE_AT(double, it, -1, -1, 0));
        });
        line_hi[c] = __LINE__;
        break;
    case AHEAD:
        line_lo[c] = __LINE__;
        HYBRID_RUN(p, it, {
            TILE_AT(double, it, 0, 0, 0) =
                0.25 * (TILE_AT(double, it, -1, 0, -1) + TILE_AT(double, it, 0, 0, -1) +
                        TILE_AT(double, it, 0, -1, -1) + TILE_AT(double, it, 1, 0, -1));
        });
        line_hi[c] = __LINE__;
        break;
    case ODD_Z:
        line_lo[c] = __LINE__;
        HYBRID_RUN(p, it, {
            double v = 0.5 * (TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, 0, -1));
            if (tile_coord(&it, 2) % 2)
                v += 0.25 * TILE_AT(double, it, 0, -1, 0);
            TILE_AT(double, it, 0, 0, 0) = v;
        });
        line_hi[c] = __LINE__;
        break;
    case WIDTHS:
        line_lo[c] = __LINE__;
        HYBRID_RUN(p, it, {
            TILE_AT(double, it, 0, 0, 0) =
                0.3 * (TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0) +
                       TILE_AT(double, it, 0, 0, -1)) +
                0.1 * TILE_AT(double, it, -2, 0, 0);
        });
        line_hi[c] = __LINE__;
        break;
    case POINT:
        line_lo[c] = __LINE__;
        HYBRID_RUN(p, it, {
            double v = 0.25 * (TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0) +
                               TILE_AT(double, it, 0, 0, -1));
            if (tile_coord(&it, 0) == PX && tile_coord(&it, 1) == PY && tile_coord(&it, 2) == PZ)
                v += 0.125 * TILE_AT(double, it, -1, -1, 0);
            TILE_AT(double, it, 0, 0, 0) = v;
        });
        line_hi[c] = __LINE__;
        break;
    case BY_VALUE:      /* the element at the point holds 0 until written */
        line_lo[c] = __LINE__;
        HYBRID_RUN(p, it, {
            double v = 0.25 * (TILE_AT(double, it, -1, 0, 0) + TILE_AT(double, it, 0, -1, 0) +
                               TILE_AT(double, it, 0, 0, -1));
            if (tile_coord(&it, 0) == PX && tile_coord(&it, 1) == PY &&
                tile_coord(&it, 2) == PZ && TILE_AT(double, it, 0, 0, 0) == 0.0)
                v += 0.125 * TILE_AT(double, it, -1, -1, 0);
            TILE_AT(double, it, 0, 0, 0) = v;
        });
        line_hi[c] = __LINE__;
        break;
    }
}

/* The same for the cases of N = 1. */
static void run_body1(tile_plan *p, int c)
{
    switch (c) {
    case POINT1:
        line_lo[c] = __LINE__;
        HYBRID_RUN(p, it, {
            double v = 0.5 * (TILE_AT(double, it, -1, 0) + TILE_AT(double, it, 0, -1));
            if (tile_coord(&it, 0) == QX && tile_coord(&it, 1) == QZ)
                v += 0.25 * TILE_AT(double, it, -2, 0);
            TILE_AT(double, it, 0, 0) = v;
        });
        line_hi[c] = __LINE__;
        break;
    default:
        line_lo[c] = __LINE__;
        HYBRID_RUN(p, it, {
            double v = 0.5 * (TILE_AT(double, it, -1, 0) + TILE_AT(double, it, 0, -1));
            if (tile_coord(&it, 1) % 2)
                v += 0.25 * TILE_AT(double, it, -2, 0);
            TILE_AT(double, it, 0, 0) = v;
        });
        line_hi[c] = __LINE__;
        break;
    }
}

/* One run of case c: the stencil without (full 0) or with (1) the read,
 * model m, order o.  Returns the plan's status; *same: every point equals
 * the sequential loop's (only asked for with full). */
static int run_case(int c, int full, int m, int o, const double *want, int *same,
                    char *msg, size_t size)
{
    tile_config cfg;
    tile_plan p;
    int rc;
    case_config(&cfg, c, full, m, o);
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &cfg);
    if (rc != TILE_OK) {
        snprintf(msg, size, "creation: %s", p.errmsg);
        tile_plan_destroy(&p);
        return rc;
    }
    run_body(&p, c);
    rc = tile_plan_status(&p);
    snprintf(msg, size, "%s", p.errmsg);
    *same = rc == TILE_OK &&
            (c == ODD_Z1 || c == POINT1 ? same_2d(&p, want)
                                        : check_same_3d(&p, want, X0, X1, ZL));
    tile_plan_destroy(&p);
    return rc;
}

/* A TILE_AT with the wrong type (float on a double plan) at a declared
 * offset, only at the one point: TILE_ERR_ACCESS naming the size and the
 * point, in every model and order (the fast loops send it to the fence:
 * its address is the site's own elements from the window). */
static void check_type_size(int provided)
{
    char first[600] = "", msg[400];
    int m, o, runs = 0;
    for (m = TILE_MODEL_MPI; m <= TILE_MODEL_MULTIPLE; m++)
        for (o = TILE_ORDER_PLANES; o <= TILE_ORDER_HYPERPLANE; o++) {
            tile_config cfg;
            tile_plan p;
            int rc;
            if (m == TILE_MODEL_MULTIPLE && provided < MPI_THREAD_MULTIPLE)
                continue;
            case_config(&cfg, POINT, 0, m, o);
            rc = tile_plan_create(&p, MPI_COMM_WORLD, &cfg);
            if (rc == TILE_OK) {
                HYBRID_RUN(&p, it, {
                    double v = 0.25 * (TILE_AT(double, it, -1, 0, 0) +
                                       TILE_AT(double, it, 0, -1, 0) +
                                       TILE_AT(double, it, 0, 0, -1));
                    if (tile_coord(&it, 0) == PX && tile_coord(&it, 1) == PY &&
                        tile_coord(&it, 2) == PZ)
                        v += TILE_AT(float, it, -1, 0, 0);
                    TILE_AT(double, it, 0, 0, 0) = v;
                });
                rc = tile_plan_status(&p);
            }
            snprintf(msg, sizeof msg, "%s", p.errmsg);
            tile_plan_destroy(&p);
            runs++;
            if ((rc != TILE_ERR_ACCESS || strstr(msg, "the type has 4 bytes") == NULL ||
                 strstr(msg, point_text[POINT]) == NULL) && first[0] == 0)
                snprintf(first, sizeof first, "%s model, order %d: status %d (%s)",
                         tile_model_name(m), o, rc, msg[0] ? msg : "no message");
        }
    check_mpi(MPI_COMM_WORLD, first[0] == 0, "a float TILE_AT on a double plan at one point is "
              "TILE_ERR_ACCESS naming the size and %s (%d runs)%s%s", point_text[POINT], runs,
              first[0] ? "; FIRST FAILURE: " : "", first);
}

/* A read far past the fence's margin (60 planes back, N = 1, at one point
 * of a tile's third plane: the fast loop's) is TILE_ERR_ACCESS naming the
 * offset and the point, in every model and order, with the window and
 * with every plane stored: the fast loops send any undeclared site to the
 * fence's mirror of the point itself, not of the offset (which lay past
 * the fence: a segmentation fault, or a read of whatever was mapped). */
static void check_far(int provided)
{
    char first[600] = "", msg[400];
    int m, o, st, runs = 0;
    for (st = TILE_STORE_WINDOW; st <= TILE_STORE_FULL; st++)
        for (m = TILE_MODEL_MPI; m <= TILE_MODEL_MULTIPLE; m++)
            for (o = TILE_ORDER_PLANES; o <= TILE_ORDER_HYPERPLANE; o++) {
                tile_config cfg;
                tile_plan p;
                int rc;
                if (m == TILE_MODEL_MULTIPLE && provided < MPI_THREAD_MULTIPLE)
                    continue;
                case_config(&cfg, POINT1, 0, m, o);
                cfg.zlen = 120;
                cfg.storage = st;
                rc = tile_plan_create(&p, MPI_COMM_WORLD, &cfg);
                if (rc == TILE_OK) {
                    HYBRID_RUN(&p, it, {
                        double v = 0.5 * (TILE_AT(double, it, -1, 0) + TILE_AT(double, it, 0, -1));
                        if (tile_coord(&it, 0) == QX && tile_coord(&it, 1) == 110)
                            v += TILE_AT(double, it, 0, -60);
                        TILE_AT(double, it, 0, 0) = v;
                    });
                    rc = tile_plan_status(&p);
                }
                snprintf(msg, sizeof msg, "%s", p.errmsg);
                tile_plan_destroy(&p);
                runs++;
                if ((rc != TILE_ERR_ACCESS || strstr(msg, "offset (0,-60)") == NULL ||
                     strstr(msg, "point (18,110)") == NULL) && first[0] == 0)
                    snprintf(first, sizeof first, "%s, %s model, order %d: status %d (%s)",
                             st ? "every plane" : "window", tile_model_name(m), o, rc,
                             msg[0] ? msg : "no message");
            }
    check_mpi(MPI_COMM_WORLD, first[0] == 0, "a read 60 planes back at one point (N = 1, past the "
              "fence's margin) is TILE_ERR_ACCESS naming offset (0,-60) and point (18,110) (%d "
              "runs: window and every plane)%s%s", runs, first[0] ? "; FIRST FAILURE: " : "",
              first);
}

/* Seidel-2d's skewed plan (demos/seidel.c's stencil and loop order), 10 x
 * 10 x 10, every plane stored: a read at (-7,-7,-7), within +-7 but, the
 * plan skewing, farther than 16 planes from the point, at one point of
 * z = 1, each point in turn, in every order: TILE_ERR_ACCESS naming it
 * (the fence's margin is what such an offset moves, tile__fence_near;
 * with 16 planes it crashed at 45 of the 100 points). */
static void check_skewed_near(void)
{
    char first[600] = "", msg[400];
    int o, runs = 0;
    int64_t px, py;
    for (o = TILE_ORDER_PLANES; o <= TILE_ORDER_HYPERPLANE; o++)
        for (px = 0; px < 10; px++)
            for (py = 0; py < 10; py++) {
                tile_config cfg;
                tile_plan p;
                int rc;
                check_config(&cfg, 2, 10, 10, 10);
                tile_config_stencil(&cfg, "-1,-1,0 -1,0,0 -1,1,0 0,-1,0 0,0,-1 0,1,-1 1,-1,-1 "
                                    "1,0,-1 1,1,-1", NULL);
                cfg.loop_order[0] = 2;
                cfg.loop_order[1] = 0;
                cfg.loop_order[2] = 1;
                cfg.storage = TILE_STORE_FULL;
                cfg.order = o;
                cfg.tile_height = 4;
                rc = tile_plan_create(&p, MPI_COMM_WORLD, &cfg);
                if (rc == TILE_OK) {
                    HYBRID_RUN(&p, it, {
                        double v = (TILE_AT(double, it, -1, -1, 0) + TILE_AT(double, it, -1, 0, 0) +
                                    TILE_AT(double, it, -1, 1, 0) + TILE_AT(double, it, 0, -1, 0) +
                                    TILE_AT(double, it, 0, 0, -1) + TILE_AT(double, it, 0, 1, -1) +
                                    TILE_AT(double, it, 1, -1, -1) + TILE_AT(double, it, 1, 0, -1) +
                                    TILE_AT(double, it, 1, 1, -1)) / 9.0;
                        if (tile_coord(&it, 0) == px && tile_coord(&it, 1) == py &&
                            tile_coord(&it, 2) == 1)
                            v += 0.125 * TILE_AT(double, it, -7, -7, -7);
                        TILE_AT(double, it, 0, 0, 0) = v;
                    });
                    rc = tile_plan_status(&p);
                }
                snprintf(msg, sizeof msg, "%s", p.errmsg);
                tile_plan_destroy(&p);
                runs++;
                if ((rc != TILE_ERR_ACCESS || strstr(msg, "offset (-7,-7,-7)") == NULL) &&
                    first[0] == 0)
                    snprintf(first, sizeof first, "order %d, point (%d,%d,1): status %d (%s)", o,
                             (int)px, (int)py, rc, msg[0] ? msg : "no message");
            }
    check_mpi(MPI_COMM_WORLD, first[0] == 0, "seidel's skewed plan, every plane stored: a read "
              "at (-7,-7,-7) at any one point of z = 1 is TILE_ERR_ACCESS naming it (%d runs: 3 "
              "orders x 100 points)%s%s", runs, first[0] ? "; FIRST FAILURE: " : "", first);
}

#ifdef SA_SIGINFO
#ifdef SA_ONSTACK   /* (XSI: where it is declared) */
#define OWN_FLAGS (SA_SIGINFO | SA_ONSTACK)
#else
#define OWN_FLAGS SA_SIGINFO
#endif
/* A handler of the program's own for SIGSEGV, installed before the runs
 * (never called: no fault outside the fence happens). */
static void own_handler(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)si, (void)uc;
}

/* Install it (before is 1), or check that it is still there with its
 * flags after the runs, which installed the fence's and put it back. */
static void own_handler_check(int before)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    if (before) {
        sa.sa_sigaction = own_handler;
        sa.sa_flags = OWN_FLAGS;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGSEGV, &sa, NULL);
        return;
    }
    sigaction(SIGSEGV, NULL, &sa);
    check_mpi(MPI_COMM_WORLD, sa.sa_sigaction == own_handler &&
                  (sa.sa_flags & OWN_FLAGS) == OWN_FLAGS,
              "the program's own SIGSEGV handler, installed before the runs, is there after "
              "them with its flags (SA_SIGINFO, and SA_ONSTACK where declared)");
}
#else
static void own_handler_check(int before)
{
    (void)before;
}
#endif

int main(int argc, char **argv)
{
    int provided = 0, c;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    own_handler_check(1);
    for (c = 0; c < NCASES; c++) {
        double *want = sequential(c);
        char first[600] = "", msg[400], example[400] = "";
        int m, o, runs = 0, refused = 0, clean = 0, full;
        for (full = 0; full <= 1; full++)
            for (m = TILE_MODEL_MPI; m <= TILE_MODEL_MULTIPLE; m++)
                for (o = TILE_ORDER_PLANES; o <= TILE_ORDER_HYPERPLANE; o++) {
                    int same = 0, rc, good;
                    if (m != TILE_MODEL_MPI && provided < MPI_THREAD_MULTIPLE &&
                        m == TILE_MODEL_MULTIPLE)
                        continue;
                    rc = run_case(c, full, m, o, want, &same, msg, sizeof msg);
                    if (!full && c == BY_VALUE && strstr(msg, "did not reach it") != NULL)
                        good = rc == TILE_ERR_ACCESS;   /* the fence's own message */
                    else if (!full)
                        good = rc == TILE_ERR_ACCESS && strstr(msg, offset_text[c]) != NULL &&
                               names_line(msg, line_lo[c], line_hi[c]) &&
                               strstr(msg, "is not declared") != NULL &&
                               (c != ODD_Z && c != ODD_Z1 ? 1 : names_odd_z(msg)) &&
                               (point_text[c] == NULL || strstr(msg, point_text[c]) != NULL) &&
                               (c == WIDTHS ? strstr(msg, "dep[] = (1,1), depz = 1") != NULL
                                            : names_stencil(msg, short_stencil[c]));
                    else
                        good = rc == TILE_OK && same;
                    runs++;
                    refused += !full && good;
                    if (!full && good && example[0] == 0)
                        snprintf(example, sizeof example, "%s", msg);
                    clean += full && good;
                    if (!good && first[0] == 0)
                        snprintf(first, sizeof first, "%s, %s model, order %d: status %d (%s)",
                                 full ? "declared" : "left out", tile_model_name(m), o, rc,
                                 msg[0] ? msg : "no message");
                }
        check_mpi(MPI_COMM_WORLD, want != NULL && first[0] == 0,
                  "%s: the read left out of the stencil is TILE_ERR_ACCESS on every rank, "
                  "naming %s, the line and the stencil (%d runs: 4 models x 3 orders); with "
                  "it declared, bitwise the sequential loop (%d runs)%s%s", case_name[c],
                  offset_text[c], refused, clean, first[0] ? "; FIRST FAILURE: " : "", first);
        if (myrank == 0 && (c == ODD_Z || c == BY_VALUE))
            check_note("e.g. %s", example);
        free(want);
    }
    check_type_size(provided);
    check_far(provided);
    check_skewed_near();
    own_handler_check(0);
    return check_mpi_exit();
}
