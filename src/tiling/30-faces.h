/* ------------------------------------------------------------------------ */
/* Whole-face messages (models mpi, fine, funneled)                         */

#if TILEHYBRID__DEFINE
/**
 * tile_mpi_check() - an MPI call of thread @t in a run: a failure is the
 * run's error, handled as the engine's own (see "MPI failures": reported,
 * then the plan's communicator is aborted).
 * @p:    the plan.
 * @t:    the calling thread (0 outside a parallel region).
 * @rc:   the call's return code.
 * @call: the call's name for the message ("MPI_Isend").
 * Return: @rc.
 */
TILEHYBRID__COLD int tile_mpi_check(tile_plan *p, int t, int rc, const char *call)
{
    if (rc != MPI_SUCCESS)
        tile__mpi_failed(p, t, rc, call != NULL ? call : "an MPI call", "in a run");
    return rc;
}
#else
TILEHYBRID__COLD int tile_mpi_check(tile_plan *p, int t, int rc, const char *call);
#endif

/* A message of @bytes as (count, type): bytes of MPI_BYTE up to
 * TILE_MSG_MAX, else one element of a derived datatype (whole blocks of
 * TILE_MSG_MAX bytes, then the rest), which *big holds (free it after
 * posting; MPI_DATATYPE_NULL when none).  Returns an MPI code; *call names
 * the call that failed. */
static inline int tile__msg_type(int64_t bytes, int *count, MPI_Datatype *type,
                                 MPI_Datatype *big, const char **call)
{
    int64_t B = TILE_MSG_MAX, nb = bytes / B, rest = bytes % B;
    MPI_Datatype blk = MPI_DATATYPE_NULL, types[2];
    int lens[2], rc;
    MPI_Aint disp[2];
    *big = MPI_DATATYPE_NULL;
    *count = (int)bytes;
    *type = MPI_BYTE;
    if (bytes <= B)
        return MPI_SUCCESS;
    lens[0] = (int)nb;      /* nb <= INT_MAX: tile__face_size checked it */
    lens[1] = (int)rest;
    disp[0] = 0;
    disp[1] = (MPI_Aint)(nb * B);
    *call = "MPI_Type_contiguous";
    rc = MPI_Type_contiguous((int)B, MPI_BYTE, &blk);
    if (rc == MPI_SUCCESS) {
        types[0] = blk;
        types[1] = MPI_BYTE;
        *call = "MPI_Type_create_struct";
        rc = MPI_Type_create_struct(rest > 0 ? 2 : 1, lens, disp, types, big);
        (void)MPI_Type_free(&blk);  /* the struct type keeps what it needs */
    }
    if (rc == MPI_SUCCESS) {
        *call = "MPI_Type_commit";
        rc = MPI_Type_commit(big);
        if (rc != MPI_SUCCESS)
            (void)MPI_Type_free(big);
    }
    if (rc != MPI_SUCCESS)
        *big = MPI_DATATYPE_NULL;
    *count = 1;
    *type = *big;
    return rc;
}

/* Post (@persistent 0: MPI_Isend / MPI_Irecv) or make (1: MPI_Send_init /
 * MPI_Recv_init) the request *q of a face message of @bytes at @buf, to or
 * from @peer with @tag, as tile__msg_type() says.  Returns an MPI code;
 * *call names the call (the one that failed). */
static inline int tile__msg_request(tile_plan *p, int persistent, int send, void *buf,
                                    int64_t bytes, int peer, int tag, MPI_Request *q,
                                    const char **call)
{
    static const char *const name[2][2] = { { "MPI_Irecv", "MPI_Isend" },
                                            { "MPI_Recv_init", "MPI_Send_init" } };
    int count = 0, rc;
    MPI_Datatype type = MPI_BYTE, big = MPI_DATATYPE_NULL;
    *call = name[persistent][send];
    rc = tile__msg_type(bytes, &count, &type, &big, call);
    if (rc == MPI_SUCCESS) {
        *call = name[persistent][send];
        if (persistent)
            rc = send ? MPI_Send_init(buf, count, type, peer, tag, p->comm, q)
                      : MPI_Recv_init(buf, count, type, peer, tag, p->comm, q);
        else
            rc = send ? MPI_Isend(buf, count, type, peer, tag, p->comm, q)
                      : MPI_Irecv(buf, count, type, peer, tag, p->comm, q);
    }
    if (big != MPI_DATATYPE_NULL)
        (void)MPI_Type_free(&big);  /* a pending request completes normally */
    return rc;
}

/**
 * tile_post() - post thread t's nonblocking send (@send 1) or receive of
 * a face message: @bytes at @buf to or from rank @peer with @tag on the
 * plan's communicator, request in *q.  Messages above TILE_MSG_MAX bytes
 * go as one element of a derived datatype.  A failure is handled as the
 * engine's (reported naming the call, the rank, thread t and tile @k,
 * then the communicator is aborted; "MPI failures").
 * @p: the plan; @t: the thread; @k: the tile (for the message).
 * Return: 1 if the request was posted (count it), else 0.
 */
static inline int tile_post(tile_plan *p, int t, int send, void *buf, int64_t bytes, int peer,
                            int tag, MPI_Request *q, int64_t k)
{
    const char *call;
    int rc = tile__msg_request(p, 0, send, buf, bytes, peer, tag, q, &call);
    if (rc == MPI_SUCCESS)
        return 1;
    tile__mpi_failed(p, t, rc, call, "%s tile %lld's face (%lld bytes) %s rank %d",
                     send ? "sending" : "receiving", (long long)k, (long long)bytes,
                     send ? "to" : "from", peer);
    return 0;
}

/* The persistent request of thread t's message along dimension i: @last
 * for the last tile when it is shorter than the others, @send 1 to send.
 * MPI_REQUEST_NULL where there is none (no neighbour, an empty part, no
 * shorter last tile, or its creation failed). */
static inline MPI_Request *tile__preq(const tile_plan *p, int t, int last, int send, int i)
{
    return &p->run.preq[((t * 2 + last) * 2 + send) * p->cfg.n + i];
}

/* 1 if tile k is the last and shorter than tile 0 (its own requests). */
static inline int tile__short(const tile_plan *p, int64_t k)
{
    return k == p->ntiles - 1 && k > 0 &&
           tile__tile_z1(p, k) - tile__tile_z0(p, k) != tile__tile_z1(p, 0);
}

/* Thread t's face message of tile k along dimension i (@bytes at @buf, to
 * or from @peer with @tag): posted now (TILE_MESSAGES_NONBLOCKING), or its
 * persistent request (made with the same buffer, size, peer and tag)
 * queued for tile__start.  The list keeps the sends first. */
static inline void tile__msg(tile_plan *p, int t, int send, void *buf, int64_t bytes, int peer,
                             int tag, int64_t k, int i)
{
    MPI_Request *q = &p->run.req[t * 2 * p->cfg.n + p->run.nreq[t]];
    int posted;
    if (p->run.messaging == TILE_MESSAGES_NONBLOCKING) {
        posted = tile_post(p, t, send, buf, bytes, peer, tag, q, k);
    } else {
        *q = *tile__preq(p, t, tile__short(p, k), send, i);
        posted = *q != MPI_REQUEST_NULL;
    }
    p->run.nreq[t] += posted;
    p->run.nreq[p->cfg.threads + t] += posted && send;
}

/* Start thread t's persistent requests queued from position @from on, with
 * one MPI_Startall (nothing to do for nonblocking messages, already
 * posted); @k names the tile if it fails (handled as the engine's). */
TILEHYBRID__WARM void tile__start(tile_plan *p, int t, int from, int64_t k);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void tile__start(tile_plan *p, int t, int from, int64_t k)
{
    int n = p->run.nreq[t] - from, rc;
    if (n <= 0 || p->run.messaging == TILE_MESSAGES_NONBLOCKING)
        return;
    rc = MPI_Startall(n, &p->run.req[t * 2 * p->cfg.n + from]);
    if (rc == MPI_SUCCESS)
        return;
    p->run.nreq[t] = from;      /* nothing of these to wait for */
    if (p->run.nreq[p->cfg.threads + t] > from)
        p->run.nreq[p->cfg.threads + t] = from;
    tile__mpi_failed(p, t, rc, "MPI_Startall", "starting %d face message%s of tile %lld", n,
                     n == 1 ? "" : "s", (long long)k);
}
#endif

/* Send the face of tile k in every dimension with a successor. */
static inline void tile__wf_send(tile_plan *p, int64_t k)
{
    int i;
    for (i = 0; i < p->cfg.n; i++) {
        int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0}, bytes;
        if (p->nbr_hi[i] == MPI_PROC_NULL)
            continue;
        tile__block_face(p, i, 0, lo, hi);
        bytes = tile__pack_face(p, k, lo, hi, p->store.sbuf[i], 1);
        tile__msg(p, 0, 1, p->store.sbuf[i], bytes, p->nbr_hi[i], 0, k, i);
        p->run.stats[0].bytes_sent += bytes;
        p->run.stats[0].messages++;
    }
}

/* Post the receives of tile k's ghost faces. */
static inline void tile__wf_recv(tile_plan *p, int64_t k)
{
    int i;
    for (i = 0; i < p->cfg.n; i++) {
        int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0};
        if (p->nbr_lo[i] == MPI_PROC_NULL)
            continue;
        tile__block_face(p, i, 1, lo, hi);
        tile__msg(p, 0, 0, p->store.rbuf[i], tile_box_bytes(p, k, lo, hi), p->nbr_lo[i], 0, k,
                  i);
    }
}

/* At step s: send the face of the tile every face thread finished at step
 * s - 1 (tile k with sigma(k) + S + 1 == s), post the receive for the tile
 * that starts at step s + 1; one MPI_Startall for both. */
TILEHYBRID__WARM void tile__wf_begin(tile_plan *p, int64_t s);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void tile__wf_begin(tile_plan *p, int64_t s)
{
    int64_t k = p->run.send_next, r = p->run.recv_next, named = -1;
    int from = p->run.nreq[0];
    if (k < p->ntiles && k < p->run.announced && tile__sigma(p, k) + p->threads.skew + 1 == s) {
        tile__wf_send(p, k);
        p->run.send_next++;
        named = k;
    }
    if (r < p->ntiles && r < p->run.announced && tile__sigma(p, r) - 1 == s) {
        tile__wf_recv(p, r);
        p->run.recv_pending = r;
        p->run.recv_next++;
        named = named < 0 ? r : named;
    }
    tile__start(p, 0, from, named);
}
#endif

/**
 * tile_waitall() - complete thread @me's requests (yielding the processor
 * between polls on an oversubscribed node: 12-wait.h); the time goes to
 * its stats.wait.  @p: the plan; @k: the tile whose messages they are (for the
 * message if MPI_Waitall fails: handled as the engine's, "MPI failures").
 */
TILEHYBRID__WARM void tile_waitall(tile_plan *p, int me, int64_t k);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void tile_waitall(tile_plan *p, int me, int64_t k)
{
    MPI_Status st[2 * TILE_MAX_DIMS];  /* not MPI_STATUSES_IGNORE: gcc 12 warns on it */
    double t0;
    int rc, n = p->run.nreq[me];
    if (n == 0)
        return;
    t0 = tile_wtime();
    rc = tile__waitall(n, &p->run.req[me * 2 * p->cfg.n], st, p->run.yield);
    p->run.nreq[me] = p->run.nreq[p->cfg.threads + me] = 0;
    p->run.stats[me].wait += tile_wtime() - t0;
    if (rc != MPI_SUCCESS)
        tile__mpi_failed(p, me, rc, p->run.yield ? "MPI_Testall" : "MPI_Waitall",
                         "completing %d face message%s of tile %lld",
                         n, n == 1 ? "" : "s", (long long)k);
}
#endif

/* Whether this rank has a neighbour to send to or receive from. */
static inline int tile__talks(const tile_plan *p)
{
    int i;
    for (i = 0; i < p->cfg.n; i++)
        if (p->nbr_lo[i] != MPI_PROC_NULL || p->nbr_hi[i] != MPI_PROC_NULL)
            return 1;
    return 0;
}

/* The tile of the whole-face messages in flight: the one received, else
 * the one sent. */
static inline int64_t tile__wf_tile(const tile_plan *p)
{
    return p->run.recv_pending >= 0 ? p->run.recv_pending : p->run.send_next - 1;
}

/* Wait for the step's messages, unpack the tile received. */
TILEHYBRID__WARM void tile__wf_end(tile_plan *p);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void tile__wf_end(tile_plan *p)
{
    double t0;
    int i;
    tile_waitall(p, 0, tile__wf_tile(p));
    if (p->run.recv_pending >= 0) {
        t0 = tile_wtime();
        for (i = 0; i < p->cfg.n; i++) {
            int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0};
            if (p->nbr_lo[i] == MPI_PROC_NULL)
                continue;
            tile__block_face(p, i, 1, lo, hi);
            tile__pack_face(p, p->run.recv_pending, lo, hi, p->store.rbuf[i], 0);
        }
        p->run.recv_pending = -1;
        p->run.stats[0].comm += tile_wtime() - t0;
    }
}
#endif

