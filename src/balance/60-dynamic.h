/* ------------------------------------------------------------------------
 * Dynamic balancing: eq. 2 (Lemma 2) and the adaptive state machine
 * ------------------------------------------------------------------------ */

/* bal_lemma2() -- documented at its declaration (05-api.h). */
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
/* bal_sampling_steps() -- documented at its declaration (05-api.h). */
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
#endif

#define BAL_ADAPTIVE_MIN_BAL 0.01   /* default floor of the adaptive factor */
#define BAL_ADAPTIVE_DEADBAND 0.001 /* default smallest change applied */

#if TILEHYBRID__DEFINE
/* bal_adaptive_init() -- documented at its declaration (05-api.h). */
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

/* bal_adaptive_step() -- documented at its declaration (05-api.h). */
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
