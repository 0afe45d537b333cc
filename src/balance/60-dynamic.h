/* ------------------------------------------------------------------------
 * Dynamic balancing: eq. 2 (Lemma 2) and the adaptive state machine
 * ------------------------------------------------------------------------ */

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
                             double *next)
{
    double b;
    if (!bal__finite(bal) || bal < 0 || bal > 1)
        return BAL_ERR_BAL;
    if (threads < 1)
        return BAL_ERR_THREADS;
    if (!bal__finite(tcomp_master) || tcomp_master < 0 || !bal__finite(tcomm_master) ||
        tcomm_master < 0)
        return BAL_ERR_TIME;
    if (next == NULL)
        return BAL_ERR_NULL;
    if (threads == 1) {
        *next = 1.0;
        return BAL_OK;
    }
    if (tcomp_master == 0) {
        *next = bal;
        return BAL_ERR_NOINFO;
    }
    b = 1.0 - bal * (threads - 1) / threads * tcomm_master / tcomp_master;
    *next = b < 0 ? 0.0 : (b > 1 ? 1.0 : b);
    return BAL_OK;
}

#if TILEHYBRID__DEFINE
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
TILEHYBRID__COLD int bal_sampling_steps(int procs, int threads, int64_t *steps)
{
    if (procs < 1)
        return BAL_ERR_PROCS;
    if (threads < 1)
        return BAL_ERR_THREADS;
    if (steps == NULL)
        return BAL_ERR_NULL;
    *steps = 2 * (int64_t)procs * (int64_t)threads;
    return BAL_OK;
}
#else
TILEHYBRID__COLD int bal_sampling_steps(int procs, int threads, int64_t *steps);
#endif

#define BAL_ADAPTIVE_MIN_BAL 0.01   /* default floor of the adaptive factor */
#define BAL_ADAPTIVE_DEADBAND 0.001 /* default smallest change applied */

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

#if TILEHYBRID__DEFINE
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
                                       int64_t sample_steps, int64_t period, double smoothing)
{
    if (st == NULL)
        return BAL_ERR_NULL;
    if (!bal__finite(bal0) || bal0 < 0 || bal0 > 1)
        return BAL_ERR_BAL;
    if (threads < 1)
        return BAL_ERR_THREADS;
    if (sample_steps < 1)
        return BAL_ERR_SAMPLESTEPS;
    if (period < 0)
        return BAL_ERR_PERIOD;
    if (!bal__finite(smoothing) || !(smoothing > 0) || smoothing > 1)
        return BAL_ERR_SMOOTHING;
    memset(st, 0, sizeof *st);
    st->bal = bal0;
    st->smoothing = smoothing;
    st->min_bal = BAL_ADAPTIVE_MIN_BAL;
    st->deadband = BAL_ADAPTIVE_DEADBAND;
    st->threads = threads;
    st->sample_steps = sample_steps;
    st->period = period;
    st->next_eval = sample_steps;
    st->window = sample_steps;
    st->last_target = -1.0;
    return BAL_OK;
}
#else
TILEHYBRID__COLD int bal_adaptive_init(bal_adaptive *st, double bal0, int threads,
                                       int64_t sample_steps, int64_t period, double smoothing);
#endif

/* 1 if the (rw) fields and the counters are in range. */
static inline int bal__adaptive_sane(const bal_adaptive *st)
{
    return bal__finite(st->bal) && st->bal >= 0 && st->bal <= 1 && bal__finite(st->min_bal) &&
           st->min_bal >= 0 && st->min_bal <= 1 && bal__finite(st->deadband) &&
           st->deadband >= 0 && bal__finite(st->smoothing) && st->smoothing > 0 &&
           st->smoothing <= 1 && st->threads >= 1 && st->window >= 1;
}

/* An evaluation (the policy at struct bal_adaptive): the new factor, and
 * the next window. */
static inline void bal__adaptive_eval(bal_adaptive *st)
{
    double target = 0, nb;
    if (st->sum_comp == 0) {
        target = st->bal < st->min_bal ? st->min_bal : st->bal;
        st->last_target = -1.0;
    } else {
        (void)bal_lemma2(st->bal, st->threads, st->sum_comp, st->sum_comm, &target);
        st->last_target = target;
        if (target < st->min_bal)
            target = st->min_bal;
    }
    nb = st->bal + st->smoothing * (target - st->bal);
    nb = nb < st->min_bal ? st->min_bal : nb > 1 ? 1 : nb;
    st->evaluations++;
    st->sum_comp = 0;
    st->sum_comm = 0;
    if (st->period == 0) {
        st->done = 1;
    } else {
        st->next_eval += st->period;
        st->window = st->sample_steps < st->period ? st->sample_steps : st->period;
    }
    if (nb == st->bal || (bal__abs(nb - st->bal) <= st->deadband && st->bal >= st->min_bal))
        return;
    st->bal = nb;
    st->changes++;
    st->changed = 1;
}

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
static inline int bal_adaptive_step(bal_adaptive *st, double tcomp_master, double tcomm_master)
{
    if (st == NULL)
        return BAL_ERR_NULL;
    if (!bal__finite(tcomp_master) || tcomp_master < 0 || !bal__finite(tcomm_master) ||
        tcomm_master < 0)
        return BAL_ERR_TIME;
    if (!bal__adaptive_sane(st))
        return BAL_ERR_STATE;
    st->step++;
    st->changed = 0;
    if (st->done)
        return BAL_OK;
    if (st->step > st->next_eval - st->window) {
        st->sum_comp += tcomp_master;
        st->sum_comm += tcomm_master;
    }
    if (st->step >= st->next_eval)
        bal__adaptive_eval(st);
    return BAL_OK;
}
