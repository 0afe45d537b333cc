/* ------------------------------------------------------------------------ */
/* Face messages: persistent and partitioned requests                       */

/* The multiple model's parts of a face: thread t sends its part along i if
 * it is last along i, receives one if it is first; its partition (and tag)
 * is its coordinates with t_i dropped, in 0 .. prod_{j != i} T_j - 1. */
static inline int tile__is_sender(const tile_plan *p, int t, int i)
{
    return p->threads.coord[t * p->cfg.n + i] == p->threads.dims[i] - 1;
}

static inline int tile__is_receiver(const tile_plan *p, int t, int i)
{
    return p->threads.coord[t * p->cfg.n + i] == 0;
}

static inline int tile__part_index(const tile_plan *p, int t, int i)
{
    int j, idx = 0;
    for (j = 0; j < p->cfg.n; j++)
        if (j != i)
            idx = idx * p->threads.dims[j] + p->threads.coord[t * p->cfg.n + j];
    return idx;
}

#if TILEHYBRID__DEFINE
/* Offsets of the threads' parts in the face buffers (multiple model): the
 * senders' parts tile the send buffer, the receivers' the receive buffer (a
 * thread that is both, T_i = 1, has the same offset in both).  Tile 0 is
 * the tallest; the model does not rebalance, so the boxes hold for every
 * tile (the schedule's bounds start as the even split). */
TILEHYBRID__COLD void tile__part_offsets(tile_plan *p)
{
    int n = p->cfg.n, T = p->cfg.threads, i, t;
    for (i = 0; i < n; i++) {
        int64_t sent = 0, recvd = 0;
        for (t = 0; t < T; t++) {
            int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0}, part;
            int snd = tile__is_sender(p, t, i), rcv = tile__is_receiver(p, t, i);
            tile_thread_face(p, t, 0, i, 0, lo, hi);
            part = tile_box_bytes(p, 0, lo, hi);
            p->run.seg[i * T + t] = snd ? sent : recvd;
            sent += snd ? part : 0;
            recvd += rcv ? part : 0;
        }
    }
}

/* Make the persistent request *q of a face message (MPI_Send_init or
 * MPI_Recv_init; above TILE_MSG_MAX bytes one element of a derived
 * datatype, which the request keeps).  A failure is handled as the
 * engine's (*q stays MPI_REQUEST_NULL). */
TILEHYBRID__COLD void tile__pinit(tile_plan *p, int send, void *buf, int64_t bytes, int peer,
                                  int tag, int i, MPI_Request *q)
{
    const char *call;
    int rc = tile__msg_request(p, 1, send, buf, bytes, peer, tag, q, &call);
    if (rc == MPI_SUCCESS)
        return;
    *q = MPI_REQUEST_NULL;
    tile__mpi_failed(p, -1, rc, call, "creating the plan's persistent %s of %lld-byte faces "
                     "along dimension %d %s rank %d", send ? "send" : "receive",
                     (long long)bytes, i + 1, send ? "to" : "from", peer);
}

/* The whole-face requests (models mpi, fine, funneled: thread 0), for tile
 * 0 and, if shorter, the last tile. */
TILEHYBRID__COLD void tile__wf_requests(tile_plan *p, int last)
{
    int64_t k = last ? p->ntiles - 1 : 0;
    int i;
    for (i = 0; i < p->cfg.n && p->status.code == TILE_OK; i++) {
        int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0};
        if (p->nbr_hi[i] != MPI_PROC_NULL) {
            tile__block_face(p, i, 0, lo, hi);
            tile__pinit(p, 1, p->store.sbuf[i], tile_box_bytes(p, k, lo, hi), p->nbr_hi[i], 0,
                        i, tile__preq(p, 0, last, 1, i));
        }
        if (p->nbr_lo[i] != MPI_PROC_NULL && p->status.code == TILE_OK) {
            tile__block_face(p, i, 1, lo, hi);
            tile__pinit(p, 0, p->store.rbuf[i], tile_box_bytes(p, k, lo, hi), p->nbr_lo[i], 0,
                        i, tile__preq(p, 0, last, 0, i));
        }
    }
}

/* The multiple model's requests: each thread's parts (not the empty ones),
 * its coordinates in the tag. */
TILEHYBRID__COLD void tile__part_requests(tile_plan *p, int last)
{
    int64_t k = last ? p->ntiles - 1 : 0;
    int T = p->cfg.threads, t, i, g;
    for (t = 0; t < T; t++)
        for (i = 0; i < p->cfg.n && p->status.code == TILE_OK; i++)
            for (g = 0; g < 2; g++) {
                int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0}, bytes;
                int peer = g ? p->nbr_lo[i] : p->nbr_hi[i];
                unsigned char *buf = g ? p->store.rbuf[i] : p->store.sbuf[i];
                if (peer == MPI_PROC_NULL || !(g ? tile__is_receiver(p, t, i)
                                                 : tile__is_sender(p, t, i)))
                    continue;
                tile_thread_face(p, t, 0, i, g, lo, hi);
                bytes = tile_box_bytes(p, k, lo, hi);
                if (bytes > 0 && p->status.code == TILE_OK)
                    tile__pinit(p, !g, buf + p->run.seg[i * T + t], bytes, peer,
                                tile__part_index(p, t, i), i, tile__preq(p, t, last, !g, i));
            }
}
#else
TILEHYBRID__COLD void tile__part_offsets(tile_plan *p);
TILEHYBRID__COLD void tile__pinit(tile_plan *p, int send, void *buf, int64_t bytes, int peer,
                                  int tag, int i, MPI_Request *q);
TILEHYBRID__COLD void tile__wf_requests(tile_plan *p, int last);
TILEHYBRID__COLD void tile__part_requests(tile_plan *p, int last);
#endif

/* The multiple model's partitioned messages (TILE_MESSAGES_PARTITIONED):
 * along dimension i, the m-th message carries one partition per thread on
 * the face (tile__part_index), each sender thread's part of the tile it
 * computed at step m + T_i - 1, marked ready at step m + T_i; each
 * receiver thread waits at the end of step m - 1 for its part of the tile
 * it computes at step m (the same tile: the receiver's delay is the
 * sender's minus T_i - 1).  msgs[i] = ntiles + sum_{j != i} (T_j - 1)
 * messages a run, each of parts[i] partitions of pbytes[i] bytes (the
 * largest part; the last tile's are shorter).  Message m uses request and
 * buffer m % 2: thread 0 completes message m - 2 and starts message m
 * before the barrier of the step before the one where the other threads
 * touch it (tile__parted_cycle), and on[][][] says which are started. */
typedef struct tile__parted {
    MPI_Request req[2][2][TILE_MAX_DIMS];   /* [m % 2][send][i] */
    int on[2][2][TILE_MAX_DIMS];
    unsigned char *buf[2][2][TILE_MAX_DIMS];
    int64_t pbytes[TILE_MAX_DIMS];
    int parts[TILE_MAX_DIMS];
    int64_t msgs[TILE_MAX_DIMS];
} tile__parted;

#if TILE_HAVE_PARTITIONED
#if TILEHYBRID__DEFINE
/* Make the partitioned request of message parity m along i (@send 1: to
 * the successor), its buffer first; failures as the engine's. */
TILEHYBRID__COLD void tile__parted_init(tile_plan *p, int send, int i, int m)
{
    tile__parted *pa = p->run.part;
    const char *call = send ? "MPI_Psend_init" : "MPI_Precv_init";
    int count = 0, rc, peer = send ? p->nbr_hi[i] : p->nbr_lo[i];
    int64_t total = 0;
    MPI_Datatype type = MPI_BYTE, big = MPI_DATATYPE_NULL;
    MPI_Request *q = &pa->req[m][send][i];
    if (!tilehybrid_mul_ok(pa->pbytes[i], pa->parts[i], &total) ||
        (pa->buf[m][send][i] = (unsigned char *)tile__alloc(p, (size_t)total,
                                                            "the partitioned messages")) == NULL) {
        if (p->status.code == TILE_OK)
            tile__fail(p, TILE_ERR_OVERFLOW, "messages", i, "the partitioned message along "
                       "dimension %d is too large", i + 1);
        return;
    }
    rc = tile__msg_type(pa->pbytes[i], &count, &type, &big, &call);
    if (rc == MPI_SUCCESS) {
        call = send ? "MPI_Psend_init" : "MPI_Precv_init";
        rc = send ? MPI_Psend_init(pa->buf[m][send][i], pa->parts[i], count, type, peer, m,
                                   p->comm, MPI_INFO_NULL, q)
                  : MPI_Precv_init(pa->buf[m][send][i], pa->parts[i], count, type, peer, m,
                                   p->comm, MPI_INFO_NULL, q);
    }
    if (big != MPI_DATATYPE_NULL)
        (void)MPI_Type_free(&big);
    if (rc == MPI_SUCCESS)
        return;
    *q = MPI_REQUEST_NULL;
    tile__mpi_failed(p, -1, rc, call, "creating the plan's partitioned %s of faces along "
                     "dimension %d (%d partitions of %lld bytes) %s rank %d",
                     send ? "send" : "receive", i + 1, pa->parts[i], (long long)pa->pbytes[i],
                     send ? "to" : "from", peer);
}
#else
TILEHYBRID__COLD void tile__parted_init(tile_plan *p, int send, int i, int m);
#endif
#endif

#if TILEHYBRID__DEFINE
/* Set up the partitioned messages: sizes, buffers, requests. */
TILEHYBRID__COLD void tile__parted_setup(tile_plan *p)
{
    tile__parted *pa = (tile__parted *)tile__alloc(p, sizeof(tile__parted),
                                                   "the partitioned messages");
    int i, j, t, m, g;
    if ((p->run.part = pa) == NULL)
        return;
    for (m = 0; m < 2; m++)
        for (g = 0; g < 2; g++)
            for (i = 0; i < TILE_MAX_DIMS; i++)
                pa->req[m][g][i] = MPI_REQUEST_NULL;
    for (i = 0; i < p->cfg.n; i++) {
        pa->parts[i] = 1;
        pa->msgs[i] = p->ntiles;
        for (j = 0; j < p->cfg.n; j++)
            if (j != i) {
                pa->parts[i] *= p->threads.dims[j];
                pa->msgs[i] += p->threads.dims[j] - 1;
            }
        for (t = 0; t < p->cfg.threads; t++) {
            int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0}, b;
            tile_thread_face(p, t, 0, i, 0, lo, hi);
            b = tile_box_bytes(p, 0, lo, hi);
            if (tile__is_sender(p, t, i) && b > pa->pbytes[i])
                pa->pbytes[i] = b;
        }
#if TILE_HAVE_PARTITIONED
        for (m = 0; m < 2 && pa->pbytes[i] > 0 && p->status.code == TILE_OK; m++)
            for (g = 0; g < 2 && p->status.code == TILE_OK; g++)
                if ((g ? p->nbr_hi[i] : p->nbr_lo[i]) != MPI_PROC_NULL)
                    tile__parted_init(p, g, i, m);
#endif
    }
}

/* Make the plan's requests (at the end of tile_plan_create): the runs'
 * method (run.messaging), the multiple model's part offsets, then the
 * persistent or partitioned requests. */
TILEHYBRID__COLD void tile__messages_setup(tile_plan *p)
{
    int multiple = p->cfg.model == TILE_MODEL_MULTIPLE;
    p->run.messaging = p->cfg.messages;
    if (p->run.messaging == TILE_MESSAGES_PARTITIONED && (!multiple || !TILE_HAVE_PARTITIONED))
        p->run.messaging = TILE_MESSAGES_PERSISTENT;
#ifdef SMPI_SAMPLE_FLOPS
    /* SimGrid 3.32's SMPI reports a deadlock on the restarted persistent
     * face requests (2 ranks, 2 tiles); under SMPI the plan sends per-tile
     * messages, the ones the simulations in sim/ were validated with. */
    if (p->run.messaging == TILE_MESSAGES_PERSISTENT)
        p->run.messaging = TILE_MESSAGES_NONBLOCKING;
#endif
    if (multiple)
        tile__part_offsets(p);
    if (p->run.messaging == TILE_MESSAGES_PARTITIONED) {
        tile__parted_setup(p);
        return;
    }
    if (p->run.messaging != TILE_MESSAGES_PERSISTENT || p->ntiles < 1)
        return;
    (multiple ? tile__part_requests : tile__wf_requests)(p, 0);
    if (tile__short(p, p->ntiles - 1))
        (multiple ? tile__part_requests : tile__wf_requests)(p, 1);
}

/* Complete the requests a run left in flight (a `return` out of the loop,
 * an MPI failure under ULFM): cancel and complete the receives (their
 * buffers are about to be freed), let go of the sends (MPI_Request_free:
 * MPI completes them). */
TILEHYBRID__COLD void tile__messages_drain(tile_plan *p)
{
    int T = p->cfg.threads, t, j;
    for (t = 0; t < T && p->run.req != NULL && p->run.nreq != NULL; t++) {
        MPI_Request *r = &p->run.req[t * 2 * p->cfg.n];
        for (j = 0; j < p->run.nreq[t]; j++) {
            MPI_Request q = r[j];
            if (j >= p->run.nreq[T + t]) {
                (void)MPI_Cancel(&q);
                (void)MPI_Wait(&q, MPI_STATUS_IGNORE);
            } else if (p->run.messaging == TILE_MESSAGES_NONBLOCKING) {
                (void)MPI_Request_free(&q);
            }   /* a persistent send: freed with the plan's requests */
        }
        p->run.nreq[t] = p->run.nreq[T + t] = 0;
    }
}

/* Free request *q (MPI_Request_free; a failure is the engine's). */
TILEHYBRID__COLD void tile__request_free(tile_plan *p, MPI_Request *q, const char *what)
{
    int rc;
    if (*q == MPI_REQUEST_NULL)
        return;
    rc = MPI_Request_free(q);
    *q = MPI_REQUEST_NULL;
    if (rc != MPI_SUCCESS)
        tile__mpi_failed(p, -1, rc, "MPI_Request_free", "freeing the plan's %s in "
                         "tile_plan_destroy()", what);
}

/* Free the plan's requests and the partitioned buffers (tile_plan_destroy),
 * after completing what a run left in flight. */
TILEHYBRID__COLD void tile__messages_free(tile_plan *p)
{
    tile__parted *pa = p->run.part;
    int i, m, g, n = p->cfg.n * 4 * p->cfg.threads;
    if (p->comm == MPI_COMM_NULL || p->comm == 0)
        return;
    tile__messages_drain(p);
    for (i = 0; p->run.preq != NULL && i < n; i++)
        tile__request_free(p, &p->run.preq[i], "persistent face request");
    /* a partitioned request still active (a run left by a `return`) can be
     * neither cancelled nor freed: it and its buffer are left to MPI */
    for (m = 0; pa != NULL && m < 2; m++)
        for (g = 0; g < 2; g++)
            for (i = 0; i < TILE_MAX_DIMS; i++)
                if (!pa->on[m][g][i]) {
                    tile__request_free(p, &pa->req[m][g][i], "partitioned face request");
                    TILEHYBRID_FREE(pa->buf[m][g][i]);
                    pa->buf[m][g][i] = NULL;
                }
}
#else
TILEHYBRID__COLD void tile__parted_setup(tile_plan *p);
TILEHYBRID__COLD void tile__messages_setup(tile_plan *p);
TILEHYBRID__COLD void tile__messages_drain(tile_plan *p);
TILEHYBRID__COLD void tile__request_free(tile_plan *p, MPI_Request *q, const char *what);
TILEHYBRID__COLD void tile__messages_free(tile_plan *p);
#endif

#if TILE_HAVE_PARTITIONED
/* The partitioned message along i that step s readies (sends, m = s - T_i)
 * or waits for (receives, m = s + 1); -1 if none. */
static inline int64_t tile__parted_msg(const tile_plan *p, int send, int i, int64_t s)
{
    int64_t m = send ? s - p->threads.dims[i] : s + 1;
    const tile__parted *pa = p->run.part;
    return m >= 0 && m < pa->msgs[i] && pa->parts[i] > 0 && pa->pbytes[i] > 0 ? m : -1;
}

/**
 * tile_parted_ready() - the partitioned messages that open step s for
 * thread t (multiple model): pack its parts computed at step s - 1 into
 * their partitions and mark them ready (MPI_Pready), also where it had no
 * tile (the message needs every partition).
 * @p: the plan; @s: the step; @t: the thread.
 */
TILEHYBRID__WARM void tile_parted_ready(tile_plan *p, int64_t s, int t);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void tile_parted_ready(tile_plan *p, int64_t s, int t)
{
    tile__parted *pa = p->run.part;
    int64_t k = s - 1 - p->threads.delay[t];
    int i;
    for (i = 0; i < p->cfg.n; i++) {
        int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0}, m, bytes;
        int idx = tile__part_index(p, t, i), rc;
        unsigned char *buf;
        if (p->nbr_hi[i] == MPI_PROC_NULL || !tile__is_sender(p, t, i) ||
            (m = tile__parted_msg(p, 1, i, s)) < 0 || !pa->on[m % 2][1][i])
            continue;
        buf = pa->buf[m % 2][1][i] + (size_t)idx * (size_t)pa->pbytes[i];
        if (k >= 0 && k < p->ntiles) {
            tile_thread_face(p, t, k, i, 0, lo, hi);
            bytes = tile__pack_face(p, k, lo, hi, buf, 1);
            p->run.stats[t].bytes_sent += bytes;
            p->run.stats[t].messages++;
        }
        rc = MPI_Pready(idx, pa->req[m % 2][1][i]);
        if (rc != MPI_SUCCESS && k >= 0 && k < p->ntiles)
            tile__mpi_failed(p, t, rc, "MPI_Pready", "marking partition %d of face message "
                             "%lld to rank %d ready (thread %d's tile %lld)", idx,
                             (long long)m, p->nbr_hi[i], t, (long long)k);
        else if (rc != MPI_SUCCESS)
            tile__mpi_failed(p, t, rc, "MPI_Pready", "marking partition %d of face message "
                             "%lld to rank %d ready (thread %d has no tile in it)", idx,
                             (long long)m, p->nbr_hi[i], t);
    }
}
#endif

/**
 * tile_parted_arrive() - the end of step s for thread t (multiple model):
 * wait for its parts of the tile it computes at step s + 1 (MPI_Parrived)
 * and unpack them.  The time waiting goes to its stats.wait.
 * @p: the plan; @s: the step (-1: the prologue); @t: the thread.
 */
TILEHYBRID__WARM void tile_parted_arrive(tile_plan *p, int64_t s, int t);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void tile_parted_arrive(tile_plan *p, int64_t s, int t)
{
    tile__parted *pa = p->run.part;
    int64_t k = s + 1 - p->threads.delay[t];
    int i;
    for (i = 0; i < p->cfg.n && k >= 0 && k < p->ntiles; i++) {
        int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0}, m;
        int idx = tile__part_index(p, t, i), rc = MPI_SUCCESS, flag = 0;
        double t0 = tile_wtime();
        if (p->nbr_lo[i] == MPI_PROC_NULL || !tile__is_receiver(p, t, i) ||
            (m = tile__parted_msg(p, 0, i, s)) < 0 || !pa->on[m % 2][0][i])
            continue;
        while (rc == MPI_SUCCESS && !flag) {
            rc = MPI_Parrived(pa->req[m % 2][0][i], idx, &flag);
            if (rc == MPI_SUCCESS && !flag && p->run.yield)
                tilehybrid__yield();
        }
        p->run.stats[t].wait += tile_wtime() - t0;
        if (rc != MPI_SUCCESS) {
            tile__mpi_failed(p, t, rc, "MPI_Parrived", "waiting for partition %d of tile "
                             "%lld's face from rank %d", idx, (long long)k, p->nbr_lo[i]);
            continue;
        }
        t0 = tile_wtime();
        tile_thread_face(p, t, k, i, 1, lo, hi);
        tile__pack_face(p, k, lo, hi,
                        pa->buf[m % 2][0][i] + (size_t)idx * (size_t)pa->pbytes[i], 0);
        p->run.stats[t].comm += tile_wtime() - t0;
    }
}
#endif

/* Collect into q the requests of messages @ms (send) and @mr (receive) along
 * every dimension that are (@on 1) or are not (@on 0) started. */
static inline int tile__parted_pick(tile_plan *p, int64_t ms, int64_t mr, int on, MPI_Request *q)
{
    tile__parted *pa = p->run.part;
    int i, g, n = 0;
    for (i = 0; i < p->cfg.n; i++)
        for (g = 0; g < 2; g++) {
            int64_t m = (g ? ms - p->threads.dims[i] : mr);
            int *act;
            if (m < 0 || m >= pa->msgs[i] || pa->req[m % 2][g][i] == MPI_REQUEST_NULL)
                continue;
            act = &pa->on[m % 2][g][i];
            if (*act == on) {
                q[n++] = pa->req[m % 2][g][i];
                *act = !on;
            }
        }
    return n;
}

/**
 * tile_parted_cycle() - thread 0 at the end of step s (before the step's
 * barrier; s = -1: the prologue, before the first barrier): complete the
 * messages of their parity that the threads are done with and start the
 * ones the next step uses: along each i, the send readied at step s - 1
 * then the one of step s + 1, the receive waited for at step s - 1 then the
 * one of step s + 1.  @p: the plan; @s: the step.
 */
TILEHYBRID__WARM void tile_parted_cycle(tile_plan *p, int64_t s);
#if TILEHYBRID__DEFINE
TILEHYBRID__WARM void tile_parted_cycle(tile_plan *p, int64_t s)
{
    MPI_Request q[4 * TILE_MAX_DIMS];
    MPI_Status st[4 * TILE_MAX_DIMS];
    double t0 = tile_wtime();
    int n, rc;
    n = tile__parted_pick(p, s - 1, s, 1, q);
    rc = n <= 0 ? MPI_SUCCESS : p->run.yield ? tile__waitall_yield_each(n, q, st)
                                    : MPI_Waitall(n, q, st);
    p->run.stats[0].wait += tile_wtime() - t0;
    if (rc != MPI_SUCCESS)
        tile__mpi_failed(p, 0, rc, p->run.yield ? "MPI_Test" : "MPI_Waitall",
                         "completing %d partitioned face message%s "
                         "at step %lld", n, n == 1 ? "" : "s", (long long)s);
    n = tile__parted_pick(p, s + 1, s + 2, 0, q);
    if (s < 0)      /* the prologue: also the receive that the prologue waits for */
        n += tile__parted_pick(p, INT64_MIN / 2, 0, 0, q + n);
    rc = n > 0 ? MPI_Startall(n, q) : MPI_SUCCESS;
    if (rc != MPI_SUCCESS)
        tile__mpi_failed(p, 0, rc, "MPI_Startall", "starting %d partitioned face message%s "
                         "at step %lld", n, n == 1 ? "" : "s", (long long)s);
}
#endif

/**
 * tile_parted_finish() - thread 0 after the last step's barrier: complete
 * every partitioned message still in flight.  @p: the plan.
 */
static inline void tile_parted_finish(tile_plan *p)
{
    tile__parted *pa = p->run.part;
    MPI_Request q[4 * TILE_MAX_DIMS];
    MPI_Status st[4 * TILE_MAX_DIMS];
    int i, g, m, n = 0, rc;
    for (m = 0; m < 2; m++)
        for (g = 0; g < 2; g++)
            for (i = 0; i < p->cfg.n; i++)
                if (pa->on[m][g][i]) {
                    q[n++] = pa->req[m][g][i];
                    pa->on[m][g][i] = 0;
                }
    rc = n <= 0 ? MPI_SUCCESS : p->run.yield ? tile__waitall_yield_each(n, q, st)
                                    : MPI_Waitall(n, q, st);
    if (rc != MPI_SUCCESS)
        tile__mpi_failed(p, 0, rc, p->run.yield ? "MPI_Test" : "MPI_Waitall",
                         "completing the last %d partitioned face "
                         "messages", n);
}
#endif
