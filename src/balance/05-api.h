/* ------------------------------------------------------------------------
 * The API: every public function, declared and documented here
 * ------------------------------------------------------------------------ */

/* The definitions follow, each part with its private helpers (names
 * bal__*): 10-errors.h to 80-policy.h.  TILEHYBRID__COLD is static inline
 * in a header-only build; under TILEHYBRID_SEPARATE these are external
 * functions, compiled once (tilehybrid.h, "COMPILING THE COLD CODE
 * ONCE").  The public macros: BAL_VERSION and BAL_MAX_DIMS (with the
 * types, above); BAL_HAVE_* (the bits of bal_model_from_env()'s *found,
 * 20-cost.h); BAL_ADAPTIVE_MIN_BAL and BAL_ADAPTIVE_DEADBAND (the adaptive
 * state's defaults, 60-dynamic.h); BAL_PINGPONG_SIZES and
 * BAL_PINGPONG_PASSES (the ping-pong's message sizes and passes,
 * 70-pingpong.h). */

/* ---- errors ------------------------------------------------------------ */

/**
 * bal_strerror() - a one-line message for an error code.
 * @code: a value returned by a bal_ function.
 *
 * Return: a static string that names the argument at fault and the rule
 * it broke; "unknown balance.h error code" for anything else.  Never NULL.
 */
TILEHYBRID__COLD const char *bal_strerror(int code);

/* ---- the cost model ---------------------------------------------------- */

/**
 * bal_model_check() - validate a model.
 * @m: the model.
 *
 * Return: BAL_OK, BAL_ERR_NULL, or the code of the first bad field in
 * declaration order (BAL_ERR_TCOMP, BAL_ERR_TSTARTUP, BAL_ERR_BANDWIDTH,
 * BAL_ERR_ELEMBYTES).
 */
static inline int bal_model_check(const bal_model *m);

/**
 * bal_tcomp() - t_comp(x) = x * tcomp: seconds for @iterations point updates.
 * @m:          a valid model (not checked: use bal_model_check() once);
 * @iterations: the number of point updates.
 *
 * Return: the seconds.
 */
static inline double bal_tcomp(const bal_model *m, double iterations);

/**
 * bal_tcomm() - t_comm(x) = tstartup + x * elem_bytes / bandwidth: seconds
 * to send one message.
 * @m:        a valid model (not checked);
 * @elements: the message size in ELEMENTS (not bytes).
 *
 * Return: the seconds.
 */
static inline double bal_tcomm(const bal_model *m, double elements);

/**
 * bal_model_from_env() - override model fields from the environment.
 * @m:     the model; the field of every variable that is SET is replaced,
 *         the others are left untouched (so fill in defaults first).
 * @found: may be NULL; receives the BAL_HAVE_* bits of the variables that
 *         were set (0 if none).
 *
 * Variables: TILEHYBRID_TCOMP (> 0), TILEHYBRID_TSTARTUP (>= 0),
 * TILEHYBRID_BANDWIDTH (> 0), TILEHYBRID_ELEM_BYTES (> 0), each read by
 * tilehybrid_parse_double() (the one rule of every program: no spaces, '+',
 * hex, inf or nan; a subnormal such as 1e-310 is a number, 1e-400 and
 * 1e999 are out of range).  On error the model may have been partly
 * updated.  Uses getenv(): do not call while another thread modifies the
 * environment.
 *
 * Return: BAL_OK, BAL_ERR_NULL, or BAL_ERR_ENV_<NAME> for the first
 * variable (in the order above) that is set but not a valid number.
 */
TILEHYBRID__COLD int bal_model_from_env(bal_model *m, int *found);

/**
 * bal_fit_tcomp() - t_comp(1) from timings of the user's own stencil body.
 * @seconds:    n measured times, finite and >= 0;
 * @iterations: the number of point updates each time covers, finite and > 0
 *              (doubles so that large counts pass without casts);
 * @n:          >= 1;
 * @tcomp:      receives the least-squares slope through the origin,
 *              sum(s_k i_k) / sum(i_k^2), i.e. the model t_comp(x) = x tcomp;
 * @fit:        may be NULL; receives intercept 0, slope = *tcomp, and the
 *              quality of that line (tilehybrid_fit_quality(): r2 can be < 0
 *              for a fit through the origin when the times have a large
 *              fixed offset).
 *
 * Return: BAL_OK, BAL_ERR_NULL, BAL_ERR_SAMPLES (bad n or sample) or
 * BAL_ERR_FIT (the slope is 0: all times were 0, below the clock's
 * resolution; time more iterations).
 */
TILEHYBRID__COLD int bal_fit_tcomp(const double *seconds, const double *iterations, int n,
                                   double *tcomp, tilehybrid_fit *fit);

/**
 * bal_model_set_comm() - set tstartup and bandwidth from a ping-pong fit of
 * one-way seconds against message BYTES.
 * @m:   the model; tstartup = max(0, intercept) (a slightly negative
 *       intercept is noise), bandwidth = 1/slope bytes per second.  tcomp
 *       and elem_bytes are not touched.
 * @fit: the fit (bal_calibrate_comm*, or tilehybrid_fit_affine() of your
 *       own timings).
 *
 * Return: BAL_OK, BAL_ERR_NULL, or BAL_ERR_FIT (slope not finite and > 0,
 * intercept not finite); the model is unchanged on error.
 */
TILEHYBRID__COLD int bal_model_set_comm(bal_model *m, const tilehybrid_fit *fit);

#ifndef TILEHYBRID_NO_MPI
/* ---- the cost model: the network measured (MPI) ------------------------ */

/**
 * bal_calibrate_comm() - measure t_comm by ping-pong with one peer and fit
 * the affine model one-way seconds = tstartup + bytes / bandwidth by least
 * squares.
 * @comm:      a communicator containing both ranks;
 * @peer:      the other rank in comm; both ranks call this function, each
 *             naming the other (the lower rank leads);
 * @max_bytes: largest message, in [1, INT_MAX]; sizes are k * max_bytes / 7
 *             bytes, k = 0..7 (0 included, so the intercept is measured);
 *             pick it near the application's message size (e.g. 1 MiB);
 * @reps:      >= 1 rounds per pass; a round is one round trip of every size
 *             in turn (interleaved, so a burst of noise hits all sizes
 *             alike), and the minimum per size over all rounds is kept;
 * @fit:       receives the fit on both ranks (the leader's numbers):
 *             intercept ~ tstartup (s), slope ~ 1/bandwidth (s/byte), r2,
 *             max_resid (s), n = BAL_PINGPONG_SIZES.  Pass it to
 *             bal_model_set_comm().  A poor r2 or a large max_resid means
 *             the affine model fits badly (e.g. an eager/rendezvous
 *             protocol switch inside the range) or the machine was busy.
 *
 * Procedure: a handshake checks that both passed a @fit (a NULL one on
 * either rank: both return BAL_ERR_NULL), the same max_bytes and reps and
 * could allocate their buffer (else both return BAL_ERR_MISMATCH); one warm-up round trip at max_bytes; then passes of
 * reps rounds (tilehybrid_pingpong()).  After each pass the leader fits the
 * minima so far (tilehybrid_fit_affine()); when the slope is positive or
 * after BAL_PINGPONG_PASSES passes it stops, and sends the fit to the peer.
 * Not collective: only the pair communicates, with tag
 * TILEHYBRID_TAG_PINGPONG (no other traffic with that tag may be pending
 * between them).  Call from one thread (under MPI_THREAD_FUNNELED, the
 * master).
 *
 * Return: BAL_OK (then fit->slope > 0), BAL_ERR_NULL (a NULL fit) or
 * BAL_ERR_NOPEER without communicating when there is no peer
 * (peer == MPI_PROC_NULL, this rank or not in comm: e.g. a 1-process run),
 * then BAL_ERR_NULL (on both ranks of the pair), BAL_ERR_MSGSIZE, BAL_ERR_REPS,
 * BAL_ERR_MISMATCH, BAL_ERR_NOMEM, BAL_ERR_MPI (an MPI call failed) or
 * BAL_ERR_FIT (the slope stayed <= 0: the timings are dominated by noise;
 * *fit holds that fit anyway).
 */
TILEHYBRID__COLD int bal_calibrate_comm(MPI_Comm comm, int peer, int max_bytes, int reps,
                                        tilehybrid_fit *fit);

/**
 * bal_calibrate_comm_all() - collective ping-pong calibration.
 * @comm:      the communicator; every rank calls.
 * @max_bytes: as for bal_calibrate_comm(), the same on every rank.
 * @reps:      as for bal_calibrate_comm(), the same on every rank.
 * @fit:       receives the same combined fit on every rank.
 *
 * Ranks 2k and 2k+1 of comm pair up (with an odd size the last rank only
 * waits), every pair runs bal_calibrate_comm() on a duplicate of comm, and
 * every rank receives the mean intercept and slope over the pairs that got
 * a fit with a positive slope, the smallest r2 and the largest max_resid
 * among them, n = BAL_PINGPONG_SIZES.  Ranks agree on errors with
 * tilehybrid_agree().
 *
 * An MPI call that fails on one rank is not agreed on: that rank returns
 * BAL_ERR_MPI at once, without entering another collective, and its
 * partner (or every other rank) may then wait for it forever: on
 * BAL_ERR_MPI, end the job (MPI_Abort) or revoke comm (ULFM).
 *
 * Return: BAL_OK, BAL_ERR_NOPEER when comm has a single process (nothing is
 * measured, nothing hangs), BAL_ERR_FIT when no pair got a positive slope,
 * the error of the lowest rank that had one (its arguments first:
 * BAL_ERR_NULL, BAL_ERR_MSGSIZE, BAL_ERR_REPS; then its pair's) -- each
 * the same on every rank -- or BAL_ERR_MPI on the rank where a call failed.
 */
TILEHYBRID__COLD int bal_calibrate_comm_all(MPI_Comm comm, int max_bytes, int reps,
                                            tilehybrid_fit *fit);

/**
 * bal_calibrate_comm_all_ex() - bal_calibrate_comm_all(), naming the call
 * that failed.
 * @comm, @max_bytes, @reps, @fit: as for bal_calibrate_comm_all().
 * @st:  out (may be NULL): on BAL_ERR_MPI, the MPI call that failed on this
 *       rank (st->arg, "MPI_Send", "MPI_Recv", ...) and its error code
 *       (st->mpi_error).
 * Return: as bal_calibrate_comm_all().
 */
TILEHYBRID__COLD int bal_calibrate_comm_all_ex(MPI_Comm comm, int max_bytes, int reps,
                                               tilehybrid_fit *fit, tilehybrid_status *st);
#endif /* TILEHYBRID_NO_MPI */

/* ---- static factors: eq. 1 --------------------------------------------- */

/**
 * bal_factor_check() - validate the arguments of bal_factor() (all but the
 * model and the outputs).
 * @n, @pdims, @coords, @threads, @extent, @tile_height, @dep: as for
 *          bal_factor() (@coords may be NULL).
 * @status: may be NULL; receives the code, the argument at fault ("pdims",
 *          "coords", "threads", "extent", "tile_height", "dep", "n") and,
 *          for the per-dimension codes (BAL_ERR_PDIMS, BAL_ERR_COORDS,
 *          BAL_ERR_EXTENT, BAL_ERR_EMPTY, BAL_ERR_DEP), the dimension, else
 *          index -1.
 *
 * Checks in this order: NULL pdims/extent/dep (BAL_ERR_NULL), n >= 1, every
 * pdims[i] >= 1, every coords[i] in [0, pdims[i]) (when coords != NULL),
 * threads >= 1, every extent[i] >= 1, pdims[i] <= extent[i] (no process
 * without points), tile_height >= 1, every dep[i] >= 0.
 *
 * Return: BAL_OK or the first error found.
 */
static inline int bal_factor_check(int n, const int *pdims, const int *coords, int threads,
                                   const int64_t *extent, int64_t tile_height,
                                   const int64_t *dep, tilehybrid_status *status);

/**
 * bal_factor() - the balancing factor of eq. 1 (Lemma 1).
 * @m:           the cost model (bal_model_check() rules);
 * @n:           number of process dimensions N (the tiled space has N+1,
 *               the last one, Z, is swept sequentially in tiles of height z);
 * @pdims:       P_1..P_N, processes per dimension;
 * @coords:      NULL for the CONSTANT factor: the paper's non-boundary
 *               process that sends along every dimension, with the
 *               real-valued sizes Xz/P and d_i P_i X z/(X_i P); or the
 *               coordinates of one process for its VARIABLE factor: its own
 *               block of the block distribution (X_i/P_i points, the first
 *               X_i%P_i processes one more) and only the dimensions where it
 *               actually sends (P_i > 1 and coords[i] < P_i - 1);
 * @threads:     T, threads per process; T == 1 gives 1 (nobody to hand work to);
 * @extent:      X_1..X_N, extents of the iteration space (points);
 * @tile_height: z >= 1;
 * @dep:         d_1..d_N >= 0, dependence lengths in elements: a message
 *               along i is d_i layers deep.  d_i == 0 means no dependence
 *               along i: no message, no startup cost, in both modes;
 * @bal:         receives the factor, clamped to [0, 1];
 * @clamped:     may be NULL; receives 1 when eq. 1 gave a value below 0 (the
 *               communication alone exceeds what the master can give up:
 *               it computes nothing and still finishes last) or above 1, else 0.
 *
 * The master then computes bal/T of the process's points per step, each
 * other thread (T-bal)/(T(T-1)); see bal_split().  bal_factor_check() gives
 * the dimension of an argument error.
 *
 * Return: BAL_OK, BAL_ERR_NULL, a model error, a bal_factor_check() error
 * or BAL_ERR_OVERFLOW (the block volume or a message size exceeds int64).
 */
static inline int bal_factor(const bal_model *m, int n, const int *pdims, const int *coords,
                             int threads, const int64_t *extent, int64_t tile_height,
                             const int64_t *dep, double *bal, int *clamped);

/**
 * bal_tile_times() - the model's time per step (tile) of each thread under
 * a given factor, eq. 7-8 of the paper: what bal_factor() equalises.
 * @m, @n, @pdims, @coords, @threads, @extent, @tile_height, @dep: as for
 *            bal_factor() (coords NULL = constant mode);
 * @bal:      the factor in [0,1] to evaluate;
 * @t_master: receives t_comp(bal/T * V) + the master's t_comm;
 * @t_other:  receives t_comp((T-bal)/(T(T-1)) * V) of each other thread
 *            (0 when T == 1), V = points per step of the process.
 *
 * Return: BAL_OK or an error as bal_factor(), BAL_ERR_BAL for a bad bal.
 */
TILEHYBRID__COLD int bal_tile_times(const bal_model *m, int n, const int *pdims, const int *coords,
                                    int threads, const int64_t *extent, int64_t tile_height,
                                    const int64_t *dep, double bal, double *t_master,
                                    double *t_other);

/* ---- the split of a step's work ---------------------------------------- */

/**
 * bal_split() - split a step's work between the threads.
 * @total:  units (points, rows, ...) of one step, >= 0;
 * @parts:  >= 1 contiguous ranges: part 0 for the master thread, parts
 *          1..parts-1 for the others, in this order;
 * @bal:    the factor in [0,1] (bal_factor() or the adaptive state's bal);
 * @counts: receives parts counts; counts[i] units go to part i, and part i
 *          starts at counts[0] + ... + counts[i-1].
 *
 * Rounding, exactly:
 *   - parts == 1: counts[0] = total (whatever bal is);
 *   - master: ideal = bal * total / parts, rounded half up to an integer,
 *     then raised to 1 if it came out 0 while bal > 0 and total >= parts,
 *     and lowered so that every other part can get >= 1 when total >= parts
 *     (never needed for bal <= 1, kept as a guard). So |counts[0] - ideal| < 1
 *     and counts[0] == 0 only if bal == 0 or ideal < 1/2 with total < parts;
 *   - the others: rest = total - counts[0] evenly, rest/(parts-1) each, the
 *     first rest%(parts-1) of them one more, so they differ by at most 1 and
 *     none gets 0 when total >= parts.
 *   The counts sum to total exactly.  bal = 1 is an (almost) even split.
 *
 * Return: BAL_OK, BAL_ERR_TOTAL (< 0), BAL_ERR_PARTS (< 1), BAL_ERR_BAL or
 * BAL_ERR_NULL.
 */
TILEHYBRID__COLD int bal_split(int64_t total, int parts, double bal, int64_t *counts);

/**
 * bal_split_part() - one part of bal_split() without an array: for a thread
 * that computes its own range inside a parallel region.
 * @total, @parts, @bal: as for bal_split();
 * @part:  0 (master) .. parts-1;
 * @first: receives the first unit of the part (0-based);
 * @count: receives its number of units; identical to bal_split()'s
 *         counts[part].
 *
 * Return: BAL_OK or the errors of bal_split(), BAL_ERR_PART for a bad part.
 */
static inline int bal_split_part(int64_t total, int parts, double bal, int part, int64_t *first,
                                 int64_t *count);

/* ---- adaptive factors: Lemma 2 ----------------------------------------- */

/**
 * bal_lemma2() - the corrected factor from measured master times, eq. 2:
 *     bal' = 1 - bal (T-1)/T * tcomm_master / tcomp_master, clamped to [0,1].
 * @bal:          the factor in force while measuring, in [0,1];
 * @threads:      T >= 1 (T == 1 gives 1);
 * @tcomp_master: the master's computation time (an average per step, or a
 *                sum over steps: only the ratio matters), finite, >= 0;
 * @tcomm_master: its non-overlapped communication time over the same steps
 *                (packing, MPI calls, waiting, unpacking), finite, >= 0;
 * @next:         receives bal'.
 *
 * Under the model (computation proportional to the share, communication
 * independent of the split) bal' is the optimum of eq. 1 whatever bal was.
 *
 * Return: BAL_OK, BAL_ERR_BAL, BAL_ERR_THREADS, BAL_ERR_TIME, BAL_ERR_NULL,
 * or BAL_ERR_NOINFO when tcomp_master == 0 (the master computed nothing, so
 * its rate is unknown); then *next = bal.
 */
static inline int bal_lemma2(double bal, int threads, double tcomp_master, double tcomm_master,
                             double *next);

/**
 * bal_sampling_steps() - the paper's sampling period, 2PT steps: long
 * enough for the pipeline's wavefront to reach the farthest process (it
 * needs more than PT steps) and then measure a full pipeline.
 * @procs:   P >= 1;
 * @threads: T >= 1;
 * @steps:   receives 2PT.
 *
 * Return: BAL_OK, BAL_ERR_PROCS, BAL_ERR_THREADS or BAL_ERR_NULL.
 */
TILEHYBRID__COLD int bal_sampling_steps(int procs, int threads, int64_t *steps);

/**
 * bal_adaptive_init() - start the state machine.
 * @st:           the state (overwritten);
 * @bal0:         the starting factor in [0,1]: a static factor (bal_factor()),
 *                or 1 (no balancing) when nothing is known;
 * @threads:      T >= 1;
 * @sample_steps: >= 1, the first sampling window (bal_sampling_steps(): 2PT);
 * @period:       >= 0, steps between later re-evaluations; 0 = evaluate only
 *                once, after the sampling period (the paper);
 * @smoothing:    in (0,1], see the policy at struct bal_adaptive.
 *
 * min_bal and deadband get their defaults; change them after init if needed.
 *
 * Return: BAL_OK or BAL_ERR_NULL, BAL_ERR_BAL, BAL_ERR_THREADS,
 * BAL_ERR_SAMPLESTEPS, BAL_ERR_PERIOD, BAL_ERR_SMOOTHING (st untouched on
 * error).
 */
TILEHYBRID__COLD int bal_adaptive_init(bal_adaptive *st, double bal0, int threads,
                                       int64_t sample_steps, int64_t period, double smoothing);

/**
 * bal_adaptive_step() - feed the master thread's times of one step.
 * @st:           the state (bal_adaptive_init());
 * @tcomp_master: its computation time in this step, finite, >= 0;
 * @tcomm_master: its non-overlapped communication time, finite, >= 0.
 *
 * Sets st->changed to 1 when st->bal has just changed (apply it from the
 * next step on), else to 0.
 *
 * Return: BAL_OK, BAL_ERR_NULL, BAL_ERR_TIME (bad time: the step is not
 * counted and the state is unchanged) or BAL_ERR_STATE (bal, min_bal,
 * smoothing, deadband out of range; the state is unchanged).
 */
static inline int bal_adaptive_step(bal_adaptive *st, double tcomp_master, double tcomm_master);

/* ---- the policy of a run ----------------------------------------------- */

/** bal_config_init() - the defaults: BAL_POLICY_FIXED with bal = 1. */
TILEHYBRID__COLD void bal_config_init(bal_config *cfg);

/**
 * bal_config_check() - validate a configuration (no communication).
 * @cfg: the configuration.
 * Return: BAL_OK; BAL_ERR_BAL (bal outside [0, 1] or NaN); BAL_ERR_POLICY (an
 * unknown policy, or CUSTOM without fn); BAL_ERR_TCOMP, BAL_ERR_TSTARTUP,
 * BAL_ERR_BANDWIDTH (a cost below 0 or NaN); BAL_ERR_SAMPLESTEPS, BAL_ERR_PERIOD,
 * BAL_ERR_SMOOTHING (adaptive settings out of range).
 */
TILEHYBRID__COLD int bal_config_check(const bal_config *cfg);

/**
 * bal_policy_init() - bind a configuration to a process (no communication).
 * @pol:   the policy to fill.
 * @cfg:   the configuration (copied; bal_config_check rules).
 * @where: the process (copied).
 * The cost model starts from @cfg's costs; bal_policy_setup_ex completes it.
 * Return: BAL_OK or a bal_config_check code.
 */
TILEHYBRID__COLD int bal_policy_init(bal_policy *pol, const bal_config *cfg, const bal_where *where);

#ifndef TILEHYBRID_NO_MPI
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
TILEHYBRID__COLD int bal_policy_setup_ex(bal_policy *pol, MPI_Comm comm, tilehybrid_status *st);
#endif /* TILEHYBRID_NO_MPI */

/**
 * bal_policy_start() - the start of a run: the first tile's factor.
 * @pol: the policy (after bal_policy_setup_ex).
 * FIXED and ADAPTIVE start at cfg.bal; CONSTANT and VARIABLE at eq. 1 when
 * t_comp is known, else at 1 until the master's first tile has measured it;
 * CUSTOM asks fn for each tile.  With one thread the factor is 1.
 */
TILEHYBRID__COLD void bal_policy_start(bal_policy *pol);

/**
 * bal_policy_tile() - the master's factor for a new tile.
 * @pol:  the policy.
 * @tile: the tile (in order).
 * Return: cfg.fn's value clamped to [0, 1] for CUSTOM, else the current
 * factor.  Called by the thread that schedules tiles.
 */
static inline double bal_policy_tile(bal_policy *pol, int64_t tile);

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
static inline int bal_policy_step(bal_policy *pol, double compute, double comm, int64_t points);
