/* ------------------------------------------------------------------------
 * Types: the error codes, the cost model, the adaptive state machine and
 * the policy of a run
 * ------------------------------------------------------------------------ */

/** Every function returns BAL_OK (0) or one of these positive codes. */
enum bal_error {
    BAL_OK = 0,
    BAL_ERR_NULL,           /* a required pointer argument is NULL */
    BAL_ERR_TCOMP,          /* model tcomp */
    BAL_ERR_TSTARTUP,       /* model tstartup */
    BAL_ERR_BANDWIDTH,      /* model bandwidth */
    BAL_ERR_ELEMBYTES,      /* model elem_bytes */
    BAL_ERR_DIMS,           /* n */
    BAL_ERR_PDIMS,          /* pdims[i] */
    BAL_ERR_COORDS,         /* coords[i] */
    BAL_ERR_THREADS,        /* threads */
    BAL_ERR_EXTENT,         /* extent[i] */
    BAL_ERR_EMPTY,          /* pdims[i] > extent[i] */
    BAL_ERR_TILEHEIGHT,     /* tile_height */
    BAL_ERR_DEP,            /* dep[i] */
    BAL_ERR_OVERFLOW,       /* a volume or message size overflows int64 */
    BAL_ERR_BAL,            /* a balancing factor outside [0,1] */
    BAL_ERR_TOTAL,          /* split total */
    BAL_ERR_PARTS,          /* split parts */
    BAL_ERR_PART,           /* split part index */
    BAL_ERR_TIME,           /* a measured time */
    BAL_ERR_NOINFO,         /* Lemma 2 with tcomp_master == 0 */
    BAL_ERR_SAMPLESTEPS,    /* adaptive sample_steps */
    BAL_ERR_PERIOD,         /* adaptive period */
    BAL_ERR_SMOOTHING,      /* adaptive smoothing */
    BAL_ERR_STATE,          /* adaptive state fields out of range */
    BAL_ERR_PROCS,          /* procs */
    BAL_ERR_SAMPLES,        /* fit samples */
    BAL_ERR_FIT,            /* a fit that cannot give a model */
    BAL_ERR_ENV_TCOMP,      /* TILEHYBRID_TCOMP */
    BAL_ERR_ENV_TSTARTUP,   /* TILEHYBRID_TSTARTUP */
    BAL_ERR_ENV_BANDWIDTH,  /* TILEHYBRID_BANDWIDTH */
    BAL_ERR_ENV_ELEM_BYTES, /* TILEHYBRID_ELEM_BYTES */
    BAL_ERR_NOPEER,         /* ping-pong without a peer */
    BAL_ERR_MSGSIZE,        /* ping-pong max_bytes */
    BAL_ERR_REPS,           /* ping-pong reps */
    BAL_ERR_MISMATCH,       /* the two ping-pong ranks disagree */
    BAL_ERR_NOMEM,          /* out of memory */
    BAL_ERR_MPI,            /* an MPI call failed */
    BAL_ERR_POLICY          /* bal_config.policy unknown, or CUSTOM without fn */
};

/* ---- the cost model (20-cost.h) ---------------------------------------- */

/**
 * struct bal_model - the machine model of eq. 4-5 of the paper, in SI base
 * units.
 * @tcomp:      seconds per iteration (one point update), > 0;
 * @tstartup:   seconds per message, >= 0;
 * @bandwidth:  bytes per second, > 0;
 * @elem_bytes: bytes per element of a message, > 0.
 */
typedef struct bal_model {
    double tcomp;
    double tstartup;
    double bandwidth;
    double elem_bytes;
} bal_model;

/* ---- the adaptive state machine (60-dynamic.h) ------------------------- */

/**
 * struct bal_adaptive - the adaptive balancing state machine.
 * @bal:          the factor to apply now, in [min_bal, 1] after the first
 *                evaluation;
 * @smoothing:    (rw) in (0,1]; 1 = the paper's jump to eq. 2;
 * @min_bal:      (rw) floor in [0,1], default BAL_ADAPTIVE_MIN_BAL;
 * @deadband:     (rw) >= 0, default BAL_ADAPTIVE_DEADBAND;
 * @threads:      T;
 * @sample_steps: the first window, e.g. bal_sampling_steps();
 * @period:       steps between evaluations after the first, 0 = once;
 * @step:         steps fed so far;
 * @next_eval:    the step at whose end the next evaluation happens;
 * @window:       length of the current window;
 * @evaluations:  evaluations done;
 * @changes:      evaluations that changed bal;
 * @changed:      1 if the last bal_adaptive_step() changed bal (apply it
 *                from the next step on), else 0;
 * @sum_comp:     master computation time in the current window;
 * @sum_comm:     master communication time in the current window;
 * @last_target:  Lemma 2's value at the last evaluation, -1 if none or no
 *                information;
 * @done:         1 when period == 0 and the only evaluation happened.
 *
 * A plain struct: initialise with bal_adaptive_init(), then feed one
 * bal_adaptive_step() per step; read st.bal.  No clock inside: the caller
 * measures.  Fields marked (rw) may be changed between steps; the others
 * are read-only.  POLICY, exactly:
 *
 *   Steps are numbered 1, 2, ... in the order they are fed.  Evaluations
 *   happen at the end of steps E_1 = sample_steps and, when period > 0,
 *   E_{k+1} = E_k + period (when period == 0 only E_1: the paper's scheme).
 *   Evaluation k uses the times of the last W_k steps before it, all run
 *   under the factor in force: W_1 = sample_steps, W_k = min(sample_steps,
 *   period) for k > 1 (steps just after a change, while the pipeline
 *   settles, are skipped when period > sample_steps).
 *   At an evaluation, with C and M the sums of tcomm_master and
 *   tcomp_master over the window:
 *     - M == 0 (the master computed nothing, Lemma 2 has no information):
 *       target = max(bal, min_bal), i.e. a factor below the floor (e.g. a
 *       start at 0) is raised so that the next window measures something;
 *     - else target = max(min_bal, lemma2(bal, T, M, C));
 *     - new = bal + smoothing * (target - bal), clamped to [min_bal, 1]
 *       (exponential smoothing: 1 jumps straight to Lemma 2 as the paper,
 *       0.5 halves the distance each time, damping noise and oscillation);
 *     - if |new - bal| <= deadband and bal >= min_bal, nothing changes
 *       (changed = 0); otherwise bal = new and changed = 1.
 *   Under the model of Lemma 2 (computation proportional to the share,
 *   communication time independent of the split) the target is the optimum
 *   b* whatever bal was, so bal converges geometrically, the distance
 *   shrinking by (1 - smoothing) per evaluation, and settles within
 *   deadband/smoothing of b* (or at b* exactly with deadband 0); if costs
 *   drift, bal follows b* with a lag of about 1/smoothing evaluations.
 *   When communication does depend on the split (e.g. overlap, or waits
 *   that shrink as the master speeds up), Lemma 2 overshoots and smoothing
 *   < 1 keeps the iteration stable.
 *   The floor min_bal (> 0 by default) keeps the master computing a little,
 *   so its rate stays measurable and the factor can rise again after a
 *   phase of heavy communication; with bal_split() the master gets >= 1
 *   point whenever bal > 0 and the step has >= parts points.
 */
typedef struct bal_adaptive {
    double bal;
    double smoothing;
    double min_bal;
    double deadband;
    int threads;
    int64_t sample_steps;
    int64_t period;
    int64_t step;
    int64_t next_eval;
    int64_t window;
    int64_t evaluations;
    int64_t changes;
    int changed;
    double sum_comp;
    double sum_comm;
    double last_target;
    int done;
} bal_adaptive;

/* ---- the policy of a run (80-policy.h) --------------------------------- */

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
