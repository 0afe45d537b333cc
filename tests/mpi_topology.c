/* tests/mpi_topology.c -- topo_cart_create() and topo_nest_cart_create()
 * on 1..4 processes, and the latency grid against the real MPI_Dims_create. */
#include <mpi.h>

#include <stdint.h>
#include <string.h>

#include "topology.h"
#include "tests/check.h"

/* 1 if every rank holds the same n ints. */
static int same_everywhere(MPI_Comm comm, const int *v, int n)
{
    int lo[TOPO_MAX_DIMS], hi[TOPO_MAX_DIMS], i;
    MPI_Allreduce(v, lo, n, MPI_INT, MPI_MIN, comm);
    MPI_Allreduce(v, hi, n, MPI_INT, MPI_MAX, comm);
    for (i = 0; i < n; i++)
        if (lo[i] != hi[i])
            return 0;
    return 1;
}

/* 1 if dims is a grid of p processes that keeps the fixed entries (> 0) and
 * lists the free ones in non-increasing order; *spread = their max - min. */
static int valid_grid(int64_t p, int n, const int *fixed, const int *dims,
                      int *spread)
{
    int64_t prod = 1;
    int i, lo = 0, hi = 0, first = 1;
    for (i = 0; i < n; i++) {
        if (dims[i] < 1 || (prod *= dims[i]) > p)
            return 0;
        if (fixed[i] > 0) {
            if (dims[i] != fixed[i])
                return 0;
            continue;
        }
        if (!first && dims[i] > lo)
            return 0;
        lo = dims[i];
        if (first)
            hi = dims[i];
        first = 0;
    }
    *spread = hi - lo;
    return prod == p;
}

/* topo_dims_create's answer (ours) against MPI_Dims_create's (mpi) for p
 * processes with the given fixed entries.  Ours must be a valid grid.  MPICH
 * returns the most balanced grid, as topo_dims_create does: there the two
 * must be equal.  The standard only asks for dims "as close to each other as
 * possible", and Open MPI 4.1 factors greedily (72 on 2 dimensions: 12x6,
 * ours 9x8); with any MPI other than MPICH the grids must be equal, or MPI's
 * valid too and ours at least as balanced.  *same = 1 if they are equal. */
#ifdef MPICH
#define DIMS_EXACT 1
#define DIMS_RULE "= MPI_Dims_create"
#else
#define DIMS_EXACT 0
#define DIMS_RULE "= MPI_Dims_create or a valid, at least as balanced grid,"
#endif
static int dims_agree(int64_t p, int n, const int *fixed, const int *mpi,
                      const int *ours, int *same)
{
    int s_mpi = 0, s_ours = 0;
    *same = memcmp(mpi, ours, (size_t)n * sizeof(int)) == 0;
    if (!valid_grid(p, n, fixed, ours, &s_ours))
        return 0;
    if (*same || DIMS_EXACT)
        return *same;
    return valid_grid(p, n, fixed, mpi, &s_mpi) && s_ours <= s_mpi;
}

/* Create a grid and check it against MPI's own view and the pure search. */
static void cart_case(const char *name, int n, const int64_t *x,
                      const int64_t *d, topo_policy policy, const int *fixed,
                      int reorder)
{
    MPI_Comm cart = MPI_COMM_NULL;
    int dims[TOPO_MAX_DIMS], want[TOPO_MAX_DIMS], cdims[TOPO_MAX_DIMS];
    int periods[TOPO_MAX_DIMS], coords[TOPO_MAX_DIMS];
    int size, rc, i, ndims = -1, prod = 1, ok;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    rc = topo_cart_create(MPI_COMM_WORLD, n, x, d, policy, fixed, reorder,
                          &cart, dims);
    check_mpi(MPI_COMM_WORLD, rc == TOPO_OK && cart != MPI_COMM_NULL,
              "%s: topo_cart_create returns TOPO_OK (rc %d)", name, rc);
    if (rc != TOPO_OK || cart == MPI_COMM_NULL) {
        for (i = 0; i < 4; i++) /* keep the number of checks per rank */
            check_mpi(MPI_COMM_WORLD, 0, "%s: skipped after failure", name);
        return;
    }
    for (i = 0; i < n; i++)
        prod *= dims[i];
    check_mpi(MPI_COMM_WORLD, prod == size && same_everywhere(MPI_COMM_WORLD,
                                                              dims, n),
              "%s: product of dims is the size, same dims on every rank",
              name);
    ok = MPI_Cartdim_get(cart, &ndims) == MPI_SUCCESS && ndims == n &&
         MPI_Cart_get(cart, n, cdims, periods, coords) == MPI_SUCCESS;
    for (i = 0; ok && i < n; i++)
        ok = cdims[i] == dims[i] && periods[i] == 0 && coords[i] >= 0 &&
             coords[i] < dims[i];
    check_mpi(MPI_COMM_WORLD, ok,
              "%s: MPI_Cartdim_get and MPI_Cart_get agree, periods 0", name);
    for (i = 0; i < n; i++)
        want[i] = fixed != NULL ? fixed[i] : 0;
    if (policy == TOPO_POLICY_LATENCY) {
        int none[TOPO_MAX_DIMS] = {0}, same = 0, agree;
        MPI_Dims_create(size, n, want);
        agree = dims_agree(size, n, fixed != NULL ? fixed : none, want, dims,
                           &same);
        check_mpi(MPI_COMM_WORLD, agree,
                  "%s: latency policy " DIMS_RULE " (%s)", name,
                  same ? "equal" : "differs");
    } else {
        rc = topo_grid(n, size, x, d, TOPO_POLICY_COMM, want);
        check_mpi(MPI_COMM_WORLD,
                  rc == TOPO_OK && memcmp(want, dims, n * sizeof(int)) == 0,
                  "%s: dims = topo_grid()", name);
    }
    check_mpi(MPI_COMM_WORLD, MPI_Comm_free(&cart) == MPI_SUCCESS,
              "%s: MPI_Comm_free", name);
}

/* The counts of dims_create_sweep(). */
struct dims_tally {
    int bad, count, differ;
};

/* One case of the sweep: P = p, n dimensions, the entries fixed[i] > 0
 * fixed: topo_dims_create against MPI_Dims_create. */
static void dims_case(struct dims_tally *t, int p, int n, const int *fixed)
{
    int a[TOPO_MAX_DIMS] = {0}, b[TOPO_MAX_DIMS] = {0}, same = 0;
    memcpy(a, fixed, (size_t)n * sizeof *a);
    memcpy(b, fixed, (size_t)n * sizeof *b);
    MPI_Dims_create(p, n, a);
    if (topo_dims_create(p, n, b, NULL) != TOPO_OK || !dims_agree(p, n, fixed, a, b, &same))
        t->bad++;
    t->differ += !same;
    t->count++;
}

/* topo_dims_create against MPI_Dims_create, with and without fixed dims. */
static void dims_create_sweep(int run)
{
    static const int none[TOPO_MAX_DIMS] = {0};
    struct dims_tally t = {0, 0, 0};
    int p, n, f;
    uint64_t seed = 42;
    for (n = 1; run && n <= 8; n++) {
        int pmax = n <= 5 ? 3000 : 400;
        for (p = 1; p <= pmax; p++)
            dims_case(&t, p, n, none);
    }
    for (n = 9; run && n <= TOPO_MAX_DIMS; n++) { /* big N, big P */
        static const int big[5] = {720720, 65536, 997920, 1073741824,
                                   1102701600};
        for (f = 0; f < 5; f++)
            dims_case(&t, big[f], n, none);
    }
    for (f = 0; run && f < 3000; f++) { /* a fixed entry dividing P */
        int fixed[TOPO_MAX_DIMS] = {0}, i, k, div;
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        p = 1 + (int)((seed >> 33) % 5000);
        n = 2 + (int)((seed >> 20) % 4);
        i = (int)((seed >> 10) % (uint64_t)n);
        k = 1 + (int)((seed >> 40) % 50);
        for (div = k; p % div != 0; div--)
            ;
        fixed[i] = div;
        dims_case(&t, p, n, fixed);
    }
    check_mpi(MPI_COMM_WORLD, t.bad == 0,
              "topo_dims_create " DIMS_RULE " in %d cases on rank 0 "
              "(N=1..16, P up to 1102701600, some with a fixed entry; "
              "%d differ)",
              t.count, t.differ);
}

static int rank, size;

/* topo_cart_create() on grids of 2 to 4 dimensions, both policies, fixed
 * entries. */
static void test_cart_cases(void)
{
    int64_t x2[2] = {16, 256}, d2[2] = {1, 1};
    int64_t x3[3] = {100, 200, 300}, d3[3] = {1, 2, 3};
    int64_t x4[4] = {64, 64, 64, 64}, d4[4] = {1, 1, 1, 1};
    int fix2[2] = {0, 1}, fix3[3] = {0, 0, 1};
    cart_case("2-D comm 16x256", 2, x2, d2, TOPO_POLICY_COMM, NULL, 1);
    cart_case("2-D latency", 2, x2, d2, TOPO_POLICY_LATENCY, NULL, 0);
    cart_case("3-D comm", 3, x3, d3, TOPO_POLICY_COMM, NULL, 0);
    cart_case("3-D latency", 3, x3, d3, TOPO_POLICY_LATENCY, NULL, 1);
    cart_case("2-D comm, P2 fixed to 1", 2, x2, d2, TOPO_POLICY_COMM,
              fix2, 0);
    cart_case("3-D latency, P3 fixed to 1", 3, x3, d3,
              TOPO_POLICY_LATENCY, fix3, 0);
    cart_case("4-D comm", 4, x4, d4, TOPO_POLICY_COMM, NULL, 1);
}

/* Does the job have 2+ processes?  If not, rank 0 reports the test that
 * needs them (name) as skipped, with the reason. */
static int several(const char *reason, const char *name)
{
    if (size == 1 && rank == 0)
        check_skip(reason, "%s", name);
    return size > 1;
}

/* Arguments that differ between ranks, or are bad on some ranks only
 * (2+ processes): every rank must learn it, with the argument and the
 * lowest failing rank. */
static void test_mismatch(void)
{
    int rc, dims[TOPO_MAX_DIMS];
    MPI_Comm cart;
    tilehybrid_status st;
    int64_t x[2], d[2] = {1, 1};
    x[0] = 100 + rank;
    x[1] = 256;
    cart = MPI_COMM_WORLD;
    rc = topo_cart_create_ex(MPI_COMM_WORLD, 2, x, d, TOPO_POLICY_COMM,
                             NULL, 0, &cart, dims, &st);
    check_mpi(MPI_COMM_WORLD,
              rc == TOPO_ERR_MISMATCH && cart == MPI_COMM_NULL &&
                  st.index == 0 && strcmp(st.arg, "extent") == 0,
              "extent[0] differs between ranks: TOPO_ERR_MISMATCH on "
              "every rank, names extent[0]");
    x[0] = 100;
    rc = topo_cart_create_ex(MPI_COMM_WORLD, 2, x, d,
                             rank == size - 1 ? TOPO_POLICY_LATENCY
                                              : TOPO_POLICY_COMM,
                             NULL, 0, &cart, dims, &st);
    check_mpi(MPI_COMM_WORLD,
              rc == TOPO_ERR_MISMATCH && strcmp(st.arg, "policy") == 0,
              "policy differs on the last rank: TOPO_ERR_MISMATCH, "
              "names policy");
    d[1] = rank == 1 ? -1 : 1;
    rc = topo_cart_create_ex(MPI_COMM_WORLD, 2, x, d, TOPO_POLICY_COMM,
                             NULL, 0, &cart, dims, &st);
    check_mpi(MPI_COMM_WORLD,
              rc == TOPO_ERR_DEP && st.code == TOPO_ERR_DEP &&
                  strcmp(st.arg, "dep") == 0 && st.index == 1 && st.rank == 1,
              "a negative width on rank 1 only: TOPO_ERR_DEP on every "
              "rank, each naming dep[1] and rank 1");
    /* two failing ranks: every rank reports the lowest one */
    d[1] = 1;
    x[0] = rank >= 1 ? 0 : 100;
    rc = topo_cart_create_ex(MPI_COMM_WORLD, 2, x, d, TOPO_POLICY_COMM,
                             NULL, 0, &cart, dims, &st);
    check_mpi(MPI_COMM_WORLD,
              rc == TOPO_ERR_EXTENT && strcmp(st.arg, "extent") == 0 &&
                  st.index == 0 && st.rank == 1 && cart == MPI_COMM_NULL,
              "a zero extent on ranks 1.. : TOPO_ERR_EXTENT on every rank, "
              "naming extent[0] and rank 1 (the lowest failing rank)");
    x[0] = 100;
    /* a NULL output on the last rank only: it returned at once and the
     * others waited in the agreement for ever; now every rank returns the
     * same code, naming the argument and the rank */
    cart = MPI_COMM_WORLD;
    rc = topo_cart_create_ex(MPI_COMM_WORLD, 2, x, d, TOPO_POLICY_COMM, NULL, 0,
                             rank == size - 1 ? NULL : &cart, dims, &st);
    check_mpi(MPI_COMM_WORLD,
              rc == TOPO_ERR_NULL && strcmp(st.arg, "cart") == 0 && st.rank == size - 1 &&
                  (rank == size - 1 || cart == MPI_COMM_NULL),
              "topo_cart_create_ex, cart NULL on the last rank only: TOPO_ERR_NULL on every "
              "rank, naming cart and that rank (no hang)");
    {
        topo_nest nest;
        int nrc = topo_nest_init(&nest, 2, x, 10, d, NULL);
        cart = MPI_COMM_WORLD;
        rc = topo_nest_cart_create(MPI_COMM_WORLD, &nest, TOPO_POLICY_COMM, NULL, 0,
                                   rank == size - 1 ? NULL : &cart, dims, &st);
        check_mpi(MPI_COMM_WORLD,
                  nrc == TOPO_OK && rc == TOPO_ERR_NULL && strcmp(st.arg, "cart") == 0 &&
                      st.rank == size - 1 && (rank == size - 1 || cart == MPI_COMM_NULL),
                  "topo_nest_cart_create, cart NULL on the last rank only: TOPO_ERR_NULL on "
                  "every rank, naming cart and that rank (no hang)");
        rc = topo_nest_cart_create(MPI_COMM_WORLD, &nest, TOPO_POLICY_COMM, NULL, 0, &cart,
                                   rank == size - 1 ? NULL : dims, &st);
        check_mpi(MPI_COMM_WORLD,
                  rc == TOPO_ERR_NULL && strcmp(st.arg, "dims") == 0 && st.rank == size - 1,
                  "topo_nest_cart_create, dims NULL on the last rank only: TOPO_ERR_NULL "
                  "naming dims and that rank");
    }
}

/* MPI_COMM_NULL; a fixed entry that does not divide the size. */
static void test_bad_arguments(void)
{
    int rc, dims[TOPO_MAX_DIMS];
    MPI_Comm cart;
    tilehybrid_status st;
    int64_t x[2] = {16, 256}, d[2] = {1, 1};
    int fixed[2] = {3, 0};
    rc = topo_cart_create(MPI_COMM_NULL, 2, x, d, TOPO_POLICY_COMM, NULL,
                          0, &cart, dims);
    check_mpi(MPI_COMM_WORLD, rc == TOPO_ERR_NULL,
              "MPI_COMM_NULL: TOPO_ERR_NULL");
    rc = topo_cart_create_ex(MPI_COMM_WORLD, 2, x, d, TOPO_POLICY_COMM,
                             size % 3 == 0 ? NULL : fixed, 0, &cart, dims,
                             &st);
    check_mpi(MPI_COMM_WORLD,
              size % 3 == 0 ? rc == TOPO_OK : rc == TOPO_ERR_FIXED,
              "fixed P1 = 3 that does not divide the size: TOPO_ERR_FIXED "
              "on every rank");
    if (rc == TOPO_OK)
        MPI_Comm_free(&cart);
}

/* An intercommunicator (MPI_Cart_create would refuse it; 2+ processes):
 * TOPO_ERR_MPI on every rank, found before any collective
 * (MPI_Comm_test_inter). */
static void test_mpi_failure(void)
{
    int rc, dims[TOPO_MAX_DIMS];
    MPI_Comm cart;
    tilehybrid_status st;
    MPI_Comm half, inter;
    int64_t x[2] = {16, 256}, d[2] = {1, 1};
    int color = rank % 2;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, color == 0 ? 1 : 0, 7,
                         &inter);
    /* Open MPI raises this error on MPI_COMM_WORLD, MPICH on inter */
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc = topo_cart_create_ex(inter, 2, x, d, TOPO_POLICY_COMM, NULL, 0,
                             &cart, dims, &st);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    check_mpi(MPI_COMM_WORLD,
              rc == TOPO_ERR_MPI && st.mpi_error != MPI_SUCCESS &&
                  cart == MPI_COMM_NULL,
              "intercommunicator: MPI_Cart_create fails, TOPO_ERR_MPI "
              "with the MPI code");
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
}

/* One topo_nest_cart_create() that must fail on every rank with code want
 * and name arg (index idx, found on rank who, or -1 for a mismatch). */
static void nest_refused(const topo_nest *m, int want, const char *arg, int64_t idx, int who,
                         const char *name)
{
    MPI_Comm cart = MPI_COMM_WORLD;
    int dims[TOPO_MAX_DIMS];
    tilehybrid_status st;
    int rc = topo_nest_cart_create(MPI_COMM_WORLD, m, TOPO_POLICY_TIME, NULL, 0, &cart, dims,
                                   &st);
    check_mpi(MPI_COMM_WORLD,
              rc == want && cart == MPI_COMM_NULL && strcmp(st.arg, arg) == 0 &&
                  st.index == idx && (who < 0 || st.rank == who),
              "%s: %s on every rank, naming %s (index %lld)%s (got %d, %s, %lld)", name,
              topo_strerror(want), arg, (long long)idx, who < 0 ? "" : " and rank 1", rc,
              st.arg, (long long)st.index);
}

/* topo_nest_cart_create: a diagonal stencil and the time policy give
 * topo_nest_grid's grid on every rank; a nest value that differs between
 * ranks, or is bad on one rank, is named on every rank; the plain function
 * keeps its own rule (blocks may be narrower than d_i; a nest's may not). */
static void nest_cases(void)
{
    static const int vec[3][3] = {{-1, -1, 0}, {-1, 0, 0}, {0, -1, 0}};
    int64_t x[2] = {64, 1024}, small[2] = {4, 4}, wide[2] = {3, 3};
    int dims[2] = {0, 0}, want[2] = {0, 0}, rc, rc2;
    MPI_Comm cart = MPI_COMM_NULL;
    tilehybrid_status st;
    topo_nest m, bad;
    topo_nest_init(&m, 2, x, 2048, NULL, NULL);
    topo_nest_stencil(&m, 3, &vec[0][0], 3, NULL, NULL);
    m.tile_height = 64;
    m.tcomp = 6.4e-9;
    m.tstartup = 1e-6;
    m.bandwidth = 12.5e9;
    rc = topo_nest_cart_create(MPI_COMM_WORLD, &m, TOPO_POLICY_TIME, NULL, 1, &cart, dims, &st);
    topo_nest_grid(&m, size, TOPO_POLICY_TIME, want, NULL);
    check_mpi(MPI_COMM_WORLD, rc == TOPO_OK && cart != MPI_COMM_NULL && dims[0] == want[0] &&
                  dims[1] == want[1] && same_everywhere(MPI_COMM_WORLD, dims, 2),
              "topo_nest_cart_create, diagonal stencil, time policy: topo_nest_grid's %dx%d "
              "on every rank", want[0], want[1]);
    if (rc == TOPO_OK)
        MPI_Comm_free(&cart);
    if (size > 1) {
        bad = m;
        bad.tcomp = rank == 1 ? 7e-9 : 6.4e-9;
        nest_refused(&bad, TOPO_ERR_MISMATCH, "tcomp", -1, -1, "tcomp differs on rank 1");
        bad = m;
        bad.ext[1][0] = rank == size - 1 ? 0 : 1;
        nest_refused(&bad, TOPO_ERR_MISMATCH, "ext", 2, -1, "ext[1][0] differs on the last rank");
        bad = m;
        bad.zlen = rank == 1 ? 4096 : 2048;
        nest_refused(&bad, TOPO_ERR_MISMATCH, "zlen", 2, -1, "zlen differs on rank 1");
        bad = m;
        bad.tile_height = rank == 1 ? 0 : 64;
        nest_refused(&bad, TOPO_ERR_COST, "tile_height", -1, 1, "tile height 0 on rank 1");
    } else if (rank == 0) {
        check_skip("one process: nothing differs between ranks", "nest mismatch checks");
    }
    /* 4x4 with widths 3,3: every divided dimension has blocks under 3 wide */
    topo_nest_init(&bad, 2, small, 10, wide, NULL);
    rc = topo_cart_create(MPI_COMM_WORLD, 2, small, wide, TOPO_POLICY_COMM, NULL, 0, &cart, dims);
    if (rc == TOPO_OK)
        MPI_Comm_free(&cart);
    rc2 = topo_nest_cart_create(MPI_COMM_WORLD, &bad, TOPO_POLICY_COMM, NULL, 0, &cart, dims,
                                &st);
    if (rc2 == TOPO_OK)
        MPI_Comm_free(&cart);
    check_mpi(MPI_COMM_WORLD, rc == TOPO_OK && rc2 == (size == 1 ? TOPO_OK : TOPO_ERR_INFEASIBLE),
              "4x4, widths 3,3: topo_cart_create keeps its rule (TOPO_OK), "
              "topo_nest_cart_create wants blocks 3 wide (%s)",
              size == 1 ? "one process: TOPO_OK" : "TOPO_ERR_INFEASIBLE");
}

int main(int argc, char **argv)
{
    int rc;
    check_mpi_init(&argc, &argv, &rank, &size);
    test_cart_cases();
    /* pure and identical on every rank: rank 0 alone runs the sweep */
    dims_create_sweep(rank == 0);
    if (several("one process: nobody to disagree with", "mismatch checks need 2+ processes"))
        test_mismatch();
    test_bad_arguments();
    if (several("one process: no intercommunicator to build",
                "MPI failure check needs 2+ processes"))
        test_mpi_failure();
    nest_cases();
    rc = check_exit();
    MPI_Finalize();
    return rc;
}
