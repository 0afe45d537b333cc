/* ------------------------------------------------------------------------ */
/* MPI: plans, scatter, gather, calibration                                 */
/* ------------------------------------------------------------------------ */
#ifndef TILEHYBRID_NO_MPI

#if defined(MPI_VERSION) && MPI_VERSION >= 4 && !defined(SLB_NO_LARGE_COUNT)
#define SLB__LARGE 1
#else
#define SLB__LARGE 0
#endif

/* slb_options_default() -- documented at its declaration (05-api.h). */
static inline slb_options slb_options_default(void)
{
    slb_options o;
    o.method = SLB_METHOD_EXACT;
    o.order = SLB_ORDER_BANDWIDTH;
    o.large_count = 1;
    return o;
}

static inline void slb__plan_zero(slb_plan *pl)
{
    memset(pl, 0, sizeof *pl);
    pl->comm = MPI_COMM_NULL;
    pl->ordered = MPI_COMM_NULL;
    pl->type = MPI_DATATYPE_NULL;
}

/* slb_plan_free() -- documented at its declaration (05-api.h). */
static inline void slb_plan_free(slb_plan *pl)
{
    if (pl != NULL) {
        void *const mem[] = { pl->counts, pl->displs,  pl->order,
                              pl->finish, pl->xcounts, pl->xdispls };
        if (pl->ordered != MPI_COMM_NULL)
            (void)MPI_Comm_free(&pl->ordered);
        slb__free_each(mem, (int)(sizeof mem / sizeof mem[0]));
        slb__plan_zero(pl);
    }
}

/* ---- errors across ranks ---- */

/* The failing rank's argument (w->arg) as one of the names a status of
 * this header can carry ("" when it is none of them). */
static inline const char *slb__known_arg(const tilehybrid_verdict *w)
{
    static const char *const names[] = {
        "comm", "root", "n", "type", "opts.method", "opts.order", "opts.large_count",
        "mine", "pb", "plan", "recvbuf", "recvcap", "sample", "comp_sample", "comm_sample",
        "reps", "work", "comp0", "mu", "comm0", "lambda", "order", "counts", "sendbuf",
        "MPI_Type_size"}; /* SLB_ERR_MPI: the local call that failed, agreed on */
    return tilehybrid_verdict_arg(w, names, (int)(sizeof names / sizeof names[0]), "");
}

/* MPI call @call failed on this rank with @mpi_error: SLB_ERR_MPI, and st
 * (if not NULL) names the call (st->arg, as balance.h and topology.h do),
 * its code and the rank. */
static inline int slb__mpi_fail(tilehybrid_status *st, int mpi_error, const char *call, int rank)
{
    (void)tilehybrid_status_set(st, SLB_ERR_MPI, call, -1);
    if (st != NULL) {
        st->rank = rank;
        st->mpi_error = mpi_error;
    }
    return SLB_ERR_MPI;
}

/* An MPI call of a plan or calibration collective failed on this rank:
 * the other ranks would wait for it forever, and a failure on one rank
 * cannot be agreed on.  The headers' one path, tilehybrid_mpi_failed():
 * the call, the rank and MPI's error text on stderr (or to the hook of
 * tilehybrid_mpi_failure_swap()), then MPI_Abort.  Returns SLB_ERR_MPI
 * only if MPI_Abort returns. */
static inline int slb__mpi_abort(MPI_Comm comm, int mpi_error, const char *call,
                                 const char *what, tilehybrid_status *st, int rank)
{
    tilehybrid_mpi_failed(comm, mpi_error, call, SLB_ERR_MPI, "in scatterlb.h's %s", what);
    return slb__mpi_fail(st, mpi_error, call, rank);
}

/* One collective (tilehybrid_agree): every rank's verdict -- code, and
 * mine's argument, index and MPI error -- and nv values v that must be
 * equal on every rank (names[i] names v[i]).  Afterwards every rank holds
 * the same code and status: the lowest failing rank's, or SLB_ERR_MISMATCH
 * naming the first value that differs. */
static inline int slb__agree(MPI_Comm comm, int code, const tilehybrid_status *mine,
                             const uint64_t *v, const char *const *names, int nv,
                             tilehybrid_status *st)
{
    tilehybrid_verdict w;
    tilehybrid_agreement a;
    int rc, rank = -1;
    w.text[0] = '\0';
    rc = tilehybrid_agree_status(comm, code, mine, v, nv, &w, &a);
    if (rc != MPI_SUCCESS) {
        (void)MPI_Comm_rank(comm, &rank);
        return slb__mpi_abort(comm, rc, a.call, "agreement of the ranks' verdicts (tilehybrid_agree)",
                              st, rank);
    }
    if (a.code != 0)
        return tilehybrid_verdict_status(st, &a, &w, slb__known_arg(&w));
    if (a.index >= 0)
        return tilehybrid_status_set(st, SLB_ERR_MISMATCH, names[a.index], -1);
    return SLB_OK;
}

/* ---- plan creation ---- */

/* This rank's own checks of the plan's arguments. */
static inline int slb__plan_check(const slb_plan *pl, MPI_Datatype type, const slb_options *o,
                                  int *ts, tilehybrid_status *lst)
{
    int rc;
    if (pl->n < 0)
        return tilehybrid_status_set(lst, SLB_ERR_ITEMS, "n", -1);
    if (pl->root < 0 || pl->root >= pl->size)
        return tilehybrid_status_set(lst, SLB_ERR_ROOT, "root", -1);
    if (slb_method_name(o->method) == NULL)
        return tilehybrid_status_set(lst, SLB_ERR_METHOD, "opts.method", -1);
    if (o->order != SLB_ORDER_BANDWIDTH && o->order != SLB_ORDER_GIVEN)
        return tilehybrid_status_set(lst, SLB_ERR_METHOD, "opts.order", -1);
    if (type == MPI_DATATYPE_NULL)
        return tilehybrid_status_set(lst, SLB_ERR_ARG, "type", -1);
    rc = MPI_Type_size(type, ts);
    if (rc != MPI_SUCCESS)
        return slb__mpi_fail(lst, rc, "MPI_Type_size", pl->rank);
    return SLB_OK;
}

/* Shared front of plan creation: this rank's verdict (local, lst: e.g. on
 * its costs) and its checks, agreed with the values every rank must share. */
static inline int slb__plan_start(slb_plan *pl, MPI_Comm comm, int root, int64_t n,
                                  MPI_Datatype type, const slb_options *opts, int local,
                                  tilehybrid_status *lst, slb_options *o, tilehybrid_status *st)
{
    static const char *const names[6] = {"n",           "root",       "type",
                                          "opts.method", "opts.order", "opts.large_count"};
    uint64_t v[6];
    int ts = 0, rc;
    slb__plan_zero(pl);
    *o = opts ? *opts : slb_options_default();
    if (comm == MPI_COMM_NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, "comm", -1);
    if ((rc = MPI_Comm_size(comm, &pl->size)) != MPI_SUCCESS)
        return slb__mpi_abort(comm, rc, "MPI_Comm_size", "plan creation, on comm", st, -1);
    if ((rc = MPI_Comm_rank(comm, &pl->rank)) != MPI_SUCCESS)
        return slb__mpi_abort(comm, rc, "MPI_Comm_rank", "plan creation, on comm", st, -1);
    pl->comm = comm;
    pl->type = type;
    pl->root = root;
    pl->n = n;
    pl->method = o->method;
    pl->policy = o->order;
    if (local == SLB_OK)
        local = slb__plan_check(pl, type, o, &ts, lst);
    v[0] = (uint64_t)n;
    v[1] = (uint64_t)(int64_t)root;
    v[2] = (uint64_t)(int64_t)ts;
    v[3] = (uint64_t)(int64_t)o->method;
    v[4] = (uint64_t)(int64_t)o->order;
    v[5] = (uint64_t)(int64_t)o->large_count;
    return slb__agree(comm, local, lst, v, names, 6, st);
}

/* Solve at the root for a problem indexed by rank. */
static inline int slb__plan_solve(const slb_problem *pb, int64_t n, int root,
                                  const slb_options *o, int64_t *ord, int64_t *cnt, double *fin,
                                  double *mk, tilehybrid_status *lst)
{
    slb_info in;
    int64_t r, t = 0;
    int rc = SLB_OK;
    slb__info_reset(&in);
    if (o->order == SLB_ORDER_BANDWIDTH) {
        rc = slb_order_bandwidth(pb, n, root, ord, lst);
    } else {
        for (r = 0; r < pb->p; r++)
            if (r != root)
                ord[t++] = r;
        ord[pb->p - 1] = root;
    }
    if (rc == SLB_OK)
        rc = slb_solve(pb, n, ord, o->method, cnt, fin, &in, lst);
    *mk = in.makespan;
    return rc;
}

/* The root's solution, broadcast (msg: 2 size int64, dmsg: 1 + size
 * doubles), becomes the plan's order, counts, displacements and finish
 * times on every rank. */
static inline int slb__plan_share(slb_plan *pl, int64_t *msg, double *dmsg, const int64_t *ord,
                                  const int64_t *cnt, const double *fin, double mk,
                                  tilehybrid_status *st)
{
    int64_t r, size = pl->size, sum = 0;
    int rc, rc2;
    if (pl->rank == pl->root) {
        for (r = 0; r < size; r++) {
            msg[r] = ord[r];
            msg[size + r] = cnt[r];
            dmsg[1 + r] = fin[r];
        }
        dmsg[0] = mk;
    }
    /* both broadcasts even if the first fails here: every rank must make
     * the same collective calls, in the same order, up to the agreement */
    rc = MPI_Bcast(msg, (int)(2 * size), MPI_INT64_T, pl->root, pl->comm);
    rc2 = MPI_Bcast(dmsg, (int)(1 + size), MPI_DOUBLE, pl->root, pl->comm);
    if (rc != MPI_SUCCESS || rc2 != MPI_SUCCESS)
        return slb__mpi_abort(pl->comm, rc != MPI_SUCCESS ? rc : rc2, "MPI_Bcast",
                              "plan creation, broadcasting the root's plan", st, pl->rank);
    pl->makespan = dmsg[0];
    for (r = 0; r < size; r++) {
        pl->order[r] = (int)msg[r];
        pl->counts[r] = msg[size + r];
        pl->finish[r] = dmsg[1 + r];
        pl->displs[r] = sum;
        sum += pl->counts[r];
    }
    return SLB_OK;
}

/* Large counts or not, the byte size, and the transfer communicator: comm
 * itself when its rank order (the root's own copy is local, wherever it
 * sits) is the sending order.  Every rank decides the same. */
static inline int slb__plan_layout(slb_plan *pl, int allow_large, tilehybrid_status *st)
{
    int64_t r, t, bytes, pos = 0;
    int rc, ts = 0, given = 1, local = SLB_OK;
    pl->large = allow_large == 2 && SLB__LARGE;
    if (pl->n > INT_MAX) { /* n and the type's size: the same on every rank */
        if (!allow_large || !SLB__LARGE)
            return tilehybrid_status_set(st, SLB_ERR_INT, "n", -1);
        pl->large = 1;
    }
    /* a failure of this local call is agreed on after the collective split */
    rc = MPI_Type_size(pl->type, &ts);
    if (rc != MPI_SUCCESS)
        local = slb__mpi_fail(st, rc, "MPI_Type_size", pl->rank);
    else if (!tilehybrid_mul_ok(pl->n, ts, &bytes))
        return tilehybrid_status_set(st, SLB_ERR_OVERFLOW, "n", -1);
    for (r = 0, t = 0; r < pl->size; r++) {
        if (pl->order[r] == pl->rank)
            pos = r;
        if (r != pl->root && pl->order[t++] != r)
            given = 0;
    }
    pl->xfer_root = pl->root;
    if (!given) {
        rc = MPI_Comm_split(pl->comm, 0, (int)pos, &pl->ordered);
        if (rc != MPI_SUCCESS)
            return slb__mpi_abort(pl->comm, rc, "MPI_Comm_split",
                                  "plan creation, ordering the ranks", st, pl->rank);
        pl->xfer_root = pl->size - 1;
    }
    return local;
}

/* Entry r of the transfer arrays: count c and displacement d, as
 * MPI_Count and MPI_Aint for a large plan, else as int. */
static inline void slb__xfer_set(slb_plan *pl, int64_t r, int64_t c, int64_t d)
{
#if SLB__LARGE
    if (pl->large) {
        ((MPI_Count *)pl->xcounts)[r] = (MPI_Count)c;
        ((MPI_Aint *)pl->xdispls)[r] = (MPI_Aint)d;
        return;
    }
#endif
    ((int *)pl->xcounts)[r] = (int)c;
    ((int *)pl->xdispls)[r] = (int)d;
}

/* Counts and displacements in transfer-rank order, for the v-collectives
 * (local: an allocation may fail on one rank). */
static inline int slb__plan_xfer(slb_plan *pl, tilehybrid_status *lst)
{
    int64_t r, size = pl->size;
    int direct = pl->ordered == MPI_COMM_NULL;
    size_t csize = sizeof(int), dsize = sizeof(int);
#if SLB__LARGE
    if (pl->large) {
        csize = sizeof(MPI_Count);
        dsize = sizeof(MPI_Aint);
    }
#endif
    pl->xcounts = slb__alloc(size, csize);
    pl->xdispls = slb__alloc(size, dsize);
    if (pl->xcounts == NULL || pl->xdispls == NULL)
        return tilehybrid_status_set(lst, SLB_ERR_NOMEM, "", -1);
    for (r = 0; r < size; r++) {
        int64_t w = direct ? r : pl->order[r];
        slb__xfer_set(pl, r, pl->counts[w], pl->displs[w]);
    }
    return SLB_OK;
}

/* The common second half of plan creation: agree on every rank's verdict
 * (local, lst; the root's includes its solve), share the root's solution,
 * build the layout and the transfer arrays.  Each collective step is
 * followed by an agreement, so that an MPI call or an allocation that fails
 * on one rank never leaves the others waiting in the next collective. */
static inline int slb__plan_finish(slb_plan *pl, int local, tilehybrid_status *lst,
                                   const int64_t *ord, const int64_t *cnt, const double *fin,
                                   double mk, int allow_large, tilehybrid_status *st)
{
    int64_t size = pl->size;
    int64_t *msg = (int64_t *)slb__alloc(2 * size, sizeof(int64_t));
    double *dmsg = (double *)slb__alloc(1 + size, sizeof(double));
    int rc;
    pl->counts = (int64_t *)slb__alloc(size, sizeof(int64_t));
    pl->displs = (int64_t *)slb__alloc(size, sizeof(int64_t));
    pl->order = (int *)slb__alloc(size, sizeof(int));
    pl->finish = (double *)slb__alloc(size, sizeof(double));
    /* allocation failures are local: agree before any rooted collective */
    if (local == SLB_OK &&
        !(msg && dmsg && pl->counts && pl->displs && pl->order && pl->finish))
        local = tilehybrid_status_set(lst, SLB_ERR_NOMEM, "", -1);
    rc = slb__agree(pl->comm, local, lst, NULL, NULL, 0, st);
    if (rc == SLB_OK) {
        local = slb__plan_share(pl, msg, dmsg, ord, cnt, fin, mk, lst);
        rc = slb__agree(pl->comm, local, lst, NULL, NULL, 0, st);
    }
    if (rc == SLB_OK) {
        local = slb__plan_layout(pl, allow_large, lst);
        if (local == SLB_OK)
            local = slb__plan_xfer(pl, lst);
        rc = slb__agree(pl->comm, local, lst, NULL, NULL, 0, st);
    }
    TILEHYBRID_FREE(msg);
    TILEHYBRID_FREE(dmsg);
    return rc;
}

/* The root's arrays for its solution. */
static inline int slb__root_arrays(int64_t size, int64_t **ord, int64_t **cnt, double **fin)
{
    *ord = (int64_t *)slb__alloc(size, sizeof(int64_t));
    *cnt = (int64_t *)slb__alloc(size, sizeof(int64_t));
    *fin = (double *)slb__alloc(size, sizeof(double));
    return *ord != NULL && *cnt != NULL && *fin != NULL;
}

/* The end of plan creation: the second half (slb__plan_finish) where the
 * start succeeded (rc), the root's arrays freed, and the plan freed where
 * it failed.  Returns the code of the plan's creation. */
static inline int slb__plan_end(slb_plan *plan, int rc, int local, tilehybrid_status *lst,
                                int64_t *ord, int64_t *cnt, double *fin, double mk,
                                int allow_large, tilehybrid_status *st)
{
    if (rc == SLB_OK)
        rc = slb__plan_finish(plan, local, lst, ord, cnt, fin, mk, allow_large, st);
    TILEHYBRID_FREE(ord);
    TILEHYBRID_FREE(cnt);
    TILEHYBRID_FREE(fin);
    if (rc != SLB_OK)
        slb_plan_free(plan);
    return rc;
}

/* This rank's affine costs, checked, as four doubles. */
static inline int slb__mine_check(const slb_affine *mine, double *mc, tilehybrid_status *lst)
{
    slb_problem one;
    slb__ok(lst);
    if (mine == NULL)
        return tilehybrid_status_set(lst, SLB_ERR_ARG, "mine", -1);
    one = slb_problem_affine(1, mine);
    if (slb__check_affine(&one, lst) != SLB_OK)
        return tilehybrid_status_set(lst, lst->code, "mine", -1);
    mc[0] = mine->comp0;
    mc[1] = mine->mu;
    mc[2] = mine->comm0;
    mc[3] = mine->lambda;
    return SLB_OK;
}

/* slb_plan_create_costs() (gather 0: pb, significant at the root) and
 * slb_plan_create() (gather 1: every rank's mine, gathered at the root) in
 * one: the agreement on the arguments, the root's solve, the shared plan. */
static inline int slb__plan_create(MPI_Comm comm, int root, int64_t n, MPI_Datatype type,
                                   const slb_problem *pb, const slb_affine *mine, int gather,
                                   const slb_options *opts, slb_plan *plan,
                                   tilehybrid_status *st)
{
    slb_options o;
    slb_plan scratch;
    tilehybrid_status lst;
    slb_affine *all = NULL;
    double mc[4] = {0, 0, 0, 0}, *fin = NULL, mk = 0;
    int64_t *ord = NULL, *cnt = NULL;
    int rc, local, mrc;
    slb__ok(st);
    slb__ok(&lst);
    local = gather ? slb__mine_check(mine, mc, &lst) : SLB_OK;
    if (plan == NULL) { /* agreed like any argument: the others are on their way in */
        local = tilehybrid_status_set(&lst, SLB_ERR_ARG, "plan", -1);
        plan = &scratch;
    }
    rc = slb__plan_start(plan, comm, root, n, type, opts, local, &lst, &o, st);
    if (rc == SLB_OK && plan->rank == root) {
        if (gather)
            all = (slb_affine *)slb__alloc(plan->size, sizeof(slb_affine));
        if ((gather && all == NULL) || !slb__root_arrays(plan->size, &ord, &cnt, &fin))
            local = tilehybrid_status_set(&lst, SLB_ERR_NOMEM, "", -1);
        else if (!gather && (pb == NULL || pb->p != plan->size)) /* one processor per rank */
            local = tilehybrid_status_set(&lst, SLB_ERR_ARG, "pb", -1);
    }
    /* the root's allocation must succeed before the rooted gather */
    if (gather && rc == SLB_OK)
        rc = slb__agree(comm, local, &lst, NULL, NULL, 0, st);
    if (gather && rc == SLB_OK) { /* slb_affine is four doubles */
        mrc = MPI_Gather(mc, 4, MPI_DOUBLE, all, 4, MPI_DOUBLE, root, comm);
        if (mrc != MPI_SUCCESS)
            local = slb__mpi_abort(comm, mrc, "MPI_Gather", "slb_plan_create(), gathering "
                                   "the ranks' costs", &lst, plan->rank);
    }
    if (rc == SLB_OK && local == SLB_OK && plan->rank == root) {
        slb_problem gathered;
        if (gather) {
            gathered = slb_problem_affine(plan->size, all);
            pb = &gathered;
        }
        local = slb__plan_solve(pb, n, root, &o, ord, cnt, fin, &mk, &lst);
        if (gather && local != SLB_OK && strcmp(lst.arg, "pb") == 0)
            lst.arg = "mine"; /* processor i's costs: rank i's mine */
    }
    TILEHYBRID_FREE(all);
    return slb__plan_end(plan, rc, local, &lst, ord, cnt, fin, mk, o.large_count, st);
}

/* slb_plan_create_costs() -- documented at its declaration (05-api.h). */
static inline int slb_plan_create_costs(MPI_Comm comm, int root, int64_t n, MPI_Datatype type,
                                        const slb_problem *pb, const slb_options *opts,
                                        slb_plan *plan, tilehybrid_status *st)
{
    return slb__plan_create(comm, root, n, type, pb, NULL, 0, opts, plan, st);
}

/* slb_plan_create() -- documented at its declaration (05-api.h). */
static inline int slb_plan_create(MPI_Comm comm, int root, int64_t n, MPI_Datatype type,
                                  const slb_affine *mine, const slb_options *opts,
                                  slb_plan *plan, tilehybrid_status *st)
{
    return slb__plan_create(comm, root, n, type, NULL, mine, 1, opts, plan, st);
}

/* ---- scatter and gather ---- */

static inline MPI_Comm slb__xcomm(const slb_plan *plan)
{
    return plan->ordered != MPI_COMM_NULL ? plan->ordered : plan->comm;
}

/* slb_plan_scatterv() -- documented at its declaration (05-api.h). */
static inline int slb_plan_scatterv(const slb_plan *plan, const void *sendbuf, void *recvbuf,
                                    tilehybrid_status *st)
{
    const char *call;
    int rc;
    slb__ok(st);
    if (plan == NULL || plan->counts == NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, "plan", -1);
    call = plan->large ? "MPI_Scatterv_c" : "MPI_Scatterv"; /* large: 0 without MPI-4 */
#if SLB__LARGE
    if (plan->large)
        rc = MPI_Scatterv_c(sendbuf, (const MPI_Count *)plan->xcounts,
                            (const MPI_Aint *)plan->xdispls, plan->type, recvbuf,
                            (MPI_Count)plan->counts[plan->rank], plan->type, plan->xfer_root,
                            slb__xcomm(plan));
    else
#endif
        rc = MPI_Scatterv(sendbuf, (const int *)plan->xcounts, (const int *)plan->xdispls,
                          plan->type, recvbuf, (int)plan->counts[plan->rank], plan->type,
                          plan->xfer_root, slb__xcomm(plan));
    return rc == MPI_SUCCESS ? SLB_OK : slb__mpi_fail(st, rc, call, plan->rank);
}

/* One point-to-point transfer of the ordered scatter (blocking). */
static inline int slb__p2p(const slb_plan *plan, int send, const void *sbuf, void *rbuf,
                           int64_t count, int peer)
{
#if SLB__LARGE
    if (plan->large)
        return send ? MPI_Send_c(sbuf, (MPI_Count)count, plan->type, peer,
                                 TILEHYBRID_TAG_SCATTER, plan->comm)
                    : MPI_Recv_c(rbuf, (MPI_Count)count, plan->type, peer,
                                 TILEHYBRID_TAG_SCATTER, plan->comm, MPI_STATUS_IGNORE);
#endif
    return send ? MPI_Send(sbuf, (int)count, plan->type, peer, TILEHYBRID_TAG_SCATTER,
                           plan->comm)
                : MPI_Recv(rbuf, (int)count, plan->type, peer, TILEHYBRID_TAG_SCATTER,
                           plan->comm, MPI_STATUS_IGNORE);
}

/* The root's own share: a copy through MPI (any datatype). */
static inline int slb__self_copy(const slb_plan *plan, const void *from, void *to)
{
    int64_t c = plan->counts[plan->root];
#if SLB__LARGE
    if (plan->large)
        return MPI_Sendrecv_c(from, (MPI_Count)c, plan->type, plan->root, TILEHYBRID_TAG_SCATTER,
                              to, (MPI_Count)c, plan->type, plan->root, TILEHYBRID_TAG_SCATTER,
                              plan->comm, MPI_STATUS_IGNORE);
#endif
    return MPI_Sendrecv(from, (int)c, plan->type, plan->root, TILEHYBRID_TAG_SCATTER, to, (int)c,
                        plan->type, plan->root, TILEHYBRID_TAG_SCATTER, plan->comm,
                        MPI_STATUS_IGNORE);
}

/* slb_plan_scatter_ordered() -- documented at its declaration (05-api.h). */
static inline int slb_plan_scatter_ordered(const slb_plan *plan, const void *sendbuf,
                                           void *recvbuf, tilehybrid_status *st)
{
    MPI_Aint lb = 0, ext = 0;
    const char *call = "MPI_Type_get_extent";
    int k, rc;
    slb__ok(st);
    if (plan == NULL || plan->counts == NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, "plan", -1);
    rc = MPI_Type_get_extent(plan->type, &lb, &ext);
    if (plan->rank != plan->root) {
        if (rc == MPI_SUCCESS && plan->counts[plan->rank] > 0) {
            call = plan->large ? "MPI_Recv_c" : "MPI_Recv";
            rc = slb__p2p(plan, 0, NULL, recvbuf, plan->counts[plan->rank], plan->root);
        }
    } else {
        for (k = 0; k < plan->size - 1 && rc == MPI_SUCCESS; k++) {
            int r = plan->order[k];
            call = plan->large ? "MPI_Send_c" : "MPI_Send";
            if (plan->counts[r] > 0)
                rc = slb__p2p(plan, 1, (const char *)sendbuf + plan->displs[r] * (int64_t)ext,
                              NULL, plan->counts[r], r);
        }
        if (rc == MPI_SUCCESS && plan->counts[plan->root] > 0) {
            call = plan->large ? "MPI_Sendrecv_c" : "MPI_Sendrecv";
            rc = slb__self_copy(plan,
                                (const char *)sendbuf + plan->displs[plan->root] * (int64_t)ext,
                                recvbuf);
        }
    }
    return rc == MPI_SUCCESS ? SLB_OK : slb__mpi_fail(st, rc, call, plan->rank);
}

/* slb_gatherv_type() -- documented at its declaration (05-api.h). */
static inline int slb_gatherv_type(const slb_plan *plan, const void *sendbuf, MPI_Datatype type,
                                   void *recvbuf, tilehybrid_status *st)
{
    const char *call;
    int rc;
    slb__ok(st);
    if (plan == NULL || plan->counts == NULL || type == MPI_DATATYPE_NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, plan == NULL || plan->counts == NULL
                                                          ? "plan" : "type", -1);
    call = plan->large ? "MPI_Gatherv_c" : "MPI_Gatherv";
#if SLB__LARGE
    if (plan->large)
        rc = MPI_Gatherv_c(sendbuf, (MPI_Count)plan->counts[plan->rank], type, recvbuf,
                           (const MPI_Count *)plan->xcounts, (const MPI_Aint *)plan->xdispls,
                           type, plan->xfer_root, slb__xcomm(plan));
    else
#endif
        rc = MPI_Gatherv(sendbuf, (int)plan->counts[plan->rank], type, recvbuf,
                         (const int *)plan->xcounts, (const int *)plan->xdispls, type,
                         plan->xfer_root, slb__xcomm(plan));
    return rc == MPI_SUCCESS ? SLB_OK : slb__mpi_fail(st, rc, call, plan->rank);
}

/* slb_gatherv() -- documented at its declaration (05-api.h). */
static inline int slb_gatherv(const slb_plan *plan, const void *sendbuf, void *recvbuf,
                              tilehybrid_status *st)
{
    if (plan == NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, "plan", -1);
    return slb_gatherv_type(plan, sendbuf, plan->type, recvbuf, st);
}

/* slb_scatterv() -- documented at its declaration (05-api.h). */
static inline int slb_scatterv(const void *sendbuf, int64_t n, MPI_Datatype type, void *recvbuf,
                               int64_t recvcap, int root, MPI_Comm comm, const slb_affine *mine,
                               const slb_options *opts, slb_plan *plan, tilehybrid_status *st)
{
    tilehybrid_status lst;
    int64_t c;
    int rc = slb_plan_create(comm, root, n, type, mine, opts, plan, st), local = SLB_OK;
    if (rc != SLB_OK)
        return rc;
    c = plan->counts[plan->rank];
    if (c > recvcap)
        local = tilehybrid_status_set(&lst, SLB_ERR_CAPACITY, "recvcap", -1);
    else if (recvbuf == NULL && c > 0)
        local = tilehybrid_status_set(&lst, SLB_ERR_CAPACITY, "recvbuf", -1);
    else if (plan->rank == plan->root && sendbuf == NULL && n > 0)
        local = tilehybrid_status_set(&lst, SLB_ERR_ARG, "sendbuf", -1);
    rc = slb__agree(comm, local, &lst, NULL, NULL, 0, st);
    if (rc != SLB_OK)
        return rc;
    rc = slb_plan_scatterv(plan, sendbuf, recvbuf, &lst);
    if (rc == SLB_ERR_MPI)  /* this rank's alone: the others would wait forever */
        return slb__mpi_abort(comm, lst.mpi_error,
                              plan->large ? "MPI_Scatterv_c" : "MPI_Scatterv",
                              "slb_scatterv(), scattering the items", st, plan->rank);
    if (st != NULL)
        *st = lst;
    return rc;
}

/* ---- calibration ---- */

/* Seconds of every timing window of the calibrations (a measurement repeats
 * the work or the transfer until the window is full, so that timer
 * resolution and scheduler time slices average out). */
#ifndef SLB_CALIBRATE_SECONDS
#define SLB_CALIBRATE_SECONDS 0.02
#endif

/* Seconds a computation calibration aims at, and a transfer calibration
 * for all ranks together: the samples shrink to fit. */
#ifndef SLB_CALIBRATE_BUDGET
#define SLB_CALIBRATE_BUDGET 1.0
#endif

/* Least-squares t = a + b x with a, b >= 0: tilehybrid_fit_affine(), or,
 * when its intercept or slope is negative (or there is no fit), the line
 * through the origin. */
static inline void slb__fit_nonneg(const double *x, const double *t, int m, double *a, double *b)
{
    tilehybrid_fit f;
    if (tilehybrid_fit_affine(x, t, m, &f) == TILEHYBRID_OK && f.intercept >= 0 &&
        f.slope >= 0) {
        *a = f.intercept;
        *b = f.slope;
        return;
    }
    *a = 0;
    *b = tilehybrid_fit_origin(x, t, m, &f) == TILEHYBRID_OK && f.slope > 0 ? f.slope : 0;
}

/* Sample sizes within a time budget: t1 is the time of one item; reps
 * measurements of kmax/4, kmax/2 and kmax items cost about
 * reps * 1.75 kmax t1.  Lower kmax (to 2 at least), and reps to 1 first
 * when kmax would drop below 4, to fit. */
static inline void slb__budget(double t1, double budget, int64_t *kmax, int *reps)
{
    double per = 1.75 * t1, k;
    if (!(per > 0) || (double)*reps * per * (double)*kmax <= budget)
        return;
    k = budget / ((double)*reps * per);
    if (k < 4 && *reps > 1) {
        *reps = 1;
        k = budget / per;
    }
    if (k < 2)
        k = 2;
    if (k < (double)*kmax)
        *kmax = (int64_t)k;
}

/* The i-th of the three sample sizes (kmax/4, kmax/2, kmax, at least 1). */
static inline int64_t slb__cal_size(int64_t kmax, int i)
{
    int64_t k = i == 0 ? kmax / 4 : (i == 1 ? kmax / 2 : kmax);
    return k < 1 ? 1 : k;
}

/* One measurement of the work: repeat work(ctx, k) until the window is
 * full; seconds per call. */
static inline double slb__time_work(slb_work_fn work, void *ctx, int64_t k)
{
    double t0 = MPI_Wtime(), dt;
    long calls = 0;
    do {
        work(ctx, k);
        calls++;
        dt = MPI_Wtime() - t0;
    } while (dt < SLB_CALIBRATE_SECONDS);
    return dt / (double)calls;
}

static inline int slb__cal_compute(slb_work_fn work, void *ctx, int64_t sample, int reps,
                                   double *comp0, double *mu, const char *sname,
                                   tilehybrid_status *st)
{
    double x[3], t[3], t1;
    int64_t kmax = sample;
    int i, r;
    slb__ok(st);
    if (work == NULL || sample < 1 || reps < 1 || comp0 == NULL || mu == NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG,
                                     work == NULL   ? "work"
                                     : sample < 1   ? sname
                                     : reps < 1     ? "reps"
                                     : comp0 == NULL ? "comp0"
                                                     : "mu",
                                     -1);
    t1 = MPI_Wtime();
    work(ctx, 1); /* one item: how many fit in the budget? */
    t1 = MPI_Wtime() - t1;
    slb__budget(t1, SLB_CALIBRATE_BUDGET, &kmax, &reps);
    for (i = 0; i < 3; i++) {
        x[i] = (double)slb__cal_size(kmax, i);
        t[i] = -1;
        for (r = 0; r < reps; r++) {
            double dt = slb__time_work(work, ctx, slb__cal_size(kmax, i));
            if (t[i] < 0 || dt < t[i])
                t[i] = dt;
        }
    }
    slb__fit_nonneg(x, t, 3, comp0, mu);
    return SLB_OK;
}

/* slb_calibrate_compute() -- documented at its declaration (05-api.h). */
static inline int slb_calibrate_compute(slb_work_fn work, void *ctx, int64_t sample, int reps,
                                        double *comp0, double *mu, tilehybrid_status *st)
{
    return slb__cal_compute(work, ctx, sample, reps, comp0, mu, "sample", st);
}

/* One measurement between the root (leader) and peer: an exchange of bytes
 * sizes the window, the leader sends the count m of timed exchanges, then
 * m exchanges; *t (leader): seconds per exchange. */
static inline int slb__cal_measure(MPI_Comm comm, int peer, int leader, char *buf, int bytes,
                                   double *t, const char **call)
{
    const double window = SLB_CALIBRATE_SECONDS / 4;
    int64_t m = 1, j;
    double dt = 0, sum = 0;
    int rc = tilehybrid_pingpong_ex(comm, peer, leader, buf, bytes, 0, TILEHYBRID_TAG_SCATTER, &dt,
                                    call);
    if (leader) {
        if (dt < window)
            m = dt > 0 ? (int64_t)(window / dt) + 1 : 1000;
        if (m > 1000)
            m = 1000;
        if (rc == MPI_SUCCESS && (rc = MPI_Send(&m, 1, MPI_INT64_T, peer, TILEHYBRID_TAG_SCATTER,
                                                comm)) != MPI_SUCCESS)
            *call = "MPI_Send";
    } else if (rc == MPI_SUCCESS) {
        rc = MPI_Recv(&m, 1, MPI_INT64_T, peer, TILEHYBRID_TAG_SCATTER, comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            *call = "MPI_Recv";
    }
    for (j = 0; j < m && rc == MPI_SUCCESS; j++) {
        rc = tilehybrid_pingpong_ex(comm, peer, leader, buf, bytes, 0, TILEHYBRID_TAG_SCATTER, &dt,
                                    call);
        sum += dt;
    }
    *t = sum / (double)m;
    return rc;
}

/* The transfers between the root and rank r, run by both: a probe of the
 * whole sample sizes it to the budget (the leader sends the sizes), then
 * reps measurements of three sizes; the leader fits fit[0] = comm0,
 * fit[1] = lambda.  On an MPI error, *call names the call that failed. */
static inline int slb__cal_pair(MPI_Comm comm, int root, int r, int rank, char *buf,
                                int64_t sample, int ts, int reps, double budget, double *fit,
                                const char **call)
{
    int leader = rank == root, peer = leader ? r : root, i, q, rc;
    int64_t ctl[2] = {0, 0};
    double x[3], t[3], tp = 0;
    rc = tilehybrid_pingpong_ex(comm, peer, leader, buf, (int)(sample * ts), 0,
                                TILEHYBRID_TAG_SCATTER, &tp, call);
    if (leader) {
        int rr = reps;
        ctl[0] = sample;
        slb__budget(tp / (double)sample, budget, &ctl[0], &rr);
        ctl[1] = rr;
        if (rc == MPI_SUCCESS && (rc = MPI_Send(ctl, 2, MPI_INT64_T, peer, TILEHYBRID_TAG_SCATTER,
                                                comm)) != MPI_SUCCESS)
            *call = "MPI_Send";
    } else if (rc == MPI_SUCCESS) {
        rc = MPI_Recv(ctl, 2, MPI_INT64_T, peer, TILEHYBRID_TAG_SCATTER, comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            *call = "MPI_Recv";
    }
    for (i = 0; i < 3 && rc == MPI_SUCCESS; i++) {
        int64_t k = slb__cal_size(ctl[0], i);
        x[i] = (double)k;
        t[i] = -1;
        for (q = 0; q < ctl[1] && rc == MPI_SUCCESS; q++) {
            double dt = 0;
            rc = slb__cal_measure(comm, peer, leader, buf, (int)(k * ts), &dt, call);
            if (t[i] < 0 || dt < t[i])
                t[i] = dt;
        }
    }
    if (leader && rc == MPI_SUCCESS)
        slb__fit_nonneg(x, t, 3, &fit[0], &fit[1]);
    return rc;
}

/* This rank's checks of the transfer calibration's arguments. */
static inline int slb__cal_check(int root, int size, MPI_Datatype type, int64_t sample, int reps,
                                 const double *comm0, const double *lambda, int *ts,
                                 const char *sname, tilehybrid_status *lst)
{
    int rc;
    if (comm0 == NULL || lambda == NULL || sample < 1 || reps < 1 || type == MPI_DATATYPE_NULL)
        return tilehybrid_status_set(lst, SLB_ERR_ARG,
                                     comm0 == NULL    ? "comm0"
                                     : lambda == NULL ? "lambda"
                                     : sample < 1     ? sname
                                     : reps < 1       ? "reps"
                                                      : "type",
                                     -1);
    if (root < 0 || root >= size)
        return tilehybrid_status_set(lst, SLB_ERR_ROOT, "root", -1);
    rc = MPI_Type_size(type, ts);
    if (rc != MPI_SUCCESS)
        return slb__mpi_fail(lst, rc, "MPI_Type_size", -1);
    if (sample > INT_MAX / (*ts > 0 ? *ts : 1)) /* one message, in bytes */
        return tilehybrid_status_set(lst, SLB_ERR_INT, sname, -1);
    return SLB_OK;
}

/* Every pair (root, r) in turn; then the root scatters the fits. */
static inline int slb__cal_pairs(MPI_Comm comm, int root, int size, int rank, char *buf,
                                 int64_t sample, int ts, int reps, double *fit, double *mine,
                                 tilehybrid_status *st)
{
    tilehybrid_status lst;
    double budget = SLB_CALIBRATE_BUDGET / (size > 1 ? size - 1 : 1);
    const char *call = "";
    int r, rc = MPI_SUCCESS, local;
    for (r = 0; r < size && rc == MPI_SUCCESS; r++) {
        if (r == root)
            fit[2 * r] = fit[2 * r + 1] = 0;
        else if (rank == root || rank == r)
            rc = slb__cal_pair(comm, root, r, rank, buf, sample, ts, reps, budget, fit + 2 * r,
                               &call);
    }
    local = rc == MPI_SUCCESS ? SLB_OK
                              : slb__mpi_abort(comm, rc, call, "calibration's "
                                               "transfers between the root and a rank", &lst,
                                               rank);
    local = slb__agree(comm, local, &lst, NULL, NULL, 0, st);
    if (local != SLB_OK)
        return local;
    rc = MPI_Scatter(fit, 2, MPI_DOUBLE, mine, 2, MPI_DOUBLE, root, comm);
    local = rc == MPI_SUCCESS ? SLB_OK
                              : slb__mpi_abort(comm, rc, "MPI_Scatter", "calibration, "
                                               "scattering the fits", &lst, rank);
    return slb__agree(comm, local, &lst, NULL, NULL, 0, st); /* the same code everywhere */
}

static inline int slb__cal_comm(MPI_Comm comm, int root, MPI_Datatype type, int64_t sample,
                                int reps, double *comm0, double *lambda, const char *sname,
                                tilehybrid_status *st)
{
    const char *names[4];
    tilehybrid_status lst;
    uint64_t v[4];
    char *buf = NULL;
    double *fit = NULL, mine[2] = {0, 0};
    int size = 0, rank = 0, ts = 0, rc, local;
    slb__ok(st);
    if (comm == MPI_COMM_NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, "comm", -1);
    if ((rc = MPI_Comm_size(comm, &size)) != MPI_SUCCESS)
        return slb__mpi_abort(comm, rc, "MPI_Comm_size", "calibration, on comm", st, -1);
    if ((rc = MPI_Comm_rank(comm, &rank)) != MPI_SUCCESS)
        return slb__mpi_abort(comm, rc, "MPI_Comm_rank", "calibration, on comm", st, -1);
    local = slb__cal_check(root, size, type, sample, reps, comm0, lambda, &ts, sname, &lst);
    if (local == SLB_OK) {
        buf = (char *)slb__alloc(sample * ts, 1);
        fit = (double *)slb__alloc(2 * (int64_t)size, sizeof(double));
        if (buf == NULL || fit == NULL)
            local = tilehybrid_status_set(&lst, SLB_ERR_NOMEM, "", -1);
        else
            memset(buf, 0, (size_t)(sample * ts));
    }
    names[0] = "root";
    names[1] = sname;
    names[2] = "reps";
    names[3] = "type";
    v[0] = (uint64_t)(int64_t)root;
    v[1] = (uint64_t)sample;
    v[2] = (uint64_t)(int64_t)reps;
    v[3] = (uint64_t)(int64_t)ts;
    rc = slb__agree(comm, local, &lst, v, names, 4, st);
    if (rc == SLB_OK)
        rc = slb__cal_pairs(comm, root, size, rank, buf, sample, ts, reps, fit, mine, st);
    if (rc == SLB_OK) {
        *comm0 = mine[0];
        *lambda = mine[1];
    }
    TILEHYBRID_FREE(buf);
    TILEHYBRID_FREE(fit);
    return rc;
}

/* slb_calibrate_comm() -- documented at its declaration (05-api.h). */
static inline int slb_calibrate_comm(MPI_Comm comm, int root, MPI_Datatype type, int64_t sample,
                                     int reps, double *comm0, double *lambda,
                                     tilehybrid_status *st)
{
    return slb__cal_comm(comm, root, type, sample, reps, comm0, lambda, "sample", st);
}

/* slb_calibrate() -- documented at its declaration (05-api.h). */
static inline int slb_calibrate(MPI_Comm comm, int root, MPI_Datatype type, slb_work_fn work,
                                void *ctx, int64_t comp_sample, int64_t comm_sample, int reps,
                                slb_affine *mine, tilehybrid_status *st)
{
    tilehybrid_status lst;
    int rc, local;
    slb__ok(st);
    if (comm == MPI_COMM_NULL)
        return tilehybrid_status_set(st, SLB_ERR_ARG, "comm", -1);
    if (mine == NULL)
        local = tilehybrid_status_set(&lst, SLB_ERR_ARG, "mine", -1);
    else
        local = slb__cal_compute(work, ctx, comp_sample, reps, &mine->comp0, &mine->mu,
                                 "comp_sample", &lst);
    rc = slb__agree(comm, local, &lst, NULL, NULL, 0, st);
    if (rc != SLB_OK)
        return rc;
    return slb__cal_comm(comm, root, type, comm_sample, reps, &mine->comm0, &mine->lambda,
                         "comm_sample", st);
}

#endif /* TILEHYBRID_NO_MPI */
