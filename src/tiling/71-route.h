/* ------------------------------------------------------------------------ */
/* Routes: a tile_exchange() made once and run many times                   */

/**
 * struct tile_route - a persistent box-to-box movement between two fixed
 * arrays (tile_route_create()): what tile_exchange() does in one call,
 * with its collective set-up done once and each run only the messages
 * between ranks whose boxes meet.  Private fields but @code and @errmsg:
 * TILE_OK, or why the creation or a run failed.  It owns its MPI
 * requests: pass it by pointer, never copy it (a copy would run them after
 * the original's tile_route_destroy()).
 */
typedef struct tile_route {
    MPI_Comm comm;                  /* its own: a duplicate of the plan's */
    int rank, size, nreq;
    MPI_Request *req;               /* a persistent receive and send per peer */
    MPI_Status *st;
    MPI_Datatype *types;            /* 2 P subarray types (MPI_DATATYPE_NULL: none) */
    int64_t runs;
    int yield;                      /* its waits yield the processor: its plan's (12-wait.h) */
    int code;
    char errmsg[320];
} tile_route;

#if TILEHYBRID__DEFINE
/**
 * tile_route_destroy() - free the route's requests, types and
 * communicator (not collective; safe on a failed route, and twice); a run
 * after it fails with TILE_ERR_ARG and sends nothing.
 */
TILEHYBRID__COLD void tile_route_destroy(tile_route *r)
{
    int i, fin = 0;
    if (r == NULL)
        return;
    MPI_Finalized(&fin);
    for (i = 0; !fin && r->req != NULL && i < r->nreq; i++)
        (void)MPI_Request_free(&r->req[i]);
    if (!fin)
        tile__free_types(r->types, r->types == NULL ? 0 : 2 * r->size);
    else
        TILEHYBRID_FREE(r->types);
    TILEHYBRID_FREE(r->req);
    TILEHYBRID_FREE(r->st);
    r->req = NULL;
    r->st = NULL;
    r->types = NULL;
    r->nreq = 0;
    if (!fin && r->comm != MPI_COMM_NULL)
        (void)MPI_Comm_free(&r->comm);
    r->comm = MPI_COMM_NULL;
    if (r->code == TILE_OK) {
        r->code = TILE_ERR_ARG;
        snprintf(r->errmsg, sizeof r->errmsg, "the route was destroyed (tile_route_destroy)");
    }
}

/* The persistent requests of prepared movement m (its counts; its types,
 * now r->types), src and dst fixed: an MPI code. */
TILEHYBRID__COLD int tile__route_requests(tile_route *r, const tile__move *m, const void *src,
                                          void *dst)
{
    int P = r->size, q, rc = MPI_SUCCESS;
    r->req = (MPI_Request *)TILEHYBRID_MALLOC(sizeof(MPI_Request) * 2 * (size_t)P);
    r->st = (MPI_Status *)TILEHYBRID_MALLOC(sizeof(MPI_Status) * 2 * (size_t)P);
    if (r->req == NULL || r->st == NULL)
        return MPI_ERR_NO_MEM;
    for (q = 0; q < P && rc == MPI_SUCCESS; q++)
        if (m->a.rcount[q] > 0 &&
            (rc = MPI_Recv_init(dst, 1, r->types[P + q], q, 0, r->comm, &r->req[r->nreq])) ==
                MPI_SUCCESS)
            r->nreq++;
    for (q = 0; q < P && rc == MPI_SUCCESS; q++)
        if (m->a.scount[q] > 0 &&
            (rc = MPI_Send_init(src, 1, r->types[q], q, 0, r->comm, &r->req[r->nreq])) ==
                MPI_SUCCESS)
            r->nreq++;
    return rc;
}

/**
 * tile_route_create() - a route from this rank's array @src over box
 * @have to its array @dst over box @want: tile_exchange()'s movement,
 * prepared once for these two arrays.
 * @r:    the route.
 * @plan: a plan whose communicator carries it (created, not running).
 * @esz, @have, @src, @want, @dst: as tile_exchange()'s, checked as it
 *        checks them (every point of want in exactly one rank's have box,
 *        dst not sharing memory with src); the arrays must stay alive at
 *        these addresses until tile_route_destroy().
 * @st:   NULL, or the argument at fault and the rank that found it.
 *
 * Collective over the plan's communicator (one agreement, one
 * MPI_Allgather of the boxes, one MPI_Comm_dup): every rank gets the same
 * verdict, in r->code and r->errmsg (and plan->errmsg).  Then each
 * tile_route_run() moves the arrays' current contents.
 * Return: TILE_OK, or tile_exchange()'s codes.
 */
TILEHYBRID__COLD int tile_route_create(tile_route *r, tile_plan *plan, size_t esz,
                                       const tile_box *have, const void *src,
                                       const tile_box *want, void *dst, tilehybrid_status *st)
{
    static const char *const argn[7] = { "tile_route_create", "elem_size", "ndims", "have",
                                         "src", "want", "dst" };
    char msg[sizeof plan->errmsg] = "";
    tile__move m;
    int rc;
    if (r == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NULL, "r", -1);
    memset(r, 0, sizeof *r);
    r->comm = MPI_COMM_NULL;
    if ((rc = tile__busy_refused(plan)) != TILE_OK) {
        snprintf(r->errmsg, sizeof r->errmsg, "tile_route_create: the plan is not ready "
                 "(failed, or running)");
        return r->code = tilehybrid_status_set(st, rc, "plan", -1);
    }
    r->rank = plan->rank;
    r->size = plan->size;
    r->yield = plan->run.yield;
    rc = tile__exchange_setup(plan, esz, have, src, want, dst, argn, &m, st);
    if (rc == TILE_OK) {
        int mpi = MPI_Comm_dup(plan->comm, &r->comm);
        if (mpi != MPI_SUCCESS)
            r->comm = MPI_COMM_NULL;
        r->types = m.sub;           /* the route's now: its requests use them */
        m.sub = NULL;
        if (mpi == MPI_SUCCESS)
            mpi = tile__route_requests(r, &m, src, dst);
        rc = tile__mpi_code(mpi, argn[0], "MPI_Comm_dup or a persistent request failed",
                            msg, sizeof msg);
        rc = tile__data_agree(plan, rc, -1, msg, NULL, 0, argn, st);
    }
    tile__move_free(&m, plan->size);
    if (rc != TILE_OK) {
        snprintf(r->errmsg, sizeof r->errmsg, "%s", plan->errmsg);
        r->code = rc;               /* (before the destruction: its verdict stays) */
        tile_route_destroy(r);
        return rc;
    }
    return TILE_OK;
}

/**
 * tile_route_run() - move the arrays' current contents: src's points go
 * to the dst of every rank that wants them (this rank's own included).
 * @r: the route.
 * Not collective: messages between the ranks whose boxes meet only (one
 * MPI_Startall, one MPI_Waitall), but every rank of the route must run it
 * the same number of times (a rank that does not leaves its peers
 * waiting).  dst must not be read or written during the call (it does not
 * return before every message has arrived).
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_ARG (a route that failed or was
 * destroyed: nothing sent), TILE_ERR_MPI (the message in r->errmsg: this
 * rank's; its peers may wait for ever: end the job with MPI_Abort).
 */
TILEHYBRID__COLD int tile_route_run(tile_route *r)
{
    int rc;
    if (r == NULL)
        return TILE_ERR_NULL;
    if (r->code != TILE_OK || r->comm == MPI_COMM_NULL)
        return r->code != TILE_OK ? r->code : TILE_ERR_ARG;
    r->runs++;
    if (r->nreq == 0)
        return TILE_OK;
    rc = MPI_Startall(r->nreq, r->req);
    if (rc == MPI_SUCCESS)
        rc = tile__waitall(r->nreq, r->req, r->st, r->yield);
    if (rc != MPI_SUCCESS) {
        char text[MPI_MAX_ERROR_STRING];
        tilehybrid__mpi_error_text(rc, text);
        snprintf(r->errmsg, sizeof r->errmsg, "tile_route_run: rank %d: run %lld: "
                 "MPI_Startall or %s failed: %.200s", r->rank, (long long)r->runs,
                 r->yield ? "MPI_Testall" : "MPI_Waitall", text);
        return r->code = TILE_ERR_MPI;
    }
    return TILE_OK;
}
#else
TILEHYBRID__COLD void tile_route_destroy(tile_route *r);
TILEHYBRID__COLD int tile__route_requests(tile_route *r, const tile__move *m, const void *src,
                                          void *dst);
TILEHYBRID__COLD int tile_route_create(tile_route *r, tile_plan *plan, size_t esz,
                                       const tile_box *have, const void *src,
                                       const tile_box *want, void *dst, tilehybrid_status *st);
TILEHYBRID__COLD int tile_route_run(tile_route *r);
#endif
