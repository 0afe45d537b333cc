/* ------------------------------------------------------------------------ */
/* Checkpoints inside a plan's run                                          */

/*
 * A checkpoint configuration that names a plan (tile_checkpoint_config.plan)
 * writes inside that plan's runs too, when its seconds or signal come or
 * at its every_steps, and its file then holds the run's state, one block
 * per rank: the Z window, the schedule (the tiles announced, sent and
 * received, each thread's next tile, the start steps and thread splits in
 * flight, the balancing policy's state), the reductions' partial states,
 * the input tiles read ahead and the output hook's next tile.  A restart
 * (tile_checkpoint_read()) hands it to the plan, whose next run takes up
 * where the killed one stood, bitwise.
 *
 * Where every rank cuts.  The pipeline's ranks do not run a step at once:
 * rank r receives at its step e the face its predecessor along dimension i
 * sent at its step e + L_i, where L_i = S + 2 with whole faces (sent the
 * step after the tile, received the step before: the pure MPI, fine and
 * funneled models; S the thread skew) and T_i + 1 in the multiple model
 * (each thread's part, the sender the last thread along i, the receiver
 * the first).  So rank r cuts at the end of its step c - lag(r), lag(r) =
 * sum_i pcoords_i L_i: every face sent before a cut has arrived before the
 * receiver's, none after, and nothing is in flight.  The ranks agree on c
 * at a tick, every M local steps (M > the largest lag): every_steps needs
 * no message; the seconds and the signal ride on tile_checkpoint_due()'s
 * non-blocking agreement, started at one tick and read at the next.  c is
 * the tick's step plus the largest lag, so that every rank's cut is ahead
 * of it; a cut past the run's last step but one is not made.  The schedule
 * must be the same on every rank: the funneled model's load balancing must
 * keep its split (BAL_POLICY_FIXED), and the multiple model's messages be
 * whole (not partitioned).  A run that failed on some rank (a thread's
 * error: an offset refused, a `break`) is not checkpointed: every rank's
 * cut agrees on it first, and the file keeps the checkpoint before.
 */

/* The words that open a rank's block of a run's state. */
enum {
    TILE__RS_MAGIC, TILE__RS_CUT, TILE__RS_Z, TILE__RS_NTILES, TILE__RS_RING,
    TILE__RS_THREADS, TILE__RS_SCHEDW, TILE__RS_TA, TILE__RS_NRED, TILE__RS_INW,
    TILE__RS_INSLOT, TILE__RS_SIZES, TILE__RS_ANNOUNCED, TILE__RS_SEND, TILE__RS_RECV,
    TILE__RS_NSTEPS, TILE__RS_BALCH, TILE__RS_OUTNEXT, TILE__RS_INNEXT, TILE__RS_BYTES,
    TILE__RS_MODEL, TILE__RS_BLOCK, TILE__RS_LAYOUT, TILE__RS_WORDS
};
#define TILE__RS_TAG 0x314e5552454c4954ull      /* "TILERUN1" */

/* The ring's bytes (the Z window and the planes below it). */
static inline int64_t tile__rs_ring(const tile_plan *p)
{
    return (int64_t)p->store.plane_bytes * (p->store.ring_planes + p->deps.dz);
}

/* The split records' width (the threads along the balanced dimension + 1). */
static inline int tile__rs_ta(const tile_plan *p)
{
    return (p->threads.bal_dim < 0 ? 1 : p->threads.dims[p->threads.bal_dim]) + 1;
}

/* One section of the state: n bytes at q to (save) or from the block at
 * *at (buf NULL: counted only). */
static inline void tile__rs_move(unsigned char *buf, size_t *at, void *q, size_t n, int save)
{
    if (buf != NULL && n > 0) {
        if (save)
            memcpy(buf + *at, q, n);
        else
            memcpy(q, buf + *at, n);
    }
    *at += n;
}

/* The sections after the words, saved to or loaded from buf (NULL: only
 * counted); their bytes.  The balancing policy's configuration (its
 * context pointer) stays the plan's own. */
static inline size_t tile__rs_sections(tile_plan *p, unsigned char *buf, int save)
{
    struct tile__io *io = p->run.io;
    size_t at = TILE__RS_WORDS * 8;
    bal_policy bal = p->run.bal;
    int t, k, T = p->cfg.threads;
    for (t = 0; t < T; t++)
        tile__rs_move(buf, &at, &p->run.next_tile[8 * t], 8, save);
    tile__rs_move(buf, &at, p->run.sigma, 8 * (size_t)p->run.sched_w, save);
    tile__rs_move(buf, &at, p->run.bounds, 8 * (size_t)p->run.sched_w * (size_t)tile__rs_ta(p),
                  save);
    tile__rs_move(buf, &at, &bal, sizeof bal, save);
    if (!save && buf != NULL) {
        bal.cfg = p->run.bal.cfg;
        p->run.bal = bal;
    }
    for (k = 0; io != NULL && k < io->nred; k++)
        tile__rs_move(buf, &at, io->slots[k], sizeof(tile__red_slot) * (size_t)T, save);
    if (io != NULL && io->in_buf != NULL) {
        tile__rs_move(buf, &at, io->in_buf, io->in_slot_bytes * (size_t)io->in_w, save);
        tile__rs_move(buf, &at, io->in_box, sizeof(tile_box) * (size_t)io->in_w, save);
    }
    tile__rs_move(buf, &at, p->store.ring, (size_t)tile__rs_ring(p), save);
    return at;
}

/* A hash of this rank's place: the grid, its coordinates, its block, the
 * thread grid (a restart on another grid or block would read another
 * block's state). */
static inline int64_t tile__rs_block(const tile_plan *p)
{
    uint64_t h = 0x84222325cbf29ce4ull;
    int i;
    for (i = 0; i < p->cfg.n; i++) {
        h = tile__ckpt_mix(h, (uint64_t)p->pdims[i] << 32 | (uint64_t)p->pcoords[i]);
        h = tile__ckpt_mix(h, (uint64_t)p->lo[i]);
        h = tile__ckpt_mix(h, (uint64_t)p->len[i]);
        h = tile__ckpt_mix(h, (uint64_t)p->threads.dims[i]);
    }
    return (int64_t)(h >> 1);
}

/* A hash of the storage's layout, which the in-tile order chooses (its
 * strides, diagonals, origin, mirror planes): two layouts of one size
 * hold the window's points in other places. */
static inline int64_t tile__rs_layout(const tile_plan *p)
{
    uint64_t h = 0x84222325cbf29ce4ull;
    int i;
    h = tile__ckpt_mix(h, (uint64_t)p->store.order);
    h = tile__ckpt_mix(h, (uint64_t)(uint32_t)p->store.wave[0] << 32 |
                              (uint32_t)p->store.wave[1]);
    h = tile__ckpt_mix(h, (uint64_t)p->store.diag);
    h = tile__ckpt_mix(h, (uint64_t)p->store.origin);
    h = tile__ckpt_mix(h, (uint64_t)p->store.mirror);
    h = tile__ckpt_mix(h, (uint64_t)p->store.plane_elems);
    h = tile__ckpt_mix(h, (uint64_t)p->store.ring_planes);
    for (i = 0; i < TILE_MAX_DIMS; i++)
        h = tile__ckpt_mix(h, (uint64_t)p->store.stride[i]);
    return (int64_t)(h >> 1);
}

/* The words that describe the state's shape (cut: the step it follows). */
static inline void tile__rs_words(const tile_plan *p, int64_t cut, int64_t *w)
{
    const struct tile__io *io = p->run.io;
    memset(w, 0, TILE__RS_WORDS * 8);
    w[TILE__RS_MAGIC] = (int64_t)TILE__RS_TAG;
    w[TILE__RS_CUT] = cut;
    w[TILE__RS_Z] = p->cfg.tile_height;
    w[TILE__RS_NTILES] = p->ntiles;
    w[TILE__RS_RING] = tile__rs_ring(p);
    w[TILE__RS_THREADS] = p->cfg.threads;
    w[TILE__RS_SCHEDW] = p->run.sched_w;
    w[TILE__RS_TA] = tile__rs_ta(p);
    w[TILE__RS_NRED] = io != NULL ? io->nred : 0;
    w[TILE__RS_INW] = io != NULL && io->in_buf != NULL ? io->in_w : 0;
    w[TILE__RS_INSLOT] = io != NULL && io->in_buf != NULL ? (int64_t)io->in_slot_bytes : 0;
    w[TILE__RS_SIZES] = (int64_t)(sizeof(bal_policy) * 65536 + sizeof(tile__red_slot) * 256 +
                                  sizeof(tile_box));
    w[TILE__RS_ANNOUNCED] = p->run.announced;
    w[TILE__RS_SEND] = p->run.send_next;
    w[TILE__RS_RECV] = p->run.recv_next;
    w[TILE__RS_NSTEPS] = p->run.nsteps;
    w[TILE__RS_BALCH] = p->run.bal_changes;
    w[TILE__RS_OUTNEXT] = io != NULL ? io->out_next : 0;
    w[TILE__RS_INNEXT] = io != NULL ? io->in_next : 0;
    w[TILE__RS_MODEL] = p->cfg.model;
    w[TILE__RS_BLOCK] = tile__rs_block(p);
    w[TILE__RS_LAYOUT] = tile__rs_layout(p);
}

/* This rank's lag (see above): its cut is L steps before the first rank's. */
static inline int64_t tile__ckpt_lag(const tile_plan *p, const int *pcoords)
{
    int64_t lag = 0;
    int i;
    for (i = 0; i < p->cfg.n; i++)
        lag += (int64_t)pcoords[i] * (p->cfg.model == TILE_MODEL_MULTIPLE
                                          ? (int64_t)p->threads.dims[i] + 1
                                          : p->threads.skew + 2);
    return lag;
}

/* The largest lag, the last rank's; and the ticks' period M. */
static inline int64_t tile__ckpt_lagmax(const tile_plan *p)
{
    int last[TILE_MAX_DIMS], i;
    for (i = 0; i < p->cfg.n; i++)
        last[i] = p->pdims[i] - 1;
    return tile__ckpt_lag(p, last);
}

static inline int64_t tile__ckpt_period(const tile_plan *p, int64_t every_steps)
{
    int64_t m = every_steps > 0 ? every_steps : 16, lmax = tile__ckpt_lagmax(p);
    return m > lmax ? m : lmax + 1;
}

/* Why a plan's runs cannot checkpoint (tile_checkpoint_create()): NULL when
 * they can. */
static inline const char *tile__ckpt_plan_refusal(const tile_plan *p)
{
    if (p->comm == MPI_COMM_NULL || p->status.code != TILE_OK || !p->run.created)
        return "is not a created plan";
    if (p->cfg.agree == TILE_AGREE_WHEN_ASKED)
        return "agrees on nothing (cfg.agree = TILE_AGREE_WHEN_ASKED): checkpoint between "
               "its runs instead";
    if (p->run.messaging == TILE_MESSAGES_PARTITIONED)
        return "sends partitioned messages, which span the steps: use "
               "cfg.messages = TILE_MESSAGES_PERSISTENT";
    if (p->run.balancing && p->cfg.balance.policy != BAL_POLICY_FIXED)
        return "balances its threads with a policy that changes the split during a run, "
               "so that the ranks' schedules differ: use BAL_POLICY_FIXED";
    return NULL;
}

#if TILEHYBRID__DEFINE
/* The state's block on every rank: @bytes of this rank's (0: a block that
 * holds no run), the blocks as large as the largest rank's, in pages; the
 * field made again when that size changes.  @code: this rank's verdict so
 * far (agreed first).  TILE_OK or the agreed code (ck->errmsg). */
TILEHYBRID__COLD int tile__ckpt_state_make(tile_checkpoint *ck, size_t bytes, int code)
{
    int64_t mine = (int64_t)((bytes + 4095) / 4096), most = 0;
    tile_field_config fc;
    int rc;
    if (tile__ckpt_agree(ck, code) != TILE_OK)
        return ck->code;
    rc = MPI_Allreduce(&mine, &most, 1, MPI_INT64_T, MPI_MAX, ck->comm);
    if (rc != MPI_SUCCESS)
        return tile__ckpt_mpi_fail(ck, "tile_checkpoint_write", "MPI_Allreduce", ck->path, rc),
               ck->code = TILE_ERR_MPI;
    most = most < 1 ? 1 : most;
    if (ck->state.data != NULL && ck->state.extent[0] == most * ck->size) {
        if (bytes == 0)
            memset(ck->state.data, 0, (size_t)most * 4096);
        return TILE_OK;
    }
    if (ck->state.data != NULL)
        (void)tile_field_destroy(&ck->state);
    tile_field_config_init(&fc, 1);
    fc.extent[0] = most * ck->size;
    fc.elem_size = 4096;
    fc.grid[0] = ck->size;
    code = tile_field_create(&ck->state, ck->comm, &fc);
    if (code != TILE_OK)
        snprintf(ck->errmsg, sizeof ck->errmsg, "%.300s", ck->state.errmsg);
    return ck->code = code;
}

/* Whether plan p's output goes where a restart cannot give it back: an
 * array (tile_output_to), or a field the checkpoint does not hold. */
static inline int tile__ckpt_output_lost(const tile_checkpoint *ck, const tile_plan *p)
{
    const struct tile__io *io = p->run.io;
    int k;
    if (io == NULL || io->out_dst == NULL)
        return 0;
    for (k = 0; k < ck->cfg.nfields; k++)
        if (k != ck->state_ix && io->out_held == tile__field_maps(ck->cfg.fields[k]->data))
            return 0;
    return 1;
}

/* The checkpoint of plan p's run at the end of its step cut (collective):
 * the state into the state's blocks, the file written, the blocks made
 * small again.  TILE_OK or the code (ck->errmsg). */
TILEHYBRID__COLD int tile__ckpt_run_write(tile_checkpoint *ck, tile_plan *p, int64_t cut)
{
    size_t n = tile__rs_sections(p, NULL, 1);
    int64_t w[TILE__RS_WORDS];
    int code = TILE_OK, rc, t;
    double t0 = MPI_Wtime(), t1;
    for (t = 0; t < p->cfg.threads && code == TILE_OK; t++)
        if (p->run.stats[t].error != TILE_OK)  /* (a restart would go on from it) */
            code = tile__ckpt_say(ck, p->run.stats[t].error, "tile_checkpoint: rank %d: no "
                                  "checkpoint of a run that failed (thread %d: %.200s)",
                                  ck->rank, t, p->run.slot[t].msg);
    if (code == TILE_OK && tile__ckpt_output_lost(ck, p))
        code = tile__ckpt_say(ck, TILE_ERR_CHECKPOINT, "tile_checkpoint: rank %d: the plan "
                              "writes its tiles out to an array (tile_output_to) or to a field "
                              "the checkpoint does not hold: a restart could not give back "
                              "the tiles written before it (add the field to cfg.fields)",
                              ck->rank);
    if (tile__ckpt_state_make(ck, n, code) != TILE_OK)
        return ck->code;
    tile__rs_words(p, cut, w);
    w[TILE__RS_BYTES] = (int64_t)n;
    memcpy(ck->state.data, w, sizeof w);
    tile__rs_sections(p, ck->state.data, 1);
    ck->in_run = 1;
    t1 = MPI_Wtime();
    rc = tile_checkpoint_write(ck, ck->step_done);  /* (times itself) */
    ck->in_run = 0;
    code = ck->code;
    t0 += MPI_Wtime() - t1;
    if (tile__ckpt_state_make(ck, 0, TILE_OK) != TILE_OK && rc == TILE_OK)
        rc = ck->code;
    ck->code = rc == TILE_OK ? code : rc;
    ck->seconds += MPI_Wtime() - t0;
    return rc;
}

/* After a read (every rank, its verdict agreed by the caller): the run's
 * state this rank's block holds, if any, kept for the plan's next run,
 * which makes its storage of the saved tile height. */
TILEHYBRID__COLD int tile__ckpt_resume_take(tile_checkpoint *ck)
{
    tile_plan *p = ck->cfg.plan;
    int64_t w[TILE__RS_WORDS];
    size_t n = (size_t)ck->state.len[0] * 4096;
    memcpy(w, ck->state.data, sizeof w);
    TILEHYBRID_FREE(p->run.resume);
    p->run.resume = NULL;
    if (w[TILE__RS_MAGIC] == 0)
        return TILE_OK;             /* written between two runs */
    if (w[TILE__RS_MAGIC] != (int64_t)TILE__RS_TAG || w[TILE__RS_BYTES] < TILE__RS_WORDS * 8 ||
        (size_t)w[TILE__RS_BYTES] > n || w[TILE__RS_Z] < 1)
        return tile__ckpt_say(ck, TILE_ERR_CHECKPOINT, "tile_checkpoint_read: rank %d: the "
                              "plan's state in '%.120s' is damaged", ck->rank, ck->path);
    p->run.resume = (unsigned char *)TILEHYBRID_MALLOC((size_t)w[TILE__RS_BYTES]);
    if (p->run.resume == NULL)
        return tile__ckpt_say(ck, TILE_ERR_NOMEM, "tile_checkpoint_read: rank %d: out of "
                              "memory for the plan's state (%lld bytes)", ck->rank,
                              (long long)w[TILE__RS_BYTES]);
    memcpy(p->run.resume, ck->state.data, (size_t)w[TILE__RS_BYTES]);
    p->run.resume_bytes = (size_t)w[TILE__RS_BYTES];
    p->height.next = w[TILE__RS_Z];
    return TILE_OK;
}

/* The end of step s, on the thread that does the messages (tile_schedule):
 * at a tick, whether to write and where this rank cuts (run.ckpt_at). */
TILEHYBRID__COLD void tile__ckpt_tick(tile_plan *p, int64_t s)
{
    tile_checkpoint *ck = p->run.ckpt;
    int64_t lmax, last;
    int r = 0, rc = MPI_SUCCESS;
    if (ck == NULL || ck->comm == MPI_COMM_NULL || s < 0 || !p->run.ok ||
        (s + 1) % tile__ckpt_period(p, ck->cfg.every_steps) != 0)
        return;     /* (not ok: stopped after its cut, as every rank is by now) */
    if (ck->cfg.every_steps > 0)
        r |= TILE_CKPT_WRITE;
    if (ck->cfg.every_seconds > 0 || ck->signalled != NULL)
        rc = tile__ckpt_poll(ck, &r);
    if (rc != MPI_SUCCESS) {
        tile__ckpt_mpi_fail(ck, "tile_checkpoint (in a run)", "MPI_Iallreduce", ck->path, rc);
        tile_thread_fail(p, 0, TILE_ERR_MPI, "%s", ck->errmsg);
        return;
    }
    lmax = tile__ckpt_lagmax(p);
    last = p->ntiles + p->threads.skew - 1;     /* the run's last step, every rank's */
    if ((r & TILE_CKPT_WRITE) && s + lmax < last) {
        int64_t at = s + lmax - tile__ckpt_lag(p, p->pcoords) + 1;
#ifdef _OPENMP
#pragma omp critical(tile__ckpt_lock)
#endif
        p->run.ckpt_at = at;
        p->run.ckpt_stop = (r & TILE_CKPT_STOP) != 0;
    } else if ((r & TILE_CKPT_STOP) && ck->signalled != NULL) {
        *ck->signalled = 1;         /* too late in this run: the next boundary's */
    }
}

/* The step whose end cuts (+1; 0: none), read by every thread after the
 * step's barrier while the thread that does the messages may set it. */
static inline int64_t tile__ckpt_at(const tile_plan *p)
{
    int64_t v;
#ifdef _OPENMP
#pragma omp critical(tile__ckpt_lock)
#endif
    v = p->run.ckpt_at;
    return v;
}

/* This rank's cut, at the end of step s, the other threads waiting: write;
 * on the signal, stop (the steps left compute nothing, the run drains and
 * fails with TILE_ERR_CHECKPOINT, ck->stopped set). */
TILEHYBRID__COLD void tile__ckpt_cut(tile_plan *p, int64_t s)
{
    tile_checkpoint *ck = p->run.ckpt;
    if (tile__ckpt_run_write(ck, p, s) != TILE_OK) {
        tile_thread_fail(p, 0, ck->code, "%s", ck->errmsg);
        return;
    }
    if (p->run.ckpt_stop) {
        ck->stopped = 1;
        tile_thread_fail(p, 0, TILE_ERR_CHECKPOINT, "the run stopped after its checkpoint "
                         "'%.200s' at step %lld (the signal): resume it with "
                         "tile_checkpoint_read()", ck->path, (long long)s);
        p->run.ok = 0;
    }
}

/* Why the state a checkpoint gave (run.resume) does not fit plan p now:
 * NULL when it fits. */
static inline const char *tile__ckpt_resume_misfit(tile_plan *p)
{
    int64_t w[TILE__RS_WORDS], h[TILE__RS_WORDS];
    memcpy(w, p->run.resume, sizeof w);
    tile__rs_words(p, w[TILE__RS_CUT], h);
    if (w[TILE__RS_MODEL] != h[TILE__RS_MODEL])
        return "its model";
    if (w[TILE__RS_BLOCK] != h[TILE__RS_BLOCK])
        return "this rank's block, process grid or thread grid";
    if (w[TILE__RS_Z] != h[TILE__RS_Z])
        return "its tile height (give cfg.tile_height, or the plan has hooks that keep the "
               "height its model chose)";
    if (w[TILE__RS_NTILES] != h[TILE__RS_NTILES] || w[TILE__RS_SCHEDW] != h[TILE__RS_SCHEDW] ||
        w[TILE__RS_TA] != h[TILE__RS_TA] || w[TILE__RS_THREADS] != h[TILE__RS_THREADS])
        return "its tiles or threads";
    if (w[TILE__RS_RING] != h[TILE__RS_RING])
        return "its storage (the Z window or the whole space: cfg.storage)";
    if (w[TILE__RS_LAYOUT] != h[TILE__RS_LAYOUT])
        return "its storage's layout (the in-tile order, cfg.order)";
    if (w[TILE__RS_NRED] != h[TILE__RS_NRED])
        return "its number of reductions";
    if (w[TILE__RS_INW] != h[TILE__RS_INW] || w[TILE__RS_INSLOT] != h[TILE__RS_INSLOT])
        return "its input hook";
    if (w[TILE__RS_SIZES] != h[TILE__RS_SIZES] ||
        w[TILE__RS_BYTES] != (int64_t)tile__rs_sections(p, NULL, 1) ||
        (size_t)w[TILE__RS_BYTES] > p->run.resume_bytes)
        return "the toolkit's build";
    if (w[TILE__RS_CUT] < 0 || w[TILE__RS_CUT] + 1 >= p->ntiles + p->threads.skew)
        return "its step";
    return NULL;
}

/* At the start of a run (tile_run_start, before its agreement): a state
 * that does not fit fails the run, on every rank. */
TILEHYBRID__COLD void tile__ckpt_resume_check(tile_plan *p)
{
    const char *why;
    if (p->run.resume == NULL || p->status.code != TILE_OK)
        return;
    if ((why = tile__ckpt_resume_misfit(p)) != NULL) {
        tile__fail(p, TILE_ERR_CHECKPOINT, "checkpoint", -1, "the run a checkpoint saved does "
                   "not fit this plan: %s differs", why);
        TILEHYBRID_FREE(p->run.resume);
        p->run.resume = NULL;
    }
}

/* The run's start (tile__run_begin, after its first schedule): the saved
 * state replaces it, and the run takes up at the step after the cut. */
TILEHYBRID__COLD void tile__ckpt_resume_load(tile_plan *p)
{
    struct tile__io *io = p->run.io;
    int64_t w[TILE__RS_WORDS];
    memcpy(w, p->run.resume, sizeof w);
    p->run.announced = w[TILE__RS_ANNOUNCED];
    p->run.send_next = w[TILE__RS_SEND];
    p->run.recv_next = w[TILE__RS_RECV];
    p->run.recv_pending = -1;
    p->run.nsteps = w[TILE__RS_NSTEPS];
    p->run.bal_changes = w[TILE__RS_BALCH];
    if (io != NULL) {
        io->out_next = w[TILE__RS_OUTNEXT];
        io->in_next = w[TILE__RS_INNEXT];
    }
    tile__rs_sections(p, p->run.resume, 0);
    p->run.first_step = w[TILE__RS_CUT] + 1;
    TILEHYBRID_FREE(p->run.resume);
    p->run.resume = NULL;
}
#else
TILEHYBRID__COLD int tile__ckpt_state_make(tile_checkpoint *ck, size_t bytes, int code);
TILEHYBRID__COLD int tile__ckpt_run_write(tile_checkpoint *ck, tile_plan *p, int64_t cut);
TILEHYBRID__COLD int tile__ckpt_resume_take(tile_checkpoint *ck);
TILEHYBRID__COLD void tile__ckpt_tick(tile_plan *p, int64_t s);
TILEHYBRID__COLD void tile__ckpt_cut(tile_plan *p, int64_t s);
TILEHYBRID__COLD void tile__ckpt_resume_check(tile_plan *p);
TILEHYBRID__COLD void tile__ckpt_resume_load(tile_plan *p);
#endif
