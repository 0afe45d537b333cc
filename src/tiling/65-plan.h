/* ------------------------------------------------------------------------ */
/* The plan: its tables, tile_plan_create, tile_plan_destroy                */

#if TILEHYBRID__DEFINE
/* The offsets the body may read, for TILE_AT's test (tile__at_ok): the
 * stencil's vectors (or, with the shorthand, the axis-aligned offsets
 * within the widths) and the point itself: their codes sorted, each once,
 * the rest of deps.at_code UINT64_MAX (no code is: a far one has bit 63
 * and a 0 field), and the bit of each in at_mask's columns of its
 * offsets.  More than TILE__AT_CODES of them (widths that add up to 64 or
 * more): at_all, every offset passes. */
TILEHYBRID__COLD void tile__at_table(tile_plan *p)
{
    uint64_t *a = p->deps.at_code;
    int n = p->cfg.n, i, k, u, m = 0;
    for (i = 0; i < TILE__AT_CODES; i++)
        a[i] = UINT64_MAX;
    memset(p->deps.at_mask, 0, sizeof p->deps.at_mask);
    p->deps.at_far = p->deps.at_all = 0;
    for (k = -1; k < (p->cfg.nstencil > 0 ? p->cfg.nstencil : n + 1); k++) {
        int reach = k < 0 || p->cfg.nstencil > 0 ? 1 : k < n ? p->deps.d[k] : p->deps.dz;
        for (u = 1; u <= reach; u++) {
            int64_t o[TILE_MAX_DIMS + 1];
            uint64_t c = 0;
            int j;
            for (i = 0; i <= n; i++) {
                o[i] = k < 0                   ? 0
                       : p->cfg.nstencil > 0  ? p->cfg.stencil[k][i]
                       : i == k               ? -(int64_t)u * p->deps.dir[i]
                                              : 0;
                c |= tile__at_pk(o[i], i);
            }
            if (c >> 63) {
                p->deps.at_far = 1;
                continue;
            }
            for (j = 0; j < m && a[j] < c; j++)     /* insert in order, once */
                ;
            if (j < m && a[j] == c)
                continue;
            if (m == TILE__AT_CODES) {
                p->deps.at_all = 1;
                return;
            }
            memmove(a + j + 1, a + j, (size_t)(m - j) * sizeof *a);
            a[j] = c;
            for (i = 0; i <= n; i++)
                p->deps.at_mask[i][tile__at_ix(o[i])] |= (uint64_t)1 << m;
            m++;
        }
    }
}

/* Everything after the agreement on the configuration. */
TILEHYBRID__COLD int tile__setup(tile_plan *p)
{
    int64_t ring_bytes = 0;
    /* every size is computed and checked before anything is allocated */
    if (tile__grid(p) == TILE_OK && tile__thread_grid(p) == TILE_OK)
        tile__thread_shape(p);
    tile__height(p);        /* collective when the model chooses */
    if (p->status.code == TILE_OK && tile__sizes(p, &ring_bytes) == TILE_OK &&
        tile__thread_tables(p) == TILE_OK)
        tile__storage(p, ring_bytes);
    tile__at_table(p);
    if (tile__agree(p, NULL) != TILE_OK)    /* memory may differ */
        return p->status.code;
    tile__balancing(p);
    if (p->status.code == TILE_OK)
        tile__messages_setup(p);
    return tile__agree(p, NULL);
}
#else
TILEHYBRID__COLD void tile__at_table(tile_plan *p);
TILEHYBRID__COLD int tile__setup(tile_plan *p);
#endif

TILEHYBRID__COLD void tile_plan_destroy(tile_plan *plan);

/* Floating-point contraction.  A compiler may contract a * b + c into one
 * fused multiply-add (one rounding instead of two): GCC does in its GNU
 * modes (-std=gnu99, the default: -ffp-contract=fast) wherever the target
 * has the instruction (-march=native, -mfma), and across statements once
 * it has inlined; clang under -ffp-contract=fast (its default, =on, gives
 * way to the headers' #pragma STDC FP_CONTRACT OFF).  The
 * body's results then may differ in the last bits from a loop compiled
 * with other flags, or even with the same flags, where the compiler
 * contracts another way (a vectorised body, a scalar loop).  The probe
 * runs in the caller's file (the macro tile_plan_create() below), with its
 * flags: (1 + 2^-30)(1 - 2^-30) - 1 is -2^-60 exactly, 0 rounded twice. */
#define TILE__FP_CONTRACTS 1
#define TILE__FP_STRICT 2
#ifdef TILE_STRICT
#define TILE__FP_STRICT_ON TILE__FP_STRICT
#else
#define TILE__FP_STRICT_ON 0
#endif

/**
 * tile_fp_contracts() - does the file that calls it contract a * b + c
 * into a fused multiply-add (with its compiler and flags)?
 * Return: 1 if it does, 0 if the product is rounded before the sum.
 */
static inline int tile_fp_contracts(void)
{
    volatile double a = 1.0 + 1.0 / 1073741824.0, b = 1.0 - 1.0 / 1073741824.0, c = -1.0;
    double x = a, y = b, z = c;
    return x * y + z != 0.0;
}

#define TILE__FP_TEXT                                                              \
    "this file contracts a * b + c into fused multiply-adds (-ffp-contract=fast, "   \
    "GCC's default in GNU modes, with FMA in -march), so the body's results may "   \
    "differ in the last bits from a loop built otherwise: build with "              \
    "-ffp-contract=off"

/* The warning on rank 0 of a plan whose caller's file contracts (once per
 * process). */
TILEHYBRID__COLD void tile__fp_warn(void);

#if TILEHYBRID__DEFINE
TILEHYBRID__COLD void tile__fp_warn(void)
{
    static int said;
    if (said)
        return;
    said = 1;
    fprintf(stderr, "tiling.h: rank 0: warning: %s (or define TILE_STRICT to have the plan "
            "refused)\n", TILE__FP_TEXT);
}
#endif

#if TILEHYBRID__DEFINE
/* How many of the plan's ranks share this node's memory (run.node_ranks):
 * MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), collective, made by every
 * rank at the start of the creation (before any rank can fail). */
TILEHYBRID__COLD void tile__node_ranks(tile_plan *p)
{
    MPI_Comm node = MPI_COMM_NULL;
    const char *call = "MPI_Comm_split_type";
    int rc = MPI_Comm_split_type(p->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    p->run.node_ranks = 1;
    if (rc == MPI_SUCCESS && (rc = MPI_Comm_size(node, &p->run.node_ranks)) != MPI_SUCCESS)
        call = "MPI_Comm_size";
    if (rc == MPI_SUCCESS && (rc = MPI_Comm_free(&node)) != MPI_SUCCESS)
        call = "MPI_Comm_free";
    if (rc != MPI_SUCCESS)
        tile__mpi_failed(p, -1, rc, call, "in tile_plan_create(), counting the ranks on this "
                         "node (the default memory limit)");
}

/* The plan's own communicator: a duplicate of comm that returns errors.  A
 * failed call goes through tile__mpi_failed() (the others wait in the
 * collective MPI_Comm_dup): on comm itself when the duplicate failed. */
TILEHYBRID__COLD int tile__dup(tile_plan *plan, MPI_Comm comm)
{
    const char *call = "MPI_Comm_dup";
    int rc;
    (void)MPI_Comm_rank(comm, &plan->rank);     /* for the message */
    rc = MPI_Comm_dup(comm, &plan->comm);
    if (rc != MPI_SUCCESS) {
        plan->comm = comm;      /* abort (revoke) comm: no duplicate to abort */
        tile__mpi_failed(plan, -1, rc, call, "in tile_plan_create(), duplicating comm");
        plan->comm = MPI_COMM_NULL;
        return plan->status.code;
    }
    if ((rc = MPI_Comm_set_errhandler(plan->comm, MPI_ERRORS_RETURN)) != MPI_SUCCESS)
        call = "MPI_Comm_set_errhandler";
    else if ((rc = MPI_Comm_size(plan->comm, &plan->size)) != MPI_SUCCESS)
        call = "MPI_Comm_size";
    else if ((rc = MPI_Comm_rank(plan->comm, &plan->rank)) != MPI_SUCCESS)
        call = "MPI_Comm_rank";
    if (rc != MPI_SUCCESS)
        tile__mpi_failed(plan, -1, rc, call, "in tile_plan_create(), on the duplicate of comm");
    else
        tile__node_ranks(plan);
    return plan->status.code;
}

/* tile_plan_create() on a plan that exists; @why_null names a NULL
 * argument of the caller's (this rank then fails, but still takes part in
 * every collective, so the other ranks do not wait for it). */
TILEHYBRID__COLD int tile__create(tile_plan *plan, MPI_Comm comm, const tile_config *cfg,
                                  const char *why_null, int fp)
{
    memset(plan, 0, sizeof *plan);
    plan->comm = MPI_COMM_NULL;
    tilehybrid_status_set(&plan->status, TILE_OK, "", -1);
    if (cfg != NULL)
        plan->cfg = *cfg;
    else
        tile_config_init(&plan->cfg, 1);
    if (comm == MPI_COMM_NULL)
        return tile__fail(plan, TILE_ERR_NULL, "comm", -1, "comm is MPI_COMM_NULL");
    if (tile__dup(plan, comm) != TILE_OK)
        return plan->status.code;
    if (why_null != NULL)
        tile__fail(plan, TILE_ERR_NULL, why_null, -1, "%s is NULL", why_null);
    else if (fp == (TILE__FP_CONTRACTS | TILE__FP_STRICT))
        tile__fail(plan, TILE_ERR_ARG, "TILE_STRICT", -1, "refused under TILE_STRICT: %s",
                   TILE__FP_TEXT);
    if (tile__check_all(plan) != TILE_OK)
        return plan->status.code;
    plan->run.created = tile__setup(plan) == TILE_OK;
    if (plan->run.created && fp == TILE__FP_CONTRACTS && plan->rank == 0)
        tile__fp_warn();
    return plan->status.code;
}

/**
 * tile_plan_create() - set up a process's share of a tiled computation.
 * @plan: the plan to fill (destroy it with tile_plan_destroy, also on error).
 * @comm: the processes that take part (duplicated; not modified).
 * @cfg:  what to compute (see tile_config); every rank must pass the same.
 *
 * Collective over comm.  Checks the arguments and that every rank passed
 * the same, chooses the process grid (cfg.grid entries that are 0 with
 * cfg.grid_policy, through topology.h) and the thread grid, checks MPI's
 * thread support for cfg.model, computes every size and refuses what cannot
 * work before allocating the local block with its ghost layers and the Z
 * window, and sets up the funneled model's balancing (balance.h; a
 * ping-pong when the network must be measured).
 *
 * A NULL @plan or @cfg on one rank is TILE_ERR_NULL on every rank (that
 * rank still takes part in the collectives; with a NULL @plan, the other
 * ranks' message names it and this rank only gets the code).
 *
 * Return: TILE_OK, or an error code, the same on every rank, with a message
 * naming the argument (and the rank that found it) in plan->errmsg.
 */
TILEHYBRID__COLD int tile__plan_create_fp(tile_plan *plan, MPI_Comm comm, const tile_config *cfg,
                                          int fp, const void *abi);
TILEHYBRID__COLD int tile_plan_create(tile_plan *plan, MPI_Comm comm, const tile_config *cfg)
{
    return tile__plan_create_fp(plan, comm, cfg, 0, NULL);
}

/* tile_plan_create() with what the caller's file does to a * b + c (fp:
 * TILE__FP_CONTRACTS, TILE__FP_STRICT; the macro tile_plan_create()), and
 * under TILEHYBRID_SEPARATE the address of the caller's TILE__ABI, which
 * only makes the linker check that it exists. */
TILEHYBRID__COLD int tile__plan_create_fp(tile_plan *plan, MPI_Comm comm, const tile_config *cfg,
                                          int fp, const void *abi)
{
    (void)abi;
    if (plan == NULL) {
        /* a plan of our own for the collectives; the caller has none */
        tile_plan *own = (tile_plan *)TILEHYBRID_MALLOC(sizeof *own);
        if (own != NULL) {
            tile__create(own, comm, cfg, "plan", fp);
            tile_plan_destroy(own);
            TILEHYBRID_FREE(own);
        }
        return TILE_ERR_NULL;
    }
    return tile__create(plan, comm, cfg, cfg == NULL ? "cfg" : NULL, fp);
}

/** tile_plan_destroy() - free everything a plan holds (safe on a failed or
 *  zeroed plan).  On a plan whose run a `return` left unfinished with more
 *  than one process, it ends the job first (see "The body"). */
TILEHYBRID__COLD void tile_plan_destroy(tile_plan *plan)
{
    int i;
    if (plan == NULL)
        return;
    if (plan->run.active && plan->comm != MPI_COMM_NULL && plan->comm != 0)
        tile__left_body(plan);      /* a run left unfinished: ends the job at > 1 process */
    tile__messages_free(plan);      /* before the buffers and the communicator */
    for (i = 0; i < TILE_MAX_DIMS; i++) {
        TILEHYBRID_FREE(plan->threads.split[i]);
        TILEHYBRID_FREE(plan->store.sbuf[i]);
        TILEHYBRID_FREE(plan->store.rbuf[i]);
        plan->threads.split[i] = NULL;
        plan->store.sbuf[i] = plan->store.rbuf[i] = NULL;
    }
    TILEHYBRID_FREE(plan->threads.coord);
    TILEHYBRID_FREE(plan->threads.delay);
    tile__fence_free(plan);
    TILEHYBRID_FREE(plan->store.ring_mem);
    TILEHYBRID_FREE(plan->run.resume);
    TILEHYBRID_FREE(plan->run.seg);
    TILEHYBRID_FREE(plan->run.req);
    TILEHYBRID_FREE(plan->run.nreq);
    TILEHYBRID_FREE(plan->run.preq);
    TILEHYBRID_FREE(plan->run.part);
    plan->run.preq = NULL;
    plan->run.part = NULL;
    TILEHYBRID_FREE(plan->run.stats);
    for (i = 0; plan->run.slot != NULL && i < plan->cfg.threads; i++)
        TILEHYBRID_FREE(plan->run.slot[i].scratch);
    TILEHYBRID_FREE(plan->run.slot);
    TILEHYBRID_FREE(plan->run.next_tile);
    TILEHYBRID_FREE(plan->run.sigma);
    TILEHYBRID_FREE(plan->run.bounds);
    tile__io_free(plan);
    plan->threads.coord = plan->threads.delay = plan->run.nreq = NULL;
    plan->store.ring = plan->store.ring_mem = NULL;
    plan->run.seg = plan->run.next_tile = plan->run.sigma = plan->run.bounds = NULL;
    plan->run.req = NULL;
    plan->run.resume = NULL;
    plan->run.ckpt = NULL;          /* (destroy a checkpoint of the plan before it) */
    plan->run.stats = NULL;
    plan->run.settled = 0;          /* (a run of a destroyed plan agrees: refused) */
    if (plan->comm != MPI_COMM_NULL && plan->comm != 0)
        (void)MPI_Comm_free(&plan->comm);   /* nothing to report from a destructor */
    plan->comm = MPI_COMM_NULL;
}
#else
TILEHYBRID__COLD void tile__node_ranks(tile_plan *p);
TILEHYBRID__COLD int tile__dup(tile_plan *plan, MPI_Comm comm);
TILEHYBRID__COLD int tile__create(tile_plan *plan, MPI_Comm comm, const tile_config *cfg,
                                  const char *why_null, int fp);
TILEHYBRID__COLD int tile_plan_create(tile_plan *plan, MPI_Comm comm, const tile_config *cfg);
TILEHYBRID__COLD int tile__plan_create_fp(tile_plan *plan, MPI_Comm comm, const tile_config *cfg,
                                          int fp, const void *abi);
TILEHYBRID__COLD void tile_plan_destroy(tile_plan *plan);
#endif
