/* ------------------------------------------------------------------------ */
/* The run's hooks (called by the engine; the thread that does the messages) */

#if TILEHYBRID__DEFINE
/* At the start of a run: nothing stored any more, no tile handed out. */
TILEHYBRID__COLD void tile__io_start(tile_plan *p)
{
    struct tile__io *io = p->run.io;
    int k;
    p->run.completed = 0;
    if (io == NULL)
        return;
    io->out_next = 0;
    io->out_failed = 0;
    io->in_next = 0;
    io->in_failed = 0;
    tile__red_prune(p);
    for (k = 0; k < io->nred; k++)
        memset(io->slots[k], 0, sizeof(tile__red_slot) * (size_t)p->cfg.threads);
}
#else
TILEHYBRID__COLD void tile__io_start(tile_plan *p);
#endif

/* At the end of step s (the schedule's call; INT64_MAX: the run's end):
 * hand out every tile every thread finished by step s - 1, that is tile
 * k with sigma(k) + S + 1 <= s.  The threads may compute step s meanwhile,
 * on tiles at most S + 1 ahead, in other slots of the window (it holds
 * S + 2 tiles and more), and the ghost layers they receive are not part of
 * the block: the tile's points do not change while it is packed. */
static inline void tile__io_step(tile_plan *p, int64_t s)
{
    struct tile__io *io = p->run.io;
    if (io == NULL || (io->out_fn == NULL && io->out_dst == NULL) || !p->run.ok)
        return;                     /* (not ok: a run stopped after its checkpoint) */
    while (io->out_next < p->run.announced && io->out_next < p->ntiles &&
           tile__sigma(p, io->out_next) + p->threads.skew + 1 <= s) {
        tile__output(p, io->out_next);
        io->out_next++;
    }
}

#if TILEHYBRID__DEFINE
/* At the end of a run (collective, after the totals): every rank agrees
 * on the run's outcome and on the reductions declared (their number and
 * operations: v[]), then the reductions are combined. */
TILEHYBRID__COLD void tile__io_finish(tile_plan *p)
{
    int nred = p->run.io != NULL ? p->run.io->nred : 0, k, i, agreed, rc;
    const char *call = "";
    tile__agreed *a = (tile__agreed *)TILEHYBRID_MALLOC(sizeof *a);
    uint64_t *buf = NULL;
    if (a == NULL)
        tile__fail(p, TILE_ERR_NOMEM, "", -1, "out of memory to agree on the reductions");
    if (nred > 0) {     /* before the agreement: a failure here stops every rank */
        buf = (uint64_t *)TILEHYBRID_MALLOC(sizeof(uint64_t) * (size_t)nred *
                                            (2 * TILE__RED_SUMS +
                                             ((size_t)p->size + 1) * TILE__RED_CANDS));
        if (buf == NULL)
            tile__fail(p, TILE_ERR_NOMEM, "", -1, "out of memory to combine the reductions");
    }
    if (a != NULL) {
        a->count = 0;
        uint64_t rest = 0;              /* the operations past the first 8, as one */
        tile__agreed_add(a, TILE__NRED_NAME, -1, -1, (uint64_t)nred, 0);
        for (k = 0; k < TILE__RED_NAMED; k++) {
            tile__agreed_add(a, "reduction", k, -1,
                             k < nred ? (uint64_t)p->run.io->red[k]->op : ~(uint64_t)0, 0);
            snprintf(a->name[a->count - 1], sizeof a->name[0], "operation of reduction %c "
                     "(enum tile_reduce_op)", (char)('0' + k));   /* k < 8: 46 characters */
        }
        for (k = TILE__RED_NAMED; k < nred; k++)   /* FNV-1a of their operations */
            rest = (rest ^ (uint64_t)p->run.io->red[k]->op) * 1099511628211u + 1;
        tile__agreed_add(a, "reduction", TILE__RED_NAMED, -1, rest, 0);
        snprintf(a->name[a->count - 1], sizeof a->name[0], "operations of reductions 8 and "
                 "later");
    }
    agreed = tile__agree(p, a) == TILE_OK;
    TILEHYBRID_FREE(a);
    if (agreed && nred > 0 && (rc = tile__red_combine(p, buf, &call)) != MPI_SUCCESS) {
        tile__mpi_failed(p, -1, rc, call, "while combining the reductions at the end of a "
                         "run");
        tile__agree(p, NULL);
    }
    TILEHYBRID_FREE(buf);
    p->run.completed = p->status.code == TILE_OK;
    for (k = 0; !p->run.completed && k < nred; k++) {  /* no stale result of a run before */
        tile_reduction *r = p->run.io->red[k];
        r->count = 0;
        r->value = 0.0;
        r->u64 = 0;
        for (i = 0; i <= TILE_MAX_DIMS; i++)
            r->coord[i] = -1;
    }
}

TILEHYBRID__COLD void tile__io_free(tile_plan *p)
{
    int k;
    if (p->run.io == NULL)
        return;
    for (k = 0; k < p->run.io->nred; k++)   /* (the reductions may be gone: not touched) */
        TILEHYBRID_FREE(p->run.io->slots[k]);
    TILEHYBRID_FREE(p->run.io->slots);
    TILEHYBRID_FREE(p->run.io->red);
    TILEHYBRID_FREE(p->run.io->out_buf);
    if (p->run.io->out_held != NULL)
        --*p->run.io->out_held;
    tile__input_free(p->run.io);
    TILEHYBRID_FREE(p->run.io);
    p->run.io = NULL;
}

/* Is an output or an input hook set (their buffers hold one tile: the
 * tile height's re-choice waits)? */
TILEHYBRID__COLD int tile__io_hooked(const tile_plan *p)
{
    return p->run.io != NULL && (p->run.io->out_fn != NULL || p->run.io->in_fn != NULL);
}
#else
TILEHYBRID__COLD void tile__io_finish(tile_plan *p);
TILEHYBRID__COLD void tile__io_free(tile_plan *p);
TILEHYBRID__COLD int tile__io_hooked(const tile_plan *p);
#endif
