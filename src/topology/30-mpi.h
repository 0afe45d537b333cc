/* ------------------------------------------------------------------------ */
/* MPI: the process grid as a Cartesian communicator                        */

#ifndef TILEHYBRID_NO_MPI

/* ---- topo_cart_create_ex and topo_nest_cart_create in three steps ------ */

/* Values every rank must share: n, policy, reorder; extent, dep and fixed
 * (TOPO_MAX_DIMS entries each, 0 past n); zlen, tile_height and the cost
 * model's four doubles (their bits); ext (TOPO_MAX_DIMS^2 entries). */
#define TOPO__NCOST 6
#define TOPO__NSHARED (3 + 3 * TOPO_MAX_DIMS + TOPO__NCOST + TOPO_MAX_DIMS * TOPO_MAX_DIMS)

#if TILEHYBRID__DEFINE
/* The failing rank's argument (w->arg) as one of the names a status of
 * this header can carry. */
TILEHYBRID__COLD const char *topo__known_arg(const tilehybrid_verdict *w)
{
    static const char *const names[] = {
        "n",    "procs",       "policy",     "extent", "dep",      "dims",     "cart",  "fixed",
        "reorder", "nest",     "zlen",       "tile_height", "elem_bytes", "tcomp",
        "tstartup", "bandwidth", "ext"};
    return tilehybrid_verdict_arg(w, names, (int)(sizeof names / sizeof names[0]),
                                  "another rank");
}

/* The values of v (TOPO__NSHARED, as 64-bit patterns of the caller's
 * values); nest NULL: only n, policy and reorder (this rank's arguments
 * are invalid). */
TILEHYBRID__COLD void topo__cart_values(int n, const topo_nest *nest, topo_policy policy,
                                        const int *fixed, int reorder, uint64_t *v)
{
    const int M = TOPO_MAX_DIMS;
    uint64_t *cost = v + 3 + 3 * M, *ext = cost + TOPO__NCOST;
    int i, j;
    memset(v, 0, sizeof(uint64_t) * TOPO__NSHARED);
    v[0] = (uint64_t)(int64_t)n;
    v[1] = (uint64_t)(int64_t)policy;
    v[2] = (uint64_t)(int64_t)reorder;
    if (nest == NULL)
        return;
    for (i = 0; i < n; i++) {
        v[3 + i] = (uint64_t)nest->extent[i];
        v[3 + M + i] = (uint64_t)nest->dep[i];
        v[3 + 2 * M + i] = (uint64_t)(int64_t)(fixed != NULL ? fixed[i] : 0);
        for (j = 0; j < n; j++)
            ext[i * M + j] = (uint64_t)nest->ext[i][j];
    }
    cost[0] = (uint64_t)nest->zlen;
    cost[1] = (uint64_t)nest->tile_height;
    cost[2] = tilehybrid_bits(nest->elem_bytes);
    cost[3] = tilehybrid_bits(nest->tcomp);
    cost[4] = tilehybrid_bits(nest->tstartup);
    cost[5] = tilehybrid_bits(nest->bandwidth);
}

/* The name and index of the first value that differs between ranks. */
TILEHYBRID__COLD int topo__mismatch(int64_t a, int n, tilehybrid_status *status)
{
    static const char *const first[3] = {"n", "policy", "reorder"};
    static const char *const table[3] = {"extent", "dep", "fixed"};
    static const char *const cost[TOPO__NCOST] = {"zlen",  "tile_height", "elem_bytes",
                                                  "tcomp", "tstartup",    "bandwidth"};
    const int64_t M = TOPO_MAX_DIMS;
    if (a < 3)
        return tilehybrid_status_set(status, TOPO_ERR_MISMATCH, first[a], -1);
    if (a < 3 + 3 * M)
        return tilehybrid_status_set(status, TOPO_ERR_MISMATCH, table[(a - 3) / M],
                                     (a - 3) % M);
    if (a < 3 + 3 * M + TOPO__NCOST)
        return tilehybrid_status_set(status, TOPO_ERR_MISMATCH, cost[a - 3 - 3 * M],
                                     a == 3 + 3 * M ? n : -1);
    a -= 3 + 3 * M + TOPO__NCOST;
    return tilehybrid_status_set(status, TOPO_ERR_MISMATCH, "ext", a / M * n + a % M);
}

/* An MPI call of a collective failed on this rank: the other ranks would
 * wait for it forever, and a failure on one rank cannot be agreed on, so
 * the headers' one path (tilehybrid_mpi_failed(): the call, the rank and
 * MPI's error text on stderr or to the installed hook, then MPI_Abort).
 * Returns TOPO_ERR_MPI (status names the call) only if MPI_Abort returns. */
TILEHYBRID__COLD int topo__mpi_failed(MPI_Comm comm, int mpirc, const char *call, const char *fn,
                                      tilehybrid_status *status)
{
    tilehybrid_mpi_failed(comm, mpirc, call, TOPO_ERR_MPI, "in topology.h's %s()", fn);
    tilehybrid_status_set(status, TOPO_ERR_MPI, call, -1);
    if (status != NULL)
        status->mpi_error = mpirc;
    return TOPO_ERR_MPI;
}

/* Step 2: one tilehybrid_agree().  Returns TOPO_OK when no rank failed and
 * every value is equal; else the code every rank returns, with *status
 * naming the failing rank's argument, index and rank, or the first value
 * that differs between ranks. */
TILEHYBRID__COLD int topo__cart_agree(MPI_Comm comm, int rc, const uint64_t *v,
                                      const tilehybrid_status *mine, const char *fn,
                                      tilehybrid_status *status)
{
    tilehybrid_verdict w;
    tilehybrid_agreement a;
    int mpirc;
    w.text[0] = '\0';
    mpirc = tilehybrid_agree_status(comm, rc, mine, v, TOPO__NSHARED, &w, &a);
    if (mpirc != MPI_SUCCESS)
        return topo__mpi_failed(comm, mpirc, a.call, fn, status);
    if (a.code != 0)
        return tilehybrid_verdict_status(status, &a, &w, topo__known_arg(&w));
    if (a.index < 0)
        return TOPO_OK;
    return topo__mismatch(a.index, (int)v[0], status);
}

/* Step 3: the same arguments everywhere, so the pure search gives the same
 * grid on every rank (topo_grid_ex's for the plain functions, legacy 1;
 * topo_nest_grid's otherwise); then MPI_Cart_create (periods all 0). */
TILEHYBRID__COLD int topo__cart_make(MPI_Comm comm, int size, const topo_nest *nest, int legacy,
                                     topo_policy policy, const int *fixed, int reorder,
                                     MPI_Comm *cart, int *dims, tilehybrid_status *status)
{
    int grid[TOPO_MAX_DIMS], periods[TOPO_MAX_DIMS], i, rc, mpirc, n = nest->n;
    MPI_Comm out = MPI_COMM_NULL;
    for (i = 0; i < n; i++) {
        grid[i] = fixed != NULL ? fixed[i] : 0;
        periods[i] = 0;
    }
    if (legacy)
        rc = topo_grid_ex(n, size, nest->extent, nest->dep, policy, grid, status);
    else
        rc = topo_nest_grid(nest, size, policy, grid, status);
    if (rc != TOPO_OK)
        return rc;
    mpirc = MPI_Cart_create(comm, n, grid, periods, reorder, &out);
    if (mpirc != MPI_SUCCESS)
        return topo__mpi_failed(comm, mpirc, "MPI_Cart_create",
                                legacy ? "topo_cart_create_ex" : "topo_nest_cart_create", status);
    for (i = 0; i < n; i++)
        dims[i] = grid[i];
    *cart = out;
    return tilehybrid_status_set(status, TOPO_OK, "", -1);
}

/* Step 1's common part: MPI_COMM_NULL reported on this rank only (it
 * cannot take part in a collective over comm), and the size of comm.  A
 * NULL cart is not reported here: the callers agree on it with the other
 * arguments. */
TILEHYBRID__COLD int topo__cart_begin(MPI_Comm comm, MPI_Comm *cart, int *size, const char *fn,
                                      tilehybrid_status *status)
{
    int mpirc, inter = 0;
    if (cart != NULL)
        *cart = MPI_COMM_NULL;
    if (comm == MPI_COMM_NULL)
        return tilehybrid_status_set(status, TOPO_ERR_NULL, "comm", -1);
    mpirc = MPI_Comm_test_inter(comm, &inter);
    if (mpirc == MPI_SUCCESS && inter) {  /* bad input, the same on every rank */
        tilehybrid_status_set(status, TOPO_ERR_MPI, "comm", -1);
        if (status != NULL)
            status->mpi_error = MPI_ERR_COMM;
        return TOPO_ERR_MPI;
    }
    if (mpirc != MPI_SUCCESS)
        return topo__mpi_failed(comm, mpirc, "MPI_Comm_test_inter", fn, status);
    mpirc = MPI_Comm_size(comm, size);
    if (mpirc != MPI_SUCCESS)
        return topo__mpi_failed(comm, mpirc, "MPI_Comm_size", fn, status);
    return TOPO_OK;
}

/* topo_cart_create_ex() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD int topo_cart_create_ex(MPI_Comm comm, int n,
                                         const int64_t *extent,
                                         const int64_t *dep, topo_policy policy,
                                         const int *fixed, int reorder,
                                         MPI_Comm *cart, int *dims,
                                         tilehybrid_status *status)
{
    uint64_t v[TOPO__NSHARED];
    tilehybrid_status mine;
    topo_nest nest;
    int size = 0, rc = topo__cart_begin(comm, cart, &size, "topo_cart_create_ex", status);
    if (rc != TOPO_OK)
        return rc;
    tilehybrid_status_set(&mine, TOPO_OK, "", -1);
    if (cart == NULL)
        rc = tilehybrid_status_set(&mine, TOPO_ERR_NULL, "cart", -1);
    else if (dims == NULL)
        rc = tilehybrid_status_set(&mine, TOPO_ERR_NULL, "dims", -1);
    else
        rc = topo__check_common(n, size, extent, dep, policy, &mine);
    if (rc == TOPO_OK) /* zlen 1 and the default cost: the same everywhere */
        rc = topo_nest_init(&nest, n, extent, 1, dep, &mine);
    topo__cart_values(n, rc == TOPO_OK ? &nest : NULL, policy, fixed, reorder, v);
    rc = topo__cart_agree(comm, rc, v, &mine, "topo_cart_create_ex", status);
    if (rc != TOPO_OK)
        return rc;
    return topo__cart_make(comm, size, &nest, 1, policy, fixed, reorder, cart, dims, status);
}

/* topo_cart_create() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD int topo_cart_create(MPI_Comm comm, int n,
                                      const int64_t *extent, const int64_t *dep,
                                      topo_policy policy, const int *fixed,
                                      int reorder, MPI_Comm *cart, int *dims)
{
    return topo_cart_create_ex(comm, n, extent, dep, policy, fixed, reorder,
                               cart, dims, NULL);
}

/* Step 1 of topo_nest_cart_create(): this rank's verdict on its own
 * arguments, in topo_nest_grid()'s order (the fixed entries are checked in
 * step 3, on every rank alike). */
TILEHYBRID__COLD int topo__nest_local(const topo_nest *nest, int size, topo_policy policy,
                                      const MPI_Comm *cart, const int *dims,
                                      tilehybrid_status *mine)
{
    int rc;
    tilehybrid_status_set(mine, TOPO_OK, "", -1);
    if (cart == NULL)
        return tilehybrid_status_set(mine, TOPO_ERR_NULL, "cart", -1);
    if (dims == NULL)
        return tilehybrid_status_set(mine, TOPO_ERR_NULL, "dims", -1);
    rc = topo__check_nest(nest, mine);
    return rc != TOPO_OK ? rc : topo__check_run(size, policy, 1, mine);
}

/* topo_nest_cart_create() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD int topo_nest_cart_create(MPI_Comm comm, const topo_nest *nest,
                                           topo_policy policy, const int *fixed,
                                           int reorder, MPI_Comm *cart, int *dims,
                                           tilehybrid_status *status)
{
    uint64_t v[TOPO__NSHARED];
    tilehybrid_status mine;
    int size = 0, rc = topo__cart_begin(comm, cart, &size, "topo_nest_cart_create", status);
    if (rc != TOPO_OK)
        return rc;
    rc = topo__nest_local(nest, size, policy, cart, dims, &mine);
    topo__cart_values(nest != NULL ? nest->n : 0, rc == TOPO_OK ? nest : NULL, policy,
                      fixed, reorder, v);
    rc = topo__cart_agree(comm, rc, v, &mine, "topo_nest_cart_create", status);
    if (rc != TOPO_OK)
        return rc;
    return topo__cart_make(comm, size, nest, 0, policy, fixed, reorder, cart, dims, status);
}
#else
TILEHYBRID__COLD const char *topo__known_arg(const tilehybrid_verdict *w);
TILEHYBRID__COLD void topo__cart_values(int n, const topo_nest *nest, topo_policy policy,
                                        const int *fixed, int reorder, uint64_t *v);
TILEHYBRID__COLD int topo__mismatch(int64_t a, int n, tilehybrid_status *status);
TILEHYBRID__COLD int topo__mpi_failed(MPI_Comm comm, int mpirc, const char *call, const char *fn,
                                      tilehybrid_status *status);
TILEHYBRID__COLD int topo__cart_agree(MPI_Comm comm, int rc, const uint64_t *v,
                                      const tilehybrid_status *mine, const char *fn,
                                      tilehybrid_status *status);
TILEHYBRID__COLD int topo__cart_make(MPI_Comm comm, int size, const topo_nest *nest, int legacy,
                                     topo_policy policy, const int *fixed, int reorder,
                                     MPI_Comm *cart, int *dims, tilehybrid_status *status);
TILEHYBRID__COLD int topo__cart_begin(MPI_Comm comm, MPI_Comm *cart, int *size, const char *fn,
                                      tilehybrid_status *status);
TILEHYBRID__COLD int topo__nest_local(const topo_nest *nest, int size, topo_policy policy,
                                      const MPI_Comm *cart, const int *dims,
                                      tilehybrid_status *mine);
#endif

#endif /* TILEHYBRID_NO_MPI */
