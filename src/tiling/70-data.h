/* ------------------------------------------------------------------------ */
/* Collective data calls: one verdict on every rank                         */

#if TILEHYBRID__DEFINE
/* A collective of data call @fn returned rc: a failure is handled as the
 * engine's ("MPI failures": reported, the communicator aborted); under ULFM
 * it returns, and plan->status keeps the last run's state.  Returns rc. */
TILEHYBRID__COLD int tile__data_mpi(tile_plan *p, int rc, const char *call, const char *fn)
{
    tilehybrid_status keep = p->status;
    char msg[sizeof p->errmsg];
    if (rc == MPI_SUCCESS)
        return rc;
    memcpy(msg, p->errmsg, sizeof msg);
    p->status.code = TILE_OK;
    tile__mpi_failed(p, -1, rc, call, "in %s()", fn);
    p->status = keep;
    memcpy(p->errmsg, msg, sizeof msg);
    return rc;
}

/* The end of a collective data call's checks: every rank gets the same
 * code and message (the lowest failing rank's, "rank R: " in front when
 * there are several ranks; or the first argument of v[] that differs
 * between ranks) in plan->errmsg, and st names the argument (the failing
 * rank's argn[argi], carried by tilehybrid_agree_status()).  plan->status, the state of the
 * creation and the last run, is not touched: a refused data call does not
 * stop the plan from running again.  Collective. */
TILEHYBRID__COLD int tile__data_agree(tile_plan *p, int code, int argi, const char *msg,
                                      const uint64_t *v, int nv, const char *const *argn,
                                      tilehybrid_status *st)
{
    tilehybrid_agreement a;
    tilehybrid_verdict w;
    tilehybrid_status mine;
    int rc, i;
    snprintf(w.text, sizeof w.text, "%s", msg);
    tilehybrid_status_set(&mine, code, argi >= 0 ? argn[argi] : "", -1);
    rc = tilehybrid_agree_status(p->comm, code, &mine, v, nv, &w, &a);
    if (rc != MPI_SUCCESS) {
        tile__data_mpi(p, rc, a.call, argn[0]);
        snprintf(p->errmsg, sizeof p->errmsg, "an MPI call failed while agreeing across ranks");
        return tilehybrid_status_set(st, TILE_ERR_MPI, "", -1);
    }
    if (a.code != 0) {
        if (p->size > 1)
            snprintf(p->errmsg, sizeof p->errmsg, "rank %d: %.300s", a.rank, w.text);
        else
            snprintf(p->errmsg, sizeof p->errmsg, "%s", w.text);
        /* w.arg is argn[argi] of the failing rank's call of this same
         * function (the same static argn on every rank), or "" */
        for (i = 0; w.arg[0] != '\0' && strcmp(argn[i], w.arg) != 0; i++)
            ;
        return tilehybrid_verdict_status(st, &a, &w, w.arg[0] != '\0' ? argn[i] : "");
    }
    if (a.index >= 0) {
        snprintf(p->errmsg, sizeof p->errmsg, "%.40s: argument '%s' differs between ranks "
                 "(%lld vs %lld)", argn[0], argn[a.index + 1], (long long)(int64_t)a.lo,
                 (long long)(int64_t)a.hi);
        return tilehybrid_status_set(st, TILE_ERR_MISMATCH, argn[a.index + 1], a.index);
    }
    if (p->status.code == TILE_OK)  /* an earlier refusal's message is stale now */
        p->errmsg[0] = '\0';
    return tilehybrid_status_set(st, TILE_OK, "", -1);
}

/* Free n datatypes (those that are not MPI_DATATYPE_NULL) and the array. */
TILEHYBRID__COLD void tile__free_types(MPI_Datatype *t, int n)
{
    int i;
    for (i = 0; t != NULL && i < n; i++)
        if (t[i] != MPI_DATATYPE_NULL)
            (void)MPI_Type_free(&t[i]);
    TILEHYBRID_FREE(t);
}

/* The subarray type of box `part` inside an array over box `whole` (both
 * with lengths <= INT_MAX), elements of type elem; MPI_DATATYPE_NULL when
 * part is empty.  Returns an MPI code. */
TILEHYBRID__COLD int tile__subarray(const tile_box *whole, const tile_box *part, MPI_Datatype elem,
                                    MPI_Datatype *t)
{
    int sizes[TILE_MAX_DIMS + 1], sub[TILE_MAX_DIMS + 1], start[TILE_MAX_DIMS + 1], i, rc;
    *t = MPI_DATATYPE_NULL;
    if (tile_box_points(part) == 0)
        return MPI_SUCCESS;
    for (i = 0; i < whole->ndims; i++) {
        sizes[i] = (int)whole->len[i];
        sub[i] = (int)part->len[i];
        start[i] = (int)(part->lo[i] - whole->lo[i]);
    }
    rc = MPI_Type_create_subarray(whole->ndims, sizes, sub, start, MPI_ORDER_C, elem, t);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(t);
    return rc;
}

/* The arguments of tile_gather, checked on this rank: 0 or a code, with
 * the message in msg and the argument's index into its names in *argi. */
TILEHYBRID__COLD int tile__gather_check(const tile_plan *p, int64_t z0, int64_t zlen, int root,
                                        const void *out, char *msg, size_t len, int *argi)
{
    int64_t s0 = 0, sl = 0, pts = zlen;
    int i, recv = root == TILE_ROOT_ALL || root == p->rank;
    if (p->deps.skewed)
        return *argi = 5, snprintf(msg, len, "tile_gather: the plan skews its stencil, so a "
                                   "block is not a box of the user's space; read the result "
                                   "point by point with tile_get() (every point under "
                                   "TILE_STORE_FULL, else the last planes the loop computed)"),
               TILE_ERR_SKEWED;
    if (root < TILE_ROOT_ALL || root >= p->size)
        return *argi = 3, snprintf(msg, len, "tile_gather: root = %d is not a rank of the plan's "
                                   "communicator (0..%d) nor TILE_ROOT_ALL", root, p->size - 1),
               TILE_ERR_RANGE;
    if (z0 < 0 || zlen < 0 || z0 > p->cfg.zlen || zlen > p->cfg.zlen - z0)
        return *argi = 2, snprintf(msg, len, "tile_gather: the Z range z0 = %lld, zlen = %lld "
                                   "is not inside the space [0, %lld)", (long long)z0,
                                   (long long)zlen, (long long)p->cfg.zlen), TILE_ERR_RANGE;
    if (tile_stored_zrange(p, &s0, &sl) != TILE_OK)
        return *argi = 5, snprintf(msg, len, "tile_gather: the plan has no result: it has not "
                                   "run yet, or its last run failed"), TILE_ERR_NOT_STORED;
    if (zlen > 0 && (z0 < s0 || z0 + zlen > s0 + sl))
        return *argi = 2, snprintf(msg, len, "tile_gather: planes z = %lld..%lld are not stored:"
                                   " the Z window keeps z = %lld..%lld after a run; use "
                                   "TILE_STORE_FULL, or tile_output_set() to receive every "
                                   "tile during the run", (long long)z0,
                                   (long long)(z0 + zlen - 1), (long long)s0,
                                   (long long)(s0 + sl - 1)), TILE_ERR_NOT_STORED;
    if (recv && out == NULL && zlen > 0)
        return *argi = 4, snprintf(msg, len, "tile_gather: out is NULL on a receiving rank"),
               TILE_ERR_NULL;
    for (i = 0; i < p->cfg.n; i++)
        if (p->cfg.extent[i] > INT_MAX || !tilehybrid_mul_ok(pts, p->len[i], &pts))
            pts = (int64_t)INT_MAX + 1;
    if (zlen > INT_MAX || pts > INT_MAX)
        return *argi = 2, snprintf(msg, len, "tile_gather: an extent, the Z range or a block "
                                   "of it exceeds INT_MAX points (MPI counts); gather fewer "
                                   "planes at a time"), TILE_ERR_OVERFLOW;
    return TILE_OK;
}

/* The receive types of tile_gather: rank r's block over the Z range inside
 * the global array over `all`.  Returns an MPI code. */
TILEHYBRID__COLD int tile__gather_types(const tile_plan *p, const tile_box *all, MPI_Datatype elem,
                                        MPI_Datatype *rt)
{
    int r, rc = MPI_SUCCESS, pc[TILE_MAX_DIMS];
    for (r = 0; r < p->size && rc == MPI_SUCCESS; r++) {
        tile_box b;
        rc = MPI_Cart_coords(p->comm, r, p->cfg.n, pc);
        if (rc != MPI_SUCCESS)
            break;
        tile__cart_to_internal(p, pc);
        tile__block_box(p, pc, &b);
        b.lo[p->cfg.n] = all->lo[p->cfg.n];
        b.len[p->cfg.n] = all->len[p->cfg.n];
        rc = tile__subarray(all, &b, elem, &rt[r]);
    }
    return rc;
}
#else
TILEHYBRID__COLD int tile__data_mpi(tile_plan *p, int rc, const char *call, const char *fn);
TILEHYBRID__COLD int tile__data_agree(tile_plan *p, int code, int argi, const char *msg,
                                      const uint64_t *v, int nv, const char *const *argn,
                                      tilehybrid_status *st);
TILEHYBRID__COLD void tile__free_types(MPI_Datatype *t, int n);
TILEHYBRID__COLD int tile__subarray(const tile_box *whole, const tile_box *part, MPI_Datatype elem,
                                    MPI_Datatype *t);
TILEHYBRID__COLD int tile__gather_check(const tile_plan *p, int64_t z0, int64_t zlen, int root,
                                        const void *out, char *msg, size_t len, int *argi);
TILEHYBRID__COLD int tile__gather_types(const tile_plan *p, const tile_box *all, MPI_Datatype elem,
                                        MPI_Datatype *rt);
#endif

/* The arrays of an MPI_Alltoallw: counts, displacements, types. */
typedef struct tile__a2a {
    int *scount, *sdisp, *rcount, *rdisp;
    MPI_Datatype *stype, *rtype;
} tile__a2a;

#if TILEHYBRID__DEFINE
/* Allocate for P ranks, counts 0, every type `fill`; 0 or MPI_ERR_NO_MEM. */
TILEHYBRID__COLD int tile__a2a_alloc(tile__a2a *a, int P, MPI_Datatype fill)
{
    int r;
    a->scount = (int *)TILEHYBRID_MALLOC(sizeof(int) * 4 * (size_t)P);
    a->stype = (MPI_Datatype *)TILEHYBRID_MALLOC(sizeof(MPI_Datatype) * 2 * (size_t)P);
    if (a->scount == NULL || a->stype == NULL) {
        TILEHYBRID_FREE(a->scount);
        TILEHYBRID_FREE(a->stype);
        a->scount = NULL;
        a->stype = NULL;
        return MPI_ERR_NO_MEM;
    }
    a->sdisp = a->scount + P;
    a->rcount = a->scount + 2 * P;
    a->rdisp = a->scount + 3 * P;
    a->rtype = a->stype + P;
    for (r = 0; r < 4 * P; r++)
        a->scount[r] = 0;
    for (r = 0; r < 2 * P; r++)
        a->stype[r] = fill;
    return MPI_SUCCESS;
}

TILEHYBRID__COLD void tile__a2a_free(tile__a2a *a)
{
    TILEHYBRID_FREE(a->scount);
    TILEHYBRID_FREE(a->stype);
}
#else
TILEHYBRID__COLD int tile__a2a_alloc(tile__a2a *a, int P, MPI_Datatype fill);
TILEHYBRID__COLD void tile__a2a_free(tile__a2a *a);
#endif

/* A data movement by one MPI_Alltoallw: its arrays, the element type, the
 * subarray types it made, the packed send buffer. */
typedef struct tile__move {
    tile__a2a a;
    MPI_Datatype elem;
    MPI_Datatype *sub;      /* 2P: sent to rank r, received from rank r */
    unsigned char *buf;
} tile__move;

#if TILEHYBRID__DEFINE
/* Allocate the movement's arrays for P ranks and the element type of esz
 * bytes, with bufbytes of send buffer (local): an MPI code. */
TILEHYBRID__COLD int tile__move_init(tile__move *m, int P, size_t esz, size_t bufbytes)
{
    int r, rc;
    memset(m, 0, sizeof *m);
    m->elem = MPI_DATATYPE_NULL;
    m->sub = (MPI_Datatype *)TILEHYBRID_MALLOC(sizeof(MPI_Datatype) * 2 * (size_t)P);
    m->buf = (unsigned char *)TILEHYBRID_MALLOC(bufbytes > 0 ? bufbytes : 1);
    for (r = 0; m->sub != NULL && r < 2 * P; r++)
        m->sub[r] = MPI_DATATYPE_NULL;
    rc = m->sub == NULL || m->buf == NULL ? MPI_ERR_NO_MEM : tile__a2a_alloc(&m->a, P, MPI_BYTE);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_contiguous((int)esz, MPI_BYTE, &m->elem);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(&m->elem);
    return rc;
}

TILEHYBRID__COLD void tile__move_free(tile__move *m, int P)
{
    tile__a2a_free(&m->a);
    if (m->elem != MPI_DATATYPE_NULL)
        (void)MPI_Type_free(&m->elem);
    tile__free_types(m->sub, m->sub == NULL ? 0 : 2 * P);
    TILEHYBRID_FREE(m->buf);
}

/* Local preparation of tile_gather's movement: pack the block over the Z
 * range of `all`, send it to the root (or every rank), receive (on a
 * receiving rank) each rank's block through a subarray type of the global
 * array: an MPI code. */
TILEHYBRID__COLD int tile__gather_prepare(const tile_plan *p, const tile_box *all, int root,
                                          tile__move *m)
{
    tile_box mine;
    int P = p->size, n = p->cfg.n, r, rc, recv = root == TILE_ROOT_ALL || root == p->rank;
    int64_t zi0 = p->deps.dir[n] > 0 ? all->lo[n] : p->cfg.zlen - all->lo[n] - all->len[n];
    tile__block_box(p, p->pcoords, &mine);
    mine.lo[n] = all->lo[n];
    mine.len[n] = all->len[n];
    rc = tile__move_init(m, P, p->cfg.elem_size,
                         (size_t)tile_box_points(&mine) * p->cfg.elem_size);
    if (rc == MPI_SUCCESS && recv)
        rc = tile__gather_types(p, all, m->elem, m->sub + P);
    if (rc != MPI_SUCCESS)
        return rc;
    tile__pack_block(p, zi0, zi0 + all->len[n], &mine, TILE_LAYOUT_Z_LAST, m->buf);
    for (r = 0; r < P; r++) {
        if (root == TILE_ROOT_ALL || root == r) {
            m->a.scount[r] = (int)tile_box_points(&mine);
            m->a.stype[r] = m->elem;
        }
        if (m->sub[P + r] != MPI_DATATYPE_NULL) {
            m->a.rcount[r] = 1;
            m->a.rtype[r] = m->sub[P + r];
        }
    }
    return MPI_SUCCESS;
}

/* A local step of a collective data call failed with MPI code rc (0 when
 * it did not): the code for tile__data_agree, the message in msg. */
TILEHYBRID__COLD int tile__mpi_code(int rc, const char *fn, const char *what, char *msg, size_t len)
{
    if (rc == MPI_SUCCESS)
        return TILE_OK;
    snprintf(msg, len, "%s: %s", fn, rc == MPI_ERR_NO_MEM ? "out of memory" : what);
    return rc == MPI_ERR_NO_MEM ? TILE_ERR_NOMEM : TILE_ERR_MPI;
}

/* The collective of tile_gather() and tile_exchange(): MPI_Alltoallw of
 * the prepared move m from sbuf to rbuf, then the agreement on its outcome
 * (a failure named after argn[0], the calling function). */
TILEHYBRID__COLD int tile__move_alltoallw(tile_plan *plan, const tile__move *m, const void *sbuf,
                                          void *rbuf, const char *const *argn,
                                          tilehybrid_status *st)
{
    char msg[sizeof plan->errmsg] = "";
    int code = tile__mpi_code(tile__data_mpi(plan, MPI_Alltoallw(sbuf, m->a.scount, m->a.sdisp,
                                                                 m->a.stype, rbuf, m->a.rcount,
                                                                 m->a.rdisp, m->a.rtype,
                                                                 plan->comm),
                                             "MPI_Alltoallw", argn[0]),
                              argn[0], "MPI_Alltoallw failed", msg, sizeof msg);
    return tile__data_agree(plan, code, -1, msg, NULL, 0, argn, st);
}

/**
 * tile_gather() - copy the plan's result into the global array, on one
 * rank or on every rank.
 * @plan: the plan, after a run that completed without error.
 * @z0, @zlen: the planes z0 .. z0 + zlen - 1 (user coordinates), which
 *        must be stored: every plane under TILE_STORE_FULL, else the
 *        range tile_stored_zrange() gives (the last planes the loop
 *        computed); zlen 0 gathers nothing.
 * @root: the rank of the plan's communicator that receives, or
 *        TILE_ROOT_ALL for every rank.
 * @out:  on a receiving rank, X_1 x ... x X_N x zlen elements of
 *        cfg.elem_size bytes: the global array, row-major in the user's
 *        coordinates with Z last (element (x, z) at
 *        ((x_1 X_2 + x_2) ... X_N + x_N) zlen + (z - z0)); ignored elsewhere
 *        (may be NULL).
 * @st:   NULL, or the argument at fault and the rank that found it.
 *
 * A NULL @plan is TILE_ERR_NULL on that rank only: without a plan there is
 * no communicator to tell the others, which wait in the collective forever
 * (a usage error the other ranks cannot detect: pass the plan everywhere).
 * Collective over the plan's communicator: every rank passes the same z0,
 * zlen and root (otherwise TILE_ERR_MISMATCH on every rank).  Not while
 * the plan runs: from its body or one of its hooks it returns
 * TILE_ERR_BODY at once, on the calling rank only, entering no collective
 * (the other ranks go on with the run, which ends normally; nor may a
 * body or hook call it on another plan: the ranks that run would not
 * join).  A copy, bit
 * for bit: the array equals the sequential loop's.  Each rank sends its
 * block (one message; MPI places it through a subarray type).  On error
 * every rank returns the same code with the same message in plan->errmsg;
 * plan->status keeps the state of the last run, and the plan can run
 * again.
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_RANGE (root, Z range),
 * TILE_ERR_NOT_STORED (no completed run, or planes the window dropped),
 * TILE_ERR_MISMATCH, TILE_ERR_OVERFLOW (an extent, zlen or a block above
 * INT_MAX points), TILE_ERR_MPI, TILE_ERR_SKEWED (a plan that skews its
 * stencil: use tile_get()), TILE_ERR_BODY (the plan is running: a call
 * from its body or a hook; local), or the code of the plan's failed
 * creation.
 */
TILEHYBRID__COLD int tile_gather(tile_plan *plan, int64_t z0, int64_t zlen, int root, void *out,
                                 tilehybrid_status *st)
{
    static const char *const argn[6] = { "tile_gather", "z0", "zlen", "root", "out", "plan" };
    uint64_t v[3];
    char msg[sizeof plan->errmsg] = "";
    int code = TILE_OK, argi = -1, rc;
    tile_box all;
    tile__move m;
    if ((rc = tile__busy_refused(plan)) != TILE_OK)
        return tilehybrid_status_set(st, rc, "plan", -1);
    v[0] = (uint64_t)z0;
    v[1] = (uint64_t)zlen;
    v[2] = (uint64_t)(int64_t)root;
    rc = tile__data_agree(plan, TILE_OK, -1, "", v, 3, argn, st);
    if (rc != TILE_OK)
        return rc;
    code = tile__gather_check(plan, z0, zlen, root, out, msg, sizeof msg, &argi);
    rc = tile__data_agree(plan, code, argi, msg, NULL, 0, argn, st);
    if (rc != TILE_OK || zlen == 0)
        return rc;
    memset(&all, 0, sizeof all);
    all.ndims = plan->cfg.n + 1;
    for (argi = 0; argi < plan->cfg.n; argi++)
        all.len[argi] = plan->cfg.extent[argi];
    all.lo[plan->cfg.n] = z0;
    all.len[plan->cfg.n] = zlen;
    /* every rank allocates and builds its types first: a failure there
     * stops every rank before the collective */
    code = tile__mpi_code(tile__gather_prepare(plan, &all, root, &m), argn[0],
                          "a datatype call failed", msg, sizeof msg);
    rc = tile__data_agree(plan, code, -1, msg, NULL, 0, argn, st);
    if (rc == TILE_OK)
        rc = tile__move_alltoallw(plan, &m, m.buf, out, argn, st);
    tile__move_free(&m, plan->size);
    return rc;
}

/* A box that MPI can describe: 1..N+1 dimensions, lengths 0..INT_MAX, a
 * point count and an end that fit 64 bits; 1 if so. */
TILEHYBRID__COLD int tile__box_ok(const tile_box *b)
{
    int64_t v = 1, end = 0;
    int i;
    if (b->ndims < 1 || b->ndims > TILE_MAX_DIMS + 1)
        return 0;
    for (i = 0; i < b->ndims; i++)
        if (b->len[i] < 0 || b->len[i] > INT_MAX || !tilehybrid_mul_ok(v, b->len[i], &v) ||
            !tilehybrid_add_ok(b->lo[i], b->len[i], &end))
            return 0;
    return 1;
}

/* Do the byte ranges [a, a + na) and [b, b + nb) share a byte?  (As
 * addresses: arrays of different objects cannot be compared as pointers.) */
TILEHYBRID__COLD int tile__bytes_overlap(const void *a, size_t na, const void *b, size_t nb)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return na > 0 && nb > 0 && (x < y ? y - x < na : x - y < nb);
}

/* tile_exchange's arguments on this rank: 0 or a code, message, argument. */
TILEHYBRID__COLD int tile__exchange_check(const char *fn, size_t esz, const tile_box *have,
                                          const void *src, const tile_box *want, const void *dst,
                                          char *msg, size_t len, int *argi)
{
    if (have == NULL || want == NULL)
        return *argi = have == NULL ? 3 : 5, snprintf(msg, len, "%s: %s is NULL", fn,
                                                      have == NULL ? "have" : "want"),
               TILE_ERR_NULL;
    if (esz < 1 || esz > ((size_t)1 << 30))
        return *argi = 1, snprintf(msg, len, "%s: elem_size = %llu: must be in "
                                   "1..2^30", fn, (unsigned long long)esz), TILE_ERR_ELEM;
    if (!tile__box_ok(have) || !tile__box_ok(want) || have->ndims != want->ndims)
        return *argi = !tile__box_ok(have) ? 3 : 5,
               snprintf(msg, len, "%s: the %s box is invalid (1..%d dimensions, the "
                        "same for have and want; lengths 0..INT_MAX; sizes within 64 bits)",
                        fn, !tile__box_ok(have) ? "have" : "want", TILE_MAX_DIMS + 1),
               TILE_ERR_RANGE;
    if ((src == NULL && tile_box_points(have) > 0) || (dst == NULL && tile_box_points(want) > 0))
        return *argi = src == NULL ? 4 : 6, snprintf(msg, len, "%s: %s is NULL but "
                                                     "its box is not empty", fn,
                                                     src == NULL ? "src" : "dst"),
               TILE_ERR_NULL;
    if (tile_box_points(have) > 0 && tile_box_points(want) > 0 &&
        tile__bytes_overlap(src, (size_t)tile_box_points(have) * esz, dst,
                            (size_t)tile_box_points(want) * esz))
        return *argi = 6, snprintf(msg, len, "%s: dst overlaps src (%s): the array "
                                   "filled must not share memory with the array sent from; "
                                   "pass another array for dst (MPI forbids receiving into "
                                   "a send buffer)", fn, src == dst ? "the same address" :
                                   "the arrays share bytes"), TILE_ERR_RANGE;
    return TILE_OK;
}

/* Every point of `want` must be in exactly one rank's have box: 0, or a
 * code and the message. */
TILEHYBRID__COLD int tile__exchange_cover(const char *fn, const tile_box *haves, int P,
                                          const tile_box *want, char *msg, size_t len)
{
    int64_t got = 0;
    int r, q;
    tile_box a, b, c;
    for (r = 0; r < P; r++)
        if (tile_box_intersect(&haves[r], want, &a)) {
            got += tile_box_points(&a);
            for (q = 0; q < r; q++)
                if (tile_box_intersect(&haves[q], &a, &b) && tile_box_intersect(&b, want, &c))
                    return snprintf(msg, len, "%s: points of the want box are in the "
                                    "have boxes of ranks %d and %d: the have boxes must not "
                                    "overlap where a rank wants data", fn, q, r), TILE_ERR_RANGE;
        }
    if (got != tile_box_points(want))
        return snprintf(msg, len, "%s: the want box is not covered: %lld of its %lld "
                        "points are in no rank's have box", fn,
                        (long long)(tile_box_points(want) -
                                                                         got),
                        (long long)tile_box_points(want)), TILE_ERR_RANGE;
    return TILE_OK;
}

/* Local preparation of tile_exchange's movement from the boxes of every
 * rank (boxes[2r] have, boxes[2r + 1] want): coverage, then the subarray
 * types of what goes to and comes from each rank.  0 or a code. */
TILEHYBRID__COLD int tile__exchange_prepare(const tile_plan *p, const char *fn, size_t esz,
                                            const tile_box *boxes, tile__move *m, char *msg,
                                            size_t len)
{
    int P = p->size, me = p->rank, r, rc;
    tile_box *haves = (tile_box *)TILEHYBRID_MALLOC(sizeof(tile_box) * (size_t)P), c;
    rc = tile__move_init(m, P, esz, 0);
    if (haves == NULL || rc != MPI_SUCCESS) {
        TILEHYBRID_FREE(haves);
        return tile__mpi_code(haves == NULL ? MPI_ERR_NO_MEM : rc, fn,
                              "MPI_Type_contiguous failed", msg, len);
    }
    for (r = 0; r < P; r++)
        haves[r] = boxes[2 * r];
    rc = tile__exchange_cover(fn, haves, P, &boxes[2 * me + 1], msg, len);
    TILEHYBRID_FREE(haves);
    for (r = 0; r < P && rc == TILE_OK; r++) {
        int mpi;
        tile_box_intersect(&boxes[2 * me], &boxes[2 * r + 1], &c);
        mpi = tile__subarray(&boxes[2 * me], &c, m->elem, &m->sub[r]);
        tile_box_intersect(&boxes[2 * r], &boxes[2 * me + 1], &c);
        if (mpi == MPI_SUCCESS)
            mpi = tile__subarray(&boxes[2 * me + 1], &c, m->elem, &m->sub[P + r]);
        rc = tile__mpi_code(mpi, fn, "a datatype call failed", msg, len);
        m->a.scount[r] = m->sub[r] != MPI_DATATYPE_NULL;
        m->a.stype[r] = m->a.scount[r] ? m->sub[r] : MPI_BYTE;
        m->a.rcount[r] = m->sub[P + r] != MPI_DATATYPE_NULL;
        m->a.rtype[r] = m->a.rcount[r] ? m->sub[P + r] : MPI_BYTE;
    }
    return rc;
}

/**
 * tile_exchange() - move user arrays between ranks, box to box: each rank
 * has an array over one box and gets an array over another.
 * @plan: a plan; its communicator carries the exchange (plans created on
 *        the same communicator number their ranks alike, so any plan of a
 *        chain will do).
 * @esz:  bytes per element (the same on every rank; it need not be the
 *        plan's element size).
 * @have, @src: the box this rank holds and its array (row-major in the
 *        user's coordinates, Z last); src may be NULL when the box is
 *        empty.  Where ranks want data, the have boxes must not overlap.
 * @want, @dst: the box this rank needs and its array, filled here; every
 *        point of it must be in some rank's have box.  dst must not
 *        share memory with src (MPI forbids receiving into a send buffer):
 *        TILE_ERR_RANGE naming dst, when both boxes are not empty.
 * @st:   NULL, or the argument at fault and the rank that found it.
 *
 * Collective over the plan's communicator, and not while the plan runs:
 * from its body or one of its hooks it returns TILE_ERR_BODY at once, on
 * the calling rank only, entering no collective (the other ranks go on
 * with the run, which ends normally; nor may a body or hook call it on
 * another plan: the ranks that run would not join).  The chain of two plans (a
 * result of one plan is the input of the next, with a halo or on another
 * grid; in another direction alone the blocks are the same and the next
 * plan reads the array where it is) is: tile_output_to() copies each
 * finished tile into an array over this rank's block (one copy), then
 * tile_exchange() from
 * that block (tile_input_box(first, TILE_ALL_TILES, NULL)) to the box the
 * next plan reads (tile_input_box(next, TILE_ALL_TILES, &reach)).  Only
 * what lies on another rank travels; a bitwise copy.  The boxes may have
 * any number of dimensions up to N + 1 (the same for have and want, and on
 * every rank), lengths up to INT_MAX.  One MPI_Allgather of the boxes and
 * one MPI_Alltoallw with subarray types.  On error every rank returns the
 * same code and message (plan->errmsg); nothing is received.
 * Return: TILE_OK, TILE_ERR_NULL, TILE_ERR_ELEM, TILE_ERR_RANGE (an
 * invalid box, a want box not covered or covered twice, dst overlapping
 * src), TILE_ERR_MISMATCH (esz or ndims differ), TILE_ERR_NOMEM,
 * TILE_ERR_MPI, TILE_ERR_BODY (the plan is running: a call from its body
 * or a hook; local), or the code of the plan's failed creation.
 */
/* The collective set-up of a movement from every rank's have box to its
 * want box (tile_exchange, tile_route_create; argn[0] names the call, its
 * arguments argn[1..6] as tile_exchange's): the arguments checked and
 * agreed, the boxes gathered, m prepared.  TILE_OK or the agreed code
 * (plan->errmsg); m is the caller's to free either way. */
TILEHYBRID__COLD int tile__exchange_setup(tile_plan *plan, size_t esz, const tile_box *have,
                                          const void *src, const tile_box *want,
                                          const void *dst, const char *const *argn,
                                          tile__move *m, tilehybrid_status *st)
{
    char msg[sizeof plan->errmsg] = "";
    int code, argi = -1, rc, P = plan->size;
    uint64_t v[2];
    tile_box *boxes, two[2];
    memset(m, 0, sizeof *m);
    m->elem = MPI_DATATYPE_NULL;
    code = tile__exchange_check(argn[0], esz, have, src, want, dst, msg, sizeof msg, &argi);
    v[0] = (uint64_t)esz;
    v[1] = (uint64_t)(int64_t)(have != NULL ? have->ndims : 0);
    boxes = (tile_box *)TILEHYBRID_MALLOC(sizeof(tile_box) * 2 * (size_t)P);
    if (code == TILE_OK && boxes == NULL)
        code = tile__mpi_code(MPI_ERR_NO_MEM, argn[0], "", msg, sizeof msg);
    rc = tile__data_agree(plan, code, argi, msg, v, 2, argn, st);
    if (rc == TILE_OK) {
        two[0] = *have;
        two[1] = *want;
        code = tile__mpi_code(tile__data_mpi(plan, MPI_Allgather(two, (int)sizeof two, MPI_BYTE,
                                                                 boxes, (int)sizeof two,
                                                                 MPI_BYTE, plan->comm),
                                             "MPI_Allgather", argn[0]),
                              argn[0], "MPI_Allgather failed", msg, sizeof msg);
        if (code == TILE_OK)
            code = tile__exchange_prepare(plan, argn[0], esz, boxes, m, msg, sizeof msg);
        rc = tile__data_agree(plan, code, -1, msg, NULL, 0, argn, st);
    }
    TILEHYBRID_FREE(boxes);
    return rc;
}

TILEHYBRID__COLD int tile_exchange(tile_plan *plan, size_t esz, const tile_box *have,
                                   const void *src, const tile_box *want, void *dst,
                                   tilehybrid_status *st)
{
    static const char *const argn[7] = { "tile_exchange", "elem_size", "ndims", "have", "src",
                                         "want", "dst" };
    int rc;
    tile__move m;
    if ((rc = tile__busy_refused(plan)) != TILE_OK)
        return tilehybrid_status_set(st, rc, "plan", -1);
    rc = tile__exchange_setup(plan, esz, have, src, want, dst, argn, &m, st);
    if (rc == TILE_OK)
        rc = tile__move_alltoallw(plan, &m, src, dst, argn, st);
    tile__move_free(&m, plan->size);
    return rc;
}
#else
TILEHYBRID__COLD int tile__move_init(tile__move *m, int P, size_t esz, size_t bufbytes);
TILEHYBRID__COLD void tile__move_free(tile__move *m, int P);
TILEHYBRID__COLD int tile__gather_prepare(const tile_plan *p, const tile_box *all, int root,
                                          tile__move *m);
TILEHYBRID__COLD int tile__mpi_code(int rc, const char *fn, const char *what, char *msg,
                                    size_t len);
TILEHYBRID__COLD int tile__move_alltoallw(tile_plan *plan, const tile__move *m, const void *sbuf,
                                          void *rbuf, const char *const *argn,
                                          tilehybrid_status *st);
TILEHYBRID__COLD int tile_gather(tile_plan *plan, int64_t z0, int64_t zlen, int root, void *out,
                                 tilehybrid_status *st);
TILEHYBRID__COLD int tile__box_ok(const tile_box *b);
TILEHYBRID__COLD int tile__bytes_overlap(const void *a, size_t na, const void *b, size_t nb);
TILEHYBRID__COLD int tile__exchange_check(const char *fn, size_t esz, const tile_box *have,
                                          const void *src, const tile_box *want, const void *dst,
                                          char *msg, size_t len, int *argi);
TILEHYBRID__COLD int tile__exchange_cover(const char *fn, const tile_box *haves, int P,
                                          const tile_box *want, char *msg, size_t len);
TILEHYBRID__COLD int tile__exchange_prepare(const tile_plan *p, const char *fn, size_t esz,
                                            const tile_box *boxes, tile__move *m, char *msg,
                                            size_t len);
TILEHYBRID__COLD int tile__exchange_setup(tile_plan *plan, size_t esz, const tile_box *have,
                                          const void *src, const tile_box *want,
                                          const void *dst, const char *const *argn,
                                          tile__move *m, tilehybrid_status *st);
TILEHYBRID__COLD int tile_exchange(tile_plan *plan, size_t esz, const tile_box *have,
                                   const void *src, const tile_box *want, void *dst,
                                   tilehybrid_status *st);
#endif
