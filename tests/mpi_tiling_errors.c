/* tests/mpi_tiling_errors.c -- every way to get a plan or a run wrong gives
 * a clear error on every rank: no crash, no hang, nothing undefined.
 * Run at 1-4 processes by tests/run.sh. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200112L   /* setenv */
#endif
#include <mpi.h>

#define TILE_CHECK_ACCESS   /* every TILE_AT below is checked */
#include "../hybrid.h"
#include "check.h"

#include <math.h>

static int nprocs, myrank;

static void base(tile_config *c)
{
    tile_config_init(c, 2);
    c->extent[0] = 12;
    c->extent[1] = 12;
    c->zlen = 10;
    c->tile_height = 3;
}

/* Create a plan from c; every rank must get the code `want` and the same
 * message, which mentions `word`; returns 1 if so. */
static int expect(const tile_config *c, int want, const char *word)
{
    tile_plan p;
    int rc = tile_plan_create(&p, MPI_COMM_WORLD, c), ok;
    ok = rc == want && tile_plan_status(&p) == want;
    if (rc == want && word != NULL && strstr(p.errmsg, word) == NULL)
        ok = 0;
    if (!ok)
        check_note("rank %d: got %d (%s), wanted %d", myrank, rc, p.errmsg, want);
    tile_plan_destroy(&p);
    return ok;
}

/* Plan creation with the configuration c after `stmt`: every rank must
 * get the code `want` with a message that mentions `word`. */
#define BAD(c, stmt, want, word, name)                                            \
    do {                                                                          \
        base(&(c));                                                               \
        stmt;                                                                     \
        check_mpi(MPI_COMM_WORLD, expect(&(c), want, word), "rejects %s", name);  \
    } while (0)

/* Create the plan p from c and, if that worked, run the pure MPI model's
 * step over the statement body given; rc gets the creation's code. */
#define RUN_MPI(p, c, rc, ...)                                                   \
    do {                                                                         \
        (rc) = tile_plan_create(&(p), MPI_COMM_WORLD, &(c));                     \
        if ((rc) == TILE_OK)                                                     \
            TILE_FOREACH_GROUP(&(p), run_g_)                                     \
                TILE_MPI_STEP(run_g_, it, __VA_ARGS__);                          \
    } while (0)

/* RUN_MPI with a plan p of its own: every rank must create it and then find
 * `cond` (about p) true; the plan is destroyed after. */
#define RUN_EXPECT(p, c, cond, name, ...)                                        \
    do {                                                                         \
        tile_plan p;                                                             \
        int run_rc_;                                                             \
        RUN_MPI(p, c, run_rc_, __VA_ARGS__);                                     \
        check_mpi(MPI_COMM_WORLD, run_rc_ == TILE_OK && (cond), "%s", name);     \
        tile_plan_destroy(&(p));                                                 \
    } while (0)

/* Every argument out of range is refused, naming it. */
static void test_bad_arguments(void)
{
    tile_config c;
    BAD(c, c.n = 0, TILE_ERR_NDIMS, "N = 0", "N = 0");
    BAD(c, c.n = TILE_MAX_DIMS + 1, TILE_ERR_NDIMS, "N = 9", "N above TILE_MAX_DIMS");
    BAD(c, c.extent[1] = 0, TILE_ERR_EXTENT, "X_2", "extent 0");
    BAD(c, c.extent[0] = -5, TILE_ERR_EXTENT, "X_1", "negative extent");
    BAD(c, c.zlen = 0, TILE_ERR_EXTENT, "Z = 0", "Z = 0");
    BAD(c, c.dep[1] = -1, TILE_ERR_DEP, "d_2", "negative dependence");
    BAD(c, c.depz = TILE_MAX_DEPZ + 1, TILE_ERR_DEP, "d_Z", "d_Z too large");
    /* 0 asks the plan to choose (tests/mpi_tiling_height.c): -1 is the bad one */
    BAD(c, c.tile_height = -1, TILE_ERR_TILE_HEIGHT, "tile height", "tile height -1");
    BAD(c, c.elem_size = 0, TILE_ERR_ELEM, "element size", "element size 0");
    BAD(c, c.model = 9, TILE_ERR_MODEL, "model", "unknown model");
    BAD(c, (c.model = TILE_MODEL_FUNNELED, c.threads = 0), TILE_ERR_THREADS, "threads", "0 threads");
    BAD(c, c.threads = 2, TILE_ERR_THREADS, "pure MPI", "threads in the pure MPI model");
    BAD(c, (c.model = TILE_MODEL_FUNNELED, c.balance.bal = 1.5), TILE_ERR_BAL, "bal", "bal above 1");
    BAD(c, (c.model = TILE_MODEL_FUNNELED, c.balance.bal = NAN), TILE_ERR_BAL, "bal", "bal NaN");
    BAD(c, c.grid[0] = -1, TILE_ERR_GRID, "grid", "negative grid entry");
    BAD(c, (c.grid[0] = nprocs + 1, c.grid[1] = 1), TILE_ERR_GRID, "communicator",
        "grid not matching the process count");
    BAD(c, (c.model = TILE_MODEL_FUNNELED, c.threads = 2, c.tgrid[0] = 3, c.tgrid[1] = 1),
        TILE_ERR_THREADS, "thread grid", "thread grid not matching the thread count");
    BAD(c, (c.model = TILE_MODEL_FUNNELED, c.threads = 13), TILE_ERR_TOO_MANY, "thread",
        "more threads than points");
}

/* Several ranks: a grid or a dependence too large for the process count,
 * arguments that differ between ranks, a bad argument on one rank. */
static void test_across_ranks(void)
{
    tile_config c;
    if (nprocs == 1)
        return;
    BAD(c, (c.extent[0] = 1, c.extent[1] = 1), TILE_ERR_TOO_MANY, "processes",
        "more processes than points");
    BAD(c, (c.grid[0] = nprocs, c.grid[1] = 1, c.extent[0] = 2 * nprocs + 1, c.dep[0] = 3),
        TILE_ERR_DEP_TOO_WIDE, "d_1", "dependence wider than a block");
    /* no grid: the rule a block would break, the dimensions and the numbers
     * (topology.h's topo_nest_explain(); issue 34: it named a dimension of
     * one arbitrary grid, or said that no grid has blocks as wide as the
     * dependences where the balanced grid alone has too many processes) */
    {
        char want[160];
        snprintf(want, sizeof want, "the limits allow at most %d process%s, not %d: P_1 <= "
                 "floor(%d/2) = %d, P_2 <= X_2 = 1 (", nprocs - 1, nprocs == 2 ? "" : "es",
                 nprocs, 2 * nprocs - 1, nprocs - 1);
        base(&c);
        c.extent[0] = 2 * nprocs - 1;
        c.extent[1] = 1;
        c.dep[0] = 2;
        check_mpi(MPI_COMM_WORLD, expect(&c, TILE_ERR_DEP_TOO_WIDE, want),
                  "no grid whose blocks hold d_1 = 2 of %d points: both limits named",
                  2 * nprocs - 1);
    }
    BAD(c, (c.extent[0] = 1, c.extent[1] = 100, c.grid_policy = TILE_GRID_LATENCY),
        TILE_ERR_TOO_MANY, "the balanced grid ", "the balanced grid with more processes than "
        "points along dimension 1 (1 x P fits)");
    BAD(c, (c.extent[0] = 1, c.extent[1] = 100, c.grid_policy = TILE_GRID_LATENCY),
        TILE_ERR_TOO_MANY, ", but a block along dimension 1 must hold at least one point, so "
        "P_1 <= X_1 = 1", "the same: the rule, the dimension and the numbers");
    base(&c);
    c.extent[0] = 12 + myrank;
    check_mpi(MPI_COMM_WORLD, expect(&c, TILE_ERR_MISMATCH, "differs"),
              "arguments that differ between ranks are rejected on every rank");
    base(&c);
    c.extent[0] = 12 + myrank;
    {
        char want[96];
        snprintf(want, sizeof want, "'extent[0]' differs between ranks (12 vs %d)",
                 11 + nprocs);
        check_mpi(MPI_COMM_WORLD, expect(&c, TILE_ERR_MISMATCH, want),
                  "the mismatch message names the argument and two values as given");
    }
    base(&c);
    if (myrank == nprocs - 1)
        c.tile_height = -1;
    {
        char want[64];
        snprintf(want, sizeof want, "rank %d: tile height = -1", nprocs - 1);
        check_mpi(MPI_COMM_WORLD, expect(&c, TILE_ERR_TILE_HEIGHT, want),
                  "a bad argument on one rank fails every rank with its code and its "
                  "message, naming the rank");
    }
}

/* NULL arguments; one message per code. */
static void test_null_and_messages(void)
{
    tile_config c;
    int i, distinct = 1;
    base(&c);
    check_mpi(MPI_COMM_WORLD, tile_plan_create(NULL, MPI_COMM_WORLD, &c) == TILE_ERR_NULL,
              "NULL plan rejected");
    {
        tile_plan p;
        check_mpi(MPI_COMM_WORLD, tile_plan_create(&p, MPI_COMM_WORLD, NULL) == TILE_ERR_NULL,
                  "NULL cfg rejected");
        tile_plan_destroy(&p);
    }
    for (i = 0; i < TILE_ERR_COUNT_; i++) {
        int j;
        for (j = 0; j < i; j++)
            if (strcmp(tile_strerror(i), tile_strerror(j)) == 0)
                distinct = 0;
    }
    check_mpi(MPI_COMM_WORLD, distinct && strcmp(tile_strerror(-1), "unknown tiling error code") == 0,
          "tile_strerror: a distinct message per code");
    {
        static const char *const words[] = { "planes", "z", "hyper", "auto" };
        int o, named = TILE_ORDER_AUTO == 3;
        for (o = 0; o <= TILE_ORDER_AUTO && named; o++)
            named = tile_order_name(o) != NULL && strcmp(tile_order_name(o), words[o]) == 0 &&
                    tile_order_parse(words[o]) == o;
        check_mpi(MPI_COMM_WORLD, named && tile_order_name(-1) == NULL &&
                  tile_order_name(TILE_ORDER_AUTO + 1) == NULL && tile_order_parse("") == -1 &&
                  tile_order_parse("Planes") == -1 && tile_order_parse(NULL) == -1,
                  "tile_order_name/tile_order_parse: planes, z, hyper and auto, each way; "
                  "NULL and -1 for anything else");
    }
}

/* Run-time misuse: a break in the body. */
static void test_break(void)
{
    tile_config c;
    base(&c);
    c.storage = TILE_STORE_FULL;
    RUN_EXPECT(p, c, tile_plan_status(&p) == TILE_ERR_BODY,
               "a break in the body is reported as TILE_ERR_BODY", {
                   TILE_AT(double, it, 0, 0, 0) = 1.0;
                   if (tile_coord(&it, 1) == p.lo[1])
                       break;
               });
}

/* A continue is fine and skips the rest of the body. */
static void test_continue(void)
{
    tile_config c;
    tile_plan p;
    int rc, ok = 1;
    int64_t x, y, z;
    base(&c);
    c.storage = TILE_STORE_FULL;
    RUN_MPI(p, c, rc, {
        TILE_AT(double, it, 0, 0, 0) = 1.0;
        if (tile_coord(&it, 1) % 2 == 0)
            continue;
        TILE_AT(double, it, 0, 0, 0) = 2.0;
    });
    if (rc == TILE_OK) {
        for (x = 0; x < 12; x++)
            for (y = 0; y < 12; y++)
                for (z = 0; z < 10; z++) {
                    int64_t co[3];
                    double v;
                    co[0] = x;
                    co[1] = y;
                    co[2] = z;
                    if (tile_get(&p, co, &v) == TILE_OK && v != (y % 2 == 0 ? 1.0 : 2.0))
                        ok = 0;
                }
    }
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && tile_plan_status(&p) == TILE_OK && ok,
              "continue in the body skips to the next point");
    tile_plan_destroy(&p);
}

/* A step macro of another model. */
static void test_wrong_step_macro(void)
{
    tile_config c;
    base(&c);
    c.model = TILE_MODEL_FINE;
    RUN_EXPECT(p, c, tile_plan_status(&p) == TILE_ERR_MODEL,
               "a step macro of another model is refused (TILE_ERR_MODEL), no hang",
               { TILE_AT(double, it, 0, 0, 0) = 1.0; });
}

/* TILE_CHECK_ACCESS: offsets outside the dependence model are reported. */
static void test_check_access(void)
{
    tile_config c;
    static const int64_t offs[3][3] = { { -1, -1, 0 }, { -2, 0, 0 }, { 0, 0, 1 } };
    static const char *const what[3] = { "a diagonal offset", "an offset beyond d_1",
                                         "a forward offset" };
    int k;
    for (k = 0; k < 3; k++) {
        tile_plan p;
        int rc;
        base(&c);
        RUN_MPI(p, c, rc, {
            double v = TILE_AT(double, it, offs[k][0], offs[k][1], offs[k][2]);
            TILE_AT(double, it, 0, 0, 0) = v + TILE_AT(double, it, 0, 0, -1);
        });
        {
            char want[64];
            snprintf(want, sizeof want, "offset (%d,%d,%d) is not", (int)offs[k][0],
                     (int)offs[k][1], (int)offs[k][2]);
            check_mpi(MPI_COMM_WORLD, rc == TILE_OK &&
                      tile_plan_status(&p) == TILE_ERR_ACCESS &&
                      strstr(p.errmsg, want) != NULL && strstr(p.errmsg, "mpi_tiling_errors.c:") != NULL &&
                      strstr(p.errmsg, "break") == NULL,
                      "TILE_CHECK_ACCESS reports %s (TILE_ERR_ACCESS naming the offset and "
                      "the source line, not the message for break)", what[k]);
            if (myrank == 0 && k == 0)
                printf("# %s\n", p.errmsg);
        }
        tile_plan_destroy(&p);
    }
}

/* The cost model must be the same everywhere: a bandwidth given on one rank
 * only, or in the environment of one rank only, would make the others
 * measure the network alone (a hang); every rank refuses. */
static void test_cost_model_mismatch(void)
{
    tile_config c;
    if (nprocs == 1)
        return;
    base(&c);
    c.model = TILE_MODEL_FUNNELED;
    c.threads = 2;
    c.balance.policy = BAL_POLICY_VARIABLE;
    c.balance.bandwidth = myrank == 0 ? 1e9 : 0.0;
    check_mpi(MPI_COMM_WORLD, expect(&c, TILE_ERR_MISMATCH, "bandwidth"),
              "a cost model that differs between ranks is refused on every rank");
    base(&c);
    c.model = TILE_MODEL_FUNNELED;
    c.threads = 2;
    c.balance.policy = BAL_POLICY_CONSTANT;
    if (myrank == 0)
        setenv("TILEHYBRID_BANDWIDTH", "1e9", 1);
    check_mpi(MPI_COMM_WORLD, expect(&c, TILE_ERR_MISMATCH, "TILEHYBRID_BANDWIDTH"),
              "TILEHYBRID_BANDWIDTH on one rank only is refused on every rank, no hang");
    if (myrank == 0)
        setenv("TILEHYBRID_BANDWIDTH", "fast", 1);
    check_mpi(MPI_COMM_WORLD, expect(&c, TILE_ERR_BALANCE, "rank 0: TILEHYBRID_BANDWIDTH"),
              "a malformed TILEHYBRID_BANDWIDTH on one rank fails every rank, no hang");
    unsetenv("TILEHYBRID_BANDWIDTH");
    /* on the last rank: the others report that rank's message, not their own */
    if (myrank == nprocs - 1)
        setenv("TILEHYBRID_BANDWIDTH", "fast", 1);
    {
        char want[64];
        snprintf(want, sizeof want, "rank %d: TILEHYBRID_BANDWIDTH must be", nprocs - 1);
        check_mpi(MPI_COMM_WORLD, expect(&c, TILE_ERR_BALANCE, want),
                  "a malformed TILEHYBRID_BANDWIDTH on the last rank: its message ('%s...') "
                  "on every rank", want);
    }
    unsetenv("TILEHYBRID_BANDWIDTH");
}

/* A tile height beyond Z, up to INT64_MAX, is one tile. */
static void test_huge_tile_height(void)
{
    tile_config c;
    base(&c);
    c.tile_height = INT64_MAX;
    RUN_EXPECT(p, c, p.ntiles == 1 && tile_plan_status(&p) == TILE_OK,
               "tile height INT64_MAX: one tile, runs", { TILE_AT(double, it, 0, 0, 0) = 1.0; });
}

/* Sizes: every one is checked before anything is allocated, against the
 * memory limit (cfg.mem_limit); the messages name the sizes and the limit,
 * and the cause when TILE_STORE_FULL keeps every plane. */
static void test_sizes_and_limit(void)
{
    tile_config c;
    char want[160];
    BAD(c, c.mem_limit = 1000, TILE_ERR_NOMEM, "above its memory limit of 1000 bytes "
        "(cfg.mem_limit); lower the tile height", "a plan above cfg.mem_limit");
    snprintf(want, sizeof want, "(a Z window of 13 planes of %d points of 8 bytes), above its "
             "memory limit of 1000 bytes (cfg.mem_limit); TILE_STORE_FULL keeps every plane",
             (12 / nprocs + 1) * 13);
    BAD(c, (c.mem_limit = 1000, c.grid[0] = nprocs, c.grid[1] = 1,    /* row-major planes */
            c.storage = TILE_STORE_FULL, c.order = TILE_ORDER_PLANES), TILE_ERR_NOMEM, want,
        "TILE_STORE_FULL above cfg.mem_limit: the message says that it keeps every plane");
    BAD(c, c.mem_limit = -2, TILE_ERR_RANGE, "mem_limit = -2", "mem_limit below -1");
    BAD(c, (c.extent[0] = INT64_MAX, c.extent[1] = 5, c.zlen = 5, c.mem_limit = -1),
        TILE_ERR_OVERFLOW,
        nprocs == 1 ? "the communication volume of the space 9223372036854775807 x 5 x 5 (the "
                      "extents X_1 x ... x X_N x Z; product more than 2^63 points) does not "
                      "fit in 64 bits"
                    : "and its ghost layers) has more than 2^63 points",
        "an extent of 2^63 - 1: the message names the extents or the block");
    if (nprocs >= 2)
        BAD(c, (c.extent[0] = 3037000500LL, c.extent[1] = 3037000500LL, c.zlen = 1,
                c.mem_limit = -1), TILE_ERR_OVERFLOW,
            "points of 8 bytes: more than 2^63 bytes",
            "a plane past 2^63 bytes: the message names its points and their size");
}

/* A mismatch names the values as the user wrote them: a double in its
 * fewest digits (0.6, not 0.59999999999999998), a model by its name, the
 * other enum fields by their constants. */
static void test_mismatch_values(void)
{
    tile_config c;
    if (nprocs == 1)
        return;
    BAD(c, (c.model = TILE_MODEL_FUNNELED, c.balance.bal = myrank == 0 ? 0.5 : 0.6),
        TILE_ERR_MISMATCH, "argument 'balance.bal' differs between ranks (0.5 vs 0.6)",
        "a double that differs is printed as written");
    BAD(c, c.model = myrank == 0 ? TILE_MODEL_MPI : TILE_MODEL_FINE, TILE_ERR_MISMATCH,
        "argument 'model' differs between ranks (mpi vs fine)", "a model that differs is "
        "printed by its name");
    BAD(c, c.storage = myrank == 0 ? TILE_STORE_WINDOW : TILE_STORE_FULL, TILE_ERR_MISMATCH,
        "argument 'storage' differs between ranks (TILE_STORE_WINDOW vs TILE_STORE_FULL)",
        "a storage that differs is printed by its constant");
    BAD(c, c.order = myrank == 0 ? TILE_ORDER_PLANES : TILE_ORDER_HYPERPLANE, TILE_ERR_MISMATCH,
        "argument 'order' differs between ranks (TILE_ORDER_PLANES vs TILE_ORDER_HYPERPLANE)",
        "an order that differs is printed by its constant");
    BAD(c, c.grid_policy = myrank == 0 ? TILE_GRID_COMM : TILE_GRID_TIME, TILE_ERR_MISMATCH,
        "argument 'grid_policy' differs between ranks (TILE_GRID_COMM vs TILE_GRID_TIME)",
        "a grid policy that differs is printed by its constant");
    BAD(c, (c.model = TILE_MODEL_FUNNELED,
            c.balance.policy = myrank == 0 ? BAL_POLICY_FIXED : BAL_POLICY_ADAPTIVE),
        TILE_ERR_MISMATCH, "argument 'balance.policy' differs between ranks (BAL_POLICY_FIXED "
        "vs BAL_POLICY_ADAPTIVE)", "a balancing policy that differs is printed by its constant");
    BAD(c, c.messages = myrank == 0 ? TILE_MESSAGES_PERSISTENT : TILE_MESSAGES_NONBLOCKING,
        TILE_ERR_MISMATCH, "argument 'messages' differs between ranks (TILE_MESSAGES_PERSISTENT "
        "vs TILE_MESSAGES_NONBLOCKING)", "a message kind that differs is printed by its "
        "constant");
}

/* Funneled with 4 threads: the master alone gets bal/T of the points, the
 * others (T - bal) / (T (T - 1)) each. */
static void test_funneled_share(void)
{
    tile_config c;
    tile_plan p;
    int rc, ok = 1, t;
    base(&c);
    c.extent[0] = 40 * nprocs;
    c.extent[1] = 40;
    c.model = TILE_MODEL_FUNNELED;
    c.threads = 4;
    c.balance.bal = 0.2;
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    if (rc == TILE_OK) {
        int64_t total = 0;
#pragma omp parallel num_threads(p.cfg.threads)
        TILE_FOREACH_GROUP(&p, g)
            HYBRID_FUNNELED_STEP(g, it, { TILE_AT(double, it, 0, 0, 0) = 1.0; });
        for (t = 0; t < 4; t++)
            total += p.run.stats[t].points;
        /* 1600 points a plane: master 0.2/4 = 5% = 80, others 1520/3 */
        if (p.run.stats[0].points * 20 != total)
            ok = 0;
        for (t = 1; t < 4; t++)
            if (llabs(p.run.stats[t].points * 3 - (total - p.run.stats[0].points)) >
                3 * 10 * 40)
                ok = 0;
        if (!ok)
            check_note("points %lld %lld %lld %lld", (long long)p.run.stats[0].points,
                       (long long)p.run.stats[1].points, (long long)p.run.stats[2].points,
                       (long long)p.run.stats[3].points);
    }
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && ok && tile_plan_status(&p) == TILE_OK,
              "funneled, 4 threads, bal 0.2: the master computes bal/T of the points, "
              "the others equal shares");
    tile_plan_destroy(&p);
}

/* The fine and multiple models' thread grid fits every block, the
 * smallest too: 7 x 5 on 2 x 2 processes has blocks of 3-4 x 2-3 points,
 * where 3 threads fit as 3 x 1 only (1 x 3, chosen for the largest block,
 * was refused: "3 threads along dimension 2 but a block has only 2
 * points"). */
static void test_thread_grid_fits(void)
{
    tile_config c;
    tile_plan p;
    int rc, m, i, ok = 1;
    for (m = 0; m < 2; m++) {
        base(&c);
        c.extent[0] = 7;
        c.extent[1] = 5;
        c.zlen = 19;
        c.model = m == 0 ? TILE_MODEL_FINE : TILE_MODEL_MULTIPLE;
        c.threads = 3;
        rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
        if (rc != TILE_OK)
            ok = 0, check_note("%s model: %s", tile_model_name(c.model), p.errmsg);
        for (i = 0; rc == TILE_OK && i < 2; i++)
            if (p.threads.dims[i] > c.extent[i] / p.pdims[i])
                ok = 0;
        tile_plan_destroy(&p);
    }
    check_mpi(MPI_COMM_WORLD, ok, "fine and multiple models, 3 threads, 7 x 5 points: a thread "
              "grid that fits the smallest block is chosen");
}

#ifdef _OPENMP
/* A coarse-grain region with the wrong number of threads. */
static void test_wrong_thread_count(void)
{
    tile_config c;
    tile_plan p;
    int rc;
    base(&c);
    c.model = TILE_MODEL_FUNNELED;
    c.threads = 2;
    rc = tile_plan_create(&p, MPI_COMM_WORLD, &c);
    if (rc == TILE_OK) {
#pragma omp parallel num_threads(1)
        TILE_FOREACH_GROUP(&p, g)
            HYBRID_FUNNELED_STEP(g, it, { TILE_AT(double, it, 0, 0, 0) = 1.0; });
    }
    check_mpi(MPI_COMM_WORLD, rc == TILE_OK && tile_plan_status(&p) == TILE_ERR_THREADS &&
                  strstr(p.errmsg, "num_threads") != NULL,
              "a parallel region with the wrong thread count is refused, no hang");
    tile_plan_destroy(&p);
}
#endif

int main(int argc, char **argv)
{
    int provided;
    hybrid_init(&argc, &argv, TILE_MODEL_MULTIPLE, 2, &provided);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    test_bad_arguments();
    test_across_ranks();
    test_null_and_messages();
    test_break();
    test_continue();
    test_wrong_step_macro();
    test_check_access();
    test_cost_model_mismatch();
    test_huge_tile_height();
    test_sizes_and_limit();
    test_mismatch_values();
    test_funneled_share();
    test_thread_grid_fits();
#ifdef _OPENMP
    test_wrong_thread_count();
#endif
    return check_mpi_exit();
}
