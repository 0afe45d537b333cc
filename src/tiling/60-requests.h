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
        while (rc == MPI_SUCCESS && !flag)
            rc = MPI_Parrived(pa->req[m % 2][0][i], idx, &flag);
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
    rc = n > 0 ? MPI_Waitall(n, q, st) : MPI_SUCCESS;
    p->run.stats[0].wait += tile_wtime() - t0;
    if (rc != MPI_SUCCESS)
        tile__mpi_failed(p, 0, rc, "MPI_Waitall", "completing %d partitioned face message%s "
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
    rc = n > 0 ? MPI_Waitall(n, q, st) : MPI_SUCCESS;
    if (rc != MPI_SUCCESS)
        tile__mpi_failed(p, 0, rc, "MPI_Waitall", "completing the last %d partitioned face "
                         "messages", n);
}
#endif

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
    TILEHYBRID_FREE(plan->store.ring_mem);
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
    plan->run.stats = NULL;
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

/* The data calls (tile_get and the section "Data in and out") on a plan
 * that cannot serve them: TILE_OK if the plan was created, else the code
 * of its failed creation (TILE_ERR_NULL for a plan never created or
 * already destroyed).  The same on every rank, so the collective calls
 * return it before any collective. */
static inline int tile__data_refused(const tile_plan *p)
{
    if (p == NULL || p->comm == MPI_COMM_NULL)
        return TILE_ERR_NULL;
    if (!p->run.created)
        return p->status.code != TILE_OK ? p->status.code : TILE_ERR_NULL;
    return TILE_OK;
}

/* The refusals of the calls that must not run while the plan runs: those
 * of every data call, and TILE_ERR_BODY for a plan that is running on this
 * rank (a call from its body or one of its hooks) or whose last run a
 * return left unfinished.  The calls that set a hook, a target or a
 * reduction for the following runs would free or change what the run
 * uses; the collective ones (tile_gather, tile_exchange) would wait in a
 * collective for ranks that are inside the run, or meet the run's own
 * messages.  Local, and before any collective: the ranks that call from a
 * body or a hook need not be all of them. */
static inline int tile__busy_refused(const tile_plan *p)
{
    int rc = tile__data_refused(p);
    return rc == TILE_OK && p->run.active ? TILE_ERR_BODY : rc;
}

/**
 * tile_get() - read a computed point after a run.
 * @plan:  the plan.
 * @coord: global coordinates x_1..x_N, z (the user's).
 * @out:   receives elem_size bytes (untouched unless TILE_OK).
 * Local.  Every rank may ask for any point; the one that owns it and still
 * stores it (always with TILE_STORE_FULL; the last planes of the window
 * otherwise) gets it.
 * Return: TILE_OK (copied), TILE_ERR_NULL, TILE_ERR_RANGE (a point outside
 * the space), TILE_ERR_NOT_STORED (another rank's point, one the window
 * dropped, or any before a run completed without an error: nothing, or a
 * failed run's values), TILE_ERR_BODY (from the running plan's body or
 * hooks), or the code of the plan's failed creation (TILE_ERR_NULL for a
 * plan never created or destroyed).  (Before 0.2 it
 * returned 1 when copied and 0 otherwise.)
 */
static inline int tile_get(const tile_plan *plan, const int64_t *coord, void *out)
{
    int64_t x[TILE_MAX_DIMS], g[TILE_MAX_DIMS + 1] = {0}, zlen, h, R, keep, z;
    int i;
    if (plan == NULL || coord == NULL || out == NULL)
        return TILE_ERR_NULL;
    if ((i = tile__busy_refused(plan)) != TILE_OK)
        return i;
    if (!tile__inside(plan, coord))
        return TILE_ERR_RANGE;
    if (!plan->run.completed || plan->status.code != TILE_OK)
        return TILE_ERR_NOT_STORED;     /* nothing computed, or a failed run's */
    zlen = plan->deps.size[plan->cfg.n];
    h = plan->cfg.tile_height < zlen ? plan->cfg.tile_height : zlen;
    R = plan->store.ring_planes;
    keep = R >= plan->ntiles * h ? zlen : R - h;
    tile__to_internal(plan, coord, g);
    z = g[plan->cfg.n];
    if (z < 0 || z >= zlen || z < zlen - keep)
        return TILE_ERR_NOT_STORED;
    for (i = 0; i < plan->cfg.n; i++) {
        x[i] = g[i] - plan->lo[i];
        if (x[i] < 0 || x[i] >= plan->len[i])
            return TILE_ERR_NOT_STORED;
    }
    memcpy(out, tile__plane(plan, z) + tile__offset(plan, x), plan->cfg.elem_size);
    return TILE_OK;
}

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
/** TILE_MAX_REDUCTIONS - reductions declared on one plan at a time. */
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

/** tile_box_points() - the points of a box (0 when empty). */
static inline int64_t tile_box_points(const tile_box *b)
{
    int64_t v = 1;
    int i;
    for (i = 0; i < b->ndims; i++)
        v *= b->len[i] > 0 ? b->len[i] : 0;
    return v;
}

/** tile_box_stride() - elements between neighbours along dimension i of an
 *  array over box b (Z last): the product of the lengths after i. */
static inline int64_t tile_box_stride(const tile_box *b, int i)
{
    int64_t s = 1;
    int j;
    for (j = i + 1; j < b->ndims; j++)
        s *= b->len[j];
    return s;
}

/**
 * tile_box_index() - where point c is in an array over box b.
 * @b: the box; @c: b->ndims user coordinates (Z last).
 * Return: the element index (row-major, Z last), or -1 when c is outside.
 */
static inline int64_t tile_box_index(const tile_box *b, const int64_t *c)
{
    int64_t idx = 0;
    int i;
    for (i = 0; i < b->ndims; i++) {
        if (c[i] < b->lo[i] || c[i] - b->lo[i] >= b->len[i])
            return -1;
        idx = idx * b->len[i] + (c[i] - b->lo[i]);
    }
    return idx;
}

/**
 * tile_box_intersect() - the common points of two boxes.
 * @a, @b: boxes of the same ndims; @out: receives the intersection.
 * Return: 1 if it is not empty, else 0 (out then has a 0 length).
 */
static inline int tile_box_intersect(const tile_box *a, const tile_box *b, tile_box *out)
{
    int i, ne = a->ndims == b->ndims;
    tile_box r;
    memset(&r, 0, sizeof r);
    r.ndims = a->ndims;
    for (i = 0; i < a->ndims && ne; i++) {
        int64_t lo = a->lo[i] > b->lo[i] ? a->lo[i] : b->lo[i];
        int64_t ha = a->lo[i] + (a->len[i] > 0 ? a->len[i] : 0);
        int64_t hb = b->lo[i] + (b->len[i] > 0 ? b->len[i] : 0);
        int64_t hi = ha < hb ? ha : hb;
        r.lo[i] = lo;
        r.len[i] = hi > lo ? hi - lo : 0;
        ne = hi > lo;
    }
    *out = r;
    return ne;
}

/**
 * tile_box_copy() - copy the common points of two arrays over boxes.
 * @from, @src: the source box and its array (row-major, Z last).
 * @to, @dst:   the destination box and its array.
 * @esz:        bytes per element.
 * @copied:     set to the points copied (0 when the boxes do not meet);
 *              NULL if not wanted.
 * A local copy, bit for bit (the output hook drops a tile into an array of
 * the block with it).
 * Return: TILE_OK; TILE_ERR_NULL (a box, or an array the copy needs, is
 * NULL); TILE_ERR_NDIMS (the boxes' ndims differ or are outside
 * 1..TILE_MAX_DIMS + 1).  Nothing is copied on an error.
 */
static inline int tile_box_copy(const tile_box *from, const void *src, const tile_box *to,
                                void *dst, size_t esz, int64_t *copied)
{
    tile_box c;
    int64_t x[TILE_MAX_DIMS + 1], n = 0;
    int d, i;
    if (copied != NULL)
        *copied = 0;
    if (from == NULL || to == NULL)
        return TILE_ERR_NULL;
    d = from->ndims;
    if (d < 1 || d > TILE_MAX_DIMS + 1 || to->ndims != d)
        return TILE_ERR_NDIMS;
    if (!tile_box_intersect(from, to, &c))
        return TILE_OK;
    if (src == NULL || dst == NULL)
        return TILE_ERR_NULL;
    for (i = 0; i < d; i++)
        x[i] = c.lo[i];
    for (;;) {
        int64_t is = tile_box_index(from, x), id = tile_box_index(to, x);
        memcpy((unsigned char *)dst + (size_t)id * esz,
               (const unsigned char *)src + (size_t)is * esz, (size_t)c.len[d - 1] * esz);
        n += c.len[d - 1];
        for (i = d - 2; i >= 0; i--) {
            if (++x[i] < c.lo[i] + c.len[i])
                break;
            x[i] = c.lo[i];
        }
        if (i < 0)
            break;
    }
    if (copied != NULL)
        *copied = n;
    return TILE_OK;
}

/* The block of the process at Cartesian coordinates pc, in the user's
 * coordinates, over the whole of Z. */
static inline void tile__block_box(const tile_plan *p, const int *pc, tile_box *b)
{
    int i, n = p->cfg.n;
    memset(b, 0, sizeof *b);
    b->ndims = n + 1;
    for (i = 0; i < n; i++) {
        int64_t lo = 0, len = 0;
        topo_block(p->cfg.extent[i], p->pdims[i], pc[i], &lo, &len);
        b->lo[i] = p->deps.dir[i] > 0 ? lo : p->cfg.extent[i] - lo - len;
        b->len[i] = len;
    }
    b->lo[n] = 0;
    b->len[n] = p->cfg.zlen;
}

/* Internal planes [z0, z1) as the user's Z range: b->lo[N], b->len[N]. */
static inline void tile__zbox(const tile_plan *p, int64_t z0, int64_t z1, tile_box *b)
{
    int n = p->cfg.n;
    b->lo[n] = p->deps.dir[n] > 0 ? z0 : p->cfg.zlen - z1;
    b->len[n] = z1 - z0;
}

/**
 * tile_input_box() - the box of an input array that this rank needs.
 * @plan:  the plan (after tile_plan_create).
 * @tile:  TILE_ALL_TILES for the whole of Z, or a tile 0..plan->ntiles-1
 *         (its planes; tiles are numbered in the order the loop runs, so
 *         with cfg.dir[N] = -1 tile 0 holds the highest Z).
 * @reach: how far around each point the body reads the array (NULL: at
 *         the point only; tile_reach_stencil() gives the stencil's reach).
 * @box:   receives the box in the user's coordinates: this rank's block
 *         (mirrored where cfg.dir is -1) and the tile's planes, widened by
 *         the reach and clipped to the space (what lies outside is the
 *         boundary's business).
 * @st:    NULL, or the argument at fault.
 *
 * Local, no communication.  Allocate tile_box_points(box) elements, fill
 * them (from a file, a formula, tile_exchange()), and read them in the body
 * at tile_input_index(&it, &box), plus o * tile_box_stride(&box, i) for an
 * offset o along i.
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_RANGE (a tile outside
 * TILE_ALL_TILES..ntiles-1, a reach outside 0..2^30), TILE_ERR_SKEWED (the
 * plan skews its stencil: a block is not a box of the user's space; give
 * such a plan its input through the boundary function, or read an array
 * over the whole space with tile_input_index()).
 */
static inline int tile_input_box(const tile_plan *plan, int64_t tile, const tile_reach *reach,
                                 tile_box *box, tilehybrid_status *st)
{
    int i, n;
    if (plan == NULL || box == NULL)
        return tilehybrid_status_set(st, TILE_ERR_NULL, plan == NULL ? "plan" : "box", -1);
    if ((i = tile__data_refused(plan)) != TILE_OK)
        return tilehybrid_status_set(st, i, "plan", -1);
    n = plan->cfg.n;
    if (plan->deps.skewed)
        return tilehybrid_status_set(st, TILE_ERR_SKEWED, "plan", -1);
    if (tile < TILE_ALL_TILES || tile >= plan->ntiles)
        return tilehybrid_status_set(st, TILE_ERR_RANGE, "tile", tile);
    for (i = 0; reach != NULL && i <= n; i++)
        if (reach->below[i] < 0 || reach->above[i] < 0 || reach->below[i] > (1 << 30) ||
            reach->above[i] > (1 << 30))
            return tilehybrid_status_set(st, TILE_ERR_RANGE, "reach", i);
    tile__block_box(plan, plan->pcoords, box);
    if (tile >= 0)
        tile__zbox(plan, tile__tile_z0(plan, tile), tile__tile_z1(plan, tile), box);
    for (i = 0; reach != NULL && i <= n; i++) {
        int64_t ext = i < n ? plan->cfg.extent[i] : plan->cfg.zlen;
        int64_t lo = box->lo[i] - reach->below[i], hi = box->lo[i] + box->len[i];
        hi = ext - hi > reach->above[i] ? hi + reach->above[i] : ext;
        box->lo[i] = lo > 0 ? lo : 0;
        box->len[i] = hi - box->lo[i];
    }
    return tilehybrid_status_set(st, TILE_OK, "", -1);
}

#if TILEHYBRID__DEFINE
/**
 * tile_reach_stencil() - the reach of the plan's stencil: per dimension the
 * largest distance below and above the point that a declared vector (or
 * the widths dep[]/depz, read against the loop's direction) reads.
 * @plan: the plan; @reach: receives it.
 * Return: TILE_OK or TILE_ERR_NULL.
 */
TILEHYBRID__COLD int tile_reach_stencil(const tile_plan *plan, tile_reach *reach)
{
    int i, k, n;
    if (plan == NULL || reach == NULL)
        return TILE_ERR_NULL;
    if ((i = tile__data_refused(plan)) != TILE_OK)
        return i;
    memset(reach, 0, sizeof *reach);
    n = plan->cfg.n;
    for (i = 0; i <= n && plan->cfg.nstencil == 0; i++) {
        int d = i < n ? plan->deps.d[i] : plan->deps.dz;
        if (plan->deps.dir[i] > 0)
            reach->below[i] = d;
        else
            reach->above[i] = d;
    }
    for (k = 0; k < plan->cfg.nstencil; k++)
        for (i = 0; i <= n; i++) {
            int o = plan->cfg.stencil[k][i];
            if (-o > reach->below[i])
                reach->below[i] = -o;
            if (o > reach->above[i])
                reach->above[i] = o;
        }
    return TILE_OK;
}
#else
TILEHYBRID__COLD int tile_reach_stencil(const tile_plan *plan, tile_reach *reach);
#endif

/**
 * tile_input_index() - in the body: the index of the point being computed
 * in an array over box b (row-major, Z last).
 * @it: the cursor (&it); @b: a box from tile_input_box() that holds every
 *      point of the block the body reads (not checked: an index outside
 *      the array is the caller's bug).
 * O(N) integer arithmetic.  A neighbour at offset o along dimension i is
 * o * tile_box_stride(b, i) elements away (compute the strides before the
 * run).
 */
static inline int64_t tile_input_index(const tile_cursor *it, const tile_box *b)
{
    int64_t idx = 0;
    int i;
    for (i = 0; i <= it->v->n; i++)
        idx = idx * b->len[i] + (tile_coord(it, i) - b->lo[i]);
    return idx;
}

#if TILEHYBRID__DEFINE
/**
 * tile_stored_zrange() - the Z range (user coordinates) that tile_gather()
 * and tile_get() can read now.
 * @plan: the plan.
 * @z0, @zlen: receive the range [z0, z0 + zlen).
 *
 * Only after a run that completed without error (until the next run
 * starts).  TILE_STORE_FULL keeps every plane; the Z window keeps the last
 * R - z planes the loop computed (R the window's planes, z the tile height;
 * every plane when the window covers Z): z >= Z - (R - z) when the loop
 * runs upward along Z, z < R - z when it runs downward.
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_NOT_STORED (no completed
 * run; the range is then empty), or TILE_ERR_SKEWED (the plan skews its
 * stencil: what it stores is not a range of the user's Z; tile_get()
 * tells point by point).
 */
TILEHYBRID__COLD int tile_stored_zrange(const tile_plan *plan, int64_t *z0, int64_t *zlen)
{
    int64_t h, keep, Z;
    int refused;
    if (plan == NULL || z0 == NULL || zlen == NULL)
        return TILE_ERR_NULL;
    *z0 = *zlen = 0;
    if ((refused = tile__data_refused(plan)) != TILE_OK)
        return refused;
    if (plan->deps.skewed)
        return TILE_ERR_SKEWED;
    if (!plan->run.completed || plan->status.code != TILE_OK)
        return TILE_ERR_NOT_STORED;
    Z = plan->cfg.zlen;
    h = plan->cfg.tile_height < Z ? plan->cfg.tile_height : Z;
    /* the same rule as tile_get() */
    keep = plan->store.ring_planes >= plan->ntiles * h ? Z : plan->store.ring_planes - h;
    *z0 = plan->deps.dir[plan->cfg.n] > 0 ? Z - keep : 0;
    *zlen = keep;
    return TILE_OK;
}
#else
TILEHYBRID__COLD int tile_stored_zrange(const tile_plan *plan, int64_t *z0, int64_t *zlen);
#endif

/* Packing the stored block, in the user's coordinates: rows of the plan's
 * planes into an array over box (Z last or Z first). */
typedef struct tile__packer {
    const tile_plan *p;
    unsigned char *dst;
    const tile_box *box;
    int layout;
    int64_t plane;      /* points of one plane of the box */
} tile__packer;

static inline void tile__pack_row(void *ctx, unsigned char *row, ptrdiff_t rstep, int64_t cnt,
                                  const int64_t *x, int64_t z)
{
    const tile__packer *k = (const tile__packer *)ctx;
    const tile_plan *p = k->p;
    const tile_box *b = k->box;
    int n = p->cfg.n, i;
    size_t esz = p->cfg.elem_size;
    int64_t idx = 0, step;
    for (i = 0; i < n; i++)
        idx = idx * b->len[i] + (tile__user(p, i, p->lo[i] + x[i]) - b->lo[i]);
    if (k->layout == TILE_LAYOUT_Z_LAST) {
        idx = idx * b->len[n] + (tile__user(p, n, z) - b->lo[n]);
        step = b->len[n] * p->deps.dir[n - 1];
    } else {
        idx += (tile__user(p, n, z) - b->lo[n]) * k->plane;
        step = p->deps.dir[n - 1];
    }
    tile__copy_strided(k->dst + (size_t)idx * esz, (ptrdiff_t)(step * (int64_t)esz), row, rstep,
                       cnt, esz);
}

/* Pack this rank's block over internal planes [z0, z1) into dst, an array
 * over box (the block and the user's Z range of those planes). */
static inline void tile__pack_block(const tile_plan *p, int64_t z0, int64_t z1,
                                    const tile_box *box, int layout, void *dst)
{
    int64_t lo[TILE_MAX_DIMS] = {0}, hi[TILE_MAX_DIMS] = {0};
    tile__packer k;
    int i;
    k.p = p;
    k.dst = (unsigned char *)dst;
    k.box = box;
    k.layout = layout;
    k.plane = 1;
    for (i = 0; i < p->cfg.n; i++) {
        hi[i] = p->len[i];
        k.plane *= box->len[i];
    }
    tile__for_rows(p, z0, z1, lo, hi, tile__pack_row, &k);
}
