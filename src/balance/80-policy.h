/* ------------------------------------------------------------------------
 * The balancing policy of a run: one object the funneled model drives
 * ------------------------------------------------------------------------ */

/** Largest number of process dimensions a bal_policy describes. */
#define BAL_MAX_DIMS 16

/** Which factor the master gets (bal_config.policy). */
enum bal_policy_kind {
    BAL_POLICY_FIXED = 0, /* bal_config.bal for every tile (1 = even split) */
    BAL_POLICY_CONSTANT,  /* eq. 1 for a process that sends in every dimension */
    BAL_POLICY_VARIABLE,  /* eq. 1 for this process's own sending directions */
    BAL_POLICY_ADAPTIVE,  /* Lemma 2 on the master's measured times, re-evaluated */
    BAL_POLICY_CUSTOM     /* bal_config.fn gives the factor of every tile */
};

/**
 * typedef bal_tile_fn - a custom policy: the master's factor for a tile.
 * @ctx:  bal_config.ctx.
 * @tile: the tile, 0, 1, ... in order (called by the master thread, once
 *        per tile, before the tile starts).
 * @rank: the calling process's rank in the plan's communicator.
 * Return: the factor; clamped to [0, 1] (NaN counts as 0).
 */
typedef double (*bal_tile_fn)(void *ctx, int64_t tile, int rank);

/**
 * struct bal_config - how the master's share is chosen (tile_config.balance).
 * @policy: enum bal_policy_kind (default BAL_POLICY_FIXED).
 * @bal:    BAL_POLICY_FIXED: the factor in [0, 1] (default 1, an even
 *          split); BAL_POLICY_ADAPTIVE: where it starts.
 * @tcomp, @tstartup, @bandwidth: the cost model of CONSTANT and VARIABLE
 *          (seconds per point, per message, bytes per second); 0 = from the
 *          TILEHYBRID_* environment, else measured (t_comp on the master's
 *          first tile, the network by a ping-pong when the plan is made).
 * @adapt_sample: ADAPTIVE: the first window in steps (0 = 2PT).
 * @adapt_period: ADAPTIVE: steps between later evaluations (0 = the window,
 *          -1 = evaluate once).
 * @adapt_smoothing: ADAPTIVE: the weight of a new estimate in (0, 1]
 *          (0 = 0.5).
 * @fn, @ctx: CUSTOM: the factor of every tile.
 */
typedef struct bal_config {
    int policy;
    double bal;
    double tcomp, tstartup, bandwidth;
    int64_t adapt_sample, adapt_period;
    double adapt_smoothing;
    bal_tile_fn fn;
    void *ctx;
} bal_config;

/**
 * struct bal_where - the process a policy balances (fixed for a plan).
 * @n: process dimensions; @pdims, @pcoords: the grid and this process's
 * place in it; @rank, @procs: in the plan's communicator; @threads: T;
 * @extent: X_1..X_N; @dep: d_1..d_N; @tile_height: z; @elem_bytes: bytes
 * per point.
 */
typedef struct bal_where {
    int n, rank, procs, threads;
    int pdims[BAL_MAX_DIMS], pcoords[BAL_MAX_DIMS];
    int64_t extent[BAL_MAX_DIMS], dep[BAL_MAX_DIMS], tile_height;
    double elem_bytes;
} bal_where;

/**
 * struct bal_policy - a policy at work: the configuration, the process, and
 * what the run has found so far.  Fields to read after a run:
 * @first:        the factor of the run's first tile;
 * @now:          the factor at the end (the one for the next tile);
 * @clamped:      eq. 1 asked for a factor outside [0, 1];
 * @uncalibrated: the network could not be measured (timings too noisy to
 *                fit): no cost model, the factor stays 1;
 * @model:        CONSTANT/VARIABLE: the cost model in use;
 * @adapt:        ADAPTIVE: the state machine (evaluations, changes, ...).
 */
typedef struct bal_policy {
    bal_config cfg;
    bal_where where;
    bal_model model;
    bal_adaptive adapt;
    double first, now;
    int clamped, uncalibrated;
    double last_comp, last_comm;
} bal_policy;

#if TILEHYBRID__DEFINE
/** bal_config_init() - the defaults: BAL_POLICY_FIXED with bal = 1. */
TILEHYBRID__COLD void bal_config_init(bal_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->policy = BAL_POLICY_FIXED;
    cfg->bal = 1.0;
}

/**
 * bal_config_check() - validate a configuration (no communication).
 * @cfg: the configuration.
 * Return: BAL_OK; BAL_ERR_BAL (bal outside [0, 1] or NaN); BAL_ERR_POLICY (an
 * unknown policy, or CUSTOM without fn); BAL_ERR_TCOMP, BAL_ERR_TSTARTUP,
 * BAL_ERR_BANDWIDTH (a cost below 0 or NaN); BAL_ERR_SAMPLESTEPS, BAL_ERR_PERIOD,
 * BAL_ERR_SMOOTHING (adaptive settings out of range).
 */
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
#else
TILEHYBRID__COLD void bal_config_init(bal_config *cfg);
TILEHYBRID__COLD int bal_config_check(const bal_config *cfg);
#endif

/* A policy that moves the split at all: CONSTANT/VARIABLE need a cost model. */
static inline int bal__uses_model(const bal_policy *pol)
{
    return pol->where.threads > 1 && (pol->cfg.policy == BAL_POLICY_CONSTANT ||
                                      pol->cfg.policy == BAL_POLICY_VARIABLE);
}

#if TILEHYBRID__DEFINE
/**
 * bal_policy_init() - bind a configuration to a process (no communication).
 * @pol:   the policy to fill.
 * @cfg:   the configuration (copied; bal_config_check rules).
 * @where: the process (copied).
 * The cost model starts from @cfg's costs; bal_policy_setup_ex completes it.
 * Return: BAL_OK or a bal_config_check code.
 */
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
#else
TILEHYBRID__COLD int bal_policy_init(bal_policy *pol, const bal_config *cfg,
                                     const bal_where *where);
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
/**
 * bal_policy_start() - the start of a run: the first tile's factor.
 * @pol: the policy (after bal_policy_setup_ex).
 * FIXED and ADAPTIVE start at cfg.bal; CONSTANT and VARIABLE at eq. 1 when
 * t_comp is known, else at 1 until the master's first tile has measured it;
 * CUSTOM asks fn for each tile.  With one thread the factor is 1.
 */
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
#else
TILEHYBRID__COLD void bal_policy_start(bal_policy *pol);
#endif

/**
 * bal_policy_tile() - the master's factor for a new tile.
 * @pol:  the policy.
 * @tile: the tile (in order).
 * Return: cfg.fn's value clamped to [0, 1] for CUSTOM, else the current
 * factor.  Called by the thread that schedules tiles.
 */
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

/**
 * bal_policy_step() - the end of a step: feed the master's running totals.
 * @pol:     the policy.
 * @compute: the master's computation seconds since the run started.
 * @comm:    its communication work (packing, MPI calls, unpacking) since the
 *           run started; time blocked waiting for a neighbour is left out:
 *           moving work between threads cannot shorten it.
 * @points:  the points it computed since the run started.
 * ADAPTIVE applies Lemma 2 at the end of each window; CONSTANT and VARIABLE
 * measure t_comp on the master's first tile(s) of the user's body when it was
 * not given, then apply eq. 1 once.
 * Return: 1 if the factor changed (it applies to tiles announced from now
 * on), else 0.
 */
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

/**
 * bal_policy_setup_ex() - complete the cost model (collective over @comm).
 * @pol:  the policy (bal_policy_init).
 * @comm: the plan's communicator; every rank calls.  The ping-pong runs on
 *        it (tag TILEHYBRID_TAG_PINGPONG: no other message with that tag
 *        may be pending on it).
 * @st:   NULL, or receives the code, the argument at fault (the
 *        environment variable, "TILEHYBRID_BANDWIDTH" for a mismatch) and
 *        the rank that found it (-1 when no single rank did): the same on
 *        every rank; for BAL_ERR_MPI, the MPI call that failed on this rank
 *        (st->arg: "MPI_Send", "MPI_Recv", "MPI_Allreduce", ...) and its
 *        MPI error code (st->mpi_error).
 *
 * First every rank checks, together (one MPI_Bcast, one agreement, on every
 * rank whatever its arguments), that it passes a @pol (BAL_ERR_NULL,
 * st->arg "pol") with rank 0's bal_config.policy, bal_where.threads and
 * bal_where.procs (BAL_ERR_MISMATCH, st->arg "policy", "threads" or
 * "procs"); st->rank is the lowest
 * rank at fault, and every rank returns that code.  Then CONSTANT and
 * VARIABLE with threads > 1 only (the others return BAL_OK): costs not
 * given come from the TILEHYBRID_* environment,
 * the network (t_startup, bandwidth) by a ping-pong between rank pairs
 * (bal_calibrate_comm_all) when still unknown; t_comp is measured during
 * the run.  Timings too noisy to fit leave the policy uncalibrated (factor
 * 1, the same answer on every rank).
 * Return: the same code on every rank: BAL_OK; BAL_ERR_NULL or
 * BAL_ERR_MISMATCH (the arguments, above); BAL_ERR_ENV_* (a rank's
 * TILEHYBRID_* variable is not a valid number: st->rank is the lowest such
 * rank); BAL_ERR_MISMATCH (TILEHYBRID_BANDWIDTH set on some ranks only);
 * BAL_ERR_MPI on the rank where an MPI call failed: it returns at once,
 * without entering another collective, so the other ranks (its partner
 * in the ping-pong, or the next collective) may wait for it forever: end
 * the job (MPI_Abort) or revoke @comm (ULFM), as tiling.h does.
 */
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
TILEHYBRID__COLD int bal_policy_setup_ex(bal_policy *pol, MPI_Comm comm, tilehybrid_status *st);
#endif

#endif /* TILEHYBRID_NO_MPI */
