/* ------------------------------------------------------------------------
 * The balancing policy of a run: one object the funneled model drives
 * ------------------------------------------------------------------------ */

#if TILEHYBRID__DEFINE
/* bal_config_init() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD void bal_config_init(bal_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->policy = BAL_POLICY_FIXED;
    cfg->bal = 1.0;
}

/* bal_config_check() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD int bal_config_check(const bal_config *cfg)
{
    if (cfg == NULL)
        return BAL_ERR_NULL;
    if (!(cfg->bal >= 0.0 && cfg->bal <= 1.0))
        return BAL_ERR_BAL;
    if (cfg->policy < BAL_POLICY_FIXED || cfg->policy > BAL_POLICY_CUSTOM ||
        (cfg->policy == BAL_POLICY_CUSTOM && cfg->fn == NULL))
        return BAL_ERR_POLICY;
    if (!(cfg->tcomp >= 0.0) || !bal__finite(cfg->tcomp))
        return BAL_ERR_TCOMP;
    if (!(cfg->tstartup >= 0.0) || !bal__finite(cfg->tstartup))
        return BAL_ERR_TSTARTUP;
    if (!(cfg->bandwidth >= 0.0) || !bal__finite(cfg->bandwidth))
        return BAL_ERR_BANDWIDTH;
    if (cfg->adapt_sample < 0)
        return BAL_ERR_SAMPLESTEPS;
    if (cfg->adapt_period < -1)
        return BAL_ERR_PERIOD;
    if (!(cfg->adapt_smoothing >= 0.0 && cfg->adapt_smoothing <= 1.0))
        return BAL_ERR_SMOOTHING;
    return BAL_OK;
}
#endif

/* A policy that moves the split at all: CONSTANT/VARIABLE need a cost model. */
static inline int bal__uses_model(const bal_policy *pol)
{
    return pol->where.threads > 1 && (pol->cfg.policy == BAL_POLICY_CONSTANT ||
                                      pol->cfg.policy == BAL_POLICY_VARIABLE);
}

#if TILEHYBRID__DEFINE
/* bal_policy_init() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD int bal_policy_init(bal_policy *pol, const bal_config *cfg, const bal_where *where)
{
    int rc = bal_config_check(cfg);
    if (rc != BAL_OK)
        return rc;
    memset(pol, 0, sizeof *pol);
    pol->cfg = *cfg;
    pol->where = *where;
    pol->model.tcomp = cfg->tcomp;
    pol->model.tstartup = cfg->tstartup;
    pol->model.bandwidth = cfg->bandwidth;
    pol->model.elem_bytes = where->elem_bytes;
    pol->first = pol->now = 1.0;
    return BAL_OK;
}
#endif

/* Eq. 1 for this process with the model in use (t_comp known). */
static inline void bal__policy_eq1(bal_policy *pol)
{
    const bal_where *w = &pol->where;
    double f = 1.0;
    int clamped = 0;
    if (bal_factor(&pol->model, w->n, w->pdims,
                   pol->cfg.policy == BAL_POLICY_VARIABLE ? w->pcoords : NULL, w->threads,
                   w->extent, w->tile_height, w->dep, &f, &clamped) == BAL_OK) {
        pol->now = f;
        pol->clamped = clamped;
    }
}

#if TILEHYBRID__DEFINE
/* bal_policy_start() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD void bal_policy_start(bal_policy *pol)
{
    const bal_where *w = &pol->where;
    pol->last_comp = pol->last_comm = 0.0;
    pol->now = 1.0;
    if (w->threads > 1) {
        if (pol->cfg.policy == BAL_POLICY_FIXED || pol->cfg.policy == BAL_POLICY_ADAPTIVE)
            pol->now = pol->cfg.bal;
        if (pol->cfg.policy == BAL_POLICY_ADAPTIVE) {
            int64_t sample = pol->cfg.adapt_sample, period = pol->cfg.adapt_period;
            if (sample <= 0 && bal_sampling_steps(w->procs, w->threads, &sample) != BAL_OK)
                sample = 2 * (int64_t)w->procs * w->threads;
            period = period == 0 ? sample : period < 0 ? 0 : period;
            (void)bal_adaptive_init(&pol->adapt, pol->cfg.bal, w->threads, sample, period,
                                    pol->cfg.adapt_smoothing > 0.0 ? pol->cfg.adapt_smoothing
                                                                   : 0.5);
        } else if (bal__uses_model(pol) && pol->model.tcomp > 0.0) {
            bal__policy_eq1(pol);
        }
    }
    pol->first = pol->now;
}
#endif

/* bal_policy_tile() -- documented at its declaration (05-api.h). */
static inline double bal_policy_tile(bal_policy *pol, int64_t tile)
{
    if (pol->cfg.policy == BAL_POLICY_CUSTOM && pol->where.threads > 1) {
        double f = pol->cfg.fn(pol->cfg.ctx, tile, pol->where.rank);
        pol->now = f > 1.0 ? 1.0 : f >= 0.0 ? f : 0.0; /* NaN and below 0: 0 */
    }
    if (tile == 0)
        pol->first = pol->now;
    return pol->now;
}

/* bal_policy_step() -- documented at its declaration (05-api.h). */
static inline int bal_policy_step(bal_policy *pol, double compute, double comm, int64_t points)
{
    double dcomp = compute - pol->last_comp, dcomm = comm - pol->last_comm, before = pol->now;
    pol->last_comp = compute;
    pol->last_comm = comm;
    if (pol->where.threads == 1)
        return 0;
    if (pol->cfg.policy == BAL_POLICY_ADAPTIVE) {
        if (bal_adaptive_step(&pol->adapt, dcomp, dcomm) == BAL_OK && pol->adapt.changed)
            pol->now = pol->adapt.bal;
    } else if (bal__uses_model(pol) && pol->model.tcomp <= 0.0 && points > 0 && compute > 0.0) {
        pol->model.tcomp = compute / (double)points;
        bal__policy_eq1(pol);
    }
    return pol->now != before;
}

#ifndef TILEHYBRID_NO_MPI
#if TILEHYBRID__DEFINE
/* The environment variable behind a BAL_ERR_ENV_* code, else "". */
TILEHYBRID__COLD const char *bal__env_name(int code)
{
    switch (code) {
    case BAL_ERR_ENV_TCOMP: return "TILEHYBRID_TCOMP";
    case BAL_ERR_ENV_TSTARTUP: return "TILEHYBRID_TSTARTUP";
    case BAL_ERR_ENV_BANDWIDTH: return "TILEHYBRID_BANDWIDTH";
    case BAL_ERR_ENV_ELEM_BYTES: return "TILEHYBRID_ELEM_BYTES";
    default: return "";
    }
}

/* Are the environment's costs usable on every rank, and do all ranks agree
 * on measuring the network?  One collective (tilehybrid_agree): a rank that
 * measured alone would wait for its partner forever.  Every rank returns
 * the same code; st names the variable and the lowest rank that rejected it. */
TILEHYBRID__COLD int bal__policy_env(bal_policy *pol, MPI_Comm comm, tilehybrid_status *st)
{
    bal_model env;
    tilehybrid_agreement a;
    uint64_t measure;
    int found = 0, rc, mpi;
    memset(&env, 0, sizeof env);
    rc = bal_model_from_env(&env, &found);
    if (rc == BAL_OK) {
        if (pol->model.tcomp <= 0.0 && (found & BAL_HAVE_TCOMP))
            pol->model.tcomp = env.tcomp;
        if (pol->cfg.tstartup <= 0.0 && pol->cfg.bandwidth <= 0.0 && (found & BAL_HAVE_TSTARTUP))
            pol->model.tstartup = env.tstartup;
        if (pol->model.bandwidth <= 0.0 && (found & BAL_HAVE_BANDWIDTH))
            pol->model.bandwidth = env.bandwidth;
    }
    measure = pol->model.bandwidth <= 0.0;
    mpi = tilehybrid_agree(comm, rc, &measure, 1, NULL, 0, &a);
    if (mpi != MPI_SUCCESS)
        return bal__mpi_fail(st, a.call, mpi);
    if (a.code != 0) {
        tilehybrid_status_set(st, a.code, bal__env_name(a.code), -1);
        if (st != NULL)
            st->rank = a.rank;
        return a.code;
    }
    if (a.index >= 0)
        return tilehybrid_status_set(st, BAL_ERR_MISMATCH, "TILEHYBRID_BANDWIDTH", -1);
    return BAL_OK;
}

/* The largest face of the largest block, 64 KiB to 4 MiB (the same on every
 * rank): the ping-pong's message size. */
TILEHYBRID__COLD int bal__policy_face(const bal_where *w)
{
    int64_t face = 0, b;
    int i, j;
    for (i = 0; i < w->n; i++) {
        b = (int64_t)w->elem_bytes * w->dep[i] * w->tile_height;
        for (j = 0; j < w->n && b <= (4 << 20); j++)
            if (j != i)
                b *= (w->extent[j] + w->pdims[j] - 1) / w->pdims[j];
        face = b > face ? b : face;
    }
    /* at least 64 KiB: the slope (bandwidth) is invisible in tiny messages */
    return (int)(face < (64 << 10) ? (64 << 10) : face > (4 << 20) ? (4 << 20) : face);
}

/* Do all ranks pass a policy, with rank 0's policy and thread count?  One
 * MPI_Bcast (rank 0's) and one tilehybrid_agree_status(), on every rank
 * whatever its arguments, before any rank returns: a rank that went on
 * alone (or returned at once) would leave the others waiting forever.
 * Every rank returns the same code: BAL_ERR_NULL ("pol") or
 * BAL_ERR_MISMATCH ("policy", "threads"), st->rank the lowest rank at
 * fault. */
TILEHYBRID__COLD int bal__policy_agree(const bal_policy *pol, MPI_Comm comm, tilehybrid_status *st)
{
    static const char *const names[4] = {"pol", "policy", "threads", "procs"};
    tilehybrid_verdict w;
    tilehybrid_agreement a;
    tilehybrid_status mine;
    int root[4] = {0, 0, 0, 0}, rc = BAL_OK, mpi;
    if (pol != NULL) {
        root[0] = 1;
        root[1] = (int)pol->cfg.policy;
        root[2] = pol->where.threads;
        root[3] = pol->where.procs;
    }
    mpi = MPI_Bcast(root, 4, MPI_INT, 0, comm);
    if (mpi != MPI_SUCCESS)
        return bal__mpi_fail(st, "MPI_Bcast", mpi);
    tilehybrid_status_set(&mine, BAL_OK, "", -1);
    if (pol == NULL)
        rc = tilehybrid_status_set(&mine, BAL_ERR_NULL, names[0], -1);
    else if (root[0] && (int)pol->cfg.policy != root[1])
        rc = tilehybrid_status_set(&mine, BAL_ERR_MISMATCH, names[1], -1);
    else if (root[0] && pol->where.threads != root[2])
        rc = tilehybrid_status_set(&mine, BAL_ERR_MISMATCH, names[2], -1);
    else if (root[0] && pol->where.procs != root[3])   /* procs 1 skips the ping-pong */
        rc = tilehybrid_status_set(&mine, BAL_ERR_MISMATCH, names[3], -1);
    w.text[0] = '\0';
    mpi = tilehybrid_agree_status(comm, rc, &mine, NULL, 0, &w, &a);
    if (mpi != MPI_SUCCESS)
        return bal__mpi_fail(st, a.call, mpi);
    if (a.code == 0)
        return BAL_OK;
    return tilehybrid_verdict_status(st, &a, &w, tilehybrid_verdict_arg(&w, names, 4, "pol"));
}

/* bal_policy_setup_ex() -- documented at its declaration (05-api.h). */
TILEHYBRID__COLD int bal_policy_setup_ex(bal_policy *pol, MPI_Comm comm, tilehybrid_status *st)
{
    int rc;
    tilehybrid_fit fit;
    tilehybrid_status_set(st, BAL_OK, "", -1);
    rc = bal__policy_agree(pol, comm, st);
    if (rc != BAL_OK || !bal__uses_model(pol))
        return rc;
    rc = bal__policy_env(pol, comm, st);
    if (rc != BAL_OK || pol->model.bandwidth > 0.0)
        return rc;
    if (pol->where.procs == 1) {
        pol->model.bandwidth = 1e300; /* one process sends nothing */
        return BAL_OK;
    }
    rc = bal__calibrate_all(comm, bal__policy_face(&pol->where), 3, &fit, st, 1);
    if (rc == BAL_ERR_MPI)
        return rc;  /* on this rank only; st names the call and its code */
    if (rc == BAL_OK)
        rc = bal_model_set_comm(&pol->model, &fit);
    if (rc == BAL_ERR_FIT || (rc != BAL_OK && rc != BAL_ERR_MPI)) {
        /* too noisy to fit (the same answer on every rank): no cost model */
        pol->model.tstartup = 0.0;
        pol->model.bandwidth = 1e300;
        pol->uncalibrated = 1;
        return BAL_OK;
    }
    return tilehybrid_status_set(st, rc, "", -1);
}
#else
TILEHYBRID__COLD const char *bal__env_name(int code);
TILEHYBRID__COLD int bal__policy_env(bal_policy *pol, MPI_Comm comm, tilehybrid_status *st);
TILEHYBRID__COLD int bal__policy_face(const bal_where *w);
TILEHYBRID__COLD int bal__policy_agree(const bal_policy *pol, MPI_Comm comm, tilehybrid_status *st);
#endif

#endif /* TILEHYBRID_NO_MPI */
